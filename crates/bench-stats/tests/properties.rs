//! Properties of the tests and rankings that hold for any input.

use bench_stats::pairwise::{compare, Significance, Verdict};
use bench_stats::wilcoxon::{ranksum, signrank};
use bench_stats::Snapshot;
use proptest::prelude::*;

fn sample(len: usize) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(
        prop_oneof![
            Just(0.0),
            Just(1.0),
            -5.0..5.0f64,
            (-3i32..3).prop_map(f64::from)
        ],
        len,
    )
}

proptest! {
    #[test]
    fn signrank_is_symmetric_and_its_ranks_add_up((x, y) in (1usize..30).prop_flat_map(|n| (sample(n), sample(n)))) {
        let a = signrank(&x, &y).unwrap();
        let b = signrank(&y, &x).unwrap();
        prop_assert_eq!(a.n, b.n);
        prop_assert!((a.p - b.p).abs() <= 1e-12 * a.p.max(b.p));
        prop_assert_eq!(a.statistic, b.statistic);
        let n = a.n as f64;
        // W⁺(x, y) is W⁻(y, x): the ranks of the kept pairs add up to n(n+1)/2.
        prop_assert_eq!(a.w_plus + b.w_plus, n * (n + 1.0) / 2.0);
        prop_assert!(a.p > 0.0 && a.p <= 1.0);
    }

    #[test]
    fn ranksum_is_symmetric(x in sample(7), y in sample(12)) {
        let a = ranksum(&x, &y).unwrap();
        let b = ranksum(&y, &x).unwrap();
        prop_assert!((a.p - b.p).abs() <= 1e-12);
        prop_assert!(a.p > 0.0 && a.p <= 1.0);
    }

    #[test]
    fn swapping_baseline_and_variant_flips_the_verdicts(
        f in prop::collection::vec((-2.0..2.0f64, prop_oneof![Just(0.0), 0.0..1.0f64]), 10),
        g in prop::collection::vec((-2.0..2.0f64, prop_oneof![Just(0.0), 0.0..1.0f64]), 10),
        sig in any::<bool>(),
    ) {
        let b: Vec<Snapshot> = f.iter().map(|&(x, v)| Snapshot::new(x, v)).collect();
        let s: Vec<Snapshot> = g.iter().map(|&(x, v)| Snapshot::new(x, v)).collect();
        let test = if sig { Significance::default() } else { Significance::None };
        let bs = compare(&b, &s, test).unwrap();
        let sb = compare(&s, &b, test).unwrap();
        let flip = |v: Verdict| Verdict::try_from(-(v as i8)).unwrap();
        prop_assert_eq!(bs.median, flip(sb.median));
        prop_assert_eq!(bs.mean, flip(sb.mean));
        prop_assert_eq!(bs.total, flip(sb.total));
        // against itself: all ties
        let bb = compare(&b, &b, test).unwrap();
        prop_assert_eq!(bb.total, Verdict::Equal);
    }
}

#[test]
fn rank_sum_is_selectable_and_accepts_unequal_run_counts() {
    let b: Vec<Snapshot> = (0..20).map(|i| Snapshot::new(i as f64, 0.0)).collect();
    let s: Vec<Snapshot> = (0..15)
        .map(|i| Snapshot::new(100.0 + i as f64, 0.0))
        .collect();
    let c = compare(&b, &s, Significance::RankSum { alpha: 0.05 }).unwrap();
    assert_eq!(c.total, Verdict::Plus);
    assert!(compare(&b, &s, Significance::default()).is_err()); // pairing needs equal counts
}

/// The distribution-free confidence interval of the median: the order statistics of the
/// published sign-test tables (e.g. Conover, *Practical Nonparametric Statistics*,
/// Table A3) at 95 %, 1-based.
#[test]
fn median_interval_matches_the_sign_test_tables() {
    use bench_stats::cec::{median_interval, median_interval_positions};
    let published = [
        (6, 1, 6),
        (10, 2, 9),
        (20, 6, 15),
        (25, 8, 18),
        (30, 10, 21),
    ];
    for (n, lo, hi) in published {
        assert_eq!(
            median_interval_positions(n, 0.05),
            Some((lo - 1, hi - 1)),
            "n = {n}"
        );
    }
    assert_eq!(median_interval_positions(5, 0.05), None);
    assert_eq!(median_interval_positions(25, 1.5), None);
    // On runs: the 8th and 18th best of 25, in the reference order (feasible runs by f
    // first, then the infeasible ones by ν̄).
    let runs: Vec<Snapshot> = (0..25)
        .map(|i| {
            let i = f64::from((i * 7) % 25);
            if i < 20.0 {
                Snapshot::new(i, 0.0)
            } else {
                Snapshot::new(-1.0, i)
            }
        })
        .collect();
    let (lo, hi) = median_interval(&runs, 0.05).unwrap();
    assert_eq!((lo.objective(), lo.violation()), (7.0, 0.0));
    assert_eq!((hi.objective(), hi.violation()), (17.0, 0.0));
    assert!(median_interval(&runs[..5], 0.05).is_err());
    assert!(median_interval(&runs, 0.0).is_err());
}
