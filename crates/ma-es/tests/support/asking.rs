//! Ask and tell against the drivers: the specs the tests go through, a run started by
//! ask and tell, a loop that answers its requests, and bit-for-bit comparison
//! (`#[path]`-included, beside `runs.rs`).
#![allow(dead_code)] // each includer uses a part

use crate::runs::Control;
use constraint_handling::{ConstrainedProblem, FnProblem};
use ma_es::ask_tell::AskTell;
use ma_es::control::Limits;
use ma_es::noise::RngNoise;
use ma_es::strategy::{Batching, RequestKind, Told};
use ma_es::{ComponentSpec, Config, MaEsError, RunResult};
use ndarray::{s, Array1, Array2, ShapeBuilder};

/// The specs the tests go through: the presets that repair or not, the εMAg-ES-R
/// restart sequence (also with a convergence key and black-box Jacobians), IPOP opened by the augmented Lagrangian, a stochastic ranking,
/// the median success rule.
pub const SPECS: [&str; 8] = [
    "eps-mag-es",
    // Fields a saved spec leaves out (no opening) before ones it writes.
    "eps-mag-es-r:tol-fun=1e-9:jacobian=differences",
    "eps-ma-es",
    "lex-mag-es",
    "eps-mag-es-r",
    "eps-mag-es:restarts=ipop:opening=augmented-lagrangian:polish=30%:stall=progress",
    "eps-mag-es:ranking=stochastic:restarts=bipop",
    "eps-mag-es:step-size=median-success:ranking=by-constraint-kind",
];

/// To the budget (no convergence criterion), with checkpoints and dynamics.
pub fn control(budget: usize) -> Control {
    Control::to_the_end(Limits {
        budget: Some(budget),
        checkpoints: vec![budget / 10, budget / 2, budget],
        record_dynamics: true,
        ..Limits::default()
    })
}

/// A run of `spec` on `problem` to `budget` evaluations (with checkpoints and
/// dynamics), seed `seed`, driven by ask and tell.
pub fn start<P: ConstrainedProblem>(
    problem: &P,
    spec: &ComponentSpec,
    budget: usize,
    seed: u64,
) -> AskTell<RngNoise> {
    control(budget)
        .options(spec, &Config::default(), seed)
        .batching(Batching::Generation)
        .build_for(problem)
        .unwrap()
        .ask_tell()
        .unwrap()
}

/// Σ (x_i − 1)² s.t. Σ x_i ≤ 2 and x_1 = x_2 on [−3, 3]^N.
pub fn simplex(n: usize) -> impl ConstrainedProblem {
    FnProblem::new(vec![-3.0; n], vec![3.0; n], 1, 1, |x, c| {
        c[0] = x.iter().sum::<f64>() - 2.0;
        c[1] = x[0] - x[1];
        Ok(x.iter().map(|v| (v - 1.0) * (v - 1.0)).sum())
    })
    .unwrap()
}

/// Evaluates what `es` asks with `problem` in the reference's grouping (the population
/// as one batch, each offspring's probes as one batch, each repaired point alone, as a
/// user of a suite whose batches round differently must), counting the request sizes.
pub fn answer<P: ConstrainedProblem>(
    es: &mut AskTell<RngNoise>,
    problem: &P,
    sizes: &mut Vec<(RequestKind, usize)>,
) -> Result<Option<Told>, MaEsError> {
    let n = problem.dim();
    let k = problem.num_constraints();
    let Some(request) = es.ask()? else {
        return Ok(None);
    };
    let (points, kind) = (request.points.to_owned(), request.kind);
    let count = points.ncols();
    sizes.push((kind, count));
    let mut f = Array1::zeros(count);
    // A Jacobian is N columns per point.
    let columns = if kind == RequestKind::Jacobians {
        n * count
    } else {
        count
    };
    let mut c = Array2::zeros((k, columns).f());
    match kind {
        RequestKind::Population => {
            problem.evaluate_batch(points.view(), f.view_mut(), c.view_mut())?
        }
        RequestKind::JacobianProbes => {
            for j in 0..count / n {
                let cols = s![.., j * n..(j + 1) * n];
                problem.evaluate_constraints_batch(
                    points.slice(cols),
                    f.slice_mut(s![j * n..(j + 1) * n]),
                    c.slice_mut(cols),
                )?;
            }
        }
        RequestKind::Jacobians => {
            let jacobian = problem.constraint_jacobian().expect("asked for Jacobians");
            for j in 0..count {
                let x = points.column(j).to_vec();
                jacobian.evaluate_jacobian(&x, None, c.slice_mut(s![.., j * n..(j + 1) * n]))?;
            }
        }
        RequestKind::Repaired => {
            for j in 0..count {
                let x = points.column(j).to_vec();
                let mut cj = vec![0.0; k];
                f[j] = problem.evaluate(&x, &mut cj)?;
                c.column_mut(j).assign(&Array1::from(cj));
            }
        }
        RequestKind::Gradients => unreachable!("the ES asks for no gradient"),
    }
    let f = if kind.constraints_only() {
        Vec::new()
    } else {
        f.to_vec()
    };
    es.tell(&f, c.view()).map(Some)
}

pub fn ask_tell<P: ConstrainedProblem>(
    problem: &P,
    config: &Config,
    control: &Control,
    spec: &ComponentSpec,
    seed: u64,
    batching: Batching,
) -> (
    RunResult,
    Vec<ma_es::restarts::RestartRecord>,
    Vec<(RequestKind, usize)>,
) {
    let mut es = control
        .options(spec, config, seed)
        .batching(batching)
        .build_for(problem)
        .unwrap()
        .ask_tell()
        .unwrap();
    let mut sizes = Vec::new();
    while answer(&mut es, problem, &mut sizes).unwrap().is_some() {}
    (es.result(), es.restarts().to_vec(), sizes)
}

pub fn assert_same(a: &RunResult, b: &RunResult, what: &str) {
    assert_eq!(a, b, "{what}");
    // PartialEq on floats: NaN would differ; compare the bits of the best too.
    assert_eq!(
        a.best.objective().to_bits(),
        b.best.objective().to_bits(),
        "{what}"
    );
}
