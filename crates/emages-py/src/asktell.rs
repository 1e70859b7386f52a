//! The strategy driven by its user: `ask()` returns the points the strategy wants
//! evaluated, `tell()` gives their values. The strategy runs in a thread of its own and
//! waits at every evaluation it needs — the population, and for the repairing variants
//! the repair's Jacobian probes (constraints only) and the repaired points — so that
//! every variant can be driven from outside with the trajectory of a normal run.

use crate::declared::{answered_in_batches, Declared};
use crate::error::to_py;
use crate::strategy::{configuration, result_dict};
use constraint_handling::ProblemError;
use ma_es::driver;
use ma_es::noise::RngNoise;
use ma_es::restarts::RestartRecord;
use ma_es::{MaEs, MaEsError, RunResult};
use ndarray::{Array2, ArrayView2, ArrayViewMut1, ArrayViewMut2, ShapeBuilder};
use numpy::{IntoPyArray, PyArray2};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// What the strategy's thread sends.
enum Message {
    /// Points to evaluate (as columns), and whether only the constraints are wanted.
    Ask(Array2<f64>, bool),
    /// The run ended.
    Done(Result<(RunResult, Vec<RestartRecord>), MaEsError>),
}

/// The values of the asked points: `f` (NaN when only constraints were asked for) and
/// the constraints, one column per point.
struct Reply(Vec<f64>, Array2<f64>);

/// The problem the strategy's thread sees: every evaluation becomes a question.
struct Channel {
    declared: Declared,
    ask: Sender<Message>,
    reply: Mutex<Receiver<Reply>>,
    f_evaluations: Arc<AtomicUsize>,
    g_evaluations: Arc<AtomicUsize>,
}

impl Channel {
    /// Sends the points to the session's user and waits for their values.
    fn answer(
        &self,
        points: ArrayView2<'_, f64>,
        mut objectives: ArrayViewMut1<'_, f64>,
        mut constraints: ArrayViewMut2<'_, f64>,
        constraints_only: bool,
    ) -> Result<(), ProblemError> {
        let stopped = || ProblemError::Evaluation("the ask-and-tell session was closed".into());
        let k = points.ncols();
        let mut cols = Array2::zeros((points.nrows(), k).f());
        cols.assign(&points);
        self.ask
            .send(Message::Ask(cols, constraints_only))
            .map_err(|_| stopped())?;
        let Reply(f, c) = self
            .reply
            .lock()
            .map_err(|_| stopped())?
            .recv()
            .map_err(|_| stopped())?;
        objectives.iter_mut().zip(&f).for_each(|(d, s)| *d = *s);
        constraints.assign(&c);
        if !constraints_only {
            self.f_evaluations.fetch_add(k, Ordering::Relaxed);
        }
        if self.declared.constrained() {
            self.g_evaluations.fetch_add(k, Ordering::Relaxed);
        }
        Ok(())
    }
}

answered_in_batches!(Channel);

struct State {
    /// Taken out while waiting for the strategy (the wait releases the GIL).
    asks: Option<Receiver<Message>>,
    replies: Option<Sender<Reply>>,
    /// The last question, not answered yet: (points as columns, constraints only).
    pending: Option<(Array2<f64>, bool)>,
    result: Option<Result<(RunResult, Vec<RestartRecord>), String>>,
    worker: Option<JoinHandle<()>>,
}

/// The compiled half of `emages.AskTell` (see its Python docstring).
#[pyclass(name = "_AskTell", module = "emages")]
pub struct PyAskTell {
    state: Mutex<State>,
    n: usize,
    l: usize,
    m: usize,
    f_evaluations: Arc<AtomicUsize>,
    g_evaluations: Arc<AtomicUsize>,
}

#[pymethods]
impl PyAskTell {
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        lower: Vec<f64>,
        upper: Vec<f64>,
        n_ineq: usize,
        n_eq: usize,
        margin: f64,
        variant: &str,
        config_json: &str,
        seed: u64,
    ) -> PyResult<Self> {
        let (spec, config) = configuration(variant, config_json)?;
        let (ask, asks) = channel();
        let (replies, reply) = channel();
        let f_evaluations = Arc::new(AtomicUsize::new(0));
        let g_evaluations = Arc::new(AtomicUsize::new(0));
        let n = lower.len();
        let problem = Channel {
            declared: Declared {
                lower,
                upper,
                l: n_ineq,
                m: n_eq,
                margin,
            },
            ask: ask.clone(),
            reply: Mutex::new(reply),
            f_evaluations: f_evaluations.clone(),
            g_evaluations: g_evaluations.clone(),
        };
        // Checked here, so that a bad configuration is an error of the constructor.
        // (The first run of a restart sequence is that strategy.)
        let first = spec.first_run();
        MaEs::with_spec(&problem, &config, &first, seed).map_err(to_py)?;
        let worker = std::thread::Builder::new()
            .name("emages-ask-tell".into())
            .spawn(move || {
                let mut noise = RngNoise::seed_from_u64(seed);
                let result = driver::run(&problem, &config, &spec, seed, &mut noise);
                let _ = ask.send(Message::Done(result));
            })
            .map_err(|e| {
                PyRuntimeError::new_err(format!("cannot start the strategy's thread: {e}"))
            })?;
        Ok(Self {
            state: Mutex::new(State {
                asks: Some(asks),
                replies: Some(replies),
                pending: None,
                result: None,
                worker: Some(worker),
            }),
            n,
            l: n_ineq,
            m: n_eq,
            f_evaluations,
            g_evaluations,
        })
    }

    /// The next question: `(points, constraints_only)` with the points as the rows of a
    /// `(k, N)` array, or `None` when the run has ended. Asking again before telling
    /// returns the same question.
    fn ask<'py>(&self, py: Python<'py>) -> PyResult<Option<(Bound<'py, PyArray2<f64>>, bool)>> {
        let mut state = self.lock()?;
        if state.result.is_some() {
            return Ok(None);
        }
        if state.pending.is_none() {
            let asks = state
                .asks
                .take()
                .ok_or_else(|| PyRuntimeError::new_err("ask() is already waiting"))?;
            let (asks, message) = py.detach(move || {
                let message = asks.recv();
                (asks, message)
            });
            state.asks = Some(asks);
            match message {
                Ok(Message::Ask(points, only)) => state.pending = Some((points, only)),
                Ok(Message::Done(result)) => {
                    state.result = Some(result.map_err(|e| e.to_string()));
                    state.replies = None;
                    if let Some(w) = state.worker.take() {
                        let _ = w.join();
                    }
                    return Ok(None);
                }
                Err(_) => {
                    return Err(PyRuntimeError::new_err(
                        "the strategy's thread ended unexpectedly",
                    ))
                }
            }
        }
        let (points, only) = state.pending.as_ref().expect("a pending question");
        let rows = points.t().as_standard_layout().into_owned();
        Ok(Some((rows.into_pyarray(py), *only)))
    }

    /// The answer to the pending question: `f` of shape `(k,)` (ignored, may be
    /// `None`, when only the constraints were asked for), `g` of shape `(k, l)`, `h` of
    /// shape `(k, m)`.
    #[pyo3(signature = (f, g=None, h=None))]
    fn tell(
        &self,
        f: Option<&Bound<'_, PyAny>>,
        g: Option<&Bound<'_, PyAny>>,
        h: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let mut state = self.lock()?;
        let Some((points, only)) = state.pending.as_ref() else {
            return Err(PyValueError::new_err(
                "tell() without a question: call ask() first",
            ));
        };
        let k = points.ncols();
        let objectives = if *only {
            vec![f64::NAN; k]
        } else {
            let f = f.ok_or_else(|| PyValueError::new_err("tell(): f is missing"))?;
            values(f, &[k], "f")?
        };
        let mut c = Array2::zeros((self.l + self.m, k).f());
        for (rows, count, what, value) in [
            (0..self.l, self.l, "g", g),
            (self.l..self.l + self.m, self.m, "h", h),
        ] {
            if count == 0 {
                continue;
            }
            let value = value.ok_or_else(|| {
                PyValueError::new_err(format!("tell(): {what} is missing ({count} per point)"))
            })?;
            let v = values(value, &[k, count], what)?;
            for j in 0..k {
                for (r, row) in rows.clone().enumerate() {
                    c[[row, j]] = v[j * count + r];
                }
            }
        }
        let replies = state
            .replies
            .as_ref()
            .ok_or_else(|| PyRuntimeError::new_err("the run has ended"))?;
        replies
            .send(Reply(objectives, c))
            .map_err(|_| PyRuntimeError::new_err("the strategy's thread ended unexpectedly"))?;
        state.pending = None;
        Ok(())
    }

    /// The result once `ask()` has returned `None` (as `minimize`'s).
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let state = self.lock()?;
        match &state.result {
            None => Err(PyValueError::new_err(
                "the run has not ended: ask() and tell() until ask() returns None",
            )),
            Some(Err(e)) => Err(PyRuntimeError::new_err(e.clone())),
            Some(Ok((r, runs))) => result_dict(
                py,
                r.clone(),
                runs,
                self.l,
                Some((
                    self.f_evaluations.load(Ordering::Relaxed),
                    self.g_evaluations.load(Ordering::Relaxed),
                )),
            ),
        }
    }

    /// The dimension.
    #[getter]
    fn dim(&self) -> usize {
        self.n
    }
}

impl PyAskTell {
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, State>> {
        self.state
            .lock()
            .map_err(|_| PyRuntimeError::new_err("the ask-and-tell state is poisoned"))
    }
}

impl Drop for PyAskTell {
    /// Closing the reply channel ends the strategy's thread at its next question.
    fn drop(&mut self) {
        if let Ok(mut state) = self.state.lock() {
            state.replies = None;
            state.pending = None;
            // Drain: the thread's next send fails once the receiver is gone too.
            if let Some(w) = state.worker.take() {
                drop(state);
                let _ = w.join();
            }
        }
    }
}

/// A float array of the given shape (a `(k,)` array also for `(k, 1)`), flattened.
fn values(obj: &Bound<'_, PyAny>, shape: &[usize], what: &str) -> PyResult<Vec<f64>> {
    let (arr, got) = crate::convert::float_array_with_shape(obj)?;
    let ok = got == shape || (shape.len() == 2 && shape[1] == 1 && got == [shape[0]]);
    if !ok {
        return Err(PyValueError::new_err(format!(
            "tell(): {what} has shape {got:?}, expected {shape:?} (one row per asked point)"
        )));
    }
    arr.call_method0("ravel")?.extract()
}
