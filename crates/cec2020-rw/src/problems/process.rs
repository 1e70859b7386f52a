//! Process synthesis and design, RC08–RC14: small mixed-integer problems. Integer and
//! binary variables are searched as reals and rounded (half away from zero, MATLAB's
//! `round`) inside the evaluation, as the organisers' code does, so every point of the
//! box has a value.

use super::Out;

super::formulas! {

/// RC08. Process synthesis: f = 2x₁ + y, y = round(x₂) binary; 2 inequalities.
pub(crate) fn rc08(x: &[R], g: &mut [R], _h: &mut [R]) -> Out<R> {
    let (x1, x2) = (x[0], x[1].round());
    let f = 2.0 * x1 + x2;
    g[0] = 1.25 - x1.powf(2.0) - x2;
    g[1] = x1 + x2 - 1.6;
    Ok(f)
}

/// RC09. Process synthesis and design: f = −y + 2x₁ + x₂, y = round(x₃);
/// x₁ = 2e^{−x₂} and −x₁ + x₂ + y ≤ 0.
pub(crate) fn rc09(x: &[R], g: &mut [R], h: &mut [R]) -> Out<R> {
    let (x1, x2, x3) = (x[0], x[1], x[2].round());
    let f = -x3 + 2.0 * x1 + x2;
    h[0] = x1 - 2.0 * (-x2).exp();
    g[0] = -x1 + x2 + x3;
    Ok(f)
}

/// RC10. Process flow sheeting: f = −0.7y + 5(x₁ − 0.5)² + 0.8, y = round(x₃); 3 inequalities.
pub(crate) fn rc10(x: &[R], g: &mut [R], _h: &mut [R]) -> Out<R> {
    let (x1, x2, x3) = (x[0], x[1], x[2].round());
    let f = -0.7 * x3 + 5.0 * (x1 - 0.5).powf(2.0) + 0.8;
    g[0] = -(x1 - 0.2).exp() - x2;
    g[1] = x2 + 1.1 * x3 + 1.0;
    g[2] = x1 - x3 - 0.2;
    Ok(f)
}

/// RC11. Two-reactor problem: choose one of two reactors (binary y₁, y₂ = round(x₅),
/// round(x₆)) with conversions zᵢ = cᵢ(1 − e^{−kᵢvᵢ})xᵢ; 4 inequalities, 4 equalities.
pub(crate) fn rc11(x: &[R], g: &mut [R], h: &mut [R]) -> Out<R> {
    let (x1, x2, v1, v2) = (x[0], x[1], x[2], x[3]);
    let (y1, y2, x_) = (x[4].round(), x[5].round(), x[6]);
    let z1 = 0.9 * (1.0 - (-0.5 * v1).exp()) * x1;
    let z2 = 0.8 * (1.0 - (-0.4 * v2).exp()) * x2;
    let f = 7.5 * y1 + 5.5 * y2 + 7.0 * v1 + 6.0 * v2 + 5.0 * x_;
    h[0] = y1 + y2 - 1.0;
    h[1] = z1 + z2 - 10.0;
    h[2] = x1 + x2 - x_;
    h[3] = z1 * y1 + z2 * y2 - 10.0;
    g[0] = v1 - 10.0 * y1;
    g[1] = v2 - 10.0 * y2;
    g[2] = x1 - 20.0 * y1;
    g[3] = x2 - 20.0 * y2;
    Ok(f)
}

/// RC12. Process synthesis: three continuous and four binary variables (rounded
/// x₄…x₇); 9 inequalities.
pub(crate) fn rc12(x: &[R], g: &mut [R], _h: &mut [R]) -> Out<R> {
    let (x1, x2, x3) = (x[0], x[1], x[2]);
    let (y1, y2, y3, y4) = (x[3].round(), x[4].round(), x[5].round(), x[6].round());
    let f = (y1 - 1.0).powf(2.0) + (y2 - 1.0).powf(2.0) + (y3 - 1.0).powf(2.0) - (y4 + 1.0).ln()
        + (x1 - 1.0).powf(22.0)
        + (x2 - 2.0).powf(2.0)
        + (x3 - 3.0).powf(2.0);
    g[0] = x1 + x2 + x3 + y1 + y2 + y3 - 5.0;
    g[1] = y3.powf(2.0) + x1.powf(2.0) + x2.powf(2.0) + x3.powf(2.0) - 5.5;
    g[2] = x1 + y1 - 1.2;
    g[3] = x2 + y2 - 1.8;
    g[4] = x3 + y3 - 2.5;
    g[5] = x1 + y4 - 1.2;
    g[6] = y2.powf(2.0) + x2.powf(2.0) - 1.64;
    g[7] = y3.powf(2.0) + x3.powf(2.0) - 4.25;
    g[8] = y2.powf(2.0) + x3.powf(2.0) - 4.64;
    Ok(f)
}

/// RC13. Process design (a mixed-integer variant of Himmelblau's problem): two integer
/// variables round(x₄), round(x₅); 3 inequalities.
pub(crate) fn rc13(x: &[R], g: &mut [R], _h: &mut [R]) -> Out<R> {
    const A: [f64; 12] = [
        85.334407, 0.0056858, 0.0006262, 0.0022053, 80.51249, 0.0071317, 0.0029955, 0.0021813,
        9.300961, 0.0047026, 0.0012547, 0.0019085,
    ];
    let (x1, x2, x3) = (x[0], x[1], x[2]);
    let (y1, y2) = (x[3].round(), x[4].round());
    let f = -5.357854 * x1.powf(2.0) - 0.835689 * y1 * x3 - 37.29329 * y1 + 40792.141;
    g[0] = A[0] + A[1] * y2 * x3 + A[2] * y1 * x2 - A[3] * y1 * y1 * x3 - 92.0;
    g[1] = A[4] + A[5] * y2 * x3 + A[6] * y1 * x2 + A[7] * x1.powf(2.0) - 90.0 - 20.0;
    g[2] = A[8] + A[9] * y1 * x2 + A[10] * y1 * x1 + A[11] * x1 * x2 - 20.0 - 5.0;
    Ok(f)
}

/// RC14. Multi-product batch plant: numbers of parallel units Nⱼ = round(x₁…x₃), volumes
/// Vⱼ, cycle times and batch sizes; f = 250 Σ Nⱼ Vⱼ^0.6; 10 inequalities.
pub(crate) fn rc14(x: &[R], g: &mut [R], _h: &mut [R]) -> Out<R> {
    const S: [[f64; 3]; 2] = [[2.0, 3.0, 4.0], [4.0, 6.0, 3.0]];
    const T: [[f64; 3]; 2] = [[8.0, 20.0, 8.0], [16.0, 4.0, 4.0]];
    let (h_, alp, beta, q1, q2) = (6000.0, 250.0, 0.6, 40000.0, 20000.0);
    let (n1, n2, n3) = (x[0].round(), x[1].round(), x[2].round());
    let (v1, v2, v3, tl1, tl2, b1, b2) = (x[3], x[4], x[5], x[6], x[7], x[8], x[9]);
    let f = alp * (n1 * v1.powf(beta) + n2 * v2.powf(beta) + n3 * v3.powf(beta));
    g[0] = q1 * tl1 / b1 + q2 * tl2 / b2 - h_;
    g[1] = S[0][0] * b1 + S[1][0] * b2 - v1;
    g[2] = S[0][1] * b1 + S[1][1] * b2 - v2;
    g[3] = S[0][2] * b1 + S[1][2] * b2 - v3;
    g[4] = T[0][0] - n1 * tl1;
    g[5] = T[0][1] - n2 * tl1;
    g[6] = T[0][2] - n3 * tl1;
    g[7] = T[1][0] - n1 * tl2;
    g[8] = T[1][1] - n2 * tl2;
    g[9] = T[1][2] - n3 * tl2;
    Ok(f)
}
}
