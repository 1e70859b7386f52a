"""The ask-and-tell interface: the user evaluates, the strategy asks."""

from __future__ import annotations

import json
import math
import secrets
from typing import Any, NamedTuple, Optional, Sequence

import numpy as np

from . import DEFAULT_VARIANT, OptimizeResult, _box, _emages, _finished


class Request(NamedTuple):
    """What the strategy wants evaluated: ``points`` (shape ``(k, N)``, one point per
    row) and ``constraints_only`` — True for the repair's Jacobian probes, which need
    ``g`` and ``h`` but not ``f``."""

    points: np.ndarray
    constraints_only: bool


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

    The state is a value: ``pickle.dumps(es)`` and ``copy.deepcopy(es)`` work at any
    point, and the copy continues exactly as the original would (a run saved midway is
    resumed on another machine with ``pickle.loads``).

    Parameters are those of :func:`minimize` (without callables), plus the dimension
    and the numbers of constraints.
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
        equality_margin: float = 1e-4,
        options: Optional[dict] = None,
        history: bool = True,
    ):
        if seed is None:
            seed = secrets.randbits(63)
        self.seed = seed
        config = dict(options or {})
        if budget is not None:
            config["budget"] = int(budget)
        if sigma0 is not None:
            if not (isinstance(sigma0, (int, float)) and math.isfinite(sigma0) and sigma0 > 0):
                raise ValueError(f"sigma0 must be a finite positive number, not {sigma0!r}")
            config["sigma0"] = float(sigma0)
        config["record_dynamics"] = bool(history)
        lb, ub = _box(bounds, int(dim))
        if x0 is not None:
            x0 = np.asarray(x0, dtype=float)
            if x0.shape != (dim,) or not np.isfinite(x0).all():
                raise ValueError(f"x0 must be {dim} finite numbers")
            config["initial_mean"] = x0.tolist()
        elif not (np.isfinite(lb).all() and np.isfinite(ub).all()):
            raise ValueError("without x0, the initial population is uniform in the box: give finite bounds")
        self._core = _emages._AskTell(
            lb.tolist(), ub.tolist(), int(n_ineq), int(n_eq), float(equality_margin),
            variant, json.dumps(config), seed,
        )

    def ask(self) -> Optional[Request]:
        """The next request, or ``None`` when the run has ended (then :meth:`result`)."""
        q = self._core.ask()
        return None if q is None else Request(*q)

    def tell(self, f, g=None, h=None) -> bool:
        """The values of the last request's points: ``f`` of shape ``(k,)`` (``None``
        for a ``constraints_only`` request), ``g`` of shape ``(k, n_ineq)``, ``h`` of
        shape ``(k, n_eq)``. Returns whether a generation ended with them."""
        return self._core.tell(f, g, h)

    def stop(self) -> None:
        """Ends the run after the generation told last: the next :meth:`ask` returns
        ``None``."""
        self._core.stop()

    def result(self) -> OptimizeResult:
        """The result (as :func:`minimize`'s): the final one once :meth:`ask` returned
        ``None``, else the best so far."""
        return _finished(self._core.result(), self.seed)


def _restore_core(state: bytes):
    """Unpickles the compiled half of an :class:`AskTell` (its ``__reduce__``)."""
    return _emages._AskTell._from_bytes(state)


def _drive(core, task, executor, callback, seed: int) -> dict:
    """Runs ``core`` to its end, evaluating each request with ``task`` (through
    ``executor.map`` if given, one point per task), calling ``callback`` after every
    generation; returns the result dict."""
    while (q := core.ask()) is not None:
        points, constraints_only = q
        only = [constraints_only] * len(points)
        rows = list(points)
        if executor is None:
            values = [task(x, c) for x, c in zip(rows, only)]
        else:
            values = list(executor.map(task, rows, only))
        f = np.array([v[0] for v in values], dtype=float)
        g = np.array([v[1] for v in values], dtype=float).reshape(len(rows), task.l)
        h = np.array([v[2] for v in values], dtype=float).reshape(len(rows), task.m)
        ended = core.tell(None if constraints_only else f, g if task.l else None, h if task.m else None)
        if not (ended and callback is not None):
            continue
        generation, evaluations, _, fun, violation = core.status()
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
    return core.result()
