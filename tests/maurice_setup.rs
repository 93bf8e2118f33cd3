//! RULES.md S5, S7 and N: random terrain, the setup sequence and the seeded streams.

use maquis::draw;
use maquis::maurice::cards::{playable_cards, Card};
use maquis::maurice::grid::Cell;
use maquis::maurice::scenario::{scenario, turned};
use maquis::maurice::setup::{TerrainChoice, OPENING_HAND};
use maquis::maurice::streams::{stream, CARDS_STREAM};
use maquis::maurice::{self, ChanceEvent, Phase, ScenarioId, Setup, Side, TerrainType};

fn random(seed: u64) -> maurice::State {
    maurice::new_game(seed, &Setup { terrain: TerrainChoice::Random, ..Default::default() }).unwrap()
}

#[test]
fn maurice_s5_random_terrain_is_twinned_in_the_middle_rows() {
    let mut kinds_seen = std::collections::HashSet::new();
    let mut differs = false;
    for seed in 0..40 {
        let s = random(seed);
        let t = &s.terrain;
        let mut pieces = 0;
        for c in Cell::all() {
            let tw = turned(c);
            assert_eq!((t.kind(c), t.level(c)), (t.kind(tw), t.level(tw)), "seed {seed}: twin of ({}, {})", c.x, c.y);
            assert_ne!(t.kind(c), TerrainType::Lake, "no lakes are generated");
            let marked = t.kind(c) != TerrainType::Open || t.level(c) == 1 || t.wall_n[c.index()] || t.wall_e[c.index()];
            if marked {
                pieces += 1;
                assert!((10..=19).contains(&c.y), "seed {seed}: terrain outside rows 10–19 at ({}, {})", c.x, c.y);
                kinds_seen.insert((t.kind(c), t.level(c)));
            }
            if t.wall_n[c.index()] {
                assert!(c.y <= 18 && t.wall_n[Cell::new(44 - c.x, 28 - c.y).index()]);
            }
            if t.wall_e[c.index()] {
                assert!(c.x <= 43 && t.wall_e[Cell::new(43 - c.x, 29 - c.y).index()]);
            }
        }
        assert!(pieces >= 4, "at least one pair of pieces of 2 × 2 or a wall");
        differs |= *s.terrain != *random(seed + 100).terrain;
        // Same seed, same terrain; the armies and CinCs are the scenario's.
        assert_eq!(*s.terrain, *random(seed).terrain);
        let sc = scenario(ScenarioId::Standard);
        assert_eq!(s.army(Side::Red).cinc, sc.cinc[1]);
    }
    assert!(differs);
    for kind in [TerrainType::Woods, TerrainType::Rough, TerrainType::Marsh] {
        assert!(kinds_seen.iter().any(|&(k, _)| k == kind), "{kind} appears in 40 maps");
    }
    assert!(kinds_seen.iter().any(|&(_, l)| l == 1), "hills appear");
}

#[test]
fn maurice_s7_deal_alternately_then_shuffle_the_rest_with_the_reshuffles() {
    let mut first: Vec<Card> = playable_cards();
    first.reverse();
    let mut second: Vec<Card> = first[12..].to_vec();
    second.extend([Card::Reshuffle; 2]);
    let setup = Setup { shuffles: vec![first.clone(), second.clone()], dice: vec![3, 3, 2, 5], ..Default::default() };
    let s = maurice::new_game(9, &setup).unwrap();
    let blue: Vec<Card> = (0..OPENING_HAND).map(|i| first[2 * i]).collect();
    let red: Vec<Card> = (0..OPENING_HAND).map(|i| first[2 * i + 1]).collect();
    let sorted = |mut v: Vec<Card>| {
        v.sort();
        v
    };
    assert_eq!(s.army(Side::Blue).hand.cards(), sorted(blue));
    assert_eq!(s.army(Side::Red).hand.cards(), sorted(red));
    assert_eq!(s.deck, second, "the second shuffle lists the 26 undealt top first, then the reshuffles");
    assert!(s.discard.is_empty() && s.removed.is_empty());
    assert!(s.army(Side::Blue).drawn.is_empty(), "dealt cards are not drawn this round");
    // The roll-off: blue, red, again while equal; the higher roller is active.
    let rolls: Vec<(ChanceEvent, Vec<u8>)> = s.dice.log.iter().map(|r| (r.event, r.dice.clone())).collect();
    assert_eq!(rolls, [(ChanceEvent::FirstPlayer, vec![3, 3]), (ChanceEvent::FirstPlayer, vec![2, 5])]);
    assert_eq!((s.active, s.round_no, s.phase, s.to_move), (Side::Red, 1, Phase::VolleyChoice, Some(Side::Red)));
    let s = maurice::new_game(9, &Setup { dice: vec![6, 1], ..Default::default() }).unwrap();
    assert_eq!(s.active, Side::Blue);
    let s = maurice::new_game(9, &Setup { first: Some(Side::Red), ..Default::default() }).unwrap();
    assert!(s.dice.log.is_empty() && s.active == Side::Red, "`first` skips the roll-off");
    // A shuffle script that is not a permutation of the cards is refused.
    assert!(maurice::new_game(9, &Setup { shuffles: vec![vec![Card::Charge4; 38]], ..Default::default() }).is_err());
}

#[test]
fn maurice_n1_three_independent_seeded_streams() {
    let a = maurice::new_game(5, &Setup::default()).unwrap();
    let b = maurice::new_game(5, &Setup::default()).unwrap();
    assert_eq!(a, b, "same seed, same game");
    let others: Vec<_> = (6..12).map(|seed| maurice::new_game(seed, &Setup::default()).unwrap()).collect();
    assert!(others.iter().any(|o| o.deck != a.deck));
    // Scripted dice and random terrain leave the cards stream alone.
    let scripted = maurice::new_game(5, &Setup { dice: vec![1, 2], ..Default::default() }).unwrap();
    assert_eq!((scripted.deck.clone(), scripted.armies[0].hand), (a.deck.clone(), a.armies[0].hand));
    let r = random(5);
    assert_eq!((r.deck.clone(), r.dice.log.clone()), (a.deck.clone(), a.dice.log.clone()));
}

#[test]
fn maurice_n2_chance_events() {
    let ids: Vec<&str> = ChanceEvent::ALL.iter().map(|e| e.as_str()).collect();
    assert_eq!(ids, ["first_player", "to_hit", "to_disrupt", "combat", "rally"]);
    let s = maurice::new_game(11, &Setup::default()).unwrap();
    assert!(!s.dice.log.is_empty());
    for (i, r) in s.dice.log.iter().enumerate() {
        assert_eq!((r.event, r.dice.len()), (ChanceEvent::FirstPlayer, 2));
        assert_eq!(r.dice[0] == r.dice[1], i + 1 < s.dice.log.len(), "rolled again only while equal");
    }
    let last = &s.dice.log.last().unwrap().dice;
    assert_eq!(s.active, if last[0] > last[1] { Side::Blue } else { Side::Red });
}

#[test]
fn maurice_n3_shuffles_are_fisher_yates_from_the_cards_stream() {
    for seed in [0, 1, 77] {
        let mut rng = stream(seed, CARDS_STREAM);
        let mut cards = playable_cards();
        draw::shuffle(&mut rng, &mut cards);
        let mut rest: Vec<Card> = cards[12..].to_vec();
        rest.extend([Card::Reshuffle; 2]);
        draw::shuffle(&mut rng, &mut rest);
        let s = maurice::new_game(seed, &Setup::default()).unwrap();
        assert_eq!(s.deck, rest, "seed {seed}");
        let mut blue: Vec<Card> = (0..6).map(|i| cards[2 * i]).collect();
        blue.sort();
        assert_eq!(s.army(Side::Blue).hand.cards(), blue);
    }
    // The generic helper is the rule's Fisher–Yates: i from n − 1 down to 1, j uniform in [0, i].
    let mut rng = stream(3, CARDS_STREAM);
    let mut mine = stream(3, CARDS_STREAM);
    let mut a: Vec<u32> = (0..20).collect();
    let mut b = a.clone();
    draw::shuffle(&mut rng, &mut a);
    for i in (1..b.len()).rev() {
        let j = draw::below(&mut mine, i as u32 + 1) as usize;
        b.swap(i, j);
    }
    assert_eq!(a, b);
}
