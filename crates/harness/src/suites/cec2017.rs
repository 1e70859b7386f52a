//! The CEC2017 constrained suite (Wu, Mallipeddi & Suganthan) as a [`Suite`]: problems
//! C01–C28, the groups of the paper's Tables 4 and 5, the plot problems of its Section 5,
//! and where the instance data comes from ([`InstanceChoice`]: the official files or a
//! synthetic instance, flagged in every table).

use super::{ProblemGroup, SharedProblem, Suite};
use crate::error::StudyError;
use cec2017_constrained::{problem_spec, Fidelity};
use constraint_handling::JacobianSource;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// Where the problems' instance data comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InstanceChoice {
    /// The official data compiled into `cec2017-constrained` (the organisers' MATLAB
    /// files): the default, no folder needed.
    Embedded,
    /// The official data from a folder in the C layout.
    Official(PathBuf),
    /// Synthetic data from a seed; `requested` is false for a fallback the user did not
    /// ask for (the tables then say so).
    Synthetic {
        /// The generator seed.
        seed: u64,
        /// Whether the user asked for it (`--synthetic`).
        requested: bool,
    },
}

/// Where the official data comes from, for hints.
pub const OFFICIAL_DATA_HINT: &str = "the official CEC2017 constrained instance data (Wu, Mallipeddi & Suganthan) is compiled into cec2017-constrained and used by default; --data or CEC2017_DATA_DIR names a folder of the C distribution's files (shift_data_k.txt, M_k_D{N}.txt, …) instead";

impl InstanceChoice {
    /// Resolves the data source: `--synthetic SEED`, else `--data DIR`, else
    /// `$CEC2017_DATA_DIR`, else the official data compiled into the crate.
    ///
    /// # Errors
    /// [`StudyError::Invalid`] if both `--data` and `--synthetic` are given, or an
    /// explicitly named directory does not exist.
    pub fn resolve(data: Option<PathBuf>, synthetic: Option<u64>) -> Result<Self, StudyError> {
        if let Some(seed) = synthetic {
            if data.is_some() {
                return Err(StudyError::Invalid(
                    "--data and --synthetic exclude each other".into(),
                ));
            }
            return Ok(Self::Synthetic {
                seed,
                requested: true,
            });
        }
        let explicit = data.map(|d| (d, "--data")).or_else(|| {
            std::env::var_os("CEC2017_DATA_DIR").map(|d| (PathBuf::from(d), "CEC2017_DATA_DIR"))
        });
        if let Some((dir, origin)) = explicit {
            if !dir.is_dir() {
                return Err(StudyError::Invalid(format!(
                    "data directory {} ({origin}) does not exist; use --synthetic SEED for a synthetic instance, or get {OFFICIAL_DATA_HINT}",
                    dir.display()
                )));
            }
            return Ok(Self::Official(dir));
        }
        Ok(Self::Embedded)
    }

    /// The label stored with every run: `official` or `synthetic:SEED`.
    #[must_use]
    pub fn label(&self) -> String {
        match self {
            Self::Embedded | Self::Official(_) => "official".into(),
            Self::Synthetic { seed, .. } => format!("synthetic:{seed}"),
        }
    }

    /// The suite over this data.
    ///
    /// # Errors
    /// [`StudyError::Cec`] if the directory vanished.
    pub fn suite(&self) -> Result<cec2017_constrained::Suite, StudyError> {
        Ok(match self {
            Self::Embedded => cec2017_constrained::Suite::embedded(),
            Self::Official(dir) => cec2017_constrained::Suite::official(dir)?,
            Self::Synthetic { seed, .. } => cec2017_constrained::Suite::synthetic(*seed),
        })
    }

    /// A warning for synthetic data, `None` for the official instance.
    #[must_use]
    pub fn warning(&self) -> Option<String> {
        synthetic_warning(
            &self.label(),
            matches!(
                self,
                Self::Synthetic {
                    requested: false,
                    ..
                }
            ),
        )
    }
}

/// The warning printed and put in every table for a synthetic instance label.
#[must_use]
pub fn synthetic_warning(label: &str, fallback: bool) -> Option<String> {
    let seed = label.strip_prefix("synthetic:")?;
    let why = if fallback {
        "no official instance data was found, so "
    } else {
        ""
    };
    Some(format!(
        "SYNTHETIC INSTANCE: {why}these results use synthetic CEC2017 instance data (seed {seed}), not the official instance; they are not comparable with the paper. Hint: {OFFICIAL_DATA_HINT}."
    ))
}

/// The problems of Section 5 of the paper, plotted by default.
pub const SECTION5_PROBLEMS: [usize; 6] = [3, 7, 27, 4, 20, 21];

/// The name CEC2017 records carry (and records written before suites were recorded
/// are read as).
pub const CEC2017: &str = "cec2017";

/// The CEC2017 constrained suite: problems `C01`–`C28`, the groups of the paper's Tables
/// 4 (at least one equality constraint) and 5 (rotated, C21–C28), over the instance
/// data of an [`InstanceChoice`], read on first use — or, as the
/// [`catalogue`](Cec2017Suite::catalogue), without data (labels and groups for reports).
///
/// ```
/// use emages_harness::suites::InstanceChoice;
/// use emages_harness::suites::{Cec2017Suite, Suite};
/// let cec = Cec2017Suite::catalogue();
/// assert_eq!(cec.label(7), "C07");
/// let groups = cec.groups();
/// assert_eq!(groups[1].problems, (21..=28).collect::<Vec<_>>());
/// assert!(cec.problem(1, 10).is_err()); // no instance data
/// let synthetic = Cec2017Suite::new(InstanceChoice::Synthetic { seed: 3, requested: true });
/// assert_eq!(synthetic.problem(1, 10).unwrap().dim(), 10);
/// assert!(synthetic.problem(29, 10).is_err());
/// ```
#[derive(Debug, Default)]
pub struct Cec2017Suite {
    choice: Option<InstanceChoice>,
    data: OnceLock<Result<cec2017_constrained::Suite, String>>,
    jacobian: JacobianSource,
}

impl Cec2017Suite {
    /// The suite over the data `choice` names (nothing is read yet).
    #[must_use]
    pub fn new(choice: InstanceChoice) -> Self {
        Self {
            choice: Some(choice),
            data: OnceLock::new(),
            jacobian: JacobianSource::Differences,
        }
    }

    /// The suite whose problems offer their exact constraint Jacobians
    /// ([`JacobianSource::Exact`], automatic differentiation) or are black boxes
    /// ([`JacobianSource::Differences`], the default, as in the paper).
    ///
    /// ```
    /// use constraint_handling::JacobianSource;
    /// use emages_harness::suites::{Cec2017Suite, Suite};
    /// let cec = Cec2017Suite::official().with_jacobian(JacobianSource::Exact);
    /// assert!(cec.problem(3, 10).unwrap().constraint_jacobian().is_some());
    /// assert!(Cec2017Suite::official().problem(3, 10).unwrap().constraint_jacobian().is_none());
    /// ```
    #[must_use]
    pub fn with_jacobian(mut self, source: JacobianSource) -> Self {
        self.jacobian = source;
        self
    }

    /// The official suite, over the instance data compiled into `cec2017-constrained`.
    ///
    /// ```
    /// use emages_harness::suites::{Cec2017Suite, Suite};
    /// let cec = Cec2017Suite::official();
    /// assert_eq!(cec.problem(1, 10).unwrap().dim(), 10);
    /// assert!(cec.warning().is_none()); // not synthetic
    /// ```
    #[must_use]
    pub fn official() -> Self {
        Self::new(InstanceChoice::Embedded)
    }

    /// The suite over a synthetic instance generated from `seed` (flagged as synthetic
    /// in every table; for tests and for machines without the official data).
    #[must_use]
    pub fn synthetic(seed: u64) -> Self {
        Self::new(InstanceChoice::Synthetic {
            seed,
            requested: true,
        })
    }

    /// The suite without instance data: numbers, labels and groups only (what a report
    /// of recorded runs needs); building a problem is an error. Also the `Default`.
    #[must_use]
    pub fn catalogue() -> Self {
        Self::default()
    }

    /// Where its data comes from (`None` for the catalogue).
    #[must_use]
    pub fn choice(&self) -> Option<&InstanceChoice> {
        self.choice.as_ref()
    }

    /// The data suite of `cec2017-constrained` (read on first use).
    ///
    /// # Errors
    /// [`StudyError::Invalid`] for the catalogue or a missing data directory.
    pub fn data(&self) -> Result<&cec2017_constrained::Suite, StudyError> {
        let Some(choice) = &self.choice else {
            return Err(StudyError::Invalid(
                "the CEC2017 catalogue has no instance data; build the suite with Cec2017Suite::new(InstanceChoice::…)".into(),
            ));
        };
        self.data
            .get_or_init(|| choice.suite().map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| StudyError::Invalid(e.clone()))
    }
}

impl Suite for Cec2017Suite {
    fn name(&self) -> &str {
        CEC2017
    }

    fn problems(&self) -> Vec<usize> {
        (1..=28).collect()
    }

    fn label(&self, id: usize) -> String {
        format!("C{id:02}")
    }

    fn groups(&self) -> Vec<ProblemGroup> {
        let equality = self
            .problems()
            .into_iter()
            .filter(|&p| problem_spec(p).is_some_and(|s| s.equalities > 0))
            .collect();
        // The paper's "rotated" problems are C21–C28, the rotated twins of C01–C08
        // (other problems with a transformation, e.g. C05, are not counted).
        let rotated = (21..=28).collect();
        vec![
            ProblemGroup::new(
                "equality",
                "problems with at least one equality constraint",
                equality,
            ),
            ProblemGroup::new("rotated", "rotated problems C21–C28", rotated),
        ]
    }

    /// The problems of the paper's Section 5: C03, C07, C27, C04, C20, C21.
    fn plot_problems(&self) -> Vec<usize> {
        SECTION5_PROBLEMS.to_vec()
    }

    fn instance(&self) -> String {
        self.choice
            .as_ref()
            .map_or_else(|| "none".into(), InstanceChoice::label)
    }

    fn warning(&self) -> Option<String> {
        self.choice.as_ref().and_then(InstanceChoice::warning)
    }

    fn problem(&self, id: usize, dim: usize) -> Result<SharedProblem, StudyError> {
        self.problem_with(id, dim, Fidelity::Exact)
    }

    /// The problem with the fast `sin`/`cos` of [`Fidelity::Fast`].
    fn fast_problem(&self, id: usize, dim: usize) -> Result<SharedProblem, StudyError> {
        self.problem_with(id, dim, Fidelity::Fast)
    }
}

impl Cec2017Suite {
    /// Problem `id` in dimension `dim` evaluating populations with `fidelity`.
    fn problem_with(
        &self,
        id: usize,
        dim: usize,
        fidelity: Fidelity,
    ) -> Result<SharedProblem, StudyError> {
        // Checked here, before any data is read (the catalogue has none).
        if problem_spec(id).is_none() {
            return Err(self.unknown(id));
        }
        Ok(Arc::new(
            self.data()?
                .problem(id, dim)?
                .with_fidelity(fidelity)
                .with_jacobian(self.jacobian),
        ))
    }
}
