"""`minimize` and `AskTell` stop once converged: the convergence criteria
are on by default, settable in ``options``, and the result says why (``status``,
``message``); ``emages.NO_CONVERGENCE`` runs to the budget."""

import numpy as np
import pytest

import emages


def rosen_suzuki(x):
    """Rosen–Suzuki (Hock & Schittkowski 43): f* = -44 at (0, 1, 2, -1)."""
    x1, x2, x3, x4 = x
    return float(x1 * x1 + x2 * x2 + 2 * x3 * x3 + x4 * x4 - 5 * x1 - 5 * x2 - 21 * x3 + 7 * x4)


def rosen_suzuki_g(x):
    x1, x2, x3, x4 = x
    return [
        x1 * x1 + x2 * x2 + x3 * x3 + x4 * x4 + x1 - x2 + x3 - x4 - 8,
        x1 * x1 + 2 * x2 * x2 + x3 * x3 + 2 * x4 * x4 - x1 - x4 - 10,
        2 * x1 * x1 + x2 * x2 + x3 * x3 + 2 * x1 - x2 - x4 - 5,
    ]


def solve(**kw):
    return emages.minimize(rosen_suzuki, x0=[0.0] * 4, sigma0=1.0, ineq=rosen_suzuki_g,
                           budget=20_000, history=False, **kw)


@pytest.mark.parametrize("variant, options", [
    ("eps-mag-es-r", {}),
    # The paper's ε phase (T = 1000 generations of λ = 16) would outlast this budget.
    ("eps-mag-es", {"t_max": 100}),
])
def test_minimize_stops_once_converged_and_says_why(variant, options):
    for seed in range(3):
        r = solve(variant=variant, seed=seed, options=options or None)
        assert r.status == 0 and r.termination in ("tol_fun", "tol_x", "stagnation", "confirmed"), r
        assert r.evaluations < 20_000, r
        assert r.success and abs(r.fun + 44.0) < 1e-6, r
        full = solve(variant=variant, seed=seed, options={**emages.NO_CONVERGENCE, **options})
        assert (full.status, full.termination) == (1, "budget")
        assert full.evaluations >= 20_000
        print(f"{variant} seed {seed}: {r.termination} after {r.evaluations} evaluations, f = {r.fun!r}")


def test_each_criterion_is_an_option():
    r = solve(seed=1, options={"target": -43.99})
    assert (r.status, r.termination) == (0, "target") and r.fun <= -43.99
    r = solve(seed=1, variant="eps-mag-es", options={**emages.NO_CONVERGENCE, "t_max": 100, "tol_x": 1e-6})
    assert r.termination == "tol_x"
    r = solve(seed=1, variant="eps-mag-es", options={**emages.NO_CONVERGENCE, "t_max": 100, "stagnation": 5})
    assert r.termination == "stagnation"
    # max_generations (scipy's maxiter) is the whole run's number of generations.
    r = solve(seed=1, variant="eps-mag-es", options={"max_generations": 30, **emages.NO_CONVERGENCE})
    assert (r.status, r.termination, r.nit) == (1, "generation limit", 30)
    with pytest.raises(ValueError, match="tol_fun"):
        solve(seed=1, options={"tol_fun": -1.0})
    with pytest.raises(ValueError, match="tolfun"):
        solve(seed=1, options={"tolfun": 1e-8})


def test_ask_and_tell_ends_once_converged():
    es = emages.AskTell(dim=4, x0=[0.0] * 4, sigma0=1.0, n_ineq=3, seed=2, budget=20_000)
    while (req := es.ask()) is not None:
        X = req.points
        f = None if req.constraints_only else np.array([rosen_suzuki(x) for x in X])
        es.tell(req, f, ineq=np.array([rosen_suzuki_g(x) for x in X]))
    r = es.result()
    assert r.status == 0 and r.evaluations < 20_000 and abs(r.fun + 44.0) < 1e-6, r
    assert r.x == pytest.approx(solve(seed=2).x, abs=0.0)


def test_the_variant_string_sets_criteria_too():
    off = solve(seed=3, variant="eps-mag-es-r:tol-fun=0:tol-x=0:stagnation=0")
    to_budget = solve(seed=3, variant="eps-mag-es-r", options=emages.NO_CONVERGENCE)
    assert (off.termination, off.fun, off.evaluations) == (to_budget.termination, to_budget.fun, to_budget.evaluations)
    assert solve(seed=3, variant="eps-mag-es-r:target=-43.9").termination == "target"
