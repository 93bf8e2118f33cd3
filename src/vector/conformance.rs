//! Checks every game's batch engine must pass, written once: its tests call them with their own
//! `Config`.

use super::{Engine, OutputBuffers};
use crate::env::{stream_seed, Autoreset, Config, Slot};
use crate::game::Game;

/// Steps `num_envs` envs for `steps` random steps on 1 and on 2 threads, and a lone `Slot`
/// seeded with env `num_envs - 1`'s stream seed; the trajectories must be the same whatever the
/// thread count, and that env's rows the same as the slot's until its first episode ends.
/// Returns what differed.
pub fn same_for_any_thread_count_and_as_single_slots<G: Game>(
    c: &Config<G>,
    num_envs: usize,
    steps: usize,
) -> Result<(), String> {
    // Per step: the actions, rewards and observations of every env.
    type Trace = Vec<(Vec<i64>, Vec<f32>, Vec<f32>)>;
    let run = |threads: usize| -> Result<Trace, String> {
        let mut e = Engine::new(c.clone(), num_envs, threads, Autoreset::NextStep).map_err(|e| e.to_string())?;
        e.seed_all(21);
        let mut buf = OutputBuffers::of::<G>(num_envs);
        e.reset(None, None, None, &mut buf.out()).map_err(|e| e.to_string())?;
        let mut trace = Vec::with_capacity(steps);
        let mut actions = vec![0i64; num_envs];
        for _ in 0..steps {
            e.sample_actions(&mut actions);
            e.step(&actions, &mut buf.out()).map_err(|e| e.to_string())?;
            trace.push((actions.clone(), buf.obs().to_vec(), buf.rewards.clone()));
        }
        Ok(trace)
    };
    let one = run(1)?;
    if one != run(2)? {
        return Err("1 and 2 threads gave different trajectories".into());
    }
    let i = num_envs - 1;
    let size = G::obs_size();
    let mut slot = Slot::<G>::new(stream_seed(21, i));
    slot.reset(&c.setup).map_err(|e| e.to_string())?;
    let mut row = vec![0.0f32; size];
    for (t, (actions, obs, rewards)) in one.iter().enumerate() {
        if slot.done() {
            return Ok(());
        }
        let step = slot.step(c, actions[i]).map_err(|e| e.to_string())?;
        slot.write_observation(&mut row);
        if row[..] != obs[i * size..(i + 1) * size] {
            return Err(format!("env {i}'s observation differs from the lone slot's at step {t}"));
        }
        if step.reward as f32 != rewards[i] {
            return Err(format!("env {i}'s reward differs from the lone slot's at step {t}"));
        }
    }
    Ok(())
}
