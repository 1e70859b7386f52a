//! The linear constraints of a problem (COCO's `c_linear.c`), built so that the origin
//! satisfies the KKT conditions of the untransformed problem and the feasible
//! direction `p` (the objective's gradient at the origin, scaled) is feasible:
//!
//! - `m` active constraints `g_k(y) = a_kᵀ y` through the origin, `a_k = 10^{U[0,1]} ·
//!   10^{U_k[0,2]} · N(0, I/n)` scaled by 100 — one of them (which one depends on the
//!   instance) `a = −p` scaled alike — each flipped if `p` would violate it;
//! - `⌊m/2⌋` inactive ones, shifted away from the origin by `0.01 + 2U` along their
//!   gradient, placed among the active ones at random;
//! - with `m > 1`, the gradient-based constraint is "disguised": a random positive
//!   combination of the other active gradients is subtracted and its norm restored, so
//!   that it no longer reveals the objective's gradient.
//!
//! A constraint is evaluated as COCO does: `Σ_i t_i` over `t_i = a_i (y_i − (s/‖a‖) a_i)`,
//! leaving out terms in `[0, 10⁻¹¹]` (COCO's guard against an optimum made infeasible by
//! rounding).

use crate::random::CocoRandom;

/// One linear constraint.
#[derive(Clone, Debug, PartialEq)]
pub struct Linear {
    /// Its gradient `a`.
    pub gradient: Vec<f64>,
    /// `‖a‖` when it was made (kept through flipping and disguising).
    pub norm: f64,
    /// The shift along `a` (0 for active constraints).
    pub shift: f64,
}

impl Linear {
    fn new(gradient: Vec<f64>, shift: f64) -> Self {
        Self {
            norm: norm(&gradient),
            gradient,
            shift,
        }
    }

    /// `g(y)`.
    #[must_use]
    pub fn value(&self, y: &[f64]) -> f64 {
        let factor = self.shift / self.norm;
        let mut sum = 0.0;
        for (&a, &yi) in self.gradient.iter().zip(y) {
            let t = a * (yi - factor * a);
            // As COCO writes it: a NaN term is left out too.
            #[allow(clippy::manual_range_contains)]
            if t > 1e-11 || t < 0.0 {
                sum += t;
            }
        }
        sum
    }

    /// Flips `a` if `p` violates the constraint.
    fn make_feasible(&mut self, p: &[f64]) {
        if self.value(p) > 0.0 {
            for a in &mut self.gradient {
                *a *= -1.0;
            }
        }
    }
}

fn norm(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in x {
        s += v * v;
    }
    s.sqrt()
}

/// `x · (nominator / denominator)` in place (COCO's `coco_vector_scale`).
fn scale(x: &mut [f64], nominator: f64, denominator: f64) {
    let f = if denominator != 0.0 {
        nominator / denominator
    } else {
        nominator
    };
    for v in x {
        *v *= f;
    }
}

/// What every constraint of a problem is made from.
struct Builder<'p> {
    function: usize,
    dim: usize,
    instance: usize,
    /// The problem-wide scale `100 · 10^{U[0,1]}`.
    factor1: f64,
    /// The feasible direction.
    p: &'p [f64],
}

impl Builder<'_> {
    /// One constraint (COCO's `c_linear_single_cons_bbob_problem_allocate`): number
    /// `constraint_number` (its seed), from the given gradient or a random one.
    fn single(
        &self,
        constraint_number: usize,
        gradient: Option<&mut Vec<f64>>,
        shift: f64,
    ) -> Linear {
        let Self {
            function,
            dim,
            instance,
            factor1,
            p,
        } = *self;
        let seed = (function + 10_000 * instance + 50_000 * constraint_number) as u32;
        let mut rng = CocoRandom::new(seed);
        let factor2 = 100f64.powf(rng.uniform());
        let mut c = match gradient {
            Some(g) => {
                let n = norm(g);
                scale(g, factor1 * factor2, n);
                Linear::new(g.clone(), shift)
            }
            None => {
                let g: Vec<f64> = (0..dim)
                    .map(|_| factor1 * rng.normal() * factor2 / (dim as f64).sqrt())
                    .collect();
                Linear::new(g, shift)
            }
        };
        c.make_feasible(p);
        c
    }
}

/// The constraints of `function` (with `active` active ones) for `instance` in
/// dimension `dim`, in COCO's order, given the feasible direction `p`.
#[must_use]
pub fn linear_constraints(
    function: usize,
    dim: usize,
    instance: usize,
    active: usize,
    p: &[f64],
) -> Vec<Linear> {
    let mut inactive_left = active / 2;
    let total = active + inactive_left;
    let mut gradient_c1: Vec<f64> = p.iter().map(|v| -v).collect();
    let mut linear_combination = vec![0.0; dim];
    let seed = (function + 10_000 * instance) as u32;
    let mut rng = CocoRandom::new(seed);
    let mut rng2 = CocoRandom::new(seed);
    let factor1 = 100.0 * 10f64.powf(rng.uniform());
    let add = |lc: &mut Vec<f64>, c: &Linear, weight: f64| {
        if weight != 0.0 {
            for (l, a) in lc.iter_mut().zip(&c.gradient) {
                *l += weight * a;
            }
        }
    };

    let mut constraints: Vec<Linear> = Vec::with_capacity(total);
    let mut first: Option<usize> = None;
    let builder = Builder {
        function,
        dim,
        instance,
        factor1,
        p,
    };
    let use_c1 = instance.is_multiple_of(active);
    let c = builder.single(1, use_c1.then_some(&mut gradient_c1), 0.0);
    if use_c1 {
        first = Some(0);
    } else {
        add(&mut linear_combination, &c, rng2.uniform());
    }
    constraints.push(c);

    let mut i = 1usize;
    for _ in 2..=total {
        let (gradient_is_c1, shift, number);
        if i < active && rng.uniform() + 1e-23 > inactive_left as f64 / total as f64 {
            i += 1;
            gradient_is_c1 = (i - 1 + instance).is_multiple_of(active);
            shift = 0.0;
            number = i;
        } else {
            assert!(inactive_left > 0, "COCO: no inactive constraint left");
            inactive_left -= 1;
            gradient_is_c1 = false;
            shift = 0.01 + 2.0 * rng.uniform();
            number = if i <= active {
                i
            } else {
                total - inactive_left
            };
        }
        let c = builder.single(number, gradient_is_c1.then_some(&mut gradient_c1), shift);
        if shift == 0.0 {
            if gradient_is_c1 {
                first = Some(constraints.len());
            } else {
                add(&mut linear_combination, &c, rng2.uniform());
            }
        }
        constraints.push(c);
    }

    // Disguise the constraint made from the objective's gradient.
    if active > 1 {
        let k = first.expect("the gradient-based constraint");
        let c = &mut constraints[k];
        let n = c.norm;
        let mut fac = 0.0;
        for (l, a) in linear_combination.iter().zip(&c.gradient) {
            fac += l * a;
        }
        assert!(
            fac >= 0.0,
            "COCO: the combination opposes the first constraint"
        );
        fac = if fac <= 0.0 {
            dim as f64
        } else {
            (dim as f64).min(n * n / fac)
        };
        fac *= (1.0 + rng2.uniform()) / (2.0 + 1.0 / dim as f64);
        for (a, l) in c.gradient.iter_mut().zip(&linear_combination) {
            *a -= fac * l;
        }
        let new_norm = norm(&c.gradient);
        assert!(new_norm != 0.0, "COCO: the disguised gradient vanished");
        scale(&mut c.gradient, n, new_norm);
    }
    constraints
}
