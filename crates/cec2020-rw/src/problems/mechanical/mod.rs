//! Mechanical engineering, RC15–RC33: the classic design problems (speed reducer,
//! springs, pressure vessel, welded beam, trusses, clutch, gear trains, pulley, gripper,
//! bearings, compressor) and a small topology optimisation.
//!
//! Variable names follow the organisers' code, so upper-case names of physical
//! quantities are kept; constants such as 0.7854 and 3.14 are the formulas' own rounded
//! values, not approximations of π written here.
#![allow(
    non_snake_case,
    clippy::approx_constant,
    clippy::excessive_precision,
    clippy::needless_range_loop
)]

mod designs;
mod gears;
mod gripper;
mod structures;

/// The formulas over `f64`: the values.
pub(crate) mod values {
    pub(crate) use super::designs::values::{
        rc15, rc16, rc17, rc18, rc19, rc20, rc21, rc23, rc25, rc28, rc29, rc31, rc32,
    };
    pub(crate) use super::gears::values::{rc22, rc26, rc30};
    pub(crate) use super::gripper::values::rc24;
    pub(crate) use super::structures::values::{rc27, rc33};
}

/// The same formulas over dual numbers: the derivatives.
pub(crate) mod derivatives {
    pub(crate) use super::designs::derivatives::{
        rc15, rc16, rc17, rc18, rc19, rc20, rc21, rc23, rc25, rc28, rc29, rc31, rc32,
    };
    pub(crate) use super::gears::derivatives::{rc22, rc26, rc30};
    pub(crate) use super::gripper::derivatives::rc24;
    pub(crate) use super::structures::derivatives::{rc27, rc33};
}
