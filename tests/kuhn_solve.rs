//! The exact analysis of Kuhn poker (`kuhn::solve`) against the values known by hand: the
//! information sets (I1), the equilibrium's value −1/18 and exploitability 0 (V1), the best
//! response to `random`, and the best response against a brute force over every pure strategy.

use maquis::kuhn::infoset::{from_name, of_state, INFOSET_NAMES, NUM_INFOSETS};
use maquis::kuhn::solve::{best_response, equilibrium, expected_payoff, exploitability, seat_payoff, Strategy};
use maquis::kuhn::{apply, new_game, Scenario, Side, DEALS};

const EPS: f64 = 1e-12;

#[test]
fn kuhn_i1_twelve_information_sets_named_by_card_and_moves() {
    assert_eq!(NUM_INFOSETS, 12);
    assert_eq!(from_name("Qpb"), Some(7));
    let mut seen = [false; NUM_INFOSETS];
    for cards in DEALS {
        for line in [&[][..], &[0], &[1], &[0, 1]] {
            let mut s = new_game(0, &Scenario { cards: Some(cards) }).unwrap();
            for &a in line {
                apply(&mut s, a).unwrap();
            }
            let i = of_state(&s).unwrap();
            let side = s.to_move().unwrap();
            let moves: String = line.iter().map(|&a| if a == 0 { 'p' } else { 'b' }).collect();
            assert_eq!(INFOSET_NAMES[i], format!("{}{moves}", s.card(side).as_str()));
            seen[i] = true;
        }
    }
    assert_eq!(seen, [true; NUM_INFOSETS], "every information set is reached");
}

#[test]
fn kuhn_v1_the_equilibrium_is_worth_minus_one_eighteenth_to_first_and_cannot_be_exploited() {
    for alpha in [0.0, 0.1, 0.25, 1.0 / 3.0] {
        let eq = equilibrium(alpha).unwrap();
        assert!((expected_payoff(&eq, &eq) + 1.0 / 18.0).abs() < EPS, "alpha {alpha}");
        let br = best_response(&eq);
        // First's equilibrium against second's best response, and the other way round.
        assert!((expected_payoff(&eq, &br.strategy) + 1.0 / 18.0).abs() < EPS, "alpha {alpha}");
        assert!((br.value[0] + 1.0 / 18.0).abs() < EPS && (br.value[1] - 1.0 / 18.0).abs() < EPS, "{:?}", br.value);
        assert!(exploitability(&eq).abs() < EPS, "alpha {alpha}: {}", exploitability(&eq));
    }
    assert!(equilibrium(0.5).is_err() && equilibrium(-0.1).is_err());
}

/// Against `random` (bet 1/2 everywhere), by hand:
/// - as `first`: K passes (1/2·1 + 1/2·2 = 1.5, betting ties at 1/2·2 + 1/2·1; ties go to pass);
///   Q bets (vs J 1.5, vs K −0.5: 0.5, where passing and calling a bet gives 0); J bets
///   (1/2·(−2) + 1/2·1 = −0.5, where passing and folding gives −1): (1.5 + 0.5 − 0.5) / 3 = 1/2.
/// - as `second`: K calls a bet (+2) and bets after a pass (1/2·2 + 1/2·1 = 1.5): 1.75; Q calls a
///   bet (vs J +2, vs K −2: 0, folding −1) and bets after a pass (vs J 1.5, vs K −0.5: 0.5):
///   0.25; J folds to a bet (−1) and bets after a pass (−0.5): −0.75. (1.75 + 0.25 − 0.75) / 3
///   = 5/12.
/// - the mean, `random`'s exploitability: (1/2 + 5/12) / 2 = 11/24 (OpenSpiel's 0.458333).
#[test]
fn kuhn_v1_the_best_response_to_random_earns_one_half_and_five_twelfths() {
    let br = best_response(&Strategy::uniform());
    assert!((br.value[0] - 0.5).abs() < EPS, "{:?}", br.value);
    assert!((br.value[1] - 5.0 / 12.0).abs() < EPS, "{:?}", br.value);
    assert!((exploitability(&Strategy::uniform()) - 11.0 / 24.0).abs() < EPS);
    let bet = |name: &str| br.strategy.0[from_name(name).unwrap()];
    let expected = [("K", 0.0), ("Q", 1.0), ("J", 1.0), ("Qpb", 1.0), ("Jpb", 0.0), ("Kb", 1.0), ("Kp", 1.0),
        ("Qb", 1.0), ("Qp", 1.0), ("Jb", 0.0), ("Jp", 1.0)];
    for (name, p) in expected {
        assert_eq!(bet(name), p, "{name}");
    }
}

/// Every pure strategy of one seat: bit k of `bits` is the move at that seat's k-th information
/// set.
fn pure(side: Side, bits: u32) -> Strategy {
    let mine: Vec<usize> = (0..NUM_INFOSETS)
        .filter(|&i| (i % 4 == 0 || i % 4 == 3) == (side == Side::First))
        .collect();
    let mut s = [0.0; NUM_INFOSETS];
    for (k, &i) in mine.iter().enumerate() {
        s[i] = (bits >> k & 1) as f64;
    }
    Strategy(s)
}

#[test]
fn the_best_response_is_the_best_of_all_64_pure_strategies_in_each_seat() {
    let sigmas = [
        Strategy::uniform(),
        equilibrium(0.2).unwrap(),
        Strategy([0.9, 0.1, 0.3, 0.7, 0.2, 0.8, 0.5, 0.05, 1.0, 0.0, 0.6, 0.4]),
        Strategy([0.0; 12]),
        Strategy([1.0; 12]),
    ];
    for sigma in sigmas {
        let br = best_response(&sigma);
        for (k, side) in [Side::First, Side::Second].into_iter().enumerate() {
            let best = (0..64).map(|b| seat_payoff(side, &pure(side, b), &sigma)).fold(f64::MIN, f64::max);
            assert!((br.value[k] - best).abs() < EPS, "{side}: {} vs {best}", br.value[k]);
        }
        assert!(br.strategy.0.iter().all(|&p| p == 0.0 || p == 1.0), "pure");
    }
}

#[test]
fn expected_payoff_is_the_mean_over_the_deals_and_strategies_are_checked() {
    // Both always bet and call: a showdown for 2 on every deal, won by the higher card: 0.
    let always = Strategy([1.0; 12]);
    assert!(expected_payoff(&always, &always).abs() < EPS);
    // First always bets, second always folds: +1 on every deal.
    let fold = Strategy([0.0; 12]);
    assert!((expected_payoff(&always, &fold) - 1.0).abs() < EPS);
    assert!(Strategy::new([0.5; 12]).is_ok());
    let mut bad = [0.5; 12];
    bad[7] = 1.5;
    let e = Strategy::new(bad).unwrap_err().to_string();
    assert!(e.contains("Qpb") && e.contains("1.5"), "{e}");
    bad[7] = f64::NAN;
    assert!(Strategy::new(bad).is_err());
}
