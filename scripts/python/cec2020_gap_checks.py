#!/usr/bin/env python3
"""Two checks behind the CEC2020 gap to SASS (docs/strategy-design.md §39).

RC28: the best-known value 14 614.135715 needs four balls, `Z = round(x₃) = 4`, but the
box holds `x₃ ∈ [4.51, 50.49]`; the default run in the box, and in a box widened to
`x₃ ∈ [4, 4.49]`, prints the objective each reaches.

RC11: the default run in the box prints the two variables of the unused reactor
(`x₂`, `v₂`, pinned to 0 by `x₂ ≤ 20 y₂`, `v₂ ≤ 10 y₂` with `y₂ = 0`) and the largest
inequality value: a positive value there makes the point infeasible.

    python3 scripts/python/cec2020_gap_checks.py

Both run `emages.minimize` (the default portfolio) to the competition's budget
(`confirmations=0`) with the competition's equality margin; seeds 1–3. About 15 s of one core.
"""

import numpy as np

import emages


def solve(problem, lower, upper, seed):
    """`emages.minimize` on `problem` in the box `[lower, upper]`: the result."""
    constraints = [{"type": "ineq", "fun": lambda x: -np.asarray(problem.evaluate(x)[1])}]
    if problem.n_eq:
        constraints.append({"type": "eq", "fun": lambda x: np.asarray(problem.evaluate(x)[2])})
    options = {"maxfev": int(problem.max_fes), "confirmations": 0}
    if problem.n_eq:
        options["sqp_margin"] = problem.equality_margin
    return emages.minimize(lambda x: problem.evaluate(x)[0], x0=(lower + upper) / 2,
                           bounds=list(zip(lower, upper)), constraints=constraints,
                           seed=seed, options=options)


def main():
    rc28 = emages.Cec2020Rw(28)
    lower, upper = np.array(rc28.lower), np.array(rc28.upper)
    print(f"RC28: best known {rc28.best_known}, box of x3 [{lower[2]}, {upper[2]}]")
    widened_lower, widened_upper = lower.copy(), upper.copy()
    widened_lower[2], widened_upper[2] = 4.0, 4.49
    for name, (lo, hi) in {"the box": (lower, upper),
                           "x3 in [4, 4.49]": (widened_lower, widened_upper)}.items():
        for seed in (1, 2, 3):
            r = solve(rc28, lo, hi, seed)
            f, _g, _h, violation = rc28.evaluate(r.x)
            print(f"  {name}, seed {seed}: f {f:.6f}, violation {violation:.3g}, "
                  f"Z {round(r.x[2]):.0f}, {r.nfev} evaluations")

    rc11 = emages.Cec2020Rw(11)
    lower, upper = np.array(rc11.lower), np.array(rc11.upper)
    print(f"RC11: best known {rc11.best_known}")
    for seed in (1, 2, 3):
        r = solve(rc11, lower, upper, seed)
        f, g, _h, violation = rc11.evaluate(r.x)
        y1, y2 = round(r.x[4]), round(r.x[5])
        unused = (r.x[0], r.x[2]) if y1 == 0 else (r.x[1], r.x[3])
        print(f"  seed {seed}: f {f:.5f}, y ({y1}, {y2}), the unused reactor's x, v "
              f"{unused[0]:.3g}, {unused[1]:.3g}; largest g {max(g):.3g}, violation {violation:.3g}")


if __name__ == "__main__":
    main()
