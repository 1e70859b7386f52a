"""The shared reference fixtures through the Python API: the CEC2017,
bbob-constrained and CEC2020 real-world vectors (single and batch evaluation) and the
statistics cases."""

from collections import defaultdict

import numpy as np
import pytest

import emages
from conftest import jsonl, shared


def rel(a, b):
    return abs(a - b) / max(1.0, abs(a), abs(b))


def test_cec2017_reference_vectors(cec_data):
    rows = jsonl(shared("CEC2017_VECTORS", "fixtures/vectors/cec2017_reference.jsonl"))
    by_problem = defaultdict(list)
    for r in rows:
        by_problem[(r["problem"], r["dim"])].append(r)
    checked = 0
    for (k, n), cases in by_problem.items():
        p = emages.Cec2017(k, n, data=cec_data)
        X = np.array([c["x"] for c in cases])
        F, G, H, V = p.evaluate_batch(X)
        for j, c in enumerate(cases):
            f, g, h, v = p.evaluate(c["x"])
            want_g, want_h = c["g"][: p.n_ineq], c["h"][: p.n_eq]
            for got_f, got_g, got_h in ((f, g, h), (F[j], G[j], H[j])):
                assert rel(got_f, c["f"]) <= 1e-9, (k, n, j, got_f, c["f"])
                assert all(rel(a, b) <= 1e-9 for a, b in zip(got_g, want_g)), (k, n, j)
                assert all(rel(a, b) <= 1e-9 for a, b in zip(got_h, want_h)), (k, n, j)
            assert v == V[j] or abs(v - V[j]) <= 1e-9 * max(1.0, v)
            checked += 1
    assert checked == len(rows) > 0
    print(f"checked {checked} CEC2017 reference points (single and batch)")


def test_bbob_constrained_reference_vectors():
    rows = jsonl(shared("BBOB_CONSTRAINED_VECTORS", "fixtures/bbob-constrained/vectors.jsonl"))
    by_problem = defaultdict(list)
    for r in rows:
        by_problem[(r["function"], r["dim"], r["instance"])].append(r)
    checked = 0
    for (fn, n, i), cases in by_problem.items():
        p = emages.BbobConstrained(fn, n, i)
        assert p.id == cases[0]["id"] and p.n_ineq == cases[0]["constraints"]
        assert p.initial_solution.tolist() == cases[0]["initial_solution"]
        X = np.array([c["x"] for c in cases])
        F, G, _, _ = p.evaluate_batch(X)
        for j, c in enumerate(cases):
            f, g, _, _ = p.evaluate(c["x"])
            assert rel(f, c["f"]) <= 1e-12 and F[j] == f
            assert all(rel(a, b) <= 1e-12 for a, b in zip(g, c["g"]))
            assert np.array_equal(G[j], g)
            checked += 1
        assert p.evaluations == (2 * len(cases), 2 * len(cases))
    assert checked == len(rows) > 0
    print(f"checked {checked} bbob-constrained reference points (single and batch)")


def test_cec2020_rw_reference_vectors():
    rows = jsonl(shared("CEC2020_RW_VECTORS", "fixtures/cec2020-rw/vectors.jsonl"))
    tol = {33: 1e-6}  # RC33 solves an ill-conditioned finite-element system

    def agree(ours, ref, k):
        if isinstance(ref, str):  # RC27's complex values outside its box: +inf here
            return ref.startswith("complex") and ours == np.inf
        if np.isnan(ref):
            return np.isnan(ours)
        if np.isinf(ref):
            return ours == ref
        return abs(ours - ref) <= tol.get(k, 1e-9) * max(1.0, abs(ref))

    checked = 0
    for r in rows:
        k = r["problem"]
        p = emages.Cec2020Rw(k)
        assert (p.dim, p.n_ineq, p.n_eq) == (r["dim"], len(r["g"]), len(r["h"])), k
        (f, g, h, _), (F, G, H, _) = p.evaluate(r["x"]), p.evaluate_batch(np.array([r["x"]]))
        for got_f, got_g, got_h in ((f, g, h), (F[0], G[0], H[0])):
            assert agree(got_f, r["f"], k), (k, r["kind"], got_f, r["f"])
            assert all(agree(a, b, k) for a, b in zip(got_g, r["g"])), (k, r["kind"])
            assert all(agree(a, b, k) for a, b in zip(got_h, r["h"])), (k, r["kind"])
        checked += 1
    assert checked == len(rows) > 0
    print(f"checked {checked} CEC2020 real-world reference points (single and batch)")


def test_cec2020_rw_problem_runs_in_rust():
    p = emages.Cec2020Rw(15)  # speed reducer, best known 2994.42
    assert (p.label, p.max_fes) == ("RC15", 100_000) and "speed reducer" in p.name.lower()
    res = emages.minimize(p, budget=p.max_fes, seed=1, history=False)
    assert res.feasible and res.fun < 1.01 * p.best_known
    with pytest.raises(ValueError, match="RC01 to RC57"):
        emages.Cec2020Rw(58)


def test_exact_jacobians_of_the_suites():
    """The Rust suites' exact Jacobians through Python: against central differences of
    the values, and taken by a run that stays in Rust."""
    for p in (emages.Cec2020Rw(4, jacobian=True), emages.Cec2017(3, 10, jacobian=True)):
        x = 0.5 * (p.lower + p.upper) + 0.1 * (p.upper - p.lower)
        jac = p.jacobian(x)
        assert jac.shape == (p.n_ineq + p.n_eq, p.dim)
        for j in range(p.dim):
            h = 1e-6 * max(1.0, abs(x[j]))
            up, down = x.copy(), x.copy()
            up[j] += h
            down[j] -= h
            cu = np.concatenate(p.evaluate(up)[1:3])
            cd = np.concatenate(p.evaluate(down)[1:3])
            d = (cu - cd) / (2 * h)
            assert np.allclose(jac[:, j], d, rtol=1e-5, atol=1e-5 * max(1.0, np.abs(cu).max())), (p, j)
    assert emages.Cec2020Rw(4).jacobian(np.ones(6)) is None
    with pytest.raises(ValueError):
        emages.Cec2020Rw(4, jacobian=True).jacobian(np.ones(5))
    p = emages.Cec2020Rw(15, jacobian=True)
    res = emages.minimize(p, budget=p.max_fes, seed=1, history=False)
    assert res.feasible and res.fun < 1.01 * p.best_known


def test_statistics_cases():
    d = "BENCH_STATS_FIXTURES"
    cases = jsonl(shared(d, "fixtures/stats/signrank.jsonl"))
    for c in cases:
        r = emages.signrank(c["x"], c["y"])
        assert abs(r.p - c["p"]) <= 1e-12 * max(abs(c["p"]), 1e-300), c
        assert (int(r.h), r.n, r.w_plus, r.statistic, r.method) == (
            c["h"], c["n_effective"], c["w_plus"], c["signed_rank"], c["method"]), c
    pairs = jsonl(shared(d, "fixtures/stats/pairwise_ranking.jsonl"))
    for c in pairs:
        b, s = c["baseline"], c["variant"]
        r = emages.cec_compare(b["f"], b["v"], s["f"], s["v"],
                               test="signed-rank" if c["significance"] else "none")
        assert (r["median"], r["mean"], r["total"]) == (c["median"], c["mean"], c["total"]), c
    stats = jsonl(shared(d, "fixtures/stats/cec_statistics.jsonl"))
    for c in stats:
        r = emages.cec_statistics(c["f"], c["v"], c["c"])
        assert list(r["median_c"]) == c["median_c"]
        for key in ("best", "median", "median_v", "mean", "std", "worst", "fr", "vio"):
            a, b = r[key], c[key]
            assert a == b or abs(a - b) <= 1e-12 * max(abs(a), abs(b)), (key, a, b)
    print(f"checked {len(cases)} signrank, {len(pairs)} ranking and {len(stats)} CEC statistics cases")
    assert cases and pairs and stats


def test_the_official_cec2017_data_is_compiled_in(cec_data, monkeypatch):
    """``Cec2017(k, N)`` with no folder uses the organisers' data compiled into the
    package: the same values as the shared text files, for all 28 problems in all
    four dimensions."""
    monkeypatch.delenv("CEC2017_DATA_DIR", raising=False)
    rng = np.random.default_rng(5)
    checked = 0
    for k in range(1, 29):
        for n in (10, 30, 50, 100):
            a, b = emages.Cec2017(k, n), emages.Cec2017(k, n, data=cec_data)
            assert a.instance == "official"
            x = rng.uniform(a.lower, a.upper, size=(3, n))
            for got, want in zip(a.evaluate_batch(x), b.evaluate_batch(x)):
                assert np.array_equal(got, want), (k, n)
            checked += 1
    print(f"compared {checked} problems of the compiled-in and the text data")
