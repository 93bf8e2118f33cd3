//! The reset options of API.md: a given allocation, attack and order skip their phases; scripted
//! dice come before the seeded stream. Bad values are errors naming what is wrong.

use super::allocation::{sequence_of, Contents, Sequence};
use super::ids::{Kind, Zone};
use crate::error::{Error, Result};
use serde_json::Value;

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Scenario {
    /// The German allocation as zone × kind counts (must satisfy G1); skips the allocation.
    pub allocation: Option<Contents>,
    /// Needs `allocation`: the interrogation is skipped and these zones attacked (any order).
    pub attack: Option<[Zone; 2]>,
    /// Needs `attack`: the zone played first.
    pub first: Option<Zone>,
    /// The next dice drawn, then the seeded RNG continues.
    pub dice: Vec<u8>,
}

/// A checked scenario: the allocation's decision sequence, the attack in Z1 order.
pub struct Checked {
    pub sequence: Option<Sequence>,
    pub attack: Option<[Zone; 2]>,
    pub first: Option<Zone>,
}

fn bad(msg: impl Into<String>) -> Error {
    Error::BadOption(msg.into())
}

impl Scenario {
    /// Zone → items, e.g. `[(Zone::Caen, &[Kind::Squad, Kind::Vip][..]), …]`, as counts.
    pub fn contents_of(zones: &[(Zone, &[Kind])]) -> Contents {
        let mut c = [[0u8; 5]; 5];
        for (z, items) in zones {
            for k in items.iter() {
                c[z.idx()][k.idx()] += 1;
            }
        }
        c
    }

    pub fn validate(&self) -> Result<Checked> {
        let sequence = match &self.allocation {
            None => None,
            Some(c) => Some(sequence_of(c).ok_or_else(|| {
                bad("allocation: not a valid allocation (RULES G1: all 11 items, 1-3 items per zone, at most one \
                     train and one squad per zone, a gendarme where there is no squad)")
            })?),
        };
        let attack = match self.attack {
            None => None,
            Some([a, b]) => {
                if sequence.is_none() {
                    return Err(bad("attack: needs allocation"));
                }
                if a == b {
                    return Err(bad(format!("attack: two distinct zones are needed, got '{a}' twice")));
                }
                Some([a.min(b), a.max(b)])
            }
        };
        if let Some(f) = self.first {
            match attack {
                None => return Err(bad("first: needs attack")),
                Some(att) if !att.contains(&f) => {
                    return Err(bad(format!("first: '{f}' is not one of the attacked zones")))
                }
                _ => {}
            }
        }
        if let Some((i, d)) = self.dice.iter().enumerate().find(|(_, d)| !(1..=6).contains(*d)) {
            return Err(bad(format!("dice[{i}]: {d} is not a die value 1-6")));
        }
        Ok(Checked { sequence, attack, first: self.first })
    }

    /// The options as a JSON object (`{"allocation": {zone: [item, …]}, "attack": [z, z], "first":
    /// z, "dice": [int]}`, every key optional). Unknown keys are errors.
    pub fn from_json(v: &Value) -> Result<Scenario> {
        let obj = match v {
            Value::Null => return Ok(Scenario::default()),
            Value::Object(o) => o,
            _ => return Err(bad("options must be a mapping")),
        };
        let mut sc = Scenario::default();
        for (key, val) in obj {
            match key.as_str() {
                "allocation" => sc.allocation = Some(parse_allocation(val)?),
                "attack" => {
                    let zones = val.as_array().filter(|a| a.len() == 2).ok_or_else(|| bad("attack: a list of two zones"))?;
                    sc.attack = Some([zone_of(&zones[0], "attack")?, zone_of(&zones[1], "attack")?]);
                }
                "first" => sc.first = Some(zone_of(val, "first")?),
                "dice" => {
                    let list = val.as_array().ok_or_else(|| bad("dice: a list of ints 1-6"))?;
                    sc.dice = list
                        .iter()
                        .enumerate()
                        .map(|(i, d)| {
                            d.as_u64()
                                .filter(|d| (1..=6).contains(d))
                                .map(|d| d as u8)
                                .ok_or_else(|| bad(format!("dice[{i}]: {d} is not a die value 1-6")))
                        })
                        .collect::<Result<_>>()?;
                }
                other => return Err(bad(format!("unknown option '{other}'"))),
            }
        }
        sc.validate()?;
        Ok(sc)
    }
}

fn zone_of(v: &Value, field: &str) -> Result<Zone> {
    let s = v.as_str().ok_or_else(|| bad(format!("{field}: {v} is not a zone id")))?;
    Zone::parse(s).map_err(|_| bad(format!("{field}: unknown zone '{s}'")))
}

fn parse_allocation(v: &Value) -> Result<Contents> {
    let obj = v.as_object().ok_or_else(|| bad("allocation: a mapping zone -> list of items"))?;
    let mut c = [[0u8; 5]; 5];
    for (z, items) in obj {
        let zone = Zone::parse(z).map_err(|_| bad(format!("allocation: unknown zone '{z}'")))?;
        let list = items.as_array().ok_or_else(|| bad(format!("allocation.{z}: a list of items")))?;
        for it in list {
            let name = it.as_str().ok_or_else(|| bad(format!("allocation.{z}: {it} is not an item id")))?;
            let k = Kind::parse(name).map_err(|_| bad(format!("allocation.{z}: unknown item '{name}'")))?;
            let n = &mut c[zone.idx()][k.idx()];
            *n = n.saturating_add(1);
        }
    }
    if let Some(z) = Zone::ALL.iter().find(|z| !obj.contains_key(z.as_str())) {
        return Err(bad(format!("allocation: zone '{z}' is missing (all five zones are needed)")));
    }
    Ok(c)
}
