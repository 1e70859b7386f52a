"""The same seed gives the same run, bit for bit, whatever the way in: a Python run
of a suite problem repeats the committed Rust study's records; callables, vectorised
or not, and ask-and-tell repeat the Rust-only run."""

import numpy as np
import pytest

import emages
from conftest import ROOT, jsonl


def committed_records(problems, runs=(0, 1)):
    rows = jsonl(ROOT / "results" / "ablation-D10-seed1" / "runs.jsonl.gz")
    return [r for r in rows if r["problem"] in problems and r["run"] in runs]


@pytest.mark.parametrize("variant", ["eps-mag-es", "lex-ma-es"])
def test_a_python_run_repeats_the_committed_rust_study(cec_data, variant):
    """Three problems × two runs of the committed N = 10 study (Haswell kernels, as
    the package loads them): the best and all three checkpoints, to the bit."""
    if emages.kernel() != "Haswell":
        pytest.skip(f"the committed study ran OpenBLAS's Haswell kernels, this CPU runs {emages.kernel()}")
    rows = [r for r in committed_records({1, 7, 27}) if r["config"] == variant]
    assert len(rows) == 6
    for r in rows:
        p = emages.Cec2017(r["problem"], 10, data=cec_data)
        assert emages.run_seed(1, variant, r["problem"], 10, r["run"]) == r["seed"]
        wanted = [c["evals"] for c in r["checkpoints"]]
        asked = [20_000, 100_000, 200_000]
        res = emages.minimize(p, variant=variant, seed=r["seed"], budget=r["budget"],
                              options={**emages.NO_CONVERGENCE, "checkpoints": asked},
                              history=False)
        assert (res.fun, res.violation) == (r["best_f"], r["best_violation"]), r
        assert res.evaluations == r["evals"] and res.nit == r["generations"]
        got = [(c[0], c[1], c[2]) for c in res.checkpoints]
        assert got == [(c["evals"], c["f"], c["violation"]) for c in r["checkpoints"]], r
        assert [c[0] for c in got] == wanted
    print(f"checked {len(rows)} committed {variant} runs")


def callables(p):
    """The problem as Python callables, the way the strategy evaluates it natively: a
    population in one batch, a single (repaired) point alone."""

    def values(X):
        if len(X) == 1:
            f, g, h, _ = p.evaluate(X[0])
            return np.array([f]), g[None, :], h[None, :]
        f, g, h, _ = p.evaluate_batch(X)
        return f, g, h

    return values


@pytest.mark.parametrize("variant", ["eps-mag-es", "eps-sag-es", "lex-mag-es"])
def test_callables_and_ask_tell_repeat_the_native_run(cec_data, variant):
    p = emages.Cec2017(6, 10, data=cec_data)  # C06: 6 equalities, repair active
    kw = dict(variant=variant, seed=11, budget=30_000)
    native = emages.minimize(p, **kw)
    values = callables(p)
    # Vectorised, separate callables (the Jacobian probes ask only g and h).
    vec = emages.minimize(lambda X: values(X)[0], ineq=lambda X: values(X)[1],
                          eq=lambda X: values(X)[2], vectorized=True,
                          bounds=list(zip(p.lower, p.upper)), **kw)
    # One joint callable per point.
    def joint(x):
        f, g, h = values(np.asarray(x)[None, :])
        return f[0], g[0], h[0]
    single = emages.minimize(joint, bounds=list(zip(p.lower, p.upper)), **kw)
    # Ask and tell.
    es = emages.AskTell(dim=10, n_ineq=p.n_ineq, n_eq=p.n_eq, bounds=list(zip(p.lower, p.upper)), **kw)
    while (req := es.ask()) is not None:
        f, g, h = values(req.points)
        es.tell(req, None if req.constraints_only else f, ineq=g, eq=h)
    asked = es.result()
    for other in (vec, single, asked):
        assert np.array_equal(other.x, native.x)
        assert (other.fun, other.violation, other.nit) == (native.fun, native.violation, native.nit)
        for key in ("fun", "violation", "sigma", "epsilon"):
            assert np.array_equal(other.history[key], native.history[key], equal_nan=True), key
    # f and g are counted apart: the repair's probes are g evaluations only.
    assert vec.ngev == native.evaluations
    assert vec.nfev <= vec.ngev
    assert (asked.nfev, asked.ngev) == (vec.nfev, vec.ngev)


def test_a_users_problem_is_solved_and_repeatable():
    def f(x):
        return float((x - 1) @ (x - 1))

    kw = dict(x0=[3.0, -2.0, 0.5, 0.0], sigma0=0.5, ineq=lambda x: [x.sum() - 2],
              eq=lambda x: [x[0] - x[1]], budget=40_000, seed=3)
    a, b = emages.minimize(f, **kw), emages.minimize(f, **kw)
    assert a.feasible and abs(a.fun - 1.0) < 1e-3, a
    assert np.array_equal(a.x, b.x) and a.history["fun"].tobytes() == b.history["fun"].tobytes()
    # It stops once a restart confirms the best, before the budget.
    assert a.seed == 3 and (a.status, a.termination) == (0, "confirmed") and a.evaluations < 40_000


def test_stochastic_ranking_repeats_by_seed_whatever_the_way_in(cec_data):
    """Stochastic ranking (``ranking=stochastic``): its coin flips come from the run's
    seed, so the same seed repeats the run — native, through callables, or ask and
    tell — and another seed gives another run."""
    p = emages.Cec2017(6, 10, data=cec_data)
    kw = dict(variant="eps-mag-es:ranking=stochastic", budget=20_000)
    a, b = emages.minimize(p, seed=5, **kw), emages.minimize(p, seed=5, **kw)
    assert a.history["fun"].tobytes() == b.history["fun"].tobytes()
    assert (a.fun, a.violation) == (b.fun, b.violation)
    other = emages.minimize(p, seed=6, **kw)
    assert other.history["fun"].tobytes() != a.history["fun"].tobytes()
    eps = emages.minimize(p, seed=5, variant="eps-mag-es", budget=20_000)
    assert eps.history["fun"].tobytes() != a.history["fun"].tobytes()
    values = callables(p)
    es = emages.AskTell(dim=10, n_ineq=p.n_ineq, n_eq=p.n_eq, bounds=list(zip(p.lower, p.upper)), seed=5, **kw)
    while (req := es.ask()) is not None:
        f, g, h = values(req.points)
        es.tell(req, None if req.constraints_only else f, ineq=g, eq=h)
    asked = es.result()
    assert np.array_equal(asked.x, a.x) and asked.fun == a.fun


@pytest.mark.parametrize("restarts", ["ipop", "bipop", "ipop:polish=50%"])
def test_restarts_run_from_python_whatever_the_way_in(cec_data, restarts):
    """A variant with restarts runs its restart sequence from Python — natively, through
    callables and by ask and tell, the same runs for the same seed — and reports each run
    in ``restarts``, their evaluations adding up to the budget spent."""
    p = emages.Cec2017(1, 10, data=cec_data)
    # To the budget: the restart sequence's runs and its polishing end, all of them.
    kw = dict(variant=f"eps-mag-es:restarts={restarts}", budget=60_000,
              options={**emages.NO_CONVERGENCE, "t_max": 50})
    a = emages.minimize(p, seed=9, **kw)
    assert len(a.restarts) >= 2, a.restarts
    assert sum(r["evaluations"] for r in a.restarts) == a.evaluations
    assert a.restarts[0]["lambda"] == 40 and a.restarts[0]["large"]
    assert [r["start"] for r in a.restarts[1:]] == list(
        np.cumsum([r["evaluations"] for r in a.restarts])[:-1])
    assert min((r["violation"], r["fun"]) for r in a.restarts) == (a.violation, a.fun)
    if restarts == "ipop":
        assert [r["lambda"] for r in a.restarts] == [40 * 2**k for k in range(len(a.restarts))]
        assert not any(r["polish"] for r in a.restarts)
    elif restarts == "bipop":
        assert any(not r["large"] for r in a.restarts)
    else:
        # Once half the budget is spent, every run polishes the best with λ = 40, T = 1.
        polish = [r["polish"] for r in a.restarts]
        assert polish == [r["start"] >= 30_000 for r in a.restarts] and any(polish), a.restarts
        assert all((r["lambda"], r["t_max"]) == (40, 1) for r in a.restarts if r["polish"])
    # Through callables and ask-and-tell, the same runs.
    values = callables(p)
    via = emages.minimize(lambda X: values(X)[0], ineq=lambda X: values(X)[1],
                          eq=lambda X: values(X)[2], vectorized=True, seed=9,
                          bounds=list(zip(p.lower, p.upper)), **kw)
    es = emages.AskTell(dim=10, n_ineq=p.n_ineq, n_eq=p.n_eq, bounds=list(zip(p.lower, p.upper)), seed=9, **kw)
    while (req := es.ask()) is not None:
        f, g, h = values(req.points)
        es.tell(req, None if req.constraints_only else f, ineq=g, eq=h)
    asked = es.result()
    for other in (via, asked):
        assert other.restarts == a.restarts
        assert np.array_equal(other.x, a.x) and other.fun == a.fun
    # Without restarts the list is empty.
    assert emages.minimize(p, seed=9, variant="eps-mag-es", budget=20_000).restarts == []
