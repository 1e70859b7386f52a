//! A problem given by Python callables: the objective, the inequality constraints
//! (`g(x) ≤ 0` satisfied) and the equality constraints (`|h(x)| ≤ δ` satisfied), or
//! one callable returning them together.
//!
//! The boundary is crossed once per population when the callables are vectorised (the
//! points as the rows of one `(k, N)` array), once per point otherwise. The strategy runs
//! without the GIL and takes it for each call; the first exception a callable raises
//! (or a Ctrl-C) stops the run and is re-raised as it was.

use crate::convert::values_with_shape;
use constraint_handling::problem::{
    check_batch_shapes, ConstraintJacobian, ObjectiveGradient, ProblemShape,
};
use constraint_handling::ConstrainedProblem;
use constraint_handling::ProblemError;
use ndarray::{Array2, ArrayView2, ArrayViewMut1, ArrayViewMut2, Axis};
use numpy::{IntoPyArray, PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::cell::{Cell, RefCell};

/// How the callables are organised.
#[derive(Debug)]
pub enum Callables {
    /// `fun(x) -> f`, `ineq(x) -> g`, `eq(x) -> h` (each optional but `fun`).
    Separate {
        /// The objective.
        fun: Py<PyAny>,
        /// The inequality constraints.
        ineq: Option<Py<PyAny>>,
        /// The equality constraints.
        eq: Option<Py<PyAny>>,
    },
    /// `fun(x) -> (f, g)` or `(f, g, h)`: the values computed together.
    Joint(Py<PyAny>),
}

/// A constrained problem evaluated by Python callables.
#[derive(Debug)]
pub struct CallbackProblem {
    callables: Callables,
    /// `jac(x) -> (l + m, N)`: the constraints' Jacobian, rows g then h, if given.
    jacobian: Option<Py<PyAny>>,
    /// `grad(x) -> (N,)`: the objective's gradient, if given.
    gradient: Option<Py<PyAny>>,
    /// The point of the last gradient: the constraints' Jacobian there is part of the
    /// same derivative evaluation (not counted again).
    gradient_at: RefCell<Vec<f64>>,
    vectorized: bool,
    shape: ProblemShape,
    f_evaluations: Cell<usize>,
    g_evaluations: Cell<usize>,
    j_evaluations: Cell<usize>,
    error: RefCell<Option<PyErr>>,
}

/// The message of the evaluation error that stands for a Python exception (which is
/// re-raised itself).
const RAISED: &str = "a Python callable raised an exception";

impl CallbackProblem {
    /// The problem of `callables` on the box, constraints and margin of `shape`.
    pub fn new(callables: Callables, vectorized: bool, shape: ProblemShape) -> Self {
        Self {
            callables,
            jacobian: None,
            gradient: None,
            gradient_at: RefCell::new(Vec::new()),
            vectorized,
            shape,
            f_evaluations: Cell::new(0),
            g_evaluations: Cell::new(0),
            j_evaluations: Cell::new(0),
            error: RefCell::new(None),
        }
    }

    /// The same problem offering the constraints' Jacobian `jac(x) -> (l + m, N)` (one
    /// point, rows g then h): the repairs take it instead of differences, one
    /// evaluation each.
    pub fn with_jacobian(mut self, jac: Option<Py<PyAny>>) -> Self {
        self.jacobian = jac;
        self
    }

    /// The same problem offering the objective's gradient `grad(x) -> (N,)`: the local
    /// phase takes it (with the constraints' Jacobian) instead of difference probes.
    pub fn with_gradient(mut self, grad: Option<Py<PyAny>>) -> Self {
        self.shape.gradient = grad.is_some();
        self.gradient = grad;
        self
    }

    /// `(f evaluations, g evaluations)`: the points each callable was asked about.
    pub fn evaluations(&self) -> (usize, usize) {
        (self.f_evaluations.get(), self.g_evaluations.get())
    }

    /// The points at which derivatives were asked for (`grad`, `jac`, or both).
    pub fn jacobians(&self) -> usize {
        self.j_evaluations.get()
    }

    /// The exception that stopped the run, if one did.
    pub fn take_error(&self) -> Option<PyErr> {
        self.error.borrow_mut().take()
    }

    /// Evaluates the columns of `points`: `f` into `objectives` unless `constraints_only`
    /// (and the callables are separate), the constraints into `constraints`.
    fn answer(
        &self,
        points: ArrayView2<'_, f64>,
        mut objectives: ArrayViewMut1<'_, f64>,
        mut constraints: ArrayViewMut2<'_, f64>,
        constraints_only: bool,
    ) -> Result<(), ProblemError> {
        if self.error.borrow().is_some() {
            return Err(ProblemError::Evaluation(RAISED.into()));
        }
        let result = Python::attach(|py| -> PyResult<()> {
            let k = points.ncols();
            // Points as rows, as Python expects them.
            let rows: Array2<f64> = points.t().as_standard_layout().into_owned();
            if self.vectorized {
                let x = rows.into_pyarray(py);
                self.values(
                    py,
                    x.as_any(),
                    k,
                    &mut objectives,
                    &mut constraints,
                    constraints_only,
                )?;
            } else {
                for (j, row) in rows.axis_iter(Axis(0)).enumerate() {
                    let x = row.to_owned().into_pyarray(py);
                    self.values(
                        py,
                        x.as_any(),
                        1,
                        &mut objectives.slice_mut(ndarray::s![j..=j]),
                        &mut constraints.slice_mut(ndarray::s![.., j..=j]),
                        constraints_only,
                    )?;
                }
            }
            py.check_signals()
        });
        result.map_err(|e| {
            self.error.borrow_mut().get_or_insert(e);
            ProblemError::Evaluation(RAISED.into())
        })
    }

    /// Calls the callables on `x` (`k` points as rows, or one 1-d point) and stores
    /// their values.
    fn values(
        &self,
        py: Python<'_>,
        x: &Bound<'_, PyAny>,
        k: usize,
        objectives: &mut ArrayViewMut1<'_, f64>,
        constraints: &mut ArrayViewMut2<'_, f64>,
        constraints_only: bool,
    ) -> PyResult<()> {
        let single = !self.vectorized;
        match &self.callables {
            Callables::Joint(fun) => {
                let out = fun.bind(py).call1((x,))?;
                let tuple = out.cast::<PyTuple>().map_err(|_| {
                    PyValueError::new_err(
                        "fun must return (f, g) or (f, g, h) when no ineq/eq callables are given",
                    )
                })?;
                let parts: Vec<Bound<'_, PyAny>> = tuple.iter().collect();
                if !(2..=3).contains(&parts.len()) {
                    return Err(PyValueError::new_err(format!(
                        "fun returned a tuple of {} values: expected (f, g) or (f, g, h)",
                        parts.len()
                    )));
                }
                self.f_evaluations.set(self.f_evaluations.get() + k);
                read_vector(&parts[0], k, single, "f", objectives)?;
                refuse_nan(x, single, objectives)?;
                let empty = PyTuple::empty(py);
                let h = parts.get(2).map_or(empty.as_any(), |h| h);
                self.read_constraints(&parts[1], h, k, single, constraints)?;
                refuse_nan_constraints(
                    x,
                    single,
                    self.shape.inequalities,
                    ("fun's g", "fun's h"),
                    constraints,
                )?;
            }
            Callables::Separate { fun, ineq, eq } => {
                if constraints_only {
                    objectives.fill(f64::NAN);
                } else {
                    let f = fun.bind(py).call1((x,))?;
                    self.f_evaluations.set(self.f_evaluations.get() + k);
                    read_vector(&f, k, single, "f", objectives)?;
                    refuse_nan(x, single, objectives)?;
                }
                let g = match ineq {
                    Some(c) => c.bind(py).call1((x,))?,
                    None => PyTuple::empty(py).into_any(),
                };
                let h = match eq {
                    Some(c) => c.bind(py).call1((x,))?,
                    None => PyTuple::empty(py).into_any(),
                };
                self.read_constraints(&g, &h, k, single, constraints)?;
                refuse_nan_constraints(
                    x,
                    single,
                    self.shape.inequalities,
                    ("ineq", "eq"),
                    constraints,
                )?;
            }
        }
        Ok(())
    }

    fn read_constraints(
        &self,
        g: &Bound<'_, PyAny>,
        h: &Bound<'_, PyAny>,
        k: usize,
        single: bool,
        constraints: &mut ArrayViewMut2<'_, f64>,
    ) -> PyResult<()> {
        if self.shape.num_constraints() > 0 {
            self.g_evaluations.set(self.g_evaluations.get() + k);
        }
        let (l, m) = (self.shape.inequalities, self.shape.equalities);
        read_matrix(
            g,
            k,
            l,
            single,
            "g",
            &mut constraints.slice_mut(ndarray::s![..l, ..]),
        )?;
        read_matrix(
            h,
            k,
            m,
            single,
            "h",
            &mut constraints.slice_mut(ndarray::s![l.., ..]),
        )
    }
}

/// A NaN (or `None`) objective value is an error naming the point; `±inf` is a value
/// (`+inf` ranks the point worst).
fn refuse_nan(
    x: &Bound<'_, PyAny>,
    single: bool,
    objectives: &ArrayViewMut1<'_, f64>,
) -> PyResult<()> {
    let Some(j) = objectives.iter().position(|v| v.is_nan()) else {
        return Ok(());
    };
    let point = if single { x.clone() } else { x.get_item(j)? };
    Err(PyValueError::new_err(format!(
        "fun returned NaN (or None) at x = {}: return a number (float('inf') ranks the point worst)",
        point.repr()?
    )))
}

/// A NaN constraint value is an error naming the callable, the constraint and the
/// point; `±inf` is a value.
fn refuse_nan_constraints(
    x: &Bound<'_, PyAny>,
    single: bool,
    l: usize,
    (g, h): (&str, &str),
    constraints: &ArrayViewMut2<'_, f64>,
) -> PyResult<()> {
    let Some(((r, j), _)) = constraints.indexed_iter().find(|(_, v)| v.is_nan()) else {
        return Ok(());
    };
    let point = if single { x.clone() } else { x.get_item(j)? };
    let (what, index) = if r < l { (g, r) } else { (h, r - l) };
    Err(PyValueError::new_err(format!(
        "{what} returned NaN (or None) for constraint {index} at x = {}: return a number",
        point.repr()?
    )))
}

/// `k` numbers (one per point): shape `(k,)`, or a scalar for a single point.
fn read_vector(
    value: &Bound<'_, PyAny>,
    k: usize,
    single: bool,
    what: &str,
    out: &mut ArrayViewMut1<'_, f64>,
) -> PyResult<()> {
    let (arr, shape) = values_with_shape(value, what)?;
    let ok = if single {
        shape.is_empty() || shape == [1]
    } else {
        shape == [k]
    };
    if !ok {
        return Err(PyValueError::new_err(format!(
            "{what} has shape {shape:?}: expected {}",
            if single {
                "a number".to_string()
            } else {
                format!("({k},), one value per point")
            }
        )));
    }
    let flat = arr.call_method0("ravel")?;
    let flat = flat.cast::<PyArray1<f64>>()?.readonly();
    out.iter_mut()
        .zip(flat.as_slice()?)
        .for_each(|(d, s)| *d = *s);
    Ok(())
}

/// `k × c` constraint values as rows per point: shape `(k, c)` (also `(k,)` for
/// `c = 1`), or `(c,)` (a scalar for `c = 1`) for a single point; nothing for `c = 0`.
fn read_matrix(
    value: &Bound<'_, PyAny>,
    k: usize,
    c: usize,
    single: bool,
    what: &str,
    out: &mut ArrayViewMut2<'_, f64>,
) -> PyResult<()> {
    let (arr, shape) = values_with_shape(value, what)?;
    let size: usize = shape.iter().product();
    let ok = if c == 0 {
        size == 0
    } else if single {
        shape == [c] || (c == 1 && shape.is_empty())
    } else {
        shape == [k, c] || (c == 1 && shape == [k])
    };
    if !ok {
        return Err(PyValueError::new_err(format!(
            "{what} has shape {shape:?}: expected {}",
            if single {
                format!("({c},)")
            } else {
                format!("({k}, {c}), one row per point")
            }
        )));
    }
    if c == 0 {
        return Ok(());
    }
    let flat = arr.call_method0("ravel")?;
    let flat = flat.cast::<PyArray1<f64>>()?.readonly();
    let v = flat.as_slice()?;
    // Row j of the Python array is point j: column j here.
    for j in 0..k {
        for r in 0..c {
            out[[r, j]] = v[j * c + r];
        }
    }
    Ok(())
}

/// `jac(x)` at one point, read as the `(l + m) × N` Jacobian; the constraint values, if
/// wanted, from the constraint callables.
impl ConstraintJacobian for CallbackProblem {
    fn evaluate_jacobian(
        &self,
        x: &[f64],
        values: Option<&mut [f64]>,
        mut jacobian: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        if let Some(c) = values {
            let point = ArrayView2::from_shape((x.len(), 1), x).expect("n × 1");
            let mut f = [0.0];
            let c = ArrayViewMut2::from_shape((c.len(), 1), c).expect("c × 1");
            self.answer(point, ArrayViewMut1::from(&mut f[..]), c, true)?;
        }
        if self.error.borrow().is_some() {
            return Err(ProblemError::Evaluation(RAISED.into()));
        }
        let Some(jac) = &self.jacobian else {
            return Err(ProblemError::Evaluation("no jac was given".into()));
        };
        let (k, n) = (self.shape.num_constraints(), x.len());
        let with_gradient = self.gradient_at.borrow().as_slice() == x;
        let result = Python::attach(|py| -> PyResult<()> {
            let point = ndarray::Array1::from(x.to_vec()).into_pyarray(py);
            let value = jac.bind(py).call1((point.clone(),))?;
            if !with_gradient {
                self.j_evaluations.set(self.j_evaluations.get() + 1);
            }
            let (arr, shape) = values_with_shape(&value, "jac(x)")?;
            if shape != [k, n] && !(k == 1 && shape == [n]) {
                return Err(PyValueError::new_err(format!(
                    "the constraints' Jacobian has shape {shape:?}: expected ({k}, {n}), one row per constraint (g then h)"
                )));
            }
            let flat = arr.call_method0("ravel")?;
            let flat = flat.cast::<PyArray1<f64>>()?.readonly();
            for (r, row) in flat.as_slice()?.chunks_exact(n).enumerate() {
                for (i, &v) in row.iter().enumerate() {
                    if !v.is_finite() {
                        let l = self.shape.inequalities;
                        let row = if r < l {
                            format!("g[{r}]")
                        } else {
                            format!("h[{}]", r - l)
                        };
                        return Err(PyValueError::new_err(format!(
                            "the constraints' Jacobian is not finite: d{row}/dx[{i}] = {v} at x = {}",
                            point.repr()?
                        )));
                    }
                    jacobian[[r, i]] = v;
                }
            }
            py.check_signals()
        });
        result.map_err(|e| {
            self.error.borrow_mut().get_or_insert(e);
            ProblemError::Evaluation(RAISED.into())
        })
    }
}

/// `grad(x)` at one point, read as `N` finite numbers.
impl ObjectiveGradient for CallbackProblem {
    fn evaluate_gradient(&self, x: &[f64], gradient: &mut [f64]) -> Result<(), ProblemError> {
        if self.error.borrow().is_some() {
            return Err(ProblemError::Evaluation(RAISED.into()));
        }
        let Some(grad) = &self.gradient else {
            return Err(ProblemError::Evaluation("no jac was given for fun".into()));
        };
        let n = x.len();
        let result = Python::attach(|py| -> PyResult<()> {
            let point = ndarray::Array1::from(x.to_vec()).into_pyarray(py);
            let value = grad.bind(py).call1((point.clone(),))?;
            self.j_evaluations.set(self.j_evaluations.get() + 1);
            *self.gradient_at.borrow_mut() = x.to_vec();
            let (arr, shape) = values_with_shape(&value, "jac(x)")?;
            if shape != [n] && shape != [1, n] {
                return Err(PyValueError::new_err(format!(
                    "jac(x), the gradient of fun, has shape {shape:?}: expected ({n},)"
                )));
            }
            let flat = arr.call_method0("ravel")?;
            let flat = flat.cast::<PyArray1<f64>>()?.readonly();
            for (i, (&v, g)) in flat.as_slice()?.iter().zip(gradient.iter_mut()).enumerate() {
                if !v.is_finite() {
                    return Err(PyValueError::new_err(format!(
                        "jac(x), the gradient of fun, is not finite: df/dx[{i}] = {v} at x = {}",
                        point.repr()?
                    )));
                }
                *g = v;
            }
            py.check_signals()
        });
        result.map_err(|e| {
            self.error.borrow_mut().get_or_insert(e);
            ProblemError::Evaluation(RAISED.into())
        })
    }
}

/// One point is a batch of one; a batch is checked for its shapes first; the repair's
/// Jacobian probes ask for the constraints only.
impl ConstrainedProblem for CallbackProblem {
    fn dim(&self) -> usize {
        self.shape.dim()
    }
    fn num_inequalities(&self) -> usize {
        self.shape.inequalities
    }
    fn num_equalities(&self) -> usize {
        self.shape.equalities
    }
    fn lower_bounds(&self) -> &[f64] {
        &self.shape.lower
    }
    fn upper_bounds(&self) -> &[f64] {
        &self.shape.upper
    }
    fn equality_margin(&self) -> f64 {
        self.shape.equality_margin
    }
    fn constraint_jacobian(&self) -> Option<&dyn ConstraintJacobian> {
        self.jacobian
            .as_ref()
            .map(|_| self as &dyn ConstraintJacobian)
    }
    fn objective_gradient(&self) -> Option<&dyn ObjectiveGradient> {
        self.gradient
            .as_ref()
            .map(|_| self as &dyn ObjectiveGradient)
    }
    fn evaluate(&self, x: &[f64], constraints: &mut [f64]) -> Result<f64, ProblemError> {
        self.check_buffers(x, constraints)?;
        let point = ArrayView2::from_shape((x.len(), 1), x).expect("n × 1");
        let mut f = [0.0];
        let c = ArrayViewMut2::from_shape((constraints.len(), 1), constraints).expect("c × 1");
        self.answer(point, ArrayViewMut1::from(&mut f[..]), c, false)?;
        Ok(f[0])
    }
    fn evaluate_batch(
        &self,
        points: ArrayView2<'_, f64>,
        objectives: ArrayViewMut1<'_, f64>,
        constraints: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        check_batch_shapes(self, &points, &objectives, &constraints)?;
        self.answer(points, objectives, constraints, false)
    }
    fn evaluate_constraints_batch(
        &self,
        points: ArrayView2<'_, f64>,
        objectives: ArrayViewMut1<'_, f64>,
        constraints: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        check_batch_shapes(self, &points, &objectives, &constraints)?;
        self.answer(points, objectives, constraints, true)
    }
}
