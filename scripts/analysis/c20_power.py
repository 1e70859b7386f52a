#!/usr/bin/env python3
"""Power of the signed-rank test on C20 at N = 100 (docs/reproduction.md, "The C20
column at N = 100"): for the three variants that tie with εMAg-ES, shift the variant's
25 final f values down by δ (after removing the measured mean difference), redraw the
25 pairs with replacement (400 studies, seed 2017) and count how often MATLAB's
signrank finds the variant better at α = 0.05.

    python3 scripts/analysis/c20_power.py 'results/ablation-D100/runs.shard-*.jsonl.gz'

Needs the Python package (`pip install ./crates/emages-py`) for `emages.signrank`.
"""

import glob
import gzip
import json
import random
import statistics
import sys

import emages


def final_f(pattern):
    out = {}
    for path in glob.glob(pattern):
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt") as fh:
            for line in fh:
                r = json.loads(line)
                if r["problem"] == 20:
                    f = r["best"]["objective"] if "best" in r else r["best_f"]
                    out.setdefault(r["variant"], {})[r["run"]] = f
    return out


def main():
    data = final_f(sys.argv[1])
    base = [data["eps-mag-es"][i] for i in range(25)]
    rng = random.Random(2017)
    for variant in ("eps-mag-es-nl", "eps-sag-es", "lex-mag-es"):
        other = [data[variant][i] for i in range(25)]
        measured = statistics.mean(other) - statistics.mean(base)
        print(f"{variant}: mean f difference (variant − εMAg-ES) {measured:.3f}")
        for delta in (0.25, 0.5, 0.75, 1.0, 1.5):
            hits = 0
            for _ in range(400):
                idx = [rng.randrange(25) for _ in range(25)]
                x = [base[i] for i in idx]
                y = [other[i] - measured - delta for i in idx]
                better = statistics.median(y) < statistics.median(x)
                hits += emages.signrank(x, y).p < 0.05 and better
            share = 100 * delta / statistics.median(base)
            print(f"   δ = {delta:.2f} ({share:.1f} % of f): power {hits / 400:.2f}")


if __name__ == "__main__":
    main()
