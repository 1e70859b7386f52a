//! `sin` and `cos` of [`WIDTH`] arguments at once, correctly rounded or else the system
//! libm's.
//!
//! **Method.** For `2⁻⁵⁰⁰ ≤ |x| ≤ 2²⁰`:
//!
//! 1. *Reduction* `x = k π/2 + r`, `|r| ≲ π/4`, with `π/2 = P₁ + P₂ + P₃` (three doubles,
//!    159 bits): `x − k P₁` is exact (one FMA), `k P₂` is split exactly (FMA), and
//!    `r = r_h + r_l` carries ≈ 2⁻⁸⁰ relative accuracy even for the arguments closest
//!    to a multiple of π/2 in this range.
//! 2. *Polynomials* in double-double for the leading terms, in double for the tail
//!    (Taylor to `r¹⁹`/`r²⁰`, truncation below 2⁻⁶⁸):
//!    `sin r = r − r³/6 + r⁵/120 + r⁷ S(r²)`, `cos r = 1 − r²/2 + r⁴/24 + r⁶ C(r²)`, each as an
//!    unevaluated sum `hi + lo`; the quadrant `k mod 4` selects and negates.
//! 3. *Rounding test* (Ziv): with the error bound `ε |hi|`, if `hi + (lo − ε|hi|)` and
//!    `hi + (lo + ε|hi|)` round to the same double, that double is the correctly
//!    rounded value. Otherwise (≈ 6 % of the arguments), and above the range (huge,
//!    non-finite), the lane is recomputed with the system libm. Below it (zeros,
//!    subnormals, `|x| < 2⁻⁵⁰⁰`) the correctly rounded values are `x` and `1`.
//!
//! Since a correctly rounded result is unique, the output equals the libm's wherever
//! the libm is correctly rounded — glibc's `sin`/`cos` are on every argument the tests
//! try (the 912 reference vectors' arguments and millions of random ones). The bound
//! `ε = 2⁻⁶⁰` is 16 times the largest error measured against 400-bit references.
//!
//! Everything is straight-line code over `[f64; WIDTH]`, `#[inline(always)]`, so that
//! the caller's `#[target_feature]` turns it into vector instructions. `mul_add` must
//! be a fused multiply-add: callers enable `fma` (without it the code is still correct,
//! through the libm's `fma`, but slow).

/// Points per block, the lane count of every kernel here (one AVX-512 register, two
/// AVX2 registers); `crate::lanes` builds its blocks of this width.
pub(crate) const WIDTH: usize = 8;

const FRAC_2_PI: f64 = std::f64::consts::FRAC_2_PI;
/// `π/2 = P1 + P2 + P3` to 159 bits.
const P1: f64 = std::f64::consts::FRAC_PI_2;
const P2: f64 = 6.123_233_995_736_766e-17;
const P3: f64 = -1.497_384_904_859_169_8e-33;
/// `1.5 · 2⁵²`: adding and subtracting it rounds to the nearest integer.
const ROUNDER: f64 = 6_755_399_441_055_744.0;
/// `1/6`, `1/24` and `1/120` as double-doubles.
const SIXTH: (f64, f64) = (0.166_666_666_666_666_66, 9.251_858_538_542_97e-18);
const TWENTY_FOURTH: (f64, f64) = (0.041_666_666_666_666_664, 2.312_964_634_635_742_7e-18);
const ONE_OVER_120: (f64, f64) = (0.008_333_333_333_333_333, 1.156_482_317_317_871_4e-19);
/// `S(t) = −1/7! + t/9! − … − t⁶/19!` (sin, from `r⁷` on; a zero pads it to the
/// length of `COS_TAIL`, which changes no value).
const SIN_TAIL: [f64; 8] = [
    -0.000_198_412_698_412_698_4,
    2.755_731_922_398_589_3e-6,
    -2.505_210_838_544_172e-8,
    1.605_904_383_682_161_3e-10,
    -7.647_163_731_819_816e-13,
    2.811_457_254_345_520_6e-15,
    -8.220_635_246_624_33e-18,
    0.0,
];
/// `C(t) = −1/6! + t/8! − … + t⁷/20!` (cos, from `r⁶` on).
const COS_TAIL: [f64; 8] = [
    -0.001_388_888_888_888_889,
    2.480_158_730_158_73e-5,
    -2.755_731_922_398_589e-7,
    2.087_675_698_786_81e-9,
    -1.147_074_559_772_972_5e-11,
    4.779_477_332_387_385e-14,
    -1.561_920_696_858_622_6e-16,
    4.110_317_623_312_165e-19,
];
/// How far from a rounding midpoint (in ulps) a result must lie to be returned: the
/// double-double error (≤ 2⁻⁶¹ relative, ≤ 2⁻⁸ ulp) plus the largest deviation of
/// glibc's `sin`/`cos` from correct rounding measured here (0.0155 ulp over 10⁷
/// arguments, `libm_rounding_survey`), twice over. About 1 value in 16 goes to the
/// libm.
const MARGIN_ULPS: f64 = 0.031_25;
const EXPONENT_BITS: u64 = 0x7ff0_0000_0000_0000;
const F64_EPSILON: f64 = f64::EPSILON;
/// Below this (`2⁻⁵⁰⁰`), powers of `r` could underflow: [`tiny_value`] answers there.
const MIN_ARG: f64 = 3.054_936_363_499_605e-151;
const MAX_ARG: f64 = 1_048_576.0; // 2²⁰

#[inline(always)]
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// `a + b` and its rounding error, for `|a| ≥ |b|`.
#[inline(always)]
fn fast_two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    (s, b - (s - a))
}

#[inline(always)]
fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

#[inline(always)]
fn horner<const D: usize>(t: f64, c: &[f64; D]) -> f64 {
    let mut p = c[D - 1];
    for &k in c[..D - 1].iter().rev() {
        p = p.mul_add(t, k);
    }
    p
}

/// `RN(hi + lo)`, and whether it certainly equals the system libm's value: `hi + lo`
/// lies at least [`MARGIN_ULPS`] from every rounding midpoint.
#[inline(always)]
fn rounded(hi: f64, lo: f64) -> (f64, bool) {
    // ulp(hi) = 2^(e − 52) from the exponent bits of hi (hi is normal here).
    let ulp = f64::from_bits(hi.to_bits() & EXPONENT_BITS) * F64_EPSILON;
    let e = MARGIN_ULPS * ulp;
    let up = hi + (lo + e);
    let down = hi + (lo - e);
    (up, up == down)
}

/// `sin x` (`COS = false`) or `cos x` (`COS = true`) as a double-double, and whether
/// `x` is in the fast range: one polynomial per lane instead of both.
///
/// With `q = k mod 4` (plus 1 for the cosine, `cos x = sin(x + π/2)`), the value is
/// `±sin r` for even `q` and `±cos r` for odd `q`, negative when `q & 2`. Both have the
/// form `lead − a A + b B + b t P(t)` with `t = r²`: `(r, r³, 1/6, r⁵, 1/120, S)` for
/// the sine, `(1, r², 1/2, r⁴, 1/24, C)` for the cosine, `b = a t`, selected lane by
/// lane (blends), so that each lane evaluates one polynomial.
#[inline(always)]
fn sin_or_cos_dd<const COS: bool>(x: f64) -> (f64, f64, bool) {
    let in_range = x.abs() >= MIN_ARG && x.abs() <= MAX_ARG;
    let shifted = x * FRAC_2_PI + ROUNDER;
    let quadrant = (shifted.to_bits() & 3) + u64::from(COS);
    let k = shifted - ROUNDER;
    let r1 = (-k).mul_add(P1, x);
    let (p, pe) = two_prod(k, P2);
    let (s, se) = two_sum(r1, -p);
    let (rh, rl) = fast_two_sum(s, (se - pe) - k * P3);
    let (t, e2) = two_prod(rh, rh);
    let tl = e2 + 2.0 * rh * rl;
    let cosine = quadrant & 1 == 1;
    // a = r² (cosine) or r³ = r² · r (sine), as a + al.
    let (p3, e3) = two_prod(t, rh);
    let p3l = e3 + tl * rh + t * rl;
    // Lane-wise selections by value (blends), never by reference.
    let pick = |c: f64, s: f64| if cosine { c } else { s };
    let (a, al) = (pick(t, p3), pick(tl, p3l));
    let (lead, lead_lo) = (pick(1.0, rh), pick(0.0, rl));
    let big_a = (pick(0.5, SIXTH.0), pick(0.0, SIXTH.1));
    let big_b = (
        pick(TWENTY_FOURTH.0, ONE_OVER_120.0),
        pick(TWENTY_FOURTH.1, ONE_OVER_120.1),
    );
    let tail: [f64; 8] = std::array::from_fn(|i| pick(COS_TAIL[i], SIN_TAIL[i]));
    // b = a t.
    let (b, be) = two_prod(a, t);
    let bl = be + al * t + a * tl;
    let (qa, qae) = two_prod(a, big_a.0);
    let qal = qae + a * big_a.1 + al * big_a.0;
    let (qb, qbe) = two_prod(b, big_b.0);
    let qbl = qbe + b * big_b.1 + bl * big_b.0;
    let (s1, s1e) = fast_two_sum(lead, -qa);
    let (s2, s2e) = two_sum(s1, qb);
    let lo = s1e + s2e + lead_lo - qal + qbl + b * t * horner(t, &tail);
    let (hi, lo) = fast_two_sum(s2, lo);
    if quadrant & 2 != 0 {
        (-hi, -lo, in_range)
    } else {
        (hi, lo, in_range)
    }
}

/// `sin x` or `cos x` for `|x| < 2⁻⁵⁰⁰` (zeros and subnormals included): `x` and `1`,
/// the correctly rounded values (`|sin x − x| ≤ |x|³/6` and `1 − cos x ≤ x²/2` are far
/// below half an ulp), which are glibc's too. A population that has converged onto
/// the shift vector evaluates `cos 0` for every coordinate, so these must not go to
/// the libm.
#[inline(always)]
fn tiny_value<const COS: bool>(x: f64) -> f64 {
    if COS {
        1.0
    } else {
        x
    }
}

/// `sin x_i` (`COS = false`) or `cos x_i` (`COS = true`) for each lane: the fast
/// result where it certainly equals the system libm's, the libm's elsewhere.
#[inline(always)]
pub(crate) fn sin_or_cos_lanes<const COS: bool>(x: &[f64; WIDTH]) -> [f64; WIDTH] {
    let mut out = [0.0; WIDTH];
    let mut pending = 0u32; // bit i: lane i is left to the libm
    for i in 0..WIDTH {
        let (hi, lo, in_range) = sin_or_cos_dd::<COS>(x[i]);
        let (v, ok) = rounded(hi, lo);
        let tiny = x[i].abs() < MIN_ARG;
        out[i] = if tiny { tiny_value::<COS>(x[i]) } else { v };
        pending |= u32::from(!((in_range & ok) | tiny)) << i;
    }
    with_libm(pending, |i| {
        out[i] = if COS { x[i].cos() } else { x[i].sin() }
    });
    out
}

/// Calls `recompute(i)` for every lane `i` whose bit is set in `pending`: the lanes
/// left to the system libm (rare, hence a loop over set bits, not over lanes).
#[inline(always)]
fn with_libm(mut pending: u32, mut recompute: impl FnMut(usize)) {
    while pending != 0 {
        recompute(pending.trailing_zeros() as usize);
        pending &= pending - 1;
    }
}

/// `(sin x_i, cos x_i)` for each lane, as [`sin_or_cos_lanes`] with one fallback pass.
#[inline(always)]
pub(crate) fn sin_cos_lanes(x: &[f64; WIDTH]) -> ([f64; WIDTH], [f64; WIDTH]) {
    let mut sin = [0.0; WIDTH];
    let mut cos = [0.0; WIDTH];
    let mut pending = 0u32; // bit i: lane i is left to the libm (both functions)
    for i in 0..WIDTH {
        let (sh, sl, in_range) = sin_or_cos_dd::<false>(x[i]);
        let (ch, cl, _) = sin_or_cos_dd::<true>(x[i]);
        let (s, s_ok) = rounded(sh, sl);
        let (c, c_ok) = rounded(ch, cl);
        let tiny = x[i].abs() < MIN_ARG;
        sin[i] = if tiny { tiny_value::<false>(x[i]) } else { s };
        cos[i] = if tiny { tiny_value::<true>(x[i]) } else { c };
        pending |= u32::from(!((in_range & s_ok & c_ok) | tiny)) << i;
    }
    with_libm(pending, |i| (sin[i], cos[i]) = (x[i].sin(), x[i].cos()));
    (sin, cos)
}

/// `sin r` and `cos r` for `|r| ≤ π/4` in plain double arithmetic: Taylor series to
/// `r¹⁷`/`r¹⁸` (truncation below 2⁻⁶³ relative), `sin r = r + r t S(t)`,
/// `cos r = 1 − t/2 + t² C(t)`, `t = r²`.
#[inline(always)]
fn fast_reduced(r: f64) -> (f64, f64) {
    let t = r * r;
    let s = r.mul_add(t * horner(t, &FAST_SIN), r);
    let c = (t * t).mul_add(horner(t, &FAST_COS), (-0.5f64).mul_add(t, 1.0));
    (s, c)
}

/// `S(t) = −1/3! + t/5! − … + t⁷/17!`.
const FAST_SIN: [f64; 8] = [
    -0.166_666_666_666_666_66,
    0.008_333_333_333_333_333,
    SIN_TAIL[0],
    SIN_TAIL[1],
    SIN_TAIL[2],
    SIN_TAIL[3],
    SIN_TAIL[4],
    SIN_TAIL[5],
];
/// `C(t) = 1/4! − t/6! + … + t⁷/18!`.
const FAST_COS: [f64; 8] = [
    0.041_666_666_666_666_664,
    COS_TAIL[0],
    COS_TAIL[1],
    COS_TAIL[2],
    COS_TAIL[3],
    COS_TAIL[4],
    COS_TAIL[5],
    COS_TAIL[6],
];

/// `(sin x, cos x)` by the fast kernel: `x = k π/2 + r` (`P1`, `P2`, `P3` by FMA, no
/// double-double), [`fast_reduced`], turned by `k mod 4`. Within about one ulp of the
/// correctly rounded values for `|x| ≤ 2²⁰` (`fast_kernel_error` measures it);
/// beyond that range and for non-finite `x`, the libm's.
#[inline(always)]
fn fast_sin_cos(x: f64) -> (f64, f64, bool) {
    let shifted = x * FRAC_2_PI + ROUNDER;
    let quadrant = shifted.to_bits() & 3;
    let k = shifted - ROUNDER;
    let r = (-k).mul_add(P3, (-k).mul_add(P2, (-k).mul_add(P1, x)));
    let (s, c) = fast_reduced(r);
    // k odd turns (sin, cos) into (cos, −sin), k mod 4 ∈ {2, 3} negates both (blends,
    // not branches).
    let odd = quadrant & 1 != 0;
    let negate = quadrant & 2 != 0;
    let (sin, cos) = (if odd { c } else { s }, if odd { -s } else { c });
    let (sin, cos) = (
        if negate { -sin } else { sin },
        if negate { -cos } else { cos },
    );
    (sin, cos, x.abs() <= MAX_ARG)
}

/// `sin x_i` (`COS = false`) or `cos x_i` (`COS = true`) for each lane by the fast
/// kernel ([`crate::Fidelity::Fast`]): not always the libm's bits, within two ulps of
/// them. (The kernel yields both; the compiler drops the unused one.)
#[inline(always)]
pub(crate) fn fast_sin_or_cos_lanes<const COS: bool>(x: &[f64; WIDTH]) -> [f64; WIDTH] {
    let (sin, cos) = fast_sin_cos_lanes(x);
    if COS {
        cos
    } else {
        sin
    }
}

/// `(sin x_i, cos x_i)` for each lane by the fast kernel; `|x| > 2²⁰` and non-finite
/// lanes by the libm.
#[inline(always)]
pub(crate) fn fast_sin_cos_lanes(x: &[f64; WIDTH]) -> ([f64; WIDTH], [f64; WIDTH]) {
    let mut sin = [0.0; WIDTH];
    let mut cos = [0.0; WIDTH];
    let mut pending = 0u32;
    for i in 0..WIDTH {
        let (s, c, in_range) = fast_sin_cos(x[i]);
        sin[i] = s;
        cos[i] = c;
        pending |= u32::from(!in_range) << i;
    }
    with_libm(pending, |i| (sin[i], cos[i]) = (x[i].sin(), x[i].cos()));
    (sin, cos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Compares the kernel with the libm on `count` arguments from `draw`.
    fn compare(count: usize, mut draw: impl FnMut() -> f64) -> (usize, usize) {
        let (mut fallbacks, mut checked) = (0, 0);
        for _ in 0..count / WIDTH {
            let x: [f64; WIDTH] = std::array::from_fn(|_| draw());
            let (s, c) = (sin_or_cos_lanes::<false>(&x), sin_or_cos_lanes::<true>(&x));
            let (s2, c2) = sin_cos_lanes(&x);
            assert_eq!(
                (s.map(f64::to_bits), c.map(f64::to_bits)),
                (s2.map(f64::to_bits), c2.map(f64::to_bits))
            );
            for i in 0..WIDTH {
                assert_eq!(s[i].to_bits(), x[i].sin().to_bits(), "sin({:e})", x[i]);
                assert_eq!(c[i].to_bits(), x[i].cos().to_bits(), "cos({:e})", x[i]);
                let (sh, sl, in_range) = sin_or_cos_dd::<false>(x[i]);
                let (ch, cl, _) = sin_or_cos_dd::<true>(x[i]);
                let tiny = x[i].abs() < MIN_ARG;
                fallbacks += usize::from(!(tiny || (in_range && rounded(sh, sl).1)));
                fallbacks += usize::from(!(tiny || (in_range && rounded(ch, cl).1)));
                checked += 2;
            }
        }
        (checked, fallbacks)
    }

    #[test]
    fn equals_the_libm_on_random_arguments() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut total = (0, 0);
        for scale in [
            1e-300, 1e-150, 1e-20, 1e-8, 1e-3, 1.0, 10.0, 100.0, 1e3, 1e4, 1e5, 1e6,
        ] {
            let (n, f) = compare(200_000, || rng.random_range(-scale..scale));
            // The fast path decides most values (else it buys nothing).
            assert!(
                f * 8 < n,
                "scale {scale:e}: {f} of {n} values left to the libm"
            );
            total = (total.0 + n, total.1 + f);
        }
        // Arguments as the definitions form them: 2π y, 0.1π y, π(y − 1), y³.
        let (n, f) = compare(200_000, || {
            let y: f64 = rng.random_range(-100.0..100.0);
            [
                2.0 * std::f64::consts::PI * y,
                0.1 * std::f64::consts::PI * y,
                y * y * y,
            ][rng.random_range(0..3)]
        });
        total = (total.0 + n, total.1 + f);
        println!("checked {} values, {} left to the libm", total.0, total.1);
        assert!(total.0 > 1_000_000);
    }

    /// Writes `x, sin_hi, sin_lo, cos_hi, cos_lo` of random arguments to
    /// `$SINCOS_DUMP` for an error measurement against a multiple-precision library.
    #[test]
    #[ignore = "writes a file for an external error measurement"]
    fn dump_double_doubles() {
        let path = std::env::var("SINCOS_DUMP").expect("SINCOS_DUMP");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
        let mut out = String::new();
        for i in 0..60_000 {
            let scale = [1e-6, 1.0, 4.0, 1e2, 1e4, 1e6][i % 6];
            let x: f64 = rng.random_range(-scale..scale);
            let (sh, sl, _) = sin_or_cos_dd::<false>(x);
            let (ch, cl, _) = sin_or_cos_dd::<true>(x);
            out.push_str(&format!("{x:e} {sh:e} {sl:e} {ch:e} {cl:e}\n"));
        }
        std::fs::write(path, out).unwrap();
    }

    /// How far from a rounding midpoint the libm's non-correctly-rounded results lie.
    #[test]
    #[ignore = "a measurement"]
    fn libm_rounding_survey() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let (mut count, mut wrong, mut worst) = (0usize, 0usize, 0.0f64);
        for i in 0..5_000_000usize {
            let scale = [1e-6, 1.0, 4.0, 1e2, 1e4, 1e6][i % 6];
            let x: f64 = rng.random_range(-scale..scale);
            if x.abs() < MIN_ARG {
                continue;
            }
            let (sh, sl, _) = sin_or_cos_dd::<false>(x);
            let (ch, cl, _) = sin_or_cos_dd::<true>(x);
            for (hi, lo, libm) in [(sh, sl, x.sin()), (ch, cl, x.cos())] {
                count += 1;
                let r = hi + lo;
                if r.to_bits() != libm.to_bits() {
                    wrong += 1;
                    // distance of hi + lo from the midpoint between r and libm, in ulps
                    let ulp = (r - libm).abs();
                    let d = 0.5 - ((hi - r) + lo).abs() / ulp;
                    worst = worst.max(d);
                    if wrong <= 5 {
                        println!("x = {x:e}: dd {hi:e}+{lo:e}, libm {libm:e}, {d:.4} ulp from the midpoint");
                    }
                }
            }
        }
        println!("{count} values, {wrong} differ from the libm, farthest from a midpoint: {worst:.4} ulp");
    }

    /// The fast kernel against the libm: largest difference in ulps of the libm's
    /// value, and how often the bits differ.
    #[test]
    fn fast_kernel_error() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        let (mut worst, mut differ, mut count) = (0.0f64, 0usize, 0usize);
        for scale in [1e-300, 1e-8, 1.0, 10.0, 100.0, 1e3, 1e4, 1e5, 1e6, 1e7] {
            for _ in 0..50_000 / WIDTH {
                let x: [f64; WIDTH] = std::array::from_fn(|_| rng.random_range(-scale..scale));
                let (s, c) = fast_sin_cos_lanes(&x);
                assert_eq!(s, fast_sin_or_cos_lanes::<false>(&x));
                assert_eq!(c, fast_sin_or_cos_lanes::<true>(&x));
                for i in 0..WIDTH {
                    for (fast, libm) in [(s[i], x[i].sin()), (c[i], x[i].cos())] {
                        let ulp = f64::from_bits(libm.abs().to_bits() & EXPONENT_BITS)
                            .max(f64::MIN_POSITIVE)
                            * F64_EPSILON;
                        worst = worst.max((fast - libm).abs() / ulp);
                        differ += usize::from(fast.to_bits() != libm.to_bits());
                        count += 1;
                    }
                }
            }
        }
        println!(
            "fast sin/cos: {count} values, {differ} differ from the libm, worst {worst:.2} ulp"
        );
        assert!(worst <= 2.0, "worst {worst} ulp");
        assert!(differ * 5 < count, "{differ} of {count} differ");
    }

    #[test]
    fn special_arguments_follow_the_libm() {
        let specials = [
            0.0,
            -0.0,
            1e-300,
            -1e-20,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE / 3.0,
            5e-324,
            -5e-324,
            -1e-200,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            1e22,
            std::f64::consts::FRAC_PI_2,
            std::f64::consts::PI,
            -std::f64::consts::PI,
            1e6 * std::f64::consts::PI,
            MAX_ARG,
            MIN_ARG,
        ];
        for chunk in specials.chunks(WIDTH) {
            let mut x = [1.0; WIDTH];
            x[..chunk.len()].copy_from_slice(chunk);
            let (s, c) = (sin_or_cos_lanes::<false>(&x), sin_or_cos_lanes::<true>(&x));
            for i in 0..WIDTH {
                let same =
                    |a: f64, b: f64| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
                assert!(same(s[i], x[i].sin()), "sin({:e})", x[i]);
                assert!(same(c[i], x[i].cos()), "cos({:e})", x[i]);
            }
        }
    }
}
