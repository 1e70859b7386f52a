"""One run, one report: the same run ended the same way says the same ``termination``,
``status``, ``success`` and ``message`` whether ``minimize`` runs it or the user drives
it through :class:`emages.AskTell` — the end decided once, in Rust
(``emages_solver::Run``)."""

import numpy as np
import pytest

import emages

N = 3
BOUNDS = [(-3.0, 3.0)] * N


def fun(x):
    return float(np.sum((np.asarray(x) - 1.0) ** 2))


def ineq(x):
    return [float(np.sum(x)) - 2.0]  # Σx ≤ 2: the optimum is x = 2/3, f = 1/3


def asktell(options, stop_after=None, **kw):
    """The same run driven by hand: the user's loop over ask and tell."""
    es = emages.AskTell(dim=N, n_ineq=1, bounds=BOUNDS, seed=3, options=options, **kw)
    told = 0
    while (req := es.ask()) is not None:
        X = req.points
        f = None if req.constraints_only else [fun(x) for x in X]
        if es.tell(req, f, ineq=[ineq(x) for x in X]):
            told += 1
            if stop_after is not None and told == stop_after:
                es.terminate()
    return es.result


def the_end(res):
    return (res.termination, res.status, res.success, str(res.message))


ENDINGS = [
    # (what, options, expected termination, status, success)
    ("converged", {}, "confirmed", 0, True),
    ("budget", {"maxfev": 40}, "budget", 1, False),
    ("maxiter", {"maxiter": 3}, "generation limit", 1, False),
]


@pytest.mark.parametrize("what, options, termination, status, success", ENDINGS)
def test_every_route_reports_the_same_end(what, options, termination, status, success):
    by_minimize = emages.minimize(fun, x0=np.zeros(N), ineq=ineq, bounds=BOUNDS, seed=3,
                                  options=options)
    by_hand = asktell(options, x0=np.zeros(N))
    print(f"{what}: minimize {the_end(by_minimize)}, AskTell {the_end(by_hand)}, "
          f"f {by_minimize.fun:.6g} after {by_minimize.evaluations}")
    assert the_end(by_minimize) == the_end(by_hand)
    assert (by_minimize.termination, by_minimize.status, by_minimize.success) == (
        termination, status, success)
    assert by_minimize.evaluations == by_hand.evaluations and by_minimize.fun == by_hand.fun


def test_a_stopped_run_did_not_succeed_on_either_route():
    def stop_at_five(intermediate_result):
        if intermediate_result.nit == 5:
            raise StopIteration

    by_minimize = emages.minimize(fun, x0=np.zeros(N), ineq=ineq, bounds=BOUNDS, seed=3,
                                  callback=stop_at_five)
    by_hand = asktell({}, stop_after=5, x0=np.zeros(N))
    assert the_end(by_minimize) == the_end(by_hand)
    assert (by_minimize.termination, by_minimize.status, by_minimize.success) == ("stopped", 2, False)


def test_maxiter_is_not_success_on_scipys_example():
    """scipy's SLSQP docstring problem, cut at one iteration: the optimum is 0.8, and a
    run cut there has not found it (scipy says ``success=False``, status 9)."""
    cons = ({"type": "ineq", "fun": lambda x: x[0] - 2 * x[1] + 2},
            {"type": "ineq", "fun": lambda x: -x[0] - 2 * x[1] + 6},
            {"type": "ineq", "fun": lambda x: -x[0] + 2 * x[1] + 2})
    res = emages.minimize(lambda x: (x[0] - 1) ** 2 + (x[1] - 2.5) ** 2, x0=[2, 0],
                          bounds=((0, 10), (0, 10)), constraints=cons, seed=1,
                          options={"maxiter": 1})
    assert not res.success and res.termination == "generation limit" and res.status == 1
    full = emages.minimize(lambda x: (x[0] - 1) ** 2 + (x[1] - 2.5) ** 2, x0=[2, 0],
                           bounds=((0, 10), (0, 10)), constraints=cons, seed=1)
    assert full.success and abs(full.fun - 0.8) < 1e-6
