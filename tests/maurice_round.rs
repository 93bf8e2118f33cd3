//! RULES.md R, K2–K4, H, X, E, Q0 and O: the round with `pass` and events, cards, the CinC,
//! disruption and army morale, the end of the game, what each side sees.

mod maurice_common;
use maurice_common::*;
use maquis::maurice::cards::Card;
use maquis::maurice::observation::ObservationKind;
use maquis::maurice::rules::{cinc, morale};
use maquis::maurice::setup::TerrainChoice;
use maquis::maurice::terrain::Terrain;
use maquis::maurice::{self, Command, Facing, Outcome, Phase, Side, TerrainType};

use Card::*;

/// Blue to act with the given hand; red holds `red`; the deck's top is `deck`, then every card
/// not given.
fn blue_with(hand: &[Card], red: &[Card], deck: &[Card]) -> maurice::State {
    start(&quiet(deal_to_deck(hand, red, deck, &[])))
}

#[test]
fn maurice_r1_sides_alternate() {
    let mut s = blue_with(&[Orders12], &[Orders16], &[]);
    assert_eq!((s.round_no, s.active), (1, Side::Blue));
    play(&mut s, &["no_volley", "pass", "decline"]);
    assert_eq!((s.round_no, s.active, s.phase, s.to_move), (2, Side::Red, Phase::VolleyChoice, Some(Side::Red)));
    play(&mut s, &["no_volley", "pass", "decline"]);
    assert_eq!((s.round_no, s.active), (3, Side::Blue));
}

#[test]
fn maurice_r2_round_sequence() {
    let mut s = blue_with(&[Orders12], &[], &[March4, March6, March8]);
    assert_eq!(s.phase, Phase::VolleyChoice);
    play(&mut s, &["no_volley"]);
    assert_eq!(s.phase, Phase::Command);
    play(&mut s, &["pass"]);
    // The draw came before the CinC move.
    assert_eq!(s.army(Side::Blue).hand.total(), 4);
    assert_eq!((s.phase, s.to_move), (Phase::CincMove, Some(Side::Blue)));
    play(&mut s, &["decline"]);
    assert_eq!((s.active, s.phase), (Side::Red, Phase::VolleyChoice));
}

#[test]
fn maurice_r3_volley_decision() {
    let mut s = blue_with(&[Orders12], &[], &[]);
    assert_eq!(legal_names(&s), ["volley", "no_volley"]);
    play(&mut s, &["volley"]);
    assert!(s.round.volley);
    // Nobody has a target: the volley phase passes and the command follows.
    assert_eq!((s.phase, s.to_move), (Phase::VolleyModifier, Some(Side::Blue)));
    play(&mut s, &["decline"]);
    assert_eq!(s.phase, Phase::Command);
    // With no card a side may still call volleys.
    let s = blue_with(&[], &[], &[]);
    assert_eq!(legal_names(&s), ["volley", "no_volley"]);
}

#[test]
fn maurice_r4_command_choice() {
    let mut s = blue_with(&[Orders12, ValeurEtDiscipline, Charge4], &[], &[]);
    play(&mut s, &["no_volley"]);
    // pass, march (a unit with a finite command distance), the event; no rally (no DISR), no
    // bombard (no art), no charge (nobody near); the other cards are no command.
    assert_eq!(legal_names(&s), ["pass", "march", "card:valeur_et_discipline"]);
    // With an empty hand only `pass` (taken at once, Q0).
    let mut s = blue_with(&[], &[], &[]);
    play(&mut s, &["no_volley"]);
    assert_eq!(s.round.command, Some(Command::Pass));
}

#[test]
fn maurice_r5_draws_and_the_new_copy_goes_first() {
    let mut s = blue_with(&[Orders12], &[], &[Orders12, March4, March6]);
    play(&mut s, &["no_volley", "pass"]);
    let a = s.army(Side::Blue);
    assert_eq!((a.hand.get(Orders12), a.drawn.get(Orders12), a.drawn.total()), (2, 1, 3));
    play(&mut s, &["cell:21:2", "card:orders_12"]);
    assert_eq!(s.army(Side::Blue).hand.get(Orders12), 1);
    assert_eq!(s.discard.last(), Some(&Orders12));
    assert!(s.army(Side::Blue).drawn.is_empty(), "a new round: nothing drawn yet");
    for (command, n) in [(Command::Pass, 3), (Command::March, 1), (Command::Rally, 2), (Command::Bombard, 2), (Command::Charge, 0), (Command::Event, 0)] {
        assert_eq!(command.draws(), n);
    }
}

#[test]
fn maurice_r5_new_copy_discarded_before_the_round_ends() {
    let mut s = blue_with(&[Orders12], &[], &[Orders12, March4, March6]);
    play(&mut s, &["no_volley", "pass", "cell:21:2"]);
    assert_eq!(s.phase, Phase::CincPay);
    // The discard `card:orders_12` makes here, looked at before the round ends.
    maquis::maurice::rules::cards::discard(&mut s, Side::Blue, Orders12);
    let a = s.army(Side::Blue);
    assert_eq!((a.hand.get(Orders12), a.drawn.get(Orders12), a.old_copies(Orders12)), (1, 0, 1));
}

#[test]
fn maurice_r6_pass_with_an_empty_deck_draws_nothing() {
    let mut s = start(&quiet(deal(&[Orders12], &[], &[], &[])));
    assert!(s.deck.is_empty());
    play(&mut s, &["no_volley", "pass"]);
    assert_eq!(s.army(Side::Blue).hand.total(), 1);
    assert_eq!(s.round.command, Some(Command::Pass));
}

#[test]
fn maurice_r7_event_is_discarded_and_applied() {
    let mut setup = quiet(deal_to_deck(&[ValeurEtDiscipline, Orders12], &[], &[], &[]));
    let units = setup.units.as_mut().unwrap();
    units[0][0].disr = 2;
    units[1][0].disr = 1;
    let mut s = start(&setup);
    let deck = s.deck.len();
    play(&mut s, &["no_volley", "card:valeur_et_discipline"]);
    assert_eq!(s.round.command, Some(Command::Event));
    assert_eq!(s.unit(Side::Blue, 0).disr, 1, "own units remove 1 DISR");
    assert_eq!(s.unit(Side::Red, 0).disr, 1, "not the enemy's");
    assert_eq!(s.discard.last(), Some(&ValeurEtDiscipline));
    assert_eq!(s.deck.len(), deck, "an event draws nothing");
    assert_eq!(s.phase, Phase::CincMove, "no window opens; the CinC may move");
}

#[test]
fn maurice_r8_night_pass_needs_an_empty_deck_when_chosen() {
    let mut s = start(&quiet(deal(&[Orders12], &[Orders16], &[March4], &[])));
    play(&mut s, &["no_volley", "pass"]);
    assert!(!s.round.night_pass, "this pass drew the last card");
    play(&mut s, &["decline", "no_volley", "pass"]);
    assert!(s.round.night_pass);
    assert!(!s.night_pass_last_round);
}

#[test]
fn maurice_r9_end_of_round_order() {
    let hand = [Orders12, Orders12, Orders16, Orders16, March4, March6, March8, March10, Rally4];
    let mut s = start(&quiet(deal_to_deck(&hand, &[], &[Rally6, Rally8, Rally10], &[])));
    play(&mut s, &["no_volley", "pass"]);
    assert_eq!(s.army(Side::Blue).hand.total(), 12);
    // Blue's CinC ends the round under a blue unit.
    s.army_mut(Side::Blue).cinc = c(21, 5);
    play(&mut s, &["decline"]);
    assert_eq!((s.phase, s.to_move), (Phase::Displace, Some(Side::Blue)));
    play(&mut s, &["cell:21:4"]);
    assert_eq!((s.phase, s.to_move), (Phase::PenaltyDiscard, Some(Side::Blue)));
    play(&mut s, &["card:rally_4"]);
    assert_eq!(s.phase, Phase::HandLimit);
    play(&mut s, &["card:march_4"]);
    assert_eq!(s.army(Side::Blue).hand.total(), 10);
    assert_eq!((s.active, s.phase), (Side::Red, Phase::VolleyChoice));
}

#[test]
fn maurice_k2_one_face_up_discard_pile() {
    let mut s = blue_with(&[ValeurEtDiscipline, Orders12], &[], &[]);
    play(&mut s, &["no_volley", "card:valeur_et_discipline", "cell:21:2", "card:orders_12"]);
    assert_eq!(s.discard, [ValeurEtDiscipline, Orders12], "oldest first, both sides' cards on one pile");
    let o = maurice::observation(&s, Side::Red, ObservationKind::Compact);
    assert_eq!(o[93 + ValeurEtDiscipline.idx()], 0.5, "the pile is public");
}

#[test]
fn maurice_k3_reshuffle_with_fifteen_discards() {
    let mut cards = deal(&[Orders12], &[], &[Reshuffle, Orders16, Orders16], &[]);
    assert!(cards.discard.len() >= 15);
    let mut list = vec![Orders16, Orders16];
    list.extend(cards.discard.iter().copied());
    let setup = maurice::Setup { shuffles: vec![list.clone()], ..quiet(std::mem::take(&mut cards)) };
    let mut s = start(&setup);
    play(&mut s, &["no_volley", "pass"]);
    // The deck and the pile were shuffled together (the scripted order), the reshuffle left the
    // game, and the three cards came from the new deck.
    assert!(s.discard.is_empty());
    assert_eq!(s.removed, [Reshuffle, Reshuffle]);
    assert_eq!(s.deck, list[3..]);
    let a = s.army(Side::Blue);
    assert_eq!((a.hand.get(Orders16), a.hand.get(list[2]) >= 1, a.hand.total()), (2, true, 4));
}

#[test]
fn maurice_k3_reshuffle_alone_goes_back() {
    let ten = [Orders12, Orders12, Orders16, Orders16, March4, March6, March8, March10, Rally4, Rally6];
    let ten_red = [Charge4, Charge6, Charge8, Charge10, Bombard4, Bombard6, Bombard8, Bombard10, Volley4, Volley6];
    let cards = deal_to_deck(&ten, &ten_red, &[Reshuffle, Rally8, Rally10], &[Volley8]);
    // The list: the deck top first (less the reshuffle drawn), then the reshuffle; scripted as
    // that list turned by one.
    let mut shuffled: Vec<Card> = cards.deck[1..].to_vec();
    shuffled.push(Reshuffle);
    shuffled.rotate_left(1);
    let setup = maurice::Setup { shuffles: vec![shuffled.clone()], ..quiet(cards) };
    let mut s = start(&setup);
    assert!(s.discard.len() < 15);
    maquis::maurice::rules::cards::draw(&mut s, Side::Blue).unwrap();
    // The deck top first, then the reshuffle, in the scripted order; then the draw again.
    assert_eq!(s.army(Side::Blue).hand.get(shuffled[0]), 1 + ten.iter().filter(|&&c| c == shuffled[0]).count() as u8);
    assert_eq!(s.deck, shuffled[1..]);
    assert!(s.deck.contains(&Reshuffle) && s.discard == [Volley8]);
    assert_eq!(s.removed, [Reshuffle]);
}

#[test]
fn maurice_k3_last_reshuffle_without_playable_cards_leaves_the_game() {
    let mut s = start(&quiet(deal(&[Orders12], &[], &[], &[])));
    // Only reshuffle cards in the deck, and few discards.
    s.deck = vec![Reshuffle, Reshuffle];
    s.removed.clear();
    let pile = std::mem::take(&mut s.discard);
    for &card in &pile[..pile.len() - 3] {
        s.army_mut(Side::Red).hand.add(card);
    }
    s.discard = pile[pile.len() - 3..].to_vec();
    maquis::maurice::rules::cards::draw(&mut s, Side::Blue).unwrap();
    assert!(s.deck.is_empty());
    assert_eq!(s.removed, [Reshuffle, Reshuffle]);
    assert_eq!(s.army(Side::Blue).hand.total(), 1, "nothing drawn");
    // An empty deck draws nothing.
    maquis::maurice::rules::cards::draw(&mut s, Side::Blue).unwrap();
    assert_eq!(s.army(Side::Blue).hand.total(), 1);
}

#[test]
fn maurice_k4_hand_limit_at_the_end_of_the_round_only() {
    let hand = [Orders12, Orders12, Orders16, Orders16, March4, March6, March8, March10, Rally4, Rally6];
    let mut s = start(&quiet(deal_to_deck(&hand, &[], &[Rally8, Rally10, Volley4], &[])));
    play(&mut s, &["no_volley", "pass"]);
    assert_eq!(s.army(Side::Blue).hand.total(), 13, "over 10 during the round");
    play(&mut s, &["decline"]);
    for k in 0..3 {
        assert_eq!((s.phase, s.to_move), (Phase::HandLimit, Some(Side::Blue)), "discard {k}");
        play(&mut s, &["card:orders_16"]);
        if s.army(Side::Blue).hand.get(Orders16) == 0 {
            break;
        }
    }
    if s.phase == Phase::HandLimit {
        play(&mut s, &["card:march_4"]);
    }
    assert_eq!(s.army(Side::Blue).hand.total(), 10);
    assert_eq!(s.active, Side::Red);
}

#[test]
fn maurice_h1_cinc_is_no_base_and_never_in_a_lake() {
    let mut setup = quiet(deal(&[], &[], &[], &[]));
    let mut t = Terrain::open();
    t.set_kind(c(10, 2), TerrainType::Lake);
    setup.terrain = TerrainChoice::Map(Box::new(t));
    setup.cinc = Some([c(10, 2), c(22, 27)]);
    assert!(maurice::new_game(0, &setup).is_err(), "a CinC may not stand in a lake");
    setup.cinc = Some([c(11, 2), c(22, 27)]);
    let s = start(&setup);
    let targets = cinc::move_targets(&s, Side::Blue);
    assert!(!targets.contains(&c(10, 2)) && targets.contains(&c(9, 2)));
    // A unit may stand next to it and it blocks nothing: the CinC's cell is not a unit's.
    assert!(s.unit_at(c(11, 2)).is_none());
}

#[test]
fn maurice_h2_cinc_moves_through_friends_around_enemies_and_pays() {
    let blue = [inf(0, 0, 3, Facing::N), art(1, 4, 0, Facing::N), art(2, 4, 1, Facing::N)];
    let red = [inf(0, 3, 2, Facing::S), inf(1, 7, 2, Facing::S), u(2, maurice::UnitType::Inf, maurice::Formation::Column, 8, 0, Facing::S)];
    let setup = position(&blue, &red, [c(0, 0), c(22, 27)], deal(&[Orders12], &[], &[], &[]));
    let mut s = start(&setup);
    // Red's lines cover (0..7, 2), its column (8, 0..3): blue's CinC is shut in x 0–7, y 0–1,
    // and reaches x 5–7 only through its own guns at (4, 0) and (4, 1).
    let targets = cinc::move_targets(&s, Side::Blue);
    assert_eq!(targets.len(), 13);
    assert!(targets.iter().all(|t| t.x <= 7 && t.y <= 1 && t.x != 4));
    play(&mut s, &["no_volley", "pass"]);
    assert!(legal(&s, "cell:7:1") && !legal(&s, "cell:0:0") && !legal(&s, "cell:9:0") && legal(&s, "decline"));
    play(&mut s, &["cell:7:1"]);
    assert_eq!((s.phase, s.army(Side::Blue).cinc), (Phase::CincPay, c(7, 1)));
    assert_eq!(legal_names(&s), ["card:orders_12"]);
    play(&mut s, &["card:orders_12"]);
    assert_eq!(s.discard.last(), Some(&Orders12));
    // Without a card the CinC stays.
    let mut s = start(&position(&blue, &red, [c(0, 0), c(22, 27)], deal(&[], &[Orders12], &[], &[])));
    play(&mut s, &["no_volley"]);
    assert_eq!(s.army(Side::Blue).cinc, c(0, 0));
    assert_eq!(s.active, Side::Red);
}

#[test]
fn maurice_h3_displaced_to_the_nearest_free_ring() {
    let mut s = blue_with(&[Orders12], &[], &[]);
    s.army_mut(Side::Blue).cinc = c(21, 5);
    let mut ring = cinc::displace_targets(&s, Side::Blue);
    ring.sort();
    let want = vec![c(20, 4), c(20, 6), c(21, 4), c(21, 6), c(22, 4), c(22, 6)];
    assert_eq!(ring, want, "ring 1 less the line's own cells");
    play(&mut s, &["no_volley", "pass", "decline"]);
    assert_eq!(s.phase, Phase::Displace);
    assert!(legal(&s, "cell:20:4") && !legal(&s, "cell:19:4") && !legal(&s, "cell:20:5"));
    play(&mut s, &["cell:22:6"]);
    assert!(s.army(Side::Blue).cinc == c(22, 6));
    // With a single free cell the owner is not asked (Q0).
    let mut s = blue_with(&[], &[], &[]);
    let mut t = Terrain::open();
    for x in 0..3 {
        for y in 0..3 {
            if (x, y) != (0, 0) && (x, y) != (2, 2) {
                t.set_kind(c(x, y), TerrainType::Lake);
            }
        }
    }
    s.terrain = std::sync::Arc::new(t);
    s.army_mut(Side::Blue).cinc = c(1, 1);
    assert_eq!(cinc::displace_targets(&s, Side::Blue), [c(0, 0), c(2, 2)]);
}

#[test]
fn maurice_h4_penalty_card_or_morale() {
    let mut s = blue_with(&[Orders12], &[], &[]);
    s.army_mut(Side::Blue).cinc = c(21, 5);
    play(&mut s, &["no_volley", "pass", "decline", "cell:21:4"]);
    assert_eq!((s.phase, s.to_move), (Phase::PenaltyDiscard, Some(Side::Blue)));
    assert!(legal(&s, "card:orders_12") && !legal(&s, "decline"));
    play(&mut s, &["card:orders_12"]);
    assert_eq!(s.army(Side::Blue).morale, 1, "quiet armies have one unit: morale 1");
    // With no card, 1 army morale instead — here the last, so blue loses (E1).
    let mut s = start(&quiet(deal(&[], &[], &[], &[])));
    s.army_mut(Side::Blue).cinc = c(21, 5);
    play(&mut s, &["no_volley", "cell:21:4"]);
    assert_eq!(s.outcome, Some(Outcome::Red));
}

#[test]
fn maurice_x1_disr_up_to_the_bases() {
    let mut s = blue_with(&[], &[], &[]);
    assert!(!morale::add_disr(&mut s, Side::Blue, 0, 3));
    assert!(!morale::add_disr(&mut s, Side::Blue, 0, 1));
    assert_eq!(s.unit(Side::Blue, 0).disr, 4);
    assert!(s.unit(Side::Blue, 0).on_table);
}

#[test]
fn maurice_x2_more_disr_than_bases_breaks() {
    let blue = [inf(0, 10, 5, Facing::N), art(1, 20, 5, Facing::N)];
    let mut s = start(&position(&blue, &[inf(0, 23, 24, Facing::S)], [c(22, 2), c(22, 27)], deal(&[], &[], &[], &[])));
    assert!(morale::add_disr(&mut s, Side::Blue, 1, 2), "art has one base: 2 DISR breaks it");
    assert!(!s.unit(Side::Blue, 1).on_table);
    assert!(s.unit_at(c(20, 5)).is_none(), "removed from the table");
}

#[test]
fn maurice_x3_each_broken_unit_costs_one_morale() {
    let blue = [inf(0, 10, 5, Facing::N), inf(1, 20, 5, Facing::N), inf(2, 30, 5, Facing::N)];
    let mut s = start(&position(&blue, &[inf(0, 23, 24, Facing::S)], [c(22, 2), c(22, 27)], deal(&[], &[], &[], &[])));
    assert_eq!(s.army(Side::Blue).morale, 2);
    morale::break_unit(&mut s, Side::Blue, 2);
    assert_eq!(s.army(Side::Blue).morale, 1);
    morale::break_unit(&mut s, Side::Blue, 2);
    assert_eq!(s.army(Side::Blue).morale, 1, "a broken unit breaks once");
}

#[test]
fn maurice_e1_morale_zero_ends_the_game_at_once() {
    let blue = [inf(0, 10, 5, Facing::N), inf(1, 20, 5, Facing::N)];
    let mut s = start(&position(&blue, &[inf(0, 23, 24, Facing::S)], [c(22, 2), c(22, 27)], deal(&[], &[], &[], &[])));
    morale::add_disr(&mut s, Side::Blue, 0, 5);
    assert_eq!((s.outcome, s.phase, s.to_move), (Some(Outcome::Red), Phase::GameOver, None));
    assert!(maurice::legal_mask(&s).is_empty());
    assert!(maurice::apply(&mut s, idx("no_volley") as i64).is_err());
}

#[test]
fn maurice_e2_two_night_passes_in_a_row_end_in_a_draw() {
    let mut s = start(&quiet(deal(&[Orders12], &[Orders16], &[], &[])));
    play(&mut s, &["no_volley", "pass", "decline"]);
    assert!(s.night_pass_last_round && !s.is_over());
    play(&mut s, &["no_volley", "pass", "decline"]);
    assert_eq!(s.outcome, Some(Outcome::Draw));
    // A round that draws in between breaks the chain.
    let mut s = start(&quiet(deal(&[Orders12], &[Orders16], &[March4], &[])));
    play(&mut s, &["no_volley", "pass", "decline", "no_volley", "pass", "decline"]);
    assert!(!s.is_over());
}

#[test]
fn maurice_e3_outcomes() {
    let ids: Vec<&str> = Outcome::ALL.iter().map(|o| o.as_str()).collect();
    assert_eq!(ids, ["blue", "red", "draw"]);
    assert_eq!((Outcome::Blue.winner(), Outcome::Draw.winner()), (Some(Side::Blue), None));
}

#[test]
fn maurice_e4_a_game_of_passes_ends() {
    let mut s = maurice::new_game(2, &Default::default()).unwrap();
    let mut decisions = 0;
    while !s.is_over() {
        let name = match s.phase {
            Phase::VolleyChoice => "no_volley",
            Phase::Command => "pass",
            Phase::CincMove => "decline",
            _ => maurice::action_names()[maurice::legal_mask(&s).iter().next().unwrap()],
        };
        play(&mut s, &[name]);
        decisions += 1;
        assert!(decisions < 10_000);
    }
    assert_eq!(s.outcome, Some(Outcome::Draw));
    assert!(s.round_no < 400);
}

#[test]
fn maurice_q0_single_options_are_taken_unless_a_hand_is_asked() {
    // An empty hand: the command is `pass`, taken without asking.
    let mut s = blue_with(&[], &[], &[]);
    play(&mut s, &["no_volley"]);
    assert_eq!(s.round.command, Some(Command::Pass));
    // A card in hand but no feasible action (the CinC is shut in by lakes): still asked.
    let mut t = Terrain::open();
    for cell in [c(1, 0), c(0, 1), c(1, 1)] {
        t.set_kind(cell, TerrainType::Lake);
    }
    let setup = maurice::Setup { terrain: TerrainChoice::Map(Box::new(t)), cinc: Some([c(0, 0), c(22, 27)]), ..quiet(deal(&[Orders12], &[], &[], &[])) };
    let mut s = start(&setup);
    play(&mut s, &["no_volley"]);
    assert_eq!((s.phase, legal_names(&s)), (Phase::Command, vec!["pass"]));
}

#[test]
fn maurice_o1_public_information() {
    let s = blue_with(&[Orders12, Orders16], &[March4], &[]);
    let o = maurice::observation(&s, Side::Red, ObservationKind::Full);
    assert_eq!((o[90], o[91]), (1.0 / 40.0, 2.0 / 40.0), "hand sizes: own then enemy");
    assert_eq!(o[92], s.deck.len() as f32 / 40.0);
    assert_eq!(&o[256..260], &[22.0 / 44.0, 27.0 / 29.0, 22.0 / 44.0, 2.0 / 29.0], "both CinCs");
    assert_eq!(o[284 + 16 * 25], 1.0, "the enemy's units");
}

#[test]
fn maurice_o2_the_enemy_hand_is_hidden() {
    let a = blue_with(&[Orders12], &[March4, March6], &[]);
    let b = blue_with(&[Orders12], &[Rally4, Volley10], &[]);
    assert_ne!(a.army(Side::Red).hand, b.army(Side::Red).hand);
    let oa = maurice::observation(&a, Side::Blue, ObservationKind::Full);
    let ob = maurice::observation(&b, Side::Blue, ObservationKind::Full);
    // The deck differs too (the cards not dealt); only its size is seen.
    assert_eq!(oa, ob);
    assert_ne!(maurice::observation(&a, Side::Red, ObservationKind::Full), maurice::observation(&b, Side::Red, ObservationKind::Full));
}

#[test]
fn maurice_o3_deck_order_and_future_dice_are_hidden() {
    let a = maurice::new_game(1, &maurice::Setup { first: Some(Side::Blue), ..Default::default() }).unwrap();
    let mut b = a.clone();
    b.deck.reverse();
    b.dice = maurice::new_game(2, &Default::default()).unwrap().dice;
    b.dice.log.clear();
    let mut a2 = a.clone();
    a2.dice.log.clear();
    for side in Side::ALL {
        assert_eq!(maurice::observation(&a2, *side, ObservationKind::Full), maurice::observation(&b, *side, ObservationKind::Full));
    }
}
