//! The solver contract as Python sees it: the one termination table (name, scipy's
//! `status`, the sentence), the recommended strategy's equality margin, the progress
//! lines every run prints (`emages_solver::Progress`), and the recommended strategy
//! run in Rust on a problem Python can write identically (for the test that Python's
//! default is Rust's, seed for seed).

use emages::{Driver, FnProblem};
use emages_solver::{Phase, Progress, Solver, Status};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::Mutex;

/// `(name, status, message)` of every termination, from [`emages::Termination`].
pub(crate) fn terminations() -> Vec<(&'static str, u8, &'static str)> {
    emages::Termination::ALL
        .iter()
        .map(|t| (t.name(), t.status(), t.message()))
        .collect()
}

/// The progress lines of `disp` for a run driven from Python (`emages.AskTell`):
/// Rust's formatter, so that every run prints the same lines.
#[pyclass(name = "_Progress", module = "emages._emages")]
pub struct PyProgress {
    lines: Mutex<Progress>,
}

#[pymethods]
impl PyProgress {
    #[new]
    fn new(every: usize) -> Self {
        Self {
            lines: Mutex::new(Progress::new(every)),
        }
    }

    /// The lines to print after an iteration (none, its line, or the header and its
    /// line), from the run's state.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (iterations, evaluations, objective, violation, step_size, local, run=1))]
    fn lines(
        &self,
        iterations: usize,
        evaluations: usize,
        objective: f64,
        violation: f64,
        step_size: f64,
        local: bool,
        run: usize,
    ) -> PyResult<Vec<String>> {
        let status = Status {
            iterations,
            evaluations,
            objective,
            violation,
            step_size,
            epsilon: f64::NAN,
            phase: if local { Phase::Local } else { Phase::Es },
            run,
        };
        Ok(self.lock()?.lines(&status))
    }

    /// The last iteration's line, if it was not shown.
    fn finish(&self) -> PyResult<Option<String>> {
        Ok(self.lock()?.finish())
    }
}

impl PyProgress {
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, Progress>> {
        self.lines
            .lock()
            .map_err(|_| PyValueError::new_err("the progress lines are poisoned"))
    }
}

/// The recommended strategy (`emages::recommended()`) in Rust on the half plane
/// `min x₁² + x₂²  s.t.  1 − x₁ − x₂ ≤ 0` on `[−5, 5]²`, with `seed` and `budget`:
/// every point it evaluated, in order, and the evaluations. Python's test that
/// `minimize`'s default is the same run writes the same arithmetic.
#[pyfunction]
#[pyo3(name = "_recommended_half_plane")]
pub fn recommended_half_plane(seed: u64, budget: usize) -> PyResult<(Vec<Vec<f64>>, usize)> {
    let seen = Mutex::new(Vec::new());
    let problem = FnProblem::new(vec![-5.0; 2], vec![5.0; 2], 1, 0, |x, c| {
        seen.lock().expect("one thread").push(x.to_vec());
        c[0] = 1.0 - x[0] - x[1];
        Ok(x[0] * x[0] + x[1] * x[1])
    })
    .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let mut run = emages::recommended()
        .budget(budget)
        .seed(seed)
        .build_for(&problem)
        .and_then(|plan| plan.ask_tell())
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Driver::new(&mut run)
        .budget(budget)
        .run(&problem)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let evaluations = run.evaluations();
    let points = seen.into_inner().expect("one thread");
    Ok((points, evaluations))
}
