#!/usr/bin/env python3
"""Reference values of pycma's augmented Lagrangian for ma-es's
`AugmentedLagrangianRanking` (crates/ma-es/tests/augmented_lagrangian.rs).

Drives `cma.constraints_handler.AugmentedLagrangian` (default algorithm) the way
`cma.ConstrainedFitnessAL` does with ``which='best'`` — per generation: the penalised
fitness of every offspring with the current coefficients, then `set_coefficients` on the
population while not initialised, then `update` with the best offspring by that
fitness — on populations of a small ES on a sphere with three linear constraints (one
active at the optimum, one active early only, one never), and writes the populations
with pycma's ranking and coefficients after every generation:

    python3 scripts/reference/pycma_al.py > crates/ma-es/tests/data/pycma-augmented-lagrangian.json
"""

import json
import sys
import warnings

import numpy as np

warnings.filterwarnings("ignore")
import cma  # noqa: E402
from cma.constraints_handler import AugmentedLagrangian  # noqa: E402


def constraints(x):
    return [1.0 - x[0] - x[1],      # x0 + x1 >= 1: active at the optimum
            x[2] - 2.0 + 0.0 * x[0],  # x2 <= 2: violated at the start only
            -x[1] - 10.0]           # x1 >= -10: never active


def main():
    n, lam, generations = 3, 8, 80
    rng = np.random.default_rng(20261127)
    al = AugmentedLagrangian(n)
    al.logging = 0
    mean, sigma = np.array([-2.0, -1.0, 4.0]), 1.0
    steps = []
    for _ in range(generations):
        X = mean + sigma * rng.standard_normal((lam, n))
        F = [float(x @ x) for x in X]
        G = [constraints(x) for x in X]
        fitness = [f + sum(al(g)) for f, g in zip(F, G)]
        order = sorted(range(lam), key=lambda j: fitness[j])
        if not al.is_initialized and np.isfinite(F).all():
            al.set_coefficients(F, G)
        b = int(np.nanargmin(fitness))
        al.update(F[b], G[b])
        steps.append({"f": F, "g": [list(map(float, g)) for g in G], "ranking": order,
                      "gamma": list(map(float, al.lam)), "omega": list(map(float, al.mu))})
        mean = np.mean([X[j] for j in order[:3]], axis=0)
        sigma *= 0.97
    json.dump({"source": f"pycma {cma.__version__} AugmentedLagrangian, which='best'",
               "dim": n, "steps": steps}, sys.stdout, indent=0)
    print()


if __name__ == "__main__":
    main()
