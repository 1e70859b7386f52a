//! Power systems, RC34–RC44: distributed generation sizing, optimal power flow and
//! microgrid power flow posed with the bus voltages as variables (real and imaginary
//! parts) and the current-injection mismatches `I = Y V` against the specified powers as
//! equality constraints, as the organisers pose them; and a wind farm layout.
//!
//! `Y = G + jB` is the bus admittance matrix of the embedded system data (RC40, RC42,
//! RC43 rebuild it from the line data for the frequency `w` in the variables).
#![allow(non_snake_case)]

use super::Out;
use crate::data::{self, Table};
use num_complex::{Complex, Complex64 as C64};
use std::f64::consts::PI;

super::formulas! {

/// A complex number over the formulas' number type.
type C = Complex<R>;

/// A complex constant.
#[inline]
fn cst(z: C64) -> C {
    C::new(R::from(z.re), R::from(z.im))
}

/// `|z|`, as `Complex::norm` computes it (`hypot`).
#[inline]
fn modulus(z: C) -> R {
    z.re.hypot(z.im)
}

/// The zero of [`C`].
#[inline]
fn czero() -> C {
    cst(C64::new(0.0, 0.0))
}

const J: C64 = C64::new(0.0, 1.0);

/// `I = Y V` for `Y = G + jB` given as two tables (row by row, in column order).
///
/// `Y` is sparse (a bus connects to a few others): the zero entries are skipped, and a
/// nonzero one multiplies `V_j` as a real pair, `(g v_r − b v_i) + j (g v_i + b v_r)`,
/// the operations of the complex product in its order. The same values as the dense
/// complex sum for finite voltages (a `±0` term leaves a sum that starts at `+0`
/// unchanged); for dual numbers the same derivatives up to the sign of a zero, at a
/// fraction of the work.
fn currents(g: &Table, b: &Table, v: &[C], out: &mut [C]) {
    for (i, o) in out.iter_mut().enumerate() {
        let (gr, br) = (g.row(i), b.row(i));
        let mut s = czero();
        for ((&gv, &bv), &vv) in gr.iter().zip(br).zip(v) {
            if gv == 0.0 && bv == 0.0 {
                continue;
            }
            s += C::new(vv.re * gv - vv.im * bv, vv.im * gv + vv.re * bv);
        }
        *o = s;
    }
}

/// Which of the arrays in `conj((P + jQ) ./ V)` Octave holds as complex: an array whose
/// imaginary parts are all zero is real in Octave, and the kind of the division follows
/// (real ÷ real, complex ÷ real componentwise, anything ÷ complex as complex division).
/// Only the non-finite values at a zero voltage depend on it (the box's centre puts every
/// voltage at 0): `0/0` gives a NaN current with a zero imaginary part when everything
/// is real, `(P + jQ)/0` infinities in both parts when only the powers are complex.
#[derive(Clone, Copy)]
struct Kinds {
    powers_complex: bool,
    voltages_complex: bool,
}

impl Kinds {
    fn of(q: &[R], v: &[C]) -> Self {
        Self {
            powers_complex: q.iter().any(|&q| q != 0.0),
            voltages_complex: v.iter().any(|v| v.im != 0.0),
        }
    }
}

/// `conj((P + jQ) ./ V)`, the current a bus draws at the specified powers, with Octave's
/// kinds of division ([`Kinds`]).
#[inline]
fn specified_current(p: R, q: R, v: C, kinds: Kinds) -> C {
    if kinds.voltages_complex {
        (C::new(p, q) / v).conj()
    } else if kinds.powers_complex {
        C::new(p / v.re, -(q / v.re))
    } else {
        C::new(p / v.re, R::from(0.0))
    }
}

/// The current mismatch `I − conj((P + jQ) ./ V)` of a bus as (real, imaginary) part:
/// the two halves of the power-flow problems' current equalities.
#[inline]
fn current_mismatch(cur: C, p: R, q: R, v: C, kinds: Kinds) -> (R, R) {
    let sp = specified_current(p, q, v, kinds);
    (cur.re - sp.re, cur.im - sp.im)
}

/// The voltage-dependent load `P₀ (|V| / V₀)^α` of row `i` (columns 1, 5, 6 of the load
/// tables).
#[inline]
fn load(t: &Table, i: usize, v: C) -> R {
    t.at(i, 0) * (modulus(v) / t.at(i, 4)).powf(t.at(i, 5))
}

/// RC34. Optimal sizing of single-phase distributed generation with reactive power
/// support for phase balancing (30 buses: 3 phases of a 10-bus feeder): f is the
/// magnitude of the zero- and negative-sequence currents at the grid; 108 mismatch
/// equalities.
pub(crate) fn rc34(x: &[R], _g: &mut [R], h: &mut [R]) -> Out<R> {
    let (G, B, P, Q) = (data::ps1_g(), data::ps1_b(), data::ps1_p(), data::ps1_q());
    let mut v = [czero(); 30];
    v[0] = cst(C64::new(1.0, 0.0));
    v[1] = cst((J * 4.0 * PI / 3.0).exp());
    v[2] = cst((J * 2.0 * PI / 3.0).exp());
    let (mut psp, mut qsp, mut pdg, mut qdg) = ([R::from(0.0); 30], [R::from(0.0); 30], [R::from(0.0); 30], [R::from(0.0); 30]);
    for i in 3..30 {
        v[i] = C::new(x[i - 3], x[i - 3 + 27]);
        psp[i] = x[54 + i - 3];
        qsp[i] = x[81 + i - 3];
    }
    for (n, &bus) in [9, 16, 21, 24, 30].iter().enumerate() {
        pdg[bus - 1] = x[108 + n];
        qdg[bus - 1] = x[113 + n];
    }
    let mut cur = [czero(); 30];
    currents(G, B, &v, &mut cur);
    let kinds = Kinds::of(&qsp, &v);
    let a2 = (J * 4.0 * PI / 3.0).exp();
    let a1 = (J * 2.0 * PI / 3.0).exp();
    let f = modulus(cur[0] + cur[1] + cur[2]) + modulus(cur[0] + cst(a2) * cur[1] + cst(a1) * cur[2]);
    for i in 3..30 {
        (h[i - 3], h[27 + i - 3]) = current_mismatch(cur[i], psp[i], qsp[i], v[i], kinds);
        h[54 + i - 3] = psp[i] - pdg[i] - P.at(i, 0);
        h[81 + i - 3] = qsp[i] - qdg[i] - Q.at(i, 0);
    }
    Ok(f)
}

/// The 38-bus distributed-generation problems RC35 (active loss) and RC36 (active and
/// reactive loss, with capacitors): voltages, specified powers and DG outputs in `x`.
fn dg38(x: &[R], h: &mut [R], reactive: bool) -> R {
    let (G, B, P, Q) = (data::ps2_g(), data::ps2_b(), data::ps2_p(), data::ps2_q());
    let mut v = [czero(); 38];
    v[0] = cst(C64::new(1.0, 0.0));
    let (mut psp, mut qsp, mut pdg, mut qdg) = ([R::from(0.0); 38], [R::from(0.0); 38], [R::from(0.0); 38], [R::from(0.0); 38]);
    for i in 1..38 {
        v[i] = C::new(x[i - 1], x[i - 1 + 37]);
        psp[i] = x[74 + i - 1];
        qsp[i] = x[111 + i - 1];
    }
    for (n, bus) in (34..=38).enumerate() {
        pdg[bus - 1] = x[148 + n];
        if reactive {
            qdg[bus - 1] = x[153 + n];
        }
    }
    let mut cur = [czero(); 38];
    currents(G, B, &v, &mut cur);
    let kinds = Kinds::of(&qsp, &v);
    for i in 1..38 {
        (h[i - 1], h[37 + i - 1]) = current_mismatch(cur[i], psp[i], qsp[i], v[i], kinds);
        h[74 + i - 1] = psp[i] - pdg[i] + load(P, i, v[i]);
        h[111 + i - 1] = qsp[i] - qdg[i] + load(Q, i, v[i]);
    }
    let s1 = v[0] * cur[0].conj();
    let sum_p: R = psp[1..].iter().copied().sum::<R>();
    if reactive {
        let sum_q: R = qsp[1..].iter().copied().sum::<R>();
        0.5 * (s1.re + sum_p) + 0.5 * (s1.im + sum_q)
    } else {
        s1.re + sum_p
    }
}

/// RC35. Optimal sizing of distributed generation for active power loss minimisation
/// (38 buses, 5 DG units): 148 mismatch equalities.
pub(crate) fn rc35(x: &[R], _g: &mut [R], h: &mut [R]) -> Out<R> {
    Ok(dg38(x, h, false))
}

/// RC36. Optimal sizing of distributed generation and capacitors for reactive power
/// loss minimisation (38 buses): 148 mismatch equalities.
pub(crate) fn rc36(x: &[R], _g: &mut [R], h: &mut [R]) -> Out<R> {
    Ok(dg38(x, h, true))
}

/// Which objective an IEEE 30-bus optimal power flow (RC37–RC39) minimises.
#[derive(Clone, Copy)]
enum Opf {
    Loss,
    FuelCost,
    LossAndCost,
}

fn opf30(x: &[R], h: &mut [R], objective: Opf) -> R {
    let (G, B, P, Q) = (
        data::ps11_g(),
        data::ps11_b(),
        data::ps11_p(),
        data::ps11_q(),
    );
    const GEN: [usize; 5] = [2, 13, 22, 23, 27];
    const NG: [usize; 6] = [1, 2, 13, 22, 23, 27];
    const A1: [f64; 6] = [0.0; 6];
    const B1: [f64; 6] = [2.0, 1.75, 1.0, 3.25, 3.0, 3.0];
    const C1: [f64; 6] = [0.02, 0.0175, 0.0625, 0.00834, 0.025, 0.0025];
    let mut v = [czero(); 30];
    v[0] = cst(C64::new(1.0, 0.0));
    let (mut psp, mut qsp, mut pg, mut qg) = ([R::from(0.0); 30], [R::from(0.0); 30], [R::from(0.0); 30], [R::from(0.0); 30]);
    for i in 1..30 {
        v[i] = C::new(x[i - 1], x[i - 1 + 29]);
        psp[i] = x[58 + i - 1];
        qsp[i] = x[87 + i - 1];
    }
    for (n, &bus) in GEN.iter().enumerate() {
        pg[bus - 1] = x[116 + n];
        qg[bus - 1] = x[121 + n];
    }
    let mut cur = [czero(); 30];
    currents(G, B, &v, &mut cur);
    let kinds = Kinds::of(&qsp, &v);
    for i in 1..30 {
        (h[i - 1], h[29 + i - 1]) = current_mismatch(cur[i], psp[i], qsp[i], v[i], kinds);
        h[58 + i - 1] = psp[i] - pg[i] + P.at(i, 0);
        h[87 + i - 1] = qsp[i] - qg[i] + Q.at(i, 0);
    }
    let slack = (v[0] * cur[0].conj()).re;
    let fuel = |pg: &[R; 30]| {
        NG.iter()
            .enumerate()
            .map(|(n, &bus)| A1[n] + B1[n] * pg[bus - 1] + C1[n] * pg[bus - 1].powf(2.0))
            .sum::<R>()
    };
    match objective {
        Opf::Loss => slack + psp[1..].iter().copied().sum::<R>(),
        Opf::FuelCost => {
            pg[0] = slack;
            fuel(&pg)
        }
        Opf::LossAndCost => {
            pg[0] = slack;
            fuel(&pg) + 0.75 * (0..30).map(|i| pg[i] - P.at(i, 0)).sum::<R>()
        }
    }
}

/// RC37. Optimal power flow, IEEE 30-bus, minimising the active power loss: 116
/// mismatch equalities.
pub(crate) fn rc37(x: &[R], _g: &mut [R], h: &mut [R]) -> Out<R> {
    Ok(opf30(x, h, Opf::Loss))
}

/// RC38. Optimal power flow, IEEE 30-bus, minimising the quadratic fuel cost of the six
/// generators (the slack's output from the power flow): 116 equalities.
pub(crate) fn rc38(x: &[R], _g: &mut [R], h: &mut [R]) -> Out<R> {
    Ok(opf30(x, h, Opf::FuelCost))
}

/// RC39. Optimal power flow, IEEE 30-bus, minimising fuel cost plus 0.75 × the active
/// power loss: 116 equalities.
pub(crate) fn rc39(x: &[R], _g: &mut [R], h: &mut [R]) -> Out<R> {
    Ok(opf30(x, h, Opf::LossAndCost))
}

/// The bus admittance matrix of the 38-bus microgrid at frequency `w` (the line
/// reactances scale with `w`), as the organisers' `ybus`, row-major; `nonzero` marks the
/// entries a line sets (the others stay exactly 0).
fn ybus(w: R, y: &mut [C; 38 * 38], nonzero: &mut [bool; 38 * 38]) {
    let lines = data::ps14_lines();
    if nonzero.iter().any(|&z| z) {
        y.fill(czero());
        nonzero.fill(false);
    }
    let n = 38;
    // y = 1 ./ (r + j·x·w), once per line
    let mut adm_of = [czero(); 64];
    for (l, a) in adm_of.iter_mut().enumerate().take(lines.rows) {
        *a = cst(C64::new(1.0, 0.0)) / C::new(R::from(lines.at(l, 2)), lines.at(l, 3) * w);
    }
    let adm = |l: usize| adm_of[l];
    for l in 0..lines.rows {
        let (fb, tb) = (lines.at(l, 0) as usize - 1, lines.at(l, 1) as usize - 1);
        let a = lines.at(l, 5);
        y[fb * n + tb] -= adm(l) / R::from(a);
        y[tb * n + fb] = y[fb * n + tb];
        nonzero[fb * n + tb] = true;
        nonzero[tb * n + fb] = true;
    }
    // The diagonal: the organisers loop over the buses m and, within, over the lines;
    // each diagonal entry receives its lines' terms in line order either way, so one
    // pass over the lines adds the same terms in the same order.
    for l in 0..lines.rows {
        let (fb, tb) = (lines.at(l, 0) as usize - 1, lines.at(l, 1) as usize - 1);
        let (a, b) = (lines.at(l, 5), J * lines.at(l, 4));
        y[fb * n + fb] += adm(l) / R::from(a.powf(2.0)) + cst(b);
        nonzero[fb * n + fb] = true;
        if tb != fb {
            y[tb * n + tb] += adm(l) + cst(b);
            nonzero[tb * n + tb] = true;
        }
    }
}

/// Which islanded-microgrid problem (RC40, RC42, RC43) is evaluated.
#[derive(Clone, Copy)]
enum Islanded {
    PowerFlow,
    ActiveLoss,
    ReactiveLoss,
}

fn islanded(x: &[R], h: &mut [R], which: Islanded) -> R {
    let (P, Q) = (data::ps2_p(), data::ps2_q());
    let mut v = [czero(); 38];
    for i in 1..38 {
        v[i] = C::new(x[i - 1], x[i - 1 + 37]);
    }
    let w = x[74];
    v[0] = C::new(x[75] + 1e-5, R::from(0.0));
    let (mut pc, mut qc) = ([R::from(0.0); 38], [R::from(0.0); 38]);
    match which {
        Islanded::PowerFlow => {
            for (n, (mp, nq)) in [5.102e-03, 1.502e-03, 4.506e-03, 2.253e-03, 2.253e-03]
                .into_iter()
                .zip([0.05, 0.03, 0.05, 0.01, 0.1])
                .enumerate()
            {
                pc[33 + n] = R::from(1.0 / mp);
                qc[33 + n] = R::from(1.0 / nq);
            }
        }
        Islanded::ActiveLoss | Islanded::ReactiveLoss => {
            pc[33..38].copy_from_slice(&x[76..81]);
            qc[33..38].copy_from_slice(&x[81..86]);
        }
    }
    let mut y = [czero(); 38 * 38];
    let mut nonzero = [false; 38 * 38];
    ybus(w, &mut y, &mut nonzero);
    // I = Y V over Y's nonzero entries (skipping a +0 term leaves the sum as it is:
    // see `currents`).
    let mut cur = [czero(); 38];
    for i in 0..38 {
        let mut s = czero();
        for k in (0..38).filter(|&k| nonzero[i * 38 + k]) {
            s += y[i * 38 + k] * v[k];
        }
        cur[i] = s;
    }
    let (mut psp, mut qsp) = ([R::from(0.0); 38], [R::from(0.0); 38]);
    for i in 0..38 {
        let (vr, vm) = (v[i].re, v[i].im);
        psp[i] = pc[i] * (1.0 - w) - load(P, i, v[i]);
        qsp[i] = qc[i] * (1.0 - (vr.powf(2.0) + vm.powf(2.0)).sqrt()) - load(Q, i, v[i]);
    }
    let kinds = Kinds::of(&qsp, &v);
    let zero = R::from(0.0);
    let (mut sum_p2, mut sum_q2, mut sum_psp, mut sum_qsp) = (zero, zero, zero, zero);
    for i in 0..38 {
        let (vr, vm) = (v[i].re, v[i].im);
        let (psp, qsp) = (psp[i], qsp[i]);
        (h[i], h[38 + i]) = current_mismatch(cur[i], psp, qsp, v[i], kinds);
        let (ir, im) = (cur[i].re, cur[i].im);
        sum_p2 += (psp - (vr * ir + vm * im)).powf(2.0);
        sum_q2 += (qsp - (vm * ir - vr * im)).powf(2.0);
        sum_psp += psp;
        sum_qsp += qsp;
    }
    match which {
        Islanded::PowerFlow => sum_p2 + sum_q2,
        Islanded::ActiveLoss => sum_psp,
        Islanded::ReactiveLoss => 0.5 * (sum_qsp + sum_psp),
    }
}

/// RC40. Microgrid power flow, islanded (38 buses, droop-controlled units, the
/// frequency `w` and the reference voltage among the variables): f is the squared power
/// mismatch; 76 current-mismatch equalities.
pub(crate) fn rc40(x: &[R], _g: &mut [R], h: &mut [R]) -> Out<R> {
    Ok(islanded(x, h, Islanded::PowerFlow))
}

/// RC41. Microgrid power flow, grid-connected (38 buses): f is the squared power
/// mismatch; 74 current-mismatch equalities.
pub(crate) fn rc41(x: &[R], _g: &mut [R], h: &mut [R]) -> Out<R> {
    let (G, B, P, Q) = (data::ps2_g(), data::ps2_b(), data::ps2_p(), data::ps2_q());
    let mut v = [czero(); 38];
    v[0] = cst(C64::new(1.0, 0.0));
    for i in 1..38 {
        v[i] = C::new(x[i - 1], x[i - 1 + 37]);
    }
    let mut cur = [czero(); 38];
    currents(G, B, &v, &mut cur);
    let (mut psp, mut qsp) = ([R::from(0.0); 38], [R::from(0.0); 38]);
    for i in 0..38 {
        let dg = if i >= 33 { (0.2, 0.18) } else { (0.0, 0.0) };
        psp[i] = dg.0 - load(P, i, v[i]);
        qsp[i] = dg.1 - load(Q, i, v[i]);
    }
    let kinds = Kinds::of(&qsp, &v);
    let (mut sum_p, mut sum_q) = (R::from(0.0), R::from(0.0));
    // the slack bus (bus 1) has neither equalities nor a share of f
    for i in 1..38 {
        let (psp, qsp) = (psp[i], qsp[i]);
        let (vr, vm, ir, im) = (v[i].re, v[i].im, cur[i].re, cur[i].im);
        (h[i - 1], h[37 + i - 1]) = current_mismatch(cur[i], psp, qsp, v[i], kinds);
        sum_p += (psp - (vr * ir + vm * im)).powf(2.0);
        sum_q += (qsp - (vm * ir - vr * im)).powf(2.0);
    }
    Ok(sum_p + sum_q)
}

/// RC42. Optimal droop settings minimising the active power loss of an islanded
/// microgrid: 86 variables, 76 equalities.
pub(crate) fn rc42(x: &[R], _g: &mut [R], h: &mut [R]) -> Out<R> {
    Ok(islanded(x, h, Islanded::ActiveLoss))
}

/// RC43. Optimal droop settings minimising the reactive (and active) power loss of an
/// islanded microgrid: 86 variables, 76 equalities.
pub(crate) fn rc43(x: &[R], _g: &mut [R], h: &mut [R]) -> Out<R> {
    Ok(islanded(x, h, Islanded::ReactiveLoss))
}

/// Octave's `sind` (the argument reduced to [−180, 180) first, exact zeros at ±180).
fn sind(x: f64) -> f64 {
    let r = (x - 180.0) - ((x - 180.0) / 360.0).floor() * 360.0 - 180.0;
    if r == -180.0 {
        0.0
    } else {
        (r / 180.0 * PI).sin()
    }
}

/// Octave's `cosd`: `sind (x + 90)`.
fn cosd(x: f64) -> f64 {
    sind(x + 90.0)
}

/// RC44. Wind farm layout: 15 turbines in a 2 km square; f is minus the expected power
/// over 24 wind directions (Weibull speeds, Jensen wakes); 91 spacing inequalities
/// (the pairs the organisers' loop forms, which leave the 15th turbine out).
pub(crate) fn rc44(x: &[R], g: &mut [R], _h: &mut [R]) -> Out<R> {
    const N: usize = 15;
    const INTERVAL: f64 = 15.0;
    const C: [f64; 24] = [
        7.0, 5.0, 5.0, 5.0, 5.0, 4.0, 5.0, 6.0, 7.0, 7.0, 8.0, 9.5, 10.0, 8.5, 8.5, 6.5, 4.6, 2.6,
        8.0, 5.0, 6.4, 5.2, 4.5, 3.9,
    ];
    const FRE: [f64; 24] = [
        0.0003, 0.0072, 0.0237, 0.0242, 0.0222, 0.0301, 0.0397, 0.0268, 0.0626, 0.0801, 0.1025,
        0.1445, 0.1909, 0.1162, 0.0793, 0.0082, 0.0041, 0.0008, 0.0010, 0.0005, 0.0013, 0.0031,
        0.0085, 0.0222,
    ];
    let (cut_in, rated, cut_out): (f64, f64, f64) = (3.5, 14.0, 25.0);
    let (r, kappa, ct, k): (f64, f64, f64, f64) = (40.0, 0.01, 0.8, 2.0);
    let a = 1.0 - (1.0 - ct).sqrt();
    let n_ws = ((rated - cut_in) / 0.3).floor() as usize;
    // Per wind-speed bin j (speeds v_{j−1}, v_j): the power weight
    // 1500·e^{m−7.5}/(5 + e^{m−7.5}), m the bin's mid-speed — the same for every turbine
    // and direction. The bin edges are computed as the organisers' loop computes them,
    // so an edge shared by two bins is the same number and its Weibull term
    // exp(−(v/c)^k) is evaluated once (the values are the loop's, bit for bit).
    let mut weight = [0.0; 64];
    let mut edge = [0.0; 65];
    for j in 1..=n_ws {
        let v0 = cut_in + (j as f64 - 1.0) * 0.3;
        let v1 = cut_in + j as f64 * 0.3;
        weight[j] = 1500.0 * ((v0 + v1) / 2.0 - 7.5).exp() / (5.0 + ((v0 + v1) / 2.0 - 7.5).exp());
        edge[j - 1] = v0;
        edge[j] = v1;
    }
    let mut all_power = R::from(0.0);
    for (dir, (&c, &fre)) in C.iter().zip(&FRE).enumerate() {
        let theta = (dir as f64 + 1.0 - 0.5) * INTERVAL;
        let (ct_, st_) = (cosd(theta), sind(theta));
        let mut sum_power = R::from(0.0);
        for i in 0..N {
            let mut def2 = R::from(0.0);
            for j in 0..N {
                let tx = x[2 * i] - x[2 * j];
                let ty = x[2 * i + 1] - x[2 * j + 1];
                let dij = ct_ * tx + st_ * ty;
                let lij = ((tx.powf(2.0) + ty.powf(2.0)) - dij.powf(2.0)).sqrt();
                let l = dij * kappa + r;
                if i != j && l > lij - r && dij > 0.0 {
                    let def = a / (1.0 + kappa * dij / r).powf(2.0);
                    def2 += def.powf(2.0);
                }
            }
            let ci = c * (1.0 - def2.sqrt());
            let weibull = |v: f64| (-(v / ci).powf(k)).exp();
            let mut p = R::from(0.0);
            let mut lower = weibull(edge[0]);
            for j in 1..=n_ws {
                let upper = weibull(edge[j]);
                p += weight[j] * (lower - upper);
                lower = upper;
            }
            p += 1500.0 * (weibull(rated) - weibull(cut_out));
            sum_power += p;
        }
        all_power += fre * sum_power;
    }
    let mut idx = 0;
    for i in 0..N {
        for j in i + 1..N - 1 {
            g[idx] = 5.0 * r
                - ((x[2 * i] - x[2 * j]).powf(2.0) + (x[2 * i + 1] - x[2 * j + 1]).powf(2.0))
                    .sqrt();
            idx += 1;
        }
    }
    Ok(-all_power)
}
}
