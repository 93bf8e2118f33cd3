//! The rules of docs/rules/kuhn.md on the engine: the deal and the ante (K), the betting (B), the
//! showdown and the payoffs (S, P), seeding and reset options (N), saves.

use maquis::error::Error;
use maquis::kuhn::{
    apply, deal, legal_mask, load_state, new_game, save_state, Card, End, Move, Scenario, Side, State, DEALS,
};
use serde_json::json;

fn hand(cards: [Card; 2], moves: &[Move]) -> State {
    let mut s = new_game(0, &Scenario { cards: Some(cards) }).unwrap();
    for &m in moves {
        apply(&mut s, m.idx() as i64).unwrap();
    }
    s
}

use Card::{Jack as J, King as K, Queen as Q};
use Move::{Bet, Pass};

#[test]
fn kuhn_k1_three_cards_ordered_and_six_equally_likely_deals_of_two_different_cards() {
    assert!(J < Q && Q < K);
    assert_eq!(Card::ALL.iter().map(|c| c.as_str()).collect::<Vec<_>>(), ["J", "Q", "K"]);
    let mut counts = [0u32; 6];
    for seed in 0..60_000u64 {
        let d = deal(seed);
        assert_ne!(d[0], d[1]);
        counts[DEALS.iter().position(|&x| x == d).unwrap()] += 1;
    }
    // 10 000 expected each, σ ≈ 91.
    assert!(counts.iter().all(|c| (9_500..=10_500).contains(c)), "{counts:?}");
}

#[test]
fn kuhn_k2_each_side_antes_one_so_the_pot_starts_at_two() {
    let s = hand([J, Q], &[]);
    assert_eq!(s.pot(), 2);
    assert_eq!(hand([J, Q], &[Bet]).pot(), 3);
    assert_eq!(hand([J, Q], &[Pass, Bet, Bet]).pot(), 4);
}

#[test]
fn kuhn_k3_first_acts_first_and_the_sides_alternate() {
    assert_eq!(hand([K, Q], &[]).to_move(), Some(Side::First));
    assert_eq!(hand([K, Q], &[Pass]).to_move(), Some(Side::Second));
    assert_eq!(hand([K, Q], &[Bet]).to_move(), Some(Side::Second));
    assert_eq!(hand([K, Q], &[Pass, Bet]).to_move(), Some(Side::First));
}

#[test]
fn kuhn_b1_pass_is_0_and_bet_is_1_both_legal_until_the_end_then_none() {
    assert_eq!(maquis::kuhn::ACTION_NAMES, ["pass", "bet"]);
    assert_eq!((Pass.idx(), Bet.idx()), (0, 1));
    for moves in [&[][..], &[Pass], &[Bet], &[Pass, Bet]] {
        let m = legal_mask(&hand([Q, J], moves));
        assert_eq!(m.iter().collect::<Vec<_>>(), vec![0, 1], "{moves:?}");
    }
    let mut over = hand([Q, J], &[Pass, Pass]);
    assert!(legal_mask(&over).is_empty());
    assert_eq!(apply(&mut over, 0), Err(Error::GameOver));
    assert_eq!(over, hand([Q, J], &[Pass, Pass]), "nothing changes");
    let mut s = hand([Q, J], &[]);
    assert!(matches!(apply(&mut s, 2), Err(Error::ActionOutOfRange { action: 2, num_actions: 2 })));
    assert!(matches!(apply(&mut s, -1), Err(Error::ActionOutOfRange { .. })));
    assert_eq!(s, hand([Q, J], &[]));
}

#[test]
fn kuhn_b2_first_opens_with_a_pass_or_a_bet_and_the_hand_goes_on() {
    for m in [Pass, Bet] {
        let s = hand([J, K], &[m]);
        assert!(!s.is_over());
        assert_eq!(s.to_move(), Some(Side::Second));
    }
}

#[test]
fn kuhn_b3_after_a_pass_second_checks_to_a_showdown_or_bets_and_first_calls_or_folds() {
    assert_eq!(hand([J, K], &[Pass, Pass]).end(), Some(End::Showdown { stake: 1 }));
    assert_eq!(hand([J, K], &[Pass, Bet, Bet]).end(), Some(End::Showdown { stake: 2 }));
    let fold = hand([K, J], &[Pass, Bet, Pass]);
    assert_eq!(fold.end(), Some(End::Fold { folder: Side::First }));
    assert_eq!(fold.winner(), Some(Side::Second), "the bettor takes the pot whatever the cards");
    assert_eq!(fold.payoff(Side::First), Some(-1), "first loses its ante");
}

#[test]
fn kuhn_b4_after_a_bet_second_calls_or_folds_and_no_hand_has_a_fourth_move() {
    assert_eq!(hand([J, Q], &[Bet, Bet]).end(), Some(End::Showdown { stake: 2 }));
    let fold = hand([J, K], &[Bet, Pass]);
    assert_eq!(fold.end(), Some(End::Fold { folder: Side::Second }));
    assert_eq!((fold.winner(), fold.payoff(Side::Second)), (Some(Side::First), Some(-1)));
    let lines: [&[Move]; 5] = [&[Pass, Pass], &[Bet, Pass], &[Bet, Bet], &[Pass, Bet, Pass], &[Pass, Bet, Bet]];
    for line in lines {
        assert!(hand([Q, K], line).is_over(), "{line:?} ends the hand");
        assert!(!hand([Q, K], &line[..line.len() - 1]).is_over(), "{line:?} goes on before its last move");
    }
}

#[test]
fn kuhn_s1_the_higher_card_takes_the_pot_at_a_showdown() {
    for cards in DEALS {
        let winner = if cards[0] > cards[1] { Side::First } else { Side::Second };
        for line in [&[Pass, Pass][..], &[Bet, Bet], &[Pass, Bet, Bet]] {
            assert_eq!(hand(cards, line).winner(), Some(winner), "{cards:?} {line:?}");
        }
    }
}

#[test]
fn kuhn_p1_the_winner_gains_what_the_loser_put_in_one_or_two_and_the_sum_is_zero() {
    let cases: [(&[Move], i8); 5] = [(&[Pass, Pass], 1), (&[Bet, Pass], 1), (&[Bet, Bet], 2), (&[Pass, Bet, Pass], -1), (&[Pass, Bet, Bet], 2)];
    for (line, first) in cases {
        let s = hand([K, Q], line);
        assert_eq!(s.payoff(Side::First), Some(first), "{line:?}");
        assert_eq!(s.payoff(Side::First).unwrap() + s.payoff(Side::Second).unwrap(), 0);
    }
    assert_eq!(hand([J, Q], &[Bet, Bet]).payoff(Side::First), Some(-2));
    assert_eq!(hand([J, Q], &[Bet]).payoff(Side::First), None, "no payoff before the end");
}

#[test]
fn kuhn_n1_the_deal_is_the_seeds_draw_below_six_and_the_same_seed_deals_the_same() {
    use rand::SeedableRng;
    for seed in [0u64, 1, 7, 1 << 40, u64::MAX] {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let expected = DEALS[maquis::draw::below(&mut rng, 6) as usize];
        assert_eq!(deal(seed), expected);
        assert_eq!(new_game(seed, &Scenario::default()).unwrap().cards, expected);
    }
}

#[test]
fn kuhn_n2_the_cards_option_deals_them_and_bad_options_are_named() {
    let sc = Scenario::from_json(&json!({"cards": ["K", "J"]})).unwrap();
    assert_eq!(new_game(3, &sc).unwrap().cards, [K, J]);
    assert_eq!(Scenario::from_json(&serde_json::Value::Null).unwrap(), Scenario::default());
    for (bad, says) in [
        (json!({"cards": ["K", "K"]}), "both sides hold 'K'"),
        (json!({"cards": ["K"]}), "length 1"),
        (json!({"cards": ["K", "A"]}), "unknown card id 'A'"),
        (json!({"cards": "KJ"}), "cards"),
        (json!({"deck": []}), "unknown field `deck`"),
        (json!([1]), "options"),
    ] {
        match Scenario::from_json(&bad) {
            Err(Error::BadOption(m)) => assert!(m.contains(says), "{bad}: {m}"),
            other => panic!("{bad} accepted: {other:?}"),
        }
    }
    assert!(new_game(0, &Scenario { cards: Some([Q, Q]) }).is_err());
}

#[test]
fn saves_round_trip_and_malformed_ones_are_named() {
    for cards in DEALS {
        for line in [&[][..], &[Pass], &[Pass, Bet], &[Pass, Bet, Bet]] {
            let s = hand(cards, line);
            assert_eq!(load_state(&save_state(&s)).unwrap(), s);
        }
    }
    let good = save_state(&hand([K, J], &[Pass, Bet]));
    assert!(good.contains("\"format\":\"maquis.kuhn\"") && good.contains("[\"pass\",\"bet\"]"), "{good}");
    let state = |v: serde_json::Value| json!({"format": "maquis.kuhn", "version": 1, "state": v}).to_string();
    for (text, says) in [
        (state(json!({"cards": ["K", "K"], "history": []})), "state.cards"),
        (state(json!({"cards": ["K", "J"], "history": ["pass", "pass", "bet"]})), "state.history"),
        (state(json!({"cards": ["K", "J"], "history": ["bet", "bet", "bet", "bet"]})), "at most 3"),
        (state(json!({"cards": ["K", "J"], "history": ["raise"]})), "raise"),
        (state(json!({"cards": ["K", "J", "Q"], "history": []})), "state"),
        (state(json!({"cards": ["K", "J"], "history": [], "pot": 2})), "pot"),
        (state(json!({"cards": ["K", "J"]})), "history"),
        (good.replace("maquis.kuhn", "maquis.dday1944"), "format"),
        (good.replace("\"version\":1", "\"version\":2"), "version"),
        ("[".to_string(), "not a Kuhn poker save"),
    ] {
        match load_state(&text) {
            Err(Error::BadSave(m)) => assert!(m.contains(says), "{text}: {m}"),
            other => panic!("{text} accepted: {other:?}"),
        }
    }
}
