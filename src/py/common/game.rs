//! What the shared bindings need to know of a game besides `Game`.

use super::save::SaveKind;
use crate::game::Game;
use crate::obs_value::Observes;
use serde_json::Value;

/// A game with Python bindings. Its rows are written as float32 or as uint8 (`Observes<u8>`:
/// every value a flag or a count out of a fixed number, see `OBSERVATION_DIVISOR`). `Observes<f32>`,
/// which every game has, is named too: with only the `u8` bound, calls would infer `u8` rows.
pub trait BindGame: Game + Observes<f32> + Observes<u8> {
    /// Its save formats and where in Python its saves are loaded.
    const SAVES: &'static SaveKind;
    /// How `__repr__` names its classes' module prefix ("" or "dday.").
    const REPR_PREFIX: &'static str;
    /// The outcome names, in outcome-code order (`OUTCOMES`).
    const OUTCOMES: &'static [&'static str];
    /// The full game state as plain data (`state_dict` of the game's docs/api page).
    fn state_dict(s: &Self::State) -> Value;
    /// The setup of one reset: `setup` with the reset options' JSON applied (`external`: the
    /// single environment, whose opponent may be played from outside).
    fn reset_setup(setup: &Self::Setup, options_json: &str, external: bool) -> crate::error::Result<Self::Setup>;
    /// The phase's id.
    fn phase(s: &Self::State) -> &'static str;
    /// The state a single environment continues from after `load_state(json)` (the default: the
    /// game's own save; a game may accept more, keeping parts of `current`).
    fn load_for_env(json: &str, current: &Self::State) -> crate::error::Result<Self::State> {
        let _ = current;
        Self::load(json)
    }
    /// The outcome's name.
    #[inline]
    fn outcome_name(o: Self::Outcome) -> &'static str {
        Self::OUTCOMES[Self::outcome_code(o) as usize]
    }
}
