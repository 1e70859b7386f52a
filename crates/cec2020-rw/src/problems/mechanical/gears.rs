//! Designs with discrete choices, rounded from continuous variables: the planetary gear
//! train RC22, the four-stage gear box RC26 and the spring from standard wire sizes RC30.

use crate::problems::{index, Out};
use std::f64::consts::PI;

crate::problems::formulas! {
/// RC22. Planetary gear train design: tooth numbers N₁…N₆ = round(|x₁…₆|), the number
/// of planets p ∈ {3, 4, 5} and two modules from {1.75, …, 3} chosen by round(|x₇…₉|);
/// f is the largest deviation of the three gear ratios from their targets; 10
/// inequalities and the assembly condition rem(N₆ − N₄, p) = 0.
///
/// `MATLAB`'s `max` skips NaN ratios (as here); where the planets' angle β is complex,
/// g₈ = 10⁶, as the code sets it.
///
/// # Errors
/// An index x₇…x₉ that rounds outside its table (outside the box).
pub(crate) fn rc22(x: &[R], g: &mut [R], h: &mut [R]) -> Out<R> {
    crate::problems::piecewise_constant(rc22_values, x, g, h)
}

/// RC22 over the values: every variable is rounded first.
fn rc22_values(x: &[f64], g: &mut [f64], h: &mut [f64]) -> Out<f64> {
    const PIND: [f64; 3] = [3.0, 4.0, 5.0];
    const MIND: [f64; 6] = [1.75, 2.0, 2.25, 2.5, 2.75, 3.0];
    let r: [f64; 9] = std::array::from_fn(|i| x[i].abs().round());
    let [N1, N2, N3, N4, N5, N6, ..] = r;
    let p = PIND[index(22, r[6], 3)?];
    let m1 = MIND[index(22, r[7], 6)?];
    let m2 = MIND[index(22, r[8], 6)?];
    let (i01, i02, i0R) = (3.11, 1.84, -3.11);
    let i1 = N6 / N4;
    let i2 = N6 * (N1 * N3 + N2 * N4) / (N1 * N3 * (N6 - N4));
    let iR = -(N2 * N6 / (N1 * N3));
    let f = [i1 - i01, i2 - i02, iR - i0R]
        .into_iter()
        .filter(|v| !v.is_nan())
        .fold(f64::NAN, |m, v| if m.is_nan() || v > m { v } else { m });
    let (Dmax, dlt22, dlt33, dlt55, dlt35, dlt34, dlt56) = (220.0, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5);
    let cos_arg = ((N6 - N3).powf(2.0) + (N4 + N5).powf(2.0) - (N3 + N5).powf(2.0))
        / (2.0 * (N6 - N3) * (N4 + N5));
    g[0] = m2 * (N6 + 2.5) - Dmax;
    g[1] = m1 * (N1 + N2) + m1 * (N2 + 2.0) - Dmax;
    g[2] = m2 * (N4 + N5) + m2 * (N5 + 2.0) - Dmax;
    g[3] = (m1 * (N1 + N2) - m2 * (N6 - N3)).abs() - m1 - m2;
    g[4] = -((N1 + N2) * (PI / p).sin() - N2 - 2.0 - dlt22);
    g[5] = -((N6 - N3) * (PI / p).sin() - N3 - 2.0 - dlt33);
    g[6] = -((N4 + N5) * (PI / p).sin() - N5 - 2.0 - dlt55);
    g[7] = if cos_arg.abs() <= 1.0 || cos_arg.is_nan() {
        let beta = cos_arg.acos();
        (N3 + N5 + 2.0 + dlt35).powf(2.0)
            - ((N6 - N3).powf(2.0) + (N4 + N5).powf(2.0)
                - 2.0 * (N6 - N3) * (N4 + N5) * (2.0 * PI / p - beta).cos())
    } else {
        1e6
    };
    g[8] = -(N6 - 2.0 * N3 - N4 - 4.0 - 2.0 * dlt34);
    g[9] = -(N6 - N4 - 2.0 * N5 - 4.0 - 2.0 * dlt56);
    h[0] = (N6 - N4) % p;
    Ok(f)
}

/// RC26. Four-stage gear box: 8 tooth numbers, 4 face widths from {3.175, 5.715, 8.255,
/// 12.7} and 10 shaft positions from {12.7, 25.4, …, 114.3}, all chosen by rounding
/// (x₉…x₂₂ are 1-based table indices); f is the gears' weight; 86 inequalities
/// (bending and contact stress, contact ratio, diameters, positions, widths, speed).
/// A value of ±∞ is replaced by 10⁶, as in the code.
///
/// # Errors
/// An index x₉…x₂₂ that rounds outside its table (outside the box; the organisers'
/// code stops with an index error there).
pub(crate) fn rc26(x: &[R], g: &mut [R], h: &mut [R]) -> Out<R> {
    crate::problems::piecewise_constant(rc26_values, x, g, h)
}

/// RC26 over the values: every variable is rounded first.
fn rc26_values(x: &[f64], g: &mut [f64], _h: &mut [f64]) -> Out<f64> {
    const PVALUE: [f64; 4] = [3.175, 5.715, 8.255, 12.7];
    const XY: [f64; 9] = [12.7, 25.4, 38.1, 50.8, 63.5, 76.2, 88.9, 101.6, 114.3];
    let r: [f64; 22] = std::array::from_fn(|i| x[i].round());
    let (Np1, Ng1, Np2, Ng2, Np3, Ng3, Np4, Ng4) = (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]);
    let b = |i: usize| -> Result<f64, _> { Ok(PVALUE[index(26, r[i], 4)?]) };
    let xy = |i: usize| -> Result<f64, _> { Ok(XY[index(26, r[i], 9)?]) };
    let (b1, b2, b3, b4) = (b(8)?, b(9)?, b(10)?, b(11)?);
    let (xp1, xg1, xg2, xg3, xg4) = (xy(12)?, xy(13)?, xy(14)?, xy(15)?, xy(16)?);
    let (yp1, yg1, yg2, yg3, yg4) = (xy(17)?, xy(18)?, xy(19)?, xy(20)?, xy(21)?);
    let dist = |xa: f64, ya: f64| ((xa - xp1).powf(2.0) + (ya - yp1).powf(2.0)).sqrt();
    let (c1, c2, c3, c4) = (
        dist(xg1, yg1),
        dist(xg2, yg2),
        dist(xg3, yg3),
        dist(xg4, yg4),
    );
    let (CRmin, dmin, phi, W, JR, Km, Ko, Lmax) =
        (1.4, 25.4, 20.0 * PI / 180.0, 55.9, 0.2, 1.6, 1.5, 127.0);
    let (sigma_H, sigma_N, w1, wmin, wmax, Cp): (f64, f64, f64, f64, f64, f64) =
        (3290.0, 2090.0, 5000.0, 245.0, 255.0, 464.0);
    let Np = [Np1, Np2, Np3, Np4];
    let Ng = [Ng1, Ng2, Ng3, Ng4];
    let bb = [b1, b2, b3, b4];
    let cc = [c1, c2, c3, c4];
    let f = PI / 1000.0
        * (b1 * c1.powf(2.0) * (Np1.powf(2.0) + Ng1.powf(2.0)) / (Np1 + Ng1).powf(2.0)
            + b2 * c2.powf(2.0) * (Np2.powf(2.0) + Ng2.powf(2.0)) / (Np2 + Ng2).powf(2.0)
            + b3 * c3.powf(2.0) * (Np3.powf(2.0) + Ng3.powf(2.0)) / (Np3 + Ng3).powf(2.0)
            + b4 * c4.powf(2.0) * (Np4.powf(2.0) + Ng4.powf(2.0)) / (Np4 + Ng4).powf(2.0));
    // the speed factor of stage s: 366000·(Ng₁…Ng_{s−1})/(π w₁ Np₁…Np_{s−1})
    let lead = [
        366000.0 / (PI * w1),
        366000.0 * Ng1 / (PI * w1 * Np1),
        366000.0 * Ng1 * Ng2 / (PI * w1 * Np1 * Np2),
        366000.0 * Ng1 * Ng2 * Ng3 / (PI * w1 * Np1 * Np2 * Np3),
    ];
    let bend = sigma_N * JR / (0.0167 * W * Ko * Km);
    let contact = (sigma_H / Cp).powf(2.0) * (phi.sin() * phi.cos()) / (0.0334 * W * Ko * Km);
    let sp = phi.sin();
    for s in 0..4 {
        let (np, ng, b, c) = (Np[s], Ng[s], bb[s], cc[s]);
        g[s] = (lead[s] + 2.0 * c * np / (np + ng))
            * ((np + ng).powf(2.0) / (4.0 * b * c.powf(2.0) * np))
            - bend;
        g[4 + s] = (lead[s] + 2.0 * c * np / (np + ng))
            * ((np + ng).powf(3.0) / (4.0 * b * c.powf(2.0) * ng * np.powf(2.0)))
            - contact;
        g[8 + s] = CRmin * PI * phi.cos()
            - np * (sp.powf(2.0) / 4.0 + 1.0 / np + (1.0 / np).powf(2.0)).sqrt()
            - ng * (sp.powf(2.0) / 4.0 + 1.0 / ng + (1.0 / ng).powf(2.0)).sqrt()
            + sp * (np + ng) / 2.0;
        g[12 + s] = dmin - 2.0 * c * np / (np + ng);
        g[16 + s] = dmin - 2.0 * c * ng / (np + ng);
    }
    // shaft positions: the pinion of stage 1 sits at (xp1, yp1); stages 2–4 use their
    // gears' positions in the pinion rows, as the code writes them
    let px = [xp1, xg2, xg3, xg4];
    let py = [yp1, yg2, yg3, yg4];
    let gx = [xg1, xg2, xg3, xg4];
    let gy = [yg1, yg2, yg3, yg4];
    for s in 0..4 {
        let (np, ng, c) = (Np[s], Ng[s], cc[s]);
        let rp = (np + 2.0) * c / (np + ng);
        let rg = (ng + 2.0) * c / (np + ng);
        g[20 + s] = px[s] + rp - Lmax;
        g[24 + s] = -px[s] + rp;
        g[28 + s] = py[s] + rp - Lmax;
        g[32 + s] = -py[s] + rp;
        g[36 + s] = gx[s] + rg - Lmax;
        g[40 + s] = -gx[s] + rg;
        g[44 + s] = gy[s] + rg - Lmax;
        g[48 + s] = -gy[s] + rg;
    }
    // face-width selection rules: (k·c − Np − Ng)·Π(b − other widths)·sign
    for s in 0..4 {
        let (np, ng, b, c) = (Np[s], Ng[s], bb[s], cc[s]);
        g[52 + s] = -((0.945 * c - np - ng) * (b - 5.715) * (b - 8.255) * (b - 12.70));
        g[56 + s] = (0.646 * c - np - ng) * (b - 3.175) * (b - 8.255) * (b - 12.70);
        g[60 + s] = -((0.504 * c - np - ng) * (b - 3.175) * (b - 5.715) * (b - 12.70));
        g[64 + s] = (0.0 * c - np - ng) * (b - 3.175) * (b - 5.715) * (b - 8.255);
        g[68 + s] = -((-1.812 * c + np + ng) * (b - 5.715) * (b - 8.255) * (b - 12.70));
        g[72 + s] = (-0.945 * c + np + ng) * (b - 3.175) * (b - 8.255) * (b - 12.70);
        g[76 + s] = -((-0.646 * c + np + ng) * (b - 3.175) * (b - 5.715) * (b - 12.70));
        g[80 + s] = (-0.504 * c + np + ng) * (b - 3.175) * (b - 5.715) * (b - 8.255);
    }
    // the code's g₇₉ and g₈₀ pair the third and fourth gears with the previous stage's
    // pinion (Np2 + Ng3, Np3 + Ng4): kept, since the reference values are the code's
    g[78] = -((-0.646 * c3 + Np2 + Ng3) * (b3 - 3.175) * (b3 - 5.715) * (b3 - 12.70));
    g[79] = -((-0.646 * c4 + Np3 + Ng4) * (b4 - 3.175) * (b4 - 5.715) * (b4 - 12.70));
    let ratio = w1 * (Np1 * Np2 * Np3 * Np4) / (Ng1 * Ng2 * Ng3 * Ng4);
    g[84] = wmin - ratio;
    g[85] = -wmax + ratio;
    for v in g.iter_mut() {
        if v.is_infinite() {
            *v = 1e6;
        }
    }
    Ok(f)
}

/// RC30. Tension/compression spring design (case 2): the number of coils round(x₁),
/// the coil diameter x₂ and the wire diameter from a table of 42 standard sizes
/// (index round(x₃)); 8 inequalities.
///
/// # Errors
/// A wire index that rounds outside 1–42 (outside the box).
pub(crate) fn rc30(x: &[R], g: &mut [R], _h: &mut [R]) -> Out<R> {
    // the organisers' table, including its 0.0105 between 0.092 and 0.120
    const D: [f64; 42] = [
        0.009, 0.0095, 0.0104, 0.0118, 0.0128, 0.0132, 0.014, 0.015, 0.0162, 0.0173, 0.018, 0.020,
        0.023, 0.025, 0.028, 0.032, 0.035, 0.041, 0.047, 0.054, 0.063, 0.072, 0.080, 0.092, 0.0105,
        0.120, 0.135, 0.148, 0.162, 0.177, 0.192, 0.207, 0.225, 0.244, 0.263, 0.283, 0.307, 0.331,
        0.362, 0.394, 0.4375, 0.500,
    ];
    let x1 = x[0].round();
    let x2 = x[1];
    let x3 = D[index(30, x[2].round().re(), 42)?];
    let f = (PI.powf(2.0) * x2 * x3.powf(2.0) * (x1 + 2.0)) / 4.0;
    let cf = (4.0 * x2 / x3 - 1.0) / (4.0 * x2 / x3 - 4.0) + 0.615 * x3 / x2;
    let K = (11.5 * 10.0_f64.powf(6.0) * x3.powf(4.0)) / (8.0 * x1 * x2.powf(3.0));
    let lf = 1000.0 / K + 1.05 * (x1 + 2.0) * x3;
    let sigp = 300.0 / K;
    g[0] = (8000.0 * cf * x2) / (PI * x3.powf(3.0)) - 189000.0;
    g[1] = lf - 14.0;
    g[2] = R::from(0.2 - x3);
    g[3] = x2 - 3.0;
    g[4] = 3.0 - x2 / x3;
    g[5] = sigp - 6.0;
    g[6] = sigp + 700.0 / K + 1.05 * (x1 + 2.0) * x3 - lf;
    g[7] = 1.25 - 700.0 / K;
    Ok(f)
}
}
