"""The solver contract from Python: ``minimize``'s default is Rust's recommended
strategy (``emages::recommended()``), point for point for the same seed; the one
termination table; the progress lines Rust prints."""

import numpy as np

import emages
from emages import _emages


def test_the_default_is_rusts_recommended_strategy_point_for_point():
    assert _emages.RECOMMENDED_PORTFOLIO == "portfolio"
    assert emages.DEFAULT_VARIANT == emages.PORTFOLIO
    compared = 0
    for seed, budget in ((1, 2_000), (5, 2_000), (9, 40)):
        seen = []

        def f(x):
            seen.append(tuple(x))
            return x[0] * x[0] + x[1] * x[1]

        res = emages.minimize(f, bounds=[(-5.0, 5.0)] * 2, ineq=lambda x: [1.0 - x[0] - x[1]],
                              seed=seed, budget=budget, history=False)
        rust, evaluations = _emages._recommended_half_plane(seed, budget)
        assert [tuple(p) for p in rust] == seen, f"seed {seed}"
        assert res.evaluations == evaluations and res.equality_margin == _emages.DEFAULT_EQUALITY_MARGIN
        compared += len(seen)
    assert compared > 100
    print(f"{compared} points the same, bit for bit")


def test_one_termination_table():
    names = [name for name, _, _ in _emages.TERMINATIONS]
    assert len(set(names)) == len(names)
    for name in ("budget", "stopped", "confirmed", "converged", "infeasible", "stalled"):
        assert name in names
    status = {name: s for name, s, _ in _emages.TERMINATIONS}
    assert status["confirmed"] == 0 and status["budget"] == 1 and status["infeasible"] == 3


def test_the_progress_lines_are_rusts(capsys):
    res = emages.minimize(lambda x: float(x @ x), bounds=[(-5.0, 5.0)] * 3, seed=2, budget=3_000,
                          options={"disp": 1})
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["Iter", "evals", "best", "f", "violation", "step", "phase", "run", "t[s]"]
    phases = {line.split()[5] for line in out[1:]}
    assert "local" in phases
    assert out[-1].split()[0] == str(res.nit)
    assert np.isfinite(res.fun)
