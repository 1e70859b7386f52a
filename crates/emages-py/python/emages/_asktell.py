"""The ask-and-tell interface: the user evaluates, the strategy asks — in pycma's words."""

from __future__ import annotations

import math
import numbers
import secrets
import warnings
from collections.abc import Sequence as _Sequence
from typing import Any, Optional, Sequence

import numpy as np

from ._core import DEFAULT_VARIANT, PORTFOLIO, Options, PortfolioOptions, _emages
from ._minimize import _Progress, _sigma0, _typed_options
from ._problem import _box, _Callables, _callables, _inside, _WithArgs
from ._pycma import from_inopts
from ._result import _Message, _finished, _result_class


class Request(_Sequence):
    """The points the strategy asks for: a sequence of points, as pycma's ``ask()``
    returns (``len(X)``, ``X[j]``, ``for x in X``; ``np.asarray(X)`` is the ``(k, N)``
    array).

    Attributes
    ----------
    points : ndarray
        Shape ``(k, N)``, one point per row.
    kind : str
        What is wanted at them: ``"population"`` (``f``, ``g``, ``h``; the ES's
        offspring, the local phase's start, probes and trial steps), ``"probes"``
        (difference probes of the repair: ``g``, ``h`` alone), ``"repaired"``,
        ``"jacobians"`` (with ``jacobian=True``: the constraints' Jacobians) or
        ``"gradients"`` (with ``gradient=True``: the objective's gradient and the
        constraints' Jacobians, for the local phase's model).
    constraints_only : bool
        True where ``f`` is not wanted (``"probes"``, ``"jacobians"``): tell ``None``
        or anything for it.
    evaluations : int
        What the run charges for the request.
    """

    __slots__ = ("points", "constraints_only", "kind", "evaluations")

    def __init__(self, points, constraints_only: bool, kind: str = "population", evaluations: int = 0):
        self.points, self.constraints_only, self.kind, self.evaluations = points, constraints_only, kind, evaluations

    @property
    def count(self) -> int:
        """The number of points, ``k``."""
        return len(self.points)

    def __len__(self) -> int:
        return len(self.points)

    def __getitem__(self, j):
        return self.points[j]

    def __iter__(self):
        return iter(self.points)

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.points, dtype=dtype)

    def __repr__(self) -> str:
        return (f"Request(kind={self.kind!r}, count={self.count}, constraints_only={self.constraints_only}, "
                f"evaluations={self.evaluations})")

    def __reduce__(self):
        return (Request, (self.points, self.constraints_only, self.kind, self.evaluations))


class AskTell:
    """The default strategy (or any variant) driven step by step, as pycma's
    ``CMAEvolutionStrategy`` is::

        es = emages.AskTell(x0, 0.5, {'bounds': [-5, 5], 'maxfevals': 4000, 'seed': 1})
        while not es.stop():
            X = es.ask()                                  # the points, a sequence
            es.tell(X, [f(x) for x in X], ineq=[g(x) for x in X])
            es.disp()
        res = es.result                                   # xbest, fbest, evals_best, …

    ``x0`` gives the dimension (and the local phase's first start); ``sigma0`` the ES's
    initial step size; ``inopts`` pycma's options where they mean the same thing —
    ``seed``, ``maxfevals`` (the budget), ``bounds`` (``[lower, upper]``, each ``None``,
    a number or one per coordinate), ``maxiter``, ``ftarget``, ``tolfun``, ``tolx``,
    ``popsize`` (the ES variants), ``verbose`` and ``verb_disp`` — and any key of the
    strategy's options (:class:`emages.PortfolioOptions`, :class:`emages.Options`);
    another key is an error naming those. Constraints: ``tell(X, f, ineq=G, eq=H)``
    with ``G`` of shape ``(k, l)`` (``g <= 0`` satisfied) and ``H`` of shape ``(k, m)``
    (``|h| <= equality_margin``), :func:`minimize`'s signs; their numbers ``l`` and
    ``m`` are read from the first tell (or give ``n_ineq`` and ``n_eq``).

    A request may want less than ``f``, ``g`` and ``h`` at every point: the ES's
    repair asks for difference probes (``X.constraints_only``: ``f`` is ignored); with
    ``jacobian=True`` a ``"jacobians"`` request is answered with the constraints'
    Jacobians, ``ineq`` of shape ``(k, l, N)`` and ``eq`` ``(k, m, N)``; with
    ``gradient=True`` the local phase asks for ``"gradients"``, answered with ``∇f``
    (``(k, N)``) in place of ``f`` and the Jacobians as above. The trajectory is
    :func:`minimize`'s for the same seed and values.

    The state is a value: ``pickle.dumps(es)`` and ``copy.deepcopy(es)`` work at any
    point, and the copy continues exactly as the original would.

    Keywords besides pycma's: ``dim`` (without ``x0``: the first start is then the
    box's centre, the ES's population uniform in the box), ``n_ineq``, ``n_eq``,
    ``bounds``, ``budget``, ``variant`` (default :data:`emages.PORTFOLIO`), ``seed``,
    ``equality_margin``, ``options``, ``history``, ``jacobian``, ``gradient`` — as
    :func:`minimize` takes them.
    """

    def __init__(
        self,
        x0: Optional[Sequence[float]] = None,
        sigma0: Optional[float] = None,
        inopts: Optional[dict] = None,
        *,
        dim: Optional[int] = None,
        n_ineq: Optional[int] = None,
        n_eq: Optional[int] = None,
        bounds: Any = None,
        budget: Optional[int] = None,
        variant: Optional[str] = None,
        seed: Optional[int] = None,
        equality_margin: Optional[float] = None,
        options: Any = None,
        history: bool = True,
        jacobian: bool = False,
        gradient: bool = False,
    ):
        if isinstance(x0, numbers.Integral) and not isinstance(x0, bool):
            warnings.warn("AskTell(dim, …) is deprecated: give x0 (AskTell(x0, sigma0, inopts), pycma's "
                          "order) or dim= by keyword", DeprecationWarning, stacklevel=2)
            if dim is not None:
                raise ValueError("the dimension is given twice (first argument and dim=)")
            dim, x0 = int(x0), None
        variant = DEFAULT_VARIANT if variant is None else variant
        portfolio = variant == PORTFOLIO
        if x0 is not None:
            x0 = np.asarray(x0, dtype=float)
            if x0.ndim != 1 or not np.isfinite(x0).all():
                raise ValueError(f"x0 must be a 1-d array of finite numbers, not {x0!r}")
            if dim is not None and int(dim) != x0.size:
                raise ValueError(f"x0 has {x0.size} components, dim is {dim}")
            dim = x0.size
        if dim is None:
            raise ValueError("give x0 (where to start; its length is the dimension) or dim=")
        dim = int(dim)
        cls = PortfolioOptions if portfolio else Options
        opts = _typed_options(options, None, None, cls)
        drawn, cap, box, given, verb_disp = from_inopts(inopts, portfolio, dim, cls.keys())
        for name, ours, theirs in (("seed", seed, drawn), ("budget", budget, cap), ("bounds", bounds, box)):
            if ours is not None and theirs is not None:
                raise ValueError(f"{name} is given twice: in inopts and as {name}=")
        for key in given:
            if opts.is_given(key):
                raise ValueError(f"{key} is given twice: in inopts and in options")
        opts = opts.replace(**given) if given else opts
        if budget is None:
            budget = cap
        if budget is not None:
            opts = _typed_options(opts, budget, None, cls)
        seed = drawn if seed is None else seed
        if seed is None:
            seed = secrets.randbits(63)
        self.seed = seed
        if sigma0 is not None:
            opts = opts.replace(sigma0=_sigma0(sigma0))
        lb, ub = _box(box if bounds is None else bounds, dim)
        if x0 is not None:
            _inside(x0, lb, ub)
        elif not portfolio and not (np.isfinite(lb).all() and np.isfinite(ub).all()):
            raise ValueError("without x0, the initial population is uniform in the box: give finite bounds")
        if equality_margin is None:
            equality_margin = _emages.DEFAULT_EQUALITY_MARGIN if portfolio else 1e-4
        if not (isinstance(equality_margin, (int, float)) and math.isfinite(equality_margin)
                and equality_margin >= 0):
            raise ValueError(f"equality_margin must be a finite number >= 0, not {equality_margin!r}")
        if gradient and not portfolio:
            raise ValueError("gradient=True: the objective's gradient is for the portfolio's local phase; "
                             f"{variant!r} is an ES")
        self._spec = dict(lb=lb, ub=ub, x0=x0, variant=variant, opts=opts, seed=seed,
                          margin=float(equality_margin), jacobian=bool(jacobian), gradient=bool(gradient),
                          history=bool(history))
        self._dim, self._x0 = dim, x0
        self._counts = None if n_ineq is None and n_eq is None else (int(n_ineq or 0), int(n_eq or 0))
        self._core = self._build(*(self._counts or (0, 0)))
        self._asked, self._pending = False, None
        self._progress = _Progress(opts.disp) if opts.disp else None
        self._verb_disp, self._shown = verb_disp, -1

    def _build(self, l: int, m: int):
        """The compiled core for ``l`` inequalities and ``m`` equalities."""
        s = self._spec
        if s["variant"] == PORTFOLIO:
            return _emages._AskTell.portfolio(
                s["lb"].tolist(), s["ub"].tolist(), l, m, s["margin"], s["opts"], s["seed"],
                None if s["x0"] is None else s["x0"].tolist(), s["jacobian"], s["history"], s["gradient"])
        opts = s["opts"].replace(record_dynamics=s["history"])
        if s["x0"] is not None:
            opts = opts.replace(initial_mean=s["x0"].tolist())
        return _emages._AskTell.es(s["lb"].tolist(), s["ub"].tolist(), l, m, s["margin"], s["variant"], opts,
                                   s["seed"], s["jacobian"])

    def _next(self):
        """The pending request (asked of the core once), or ``None`` at the end."""
        if not self.__dict__.get("_asked", False):
            q = self._core.ask()
            self._pending = None if q is None else Request(*q)
            self._asked = True
        return self._pending

    def ask(self) -> Optional[Request]:
        """The points to evaluate next (a :class:`Request`, a sequence of points), or
        ``None`` when the run has ended (then :attr:`result`). Asking again before
        telling gives the same points."""
        return self._next()

    def tell(self, solutions=None, function_values=None, *legacy, ineq=None, eq=None) -> bool:
        """The values at the points of the last :meth:`ask`, pycma's order:
        ``tell(X, f, ineq=G, eq=H)`` — ``X`` the request (or its points), ``f`` one
        value per point (``None`` where ``X.constraints_only``; the gradients,
        ``(k, N)``, for a ``"gradients"`` request), ``G`` ``(k, l)`` and ``H`` ``(k, m)``
        (the Jacobians, ``(k, l, N)`` and ``(k, m, N)``, for ``"jacobians"`` and
        ``"gradients"``). Returns whether an iteration (a generation, a step of the
        local phase) ended with them.

        ``tell(f, g, h)`` (the values alone, this package's first order) still works,
        with a ``DeprecationWarning``."""
        if not self.__dict__.get("_asked", False):
            raise ValueError("tell() without a question: call ask() first")
        req = self._next()
        if req is None:
            raise ValueError("tell(): the run has ended: nothing is asked for")
        if isinstance(solutions, Request) or _are_points(solutions, req):
            if legacy:
                raise TypeError("tell(X, f, ineq=G, eq=H): give the constraints by keyword")
            _check_points(solutions, req)
            f, g, h = function_values, ineq, eq
        else:
            warnings.warn("tell(f, g, h) is deprecated: tell(X, f, ineq=g, eq=h), X the points asked "
                          "(pycma's order)", DeprecationWarning, stacklevel=2)
            if len(legacy) > 1:
                raise TypeError("tell(f, g, h) takes at most three values")
            f, g, h = solutions, function_values, (legacy[0] if legacy else None)
            if (ineq is not None and g is not None) or (eq is not None and h is not None):
                raise TypeError("the constraints are given twice (by position and by keyword)")
            g, h = (ineq if g is None else g), (eq if h is None else h)
        return self._tell(f, g, h)

    def _tell(self, f, g=None, h=None) -> bool:
        """Tells ``f``, ``g``, ``h`` to the core (the constraint counts read from the
        first tell when they were not given)."""
        req = self._next()
        if self.__dict__.get("_counts") is None:
            counts = (_rows(g, req, "ineq"), _rows(h, req, "eq"))
            if counts != (0, 0):
                core = self._build(*counts)
                first = core.ask()
                if first is None or not np.array_equal(first[0], req.points):
                    raise RuntimeError("the run's first points depend on the constraint counts: give n_ineq "
                                       "and n_eq")
                self._core = core
            self._counts = counts
        l, m = self._counts
        g = None if g is None else _shaped(g, req, l)
        h = None if h is None else _shaped(h, req, m)
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
        res = self.result
        return {res.termination: str(res.message)}

    def terminate(self) -> None:
        """Ends the run after the iteration told last: the next :meth:`ask` returns
        ``None`` and ``termination`` is ``stopped``."""
        self._core.stop()
        self._asked = False

    @property
    def countevals(self) -> int:
        """The evaluations so far (pycma's ``countevals``): those charged to the budget."""
        return int(self._core.status()[1])

    @property
    def phase(self) -> str:
        """What runs: ``"local"`` (the portfolio's local phase) or ``"es"`` (an ES, or
        the portfolio's ES round)."""
        return "local" if self._core.status()[5] else "es"

    @property
    def sigma(self) -> float:
        """The current step size: an ES's σ; while the portfolio's local phase runs
        (:attr:`phase` ``"local"``), its step bound Δ (no step's component exceeds it)."""
        return float(self._core.status()[2])

    @property
    def stds(self) -> np.ndarray:
        """The search's scale per coordinate (pycma's ``stds``): an ES's
        ``σ √((M Mᵀ)_ii)``; in the local phase, the step bound Δ for every coordinate."""
        return np.array(self._core.stds, dtype=float)

    @property
    def mean(self) -> Optional[np.ndarray]:
        """The centre of the current search (pycma's ``mean``, ``xfavorite``): an ES's
        mean; in the portfolio's local phase, its iterate; ``x0`` before the first tell
        (``None`` then without ``x0``)."""
        if self._core.status()[1] == 0:
            x0 = self.__dict__.get("_x0")
            return None if x0 is None else np.array(x0, dtype=float)
        return np.array(self._core.mean, dtype=float)

    def disp(self, modulo: Optional[int] = None) -> None:
        """Prints the progress line of the current iteration (pycma's ``disp``) if it is
        one of the first three or a multiple of ``modulo`` (default: ``verb_disp`` of
        ``inopts``, else 100; 1: every iteration; ``verbose <= 0`` or ``verb_disp`` 0:
        none): iteration, evaluations, the best ``f``, its violation, the step size,
        the phase and the run. The first line comes with the header. (``optimize``
        prints so after every iteration when ``inopts`` gave ``verb_disp``.)"""
        every = modulo if modulo is not None else self.__dict__.get("_verb_disp")
        every = 100 if every is None else int(every)
        if every <= 0:
            return
        if self.__dict__.get("_printer") is None or self._printer[0] != every:
            self._printer = (every, _Progress(int(every)))
        iteration = self._core.status()[0]
        if iteration != self.__dict__.get("_shown", -1):
            self._shown = iteration
            self._printer[1].observe(*self._status_line())

    def optimize(self, fun, ineq=None, eq=None, *, constraints=(), vectorized: bool = False, args=(),
                 jac=None, gradient=None, callback=None) -> "AskTell":
        """Runs to the end with ``fun`` (and the constraint callables), as pycma's
        ``optimize``: the callables as :func:`minimize` takes them (``args`` for ``fun``;
        ``jac``, the constraints' Jacobian, when the run was made with ``jacobian=True``;
        ``gradient``, the objective's, with ``gradient=True``); ``callback(es)`` after
        every iteration (raise ``StopIteration`` to end). Returns ``self``; then
        :attr:`result`."""
        if not isinstance(args, tuple):
            args = (args,)
        if args:
            fun = _WithArgs(fun, args)
        probe = np.zeros(self._dim) if self._x0 is None else np.array(self._x0)
        ineq, eq, joint, l, m, found = _callables(fun, ineq, eq, constraints, vectorized, probe)
        jac = jac if jac is not None else found
        if self._spec["gradient"]:
            if gradient is None:
                raise ValueError("the run was made with gradient=True: give gradient= (the objective's)")
            if l + m and jac is None:
                from ._problem import _DifferencedJacobian

                jac = _DifferencedJacobian(ineq, eq, l, m, self._spec["lb"], self._spec["ub"])
        task = _Callables(fun, ineq, eq, joint, bool(vectorized), l, m, jac, gradient)
        if self.__dict__.get("_counts") is None:
            self._counts = (l, m)
            if (l, m) != (0, 0):
                self._core, self._asked = self._build(l, m), False
        while (req := self.ask()) is not None:
            ended = self._tell(*_answer(task, req.points, req.constraints_only, req.kind, None))
            if ended and self.__dict__.get("_verb_disp"):
                self.disp()
            if ended and callback is not None:
                try:
                    callback(self)
                except StopIteration:
                    self.terminate()
        return self

    @property
    def result(self):
        """The result, pycma's fields with :func:`minimize`'s (an
        :class:`OptimizeResult`): ``xbest``, ``fbest``, ``evals_best``, ``evaluations``,
        ``iterations``, ``xfavorite``, ``stds``, ``stop`` (and ``res[0]`` … ``res[7]``
        in that order), ``x``, ``fun``, ``violation``, ``status``, ``message``, …. The
        final result once :meth:`ask` returned ``None``; before, the best so far, with
        ``termination`` ``"running"``, ``status`` −1 and a message that says so. Calling
        it (``es.result()``) gives the same."""
        cls = _asktell_result_class()
        if self._core.status()[1] == 0:
            res = cls(x=None, fun=math.nan, violation=math.nan, feasible=False, success=False, nit=0,
                      nfev=0, ngev=0, njev=0, evaluations=0, maxcv=math.nan, found_at=0,
                      seed=self.seed)
            _in_progress(res, "Nothing evaluated yet: ask() and tell() first.")
        else:
            # Asked first: a run learns that it has ended (its budget, its solver's own
            # end) at its next ask.
            pending = self._next()
            res = cls(_finished(self._core.result(), self.seed))
            if pending is None and self.__dict__.get("_progress") is not None:
                self._progress.finish()
        res.update(xbest=res["x"], fbest=res["fun"], evals_best=res.get("found_at", 0),
                   iterations=res["nit"], xfavorite=self.mean, stds=self.stds,
                   stop={} if res["status"] == _IN_PROGRESS[1] else {res["termination"]: str(res["message"])})
        return res


_IN_PROGRESS = _emages.IN_PROGRESS


def _in_progress(res, message=None) -> None:
    """A result of a run that goes on: ``termination`` ``"running"``, ``status`` −1,
    ``success`` false, the message that says so."""
    name, status, sentence = _IN_PROGRESS
    res.update(termination=name, status=status, success=False,
               message=_Message(name) if message is None else message)


#: pycma's result fields, in the order of its named tuple.
_PYCMA_FIELDS = ("xbest", "fbest", "evals_best", "evaluations", "iterations", "xfavorite", "stds", "stop")


def _asktell_result_class():
    """:class:`OptimizeResult` with pycma's fields by position too (``res[0]`` is
    ``xbest``), callable (``es.result()`` is ``es.result``)."""
    global _ASKTELL_RESULT
    if _ASKTELL_RESULT is None:
        base = _result_class()

        def __getitem__(self, key):
            if isinstance(key, int):
                return dict.__getitem__(self, _PYCMA_FIELDS[key])
            return dict.__getitem__(self, key)

        _ASKTELL_RESULT = type("AskTellResult", (base,), {
            "__module__": "emages", "__qualname__": "_AskTellResult",
            "__doc__": AskTell.result.__doc__, "__getitem__": __getitem__,
            "__call__": lambda self: self})
    return _ASKTELL_RESULT


_ASKTELL_RESULT = None


def _are_points(solutions, req) -> bool:
    """Whether ``solutions`` are the request's points (a ``(k, N)`` array or a list of
    ``k`` points), not the values of the old order."""
    if solutions is None or isinstance(solutions, (numbers.Number, str)):
        return False
    try:
        a = np.asarray(solutions, dtype=float)
    except (TypeError, ValueError):
        return False
    return a.ndim == 2 and a.shape == req.points.shape


def _check_points(solutions, req) -> None:
    """The told points must be the asked ones: the run evaluates what it asked for."""
    a = np.asarray(solutions, dtype=float)
    if a.shape != req.points.shape:
        raise ValueError(f"tell(): X has shape {a.shape}, the request {req.points.shape}: tell the points asked")
    differ = np.flatnonzero(~(a == req.points).all(axis=1))
    if differ.size:
        raise ValueError(f"tell(): point {differ[0]} is not the one asked for: tell X as ask() gave it "
                         "(the run cannot take other points)")


def _rows(values, req, what: str) -> int:
    """The number of constraints in a first tell's ``values`` (``None``: none)."""
    if values is None:
        return 0
    a = np.asarray(values, dtype=float)
    k = len(req.points)
    derivative = req.kind in ("jacobians", "gradients")
    if a.ndim == 3 and derivative or a.ndim == 2 and not derivative:
        return a.shape[1] if a.shape[0] == k else _shape_error(a, req, what)
    if a.ndim == 1 and not derivative:
        return 1 if a.size == k else (a.size if k == 1 else _shape_error(a, req, what))
    return _shape_error(a, req, what)


def _shape_error(a, req, what):
    raise ValueError(f"tell(): {what} has shape {a.shape}: expected one row per asked point ({len(req.points)})")


def _shaped(values, req, count: int):
    """A single point's constraints given flat (``[g1, g2]`` for ``k = 1``) as one row."""
    a = np.asarray(values, dtype=float)
    if a.ndim == 1 and len(req.points) == 1 and count != 1 and a.size == count:
        return a.reshape(1, count)
    return values


def _restore_core(state: bytes):
    """Unpickles the compiled half of an :class:`AskTell` (its ``__reduce__``)."""
    return _emages._AskTell._from_bytes(state)


def _mapper(executor):
    """``map`` through ``executor``: every call submitted at once (``executor.submit``, one
    point per task), the results taken in order — the executor's own ``map`` where it has
    no ``submit``. (Dask's ``ClientExecutor.map`` takes about twice as long per request as
    its ``submit``: 54 against 27 ms for six 20 ms tasks on eight workers.)"""
    if executor is None:
        return map
    submit = getattr(executor, "submit", None)
    if submit is None:
        return executor.map

    def mapped(fn, *iterables):
        futures = [submit(fn, *args) for args in zip(*iterables)]
        return [f.result() for f in futures]

    return mapped


def _answer(task, points, constraints_only: bool, kind: str, executor):
    """The arguments of ``tell`` for a request: its points evaluated with ``task`` (one
    point per call, through ``executor`` if given — each point a task — in order),
    ``(f, g, h)`` — ``f`` ``None`` for a ``constraints_only`` request, the Jacobians for a
    ``"jacobians"`` one, the gradients and the Jacobians for a ``"gradients"`` one."""
    rows = list(points)
    mapped = _mapper(executor)
    if kind in ("jacobians", "gradients"):
        n = len(rows[0])
        if kind == "gradients":
            both = list(mapped(task.gradient, rows))
            grad = np.array([b[0] for b in both], dtype=float).reshape(len(rows), n)
            jac = np.array([b[1] for b in both], dtype=float)
        else:
            grad, jac = None, np.array(list(mapped(task.jacobian, rows)), dtype=float)
        jac = jac.reshape(len(rows), task.l + task.m, n)
        return grad, jac[:, : task.l] if task.l else None, jac[:, task.l :] if task.m else None
    values = list(mapped(task, rows, [constraints_only] * len(rows)))
    f = np.array([v[0] for v in values], dtype=float)
    g = np.array([v[1] for v in values], dtype=float).reshape(len(rows), task.l)
    h = np.array([v[2] for v in values], dtype=float).reshape(len(rows), task.m)
    return None if constraints_only else f, g if task.l else None, h if task.m else None


def _drive(core, task, executor, callback, seed: int, disp: int = 0) -> dict:
    """Runs ``core`` to its end, evaluating each request with ``task`` (through
    ``executor`` if given, one point per task; a derivative request with
    ``task.jacobian`` or ``task.gradient``), calling ``callback`` after every iteration;
    returns the result dict."""
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
            best = _result_class()(core.result())
            intermediate = _result_class()(
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
