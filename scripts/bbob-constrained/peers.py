#!/usr/bin/env python3
"""The peers beside εMAg-ES on bbob-constrained, through cocoex, writing COCO's files:
pycma's augmented-Lagrangian CMA-ES (`--solver al-cma-es`: `cma.fmin_con2`, default
settings, pycma's IPOP restarts), restarted COBYLA (`--solver cobyla`: scipy's
`minimize(method="COBYLA")`, PRIMA's COBYLA in scipy >= 1.16, a Python port; `--solver
cobyla-nlopt`: NLopt's `LN_COBYLA`, Powell's COBYLA2 in C, about 40× faster a call;
`--solver cobyla-pdfo`: PDFO's Fortran COBYLA, which needs numpy < 2) and
restarted COBYQA (`--solver cobyqa`: the `cobyqa` package, Powell's successor with
quadratic models).

    pip install coco-experiment cma scipy nlopt cobyqa
    python3 scripts/bbob-constrained/peers.py --solver cobyla-nlopt --rhobeg 2 --tol 1e-10 \
        --dims 2,3,5 --instances 31-45 --out results/peers/cobyla [--batch 1/4]

Both spend a budget of `--budget-multiplier · n` evaluations of f and g together, COCO's
cost (every candidate costs one f and one g evaluation in both solvers, so
`--budget-multiplier · n / 2` candidates).

- AL-CMA-ES, as COCO's own example experiment runs pycma: start at the problem's
  initial solution with σ₀ = 2 (`--sigma0`), restart with a doubled population while
  budget is left.
- COBYLA and COBYQA: the first run from the problem's initial solution, each restart
  from a point drawn uniformly in [-4, 4]ⁿ (COCO's example experiment's restart rule),
  each with the initial trust-region radius `--rhobeg` (default 1, scipy's) and the
  final one `--tol` (default 1e-4, scipy's), and the budget left as its evaluation
  limit; it restarts until the budget is spent or the final target is hit (a run that
  hits it is stopped there). The restart points come from a generator seeded per
  problem, so a run repeats.
- Optuna's GP sampler (`GPSampler` with `constraints_func`): the problem's initial
  solution enqueued as the first trial, then `--startup` trials (Optuna's
  `n_startup_trials`, default 10, the first trial among them) drawn by its independent
  sampler before the GP proposes; one trial evaluates f and g.

Instances past 15 (the test instances 16–30) are reached through the suite's instance
option (`instances: 16-30`): cocoex's `instance_indices` stop at 15.

Each (dimension, batch) writes its own folder below `--out` (cocopp reads them as one
algorithm); a finished one (`.done`) is skipped when the command is run again, an
unfinished one is started over. Per problem the wall time and evaluation counts go to
`times.jsonl`. Not part of the Rust build or its tests.
"""

import argparse
import json
import os
import shutil
import sys
import time
import warnings


def ranges(text):
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def suite_options(dim, functions, instances):
    """cocoex's (suite_instance, suite_options) for these functions and instances."""
    if max(instances) <= 15:
        return "", (f"dimensions: {dim} function_indices: {functions} "
                    f"instance_indices: {','.join(map(str, instances))}")
    # COCO's range syntax ("16-30"): its option strings have a fixed length limit.
    text = ",".join(str(i) for i in instances)
    if instances == list(range(instances[0], instances[-1] + 1)):
        text = f"{instances[0]}-{instances[-1]}"
    return f"instances: {text}", f"dimensions: {dim} function_indices: {functions}"


def run_al_cma_es(problem, budget, args, seed):
    import cma
    # fmin_con2 evaluates f and g for every candidate: maxfevals is half the budget.
    cma.fmin_con2(
        problem, problem.initial_solution, args.sigma0,
        constraints=problem.constraint,
        options={"maxfevals": budget // 2, "verbose": -9, "seed": seed},
        restarts={"maxfevals": budget // 2})


class TargetHit(Exception):
    """Raised from the objective once COCO's final target is hit: the run is over."""


def restarted(problem, budget, seed, local_run):
    """`local_run(f, x0, evaluations)` from the initial solution, then from U[-4, 4]ⁿ,
    until the budget (COCO's f + g count) is spent or the final target is hit; `f`
    raises `TargetHit` once it is hit."""
    import numpy as np

    def f(x):
        if problem.final_target_hit:
            raise TargetHit
        return problem(x)

    rng = np.random.default_rng(seed)
    x0 = np.array(problem.initial_solution, dtype=float)
    dim = len(x0)
    while True:
        # COCO counts f and g apart; each solver asks for both at every point.
        spent = int(problem.evaluations) + int(problem.evaluations_constraints)
        left = (budget - spent) // 2
        if left < dim + 2 or problem.final_target_hit:
            return
        try:
            local_run(f, x0, left)
        except TargetHit:
            return
        x0 = rng.uniform(-4.0, 4.0, dim)


def run_cobyla(problem, budget, args, seed):
    import numpy as np
    from scipy.optimize import NonlinearConstraint, minimize

    constraint = NonlinearConstraint(problem.constraint, -np.inf, 0.0)

    def local_run(f, x0, left):
        minimize(f, x0, method="COBYLA", constraints=[constraint],
                 options={"maxiter": left, "rhobeg": args.rhobeg, "tol": args.tol})

    restarted(problem, budget, seed, local_run)


def run_cobyla_nlopt(problem, budget, args, seed):
    import nlopt
    import numpy as np

    dim = problem.dimension
    m = problem.number_of_constraints

    def local_run(f, x0, left):
        opt = nlopt.opt(nlopt.LN_COBYLA, dim)
        opt.set_min_objective(lambda x, _grad: f(x))

        def g(result, x, _grad):
            result[:] = problem.constraint(x)

        opt.add_inequality_mconstraint(g, [0.0] * m)
        opt.set_initial_step(args.rhobeg)
        opt.set_xtol_abs(args.tol)  # NLopt's COBYLA ends at the radius max(xtol_abs, xtol_rel · rhobeg)
        opt.set_maxeval(left)
        try:
            opt.optimize(np.array(x0, dtype=float))
        except nlopt.ForcedStop:
            raise TargetHit from None
        except (nlopt.RoundoffLimited, RuntimeError, ValueError):
            pass  # NLopt's failures end this local run; the next restarts
        if problem.final_target_hit:
            raise TargetHit

    restarted(problem, budget, seed, local_run)


def run_cobyla_pdfo(problem, budget, args, seed):
    import numpy as np
    from pdfo import pdfo

    constraint = {"type": "ineq", "fun": lambda x: -np.asarray(problem.constraint(x))}

    def local_run(f, x0, left):
        pdfo(f, x0, method="cobyla", constraints=[constraint],
             options={"maxfev": left, "rhobeg": args.rhobeg, "rhoend": args.tol, "quiet": True})

    restarted(problem, budget, seed, local_run)


def run_cobyqa(problem, budget, args, seed):
    import cobyqa
    import numpy as np
    from scipy.optimize import NonlinearConstraint

    constraint = NonlinearConstraint(problem.constraint, -np.inf, 0.0)

    def local_run(f, x0, left):
        cobyqa.minimize(f, x0, constraints=[constraint],
                        options={"maxfev": left, "radius_init": args.rhobeg,
                                 "radius_final": args.tol})

    restarted(problem, budget, seed, local_run)


def run_optuna_gp(problem, budget, args, seed):
    import numpy as np
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    dim = problem.dimension
    lower, upper = problem.lower_bounds, problem.upper_bounds
    names = [f"x{i}" for i in range(dim)]
    violations = {}

    def objective(trial):
        x = np.array([trial.suggest_float(nm, lower[i], upper[i]) for i, nm in enumerate(names)])
        g = np.asarray(problem.constraint(x), dtype=float)
        violations[trial.number] = g
        return problem(x)

    sampler = optuna.samplers.GPSampler(
        seed=seed, deterministic_objective=True, n_startup_trials=args.startup,
        constraints_func=lambda trial: violations[trial.number].tolist())
    study = optuna.create_study(sampler=sampler)
    study.enqueue_trial(dict(zip(names, map(float, problem.initial_solution))))
    # one trial evaluates f and g: two of COCO's evaluations
    for _ in range(budget // 2):
        if problem.final_target_hit:
            return
        study.optimize(objective, n_trials=1)


SOLVERS = {
    "al-cma-es": ("AL-CMA-ES", run_al_cma_es),
    "cobyla": ("COBYLA", run_cobyla),
    "cobyla-nlopt": ("COBYLA", run_cobyla_nlopt),
    "cobyla-pdfo": ("COBYLA", run_cobyla_pdfo),
    "cobyqa": ("COBYQA", run_cobyqa),
    "optuna-gp": ("GP-sampler", run_optuna_gp),
}


def info(args):
    if args.solver == "al-cma-es":
        import cma
        return (f"pycma {cma.__version__} fmin_con2, default settings, sigma0 {args.sigma0}, "
                f"budget {args.budget_multiplier} x n f+g evaluations")
    if args.solver == "optuna-gp":
        import optuna
        return (f"Optuna {optuna.__version__} GPSampler with constraints_func, "
                f"n_startup_trials {args.startup}, the initial "
                f"solution enqueued, budget {args.budget_multiplier} x n f+g evaluations")
    if args.solver == "cobyla":
        import scipy
        name = f"scipy {scipy.__version__} COBYLA"
    elif args.solver == "cobyla-nlopt":
        import nlopt
        name = f"NLopt {nlopt.__version__} LN_COBYLA"
    elif args.solver == "cobyla-pdfo":
        import pdfo
        name = f"PDFO {pdfo.__version__} COBYLA"
    else:
        import cobyqa
        name = f"cobyqa {cobyqa.__version__}"
    return (f"{name} restarted from U[-4,4]^n, rhobeg {args.rhobeg}, tol {args.tol}, "
            f"budget {args.budget_multiplier} x n f+g evaluations")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--solver", choices=sorted(SOLVERS), required=True)
    ap.add_argument("--dims", default="2,3,5,10,20")
    ap.add_argument("--functions", default="1-54")
    ap.add_argument("--instances", default="1-15")
    ap.add_argument("--budget-multiplier", type=int, default=10_000,
                    help="budget in f + g evaluations per dimension")
    ap.add_argument("--sigma0", type=float, default=2.0, help="AL-CMA-ES's initial σ")
    ap.add_argument("--startup", type=int, default=10,
                    help="the GP sampler's n_startup_trials (random trials before the GP; "
                         "Optuna's default 10, the enqueued initial solution among them)")
    ap.add_argument("--rhobeg", type=float, default=1.0,
                    help="COBYLA's and COBYQA's initial trust-region radius")
    ap.add_argument("--tol", type=float, default=1e-4,
                    help="COBYLA's and COBYQA's final trust-region radius")
    ap.add_argument("--batch", default="1/1", help="I/N: every N-th problem from the I-th")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    import cocoex

    algorithm, solve = SOLVERS[args.solver]
    index, count = (int(v) for v in args.batch.split("/"))
    if not 1 <= index <= count:
        ap.error(f"--batch {args.batch}: I must be between 1 and N")
    instances = ranges(args.instances)
    os.makedirs(args.out, exist_ok=True)
    for dim in ranges(args.dims):
        name = f"D{dim}-batch{index}of{count}"
        folder = os.path.join(args.out, name)
        done = os.path.join(folder, ".done")
        if os.path.exists(done):
            print(f"{name}: done before, skipped", flush=True)
            continue
        shutil.rmtree(folder, ignore_errors=True)
        suite_instance, options = suite_options(dim, args.functions, instances)
        suite = cocoex.Suite("bbob-constrained", suite_instance, options)
        # cocoex writes below ./exdata: chdir so that the folder lands where we want it.
        cwd = os.getcwd()
        staging = os.path.join(args.out, ".staging")
        os.makedirs(staging, exist_ok=True)
        os.chdir(staging)
        try:
            shutil.rmtree(os.path.join("exdata", name), ignore_errors=True)
            observer = cocoex.Observer(
                "bbob-constrained",
                f"result_folder: {name} algorithm_name: {algorithm} "
                f"algorithm_info: \"{info(args)}\"")
            times = []
            start_dim = time.time()
            budget = args.budget_multiplier * dim
            for k, problem in enumerate(suite):
                if k % count != index - 1:
                    continue
                problem.observe_with(observer)
                f_id, inst = problem.id_function, problem.id_instance
                seed = 100_000 * dim + 1000 * f_id + inst
                t0 = time.time()
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    solve(problem, budget, args, seed)
                times.append({"function": f_id, "instance": inst, "dim": dim,
                              "seconds": time.time() - t0,
                              "f_evaluations": int(problem.evaluations),
                              "g_evaluations": int(problem.evaluations_constraints),
                              "final_target_hit": bool(problem.final_target_hit)})
                problem.free()
            observer = None  # flushes the files
            del suite
        finally:
            os.chdir(cwd)
        shutil.move(os.path.join(staging, "exdata", name), folder)
        with open(os.path.join(folder, "times.jsonl"), "w") as fh:
            for t in times:
                fh.write(json.dumps(t) + "\n")
        open(done, "w").close()
        print(f"{name}: {len(times)} runs in {time.time() - start_dim:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
