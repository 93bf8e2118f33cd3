//! D1 `search` as the Resistance before the skirmishes: the table of attack values it reads
//! (`attack_values`) and the guesses and attack it derives from it (`intel`).

use maquis::dday::agents::attack_values::{
    all_zone_contents, allocation_with, attack_value, measure, ZoneContents, CONTENTS, GAMES, WIN,
};
use maquis::dday::agents::heuristic::consistent_allocations;
use maquis::dday::agents::intel::{best_attack, best_guess};
use maquis::dday::agents::view::View;
use maquis::dday::agents::{Agent, HeuristicAgent};
use maquis::dday::allocation::zone_value;
use maquis::dday::{self, legal_mask, observation, Action, Mask, Outcome, Phase, Scenario, Side};

#[test]
fn dday_attack_values_cover_every_pair_of_contents_that_can_meet() {
    assert_eq!(CONTENTS.to_vec(), all_zone_contents(), "the table's contents are G1's, sorted");
    const { assert!(GAMES >= 1000) };
    for (i, a) in CONTENTS.iter().enumerate() {
        for (j, b) in CONTENTS.iter().enumerate() {
            assert_eq!(WIN[i][j], WIN[j][i], "symmetric");
            let meet = allocation_with(a, b).is_some();
            assert_eq!(attack_value(a, b).is_some(), meet, "{a:?} {b:?}");
            if meet {
                assert!((0.0..=1.0).contains(&WIN[i][j]));
            }
        }
    }
    assert_eq!(attack_value(&[0, 0, 0, 0, 0], &CONTENTS[0]), None, "an empty zone is no content");
}

#[test]
fn dday_attack_values_agree_with_a_fresh_measurement() {
    // Other deals than the table's: each value within 0.1 (about four standard errors at 300
    // games). Fails if the engine, the heuristic or the table drift apart.
    let pairs: [(ZoneContents, ZoneContents); 4] = [
        ([0, 1, 0, 0, 1], [1, 0, 0, 1, 1]), // goods + gendarme, squad + vip + gendarme
        ([0, 0, 0, 0, 2], [1, 0, 1, 0, 0]), // two gendarmes (no train), squad + passenger
        ([1, 1, 0, 0, 0], [1, 0, 1, 0, 0]), // squad + goods, squad + passenger
        ([0, 1, 0, 0, 1], [0, 0, 0, 0, 3]),
    ];
    for (a, b) in pairs {
        let fresh = measure(&allocation_with(&a, &b).unwrap(), 300, 123_456).unwrap();
        let tabled = attack_value(&a, &b).unwrap();
        assert!((fresh - tabled).abs() < 0.1, "{a:?} {b:?}: tabled {tabled}, measured now {fresh}");
    }
    // The table tells a soft target from a hard one.
    let soft = attack_value(&[0, 1, 0, 0, 1], &[1, 0, 0, 1, 1]).unwrap();
    let hard = attack_value(&[1, 0, 0, 0, 2], &[1, 1, 0, 0, 0]).unwrap();
    assert!(soft > hard + 0.1, "goods+gendarme and vip {soft} vs two squads without a good train {hard}");
}

/// The heuristic, with `intel`'s guesses and attack.
struct Informed(HeuristicAgent);

impl Agent<Mask> for Informed {
    fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        let v = View::decode(obs);
        let chosen = match v.phase {
            Phase::Interrogation => best_guess(&v, mask),
            Phase::Attack => best_attack(&v),
            _ => None,
        };
        chosen.and_then(Action::index).filter(|&i| mask.get(i)).unwrap_or_else(|| self.0.act(obs, mask))
    }
}

fn resistance_wins(deals: std::ops::Range<u64>, mut resistance: impl FnMut(u64) -> Box<dyn Agent<Mask>>) -> u32 {
    let mut wins = 0;
    for seed in deals {
        let mut s = dday::new_game(seed, &Scenario::default()).unwrap();
        let mut res = resistance(seed);
        let mut ger = HeuristicAgent::new(seed ^ 0x2222);
        while let Some(side) = s.to_move() {
            let (obs, mask) = (observation(&s, side), legal_mask(&s));
            let a = if side == Side::Resistance { res.act(&obs, &mask) } else { ger.act(&obs, &mask) };
            assert!(mask.get(a));
            dday::apply(&mut s, a as i64).unwrap();
        }
        wins += u32::from(s.outcome == Some(Outcome::Resistance));
    }
    wins
}

#[test]
fn dday_search_guesses_and_attack_beat_the_heuristics_on_the_same_deals() {
    // Fixed deals, so this is exact, not a sample: the informed Resistance wins more of 2,000
    // games against the heuristic German than the heuristic Resistance does.
    let deals = 20_000..22_000;
    let plain = resistance_wins(deals.clone(), |seed| Box::new(HeuristicAgent::new(seed ^ 0x1111)));
    let informed = resistance_wins(deals, |seed| Box::new(Informed(HeuristicAgent::new(seed ^ 0x1111))));
    assert!(informed > plain + 20, "informed {informed} vs heuristic {plain} wins of 2000");
}

#[test]
fn dday_search_never_asks_what_it_already_knows() {
    // A guess whose answer every consistent allocation agrees on is worth nothing: `best_guess`
    // never picks one, and uses its guesses only while one raises the attack's value.
    let mut asked = 0;
    for seed in 0..40 {
        let mut s = dday::new_game(seed, &Scenario::default()).unwrap();
        let mut agents = [HeuristicAgent::new(seed), HeuristicAgent::new(seed + 1)];
        while s.phase != Phase::Attack {
            let side = s.to_move().unwrap();
            let (obs, mask) = (observation(&s, side), legal_mask(&s));
            let mut a = agents[side.idx()].act(&obs, &mask);
            if s.phase == Phase::Interrogation {
                let v = View::decode(&obs);
                if let Some(Action::Guess(zone, value)) = best_guess(&v, &mask) {
                    let answers: std::collections::BTreeSet<_> = consistent_allocations(&v)
                        .iter()
                        .map(|w| zone_value(&w[zone.idx()]).cmp(&value))
                        .collect();
                    assert!(answers.len() > 1, "seed {seed}: guess {zone:?} {value} has a known answer");
                    a = Action::Guess(zone, value).index().unwrap();
                    asked += 1;
                }
            }
            dday::apply(&mut s, a as i64).unwrap();
        }
        // Whatever was asked, the attack is a legal one.
        let v = View::decode(&observation(&s, Side::Resistance));
        let attack = best_attack(&v).and_then(Action::index).unwrap();
        assert!(legal_mask(&s).get(attack));
    }
    assert!(asked > 100, "the guesses are used: {asked} in 40 games");
}
