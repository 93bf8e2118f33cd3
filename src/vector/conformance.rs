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

/// The mask ruling of the vector env (API "Vector env"): with next-step autoreset, the row of an
/// env whose episode ended allows every action until the step that resets it, after which the
/// row is the new episode's legal actions; with same-step autoreset, the row of the step that
/// ended an episode is already the new episode's. Plays up to `steps` steps of 2 envs, each mode.
pub fn autoreset_masks<G: Game>(c: &Config<G>, steps: usize) {
    let n = 2;
    let a = G::NUM_ACTIONS;
    let legal_row = |e: &Engine<G>, i: usize| {
        let mut row = vec![false; a];
        e.slot(i).write_mask(&mut row);
        row
    };
    for mode in [Autoreset::NextStep, Autoreset::SameStep] {
        let mut e = Engine::new(c.clone(), n, 1, mode).unwrap();
        e.seed_all(8);
        let mut buf = OutputBuffers::of::<G>(n);
        e.reset(None, None, None, &mut buf.out()).unwrap();
        let mut actions = vec![0i64; n];
        let mut ended = false;
        for _ in 0..steps {
            e.sample_actions(&mut actions);
            e.step(&actions, &mut buf.out()).unwrap();
            let Some(i) = (0..n).find(|&i| buf.terminated[i]) else {
                for i in 0..n {
                    assert_eq!(buf.masks[i * a..(i + 1) * a], legal_row(&e, i), "{mode:?}: env {i}'s row is its legal actions");
                }
                continue;
            };
            ended = true;
            match mode {
                Autoreset::NextStep => {
                    assert!(buf.masks[i * a..(i + 1) * a].iter().all(|&m| m), "every action while env {i} awaits its reset");
                    e.sample_actions(&mut actions);
                    e.step(&actions, &mut buf.out()).unwrap();
                    assert!(!buf.terminated[i], "the reset step ends no episode");
                }
                _ => assert!(!e.slot(i).done(), "already reset"),
            }
            let row = &buf.masks[i * a..(i + 1) * a];
            assert_eq!(row, legal_row(&e, i), "{mode:?}: env {i}'s row after its reset is the new episode's");
            assert!(row.iter().any(|&m| m));
            break;
        }
        assert!(ended, "{mode:?}: no episode ended in {steps} steps");
    }
}
