//! `maquis._core.dday.Agent`: a bundled opponent (D1: random, heuristic, search) acting on a
//! side's observation and the legal mask only (D3), with its own seeded stream. The class is the
//! shared `agent_class!`'s.

use crate::dday::env::DDay1944;

agent_class! {
    /// A bundled D-Day agent, by id. The engine behind `maquis.dday.agents`.
    #[pyo3::pyclass(name = "Agent", module = "maquis._core.dday")]
    PyAgent, DDay1944, budget = 200
}
