"""What a run returns: :class:`OptimizeResult`, its ``message`` sentence and ``status``
(the one termination table, in Rust)."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from ._core import _emages


class OptimizeResult(dict):
    """The result of :func:`minimize`, a dict with attribute access (as scipy's).

    Attributes
    ----------
    x : ndarray
        The best solution: the best feasible one if any was found, else the one with
        the least mean violation (``feasible`` says which).
    fun : float
        ``f(x)``.
    violation : float
        The mean violation ν̄ of ``x`` (0 when feasible).
    feasible : bool
        Whether ``x`` satisfies every constraint.
    success : bool
        Whether the run converged (or reached its ``target``) on a feasible point: a run
        ended by its budget, ``maxiter``, a callback or for want of progress did not
        succeed, whatever its best point (scipy's meaning).
    g, h : ndarray
        The constraint values at ``x``.
    nfev, ngev : int
        Points the objective and the constraints were evaluated at (apart: the
        repair's Jacobian asks for the constraints alone).
    evaluations : int
        Evaluations charged to the budget.
    nit : int
        Generations.
    found_at : int
        The evaluation at which ``x`` was found.
    status : int
        Why the run stopped, as a number: 0 converged (``message`` ``tol_fun``,
        ``tol_x``, ``stagnation``, ``target``, ``confirmed``, ``converged``), 1 at a limit
        (``budget``, ``generation limit``), 2 stopped by the caller (``stopped``: a
        callback's ``StopIteration``, :meth:`AskTell.terminate`), 3 no feasible point
        (``infeasible``: the run converged on an infeasible point), 4 stalled, 5 a value
        not finite; −1 still running.
    maxcv : float
        The largest constraint violation at ``x``: ``max(0, max g, max |h|)`` (scipy's
        name; without the equality margin, so a feasible ``x`` may have ``maxcv`` up to
        ``equality_margin``).
    message : str
        Why the run stopped, as a sentence (scipy's convention).
    termination : str
        Why the run stopped, as a code word: ``tol_fun`` (the offspring's ``f`` and ``violation``
        and the last generations' lowest lay within ``tol_fun``), ``tol_x`` (every
        coordinate's step below ``tol_x``), ``stagnation`` (no improvement for the
        stagnation window), ``target`` (a feasible ``fun <= target``), ``confirmed``
        (with restarts: a restart converged to the best-so-far again), ``budget``,
        ``generation limit`` or ``stopped``.
    seed : int
        The seed of the run (pass it again to repeat the run bit for bit).
    history : dict of ndarray
        Per generation (``history=True``): ``generation``, ``evaluations``, the best-so-far
        ``fun`` and ``violation``, the step size ``sigma`` and the ε level ``epsilon``.
        With restarts, the runs follow each other (the best-so-far over all of them).
        The portfolio's: per iteration (a step of its local phase or a generation of an
        ES round), ``sigma`` the phase's step size, ``epsilon`` NaN in the local phase,
        and ``local`` (bool) which phase it was.
    restarts : list of dict
        With ``restarts=ipop`` or ``bipop`` in the variant: one dict per run, in order,
        with ``start`` (evaluations before it), ``lambda``, ``sigma0``, ``large`` (the
        large-population regime), ``polish`` (it polished the best-so-far), ``t_max``, ``generations``, ``evaluations``, its
        best ``fun`` and ``violation``, and ``termination`` (``stopped``: it stalled; or the convergence criterion that ended it).
        Empty for one run.
    """

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError as e:
            raise AttributeError(name) from e

    def __setattr__(self, name: str, value: Any) -> None:
        self[name] = value

    def __repr__(self) -> str:
        keys = ("x", "fun", "violation", "maxcv", "feasible", "nfev", "ngev", "nit", "status", "message", "seed")
        return "OptimizeResult(" + ", ".join(f"{k}={self.get(k)!r}" for k in keys) + ")"


#: ``message`` of each ``termination``: a sentence, as scipy's messages are (the one
#: table in Rust, ``emages_solver::Termination``).
_MESSAGES = {name: message for name, _, message in (*_emages.TERMINATIONS, _emages.IN_PROGRESS)}


class _Message(str):
    """``message``: a sentence. Compared with one of the old code words (``"budget"``,
    ``"tol_fun"``, …: now ``termination``) it still matches, with a
    ``DeprecationWarning`` (for one release)."""

    __slots__ = ("termination",)

    def __new__(cls, termination: str, portfolio: bool = False):
        obj = super().__new__(cls, _MESSAGES.get(termination, termination))
        obj.termination = termination
        return obj

    def __eq__(self, other):
        if isinstance(other, str) and other == self.termination and other != str(self):
            warnings.warn(
                f"comparing OptimizeResult.message with the code word {other!r} is deprecated: "
                f"message is a sentence now; compare termination instead",
                DeprecationWarning, stacklevel=2)
            return True
        return str.__eq__(self, other)

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = str.__hash__

    def __reduce__(self):
        return (_Message, (self.termination,))


def _result_class():
    """The class of the results: :class:`OptimizeResult`, and scipy's
    ``scipy.optimize.OptimizeResult`` too when scipy is importable (imported at the first
    result, not with emages)."""
    global _RESULT
    if _RESULT is None:
        try:
            from scipy.optimize import OptimizeResult as _Scipy
        except ImportError:  # pragma: no cover - scipy is optional
            _RESULT = OptimizeResult
        else:
            _RESULT = type("OptimizeResult", (OptimizeResult, _Scipy), {
                "__module__": "emages", "__qualname__": "_ScipyOptimizeResult",
                "__doc__": OptimizeResult.__doc__})
    return _RESULT


_RESULT = None


def _finished(raw: dict, seed: int) -> OptimizeResult:
    """The result dict of a run as an :class:`OptimizeResult`. Its end — ``termination``,
    ``status``, ``success``, ``message`` — comes from Rust's one rule of a run's end
    (``emages_solver::Outcome``)."""
    res = _result_class()(raw)
    res["seed"] = seed
    res["message"] = _Message(res["termination"])
    res["maxcv"] = _maxcv(res.get("g"), res.get("h"))
    return res


def _maxcv(g, h) -> float:
    """``max(0, max g, max |h|)``; NaN if a value is NaN."""
    g = np.empty(0) if g is None else np.asarray(g, dtype=float).ravel()
    h = np.empty(0) if h is None else np.asarray(h, dtype=float).ravel()
    values = np.concatenate([np.maximum(g, 0.0), np.abs(h)])
    if np.isnan(values).any():
        return math.nan
    return float(values.max(initial=0.0))


# Pickles and reprs name the package, which exports the class.
OptimizeResult.__module__ = "emages"
