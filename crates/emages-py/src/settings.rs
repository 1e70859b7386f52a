//! A run's settings as Python gives them, field by field: `emages.Options` (the
//! strategy's constants [`Config`], the run's [`Limits`], the [`Convergence`] criteria
//! and the progress lines of `disp`) and `emages.PortfolioOptions` (the budget and the
//! fields of [`PortfolioSettings`] and its [`SqpSettings`]).
//!
//! Each field has one entry in a table ([`OPTIONS`], [`PORTFOLIO_OPTIONS`]): its key,
//! the other spellings it answers to (scipy's `maxiter` and `maxfev`, pycma's
//! `popsize`), the Rust field it sets and what a value must be. A value is checked
//! against its type where Python hands it over (a whole number, a finite number, a
//! sequence of them, …), and the error names the key, what was expected and what came;
//! the ranges that depend on the problem (λ ≥ 2, μ ≤ λ, …) are checked where the run is
//! built, as in Rust. No JSON crosses the boundary.

use emages::portfolio::PortfolioSettings;
use ma_es::control::{Convergence, Limits};
use ma_es::BackCalculationSolver;
use ma_es::{ComponentSpec, Config, Options};
use pyo3::exceptions::{PyAttributeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use pyo3::IntoPyObjectExt;

/// A value a field holds: how it comes from Python (`Err`: what was expected) and how
/// it goes back.
trait Setting: Sized {
    /// What a value must be.
    fn expects() -> String;
    /// The value's Python type, as the type stubs write it.
    fn py_type() -> String;
    /// The value `v` gives, or what a value must be (with the reason, where one helps).
    fn from_py(v: &Bound<'_, PyAny>) -> Result<Self, String>;
    /// The value as Python sees it.
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>>;
}

/// A Python `int` (or anything with `__index__`, numpy's integers among them), not a
/// `bool`.
fn whole(v: &Bound<'_, PyAny>) -> Option<u64> {
    if v.is_instance_of::<PyBool>() {
        return None;
    }
    v.extract::<u64>().ok()
}

impl Setting for usize {
    fn expects() -> String {
        "a whole number >= 0".into()
    }
    fn py_type() -> String {
        "int".into()
    }
    fn from_py(v: &Bound<'_, PyAny>) -> Result<Self, String> {
        whole(v)
            .and_then(|k| usize::try_from(k).ok())
            .ok_or_else(Self::expects)
    }
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.into_bound_py_any(py)
    }
}

impl Setting for f64 {
    fn expects() -> String {
        "a finite number".into()
    }
    fn py_type() -> String {
        "float".into()
    }
    fn from_py(v: &Bound<'_, PyAny>) -> Result<Self, String> {
        let number = v.is_instance_of::<PyFloat>() || v.is_instance_of::<PyInt>() || {
            // numpy's scalars and other numbers.Real that are not Python's own.
            !v.is_instance_of::<PyBool>()
                && !v.is_instance_of::<PyString>()
                && v.hasattr("__float__").unwrap_or(false)
        };
        match v.extract::<f64>() {
            Ok(x) if number && !v.is_instance_of::<PyBool>() && x.is_finite() => Ok(x),
            _ => Err(Self::expects()),
        }
    }
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.into_bound_py_any(py)
    }
}

impl Setting for bool {
    fn expects() -> String {
        "True or False".into()
    }
    fn py_type() -> String {
        "bool".into()
    }
    fn from_py(v: &Bound<'_, PyAny>) -> Result<Self, String> {
        v.cast::<PyBool>()
            .map(|b| b.is_true())
            .map_err(|_| Self::expects())
    }
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.into_bound_py_any(py)
    }
}

impl<T: Setting> Setting for Option<T> {
    fn expects() -> String {
        format!("{}, or None", T::expects())
    }
    fn py_type() -> String {
        format!("Optional[{}]", T::py_type())
    }
    fn from_py(v: &Bound<'_, PyAny>) -> Result<Self, String> {
        if v.is_none() {
            return Ok(None);
        }
        T::from_py(v).map(Some).map_err(|e| format!("{e}, or None"))
    }
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Some(x) => x.to_py(py),
            None => Ok(py.None().into_bound(py)),
        }
    }
}

impl<T: Setting> Setting for Vec<T> {
    fn expects() -> String {
        format!("a sequence, each item {}", T::expects())
    }
    fn py_type() -> String {
        format!("List[{}]", T::py_type())
    }
    fn from_py(v: &Bound<'_, PyAny>) -> Result<Self, String> {
        if v.is_instance_of::<PyString>() {
            return Err(Self::expects());
        }
        let items = v.try_iter().map_err(|_| Self::expects())?;
        items
            .map(|item| item.ok().and_then(|i| T::from_py(&i).ok()))
            .collect::<Option<_>>()
            .ok_or_else(Self::expects)
    }
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let items = self
            .iter()
            .map(|x| x.to_py(py))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PyList::new(py, items)?.into_any())
    }
}

impl Setting for ComponentSpec {
    fn expects() -> String {
        "a variant, e.g. \"eps-mag-es-r\" or PRESET:KEY=VALUE…".into()
    }
    fn py_type() -> String {
        "str".into()
    }
    fn from_py(v: &Bound<'_, PyAny>) -> Result<Self, String> {
        let text = v.extract::<String>().map_err(|_| Self::expects())?;
        text.parse().map_err(|e| format!("a variant ({e})"))
    }
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.to_string().into_bound_py_any(py)
    }
}

/// `"pseudo-inverse"`, `"lu"` (the default reciprocal condition number, `1e-8`) or
/// `{"method": "lu", "min_rcond": r}`.
impl Setting for BackCalculationSolver {
    fn expects() -> String {
        "\"pseudo-inverse\", \"lu\" or {\"method\": \"lu\", \"min_rcond\": r}".into()
    }
    fn py_type() -> String {
        "Union[str, Dict[str, Any]]".into()
    }
    fn from_py(v: &Bound<'_, PyAny>) -> Result<Self, String> {
        let expected = Self::expects;
        if let Ok(name) = v.extract::<String>() {
            return match name.as_str() {
                "pseudo-inverse" => Ok(Self::PseudoInverse),
                "lu" => Ok(Self::default()),
                _ => Err(expected()),
            };
        }
        let d = v.cast::<PyDict>().map_err(|_| expected())?;
        let method: Option<String> = d
            .get_item("method")
            .ok()
            .flatten()
            .and_then(|m| m.extract().ok());
        let rcond = d.get_item("min_rcond").ok().flatten();
        match (method.as_deref(), rcond, d.len()) {
            (Some("pseudo-inverse"), None, 1) => Ok(Self::PseudoInverse),
            (Some("lu"), None, 1) => Ok(Self::default()),
            (Some("lu"), Some(r), 2) => Ok(Self::Lu {
                min_rcond: f64::from_py(&r).map_err(|_| expected())?,
            }),
            _ => Err(expected()),
        }
    }
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Self::PseudoInverse => "pseudo-inverse".into_bound_py_any(py),
            Self::Lu { min_rcond } => {
                let d = PyDict::new(py);
                d.set_item("method", "lu")?;
                d.set_item("min_rcond", min_rcond)?;
                Ok(d.into_any())
            }
        }
    }
}

/// Every how many generations `disp` prints a progress line (0: never): `True` every
/// 100 (pycma's `verb_disp`), `False` or `None` never, a whole number `k` every `k`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Display(pub usize);

impl Setting for Display {
    fn expects() -> String {
        "True, False or a number of iterations >= 1".into()
    }
    fn py_type() -> String {
        "int".into()
    }
    fn from_py(v: &Bound<'_, PyAny>) -> Result<Self, String> {
        if v.is_none() {
            return Ok(Self(0));
        }
        if let Ok(b) = v.cast::<PyBool>() {
            return Ok(Self(if b.is_true() { 100 } else { 0 }));
        }
        usize::from_py(v).map(Self).map_err(|_| Self::expects())
    }
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.0.into_bound_py_any(py)
    }
}

/// One field of a settings table.
pub(crate) struct Field<S> {
    /// The key (the Rust field's name).
    pub key: &'static str,
    /// Other keys that name the same field.
    pub aliases: &'static [&'static str],
    /// What it sets, in a line (the docs' tables and the type stubs are made of it).
    pub doc: &'static str,
    /// What a value must be.
    expects: fn() -> String,
    /// The value's Python type.
    py_type: fn() -> String,
    /// Sets the field from a Python value (`Err`: what a value must be).
    set: fn(&mut S, &Bound<'_, PyAny>) -> Result<(), String>,
    /// The field's value.
    get: for<'py> fn(&S, Python<'py>) -> PyResult<Bound<'py, PyAny>>,
}

/// A table entry: `field!(S, "key" | "alias"…, path.to.field, "what it sets")`.
macro_rules! field {
    ($s:ty, $key:literal $(| $alias:literal)*, $($path:ident).+, $doc:literal) => {
        Field::<$s> {
            key: $key,
            aliases: &[$($alias),*],
            doc: $doc,
            expects: || setting_of(None::<&$s>.map(|s| &s.$($path).+)).0,
            py_type: || setting_of(None::<&$s>.map(|s| &s.$($path).+)).1,
            set: |s, v| {
                s.$($path).+ = Setting::from_py(v)?;
                Ok(())
            },
            get: |s, py| s.$($path).+.to_py(py),
        }
    };
    // A count of at least 1, or `None` (the default).
    (@positive $s:ty, $key:literal $(| $alias:literal)*, $($path:ident).+, $doc:literal) => {
        Field::<$s> {
            key: $key,
            aliases: &[$($alias),*],
            doc: $doc,
            expects: || "a whole number >= 1, or None (the default)".to_string(),
            py_type: || "Optional[int]".to_string(),
            set: |s, v| {
                let expected = || "a whole number >= 1, or None (the default)".to_string();
                let k: Option<usize> = Setting::from_py(v).map_err(|_| expected())?;
                if k == Some(0) {
                    return Err(expected());
                }
                s.$($path).+ = k;
                Ok(())
            },
            get: |s, py| s.$($path).+.to_py(py),
        }
    };
}

/// `(expects, py_type)` of the setting a field's path reaches (its type inferred from
/// the path: no value is read).
fn setting_of<T: Setting>(_field: Option<&T>) -> (String, String) {
    (T::expects(), T::py_type())
}

/// What `minimize`'s and `AskTell`'s `options` set: the fields of Rust's
/// [`Options`] but its component spec and seed (they are arguments of their own).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunSettings {
    /// The strategy's constants.
    pub config: Config,
    /// Budget, generation limits, checkpoints, the recorded dynamics.
    pub limits: Limits,
    /// When the run has converged (on by default).
    pub convergence: Convergence,
    /// The progress lines.
    pub disp: Display,
}

impl RunSettings {
    /// Rust's [`Options`] for the strategy `spec`.
    pub fn options(&self, spec: ComponentSpec) -> Options {
        Options::new(spec)
            .config(self.config.clone())
            .limits(self.limits.clone())
            .convergence(self.convergence)
    }
}

/// The fields of `emages.Options`, in the order of the documentation.
pub(crate) const OPTIONS: &[Field<RunSettings>] = &[
    field!(@positive RunSettings, "budget" | "maxfev", limits.budget,
        "evaluations at most (default 20000 N)"),
    field!(@positive RunSettings, "max_generations" | "maxiter", limits.max_total_generations,
        "generations at most, over all runs of a restart sequence (scipy's maxiter)"),
    field!(RunSettings, "max_generations_per_run", limits.max_generations,
        "generations at most of each run of a restart sequence (default 2000 N)"),
    field!(RunSettings, "checkpoints", limits.checkpoints,
        "evaluation counts at which the best-so-far is recorded (result['checkpoints'])"),
    field!(RunSettings, "record_dynamics", limits.record_dynamics,
        "record the per-generation dynamics (history=True sets it)"),
    field!(RunSettings, "tol_fun", convergence.tol_fun,
        "stop once the offspring's f and violation and the recent lowest lie within it (0: off)"),
    field!(RunSettings, "tol_x", convergence.tol_x,
        "stop once every coordinate's step is below it (0: off)"),
    field!(RunSettings, "target", convergence.target,
        "stop once a feasible best-so-far has f <= target"),
    field!(RunSettings, "stagnation", convergence.stagnation,
        "stop after this many generations without improvement (0: off; default 100 + 100 N^1.5 / lambda)"),
    field!(RunSettings, "disp", disp,
        "a progress line every k generations (True: 100), and the first three and the last"),
    field!(RunSettings, "sigma0", config.sigma0, "the initial step size"),
    field!(RunSettings, "initial_mean", config.initial_mean,
        "the initial mean (x0 sets it; default: uniform in the box)"),
    field!(RunSettings, "lambda" | "lambda_" | "popsize", config.lambda,
        "the population size (default 4 N)"),
    field!(RunSettings, "mu", config.mu, "the parents (default lambda / 3)"),
    field!(RunSettings, "weights", config.weights, "the recombination weights (default equal)"),
    field!(RunSettings, "c_sigma", config.c_sigma, "the cumulation constant of the search path"),
    field!(RunSettings, "c1", config.c1, "the rank-one learning rate of M"),
    field!(RunSettings, "c_mu", config.c_mu, "the rank-mu learning rate of M"),
    field!(RunSettings, "sigma_max", config.sigma_max, "the cap on sigma"),
    field!(RunSettings, "t_max", config.t_max, "the generation at which epsilon reaches 0"),
    field!(RunSettings, "theta_t", config.theta_t, "the share of the population that sets epsilon_0"),
    field!(RunSettings, "gamma_min", config.gamma_min, "the least exponent of the epsilon decay"),
    field!(RunSettings, "theta_p", config.theta_p, "the repair's probability"),
    field!(RunSettings, "theta_r", config.theta_r, "the repair's period in generations"),
    field!(RunSettings, "eta", config.eta, "the repair's step budget"),
    field!(RunSettings, "pinv_tolerance", config.pinv_tolerance,
        "the pseudo-inverse's cutoff of small singular values"),
    field!(RunSettings, "back_calculation", config.back_calculation,
        "how the back-calculation solves for z (pseudo-inverse or LU)"),
];

/// What the portfolio's `options` set: its budget and iteration limit, the progress
/// lines and the fields of [`PortfolioSettings`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PortfolioRun {
    /// Evaluations at most (`None`: `20000 · N`).
    pub budget: Option<usize>,
    /// Iterations at most (`None`: no limit).
    pub max_iterations: Option<usize>,
    /// The progress lines.
    pub disp: Display,
    /// The portfolio's settings.
    pub settings: PortfolioSettings,
}

/// The fields of `emages.PortfolioOptions` (the local phase's with `sqp_` before them).
pub(crate) const PORTFOLIO_OPTIONS: &[Field<PortfolioRun>] = &[
    field!(@positive PortfolioRun, "budget" | "maxfev", budget,
        "evaluations at most (default 20000 N)"),
    field!(@positive PortfolioRun, "max_iterations" | "maxiter", max_iterations,
        "iterations at most: steps of the local phase and generations of the ES rounds (scipy's maxiter)"),
    field!(PortfolioRun, "disp", disp,
        "a progress line every k iterations (True: 100), and the first three and the last"),
    field!(PortfolioRun, "confirmations", settings.confirmations,
        "stop once this many runs of the local phase in a row end at the best point (0: run to the budget)"),
    field!(PortfolioRun, "confirm_tolerance", settings.confirm_tolerance,
        "a run of the local phase confirms the best point within this times max(1, |f|) (tol and pycma's tolfun set it)"),
    field!(PortfolioRun, "es_budget_per_dim", settings.es_budget_per_dim,
        "the first round's ES budget per dimension (round r: times 2^r)"),
    field!(PortfolioRun, "initial_share", settings.initial_share,
        "the local phase's first share of a round's budget"),
    field!(PortfolioRun, "max_share", settings.max_share, "the local phase's largest share"),
    field!(PortfolioRun, "es", settings.es, "the ES of each round"),
    field!(PortfolioRun, "sigma0", settings.sigma0, "the initial step size of the ES rounds"),
    field!(PortfolioRun, "target", settings.target,
        "stop once a feasible best point has f <= target"),
    field!(PortfolioRun, "patience", settings.patience,
        "also stop once two runs of the local phase, and half of those ended, ended at the best point, and the confirmations still wanted would cost over 100 N and end after e + max(2 e, 100 N), e the last clear improvement"),
    field!(PortfolioRun, "confirm_early", settings.confirm_early,
        "a restart of the local phase confirms as soon as it matches the best point, without converging all the way"),
    field!(PortfolioRun, "warm_curvature", settings.warm_curvature,
        "a restart of the local phase starts from the curvature model of the run before it, where that run ended at the best point"),
    field!(PortfolioRun, "bound_local_runs", settings.bound_local_runs,
        "end a run of the local phase once it has spent the round's ES budget"),
    field!(PortfolioRun, "sqp_initial_step", settings.sqp.initial_step,
        "the local phase's first step bound (default a quarter of the box's narrowest side)"),
    field!(PortfolioRun, "sqp_difference_step", settings.sqp.difference_step,
        "the relative forward-difference step"),
    field!(PortfolioRun, "sqp_margin", settings.sqp.margin,
        "the back-off that makes the linearised inequalities strictly feasible"),
    field!(PortfolioRun, "sqp_step_tolerance", settings.sqp.step_tolerance,
        "the local phase converges when a step is below this times max(1, |x|) at a feasible iterate, below min(this, 1e-10) elsewhere (tol sets it)"),
    field!(PortfolioRun, "sqp_accuracy", settings.sqp.accuracy,
        "the accuracy asked for (tol sets it): the back-off is scaled down while it costs more than this times max(1, |f|) (None: it holds to the end)"),
    field!(PortfolioRun, "sqp_decrease_tolerance", settings.sqp.decrease_tolerance,
        "the local phase converges when its model promises a decrease below this times max(1, |f|) (0: off)"),
    field!(PortfolioRun, "sqp_speculative_probes", settings.sqp.speculative_probes,
        "the start, and a full step after a taken full step, asked with the N difference probes around them in one request of N + 1 points (until two such full steps were rejected in the run)"),
    field!(PortfolioRun, "sqp_capped_first_scale", settings.sqp.capped_first_scale,
        "the first curvature update scales the model by at most 1 (min(1, y'y / s'y)) when the first line search cut the step below 0.1"),
    field!(PortfolioRun, "sqp_relaxation_weight", settings.sqp.relaxation_weight,
        "the weight of the relaxation of inconsistent linearised constraints"),
    field!(PortfolioRun, "sqp_curvature_steering", settings.sqp.curvature_steering,
        "the merit's weights steered with the model's curvature"),
    field!(PortfolioRun, "sqp_second_order_correction", settings.sqp.second_order_correction,
        "a rejected full step tried once more with the second-order correction"),
];

/// A table's settings with the keys given explicitly, in the order given.
#[derive(Clone)]
pub(crate) struct Given<S: 'static> {
    pub value: S,
    /// The keys set (each a field's key, not an alias).
    pub keys: Vec<&'static str>,
    table: &'static [Field<S>],
    /// The class's name, for messages.
    class: &'static str,
}

impl<S: Clone + Default> Given<S> {
    fn new(table: &'static [Field<S>], class: &'static str) -> Self {
        Self {
            value: S::default(),
            keys: Vec::new(),
            table,
            class,
        }
    }

    /// Every key and alias, sorted.
    fn names(&self) -> Vec<&'static str> {
        let mut names: Vec<&str> = self
            .table
            .iter()
            .flat_map(|f| std::iter::once(f.key).chain(f.aliases.iter().copied()))
            .collect();
        names.sort_unstable();
        names
    }

    fn field(&self, name: &str) -> Option<&'static Field<S>> {
        self.table
            .iter()
            .find(|f| f.key == name || f.aliases.contains(&name))
    }

    /// These settings with `fields` set (a key given twice, under two spellings, is
    /// an error).
    fn with(&self, fields: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let mut next = self.clone();
        let mut now: Vec<(&str, &str)> = Vec::new();
        for (name, value) in fields.into_iter().flatten() {
            let name: String = name.extract().map_err(|_| {
                PyValueError::new_err(format!("{}: keys are strings, not {name:?}", self.class))
            })?;
            let Some(field) = self.field(&name) else {
                return Err(PyValueError::new_err(format!(
                    "options: unknown key {name:?}{}; the keys are {}",
                    other_class(&name, self.class),
                    self.names().join(", ")
                )));
            };
            if let Some((other, _)) = now.iter().find(|(_, key)| *key == field.key) {
                return Err(PyValueError::new_err(format!(
                    "options: {other} and {name} are the same setting: give one of them"
                )));
            }
            (field.set)(&mut next.value, &value).map_err(|expected| {
                let got = value
                    .repr()
                    .map_or_else(|_| "?".to_string(), |r| r.to_string());
                PyValueError::new_err(format!("options: {name} must be {expected}, not {got}"))
            })?;
            now.push((field_name(&name, field), field.key));
            if !next.keys.contains(&field.key) {
                next.keys.push(field.key);
            }
        }
        Ok(next)
    }

    fn get<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        match self.field(name) {
            Some(field) => (field.get)(&self.value, py),
            None => Err(PyAttributeError::new_err(format!(
                "{} has no setting {name:?}; the keys are {}",
                self.class,
                self.names().join(", ")
            ))),
        }
    }

    /// Every field, by key, in the table's order.
    fn to_dict<'py>(&self, py: Python<'py>, only_given: bool) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for f in self.table {
            if !only_given || self.keys.contains(&f.key) {
                d.set_item(f.key, (f.get)(&self.value, py)?)?;
            }
        }
        Ok(d)
    }

    fn repr(&self, py: Python<'_>) -> PyResult<String> {
        let parts = self
            .table
            .iter()
            .filter(|f| self.keys.contains(&f.key))
            .map(|f| {
                let value = (f.get)(&self.value, py)?.repr()?.to_string();
                // `lambda` is a Python keyword: the repr spells it as it can be typed.
                let key = if f.key == "lambda" { "lambda_" } else { f.key };
                Ok(format!("{key}={value}"))
            })
            .collect::<PyResult<Vec<_>>>()?;
        Ok(format!("{}({})", self.class, parts.join(", ")))
    }
}

/// The spelling a user gave, as a `'static` name of the table.
/// Whether `name` is a key (or another spelling of one) of `table`.
fn has_key<S>(table: &[Field<S>], name: &str) -> bool {
    table
        .iter()
        .any(|f| f.key == name || f.aliases.contains(&name))
}

/// Where a key unknown to `class` belongs, if it is a key of the other settings class:
/// an ES key given to the portfolio (`lambda`, `tol_fun`, …) names the ES variants, a
/// portfolio key given to an ES the portfolio.
fn other_class(name: &str, class: &str) -> String {
    let es = has_key(OPTIONS, name);
    let portfolio = has_key(PORTFOLIO_OPTIONS, name);
    match class {
        "PortfolioOptions" if es => {
            // The ES's convergence criteria have the portfolio's stopping rule as their
            // counterpart (emages.NO_CONVERGENCE given to the default, say).
            let stop = if matches!(name, "tol_fun" | "tol_x" | "stagnation") {
                "; the portfolio stops by its own rule, confirmations (0: to the budget)"
            } else {
                ""
            };
            format!(
                " for the portfolio: {name} is a setting of the ES variants (emages.Options), \
                 which a variant such as variant=\"eps-mag-es-r\" takes{stop}"
            )
        }
        "Options" if portfolio => format!(
            " for an ES variant: {name} is a setting of the portfolio (emages.PortfolioOptions, \
             variant=\"portfolio\")"
        ),
        _ => String::new(),
    }
}

fn field_name<S>(given: &str, field: &'static Field<S>) -> &'static str {
    std::iter::once(field.key)
        .chain(field.aliases.iter().copied())
        .find(|n| *n == given)
        .unwrap_or(field.key)
}

/// A Python class over a settings table: the struct (`given`) and its methods —
/// `Class(**fields)`, `replace`, `is_given`, `to_dict`, `keys`, attribute access, `repr`,
/// `==` and pickling (`__getnewargs_ex__`: the fields given).
macro_rules! settings_class {
    ($(#[$doc:meta])* $class:ident, $name:literal, $s:ty, $table:expr, [$($extra:literal),*]) => {
        $(#[$doc])*
        #[pyclass(name = $name, module = "emages", frozen)]
        #[derive(Clone)]
        pub struct $class {
            pub(crate) given: Given<$s>,
        }

        #[pymethods]
        impl $class {
            #[new]
            #[pyo3(signature = (**fields))]
            fn new(fields: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
                Ok(Self {
                    given: Given::new($table, $name).with(fields)?,
                })
            }

            /// A copy with `fields` set.
            #[pyo3(signature = (**fields))]
            fn replace(&self, fields: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
                Ok(Self {
                    given: self.given.with(fields)?,
                })
            }

            /// Whether `key` (or one of its spellings) was given.
            fn is_given(&self, key: &str) -> PyResult<bool> {
                let field = self.given.field(key).ok_or_else(|| {
                    PyValueError::new_err(format!("{} has no setting {key:?}", $name))
                })?;
                Ok(self.given.keys.contains(&field.key))
            }

            /// Every setting by key (`given=True`: only those given).
            #[pyo3(signature = (given = false))]
            fn to_dict<'py>(&self, py: Python<'py>, given: bool) -> PyResult<Bound<'py, PyDict>> {
                self.given.to_dict(py, given)
            }

            /// The keys, in the documentation's order (without the other spellings).
            #[staticmethod]
            fn keys() -> Vec<&'static str> {
                $table.iter().map(|f| f.key).collect()
            }

            /// Every setting as the table declares it, in the documentation's order:
            /// `(key, other spellings, Python type, what a value must be, default, what
            /// it sets)` — what the docs' tables and the type stubs are made of.
            #[staticmethod]
            #[allow(clippy::type_complexity)]
            fn describe<'py>(
                py: Python<'py>,
            ) -> PyResult<Vec<(&'static str, Vec<&'static str>, String, String, Bound<'py, PyAny>, &'static str)>> {
                let default = <$s>::default();
                $table
                    .iter()
                    .map(|f| {
                        Ok((
                            f.key,
                            f.aliases.to_vec(),
                            (f.py_type)(),
                            (f.expects)(),
                            (f.get)(&default, py)?,
                            f.doc,
                        ))
                    })
                    .collect()
            }

            fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
                self.given.get(py, name)
            }

            fn __dir__(&self) -> Vec<&'static str> {
                let mut names: Vec<&str> = $table.iter().map(|f| f.key).collect();
                names.extend([$($extra,)* "replace", "is_given", "to_dict", "keys"]);
                names
            }

            fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
                self.given.repr(py)
            }

            fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
                other
                    .cast::<Self>()
                    .is_ok_and(|o| o.get().given.value == self.given.value)
            }

            fn __getnewargs_ex__<'py>(
                &self,
                py: Python<'py>,
            ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
                Ok((PyTuple::empty(py), self.given.to_dict(py, true)?))
            }
        }
    };
}

settings_class!(
    /// The settings of a run of the ES: `emages.Options(**fields)`, each field checked as
    /// it is given. `minimize` and `AskTell` build one from their `options` (a dict or an
    /// `Options`), then set `budget`, `sigma0`, `initial_mean` and `record_dynamics` from
    /// their own arguments.
    PyOptions,
    "Options",
    RunSettings,
    OPTIONS,
    ["lambda_"]
);

settings_class!(
    /// The settings of a portfolio run: `emages.PortfolioOptions(**fields)`.
    PyPortfolioOptions,
    "PortfolioOptions",
    PortfolioRun,
    PORTFOLIO_OPTIONS,
    []
);

/// The serialised field names of Rust's settings, by part (`config`, `limits`,
/// `convergence`, `portfolio`, `sqp`): the pytest suite checks that every one has its
/// Python key, so a new Rust field without one fails there (this crate's Rust tests do
/// not run: an extension links against the interpreter that loads it).
#[pyfunction]
#[pyo3(name = "_serialised_fields")]
pub fn serialised_fields() -> PyResult<Vec<(&'static str, Vec<String>)>> {
    fn names(value: serde_json::Result<serde_json::Value>) -> PyResult<Vec<String>> {
        let value = value.map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(value
            .as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default())
    }
    let portfolio = PortfolioSettings::default();
    Ok(vec![
        ("config", names(serde_json::to_value(Config::default()))?),
        ("limits", names(serde_json::to_value(Limits::default()))?),
        (
            "convergence",
            names(serde_json::to_value(Convergence::default()))?,
        ),
        ("portfolio", names(serde_json::to_value(&portfolio))?),
        ("sqp", names(serde_json::to_value(&portfolio.sqp))?),
    ])
}
