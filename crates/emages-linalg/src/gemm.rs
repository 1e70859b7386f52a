//! Matrix products through BLAS for every operand layout, without allocating.
//!
//! `ndarray::linalg::general_mat_mul` hands small products (every dimension ≤ 7) and
//! views whose length-1 axes carry a zero stride to `matrixmultiply`, which allocates
//! packing buffers on each call. [`gemm`] sends every column- or row-major operand to
//! `cblas_dgemm` directly, so that hot loops stay allocation-free; other layouts fall
//! back to `general_mat_mul`.

use super::lapack_int;
use cblas_sys::{cblas_dgemm, CBLAS_LAYOUT, CBLAS_TRANSPOSE};
use ndarray::linalg::general_mat_mul;
use ndarray::{ArrayView2, ArrayViewMut2};
use std::os::raw::c_int;

/// How a 2-D view maps onto a column-major BLAS operand.
#[derive(Clone, Copy)]
struct Operand {
    transposed: bool,
    ld: c_int,
}

/// The BLAS description of an `r × s` view with the given strides, if any.
fn operand(shape: &[usize], strides: &[isize]) -> Option<Operand> {
    let (r, s) = (shape[0], shape[1]);
    let (s0, s1) = (strides[0], strides[1]);
    let fits = |x: usize| lapack_int(x).ok();
    // Column-major: unit stride down a column, columns at least r apart.
    if (s0 == 1 || r <= 1) && (s <= 1 || (s1 > 0 && s1 as usize >= r.max(1))) {
        let ld = if s <= 1 { r.max(1) } else { s1 as usize };
        return fits(ld).map(|ld| Operand {
            transposed: false,
            ld,
        });
    }
    // Row-major: the transpose of a column-major s × r matrix.
    if (s1 == 1 || s <= 1) && (r <= 1 || (s0 > 0 && s0 as usize >= s.max(1))) {
        let ld = if r <= 1 { s.max(1) } else { s0 as usize };
        return fits(ld).map(|ld| Operand {
            transposed: true,
            ld,
        });
    }
    None
}

fn trans(o: Operand) -> CBLAS_TRANSPOSE {
    if o.transposed {
        CBLAS_TRANSPOSE::CblasTrans
    } else {
        CBLAS_TRANSPOSE::CblasNoTrans
    }
}

/// `C ← α A B + β C`.
///
/// # Panics
/// If the shapes do not fit (as `general_mat_mul`).
///
/// ```
/// use emages_linalg::gemm;
/// use ndarray::{array, Array2};
/// let a = array![[1.0, 2.0], [3.0, 4.0]];
/// let b = array![[1.0], [1.0]];
/// let mut c = Array2::zeros((2, 1));
/// gemm(1.0, &a.view(), &b.view(), 0.0, &mut c.view_mut());
/// assert_eq!(c, array![[3.0], [7.0]]);
/// ```
pub fn gemm(
    alpha: f64,
    a: &ArrayView2<'_, f64>,
    b: &ArrayView2<'_, f64>,
    beta: f64,
    c: &mut ArrayViewMut2<'_, f64>,
) {
    let ((m, k), (k2, n)) = (a.dim(), b.dim());
    assert!(
        k == k2 && c.dim() == (m, n),
        "gemm: shapes {:?} × {:?} → {:?}",
        a.dim(),
        b.dim(),
        c.dim()
    );
    if m == 0 || n == 0 {
        return;
    }
    if k == 0 {
        c.mapv_inplace(|x| if beta == 0.0 { 0.0 } else { beta * x });
        return;
    }
    let (oa, ob, oc) = (
        operand(a.shape(), a.strides()),
        operand(b.shape(), b.strides()),
        operand(c.shape(), c.strides()),
    );
    let dims = (lapack_int(m), lapack_int(n), lapack_int(k));
    match (oa, ob, oc, dims) {
        (Some(oa), Some(ob), Some(oc), (Ok(mi), Ok(ni), Ok(ki))) if !oc.transposed => {
            // SAFETY: the operands are BLAS-compatible views of the stated shapes and
            // leading dimensions; C does not alias A or B (it is borrowed mutably).
            unsafe {
                cblas_dgemm(
                    CBLAS_LAYOUT::CblasColMajor,
                    trans(oa),
                    trans(ob),
                    mi,
                    ni,
                    ki,
                    alpha,
                    a.as_ptr(),
                    oa.ld,
                    b.as_ptr(),
                    ob.ld,
                    beta,
                    c.as_mut_ptr(),
                    oc.ld,
                );
            }
        }
        (Some(_), Some(_), Some(_), _) => {
            // C is row-major: Cᵀ = Bᵀ Aᵀ with Cᵀ column-major.
            let mut ct = c.view_mut().reversed_axes();
            gemm(alpha, &b.t(), &a.t(), beta, &mut ct);
        }
        _ => general_mat_mul(alpha, a, b, beta, c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{s, Array2, ShapeBuilder};

    fn naive(a: &ArrayView2<'_, f64>, b: &ArrayView2<'_, f64>) -> Array2<f64> {
        Array2::from_shape_fn((a.nrows(), b.ncols()), |(i, j)| {
            (0..a.ncols()).map(|l| a[[i, l]] * b[[l, j]]).sum()
        })
    }

    #[test]
    fn all_layouts_and_degenerate_shapes() {
        for (m, k, n) in [
            (1, 1, 1),
            (3, 1, 2),
            (1, 4, 1),
            (5, 2, 3),
            (9, 8, 1),
            (2, 3, 9),
        ] {
            let a_c = Array2::from_shape_fn((m, k), |(i, j)| (i * 7 + j) as f64 * 0.5 - 1.0);
            let b_c = Array2::from_shape_fn((k, n), |(i, j)| (i * 3 + 2 * j) as f64 - 2.0);
            let mut a_f = Array2::zeros((m, k).f());
            a_f.assign(&a_c);
            let mut b_f = Array2::zeros((k, n).f());
            b_f.assign(&b_c);
            let expected = naive(&a_c.view(), &b_c.view());
            for a in [a_c.view(), a_f.view()] {
                for b in [b_c.view(), b_f.view()] {
                    let mut c_c = Array2::from_elem((m, n), 1.0);
                    gemm(2.0, &a, &b, 1.0, &mut c_c.view_mut());
                    let mut c_f = Array2::from_elem((m, n).f(), 1.0);
                    gemm(2.0, &a, &b, 1.0, &mut c_f.view_mut());
                    for c in [&c_c, &c_f] {
                        for (x, y) in c.iter().zip(expected.iter()) {
                            assert!((x - (2.0 * y + 1.0)).abs() < 1e-12, "{m}×{k}×{n}");
                        }
                    }
                }
            }
            // a one-column slice of a column-major matrix (zero stride on the unit axis)
            let wide = Array2::from_shape_fn((k, n + 3).f(), |(i, j)| (i + j) as f64);
            let bs = wide.slice(s![.., 0..1]);
            let mut c = Array2::zeros((m, 1).f());
            gemm(1.0, &a_c.view(), &bs, 0.0, &mut c.view_mut());
            let e = naive(&a_c.view(), &bs);
            assert!(c.iter().zip(e.iter()).all(|(x, y)| (x - y).abs() < 1e-12));
        }
    }
}
