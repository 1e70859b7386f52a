#!/usr/bin/env python3
"""Per generation, in one run (not a test): `emages.minimize` (vectorised numpy
callables), `emages.AskTell` (the user's loop, as docs/python.md writes it) and pycma's
ask-and-tell (`cma.CMAEvolutionStrategy`, the same numpy objective, its own λ), at
N = 10 and 100, on the sphere with one linear inequality (x₁ + … + x_N ≥ 1).

    pip install ./crates/emages-py cma        # or the wheel
    python3 scripts/python/per_generation.py [--generations 300] > per-generation.md

Medians of three runs; microseconds per generation and per evaluated point; wall time
on one core (OpenBLAS pinned to one thread, the kernel printed).
"""
import argparse
import os
import statistics
import time
import warnings

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np  # noqa: E402

import emages  # noqa: E402


def sphere(X):
    return (X ** 2).sum(axis=1)


def half_space(X):
    return 1 - X.sum(axis=1, keepdims=True)


def run_minimize(n, generations, seed):
    t = time.perf_counter()
    res = emages.minimize(sphere, x0=np.full(n, 2.0), sigma0=0.5, ineq=half_space, vectorized=True,
                          variant="eps-mag-es-r", seed=seed, budget=10 ** 9, history=False,
                          options={**emages.NO_CONVERGENCE, "maxiter": generations})
    return time.perf_counter() - t, res.nit, res.evaluations


def run_asktell(n, generations, seed):
    es = emages.AskTell(dim=n, n_ineq=1, x0=np.full(n, 2.0), sigma0=0.5, variant="eps-mag-es-r", seed=seed,
                        budget=10 ** 9, history=False, options={**emages.NO_CONVERGENCE, "maxiter": generations})
    t = time.perf_counter()
    while not es.stop():
        req = es.ask()
        X = req.points
        es.tell(req, None if req.constraints_only else sphere(X), ineq=half_space(X))
    res = es.result()
    return time.perf_counter() - t, res.nit, res.evaluations


def run_pycma(n, generations, seed):
    import cma

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        es = cma.CMAEvolutionStrategy(np.full(n, 2.0), 0.5, {"seed": seed + 1, "verbose": -9,
                                                             "maxiter": generations, "tolfun": 0,
                                                             "tolx": 0, "tolstagnation": 10 ** 9})
        t = time.perf_counter()
        evaluations = 0
        while not es.stop():
            X = np.array(es.ask())
            # The constraint as a penalty (pycma's ask/tell has no constraints of its own).
            f = sphere(X) + 1e6 * np.maximum(half_space(X)[:, 0], 0) ** 2
            es.tell(list(X), f.tolist())
            evaluations += len(X)
        return time.perf_counter() - t, es.countiter, evaluations


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--generations", type=int, default=300)
    args = ap.parse_args()
    import cma

    print(f"emages {emages.__version__}, OpenBLAS kernel {emages.kernel()}; pycma {cma.__version__}; "
          f"{args.generations} generations, medians of 3 runs\n")
    print("| N | way | λ | µs / generation | µs / point |")
    print("|---|---|---|---|---|")
    for n in (10, 100):
        for name, fn in (("emages.minimize (vectorised)", run_minimize), ("emages.AskTell loop", run_asktell),
                         ("pycma ask/tell", run_pycma)):
            rows = [fn(n, args.generations, seed) for seed in (1, 2, 3)]
            per_gen = statistics.median(t / g * 1e6 for t, g, _ in rows)
            per_point = statistics.median(t / e * 1e6 for t, _, e in rows)
            lam = round(statistics.median(e / g for _, g, e in rows))
            print(f"| {n} | {name} | {lam} | {per_gen:.0f} | {per_point:.1f} |")


if __name__ == "__main__":
    main()
