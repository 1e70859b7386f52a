"""The code blocks of docs/python.md run as written, in order, in one namespace."""

import contextlib
import io
import os
import re

import emages
from conftest import ROOT, jsonl


def test_the_python_guide_runs(cec_data, monkeypatch):
    text = (ROOT / "docs" / "python.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 5, "the guide's examples"
    monkeypatch.setenv("CEC2017_DATA_DIR", cec_data)
    namespace: dict = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for block in blocks:
            exec(compile(block, "docs/python.md", "exec"), namespace)
    printed = out.getvalue()
    assert "| C05 |" in printed and namespace["res"].feasible
    # The CEC2017 block says it repeats the committed N = 10 study: its table is the
    # CEC statistics of that study's 25 runs of εMAg-ES on C01–C05 (Haswell kernels).
    if emages.kernel() == "Haswell":
        rows = jsonl(ROOT / "results" / "ablation-D10-seed1" / "runs.jsonl.gz")
        for k in range(1, 6):
            runs = sorted((r for r in rows if r["config"] == "eps-mag-es" and r["problem"] == k),
                          key=lambda r: r["run"])
            assert len(runs) == 25
            s = emages.cec_statistics([r["best_f"] for r in runs], [r["best_violation"] for r in runs])
            line = (f"| C{k:02} | {s['best']:.3e} | {s['median']:.3e} | {s['mean']:.3e} | {s['std']:.3e} "
                    f"| {s['worst']:.3e} | {s['fr']:.0%} | {s['vio']:.1e} |")
            assert line in printed, (line, printed)
    assert namespace["t"].method in ("exact", "approximate")
    print(f"ran {len(blocks)} code blocks of docs/python.md")
