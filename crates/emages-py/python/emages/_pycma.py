"""pycma's ``inopts`` as this package's settings: the keys that mean the same thing in
both, translated for the ES variants and for the portfolio."""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping

import numpy as np

#: pycma's keys that :class:`emages.AskTell` takes, and what each sets: for the ES
#: variants, for the portfolio (``None``: not a setting of the portfolio).
PYCMA_KEYS = {
    "bounds": ("bounds (pycma's [lower, upper])", "bounds (pycma's [lower, upper])"),
    "ftarget": ("target", "target"),
    "maxfevals": ("budget", "budget"),
    "maxiter": ("max_generations", "max_iterations"),
    "popsize": ("lambda", None),
    "seed": ("seed", "seed"),
    "tolfun": ("tol_fun", "confirm_tolerance"),
    "tolx": ("tol_x", "sqp_step_tolerance"),
    "verb_disp": ("the lines of disp()", "the lines of disp()"),
    "verbose": ("disp() silent when <= 0", "disp() silent when <= 0"),
}


def _number(key, value, whole=False):
    """A pycma value that must be a number (pycma's string expressions, such as
    ``'100 + 50 * N'``, are not evaluated here)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"inopts[{key!r}] must be a number, not {value!r}")
    value = float(value)
    if math.isnan(value):
        raise ValueError(f"inopts[{key!r}] must be a number, not NaN")
    if whole:
        if math.isinf(value):
            return None
        if value != int(value) or value < 1:
            raise ValueError(f"inopts[{key!r}] must be a positive whole number, not {value!r}")
        return int(value)
    return value


def _bounds(value, dim):
    """pycma's ``[lower, upper]`` (each ``None``, a number for every coordinate, or ``dim``
    numbers) as ``dim`` ``(low, high)`` pairs."""
    if not (isinstance(value, (list, tuple)) and len(value) == 2):
        raise ValueError(f"inopts['bounds'] is pycma's [lower, upper] (each None, a number or {dim} numbers), "
                         f"not {value!r}")
    sides = []
    for name, side, missing in (("lower", value[0], -np.inf), ("upper", value[1], np.inf)):
        if side is None:
            sides.append(np.full(dim, missing))
            continue
        a = np.asarray([missing if v is None else v for v in np.atleast_1d(np.asarray(side, dtype=object))],
                       dtype=float)
        if a.size == 1:
            a = np.full(dim, a[0])
        if a.size != dim:
            raise ValueError(f"inopts['bounds']: the {name} bounds have {a.size} entries, x0 {dim}")
        sides.append(a)
    return [(lo, hi) for lo, hi in zip(*sides)]


def from_inopts(inopts, portfolio: bool, dim: int, option_keys):
    """``inopts`` as ``(seed, budget, bounds, options, verb_disp)``: pycma's keys
    translated (see :data:`PYCMA_KEYS`), this package's own option keys (``option_keys``)
    passed on; ``seed`` ``None`` where pycma draws one (no seed, 0 or ``'time'``);
    ``verb_disp`` the iterations between the lines ``disp()`` prints (0: none; ``None``:
    not given)."""
    if inopts is None:
        return None, None, None, {}, None
    if not isinstance(inopts, Mapping):
        raise ValueError(f"inopts must be a dict (pycma's options), not {type(inopts).__name__}")
    column = 1 if portfolio else 0
    seed = budget = bounds = None
    options, verbose, verb_disp = {}, None, None
    for key, value in inopts.items():
        if key in PYCMA_KEYS:
            target = PYCMA_KEYS[key][column]
            if target is None:
                raise ValueError(f"inopts[{key!r}] is a setting of the ES variants (variant='eps-mag-es-r'); "
                                 "the portfolio's ES rounds keep the recommended one")
            if key == "seed":
                if value in (None, 0, "time"):
                    continue
                if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
                    raise ValueError(f"inopts['seed'] must be a whole number >= 0 (0 or 'time': drawn), not {value!r}")
                seed = int(value)
            elif key == "maxfevals":
                budget = _number(key, value, whole=True)
            elif key == "bounds":
                bounds = _bounds(value, dim)
            elif key == "verbose":
                verbose = _number(key, value)
            elif key == "verb_disp":
                verb_disp = _number(key, value)
                if verb_disp < 0 or verb_disp != int(verb_disp):
                    raise ValueError(f"inopts['verb_disp'] must be a whole number >= 0, not {value!r}")
                verb_disp = int(verb_disp)
            elif key in ("maxiter", "popsize"):
                value = _number(key, value, whole=True)
                if value is not None:
                    options[target] = value
            else:
                options[target] = _number(key, value)
        elif key in option_keys:
            options[key] = value
        else:
            raise ValueError(
                f"inopts[{key!r}] is not a setting emages takes: pycma's {', '.join(sorted(PYCMA_KEYS))}, "
                f"or the {'portfolio' if portfolio else 'ES'}'s own ({', '.join(option_keys)})")
    if verbose is not None and verbose <= 0:
        verb_disp = 0
    return seed, budget, bounds, options, verb_disp
