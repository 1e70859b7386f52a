//! The error type of the study runner and the reports.

use std::path::{Path, PathBuf};

/// Everything that can stop a study or a report; each prints as one line.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StudyError {
    /// A file or directory could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A line of a results file is not a valid record.
    #[error("{path}:{line}: not a valid record ({detail}); fix or remove that line, the other records are intact")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        detail: String,
    },
    /// Another process holds the results file (see [`crate::study::store::Appender::open`]).
    #[error("{0} is being written by another process (the same study started twice, or a requeued cluster task whose first instance still runs); nothing was written: wait for that process to end or stop it, then rerun the same command to resume")]
    Locked(PathBuf),
    /// Invalid command-line input or study specification.
    #[error("{0}")]
    Invalid(String),
    /// Results that do not belong together (different dimension, budget, instance …).
    #[error("{0}")]
    Incompatible(String),
    /// The benchmark could not be set up.
    #[error(transparent)]
    Cec(#[from] cec2017_constrained::CecError),
    /// A problem could not be built or evaluated (e.g. a suite's invalid bounds).
    #[error(transparent)]
    Problem(#[from] constraint_handling::ProblemError),
    /// A run failed.
    #[error(transparent)]
    Strategy(#[from] ma_es::MaEsError),
    /// A statistic could not be computed.
    #[error(transparent)]
    Stats(#[from] bench_stats::StatsError),
    /// Anything else (plots, serialisation).
    #[error("{0}")]
    Other(String),
}

impl StudyError {
    /// An I/O error on `path`.
    #[must_use]
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        Self::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}
