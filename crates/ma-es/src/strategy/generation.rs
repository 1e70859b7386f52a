//! One generation's arithmetic (docs/algorithm.md §5): the initial population and `ε0`,
//! sampling `ȳ + σ M z` into the box, ranking, recombination, the path, `M` and `σ`
//! updates and the best-so-far rule.

#![allow(clippy::wildcard_imports)]
use super::*;

impl<N: NoiseSource> Strategy<N> {
    pub(super) fn rank(&mut self) -> Result<(), MaEsError> {
        let objectives = self
            .pop
            .objectives
            .as_slice()
            .expect("contiguous objectives");
        let constraints = ConstraintValues {
            values: self.pop.constraints.view(),
            inequalities: self.shape.inequalities,
            equality_margin: self.shape.equality_margin,
        };
        self.components.ranking.rank_constrained(
            self.dist.epsilon,
            objectives,
            &self.pop.violations,
            &constraints,
            &mut self.pop.ranking,
        )?;
        Ok(())
    }

    pub(super) fn set_best(&mut self, k: usize) {
        self.progress
            .best
            .x
            .iter_mut()
            .zip(self.pop.points.column(k))
            .for_each(|(a, &b)| *a = b);
        self.progress
            .best
            .constraints
            .iter_mut()
            .zip(self.pop.constraints.column(k))
            .for_each(|(a, &b)| *a = b);
        let snapshot = Snapshot::new(self.pop.objectives[k], self.pop.violations[k])
            .with_counts(
                self.shape
                    .constraint_counts(&self.progress.best.constraints),
            )
            .found_at(self.progress.evaluations);
        self.progress.best.snapshot = snapshot;
        self.progress.incumbent.replace(snapshot);
    }

    /// Draws the initial population into `points`.
    pub(super) fn draw_initial(&mut self) -> Result<(), MaEsError> {
        let lb = &self.shape.lower;
        let ub = &self.shape.upper;
        let points = self
            .pop
            .points
            .as_slice_memory_order_mut()
            .expect("column-major population");
        if let Some(x0) = &self.params.initial_mean {
            // Around x0: y = x0 + σ0 z, reflected into the box.
            self.noise.fill_normal(points);
            let sigma0 = self.params.sigma0;
            for col in points.chunks_exact_mut(x0.len().max(1)) {
                for (y, &m) in col.iter_mut().zip(x0) {
                    *y = m + sigma0 * *y;
                }
                keep_range(col, lb, ub)?;
            }
        } else {
            self.noise.fill_uniform(points);
            for mut col in self.pop.points.columns_mut() {
                for ((y, &l), &u) in col.iter_mut().zip(lb).zip(ub) {
                    *y = l + (u - l) * *y;
                }
            }
        }
        Ok(())
    }

    /// After the initial population's evaluation: `ε0`, the ranking, the parent, the
    /// best-so-far.
    pub(super) fn initialize(&mut self) -> Result<(), MaEsError> {
        let objectives = self
            .pop
            .objectives
            .as_slice()
            .expect("contiguous objectives");
        self.dist.epsilon = self
            .components
            .schedule
            .initialize(objectives, &self.pop.violations)?;
        self.rank()?;
        // The plain (unweighted) mean of the μ first.
        self.dist.parent.fill(0.0);
        for &k in &self.pop.ranking[..self.params.mu] {
            Zip::from(&mut self.dist.parent)
                .and(self.pop.points.column(k))
                .for_each(|p, &y| *p += y);
        }
        let mu = self.params.mu as f64;
        self.dist.parent.mapv_inplace(|p| p / mu);
        self.set_best(self.pop.ranking[0]);
        self.progress.epsilon0 = self.dist.epsilon;
        Ok(())
    }

    /// Steps 1–2: sample, transform, reflect.
    pub(super) fn sample(&mut self) -> Result<(), MaEsError> {
        self.noise.fill_normal(
            self.pop
                .z
                .as_slice_memory_order_mut()
                .expect("column-major Z"),
        );
        gemm(
            1.0,
            &self.dist.m.view(),
            &self.pop.z.view(),
            0.0,
            &mut self.pop.d.view_mut(),
        );
        let sigma = self.dist.sigma;
        let lb = &self.shape.lower;
        let ub = &self.shape.upper;
        let n = lb.len();
        let parent = self.dist.parent.as_slice().expect("contiguous parent");
        let candidates = self
            .pop
            .candidates
            .as_slice_memory_order_mut()
            .expect("column-major candidates");
        let points = self
            .pop
            .points
            .as_slice_memory_order_mut()
            .expect("column-major population");
        let d = self.pop.d.as_slice_memory_order().expect("column-major D");
        // Column by column on slices (ndarray's Zip per column cost more than the
        // arithmetic at N = 10).
        for (k, ((cand, point), dk)) in candidates
            .chunks_exact_mut(n)
            .zip(points.chunks_exact_mut(n))
            .zip(d.chunks_exact(n))
            .enumerate()
        {
            for (((c, p), &y), &di) in cand.iter_mut().zip(point.iter_mut()).zip(parent).zip(dk) {
                *c = y + sigma * di;
                *p = *c;
            }
            self.pop.changed[k] = keep_range(point, lb, ub)?;
        }
        Ok(())
    }

    /// Steps 4–14 once the offspring are evaluated and repaired.
    pub(super) fn complete_generation(&mut self) -> Result<Option<Termination>, MaEsError> {
        self.select_and_adapt()?;
        self.update_best();
        // Step 11: stop after this generation (steps 12–14 still happen).
        let stop = if self.progress.evaluations >= self.limits.budget {
            Some(Termination::Budget)
        } else if self.progress.generation >= self.limits.max_generations {
            Some(Termination::GenerationLimit)
        } else {
            None
        };
        if self.progress.termination.is_none() {
            self.progress.termination = stop;
        }
        self.progress.generation += 1;
        self.dist.epsilon = self.components.schedule.epsilon(self.progress.generation);
        Ok(stop)
    }

    /// Steps 4–9: rank, select, back-calculate, recombine, adapt.
    pub(super) fn select_and_adapt(&mut self) -> Result<(), MaEsError> {
        self.rank()?;
        let n = self.pop.z.nrows();
        let sel = self
            .sel
            .get_or_insert_with(|| Selection::new(n, self.params.mu));
        for (m, &k) in self.pop.ranking[..self.params.mu].iter().enumerate() {
            for (to, from) in [
                (&mut sel.z, &self.pop.z),
                (&mut sel.d, &self.pop.d),
                (&mut sel.points, &self.pop.points),
            ] {
                let from = from
                    .as_slice_memory_order()
                    .expect("column-major population");
                to.as_slice_memory_order_mut()
                    .expect("column-major selection")[m * n..(m + 1) * n]
                    .copy_from_slice(&from[k * n..(k + 1) * n]);
            }
            sel.changed[m] = self.pop.changed[k];
        }
        self.components.back_calculation.back_calculate(Selected {
            m: self.dist.m.view(),
            parent: self.dist.parent.view(),
            sigma: self.dist.sigma,
            points: sel.points.view(),
            changed: &sel.changed,
            d: sel.d.view_mut(),
            z: sel.z.view_mut(),
        })?;
        let p = &self.params;
        general_mat_vec_mul(1.0, &sel.z, &self.weights, 0.0, &mut sel.z_w);
        general_mat_vec_mul(1.0, &sel.d, &self.weights, 0.0, &mut sel.d_w);
        let sigma = self.dist.sigma;
        Zip::from(&mut self.dist.parent)
            .and(&sel.d_w)
            .for_each(|y, &d| *y += sigma * d);
        let cs = p.c_sigma;
        let path_factor = (cs * (2.0 - cs) * p.mu_eff).sqrt();
        Zip::from(&mut self.dist.p_sigma)
            .and(&sel.z_w)
            .for_each(|ps, &zw| *ps = (1.0 - cs) * *ps + path_factor * zw);
        let reset = self.components.adaptation.adapt(
            self.dist.m.view_mut(),
            self.dist.p_sigma.view_mut(),
            crate::adaptation::UpdateInput {
                d: sel.d.view(),
                z: sel.z.view(),
                weights: self.weights.as_slice().expect("contiguous weights"),
                c1: p.c1,
                c_mu: p.c_mu,
            },
        );
        self.progress.resets += usize::from(reset);
        let sigma = self
            .components
            .step_size
            .update(&crate::step_size::StepSizeContext {
                sigma: self.dist.sigma,
                p_sigma: self.dist.p_sigma.view(),
                c_sigma: cs,
                generation: self.progress.generation,
                epsilon: self.dist.epsilon,
                objectives: self
                    .pop
                    .objectives
                    .as_slice()
                    .expect("contiguous objectives"),
                violations: &self.pop.violations,
                ranking: &self.pop.ranking,
            });
        self.dist.sigma = self.components.sigma_cap.apply(sigma);
        Ok(())
    }

    /// Step 10: the lexicographic best-so-far update with the first-ranked offspring
    /// (or the one the ranking names instead).
    pub(super) fn update_best(&mut self) {
        let c = self.components.ranking.best_so_far_candidate(
            self.pop
                .objectives
                .as_slice()
                .expect("contiguous objectives"),
            &self.pop.violations,
            &self.pop.ranking,
        );
        let candidate = Fitness::new(self.pop.objectives[c], self.pop.violations[c]);
        if self.progress.incumbent.improves(&candidate) {
            self.set_best(c);
        }
    }
}
