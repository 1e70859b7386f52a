"""The default strategy's speed-up from workers, on objectives that wait (``time.sleep``: a
simulation that waits, not one that computes): threads with a 10 ms objective on a 10-D
problem with three linear inequalities, and a process pool and Dask's ``LocalCluster``
with a 20 ms objective on a 5-D one (Rosenbrock's function in the ball ‖x‖² ≤ 4), a
budget of 1 000 evaluations, with 1, 2, 4 and 8 workers, against the serial run
of the same settings (every run gives the serial run's result: checked), with the
local phase's speculative probes off and on. Beside each: the evaluations to the target
(the first feasible point within 1e-6 of the best value any row found) and to the stop.
Prints Markdown tables.

    target/py-venv/bin/python scripts/python/workers.py [--executors threads,processes,dask]
"""

import argparse
import concurrent.futures
import sys
import time

import numpy as np

import emages

A10 = np.array([[1.0] * 10, [1.0, -1.0] * 5, [0.5] * 5 + [-0.5] * 5])
B10 = np.array([2.0, 0.5, 0.3])


def wait_10ms(x):
    time.sleep(0.01)
    x = np.asarray(x)
    return float(np.sum((x - 1.0) ** 2 * np.arange(1, x.size + 1)))


def ineq_10(x):
    return A10 @ np.asarray(x) - B10


def wait_20ms(x):
    time.sleep(0.02)
    x = np.asarray(x)
    return float(np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2))


def ineq_5(x):
    return np.array([float(np.dot(x, x)) - 4.0])


BUDGET = 1000  # evaluations: at most 20 s a serial run at 20 ms

PROBLEMS = {
    "threads": (wait_10ms, ineq_10, 10),
    "processes": (wait_20ms, ineq_5, 5),
    "dask": (wait_20ms, ineq_5, 5),
}


class Counted:
    """The objective with the evaluation count at which it first reached `target`
    (kept in the calling process: the serial run's count)."""

    def __init__(self, fun, ineq, target):
        self.fun, self.ineq, self.target, self.calls, self.hit = fun, ineq, target, 0, None

    def __call__(self, x):
        f = self.fun(x)
        self.calls += 1
        if self.hit is None and f <= self.target and np.all(self.ineq(x) <= 0):
            self.hit = self.calls
        return f


def run(fun, ineq, n, speculate, executor=None):
    start = time.perf_counter()
    r = emages.minimize(fun, ineq=ineq, bounds=[(-5, 5)] * n, seed=1, history=False, executor=executor,
                        budget=BUDGET, options={"sqp_speculative_probes": speculate})
    return r, time.perf_counter() - start


def executors(kind, workers):
    if kind == "threads":
        return concurrent.futures.ThreadPoolExecutor(max_workers=workers)
    if kind == "processes":
        return concurrent.futures.ProcessPoolExecutor(max_workers=workers)
    import cloudpickle
    import distributed

    cloudpickle.register_pickle_by_value(sys.modules[__name__])

    class Dask:
        def __enter__(self):
            self.cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                    dashboard_address=None)
            self.client = distributed.Client(self.cluster)
            return self.client.get_executor()

        def __exit__(self, *exc):
            self.client.close()
            self.cluster.close()

    return Dask()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--executors", default="threads,processes,dask")
    p.add_argument("--workers", default="1,2,4,8")
    args = p.parse_args()
    print(f"emages {emages.__version__}, kernel {emages.kernel()}\n")
    for kind in args.executors.split(","):
        fun, ineq, n = PROBLEMS[kind]
        print(f"### {kind}: {'10' if n == 10 else '20'} ms per evaluation, N = {n}\n")
        print("| speculative probes | workers | wall time (s) | speed-up | evaluations to the target | to the stop | evaluations per iteration |")
        print("|---|---|---|---|---|---|---|")
        for speculate in (False, True):
            serial, t0 = run(fun, ineq, n, speculate)
            counted = Counted(fun, ineq, serial.fun + 1e-6 * max(1.0, abs(serial.fun)))
            run(counted, ineq, n, speculate)
            points = serial.evaluations / max(1, serial.nit)
            print(f"| {'on' if speculate else 'off'} | serial | {t0:.2f} | 1.00× | {counted.hit} | "
                  f"{serial.evaluations} | {points:.1f} |")
            for workers in [int(w) for w in args.workers.split(",")]:
                with executors(kind, workers) as ex:
                    r, t = run(fun, ineq, n, speculate, ex)
                assert np.array_equal(r.x, serial.x) and r.evaluations == serial.evaluations
                print(f"| {'on' if speculate else 'off'} | {workers} | {t:.2f} | {t0 / t:.2f}× | {counted.hit} | "
                      f"{serial.evaluations} | {points:.1f} |")
        print()


if __name__ == "__main__":
    main()
