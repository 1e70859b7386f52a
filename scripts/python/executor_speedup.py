"""The speed-up of ``minimize(executor=…)`` on an objective that takes 20 ms per point
(``time.sleep``: a simulation that waits, not one that computes), on a process pool
and on a Dask cluster with 1, 2 and 4 workers, against the serial run. Every run gives
the serial run's result (checked). Prints a Markdown table.

    target/py-venv/bin/python scripts/python/executor_speedup.py [--budget 600]
"""

import argparse
import concurrent.futures
import sys
import time

import numpy as np

import emages

N = 5


def objective(x):
    time.sleep(0.02)
    return float(np.sum((np.asarray(x) - 1.0) ** 2))


def ineq(x):
    return [float(np.sum(x)) - 2.0]


def run(budget, executor=None):
    start = time.perf_counter()
    r = emages.minimize(objective, ineq=ineq, bounds=[(-3, 3)] * N, budget=budget, seed=1,
                        variant="eps-mag-es", history=False, executor=executor)
    return r, time.perf_counter() - start


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--budget", type=int, default=600)
    args = p.parse_args()
    serial, t0 = run(args.budget)
    rows = [("serial", 1, t0)]
    for workers in (1, 2, 4):
        with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
            r, t = run(args.budget, pool)
        assert np.array_equal(r.x, serial.x) and r.fun == serial.fun
        rows.append(("ProcessPoolExecutor", workers, t))
    try:
        import cloudpickle
        import distributed
    except ImportError:
        distributed = None
    if distributed is not None:
        cloudpickle.register_pickle_by_value(sys.modules[__name__])
        for workers in (1, 2, 4):
            with distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                          processes=True, dashboard_address=None) as cluster, \
                    distributed.Client(cluster) as client:
                r, t = run(args.budget, client.get_executor())
            assert np.array_equal(r.x, serial.x) and r.fun == serial.fun
            rows.append(("Dask LocalCluster", workers, t))
    print(f"N = {N}, λ = {4 * N}, {serial.evaluations} evaluations of 20 ms "
          f"({serial.nfev} of f), the same result on every row\n")
    print("| executor | workers | wall time (s) | speed-up |")
    print("|---|---|---|---|")
    for name, workers, t in rows:
        print(f"| {name} | {workers} | {t:.2f} | {t0 / t:.2f}× |")


if __name__ == "__main__":
    main()
