"""The statistics to compare optimizers: MATLAB's Wilcoxon tests and the CEC's
statistics and rankings, from the Rust core."""

from __future__ import annotations

from typing import NamedTuple, Optional, Sequence

import numpy as np

from ._core import _emages


class TestResult(NamedTuple):
    """A Wilcoxon test's outcome: the two-sided ``p``, ``h = p <= alpha``, ``w_plus``
    (W⁺, or the first sample's rank sum), MATLAB's ``statistic``, the ``n`` used, and
    the ``method`` (``"exact"`` or ``"approximate"``)."""

    p: float
    h: bool
    w_plus: float
    statistic: float
    n: int
    method: str


def signrank(x: Sequence[float], y: Sequence[float], alpha: float = 0.05) -> TestResult:
    """MATLAB's ``signrank(x, y)``: the two-sided Wilcoxon signed-rank test of paired
    samples (exact for up to 15 non-zero differences, else the normal approximation;
    ties and zeros within MATLAB's tolerance)."""
    return TestResult(**_emages._signrank(_reals(x), _reals(y), alpha))


def ranksum(x: Sequence[float], y: Sequence[float], alpha: float = 0.05) -> TestResult:
    """MATLAB's ``ranksum(x, y)``: the two-sided Wilcoxon rank-sum test."""
    return TestResult(**_emages._ranksum(_reals(x), _reals(y), alpha))


def cec_statistics(f: Sequence[float], v: Sequence[float], c: Optional[Sequence[Sequence[int]]] = None) -> dict:
    """The CEC statistics of one problem's runs from their final ``f``, mean violation
    ``v`` and (optionally) violated-constraint counts ``c = (c1, c2, c3)``: ``best``,
    ``median``, ``median_c``, ``median_v``, ``mean``, ``std``, ``worst``, the
    feasibility rate ``fr`` and the mean violation ``vio`` (runs ordered as the CEC
    orders them: feasible first, by ``f``; then by ``v``)."""
    counts = None if c is None else [tuple(int(k) for k in row) for row in c]
    return _emages._cec_statistics(_reals(f), _reals(v), counts)


def cec_compare(baseline_f, baseline_v, variant_f, variant_v, test: str = "signed-rank", alpha: float = 0.05) -> dict:
    """The CEC ranking of a variant against a baseline on one problem (the paper's
    Table 1 cells): ``median``, ``mean``, ``total`` in {+1, 0, −1} (+1: the baseline is
    better), with the significance ``test`` on f and ν̄ (``"signed-rank"``,
    ``"rank-sum"``, or ``"none"`` for the original CEC ranking)."""
    return _emages._cec_compare(_reals(baseline_f), _reals(baseline_v), _reals(variant_f), _reals(variant_v), test, alpha)


def _reals(v) -> list:
    a = np.asarray(v, dtype=float)
    if a.ndim != 1:
        raise ValueError(f"expected a 1-d sequence of numbers, got shape {a.shape}")
    return a.tolist()
