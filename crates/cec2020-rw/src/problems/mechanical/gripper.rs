//! The robot gripper RC24: the range of its linkage's gripping force over the
//! actuator's stroke, with Octave's complex `acos` outside [−1, 1].

use crate::numerics::fminbnd;
use crate::problems::Out;
use num_complex::Complex64 as C64;
use std::f64::consts::PI;

crate::problems::formulas! {
/// Octave's `acos` of a real argument: real inside [−1, 1], else complex
/// (`i·acosh x` above 1, `π − i·acosh|x|` below −1).
fn acos_real(v: f64) -> C64 {
    if v > 1.0 {
        C64::new(0.0, v.acosh())
    } else if v < -1.0 {
        C64::new(PI, -(-v).acosh())
    } else {
        C64::new(v.acos(), 0.0)
    }
}

/// Octave's `acos` of a real argument where it is real (inside [−1, 1], or NaN), `None`
/// where it is complex ([`acos_real`]'s imaginary part is not zero).
#[allow(clippy::manual_range_contains)] // a NaN argument is real (NaN) in Octave
fn acos_where_real(v: R) -> Option<R> {
    if v > 1.0 || v < -1.0 {
        None
    } else {
        Some(v.acos())
    }
}

/// The gripping force of RC24's linkage at actuator displacement `z`, as the
/// organisers' `OBJ11`: real arithmetic while everything is real (as Octave computes
/// it), complex where the linkage cannot close (`acos` of an argument beyond ±1) or `z`
/// itself has become complex in the search.
fn gripper_force(x: &[f64], z: C64) -> C64 {
    let (a, b, c, e, l) = (x[0], x[1], x[2], x[3], x[5]);
    let p: f64 = 100.0;
    if z.im == 0.0 {
        let lz = l - z.re;
        let root = (lz.powf(2.0) + e.powf(2.0)).sqrt();
        let arg_a = (a.powf(2.0) + lz.powf(2.0) + e.powf(2.0) - b.powf(2.0)) / (2.0 * a * root);
        let arg_b = (b.powf(2.0) + lz.powf(2.0) + e.powf(2.0) - a.powf(2.0)) / (2.0 * b * root);
        let (alpha, beta) = (acos_real(arg_a), acos_real(arg_b));
        if alpha.im == 0.0 && beta.im == 0.0 {
            let (alpha, beta) = (alpha.re, beta.re);
            return C64::new(
                p * b * (alpha + beta).sin() / (2.0 * c * (alpha + (e / lz).atan()).cos()),
                0.0,
            );
        }
        let num = p * b * (alpha + beta).sin();
        return num / (2.0 * c * (alpha + (e / lz).atan()).cos());
    }
    let lz = l - z;
    let root = (lz * lz + e * e).sqrt();
    let alpha = ((a * a + lz * lz + e * e - b * b) / (2.0 * a * root)).acos();
    let beta = ((b * b + lz * lz + e * e - a * a) / (2.0 * b * root)).acos();
    p * b * (alpha + beta).sin() / (2.0 * c * (alpha + (e / lz).atan()).cos())
}

/// RC24. Robot gripper: f = max_z F(z) − min_z F(z), the range of the gripping force
/// over the actuator's stroke z ∈ [0, Z_max], each extreme found by Octave's `fminbnd`
/// as the organisers' code finds it (so f can be 0 where the search never leaves its
/// first point); 7 inequalities. Where f or a constraint is complex (the linkage cannot
/// close), it is 10⁴, as in the code.
pub(crate) fn rc24(x: &[R], g: &mut [R], _h: &mut [R]) -> Out<R> {
    let (a, b, c, e, ff, l, delta) = (x[0], x[1], x[2], x[3], x[4], x[5], x[6]);
    let (Ymin, Ymax, YG, Zmax) = (50.0, 100.0, 150.0, 99.9999);
    // the objective is a minimiser's result (fminbnd), computed over the values: its
    // derivative is not defined through the search, and no Jacobian needs it
    let values: [f64; 7] = std::array::from_fn(|i| x[i].re());
    let min_force = fminbnd(|z| gripper_force(&values, z), 0.0, Zmax);
    let max_force = fminbnd(|z| -gripper_force(&values, z), 0.0, Zmax);
    let fc = -max_force - min_force;
    let f = R::from(if fc.im != 0.0 { 1e4 } else { fc.re });
    let lm = l - Zmax;
    let beta_0 = acos_where_real(
        (b.powf(2.0) + l.powf(2.0) + e.powf(2.0) - a.powf(2.0))
            / (2.0 * b * (l.powf(2.0) + e.powf(2.0)).sqrt()),
    )
    .map(|beta| beta - (e / l).atan());
    let beta_m = acos_where_real(
        (b.powf(2.0) + lm.powf(2.0) + e.powf(2.0) - a.powf(2.0))
            / (2.0 * b * (lm.powf(2.0) + e.powf(2.0)).sqrt()),
    )
    .map(|beta| beta - (e / lm).atan());
    // Y_x = 2(e + f + c·sin(β + δ)), real where β is; 10⁴ where it is complex
    let y_x = |beta: Option<R>| beta.map(|beta| 2.0 * (e + ff + c * (beta + delta).sin()));
    match y_x(beta_m) {
        Some(y) => (g[0], g[1]) = (y - Ymin, -y),
        None => (g[0], g[1]) = (R::from(1e4), R::from(1e4)),
    }
    match y_x(beta_0) {
        Some(y) => (g[2], g[3]) = (Ymax - y, y - YG),
        None => (g[2], g[3]) = (R::from(1e4), R::from(1e4)),
    }
    g[4] = l.powf(2.0) + e.powf(2.0) - (a + b).powf(2.0);
    g[5] = b.powf(2.0) - (a - e).powf(2.0) - (l - Zmax).powf(2.0);
    g[6] = Zmax - l;
    Ok(f)
}
}
