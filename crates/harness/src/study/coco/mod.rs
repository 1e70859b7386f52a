//! COCO's data format, written by the harness: the files COCO's `bbob` observer writes
//! (`logger_bbob.c`, cocoex 2.8.2; data format `bbob-new2`), so that `cocopp`
//! post-processes a study on the bbob-constrained suite like any COCO experiment.
//!
//! Per algorithm a folder (`…/coco/<label>/`) with, per function `F`, the index
//! `bbobexp_fF.info` and, per dimension `D`, `data_fF/bbobexp_fF_DIMD.{dat,tdat,rdat,mdat}`.
//! A run is one block of those files, written when it ends ([`CocoArchive::append`]):
//!
//! - `.dat`: the first evaluation, and every evaluation whose best-so-far of
//!   `max(f, f_opt) + Σ max(g_i, 0)` reaches a new target (20 per decade down to
//!   10⁻⁸, and steps of 10⁵);
//! - `.tdat`: at evaluation counts (f plus g evaluations) `⌊10^{k/20}⌋` and
//!   `D · {1, 2, 5} · 10^k`;
//! - each with the f and g evaluation counts, `best − f_opt`, `f`, the constraints as
//!   single digits (`0`: satisfied … `9`: violated by more than 1), and `x` for D < 7;
//!   a last line for the final best-so-far;
//! - `.info`: per dimension a line of runs `instance:evaluations|Δf`.
//!
//! [`CocoRunLog`] follows the observer evaluation by evaluation (its triggers are
//! COCO's, step for step); `tests/coco_observer.rs` checks the files against cocoex's
//! own for a fixed sequence of points.

mod archive;
mod log;

pub(crate) use archive::CocoOutput;
pub use archive::{archive_folder, CocoArchive, CocoLogged};
pub use log::{CocoRunBlock, CocoRunLog, COCO_VERSION};
