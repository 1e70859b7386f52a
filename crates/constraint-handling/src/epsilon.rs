//! The ε-level threshold schedule (docs/algorithm.md §5, initialisation steps 2–3 and
//! generation step 12).
//!
//! ```text
//! ε0 = mean ν̄ of the ⌈θ_t λ⌉ first of the initial population (reference lexicographic order)
//! CP = max(γ_min, (−5 − ln ε0) / ln 0.05)
//! ε(g) = ε0                    for g ≤ 1 (and g + 1 < T)
//!      = ε0 (1 − g/T)^CP       for 1 < g < T
//!      = 0                     from g = T on (and whenever g + 1 ≥ T outside 1 < g < T)
//! ```
//!
//! where `g` counts the generations done. So after the first generation ε is still ε0,
//! at `g = T − 1` it is `ε0 T^(−CP)`, and it is 0 from `g = T` on. If `ε0 = 0`, ε stays 0.
//!
//! **Non-finite ε0.** If the initial mean violation is NaN or `+∞` (a user problem
//! returning such values), the schedule falls back to ε ≡ 0, the lexicographic order,
//! and [`EpsilonSchedule::initial_epsilon`] reports 0.

use crate::ordering::{rank_into, ReferenceLexicographic};
use serde::{Deserialize, Serialize};

/// Errors of an impossible schedule configuration.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ScheduleError {
    /// `θ_t` must lie in `(0, 1]`.
    #[error("theta_t = {0} must lie in (0, 1]")]
    ThetaT(f64),
    /// `γ_min` must be finite and positive.
    #[error("gamma_min = {0} must be finite and positive")]
    GammaMin(f64),
    /// The initial population is empty or its slices differ in length.
    #[error("initial population: {objectives} objectives and {violations} violations (need equal, non-zero lengths)")]
    Population {
        /// Length of the objectives.
        objectives: usize,
        /// Length of the violations.
        violations: usize,
    },
}

/// A threshold schedule for the ε-level order: `ε0` from the initial population, then
/// `ε(g)` after `g` generations.
pub trait EpsilonSchedule: std::any::Any {
    /// Computes and stores `ε0` from the initial population's objectives and mean
    /// violations; returns `ε0`, the threshold of the initial ranking.
    ///
    /// # Errors
    /// [`ScheduleError::Population`] if the slices are empty or of different lengths.
    fn initialize(&mut self, objectives: &[f64], violations: &[f64]) -> Result<f64, ScheduleError>;

    /// The threshold after `generation` generations (0 = the initial ranking).
    fn epsilon(&self, generation: usize) -> f64;

    /// The stored `ε0` (0 before [`EpsilonSchedule::initialize`]).
    fn initial_epsilon(&self) -> f64;
}

/// Parameters of [`EpsilonDecay`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpsilonDecayParams {
    /// Fraction `θ_t` of the initial population whose mean violation is `ε0` (0.9).
    pub theta_t: f64,
    /// Generation `T` from which ε is 0 (1000).
    pub t_max: usize,
    /// Lower bound `γ_min` of the exponent `CP` (3).
    pub gamma_min: f64,
}

impl Default for EpsilonDecayParams {
    fn default() -> Self {
        Self {
            theta_t: 0.9,
            t_max: 1000,
            gamma_min: 3.0,
        }
    }
}

/// The decaying threshold of the εMAg-ES (docs/algorithm.md §5: initialisation and step 12):
/// `ε0` from the initial population, then `ε(g) = ε0 (1 − g/T)^{CP}` until `g = T`, then 0.
/// (The threshold of the ε-level order [`crate::ordering::EpsilonLevel`]; called the
/// "ε-level control" by Takahama & Sakai.)
///
/// ```
/// use constraint_handling::epsilon::{EpsilonDecay, EpsilonDecayParams, EpsilonSchedule};
/// let mut s = EpsilonDecay::new(EpsilonDecayParams { theta_t: 0.5, t_max: 10, gamma_min: 3.0 }).unwrap();
/// // ν̄ sorted: 0, 2, 4, 6 → ε0 = mean of the ⌈0.5·4⌉ = 2 first = 1.
/// let eps0 = s.initialize(&[0.0; 4], &[6.0, 2.0, 0.0, 4.0]).unwrap();
/// assert_eq!(eps0, 1.0);
/// // CP = max(3, (−5 − ln 1)/ln 0.05) = max(3, 1.669…) = 3
/// assert_eq!(s.cp(), 3.0);
/// assert_eq!(s.epsilon(1), 1.0);
/// assert!((s.epsilon(5) - 0.5f64.powi(3)).abs() < 1e-15);
/// assert_eq!(s.epsilon(10), 0.0);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpsilonDecay {
    params: EpsilonDecayParams,
    eps0: f64,
    cp: f64,
}

impl EpsilonDecay {
    /// A schedule with validated parameters.
    ///
    /// # Errors
    /// [`ScheduleError::ThetaT`] or [`ScheduleError::GammaMin`] for impossible values.
    pub fn new(params: EpsilonDecayParams) -> Result<Self, ScheduleError> {
        if !(params.theta_t > 0.0 && params.theta_t <= 1.0) {
            return Err(ScheduleError::ThetaT(params.theta_t));
        }
        if !(params.gamma_min.is_finite() && params.gamma_min > 0.0) {
            return Err(ScheduleError::GammaMin(params.gamma_min));
        }
        Ok(Self {
            params,
            eps0: 0.0,
            cp: params.gamma_min,
        })
    }

    /// A schedule started from a known `ε0` (no initial population needed).
    ///
    /// # Errors
    /// As [`EpsilonDecay::new`].
    pub fn with_initial_epsilon(
        params: EpsilonDecayParams,
        eps0: f64,
    ) -> Result<Self, ScheduleError> {
        let mut s = Self::new(params)?;
        s.set_eps0(eps0);
        Ok(s)
    }

    /// The exponent `CP = max(γ_min, (−5 − ln ε0)/ln 0.05)`.
    #[must_use]
    pub fn cp(&self) -> f64 {
        self.cp
    }

    /// The parameters.
    #[must_use]
    pub fn params(&self) -> &EpsilonDecayParams {
        &self.params
    }

    fn set_eps0(&mut self, eps0: f64) {
        self.eps0 = if eps0.is_finite() && eps0 > 0.0 {
            eps0
        } else {
            0.0
        };
        let ratio = (-5.0 - self.eps0.ln()) / 0.05f64.ln();
        // ε0 = 0 gives ratio = −∞ and CP = γ_min; `max` would also ignore a NaN.
        self.cp = self.params.gamma_min.max(ratio);
    }
}

/// The mean `ν̄` of the `⌈θ_t λ⌉` first candidates in the reference lexicographic order.
///
/// # Errors
/// [`ScheduleError::Population`] if the slices are empty or of different lengths.
pub fn initial_epsilon(
    objectives: &[f64],
    violations: &[f64],
    theta_t: f64,
) -> Result<f64, ScheduleError> {
    let lambda = objectives.len();
    if lambda == 0 || violations.len() != lambda {
        return Err(ScheduleError::Population {
            objectives: lambda,
            violations: violations.len(),
        });
    }
    let mut perm = vec![0; lambda];
    rank_into(&ReferenceLexicographic, objectives, violations, &mut perm).map_err(|_| {
        ScheduleError::Population {
            objectives: lambda,
            violations: violations.len(),
        }
    })?;
    let count = ((theta_t * lambda as f64).ceil() as usize).clamp(1, lambda);
    let mut sum = 0.0;
    for &i in &perm[..count] {
        sum += violations[i];
    }
    Ok(sum / count as f64)
}

impl EpsilonSchedule for EpsilonDecay {
    fn initialize(&mut self, objectives: &[f64], violations: &[f64]) -> Result<f64, ScheduleError> {
        let eps0 = initial_epsilon(objectives, violations, self.params.theta_t)?;
        self.set_eps0(eps0);
        Ok(self.eps0)
    }

    fn epsilon(&self, generation: usize) -> f64 {
        let g = generation;
        let t = self.params.t_max;
        if self.eps0 == 0.0 {
            0.0
        } else if 1 < g && g < t {
            self.eps0 * (1.0 - g as f64 / t as f64).powf(self.cp)
        } else if g + 1 >= t && g > 0 {
            0.0
        } else {
            // g = 0 (the initial ranking) or g = 1 with T > 2: ε is still ε0.
            self.eps0
        }
    }

    fn initial_epsilon(&self) -> f64 {
        self.eps0
    }
}

/// The schedule `ε ≡ 0` (`T = 0`, `ε0 = 0`), under which the ε-level order is the
/// lexicographic one: the lex variants' threshold.
///
/// ```
/// use constraint_handling::epsilon::{EpsilonSchedule, ZeroEpsilon};
/// let mut s = ZeroEpsilon;
/// assert_eq!(s.initialize(&[1.0], &[5.0]).unwrap(), 0.0);
/// assert_eq!(s.epsilon(0), 0.0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZeroEpsilon;

impl EpsilonSchedule for ZeroEpsilon {
    fn initialize(&mut self, objectives: &[f64], violations: &[f64]) -> Result<f64, ScheduleError> {
        if objectives.is_empty() || objectives.len() != violations.len() {
            return Err(ScheduleError::Population {
                objectives: objectives.len(),
                violations: violations.len(),
            });
        }
        Ok(0.0)
    }

    fn epsilon(&self, _generation: usize) -> f64 {
        0.0
    }

    fn initial_epsilon(&self) -> f64 {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schedule(eps0: f64, t_max: usize) -> EpsilonDecay {
        EpsilonDecay::with_initial_epsilon(
            EpsilonDecayParams {
                theta_t: 0.9,
                t_max,
                gamma_min: 3.0,
            },
            eps0,
        )
        .unwrap()
    }

    #[test]
    fn first_generation_keeps_eps0_and_t_minus_one_is_the_last_positive() {
        let s = schedule(10.0, 1000);
        assert_eq!(s.epsilon(0), 10.0);
        assert_eq!(s.epsilon(1), 10.0);
        let cp = s.cp();
        // ε0 T^(−CP) up to the rounding of 1 − (T−1)/T
        let expected = 10.0 * 1000f64.powf(-cp);
        assert!((s.epsilon(999) - expected).abs() <= 1e-12 * expected);
        assert!(s.epsilon(999) > 0.0);
        assert_eq!(s.epsilon(1000), 0.0);
        assert_eq!(s.epsilon(5000), 0.0);
    }

    #[test]
    fn cp_uses_the_log_ratio_when_it_exceeds_gamma_min() {
        // ε0 = 1e-10: (−5 + 23.03)/(−2.996) < 0 → γ_min; ε0 = 1e6: (−5 − 13.8)/(−3.0) ≈ 6.28
        assert_eq!(schedule(1e-10, 1000).cp(), 3.0);
        let cp = schedule(1e6, 1000).cp();
        assert!((cp - (-5.0 - 1e6f64.ln()) / 0.05f64.ln()).abs() < 1e-15);
        assert!(cp > 6.0);
    }

    #[test]
    fn tiny_t_max() {
        // T = 2: at g = 1, g + 1 ≥ T → 0.
        let s = schedule(3.0, 2);
        assert_eq!(s.epsilon(0), 3.0);
        assert_eq!(s.epsilon(1), 0.0);
        // T = 0 or 1: 0 after the initial ranking.
        assert_eq!(schedule(3.0, 0).epsilon(1), 0.0);
        assert_eq!(schedule(3.0, 1).epsilon(0), 3.0);
    }

    #[test]
    fn non_finite_eps0_falls_back_to_lexicographic() {
        let mut s = schedule(0.0, 1000);
        assert_eq!(s.initialize(&[0.0, 0.0], &[f64::NAN, 1.0]).unwrap(), 0.0);
        assert_eq!(s.epsilon(5), 0.0);
        assert_eq!(
            s.initialize(&[0.0, 0.0], &[f64::INFINITY, 1.0]).unwrap(),
            0.0
        );
    }

    #[test]
    fn eps0_uses_the_ceiling_and_the_reference_order() {
        // λ = 10, θ_t = 0.9: ⌈9⌉ = 9 → all but the worst.
        let v: Vec<f64> = (0..10).map(|i| i as f64).collect();
        let f = vec![0.0; 10];
        let e = initial_epsilon(&f, &v, 0.9).unwrap();
        assert_eq!(e, 36.0 / 9.0);
        // θ_t = 0.85 → ⌈8.5⌉ = 9 as well (⌊·⌋ would give 8).
        assert_eq!(initial_epsilon(&f, &v, 0.85).unwrap(), 36.0 / 9.0);
        assert!(initial_epsilon(&[], &[], 0.9).is_err());
    }

    #[test]
    fn invalid_parameters() {
        let p = EpsilonDecayParams::default();
        assert!(EpsilonDecay::new(EpsilonDecayParams { theta_t: 0.0, ..p }).is_err());
        assert!(EpsilonDecay::new(EpsilonDecayParams { theta_t: 1.5, ..p }).is_err());
        assert!(EpsilonDecay::new(EpsilonDecayParams {
            gamma_min: f64::NAN,
            ..p
        })
        .is_err());
    }
}
