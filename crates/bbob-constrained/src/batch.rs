//! The linear constraints of a problem as one matrix, evaluated for one point or for
//! several at once — bit for bit alike.
//!
//! Constraint `c` of a point `y` (already shifted and transformed) is COCO's
//! `g_c(y) = Σ_i t_i` with `t_i = a_ci (y_i − b_ci)`, `b_ci = (s_c / ‖a_c‖) a_ci`,
//! summed in the order `i = 1 … n` and leaving out the terms with `0 ≤ t_i ≤ 10⁻¹¹`
//! (and NaN), as `c_linear.c` does. Each sum is a chain of dependent additions (a
//! compiler may not reorder them): one point at a time, the processor waits on that
//! chain. Several points at once ([`ConstraintMatrix::values_lanes`]) run one chain per
//! point side by side, in vector registers where the CPU has them (AVX-512 or
//! AVX2 chosen at run time), each chain with exactly the operations of the
//! single-point sum: the same bits, several times the throughput.

/// Points evaluated side by side.
pub const LANES: usize = 8;

/// The gradients `a_c` and offsets `b_c` of a problem's constraints, row by row.
#[derive(Clone, Debug, PartialEq)]
pub struct ConstraintMatrix {
    dim: usize,
    a: Vec<f64>,
    b: Vec<f64>,
}

/// One term of a constraint's sum: `t`, or `0` for the terms COCO leaves out (adding
/// `+0` to a sum that starts at `+0` changes no bit).
#[inline(always)]
fn term(a: f64, y: f64, b: f64) -> f64 {
    let t = a * (y - b);
    #[allow(clippy::manual_range_contains)]
    if t > 1e-11 || t < 0.0 {
        t
    } else {
        0.0
    }
}

impl ConstraintMatrix {
    /// The matrix of constraints given by their gradients, shifts and the gradients'
    /// norms (`b_c = (shift_c / norm_c) a_c`).
    #[must_use]
    pub fn new(dim: usize, constraints: &[(&[f64], f64, f64)]) -> Self {
        let mut a = Vec::with_capacity(dim * constraints.len());
        let mut b = Vec::with_capacity(dim * constraints.len());
        for &(gradient, shift, norm) in constraints {
            let factor = shift / norm;
            a.extend_from_slice(gradient);
            b.extend(gradient.iter().map(|&g| factor * g));
        }
        Self { dim, a, b }
    }

    /// The number of constraints.
    #[must_use]
    pub fn len(&self) -> usize {
        self.a.len() / self.dim.max(1)
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.a.is_empty()
    }

    /// `g(y)` into `g` (one entry per constraint).
    pub fn values(&self, y: &[f64], g: &mut [f64]) {
        let n = self.dim;
        for ((gc, a), b) in g
            .iter_mut()
            .zip(self.a.chunks_exact(n))
            .zip(self.b.chunks_exact(n))
        {
            let mut sum = 0.0;
            for i in 0..n {
                sum += term(a[i], y[i], b[i]);
            }
            *gc = sum;
        }
    }

    /// `g` of [`LANES`] points at once: `y[i][l]` is coordinate `i` of point `l`, and
    /// `g[c][l]` receives constraint `c` of point `l` — the bits of [`Self::values`].
    pub fn values_lanes(&self, y: &[[f64; LANES]], g: &mut [[f64; LANES]]) {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                // SAFETY: the CPU has AVX-512F (checked just above).
                return unsafe { self.values_lanes_avx512(y, g) };
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2 (checked just above).
                return unsafe { self.values_lanes_avx2(y, g) };
            }
        }
        self.values_lanes_generic(y, g);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn values_lanes_avx512(&self, y: &[[f64; LANES]], g: &mut [[f64; LANES]]) {
        self.values_lanes_generic(y, g);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn values_lanes_avx2(&self, y: &[[f64; LANES]], g: &mut [[f64; LANES]]) {
        self.values_lanes_generic(y, g);
    }

    /// Lane by lane the operations of [`Self::values`] (no fused multiply-add: Rust does
    /// not contract `a * (y − b)`), which the compiler lays out in vector registers.
    #[inline(always)]
    fn values_lanes_generic(&self, y: &[[f64; LANES]], g: &mut [[f64; LANES]]) {
        let n = self.dim;
        let y = &y[..n];
        for ((gc, a), b) in g
            .iter_mut()
            .zip(self.a.chunks_exact(n))
            .zip(self.b.chunks_exact(n))
        {
            let mut sum = [0.0; LANES];
            for ((&ai, &bi), yi) in a.iter().zip(b).zip(y) {
                for l in 0..LANES {
                    sum[l] += term(ai, yi[l], bi);
                }
            }
            *gc = sum;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Several points at once give the bits of one at a time, the left-out terms
    /// (tiny positive, NaN) included.
    #[test]
    fn lanes_equal_one_point_at_a_time() {
        let n = 7;
        let rows: Vec<Vec<f64>> = (0..5)
            .map(|c| {
                (0..n)
                    .map(|i| ((c * 31 + i * 17) as f64).sin() * 3.0)
                    .collect()
            })
            .collect();
        let cons: Vec<(&[f64], f64, f64)> = rows
            .iter()
            .enumerate()
            .map(|(c, r)| {
                (
                    r.as_slice(),
                    if c % 2 == 0 { 0.0 } else { 0.3 * c as f64 },
                    1.7,
                )
            })
            .collect();
        let m = ConstraintMatrix::new(n, &cons);
        assert_eq!(m.len(), 5);
        let mut y = vec![[0.0; LANES]; n];
        for (i, yi) in y.iter_mut().enumerate() {
            for (l, v) in yi.iter_mut().enumerate() {
                *v = ((i * LANES + l) as f64 * 0.77).cos() * 2.0;
            }
        }
        y[2][3] = f64::NAN;
        y[4][5] = 1e-13; // a term inside (0, 1e-11] for b = 0
        let mut g = vec![[0.0; LANES]; 5];
        m.values_lanes(&y, &mut g);
        let mut one = vec![0.0; 5];
        for l in 0..LANES {
            let point: Vec<f64> = y.iter().map(|yi| yi[l]).collect();
            m.values(&point, &mut one);
            for c in 0..5 {
                assert_eq!(g[c][l].to_bits(), one[c].to_bits(), "c{c} lane {l}");
            }
        }
    }
}
