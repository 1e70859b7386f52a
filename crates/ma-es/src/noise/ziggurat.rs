//! `rand_distr`'s standard normals, the common case inlined: the same numbers, twice
//! as fast.
//!
//! [`rand_distr::StandardNormal`] is a ziggurat of 256 layers (Doornik's ZIGNOR).
//! One draw takes a `u64` `b` and
//!
//! ```text
//! i = b mod 256,   u = 2·(1 + ⌊b / 2¹²⌋ / 2⁵²) − 3 ∈ [−1, 1),   x = u · X_i
//! ```
//!
//! and returns `x` at once if `|x| < X_{i+1}` — about 98.8 % of draws. Otherwise (the
//! wedge test, the tail of layer 0) it draws more numbers. Called once per normal
//! through the generic `Distribution::sample`, it is not inlined, and the generator's
//! state makes a round trip through memory per draw: ≈ 4 ns per normal, the largest
//! single item of an N = 10 generation.
//!
//! [`fill_standard_normal`] runs the common case in a tight loop and hands every other
//! draw, with the `u64` it has already consumed, to `rand_distr` itself (through a
//! generator that returns that `u64` first and then continues the real one). The
//! result is **the same sequence, bit for bit**, for any generator. The layer bounds
//! `X_i` are `rand_distr`'s own, read once from `rand_distr` by drawing with a
//! generator that returns chosen words (`u = 2⁻¹⁰`, so `x = X_i / 2¹⁰` exactly); no
//! constant is copied. Should a later `rand_distr` draw differently, bounds read this
//! way would be wrong; so they are used only after 4096 draws with them have equalled
//! `rand_distr`'s, and otherwise every normal comes from `rand_distr` itself. Tests
//! compare 10⁷ normals and all 256 layers with `rand_distr`.

use rand::{Rng, RngCore, SeedableRng};
use rand_distr::StandardNormal;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::OnceLock;

/// `X_0 … X_256` of `rand_distr`'s normal ziggurat (`X_256 = 0`), if reading them
/// worked (see the module documentation).
fn layers() -> Option<&'static [f64; 257]> {
    static LAYERS: OnceLock<Option<[f64; 257]>> = OnceLock::new();
    LAYERS
        .get_or_init(|| read_layers().filter(draws_agree))
        .as_ref()
}

/// The bounds as `rand_distr` draws them; `None` if they do not look like a ziggurat's.
fn read_layers() -> Option<[f64; 257]> {
    let mut x = [0.0; 257];
    for (i, xi) in x.iter_mut().enumerate().take(256) {
        // ⌊b / 2¹²⌋ = 2⁵¹ + 2⁴¹: u = 2·(1.5 + 2⁻¹¹) − 3 = 2⁻¹⁰. Layer 255 (and any
        // layer whose |x| is not below the next bound) goes through the wedge
        // test: the second word, all ones, draws the uniform just below 1, where
        // the test accepts `x` (pdf(2⁻¹⁰ X_i) > f_i).
        let first = (((1u64 << 51) + (1u64 << 41)) << 12) | i as u64;
        let mut words = Words {
            words: [first, u64::MAX],
            next: 0,
            rest: Xoshiro256PlusPlus::seed_from_u64(i as u64),
        };
        let v: f64 = words.sample(StandardNormal);
        *xi = v * 1024.0;
    }
    let decreasing = x.windows(2).all(|w| w[0] > w[1]) && x[256] == 0.0;
    (decreasing && x[0].is_finite()).then_some(x)
}

/// Whether 4096 draws with the bounds `x` equal `rand_distr`'s.
fn draws_agree(x: &[f64; 257]) -> bool {
    let mut a = Xoshiro256PlusPlus::seed_from_u64(0x5EED);
    let mut b = a.clone();
    let mut z = [0.0; 4096];
    fill_with(x, &mut a, &mut z);
    z.iter().all(|&zi| {
        let expected: f64 = b.sample(StandardNormal);
        zi.to_bits() == expected.to_bits()
    }) && a == b
}

/// A generator that returns two chosen words, then those of `rest`.
struct Words {
    words: [u64; 2],
    next: usize,
    rest: Xoshiro256PlusPlus,
}

impl RngCore for Words {
    fn next_u32(&mut self) -> u32 {
        self.next_u64() as u32
    }
    fn next_u64(&mut self) -> u64 {
        match self.words.get(self.next) {
            Some(&w) => {
                self.next += 1;
                w
            }
            None => self.rest.next_u64(),
        }
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let w = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&w[..chunk.len()]);
        }
    }
}

/// A generator that returns `first` once, then continues `inner`.
struct Prepend<'a, R: ?Sized> {
    first: Option<u64>,
    inner: &'a mut R,
}

impl<R: RngCore + ?Sized> RngCore for Prepend<'_, R> {
    fn next_u32(&mut self) -> u32 {
        match self.first.take() {
            Some(w) => w as u32,
            None => self.inner.next_u32(),
        }
    }
    fn next_u64(&mut self) -> u64 {
        self.first.take().unwrap_or_else(|| self.inner.next_u64())
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        match self.first.take() {
            Some(w) => {
                let (head, tail) = dest.split_at_mut(dest.len().min(8));
                head.copy_from_slice(&w.to_le_bytes()[..head.len()]);
                self.inner.fill_bytes(tail);
            }
            None => self.inner.fill_bytes(dest),
        }
    }
}

/// The rest of a draw whose first word `bits` fell outside the fast case.
#[cold]
#[inline(never)]
fn finish_draw<R: Rng + ?Sized>(rng: &mut R, bits: u64) -> f64 {
    Prepend {
        first: Some(bits),
        inner: rng,
    }
    .sample(StandardNormal)
}

/// Fills `out` with standard normals: exactly the numbers `rng.sample(StandardNormal)`
/// would give one after the other, and `rng` advanced as far.
///
/// ```
/// use ma_es::noise::fill_standard_normal;
/// use rand::{Rng, SeedableRng};
/// use rand_xoshiro::Xoshiro256PlusPlus;
/// let mut a = Xoshiro256PlusPlus::seed_from_u64(3);
/// let mut b = a.clone();
/// let mut z = [0.0; 100];
/// fill_standard_normal(&mut a, &mut z);
/// for &zi in &z {
///     let expected: f64 = b.sample(rand_distr::StandardNormal);
///     assert_eq!(zi.to_bits(), expected.to_bits());
/// }
/// assert_eq!(a, b);
/// ```
pub fn fill_standard_normal<R: Rng + ?Sized>(rng: &mut R, out: &mut [f64]) {
    match layers() {
        Some(x) => fill_with(x, rng, out),
        None => out.iter_mut().for_each(|z| *z = rng.sample(StandardNormal)),
    }
}

/// The loop of [`fill_standard_normal`] with the layer bounds `x`.
fn fill_with<R: Rng + ?Sized>(x: &[f64; 257], rng: &mut R, out: &mut [f64]) {
    for z in out {
        let bits = rng.next_u64();
        let i = (bits & 0xff) as usize;
        // 2 · (1 + m / 2⁵²) with the top 52 bits as m, minus 3
        let u = f64::from_bits((bits >> 12) | 0x4000_0000_0000_0000) - 3.0;
        let v = u * x[i];
        *z = if v.abs() < x[i + 1] {
            v
        } else {
            finish_draw(rng, bits)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn layers_are_decreasing_and_end_at_zero() {
        let x = layers().expect("the bounds read from rand_distr are used");
        assert!(x.windows(2).all(|w| w[0] > w[1]), "{x:?}");
        assert_eq!(x[256], 0.0);
        // X_1 is the ziggurat's r (rand_distr: 3.654152885361008796)
        assert!((x[1] - 3.654_152_885_361_009).abs() < 1e-14);
    }

    /// The guard: bounds that scale one layer's values by a few ulps, or that come in
    /// another order, are refused.
    #[test]
    fn the_guard_refuses_wrong_bounds() {
        let x = *layers().expect("bounds");
        assert!(draws_agree(&x));
        for i in [0, 1, 100, 254] {
            let mut wrong = x;
            wrong[i] *= 1.0 + 4.0 * f64::EPSILON;
            assert!(!draws_agree(&wrong), "a wrong bound X_{i} was accepted");
        }
        let mut reversed = x;
        reversed[..256].reverse();
        assert!(!draws_agree(&reversed));
    }

    /// Every layer, both signs, the fast case and the slow one: words built to land
    /// in layer i with u from −1 to 1, then a random continuation.
    #[test]
    fn every_layer_equals_rand_distr() {
        let mut cont = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut checked = 0;
        let mut slow = 0;
        for i in 0..256u64 {
            for step in 0..64u64 {
                let m = (step << 46) | (cont.next_u64() >> 18);
                let first = (m << 12) | i;
                let mut a = Prepend {
                    first: Some(first),
                    inner: &mut cont.clone(),
                };
                let expected: f64 = a.sample(StandardNormal);
                let mut b_inner = cont.clone();
                let mut b = Prepend {
                    first: Some(first),
                    inner: &mut b_inner,
                };
                let mut got = [0.0];
                fill_standard_normal(&mut b, &mut got);
                assert_eq!(
                    got[0].to_bits(),
                    expected.to_bits(),
                    "layer {i}, word {first:#x}"
                );
                let u = f64::from_bits((first >> 12) | 0x4000_0000_0000_0000) - 3.0;
                let x = layers().expect("bounds");
                slow += usize::from((u * x[i as usize]).abs() >= x[i as usize + 1]);
                checked += 1;
            }
        }
        println!("{checked} first words checked, {slow} of them through the slow case");
        // layer 255 is always slow (X_256 = 0); the outer parts of the other layers are.
        assert!(slow > 64, "the slow case was not exercised ({slow})");
    }

    #[test]
    fn ten_million_normals_equal_rand_distr() {
        let mut a = Xoshiro256PlusPlus::seed_from_u64(2026);
        let mut b = a.clone();
        let mut z = vec![0.0; 1000];
        let mut n = 0;
        for _ in 0..10_000 {
            fill_standard_normal(&mut a, &mut z);
            for &zi in &z {
                let expected: f64 = b.sample(StandardNormal);
                assert_eq!(zi.to_bits(), expected.to_bits(), "normal {n}");
                n += 1;
            }
        }
        assert_eq!(a, b, "the generators end in the same state");
        println!("{n} normals equal rand_distr's");
    }
}
