//! The CEC2020 real-world constrained suite ([`cec2020_rw`]) as a [`Suite`]: problems
//! RC01–RC57, each in its own dimension, with the competition's budget by dimension.
//!
//! A study runs in one dimension `N`, so the problems of the suite are studied in groups
//! of equal dimension ([`Cec2020RwSuite::dimensions`],
//! [`Cec2020RwSuite::problems_of_dimension`]); the `cec2020_rw` example runs the whole
//! suite that way and writes the competition's entry files.

use super::{ProblemGroup, SharedProblem, Suite};
use crate::error::StudyError;
use cec2020_rw::{catalog, Cec2020Problem, Class};
use constraint_handling::JacobianSource;
use std::sync::Arc;

/// The name its records carry.
pub const CEC2020_RW: &str = "cec2020-rw";

/// How a study on the suite sets its budget.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Cec2020Budget {
    /// The competition's `MaxFEs` by dimension (10⁵ for D ≤ 10 … 10⁶ for D > 150),
    /// whatever budget per dimension the study names.
    #[default]
    Competition,
    /// The study's `budget_per_dim · D`.
    PerDimension,
}

/// The CEC2020 real-world suite.
///
/// ```
/// use emages_harness::suites::{Cec2020RwSuite, Suite};
/// let suite = Cec2020RwSuite::default();
/// assert_eq!(suite.problems().len(), 57);
/// assert_eq!(suite.label(5), "RC05");
/// assert_eq!(suite.problem(5, 9).unwrap().dim(), 9);
/// assert!(suite.problem(5, 10).is_err()); // RC05 has dimension 9
/// assert_eq!(suite.budget(9, 20_000), 100_000); // the competition's MaxFEs
/// assert_eq!(suite.problems_of_dimension(9), vec![1, 5, 22]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cec2020RwSuite {
    /// The budget rule.
    pub budget: Cec2020Budget,
    /// Whether the problems offer their exact constraint Jacobians (automatic
    /// differentiation, one evaluation each as the competition counts) or are black
    /// boxes (the default: the repairs take forward differences).
    pub jacobian: JacobianSource,
}

impl Cec2020RwSuite {
    /// The distinct dimensions of the suite's problems, ascending.
    #[must_use]
    pub fn dimensions(&self) -> Vec<usize> {
        let mut d: Vec<usize> = catalog::all().iter().map(|p| p.dim).collect();
        d.sort_unstable();
        d.dedup();
        d
    }

    /// The problems of dimension `dim`, ascending.
    #[must_use]
    pub fn problems_of_dimension(&self, dim: usize) -> Vec<usize> {
        catalog::all()
            .iter()
            .filter(|p| p.dim == dim)
            .map(|p| p.id)
            .collect()
    }

    /// The dimension of problem `id`.
    ///
    /// # Errors
    /// An unknown problem.
    pub fn dimension_of(&self, id: usize) -> Result<usize, StudyError> {
        catalog::info(id)
            .map(|p| p.dim)
            .ok_or_else(|| self.unknown(id))
    }
}

impl Suite for Cec2020RwSuite {
    fn name(&self) -> &str {
        CEC2020_RW
    }

    fn problems(&self) -> Vec<usize> {
        (1..=catalog::COUNT).collect()
    }

    fn label(&self, id: usize) -> String {
        format!("RC{id:02}")
    }

    fn groups(&self) -> Vec<ProblemGroup> {
        Class::ALL
            .iter()
            .map(|&c| {
                let problems = catalog::all()
                    .iter()
                    .filter(|p| p.class() == c)
                    .map(|p| p.id)
                    .collect();
                let key = c.name().to_lowercase().replace(' ', "_");
                ProblemGroup::new(key, format!("{} problems", c.name()), problems)
            })
            .collect()
    }

    fn problem(&self, id: usize, dim: usize) -> Result<SharedProblem, StudyError> {
        let p = Cec2020Problem::new(id)
            .map_err(|_| self.unknown(id))?
            .with_jacobian(self.jacobian);
        if p.info().dim != dim {
            return Err(StudyError::Invalid(format!(
                "RC{id:02} has dimension {}, not {dim}: the suite's problems are studied in groups of equal dimension",
                p.info().dim
            )));
        }
        Ok(Arc::new(p))
    }

    fn budget(&self, dim: usize, budget_per_dim: usize) -> usize {
        match self.budget {
            Cec2020Budget::Competition => catalog::max_fes(dim),
            Cec2020Budget::PerDimension => budget_per_dim * dim,
        }
    }
}
