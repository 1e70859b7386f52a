//! The seam between the harness and a benchmark: a [`Suite`] names its problems, gives
//! their labels and groups, says which instance data it uses, and builds a problem in
//! a dimension. The study runner, the records, the report and the status take a suite;
//! CEC2017 ([`Cec2017Suite`]) and COCO's bbob-constrained ([`BbobConstrainedSuite`])
//! are two.
//!
//! A suite of one's own:
//!
//! ```
//! use std::sync::Arc;
//! use constraint_handling::{ConstrainedProblem, FnProblem};
//! use emages_harness::suites::{ProblemGroup, SharedProblem, Suite};
//! use emages_harness::StudyError;
//!
//! #[derive(Debug)]
//! struct Toy;
//!
//! impl Suite for Toy {
//!     fn name(&self) -> &str { "toy" }
//!     fn problems(&self) -> Vec<usize> { vec![1, 2] }
//!     fn groups(&self) -> Vec<ProblemGroup> {
//!         vec![ProblemGroup::new("shifted", "shifted problems", vec![2])]
//!     }
//!     fn problem(&self, id: usize, dim: usize) -> Result<SharedProblem, StudyError> {
//!         // min Σ (x − s)² s.t. 1 − x₁ ≤ 0 in [−5, 5]^N, s = 0 or 2
//!         let shift = match id { 1 => 0.0, 2 => 2.0, _ => return Err(self.unknown(id)) };
//!         let p = FnProblem::new(vec![-5.0; dim], vec![5.0; dim], 1, 0, move |x, c| {
//!             c[0] = 1.0 - x[0];
//!             Ok(x.iter().map(|v| (v - shift).powi(2)).sum())
//!         })?;
//!         Ok(Arc::new(p))
//!     }
//! }
//!
//! let toy = Toy;
//! assert_eq!(toy.label(2), "P2");
//! assert_eq!(toy.problem(2, 3).unwrap().dim(), 3);
//! assert!(toy.problem(3, 3).is_err());
//! ```

mod bbob_constrained;
mod cec2017;
mod cec2020_rw;

pub use bbob_constrained::{BbobConstrainedSuite, BBOB_CONSTRAINED};
pub use cec2020_rw::{Cec2020Budget, Cec2020RwSuite, CEC2020_RW};

pub use cec2017::{
    synthetic_warning, Cec2017Suite, InstanceChoice, CEC2017, OFFICIAL_DATA_HINT, SECTION5_PROBLEMS,
};

use crate::error::StudyError;
use constraint_handling::ConstrainedProblem;
use std::fmt::Debug;
use std::sync::Arc;

/// A problem the harness can hand to any optimizer, on any thread.
pub type SharedProblem = Arc<dyn ConstrainedProblem + Send + Sync>;

/// A named set of a suite's problems, summarised in a table of its own (for CEC2017:
/// the problems with an equality constraint, and the rotated ones — the paper's Tables
/// 4 and 5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProblemGroup {
    /// A short key, used in file names (`table4_equality`).
    pub key: String,
    /// What the group is, for table titles.
    pub title: String,
    /// Its problems.
    pub problems: Vec<usize>,
}

impl ProblemGroup {
    /// A group of `problems` called `key` (files) and `title` (tables).
    #[must_use]
    pub fn new(key: impl Into<String>, title: impl Into<String>, problems: Vec<usize>) -> Self {
        Self {
            key: key.into(),
            title: title.into(),
            problems,
        }
    }
}

/// What COCO's observer needs to know of a problem ([`Suite::coco_problem`]): its
/// function and instance numbers and its optimal value `f_opt`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CocoProblem {
    /// COCO's function number.
    pub function: usize,
    /// COCO's instance number.
    pub instance: usize,
    /// The optimal value `f_opt` (the `.dat` files log `best − f_opt`).
    pub optimal_value: f64,
}

/// A benchmark suite: problems identified by number, built per dimension.
///
/// Only [`Suite::name`], [`Suite::problems`] and [`Suite::problem`] are required; the
/// labels, groups, instance and warning have defaults. The report needs only the
/// labels and groups, which must not depend on instance data.
pub trait Suite: Debug + Send + Sync {
    /// The suite's name, recorded in every run record (`cec2017`).
    fn name(&self) -> &str;

    /// All problem numbers, ascending.
    fn problems(&self) -> Vec<usize>;

    /// The label of problem `id` in tables, plots and messages (default `P{id}`).
    fn label(&self, id: usize) -> String {
        format!("P{id}")
    }

    /// The groups summarised in tables of their own (default: none).
    fn groups(&self) -> Vec<ProblemGroup> {
        Vec::new()
    }

    /// The problems whose dynamics a report plots by default (default: the first six).
    fn plot_problems(&self) -> Vec<usize> {
        self.problems().into_iter().take(6).collect()
    }

    /// Which instance data the problems use, recorded in every run record; runs of
    /// different instances never mix (default `default`).
    fn instance(&self) -> String {
        "default".into()
    }

    /// A warning to print and put under every table (e.g. "not the official data").
    fn warning(&self) -> Option<String> {
        None
    }

    /// Problem `id` in dimension `dim`.
    ///
    /// # Errors
    /// An unknown problem ([`Suite::unknown`]), a dimension it does not support, missing
    /// or bad instance data.
    fn problem(&self, id: usize, dim: usize) -> Result<SharedProblem, StudyError>;

    /// Problem `id` for the fast path (`StudySpec::fast`, `--fast`): an evaluation
    /// that may round differently from [`Suite::problem`]'s for speed. The default is
    /// [`Suite::problem`] itself (a suite without a faster evaluation).
    ///
    /// # Errors
    /// As [`Suite::problem`].
    fn fast_problem(&self, id: usize, dim: usize) -> Result<SharedProblem, StudyError> {
        self.problem(id, dim)
    }

    /// The evaluation budget of a run in dimension `dim` when the study asks for
    /// `budget_per_dim` evaluations per dimension. The default is `budget_per_dim · dim`
    /// (CEC2017's `20 000 · N`); a suite whose competition sets its own budgets says so
    /// here (the CEC2020 real-world suite: `MaxFEs` by dimension).
    fn budget(&self, dim: usize, budget_per_dim: usize) -> usize {
        budget_per_dim * dim
    }

    /// For a suite of COCO's (or one laid out like one): problem `id` in dimension `dim`
    /// as COCO's observer names it, so that a study can write COCO's data files
    /// ([`crate::study::StudySpec::coco`]). The default is `None`: not a COCO suite.
    ///
    /// # Errors
    /// As [`Suite::problem`].
    fn coco_problem(&self, id: usize, dim: usize) -> Result<Option<CocoProblem>, StudyError> {
        let _ = (id, dim);
        Ok(None)
    }

    /// The error for a problem number this suite does not have.
    fn unknown(&self, id: usize) -> StudyError {
        StudyError::Invalid(format!(
            "problem {id} is not in the {} suite (it has {})",
            self.name(),
            ranges(&self.problems())
        ))
    }
}

impl<S: Suite + ?Sized> Suite for Arc<S> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn problems(&self) -> Vec<usize> {
        (**self).problems()
    }
    fn label(&self, id: usize) -> String {
        (**self).label(id)
    }
    fn groups(&self) -> Vec<ProblemGroup> {
        (**self).groups()
    }
    fn instance(&self) -> String {
        (**self).instance()
    }
    fn warning(&self) -> Option<String> {
        (**self).warning()
    }
    fn plot_problems(&self) -> Vec<usize> {
        (**self).plot_problems()
    }
    fn problem(&self, id: usize, dim: usize) -> Result<SharedProblem, StudyError> {
        (**self).problem(id, dim)
    }
    fn fast_problem(&self, id: usize, dim: usize) -> Result<SharedProblem, StudyError> {
        (**self).fast_problem(id, dim)
    }
    fn coco_problem(&self, id: usize, dim: usize) -> Result<Option<CocoProblem>, StudyError> {
        (**self).coco_problem(id, dim)
    }
    fn budget(&self, dim: usize, budget_per_dim: usize) -> usize {
        (**self).budget(dim, budget_per_dim)
    }
}

/// The suite a results file names, as far as this crate knows it: all three suites by
/// their names — `bbob-constrained` ([`BbobConstrainedSuite::default`]), `cec2020-rw`
/// ([`Cec2020RwSuite::default`]) and `cec2017` ([`Cec2017Suite::catalogue`]: labels and
/// groups, no instance data) — else a [`RecordedSuite`] that knows only the name. A
/// report on another suite's results attaches the suite itself
/// ([`crate::study::Dataset::with_suite`]).
#[must_use]
pub fn by_name(name: &str) -> Arc<dyn Suite> {
    if name == BBOB_CONSTRAINED {
        Arc::new(BbobConstrainedSuite::default())
    } else if name == CEC2020_RW {
        Arc::new(Cec2020RwSuite::default())
    } else if name == CEC2017 {
        Arc::new(Cec2017Suite::catalogue())
    } else {
        Arc::new(RecordedSuite {
            name: name.to_string(),
        })
    }
}

/// A suite known only by the name in the records: default labels (`P{id}`), no groups,
/// no problems to build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedSuite {
    /// The name in the records.
    pub name: String,
}

impl Suite for RecordedSuite {
    fn name(&self) -> &str {
        &self.name
    }

    fn problems(&self) -> Vec<usize> {
        Vec::new()
    }

    fn problem(&self, id: usize, _dim: usize) -> Result<SharedProblem, StudyError> {
        Err(StudyError::Invalid(format!(
            "problem {id}: the {} suite is known here only by name; build its problems with the suite itself",
            self.name
        )))
    }
}

/// `1–28` or `1–3, 7` for a sorted list of numbers.
fn ranges(ids: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let mut j = i;
        while j + 1 < ids.len() && ids[j + 1] == ids[j] + 1 {
            j += 1;
        }
        parts.push(if j > i {
            format!("{}–{}", ids[i], ids[j])
        } else {
            ids[i].to_string()
        });
        i = j + 1;
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cec_groups_and_unknown_problems() {
        let cec = Cec2017Suite::new(InstanceChoice::Synthetic {
            seed: 1,
            requested: true,
        });
        let g = cec.groups();
        assert_eq!(g[0].key, "equality");
        assert!(g[0].problems.contains(&11) && !g[0].problems.contains(&1));
        let Err(err) = cec.problem(29, 10) else {
            panic!("C29 built")
        };
        let err = err.to_string();
        assert!(
            err.contains("problem 29 is not in the cec2017 suite (it has 1–28)"),
            "{err}"
        );
        assert!(cec.problem(8, 7).is_err(), "C08 needs an even N");
        assert_eq!(ranges(&[1, 2, 3, 7, 9, 10]), "1–3, 7, 9–10");
        assert!(cec.fast_problem(29, 10).is_err());
    }

    /// The fast path's CEC2017 problems evaluate with the fast `sin`/`cos`: other bits
    /// for some points, the same values to 1e-12.
    #[test]
    fn cec_fast_problems_use_the_fast_sin_cos() {
        use ndarray::{Array1, Array2, ShapeBuilder};
        let cec = Cec2017Suite::new(InstanceChoice::Synthetic {
            seed: 1,
            requested: true,
        });
        let (exact, fast) = (
            cec.problem(1, 10).unwrap(),
            cec.fast_problem(1, 10).unwrap(),
        );
        let x = Array2::from_shape_fn((10, 64).f(), |(i, j)| ((i * 64 + j) as f64).sin() * 90.0);
        let eval = |p: &SharedProblem| {
            let (mut f, mut c) = (Array1::zeros(64), Array2::zeros((1, 64).f()));
            p.evaluate_batch(x.view(), f.view_mut(), c.view_mut())
                .unwrap();
            c
        };
        let (a, b) = (eval(&exact), eval(&fast));
        assert!(a.iter().zip(&b).any(|(u, v)| u != v), "no bit differs");
        for (u, v) in a.iter().zip(&b) {
            assert!((u - v).abs() <= 1e-12 * u.abs().max(1.0), "{u} vs {v}");
        }
    }
}
