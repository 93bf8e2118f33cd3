//! The heuristic's ranking as input planes of a network (`inputs = "observation+heuristic4"`).
//!
//! After the observation come `HEURISTIC_PLANES` planes of `NUM_ACTIONS` values: plane `r <
//! HEURISTIC_RANKS` is one-hot at the heuristic's `r`-th best legal move, and the last plane holds,
//! at each of those moves, `tanh((score_0 - score_r) / GAP_SCALE)` (0 at the best; scores in
//! float32). The ranking is `HeuristicAgent::new(0).ranked` on the state the observation decodes to
//! (`state_from_observation(obs, 0)`), so the planes are a function of the observation alone and
//! equal what `maquis.agents.HeuristicAgent(0).ranked(obs, masks, HEURISTIC_RANKS)` gives in Python,
//! where the trainer builds them.

use super::heuristic::HeuristicAgent;
use crate::maquis::action::NUM_ACTIONS;
use crate::maquis::observation::state_from_observation;

/// The heuristic's best moves given to the network.
pub const HEURISTIC_RANKS: usize = 4;
/// Planes after the observation: one per rank, then the score gaps.
pub const HEURISTIC_PLANES: usize = HEURISTIC_RANKS + 1;
/// Score gaps are squashed by `tanh(gap / GAP_SCALE)` (the heuristic's units: a mission is 1000).
pub const GAP_SCALE: f32 = 100.0;

/// Writes the planes (`HEURISTIC_PLANES * NUM_ACTIONS` values) for an observation. A finished
/// game has no legal move and gets zero planes.
pub fn write_heuristic_planes(obs: &[f32], out: &mut [f32]) -> crate::Result<()> {
    assert_eq!(out.len(), HEURISTIC_PLANES * NUM_ACTIONS, "the planes' buffer");
    out.fill(0.0);
    let s = state_from_observation(obs, 0)?;
    if s.is_over() {
        return Ok(());
    }
    let h = HeuristicAgent::new(0);
    let ranked = h.ranked(&s, &mut h.rng_for(&s));
    let Some(&(_, best)) = ranked.first() else { return Ok(()) };
    for (r, &(a, score)) in ranked.iter().take(HEURISTIC_RANKS).enumerate() {
        out[r * NUM_ACTIONS + a] = 1.0;
        out[HEURISTIC_RANKS * NUM_ACTIONS + a] = ((best as f32 - score as f32) / GAP_SCALE).tanh();
    }
    Ok(())
}
