//! The portfolio (`variant="portfolio"`, [`ma_es::portfolio`]) driven by its user, as
//! `emages.AskTell` drives the ES: `ask()` gives the points the run wants (each wants
//! `f` and `C`; with `jacobian=True` a `jacobians` request wants the constraints'
//! Jacobians for the ES rounds' repair), `tell()` their values; the budget only cuts
//! (a request that would not fit is not made). The state pickles (MessagePack of the Rust value) at any point
//! and continues exactly.

use crate::asktell::{told_constraints, told_objectives};
use crate::error::to_py;
use crate::settings::PyPortfolioOptions;
use crate::strategy::{portfolio_history, portfolio_options, portfolio_result};
use constraint_handling::problem::{JacobianSource, ProblemShape};
use emages::portfolio::Portfolio;
use emages_solver::Status;
use ma_es::request::RequestKind;
use ma_es::Termination;
use numpy::{IntoPyArray, PyArray2};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};
use serde::{Deserialize, Serialize};
use std::sync::Mutex;

/// A portfolio run and what its user has told it.
#[derive(Serialize, Deserialize)]
struct Saved {
    run: Portfolio,
    budget: usize,
    l: usize,
    m: usize,
    /// The user ended the run (`stop()`).
    stopped: bool,
    /// A request is pending.
    asked: bool,
    /// The Jacobians told (`njev`).
    #[serde(default)]
    jacobians: usize,
    /// The history (`history=True`): one row per iteration.
    #[serde(default)]
    history: Option<Vec<Status>>,
}

/// The compiled half of `emages.AskTell(variant="portfolio")`.
#[pyclass(name = "_PortfolioAskTell", module = "emages._emages")]
pub struct PyPortfolioAskTell {
    saved: Mutex<Saved>,
}

#[pymethods]
impl PyPortfolioAskTell {
    #[new]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (lower, upper, n_ineq, n_eq, margin, options, seed, x0=None, jacobian=false, history=false))]
    fn new(
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
    ) -> PyResult<Self> {
        let (budget, settings) = portfolio_options(&options, lower.len());
        let mut shape = ProblemShape::new(lower, upper, n_ineq, n_eq).map_err(to_py)?;
        shape.equality_margin = margin;
        if jacobian {
            shape = shape.with_jacobian(JacobianSource::Exact);
        }
        let run = crate::strategy::portfolio_plan(settings, budget, seed, x0)
            .build(&shape)
            .and_then(|plan| plan.ask_tell())
            .map_err(to_py)?;
        Ok(Self {
            saved: Mutex::new(Saved {
                run,
                budget,
                l: n_ineq,
                m: n_eq,
                stopped: false,
                asked: false,
                jacobians: 0,
                history: history.then(Vec::new),
            }),
        })
    }

    /// The next question, `(points, False, "population", k)` with the points as the rows
    /// of a `(k, N)` array — or, made with `jacobian=True`, `(points, True,
    /// "jacobians", charged)` for the constraints' Jacobians there (charged as the
    /// CEC2020 rule counts them); `None` once the run has ended (it stopped by itself, was
    /// stopped, or the next request would take it past its budget). Asking again before
    /// telling returns the same question.
    #[allow(clippy::type_complexity)]
    fn ask<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<(Bound<'py, PyArray2<f64>>, bool, &'static str, usize)>> {
        let mut guard = self.lock()?;
        let s = &mut *guard;
        if s.stopped {
            return Ok(None);
        }
        let done = s.run.evaluations();
        // A black box (the shape has no exact Jacobians): every request wants f and C.
        let Some(request) = Portfolio::ask(&mut s.run).map_err(to_py)? else {
            return Ok(None);
        };
        let charge = request.evaluations;
        if done + charge > s.budget {
            return Ok(None);
        }
        let rows = request.points.t().as_standard_layout().into_owned();
        let jacobians = request.kind == RequestKind::Jacobians;
        s.asked = true;
        Ok(Some(if jacobians {
            (rows.into_pyarray(py), true, "jacobians", charge)
        } else {
            (rows.into_pyarray(py), false, "population", charge)
        }))
    }

    /// The answer to the pending question: `f` of shape `(k,)`, `g` of shape
    /// `(k, l)`, `h` of shape `(k, m)`. Returns whether an iteration ended with it.
    #[pyo3(signature = (f, g=None, h=None))]
    fn tell(
        &self,
        f: Option<&Bound<'_, PyAny>>,
        g: Option<&Bound<'_, PyAny>>,
        h: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<bool> {
        let mut guard = self.lock()?;
        let s = &mut *guard;
        if !s.asked {
            return Err(PyValueError::new_err(
                "tell() without a question: call ask() first",
            ));
        }
        let (k, jacobians) = Portfolio::ask(&mut s.run)
            .map_err(to_py)?
            .map(|r| (r.len(), r.kind == RequestKind::Jacobians))
            .ok_or_else(|| PyValueError::new_err("tell(): the run has ended"))?;
        let objectives = told_objectives(f, k, !jacobians)?;
        let n = s.run.dim();
        let c = told_constraints(g, h, k, (s.l, s.m), jacobians.then_some(n))?;
        let before = s.run.iterations();
        s.run.tell(&objectives, c.view()).map_err(to_py)?;
        if jacobians {
            s.jacobians += k;
        }
        s.asked = false;
        let ended = s.run.iterations() > before;
        if ended {
            let step = s.run.status();
            if let Some(history) = s.history.as_mut() {
                history.push(step);
            }
        }
        Ok(ended)
    }

    /// Ends the run: the next `ask()` returns `None` (`message` becomes `stopped`).
    fn stop(&self) -> PyResult<()> {
        self.lock()?.stopped = true;
        Ok(())
    }

    /// The result (as `minimize`'s) of the points told so far.
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.lock()?;
        let best = s.run.best().ok_or_else(|| {
            PyValueError::new_err("nothing evaluated yet: ask() and tell() first")
        })?;
        let termination = if s.stopped {
            Termination::Stopped
        } else {
            crate::strategy::portfolio_end(&s.run)
        };
        let n = s.run.evaluations() - s.run.jacobian_evaluations();
        let d = portfolio_result(
            py,
            &s.run,
            best,
            s.l,
            (n, if s.l + s.m > 0 { n } else { 0 }),
            termination,
        )?;
        d.set_item("njev", s.jacobians)?;
        if let Some(history) = &s.history {
            d.set_item("history", portfolio_history(py, history)?)?;
        }
        Ok(d)
    }

    /// `(iterations, evaluations, step size, fun, violation)`: the state after the
    /// last tell and the best so far (NaN before the first tell).
    fn status(&self) -> PyResult<(usize, usize, f64, f64, f64)> {
        let s = self.lock()?;
        let (fun, violation) = s
            .run
            .best()
            .map_or((f64::NAN, f64::NAN), |b| (b.objective(), b.violation()));
        Ok((
            s.run.iterations(),
            s.run.evaluations(),
            s.run.step_size(),
            fun,
            violation,
        ))
    }

    /// Pickling: the whole state as bytes, restored by
    /// `emages._asktell._restore_portfolio_core`.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let bytes = rmp_serde::to_vec_named(&*self.lock()?)
            .map_err(|e| PyRuntimeError::new_err(format!("cannot save the run: {e}")))?;
        let restore = py
            .import("emages._asktell")?
            .getattr("_restore_portfolio_core")?;
        Ok((restore, PyTuple::new(py, [PyBytes::new(py, &bytes)])?))
    }

    /// The state saved by `__reduce__`.
    #[staticmethod]
    fn _from_bytes(bytes: &[u8]) -> PyResult<Self> {
        let saved = rmp_serde::from_slice(bytes)
            .map_err(|e| PyValueError::new_err(format!("not a saved portfolio run: {e}")))?;
        Ok(Self {
            saved: Mutex::new(saved),
        })
    }
}

impl PyPortfolioAskTell {
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, Saved>> {
        self.saved
            .lock()
            .map_err(|_| PyRuntimeError::new_err("the ask-and-tell state is poisoned"))
    }
}
