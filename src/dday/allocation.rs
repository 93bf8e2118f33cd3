//! G1–G3: the German allocation. The 6,600 valid allocations are enumerated once as decision
//! sequences (the zone of each item in G2 order), in lexicographic order, which is the order of
//! their action indices. A step is legal iff some valid sequence extends the prefix (G3).

use super::ids::{Kind, Zone, ITEM_ORDER, NUM_ITEMS};
use std::sync::OnceLock;

/// The zone (index 0–4) of each item of `ITEM_ORDER`.
pub type Sequence = [u8; NUM_ITEMS];
/// Item counts per zone × kind (Z1 × Z2 order).
pub type Contents = [[u8; 5]; 5];

/// The contents of the zones after placing the first `n` items of `seq`.
pub fn contents(seq: &Sequence, n: usize) -> Contents {
    let mut c = [[0u8; 5]; 5];
    for (i, &z) in seq.iter().take(n).enumerate() {
        c[z as usize][ITEM_ORDER[i].idx()] += 1;
    }
    c
}

/// Z3: a zone's value, the sum of its items' values.
pub fn zone_value(zone: &[u8; 5]) -> u8 {
    Kind::ALL.iter().map(|k| zone[k.idx()] * k.value()).sum()
}

/// The zone's train, if any.
pub fn train(zone: &[u8; 5]) -> Option<Kind> {
    [Kind::Goods, Kind::Passenger, Kind::Vip].into_iter().find(|k| zone[k.idx()] > 0)
}

/// G1 for one zone.
fn zone_ok(z: &[u8; 5]) -> bool {
    let items: u8 = z.iter().sum();
    let trains = z[Kind::Goods.idx()] + z[Kind::Passenger.idx()] + z[Kind::Vip.idx()];
    let squads = z[Kind::Squad.idx()];
    (1..=3).contains(&items) && trains <= 1 && squads <= 1 && (squads == 1 || z[Kind::Gendarme.idx()] >= 1)
}

/// G1: all 11 items placed with Z2's quantities, every zone valid.
pub fn is_valid(c: &Contents) -> bool {
    Kind::ALL.iter().all(|k| c.iter().map(|z| z[k.idx()]).sum::<u8>() == k.quantity()) && c.iter().all(zone_ok)
}

/// G2's ordering condition: an item identical to the previous one goes to a zone ≥ its zone.
fn ordered(seq: &Sequence) -> bool {
    (1..NUM_ITEMS).all(|i| ITEM_ORDER[i] != ITEM_ORDER[i - 1] || seq[i] >= seq[i - 1])
}

/// G3: every valid allocation's decision sequence, in lexicographic order.
pub fn valid_sequences() -> &'static [Sequence] {
    static ALL: OnceLock<Vec<Sequence>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut out = Vec::new();
        let mut seq = [0u8; NUM_ITEMS];
        fill(&mut seq, 0, &mut out);
        out
    })
}

// Depth-first in zone order, so the output is sorted; prefixes that already break a zone's caps
// (more than 3 items, 2 trains, 2 squads) are cut early.
fn fill(seq: &mut Sequence, i: usize, out: &mut Vec<Sequence>) {
    if i == NUM_ITEMS {
        if is_valid(&contents(seq, NUM_ITEMS)) {
            out.push(*seq);
        }
        return;
    }
    let lo = if i > 0 && ITEM_ORDER[i] == ITEM_ORDER[i - 1] { seq[i - 1] } else { 0 };
    for z in lo..5 {
        seq[i] = z;
        let c = contents(seq, i + 1);
        let zc = &c[z as usize];
        let trains = zc[Kind::Goods.idx()] + zc[Kind::Passenger.idx()] + zc[Kind::Vip.idx()];
        if zc.iter().sum::<u8>() <= 3 && trains <= 1 && zc[Kind::Squad.idx()] <= 1 {
            fill(seq, i + 1, out);
        }
    }
}

/// The contents of every valid allocation, in `valid_sequences()` order.
pub fn valid_contents() -> &'static [Contents] {
    static ALL: OnceLock<Vec<Contents>> = OnceLock::new();
    ALL.get_or_init(|| valid_sequences().iter().map(|s| contents(s, NUM_ITEMS)).collect())
}

/// G3: may the item at position `prefix.len()` go to `zone`? (Some valid sequence extends it.)
pub fn step_is_legal(prefix: &[u8], zone: u8) -> bool {
    let n = prefix.len();
    if n >= NUM_ITEMS {
        return false;
    }
    let all = valid_sequences();
    let start = all.partition_point(|s| (&s[..n], s[n]) < (prefix, zone));
    all.get(start).is_some_and(|s| &s[..n] == prefix && s[n] == zone)
}

/// The decision sequence of a complete allocation given as contents, if it is valid (G1).
pub fn sequence_of(c: &Contents) -> Option<Sequence> {
    if !is_valid(c) {
        return None;
    }
    let mut seq = [0u8; NUM_ITEMS];
    let mut i = 0;
    for &k in Kind::ALL {
        for (z, zone) in c.iter().enumerate() {
            for _ in 0..zone[k.idx()] {
                seq[i] = z as u8;
                i += 1;
            }
        }
    }
    // Kind::ALL is the order of ITEM_ORDER's runs, so `seq` follows G2.
    debug_assert!(ordered(&seq));
    Some(seq)
}

/// `valid_allocations()` of API.md: every valid allocation as zone → items in G2 order.
pub fn valid_allocations() -> Vec<[Vec<Kind>; 5]> {
    valid_sequences().iter().map(|s| items_by_zone(&contents(s, NUM_ITEMS))).collect()
}

/// Zone → items (G2 order) of some contents.
pub fn items_by_zone(c: &Contents) -> [Vec<Kind>; 5] {
    std::array::from_fn(|z| Kind::ALL.iter().flat_map(|&k| std::iter::repeat_n(k, c[z][k.idx()] as usize)).collect())
}

/// Does the (possibly partial) sequence obey G2's ordering? Used when loading saves.
pub fn prefix_is_ordered(seq: &[u8]) -> bool {
    seq.iter().all(|&z| z < 5) && (1..seq.len()).all(|i| ITEM_ORDER[i] != ITEM_ORDER[i - 1] || seq[i] >= seq[i - 1])
}

/// Zone ids of the five zones as items.
pub fn zone(i: u8) -> Zone {
    Zone::ALL[i as usize]
}
