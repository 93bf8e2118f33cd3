//! The three autoreset modes: next step, same step (the final observation kept), disabled.

use super::*;

#[test]
fn next_step_autoreset_ignores_the_action_and_returns_a_fresh_episode() {
    let n = 2;
    let (mut v, mut b) = engine(&cfg(IllegalPolicy::Terminate), n, 1, Autoreset::NextStep, None);
    let illegal = (0..NUM_ACTIONS).find(|&i| !v.slot(0).mask().get(i)).unwrap() as i64;
    let mut actions = vec![0i64; n];
    v.sample_actions(&mut actions);
    actions[0] = illegal;
    v.step(&actions, &mut b.out()).unwrap();
    assert!(b.terminated[0] && b.illegal[0]);
    assert_eq!(b.outcomes[0], Outcome::Loss.idx() as i8);
    assert_eq!(b.rewards[0], -1.0);
    // API "Vector env" (ruling 2026-11-28): the row of an env awaiting its autoreset allows every
    // action, a safe row for masked softmaxes and samplers; the step ignores its action.
    assert!(b.masks[..NUM_ACTIONS].iter().all(|&m| m), "every action in the row of an env awaiting its reset");
    assert!(b.masks[NUM_ACTIONS..].iter().any(|&m| !m), "the live env's row is its legal actions");
    v.sample_actions(&mut actions);
    assert!((0..NUM_ACTIONS as i64).contains(&actions[0]));
    actions[0] = 999; // ignored: env 0 is being reset
    v.step(&actions, &mut b.out()).unwrap();
    assert!(!b.terminated[0] && !b.illegal[0] && b.rewards[0] == 0.0 && b.outcomes[0] == NO_OUTCOME);
    assert_eq!(v.slot(0).state().phase, Phase::Placement);
    assert!(b.masks[..NUM_ACTIONS].iter().any(|&m| m) && b.masks[..NUM_ACTIONS].iter().any(|&m| !m));
}

#[test]
fn same_step_autoreset_keeps_the_final_observation() {
    let n = 1;
    let c = cfg(IllegalPolicy::Terminate);
    let (mut v, mut b) = engine(&c, n, 1, Autoreset::SameStep, None);
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
    let (mut v, mut b) = engine(&cfg(IllegalPolicy::Terminate), n, 1, Autoreset::Disabled, None);
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
