//! COCO's two pseudo-random generators, so that instance `i` here is cocoex's instance
//! `i`: the BBOB-2009 generator (a Park–Miller minimal standard generator shuffled
//! through a 32-entry table, `bbob2009_unif`), from which the optima, rotations and
//! objective offsets come; and COCO's lagged Fibonacci generator (`coco_random`, lags
//! 607 and 273), from which the linear constraints come.

use std::f64::consts::PI;

/// `N` uniform numbers in (0, 1) from `seed` (COCO's `bbob2009_unif`): the minimal
/// standard generator `16807 · s mod (2³¹ − 1)` (Schrage's method), shuffled through a
/// table of 32 values filled by 40 warm-up steps; an exact 0 becomes `1e-99`.
///
/// ```
/// let r = bbob_constrained::random::bbob2009_unif(3, 1);
/// assert!(r.iter().all(|&x| x > 0.0 && x < 1.0));
/// assert_eq!(r, bbob_constrained::random::bbob2009_unif(3, 1));
/// ```
#[must_use]
pub fn bbob2009_unif(n: usize, seed: i64) -> Vec<f64> {
    let mut seed = seed.abs().max(1);
    let step = |s: &mut i64| {
        // `(int)floor(s / 127773)`, as in the C code.
        let tmp = i64::from((*s as f64 / 127_773.0).floor() as i32);
        *s = 16807 * (*s - tmp * 127_773) - 2836 * tmp;
        if *s < 0 {
            *s += 2_147_483_647;
        }
    };
    let mut table = [0i64; 32];
    for i in (0..40).rev() {
        step(&mut seed);
        if i < 32 {
            table[i] = seed;
        }
    }
    let mut current = table[0];
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        step(&mut seed);
        let k = ((current as f64 / 67_108_865.0).floor() as i32) as usize;
        current = table[k];
        table[k] = seed;
        let r = current as f64 / 2.147_483_647e9;
        out.push(if r == 0.0 { 1e-99 } else { r });
    }
    out
}

/// `N` standard normal numbers from `seed` (COCO's `bbob2009_gauss`): Box–Muller on the
/// first and second halves of `2N` uniforms; an exact 0 becomes `1e-99`.
#[must_use]
pub fn bbob2009_gauss(n: usize, seed: i64) -> Vec<f64> {
    let u = bbob2009_unif(2 * n, seed);
    (0..n)
        .map(|i| {
            let g = (-2.0 * u[i].ln()).sqrt() * (2.0 * PI * u[n + i]).cos();
            if g == 0.0 {
                1e-99
            } else {
                g
            }
        })
        .collect()
}

/// The optimum of a BBOB function in `[−4, 4]^n` on a grid of `8·10⁻⁴` (COCO's
/// `bbob2009_compute_xopt`; a coordinate that would be 0 is `−10⁻⁵`).
#[must_use]
pub fn bbob2009_xopt(seed: i64, dim: usize) -> Vec<f64> {
    bbob2009_unif(dim, seed)
        .into_iter()
        .map(|u| {
            let x = 8.0 * (1e4 * u).floor() / 1e4 - 4.0;
            if x == 0.0 {
                -1e-5
            } else {
                x
            }
        })
        .collect()
}

/// A random orthogonal `dim × dim` matrix, row-major (COCO's
/// `bbob2009_compute_rotation`): Gram–Schmidt on the columns of a Gaussian matrix
/// filled column by column.
#[must_use]
pub fn bbob2009_rotation(seed: i64, dim: usize) -> Vec<f64> {
    let g = bbob2009_gauss(dim * dim, seed);
    // B[i][j] = g[j·dim + i]; `b` is row-major: b[i·dim + j] = B[i][j].
    let mut b = vec![0.0; dim * dim];
    for i in 0..dim {
        for j in 0..dim {
            b[i * dim + j] = g[j * dim + i];
        }
    }
    for i in 0..dim {
        for j in 0..i {
            let mut prod = 0.0;
            for k in 0..dim {
                prod += b[k * dim + i] * b[k * dim + j];
            }
            for k in 0..dim {
                b[k * dim + i] -= prod * b[k * dim + j];
            }
        }
        let mut prod = 0.0;
        for k in 0..dim {
            prod += b[k * dim + i] * b[k * dim + i];
        }
        let norm = prod.sqrt();
        for k in 0..dim {
            b[k * dim + i] /= norm;
        }
    }
    b
}

/// The objective offset `f_opt` of function `function`, instance `instance` (COCO's
/// `bbob2009_compute_fopt`, with its seeds for functions 4 and 18): a Cauchy-like
/// value `round(100 · g₁/g₂) / 100` clipped to `[−1000, 1000]`.
#[must_use]
pub fn bbob2009_fopt(function: usize, instance: usize) -> f64 {
    let seed = match function {
        4 => 3,
        18 => 17,
        f => f as i64,
    } + 10_000 * instance as i64;
    let g1 = bbob2009_gauss(1, seed)[0];
    let g2 = bbob2009_gauss(1, seed + 1)[0];
    let v = (100.0 * 100.0 * g1 / g2 + 0.5).floor() / 100.0;
    1000f64.min((-1000f64).max(v))
}

/// COCO's lagged Fibonacci generator (`coco_random_*`, lags 607 and 273), seeded as in
/// COCO; it starts at index 12 without a first refill, as the C code does.
#[derive(Clone, Debug)]
pub struct CocoRandom {
    x: [f64; LONG_LAG],
    index: usize,
}

const LONG_LAG: usize = 607;
const SHORT_LAG: usize = 273;

impl CocoRandom {
    /// The generator of `seed`.
    #[must_use]
    pub fn new(seed: u32) -> Self {
        let mut x = [0.0; LONG_LAG];
        let mut s = seed;
        for (i, xi) in x.iter_mut().enumerate() {
            *xi = f64::from(s) / ((1u64 << 32) - 1) as f64;
            s = 1_812_433_253u32
                .wrapping_mul(s ^ (s >> 30))
                .wrapping_add(i as u32 + 1);
        }
        Self { x, index: 12 }
    }

    fn generate(&mut self) {
        for i in 0..SHORT_LAG {
            let mut t = self.x[i] + self.x[i + (LONG_LAG - SHORT_LAG)];
            if t >= 1.0 {
                t -= 1.0;
            }
            self.x[i] = t;
        }
        for i in SHORT_LAG..LONG_LAG {
            let mut t = self.x[i] + self.x[i - SHORT_LAG];
            if t >= 1.0 {
                t -= 1.0;
            }
            self.x[i] = t;
        }
        self.index = 0;
    }

    /// A uniform number in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        if self.index >= LONG_LAG {
            self.generate();
        }
        let u = self.x[self.index];
        self.index += 1;
        u
    }

    /// A standard normal number (the polar form COCO compiles in:
    /// `sqrt(−2 ln u₁) · cos(2π u₂)`).
    pub fn normal(&mut self) -> f64 {
        let u1 = self.uniform();
        let u2 = self.uniform();
        (-2.0 * u1.ln()).sqrt() * (2.0 * PI * u2).cos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rotation_is_orthogonal() {
        for dim in [2, 5, 40] {
            let r = bbob2009_rotation(12_345, dim);
            for i in 0..dim {
                for j in 0..dim {
                    let dot: f64 = (0..dim).map(|k| r[k * dim + i] * r[k * dim + j]).sum();
                    let want = if i == j { 1.0 } else { 0.0 };
                    assert!((dot - want).abs() < 1e-12, "{dim}: {i},{j} {dot}");
                }
            }
        }
    }

    #[test]
    fn the_optima_lie_on_their_grid() {
        let x = bbob2009_xopt(7, 40);
        assert!(x.iter().all(|&v| (-4.0..=4.0).contains(&v) && v != 0.0));
        assert_eq!(bbob2009_xopt(7, 40), x);
        let f = bbob2009_fopt(1, 1);
        assert!((-1000.0..=1000.0).contains(&f));
        assert_eq!((f * 100.0).round(), f * 100.0);
    }

    #[test]
    fn the_lagged_fibonacci_generator_refills_after_607() {
        let mut r = CocoRandom::new(10_001);
        let u: Vec<f64> = (0..2000).map(|_| r.uniform()).collect();
        assert!(u.iter().all(|&x| (0.0..1.0).contains(&x)));
        let mean = u.iter().sum::<f64>() / u.len() as f64;
        assert!((mean - 0.5).abs() < 0.05, "{mean}");
    }
}
