//! Haar-distributed orthogonal matrices from the QR factorisation (set-up code, e.g.
//! synthetic benchmark instances; it allocates).

use super::LinalgError;
use ndarray::Array2;
use ndarray_linalg::QR;

/// The orthogonal factor `Q` of `G = Q R` with the signs of `R`'s diagonal moved into
/// `Q` (`Q ← Q diag(sign rⱼⱼ)`), which makes `Q` Haar-distributed when `G` has
/// independent standard normal entries (Mezzadri 2007).
///
/// # Errors
/// [`LinalgError::Lapack`] if the factorisation fails.
///
/// ```
/// use emages_linalg::orthogonal_from_gaussian;
/// use ndarray::array;
/// let q = orthogonal_from_gaussian(array![[0.3, -1.2], [0.8, 0.5]]).unwrap();
/// let qtq = q.t().dot(&q);
/// assert!((qtq[[0, 0]] - 1.0).abs() < 1e-15 && qtq[[0, 1]].abs() < 1e-15);
/// ```
pub fn orthogonal_from_gaussian(gaussian: Array2<f64>) -> Result<Array2<f64>, LinalgError> {
    let (mut q, r) = gaussian.qr().map_err(|e| LinalgError::Lapack {
        routine: "QR",
        message: e.to_string(),
    })?;
    for j in 0..r.nrows().min(r.ncols()) {
        if r[[j, j]] < 0.0 {
            q.column_mut(j).mapv_inplace(|v| -v);
        }
    }
    Ok(q)
}
