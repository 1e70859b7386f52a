//! What a problem defined from Python declares about itself — its box, its numbers of
//! constraints, its equality margin — and the one implementation of
//! [`ConstrainedProblem`](constraint_handling::ConstrainedProblem) shared by the two
//! problems whose values come from Python a batch at a time: the callables of
//! `minimize` ([`CallbackProblem`](crate::callback::CallbackProblem)) and the user of an
//! ask-and-tell session (`asktell::Channel`).

/// The box `[lower, upper]`, `l` inequality and `m` equality constraints, and the
/// margin δ within which an equality counts as satisfied.
#[derive(Debug)]
pub struct Declared {
    /// Lower bounds of the box.
    pub lower: Vec<f64>,
    /// Upper bounds of the box.
    pub upper: Vec<f64>,
    /// Number of inequality constraints.
    pub l: usize,
    /// Number of equality constraints.
    pub m: usize,
    /// The equality margin δ.
    pub margin: f64,
}

impl Declared {
    /// Whether the problem has constraints at all (a `g` evaluation is counted only then).
    pub fn constrained(&self) -> bool {
        self.l + self.m > 0
    }
}

/// `ConstrainedProblem` for a type with a field `declared: Declared` and a method
/// `answer(&self, points, objectives, constraints, constraints_only) -> Result<(),
/// ProblemError>` that evaluates a batch of points (the columns of `points`): one point
/// is a batch of one, a batch is checked for its shapes first, and the repair's
/// Jacobian probes ask for the constraints only.
macro_rules! answered_in_batches {
    ($ty:ty) => {
        impl constraint_handling::ConstrainedProblem for $ty {
            fn dim(&self) -> usize {
                self.declared.lower.len()
            }
            fn num_inequalities(&self) -> usize {
                self.declared.l
            }
            fn num_equalities(&self) -> usize {
                self.declared.m
            }
            fn lower_bounds(&self) -> &[f64] {
                &self.declared.lower
            }
            fn upper_bounds(&self) -> &[f64] {
                &self.declared.upper
            }
            fn equality_margin(&self) -> f64 {
                self.declared.margin
            }
            fn evaluate(
                &self,
                x: &[f64],
                constraints: &mut [f64],
            ) -> Result<f64, constraint_handling::ProblemError> {
                constraint_handling::ConstrainedProblem::check_buffers(self, x, constraints)?;
                let point = ndarray::ArrayView2::from_shape((x.len(), 1), x).expect("n × 1");
                let mut f = [0.0];
                let c = ndarray::ArrayViewMut2::from_shape((constraints.len(), 1), constraints)
                    .expect("c × 1");
                self.answer(point, ndarray::ArrayViewMut1::from(&mut f[..]), c, false)?;
                Ok(f[0])
            }
            fn evaluate_batch(
                &self,
                points: ndarray::ArrayView2<'_, f64>,
                objectives: ndarray::ArrayViewMut1<'_, f64>,
                constraints: ndarray::ArrayViewMut2<'_, f64>,
            ) -> Result<(), constraint_handling::ProblemError> {
                constraint_handling::problem::check_batch_shapes(
                    self,
                    &points,
                    &objectives,
                    &constraints,
                )?;
                self.answer(points, objectives, constraints, false)
            }
            fn evaluate_constraints_batch(
                &self,
                points: ndarray::ArrayView2<'_, f64>,
                objectives: ndarray::ArrayViewMut1<'_, f64>,
                constraints: ndarray::ArrayViewMut2<'_, f64>,
            ) -> Result<(), constraint_handling::ProblemError> {
                constraint_handling::problem::check_batch_shapes(
                    self,
                    &points,
                    &objectives,
                    &constraints,
                )?;
                self.answer(points, objectives, constraints, true)
            }
        }
    };
}
pub(crate) use answered_in_batches;
