//! Instance data: shift vectors `o` and transformation matrices `M`.
//!
//! Four sources:
//! - [`InstanceSource::Embedded`] (feature `embedded`, on by default): the official
//!   MATLAB files compiled into the crate (323 KB; `data/README.md` names them and
//!   their checksums), read by a small reader of their one form (zlib-compressed double
//!   matrices), so the official suite needs no folder and no MAT-file library;
//! - [`InstanceSource::Text`]: a directory in the layout of the official C distribution
//!   (`shift_data_k.txt` with 100 numbers; `M_k_D{N}.txt`, `M1_5_D{N}.txt`,
//!   `M2_5_D{N}.txt` with `N` rows of `N` numbers; row `i` of a file is row `i` of `M`);
//! - [`InstanceSource::Matlab`] (feature `matlab`): the MATLAB distribution's
//!   `Function1..11.mat` and `ShiftAndRotation.mat`;
//! - [`InstanceSource::Synthetic`]: fresh data from a seed, so that the suite works
//!   without the official files and results can be checked for instance tuning. Shift
//!   vectors are uniform in the official ranges (±50 for C01–C03, C10, C12–C28; ±5 for
//!   C04–C05; ±10 for C06–C09, C11); transformations are `Q1 diag(s) Q2` with Haar
//!   random orthogonal `Q1`, `Q2` and singular values `s` spread evenly over `[1, 3]`
//!   (condition number 3). As in the official data, problems 12–28 share one shift
//!   vector and 21–28 one matrix.
//!
//! Transformed problems need a matrix for their `N`: the official data has
//! `N ∈ {10, 30, 50, 100}`; a directory may supply others; synthetic data exists for
//! every `N ≤ 100`.

use crate::catalog::{ProblemSpec, Transform, MAX_DIM, OFFICIAL_DIMS};
use crate::error::CecError;
use constraint_handling::linalg::orthogonal_from_gaussian;
use ndarray::Array2;
use rand::{Rng, SeedableRng};
use rand_distr::StandardNormal;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::{Path, PathBuf};

/// The number of entries of every shift vector.
pub const SHIFT_LEN: usize = 100;

/// The data one problem needs in one dimension.
#[derive(Clone, Debug, PartialEq)]
pub struct InstanceData {
    /// The shift vector `o` (its first `N` entries).
    pub shift: Vec<f64>,
    /// The transformation matrices (`N × N`): none, `M`, or `M1, M2` (problem 5).
    pub matrices: Vec<Array2<f64>>,
}

/// Where instance data comes from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum InstanceSource {
    /// The official data compiled into the crate (the MATLAB distribution's files).
    #[cfg(feature = "embedded")]
    Embedded,
    /// A directory in the official C layout.
    Text(PathBuf),
    /// A directory with the MATLAB distribution's `.mat` files.
    #[cfg(feature = "matlab")]
    Matlab(PathBuf),
    /// Synthetic data from a seed.
    Synthetic(u64),
}

impl InstanceSource {
    /// A directory in the official C layout.
    ///
    /// # Errors
    /// [`CecError::MissingDirectory`] if it is not a directory.
    pub fn text(dir: impl Into<PathBuf>) -> Result<Self, CecError> {
        let dir = dir.into();
        if !dir.is_dir() {
            return Err(CecError::MissingDirectory(dir));
        }
        Ok(Self::Text(dir))
    }

    /// A directory with the MATLAB distribution's `.mat` files.
    ///
    /// # Errors
    /// [`CecError::MissingDirectory`] if it is not a directory.
    #[cfg(feature = "matlab")]
    pub fn matlab(dir: impl Into<PathBuf>) -> Result<Self, CecError> {
        let dir = dir.into();
        if !dir.is_dir() {
            return Err(CecError::MissingDirectory(dir));
        }
        Ok(Self::Matlab(dir))
    }

    /// The official instance data compiled into the crate.
    ///
    /// ```
    /// use cec2017_constrained::{InstanceSource, Suite};
    /// let suite = Suite::new(InstanceSource::embedded());
    /// let p = suite.problem(1, 10).unwrap();
    /// assert!(!suite.source().is_synthetic());
    /// # let _ = p;
    /// ```
    #[cfg(feature = "embedded")]
    #[must_use]
    pub fn embedded() -> Self {
        Self::Embedded
    }

    /// Synthetic instance data from `seed`.
    #[must_use]
    pub fn synthetic(seed: u64) -> Self {
        Self::Synthetic(seed)
    }

    /// Whether the data is synthetic (not the official instance).
    #[must_use]
    pub fn is_synthetic(&self) -> bool {
        matches!(self, Self::Synthetic(_))
    }

    /// A one-line description, e.g. for report headers.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            #[cfg(feature = "embedded")]
            Self::Embedded => {
                "official instance data (the MATLAB files embedded in cec2017-constrained)".into()
            }
            Self::Text(p) => format!("official instance data (text) from {}", p.display()),
            #[cfg(feature = "matlab")]
            Self::Matlab(p) => format!("official instance data (MATLAB) from {}", p.display()),
            Self::Synthetic(s) => {
                format!("SYNTHETIC instance data (seed {s}), not the official CEC2017 instance")
            }
        }
    }

    /// Loads the data of `spec` in dimension `dim` (checked with [`check_dimension`]).
    ///
    /// # Errors
    /// [`CecError::UnsupportedDimension`] for an impossible `dim` or a missing matrix
    /// for a non-official `dim`; [`CecError::Io`], [`CecError::NotANumber`] and
    /// [`CecError::Malformed`] for unreadable files.
    pub fn load(&self, spec: &ProblemSpec, dim: usize) -> Result<InstanceData, CecError> {
        check_dimension(spec, dim)?;
        match self {
            #[cfg(feature = "embedded")]
            Self::Embedded => embedded::load(spec, dim),
            Self::Text(dir) => load_text(dir, spec, dim),
            #[cfg(feature = "matlab")]
            Self::Matlab(dir) => matlab::load(dir, spec, dim),
            Self::Synthetic(seed) => Ok(synthetic(*seed, spec, dim)),
        }
    }
}

/// Checks `dim` against what problem `spec` accepts: `1 ≤ N ≤ 100`, even `N` for
/// problems 8 and 9. (Whether a transformation exists for `N` depends on the data.)
///
/// # Errors
/// [`CecError::UnsupportedDimension`] saying why.
pub fn check_dimension(spec: &ProblemSpec, dim: usize) -> Result<(), CecError> {
    let reason = if dim == 0 {
        Some("the dimension must be at least 1".to_string())
    } else if dim > MAX_DIM {
        Some(format!("the instance data supports at most N = {MAX_DIM}"))
    } else if spec.even_dimension && dim % 2 == 1 {
        Some("this problem needs an even dimension".to_string())
    } else {
        None
    };
    match reason {
        Some(reason) => Err(CecError::UnsupportedDimension {
            id: spec.id,
            dim,
            reason,
        }),
        None => Ok(()),
    }
}

/// The file names of the matrices of `spec` in dimension `dim` (official C layout).
fn matrix_files(spec: &ProblemSpec, dim: usize) -> Vec<String> {
    match spec.transform {
        Transform::None => vec![],
        Transform::Single => vec![format!("M_{}_D{dim}.txt", spec.id)],
        Transform::Double => vec![
            format!("M1_{}_D{dim}.txt", spec.id),
            format!("M2_{}_D{dim}.txt", spec.id),
        ],
    }
}

fn read_to_string(path: &Path) -> Result<String, CecError> {
    std::fs::read_to_string(path).map_err(|source| CecError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Parses whitespace-separated finite numbers, line by line.
fn parse_lines(path: &Path, text: &str) -> Result<Vec<Vec<f64>>, CecError> {
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut row = Vec::new();
        for token in line.split_whitespace() {
            match token.parse::<f64>() {
                Ok(v) if v.is_finite() => row.push(v),
                _ => {
                    return Err(CecError::NotANumber {
                        path: path.to_path_buf(),
                        line: i + 1,
                        token: token.to_string(),
                    })
                }
            }
        }
        if !row.is_empty() {
            rows.push(row);
        }
    }
    Ok(rows)
}

fn load_shift_text(path: &Path, dim: usize) -> Result<Vec<f64>, CecError> {
    let numbers: Vec<f64> = parse_lines(path, &read_to_string(path)?)?.concat();
    if numbers.len() < SHIFT_LEN {
        return Err(CecError::Malformed {
            path: path.to_path_buf(),
            detail: format!("truncated: {} numbers, expected {SHIFT_LEN}", numbers.len()),
        });
    }
    Ok(numbers[..dim].to_vec())
}

fn load_matrix_text(path: &Path, dim: usize) -> Result<Array2<f64>, CecError> {
    let rows = parse_lines(path, &read_to_string(path)?)?;
    let malformed = |detail: String| CecError::Malformed {
        path: path.to_path_buf(),
        detail,
    };
    if rows.len() < dim {
        return Err(malformed(format!(
            "truncated: {} rows, expected {dim}",
            rows.len()
        )));
    }
    if rows.len() > dim {
        return Err(malformed(format!("{} rows, expected {dim}", rows.len())));
    }
    let mut m = Array2::zeros((dim, dim));
    for (i, row) in rows.iter().enumerate() {
        if row.len() != dim {
            return Err(malformed(format!(
                "row {}: {} numbers, expected {dim}",
                i + 1,
                row.len()
            )));
        }
        for (j, &v) in row.iter().enumerate() {
            m[[i, j]] = v;
        }
    }
    Ok(m)
}

fn load_text(dir: &Path, spec: &ProblemSpec, dim: usize) -> Result<InstanceData, CecError> {
    let shift = load_shift_text(&dir.join(format!("shift_data_{}.txt", spec.id)), dim)?;
    let mut matrices = Vec::new();
    for name in matrix_files(spec, dim) {
        let path = dir.join(&name);
        if !path.exists() && !OFFICIAL_DIMS.contains(&dim) {
            return Err(CecError::UnsupportedDimension {
                id: spec.id,
                dim,
                reason: format!(
                    "no transformation matrix {name} in {} (the official data has N ∈ {{10, 30, 50, 100}})",
                    dir.display()
                ),
            });
        }
        matrices.push(load_matrix_text(&path, dim)?);
    }
    Ok(InstanceData { shift, matrices })
}

#[cfg(feature = "matlab")]
mod matlab {
    use super::*;

    pub(super) fn load(
        dir: &Path,
        spec: &ProblemSpec,
        dim: usize,
    ) -> Result<InstanceData, CecError> {
        let path = dir.join(mat_file_name(spec));
        let file = std::fs::File::open(&path).map_err(|source| CecError::Io {
            path: path.clone(),
            source,
        })?;
        let mat = matfile::MatFile::parse(file).map_err(|e| CecError::Malformed {
            path: path.clone(),
            detail: format!("not a readable MAT-file: {e:?}"),
        })?;
        from_mat_variables(&path, spec, dim, |name| {
            mat.find_by_name(name)
                .map(|array| match array.data() {
                    matfile::NumericData::Double { real, .. } => Ok(real.as_slice()),
                    _ => Err(format!("variable {name} is not a double array")),
                })
                .transpose()
        })
    }
}

/// The MATLAB file of problem `spec` in the organisers' distribution.
#[cfg(any(feature = "matlab", feature = "embedded"))]
fn mat_file_name(spec: &ProblemSpec) -> String {
    if spec.id <= 11 {
        format!("Function{}.mat", spec.id)
    } else {
        "ShiftAndRotation.mat".into()
    }
}

/// The instance data of problem `spec` in dimension `dim` from the variables of its
/// MATLAB file (`o`, `M_{N}` or `M1_{N}`/`M2_{N}`, column-major), looked up by
/// `variable` (`Ok(None)`: missing; `Err`: unreadable), whichever reader found them.
#[cfg(any(feature = "matlab", feature = "embedded"))]
fn from_mat_variables<'a>(
    path: &Path,
    spec: &ProblemSpec,
    dim: usize,
    variable: impl Fn(&str) -> Result<Option<&'a [f64]>, String>,
) -> Result<InstanceData, CecError> {
    let malformed = |detail: String| CecError::Malformed {
        path: path.to_path_buf(),
        detail,
    };
    let values = |name: &str, len: usize| -> Result<&'a [f64], CecError> {
        let data = variable(name)
            .map_err(&malformed)?
            .ok_or_else(|| malformed(format!("variable {name} is missing")))?;
        if data.len() < len {
            return Err(malformed(format!(
                "variable {name}: truncated: {} numbers, expected {len}",
                data.len()
            )));
        }
        Ok(data)
    };
    let o = values("o", SHIFT_LEN)?;
    let mut matrices = Vec::new();
    for name in matrix_variables(spec, dim) {
        if matches!(variable(&name), Ok(None)) && !OFFICIAL_DIMS.contains(&dim) {
            return Err(CecError::UnsupportedDimension {
                id: spec.id,
                dim,
                reason: format!("no variable {name} in {}", path.display()),
            });
        }
        let data = values(&name, dim * dim)?;
        // MATLAB stores column-major.
        matrices.push(Array2::from_shape_fn((dim, dim), |(i, j)| {
            data[j * dim + i]
        }));
    }
    Ok(InstanceData {
        shift: o[..dim].to_vec(),
        matrices,
    })
}

/// The organisers' MATLAB files, compiled in and read by [`crate::mat5`].
#[cfg(feature = "embedded")]
mod embedded {
    use super::*;

    /// `ShiftAndRotation.mat` (C12–C28) is byte for byte `Function2.mat` and stored
    /// once (data/README.md).
    fn bytes(spec: &ProblemSpec) -> &'static [u8] {
        macro_rules! mat {
            ($name:literal) => {
                include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/matlab/", $name))
            };
        }
        match spec.id {
            1 => mat!("Function1.mat"),
            3 => mat!("Function3.mat"),
            4 => mat!("Function4.mat"),
            5 => mat!("Function5.mat"),
            6 => mat!("Function6.mat"),
            7 => mat!("Function7.mat"),
            8 => mat!("Function8.mat"),
            9 => mat!("Function9.mat"),
            10 => mat!("Function10.mat"),
            11 => mat!("Function11.mat"),
            // C02, and C12–C28's ShiftAndRotation.mat (the same bytes).
            _ => mat!("Function2.mat"),
        }
    }

    pub(super) fn load(spec: &ProblemSpec, dim: usize) -> Result<InstanceData, CecError> {
        let path = PathBuf::from(format!("(embedded) {}", mat_file_name(spec)));
        let vars = crate::mat5::variables(bytes(spec)).map_err(|detail| CecError::Malformed {
            path: path.clone(),
            detail,
        })?;
        from_mat_variables(&path, spec, dim, |name| {
            Ok(vars
                .iter()
                .find(|v| v.name == name)
                .map(|v| v.values.as_slice()))
        })
    }
}

/// The names of problem `spec`'s matrices in dimension `dim` in the MATLAB files.
#[cfg(any(feature = "matlab", feature = "embedded"))]
fn matrix_variables(spec: &ProblemSpec, dim: usize) -> Vec<String> {
    match spec.transform {
        Transform::None => vec![],
        Transform::Single => vec![format!("M_{dim}")],
        Transform::Double => vec![format!("M1_{dim}"), format!("M2_{dim}")],
    }
}

/// SplitMix64 finaliser: decorrelates the seeds of the synthetic data items.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn item_rng(seed: u64, kind: u64, group: u64, dim: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(mix(mix(mix(mix(seed) ^ kind) ^ group) ^ dim))
}

/// A Haar-distributed random orthogonal matrix (QR of a Gaussian matrix with the
/// signs of `R`'s diagonal moved into `Q`).
fn random_orthogonal(rng: &mut Xoshiro256PlusPlus, n: usize) -> Array2<f64> {
    let g = Array2::from_shape_fn((n, n), |_| rng.sample::<f64, _>(StandardNormal));
    // A Gaussian matrix is regular with probability 1; fall back to I otherwise.
    orthogonal_from_gaussian(g).unwrap_or_else(|_| Array2::eye(n))
}

/// `Q1 diag(s) Q2` with `s` spread evenly over `[1, 3]`.
fn synthetic_matrix(rng: &mut Xoshiro256PlusPlus, n: usize) -> Array2<f64> {
    let q1 = random_orthogonal(rng, n);
    let q2 = random_orthogonal(rng, n);
    let mut q1s = q1;
    for (j, mut col) in q1s.columns_mut().into_iter().enumerate() {
        let s = if n == 1 {
            1.0
        } else {
            1.0 + 2.0 * j as f64 / (n - 1) as f64
        };
        col.mapv_inplace(|v| v * s);
    }
    q1s.dot(&q2)
}

fn synthetic(seed: u64, spec: &ProblemSpec, dim: usize) -> InstanceData {
    // Problems 12–28 share one shift vector, 21–28 one matrix (as the official data).
    let shift_group = if spec.id >= 12 { 12 } else { spec.id } as u64;
    let mut rng = item_rng(seed, 1, shift_group, 0);
    let r = spec.shift_range;
    let full: Vec<f64> = (0..SHIFT_LEN).map(|_| rng.random_range(-r..=r)).collect();
    let matrix_group = if spec.id >= 21 { 21 } else { spec.id } as u64;
    let count = match spec.transform {
        Transform::None => 0,
        Transform::Single => 1,
        Transform::Double => 2,
    };
    let matrices = (0..count)
        .map(|i| {
            let mut rng = item_rng(seed, 2 + i as u64, matrix_group, dim as u64);
            synthetic_matrix(&mut rng, dim)
        })
        .collect();
    InstanceData {
        shift: full[..dim].to_vec(),
        matrices,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::problem_spec;
    use ndarray_linalg::SVD;

    #[test]
    fn synthetic_matrices_have_condition_number_three() {
        let spec = problem_spec(2).unwrap();
        let data = InstanceSource::synthetic(7).load(spec, 10).unwrap();
        let (_, s, _) = data.matrices[0].svd(false, false).unwrap();
        assert!(
            (s[0] - 3.0).abs() < 1e-12 && (s[9] - 1.0).abs() < 1e-12,
            "{s}"
        );
        assert_eq!(data.shift.len(), 10);
        assert!(data.shift.iter().all(|v| v.abs() <= 50.0));
    }

    #[test]
    fn synthetic_data_is_deterministic_and_shared_like_the_official() {
        let src = InstanceSource::synthetic(11);
        let a = src.load(problem_spec(21).unwrap(), 30).unwrap();
        let b = src.load(problem_spec(28).unwrap(), 30).unwrap();
        assert_eq!(a, b);
        let c = src.load(problem_spec(12).unwrap(), 30).unwrap();
        assert_eq!(a.shift, c.shift);
        let other = InstanceSource::synthetic(12)
            .load(problem_spec(21).unwrap(), 30)
            .unwrap();
        assert_ne!(a.shift, other.shift);
        let p4 = src.load(problem_spec(4).unwrap(), 50).unwrap();
        assert!(p4.shift.iter().all(|v| v.abs() <= 5.0));
    }
}
