"""The design log's counts (docs/strategy-design.md) measured again: the first user's
problem — min x1² + x2² s.t. x1 + x2 >= 1 from (3, -2), sigma0 = 1 — over seeds 0-49
(entry 1), the small problems that decided `minimize`'s default (entry 15), and the
bbob-constrained tables, recounted from the committed COCO archives."""

import math

import pytest

import emages
from conftest import ROOT


def summary_module():
    """scripts/bbob-constrained/summary.py, imported (its counting functions)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "summary", ROOT / "scripts" / "bbob-constrained" / "summary.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sq(x):
    """‖x‖² summed in Python, left to right: numpy's ``x @ x`` rounds as its BLAS
    kernel does (SkylakeX's ddot and Zen's differ in the last bit), and εMAg-ES's
    counts below move by a seed or three with it (design log, entry 17)."""
    return float(sum(float(v) * float(v) for v in x))


def failures(variant="eps-mag-es", **options):
    f = sq
    ineq = lambda x: [1.0 - x[0] - x[1]]
    bad = 0
    for seed in range(50):
        r = emages.minimize(f, x0=[3.0, -2.0], sigma0=1.0, ineq=ineq, seed=seed,
                            variant=variant, options={**emages.NO_CONVERGENCE, **options},
                            history=False)
        bad += not (r.feasible and r.fun - 0.5 <= 1e-6)
    return bad


@pytest.mark.parametrize("label, variant, options", [
    ("εMAg-ES (default; T = 1000, λ = 8)", "eps-mag-es", {}),
    ("lexMAg-ES (ε = 0 throughout)", "lex-mag-es", {}),
    ("T = 100", "eps-mag-es", {"t_max": 100}),
    ("εMAg-ES-R (`eps-mag-es-r`)", "eps-mag-es-r", {}),
])
def test_the_first_users_problem_as_the_log_says(label, variant, options):
    if emages.kernel() != "Haswell":
        pytest.skip(f"the log's counts were measured with OpenBLAS's Haswell kernels, this CPU runs {emages.kernel()}")
    log = (ROOT / "docs" / "strategy-design.md").read_text()
    n = failures(variant, **options)
    assert f"| {label} | {n}/50 |" in log, (label, n)


#: Entry 15's small problems: (label as in the log, f, ineq, eq, x0, optimum). σ₀ = 1,
#: the default budget; the optimum of the equality is on the margin |h| = δ (a function
#: of the run's equality margin: 1e-4 for the ES, 1e-8 for the portfolio), that of
#: Rosenbrock's function in the unit disc (MATLAB's fmincon example) on the circle.
SMALL_PROBLEMS = [
    ("x₁² + x₂² s.t. x₁ + x₂ ≥ 1, from (3, −2)", sq,
     lambda x: [1.0 - x[0] - x[1]], None, [3.0, -2.0], 0.5),
    ("x₁² + x₂² s.t. x₁ + x₂ = 1, from (3, −2)", sq,
     None, lambda x: [x[0] + x[1] - 1.0], [3.0, -2.0], lambda margin: (1 - margin) ** 2 / 2),
    ("x₁ + x₂ s.t. x₁² + x₂² ≤ 1, from (3, −2)", lambda x: float(x[0] + x[1]),
     lambda x: [sq(x) - 1.0], None, [3.0, -2.0], -math.sqrt(2.0)),
    ("(x₁ − 2)² + (x₂ − 2)² s.t. x₁ ≤ 1, x₂ ≤ 1, from (−3, 4)",
     lambda x: float(((x - 2.0) ** 2).sum()),
     lambda x: [x[0] - 1.0, x[1] - 1.0], None, [-3.0, 4.0], 2.0),
    ("Rosenbrock s.t. x₁² + x₂² ≤ 1, from (0, 0)",
     lambda x: float(100.0 * (x[1] - x[0] ** 2) ** 2 + (1.0 - x[0]) ** 2),
     lambda x: [sq(x) - 1.0], None, [0.0, 0.0], 0.04567480871950024),
    ("Σ xᵢ² s.t. Σ xᵢ ≥ 5 (n = 5), from 0", sq,
     lambda x: [5.0 - x.sum()], None, [0.0] * 5, 5.0),
]


def small_failures(problem, variant=None, options=None):
    """Seeds 0–49 on which `minimize` (its default variant when `variant` is None) ends
    infeasible or more than 1e-6 · max(1, |f*|) above the optimum f*; and the
    evaluations the 50 runs took."""
    _, f, ineq, eq, x0, best = problem
    kw = {} if variant is None else {"variant": variant}
    bad, evaluations = 0, []
    for seed in range(50):
        r = emages.minimize(f, x0=x0, sigma0=1.0, ineq=ineq, eq=eq, seed=seed,
                            history=False, options=options, **kw)
        margin = r.equality_margin if "equality_margin" in r else 1e-4
        optimum = best(margin) if callable(best) else best
        bad += not (r.feasible and r.fun - optimum <= 1e-6 * max(1.0, abs(optimum)))
        evaluations.append(r.evaluations)
    return bad, evaluations


@pytest.mark.parametrize("problem", SMALL_PROBLEMS, ids=lambda p: p[0])
def test_minimizes_default_solves_the_small_problems_on_every_seed(problem):
    """The goal for `minimize` (docs/strategy-design.md §15): its default solves the first
    user's problem and others like it on all 50 seeds. The default is the portfolio (its
    equalities held to 1e-8), stopping by itself within 1 000 evaluations; εMAg-ES-R,
    the default before, still solves them all when run to the budget. The log's row of
    each problem quotes εMAg-ES-R's and εMAg-ES's failures (recounted on the kernels it
    was measured with)."""
    assert emages.DEFAULT_VARIANT == emages.PORTFOLIO
    converged, evaluations = small_failures(problem)
    assert converged == 0, (problem[0], converged)
    n = len(problem[4])
    print(f"{problem[0]}: the default stops after {min(evaluations)}–{max(evaluations)} "
          f"evaluations (budget {20_000 * n})")
    assert max(evaluations) <= 1_000, (problem[0], max(evaluations))
    # εMAg-ES-R with its convergence criteria on and run to the budget, as
    # the log measured.
    es_converged, _ = small_failures(problem, "eps-mag-es-r")
    assert es_converged == 0, (problem[0], es_converged)
    ours, _ = small_failures(problem, "eps-mag-es-r", options=emages.NO_CONVERGENCE)
    assert ours == 0, (problem[0], ours)
    if emages.kernel() != "Haswell":
        pytest.skip(f"the log's εMAg-ES counts were measured with Haswell kernels, not {emages.kernel()}")
    paper, _ = small_failures(problem, "eps-mag-es", options=emages.NO_CONVERGENCE)
    log = (ROOT / "docs" / "strategy-design.md").read_text()
    assert f"| {problem[0]} | {ours}/50 | {paper}/50 |" in log, (problem[0], ours, paper)


def test_the_bbob_training_tables_as_the_log_says(tmp_path):
    """Entries 6–11: every row of the bbob-constrained tables that names a COCO archive
    is recounted from that archive with scripts/bbob-constrained/summary.py's own
    functions — the fraction of (function, instance, target) triples reached at 10⁴·n,
    averaged over the 54 functions, for n = 2, 3, 5, 10 (n = 20 in the one-column
    table of entry 11)."""
    import tarfile

    summary = summary_module()
    log = (ROOT / "docs" / "strategy-design.md").read_text()
    rows = [line.strip() for line in log.splitlines()
            if line.strip().startswith("| ") and line.rstrip().endswith(".tar.xz` |")
            and "test-sets/" not in line]
    assert len(rows) >= 15, len(rows)
    checked = 0
    for k, row in enumerate(rows):
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        archive = ROOT / "results" / cells[-1].strip("`")
        dims = (2, 3, 5, 10) if len(cells) == 6 else (20,)
        folder = tmp_path / str(k)
        with tarfile.open(archive) as tar:
            tar.extractall(folder, filter="data")
        runs = summary.runs_of(folder)
        counted = []
        for d in dims:
            per_f = [runs[(d, f)] for f in range(1, 55) if runs.get((d, f))]
            assert len(per_f) == 54 and all(len(r) == 5 for r in per_f), (archive, d)
            vals = [summary.fraction(r, 10_000 * d) for r in per_f]
            counted.append(f"{sum(vals) / len(vals):.3f}")
        assert cells[1:1 + len(dims)] == counted, (cells[0], cells[1:1 + len(dims)], counted)
        checked += 1
    print(f"recounted {checked} rows from their COCO archives")


def _fractions_at_three_budgets(summary, runs, d, budgets=(100, 1000, 10_000)):
    """The fractions of targets at ``budgets`` (multiples of n; 10², 10³ and 10⁴ · n
    unless said) over the 54 functions of dimension ``d`` (as the log prints them,
    ``.xyz / .xyz / .xyz``) and the run count."""
    per_f = [runs[(d, f)] for f in range(1, 55) if runs.get((d, f))]
    return " / ".join(
        f"{sum(summary.fraction(r, b * d) for r in per_f) / len(per_f):.3f}".lstrip("0")
        for b in budgets), sum(len(r) for r in per_f)


def _markdown_table(section, header):
    """The rows (cells stripped) of the Markdown table of ``section`` under ``header``."""
    at = section.index(header)
    lines = section[at:].splitlines()[2:]
    return [[c.strip() for c in l.strip().strip("|").split("|")] for l in
            lines[:next(i for i, l in enumerate(lines) if not l.startswith("|"))]]


def test_the_bbob_test_set_table_as_the_log_says(tmp_path):
    """Entries 14 and 15: every row of the bbob-constrained test-set tables (after the
    freeze) is recounted from its COCO archive — the fraction of (function, instance,
    target) triples reached at 10⁴·n over the 54 functions: instances 6–15 at n = 2,
    3, 5, 10, 20 (a dimension the row marks "–" must be absent from the archive), and
    one dimension with the instances the row names."""
    import tarfile

    summary = summary_module()
    log = (ROOT / "docs" / "strategy-design.md").read_text()
    rows = [line.strip() for line in log.splitlines()
            if line.strip().startswith("| ") and "test-sets/bbob/" in line
            and line.rstrip().endswith(".tar.xz` |")]
    # Entry 14's table (instances 6–15, n = 2 … 20: seven cells) and entry 15's
    # (algorithm | instances | n | fraction | archive: five cells).
    wide = [r for r in rows if len(r.strip().strip("|").split("|")) == 7]
    narrow = [r for r in rows if len(r.strip().strip("|").split("|")) == 5]
    assert len(wide) == 3 and len(narrow) >= 3 and len(wide) + len(narrow) == len(rows), rows
    for k, row in enumerate(narrow):
        algorithm, instances, n, quoted, archive = [c.strip() for c in row.strip().strip("|").split("|")]
        first, last = (int(i) for i in instances.split("–"))
        d = int(n)
        folder = tmp_path / f"narrow{k}"
        with tarfile.open(ROOT / "results" / archive.strip("`")) as tar:
            tar.extractall(folder, filter="data")
        runs = summary.runs_of(folder)
        per_f = [runs[(d, f)] for f in range(1, 55) if runs.get((d, f))]
        assert len(per_f) == 54 and all(len(r) == last - first + 1 for r in per_f), (algorithm, d)
        vals = [summary.fraction(r, 10_000 * d) for r in per_f]
        assert quoted == f"{sum(vals) / len(vals):.3f}", (algorithm, d, quoted)
    for k, row in enumerate(wide):
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        folder = tmp_path / str(k)
        with tarfile.open(ROOT / "results" / cells[-1].strip("`")) as tar:
            tar.extractall(folder, filter="data")
        runs = summary.runs_of(folder)
        for d, quoted in zip((2, 3, 5, 10, 20), cells[1:6]):
            per_f = [runs[(d, f)] for f in range(1, 55) if runs.get((d, f))]
            if quoted == "–":
                assert not per_f, (cells[0], d)
                continue
            assert len(per_f) == 54 and all(len(r) == 10 for r in per_f), (cells[0], d)
            vals = [summary.fraction(r, 10_000 * d) for r in per_f]
            assert quoted == f"{sum(vals) / len(vals):.3f}", (cells[0], d, quoted)
    print(f"recounted {len(rows)} test-set rows from their COCO archives "
          f"({len(wide)} of instances 6–15, n = 2 … 20; {len(narrow)} of one dimension)")


def test_the_round4_bbob_test_tables_as_the_log_says(tmp_path):
    """Section 26: every figure of the bbob-constrained test tables (instances 16–30) is
    recounted from its COCO archive — the fractions of (function, instance, target)
    triples reached at 10², 10³ and 10⁴·n: the frozen portfolio's (all five dimensions in
    one archive) and the peers' (one archive per dimension) over all 810 problems, and
    the n = 5 subset table over the problems every algorithm ran (``--common``). A cell
    that is not three fractions must say the run is not complete."""
    import re
    import tarfile

    summary = summary_module()
    log = (ROOT / "docs" / "strategy-design.md").read_text()
    start = log.index("**Test: bbob-constrained instances 16–30**")
    section = log[start:log.index("\n## ", start)]
    peers = ROOT / "results" / "strategy-design" / "round4" / "peers-bbob-test"
    portfolio_archive = ROOT / "results" / "strategy-design" / "round4" / "test-bbob" / "portfolio-share0_instances-16-30.tar.xz"

    def unpack(archive, name):
        folder = tmp_path / name
        if not folder.exists():
            with tarfile.open(archive) as tar:
                tar.extractall(folder, filter="data")
        return folder

    folders = {"portfolio-share0": lambda d: unpack(portfolio_archive, "portfolio") / f"D{d}",
               "restarted COBYLA": lambda d: unpack(peers / f"COBYLA_D{d}.tar.xz", f"cobyla{d}"),
               "AL-CMA-ES": lambda d: unpack(peers / f"AL-CMA-ES_D{d}.tar.xz", f"alcmaes{d}")}

    def figures(runs, d):
        return _fractions_at_three_budgets(summary, runs, d)

    def table(header):
        return _markdown_table(section, header)

    checked = 0
    for cells in table("| n | portfolio-share0 | restarted COBYLA | AL-CMA-ES |"):
        d = int(cells[0])
        for name, quoted in zip(("portfolio-share0", "restarted COBYLA", "AL-CMA-ES"), cells[1:]):
            if not re.fullmatch(r"\.\d{3} / \.\d{3} / \.\d{3}", quoted):
                assert quoted.startswith(("running", "to run")), (d, name, quoted)
                continue
            got, runs = figures(summary.runs_of(folders[name](d)), d)
            assert runs == 810 and got == quoted, (d, name, got, quoted)
            checked += 1
    for cells in table("| n | problems | portfolio-share0 | restarted COBYLA | AL-CMA-ES |"):
        d, problems = int(cells[0]), int(cells[1])
        data = {"portfolio-share0": summary.instance_runs_of(folders["portfolio-share0"](d)),
                "restarted COBYLA": summary.instance_runs_of(
                    unpack(peers / f"COBYLA_D{d}-batch1of8.tar.xz", f"cobyla{d}-1of8")),
                "AL-CMA-ES": summary.instance_runs_of(folders["AL-CMA-ES"](d))}
        common, count = summary.common_runs(data)
        assert count == problems, (d, count, problems)
        for name, quoted in zip(("portfolio-share0", "restarted COBYLA", "AL-CMA-ES"), cells[2:]):
            got, runs = figures(common[name], d)
            assert runs == problems and got == quoted, (d, name, got, quoted)
            checked += 1
    assert checked >= 13, checked
    print(f"recounted {checked} figures of section 26's bbob test tables from their COCO archives")


def test_the_curvature_candidates_bbob_test_tables_as_the_log_says(tmp_path):
    """Section 29: every figure of the bbob-constrained test tables of
    ``portfolio-share0:nan-last:curvature`` (instances 16–30) is recounted from the COCO
    archives — on all 810 problems of a dimension, and on the problems of the peers'
    finished shards (every function and instance the three ran)."""
    import re
    import tarfile

    summary = summary_module()
    log = (ROOT / "docs" / "strategy-design.md").read_text()
    start = log.index("## 29. ")
    section = log[start:log.index("\n## ", start + 1)]
    results = ROOT / "results" / "strategy-design" / "round4"
    archives = {"curvature": [results / "test-bbob" / "portfolio-share0-nan-last-curvature_instances-16-30.tar.xz"],
                "portfolio-share0": [results / "test-bbob" / "portfolio-share0_instances-16-30.tar.xz"]}
    peers = results / "peers-bbob-test"

    def unpack(name, paths):
        folder = tmp_path / name
        if not folder.exists():
            for path in paths:
                with tarfile.open(path) as tar:
                    tar.extractall(folder, filter="data")
        return folder

    def folder(name, d, shards=None):
        if name in archives:
            return unpack(name, archives[name]) / f"D{d}"
        peer = {"restarted COBYLA": "COBYLA", "AL-CMA-ES": "AL-CMA-ES"}[name]
        if shards is None:
            # One archive, or the dimension's shard archives together.
            whole = peers / f"{peer}_D{d}.tar.xz"
            return unpack(f"{peer}{d}", [whole] if whole.exists() else
                          sorted(peers.glob(f"{peer}_D{d}-batch*.tar.xz")))
        count, indices = shards
        return unpack(f"{peer}{d}-{min(indices)}-{max(indices)}of{count}",
                      [peers / f"{peer}_D{d}-batch{i}of{count}.tar.xz" for i in indices])

    def figures(runs, d):
        return _fractions_at_three_budgets(summary, runs, d)

    def table(header):
        return _markdown_table(section, header)

    names = ("curvature", "portfolio-share0", "restarted COBYLA", "AL-CMA-ES")
    checked = 0
    for cells in table("| n | with curvature steering | portfolio-share0 | restarted COBYLA | AL-CMA-ES |"):
        d = int(cells[0])
        for name, quoted in zip(names, cells[1:5]):
            if not re.fullmatch(r"\.\d{3} / \.\d{3} / \.\d{3}", quoted):
                assert quoted in ("shards below", "to run"), (d, name, quoted)
                continue
            got, runs = figures(summary.runs_of(folder(name, d)), d)
            assert runs == 810 and got == quoted, (d, name, got, quoted)
            checked += 1
    for cells in table("| n | peer | shards | problems | with curvature steering | portfolio-share0 | the peer |"):
        d, peer, problems = int(cells[0]), cells[1], int(cells[3])
        first, last, count = (int(v) for v in re.fullmatch(r"(\d+)–(\d+) of (\d+)", cells[2]).groups())
        data = {"curvature": summary.instance_runs_of(folder("curvature", d)),
                "portfolio-share0": summary.instance_runs_of(folder("portfolio-share0", d)),
                peer: summary.instance_runs_of(folder(peer, d, (count, range(first, last + 1))))}
        common, found = summary.common_runs(data)
        assert found == problems, (d, peer, found, problems)
        for name, quoted in zip(("curvature", "portfolio-share0", peer), cells[4:7]):
            got, runs = figures(common[name], d)
            assert runs == problems and got == quoted, (d, name, got, quoted)
            checked += 1
    assert checked >= 18, checked
    print(f"recounted {checked} figures of section 29's bbob test tables from their COCO archives")


ROUND5 = ROOT / "results" / "strategy-design" / "round5"
FIGURES = r"\.\d{3}(?: / \.\d{3}){1,2}"


def _unpacked(tmp_path, archive):
    """``archive`` (a COCO archive under results/) unpacked once into ``tmp_path``."""
    import tarfile

    folder = tmp_path / archive.name.removesuffix(".tar.xz")
    if not folder.exists():
        with tarfile.open(archive) as tar:
            tar.extractall(folder, filter="data")
    return folder


def test_the_round5_peers_figures_as_their_readme_says(tmp_path):
    """The fifth round's peers on the test instances 31–45
    (results/strategy-design/round5/peers-bbob-test/README.md): every figure quoted right
    after an archive's name is recounted from that archive — three figures at 10², 10³
    and 10⁴·n over its 810 runs, or 54 where the name says instance 31; two at 10 and
    10²·n (the GP sampler's budgets) — and a "the candidate('s)" figure in the same cell
    or sentence from the candidate's archive, on the problems both ran."""
    import re

    summary = summary_module()
    peers = ROUND5 / "peers-bbob-test"
    # Sentences run over line breaks; a blank line ends a paragraph.
    text = re.sub(r"(?<!\n)\n(?!\n)", " ", (peers / "README.md").read_text())
    quoted = re.compile(rf"`([\w-]+)_D(\d+)\.tar\.xz`[^:|]*: ({FIGURES})")
    checked = 0
    for m in quoted.finditer(text):
        name, d, figures = m.group(1), int(m.group(2)), m.group(3)
        budgets = (10, 100) if figures.count("/") == 1 else (100, 1000, 10_000)
        peer = summary.instance_runs_of(_unpacked(tmp_path, peers / f"{name}_D{d}.tar.xz"))
        got, runs = _fractions_at_three_budgets(summary, summary.without_instances(peer), d, budgets)
        assert (got, runs) == (figures, 54 if "instance31" in name else 810), (name, d, got, runs)
        checked += 1
        rest = text[m.end():]
        rest = rest[:min(i for i in (rest.find("|"), rest.find(".tar.xz`"), rest.find("\n\n"),
                                     len(rest)) if i >= 0)]
        beside = re.search(rf"the candidate(?:'s)? ({FIGURES})", rest)
        if beside:
            candidate = summary.instance_runs_of(_unpacked(
                tmp_path, ROUND5 / "test-bbob" / f"candidate_D{d}.tar.xz"))
            common, count = summary.common_runs({"candidate": candidate, "peer": peer})
            got, runs = _fractions_at_three_budgets(summary, common["candidate"], d, budgets)
            assert (got, runs) == (beside.group(1), count), (name, d, got, beside.group(1))
            checked += 1
    assert checked >= 22, checked
    print(f"recounted {checked} figures of the fifth round's peers from their COCO archives")


def test_the_round5_bbob_test_table_as_the_log_says(tmp_path):
    """Section 39's bbob-constrained table (test instances 31–45), recounted from the COCO
    archives: the candidate's three fractions over all 810 problems of a dimension;
    COBYLA's, the better of PDFO's and NLopt's at each budget; a peer's cell either its
    810 problems' figures or ``instance 31: X (the candidate Y there)`` on the problems
    both ran; and the last column, the candidate minus the best peer run on all 810."""
    import re

    summary = summary_module()
    log = (ROOT / "docs" / "strategy-design.md").read_text()
    start = log.index("## 39. ")
    section = log[start:log.index("\n## ", start + 1)]
    peers = ROUND5 / "peers-bbob-test"

    def runs(archive):
        return summary.instance_runs_of(_unpacked(tmp_path, archive))

    def figures(plain_runs, d):
        got, count = _fractions_at_three_budgets(summary, plain_runs, d)
        return [float(v) for v in got.split(" / ")], count

    def text(values):
        return " / ".join(f"{v:.3f}".lstrip("0") for v in values)

    header = ("| n | candidate | the default | COBYLA, tuned (better of PDFO's and NLopt's per "
              "cell) | COBYQA, tuned | AL-CMA-ES | candidate − best peer |")
    checked = 0
    for cells in _markdown_table(section, header):
        d = int(cells[0])
        candidate = runs(ROUND5 / "test-bbob" / f"candidate_D{d}.tar.xz")
        mine, count = figures(summary.without_instances(candidate), d)
        assert (text(mine), count) == (cells[1], 810), (d, text(mine), cells[1])
        whole = []  # the figures of every peer run on all 810 problems
        cobyla = [figures(summary.without_instances(runs(peers / f"COBYLA-{which}_D{d}.tar.xz")), d)[0]
                  for which in ("PDFO", "NLopt") if (peers / f"COBYLA-{which}_D{d}.tar.xz").exists()]
        best = [max(column) for column in zip(*cobyla)]
        assert cells[3].startswith(text(best)), (d, text(best), cells[3])
        whole.append(best)
        checked += 1
        for name, cell in (("COBYQA", cells[4]), ("AL-CMA-ES", cells[5])):
            if re.fullmatch(r"\.\d{3} / \.\d{3} / \.\d{3}", cell):
                got, count = figures(summary.without_instances(runs(peers / f"{name}_D{d}.tar.xz")), d)
                assert (text(got), count) == (cell, 810), (d, name, text(got), cell)
                whole.append(got)
            elif cell.startswith("instance 31:"):
                peer = runs(peers / f"{name}-instance31_D{d}.tar.xz")
                common, count = summary.common_runs({"candidate": candidate, "peer": peer})
                got = text(figures(common["peer"], d)[0])
                there = text(figures(common["candidate"], d)[0])
                assert count == 54 and cell == f"instance 31: {got} (the candidate {there} there)", (d, name, cell)
            else:
                assert cell.startswith(("to run", "not run")), (d, name, cell)
                continue
            checked += 1
        gap = " / ".join(f"{m - max(column):+.3f}".replace("0.", ".").replace("-", "−")
                         for m, column in zip(mine, zip(*whole)))
        assert cells[6] == gap, (d, gap, cells[6])
        checked += 1
    assert checked >= 15, checked
    print(f"recounted {checked} cells of section 39's bbob test table from their COCO archives")
