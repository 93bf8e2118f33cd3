//! A two-player game's `Game` class (both sides decide from outside, for the PettingZoo AEC env)
//! and its submodule, written once: `game_class!` gives a game's `Game` the methods every
//! two-player game has over `BindTwoPlayer`; the game adds its constructor, `step`, `reset`, its
//! observation and its own methods. `register_two_player` adds a game's submodule.

use pyo3::prelude::*;
use pyo3::PyClass;

/// Adds the submodule `name` of a two-player game to the extension `m` (importable as
/// `maquis._core.<name>`): its tables (`tables`), then its `Game`, `Env`, `VecEngine` and
/// `Agent` classes.
pub fn register_two_player<Game: PyClass, Env: PyClass, Vec: PyClass, Agent: PyClass>(
    m: &Bound<'_, PyModule>,
    name: &str,
    tables: impl FnOnce(&Bound<'_, PyModule>) -> PyResult<()>,
) -> PyResult<()> {
    add_game_module(m, name, |sub| {
        tables(sub)?;
        sub.add_class::<Game>()?;
        sub.add_class::<Env>()?;
        sub.add_class::<Vec>()?;
        sub.add_class::<Agent>()
    })
}

/// Adds the submodule `name` to the extension `m`, filled by `fill`; `import maquis._core.<name>`
/// finds it too.
pub fn add_game_module(
    m: &Bound<'_, PyModule>,
    name: &str,
    fill: impl FnOnce(&Bound<'_, PyModule>) -> PyResult<()>,
) -> PyResult<()> {
    let py = m.py();
    let sub = PyModule::new(py, name)?;
    fill(&sub)?;
    m.add_submodule(&sub)?;
    py.import("sys")?.getattr("modules")?.set_item(format!("maquis._core.{name}"), &sub)?;
    Ok(())
}

/// The `#[pymethods]` of `$name` (a `Clone` pyclass with a `state: <$two as TwoPlayer>::State`
/// field): the shared ones below, then `$extra`. `$side` parses a side's id with the game's
/// message.
macro_rules! game_class {
    ($name:ident, $two:ty, side = $side:path, { $($extra:tt)* }) => {
        #[pyo3::pymethods]
        impl $name {
            /// The side to decide, None once the game is over.
            #[getter]
            fn to_move(&self) -> Option<&'static str> {
                <$two as $crate::env::versus::TwoPlayer>::to_move(&self.state)
                    .map(<$two as $crate::py::common::versus::BindTwoPlayer>::side_name)
            }

            #[getter]
            fn phase(&self) -> &'static str {
                <$two as $crate::py::common::versus::BindTwoPlayer>::phase(&self.state)
            }

            #[getter]
            fn is_over(&self) -> bool {
                <$two as $crate::env::versus::TwoPlayer>::is_over(&self.state)
            }

            /// The winning side or "draw" once the game is over, else None.
            #[getter]
            fn winner(&self) -> Option<&'static str> {
                <$two as $crate::env::versus::TwoPlayer>::result(&self.state)
                    .map(|w| w.map_or("draw", <$two as $crate::py::common::versus::BindTwoPlayer>::side_name))
            }

            /// "win", "draw" or "loss" from `side`'s view once the game is over, else None.
            fn outcome_for(&self, side_id: &str) -> pyo3::PyResult<Option<&'static str>> {
                let me = $side(side_id)?;
                Ok(<$two as $crate::env::versus::TwoPlayer>::result(&self.state).map(|w| match w {
                    None => "draw",
                    Some(w) if w == me => "win",
                    Some(_) => "loss",
                }))
            }

            /// The legal actions of the side to move, int8 (NUM_ACTIONS,) (all 0 once the game is
            /// over).
            fn action_mask<'py>(&self, py: pyo3::Python<'py>) -> pyo3::Bound<'py, numpy::PyArray1<i8>> {
                let m = <$two as $crate::env::versus::TwoPlayer>::legal_mask(&self.state);
                $crate::py::common::convert::new_array(
                    py,
                    <$two as $crate::env::versus::TwoPlayer>::NUM_ACTIONS,
                    |out: &mut [i8]| {
                        out.iter_mut().enumerate().for_each(|(i, x)| *x = $crate::bitmask::ActionSet::get(&m, i) as i8)
                    },
                )
            }

            fn legal_actions(&self) -> Vec<usize> {
                let m = <$two as $crate::env::versus::TwoPlayer>::legal_mask(&self.state);
                (0..<$two as $crate::env::versus::TwoPlayer>::NUM_ACTIONS)
                    .filter(|&i| $crate::bitmask::ActionSet::get(&m, i))
                    .collect()
            }

            /// The full state as plain Python data (`state_dict` of the game's docs/api page).
            fn state_dict<'py>(&self, py: pyo3::Python<'py>) -> pyo3::PyResult<pyo3::Bound<'py, pyo3::PyAny>> {
                $crate::py::common::convert::json_to_py(
                    py,
                    &<$two as $crate::py::common::versus::BindTwoPlayer>::state_dict(&self.state),
                )
            }

            /// The game as versioned JSON (exact: its random streams included).
            fn save_state(&self) -> String {
                <$two as $crate::env::versus::TwoPlayer>::save(&self.state)
            }

            /// Replace the game by a saved one.
            ///
            /// Raises:
            ///     MaquisError: malformed or inconsistent JSON (the message names the field), or
            ///     another game's save (naming it); nothing changes then.
            fn load_state(&mut self, json: &str) -> pyo3::PyResult<()> {
                self.state = <$two as $crate::env::versus::TwoPlayer>::load(json)
                    .map_err(|e| $crate::py::common::save::refusal::<$crate::env::versus::Versus<$two>>(json, e))?;
                Ok(())
            }

            fn clone(&self) -> Self {
                Clone::clone(self)
            }
            fn __copy__(&self) -> Self {
                Clone::clone(self)
            }
            fn __deepcopy__(&self, _memo: &pyo3::Bound<'_, pyo3::PyAny>) -> Self {
                Clone::clone(self)
            }
            fn __repr__(&self) -> String {
                format!(
                    "{}Game(phase={:?}, to_move={:?})",
                    <$two as $crate::py::common::versus::BindTwoPlayer>::REPR_PREFIX,
                    self.phase(),
                    self.to_move()
                )
            }

            $($extra)*
        }
    };
}
