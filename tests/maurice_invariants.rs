//! Whole games of random legal play: every decision point offers an action, every legal action
//! applies, the game ends, and Q1's deciders hold.

use maquis::maurice::observation::ObservationKind;
use maquis::maurice::setup::TerrainChoice;
use maquis::maurice::{self, Phase, ScenarioId, Setup, Side};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_game(seed: u64, setup: &Setup) -> (maurice::State, usize) {
    let mut s = maurice::new_game(seed, setup).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut steps = 0;
    while !s.is_over() {
        let m = maurice::legal_mask(&s);
        assert!(!m.is_empty(), "seed {seed}: no legal action in {:?}", s.phase);
        let legal: Vec<usize> = m.iter().collect();
        let a = legal[rng.gen_range(0..legal.len())];
        let side = s.to_move.unwrap();
        // Q1: who decides.
        match s.phase {
            Phase::VolleyChoice | Phase::Command | Phase::Force | Phase::Span | Phase::Move | Phase::UnitMove
            | Phase::Charge | Phase::ChargeLead | Phase::CincMove | Phase::CincPay => assert_eq!(side, s.active),
            Phase::VolleyInterrupt | Phase::ActivationInterrupt => assert_eq!(side, s.passive()),
            _ => {}
        }
        maurice::apply(&mut s, a as i64).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        steps += 1;
        assert!(steps < 200_000, "seed {seed}: the game does not end");
        if steps % 97 == 0 {
            for side in Side::ALL {
                let o = maurice::observation(&s, *side, ObservationKind::Full);
                assert!(o.iter().all(|v| (0.0..=1.0).contains(v)));
            }
        }
    }
    (s, steps)
}

#[test]
fn maurice_q1_random_games_end_with_every_decision_legal() {
    for seed in 0..12 {
        let scenario = if seed % 2 == 0 { ScenarioId::Skirmish } else { ScenarioId::Standard };
        let terrain = if seed % 3 == 0 { TerrainChoice::Random } else { TerrainChoice::Scenario };
        let (s, _) = random_game(seed, &Setup { scenario, terrain, ..Default::default() });
        assert!(s.outcome.is_some());
        assert_eq!(s.phase, Phase::GameOver);
    }
}

#[test]
fn maurice_q2_illegal_actions_are_refused_unchanged() {
    let mut s = maurice::new_game(3, &Setup::default()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..300 {
        if s.is_over() {
            break;
        }
        let m = maurice::legal_mask(&s);
        let illegal = (0..maurice::NUM_ACTIONS).find(|&i| !m.get(i)).unwrap();
        let before = s.clone();
        assert!(maurice::apply(&mut s, illegal as i64).is_err());
        assert_eq!(s, before);
        let legal: Vec<usize> = m.iter().collect();
        maurice::apply(&mut s, legal[rng.gen_range(0..legal.len())] as i64).unwrap();
    }
    assert!(maurice::apply(&mut s, 1447).is_err());
}
