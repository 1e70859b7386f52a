//! The run that owns its state: its limits, counts and the one rule of its end, with a
//! scripted solver whose every step is known.

use constraint_handling::problem::ProblemShape;
use constraint_handling::{FnProblem, Snapshot};
use emages_solver::{
    Best, Counts, Driver, Limits, Phase, Request, RequestKind, Run, Solver, SolverError, Status,
    Termination, Told,
};
use ndarray::{Array2, ArrayView2, ShapeBuilder};
use serde::{Deserialize, Serialize};
use std::ops::ControlFlow;

/// Asks for `x = (i)` at request `i` (one point, one constraint `g = 1 − x`), ends by
/// itself (converged) after `converge_after` tells if given; every request a probe of
/// the constraints alone when `probes` is set for its index.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Script {
    shape: ProblemShape,
    k: usize,
    converge_after: Option<usize>,
    probes: Vec<usize>,
    #[serde(skip)]
    point: Array2<f64>,
    best: Option<Best>,
    stopped: bool,
}

impl Script {
    fn new(converge_after: Option<usize>) -> Self {
        Self {
            shape: ProblemShape::new(vec![-100.0], vec![100.0], 1, 0).unwrap(),
            k: 0,
            converge_after,
            probes: Vec::new(),
            point: Array2::zeros((1, 1).f()),
            best: None,
            stopped: false,
        }
    }
    fn kind(&self) -> RequestKind {
        if self.probes.contains(&self.k) {
            RequestKind::JacobianProbes
        } else {
            RequestKind::Population
        }
    }
}

impl Solver for Script {
    fn shape(&self) -> &ProblemShape {
        &self.shape
    }
    fn ask(&mut self) -> Result<Option<Request<'_>>, SolverError> {
        if self.termination().is_some() {
            return Ok(None);
        }
        self.point = Array2::from_elem((1, 1).f(), self.k as f64);
        Ok(Some(Request {
            points: self.point.view(),
            kind: self.kind(),
            evaluations: 1,
            jacobians: false,
        }))
    }
    fn tell(&mut self, f: &[f64], c: ArrayView2<'_, f64>) -> Result<Told, SolverError> {
        if self.kind() == RequestKind::Population {
            let v = self.shape.mean_violation(&[c[[0, 0]]]);
            let better = self
                .best
                .as_ref()
                .is_none_or(|b| (v, f[0]) < (b.violation(), b.objective()));
            if better {
                self.best = Some(Best::new(
                    vec![self.k as f64],
                    vec![c[[0, 0]]],
                    Snapshot::new(f[0], v).found_at(self.k + 1),
                ));
            }
        }
        self.k += 1;
        Ok(Told::Iteration(self.termination()))
    }
    fn best(&self) -> Option<Best> {
        self.best.clone()
    }
    fn evaluations(&self) -> usize {
        self.k
    }
    fn iterations(&self) -> usize {
        self.k
    }
    fn termination(&self) -> Option<Termination> {
        if self.stopped {
            Some(Termination::Stopped)
        } else {
            self.converge_after
                .filter(|&n| self.k >= n)
                .map(|_| Termination::Converged)
        }
    }
    fn stop(&mut self) {
        self.stopped = true;
    }
    fn status(&self) -> Status {
        Status::start(Phase::Local)
    }
}

/// `f = (x − 3)²`, `g = 1 − x ≤ 0` (with `shift`: `g = 1 + shift − x`).
fn values(x: f64, shift: f64) -> (f64, f64) {
    ((x - 3.0).powi(2), 1.0 + shift - x)
}

/// Drives `run` by hand to its end; the requests told.
fn drive(run: &mut Run<Script>, shift: f64) -> usize {
    let mut told = 0;
    while let Some(request) = run.ask().unwrap() {
        let (f, g) = values(request.points[[0, 0]], shift);
        run.tell(&[f], Array2::from_elem((1, 1), g).view()).unwrap();
        told += 1;
    }
    told
}

#[test]
fn the_budget_cuts_before_a_request_that_does_not_fit() {
    let mut run = Run::new(Script::new(None)).with_limits(Limits {
        budget: Some(7),
        ..Limits::default()
    });
    assert_eq!(drive(&mut run, 0.0), 7);
    assert_eq!(run.termination(), Some(Termination::Budget));
    let outcome = run.outcome().unwrap();
    assert_eq!((outcome.evaluations, outcome.ended), (7, true));
    assert!(
        !outcome.success(),
        "a run ended by its budget did not converge"
    );
    assert_eq!((outcome.status(), outcome.name()), (1, "budget"));
    // The best point: x = 3 (f = 0, feasible), found at evaluation 4.
    assert_eq!(
        (outcome.best.objective(), outcome.best.found_at()),
        (0.0, 4)
    );
}

#[test]
fn the_iteration_limit_ends_a_run_that_has_not_ended_by_itself() {
    let mut run = Run::new(Script::new(Some(10))).with_limits(Limits {
        max_iterations: Some(2),
        ..Limits::default()
    });
    assert_eq!(drive(&mut run, 0.0), 2);
    let outcome = run.outcome().unwrap();
    assert_eq!(outcome.termination, Termination::GenerationLimit);
    assert!(!outcome.success());
    // A solver that ends by itself at the limit reports its own reason.
    let mut run = Run::new(Script::new(Some(4))).with_limits(Limits {
        max_iterations: Some(4),
        ..Limits::default()
    });
    drive(&mut run, 0.0);
    let outcome = run.outcome().unwrap();
    assert_eq!(outcome.termination, Termination::Converged);
    assert!(outcome.success());
    assert_eq!(outcome.status(), 0);
}

#[test]
fn a_convergence_on_an_infeasible_point_is_infeasible() {
    // g = 101 − x > 0 on the whole box: never feasible.
    let mut run = Run::new(Script::new(Some(5)));
    drive(&mut run, 100.0);
    let outcome = run.outcome().unwrap();
    assert_eq!(outcome.termination, Termination::Infeasible);
    assert!(!outcome.success());
    assert_eq!(outcome.status(), 3);
}

#[test]
fn the_target_ends_the_run_at_the_first_feasible_point_that_reaches_it() {
    let mut run = Run::new(Script::new(None)).with_limits(Limits {
        budget: Some(100),
        target: Some(1.0),
        ..Limits::default()
    });
    // x = 0 (infeasible), 1 (f = 4), 2 (f = 1: the target).
    assert_eq!(drive(&mut run, 0.0), 3);
    assert_eq!(run.target_reached_at(), Some(3));
    let outcome = run.outcome().unwrap();
    assert_eq!(outcome.termination, Termination::Target);
    assert!(outcome.success());
}

#[test]
fn a_stop_is_the_callers_whatever_the_iteration_limit() {
    let mut run = Run::new(Script::new(None)).with_limits(Limits {
        max_iterations: Some(3),
        ..Limits::default()
    });
    for _ in 0..3 {
        let request = run.ask().unwrap().unwrap();
        let (f, g) = values(request.points[[0, 0]], 0.0);
        run.tell(&[f], Array2::from_elem((1, 1), g).view()).unwrap();
    }
    run.stop();
    assert!(run.ask().unwrap().is_none());
    assert_eq!(run.termination(), Some(Termination::Stopped));
    assert_eq!(run.outcome().unwrap().status(), 2);
}

#[test]
fn a_run_read_midway_says_it_is_running() {
    let mut run = Run::new(Script::new(None));
    assert!(matches!(
        run.outcome(),
        Err(SolverError::NothingEvaluated(0))
    ));
    let request = run.ask().unwrap().unwrap();
    let (f, g) = values(request.points[[0, 0]], 0.0);
    run.tell(&[f], Array2::from_elem((1, 1), g).view()).unwrap();
    let outcome = run.outcome().unwrap();
    assert!(!outcome.ended && !outcome.success());
    assert_eq!((outcome.status(), outcome.name()), (-1, "running"));
    assert_eq!(run.termination(), None);
}

#[test]
fn a_tell_without_an_ask_is_refused_and_changes_nothing() {
    let mut run = Run::new(Script::new(None));
    let err = run.tell(&[1.0], Array2::zeros((1, 1)).view()).unwrap_err();
    assert!(matches!(err, SolverError::Protocol(_)), "{err}");
    assert_eq!(run.evaluations(), 0);
}

#[test]
fn the_counts_follow_the_kinds_of_the_requests() {
    let mut script = Script::new(Some(5));
    script.probes = vec![1, 2];
    let mut run = Run::new(script);
    drive(&mut run, 0.0);
    assert_eq!(
        run.counts(),
        Counts {
            objectives: 3,
            constraints: 5,
            derivatives: 0
        }
    );
}

#[test]
fn a_saved_run_goes_on_where_it_stood() {
    let limits = Limits {
        budget: Some(9),
        ..Limits::default()
    };
    let mut whole = Run::new(Script::new(None)).with_limits(limits);
    drive(&mut whole, 0.0);
    let mut run = Run::new(Script::new(None)).with_limits(limits);
    for _ in 0..4 {
        let request = run.ask().unwrap().unwrap();
        let (f, g) = values(request.points[[0, 0]], 0.0);
        run.tell(&[f], Array2::from_elem((1, 1), g).view()).unwrap();
    }
    let saved = emages_solver::save::to_json(&run).unwrap();
    let mut resumed: Run<Script> = emages_solver::save::from_json(&saved).unwrap();
    drive(&mut resumed, 0.0);
    assert_eq!(resumed.outcome().unwrap(), whole.outcome().unwrap());
}

#[test]
fn the_driver_reports_what_the_run_reports() {
    let problem = FnProblem::new(vec![-100.0], vec![100.0], 1, 0, |x, c| {
        let (f, g) = values(x[0], 0.0);
        c[0] = g;
        Ok(f)
    })
    .unwrap();
    let mut by_hand = Run::new(Script::new(None)).with_limits(Limits {
        budget: Some(6),
        max_iterations: Some(20),
        target: None,
    });
    drive(&mut by_hand, 0.0);
    let mut script = Script::new(None);
    let mut seen = 0;
    let mut count = |_: &Script| {
        seen += 1;
        ControlFlow::Continue(())
    };
    let driven = Driver::new(&mut script)
        .budget(6)
        .max_iterations(20)
        .observe(&mut count)
        .run(&problem)
        .unwrap();
    assert_eq!(driven, by_hand.outcome().unwrap());
    assert_eq!(seen, 6);
}
