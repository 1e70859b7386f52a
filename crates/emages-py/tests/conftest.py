"""Where the shared ground truth and the committed results are: the same environment
variables as the Rust tests, defaulting to ``../shared`` beside the checkout."""

import gzip
import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def shared(var: str, relative: str) -> Path:
    value = os.environ.get(var)
    return Path(value) if value else ROOT.parent / "shared" / relative


def jsonl(path: Path) -> list:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    assert rows, f"no records in {path}"
    return rows


@pytest.fixture(scope="session")
def cec_data() -> str:
    d = shared("CEC2017_DATA_DIR", "cec2017/text")
    assert d.is_dir(), f"CEC2017 instance data not found at {d} (set CEC2017_DATA_DIR)"
    return str(d)
