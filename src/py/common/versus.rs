//! The bindings of a two-player game played by one learner against an opponent
//! (`env::versus::Versus<T>`: D-Day 1944, Maurice Lite), written once: `BindGame` for every
//! `Versus<T>` from the little `BindTwoPlayer` adds, the constructor keywords' setup and rewards,
//! and `versus_classes!`, which gives the single env the two-player methods (an external
//! opponent's turn, the learner's side, the opponent) on top of `game_classes!`.

use super::convert::new_array;
use super::env::EnvCore;
use super::save::SaveKind;
use super::BindGame;
use crate::env::versus::{load_match, Match, Opponent, Rewards, Setup, TwoPlayer, Versus};
use crate::error::{Error, Result};
use crate::game::Game;
use numpy::PyArray1;
use pyo3::prelude::*;
use serde_json::Value;
use std::collections::HashMap;

/// What the bindings need of a two-player game besides `TwoPlayer`.
pub trait BindTwoPlayer: TwoPlayer {
    /// Its save formats (the game's, the match's, the pickled env's) and where Python loads them.
    const SAVES: &'static SaveKind;
    /// How `__repr__` names its classes' module prefix ("dday.").
    const REPR_PREFIX: &'static str;
    /// The full game state as plain data (`state_dict` of the game's docs/api page).
    fn state_dict(s: &Self::State) -> Value;
    /// The phase's id.
    fn phase(s: &Self::State) -> &'static str;
    /// The side's id.
    fn side_name(side: Self::Side) -> &'static str;
}

impl<T: BindTwoPlayer> BindGame for Versus<T> {
    const SAVES: &'static SaveKind = T::SAVES;
    const REPR_PREFIX: &'static str = T::REPR_PREFIX;
    /// `LearnerOutcome`'s names, in its order.
    const OUTCOMES: &'static [&'static str] = &["win", "draw", "loss"];
    fn state_dict(s: &Match<T>) -> Value {
        T::state_dict(&s.game)
    }
    fn phase(s: &Match<T>) -> &'static str {
        T::phase(&s.game)
    }
    fn reset_setup(setup: &Setup<T>, options_json: &str, external: bool) -> Result<Setup<T>> {
        let options: Value =
            serde_json::from_str(options_json).map_err(|e| Error::BadOption(format!("options: {e}")))?;
        setup.with_options(&options, external)
    }
    /// A match's save, or the two-player game's own save played on with this environment's
    /// learner and opponent.
    fn load_for_env(json: &str, current: &Match<T>) -> Result<Match<T>> {
        if json.contains(&format!("\"{}\"", T::MATCH_FORMAT)) {
            load_match(json)
        } else {
            Ok(Match { game: T::load(json)?, learner: current.learner, opponent: current.opponent.clone() })
        }
    }
}

/// The setup of the constructor keywords: the learner's `side`, the `opponent` (a bundled id,
/// `network@FILE` / `network_search@FILE`, or "external" where `external`: the single env, played
/// by the caller) and its search `budget`.
pub fn setup<T: TwoPlayer>(side: T::Side, opponent: &str, budget: u32, external: bool) -> Result<Setup<T>> {
    if budget == 0 {
        return Err(Error::BadOption("budget must be a positive int".into()));
    }
    let opponent = Opponent::parse::<T>(opponent, budget, external)?;
    Ok(Setup { side, opponent, ..Setup::default() })
}

/// The rewards of the constructor keywords: the game's margin, or the table of `reward` (missing
/// keys keep win 1, draw 0, loss −1).
pub fn rewards(reward: Option<HashMap<String, f64>>, margin: bool) -> Result<Rewards> {
    if margin {
        return Ok(Rewards::Margin);
    }
    // Sorted, so that the first bad key named is the same on every run.
    let mut entries: Vec<_> = reward.unwrap_or_default().into_iter().collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    entries.into_iter().try_fold(Rewards::default(), |r, (k, v)| r.with(&k, v))
}

/// An observation and a bool mask.
pub type View<'py> = (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<bool>>);

impl<T: BindTwoPlayer> EnvCore<Versus<T>> {
    /// Whether an external opponent is to decide now.
    pub fn opponent_to_move(&self) -> bool {
        let m = self.slot.state();
        !self.slot.done() && m.to_move().is_some_and(|s| s != m.learner)
    }

    /// The opponent's observation (float32, whatever `observation_dtype`: agents read floats)
    /// and its legal actions.
    pub fn opponent_view<'py>(&self, py: Python<'py>) -> View<'py> {
        let m = self.slot.state();
        let obs = new_array(py, T::OBSERVATION_SIZE, |out| T::write_observation(&m.game, T::other(m.learner), out));
        (obs, self.mask(py))
    }

    /// A decision of the external opponent: (reward, terminated, outcome) of the learner.
    pub fn apply_opponent(&mut self, action: i64) -> PyResult<(f64, bool, Option<&'static str>)> {
        if !self.opponent_to_move() {
            return Err(Error::BadOption("the opponent is not to move".into()).into());
        }
        let mut m = self.slot.state().clone();
        m.apply_opponent(action)?;
        self.slot.set_state(m);
        let m = self.slot.state();
        Ok(match m.outcome() {
            Some(o) => (Versus::<T>::terminal_reward(&self.cfg.rewards, m, o, false), true, Some(o.as_str())),
            None => (0.0, false, None),
        })
    }

    /// {outcome: reward}, or None for the margin.
    pub fn reward_table(&self) -> Option<HashMap<&'static str, f64>> {
        match self.cfg.rewards {
            Rewards::Table(t) => Some([("win", t[0]), ("draw", t[1]), ("loss", t[2])].into_iter().collect()),
            Rewards::Margin => None,
        }
    }

    pub fn repr(&self) -> String {
        let setup = &self.cfg.setup;
        format!(
            "{}Env(side={:?}, opponent={:?}, illegal_action={:?}, phase={:?})",
            T::REPR_PREFIX,
            T::side_name(setup.side),
            setup.opponent.id(),
            self.cfg.illegal.as_str(),
            T::phase(&self.slot.state().game)
        )
    }
}

/// `game_classes!` for `Versus<$two>`, the single env given the two-player methods: `reset`
/// (options as JSON `options_json`), `step` (refused while an external opponent is to move),
/// `opponent_to_move`, `opponent_view`, `apply_opponent`, `side`, `to_move`, `opponent`, `reward`.
macro_rules! versus_classes {
    (
        game: $two:ty,
        keywords: $keywords:tt,
        config: |$external:ident| $config:expr,
        $(#[$env_meta:meta])*
        env $env:ident {
            $(#[$new_meta:meta])*
            new;
            $($env_extra:tt)*
        }
        // The `vector` class, as `game_classes!` takes it.
        $($vector:tt)*
    ) => {
        game_classes! {
            game: $crate::env::versus::Versus<$two>,
            keywords: $keywords,
            config: |$external| $config,
            $(#[$env_meta])*
            env $env {
                $(#[$new_meta])*
                new;

                /// Start a new episode (an external opponent's first decisions are left to the caller).
                ///
                /// Args:
                ///     stream_seed: if given, first restart the episode and sampling streams from it.
                ///     options_json: JSON of the reset options (the game's, and side, opponent).
                ///
                /// Raises:
                ///     MaquisError: unknown keys, bad ids or values. Nothing changes then.
                #[pyo3(signature = (stream_seed=None, options_json=None))]
                fn reset<'py>(
                    &mut self,
                    py: pyo3::Python<'py>,
                    stream_seed: Option<u64>,
                    options_json: Option<&str>,
                ) -> pyo3::PyResult<$crate::py::common::env::ResetResult<'py>> {
                    use $crate::py::common::BindGame;
                    // Always through the options (none: the constructor's side and opponent).
                    let setup = <$crate::env::versus::Versus<$two>>::reset_setup(
                        &self.core.cfg.setup,
                        options_json.unwrap_or("null"),
                        true,
                    )?;
                    self.core.reset(py, stream_seed, Some(&setup))
                }

                /// The learner's decision, then the bundled opponent's up to the learner's next one.
                ///
                /// Returns:
                ///     (observation, mask int8, reward, terminated, truncated, outcome or None, illegal).
                ///
                /// Raises:
                ///     TypeError: not an integer. MaquisError: out of range, the episode is over, or
                ///     an external opponent is to move. IllegalActionError: illegal, with
                ///     illegal_action="raise" (nothing changes).
                fn step<'py>(
                    &mut self,
                    py: pyo3::Python<'py>,
                    index: &pyo3::Bound<'py, pyo3::PyAny>,
                ) -> pyo3::PyResult<$crate::py::common::env::StepResult<'py>> {
                    let a = $crate::py::errors::action_index_of(index, <$two as $crate::env::versus::TwoPlayer>::NUM_ACTIONS)?;
                    if self.core.opponent_to_move() {
                        return Err($crate::error::Error::BadOption(
                            "the external opponent is to move: apply_opponent first".into(),
                        )
                        .into());
                    }
                    self.core.step(py, a)
                }

                /// Whether an external opponent is to decide now.
                fn opponent_to_move(&self) -> bool {
                    self.core.opponent_to_move()
                }

                /// The opponent's observation (float32, whatever `observation_dtype`: the bundled
                /// agents read floats) and its legal actions (bool), while it is to move.
                fn opponent_view<'py>(&self, py: pyo3::Python<'py>) -> $crate::py::common::versus::View<'py> {
                    self.core.opponent_view(py)
                }

                /// A decision of the external opponent (while `opponent_to_move`).
                ///
                /// Returns:
                ///     (reward, terminated, outcome or None): the learner's, when this decision ends the game.
                ///
                /// Raises:
                ///     MaquisError: not its turn, out of range; IllegalActionError: illegal (nothing changes).
                fn apply_opponent(&mut self, index: &pyo3::Bound<'_, pyo3::PyAny>) -> pyo3::PyResult<(f64, bool, Option<&'static str>)> {
                    let a = $crate::py::errors::action_index_of(index, <$two as $crate::env::versus::TwoPlayer>::NUM_ACTIONS)?;
                    self.core.apply_opponent(a)
                }

                /// The learner's side in the current episode.
                #[getter]
                fn side(&self) -> &'static str {
                    <$two as $crate::py::common::versus::BindTwoPlayer>::side_name(self.core.slot.state().learner)
                }
                /// The side to decide, None once the game is over.
                #[getter]
                fn to_move(&self) -> Option<&'static str> {
                    self.core.slot.state().to_move().map(<$two as $crate::py::common::versus::BindTwoPlayer>::side_name)
                }
                /// The constructor's opponent id.
                #[getter]
                fn opponent(&self) -> String {
                    self.core.cfg.setup.opponent.id()
                }
                /// {outcome: reward}, or None for the margin reward.
                #[getter]
                fn reward(&self) -> Option<std::collections::HashMap<&'static str, f64>> {
                    self.core.reward_table()
                }
                fn __repr__(&self) -> String {
                    self.core.repr()
                }

                $($env_extra)*
            }
            $($vector)*
        }
    };
}
