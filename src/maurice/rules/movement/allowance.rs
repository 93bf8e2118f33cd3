//! M1, M6: movement allowances.

use crate::maurice::ids::{Formation, Side, UnitType};
use crate::maurice::state::{Mode, State, Unit};

/// M1: the basic allowance, by type and formation at the start of the round (`art`: 8).
pub fn basic(u: &Unit) -> i32 {
    match (u.kind, u.round_formation) {
        (UnitType::Inf, Formation::Column) => 12,
        (UnitType::Inf, _) => 4,
        (UnitType::Cav, Formation::Column) => 16,
        (UnitType::Cav, _) => 8,
        (UnitType::Art, _) => 8,
    }
}

/// M1: the allowance of a unit that has been near the enemy (`art`: when it ends near, M9).
pub const NEAR: i32 = 4;
/// M1, M6, M9: `art` after difficult terrain, or ending near the enemy.
pub const ART_LIMITED: i32 = 2;

/// K8: the `march` modifiers of this round — +2 for the active side's card, −2 for the passive's.
pub fn march_modifier(s: &State) -> i32 {
    let played = |side: Side| s.round.modifiers[side.idx()][1].is_some();
    2 * (played(s.active) as i32 - played(s.passive()) as i32)
}

/// M6: the allowance of an `inf`/`cav` move given whether it has been near the enemy and its mode.
pub fn allowance(s: &State, u: &Unit, near: bool, mode: Option<Mode>) -> i32 {
    if u.kind == UnitType::Art {
        return basic(u) + march_modifier(s);
    }
    let mut a = if near { NEAR } else { basic(u) };
    if mode == Some(Mode::Retrograde) {
        a = (a + 1) / 2;
    }
    (a + march_modifier(s)).max(0)
}
