//! Timed loops for `maquis bench` (python/maquis/bench.py): the engine's own speed, measured in
//! Rust with the GIL released, so that the Python-side figures have a ceiling to compare with.

use crate::maquis::action::{table, NUM_ACTIONS};
use crate::maquis::agents::random::sample;
use crate::maquis::ids::Difficulty;
use crate::maquis::observation::{obs_size, write_observation};
use crate::maquis::rules::{apply_legal, legal_mask, new_game, new_game_into, Setup};
use crate::maquis::state::State;
use crate::maquis::{EnvConfig, EnvSlot, Maquis, Rewards, VecEngine};
use crate::vector::{Autoreset, IllegalPolicy, OutputBuffers, ENDED_BYTES_PER_THREAD};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

fn difficulty(d: &str) -> PyResult<Difficulty> {
    Ok(Difficulty::parse(d)?)
}

/// Random legal play for about `budget`: whole games (new game, legal mask, uniform sample,
/// apply), with `observe` also the observation and the mask bytes of every step. → (steps, games,
/// elapsed seconds).
fn engine_loop(setup: &Setup, seed: u64, budget: Duration, observe: bool) -> (u64, u64, f64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut obs, mut mask_bytes) = (vec![0.0f32; obs_size()], vec![0u8; NUM_ACTIONS]);
    let (mut steps, mut games) = (0u64, 0u64);
    // One state, each game written over the last (no copies of it on the way in).
    let mut s = new_game(setup, seed).expect("a plain setup is valid");
    let start = Instant::now();
    loop {
        // Games are short (tens of steps): the clock is read once per game.
        new_game_into(setup, seed.wrapping_add(games), &mut s).expect("a plain setup is valid");
        loop {
            let mask = legal_mask(&s);
            if observe {
                write_observation(&s, &mut obs);
                mask.write_bytes(&mut mask_bytes);
            }
            let Some(a) = sample(&mask, &mut rng) else { break };
            apply_legal(&mut s, table().actions[a]);
            steps += 1;
        }
        games += 1;
        let elapsed = start.elapsed();
        if elapsed >= budget {
            return (steps, games, elapsed.as_secs_f64());
        }
    }
}

/// Random legal play on the calling thread for about `seconds`: whole games (new game, legal
/// mask, uniform sample, apply), no observation. The raw engine's speed on one core. With
/// `observe`, every step also writes the observation and the mask (as bytes) into a buffer: the
/// work a vector environment adds per step, without its machinery.
///
/// With `copies` > 1, as many independent loops at once, one per thread (the caller's and
/// `copies - 1` started for the call), with seeds `seed`, `seed + 1_000_000_007`, …: what
/// `copies` cores of this machine give the engine together, with no work shared between them
/// (the raw engine × threads that the vector figures are compared with assumes `copies` times
/// one core).
///
/// Returns:
///     (steps, games, elapsed seconds), steps and games summed over the copies; the elapsed time
///     is the longest copy's.
#[pyfunction]
#[pyo3(signature = (seconds, difficulty="normal", seed=0, observe=false, copies=1))]
fn bench_engine(
    py: Python<'_>,
    seconds: f64,
    difficulty: &str,
    seed: u64,
    observe: bool,
    copies: usize,
) -> PyResult<(u64, u64, f64)> {
    let setup = Setup::new(self::difficulty(difficulty)?);
    let budget = Duration::from_secs_f64(seconds.max(0.0));
    if copies == 0 {
        return Err(pyo3::exceptions::PyValueError::new_err("copies must be at least 1"));
    }
    let seed_of = |k: usize| seed.wrapping_add(k as u64 * 1_000_000_007);
    let setup = &setup;
    Ok(py.detach(|| {
        std::thread::scope(|scope| {
            let others: Vec<_> =
                (1..copies).map(|k| scope.spawn(move || engine_loop(setup, seed_of(k), budget, observe))).collect();
            let mine = engine_loop(setup, seed_of(0), budget, observe);
            others.into_iter().map(|h| h.join().expect("an engine loop does not panic")).fold(
                mine,
                |(steps, games, secs), (s, g, t)| (steps + s, games + g, secs.max(t)),
            )
        })
    }))
}

/// `VecEngine` stepped from Rust for about `seconds`: `sample_actions` then `step`, next-step
/// autoreset, observations and masks written into buffers — what `MaquisVectorEnv` does, without
/// Python. The gap to the Python figure is the binding's overhead.
///
/// Returns:
///     (env steps, elapsed seconds).
#[pyfunction]
#[pyo3(signature = (num_envs, num_threads, seconds, difficulty="normal", seed=0))]
fn bench_vector(
    py: Python<'_>,
    num_envs: usize,
    num_threads: usize,
    seconds: f64,
    difficulty: &str,
    seed: u64,
) -> PyResult<(u64, f64)> {
    let cfg = EnvConfig::new(
        Setup::new(self::difficulty(difficulty)?),
        Rewards::default(),
        IllegalPolicy::Terminate,
    )?;
    let mut engine = VecEngine::new(cfg, num_envs, num_threads, Autoreset::NextStep)?;
    engine.seed_all(seed);
    let budget = Duration::from_secs_f64(seconds.max(0.0));
    let n = num_envs;
    let mut buffers = OutputBuffers::of::<Maquis>(n);
    let mut actions = vec![0i64; n];
    py.detach(|| {
        let mut out = buffers.out();
        engine.reset(None, None, None, &mut out).map_err(|e| e.error)?;
        let mut steps = 0u64;
        let start = Instant::now();
        loop {
            for _ in 0..8 {
                engine.sample_actions(&mut actions);
                engine.step(&actions, &mut out).map_err(|e| e.error)?;
                steps += n as u64;
            }
            let elapsed = start.elapsed();
            if elapsed >= budget {
                return Ok((steps, elapsed.as_secs_f64()));
            }
        }
    })
    .map_err(|e: crate::error::Error| e.into())
}

/// Memory of one environment of a `MaquisVectorEnv`, in bytes: `state` (the game, `State`),
/// `env` (the game plus its legal-action mask, two RNG streams and flags, `EnvSlot`; no heap),
/// `outputs` (its rows of the output arrays other than observations: mask, reward, flags,
/// outcome, action; and its room in each of the `num_threads` threads' lists of ended episodes),
/// `observation` (one observation row; `final_observation` is another), and
/// `total_beyond_observations` = `env` + `outputs`.
#[pyfunction]
#[pyo3(signature = (num_threads=2))]
fn env_memory<'py>(py: Python<'py>, num_threads: usize) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let env = std::mem::size_of::<EnvSlot>();
    // masks (bool) + rewards (f32) + terminated, truncated, illegal (bool) + outcomes (i8) + the
    // copied and the presampled action (i64) + the infos' outcome entry (a pointer) and, at
    // most, its index in the list of entries set + its room in each thread's list of ends.
    let outputs = NUM_ACTIONS + 4 + 3 + 1 + 8 + 8 + 8 + 8 + num_threads * ENDED_BYTES_PER_THREAD;
    d.set_item("num_threads", num_threads)?;
    d.set_item("state", std::mem::size_of::<State>())?;
    d.set_item("env", env)?;
    d.set_item("outputs", outputs)?;
    d.set_item("observation", obs_size() * 4)?;
    d.set_item("final_observation", obs_size() * 4)?;
    d.set_item("total_beyond_observations", env + outputs)?;
    Ok(d)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bench_engine, m)?)?;
    m.add_function(wrap_pyfunction!(bench_vector, m)?)?;
    m.add_function(wrap_pyfunction!(env_memory, m)?)?;
    Ok(())
}
