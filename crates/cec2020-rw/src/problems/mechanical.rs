//! Mechanical engineering, RC15–RC33: the classic design problems (speed reducer,
//! springs, pressure vessel, welded beam, trusses, clutch, gear trains, pulley, gripper,
//! bearings, compressor) and a small topology optimisation.
//!
//! Variable names follow the organisers' code, so upper-case names of physical
//! quantities are kept; constants such as 0.7854 and 3.14 are the formulas' own rounded
//! values, not approximations of π written here.
#![allow(
    non_snake_case,
    clippy::approx_constant,
    clippy::excessive_precision,
    clippy::needless_range_loop
)]

use super::{index, Out};
use crate::numerics::{cholesky_solve, fminbnd, generalized_eigenvalues, lu_solve};
use num_complex::Complex64 as C64;
use std::f64::consts::PI;

super::formulas! {

/// RC15. Weight minimisation of a speed reducer: 7 variables, 11 inequalities.
pub(crate) fn rc15(x: &[R], g: &mut [R], _h: &mut [R]) -> Out<R> {
    let f = 0.7854 * x[0] * x[1].powf(2.0) * (3.3333 * x[2].powf(2.0) + 14.9334 * x[2] - 43.0934)
        - 1.508 * x[0] * (x[5].powf(2.0) + x[6].powf(2.0))
        + 7.477 * (x[5].powf(3.0) + x[6].powf(3.0))
        + 0.7854 * (x[3] * x[5].powf(2.0) + x[4] * x[6].powf(2.0));
    g[0] = -x[0] * x[1].powf(2.0) * x[2] + 27.0;
    g[1] = -x[0] * x[1].powf(2.0) * x[2].powf(2.0) + 397.5;
    g[2] = -x[1] * x[5].powf(4.0) * x[2] * x[3].powf(-3.0) + 1.93;
    g[3] = -x[1] * x[6].powf(4.0) * x[2] / x[4].powf(3.0) + 1.93;
    g[4] = 10.0
        * x[5].powf(-3.0)
        * (16.91 * 10.0_f64.powf(6.0) + (745.0 * x[3] / (x[1] * x[2])).powf(2.0)).sqrt()
        - 1100.0;
    g[5] = 10.0
        * x[6].powf(-3.0)
        * (157.5 * 10.0_f64.powf(6.0) + (745.0 * x[4] / (x[1] * x[2])).powf(2.0)).sqrt()
        - 850.0;
    g[6] = x[1] * x[2] - 40.0;
    g[7] = -x[0] / x[1] + 5.0;
    g[8] = x[0] / x[1] - 12.0;
    g[9] = 1.5 * x[5] - x[3] + 1.9;
    g[10] = 1.1 * x[6] - x[4] + 1.9;
    Ok(f)
}

/// RC16. Optimal design of an industrial refrigeration system: 14 variables, 15 inequalities.
pub(crate) fn rc16(x: &[R], g: &mut [R], _h: &mut [R]) -> Out<R> {
    let f = 63098.88 * x[1] * x[3] * x[11]
        + 5441.5 * x[1].powf(2.0) * x[11]
        + 115055.5 * x[1].powf(1.664) * x[5]
        + 6172.27 * x[1].powf(2.0) * x[5]
        + 63098.88 * x[0] * x[2] * x[10]
        + 5441.5 * x[0].powf(2.0) * x[10]
        + 115055.5 * x[0].powf(1.664) * x[4]
        + 6172.27 * x[0].powf(2.0) * x[4]
        + 140.53 * x[0] * x[10]
        + 281.29 * x[2] * x[10]
        + 70.26 * x[0].powf(2.0)
        + 281.29 * x[0] * x[2]
        + 281.29 * x[2].powf(2.0)
        + 14437.0
            * x[7].powf(1.8812)
            * x[11].powf(0.3424)
            * x[9]
            * x[13].powf(-1.0)
            * x[0].powf(2.0)
            * x[6]
            * x[8].powf(-1.0)
        + 20470.2 * x[6].powf(2.893) * x[10].powf(0.316) * x[0].powf(2.0);
    g[0] = 1.524 * x[6].powf(-1.0) - 1.0;
    g[1] = 1.524 * x[7].powf(-1.0) - 1.0;
    g[2] = 0.07789 * x[0] - 2.0 * x[6].powf(-1.0) * x[8] - 1.0;
    g[3] = 7.05305
        * x[8].powf(-1.0)
        * x[0].powf(2.0)
        * x[9]
        * x[7].powf(-1.0)
        * x[1].powf(-1.0)
        * x[13].powf(-1.0)
        - 1.0;
    g[4] = 0.0833 / x[12] * x[13] - 1.0;
    g[5] = 0.04771 * x[9] * x[7].powf(1.8812) * x[11].powf(0.3424) - 1.0;
    g[6] = 0.0488 * x[8] * x[6].powf(1.893) * x[10].powf(0.316) - 1.0;
    g[7] = 0.0099 * x[0] / x[2] - 1.0;
    g[8] = 0.0193 * x[1] / x[3] - 1.0;
    g[9] = 0.0298 * x[0] / x[4] - 1.0;
    g[10] = 47.136 * x[1].powf(0.333) / x[9] * x[11] - 1.333 * x[7] * x[12].powf(2.1195)
        + 62.08 * x[12].powf(2.1195) * x[7].powf(0.2) / (x[11] * x[9])
        - 1.0;
    g[11] = 0.056 * x[1] / x[5] - 1.0;
    g[12] = 2.0 / x[8] - 1.0;
    g[13] = 2.0 / x[9] - 1.0;
    g[14] = x[11] / x[10] - 1.0;
    Ok(f)
}

/// RC17. Tension/compression spring design (case 1): wire diameter, coil diameter, active coils; 4 inequalities (the code returns the outer-diameter limit too, which `Cal_par.m` does not count).
pub(crate) fn rc17(x: &[R], g: &mut [R], _h: &mut [R]) -> Out<R> {
    let f = x[0].powf(2.0) * x[1] * (x[2] + 2.0);
    g[0] = 1.0 - (x[1].powf(3.0) * x[2]) / (71785.0 * x[0].powf(4.0));
    g[1] = (4.0 * x[1].powf(2.0) - x[0] * x[1])
        / (12566.0 * (x[1] * x[0].powf(3.0) - x[0].powf(4.0)))
        + 1.0 / (5108.0 * x[0].powf(2.0))
        - 1.0;
    g[2] = 1.0 - 140.45 * x[0] / (x[1].powf(2.0) * x[2]);
    g[3] = (x[0] + x[1]) / 1.5 - 1.0;
    Ok(f)
}

/// RC18. Pressure vessel design: shell and head thicknesses are multiples of 0.0625 (0.0625·round(x)); 4 inequalities.
pub(crate) fn rc18(x: &[R], g: &mut [R], _h: &mut [R]) -> Out<R> {
    let x = [0.0625 * x[0].round(), 0.0625 * x[1].round(), x[2], x[3]];
    let f = 0.6224 * x[0] * x[2] * x[3]
        + 1.7781 * x[1] * x[2].powf(2.0)
        + 3.1661 * x[0].powf(2.0) * x[3]
        + 19.84 * x[0].powf(2.0) * x[2];
    g[0] = -x[0] + 0.0193 * x[2];
    g[1] = -x[1] + 0.00954 * x[2];
    g[2] = -PI * x[2].powf(2.0) * x[3] - 4.0 / 3.0 * PI * x[2].powf(3.0) + 1296000.0;
    g[3] = x[3] - 240.0;
    Ok(f)
}

/// RC19. Welded beam design: shear stress, bending stress, deflection and buckling load; 5 inequalities.
pub(crate) fn rc19(x: &[R], g: &mut [R], _h: &mut [R]) -> Out<R> {
    let f = 1.10471 * x[0].powf(2.0) * x[1] + 0.04811 * x[2] * x[3] * (14.0 + x[1]);
    let P: f64 = 6000.0;
    let L: f64 = 14.0;
    let delta_max: f64 = 0.25;
    let E: f64 = 30.0 * 1e6;
    let G: f64 = 12.0 * 1e6;
    let T_max: f64 = 13600.0;
    let sigma_max: f64 = 30000.0;
    let Pc = 4.013 * E * (x[2].powf(2.0) * x[3].powf(6.0) / 30.0).sqrt() / L.powf(2.0)
        * (1.0 - x[2] / (2.0 * L) * (E / (4.0 * G)).sqrt());
    let sigma = 6.0 * P * L / (x[3] * x[2].powf(2.0));
    let delta = 6.0 * P * L.powf(3.0) / (E * x[2].powf(2.0) * x[3]);
    let J = 2.0
        * (2.0_f64.sqrt() * x[0] * x[1] * (x[1].powf(2.0) / 4.0 + (x[0] + x[2]).powf(2.0) / 4.0));
    let R = (x[1].powf(2.0) / 4.0 + (x[0] + x[2]).powf(2.0) / 4.0).sqrt();
    let M = P * (L + x[1] / 2.0);
    let ttt = M * R / J;
    let tt = P / (2.0_f64.sqrt() * x[0] * x[1]);
    let t = (tt.powf(2.0) + 2.0 * tt * ttt * x[1] / (2.0 * R) + ttt.powf(2.0)).sqrt();
    g[0] = t - T_max;
    g[1] = sigma - sigma_max;
    g[2] = x[0] - x[3];
    g[3] = delta - delta_max;
    g[4] = P - Pc;
    Ok(f)
}

/// RC20. Three-bar truss design: 2 cross-sections, 3 stress inequalities.
pub(crate) fn rc20(x: &[R], g: &mut [R], _h: &mut [R]) -> Out<R> {
    let f = (2.0 * 2.0_f64.sqrt() * x[0] + x[1]) * 100.0;
    g[0] = (2.0_f64.sqrt() * x[0] + x[1]) / (2.0_f64.sqrt() * x[0].powf(2.0) + 2.0 * x[0] * x[1])
        * 2.0
        - 2.0;
    g[1] = x[1] / (2.0_f64.sqrt() * x[0].powf(2.0) + 2.0 * x[0] * x[1]) * 2.0 - 2.0;
    g[2] = 1.0 / (2.0_f64.sqrt() * x[1] + x[0]) * 2.0 - 2.0;
    Ok(f)
}

/// RC21. Multiple disk clutch brake design: 5 variables, 8 inequalities (the code returns the stopping time's sign constraint −T ≤ 0 too, which `Cal_par.m` does not count).
pub(crate) fn rc21(x: &[R], g: &mut [R], _h: &mut [R]) -> Out<R> {
    let Mf: f64 = 3.0;
    let Ms: f64 = 40.0;
    let Iz: f64 = 55.0;
    let n: f64 = 250.0;
    let Tmax: f64 = 15.0;
    let s: f64 = 1.5;
    let delta: f64 = 0.5;
    let Vsrmax: f64 = 10.0;
    let rho: f64 = 0.0000078;
    let pmax: f64 = 1.0;
    let mu: f64 = 0.6;
    let Lmax: f64 = 30.0;
    let delR: f64 = 20.0;
    let Rsr = 2.0 / 3.0 * (x[1].powf(3.0) - x[0].powf(3.0)) / (x[1].powf(2.0) * x[0].powf(2.0));
    let Vsr = PI * Rsr * n / 30.0;
    let A = PI * (x[1].powf(2.0) - x[0].powf(2.0));
    let Prz = x[3] / A;
    let w = PI * n / 30.0;
    let Mh = 2.0 / 3.0 * mu * x[3] * x[4] * (x[1].powf(3.0) - x[0].powf(3.0))
        / (x[1].powf(2.0) - x[0].powf(2.0));
    let T = Iz * w / (Mh + Mf);
    let f = PI * (x[1].powf(2.0) - x[0].powf(2.0)) * x[2] * (x[4] + 1.0) * rho;
    g[0] = -x[1] + x[0] + delR;
    g[1] = (x[4] + 1.0) * (x[2] + delta) - Lmax;
    g[2] = Prz - pmax;
    g[3] = Prz * Vsr - pmax * Vsrmax;
    g[4] = Vsr - Vsrmax;
    g[5] = T - Tmax;
    g[6] = s * Ms - Mh;
    g[7] = -T;
    Ok(f)
}

/// RC23. Step-cone pulley: 4 step diameters and the width; 8 inequalities (tension ratio, power), 3 equalities (equal belt lengths).
pub(crate) fn rc23(x: &[R], g: &mut [R], h: &mut [R]) -> Out<R> {
    let d1 = x[0] * 1e-3;
    let d2 = x[1] * 1e-3;
    let d3 = x[2] * 1e-3;
    let d4 = x[3] * 1e-3;
    let w = x[4] * 1e-3;
    let N: f64 = 350.0;
    let N1: f64 = 750.0;
    let N2: f64 = 450.0;
    let N3: f64 = 250.0;
    let N4: f64 = 150.0;
    let rho: f64 = 7200.0;
    let a: f64 = 3.0;
    let mu: f64 = 0.35;
    let s: f64 = 1.75 * 1e6;
    let t: f64 = 8.0 * 1e-3;
    let f = rho * w * PI / 4.0
        * (d1.powf(2.0) * (1.0 + (N1 / N).powf(2.0))
            + d2.powf(2.0) * (1.0 + (N2 / N).powf(2.0))
            + d3.powf(2.0) * (1.0 + (N3 / N).powf(2.0))
            + d4.powf(2.0) * (1.0 + (N4 / N).powf(2.0)));
    let C1 = PI * d1 / 2.0 * (1.0 + N1 / N)
        + (N1 / N - 1.0).powf(2.0) * d1.powf(2.0) / (4.0 * a)
        + 2.0 * a;
    let C2 = PI * d2 / 2.0 * (1.0 + N2 / N)
        + (N2 / N - 1.0).powf(2.0) * d2.powf(2.0) / (4.0 * a)
        + 2.0 * a;
    let C3 = PI * d3 / 2.0 * (1.0 + N3 / N)
        + (N3 / N - 1.0).powf(2.0) * d3.powf(2.0) / (4.0 * a)
        + 2.0 * a;
    let C4 = PI * d4 / 2.0 * (1.0 + N4 / N)
        + (N4 / N - 1.0).powf(2.0) * d4.powf(2.0) / (4.0 * a)
        + 2.0 * a;
    let R1 = (mu * (PI - 2.0 * ((N1 / N - 1.0) * d1 / (2.0 * a)).asin())).exp();
    let R2 = (mu * (PI - 2.0 * ((N2 / N - 1.0) * d2 / (2.0 * a)).asin())).exp();
    let R3 = (mu * (PI - 2.0 * ((N3 / N - 1.0) * d3 / (2.0 * a)).asin())).exp();
    let R4 = (mu * (PI - 2.0 * ((N4 / N - 1.0) * d4 / (2.0 * a)).asin())).exp();
    let P1 = s
        * t
        * w
        * (1.0 - (-mu * (PI - 2.0 * ((N1 / N - 1.0) * d1 / (2.0 * a)).asin())).exp())
        * PI
        * d1
        * N1
        / 60.0;
    let P2 = s
        * t
        * w
        * (1.0 - (-mu * (PI - 2.0 * ((N2 / N - 1.0) * d2 / (2.0 * a)).asin())).exp())
        * PI
        * d2
        * N2
        / 60.0;
    let P3 = s
        * t
        * w
        * (1.0 - (-mu * (PI - 2.0 * ((N3 / N - 1.0) * d3 / (2.0 * a)).asin())).exp())
        * PI
        * d3
        * N3
        / 60.0;
    let P4 = s
        * t
        * w
        * (1.0 - (-mu * (PI - 2.0 * ((N4 / N - 1.0) * d4 / (2.0 * a)).asin())).exp())
        * PI
        * d4
        * N4
        / 60.0;
    g[0] = -R1 + 2.0;
    g[1] = -R2 + 2.0;
    g[2] = -R3 + 2.0;
    g[3] = -R4 + 2.0;
    g[4] = -P1 + (0.75 * 745.6998);
    g[5] = -P2 + (0.75 * 745.6998);
    g[6] = -P3 + (0.75 * 745.6998);
    g[7] = -P4 + (0.75 * 745.6998);
    h[0] = C1 - C2;
    h[1] = C1 - C3;
    h[2] = C1 - C4;
    Ok(f)
}

/// RC25. Hydrostatic thrust bearing design: power loss with viscosity, flow and radii; 7 inequalities.
pub(crate) fn rc25(x: &[R], g: &mut [R], _h: &mut [R]) -> Out<R> {
    let R = x[0];
    let Ro = x[1];
    let mu = x[2];
    let Q = x[3];
    let gamma: f64 = 0.0307;
    let C: f64 = 0.5;
    let n: f64 = -3.55;
    let C1: f64 = 10.04;
    let Ws: f64 = 101000.0;
    let Pmax: f64 = 1000.0;
    let delTmax: f64 = 50.0;
    let hmin: f64 = 0.001;
    let gg: f64 = 386.4;
    let N: f64 = 750.0;
    let P = ((8.122 * 1e6 * mu + 0.8).log10().log10() - C1) / n;
    let delT = 2.0 * (R::from(10.0).powd(P) - 560.0);
    let Ef = 9336.0 * Q * gamma * C * delT;
    let h_ = (2.0 * PI * N / 60.0).powf(2.0) * 2.0 * PI * mu / Ef
        * (R.powf(4.0) / 4.0 - Ro.powf(4.0) / 4.0)
        - 1e-5;
    let Po = (6.0 * mu * Q / (PI * h_.powf(3.0))) * (R / Ro).ln();
    let W = PI * Po / 2.0 * (R.powf(2.0) - Ro.powf(2.0)) / ((R / Ro).ln() - 1e-5);
    let f = (Q * Po / 0.7 + Ef) / 12.0;
    g[0] = Ws - W;
    g[1] = Po - Pmax;
    g[2] = delT - delTmax;
    g[3] = hmin - h_;
    g[4] = Ro - R;
    g[5] = gamma / (gg * Po) * (Q / (2.0 * PI * R * h_)) - 0.001;
    g[6] = W / (PI * (R.powf(2.0) - Ro.powf(2.0)) + 1e-5) - 5000.0;
    Ok(f)
}

/// RC28. Rolling element bearing: dynamic load capacity (maximised as written in the code, with the rounded number of balls); 9 inequalities.
pub(crate) fn rc28(x: &[R], g: &mut [R], _h: &mut [R]) -> Out<R> {
    let Dm = x[0];
    let Db = x[1];
    let Z = x[2].round();
    let fi = x[3];
    let fo = x[4];
    let KDmin = x[5];
    let KDmax = x[6];
    let eps = x[7];
    let e = x[8];
    let chi = x[9];
    let D: f64 = 160.0;
    let d: f64 = 90.0;
    let Bw: f64 = 30.0;
    let T = D - d - 2.0 * Db;
    let phi_o = 2.0 * PI
        - 2.0
            * ((((D - d) * 0.5 - 0.75 * T).powf(2.0) + (0.5 * D - 0.25 * T - Db).powf(2.0)
                - (0.5 * d + 0.25 * T).powf(2.0))
                / (2.0 * (0.5 * (D - d) - 0.75 * T) * (0.5 * D - 0.25 * T - Db)))
                .acos();
    let gamma = Db / Dm;
    let fc = 37.91
        * (1.0
            + (1.04
                * ((1.0 - gamma) / (1.0 + gamma)).powf(1.72)
                * (fi * (2.0 * fo - 1.0) / (fo * (2.0 * fi - 1.0))).powf(0.41))
            .powf(10.0 / 3.0))
        .powf(-0.3)
        * (gamma.powf(0.3) * (1.0 - gamma).powf(1.39) / (1.0 + gamma).powf(1.0 / 3.0))
        * (2.0 * fi / (2.0 * fi - 1.0)).powf(0.41);
    let f = if Db > 25.4 {
        3.647 * fc * Z.powf(2.0 / 3.0) * Db.powf(1.4)
    } else {
        fc * Z.powf(2.0 / 3.0) * Db.powf(1.8)
    };
    g[0] = Z - 1.0 - phi_o / (2.0 * (Db / Dm).asin());
    g[1] = KDmin * (D - d) - 2.0 * Db;
    g[2] = 2.0 * Db - KDmax * (D - d);
    g[3] = chi * Bw - Db;
    g[4] = 0.5 * (D + d) - Dm;
    g[5] = Dm - (0.5 + e) * (D + d);
    g[6] = eps * Db - 0.5 * (D - Dm - Db);
    g[7] = 0.515 - fi;
    g[8] = 0.515 - fo;
    Ok(f)
}

/// RC29. Gas transmission compressor design: 4 variables, 1 inequality. Where a
/// variable is negative (outside the box) the code's f is complex: here `+∞`.
pub(crate) fn rc29(x: &[R], g: &mut [R], _h: &mut [R]) -> Out<R> {
    g[0] = x[3] * x[1].powf(-2.0) + x[1].powf(-2.0) - 1.0;
    // fractional powers of a negative variable (outside the box) are complex in the
    // code: f is then +∞
    if x.iter().any(|&v| v < 0.0) {
        return Ok(R::from(f64::INFINITY));
    }
    let f = 8.61 * 1e5 * x[0].powf(0.5) * x[1] * x[2].powf(-2.0 / 3.0) * x[3].powf(-1.0 / 2.0)
        + 3.69 * 1e4 * x[2]
        + 7.72 * 1e8 * x[0].powf(-1.0) * x[1].powf(0.219)
        - 765.43 * 1e6 * x[0].powf(-1.0);
    Ok(f)
}

/// RC31. Gear train design: (1/6.931 − x₁x₂/(x₃x₄))². The code returns one inequality
/// and one equality that are identically 0 (the guidelines' table lists one of each); they
/// are kept, so the constraint counts are the declared ones.
pub(crate) fn rc31(x: &[R], g: &mut [R], h: &mut [R]) -> Out<R> {
    g[0] = R::from(0.0);
    h[0] = R::from(0.0);
    let x1 = x[0];
    let x2 = x[1];
    let x3 = x[2];
    let x4 = x[3];
    let f = (1.0 / 6.931 - (x1 * x2) / (x3 * x4)).powf(2.0);
    Ok(f)
}

/// RC32. Himmelblau's function: 5 variables, 6 inequalities (three two-sided ranges).
pub(crate) fn rc32(x: &[R], g: &mut [R], _h: &mut [R]) -> Out<R> {
    let x1 = x[0];
    let x2 = x[1];
    let x3 = x[2];
    let x4 = x[3];
    let x5 = x[4];
    let f = 5.3578547 * x3.powf(2.0) + 0.8356891 * x1 * x5 + 37.293239 * x1 - 40792.141;
    let G1 = 85.334407 + 0.0056858 * x2 * x5 + 0.0006262 * x1 * x4 - 0.0022053 * x3 * x5;
    let G2 = 80.51249 + 0.0071317 * x2 * x5 + 0.0029955 * x1 * x2 + 0.0021813 * x3.powf(2.0);
    let G3 = 9.300961 + 0.0047026 * x3 * x5 + 0.0012547 * x1 * x3 + 0.0019085 * x3 * x4;
    g[0] = G1 - 92.0;
    g[1] = -G1;
    g[2] = G2 - 110.0;
    g[3] = -G2 + 90.0;
    g[4] = G3 - 25.0;
    g[5] = -G3 + 20.0;
    Ok(f)
}
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

/// Octave's `acos` of a real argument: real inside [−1, 1], else complex
/// (`i·acosh x` above 1, `π − i·acosh|x|` below −1).
fn acos_real(v: f64) -> C64 {
    if v > 1.0 {
        C64::new(0.0, v.acosh())
    } else if v < -1.0 {
        C64::new(PI, -(-v).acosh())
    } else {
        C64::new(v.acos(), 0.0)
    }
}

/// Octave's `acos` of a real argument where it is real (inside [−1, 1], or NaN), `None`
/// where it is complex ([`acos_real`]'s imaginary part is not zero).
#[allow(clippy::manual_range_contains)] // a NaN argument is real (NaN) in Octave
fn acos_where_real(v: R) -> Option<R> {
    if v > 1.0 || v < -1.0 {
        None
    } else {
        Some(v.acos())
    }
}

/// The gripping force of RC24's linkage at actuator displacement `z`, as the
/// organisers' `OBJ11`: real arithmetic while everything is real (as Octave computes
/// it), complex where the linkage cannot close (`acos` of an argument beyond ±1) or `z`
/// itself has become complex in the search.
fn gripper_force(x: &[f64], z: C64) -> C64 {
    let (a, b, c, e, l) = (x[0], x[1], x[2], x[3], x[5]);
    let p: f64 = 100.0;
    if z.im == 0.0 {
        let lz = l - z.re;
        let root = (lz.powf(2.0) + e.powf(2.0)).sqrt();
        let arg_a = (a.powf(2.0) + lz.powf(2.0) + e.powf(2.0) - b.powf(2.0)) / (2.0 * a * root);
        let arg_b = (b.powf(2.0) + lz.powf(2.0) + e.powf(2.0) - a.powf(2.0)) / (2.0 * b * root);
        let (alpha, beta) = (acos_real(arg_a), acos_real(arg_b));
        if alpha.im == 0.0 && beta.im == 0.0 {
            let (alpha, beta) = (alpha.re, beta.re);
            return C64::new(
                p * b * (alpha + beta).sin() / (2.0 * c * (alpha + (e / lz).atan()).cos()),
                0.0,
            );
        }
        let num = p * b * (alpha + beta).sin();
        return num / (2.0 * c * (alpha + (e / lz).atan()).cos());
    }
    let lz = l - z;
    let root = (lz * lz + e * e).sqrt();
    let alpha = ((a * a + lz * lz + e * e - b * b) / (2.0 * a * root)).acos();
    let beta = ((b * b + lz * lz + e * e - a * a) / (2.0 * b * root)).acos();
    p * b * (alpha + beta).sin() / (2.0 * c * (alpha + (e / lz).atan()).cos())
}

/// RC24. Robot gripper: f = max_z F(z) − min_z F(z), the range of the gripping force
/// over the actuator's stroke z ∈ [0, Z_max], each extreme found by Octave's `fminbnd`
/// as the organisers' code finds it (so f can be 0 where the search never leaves its
/// first point); 7 inequalities. Where f or a constraint is complex (the linkage cannot
/// close), it is 10⁴, as in the code.
pub(crate) fn rc24(x: &[R], g: &mut [R], _h: &mut [R]) -> Out<R> {
    let (a, b, c, e, ff, l, delta) = (x[0], x[1], x[2], x[3], x[4], x[5], x[6]);
    let (Ymin, Ymax, YG, Zmax) = (50.0, 100.0, 150.0, 99.9999);
    // the objective is a minimiser's result (fminbnd), computed over the values: its
    // derivative is not defined through the search, and no Jacobian needs it
    let values: [f64; 7] = std::array::from_fn(|i| x[i].re());
    let min_force = fminbnd(|z| gripper_force(&values, z), 0.0, Zmax);
    let max_force = fminbnd(|z| -gripper_force(&values, z), 0.0, Zmax);
    let fc = -max_force - min_force;
    let f = R::from(if fc.im != 0.0 { 1e4 } else { fc.re });
    let lm = l - Zmax;
    let beta_0 = acos_where_real(
        (b.powf(2.0) + l.powf(2.0) + e.powf(2.0) - a.powf(2.0))
            / (2.0 * b * (l.powf(2.0) + e.powf(2.0)).sqrt()),
    )
    .map(|beta| beta - (e / l).atan());
    let beta_m = acos_where_real(
        (b.powf(2.0) + lm.powf(2.0) + e.powf(2.0) - a.powf(2.0))
            / (2.0 * b * (lm.powf(2.0) + e.powf(2.0)).sqrt()),
    )
    .map(|beta| beta - (e / lm).atan());
    // Y_x = 2(e + f + c·sin(β + δ)), real where β is; 10⁴ where it is complex
    let y_x = |beta: Option<R>| beta.map(|beta| 2.0 * (e + ff + c * (beta + delta).sin()));
    match y_x(beta_m) {
        Some(y) => (g[0], g[1]) = (y - Ymin, -y),
        None => (g[0], g[1]) = (R::from(1e4), R::from(1e4)),
    }
    match y_x(beta_0) {
        Some(y) => (g[2], g[3]) = (Ymax - y, y - YG),
        None => (g[2], g[3]) = (R::from(1e4), R::from(1e4)),
    }
    g[4] = l.powf(2.0) + e.powf(2.0) - (a + b).powf(2.0);
    g[5] = b.powf(2.0) - (a - e).powf(2.0) - (l - Zmax).powf(2.0);
    g[6] = Zmax - l;
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

/// RC27. 10-bar truss: minimise the weight Σ ρ Lᵢ Aᵢ of ten bars (areas x) subject to
/// lower limits on the first three natural frequencies (7, 15, 20 Hz): cᵢ = fᵢ*/fᵢ − 1 ≤ 0,
/// with fᵢ = √λᵢ / 2π from the pencil K v = λ M v of the truss (consistent mass matrix
/// plus 454 kg at each node, the two left nodes fixed).
///
/// Outside the box (negative areas) a frequency can be imaginary (λ < 0), where the
/// organisers' code returns a complex constraint value; here that constraint is `+∞`:
/// the design cannot exist, and an ordering must see it as violated.
pub(crate) fn rc27(x: &[R], g: &mut [R], _h: &mut [R]) -> Out<R> {
    const E: f64 = 6.98e10;
    const RHO: f64 = 2770.0;
    const ADDED_MASS: f64 = 454.0;
    const GX: [f64; 6] = [18.288, 18.288, 9.144, 9.144, 0.0, 0.0];
    const GY: [f64; 6] = [9.144, 0.0, 9.144, 0.0, 9.144, 0.0];
    const ELEMENTS: [(usize, usize); 10] = [
        (3, 5),
        (1, 3),
        (4, 6),
        (2, 4),
        (3, 4),
        (1, 2),
        (4, 5),
        (3, 6),
        (2, 3),
        (1, 4),
    ];
    const N: usize = 12;
    let mut k = [R::from(0.0); N * N];
    let mut m = [R::from(0.0); N * N];
    let mut f = R::from(0.0);
    for (i, &(n1, n2)) in ELEMENTS.iter().enumerate() {
        let (dx, dy) = (GX[n2 - 1] - GX[n1 - 1], GY[n2 - 1] - GY[n1 - 1]);
        let le = (dx.powf(2.0) + dy.powf(2.0)).sqrt();
        f += RHO * le * x[i];
        let (lc, mc) = (dx / le, dy / le);
        // Teᵀ [1 −1; −1 1] Te · A E / L, Te = [l m 0 0; 0 0 l m]
        let t = [[lc, mc, 0.0, 0.0], [0.0, 0.0, lc, mc]];
        let s = x[i] * E / le;
        let ke_base = [[s, -s], [-s, s]];
        let me = RHO * le * x[i] / 6.0;
        let me_pat = [
            [2.0, 0.0, 1.0, 0.0],
            [0.0, 2.0, 0.0, 1.0],
            [1.0, 0.0, 2.0, 0.0],
            [0.0, 1.0, 0.0, 2.0],
        ];
        let idx = [2 * n1 - 2, 2 * n1 - 1, 2 * n2 - 2, 2 * n2 - 1];
        for r in 0..4 {
            for c in 0..4 {
                // (Teᵀ ke Te)[r][c] = Σ_ab Te[a][r] ke[a][b] Te[b][c]
                let mut v = R::from(0.0);
                for a in 0..2 {
                    let mut inner = R::from(0.0);
                    for b in 0..2 {
                        inner += ke_base[a][b] * t[b][c];
                    }
                    v += t[a][r] * inner;
                }
                k[idx[r] * N + idx[c]] += v;
                m[idx[r] * N + idx[c]] += me * me_pat[r][c];
            }
        }
    }
    for i in 0..N {
        m[i * N + i] += ADDED_MASS;
    }
    // nodes 5 and 6 are fixed: the free degrees of freedom are 1–8
    const FREE: usize = 8;
    let sub = |a: &[R]| -> Vec<R> {
        (0..FREE)
            .flat_map(|i| (0..FREE).map(move |j| (i, j)))
            .map(|(i, j)| a[i * N + j])
            .collect()
    };
    match generalized_eigenvalues(&sub(&k), &sub(&m), FREE) {
        Some(ev) => {
            for (gi, (&lambda, limit)) in g.iter_mut().zip(ev.iter().zip([7.0, 15.0, 20.0])) {
                *gi = if lambda < 0.0 {
                    R::from(f64::INFINITY)
                } else {
                    limit / (lambda.sqrt() / 2.0 / PI) - 1.0
                };
            }
        }
        None => g[..3].fill(R::from(f64::INFINITY)),
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

/// The 8 × 8 stiffness matrix of a bilinear square element (E = 2.06·10⁸, ν = 0.3), as
/// the organisers' `lk`.
fn element_stiffness() -> [[f64; 8]; 8] {
    let nu: f64 = 0.3;
    let e: f64 = 206000000.0;
    let k = [
        1.0 / 2.0 - nu / 6.0,
        1.0 / 8.0 + nu / 8.0,
        -1.0 / 4.0 - nu / 12.0,
        -1.0 / 8.0 + 3.0 * nu / 8.0,
        -1.0 / 4.0 + nu / 12.0,
        -1.0 / 8.0 - nu / 8.0,
        nu / 6.0,
        1.0 / 8.0 - 3.0 * nu / 8.0,
    ];
    const P: [[usize; 8]; 8] = [
        [0, 1, 2, 3, 4, 5, 6, 7],
        [1, 0, 7, 6, 5, 4, 3, 2],
        [2, 7, 0, 5, 6, 3, 4, 1],
        [3, 6, 5, 0, 7, 2, 1, 4],
        [4, 5, 6, 7, 0, 1, 2, 3],
        [5, 4, 3, 2, 1, 0, 7, 6],
        [6, 3, 4, 1, 2, 7, 0, 5],
        [7, 2, 1, 4, 3, 6, 5, 0],
    ];
    let s = e / (1.0 - nu.powf(2.0));
    std::array::from_fn(|i| std::array::from_fn(|j| s * k[P[i][j]]))
}

/// RC33. Topology optimisation of a 3 × 10 cantilever (SIMP, penalty 3): the
/// compliance c = Σ xₑ³ uₑᵀ Kₑ uₑ from a finite-element solve, with the 30 filtered
/// sensitivities (Sigmund's mesh-independency filter, radius 1.5) as the inequalities,
/// as the organisers' code poses it.
pub(crate) fn rc33(x: &[R], g: &mut [R], _h: &mut [R]) -> Out<R> {
    const NELX: usize = 3;
    const NELY: usize = 10;
    const NDOF: usize = 2 * (NELX + 1) * (NELY + 1);
    const FIXED: usize = 2 * (NELY + 1);
    const NFREE: usize = NDOF - FIXED;
    let ke = element_stiffness();
    // X(ely, elx) = x[(elx − 1)·10 + ely − 1]
    let dens = |ely: usize, elx: usize| x[elx * NELY + ely];
    let edof = |ely: usize, elx: usize| -> [usize; 8] {
        let n1 = (NELY + 1) * elx + ely + 1;
        let n2 = (NELY + 1) * (elx + 1) + ely + 1;
        [
            2 * n1 - 2,
            2 * n1 - 1,
            2 * n2 - 2,
            2 * n2 - 1,
            2 * n2,
            2 * n2 + 1,
            2 * n1,
            2 * n1 + 1,
        ]
    };
    let mut k = vec![R::from(0.0); NFREE * NFREE];
    for elx in 0..NELX {
        for ely in 0..NELY {
            let w = dens(ely, elx).powf(3.0);
            let e = edof(ely, elx);
            for (r, &dr) in e.iter().enumerate() {
                if dr < FIXED {
                    continue;
                }
                for (c, &dc) in e.iter().enumerate() {
                    if dc >= FIXED {
                        k[(dr - FIXED) * NFREE + dc - FIXED] += w * ke[r][c];
                    }
                }
            }
        }
    }
    let mut u_free = vec![R::from(0.0); NFREE];
    u_free[NFREE - 1] = R::from(-10000.0);
    // Octave's `\` on the sparse symmetric K tries a Cholesky factorisation and falls
    // back to LU where K is not positive definite (negative densities outside the box)
    let k_copy = k.clone();
    if !cholesky_solve(&mut k, &mut u_free, NFREE) {
        k = k_copy;
        u_free.fill(R::from(0.0));
        u_free[NFREE - 1] = R::from(-10000.0);
        lu_solve(&mut k, &mut u_free, NFREE);
    }
    let u = |dof: usize| {
        if dof < FIXED {
            R::from(0.0)
        } else {
            u_free[dof - FIXED]
        }
    };
    let mut c = R::from(0.0);
    let mut dc = [[R::from(0.0); NELX]; NELY];
    for ely in 0..NELY {
        for elx in 0..NELX {
            let ue: [R; 8] = edof(ely, elx).map(u);
            let mut energy = R::from(0.0);
            for r in 0..8 {
                let mut s = R::from(0.0);
                for q in 0..8 {
                    s += ke[r][q] * ue[q];
                }
                energy += ue[r] * s;
            }
            let xe = dens(ely, elx);
            c += xe.powf(3.0) * energy;
            dc[ely][elx] = -3.0 * xe.powf(2.0) * energy;
        }
    }
    // the mesh-independency filter, radius 1.5
    let rmin: f64 = 1.5;
    let reach = rmin.floor() as usize;
    for i in 0..NELX {
        for j in 0..NELY {
            let mut sum = 0.0;
            let mut acc = R::from(0.0);
            for kx in i.saturating_sub(reach)..=(i + reach).min(NELX - 1) {
                for ly in j.saturating_sub(reach)..=(j + reach).min(NELY - 1) {
                    let di = i as f64 - kx as f64;
                    let dj = j as f64 - ly as f64;
                    let fac = rmin - (di.powf(2.0) + dj.powf(2.0)).sqrt();
                    sum += fac.max(0.0);
                    acc += fac.max(0.0) * dens(ly, kx) * dc[ly][kx];
                }
            }
            g[i * NELY + j] = acc / (dens(j, i) * sum);
        }
    }
    Ok(c)
}
}
