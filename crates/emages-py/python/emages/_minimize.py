"""``minimize``: scipy's calling conventions for every strategy of the package."""

from __future__ import annotations

import inspect
import math
import numbers
import secrets
import warnings
from collections.abc import Mapping
from typing import Any, Callable, Optional, Sequence

import numpy as np

from ._core import (DEFAULT_VARIANT, PORTFOLIO, BbobConstrained, Cec2017, Cec2020Rw, Options,
                    PortfolioOptions, _emages)
from ._problem import (_box, _budget, _callables, _Callables, _DifferencedJacobian, _given, _inside,
                       _ValueAndGradient, _WithArgs)
from ._result import OptimizeResult, _finished


def _typed_options(options, budget, tol, cls=None):
    """``options`` (a dict of settings, a typed :class:`Options` or
    :class:`PortfolioOptions`, or ``None``) as the typed ``cls``, with scipy's spellings
    (``maxiter``, ``maxfev``) resolved by the class; ``budget`` sets the budget (with a
    different ``maxfev`` given, the smaller holds, with a warning), ``tol`` sets
    ``tol_fun`` and ``tol_x`` unless they are given."""
    cls = Options if cls is None else cls
    if options is None:
        opts = cls()
    elif isinstance(options, cls):
        opts = options
    elif isinstance(options, PortfolioOptions):
        raise ValueError("options: a PortfolioOptions is not for this variant: give an emages.Options "
                         "or a dict, or variant=\"portfolio\"")
    elif isinstance(options, Options):
        raise ValueError("options: an Options is not for the portfolio (the default variant): give an "
                         "emages.PortfolioOptions or a dict, or an ES variant such as variant=\"eps-mag-es-r\"")
    elif isinstance(options, Mapping):
        if not all(isinstance(k, str) for k in options):
            raise ValueError(f"options: keys are strings, not {[k for k in options if not isinstance(k, str)]!r}")
        opts = cls(**options)
    else:
        raise ValueError(f"options must be a dict or an emages.{cls.__name__}, not {type(options).__name__}")
    if budget is not None:
        b = _budget(budget)
        if opts.is_given("budget") and opts.budget != b:
            # As scipy's methods with two limits: the run stops at the first reached.
            warnings.warn(f"options maxfev={opts.budget!r} and budget={budget!r} differ: the smaller, "
                          f"{min(opts.budget, b)}, holds (the run stops at the first limit reached)",
                          UserWarning, stacklevel=3)
            b = min(opts.budget, b)
        opts = opts.replace(budget=b)
    if tol is not None:
        if isinstance(tol, bool) or not isinstance(tol, numbers.Real) or not (math.isfinite(tol) and tol >= 0):
            raise ValueError(f"tol must be a finite number >= 0, not {tol!r}")
        opts = opts.replace(**{k: float(tol) for k in ("tol_fun", "tol_x") if not opts.is_given(k)})
    return opts


def _scipy_callback(callback):
    """scipy's rule: a callback with a single parameter named ``intermediate_result``
    gets the :class:`OptimizeResult` of the best so far, any other gets ``xk`` (the best
    point, a copy)."""
    if callback is None:
        return None
    try:
        params = list(inspect.signature(callback).parameters)
    except (TypeError, ValueError):
        params = []
    if params == ["intermediate_result"]:
        return callback
    return lambda result: callback(np.array(result["x"], dtype=float))


#: scipy's methods, lower-cased: named as ``method``, they get an error that names ours.
_SCIPY_METHODS = frozenset({
    "nelder-mead", "powell", "cg", "bfgs", "newton-cg", "l-bfgs-b", "tnc", "cobyla", "cobyqa",
    "slsqp", "trust-constr", "dogleg", "trust-ncg", "trust-exact", "trust-krylov",
})


def _strategy(method, variant) -> str:
    """The strategy from scipy's ``method`` and this package's ``variant`` (the same
    thing, two words): one of them, or both the same; scipy's own methods refused with
    the names of ours."""
    if method is None:
        return DEFAULT_VARIANT if variant is None else variant
    if callable(method) or not isinstance(method, str):
        raise ValueError(f"method must be the name of a strategy of emages, not {method!r}: "
                         f"{_OURS}")
    if method.lower() in _SCIPY_METHODS:
        raise ValueError(f"method={method!r} is one of scipy's methods; emages.minimize runs its own: {_OURS} "
                         f"(for {method} itself, call scipy.optimize.minimize)")
    if variant is not None and variant != method:
        raise ValueError(f"method={method!r} and variant={variant!r} name two strategies: give one of them")
    return method


_OURS = (f"{PORTFOLIO!r} (the default, the recommended strategy), 'eps-mag-es-r', the paper's variants "
         "(emages.VARIANTS) and the strategies of emages.STRATEGIES, or PRESET:KEY=VALUE…")


def _objective_gradient(jac, fun):
    """scipy's ``jac`` for the objective: ``(fun, grad)`` — a callable ``grad``;
    ``True``: ``fun`` returns ``(f, ∇f)`` (:class:`_ValueAndGradient`); ``None`` or
    ``False``: no gradient. scipy's difference schemes (``'2-point'``, …) mean no
    gradient given: the local phase takes its own differences."""
    if jac is None or jac is False:
        return fun, None
    if jac is True:
        both = _ValueAndGradient(fun)
        return both, both.gradient
    if isinstance(jac, str):
        if jac in ("2-point", "3-point", "cs"):
            return fun, None
        raise ValueError(f"jac must be a callable, True (fun returns (f, gradient)) or None, not {jac!r}")
    if not callable(jac):
        raise ValueError(f"jac must be a callable, True (fun returns (f, gradient)) or None, not {jac!r}")
    return fun, jac


def minimize(
    fun: Any,
    x0: Optional[Sequence[float]] = None,
    args: Any = (),
    method: Optional[str] = None,
    jac: Any = None,
    hess: Any = None,
    hessp: Any = None,
    *,
    sigma0: Optional[float] = None,
    ineq: Optional[Callable] = None,
    eq: Optional[Callable] = None,
    constraints: Any = (),
    bounds: Any = None,
    tol: Optional[float] = None,
    budget: Optional[int] = None,
    variant: Optional[str] = None,
    seed: Optional[int] = None,
    vectorized: bool = False,
    equality_margin: Optional[float] = None,
    options: Any = None,
    history: bool = True,
    executor: Any = None,
    callback: Optional[Callable] = None,
) -> OptimizeResult:
    """Minimises ``fun`` subject to ``ineq(x) <= 0``, ``eq(x) = 0`` and ``bounds`` with
    the portfolio (:data:`PORTFOLIO`, the default) or another ``variant`` (εMAg-ES-R:
    ``"eps-mag-es-r"``).

    Parameters
    ----------
    fun : callable or problem
        ``fun(x) -> float``; with ``vectorized=True``, ``fun(X) -> (k,)`` for the ``k``
        points in the rows of ``X`` (one call per population). Without ``ineq`` and
        ``eq``, ``fun`` may return ``(f, g)`` or ``(f, g, h)`` (values computed together,
        evaluated once). Or a problem of the suites (:class:`Cec2017`,
        :class:`BbobConstrained`, :class:`Cec2020Rw`): the run then stays in Rust.
    x0 : array_like, optional
        Where to start: the initial population is ``x0 + sigma0 z``, reflected into the
        box. Without it (finite ``bounds`` needed), the population is uniform in the box,
        as the reference algorithm starts.
    args : tuple, optional
        Extra arguments of ``fun`` (and of ``jac``): ``fun(x, *args)`` (scipy's ``args``;
        the constraint callables take none). A single one that is not a tuple is
        wrapped into one, as scipy does.
    method : str, optional
        scipy's word for the strategy: the same as ``variant`` (give one of them).
        scipy's own methods (``"SLSQP"``, …) are refused, naming ours.
    jac : callable or bool, optional
        The objective's gradient ``jac(x) -> (N,)``, or ``True`` when ``fun`` returns
        ``(f, ∇f)``. The portfolio's local phase then takes one gradient (with the
        constraints' Jacobians: their own, or forward differences of the constraint
        functions) per model instead of ``N`` difference probes; each counts as one
        evaluation and in ``njev``. An ES variant takes no gradient (a warning).
    hess, hessp : None
        Not used (the local phase keeps its own curvature model): refused.
    sigma0 : float, optional
        The initial step size (default 1.0, the reference's); with :data:`PORTFOLIO`,
        that of its ES rounds (``options={'sigma0': …}`` says the same).
    ineq, eq : callable, optional
        ``g(x)`` (satisfied when ``<= 0``) and ``h(x)`` (satisfied when
        ``|h| <= equality_margin``), each returning one value per constraint (vectorised:
        shape ``(k, count)``). They are called once at the start to count the
        constraints (not charged to the budget).
    constraints : scipy constraint or dict, or a list of them, optional
        scipy's ``NonlinearConstraint`` (its ``jac`` used when it is a callable) and
        ``LinearConstraint`` — ``lb <= c(x) <= ub``, turned into ``g <= 0`` and
        ``h = 0`` (``lb == ub``) — and scipy's old dicts ``{'type': 'ineq', 'fun': f,
        'jac': …, 'args': …}``. **Mind the signs where the conventions meet:** a dict's
        ``'ineq'`` means ``f(x) >= 0`` (scipy's), while this function's ``ineq`` means
        ``g(x) <= 0``; ``-f`` is the same constraint for both. Beside ``ineq`` and
        ``eq`` (their rows first). When every constraint brings its Jacobian (a
        callable ``jac``, or a linear constraint) and there is no ``ineq``/``eq``
        callable, the repair takes the exact Jacobian, one evaluation each
        (``njev`` counts them); otherwise forward differences. Not with
        ``vectorized=True``; with ``executor`` the Jacobians are computed through it
        too, one point per task.
    bounds : sequence of (low, high) pairs, or scipy.optimize.Bounds, optional
        The box; out-of-box candidates are reflected into it. ``None`` for an open side.
    tol : float, optional
        scipy's tolerance: sets ``tol_fun`` and ``tol_x`` (unless ``options`` gives
        them); with :data:`PORTFOLIO`, its local phase's step tolerance
        ``sqp_step_tolerance`` (COBYLA's ``rhoend``-like, at iterates that satisfy the
        constraints), the accuracy asked for, ``sqp_accuracy``, and, where coarser
        than its default 1e-8, the tolerance within which restarts confirm the best
        point, ``confirm_tolerance`` (each unless ``options`` gives it): the result is
        feasible and within ``tol · max(1, |f|)`` of what the local model says is
        attainable (the back-off that keeps the best point strictly inside the
        inequalities is scaled down until it costs no more; without ``tol``, ``1e-12``).
    budget : int, optional
        Evaluations at most (default ``20000 * N``, the CEC's; ``options={'maxfev': …}``
        says the same); the run stops earlier once it has converged (``options``: the
        convergence criteria).
    variant : str, optional
        :data:`DEFAULT_VARIANT` (:data:`PORTFOLIO`, below), ``"eps-mag-es-r"``
        (εMAg-ES-R: restarts and a polishing end), the
        paper's ``"eps-mag-es"`` or another of :data:`VARIANTS` and
        :data:`STRATEGIES`, or ``PRESET:KEY=VALUE…``, e.g.
        ``"eps-mag-es:restarts=bipop:population=log:eps-end=5%"`` (restarts, CMA-ES's
        λ = 4 + ⌊3 ln N⌋, ε ending at 5 % of the run). :data:`PORTFOLIO`
        (``"portfolio"``, the default): the SQP local phase and εMAg-ES-R in rounds, for
        expensive smooth problems (its ``options``, :class:`PortfolioOptions`:
        ``confirmations``, ``target``, ``es_budget_per_dim``, ``initial_share``,
        ``max_share``, ``sigma0``, ``sqp_…``; an ES's keys are refused with the variant
        they need).
    seed : int, optional
        The run's seed (default: drawn at random, reported in the result).
    vectorized : bool
        Whether the callables take the population at once.
    equality_margin : float, optional
        δ: an equality is satisfied when ``|h| <= δ`` (``feasible``, ``success`` and the
        run's order of points use it). Default ``1e-4`` (the CEC's) for the ES
        variants, ``1e-8`` for :data:`PORTFOLIO`.
    options : dict or Options, optional
        The run's settings: an :class:`Options` (the portfolio's:
        :class:`PortfolioOptions`), or a dict of its keys (each value checked as it is
        given, the error naming the key). ``maxiter`` means the iterations at most
        under every strategy: an ES's generations over all its restarts, the
        portfolio's iterations (each tell of its local phase, each generation of its ES
        rounds); ``maxfev`` is the budget (with ``budget`` given too, the smaller
        holds, with a warning). An ES's keys: any field of the strategy's
        configuration: ``lambda``, ``mu``, ``theta_p``, ``theta_r``, ``t_max``,
        ``sigma_max``, … (see ``ma_es::Config``); of the run's limits:
        ``max_generations`` (``maxiter``), ``checkpoints``; ``disp`` (``True``:
        a progress line every 100 generations, as pycma's; a number ``k``: every ``k``;
        lines for the generations 1–3 and the last too); and the convergence criteria
        (``ma_es::control``), on by default: ``tol_fun`` (default ``1e-11``), ``tol_x``
        (``1e-11``), ``stagnation`` (generations without improvement; default
        ``100 + ceil(100 N**1.5 / lambda)``), ``target`` (stop once a feasible
        ``fun <= target``; default none). A tolerance of 0 (``stagnation=0``) switches
        that criterion off; all four off run to the budget. Unknown keys are errors.
    history : bool
        Record the per-generation (the portfolio: per-iteration) history.
    executor : concurrent.futures.Executor, optional
        Evaluates every request of the strategy — each population, the repair's Jacobian
        probes, the repaired points — through ``executor.submit``, one point per task, all
        of a request's at once (``ProcessPoolExecutor``, Dask's ``Client.get_executor()``,
        mpi4py's ``MPIPoolExecutor``, …; an object with ``map`` alone is mapped over); the
        values are taken in order, so the same seed gives
        the same result as a serial run. The callables must be picklable for a process
        pool (functions defined at a module's top level, not lambdas).
    callback : callable, optional
        Called after every generation, by scipy's rule: ``callback(intermediate_result)``
        (a single parameter of that name) gets an :class:`OptimizeResult` of the best so
        far (``x``, ``fun``, ``violation``, ``feasible``, ``nit``, ``evaluations``); any
        other, ``callback(xk)``, the best point. Raising ``StopIteration`` in it ends
        the run cleanly (``termination`` is ``stopped``).

    Returns
    -------
    OptimizeResult

    Raises
    ------
    ValueError
        Bad input (shapes, NaN, bounds, options), with the reason.
    Exception
        Whatever a callable raises stops the run and is re-raised; Ctrl-C raises
        ``KeyboardInterrupt``.
    """
    if seed is None:
        seed = secrets.randbits(63)
    variant = _strategy(method, variant)
    for name, given in (("hess", hess), ("hessp", hessp)):
        if given is not None:
            raise ValueError(f"{name} is not used: the local phase builds its own curvature model (BFGS) "
                             "from gradients; give jac, or nothing")
    if not isinstance(args, tuple):
        # scipy's rule: a single extra argument is wrapped into a tuple.
        args = (args,)
    native = isinstance(fun, (Cec2017, BbobConstrained, Cec2020Rw))
    if args:
        if not callable(fun) or native:
            raise ValueError("args are extra arguments of a callable fun; a suite problem takes none")
        fun = _WithArgs(fun, args)
        if callable(jac):
            jac = _WithArgs(jac, args)
    if native and jac not in (None, False):
        raise ValueError("jac: a suite problem brings its own derivatives (or none)")
    fun, grad = _objective_gradient(jac, fun)
    callback = _scipy_callback(callback)
    if variant == PORTFOLIO:
        return _minimize_portfolio(
            fun, x0, sigma0, ineq, eq, constraints, bounds, budget, tol, seed, vectorized,
            equality_margin, options, executor, callback, history, grad,
        )
    if grad is not None:
        warnings.warn(f"jac (the objective's gradient) is used by the portfolio's local phase; "
                      f"{variant!r} is an ES and takes no gradient (the constraints' Jacobians it takes "
                      "through constraints=)", UserWarning, stacklevel=2)
        if isinstance(fun, _ValueAndGradient):
            fun = fun.value
    if equality_margin is None:
        equality_margin = 1e-4
    opts = _typed_options(options, budget, tol)
    if sigma0 is not None:
        opts = opts.replace(sigma0=_sigma0(sigma0))
    opts = opts.replace(record_dynamics=bool(history))

    if native:
        n = fun.dim
    elif x0 is not None or bounds is not None:
        n = _dimension(x0, bounds)
    else:
        raise ValueError("give x0 (where to start) or finite bounds (to start uniformly in the box)")
    if x0 is not None:
        x0 = np.asarray(x0, dtype=float)
        if x0.ndim != 1 or x0.size != n:
            raise ValueError(f"x0 must be a 1-d array of {n} numbers, not of shape {x0.shape}")
        if not np.isfinite(x0).all():
            raise ValueError("x0 must be finite")
        opts = opts.replace(initial_mean=x0.tolist())

    if native:
        if bounds is not None or ineq is not None or eq is not None or _given(constraints):
            raise ValueError("a suite problem brings its own bounds and constraints")
        raw = _emages._run_native(fun, variant, opts, seed)
    else:
        if not callable(fun):
            raise TypeError("fun must be callable (or a Cec2017/BbobConstrained/Cec2020Rw problem)")
        lb, ub = _box(bounds, n)
        if x0 is not None:
            _inside(x0, lb, ub)
        if x0 is None and not (np.isfinite(lb).all() and np.isfinite(ub).all()):
            raise ValueError("without x0, the initial population is uniform in the box: give finite bounds")
        probe = x0 if x0 is not None else (lb + ub) / 2
        ineq, eq, joint, l, m, jac = _callables(fun, ineq, eq, constraints, vectorized, probe)
        if executor is None and callback is None:
            raw = _emages._run_callbacks(
                fun, ineq, eq, joint, bool(vectorized), lb.tolist(), ub.tolist(), l, m,
                float(equality_margin), variant, opts, seed, jac,
            )
        else:
            from ._asktell import _drive

            core = _emages._AskTell.es(
                lb.tolist(), ub.tolist(), l, m, float(equality_margin), variant, opts, seed,
                jac is not None,
            )
            task = _Callables(fun, ineq, eq, joint, bool(vectorized), l, m, jac)
            raw = _drive(core, task, executor, callback, seed, opts.disp)
    return _finished(raw, seed)


def _dimension(x0, bounds) -> int:
    """The dimension from ``x0`` (1-d, finite) and ``bounds`` (one pair per variable,
    or scipy's ``Bounds`` with scalars broadcast): they must agree, else an error that
    names both."""
    n = None
    if x0 is not None:
        x = np.asarray(x0, dtype=float)
        if x.ndim != 1:
            raise ValueError(f"x0 must be a 1-d array of numbers, not of shape {x.shape}")
        if not np.isfinite(x).all():
            raise ValueError("x0 must be finite")
        n = x.size
    if bounds is None:
        return n
    if hasattr(bounds, "lb") and hasattr(bounds, "ub"):
        sizes = {np.asarray(bounds.lb).size, np.asarray(bounds.ub).size} - {1}
        if len(sizes) > 1:
            raise ValueError(f"bounds: lb and ub have {np.asarray(bounds.lb).size} and {np.asarray(bounds.ub).size} "
                             "entries: one of each per variable")
        count = sizes.pop() if sizes else None
    else:
        count = len(list(bounds))
    if n is None:
        if count is None:
            raise ValueError("scalar bounds: give x0 too (its length is the dimension)")
        return count
    if count is not None and count != n:
        raise ValueError(f"x0 has {n} components, but bounds has {count} (low, high) pairs: give one "
                         "start value and one pair of bounds per variable")
    return n


def _sigma0(sigma0) -> float:
    """``sigma0`` checked: a finite positive number."""
    if isinstance(sigma0, bool) or not (isinstance(sigma0, (int, float)) and math.isfinite(sigma0) and sigma0 > 0):
        raise ValueError(f"sigma0 must be a finite positive number, not {sigma0!r}")
    return float(sigma0)


def _minimize_portfolio(fun, x0, sigma0, ineq, eq, constraints, bounds, budget, tol, seed, vectorized,
                        equality_margin, options, executor, callback, history=True,
                        grad=None) -> OptimizeResult:
    """:func:`minimize` with ``variant=PORTFOLIO``."""
    opts = _typed_options(options, budget, None, PortfolioOptions)
    if sigma0 is not None:
        opts = opts.replace(sigma0=_sigma0(sigma0))
    if tol is not None:
        if isinstance(tol, bool) or not (isinstance(tol, (int, float)) and math.isfinite(tol) and tol > 0):
            raise ValueError(f"tol must be a finite positive number, not {tol!r}")
        if not opts.is_given("sqp_step_tolerance"):
            # The local phase's end: a step below tol · max(1, ‖x‖∞) (COBYLA's rhoend-like).
            opts = opts.replace(sqp_step_tolerance=float(tol))
        if not opts.is_given("sqp_accuracy"):
            # And the accuracy asked for: the back-off costs at most tol · max(1, |f|).
            opts = opts.replace(sqp_accuracy=float(tol))
        if not opts.is_given("confirm_tolerance"):
            # And the restarts confirm the best point within tol · max(1, |f|) where tol
            # is coarser than the default's 1e-8.
            opts = opts.replace(confirm_tolerance=max(float(tol), PortfolioOptions().confirm_tolerance))
    if isinstance(fun, (Cec2017, BbobConstrained, Cec2020Rw)):
        return _minimize_portfolio_native(fun, x0, ineq, eq, constraints, bounds, seed, vectorized,
                                          equality_margin, opts, executor, callback, history)
    if grad is not None and vectorized:
        raise ValueError("jac (the objective's gradient) takes one point at a time: not with vectorized=True")
    if not callable(fun):
        raise TypeError("fun must be callable")
    if equality_margin is None:
        equality_margin = _emages.DEFAULT_EQUALITY_MARGIN
    if not (isinstance(equality_margin, (int, float)) and math.isfinite(equality_margin) and equality_margin >= 0):
        raise ValueError(f"equality_margin must be a finite number >= 0, not {equality_margin!r}")
    disp = opts.disp
    if x0 is None and bounds is None:
        raise ValueError("give x0 (where to start) or bounds (the run starts at the box's centre)")
    n = _dimension(x0, bounds)
    if x0 is not None:
        x0 = np.asarray(x0, dtype=float)
    lb, ub = _box(bounds, n)
    if x0 is not None:
        _inside(x0, lb, ub)
    probe = x0 if x0 is not None else np.where(np.isfinite(lb) & np.isfinite(ub), (lb + ub) / 2, 0.0)
    # The constraints' Jacobian, when every constraint brings one, goes to the ES rounds'
    # repair (the local phase takes differences: its probes are needed for ∇f anyway).
    ineq, eq, joint, l, m, jac = _callables(fun, ineq, eq, constraints, vectorized, probe)
    if grad is not None:
        if joint:
            raise ValueError("jac (the objective's gradient) with fun returning (f, g[, h]): give the "
                             "constraints apart (ineq=, eq= or constraints=)")
        from ._problem import _gradient

        _gradient(grad, np.array(probe, dtype=float))  # its shape and values, once at the start
        if l + m and jac is None:
            # The local phase's models need the constraints' Jacobian with the gradient:
            # each constraint's own, forward differences of the others.
            jac = _DifferencedJacobian(ineq, eq, l, m, lb, ub)
    start = None if x0 is None else x0.tolist()
    if executor is None and callback is None and not disp:
        raw = _emages._run_portfolio(
            fun, ineq, eq, joint, bool(vectorized), lb.tolist(), ub.tolist(), l, m,
            float(equality_margin), opts, seed, start, jac, bool(history), grad,
        )
    else:
        # By ask and tell (the same run): each request through the executor, one point
        # per task; the callback after every iteration; the progress lines.
        from ._asktell import _drive

        core = _emages._AskTell.portfolio(lb.tolist(), ub.tolist(), l, m, float(equality_margin),
                                         opts, seed, start, jac is not None, bool(history),
                                         grad is not None)
        task = _Callables(fun, ineq, eq, joint, bool(vectorized), l, m, jac, grad)
        raw = _drive(core, task, executor, callback, seed, disp)
    res = _finished(raw, seed)
    res["equality_margin"] = float(equality_margin)
    return res


def _minimize_portfolio_native(problem, x0, ineq, eq, constraints, bounds, seed, vectorized,
                               equality_margin, opts, executor, callback, history=True) -> OptimizeResult:
    """:func:`minimize` with ``variant=PORTFOLIO`` on a problem of the suites: in Rust,
    with the problem's own equality margin."""
    if bounds is not None or ineq is not None or eq is not None or _given(constraints):
        raise ValueError("a suite problem brings its own bounds and constraints")
    for name, given in (("equality_margin", equality_margin is not None), ("executor", executor is not None),
                        ("callback", callback is not None), ("vectorized", bool(vectorized)),
                        ("options disp", bool(opts.disp))):
        if given:
            raise ValueError(f"variant='portfolio' on a suite problem runs in Rust: {name} is for callables "
                             "(the problem's own margin holds)")
    start = None
    if x0 is not None:
        lb, ub = np.asarray(problem.lower, dtype=float), np.asarray(problem.upper, dtype=float)
        start = np.asarray(x0, dtype=float)
        if start.ndim != 1 or start.size != problem.dim or not np.isfinite(start).all():
            raise ValueError(f"x0 must be {problem.dim} finite numbers, not {x0!r}")
        _inside(start, lb, ub)
        start = start.tolist()
    res = _finished(_emages._run_portfolio_native(problem, opts, seed, start, bool(history)), seed)
    res["equality_margin"] = float(problem.equality_margin)
    return res


class _Progress:
    """The progress lines of ``disp``: Rust's formatter (``emages_solver::Progress``), the
    one every run prints — a header, the iterations 1–3 and every ``every``-th, and the
    last."""

    def __init__(self, every: int):
        self._lines = _emages._Progress(int(every))

    def observe(self, iterations, evaluations, fun, violation, step, local=False, run=1) -> None:
        for line in self._lines.lines(int(iterations), int(evaluations), float(fun), float(violation),
                                      float(step), bool(local), int(run)):
            print(line)

    def finish(self) -> None:
        line = self._lines.finish()
        if line is not None:
            print(line)
