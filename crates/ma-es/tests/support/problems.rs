//! The user problems the strategy's tests share (`#[path]`-included).
#![allow(dead_code)] // each includer uses a part

use constraint_handling::{ConstrainedProblem, ProblemError};
use ma_es::control::Limits;

/// A user problem: minimise Σ (x_i − 1)² subject to Σ x_i ≤ 2 and x_1 = x_2, on [−3, 3]^N.
pub struct Simplex {
    pub lb: Vec<f64>,
    pub ub: Vec<f64>,
}

impl Simplex {
    pub fn new(n: usize) -> Self {
        Self {
            lb: vec![-3.0; n],
            ub: vec![3.0; n],
        }
    }
}

impl ConstrainedProblem for Simplex {
    fn dim(&self) -> usize {
        self.lb.len()
    }
    fn num_inequalities(&self) -> usize {
        1
    }
    fn num_equalities(&self) -> usize {
        1
    }
    fn lower_bounds(&self) -> &[f64] {
        &self.lb
    }
    fn upper_bounds(&self) -> &[f64] {
        &self.ub
    }
    fn evaluate(&self, x: &[f64], c: &mut [f64]) -> Result<f64, ProblemError> {
        self.check_buffers(x, c)?;
        c[0] = x.iter().sum::<f64>() - 2.0;
        c[1] = x[0] - x[1];
        Ok(x.iter().map(|v| (v - 1.0) * (v - 1.0)).sum())
    }
}

/// A budget, and checkpoints at the CEC's 10/50/100 % of it.
pub fn small(budget: usize) -> Limits {
    Limits {
        checkpoints: vec![budget / 10, budget / 2, budget],
        ..Limits::budget(budget)
    }
}
