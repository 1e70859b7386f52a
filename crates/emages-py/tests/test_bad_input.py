"""Bad input is a Python exception with the reason, never a crash; a callable's own
exception comes back as itself; Ctrl-C stops a run; nothing leaks; the GIL is free
while Rust runs alone."""

import gc
import signal
import sys
import threading
import time
import _thread

import numpy as np
import pytest

import emages
from scipy.optimize import NonlinearConstraint


def sphere(x):
    return float(np.dot(x, x))


@pytest.mark.parametrize("kwargs, message", [
    (dict(x0=[1.0, np.nan]), "x0 must be finite"),
    (dict(x0=[[1.0, 2.0]]), "1-d array"),
    (dict(x0=[1.0, 2.0], sigma0=float("nan")), "sigma0"),
    (dict(x0=[1.0, 2.0], sigma0=-1.0), "sigma0"),
    (dict(x0=[1.0, 2.0], bounds=[(0, 1)]), r"x0 has 2 components, but bounds has 1 \(low, high\) pairs"),
    (dict(x0=[1.0, 2.0], bounds=[(0, 1)], variant="eps-mag-es-r"), r"x0 has 2 components, but bounds has 1"),
    (dict(x0=[1.0, 2.0], bounds=[(0, 1), (2, 1)]), "low <= high"),
    (dict(x0=[1.0, 2.0], bounds=[(0, np.nan), (0, 1)]), "NaN"),
    (dict(x0=[1.0, 2.0], options={"lambada": 4}, variant="eps-mag-es-r"),
     r"unknown key \"lambada\"; the keys are .*lambda.*maxiter"),
    (dict(x0=[1.0, 2.0], options={"lambda": 1}, variant="eps-mag-es-r"), "lambda"),
    # The default (the portfolio) names its own keys, and the variant an ES key needs.
    (dict(x0=[1.0, 2.0], options={"lambada": 4}), r"unknown key \"lambada\"; the keys are bound_local_runs, budget, .*confirmations, disp"),
    (dict(x0=[1.0, 2.0], options={"lambda": 4}), r"lambda is a setting of the ES variants.*variant=\"eps-mag-es-r\""),
    (dict(x0=[1.0, 2.0], variant="eps-mag-ez"), "eps-mag-ez"),
    (dict(), "give x0"),
    (dict(bounds=[(None, 1), (0, 1)], variant="eps-mag-es-r"), "finite bounds"),
])
def test_bad_arguments_are_value_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        emages.minimize(sphere, budget=100, seed=1, **kwargs)


def test_wrong_shapes_from_callables_are_value_errors():
    with pytest.raises(ValueError, match=r"f has shape \[2\]: expected a number"):
        emages.minimize(lambda x: x, x0=[1.0, 2.0], budget=100, seed=1)
    with pytest.raises(ValueError, match=r"expected \(\d+,\), one value per point"):
        emages.minimize(lambda X: X.sum(), x0=[1.0, 2.0], vectorized=True, budget=100, seed=1)
    calls = []
    def g(X):
        calls.append(len(X))
        return np.zeros((len(X), 2)) if len(calls) == 1 else np.zeros((len(X), 3))
    with pytest.raises(ValueError, match=r"g has shape \[\d+, 3\]: expected \(\d+, 2\)"):
        emages.minimize(lambda X: (X ** 2).sum(axis=1), x0=[1.0, 2.0], ineq=g, vectorized=True, budget=100, seed=1)
    with pytest.raises(ValueError, match=r"fun must return f, \(f, g\) or \(f, g, h\)"):
        emages.minimize(lambda x: (1.0, [0.0], [0.0], 1), x0=[1.0, 2.0], budget=100, seed=1)


def test_problems_reject_bad_points(cec_data):
    p = emages.Cec2017(1, 10, data=cec_data)
    with pytest.raises(ValueError, match="dimension 10"):
        p.evaluate(np.zeros(9))
    with pytest.raises(ValueError, match=r"expected \(k, 10\)"):
        p.evaluate_batch(np.zeros((4, 9)))
    with pytest.raises(ValueError, match="could not convert|float"):
        p.evaluate(["a"] * 10)
    with pytest.raises(ValueError, match="no CEC2017 instance data|data"):
        emages.Cec2017(1, 10, data="/nonexistent")
    with pytest.raises(ValueError):
        emages.Cec2017(29, 10, data=cec_data)
    with pytest.raises(ValueError, match="functions 1 to 54"):
        emages.BbobConstrained(55, 10)
    with pytest.raises(ValueError):
        emages.signrank([1.0, 2.0], [1.0])
    # A NaN point is evaluated, as the suites define it: NaN values, never a crash.
    f, g, _, v = emages.BbobConstrained(1, 2).evaluate([np.nan, 0.0])
    assert np.isnan(f) and np.isnan(g).all()


class Boom(Exception):
    pass


def test_a_callables_exception_comes_back_as_itself_and_nothing_leaks():
    calls = 0

    def fun(x):
        nonlocal calls
        calls += 1
        if calls == 20:
            raise Boom("at call 20")
        return sphere(x)

    before = sys.getrefcount(fun)
    for _ in range(20):
        calls = 0
        with pytest.raises(Boom, match="at call 20"):
            emages.minimize(fun, x0=[1.0, 2.0], budget=10_000, seed=1)
        assert calls == 20, "the run stops at the exception"
    gc.collect()
    assert sys.getrefcount(fun) == before


@pytest.mark.parametrize("variant, options", [
    (emages.PORTFOLIO, {"confirmations": 0}),   # the default, to the budget
    ("eps-mag-es-r", None),
])
def test_ctrl_c_stops_a_callback_run_and_a_native_run(variant, options):
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        # A shell's background job starts with SIGINT ignored; interrupt_main is then a
        # no-op and nothing could reach the run.
        pytest.skip("SIGINT is ignored in this process (a background job)")
    def fun(x):
        if fun.calls == 100:
            _thread.interrupt_main()
        fun.calls += 1
        return sphere(x)
    fun.calls = 0
    with pytest.raises(KeyboardInterrupt):
        emages.minimize(fun, x0=[1.0, 2.0], budget=10**9, seed=1, variant=variant, options=options)
    assert fun.calls < 200
    p = emages.BbobConstrained(54, 40)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    t = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        emages.minimize(p, budget=10**9, seed=1, history=False, variant=variant, options=options)
    assert time.perf_counter() - t < 5


def test_the_gil_is_released_while_a_native_run_runs():
    p = emages.BbobConstrained(54, 20)
    done = threading.Event()
    ticks = 0

    def run():
        emages.minimize(p, budget=200_000, seed=1, history=False)
        done.set()

    t = threading.Thread(target=run)
    t.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0)
    t.join()
    assert ticks > 1000, f"the main thread ran only {ticks} times"


def test_ask_tell_runs_no_thread_and_bad_tells_are_clear_errors():
    before = threading.active_count()
    for _ in range(10):
        es = emages.AskTell(dim=2, bounds=[(-1, 1)] * 2, n_ineq=1, seed=1, budget=1000)
        req = es.ask()
        assert req.points.shape[1] == 2
        with pytest.raises(ValueError, match=r"shape"):
            es.tell(np.zeros(req.points.shape[0] + 1), np.zeros((req.points.shape[0], 1)))
        with pytest.raises(ValueError, match="g is missing"):
            es.tell(np.zeros(req.points.shape[0]))
        del es
        gc.collect()
    assert threading.active_count() == before
    es = emages.AskTell(dim=2, bounds=[(-1, 1)] * 2, seed=1, budget=1000)
    # Before the first tell, a result that says so (pycma's result does not raise).
    early = es.result()
    assert early.x is None and early.nfev == 0 and "Nothing evaluated" in early.message
    with pytest.raises(ValueError, match="without a question"):
        es.tell(np.zeros(1))


@pytest.mark.parametrize("way", ["serial", "callback"])
def test_a_nan_objective_is_an_error_naming_the_point(way):
    """NaN (or ``None``) from the objective stops the run with the point named, on the
    Rust path and on the ask-and-tell path (``callback``); ``inf`` is a value, and a
    run whose best is infinite does not succeed."""
    kw = {} if way == "serial" else {"callback": lambda r: None}
    nan_above = lambda x: float("nan") if x[0] > 0.5 else float(x[0] ** 2 + x[1] ** 2)  # noqa: E731
    with pytest.raises(ValueError, match=r"NaN \(or None\) at x = "):
        emages.minimize(nan_above, x0=[1.0, 1.0], bounds=[(-2, 2)] * 2, budget=2_000, seed=1, **kw)
    with pytest.raises(ValueError, match=r"NaN \(or None\)"):
        emages.minimize(lambda x: None, x0=[1.0, 1.0], budget=2_000, seed=1, **kw)
    r = emages.minimize(lambda x: float("inf"), x0=[0.0, 0.0], bounds=[(-1, 1)] * 2,
                        budget=500, seed=1, **kw)
    assert r.feasible and r.fun == float("inf") and not r.success


# The table of bad inputs: each one clear error naming what is wrong.
def _sq(x):
    return float(x @ x)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: emages.minimize(_sq, x0=[1.0, 1.0], ineq=lambda x: [np.nan], budget=2000, seed=1),
         r"ineq returned NaN \(or None\) for constraint 0 at x = "),
        (lambda: emages.minimize(lambda x: (_sq(x), [np.nan, 0.0]), x0=[1.0, 1.0], budget=2000, seed=1),
         r"fun's g returned NaN \(or None\) for constraint 0"),
        (lambda: emages.minimize(_sq, x0=[1.0, 1.0], budget=2000, seed=1, variant="eps-mag-es-r",
                                 constraints=NonlinearConstraint(
            lambda x: [x[0] + x[1]], -np.inf, 1, jac=lambda x: np.array([[np.nan, np.nan]]))),
         r"constraint 0: jac\(x\) is not finite"),
        (lambda: emages.minimize(lambda x: "1.0", x0=[1.0, 1.0], budget=200, seed=1),
         r"f must be real numbers, not strings: got '1.0'"),
        (lambda: emages.minimize(_sq, x0=[10.0, 1.0], bounds=[(-5, 5)] * 2, budget=200, seed=1),
         r"x0\[0\] = 10.0 is outside its bounds \[-5.0, 5.0\]"),
        (lambda: emages.minimize(_sq, x0=[1.0, 1.0], budget=-5, seed=1),
         r"budget must be a positive whole number of evaluations, not -5"),
        (lambda: emages.minimize(_sq, x0=[1.0, 1.0], budget=2.5, seed=1),
         r"budget must be a positive whole number"),
        (lambda: emages.minimize(_sq, x0=[1.0, 1.0], budget=2000, seed=1, constraints=NonlinearConstraint(
            lambda x: [x[0] + x[1]], -np.inf, 1, jac=lambda x: np.array([1.0]))),
         r"constraint 0: jac\(x\) returned shape \(1,\), expected \(1, 2\)"),
        (lambda: emages.minimize(_sq, x0=[1.0, 1.0], bounds=[(-5, 5), (3, 1)], budget=200, seed=1),
         r"bounds of variable 1: low 3.0 > high 1.0"),
        (lambda: emages.minimize(_sq, x0=[1.0, 1.0], budget=200, seed=1, constraints=NonlinearConstraint(
            lambda x: [x[0] + x[1]], [-1, -2], [1, 2])),
         r"constraint 0: lb has 2 entries, but the constraint has 1 component"),
    ],
)
def test_issue_54_bad_inputs(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize("variant", [emages.DEFAULT_VARIANT, "eps-mag-es-r"])
def test_ask_and_tell_refuses_nan_values(variant):
    es = emages.AskTell(dim=2, n_ineq=1, bounds=[(-5, 5)] * 2, seed=1, variant=variant)
    req = es.ask()
    k = len(req.points)
    with pytest.raises(ValueError, match="f is NaN at point 0"):
        es.tell(np.full(k, np.nan), np.zeros((k, 1)))
    g = np.zeros((k, 1))
    g[k - 1] = np.nan   # the portfolio asks for its start alone first
    with pytest.raises(ValueError, match=f"g is NaN at point {k - 1}"):
        es.tell(np.zeros(k), g)
    with pytest.raises(ValueError, match="f must be real numbers"):
        es.tell(np.array(["1"] * k), np.zeros((k, 1)))
    es.tell(np.zeros(k), np.zeros((k, 1)))  # the request was still pending
    with pytest.raises(ValueError, match="x0\\[1\\] = 7.0 is outside"):
        emages.AskTell(dim=2, x0=[0.0, 7.0], bounds=[(-5, 5)] * 2, variant=variant)
    with pytest.raises(ValueError, match="budget must be a positive"):
        emages.AskTell(dim=2, bounds=[(-5, 5)] * 2, budget=0, variant=variant)
