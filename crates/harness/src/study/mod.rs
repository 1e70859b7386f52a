//! Studies: many runs of optimizer configurations on a suite's problems, in parallel,
//! resumable, shardable, and reproducible whatever the scheduling — and what they leave
//! behind.
//!
//! | module | what |
//! |---|---|
//! | [`coco`] | COCO's data format (`.info`, `.dat`, `.tdat`) for `cocopp`, beside the store |
//! | spec | the study: [`StudySpec`] (configurations, problems, runs, budget, checkpoints), [`run_seed`], [`Shard`] |
//! | runner | preparing and running it, each record appended as its run ends: [`run_study`], [`PreparedStudy`] |
//! | [`store`] | `runs.jsonl` / `dynamics.jsonl`: the record formats, one locked writer per file |
//! | [`status`] | `--status`: runs done / expected per shard file, the slowest problems, an ETA |
//! | dataset | results of one or several files (shards), checked and grouped for the report: [`Dataset`] |
//! | platform | the OpenBLAS kernel and batch kernel every record names: [`platform()`] |
//!
//! Every run is determined by its seed, derived from `(base seed, configuration label,
//! problem, dimension, run)`; thread count, shard and order of execution do not enter.

pub mod cec2020;
pub mod coco;
mod dataset;
mod platform;
mod runner;
mod spec;
pub mod status;
pub mod store;

pub use dataset::{dynamics_path, Dataset};
pub use platform::{pin_blas_to_one_thread, platform};
pub use runner::{run_study, sample_dynamics, PreparedStudy, StudyOutcome, DYNAMICS_POINTS};
pub use spec::{
    checkpoint_evaluations, run_seed, Job, Shard, StudyConfig, StudyFiles, StudySpec,
    DEFAULT_CHECKPOINT_FRACTIONS,
};
