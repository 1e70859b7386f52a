//! One way in: [`Options`] say what a portfolio run is, [`Options::build`] checks and
//! resolves them once for a problem's shape into a [`Plan`], and the plan runs — with a
//! problem ([`Plan::run`]) or by ask and tell ([`Plan::ask_tell`]).

use crate::error::Error;
use crate::portfolio::{Portfolio, PortfolioSettings};
use constraint_handling::problem::{ConstrainedProblem, ProblemShape};
use emages_solver::{Driver, NoObserver, Observer, Outcome};
use serde::{Deserialize, Serialize};

/// The equality margin `δ` the recommended strategy holds equalities to: `|h| ≤ 10⁻⁸`
/// ([`Options::equality_margin`]; Python's `minimize` uses the same).
pub const DEFAULT_EQUALITY_MARGIN: f64 = 1e-8;

/// What a portfolio run is, apart from its problem: its settings, budget, seed, start
/// and equality margin. A builder: each method returns the changed options;
/// [`Options::build`] checks them all and resolves them for a problem's shape.
///
/// ```
/// use emages::Options;
/// let options = Options::recommended().budget(5_000).seed(3).confirmations(0);
/// assert_eq!(options.settings().confirmations, 0);
/// assert_eq!(options.equality_margin_value(), Some(1e-8));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    settings: PortfolioSettings,
    budget: Option<usize>,
    seed: u64,
    start: Option<Vec<f64>>,
    equality_margin: Option<f64>,
}

impl Default for Options {
    /// [`Options::recommended`].
    fn default() -> Self {
        Self::recommended()
    }
}

impl Options {
    /// The recommended strategy: the portfolio with its default settings
    /// ([`PortfolioSettings::default`]), equalities held to
    /// [`DEFAULT_EQUALITY_MARGIN`], a budget of `20 000 · N` evaluations (a cap: the
    /// run stops by itself once it has converged), seed 0.
    #[must_use]
    pub fn recommended() -> Self {
        Self {
            settings: PortfolioSettings::default(),
            budget: None,
            seed: 0,
            start: None,
            equality_margin: Some(DEFAULT_EQUALITY_MARGIN),
        }
    }

    /// The portfolio's settings ([`PortfolioSettings`]).
    #[must_use]
    pub fn with_settings(self, settings: PortfolioSettings) -> Self {
        Self { settings, ..self }
    }

    /// Evaluations at most (default `20 000 · N`).
    #[must_use]
    pub fn budget(self, budget: usize) -> Self {
        Self {
            budget: Some(budget),
            ..self
        }
    }

    /// The seed: the same seed repeats the run bit for bit.
    #[must_use]
    pub fn seed(self, seed: u64) -> Self {
        Self { seed, ..self }
    }

    /// The first run of the local phase starts at `x0` (clipped into the box) instead
    /// of the box's centre.
    #[must_use]
    pub fn start(self, x0: Vec<f64>) -> Self {
        Self {
            start: Some(x0),
            ..self
        }
    }

    /// The equality margin `δ` the run holds equalities to (`|h| ≤ δ` is satisfied);
    /// `None`: the problem's own ([`ConstrainedProblem::equality_margin`], as the
    /// suites' protocols want). Default [`DEFAULT_EQUALITY_MARGIN`].
    #[must_use]
    pub fn equality_margin(self, margin: Option<f64>) -> Self {
        Self {
            equality_margin: margin,
            ..self
        }
    }

    /// Stop once this many runs of the local phase in a row have ended at the best
    /// point (0: never; [`PortfolioSettings::confirmations`]).
    #[must_use]
    pub fn confirmations(mut self, confirmations: usize) -> Self {
        self.settings.confirmations = confirmations;
        self
    }

    /// Stop once the best point is feasible with `f ≤ target`
    /// ([`PortfolioSettings::target`]).
    #[must_use]
    pub fn target(mut self, target: f64) -> Self {
        self.settings.target = Some(target);
        self
    }

    /// The accuracy asked of the answer, as scipy's `tol`: the local phase ends at a
    /// step below `tol · max(1, ‖x‖∞)` ([`SqpSettings::step_tolerance`]) and scales
    /// its back-off down until it costs at most `tol · max(1, |f|)`
    /// ([`SqpSettings::accuracy`]), and its runs confirm the best point within
    /// `max(tol, 10⁻⁸) · max(1, |f|)` ([`PortfolioSettings::confirm_tolerance`]: a
    /// finer tolerance would ask restarts to agree beyond what tells one optimum from
    /// another, and cost evaluations). Checked by [`Options::build`]: a finite
    /// positive number.
    ///
    /// [`SqpSettings::step_tolerance`]: local_phase::sqp::SqpSettings::step_tolerance
    /// [`SqpSettings::accuracy`]: local_phase::sqp::SqpSettings::accuracy
    ///
    /// ```
    /// use constraint_handling::problem::ProblemShape;
    /// use emages::Options;
    /// let options = Options::recommended().tolerance(1e-6);
    /// assert_eq!(options.settings().confirm_tolerance, 1e-6);
    /// assert_eq!(options.settings().sqp.accuracy, Some(1e-6));
    /// let fine = Options::recommended().tolerance(1e-12);
    /// assert_eq!(fine.settings().confirm_tolerance, 1e-8);
    /// let shape = ProblemShape::new(vec![-1.0; 2], vec![1.0; 2], 1, 0)?;
    /// assert!(options.build(&shape).is_ok());
    /// assert!(Options::recommended().tolerance(-1.0).build(&shape).is_err());
    /// assert!(Options::recommended().tolerance(f64::NAN).build(&shape).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn tolerance(mut self, tol: f64) -> Self {
        self.settings.sqp.step_tolerance = tol;
        self.settings.sqp.accuracy = Some(tol);
        self.settings.confirm_tolerance = tol.max(PortfolioSettings::default().confirm_tolerance);
        self
    }

    /// No stopping rule: the run goes on until the budget is spent (the suites'
    /// protocols).
    #[must_use]
    pub fn to_the_end(mut self) -> Self {
        self.settings = self.settings.to_the_end();
        self
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> &PortfolioSettings {
        &self.settings
    }

    /// The budget, unresolved (`None`: `20 000 · N`).
    #[must_use]
    pub fn budget_value(&self) -> Option<usize> {
        self.budget
    }

    /// The seed.
    #[must_use]
    pub fn seed_value(&self) -> u64 {
        self.seed
    }

    /// The equality margin (`None`: the problem's own).
    #[must_use]
    pub fn equality_margin_value(&self) -> Option<f64> {
        self.equality_margin
    }

    /// Checks the options and resolves them for a problem of this shape (the shape's
    /// equality margin replaced by [`Options::equality_margin`], where one is given).
    ///
    /// # Errors
    /// [`Error::Settings`] naming the first setting that cannot run: the portfolio's
    /// ([`PortfolioSettings::validate`]), a zero budget, a start of the wrong length or
    /// not finite, a margin that is not a finite number `≥ 0`.
    pub fn build(&self, shape: &ProblemShape) -> Result<Plan, Error> {
        self.settings.validate()?;
        let n = shape.dim();
        let budget = self.budget.unwrap_or(20_000 * n);
        if budget == 0 {
            return Err(Error::Settings("budget must be positive, not 0".into()));
        }
        if let Some(x0) = &self.start {
            if x0.len() != n {
                return Err(Error::Settings(format!(
                    "x0 has {} components, but the problem has dimension {n}",
                    x0.len()
                )));
            }
            if let Some(i) = x0.iter().position(|v| !v.is_finite()) {
                return Err(Error::Settings(format!(
                    "x0[{i}] = {} is not finite",
                    x0[i]
                )));
            }
        }
        let mut shape = shape.clone();
        if let Some(margin) = self.equality_margin {
            if !(margin.is_finite() && margin >= 0.0) {
                return Err(Error::Settings(format!(
                    "equality_margin must be a finite number >= 0, not {margin}"
                )));
            }
            shape.equality_margin = margin;
        }
        Ok(Plan {
            shape,
            settings: self.settings.clone(),
            budget,
            seed: self.seed,
            start: self.start.clone(),
        })
    }

    /// [`Options::build`] for this problem's shape (and the Jacobian it offers).
    ///
    /// # Errors
    /// As [`Options::build`]; a problem whose bounds do not fit its dimension.
    pub fn build_for<P: ConstrainedProblem + ?Sized>(&self, problem: &P) -> Result<Plan, Error> {
        self.build(&ProblemShape::of(problem)?)
    }

    /// Builds the plan for `problem` and runs it: the one call of a run.
    ///
    /// # Errors
    /// As [`Options::build`] and [`Plan::run`].
    pub fn run<P: ConstrainedProblem + ?Sized>(&self, problem: &P) -> Result<Outcome, Error> {
        self.build_for(problem)?.run(problem)
    }
}

/// [`Options`] checked and resolved for a problem's shape: what every run of them
/// starts from. Run it with a problem ([`Plan::run`]) or by ask and tell
/// ([`Plan::ask_tell`]); both give the same run, bit for bit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    shape: ProblemShape,
    settings: PortfolioSettings,
    budget: usize,
    seed: u64,
    start: Option<Vec<f64>>,
}

impl Plan {
    /// The run by ask and tell: a [`Portfolio`], a solver of the contract
    /// ([`emages_solver::Solver`]). The budget is the caller's to keep (the driver's
    /// [`Driver::budget`], or counting evaluations).
    ///
    /// # Errors
    /// A shape the local phase refuses.
    pub fn ask_tell(&self) -> Result<Portfolio, Error> {
        let run = Portfolio::new(self.shape.clone(), self.settings.clone(), self.seed)?;
        match &self.start {
            Some(x0) => run.with_start(x0),
            None => Ok(run),
        }
    }

    /// Runs on `problem` ([`Driver`] over [`Plan::ask_tell`]'s run, with the plan's
    /// budget): until the run stops by itself or the next request would take it past
    /// the budget. A problem that declares itself expensive has each request's points
    /// evaluated on all cores, with the values of one thread.
    ///
    /// # Errors
    /// The problem's errors; a problem of another shape than the plan's (the error
    /// names what differs); a budget too small for the first request.
    pub fn run<P: ConstrainedProblem + ?Sized>(&self, problem: &P) -> Result<Outcome, Error> {
        self.run_with(problem, &mut NoObserver)
    }

    /// [`Plan::run`] with an observer after every iteration (a step of the local phase,
    /// a generation of an ES round): progress lines, a history, a user's stop.
    ///
    /// # Errors
    /// As [`Plan::run`].
    pub fn run_with<P: ConstrainedProblem + ?Sized>(
        &self,
        problem: &P,
        observer: &mut dyn Observer<Portfolio>,
    ) -> Result<Outcome, Error> {
        let mut run = self.ask_tell()?;
        Ok(Driver::new(&mut run)
            .budget(self.budget)
            .observe(observer)
            .run(problem)?)
    }

    /// The problem's shape, with the equality margin the run holds.
    #[must_use]
    pub fn shape(&self) -> &ProblemShape {
        &self.shape
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> &PortfolioSettings {
        &self.settings
    }

    /// The budget.
    #[must_use]
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// The seed.
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.seed
    }
}
