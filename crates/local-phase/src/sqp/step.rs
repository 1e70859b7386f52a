//! The steps of an [`Sqp`] run: the gradients, the quadratic program, the merit's line
//! search and the curvature update.

#[allow(clippy::wildcard_imports)]
use super::*;

impl Sqp {
    /// Asks for the model at the iterate: its derivatives where the problem gives
    /// them, else `N` forward-difference probes.
    pub(super) fn ask_probes(&mut self) {
        let n = self.shape.dim();
        self.phase = Phase::Gradient;
        if self.shape.has_derivatives() {
            self.asked.clear();
            self.asked.extend_from_slice(&self.x);
            self.asked_count = 1;
            return;
        }
        self.asked.resize(n * n, 0.0);
        let x = std::mem::take(&mut self.x);
        self.write_probes(&x, 0);
        self.x = x;
        self.asked_count = n;
    }

    /// Whether a point asked for comes with the `N` difference probes around it in the
    /// same request ([`SqpSettings::speculative_probes`]; not where the problem gives
    /// its derivatives).
    pub(super) fn speculates(&self) -> bool {
        self.settings.speculative_probes && !self.shape.has_derivatives()
    }

    /// Writes the `N` forward-difference probes around `centre` into the columns
    /// `first .. first + N` of the request (the columns exist), and their steps
    /// `hᵢ = difference_step · max(|xᵢ|, 1)`, towards the upper bound, else the lower,
    /// else the farther one, into `probe_steps`.
    pub(super) fn write_probes(&mut self, centre: &[f64], first: usize) {
        let n = self.shape.dim();
        for i in 0..n {
            let (lo, hi, xi) = (self.shape.lower[i], self.shape.upper[i], centre[i]);
            let h = self.settings.difference_step * xi.abs().max(1.0);
            let h = if xi + h <= hi {
                h
            } else if xi - h >= lo {
                -h
            } else if hi - xi >= xi - lo {
                hi - xi
            } else {
                lo - xi
            };
            self.probe_steps[i] = h;
            let column = &mut self.asked[(first + i) * n..(first + i + 1) * n];
            column.copy_from_slice(centre);
            column[i] = xi + h;
        }
    }

    /// Ends the run ([`Termination::NotFinite`]) if a value told is not finite; whether
    /// it did.
    fn ends_unless_finite(&mut self, objectives: &[f64], constraints: ArrayView2<'_, f64>) -> bool {
        let finite = objectives
            .iter()
            .chain(constraints.iter())
            .all(|v| v.is_finite());
        if !finite {
            self.phase = Phase::Done(Termination::NotFinite);
        }
        !finite
    }

    /// The probes' values told (the request's columns `first ..`): the gradients, the
    /// curvature update, the next step.
    pub(super) fn told_probes(
        &mut self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
        first: usize,
    ) {
        let (n, k) = (self.shape.dim(), self.shape.num_constraints());
        let (objectives, constraints) = (
            &objectives[first..first + n],
            constraints.slice(ndarray::s![.., first..first + n]),
        );
        if self.ends_unless_finite(objectives, constraints.view()) {
            return;
        }
        for i in 0..n {
            let h = self.probe_steps[i];
            if h == 0.0 {
                self.grad[i] = 0.0;
                (0..k).for_each(|r| self.jac[r * n + i] = 0.0);
                continue;
            }
            // The actual step, as rounded in x + h.
            let h = self.asked[(first + i) * n + i] - self.x[i];
            self.grad[i] = (objectives[i] - self.f) / h;
            for r in 0..k {
                self.jac[r * n + i] = (constraints[[r, i]] - self.c[r]) / h;
            }
        }
        self.told_model();
    }

    /// With `∇f` and `J` at the iterate: the curvature update of the last step, then
    /// the next step.
    fn told_model(&mut self) {
        if let Some((s, old)) = self.pending.take() {
            let new = self.lagrangian_gradient();
            let y: Vec<f64> = new.iter().zip(&old).map(|(a, b)| a - b).collect();
            self.update_hessian(&s, &y);
        }
        self.next_step();
    }

    /// The iterate's derivatives told ([`RequestKind::Gradients`]): `∇f` in
    /// `objectives`, `J` in `constraints` (`(l + m) × N`).
    pub(super) fn told_derivatives(
        &mut self,
        objectives: &[f64],
        constraints: ArrayView2<'_, f64>,
    ) {
        let (n, k) = (self.shape.dim(), self.shape.num_constraints());
        if self.ends_unless_finite(objectives, constraints.view()) {
            return;
        }
        self.grad.copy_from_slice(&objectives[..n]);
        for r in 0..k {
            for i in 0..n {
                self.jac[r * n + i] = constraints[[r, i]];
            }
        }
        self.told_model();
    }

    /// `∇L = ∇f + Jᵀ λ` at the iterate, with the current multipliers.
    pub(super) fn lagrangian_gradient(&self) -> Vec<f64> {
        let (n, k) = (self.shape.dim(), self.shape.num_constraints());
        (0..n)
            .map(|i| {
                self.grad[i]
                    + (0..k)
                        .map(|r| self.jac[r * n + i] * self.lambda[r])
                        .sum::<f64>()
            })
            .collect()
    }

    /// Powell's damped BFGS update with `s`, `y` (the first one scaled `B₀ = yᵀy / sᵀy · I`,
    /// or by at most 1 after a step cut back below [`BACKTRACK_FLOOR`]:
    /// [`SqpSettings::capped_first_scale`]).
    pub(super) fn update_hessian(&mut self, s: &[f64], y: &[f64]) {
        let n = s.len();
        let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(p, q)| p * q).sum::<f64>();
        let sy = dot(s, y);
        if self.hess_fresh && sy > 0.0 {
            let scale = dot(y, y) / sy;
            // `alpha` is still the accepted step's: below the floor of one backtrack,
            // the first line search cut it back more than once.
            let scale = if self.settings.capped_first_scale && self.alpha < BACKTRACK_FLOOR {
                scale.min(1.0)
            } else {
                scale
            };
            if scale.is_finite() && scale > 0.0 {
                self.hess.iter_mut().for_each(|v| *v *= scale);
            }
        }
        let bs: Vec<f64> = (0..n)
            .map(|i| (0..n).map(|p| self.hess[i * n + p] * s[p]).sum())
            .collect();
        let sbs = dot(s, &bs);
        if !(sbs > 0.0 && sbs.is_finite()) {
            return;
        }
        let (y, sy) = if sy >= 0.2 * sbs {
            (y.to_vec(), sy)
        } else {
            let theta = 0.8 * sbs / (sbs - sy);
            let y: Vec<f64> = y
                .iter()
                .zip(&bs)
                .map(|(yi, bi)| theta * yi + (1.0 - theta) * bi)
                .collect();
            let sy = dot(s, &y);
            (y, sy)
        };
        if !(sy > 0.0 && sy.is_finite()) {
            return;
        }
        for i in 0..n {
            for p in 0..n {
                self.hess[i * n + p] += y[i] * y[p] / sy - bs[i] * bs[p] / sbs;
            }
        }
        self.hess_fresh = false;
    }

    /// `dᵀBd` of the step.
    pub(super) fn step_curvature(&self) -> f64 {
        let n = self.shape.dim();
        (0..n)
            .map(|i| {
                let row = &self.hess[i * n..(i + 1) * n];
                self.step[i] * row.iter().zip(&self.step).map(|(b, d)| b * d).sum::<f64>()
            })
            .sum()
    }

    pub(super) fn reset_hessian(&mut self) {
        let n = self.shape.dim();
        if !self.hess_fresh {
            // The model learned so far, for a later run (Sqp::with_curvature_of).
            self.learned.clear();
            self.learned.extend_from_slice(&self.hess);
        }
        self.hess.fill(0.0);
        for i in 0..n {
            self.hess[i * n + i] = 1.0;
        }
        self.hess_fresh = true;
    }

    /// The merit's penalty `Σ μᵢ max(0, gᵢ) + Σ μⱼ |hⱼ|` at `c`.
    pub(super) fn penalty(&self, c: &[f64]) -> f64 {
        self.penalty_with(c, |r| self.weights[r])
    }

    /// `Σ wᵣ · violationᵣ` at `c`.
    pub(super) fn penalty_with(&self, c: &[f64], weight: impl Fn(usize) -> f64) -> f64 {
        let l = self.shape.inequalities;
        c.iter()
            .enumerate()
            .map(|(r, v)| weight(r) * if r < l { v.max(0.0) } else { v.abs() })
            .sum()
    }

    /// Solves the step's quadratic program at the iterate and asks for the first trial.
    pub(super) fn next_step(&mut self) {
        let k = self.shape.num_constraints();
        let x_norm = scale_of(&self.x);
        let relaxed = match self.solve_step() {
            Ok(relaxed) => relaxed,
            Err(_) if !self.hess_fresh => {
                // B may have lost its definiteness to rounding: once more from B = I.
                self.reset_hessian();
                match self.solve_step() {
                    Ok(relaxed) => relaxed,
                    Err(_) => {
                        self.phase = Phase::Done(Termination::Stalled);
                        return;
                    }
                }
            }
            Err(_) => {
                self.phase = Phase::Done(Termination::Stalled);
                return;
            }
        };
        self.steps += 1;
        let delta = if relaxed { self.qp_relaxation } else { 0.0 };
        // Powell's weights, from the multipliers of a consistent program (those of a
        // relaxed one measure the relaxation's weight ρ, not the constraints).
        if !relaxed {
            for r in 0..k {
                let a = self.lambda[r].abs();
                self.weights[r] = a.max(0.5 * (self.weights[r] + a));
            }
        }
        // Steering: where the iterate violates constraints, weights large enough that
        // the step lowers the merit, D ≤ −(∇fᵀd (+ ½ dᵀBd) − (1 − δ) Σ μ v) when that is
        // positive (the curvature term with `curvature_steering`).
        let linear: f64 = self.grad.iter().zip(&self.step).map(|(g, d)| g * d).sum();
        let violated = self.penalty_with(&self.c, |_| 1.0);
        let mut penalty = self.penalty(&self.c);
        let curvature = if self.settings.curvature_steering {
            0.5 * self.step_curvature().max(0.0)
        } else {
            0.0
        };
        let excess = linear + curvature - (1.0 - delta) * penalty;
        if excess >= 0.0 && violated > 0.0 && delta < 1.0 {
            let kappa = 2.0 * excess / ((1.0 - delta) * violated) * (1.0 + 1e-12);
            self.weights.iter_mut().for_each(|w| *w += kappa);
            penalty = self.penalty(&self.c);
        }
        self.merit = self.f + penalty;
        self.slope = linear - (1.0 - delta) * penalty;
        let step_norm = max_norm(&self.step);
        // The model promises (almost) nothing at a point that satisfies the
        // linearised constraints: no step can gain more than the tolerance.
        let negligible = !relaxed
            && violated == 0.0
            && self.settings.decrease_tolerance > 0.0
            && -self.slope <= self.settings.decrease_tolerance * self.f.abs().max(1.0);
        let refined = std::mem::take(&mut self.back_off_refined);
        if !refined && (negligible || step_norm <= self.step_tolerance() * x_norm) {
            if relaxed && delta > 0.5 {
                self.phase = Phase::Done(Termination::Infeasible);
            } else if self.refine_back_off(relaxed) {
                self.next_step();
            } else {
                self.phase = Phase::Done(Termination::Converged);
            }
            return;
        }
        // A step the model says does not lower the merit (D ≥ 0) only restores the
        // linearised constraints (or their back-off): it is taken whole, once; a second
        // one in a row means there is nothing left to gain.
        self.correction = self.slope >= 0.0;
        if self.correction {
            self.corrections += 1;
            if self.corrections >= 2 {
                if self.refine_back_off(relaxed) {
                    self.corrections = 0;
                    self.next_step();
                } else {
                    self.phase = Phase::Done(Termination::Converged);
                }
                return;
            }
        } else {
            self.corrections = 0;
        }
        self.alpha = 1.0;
        self.ask_trial();
    }

    /// The step tolerance at the iterate: [`SqpSettings::step_tolerance`] where the
    /// iterate satisfies the constraints (`ν̄ = 0`), at most
    /// [`INFEASIBLE_STEP_TOLERANCE`] where it does not. An iterate that approaches the
    /// feasible set from outside takes ever smaller steps; a coarse tolerance would end
    /// the run before it arrives, with no feasible point near the optimum.
    pub(super) fn step_tolerance(&self) -> f64 {
        let tolerance = self.settings.step_tolerance;
        if self.shape.mean_violation(&self.c) > 0.0 {
            tolerance.min(INFEASIBLE_STEP_TOLERANCE)
        } else {
            tolerance
        }
    }

    /// Where the run has converged but [`SqpSettings::accuracy`] asks for more: the
    /// back-off's cost ([`Sqp::back_off_cost`]) against `accuracy · max(1, |f|)`. When it
    /// costs more, the back-off is scaled down to that (by at most 10⁻³ at once) and the
    /// run goes on; whether it does. Never from a relaxed program, nor once the scale is
    /// below 10⁻¹².
    pub(super) fn refine_back_off(&mut self, relaxed: bool) -> bool {
        let Some(accuracy) = self.settings.accuracy else {
            return false;
        };
        if relaxed || self.back_off_scale < 1e-12 || self.shape.inequalities == 0 {
            return false;
        }
        let cost = self.back_off_cost();
        let allowed = accuracy * self.f.abs().max(1.0);
        // (A NaN cost refines nothing.)
        if cost.is_nan() || cost <= allowed {
            return false;
        }
        self.back_off_scale *= (0.5 * allowed / cost).max(1e-3);
        self.back_off_refined = true;
        true
    }

    /// The step's program, relaxed when the linearised constraints are inconsistent;
    /// whether it was relaxed.
    pub(super) fn solve_step(&mut self) -> Result<bool, QpError> {
        match self.solve_qp(false, None) {
            Ok(()) => Ok(false),
            Err(QpError::Infeasible { .. } | QpError::IterationLimit(_)) => {
                self.solve_qp(true, None).map(|()| true)
            }
            Err(e) => Err(e),
        }
    }

    /// Fills the step (and `λ`, and the relaxation `δ`) from the quadratic program.
    ///
    /// `shifted`: the constraints' constant terms in place of `C(x)` (the second-order
    /// correction's `C(x + d) − J d`).
    pub(super) fn solve_qp(&mut self, relax: bool, shifted: Option<&[f64]>) -> Result<(), QpError> {
        let (n, k, l) = (
            self.shape.dim(),
            self.shape.num_constraints(),
            self.shape.inequalities,
        );
        let nv = if relax { n + 1 } else { n };
        let x_norm = scale_of(&self.x);
        let constants = shifted.unwrap_or(&self.c);
        let Program { g, a, c, b } = &mut self.program;
        for (v, len) in [(&mut *g, nv * nv), (&mut *a, nv)] {
            v.clear();
            v.resize(len, 0.0);
        }
        for i in 0..n {
            for p in 0..n {
                g[i * nv + p] = self.hess[i * n + p];
            }
        }
        a[..n].copy_from_slice(&self.grad);
        if relax {
            let grad_scale = max_norm(&self.grad);
            let hess_scale = (0..n).fold(0.0f64, |m, i| m.max(self.hess[i * n + i].abs()));
            g[n * nv + n] = self.settings.relaxation_weight
                * (1.0 + grad_scale * self.bound + hess_scale * self.bound * self.bound);
        }
        let rows = k + 2 * n + if relax { 2 } else { 0 };
        for (v, len) in [(&mut *c, rows * nv), (&mut *b, rows)] {
            v.clear();
            v.resize(len, 0.0);
        }
        let mut row = 0;
        // Equalities first: ∇h d (− h δ) = −h.
        for r in l..k {
            c[row * nv..row * nv + n].copy_from_slice(&self.jac[r * n..(r + 1) * n]);
            if relax {
                c[row * nv + n] = -constants[r];
            }
            b[row] = -constants[r];
            row += 1;
        }
        // Inequalities: −∇g d (+ (g + τ) δ) ≥ g + τ.
        for r in 0..l {
            let grad_r = &self.jac[r * n..(r + 1) * n];
            let norm = grad_r.iter().map(|v| v * v).sum::<f64>().sqrt();
            let rhs = constants[r] + self.back_off_scale * self.settings.margin * norm * x_norm;
            for (dst, v) in c[row * nv..row * nv + n].iter_mut().zip(grad_r) {
                *dst = -v;
            }
            if relax && rhs > 0.0 {
                c[row * nv + n] = rhs;
            }
            b[row] = rhs;
            row += 1;
        }
        // The box and the bound Δ: lo ≤ d ≤ hi.
        for i in 0..n {
            let lo = (self.shape.lower[i] - self.x[i]).max(-self.bound);
            let hi = (self.shape.upper[i] - self.x[i]).min(self.bound);
            c[row * nv + i] = 1.0;
            b[row] = lo;
            row += 1;
            c[row * nv + i] = -1.0;
            b[row] = -hi;
            row += 1;
        }
        if relax {
            c[row * nv + n] = 1.0;
            b[row] = 0.0;
            row += 1;
            c[row * nv + n] = -1.0;
            b[row] = -1.0;
            row += 1;
        }
        debug_assert_eq!(row, rows);
        let meq = k - l;
        let solution = self.qp.solve(g, a, c, b, meq)?;
        self.step.copy_from_slice(&solution[..n]);
        self.qp_relaxation = if relax {
            solution[n].clamp(0.0, 1.0)
        } else {
            0.0
        };
        if relax {
            return Ok(());
        }
        let u = self.qp.multipliers();
        for (j, r) in (l..k).enumerate() {
            self.lambda[r] = -u[j];
        }
        self.lambda[..l].copy_from_slice(&u[meq..meq + l]);
        Ok(())
    }

    /// Asks for the second-order correction `x + d̃` of the rejected full step `d`
    /// (its constraint values `c_trial`): `d̃` solves the step's program with the
    /// constant terms `C(x + d) − J d`. Whether it asked (not when the program has no
    /// solution or `d̃ = d`).
    pub(super) fn ask_corrected_step(&mut self, c_trial: &[f64]) -> bool {
        let (n, k) = (self.shape.dim(), self.shape.num_constraints());
        if k == 0 {
            return false;
        }
        let shifted: Vec<f64> = (0..k)
            .map(|r| {
                let jd: f64 = (0..n).map(|i| self.jac[r * n + i] * self.step[i]).sum();
                c_trial[r] - jd
            })
            .collect();
        let (step, lambda, relaxation) =
            (self.step.clone(), self.lambda.clone(), self.qp_relaxation);
        let solved = self.solve_qp(false, Some(&shifted));
        let corrected = std::mem::replace(&mut self.step, step);
        self.lambda = lambda;
        self.qp_relaxation = relaxation;
        if solved.is_err() || corrected == self.step {
            return false;
        }
        self.asked.resize(n, 0.0);
        for i in 0..n {
            self.asked[i] =
                (self.x[i] + corrected[i]).clamp(self.shape.lower[i], self.shape.upper[i]);
        }
        self.asked_count = 1;
        self.correcting = true;
        true
    }

    /// Asks for the trial point `x + α d` — the full step with the probes around it
    /// where the run speculates ([`SqpSettings::speculative_probes`]), the last line
    /// search took its full step and fewer than [`super::SPECULATION_MISSES`] full
    /// steps with probes were rejected.
    pub(super) fn ask_trial(&mut self) {
        let n = self.shape.dim();
        let speculative = self.alpha == 1.0
            && self.full_steps
            && self.speculation_misses < super::SPECULATION_MISSES
            && self.speculates();
        self.asked_count = if speculative { n + 1 } else { 1 };
        self.asked.resize(n * self.asked_count, 0.0);
        for i in 0..n {
            self.asked[i] = (self.x[i] + self.alpha * self.step[i])
                .clamp(self.shape.lower[i], self.shape.upper[i]);
        }
        if speculative {
            let trial = self.asked[..n].to_vec();
            self.write_probes(&trial, 1);
        }
        self.phase = Phase::LineSearch;
    }

    pub(super) fn told_trial(&mut self, objectives: &[f64], constraints: ArrayView2<'_, f64>) {
        let n = self.shape.dim();
        let f = objectives[0];
        let c: Vec<f64> = constraints.column(0).to_vec();
        let merit = f + self.penalty(&c);
        let armijo = if self.correction {
            self.merit + 2.0 * self.slope + 1e-12 * (1.0 + self.merit.abs())
        } else {
            self.merit + 1e-4 * self.alpha * self.slope
        };
        if merit.is_finite() && merit <= armijo {
            if std::mem::take(&mut self.correcting) {
                self.corrected_steps += 1;
            }
            // Accept: keep ∇L at the old iterate for the update, move, and adapt Δ.
            let old = self.lagrangian_gradient();
            let s: Vec<f64> = (0..n).map(|i| self.asked[i] - self.x[i]).collect();
            let s_norm = max_norm(&s);
            let d_norm = max_norm(&self.step);
            if self.alpha == 1.0 && d_norm >= 0.9 * self.bound {
                self.bound *= 2.0;
            } else if self.alpha < 0.5 {
                self.bound = (0.5 * self.bound).max(2.0 * s_norm);
            }
            self.x.copy_from_slice(&self.asked[..n]);
            self.f = f;
            self.c = c;
            self.failures = 0;
            self.full_steps = self.alpha == 1.0;
            let x_norm = scale_of(&self.x);
            if s_norm <= self.step_tolerance() * x_norm {
                if self.refine_back_off(false) {
                    // A new model at the iterate, with the smaller back-off.
                    self.pending = Some((s, old));
                    self.ask_probes();
                } else {
                    self.phase = Phase::Done(Termination::Converged);
                }
                return;
            }
            self.pending = Some((s, old));
            if self.asked_count == n + 1 {
                // The probes around the new iterate came with it.
                self.phase = Phase::Gradient;
                self.told_probes(objectives, constraints, 1);
            } else {
                self.ask_probes();
            }
            return;
        }
        if self.asked_count == n + 1 {
            // A full step with its probes, rejected: the probes are wasted.
            self.speculation_misses += 1;
        }
        let corrected = std::mem::take(&mut self.correcting);
        let merit = if corrected {
            // The correction was rejected too: backtrack along d from the full step.
            self.full_step_merit
        } else {
            if self.settings.second_order_correction
                && self.alpha == 1.0
                && !self.correction
                && merit.is_finite()
                && c.iter().all(|v| v.is_finite())
                && self.ask_corrected_step(&c)
            {
                self.full_step_merit = merit;
                return;
            }
            merit
        };
        // Backtrack by quadratic interpolation, within [BACKTRACK_FLOOR · α, 0.5 α].
        let alpha = if merit.is_finite() {
            let denom = merit - self.merit - self.alpha * self.slope;
            let quad = if denom > 0.0 {
                -0.5 * self.slope * self.alpha * self.alpha / denom
            } else {
                0.5 * self.alpha
            };
            quad.clamp(BACKTRACK_FLOOR * self.alpha, 0.5 * self.alpha)
        } else {
            BACKTRACK_FLOOR * self.alpha
        };
        let d_norm = max_norm(&self.step);
        let x_norm = scale_of(&self.x);
        if alpha * d_norm > self.step_tolerance() * x_norm {
            self.alpha = alpha;
            self.ask_trial();
            return;
        }
        // The search failed: once more with B reset and a smaller Δ, then give up.
        self.failures += 1;
        if self.failures >= 2 {
            // Where the model predicted no decrease beyond the difference gradients'
            // accuracy, the iterate is a KKT point to that accuracy: converged.
            let noise = f64::EPSILON.sqrt() * self.merit.abs().max(1.0);
            if -self.slope <= noise && self.refine_back_off(false) {
                // Converged, but the accuracy asked for wants a smaller back-off.
                self.failures = 0;
                self.next_step();
                return;
            }
            self.phase = Phase::Done(if -self.slope <= noise {
                Termination::Converged
            } else {
                Termination::Stalled
            });
            return;
        }
        self.reset_hessian();
        self.bound = (0.25 * self.bound).max(d_norm * 0.01);
        self.next_step();
    }
}

/// The step tolerance where the iterate violates a constraint, at most
/// ([`SqpSettings::step_tolerance`]'s default).
pub const INFEASIBLE_STEP_TOLERANCE: f64 = 1e-10;

/// The smallest factor one backtrack of the line search cuts `α` by.
const BACKTRACK_FLOOR: f64 = 0.1;

/// `‖v‖∞`.
pub(super) fn max_norm(v: &[f64]) -> f64 {
    v.iter().fold(0.0f64, |m, x| m.max(x.abs()))
}

/// `max(1, ‖x‖∞)`, the scale of the tolerances at `x`.
pub(super) fn scale_of(x: &[f64]) -> f64 {
    max_norm(x).max(1.0)
}
