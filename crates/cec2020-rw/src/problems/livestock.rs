//! Livestock feed rations, RC51–RC57: least-cost rations of 59 beef-cattle feeds
//! (RC51–RC54: nutrient ranges as inequalities, the energy requirement as an equality)
//! and of 64 dairy-cattle feeds (RC55–RC57: six nutrient equalities). Linear and
//! linear-fractional constraints over the embedded feed tables.

use super::Out;
use crate::data::{self, Table};

super::formulas! {

/// `Σ_j x_j T(row, j)`, summed in order as the organisers' code does.
fn dot(x: &[R], t: &Table, row: usize) -> R {
    x.iter()
        .zip(t.row(row))
        .fold(R::from(0.0), |a, (&xi, &ti)| a + xi * ti)
}

fn sum(x: &[R]) -> R {
    x.iter().copied().sum::<R>()
}

/// The beef-cattle bounds: (dry matter, energy, calcium, phosphorus: lower and upper),
/// forage share range, crude-protein-share range, roughage range, energy equality.
struct Beef {
    ranges: [(f64, f64); 4],
    forage: (f64, f64),
    protein: (f64, f64),
    roughage: (f64, f64),
    energy: f64,
}

fn beef(x: &[R], b: &Beef, g: &mut [R], h: &mut [R]) -> R {
    let p = data::feed();
    let f = dot(x, p, 0);
    // rows 5, 4, 6, 7 of the table (1-based), each as a lower and an upper bound
    for (n, (row, (lo, hi))) in [4, 3, 5, 6].into_iter().zip(b.ranges).enumerate() {
        let v = dot(x, p, row);
        g[2 * n] = -v + lo;
        g[2 * n + 1] = v - hi;
    }
    let total = sum(x);
    let forage = sum(&x[..17]) / total;
    g[8] = -forage + b.forage.0;
    g[9] = forage - b.forage.1;
    let protein = dot(x, p, 2) / total;
    g[10] = -protein + b.protein.0;
    g[11] = protein - b.protein.1;
    let roughage = sum(&x[33..59]);
    g[12] = -roughage + b.roughage.0;
    g[13] = roughage - b.roughage.1;
    h[0] = dot(x, p, 1) - b.energy;
    f
}

/// RC51. Beef cattle, case 1.
pub(crate) fn rc51(x: &[R], g: &mut [R], h: &mut [R]) -> Out<R> {
    let b = Beef {
        ranges: [
            (1.090, 2.170),
            (4.870, 5.200),
            (0.043, 0.086),
            (0.023, 0.046),
        ],
        forage: (0.295, 0.36),
        protein: (0.3, 0.4712),
        roughage: (9.2, 11.5),
        energy: 6.9,
    };
    Ok(beef(x, &b, g, h))
}

/// RC52. Beef cattle, case 2.
pub(crate) fn rc52(x: &[R], g: &mut [R], h: &mut [R]) -> Out<R> {
    let b = Beef {
        ranges: [
            (1.280, 2.560),
            (7.300, 7.810),
            (0.005, 0.094),
            (0.031, 0.062),
        ],
        forage: (0.2, 0.24),
        protein: (0.3, 0.4),
        roughage: (9.8, 16.4),
        energy: 9.8,
    };
    Ok(beef(x, &b, g, h))
}

/// RC53. Beef cattle, case 3.
pub(crate) fn rc53(x: &[R], g: &mut [R], h: &mut [R]) -> Out<R> {
    let b = Beef {
        ranges: [
            (1.170, 2.340),
            (6.940, 7.430),
            (0.038, 0.076),
            (0.034, 0.068),
        ],
        forage: (0.085, 0.111),
        protein: (0.25, 0.4),
        roughage: (11.6, 14.5),
        energy: 8.7,
    };
    Ok(beef(x, &b, g, h))
}

/// RC54. Beef cattle, case 4.
pub(crate) fn rc54(x: &[R], g: &mut [R], h: &mut [R]) -> Out<R> {
    let b = Beef {
        ranges: [(0.56, 1.12), (3.23, 3.46), (0.018, 0.036), (0.0116, 0.040)],
        forage: (0.25, 0.9),
        protein: (0.3, 0.4384),
        roughage: (7.470, 9.340),
        energy: 5.6,
    };
    Ok(beef(x, &b, g, h))
}

/// The dairy-cattle rations: six equalities on rows 12, 2, 3, 13, 14 and the sum of
/// rows 2–11 of the table.
fn dairy(x: &[R], targets: [f64; 6], h: &mut [R]) -> R {
    let p = data::dairy();
    let f = dot(x, p, 0);
    for (n, row) in [11, 1, 2, 12, 13].into_iter().enumerate() {
        h[n] = dot(x, p, row) - targets[n];
    }
    // sum(P(2:11,:), 1): column sums of rows 2–11, then the dot product with x
    let mut acc = R::from(0.0);
    for (j, &xj) in x.iter().enumerate() {
        let col = (1..11).map(|r| p.at(r, j)).sum::<f64>();
        acc += col * xj;
    }
    h[5] = acc - targets[5];
    f
}

/// RC55. Dairy cattle, case 1.
pub(crate) fn rc55(x: &[R], _g: &mut [R], h: &mut [R]) -> Out<R> {
    Ok(dairy(x, [25.67, 0.0218, 0.062, 0.034, 0.021, 0.999], h))
}

/// RC56. Dairy cattle, case 2.
pub(crate) fn rc56(x: &[R], _g: &mut [R], h: &mut [R]) -> Out<R> {
    Ok(dairy(x, [65.24, 0.066, 0.159, 0.103, 0.052, 2.644], h))
}

/// RC57. Dairy cattle, case 3.
pub(crate) fn rc57(x: &[R], _g: &mut [R], h: &mut [R]) -> Out<R> {
    Ok(dairy(x, [30.05, 0.0259, 0.077, 0.096, 0.025, 1.214], h))
}
}
