#!/usr/bin/env python3
"""The peer beside εMAg-ES on bbob-constrained: pycma's augmented-Lagrangian CMA-ES
(`cma.fmin_con2`, default settings) through cocoex, writing COCO's files.

    pip install coco-experiment cma
    python3 scripts/bbob-constrained/alcmaes.py --dims 2,3,5,10,20 --instances 1-5 \
        --out results/bbob-constrained/alcmaes [--batch 1/4]

As COCO's own example experiment runs pycma: start at the problem's initial solution
with σ₀ = 2, restart (pycma's IPOP: doubled population) while budget is left, and a
budget of `--budget-multiplier · n` evaluations of f and g together (fmin_con2
evaluates both for every candidate: `maxfevals` is half of it). Without the restarts a
default run stops long before the budget (at n = 2 after ≈ 10 % of it). Each
(dimension, batch) writes its own folder below `--out` (cocopp reads them as one
algorithm); a finished one is skipped when the command is run again, an unfinished one
is started over. Per problem the wall time and evaluation counts go to `times.jsonl`.
Not part of the Rust build or its tests.
"""

import argparse
import json
import os
import shutil
import sys
import time
import warnings


def ranges(text):
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dims", default="2,3,5,10,20")
    ap.add_argument("--functions", default="1-54")
    ap.add_argument("--instances", default="1-15")
    ap.add_argument("--budget-multiplier", type=int, default=10_000,
                    help="budget in f + g evaluations per dimension")
    ap.add_argument("--sigma0", type=float, default=2.0)
    ap.add_argument("--batch", default="1/1", help="I/N: every N-th problem from the I-th")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    import cma
    import cocoex
    import numpy as np

    index, count = (int(v) for v in args.batch.split("/"))
    functions, instances = ranges(args.functions), ranges(args.instances)
    os.makedirs(args.out, exist_ok=True)
    for dim in ranges(args.dims):
        name = f"D{dim}-batch{index}of{count}"
        folder = os.path.join(args.out, name)
        done = os.path.join(folder, ".done")
        if os.path.exists(done):
            print(f"{name}: done before, skipped", flush=True)
            continue
        shutil.rmtree(folder, ignore_errors=True)
        suite = cocoex.Suite(
            "bbob-constrained", "",
            # COCO's own range syntax ("1-54"): its option string has a fixed length
            # limit that a spelled-out list of 54 functions and 10 instances exceeds.
            f"dimensions: {dim} function_indices: {args.functions} "
            f"instance_indices: {args.instances}")
        # cocoex writes below ./exdata: chdir so that the folder lands where we want it.
        cwd = os.getcwd()
        staging = os.path.join(args.out, ".staging")
        os.makedirs(staging, exist_ok=True)
        os.chdir(staging)
        try:
            shutil.rmtree(os.path.join("exdata", name), ignore_errors=True)
            observer = cocoex.Observer(
                "bbob-constrained",
                f"result_folder: {name} algorithm_name: AL-CMA-ES "
                f"algorithm_info: \"pycma {cma.__version__} fmin_con2, default settings, "
                f"sigma0 {args.sigma0}, budget {args.budget_multiplier} x n f+g evaluations\"")
            times = []
            start_dim = time.time()
            for k, problem in enumerate(suite):
                if k % count != index - 1:
                    continue
                problem.observe_with(observer)
                f_id, inst = problem.id_function, problem.id_instance
                seed = 100_000 * dim + 1000 * f_id + inst
                t0 = time.time()
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    cma.fmin_con2(
                        problem, problem.initial_solution, args.sigma0,
                        constraints=problem.constraint,
                        options={"maxfevals": args.budget_multiplier * dim // 2,
                                 "verbose": -9, "seed": seed},
                        restarts={"maxfevals": args.budget_multiplier * dim // 2})
                times.append({"function": f_id, "instance": inst, "dim": dim,
                              "seconds": time.time() - t0,
                              "f_evaluations": int(problem.evaluations),
                              "g_evaluations": int(problem.evaluations_constraints),
                              "final_target_hit": bool(problem.final_target_hit)})
                problem.free()
            observer = None  # flushes the files
            del suite
        finally:
            os.chdir(cwd)
        shutil.move(os.path.join(staging, "exdata", name), folder)
        with open(os.path.join(folder, "times.jsonl"), "w") as fh:
            for t in times:
                fh.write(json.dumps(t) + "\n")
        open(done, "w").close()
        print(f"{name}: {len(times)} runs in {time.time() - start_dim:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
