//! K1: the library's stand-in deck — 30 card types, 40 cards. It is built from the card names and
//! effects the rule text mentions; it is not the publisher's card text.

use super::ids::CardMark;
use crate::id_enum::id_enum;

id_enum!(
    /// K1. Card types, in the table's order; 0–28 are playable, `reshuffle` never is.
    Card, "card", [UnexpectedDelay = "unexpected_delay", FirstFire = "first_fire",
    RoughGoing = "rough_going", ThickSmoke = "thick_smoke", Thunderous = "thunderous",
    ForTheKing = "for_the_king", ValeurEtDiscipline = "valeur_et_discipline",
    Charge4 = "charge_4", Charge6 = "charge_6", Charge8 = "charge_8", Charge10 = "charge_10",
    March4 = "march_4", March6 = "march_6", March8 = "march_8", March10 = "march_10",
    Bombard4 = "bombard_4", Bombard6 = "bombard_6", Bombard8 = "bombard_8", Bombard10 = "bombard_10",
    Rally4 = "rally_4", Rally6 = "rally_6", Rally8 = "rally_8", Rally10 = "rally_10",
    Volley4 = "volley_4", Volley6 = "volley_6", Volley8 = "volley_8", Volley10 = "volley_10",
    Orders12 = "orders_12", Orders16 = "orders_16", Reshuffle = "reshuffle"]);

/// The 29 playable types (K1: every type but `reshuffle`).
pub const PLAYABLE: usize = 29;

/// One row of K1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardInfo {
    pub card: Card,
    pub name: &'static str,
    /// None for `reshuffle`.
    pub span: Option<u8>,
    /// A U7 modifier symbol (K6).
    pub symbol: Option<CardMark>,
    /// `interrupt` (K7) or `event` (R7).
    pub mark: Option<CardMark>,
    pub copies: u8,
    /// The K8 effect (K3 for `reshuffle`).
    pub effect: &'static str,
}

const fn row(
    card: Card,
    name: &'static str,
    span: u8,
    symbol: Option<CardMark>,
    mark: Option<CardMark>,
    copies: u8,
    effect: &'static str,
) -> CardInfo {
    CardInfo { card, name, span: Some(span), symbol, mark, copies, effect }
}

use CardMark as M;

const CHARGE: &str = "+1 to the combat score of each own engaged unit";
const MARCH: &str = "played by the active side: +2 BW to the allowance of every unit of the marching force; \
by the passive side: -2 BW";
const BOMBARD: &str = "active: +1 to hit on every bombardment die; passive: -1";
const RALLY: &str = "active: +1 on every rally die; passive: -1";
const VOLLEY: &str = "+1 to hit on every die of the own fire in this volley phase";
const ORDERS: &str = "none (span only)";

/// K1, in type order.
pub const CARDS: [CardInfo; Card::COUNT] = [
    row(Card::UnexpectedDelay, "Unexpected Delay", 4, None, Some(M::Interrupt), 2,
        "the activation distance grows by 8 BW"),
    row(Card::FirstFire, "First Fire", 6, None, Some(M::Interrupt), 2,
        "in this volley phase the passive side fires first and decides first on modifiers"),
    row(Card::RoughGoing, "Rough Going", 6, None, Some(M::Interrupt), 2,
        "for the rest of the round the active side's units may not enter difficult cells or cross walls"),
    row(Card::ThickSmoke, "Thick Smoke", 8, Some(M::Volley), None, 2,
        "-1 to hit on every die of the enemy's fire in this volley phase"),
    row(Card::Thunderous, "Thunderous", 8, Some(M::Charge), None, 2,
        "+2 to the combat score of each own engaged cav unit"),
    row(Card::ForTheKing, "For the King", 10, Some(M::Charge), None, 2,
        "+2 to the combat score of one own engaged inf unit, chosen at once"),
    row(Card::ValeurEtDiscipline, "Valeur et Discipline", 12, None, Some(M::Event), 2,
        "event: every own unit with DISR removes 1 DISR"),
    row(Card::Charge4, "Charge", 4, Some(M::Charge), None, 1, CHARGE),
    row(Card::Charge6, "Charge", 6, Some(M::Charge), None, 1, CHARGE),
    row(Card::Charge8, "Charge", 8, Some(M::Charge), None, 1, CHARGE),
    row(Card::Charge10, "Charge", 10, Some(M::Charge), None, 1, CHARGE),
    row(Card::March4, "March", 4, Some(M::March), None, 1, MARCH),
    row(Card::March6, "March", 6, Some(M::March), None, 1, MARCH),
    row(Card::March8, "March", 8, Some(M::March), None, 1, MARCH),
    row(Card::March10, "March", 10, Some(M::March), None, 1, MARCH),
    row(Card::Bombard4, "Bombard", 4, Some(M::Bombard), None, 1, BOMBARD),
    row(Card::Bombard6, "Bombard", 6, Some(M::Bombard), None, 1, BOMBARD),
    row(Card::Bombard8, "Bombard", 8, Some(M::Bombard), None, 1, BOMBARD),
    row(Card::Bombard10, "Bombard", 10, Some(M::Bombard), None, 1, BOMBARD),
    row(Card::Rally4, "Rally", 4, Some(M::Rally), None, 1, RALLY),
    row(Card::Rally6, "Rally", 6, Some(M::Rally), None, 1, RALLY),
    row(Card::Rally8, "Rally", 8, Some(M::Rally), None, 1, RALLY),
    row(Card::Rally10, "Rally", 10, Some(M::Rally), None, 1, RALLY),
    row(Card::Volley4, "Volley", 4, Some(M::Volley), None, 1, VOLLEY),
    row(Card::Volley6, "Volley", 6, Some(M::Volley), None, 1, VOLLEY),
    row(Card::Volley8, "Volley", 8, Some(M::Volley), None, 1, VOLLEY),
    row(Card::Volley10, "Volley", 10, Some(M::Volley), None, 1, VOLLEY),
    row(Card::Orders12, "Orders", 12, None, None, 2, ORDERS),
    row(Card::Orders16, "Orders", 16, None, None, 2, ORDERS),
    CardInfo {
        card: Card::Reshuffle,
        name: "Reshuffle",
        span: None,
        symbol: None,
        mark: None,
        copies: 2,
        effect: "shown and resolved when drawn: with 15 or more discards, the discard pile and the deck are \
shuffled together and the card leaves the game; otherwise the card alone is shuffled back (or leaves the \
game when the deck holds no other playable card); then the draw is made again",
    },
];

impl Card {
    pub const fn info(self) -> &'static CardInfo {
        &CARDS[self as usize]
    }
    /// K1: types 0–28 can be held in a hand.
    pub const fn is_playable(self) -> bool {
        !matches!(self, Card::Reshuffle)
    }
    /// The span, 0 for `reshuffle` (which is never played).
    pub const fn span(self) -> u32 {
        match self.info().span {
            Some(s) => s as u32,
            None => 0,
        }
    }
    pub const fn symbol(self) -> Option<CardMark> {
        self.info().symbol
    }
    pub const fn mark(self) -> Option<CardMark> {
        self.info().mark
    }
    pub const fn copies(self) -> u8 {
        self.info().copies
    }
    /// The playable types, in K1 order.
    pub fn playable() -> impl Iterator<Item = Card> {
        Card::ALL[..PLAYABLE].iter().copied()
    }
}

/// N3: the 38 playable cards in K1 type order, copies together (S7's first shuffle).
pub fn playable_cards() -> Vec<Card> {
    Card::playable().flat_map(|c| std::iter::repeat_n(c, c.copies() as usize)).collect()
}

/// Counts of each playable type (a hand, the discard pile as the observation sees it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct CardCounts(pub [u8; PLAYABLE]);

impl CardCounts {
    pub fn get(&self, c: Card) -> u8 {
        self.0.get(c.idx()).copied().unwrap_or(0)
    }
    pub fn add(&mut self, c: Card) {
        self.0[c.idx()] += 1;
    }
    /// Removes one copy; false when there is none.
    pub fn remove(&mut self, c: Card) -> bool {
        match self.0.get_mut(c.idx()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        }
    }
    pub fn total(&self) -> usize {
        self.0.iter().map(|&n| n as usize).sum()
    }
    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }
    /// One entry per copy, K1 order.
    pub fn cards(&self) -> Vec<Card> {
        Card::playable().flat_map(|c| std::iter::repeat_n(c, self.get(c) as usize)).collect()
    }
    /// The types held at least once.
    pub fn types(&self) -> impl Iterator<Item = Card> + '_ {
        Card::playable().filter(|&c| self.get(c) > 0)
    }
    /// The sum of the spans of all cards held (A5's span total).
    pub fn span_total(&self) -> u32 {
        Card::playable().map(|c| c.span() * self.get(c) as u32).sum()
    }
}
