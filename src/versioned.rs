//! The envelope of every game's saves: `{"format": tag, "version": n, "state": …}`. The tag says
//! which game (and which kind of save) the JSON is, the version which layout of the state.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Serialize)]
struct Out<'a, T> {
    format: &'static str,
    version: u32,
    state: &'a T,
}

#[derive(Deserialize)]
struct In {
    format: String,
    version: u32,
    state: Value,
}

/// `state` in the envelope of `format` and `version`, as JSON.
pub fn save<T: Serialize>(format: &'static str, version: u32, state: &T) -> String {
    serde_json::to_string(&Out { format, version, state }).expect("a game state always serializes")
}

/// The state of a save of `format` and `version`, as JSON for the game to read and validate; the
/// error names what is wrong (`title`: the game's name in messages).
pub fn open(text: &str, format: &str, version: u32, title: &str) -> Result<Value> {
    let save: In = serde_json::from_str(text).map_err(|e| Error::BadSave(format!("not a {title} save: {e}")))?;
    if save.format != format {
        return Err(Error::BadSave(format!("format: '{}' is not '{format}'", save.format)));
    }
    if save.version != version {
        return Err(Error::BadSave(format!("version: {} is not supported (this engine reads {version})", save.version)));
    }
    Ok(save.state)
}

/// The furthest a saved ChaCha stream may stand (`word_pos`): far beyond any game's draws, and far
/// enough below 2⁶⁴ that the stream can always be saved again (a position past 2⁶⁴ does not
/// serialize as a JSON number).
pub const MAX_WORD_POS: u64 = 1 << 62;

/// Refuses every ChaCha stream under `v` (an object with `seed`, `stream` and `word_pos`) whose
/// `word_pos` is not an integer in 0 … `MAX_WORD_POS`, naming its path under `root`.
pub fn check_streams(v: &Value, root: &str) -> Result<()> {
    match bad_stream(v) {
        None => Ok(()),
        Some((path, w)) => {
            let path = format!("{root}{path}");
            let path = path.trim_start_matches('.');
            Err(Error::BadSave(format!("{path}.word_pos: {w} is not a stream position (0 … {MAX_WORD_POS})")))
        }
    }
}

/// The path (".a[1].b") of the first stream under `v` with a bad `word_pos`, and that value.
fn bad_stream(v: &Value) -> Option<(String, Value)> {
    match v {
        Value::Object(m) => {
            if m.contains_key("seed") && m.contains_key("stream") {
                if let Some(w) = m.get("word_pos") {
                    if w.as_u64().is_none_or(|w| w > MAX_WORD_POS) {
                        return Some((String::new(), w.clone()));
                    }
                }
            }
            m.iter().find_map(|(k, x)| bad_stream(x).map(|(p, w)| (format!(".{k}{p}"), w)))
        }
        Value::Array(a) => a.iter().enumerate().find_map(|(i, x)| bad_stream(x).map(|(p, w)| (format!("[{i}]{p}"), w))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_save_opens_and_a_wrong_tag_version_or_text_is_named() {
        let json = super::save("maquis.test", 2, &[1, 2, 3]);
        assert_eq!(super::open(&json, "maquis.test", 2, "test").unwrap(), serde_json::json!([1, 2, 3]));
        let e = super::open(&json, "maquis.other", 2, "test").unwrap_err().to_string();
        assert!(e.contains("format") && e.contains("maquis.test"), "{e}");
        let e = super::open(&json, "maquis.test", 1, "test").unwrap_err().to_string();
        assert!(e.contains("version: 2"), "{e}");
        let e = super::open("[", "maquis.test", 2, "test").unwrap_err().to_string();
        assert!(e.contains("not a test save"), "{e}");
    }
}
