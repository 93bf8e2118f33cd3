//! C7–C13: engagement, flanks, cover, outnumbering, the combat scores and their results.

use super::fall_back;
use crate::maurice::cards::Card;
use crate::maurice::grid::{touching_edge, Edge};
use crate::maurice::ids::{ChanceEvent, Formation, Side, TerrainType, UnitType, MAX_UNITS};
use crate::maurice::rules::morale::{add_disr, break_unit};
use crate::maurice::state::{State, Unit};

fn bits(b: u16) -> impl Iterator<Item = u8> {
    (0..MAX_UNITS as u8).filter(move |i| b >> i & 1 == 1)
}

/// C7: the enemy units attacker `a` engages, and through which file and row each cell.
fn engagements(s: &State, a: &Unit) -> Vec<(u8, i8, i8)> {
    let (w, _) = a.formation.size();
    let frame = a.frame();
    let mut out = Vec::new();
    for file in 0..w {
        let c1 = frame.cell(file, 1);
        if let Some(e) = s.unit_at(c1) {
            if e.side != a.side {
                out.push((e.id, file, 1));
            }
            continue;
        }
        if !c1.on_table() || s.terrain.is_lake(c1) {
            continue;
        }
        let c2 = frame.cell(file, 2);
        if let Some(e) = s.unit_at(c2).filter(|e| e.side != a.side) {
            out.push((e.id, file, 2));
        }
    }
    out
}

/// C7: records who is engaged with whom (attackers: the units that charged).
pub fn engage(s: &mut State) {
    let side = s.active;
    let mut engaged = [[0u16; MAX_UNITS]; 2];
    for a in bits(s.round.charged) {
        let au = *s.unit(side, a);
        if !au.on_table {
            continue;
        }
        for (d, _, _) in engagements(s, &au) {
            engaged[side.idx()][a as usize] |= 1 << d;
            engaged[side.other().idx()][d as usize] |= 1 << a;
        }
    }
    s.round.engaged = engaged;
}

/// C8: whether defender `d` is flanked: an attacker (a unit that charged) touches it across a
/// flank or the rear edge.
fn flanked(s: &State, d: &Unit) -> bool {
    bits(s.round.charged).filter(|&a| s.unit(d.side.other(), a).on_table).any(|a| {
        s.unit(d.side.other(), a).cells().iter().any(|&c| matches!(touching_edge(d.frame(), d.formation, c), Some(Edge::Flank | Edge::Rear)))
    })
}

/// C9: whether defender `d` has cover against attacker `a`.
fn has_cover(s: &State, a: &Unit, d: &Unit) -> bool {
    let t = &s.terrain;
    let frame = a.frame();
    let files: Vec<(i8, i8)> = engagements(s, a).into_iter().filter(|&(id, _, _)| id == d.id).map(|(_, f, r)| (f, r)).collect();
    !files.is_empty()
        && files.iter().all(|&(file, row)| {
            let cell = frame.cell(file, row);
            let wall = (0..row).any(|j| t.wall_between(frame.cell(file, j), frame.cell(file, j + 1)));
            t.kind(cell) == TerrainType::Woods || wall
        })
}

/// C11: the modified combat value of `u` (before the die), at least 0.
fn combat_value(s: &State, u: &Unit, attacker: bool) -> i32 {
    let t = &s.terrain;
    let side = u.side;
    let enemy = side.other();
    let engaged = s.round.engaged[side.idx()][u.id as usize];
    let enemies: Vec<&Unit> = bits(engaged).map(|i| s.unit(enemy, i)).collect();
    let mut v = u.kind.combat_value();
    if u.kind == UnitType::Inf && t.unit_level(u.cells()) == 1 && enemies.iter().all(|e| t.unit_level(e.cells()) == 0) {
        v += 1;
    }
    v -= u.disr as i32;
    if t.unit_in_difficult(u.cells()) {
        v -= 2;
    }
    if attacker && enemies.iter().any(|d| matches!(d.kind, UnitType::Inf | UnitType::Art) && has_cover(s, u, d)) {
        v -= 2;
    }
    let vulnerable = (matches!(u.kind, UnitType::Inf | UnitType::Cav) && u.formation == Formation::Column) || (!attacker && flanked(s, u));
    if vulnerable {
        v -= 6;
    }
    // C10: outnumbered by two or more enemy inf/cav units.
    let foot: Vec<&&Unit> = enemies.iter().filter(|e| matches!(e.kind, UnitType::Inf | UnitType::Cav)).collect();
    if foot.len() >= 2 {
        let only_me = foot.iter().filter(|e| s.round.engaged[enemy.idx()][e.id as usize] == 1 << u.id).count();
        v -= only_me as i32;
    }
    match s.round.modifiers[side.idx()][1] {
        Some(Card::Thunderous) if u.kind == UnitType::Cav => v += 2,
        Some(Card::ForTheKing) if s.round.king[side.idx()] == Some(u.id) => v += 2,
        Some(c) if c.symbol() == Some(crate::maurice::ids::CardMark::Charge) && !matches!(c, Card::Thunderous | Card::ForTheKing) => v += 1,
        _ => {}
    }
    v.max(0)
}

/// C11–C13, then C14: rolls, resolves the defenders then the attackers, then the fall backs.
pub fn fight(s: &mut State) {
    let att_side = s.active;
    let def_side = att_side.other();
    let engaged_ids = |side: Side, s: &State| -> Vec<u8> {
        (0..MAX_UNITS as u8).filter(|&i| s.round.engaged[side.idx()][i as usize] != 0).collect()
    };
    let defenders = engaged_ids(def_side, s);
    let attackers = engaged_ids(att_side, s);
    let values: Vec<(Side, u8, i32)> = defenders
        .iter()
        .map(|&d| (def_side, d, combat_value(s, s.unit(def_side, d), false)))
        .chain(attackers.iter().map(|&a| (att_side, a, combat_value(s, s.unit(att_side, a), true))))
        .collect();
    if !values.is_empty() {
        let dice = s.dice.roll(ChanceEvent::Combat, values.len()).to_vec();
        for (&(side, id, v), d) in values.iter().zip(dice) {
            s.round.scores[side.idx()][id as usize] = Some(v + d as i32);
        }
    }
    let score = |s: &State, side: Side, id: u8| s.round.scores[side.idx()][id as usize].unwrap_or(0);
    // C12: defenders.
    for &d in &defenders {
        let sd = score(s, def_side, d);
        let best = bits(s.round.engaged[def_side.idx()][d as usize]).map(|a| score(s, att_side, a)).max().unwrap_or(0);
        if best >= 2 * sd {
            break_unit(s, def_side, d);
        } else if best > sd {
            add_disr(s, def_side, d, 2);
        } else {
            add_disr(s, def_side, d, 1);
        }
        if s.is_over() {
            return;
        }
    }
    // C13: attackers still on the table.
    for &a in &attackers {
        if !s.unit(att_side, a).on_table {
            continue;
        }
        let t = score(s, att_side, a);
        let beaten = bits(s.round.engaged[att_side.idx()][a as usize]).any(|d| s.unit(def_side, d).on_table && score(s, def_side, d) >= t);
        add_disr(s, att_side, a, if beaten { 2 } else { 1 });
        if s.is_over() {
            return;
        }
    }
    fall_back::fall_backs(s, 0);
}
