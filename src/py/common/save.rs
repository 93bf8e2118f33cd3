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

/// Every game with bindings (a new game adds its `SaveKind` here).
const GAMES: &[&SaveKind] = &[
    <crate::maquis::env::Maquis as BindGame>::SAVES,
    <crate::dday::env::DDay as BindGame>::SAVES,
    <crate::maurice::env::Maurice as BindGame>::SAVES,
];

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
