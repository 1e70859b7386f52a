//! The request protocol of the solver contract ([`emages_solver`]) as the ES speaks
//! it, and how it groups the evaluations of its repair ([`Batching`]).

pub use emages_solver::{Request, RequestKind, Slots, Told, Values};
use serde::{Deserialize, Serialize};

/// How a [`crate::strategy::Strategy`] batches the evaluations of its repair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Batching {
    /// One request for the probes of every offspring being repaired, one for their
    /// repaired points, step after step: as few requests as the generation allows
    /// (for parallel or remote evaluation). A λ whose probes would exceed 2²² numbers
    /// (32 MiB) is repaired in waves of that size.
    #[default]
    Generation,
    /// Offspring after offspring, step after step (probes, repaired point): the
    /// reference's order of evaluations, which evaluation logs (COCO's) record.
    Offspring,
}
