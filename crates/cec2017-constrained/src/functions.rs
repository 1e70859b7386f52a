//! The 28 objective/constraint definitions of docs/algorithm.md §1, on shifted (`y = x − o`)
//! and transformed (`z = M y`) coordinates.
//!
//! Sums and products run left to right over the indices, as in the reference. The
//! definitions are written once, over [`Real`]: for one point (`f64`) and for a block
//! of points evaluated lane by lane ([`crate::lanes::Lanes`]), with the same IEEE
//! operations in the same order either way. Everything is `#[inline(always)]` so that
//! a block evaluation is compiled with its caller's target features.

use crate::lanes::Real;
use std::f64::consts::{E, PI};

/// The coordinates a definition needs: the shifted point `y`, and for transformed
/// problems `z = M y` (problem 5: `u1 = M1 y`, `u2 = M2 y`).
pub(crate) struct Coordinates<'a, T> {
    pub y: &'a [T],
    pub z: &'a [T],
    pub z2: &'a [T],
}

/// `Ras(v) = Σ (v_i² − 10 cos(2π v_i) + 10)`.
#[inline(always)]
fn rastrigin<T: Real>(v: &[T]) -> T {
    let mut s = T::splat(0.0);
    for &x in v {
        s = s + (x * x - (x * (2.0 * PI)).cos() * 10.0 + 10.0);
    }
    s
}

/// `Ros(v) = Σ_{i<N} (100 (v_i² − v_{i+1})² + (v_i − 1)²)`.
#[inline(always)]
fn rosenbrock<T: Real>(v: &[T]) -> T {
    let mut s = T::splat(0.0);
    for w in v.windows(2) {
        let a = w[0] * w[0] - w[1];
        let b = w[0] - 1.0;
        s = s + (a * 100.0 * a + b * b);
    }
    s
}

/// `P(v) = Σ_i (Σ_{j≤i} v_j)²`, the sum of squared prefix sums.
#[inline(always)]
fn prefix_square_sum<T: Real>(v: impl Iterator<Item = T>) -> T {
    let mut prefix = T::splat(0.0);
    let mut s = T::splat(0.0);
    for x in v {
        prefix = prefix + x;
        s = s + prefix * prefix;
    }
    s
}

#[inline(always)]
fn sum<T: Real>(v: &[T]) -> T {
    v.iter().fold(T::splat(0.0), |s, &x| s + x)
}

#[inline(always)]
fn sum_sq<T: Real>(v: &[T]) -> T {
    v.iter().fold(T::splat(0.0), |s, &x| s + x * x)
}

#[inline(always)]
fn sum_abs<T: Real>(v: &[T]) -> T {
    v.iter().fold(T::splat(0.0), |s, &x| s + x.abs())
}

/// The largest value; a NaN anywhere makes it NaN.
#[inline(always)]
fn max<T: Real>(v: impl IntoIterator<Item = T>) -> T {
    v.into_iter()
        .fold(T::splat(f64::NEG_INFINITY), |m, x| m.max_or_nan(x))
}

/// `Σ_{i<N} (v_i − v_{i+1})²`.
#[inline(always)]
fn sum_sq_diff<T: Real>(v: &[T]) -> T {
    let mut s = T::splat(0.0);
    for w in v.windows(2) {
        let d = w[0] - w[1];
        s = s + d * d;
    }
    s
}

/// `Σ (v_i² − 5000 cos(0.1π v_i) − 4000)` (problems 1–3).
#[inline(always)]
fn g_cos_5000<T: Real>(v: &[T]) -> T {
    let mut s = T::splat(0.0);
    for &x in v {
        s = s + (x * x - (x * (0.1 * PI)).cos() * 5000.0 - 4000.0);
    }
    s
}

/// `Σ (u_i² − 50 cos(2π u_i) − 40)` (problem 5).
#[inline(always)]
fn g_cos_50<T: Real>(v: &[T]) -> T {
    let mut s = T::splat(0.0);
    for &x in v {
        s = s + (x * x - (x * (2.0 * PI)).cos() * 50.0 - 40.0);
    }
    s
}

#[inline(always)]
fn sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        x // 0 (or NaN)
    }
}

/// Evaluates problem `id` (1..=28): returns `f` and writes `C = (g, h)` into `c`
/// (length `l_k + m_k`). Problems 21–28 are 12–19 on `z`.
#[inline(always)]
pub(crate) fn evaluate<T: Real>(id: usize, x: &Coordinates<'_, T>, c: &mut [T]) -> T {
    let y = x.y;
    let n = y.len() as f64;
    let zero = T::splat(0.0);
    match id {
        1 => {
            c[0] = g_cos_5000(y);
            prefix_square_sum(y.iter().copied())
        }
        2 => {
            c[0] = g_cos_5000(x.z);
            prefix_square_sum(y.iter().copied())
        }
        3 => {
            c[0] = g_cos_5000(y);
            let mut h = zero;
            for &v in y {
                h = h + v * (v * (0.1 * PI)).sin();
            }
            c[1] = -h;
            prefix_square_sum(y.iter().copied())
        }
        4 => {
            let (mut g1, mut g2) = (zero, zero);
            for &v in y {
                g1 = g1 + v * (v * 2.0).sin();
                g2 = g2 + v * v.sin();
            }
            c[0] = -g1;
            c[1] = g2;
            rastrigin(y)
        }
        5 => {
            c[0] = g_cos_50(x.z);
            c[1] = g_cos_50(x.z2);
            rosenbrock(y)
        }
        6 => {
            let mut h = [zero; 6];
            for &v in y {
                let r = v.abs().sqrt() * 2.0;
                let sin_r = r.sin();
                let (sin_v, cos_v) = v.sin_cos();
                let (sin_pv, cos_pv) = (v * PI).sin_cos();
                h[0] = h[0] + v * sin_v;
                h[1] = h[1] + v * sin_pv;
                h[2] = h[2] + v * cos_v;
                h[3] = h[3] + v * cos_pv;
                h[4] = h[4] + v * sin_r;
                h[5] = h[5] + v * sin_r;
            }
            c[0] = -h[0];
            c[1] = h[1];
            c[2] = -h[2];
            c[3] = h[3];
            c[4] = h[4];
            c[5] = -h[5];
            rastrigin(y)
        }
        7 => {
            let mut h = zero;
            let mut f = zero;
            for &v in y {
                h = h + (v - (v * 0.5).cos() * 100.0 + 100.0);
                f = f + v * v.sin();
            }
            c[0] = h;
            c[1] = -h;
            f
        }
        8 => {
            c[0] = prefix_square_sum(y.iter().step_by(2).copied());
            c[1] = prefix_square_sum(y.iter().skip(1).step_by(2).copied());
            max(y.iter().copied())
        }
        9 => {
            let mut g = T::splat(1.0);
            for &b in y.iter().skip(1).step_by(2) {
                g = g * b;
            }
            c[0] = g;
            let mut h = zero;
            let mut prev: Option<T> = None;
            for &a in y.iter().step_by(2) {
                if let Some(p) = prev {
                    let d = p * p - a;
                    h = h + d * d;
                }
                prev = Some(a);
            }
            c[1] = h;
            max(y.iter().copied())
        }
        10 => {
            c[0] = prefix_square_sum(y.iter().copied());
            c[1] = sum_sq_diff(y);
            max(y.iter().copied())
        }
        11 => {
            let mut g = T::splat(1.0);
            for &v in y {
                g = g * v;
            }
            c[0] = g;
            c[1] = sum_sq_diff(y);
            sum(y)
        }
        12..=19 => base_12_to_19(id, y, n, c),
        20 => {
            let mut f = zero;
            for w in y.windows(2) {
                f = f + schaffer(w[0], w[1]);
            }
            if let (Some(&first), Some(&last)) = (y.first(), y.last()) {
                f = f + schaffer(last, first);
            }
            let s = sum(y).cos();
            c[0] = s * s - s * 0.25 - 0.125;
            c[1] = s.exp() - 0.25f64.exp();
            f
        }
        21..=28 => base_12_to_19(id - 9, x.z, n, c),
        _ => T::splat(f64::NAN),
    }
}

/// One term of the expanded Schaffer F6 function (problem 20).
#[inline(always)]
fn schaffer<T: Real>(p: T, q: T) -> T {
    let r = (p * p + q * q).sqrt();
    let s = r.sin();
    let d = r * 0.001 + 1.0;
    (s * s - 0.5) / (d * d) + 0.5
}

/// Problems 12–19 on the coordinates `v` (`y`, or `z` for 21–28).
#[inline(always)]
fn base_12_to_19<T: Real>(id: usize, v: &[T], n: f64, c: &mut [T]) -> T {
    let zero = T::splat(0.0);
    match id {
        12 => {
            c[0] = T::splat(4.0) - sum_abs(v);
            c[1] = sum_sq(v) - 4.0;
            rastrigin(v)
        }
        13 => {
            c[0] = rastrigin(v) - 100.0;
            let s = sum(v);
            c[1] = s - 2.0 * n;
            c[2] = T::splat(5.0) - s;
            rosenbrock(v)
        }
        14 => {
            let ss = sum_sq(v);
            let mut sc = zero;
            for &x in v {
                sc = sc + (x * (2.0 * PI)).cos();
            }
            let mut tail = zero;
            for &x in v.iter().skip(1) {
                tail = tail + x * x;
            }
            c[0] = T::splat(1.0) - v.first().map_or(zero, |x| x.abs()) + tail;
            c[1] = ss - 4.0;
            T::splat(20.0) - ((ss / n).sqrt() * -0.2).exp() * 20.0 - (sc / n).exp() + E
        }
        15 => {
            let f = max(v.iter().map(|x| x.abs()));
            c[0] = sum_sq(v) - 100.0 * n;
            let (sin_f, cos_f) = f.sin_cos();
            c[1] = cos_f + sin_f;
            f
        }
        16 => {
            let f = sum_abs(v);
            c[0] = sum_sq(v) - 100.0 * n;
            let (sin_f, cos_f) = f.sin_cos();
            let t = cos_f + sin_f;
            c[1] = t * t - t.exp() - 1.0 + E;
            f
        }
        17 => {
            let ss = sum_sq(v);
            let mut prod = T::splat(1.0);
            let mut signs = zero;
            for (i, &x) in v.iter().enumerate() {
                prod = prod * (x / ((i + 1) as f64).sqrt()).cos();
                signs = signs + (x.abs() - (ss - x * x) - 1.0).map(sign);
            }
            c[0] = T::splat(1.0) - signs;
            c[1] = ss - 4.0 * n;
            ss / 4000.0 - prod + 1.0
        }
        18 => {
            let mut f = zero;
            for &x in v {
                let w = x.map(|x| {
                    if x.abs() < 0.5 {
                        x
                    } else {
                        (2.0 * x).round() / 2.0
                    }
                });
                f = f + (w * w - (w * (2.0 * PI)).cos() * 10.0 + 10.0);
            }
            c[0] = T::splat(1.0) - sum_abs(v);
            c[1] = sum_sq(v) - 100.0 * n;
            let mut h1 = zero;
            for w in v.windows(2) {
                let d = w[0] * w[0] - w[1];
                h1 = h1 + d * 100.0 * d;
            }
            let mut h2 = T::splat(1.0);
            for &x in v {
                let s = ((x - 1.0) * PI).sin();
                h2 = h2 * (s * s);
            }
            c[2] = h1 + h2;
            f
        }
        19 => {
            let mut f = zero;
            for &x in v {
                f = f + (x.abs().sqrt() + (x * x * x).sin() * 2.0);
            }
            let mut g1 = zero;
            for w in v.windows(2) {
                g1 = g1 + ((w[0] * w[0] + w[1] * w[1]).sqrt() * -0.2).exp() * -10.0;
            }
            c[0] = g1 + 10.0 * (n - 1.0) / (-5.0f64).exp();
            let mut g2 = zero;
            for &x in v {
                let s = (x * 2.0).sin();
                g2 = g2 + s * s;
            }
            c[1] = g2 - 0.5 * n;
            f
        }
        _ => T::splat(f64::NAN),
    }
}
