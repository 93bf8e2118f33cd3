//! Stepping a batch: the same trajectories on any thread count, each environment as a single
//! slot with its stream, the list of ended episodes, and the draws of `sample_actions`.

use super::*;

/// obs, masks, rewards, terminated, outcomes, final_obs after one step.
type Record = (Vec<f32>, Vec<bool>, Vec<f32>, Vec<bool>, Vec<i8>, Vec<f32>);

/// Every output of `steps` random steps, as one comparable record.
fn trajectory(threads: usize, autoreset: Autoreset, n: usize, steps: usize) -> Vec<Record> {
    trajectory_prefetching(threads, autoreset, n, steps, None)
}

/// `trajectory` with the threads' prefetching fixed (`Engine::set_prefetch`).
fn trajectory_prefetching(
    threads: usize,
    autoreset: Autoreset,
    n: usize,
    steps: usize,
    prefetch: Option<bool>,
) -> Vec<Record> {
    let (mut v, mut b) = engine(&cfg(IllegalPolicy::Terminate), n, threads, autoreset, Some(42));
    v.set_prefetch(prefetch);
    let mut actions = vec![0i64; n];
    let mut rec = Vec::new();
    for t in 0..steps {
        v.sample_actions(&mut actions);
        if t % 37 == 5 {
            actions[t % n] = 0; // now and then an illegal action (place:rue_baradat is rarely legal)
        }
        v.step(&actions, &mut b.out()).unwrap();
        rec.push((
            b.obs().to_vec(),
            b.masks.clone(),
            b.rewards.clone(),
            b.terminated.clone(),
            b.outcomes.clone(),
            b.final_obs.clone(),
        ));
    }
    rec
}

#[test]
fn same_seed_same_trajectories_for_any_thread_count() {
    for mode in [Autoreset::NextStep, Autoreset::SameStep] {
        let one = trajectory(1, mode, 7, 300);
        assert_eq!(one, trajectory(2, mode, 7, 300));
        assert_eq!(one, trajectory(4, mode, 7, 300));
        assert!(one.iter().any(|r| r.3.iter().any(|&t| t)), "some episode ended");
    }
}

#[test]
fn prefetching_or_not_does_not_change_the_trajectories() {
    for mode in [Autoreset::NextStep, Autoreset::SameStep] {
        let one = trajectory(1, mode, 9, 300);
        for threads in [1, 3] {
            for way in [Some(false), Some(true)] {
                assert_eq!(one, trajectory_prefetching(threads, mode, 9, 300, way), "{threads} threads, {way:?}");
            }
        }
    }
}

#[test]
fn the_shares_threads_get_do_not_change_the_trajectories() {
    // Uneven shares, moved every few steps as `Balance` moves them (an empty one too).
    let (n, steps) = (11, 200);
    let one = trajectory(1, Autoreset::NextStep, n, steps);
    let (mut v, mut b) = engine(&cfg(IllegalPolicy::Terminate), n, 3, Autoreset::NextStep, Some(42));
    let mut actions = vec![0i64; n];
    for (t, expected) in one.iter().enumerate() {
        if t % 5 == 0 {
            let (a, c) = ((t / 5) % 4, 4 + (t / 5) % 7);
            v.balance_mut().set_bounds(&[0, a, c, n]);
        }
        v.sample_actions(&mut actions);
        if t % 37 == 5 {
            actions[t % n] = 0;
        }
        v.step(&actions, &mut b.out()).unwrap();
        let got = (
            b.obs().to_vec(),
            b.masks.clone(),
            b.rewards.clone(),
            b.terminated.clone(),
            b.outcomes.clone(),
            b.final_obs.clone(),
        );
        assert_eq!(&got, expected, "step {t}");
    }
}

#[test]
fn vector_env_i_matches_a_single_slot_with_its_stream_seed() {
    let c = cfg(IllegalPolicy::Terminate);
    let n = 5;
    let (mut v, mut b) = started(&c, n, 9);
    let mut singles: Vec<EnvSlot> = (0..n).map(|i| EnvSlot::new(stream_seed(9, i))).collect();
    for s in &mut singles {
        s.reset(&c.setup).unwrap();
    }
    let mut actions = vec![0i64; n];
    let mut ended = 0;
    for _ in 0..600 {
        v.sample_actions(&mut actions);
        v.step(&actions, &mut b.out()).unwrap();
        for (i, s) in singles.iter_mut().enumerate() {
            let (reward, term) = if s.done() {
                s.reset(&c.setup).unwrap();
                (0.0, false)
            } else {
                let a = s.sample().unwrap() as i64;
                assert_eq!(a, actions[i]);
                let t = s.step(&c, a).unwrap();
                ended += t.terminated as u32;
                (t.reward as f32, t.terminated)
            };
            assert_eq!(b.rewards[i], reward);
            assert_eq!(b.terminated[i], term);
            let mut obs = vec![0.0; obs_size()];
            s.write_observation(&mut obs);
            assert_eq!(&b.obs()[i * obs_size()..(i + 1) * obs_size()], &obs[..]);
            assert_eq!(s.state(), v.slot(i).state());
        }
    }
    assert!(ended > 0);
}

#[test]
fn ended_lists_the_environments_whose_episode_the_step_ended() {
    for (threads, n) in [(1, 1), (1, 9), (2, 7), (3, 130), (2, 300)] {
        for mode in [Autoreset::NextStep, Autoreset::SameStep] {
            let (mut v, mut b) = engine(&cfg(IllegalPolicy::Terminate), n, threads, mode, Some(3));
            let mut actions = vec![0i64; n];
            let (mut ends, mut illegals) = (0, 0);
            for t in 0..400 {
                v.sample_actions(&mut actions);
                if t % 7 == 3 {
                    actions[t % n] = 0; // an illegal action now and then (rarely legal)
                }
                if mode == Autoreset::SameStep {
                    // Without next-step autoreset a finished environment must be reset first.
                    let done: Vec<bool> = (0..n).map(|i| v.slot(i).done()).collect();
                    if done.iter().any(|&d| d) {
                        v.reset(None, Some(&done), None, &mut b.out()).unwrap();
                    }
                }
                v.step(&actions, &mut b.out()).unwrap();
                let mut listed: Vec<(usize, i8)> = v.ended().collect();
                listed.sort();
                let flagged: Vec<(usize, i8)> =
                    (0..n).filter(|&i| b.terminated[i]).map(|i| (i, b.outcomes[i])).collect();
                assert_eq!(listed, flagged, "{threads} threads, {n} envs, step {t}");
                let illegal = b.illegal.iter().filter(|&&x| x).count();
                assert_eq!(v.ended_counts(), (flagged.len(), illegal));
                ends += flagged.len();
                illegals += illegal;
            }
            assert!(ends > 0 && illegals > 0, "{threads} threads, {n} envs: ends {ends}, illegal {illegals}");
            // A refused step changes nothing, the list neither (an environment whose episode
            // is over ignores its action under next-step autoreset: not that one).
            let before: Vec<(usize, i8)> = v.ended().collect();
            if let Some(i) = (0..n).find(|&i| !v.slot(i).done()) {
                actions[i] = NUM_ACTIONS as i64;
                assert!(v.step(&actions, &mut b.out()).is_err());
                assert_eq!(v.ended().collect::<Vec<_>>(), before);
            }
        }
    }
}

#[test]
fn sample_actions_returns_each_draw_once_then_draws_afresh() {
    // A model of each environment: a single slot and the draw made for it but not returned
    // yet. Steps and resets draw; `sample_actions` returns the draw, or draws.
    let c = cfg(IllegalPolicy::Terminate);
    let n = 5;
    let (mut v, mut b) = started(&c, n, 3);
    let mut model: Vec<(EnvSlot, Option<i64>)> = (0..n)
        .map(|i| {
            let mut s = EnvSlot::new(stream_seed(3, i));
            s.reset(&c.setup).unwrap();
            let drawn = presample(&mut s);
            (s, Some(drawn))
        })
        .collect();
    let mut actions = vec![0i64; n];
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut counts = [0; 3];
    for _ in 0..600 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let op = [0, 0, 0, 1, 2][(x % 5) as usize];
        counts[op] += 1;
        match op {
            // sample_actions then step (a second call now and then, a reset between).
            0 => {
                v.sample_actions(&mut actions);
                for (i, (s, drawn)) in model.iter_mut().enumerate() {
                    assert_eq!(actions[i], drawn.take().unwrap_or_else(|| presample(s)), "env {i}");
                }
                if x & 8 == 0 {
                    continue;
                }
                v.step(&actions, &mut b.out()).unwrap();
                for (i, (s, drawn)) in model.iter_mut().enumerate() {
                    if s.done() {
                        s.reset(&c.setup).unwrap();
                    } else {
                        s.step(&c, actions[i]).unwrap();
                    }
                    *drawn = Some(presample(s));
                }
            }
            // A second sample_actions: drawn afresh where the last call returned the draw.
            1 => {
                v.sample_actions(&mut actions);
                for (i, (s, drawn)) in model.iter_mut().enumerate() {
                    assert_eq!(actions[i], drawn.take().unwrap_or_else(|| presample(s)), "env {i}");
                }
            }
            // A reset of some environments (all of them now and then).
            _ => {
                let mask: Vec<bool> = (0..n).map(|i| x >> (20 + i) & 1 == 1 || x & 16 == 0).collect();
                v.reset(None, Some(&mask), None, &mut b.out()).unwrap();
                for (i, (s, drawn)) in model.iter_mut().enumerate() {
                    if mask[i] {
                        s.reset(&c.setup).unwrap();
                        *drawn = Some(presample(s));
                    }
                }
            }
        }
        for (i, (s, _)) in model.iter().enumerate() {
            assert_eq!(s.state(), v.slot(i).state());
        }
    }
    assert!(counts.iter().all(|&k| k > 50), "{counts:?}");
}
