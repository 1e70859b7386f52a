#!/usr/bin/env python3
"""Reference points of COCO's bbob-constrained suite from cocoex, in the format of
../shared/fixtures/bbob-constrained/vectors.jsonl (see ../shared/fixtures/README.md),
for instances and points the shared fixtures do not cover:

    pip install coco-experiment==2.8.2
    python3 scripts/bbob-constrained/vectors.py --instances 3-14 --points 3 --seed 7 > /tmp/vectors.jsonl
    BBOB_CONSTRAINED_VECTORS=/tmp/vectors.jsonl cargo test --release -p bbob-constrained --test reference_vectors

Per problem: the initial solution, and --points points uniform in [-5, 5]^n (seeded).
Not part of the Rust build or its tests.
"""
import argparse
import json
import random

import cocoex


def ranges(text):
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instances", default="3-14")
    ap.add_argument("--dimensions", default="2,3,5,10,20,40")
    ap.add_argument("--points", type=int, default=2)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    suite = cocoex.Suite(
        "bbob-constrained",
        "instances: " + ",".join(map(str, ranges(args.instances))),
        "dimensions: " + args.dimensions,
    )
    for problem in suite:
        n = problem.dimension
        x0 = list(problem.initial_solution)
        points = [x0] + [[rng.uniform(-5, 5) for _ in range(n)] for _ in range(args.points)]
        for x in points:
            print(json.dumps({
                "id": problem.id,
                "function": problem.id_function,
                "instance": problem.id_instance,
                "dim": n,
                "constraints": problem.number_of_constraints,
                "x": x,
                "f": problem(x),
                "g": list(problem.constraint(x)),
                "initial_solution": x0,
            }))


if __name__ == "__main__":
    main()
