//! A study harness for constrained optimizers: run any [`optimizer::Optimizer`] on a
//! benchmark [`suites::Suite`] (CEC2017, COCO's bbob-constrained, the CEC2020 real-world
//! problems, or one's own) — resumable, shardable, reproducible whatever the thread
//! count or sharding — and turn the records into the CEC statistics, COCO's files and
//! (feature `report`) tables, plots and an HTML page.
//!
//! | module | the concern | the seam |
//! |---|---|---|
//! | [`optimizer`] | what the harness asks of an algorithm, and the MA-ES behind it | [`optimizer::Optimizer`]; [`optimizer::MaEsOptimizer`] takes a component spec or a seeded factory |
//! | [`suites`] | what the harness asks of a benchmark; the three suites | [`suites::Suite`] |
//! | [`study`] | a study: spec, seeds, shards, runner, records, status, datasets, COCO files | [`study::StudySpec`], [`study::StudyConfig`] |
//! | `report` (feature `report`) | tables, statistics, figures and the page, for any lineup and suite | `report::Report`, `report::Published` |
//! | `cli` (feature `cli`) | the study command line for any suite | `cli::StudyArgs`, `cli::compare_main` |
//!
//! Features: `openblas-system` (the BLAS/LAPACK backend; off: link your own), `report`
//! (plotters), `progress` (a progress bar, indicatif), `cli` (clap; implies the other
//! two); all on by default. With `default-features = false, features =
//! ["openblas-system"]` a crate gets studies, records, statistics and COCO files
//! without a plotting or command-line dependency.
//!
//! Dependencies run one way: `cli` → `report` → `study` → `suites`, `optimizer`
//! (the workspace's tests/architecture.rs checks that no module imports a sibling that
//! imports it back). The paper's reproduction (its numbers beside ours, Section 6, the
//! path check) is the repository's `emages-paper` package, built on this crate.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

/// Prints a line to standard error like `eprintln!`, but a closed or broken stream
/// (`ablation … 2>&1 | head`) is ignored: messages are not part of a study's results,
/// and the study goes on to write its files.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// Prints a line to standard output like `println!`, ignoring a closed stream (see
/// [`say!`]).
#[macro_export]
macro_rules! show {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

#[cfg(feature = "cli")]
pub mod cli;

mod error;
pub mod optimizer;
#[cfg(feature = "report")]
pub mod report;

pub mod study;
pub mod suites;

pub use error::StudyError;

// The workspace crates whose types the harness's signatures use, so that a crate
// depending on `emages` alone can name them (`emages_harness::constraint_handling::Snapshot`,
// `emages_harness::bench_stats::CecStatistics`, `emages_harness::ma_es::Config`, …).
pub use bbob_constrained;
pub use bench_stats;
pub use cec2017_constrained;
pub use cec2020_rw;
pub use constraint_handling;
pub use ma_es;
