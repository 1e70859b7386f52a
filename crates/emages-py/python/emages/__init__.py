"""εMAg-ES and its variants, the CEC2017 and bbob-constrained suites, and the statistics
to compare constrained optimizers — with the Rust core of the `emages` workspace.

Sign conventions, everywhere: an inequality constraint is satisfied when ``g(x) <= 0``;
an equality constraint when ``|h(x)| <= equality_margin`` (1e-4 by default, the CEC's
δ). The mean violation ν̄ is the mean over all constraints of ``max(g, 0)`` and of
``|h|`` where it exceeds the margin; a point is feasible when ν̄ = 0.

    >>> import emages
    >>> res = emages.minimize(lambda x: x @ x, x0=[2.0, 2.0], sigma0=0.5,
    ...                       ineq=lambda x: [1 - x[0] - x[1]], budget=20_000, seed=1)
    >>> res.feasible, round(res.fun, 6)
    (True, 0.5)
"""

from __future__ import annotations

import inspect
import math
import numbers
from collections.abc import Mapping
import os
import secrets
import warnings
from typing import Any, Callable, NamedTuple, Optional, Sequence

import numpy as np


def _load_core():
    """Imports the compiled core with OpenBLAS's AVX2/FMA kernels (``Haswell``: the
    kernel of the project's committed results, and faster than the pre-FMA fallback an
    OpenBLAS older than the CPU picks) on CPUs that have them, unless
    ``OPENBLAS_CORETYPE`` is set. OpenBLAS reads it when it loads, so it is set only
    while the core loads, and put back afterwards: a numpy imported later is not
    affected."""
    previous = os.environ.get("OPENBLAS_CORETYPE")
    if previous is None and _has_avx2_fma():
        os.environ["OPENBLAS_CORETYPE"] = "Haswell"
    try:
        from . import _emages
    finally:
        if previous is None:
            os.environ.pop("OPENBLAS_CORETYPE", None)
    return _emages


def _has_avx2_fma() -> bool:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    return {"avx2", "fma"} <= flags
    except OSError:
        pass
    return False


_emages = _load_core()

Cec2017 = _emages.Cec2017
BbobConstrained = _emages.BbobConstrained
Cec2020Rw = _emages.Cec2020Rw
run_seed = _emages.run_seed
kernel = _emages.kernel
__version__ = _emages.__version__

__all__ = [
    "minimize",
    "OptimizeResult",
    "AskTell",
    "Cec2017",
    "BbobConstrained",
    "Cec2020Rw",
    "signrank",
    "ranksum",
    "TestResult",
    "cec_statistics",
    "cec_compare",
    "run_seed",
    "kernel",
    "VARIANTS",
    "STRATEGIES",
    "DEFAULT_VARIANT",
    "NO_CONVERGENCE",
    "PORTFOLIO",
    "Options",
    "PortfolioOptions",
]

#: The paper's seven variants (any of them, or ``PRESET:KEY=VALUE…`` with components
#: changed, e.g. ``"eps-mag-es:step-size=median-success"``, is a ``variant``).
VARIANTS = tuple(_emages.PRESETS)

#: Strategies beyond the paper's seven, designed from its components (issue 34); a name
#: is a ``variant`` too, also with components changed (``"eps-mag-es-r:polish=off"``).
#: εMAg-ES-R: BIPOP restarts, ε ending at 10 % of each run, the relative range stall
#: and the last half of the budget polishing the best (docs/strategy-design.md, entry 13).
#: εMAg-ES-RLM: εMAg-ES-R with the Levenberg–Marquardt repair every generation, for
#: problems that give their constraint Jacobian (``jac`` of a ``NonlinearConstraint``,
#: linear constraints); by differences it loses to εMAg-ES-R (entries 19 and 21).
STRATEGIES = tuple(_emages.STRATEGIES)


#: The ``variant`` of :func:`minimize` for issue 55's portfolio (``ma_es::portfolio``),
#: the default: the SQP local phase on forward-difference models and εMAg-ES-R in
#: rounds, the local phase's share of each round following progress; it stops once five
#: runs of the local phase in a row end at the best point (``options={'confirmations':
#: 0}``: to the budget) or at ``options={'target': t}``. For expensive smooth problems,
#: where evaluations count: Rosen–Suzuki is solved within ~50 evaluations and the run
#: stops after ~350. The constraints' ``jac`` goes to its ES rounds' repair; equalities
#: are held to ``equality_margin = 1e-8`` unless it is given.
PORTFOLIO = "portfolio"

#: The ``variant`` of :func:`minimize` and :class:`AskTell` when none is given: the
#: portfolio (issue 55, docs/strategy-design.md §27–31), which reaches in hundreds of
#: evaluations what εMAg-ES-R, the default before, reached in thousands, and leads it on
#: bbob-constrained and CEC2020; it loses CEC2017 at N = 50 at the CEC's full budget,
#: where a long ES run pays. The ES variants by name: ``"eps-mag-es-r"``, the paper's
#: ``"eps-mag-es"``.
DEFAULT_VARIANT = PORTFOLIO

#: ``options`` that switch every convergence criterion off: the run goes to its budget
#: (or generation limit), as the suites' protocols run (``ma_es::control``). Merge it
#: with other options: ``options={**emages.NO_CONVERGENCE, "t_max": 100}``.
NO_CONVERGENCE = {"tol_fun": 0.0, "tol_x": 0.0, "stagnation": 0}

#: A run's settings, typed field by field: ``Options(budget=…, tol_fun=…, lambda_=…)``
#: (``options=`` of :func:`minimize` and :class:`AskTell` takes one, or a dict of the
#: same keys). Each value is checked as it is given, the error naming the key;
#: ``Options.keys()`` lists the keys, ``opts.replace(**fields)`` gives a changed copy,
#: ``opts.to_dict()`` every value. Rust's ``ma_es::Options`` without the variant and
#: the seed: ``Config``'s fields, ``Limits``' (``max_generations`` — scipy's
#: ``maxiter`` — for the whole run), ``Convergence``'s, and ``disp``.
Options = _emages.Options

#: The portfolio's settings (``variant=PORTFOLIO``), typed as :class:`Options`:
#: ``budget``, ``disp``, ``confirmations``, ``es_budget_per_dim``, ``initial_share``,
#: ``max_share``, ``es`` (the ES of each round) and the local phase's ``sqp_…``.
PortfolioOptions = _emages.PortfolioOptions


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
        ``feasible`` and a finite ``fun`` (errors raise instead of returning).
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
        ``tol_x``, ``stagnation``, ``target``, ``confirmed``), 1 at a limit (``budget``,
        ``generation limit``), 2 stopped by the caller (``stopped``: a callback's
        ``StopIteration``, :meth:`AskTell.terminate`).
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


#: ``message`` of each ``termination``: a sentence, as scipy's messages are.
_MESSAGES = {
    "tol_fun": "Converged: the objective and the violation changed less than tol_fun.",
    "tol_x": "Converged: every coordinate's step fell below tol_x.",
    "stagnation": "Converged: no improvement within the stagnation window.",
    "target": "Stopped at the target: a feasible point with fun <= target.",
    "confirmed": "Converged: the best point was found again by a restart.",
    "budget": "The evaluation budget is spent.",
    "generation limit": "The generation limit (maxiter) is reached.",
    "stopped": "Stopped by the caller (a callback's StopIteration or AskTell.terminate).",
}

#: The portfolio's own sentences, where its rule differs from the ES's.
_PORTFOLIO_MESSAGES = {
    "confirmed": "Converged: the local phase's last runs ended at the best point (confirmations).",
}


class _Message(str):
    """``message``: a sentence. Compared with one of the old code words (``"budget"``,
    ``"tol_fun"``, …: now ``termination``) it still matches, with a
    ``DeprecationWarning`` (for one release)."""

    __slots__ = ("termination", "portfolio")

    def __new__(cls, termination: str, portfolio: bool = False):
        text = (portfolio and _PORTFOLIO_MESSAGES.get(termination)) or _MESSAGES.get(termination, termination)
        obj = super().__new__(cls, text)
        obj.termination = termination
        obj.portfolio = portfolio
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
        return (_Message, (self.termination, self.portfolio))


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
                "__module__": __name__, "__qualname__": "_ScipyOptimizeResult",
                "__doc__": OptimizeResult.__doc__})
    return _RESULT


_RESULT = None


def __getattr__(name: str):
    # Unpickling a result made with scipy's base.
    if name == "_ScipyOptimizeResult":
        return _result_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _box(bounds, n: int):
    """Bounds as arrays: ``None`` (unbounded), a sequence of ``n`` ``(low, high)``
    pairs (``None`` for an open side), or an object with ``lb`` and ``ub`` (scipy's
    ``Bounds``)."""
    if bounds is None:
        return np.full(n, -np.inf), np.full(n, np.inf)
    if hasattr(bounds, "lb") and hasattr(bounds, "ub"):
        lb = np.broadcast_to(np.asarray(bounds.lb, dtype=float), (n,)).copy()
        ub = np.broadcast_to(np.asarray(bounds.ub, dtype=float), (n,)).copy()
    else:
        pairs = list(bounds)
        if len(pairs) != n or any(len(p) != 2 for p in pairs):
            raise ValueError(f"bounds must be {n} (low, high) pairs, one per variable")
        lb = np.array([-np.inf if p[0] is None else float(p[0]) for p in pairs])
        ub = np.array([np.inf if p[1] is None else float(p[1]) for p in pairs])
    for i in range(n):
        if np.isnan(lb[i]) or np.isnan(ub[i]):
            raise ValueError(f"bounds of variable {i} are NaN: ({lb[i]}, {ub[i]})")
        if lb[i] > ub[i]:
            raise ValueError(f"bounds of variable {i}: low {lb[i]} > high {ub[i]} (low <= high for every variable)")
    return lb, ub


def _budget(budget) -> int:
    """A budget as a positive number of evaluations, or a clear error."""
    if isinstance(budget, bool) or not isinstance(budget, (int, np.integer)) or budget <= 0:
        raise ValueError(f"budget must be a positive whole number of evaluations, not {budget!r}")
    return int(budget)


def _inside(x0, lb, ub) -> None:
    """x0 inside the box, or a clear error naming the variable."""
    for i, (x, l, u) in enumerate(zip(x0, lb, ub)):
        if not l <= x <= u:
            raise ValueError(f"x0[{i}] = {x} is outside its bounds [{l}, {u}]: start inside the box")


def _count(values, vectorized: bool, what: str) -> int:
    """How many constraints a probe call's output holds."""
    a = np.asarray(values, dtype=float)
    if vectorized:
        if a.ndim == 2 and a.shape[0] == 1:
            return a.shape[1]
        if a.ndim == 1 and a.shape[0] == 1:
            return 1
        if a.size == 0:
            return 0
        raise ValueError(f"{what}(X) for one point X of shape (1, N) returned shape {a.shape}: expected (1, count)")
    if a.ndim > 1:
        raise ValueError(f"{what}(x) returned shape {a.shape}: expected a 1-d array")
    return int(a.size)


def _callables(fun, ineq, eq, constraints, vectorized, probe):
    """The user's callables and scipy constraints as ``(ineq, eq, joint, l, m, jac)``:
    ``constraints`` merged with ``ineq``/``eq`` (:class:`_Constraints`), ``joint`` when
    ``fun`` returns ``(f, g[, h])`` itself, the constraint counts from one probe call at
    ``probe`` (not charged to the budget), and ``jac`` when every constraint brings its
    Jacobian."""
    arg = probe[None, :] if vectorized else probe
    jac = None
    if _given(constraints):
        if vectorized:
            raise ValueError("constraints= takes one point at a time: with vectorized=True give ineq/eq")
        merged = _Constraints(constraints, ineq, eq, probe)
        ineq = merged.ineq if merged.l or ineq is not None else None
        eq = merged.eq if merged.m or eq is not None else None
        if ineq is None and eq is None:
            ineq = merged.ineq  # none at all: an empty g keeps fun a plain objective
        jac = merged.jac if merged.exact and merged.l + merged.m > 0 else None
        if jac is not None:
            # The Jacobians' shapes, checked once at the probe (not charged): a run that
            # needs no Jacobian early (the portfolio's local phase) still refuses them.
            merged.check_shapes(probe)
    joint = ineq is None and eq is None
    if joint:
        out = fun(arg)
        if isinstance(out, tuple):
            if len(out) not in (2, 3):
                raise ValueError("fun must return f, (f, g) or (f, g, h)")
            l = _count(out[1], vectorized, "g")
            m = _count(out[2], vectorized, "h") if len(out) == 3 else 0
        else:
            joint, l, m = False, 0, 0
    else:
        l = _count(ineq(arg), vectorized, "ineq") if ineq is not None else 0
        m = _count(eq(arg), vectorized, "eq") if eq is not None else 0
    return ineq, eq, joint, l, m, jac


def _given(constraints) -> bool:
    """Whether ``constraints=`` holds any constraint."""
    return constraints is not None and not (isinstance(constraints, (list, tuple)) and len(constraints) == 0)


class _Constraints:
    """scipy's constraints (``NonlinearConstraint``, ``LinearConstraint``, the old dicts)
    with the user's ``ineq``/``eq``, as this package's ``g(x) <= 0`` and ``h(x) = 0``.

    scipy's ``lb <= c(x) <= ub`` becomes, per component, ``h = c - lb`` where
    ``lb == ub``, else ``g = lb - c`` (finite ``lb``) and ``g = c - ub`` (finite ``ub``);
    a dict ``{'type': 'ineq', 'fun': f}`` means ``f(x) >= 0`` (``g = -f``), ``'eq'``
    ``f(x) = 0``. Rows: the user's ``ineq`` first, then the constraints' ``g`` in their
    order; the user's ``eq``, then their ``h``. ``jac`` is the Jacobian of all of them
    when every one has its own (a callable ``jac``, or a linear constraint) and no
    ``ineq``/``eq`` callable is given.
    """

    def __init__(self, constraints, ineq, eq, probe):
        if isinstance(constraints, dict) or not isinstance(constraints, (list, tuple)):
            constraints = [constraints]
        n = probe.size
        self.user_ineq, self.user_eq = ineq, eq
        self.parts = []
        exact = ineq is None and eq is None
        for c in constraints:
            if isinstance(c, dict):
                kind, fun = c.get("type"), c.get("fun")
                if kind not in ("ineq", "eq") or not callable(fun):
                    raise ValueError("a constraint dict needs 'type' ('ineq': fun(x) >= 0, or 'eq': fun(x) = 0) and a callable 'fun'")
                args = tuple(c.get("args", ()))
                jac = c.get("jac") if callable(c.get("jac")) else None
                size = np.atleast_1d(np.asarray(fun(probe, *args), dtype=float)).size
                lb = np.zeros(size)
                ub = np.full(size, np.inf) if kind == "ineq" else np.zeros(size)
                part = ("fun", fun, jac, args)
            elif hasattr(c, "A") and hasattr(c, "lb") and hasattr(c, "ub"):
                a = c.A.toarray() if hasattr(c.A, "toarray") else c.A
                a = np.atleast_2d(np.asarray(a, dtype=float))
                if a.shape[1] != n:
                    raise ValueError(f"LinearConstraint A has shape {a.shape}: expected (count, {n})")
                size = a.shape[0]
                part = ("linear", a, None, ())
            elif hasattr(c, "fun") and hasattr(c, "lb") and hasattr(c, "ub"):
                jac = c.jac if callable(c.jac) else None
                size = np.atleast_1d(np.asarray(c.fun(probe), dtype=float)).size
                part = ("fun", c.fun, jac, ())
            else:
                raise TypeError(f"constraints: {c!r} is neither a scipy NonlinearConstraint or LinearConstraint nor a dict")
            if not isinstance(c, dict):
                for side in ("lb", "ub"):
                    given = np.asarray(getattr(c, side), dtype=float)
                    if given.size not in (1, size):
                        raise ValueError(
                            f"constraint {len(self.parts)}: {side} has {given.size} entries, but the "
                            f"constraint has {size} component(s) (one bound per component, or one for all)")
                lb = np.broadcast_to(np.asarray(c.lb, dtype=float), (size,)).copy()
                ub = np.broadcast_to(np.asarray(c.ub, dtype=float), (size,)).copy()
            if np.isnan(lb).any() or np.isnan(ub).any() or (lb > ub).any():
                raise ValueError(f"constraint {len(self.parts)}: its bounds must not be NaN, and lb <= ub")
            is_eq = lb == ub
            low = np.isfinite(lb) & ~is_eq
            high = np.isfinite(ub) & ~is_eq
            self.parts.append((part, lb, ub, low, high, is_eq))
            exact = exact and (part[0] == "linear" or part[2] is not None)
        self.l = int(sum(p[3].sum() + p[4].sum() for p in self.parts))
        self.m = int(sum(p[5].sum() for p in self.parts))
        self.exact = exact

    @staticmethod
    def _value(part, x):
        kind, fun, _, args = part
        if kind == "linear":
            return fun @ x
        return np.atleast_1d(np.asarray(fun(x, *args), dtype=float))

    @staticmethod
    def _jacobian(part, x, size, n, index=0, finite=True):
        kind, fun, jac, args = part
        if kind == "linear":
            return fun
        j = jac(x, *args)
        j = np.asarray(j.toarray() if hasattr(j, "toarray") else j, dtype=float)
        if j.shape != (size, n) and not (size == 1 and j.shape == (n,)):
            raise ValueError(
                f"constraint {index}: jac(x) returned shape {j.shape}, expected ({size}, {n}): "
                f"one row per component of the constraint, one column per variable")
        if finite and not np.isfinite(j).all():
            raise ValueError(f"constraint {index}: jac(x) is not finite at x = {x!r}")
        return j.reshape(size, n)

    def ineq(self, x):
        rows = [np.atleast_1d(np.asarray(self.user_ineq(x), dtype=float))] if self.user_ineq is not None else []
        for part, lb, ub, low, high, _ in self.parts:
            c = self._value(part, x)
            rows += [(lb - c)[low], (c - ub)[high]]
        return np.concatenate(rows) if rows else np.zeros(0)

    def eq(self, x):
        rows = [np.atleast_1d(np.asarray(self.user_eq(x), dtype=float))] if self.user_eq is not None else []
        for part, lb, _, _, _, is_eq in self.parts:
            rows.append((self._value(part, x) - lb)[is_eq])
        return np.concatenate(rows) if rows else np.zeros(0)

    def check_shapes(self, x):
        """Each constraint's ``jac(x)`` has its shape (a value that is not finite at
        this one point is left to the run, which may never evaluate it there)."""
        for index, (part, lb, *_) in enumerate(self.parts):
            self._jacobian(part, x, lb.size, x.size, index, finite=False)

    def jac(self, x):
        """``(l + m, N)``: rows g then h."""
        n = x.size
        g, h = [], []
        for index, (part, lb, _, low, high, is_eq) in enumerate(self.parts):
            j = self._jacobian(part, x, lb.size, n, index)
            g += [-j[low], j[high]]
            h.append(j[is_eq])
        return np.concatenate(g + h).reshape(self.l + self.m, n)


class _WithArgs:
    """``fun(x, *args)`` as ``fun(x)`` (scipy's ``args``), picklable for executors."""

    def __init__(self, fun, args):
        self.fun, self.args = fun, args

    def __call__(self, x):
        return self.fun(x, *self.args)


def _typed_options(options, budget, tol, cls=None):
    """``options`` (a dict of settings, a typed :class:`Options` or
    :class:`PortfolioOptions`, or ``None``) as the typed ``cls``, with scipy's spellings
    (``maxiter``, ``maxfev``) resolved by the class; ``budget`` sets the budget (it must
    agree with a ``maxfev`` given), ``tol`` sets ``tol_fun`` and ``tol_x`` unless they
    are given."""
    cls = Options if cls is None else cls
    if options is None:
        opts = cls()
    elif isinstance(options, cls):
        opts = options
    elif isinstance(options, PortfolioOptions):
        raise ValueError("options: a PortfolioOptions is not for this variant: give an emages.Options "
                         "or a dict, or variant=\"portfolio\"")
    elif isinstance(options, Options):
        raise ValueError("options: an Options is not for the portfolio (the default variant): give an "
                         "emages.PortfolioOptions or a dict, or an ES variant such as variant=\"eps-mag-es-r\"")
    elif isinstance(options, Mapping):
        if not all(isinstance(k, str) for k in options):
            raise ValueError(f"options: keys are strings, not {[k for k in options if not isinstance(k, str)]!r}")
        opts = cls(**options)
    else:
        raise ValueError(f"options must be a dict or an emages.{cls.__name__}, not {type(options).__name__}")
    if budget is not None:
        b = _budget(budget)
        if opts.is_given("budget") and opts.budget != b:
            raise ValueError(f"options: maxfev={opts.budget!r} and budget={budget!r} disagree: give one of them")
        opts = opts.replace(budget=b)
    if tol is not None:
        if isinstance(tol, bool) or not isinstance(tol, numbers.Real) or not (math.isfinite(tol) and tol >= 0):
            raise ValueError(f"tol must be a finite number >= 0, not {tol!r}")
        opts = opts.replace(**{k: float(tol) for k in ("tol_fun", "tol_x") if not opts.is_given(k)})
    return opts


def _scipy_callback(callback):
    """scipy's rule: a callback with a single parameter named ``intermediate_result``
    gets the :class:`OptimizeResult` of the best so far, any other gets ``xk`` (the best
    point, a copy)."""
    if callback is None:
        return None
    try:
        params = list(inspect.signature(callback).parameters)
    except (TypeError, ValueError):
        params = []
    if params == ["intermediate_result"]:
        return callback
    return lambda result: callback(np.array(result["x"], dtype=float))


def minimize(
    fun: Any,
    x0: Optional[Sequence[float]] = None,
    args: Any = (),
    *,
    sigma0: Optional[float] = None,
    ineq: Optional[Callable] = None,
    eq: Optional[Callable] = None,
    constraints: Any = (),
    bounds: Any = None,
    tol: Optional[float] = None,
    budget: Optional[int] = None,
    variant: str = DEFAULT_VARIANT,
    seed: Optional[int] = None,
    vectorized: bool = False,
    equality_margin: Optional[float] = None,
    options: Any = None,
    history: bool = True,
    executor: Any = None,
    callback: Optional[Callable] = None,
) -> OptimizeResult:
    """Minimises ``fun`` subject to ``ineq(x) <= 0``, ``eq(x) = 0`` and ``bounds`` with
    the portfolio (:data:`PORTFOLIO`, the default) or another ``variant`` (εMAg-ES-R:
    ``"eps-mag-es-r"``).

    Parameters
    ----------
    fun : callable or problem
        ``fun(x) -> float``; with ``vectorized=True``, ``fun(X) -> (k,)`` for the ``k``
        points in the rows of ``X`` (one call per population). Without ``ineq`` and
        ``eq``, ``fun`` may return ``(f, g)`` or ``(f, g, h)`` (values computed together,
        evaluated once). Or a problem of the suites (:class:`Cec2017`,
        :class:`BbobConstrained`, :class:`Cec2020Rw`): the run then stays in Rust.
    x0 : array_like, optional
        Where to start: the initial population is ``x0 + sigma0 z``, reflected into the
        box. Without it (finite ``bounds`` needed), the population is uniform in the box,
        as the reference algorithm starts.
    args : tuple, optional
        Extra arguments of ``fun``: ``fun(x, *args)`` (scipy's ``args``; the constraint
        callables take none). A number here is taken as ``sigma0``, as before this
        argument existed, with a ``DeprecationWarning``.
    sigma0 : float, optional
        The initial step size (default 1.0, the reference's); with :data:`PORTFOLIO`,
        that of its ES rounds (``options={'sigma0': …}`` says the same).
    ineq, eq : callable, optional
        ``g(x)`` (satisfied when ``<= 0``) and ``h(x)`` (satisfied when
        ``|h| <= equality_margin``), each returning one value per constraint (vectorised:
        shape ``(k, count)``). They are called once at the start to count the
        constraints (not charged to the budget).
    constraints : scipy constraint or dict, or a list of them, optional
        scipy's ``NonlinearConstraint`` (its ``jac`` used when it is a callable) and
        ``LinearConstraint`` — ``lb <= c(x) <= ub``, turned into ``g <= 0`` and
        ``h = 0`` (``lb == ub``) — and scipy's old dicts ``{'type': 'ineq', 'fun': f,
        'jac': …, 'args': …}``. **Mind the signs where the conventions meet:** a dict's
        ``'ineq'`` means ``f(x) >= 0`` (scipy's), while this function's ``ineq`` means
        ``g(x) <= 0``; ``-f`` is the same constraint for both. Beside ``ineq`` and
        ``eq`` (their rows first). When every constraint brings its Jacobian (a
        callable ``jac``, or a linear constraint) and there is no ``ineq``/``eq``
        callable, the repair takes the exact Jacobian, one evaluation each
        (``njev`` counts them); otherwise forward differences. Not with
        ``vectorized=True``; with ``executor`` the Jacobians are computed through it
        too, one point per task.
    bounds : sequence of (low, high) pairs, or scipy.optimize.Bounds, optional
        The box; out-of-box candidates are reflected into it. ``None`` for an open side.
    tol : float, optional
        scipy's tolerance: sets ``tol_fun`` and ``tol_x`` (unless ``options`` gives
        them); with :data:`PORTFOLIO`, its local phase's step tolerance
        ``sqp_step_tolerance`` (COBYLA's ``rhoend``-like).
    budget : int, optional
        Evaluations at most (default ``20000 * N``, the CEC's; ``options={'maxfev': …}``
        says the same); the run stops earlier once it has converged (``options``: the
        convergence criteria).
    variant : str
        :data:`DEFAULT_VARIANT` (:data:`PORTFOLIO`, below), ``"eps-mag-es-r"``
        (εMAg-ES-R: restarts and a polishing end; the default before issue 55), the
        paper's ``"eps-mag-es"`` or another of :data:`VARIANTS` and
        :data:`STRATEGIES`, or ``PRESET:KEY=VALUE…``, e.g.
        ``"eps-mag-es:restarts=bipop:population=log:eps-end=5%"`` (restarts, CMA-ES's
        λ = 4 + ⌊3 ln N⌋, ε ending at 5 % of the run). :data:`PORTFOLIO`
        (``"portfolio"``, the default): the SQP local phase and εMAg-ES-R in rounds, for
        expensive smooth problems (its ``options``, :class:`PortfolioOptions`:
        ``confirmations``, ``target``, ``es_budget_per_dim``, ``initial_share``,
        ``max_share``, ``sigma0``, ``sqp_…``; an ES's keys are refused with the variant
        they need).
    seed : int, optional
        The run's seed (default: drawn at random, reported in the result).
    vectorized : bool
        Whether the callables take the population at once.
    equality_margin : float, optional
        δ: an equality is satisfied when ``|h| <= δ`` (``feasible``, ``success`` and the
        run's order of points use it). Default ``1e-4`` (the CEC's) for the ES
        variants, ``1e-8`` for :data:`PORTFOLIO`.
    options : dict or Options, optional
        The run's settings: an :class:`Options`, or a dict of its keys (each value checked
        as it is given, the error naming the key). Any field of the strategy's configuration: ``lambda``, ``mu``, ``theta_p``,
        ``theta_r``, ``t_max``, ``sigma_max``, … (see ``ma_es::Config``); of the run's
        limits: ``maxiter`` (or ``max_generations``: the whole run's generations, over
        all its restarts), ``maxfev`` (the budget), ``checkpoints``; ``disp`` (``True``:
        a progress line every 100 generations, as pycma's; a number ``k``: every ``k``;
        lines for the generations 1–3 and the last too); and the convergence criteria
        (``ma_es::control``), on by default: ``tol_fun`` (default ``1e-11``), ``tol_x``
        (``1e-11``), ``stagnation`` (generations without improvement; default
        ``100 + ceil(100 N**1.5 / lambda)``), ``target`` (stop once a feasible
        ``fun <= target``; default none). A tolerance of 0 (``stagnation=0``) switches
        that criterion off; all four off run to the budget. Unknown keys are errors.
    history : bool
        Record the per-generation (the portfolio: per-iteration) history.
    executor : concurrent.futures.Executor, optional
        Evaluates every request of the strategy — each population, the repair's Jacobian
        probes, the repaired points — through ``executor.map``, one point per task
        (``ProcessPoolExecutor``, Dask's ``Client.get_executor()``, mpi4py's
        ``MPIPoolExecutor``, …); the values come back in order, so the same seed gives
        the same result as a serial run. The callables must be picklable for a process
        pool (functions defined at a module's top level, not lambdas).
    callback : callable, optional
        Called after every generation, by scipy's rule: ``callback(intermediate_result)``
        (a single parameter of that name) gets an :class:`OptimizeResult` of the best so
        far (``x``, ``fun``, ``violation``, ``feasible``, ``nit``, ``evaluations``); any
        other, ``callback(xk)``, the best point. Raising ``StopIteration`` in it ends
        the run cleanly (``termination`` is ``stopped``).

    Returns
    -------
    OptimizeResult

    Raises
    ------
    ValueError
        Bad input (shapes, NaN, bounds, options), with the reason.
    Exception
        Whatever a callable raises stops the run and is re-raised; Ctrl-C raises
        ``KeyboardInterrupt``.
    """
    if seed is None:
        seed = secrets.randbits(63)
    if isinstance(args, numbers.Real) and not isinstance(args, bool):
        warnings.warn("minimize(fun, x0, sigma0): pass sigma0 by keyword (sigma0=…); the third "
                      "positional argument is scipy's args now", DeprecationWarning, stacklevel=2)
        if sigma0 is not None:
            raise ValueError("sigma0 is given twice (third positional argument and keyword)")
        sigma0, args = args, ()
    if not isinstance(args, tuple):
        args = (args,)
    if args:
        if not callable(fun) or isinstance(fun, (Cec2017, BbobConstrained, Cec2020Rw)):
            raise ValueError("args are extra arguments of a callable fun; a suite problem takes none")
        fun = _WithArgs(fun, args)
    callback = _scipy_callback(callback)
    if variant == PORTFOLIO:
        return _minimize_portfolio(
            fun, x0, sigma0, ineq, eq, constraints, bounds, budget, tol, seed, vectorized,
            equality_margin, options, executor, callback, history,
        )
    if equality_margin is None:
        equality_margin = 1e-4
    opts = _typed_options(options, budget, tol)
    if sigma0 is not None:
        opts = opts.replace(sigma0=_sigma0(sigma0))
    opts = opts.replace(record_dynamics=bool(history))

    native = isinstance(fun, (Cec2017, BbobConstrained, Cec2020Rw))
    if native:
        n = fun.dim
    elif x0 is not None:
        n = int(np.asarray(x0, dtype=float).size)
    elif bounds is not None:
        n = len(bounds.lb) if hasattr(bounds, "lb") else len(list(bounds))
    else:
        raise ValueError("give x0 (where to start) or finite bounds (to start uniformly in the box)")
    if x0 is not None:
        x0 = np.asarray(x0, dtype=float)
        if x0.ndim != 1 or x0.size != n:
            raise ValueError(f"x0 must be a 1-d array of {n} numbers, not of shape {x0.shape}")
        if not np.isfinite(x0).all():
            raise ValueError("x0 must be finite")
        opts = opts.replace(initial_mean=x0.tolist())

    if native:
        if bounds is not None or ineq is not None or eq is not None or _given(constraints):
            raise ValueError("a suite problem brings its own bounds and constraints")
        raw = _emages._run_native(fun, variant, opts, seed)
    else:
        if not callable(fun):
            raise TypeError("fun must be callable (or a Cec2017/BbobConstrained/Cec2020Rw problem)")
        lb, ub = _box(bounds, n)
        if x0 is not None:
            _inside(x0, lb, ub)
        if x0 is None and not (np.isfinite(lb).all() and np.isfinite(ub).all()):
            raise ValueError("without x0, the initial population is uniform in the box: give finite bounds")
        probe = x0 if x0 is not None else (lb + ub) / 2
        ineq, eq, joint, l, m, jac = _callables(fun, ineq, eq, constraints, vectorized, probe)
        if executor is None and callback is None:
            raw = _emages._run_callbacks(
                fun, ineq, eq, joint, bool(vectorized), lb.tolist(), ub.tolist(), l, m,
                float(equality_margin), variant, opts, seed, jac,
            )
        else:
            from ._asktell import _drive

            core = _emages._AskTell(
                lb.tolist(), ub.tolist(), l, m, float(equality_margin), variant, opts, seed,
                jac is not None,
            )
            task = _Callables(fun, ineq, eq, joint, bool(vectorized), l, m, jac)
            raw = _drive(core, task, executor, callback, seed, opts.disp)
    return _finished(raw, seed)


def _sigma0(sigma0) -> float:
    """``sigma0`` checked: a finite positive number."""
    if isinstance(sigma0, bool) or not (isinstance(sigma0, (int, float)) and math.isfinite(sigma0) and sigma0 > 0):
        raise ValueError(f"sigma0 must be a finite positive number, not {sigma0!r}")
    return float(sigma0)


def _minimize_portfolio(fun, x0, sigma0, ineq, eq, constraints, bounds, budget, tol, seed, vectorized,
                        equality_margin, options, executor, callback, history=True) -> OptimizeResult:
    """:func:`minimize` with ``variant=PORTFOLIO``."""
    opts = _typed_options(options, budget, None, PortfolioOptions)
    if sigma0 is not None:
        opts = opts.replace(sigma0=_sigma0(sigma0))
    if tol is not None:
        if isinstance(tol, bool) or not (isinstance(tol, (int, float)) and math.isfinite(tol) and tol > 0):
            raise ValueError(f"tol must be a finite positive number, not {tol!r}")
        if not opts.is_given("sqp_step_tolerance"):
            # The local phase's end: a step below tol · max(1, ‖x‖∞) (COBYLA's rhoend-like).
            opts = opts.replace(sqp_step_tolerance=float(tol))
    if isinstance(fun, (Cec2017, BbobConstrained, Cec2020Rw)):
        return _minimize_portfolio_native(fun, x0, ineq, eq, constraints, bounds, seed, vectorized,
                                          equality_margin, opts, executor, callback, history)
    if not callable(fun):
        raise TypeError("fun must be callable")
    if equality_margin is None:
        equality_margin = 1e-8
    if not (isinstance(equality_margin, (int, float)) and math.isfinite(equality_margin) and equality_margin >= 0):
        raise ValueError(f"equality_margin must be a finite number >= 0, not {equality_margin!r}")
    disp = opts.disp
    if x0 is not None:
        x0 = np.asarray(x0, dtype=float)
        if x0.ndim != 1:
            raise ValueError(f"x0 must be a 1-d array of numbers, not of shape {x0.shape}")
        if not np.isfinite(x0).all():
            raise ValueError("x0 must be finite")
        n = x0.size
    elif bounds is not None:
        n = len(bounds.lb) if hasattr(bounds, "lb") else len(list(bounds))
    else:
        raise ValueError("give x0 (where to start) or bounds (the run starts at the box's centre)")
    lb, ub = _box(bounds, n)
    if x0 is not None:
        _inside(x0, lb, ub)
    probe = x0 if x0 is not None else np.where(np.isfinite(lb) & np.isfinite(ub), (lb + ub) / 2, 0.0)
    # The constraints' Jacobian, when every constraint brings one, goes to the ES rounds'
    # repair (the local phase takes differences: its probes are needed for ∇f anyway).
    ineq, eq, joint, l, m, jac = _callables(fun, ineq, eq, constraints, vectorized, probe)
    start = None if x0 is None else x0.tolist()
    if executor is None and callback is None and not disp:
        raw = _emages._run_portfolio(
            fun, ineq, eq, joint, bool(vectorized), lb.tolist(), ub.tolist(), l, m,
            float(equality_margin), opts, seed, start, jac, bool(history),
        )
    else:
        # By ask and tell (the same run): each request through the executor, one point
        # per task; the callback after every iteration; the progress lines.
        from ._asktell import _drive

        core = _emages._PortfolioAskTell(lb.tolist(), ub.tolist(), l, m, float(equality_margin),
                                         opts, seed, start, jac is not None, bool(history))
        task = _Callables(fun, ineq, eq, joint, bool(vectorized), l, m, jac)
        raw = _drive(core, task, executor, callback, seed, disp)
    res = _finished(raw, seed)
    res["equality_margin"] = float(equality_margin)
    return res


def _minimize_portfolio_native(problem, x0, ineq, eq, constraints, bounds, seed, vectorized,
                               equality_margin, opts, executor, callback, history=True) -> OptimizeResult:
    """:func:`minimize` with ``variant=PORTFOLIO`` on a problem of the suites: in Rust,
    with the problem's own equality margin."""
    if bounds is not None or ineq is not None or eq is not None or _given(constraints):
        raise ValueError("a suite problem brings its own bounds and constraints")
    for name, given in (("equality_margin", equality_margin is not None), ("executor", executor is not None),
                        ("callback", callback is not None), ("vectorized", bool(vectorized)),
                        ("options disp", bool(opts.disp))):
        if given:
            raise ValueError(f"variant='portfolio' on a suite problem runs in Rust: {name} is for callables "
                             "(the problem's own margin holds)")
    start = None
    if x0 is not None:
        lb, ub = np.asarray(problem.lower, dtype=float), np.asarray(problem.upper, dtype=float)
        start = np.asarray(x0, dtype=float)
        if start.ndim != 1 or start.size != problem.dim or not np.isfinite(start).all():
            raise ValueError(f"x0 must be {problem.dim} finite numbers, not {x0!r}")
        _inside(start, lb, ub)
        start = start.tolist()
    res = _finished(_emages._run_portfolio_native(problem, opts, seed, start, bool(history)), seed)
    res["equality_margin"] = float(problem.equality_margin)
    return res


class _Progress:
    """The progress lines of ``disp`` (the layout of the Rust runs' lines, pycma's):
    a header, the generations 1–3 and every ``every``-th, and the last."""

    HEADER = f"{'Iter':>7} {'evals':>9} {'best f':>14} {'violation':>10} {'sigma':>9} {'run':>4} {'t[s]':>8}"

    def __init__(self, every: int):
        import time

        self.every, self.started, self.printed, self.last = every, time.monotonic(), 0, None
        self._clock = time.monotonic

    def line(self, generation, evaluations, fun, violation, sigma, run=1) -> str:
        return (f"{generation:>7} {evaluations:>9} {fun:>+14.7e} {violation:>10.3e} {sigma:>9.2e} "
                f"{run:>4} {self._clock() - self.started:>8.1f}")

    def show(self, text: str) -> None:
        if self.printed == 0:
            print(self.HEADER)
        self.printed += 1
        print(text)

    def observe(self, generation, *values) -> None:
        if not self.every:
            return
        text = self.line(generation, *values)
        if generation <= 3 or generation % self.every == 0:
            self.show(text)
            self.last = None
        else:
            self.last = text

    def finish(self) -> None:
        if self.every and self.last is not None:
            self.show(self.last)
            self.last = None


def _finished(raw: dict, seed: int) -> OptimizeResult:
    """The result dict of a run as an :class:`OptimizeResult`: ``success`` means a
    feasible point with a finite objective value."""
    res = _result_class()(raw)
    res["seed"] = seed
    res["success"] = bool(res["feasible"] and math.isfinite(res["fun"]))
    termination = res["termination"]
    res["message"] = _Message(termination, "rounds" in raw)
    res["status"] = _STATUS.get(termination, 1)
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


#: ``status`` of each ``message``: 0 converged, 1 at a limit, 2 stopped by the caller
#: (the table is Rust's, ``ma_es::Termination``).
_STATUS = dict(_emages.TERMINATIONS)


class _Callables:
    """The user's callables as one picklable task: ``task(x, constraints_only)`` gives
    ``(f, g, h)`` of one point (``f`` is NaN when only the constraints are wanted)."""

    def __init__(self, fun, ineq, eq, joint, vectorized, l, m, jac=None):
        self.fun, self.ineq, self.eq, self.jac = fun, ineq, eq, jac
        self.joint, self.vectorized, self.l, self.m = joint, vectorized, l, m

    def jacobian(self, x):
        """The constraints' Jacobian at ``x``, ``(l + m, N)``, rows g then h."""
        return np.asarray(self.jac(x), dtype=float).reshape(self.l + self.m, len(x))

    def __call__(self, x, constraints_only=False):
        arg = x[None, :] if self.vectorized else x
        first = lambda v: np.asarray(v, dtype=float)[0] if self.vectorized else v  # noqa: E731
        f, g, h = math.nan, (), ()
        if self.joint:
            out = self.fun(arg)
            f, g = first(out[0]), first(out[1])
            h = first(out[2]) if len(out) == 3 else ()
        else:
            if not constraints_only:
                f = first(self.fun(arg))
            if self.ineq is not None:
                g = first(self.ineq(arg))
            if self.eq is not None:
                h = first(self.eq(arg))
        if constraints_only:
            f = math.nan
        elif f is None or math.isnan(float(np.asarray(f, dtype=float).reshape(()))):
            raise ValueError(
                f"fun returned NaN (or None) at x = {x!r}: return a number "
                "(float('inf') ranks the point worst)")
        return (
            float(np.asarray(f, dtype=float).reshape(())),
            np.asarray(g, dtype=float).reshape(self.l),
            np.asarray(h, dtype=float).reshape(self.m),
        )


class TestResult(NamedTuple):
    """A Wilcoxon test's outcome: the two-sided ``p``, ``h = p <= alpha``, ``w_plus``
    (W⁺, or the first sample's rank sum), MATLAB's ``statistic``, the ``n`` used, and
    the ``method`` (``"exact"`` or ``"approximate"``)."""

    p: float
    h: bool
    w_plus: float
    statistic: float
    n: int
    method: str


def signrank(x: Sequence[float], y: Sequence[float], alpha: float = 0.05) -> TestResult:
    """MATLAB's ``signrank(x, y)``: the two-sided Wilcoxon signed-rank test of paired
    samples (exact for up to 15 non-zero differences, else the normal approximation;
    ties and zeros within MATLAB's tolerance)."""
    return TestResult(**_emages._signrank(_reals(x), _reals(y), alpha))


def ranksum(x: Sequence[float], y: Sequence[float], alpha: float = 0.05) -> TestResult:
    """MATLAB's ``ranksum(x, y)``: the two-sided Wilcoxon rank-sum test."""
    return TestResult(**_emages._ranksum(_reals(x), _reals(y), alpha))


def cec_statistics(f: Sequence[float], v: Sequence[float], c: Optional[Sequence[Sequence[int]]] = None) -> dict:
    """The CEC statistics of one problem's runs from their final ``f``, mean violation
    ``v`` and (optionally) violated-constraint counts ``c = (c1, c2, c3)``: ``best``,
    ``median``, ``median_c``, ``median_v``, ``mean``, ``std``, ``worst``, the
    feasibility rate ``fr`` and the mean violation ``vio`` (runs ordered as the CEC
    orders them: feasible first, by ``f``; then by ``v``)."""
    counts = None if c is None else [tuple(int(k) for k in row) for row in c]
    return _emages._cec_statistics(_reals(f), _reals(v), counts)


def cec_compare(baseline_f, baseline_v, variant_f, variant_v, test: str = "signed-rank", alpha: float = 0.05) -> dict:
    """The CEC ranking of a variant against a baseline on one problem (the paper's
    Table 1 cells): ``median``, ``mean``, ``total`` in {+1, 0, −1} (+1: the baseline is
    better), with the significance ``test`` on f and ν̄ (``"signed-rank"``,
    ``"rank-sum"``, or ``"none"`` for the original CEC ranking)."""
    return _emages._cec_compare(_reals(baseline_f), _reals(baseline_v), _reals(variant_f), _reals(variant_v), test, alpha)


def _reals(v) -> list:
    a = np.asarray(v, dtype=float)
    if a.ndim != 1:
        raise ValueError(f"expected a 1-d sequence of numbers, got shape {a.shape}")
    return a.tolist()


from ._asktell import AskTell  # noqa: E402  (needs the core loaded above)
