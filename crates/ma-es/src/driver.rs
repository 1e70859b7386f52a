//! Drivers: a [`ConstrainedProblem`] evaluates what an [`AskTell`] asks for, from the
//! first request to the end of the run.

use crate::ask_tell::AskTell;
use crate::config::Config;
use crate::control::Control;
use crate::noise::NoiseSource;
use crate::observer::{NoObserver, Observer};
use crate::restarts::RestartRecord;
use crate::result::RunResult;
use crate::spec::ComponentSpec;
use crate::strategy::Batching;
use crate::MaEsError;
use constraint_handling::parallel::Parallel;
use constraint_handling::problem::ProblemShape;
use constraint_handling::ConstrainedProblem;

#[cfg(doc)]
use crate::observer::GenerationReport;

/// Runs the strategy of `spec` on `problem` with the restarts it names
/// ([`crate::restarts`]), within `control`'s limits and until its convergence criteria
/// say stop ([`crate::control`]); returns the result, merged over the runs, and the
/// runs. Without restarts it is one run of [`crate::MaEs::with_spec`] and an empty
/// history. A problem that declares itself expensive
/// ([`ConstrainedProblem::as_expensive`]) has each request's points evaluated on all
/// cores ([`Parallel`]; the repair's points of a generation in one request each,
/// [`Batching::Generation`]), with the values, and so the run, of one thread. The evaluations come in the reference's order ([`Batching::Offspring`]);
/// [`AskTell`] runs the same sequence driven by ask and tell.
///
/// ```
/// use constraint_handling::FnProblem;
/// use ma_es::control::{Control, Limits};
/// use ma_es::noise::RngNoise;
/// use ma_es::{driver, ComponentSpec, Config};
/// use rand::SeedableRng;
/// // min x₁² + x₂² s.t. x₁ + x₂ ≥ 1, in [-5, 5]²: the optimum is 0.5 at (0.5, 0.5).
/// let problem = FnProblem::new(vec![-5.0; 2], vec![5.0; 2], 1, 0, |x, g| {
///     g[0] = 1.0 - x[0] - x[1];
///     Ok(x[0] * x[0] + x[1] * x[1])
/// })
/// .unwrap();
/// let spec: ComponentSpec = "eps-mag-es:restarts=bipop".parse().unwrap();
/// // To the budget, as a competition's protocol runs (Control::new: stop once converged).
/// let control = Control::to_the_end(Limits::budget(20_000));
/// let mut noise = RngNoise::seed_from_u64(7);
/// let (result, runs) =
///     driver::run(&problem, &Config::default(), &control, &spec, 7, &mut noise).unwrap();
/// assert!(result.best.is_feasible() && (result.best.objective() - 0.5).abs() < 1e-6);
/// assert_eq!(result.evaluations, runs.iter().map(|r| r.evaluations).sum::<usize>());
/// ```
///
/// # Errors
/// As [`crate::MaEs::with_spec`] and [`crate::MaEs::run`].
pub fn run<P: ConstrainedProblem>(
    problem: &P,
    config: &Config,
    control: &Control,
    spec: &ComponentSpec,
    seed: u64,
    noise: &mut dyn NoiseSource,
) -> Result<(RunResult, Vec<RestartRecord>), MaEsError> {
    run_observed(problem, config, control, spec, seed, noise, &mut NoObserver)
}

/// [`run`] with an observer called after every generation of every run (its
/// [`GenerationReport`] counts generations and evaluations from the current run's
/// start). When it breaks, the whole sequence ends (termination `Observer`).
///
/// # Errors
/// As [`run`].
pub fn run_observed<P: ConstrainedProblem>(
    problem: &P,
    config: &Config,
    control: &Control,
    spec: &ComponentSpec,
    seed: u64,
    noise: &mut dyn NoiseSource,
    observer: &mut dyn Observer,
) -> Result<(RunResult, Vec<RestartRecord>), MaEsError> {
    let expensive = problem.as_expensive();
    // The reference's order of evaluations (which COCO's logs record); an expensive
    // problem gets each generation's repair in two requests instead, to spread them.
    let batching = match expensive {
        Some(_) => Batching::Generation,
        None => Batching::Offspring,
    };
    let mut es = AskTell::with_batching(
        ProblemShape::of(problem)?,
        config,
        control,
        spec,
        seed,
        noise,
        batching,
    )?;
    // An expensive problem's requests are spread over the cores: the same values, so
    // the same run.
    let result = match expensive {
        Some(p) => es.run_observed(&Parallel::on_all_cores(p), observer)?,
        None => es.run_observed(problem, observer)?,
    };
    Ok((result, es.restarts().to_vec()))
}
