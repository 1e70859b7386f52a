"""The user's problem as the core takes it: the box, the start, scipy's constraints
(``NonlinearConstraint``, ``LinearConstraint``, the old dicts) merged with ``ineq`` and
``eq``, ``args``, and the callables as one picklable task."""

from __future__ import annotations

import math

import numpy as np


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
        if any(p[0][2] is not None for p in merged.parts):
            # The Jacobians given, checked once at the probe (not charged): a run that
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
            r, i = np.argwhere(~np.isfinite(j.reshape(size, n)))[0]
            raise ValueError(f"constraint {index}: jac(x) is not finite (row {r}, column {i}: "
                             f"{j.reshape(size, n)[r, i]}) at x = {x!r}")
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
        """Each constraint's ``jac(x)`` has its shape and finite values at the start
        ``x`` (the error names the constraint and the point), whether or not the run
        takes a Jacobian later."""
        for index, (part, lb, *_) in enumerate(self.parts):
            if part[0] != "linear" and part[2] is not None:
                self._jacobian(part, x, lb.size, x.size, index)

    def jac(self, x):
        """``(l + m, N)``: rows g then h."""
        n = x.size
        g, h = [], []
        for index, (part, lb, _, low, high, is_eq) in enumerate(self.parts):
            j = self._jacobian(part, x, lb.size, n, index)
            g += [-j[low], j[high]]
            h.append(j[is_eq])
        return np.concatenate(g + h).reshape(self.l + self.m, n)

    def jac_or_differences(self, x, lower, upper):
        """``(l + m, N)`` as :meth:`jac`, each constraint's own Jacobian where it has
        one and forward differences of its values where it has none (the user's
        ``ineq``/``eq`` callables too), with the local phase's steps
        (:func:`_difference_steps`)."""
        n = x.size
        steps = None

        def differenced(values):
            nonlocal steps
            if steps is None:
                steps = _difference_steps(x, lower, upper)
            return _differences(values, x, steps)

        g, h = [], []
        if self.user_ineq is not None:
            g.append(differenced(lambda y: np.atleast_1d(np.asarray(self.user_ineq(y), dtype=float))))
        for index, (part, lb, _, low, high, is_eq) in enumerate(self.parts):
            if part[0] == "linear" or part[2] is not None:
                j = self._jacobian(part, x, lb.size, n, index)
            else:
                j = differenced(lambda y, part=part: self._value(part, y)).reshape(lb.size, n)
            g += [-j[low], j[high]]
            h.append(j[is_eq])
        if self.user_eq is not None:
            h.insert(0, differenced(lambda y: np.atleast_1d(np.asarray(self.user_eq(y), dtype=float))))
        return np.concatenate(g + h).reshape(self.l + self.m, n)


def _difference_steps(x, lower, upper):
    """The local phase's forward-difference steps at ``x``: ``h_i = √ε · max(|x_i|, 1)``
    towards the upper bound, else towards the lower one, else to the farther bound;
    the steps as rounded in ``x + h`` (as ``local_phase::sqp`` takes them)."""
    h = np.sqrt(np.finfo(float).eps) * np.maximum(np.abs(x), 1.0)
    up, down = x + h <= upper, x - h >= lower
    wide = upper - x >= x - lower
    step = np.where(up, h, np.where(down, -h, np.where(wide, upper - x, lower - x)))
    return (x + step) - x


def _differences(values, x, steps):
    """The forward-difference Jacobian of ``values`` at ``x`` with ``steps``:
    ``(count, N)``, column ``i`` is ``(values(x + h_i e_i) − values(x)) / h_i`` (0 where
    ``h_i = 0``)."""
    base = values(x)
    columns = []
    for i, h in enumerate(steps):
        if h == 0:
            columns.append(np.zeros(base.size))
            continue
        y = x.copy()
        y[i] = x[i] + h
        columns.append((values(y) - base) / h)
    return np.stack(columns, axis=1) if columns else np.zeros((base.size, 0))


class _WithArgs:
    """``fun(x, *args)`` as ``fun(x)`` (scipy's ``args``), picklable for executors."""

    def __init__(self, fun, args):
        self.fun, self.args = fun, args

    def __call__(self, x):
        return self.fun(x, *self.args)


class _Callables:
    """The user's callables as one picklable task: ``task(x, constraints_only)`` gives
    ``(f, g, h)`` of one point (``f`` is NaN when only the constraints are wanted);
    ``jacobian(x)`` the constraints' Jacobian, ``gradient(x)`` the objective's."""

    def __init__(self, fun, ineq, eq, joint, vectorized, l, m, jac=None, grad=None):
        self.fun, self.ineq, self.eq, self.jac, self.grad = fun, ineq, eq, jac, grad
        self.joint, self.vectorized, self.l, self.m = joint, vectorized, l, m

    def jacobian(self, x):
        """The constraints' Jacobian at ``x``, ``(l + m, N)``, rows g then h."""
        return np.asarray(self.jac(x), dtype=float).reshape(self.l + self.m, len(x))

    def gradient(self, x):
        """``∇f(x)`` (``N`` finite numbers) and the constraints' Jacobian there."""
        g = _gradient(self.grad, x)
        return g, (self.jacobian(x) if self.l + self.m else np.zeros((0, len(x))))

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


def _gradient(grad, x):
    """``grad(x)`` checked: ``N`` finite numbers, or an error naming the component and
    the point."""
    g = np.asarray(grad(x), dtype=float)
    if g.shape not in ((x.size,), (1, x.size)):
        raise ValueError(f"jac(x), the gradient of fun, has shape {g.shape}: expected ({x.size},)")
    g = g.reshape(x.size)
    bad = np.flatnonzero(~np.isfinite(g))
    if bad.size:
        raise ValueError(f"jac(x), the gradient of fun, is not finite: df/dx[{bad[0]}] = {g[bad[0]]} at x = {x!r}")
    return g


class _ValueAndGradient:
    """scipy's ``jac=True``: ``fun(x)`` returns ``(f, ∇f)``. Called for a value it keeps
    the gradient of the last point, so that the gradient asked for next at the same
    point (the local phase's accepted step) costs no call; picklable for executors."""

    def __init__(self, fun):
        self.fun, self._x, self._grad = fun, None, None

    def _call(self, x):
        out = self.fun(x)
        if not (isinstance(out, tuple) and len(out) == 2):
            raise ValueError("with jac=True, fun(x) must return (f, gradient), as scipy's minimize takes it")
        self._x, self._grad = np.array(x, dtype=float), out[1]
        return out

    def __call__(self, x):
        return self._call(x)[0]

    def value(self, x):
        """``f(x)`` alone (the gradient computed and dropped)."""
        return self._call(x)[0]

    def gradient(self, x):
        if self._x is not None and np.array_equal(self._x, x):
            return self._grad
        return self._call(x)[1]

    def __getstate__(self):
        return {"fun": self.fun, "_x": None, "_grad": None}


class _DifferencedJacobian:
    """The constraints' Jacobian for the local phase's models when the objective's
    gradient is given: each constraint's own where it has one, forward differences of
    the others (:meth:`_Constraints.jac_or_differences`); picklable."""

    def __init__(self, ineq, eq, l, m, lower, upper):
        self.ineq, self.eq, self.l, self.m = ineq, eq, l, m
        self.lower, self.upper = np.asarray(lower, dtype=float), np.asarray(upper, dtype=float)

    def __call__(self, x):
        x = np.asarray(x, dtype=float)
        owner = getattr(self.ineq, "__self__", None) or getattr(self.eq, "__self__", None)
        if isinstance(owner, _Constraints):
            return owner.jac_or_differences(x, self.lower, self.upper)
        steps = _difference_steps(x, self.lower, self.upper)
        rows = []
        for f, count in ((self.ineq, self.l), (self.eq, self.m)):
            if count:
                rows.append(_differences(lambda y, f=f: np.atleast_1d(np.asarray(f(y), dtype=float)), x, steps))
        return np.concatenate(rows).reshape(self.l + self.m, x.size)
