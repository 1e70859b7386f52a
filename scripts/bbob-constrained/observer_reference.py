#!/usr/bin/env python3
"""Reference output of COCO's bbob observer for a fixed sequence of evaluated points,
against which tests/coco_observer.rs checks the harness's COCO writer:

    pip install coco-experiment==2.8.2
    python3 scripts/bbob-constrained/observer_reference.py tests/fixtures/coco-observer

Writes DIR/points.jsonl (per problem: function, dimension, instance and the points, in
evaluation order; each point is evaluated as the harness does: the constraints, then
the objective) and DIR/exdata/ (cocoex's observer output, algorithm name "SEQ").
"""
import json
import os
import random
import shutil
import sys

import cocoex

PROBLEMS = [(1, 2, 1), (1, 2, 2), (14, 3, 2), (38, 5, 1), (49, 10, 3)]


def main():
    out = sys.argv[1]
    rng = random.Random(2026)
    os.makedirs(out, exist_ok=True)
    cwd = os.getcwd()
    work = os.path.join(out, "_work")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    os.chdir(work)
    observer = cocoex.Observer("bbob", "result_folder: ref algorithm_name: SEQ algorithm_info: fixed-sequence")
    records = []
    for f, d, i in PROBLEMS:
        suite = cocoex.Suite("bbob-constrained", f"instances: {i}", f"function_indices: {f} dimensions: {d}")
        problem = next(iter(suite))
        problem.observe_with(observer)
        x0 = list(problem.initial_solution)
        randoms = [[rng.uniform(-5, 5) for _ in range(d)] for _ in range(60)]
        target = randoms[0]
        # then towards the initial solution and beyond it towards the origin of the box
        line = [[a + (b - a) * t / 40 for a, b in zip(target, x0)] for t in range(1, 41)]
        shrink = [[v * 0.9 ** k for v in x0] for k in range(1, 41)]
        points = [x0] + randoms + line + shrink
        for x in points:
            problem.constraint(x)
            problem(x)
        problem.free()
        records.append({"function": f, "dim": d, "instance": i, "points": points})
    del observer
    os.chdir(cwd)
    shutil.rmtree(os.path.join(out, "exdata"), ignore_errors=True)
    shutil.move(os.path.join(work, "exdata", "ref"), os.path.join(out, "exdata"))
    shutil.rmtree(work)
    with open(os.path.join(out, "points.jsonl"), "w") as fh:
        for r in records:
            fh.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
