//! The fixed-shape f32 observation. Everything the player may see, nothing hidden: never the deck
//! order (only its size, and the top card while an Infiltration mole is in place).
//!
//! The layout is recorded by the same code that writes the slices, so names and contents cannot
//! drift apart: `observation_layout()` is `[(name, offset, length)]` covering the vector exactly.


mod decode;
mod encode;
mod incremental;

pub use decode::state_from_observation;
pub use incremental::{update_observation, update_observation_with, Written};

use encode::{encode, Writer};
use incremental::Parts;
use crate::maquis::state::State;
use crate::obs_value::{Divisor, ObsValue};
use std::sync::OnceLock;

/// The length of the observation vector (checked against the layout when it is first built).
pub const OBS_SIZE: usize = 416;

/// Writes the observation of `s` into `out` (length `OBS_SIZE`).
#[inline]
pub fn write_observation(s: &State, out: &mut [f32]) {
    let mut nothing = Written::NOTHING;
    update_observation(s, out, &mut nothing)
}

pub type Layout = Vec<(&'static str, usize, usize)>;

/// `[(name, offset, length)]` in order, covering the observation exactly.
pub fn observation_layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(|| {
        let s = crate::maquis::rules::new_game(&crate::maquis::rules::Setup::default(), 0).expect("default setup is valid");
        let mut buf = [0.0; OBS_SIZE];
        let mut layout = Vec::new();
        let mut w = Writer { buf: &mut buf, at: 0, end: OBS_SIZE, layout: Some(&mut layout) };
        encode(&s, &mut w, Parts::ALL);
        assert_eq!(w.at, OBS_SIZE, "OBS_SIZE must match the layout");
        layout
    })
}

/// Writes the observation of `s` into `out` as `T` (`f32`: as `write_observation`; `u8`: each
/// value's count, the `f32` value times its scale, see `observation_divisors`).
#[inline]
pub fn write_observation_as<T: ObsValue>(s: &State, out: &mut [T]) {
    let mut nothing = Written::NOTHING;
    update_observation(s, out, &mut nothing)
}

/// For each value of the observation, what its `u8` form is divided by to give its `f32` form
/// (1 for flags; 4 for token counts, ...), or 0 for the share of a mission card's boxes done,
/// whose `u8` form is the card's box count instead (`ObsValue::share`): its `f32` form is the
/// next value's count divided by it. Recorded by the encoder itself, as the layout is.
pub fn observation_divisors() -> &'static [u8; OBS_SIZE] {
    static DIVISORS: OnceLock<[u8; OBS_SIZE]> = OnceLock::new();
    DIVISORS.get_or_init(|| {
        let s = crate::maquis::rules::new_game(&crate::maquis::rules::Setup::default(), 0).expect("default setup is valid");
        let mut buf = [Divisor(u8::MAX); OBS_SIZE];
        let mut w = Writer { buf: &mut buf, at: 0, end: OBS_SIZE, layout: None };
        encode(&s, &mut w, Parts::ALL);
        assert_eq!(w.at, OBS_SIZE, "OBS_SIZE must match the layout");
        buf.map(|d| d.0)
    })
}

/// The length of the observation vector.
#[inline]
pub fn obs_size() -> usize {
    OBS_SIZE
}

/// The observation of `s` as a new vector.
pub fn observation(s: &State) -> Vec<f32> {
    let mut v = vec![0.0; obs_size()];
    write_observation(s, &mut v);
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "x86_64")]
    use super::incremental::update_observation_avx2;
    use super::incremental::update_observation_generic;
    use crate::maquis::ids::*;
    use crate::simd::Simd;
    use crate::maquis::agents::random::sample;
    use crate::maquis::rules::{apply_legal, legal_mask, new_game, Setup};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn the_layout_covers_obs_size() {
        let last = observation_layout().last().unwrap();
        assert_eq!(last.1 + last.2, OBS_SIZE);
    }

    #[test]
    fn both_code_paths_write_the_same_observation() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let (mut a, mut b) = ([f32::NAN; OBS_SIZE], [f32::NAN; OBS_SIZE]);
        for seed in 0..200 {
            let mut s = new_game(&Setup::default(), seed).unwrap();
            while !s.is_over() {
                // From NaN: a value left unwritten shows.
                a.fill(f32::NAN);
                update_observation_generic(&s, &mut a, &mut { Written::NOTHING });
                assert!(a.iter().all(|x| x.is_finite()));
                write_observation(&s, &mut b);
                assert_eq!(
                    a.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                    b.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
                );
                #[cfg(target_arch = "x86_64")]
                if Simd::detect().avx2 {
                    b.fill(f32::NAN);
                    // SAFETY: the CPU has both.
                    unsafe { update_observation_avx2(&s, &mut b, &mut { Written::NOTHING }) };
                    assert_eq!(a, b);
                }
                let m = legal_mask(&s);
                apply_legal(
                    &mut s,
                    crate::maquis::action::table().actions[sample(&m, &mut rng).unwrap()],
                );
            }
        }
    }

    /// Plays `games` games per difficulty and mission pool, random or heuristic, checking after
    /// every step that updating the last observation gives the observation written whole.
    fn check_updates(games: u64, heuristic: bool) -> u64 {
        use crate::maquis::agents::heuristic::HeuristicAgent;
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let agent = HeuristicAgent::new(5);
        let (mut kept, mut whole) = ([0.0; OBS_SIZE], [0.0; OBS_SIZE]);
        let mut steps = 0;
        for &difficulty in Difficulty::ALL {
            for &mission_pool in MissionPool::ALL {
                let setup = Setup { difficulty, mission_pool, ..Default::default() };
                for seed in 0..games {
                    let mut s = new_game(&setup, seed).unwrap();
                    let mut was = Written::NOTHING;
                    update_observation(&s, &mut kept, &mut was);
                    while !s.is_over() {
                        let a = if heuristic {
                            agent.act(&s)
                        } else {
                            sample(&legal_mask(&s), &mut rng).unwrap()
                        };
                        apply_legal(&mut s, crate::maquis::action::table().actions[a]);
                        update_observation(&s, &mut kept, &mut was);
                        write_observation(&s, &mut whole);
                        assert_eq!(kept, whole, "{difficulty:?} {mission_pool:?} seed {seed}: {:?}", s.phase);
                        steps += 1;
                    }
                }
            }
        }
        steps
    }

    #[test]
    fn an_updated_observation_equals_the_observation_written_whole() {
        // Random play reaches most effects early; the heuristic agent plays long games and
        // completes missions.
        assert!(check_updates(150, false) > 10_000);
        assert!(check_updates(4, true) > 5_000);
    }

    /// The `f32` value that byte `i` of `bytes` stands for (see `observation_divisors`).
    fn from_byte(bytes: &[u8; OBS_SIZE], i: usize) -> f32 {
        match observation_divisors()[i] {
            0 => bytes[i + 1] as f32 / bytes[i] as f32,
            d => bytes[i] as f32 / d as f32,
        }
    }

    #[test]
    fn the_byte_row_divided_by_its_divisors_is_the_float_row() {
        use crate::maquis::agents::heuristic::HeuristicAgent;
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let agent = HeuristicAgent::new(9);
        let (mut bytes, mut kept, mut floats) = ([0u8; OBS_SIZE], [0u8; OBS_SIZE], [0f32; OBS_SIZE]);
        let mut steps = 0;
        for &difficulty in Difficulty::ALL {
            for &mission_pool in MissionPool::ALL {
                let setup = Setup { difficulty, mission_pool, ..Default::default() };
                for seed in 0..40 {
                    let mut s = new_game(&setup, seed).unwrap();
                    let mut was = Written::NOTHING;
                    loop {
                        write_observation_as(&s, &mut bytes);
                        update_observation(&s, &mut kept, &mut was);
                        write_observation(&s, &mut floats);
                        assert_eq!(bytes, kept, "the incremental byte row");
                        for (i, f) in floats.iter().enumerate() {
                            assert_eq!(from_byte(&bytes, i).to_bits(), f.to_bits(), "value {i}, seed {seed}");
                        }
                        if s.is_over() {
                            break;
                        }
                        let a = if seed % 4 == 0 { agent.act(&s) } else { sample(&legal_mask(&s), &mut rng).unwrap() };
                        apply_legal(&mut s, crate::maquis::action::table().actions[a]);
                        steps += 1;
                    }
                }
            }
        }
        assert!(steps > 10_000);
    }

    #[test]
    fn the_divisors_follow_the_layout() {
        let d = observation_divisors();
        let slice = |name: &str| {
            let &(_, at, len) = observation_layout().iter().find(|l| l.0 == name).unwrap();
            &d[at..at + len]
        };
        assert!(slice("day").iter().all(|&x| x == 1));
        assert!(slice("hand").iter().all(|&x| x == 4));
        assert_eq!(slice("workers"), &[5; 5]);
        assert_eq!(slice("mission_a_state"), &[0, 7, 1, 1, 1, 1, 1]);
        assert_eq!(slice("deck_size"), &[10]);
        // Only the two shares of boxes done need the next value.
        assert_eq!(d.iter().filter(|&&x| x == 0).count(), 2);
    }

    #[test]
    fn an_update_rewrites_only_what_changed() {
        // The mechanism itself: a value planted in a tracked section stays while its group is
        // unchanged, and is rewritten once the group changes (or the day, or the game).
        let s = new_game(&Setup::default(), 1).unwrap();
        let mut out = [0.0; OBS_SIZE];
        let mut was = Written::NOTHING;
        update_observation(&s, &mut out, &mut was);
        assert_eq!(out.to_vec(), observation(&s));
        let morale = observation_layout().iter().find(|l| l.0 == "morale").unwrap().1;
        out[morale] = 0.5;
        update_observation(&s, &mut out, &mut was);
        assert_eq!(out[morale], 0.5);
        let mut t = s.clone();
        t.tracks.morale -= 1;
        update_observation(&t, &mut out, &mut was);
        assert_eq!(out.to_vec(), observation(&t));
        // "A box done today" changes with the day alone.
        t.missions[0].last_box_day = Some(t.abs_day());
        update_observation(&t, &mut out, &mut was);
        t.day += 1;
        update_observation(&t, &mut out, &mut was);
        assert_eq!(out.to_vec(), observation(&t));
        // Another game with the same change counts: everything is rewritten.
        let other = new_game(&Setup { difficulty: Difficulty::Hard, ..Setup::default() }, 2).unwrap();
        let mut u = other.clone();
        u.tracks = t.tracks.clone();
        u.missions = t.missions.clone();
        u.day = t.day;
        let (mut a, mut b) = (Written::NOTHING, Written::NOTHING);
        update_observation(&t, &mut out, &mut a);
        update_observation(&other, &mut out, &mut b);
        update_observation(&u, &mut out, &mut a);
        assert_eq!(out.to_vec(), observation(&u));
    }
}

