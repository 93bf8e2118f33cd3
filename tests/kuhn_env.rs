//! Kuhn poker in the shared environment machinery (`Versus<KuhnPoker>`): what a side sees (O1),
//! the margin reward (P2), the bundled agents (A1), seeding (N1), match saves, reset options and
//! the vector engine's shared conformance checks.

use maquis::env::versus::{load_match, save_match, LearnerOutcome, Opponent, OpponentKind, Rewards, TwoPlayer};
use maquis::env::{Config, IllegalPolicy, Slot};
use maquis::error::Error;
use maquis::game::Game;
use maquis::kuhn::agents::{Agent, ById, KuhnAgent};
use maquis::kuhn::env::{chip_margin, Kuhn, KuhnPoker};

type EnvConfig = Config<Kuhn>;
type EnvSlot = Slot<Kuhn>;
type Setup = maquis::env::versus::Setup<KuhnPoker>;
type Match = maquis::env::versus::Match<KuhnPoker>;
use maquis::kuhn::observation::{observation_divisors, observation_layout, write_observation_as};
use maquis::kuhn::{apply, legal_mask, new_game, observation, Card, Scenario, Side, State, DEALS, OBSERVATION_SIZE};
use serde_json::json;

fn cfg(side: Side, kind: OpponentKind, rewards: Rewards) -> EnvConfig {
    let setup = Setup { side, opponent: Opponent::bundled(kind, 1), ..Setup::default() };
    EnvConfig::new(setup, rewards, IllegalPolicy::Terminate).unwrap()
}

/// Every state of a hand with these cards: the start and every line of moves.
fn states(cards: [Card; 2]) -> Vec<State> {
    let lines: [&[i64]; 9] = [&[], &[0], &[1], &[0, 0], &[0, 1], &[1, 0], &[1, 1], &[0, 1, 0], &[0, 1, 1]];
    lines
        .iter()
        .map(|line| {
            let mut s = new_game(0, &Scenario { cards: Some(cards) }).unwrap();
            line.iter().for_each(|&a| apply(&mut s, a).unwrap());
            s
        })
        .collect()
}

#[test]
fn kuhn_o1_the_observation_never_depends_on_the_other_card() {
    for cards in DEALS {
        for side in [Side::First, Side::Second] {
            // The other side's card replaced by the third card: the same observation, always.
            let third = *Card::ALL.iter().find(|c| !cards.contains(c)).unwrap();
            let mut swapped = cards;
            swapped[side.other().idx()] = third;
            for (a, b) in states(cards).iter().zip(states(swapped)) {
                assert_eq!(observation(a, side), observation(&b, side), "{cards:?} {side} {:?}", a.history);
            }
        }
    }
}

#[test]
fn kuhn_o1_seat_card_turn_and_moves_as_thirteen_flags_in_floats_and_bytes() {
    let names: Vec<_> = observation_layout().iter().map(|&(n, o, l)| (n, o, l)).collect();
    assert_eq!(names, [("self", 0, 2), ("card", 2, 3), ("to_move", 5, 2), ("history", 7, 6)]);
    assert_eq!(OBSERVATION_SIZE, 13);
    assert_eq!(observation_divisors(), &[1u8; 13]);
    let s = &states([Card::Queen, Card::King])[4]; // pass, bet: first to move
    let o = observation(s, Side::First);
    assert_eq!(o, [1., 0., 0., 1., 0., 1., 0., 1., 0., 0., 1., 0., 0.]);
    let o2 = observation(s, Side::Second);
    assert_eq!(&o2[..5], &[0., 1., 0., 0., 1.], "second's seat and its own card, the king");
    for cards in DEALS {
        for s in states(cards) {
            for side in [Side::First, Side::Second] {
                let mut bytes = [9u8; OBSERVATION_SIZE];
                write_observation_as(&s, side, &mut bytes);
                assert_eq!(bytes.map(f32::from), observation(&s, side));
                assert_eq!(s.is_over(), observation(&s, side)[5..7] == [0.0, 0.0], "no one to move once it is over");
            }
        }
    }
}

/// Plays a whole episode with the slot's sampler: the learner's actions and the last step's
/// reward and outcome.
fn episode(c: &EnvConfig, stream: u64) -> (Vec<usize>, f64, Option<LearnerOutcome>, Match) {
    let mut slot = EnvSlot::new(stream);
    slot.reset(&c.setup).unwrap();
    let (mut actions, mut reward, mut outcome) = (Vec::new(), 0.0, None);
    while !slot.done() {
        assert_eq!(slot.state().to_move(), Some(c.setup.side), "the learner decides");
        let a = slot.sample().unwrap();
        actions.push(a);
        let t = slot.step(c, a as i64).unwrap();
        (reward, outcome) = (t.reward, t.outcome);
    }
    (actions, reward, outcome, slot.state().clone())
}

#[test]
fn kuhn_p2_the_margin_reward_is_the_payoff_halved_and_an_illegal_action_minus_one() {
    let mut seen = std::collections::BTreeSet::new();
    for side in [Side::First, Side::Second] {
        for kind in [OpponentKind::Random, OpponentKind::Heuristic] {
            let c = cfg(side, kind, Rewards::Margin);
            for stream in 0..40 {
                let (_, reward, outcome, m) = episode(&c, stream);
                let payoff = m.game.payoff(side).unwrap();
                assert_eq!(reward, payoff as f64 / 2.0);
                assert_eq!(reward, chip_margin(&m.game, side));
                assert_eq!(outcome, Some(if payoff > 0 { LearnerOutcome::Win } else { LearnerOutcome::Loss }));
                seen.insert(payoff);
            }
        }
    }
    assert_eq!(seen.into_iter().collect::<Vec<_>>(), [-2, -1, 1, 2]);
    // Only an out-of-range action is refused while the hand goes on.
    let c = cfg(Side::First, OpponentKind::Random, Rewards::Margin);
    let mut slot = EnvSlot::new(1);
    slot.reset(&c.setup).unwrap();
    assert!(matches!(slot.step(&c, 2), Err(Error::ActionOutOfRange { .. })));
    // The table reward counts a won ante and a won call alike.
    let (_, reward, outcome, _) = episode(&cfg(Side::Second, OpponentKind::Heuristic, Rewards::default()), 5);
    assert_eq!(reward, if outcome == Some(LearnerOutcome::Win) { 1.0 } else { -1.0 });
}

#[test]
fn kuhn_a1_random_and_heuristic_only_and_the_others_are_refused_naming_them() {
    for (id, ok) in [("random", true), ("heuristic", true), ("search", false), ("network", false), ("network_search", false)] {
        let kind = OpponentKind::parse(id, false).unwrap();
        match KuhnPoker::bundled_opponent(kind, 1, 0) {
            Ok(_) => assert!(ok, "{id}"),
            Err(e) => {
                assert!(!ok, "{id}");
                let m = e.to_string();
                assert!(m.contains(id) && m.contains("'random' and 'heuristic'"), "{m}");
            }
        }
    }
    assert!(KuhnAgent::by_id("bogus", 0, 1).unwrap_err().to_string().contains("'random' and 'heuristic'"));
    let setup = Setup { opponent: Opponent::bundled(OpponentKind::Search, 1), ..Setup::default() };
    assert!(Kuhn::check_setup(&setup).is_err(), "an env with a search opponent is refused up front");
    // Nor does it play weight files: a game without networks refuses `network@FILE`.
    let e = Opponent::parse::<KuhnPoker>("network@some.safetensors", 1, false).unwrap_err().to_string();
    assert!(e.contains("no network levels"), "{e}");
}

/// The heuristic's frequency of `bet` at each information set, from its observations alone.
#[test]
fn kuhn_a1_the_heuristic_bets_with_the_equilibriums_probabilities() {
    use maquis::kuhn::infoset::{of_state, INFOSET_NAMES};
    use maquis::kuhn::solve::equilibrium;
    let eq = equilibrium(1.0 / 3.0).unwrap();
    let mut agent = KuhnAgent::by_id("heuristic", 3, 1).unwrap();
    let n = 6_000;
    for cards in DEALS {
        for s in states(cards).into_iter().filter(|s| !s.is_over()) {
            let side = s.to_move().unwrap();
            let obs = observation(&s, side);
            let bets = (0..n).filter(|_| agent.act(&obs, &legal_mask(&s)) == 1).count();
            let p = eq.0[of_state(&s).unwrap()];
            // σ of a frequency over 6000 draws is at most 0.0065.
            let f = bets as f64 / n as f64;
            assert!((f - p).abs() < 0.03, "{}: {f} vs {p}", INFOSET_NAMES[of_state(&s).unwrap()]);
        }
    }
}

#[test]
fn kuhn_n1_the_same_stream_plays_the_same_hand_and_the_deal_does_not_depend_on_the_opponent() {
    let c = cfg(Side::Second, OpponentKind::Heuristic, Rewards::Margin);
    assert_eq!(episode(&c, 11), episode(&c, 11));
    for g in 0..20 {
        let a = Match::new(&cfg(Side::Second, OpponentKind::Random, Rewards::Margin).setup, g).unwrap();
        let b = Match::new(&c.setup, g).unwrap();
        assert_eq!(a.game.cards, b.game.cards);
        assert_eq!(a.game.cards, maquis::kuhn::deal(g));
    }
}

#[test]
fn the_learner_always_decides_for_both_sides_and_the_heuristic_holds_its_value() {
    // The heuristic against itself over many hands: first's mean payoff is −1/18 (V1); σ of a
    // hand is below 1.6, so 200 000 hands put the mean within 0.011 at 3σ.
    let mut slot_total = 0.0;
    let hands = 200_000u64;
    let c = cfg(Side::First, OpponentKind::Heuristic, Rewards::Margin);
    let mut slot = EnvSlot::new(5);
    let mut me = KuhnAgent::by_id("heuristic", 9, 1).unwrap();
    let mut obs = [0.0f32; OBSERVATION_SIZE];
    for _ in 0..hands {
        slot.reset(&c.setup).unwrap();
        let mut r = 0.0;
        while !slot.done() {
            slot.write_observation(&mut obs);
            let a = me.act(&obs, &Kuhn::legal_mask(slot.state()));
            r = slot.step(&c, a as i64).unwrap().reward;
        }
        slot_total += 2.0 * r;
    }
    let mean = slot_total / hands as f64;
    assert!((mean + 1.0 / 18.0).abs() < 0.011, "{mean}");
}

#[test]
fn match_saves_round_trip_with_the_opponent_stream_and_an_external_opponent_plays_from_outside() {
    let c = cfg(Side::Second, OpponentKind::Heuristic, Rewards::Margin);
    let mut slot = EnvSlot::new(9);
    slot.reset(&c.setup).unwrap();
    let text = Kuhn::save(slot.state());
    assert!(text.contains("maquis.kuhn.match"), "{text}");
    assert_eq!(&load_match::<KuhnPoker>(&text).unwrap(), slot.state());
    assert!(load_match::<KuhnPoker>("{}").is_err());
    assert!(load_match::<KuhnPoker>(&text.replace("\"version\":1", "\"version\":2")).is_err());
    // An external opponent: the learner (second) waits for first's move, applied from outside.
    let setup = Setup { side: Side::Second, opponent: Opponent::bundled(OpponentKind::External, 1), ..Setup::default() };
    let setup = setup.with_options(&json!({"cards": ["J", "K"]}), true).unwrap();
    let mut m = Match::new(&setup, 0).unwrap();
    assert_eq!(m.to_move(), Some(Side::First));
    m.apply_opponent(1).unwrap();
    assert!(m.apply_opponent(1).is_err(), "the learner decides now");
    let _ = save_match(&m);
}

#[test]
fn reset_options_take_cards_side_and_opponent_and_refuse_the_rest() {
    let base = Setup::default();
    assert_eq!((base.side, base.opponent.kind), (Side::First, OpponentKind::Heuristic));
    let s = base.with_options(&json!({"side": "second", "opponent": "random", "cards": ["Q", "J"]}), true).unwrap();
    assert_eq!((s.side, s.opponent.kind, s.scenario.cards), (Side::Second, OpponentKind::Random, Some([Card::Queen, Card::Jack])));
    assert!(base.with_options(&json!({"side": "dealer"}), true).unwrap_err().to_string().contains("'first' or 'second'"));
    assert!(base.with_options(&json!({"side": "second"}), false).is_err());
    assert!(base.with_options(&json!({"cards": ["Q", "Q"]}), true).is_err());
    assert!(base.with_options(&json!({"bogus": 1}), true).is_err());
}

/// The batch engine over `Kuhn`: the same trajectories for any number of threads, and env `i`
/// the same as a lone slot with env `i`'s stream seed (the shared conformance check).
#[test]
fn vector_engine_same_for_any_thread_count_and_as_single_slots() {
    for rewards in [Rewards::Margin, Rewards::default()] {
        let c = cfg(Side::Second, OpponentKind::Heuristic, rewards);
        maquis::vector::conformance::same_for_any_thread_count_and_as_single_slots(&c, 6, 200).unwrap();
    }
}
