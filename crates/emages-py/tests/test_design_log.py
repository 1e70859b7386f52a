"""The design log's first entry (docs/strategy-design.md) measured again: the first
user's problem — min x1² + x2² s.t. x1 + x2 >= 1 from (3, -2), sigma0 = 1 — over seeds
0-49, with the counts the log quotes. When the default changes (issue 34's goal: 50 of
50), this test and the log change together."""

import pytest

import emages
from conftest import ROOT


def failures(variant="eps-mag-es", **options):
    f = lambda x: float(x @ x)
    ineq = lambda x: [1.0 - x[0] - x[1]]
    bad = 0
    for seed in range(50):
        r = emages.minimize(f, x0=[3.0, -2.0], sigma0=1.0, ineq=ineq, seed=seed,
                            variant=variant, options=options or None, history=False)
        bad += not (r.feasible and r.fun - 0.5 <= 1e-6)
    return bad


@pytest.mark.parametrize("label, variant, options", [
    ("εMAg-ES (default; T = 1000, λ = 8)", "eps-mag-es", {}),
    ("lexMAg-ES (ε = 0 throughout)", "lex-mag-es", {}),
    ("T = 100", "eps-mag-es", {"t_max": 100}),
])
def test_the_first_users_problem_as_the_log_says(label, variant, options):
    if emages.kernel() != "Haswell":
        pytest.skip(f"the log's counts were measured with OpenBLAS's Haswell kernels, this CPU runs {emages.kernel()}")
    log = (ROOT / "docs" / "strategy-design.md").read_text()
    n = failures(variant, **options)
    assert f"| {label} | {n}/50 |" in log, (label, n)
