//! The batch engine and the environment contract, on Maquis.

use super::chunk::*;
use super::range::*;
use super::scheduler::*;
use super::*;
use crate::maquis::env::Maquis;
use crate::maquis::action::{table, NUM_ACTIONS};
use crate::error::Error;
use crate::maquis::ids::{Difficulty, MissionId, Outcome, Phase};
use crate::maquis::observation::obs_size;
use crate::maquis::rules::Setup;
use crate::simd::Simd;
use super::pool::Pool;
use super::engine::{presample, UNSAMPLED};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

fn cfg(illegal: IllegalPolicy) -> EnvConfig {
    EnvConfig::new(Setup::default(), Rewards::default(), illegal).unwrap()
}

/// obs, masks, rewards, terminated, outcomes, final_obs after one step.
type Record = (Vec<f32>, Vec<bool>, Vec<f32>, Vec<bool>, Vec<i8>, Vec<f32>);

/// Every output of `steps` random steps, as one comparable record.
fn trajectory(threads: usize, autoreset: Autoreset, n: usize, steps: usize) -> Vec<Record> {
    let mut v = VecEngine::new(cfg(IllegalPolicy::Terminate), n, threads, autoreset).unwrap();
    v.seed_all(42);
    let mut b = OutputBuffers::new(n);
    v.reset(None, None, None, &mut b.out()).unwrap();
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
fn output_observation_rows_start_on_cache_lines() {
    for n in [1, 3, 1024] {
        let mut b = OutputBuffers::new(n);
        assert_eq!(b.obs().as_ptr() as usize % 64, 0);
        assert_eq!(b.obs().len(), n * obs_size());
        assert!(b.out().obs.iter().all(|&x| x == 0.0));
    }
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

/// `n` environments on two threads, streams from `seed`, reset, with their buffers.
fn started(c: &EnvConfig, n: usize, seed: u64) -> (VecEngine, OutputBuffers) {
    let mut v = VecEngine::new(c.clone(), n, 2, Autoreset::NextStep).unwrap();
    v.seed_all(seed);
    let mut b = OutputBuffers::new(n);
    v.reset(None, None, None, &mut b.out()).unwrap();
    (v, b)
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
            let mut v = VecEngine::new(cfg(IllegalPolicy::Terminate), n, threads, mode).unwrap();
            v.seed_all(3);
            let mut b = OutputBuffers::new(n);
            v.reset(None, None, None, &mut b.out()).unwrap();
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
fn a_failed_reset_changes_nothing_not_even_the_stream() {
    let mut s = EnvSlot::new(5);
    s.reset(&Setup::default()).unwrap();
    let before = s.clone();
    let start = crate::maquis::rules::StartOverrides { morale: Some(99), ..Default::default() };
    let bad = Setup { start: Some(start), ..Setup::default() };
    assert!(s.reset(&bad).is_err());
    assert_eq!(s, before);
    // The next reset draws the seed the failed one would have drawn.
    let mut twin = before.clone();
    s.reset(&Setup::default()).unwrap();
    twin.reset(&Setup::default()).unwrap();
    assert_eq!(s, twin);
    assert_ne!(s.state(), before.state());
}

#[test]
fn illegal_action_terminates_with_loss_or_raises_leaving_state_unchanged() {
    let mut s = EnvSlot::new(1);
    let c = cfg(IllegalPolicy::Terminate);
    s.reset(&c.setup).unwrap();
    let illegal = (0..NUM_ACTIONS).find(|&i| !s.mask().get(i)).unwrap() as i64;
    let t = s.step(&c, illegal).unwrap();
    assert_eq!(
        t,
        Transition {
            reward: -1.0,
            terminated: true,
            outcome: Some(Outcome::Loss),
            illegal: true,
            shaping: 0.0
        }
    );
    assert!(s.done() && s.mask().is_empty());
    assert_eq!(s.step(&c, 0), Err(Error::GameOver));

    let c = cfg(IllegalPolicy::Raise);
    s.reset(&c.setup).unwrap();
    let before = s.clone();
    match s.step(&c, illegal) {
        Err(Error::IllegalAction { action, phase, .. }) => {
            assert_eq!(action, table().names[illegal as usize]);
            assert_eq!(phase, "placement");
        }
        other => panic!("expected an illegal action error, got {other:?}"),
    }
    assert_eq!(s, before);
    assert!(matches!(
        s.step(&c, NUM_ACTIONS as i64),
        Err(Error::ActionOutOfRange { .. })
    ));
    assert!(matches!(s.step(&c, -1), Err(Error::ActionOutOfRange { .. })));
    assert_eq!(s, before);
}

#[test]
fn vector_raise_names_the_env_and_changes_nothing() {
    let n = 4;
    let mut v = VecEngine::new(cfg(IllegalPolicy::Raise), n, 2, Autoreset::NextStep).unwrap();
    let mut b = OutputBuffers::new(n);
    v.reset(None, None, None, &mut b.out()).unwrap();
    let mut actions = vec![0i64; n];
    v.sample_actions(&mut actions);
    let before: Vec<EnvSlot> = v.slots().to_vec();
    let obs = b.obs().to_vec();
    let illegal = (0..NUM_ACTIONS).find(|&i| !v.slot(2).mask().get(i)).unwrap() as i64;
    actions[2] = illegal;
    let e = v.step(&actions, &mut b.out()).unwrap_err();
    assert_eq!(e.env, 2);
    assert!(matches!(e.error, Error::IllegalAction { .. }));
    assert!(e.to_string().starts_with("env 2: illegal action"));
    actions[2] = 999;
    assert!(matches!(
        v.step(&actions, &mut b.out()).unwrap_err(),
        EnvError {
            env: 2,
            error: Error::ActionOutOfRange { .. }
        }
    ));
    assert_eq!(v.slots(), &before[..]);
    assert_eq!(b.obs().to_vec(), obs);
}

#[test]
fn next_step_autoreset_ignores_the_action_and_returns_a_fresh_episode() {
    let n = 2;
    let mut v = VecEngine::new(cfg(IllegalPolicy::Terminate), n, 1, Autoreset::NextStep).unwrap();
    let mut b = OutputBuffers::new(n);
    v.reset(None, None, None, &mut b.out()).unwrap();
    let illegal = (0..NUM_ACTIONS).find(|&i| !v.slot(0).mask().get(i)).unwrap() as i64;
    let mut actions = vec![0i64; n];
    v.sample_actions(&mut actions);
    actions[0] = illegal;
    v.step(&actions, &mut b.out()).unwrap();
    assert!(b.terminated[0] && b.illegal[0]);
    assert_eq!(b.outcomes[0], Outcome::Loss.idx() as i8);
    assert_eq!(b.rewards[0], -1.0);
    assert!(
        b.masks[..NUM_ACTIONS].iter().all(|&m| !m),
        "no legal action after the end"
    );
    v.sample_actions(&mut actions);
    assert_eq!(actions[0], 0);
    actions[0] = 999; // ignored: env 0 is being reset
    v.step(&actions, &mut b.out()).unwrap();
    assert!(!b.terminated[0] && !b.illegal[0] && b.rewards[0] == 0.0 && b.outcomes[0] == NO_OUTCOME);
    assert_eq!(v.slot(0).state().phase, Phase::Placement);
    assert!(b.masks[..NUM_ACTIONS].iter().any(|&m| m));
}

#[test]
fn same_step_autoreset_keeps_the_final_observation() {
    let n = 1;
    let c = cfg(IllegalPolicy::Terminate);
    let mut v = VecEngine::new(c.clone(), n, 1, Autoreset::SameStep).unwrap();
    let mut b = OutputBuffers::new(n);
    v.reset(None, None, None, &mut b.out()).unwrap();
    let mut actions = vec![0i64; n];
    loop {
        let last = v.slot(0).clone();
        v.sample_actions(&mut actions);
        v.step(&actions, &mut b.out()).unwrap();
        if b.terminated[0] {
            let mut finished = last;
            let t = finished.step(&c, actions[0]).unwrap();
            assert!(t.terminated);
            let mut obs = vec![0.0; obs_size()];
            finished.write_observation(&mut obs);
            assert_eq!(b.final_obs, obs);
            assert_eq!(v.slot(0).state().phase, Phase::Placement, "already reset");
            assert!(!v.slot(0).done());
            break;
        }
    }
}

#[test]
fn disabled_autoreset_refuses_finished_envs_until_reset_by_mask() {
    let n = 2;
    let mut v = VecEngine::new(cfg(IllegalPolicy::Terminate), n, 1, Autoreset::Disabled).unwrap();
    let mut b = OutputBuffers::new(n);
    v.reset(None, None, None, &mut b.out()).unwrap();
    let mut actions = vec![0i64; n];
    v.sample_actions(&mut actions);
    actions[1] = (0..NUM_ACTIONS).find(|&i| !v.slot(1).mask().get(i)).unwrap() as i64;
    v.step(&actions, &mut b.out()).unwrap();
    v.sample_actions(&mut actions);
    assert_eq!(
        v.step(&actions, &mut b.out()).unwrap_err(),
        EnvError {
            env: 1,
            error: Error::GameOver
        }
    );
    let keep = v.slot(0).clone();
    v.reset(None, Some(&[false, true]), None, &mut b.out()).unwrap();
    assert_eq!(v.slot(0), &keep, "env 0 not reset");
    v.step(&actions, &mut b.out()).unwrap();
}

#[test]
fn reset_options_override_one_reset_and_reject_unknown_keys() {
    let base = Setup::default();
    let o = ResetOptions::from_json(r#"{"difficulty": "hard", "missions": ["sabotage", "aid_the_spy"], "patrol_deck": [9,8,7,6,5,4,3,2,1,0], "start": {"morale": 3, "resources": {"weapon": 2}}}"#).unwrap();
    let s = o.setup(&base).unwrap();
    let mut slot = EnvSlot::new(0);
    slot.reset(&s).unwrap();
    assert_eq!(slot.state().difficulty, Difficulty::Hard);
    assert_eq!(slot.state().tracks.morale, 3);
    assert_eq!(slot.state().missions[0].id, MissionId::Sabotage);
    for bad in [
        r#"{"dificulty": "hard"}"#,
        r#"{"difficulty": "impossible"}"#,
        r#"{"start": {"moral": 3}}"#,
        r#"{"missions": ["sabotage", "nope"]}"#,
    ] {
        assert!(
            matches!(ResetOptions::from_json(bad), Err(Error::BadOption(_))),
            "{bad}"
        );
    }
    let twice = ResetOptions::from_json(r#"{"missions": ["sabotage", "sabotage"]}"#).unwrap();
    assert!(twice.setup(&base).is_err());
    // A failing reset changes nothing, not even the episode stream.
    let before = slot.clone();
    let too_many = ResetOptions::from_json(r#"{"start": {"resources": {"weapon": 9}}}"#)
        .unwrap()
        .setup(&base)
        .unwrap();
    assert!(slot.reset(&too_many).is_err());
    assert_eq!(slot, before);
}

#[test]
fn balanced_threads_run_every_part_once_and_take_over_a_stalled_share() {
    use std::sync::atomic::AtomicUsize;
    use std::time::{Duration, Instant};
    for threads in 1..=3 {
        let pool = Pool::new(threads).unwrap();
        for n in [0, 1, 2, 5, 16, 37] {
            let hits: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
            on_threads(&pool, (0..n).collect(), |i: usize| {
                hits[i].fetch_add(1, Ordering::Relaxed);
            });
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1), "{threads} threads, {n} parts");
        }
    }
    // Part 0 (the caller's share) waits until every other part is done: only if the worker
    // takes over the rest of the caller's share does it finish.
    let pool = Pool::new(2).unwrap();
    let (n, done) = (16, AtomicUsize::new(0));
    let start = Instant::now();
    on_threads(&pool, (0..n).collect(), |i: usize| {
        if i == 0 {
            while done.load(Ordering::Acquire) < n - 1 && start.elapsed() < Duration::from_secs(20) {
                std::thread::yield_now();
            }
        }
        done.fetch_add(1, Ordering::Release);
    });
    assert_eq!(done.load(Ordering::Relaxed), n);
    assert!(start.elapsed() < Duration::from_secs(20), "the stalled share was not taken over");
}

#[test]
fn a_late_owner_s_last_block_is_taken_over_by_another_thread() {
    use std::time::Duration;
    let (n, per) = (16, 8);
    let mut slots: Vec<EnvSlot> = (0..n).map(|i| EnvSlot::new(i as u64)).collect();
    let (actions, mut presampled) = (vec![0i64; n], vec![UNSAMPLED; n]);
    let mut b = OutputBuffers::new(n);
    let mut out = b.out();
    let shares = shares(&mut slots, &actions, &mut out, &mut presampled, Copies::none(), per, true, Simd::detect());
    let by: Vec<Mutex<Vec<usize>>> = (0..n).map(|_| Mutex::new(Vec::new())).collect();
    let started = AtomicUsize::new(0);
    let pool = Pool::new(2).unwrap();
    pool.run(&|t| {
        if t == 0 {
            // Until the worker holds the first block of its share.
            while started.load(Ordering::Acquire) == 0 {
                std::hint::spin_loop();
            }
        }
        work_shares(t, &shares, 4, |c| {
            for env in &by[c.first..c.first + c.len()] {
                env.lock().unwrap().push(t);
            }
            if t == 1 && c.first == per {
                started.store(1, Ordering::Release);
                // Stopped by the machine with its last block untaken.
                std::thread::sleep(Duration::from_millis(200));
            }
        });
    });
    let by: Vec<Vec<usize>> = by.into_iter().map(|m| m.into_inner().unwrap()).collect();
    let expected: Vec<Vec<usize>> = (0..n).map(|i| vec![if (8..12).contains(&i) { 1 } else { 0 }]).collect();
    assert_eq!(by, expected, "each environment once; the late worker's last block by the caller");
}

#[test]
fn all_in_range_is_every_action_in_0_to_num_actions() {
    // Each compiled variant this CPU runs, and the dispatch.
    type Variant = (&'static str, fn(&[i64]) -> bool);
    let mut variants: Vec<Variant> =
        vec![("dispatch", |a| all_in_range(Simd::detect(), a, NUM_ACTIONS)), ("generic", |a| all_in_range_generic(a, NUM_ACTIONS))];
    #[cfg(target_arch = "x86_64")]
    {
        let simd = Simd::detect();
        if simd.avx2 {
            // SAFETY: the CPU has AVX2.
            variants.push(("avx2", |a| unsafe { all_in_range_avx2(a, NUM_ACTIONS) }));
        }
        if simd.avx512 {
            // SAFETY: the CPU has AVX-512 F.
            variants.push(("avx512", |a| unsafe { all_in_range_avx512(a, NUM_ACTIONS) }));
        }
    }
    let n = NUM_ACTIONS as i64;
    for (name, all_in_range) in variants {
        for bad in [-1, n, n + 1, 255, 256, i64::MIN, i64::MAX, i64::MIN + n - 1] {
            // Lengths around the vector widths, the bad action first, in the middle, last.
            for len in [1, 2, 3, 5, 7, 9, 17, 33, 1023, 1024] {
                for at in [0, len / 2, len - 1] {
                    let mut a: Vec<i64> = (0..len as i64).map(|i| (i * 37) % n).collect();
                    assert!(all_in_range(&a), "{name}");
                    a[at] = bad;
                    assert!(!all_in_range(&a), "{name}: {bad} at {at} of {len}");
                }
            }
        }
        assert!(all_in_range(&[0, n - 1]) && all_in_range(&[]), "{name}");
    }
}

/// `$share`: the one share of `$n` new environments and their rows (the locals it borrows
/// are declared beside it, out of the caller's sight).
macro_rules! one_share {
    ($share:ident, $n:expr) => {
        let mut slots: Vec<EnvSlot> = (0..$n).map(|i| EnvSlot::new(i as u64)).collect();
        let (actions, mut presampled, mut b) = (vec![0i64; $n], vec![UNSAMPLED; $n], OutputBuffers::new($n));
        let mut out = b.out();
        let $share = shares(&mut slots, &actions, &mut out, &mut presampled, Copies::none(), $n, true, Simd::detect()).remove(0);
    };
}

#[test]
fn a_share_goes_to_its_thread_from_the_front_and_to_others_from_the_back_but_its_last_block_unless_late() {
    let n = 20;
    let mut slots: Vec<EnvSlot> = (0..n).map(|i| EnvSlot::new(i as u64)).collect();
    let (actions, mut presampled) = (vec![0i64; n], vec![UNSAMPLED; n]);
    let mut b = OutputBuffers::new(n);
    let mut out = b.out();
    let first_obs = out.obs.as_ptr();
    let share = shares(&mut slots, &actions, &mut out, &mut presampled, Copies::none(), n, true, Simd::detect()).remove(0);
    // Rows of a chunk: where its observation rows start, and how many; the index it gives its
    // first environment (`Ends`) is where its rows start.
    let rows = |c: &Chunk<Maquis>| {
        let start = (c.obs.as_ptr() as usize - first_obs as usize) / (4 * obs_size());
        assert_eq!(c.first, start);
        (start, c.len())
    };
    let mine = share.next(4, false).unwrap();
    assert_eq!(rows(&mine), (0, 4));
    assert_eq!(mine.masks.len(), 4 * NUM_ACTIONS);
    let taken = share.next(4, true).unwrap();
    assert_eq!(rows(&taken), (16, 4));
    assert_eq!((taken.actions.len(), taken.presampled.len(), taken.final_obs.len()), (4, 4, 4 * obs_size()));
    for (start, len) in [(4, 4), (8, 4)] {
        assert_eq!(rows(&share.next(4, false).unwrap()), (start, len));
    }
    // Four left, one block: the owner's, unless it is late; then others take it from the
    // back too, a piece at a time.
    assert!(share.next(4, true).is_none());
    assert!(!share.all_taken());
    assert_eq!(rows(&share.next_late(3).unwrap()), (13, 3));
    assert_eq!(rows(&share.next(4, false).unwrap()), (12, 1));
    assert!(share.all_taken());
    assert!(share.next(4, false).is_none() && share.next_late(3).is_none());
    // With more than a block left, another thread leaves the owner a whole block.
    one_share!(share, 10);
    assert_eq!(share.next(4, true).unwrap().len(), 4);
    assert_eq!(share.next(4, true).unwrap().len(), 2);
    assert!(share.next(4, true).is_none());
    assert_eq!(share.next(8, false).unwrap().len(), 4);
    // A short last block.
    one_share!(share, 3);
    assert_eq!(share.next(2, false).unwrap().len(), 2);
    assert_eq!(share.next(2, false).unwrap().len(), 1);
    assert!(share.next(2, false).is_none());
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

#[test]
fn rewards_and_policies_parse_spec_ids_only() {
    let r = Rewards::default().with("draw", -0.5).unwrap();
    assert_eq!(r.of(Outcome::Draw), -0.5);
    assert_eq!(r.of(Outcome::Win), 1.0);
    assert!(Rewards::default().with("victory", 1.0).is_err());
    assert!(Rewards::default().with("win", f64::NAN).is_err());
    assert!(IllegalPolicy::parse("ignore").is_err());
    assert!(Autoreset::parse("sometimes").is_err());
}

#[test]
fn snapshot_round_trip_is_exact_and_continues_identically() {
    let c = cfg(IllegalPolicy::Terminate);
    let mut s = EnvSlot::new(77);
    s.reset(&c.setup).unwrap();
    for _ in 0..25 {
        if let Some(a) = s.sample() {
            s.step(&c, a as i64).unwrap();
        }
    }
    let (c2, mut t) = env_from_snapshot(&env_snapshot(&c, &s)).unwrap();
    assert_eq!(c2, c);
    assert_eq!(t, s);
    while !s.done() {
        let (a, b) = (s.sample().unwrap(), t.sample().unwrap());
        assert_eq!(a, b);
        assert_eq!(s.step(&c, a as i64).unwrap(), t.step(&c, b as i64).unwrap());
    }
    s.reset(&c.setup).unwrap();
    t.reset(&c.setup).unwrap();
    assert_eq!(s, t);
    assert!(env_from_snapshot("{}").is_err());
    assert!(env_from_snapshot("not json").is_err());
}

#[test]
fn observations_stay_in_unit_interval_in_random_play() {
    let c = cfg(IllegalPolicy::Terminate);
    let mut obs = vec![0.0; obs_size()];
    for &d in Difficulty::ALL {
        let setup = Setup::new(d);
        let mut s = EnvSlot::new(d as u64);
        for _ in 0..40 {
            s.reset(&setup).unwrap();
            while !s.done() {
                s.write_observation(&mut obs);
                assert!(obs.iter().all(|&x| (0.0..=1.0).contains(&x)), "{obs:?}");
                let a = s.sample().unwrap() as i64;
                s.step(&c, a).unwrap();
            }
            s.write_observation(&mut obs);
            assert!(obs.iter().all(|&x| (0.0..=1.0).contains(&x)));
        }
    }
}

#[test]
fn byte_rows_divided_by_their_divisors_are_the_float_rows() {
    use crate::maquis::observation::observation_divisors;
    for mode in [Autoreset::NextStep, Autoreset::SameStep] {
        let n = 9;
        let (o, a) = (obs_size(), NUM_ACTIONS);
        let mut v = VecEngine::new(cfg(IllegalPolicy::Terminate), n, 2, mode).unwrap();
        let mut w = VecEngine::new(cfg(IllegalPolicy::Terminate), n, 2, mode).unwrap();
        v.seed_all(8);
        w.seed_all(8);
        let mut b = OutputBuffers::new(n);
        let (mut obs, mut final_obs) = (vec![0u8; n * o], vec![0u8; n * o]);
        let (mut masks, mut rewards, mut terminated, mut truncated) = (vec![false; n * a], vec![0f32; n], vec![false; n], vec![false; n]);
        let (mut outcomes, mut illegal) = (vec![0i8; n], vec![false; n]);
        macro_rules! bytes {
            () => {
                Outputs {
                    obs: &mut obs,
                    masks: &mut masks,
                    rewards: &mut rewards,
                    terminated: &mut terminated,
                    truncated: &mut truncated,
                    outcomes: &mut outcomes,
                    illegal: &mut illegal,
                    final_obs: &mut final_obs,
                    obs_kept: true,
                }
            };
        }
        v.reset(None, None, None, &mut b.out()).unwrap();
        w.reset(None, None, None, &mut bytes!()).unwrap();
        let as_floats = |rows: &[u8]| -> Vec<f32> {
            let d = observation_divisors();
            (0..rows.len())
                .map(|k| match d[k % o] {
                    0 => rows[k + 1] as f32 / rows[k] as f32,
                    x => rows[k] as f32 / x as f32,
                })
                .collect()
        };
        let mut actions = vec![0i64; n];
        let mut ended = 0;
        for _ in 0..3000 {
            v.sample_actions(&mut actions);
            v.step(&actions, &mut b.out()).unwrap();
            w.step(&actions, &mut bytes!()).unwrap();
            assert_eq!(as_floats(&obs), b.obs());
            assert_eq!((&masks, &rewards, &terminated), (&b.masks, &b.rewards, &b.terminated));
            for i in (0..n).filter(|&i| b.terminated[i] && mode == Autoreset::SameStep) {
                assert_eq!(as_floats(&final_obs[i * o..(i + 1) * o]), b.final_obs[i * o..(i + 1) * o]);
            }
            ended += b.terminated.iter().filter(|&&t| t).count();
        }
        assert!(ended > 20);
    }
}

#[test]
fn a_copying_step_copies_every_row_it_writes() {
    for threads in [1, 2, 3] {
        let n = 37;
        let (o, a) = (obs_size(), NUM_ACTIONS);
        let mut v = VecEngine::new(cfg(IllegalPolicy::Terminate), n, threads, Autoreset::NextStep).unwrap();
        v.seed_all(4);
        let mut b = OutputBuffers::new(n);
        v.reset(None, None, None, &mut b.out()).unwrap();
        let mut actions = vec![0i64; n];
        for _ in 0..200 {
            v.sample_actions(&mut actions);
            // From NaN and true: a row left uncopied shows.
            let (mut obs, mut masks) = (vec![f32::NAN; n * o], vec![true; n * a]);
            v.step_copying(&actions, &mut b.out(), Copies { obs: &mut obs, masks: &mut masks }).unwrap();
            assert_eq!(obs, b.obs());
            assert_eq!(masks, b.masks);
        }
    }
}
