//! Illegal and out-of-range actions: a loss or an error naming the environment, and the state
//! left unchanged; the SIMD range check of a batch of actions.

use super::*;

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
    let (mut v, mut b) = engine(&cfg(IllegalPolicy::Raise), n, 2, Autoreset::NextStep, None);
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
