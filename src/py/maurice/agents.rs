//! `maquis._core.maurice.Agent`: a bundled opponent (D1: random, heuristic, search) acting on a
//! side's full observation and the legal mask only (D3), with its own seeded stream. The class is
//! the shared `agent_class!`'s.

use crate::maurice::env::MauriceLite;

agent_class! {
    /// A bundled Maurice Lite agent, by id. The engine behind `maquis.maurice.agents`.
    #[pyo3::pyclass(name = "Agent", module = "maquis._core.maurice")]
    PyAgent, MauriceLite, budget = 100
}
