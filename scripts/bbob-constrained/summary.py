#!/usr/bin/env python3
"""Summary tables of bbob-constrained results in COCO's format (no cocopp needed).

    python3 scripts/bbob-constrained/summary.py \
        --alg "εMAg-ES=results/bbob-constrained/emages/coco/eps-mag-es" \
        --alg "AL-CMA-ES=results/bbob-constrained/alcmaes" \
        --times "εMAg-ES=results/bbob-constrained/emages/D*/runs.jsonl*" \
        --times "AL-CMA-ES=results/bbob-constrained/alcmaes/*/times.jsonl" > summary.md

For every run (a block of a `.dat` file) the cost at which each of cocopp's 41 ECDF
targets for this suite Δ = 10^2, 10^1.8, …, 10^-6 (cocopp's CONSBBOBTestbed; the
unconstrained bbob goes to 10^-8) is first reached, the cost being COCO's count of
f + g evaluations (cocopp's default weights) and Δ the best-so-far of
max(f, f_opt) + Σ max(g_i, 0) minus f_opt. Per dimension: the fraction of (function,
instance, target) triples reached within 10²·n, 10³·n and 10⁴·n (`--budgets`; the ECDF of the
runtimes over all functions, read at those budgets; every function weighs alike), the
same per objective type at 10⁴·n, the functions on which each algorithm reaches more
targets at 10⁴·n, and the median wall time per run. Folders are searched recursively
(as cocopp does), hidden ones (an unfinished `.staging`) left out; `.gz` records are
read as well.
"""

import argparse
import collections
import glob
import gzip
import json
import os
import re
import statistics
import sys

TARGETS = [10 ** (2 - 0.2 * k) for k in range(41)]  # cocopp: 10 ** np.arange(2, -6.2, -0.2)
TYPES = ["sphere", "separable ellipsoid", "linear slope", "rotated ellipsoid", "discus",
         "bent cigar", "different powers", "separable Rastrigin", "rotated Rastrigin"]


def instances_of(root, files):
    """{path of a .dat file: [instance of each of its blocks, in order]}, from the
    `.info` files beside it (each line `data_fF/bbobexp_fF_DIMn.dat, I:evals|Δ, …`)."""
    out = {}
    for name in files:
        if not name.endswith(".info"):
            continue
        with open(os.path.join(root, name)) as fh:
            for line in fh:
                parts = [p.strip() for p in line.split(",")]
                if not parts[0].endswith(".dat"):
                    continue
                dat = os.path.normpath(os.path.join(root, parts[0]))
                out.setdefault(dat, []).extend(int(p.split(":")[0]) for p in parts[1:] if ":" in p)
    return out


def runs_of(folder):
    """{(dim, function): [first-hit costs per target, one list per run]}."""
    return without_instances(instance_runs_of(folder))


def without_instances(runs):
    """`instance_runs_of`'s runs with the instances dropped, as `runs_of` gives them."""
    return {k: [h for _i, h in rs] for k, rs in runs.items()}


def instance_runs_of(folder):
    """{(dim, function): [(instance, first-hit costs per target), one per run]}; the
    instance is None where no `.info` file names it."""
    out = collections.defaultdict(list)
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]  # unfinished work (.staging)
        for name in files:
            if name.endswith(".info"):
                # The .info files name the instances of the .dat files they point to
                # (here or in a data_fF folder below).
                for dat, inst in instances_of(root, [name]).items():
                    INSTANCES.setdefault(dat, []).extend(inst)
        for name in files:
            m = re.fullmatch(r"bbobexp_f(\d+)_DIM(\d+)\.dat", name)
            if not m:
                continue
            function, dim = int(m.group(1)), int(m.group(2))
            path = os.path.normpath(os.path.join(root, name))
            with open(path) as fh:
                blocks = fh.read().split("% f evaluations")[1:]
            names = INSTANCES.get(path, [])
            for i, block in enumerate(blocks):
                hits = [None] * len(TARGETS)
                for line in block.splitlines()[1:]:
                    parts = line.split()
                    if len(parts) < 3:
                        continue
                    cost = int(parts[0]) + int(parts[1])
                    delta = float(parts[2])
                    for k, t in enumerate(TARGETS):
                        if hits[k] is None and delta <= t:
                            hits[k] = cost
                out[(dim, function)].append((names[i] if i < len(names) else None, hits))
    return out


#: The instances of every .dat file read so far (`runs_of` fills it from the .info files,
#: which os.walk meets before or beside the data folders they point to).
INSTANCES = {}


def common_runs(data):
    """Every algorithm's runs restricted to the (dimension, function, instance) triples
    all of them ran: {name: {(dim, function): [hits, …]}}."""
    keys = None
    for runs in data.values():
        mine = {(d, f, i) for (d, f), rs in runs.items() for i, _ in rs}
        if None in {i for (_d, _f, i) in mine}:
            sys.exit("--common: a run without its instance (no .info file beside the .dat)")
        keys = mine if keys is None else keys & mine
    out = {}
    for name, runs in data.items():
        out[name] = {k: [h for i, h in rs if (k[0], k[1], i) in keys] for k, rs in runs.items()}
        out[name] = {k: v for k, v in out[name].items() if v}
    return out, len(keys or ())


def fraction(runs, budget):
    if not runs:
        return float("nan")
    reached = sum(1 for hits in runs for h in hits if h is not None and h <= budget)
    return reached / (len(runs) * len(TARGETS))


def times_of(patterns):
    """{dim: [seconds per run]} from runs.jsonl records or times.jsonl lines.

    A pattern `GLOB#CONFIG` keeps the runs.jsonl records of that configuration (label)
    only; without it, those of `eps-mag-es`."""
    out = collections.defaultdict(list)
    for spec in patterns:
        pattern, _, config = spec.partition("#")
        config = config or "eps-mag-es"
        for path in glob.glob(pattern):
            opener = gzip.open if path.endswith(".gz") else open
            with opener(path, "rt") as fh:
                for line in fh:
                    r = json.loads(line)
                    if "config" in r and r.get("config") != config:
                        continue
                    out[r["dim"]].append(r["seconds"])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--alg", action="append", required=True, help="NAME=FOLDER")
    ap.add_argument("--times", action="append", default=[], help="NAME=GLOB[#CONFIG]")
    ap.add_argument("--common", action="store_true",
                    help="only the (dimension, function, instance) problems every algorithm ran "
                         "(e.g. beside a peer run on a subset)")
    ap.add_argument("--budgets", default="100,1000,10000",
                    help="the budgets of the first table, in evaluations per dimension "
                         "(e.g. 10,100 beside a solver run to 10²·n)")
    args = ap.parse_args()
    try:
        budgets = [int(b) for b in args.budgets.split(",")]
    except ValueError:
        ap.error(f"--budgets takes integers separated by commas, not {args.budgets!r}")
    if not budgets or min(budgets) <= 0:
        ap.error("--budgets takes positive integers")
    algs = [a.split("=", 1) for a in args.alg]
    data = {name: instance_runs_of(folder) for name, folder in algs}
    if args.common:
        data, count = common_runs(data)
        print(f"Restricted to the {count} (dimension, function, instance) problems every algorithm ran (--common).\n")
    else:
        data = {name: {k: [h for _i, h in rs] for k, rs in runs.items()} for name, runs in data.items()}
    times = collections.defaultdict(list)
    for t in args.times:
        name, pattern = t.split("=", 1)
        times[name].append(pattern)
    wall = {name: times_of(p) for name, p in times.items()}
    dims = sorted({d for runs in data.values() for (d, _f) in runs})
    functions = sorted({f for runs in data.values() for (_d, f) in runs})

    print("### Targets reached (fraction of function × instance × target, 41 targets 10² … 10⁻⁶, as cocopp's ECDFs)\n")
    head = "| n | algorithm | runs | " + " | ".join(f"{budget_name(b)}·n" for b in budgets) + " | median s / run |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for d in dims:
        for name, _ in algs:
            per_f = [data[name].get((d, f), []) for f in functions]
            runs = sum(len(r) for r in per_f)
            if runs == 0:
                continue
            cells = []
            for b in budgets:
                vals = [fraction(r, b * d) for r in per_f if r]
                cells.append(f"{sum(vals) / len(vals):.3f}")
            w = wall.get(name, {}).get(d)
            t = f"{statistics.median(w):.3g}" if w else "–"
            print(f"| {d} | {name} | {runs} | " + " | ".join(cells) + f" | {t} |")
    print()

    print("### At 10⁴·n, per objective type (six functions each: 1, 2, 6, 6 + n/2, 6 + n, 6 + 3n constraints)\n")
    head = "| type | " + " | ".join(f"n = {d}: " + " / ".join(n for n, _ in algs) for d in dims) + " |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for k, type_name in enumerate(TYPES):
        fs = [f for f in functions if (f - 1) // 6 == k]
        cells = []
        for d in dims:
            vals = []
            for name, _ in algs:
                v = [fraction(data[name].get((d, f), []), 10_000 * d) for f in fs
                     if data[name].get((d, f))]
                vals.append(f"{sum(v) / len(v):.2f}" if v else "–")
            cells.append(" / ".join(vals))
        print(f"| {type_name} (f{6 * k + 1}–f{6 * k + 6}) | " + " | ".join(cells) + " |")
    print()

    if len(algs) == 2:
        (a, _), (b, _) = algs
        print(f"### Functions on which each reaches more targets at 10⁴·n ({a} / {b} / tie)\n")
        print("| n | " + f"{a} | {b} | tie |")
        print("|---|---|---|---|")
        for d in dims:
            wins = [0, 0, 0]
            for f in functions:
                ra, rb = data[a].get((d, f)), data[b].get((d, f))
                if not ra or not rb:
                    continue
                fa, fb = fraction(ra, 10_000 * d), fraction(rb, 10_000 * d)
                wins[0 if fa > fb + 1e-12 else 1 if fb > fa + 1e-12 else 2] += 1
            print(f"| {d} | {wins[0]} | {wins[1]} | {wins[2]} |")
    return 0


def budget_name(b):
    """10² for 100, 10³ for 1000, …; other budgets as they are."""
    k = len(str(b)) - 1
    return f"10{sup(k)}" if b == 10 ** k and k > 0 else str(b)


def sup(k):
    return str(k).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))


if __name__ == "__main__":
    sys.exit(main())
