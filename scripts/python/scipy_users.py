"""The default as a scipy user runs it: the first evaluation of a feasible point (every
constraint within 1e-6) within 1e-6 (relative) of f* ("hit", distinct points counted)
and the evaluations to the stop, medians of seeds 1–5, on Rosen–Suzuki (4-D, from 0),
the pressure vessel (in its own units, from the box's centre) and a 20-D ellipsoid
(dᵢ from 1 to 10⁶) under Σx = 1 in the box [−5, 5]²⁰ (f* = 1 / Σ 1/dᵢ): without and with
``jac=`` (the objective's gradient; with it the constraints' Jacobians too), with the
settings it had before the fifth design round (the back-off held, no second-order
correction) and before its stopping rules, beside scipy's SLSQP (forward
differences, and with ``jac``) and COBYLA; then the pressure vessel's final error by
``tol``, and Rosen–Suzuki's. Prints Markdown tables.

    target/py-venv/bin/python scripts/python/scipy_users.py
"""

import math
import warnings

import numpy as np
from scipy.optimize import minimize as scipy_minimize

import emages

D20 = 10.0 ** (6.0 * np.arange(20) / 19)


def rosen_suzuki():
    f = lambda x: float(x[0] ** 2 + x[1] ** 2 + 2 * x[2] ** 2 + x[3] ** 2 - 5 * x[0] - 5 * x[1] - 21 * x[2]  # noqa: E731
                        + 7 * x[3])
    grad = lambda x: np.array([2 * x[0] - 5, 2 * x[1] - 5, 4 * x[2] - 21, 2 * x[3] + 7])  # noqa: E731
    g = lambda x: np.array([  # noqa: E731
        x[0] ** 2 + x[1] ** 2 + x[2] ** 2 + x[3] ** 2 + x[0] - x[1] + x[2] - x[3] - 8,
        x[0] ** 2 + 2 * x[1] ** 2 + x[2] ** 2 + 2 * x[3] ** 2 - x[0] - x[3] - 10,
        2 * x[0] ** 2 + x[1] ** 2 + x[2] ** 2 + 2 * x[0] - x[1] - x[3] - 5])
    jg = lambda x: np.array([  # noqa: E731
        [2 * x[0] + 1, 2 * x[1] - 1, 2 * x[2] + 1, 2 * x[3] - 1],
        [2 * x[0] - 1, 4 * x[1], 2 * x[2], 4 * x[3] - 1],
        [4 * x[0] + 2, 2 * x[1] - 1, 2 * x[2], -1.0]])
    return f, grad, g, jg, None, None, [(-10.0, 10.0)] * 4, np.zeros(4), -44.0


def vessel():
    def f(x):
        ts, th, r, length = x
        return float(0.6224 * ts * r * length + 1.7781 * th * r * r + 3.1661 * ts * ts * length
                     + 19.84 * ts * ts * r)

    def grad(x):
        ts, th, r, length = x
        return np.array([0.6224 * r * length + 6.3322 * ts * length + 39.68 * ts * r,
                         1.7781 * r * r,
                         0.6224 * ts * length + 3.5562 * th * r + 19.84 * ts * ts,
                         0.6224 * ts * r + 3.1661 * ts * ts])

    def g(x):
        ts, th, r, length = x
        return np.array([-ts + 0.0193 * r, -th + 0.00954 * r,
                         -math.pi * r * r * length - 4 / 3 * math.pi * r ** 3 + 1296000, length - 240])

    def jg(x):
        ts, th, r, length = x
        return np.array([[-1.0, 0, 0.0193, 0], [0, -1.0, 0.00954, 0],
                         [0, 0, -2 * math.pi * r * length - 4 * math.pi * r * r, -math.pi * r * r],
                         [0, 0, 0, 1.0]])

    bounds = [(0.0, 99.0), (0.0, 99.0), (10.0, 200.0), (10.0, 200.0)]
    return f, grad, g, jg, None, None, bounds, np.array([49.5, 49.5, 105.0, 105.0]), 5885.3327736


def ellipsoid():
    f = lambda x: float(np.sum(D20 * x * x))  # noqa: E731
    grad = lambda x: 2 * D20 * x  # noqa: E731
    h = lambda x: np.array([float(np.sum(x)) - 1.0])  # noqa: E731
    jh = lambda x: np.ones((1, 20))  # noqa: E731
    return f, grad, None, None, h, jh, [(-5.0, 5.0)] * 20, np.zeros(20), float(1.0 / np.sum(1.0 / D20))


PROBLEMS = {"Rosen–Suzuki (4-D)": rosen_suzuki, "pressure vessel": vessel, "20-D ellipsoid, Σx = 1, box": ellipsoid}


class Counted:
    """The objective counting distinct points, noting the first hit."""

    def __init__(self, f, g, h, fstar):
        self.f, self.g, self.h, self.fstar = f, g, h, fstar
        self.seen, self.hit = set(), None

    def __call__(self, x):
        v = self.f(x)
        key = tuple(np.asarray(x, dtype=float).tolist())
        if key not in self.seen:
            self.seen.add(key)
            ok = (self.g is None or np.all(self.g(x) <= 1e-6)) and (self.h is None or np.all(np.abs(self.h(x)) <= 1e-6))
            if self.hit is None and ok and v - self.fstar <= 1e-6 * max(1.0, abs(self.fstar)):
                self.hit = len(self.seen)
        return v


HELD = {"sqp_accuracy": None, "sqp_second_order_correction": False}  # the default before the fifth round
BEFORE = {"patience": False, "confirm_early": False, "warm_curvature": False, "sqp_decrease_tolerance": 0.0,
          "sqp_speculative_probes": False, **HELD}  # the default's settings before its stopping rules
NO_PROBES = {"sqp_speculative_probes": False}  # the default without speculative probes


def constraints(problem, with_jac):
    """scipy's constraint dicts of `problem` (with their Jacobians if `with_jac`)."""
    _, _, g, jg, h, jh, *_ = problem
    cons = []
    if g is not None:
        cons.append({"type": "ineq", "fun": lambda x: -g(x), **({"jac": lambda x: -jg(x)} if with_jac else {})})
    if h is not None:
        cons.append({"type": "eq", "fun": h, **({"jac": jh} if with_jac else {})})
    return cons


def emages_run(problem, seed, with_jac, options=None):
    f, grad, g, jg, h, jh, bounds, x0, fstar = problem
    c = Counted(f, g, h, fstar)
    cons = constraints(problem, with_jac)
    r = emages.minimize(c, x0, jac=grad if with_jac else None, bounds=bounds, constraints=cons, seed=seed,
                        history=False, options=options)
    return c.hit, r.nfev


def scipy_run(problem, method, with_jac):
    f, grad, g, jg, h, jh, bounds, x0, fstar = problem
    c = Counted(f, g, h, fstar)
    cons = constraints(problem, with_jac)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = scipy_minimize(c, x0, jac=grad if with_jac else None, method=method, bounds=bounds, constraints=cons,
                           options={"maxiter": 10000})
    return c.hit, len(c.seen), r.status


def median(values):
    values = [v for v in values if v is not None]
    return f"{np.median(values):.0f}" if values else "–"


def main():
    print(f"emages {emages.__version__} (default: {emages.DEFAULT_VARIANT}), kernel {emages.kernel()}; "
          "hit / stop, distinct points, medians of seeds 1–5\n")
    print("| problem | emages | emages, `jac=` | emages without speculative probes | emages before the fifth round "
          "| emages before its stopping rules | SLSQP | SLSQP, `jac` | COBYLA |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, make in PROBLEMS.items():
        problem = make()
        cells = []
        for with_jac, options in ((False, None), (True, None), (False, NO_PROBES), (False, HELD), (False, BEFORE)):
            rows = [emages_run(problem, s, with_jac, options) for s in range(1, 6)]
            hits = [h for h, _ in rows]
            cells.append(f"{median(hits)} / {median([e for _, e in rows])}"
                         + ("" if all(h is not None for h in hits) else f" ({sum(h is not None for h in hits)} of 5 hit)"))
        for method, with_jac in (("SLSQP", False), ("SLSQP", True), ("COBYLA", False)):
            hit, stop, status = scipy_run(problem, method, with_jac)
            cells.append(f"{hit if hit is not None else 'no hit'} / {stop}" + (f" (status {status})" if status else ""))
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
    print("\nThe final error (f − f*) / max(1, |f*|), the largest constraint value, and the "
          "evaluations (medians of seeds 1–5; the evaluations of each seed) by `tol`:\n")
    print("| problem | tol | error | max g | evaluations |")
    print("|---|---|---|---|---|")
    for name, make in (("pressure vessel", vessel), ("Rosen–Suzuki", rosen_suzuki)):
        f, grad, g, jg, _, _, bounds, x0, fstar = make()
        for tol, options, label in ((None, HELD, "None, the back-off held (`sqp_accuracy=None`)"),
                                    (None, None, "None (the default's `sqp_accuracy`, 1e-12)"),
                                    (1e-4, None, "1e-4"), (1e-6, None, "1e-6"), (1e-8, None, "1e-8"),
                                    (1e-12, None, "1e-12")):
            rows = []
            for seed in range(1, 6):
                r = emages.minimize(f, x0, bounds=bounds, ineq=g, tol=tol, seed=seed, history=False,
                                    options=options)
                rows.append(((r.fun - fstar) / max(1.0, abs(fstar)), float(np.max(g(r.x))), r.nfev))
            each = ", ".join(str(n) for *_, n in rows)
            print(f"| {name} | {label} | {np.median([e for e, _, _ in rows]):.2e} | "
                  f"{np.median([m for _, m, _ in rows]):.2e} | {np.median([n for *_, n in rows]):.0f} ({each}) |",
                  flush=True)

if __name__ == "__main__":
    main()
