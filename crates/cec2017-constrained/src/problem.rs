//! One problem of the suite in one dimension, implementing
//! [`ConstrainedProblem`].

use crate::catalog::{problem_spec, ProblemSpec, MAX_DIM};
use crate::error::CecError;
use crate::functions::{self, Coordinates};
use crate::instance::{InstanceData, InstanceSource};
use crate::lanes::{Lanes, WIDTH};
use constraint_handling::autodiff::Dual;
use constraint_handling::linalg::gemm;
use constraint_handling::problem::{
    check_batch_shapes, prepare_jacobian, ConstrainedProblem, ConstraintJacobian, JacobianSource,
    ProblemError,
};
use constraint_handling::violation::DEFAULT_EQUALITY_MARGIN;
use constraint_handling::Snapshot;
use ndarray::{ArrayView2, ArrayViewMut1, ArrayViewMut2, ShapeBuilder};
use std::cell::RefCell;
use std::sync::Arc;

/// The largest number of constraints of any problem (C06: six equalities).
const MAX_CONSTRAINTS: usize = 6;

/// Problem `k` of the CEC2017 constrained suite in dimension `N`.
///
/// Cloning is cheap (the instance data is shared).
///
/// ```
/// use cec2017_constrained::{Cec2017Problem, InstanceSource};
/// use constraint_handling::ConstrainedProblem;
///
/// let p = Cec2017Problem::new(1, 10, &InstanceSource::synthetic(1)).unwrap();
/// assert_eq!((p.num_inequalities(), p.num_equalities()), (1, 0));
/// let e = p.evaluate_full(&p.shift().to_vec()).unwrap();
/// assert_eq!(e.objective(), 0.0);        // P(0) = 0 at the shift vector
/// assert_eq!(e.inequalities, vec![-90000.0]); // 10 · (−5000 − 4000)
/// assert!(e.is_feasible());
/// ```
#[derive(Clone, Debug)]
pub struct Cec2017Problem {
    spec: &'static ProblemSpec,
    dim: usize,
    data: Arc<InstanceData>,
    lower: Vec<f64>,
    upper: Vec<f64>,
    delta: f64,
    kernel: BatchKernel,
    fidelity: Fidelity,
    jacobian: JacobianSource,
}

/// Which `sin`/`cos` the vectorised batch evaluation uses.
///
/// `Exact` is the default and the reference path: every value has the bits of the
/// system libm's, so a batch equals the scalar path and the authors' values. `Fast`
/// skips the libm entirely: a plain double kernel within 2 ulps of it
/// (`fast_kernel_error`: about 17 % of the values differ from the libm's by an ulp or
/// two). Objectives and constraints then agree with `Exact` to within
/// `1e-12 · max(1, |a|)` on the 912 reference vectors (worst 5.7e-14; test
/// `fast_fidelity_agrees_to_1e_12_relative`), the replay fixtures still pass, and a
/// run follows another trajectory once a ranking decision flips. Single-point
/// evaluation ([`ConstrainedProblem::evaluate`]) and [`BatchKernel::Scalar`] stay
/// exact either way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fidelity {
    /// The system libm's bits (correctly rounded kernels with a libm fallback).
    #[default]
    Exact,
    /// The plain double kernel, never the libm (for `|x| ≤ 2²⁰`).
    Fast,
}

/// How [`ConstrainedProblem::evaluate_batch`] evaluates a population.
///
/// All give the same bits (see the crate documentation, "Batch evaluation");
/// `Scalar` is the reference path, for measurements and for checking that claim.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BatchKernel {
    /// Blocks of 8 points through vector instructions (AVX-512 or AVX2 + FMA, chosen
    /// at run time) where the CPU has them, else `Scalar`.
    #[default]
    Auto,
    /// Blocks through AVX2 + FMA even where AVX-512 is available (for comparisons);
    /// `Scalar` on CPUs without them.
    Avx2,
    /// One point after the other, with the system libm.
    Scalar,
}

impl BatchKernel {
    /// The kernel `Auto` resolves to on this CPU: `"avx512"`, `"avx2"` or `"scalar"`.
    #[must_use]
    pub fn resolved(self) -> &'static str {
        match self.level() {
            SimdLevel::None => "scalar",
            SimdLevel::Avx512 => "avx512",
            SimdLevel::Avx2 => "avx2",
        }
    }

    fn level(self) -> SimdLevel {
        match (self, simd_level()) {
            (BatchKernel::Scalar, _) => SimdLevel::None,
            (BatchKernel::Avx2, SimdLevel::Avx512) => SimdLevel::Avx2,
            (_, level) => level,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SimdLevel {
    None,
    Avx2,
    Avx512,
}

fn simd_level() -> SimdLevel {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            return SimdLevel::Avx512;
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            return SimdLevel::Avx2;
        }
    }
    SimdLevel::None
}

/// A full evaluation: the constraint values and the point's [`Snapshot`] (objective,
/// mean violation with the problem's margin, CEC counts).
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// `f(x)`, `ν̄(x)` and `c`.
    pub snapshot: Snapshot,
    /// `g(x)` (`l_k` values).
    pub inequalities: Vec<f64>,
    /// `h(x)` (`m_k` values).
    pub equalities: Vec<f64>,
}

impl Evaluation {
    /// `f(x)`.
    #[must_use]
    pub fn objective(&self) -> f64 {
        self.snapshot.objective()
    }

    /// `ν̄(x)`.
    #[must_use]
    pub fn mean_violation(&self) -> f64 {
        self.snapshot.violation()
    }

    /// Whether `ν̄ = 0`.
    #[must_use]
    pub fn is_feasible(&self) -> bool {
        self.snapshot.is_feasible()
    }
}

/// Scratch matrices of the batch evaluation, one set per thread, grown on demand.
#[derive(Default)]
struct BatchScratch {
    y: Vec<f64>,
    z: Vec<f64>,
    z2: Vec<f64>,
    /// One block's coordinates `y`, `z`, `z2` (`3 N` lanes), reused from call to call
    /// (zeroing three `MAX_DIM`-long stack arrays per batch cost more than the
    /// evaluations at N = 10); `fast_blocks` the same for [`Fidelity::Fast`].
    blocks: Vec<Lanes>,
    fast_blocks: Vec<Lanes<true>>,
}

/// The prepared coordinates of a batch (`N × count`, column-major) and the block
/// scratch (`3 N` lanes).
struct BlockInput<'a, const FAST: bool> {
    y: &'a [f64],
    z: &'a [f64],
    z2: &'a [f64],
    blocks: &'a mut [Lanes<FAST>],
}

thread_local! {
    static SCRATCH: RefCell<BatchScratch> = RefCell::new(BatchScratch::default());
}

impl Cec2017Problem {
    /// Problem `id ∈ 1..=28` in dimension `dim`, with data loaded from `source`.
    ///
    /// # Errors
    /// [`CecError::UnknownProblem`], [`CecError::UnsupportedDimension`], or the
    /// errors of reading the data files.
    pub fn new(id: usize, dim: usize, source: &InstanceSource) -> Result<Self, CecError> {
        let spec = problem_spec(id).ok_or(CecError::UnknownProblem(id))?;
        // A pre-FMA fallback kernel rounds the rotations differently: say so, once.
        constraint_handling::linalg::kernel::warn_once();
        let data = source.load(spec, dim)?;
        Self::from_data(id, dim, Arc::new(data))
    }

    /// Problem `id` in dimension `dim` with the given instance data (checked for shape).
    ///
    /// # Errors
    /// [`CecError::UnknownProblem`] or [`CecError::UnsupportedDimension`].
    pub fn from_data(id: usize, dim: usize, data: Arc<InstanceData>) -> Result<Self, CecError> {
        let spec = problem_spec(id).ok_or(CecError::UnknownProblem(id))?;
        crate::instance::check_dimension(spec, dim)?;
        let needed = match spec.transform {
            crate::Transform::None => 0,
            crate::Transform::Single => 1,
            crate::Transform::Double => 2,
        };
        let shape_ok = data.shift.len() == dim
            && data.matrices.len() == needed
            && data.matrices.iter().all(|m| m.dim() == (dim, dim));
        if !shape_ok {
            return Err(CecError::UnsupportedDimension {
                id,
                dim,
                reason: format!(
                    "instance data has a shift of length {} and {} matrices of shapes {:?}; need length {dim} and {needed} matrices {dim}×{dim}",
                    data.shift.len(),
                    data.matrices.len(),
                    data.matrices.iter().map(|m| m.dim()).collect::<Vec<_>>()
                ),
            });
        }
        Ok(Self {
            spec,
            dim,
            data,
            lower: vec![-spec.bound; dim],
            upper: vec![spec.bound; dim],
            delta: DEFAULT_EQUALITY_MARGIN,
            kernel: BatchKernel::Auto,
            fidelity: Fidelity::Exact,
            jacobian: JacobianSource::Differences,
        })
    }

    /// The same problem with the given batch evaluation kernel (default
    /// [`BatchKernel::Auto`]).
    #[must_use]
    pub fn with_batch_kernel(mut self, kernel: BatchKernel) -> Self {
        self.kernel = kernel;
        self
    }

    /// The batch evaluation kernel.
    #[must_use]
    pub fn batch_kernel(&self) -> BatchKernel {
        self.kernel
    }

    /// The same problem with the given `sin`/`cos` of the vectorised batch evaluation
    /// (default [`Fidelity::Exact`]).
    ///
    /// ```
    /// use cec2017_constrained::{Fidelity, Suite};
    /// use constraint_handling::ConstrainedProblem;
    /// use ndarray::{Array1, Array2};
    ///
    /// let exact = Suite::synthetic(1).problem(1, 10).unwrap();
    /// let fast = exact.clone().with_fidelity(Fidelity::Fast);
    /// let x = Array2::from_shape_fn((10, 8), |(i, j)| (i * j) as f64 - 20.0);
    /// let (mut f1, mut c1) = (Array1::zeros(8), Array2::zeros((1, 8)));
    /// let (mut f2, mut c2) = (Array1::zeros(8), Array2::zeros((1, 8)));
    /// exact.evaluate_batch(x.view(), f1.view_mut(), c1.view_mut()).unwrap();
    /// fast.evaluate_batch(x.view(), f2.view_mut(), c2.view_mut()).unwrap();
    /// for (a, b) in c1.iter().zip(&c2) {
    ///     assert!((a - b).abs() <= 1e-12 * a.abs());
    /// }
    /// ```
    #[must_use]
    pub fn with_fidelity(mut self, fidelity: Fidelity) -> Self {
        self.fidelity = fidelity;
        self
    }

    /// The `sin`/`cos` of the vectorised batch evaluation.
    #[must_use]
    pub fn fidelity(&self) -> Fidelity {
        self.fidelity
    }

    /// The problem offering its exact constraint Jacobian ([`JacobianSource::Exact`]:
    /// forward-mode automatic differentiation of the same definitions as the values,
    /// through the shift and rotation), or as a black box
    /// ([`JacobianSource::Differences`], the default, as in the paper).
    ///
    /// Where a constraint is not differentiable (`|v|` at 0, problem 17's sign count,
    /// which is piecewise constant) the derivative is that of the branch the values take.
    #[must_use]
    pub fn with_jacobian(mut self, source: JacobianSource) -> Self {
        self.jacobian = source;
        self
    }

    /// The same problem with equality margin `δ` (default `1e-4`) for
    /// [`Cec2017Problem::mean_violation`] and [`Cec2017Problem::evaluate_full`].
    ///
    /// # Errors
    /// [`CecError::InvalidMargin`] unless `δ` is finite and non-negative.
    pub fn with_equality_margin(mut self, delta: f64) -> Result<Self, CecError> {
        if !(delta.is_finite() && delta >= 0.0) {
            return Err(CecError::InvalidMargin(delta));
        }
        self.delta = delta;
        Ok(self)
    }

    /// The problem number `k`.
    #[must_use]
    pub fn id(&self) -> usize {
        self.spec.id
    }

    /// The static description (bounds, counts, transformation).
    #[must_use]
    pub fn spec(&self) -> &'static ProblemSpec {
        self.spec
    }

    /// The shift vector `o` (length `N`).
    #[must_use]
    pub fn shift(&self) -> &[f64] {
        &self.data.shift
    }

    /// The instance data.
    #[must_use]
    pub fn data(&self) -> &Arc<InstanceData> {
        &self.data
    }

    /// Evaluates `x` and returns everything CEC tables report.
    ///
    /// # Errors
    /// [`CecError::Problem`] if `x` has the wrong length.
    pub fn evaluate_full(&self, x: &[f64]) -> Result<Evaluation, CecError> {
        let mut c = vec![0.0; self.num_constraints()];
        let objective = self.evaluate(x, &mut c)?;
        let snapshot = Snapshot::new(objective, self.mean_violation(&c))
            .with_counts(self.constraint_counts(&c));
        let equalities = c.split_off(self.spec.inequalities);
        Ok(Evaluation {
            snapshot,
            inequalities: c,
            equalities,
        })
    }

    /// Evaluates the definition on prepared coordinates; `c` has `l + m` entries.
    fn evaluate_coordinates(&self, coords: &Coordinates<'_, f64>, c: &mut [f64]) -> f64 {
        functions::evaluate(self.spec.id, coords, c)
    }

    /// The batch's definitions, [`WIDTH`] points at a time, on the prepared
    /// column-major coordinates `y`, `z`, `z2` (`N × count`). Inlined into the
    /// target-feature wrappers below, so that the lane loops become vector code.
    #[inline(always)]
    fn evaluate_blocks<const FAST: bool>(
        &self,
        input: BlockInput<'_, FAST>,
        out: &mut BatchOutput<'_>,
    ) {
        let BlockInput { y, z, z2, blocks } = input;
        let n = self.dim;
        let count = out.objectives.len();
        let k = self.num_constraints();
        let transforms = self.data.matrices.len();
        let (yb, rest) = blocks.split_at_mut(n);
        let (zb, z2b) = rest.split_at_mut(n);
        // Gathers coordinate i of the block's points (the last point repeated to fill).
        let gather = |src: &[f64], dst: &mut [Lanes<FAST>], first: usize, last: usize| {
            for (i, d) in dst[..n].iter_mut().enumerate() {
                d.0 = std::array::from_fn(|l| src[(first + l).min(last) * n + i]);
            }
        };
        for first in (0..count).step_by(WIDTH) {
            let last = (first + WIDTH).min(count) - 1;
            gather(y, yb, first, last);
            if transforms >= 1 {
                gather(z, zb, first, last);
            }
            if transforms >= 2 {
                gather(z2, z2b, first, last);
            }
            let coords = Coordinates {
                y: &yb[..n],
                z: &zb[..n],
                z2: &z2b[..n],
            };
            let mut c = [Lanes::<FAST>([0.0; WIDTH]); MAX_CONSTRAINTS];
            let f = functions::evaluate(self.spec.id, &coords, &mut c[..k]);
            for l in 0..=last - first {
                out.objectives[first + l] = f.0[l];
                for (i, ci) in c[..k].iter().enumerate() {
                    out.constraints[[i, first + l]] = ci.0[l];
                }
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    fn evaluate_blocks_avx512<const FAST: bool>(
        &self,
        input: BlockInput<'_, FAST>,
        out: &mut BatchOutput<'_>,
    ) {
        self.evaluate_blocks(input, out);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    fn evaluate_blocks_avx2<const FAST: bool>(
        &self,
        input: BlockInput<'_, FAST>,
        out: &mut BatchOutput<'_>,
    ) {
        self.evaluate_blocks(input, out);
    }

    /// The block evaluation compiled for `level` (not `SimdLevel::None`).
    fn dispatch_blocks<const FAST: bool>(
        &self,
        level: SimdLevel,
        input: BlockInput<'_, FAST>,
        out: &mut BatchOutput<'_>,
    ) {
        match level {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has the features (checked by `simd_level`).
            SimdLevel::Avx512 => unsafe { self.evaluate_blocks_avx512(input, out) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            SimdLevel::Avx2 => unsafe { self.evaluate_blocks_avx2(input, out) },
            _ => self.evaluate_blocks(input, out),
        }
    }

    /// The batch's definitions point by point.
    fn evaluate_columns(&self, y: &[f64], z: &[f64], z2: &[f64], out: &mut BatchOutput<'_>) {
        let n = self.dim;
        let k = self.num_constraints();
        let mut c = [0.0; MAX_CONSTRAINTS];
        for j in 0..out.objectives.len() {
            let col = j * n..(j + 1) * n;
            let coords = Coordinates {
                y: &y[col.clone()],
                z: &z[col.clone()],
                z2: &z2[col],
            };
            out.objectives[j] = self.evaluate_coordinates(&coords, &mut c[..k]);
            out.constraints
                .column_mut(j)
                .iter_mut()
                .zip(&c[..k])
                .for_each(|(d, s)| *d = *s);
        }
    }
}

/// The first `len` lanes of `blocks`, grown to that length once.
fn grown<const FAST: bool>(blocks: &mut Vec<Lanes<FAST>>, len: usize) -> &mut [Lanes<FAST>] {
    if blocks.len() < len {
        blocks.resize(len, Lanes([0.0; WIDTH]));
    }
    &mut blocks[..len]
}

/// Where a batch evaluation writes.
struct BatchOutput<'a> {
    objectives: ArrayViewMut1<'a, f64>,
    constraints: ArrayViewMut2<'a, f64>,
}

/// How many Jacobian columns one pass over dual numbers computes.
const LANES: usize = 8;

impl ConstraintJacobian for Cec2017Problem {
    /// `⌈N / 8⌉` passes of the definitions over dual numbers (8 columns each), through
    /// `y = x − o` and `z = M y`; with `values`, one evaluation over `f64` for the values
    /// exactly as [`ConstrainedProblem::evaluate`] gives them. No allocation.
    fn evaluate_jacobian(
        &self,
        x: &[f64],
        values: Option<&mut [f64]>,
        mut jacobian: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        prepare_jacobian(self, x, values, jacobian.dim())?;
        let (n, k) = (self.dim, self.num_constraints());
        type D = Dual<LANES>;
        let zero = D::constant(0.0);
        let (mut xd, mut y, mut z, mut z2) = (
            [zero; MAX_DIM],
            [zero; MAX_DIM],
            [zero; MAX_DIM],
            [zero; MAX_DIM],
        );
        let mut c = [zero; MAX_CONSTRAINTS];
        for start in (0..n).step_by(LANES) {
            D::seed(x, start, &mut xd[..n]);
            for ((yi, &xi), &oi) in y.iter_mut().zip(&xd[..n]).zip(&self.data.shift) {
                *yi = xi - oi;
            }
            for (out, m) in [&mut z, &mut z2].into_iter().zip(&self.data.matrices) {
                for (o, row) in out.iter_mut().zip(m.rows()) {
                    let mut s = zero;
                    for (&a, &b) in row.iter().zip(&y[..n]) {
                        s += b * a;
                    }
                    *o = s;
                }
            }
            let coords = Coordinates {
                y: &y[..n],
                z: &z[..n],
                z2: &z2[..n],
            };
            functions::evaluate(self.spec.id, &coords, &mut c[..k]);
            D::write_columns(&c[..k], start, jacobian.view_mut());
        }
        Ok(())
    }
}

/// `out = M v` with left-to-right row sums (row `i` of `M` is row `i` of the file).
fn mat_vec(m: &ndarray::Array2<f64>, v: &[f64], out: &mut [f64]) {
    for (o, row) in out.iter_mut().zip(m.rows()) {
        let mut s = 0.0;
        for (a, b) in row.iter().zip(v) {
            s += a * b;
        }
        *o = s;
    }
}

impl ConstrainedProblem for Cec2017Problem {
    fn equality_margin(&self) -> f64 {
        self.delta
    }

    fn dim(&self) -> usize {
        self.dim
    }

    fn num_inequalities(&self) -> usize {
        self.spec.inequalities
    }

    fn num_equalities(&self) -> usize {
        self.spec.equalities
    }

    fn lower_bounds(&self) -> &[f64] {
        &self.lower
    }

    fn upper_bounds(&self) -> &[f64] {
        &self.upper
    }

    fn constraint_jacobian(&self) -> Option<&dyn ConstraintJacobian> {
        match self.jacobian {
            JacobianSource::Exact => Some(self),
            JacobianSource::Differences => None,
        }
    }

    /// Evaluates one point. A NaN component yields NaN values (no panic).
    fn evaluate(&self, x: &[f64], constraints: &mut [f64]) -> Result<f64, ProblemError> {
        self.check_buffers(x, constraints)?;
        let n = self.dim;
        let mut y = [0.0; MAX_DIM];
        let mut z = [0.0; MAX_DIM];
        let mut z2 = [0.0; MAX_DIM];
        for ((yi, xi), oi) in y.iter_mut().zip(x).zip(&self.data.shift) {
            *yi = xi - oi;
        }
        if let Some(m) = self.data.matrices.first() {
            mat_vec(m, &y[..n], &mut z[..n]);
        }
        if let Some(m) = self.data.matrices.get(1) {
            mat_vec(m, &y[..n], &mut z2[..n]);
        }
        let coords = Coordinates {
            y: &y[..n],
            z: &z[..n],
            z2: &z2[..n],
        };
        Ok(self.evaluate_coordinates(&coords, constraints))
    }

    /// Evaluates a population (`N × n`, one point per column): `Y = X − o 1ᵀ` and, for
    /// transformed problems, `Z = M Y` as one matrix product (BLAS), then the
    /// definitions column by column. Uses per-thread scratch space that grows once.
    ///
    /// The transformed coordinates come from a BLAS product whose summation order
    /// differs from [`ConstrainedProblem::evaluate`]'s left-to-right sums, so the two
    /// may differ in the last bits for problems 2, 5 and 21–28.
    fn evaluate_batch(
        &self,
        points: ArrayView2<'_, f64>,
        mut objectives: ArrayViewMut1<'_, f64>,
        mut constraints: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        check_batch_shapes(self, &points, &objectives, &constraints)?;
        let (n, count) = points.dim();
        SCRATCH.with(|scratch| {
            let mut scratch = scratch.borrow_mut();
            let BatchScratch {
                y,
                z,
                z2,
                blocks,
                fast_blocks,
            } = &mut *scratch;
            let len = n * count;
            for buf in [&mut *y, &mut *z, &mut *z2] {
                if buf.len() < len {
                    buf.resize(len, 0.0);
                }
            }
            let shift = &self.data.shift[..n];
            for (j, ycol) in y[..len].chunks_exact_mut(n).enumerate() {
                let xcol = points.column(j);
                match xcol.as_slice() {
                    Some(xcol) => {
                        for ((yi, xi), oi) in ycol.iter_mut().zip(xcol).zip(shift) {
                            *yi = xi - oi;
                        }
                    }
                    None => {
                        for ((yi, xi), oi) in ycol.iter_mut().zip(xcol).zip(shift) {
                            *yi = xi - oi;
                        }
                    }
                }
            }
            let y: &[f64] = &y[..len];
            // Invariant: every buffer has at least n·count entries.
            let ym =
                ArrayView2::from_shape((n, count).f(), y).expect("scratch has n·count entries");
            let transformed = |m: &ndarray::Array2<f64>, out: &mut [f64]| {
                let mut zm = ArrayViewMut2::from_shape((n, count).f(), &mut out[..len])
                    .expect("scratch has n·count entries");
                gemm(1.0, &m.view(), &ym, 0.0, &mut zm);
            };
            if let Some(m) = self.data.matrices.first() {
                transformed(m, z);
            }
            if let Some(m) = self.data.matrices.get(1) {
                transformed(m, z2);
            }
            let (z, z2): (&[f64], &[f64]) = (&z[..len], &z2[..len]);
            let mut out = BatchOutput {
                objectives: objectives.view_mut(),
                constraints: constraints.view_mut(),
            };
            let level = self.kernel.level();
            if level == SimdLevel::None {
                self.evaluate_columns(y, z, z2, &mut out);
            } else if self.fidelity == Fidelity::Fast {
                let input = BlockInput {
                    y,
                    z,
                    z2,
                    blocks: grown(fast_blocks, 3 * n),
                };
                self.dispatch_blocks(level, input, &mut out);
            } else {
                let input = BlockInput {
                    y,
                    z,
                    z2,
                    blocks: grown(blocks, 3 * n),
                };
                self.dispatch_blocks(level, input, &mut out);
            }
        });
        Ok(())
    }
}
