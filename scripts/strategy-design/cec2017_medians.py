#!/usr/bin/env python3
"""The median run of every configuration on every CEC2017 problem of some run record
files (`runs.jsonl`, `.jsonl.gz`, shards), as a Markdown table: the objective of the
median run in the CEC order (feasible runs by f, then infeasible ones by the mean
violation ν̄, shown in brackets), a count in brackets where a configuration has fewer
than 25 runs of the problem.

    python3 scripts/strategy-design/cec2017_medians.py [--problems 3,18] FILE...

Columns are the configurations in label order, named by what they change from
εMAg-ES-R (`R`) where they share its restarts; design log, entry 21.
"""
import argparse
import collections
import gzip
import json

R = ":restarts=bipop:stall=range:eps-end=10%:polish=50%"


def short(config):
    c = config.replace("+jacobian=exact", "")
    if c.endswith(R):
        c = c[: -len(R)].replace("eps-mag-es", "R", 1)
    return c.replace("R:", "R + ", 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--problems", help="e.g. 3,18,22 (default: every problem in the files)")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    # A run is its configuration, problem and index: the baseline's runs, repeated in
    # several studies with the same seeds, count once.
    runs = collections.defaultdict(dict)
    for name in args.files:
        opener = gzip.open if name.endswith(".gz") else open
        with opener(name, "rt") as f:
            for line in f:
                r = json.loads(line)
                runs[(short(r["config"]), r["problem"])][r["run"]] = (
                    r["best"]["violation"],
                    r["best"]["objective"],
                )
    configs = sorted({c for c, _ in runs})
    problems = (
        [int(p) for p in args.problems.split(",")]
        if args.problems
        else sorted({p for _, p in runs})
    )
    print("| problem | " + " | ".join(f"`{c}`" for c in configs) + " |")
    print("|---|" + "---:|" * len(configs))
    for p in problems:
        cells = []
        for c in configs:
            v = sorted(runs[(c, p)].values())
            if len(v) < 25:
                cells.append(f"({len(v)} runs)")
                continue
            nu, f = v[12]
            cells.append(f"{f:.4g}" + (f" (ν̄ {nu:.1e})" if nu > 0 else ""))
        print(f"| C{p:02d} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
