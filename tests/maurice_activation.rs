//! RULES.md A2, A5–A8, K5–K7, Y1 and R2's foiled rounds: from the chosen action to the rally.

mod maurice_common;
use maurice_common::*;
use maquis::maurice::cards::Card::{self, *};
use maquis::maurice::rules::activation::meets_a2;
use maquis::maurice::scenario::UnitSpec;
use maquis::maurice::state::State;
use maquis::maurice::{ChanceEvent, Facing, Phase, Setup, Side};

/// Blue: inf 0 at (20, 5) with `disr`, inf 1 at (26, 5) (2 BW away), CinC at (22, 2) — command
/// distance 2. Red far away. The deck's top is `deck`.
fn rally_setup(blue: &[Card], red: &[Card], deck: &[Card], disr: u8, dice: &[u8]) -> Setup {
    let mut b = [inf(0, 20, 5, Facing::N), inf(1, 26, 5, Facing::N)];
    b[0].disr = disr;
    let r = [inf(0, 23, 24, Facing::S)];
    Setup { dice: dice.to_vec(), ..position(&b, &r, [c(22, 2), c(22, 27)], deal_to_deck(blue, red, deck, &[])) }
}

fn rallying(blue: &[Card], red: &[Card]) -> State {
    let mut s = start(&rally_setup(blue, red, &[Volley4, Volley6], 2, &[4, 2]));
    play(&mut s, &["no_volley", "rally"]);
    s
}

#[test]
fn maurice_a2_confirm_when_the_force_may_act() {
    // Rally: unit 1 alone holds no DISR; named after unit 0 the force may confirm.
    let mut s = rallying(&[Orders12], &[]);
    assert_eq!(s.phase, Phase::Force);
    assert!(legal(&s, "unit:1") && !legal(&s, "confirm_force"));
    assert!(!meets_a2(&s, 0b10) && meets_a2(&s, 0b01) && meets_a2(&s, 0b11));
    // Named alone, unit 1 cannot confirm: unit 0 is the only choice, then confirm_force (Q0).
    play(&mut s, &["unit:1"]);
    assert_eq!((s.round.force, s.phase), (0b11, Phase::Span));
}

#[test]
fn maurice_a5_failed_bluff_discards_the_hand() {
    // CinC 24 cells from the units; a 12 and the card drawn (4) make 16.
    let b = [inf(0, 10, 25, Facing::N)];
    let setup = position(&b, &[inf(0, 40, 10, Facing::S)], [c(22, 0), c(22, 29)], deal_to_deck(&[Orders12], &[Orders16], &[March4], &[]));
    let mut s = start(&setup);
    play(&mut s, &["no_volley", "march"]);
    assert_eq!(s.army(Side::Blue).hand.total(), 0);
    assert_eq!(s.discard, [March4, Orders12], "the whole hand, the card drawn included");
    // The round went to its end without a CinC move.
    assert_eq!((s.active, s.phase), (Side::Red, Phase::VolleyChoice));
    // With enough span in hand the force is named.
    let setup = position(&b, &[inf(0, 40, 10, Facing::S)], [c(22, 0), c(22, 29)], deal_to_deck(&[Orders12, Orders16], &[Orders16], &[March4], &[]));
    let mut s = start(&setup);
    play(&mut s, &["no_volley", "march"]);
    // The only unit seeds and confirms at once (Q0): the span is asked.
    assert_eq!((s.phase, s.round.force, s.round.distance), (Phase::Span, 1, Some(24)));
}

#[test]
fn maurice_a6_naming_the_force() {
    let mut s = rallying(&[Orders12], &[]);
    // Both units seed (unit 1's group holds unit 0, which has DISR).
    assert_eq!(legal_names(&s), ["unit:0", "unit:1"]);
    play(&mut s, &["unit:0"]);
    assert_eq!(legal_names(&s), ["confirm_force", "unit:1"]);
    // A unit 3 BW away cannot join.
    let mut setup = rally_setup(&[Orders12], &[], &[Volley4, Volley6], 2, &[]);
    setup.units.as_mut().unwrap()[0][1].at = c(27, 5);
    let mut s = start(&setup);
    play(&mut s, &["no_volley", "rally"]);
    // A single seed is named at once (Q0): the force phase offers only confirm_force, still asked
    // as it is no hand phase? It has one action: taken too, so the span is asked.
    assert_eq!(s.phase, Phase::Span);
    assert_eq!(s.round.force, 1);
    // Charge forces: a non-charger joins only while 2 × chargers ≥ units.
    let blue: Vec<UnitSpec> = vec![inf(0, 10, 5, Facing::N), inf(1, 16, 5, Facing::N), inf(2, 22, 5, Facing::N)];
    let red = [inf(0, 13, 8, Facing::S)];
    let mut s = start(&position(&blue, &red, [c(12, 2), c(22, 27)], deal_to_deck(&[Orders12], &[], &[], &[])));
    play(&mut s, &["no_volley", "charge"]);
    // Unit 0 can charge; 1 and 2 cannot (nothing ahead); 1 seeds through 0 within 2 BW.
    assert_eq!(legal_names(&s), ["unit:0", "unit:1"]);
    play(&mut s, &["unit:0"]);
    assert!(legal(&s, "unit:1") && legal(&s, "confirm_force"));
    play(&mut s, &["unit:1"]);
    assert!(!legal(&s, "unit:2"), "1 charger of 3");
}

#[test]
fn maurice_a7_span_then_the_interrupt_window() {
    let mut s = rallying(&[Orders12, March4], &[RoughGoing]);
    play(&mut s, &["unit:0", "confirm_force"]);
    assert_eq!((s.phase, s.round.distance), (Phase::Span, Some(2)));
    // Any card pays, the cards drawn this round included.
    assert!(legal(&s, "card:volley_4") && legal(&s, "card:orders_12") && !legal(&s, "give_up"));
    play(&mut s, &["card:march_4"]);
    assert_eq!(s.round.span_played, [March4]);
    assert_eq!((s.phase, s.to_move), (Phase::ActivationInterrupt, Some(Side::Red)));
    // Rough going only for march and charge: red may only decline here.
    assert_eq!(legal_names(&s), ["decline"]);
    play(&mut s, &["decline"]);
    assert!(s.round.activated);
    // At distance 0 one card is still played.
    let mut setup = rally_setup(&[Orders12], &[], &[Volley4, Volley6], 2, &[6, 6]);
    setup.cinc = Some([c(19, 4), c(22, 27)]);
    let mut s = start(&setup);
    play(&mut s, &["no_volley", "rally", "unit:0", "confirm_force"]);
    assert_eq!((s.phase, s.round.distance), (Phase::Span, Some(0)));
}

#[test]
fn maurice_a8_delay_and_giving_up() {
    let mut s = rallying(&[March4], &[UnexpectedDelay]);
    play(&mut s, &["unit:0", "confirm_force", "card:march_4", "card:unexpected_delay"]);
    assert!(s.round.delayed);
    let o = maquis::maurice::observation(&s, Side::Blue, maquis::maurice::ObservationKind::Compact);
    assert_eq!(&o[129..133], &[4.0 / 40.0, 10.0 / 64.0, 1.0, 0.0], "span paid, distance 2 + 8, delayed");
    assert_eq!(s.round.interrupt, Some(UnexpectedDelay));
    // Distance 10; paid 4; the hand (volley_4, volley_6) can still reach it.
    assert_eq!(s.phase, Phase::Span);
    assert!(legal(&s, "give_up") && legal(&s, "card:volley_6"));
    let mut t = s.clone();
    play(&mut t, &["card:volley_4"]);
    assert_eq!(t.phase, Phase::Span, "8 of 10");
    // Giving up foils the activation: the cards stay discarded, no CinC move.
    play(&mut s, &["give_up"]);
    assert_eq!((s.active, s.phase), (Side::Red, Phase::VolleyChoice));
    assert!(s.discard.contains(&March4) && s.discard.contains(&UnexpectedDelay));
    // When the hand cannot reach, only give_up.
    let mut setup = rally_setup(&[March4], &[UnexpectedDelay], &[], 2, &[]);
    setup.cards = Some(deal(&[March4], &[UnexpectedDelay], &[Volley4], &[]));
    let mut s = start(&setup);
    play(&mut s, &["no_volley", "rally", "unit:0", "confirm_force", "card:march_4", "card:unexpected_delay"]);
    assert_eq!(s.phase, Phase::Span);
    assert_eq!(legal_names(&s), ["give_up"], "4 + 4 + nothing more < 10");
}

#[test]
fn maurice_k5_any_card_for_its_span() {
    let mut s = rallying(&[UnexpectedDelay, ValeurEtDiscipline], &[]);
    play(&mut s, &["unit:0", "confirm_force"]);
    assert!(legal(&s, "card:unexpected_delay") && legal(&s, "card:valeur_et_discipline"));
    play(&mut s, &["card:unexpected_delay"]);
    assert_eq!(s.round.span_played, [UnexpectedDelay]);
    assert!(s.round.activated && !s.round.delayed, "played for its span, not as an interrupt");
}

#[test]
fn maurice_k6_modifier_window_active_first_old_copies_only() {
    let mut s = rallying(&[Orders12, Rally4, Rally6], &[Rally8, Orders16]);
    play(&mut s, &["unit:0", "confirm_force", "card:orders_12", "decline"]);
    assert_eq!((s.phase, s.to_move), (Phase::ActionModifier, Some(Side::Blue)));
    assert_eq!(legal_names(&s), ["decline", "card:rally_4", "card:rally_6"]);
    play(&mut s, &["card:rally_4"]);
    assert_eq!((s.phase, s.to_move), (Phase::ActionModifier, Some(Side::Red)));
    assert_eq!(legal_names(&s), ["decline", "card:rally_8"]);
    play(&mut s, &["card:rally_8"]);
    assert_eq!(s.round.modifiers[0][1], Some(Rally4));
    assert_eq!(s.round.modifiers[1][1], Some(Rally8));
    assert_eq!(s.phase, Phase::CincMove, "one card per side, then the rally");
    // A card drawn this round is no modifier.
    let mut s = start(&rally_setup(&[Orders12], &[], &[Rally4, Volley4], 2, &[6, 6]));
    play(&mut s, &["no_volley", "rally", "unit:0", "confirm_force", "card:orders_12"]);
    assert_eq!(legal_names(&s), ["decline"]);
}

#[test]
fn maurice_k7_interrupt_once_a_round_and_only_with_a_card() {
    // Red holds no card: no window.
    let mut s = rallying(&[Orders12], &[]);
    play(&mut s, &["unit:0", "confirm_force", "card:orders_12"]);
    assert!(s.round.activated);
    assert_ne!(s.phase, Phase::ActivationInterrupt);
    // After a delay the window does not come again.
    let mut s = rallying(&[March4, Orders12], &[UnexpectedDelay, UnexpectedDelay]);
    play(&mut s, &["unit:0", "confirm_force", "card:march_4", "card:unexpected_delay", "card:orders_12"]);
    assert!(s.round.activated);
    assert_eq!(s.army(Side::Red).hand.get(UnexpectedDelay), 1);
}

#[test]
fn maurice_y1_rally_dice() {
    // Inf rallies on 4+, +1 away from the enemy: 4 → 5 removes one, 2 → 3 does not.
    let mut s = rallying(&[Orders12], &[]);
    play(&mut s, &["unit:0", "confirm_force", "card:orders_12", "decline"]);
    assert_eq!(s.unit(Side::Blue, 0).disr, 1);
    let roll = s.dice.log.last().unwrap();
    assert_eq!((roll.event, roll.dice.clone()), (ChanceEvent::Rally, vec![4, 2]));
    // Near the enemy, in rough ground and against a passive rally card: 6 still succeeds, 5 − 2
    // fails; a natural 1 always fails.
    let mut t = maquis::maurice::terrain::Terrain::open();
    t.set_kind(c(20, 5), maquis::maurice::TerrainType::Rough);
    let b = {
        let mut b = [inf(0, 20, 5, Facing::N)];
        b[0].disr = 3;
        b
    };
    let r = [inf(0, 23, 9, Facing::S)];
    let setup = Setup {
        dice: vec![6, 5, 1],
        ..position_on(t, &b, &r, [c(22, 2), c(22, 27)], deal_to_deck(&[Orders12], &[Rally4], &[Volley4, Volley6], &[]))
    };
    let mut s = start(&setup);
    play(&mut s, &["no_volley", "rally", "card:orders_12", "decline", "decline", "card:rally_4"]);
    assert_eq!(s.unit(Side::Blue, 0).disr, 2);
}

#[test]
fn maurice_a9_rough_going_takes_effect_for_the_action() {
    // Blue marches its line towards rough ground; red answers the span with rough_going.
    let mut t = maquis::maurice::terrain::Terrain::open();
    t.set_kind(c(20, 6), maquis::maurice::TerrainType::Rough);
    let b = [inf(0, 20, 5, Facing::N)];
    let r = [inf(0, 23, 24, Facing::S)];
    let setup = position_on(t, &b, &r, [c(22, 2), c(22, 27)], deal_to_deck(&[Orders12], &[RoughGoing], &[Volley4], &[]));
    let mut s = start(&setup);
    play(&mut s, &["no_volley", "march", "card:orders_12"]);
    assert_eq!(legal_names(&s), ["decline", "card:rough_going"]);
    let mut calm = s.clone();
    play(&mut s, &["card:rough_going"]);
    assert!(s.round.rough_going && s.round.activated);
    // The march window (blue holds the card it drew), then the move.
    play(&mut s, &["decline"]);
    assert_eq!((s.phase, s.to_move, legal_names(&s)), (Phase::Move, Some(Side::Blue), vec!["end_moves", "unit:0"]));
    play(&mut s, &["unit:0"]);
    assert!(!legal(&s, "move:forward"), "the rough cell ahead is closed to the active side");
    play(&mut calm, &["decline", "decline", "decline", "unit:0"]);
    assert!(legal(&calm, "move:forward"));
}
