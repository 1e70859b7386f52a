//! The vocabulary of results: one type for an evaluated point's quality, one for the
//! best-so-far at an evaluation count. The strategy (`ma-es`) returns them, the study
//! harness stores them unchanged, and the statistics (`bench-stats`) consume them.
//!
//! - [`Fitness`] — `(f, ν̄)`, what the orderings compare ([`crate::ordering`]).
//! - [`Snapshot`] — a [`Fitness`] with its CEC counts `c` and, for a best-so-far, the
//!   evaluation count after the iteration that found it (what meanRTgb averages).
//! - [`Checkpoint`] — the best-so-far [`Snapshot`] when `evaluations` were spent.
//!
//! All three serialise with serde; JSON has no NaN or infinity, so `f` and `ν̄` go
//! through [`real`]: NaN as `null`, ±∞ as `"inf"`/`"-inf"` (and `"NaN"`, `"Infinity"`,
//! `"-Infinity"` are read too).

use crate::violation::ConstraintCounts;
use serde::{Deserialize, Serialize};

/// A candidate's objective value and mean violation `ν̄`.
///
/// ```
/// use constraint_handling::Fitness;
/// let f = Fitness::new(2.5, 0.0);
/// assert!(f.is_feasible());
/// assert_eq!(serde_json::to_string(&Fitness::new(f64::NAN, 1.0)).unwrap(),
///            r#"{"objective":null,"violation":1.0}"#);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fitness {
    /// The objective value `f`.
    #[serde(with = "real")]
    pub objective: f64,
    /// The mean constraint violation `ν̄ ≥ 0`.
    #[serde(with = "real")]
    pub violation: f64,
}

impl Fitness {
    /// A new `(f, ν̄)` pair.
    #[must_use]
    pub fn new(objective: f64, violation: f64) -> Self {
        Self {
            objective,
            violation,
        }
    }

    /// Whether `ν̄ = 0`.
    #[must_use]
    pub fn is_feasible(&self) -> bool {
        self.violation == 0.0
    }

    /// Whether `f` or `ν̄` is NaN.
    #[must_use]
    pub fn has_nan(&self) -> bool {
        self.objective.is_nan() || self.violation.is_nan()
    }
}

/// An evaluated point's quality as the CEC statistics need it: `(f, ν̄)`, the counts
/// `c`, and — for a best-so-far — the evaluation count after the iteration that found
/// it.
///
/// ```
/// use constraint_handling::{ConstraintCounts, Fitness, Snapshot};
/// let s = Snapshot::new(1.5, 0.0);
/// assert_eq!((s.fitness, s.counts, s.found_at), (Fitness::new(1.5, 0.0), ConstraintCounts::default(), None));
/// let json = serde_json::to_string(&s.found_at(400)).unwrap();
/// assert_eq!(json, r#"{"objective":1.5,"violation":0.0,"counts":{"c1":0,"c2":0,"c3":0},"found_at":400}"#);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// `f` and `ν̄`.
    #[serde(flatten)]
    pub fitness: Fitness,
    /// The CEC counts `c = (c1, c2, c3)` of its constraints.
    pub counts: ConstraintCounts,
    /// The evaluation count after the iteration that found it, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found_at: Option<usize>,
}

impl Snapshot {
    /// A snapshot of `(f, ν̄)` alone: zero counts, unknown `found_at`.
    #[must_use]
    pub fn new(objective: f64, violation: f64) -> Self {
        Self {
            fitness: Fitness::new(objective, violation),
            counts: ConstraintCounts::default(),
            found_at: None,
        }
    }

    /// The same snapshot with these counts.
    #[must_use]
    pub fn with_counts(self, counts: impl Into<ConstraintCounts>) -> Self {
        Self {
            counts: counts.into(),
            ..self
        }
    }

    /// The same snapshot, found after `evaluations`.
    #[must_use]
    pub fn found_at(self, evaluations: usize) -> Self {
        Self {
            found_at: Some(evaluations),
            ..self
        }
    }

    /// `f`.
    #[must_use]
    pub fn objective(&self) -> f64 {
        self.fitness.objective
    }

    /// `ν̄`.
    #[must_use]
    pub fn violation(&self) -> f64 {
        self.fitness.violation
    }

    /// Whether `ν̄ = 0`.
    #[must_use]
    pub fn is_feasible(&self) -> bool {
        self.fitness.is_feasible()
    }
}

/// The best-so-far when `evaluations` evaluations were spent (a CEC checkpoint).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Evaluations spent when it was taken.
    pub evaluations: usize,
    /// The best-so-far then.
    #[serde(flatten)]
    pub best: Snapshot,
}

/// Serde for reals that may be non-finite (JSON has no NaN): NaN as `null`, ±∞ as
/// `"inf"`/`"-inf"`; reads those and `"NaN"`, `"Infinity"`, `"-Infinity"`. Use with
/// `#[serde(with = "constraint_handling::quality::real")]`.
pub mod real {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    #[serde(untagged)]
    enum Repr {
        Num(f64),
        Text(String),
        Null(()),
    }

    /// Writes `v`.
    ///
    /// # Errors
    /// The serializer's.
    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        if v.is_finite() {
            s.serialize_f64(*v)
        } else if v.is_nan() {
            s.serialize_none()
        } else if *v > 0.0 {
            s.serialize_str("inf")
        } else {
            s.serialize_str("-inf")
        }
    }

    /// Reads a real.
    ///
    /// # Errors
    /// A string that names no number.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        match Option::<Repr>::deserialize(d)? {
            None | Some(Repr::Null(())) => Ok(f64::NAN),
            Some(Repr::Num(v)) => Ok(v),
            Some(Repr::Text(t)) => match t.as_str() {
                "inf" | "Infinity" => Ok(f64::INFINITY),
                "-inf" | "-Infinity" => Ok(f64::NEG_INFINITY),
                "NaN" => Ok(f64::NAN),
                other => Err(serde::de::Error::custom(format!("not a number: {other:?}"))),
            },
        }
    }

    /// The same for sequences of reals.
    pub mod vec {
        use serde::{Deserialize, Deserializer, Serialize, Serializer};

        /// Writes `v`.
        ///
        /// # Errors
        /// The serializer's.
        pub fn serialize<S: Serializer>(v: &[f64], s: S) -> Result<S::Ok, S::Error> {
            #[derive(Serialize)]
            struct W<'a>(#[serde(with = "super")] &'a f64);
            s.collect_seq(v.iter().map(W))
        }

        /// Reads a sequence of reals.
        ///
        /// # Errors
        /// An element that is no number.
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
            #[derive(Deserialize)]
            struct W(#[serde(with = "super")] f64);
            Ok(Vec::<W>::deserialize(d)?.into_iter().map(|w| w.0).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_values_round_trip() {
        for (v, text) in [
            (f64::INFINITY, "\"inf\""),
            (f64::NEG_INFINITY, "\"-inf\""),
            (f64::NAN, "null"),
        ] {
            let c = Checkpoint {
                evaluations: 7,
                best: Snapshot::new(v, 0.5).with_counts([1, 0, 2]).found_at(3),
            };
            let json = serde_json::to_string(&c).unwrap();
            assert!(json.contains(&format!("\"objective\":{text}")), "{json}");
            let back: Checkpoint = serde_json::from_str(&json).unwrap();
            assert_eq!(back.best.objective().to_bits(), v.to_bits());
            assert_eq!((back.evaluations, back.best.counts.c3), (7, 2));
        }
        let f: Fitness =
            serde_json::from_str(r#"{"objective":"NaN","violation":"Infinity"}"#).unwrap();
        assert!(f.objective.is_nan() && f.violation == f64::INFINITY);
        assert!(serde_json::from_str::<Fitness>(r#"{"objective":"x","violation":0}"#).is_err());
    }
}
