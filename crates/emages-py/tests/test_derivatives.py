"""scipy's ``jac`` and ``method``: the objective's gradient goes to the portfolio's local
phase (with the constraints' Jacobians, their own or by differences), the same run
whichever way it is given and evaluated; scipy's methods and ``hess`` are refused, and
a gradient or Jacobian that is not finite is an error naming where."""

import concurrent.futures

import numpy as np
import pytest
import scipy.optimize

import emages


def f(x):
    return x[0] ** 2 + x[1] ** 2 + 2 * x[2] ** 2 + x[3] ** 2 - 5 * x[0] - 5 * x[1] - 21 * x[2] + 7 * x[3]


def df(x):
    return np.array([2 * x[0] - 5, 2 * x[1] - 5, 4 * x[2] - 21, 2 * x[3] + 7])


def g(x):
    return np.array([x @ x + x[0] - x[1] + x[2] - x[3] - 8,
                     x[0] ** 2 + 2 * x[1] ** 2 + x[2] ** 2 + 2 * x[3] ** 2 - x[0] - x[3] - 10,
                     2 * x[0] ** 2 + x[1] ** 2 + x[2] ** 2 + 2 * x[0] - x[1] - x[3] - 5])


def dg(x):
    return np.array([2 * x + np.array([1, -1, 1, -1]),
                     [2 * x[0] - 1, 4 * x[1], 2 * x[2], 4 * x[3] - 1],
                     [4 * x[0] + 2, 2 * x[1] - 1, 2 * x[2], -1]])


WITH_JAC = [{"type": "ineq", "fun": lambda x: -g(x), "jac": lambda x: -dg(x)}]
WITHOUT = [{"type": "ineq", "fun": lambda x: -g(x)}]


def first_hit(**kw):
    """The run, and the count of f's calls when it first reached f* = −44 (feasible,
    within 1e-6 relative)."""
    calls = []

    def counted(x):
        out = kw.get("fun", f)(x)
        value = out[0] if isinstance(out, tuple) else out
        calls.append(value <= -44 + 44e-6 and np.all(g(x) <= 0))
        return out

    kw.pop("fun", None)
    res = emages.minimize(counted, np.zeros(4), bounds=[(-10, 10)] * 4, seed=1, **kw)
    return res, calls.index(True) + 1


def test_the_gradient_reaches_the_optimum_in_fewer_evaluations():
    plain, plain_hit = first_hit(constraints=WITHOUT)
    exact, exact_hit = first_hit(constraints=WITH_JAC, jac=df)
    differenced, differenced_hit = first_hit(constraints=WITHOUT, jac=df)
    print(f"hit at f's call {plain_hit} (differences), {exact_hit} (jac, constraints' jac), "
          f"{differenced_hit} (jac, constraints by differences); njev {exact.njev}, {differenced.njev}")
    for res in (plain, exact, differenced):
        assert res.success and abs(res.fun + 44) < 44e-6
    assert exact_hit * 3 <= plain_hit and differenced_hit * 3 <= plain_hit
    assert exact.njev > 0 and differenced.njev > 0 and plain.njev == 0
    # nfev counts f's values; evaluations the derivatives too (one each).
    assert exact.evaluations == exact.nfev + exact.njev


def test_jac_true_and_args_give_the_same_run():
    by_callable = emages.minimize(f, np.zeros(4), jac=df, constraints=WITH_JAC, bounds=[(-10, 10)] * 4, seed=2)
    both = emages.minimize(lambda x: (f(x), df(x)), np.zeros(4), jac=True, constraints=WITH_JAC,
                           bounds=[(-10, 10)] * 4, seed=2)
    scaled = emages.minimize(lambda x, w: w * f(x), np.zeros(4), 1.0, None, lambda x, w: w * df(x),
                             constraints=WITH_JAC, bounds=[(-10, 10)] * 4, seed=2)
    for other in (both, scaled):
        assert np.array_equal(other.x, by_callable.x) and other.nfev == by_callable.nfev
        assert other.njev == by_callable.njev


def test_an_executor_and_ask_and_tell_run_the_gradients_alike():
    serial = emages.minimize(f, np.zeros(4), jac=df, constraints=WITH_JAC, bounds=[(-10, 10)] * 4, seed=3,
                             budget=3000)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        pooled = emages.minimize(f, np.zeros(4), jac=df, constraints=WITH_JAC, bounds=[(-10, 10)] * 4, seed=3,
                                 budget=3000, executor=pool)
    assert np.array_equal(pooled.x, serial.x) and (pooled.nfev, pooled.njev) == (serial.nfev, serial.njev)
    es = emages.AskTell(np.zeros(4), None, {"bounds": [-10, 10], "seed": 3, "maxfevals": 3000},
                        gradient=True, jacobian=True)
    kinds = set()
    while (X := es.ask()) is not None:
        kinds.add(X.kind)
        if X.kind == "gradients":
            es.tell(X, [df(x) for x in X], ineq=[dg(x) for x in X])
        elif X.kind == "jacobians":
            es.tell(X, None, ineq=[dg(x) for x in X])
        else:
            es.tell(X, [f(x) for x in X], ineq=[g(x) for x in X])
    assert "gradients" in kinds
    assert np.array_equal(es.result.x, serial.x) and es.result.evaluations == serial.evaluations


def test_scipys_methods_and_hessians_are_refused_with_ours_named():
    with pytest.raises(ValueError, match="'SLSQP' is one of scipy's methods; emages.minimize runs its own: "
                                         "'portfolio'"):
        emages.minimize(f, np.zeros(4), method="SLSQP")
    with pytest.raises(ValueError, match="name two strategies"):
        emages.minimize(f, np.zeros(4), method="portfolio", variant="eps-mag-es-r")
    with pytest.raises(ValueError, match="hess is not used"):
        emages.minimize(f, np.zeros(4), jac=df, hess=lambda x: np.eye(4))
    # method= is variant=.
    a = emages.minimize(f, np.zeros(4), method="eps-mag-es-r", constraints=WITHOUT, seed=1, budget=2000)
    b = emages.minimize(f, np.zeros(4), variant="eps-mag-es-r", constraints=WITHOUT, seed=1, budget=2000)
    assert np.array_equal(a.x, b.x)
    with pytest.warns(UserWarning, match="takes no gradient"):
        emages.minimize(f, np.zeros(4), method="eps-mag-es-r", jac=df, seed=1, budget=500)


def test_derivatives_that_are_not_finite_are_errors_naming_where():
    with pytest.raises(ValueError, match=r"df/dx\[2\] = nan at x = "):
        emages.minimize(f, np.zeros(4), jac=lambda x: np.array([0.0, 0.0, np.nan, 0.0]))
    nan_jac = [scipy.optimize.NonlinearConstraint(lambda x: g(x)[:1], -np.inf, 0,
                                                  jac=lambda x: np.full((1, 4), np.nan))]
    with pytest.raises(ValueError, match=r"constraint 0: jac\(x\) is not finite \(row 0, column 0: nan\) at x"):
        emages.minimize(f, np.zeros(4), constraints=nan_jac)   # checked even where no phase needs it yet
    with pytest.raises(ValueError, match=r"the gradient of fun, has shape \(3,\)"):
        emages.minimize(f, np.zeros(4), jac=lambda x: np.zeros(3))
    with pytest.raises(ValueError, match="jac must be a callable"):
        emages.minimize(f, np.zeros(4), jac="forward")
