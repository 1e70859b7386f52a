//! Configuration: the strategy parameters of docs/algorithm.md §5 with their defaults, and
//! their resolution for a dimension `N`.
//!
//! | parameter | default |
//! |---|---|
//! | `λ` | `4N` |
//! | `μ` | `⌊λ/3⌋` |
//! | `w_i` | `(ln(μ + ½) − ln i) / Σ_j (ln(μ + ½) − ln j)` |
//! | `μ_eff` | `1 / Σ w_i²` |
//! | `c_σ` | `(μ_eff + 2) / (N + μ_eff + 5)` |
//! | `c_1` | `2 / ((N + 1.3)² + μ_eff)` |
//! | `c_μ` | `min(1 − c_1, 2 (μ_eff − 2 + 1/μ_eff) / ((N + 2)² + μ_eff))` |
//! | `σ0`, `σ_max` | 1, 100 |
//! | `T`, `θ_t`, `γ_min` | 1000, 0.9, 3 |
//! | `θ_p`, `θ_r` | 0.2, 3 |
//! | `δ`, `η`, pseudo-inverse cutoff | 1e-4, 1e-4, 1e-12 |
//!
//! The budget, the generation limit and what a run records are run control, the
//! driver's ([`crate::control`]), not the strategy's.

use constraint_handling::epsilon::EpsilonDecayParams;
use constraint_handling::repair::RepairParams;
use serde::{Deserialize, Serialize};

/// How the back-calculation obtains `z = M⁺ d`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "method")]
pub enum BackCalculationSolver {
    /// Always the pseudo-inverse `M⁺` from the SVD (the reference's computation).
    PseudoInverse,
    /// Solve `M z = d` with an LU factorisation when `M` is well conditioned
    /// (estimated reciprocal condition number `≥ min_rcond` and no singular value
    /// near the pseudo-inverse cutoff), else the pseudo-inverse. For such `M`,
    /// `M⁺ = M⁻¹`: the results agree up to rounding.
    Lu {
        /// The smallest reciprocal 1-norm condition number for which LU is used.
        min_rcond: f64,
    },
}

impl Default for BackCalculationSolver {
    fn default() -> Self {
        Self::Lu { min_rcond: 1e-8 }
    }
}

/// The configuration of a run. `None` fields take their dimension-dependent default.
///
/// ```
/// use ma_es::Config;
/// let params = Config::default().resolve(10).unwrap();
/// assert_eq!((params.lambda, params.mu), (40, 13));
/// let json = r#"{ "lambda": 20, "theta_r": 10 }"#;
/// let custom: Config = serde_json::from_str(json).unwrap();
/// assert_eq!(custom.resolve(10).unwrap().mu, 6);
/// assert!(Config { lambda: Some(1), ..Config::default() }.resolve(10).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Offspring population size `λ` (default `4N`).
    pub lambda: Option<usize>,
    /// Parent number `μ` (default `⌊λ/3⌋`).
    pub mu: Option<usize>,
    /// Recombination weights (default: the logarithmic weights; normalised to sum 1).
    pub weights: Option<Vec<f64>>,
    /// Cumulation constant `c_σ` (default from `μ_eff`).
    pub c_sigma: Option<f64>,
    /// Rank-one learning rate `c_1` (default from `μ_eff`).
    pub c1: Option<f64>,
    /// Rank-μ learning rate `c_μ` (default from `μ_eff`).
    pub c_mu: Option<f64>,
    /// Initial mutation strength `σ0`.
    pub sigma0: f64,
    /// Upper bound `σ_max` of the mutation strength (variants with a σ cap).
    pub sigma_max: f64,
    /// Generation `T` from which ε is 0.
    pub t_max: usize,
    /// Fraction `θ_t` of the initial population that defines `ε0`.
    pub theta_t: f64,
    /// Lower bound `γ_min` of the ε exponent.
    pub gamma_min: f64,
    /// Repair probability `θ_p` per offspring (in generations `g mod N = 0`).
    pub theta_p: f64,
    /// Maximal number `θ_r` of consecutive repair steps.
    pub theta_r: usize,
    /// Forward-difference step `η` of the repair's Jacobian.
    pub eta: f64,
    /// Absolute singular-value cutoff of the pseudo-inverses.
    pub pinv_tolerance: f64,
    /// How `M⁺ d` is computed.
    pub back_calculation: BackCalculationSolver,
    /// Where the initial population comes from: `None` (the reference, docs/algorithm.md §5
    /// step 1) draws it uniformly in the box; `Some(x0)` draws it around `x0` instead,
    /// `y = x0 + σ0 z` (`z` standard normal, reflected into the box) — a departure for
    /// users who know where to start, or whose box is unbounded (docs/deviations.md).
    #[serde(default)]
    pub initial_mean: Option<Vec<f64>>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            lambda: None,
            mu: None,
            weights: None,
            c_sigma: None,
            c1: None,
            c_mu: None,
            sigma0: 1.0,
            sigma_max: 100.0,
            t_max: 1000,
            theta_t: 0.9,
            gamma_min: 3.0,
            theta_p: 0.2,
            theta_r: 3,
            eta: 1e-4,
            pinv_tolerance: 1e-12,
            back_calculation: BackCalculationSolver::default(),
            initial_mean: None,
        }
    }
}

/// An impossible configuration.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ConfigError {
    /// A parameter is out of its range.
    #[error("invalid parameter {name} = {value}: {expected}")]
    Invalid {
        /// The parameter.
        name: &'static str,
        /// Its value, printed.
        value: String,
        /// The admissible range.
        expected: &'static str,
    },
}

fn invalid(
    name: &'static str,
    value: impl std::fmt::Display,
    expected: &'static str,
) -> ConfigError {
    ConfigError::Invalid {
        name,
        value: value.to_string(),
        expected,
    }
}

/// The resolved parameters of a run in dimension `N`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Parameters {
    /// The dimension `N`.
    pub dim: usize,
    /// `λ`.
    pub lambda: usize,
    /// `μ`.
    pub mu: usize,
    /// `w_1..w_μ` (sum 1).
    pub weights: Vec<f64>,
    /// `μ_eff = 1 / Σ w_i²`.
    pub mu_eff: f64,
    /// `c_σ`.
    pub c_sigma: f64,
    /// `c_1`.
    pub c1: f64,
    /// `c_μ`.
    pub c_mu: f64,
    /// `σ0`.
    pub sigma0: f64,
    /// `σ_max`.
    pub sigma_max: f64,
    /// The ε schedule's `θ_t`, `T`, `γ_min`.
    pub epsilon: EpsilonDecayParams,
    /// `θ_p`.
    pub theta_p: f64,
    /// `θ_r`.
    pub theta_r: usize,
    /// `η` and the pseudo-inverse cutoff.
    pub repair: RepairParams,
    /// The back-calculation solver.
    pub back_calculation: BackCalculationSolver,
    /// The centre of the initial population (`None`: uniform in the box).
    #[serde(default)]
    pub initial_mean: Option<Vec<f64>>,
}

fn finite_positive(name: &'static str, v: f64) -> Result<f64, ConfigError> {
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(invalid(name, v, "must be finite and positive"))
    }
}

impl Config {
    /// `λ` in dimension `dim`: the configured one, or the default `4N`.
    #[must_use]
    pub fn lambda_for(&self, dim: usize) -> usize {
        self.lambda.unwrap_or(4 * dim)
    }

    /// Resolves the defaults for dimension `dim` and validates every value.
    ///
    /// # Errors
    /// [`ConfigError::Invalid`] naming the first impossible value: `N = 0`, `λ < 2`,
    /// `μ = 0` or `μ > λ`, non-positive or non-finite `σ0`/`σ_max`/`η`, `θ_p ∉ [0, 1]`,
    /// `θ_t ∉ (0, 1]`, negative `δ`, weights of the
    /// wrong length or sign, learning rates outside `(0, 1]`.
    pub fn resolve(&self, dim: usize) -> Result<Parameters, ConfigError> {
        if dim == 0 {
            return Err(invalid("dimension", dim, "must be at least 1"));
        }
        let n = dim as f64;
        let lambda = self.lambda_for(dim);
        if lambda < 2 {
            return Err(invalid("lambda", lambda, "must be at least 2"));
        }
        let mu = self.mu.unwrap_or(lambda / 3);
        if mu == 0 {
            return Err(invalid(
                "mu",
                mu,
                "must be at least 1 (the default ⌊λ/3⌋ is 0 for λ < 3; set mu)",
            ));
        }
        if mu > lambda {
            return Err(invalid(
                "mu",
                format!("{mu} (λ = {lambda})"),
                "must not exceed lambda",
            ));
        }
        let weights = match &self.weights {
            Some(w) => {
                if w.len() != mu {
                    return Err(invalid(
                        "weights",
                        format!("{} values", w.len()),
                        "must have mu entries",
                    ));
                }
                if w.iter().any(|x| !(x.is_finite() && *x >= 0.0)) || w.iter().sum::<f64>() <= 0.0 {
                    return Err(invalid(
                        "weights",
                        format!("{w:?}"),
                        "must be finite, non-negative, with a positive sum",
                    ));
                }
                let s: f64 = w.iter().sum();
                w.iter().map(|x| x / s).collect()
            }
            None => log_weights(mu),
        };
        let mu_eff = 1.0 / weights.iter().map(|w| w * w).sum::<f64>();
        let c_sigma = self.c_sigma.unwrap_or((mu_eff + 2.0) / (n + mu_eff + 5.0));
        let c1 = self.c1.unwrap_or(2.0 / ((n + 1.3).powi(2) + mu_eff));
        let c_mu = self.c_mu.unwrap_or_else(|| {
            (1.0 - c1).min(2.0 * (mu_eff - 2.0 + 1.0 / mu_eff) / ((n + 2.0).powi(2) + mu_eff))
        });
        for (name, v) in [("c_sigma", c_sigma), ("c1", c1)] {
            if !(v.is_finite() && v > 0.0 && v <= 1.0) {
                return Err(invalid(name, v, "must lie in (0, 1]"));
            }
        }
        if !(c_mu.is_finite() && (0.0..=1.0).contains(&c_mu)) {
            return Err(invalid("c_mu", c_mu, "must lie in [0, 1]"));
        }
        let sigma0 = finite_positive("sigma0", self.sigma0)?;
        if self.sigma_max.is_nan() || self.sigma_max <= 0.0 {
            return Err(invalid("sigma_max", self.sigma_max, "must be positive"));
        }
        if !(self.theta_t > 0.0 && self.theta_t <= 1.0) {
            return Err(invalid("theta_t", self.theta_t, "must lie in (0, 1]"));
        }
        finite_positive("gamma_min", self.gamma_min)?;
        if !(0.0..=1.0).contains(&self.theta_p) {
            return Err(invalid("theta_p", self.theta_p, "must lie in [0, 1]"));
        }
        finite_positive("eta", self.eta)?;
        if !(self.pinv_tolerance.is_finite() && self.pinv_tolerance >= 0.0) {
            return Err(invalid(
                "pinv_tolerance",
                self.pinv_tolerance,
                "must be finite and non-negative",
            ));
        }
        if let BackCalculationSolver::Lu { min_rcond } = self.back_calculation {
            if !(min_rcond.is_finite() && min_rcond > 0.0 && min_rcond <= 1.0) {
                return Err(invalid(
                    "back_calculation.min_rcond",
                    min_rcond,
                    "must lie in (0, 1]",
                ));
            }
        }
        if let Some(x0) = &self.initial_mean {
            if x0.len() != dim {
                return Err(invalid(
                    "initial_mean",
                    format!("{} components", x0.len()),
                    "must have one component per dimension",
                ));
            }
            if x0.iter().any(|v| !v.is_finite()) {
                return Err(invalid("initial_mean", format!("{x0:?}"), "must be finite"));
            }
        }
        Ok(Parameters {
            dim,
            lambda,
            mu,
            weights,
            mu_eff,
            c_sigma,
            c1,
            c_mu,
            sigma0,
            sigma_max: self.sigma_max,
            epsilon: EpsilonDecayParams {
                theta_t: self.theta_t,
                t_max: self.t_max,
                gamma_min: self.gamma_min,
            },
            theta_p: self.theta_p,
            theta_r: self.theta_r,
            repair: RepairParams {
                eta: self.eta,
                pinv_tolerance: self.pinv_tolerance,
            },
            back_calculation: self.back_calculation,
            initial_mean: self.initial_mean.clone(),
        })
    }
}

/// The logarithmic recombination weights `w_i = (ln(μ + ½) − ln i) / Σ_j (ln(μ + ½) − ln j)`.
///
/// ```
/// let w = ma_es::log_weights(3);
/// assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-15);
/// assert!(w[0] > w[1] && w[1] > w[2]);
/// ```
#[must_use]
pub fn log_weights(mu: usize) -> Vec<f64> {
    let raw: Vec<f64> = (1..=mu)
        .map(|i| (mu as f64 + 0.5).ln() - (i as f64).ln())
        .collect();
    let sum: f64 = raw.iter().sum();
    raw.iter().map(|w| w / sum).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_for_n10() {
        let p = Config::default().resolve(10).unwrap();
        assert_eq!((p.lambda, p.mu), (40, 13));
        let l = crate::control::Limits::default().resolve(10).unwrap();
        assert_eq!((l.budget, l.max_generations), (200_000, 20_000));
        let w = log_weights(13);
        let mu_eff = 1.0 / w.iter().map(|x| x * x).sum::<f64>();
        assert_eq!(p.mu_eff, mu_eff);
        assert_eq!(p.c_sigma, (mu_eff + 2.0) / (10.0 + mu_eff + 5.0));
        assert_eq!(p.c1, 2.0 / (11.3f64.powi(2) + mu_eff));
    }

    #[test]
    fn impossible_values_are_errors() {
        let d = Config::default();
        let cases = [
            Config {
                lambda: Some(1),
                ..d.clone()
            },
            Config {
                lambda: Some(2),
                ..d.clone()
            },
            Config {
                mu: Some(0),
                ..d.clone()
            },
            Config {
                mu: Some(41),
                ..d.clone()
            },
            Config {
                sigma0: 0.0,
                ..d.clone()
            },
            Config {
                sigma0: f64::NAN,
                ..d.clone()
            },
            Config {
                sigma0: f64::INFINITY,
                ..d.clone()
            },
            Config {
                theta_p: 1.5,
                ..d.clone()
            },
            Config {
                theta_t: 0.0,
                ..d.clone()
            },
            Config {
                eta: 0.0,
                ..d.clone()
            },
            Config {
                weights: Some(vec![1.0; 3]),
                ..d.clone()
            },
            Config {
                c1: Some(2.0),
                ..d.clone()
            },
        ];
        for c in cases {
            assert!(c.resolve(10).is_err(), "{c:?}");
        }
        assert!(d.resolve(0).is_err());
    }

    #[test]
    fn serde_round_trip_and_unknown_fields() {
        let c = Config {
            lambda: Some(12),
            back_calculation: BackCalculationSolver::PseudoInverse,
            ..Config::default()
        };
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(serde_json::from_str::<Config>(&json).unwrap(), c);
        assert!(serde_json::from_str::<Config>(r#"{"lamda": 3}"#).is_err());
    }
}
