#!/usr/bin/env python3
"""What the Python boundary costs, measured in one run (not a test):

1. a whole CEC2017 run driven from Python with the problem evaluated in Rust
   (``emages.minimize(emages.Cec2017(...))``) beside the same run from Rust (the
   ``single_run`` example of ma-es: same problem, seed, configuration, and the same
   result, checked);
2. the cost per generation with a numpy objective and constraint, vectorised (one call
   per population) and per point, beside pycma's ``fmin_con2`` (augmented Lagrangian,
   per-point calls, its own population size) on the same problem.

    pip install ./crates/emages-py cma
    cargo build --release -p ma-es --example single_run
    python3 scripts/python/bench.py [--repeat 5] > bench.md

Medians of ``--repeat`` runs; wall time on one core (OpenBLAS pinned to one thread).
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

import emages

ROOT = Path(__file__).resolve().parents[2]


def rust_run(problem, dim, seed, data):
    exe = ROOT / "target" / "release" / "examples" / "single_run"
    env = dict(os.environ, CEC2017_DATA_DIR=data, OPENBLAS_CORETYPE="Haswell")
    out = subprocess.run([str(exe), str(problem), str(dim), "eps-mag-es", str(seed)],
                         capture_output=True, text=True, env=env, check=True).stdout
    m = re.search(r"f = (\S+), ν̄ = (\S+), (\d+) evaluations, (\d+) generations, (\S+) s", out)
    return float(m.group(1)), float(m.group(2)), int(m.group(4)), float(m.group(5))


def python_run(problem, dim, seed, data, history):
    p = emages.Cec2017(problem, dim, data=data)
    t = time.perf_counter()
    res = emages.minimize(p, variant="eps-mag-es", seed=seed, history=history)
    return res.fun, res.violation, res.nit, time.perf_counter() - t


def median_of(f, repeat):
    runs = [f() for _ in range(repeat)]
    return runs[0], statistics.median(r[-1] for r in runs)


def numpy_problem(n):
    """min Σ x_i² s.t. 1 − mean(x) ≤ 0 and x_1 − x_2 − 1 ≤ 0, in [−5, 5]^n."""
    def f_vec(X):
        return np.einsum("ij,ij->i", X, X)

    def g_vec(X):
        return np.stack([1.0 - X.mean(axis=1), X[:, 0] - X[:, 1] - 1.0], axis=1)

    def f_one(x):
        return float(x @ x)

    def g_one(x):
        return np.array([1.0 - x.mean(), x[0] - x[1] - 1.0])

    return f_vec, g_vec, f_one, g_one


def per_generation(n, budget, repeat):
    f_vec, g_vec, f_one, g_one = numpy_problem(n)
    x0 = np.full(n, 3.0)
    bounds = [(-5.0, 5.0)] * n
    rows = []

    def ours(vectorized):
        def run():
            t = time.perf_counter()
            res = emages.minimize(f_vec if vectorized else f_one, x0=x0, sigma0=1.0,
                                  ineq=g_vec if vectorized else g_one, bounds=bounds,
                                  vectorized=vectorized, budget=budget, seed=1, history=False,
                                  variant="eps-mag-es")
            dt = time.perf_counter() - t
            return res.fun, res.nit, 4 * n, dt / res.nit
        return run

    def theirs():
        import cma
        t = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _, es = cma.fmin_con2(f_one, x0, 1.0, constraints=g_one,
                                  options={"maxfevals": budget, "verbose": -9, "seed": 1,
                                           "bounds": [-5, 5]})
        dt = time.perf_counter() - t
        best = getattr(es.best_feasible, "f", None)
        return (float("nan") if best is None else best), es.countiter, es.sp.popsize, dt / max(es.countiter, 1)

    for name, run in (("emages, vectorised", ours(True)), ("emages, per point", ours(False)),
                      ("pycma fmin_con2", theirs)):
        first, med = median_of(run, repeat)
        rows.append((name, first, med))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--data", default=os.environ.get("CEC2017_DATA_DIR", str(ROOT.parent / "shared/cec2017/text")))
    args = ap.parse_args()
    print(f"OpenBLAS kernel: {emages.kernel()}; medians of {args.repeat} runs\n")
    print("### A whole CEC2017 run, from Python (problem in Rust) and from Rust\n")
    print("| problem | N | generations | Rust s | Python s (history off) | ratio | Python s (history on) | ratio | same result |")
    print("|---|---|---|---|---|---|---|---|---|")
    for problem, dim in ((1, 10), (7, 10), (21, 10), (1, 100), (7, 100)):
        seed = 1
        (rf, rv, rg, _), rt = median_of(lambda: rust_run(problem, dim, seed, args.data), args.repeat)
        (pf, pv, pg, _), pt = median_of(lambda: python_run(problem, dim, seed, args.data, False), args.repeat)
        _, ht = median_of(lambda: python_run(problem, dim, seed, args.data, True), args.repeat)
        same = f"{pf:.6e}" == f"{rf:.6e}" and pg == rg
        print(f"| C{problem:02} | {dim} | {rg} | {rt:.3f} | {pt:.3f} | {pt / rt:.3f} | {ht:.3f} | {ht / rt:.3f} | {'yes' if same else 'NO'} |")
    print("\n### Per generation with numpy callables (min Σx² s.t. two linear constraints)\n")
    print("| N | budget | optimizer | λ | generations | f | µs per generation | µs per point |")
    print("|---|---|---|---|---|---|---|---|")
    for n, budget in ((10, 40_000), (100, 400_000)):
        rows = per_generation(n, budget, args.repeat if n == 10 else max(1, args.repeat // 2))
        for name, (fbest, nit, lam, _), med in rows:
            print(f"| {n} | {budget} | {name} | {lam} | {nit} | {fbest:.4g} | {med * 1e6:.1f} | {med * 1e6 / lam:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
