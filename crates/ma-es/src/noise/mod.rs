//! Noise sources: where the strategy's random numbers come from.
//!
//! The strategy consumes, in this order (docs/algorithm.md §5 and the replay fixtures):
//! - the initial population: individual 1's `N` uniforms, then individual 2's, …;
//! - each generation: a block of `λ·N` standard normals (offspring 1's `N` components,
//!   then offspring 2's, …); then, in generations with `g mod N = 0`, variants that
//!   repair draw one uniform per offspring right after its evaluation.
//!
//! [`RngNoise`] is the default (any [`rand::Rng`], `Xoshiro256PlusPlus` unless chosen
//! otherwise); [`FastNoise`] draws the normals eight streams at a time (the fast path,
//! another random stream); [`ReplayNoise`] reproduces the reference implementation's generator
//! (MINSTD uniforms, Box–Muller normals), so anyone can replay its trajectories.

mod fast;
mod ziggurat;

pub use fast::FastNoise;
pub use ziggurat::fill_standard_normal;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A source of uniform and standard normal random numbers.
pub trait NoiseSource {
    /// One uniform number in `[0, 1]` (the initial population; the repair decision).
    fn uniform(&mut self) -> f64;

    /// Fills `out` with uniforms, in order.
    fn fill_uniform(&mut self, out: &mut [f64]) {
        for x in out {
            *x = self.uniform();
        }
    }

    /// Fills `out` with standard normals, in order.
    fn fill_normal(&mut self, out: &mut [f64]);
}

impl<S: NoiseSource + ?Sized> NoiseSource for &mut S {
    fn uniform(&mut self) -> f64 {
        (**self).uniform()
    }
    fn fill_uniform(&mut self, out: &mut [f64]) {
        (**self).fill_uniform(out);
    }
    fn fill_normal(&mut self, out: &mut [f64]) {
        (**self).fill_normal(out);
    }
}

/// Noise from a [`rand::Rng`]: uniforms in `[0, 1)`, normals by the ziggurat method of
/// `rand_distr` — exactly `rng.sample(StandardNormal)`, drawn by
/// [`fill_standard_normal`].
///
/// ```
/// use ma_es::noise::{NoiseSource, RngNoise};
/// let mut a = RngNoise::seed_from_u64(7);
/// let mut b = RngNoise::seed_from_u64(7);
/// let (mut x, mut y) = ([0.0; 4], [0.0; 4]);
/// a.fill_normal(&mut x);
/// b.fill_normal(&mut y);
/// assert_eq!(x, y); // same seed, same numbers
/// ```
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct RngNoise<R = Xoshiro256PlusPlus> {
    rng: R,
}

impl RngNoise<Xoshiro256PlusPlus> {
    /// The default generator, `Xoshiro256PlusPlus`, seeded from `seed`.
    #[must_use]
    pub fn seed_from_u64(seed: u64) -> Self {
        Self {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl<R: Rng> RngNoise<R> {
    /// Noise drawn from `rng`.
    pub fn new(rng: R) -> Self {
        Self { rng }
    }

    /// The generator.
    pub fn into_inner(self) -> R {
        self.rng
    }
}

impl<R: Rng> NoiseSource for RngNoise<R> {
    fn uniform(&mut self) -> f64 {
        self.rng.random::<f64>()
    }

    fn fill_normal(&mut self, out: &mut [f64]) {
        fill_standard_normal(&mut self.rng, out);
    }
}

/// The reference implementation's generator, for replaying its trajectories.
///
/// - Uniforms (MINSTD): `s ← 48271 · s mod (2³¹ − 1)`, `u = s / (2³¹ − 1)`.
/// - Normals (Box–Muller): two consecutive uniforms `u1, u2` give
///   `z = √(−2 ln u1) · cos(2π u2)`.
///
/// ```
/// use ma_es::noise::{NoiseSource, ReplayNoise};
/// let mut r = ReplayNoise::new(12345);
/// assert_eq!(r.uniform(), 0.277490120044672);
/// assert_eq!(r.uniform(), 0.72558467636144941);
/// let mut r = ReplayNoise::new(12345);
/// let mut z = [0.0; 1];
/// r.fill_normal(&mut z);
/// assert!((z[0] - (-0.24467608993660281)).abs() < 1e-15);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ReplayNoise {
    state: u64,
}

/// The MINSTD modulus `2³¹ − 1`.
const MINSTD_MODULUS: u64 = 2_147_483_647;

impl ReplayNoise {
    /// The generator started at `seed` (taken modulo `2³¹ − 1`; a zero state would
    /// stay zero, so it is replaced by 1).
    #[must_use]
    pub fn new(seed: u64) -> Self {
        let state = seed % MINSTD_MODULUS;
        Self {
            state: if state == 0 { 1 } else { state },
        }
    }
}

impl NoiseSource for ReplayNoise {
    fn uniform(&mut self) -> f64 {
        self.state = (48_271 * self.state) % MINSTD_MODULUS;
        self.state as f64 / MINSTD_MODULUS as f64
    }

    fn fill_normal(&mut self, out: &mut [f64]) {
        for x in out {
            let u1 = self.uniform();
            let u2 = self.uniform();
            *x = (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos();
        }
    }
}

#[cfg(test)]
// The expected values are quoted verbatim from the fixture README.
#[allow(clippy::excessive_precision)]
mod tests {
    use super::*;

    #[test]
    fn replay_matches_the_fixture_readme() {
        let mut r = ReplayNoise::new(12345);
        let u: Vec<f64> = (0..4).map(|_| r.uniform()).collect();
        assert_eq!(
            u,
            [
                0.277490120044672,
                0.72558467636144941,
                0.69791264352291482,
                0.94121549462024845
            ]
        );
        let mut r = ReplayNoise::new(12345);
        let mut z = [0.0; 3];
        r.fill_normal(&mut z);
        let expected = [
            -0.24467608993660281,
            0.79093176841057145,
            -0.24723510930034692,
        ];
        for (a, b) in z.iter().zip(expected) {
            assert!((a - b).abs() <= 1e-15 * b.abs(), "{a} vs {b}");
        }
    }

    /// The studies' numbers: `RngNoise`'s normals are `rand_distr`'s, drawn one after
    /// the other from the same generator (uniforms interleaved as the strategy does).
    #[test]
    fn rng_noise_draws_rand_distr_normals() {
        use rand::Rng;
        let mut noise = RngNoise::seed_from_u64(11);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let mut z = vec![0.0; 400];
        for _ in 0..250 {
            noise.fill_normal(&mut z);
            for &zi in &z {
                let expected: f64 = rng.sample(rand_distr::StandardNormal);
                assert_eq!(zi.to_bits(), expected.to_bits());
            }
            assert_eq!(noise.uniform().to_bits(), rng.random::<f64>().to_bits());
        }
    }

    #[test]
    fn uniforms_stay_in_the_unit_interval() {
        let mut r = ReplayNoise::new(0);
        let mut g = RngNoise::seed_from_u64(0);
        for _ in 0..10_000 {
            let a = r.uniform();
            let b = g.uniform();
            assert!((0.0..=1.0).contains(&a) && (0.0..1.0).contains(&b));
        }
    }
}
