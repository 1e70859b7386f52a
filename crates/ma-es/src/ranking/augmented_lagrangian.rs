//! The augmented-Lagrangian ranking ([`AugmentedLagrangianRanking`]).

use super::{ConstraintValues, ObjectiveRanking, PopulationRanking};
use constraint_handling::ordering::{check_lengths, improves_best_so_far, Fitness, RankingError};

/// pycma's damping of the multiplier update (`dgamma`).
const D_GAMMA: f64 = 5.0;

/// The augmented-Lagrangian ranking: offspring ranked by a penalised objective whose
/// coefficients adapt every generation (Atamna, Auger & Hansen, FOGA 2017; the
/// behaviour of pycma 4.5's `AugmentedLagrangian` with its default algorithm and
/// `ConstrainedFitnessAL`'s `which='best'`).
///
/// Every constraint becomes one or two inequalities `c ≤ 0`: `g_i`, and `h_j − δ`,
/// `−h_j − δ` for an equality (pycma's advice for equalities; `δ` the problem's
/// equality margin). With multipliers `γ_i ≥ 0` and penalty factors `ω_i ≥ 0`, an
/// offspring's fitness is
///
/// `F(x) = f(x) + Σ_i P_i(c_i(x))`, `P_i(c) = γ_i c + ω_i c² / 2`, where `c` is first
/// raised to `−γ_i / ω_i` (so `P_i ≥ −γ_i² / (2 ω_i)` on the feasible side).
///
/// After ranking, the coefficients are updated from the generation's best offspring by
/// `F`, `(f_b, c_b)`:
/// - **Initialisation** (while a constraint is not yet initialised and every `f` is
///   finite): for a constraint violated by more than 10 % of the offspring, from the
///   interquartile ranges of `f`, `c_i` and `c_i²` over the population,
///   `γ_i = IQR(f) / (N IQR(c_i))` and `ω_i = 0.4 IQR(f) / (N (IQR(c_i) + 10⁻⁶ IQR(c_i²)))`
///   (rescaled when `ω_i` was set before), raised to `γ_i / max|c_i|` but at most 20-fold.
///   It counts as initialised once 10–90 % of the offspring violate it, or after
///   `N + 2` updates.
/// - **Multipliers:** `γ_i ← max(0, γ_i + ω_i c_{b,i} / 5)` when some offspring (or the
///   best) lies where the penalty is not flat.
/// - **Penalty factors:** with `p_i` the share of the last `N + 5` best offspring that
///   satisfy constraint `i`, `ω_i` grows by `χ^{(1 + s)/4}` when `c_{b,i} > 0` or when
///   the best is penalised although feasible and `p_i > 0.95`, and shrinks by
///   `χ^{−(1 − s)/4}` when `c_{b,i} < 0` and `p_i < 0.9`; `χ = 2^{1/(5N)}`, and `s`
///   ramps up to `4` (the sign of the change) after `K + 2` changes in the same
///   direction (`K` inequalities).
///
/// Before the first update every `P_i` is 0: the first generation is ranked by `f`.
/// The best-so-far the strategy reports follows the best-so-far rule on `(ν̄, f)`: its
/// candidate each generation is the best offspring by that rule, not the first place
/// by `F` ([`PopulationRanking::best_so_far_candidate`]), which may be infeasible while
/// a feasible offspring improves.
///
/// ```
/// use ma_es::ranking::{AugmentedLagrangianRanking, ConstraintValues, PopulationRanking};
/// use ndarray::array;
/// let mut al = AugmentedLagrangianRanking::new(2);
/// let mut perm = [0; 4];
/// // One inequality g(x) ≤ 0 (one row), four offspring (columns).
/// let g = array![[-1.0, 0.5, 2.0, -0.2]];
/// let c = ConstraintValues { values: g.view(), inequalities: 1, equality_margin: 1e-4 };
/// let f = [3.0, 1.0, 0.0, 2.0];
/// // No coefficients yet: by f alone.
/// al.rank_constrained(0.0, &f, &[0.0, 0.5, 2.0, 0.0], &c, &mut perm).unwrap();
/// assert_eq!(perm, [2, 1, 3, 0]);
/// // Half the offspring are infeasible: the coefficients are set and penalise them.
/// let (gamma, omega) = al.coefficients();
/// assert!(gamma[0] > 0.0 && omega[0] > 0.0);
/// ```
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct AugmentedLagrangianRanking {
    dim: usize,
    /// `χ = 2^{1/(5N)}`.
    chi: f64,
    /// Constraints in the form `c ≤ 0` per offspring (0 before the first generation).
    kc: usize,
    /// Whether the coefficients exist (pycma: `lam` is set; from the first update on).
    started: bool,
    /// The multipliers `γ_i`.
    gamma: Vec<f64>,
    /// The penalty factors `ω_i`.
    omega: Vec<f64>,
    initialized: Vec<bool>,
    /// Updates done (pycma's `count`).
    updates: usize,
    /// Signed counts of successive `ω` changes in the same direction.
    same_changes: Vec<i64>,
    /// The last `N + 20` best offspring's constraint values, a ring of rows.
    history: Vec<f64>,
    history_rows: usize,
    history_next: usize,
    /// Offspring in the penalised domain this generation, per constraint.
    penalized: Vec<usize>,
    /// Whether `penalized` was counted (coefficients existed when ranking).
    counted: bool,
    // Scratch, sized once.
    c: Vec<f64>,
    fitness: Vec<f64>,
    /// Orders by the penalised fitness.
    order: ObjectiveRanking,
    sorted: Vec<f64>,
    best: Vec<f64>,
}

impl AugmentedLagrangianRanking {
    /// The ranking for dimension `dim` (`N`, which sets `χ` and the horizons).
    #[must_use]
    pub fn new(dim: usize) -> Self {
        let n = dim.max(1);
        Self {
            dim: n,
            chi: 2f64.powf(1.0 / (5.0 * n as f64)),
            kc: 0,
            started: false,
            gamma: Vec::new(),
            omega: Vec::new(),
            initialized: Vec::new(),
            updates: 0,
            same_changes: Vec::new(),
            history: Vec::new(),
            history_rows: 0,
            history_next: 0,
            penalized: Vec::new(),
            counted: false,
            c: Vec::new(),
            fitness: Vec::new(),
            order: ObjectiveRanking::default(),
            sorted: Vec::new(),
            best: Vec::new(),
        }
    }

    /// The current multipliers `γ` and penalty factors `ω`, one per inequality `c ≤ 0`
    /// (empty before the first generation, zero until initialised).
    #[must_use]
    pub fn coefficients(&self) -> (&[f64], &[f64]) {
        (&self.gamma, &self.omega)
    }

    /// Constraint values in the form `c ≤ 0`, column-major by offspring, in `self.c`;
    /// returns their number per offspring.
    fn load(&mut self, violations: &[f64], constraints: Option<&ConstraintValues<'_>>) -> usize {
        let lambda = violations.len();
        let Some(cv) = constraints else {
            // Without the constraint values, ν̄ is the one constraint.
            self.c.clear();
            self.c.extend_from_slice(violations);
            return 1;
        };
        let (k, l) = (cv.values.nrows(), cv.inequalities.min(cv.values.nrows()));
        let kc = l + 2 * (k - l);
        self.c.resize(kc * lambda, 0.0);
        for (j, column) in cv.values.columns().into_iter().enumerate() {
            let out = &mut self.c[j * kc..(j + 1) * kc];
            for (i, &v) in column.iter().enumerate() {
                if i < l {
                    out[i] = v;
                } else {
                    let e = l + 2 * (i - l);
                    out[e] = v - cv.equality_margin;
                    out[e + 1] = -v - cv.equality_margin;
                }
            }
        }
        kc
    }

    /// Sizes the state for `kc` constraints, coefficients not yet set.
    fn reset(&mut self, kc: usize) {
        self.kc = kc;
        self.started = false;
        self.gamma = vec![0.0; kc];
        self.omega = vec![0.0; kc];
        self.initialized = vec![false; kc];
        self.same_changes = vec![0; kc];
        self.penalized = vec![0; kc];
        self.history = vec![0.0; self.history_rows_max() * kc];
        self.history_rows = 0;
        self.history_next = 0;
        self.best = vec![0.0; kc];
        self.updates = 0;
        self.counted = false;
    }

    /// The ring of best offspring holds `N + 20` rows (pycma's `g_history`).
    fn history_rows_max(&self) -> usize {
        self.dim + 20
    }

    fn penalty(&self, i: usize, c: f64) -> f64 {
        let (g, w) = (self.gamma[i], self.omega[i]);
        let c = if w * c < -g { -g / w } else { c };
        g * c + 0.5 * w * c * c
    }

    /// The share of the last `len` best offspring with `c_i < 0` (ties count ½).
    fn feasible_share(&self, i: usize, len: usize) -> f64 {
        let kc = self.kc;
        let rows = self.history_rows.min(len);
        if rows == 0 {
            return f64::NAN;
        }
        let cap = self.history_rows_max();
        let mut sum = 0.0;
        for back in 1..=rows {
            let row = (self.history_next + cap - back) % cap;
            let v = self.history[row * kc + i];
            sum += if v < 0.0 {
                1.0
            } else if v == 0.0 {
                0.5
            } else {
                0.0
            };
        }
        sum / rows as f64
    }

    fn shape_exponent(&self, i: usize) -> f64 {
        let threshold = (2 + self.kc) as f64;
        let d = self.same_changes[i] as f64;
        let s = d.signum();
        let rest = d - s * threshold;
        if rest * s <= 0.0 {
            return 0.0;
        }
        4.0 / threshold * s * threshold.min(s * rest)
    }

    /// Initialises the coefficients from the population (pycma's `set_coefficients`).
    fn set_coefficients(&mut self, objectives: &[f64]) {
        let kc = self.kc;
        let lambda = objectives.len();
        let n = self.dim as f64;
        let df = iqr(objectives.iter().copied(), &mut self.sorted);
        for i in 0..kc {
            if self.initialized[i] && self.omega[i] > 0.0 {
                continue;
            }
            let column = (0..lambda).map(|j| self.c[j * kc + i]);
            let positive = column.clone().filter(|&v| v > 0.0).count();
            let sign_average = -1.0 + 2.0 * positive as f64 / lambda as f64;
            if sign_average <= -0.8 {
                continue;
            }
            let dg = iqr(column.clone(), &mut self.sorted);
            let dg2 = iqr(column.clone().map(|v| v * v), &mut self.sorted);
            let max_abs = column.fold(0.0f64, |m, v| m.max(v.abs()));
            let tiny = 1e-11 * (df + 1.0);
            let omega_new = 0.4 * df / n / (dg + 1e-6 * dg2 + tiny);
            self.gamma[i] = df / (n * dg + tiny);
            let close = sign_average.abs() <= 0.2;
            let decrease = (close || sign_average <= 0.2)
                && (self.omega[i] == 0.0 || self.omega[i] > omega_new);
            if decrease && self.omega[i] > 0.0 {
                self.gamma[i] *= omega_new / self.omega[i];
            }
            let w = omega_new;
            self.omega[i] = (20.0 * w).min(w.max(self.gamma[i] / (1e-22 + max_abs)));
            if self.updates > 2 + self.dim || sign_average.abs() < 0.8 {
                self.initialized[i] = true;
            }
        }
    }

    /// Updates the coefficients from the best offspring, whose objective is `f` and
    /// constraint values are in `self.best` (pycma's `update`).
    fn update(&mut self, f: f64) {
        if !f.is_finite() {
            return;
        }
        let (kc, cap) = (self.kc, self.history_rows_max());
        self.history[self.history_next * kc..(self.history_next + 1) * kc]
            .copy_from_slice(&self.best);
        self.history_next = (self.history_next + 1) % cap;
        self.history_rows = (self.history_rows + 1).min(cap);
        if !self.started {
            return;
        }
        let horizon = 5 + self.dim;
        for i in 0..kc {
            let (c, w) = (self.best[i], self.omega[i]);
            if w == 0.0 {
                continue;
            }
            if !self.counted || self.penalized[i] > 0 || w * c > -self.gamma[i] {
                self.gamma[i] += w * c / D_GAMMA;
            }
            if self.gamma[i] < 0.0 {
                self.gamma[i] = 0.0;
                continue;
            }
            let g = self.gamma[i];
            if w * c < -g {
                continue;
            }
            let p_feasible = self.feasible_share(i, horizon);
            if c > 0.0 || (w * c > -g && p_feasible > 0.95) {
                self.same_changes[i] = self.same_changes[i].max(0) + 1;
                let s = self.shape_exponent(i);
                self.omega[i] *= self.chi.powf(0.25 * (1.0 + s));
            } else if p_feasible < 0.9 && c < 0.0 {
                self.same_changes[i] = self.same_changes[i].min(0) - 1;
                let s = self.shape_exponent(i);
                self.omega[i] *= self.chi.powf(-0.25 * (1.0 - s));
            }
        }
        self.updates += 1;
    }

    /// Ranks by the penalised fitness, then initialises and updates the coefficients.
    fn rank_with(
        &mut self,
        objectives: &[f64],
        violations: &[f64],
        constraints: Option<&ConstraintValues<'_>>,
        permutation: &mut [usize],
    ) -> Result<(), RankingError> {
        check_lengths(objectives, violations, permutation)?;
        let lambda = objectives.len();
        if constraints.is_some_and(|cv| cv.values.ncols() != lambda) {
            return Err(RankingError::LengthMismatch {
                objectives: lambda,
                violations: constraints.map_or(0, |cv| cv.values.ncols()),
                permutation: permutation.len(),
            });
        }
        let kc = self.load(violations, constraints);
        if self.kc != kc {
            self.reset(kc);
        }
        let started = self.started;
        // The penalised fitness with the current coefficients.
        self.fitness.resize(lambda, 0.0);
        for (j, &f) in objectives.iter().enumerate() {
            let mut fit = f;
            if started {
                for i in 0..kc {
                    let c = self.c[j * kc + i];
                    if self.omega[i] * c > -self.gamma[i] {
                        self.penalized[i] += 1;
                    }
                    fit += self.penalty(i, c);
                }
            }
            self.fitness[j] = fit;
        }
        self.counted = started;
        self.order
            .rank(0.0, &self.fitness, violations, permutation)?;
        // The coefficients: initialised from the population, updated from the best.
        let all_initialized = started && self.initialized.iter().all(|&b| b);
        if !all_initialized && objectives.iter().all(|f| f.is_finite()) {
            self.started = true;
            self.set_coefficients(objectives);
        }
        let b = permutation[0];
        self.best.copy_from_slice(&self.c[b * kc..(b + 1) * kc]);
        self.update(objectives[b]);
        self.penalized.iter_mut().for_each(|p| *p = 0);
        Ok(())
    }
}

impl PopulationRanking for AugmentedLagrangianRanking {
    /// Without the individual constraint values, `ν̄` is the one constraint `ν̄ ≤ 0`.
    fn rank(
        &mut self,
        _epsilon: f64,
        objectives: &[f64],
        violations: &[f64],
        permutation: &mut [usize],
    ) -> Result<(), RankingError> {
        self.rank_with(objectives, violations, None, permutation)
    }

    fn rank_constrained(
        &mut self,
        _epsilon: f64,
        objectives: &[f64],
        violations: &[f64],
        constraints: &ConstraintValues<'_>,
        permutation: &mut [usize],
    ) -> Result<(), RankingError> {
        self.rank_with(objectives, violations, Some(constraints), permutation)
    }

    /// The best offspring by the best-so-far rule (lower `ν̄`, then lower `f`): the
    /// first place by the penalised fitness may be infeasible while a feasible
    /// offspring improves on the best-so-far.
    fn best_so_far_candidate(
        &self,
        objectives: &[f64],
        violations: &[f64],
        permutation: &[usize],
    ) -> usize {
        let fitness = |j: usize| Fitness::new(objectives[j], violations[j]);
        permutation.iter().copied().fold(permutation[0], |best, j| {
            if improves_best_so_far(&fitness(j), &fitness(best)) {
                j
            } else {
                best
            }
        })
    }
}

/// The interquartile range (numpy's linear-interpolation percentiles), sorting in
/// `scratch`.
fn iqr(values: impl Iterator<Item = f64>, scratch: &mut Vec<f64>) -> f64 {
    scratch.clear();
    scratch.extend(values);
    scratch.sort_by(f64::total_cmp);
    let percentile = |p: f64| {
        let pos = p * (scratch.len() - 1) as f64;
        let (lo, frac) = (pos.floor() as usize, pos.fract());
        let hi = (lo + 1).min(scratch.len() - 1);
        scratch[lo] + frac * (scratch[hi] - scratch[lo])
    };
    if scratch.is_empty() {
        return 0.0;
    }
    percentile(0.75) - percentile(0.25)
}
