//! The strategy driven by its user: `ask()` returns the points the strategy wants
//! evaluated, `tell()` gives their values — `ma_es::ask_tell::AskTell` itself, no
//! thread and no channel. The repair's evaluations come batched by generation: all the
//! Jacobian probes of a step in one request (constraints only), all its repaired points
//! in another. With `jacobian=True` the user computes the constraints' Jacobians
//! instead of answering difference probes (`RequestKind::Jacobians`). The state pickles (MessagePack of the Rust value) at any point and
//! continues exactly.

use crate::error::to_py;
use crate::settings::PyOptions;
use crate::strategy::{result_dict, run_options};
use constraint_handling::problem::{JacobianSource, ProblemShape};
use ma_es::ask_tell::AskTell;
use ma_es::noise::RngNoise;
use ma_es::strategy::RequestKind;
use ndarray::{Array2, ShapeBuilder};
use numpy::{IntoPyArray, PyArray2};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};
use serde::{Deserialize, Serialize};
use std::sync::Mutex;

/// Everything an ask-and-tell run is: the strategy and the evaluation counts.
#[derive(Serialize, Deserialize)]
struct Saved {
    es: AskTell<RngNoise>,
    l: usize,
    m: usize,
    f_evaluations: usize,
    g_evaluations: usize,
    /// The points whose Jacobians were told.
    #[serde(default)]
    j_evaluations: usize,
}

/// The compiled half of `emages.AskTell` (see its Python docstring).
#[pyclass(name = "_AskTell", module = "emages._emages")]
pub struct PyAskTell {
    /// A mutex makes the class `Sync` (the strategy is `Send`); Python holds the GIL.
    saved: Mutex<Saved>,
}

#[pymethods]
impl PyAskTell {
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        lower: Vec<f64>,
        upper: Vec<f64>,
        n_ineq: usize,
        n_eq: usize,
        margin: f64,
        variant: &str,
        options: PyRef<'_, PyOptions>,
        seed: u64,
        jacobian: bool,
    ) -> PyResult<Self> {
        let (options, _) = run_options(variant, &options, seed)?;
        let mut shape = ProblemShape::new(lower, upper, n_ineq, n_eq).map_err(to_py)?;
        shape.equality_margin = margin;
        if jacobian {
            shape = shape.with_jacobian(JacobianSource::Exact);
        }
        let es = options
            .build(&shape)
            .and_then(|plan| plan.ask_tell())
            .map_err(to_py)?;
        Ok(Self {
            saved: Mutex::new(Saved {
                es,
                l: n_ineq,
                m: n_eq,
                f_evaluations: 0,
                g_evaluations: 0,
                j_evaluations: 0,
            }),
        })
    }

    /// The next question: `(points, constraints_only, kind, evaluations)` with the
    /// points as the rows of a `(k, N)` array, `kind` one of `population`, `probes`,
    /// `jacobians`, `repaired`, and the evaluations it is charged; or `None` when the
    /// run has ended. Asking again before telling returns the same question.
    #[allow(clippy::type_complexity)]
    fn ask<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<(Bound<'py, PyArray2<f64>>, bool, &'static str, usize)>> {
        let mut s = self.lock()?;
        let Some(request) = s.es.ask().map_err(to_py)? else {
            return Ok(None);
        };
        let rows = request.points.t().as_standard_layout().into_owned();
        let kind = match request.kind {
            RequestKind::Population => "population",
            RequestKind::JacobianProbes => "probes",
            RequestKind::Jacobians => "jacobians",
            RequestKind::Repaired => "repaired",
        };
        Ok(Some((
            rows.into_pyarray(py),
            request.kind.constraints_only(),
            kind,
            request.evaluations,
        )))
    }

    /// The answer to the pending question: `f` of shape `(k,)` (ignored, may be
    /// `None`, when only the constraints were asked for), `g` of shape `(k, l)`, `h` of
    /// shape `(k, m)`; for a `jacobians` question the Jacobians, `g` of shape
    /// `(k, l, N)` and `h` of shape `(k, m, N)`. Returns whether a generation ended with
    /// it.
    #[pyo3(signature = (f, g=None, h=None))]
    fn tell(
        &self,
        f: Option<&Bound<'_, PyAny>>,
        g: Option<&Bound<'_, PyAny>>,
        h: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<bool> {
        let mut guard = self.lock()?;
        let s = &mut *guard;
        let n = s.es.strategy().shape().dim();
        let (k, only, jacobians) = match s.es.pending() {
            Some(request) => (
                request.points.ncols(),
                request.kind.constraints_only(),
                request.kind == RequestKind::Jacobians,
            ),
            None => {
                return Err(PyValueError::new_err(
                    "tell() without a question: call ask() first",
                ))
            }
        };
        let objectives = told_objectives(f, k, !only)?;
        let c = told_constraints(g, h, k, (s.l, s.m), jacobians.then_some(n))?;
        let told = s.es.tell(&objectives, c.view()).map_err(to_py)?;
        if jacobians {
            s.j_evaluations += k;
        } else {
            if !only {
                s.f_evaluations += k;
            }
            if s.l + s.m > 0 {
                s.g_evaluations += k;
            }
        }
        Ok(matches!(told, ma_es::strategy::Told::Iteration(_)))
    }

    /// Ends the run after the generation told last (`message` becomes `stopped`).
    fn stop(&self) -> PyResult<()> {
        self.lock()?.es.stop();
        Ok(())
    }

    /// The result: the final one once `ask()` has returned `None`, else the best so
    /// far (as `minimize`'s).
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.lock()?;
        if !s.es.strategy().is_initialized() && s.es.restarts().is_empty() {
            return Err(PyValueError::new_err(
                "the run has not evaluated its initial population yet: ask() and tell() first",
            ));
        }
        let d = result_dict(
            py,
            s.es.result(),
            s.es.restarts(),
            s.l,
            Some((s.f_evaluations, s.g_evaluations)),
        )?;
        d.set_item("njev", s.j_evaluations)?;
        Ok(d)
    }

    /// The state after the last generation: `(generation, evaluations, sigma, fun,
    /// violation)` of the current run and the best so far.
    fn status(&self) -> PyResult<(usize, usize, f64, f64, f64)> {
        let s = self.lock()?;
        let r = s.es.report();
        let best = s.es.result().best;
        Ok((
            r.generation,
            s.es.evaluations(),
            r.sigma,
            best.objective(),
            best.violation(),
        ))
    }

    /// The mean of the current run's search distribution (the parent `y`).
    #[getter]
    fn mean<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray1<f64>>> {
        let s = self.lock()?;
        Ok(s.es.report().parent.to_vec().into_pyarray(py))
    }

    /// The dimension.
    #[getter]
    fn dim(&self) -> PyResult<usize> {
        Ok(self.lock()?.es.strategy().shape().dim())
    }

    /// Pickling: the whole state as bytes, restored by `emages._asktell._restore_core`.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let bytes = rmp_serde::to_vec_named(&*self.lock()?)
            .map_err(|e| PyRuntimeError::new_err(format!("cannot save the run: {e}")))?;
        let restore = py.import("emages._asktell")?.getattr("_restore_core")?;
        Ok((restore, PyTuple::new(py, [PyBytes::new(py, &bytes)])?))
    }

    /// The state saved by `__reduce__`.
    #[staticmethod]
    fn _from_bytes(bytes: &[u8]) -> PyResult<Self> {
        let saved = rmp_serde::from_slice(bytes)
            .map_err(|e| PyValueError::new_err(format!("not a saved ask-and-tell run: {e}")))?;
        Ok(Self {
            saved: Mutex::new(saved),
        })
    }
}

impl PyAskTell {
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, Saved>> {
        self.saved
            .lock()
            .map_err(|_| PyRuntimeError::new_err("the ask-and-tell state is poisoned"))
    }
}

/// The `f` told for `k` points: `k` numbers, none NaN, where `wanted`; nothing (and
/// `f` ignored) for a request that wants only the constraints.
pub(crate) fn told_objectives(
    f: Option<&Bound<'_, PyAny>>,
    k: usize,
    wanted: bool,
) -> PyResult<Vec<f64>> {
    if !wanted {
        return Ok(Vec::new());
    }
    let f = f.ok_or_else(|| PyValueError::new_err("tell(): f is missing"))?;
    let f = values(f, &[k], "f")?;
    if let Some(j) = f.iter().position(|v| v.is_nan()) {
        return Err(PyValueError::new_err(format!(
            "tell(): f is NaN at point {j}: tell a number (float('inf') ranks the point worst)"
        )));
    }
    Ok(f)
}

/// The constraint values (or, with `jacobian_dim = Some(N)`, the Jacobians) told for
/// `k` points as the `(l + m) × k` (or `(l + m) × k N`) column-major matrix a tell
/// takes: `g` of shape `(k, l)` and `h` of shape `(k, m)` (`(k, l, N)`, `(k, m, N)`),
/// NaN refused.
pub(crate) fn told_constraints(
    g: Option<&Bound<'_, PyAny>>,
    h: Option<&Bound<'_, PyAny>>,
    k: usize,
    (l, m): (usize, usize),
    jacobian_dim: Option<usize>,
) -> PyResult<Array2<f64>> {
    // A Jacobian is N columns per point: column j N + i is ∂C/∂x_i at point j.
    let width = jacobian_dim.unwrap_or(1);
    let mut c = Array2::zeros((l + m, k * width).f());
    for (rows, count, what, value) in [(0..l, l, "g", g), (l..l + m, m, "h", h)] {
        if count == 0 {
            continue;
        }
        let value = value.ok_or_else(|| {
            PyValueError::new_err(format!("tell(): {what} is missing ({count} per point)"))
        })?;
        let shape = match jacobian_dim {
            Some(n) => vec![k, count, n],
            None => vec![k, count],
        };
        let v = values(value, &shape, what)?;
        if let Some(i) = v.iter().position(|v| v.is_nan()) {
            return Err(PyValueError::new_err(format!(
                "tell(): {what} is NaN at point {}",
                i / (count * width)
            )));
        }
        for j in 0..k {
            for (r, row) in rows.clone().enumerate() {
                for i in 0..width {
                    c[[row, j * width + i]] = v[(j * count + r) * width + i];
                }
            }
        }
    }
    Ok(c)
}

/// A float array of the given shape (a `(k,)` array also for `(k, 1)`), flattened.
pub(crate) fn values(obj: &Bound<'_, PyAny>, shape: &[usize], what: &str) -> PyResult<Vec<f64>> {
    let (arr, got) = crate::convert::values_with_shape(obj, what)?;
    let ok = got == shape || (shape.len() == 2 && shape[1] == 1 && got == [shape[0]]);
    if !ok {
        return Err(PyValueError::new_err(format!(
            "tell(): {what} has shape {got:?}, expected {shape:?} (one row per asked point)"
        )));
    }
    arr.call_method0("ravel")?.extract()
}
