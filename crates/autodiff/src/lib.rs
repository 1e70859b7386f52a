//! Forward-mode automatic differentiation: code written once over a number type
//! `T: Scalar` gives its values with `T = f64` and its derivatives with `T = Dual<N>`.
//!
//! A [`Dual<N>`] is `a + Σₖ bₖ εₖ` with `εₖ εₗ = 0`: arithmetic on it carries, beside
//! the value `a`, the derivatives `bₖ` along `N` directions at once (the chain rule,
//! operation by operation). Seeding the inputs with unit directions ([`Dual::variable`])
//! gives `N` columns of the Jacobian per pass; [`forward_jacobian`] sweeps all columns
//! in `⌈D / N⌉` passes.
//!
//! Conventions where a function has no derivative:
//! - `round`, `floor`, `ceil`, `signum` are piecewise constant: derivative 0 (a
//!   rounded design variable does not move with the continuous one).
//! - `abs` at 0, and `max`/`min` at a tie, take the derivative 0 for `abs` and that of
//!   the first argument for `max`/`min` (the branch `f64::max` would return).
//! - A direction along which an operand does not vary contributes exactly 0, even where
//!   the local derivative is infinite or NaN (`√x` at 0, `ln x` at 0): structural zeros
//!   of the Jacobian stay zeros.
//!
//! ```
//! use emages_autodiff::{forward_jacobian, Dual, Scalar};
//!
//! // c(x) = (x₀² + x₁² − 2, x₀ x₁): written once over any Scalar
//! fn circle<T: Scalar>(x: &[T], c: &mut [T]) {
//!     c[0] = x[0] * x[0] + x[1] * x[1] - 2.0;
//!     c[1] = x[0] * x[1];
//! }
//! let mut jac = ndarray::Array2::zeros((2, 2));
//! forward_jacobian::<2>(&[1.0, 3.0], jac.view_mut(), |x, c| circle(x, c));
//! assert_eq!(jac, ndarray::array![[2.0, 6.0], [3.0, 1.0]]);
//! let mut c = [0.0; 2];
//! circle(&[1.0, 3.0], &mut c); // the same code gives the values
//! assert_eq!(c, [8.0, 3.0]);
//! ```

#![deny(missing_docs)]

use ndarray::ArrayViewMut2;
use std::cmp::Ordering;
use std::fmt::Debug;
use std::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, Sub, SubAssign};

/// A real number type a problem can be written over: `f64` for values, [`Dual`] for
/// derivatives. The methods mean what `f64`'s methods of the same names mean; on `f64`
/// they are exactly those methods.
pub trait Scalar:
    Copy
    + Debug
    + PartialEq
    + PartialOrd
    + PartialEq<f64>
    + PartialOrd<f64>
    + From<f64>
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Rem<f64, Output = Self>
    + Neg<Output = Self>
    + Add<f64, Output = Self>
    + Sub<f64, Output = Self>
    + Mul<f64, Output = Self>
    + Div<f64, Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
    + DivAssign
    + AddAssign<f64>
    + SubAssign<f64>
    + MulAssign<f64>
    + DivAssign<f64>
    + std::iter::Sum
    + num_traits::Num
    + Send
    + Sync
    + 'static
{
    /// The value (the real part).
    fn re(self) -> f64;
    /// `self^n` for a constant `n`.
    fn powf(self, n: f64) -> Self;
    /// `self^n`.
    fn powi(self, n: i32) -> Self;
    /// `self^y` for a varying exponent `y` (`f64::powf`).
    fn powd(self, y: Self) -> Self;
    /// `√self`.
    fn sqrt(self) -> Self;
    /// `e^self`.
    fn exp(self) -> Self;
    /// The natural logarithm.
    fn ln(self) -> Self;
    /// The base-10 logarithm.
    fn log10(self) -> Self;
    /// The sine.
    fn sin(self) -> Self;
    /// The cosine.
    fn cos(self) -> Self;
    /// The tangent.
    fn tan(self) -> Self;
    /// The arc sine.
    fn asin(self) -> Self;
    /// The arc cosine.
    fn acos(self) -> Self;
    /// The arc tangent.
    fn atan(self) -> Self;
    /// The four-quadrant arc tangent of `self / x`.
    fn atan2(self, x: Self) -> Self;
    /// The inverse hyperbolic cosine.
    fn acosh(self) -> Self;
    /// `|self|`.
    fn abs(self) -> Self;
    /// `√(self² + y²)` without undue overflow.
    fn hypot(self, y: Self) -> Self;
    /// The larger of the two (NaN loses), as `f64::max`.
    fn max(self, y: Self) -> Self;
    /// The smaller of the two (NaN loses), as `f64::min`.
    fn min(self, y: Self) -> Self;
    /// Rounded half away from zero.
    fn round(self) -> Self;
    /// Rounded down.
    fn floor(self) -> Self;
    /// Rounded up.
    fn ceil(self) -> Self;
    /// `1`, `−1` or NaN by the sign of the value, as `f64::signum`.
    fn signum(self) -> Self;
    /// Whether the value is NaN.
    fn is_nan(self) -> bool;
    /// Whether the value is neither infinite nor NaN.
    fn is_finite(self) -> bool;
    /// Whether the value is ±∞.
    fn is_infinite(self) -> bool;
    /// `f64::total_cmp` of the values.
    fn total_cmp(&self, other: &Self) -> Ordering;
}

macro_rules! forward_f64 {
    ($($name:ident($($arg:ident: $t:ty),*) -> $out:ty;)*) => {
        $(
            #[inline]
            fn $name(self, $($arg: $t),*) -> $out {
                f64::$name(self, $($arg),*)
            }
        )*
    };
}

impl Scalar for f64 {
    #[inline]
    fn re(self) -> f64 {
        self
    }
    forward_f64! {
        powf(n: f64) -> f64;
        powi(n: i32) -> f64;
        sqrt() -> f64;
        exp() -> f64;
        ln() -> f64;
        log10() -> f64;
        sin() -> f64;
        cos() -> f64;
        tan() -> f64;
        asin() -> f64;
        acos() -> f64;
        atan() -> f64;
        atan2(x: f64) -> f64;
        acosh() -> f64;
        abs() -> f64;
        hypot(y: f64) -> f64;
        max(y: f64) -> f64;
        min(y: f64) -> f64;
        round() -> f64;
        floor() -> f64;
        ceil() -> f64;
        signum() -> f64;
        is_nan() -> bool;
        is_finite() -> bool;
        is_infinite() -> bool;
    }
    #[inline]
    fn powd(self, y: f64) -> f64 {
        f64::powf(self, y)
    }
    #[inline]
    fn total_cmp(&self, other: &Self) -> Ordering {
        f64::total_cmp(self, other)
    }
}

/// A dual number `re + Σₖ eps[k] εₖ`: a value with its derivatives along `N`
/// directions. Comparisons look at the value only, so code that branches on values
/// takes the same branch over `Dual` as over `f64`.
#[derive(Clone, Copy, Debug)]
pub struct Dual<const N: usize> {
    /// The value.
    pub re: f64,
    /// The derivatives along the `N` directions.
    pub eps: [f64; N],
}

/// `e · v`, but exactly 0 where the direction does not vary (`e = 0`), whatever `v`.
#[inline]
fn scaled(e: f64, v: f64) -> f64 {
    if e == 0.0 {
        0.0
    } else {
        e * v
    }
}

impl<const N: usize> Dual<N> {
    /// A constant: derivative 0 in every direction.
    #[must_use]
    pub const fn constant(re: f64) -> Self {
        Self { re, eps: [0.0; N] }
    }

    /// The input `re` varied along direction `k` (`eps = e_k`); a constant if `k ≥ N`.
    #[must_use]
    pub fn variable(re: f64, k: usize) -> Self {
        let mut eps = [0.0; N];
        if let Some(e) = eps.get_mut(k) {
            *e = 1.0;
        }
        Self { re, eps }
    }

    /// Seeds the inputs of pass `start / N` of a Jacobian sweep: `out[j]` is `x[j]`,
    /// varied along direction `j − start` for `start ≤ j < start + N`, constant otherwise.
    pub fn seed(x: &[f64], start: usize, out: &mut [Self]) {
        for (j, (o, &v)) in out.iter_mut().zip(x).enumerate() {
            *o = Self::variable(v, j.wrapping_sub(start));
        }
    }

    /// Writes the derivatives of `outputs` (pass `start / N` of a sweep seeded by
    /// [`Dual::seed`]) into columns `start..start + N` of `jacobian` (one row per
    /// output; the columns that exist).
    pub fn write_columns(outputs: &[Self], start: usize, mut jacobian: ArrayViewMut2<'_, f64>) {
        let width = N.min(jacobian.ncols().saturating_sub(start));
        for (mut row, o) in jacobian.rows_mut().into_iter().zip(outputs) {
            for (l, &e) in o.eps[..width].iter().enumerate() {
                row[start + l] = e;
            }
        }
    }

    /// The chain rule: the value `re` of `φ(self)` with the local derivative `d = φ'`.
    #[inline]
    fn chain(self, re: f64, d: f64) -> Self {
        let eps = if d.is_finite() {
            // the common case, in straight lanes
            self.eps.map(|e| e * d)
        } else {
            self.eps.map(|e| scaled(e, d))
        };
        Self { re, eps }
    }

    /// The same value with derivative 0.
    #[inline]
    fn flat(self, re: f64) -> Self {
        Self::constant(re)
    }
}

impl<const N: usize> From<f64> for Dual<N> {
    fn from(re: f64) -> Self {
        Self::constant(re)
    }
}

impl<const N: usize> PartialEq for Dual<N> {
    fn eq(&self, other: &Self) -> bool {
        self.re == other.re
    }
}

impl<const N: usize> PartialOrd for Dual<N> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.re.partial_cmp(&other.re)
    }
}

impl<const N: usize> PartialEq<f64> for Dual<N> {
    fn eq(&self, other: &f64) -> bool {
        self.re == *other
    }
}

impl<const N: usize> PartialOrd<f64> for Dual<N> {
    fn partial_cmp(&self, other: &f64) -> Option<Ordering> {
        self.re.partial_cmp(other)
    }
}

impl<const N: usize> Neg for Dual<N> {
    type Output = Self;
    #[inline]
    fn neg(self) -> Self {
        Self {
            re: -self.re,
            eps: self.eps.map(|e| -e),
        }
    }
}

impl<const N: usize> Add for Dual<N> {
    type Output = Self;
    #[inline]
    fn add(self, o: Self) -> Self {
        let mut eps = self.eps;
        for (e, b) in eps.iter_mut().zip(o.eps) {
            *e += b;
        }
        Self {
            re: self.re + o.re,
            eps,
        }
    }
}

impl<const N: usize> Sub for Dual<N> {
    type Output = Self;
    #[inline]
    fn sub(self, o: Self) -> Self {
        let mut eps = self.eps;
        for (e, b) in eps.iter_mut().zip(o.eps) {
            *e -= b;
        }
        Self {
            re: self.re - o.re,
            eps,
        }
    }
}

impl<const N: usize> Mul for Dual<N> {
    type Output = Self;
    #[inline]
    fn mul(self, o: Self) -> Self {
        let mut eps = [0.0; N];
        if self.re.is_finite() && o.re.is_finite() {
            for ((e, a), b) in eps.iter_mut().zip(self.eps).zip(o.eps) {
                *e = a * o.re + b * self.re;
            }
        } else {
            for ((e, a), b) in eps.iter_mut().zip(self.eps).zip(o.eps) {
                *e = scaled(a, o.re) + scaled(b, self.re);
            }
        }
        Self {
            re: self.re * o.re,
            eps,
        }
    }
}

impl<const N: usize> Div for Dual<N> {
    type Output = Self;
    #[inline]
    fn div(self, o: Self) -> Self {
        // (a/b)' = (a' − (a/b) b') / b
        let re = self.re / o.re;
        let inv = 1.0 / o.re;
        let mut eps = [0.0; N];
        if re.is_finite() && inv.is_finite() {
            for ((e, a), b) in eps.iter_mut().zip(self.eps).zip(o.eps) {
                *e = (a - b * re) * inv;
            }
        } else {
            for ((e, a), b) in eps.iter_mut().zip(self.eps).zip(o.eps) {
                *e = scaled(a - scaled(b, re), inv);
            }
        }
        Self { re, eps }
    }
}

impl<const N: usize> Rem<f64> for Dual<N> {
    type Output = Self;
    /// `a mod p` for a constant `p`: derivative that of `a` (between the jumps).
    fn rem(self, p: f64) -> Self {
        Self {
            re: self.re % p,
            eps: self.eps,
        }
    }
}

impl<const N: usize> std::ops::RemAssign<f64> for Dual<N> {
    fn rem_assign(&mut self, p: f64) {
        *self = *self % p;
    }
}

impl<const N: usize> std::ops::RemAssign for Dual<N> {
    fn rem_assign(&mut self, p: Self) {
        *self = *self % p;
    }
}

impl<const N: usize> Rem for Dual<N> {
    type Output = Self;
    /// `a mod b` (as `num_traits::Num` requires): derivative that of `a` (between the jumps).
    fn rem(self, p: Self) -> Self {
        self % p.re
    }
}

macro_rules! with_f64 {
    ($($tr:ident $m:ident $atr:ident $am:ident;)*) => {$(
        impl<const N: usize> $tr<f64> for Dual<N> {
            type Output = Self;
            #[inline]
            fn $m(self, o: f64) -> Self {
                self.$m(Self::constant(o))
            }
        }
        impl<const N: usize> $tr<Dual<N>> for f64 {
            type Output = Dual<N>;
            #[inline]
            fn $m(self, o: Dual<N>) -> Dual<N> {
                Dual::constant(self).$m(o)
            }
        }
        impl<const N: usize> $atr for Dual<N> {
            #[inline]
            fn $am(&mut self, o: Self) {
                *self = (*self).$m(o);
            }
        }
        impl<const N: usize> $atr<f64> for Dual<N> {
            #[inline]
            fn $am(&mut self, o: f64) {
                *self = (*self).$m(Self::constant(o));
            }
        }
    )*};
}

with_f64! {
    Add add AddAssign add_assign;
    Sub sub SubAssign sub_assign;
    Div div DivAssign div_assign;
}

/// `Dual × constant` scales the derivatives: `N` products instead of the `2N` and `N`
/// sums of a product of two duals. The same numbers as `self * Dual::constant(o)`,
/// up to the sign of a zero derivative.
impl<const N: usize> Mul<f64> for Dual<N> {
    type Output = Self;
    #[inline]
    fn mul(self, o: f64) -> Self {
        let mut eps = self.eps;
        if self.re.is_finite() && o.is_finite() {
            for e in &mut eps {
                *e *= o;
            }
        } else {
            for e in &mut eps {
                *e = scaled(*e, o);
            }
        }
        Self {
            re: self.re * o,
            eps,
        }
    }
}

impl<const N: usize> Mul<Dual<N>> for f64 {
    type Output = Dual<N>;
    #[inline]
    fn mul(self, o: Dual<N>) -> Dual<N> {
        o * self
    }
}

impl<const N: usize> MulAssign for Dual<N> {
    #[inline]
    fn mul_assign(&mut self, o: Self) {
        *self = (*self).mul(o);
    }
}

impl<const N: usize> MulAssign<f64> for Dual<N> {
    #[inline]
    fn mul_assign(&mut self, o: f64) {
        *self = *self * o;
    }
}

impl<const N: usize> std::iter::Sum for Dual<N> {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self::constant(-0.0), |a, b| a + b)
    }
}

impl<const N: usize> num_traits::Zero for Dual<N> {
    fn zero() -> Self {
        Self::constant(0.0)
    }
    fn is_zero(&self) -> bool {
        self.re == 0.0
    }
}

impl<const N: usize> num_traits::One for Dual<N> {
    fn one() -> Self {
        Self::constant(1.0)
    }
}

impl<const N: usize> num_traits::Num for Dual<N> {
    type FromStrRadixErr = num_traits::ParseFloatError;
    fn from_str_radix(s: &str, radix: u32) -> Result<Self, Self::FromStrRadixErr> {
        f64::from_str_radix(s, radix).map(Self::constant)
    }
}

impl<const N: usize> Scalar for Dual<N> {
    #[inline]
    fn re(self) -> f64 {
        self.re
    }
    fn powf(self, n: f64) -> Self {
        if n == 0.0 {
            return self.flat(self.re.powf(n));
        }
        self.chain(self.re.powf(n), n * self.re.powf(n - 1.0))
    }
    fn powi(self, n: i32) -> Self {
        if n == 0 {
            return self.flat(self.re.powi(n));
        }
        self.chain(self.re.powi(n), f64::from(n) * self.re.powi(n - 1))
    }
    fn powd(self, y: Self) -> Self {
        // d(a^b) = b a^(b−1) da + a^b ln(a) db
        let re = self.re.powf(y.re);
        let da = y.re * self.re.powf(y.re - 1.0);
        let db = re * self.re.ln();
        let mut eps = [0.0; N];
        for ((e, a), b) in eps.iter_mut().zip(self.eps).zip(y.eps) {
            *e = scaled(a, da) + scaled(b, db);
        }
        Self { re, eps }
    }
    fn sqrt(self) -> Self {
        let r = self.re.sqrt();
        self.chain(r, 0.5 / r)
    }
    fn exp(self) -> Self {
        let r = self.re.exp();
        self.chain(r, r)
    }
    fn ln(self) -> Self {
        self.chain(self.re.ln(), 1.0 / self.re)
    }
    fn log10(self) -> Self {
        self.chain(self.re.log10(), 1.0 / (self.re * std::f64::consts::LN_10))
    }
    fn sin(self) -> Self {
        self.chain(self.re.sin(), self.re.cos())
    }
    fn cos(self) -> Self {
        self.chain(self.re.cos(), -self.re.sin())
    }
    fn tan(self) -> Self {
        let t = self.re.tan();
        self.chain(t, 1.0 + t * t)
    }
    fn asin(self) -> Self {
        self.chain(self.re.asin(), 1.0 / (1.0 - self.re * self.re).sqrt())
    }
    fn acos(self) -> Self {
        self.chain(self.re.acos(), -1.0 / (1.0 - self.re * self.re).sqrt())
    }
    fn atan(self) -> Self {
        self.chain(self.re.atan(), 1.0 / (1.0 + self.re * self.re))
    }
    fn atan2(self, x: Self) -> Self {
        // d atan2(y, x) = (x dy − y dx) / (x² + y²)
        let r2 = x.re * x.re + self.re * self.re;
        let mut eps = [0.0; N];
        for ((e, dy), dx) in eps.iter_mut().zip(self.eps).zip(x.eps) {
            *e = (scaled(dy, x.re) - scaled(dx, self.re)) / r2;
        }
        Self {
            re: self.re.atan2(x.re),
            eps,
        }
    }
    fn acosh(self) -> Self {
        self.chain(self.re.acosh(), 1.0 / (self.re * self.re - 1.0).sqrt())
    }
    fn abs(self) -> Self {
        let d = if self.re > 0.0 {
            1.0
        } else if self.re < 0.0 {
            -1.0
        } else {
            0.0
        };
        self.chain(self.re.abs(), d)
    }
    fn hypot(self, y: Self) -> Self {
        let r = self.re.hypot(y.re);
        let mut eps = [0.0; N];
        if r != 0.0 {
            for ((e, a), b) in eps.iter_mut().zip(self.eps).zip(y.eps) {
                *e = (scaled(a, self.re) + scaled(b, y.re)) / r;
            }
        }
        Self { re: r, eps }
    }
    fn max(self, y: Self) -> Self {
        if y.re.is_nan() || self.re >= y.re {
            self
        } else if self.re.is_nan() || y.re > self.re {
            y
        } else {
            self
        }
    }
    fn min(self, y: Self) -> Self {
        if y.re.is_nan() || self.re <= y.re {
            self
        } else if self.re.is_nan() || y.re < self.re {
            y
        } else {
            self
        }
    }
    fn round(self) -> Self {
        self.flat(self.re.round())
    }
    fn floor(self) -> Self {
        self.flat(self.re.floor())
    }
    fn ceil(self) -> Self {
        self.flat(self.re.ceil())
    }
    fn signum(self) -> Self {
        self.flat(self.re.signum())
    }
    fn is_nan(self) -> bool {
        self.re.is_nan()
    }
    fn is_finite(self) -> bool {
        self.re.is_finite()
    }
    fn is_infinite(self) -> bool {
        self.re.is_infinite()
    }
    fn total_cmp(&self, other: &Self) -> Ordering {
        self.re.total_cmp(&other.re)
    }
}

/// The Jacobian of `c: ℝᴰ → ℝᵏ` at `x` by forward-mode differentiation, `N` columns
/// per pass (`⌈D / N⌉` calls of `c` over [`Dual<N>`]), into `jacobian` (`k × D`, `k`
/// its rows); `c` writes the `k` outputs for the given inputs.
///
/// # Panics
/// If `jacobian` does not have `x.len()` columns.
pub fn forward_jacobian<const N: usize>(
    x: &[f64],
    mut jacobian: ArrayViewMut2<'_, f64>,
    mut c: impl FnMut(&[Dual<N>], &mut [Dual<N>]),
) {
    let d = x.len();
    assert_eq!(
        jacobian.ncols(),
        d,
        "the Jacobian has one column per variable"
    );
    let mut xd = vec![Dual::<N>::constant(0.0); d];
    let mut out = vec![Dual::<N>::constant(0.0); jacobian.nrows()];
    for start in (0..d).step_by(N) {
        Dual::seed(x, start, &mut xd);
        c(&xd, &mut out);
        Dual::write_columns(&out, start, jacobian.view_mut());
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    fn d1(re: f64) -> Dual<1> {
        Dual::variable(re, 0)
    }

    /// Central differences of `f` at `x` against the dual derivative.
    fn check(f: impl Fn(Dual<1>) -> Dual<1>, g: impl Fn(f64) -> f64, x: f64) {
        let ad = f(d1(x));
        let h = 1e-6 * x.abs().max(1.0);
        let fd = (g(x + h) - g(x - h)) / (2.0 * h);
        assert_eq!(ad.re.to_bits(), g(x).to_bits(), "value at {x}");
        assert!(
            (ad.eps[0] - fd).abs() <= 1e-6 * fd.abs().max(1.0),
            "derivative at {x}: {} vs {fd}",
            ad.eps[0]
        );
    }

    #[test]
    fn elementary_functions_differentiate_like_differences() {
        for &x in &[0.3, 0.7, 1.9, 2.5] {
            check(|v| v.powf(0.6), |v| v.powf(0.6), x);
            check(|v| v.powi(3), |v| v.powi(3), x);
            check(Scalar::sqrt, f64::sqrt, x);
            check(Scalar::exp, f64::exp, x);
            check(Scalar::ln, f64::ln, x);
            check(Scalar::log10, f64::log10, x);
            check(Scalar::sin, f64::sin, x);
            check(Scalar::cos, f64::cos, x);
            check(Scalar::tan, f64::tan, x);
            check(Scalar::atan, f64::atan, x);
            check(|v| v.atan2(Dual::constant(0.4)), |v| v.atan2(0.4), x);
            check(|v| Dual::constant(0.4).atan2(v), |v| 0.4f64.atan2(v), x);
            check(|v| v.hypot(v * 2.0), |v| v.hypot(v * 2.0), x);
            check(|v| (v - 1.0).abs(), |v| (v - 1.0).abs(), x);
            check(
                |v| 3.0 / v - v * v / (v + 1.0),
                |v| 3.0 / v - v * v / (v + 1.0),
                x,
            );
            check(|v| 2.0 - v, |v| 2.0 - v, x);
            check(|v| v.powd(v * 0.5), |v| v.powf(v * 0.5), x);
            check(|v| Dual::constant(10.0).powd(v), |v| 10f64.powf(v), x);
        }
        for &x in &[-0.6, 0.2, 0.9] {
            check(Scalar::asin, f64::asin, x);
            check(Scalar::acos, f64::acos, x);
        }
        check(Scalar::acosh, f64::acosh, 1.7);
    }

    #[test]
    fn structural_zeros_stay_zero_where_the_local_derivative_is_infinite() {
        // √x at x = 0 has an infinite slope; along a direction x does not move, 0
        let x = Dual::<2>::variable(0.0, 1);
        let y = Dual::<2>::variable(3.0, 0);
        let r = x.sqrt() * y;
        assert_eq!(r.eps[0], 0.0);
        assert_eq!(r.eps[1], f64::INFINITY);
        assert!(!(x.ln() + y).eps[0].is_nan());
    }

    #[test]
    fn rounding_and_comparisons_look_at_the_value() {
        let x = Dual::<1>::variable(2.6, 0);
        assert_eq!(x.round().eps, [0.0]);
        assert_eq!(x.round().re, 3.0);
        assert!(x > 2.5 && x < Dual::constant(2.7) && x == 2.6);
        assert_eq!(x.max(Dual::constant(1.0)).eps, [1.0]);
        assert_eq!(Dual::constant(5.0).max(x).eps, [0.0]);
        assert_eq!((x % 1.0).eps, [1.0]);
    }

    #[test]
    fn the_jacobian_sweeps_more_columns_than_lanes() {
        // c(x) = (Σ i·x_i², Π x_i) in 5 dimensions with 2 lanes: 3 passes
        let x = [1.0, 2.0, 0.5, -1.5, 3.0];
        let mut jac = ndarray::Array2::zeros((2, 5));
        forward_jacobian::<2>(&x, jac.view_mut(), |x, c| {
            c[0] = x.iter().enumerate().map(|(i, &v)| v * v * (i as f64)).sum();
            c[1] = x.iter().fold(Dual::constant(1.0), |a, &b| a * b);
        });
        let prod: f64 = x.iter().product();
        for j in 0..5 {
            assert_eq!(jac[[0, j]], 2.0 * j as f64 * x[j]);
            assert!((jac[[1, j]] - prod / x[j]).abs() < 1e-12);
        }
    }
}

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
