"""Type stubs of the compiled core (``emages._emages``); the public API is re-exported
by ``emages`` (see its docstrings)."""

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

_One = Tuple[float, npt.NDArray[np.float64], npt.NDArray[np.float64], float]
_Many = Tuple[
    npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]
]

class _Problem:
    @property
    def dim(self) -> int: ...
    @property
    def n_ineq(self) -> int: ...
    @property
    def n_eq(self) -> int: ...
    @property
    def equality_margin(self) -> float: ...
    @property
    def lower(self) -> npt.NDArray[np.float64]: ...
    @property
    def upper(self) -> npt.NDArray[np.float64]: ...
    def evaluate(self, x: npt.ArrayLike) -> _One:
        """``(f, g, h, violation)`` at ``x`` of shape ``(N,)``; ``g <= 0`` and
        ``|h| <= equality_margin`` are satisfied; violation is the mean violation ν̄."""
    def evaluate_batch(self, x: npt.ArrayLike) -> _Many:
        """``(f, g, h, violation)`` of the rows of ``x`` (shape ``(k, N)``): arrays of
        shapes ``(k,)``, ``(k, l)``, ``(k, m)``, ``(k,)``."""
    def jacobian(self, x: npt.ArrayLike) -> Optional[npt.NDArray[np.float64]]:
        """The constraints' Jacobian at ``x``, shape ``(l + m, N)`` (rows ``g`` then
        ``h``), for a problem made with ``jacobian=True``; ``None`` for a black box."""

class Cec2017(_Problem):
    """CEC2017 constrained problem C01–C28 in dimension 10, 30, 50 or 100, on the
    official instance data compiled into the package (``data=DIR`` or
    ``$CEC2017_DATA_DIR``: a folder of the competition's text files instead;
    ``synthetic=SEED``: a synthetic instance)."""
    def __init__(
        self,
        problem: int,
        dim: int,
        *,
        data: Optional[str] = None,
        synthetic: Optional[int] = None,
        fast: bool = False,
        jacobian: bool = False,
    ) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def instance(self) -> str: ...

class BbobConstrained(_Problem):
    """COCO's bbob-constrained function 1–54 (cocoex 2.8.2's, bit for bit)."""
    def __init__(self, function: int, dim: int, instance: int = 1) -> None: ...
    @property
    def id(self) -> str: ...
    @property
    def initial_solution(self) -> npt.NDArray[np.float64]: ...
    @property
    def best_value(self) -> float: ...
    @property
    def best_parameter(self) -> npt.NDArray[np.float64]: ...
    @property
    def evaluations(self) -> Tuple[int, int]:
        """``(f evaluations, g evaluations)`` so far."""

class Cec2020Rw(_Problem):
    """CEC2020 real-world constrained problem RC01–RC57 (the organisers' formulas);
    ``jacobian=True``: with its exact constraint Jacobian (automatic differentiation,
    one evaluation each, as the competition counts)."""
    def __init__(self, problem: int, *, jacobian: bool = False) -> None: ...
    @property
    def label(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def max_fes(self) -> int:
        """The competition's budget for the problem's dimension."""
    @property
    def best_known(self) -> float:
        """The guidelines' best-known feasible objective value."""

_BackCalculation = Union[str, Dict[str, Union[str, float]]]

class Options:
    """A run's settings, typed field by field (see ``emages.Options``). Each keyword is
    checked as it is given; ``lambda`` is also spelled ``lambda_`` (a Python keyword)
    and ``popsize`` (pycma's), ``budget`` ``maxfev`` and ``max_generations`` ``maxiter``
    (scipy's)."""
    def __init__(
        self,
        *,
        budget: Optional[int] = ...,
        maxfev: Optional[int] = ...,
        max_generations: Optional[int] = ...,
        maxiter: Optional[int] = ...,
        max_generations_per_run: Optional[int] = ...,
        checkpoints: Sequence[int] = ...,
        record_dynamics: bool = ...,
        tol_fun: float = ...,
        tol_x: float = ...,
        target: Optional[float] = ...,
        stagnation: Optional[int] = ...,
        disp: Union[bool, int, None] = ...,
        sigma0: float = ...,
        initial_mean: Optional[Sequence[float]] = ...,
        lambda_: Optional[int] = ...,
        popsize: Optional[int] = ...,
        mu: Optional[int] = ...,
        weights: Optional[Sequence[float]] = ...,
        c_sigma: Optional[float] = ...,
        c1: Optional[float] = ...,
        c_mu: Optional[float] = ...,
        sigma_max: float = ...,
        t_max: int = ...,
        theta_t: float = ...,
        gamma_min: float = ...,
        theta_p: float = ...,
        theta_r: int = ...,
        eta: float = ...,
        pinv_tolerance: float = ...,
        back_calculation: _BackCalculation = ...,
    ) -> None: ...
    budget: Optional[int]
    max_generations: Optional[int]
    max_generations_per_run: Optional[int]
    checkpoints: List[int]
    record_dynamics: bool
    tol_fun: float
    tol_x: float
    target: Optional[float]
    stagnation: Optional[int]
    disp: int
    sigma0: float
    initial_mean: Optional[List[float]]
    lambda_: Optional[int]
    mu: Optional[int]
    weights: Optional[List[float]]
    c_sigma: Optional[float]
    c1: Optional[float]
    c_mu: Optional[float]
    sigma_max: float
    t_max: int
    theta_t: float
    gamma_min: float
    theta_p: float
    theta_r: int
    eta: float
    pinv_tolerance: float
    back_calculation: _BackCalculation
    def replace(self, **fields: Any) -> Options: ...
    def is_given(self, key: str) -> bool: ...
    def to_dict(self, given: bool = False) -> Dict[str, Any]: ...
    @staticmethod
    def keys() -> List[str]: ...

class PortfolioOptions:
    """The portfolio's settings, typed field by field (see ``emages.PortfolioOptions``)."""
    def __init__(
        self,
        *,
        budget: Optional[int] = ...,
        maxfev: Optional[int] = ...,
        disp: Union[bool, int, None] = ...,
        confirmations: int = ...,
        es_budget_per_dim: int = ...,
        initial_share: float = ...,
        max_share: float = ...,
        es: str = ...,
        sigma0: Optional[float] = ...,
        target: Optional[float] = ...,
        bound_local_runs: bool = ...,
        sqp_initial_step: Optional[float] = ...,
        sqp_difference_step: float = ...,
        sqp_margin: float = ...,
        sqp_step_tolerance: float = ...,
        sqp_relaxation_weight: float = ...,
        sqp_curvature_steering: bool = ...,
        sqp_second_order_correction: bool = ...,
    ) -> None: ...
    budget: Optional[int]
    disp: int
    confirmations: int
    es_budget_per_dim: int
    initial_share: float
    max_share: float
    es: str
    sigma0: Optional[float]
    target: Optional[float]
    bound_local_runs: bool
    sqp_initial_step: Optional[float]
    sqp_difference_step: float
    sqp_margin: float
    sqp_step_tolerance: float
    sqp_relaxation_weight: float
    sqp_curvature_steering: bool
    sqp_second_order_correction: bool
    def replace(self, **fields: Any) -> PortfolioOptions: ...
    def is_given(self, key: str) -> bool: ...
    def to_dict(self, given: bool = False) -> Dict[str, Any]: ...
    @staticmethod
    def keys() -> List[str]: ...

class _AskTell:
    """One compiled core for every strategy, over the solver contract."""
    @staticmethod
    def es(
        lower: Sequence[float],
        upper: Sequence[float],
        n_ineq: int,
        n_eq: int,
        margin: float,
        variant: str,
        options: Options,
        seed: int,
        jacobian: bool,
    ) -> _AskTell: ...
    @staticmethod
    def portfolio(
        lower: Sequence[float],
        upper: Sequence[float],
        n_ineq: int,
        n_eq: int,
        margin: float,
        options: PortfolioOptions,
        seed: int,
        x0: Optional[Sequence[float]] = None,
        jacobian: bool = False,
        history: bool = False,
    ) -> _AskTell: ...
    def ask(self) -> Optional[Tuple[npt.NDArray[np.float64], bool, str, int]]: ...
    def tell(
        self,
        f: Optional[npt.ArrayLike],
        g: Optional[npt.ArrayLike] = None,
        h: Optional[npt.ArrayLike] = None,
    ) -> bool: ...
    def stop(self) -> None: ...
    def result(self) -> dict: ...
    def status(self) -> Tuple[int, int, float, float, float, bool, int]: ...
    @property
    def mean(self) -> npt.NDArray[np.float64]: ...
    @property
    def dim(self) -> int: ...
    @property
    def is_portfolio(self) -> bool: ...

class _Progress:
    """The progress lines every run prints (Rust's formatter)."""
    def __init__(self, every: int) -> None: ...
    def lines(self, iterations: int, evaluations: int, objective: float, violation: float,
              step_size: float, local: bool, run: int = 1) -> List[str]: ...
    def finish(self) -> Optional[str]: ...

TERMINATIONS: List[Tuple[str, int, str]]
RECOMMENDED_PORTFOLIO: str
DEFAULT_EQUALITY_MARGIN: float

def _recommended_half_plane(seed: int, budget: int) -> Tuple[List[List[float]], int]:
    """The recommended strategy in Rust on the half plane: its points and evaluations."""

def _run_native(problem: _Problem, variant: str, options: Options, seed: int) -> dict: ...
def _run_portfolio_native(problem: _Problem, options: PortfolioOptions, seed: int,
                          x0: Optional[List[float]]) -> dict: ...
def _run_callbacks(
    fun: object,
    ineq: Optional[object],
    eq: Optional[object],
    joint: bool,
    vectorized: bool,
    lower: Sequence[float],
    upper: Sequence[float],
    n_ineq: int,
    n_eq: int,
    margin: float,
    variant: str,
    options: Options,
    seed: int,
    jac: Optional[object] = None,
) -> dict: ...
def run_seed(base: int, label: str, problem: int, dim: int, run: int) -> int:
    """The seed of a study's run (the harness's): a Python run with it repeats it."""
def kernel() -> Optional[str]:
    """The OpenBLAS kernel family this process runs."""
def _signrank(x: Sequence[float], y: Sequence[float], alpha: float = 0.05) -> dict: ...
def _ranksum(x: Sequence[float], y: Sequence[float], alpha: float = 0.05) -> dict: ...
def _cec_statistics(
    f: Sequence[float], v: Sequence[float], c: Optional[Sequence[Tuple[int, int, int]]] = None
) -> dict: ...
def _cec_compare(
    baseline_f: Sequence[float],
    baseline_v: Sequence[float],
    variant_f: Sequence[float],
    variant_v: Sequence[float],
    test: str = "signed-rank",
    alpha: float = 0.05,
) -> dict: ...
