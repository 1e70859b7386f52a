"""The compiled core, loaded once with OpenBLAS's canonical kernel, and the names
derived from it that every module of the package uses."""

from __future__ import annotations

import os

def _load_core():
    """Imports the compiled core with OpenBLAS's AVX2/FMA kernels (``Haswell``: the
    kernel of the project's committed results, and faster than the pre-FMA fallback an
    OpenBLAS older than the CPU picks) on CPUs that have them, unless
    ``OPENBLAS_CORETYPE`` is set. OpenBLAS reads it when it loads, so it is set only
    while the core loads, and put back afterwards: a numpy imported later is not
    affected."""
    previous = os.environ.get("OPENBLAS_CORETYPE")
    if previous is None and _has_avx2_fma():
        os.environ["OPENBLAS_CORETYPE"] = "Haswell"
    try:
        from . import _emages
    finally:
        if previous is None:
            os.environ.pop("OPENBLAS_CORETYPE", None)
    return _emages


def _has_avx2_fma() -> bool:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    return {"avx2", "fma"} <= flags
    except OSError:
        pass
    return False


_emages = _load_core()

Cec2017 = _emages.Cec2017
BbobConstrained = _emages.BbobConstrained
Cec2020Rw = _emages.Cec2020Rw
run_seed = _emages.run_seed
kernel = _emages.kernel
__version__ = _emages.__version__

#: The paper's seven variants (any of them, or ``PRESET:KEY=VALUE…`` with components
#: changed, e.g. ``"eps-mag-es:step-size=median-success"``, is a ``variant``).
VARIANTS = tuple(_emages.PRESETS)

#: Strategies beyond the paper's seven, designed from its components (docs/strategy-design.md); a name
#: is a ``variant`` too, also with components changed (``"eps-mag-es-r:polish=off"``).
#: εMAg-ES-R: BIPOP restarts, ε ending at 10 % of each run, the relative range stall
#: and the last half of the budget polishing the best (docs/strategy-design.md, entry 13).
#: εMAg-ES-RLM: εMAg-ES-R with the Levenberg–Marquardt repair every generation, for
#: problems that give their constraint Jacobian (``jac`` of a ``NonlinearConstraint``,
#: linear constraints); by differences it loses to εMAg-ES-R (entries 19 and 21).
STRATEGIES = tuple(_emages.STRATEGIES)


#: The ``variant`` of :func:`minimize` for the portfolio, the recommended strategy (Rust's
#: ``emages::recommended()``): the SQP local phase on forward-difference models and
#: εMAg-ES-R in rounds, the local phase's share of each round following progress; it
#: stops once five runs of the local phase in a row end at the best point
#: (``options={'confirmations': 0}``: to the budget) or at ``options={'target': t}``.
#: For expensive smooth problems, where evaluations count: Rosen–Suzuki is solved within
#: ~50 evaluations and the run stops after ~300. The constraints' ``jac`` goes to its ES
#: rounds' repair; equalities are held to ``equality_margin = 1e-8`` unless it is given.
PORTFOLIO = _emages.RECOMMENDED_PORTFOLIO

#: The ``variant`` of :func:`minimize` and :class:`AskTell` when none is given: the
#: portfolio, which reaches in hundreds of evaluations what εMAg-ES-R reaches in
#: thousands, and leads it on bbob-constrained and CEC2020; it loses CEC2017 at N = 50
#: at the CEC's full budget, where a long ES run pays (docs/strategy-design.md §27–34).
#: The ES variants by name: ``"eps-mag-es-r"``, the paper's ``"eps-mag-es"``.
DEFAULT_VARIANT = PORTFOLIO

#: ``options`` that switch every convergence criterion off: the run goes to its budget
#: (or generation limit), as the suites' protocols run (``ma_es::control``). Merge it
#: with other options: ``options={**emages.NO_CONVERGENCE, "t_max": 100}``.
NO_CONVERGENCE = {"tol_fun": 0.0, "tol_x": 0.0, "stagnation": 0}

#: A run's settings, typed field by field: ``Options(budget=…, tol_fun=…, lambda_=…)``
#: (``options=`` of :func:`minimize` and :class:`AskTell` takes one, or a dict of the
#: same keys). Each value is checked as it is given, the error naming the key;
#: ``Options.keys()`` lists the keys, ``opts.replace(**fields)`` gives a changed copy,
#: ``opts.to_dict()`` every value. Rust's ``ma_es::Options`` without the variant and
#: the seed: ``Config``'s fields, ``Limits``' (``max_generations`` — scipy's
#: ``maxiter`` — for the whole run), ``Convergence``'s, and ``disp``.
Options = _emages.Options

#: The portfolio's settings (``variant=PORTFOLIO``), typed as :class:`Options`:
#: ``budget``, ``disp``, ``confirmations``, ``es_budget_per_dim``, ``initial_share``,
#: ``max_share``, ``es`` (the ES of each round) and the local phase's ``sqp_…``.
PortfolioOptions = _emages.PortfolioOptions
