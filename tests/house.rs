//! The house rule: the shared layers (`src/env/`, `src/vector/`, `src/nn/`, `src/py/common/`)
//! name no game outside their tests, so that every game sits on one level above them. The games
//! are the folders with bindings in `src/py/<game>/`, read from the tree rather than listed here,
//! so a new game is covered as soon as it has them.

use std::fs;
use std::path::{Path, PathBuf};

const SHARED: &[&str] = &["src/env", "src/vector", "src/nn", "src/py/common"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The games: the folders of `src/py/` other than `common`, each with its engine in `src/<game>/`.
fn games() -> Vec<String> {
    let mut games: Vec<String> = fs::read_dir(root().join("src/py"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name != "common")
        .collect();
    games.sort();
    for g in &games {
        assert!(root().join("src").join(g).is_dir(), "src/py/{g}/ binds a game that has no src/{g}/");
    }
    games
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).unwrap().filter_map(|e| e.ok()) {
        let p = e.path();
        if p.is_dir() {
            // A `tests` folder is test code (declared `#[cfg(test)] mod tests;`).
            if p.file_name().is_some_and(|n| n != "tests") {
                rust_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `src` without its test code: from a `#[cfg(test)]` line on, the item it marks (a `mod` up to
/// its closing brace at the same indentation, or a single line) is dropped; comments too.
fn non_test_code(src: &str) -> Vec<(usize, &str)> {
    let mut kept = Vec::new();
    let mut lines = src.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") {
            let indent = line.len() - t.len();
            // The item after the attribute: skip to the brace that closes it (or its `;`).
            for (_, l) in lines.by_ref() {
                let lt = l.trim_start();
                if lt.starts_with("#[") {
                    continue;
                }
                if lt.ends_with(';') {
                    break;
                }
                // Its closing brace sits at the attribute's indentation.
                let mut closed = false;
                for (_, l2) in lines.by_ref() {
                    if l2.len() - l2.trim_start().len() == indent && l2.trim_start().starts_with('}') {
                        closed = true;
                        break;
                    }
                }
                assert!(closed, "unclosed #[cfg(test)] item");
                break;
            }
            continue;
        }
        if t.starts_with("//") {
            continue;
        }
        kept.push((i + 1, line));
    }
    kept
}

#[test]
fn shared_layers_name_no_game() {
    let games = games();
    assert!(games.len() >= 3, "found games {games:?}");
    let mut found = Vec::new();
    for layer in SHARED {
        let mut files = Vec::new();
        rust_files(&root().join(layer), &mut files);
        assert!(!files.is_empty(), "{layer} has no Rust files");
        for f in files {
            let src = fs::read_to_string(&f).unwrap();
            for (n, line) in non_test_code(&src) {
                for g in &games {
                    for pat in [format!("crate::{g}::"), format!("crate::{g}}}"), format!("crate::{g};"), format!("py::{g}::")] {
                        if line.contains(&pat) {
                            found.push(format!("{}:{n}: {}", f.strip_prefix(root()).unwrap().display(), line.trim()));
                        }
                    }
                }
            }
        }
    }
    assert!(found.is_empty(), "shared layers naming a game:\n{}", found.join("\n"));
}

#[test]
fn the_test_code_filter_drops_tests_only() {
    let src = "use a;\n#[cfg(test)]\nmod tests {\n    use crate::maquis::x;\n}\nfn b() {}\n#[cfg(test)]\nuse crate::dday::y;\nfn c() {}\n";
    let kept: Vec<&str> = non_test_code(src).into_iter().map(|(_, l)| l).collect();
    assert_eq!(kept, ["use a;", "fn b() {}", "fn c() {}"]);
}
