//! [`FastNoise`]: standard normals eight streams at a time, by Box–Muller.

use rand::{RngCore, SeedableRng};
use rand_xoshiro::{SplitMix64, Xoshiro256PlusPlus};

use super::NoiseSource;

/// Streams side by side (one AVX-512 register of `u64`).
const LANES: usize = 8;
/// Normals per step of the eight streams: two per stream.
const BLOCK: usize = 2 * LANES;

const LN_2_HI: f64 = 0.693_147_180_369_123_8; // 31 bits: e · LN_2_HI is exact
const LN_2_LO: f64 = 1.908_214_929_270_587_7e-10;
const SQRT_HALF: f64 = std::f64::consts::FRAC_1_SQRT_2;
const FRAC_PI_2: f64 = std::f64::consts::FRAC_PI_2;
const EXPONENT_ONE: u64 = 0x3ff0_0000_0000_0000;
const MANTISSA: u64 = 0x000f_ffff_ffff_ffff;
/// `1.5 · 2⁵²`: adding and subtracting it rounds to the nearest integer (ties to even),
/// which then sits in the low bits.
const ROUNDER: f64 = 6_755_399_441_055_744.0;
const TWO_52: f64 = 4_503_599_627_370_496.0;
const TWO_52_BITS: u64 = 0x4330_0000_0000_0000;

/// Standard normals from eight interleaved xoshiro256++ streams by a vectorised
/// Box–Muller transform; uniforms from a ninth, scalar stream.
///
/// **Generator.** Eight xoshiro256++ streams side by side (state `[[u64; 8]; 4]`),
/// seeded from one `u64` through SplitMix64 (32 consecutive outputs: stream `i` takes
/// words `4i … 4i + 3`, the way `Xoshiro256PlusPlus::seed_from_u64` takes four). One
/// step of all eight streams is a handful of vector instructions.
///
/// **Normals.** Two 64-bit outputs `a, b` of one stream give two uniforms
/// `u₁ = 2 − 1.m(a) ∈ (0, 1]` and `u₂ = 1.m(b) − 1 ∈ [0, 1)` (52 random mantissa
/// bits each), and Box–Muller gives the pair
///
/// `z₁ = √(−2 ln u₁) · cos(2π u₂)`, `z₂ = √(−2 ln u₁) · sin(2π u₂)`.
///
/// - `ln u₁ = e ln 2 + ln m` with `u₁ = 2ᵉ m`, `m ∈ [√½, √2)`, and
///   `ln m = 2 atanh s = 2 Σₖ s²ᵏ⁺¹/(2k + 1)`, `s = (m − 1)/(m + 1)`, `|s| ≤ 0.172`
///   (12 terms: truncation below 2⁻⁶³);
/// - `2π u₂ = q π/2 + a` with `q = round(4u₂)` and `a = (4u₂ − q) π/2 ∈ [−π/4, π/4]`
///   (`4u₂ − q` is exact), `sin a`, `cos a` by their Taylor series to `a¹⁷`/`a¹⁸`
///   (truncation below 2⁻⁶³), turned by the quadrant `q`.
///
/// Every step is straight-line arithmetic on `[f64; 8]`, so that the compiler
/// vectorises it inside `#[target_feature]` functions chosen at run time (AVX-512,
/// AVX2 + FMA, or plain code elsewhere); all three give the same bits, because they
/// perform the same IEEE operations (`mul_add` is fused in each).
///
/// Compared with the ziggurat of `rand_distr` ([`super::RngNoise`]): another random
/// stream (results differ run by run, not in distribution), 52 instead of 53 bits
/// per uniform, and tails cut at `√(2 · 52 ln 2) ≈ 8.49` (probability `2.2 · 10⁻¹⁷`
/// per normal beyond it).
///
/// Faster than [`super::RngNoise`] (1.3 ns against 2.1 ns per normal, both called
/// through `dyn NoiseSource` as the strategy calls them), it is
/// the noise of the **fast path** (`--fast` of the study commands); the default path
/// keeps [`super::RngNoise`], whose stream the committed results were drawn from.
///
/// ```
/// use ma_es::noise::{FastNoise, NoiseSource};
/// let mut a = FastNoise::seed_from_u64(7);
/// let mut b = FastNoise::seed_from_u64(7);
/// let (mut x, mut y) = ([0.0; 100], [0.0; 100]);
/// a.fill_normal(&mut x[..37]); // any split of the stream gives the same numbers
/// a.fill_normal(&mut x[37..]);
/// b.fill_normal(&mut y);
/// assert_eq!(x, y);
/// ```
#[derive(Clone, Debug)]
pub struct FastNoise {
    /// `s[j][i]`: word `j` of stream `i`.
    state: [[u64; LANES]; 4],
    /// Normals drawn and not yet handed out: `buffer[next..]`.
    buffer: [f64; BLOCK],
    next: usize,
    uniforms: Xoshiro256PlusPlus,
    level: Level,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
    Plain,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl FastNoise {
    /// The eight streams seeded from `seed` (SplitMix64), the uniform stream from
    /// `seed` as [`Xoshiro256PlusPlus::seed_from_u64`] seeds it.
    #[must_use]
    pub fn seed_from_u64(seed: u64) -> Self {
        let mut sm = SplitMix64::seed_from_u64(seed);
        let mut state = [[0u64; LANES]; 4];
        for i in 0..LANES {
            for word in &mut state {
                word[i] = sm.next_u64();
            }
        }
        Self {
            state,
            buffer: [0.0; BLOCK],
            next: BLOCK,
            uniforms: Xoshiro256PlusPlus::seed_from_u64(seed),
            level: level(),
        }
    }

    /// Writes whole blocks of [`BLOCK`] normals to `out` (its length a multiple of it).
    fn fill_blocks(&mut self, out: &mut [f64]) {
        debug_assert_eq!(out.len() % BLOCK, 0);
        match self.level {
            // SAFETY: the level was detected on this CPU.
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => unsafe { fill_avx512(&mut self.state, out) },
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => unsafe { fill_avx2(&mut self.state, out) },
            Level::Plain => fill(&mut self.state, out),
        }
    }
}

fn level() -> Level {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            return Level::Avx512;
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            return Level::Avx2;
        }
    }
    Level::Plain
}

impl NoiseSource for FastNoise {
    fn uniform(&mut self) -> f64 {
        use rand::Rng;
        self.uniforms.random::<f64>()
    }

    fn fill_normal(&mut self, out: &mut [f64]) {
        // What is left of the last block first, then whole blocks, then one more block
        // for the tail: the numbers do not depend on how the stream is split.
        let take = (BLOCK - self.next).min(out.len());
        out[..take].copy_from_slice(&self.buffer[self.next..self.next + take]);
        self.next += take;
        let rest = &mut out[take..];
        let whole = rest.len() - rest.len() % BLOCK;
        let (blocks, tail) = rest.split_at_mut(whole);
        self.fill_blocks(blocks);
        if !tail.is_empty() {
            let mut buffer = [0.0; BLOCK];
            self.fill_blocks(&mut buffer);
            self.buffer = buffer;
            tail.copy_from_slice(&self.buffer[..tail.len()]);
            self.next = tail.len();
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn fill_avx512(state: &mut [[u64; LANES]; 4], out: &mut [f64]) {
    fill(state, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn fill_avx2(state: &mut [[u64; LANES]; 4], out: &mut [f64]) {
    fill(state, out);
}

#[inline(always)]
fn fill(state: &mut [[u64; LANES]; 4], out: &mut [f64]) {
    for block in out.chunks_exact_mut(BLOCK) {
        let a = next_u64(state);
        let b = next_u64(state);
        let (z1, z2) = box_muller(&a, &b);
        block[..LANES].copy_from_slice(&z1);
        block[LANES..].copy_from_slice(&z2);
    }
}

/// One step of the eight xoshiro256++ streams.
#[inline(always)]
fn next_u64(s: &mut [[u64; LANES]; 4]) -> [u64; LANES] {
    let mut out = [0u64; LANES];
    for i in 0..LANES {
        out[i] = s[0][i]
            .wrapping_add(s[3][i])
            .rotate_left(23)
            .wrapping_add(s[0][i]);
        let t = s[1][i] << 17;
        s[2][i] ^= s[0][i];
        s[3][i] ^= s[1][i];
        s[1][i] ^= s[2][i];
        s[0][i] ^= s[3][i];
        s[2][i] ^= t;
        s[3][i] = s[3][i].rotate_left(45);
    }
    out
}

/// `Σ_{k<12} t^k/(2k + 1)` (the atanh series in `t = s²`).
const ATANH: [f64; 12] = {
    let mut c = [0.0; 12];
    let mut k = 0;
    while k < 12 {
        c[k] = 1.0 / (2 * k + 1) as f64;
        k += 1;
    }
    c
};
/// `sin a = a Σ (−1)^k a^{2k}/(2k + 1)!` to `a¹⁷`.
const SIN: [f64; 9] = {
    let mut c = [0.0; 9];
    let mut fact = 1.0; // (2k + 1)!
    let mut k = 0;
    while k < 9 {
        c[k] = if k % 2 == 0 { 1.0 / fact } else { -1.0 / fact };
        fact *= ((2 * k + 2) * (2 * k + 3)) as f64;
        k += 1;
    }
    c
};
/// `cos a = Σ (−1)^k a^{2k}/(2k)!` to `a¹⁸`.
const COS: [f64; 10] = {
    let mut c = [0.0; 10];
    let mut fact = 1.0; // (2k)!
    let mut k = 0;
    while k < 10 {
        c[k] = if k % 2 == 0 { 1.0 / fact } else { -1.0 / fact };
        fact *= ((2 * k + 1) * (2 * k + 2)) as f64;
        k += 1;
    }
    c
};

#[inline(always)]
fn horner<const D: usize>(t: f64, c: &[f64; D]) -> f64 {
    let mut p = c[D - 1];
    for &k in c[..D - 1].iter().rev() {
        p = p.mul_add(t, k);
    }
    p
}

/// The Box–Muller pairs of eight `(a, b)` outputs.
#[inline(always)]
fn box_muller(a: &[u64; LANES], b: &[u64; LANES]) -> ([f64; LANES], [f64; LANES]) {
    let mut z1 = [0.0; LANES];
    let mut z2 = [0.0; LANES];
    for i in 0..LANES {
        // u1 ∈ (0, 1], u2 ∈ [0, 1): 52 random bits each.
        let u1 = 2.0 - f64::from_bits(EXPONENT_ONE | (a[i] >> 12));
        let u2 = f64::from_bits(EXPONENT_ONE | (b[i] >> 12)) - 1.0;
        let radius = (-2.0 * ln_unit(u1)).sqrt();
        // 2π u2 = q π/2 + a.
        let t = 4.0 * u2;
        let shifted = t + ROUNDER;
        let quadrant = shifted.to_bits() & 3;
        let angle = (t - (shifted - ROUNDER)) * FRAC_PI_2;
        let a2 = angle * angle;
        let s = angle * horner(a2, &SIN);
        let c = horner(a2, &COS);
        // Turn (cos a, sin a) by q quarter turns (q = 4 is a full turn), by selections
        // (blends), not branches: q odd swaps, q ∈ {2, 3} negates.
        let odd = quadrant & 1 != 0;
        let negate = quadrant & 2 != 0;
        let (cos, sin) = (if odd { -s } else { c }, if odd { c } else { s });
        let (cos, sin) = (
            if negate { -cos } else { cos },
            if negate { -sin } else { sin },
        );
        z1[i] = radius * cos;
        z2[i] = radius * sin;
    }
    (z1, z2)
}

/// `ln u` for `u ∈ (0, 1]` (normal numbers): `e ln 2 + 2 atanh((m − 1)/(m + 1))`.
#[inline(always)]
fn ln_unit(u: f64) -> f64 {
    let bits = u.to_bits();
    // The biased exponent as a double without an integer conversion (which would
    // not vectorise without AVX-512DQ): 2⁵² + b − (2⁵² + 1023), exact.
    let mut e = f64::from_bits(TWO_52_BITS | (bits >> 52)) - (TWO_52 + 1023.0);
    let mut m = f64::from_bits((bits & MANTISSA) | EXPONENT_ONE); // [1, 2)
                                                                  // m ∈ [√½, √2): halve the large ones.
    let big = m > 2.0 * SQRT_HALF;
    m = if big { 0.5 * m } else { m };
    e = if big { e + 1.0 } else { e };
    let s = (m - 1.0) / (m + 1.0);
    let ln_m = 2.0 * s * horner(s * s, &ATANH);
    e.mul_add(LN_2_HI, e.mul_add(LN_2_LO, ln_m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn normals(seed: u64, n: usize) -> Vec<f64> {
        let mut noise = FastNoise::seed_from_u64(seed);
        let mut z = vec![0.0; n];
        noise.fill_normal(&mut z);
        z
    }

    /// `ln u` and the turned `(cos, sin)` against the libm.
    #[test]
    fn the_parts_are_accurate() {
        let (mut ln_err, mut trig_err) = (0.0f64, 0.0f64);
        for i in 1..=100_000u64 {
            let u = i as f64 / 100_001.0;
            for u in [u, u * 1e-10, u * 2f64.powi(-50)] {
                ln_err = ln_err.max((ln_unit(u) - u.ln()).abs() / u.ln().abs());
            }
            // u1 = 1/e² (radius 2) and u2 = u: the pair is 2 (cos 2πu, sin 2πu).
            let b = (u + 1.0).to_bits() << 12;
            let a = (2.0 - (-2.0f64).exp()).to_bits() << 12;
            let (z1, z2) = box_muller(&[a; LANES], &[b; LANES]);
            let u2 = f64::from_bits(EXPONENT_ONE | (b >> 12)) - 1.0;
            let u1 = 2.0 - f64::from_bits(EXPONENT_ONE | (a >> 12));
            let radius = (-2.0 * u1.ln()).sqrt();
            let theta = 2.0 * std::f64::consts::PI * u2;
            trig_err = trig_err
                .max((z1[0] - radius * theta.cos()).abs())
                .max((z2[0] - radius * theta.sin()).abs());
        }
        assert!(ln_err < 1e-15, "ln: {ln_err:e}"); // a few ulps
                                                   // 2π u2 rounds: errors up to ≈ 2π · 2⁻⁵³ · 2 in the angle, times the radius 2.
        assert!(trig_err < 4e-15, "sin/cos: {trig_err:e}");
        assert_eq!(ln_unit(1.0), 0.0);
        println!("ln: {ln_err:.1e} relative, pairs: {trig_err:.1e} absolute");
    }

    #[test]
    fn every_level_gives_the_same_bits() {
        let mut noise = FastNoise::seed_from_u64(3);
        let mut first = vec![0.0; 1600];
        noise.fill_normal(&mut first);
        for level in [Level::Plain, level()] {
            let mut other = FastNoise::seed_from_u64(3);
            other.level = level;
            let mut z = vec![0.0; 1600];
            other.fill_normal(&mut z);
            assert_eq!(
                first.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                z.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                "{level:?}"
            );
        }
    }

    #[test]
    fn any_split_gives_the_same_stream() {
        let whole = normals(11, 1000);
        let mut noise = FastNoise::seed_from_u64(11);
        let mut parts = vec![0.0; 1000];
        let mut at = 0;
        for len in [1, 15, 16, 17, 3, 100, 0, 400].into_iter().cycle() {
            let end = (at + len).min(1000);
            noise.fill_normal(&mut parts[at..end]);
            at = end;
            if at == 1000 {
                break;
            }
        }
        assert_eq!(whole, parts);
        assert_ne!(whole, normals(12, 1000));
    }

    /// Moments and the Kolmogorov–Smirnov distance to Φ over 10⁶ normals, and the
    /// correlation of neighbours (across streams and within a pair).
    #[test]
    fn the_normals_are_standard_normal() {
        let n = 1 << 20;
        let z = normals(5, n);
        let mean = z.iter().sum::<f64>() / n as f64;
        let var = z.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        let m4 = z.iter().map(|x| (x - mean).powi(4)).sum::<f64>() / n as f64;
        let sd = (1.0 / n as f64).sqrt();
        assert!(mean.abs() < 5.0 * sd, "mean {mean}");
        assert!((var - 1.0).abs() < 5.0 * 2f64.sqrt() * sd, "variance {var}");
        assert!(
            (m4 - 3.0).abs() < 5.0 * 96f64.sqrt() * sd,
            "fourth moment {m4}"
        );
        for lag in [1, 8, 16] {
            let r = z.iter().zip(&z[lag..]).map(|(a, b)| a * b).sum::<f64>() / n as f64;
            assert!(r.abs() < 5.0 * sd, "lag {lag}: correlation {r}");
        }
        let mut sorted = z.clone();
        sorted.sort_by(f64::total_cmp);
        let phi = |x: f64| 0.5 * erfc(-x / std::f64::consts::SQRT_2);
        let d = sorted
            .iter()
            .enumerate()
            .map(|(i, &x)| {
                let p = phi(x);
                (p - i as f64 / n as f64)
                    .abs()
                    .max(((i + 1) as f64 / n as f64 - p).abs())
            })
            .fold(0.0, f64::max);
        // 1 % critical value of the KS statistic: 1.63/√n.
        assert!(d < 1.63 / (n as f64).sqrt(), "KS distance {d}");
        println!("2^20 normals: mean {mean:.2e}, variance {var:.5}, KS distance {d:.2e}");
    }

    /// `erfc` to ≈ 1e-7 (Numerical Recipes' Chebyshev fit), enough for a KS test at
    /// n = 2²⁰ (critical distance 1.6e-3).
    fn erfc(x: f64) -> f64 {
        let z = x.abs();
        let t = 1.0 / (1.0 + 0.5 * z);
        let r = t
            * (-z * z - 1.265_512_23
                + t * (1.000_023_68
                    + t * (0.374_091_96
                        + t * (0.096_784_18
                            + t * (-0.186_288_06
                                + t * (0.278_868_07
                                    + t * (-1.135_203_98
                                        + t * (1.488_515_87
                                            + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
                .exp();
        if x >= 0.0 {
            r
        } else {
            2.0 - r
        }
    }
}
