"""Ask and tell as a value (pickled and deep-copied midway, it continues exactly), the
repair's requests in batches, ``minimize(executor=…)`` on a process pool and on a real
Dask cluster with the serial run's result, and ``callback``."""

import concurrent.futures
import copy
import pickle
import sys

import numpy as np
import pytest

import emages

N = 5


def objective(x):
    """Rosenbrock-like, in a module-level function (picklable by reference)."""
    x = np.asarray(x, dtype=float)
    return float(np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2))


def ineq(x):
    return [float(np.sum(x * x)) - 2.0]


def eq(x):
    return [float(x[0] + x[1] - 1.0)]


def values(points):
    f = np.array([objective(x) for x in points])
    g = np.array([ineq(x) for x in points])
    h = np.array([eq(x) for x in points])
    return f, g, h


def new_run(variant="eps-mag-es-r", budget=15_000, seed=4):
    return emages.AskTell(dim=N, n_ineq=1, n_eq=1, bounds=[(-2, 2)] * N, seed=seed,
                          budget=budget, variant=variant)


def answer(es):
    req = es.ask()
    if req is None:
        return None
    f, g, h = values(req.points)
    es.tell(req, None if req.constraints_only else f, ineq=g, eq=h)
    return req


def finish(es):
    sizes = []
    while (req := answer(es)) is not None:
        sizes.append((len(req.points), req.constraints_only))
    return es.result(), sizes


def same(a, b):
    assert np.array_equal(a.x, b.x)
    assert (a.fun, a.violation, a.nit, a.evaluations, a.nfev, a.ngev) == (
        b.fun, b.violation, b.nit, b.evaluations, b.nfev, b.ngev)
    for key in ("fun", "violation", "sigma", "epsilon"):
        assert np.array_equal(a.history[key], b.history[key], equal_nan=True), key
    assert a.restarts == b.restarts


@pytest.mark.parametrize("variant", ["eps-mag-es", "eps-mag-es-r"])
def test_a_pickled_or_copied_run_continues_exactly(variant):
    expected, sizes = finish(new_run(variant))
    checked = 0
    for cut in (0, 1, 7, len(sizes) // 3, len(sizes) - 3):
        es = new_run(variant)
        for _ in range(cut):
            answer(es)
        copies = [pickle.loads(pickle.dumps(es)), copy.deepcopy(es)]
        original, _ = finish(es)
        same(original, expected)
        for c in copies:
            got, rest = finish(c)
            assert rest == sizes[cut:]
            same(got, expected)
            checked += 1
    print(f"{checked} copies continued exactly ({variant}, {len(sizes)} requests)")
    assert checked == 10


def test_a_restored_run_ignores_the_original():
    """The copy owns its state: the original going on does not move it."""
    es = new_run()
    for _ in range(20):
        answer(es)
    saved = pickle.dumps(es)
    finish(es)
    again = pickle.loads(saved)
    assert again.ask() is not None


def test_the_repair_asks_in_batches():
    """A default run at n = 5: the repair's probes of a generation come in one request
    and its repaired points in another, so requests of a single point are few."""
    result, sizes = finish(new_run("eps-mag-es", budget=20_000 * N))
    single = sum(1 for k, _ in sizes if k == 1)
    probes = [k for k, only in sizes if only]
    histogram = {}
    for k, _ in sizes:
        histogram[k] = histogram.get(k, 0) + 1
    print(f"{len(sizes)} requests, {single} of one point; sizes: {sorted(histogram.items())}")
    assert probes and all(k % N == 0 for k in probes)
    assert max(probes) > N, "probes of several offspring in one request"
    assert single < 0.05 * len(sizes)


def serial(**kw):
    return emages.minimize(objective, ineq=ineq, eq=eq, bounds=[(-2, 2)] * N, seed=7,
                           budget=6_000, **kw)


def test_minimize_on_a_process_pool_gives_the_serial_result():
    expected = serial()
    with concurrent.futures.ProcessPoolExecutor(max_workers=2) as pool:
        got = serial(executor=pool)
    same(got, expected)
    assert got.termination == expected.termination


def test_minimize_on_a_dask_cluster_gives_the_serial_result():
    distributed = pytest.importorskip("distributed")
    import cloudpickle

    # The workers are other processes: they get this module's functions by value.
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    expected = serial()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        got = serial(executor=client.get_executor())
    same(got, expected)


def test_the_callback_sees_every_generation_and_may_stop_the_run():
    seen = []

    def watch(intermediate_result):
        seen.append((intermediate_result.nit, intermediate_result.fun, intermediate_result.evaluations))

    full = serial(callback=watch, variant="eps-mag-es")
    # One call per generation, after it: nit counts 1, 2, …
    assert [s[0] for s in seen] == list(range(1, full.nit + 1))
    assert seen[-1][2] == full.evaluations
    same(full, serial(variant="eps-mag-es"))

    def stop_at_ten(intermediate_result):
        if intermediate_result.nit == 10:
            raise StopIteration

    stopped = serial(callback=stop_at_ten, variant="eps-mag-es")
    assert stopped.nit == 10 and stopped.termination == "stopped"


def g_scipy(x):
    """``2 − x·x ≥ 0``: scipy's sign (``ineq`` of :func:`ineq` is its negative)."""
    return 2.0 - float(np.dot(x, x))


def g_scipy_jac(x):
    return -2.0 * np.asarray(x, dtype=float)


def eq_jac(x):
    j = np.zeros(len(x))
    j[:2] = 1.0
    return j


JAC_CONSTRAINTS = [
    {"type": "ineq", "fun": g_scipy, "jac": g_scipy_jac},
    {"type": "eq", "fun": lambda x: eq(x)[0], "jac": eq_jac},
]


def test_ask_and_tell_with_jacobians_is_minimize_with_jac():
    """With ``jacobian=True`` the user answers the repair's Jacobian requests (shapes
    ``(k, l, N)`` and ``(k, m, N)``) and gets :func:`minimize`'s run with the same
    ``jac``, bit for bit; every request states its charge, and they add up to the
    run's evaluations (a Jacobian at a point just repaired is free); ``minimize`` with
    an executor takes the Jacobians through it, with the same result."""
    variant, budget = "eps-mag-es:repair=levenberg-marquardt:lm-frequency=1", 8_000
    expected = emages.minimize(objective, constraints=JAC_CONSTRAINTS, bounds=[(-2, 2)] * N,
                               seed=7, budget=budget, variant=variant)
    assert expected.njev > 0
    es = emages.AskTell(dim=N, n_ineq=1, n_eq=1, bounds=[(-2, 2)] * N, seed=7, budget=budget,
                        variant=variant, jacobian=True)
    kinds, charged, free = {}, 0, 0
    while (req := es.ask()) is not None:
        kinds[req.kind] = kinds.get(req.kind, 0) + 1
        charged += req.evaluations
        X = req.points
        if req.kind == "jacobians":
            free += req.evaluations == 0
            jg = np.array([[-g_scipy_jac(x)] for x in X])          # (k, 1, N)
            jh = np.array([[eq_jac(x)] for x in X])
            assert jg.shape == (len(X), 1, N)
            es.tell(req, None, ineq=jg, eq=jh)
        else:
            # The very functions minimize was given: g_scipy's np.dot rounds otherwise
            # than values()'s np.sum under some CPUs' BLAS kernels.
            f = np.array([objective(x) for x in X])
            g = np.array([[-g_scipy(x)] for x in X])
            h = np.array([[JAC_CONSTRAINTS[1]["fun"](x)] for x in X])
            es.tell(req, None if req.constraints_only else f, ineq=g, eq=h)
    got = es.result()
    print(f"requests by kind: {kinds}; {free} Jacobian requests free; njev {got.njev}")
    assert "probes" not in kinds and kinds["jacobians"] > 0 and free > 0
    assert charged == got.evaluations
    assert np.array_equal(got.x, expected.x)
    assert (got.fun, got.violation, got.evaluations, got.njev) == (
        expected.fun, expected.violation, expected.evaluations, expected.njev)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        pooled = emages.minimize(objective, constraints=JAC_CONSTRAINTS, bounds=[(-2, 2)] * N,
                                 seed=7, budget=budget, variant=variant, executor=pool)
    assert np.array_equal(pooled.x, expected.x) and pooled.njev == expected.njev
    with pytest.raises(ValueError, match="shape"):
        es = emages.AskTell(dim=N, n_ineq=1, n_eq=1, bounds=[(-2, 2)] * N, seed=7,
                            budget=budget, variant=variant, jacobian=True)
        while (req := es.ask()).kind != "jacobians":
            f, g, h = values(req.points)
            es.tell(req, None if req.constraints_only else f, ineq=g, eq=h)
        es.tell(None, np.zeros((len(req.points), 1)), np.zeros((len(req.points), 1)))
