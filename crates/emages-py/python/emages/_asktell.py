"""The ask-and-tell interface: the user evaluates, the strategy asks."""

from __future__ import annotations

import json
import math
import secrets
from typing import Any, NamedTuple, Optional, Sequence

import numpy as np

from . import DEFAULT_VARIANT, OptimizeResult, _box, _emages


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
    the same seed and values: the strategy runs in a thread of its own and asks for
    every evaluation it needs — the population of each generation; for the repairing
    variants (εMAg-ES, …) also, every N-th generation, the N points of a repair's
    forward-difference Jacobian (``constraints_only``: answer ``f`` with ``None``) and
    each repaired point (a request of one). Sign conventions as in :func:`minimize`.

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

    def tell(self, f, g=None, h=None) -> None:
        """The values of the last request's points: ``f`` of shape ``(k,)`` (``None``
        for a ``constraints_only`` request), ``g`` of shape ``(k, n_ineq)``, ``h`` of
        shape ``(k, n_eq)``."""
        self._core.tell(f, g, h)

    def result(self) -> OptimizeResult:
        """The result, once :meth:`ask` returned ``None`` (as :func:`minimize`'s)."""
        res = OptimizeResult(self._core.result())
        res["seed"] = self.seed
        res["success"] = res["feasible"]
        res["message"] = res.pop("termination")
        return res
