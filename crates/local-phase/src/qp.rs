//! Strictly convex quadratic programs, by the dual active-set method of Goldfarb and
//! Idnani (1983):
//!
//! ```text
//! minimise ½ xᵀ G x + aᵀ x   subject to   cᵢᵀ x = bᵢ  (i < meq),   cᵢᵀ x ≥ bᵢ  (i ≥ meq),
//! ```
//!
//! with `G` symmetric positive definite. The method starts at the unconstrained minimum
//! `x = −G⁻¹ a` and adds the most violated constraint (scaled by `‖cᵢ‖`) one at a time,
//! keeping the iterate optimal for the active set: a primal step `z` in the null space
//! of the active constraints (in the metric of `G`) and a dual step `r` on the active
//! multipliers; a constraint whose multiplier would turn negative is dropped (a partial
//! step). The active set is held through `J = L⁻ᵀ Q` and the triangular `R` of
//! `Lᵀ⁻¹ N = Q R` (`G = L Lᵀ`, `N` the active normals), updated by Givens rotations, so
//! each change costs `O(n²)`. A violated constraint that no step can satisfy
//! (`z = 0` and no active inequality left to drop) proves the program infeasible.
//!
//! ```
//! use local_phase::qp::{Qp, QpError};
//! // min ½‖x‖² − x₁ − x₂  s.t.  x₁ + x₂ = 1,  x₁ ≥ 0.8
//! let mut qp = Qp::new(2, 2);
//! let x = qp
//!     .solve(&[1.0, 0.0, 0.0, 1.0], &[-1.0, -1.0], &[1.0, 1.0, 1.0, 0.0], &[1.0, 0.8], 1)
//!     .unwrap();
//! assert!((x[0] - 0.8).abs() < 1e-12 && (x[1] - 0.2).abs() < 1e-12);
//! // x₁ ≥ 1 and −x₁ ≥ 0 cannot both hold
//! let infeasible = qp.solve(&[1.0, 0.0, 0.0, 1.0], &[0.0; 2], &[1.0, 0.0, -1.0, 0.0], &[1.0, 0.0], 0);
//! assert!(matches!(infeasible, Err(QpError::Infeasible { .. })));
//! ```

/// Why a quadratic program has no solution here.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum QpError {
    /// `G` is not (numerically) positive definite.
    #[error("the Hessian is not positive definite (Cholesky pivot {pivot} is {value:e})")]
    NotPositiveDefinite {
        /// The failing pivot's index.
        pivot: usize,
        /// Its value.
        value: f64,
    },
    /// The constraints have no common point.
    #[error("the constraints are infeasible (constraint {constraint} cannot be satisfied)")]
    Infeasible {
        /// The constraint that could not be added.
        constraint: usize,
    },
    /// The arrays do not fit `n` variables and the given constraints.
    #[error("quadratic program: {0}")]
    Shape(String),
    /// The iteration limit was reached (cycling from rounding).
    #[error("quadratic program: no solution after {0} iterations")]
    IterationLimit(usize),
}

/// A solver with its workspace for programs of up to `n` variables and `m` constraints
/// (reused from one solve to the next: a solve allocates nothing once the sizes are
/// reached).
#[derive(Clone, Debug, Default)]
pub struct Qp {
    /// `J` (`n × n`, row-major).
    j: Vec<f64>,
    /// `R` (`n × n`, row-major, upper triangular in its first `q` columns).
    r: Vec<f64>,
    /// The Cholesky factor `L` (row-major, lower).
    l: Vec<f64>,
    x: Vec<f64>,
    d: Vec<f64>,
    z: Vec<f64>,
    rr: Vec<f64>,
    np: Vec<f64>,
    /// The active constraints, with the sign `±1` an equality was added with.
    active: Vec<(usize, f64)>,
    /// Their multipliers.
    u: Vec<f64>,
    /// The multipliers of all constraints, in the caller's order and signs.
    multipliers: Vec<f64>,
    is_active: Vec<bool>,
}

impl Qp {
    /// A solver sized for `n` variables and `m` constraints (it grows when asked for
    /// more).
    #[must_use]
    pub fn new(n: usize, m: usize) -> Self {
        let mut qp = Self::default();
        qp.reserve(n, m);
        qp
    }

    fn reserve(&mut self, n: usize, m: usize) {
        self.j.resize(n * n, 0.0);
        self.r.resize(n * n, 0.0);
        self.l.resize(n * n, 0.0);
        for v in [
            &mut self.x,
            &mut self.d,
            &mut self.z,
            &mut self.rr,
            &mut self.np,
        ] {
            v.resize(n, 0.0);
        }
        self.multipliers.resize(m, 0.0);
        self.is_active.resize(m, false);
        self.active.reserve(n);
        self.u.reserve(n + 1);
    }

    /// The Lagrange multipliers `λ` of the last solution, one per constraint: the
    /// solution satisfies `G x + a = Σᵢ λᵢ cᵢ`, with `λᵢ ≥ 0` for the inequalities and
    /// `λᵢ = 0` for the inactive ones.
    #[must_use]
    pub fn multipliers(&self) -> &[f64] {
        &self.multipliers
    }

    /// Solves the program: `g` is `G` (`n × n`, row-major), `a` has `n` entries, `c`
    /// holds the constraint normals `cᵢ` as rows (`m × n`, row-major), `b` their right
    /// sides (`m`), the first `meq` of them equalities. Returns `x`.
    ///
    /// # Errors
    /// [`QpError::Shape`] for arrays that do not fit, [`QpError::NotPositiveDefinite`],
    /// [`QpError::Infeasible`], [`QpError::IterationLimit`].
    #[allow(clippy::many_single_char_names)]
    pub fn solve(
        &mut self,
        g: &[f64],
        a: &[f64],
        c: &[f64],
        b: &[f64],
        meq: usize,
    ) -> Result<&[f64], QpError> {
        let n = a.len();
        let m = b.len();
        if g.len() != n * n || c.len() != m * n || meq > m || n == 0 {
            return Err(QpError::Shape(format!(
                "G has {} entries, a {n}, C {}, b {m}, meq {meq} (need G n × n, C m × n, meq ≤ m, n ≥ 1)",
                g.len(),
                c.len()
            )));
        }
        self.reserve(n, m);
        self.multipliers[..m].fill(0.0);
        self.is_active[..m].fill(false);
        self.active.clear();
        self.u.clear();
        self.factor(g, n)?;
        // x = −G⁻¹ a = −J Jᵀ a, with J = L⁻ᵀ.
        for i in 0..n {
            self.d[i] = (0..n).map(|k| self.j[k * n + i] * a[k]).sum();
        }
        for i in 0..n {
            self.x[i] = -(0..n).map(|k| self.j[i * n + k] * self.d[k]).sum::<f64>();
        }
        let limit = 10 * (n + m) + 50;
        let mut iterations = 0;
        let mut next_equality = 0;
        loop {
            // Choose the constraint p to add: the next equality, else the most violated
            // inequality (by its scaled violation).
            let (p, sign) = if next_equality < meq {
                let p = next_equality;
                next_equality += 1;
                let s = dot(row(c, p, n), &self.x[..n]) - b[p];
                (p, if s > 0.0 { -1.0 } else { 1.0 })
            } else {
                let mut worst = None;
                let mut worst_s = 0.0;
                for i in meq..m {
                    if self.is_active[i] {
                        continue;
                    }
                    let ci = row(c, i, n);
                    let norm = dot(ci, ci).sqrt();
                    let s = dot(ci, &self.x[..n]) - b[i];
                    let tol = 1e-13 * (1.0 + b[i].abs() + norm * max_abs(&self.x[..n]));
                    if s < -tol {
                        let scaled = s / norm.max(f64::MIN_POSITIVE);
                        if scaled < worst_s {
                            worst_s = scaled;
                            worst = Some(i);
                        }
                    }
                }
                match worst {
                    Some(p) => (p, 1.0),
                    None => break,
                }
            };
            for (np, ci) in self.np[..n].iter_mut().zip(row(c, p, n)) {
                *np = sign * ci;
            }
            let bp = sign * b[p];
            let mut up = 0.0;
            loop {
                iterations += 1;
                if iterations > limit {
                    return Err(QpError::IterationLimit(limit));
                }
                let q = self.active.len();
                // d = Jᵀ n_p; z = J₂ d₂; r = R⁻¹ d₁.
                for i in 0..n {
                    self.d[i] = (0..n).map(|k| self.j[k * n + i] * self.np[k]).sum();
                }
                for i in 0..n {
                    self.z[i] = (q..n).map(|k| self.j[i * n + k] * self.d[k]).sum();
                }
                for i in (0..q).rev() {
                    let s: f64 = (i + 1..q).map(|k| self.r[i * n + k] * self.rr[k]).sum();
                    self.rr[i] = (self.d[i] - s) / self.r[i * n + i];
                }
                // The largest dual step that keeps the active inequalities' multipliers ≥ 0.
                let mut t1 = f64::INFINITY;
                let mut drop = None;
                for k in 0..q {
                    if self.active[k].0 >= meq && self.rr[k] > 0.0 {
                        let t = self.u[k] / self.rr[k];
                        if t < t1 {
                            t1 = t;
                            drop = Some(k);
                        }
                    }
                }
                let d_norm2: f64 = self.d[..n].iter().map(|v| v * v).sum();
                let ztn: f64 = self.d[q..n].iter().map(|v| v * v).sum();
                let s = dot(&self.np[..n], &self.x[..n]) - bp;
                let t2 = if ztn > 1e-14 * d_norm2 {
                    -s / ztn
                } else {
                    f64::INFINITY
                };
                if t2.is_infinite() && t1.is_infinite() {
                    if p < meq && s.abs() <= 1e-12 * (1.0 + bp.abs()) {
                        // A dependent equality that already holds.
                        break;
                    }
                    return Err(QpError::Infeasible { constraint: p });
                }
                if t2.is_infinite() {
                    // No primal step: a dual step, then drop the blocking constraint.
                    for k in 0..q {
                        self.u[k] -= t1 * self.rr[k];
                    }
                    up += t1;
                    self.drop_active(drop.expect("t1 finite"), n);
                    continue;
                }
                let t = t1.min(t2);
                for i in 0..n {
                    self.x[i] += t * self.z[i];
                }
                for k in 0..q {
                    self.u[k] -= t * self.rr[k];
                }
                up += t;
                if t2 <= t1 {
                    self.add_active(p, sign, up, n);
                    break;
                }
                self.drop_active(drop.expect("t1 finite"), n);
            }
        }
        for (k, &(i, sign)) in self.active.iter().enumerate() {
            self.multipliers[i] = sign * self.u[k];
        }
        Ok(&self.x[..n])
    }

    /// `G = L Lᵀ` and `J = L⁻ᵀ` (upper triangular).
    fn factor(&mut self, g: &[f64], n: usize) -> Result<(), QpError> {
        let scale = (0..n).map(|i| g[i * n + i].abs()).fold(0.0, f64::max);
        for i in 0..n {
            for k in 0..=i {
                let mut s = 0.5 * (g[i * n + k] + g[k * n + i]);
                for p in 0..k {
                    s -= self.l[i * n + p] * self.l[k * n + p];
                }
                if i == k {
                    if s <= 1e-14 * scale || !s.is_finite() {
                        return Err(QpError::NotPositiveDefinite { pivot: i, value: s });
                    }
                    self.l[i * n + i] = s.sqrt();
                } else {
                    self.l[i * n + k] = s / self.l[k * n + k];
                }
            }
            for k in i + 1..n {
                self.l[i * n + k] = 0.0;
            }
        }
        // J = L⁻ᵀ: solve Lᵀ J = I column by column (J is upper triangular).
        self.j[..n * n].fill(0.0);
        for col in 0..n {
            for i in (0..=col).rev() {
                let mut s = if i == col { 1.0 } else { 0.0 };
                for k in i + 1..=col {
                    s -= self.l[k * n + i] * self.j[k * n + col];
                }
                self.j[i * n + col] = s / self.l[i * n + i];
            }
        }
        self.r[..n * n].fill(0.0);
        Ok(())
    }

    /// Adds constraint `p` (its `d = Jᵀ n_p` in `self.d`): rotates `d`'s tail into its
    /// entry `q`, with `J`'s columns, and appends `d₀..d_q` to `R`.
    fn add_active(&mut self, p: usize, sign: f64, up: f64, n: usize) {
        let q = self.active.len();
        for k in (q + 1..n).rev() {
            let (a, b) = (self.d[k - 1], self.d[k]);
            if b == 0.0 {
                continue;
            }
            let h = a.hypot(b);
            let (cs, sn) = (a / h, b / h);
            self.d[k - 1] = h;
            self.d[k] = 0.0;
            for i in 0..n {
                let (x, y) = (self.j[i * n + k - 1], self.j[i * n + k]);
                self.j[i * n + k - 1] = cs * x + sn * y;
                self.j[i * n + k] = -sn * x + cs * y;
            }
        }
        for i in 0..=q {
            self.r[i * n + q] = self.d[i];
        }
        self.active.push((p, sign));
        self.u.push(up);
        self.is_active[p] = true;
    }

    /// Drops the active constraint at position `k`: removes its column from `R` and
    /// restores the triangle by rotations of rows `j, j+1` (and `J`'s columns).
    fn drop_active(&mut self, k: usize, n: usize) {
        let q = self.active.len();
        for col in k..q - 1 {
            for i in 0..n {
                self.r[i * n + col] = self.r[i * n + col + 1];
            }
        }
        for i in 0..n {
            self.r[i * n + q - 1] = 0.0;
        }
        for jj in k..q - 1 {
            let (a, b) = (self.r[jj * n + jj], self.r[(jj + 1) * n + jj]);
            if b == 0.0 {
                continue;
            }
            let h = a.hypot(b);
            let (cs, sn) = (a / h, b / h);
            for col in jj..q - 1 {
                let (x, y) = (self.r[jj * n + col], self.r[(jj + 1) * n + col]);
                self.r[jj * n + col] = cs * x + sn * y;
                self.r[(jj + 1) * n + col] = -sn * x + cs * y;
            }
            for i in 0..n {
                let (x, y) = (self.j[i * n + jj], self.j[i * n + jj + 1]);
                self.j[i * n + jj] = cs * x + sn * y;
                self.j[i * n + jj + 1] = -sn * x + cs * y;
            }
        }
        let (p, _) = self.active.remove(k);
        self.u.remove(k);
        self.is_active[p] = false;
    }
}

fn row(c: &[f64], i: usize, n: usize) -> &[f64] {
    &c[i * n..(i + 1) * n]
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |m, x| m.max(x.abs()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The KKT conditions of a solution: feasibility, stationarity
    /// `G x + a = Σ λᵢ cᵢ`, `λᵢ ≥ 0` on the inequalities, complementarity.
    fn check_kkt(g: &[f64], a: &[f64], c: &[f64], b: &[f64], meq: usize, x: &[f64], lam: &[f64]) {
        let n = a.len();
        let scale = 1.0 + max_abs(a) + max_abs(g) * max_abs(x);
        for i in 0..b.len() {
            let s = dot(row(c, i, n), x) - b[i];
            let tol = 1e-8 * (1.0 + b[i].abs() + max_abs(row(c, i, n)) * max_abs(x));
            if i < meq {
                assert!(s.abs() <= tol, "equality {i}: residual {s}");
            } else {
                assert!(s >= -tol, "inequality {i}: residual {s}");
                assert!(
                    lam[i] >= -1e-9 * scale,
                    "inequality {i}: multiplier {}",
                    lam[i]
                );
                assert!(
                    (lam[i] * s).abs() <= 1e-7 * scale,
                    "complementarity {i}: {} · {s}",
                    lam[i]
                );
            }
        }
        for k in 0..n {
            let gx: f64 = (0..n).map(|p| g[k * n + p] * x[p]).sum::<f64>() + a[k];
            let cl: f64 = (0..b.len()).map(|i| c[i * n + k] * lam[i]).sum();
            assert!(
                (gx - cl).abs() <= 1e-7 * scale,
                "stationarity {k}: {gx} vs {cl}"
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Random strictly convex programs with constraints that a known point
        /// satisfies: the solution satisfies the KKT conditions.
        #[test]
        fn solutions_satisfy_the_kkt_conditions(
            n in 1usize..7,
            m in 0usize..12,
            meq_share in 0.0f64..0.5,
            seed in proptest::collection::vec(-1.0f64..1.0, 7 * 7 + 7 + 12 * 7 + 12 + 7),
        ) {
            let mut it = seed.into_iter();
            let mut next = || it.next().unwrap();
            let meq = ((m as f64 * meq_share) as usize).min(n.saturating_sub(1));
            let mut a_mat = vec![0.0; n * n];
            for v in &mut a_mat { *v = next(); }
            // G = AᵀA + 0.1 I.
            let mut g = vec![0.0; n * n];
            for i in 0..n { for k in 0..n {
                g[i * n + k] = (0..n).map(|p| a_mat[p * n + i] * a_mat[p * n + k]).sum::<f64>()
                    + if i == k { 0.1 } else { 0.0 };
            }}
            let a: Vec<f64> = (0..n).map(|_| 3.0 * next()).collect();
            let c: Vec<f64> = (0..m * n).map(|_| next()).collect();
            let slack: Vec<f64> = (0..m).map(|_| next().abs()).collect();
            let x0: Vec<f64> = (0..n).map(|_| next()).collect();
            let b: Vec<f64> = (0..m)
                .map(|i| dot(row(&c, i, n), &x0) - if i < meq { 0.0 } else { slack[i] })
                .collect();
            let mut qp = Qp::new(n, m);
            let x = qp.solve(&g, &a, &c, &b, meq).unwrap().to_vec();
            check_kkt(&g, &a, &c, &b, meq, &x, qp.multipliers());
        }
    }

    /// A box as four constraints, the minimum of a shifted sphere outside it: the
    /// nearest corner, with the multipliers `2 (corner − centre)` of the active sides.
    #[test]
    fn a_box_constrained_sphere_ends_at_the_corner() {
        let g = [2.0, 0.0, 0.0, 2.0];
        let a = [-6.0, 8.0]; // centre (3, −4)
        let c = [1.0, 0.0, -1.0, 0.0, 0.0, 1.0, 0.0, -1.0];
        let b = [-1.0, -1.0, -1.0, -1.0]; // −1 ≤ x ≤ 1
        let mut qp = Qp::new(2, 4);
        let x = qp.solve(&g, &a, &c, &b, 0).unwrap().to_vec();
        assert_eq!(x, vec![1.0, -1.0]);
        let lam = qp.multipliers();
        assert!((lam[1] - 4.0).abs() < 1e-12 && (lam[2] - 6.0).abs() < 1e-12);
        assert_eq!((lam[0], lam[3]), (0.0, 0.0));
    }

    #[test]
    fn bad_shapes_and_indefinite_hessians_are_errors() {
        let mut qp = Qp::new(2, 0);
        assert!(matches!(
            qp.solve(&[1.0], &[0.0; 2], &[], &[], 0),
            Err(QpError::Shape(_))
        ));
        assert!(matches!(
            qp.solve(&[1.0, 0.0, 0.0, -1.0], &[0.0; 2], &[], &[], 0),
            Err(QpError::NotPositiveDefinite { pivot: 1, .. })
        ));
        assert!(matches!(
            qp.solve(&[1.0, 0.0, 0.0, 1.0], &[0.0; 2], &[1.0, 0.0], &[1.0], 2),
            Err(QpError::Shape(_))
        ));
    }
}
