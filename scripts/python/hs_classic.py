"""Classic problems of the Hock–Schittkowski kind: targets reached at 100·n and 1 000·n
evaluations by `emages.minimize` (the default, or with `--options`) and by scipy's SLSQP
with forward differences, restarted from uniform points in the box.

Twelve problems from Hock & Schittkowski's collection (n = 2 … 10; inequalities,
equalities, both; unbounded ones given the box [-10, 10]ⁿ), ten seeds each. A target
t ∈ {1e-2, 1e-4, 1e-6, 1e-8} is reached at the first evaluated point with every
g ≤ 1e-8, every |h| ≤ 1e-8 and f − f* ≤ t · max(1, |f*|); each distinct point counts
as one evaluation (f, g and h together), SLSQP's difference quotients included. Every
solver of a seed starts at the same uniform point of the box; SLSQP restarts from a new
uniform point whenever a local run ends, until the budget is spent. Run with the package
installed:

    python scripts/python/hs_classic.py [--options JSON] [--seeds 10] [SOLVER ...]

SOLVER: `emages` (the default portfolio with `--options`), `slsqp`; default both.
Prints, per solver and budget, the fraction of (problem, seed, target) reached, the
problems below 1, and the median evaluations to the 1e-6 target per problem.
"""

import argparse
import json
import math
import time
import warnings

import numpy as np

TARGETS = (1e-2, 1e-4, 1e-6, 1e-8)
FEASIBLE = 1e-8


def hs6(x):
    return (1 - x[0]) ** 2, [], [10 * (x[1] - x[0] ** 2)]


def hs12(x):
    f = 0.5 * x[0] ** 2 + x[1] ** 2 - x[0] * x[1] - 7 * x[0] - 7 * x[1]
    return f, [4 * x[0] ** 2 + x[1] ** 2 - 25], []


def hs27(x):
    return 0.01 * (x[0] - 1) ** 2 + (x[1] - x[0] ** 2) ** 2, [], [x[0] + x[2] ** 2 + 1]


def hs29(x):
    return -x[0] * x[1] * x[2], [x[0] ** 2 + 2 * x[1] ** 2 + 4 * x[2] ** 2 - 48], []


def hs35(x):
    f = (9 - 8 * x[0] - 6 * x[1] - 4 * x[2] + 2 * x[0] ** 2 + 2 * x[1] ** 2 + x[2] ** 2
         + 2 * x[0] * x[1] + 2 * x[0] * x[2])
    return f, [x[0] + x[1] + 2 * x[2] - 3], []


def hs43(x):
    f = x[0] ** 2 + x[1] ** 2 + 2 * x[2] ** 2 + x[3] ** 2 - 5 * x[0] - 5 * x[1] - 21 * x[2] + 7 * x[3]
    g = [
        x[0] ** 2 + x[1] ** 2 + x[2] ** 2 + x[3] ** 2 + x[0] - x[1] + x[2] - x[3] - 8,
        x[0] ** 2 + 2 * x[1] ** 2 + x[2] ** 2 + 2 * x[3] ** 2 - x[0] - x[3] - 10,
        2 * x[0] ** 2 + x[1] ** 2 + x[2] ** 2 + 2 * x[0] - x[1] - x[3] - 5,
    ]
    return f, g, []


def hs65(x):
    f = (x[0] - x[1]) ** 2 + (x[0] + x[1] - 10) ** 2 / 9 + (x[2] - 5) ** 2
    return f, [x[0] ** 2 + x[1] ** 2 + x[2] ** 2 - 48], []


def hs71(x):
    f = x[0] * x[3] * (x[0] + x[1] + x[2]) + x[2]
    return f, [25 - x[0] * x[1] * x[2] * x[3]], [sum(v * v for v in x) - 40]


def hs76(x):
    f = (x[0] ** 2 + 0.5 * x[1] ** 2 + x[2] ** 2 + 0.5 * x[3] ** 2 - x[0] * x[2] + x[2] * x[3]
         - x[0] - 3 * x[1] + x[2] - x[3])
    g = [
        x[0] + 2 * x[1] + x[2] + x[3] - 5,
        3 * x[0] + x[1] + 2 * x[2] - x[3] - 4,
        1.5 - x[1] - 4 * x[2],
    ]
    return f, g, []


def hs80(x):
    f = math.exp(min(x[0] * x[1] * x[2] * x[3] * x[4], 700.0))
    h = [
        sum(v * v for v in x) - 10,
        x[1] * x[2] - 5 * x[3] * x[4],
        x[0] ** 3 + x[1] ** 3 + 1,
    ]
    return f, [], h


def hs100(x):
    f = ((x[0] - 10) ** 2 + 5 * (x[1] - 12) ** 2 + x[2] ** 4 + 3 * (x[3] - 11) ** 2
         + 10 * x[4] ** 6 + 7 * x[5] ** 2 + x[6] ** 4 - 4 * x[5] * x[6] - 10 * x[5] - 8 * x[6])
    g = [
        2 * x[0] ** 2 + 3 * x[1] ** 4 + x[2] + 4 * x[3] ** 2 + 5 * x[4] - 127,
        7 * x[0] + 3 * x[1] + 10 * x[2] ** 2 + x[3] - x[4] - 282,
        23 * x[0] + x[1] ** 2 + 6 * x[5] ** 2 - 8 * x[6] - 196,
        4 * x[0] ** 2 + x[1] ** 2 - 3 * x[0] * x[1] + 2 * x[2] ** 2 + 5 * x[5] - 11 * x[6],
    ]
    return f, g, []


def hs113(x):
    f = (x[0] ** 2 + x[1] ** 2 + x[0] * x[1] - 14 * x[0] - 16 * x[1] + (x[2] - 10) ** 2
         + 4 * (x[3] - 5) ** 2 + (x[4] - 3) ** 2 + 2 * (x[5] - 1) ** 2 + 5 * x[6] ** 2
         + 7 * (x[7] - 11) ** 2 + 2 * (x[8] - 10) ** 2 + (x[9] - 7) ** 2 + 45)
    g = [
        -(105 - 4 * x[0] - 5 * x[1] + 3 * x[6] - 9 * x[7]),
        -(-10 * x[0] + 8 * x[1] + 17 * x[6] - 2 * x[7]),
        -(8 * x[0] - 2 * x[1] - 5 * x[8] + 2 * x[9] + 12),
        -(-3 * (x[0] - 2) ** 2 - 4 * (x[1] - 3) ** 2 - 2 * x[2] ** 2 + 7 * x[3] + 120),
        -(-5 * x[0] ** 2 - 8 * x[1] - (x[2] - 6) ** 2 + 2 * x[3] + 40),
        -(-x[0] ** 2 - 2 * (x[1] - 2) ** 2 + 2 * x[0] * x[1] - 14 * x[4] + 6 * x[5]),
        -(-0.5 * (x[0] - 8) ** 2 - 2 * (x[1] - 4) ** 2 - 3 * x[4] ** 2 + x[5] + 30),
        -(3 * x[0] - 6 * x[1] - 12 * (x[8] - 8) ** 2 + 7 * x[9]),
    ]
    return f, g, []


# name, function, lower, upper, f* (Hock & Schittkowski's published optimum)
PROBLEMS = [
    ("HS6", hs6, [-10.0] * 2, [10.0] * 2, 0.0),
    ("HS12", hs12, [-10.0] * 2, [10.0] * 2, -30.0),
    ("HS27", hs27, [-10.0] * 3, [10.0] * 3, 0.04),
    ("HS29", hs29, [-10.0] * 3, [10.0] * 3, -16 * math.sqrt(2)),
    ("HS35", hs35, [0.0] * 3, [3.0] * 3, 1 / 9),
    ("HS43", hs43, [-10.0] * 4, [10.0] * 4, -44.0),
    ("HS65", hs65, [-4.5, -4.5, -5.0], [4.5, 4.5, 5.0], 0.9535288567),
    ("HS71", hs71, [1.0] * 4, [5.0] * 4, 17.0140173),
    ("HS76", hs76, [0.0] * 4, [5.0] * 4, -4.681818181),
    ("HS80", hs80, [-2.3, -2.3, -3.2, -3.2, -3.2], [2.3, 2.3, 3.2, 3.2, 3.2], 0.0539498478),
    ("HS100", hs100, [-10.0] * 7, [10.0] * 7, 680.6300573),
    ("HS113", hs113, [-10.0] * 10, [10.0] * 10, 24.3062091),
]


class Spent(Exception):
    """The budget is spent."""


class Counted:
    """f, g and h of each distinct point evaluated once and counted; the first
    evaluation at which each target was reached noted; `Spent` raised beyond the budget."""

    def __init__(self, fun, f_star, budget):
        self.fun, self.f_star, self.budget = fun, f_star, budget
        self.cache, self.count = {}, 0
        self.first = {t: None for t in TARGETS}
        self.best = math.inf

    def values(self, x):
        key = tuple(float(v) for v in x)
        hit = self.cache.get(key)
        if hit is None:
            if self.count >= self.budget:
                raise Spent
            f, g, h = self.fun(list(key))
            self.count += 1
            if all(v <= FEASIBLE for v in g) and all(abs(v) <= FEASIBLE for v in h):
                self.best = min(self.best, f)
                gap = (f - self.f_star) / max(1.0, abs(self.f_star))
                for t in TARGETS:
                    if self.first[t] is None and gap <= t:
                        self.first[t] = self.count
            hit = (float(f), np.asarray(g, dtype=float), np.asarray(h, dtype=float))
            self.cache[key] = hit
        return hit


def start(lo, hi, seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(lo, hi), rng


def run_slsqp(fun, lo, hi, f_star, budget, seed, _options):
    from scipy.optimize import minimize

    c = Counted(fun, f_star, budget)
    probe = fun(list(lo))
    cons = []
    if probe[1]:
        cons.append({"type": "ineq", "fun": lambda x: -c.values(x)[1]})
    if probe[2]:
        cons.append({"type": "eq", "fun": lambda x: c.values(x)[2]})
    x0, rng = start(lo, hi, seed)
    try:
        while c.count < budget:
            minimize(lambda x: c.values(x)[0], x0, method="SLSQP", bounds=list(zip(lo, hi)),
                     constraints=cons, options={"maxiter": 10 * budget, "ftol": 1e-12})
            x0 = rng.uniform(lo, hi)
    except Spent:
        pass
    return c


def run_emages(fun, lo, hi, f_star, budget, seed, options):
    import emages

    c = Counted(fun, f_star, budget)
    probe = fun(list(lo))
    kw = {}
    if probe[1]:
        kw["ineq"] = lambda x: c.values(x)[1]
    if probe[2]:
        kw["eq"] = lambda x: c.values(x)[2]
    x0, _ = start(lo, hi, seed)
    try:
        emages.minimize(lambda x: c.values(x)[0], x0, bounds=list(zip(lo, hi)), seed=seed,
                        budget=budget, history=False, options=options, **kw)
    except Spent:
        pass
    return c


SOLVERS = {"emages": run_emages, "slsqp": run_slsqp}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--options", type=json.loads, default=None)
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--json", help="write every run's record (JSON lines) here")
    ap.add_argument("solvers", nargs="*", default=["emages", "slsqp"])
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    records = []
    for solver in args.solvers:
        for per_dim in (100, 1000):
            t0 = time.process_time()
            reached, total, below, to_hit = 0, 0, [], []
            for name, fun, lo, hi, f_star in PROBLEMS:
                n = len(lo)
                hits, firsts = 0, []
                for seed in range(1, args.seeds + 1):
                    c = SOLVERS[solver](fun, np.array(lo), np.array(hi), f_star, per_dim * n,
                                        seed, args.options)
                    if c.best < f_star - 1e-6 * max(1.0, abs(f_star)):
                        raise SystemExit(f"{name}: feasible f {c.best!r} below f* {f_star!r}")
                    hits += sum(v is not None for v in c.first.values())
                    if c.first[1e-6] is not None:
                        firsts.append(c.first[1e-6])
                    records.append({"solver": solver, "options": args.options, "budget": per_dim * n,
                                    "problem": name, "seed": seed, "evaluations": c.count,
                                    "first": {str(t): v for t, v in c.first.items()},
                                    "best": c.best})
                reached += hits
                total += len(TARGETS) * args.seeds
                if hits < len(TARGETS) * args.seeds:
                    below.append(f"{name} {hits}/{len(TARGETS) * args.seeds}")
                med = f"{np.median(firsts):g}" if firsts else "—"
                to_hit.append(f"{name} {med} ({len(firsts)}/{args.seeds})")
            print(f"{solver} at {per_dim}·n: {reached / total:.3f} of {total} targets "
                  f"({time.process_time() - t0:.1f} s CPU); below: {', '.join(below) or 'none'}")
            print(f"  evaluations to the 1e-6 target (median, runs): {'; '.join(to_hit)}", flush=True)
    if args.json:
        with open(args.json, "w") as fh:
            for r in records:
                fh.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
