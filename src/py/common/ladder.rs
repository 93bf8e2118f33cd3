//! Whole games between two bundled agents, played in Rust on threads with the GIL released: the
//! engine of `maquis <game> ladder` (python/maquis/common/ladder.py). One function over
//! `TwoPlayer`; each game's submodule exposes it as `play_games` (src/py/<game>/ladder.rs).

use crate::env::versus::{OpponentKind, TwoPlayer};
use crate::py::errors::MaquisError;
use pyo3::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// One game to play: the agent of the game's first side (`DEFAULT_SIDE`) and its stream seed,
/// the agent of the other side and its seed, and the game seed.
pub type GameSpec = (String, u64, String, u64, u64);

/// The result of each game of `games`, in order, from the first side's view: 1 a win, 0 a draw,
/// -1 a loss; `threads` games at a time (at least one). `budget`: the searches' simulations per
/// decision. An unknown agent id is an error before any game is played.
pub fn play_games<T: TwoPlayer>(py: Python<'_>, games: Vec<GameSpec>, budget: u32, threads: usize) -> PyResult<Vec<i8>> {
    if budget == 0 {
        return Err(MaquisError::new_err("budget must be a positive int"));
    }
    for (a, _, b, _, _) in &games {
        for id in [a, b] {
            OpponentKind::parse(id, false).map_err(|e| MaquisError::new_err(format!("agent {id:?}: {e}")))?;
        }
    }
    let first = T::DEFAULT_SIDE;
    let play = |spec: &GameSpec| -> Result<i8, String> {
        let (a, sa, b, sb, seed) = spec;
        let mut s = T::new_game(*seed, &T::Scenario::default()).map_err(|e| e.to_string())?;
        let agent = |id: &str, seed: u64| {
            let kind = OpponentKind::parse(id, false).map_err(|e| e.to_string())?;
            T::bundled_opponent(kind, budget, seed).map_err(|e| e.to_string())
        };
        let mut agents = [agent(a, *sa)?, agent(b, *sb)?];
        let mut obs = None;
        while let Some(side) = T::to_move(&s) {
            let k = usize::from(side != first);
            let mask = T::legal_mask(&s);
            let action = T::decide(&mut agents[k], &s, side, &mask, &mut obs);
            let action = T::decode(action as i64).map_err(|e| e.to_string())?;
            T::apply(&mut s, action).map_err(|e| e.to_string())?;
        }
        Ok(match T::result(&s) {
            Some(Some(side)) if side == first => 1,
            Some(Some(_)) => -1,
            _ => 0,
        })
    };
    let results: Mutex<Vec<Result<i8, String>>> = Mutex::new(vec![Ok(0); games.len()]);
    let next = AtomicUsize::new(0);
    py.detach(|| {
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1).min(games.len().max(1)) {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(spec) = games.get(i) else { break };
                    let r = play(spec);
                    results.lock().unwrap()[i] = r;
                });
            }
        })
    });
    results
        .into_inner()
        .unwrap()
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.map_err(|e| MaquisError::new_err(format!("game {i}: {e}"))))
        .collect()
}

/// A game's `play_games(games, budget, threads)` pyfunction over `play_games::<$two>`, registered
/// in its submodule by `$name::register`.
macro_rules! ladder_function {
    ($two:ty, budget = $budget:literal) => {
        /// Plays whole games between bundled agents on `threads` threads, the GIL released.
        ///
        /// Args:
        ///     games: (first-side agent id, its seed, second-side agent id, its seed, game seed)
        ///         per game; the first side is the game's default learner side.
        ///     budget: the searches' simulations per decision.
        ///     threads: games played at once.
        ///
        /// Returns:
        ///     list of int, per game from the first side's view: 1 win, 0 draw, -1 loss.
        #[pyo3::pyfunction]
        #[pyo3(signature = (games, budget=$budget, threads=1))]
        fn play_games(
            py: pyo3::Python<'_>,
            games: Vec<$crate::py::common::ladder::GameSpec>,
            budget: u32,
            threads: usize,
        ) -> pyo3::PyResult<Vec<i8>> {
            $crate::py::common::ladder::play_games::<$two>(py, games, budget, threads)
        }

        pub fn register(m: &pyo3::Bound<'_, pyo3::types::PyModule>) -> pyo3::PyResult<()> {
            use pyo3::types::PyModuleMethods;
            m.add_function(pyo3::wrap_pyfunction!(play_games, m)?)
        }
    };
}
