"""The measures of `minimize`'s default on small smooth problems, as a user runs
it: Rosen–Suzuki (4-D, f* = −44) from x0 = 0 with sigma0 = 1 at the budgets 5 000,
20 000 and 200 000, and the tension/compression spring and the pressure vessel
(variables scaled to [0, 1], started at the box's centre) at the default budget; seeds
1–10. "Hit" is the first evaluation of a point with every g <= 0 and
f − f* <= tol · max(1, |f*|) (tol 1e-6 for Rosen–Suzuki, 1e-4 for the design problems,
as docs/python.md quotes them); "stop" the evaluations the run used. Run with the package
installed:

    python scripts/python/default_classic.py [--options JSON] [VARIANT …]

(default: `emages.DEFAULT_VARIANT`, and "eps-mag-es-r");
`--options '{"sqp_second_order_correction": true}'` passes `options` to every run.
The problems are those of scripts/local-phase/scipy_peers.py (imported from there).
"""

import importlib.util
import json
import pathlib
import sys
import time

import numpy as np

import emages

_HERE = pathlib.Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("scipy_peers", _HERE.parent / "local-phase" / "scipy_peers.py")
peers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(peers)


class Counted:
    """The problem's `(f, g)` with the evaluations counted and the first hit noted."""

    def __init__(self, problem, f_star, tol):
        self.problem, self.f_star, self.tol = problem, f_star, tol
        self.evaluations, self.hit = 0, None

    def __call__(self, x):
        f, g, _ = self.problem(list(x))
        self.evaluations += 1
        if self.hit is None and max(g) <= 0 and f - self.f_star <= self.tol * max(1.0, abs(self.f_star)):
            self.hit = self.evaluations
        return float(f), np.asarray(g, dtype=float)


def spread(values):
    if not values:
        return "—"
    v = sorted(values)
    return f"{v[0]} / {np.median(v):g} / {v[-1]}"


def measure(variant, label, problem, f_star, tol, budgets, options=None, **kw):
    for budget in budgets:
        t = time.perf_counter()
        hits, used, terminations = [], [], {}
        for seed in range(1, 11):
            counted = Counted(problem, f_star, tol)
            r = emages.minimize(counted, seed=seed, budget=budget, history=False, variant=variant,
                                options=options, **kw)
            used.append(r.evaluations)
            if counted.hit is not None:
                hits.append(counted.hit)
            terminations[r.termination] = terminations.get(r.termination, 0) + 1
        why = ", ".join(f"{k} {v}" for k, v in sorted(terminations.items()))
        print(f"| {label} | {variant} | {budget} | {np.median(used):g} | {why} | {len(hits)}/10 | "
              f"{spread(hits)} |  ({time.perf_counter() - t:.1f} s)", flush=True)


def main():
    args = sys.argv[1:]
    options = None
    if args[:1] == ["--options"]:
        options, args = json.loads(args[1]), args[2:]
    variants = args or [emages.DEFAULT_VARIANT, "eps-mag-es-r"]
    if options is not None:
        print(f"options: {options}")
    print(f"emages {emages.__version__}, kernel {emages.kernel()}, default {emages.DEFAULT_VARIANT}")
    print("| problem | variant | budget | evaluations to stop (median) | stopped by | solved | hit min / median / max |")
    print("|---|---|---|---|---|---|---|")
    for variant in variants:
        measure(variant, "Rosen–Suzuki", peers.rosen_suzuki, -44.0, 1e-6, [5_000, 20_000, 200_000],
                options=options, x0=np.zeros(4), sigma0=1.0)
        for name, fun, lo, hi, f_star, _ in peers.PROBLEMS:
            if name in ("spring", "pressure-vessel"):
                n = len(lo)
                measure(variant, name, fun, f_star, 1e-4, [20_000 * n], options=options,
                        bounds=list(zip(lo, hi)))


if __name__ == "__main__":
    main()
