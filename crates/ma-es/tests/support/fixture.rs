//! Reading the replay fixtures (`../shared/fixtures/README.md`), shared by the `replay`
//! test and the `replay_check` example (`#[path]`-included by both).
//!
//! Lines are JSON, except that non-finite reals of diverging runs appear as the bare
//! tokens `NaN`, `Infinity` and `-Infinity` (as Python's `json` writes them). They are
//! turned into the strings `"NaN"`, `"Infinity"`, `"-Infinity"` before parsing, and
//! [`reals`] reads them back as floats.
#![allow(dead_code)] // each includer uses a part

use ma_es::control::Limits;
use ma_es::observer::GenerationReport;
use ma_es::{BackCalculationSolver, Config, Variant};
use serde::Deserialize;
use serde_json::Value;

/// The header line of a fixture.
#[derive(Debug, Deserialize)]
pub struct Header {
    pub variant: String,
    pub problem: usize,
    pub dim: usize,
    pub seed: u64,
    pub generations: usize,
    pub lambda: usize,
    pub mu: usize,
    pub sigma0: f64,
    pub budget: usize,
    pub compare_generations: usize,
    pub trace_lines: usize,
    #[serde(default)]
    pub checkpoints_comparable: Option<bool>,
}

impl Header {
    /// The variant named in the header.
    pub fn variant(&self) -> Result<Variant, String> {
        self.variant.parse().map_err(|e| format!("{e}"))
    }

    /// The run's configuration: every default of docs/algorithm.md §5 with the header's λ,
    /// μ and σ0.
    pub fn config(&self, back_calculation: BackCalculationSolver) -> Config {
        Config {
            lambda: Some(self.lambda),
            mu: Some(self.mu),
            sigma0: self.sigma0,
            back_calculation,
            ..Config::default()
        }
    }

    /// The run's limits: the header's budget and generation limit, and the CEC
    /// checkpoints of the reference (docs/algorithm.md §5, step 14): ⌈f · budget⌉ for
    /// f = 10, 50, 100 %.
    pub fn limits(&self) -> Limits {
        Limits {
            budget: Some(self.budget),
            max_generations: Some(self.generations),
            checkpoints: [0.1, 0.5, 1.0]
                .iter()
                .map(|f| (f * self.budget as f64).ceil() as usize)
                .collect(),
            record_dynamics: false,
            max_total_generations: None,
        }
    }
}

/// Quotes the bare non-finite tokens outside strings, so that the line is JSON.
pub fn quote_non_finite(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 16);
    let mut in_string = false;
    let mut escaped = false;
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            rest = &rest[c.len_utf8()..];
            continue;
        }
        if c == '"' {
            in_string = true;
        }
        if let Some(token) = ["-Infinity", "Infinity", "NaN"]
            .into_iter()
            .find(|t| rest.starts_with(t))
        {
            out.push('"');
            out.push_str(token);
            out.push('"');
            rest = &rest[token.len()..];
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// One fixture line as JSON.
pub fn parse_line(line: &str) -> Result<Value, String> {
    serde_json::from_str(&quote_non_finite(line)).map_err(|e| e.to_string())
}

/// A real from a number or one of the non-finite tokens (`null` reads as NaN).
pub fn real(v: &Value) -> f64 {
    match v {
        Value::String(s) => match s.as_str() {
            "Infinity" => f64::INFINITY,
            "-Infinity" => f64::NEG_INFINITY,
            _ => f64::NAN,
        },
        other => other.as_f64().unwrap_or(f64::NAN),
    }
}

/// A real or a vector of reals.
pub fn reals(v: &Value) -> Vec<f64> {
    match v {
        Value::Array(a) => a.iter().map(real).collect(),
        other => vec![real(other)],
    }
}

/// The fixtures' comparison: `|a − b| ≤ 1e-6 · max(|a|, |b|) + 1e-9`; NaN matches NaN,
/// and ±∞ match themselves.
pub fn close(a: f64, b: f64) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    if a == b {
        return true;
    }
    a.is_finite() && b.is_finite() && (a - b).abs() <= 1e-6 * a.abs().max(b.abs()) + 1e-9
}

/// How far `a` and `b` are apart, as a multiple of the tolerance of [`close`] (0 when
/// they match exactly, including NaN = NaN and equal infinities; ∞ when one is NaN).
pub fn deviation(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        return if a.is_nan() && b.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if a == b {
        return 0.0;
    }
    if a.is_infinite() || b.is_infinite() {
        return f64::INFINITY;
    }
    (a - b).abs() / (1e-6 * a.abs().max(b.abs()) + 1e-9)
}

/// The traced real quantities of a report, under the fixtures' field names.
pub fn traced(r: &GenerationReport<'_>) -> Vec<(&'static str, Vec<f64>)> {
    vec![
        ("sigma", vec![r.sigma]),
        ("epsilon", vec![r.epsilon]),
        ("y_parent", r.parent.to_vec()),
        ("p_sigma", r.p_sigma.to_vec()),
        ("best_f", vec![r.best.objective()]),
        ("best_violation", vec![r.best.violation()]),
        ("best_y", r.best.x.clone()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_tokens_parse() {
        let v = parse_line(
            r#"{"g": 3, "sigma": Infinity, "epsilon": -Infinity, "y_parent": [NaN, 1.5, -Infinity], "note": "NaN in a string"}"#,
        )
        .unwrap();
        assert_eq!(real(&v["sigma"]), f64::INFINITY);
        assert_eq!(real(&v["epsilon"]), f64::NEG_INFINITY);
        let y = reals(&v["y_parent"]);
        assert!(y[0].is_nan() && y[1] == 1.5 && y[2] == f64::NEG_INFINITY);
        assert_eq!(v["note"], "NaN in a string");
        assert!(close(f64::NAN, f64::NAN) && !close(f64::NAN, 1.0));
        assert!(close(f64::INFINITY, f64::INFINITY) && !close(f64::INFINITY, f64::NEG_INFINITY));
        assert!(!close(f64::INFINITY, 1e300));
    }
}
