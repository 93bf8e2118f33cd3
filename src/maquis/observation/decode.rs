//! The decoder: a state consistent with an observation (the hidden deck order drawn at random).

use super::{obs_size, observation_layout};
use super::encode::{MISSION_A_NAMES, MISSION_STATE_NAMES, TILE_NAMES};
use crate::maquis::board::LocSet;
use crate::maquis::deck::NUM_CARDS;
use crate::maquis::ids::*;
use crate::maquis::state::{State, Tier};
use crate::maquis::tracks::TOKENS_PER_RESOURCE;

/// The slice called `name` of an observation.
fn part<'a>(obs: &'a [f32], name: &str) -> &'a [f32] {
    let &(_, off, len) = observation_layout().iter().find(|(n, _, _)| *n == name).expect("a layout name");
    &obs[off..off + len]
}

fn hot(v: &[f32]) -> Option<usize> {
    v.iter().position(|&x| x > 0.5)
}

fn set_of(v: &[f32]) -> LocSet {
    v.iter().enumerate().filter(|(_, &x)| x > 0.5).fold(0, |acc, (i, _)| acc | 1 << i)
}

fn count(x: f32, scale: f32) -> u8 {
    (x * scale).round() as u8
}

fn tokens(v: &[f32]) -> [u8; NUM_RESOURCES] {
    std::array::from_fn(|i| count(v[i], TOKENS_PER_RESOURCE as f32))
}

/// A state the player cannot tell apart from the real one, built from its observation alone:
/// the hidden deck order is drawn at random (`seed`), keeping the peeked top card, and the state's
/// RNG is fresh. This is how agents act on `(obs, mask)` and how search determinizes: whatever
/// the observation does not show cannot influence them.
pub fn state_from_observation(obs: &[f32], seed: u64) -> crate::Result<State> {
    use crate::maquis::board::{BRIDGE_NORTH, BRIDGE_SOUTH, FIELDS};
    use crate::maquis::deck::PatrolDeck;
    use crate::error::Error;
    use crate::maquis::state::{MissionState, Pending, Reward};
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

    if obs.len() != obs_size() {
        return Err(Error::BadOption(format!("an observation has {} values, got {}", obs_size(), obs.len())));
    }
    if obs.iter().any(|x| !x.is_finite() || *x < 0.0 || *x > 1.0) {
        return Err(Error::BadOption("observation values must lie in [0, 1]".into()));
    }
    let bad = |what: &str| Error::BadOption(format!("not a maquis observation: no {what}"));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let difficulty = Difficulty::from_idx(hot(part(obs, "difficulty")).ok_or_else(|| bad("difficulty"))?).unwrap();
    let mission_pool = MissionPool::from_idx(hot(part(obs, "mission_pool")).ok_or_else(|| bad("mission pool"))?).unwrap();
    let mut s = crate::maquis::rules::new_state(&crate::maquis::rules::Setup { difficulty, mission_pool, ..Default::default() }, seed)?;
    s.day = hot(part(obs, "day")).ok_or_else(|| bad("day"))? as u8;
    s.pass = 1 + (part(obs, "second_pass")[0] > 0.5) as u8;
    s.phase = Phase::from_idx(hot(part(obs, "phase")).ok_or_else(|| bad("phase"))?).unwrap();
    s.tracks.morale = hot(part(obs, "morale")).ok_or_else(|| bad("morale"))? as u8;
    s.tracks.soldiers = hot(part(obs, "soldiers")).ok_or_else(|| bad("soldiers"))? as u8;
    s.tokens.hand = tokens(part(obs, "hand"));
    s.tokens.supply = tokens(part(obs, "supply"));
    let workers = part(obs, "workers");
    (s.home, s.recruitable, s.gone) = (count(workers[0], 5.0), count(workers[3], 5.0), count(workers[4], 5.0));
    let patrols = part(obs, "patrols");
    (s.patrols_today, s.patrols_drawn) = (count(patrols[0], 5.0), count(patrols[1], 5.0));
    s.pawns = [Pawn::Empty; NUM_LOCATIONS];
    for (name, pawn) in [("pawn_worker", Pawn::Worker), ("pawn_milice", Pawn::Milice), ("pawn_soldier", Pawn::Soldier)] {
        for (i, &x) in part(obs, name).iter().enumerate() {
            if x > 0.5 {
                s.pawns[i] = pawn;
            }
        }
    }
    s.marks.stuck = set_of(part(obs, "stuck_worker"));
    s.marks.fake_ids = set_of(part(obs, "fake_id"));
    s.tokens.airdrop = [tokens(part(obs, "airdrop_field_w")), tokens(part(obs, "airdrop_field_e"))];
    let start = part(obs, "airdrop_at_day_start");
    s.tokens.airdrop_at_day_start = [start[0] > 0.5, start[1] > 0.5];
    s.marks.aa_guns = set_of(part(obs, "aa_gun"));
    s.marks.tagged = set_of(part(obs, "tagged"));
    s.marks.visited = set_of(part(obs, "visited"));
    s.marks.dark_lady = hot(part(obs, "dark_lady")).and_then(Location::from_idx);
    for (i, name) in TILE_NAMES.iter().enumerate() {
        s.marks.tiles[i] = hot(part(obs, name)).and_then(Tile::from_idx);
    }
    let closed = part(obs, "closed_roads");
    s.marks.bridges_destroyed = (closed[BRIDGE_NORTH] > 0.5) as u8 | ((closed[BRIDGE_SOUTH] > 0.5) as u8) << 1;
    let chosen = part(obs, "bridges_chosen");
    s.marks.bridges_chosen = (chosen[0] > 0.5) as u8 | ((chosen[1] > 0.5) as u8) << 1;
    for slot in 0..2 {
        let id = MissionId::from_idx(hot(part(obs, MISSION_A_NAMES[slot])).ok_or_else(|| bad("mission"))?).unwrap();
        let v = part(obs, MISSION_STATE_NAMES[slot]);
        let mut m = MissionState::new(id);
        m.boxes_done = count(v[1], 7.0);
        m.complete = v[2] > 0.5;
        m.failed = v[3] > 0.5;
        m.tier = if v[5] > 0.5 { Some(Tier::Major) } else if v[4] > 0.5 { Some(Tier::Success) } else { None };
        // Only "was a box done today" matters to the rules ("different days", "later day").
        let today = s.abs_day();
        m.last_box_day = match (v[6] > 0.5, m.boxes_done) {
            (true, _) => Some(today),
            (false, 0) => None,
            (false, _) => Some(today.wrapping_sub(1)),
        };
        s.missions[slot] = m;
    }
    if s.missions[0].id == s.missions[1].id {
        return Err(bad("two different missions"));
    }
    // The deck: the cards not in the discard, in a random order under the peeked top card.
    let discard = part(obs, "patrol_discard");
    let mut discarded: Vec<u8> = (0..NUM_CARDS as u8).filter(|&c| discard[c as usize] > 0.5).collect();
    discarded.shuffle(&mut rng);
    let mut deck: Vec<u8> = (0..NUM_CARDS as u8).filter(|&c| discard[c as usize] <= 0.5).collect();
    deck.shuffle(&mut rng);
    s.today.peek = hot(part(obs, "peek")).map(|c| c as u8);
    if let Some(p) = s.today.peek {
        if let Some(k) = deck.iter().position(|&c| c == p) {
            deck.swap(0, k);
        }
    }
    let mut d = PatrolDeck::from_order(&deck);
    d.discard[..discarded.len()].copy_from_slice(&discarded);
    s.deck = d;
    s.today.shot_today = part(obs, "shot_today")[0] > 0.5;
    s.today.distracted_today = part(obs, "distracted_today")[0] > 0.5;
    s.today.pending = hot(part(obs, "pending_location")).and_then(Location::from_idx).map(|loc| {
        let f = part(obs, "pending_reward");
        let on = |i: usize| f[i] > 0.5;
        let mut reward = Reward {
            tokens: tokens(part(obs, "pending_tokens")),
            airdrop_field: if on(6) { Some(FIELDS[0]) } else if on(7) { Some(FIELDS[1]) } else { None },
            morale: if on(0) { 1 } else if on(1) { -1 } else { 0 },
            recruit: on(2),
            mission_box: None,
            distract: on(4),
        };
        if on(3) {
            // Unsafe mission boxes: recon and bribe on their card's slot, records at rue_baradat.
            reward.mission_box = crate::maquis::board::slot_index(loc)
                .or_else(|| s.mission_slot(MissionId::MiliceHq))
                .map(|i| i as u8);
        }
        let any = reward != Reward::default();
        Pending { loc, reward: any.then_some(reward), with_mole: on(5) }
    });
    if s.phase == Phase::GameOver {
        s.outcome = Some(crate::maquis::rules::upkeep::outcome(&s));
    }
    crate::maquis::save::validate(&s).map_err(|e| Error::BadOption(format!("observation decodes to an impossible state: {e}")))?;
    Ok(s)
}
