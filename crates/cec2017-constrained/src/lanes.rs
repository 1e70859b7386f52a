//! Several points evaluated at once: [`Lanes`] holds one coordinate of [`WIDTH`] points,
//! and [`Real`] is the arithmetic the definitions of `functions.rs` are written in, so
//! that one definition serves one point (`f64`) and a block of points (`Lanes`).
//!
//! **Same bits either way.** Every lane performs exactly the IEEE operations of the
//! scalar definition, in the same order (the sums stay left to right within a point;
//! the vectorisation runs *across* points), and `sin`/`cos` come from
//! [`crate::sincos`], which returns the correctly rounded value or, where it cannot
//! prove the rounding, the system libm's. A block therefore gives the bits of the
//! scalar path wherever the libm's `sin`/`cos` are correctly rounded — glibc's are, on
//! every argument the tests try.
//!
//! The arithmetic is plain Rust on `[f64; WIDTH]`: compiled inside a function with
//! `#[target_feature(enable = "avx512f")]` or `"avx2,fma"` (chosen at run time by
//! [`crate::problem`]), the compiler turns each lane loop into vector instructions; no
//! intrinsics are written by hand. Every item here is `#[inline(always)]` so that it
//! is compiled with the caller's target features.

use constraint_handling::autodiff::{Dual, Scalar};
use std::ops::{Add, Div, Mul, Neg, Sub};

/// Points per block (one AVX-512 register, two AVX2 registers): the width of the
/// `sin`/`cos` kernels, which own it.
pub(crate) use crate::sincos::WIDTH;

/// The arithmetic of a definition: IEEE `f64` operations, lane by lane.
pub(crate) trait Real:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + Add<f64, Output = Self>
    + Sub<f64, Output = Self>
    + Mul<f64, Output = Self>
    + Div<f64, Output = Self>
{
    /// The constant `v` in every lane.
    fn splat(v: f64) -> Self;
    /// `f` applied to every lane.
    fn map(self, f: impl Fn(f64) -> f64) -> Self;
    /// `f` applied lane by lane to `self` and `other`.
    fn zip_map(self, other: Self, f: impl Fn(f64, f64) -> f64) -> Self;
    /// `sin x`, with the bits of the system libm's.
    fn sin(self) -> Self;
    /// `cos x`, with the bits of the system libm's.
    fn cos(self) -> Self;
    /// `(sin x, cos x)`, with the bits of the system libm's.
    fn sin_cos(self) -> (Self, Self);
    /// The larger of `self` and `other`, a NaN in `other` winning (the definitions'
    /// `max` fold).
    #[inline(always)]
    fn max_or_nan(self, other: Self) -> Self {
        self.zip_map(other, |m, x| if x > m || x.is_nan() { x } else { m })
    }
    #[inline(always)]
    fn abs(self) -> Self {
        self.map(f64::abs)
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        self.map(f64::sqrt)
    }
    #[inline(always)]
    fn exp(self) -> Self {
        self.map(f64::exp)
    }
}

/// Over dual numbers (`constraint_handling::autodiff`): the constraints' derivatives.
/// `map` and `zip_map` keep the value and give derivative 0: the definitions use them
/// only for piecewise-constant functions (problem 17's `sign`) and for an objective
/// (problem 18's rounding), whose derivative no Jacobian needs; `max` selects an
/// argument, derivative included.
impl<const N: usize> Real for Dual<N> {
    #[inline(always)]
    fn splat(v: f64) -> Self {
        Dual::constant(v)
    }
    #[inline(always)]
    fn map(self, f: impl Fn(f64) -> f64) -> Self {
        Dual::constant(f(self.re))
    }
    #[inline(always)]
    fn zip_map(self, other: Self, f: impl Fn(f64, f64) -> f64) -> Self {
        Dual::constant(f(self.re, other.re))
    }
    #[inline(always)]
    fn sin(self) -> Self {
        Scalar::sin(self)
    }
    #[inline(always)]
    fn cos(self) -> Self {
        Scalar::cos(self)
    }
    #[inline(always)]
    fn sin_cos(self) -> (Self, Self) {
        (Scalar::sin(self), Scalar::cos(self))
    }
    #[inline(always)]
    fn abs(self) -> Self {
        Scalar::abs(self)
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        Scalar::sqrt(self)
    }
    #[inline(always)]
    fn exp(self) -> Self {
        Scalar::exp(self)
    }
    #[inline(always)]
    fn max_or_nan(self, other: Self) -> Self {
        if other.re > self.re || other.re.is_nan() {
            other
        } else {
            self
        }
    }
}

impl Real for f64 {
    #[inline(always)]
    fn splat(v: f64) -> Self {
        v
    }
    #[inline(always)]
    fn map(self, f: impl Fn(f64) -> f64) -> Self {
        f(self)
    }
    #[inline(always)]
    fn zip_map(self, other: Self, f: impl Fn(f64, f64) -> f64) -> Self {
        f(self, other)
    }
    #[inline(always)]
    fn sin(self) -> Self {
        f64::sin(self)
    }
    #[inline(always)]
    fn cos(self) -> Self {
        f64::cos(self)
    }
    #[inline(always)]
    fn sin_cos(self) -> (Self, Self) {
        (f64::sin(self), f64::cos(self))
    }
}

/// One coordinate (or one intermediate value) of [`WIDTH`] points.
///
/// `FAST = false`: `sin`/`cos` with the bits of the system libm
/// ([`crate::sincos::sin_or_cos_lanes`]); `FAST = true`: the plain double kernel
/// ([`crate::sincos::fast_sin_or_cos_lanes`], within about one ulp, never the libm) —
/// [`crate::Fidelity::Fast`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(transparent)]
pub(crate) struct Lanes<const FAST: bool = false>(pub [f64; WIDTH]);

macro_rules! lane_op {
    ($trait:ident, $method:ident, $assign:tt) => {
        impl<const FAST: bool> $trait for Lanes<FAST> {
            type Output = Self;
            #[inline(always)]
            fn $method(self, rhs: Self) -> Self {
                let mut out = self.0;
                for (o, r) in out.iter_mut().zip(rhs.0) {
                    *o $assign r;
                }
                Lanes(out)
            }
        }
        impl<const FAST: bool> $trait<f64> for Lanes<FAST> {
            type Output = Self;
            #[inline(always)]
            fn $method(self, rhs: f64) -> Self {
                let mut out = self.0;
                for o in &mut out {
                    *o $assign rhs;
                }
                Lanes(out)
            }
        }
    };
}
lane_op!(Add, add, +=);
lane_op!(Sub, sub, -=);
lane_op!(Mul, mul, *=);
lane_op!(Div, div, /=);

impl<const FAST: bool> Neg for Lanes<FAST> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        self.map(|x| -x)
    }
}

impl<const FAST: bool> Real for Lanes<FAST> {
    #[inline(always)]
    fn splat(v: f64) -> Self {
        Lanes([v; WIDTH])
    }
    #[inline(always)]
    fn map(self, f: impl Fn(f64) -> f64) -> Self {
        let mut out = self.0;
        for o in &mut out {
            *o = f(*o);
        }
        Lanes(out)
    }
    #[inline(always)]
    fn zip_map(self, other: Self, f: impl Fn(f64, f64) -> f64) -> Self {
        let mut out = self.0;
        for (o, r) in out.iter_mut().zip(other.0) {
            *o = f(*o, r);
        }
        Lanes(out)
    }
    #[inline(always)]
    fn sin(self) -> Self {
        Lanes(if FAST {
            crate::sincos::fast_sin_or_cos_lanes::<false>(&self.0)
        } else {
            crate::sincos::sin_or_cos_lanes::<false>(&self.0)
        })
    }
    #[inline(always)]
    fn cos(self) -> Self {
        Lanes(if FAST {
            crate::sincos::fast_sin_or_cos_lanes::<true>(&self.0)
        } else {
            crate::sincos::sin_or_cos_lanes::<true>(&self.0)
        })
    }
    #[inline(always)]
    fn sin_cos(self) -> (Self, Self) {
        let (s, c) = if FAST {
            crate::sincos::fast_sin_cos_lanes(&self.0)
        } else {
            crate::sincos::sin_cos_lanes(&self.0)
        };
        (Lanes(s), Lanes(c))
    }
}
