//! The exact analysis of `crate::kuhn::solve` for Python: `expected_payoff`, `best_response`,
//! `equilibrium`. A strategy is the probability of `bet` at each information set (`INFOSETS`), as
//! a dict keyed by their names or a sequence / array of 12 numbers in that order.

use crate::error::Error;
use crate::kuhn::infoset::{from_name, INFOSET_NAMES, NUM_INFOSETS};
use crate::kuhn::solve::{self, Strategy};
use crate::kuhn::Side;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// A strategy from a dict {infoset: probability of bet} with all 12 names, or 12 numbers.
fn strategy(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Strategy> {
    let bad = |msg: String| -> PyErr { Error::BadOption(format!("{what}: {msg}")).into() };
    let mut p = [0.0; NUM_INFOSETS];
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut seen = [false; NUM_INFOSETS];
        for (k, v) in d.iter() {
            let name: String = k.extract().map_err(|_| bad(format!("key {k} is not an information set name")))?;
            let i = from_name(&name)
                .ok_or_else(|| bad(format!("unknown information set '{name}' (they are {})", INFOSET_NAMES.join(", "))))?;
            p[i] = v.extract().map_err(|_| bad(format!("['{name}']: {v} is not a number")))?;
            seen[i] = true;
        }
        if let Some(i) = seen.iter().position(|s| !s) {
            return Err(bad(format!("no probability for '{}' (all 12 information sets are needed)", INFOSET_NAMES[i])));
        }
    } else {
        let v: Vec<f64> = obj
            .extract()
            .map_err(|_| bad("a dict {information set: probability} or 12 numbers is needed".into()))?;
        if v.len() != NUM_INFOSETS {
            return Err(bad(format!("{} numbers, one per information set (12) are needed", v.len())));
        }
        p.copy_from_slice(&v);
    }
    Strategy::new(p).map_err(|e| match e {
        Error::BadOption(m) => bad(m),
        other => other.into(),
    })
}

fn as_dict<'py>(py: Python<'py>, s: &Strategy) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, p) in INFOSET_NAMES.iter().zip(s.0) {
        d.set_item(name, p)?;
    }
    Ok(d)
}

/// The exact expected payoff in chips to "first" when "first" plays `a` and "second" plays `b`
/// (each reads its own information sets): the mean over the 6 deals of every line of betting.
///
/// Raises:
///     MaquisError: a strategy of the wrong shape, a missing or unknown information set, or a
///         probability outside [0, 1].
#[pyfunction]
fn expected_payoff(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<f64> {
    Ok(solve::expected_payoff(&strategy(a, "a")?, &strategy(b, "b")?))
}

/// The exact best response to `strategy` in both seats, and its value.
///
/// Args:
///     strategy: the probability of bet at each information set (dict or 12 numbers).
///     side: "first" or "second": the value is the best response's expected payoff in chips in
///         that seat; None (the default): the mean over the two seats, `strategy`'s
///         exploitability (0 for an equilibrium).
///
/// Returns:
///     (value, best response as a dict {information set: 0.0 or 1.0}); ties go to pass.
///
/// Raises:
///     MaquisError: a strategy of the wrong shape, a missing or unknown information set, a
///         probability outside [0, 1], or an unknown side.
#[pyfunction]
#[pyo3(signature = (strategy, side=None))]
fn best_response<'py>(
    py: Python<'py>,
    strategy: &Bound<'py, PyAny>,
    side: Option<&str>,
) -> PyResult<(f64, Bound<'py, PyDict>)> {
    let br = solve::best_response(&self::strategy(strategy, "strategy")?);
    let value = match side {
        None => br.mean(),
        Some(id) => br.value[Side::from_id(id)?.idx()],
    };
    Ok((value, as_dict(py, &br.strategy)?))
}

/// Kuhn's equilibrium with parameter `alpha` in [0, 1/3] (rules V1) as a dict {information set:
/// probability of bet}; the heuristic agent plays alpha = 1/3.
///
/// Raises:
///     MaquisError: alpha outside [0, 1/3].
#[pyfunction]
#[pyo3(signature = (alpha=1.0 / 3.0))]
fn equilibrium(py: Python<'_>, alpha: f64) -> PyResult<Bound<'_, PyDict>> {
    as_dict(py, &solve::equilibrium(alpha)?)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(expected_payoff, m)?)?;
    m.add_function(wrap_pyfunction!(best_response, m)?)?;
    m.add_function(wrap_pyfunction!(equilibrium, m)?)?;
    Ok(())
}
