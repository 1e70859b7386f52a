"""εMAg-ES and its variants, the CEC2017 and bbob-constrained suites, and the statistics
to compare constrained optimizers — with the Rust core of the `emages` workspace.

Sign conventions, everywhere: an inequality constraint is satisfied when ``g(x) <= 0``;
an equality constraint when ``|h(x)| <= equality_margin`` (1e-4 by default, the CEC's
δ). The mean violation ν̄ is the mean over all constraints of ``max(g, 0)`` and of
``|h|`` where it exceeds the margin; a point is feasible when ν̄ = 0.

    >>> import emages
    >>> res = emages.minimize(lambda x: x @ x, x0=[2.0, 2.0], sigma0=0.5,
    ...                       ineq=lambda x: [1 - x[0] - x[1]], budget=20_000, seed=1)
    >>> res.feasible, round(res.fun, 6)
    (True, 0.5)
"""

from __future__ import annotations

from ._core import (DEFAULT_VARIANT, NO_CONVERGENCE, PORTFOLIO, STRATEGIES, VARIANTS,  # noqa: F401
                    BbobConstrained, Cec2017, Cec2020Rw, Options, PortfolioOptions, __version__,
                    _emages, kernel, run_seed)
from ._minimize import minimize
from ._result import OptimizeResult, _result_class
from ._stats import TestResult, cec_compare, cec_statistics, ranksum, signrank

__all__ = [
    "minimize",
    "OptimizeResult",
    "AskTell",
    "Request",
    "Cec2017",
    "BbobConstrained",
    "Cec2020Rw",
    "signrank",
    "ranksum",
    "TestResult",
    "cec_statistics",
    "cec_compare",
    "run_seed",
    "kernel",
    "VARIANTS",
    "STRATEGIES",
    "DEFAULT_VARIANT",
    "NO_CONVERGENCE",
    "PORTFOLIO",
    "Options",
    "PortfolioOptions",
]


def __getattr__(name: str):
    # Unpickling a result made with scipy's base, or an AskTell's.
    if name == "_ScipyOptimizeResult":
        return _result_class()
    if name == "_AskTellResult":
        from ._asktell import _asktell_result_class

        return _asktell_result_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


from ._asktell import AskTell, Request  # noqa: E402  (the names above first)
