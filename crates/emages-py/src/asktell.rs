//! Any strategy driven by its user: `ask()` returns the points the run wants evaluated,
//! `tell()` gives their values — one compiled core over the solver contract
//! ([`emages_solver::Solver`]) for the ES (`ma_es::ask_tell::AskTell`) and the portfolio
//! (`emages::portfolio::Portfolio`), no thread and no channel. The ES's repair comes
//! batched by generation: all the Jacobian probes of a step in one request (constraints
//! only), all its repaired points in another; with `jacobian=True` the user computes
//! the constraints' Jacobians instead of answering difference probes. The state
//! pickles (MessagePack of the Rust value) at any point and continues exactly.

use crate::error::to_py;
use crate::settings::{PyOptions, PyPortfolioOptions};
use crate::strategy::{
    portfolio_history, portfolio_limits, portfolio_options, portfolio_plan, portfolio_result,
    result_dict, run_options, set_end,
};
use constraint_handling::problem::{JacobianSource, ProblemShape};
use emages::portfolio::Portfolio;
use emages_solver::{
    Best, Request, RequestKind, Run, Solver, SolverError, Status, Termination, Told,
};
use ma_es::ask_tell::AskTell;
use ma_es::noise::RngNoise;
use ndarray::{Array2, ArrayView2, ShapeBuilder};
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};
use serde::{Deserialize, Serialize};
use std::sync::Mutex;

/// The strategy: an ES (any variant, restarts included) or the portfolio.
#[derive(Serialize, Deserialize)]
enum Strategy {
    Es(Box<AskTell<RngNoise>>),
    Portfolio(Box<Portfolio>),
}

impl Strategy {
    fn inner(&self) -> &dyn Solver {
        match self {
            Self::Es(es) => es.as_ref(),
            Self::Portfolio(p) => p.as_ref(),
        }
    }

    fn inner_mut(&mut self) -> &mut dyn Solver {
        match self {
            Self::Es(es) => es.as_mut(),
            Self::Portfolio(p) => p.as_mut(),
        }
    }
}

impl Solver for Strategy {
    fn shape(&self) -> &ProblemShape {
        self.inner().shape()
    }
    fn ask(&mut self) -> Result<Option<Request<'_>>, SolverError> {
        self.inner_mut().ask()
    }
    fn tell(
        &mut self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
    ) -> Result<Told, SolverError> {
        self.inner_mut().tell(objectives, constraints)
    }
    fn tell_with_jacobians(
        &mut self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
        jacobians: ArrayView2<'_, f64>,
    ) -> Result<Told, SolverError> {
        self.inner_mut()
            .tell_with_jacobians(objectives, constraints, jacobians)
    }
    fn best(&self) -> Option<Best> {
        self.inner().best()
    }
    fn evaluations(&self) -> usize {
        self.inner().evaluations()
    }
    fn iterations(&self) -> usize {
        self.inner().iterations()
    }
    fn termination(&self) -> Option<Termination> {
        self.inner().termination()
    }
    fn stop(&mut self) {
        self.inner_mut().stop();
    }
    fn status(&self) -> Status {
        self.inner().status()
    }
}

/// Everything an ask-and-tell run is: the run (the strategy within its limits — the
/// portfolio's budget and iteration limit; the ES keeps its own — and its counts), the
/// constraint counts, and the history.
#[derive(Serialize, Deserialize)]
struct Saved {
    run: Run<Strategy>,
    l: usize,
    m: usize,
    /// The history (`history=True`): one row per iteration.
    history: Option<Vec<Status>>,
}

/// The compiled half of `emages.AskTell` (see its Python docstring).
#[pyclass(name = "_AskTell", module = "emages._emages")]
pub struct PyAskTell {
    /// A mutex makes the class `Sync` (the strategy is `Send`); Python holds the GIL.
    saved: Mutex<Saved>,
}

#[pymethods]
impl PyAskTell {
    /// An ES run of `variant` with the typed `emages.Options`.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (lower, upper, n_ineq, n_eq, margin, variant, options, seed, jacobian=false))]
    fn es(
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
        let shape = shape(lower, upper, (n_ineq, n_eq), margin, (jacobian, false))?;
        let es = options
            .build(&shape)
            .and_then(|plan| plan.ask_tell())
            .map_err(to_py)?;
        Ok(Self::new(
            Run::new(Strategy::Es(Box::new(es))),
            (n_ineq, n_eq),
            false,
        ))
    }

    /// A portfolio run with the typed `emages.PortfolioOptions`, starting at `x0`.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (lower, upper, n_ineq, n_eq, margin, options, seed, x0=None, jacobian=false, history=false, gradient=false))]
    fn portfolio(
        lower: Vec<f64>,
        upper: Vec<f64>,
        n_ineq: usize,
        n_eq: usize,
        margin: f64,
        options: PyRef<'_, PyPortfolioOptions>,
        seed: u64,
        x0: Option<Vec<f64>>,
        jacobian: bool,
        history: bool,
        gradient: bool,
    ) -> PyResult<Self> {
        let (budget, settings) = portfolio_options(&options, lower.len());
        let limits = portfolio_limits(&options, budget);
        let shape = shape(lower, upper, (n_ineq, n_eq), margin, (jacobian, gradient))?;
        let run = portfolio_plan(settings, budget, seed, x0)
            .build(&shape)
            .and_then(|plan| plan.ask_tell())
            .map_err(to_py)?;
        Ok(Self::new(
            Run::new(Strategy::Portfolio(Box::new(run))).with_limits(limits),
            (n_ineq, n_eq),
            history,
        ))
    }

    /// The next question: `(points, constraints_only, kind, evaluations)` with the
    /// points as the rows of a `(k, N)` array, `kind` one of `population`, `probes`,
    /// `jacobians`, `repaired`, and the evaluations it is charged; or `None` when the
    /// run has ended (by itself, stopped, or — the portfolio — at the next request
    /// that would take it past its budget). Asking again before telling returns the
    /// same question.
    #[allow(clippy::type_complexity)]
    fn ask<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<(Bound<'py, PyArray2<f64>>, bool, &'static str, usize)>> {
        let mut guard = self.lock()?;
        let Some(request) = guard.run.ask().map_err(to_py)? else {
            return Ok(None);
        };
        let rows = request.points.t().as_standard_layout().into_owned();
        Ok(Some((
            rows.into_pyarray(py),
            request.kind.constraints_only(),
            request.kind.name(),
            request.evaluations,
        )))
    }

    /// The answer to the pending question: `f` of shape `(k,)` (ignored, may be
    /// `None`, when only the constraints were asked for), `g` of shape `(k, l)`, `h` of
    /// shape `(k, m)`; for a `jacobians` question the Jacobians, `g` of shape
    /// `(k, l, N)` and `h` of shape `(k, m, N)`. Returns whether an iteration (a
    /// generation, a step of the local phase) ended with it.
    #[pyo3(signature = (f, g=None, h=None))]
    fn tell(
        &self,
        f: Option<&Bound<'_, PyAny>>,
        g: Option<&Bound<'_, PyAny>>,
        h: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<bool> {
        let mut guard = self.lock()?;
        let s = &mut *guard;
        let Some((kind, k)) = s.run.pending() else {
            return Err(PyValueError::new_err(
                "tell() without a question: call ask() first",
            ));
        };
        let (l, m) = (s.l, s.m);
        let n = s.run.shape().dim();
        let (only, jacobians) = (kind.constraints_only(), kind.derivatives());
        let objectives = if kind == RequestKind::Gradients {
            told_gradients(f, k, n)?
        } else {
            told_objectives(f, k, !only)?
        };
        let c = told_constraints(g, h, k, (l, m), jacobians.then_some(n))?;
        let told = s.run.tell(&objectives, c.view()).map_err(to_py)?;
        let ended = matches!(told, Told::Iteration(_));
        if ended {
            if let Some(history) = s.history.as_mut() {
                history.push(s.run.status());
            }
        }
        Ok(ended)
    }

    /// Ends the run after the iteration told last (`termination` becomes `stopped`).
    fn stop(&self) -> PyResult<()> {
        self.lock()?.run.stop();
        Ok(())
    }

    /// The result: the final one once `ask()` has returned `None`, else the best so
    /// far (as `minimize`'s).
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.lock()?;
        let outcome = s
            .run
            .outcome()
            .map_err(|_| PyValueError::new_err("nothing evaluated yet: ask() and tell() first"))?;
        let counts = s.run.counts();
        let evaluations = (counts.objectives, counts.constraints);
        let d = match s.run.solver() {
            Strategy::Es(es) => {
                result_dict(py, es.result(), es.restarts(), s.l, Some(evaluations))?
            }
            Strategy::Portfolio(run) => {
                let d = portfolio_result(py, run, &outcome.best, s.l, evaluations)?;
                if let Some(history) = &s.history {
                    d.set_item("history", portfolio_history(py, history)?)?;
                }
                d
            }
        };
        set_end(&d, &outcome)?;
        d.set_item("njev", counts.derivatives)?;
        Ok(d)
    }

    /// The state after the last tell: `(iterations, evaluations, step size, fun,
    /// violation, local, run)` — the best so far (NaN before the first tell), the
    /// running phase's step size (an ES's σ, the local phase's step bound), whether the
    /// local phase runs, and the current run of a restart sequence (the portfolio's
    /// round) from 1.
    fn status(&self) -> PyResult<(usize, usize, f64, f64, f64, bool, usize)> {
        let s = self.lock()?;
        let status = s.run.status();
        Ok((
            status.iterations,
            status.evaluations,
            status.step_size,
            status.objective,
            status.violation,
            status.is_local(),
            status.run,
        ))
    }

    /// The centre of the current search: an ES's mean (the parent `y`), the local
    /// phase's iterate while the portfolio's local phase runs.
    #[getter]
    fn mean<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let s = self.lock()?;
        let mean = match s.run.solver() {
            Strategy::Es(es) => es.report().parent.to_vec(),
            Strategy::Portfolio(run) => run.mean(),
        };
        Ok(mean.into_pyarray(py))
    }

    /// The current search's scale per coordinate (pycma's `stds`): an ES's
    /// `σ √((M Mᵀ)_ii)`; while the portfolio's local phase runs, its step bound `Δ`
    /// (every coordinate's step is at most `Δ`).
    #[getter]
    fn stds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let s = self.lock()?;
        let stds = match s.run.solver() {
            Strategy::Es(es) => es.stds(),
            Strategy::Portfolio(run) => run.stds(),
        };
        Ok(stds.into_pyarray(py))
    }

    /// The dimension.
    #[getter]
    fn dim(&self) -> PyResult<usize> {
        Ok(self.lock()?.run.shape().dim())
    }

    /// Whether the run is the portfolio.
    #[getter]
    fn is_portfolio(&self) -> PyResult<bool> {
        Ok(matches!(self.lock()?.run.solver(), Strategy::Portfolio(_)))
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
    fn new(run: Run<Strategy>, (l, m): (usize, usize), history: bool) -> Self {
        Self {
            saved: Mutex::new(Saved {
                run,
                l,
                m,
                history: history.then(Vec::new),
            }),
        }
    }

    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, Saved>> {
        self.saved
            .lock()
            .map_err(|_| PyRuntimeError::new_err("the ask-and-tell state is poisoned"))
    }
}

/// The shape of a problem of Python's: the box, the constraint counts, the margin, and
/// the derivatives the user gives (exact constraint Jacobians; the objective's
/// gradient).
fn shape(
    lower: Vec<f64>,
    upper: Vec<f64>,
    (l, m): (usize, usize),
    margin: f64,
    (jacobian, gradient): (bool, bool),
) -> PyResult<ProblemShape> {
    let mut shape = ProblemShape::new(lower, upper, l, m).map_err(to_py)?;
    shape.equality_margin = margin;
    let source = if jacobian {
        JacobianSource::Exact
    } else {
        JacobianSource::Differences
    };
    Ok(shape.with_jacobian(source).with_gradient(gradient))
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

/// The objective's gradients told for `k` points (a `gradients` request): `f` of shape
/// `(k, N)`, every number finite, flattened point by point.
pub(crate) fn told_gradients(
    f: Option<&Bound<'_, PyAny>>,
    k: usize,
    n: usize,
) -> PyResult<Vec<f64>> {
    let f = f.ok_or_else(|| {
        PyValueError::new_err("tell(): the gradients are missing (f of shape (k, N))")
    })?;
    let v = values(f, &[k, n], "the gradient")?;
    if let Some(i) = v.iter().position(|v| !v.is_finite()) {
        return Err(PyValueError::new_err(format!(
            "tell(): the gradient is not finite at point {}, component {} ({})",
            i / n,
            i % n,
            v[i]
        )));
    }
    Ok(v)
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
        if jacobian_dim.is_some() {
            if let Some(i) = v.iter().position(|v| !v.is_finite()) {
                return Err(PyValueError::new_err(format!(
                    "tell(): the Jacobian of {what}[{}] is not finite at point {} (∂/∂x[{}] = {})",
                    (i / width) % count,
                    i / (count * width),
                    i % width,
                    v[i]
                )));
            }
        } else if let Some(i) = v.iter().position(|v| v.is_nan()) {
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
