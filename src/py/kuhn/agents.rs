//! `maquis._core.kuhn.Agent`: a bundled agent (A1: `random`, `heuristic`) acting on a side's
//! observation and the legal mask only, with its own seeded stream. The class is the shared
//! `agent_class!`'s; Kuhn poker has no search, so `budget` is never read.

use crate::kuhn::env::KuhnPoker;

agent_class! {
    /// A bundled Kuhn poker agent, by id: "random" or "heuristic" (Kuhn's equilibrium, α = 1/3).
    #[pyo3::pyclass(name = "Agent", module = "maquis._core.kuhn")]
    PyAgent, KuhnPoker, budget = 1
}
