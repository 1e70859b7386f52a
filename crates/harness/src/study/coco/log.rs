//! One run's COCO log, evaluation by evaluation, as the `bbob` observer writes it.

use std::fmt::Write as _;

/// What COCO writes for an evaluation that returned NaN / ±∞.
const NAN_FOR_LOGGING: f64 = 2e21;
const INFINITY_FOR_LOGGING: f64 = 3e21;
/// The observer's defaults.
const NUMBER_OF_TARGETS: usize = 20;
const LOG_PRECISION: f64 = 1e-8;
const LIN_PRECISION: f64 = 1e5;
const NUMBER_OF_EVALUATION_TRIGGERS: usize = 20;
const BASE_EVALUATIONS: [usize; 3] = [1, 2, 5];
/// `x` is written for fewer variables than this.
const X_THRESHOLD: usize = 7;
/// The COCO version whose format this is.
pub const COCO_VERSION: &str = "2.8.2";

/// C's `printf("%.{p}e")`, with `+` for `%+.{p}e`: at least two exponent digits.
pub(super) fn c_exp(v: f64, precision: usize, plus: bool) -> String {
    if !v.is_finite() {
        let s = if v.is_nan() {
            "nan".to_string()
        } else if v > 0.0 {
            "inf".to_string()
        } else {
            "-inf".to_string()
        };
        return if plus && !s.starts_with('-') {
            format!("+{s}")
        } else {
            s
        };
    }
    let s = format!("{v:.precision$e}");
    let (mantissa, exponent) = s.split_once('e').expect("an exponent");
    let e: i32 = exponent.parse().expect("an integer exponent");
    let sign = if plus && !mantissa.starts_with('-') {
        "+"
    } else {
        ""
    };
    format!(
        "{sign}{mantissa}e{}{:02}",
        if e < 0 { '-' } else { '+' },
        e.abs()
    )
}

/// COCO's `coco_double_round_up_with_precision`.
fn round_up_with_precision(number: f64, precision: f64) -> f64 {
    let rounded_up = (number / precision).ceil() * precision;
    let rounded = (number / precision + 0.5).floor() * precision;
    if (rounded - rounded_up).abs() < precision {
        rounded_up
    } else if (number - rounded).abs() < 1e-12 {
        rounded
    } else {
        rounded_up
    }
}

/// COCO's logarithmic and linear target triggers (`coco_observer_targets`).
#[derive(Clone, Debug)]
struct Targets {
    log_exponent: i32,
    lin_value: f64,
}

impl Targets {
    fn new() -> Self {
        Self {
            log_exponent: i32::MAX,
            lin_value: f64::MAX,
        }
    }

    fn trigger(&mut self, value: f64) -> bool {
        let n = NUMBER_OF_TARGETS as f64;
        let mut log = false;
        if value >= 0.0 {
            let verified = if value == 0.0 {
                LOG_PRECISION / 10.0
            } else if value < LOG_PRECISION {
                LOG_PRECISION
            } else {
                value
            };
            let e = (verified.log10() * n).ceil() as i32;
            if e < self.log_exponent {
                self.log_exponent = e;
                log = true;
            }
        } else {
            let verified = if value > -LOG_PRECISION {
                LOG_PRECISION
            } else {
                -value
            };
            let current = (verified.log10() * n).floor() as i32;
            let adjusted = 2 * ((LOG_PRECISION / 10.0).log10() * n).ceil() as i32 - current - 1;
            if adjusted < self.log_exponent {
                self.log_exponent = adjusted;
                log = true;
            }
        }
        let reached = round_up_with_precision(value, LIN_PRECISION);
        let lin = reached < self.lin_value;
        if lin {
            self.lin_value = reached;
        }
        log || lin
    }
}

/// COCO's evaluation-count triggers (`coco_observer_evaluations`).
#[derive(Clone, Debug)]
struct EvaluationTriggers {
    value1: usize,
    exponent1: i32,
    dim: usize,
    base_index: usize,
    value2: usize,
    exponent2: i32,
}

fn to_count(x: f64) -> usize {
    (x + 0.5).floor() as usize
}

impl EvaluationTriggers {
    fn new(dim: usize) -> Self {
        Self {
            value1: 1,
            exponent1: 0,
            dim,
            base_index: 0,
            value2: dim * BASE_EVALUATIONS[0],
            exponent2: 0,
        }
    }

    fn trigger(&mut self, evaluations: usize) -> bool {
        let n = NUMBER_OF_EVALUATION_TRIGGERS as f64;
        let first = if evaluations >= self.value1 {
            let at = |e: i32| to_count(10f64.powf(f64::from(e) / n).floor());
            while at(self.exponent1) <= self.value1 {
                self.exponent1 += 1;
            }
            self.value1 = at(self.exponent1);
            true
        } else {
            false
        };
        let second = if evaluations >= self.value2 {
            if self.base_index < BASE_EVALUATIONS.len() - 1 {
                self.base_index += 1;
            } else {
                self.base_index = 0;
                self.exponent2 += 1;
            }
            self.value2 = to_count(
                10f64.powf(f64::from(self.exponent2))
                    * self.dim as f64
                    * BASE_EVALUATIONS[self.base_index] as f64,
            );
            true
        } else {
            false
        };
        first || second
    }
}

/// COCO's single-digit constraint value: 0 for `g ≤ 0`, then 1 … 8 for `g` up to 10⁻⁷,
/// 10⁻⁶, …, 1, and 9 beyond.
pub(super) fn single_digit(g: f64) -> u8 {
    const LIMITS: [f64; 9] = [0.0, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0];
    LIMITS.iter().position(|&l| g <= l).map_or(9, |i| i as u8)
}

/// The `.dat`/`.tdat` header of a run.
fn header(optimal_value: f64) -> String {
    format!(
        "% f evaluations | g evaluations | best noise-free fitness - Fopt ({}) + sum g_i+ | measured fitness | best measured fitness or single-digit g-values | x1 | x2...\n",
        c_exp(optimal_value, 12, false)
    )
}

/// One problem of a run, as COCO's bbob observer follows it.
#[derive(Clone, Debug)]
pub struct CocoRunLog {
    function: usize,
    instance: usize,
    dim: usize,
    optimal_value: f64,
    f_evaluations: usize,
    g_evaluations: usize,
    best_value: f64,
    best_x: Vec<f64>,
    targets: Targets,
    triggers: EvaluationTriggers,
    dat: String,
    tdat: String,
    last_dat: usize,
    last_tdat: usize,
}

/// A finished run's share of the files ([`super::CocoArchive::append`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CocoRunBlock {
    /// The function number.
    pub function: usize,
    /// The instance.
    pub instance: usize,
    /// The dimension.
    pub dim: usize,
    /// The run's `.dat` block (with its header).
    pub dat: String,
    /// The run's `.tdat` block.
    pub tdat: String,
    /// The `.rdat` and `.mdat` blocks (the header: no restarts, no recommendations).
    pub empty: String,
    /// The `.info` entry, `instance:evaluations|Δf`.
    pub info: String,
}

impl CocoRunLog {
    /// A run on function `function`, instance `instance`, dimension `dim`, whose optimal
    /// value is `optimal_value`.
    #[must_use]
    pub fn new(function: usize, instance: usize, dim: usize, optimal_value: f64) -> Self {
        let h = header(optimal_value);
        Self {
            function,
            instance,
            dim,
            optimal_value,
            f_evaluations: 0,
            g_evaluations: 0,
            best_value: f64::MAX,
            best_x: vec![0.0; dim],
            targets: Targets::new(),
            triggers: EvaluationTriggers::new(dim),
            dat: h.clone(),
            tdat: h,
            last_dat: 0,
            last_tdat: 0,
        }
    }

    /// Counts `n` evaluations of the constraints that are not followed by one of `f`.
    pub fn count_constraint_evaluations(&mut self, n: usize) {
        self.g_evaluations += n;
    }

    fn line(&self, x: &[f64], current: f64, best: f64, g: Option<&[f64]>) -> String {
        let mut s = format!(
            "{} {} {} {} ",
            self.f_evaluations,
            self.g_evaluations,
            c_exp(best - self.optimal_value, 9, true),
            c_exp(current, 9, true)
        );
        match g {
            Some(g) if !g.is_empty() => {
                for &gi in g {
                    let _ = write!(s, "{}", single_digit(gi));
                }
            }
            _ => s.push_str(&c_exp(best, 9, true)),
        }
        if self.dim < X_THRESHOLD {
            for &xi in x {
                let _ = write!(s, " {}", c_exp(xi, 4, true));
            }
        }
        s.push('\n');
        s
    }

    /// One evaluation of the constraints and then of `f` at `x` (as the harness
    /// evaluates: both at once), with the values `f` and `g`.
    pub fn record(&mut self, x: &[f64], f: f64, g: &[f64]) {
        self.g_evaluations += 1;
        self.f_evaluations += 1;
        let y = if f.is_nan() {
            NAN_FOR_LOGGING
        } else if f.is_infinite() {
            INFINITY_FOR_LOGGING
        } else {
            f
        };
        let mut sum = 0.0;
        for &gi in g {
            if gi > 0.0 {
                sum += gi;
            }
        }
        let sum = if sum.is_nan() {
            NAN_FOR_LOGGING
        } else if sum.is_infinite() {
            INFINITY_FOR_LOGGING
        } else {
            sum
        };
        let max_value = if y >= self.optimal_value {
            y
        } else {
            self.optimal_value
        };
        if self.f_evaluations == 1 || max_value + sum < self.best_value {
            self.best_value = max_value + sum;
            self.best_x.copy_from_slice(x);
            if self.f_evaluations == 1 || self.targets.trigger(self.best_value - self.optimal_value)
            {
                let l = self.line(x, y, self.best_value, Some(g));
                self.dat.push_str(&l);
                self.last_dat = self.f_evaluations;
            }
        }
        if self
            .triggers
            .trigger(self.f_evaluations + self.g_evaluations)
        {
            let l = self.line(x, y, self.best_value, Some(g));
            self.tdat.push_str(&l);
            self.last_tdat = self.f_evaluations;
        }
    }

    /// The run's block of the files, with the final lines COCO writes when a problem
    /// is freed.
    #[must_use]
    pub fn finish(mut self) -> CocoRunBlock {
        let best = self.best_value;
        if self.f_evaluations != self.last_dat {
            let l = self.line(&self.best_x, best, best, None);
            self.dat.push_str(&l);
        }
        if self.f_evaluations != self.last_tdat {
            let l = self.line(&self.best_x, best, best, None);
            self.tdat.push_str(&l);
        }
        CocoRunBlock {
            function: self.function,
            instance: self.instance,
            dim: self.dim,
            empty: header(self.optimal_value),
            info: format!(
                "{}:{}|{}",
                self.instance,
                self.f_evaluations,
                c_exp(best - self.optimal_value, 1, false)
            ),
            dat: self.dat,
            tdat: self.tdat,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_evaluation_triggers_are_cocos() {
        let mut t = EvaluationTriggers::new(2);
        let fired: Vec<usize> = (1..=60).filter(|&n| t.trigger(n)).collect();
        // ⌊10^{k/20}⌋ (1, 1, 1, 1, 2, …, 7, 8, 10, 11, 12, 14, …: no 9, no 13) and
        // 2·{1, 2, 5}·10^k (2, 4, 10, 20, 40, 100, …).
        assert_eq!(&fired[..12], &[1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 14]);
        assert!(fired.contains(&20) && fired.contains(&14) && !fired.contains(&13));
    }
}
