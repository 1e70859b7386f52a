//! The request protocol between a run and whoever evaluates its points: what a
//! [`Request`] asks for ([`RequestKind`]), where the values go ([`Slots`]), what a tell
//! completed ([`Told`]) — and helpers that evaluate a request's points on threads of
//! their own ([`Request::evaluate_in_parallel`], [`Request::jacobians_in_parallel`]),
//! giving the [`Values`] a tell takes.

use crate::termination::Termination;
use ndarray::{Array2, ArrayView2, ArrayViewMut1, ArrayViewMut2, ShapeBuilder};
use serde::{Deserialize, Serialize};

#[cfg(doc)]
use constraint_handling::problem::JacobianSource;

/// What a request is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RequestKind {
    /// Points where `f` and `C` are wanted, evaluated as one batch: an ES's initial
    /// population or a generation's offspring, the local phase's start, probes and
    /// trial points.
    Population,
    /// The forward-difference probes of the repair's Jacobians, `N` columns per
    /// offspring being repaired: only `C` is wanted (the `f` told back are ignored).
    JacobianProbes,
    /// The offspring being repaired, when the problem offers its constraint Jacobian
    /// ([`JacobianSource::Exact`]): their Jacobians are wanted, told back as the
    /// constraints of a `(l + m) × (N · n)` matrix whose columns `jN .. (j+1)N` are
    /// `∂C/∂x` at point `j` (`objectives` may be empty).
    ///
    /// The CEC2020 rule counts the constraints with their Jacobian at one point as one
    /// evaluation. In a repair's first step the points are offspring evaluated without
    /// derivatives, so each Jacobian is one more evaluation. In a later step the points
    /// are the repaired points of the previous request, whose evaluation already counted:
    /// their Jacobians are part of it and are charged nothing. An evaluator that
    /// computes both at once can keep them from the `Repaired` request
    /// ([`Request::evaluations`] says what each request is charged). A repair of `t`
    /// steps thus costs `t + 1` evaluations, as the Levenberg–Marquardt iteration of
    /// the entries SASS and sCMAgES counts.
    Jacobians,
    /// The repaired offspring: `f` and `C` wanted.
    Repaired,
    /// The local phase's iterates, when the problem gives its derivatives
    /// ([`ProblemShape::has_derivatives`](constraint_handling::problem::ProblemShape::has_derivatives)):
    /// `∇f` and `∂C/∂x` wanted, told back as `objectives` of `N · n` numbers (entries
    /// `jN .. (j+1)N` are `∇f` at point `j`) and the constraints of a `(l + m) × (N · n)`
    /// matrix as for [`RequestKind::Jacobians`]. One evaluation per point (the CEC2020
    /// rule for derivatives); the values `f` and `C` there were told before.
    Gradients,
}

impl RequestKind {
    /// Whether only the constraints are wanted.
    #[must_use]
    pub fn constraints_only(self) -> bool {
        matches!(self, Self::JacobianProbes | Self::Jacobians)
    }

    /// Whether derivatives are wanted ([`RequestKind::Jacobians`],
    /// [`RequestKind::Gradients`]): `N` columns per point, no new point's values.
    #[must_use]
    pub fn derivatives(self) -> bool {
        matches!(self, Self::Jacobians | Self::Gradients)
    }

    /// The word for this kind where users read it (Python's `Request.kind`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Population => "population",
            Self::JacobianProbes => "probes",
            Self::Jacobians => "jacobians",
            Self::Repaired => "repaired",
            Self::Gradients => "gradients",
        }
    }
}

/// Points a run wants evaluated: one per column of `points` (`N × n`).
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// The points, one per column.
    pub points: ArrayView2<'a, f64>,
    /// What they are.
    pub kind: RequestKind,
    /// The evaluations the run charges for them: one per point, `N` per offspring for
    /// difference probes, none for the Jacobians at points told in the request before
    /// (see [`RequestKind::Jacobians`]).
    pub evaluations: usize,
    /// Whether the constraint Jacobians at these points may be told with their values
    /// ([`crate::Solver::tell_with_jacobians`]): repaired offspring of a run with exact
    /// Jacobians whose repair may take another step. Told so, the next step asks for
    /// no [`RequestKind::Jacobians`] at them: a problem that computes `f`, `C` and
    /// `∂C/∂x` in one pass is then called once per evaluation charged.
    pub jacobians: bool,
}

/// A request and the buffers its values go to: `objectives[j]`, column `j` of
/// `constraints`, and (where [`Request::jacobians`]) columns `jN .. (j+1)N` of
/// `jacobians`, for column `j` of the request's points.
#[derive(Debug)]
pub struct Slots<'a> {
    /// The request.
    pub request: Request<'a>,
    /// `f` of each point.
    pub objectives: ArrayViewMut1<'a, f64>,
    /// `C` of each point, `(l + m) × n`.
    pub constraints: ArrayViewMut2<'a, f64>,
    /// `∂C/∂x` at each point, `(l + m) × (N · n)`, where the request welcomes them.
    pub jacobians: Option<ArrayViewMut2<'a, f64>>,
}

impl<'a> Slots<'a> {
    /// The slots of `request`: its objectives and constraints, no place for Jacobians.
    #[must_use]
    pub fn new(
        request: Request<'a>,
        objectives: ArrayViewMut1<'a, f64>,
        constraints: ArrayViewMut2<'a, f64>,
    ) -> Self {
        Self {
            request,
            objectives,
            constraints,
            jacobians: None,
        }
    }
}

/// What a tell completed ([`crate::Solver::tell`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Told {
    /// More requests follow in this iteration.
    Pending,
    /// An iteration is complete (an ES's initialisation or generation, a step of the
    /// local phase): the run's state shows it. Carries the termination the iteration
    /// met, if any.
    Iteration(Option<Termination>),
}

/// The values of a request's points, to be told ([`crate::Solver::tell`] with
/// `&values.objectives` and `values.constraints.view()`): `f` per point and `C`
/// (or, for [`RequestKind::Jacobians`], the Jacobians; for [`RequestKind::Gradients`],
/// `∇f` and the Jacobians) one column (block) per point.
#[derive(Clone, Debug, PartialEq)]
pub struct Values {
    /// `f` of each point (zeros where only the constraints were asked for; `N` numbers,
    /// `∇f`, per point for [`RequestKind::Gradients`]).
    pub objectives: Vec<f64>,
    /// `C` of each point, `(l + m) × n`; or `(l + m) × (N · n)` Jacobians.
    pub constraints: Array2<f64>,
}

impl Request<'_> {
    /// The number of points.
    #[must_use]
    pub fn len(&self) -> usize {
        self.points.ncols()
    }

    /// Whether the request has no point.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.points.ncols() == 0
    }

    /// Point `j` as a slice.
    ///
    /// # Panics
    /// If `j` is not below [`Request::len`].
    #[must_use]
    pub fn point(&self, j: usize) -> &[f64] {
        let n = self.points.nrows();
        &self
            .points
            .as_slice_memory_order()
            .expect("requests are column-major")[j * n..(j + 1) * n]
    }

    /// Evaluates every point with `evaluate(x, c) -> f` (writing the `constraints`
    /// values `C(x)` into `c`) on up to `threads` scoped threads, one run of
    /// consecutive points each: the values are the same as one thread's, so the run is
    /// too. For [`RequestKind::Jacobians`] use [`Request::jacobians_in_parallel`].
    ///
    /// ```
    /// use emages_solver::{Request, RequestKind};
    /// use ndarray::{Array2, ShapeBuilder};
    /// // Three points of the plane (one per column), f = Σ x², g = 1 − x₁ − x₂.
    /// let points = Array2::from_shape_vec((2, 3).f(), vec![0.0, 0.0, 1.0, 1.0, 0.5, 0.5]).unwrap();
    /// let request = Request { points: points.view(), kind: RequestKind::Population, evaluations: 3, jacobians: false };
    /// let values = request
    ///     .evaluate_in_parallel(2, 1, |x, c| {
    ///         c[0] = 1.0 - x[0] - x[1];
    ///         Ok::<_, std::convert::Infallible>(x[0] * x[0] + x[1] * x[1])
    ///     })
    ///     .unwrap();
    /// assert_eq!(values.objectives, [0.0, 2.0, 0.5]);
    /// assert_eq!(values.constraints.row(0).to_vec(), [1.0, -1.0, 0.0]);
    /// ```
    ///
    /// # Errors
    /// The first error of `evaluate`, in the points' order.
    pub fn evaluate_in_parallel<E: Send>(
        &self,
        threads: usize,
        constraints: usize,
        evaluate: impl Fn(&[f64], &mut [f64]) -> Result<f64, E> + Sync,
    ) -> Result<Values, E> {
        let count = self.len();
        let mut objectives = vec![0.0; count];
        let mut values = Array2::zeros((constraints, count).f());
        let columns = values
            .as_slice_memory_order_mut()
            .expect("a fresh column-major array");
        self.in_chunks(threads, &mut objectives, columns, constraints, |x, f, c| {
            *f = evaluate(x, c)?;
            Ok(())
        })?;
        Ok(Values {
            objectives,
            constraints: values,
        })
    }

    /// The Jacobians of a [`RequestKind::Jacobians`] request, point by point:
    /// `jacobian(x, J)` writes `∂C/∂x` at `x` into `J` (`constraints × N`), on up to
    /// `threads` scoped threads; the result is the `(l + m) × (N · n)` matrix the tell
    /// takes (its `objectives` are zeros).
    ///
    /// # Errors
    /// The first error of `jacobian`, in the points' order.
    pub fn jacobians_in_parallel<E: Send>(
        &self,
        threads: usize,
        constraints: usize,
        jacobian: impl Fn(&[f64], ArrayViewMut2<'_, f64>) -> Result<(), E> + Sync,
    ) -> Result<Values, E> {
        let (n, count) = (self.points.nrows(), self.len());
        let mut objectives = vec![0.0; count];
        let mut values = Array2::zeros((constraints, n * count).f());
        let blocks = values
            .as_slice_memory_order_mut()
            .expect("a fresh column-major array");
        self.in_chunks(
            threads,
            &mut objectives,
            blocks,
            constraints * n,
            |x, _, block| {
                let j = ArrayViewMut2::from_shape((constraints, n).f(), block)
                    .expect("one column-major block per point");
                jacobian(x, j)
            },
        )?;
        Ok(Values {
            objectives,
            constraints: values,
        })
    }

    /// Runs `each(x, f, block)` for every point on up to `threads` scoped threads,
    /// `blocks` holding `width` numbers per point.
    fn in_chunks<E: Send>(
        &self,
        threads: usize,
        objectives: &mut [f64],
        blocks: &mut [f64],
        width: usize,
        each: impl Fn(&[f64], &mut f64, &mut [f64]) -> Result<(), E> + Sync,
    ) -> Result<(), E> {
        let count = self.len();
        if count == 0 {
            return Ok(());
        }
        let chunk = count.div_ceil(threads.clamp(1, count));
        let each = &each;
        let results: Vec<Result<(), E>> = std::thread::scope(|scope| {
            let handles: Vec<_> = objectives
                .chunks_mut(chunk)
                .zip(blocks.chunks_mut((chunk * width).max(1)))
                .enumerate()
                .map(|(t, (fs, bs))| {
                    scope.spawn(move || {
                        for (i, f) in fs.iter_mut().enumerate() {
                            let block = &mut bs[i * width..(i + 1) * width];
                            each(self.point(t * chunk + i), f, block)?;
                        }
                        Ok(())
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect()
        });
        results.into_iter().collect()
    }
}
