//! The few numerical routines the problems need, small and dense, in pure Rust: a
//! Cholesky solve (RC33's finite elements), the eigenvalues of a symmetric-definite
//! pencil (RC27's natural frequencies), and the organisers' one-dimensional minimiser —
//! Octave's `fminbnd` step for step, in complex arithmetic with Octave's ordering of
//! complex numbers (RC24's gripper forces, whose objective turns complex where the
//! linkage cannot close).

use constraint_handling::autodiff::Scalar;
use num_complex::Complex64 as C64;

/// Factors a symmetric positive definite `A` (`n × n`, row-major) as `L Lᵀ` in place:
/// `L` in the lower triangle, zeros above it. `false` if `A` is not positive definite
/// (a non-positive or NaN pivot).
fn cholesky_factor<T: Scalar>(a: &mut [T], n: usize) -> bool {
    for j in 0..n {
        let mut d = a[j * n + j];
        for k in 0..j {
            d -= a[j * n + k] * a[j * n + k];
        }
        if d.is_nan() || d <= 0.0 {
            return false;
        }
        let d = d.sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = s / d;
        }
        for i in 0..j {
            a[i * n + j] = T::zero();
        }
    }
    true
}

/// Solves `A z = b` for a symmetric positive definite `A` (`n × n`, row-major) by
/// Cholesky factorisation in place; `b` becomes `z`. `false` if `A` is not positive
/// definite (a non-positive pivot).
pub(crate) fn cholesky_solve<T: Scalar>(a: &mut [T], b: &mut [T], n: usize) -> bool {
    if !cholesky_factor(a, n) {
        return false;
    }
    for i in 0..n {
        let mut s = b[i];
        for k in 0..i {
            s -= a[i * n + k] * b[k];
        }
        b[i] = s / a[i * n + i];
    }
    for i in (0..n).rev() {
        let mut s = b[i];
        for k in i + 1..n {
            s -= a[k * n + i] * b[k];
        }
        b[i] = s / a[i * n + i];
    }
    true
}

/// Solves `A z = b` (`n × n`, row-major) by Gaussian elimination with partial pivoting,
/// destroying `a`; `b` becomes `z` (non-finite where `A` is singular).
pub(crate) fn lu_solve<T: Scalar>(a: &mut [T], b: &mut [T], n: usize) {
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&i, &j| a[i * n + col].abs().total_cmp(&a[j * n + col].abs()))
            .unwrap_or(col);
        if pivot != col {
            for j in 0..n {
                a.swap(col * n + j, pivot * n + j);
            }
            b.swap(col, pivot);
        }
        let d = a[col * n + col];
        for i in col + 1..n {
            let factor = a[i * n + col] / d;
            if factor == 0.0 {
                continue;
            }
            for j in col..n {
                a[i * n + j] -= factor * a[col * n + j];
            }
            b[i] -= factor * b[col];
        }
    }
    for i in (0..n).rev() {
        let mut s = b[i];
        for j in i + 1..n {
            s -= a[i * n + j] * b[j];
        }
        b[i] = s / a[i * n + i];
    }
}

/// The eigenvalues, ascending, of the pencil `K v = λ M v` with `K` symmetric and `M`
/// symmetric positive definite (`n × n`, row-major): `M = L Lᵀ`, then the cyclic Jacobi
/// method on `L⁻¹ K L⁻ᵀ`. `None` if `M` is not positive definite.
pub(crate) fn generalized_eigenvalues<T: Scalar>(k: &[T], m: &[T], n: usize) -> Option<Vec<T>> {
    // Cholesky factor L of M (lower, row-major).
    let mut l = m.to_vec();
    if !cholesky_factor(&mut l, n) {
        return None;
    }
    // Y = L⁻¹ K (forward substitution on each column), then C = L⁻¹ Yᵀ = L⁻¹ K L⁻ᵀ.
    let solve_lower = |rhs: &mut [T], col: usize, mat: &mut Vec<T>| {
        for i in 0..n {
            let mut s = rhs[i * n + col];
            for p in 0..i {
                s -= l[i * n + p] * mat[p * n + col];
            }
            mat[i * n + col] = s / l[i * n + i];
        }
    };
    let mut kk = k.to_vec();
    let mut y = vec![T::zero(); n * n];
    for col in 0..n {
        solve_lower(&mut kk, col, &mut y);
    }
    let mut yt = vec![T::zero(); n * n];
    for i in 0..n {
        for j in 0..n {
            yt[i * n + j] = y[j * n + i];
        }
    }
    let mut c = vec![T::zero(); n * n];
    for col in 0..n {
        solve_lower(&mut yt, col, &mut c);
    }
    // symmetrise against rounding
    for i in 0..n {
        for j in i + 1..n {
            let s = (c[i * n + j] + c[j * n + i]) * 0.5;
            c[i * n + j] = s;
            c[j * n + i] = s;
        }
    }
    let mut ev = jacobi_eigenvalues(&mut c, n);
    ev.sort_by(T::total_cmp);
    Some(ev)
}

/// Eigenvalues of a symmetric matrix by cyclic Jacobi rotations (destroys `a`): an
/// off-diagonal entry negligible against both its diagonal entries (it would not change
/// them in floating point) is set to zero; the sweeps end when all are zero.
fn jacobi_eigenvalues<T: Scalar>(a: &mut [T], n: usize) -> Vec<T> {
    for sweep in 0..64 {
        let mut rotated = false;
        for p in 0..n {
            for q in p + 1..n {
                let apq = a[p * n + q];
                if apq == 0.0 {
                    continue;
                }
                let (app, aqq) = (a[p * n + p], a[q * n + q]);
                let small = apq.abs() * 100.0;
                if sweep > 3 && app.abs() + small == app.abs() && aqq.abs() + small == aqq.abs() {
                    a[p * n + q] = T::zero();
                    a[q * n + p] = T::zero();
                    continue;
                }
                if !apq.is_finite() || !app.is_finite() || !aqq.is_finite() {
                    return vec![T::from(f64::NAN); n];
                }
                rotated = true;
                let theta = (aqq - app) / (apq * 2.0);
                let t = if theta == 0.0 {
                    T::from(1.0)
                } else {
                    theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt())
                };
                let cs = T::from(1.0) / (t * t + 1.0).sqrt();
                let sn = t * cs;
                for r in 0..n {
                    let arp = a[r * n + p];
                    let arq = a[r * n + q];
                    a[r * n + p] = cs * arp - sn * arq;
                    a[r * n + q] = sn * arp + cs * arq;
                }
                for r in 0..n {
                    let apr = a[p * n + r];
                    let aqr = a[q * n + r];
                    a[p * n + r] = cs * apr - sn * aqr;
                    a[q * n + r] = sn * apr + cs * aqr;
                }
            }
        }
        if !rotated {
            break;
        }
    }
    (0..n).map(|i| a[i * n + i]).collect()
}

// ---- Octave's complex arithmetic semantics -------------------------------------------

/// A value is "real" in Octave when its imaginary part is zero (Octave narrows such
/// complex results to real).
#[inline]
fn is_real(z: C64) -> bool {
    z.im == 0.0
}

fn oct_arg(z: C64) -> f64 {
    z.im.atan2(z.re)
}

/// Octave's `a < b`: real numbers compare as reals; otherwise by modulus, then by
/// argument (with −π counted as π).
fn lt(a: C64, b: C64) -> bool {
    if is_real(a) && is_real(b) {
        return a.re < b.re;
    }
    let (ax, bx) = (a.norm(), b.norm());
    if ax == bx {
        let pi = std::f64::consts::PI;
        let fix = |t: f64| if t == -pi { pi } else { t };
        fix(oct_arg(a)) < fix(oct_arg(b))
    } else {
        ax < bx
    }
}

fn le(a: C64, b: C64) -> bool {
    lt(a, b) || a == b
}

/// Octave's `sign` (`z/|z|` for complex `z`, 0 at 0).
fn sign(z: C64) -> C64 {
    if is_real(z) {
        C64::new(
            if z.re > 0.0 {
                1.0
            } else if z.re < 0.0 {
                -1.0
            } else {
                0.0
            },
            0.0,
        )
    } else {
        z / z.norm()
    }
}

/// Octave's `min (a, b)` of two scalars: the smaller by [`lt`]; NaN loses.
fn min(a: C64, b: C64) -> C64 {
    if a.re.is_nan() || a.im.is_nan() {
        return b;
    }
    if b.re.is_nan() || b.im.is_nan() {
        return a;
    }
    if lt(b, a) {
        b
    } else {
        a
    }
}

fn bool_c(b: bool) -> C64 {
    C64::new(if b { 1.0 } else { 0.0 }, 0.0)
}

/// Octave 7's `fminbnd (fun, a, b)` with its defaults (`TolX` 1e-4, at most 500
/// iterations and evaluations): golden-section search with parabolic interpolation,
/// transcribed step for step (including its use of `eps`, not `√eps`, in the tolerance),
/// over Octave's complex semantics so that a function with complex values follows the
/// same path as under Octave. Returns the function value at the final point.
pub(crate) fn fminbnd(fun: impl Fn(C64) -> C64, a: f64, b: f64) -> C64 {
    let (mut a, mut b) = (C64::new(a, 0.0), C64::new(b, 0.0));
    let tolx = 1e-4;
    let (maxiter, maxfev) = (500, 500);
    let c = 0.5 * (3.0 - 5f64.sqrt());
    let mut v = a + c * (b - a);
    let mut w = v;
    let mut x = v;
    let mut e = C64::new(0.0, 0.0);
    let mut d = C64::new(0.0, 0.0);
    let mut fval = fun(x);
    let (mut fv, mut fw) = (fval, fval);
    let mut nfev = 1;
    let mut niter = 0;
    let sqrteps = f64::EPSILON;
    while niter < maxiter && nfev < maxfev {
        let xm = 0.5 * (a + b);
        let tol = 2.0 * sqrteps * x.norm() + tolx / 3.0;
        let tolc = C64::new(tol, 0.0);
        if le(C64::new((x - xm).norm(), 0.0), 2.0 * tolc - 0.5 * (b - a)) {
            break;
        }
        let mut dogs = true;
        if e.norm() > tol {
            dogs = false;
            let mut r = (x - w) * (fval - fv);
            let mut q = (x - v) * (fval - fw);
            let mut p = (x - v) * q - (x - w) * r;
            q = 2.0 * (q - r);
            p *= -sign(q);
            q = C64::new(q.norm(), 0.0);
            r = e;
            e = d;
            if p.norm() < (0.5 * q * r).norm() && lt(q * (a - x), p) && lt(p, q * (b - x)) {
                d = p / q;
                let u = x + d;
                if lt(min(u - a, b - u), 2.0 * tolc) {
                    d = tol * (sign(xm - x) + bool_c(xm == x));
                }
            } else {
                dogs = true;
            }
        }
        if dogs {
            // ifelse (x >= xm, a - x, b - x)
            e = if le(xm, x) { a - x } else { b - x };
            d = c * e;
        }
        let step = if d.norm() > tol { d.norm() } else { tol };
        let u = x + step * (sign(d) + bool_c(d == C64::new(0.0, 0.0)));
        let fu = fun(u);
        niter += 1;
        nfev += 1;
        if lt(fu, fval) {
            if lt(u, x) {
                b = x;
            } else {
                a = x;
            }
            v = w;
            fv = fw;
            w = x;
            fw = fval;
            x = u;
            fval = fu;
        } else {
            if lt(u, x) {
                a = u;
            } else {
                b = u;
            }
            if le(fu, fw) || w == x {
                v = w;
                fv = fw;
                w = u;
                fw = fu;
            } else if le(fu, fv) || v == x || v == w {
                v = u;
                fv = fu;
            }
        }
    }
    fval
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cholesky_solves_a_small_system() {
        let mut a = vec![4.0, 2.0, 2.0, 3.0];
        let mut b = vec![2.0, 1.0];
        assert!(cholesky_solve(&mut a, &mut b, 2));
        assert!((b[0] - 0.5).abs() < 1e-15 && b[1].abs() < 1e-15);
        let mut bad = vec![1.0, 2.0, 2.0, 1.0];
        assert!(!cholesky_solve(&mut bad, &mut [1.0, 1.0], 2));
    }

    #[test]
    fn pencil_eigenvalues_of_a_diagonal_pair() {
        let k = [2.0, 0.0, 0.0, 12.0];
        let m = [1.0, 0.0, 0.0, 4.0];
        let ev = generalized_eigenvalues(&k, &m, 2).unwrap();
        assert!((ev[0] - 2.0).abs() < 1e-14 && (ev[1] - 3.0).abs() < 1e-14);
    }

    #[test]
    fn fminbnd_finds_a_parabola_minimum() {
        let f = fminbnd(|z| (z - 2.0) * (z - 2.0) + 1.0, 0.0, 5.0);
        assert!((f.re - 1.0).abs() < 1e-8 && f.im == 0.0);
    }
}
