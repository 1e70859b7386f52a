//! The 28 objective/constraint definitions of REFERENCE.md §1, on shifted (`y = x − o`)
//! and transformed (`z = M y`) coordinates.
//!
//! Sums and products run left to right over the indices, as in the reference.

use std::f64::consts::{E, PI};

/// The coordinates a definition needs: the shifted point `y`, and for transformed
/// problems `z = M y` (problem 5: `u1 = M1 y`, `u2 = M2 y`).
pub(crate) struct Coordinates<'a> {
    pub y: &'a [f64],
    pub z: &'a [f64],
    pub z2: &'a [f64],
}

/// `Ras(v) = Σ (v_i² − 10 cos(2π v_i) + 10)`.
fn rastrigin(v: &[f64]) -> f64 {
    let mut s = 0.0;
    for &x in v {
        s += x * x - 10.0 * (2.0 * PI * x).cos() + 10.0;
    }
    s
}

/// `Ros(v) = Σ_{i<N} (100 (v_i² − v_{i+1})² + (v_i − 1)²)`.
fn rosenbrock(v: &[f64]) -> f64 {
    let mut s = 0.0;
    for w in v.windows(2) {
        let a = w[0] * w[0] - w[1];
        let b = w[0] - 1.0;
        s += 100.0 * a * a + b * b;
    }
    s
}

/// `P(v) = Σ_i (Σ_{j≤i} v_j)²`, the sum of squared prefix sums.
fn prefix_square_sum(v: impl Iterator<Item = f64>) -> f64 {
    let mut prefix = 0.0;
    let mut s = 0.0;
    for x in v {
        prefix += x;
        s += prefix * prefix;
    }
    s
}

fn sum(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |s, &x| s + x)
}

fn sum_sq(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |s, &x| s + x * x)
}

fn sum_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |s, &x| s + x.abs())
}

/// The largest value; a NaN anywhere makes it NaN.
fn max(v: impl IntoIterator<Item = f64>) -> f64 {
    v.into_iter().fold(
        f64::NEG_INFINITY,
        |m, x| if x > m || x.is_nan() { x } else { m },
    )
}

/// `Σ_{i<N} (v_i − v_{i+1})²`.
fn sum_sq_diff(v: &[f64]) -> f64 {
    let mut s = 0.0;
    for w in v.windows(2) {
        let d = w[0] - w[1];
        s += d * d;
    }
    s
}

/// `Σ (v_i² − 5000 cos(0.1π v_i) − 4000)` (problems 1–3).
fn g_cos_5000(v: &[f64]) -> f64 {
    let mut s = 0.0;
    for &x in v {
        s += x * x - 5000.0 * (0.1 * PI * x).cos() - 4000.0;
    }
    s
}

/// `Σ (u_i² − 50 cos(2π u_i) − 40)` (problem 5).
fn g_cos_50(v: &[f64]) -> f64 {
    let mut s = 0.0;
    for &x in v {
        s += x * x - 50.0 * (2.0 * PI * x).cos() - 40.0;
    }
    s
}

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
pub(crate) fn evaluate(id: usize, x: &Coordinates<'_>, c: &mut [f64]) -> f64 {
    let y = x.y;
    let n = y.len() as f64;
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
            let mut h = 0.0;
            for &v in y {
                h += v * (0.1 * PI * v).sin();
            }
            c[1] = -h;
            prefix_square_sum(y.iter().copied())
        }
        4 => {
            let (mut g1, mut g2) = (0.0, 0.0);
            for &v in y {
                g1 += v * (2.0 * v).sin();
                g2 += v * v.sin();
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
            let mut h = [0.0; 6];
            for &v in y {
                let r = 2.0 * v.abs().sqrt();
                h[0] += v * v.sin();
                h[1] += v * (PI * v).sin();
                h[2] += v * v.cos();
                h[3] += v * (PI * v).cos();
                h[4] += v * r.sin();
                h[5] += v * r.sin();
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
            let mut h = 0.0;
            let mut f = 0.0;
            for &v in y {
                h += v - 100.0 * (0.5 * v).cos() + 100.0;
                f += v * v.sin();
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
            let mut g = 1.0;
            for &b in y.iter().skip(1).step_by(2) {
                g *= b;
            }
            c[0] = g;
            let mut h = 0.0;
            let mut prev: Option<f64> = None;
            for &a in y.iter().step_by(2) {
                if let Some(p) = prev {
                    let d = p * p - a;
                    h += d * d;
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
            let mut g = 1.0;
            for &v in y {
                g *= v;
            }
            c[0] = g;
            c[1] = sum_sq_diff(y);
            sum(y)
        }
        12..=19 => base_12_to_19(id, y, n, c),
        20 => {
            let schaffer = |p: f64, q: f64| {
                let r = (p * p + q * q).sqrt();
                let s = r.sin();
                let d = 1.0 + 0.001 * r;
                0.5 + (s * s - 0.5) / (d * d)
            };
            let mut f = 0.0;
            for w in y.windows(2) {
                f += schaffer(w[0], w[1]);
            }
            if let (Some(&first), Some(&last)) = (y.first(), y.last()) {
                f += schaffer(last, first);
            }
            let s = sum(y).cos();
            c[0] = s * s - 0.25 * s - 0.125;
            c[1] = s.exp() - 0.25f64.exp();
            f
        }
        21..=28 => base_12_to_19(id - 9, x.z, n, c),
        _ => f64::NAN,
    }
}

/// Problems 12–19 on the coordinates `v` (`y`, or `z` for 21–28).
fn base_12_to_19(id: usize, v: &[f64], n: f64, c: &mut [f64]) -> f64 {
    match id {
        12 => {
            c[0] = 4.0 - sum_abs(v);
            c[1] = sum_sq(v) - 4.0;
            rastrigin(v)
        }
        13 => {
            c[0] = rastrigin(v) - 100.0;
            let s = sum(v);
            c[1] = s - 2.0 * n;
            c[2] = 5.0 - s;
            rosenbrock(v)
        }
        14 => {
            let ss = sum_sq(v);
            let mut sc = 0.0;
            for &x in v {
                sc += (2.0 * PI * x).cos();
            }
            let mut tail = 0.0;
            for &x in v.iter().skip(1) {
                tail += x * x;
            }
            c[0] = 1.0 - v.first().map_or(0.0, |x| x.abs()) + tail;
            c[1] = ss - 4.0;
            20.0 - 20.0 * (-0.2 * (ss / n).sqrt()).exp() - (sc / n).exp() + E
        }
        15 => {
            let f = max(v.iter().map(|x| x.abs()));
            c[0] = sum_sq(v) - 100.0 * n;
            c[1] = f.cos() + f.sin();
            f
        }
        16 => {
            let f = sum_abs(v);
            c[0] = sum_sq(v) - 100.0 * n;
            let t = f.cos() + f.sin();
            c[1] = t * t - t.exp() - 1.0 + E;
            f
        }
        17 => {
            let ss = sum_sq(v);
            let mut prod = 1.0;
            let mut signs = 0.0;
            for (i, &x) in v.iter().enumerate() {
                prod *= (x / ((i + 1) as f64).sqrt()).cos();
                signs += sign(x.abs() - (ss - x * x) - 1.0);
            }
            c[0] = 1.0 - signs;
            c[1] = ss - 4.0 * n;
            ss / 4000.0 - prod + 1.0
        }
        18 => {
            let mut f = 0.0;
            for &x in v {
                let w = if x.abs() < 0.5 {
                    x
                } else {
                    (2.0 * x).round() / 2.0
                };
                f += w * w - 10.0 * (2.0 * PI * w).cos() + 10.0;
            }
            c[0] = 1.0 - sum_abs(v);
            c[1] = sum_sq(v) - 100.0 * n;
            let mut h1 = 0.0;
            for w in v.windows(2) {
                let d = w[0] * w[0] - w[1];
                h1 += 100.0 * d * d;
            }
            let mut h2 = 1.0;
            for &x in v {
                let s = (PI * (x - 1.0)).sin();
                h2 *= s * s;
            }
            c[2] = h1 + h2;
            f
        }
        19 => {
            let mut f = 0.0;
            for &x in v {
                f += x.abs().sqrt() + 2.0 * (x * x * x).sin();
            }
            let mut g1 = 0.0;
            for w in v.windows(2) {
                g1 += -10.0 * (-0.2 * (w[0] * w[0] + w[1] * w[1]).sqrt()).exp();
            }
            c[0] = g1 + 10.0 * (n - 1.0) / (-5.0f64).exp();
            let mut g2 = 0.0;
            for &x in v {
                let s = (2.0 * x).sin();
                g2 += s * s;
            }
            c[1] = g2 - 0.5 * n;
            f
        }
        _ => f64::NAN,
    }
}
