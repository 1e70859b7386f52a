"""The beef-cattle rations RC51-RC54 of CEC2020 as linear programs.

Their objective and constraints are linear in x, except the forage and protein shares,
which are ratios to the total sum(x) > 0: `a <= s.x / sum(x) <= b` is the linear
`(a - s).x <= 0` and `(s - b).x <= 0`, and g_r at the unit vector e_i is exactly the
coefficient of x_i in that linear form. So HiGHS decides feasibility and the optimum
exactly (up to its tolerances):

    python3 scripts/strategy-design/feed_lp.py      # needs emages (crates/emages-py) and scipy

For each problem it prints whether the LP with h(x) = 0, and with |h(x)| <= 1e-4 (the
competition's margin), is feasible, the optimum f with the problem's own f(x), g(x),
h(x) and mean violation there, and, where no point is feasible, the least total
violation sum g+ (with |h| <= 1e-4) and the mean violation nu = sum g+ / (l + m) it
gives: the floor every run's nu stays above.
"""

import numpy as np
from scipy.optimize import linprog

import emages


def linear_model(pid):
    p = emages.Cec2020Rw(pid, jacobian=True)
    n = p.dim
    x = np.full(n, 0.5)
    f0, g0, h0, _ = p.evaluate(list(x))
    jac = np.array(p.jacobian(list(x)))
    c = np.array([p.evaluate(list(x + np.eye(n)[i]))[0] - f0 for i in range(n)])
    at_unit = np.array([p.evaluate(list(np.eye(n)[i]))[1] for i in range(n)])
    rows, rhs = [], []
    for r in range(p.n_ineq):
        if r in (8, 9, 10, 11):  # the forage and protein shares: homogeneous
            rows.append(at_unit[:, r])
            rhs.append(0.0)
        else:
            rows.append(jac[r])
            rhs.append(-(g0[r] - jac[r] @ x))
    eq = jac[p.n_ineq]
    eq_rhs = -(h0[0] - eq @ x)
    return p, c, np.array(rows), np.array(rhs), eq, eq_rhs


def main():
    for pid in (51, 52, 53, 54):
        p, c, a, b, eq, eq_rhs = linear_model(pid)
        bounds = list(zip(p.lower, p.upper))
        feasible = False
        for margin in (0.0, 1e-4):
            res = linprog(
                c,
                A_ub=np.vstack([a, eq, -eq]),
                b_ub=np.concatenate([b, [eq_rhs + margin, -eq_rhs + margin]]),
                bounds=bounds,
                method="highs",
            )
            if res.status == 0:
                feasible = True
                f, g, h, nu = p.evaluate(list(res.x))
                print(
                    f"RC{pid} |h| <= {margin:g}: optimum f = {f:.6f} (best known {p.best_known}),"
                    f" max g = {g.max():.1e}, h = {h[0]:.1e}, nu = {nu:.2e}"
                )
            else:
                print(f"RC{pid} |h| <= {margin:g}: infeasible ({res.message.split('(')[0].strip()})")
        if feasible:
            continue
        # The least violation: min sum s, g_r(x) <= s_r for every row, |h| <= 1e-4. A
        # share row in g's units is (a_r.x) / sum(x) <= s_r, linear for a fixed total
        # T = sum(x): a_r.x - T s_r <= 0; T is updated from the solution until it
        # settles, and nu is evaluated by the problem itself there.
        m = len(b)
        total_x = p.upper[0] * len(c)  # any positive start
        for _ in range(20):
            slack = -np.eye(m)
            for r in (8, 9, 10, 11):
                slack[r, r] = -total_x
            a_ub = np.vstack(
                [
                    np.hstack([a, slack]),
                    np.hstack([eq[None, :], np.zeros((1, m))]),
                    np.hstack([-eq[None, :], np.zeros((1, m))]),
                ]
            )
            b_ub = np.concatenate([b, [eq_rhs + 1e-4, -eq_rhs + 1e-4]])
            res = linprog(
                np.concatenate([np.zeros(len(c)), np.ones(m)]),
                A_ub=a_ub,
                b_ub=b_ub,
                bounds=bounds + [(0, None)] * m,
                method="highs",
            )
            x = res.x[: len(c)]
            if abs(x.sum() - total_x) <= 1e-12 * total_x:
                break
            total_x = x.sum()
        _, g, h, _ = p.evaluate(list(x))
        floor = np.clip(g, 0, None).sum() / (p.n_ineq + p.n_eq)
        print(
            f"RC{pid} least violation: sum g+ = {np.clip(g, 0, None).sum():.6e} with |h| = {abs(h[0]):.1e}:"
            f" nu >= {floor:.6e} for every point (approached as |h| -> 1e-4)"
        )


if __name__ == "__main__":
    main()
