//! Conversions every game's bindings use: JSON to Python objects, env indices, observation
//! dtypes, new arrays written by the engine.

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use serde_json::Value;

/// A JSON value as plain Python objects (dict, list, str, int, float, bool, None).
pub fn json_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any(),
            (None, Some(u)) => u.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(a) => {
            PyList::new(py, a.iter().map(|x| json_to_py(py, x)).collect::<PyResult<Vec<_>>>()?)?.into_any()
        }
        Value::Object(m) => {
            let d = PyDict::new(py);
            for (k, x) in m {
                d.set_item(k, json_to_py(py, x)?)?;
            }
            d.into_any()
        }
    })
}

/// Raised for an env index outside the batch.
pub fn env_index(i: usize, n: usize) -> PyResult<usize> {
    if i < n {
        Ok(i)
    } else {
        Err(pyo3::exceptions::PyIndexError::new_err(format!(
            "env index {i} is out of range for {n} environments"
        )))
    }
}

/// "float32" or "uint8" as whether observations are bytes, or the ValueError naming the value.
pub fn parse_observation_dtype(dtype: &str) -> PyResult<bool> {
    match dtype {
        "float32" => Ok(false),
        "uint8" => Ok(true),
        _ => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "observation_dtype must be \"float32\" or \"uint8\", got {dtype:?}"
        ))),
    }
}

/// The name of the observation type.
pub fn observation_dtype(bytes: bool) -> &'static str {
    if bytes { "uint8" } else { "float32" }
}

/// A new zeroed array of `n` values, filled by `fill`.
pub fn new_array<'py, T: numpy::Element>(py: Python<'py>, n: usize, fill: impl FnOnce(&mut [T])) -> Bound<'py, PyArray1<T>> {
    let a = PyArray1::<T>::zeros(py, n, false);
    // SAFETY: a new array, not yet shared with Python or borrowed elsewhere.
    fill(unsafe { a.as_slice_mut() }.expect("a new array is contiguous"));
    a
}

/// Zeroed rows `n` × `o` whose first row starts on a 64-byte boundary: a view into a slightly
/// longer array. numpy's large arrays start 16 bytes past a page (the allocator's header), and
/// with rows of whole cache lines, every row would straddle one more line and every other
/// 32-byte store would be split across two.
pub fn aligned_rows<T: numpy::Element>(py: Python<'_>, n: usize, o: usize) -> PyResult<Bound<'_, PyArray2<T>>> {
    let line = 64 / std::mem::size_of::<T>();
    let flat = PyArray1::<T>::zeros(py, n * o + line - 1, false);
    let skip = flat.data().align_offset(64).min(line - 1);
    let rows = flat
        .call_method1("__getitem__", (pyo3::types::PySlice::new(py, skip as isize, (skip + n * o) as isize, 1),))?
        .call_method1("reshape", ((n, o),))?;
    Ok(rows.cast_into::<PyArray2<T>>()?)
}

/// An observation layout, `[(name, offset, length)]`, as a tuple of tuples.
pub fn layout_tuple<'py>(py: Python<'py>, layout: &[(&'static str, usize, usize)]) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, layout.iter().map(|&(name, offset, len)| (name, offset, len)))
}
