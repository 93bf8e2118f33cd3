//! Helpers shared by the D-Day tests: scenario building, action lookup by name, random play.
#![allow(dead_code)]

use maquis::dday::agents::{Agent, AnyAgent};
use maquis::dday::{self, action_from_str, Kind, Scenario, State, Zone};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The index of a canonical action name (panics on a typo: a test bug).
pub fn idx(name: &str) -> usize {
    action_from_str(name).unwrap_or_else(|e| panic!("{e}"))
}

pub fn legal(s: &State, name: &str) -> bool {
    dday::legal_mask(s).get(idx(name))
}

/// Applies named actions in order, panicking with the state on an illegal one.
pub fn play(s: &mut State, names: &[&str]) {
    for n in names {
        dday::apply(s, idx(n) as i64).unwrap_or_else(|e| panic!("{n}: {e}\nphase {:?}", s.phase));
    }
}

use Kind::*;
use Zone::*;

/// A standard allocation: caen squad+vip, bayeux squad+passenger, lison squad+goods,
/// saint_lo goods+gendarme, avranches 3 gendarmes.
pub fn standard_allocation() -> [[u8; 5]; 5] {
    Scenario::contents_of(&[
        (Caen, &[Squad, Vip]),
        (Bayeux, &[Squad, Passenger]),
        (Lison, &[Squad, Goods]),
        (SaintLo, &[Goods, Gendarme]),
        (Avranches, &[Gendarme, Gendarme, Gendarme]),
    ])
}

/// A scenario at the first skirmish's group-size decision with the given dice.
pub fn skirmish(attack: [Zone; 2], first: Zone, dice: &[u8]) -> Scenario {
    Scenario { allocation: Some(standard_allocation()), attack: Some(attack), first: Some(first), dice: dice.to_vec() }
}

pub fn start(sc: &Scenario) -> State {
    dday::new_game(1, sc).unwrap_or_else(|e| panic!("{e}"))
}

/// A uniformly random legal action.
pub fn random_action(s: &State, rng: &mut ChaCha8Rng) -> usize {
    let m = dday::legal_mask(s);
    let k = rng.gen_range(0..m.count());
    m.nth(k).expect("a legal action")
}

/// Plays a whole random game from `s`, calling `each` before every action.
pub fn random_game(mut s: State, seed: u64, mut each: impl FnMut(&State, usize)) -> State {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while !s.is_over() {
        let a = random_action(&s, &mut rng);
        each(&s, a);
        dday::apply(&mut s, a as i64).unwrap_or_else(|e| panic!("{e}"));
    }
    s
}

/// caen (squad) attacked with avranches, caen first; the Resistance (9) has moved figure 0 to
/// section 3, the German one squad figure to 5; now the Resistance's second turn, 12 AP, task
/// section 2. The scripted dice then run out after the next two (to hit 6, save 1).
pub fn f1_position() -> State {
    let dice = [
        6, 3, 6, 6, /* clock */ 1, /* squad AP */ 6, 6, /* clock */ 1, /* AP */ 6, 6,
        /* hit */ 6, /* save */ 1,
    ];
    let mut s = start(&skirmish([Zone::Caen, Zone::Avranches], Zone::Caen, &dice));
    play(&mut s, &["keep", "activate:resistance:1:standing", "move:2", "move:3", "end_turn", "keep"]);
    play(&mut s, &["keep", "activate:squad:6:standing", "move:5", "end_turn", "keep"]);
    play(&mut s, &["activate:resistance:3:standing"]);
    s
}

/// The dice of `f1_position` up to the Resistance's second-turn AP, then `tail`.
pub fn f1_with(tail: &[u8]) -> State {
    let mut dice = vec![6, 3, 6, 6, 1, 6, 6, 1, 6, 6];
    dice.extend_from_slice(tail);
    let mut s = start(&skirmish([Zone::Caen, Zone::Avranches], Zone::Caen, &dice));
    play(&mut s, &["keep", "activate:resistance:1:standing", "move:2", "move:3", "end_turn", "keep"]);
    play(&mut s, &["keep", "activate:squad:6:standing", "move:5", "end_turn", "keep"]);
    play(&mut s, &["activate:resistance:3:standing"]);
    s
}

/// The names of the dice log's events, in order.
pub fn events(s: &State) -> Vec<&'static str> {
    s.dice.log.iter().map(|r| r.event.as_str()).collect()
}

/// Game `seed` played to its end by `agents` (Resistance, German), twice from the same agents:
/// every decision asked (RULES Q0 since its ruling of 2026-11-28), and the allocation steps with
/// one legal zone taken without asking (the engine's way before that ruling). Returns each way's
/// final save and agents (`forced_allocation_steps` counts the steps taken without asking).
pub fn asked_and_unasked(seed: u64, agents: &[AnyAgent; 2]) -> [(String, [AnyAgent; 2]); 2] {
    let mut out = Vec::new();
    for ask_forced in [true, false] {
        let mut s = dday::new_game(seed, &Scenario::default()).unwrap();
        let mut agents = agents.clone();
        while let Some(side) = s.to_move() {
            let mask = dday::legal_mask(&s);
            let a = if !ask_forced && s.phase == dday::Phase::Allocation && mask.count() == 1 {
                mask.iter().next().unwrap()
            } else {
                agents[side.idx()].act(&dday::observation(&s, side), &mask)
            };
            dday::apply(&mut s, a as i64).unwrap();
        }
        out.push((dday::save_state(&s), agents));
    }
    [out.remove(0), out.remove(0)]
}

/// How many of game `seed`'s allocation steps had one legal zone when `agents` played it.
pub fn forced_allocation_steps(seed: u64, agents: &[AnyAgent; 2]) -> usize {
    let mut s = dday::new_game(seed, &Scenario::default()).unwrap();
    let mut agents = agents.clone();
    let mut forced = 0;
    while s.phase == dday::Phase::Allocation {
        let mask = dday::legal_mask(&s);
        forced += usize::from(mask.count() == 1);
        let a = agents[1].act(&dday::observation(&s, dday::Side::German), &mask);
        dday::apply(&mut s, a as i64).unwrap();
    }
    forced
}
