//! Property tests of the constraint-handling techniques.

use constraint_handling::epsilon::{EpsilonDecay, EpsilonDecayParams, EpsilonSchedule};
use constraint_handling::levenberg_marquardt::{
    LevenbergMarquardt, LevenbergMarquardtParams, Scaling, Solve,
};
use constraint_handling::ordering::{
    rank, rank_epsilon_level_into, rank_into, CandidateOrder, EpsilonLevel, Fitness,
    ReferenceLexicographic,
};
use constraint_handling::problem::{ConstraintJacobian, JacobianSource};
use constraint_handling::reflection::{keep_range, reflect_component};
use constraint_handling::repair::{GradientRepair, RepairParams, RepairStatus};
use constraint_handling::{ConstrainedProblem, FnProblem, ProblemError};
use proptest::prelude::*;
use std::cmp::Ordering;

fn finite() -> impl Strategy<Value = f64> {
    prop_oneof![
        -1e3..1e3f64,
        -1e12..1e12f64,
        Just(0.0),
        Just(-0.0),
        -1e300..1e300f64
    ]
}

/// Objective or violation values with the awkward cases: signed zeros, infinities,
/// NaN, and few distinct values (ties).
fn awkward() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => (-3i32..4).prop_map(|i| f64::from(i) * 0.5),
        2 => -1e6..1e6f64,
        1 => Just(-0.0),
        1 => Just(f64::INFINITY),
        1 => Just(f64::NEG_INFINITY),
        1 => Just(f64::NAN),
    ]
}

proptest! {
    #[test]
    fn ranking_by_keys_equals_ranking_by_the_comparator(
        pts in prop::collection::vec((awkward(), awkward()), 0..60),
        eps in prop_oneof![Just(0.0), Just(-0.0), 0.0..2.0f64, Just(f64::INFINITY), Just(f64::NAN), Just(-1.0)],
    ) {
        let f: Vec<f64> = pts.iter().map(|p| p.0).collect();
        // violations as a strategy sees them are ≥ 0, but the order is defined for all
        let v: Vec<f64> = pts.iter().map(|p| p.1).collect();
        let order = EpsilonLevel::new(eps);
        let (mut by_keys, mut by_comparator) = (vec![0; f.len()], vec![0; f.len()]);
        let mut keys = Vec::new();
        rank_epsilon_level_into(&order, &f, &v, &mut by_keys, &mut keys).unwrap();
        rank_into(&order, &f, &v, &mut by_comparator).unwrap();
        prop_assert_eq!(by_keys, by_comparator);
    }

    #[test]
    fn reflection_stays_inside_and_is_the_identity_inside(
        y in finite(), lb in -1e3..1e3f64, width in prop_oneof![0.0..1e3f64, Just(0.0), 1e-9..1e-6f64],
    ) {
        let ub = lb + width;
        let r = reflect_component(y, lb, ub);
        prop_assert!(r >= lb && r <= ub, "{y} → {r} outside [{lb}, {ub}]");
        if y >= lb && y <= ub {
            prop_assert_eq!(r.to_bits(), y.to_bits());
        }
    }

    #[test]
    fn keep_range_reports_changes(ys in prop::collection::vec(-300.0..300f64, 1..8)) {
        let n = ys.len();
        let mut y = ys.clone();
        let changed = keep_range(&mut y, &vec![-100.0; n], &vec![100.0; n]).unwrap();
        prop_assert_eq!(changed, ys.iter().any(|v| v.abs() > 100.0));
        prop_assert!(y.iter().all(|v| v.abs() <= 100.0));
    }

    #[test]
    fn orderings_are_total_preorders(
        pts in prop::collection::vec((finite(), prop_oneof![Just(0.0), 0.0..10.0f64, Just(1.0)]), 3),
        eps in prop_oneof![Just(0.0), 0.0..5.0f64, Just(1.0)],
    ) {
        let fits: Vec<Fitness> = pts.iter().map(|&(f, v)| Fitness::new(f, v)).collect();
        let orders: [&dyn CandidateOrder; 2] = [&EpsilonLevel::new(eps), &ReferenceLexicographic];
        for o in orders {
            for a in &fits {
                prop_assert!(o.precedes(a, a)); // reflexive
                for b in &fits {
                    prop_assert!(o.precedes(a, b) || o.precedes(b, a)); // total
                    prop_assert_eq!(o.compare(a, b), o.compare(b, a).reverse()); // antisymmetric
                    for c in &fits {
                        if o.precedes(a, b) && o.precedes(b, c) {
                            prop_assert!(o.precedes(a, c)); // transitive
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn ranking_is_sorted_and_stable(
        pts in prop::collection::vec((prop_oneof![Just(1.0), Just(2.0), finite()], prop_oneof![Just(0.0), Just(0.5), 0.0..2.0f64]), 0..40),
        eps in 0.0..1.0f64,
    ) {
        let f: Vec<f64> = pts.iter().map(|p| p.0).collect();
        let v: Vec<f64> = pts.iter().map(|p| p.1).collect();
        let order = EpsilonLevel::new(eps);
        let perm = rank(&order, &f, &v).unwrap();
        let mut seen = perm.clone();
        seen.sort_unstable();
        prop_assert_eq!(seen, (0..f.len()).collect::<Vec<_>>());
        for w in perm.windows(2) {
            let (a, b) = (Fitness::new(f[w[0]], v[w[0]]), Fitness::new(f[w[1]], v[w[1]]));
            match order.compare(&a, &b) {
                Ordering::Greater => prop_assert!(false, "not sorted"),
                Ordering::Equal => prop_assert!(w[0] < w[1], "tie out of index order"),
                Ordering::Less => {}
            }
        }
    }

    #[test]
    fn epsilon_schedule_is_non_increasing_and_zero_from_t(
        eps0 in prop_oneof![1e-12..1e-3f64, 1e-3..1e6f64], t_max in 2usize..3000, gamma in 0.5..10.0f64,
    ) {
        let params = EpsilonDecayParams { theta_t: 0.9, t_max, gamma_min: gamma };
        let s = EpsilonDecay::with_initial_epsilon(params, eps0).unwrap();
        let mut prev = s.epsilon(0);
        prop_assert_eq!(prev, eps0);
        for g in 1..t_max + 5 {
            let e = s.epsilon(g);
            prop_assert!(e <= prev, "ε({g}) = {e} > ε({}) = {prev}", g - 1);
            prop_assert!(e >= 0.0);
            if g >= t_max {
                prop_assert_eq!(e, 0.0);
            }
            prev = e;
        }
        if t_max > 2 {
            let last = s.epsilon(t_max - 1);
            let expected = eps0 * (t_max as f64).powf(-s.cp());
            prop_assert!((last - expected).abs() <= 1e-9 * expected + f64::MIN_POSITIVE, "{last} vs {expected}");
        }
    }

    #[test]
    fn one_repair_step_solves_a_linear_equality_system(
        n in 2usize..8, rows in 1usize..3, seed in 0u64..1000,
    ) {
        let rows = rows.min(n);
        // A well-conditioned A (diagonally dominant on the leading block) and b.
        let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let mut next = || { state = state.wrapping_mul(6364136223846793005).wrapping_add(1); ((state >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0 };
        let mut a = vec![vec![0.0; n]; rows];
        for (i, row) in a.iter_mut().enumerate() {
            for (j, x) in row.iter_mut().enumerate() {
                *x = next() + if i == j { 4.0 } else { 0.0 };
            }
        }
        let b: Vec<f64> = (0..rows).map(|_| next() * 10.0).collect();
        let exact = ExactLinear { a: a.clone(), problem: linear(a, b) };
        let x: Vec<f64> = (0..n).map(|_| next() * 5.0).collect();
        let mut c = vec![0.0; rows];
        exact.evaluate(&x, &mut c).unwrap();
        let mut repair = GradientRepair::new(RepairParams::default()).unwrap();
        // Forward differences: N probes; the exact Jacobian: one evaluation.
        let mut by_differences = vec![0.0; n];
        let outcome = repair.step(&exact.problem, &x, &c, &mut by_differences).unwrap();
        prop_assert_eq!(outcome.status, RepairStatus::Applied);
        prop_assert_eq!(outcome.evaluations, n);
        prop_assert_eq!(GradientRepair::cost(n, JacobianSource::Differences), n + 1);
        let mut by_jacobian = vec![0.0; n];
        let outcome = repair.step(&exact, &x, &c, &mut by_jacobian).unwrap();
        prop_assert_eq!(outcome.status, RepairStatus::Applied);
        prop_assert_eq!(outcome.evaluations, 1);
        prop_assert_eq!(GradientRepair::cost(n, JacobianSource::Exact), 2);
        let mut residual = vec![0.0; rows];
        exact.evaluate(&by_differences, &mut residual).unwrap();
        prop_assert!(residual.iter().all(|v| v.abs() < 1e-8), "residual {residual:?}");
        exact.evaluate(&by_jacobian, &mut residual).unwrap();
        let scale = 1.0 + x.iter().map(|v| v.abs()).sum::<f64>();
        prop_assert!(residual.iter().all(|v| v.abs() < 1e-13 * scale * 8.0), "residual {residual:?}");
    }
}

/// `h(x) = A x − b = 0` in `[−10⁶, 10⁶]ᴺ`.
fn linear(a: Vec<Vec<f64>>, b: Vec<f64>) -> impl ConstrainedProblem {
    let n = a[0].len();
    let m = b.len();
    FnProblem::new(vec![-1e6; n], vec![1e6; n], 0, m, move |x, c| {
        for ((ci, row), bi) in c.iter_mut().zip(&a).zip(&b) {
            *ci = row.iter().zip(x).map(|(a, x)| a * x).sum::<f64>() - bi;
        }
        Ok(0.0)
    })
    .unwrap()
}

/// [`linear`] offering its exact Jacobian `A`.
struct ExactLinear<P> {
    a: Vec<Vec<f64>>,
    problem: P,
}

impl<P: ConstrainedProblem> ConstrainedProblem for ExactLinear<P> {
    fn dim(&self) -> usize {
        self.problem.dim()
    }
    fn num_inequalities(&self) -> usize {
        0
    }
    fn num_equalities(&self) -> usize {
        self.a.len()
    }
    fn lower_bounds(&self) -> &[f64] {
        self.problem.lower_bounds()
    }
    fn upper_bounds(&self) -> &[f64] {
        self.problem.upper_bounds()
    }
    fn evaluate(&self, x: &[f64], c: &mut [f64]) -> Result<f64, ProblemError> {
        self.problem.evaluate(x, c)
    }
    fn constraint_jacobian(&self) -> Option<&dyn ConstraintJacobian> {
        Some(self)
    }
}

impl<P: ConstrainedProblem> ConstraintJacobian for ExactLinear<P> {
    fn evaluate_jacobian(
        &self,
        x: &[f64],
        values: Option<&mut [f64]>,
        mut jacobian: ndarray::ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        if let Some(c) = values {
            self.evaluate(x, c)?;
        }
        for (mut row, a) in jacobian.rows_mut().into_iter().zip(&self.a) {
            row.iter_mut().zip(a).for_each(|(j, &a)| *j = a);
        }
        Ok(())
    }
}

/// Constraint values chosen by the test (`l` inequalities first), in `[−1, 1]³`.
fn fixed(values: Vec<f64>, l: usize) -> impl ConstrainedProblem {
    let m = values.len() - l;
    FnProblem::new(vec![-1.0; 3], vec![1.0; 3], l, m, move |_, c| {
        c.copy_from_slice(&values);
        Ok(0.0)
    })
    .unwrap()
}

#[test]
fn repair_handles_bad_input_without_panicking() {
    let mut repair = GradientRepair::new(RepairParams::default()).unwrap();
    let x = [0.1, 0.2, 0.3];
    let mut y = [0.0; 3];
    // NaN and ∞ constraint values: Δx = 0
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let p = fixed(vec![bad, 1.0], 1);
        let o = repair.step(&p, &x, &[bad, 1.0], &mut y).unwrap();
        assert_eq!(o.status, RepairStatus::NonFinite, "{bad}");
        assert_eq!(y, x);
    }
    // A constant constraint: J = 0 is singular, J⁺ = 0, Δx = 0
    let p = fixed(vec![2.0, 1.0], 1);
    let o = repair.step(&p, &x, &[2.0, 1.0], &mut y).unwrap();
    assert_eq!((o.status, o.evaluations), (RepairStatus::Applied, 3));
    assert_eq!(y, x);
    // No constraints: nothing to do, nothing evaluated
    let p = fixed(vec![], 0);
    let o = repair.step(&p, &x, &[], &mut y).unwrap();
    assert_eq!((o.status, o.evaluations), (RepairStatus::NoConstraints, 0));
    // Wrong lengths are errors
    let p = fixed(vec![1.0], 1);
    assert!(repair.step(&p, &x[..2], &[1.0], &mut y).is_err());
    assert!(repair.step(&p, &x, &[1.0, 2.0], &mut y).is_err());
    assert!(repair.step(&p, &x, &[1.0], &mut [0.0; 2]).is_err());
    // Invalid parameters
    assert!(GradientRepair::new(RepairParams {
        eta: 0.0,
        ..RepairParams::default()
    })
    .is_err());
    assert!(GradientRepair::new(RepairParams {
        pinv_tolerance: f64::NAN,
        ..RepairParams::default()
    })
    .is_err());
}

#[test]
fn satisfied_inequalities_are_not_pushed() {
    // g(x) = x₁ − 5 ≤ 0 holds: ΔC = 0 → Δx = 0, even though J ≠ 0.
    let half = FnProblem::new(vec![-9.0; 2], vec![9.0; 2], 1, 0, |x, c| {
        c[0] = x[0] - 5.0;
        Ok(0.0)
    })
    .unwrap();
    let mut repair = GradientRepair::new(RepairParams::default()).unwrap();
    let mut y = [0.0; 2];
    repair.step(&half, &[1.0, 2.0], &[-4.0], &mut y).unwrap();
    assert_eq!(y, [1.0, 2.0]);
    // violated: one step lands on the boundary x₁ = 5
    repair.step(&half, &[7.0, 2.0], &[2.0], &mut y).unwrap();
    assert!(
        (y[0] - 5.0).abs() < 1e-9 && (y[1] - 2.0).abs() < 1e-12,
        "{y:?}"
    );
}

/// `h(x) = x₁² + x₂² − 2 = 0` in `[−3, 3]²` (equality margin `10⁻¹³`), with its exact
/// Jacobian if `exact`.
struct Circle {
    exact: bool,
}

impl ConstrainedProblem for Circle {
    fn dim(&self) -> usize {
        2
    }
    fn num_inequalities(&self) -> usize {
        0
    }
    fn num_equalities(&self) -> usize {
        1
    }
    fn lower_bounds(&self) -> &[f64] {
        &[-3.0; 2]
    }
    fn upper_bounds(&self) -> &[f64] {
        &[3.0; 2]
    }
    /// The repair goes on while `|h| > 10⁻¹³`.
    fn equality_margin(&self) -> f64 {
        1e-13
    }
    fn evaluate(&self, x: &[f64], c: &mut [f64]) -> Result<f64, ProblemError> {
        c[0] = x[0] * x[0] + x[1] * x[1] - 2.0;
        Ok(x[0] + x[1])
    }
    fn constraint_jacobian(&self) -> Option<&dyn ConstraintJacobian> {
        self.exact.then_some(self as &dyn ConstraintJacobian)
    }
}

impl ConstraintJacobian for Circle {
    fn evaluate_jacobian(
        &self,
        x: &[f64],
        values: Option<&mut [f64]>,
        mut jacobian: ndarray::ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        if let Some(c) = values {
            self.evaluate(x, c)?;
        }
        jacobian[[0, 0]] = 2.0 * x[0];
        jacobian[[0, 1]] = 2.0 * x[1];
        Ok(())
    }
}

proptest! {
    /// From anywhere off the origin, the Levenberg–Marquardt repair puts a point on
    /// the circle: with the exact Jacobian to `|h| ≤ 10⁻¹³` within 20 iterations (one
    /// evaluation each, and the first Jacobian), with differences to `10⁻¹⁰` (`N + 1`
    /// each).
    #[test]
    fn the_levenberg_marquardt_repair_reaches_an_equality(
        r in 0.05f64..2.9, angle in 0.0f64..std::f64::consts::TAU,
    ) {
        let x0 = [r * angle.cos(), r * angle.sin()];
        for exact in [true, false] {
            let p = Circle { exact };
            let (mut x, mut c) = (x0.to_vec(), vec![0.0]);
            let mut f = p.evaluate(&x, &mut c).unwrap();
            let mut lm = LevenbergMarquardt::new(LevenbergMarquardtParams { iterations: 20, ..Default::default() });
            let o = lm.repair(&p, &mut x, &mut f, &mut c).unwrap();
            let mut check = vec![0.0];
            prop_assert_eq!(f, p.evaluate(&x, &mut check).unwrap());
            prop_assert_eq!(check[0], c[0]);
            // Exact: the first Jacobian, then one per new point (with its Jacobian).
            let spent = if exact { o.iterations + 1 } else { 3 * o.iterations };
            prop_assert_eq!(o.evaluations, spent);
            let tolerance = if exact { 1e-13 } else { 1e-10 };
            prop_assert!(c[0].abs() <= tolerance, "{exact}: |h| = {:e} from {x0:?} after {} iterations", c[0].abs(), o.iterations);
        }
    }

    /// Inequalities and box bounds through their slacks: a point violating
    /// `g(x) = 1 − x₁ − x₂ ≤ 0` becomes feasible within the box, within 40 iterations
    /// (from far off, towards the small feasible corner, convergence is slow: at the
    /// solution the slack of an active bound is 0 and the system degenerate; 12
    /// iterations left `g = 7.9·10⁻⁷` from (0, −0.9998)).
    #[test]
    fn the_levenberg_marquardt_repair_satisfies_inequalities_in_the_box(
        a in -1.0f64..0.4, b in -1.0f64..0.4,
    ) {
        let p = FnProblem::new(vec![-1.0; 2], vec![0.6; 2], 1, 0, |x, c| {
            c[0] = 1.0 - x[0] - x[1];
            Ok(x[0] * x[0] + x[1] * x[1])
        })
        .unwrap();
        let (mut x, mut c) = (vec![a, b], vec![0.0]);
        let mut f = p.evaluate(&x, &mut c).unwrap();
        prop_assume!(c[0] > 0.0);
        let mut lm = LevenbergMarquardt::new(LevenbergMarquardtParams { iterations: 40, ..Default::default() });
        let o = lm.repair(&p, &mut x, &mut f, &mut c).unwrap();
        prop_assert!(c[0] <= 1e-9, "g = {:e} at {x:?} ({o:?})", c[0]);
        prop_assert!(x.iter().all(|&v| (-1.0..=0.6).contains(&v)), "{x:?}");
        prop_assert!(o.violation.1 <= o.violation.0);
    }
}

proptest! {
    /// `Scaling::Box`: the step does not depend on the variables' units. The equality
    /// `x₁ + x₂ = 0.6` on `[0, 1]²`, and the same with the second variable in units
    /// `t` times smaller (`y₂ = t x₂`, `x₁ + y₂ / t = 0.6` on `[0, 1] × [0, t]`,
    /// `t ∈ [10, 10⁶]`), from corresponding random points: the box-scaled steps are
    /// the same point (to rounding), the unscaled ones are not; and 4 box-scaled
    /// iterations make the stretched problem feasible.
    #[test]
    fn the_box_scaled_levenberg_marquardt_step_is_unit_free(
        a in 0.0f64..1.0, b in 0.0f64..1.0, log_t in 1.0f64..6.0,
    ) {
        let t = 10f64.powf(log_t);
        prop_assume!((a + b - 0.6).abs() > 1e-3);
        let problem = |t: f64| -> Box<dyn ConstrainedProblem> {
            Box::new(FnProblem::new(vec![0.0; 2], vec![1.0, t], 0, 1, move |x, c| {
                c[0] = x[0] + x[1] / t - 0.6;
                Ok(x[0])
            })
            .unwrap())
        };
        let (unit, stretched) = (problem(1.0), problem(t));
        let step = |p: &dyn ConstrainedProblem, scaling, x: [f64; 2], t: f64| -> Vec<f64> {
            let mut c = vec![0.0];
            p.evaluate(&x, &mut c).unwrap();
            let j = ndarray::arr2(&[[1.0, 1.0 / t]]);
            let mut lm = LevenbergMarquardt::new(LevenbergMarquardtParams { scaling, ..Default::default() });
            let mut y = vec![0.0; 2];
            lm.step(0, p.lower_bounds(), p.upper_bounds(), &x, &c, j.view(), &mut y).unwrap();
            y
        };
        let (x, xt) = ([a, b], [a, b * t]);
        let ours = step(unit.as_ref(), Scaling::Box, x, 1.0);
        let theirs = step(stretched.as_ref(), Scaling::Box, xt, t);
        prop_assert!((ours[0] - theirs[0]).abs() <= 1e-9 && (ours[1] - theirs[1] / t).abs() <= 1e-9,
            "{ours:?} vs {theirs:?} (t = {t})");
        let plain_unit = step(unit.as_ref(), Scaling::None, x, 1.0);
        let plain = step(stretched.as_ref(), Scaling::None, xt, t);
        prop_assert!((plain_unit[0] - plain[0]).abs() > 1e-6 || (plain_unit[1] - plain[1] / t).abs() > 1e-6,
            "{plain_unit:?} vs {plain:?} (t = {t})");
        let (mut y, mut c) = (xt.to_vec(), vec![0.0]);
        let mut f = stretched.evaluate(&y, &mut c).unwrap();
        let mut lm = LevenbergMarquardt::new(LevenbergMarquardtParams { scaling: Scaling::Box, ..Default::default() });
        lm.repair(stretched.as_ref(), &mut y, &mut f, &mut c).unwrap();
        prop_assert!(stretched.mean_violation(&c) == 0.0, "ν̄ > 0 at {y:?}: {c:?}");
    }
}

proptest! {
    /// `Solve::Reduced` (the slacks eliminated, `N × N` or by Woodbury `k × k`) takes
    /// the step of `Solve::Full` (the normal equations of the whole slack system) to
    /// rounding: random systems of 1–9 variables and 1–9 constraints (inequalities and
    /// equalities, violated and not), boxes with finite and infinite bounds, both
    /// scalings; both the `k < N` (dual) and the `k ≥ N` (primal) forms. To `10⁻⁸` of
    /// the largest move: the two round differently, by up to the condition of the
    /// system times ε.
    #[test]
    fn the_reduced_levenberg_marquardt_step_is_the_full_one(
        n in 1usize..10, k in 1usize..10, l_share in 0.0f64..=1.0,
        jacobian in prop::collection::vec(-2.0f64..2.0, 81),
        values in prop::collection::vec(-1.0f64..1.0, 9),
        widths in prop::collection::vec(0.5f64..50.0, 18),
        kinds in prop::collection::vec(0u8..4, 9),
        position in prop::collection::vec(0.0f64..1.0, 9),
        box_scaled in any::<bool>(),
    ) {
        let l = ((k as f64) * l_share).floor() as usize;
        let (mut lower, mut upper, mut x) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        for i in 0..n {
            // 0: both bounds, 1: lower only, 2: upper only, 3: none.
            lower[i] = if kinds[i] % 2 == 0 { -widths[i] } else { f64::NEG_INFINITY };
            upper[i] = if kinds[i] < 2 { widths[9 + i] } else { f64::INFINITY };
            x[i] = -widths[i] + position[i] * (widths[i] + widths[9 + i]);
        }
        let j = ndarray::Array2::from_shape_fn((k, n), |(r, c)| jacobian[r * 9 + c]);
        // The equalities at least 0.05 off, so that μ = ‖r‖² ≥ 0.0025 and the systems'
        // condition (at most max diag AᵀA / μ) stays below about 10⁹.
        let c: Vec<f64> = values[..k]
            .iter()
            .enumerate()
            .map(|(row, &v)| if row < l { v } else { v.signum() * (0.05 + 0.95 * v.abs()) })
            .collect();
        let scaling = if box_scaled { Scaling::Box } else { Scaling::None };
        let step = |solve| {
            let mut lm = LevenbergMarquardt::new(LevenbergMarquardtParams { scaling, solve, ..Default::default() });
            let mut y = vec![0.0; n];
            let status = lm.step(l, &lower, &upper, &x, &c, j.view(), &mut y).unwrap();
            (status, y)
        };
        let (full_status, full) = step(Solve::Full);
        let (status, reduced) = step(Solve::Reduced);
        prop_assert_eq!(full_status, RepairStatus::Applied);
        prop_assert_eq!(status, RepairStatus::Applied);
        let size = full.iter().zip(&x).map(|(y, x)| (y - x).abs()).fold(1.0, f64::max);
        for (a, b) in reduced.iter().zip(&full) {
            prop_assert!((a - b).abs() <= 1e-8 * size, "reduced {reduced:?} vs full {full:?} (k = {k}, l = {l}, N = {n})");
        }
    }
}

/// Nothing to repair, a NaN, a failing problem: no panic, nothing spent or an error.
#[test]
fn the_levenberg_marquardt_repair_handles_bad_input() {
    let mut lm = LevenbergMarquardt::new(LevenbergMarquardtParams::default());
    let p = Circle { exact: true };
    let (mut x, mut c) = (vec![1.0, 1.0], vec![0.0]);
    let mut f = p.evaluate(&x, &mut c).unwrap();
    let o = lm.repair(&p, &mut x, &mut f, &mut c).unwrap();
    assert_eq!(
        (o.evaluations, o.iterations),
        (0, 0),
        "feasible: nothing to do"
    );
    let mut c = vec![f64::NAN];
    let o = lm.repair(&p, &mut x, &mut f, &mut c).unwrap();
    assert_eq!(o.evaluations, 0, "a NaN ν̄ is not repaired");
    assert!(lm.repair(&p, &mut x[..1], &mut f, &mut c).is_err());
    let failing = FnProblem::new(vec![-1.0; 2], vec![1.0; 2], 0, 1, |_, _| {
        Err(ProblemError::Evaluation("solver diverged".into()))
    })
    .unwrap();
    let (mut x, mut c) = (vec![0.5, 0.5], vec![1.0]);
    let e = lm.repair(&failing, &mut x, &mut f, &mut c).unwrap_err();
    assert!(e.to_string().contains("solver diverged"), "{e}");
    assert_eq!(x, vec![0.5, 0.5]);
    let bad = LevenbergMarquardt::new(LevenbergMarquardtParams {
        eta: 0.0,
        ..Default::default()
    })
    .repair(&p, &mut [0.3, 0.3], &mut f, &mut [1.0]);
    assert!(bad.is_err());
}
