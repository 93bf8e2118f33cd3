//! Identifiers of the Maurice Lite RULES.md (U1–U8, S2–S4, N2) as `#[repr(u8)]` enums, and the
//! sizes of API.md. `as_str()` is the spec id, `parse()` its inverse, `ALL` the spec's order (the
//! order of observations and action names).

use crate::id_enum::id_enum;

/// G1: the table is 45 cells west to east …
pub const WIDTH: usize = 45;
/// … and 30 cells south to north.
pub const HEIGHT: usize = 30;
/// U2: unit ids 0–15 per side.
pub const MAX_UNITS: usize = 16;
/// K1: the stand-in deck.
pub const DECK_SIZE: usize = 40;
/// API.md "Actions".
pub const NUM_ACTIONS: usize = 1447;
/// API.md "Observation": the full vector, with the maps …
pub const OBSERVATION_SIZE: usize = 21334;
/// … and the compact one, which stops before them.
pub const COMPACT_OBSERVATION_SIZE: usize = 1084;
/// K4: the most cards a side may end a round with.
pub const HAND_LIMIT: usize = 10;

id_enum!(
    /// U1. `blue` deploys at the south edge, `red` at the north.
    Side, "side", [Blue = "blue", Red = "red"]);

impl Side {
    pub const fn other(self) -> Side {
        match self {
            Side::Blue => Side::Red,
            Side::Red => Side::Blue,
        }
    }
}

id_enum!(
    /// U2. Unit types.
    UnitType, "unit type", [Inf = "inf", Cav = "cav", Art = "art"]);

impl UnitType {
    /// S1: bases per unit, which is also the most DISR it can hold (X1).
    pub const fn bases(self) -> u8 {
        match self {
            UnitType::Inf | UnitType::Cav => 4,
            UnitType::Art => 1,
        }
    }
    /// S1: combat value.
    pub const fn combat_value(self) -> i32 {
        match self {
            UnitType::Inf | UnitType::Cav => 6,
            UnitType::Art => 1,
        }
    }
    /// S1: the least die (after modifiers) that removes a DISR in a rally.
    pub const fn rally_on(self) -> i32 {
        match self {
            UnitType::Inf => 4,
            UnitType::Cav | UnitType::Art => 5,
        }
    }
    /// S1: the DISR at which the unit breaks (one more than its bases).
    pub const fn broken_at(self) -> u8 {
        self.bases() + 1
    }
    /// S1: whether the type may take this formation.
    pub const fn allows(self, f: Formation) -> bool {
        matches!(
            (self, f),
            (UnitType::Inf, Formation::Line | Formation::Column)
                | (UnitType::Cav, Formation::Line | Formation::Column | Formation::Massed)
                | (UnitType::Art, Formation::Artillery)
        )
    }
}

id_enum!(
    /// U3. Formations.
    Formation, "formation", [Line = "line", Column = "column", Massed = "massed", Artillery = "artillery"]);

impl Formation {
    /// G3: (width, depth) of the footprint.
    pub const fn size(self) -> (i8, i8) {
        match self {
            Formation::Line => (4, 1),
            Formation::Column => (1, 4),
            Formation::Massed => (2, 2),
            Formation::Artillery => (1, 1),
        }
    }
}

id_enum!(
    /// U4. Facings; G2 gives their vectors and turns.
    Facing, "facing", [N = "n", E = "e", S = "s", W = "w"]);

id_enum!(
    /// U5. Terrain types of a cell (the level and the walls are apart).
    TerrainType, "terrain", [Open = "open", Woods = "woods", Rough = "rough", Marsh = "marsh", Lake = "lake"]);

impl TerrainType {
    /// T1, T2: woods, rough and marsh are difficult.
    pub const fn is_difficult(self) -> bool {
        matches!(self, TerrainType::Woods | TerrainType::Rough | TerrainType::Marsh)
    }
    /// The character of the RULES.md S3 map and of the `terrain` reset option.
    pub const fn symbol(self) -> char {
        match self {
            TerrainType::Open => '.',
            TerrainType::Woods => 'T',
            TerrainType::Rough => '%',
            TerrainType::Marsh => '~',
            TerrainType::Lake => '#',
        }
    }
    pub fn from_symbol(c: char) -> Option<TerrainType> {
        TerrainType::ALL.iter().copied().find(|t| t.symbol() == c)
    }
}

id_enum!(
    /// U6. Commands of the round.
    Command, "command", [Pass = "pass", Event = "event", March = "march", Charge = "charge",
    Bombard = "bombard", Rally = "rally"]);

impl Command {
    /// R5: cards the active side draws after choosing it.
    pub const fn draws(self) -> usize {
        match self {
            Command::Pass => 3,
            Command::March => 1,
            Command::Rally | Command::Bombard => 2,
            Command::Charge | Command::Event => 0,
        }
    }
    /// The four actions (A2), in U6 order.
    pub const ACTIONS: [Command; 4] = [Command::March, Command::Charge, Command::Bombard, Command::Rally];
    /// The modifier symbol of an action's window (K6); None for `pass` and `event`.
    pub const fn symbol(self) -> Option<CardMark> {
        match self {
            Command::March => Some(CardMark::March),
            Command::Charge => Some(CardMark::Charge),
            Command::Bombard => Some(CardMark::Bombard),
            Command::Rally => Some(CardMark::Rally),
            Command::Pass | Command::Event => None,
        }
    }
}

id_enum!(
    /// U7. The five modifier symbols, then the two marks.
    CardMark, "card mark", [Charge = "charge", March = "march", Bombard = "bombard", Rally = "rally",
    Volley = "volley", Interrupt = "interrupt", Event = "event"]);

impl CardMark {
    /// Whether it is a modifier symbol (K6) rather than a mark.
    pub const fn is_symbol(self) -> bool {
        !matches!(self, CardMark::Interrupt | CardMark::Event)
    }
}

id_enum!(
    /// U8. The kind of decision pending (Q1), `game_over` last.
    Phase, "phase", [VolleyChoice = "volley_choice", VolleyInterrupt = "volley_interrupt",
    VolleyModifier = "volley_modifier", Fire = "fire", Aim = "aim", Command = "command", Force = "force",
    Span = "span", ActivationInterrupt = "activation_interrupt", ActionModifier = "action_modifier",
    Move = "move", UnitMove = "unit_move", Charge = "charge", ChargeLead = "charge_lead",
    KingTarget = "king_target", CincMove = "cinc_move", CincPay = "cinc_pay", Displace = "displace",
    PenaltyDiscard = "penalty_discard", HandLimit = "hand_limit", GameOver = "game_over"]);

impl Phase {
    /// Q0: the phases whose legal actions depend on the decider's hidden hand, where a side
    /// holding a card is always asked.
    pub const fn reveals_hand(self) -> bool {
        matches!(
            self,
            Phase::Command
                | Phase::VolleyInterrupt
                | Phase::VolleyModifier
                | Phase::ActivationInterrupt
                | Phase::ActionModifier
                | Phase::Span
                | Phase::CincPay
                | Phase::PenaltyDiscard
                | Phase::HandLimit
        )
    }
}

id_enum!(
    /// S2–S4. Scenarios.
    ScenarioId, "scenario", [Standard = "standard", Skirmish = "skirmish"]);

// The id enums derive a fixed set of traits; `standard` is the default scenario of API.md.
#[allow(clippy::derivable_impls)]
impl Default for ScenarioId {
    fn default() -> ScenarioId {
        ScenarioId::Standard
    }
}

id_enum!(
    /// N2. Chance events, the `event` of a logged roll.
    ChanceEvent, "chance event", [FirstPlayer = "first_player", ToHit = "to_hit", ToDisrupt = "to_disrupt",
    Combat = "combat", Rally = "rally"]);

id_enum!(
    /// E3. How a game ended.
    Outcome, "outcome", [Blue = "blue", Red = "red", Draw = "draw"]);

impl Outcome {
    /// The side that won, None for a draw.
    pub const fn winner(self) -> Option<Side> {
        match self {
            Outcome::Blue => Some(Side::Blue),
            Outcome::Red => Some(Side::Red),
            Outcome::Draw => None,
        }
    }
}
