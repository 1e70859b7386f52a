//! COCO's bbob-constrained suite ([`bbob_constrained`]) as a [`Suite`]: one problem per
//! (function, instance) pair, numbered `1000 · function + instance` and labelled
//! `f38i03`, so that a study runs every instance as COCO does (usually with `--runs 1`:
//! in COCO the instances are the repetitions).

use super::{CocoProblem, ProblemGroup, SharedProblem, Suite};
use crate::error::StudyError;
use std::sync::Arc;

/// The name its records carry.
pub const BBOB_CONSTRAINED: &str = "bbob-constrained";

/// The bbob-constrained suite over a choice of functions and instances.
///
/// ```
/// use emages_harness::suites::{BbobConstrainedSuite, Suite};
/// let suite = BbobConstrainedSuite::new((1..=54).collect(), vec![1, 2, 3]).unwrap();
/// assert_eq!(suite.problems().len(), 162);
/// assert_eq!(suite.label(38_003), "f38i03");
/// assert_eq!(suite.problem(38_003, 10).unwrap().dim(), 10);
/// assert!(suite.problem(38_004, 10).is_err()); // instance 4 is not in this suite
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BbobConstrainedSuite {
    functions: Vec<usize>,
    instances: Vec<usize>,
}

impl Default for BbobConstrainedSuite {
    /// All 54 functions, instances 1–15 (COCO's default).
    fn default() -> Self {
        Self {
            functions: (1..=54).collect(),
            instances: (1..=15).collect(),
        }
    }
}

impl BbobConstrainedSuite {
    /// The given functions (1–54) and instances (1–999).
    ///
    /// # Errors
    /// [`StudyError::Invalid`] for an empty choice or a function or instance out of range.
    pub fn new(mut functions: Vec<usize>, mut instances: Vec<usize>) -> Result<Self, StudyError> {
        functions.sort_unstable();
        functions.dedup();
        instances.sort_unstable();
        instances.dedup();
        if functions.is_empty() || instances.is_empty() {
            return Err(StudyError::Invalid(
                "the suite needs functions and instances".into(),
            ));
        }
        if let Some(f) = functions.iter().find(|f| !(1..=54).contains(*f)) {
            return Err(StudyError::Invalid(format!(
                "bbob-constrained has functions 1 to 54, not {f}"
            )));
        }
        if let Some(i) = instances.iter().find(|i| !(1..=999).contains(*i)) {
            return Err(StudyError::Invalid(format!(
                "instances are numbered 1 to 999 here, not {i}"
            )));
        }
        Ok(Self {
            functions,
            instances,
        })
    }

    fn build(&self, id: usize, dim: usize) -> Result<bbob_constrained::BbobProblem, StudyError> {
        let (f, i) = Self::split(id);
        if !self.functions.contains(&f) || !self.instances.contains(&i) {
            return Err(self.unknown(id));
        }
        bbob_constrained::BbobProblem::new(f, dim, i)
            .map_err(|e| StudyError::Invalid(e.to_string()))
    }

    /// The (function, instance) of a problem number.
    #[must_use]
    pub fn split(id: usize) -> (usize, usize) {
        (id / 1000, id % 1000)
    }
}

impl Suite for BbobConstrainedSuite {
    fn name(&self) -> &str {
        BBOB_CONSTRAINED
    }

    fn problems(&self) -> Vec<usize> {
        self.functions
            .iter()
            .flat_map(|&f| self.instances.iter().map(move |&i| 1000 * f + i))
            .collect()
    }

    fn label(&self, id: usize) -> String {
        let (f, i) = Self::split(id);
        format!("f{f:02}i{i:02}")
    }

    /// The nine objective types (six functions each: 1, 2, 6, 6 + n/2, 6 + n, 6 + 3n
    /// active constraints).
    fn groups(&self) -> Vec<ProblemGroup> {
        const NAMES: [&str; 9] = [
            "sphere",
            "separable ellipsoid",
            "linear slope",
            "rotated ellipsoid",
            "discus",
            "bent cigar",
            "different powers",
            "separable Rastrigin",
            "rotated Rastrigin",
        ];
        let problems = self.problems();
        NAMES
            .iter()
            .enumerate()
            .map(|(k, name)| {
                let members: Vec<usize> = problems
                    .iter()
                    .copied()
                    .filter(|&id| bbob_constrained::objective_type(Self::split(id).0) == k + 1)
                    .collect();
                ProblemGroup::new(
                    name.replace(' ', "_"),
                    format!("{name} (f{}–f{})", 6 * k + 1, 6 * k + 6),
                    members,
                )
            })
            .filter(|g| !g.problems.is_empty())
            .collect()
    }

    /// One problem of each objective type, the first instance.
    fn plot_problems(&self) -> Vec<usize> {
        let first = self.instances[0];
        (0..9)
            .map(|k| 1000 * (6 * k + 1) + first)
            .filter(|id| self.functions.contains(&Self::split(*id).0))
            .collect()
    }

    fn instance(&self) -> String {
        "cocoex-2.8.2".into()
    }

    fn problem(&self, id: usize, dim: usize) -> Result<SharedProblem, StudyError> {
        self.build(id, dim).map(|p| Arc::new(p) as SharedProblem)
    }

    fn coco_problem(&self, id: usize, dim: usize) -> Result<Option<CocoProblem>, StudyError> {
        let p = self.build(id, dim)?;
        Ok(Some(CocoProblem {
            function: p.function(),
            instance: p.instance(),
            optimal_value: p.best_value(),
        }))
    }
}
