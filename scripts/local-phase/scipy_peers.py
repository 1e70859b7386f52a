#!/usr/bin/env python3
"""scipy's SLSQP and COBYLA on local-phase's classic problems, from the same starts as
`cargo run --release -p local-phase --example hits`, as the same JSON lines: the
evaluations to stop and the "hit", the first evaluation of a point with g <= 0,
|h| <= 1e-8 and f - f* <= 1e-6 * max(1, |f*|). Each evaluation of f or of the
constraints at a new point counts once (COBYLA and SLSQP evaluate both at every point;
SLSQP's own finite differences are counted as evaluations).

    pip install scipy
    python3 scripts/local-phase/scipy_peers.py > peers.jsonl
"""

import json
import math

import numpy as np
from scipy.optimize import minimize


def rosen_suzuki(x):
    g = [
        x[0] ** 2 + x[1] ** 2 + x[2] ** 2 + x[3] ** 2 + x[0] - x[1] + x[2] - x[3] - 8,
        x[0] ** 2 + 2 * x[1] ** 2 + x[2] ** 2 + 2 * x[3] ** 2 - x[0] - x[3] - 10,
        2 * x[0] ** 2 + x[1] ** 2 + x[2] ** 2 + 2 * x[0] - x[1] - x[3] - 5,
    ]
    f = x[0] ** 2 + x[1] ** 2 + 2 * x[2] ** 2 + x[3] ** 2 - 5 * x[0] - 5 * x[1] - 21 * x[2] + 7 * x[3]
    return f, g, []


def unscale(u, lo, hi):
    return [l + v * (h - l) for v, l, h in zip(u, lo, hi)]


def spring(u):
    d, dd, n = unscale(u, [0.05, 0.25, 2.0], [2.0, 1.3, 15.0])
    g = [
        1 - dd ** 3 * n / (71785 * d ** 4),
        (4 * dd * dd - d * dd) / (12566 * (dd * d ** 3 - d ** 4)) + 1 / (5108 * d * d) - 1,
        1 - 140.45 * d / (dd * dd * n),
        (d + dd) / 1.5 - 1,
    ]
    return (n + 2) * dd * d * d, g, []


def vessel(u):
    ts, th, r, l = unscale(u, [0, 0, 10, 10], [99, 99, 200, 200])
    g = [
        -ts + 0.0193 * r,
        -th + 0.00954 * r,
        -math.pi * r * r * l - 4 / 3 * math.pi * r ** 3 + 1296000,
        l - 240,
    ]
    f = 0.6224 * ts * r * l + 1.7781 * th * r * r + 3.1661 * ts * ts * l + 19.84 * ts * ts * r
    return f, g, []


def circle(x):
    return x[0] + x[1], [], [x[0] ** 2 + x[1] ** 2 - 2]


PROBLEMS = [
    ("rosen-suzuki", rosen_suzuki, [-10.0] * 4, [10.0] * 4, -44.0, [0.0] * 4),
    ("spring", spring, [0.0] * 3, [1.0] * 3, 0.012665232788, [0.5] * 3),
    ("pressure-vessel", vessel, [0.0] * 4, [1.0] * 4, 5885.3327736, [0.5] * 4),
    ("circle", circle, [-3.0] * 2, [3.0] * 2, -2.0, [0.5, 0.0]),
]


def starts(lo, hi, start):
    """The problem's start, then nine spread over the box (as examples/hits.rs)."""
    out = [list(start)]
    for k in range(1, 10):
        out.append([lo[i] + math.fmod((k * 7 + i * 13) * 0.61803398875, 1.0) * (hi[i] - lo[i])
                    for i in range(len(lo))])
    return out


class Counted:
    """Caches the last point's values (f and the constraints are asked for apart) and
    counts each new point once; notes the first hit."""

    def __init__(self, fun, f_star):
        self.fun, self.f_star = fun, f_star
        self.count, self.hit, self.last = 0, None, None

    def values(self, x):
        key = tuple(float(v) for v in x)
        if self.last is None or self.last[0] != key:
            f, g, h = self.fun(list(key))
            self.count += 1
            feasible = all(v <= 0 for v in g) and all(abs(v) <= 1e-8 for v in h)
            if feasible and f - self.f_star <= 1e-6 * max(1.0, abs(self.f_star)) and self.hit is None:
                self.hit = self.count
            self.last = (key, f, g, h)
        return self.last[1:]


def solve(method, name, fun, lo, hi, f_star, x0):
    c = Counted(fun, f_star)
    probe = fun(x0)
    cons = []
    if probe[1]:
        cons.append({"type": "ineq", "fun": lambda x: -np.array(c.values(x)[1])})
    if probe[2]:
        cons.append({"type": "eq", "fun": lambda x: np.array(c.values(x)[2])})
    bounds = list(zip(lo, hi))
    options = {"maxiter": 10000}
    if method == "COBYLA":
        # PRIMA's COBYLA takes the box as constraints; rhobeg a quarter of the narrowest side.
        options["rhobeg"] = 0.25 * min(h - l for l, h in zip(lo, hi))
    res = minimize(lambda x: c.values(x)[0], np.array(x0, dtype=float), method=method,
                   bounds=bounds, constraints=cons, options=options)
    return {"solver": method.lower(), "problem": name, "evaluations": c.count, "hit": c.hit,
            "f": float(res.fun), "stop": str(res.message)}


def main():
    import warnings
    warnings.simplefilter("ignore")
    for method in ["SLSQP", "COBYLA"]:
        for name, fun, lo, hi, f_star, start in PROBLEMS:
            for s, x0 in enumerate(starts(lo, hi, start)):
                row = solve(method, name, fun, lo, hi, f_star, x0)
                row["start"] = s
                print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
