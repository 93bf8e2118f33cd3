//! The reset options of a hand (docs/rules/kuhn.md N2): `{"cards": [first's, second's]}` deals
//! those two cards instead of a seeded deal. Bad values are errors naming what is wrong.

use super::ids::Card;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// N2: the cards of `first` and `second` (two different cards); None: the seeded deal (N1).
    pub cards: Option<[Card; 2]>,
}

impl Scenario {
    /// Checks that the given cards are two different ones (K1).
    pub fn validate(&self) -> Result<()> {
        match self.cards {
            Some([a, b]) if a == b => {
                Err(Error::BadOption(format!("cards: both sides hold '{a}'; the two cards differ (K1)")))
            }
            _ => Ok(()),
        }
    }

    /// The options as a JSON mapping (`{"cards": ["K", "J"]}`, every key optional; null: none).
    /// Unknown keys, card ids and shapes are errors naming them.
    pub fn from_json(v: &Value) -> Result<Scenario> {
        if v.is_null() {
            return Ok(Scenario::default());
        }
        let sc: Scenario = serde_json::from_value(v.clone()).map_err(|e| {
            Error::BadOption(format!("options: {e} (the one option is cards: [first's, second's], each 'J', 'Q' or 'K')"))
        })?;
        sc.validate()?;
        Ok(sc)
    }
}
