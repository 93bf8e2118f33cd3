//! The fast `legal_mask` (placement as a bitboard, only the options that can apply to a tile or a
//! mission card) equals the reference that tests every action of every location, in random play
//! over every difficulty and mission pair, from rich starting hands too.

use maquis::maquis::agents::random::sample;
use maquis::maquis::ids::{Difficulty, MissionId, MissionPool, Resource};
use maquis::maquis::rules::legal_mask_reference;
use maquis::maquis::{action_table, apply, legal_mask, new_game, Setup, StartOverrides};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn check_playout(setup: &Setup, seed: u64) -> u32 {
    let mut s = new_game(setup, seed).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x51ed);
    let mut steps = 0;
    while !s.is_over() {
        let (fast, slow) = (legal_mask(&s), legal_mask_reference(&s));
        if fast != slow {
            let names = |m: &maquis::maquis::ActionMask| m.iter().map(|i| action_table().names[i].clone()).collect::<Vec<_>>();
            panic!("fast mask {:?}\n  reference {:?}\n  in {s:?}", names(&fast), names(&slow));
        }
        let a = sample(&fast, &mut rng).unwrap();
        apply(&mut s, a as i64).unwrap();
        steps += 1;
    }
    assert!(legal_mask_reference(&s).is_empty());
    steps
}

/// A starting hand of up to `most` tokens of each resource.
fn rich_start(rng: &mut ChaCha8Rng, most: u8) -> StartOverrides {
    let mut start = StartOverrides::default();
    for &r in Resource::ALL {
        start.resources.insert(r, rng.gen_range(0..=most));
    }
    start
}

#[test]
fn fast_mask_matches_reference_every_difficulty() {
    for &d in Difficulty::ALL {
        for seed in 0..200 {
            check_playout(&Setup::new(d), seed);
        }
    }
}

#[test]
fn fast_mask_matches_reference_every_mission_pool_with_rich_hands() {
    // The pools differ in the tiles that can be built (A5) and the missions dealt.
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for &pool in MissionPool::ALL {
        for seed in 0..300 {
            let mut start = rich_start(&mut rng, 4);
            // Poison and fake IDs exist only in the second-edition pool (D2).
            start.resources.retain(|&r, _| maquis::maquis::config::tokens_in_game(pool, r) > 0);
            let setup = Setup { mission_pool: pool, ..Setup::new(Difficulty::Normal) }.start(start);
            check_playout(&setup, seed);
        }
    }
}

#[test]
fn fast_mask_matches_reference_every_mission_pair_with_rich_hands() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut seed = 0;
    for &a in MissionId::ALL {
        for &b in MissionId::ALL {
            if a == b {
                continue;
            }
            for most in [0, 2, 4] {
                seed += 1;
                let setup = Setup::new(Difficulty::Normal).missions(a, b).start(rich_start(&mut rng, most));
                check_playout(&setup, seed);
            }
        }
    }
}
