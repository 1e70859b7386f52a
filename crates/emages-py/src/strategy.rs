//! Running the strategy from Python: on one of the suites' problems (entirely in Rust,
//! without the GIL), or on Python callables (the GIL taken for each call). Ctrl-C stops
//! a run: the signal is checked between generations (at most every 20 ms) and at
//! every call of a callable.

use crate::callback::{Callables, CallbackProblem};
use crate::error::to_py;
use crate::problems::native;
use crate::settings::{PyOptions, PyPortfolioOptions};
use constraint_handling::problem::ProblemShape;
use constraint_handling::ConstrainedProblem;
use emages::portfolio::{Portfolio, PortfolioSettings};
use emages_solver::{Best, Driver, Limits, Observer, Outcome, Progress as Lines, Solver, Status};
use ma_es::ask_tell::AskTell;
use ma_es::noise::RngNoise;
use ma_es::restarts::RestartRecord;
use ma_es::{ComponentSpec, MaEsError, Options, RunResult, Termination};
use numpy::IntoPyArray;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// A run's [`Options`] with its seed, and how often it prints progress lines (0:
/// never): what `_run_native` and `_run_callbacks` take from the wrapper — the strategy
/// `variant` (a preset name or `PRESET:KEY=VALUE…`) and the typed `emages.Options`.
pub(crate) fn run_options(
    variant: &str,
    options: &PyOptions,
    seed: u64,
) -> PyResult<(Options, usize)> {
    let spec: ComponentSpec = variant.parse().map_err(to_py)?;
    let settings = &options.given.value;
    Ok((settings.options(spec).seed(seed), settings.disp.0))
}

/// The progress lines of `disp` ([`emages_solver::Progress`], the one formatter of
/// Rust's programs and Python's), printed through Python's `print`.
pub(crate) struct Progress {
    lines: Lines,
}

impl Progress {
    pub(crate) fn new(every: usize) -> Self {
        Self {
            lines: Lines::new(every),
        }
    }

    /// Prints through Python's `sys.stdout` (the GIL taken).
    fn print(text: &str) {
        Python::attach(|py| {
            let _ = py
                .import("builtins")
                .and_then(|b| b.getattr("print"))
                .and_then(|p| p.call1((text,)));
        });
    }

    /// The last iteration's line, if it was not shown.
    pub(crate) fn finish(&mut self) {
        if let Some(text) = self.lines.finish() {
            Self::print(&text);
        }
    }

    pub(crate) fn observe(&mut self, status: &Status) {
        let lines = self.lines.lines(status);
        if !lines.is_empty() {
            Self::print(&lines.join("\n"));
        }
    }
}

/// Ctrl-C, checked at most every 20 ms from a run without the GIL: a break keeps the
/// error to raise.
struct Interrupt {
    last: Instant,
    raised: Option<PyErr>,
}

impl Interrupt {
    fn new() -> Self {
        Self {
            last: Instant::now(),
            raised: None,
        }
    }

    fn poll(&mut self) -> ControlFlow<()> {
        if self.last.elapsed() < Duration::from_millis(20) {
            return ControlFlow::Continue(());
        }
        self.last = Instant::now();
        match Python::attach(|py| py.check_signals()) {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                self.raised = Some(e);
                ControlFlow::Break(())
            }
        }
    }
}

/// Checks for Ctrl-C between generations; prints the progress lines of `disp`.
struct Signals {
    interrupt: Interrupt,
    progress: Progress,
}

impl<S: Solver + ?Sized> Observer<S> for Signals {
    fn observe(&mut self, run: &S) -> ControlFlow<()> {
        self.progress.observe(&run.status());
        self.interrupt.poll()
    }
}

/// Runs `options` (with its restarts, if any) on `problem` with the seed's noise, the
/// GIL released; gives the problem back with the outcome.
fn drive<P: ConstrainedProblem + Send>(
    py: Python<'_>,
    problem: P,
    options: &Options,
    disp: usize,
) -> (P, Result<(RunResult, Vec<RestartRecord>), RunError>) {
    py.detach(move || {
        let mut signals = Signals {
            interrupt: Interrupt::new(),
            progress: Progress::new(disp),
        };
        let result = options.build_for(&problem).and_then(|plan| {
            plan.run_with(
                &problem,
                plan.noise(),
                &mut signals as &mut dyn Observer<AskTell<RngNoise>>,
            )
            .map(|r| {
                let restarts = r.restarts.clone();
                (r, restarts)
            })
        });
        signals.progress.finish();
        let outcome = match (result, signals.interrupt.raised) {
            (_, Some(e)) => Err(RunError::Python(e)),
            (Ok(r), None) => Ok(r),
            (Err(e), None) => Err(RunError::Strategy(e)),
        };
        (problem, outcome)
    })
}

enum RunError {
    Python(PyErr),
    Strategy(MaEsError),
}

/// The result as a dict (the Python wrapper makes an `OptimizeResult` of it).
pub(crate) fn result_dict<'py>(
    py: Python<'py>,
    r: RunResult,
    runs: &[RestartRecord],
    l: usize,
    evaluations: Option<(usize, usize)>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    // One dict per run of a restart sequence (empty for one run).
    let restarts = runs
        .iter()
        .map(|h| {
            let run = PyDict::new(py);
            run.set_item("start", h.start)?;
            run.set_item("lambda", h.lambda)?;
            run.set_item("sigma0", h.sigma0)?;
            run.set_item("large", h.large)?;
            run.set_item("polish", h.polish)?;
            run.set_item("t_max", h.t_max)?;
            run.set_item("generations", h.generations)?;
            run.set_item("evaluations", h.evaluations)?;
            run.set_item("fun", h.best.objective)?;
            run.set_item("violation", h.best.violation)?;
            run.set_item("termination", termination_name(h.termination))?;
            Ok(run)
        })
        .collect::<PyResult<Vec<_>>>()?;
    d.set_item("restarts", restarts)?;
    let mut c = r.best.constraints.clone();
    let h = c.split_off(l.min(c.len()));
    d.set_item("x", r.best.x.clone().into_pyarray(py))?;
    d.set_item("fun", r.best.objective())?;
    d.set_item("violation", r.best.violation())?;
    d.set_item("feasible", r.best.is_feasible())?;
    d.set_item("g", c.into_pyarray(py))?;
    d.set_item("h", h.into_pyarray(py))?;
    d.set_item("found_at", r.best.found_at())?;
    d.set_item("evaluations", r.evaluations)?;
    let (nfev, ngev) = evaluations.unwrap_or((r.evaluations, r.evaluations));
    d.set_item("nfev", nfev)?;
    d.set_item("ngev", ngev)?;
    d.set_item("njev", 0)?;
    d.set_item("nit", r.generations)?;
    set_end(
        &d,
        &Outcome::ended_with(r.best.clone(), r.evaluations, r.generations, r.termination),
    )?;
    // The best-so-far at the evaluation counts asked for (`options["checkpoints"]`).
    let checkpoints: Vec<(usize, f64, f64)> = r
        .checkpoints
        .iter()
        .map(|c| (c.evaluations, c.best.objective(), c.best.violation()))
        .collect();
    d.set_item("checkpoints", checkpoints)?;
    d.set_item("epsilon0", r.epsilon0)?;
    d.set_item("sigma", r.sigma)?;
    d.set_item("resets", r.resets)?;
    if let Some(dynamics) = r.dynamics {
        let history = PyDict::new(py);
        let column = |f: &dyn Fn(&ma_es::DynamicsRecord) -> f64| -> Vec<f64> {
            dynamics.iter().map(f).collect()
        };
        history.set_item(
            "generation",
            dynamics
                .iter()
                .map(|r| r.generation)
                .collect::<Vec<_>>()
                .into_pyarray(py),
        )?;
        history.set_item(
            "evaluations",
            dynamics
                .iter()
                .map(|r| r.evaluations)
                .collect::<Vec<_>>()
                .into_pyarray(py),
        )?;
        history.set_item("fun", column(&|r| r.best.objective).into_pyarray(py))?;
        history.set_item("violation", column(&|r| r.best.violation).into_pyarray(py))?;
        history.set_item("sigma", column(&|r| r.sigma).into_pyarray(py))?;
        history.set_item("epsilon", column(&|r| r.epsilon).into_pyarray(py))?;
        d.set_item("history", history)?;
    }
    Ok(d)
}

/// Why a run ended, as Python sees it (`message`): [`Termination::name`].
pub(crate) fn termination_name(t: Termination) -> &'static str {
    t.name()
}

/// The end of a run where Python reads it — `termination` (the word), `status`
/// (scipy's number, −1 running), `success` and `message` — all from the one rule of a
/// run's end ([`Outcome`]: `success` only for a run that converged, or reached its
/// target, on a feasible point).
pub(crate) fn set_end(d: &Bound<'_, PyDict>, outcome: &Outcome) -> PyResult<()> {
    d.set_item("termination", outcome.name())?;
    d.set_item("status", outcome.status())?;
    d.set_item("success", outcome.success())?;
    d.set_item("message", outcome.message())?;
    Ok(())
}

/// Runs the strategy on one of the suites' problems, entirely in Rust.
#[pyfunction]
#[pyo3(name = "_run_native")]
pub fn run_native<'py>(
    py: Python<'py>,
    problem: &Bound<'py, PyAny>,
    variant: &str,
    options: PyRef<'_, PyOptions>,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let p = native(problem)
        .ok_or_else(|| PyValueError::new_err("not a problem of the emages suites"))?;
    let (options, disp) = run_options(variant, &options, seed)?;
    let l = p.num_inequalities();
    let (_, outcome) = drive(py, p, &options, disp);
    let (r, runs) = outcome.map_err(|e| match e {
        RunError::Python(e) => e,
        RunError::Strategy(e) => to_py(e),
    })?;
    result_dict(py, r, &runs, l, None)
}

/// Runs the strategy on a problem of Python callables.
#[pyfunction]
#[pyo3(name = "_run_callbacks", signature = (fun, ineq, eq, joint, vectorized, lower, upper, n_ineq, n_eq, margin, variant, options, seed, jac=None))]
#[allow(clippy::too_many_arguments)]
pub fn run_callbacks<'py>(
    py: Python<'py>,
    fun: Py<PyAny>,
    ineq: Option<Py<PyAny>>,
    eq: Option<Py<PyAny>>,
    joint: bool,
    vectorized: bool,
    lower: Vec<f64>,
    upper: Vec<f64>,
    n_ineq: usize,
    n_eq: usize,
    margin: f64,
    variant: &str,
    options: PyRef<'_, PyOptions>,
    seed: u64,
    jac: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (options, disp) = run_options(variant, &options, seed)?;
    let problem = callback_problem(
        fun,
        ineq,
        eq,
        joint,
        vectorized,
        lower,
        upper,
        (n_ineq, n_eq),
        margin,
    )?
    .with_jacobian(jac);
    let (problem, outcome) = drive(py, problem, &options, disp);
    // The callable's own exception first, as it was raised.
    if let Some(e) = problem.take_error() {
        return Err(e);
    }
    let (r, runs) = outcome.map_err(|e| match e {
        RunError::Python(e) => e,
        RunError::Strategy(e) => to_py(e),
    })?;
    let counts = problem.evaluations();
    let d = result_dict(py, r, &runs, n_ineq, Some(counts))?;
    d.set_item("njev", problem.jacobians())?;
    Ok(d)
}

/// The seed of run `run` of configuration `label` on problem `problem` in dimension
/// `dim` of a study with base seed `base` (the harness's seeds: a Python run with it
/// repeats that study's run).
#[pyfunction]
#[pyo3(name = "run_seed")]
pub fn run_seed(base: u64, label: &str, problem: usize, dim: usize, run: usize) -> u64 {
    emages_harness::study::run_seed(base, label, problem, dim, run)
}

/// The user's callables as a problem in the box `[lower, upper]` with `(l, m)`
/// constraints and the equality margin `margin`.
#[allow(clippy::too_many_arguments)]
fn callback_problem(
    fun: Py<PyAny>,
    ineq: Option<Py<PyAny>>,
    eq: Option<Py<PyAny>>,
    joint: bool,
    vectorized: bool,
    lower: Vec<f64>,
    upper: Vec<f64>,
    (l, m): (usize, usize),
    margin: f64,
) -> PyResult<CallbackProblem> {
    let callables = if joint {
        Callables::Joint(fun)
    } else {
        Callables::Separate { fun, ineq, eq }
    };
    let mut shape = ProblemShape::new(lower, upper, l, m).map_err(to_py)?;
    shape.equality_margin = margin;
    Ok(CallbackProblem::new(callables, vectorized, shape))
}

/// Runs the portfolio (`variant="portfolio"`, [`ma_es::portfolio`]) on Python
/// callables, the GIL released between calls, with the typed `emages.PortfolioOptions`
/// (`budget`, default `20000 · N`, and the fields of [`PortfolioSettings`]). `x0`
/// is the first start (default: the box's centre); `jac`, the constraints' Jacobian,
/// goes to the ES rounds' repair, and with `grad`, the objective's gradient, to the
/// local phase (else it takes differences).
#[pyfunction]
#[pyo3(name = "_run_portfolio", signature = (fun, ineq, eq, joint, vectorized, lower, upper, n_ineq, n_eq, margin, options, seed, x0=None, jac=None, history=false, grad=None))]
#[allow(clippy::too_many_arguments)]
pub fn run_portfolio<'py>(
    py: Python<'py>,
    fun: Py<PyAny>,
    ineq: Option<Py<PyAny>>,
    eq: Option<Py<PyAny>>,
    joint: bool,
    vectorized: bool,
    lower: Vec<f64>,
    upper: Vec<f64>,
    n_ineq: usize,
    n_eq: usize,
    margin: f64,
    options: PyRef<'_, PyPortfolioOptions>,
    seed: u64,
    x0: Option<Vec<f64>>,
    jac: Option<Py<PyAny>>,
    history: bool,
    grad: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (budget, settings) = portfolio_options(&options, lower.len());
    let limits = portfolio_limits(&options, budget);
    let problem = callback_problem(
        fun,
        ineq,
        eq,
        joint,
        vectorized,
        lower,
        upper,
        (n_ineq, n_eq),
        margin,
    )?
    .with_jacobian(jac)
    .with_gradient(grad);
    let mut run = portfolio_plan(settings, budget, seed, x0)
        .build_for(&problem)
        .and_then(|plan| plan.ask_tell())
        .map_err(to_py)?;
    // Ctrl-C is checked at every call of the callables.
    let (problem, run, outcome, steps) = py.detach(move || {
        let mut steps = Vec::new();
        let mut observe = |r: &Portfolio| {
            if history {
                steps.push(r.status());
            }
            ControlFlow::Continue(())
        };
        let outcome = Driver::new(&mut run)
            .limits(limits)
            .observe(&mut observe)
            .run(&problem);
        (problem, run, outcome, steps)
    });
    if let Some(e) = problem.take_error() {
        return Err(e);
    }
    let outcome = outcome.map_err(to_py)?;
    let d = portfolio_result(py, &run, &outcome.best, n_ineq, problem.evaluations())?;
    set_end(&d, &outcome)?;
    d.set_item("njev", problem.jacobians())?;
    if history {
        d.set_item("history", portfolio_history(py, &steps)?)?;
    }
    Ok(d)
}

/// The options of a portfolio run from Python: `settings`, `budget`, `seed`, the first
/// start `x0`, and the problem's own equality margin (Python's callables carry the
/// margin `minimize` was given, the suites' problems their own).
pub(crate) fn portfolio_plan(
    settings: PortfolioSettings,
    budget: usize,
    seed: u64,
    x0: Option<Vec<f64>>,
) -> emages::Options {
    let options = emages::Options::recommended()
        .with_settings(settings)
        .equality_margin(None)
        .budget(budget)
        .seed(seed);
    match x0 {
        Some(x0) => options.start(x0),
        None => options,
    }
}

/// Runs the portfolio on one of the suites' problems, entirely in Rust (its own
/// equality margin, as the ES variants run it), with the typed `emages.PortfolioOptions`;
/// `x0` is the first start (default: the box's centre).
#[pyfunction]
#[pyo3(name = "_run_portfolio_native", signature = (problem, options, seed, x0=None, history=false))]
pub fn run_portfolio_native<'py>(
    py: Python<'py>,
    problem: &Bound<'py, PyAny>,
    options: PyRef<'_, PyPortfolioOptions>,
    seed: u64,
    x0: Option<Vec<f64>>,
    history: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let p = native(problem)
        .ok_or_else(|| PyValueError::new_err("not a problem of the emages suites"))?;
    let (budget, settings) = portfolio_options(&options, p.dim());
    let limits = portfolio_limits(&options, budget);
    let mut run = portfolio_plan(settings, budget, seed, x0)
        .build_for(p.as_ref())
        .and_then(|plan| plan.ask_tell())
        .map_err(to_py)?;
    let l = p.num_inequalities();
    // Ctrl-C is checked between iterations, at most every 20 ms (as the ES's native
    // runs check it between generations).
    let (run, outcome, steps, raised) = py.detach(move || {
        let (mut steps, mut interrupt) = (Vec::new(), Interrupt::new());
        let mut observe = |r: &Portfolio| {
            if history {
                steps.push(r.status());
            }
            interrupt.poll()
        };
        let outcome = Driver::new(&mut run)
            .limits(limits)
            .observe(&mut observe)
            .run(p.as_ref());
        (run, outcome, steps, interrupt.raised)
    });
    if let Some(e) = raised {
        return Err(e);
    }
    let outcome = outcome.map_err(to_py)?;
    let evaluations = run.evaluations();
    let d = portfolio_result(py, &run, &outcome.best, l, (evaluations, evaluations))?;
    set_end(&d, &outcome)?;
    if history {
        d.set_item("history", portfolio_history(py, &steps)?)?;
    }
    Ok(d)
}

/// A portfolio run's history, one entry per iteration ([`Status`]): the columns
/// `generation` (the iteration), `evaluations`, the best-so-far `fun` and `violation`,
/// `sigma` (the local phase's step bound or the ES's σ), `epsilon` (NaN in the local
/// phase) and `local` (whether the iteration was the local phase's).
pub(crate) fn portfolio_history<'py>(
    py: Python<'py>,
    steps: &[Status],
) -> PyResult<Bound<'py, PyDict>> {
    let history = PyDict::new(py);
    let whole = |f: &dyn Fn(&Status) -> usize| steps.iter().map(f).collect::<Vec<_>>();
    let real = |f: &dyn Fn(&Status) -> f64| steps.iter().map(f).collect::<Vec<_>>();
    history.set_item("generation", whole(&|s| s.iterations).into_pyarray(py))?;
    history.set_item("evaluations", whole(&|s| s.evaluations).into_pyarray(py))?;
    history.set_item("fun", real(&|s| s.objective).into_pyarray(py))?;
    history.set_item("violation", real(&|s| s.violation).into_pyarray(py))?;
    history.set_item("sigma", real(&|s| s.step_size).into_pyarray(py))?;
    history.set_item("epsilon", real(&|s| s.epsilon).into_pyarray(py))?;
    history.set_item(
        "local",
        steps
            .iter()
            .map(Status::is_local)
            .collect::<Vec<_>>()
            .into_pyarray(py),
    )?;
    Ok(history)
}

/// A portfolio run's result as a dict (as [`result_dict`]'s, without the ES's fields):
/// `(nfev, ngev)` the evaluation counts.
pub(crate) fn portfolio_result<'py>(
    py: Python<'py>,
    run: &Portfolio,
    best: &Best,
    n_ineq: usize,
    (nfev, ngev): (usize, usize),
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let mut g = best.constraints.clone();
    let h = g.split_off(n_ineq.min(g.len()));
    d.set_item("x", best.x.clone().into_pyarray(py))?;
    d.set_item("fun", best.objective())?;
    d.set_item("violation", best.violation())?;
    d.set_item("feasible", best.is_feasible())?;
    d.set_item("g", g.into_pyarray(py))?;
    d.set_item("h", h.into_pyarray(py))?;
    d.set_item("found_at", best.found_at())?;
    d.set_item("evaluations", run.evaluations())?;
    d.set_item("nfev", nfev)?;
    d.set_item("ngev", ngev)?;
    d.set_item("njev", 0)?;
    d.set_item("nit", run.iterations())?;
    d.set_item("restarts", Vec::<Py<PyAny>>::new())?;
    d.set_item("checkpoints", Vec::<(usize, f64, f64)>::new())?;
    d.set_item("rounds", run.round() + 1)?;
    d.set_item("confirmations", run.confirmations())?;
    d.set_item("sigma", run.step_size())?;
    Ok(d)
}

/// The portfolio's budget (default `20000 · N`) and settings from the typed
/// `emages.PortfolioOptions`.
pub(crate) fn portfolio_options(
    options: &PyPortfolioOptions,
    dim: usize,
) -> (usize, PortfolioSettings) {
    let run = &options.given.value;
    (run.budget.unwrap_or(20_000 * dim), run.settings.clone())
}

/// The limits of a portfolio run of `emages.PortfolioOptions`: its budget and
/// iteration limit (`max_iterations`, scipy's `maxiter`).
pub(crate) fn portfolio_limits(options: &PyPortfolioOptions, budget: usize) -> Limits {
    Limits {
        budget: Some(budget),
        max_iterations: options.given.value.max_iterations,
        target: None,
    }
}
