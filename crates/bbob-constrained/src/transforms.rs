//! The non-linear transformations COCO applies to a whole constrained problem
//! (objective and constraints alike), and their numerical inverses, with which the
//! suite's initial solution is mapped into the transformed space.
//!
//! - `T_osz` (oscillation, COCO's `tosz_uv`): `x ↦ sign(x) exp(x̂ + 0.049 (sin c₁x̂ + sin c₂x̂))`
//!   with `x̂ = ln|x|` — here in COCO's form with `α = 0.1`: `(exp(ln|x|/α + 0.49(…)))^α`.
//! - `T_asy^β` (asymmetry, `tasy_uv`): `x_i ↦ x_i^{1 + β (i/(n−1)) √x_i}` for `x_i > 0`.
//!
//! The inverses use COCO's `brentinv`: a bracket found by halving or doubling from `y`,
//! then Brent's method (`brentq`, after SciPy's, tolerances `10⁻¹⁴` absolute and
//! `10⁻¹⁰` relative, at most 200 iterations) — reproduced step by step, so the initial
//! solutions equal cocoex's.

/// The oscillation's `α` (COCO uses 0.1 for the constrained suite).
const ALPHA: f64 = 0.1;

/// `T_osz` of one coordinate (COCO's `tosz_uv` with `α = 0.1`).
#[must_use]
pub fn oscillate(x: f64) -> f64 {
    if x > 0.0 {
        let tmp = x.ln() / ALPHA;
        let base = (tmp + 0.49 * (tmp.sin() + (0.79 * tmp).sin())).exp();
        base.powf(ALPHA)
    } else if x < 0.0 {
        let tmp = (-x).ln() / ALPHA;
        let base = (tmp + 0.49 * ((0.55 * tmp).sin() + (0.31 * tmp).sin())).exp();
        -base.powf(ALPHA)
    } else {
        0.0
    }
}

/// `T_asy^β` of coordinate `i` of `n` (COCO's `tasy_uv`).
#[must_use]
pub fn asymmetric(x: f64, beta: f64, i: usize, n: usize) -> f64 {
    if x > 0.0 {
        let exponent = 1.0 + ((beta * i as f64) / (n as f64 - 1.0)) * x.sqrt();
        x.powf(exponent)
    } else {
        x
    }
}

/// `x` with `f(x) = y` for a monotone `f` with `f(0) = 0` (COCO's `brentinv`).
pub fn inverse(f: impl Fn(f64) -> f64, y: f64) -> f64 {
    let mut fval = f(y);
    let (mut xmin, mut xmax) = (y, y);
    if y > 0.0 {
        if fval > y {
            while fval > y {
                xmin /= 2.0;
                fval = f(xmin);
            }
        } else {
            while fval < y {
                xmax *= 2.0;
                fval = f(xmax);
            }
        }
    } else if fval > y {
        while fval > y {
            xmin *= 2.0;
            fval = f(xmin);
        }
    } else {
        while fval < y {
            xmax /= 2.0;
            fval = f(xmax);
        }
    }
    brentq(&f, y, xmin, xmax, 1e-14, 1e-10, 200)
}

/// A root of `f(x) − y` in `[xa, xb]` by Brent's method, step for step as COCO's
/// `brentq` (NaN if the bracket has no sign change).
#[allow(clippy::float_cmp, clippy::many_single_char_names)]
fn brentq(
    f: &impl Fn(f64) -> f64,
    y: f64,
    xa: f64,
    xb: f64,
    xtol: f64,
    rtol: f64,
    iter: usize,
) -> f64 {
    let (mut xpre, mut xcur) = (xa, xb);
    let (mut xblk, mut fblk, mut spre, mut scur) = (0.0, 0.0, 0.0, 0.0);
    let mut fpre = f(xpre) - y;
    let mut fcur = f(xcur) - y;
    if fpre * fcur > 0.0 {
        return f64::NAN;
    }
    if fpre == 0.0 {
        return xpre;
    }
    if fcur == 0.0 {
        return xcur;
    }
    let signbit = |v: f64| v < 0.0;
    for _ in 0..iter {
        if fpre != 0.0 && fcur != 0.0 && signbit(fpre) != signbit(fcur) {
            xblk = xpre;
            fblk = fpre;
            spre = xcur - xpre;
            scur = spre;
        }
        if fblk.abs() < fcur.abs() {
            xpre = xcur;
            xcur = xblk;
            xblk = xpre;
            fpre = fcur;
            fcur = fblk;
            fblk = fpre;
        }
        let delta = (xtol + rtol * xcur.abs()) / 2.0;
        let sbis = (xblk - xcur) / 2.0;
        if fcur == 0.0 || sbis.abs() < delta {
            return xcur;
        }
        if spre.abs() > delta && fcur.abs() < fpre.abs() {
            let stry = if xpre == xblk {
                // interpolate
                -fcur * (xcur - xpre) / (fcur - fpre)
            } else {
                // extrapolate
                let dpre = (fpre - fcur) / (xpre - xcur);
                let dblk = (fblk - fcur) / (xblk - xcur);
                -fcur * (fblk * dblk - fpre * dpre) / (dblk * dpre * (fblk - fpre))
            };
            if 2.0 * stry.abs() < spre.abs().min(3.0 * sbis.abs() - delta) {
                spre = scur;
                scur = stry;
            } else {
                spre = sbis;
                scur = sbis;
            }
        } else {
            spre = sbis;
            scur = sbis;
        }
        xpre = xcur;
        fpre = fcur;
        if scur.abs() > delta {
            xcur += scur;
        } else {
            xcur += if sbis > 0.0 { delta } else { -delta };
        }
        fcur = f(xcur) - y;
    }
    xcur
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_inverses_invert() {
        for y in [-4.9, -1.0, -1e-3, 1e-3, 0.3, 2.0, 4.9] {
            let x = inverse(oscillate, y);
            assert!((oscillate(x) - y).abs() < 1e-9 * y.abs().max(1.0), "{y}");
            let x = inverse(|v| asymmetric(v, 0.2, 3, 5), y);
            assert!(
                (asymmetric(x, 0.2, 3, 5) - y).abs() < 1e-9 * y.abs().max(1.0),
                "{y}"
            );
        }
        assert_eq!(oscillate(0.0), 0.0);
        assert_eq!(asymmetric(-2.0, 0.2, 4, 5), -2.0);
    }
}
