//! Power electronics, RC45–RC50: synchronous optimal pulse-width modulation (SOPWM) of
//! 3- to 13-level inverters. The variables are switching angles in degrees; f is the
//! weighted total harmonic distortion over the 31 lowest non-triplen odd harmonics,
//! the angles must increase (D − 1 inequalities) and the fundamental must equal the
//! modulation index (1 equality).

use super::Out;
use std::f64::consts::PI;

super::formulas! {

/// The harmonics k of the distortion measure.
const K: [f64; 31] = [
    5.0, 7.0, 11.0, 13.0, 17.0, 19.0, 23.0, 25.0, 29.0, 31.0, 35.0, 37.0, 41.0, 43.0, 47.0, 49.0,
    53.0, 55.0, 59.0, 61.0, 65.0, 67.0, 71.0, 73.0, 77.0, 79.0, 83.0, 85.0, 91.0, 95.0, 97.0,
];

/// The switching-sign patterns s of the six inverters (RC45: alternating).
const S46: [f64; 25] = [
    1., -1., 1., 1., -1., 1., -1., 1., -1., -1., 1., -1., 1., 1., -1., 1., -1., 1., -1., -1., 1.,
    -1., 1., 1., -1.,
];
const S47: [f64; 25] = [
    1., -1., 1., 1., 1., -1., -1., -1., 1., 1., -1., -1., 1., 1., 1., -1., -1., -1., 1., 1., -1.,
    -1., 1., 1., 1.,
];
const S48: [f64; 30] = [
    1., 1., 1., 1., -1., 1., -1., -1., -1., 1., -1., -1., 1., 1., 1., 1., -1., 1., -1., -1., -1.,
    1., -1., -1., 1., 1., 1., 1., -1., 1.,
];
const S49: [f64; 30] = [
    1., -1., 1., 1., 1., -1., -1., -1., 1., 1., 1., 1., -1., -1., 1., -1., -1., -1., 1., 1., 1.,
    1., -1., 1., 1., -1., -1., 1., -1., -1.,
];
const S50: [f64; 30] = [
    1., 1., 1., -1., 1., -1., 1., -1., 1., 1., 1., 1., -1., -1., -1., -1., 1., -1., 1., -1., 1.,
    1., 1., 1., -1., -1., -1., 1., -1., 1.,
];

/// The common SOPWM form: f = scale · √(Σ_k (Σ_l s_l cos(k x_l π/180))² / k⁴) / √(Σ_k 1/k⁴),
/// gᵢ = xᵢ − xᵢ₊₁ + 10⁻⁶, h = Σ_l s_l cos(x_l π/180) − target.
fn sopwm(x: &[R], s: &[f64], scale: f64, target: f64, g: &mut [R], h: &mut [R]) -> R {
    let mut su = R::from(0.0);
    for &k in &K {
        let mut su2 = R::from(0.0);
        for (&sl, &xl) in s.iter().zip(x) {
            su2 += sl * (k * xl * PI / 180.0).cos();
        }
        su += su2.powf(2.0) / k.powf(4.0);
    }
    let norm = K.iter().map(|k| 1.0 / k.powf(4.0)).sum::<f64>();
    let f = scale * su.powf(0.5) / norm.powf(0.5);
    for i in 0..x.len() - 1 {
        g[i] = x[i] - x[i + 1] + 1e-6;
    }
    h[0] = s
        .iter()
        .zip(x)
        .map(|(&sl, &xl)| sl * (xl * PI / 180.0).cos())
        .sum::<R>()
        - target;
    f
}

/// RC45. SOPWM for 3-level inverters (25 angles, m = 0.32).
pub(crate) fn rc45(x: &[R], g: &mut [R], h: &mut [R]) -> Out<R> {
    let s: [f64; 25] = std::array::from_fn(|i| if i % 2 == 0 { 1.0 } else { -1.0 });
    Ok(sopwm(x, &s, 1.0, 0.32, g, h))
}

/// RC46. SOPWM for 5-level inverters (25 angles, m = 0.32).
pub(crate) fn rc46(x: &[R], g: &mut [R], h: &mut [R]) -> Out<R> {
    Ok(sopwm(x, &S46, 0.5, 2.0 * 0.32, g, h))
}

/// RC47. SOPWM for 7-level inverters (25 angles, m = 0.36).
pub(crate) fn rc47(x: &[R], g: &mut [R], h: &mut [R]) -> Out<R> {
    Ok(sopwm(x, &S47, 1.0 / 3.0, 3.0 * 0.36, g, h))
}

/// RC48. SOPWM for 9-level inverters (30 angles, m = 0.32).
pub(crate) fn rc48(x: &[R], g: &mut [R], h: &mut [R]) -> Out<R> {
    Ok(sopwm(x, &S48, 1.0 / 4.0, 4.0 * 0.32, g, h))
}

/// RC49. SOPWM for 11-level inverters (30 angles, m = 0.3333).
pub(crate) fn rc49(x: &[R], g: &mut [R], h: &mut [R]) -> Out<R> {
    Ok(sopwm(x, &S49, 1.0 / 5.0, 5.0 * 0.3333, g, h))
}

/// RC50. SOPWM for 13-level inverters (30 angles, m = 0.32).
pub(crate) fn rc50(x: &[R], g: &mut [R], h: &mut [R]) -> Out<R> {
    Ok(sopwm(x, &S50, 1.0 / 6.0, 6.0 * 0.32, g, h))
}
}
