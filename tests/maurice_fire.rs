//! RULES.md F1, F5–F9: the volley phase, aiming, the dice to hit and to disrupt, smoke, and the
//! bombard.

mod maurice_common;
use maurice_common::*;
use maquis::maurice::cards::Card::{self, *};
use maquis::maurice::observation::ObservationKind;
use maquis::maurice::scenario::UnitSpec;
use maquis::maurice::state::State;
use maquis::maurice::terrain::Terrain;
use maquis::maurice::{self, ChanceEvent, Facing, Formation, Phase, Setup, Side, TerrainType, UnitType};

fn game(t: Terrain, blue: &[UnitSpec], red: &[UnitSpec], hands: [&[Card]; 2], dice: &[u8]) -> State {
    let setup = Setup {
        dice: dice.to_vec(),
        ..position_on(t, blue, red, [c(22, 0), c(22, 29)], deal_to_deck(hands[0], hands[1], &[], &[]))
    };
    start(&setup)
}

/// The dice of the logged rolls of one event.
fn rolls(s: &State, event: ChanceEvent) -> Vec<Vec<u8>> {
    s.dice.log.iter().filter(|r| r.event == event).map(|r| r.dice.clone()).collect()
}

/// Blue's line at (10, 5) and red's at (13, 8) (cells 10–13), 2 BW apart.
fn facing_lines(hands: [&[Card]; 2], dice: &[u8]) -> State {
    game(Terrain::open(), &[inf(0, 10, 5, Facing::N)], &[inf(0, 13, 8, Facing::S)], hands, dice)
}

#[test]
fn maurice_f1_volley_phase_order_and_windows() {
    let mut s = facing_lines([&[Orders12, Volley4], &[FirstFire, ThickSmoke]], &[4, 3, 6, 1, 4, 2, 1, 1, 1, 1]);
    play(&mut s, &["volley"]);
    assert_eq!((s.phase, s.to_move), (Phase::VolleyInterrupt, Some(Side::Red)));
    assert_eq!(legal_names(&s), ["decline", "card:first_fire"]);
    play(&mut s, &["decline"]);
    assert_eq!((s.phase, s.to_move), (Phase::VolleyModifier, Some(Side::Blue)));
    assert_eq!(legal_names(&s), ["decline", "card:volley_4"]);
    play(&mut s, &["decline"]);
    assert_eq!((s.phase, s.to_move), (Phase::VolleyModifier, Some(Side::Red)));
    assert_eq!(legal_names(&s), ["decline", "card:thick_smoke"]);
    play(&mut s, &["decline"]);
    assert_eq!((s.phase, s.to_move), (Phase::Fire, Some(Side::Blue)));
    assert_eq!(legal_names(&s), ["end_fire", "unit:0"]);
    let o = maurice::observation(&s, Side::Blue, ObservationKind::Compact);
    assert_eq!(&o[252..255], &[1.0, 1.0, 0.0], "volley called, own side firing");
    play(&mut s, &["unit:0"]);
    // Blue's 4 dice (4, 3, 6, 1: two hits) and red's disruption (4, 2: one DISR); then red fires
    // (1, 1, 1, 1) and the command follows.
    assert_eq!((s.phase, s.to_move), (Phase::Fire, Some(Side::Red)));
    play(&mut s, &["unit:0"]);
    assert_eq!(rolls(&s, ChanceEvent::ToHit), [vec![4, 3, 6, 1], vec![1, 1, 1, 1]]);
    assert_eq!(rolls(&s, ChanceEvent::ToDisrupt), [vec![4, 2]]);
    assert_eq!(s.unit(Side::Red, 0).disr, 1);
    assert!(s.unit(Side::Blue, 0).fired && s.unit(Side::Red, 0).fired);
    assert_eq!((s.phase, s.to_move), (Phase::Command, Some(Side::Blue)));
    // First fire: red fires first and decides first.
    let mut s = facing_lines([&[Orders12, Volley4], &[FirstFire, ThickSmoke]], &[1, 1, 1, 1, 1, 1, 1, 1]);
    play(&mut s, &["volley", "card:first_fire"]);
    assert_eq!((s.phase, s.to_move), (Phase::VolleyModifier, Some(Side::Red)));
    play(&mut s, &["decline", "decline"]);
    assert_eq!((s.phase, s.to_move), (Phase::Fire, Some(Side::Red)));
    assert_eq!(s.round.interrupt, Some(FirstFire));
    // Without a volley call nobody fires.
    let mut s = facing_lines([&[Orders12], &[]], &[]);
    play(&mut s, &["no_volley"]);
    assert!(s.dice.log.is_empty() && s.phase == Phase::Command);
}

#[test]
fn maurice_f5_straight_first_else_the_side_lane_chosen() {
    let red = [art(0, 8, 7, Facing::S), art(1, 12, 7, Facing::S)];
    let mut s = game(Terrain::open(), &[art(0, 10, 5, Facing::N)], &red, [&[], &[]], &[6, 6, 4, 1]);
    play(&mut s, &["volley"]);
    play(&mut s, &["unit:0"]);
    assert_eq!((s.phase, s.to_move), (Phase::Aim, Some(Side::Blue)));
    assert_eq!(legal_names(&s), ["aim:left", "aim:right"]);
    let o = maurice::observation(&s, Side::Blue, ObservationKind::Compact);
    assert_eq!(&o[264..272], &[1.0, 0.0, 0.0, 0.0, 8.0 / 44.0, 7.0 / 29.0, 12.0 / 44.0, 7.0 / 29.0]);
    play(&mut s, &["aim:right"]);
    // Canister: 2 dice, both hits on red's gun 1, which rolls 2 to disrupt.
    assert_eq!(rolls(&s, ChanceEvent::ToHit)[0], [6, 6]);
    assert_eq!(rolls(&s, ChanceEvent::ToDisrupt), [vec![4, 1]]);
    assert_eq!(s.unit(Side::Red, 1).disr, 1);
    assert_eq!(s.unit(Side::Red, 0).disr, 0, "the left gun was not aimed at");
    // A straight target is fired at without asking.
    let mut s = game(Terrain::open(), &[art(0, 10, 5, Facing::N)], &[art(0, 10, 7, Facing::S), art(1, 12, 7, Facing::S)], [&[], &[]], &[1, 1, 1, 1, 1, 1]);
    play(&mut s, &["volley", "unit:0"]);
    assert_ne!(s.phase, Phase::Aim);
}

#[test]
fn maurice_f6_firing_a_unit() {
    // Two blue lines; each named once; end_fire leaves the rest unfired.
    let blue = [inf(0, 10, 5, Facing::N), inf(1, 16, 5, Facing::N)];
    let red = [inf(0, 19, 8, Facing::S)];
    let mut s = game(Terrain::open(), &blue, &red, [&[], &[]], &[1, 1, 1, 1, 1, 1, 1, 1]);
    play(&mut s, &["volley"]);
    assert_eq!(legal_names(&s), ["end_fire", "unit:0", "unit:1"]);
    play(&mut s, &["unit:1"]);
    assert_eq!(rolls(&s, ChanceEvent::ToHit), [vec![1, 1, 1, 1]], "one die per inf base");
    assert_eq!(legal_names(&s), ["end_fire", "unit:0"]);
    play(&mut s, &["end_fire"]);
    assert!(!s.unit(Side::Blue, 0).fired);
    assert_eq!(s.to_move, Some(Side::Red), "then the other side fires");
}

/// Blue's line fires all 3s at a red unit; the number of hits is the size of the disruption roll.
fn hits_with(t: Terrain, blue: UnitSpec, red: UnitSpec, hands: [&[Card]; 2], modifiers: &[&str]) -> usize {
    let mut s = game(t, &[blue], &[red], hands, &[3, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1]);
    play(&mut s, &["volley"]);
    play(&mut s, modifiers);
    play(&mut s, &["unit:0"]);
    rolls(&s, ChanceEvent::ToDisrupt).first().map_or(0, |r| r.len())
}

#[test]
fn maurice_f7_to_hit_modifiers() {
    let open = Terrain::open;
    let blue = inf(0, 10, 5, Facing::N);
    let line = inf(0, 13, 8, Facing::S);
    assert_eq!(hits_with(open(), blue, line, [&[], &[]], &[]), 0, "3 misses unmodified");
    // Dense target.
    let column = u(0, UnitType::Cav, Formation::Column, 10, 8, Facing::S);
    assert_eq!(hits_with(open(), blue, column, [&[], &[]], &[]), 2, "+1 dense: base 10 straight, base 13 along its left lane");
    // Enfilade: a line facing east on x = 11, rows 8–11: base (11, 5) is not ahead of its front.
    let flank = inf(0, 11, 11, Facing::E);
    assert_eq!(hits_with(open(), blue, flank, [&[], &[]], &[]), 1);
    // Volley card +1; thick smoke cancels it.
    assert_eq!(hits_with(open(), blue, line, [&[Volley6], &[]], &["card:volley_6"]), 4);
    assert_eq!(hits_with(open(), blue, line, [&[Volley6], &[ThickSmoke]], &["decline", "card:volley_6", "card:thick_smoke"]), 0);
    // Cover and bad terrain take a natural 4 down (checked with 4s instead of 3s below).
    let mut t = open();
    for x in 10..=13 {
        t.set_kind(c(x, 8), TerrainType::Woods);
    }
    let mut s = game(t, &[blue], &[line], [&[], &[]], &[4, 4, 4, 4, 1, 1, 1, 1]);
    play(&mut s, &["volley", "unit:0"]);
    assert!(rolls(&s, ChanceEvent::ToDisrupt).is_empty(), "cover: 4 − 1 misses");
    let mut t = open();
    t.set_kind(c(10, 5), TerrainType::Rough);
    let mut s = game(t, &[blue], &[line], [&[], &[]], &[4, 4, 4, 4, 1, 1, 1, 1]);
    play(&mut s, &["volley", "unit:0"]);
    assert_eq!(rolls(&s, ChanceEvent::ToDisrupt)[0].len(), 3, "the base in rough misses");
    let mut tired = blue;
    tired.disr = 2;
    let mut s = game(open(), &[tired], &[line], [&[], &[]], &[4, 4, 6, 4, 1, 1, 1, 1]);
    play(&mut s, &["volley", "unit:0"]);
    assert_eq!(rolls(&s, ChanceEvent::ToDisrupt)[0].len(), 1, "disrupted shooter: only the natural 6");
}

#[test]
fn maurice_f8_hits_to_disruption() {
    let mut s = facing_lines([&[], &[]], &[6, 6, 6, 6, 4, 5, 6, 3, 1, 1, 1, 1]);
    play(&mut s, &["volley", "unit:0"]);
    assert_eq!(rolls(&s, ChanceEvent::ToDisrupt), [vec![4, 5, 6, 3]]);
    assert_eq!(s.unit(Side::Red, 0).disr, 3);
    // Enough DISR breaks the unit at once; its side's morale falls and it does not fire back.
    let mut s = facing_lines([&[], &[]], &[6, 6, 6, 6, 6, 6, 6, 6]);
    s.unit_mut(Side::Red, 0).disr = 2;
    play(&mut s, &["volley", "unit:0"]);
    assert!(!s.unit(Side::Red, 0).on_table);
    assert_eq!(s.outcome, Some(maurice::Outcome::Blue), "red's only unit: morale 1 → 0");
}

#[test]
fn maurice_f9_smoke_and_no_activation_after_firing() {
    let mut s = game(Terrain::open(), &[art(0, 10, 5, Facing::N)], &[inf(0, 13, 8, Facing::S)], [&[Orders12], &[]], &[1, 1, 1, 1, 1, 1]);
    play(&mut s, &["volley", "decline", "unit:0", "end_fire"]);
    assert!(s.unit(Side::Blue, 0).smoke && s.unit(Side::Blue, 0).fired);
    assert_eq!(s.phase, Phase::Command);
    assert_eq!(legal_names(&s), ["pass"], "the gun that fired is in no force");
}

#[test]
fn maurice_f2_bombard_fires_the_force_at_long_range() {
    let mut s = game(Terrain::open(), &[art(0, 10, 5, Facing::N)], &[inf(0, 13, 12, Facing::S)], [&[Orders12, Bombard4], &[Bombard6]], &[3, 4]);
    play(&mut s, &["no_volley", "bombard", "card:orders_12", "decline"]);
    // The window: blue then red; blue plays bombard_4 (+1), red declines.
    assert_eq!((s.phase, s.to_move), (Phase::ActionModifier, Some(Side::Blue)));
    play(&mut s, &["card:bombard_4", "decline"]);
    assert_eq!((s.phase, legal_names(&s)), (Phase::Fire, vec!["end_fire", "unit:0"]));
    play(&mut s, &["unit:0"]);
    // One die in a bombard: 3 + 1 hits; the disruption die 4 is a DISR.
    assert_eq!(rolls(&s, ChanceEvent::ToHit), [vec![3]]);
    assert_eq!(s.unit(Side::Red, 0).disr, 1);
    assert_eq!(s.phase, Phase::CincMove);
}
