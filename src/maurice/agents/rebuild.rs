//! A full game state rebuilt from one side's observation and a deal of the cards it cannot see —
//! the determinization of the search (D1 `search`). Only for the decisions that open a round
//! (`volley_choice`, `command`), where the round state is what the observation shows; fresh dice
//! and shuffles come from `seed`.

use super::view::{count, View, INTERRUPT, MODIFIERS, NIGHT, PLANES};
use crate::maurice::cards::{Card, CardCounts, PLAYABLE};
use crate::maurice::grid::Cell;
use crate::maurice::ids::{Phase, ScenarioId, Side, TerrainType, HEIGHT, MAX_UNITS, WIDTH};
use crate::maurice::state::{Army, Pending, Round, State, Unit};
use crate::maurice::streams::{Dice, Shuffler};
use crate::maurice::terrain::Terrain;
use crate::draw;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// The terrain of the observation's maps (a full observation).
pub fn terrain(obs: &[f32]) -> Option<Terrain> {
    let cells = WIDTH * HEIGHT;
    let planes = obs.get(PLANES..PLANES + 7 * cells)?;
    let mut t = Terrain::open();
    for i in 0..cells {
        let on = |p: usize| planes[p * cells + i] > 0.5;
        let kind = [TerrainType::Woods, TerrainType::Rough, TerrainType::Marsh, TerrainType::Lake]
            .into_iter()
            .enumerate()
            .find(|&(p, _)| on(p))
            .map_or(TerrainType::Open, |(_, k)| k);
        if kind != TerrainType::Open {
            t.set_kind(Cell::from_index(i), kind);
        }
        t.hill[i] = on(4);
        t.wall_n[i] = on(5);
        t.wall_e[i] = on(6);
    }
    Some(t)
}

/// The cards `v`'s side cannot place: every card but its hand, the discard pile and the removed
/// `reshuffle` cards (playable ones, then the `reshuffle` cards still in the deck).
pub fn unseen(v: &View) -> (Vec<Card>, usize) {
    let mut out = Vec::new();
    for c in Card::playable() {
        let seen = v.hand[c.idx()] + v.discard[c.idx()];
        out.extend(std::iter::repeat_n(c, c.copies().saturating_sub(seen) as usize));
    }
    (out, 2usize.saturating_sub(v.removed as usize))
}

/// A deal of the unseen cards: the opponent's hand of its known size, the deck (shuffled).
/// None when the observation's counts do not add up.
pub fn deal(v: &View, rng: &mut ChaCha8Rng) -> Option<(Vec<Card>, Vec<Card>)> {
    let (mut playable, reshuffles) = unseen(v);
    let theirs = v.hand_sizes[1] as usize;
    if playable.len() < theirs || playable.len() + reshuffles != theirs + v.deck_size as usize {
        return None;
    }
    draw::shuffle(rng, &mut playable);
    let hand = playable[..theirs].to_vec();
    let mut deck = playable[theirs..].to_vec();
    deck.extend(std::iter::repeat_n(Card::Reshuffle, reshuffles));
    draw::shuffle(rng, &mut deck);
    Some((hand, deck))
}

fn counts(cards: impl IntoIterator<Item = Card>) -> CardCounts {
    let mut c = CardCounts::default();
    cards.into_iter().for_each(|x| c.add(x));
    c
}

/// The state `v` (with its raw row `obs`, full) describes, with `their_hand` and `deck` as the
/// hidden cards and the streams seeded with `seed`. None outside the round-opening decisions.
pub fn rebuild(v: &View, obs: &[f32], terrain: &Arc<Terrain>, their_hand: &[Card], deck: Vec<Card>, seed: u64) -> Option<State> {
    if !matches!(v.phase, Phase::VolleyChoice | Phase::Command) || v.active != v.me {
        return None;
    }
    let sides = [v.me, v.me.other()];
    let army = |block: usize| {
        let side = sides[block];
        let mut units = [Unit::ABSENT; MAX_UNITS];
        for u in &v.units[block] {
            let mut unit = Unit::placed(u.id, side, u.kind, u.formation, u.at, u.facing);
            unit.disr = u.disr;
            unit.smoke = u.smoke;
            unit.fired = u.fired;
            units[u.id as usize] = unit;
        }
        let hand = if block == 0 {
            CardCounts(v.hand)
        } else {
            counts(their_hand.iter().copied())
        };
        Army {
            units,
            cinc: v.cinc[block],
            morale: v.morale[block] as u8,
            morale_start: v.morale_start[block] as u8,
            hand,
            drawn: if block == 0 { CardCounts(v.hand_new) } else { CardCounts::default() },
            displaced: obs[super::view::CINC + 4 + block] > 0.5,
        }
    };
    let (mine, theirs) = (army(0), army(1));
    let armies = if v.me == Side::Blue { [mine, theirs] } else { [theirs, mine] };
    let mut round = Round { volley: obs[super::view::VOLLEY] > 0.5, ..Round::default() };
    for (block, &side) in sides.iter().enumerate() {
        for which in 0..2 {
            let at = MODIFIERS + (2 * which + block) * PLAYABLE;
            round.modifiers[side.idx()][which] =
                obs[at..at + PLAYABLE].iter().position(|&x| x > 0.5).and_then(Card::from_idx);
        }
    }
    round.interrupt = [Card::UnexpectedDelay, Card::FirstFire, Card::RoughGoing]
        .into_iter()
        .enumerate()
        .find(|&(k, _)| obs[INTERRUPT + k] > 0.5)
        .map(|(_, c)| c);
    let mut discard = Vec::new();
    for c in Card::playable() {
        discard.extend(std::iter::repeat_n(c, v.discard[c.idx()] as usize));
    }
    let scenario = if v.morale_start[0] <= 4 { ScenarioId::Skirmish } else { ScenarioId::Standard };
    Some(State {
        scenario,
        terrain: terrain.clone(),
        armies,
        deck,
        discard,
        removed: vec![Card::Reshuffle; count(obs[super::view::REMOVED], 2) as usize],
        round_no: v.round,
        active: v.active,
        round,
        night_pass_last_round: obs[NIGHT] > 0.5,
        phase: v.phase,
        to_move: Some(v.me),
        pending: Pending::None,
        outcome: None,
        dice: Dice::new(seed, Vec::new()),
        shuffler: Shuffler::new(seed, Vec::new()),
    })
}
