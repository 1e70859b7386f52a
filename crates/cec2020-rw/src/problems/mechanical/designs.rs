//! The classic mechanical designs written as closed formulas: RC15–RC21, RC23, RC25,
//! RC28, RC29, RC31 and RC32.

use crate::problems::Out;
use std::f64::consts::PI;

crate::problems::formulas! {
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
}
