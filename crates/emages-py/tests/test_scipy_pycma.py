"""What scipy's and pycma's users type: scipy's ``args``, ``tol``,
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


def test_args_go_to_fun_and_a_single_argument_is_wrapped_as_scipy_does():
    seen = []

    def f(x, a, b):
        seen.append((a, b))
        return float(x @ x) * a + b

    res = sphere_in_half_plane(fun=f, args=(2.0, 1.0), sigma0=0.5)
    ref = sphere_in_half_plane(fun=lambda x: float(x @ x) * 2.0 + 1.0, sigma0=0.5)
    same(res, ref)
    assert set(seen) == {(2.0, 1.0)}
    # scipy's rule: a single extra argument, not a tuple, is the tuple of that one.
    one = sphere_in_half_plane(fun=lambda x, a: float(x @ x) + a, args=2.0)
    assert one.fun == pytest.approx(2.5, abs=1e-6)
    # By position, as scipy's signature has it: minimize(fun, x0, args, method, jac).
    seen.clear()
    pos = emages.minimize(f, [2.0, 2.0], (2.0, 1.0), None, None, ineq=lambda x: [1 - x[0] - x[1]],
                          seed=3, budget=20_000, sigma0=0.5)
    same(pos, res)
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
    # Both given: the smaller holds (the run stops at the first limit), and a warning says so.
    with pytest.warns(UserWarning, match="the smaller, 5000, holds"):
        both = sphere_in_half_plane(options={"maxfev": 5_000}, budget=6_000)
    same(both, sphere_in_half_plane(budget=5_000))
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


def sphere(x):
    return float(x @ x)


def half_plane(x):
    return [1 - x[0] - x[1]]


@pytest.mark.parametrize("variant", ["eps-mag-es-r", emages.DEFAULT_VARIANT])
def test_pycmas_loop_runs_as_written(variant, capsys):
    """pycma's documented loop, word for word but for the constraint keyword."""
    es = emages.AskTell([2.0, 2.0], 0.5, {"seed": 1, "maxfevals": 4000, "verb_disp": 1}, variant=variant)
    before = es.result
    assert before.x is None and before.nfev == 0 and before.status == -1 and es.result() is not None
    assert es.stop() == {} and es.countevals == 0
    if variant == emages.PORTFOLIO:
        # σ and stds are the local phase's step bound there, the mean its iterate (x0 first).
        assert es.phase == "local" and es.sigma > 0 and np.array_equal(es.mean, [2.0, 2.0])
        assert np.all(es.stds == es.sigma)
    else:
        assert es.phase == "es" and es.sigma == 0.5 and np.array_equal(es.mean, [2.0, 2.0])
        assert es.stds.shape == (2,)
    midway = None
    while not es.stop():
        X = es.ask()
        assert len(X) == len(X.points) and all(np.array_equal(x, p) for x, p in zip(X, X.points))
        es.tell(X, [sphere(x) for x in X], ineq=[half_plane(x) for x in X])
        es.disp()
        if midway is None and es.countevals > 20:
            midway = es.result
    res = es.result
    # Midway, the best so far and a status that says the run goes on.
    assert midway.termination == "running" and midway.status == -1 and not midway.success
    assert "in progress" in midway.message and midway.stop == {}
    # pycma's fields, by name and by position; minimize's beside them.
    assert np.array_equal(res.xbest, res.x) and res.fbest == res.fun and res.evals_best == res.found_at
    assert res.evaluations == es.countevals and res.iterations == res.nit
    assert res[0] is res.xbest and res[1] == res.fbest and res[7] == res.stop
    assert res.xfavorite.shape == (2,) and res.stds.shape == (2,)
    assert es.ask() is None and res.stop == es.stop() == {res.termination: str(res.message)}
    assert res.feasible and abs(res.fun - 0.5) < 1e-6
    # The same run as minimize's, for the same seed.
    same(res, emages.minimize(sphere, [2.0, 2.0], ineq=half_plane, sigma0=0.5, seed=1, budget=4000,
                              variant=variant))
    # disp: the header, then one line per iteration (verb_disp 1) and the phase.
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:2] == ["Iter", "evals"] and len(out) == res.nit + 1 or len(out) >= 4
    # optimize() runs the same loop; terminate() ends a run.
    other = emages.AskTell([2.0, 2.0], 0.5, {"seed": 1, "maxfevals": 4000}, variant=variant)
    assert other.optimize(sphere, ineq=half_plane) is other
    same(other.result, res)
    third = emages.AskTell([2.0, 2.0], 0.5, {"seed": 1, "maxfevals": 4000}, variant=variant)
    third.optimize(sphere, ineq=half_plane, callback=lambda e: e.terminate() if e.result.nit >= 5 else None)
    assert third.result.termination == "stopped" and third.result.nit == 5
    assert third.stop() == {"stopped": str(third.result.message)}


@pytest.mark.parametrize("variant", ["eps-mag-es-r", emages.DEFAULT_VARIANT])
def test_the_keyword_form_and_the_old_order_give_the_same_run(variant):
    new = emages.AskTell([2.0, 2.0], 0.5, {"seed": 1, "maxfevals": 3000}, variant=variant)
    new.optimize(sphere, ineq=half_plane)
    # The keyword form, with the constraint counts given.
    keywords = emages.AskTell(dim=2, n_ineq=1, x0=[2.0, 2.0], sigma0=0.5, seed=1, budget=3000, variant=variant)
    while (X := keywords.ask()) is not None:
        keywords.tell(X, [sphere(x) for x in X], ineq=[half_plane(x) for x in X])
    same(keywords.result, new.result)
    # The old order tell(f, g) and AskTell(dim, …) still run, with a DeprecationWarning.
    with pytest.warns(DeprecationWarning, match="AskTell\\(dim"):
        old = emages.AskTell(2, n_ineq=1, seed=1, budget=3000, variant=variant, bounds=[(-5, 5)] * 2)
    with pytest.warns(DeprecationWarning, match="tell\\(f, g, h\\) is deprecated"):
        X = old.ask()
        old.tell(np.array([sphere(x) for x in X]), np.array([half_plane(x) for x in X]))


def test_pycmas_options_are_translated_or_refused_with_the_keys_taken():
    kw = dict(ineq=half_plane)
    by_inopts = emages.AskTell([2.0, 2.0], 0.5, {"seed": 3, "maxfevals": 2000, "bounds": [-5, [5, 6]],
                                                "ftarget": 0.6, "tolx": 1e-9, "tolfun": 1e-6})
    by_inopts.optimize(sphere, **kw)
    ours = emages.minimize(sphere, [2.0, 2.0], sigma0=0.5, seed=3, budget=2000, bounds=[(-5, 5), (-5, 6)],
                           options={"target": 0.6, "sqp_step_tolerance": 1e-9, "confirm_tolerance": 1e-6}, **kw)
    same(by_inopts.result, ours)
    assert by_inopts.result.termination == "target"
    es = emages.AskTell([2.0, 2.0], 0.5, {"seed": 3, "maxfevals": 2000, "popsize": 12, "tolfun": 1e-6,
                                          "maxiter": 50}, variant="eps-mag-es-r")
    es.optimize(sphere, **kw)
    same(es.result, emages.minimize(sphere, [2.0, 2.0], sigma0=0.5, seed=3, budget=2000, variant="eps-mag-es-r",
                                    options={"lambda": 12, "tol_fun": 1e-6, "maxiter": 50}, **kw))
    with pytest.raises(ValueError, match=r"inopts\['CMA_active'\] is not a setting emages takes: pycma's "
                                         r"bounds, ftarget, maxfevals, maxiter, popsize, seed, tolfun, tolx"):
        emages.AskTell([0.0, 0.0], 0.5, {"CMA_active": False})
    with pytest.raises(ValueError, match="popsize.*ES variants"):
        emages.AskTell([0.0, 0.0], 0.5, {"popsize": 12})
    with pytest.raises(ValueError, match="must be a number"):
        emages.AskTell([0.0, 0.0], 0.5, {"maxiter": "100 + 50 * N"})
    with pytest.raises(ValueError, match="given twice"):
        emages.AskTell([0.0, 0.0], 0.5, {"seed": 1}, seed=2)
    # seed 0 (or none) draws one, reported in the result; verbose -9 is silent.
    drawn = emages.AskTell([2.0, 2.0], 0.5, {"seed": 0, "maxfevals": 200, "verbose": -9})
    assert drawn.seed != 0


def test_a_request_is_a_sequence_of_points_and_tells_are_checked():
    es = emages.AskTell([2.0, 2.0], 0.5, {"seed": 1, "maxfevals": 1000})
    X = es.ask()
    assert isinstance(X, emages.Request) and np.asarray(X).shape == (len(X), 2)
    assert np.array_equal(X[0], X.points[0]) and [list(x) for x in X] == X.points.tolist()
    assert es.ask() is X, "asking again before a tell gives the same request"
    with pytest.raises(ValueError, match="point 0 is not the one asked for"):
        es.tell(X.points + 1, [0.0] * len(X))
    with pytest.raises(ValueError, match="ineq has shape"):
        es.tell(X, [sphere(x) for x in X], ineq=np.zeros((len(X) + 1, 1)))
    # The constraint counts come from the first tell; a pickle taken before it continues.
    copy = pickle.loads(pickle.dumps(es))
    for run in (es, copy):
        run.optimize(sphere, ineq=half_plane)
    same(copy.result, es.result)
    assert pickle.loads(pickle.dumps(es.result)).xbest.shape == (2,)


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
    es = emages.AskTell(dim=2, x0=[1.0, 1.0], variant=emages.PORTFOLIO, seed=1, budget=500)
    assert es.result().nfev == 0 and es.stop() == {} and np.array_equal(es.mean, [1.0, 1.0])
    es.optimize(lambda x: float(x @ x))
    assert es.result().fun < 1e-8 and es.stop()
