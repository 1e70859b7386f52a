"""Two configurations' CEC2017 runs that share their seeds (e.g. the portfolio with and
without `:soc`, design log §33), compared problem by problem: how many runs are the same
(best violation and objective), and the Wilcoxon signed-rank test (α = 0.05) on the
paired runs' ranks in the pooled 50 (ordered by violation, then objective, as the CEC
ranks). Needs scipy.

    python scripts/analysis/paired_runs.py A.jsonl B.jsonl    # "better": A better
"""

import json
import sys

import numpy as np
from scipy.stats import wilcoxon


def load(path):
    runs = {}
    with open(path) as fh:
        for line in fh:
            r = json.loads(line)
            best = r["best"]
            runs.setdefault(r["problem"], {})[r["run"]] = (best["violation"], best["objective"], r["seed"])
    return runs


def main(a_path, b_path):
    a, b = load(a_path), load(b_path)
    if sorted(a) != sorted(b) or not a:
        sys.exit(f"error: the files hold different problems ({sorted(a)} against {sorted(b)})")
    counts = {"better": 0, "equal": 0, "worse": 0}
    same = total = 0
    for p in sorted(a):
        ra = [a[p][i] for i in sorted(a[p])]
        rb = [b[p][i] for i in sorted(b[p])]
        if len(ra) != len(rb) or any(x[2] != y[2] for x, y in zip(ra, rb)):
            sys.exit(f"error: problem {p}: the runs do not pair (seeds or counts differ)")
        same += sum(1 for x, y in zip(ra, rb) if x[:2] == y[:2])
        total += len(ra)
        pooled = sorted(ra + rb, key=lambda x: x[:2])
        rank = {}
        for i, x in enumerate(pooled):
            rank.setdefault(x[:2], i)
        da = np.array([rank[x[:2]] for x in ra], float)
        db = np.array([rank[x[:2]] for x in rb], float)
        verdict = "equal"
        if np.any(da != db) and wilcoxon(da, db).pvalue < 0.05:
            verdict = "better" if (da - db).sum() < 0 else "worse"
        counts[verdict] += 1
        if verdict != "equal":
            med = lambda r: sorted(r, key=lambda x: x[:2])[len(r) // 2][:2]
            print(f"C{p:02}: A {verdict}; median (ν̄, f) A {med(ra)}, B {med(rb)}")
    print(f"A better / equal / worse: {counts['better']} / {counts['equal']} / {counts['worse']} "
          f"of {len(a)} problems; identical runs {same} of {total}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
