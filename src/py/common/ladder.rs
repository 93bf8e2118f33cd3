//! Whole games between two agents, played in Rust on threads with the GIL released: the engine of
//! `maquis <game> ladder` (python/maquis/common/ladder.py) and of the training's gate between two
//! generations. One function over `TwoPlayer`; each game's submodule exposes it as `play_games`
//! (src/py/<game>/ladder.rs). An agent is a bundled id (`random`, `heuristic`, …) or, for a game
//! with a network, `network@FILE` / `network_search@FILE`: that level on the weight file FILE
//! instead of the registered network, so that two networks can meet.

use crate::env::versus::{Opponent, TwoPlayer};
use crate::py::errors::MaquisError;
use pyo3::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// One game to play: the agent of the game's first side (`DEFAULT_SIDE`) and its stream seed,
/// the agent of the other side and its seed, and the game seed.
pub type GameSpec = (String, u64, String, u64, u64);

/// Builds an agent of `T` from its id and stream seed (ids checked before any game).
type Build<'a, T> = dyn Fn(&str, u64) -> Result<<T as TwoPlayer>::Agent, String> + Sync + 'a;

/// The result of each game of `games`, in order, from the first side's view: 1 a win, 0 a draw,
/// -1 a loss; `threads` games at a time (at least one). `budget`: the searches' simulations per
/// decision. Each agent id is parsed as an environment's opponent is (`Opponent::parse`: a
/// `network@FILE` file read once and checked to be `T`'s network) before any game is played.
pub fn play_games<T: TwoPlayer>(py: Python<'_>, games: Vec<GameSpec>, budget: u32, threads: usize) -> PyResult<Vec<i8>> {
    if budget == 0 {
        return Err(MaquisError::new_err("budget must be a positive int"));
    }
    let mut agents: HashMap<&str, Opponent> = HashMap::new();
    for (a, _, b, _, _) in &games {
        for id in [a, b] {
            if !agents.contains_key(id.as_str()) {
                let agent = Opponent::parse::<T>(id, budget, false)
                    .map_err(|e| MaquisError::new_err(format!("agent {id:?}: {e}")))?;
                agents.insert(id, agent);
            }
        }
    }
    let build = |id: &str, seed: u64| match agents[id].agent::<T>(seed) {
        Ok(Some(agent)) => Ok(agent),
        Ok(None) => Err(format!("agent {id:?} plays from outside")),
        Err(e) => Err(e.to_string()),
    };
    play_all::<T>(py, &games, threads, &build)
}

/// Plays `games` with agents from `build`, `threads` at a time, the GIL released.
fn play_all<T: TwoPlayer>(py: Python<'_>, games: &[GameSpec], threads: usize, build: &Build<'_, T>) -> PyResult<Vec<i8>> {
    let first = T::DEFAULT_SIDE;
    let play = |spec: &GameSpec| -> Result<i8, String> {
        let (a, sa, b, sb, seed) = spec;
        let mut s = T::new_game(*seed, &T::Scenario::default()).map_err(|e| e.to_string())?;
        let mut agents = [build(a, *sa)?, build(b, *sb)?];
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

/// A game's `play_games(games, budget, threads)` pyfunction over `play_games::<$two>` (with
/// `networks`: its docstring says its agents may be `network@FILE` and `network_search@FILE`),
/// registered in its submodule by `$name::register`.
macro_rules! ladder_function {
    ($two:ty, budget = $budget:literal) => {
        ladder_function!(@define $two, $budget, "Plays whole games between bundled agents on `threads` threads, the GIL released.", "");
    };
    ($two:ty, networks, budget = $budget:literal) => {
        ladder_function!(@define $two, $budget, "Plays whole games between agents on `threads` threads, the GIL released.",
            concat!("\n        An agent is a bundled id, or `network@FILE` / `network_search@FILE`: that",
                    "\n        level on the weight file FILE instead of the loaded network (two networks can",
                    "\n        meet; each file is read once and must be this game's)."));
    };
    (@define $two:ty, $budget:literal, $summary:literal, $agents:expr) => {
        #[doc = $summary]
        #[doc = ""]
        #[doc = " Args:"]
        #[doc = "     games: (first-side agent id, its seed, second-side agent id, its seed, game seed)"]
        #[doc = concat!("        per game; the first side is the game's default learner side.", $agents)]
        #[doc = "     budget: the searches' simulations per decision."]
        #[doc = "     threads: games played at once."]
        #[doc = ""]
        #[doc = " Returns:"]
        #[doc = "     list of int, per game from the first side's view: 1 win, 0 draw, -1 loss."]
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
