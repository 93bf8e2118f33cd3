//! Property tests: long random legal playouts over every difficulty and many mission pairs keep
//! every invariant (T4 supply conservation, B5 one pawn per location, T5 worker counts, morale and
//! soldier ranges), never panic, and survive a save/load round trip at every step.

use maquis::maquis::agents::random::sample;
use maquis::maquis::ids::{Difficulty, MissionId};
use maquis::maquis::save::{load, save, validate};
use maquis::maquis::{action_table, apply, legal_mask, new_game, observation, Setup};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn playout(setup: &Setup, seed: u64, check_saves: bool) -> (u32, maquis::maquis::State) {
    let mut s = new_game(setup, seed).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x9e37);
    let mut steps = 0;
    validate(&s).unwrap();
    while !s.is_over() {
        let mask = legal_mask(&s);
        assert!(!mask.is_empty(), "no legal action in a live state: {s:?}");
        let a = sample(&mask, &mut rng).unwrap();
        apply(&mut s, a as i64).unwrap_or_else(|e| panic!("masked action {} refused: {e}", action_table().names[a]));
        validate(&s).unwrap_or_else(|e| panic!("invariant broken after {}: {e}\n{s:?}", action_table().names[a]));
        if check_saves {
            assert_eq!(load(&save(&s)).unwrap(), s);
        }
        steps += 1;
        assert!(steps < 2000, "game too long");
    }
    assert!(legal_mask(&s).is_empty());
    (steps, s)
}

#[test]
fn random_playouts_keep_invariants_every_difficulty() {
    for &d in Difficulty::ALL {
        for seed in 0..150 {
            playout(&Setup::new(d), seed, seed < 10);
        }
    }
}

#[test]
fn random_playouts_keep_invariants_every_mission_pair() {
    let all = MissionId::ALL;
    let mut seed = 0;
    for &a in all {
        for &b in all {
            if a == b {
                continue;
            }
            for d in [Difficulty::VeryEasy, Difficulty::Normal, Difficulty::VeryHard] {
                seed += 1;
                playout(&Setup::new(d).missions(a, b), seed, false);
            }
        }
    }
}

#[test]
fn same_seed_same_game() {
    for seed in 0..20 {
        let (n1, s1) = playout(&Setup::default(), seed, false);
        let (n2, s2) = playout(&Setup::default(), seed, false);
        assert_eq!(n1, n2);
        assert_eq!(s1, s2);
        assert_eq!(observation(&s1), observation(&s2));
    }
}
