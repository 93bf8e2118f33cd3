//! RULES.md C1, C5–C14 and K8: the charge procedure, engagement, combat scores and results, fall
//! backs, and the cards' effects.

mod maurice_common;
use maurice_common::*;
use maquis::maurice::cards::Card::{self, *};
use maquis::maurice::scenario::UnitSpec;
use maquis::maurice::state::State;
use maquis::maurice::terrain::Terrain;
use maquis::maurice::{ChanceEvent, Facing, Formation, Phase, Setup, Side, TerrainType, UnitType};

/// Plays to the `charge` phase: blue names `force` in order and pays with orders_16 (keeping
/// orders_12, so that the round stays open at the CinC move); red, if
/// holding cards, declines its interrupt.
fn charging_on(t: Terrain, blue: &[UnitSpec], red: &[UnitSpec], force: &[u8], hands: [&[Card]; 2], dice: &[u8]) -> State {
    let mut hand = vec![Orders16, Orders12];
    hand.extend(hands[0]);
    let setup = Setup {
        dice: dice.to_vec(),
        ..position_on(t, blue, red, [c(22, 0), c(22, 29)], deal_to_deck(&hand, hands[1], &[], &[]))
    };
    let mut s = start(&setup);
    play(&mut s, &["no_volley", "charge"]);
    let mut named = 0;
    for _ in 0..20 {
        match s.phase {
            Phase::Force if named < force.len() && legal(&s, &format!("unit:{}", force[named])) => {
                play(&mut s, &[&format!("unit:{}", force[named])]);
                named += 1;
            }
            Phase::Force => play(&mut s, &["confirm_force"]),
            Phase::Span => play(&mut s, &["card:orders_16"]),
            Phase::ActivationInterrupt => play(&mut s, &["decline"]),
            _ => break,
        }
    }
    s
}

fn charging(blue: &[UnitSpec], red: &[UnitSpec], force: &[u8], hands: [&[Card]; 2], dice: &[u8]) -> State {
    charging_on(Terrain::open(), blue, red, force, hands, dice)
}

/// C5: charges unit `id` straight, then declines the card windows.
fn charge(s: &mut State, id: u8) {
    charge_only(s, id);
    decline_windows(s);
}

/// C5: charges unit `id` straight (naming it when more than one action is offered).
fn charge_only(s: &mut State, id: u8) {
    if s.phase == Phase::Charge {
        play(s, &[&format!("unit:{id}")]);
    }
    if s.phase == Phase::ChargeLead {
        assert_eq!(s.round.charging, Some(id));
        play(s, &["charge:straight"]);
    }
}

fn combat_dice(s: &State) -> Vec<u8> {
    s.dice.log.iter().filter(|r| r.event == ChanceEvent::Combat).flat_map(|r| r.dice.clone()).collect()
}

/// Declines every card window until the phase is not one.
fn decline_windows(s: &mut State) {
    while s.phase == Phase::ActionModifier {
        play(s, &["decline"]);
    }
}

#[test]
fn maurice_c1_charging_force_keeps_its_formation() {
    let blue = [inf(0, 10, 5, Facing::N), inf(1, 16, 5, Facing::N)];
    let mut s = charging(&blue, &[inf(0, 13, 8, Facing::S)], &[0, 1], [&[], &[]], &[3, 3]);
    charge(&mut s, 0);
    // Half the force has charged and unit 1 cannot: end_charges was the only action.
    assert_eq!((s.phase, legal_names(&s)), (Phase::Move, vec!["end_moves", "unit:1"]));
    play(&mut s, &["unit:1"]);
    // The supporting unit: no formation change, no about-face, no retrograde.
    assert!(legal(&s, "move:forward"));
    assert!(!legal(&s, "form:column_left") && !legal(&s, "move:back") && !legal(&s, "move:about_face"));
}

#[test]
fn maurice_c5_charges_come_first_then_the_window_then_combat() {
    let mut s = charging(&[inf(0, 10, 5, Facing::N)], &[inf(0, 13, 8, Facing::S)], &[0], [&[Charge4], &[]], &[3, 3]);
    // unit:0 was the only action (end_charges waits for half the force): named at once.
    assert_eq!((s.phase, legal_names(&s)), (Phase::ChargeLead, vec!["charge:straight", "charge:oblique_left", "charge:oblique_right"]));
    play(&mut s, &["charge:straight"]);
    assert_eq!(s.unit(Side::Blue, 0).at, c(10, 7));
    assert_eq!(s.round.charged, 1);
    // No more units: the charge window (blue holds charge_4), then combat.
    assert_eq!((s.phase, s.to_move), (Phase::ActionModifier, Some(Side::Blue)));
    assert!(combat_dice(&s).is_empty(), "no combat die before the window");
    play(&mut s, &["decline"]);
    assert_eq!(combat_dice(&s), [3, 3]);
    // Charging through difficult terrain costs 1 DISR at once.
    let mut t = Terrain::open();
    t.set_kind(c(11, 6), TerrainType::Rough);
    let mut s = charging_on(t, &[inf(0, 10, 5, Facing::N)], &[inf(0, 13, 8, Facing::S)], &[0], [&[], &[]], &[3, 3]);
    charge(&mut s, 0);
    assert!(s.unit(Side::Blue, 0).disr >= 1);
}

#[test]
fn maurice_c6_supporting_moves_stay_out_of_contact() {
    let blue = [inf(0, 10, 5, Facing::N), inf(1, 14, 5, Facing::N)];
    let red = [inf(0, 14, 8, Facing::S)];
    let mut s = charging(&blue, &red, &[0, 1], [&[], &[]], &[3, 3, 3]);
    charge(&mut s, 0);
    assert!(legal(&s, "end_charges") && legal(&s, "unit:1"));
    play(&mut s, &["end_charges", "unit:1", "move:forward"]);
    assert!(!legal(&s, "move:forward"), "row 7 would touch red's line at row 8");
}

#[test]
fn maurice_c7_engagement_file_by_file() {
    // Attacker's front at row 7; red's line at row 8 files 10–13 is engaged at 1.
    let mut s = charging(&[inf(0, 10, 5, Facing::N)], &[inf(0, 13, 8, Facing::S), art(1, 9, 9, Facing::S)], &[0], [&[], &[]], &[3, 3, 3]);
    charge(&mut s, 0);
    assert_eq!(s.round.engaged[0][0], 0b01, "the gun at (9, 9) is in no file of the attacker");
    // A unit 2 cells ahead through an empty file is engaged too.
    let red = [art(0, 10, 8, Facing::S), inf(1, 14, 9, Facing::S)];
    let mut s = charging(&[inf(0, 10, 5, Facing::N)], &red, &[0], [&[], &[]], &[3, 3, 3]);
    charge(&mut s, 0);
    assert_eq!(s.round.engaged[0][0], 0b11);
    assert_eq!((s.round.engaged[1][0], s.round.engaged[1][1]), (1, 1));
}

#[test]
fn maurice_c8_flanked_defenders_are_vulnerable() {
    // Red's line faces east; blue charges into its flank.
    let red = [inf(0, 11, 11, Facing::E)];
    let mut s = charging(&[cav(0, 10, 5, Facing::N)], &red, &[0], [&[], &[]], &[6, 1]);
    charge(&mut s, 0);
    // Red: 6 − 6 (flanked) → 0 + 6 = 6; blue: 6 + 1 = 7 > 6, but not 12: 2 DISR.
    assert_eq!(s.round.scores[1][0], Some(6));
    assert_eq!(s.unit(Side::Red, 0).disr, 2);
    // A column is vulnerable even from the front.
    let red = [u(0, UnitType::Inf, Formation::Column, 11, 8, Facing::S)];
    let mut s = charging(&[inf(0, 10, 5, Facing::N)], &red, &[0], [&[], &[]], &[6, 1]);
    charge(&mut s, 0);
    assert_eq!(s.round.scores[1][0], Some(6));
}

#[test]
fn maurice_c9_cover_against_the_attacker() {
    let mut t = Terrain::open();
    for x in 10..=13 {
        t.set_kind(c(x, 8), TerrainType::Woods);
    }
    let mut s = charging_on(t, &[inf(0, 10, 5, Facing::N)], &[inf(0, 13, 8, Facing::S)], &[0], [&[], &[]], &[1, 1]);
    charge(&mut s, 0);
    // Red in woods: bad terrain −2 → 5; blue −2 for the cover → 5.
    assert_eq!((s.round.scores[1][0], s.round.scores[0][0]), (Some(5), Some(5)));
    let mut t = Terrain::open();
    t.wall_n[c(10, 7).index()] = true;
    let mut s = charging_on(t, &[inf(0, 10, 5, Facing::N)], &[inf(0, 13, 8, Facing::S)], &[0], [&[], &[]], &[1, 1]);
    charge(&mut s, 0);
    assert_eq!(s.round.scores[0][0], Some(7), "one wall file is not every file: no cover");
}

#[test]
fn maurice_c10_outnumbered() {
    // Two blue lines charge one red line: red is outnumbered by 2, each engaging only it.
    let blue = [inf(0, 10, 5, Facing::N), inf(1, 14, 5, Facing::N)];
    let red = [inf(0, 16, 8, Facing::S)];
    let mut s = charging(&blue, &red, &[0, 1], [&[], &[]], &[1, 1, 1]);
    charge(&mut s, 0);
    play(&mut s, &["unit:1", "charge:straight"]);
    decline_windows(&mut s);
    assert_eq!(s.round.scores[1][0], Some(6 - 2 + 1));
}

#[test]
fn maurice_c11_scores_and_dice_order() {
    let mut blue = [inf(0, 10, 5, Facing::N)];
    blue[0].disr = 1;
    let mut red = [inf(0, 13, 8, Facing::S)];
    red[0].disr = 2;
    let mut s = charging(&blue, &red, &[0], [&[], &[]], &[2, 5]);
    charge(&mut s, 0);
    // Defender first: 6 − 2 + 2 = 6; attacker 6 − 1 + 5 = 10.
    assert_eq!(combat_dice(&s), [2, 5]);
    assert_eq!((s.round.scores[1][0], s.round.scores[0][0]), (Some(6), Some(10)));
    // Infantry on a hill over enemies below: +1.
    let mut t = Terrain::open();
    for x in 10..=13 {
        t.hill[c(x, 8).index()] = true;
    }
    let mut s = charging_on(t, &[cav(0, 10, 6, Facing::N)], &[inf(0, 13, 8, Facing::S)], &[0], [&[], &[]], &[1, 1]);
    charge(&mut s, 0);
    assert_eq!(s.round.scores[1][0], Some(8));
}

#[test]
fn maurice_c12_defender_results() {
    let red = [inf(0, 13, 8, Facing::S), inf(1, 30, 20, Facing::S)];
    // Red 6 + d0 against blue 6 + d1: more than red's → 2 DISR; not more → 1 DISR.
    for (dice, want) in [([1, 6], 2), ([4, 6], 2), ([6, 1], 1), ([3, 3], 1)] {
        let mut s = charging(&[inf(0, 10, 5, Facing::N)], &red, &[0], [&[], &[]], &dice);
        charge(&mut s, 0);
        assert_eq!(s.unit(Side::Red, 0).disr, want, "dice {dice:?}");
    }
    // Twice red's score breaks it: red with 3 DISR scores 3 + 1 = 4, blue 6 + 2 = 8.
    let mut red = red;
    red[0].disr = 3;
    let mut s = charging(&[inf(0, 10, 5, Facing::N)], &red, &[0], [&[], &[]], &[1, 2]);
    charge(&mut s, 0);
    assert!(!s.unit(Side::Red, 0).on_table);
    assert_eq!(s.army(Side::Red).morale, 0);
    assert_eq!(s.outcome, Some(maquis::maurice::Outcome::Blue));
}

#[test]
fn maurice_c13_attacker_results() {
    // Defender scores 12 ≥ attacker 7: 2 DISR; defender lower: 1 DISR.
    let red = [inf(0, 13, 8, Facing::S), inf(1, 30, 20, Facing::S)];
    let mut s = charging(&[inf(0, 10, 5, Facing::N)], &red, &[0], [&[], &[]], &[6, 1]);
    charge(&mut s, 0);
    assert_eq!(s.unit(Side::Blue, 0).disr, 2);
    let mut s = charging(&[inf(0, 10, 5, Facing::N)], &red, &[0], [&[], &[]], &[1, 2]);
    charge(&mut s, 0);
    assert_eq!(s.unit(Side::Blue, 0).disr, 1);
}

#[test]
fn maurice_c14_fall_back() {
    let red = [inf(0, 13, 8, Facing::S), inf(1, 30, 20, Facing::S)];
    let mut s = charging(&[inf(0, 10, 5, Facing::N)], &red, &[0], [&[], &[]], &[3, 3]);
    charge(&mut s, 0);
    assert_eq!((s.unit(Side::Blue, 0).at, s.unit(Side::Blue, 0).facing), (c(10, 6), Facing::N), "inf: 1 BW back");
    // Cavalry 2 BW, then on past the friend it would stop on: both gain 1 DISR.
    let blue = [cav(0, 10, 6, Facing::N), art(1, 11, 4, Facing::N)];
    let mut s = charging(&blue, &red, &[0], [&[], &[]], &[3, 3]);
    charge(&mut s, 0);
    let u = s.unit(Side::Blue, 0);
    assert_eq!(u.at, c(10, 3), "rows 6–7 → 4–5 (on the gun) → 3–4 (still) → 2–3");
    assert_eq!(s.unit(Side::Blue, 1).disr, 1, "the gun passed through");
    assert_eq!(u.disr, 2 + 1, "2 from combat (9 against 9), 1 for the friend passed");
    // Falling back off the table breaks the unit (the CinC stands next to it, at distance 0).
    let blue = [inf(0, 10, 0, Facing::N)];
    let red = [inf(0, 13, 1, Facing::S), inf(1, 30, 20, Facing::S)];
    let setup = Setup { dice: vec![3, 3], ..position(&blue, &red, [c(14, 0), c(22, 29)], deal_to_deck(&[Orders16, Orders12], &[], &[], &[])) };
    let mut s = start(&setup);
    play(&mut s, &["no_volley", "charge", "card:orders_16"]);
    charge(&mut s, 0);
    assert!(!s.unit(Side::Blue, 0).on_table);
}

#[test]
fn maurice_k8_charge_cards() {
    let red = [inf(0, 13, 8, Facing::S), inf(1, 30, 20, Facing::S)];
    // charge_4: +1 to each own engaged unit.
    let mut s = charging(&[inf(0, 10, 5, Facing::N)], &red, &[0], [&[Charge4], &[]], &[1, 1]);
    charge_only(&mut s, 0);
    play(&mut s, &["card:charge_4"]);
    assert_eq!(s.round.scores[0][0], Some(8));
    // thunderous: +2 for cavalry only.
    let mut s = charging(&[cav(0, 10, 6, Facing::N)], &red, &[0], [&[Thunderous], &[]], &[1, 1]);
    charge_only(&mut s, 0);
    play(&mut s, &["card:thunderous"]);
    assert_eq!(s.round.scores[0][0], Some(9));
    // for_the_king: red picks its engaged infantry unit, +2.
    let mut s = charging(&[inf(0, 10, 5, Facing::N)], &red, &[0], [&[], &[ForTheKing]], &[1, 1]);
    charge_only(&mut s, 0);
    play(&mut s, &["decline"]);
    assert_eq!((s.phase, s.to_move), (Phase::ActionModifier, Some(Side::Red)));
    play(&mut s, &["card:for_the_king"]);
    // One engaged infantry unit: the king's target is chosen without asking (Q0).
    assert_eq!(s.round.king[1], Some(0));
    assert_eq!(s.round.scores[1][0], Some(9));
}
