"""Per-problem medians of a CEC2020 study against a baseline study.

    python3 scripts/strategy-design/compare_cec2020_medians.py STUDY_DIR [BASELINE_DIR [STUDY_NAME BASELINE_NAME]]

Reads STUDY_DIR/D*/runs*.jsonl[.gz] and BASELINE_DIR (default: eps-MAg-ES-R's committed
black-box runs, results/strategy-design/test-sets/cec2020); prints a Markdown table of
the problems with 25 runs in both: feasible runs, the median run (feasible runs first,
then f; as the competition ranks runs), and which median is better. The columns are
named STUDY_NAME and BASELINE_NAME (default: "exact" and "black box", the comparison
this script was written for). A crude view beside the competition's score
(examples/cec2020_rw.rs --score).
"""
import glob
import gzip
import json
import sys


def load(dirpat):
    # A run is its problem and index: a group's plain file and its compressed copy
    # (both present while a study still runs) hold the same runs, counted once.
    runs = {}
    for f in glob.glob(dirpat):
        op = gzip.open if f.endswith(".gz") else open
        for line in op(f, "rt"):
            r = json.loads(line)
            runs[(r["problem"], r["run"])] = r
    out = {}
    for (problem, _), r in sorted(runs.items()):
        out.setdefault(problem, []).append(r)
    return out


def key(r):
    return (r["best"]["violation"], r["best"]["objective"])


def med(rs):
    v, f = key(sorted(rs, key=key)[len(rs) // 2])
    return ("%.6g" % f) if v == 0 else ("ν̄ %.1e" % v)


new = load(sys.argv[1] + "/D*/runs*.jsonl*")
base = sys.argv[2] if len(sys.argv) > 2 else "results/strategy-design/test-sets/cec2020"
name, base_name = (sys.argv[3], sys.argv[4]) if len(sys.argv) > 4 else ("exact", "black box")
old = load(base + "/D*/runs*.jsonl*")
print(
    f"| problem | D | feasible runs: {base_name} / {name} | median: {base_name} | median: {name} | better median |"
)
print("|---|---:|---:|---:|---:|---|")
tally = {name: 0, "=": 0, base_name: 0}
for k in sorted(new):
    a = new[k]
    b = old.get(k, [])
    if len(a) < 25 or len(b) < 25:
        continue
    ka = key(sorted(a, key=key)[12])
    kb = key(sorted(b, key=key)[12])
    if ka == kb or (ka[0] == kb[0] == 0 and abs(ka[1] - kb[1]) <= 1e-9 * max(1, abs(kb[1]))):
        w = "="
    elif ka < kb:
        w = name
    else:
        w = base_name
    tally[w] += 1
    feasible = lambda rs: sum(r["best"]["violation"] == 0 for r in rs)
    print(
        f"| RC{k:02} | {a[0]['dim']} | {feasible(b)} / {feasible(a)} | {med(b)} | {med(a)} | {w} |"
    )
print()
print(f"{name} better / equal / worse by the median:", tally[name], "/", tally["="], "/", tally[base_name])
