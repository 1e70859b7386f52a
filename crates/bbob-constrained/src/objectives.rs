//! The nine objective functions of the suite, each with the transformations COCO builds
//! it with (before the constraints are added): its own shift `x_o`, a rotation `R` for
//! the rotated ones, and the offset `f_opt`. Only the pseudo-convex raw functions are
//! used (COCO's step 1), and the non-linear transformations of their BBOB versions are
//! left out here (step 2): they are applied to the whole constrained problem
//! ([`crate::problem`]).
//!
//! | type | functions | `f(y)` (before the offset) |
//! |---|---|---|
//! | 1 sphere | f1–f6 | `‖y − x_o‖²` |
//! | 2 separable ellipsoid | f7–f12 | `Σ 10^{6 i/(n−1)} (y − x_o)_i²` |
//! | 3 linear slope | f13–f18 | `Σ 5|s_i| − s_i y_i`, `s_i = ±10^{i/(n−1)}` (boundary handling as COCO) |
//! | 4 rotated ellipsoid | f19–f24 | ellipsoid of `R(y − x_o)` |
//! | 5 discus | f25–f30 | `10⁶ w₁² + Σ_{i>1} w_i²`, `w = R(y − x_o)` |
//! | 6 bent cigar | f31–f36 | `w₁² + 10⁶ Σ_{i>1} w_i²`, `w = R(y − x_o)` |
//! | 7 different powers | f37–f42 | `√(Σ |w_i|^{2 + 4i/(n−1)})`, `w = R(y − x_o)`, `‖x_o‖ = 10⁻²` |
//! | 8 separable Rastrigin | f43–f48 | `10(n − Σ cos 2π z_i) + ‖z‖²`, `z = y − x_o`, `x_o` integer |
//! | 9 rotated Rastrigin | f49–f54 | the same with `z = R y − x_o` |

use crate::random::{bbob2009_fopt, bbob2009_rotation, bbob2009_unif, bbob2009_xopt};
use std::f64::consts::PI;

/// One of the nine objective types with its instance data.
#[derive(Clone, Debug, PartialEq)]
pub struct Objective {
    kind: Kind,
    /// The shift `x_o` (for Rastrigin: an integer local optimum).
    xopt: Vec<f64>,
    /// The rotation `R`, row-major (rotated types only).
    rotation: Option<Vec<f64>>,
    /// The offset `f_opt`.
    fopt: f64,
    /// Linear slope: COCO's "best parameter" (±5 by the sign of `x_o`).
    best: Vec<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Sphere,
    Ellipsoid,
    LinearSlope,
    RotatedEllipsoid,
    Discus,
    BentCigar,
    DifferentPowers,
    Rastrigin,
    RotatedRastrigin,
}

const CONDITIONING: f64 = 1.0e6;

impl Objective {
    /// The objective of type `kind` (1–9) for the suite's `function` and `instance` in
    /// dimension `dim`, from COCO's seed `rseed = function + 20000 · instance`.
    ///
    /// # Panics
    /// For a type outside 1–9 (the suite maps functions 1–54 onto them).
    #[must_use]
    pub fn new(kind: usize, function: usize, instance: usize, dim: usize) -> Self {
        let rseed = (function + 20_000 * instance) as i64;
        let fopt = bbob2009_fopt(function, instance);
        let rotation = || Some(bbob2009_rotation(rseed + 1_000_000, dim));
        let (kind, xopt, rotation) = match kind {
            1 => (Kind::Sphere, bbob2009_xopt(rseed, dim), None),
            2 => (Kind::Ellipsoid, bbob2009_xopt(rseed, dim), None),
            3 => (Kind::LinearSlope, bbob2009_xopt(rseed, dim), None),
            4 => (
                Kind::RotatedEllipsoid,
                bbob2009_xopt(rseed, dim),
                rotation(),
            ),
            5 => (Kind::Discus, bbob2009_xopt(rseed, dim), rotation()),
            6 => (
                Kind::BentCigar,
                bbob2009_xopt(rseed + 1_000_000, dim),
                rotation(),
            ),
            7 => {
                // The unconstrained optimum at distance 10⁻² from the origin.
                let mut x = bbob2009_xopt(rseed, dim);
                let mut norm = 0.0;
                for v in &x {
                    norm += v * v;
                }
                let norm = f64::sqrt(norm);
                for v in &mut x {
                    *v *= 1e-2 / norm;
                }
                (Kind::DifferentPowers, x, rotation())
            }
            8 => (Kind::Rastrigin, rastrigin_xopt(rseed, dim), None),
            9 => (
                Kind::RotatedRastrigin,
                rastrigin_xopt(rseed, dim),
                rotation(),
            ),
            k => panic!("objective type {k} is not one of 1-9"),
        };
        let best = xopt
            .iter()
            .map(|&v| if v < 0.0 { -5.0 } else { 5.0 })
            .collect();
        Self {
            kind,
            xopt,
            rotation,
            fopt,
            best,
        }
    }

    /// `f(y)` with the offset `f_opt` (no final scaling). `work` holds `n` values.
    #[must_use]
    pub fn value(&self, y: &[f64], work: &mut [f64]) -> f64 {
        let n = y.len();
        let raw = match self.kind {
            Kind::Sphere => {
                shifted(y, &self.xopt, work);
                sphere(work)
            }
            Kind::Ellipsoid => {
                shifted(y, &self.xopt, work);
                ellipsoid(work)
            }
            Kind::LinearSlope => linear_slope(y, &self.best),
            Kind::RotatedEllipsoid | Kind::Discus | Kind::BentCigar | Kind::DifferentPowers => {
                // z = y − x_o, then w = R z (COCO: shift, then the affine map).
                let mut z = [0.0; 64];
                let z = &mut z[..n];
                shifted(y, &self.xopt, z);
                rotate(self.rotation.as_deref().expect("rotation"), z, work);
                match self.kind {
                    Kind::RotatedEllipsoid => ellipsoid(work),
                    Kind::Discus => discus(work),
                    Kind::BentCigar => bent_cigar(work),
                    _ => different_powers(work),
                }
            }
            Kind::Rastrigin => {
                shifted(y, &self.xopt, work);
                rastrigin(work)
            }
            Kind::RotatedRastrigin => {
                // w = R y, then z = w − x_o.
                let mut w = [0.0; 64];
                let w = &mut w[..n];
                rotate(self.rotation.as_deref().expect("rotation"), y, w);
                shifted(w, &self.xopt, work);
                rastrigin(work)
            }
        };
        raw + self.fopt
    }

    /// `∇f(y)` as COCO computes it (the feasible direction of the constraints is
    /// `∇f(0)`).
    #[must_use]
    pub fn gradient(&self, y: &[f64]) -> Vec<f64> {
        let n = y.len();
        let mut z = vec![0.0; n];
        match self.kind {
            Kind::Sphere => {
                shifted(y, &self.xopt, &mut z);
                z.iter().map(|&v| 2.0 * v).collect()
            }
            Kind::Ellipsoid => {
                shifted(y, &self.xopt, &mut z);
                ellipsoid_gradient(&z)
            }
            Kind::LinearSlope => (0..n).map(|i| -slope(i, n, self.best[i])).collect(),
            Kind::RotatedEllipsoid | Kind::Discus | Kind::BentCigar | Kind::DifferentPowers => {
                let r = self.rotation.as_deref().expect("rotation");
                shifted(y, &self.xopt, &mut z);
                let mut w = vec![0.0; n];
                rotate(r, &z, &mut w);
                let inner = match self.kind {
                    Kind::RotatedEllipsoid => ellipsoid_gradient(&w),
                    Kind::Discus => {
                        let mut g: Vec<f64> = w.iter().map(|&v| 2.0 * v).collect();
                        g[0] = CONDITIONING * 2.0 * w[0];
                        g
                    }
                    Kind::BentCigar => {
                        let mut g: Vec<f64> = w.iter().map(|&v| 2.0 * CONDITIONING * v).collect();
                        g[0] = 2.0 * w[0];
                        g
                    }
                    _ => different_powers_gradient(&w),
                };
                transposed(r, &inner)
            }
            Kind::Rastrigin => {
                shifted(y, &self.xopt, &mut z);
                rastrigin_gradient(&z)
            }
            Kind::RotatedRastrigin => {
                let r = self.rotation.as_deref().expect("rotation");
                let mut w = vec![0.0; n];
                rotate(r, y, &mut w);
                shifted(&w, &self.xopt, &mut z);
                transposed(r, &rastrigin_gradient(&z))
            }
        }
    }
}

/// COCO's `f_rastrigin_cons_compute_xopt`: integer coordinates `trunc(10u − 5)`, and
/// `(i mod 9) − 4` if all were 0.
fn rastrigin_xopt(rseed: i64, dim: usize) -> Vec<f64> {
    let mut x: Vec<f64> = bbob2009_unif(dim, rseed)
        .into_iter()
        .map(|u| f64::from((10.0 * u - 5.0) as i32))
        .collect();
    if x.iter().all(|&v| v == 0.0) {
        for (i, v) in x.iter_mut().enumerate() {
            *v = (i % 9) as f64 - 4.0;
        }
    }
    x
}

fn shifted(y: &[f64], offset: &[f64], out: &mut [f64]) {
    for ((o, &a), &b) in out.iter_mut().zip(y).zip(offset) {
        *o = a - b;
    }
}

/// `out = R x` accumulated as COCO's affine map (from `b = 0`, in column order).
fn rotate(r: &[f64], x: &[f64], out: &mut [f64]) {
    let n = x.len();
    for (i, o) in out.iter_mut().enumerate() {
        let row = &r[i * n..(i + 1) * n];
        let mut s = 0.0;
        for (a, b) in x.iter().zip(row) {
            s += a * b;
        }
        *o = s;
    }
}

/// `Rᵀ g`, accumulated as COCO's affine gradient.
fn transposed(r: &[f64], g: &[f64]) -> Vec<f64> {
    let n = g.len();
    (0..n)
        .map(|j| {
            let mut s = 0.0;
            for (i, gi) in g.iter().enumerate() {
                s += gi * r[i * n + j];
            }
            s
        })
        .collect()
}

fn sphere(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in x {
        s += v * v;
    }
    s
}

fn exponent(i: usize, n: usize) -> f64 {
    i as f64 / (n as f64 - 1.0)
}

fn ellipsoid(x: &[f64]) -> f64 {
    let n = x.len();
    let mut s = x[0] * x[0];
    for (i, v) in x.iter().enumerate().skip(1) {
        s += CONDITIONING.powf(1.0 * exponent(i, n)) * v * v;
    }
    s
}

fn ellipsoid_gradient(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    x.iter()
        .enumerate()
        .map(|(i, v)| 2.0 * CONDITIONING.powf(1.0 * exponent(i, n)) * v)
        .collect()
}

/// `s_i` of the linear slope.
fn slope(i: usize, n: usize, best: f64) -> f64 {
    let base = 100f64.sqrt();
    let s = base.powf(exponent(i, n));
    if best > 0.0 {
        s
    } else {
        -s
    }
}

fn linear_slope(x: &[f64], best: &[f64]) -> f64 {
    let n = x.len();
    let mut r = 0.0;
    for i in 0..n {
        let s = slope(i, n, best[i]);
        if x[i] * best[i] < 25.0 {
            r += 5.0 * s.abs() - s * x[i];
        } else {
            r += 5.0 * s.abs() - s * best[i];
        }
    }
    r
}

fn discus(x: &[f64]) -> f64 {
    let mut s = CONDITIONING * x[0] * x[0];
    for v in &x[1..] {
        s += v * v;
    }
    s
}

fn bent_cigar(x: &[f64]) -> f64 {
    let mut s = x[0] * x[0];
    for v in &x[1..] {
        s += CONDITIONING * v * v;
    }
    s
}

fn power(i: usize, n: usize) -> f64 {
    2.0 + (4.0 * i as f64) / (n as f64 - 1.0)
}

fn different_powers(x: &[f64]) -> f64 {
    let n = x.len();
    let mut s = 0.0;
    for (i, v) in x.iter().enumerate() {
        s += v.abs().powf(power(i, n));
    }
    s.sqrt()
}

fn different_powers_gradient(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let mut sum = 0.0;
    for (i, v) in x.iter().enumerate() {
        sum += v.abs().powf(power(i, n));
    }
    let sign = |v: f64| {
        if v > 0.0 {
            1.0
        } else if v < 0.0 {
            -1.0
        } else {
            0.0
        }
    };
    x.iter()
        .enumerate()
        .map(|(i, &v)| {
            let aux = power(i, n);
            let y = 0.5 * aux / sum;
            y * (v.abs().powf(aux - 1.0) * sign(v))
        })
        .collect()
}

fn rastrigin(x: &[f64]) -> f64 {
    let (mut s1, mut s2) = (0.0, 0.0);
    for v in x {
        s1 += (2.0 * PI * v).cos();
        s2 += v * v;
    }
    if s2.is_infinite() {
        return s2;
    }
    10.0 * (x.len() as f64 - s1) + s2
}

fn rastrigin_gradient(x: &[f64]) -> Vec<f64> {
    x.iter()
        .map(|&v| 2.0 * (10.0 * PI * (2.0 * PI * v).sin() + v))
        .collect()
}
