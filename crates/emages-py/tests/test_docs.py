"""The code blocks of docs/python.md run as written, in order, in one namespace."""

import contextlib
import io
import os
import re

from conftest import ROOT


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
    assert namespace["t"].method in ("exact", "approximate")
    print(f"ran {len(blocks)} code blocks of docs/python.md")
