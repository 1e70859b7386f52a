//! Every case of `signrank.jsonl`, `pairwise_ranking.jsonl` and `cec_statistics.jsonl`
//! in `BENCH_STATS_FIXTURES` (default `../shared/fixtures/stats`): p to 1e-12
//! (relative), h, n, both W's and the method exactly; the verdicts exactly; the CEC
//! statistics to 1e-12 (relative) and `median_c` exactly.

use bench_stats::cec::{CecStatistics, Snapshot};
use bench_stats::pairwise::{compare, Significance, Verdict};
use bench_stats::wilcoxon::{signrank, Method};
use serde::Deserialize;

fn lines<T: for<'de> Deserialize<'de>>(name: &str) -> Vec<T> {
    emages_test_support::jsonl(
        &emages_test_support::shared("BENCH_STATS_FIXTURES", "fixtures/stats").join(name),
    )
}

fn rel_close(expected: f64, actual: f64) -> bool {
    expected == actual || (expected - actual).abs() <= 1e-12 * expected.abs().max(actual.abs())
}

/// JSON numbers, with `null` standing for NaN.
fn num(v: &Option<f64>) -> f64 {
    v.unwrap_or(f64::NAN)
}

#[derive(Deserialize)]
struct SignrankCase {
    x: Vec<Option<f64>>,
    y: Vec<Option<f64>>,
    n_effective: usize,
    method: String,
    w_plus: f64,
    signed_rank: f64,
    p: f64,
    h: u8,
}

#[derive(Deserialize)]
struct Sample {
    f: Vec<f64>,
    v: Vec<f64>,
}

#[derive(Deserialize)]
struct PairwiseCase {
    baseline: Sample,
    variant: Sample,
    significance: bool,
    median: i8,
    mean: i8,
    total: i8,
}

#[derive(Deserialize)]
struct StatisticsCase {
    f: Vec<f64>,
    v: Vec<f64>,
    c: Vec<[u32; 3]>,
    best: f64,
    median: f64,
    median_c: [u32; 3],
    median_v: f64,
    mean: f64,
    std: f64,
    worst: f64,
    fr: f64,
    vio: f64,
}

fn records(s: &Sample) -> Vec<Snapshot> {
    s.f.iter()
        .zip(&s.v)
        .map(|(&f, &v)| Snapshot::new(f, v))
        .collect()
}

fn check_signrank() -> usize {
    let cases: Vec<SignrankCase> = lines("signrank.jsonl");
    assert!(!cases.is_empty(), "no signrank cases");
    let mut failures = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let x: Vec<f64> = c.x.iter().map(num).collect();
        let y: Vec<f64> = c.y.iter().map(num).collect();
        let r = signrank(&x, &y).unwrap();
        let method = if r.method == Method::Exact {
            "exact"
        } else {
            "approximate"
        };
        if !(rel_close(c.p, r.p)
            && r.h == (c.h == 1)
            && r.n == c.n_effective
            && r.w_plus == c.w_plus
            && r.statistic == c.signed_rank
            && method == c.method)
        {
            failures.push(format!(
                "case {}: expected p={} h={} n={} W+={} W={} {}, got p={} h={} n={} W+={} W={} {method}",
                i + 1,
                c.p,
                c.h,
                c.n_effective,
                c.w_plus,
                c.signed_rank,
                c.method,
                r.p,
                r.h,
                r.n,
                r.w_plus,
                r.statistic
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} signrank mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
    cases.len()
}

fn check_pairwise() -> usize {
    let cases: Vec<PairwiseCase> = lines("pairwise_ranking.jsonl");
    assert!(!cases.is_empty(), "no pairwise cases");
    let mut failures = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let significance = if c.significance {
            Significance::default()
        } else {
            Significance::None
        };
        let r = compare(&records(&c.baseline), &records(&c.variant), significance).unwrap();
        let expected = [c.median, c.mean, c.total].map(|v| Verdict::try_from(v).unwrap());
        if [r.median, r.mean, r.total] != expected {
            failures.push(format!(
                "case {} (significance {}): expected {expected:?}, got {:?}",
                i + 1,
                c.significance,
                [r.median, r.mean, r.total]
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} pairwise mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
    cases.len()
}

fn check_statistics() -> usize {
    let cases: Vec<StatisticsCase> = lines("cec_statistics.jsonl");
    assert!(!cases.is_empty(), "no statistics cases");
    let mut failures = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let runs: Vec<Snapshot> =
            c.f.iter()
                .zip(&c.v)
                .zip(&c.c)
                .map(|((&f, &v), &counts)| Snapshot::new(f, v).with_counts(counts))
                .collect();
        let s = CecStatistics::compute(&runs).unwrap();
        let reals = [
            ("best", c.best, s.best),
            ("median", c.median, s.median),
            ("median_v", c.median_v, s.median_violation),
            ("mean", c.mean, s.mean),
            ("std", c.std, s.std),
            ("worst", c.worst, s.worst),
            ("fr", c.fr, s.feasibility_rate),
            ("vio", c.vio, s.mean_violation),
        ];
        for (name, e, a) in reals {
            if !rel_close(e, a) {
                failures.push(format!("case {}: {name} expected {e}, got {a}", i + 1));
            }
        }
        if s.median_counts != c.median_c {
            failures.push(format!(
                "case {}: median_c expected {:?}, got {:?}",
                i + 1,
                c.median_c,
                s.median_counts
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} statistics mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
    cases.len()
}

#[test]
fn reference() {
    let a = check_signrank();
    let b = check_pairwise();
    let c = check_statistics();
    println!("checked {a} signrank, {b} pairwise, {c} statistics cases");
}
