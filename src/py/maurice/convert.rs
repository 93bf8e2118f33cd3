//! Conversions shared by the Maurice Lite classes: sides, the observation kind, reset options,
//! the environment configuration from the constructor keywords.

use crate::env::IllegalPolicy;
use crate::error::{Error, Result};
use crate::maurice::env::{EnvConfig, Scenario};
use crate::maurice::ids::Side;
use crate::maurice::observation::ObservationKind;
use crate::py::common::versus;
use serde_json::{json, Value};
use std::collections::HashMap;

pub fn side(id: &str) -> Result<Side> {
    Side::parse(id).map_err(|_| Error::BadOption(format!("side must be 'blue' or 'red', got '{id}'")))
}

/// `"full"` or `"compact"` (API.md "Compact observation").
pub fn observation_kind(kind: &str) -> Result<ObservationKind> {
    match kind {
        "full" => Ok(ObservationKind::Full),
        "compact" => Ok(ObservationKind::Compact),
        _ => Err(Error::BadOption(format!("observation must be 'full' or 'compact', got '{kind}'"))),
    }
}

/// The options JSON the Python layer sends (None: no options), as a mapping.
pub fn options(json: Option<&str>) -> Result<Value> {
    match json {
        None => Ok(Value::Null),
        Some(j) => serde_json::from_str(j).map_err(|e| Error::BadOption(format!("options: {e}"))),
    }
}

/// The constructor's `scenario` and `terrain` keywords as reset options, checked.
pub fn scenario(scenario: &str, terrain: &str) -> Result<Scenario> {
    Scenario::from_options(&json!({"scenario": scenario, "terrain": terrain}))
}

/// The configuration from the constructor keywords of `Env` and `VecEngine`. `reward`: a table
/// (missing keys keep win 1, draw 0, loss −1) unless `morale_margin`; `external`: whether the
/// opponent may be played from outside (the single env's Python objects).
#[allow(clippy::too_many_arguments)]
pub fn config(
    side_id: &str,
    opponent: &str,
    budget: u32,
    scenario_id: &str,
    terrain: &str,
    reward: Option<HashMap<String, f64>>,
    morale_margin: bool,
    illegal_action: &str,
    external: bool,
) -> Result<EnvConfig> {
    let mut setup = versus::setup(side(side_id)?, opponent, budget, external)?;
    setup.scenario = scenario(scenario_id, terrain)?;
    EnvConfig::new(setup, versus::rewards(reward, morale_margin)?, IllegalPolicy::parse(illegal_action)?)
}
