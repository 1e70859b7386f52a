//! The suite: builds problems from one instance source and caches their data.

use crate::catalog::problem_spec;
use crate::error::CecError;
use crate::instance::{InstanceData, InstanceSource};
use crate::problem::Cec2017Problem;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The 28 problems over one instance source; data is read once per
/// `(problem, dimension)` and shared by every problem built from it.
///
/// ```
/// use cec2017_constrained::Suite;
/// use constraint_handling::ConstrainedProblem;
///
/// let suite = Suite::synthetic(42);
/// let p = suite.problem(21, 10).unwrap();
/// let q = suite.problem(21, 10).unwrap(); // cached
/// assert_eq!(p.shift(), q.shift());
/// assert!(suite.problem(29, 10).is_err());
/// assert!(suite.problem(8, 7).is_err()); // C08 needs an even N
/// ```
#[derive(Debug)]
pub struct Suite {
    source: InstanceSource,
    cache: Mutex<HashMap<(usize, usize), Arc<InstanceData>>>,
}

impl Suite {
    /// A suite over `source`.
    #[must_use]
    pub fn new(source: InstanceSource) -> Self {
        Self {
            source,
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// The official data in the C layout from `dir`.
    ///
    /// # Errors
    /// [`CecError::MissingDirectory`] if `dir` is not a directory.
    pub fn official(dir: impl Into<std::path::PathBuf>) -> Result<Self, CecError> {
        Ok(Self::new(InstanceSource::text(dir)?))
    }

    /// The official instance data compiled into the crate ([`InstanceSource::Embedded`]).
    #[cfg(feature = "embedded")]
    #[must_use]
    pub fn embedded() -> Self {
        Self::new(InstanceSource::Embedded)
    }

    /// Synthetic data from `seed`.
    #[must_use]
    pub fn synthetic(seed: u64) -> Self {
        Self::new(InstanceSource::synthetic(seed))
    }

    /// The instance source.
    #[must_use]
    pub fn source(&self) -> &InstanceSource {
        &self.source
    }

    /// Problem `id` in dimension `dim`.
    ///
    /// # Errors
    /// As [`Cec2017Problem::new`].
    pub fn problem(&self, id: usize, dim: usize) -> Result<Cec2017Problem, CecError> {
        let spec = problem_spec(id).ok_or(CecError::UnknownProblem(id))?;
        let cached = self
            .cache
            .lock()
            .map(|c| c.get(&(id, dim)).cloned())
            .unwrap_or(None);
        let data = match cached {
            Some(d) => d,
            None => {
                let d = Arc::new(self.source.load(spec, dim)?);
                if let Ok(mut c) = self.cache.lock() {
                    c.insert((id, dim), Arc::clone(&d));
                }
                d
            }
        };
        Cec2017Problem::from_data(id, dim, data)
    }
}
