"""The typed settings: ``emages.Options`` and ``emages.PortfolioOptions``
cross into Rust field by field, each value checked where it is given, the error naming
the key; a dict of the same keys gives the same run; no JSON string is taken."""

import pickle

import numpy as np
import pytest

import emages

# One value of each key that differs from its default, as Python reads it back.
VALUES = {
    "budget": 1234,
    "max_generations": 50,
    "max_generations_per_run": 40,
    "checkpoints": [10, 100],
    "record_dynamics": True,
    "tol_fun": 1e-9,
    "tol_x": 1e-10,
    "target": -3.5,
    "stagnation": 0,
    "disp": 7,
    "sigma0": 0.25,
    "initial_mean": [0.5, -0.5],
    "lambda": 12,
    "mu": 4,
    "weights": [0.5, 0.3, 0.2],
    "c_sigma": 0.3,
    "c1": 0.01,
    "c_mu": 0.02,
    "sigma_max": 10.0,
    "t_max": 500,
    "theta_t": 0.8,
    "gamma_min": 2.0,
    "theta_p": 0.1,
    "theta_r": 2,
    "eta": 1e-5,
    "pinv_tolerance": 1e-10,
    "back_calculation": "pseudo-inverse",
}

# The portfolio's: a value of each key that differs from its default, made from the
# Rust declaration (``describe()``) where the type says how, so that a new setting of a
# plain type needs no line here.
PORTFOLIO_SPECIAL = {"es": "eps-mag-es:restarts=ipop", "disp": 3}


def _other_value(key, py_type, default):
    """A value of ``py_type`` other than ``default``."""
    if key in PORTFOLIO_SPECIAL:
        return PORTFOLIO_SPECIAL[key]
    base = py_type.removeprefix("Optional[").removesuffix("]")
    if base == "bool":
        return not default
    if base == "int":
        return 7 if default is None else default + 1
    if base == "float":
        return 0.375 if default is None else default * 0.5 + 0.0625
    raise AssertionError(f"{key}: a value of type {py_type} is not made automatically")


PORTFOLIO_VALUES = {key: _other_value(key, py_type, default)
                    for key, _, py_type, _, default, _ in emages.PortfolioOptions.describe()}


def test_every_key_is_set_and_read_back():
    assert emages.Options.keys() == list(VALUES)
    assert emages.PortfolioOptions.keys() == list(PORTFOLIO_VALUES)
    default = emages.Options()
    for cls, values in ((emages.Options, VALUES), (emages.PortfolioOptions, PORTFOLIO_VALUES)):
        default = cls()
        for key, value in values.items():
            one = cls(**{key: value})
            assert getattr(one, key) == value, key
            assert getattr(default, key) != value, f"{key}: the test's value is the default"
            assert one.is_given(key) and not default.is_given(key)
            assert one.to_dict(given=True) == {key: value}
        full = cls(**values)
        assert full.to_dict() == values
        assert pickle.loads(pickle.dumps(full)) == full
        assert full != default


def test_every_rust_field_has_one_python_key():
    """A new field of Rust's settings without its Python key fails here. In Python,
    ``max_generations`` is the whole run's limit (scipy's ``maxiter``, Rust's
    ``max_total_generations``), the per-run one ``max_generations_per_run``."""
    rust = dict(emages._emages._serialised_fields())
    renamed = {"max_total_generations": "max_generations", "max_generations": "max_generations_per_run"}
    expected = rust["config"] + [renamed.get(k, k) for k in rust["limits"]] + rust["convergence"] + ["disp"]
    assert sorted(emages.Options.keys()) == sorted(expected)
    assert len(expected) == 27
    # nan_last has no key: Python refuses a NaN value with a ValueError, so no best is NaN.
    expected = ([k for k in rust["portfolio"] if k not in ("sqp", "nan_last")] + ["sqp_" + k for k in rust["sqp"]]
                + ["budget", "max_iterations", "disp"])
    assert sorted(emages.PortfolioOptions.keys()) == sorted(expected)
    print(f"{len(emages.Options.keys())} + {len(emages.PortfolioOptions.keys())} keys checked against Rust's fields")


def test_the_other_spellings():
    assert emages.Options(lambda_=8) == emages.Options(popsize=8) == emages.Options(**{"lambda": 8})
    assert emages.Options(lambda_=8).lambda_ == 8
    assert emages.Options(maxiter=5).max_generations == 5
    assert emages.Options(maxfev=77).budget == 77
    assert emages.PortfolioOptions(maxfev=77).budget == 77
    assert emages.Options(disp=True).disp == 100 and emages.Options(disp=False).disp == 0
    assert emages.Options(back_calculation={"method": "lu", "min_rcond": 1e-6}).back_calculation == {
        "method": "lu", "min_rcond": 1e-6}
    with pytest.raises(ValueError, match="maxiter and max_generations are the same setting"):
        emages.Options(maxiter=5, max_generations=5)
    with pytest.raises(ValueError, match="popsize and lambda_ are the same setting"):
        emages.Options(popsize=5, lambda_=5)


def test_replace_gives_a_changed_copy():
    a = emages.Options(budget=100)
    b = a.replace(tol_fun=0.0)
    assert a.tol_fun == 1e-11 and b.tol_fun == 0.0 and b.budget == 100
    assert repr(b) == "Options(budget=100, tol_fun=0.0)"
    assert repr(emages.Options(lambda_=6)) == "Options(lambda_=6)"
    assert eval(repr(b), {"Options": emages.Options}) == b


@pytest.mark.parametrize("fields, message", [
    ({"budget": -5}, r"budget must be a whole number >= 1, or None \(the default\), not -5"),
    ({"budget": 0}, r"budget must be a whole number >= 1, or None \(the default\), not 0"),
    ({"maxiter": 0}, r"maxiter must be a whole number >= 1"),
    ({"budget": 10.5}, "budget must be a whole number"),
    ({"budget": True}, "budget must be a whole number .*not True"),
    ({"maxfev": "100"}, r"maxfev must be a whole number .*not '100'"),
    ({"tol_fun": float("nan")}, "tol_fun must be a finite number, not nan"),
    ({"tol_x": "1e-8"}, "tol_x must be a finite number"),
    ({"target": float("-inf")}, "target must be a finite number, or None"),
    ({"record_dynamics": 1}, "record_dynamics must be True or False, not 1"),
    ({"checkpoints": [10, "x"]}, "checkpoints must be a sequence, each item a whole number"),
    ({"weights": "abc"}, "weights must be a sequence"),
    ({"initial_mean": [0.0, np.nan]}, "initial_mean must be a sequence, each item a finite number"),
    ({"disp": "yes"}, "disp must be True, False or a number of iterations"),
    ({"back_calculation": "svd"}, 'back_calculation must be "pseudo-inverse", "lu"'),
    ({"lambada": 4}, r'unknown key "lambada"; the keys are back_calculation, budget'),
])
def test_a_bad_value_names_its_key(fields, message):
    with pytest.raises(ValueError, match=message):
        emages.Options(**fields)
    # The same through minimize's dict, for an ES variant (the default, the portfolio,
    # has keys of its own).
    with pytest.raises(ValueError, match=message):
        emages.minimize(lambda x: float(x @ x), x0=[1.0, 1.0], options=fields, seed=1,
                        variant="eps-mag-es-r")


def test_portfolio_bad_values():
    with pytest.raises(ValueError, match=r"es must be a variant \(unknown variant \"bogus\""):
        emages.PortfolioOptions(es="bogus")
    with pytest.raises(ValueError, match="initial_share must be a finite number"):
        emages.PortfolioOptions(initial_share=None)
    with pytest.raises(ValueError, match=r'unknown key "tol_fun" for the portfolio: tol_fun is a setting of the ES '
                                         r'variants .*; the keys are bound_local_runs, budget, .*confirmations, disp'):
        emages.PortfolioOptions(tol_fun=1e-8)
    # A portfolio key given to an ES names the portfolio.
    with pytest.raises(ValueError, match=r'unknown key "confirmations" for an ES variant: confirmations is a '
                                         r'setting of the portfolio \(emages.PortfolioOptions, variant="portfolio"\)'):
        emages.Options(confirmations=3)


def sphere(x):
    return float(x @ x)


def sphere_in_half_plane(x):
    return sphere(x), np.array([0.5 - x[0]])


@pytest.mark.parametrize("variant, typed", [
    ("eps-mag-es-r", emages.Options(budget=1500, lambda_=8, tol_fun=1e-9)),
    (emages.PORTFOLIO, emages.PortfolioOptions(budget=400, confirmations=0)),
])
def test_typed_and_dict_options_give_the_same_run(variant, typed):
    kw = dict(x0=[1.0, -2.0], ineq=lambda x: np.array([0.5 - x[0]]), variant=variant, seed=3)
    a = emages.minimize(sphere, options=typed, **kw)
    b = emages.minimize(sphere, options=typed.to_dict(given=True), **kw)
    assert a.fun == b.fun and a.nfev == b.nfev and np.array_equal(a.x, b.x)
    es = emages.AskTell(dim=2, n_ineq=1, x0=[1.0, -2.0], variant=variant, seed=3, options=typed)
    c = es.optimize(sphere_in_half_plane).result()
    assert c.fun == a.fun and np.array_equal(c.x, a.x)


def test_an_options_of_the_other_kind_is_refused():
    with pytest.raises(ValueError, match="a PortfolioOptions is not for this variant"):
        emages.minimize(sphere, x0=[1.0, 1.0], options=emages.PortfolioOptions(), variant="eps-mag-es-r")
    # The default is the portfolio: an ES's Options names the variant it needs.
    with pytest.raises(ValueError, match=r"an Options is not for the portfolio.*variant=\"eps-mag-es-r\""):
        emages.minimize(sphere, x0=[1.0, 1.0], options=emages.Options())
    with pytest.raises(ValueError, match="an Options is not for the portfolio"):
        emages.AskTell(dim=2, x0=[1.0, 1.0], options=emages.Options())
    with pytest.raises(ValueError, match="options must be a dict or an emages.Options, not list"):
        emages.minimize(sphere, x0=[1.0, 1.0], options=[("budget", 5)], variant="eps-mag-es-r")
    with pytest.raises(ValueError, match="options must be a dict or an emages.PortfolioOptions, not list"):
        emages.minimize(sphere, x0=[1.0, 1.0], options=[("budget", 5)])


def test_budget_and_tol_meet_the_typed_options():
    es = dict(x0=[1.0, 1.0], seed=1, variant="eps-mag-es-r")
    opts = emages.Options(maxfev=500)
    # Both limits given: the smaller holds, and a warning says so.
    with pytest.warns(UserWarning, match="the smaller, 500, holds"):
        both = emages.minimize(sphere, options=opts, budget=600, **es)
    assert both.nfev == emages.minimize(sphere, budget=500, **es).nfev
    with pytest.warns(UserWarning, match="the smaller, 500, holds"):
        emages.minimize(sphere, x0=[1.0, 1.0], options=emages.PortfolioOptions(maxfev=500), budget=600)
    # tol sets tol_fun and tol_x unless the options give them.
    a = emages.minimize(sphere, options=emages.Options(tol_x=1e-3), tol=1e-4, **es)
    b = emages.minimize(sphere, options={"tol_x": 1e-3, "tol_fun": 1e-4}, **es)
    assert a.nfev == b.nfev and a.fun == b.fun
    # The portfolio's: tol is its local phase's step tolerance unless the options give it.
    a = emages.minimize(sphere, x0=[1.0, 1.0], options=emages.PortfolioOptions(sqp_step_tolerance=1e-3),
                        tol=1e-9, seed=1)
    b = emages.minimize(sphere, x0=[1.0, 1.0], options={"sqp_step_tolerance": 1e-3}, seed=1)
    c = emages.minimize(sphere, x0=[1.0, 1.0], tol=1e-3, seed=1)
    assert a.nfev == b.nfev == c.nfev and a.fun == b.fun == c.fun


def test_no_json_string_crosses_the_boundary():
    with pytest.raises(TypeError):
        emages._emages._AskTell.es([0.0], [1.0], 0, 0, 1e-4, "eps-mag-es", '{"budget": 5}', 1, False)
    with pytest.raises(TypeError):
        emages._emages._AskTell.portfolio([0.0], [1.0], 0, 0, 1e-8, '{"budget": 5}', 1)
