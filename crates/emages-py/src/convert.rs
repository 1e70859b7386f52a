//! Between numpy and the workspace: array-likes in (lists, any float dtype, any
//! layout), checked shapes, numpy arrays out; points are rows in Python, columns here.

use ndarray::{Array1, Array2, ArrayView2, ShapeBuilder};
use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// `numpy.ascontiguousarray(obj, dtype=float64)`: any array-like becomes a C-ordered
/// float64 array (a copy only where needed).
pub fn as_float_array<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = obj.py();
    let np = py.import("numpy")?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("dtype", np.getattr("float64")?)?;
    np.call_method("ascontiguousarray", (obj,), Some(&kwargs))
}

/// [`float_array_with_shape`] for values the user's callable returned as `what`:
/// strings, bytes, complex numbers and dates are an error naming `what` (numpy would
/// turn `"1.0"` into 1.0).
pub fn values_with_shape<'py>(
    obj: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<(Bound<'py, PyAny>, Vec<usize>)> {
    let raw = obj.py().import("numpy")?.call_method1("asarray", (obj,))?;
    let kind: String = raw.getattr("dtype")?.getattr("kind")?.extract()?;
    let refused = match kind.as_str() {
        "U" | "S" => Some("strings"),
        "c" => Some("complex numbers"),
        "M" | "m" => Some("dates or times"),
        "V" => Some("raw bytes"),
        _ => None,
    };
    if let Some(refused) = refused {
        return Err(PyValueError::new_err(format!(
            "{what} must be real numbers, not {refused}: got {}",
            obj.repr()?
        )));
    }
    float_array_with_shape(obj)
}

/// [`as_float_array`] and the array's shape.
pub fn float_array_with_shape<'py>(
    obj: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyAny>, Vec<usize>)> {
    let arr = as_float_array(obj)?;
    let shape = arr.getattr("shape")?.extract()?;
    Ok((arr, shape))
}

/// A point of `n` reals (a 1-d array-like).
pub fn point(obj: &Bound<'_, PyAny>, n: usize, what: &str) -> PyResult<Vec<f64>> {
    let arr = as_float_array(obj)?;
    let arr = arr
        .cast::<PyArray1<f64>>()
        .map_err(|_| PyValueError::new_err(format!("{what} must be a 1-d array of {n} numbers")))?;
    let v = arr.readonly().as_slice()?.to_vec();
    if v.len() != n {
        return Err(PyValueError::new_err(format!(
            "{what} has {} components, the problem has dimension {n}",
            v.len()
        )));
    }
    Ok(v)
}

/// A population of points of dimension `n`, given as rows (shape `(k, n)`; a single
/// point of shape `(n,)` is a population of one), as columns of an `n × k` matrix.
pub fn population(obj: &Bound<'_, PyAny>, n: usize) -> PyResult<Array2<f64>> {
    let arr = as_float_array(obj)?;
    if let Ok(a) = arr.cast::<PyArray2<f64>>() {
        let ro: PyReadonlyArray2<f64> = a.readonly();
        let view = ro.as_array();
        if view.ncols() != n {
            return Err(PyValueError::new_err(format!(
                "points have shape {:?}: expected (k, {n}), one point of dimension {n} per row",
                ro.shape()
            )));
        }
        Ok(columns(view))
    } else if let Ok(a) = arr.cast::<PyArray1<f64>>() {
        let ro = a.readonly();
        let v = ro.as_slice()?;
        if v.len() != n {
            return Err(PyValueError::new_err(format!(
                "a point of {} components, the problem has dimension {n}",
                v.len()
            )));
        }
        Ok(Array2::from_shape_vec((n, 1).f(), v.to_vec()).expect("n × 1"))
    } else {
        Err(PyValueError::new_err(format!(
            "points must be a 2-d array of shape (k, {n})"
        )))
    }
}

/// Rows (Python's points) as the columns of a column-major matrix.
fn columns(rows: ArrayView2<'_, f64>) -> Array2<f64> {
    let (k, n) = rows.dim();
    let mut out = Array2::zeros((n, k).f());
    out.assign(&rows.t());
    out
}

/// `(f, g, h, ν̄)` of a batch, as numpy arrays of shapes `(k,)`, `(k, l)`, `(k, m)`, `(k,)`.
pub type Batch<'py> = (
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray1<f64>>,
);

/// Values of a batch back to Python: `f` (k,), `g` (k, l), `h` (k, m), `ν̄` (k,).
pub fn batch_out<'py>(
    py: Python<'py>,
    objectives: Array1<f64>,
    constraints: &Array2<f64>,
    l: usize,
    violations: Array1<f64>,
) -> Batch<'py> {
    let t = constraints.t();
    let g = t.slice(ndarray::s![.., ..l]).to_owned();
    let h = t.slice(ndarray::s![.., l..]).to_owned();
    (
        objectives.into_pyarray(py),
        g.as_standard_layout().into_owned().into_pyarray(py),
        h.as_standard_layout().into_owned().into_pyarray(py),
        violations.into_pyarray(py),
    )
}
