//! Structures solved by finite elements: the 10-bar truss RC27 (natural frequencies)
//! and the topology optimisation of a cantilever RC33 (SIMP).

use crate::numerics::{cholesky_solve, generalized_eigenvalues, lu_solve};
use crate::problems::Out;
use std::f64::consts::PI;

crate::problems::formulas! {
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
