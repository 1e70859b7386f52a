//! The suites' problems as Python classes: `Cec2017`, `BbobConstrained` and `Cec2020Rw`, each with
//! a single-point and a batch evaluation returning `f`, `g`, `h` and the mean violation.

use crate::convert::{batch_out, point, population};
use crate::error::to_py;
use constraint_handling::{ConstrainedProblem, JacobianSource};
use ndarray::{Array1, Array2, ShapeBuilder};
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

/// A problem the strategy can run on without calling back into Python.
pub type Native = Arc<dyn ConstrainedProblem + Send + Sync>;

/// `(f, g, h, ν̄)` of one point.
type One<'py> = (
    f64,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<f64>>,
    f64,
);
/// `(f, g, h, ν̄)` of a batch.
type Many<'py> = crate::convert::Batch<'py>;

fn evaluate_one<'py>(
    py: Python<'py>,
    problem: &(dyn ConstrainedProblem + Send + Sync),
    x: &Bound<'py, PyAny>,
) -> PyResult<One<'py>> {
    let x = point(x, problem.dim(), "x")?;
    let mut c = vec![0.0; problem.num_constraints()];
    let f = py.detach(|| problem.evaluate(&x, &mut c)).map_err(to_py)?;
    let nu = problem.mean_violation(&c);
    let h = c.split_off(problem.num_inequalities());
    Ok((f, c.into_pyarray(py), h.into_pyarray(py), nu))
}

fn evaluate_many<'py>(
    py: Python<'py>,
    problem: &(dyn ConstrainedProblem + Send + Sync),
    x: &Bound<'py, PyAny>,
) -> PyResult<Many<'py>> {
    let points = population(x, problem.dim())?;
    let k = points.ncols();
    let mut f = Array1::zeros(k);
    let mut c = Array2::zeros((problem.num_constraints(), k).f());
    py.detach(|| problem.evaluate_batch(points.view(), f.view_mut(), c.view_mut()))
        .map_err(to_py)?;
    let nu: Array1<f64> = c
        .columns()
        .into_iter()
        .map(|col| problem.mean_violation(col.as_slice().expect("column-major")))
        .collect();
    Ok(batch_out(py, f, &c, problem.num_inequalities(), nu))
}

/// The Jacobian source of a problem class's `jacobian=` flag.
fn source(exact: bool) -> JacobianSource {
    if exact {
        JacobianSource::Exact
    } else {
        JacobianSource::Differences
    }
}

/// The methods every problem class shares.
macro_rules! problem_methods {
    ($ty:ty) => {
        #[pymethods]
        impl $ty {
            /// The dimension `N`.
            #[getter]
            fn dim(&self) -> usize {
                self.problem.dim()
            }
            /// The number `l` of inequality constraints `g_i(x) ≤ 0`.
            #[getter]
            fn n_ineq(&self) -> usize {
                self.problem.num_inequalities()
            }
            /// The number `m` of equality constraints `h_j(x) = 0` (satisfied when
            /// `|h_j| ≤ equality_margin`).
            #[getter]
            fn n_eq(&self) -> usize {
                self.problem.num_equalities()
            }
            /// The margin `δ` within which an equality counts as satisfied.
            #[getter]
            fn equality_margin(&self) -> f64 {
                self.problem.equality_margin()
            }
            /// The lower box bounds.
            #[getter]
            fn lower<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
                self.problem.lower_bounds().to_vec().into_pyarray(py)
            }
            /// The upper box bounds.
            #[getter]
            fn upper<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
                self.problem.upper_bounds().to_vec().into_pyarray(py)
            }
            /// `(f, g, h, violation)` at the point `x` (shape `(N,)`): the objective,
            /// the inequality values (`g ≤ 0` is satisfied), the equality values and the
            /// mean violation ν̄ (0 when feasible).
            fn evaluate<'py>(&self, py: Python<'py>, x: &Bound<'py, PyAny>) -> PyResult<One<'py>> {
                evaluate_one(py, self.problem.as_ref(), x)
            }
            /// `(f, g, h, violation)` of `k` points given as the rows of `x` (shape
            /// `(k, N)`): arrays of shapes `(k,)`, `(k, l)`, `(k, m)`, `(k,)`, in one
            /// call into Rust.
            fn evaluate_batch<'py>(
                &self,
                py: Python<'py>,
                x: &Bound<'py, PyAny>,
            ) -> PyResult<Many<'py>> {
                evaluate_many(py, self.problem.as_ref(), x)
            }
            /// The constraints' Jacobian `∂C/∂x` at `x`, shape `(l + m, N)` (rows `g`
            /// then `h`), when the problem offers it (made with `jacobian=True`:
            /// automatic differentiation, one evaluation); `None` for a black box.
            fn jacobian<'py>(
                &self,
                py: Python<'py>,
                x: &Bound<'py, PyAny>,
            ) -> PyResult<Option<Bound<'py, PyArray2<f64>>>> {
                let n = self.problem.dim();
                let x = point(x, n, "x")?;
                let Some(j) = self.problem.constraint_jacobian() else {
                    return Ok(None);
                };
                let mut jac = Array2::zeros((self.problem.num_constraints(), n));
                j.evaluate_jacobian(&x, None, jac.view_mut())
                    .map_err(to_py)?;
                Ok(Some(jac.into_pyarray(py)))
            }
        }
    };
}

/// A CEC2017 constrained problem (C01–C28) in dimension 10, 30, 50 or 100.
#[pyclass(name = "Cec2017", module = "emages", frozen)]
pub struct PyCec2017 {
    pub problem: Native,
    id: usize,
    instance: String,
}

#[pymethods]
impl PyCec2017 {
    /// Problem `problem` (1–28) in dimension `dim`, with the official instance data
    /// (compiled into the package; `data=DIR` or `$CEC2017_DATA_DIR` names a folder of
    /// the competition's text files instead) or a synthetic instance generated from
    /// the seed `synthetic`. `jacobian=True` offers the constraints' exact Jacobian
    /// (automatic differentiation; the repairs then take it, one evaluation each).
    #[new]
    #[pyo3(signature = (problem, dim, *, data=None, synthetic=None, fast=false, jacobian=false))]
    fn new(
        problem: usize,
        dim: usize,
        data: Option<PathBuf>,
        synthetic: Option<u64>,
        fast: bool,
        jacobian: bool,
    ) -> PyResult<Self> {
        let (suite, instance) = match (data, synthetic) {
            (Some(_), Some(_)) => return Err(PyValueError::new_err(
                "give the instance data (data=DIR) or a synthetic seed (synthetic=SEED), not both",
            )),
            (None, Some(seed)) => (
                cec2017_constrained::Suite::synthetic(seed),
                format!("synthetic({seed})"),
            ),
            (data, None) => {
                let suite = match data
                    .or_else(|| std::env::var_os("CEC2017_DATA_DIR").map(PathBuf::from))
                {
                    Some(dir) => cec2017_constrained::Suite::official(&dir).map_err(to_py)?,
                    None => cec2017_constrained::Suite::embedded(),
                };
                (suite, "official".to_string())
            }
        };
        let p = suite.problem(problem, dim).map_err(to_py)?;
        let p = if fast {
            p.with_fidelity(cec2017_constrained::Fidelity::Fast)
        } else {
            p
        }
        .with_jacobian(source(jacobian));
        Ok(Self {
            problem: Arc::new(p),
            id: problem,
            instance,
        })
    }

    /// `C01` … `C28`.
    #[getter]
    fn name(&self) -> String {
        format!("C{:02}", self.id)
    }

    /// Which instance data: `official` or `synthetic(SEED)`.
    #[getter]
    fn instance(&self) -> &str {
        &self.instance
    }

    fn __repr__(&self) -> String {
        format!(
            "Cec2017(problem={}, dim={}, instance={})",
            self.id,
            self.problem.dim(),
            self.instance
        )
    }
}

problem_methods!(PyCec2017);

/// A problem of COCO's bbob-constrained suite (cocoex 2.8.2's, bit for bit): function
/// 1–54 in dimension 2–40, any instance. Evaluations of `f` and of `g` are counted apart.
#[pyclass(name = "BbobConstrained", module = "emages", frozen)]
pub struct PyBbob {
    pub problem: Native,
    bbob: Arc<bbob_constrained::BbobProblem>,
}

#[pymethods]
impl PyBbob {
    /// Function `function` (1–54), dimension `dim`, instance `instance`.
    #[new]
    #[pyo3(signature = (function, dim, instance=1))]
    fn new(function: usize, dim: usize, instance: usize) -> PyResult<Self> {
        let p =
            Arc::new(bbob_constrained::BbobProblem::new(function, dim, instance).map_err(to_py)?);
        Ok(Self {
            problem: p.clone(),
            bbob: p,
        })
    }

    /// COCO's problem id, `bbob-constrained_f038_i03_d10`.
    #[getter]
    fn id(&self) -> String {
        self.bbob.id()
    }

    /// COCO's initial solution.
    #[getter]
    fn initial_solution<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.bbob.initial_solution().to_vec().into_pyarray(py)
    }

    /// The optimal value `f_opt`.
    #[getter]
    fn best_value(&self) -> f64 {
        self.bbob.best_value()
    }

    /// The constrained optimum `x_opt`.
    #[getter]
    fn best_parameter<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.bbob.best_parameter().to_vec().into_pyarray(py)
    }

    /// `(f evaluations, g evaluations)` so far, as COCO counts them.
    #[getter]
    fn evaluations(&self) -> (u64, u64) {
        self.bbob.evaluations()
    }

    fn __repr__(&self) -> String {
        format!("BbobConstrained('{}')", self.bbob.id())
    }
}

problem_methods!(PyBbob);

/// A problem of the CEC2020 real-world constrained suite: RC01–RC57 (`problem` 1–57),
/// each in its own dimension, as the organisers' code defines it.
#[pyclass(name = "Cec2020Rw", module = "emages", frozen)]
pub struct PyCec2020 {
    pub problem: Native,
    rw: Arc<cec2020_rw::Cec2020Problem>,
}

#[pymethods]
impl PyCec2020 {
    /// Problem RC`problem` (1–57). `jacobian=True` offers the constraints' exact
    /// Jacobian (automatic differentiation of the same formulas; one evaluation each,
    /// as the competition counts it).
    #[new]
    #[pyo3(signature = (problem, *, jacobian=false))]
    fn new(problem: usize, jacobian: bool) -> PyResult<Self> {
        let p = Arc::new(
            cec2020_rw::Cec2020Problem::new(problem)
                .map_err(to_py)?
                .with_jacobian(source(jacobian)),
        );
        Ok(Self {
            problem: p.clone(),
            rw: p,
        })
    }

    /// The label, `RC05`.
    #[getter]
    fn label(&self) -> String {
        self.rw.info().label()
    }

    /// The guidelines' name of the problem.
    #[getter]
    fn name(&self) -> &'static str {
        self.rw.info().name
    }

    /// The competition's budget `MaxFEs` for this problem's dimension.
    #[getter]
    fn max_fes(&self) -> usize {
        self.rw.info().max_fes()
    }

    /// The best-known feasible objective value (the guidelines' Table 4).
    #[getter]
    fn best_known(&self) -> f64 {
        self.rw.info().best_known
    }

    fn __repr__(&self) -> String {
        format!(
            "Cec2020Rw({}: {})",
            self.rw.info().label(),
            self.rw.info().name
        )
    }
}

problem_methods!(PyCec2020);

/// The native problem behind a Python object, if it is one of ours.
pub fn native(obj: &Bound<'_, PyAny>) -> Option<Native> {
    if let Ok(p) = obj.cast::<PyCec2017>() {
        return Some(p.get().problem.clone());
    }
    if let Ok(p) = obj.cast::<PyBbob>() {
        return Some(p.get().problem.clone());
    }
    if let Ok(p) = obj.cast::<PyCec2020>() {
        return Some(p.get().problem.clone());
    }
    None
}
