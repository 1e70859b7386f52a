"""When the default stops: the first evaluation within 1e-5 of f* ("hit", feasible) and the
evaluation at which the run stops by itself, at n = 10, 50, 100 and 200 and a budget of
200·n, on a convex quadratic with n/5 linear inequalities and a box (f* SLSQP's, with
exact derivatives) and on two multimodal problems with known optima — Rastrigin in a
half-space (f* = n/2: half the coordinates at 1) and Levy in a ball (f* = 0 at the ball's
boundary point (1, …, 1)) — for the default and for the default without its stopping
rules for large n (the patience rule, the early confirmations, the warm curvature, the
decrease tolerance: the rule of five confirmations alone). Prints a Markdown table with
the rule's bound max(3·hit, hit + 100·n) beside each stop.

    target/py-venv/bin/python scripts/python/stop_when_done.py [--dims 10,50,100,200] [--seeds 1,2,3]
"""

import argparse
import math

import numpy as np
from scipy.optimize import minimize as scipy_minimize

import emages

FIVE_CONFIRMATIONS = {"patience": False, "confirm_early": False, "warm_curvature": False,
                      "sqp_decrease_tolerance": 0.0}


def convex(n):
    r = np.random.default_rng(7)
    d = np.logspace(0, 2, n)
    c = r.uniform(-3, 3, n)
    m = max(1, n // 5)
    a = r.uniform(-1, 1, (m, n))
    b = a @ c - r.uniform(0.5, 2.0, m)     # c violates every inequality
    f = lambda x: float(np.sum(d * (x - c) ** 2))  # noqa: E731
    g = lambda x: a @ x - b  # noqa: E731
    ref = scipy_minimize(f, np.zeros(n), jac=lambda x: 2 * d * (x - c), method="SLSQP", bounds=[(-5, 5)] * n,
                         constraints=[{"type": "ineq", "fun": lambda x: -g(x), "jac": lambda x: -a}],
                         options={"ftol": 1e-15, "maxiter": 2000})
    return f, g, ref.fun


def rastrigin(n):
    f = lambda x: float(10 * n + np.sum(x * x - 10 * np.cos(2 * np.pi * x)))  # noqa: E731
    g = lambda x: np.array([n / 2 - np.sum(x)])  # noqa: E731
    return f, g, n / 2


def levy(n):
    def f(x):
        w = 1 + (x - 1) / 4
        return float(np.sin(np.pi * w[0]) ** 2 + np.sum((w[:-1] - 1) ** 2 * (1 + 10 * np.sin(np.pi * w[:-1] + 1) ** 2))
                     + (w[-1] - 1) ** 2 * (1 + np.sin(2 * np.pi * w[-1]) ** 2))

    g = lambda x: np.array([float(x @ x) - n])  # noqa: E731
    return f, g, 0.0


PROBLEMS = {"convex": convex, "Rastrigin in a half-space": rastrigin, "Levy in a ball": levy}


def measure(f, g, fstar, n, seed, options):
    calls, hit = [0], [None]

    def fun(x):
        v = f(x)
        calls[0] += 1
        if hit[0] is None and v <= fstar + 1e-5 * max(1.0, abs(fstar)) and np.all(g(x) <= 0):
            hit[0] = calls[0]
        return v

    r = emages.minimize(fun, ineq=g, bounds=[(-5, 5)] * n, budget=200 * n, seed=seed, options=options,
                        history=False)
    return hit[0], r.evaluations, r.termination, r.fun - fstar


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dims", default="10,50,100,200")
    p.add_argument("--seeds", default="1,2,3")
    p.add_argument("--problems", default=",".join(PROBLEMS))
    args = p.parse_args()
    dims = [int(v) for v in args.dims.split(",")]
    seeds = [int(v) for v in args.seeds.split(",")]
    print(f"emages {emages.__version__}, kernel {emages.kernel()}; budget 200·n; hit: the first feasible "
          "f within 1e-5·max(1, |f*|) of f*; medians over seeds " + ", ".join(map(str, seeds)) + "\n")
    print("| problem | n | rule | hit (median) | stop (median) | stops by itself | bound max(3·hit, hit + 100·n) | within it | f − f* (median) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in args.problems.split(","):
        for n in dims:
            f, g, fstar = PROBLEMS[name](n)
            for label, options in (("default", None), ("five confirmations", FIVE_CONFIRMATIONS)):
                rows = [measure(f, g, fstar, n, s, options) for s in seeds]
                hits = [h for h, *_ in rows if h is not None]
                stops = [e for _, e, t, _ in rows]
                itself = sum(t != "budget" for _, _, t, _ in rows)
                hit = float(np.median(hits)) if hits else math.nan
                bound = max(3 * hit, hit + 100 * n) if hits else math.nan
                within = sum(1 for h, e, t, _ in rows if h is not None and t != "budget"
                             and e <= max(3 * h, h + 100 * n))
                gap = float(np.median([d for *_, d in rows]))
                print(f"| {name} | {n} | {label} | {hit:.0f} ({len(hits)} of {len(seeds)}) | {np.median(stops):.0f} | "
                      f"{itself} of {len(seeds)} | {bound:.0f} | {within} of {len(seeds)} | {gap:.2e} |", flush=True)


if __name__ == "__main__":
    main()
