//! Which game a save belongs to, from its format tag, so that a save loaded into another game's
//! class is refused with a message naming its own game (rather than the first field that does
//! not parse).

use super::BindGame;
use crate::error::Error;
use pyo3::prelude::*;
use serde::Deserialize;

/// A game's save formats and where its saves are loaded in Python.
pub struct SaveKind {
    /// The game's short name, as `save_game` returns it and the CLI spells it.
    pub key: &'static str,
    /// The game's title, for messages.
    pub title: &'static str,
    /// Where Python loads it ("maquis (MaquisEnv, MaquisVectorEnv)").
    pub loaded_with: &'static str,
    /// The format tags of its saves: game states, environment states, pickled environments.
    pub formats: &'static [&'static str],
}

/// Every game with bindings, from the one list of `crate::py` (`games!`).
use crate::py::GAMES;

/// The game whose save `json` is, by its format tag (None: not JSON, no tag, or no game's).
pub fn game_of(json: &str) -> Option<(&'static SaveKind, String)> {
    #[derive(Deserialize)]
    struct Tag {
        format: String,
    }
    let tag: Tag = serde_json::from_str(json).ok()?;
    GAMES.iter().find(|g| g.formats.contains(&tag.format.as_str())).map(|&g| (g, tag.format))
}

/// `error` (from loading `json` as a save of `G`), or, when `json` is another game's save, the
/// error saying whose it is. Only on the error path: a good save is never parsed twice.
pub fn refusal<G: BindGame>(json: &str, error: Error) -> Error {
    match game_of(json) {
        Some((other, format)) if other.key != G::SAVES.key => Error::BadSave(format!(
            "this is a {} save (format '{format}'), not a {} one; load it with {}",
            other.title,
            G::SAVES.title,
            other.loaded_with
        )),
        _ => error,
    }
}

/// `G::load`, refusing another game's save by name.
pub fn load<G: BindGame>(json: &str) -> crate::error::Result<G::State> {
    G::load(json).map_err(|e| refusal::<G>(json, e))
}

/// The game a save belongs to ("maquis", "dday"), from its format tag; None when it is no game's
/// save (not JSON, no format, an unknown format).
#[pyfunction]
pub fn save_game(json: &str) -> Option<&'static str> {
    game_of(json).map(|(g, _)| g.key)
}

/// An environment's own streams, saved with its game by `save_state` (the key `env_streams` of
/// the save): the episode stream (resets), the sampling stream (`sample_action(s)`) and, in a
/// vector env, the action already drawn for the next `sample_actions`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnvStreams {
    pub episode: rand_chacha::ChaCha8Rng,
    pub sample: rand_chacha::ChaCha8Rng,
    #[serde(default)]
    pub presampled: Option<i64>,
}

/// The key of `EnvStreams` in a save.
const STREAMS_KEY: &str = "env_streams";

/// `save` (a game's save, a JSON object) with `streams` added under `env_streams`.
pub fn with_streams(save: String, streams: &EnvStreams) -> String {
    let body = save.trim_end();
    debug_assert!(body.ends_with('}'));
    let streams = serde_json::to_string(streams).expect("streams serialize");
    format!("{},\"{STREAMS_KEY}\":{streams}}}", &body[..body.len() - 1])
}

/// The save without its `env_streams`, and those streams (None: a save without them, from a
/// version that did not save them or from a game rather than an env). A bad `env_streams` is an
/// error naming it; JSON that is no object is handed back whole for the game's loader to refuse.
pub fn split_streams<G: BindGame>(json: &str) -> crate::error::Result<(std::borrow::Cow<'_, str>, Option<EnvStreams>)> {
    if !json.contains(STREAMS_KEY) {
        return Ok((json.into(), None));
    }
    let Ok(serde_json::Value::Object(mut doc)) = serde_json::from_str::<serde_json::Value>(json) else {
        return Ok((json.into(), None));
    };
    let Some(v) = doc.remove(STREAMS_KEY) else { return Ok((json.into(), None)) };
    crate::versioned::check_streams(&v, STREAMS_KEY)?;
    let streams: EnvStreams =
        serde_json::from_value(v).map_err(|e| Error::BadSave(format!("{STREAMS_KEY}: {e}")))?;
    if let Some(a) = streams.presampled {
        if !(0..G::NUM_ACTIONS as i64).contains(&a) {
            return Err(Error::BadSave(format!("{STREAMS_KEY}.presampled: {a} is not an action")));
        }
    }
    Ok((serde_json::Value::Object(doc).to_string().into(), Some(streams)))
}

/// The sampling stream as it stood before the draw that gave `drawn` from `mask` and left it as
/// `after` (None if no position up to 64 words back does: the draw was not from this mask).
pub fn before_draw<G: BindGame>(mask: &G::Mask, after: &rand_chacha::ChaCha8Rng, drawn: i64) -> Option<rand_chacha::ChaCha8Rng> {
    let end = after.get_word_pos();
    (1..=end.min(64)).find_map(|k| {
        let mut r = after.clone();
        r.set_word_pos(end - k);
        let hit = G::sample(mask, &mut r) == Some(drawn as usize) && r.get_word_pos() == end;
        r.set_word_pos(end - k);
        hit.then_some(r)
    })
}
