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

fn bad(msg: impl Into<String>) -> Error {
    Error::BadOption(msg.into())
}

impl Scenario {
    /// Checks that the given cards are two different ones (K1).
    pub fn validate(&self) -> Result<()> {
        match self.cards {
            Some([a, b]) if a == b => Err(bad(format!("cards: both sides hold '{a}'; the two cards differ (K1)"))),
            _ => Ok(()),
        }
    }

    /// The options as a JSON mapping (`{"cards": ["K", "J"]}`, every key optional). Unknown keys
    /// are errors.
    pub fn from_json(v: &Value) -> Result<Scenario> {
        let obj = match v {
            Value::Null => return Ok(Scenario::default()),
            Value::Object(o) => o,
            _ => return Err(bad("options must be a mapping")),
        };
        let mut sc = Scenario::default();
        for (key, val) in obj {
            match key.as_str() {
                "cards" => {
                    let list = val
                        .as_array()
                        .filter(|l| l.len() == 2)
                        .ok_or_else(|| bad(format!("cards: {val} is not a list of two cards ['J', 'Q', 'K']")))?;
                    let card = |v: &Value| {
                        v.as_str()
                            .and_then(|id| Card::parse(id).ok())
                            .ok_or_else(|| bad(format!("cards: {v} is not a card ('J', 'Q' or 'K')")))
                    };
                    sc.cards = Some([card(&list[0])?, card(&list[1])?]);
                }
                other => return Err(bad(format!("unknown option '{other}' (Kuhn poker's option is 'cards')"))),
            }
        }
        sc.validate()?;
        Ok(sc)
    }
}
