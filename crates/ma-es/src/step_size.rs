//! Step 9 of the strategy (docs/algorithm.md §5): the step-size rule that adapts the mutation
//! strength `σ`, then the σ cap.
//!
//! A [`StepSizeRule`] sees everything a generation knows once its offspring are ranked
//! and the evolution path is updated ([`StepSizeContext`]): the old `σ`, the new `p_σ`
//! and `c_σ` for path-based rules such as [`Csa`] (the reference's), the offspring's
//! `(f, ν̄)`, their ranking and the threshold `ε` the ranking used for success-based
//! rules such as [`MedianSuccessRule`], and the generation counter. The [`SigmaCap`]
//! applies after it (`σ ≤ σ_max` in every preset except nl).
//!
//! | rule | new σ | for |
//! |---|---|---|
//! | [`Csa`] | `σ · exp((c_σ/2)(‖p_σ‖²/N − 1))` | every preset (the reference) |
//! | [`MedianSuccessRule`] | `σ · exp(s/d_σ)`, `s` the smoothed success of this generation against a quantile of the last | non-elitist populations (Ait Elhara, Auger, Hansen 2013) |
//! | [`ConstantSigma`] | `σ` | a baseline: what adaptation of σ contributes |

use constraint_handling::ordering::{CandidateOrder, EpsilonLevel, Fitness};
use ndarray::ArrayView1;

/// What a step-size rule may use, after the offspring of generation `generation` were
/// ranked and `p_σ` updated.
#[derive(Clone, Copy, Debug)]
pub struct StepSizeContext<'a> {
    /// The mutation strength the generation sampled with.
    pub sigma: f64,
    /// The updated evolution path `p_σ` (length `N`).
    pub p_sigma: ArrayView1<'a, f64>,
    /// Its learning rate `c_σ`.
    pub c_sigma: f64,
    /// The generation counter `g` (0 for the first generation after the initial
    /// population).
    pub generation: usize,
    /// The threshold `ε` the offspring were ranked with.
    pub epsilon: f64,
    /// The offspring's objective values `f`, in offspring order (length `λ`).
    pub objectives: &'a [f64],
    /// Their mean violations `ν̄`.
    pub violations: &'a [f64],
    /// The offspring indices from first to last (the ranking of step 4).
    pub ranking: &'a [usize],
}

impl StepSizeContext<'_> {
    /// The search-space dimension `N`.
    #[must_use]
    pub fn dim(&self) -> usize {
        self.p_sigma.len()
    }

    /// The number of offspring `λ`.
    #[must_use]
    pub fn lambda(&self) -> usize {
        self.ranking.len()
    }

    /// The `(f, ν̄)` of the offspring ranked `r`-th (0 = first).
    #[must_use]
    pub fn ranked(&self, r: usize) -> Fitness {
        let k = self.ranking[r];
        Fitness::new(self.objectives[k], self.violations[k])
    }
}

/// The mutation-strength rule of step 9, before the cap: the new `σ`. Called once per
/// generation; must not allocate.
pub trait StepSizeRule: std::any::Any + Send {
    /// The new `σ`.
    fn update(&mut self, ctx: &StepSizeContext<'_>) -> f64;
}

/// Cumulative step-size adaptation as in the reference (docs/algorithm.md §5, step 9):
///
/// ```text
/// σ ← σ · exp((c_σ/2) (‖p_σ‖²/N − 1))
/// ```
///
/// ```
/// use ma_es::step_size::{Csa, StepSizeContext, StepSizeRule};
/// fn csa(p: &[f64], sigma: f64) -> f64 {
///     Csa.update(&StepSizeContext {
///         sigma, p_sigma: ndarray::ArrayView1::from(p), c_sigma: 0.3, generation: 0,
///         epsilon: 0.0, objectives: &[], violations: &[], ranking: &[],
///     })
/// }
/// assert_eq!(csa(&[1.0, 1.0], 0.5), 0.5); // ‖p‖²/N = 1: σ unchanged
/// assert!((csa(&[2.0, 0.0], 1.0) - 0.15f64.exp()).abs() < 1e-15); // ‖p‖²/N = 2: σ·e^{0.15}
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Csa;

impl StepSizeRule for Csa {
    fn update(&mut self, ctx: &StepSizeContext<'_>) -> f64 {
        let norm2: f64 = ctx.p_sigma.iter().map(|x| x * x).sum();
        let n = ctx.p_sigma.len() as f64;
        ctx.sigma * ((ctx.c_sigma / 2.0) * (norm2 / n - 1.0)).exp()
    }
}

/// No adaptation: `σ` stays what it was (`σ₀`, then the cap's value if it ever
/// applied). A baseline for what adapting `σ` contributes.
///
/// ```
/// use ma_es::step_size::{ConstantSigma, StepSizeContext, StepSizeRule};
/// let p = ndarray::array![3.0, 4.0];
/// let ctx = StepSizeContext {
///     sigma: 0.7, p_sigma: p.view(), c_sigma: 0.3, generation: 5, epsilon: 0.0,
///     objectives: &[], violations: &[], ranking: &[],
/// };
/// assert_eq!(ConstantSigma.update(&ctx), 0.7);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ConstantSigma;

impl StepSizeRule for ConstantSigma {
    fn update(&mut self, ctx: &StepSizeContext<'_>) -> f64 {
        ctx.sigma
    }
}

/// The median success rule for non-elitist strategies (Ait Elhara, Auger, Hansen: "A
/// median success rule for non-elitist evolution strategies: study of feasibility",
/// GECCO 2013; the form of pycma's `CMAAdaptSigmaMedianImprovement`).
///
/// A generation is a success when many of its offspring beat a fixed quantile of the
/// previous generation. With `j = q·λ` (here `q = 0.3`), `j₋ = ⌊j⌋`, `j₊ = ⌈j⌉`,
/// `p = j − j₋` and `x^{(g−1)}_{r}` the offspring ranked `r`-th in the previous
/// generation, the success measure of generation `g` is
///
/// ```text
/// z = (2/λ) · ( (1 − p) · #{k : x_k ≺ x^{(g−1)}_{j₋}} + p · #{k : x_k ⪯ x^{(g−1)}_{j₊}} − λ/2 )
/// s ← (1 − c) s + c z,      σ ← σ · exp(s / d_σ)
/// ```
///
/// with `c = 0.3`, `d_σ = 2 − 2/N`, `s = 0` at the start; `z ∈ [−1, 1]`. The first
/// generation only records its quantile. "Beats" is the ε-level order with the
/// threshold this generation was ranked with (`ε = 0`: feasibility first), so the rule
/// judges constrained offspring the way the selection does.
///
/// ```
/// use ma_es::step_size::{MedianSuccessRule, StepSizeContext, StepSizeRule};
/// let p = ndarray::array![0.0, 0.0];
/// let mut rule = MedianSuccessRule::default();
/// let step = |rule: &mut MedianSuccessRule, f: &[f64]| {
///     let ranking: Vec<usize> = (0..f.len()).collect(); // f is sorted already
///     rule.update(&StepSizeContext {
///         sigma: 1.0, p_sigma: p.view(), c_sigma: 0.3, generation: 0, epsilon: 0.0,
///         objectives: f, violations: &[0.0; 10], ranking: &ranking,
///     })
/// };
/// let f: Vec<f64> = (0..10).map(f64::from).collect();
/// assert_eq!(step(&mut rule, &f), 1.0); // the first generation only records
/// let better: Vec<f64> = f.iter().map(|x| x - 5.0).collect();
/// assert!(step(&mut rule, &better) > 1.0); // 8 of 10 beat the last 30 % quantile
/// let worse: Vec<f64> = f.iter().map(|x| x + 5.0).collect();
/// assert!(step(&mut rule, &worse) < 1.0); // none does
/// ```
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MedianSuccessRule {
    /// The quantile `q` of the previous generation to beat.
    pub quantile: f64,
    /// The smoothing rate `c`.
    pub smoothing: f64,
    /// The damping `d_σ`; `None`: `2 − 2/N`.
    pub damping: Option<f64>,
    s: f64,
    previous: Option<(Fitness, Fitness)>,
}

impl Default for MedianSuccessRule {
    /// `q = 0.3`, `c = 0.3`, `d_σ = 2 − 2/N` (pycma's values).
    fn default() -> Self {
        Self {
            quantile: 0.3,
            smoothing: 0.3,
            damping: None,
            s: 0.0,
            previous: None,
        }
    }
}

impl MedianSuccessRule {
    /// The smoothed success `s` (0 at the start; positive when offspring keep beating
    /// the previous generation).
    #[must_use]
    pub fn success(&self) -> f64 {
        self.s
    }
}

impl StepSizeRule for MedianSuccessRule {
    fn update(&mut self, ctx: &StepSizeContext<'_>) -> f64 {
        let lambda = ctx.lambda();
        if lambda == 0 {
            return ctx.sigma;
        }
        let j = (self.quantile * lambda as f64).clamp(0.0, (lambda - 1) as f64);
        let (lo, hi) = (j.floor() as usize, j.ceil() as usize);
        let p = j - lo as f64;
        let mut sigma = ctx.sigma;
        if let Some((at_lo, at_hi)) = self.previous {
            let order = EpsilonLevel::new(ctx.epsilon);
            let (mut below_lo, mut not_above_hi) = (0usize, 0usize);
            for (&f, &v) in ctx.objectives.iter().zip(ctx.violations) {
                let x = Fitness::new(f, v);
                below_lo += usize::from(order.compare(&x, &at_lo).is_lt());
                not_above_hi += usize::from(order.compare(&x, &at_hi).is_le());
            }
            let lambda = lambda as f64;
            let z = (2.0 / lambda)
                * ((1.0 - p) * below_lo as f64 + p * not_above_hi as f64 - lambda / 2.0);
            self.s = (1.0 - self.smoothing) * self.s + self.smoothing * z;
            let n = ctx.dim().max(2) as f64;
            let damping = self.damping.unwrap_or(2.0 - 2.0 / n);
            sigma *= (self.s / damping).exp();
        }
        self.previous = Some((ctx.ranked(lo), ctx.ranked(hi)));
        sigma
    }
}

/// The σ cap of step 9.
pub trait SigmaCap: std::any::Any + Send {
    /// The mutation strength after the cap.
    fn apply(&self, sigma: f64) -> f64;
}

/// `σ ← min(σ, σ_max)`; a NaN `σ` becomes `σ_max` (as MATLAB's `min` ignores NaN).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CappedSigma {
    /// `σ_max`.
    pub sigma_max: f64,
}

impl SigmaCap for CappedSigma {
    fn apply(&self, sigma: f64) -> f64 {
        sigma.min(self.sigma_max)
    }
}

/// No cap (εMAg-ES nl): `σ` may grow to `+∞`.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct UncappedSigma;

impl SigmaCap for UncappedSigma {
    fn apply(&self, sigma: f64) -> f64 {
        sigma
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx<'a>(
        p: &'a ndarray::Array1<f64>,
        objectives: &'a [f64],
        violations: &'a [f64],
        ranking: &'a [usize],
        epsilon: f64,
    ) -> StepSizeContext<'a> {
        StepSizeContext {
            sigma: 1.0,
            p_sigma: p.view(),
            c_sigma: 0.3,
            generation: 1,
            epsilon,
            objectives,
            violations,
            ranking,
        }
    }

    #[test]
    fn caps() {
        assert_eq!(CappedSigma { sigma_max: 100.0 }.apply(f64::INFINITY), 100.0);
        assert_eq!(CappedSigma { sigma_max: 100.0 }.apply(f64::NAN), 100.0);
        assert_eq!(UncappedSigma.apply(f64::INFINITY), f64::INFINITY);
    }

    /// The success measure by hand: λ = 10, q·λ = 3 (no interpolation), the previous
    /// generation's 4th best has f = 3; `k` of the new offspring are below it.
    #[test]
    fn the_median_success_rule_follows_its_formula() {
        let p = ndarray::array![0.0, 0.0, 0.0, 0.0];
        let ranking: Vec<usize> = (0..10).collect();
        let previous: Vec<f64> = (0..10).map(f64::from).collect();
        let v = [0.0; 10];
        for k in 0..=10usize {
            let mut rule = MedianSuccessRule::default();
            rule.update(&ctx(&p, &previous, &v, &ranking, 0.0));
            // k offspring at f = −1 (below 3), the rest at f = 100.
            let now: Vec<f64> = (0..10).map(|i| if i < k { -1.0 } else { 100.0 }).collect();
            let sigma = rule.update(&ctx(&p, &now, &v, &ranking, 0.0));
            let z = (2.0 / 10.0) * (k as f64 - 5.0);
            let s = 0.3 * z;
            assert!((rule.success() - s).abs() < 1e-15, "k = {k}");
            let expected = (s / (2.0 - 2.0 / 4.0)).exp();
            assert!(
                (sigma - expected).abs() < 1e-15,
                "k = {k}: {sigma} vs {expected}"
            );
        }
    }

    /// Infeasible offspring are judged by the ε-level order: with ε = 0 a feasible point
    /// beats any infeasible one whatever its f; with ε above their ν̄ they count as
    /// feasible and f decides.
    #[test]
    fn the_median_success_rule_judges_by_the_epsilon_level_order() {
        let p = ndarray::array![0.0, 0.0];
        let ranking: Vec<usize> = (0..10).collect();
        let f: Vec<f64> = (0..10).map(f64::from).collect();
        let feasible = [0.0; 10];
        let now_f = [-10.0; 10];
        let now_v = [0.5; 10];
        let run = |epsilon| {
            let mut rule = MedianSuccessRule::default();
            rule.update(&ctx(&p, &f, &feasible, &ranking, epsilon));
            rule.update(&ctx(&p, &now_f, &now_v, &ranking, epsilon));
            rule.success()
        };
        assert!(
            run(0.0) < 0.0,
            "infeasible offspring do not beat feasible ones"
        );
        assert!(run(1.0) > 0.0, "within ε they are compared by f");
    }

    #[test]
    fn the_median_success_rule_interpolates_between_ranks() {
        // λ = 5: q·λ = 1.5, between ranks 1 and 2 (f = 1 and 2).
        let p = ndarray::array![0.0, 0.0];
        let ranking: Vec<usize> = (0..5).collect();
        let prev = [0.0, 1.0, 2.0, 3.0, 4.0];
        let now = [1.5, 1.5, 9.0, 9.0, 9.0]; // below 2 but not below 1
        let v = [0.0; 5];
        let mut rule = MedianSuccessRule::default();
        rule.update(&ctx(&p, &prev, &v, &ranking, 0.0));
        rule.update(&ctx(&p, &now, &v, &ranking, 0.0));
        // (1 − 0.5)·0 + 0.5·2 − 2.5 = −1.5, times 2/5.
        let z = (2.0 / 5.0) * (0.5 * 2.0 - 2.5);
        assert!((rule.success() - 0.3 * z).abs() < 1e-15);
    }

    #[test]
    fn a_constant_sigma_stays() {
        let p = ndarray::array![10.0, 10.0];
        let c = ctx(&p, &[], &[], &[], 0.0);
        assert_eq!(ConstantSigma.update(&c), 1.0);
        assert!(Csa.update(&c) > 1.0);
    }
}
