//! Identifiers of the D-Day RULES.md (U1–U5, Z1, Z2, N2, V2, V3) as `#[repr(u8)]` enums. `as_str()`
//! is the spec id, `parse()` its inverse, `ALL` lists them in the spec's order (the order of
//! observations and action names).

use crate::id_enum::id_enum;

id_enum!(
    /// U1. The two sides; gendarmes belong to `german`.
    Side, "side", [Resistance = "resistance", German = "german"]);

impl Side {
    pub const fn other(self) -> Side {
        match self {
            Side::Resistance => Side::German,
            Side::German => Side::Resistance,
        }
    }
}

id_enum!(
    /// Z1. The five rail zones; the number (index + 1) fixes every zone order.
    Zone, "zone", [Caen = "caen", Bayeux = "bayeux", Lison = "lison", SaintLo = "saint_lo",
    Avranches = "avranches"]);

id_enum!(
    /// Z2. The German's item kinds.
    Kind, "item", [Squad = "squad", Goods = "goods", Passenger = "passenger", Vip = "vip",
    Gendarme = "gendarme"]);

impl Kind {
    /// Z2 value.
    pub const fn value(self) -> u8 {
        match self {
            Kind::Squad => 3,
            Kind::Goods => 4,
            Kind::Passenger => 5,
            Kind::Vip => 6,
            Kind::Gendarme => 1,
        }
    }
    /// Z2 quantity.
    pub const fn quantity(self) -> u8 {
        match self {
            Kind::Squad => 3,
            Kind::Goods => 2,
            Kind::Passenger | Kind::Vip => 1,
            Kind::Gendarme => 4,
        }
    }
    pub const fn is_train(self) -> bool {
        matches!(self, Kind::Goods | Kind::Passenger | Kind::Vip)
    }
}

/// G2. The fixed order in which the German places his 11 items.
pub const ITEM_ORDER: [Kind; 11] = [
    Kind::Squad,
    Kind::Squad,
    Kind::Squad,
    Kind::Goods,
    Kind::Goods,
    Kind::Passenger,
    Kind::Vip,
    Kind::Gendarme,
    Kind::Gendarme,
    Kind::Gendarme,
    Kind::Gendarme,
];
pub const NUM_ITEMS: usize = ITEM_ORDER.len();

id_enum!(
    /// U3. Units: all Resistance figures, the squad, and one unit per gendarme item.
    Unit, "unit", [Resistance = "resistance", Squad = "squad", Gendarme1 = "gendarme_1",
    Gendarme2 = "gendarme_2", Gendarme3 = "gendarme_3"]);

impl Unit {
    pub const fn side(self) -> Side {
        match self {
            Unit::Resistance => Side::Resistance,
            _ => Side::German,
        }
    }
    /// The k-th gendarme unit (k = 0, 1, 2).
    pub const fn gendarme(k: usize) -> Unit {
        match k {
            0 => Unit::Gendarme1,
            1 => Unit::Gendarme2,
            _ => Unit::Gendarme3,
        }
    }
}

id_enum!(
    /// U4. Figure states; `standing` and `in_cover` are the fighting ones.
    FigState, "figure state", [Standing = "standing", InCover = "in_cover", Casualty = "casualty",
    Evacuated = "evacuated", RanAway = "ran_away", Killed = "killed"]);

impl FigState {
    pub const fn is_fighting(self) -> bool {
        matches!(self, FigState::Standing | FigState::InCover)
    }
}

/// The two states a choice (`activate`, `hit`, `flee`) can name, in API order.
pub const CHOICE_STATES: [FigState; 2] = [FigState::Standing, FigState::InCover];

id_enum!(
    /// U5. The kind of decision pending (Q1).
    Phase, "phase", [Allocation = "allocation", Interrogation = "interrogation", Attack = "attack",
    Order = "order", GroupSize = "group_size", Morale = "morale", ActionPoints = "action_points",
    Actions = "actions", Hit = "hit", Clock = "clock", Scoring = "scoring", GameOver = "game_over"]);

id_enum!(
    /// N2. Chance events: every roll of the dice log is one of these.
    ChanceEvent, "chance event", [GroupSize = "group_size", TaskSection = "task_section",
    Morale = "morale", ActionPoints = "action_points", ToHit = "to_hit", Save = "save",
    Rescue = "rescue", Task = "task", Clock = "clock", Vp = "vp"]);

id_enum!(
    /// V2, V3. Victory-point lines, German's then the Resistance's.
    VpLine, "vp line", [GermanTask = "german_task", ResistanceLost = "resistance_lost",
    NoTrain = "no_train", MissingDigits = "missing_digits", SquadPresent = "squad_present",
    ResistanceTask = "resistance_task", Train = "train", GermansKilled = "germans_killed"]);

impl VpLine {
    /// The side a line scores for.
    pub const fn side(self) -> Side {
        match self {
            VpLine::ResistanceTask | VpLine::Train | VpLine::GermansKilled => Side::Resistance,
            _ => Side::German,
        }
    }
}

id_enum!(
    /// I2. The German's (computed) answer to a guess.
    Answer, "answer", [TooHigh = "too_high", TooLow = "too_low", Correct = "correct"]);

id_enum!(
    /// A1, A3. Action-point pools.
    Pool, "pool", [Resistance = "resistance", Squad = "squad", Gendarme1 = "gendarme_1",
    Gendarme2 = "gendarme_2", Gendarme3 = "gendarme_3", Shared = "shared"]);

impl Pool {
    /// The unit's own pool (the German's `shared` pool is chosen by the caller).
    pub const fn of_unit(u: Unit) -> Pool {
        match u {
            Unit::Resistance => Pool::Resistance,
            Unit::Squad => Pool::Squad,
            Unit::Gendarme1 => Pool::Gendarme1,
            Unit::Gendarme2 => Pool::Gendarme2,
            Unit::Gendarme3 => Pool::Gendarme3,
        }
    }
}

id_enum!(
    /// E3. The result of a finished game.
    Outcome, "outcome", [Resistance = "resistance", German = "german", Draw = "draw"]);

/// U2. Sections of the skirmish table: 1 (Resistance end) … 6 (German end).
pub const SECTIONS: u8 = 6;
/// I1. The Resistance's guesses.
pub const GUESSES: u8 = 7;
/// L1. The clock's start.
pub const CLOCK_START: i16 = 30;
