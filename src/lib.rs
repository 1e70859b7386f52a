//! The study harness of the workspace: runs optimizer configurations on a benchmark
//! suite — resumable, shardable, reproducible whatever the scheduling — and turns the
//! records into the paper's tables, statistics, plots and an HTML report; with the
//! paper (Hellwig & Beyer's εMAg-ES ablation) as its first user.
//!
//! | module | the concern | the seam |
//! |---|---|---|
//! | [`optimizer`] | what the harness asks of an algorithm, and the MA-ES behind it | [`optimizer::Optimizer`]; `MaEsOptimizer` takes a component spec or a factory |
//! | [`suites`] | what the harness asks of a benchmark; CEC2017 with its instance data | [`suites::Suite`] |
//! | [`study`] | a study: spec, seeds, shards, runner, records, status, datasets | [`study::StudySpec`], [`study::StudyConfig`] |
//! | [`report`] | tables, statistics, figures and the page, for any lineup and suite | [`report::Report`], [`report::Published`] |
//! | [`reproduction`] | the paper: its numbers beside ours, Section 6, the path check, generated doc blocks | [`reproduction::ablation_report`] |
//! | [`cli`] | the study command line for any suite | [`cli::StudyArgs`], [`cli::compare_main`] |
//!
//! Dependencies run one way: `cli` → `reproduction` → `report` → `study` → `suites`,
//! `optimizer` (tests/architecture.rs checks that no module imports a sibling that
//! imports it back). The examples are the command-line front ends: `ablation`,
//! `parameter_study`, `compare`, `nl_divergence`, `path_check`, and the contributor
//! walkthroughs `custom_component` and `custom_suite` (docs/architecture.md).
#![warn(missing_docs)]

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

pub mod cli;

mod error;
pub mod optimizer;
pub mod report;
pub mod reproduction;

pub mod study;
pub mod suites;

pub use error::StudyError;
