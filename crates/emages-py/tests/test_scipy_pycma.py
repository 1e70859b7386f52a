"""What scipy's and pycma's users type (issue 54): scipy's ``args``, ``tol``,
``options`` (``maxiter`` for the whole run, ``maxfev``, ``disp``), the callback rule by
parameter name, an ``OptimizeResult`` of scipy's with ``maxcv`` and a sentence in
``message``; pycma's ``stop()`` query, ``result`` at any time, ``optimize``, ``disp``,
``sigma`` and ``mean``; old spellings with a ``DeprecationWarning``."""

import pickle
import warnings

import numpy as np
import pytest
import scipy.optimize

import emages


def sphere_in_half_plane(**kw):
    base = dict(x0=[2.0, 2.0], ineq=lambda x: [1 - x[0] - x[1]], seed=3, budget=20_000)
    base.update(kw)
    fun = base.pop("fun", lambda x: float(x @ x))
    return emages.minimize(fun, **base)


def same(a, b):
    assert np.array_equal(a.x, b.x) and (a.fun, a.violation, a.nit, a.nfev) == (b.fun, b.violation, b.nit, b.nfev)


def test_args_go_to_fun_and_a_number_in_their_place_is_the_old_sigma0():
    seen = []

    def f(x, a, b):
        seen.append((a, b))
        return float(x @ x) * a + b

    res = sphere_in_half_plane(fun=f, args=(2.0, 1.0), sigma0=0.5)
    ref = sphere_in_half_plane(fun=lambda x: float(x @ x) * 2.0 + 1.0, sigma0=0.5)
    same(res, ref)
    assert set(seen) == {(2.0, 1.0)}
    one = sphere_in_half_plane(fun=lambda x, a: float(x @ x) + a, args=0.0 if False else (0.0,), sigma0=0.5)
    assert one.fun == pytest.approx(0.5, abs=1e-6)
    with pytest.warns(DeprecationWarning, match="sigma0 by keyword"):
        old = emages.minimize(lambda x: float(x @ x), [2.0, 2.0], 0.5, ineq=lambda x: [1 - x[0] - x[1]],
                              seed=3, budget=20_000)
    same(old, sphere_in_half_plane(sigma0=0.5))
    with pytest.raises(ValueError, match="suite problem"):
        emages.minimize(emages.Cec2017(1, 10), args=(1,))


def test_tol_sets_both_tolerances():
    es = dict(variant="eps-mag-es-r")
    same(sphere_in_half_plane(tol=1e-6, **es), sphere_in_half_plane(options={"tol_fun": 1e-6, "tol_x": 1e-6}, **es))
    # An explicit option wins over tol.
    same(sphere_in_half_plane(tol=1e-6, options={"tol_x": 0.0}, **es),
         sphere_in_half_plane(options={"tol_fun": 1e-6, "tol_x": 0.0}, **es))
    with pytest.raises(ValueError, match="tol must be"):
        sphere_in_half_plane(tol=-1, **es)
    with pytest.raises(ValueError, match="tol must be"):
        sphere_in_half_plane(tol=-1)    # the default, the portfolio


@pytest.mark.parametrize("key", ["maxiter", "max_generations"])
def test_maxiter_limits_the_whole_run_over_its_restarts(key):
    free = sphere_in_half_plane(options=emages.NO_CONVERGENCE, budget=40_000, variant="eps-mag-es-r")
    assert len(free.restarts) > 1 and free.nit > 300, "restarts, more generations than the limit"
    res = sphere_in_half_plane(options={**emages.NO_CONVERGENCE, key: 300}, budget=40_000, variant="eps-mag-es-r")
    assert res.nit <= 300 and res.nit >= 300 - len(res.restarts), res.nit
    assert sum(r["generations"] for r in res.restarts) == res.nit
    assert res.termination == "generation limit" and res.status == 1
    assert "generation limit" in res.message
    with pytest.raises(ValueError, match="maxiter and max_generations are the same setting: give one"):
        sphere_in_half_plane(options={"maxiter": 3, "max_generations": 3}, variant="eps-mag-es-r")
    with pytest.raises(ValueError, match=f"{key} must be a whole number >= 1"):
        sphere_in_half_plane(options={key: 0}, variant="eps-mag-es-r")


def test_maxfev_is_the_budget():
    same(sphere_in_half_plane(options={"maxfev": 5_000}, budget=None), sphere_in_half_plane(budget=5_000))
    with pytest.raises(ValueError, match="disagree"):
        sphere_in_half_plane(options={"maxfev": 5_000}, budget=6_000)
    p = emages.minimize(lambda x: float(x @ x), x0=[2.0, 2.0], variant=emages.PORTFOLIO,
                        options={"maxfev": 30, "confirmations": 0}, seed=1)
    assert p.nfev <= 30


def test_disp_prints_progress_lines(capsys):
    sphere_in_half_plane(options={"disp": 10})
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["Iter", "evals", "best", "f", "violation", "step", "phase", "run", "t[s]"]
    iters = [int(l.split()[0]) for l in lines[1:]]
    assert iters[:3] == [1, 2, 3] and all(i % 10 == 0 for i in iters[3:-1]), iters
    sphere_in_half_plane(options={"disp": False})
    assert capsys.readouterr().out == ""
    # The callback path (Python's loop) prints the same layout.
    sphere_in_half_plane(options={"disp": True}, callback=lambda xk: None)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == lines[0] and len(out) >= 4
    with pytest.raises(ValueError, match="disp must be"):
        sphere_in_half_plane(options={"disp": "yes"})


def test_the_callback_rule_is_scipys():
    got = []
    sphere_in_half_plane(callback=lambda xk: got.append(xk), budget=2_000)
    assert got and all(isinstance(x, np.ndarray) and x.shape == (2,) for x in got)
    results = []

    def cb(intermediate_result):
        results.append(intermediate_result)

    sphere_in_half_plane(callback=cb, budget=2_000)
    assert len(results) == len(got) and all(isinstance(r, emages.OptimizeResult) for r in results)
    assert [r.nit for r in results] == list(range(1, len(results) + 1))


@pytest.mark.parametrize("variant, margin", [("eps-mag-es-r", 1e-4), (emages.DEFAULT_VARIANT, 1e-8)])
def test_the_result_is_scipys_with_maxcv_and_a_sentence(variant, margin):
    res = emages.minimize(lambda x: float(x @ x), x0=[2.0, 2.0, 0.0], ineq=lambda x: [1 - x[0] - x[1]],
                          eq=lambda x: [x[2] - 0.1], seed=1, budget=20_000, variant=variant)
    assert isinstance(res, scipy.optimize.OptimizeResult) and isinstance(res, emages.OptimizeResult)
    assert res.maxcv == max(0.0, float(np.max(res.g)), float(np.max(np.abs(res.h))))
    assert res.success and res.maxcv <= margin  # the equality within its margin
    if variant == "eps-mag-es-r":
        assert res.maxcv > 0   # feasible, but not exactly 0
    assert res.message.endswith(".") and str(res.message) != res.termination
    for key in ("x", "fun", "nit", "nfev", "njev", "maxcv", "status", "success", "message"):
        assert key in res, key
    with pytest.warns(DeprecationWarning, match="compare termination"):
        assert res.message == res.termination
    back = pickle.loads(pickle.dumps(res))
    assert type(back) is type(res) and back.message == res.message and back.maxcv == res.maxcv
    with pytest.raises(ValueError, match=r"unknown key \"maxiterr\".*maxiter.*tol_fun"):
        sphere_in_half_plane(options={"maxiterr": 3}, variant="eps-mag-es-r")
    with pytest.raises(ValueError, match=r"unknown key \"maxiterr\".*confirmations"):
        sphere_in_half_plane(options={"maxiterr": 3})


@pytest.mark.parametrize("variant", ["eps-mag-es-r", emages.DEFAULT_VARIANT])
def test_pycmas_loop_runs_as_written(variant):
    kw = dict(x0=[2.0, 2.0], sigma0=0.5, seed=1, budget=4_000, variant=variant)
    es = emages.AskTell(2, n_ineq=1, **kw)
    before = es.result()
    assert before.x is None and before.nfev == 0 and "Nothing evaluated" in before.message
    assert es.stop() == {}
    if variant == emages.PORTFOLIO:
        # σ is the local phase's step bound there, the mean its iterate (x0 first).
        assert es.sigma > 0 and np.array_equal(es.mean, [2.0, 2.0])
    else:
        assert es.sigma == 0.5 and np.array_equal(es.mean, [2.0, 2.0])
    generations = 0
    while not es.stop():
        req = es.ask()
        assert req.count == len(req.points)
        X = req.points
        generations += es.tell(None if req.constraints_only else (X ** 2).sum(axis=1),
                               1 - X.sum(axis=1, keepdims=True))
    res = es.result()
    assert es.ask() is None and es.stop() == {res.termination: str(res.message)}
    assert res.feasible and abs(res.fun - 0.5) < 1e-6 and res.nit <= generations <= res.nit + len(res.restarts)
    assert (es.mean is None or es.mean.shape == (2,)) and es.sigma > 0
    # optimize() runs the same loop.
    other = emages.AskTell(2, n_ineq=1, **kw)
    assert other.optimize(lambda x: (x ** 2).sum(), ineq=lambda x: [1 - x.sum()]) is other
    same(other.result(), res)
    # terminate() ends a run.
    third = emages.AskTell(2, n_ineq=1, **kw)
    third.optimize(lambda x: (x ** 2).sum(), ineq=lambda x: [1 - x.sum()],
                   callback=lambda e: e.terminate() if e.result().nit >= 5 else None)
    assert third.result().termination == "stopped" and third.result().nit == 5
    assert third.stop() == {"stopped": str(third.result().message)}


def test_asktell_disp_and_the_old_tuple_request(capsys):
    es = emages.AskTell(2, n_ineq=1, x0=[2.0, 2.0], sigma0=0.5, seed=1, budget=600, options={"disp": 5})
    es.disp()
    es.optimize(lambda x: (x ** 2).sum(), ineq=lambda x: [1 - x.sum()])
    es.result()
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("   Iter") and len(out) > 4, out
    es = emages.AskTell(2, n_ineq=1, x0=[2.0, 2.0], seed=1, budget=600)
    req = es.ask()
    with pytest.warns(DeprecationWarning, match="as a tuple"):
        points, only, kind, cost = req
    assert points is req.points and (only, kind, cost) == (req.constraints_only, req.kind, req.evaluations)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert req.count == len(req.points)
    assert es.ask() is req, "asking again before a tell gives the same request"


def test_the_portfolio_takes_scipys_spellings_or_says_why_not():
    # scipy's tol is the local phase's step tolerance (COBYLA's rhoend-like).
    by_tol = emages.minimize(lambda x: float(x @ x), x0=[1.0, 1.0], variant=emages.PORTFOLIO, seed=1, tol=1e-6)
    by_key = emages.minimize(lambda x: float(x @ x), x0=[1.0, 1.0], variant=emages.PORTFOLIO, seed=1,
                             options={"sqp_step_tolerance": 1e-6})
    assert by_tol.nfev == by_key.nfev and by_tol.fun == by_key.fun < 1e-8
    with pytest.raises(ValueError, match="tol must be a finite positive number"):
        emages.minimize(lambda x: float(x @ x), x0=[1.0, 1.0], variant=emages.PORTFOLIO, tol=0.0)
    # maxiter: the portfolio's iterations (steps of the local phase, generations of the
    # ES rounds), as for the ES its generations.
    capped = emages.minimize(lambda x: float(x @ x), x0=[1.0, 1.0], variant=emages.PORTFOLIO,
                             options={"maxiter": 9}, seed=1)
    assert capped.nit == 9 and capped.termination == "generation limit" and capped.status == 1
    es = emages.AskTell(2, x0=[1.0, 1.0], variant=emages.PORTFOLIO, seed=1, budget=500)
    assert es.result().nfev == 0 and es.stop() == {} and np.array_equal(es.mean, [1.0, 1.0])
    es.optimize(lambda x: float(x @ x))
    assert es.result().fun < 1e-8 and es.stop()
