//! The output rows: aligned, in [0, 1], as bytes the float rows over their divisors, and copied
//! whole by a copying step.

use super::*;

#[test]
fn output_observation_rows_start_on_cache_lines() {
    for n in [1, 3, 1024] {
        let mut b = OutputBuffers::of::<Maquis>(n);
        assert_eq!(b.obs().as_ptr() as usize % 64, 0);
        assert_eq!(b.obs().len(), n * obs_size());
        assert!(b.out().obs.iter().all(|&x| x == 0.0));
    }
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
        let mut b = OutputBuffers::of::<Maquis>(n);
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
        let (mut v, mut b) = engine(&cfg(IllegalPolicy::Terminate), n, threads, Autoreset::NextStep, Some(4));
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
