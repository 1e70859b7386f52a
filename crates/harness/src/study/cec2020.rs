//! The CEC2020 real-world competition's files and tables from a study's run records:
//! the entry the organisers score and the guidelines' submission files
//! ([`collect`], [`submission_files`]), the score's ranking table ([`ranking_table`]),
//! the comparison with other entries per problem class ([`class_comparison`]), each
//! problem's share of the scores ([`share_table`]), and what
//! the runs cost per class ([`cost_table`]). `examples/cec2020_rw.rs` is the command
//! line around them.

use super::store::RunRow;
use crate::error::StudyError;
use bench_stats::cec2020::{Entry, Score};
use cec2020_rw::catalog;
use cec2020_rw::Class;
use std::collections::BTreeMap;

/// The guidelines' checkpoints: the best solution at 10 %, 20 %, …, 100 % of the budget.
pub const CHECKPOINTS: [f64; 10] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];

/// One configuration's runs, arranged for the competition's files.
#[derive(Clone, Debug, PartialEq)]
pub struct Collected {
    /// Per problem (in the order asked for), per run `0..runs`: the final `(f, ν)` (NaN
    /// for a missing run).
    pub finals: Vec<Vec<(f64, f64)>>,
    /// Per problem, per run: `(f, ν)` at each of [`CHECKPOINTS`] (NaN where missing).
    pub trajectories: Vec<Vec<Vec<(f64, f64)>>>,
    /// The `(problem, run)` pairs without a record.
    pub missing: Vec<(usize, usize)>,
}

/// Arranges `rows` (one configuration's records) for `problems` and runs `0..runs`:
/// each run's final best `(f, ν)` (its 100 % checkpoint, else its best) and its
/// checkpoints.
#[must_use]
pub fn collect(rows: &[RunRow], problems: &[usize], runs: usize) -> Collected {
    let mut by_run: BTreeMap<(usize, usize), &RunRow> = BTreeMap::new();
    for r in rows {
        by_run.insert((r.problem, r.run), r);
    }
    let nan = (f64::NAN, f64::NAN);
    let mut missing = Vec::new();
    let mut finals = Vec::with_capacity(problems.len());
    let mut trajectories = Vec::with_capacity(problems.len());
    for &p in problems {
        let (mut f, mut t) = (Vec::with_capacity(runs), Vec::with_capacity(runs));
        for run in 0..runs {
            let Some(r) = by_run.get(&(p, run)) else {
                missing.push((p, run));
                f.push(nan);
                t.push(vec![nan; CHECKPOINTS.len()]);
                continue;
            };
            let at = |fraction: f64| {
                r.checkpoints
                    .iter()
                    .find(|c| c.fraction == fraction)
                    .map(|c| c.checkpoint.best)
            };
            let last = at(1.0).unwrap_or(r.best);
            f.push((last.objective(), last.violation()));
            t.push(
                CHECKPOINTS
                    .iter()
                    .map(|&fr| at(fr).map_or(nan, |b| (b.objective(), b.violation())))
                    .collect(),
            );
        }
        finals.push(f);
        trajectories.push(t);
    }
    Collected {
        finals,
        trajectories,
        missing,
    }
}

/// The guidelines' submission files of entry `name`: per problem (`labels[k]`, e.g.
/// `RC05`) `"NAME RC05 F.txt"` and `"… CV.txt"`, a matrix of checkpoints (rows) ×
/// runs (columns) of the best solution's `f` and `ν`. Returns `(file name, text)`.
#[must_use]
pub fn submission_files(name: &str, labels: &[String], c: &Collected) -> Vec<(String, String)> {
    let mut files = Vec::with_capacity(2 * labels.len());
    for (label, runs) in labels.iter().zip(&c.trajectories) {
        for (suffix, pick) in [("F", 0usize), ("CV", 1)] {
            let mut text = String::new();
            for checkpoint in 0..CHECKPOINTS.len() {
                let row: Vec<String> = runs
                    .iter()
                    .map(|t| {
                        let (f, v) = t[checkpoint];
                        format!("{:e}", if pick == 0 { f } else { v })
                    })
                    .collect();
                text.push_str(&row.join(" "));
                text.push('\n');
            }
            files.push((format!("{name} {label} {suffix}.txt"), text));
        }
    }
    files
}

/// The score's ranking as a Markdown table (place, algorithm, the score's parts).
#[must_use]
pub fn ranking_table(scores: &[Score]) -> String {
    let mut t = String::from(
        "| place | algorithm | best | mean | median | total |\n|---:|---|---:|---:|---:|---:|\n",
    );
    for s in scores {
        t.push_str(&format!(
            "| {} | {} | {:.4} | {:.4} | {:.4} | {:.4} |\n",
            s.rank, s.name, s.best, s.mean, s.median, s.total
        ));
    }
    t
}

/// Whether a run `(f, ν)` reaches the best-known value `f*`: feasible and
/// `f ≤ f* + 10⁻⁴ · max(1, |f*|)`.
#[must_use]
pub fn reaches(f: f64, v: f64, best_known: f64) -> bool {
    v == 0.0 && f <= best_known + 1e-4 * best_known.abs().max(1.0)
}

/// The entries restricted to the problems `chosen` (0-based columns of the suite's 57),
/// in that order.
///
/// # Errors
/// [`StudyError::Invalid`] for an entry without the suite's problems.
pub fn restrict(entries: &mut [Entry], chosen: &[usize]) -> Result<(), StudyError> {
    let all = catalog::all().len();
    for e in entries {
        if e.problems.len() != all {
            return Err(StudyError::Invalid(format!(
                "entry {} has {} problems, the suite {all}",
                e.name,
                e.problems.len()
            )));
        }
        let pick = |cols: &[Vec<f64>]| chosen.iter().map(|&k| cols[k].clone()).collect::<Vec<_>>();
        *e = Entry::new(
            e.name.clone(),
            chosen.iter().map(|&k| e.problems[k].clone()).collect(),
            pick(&e.f),
            pick(&e.cv),
        )?;
    }
    Ok(())
}

/// The position of the entry called `name` among `entries`.
fn entry_index(entries: &[Entry], name: &str) -> Result<usize, StudyError> {
    entries
        .iter()
        .position(|e| e.name == name)
        .ok_or_else(|| StudyError::Invalid(format!("no entry called {name} among the scored ones")))
}

/// Per problem class: `ours` against each of `versus` (rank-sum test over the runs,
/// the competition's order; `+` where ours is better), and how many problems each
/// entry's best and median run solve to the best-known value. `chosen[col]` is the
/// suite's 0-based problem of the entries' column `col`.
///
/// # Errors
/// [`StudyError::Invalid`] naming an entry that is not among `entries`; a failing test.
pub fn class_comparison(
    entries: &[Entry],
    chosen: &[usize],
    ours: &str,
    versus: &[String],
) -> Result<String, StudyError> {
    use bench_stats::pairwise::{compare, Significance, Tally};
    use bench_stats::Snapshot;
    let find = |name: &str| entry_index(entries, name).map(|i| &entries[i]);
    let base = find(ours)?;
    let others = versus
        .iter()
        .map(|n| find(n))
        .collect::<Result<Vec<_>, _>>()?;
    let runs = |e: &Entry, k: usize| -> Vec<Snapshot> {
        e.f[k]
            .iter()
            .zip(&e.cv[k])
            .map(|(&f, &v)| Snapshot::new(f, v))
            .collect()
    };
    let info = catalog::all();
    let mut t = format!(
        "{ours} against each entry per problem class: problems where {ours} is better / equal / worse (Wilcoxon rank-sum over the runs, α = 0.05, feasible runs by f, infeasible ones by ν, CEC ranking); and problems whose best / median run reaches the best-known value f* of the guidelines (feasible, f ≤ f* + 1e-4·max(1, |f*|)).\n\n| class | problems |"
    );
    for o in &others {
        t.push_str(&format!(" vs {} |", o.name));
    }
    for e in std::iter::once(base).chain(others.iter().copied()) {
        t.push_str(&format!(" f* reached: {} |", e.name));
    }
    t.push_str("\n|---|---:|");
    for _ in 0..(2 * others.len() + 1) {
        t.push_str("---:|");
    }
    t.push('\n');
    // (column, suite problem) pairs by class
    let mut rows: Vec<(String, Vec<(usize, usize)>)> = Class::ALL
        .iter()
        .map(|&c| {
            let cols = chosen
                .iter()
                .enumerate()
                .filter(|(_, &k)| info[k].class() == c)
                .map(|(col, &k)| (col, k))
                .collect();
            (c.name().to_string(), cols)
        })
        .filter(|(_, cols): &(String, Vec<(usize, usize)>)| !cols.is_empty())
        .collect();
    rows.push(("all".into(), chosen.iter().copied().enumerate().collect()));
    for (name, ks) in rows {
        t.push_str(&format!("| {name} | {} |", ks.len()));
        for o in &others {
            let verdicts = ks
                .iter()
                .map(|&(k, _)| {
                    compare(
                        &runs(base, k),
                        &runs(o, k),
                        Significance::RankSum { alpha: 0.05 },
                    )
                    .map(|c| c.total)
                })
                .collect::<Result<Vec<_>, _>>()?;
            t.push_str(&format!(" {} |", Tally::of(verdicts)));
        }
        for e in std::iter::once(base).chain(others.iter().copied()) {
            let (mut best, mut median) = (0, 0);
            for &(k, id) in &ks {
                let fstar = info[id].best_known;
                best += usize::from(reaches(e.f[k][0], e.cv[k][0], fstar));
                let m = e.runs() / 2;
                median += usize::from(reaches(e.f[k][m], e.cv[k][m], fstar));
            }
            t.push_str(&format!(" {best} / {median} |"));
        }
        t.push('\n');
    }
    Ok(t)
}

/// Shares smaller than this, in every column shown, are summed into one row of
/// [`share_table`].
pub const SHARE_SHOWN: f64 = 5e-4;

/// Where the scores part: per problem, its share of the total of `ours` and of each of
/// `versus` (`shares[col][entry]`, from `bench_stats::cec2020::problem_shares` over
/// `entries`), and `ours`'s share minus the first of `versus`'s. Problems sorted by that
/// difference, largest first; those with no share of at least [`SHARE_SHOWN`] are summed
/// into one row. `chosen[col]` is the suite's 0-based problem of column `col`.
///
/// # Errors
/// [`StudyError::Invalid`] naming an entry that is not among `entries`, for an empty
/// `versus`, or shares that do not fit `entries` and `chosen`.
pub fn share_table(
    entries: &[Entry],
    shares: &[Vec<f64>],
    chosen: &[usize],
    ours: &str,
    versus: &[String],
) -> Result<String, StudyError> {
    let find = |name: &str| entry_index(entries, name);
    let Some(first) = versus.first() else {
        return Err(StudyError::Invalid(
            "the problems' shares compare --name with the first of --versus: name one".into(),
        ));
    };
    if shares.len() != chosen.len() || shares.iter().any(|row| row.len() != entries.len()) {
        return Err(StudyError::Invalid(format!(
            "{} rows of shares for {} problems and {} entries",
            shares.len(),
            chosen.len(),
            entries.len()
        )));
    }
    let columns: Vec<usize> = std::iter::once(find(ours))
        .chain(versus.iter().map(|n| find(n)))
        .collect::<Result<_, _>>()?;
    let (a, b) = (columns[0], columns[1]);
    let info = catalog::all();
    let mut t = format!(
        "Each problem's share of the total (its weight × (0.5·best + 0.3·mean + 0.2·median), normalised as the score normalises), for {ours} and {}; sorted by {ours}'s share minus {first}'s, largest first. Problems with no share of at least {SHARE_SHOWN} are summed in one row.\n\n| problem | class | D |",
        versus.join(", ")
    );
    for &c in &columns {
        t.push_str(&format!(" {} |", entries[c].name));
    }
    t.push_str(&format!(" {ours} − {first} |\n|---|---|---:|"));
    for _ in 0..=columns.len() {
        t.push_str("---:|");
    }
    t.push('\n');
    let mut order: Vec<usize> = (0..chosen.len()).collect();
    order.sort_by(|&x, &y| {
        (shares[y][a] - shares[y][b])
            .total_cmp(&(shares[x][a] - shares[x][b]))
            .then(x.cmp(&y))
    });
    let row = |t: &mut String, label: &str, class: &str, dim: &str, values: &[f64]| {
        t.push_str(&format!("| {label} | {class} | {dim} |"));
        for v in values {
            t.push_str(&format!(" {v:.4} |"));
        }
        t.push_str(&format!(" {:+.4} |\n", values[0] - values[1]));
    };
    let mut rest = (0usize, vec![0.0; columns.len()]);
    for col in order {
        let values: Vec<f64> = columns.iter().map(|&c| shares[col][c]).collect();
        if values.iter().all(|v| v.abs() < SHARE_SHOWN) {
            rest.0 += 1;
            for (r, v) in rest.1.iter_mut().zip(&values) {
                *r += v;
            }
            continue;
        }
        let p = &info[chosen[col]];
        row(
            &mut t,
            &p.label(),
            p.class().name(),
            &p.dim.to_string(),
            &values,
        );
    }
    if rest.0 > 0 {
        row(&mut t, &format!("{} others", rest.0), "", "", &rest.1);
    }
    let totals: Vec<f64> = columns
        .iter()
        .map(|&c| shares.iter().map(|r| r[c]).sum())
        .collect();
    row(&mut t, "total", "", "", &totals);
    Ok(t)
}

/// What `rows` (one configuration's records, any problems of the suite) cost, per
/// problem class and overall: runs, the median wall time per run, the slowest problem
/// by its median, and the CPU hours.
#[must_use]
pub fn cost_table(rows: &[RunRow]) -> String {
    let mut t = String::from(
        "| class | dimensions | runs | wall time per run: median | slowest problem (median) | CPU time |\n|---|---|---:|---:|---|---:|\n",
    );
    let info = catalog::all();
    let mut classes: Vec<(String, Vec<usize>)> = Class::ALL
        .iter()
        .map(|&c| {
            let ids = info
                .iter()
                .filter(|p| p.class() == c)
                .map(|p| p.id)
                .collect();
            (c.name().to_string(), ids)
        })
        .collect();
    classes.push(("all".into(), info.iter().map(|p| p.id).collect()));
    for (name, ids) in classes {
        let of: Vec<&RunRow> = rows.iter().filter(|r| ids.contains(&r.problem)).collect();
        if of.is_empty() {
            continue;
        }
        let dims: Vec<usize> = ids
            .iter()
            .filter_map(|&p| catalog::info(p).map(|i| i.dim))
            .collect();
        let (lo, hi) = (
            dims.iter().min().copied().unwrap_or(0),
            dims.iter().max().copied().unwrap_or(0),
        );
        let slowest = ids
            .iter()
            .map(|&p| {
                let s = of.iter().filter(|r| r.problem == p).map(|r| r.seconds);
                (p, median(s.collect()))
            })
            .filter(|(_, m)| m.is_finite())
            .max_by(|a, b| a.1.total_cmp(&b.1));
        let cpu: f64 = of.iter().map(|r| r.seconds).sum();
        t.push_str(&format!(
            "| {name} | {lo}–{hi} | {} | {:.2} s | {} | {:.2} h |\n",
            of.len(),
            median(of.iter().map(|r| r.seconds).collect()),
            slowest.map_or("–".into(), |(p, m)| format!("RC{p:02} ({m:.1} s)")),
            cpu / 3600.0
        ));
    }
    t
}

/// The median (the mean of the middle two for an even count; NaN for none).
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::store::CheckpointRecord;
    use constraint_handling::{Checkpoint, Snapshot};

    fn row(problem: usize, run: usize, f: f64, v: f64, seconds: f64) -> RunRow {
        let json = serde_json::json!({
            "format": 4, "config": "c", "variant": "eps-mag-es", "problem": problem,
            "dim": 2, "run": run, "seed": 1, "budget": 100, "suite": "cec2020-rw",
            "instance": "official",
            "best": {"objective": f - 1.0, "violation": v, "counts": {"c1": 0, "c2": 0, "c3": 0}, "found_at": 1},
            "evals": 100, "generations": 1, "termination": "budget", "checkpoints": [],
            "seconds": seconds, "platform": "test"
        });
        let mut r: RunRow = serde_json::from_value(json).unwrap();
        // the 100 % checkpoint holds the final values; 10 % a worse one
        for (fraction, fv) in [(0.1, f + 10.0), (1.0, f)] {
            r.checkpoints.push(CheckpointRecord {
                fraction,
                checkpoint: Checkpoint {
                    evaluations: (fraction * 100.0) as usize,
                    best: Snapshot::new(fv, v),
                },
            });
        }
        r
    }

    #[test]
    fn collect_arranges_runs_and_names_the_missing_ones() {
        let rows = vec![
            row(8, 0, 3.0, 0.0, 1.0),
            row(8, 2, 5.0, 0.5, 2.0),
            row(1, 1, 7.0, 0.0, 3.0),
        ];
        let c = collect(&rows, &[1, 8], 3);
        assert_eq!(c.missing, vec![(1, 0), (1, 2), (8, 1)]);
        // the final values are the 100 % checkpoint's, not the record's best
        assert_eq!(c.finals[1][0], (3.0, 0.0));
        assert_eq!(c.finals[1][2], (5.0, 0.5));
        assert!(c.finals[1][1].0.is_nan());
        // checkpoints without a record are NaN: only 10 % and 100 % exist here
        assert_eq!(c.trajectories[1][0][0], (13.0, 0.0));
        assert!(c.trajectories[1][0][4].0.is_nan());
        assert_eq!(c.trajectories[1][0][9], (3.0, 0.0));
        let files = submission_files("mine", &["RC01".into(), "RC08".into()], &c);
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "mine RC01 F.txt",
                "mine RC01 CV.txt",
                "mine RC08 F.txt",
                "mine RC08 CV.txt"
            ]
        );
        let rc08_f: Vec<&str> = files[2].1.lines().collect();
        assert_eq!(rc08_f.len(), CHECKPOINTS.len());
        assert_eq!(rc08_f[0], "1.3e1 NaN 1.5e1");
        assert_eq!(rc08_f[9], "3e0 NaN 5e0");
        assert_eq!(files[3].1.lines().last(), Some("0e0 NaN 5e-1"));
    }

    #[test]
    fn reaching_the_best_known_value_needs_feasibility() {
        assert!(reaches(100.0 + 9e-3, 0.0, 100.0));
        assert!(!reaches(100.0 + 2e-2, 0.0, 100.0));
        assert!(reaches(-1e-4, 0.0, -2e-4));
        assert!(!reaches(50.0, 1e-9, 100.0));
    }

    #[test]
    fn costs_are_summed_per_class_and_overall() {
        let rows = vec![
            row(1, 0, 1.0, 0.0, 2.0),
            row(1, 1, 1.0, 0.0, 4.0),
            row(8, 0, 1.0, 0.0, 10.0),
        ];
        let t = cost_table(&rows);
        let all = t.lines().find(|l| l.starts_with("| all |")).unwrap();
        assert!(
            all.contains("| 3 | 4.00 s | RC08 (10.0 s) | 0.00 h |"),
            "{all}"
        );
        // every class line counts its own runs: together those of "all"
        let per_class: usize = t
            .lines()
            .skip(2)
            .filter(|l| !l.starts_with("| all |"))
            .map(|l| {
                l.split('|')
                    .nth(3)
                    .unwrap()
                    .trim()
                    .parse::<usize>()
                    .unwrap()
            })
            .sum();
        assert_eq!(per_class, 3, "{t}");
    }

    #[test]
    fn the_share_table_sorts_by_the_gap_and_sums_the_small_shares() {
        use bench_stats::cec2020::problem_shares;
        // RC01 (D = 9, weight 1), RC02 (D = 11, weight 2), RC03 (D = 7, weight 1)
        let labels = vec!["RC01".to_string(), "RC02".into(), "RC03".into()];
        let entry = |name: &str, f: [f64; 3]| {
            Entry::new(
                name,
                labels.clone(),
                f.iter().map(|&v| vec![v]).collect(),
                vec![vec![0.0]; 3],
            )
            .unwrap()
        };
        // ours loses RC02 and ties RC03; the leader loses RC01
        let entries = [
            entry("ours", [1.0, 9.0, 4.0]),
            entry("leader", [3.0, 1.0, 4.0]),
            entry("third", [2.0, 5.0, 4.0]),
        ];
        let weights = [1.0, 2.0, 1.0];
        let shares = problem_shares(&entries, &weights, 0).unwrap();
        let versus = vec!["leader".to_string(), "third".into()];
        let t = share_table(&entries, &shares, &[0, 1, 2], "ours", &versus).unwrap();
        let rows: Vec<&str> = t
            .lines()
            .filter(|l| l.starts_with("| RC") || l.contains("others") || l.starts_with("| total"))
            .collect();
        // RC02 (+0.5) first, RC01 (−0.25) after it, the tie in one row, then the total
        assert_eq!(rows.len(), 4, "{t}");
        assert!(rows[0].starts_with("| RC02 | Industrial chemical processes | 11 | 0.5000 | 0.0000 | 0.2500 | +0.5000 |"), "{}", rows[0]);
        assert!(
            rows[1].starts_with("| RC01 |") && rows[1].ends_with("| -0.2500 |"),
            "{}",
            rows[1]
        );
        assert_eq!(
            rows[2],
            "| 1 others |  |  | 0.0000 | 0.0000 | 0.0000 | +0.0000 |"
        );
        assert_eq!(
            rows[3],
            "| total |  |  | 0.5000 | 0.2500 | 0.3750 | +0.2500 |"
        );
        assert!(share_table(&entries, &shares, &[0, 1, 2], "nobody", &versus).is_err());
        assert!(share_table(&entries, &shares, &[0, 1, 2], "ours", &[]).is_err());
        assert!(share_table(&entries, &shares[..2], &[0, 1, 2], "ours", &versus).is_err());
    }
}
