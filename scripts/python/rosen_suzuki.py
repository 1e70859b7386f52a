"""Rosen–Suzuki (4-D, Hock & Schittkowski 43; f* = -44 at (0, 1, 2, -1)) and a second
problem, solved by `emages.minimize` with its defaults and by pycma's `fmin_con2`, 10
seeds each: the evaluations until each stops, why, and whether it solved the problem
(feasible, within 1e-6 of f*): the numbers quoted in docs/python.md. Run with the package installed and `pip install cma`:

    python scripts/python/rosen_suzuki.py
"""

import math
import time

import cma
import numpy as np

import emages


def rosen_suzuki(x):
    x1, x2, x3, x4 = x
    return float(x1 * x1 + x2 * x2 + 2 * x3 * x3 + x4 * x4 - 5 * x1 - 5 * x2 - 21 * x3 + 7 * x4)


def rosen_suzuki_g(x):
    x1, x2, x3, x4 = x
    return [
        x1 * x1 + x2 * x2 + x3 * x3 + x4 * x4 + x1 - x2 + x3 - x4 - 8,
        x1 * x1 + 2 * x2 * x2 + x3 * x3 + 2 * x4 * x4 - x1 - x4 - 10,
        2 * x1 * x1 + x2 * x2 + x3 * x3 + 2 * x1 - x2 - x4 - 5,
    ]


def rosenbrock_disc(x):
    """MATLAB's fmincon example: Rosenbrock in the unit disc, f* = 0.0456748087."""
    return float(100.0 * (x[1] - x[0] ** 2) ** 2 + (1.0 - x[0]) ** 2)


def rosenbrock_disc_g(x):
    return [float(x[0] ** 2 + x[1] ** 2 - 1.0)]


PROBLEMS = [
    ("Rosen–Suzuki (4-D)", rosen_suzuki, rosen_suzuki_g, [0.0] * 4, -44.0),
    ("Rosenbrock in the unit disc (2-D)", rosenbrock_disc, rosenbrock_disc_g, [0.0, 0.0],
     0.04567480871950024),
]


def solved(fun, g, best):
    return max(g) <= 0 and fun - best <= 1e-6 * max(1.0, abs(best))


def quality(fun, g, best):
    """(f − f*, the largest constraint value: > 0 is infeasible)."""
    return fun - best, max(g)


def ours(f, g, x0, best, seed, variant):
    r = emages.minimize(f, x0=x0, sigma0=1.0, ineq=g, seed=seed, budget=20_000,
                        history=False, variant=variant)
    return r.evaluations, r.message, solved(r.fun, g(r.x), best), quality(r.fun, g(r.x), best)


def pycma(f, g, x0, best, seed):
    evals = [0]

    def counted(x):
        evals[0] += 1
        return f(x)

    x, es = cma.fmin_con2(counted, x0, 1.0, constraints=g,
                          options={"seed": seed + 1, "verbose": -9, "maxfevals": 20_000})
    stop = ",".join(es.stop().keys()) if es is not None else "?"
    return evals[0], stop, solved(f(x), g(x), best), quality(f(x), g(x), best)


def main():
    print(f"emages {emages.__version__}, cma {cma.__version__}, kernel {emages.kernel()}")
    for name, f, g, x0, best in PROBLEMS:
        print(f"\n{name}: budget 20 000, sigma0 = 1, x0 = {x0}, seeds 0–9")
        print("| solver | evaluations (min–median–max) | stopped by | solved | median f − f* | largest g (median) |")
        print("|---|---|---|---|---|---|")
        for label, run in [
            ("emages.minimize (εMAg-ES-R, default)", lambda s: ours(f, g, x0, best, s, "eps-mag-es-r")),
            ("emages.minimize, variant=\"eps-mag-es\"", lambda s: ours(f, g, x0, best, s, "eps-mag-es")),
            ("cma.fmin_con2", lambda s: pycma(f, g, x0, best, s)),
        ]:
            t = time.perf_counter()
            rows = [run(s) for s in range(10)]
            ev = sorted(r[0] for r in rows)
            stops = {}
            for r in rows:
                stops[r[1]] = stops.get(r[1], 0) + 1
            why = ", ".join(f"{k} {v}" for k, v in sorted(stops.items()))
            gap = float(np.median([r[3][0] for r in rows]))
            worst_g = float(np.median([r[3][1] for r in rows]))
            print(f"| {label} | {ev[0]}–{int(np.median(ev))}–{ev[-1]} | {why} | "
                  f"{sum(r[2] for r in rows)}/10 | {gap:.1e} | {worst_g:.1e} |"
                  f"  ({time.perf_counter() - t:.1f} s)")


if __name__ == "__main__":
    main()
