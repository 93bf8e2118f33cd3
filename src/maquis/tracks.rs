//! T1–T5. Tracks and supply as constants.

/// T1. Days are 0 (START) … 14; 15 is END.
pub const LAST_DAY: u8 = 14;
pub const END_DAY: u8 = 15;
/// E2. Tricky, Hard and Very Hard end when the marker moves onto 12.
pub const SHORT_END_DAY: u8 = 12;
/// T1. Orange days cost 1 morale when the marker moves onto them.
pub const ORANGE_DAYS: [u8; 5] = [3, 6, 9, 12, 14];
/// T1. Triangle days (the 2013 "red outline"): Hard and Very Hard lose morale here instead.
pub const TRIANGLE_DAYS: [u8; 5] = [2, 5, 8, 10, 12];

/// T2. Morale 0 (FAIL) … 7, starting at 6.
pub const MAX_MORALE: u8 = 7;
pub const START_MORALE: u8 = 6;
/// T2. Minimum patrols for each morale (index = morale; 0 is never used, the game is over).
pub const MIN_PATROLS: [u8; 8] = [5, 5, 4, 4, 4, 3, 3, 2];

/// T3. Soldier track 0 … 5.
pub const MAX_SOLDIERS: u8 = 5;

/// T4. Four tokens of each resource.
pub const TOKENS_PER_RESOURCE: u8 = 4;

/// T5. Five workers: three in the Safe House, two recruitable (Tricky and harder: two and two, the fifth does not exist).
pub const MAX_WORKERS: u8 = 5;

pub fn is_orange(day: u8) -> bool {
    ORANGE_DAYS.contains(&day)
}
pub fn is_triangle(day: u8) -> bool {
    TRIANGLE_DAYS.contains(&day)
}
