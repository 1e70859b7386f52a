"""The ask-and-tell interface: the user evaluates, the strategy asks."""

from __future__ import annotations

import math
import secrets
import warnings
from typing import Any, Optional, Sequence

import numpy as np

from ._core import DEFAULT_VARIANT, PORTFOLIO, PortfolioOptions, _emages
from ._minimize import _Progress, _sigma0, _typed_options
from ._problem import _box, _Callables, _callables, _inside, _WithArgs
from ._result import OptimizeResult, _finished, _result_class


class Request:
    """What the strategy wants evaluated.

    Attributes
    ----------
    points : ndarray
        Shape ``(k, N)``, one point per row.
    constraints_only : bool
        True for the repair's Jacobian probes and Jacobians, which need no ``f``
        (answer ``f`` with ``None``).
    kind : str
        ``"population"``, ``"probes"`` (difference probes: their ``g``, ``h``),
        ``"jacobians"`` (with ``jacobian=True``: the constraints' Jacobians at the
        points) or ``"repaired"``.
    evaluations : int
        What the run charges for the request (a Jacobian at a point told as repaired in
        the request before is part of that point's evaluation and costs nothing: the
        CEC2020 rule).

    Reading it as a tuple (``points, only, kind, cost = req``, ``req[0]``) still works
    for one release, with a ``DeprecationWarning``.
    """

    __slots__ = ("points", "constraints_only", "kind", "evaluations")

    def __init__(self, points, constraints_only: bool, kind: str = "population", evaluations: int = 0):
        self.points, self.constraints_only, self.kind, self.evaluations = points, constraints_only, kind, evaluations

    @property
    def count(self) -> int:
        """The number of points, ``k``."""
        return len(self.points)

    def _tuple(self):
        warnings.warn("reading a Request as a tuple is deprecated: use its fields (points, "
                      "constraints_only, kind, evaluations)", DeprecationWarning, stacklevel=3)
        return (self.points, self.constraints_only, self.kind, self.evaluations)

    def __iter__(self):
        return iter(self._tuple())

    def __getitem__(self, i):
        return self._tuple()[i]

    def __len__(self):
        return 4

    def __repr__(self) -> str:
        return (f"Request(kind={self.kind!r}, count={self.count}, constraints_only={self.constraints_only}, "
                f"evaluations={self.evaluations})")

    def __reduce__(self):
        return (Request, (self.points, self.constraints_only, self.kind, self.evaluations))


class AskTell:
    """εMAg-ES-R (or another variant) driven step by step by its user::

        es = emages.AskTell(dim=2, bounds=[(-5, 5)] * 2, n_ineq=1, seed=1, budget=4000)
        while (req := es.ask()) is not None:
            X = req.points
            g = 1 - X.sum(axis=1, keepdims=True)       # (k, n_ineq)
            f = None if req.constraints_only else (X ** 2).sum(axis=1)
            es.tell(f, g)
        res = es.result()

    Every variant can be driven so, with the trajectory of :func:`emages.minimize` for
    the same seed and values: it asks for every evaluation it needs — the population of
    each generation; for the repairing variants (εMAg-ES, …) also, every N-th
    generation, the forward-difference Jacobian probes of every offspring being
    repaired, N points each, in one request (``constraints_only``: answer ``f`` with
    ``None``), then their repaired points in another. Sign conventions as in
    :func:`minimize`.

    With ``jacobian=True`` the user computes the constraints' Jacobians instead of
    difference probes: a ``"jacobians"`` request is answered with ``tell(None, Jg, Jh)``,
    ``Jg`` of shape ``(k, n_ineq, N)`` and ``Jh`` of shape ``(k, n_eq, N)``
    (``Jg[j, r, i]`` is ``∂g_r/∂x_i`` at point ``j``), and the trajectory is
    :func:`minimize`'s with the same ``jac``::

        es = emages.AskTell(dim=2, bounds=[(-3, 3)] * 2, n_eq=1, seed=1, jacobian=True)
        while (req := es.ask()) is not None:
            X = req.points
            if req.kind == "jacobians":
                es.tell(None, None, 2 * X[:, None, :])        # ∂(x·x − 2)/∂x
            else:
                h = (X ** 2).sum(axis=1, keepdims=True) - 2
                es.tell(None if req.constraints_only else X.sum(axis=1), None, h)

    The state is a value: ``pickle.dumps(es)`` and ``copy.deepcopy(es)`` work at any
    point, and the copy continues exactly as the original would (a run saved midway is
    resumed on another machine with ``pickle.loads``).

    With ``variant=emages.PORTFOLIO`` the portfolio is driven so: every request is a
    ``"population"`` wanting ``f``, ``g`` and ``h`` at its points (the local phase's
    start, its difference probes, its trial points, the ES's populations) — with
    ``jacobian=True`` also ``"jacobians"`` requests of the ES rounds' repair, answered
    as above —, the run ends
    when it stops by itself or its next request would not fit into the budget, and the
    trajectory is :func:`minimize`'s with the same seed.

    Parameters are those of :func:`minimize` (without callables), plus the dimension,
    the numbers of constraints, and ``jacobian`` (whether the user answers Jacobian
    requests; ``njev`` in the result counts the points answered so).
    """

    def __init__(
        self,
        dim: int,
        *,
        n_ineq: int = 0,
        n_eq: int = 0,
        x0: Optional[Sequence[float]] = None,
        sigma0: Optional[float] = None,
        bounds: Any = None,
        budget: Optional[int] = None,
        variant: str = DEFAULT_VARIANT,
        seed: Optional[int] = None,
        equality_margin: Optional[float] = None,
        options: Any = None,
        history: bool = True,
        jacobian: bool = False,
    ):
        if seed is None:
            seed = secrets.randbits(63)
        self.seed = seed
        self._asked, self._pending, self._dim = False, None, int(dim)
        self._x0 = None if x0 is None else np.array(x0, dtype=float)
        if variant == PORTFOLIO:
            opts = _typed_options(options, budget, None, PortfolioOptions)
            self._progress = _Progress(opts.disp) if opts.disp else None
            self._core = _portfolio_core(dim, n_ineq, n_eq, x0, sigma0, bounds, seed,
                                         equality_margin, opts, jacobian, history)
            return
        opts = _typed_options(options, budget, None)
        self._progress = _Progress(opts.disp) if opts.disp else None
        if equality_margin is None:
            equality_margin = 1e-4
        if sigma0 is not None:
            opts = opts.replace(sigma0=_sigma0(sigma0))
        opts = opts.replace(record_dynamics=bool(history))
        lb, ub = _box(bounds, int(dim))
        if x0 is not None:
            opts = opts.replace(initial_mean=_start(x0, dim, lb, ub))
        elif not (np.isfinite(lb).all() and np.isfinite(ub).all()):
            raise ValueError("without x0, the initial population is uniform in the box: give finite bounds")
        self._core = _emages._AskTell.es(
            lb.tolist(), ub.tolist(), int(n_ineq), int(n_eq), float(equality_margin),
            variant, opts, seed, bool(jacobian),
        )

    def _next(self):
        """The pending request (asked of the core once), or ``None`` at the end."""
        if not self.__dict__.get("_asked", False):
            q = self._core.ask()
            self._pending = None if q is None else Request(*q)
            self._asked = True
        return self._pending

    def ask(self) -> Optional[Request]:
        """The next request, or ``None`` when the run has ended (then :meth:`result`)."""
        req = self._next()
        return req

    def tell(self, f, g=None, h=None) -> bool:
        """The values of the last request's points: ``f`` of shape ``(k,)`` (``None``
        for a ``constraints_only`` request), ``g`` of shape ``(k, n_ineq)``, ``h`` of
        shape ``(k, n_eq)``; for a ``"jacobians"`` request the Jacobians, ``g`` of
        shape ``(k, n_ineq, N)`` and ``h`` of shape ``(k, n_eq, N)``. Returns whether a
        generation ended with them."""
        ended = self._core.tell(f, g, h)
        self._asked = False
        if ended and self.__dict__.get("_progress") is not None:
            self._progress.observe(*self._status_line())
        return ended

    def _status_line(self):
        iterations, evaluations, step, fun, violation, local, run = self._core.status()
        return iterations, evaluations, fun, violation, step, local, run

    def stop(self) -> dict:
        """pycma's query: the termination criteria met, as ``{termination: message}``
        (e.g. ``{'budget': 'The evaluation budget is spent.'}``), or ``{}`` while the run
        goes on — ``while not es.stop():`` loops until the end. To end the run yourself,
        :meth:`terminate`."""
        if self._next() is not None:
            return {}
        res = self.result()
        return {res.termination: str(res.message)}

    def terminate(self) -> None:
        """Ends the run after the generation told last: the next :meth:`ask` returns
        ``None`` and ``termination`` is ``stopped``. (Before 0.2 this was ``stop()``.)"""
        self._core.stop()
        self._asked = False

    @property
    def sigma(self) -> float:
        """The current step size σ (the portfolio: its local phase's trust radius)."""
        return float(self._core.status()[2])

    @property
    def mean(self) -> Optional[np.ndarray]:
        """The centre of the current search (pycma's ``mean``): an ES's mean; while the
        portfolio's local phase runs, its iterate; ``x0`` before the first tell (``None``
        then without ``x0``)."""
        mean = self._core.mean
        if self._core.status()[1] == 0:
            # Before the initial population: x0 (or None: it is drawn in the box).
            x0 = self.__dict__.get("_x0")
            return None if x0 is None else np.array(x0, dtype=float)
        return np.array(mean, dtype=float)

    def disp(self) -> None:
        """Prints one progress line (pycma's ``disp``): iteration, evaluations, the best
        ``f``, its violation, the step size, the phase and the run; the first call prints
        the header too."""
        if self.__dict__.get("_printer") is None:
            self._printer = _Progress(1)
        self._printer.observe(*self._status_line())

    def optimize(self, fun, ineq=None, eq=None, *, constraints=(), vectorized: bool = False, args=(),
                 jac=None, callback=None) -> "AskTell":
        """Runs to the end with ``fun`` (and the constraint callables), as pycma's
        ``optimize``: the callables as :func:`minimize` takes them (``args`` for ``fun``;
        a ``jac`` when the run was made with ``jacobian=True``); ``callback(es)`` after
        every generation (raise ``StopIteration`` to end). Returns ``self``; then
        :meth:`result`."""
        if not isinstance(args, tuple):
            args = (args,)
        if args:
            fun = _WithArgs(fun, args)
        dim = self._dim
        probe = np.zeros(dim)
        ineq, eq, joint, l, m, found = _callables(fun, ineq, eq, constraints, vectorized, probe)
        task = _Callables(fun, ineq, eq, joint, bool(vectorized), l, m, jac if jac is not None else found)
        while (req := self.ask()) is not None:
            ended = self.tell(*_answer(task, req.points, req.constraints_only, req.kind, None))
            if ended and callback is not None:
                try:
                    callback(self)
                except StopIteration:
                    self.terminate()
        return self

    def result(self) -> OptimizeResult:
        """The result (as :func:`minimize`'s): the final one once :meth:`ask` returned
        ``None``, else the best so far; before anything was told, a result with
        ``x=None``, ``fun`` and ``violation`` NaN and ``nfev == 0``."""
        if self._core.status()[1] == 0:
            res = _result_class()(
                x=None, fun=math.nan, violation=math.nan, feasible=False, success=False, nit=0,
                nfev=0, ngev=0, njev=0, evaluations=0, maxcv=math.nan, status=1,
                termination="running", message="Nothing evaluated yet: ask() and tell() first.",
                seed=self.seed,
            )
            return res
        res = _finished(self._core.result(), self.seed)
        if self.__dict__.get("_progress") is not None and self._next() is None:
            self._progress.finish()
        return res


def _start(x0, dim, lb, ub) -> list:
    """``x0`` as ``dim`` finite numbers inside the box, or a clear error."""
    x0 = np.asarray(x0, dtype=float)
    if x0.shape != (dim,) or not np.isfinite(x0).all():
        raise ValueError(f"x0 must be {dim} finite numbers")
    _inside(x0, lb, ub)
    return x0.tolist()


def _portfolio_core(dim, n_ineq, n_eq, x0, sigma0, bounds, seed, equality_margin, opts, jacobian,
                    history=True):
    """The compiled half of ``AskTell(variant=PORTFOLIO)``: a request is a
    ``"population"`` of points wanting ``f``, ``g`` and ``h``, or, with ``jacobian=True``,
    ``"jacobians"`` for the ES rounds' repair."""
    if sigma0 is not None:
        opts = opts.replace(sigma0=_sigma0(sigma0))
    margin = _emages.DEFAULT_EQUALITY_MARGIN if equality_margin is None else equality_margin
    if not (isinstance(margin, (int, float)) and math.isfinite(margin) and margin >= 0):
        raise ValueError(f"equality_margin must be a finite number >= 0, not {margin!r}")
    lb, ub = _box(bounds, int(dim))
    if x0 is not None:
        x0 = _start(x0, dim, lb, ub)
    return _emages._AskTell.portfolio(
        lb.tolist(), ub.tolist(), int(n_ineq), int(n_eq), float(margin), opts, seed, x0, bool(jacobian),
        bool(history),
    )


def _restore_core(state: bytes):
    """Unpickles the compiled half of an :class:`AskTell` (its ``__reduce__``)."""
    return _emages._AskTell._from_bytes(state)


def _answer(task, points, constraints_only: bool, kind: str, executor):
    """The arguments of ``tell`` for a request: its points evaluated with ``task`` (one
    point per call, through ``executor.map`` if given, in order), ``(f, g, h)`` — ``f``
    ``None`` for a ``constraints_only`` request, the Jacobians for a ``"jacobians"`` one."""
    rows = list(points)
    mapped = map if executor is None else executor.map
    if kind == "jacobians":
        jac = np.array(list(mapped(task.jacobian, rows)), dtype=float)
        jac = jac.reshape(len(rows), task.l + task.m, len(rows[0]))
        return None, jac[:, : task.l] if task.l else None, jac[:, task.l :] if task.m else None
    values = list(mapped(task, rows, [constraints_only] * len(rows)))
    f = np.array([v[0] for v in values], dtype=float)
    g = np.array([v[1] for v in values], dtype=float).reshape(len(rows), task.l)
    h = np.array([v[2] for v in values], dtype=float).reshape(len(rows), task.m)
    return None if constraints_only else f, g if task.l else None, h if task.m else None


def _drive(core, task, executor, callback, seed: int, disp: int = 0) -> dict:
    """Runs ``core`` to its end, evaluating each request with ``task`` (through
    ``executor.map`` if given, one point per task; a Jacobian request with
    ``task.jacobian``), calling ``callback`` after every generation; returns the result
    dict."""
    progress = _Progress(disp) if disp else None
    while (q := core.ask()) is not None:
        points, constraints_only, kind, _ = q
        ended = core.tell(*_answer(task, points, constraints_only, kind, executor))
        if kind == "jacobians":
            continue
        if ended and progress is not None:
            iterations, evaluations, step, fun, violation, local, run = core.status()
            progress.observe(iterations, evaluations, fun, violation, step, local, run)
        if not (ended and callback is not None):
            continue
        generation, evaluations, _, fun, violation, _, _ = core.status()
        # After a generation (not after a run's initial population).
        if generation > 0:
            best = OptimizeResult(core.result())
            intermediate = OptimizeResult(
                x=best["x"], fun=fun, violation=violation, feasible=bool(violation == 0.0),
                nit=best["nit"], evaluations=evaluations, seed=seed,
            )
            try:
                callback(intermediate)
            except StopIteration:
                core.stop()
    if progress is not None:
        progress.finish()
    return core.result()
