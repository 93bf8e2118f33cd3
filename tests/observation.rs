//! The observation: a named layout covering the vector exactly, and nothing hidden in it.

mod common;

use maquis::maquis::ids::{Difficulty, MissionId};
use maquis::maquis::{legal_mask, obs_size, observation, observation_layout, Setup};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[test]
fn layout_covers_the_vector_exactly_with_unique_names() {
    let layout = observation_layout();
    let mut at = 0;
    let mut names = std::collections::HashSet::new();
    for &(name, off, len) in layout {
        assert_eq!(off, at, "slice {name} does not follow its predecessor");
        assert!(len > 0);
        assert!(names.insert(name), "duplicate slice name {name}");
        at += len;
    }
    assert_eq!(at, obs_size());
}

/// P2: the discard is open, the deck order hidden. Two states that differ only in the order of the
/// cards still in the deck encode the same observation, at every step of random games.
#[test]
fn p2_hidden_deck_order_is_not_observed() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for seed in 0..300 {
        let mut s = maquis::maquis::new_game(&Setup::new(Difficulty::ALL[seed as usize % 6]), seed).unwrap();
        while !s.is_over() {
            let mut t = s.clone();
            let top = t.deck.top as usize;
            t.deck.cards[top..].reverse();
            if t.deck != s.deck && s.today.peek.is_none() {
                assert_eq!(observation(&s), observation(&t));
            }
            let a = maquis::maquis::agents::random::sample(&legal_mask(&s), &mut rng).unwrap();
            maquis::maquis::apply(&mut s, a as i64).unwrap();
        }
    }
}

/// M-infiltration: with the mole in place the top card is visible, the rest of the deck is not.
#[test]
fn m_infiltration_peek_is_the_only_visible_deck_card() {
    let mut s = common::game(&common::setup(
        Difficulty::Normal,
        MissionId::Infiltration,
        MissionId::Sabotage,
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    ));
    s.marks.stuck |= maquis::maquis::board::bit(maquis::maquis::Location::MissionA);
    s.home -= 1;
    s.missions[0].boxes_done = 1;
    maquis::maquis::rules::begin_day(&mut s);
    let (_, off, len) = *observation_layout().iter().find(|(n, _, _)| *n == "peek").unwrap();
    let obs = observation(&s);
    let top = s.deck.deck()[0] as usize;
    assert_eq!(obs[off + top], 1.0);
    assert_eq!(obs[off..off + len].iter().sum::<f32>(), 1.0);
    // Reordering below the top changes nothing; changing the top changes the peek.
    let mut t = s.clone();
    let k = t.deck.top as usize;
    t.deck.cards[k + 1..].reverse();
    assert_eq!(observation(&s), observation(&t));
    t.today.peek = Some(t.deck.deck()[1]);
    assert_ne!(observation(&s), observation(&t));
    // A draw during placement does not reveal the new top: the peek stays the card seen before.
    let before = s.today.peek;
    common::act(&mut s, "place:cafe");
    assert_eq!(s.today.peek, before);
    assert_ne!(s.deck.deck().first().copied(), before);
}

/// The observation shows everything the player may see: a state rebuilt from it alone (hidden
/// deck drawn at random) has the same observation and the same legal actions, at every step.
#[test]
fn state_from_observation_round_trips_everything_visible() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let all = MissionId::ALL;
    for seed in 0..400u64 {
        let d = Difficulty::ALL[seed as usize % 6];
        let (a, b) = (all[seed as usize % 18], all[(seed as usize * 7 + 3) % 18]);
        let setup = if a == b { Setup::new(d) } else { Setup::new(d).missions(a, b) };
        let mut s = maquis::maquis::new_game(&setup, seed).unwrap();
        loop {
            let obs = observation(&s);
            let t = maquis::maquis::observation::state_from_observation(&obs, seed).unwrap();
            assert_eq!(observation(&t), obs, "re-encoded observation differs");
            assert_eq!(legal_mask(&t), legal_mask(&s), "legal actions differ");
            assert_eq!(t.deck.deck().len(), s.deck.deck().len());
            if s.is_over() {
                assert_eq!(t.outcome, s.outcome);
                break;
            }
            let act = maquis::maquis::agents::random::sample(&legal_mask(&s), &mut rng).unwrap();
            maquis::maquis::apply(&mut s, act as i64).unwrap();
        }
    }
}

#[test]
fn state_from_observation_rejects_garbage() {
    use maquis::maquis::observation::state_from_observation;
    assert!(state_from_observation(&[0.0; 3], 0).is_err());
    assert!(state_from_observation(&vec![0.0; obs_size()], 0).is_err());
    assert!(state_from_observation(&vec![2.0; obs_size()], 0).is_err());
    assert!(state_from_observation(&vec![f32::NAN; obs_size()], 0).is_err());
}

/// As above, along the longer games of the heuristic agent (more of each mission's states).
#[test]
fn state_from_observation_round_trips_heuristic_games() {
    let agent = maquis::maquis::agents::heuristic::HeuristicAgent::new(0);
    let all = MissionId::ALL;
    for seed in 0..120u64 {
        let d = Difficulty::ALL[seed as usize % 6];
        let (a, b) = (all[seed as usize % 18], all[(seed as usize * 5 + 1) % 18]);
        let setup = if a == b { Setup::new(d) } else { Setup::new(d).missions(a, b) };
        let mut s = maquis::maquis::new_game(&setup, seed).unwrap();
        while !s.is_over() {
            let obs = observation(&s);
            let t = maquis::maquis::observation::state_from_observation(&obs, seed).unwrap();
            assert_eq!(observation(&t), obs);
            assert_eq!(legal_mask(&t), legal_mask(&s), "legal actions differ on day {} ({:?})", s.day, s.missions);
            let a = agent.act(&s) as i64;
            maquis::maquis::apply(&mut s, a).unwrap();
        }
    }
}
