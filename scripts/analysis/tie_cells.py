#!/usr/bin/env python3
"""The N = 100 cells of Table 2 where the paper's variant beats εMAg-ES and ours ties
(docs/reproduction.md, "Ties here, wins in the paper"), over independent seeds: for
every cell, the verdict of the CEC comparison (signed-rank test, α = 0.05, the total
of the median and mean rules, as in Table 2) in each study, and how often the variant
wins.

    python3 scripts/analysis/tie_cells.py > results/tie-cells-D100/tie_cells.md
    python3 scripts/analysis/tie_cells.py 'seed 1=results/ablation-D100/runs.shard-*.jsonl.gz' \\
        'seed 2=results/tie-cells-D100/seed2/runs.jsonl.gz' ...

Without arguments it reads the committed studies: seed 1, the N = 100 ablation, and
seeds 2–4 of the cells' variants and problems (results/tie-cells-D100/seed{2,3,4}/,
`ablation --dim 100 --seed S --problems 5,10,13,22,26 --variants
eps-mag-es,lex-mag-es,eps-mag-es-nl`, Haswell).

Each argument is NAME=GLOB of runs files. A second table pools the studies' pairs (run i of
εMAg-ES with run i of the variant, 25 per study) and asks two questions of one 25-run
study drawn from them (the pairs redrawn with replacement, 2000 studies, seed 2017):
how often it gives the paper's "−" as the pairs are (the chance that a study of this
implementation shows the paper's verdict), and how large a shift of the variant's f
towards "better" it needs to show "−" in 80 % of studies (the power of one study such
as the paper's), beyond the measured median difference, in robust standard deviations
(1.4826 × the median absolute deviation) of the paired difference. Needs the Python package
(`pip install ./crates/emages-py`) for `emages.cec_compare` and `emages.signrank`.
"""

import glob
import gzip
import json
import random
import statistics
import sys
from pathlib import Path

import emages

# (variant, problem, the paper's Table 2 verdict at N = 100)
CELLS = [
    ("lex-mag-es", 5, "−"),
    ("lex-mag-es", 10, "−"),
    ("lex-mag-es", 22, "−"),
    ("lex-mag-es", 26, "−"),
    ("eps-mag-es-nl", 5, "−"),
    ("eps-mag-es-nl", 13, "−"),
]
SIGN = {1: "+", 0: "=", -1: "−"}
DRAWS = 2000


def load(pattern):
    runs = {}
    files = sorted(glob.glob(pattern))
    if not files:
        sys.exit(f"no files match {pattern}")
    for path in files:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt") as fh:
            for line in fh:
                r = json.loads(line)
                if "best" in r:  # format 4
                    f, v = r["best"]["objective"], r["best"]["violation"]
                else:  # the older records of results/ablation-D100-cooperlake
                    f, v = r["best_f"], r["best_violation"]
                runs.setdefault((r["variant"], r["problem"]), {})[r["run"]] = (f, v)
    return runs


ROOT = Path(__file__).resolve().parents[2]
COMMITTED = [f"seed 1={ROOT}/results/ablation-D100/runs.shard-*.jsonl.gz"] + [
    f"seed {s}={ROOT}/results/tie-cells-D100/seed{s}/runs.jsonl.gz" for s in (2, 3, 4)
]


def main():
    studies = []
    for arg in sys.argv[1:] or COMMITTED:
        name, _, pattern = arg.partition("=")
        studies.append((name, load(pattern)))
    print("| variant | problem | paper | " + " | ".join(n for n, _ in studies) + " | variant wins |")
    print("|---|---|---|" + "---|" * len(studies) + "---|")
    for variant, problem, paper in CELLS:
        cells, wins, measured = [], 0, 0
        for _, runs in studies:
            base, other = runs.get(("eps-mag-es", problem)), runs.get((variant, problem))
            if not base or not other or len(base) != 25 or len(other) != 25:
                cells.append("–")
                continue
            bf, bv = zip(*(base[i] for i in range(25)))
            vf, vv = zip(*(other[i] for i in range(25)))
            total = emages.cec_compare(list(bf), list(bv), list(vf), list(vv))["total"]
            # The tests behind the verdict (docs/algorithm.md §6): f, and ν̄ where a run is
            # infeasible (a ν̄ tie leaves f to decide).
            p_f = emages.signrank(list(bf), list(vf)).p
            text = f"p_f = {p_f:.2f}"
            if max(bv) > 0 or max(vv) > 0:
                text += f", p_ν̄ = {emages.signrank(list(bv), list(vv)).p:.2f}"
            shift = statistics.median(vf) - statistics.median(bf)
            cells.append(f"{SIGN[total]} ({text}; Δ median f {shift:+.2g})")
            wins += total < 0
            measured += 1
        print(
            f"| {variant} | C{problem:02d} | {paper} | "
            + " | ".join(cells)
            + f" | {wins} of {measured} |"
        )
    pooled_table(studies)


def pairs(studies, variant, problem):
    """All (εMAg-ES, variant) run pairs of the studies, each a ((f, ν̄), (f, ν̄))."""
    out = []
    for _, runs in studies:
        base, other = runs.get(("eps-mag-es", problem)), runs.get((variant, problem))
        if base and other and len(base) == 25 and len(other) == 25:
            out.extend((base[i], other[i]) for i in range(25))
    return out


def minus_rate(pooled, shift, rng):
    """The share of redrawn 25-pair studies whose verdict is "−", with the variant's f
    lowered by `shift`."""
    hits = 0
    for _ in range(DRAWS):
        draw = [pooled[rng.randrange(len(pooled))] for _ in range(25)]
        bf = [b[0] for b, _ in draw]
        bv = [b[1] for b, _ in draw]
        vf = [v[0] - shift for _, v in draw]
        vv = [v[1] for _, v in draw]
        hits += emages.cec_compare(bf, bv, vf, vv)["total"] < 0
    return hits / DRAWS


def pooled_table(studies):
    rng = random.Random(2017)
    print()
    print(
        "| variant | problem | pairs | median paired f difference (variant − εMAg-ES) | robust sd (1.4826 MAD) | "
        "\"−\" in one study drawn as the pairs are | shift for \"−\" in 80 % of studies |"
    )
    print("|---|---|---|---|---|---|---|")
    for variant, problem, _ in CELLS:
        pooled = pairs(studies, variant, problem)
        if not pooled:
            continue
        d = [v[0] - b[0] for b, v in pooled]
        mid = statistics.median(d)
        # A robust spread: the runs' outliers (a diverged nl run) would dominate the sd.
        sd = 1.4826 * statistics.median(abs(x - mid) for x in d)
        as_is = minus_rate(pooled, 0.0, rng)
        needed = "> 3 sd"
        for k in (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0, 1.2, 1.5, 2.0, 3.0):
            if minus_rate(pooled, mid + k * sd, rng) >= 0.8:
                needed = f"{k:.1f} sd ({k * sd:.2g})"
                break
        print(
            f"| {variant} | C{problem:02d} | {len(pooled)} | {mid:+.2g} | {sd:.2g} | "
            f"{100 * as_is:.1f} % | {needed} |"
        )


if __name__ == "__main__":
    main()
