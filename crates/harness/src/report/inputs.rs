//! [`Inputs`]: what every table and figure of a report reads — the results, the lineup,
//! the problems, and every baseline-vs-other verdict, computed once.

use super::{Lineup, Published};
use crate::error::StudyError;
use crate::study::Dataset;
use crate::suites::CEC2017;
use bench_stats::pairwise::{compare, Comparison, Significance, Tally};
use std::collections::BTreeMap;

/// What every part of the report reads: the results, the lineup, the problems, and the
/// baseline-vs-other verdicts with the chosen test and without any.
pub struct Inputs<'a> {
    /// The results.
    pub data: &'a Dataset,
    /// Who is compared.
    pub lineup: &'a Lineup,
    /// The problems (all of `data`).
    pub problems: Vec<usize>,
    /// Runs per algorithm and problem.
    pub runs: usize,
    /// The significance test of the rankings.
    pub significance: Significance,
    /// Verdicts `(other index, problem)` with the significance test.
    pub tested: BTreeMap<(usize, usize), Comparison>,
    /// Verdicts without a test (the original CEC ranking).
    pub untested: BTreeMap<(usize, usize), Comparison>,
    notes: Vec<String>,
}

impl<'a> Inputs<'a> {
    /// Checks that every algorithm has the same number of runs on every problem and
    /// computes the verdicts.
    ///
    /// # Errors
    /// [`StudyError::Incompatible`] for incomplete results; statistics errors.
    pub fn new(
        data: &'a Dataset,
        lineup: &'a Lineup,
        significance: Significance,
    ) -> Result<Self, StudyError> {
        let keys: Vec<String> = lineup.all().map(|c| c.key.clone()).collect();
        let problems: Vec<usize> = data.problems().into_iter().collect();
        let runs = data.check_complete(&keys, &problems)?;
        let mut notes = vec![format!(
            "N = {}, {} problems, {runs} runs per variant and problem, budget {} evaluations; {}",
            data.dim,
            problems.len(),
            data.budget,
            lineup.legend
        )];
        if let Some(w) = data.warning() {
            notes.insert(0, w);
        }
        let mut tested = BTreeMap::new();
        let mut untested = BTreeMap::new();
        for (k, other) in lineup.others.iter().enumerate() {
            for &p in &problems {
                let b = data.records(&lineup.baseline.key, p, 1.0);
                let s = data.records(&other.key, p, 1.0);
                tested.insert((k, p), compare(&b, &s, significance)?);
                untested.insert((k, p), compare(&b, &s, Significance::None)?);
            }
        }
        Ok(Self {
            data,
            lineup,
            problems,
            runs,
            significance,
            tested,
            untested,
            notes,
        })
    }

    /// The notes under a table built with test `t`.
    #[must_use]
    pub fn notes_with(&self, t: &Significance) -> Vec<String> {
        let mut n = self.notes.clone();
        n.push(format!(
            "Test: {}.",
            significance_text(t, self.data.suite().name() == CEC2017)
        ));
        n
    }

    /// The published numbers the tables carry beside their own, if the lineup has any
    /// for these results ([`Published::covers`]).
    #[must_use]
    pub fn published(&self) -> Option<&dyn Published> {
        self.lineup
            .published
            .as_deref()
            .filter(|p| p.covers(self.data, &self.problems))
    }

    /// Whether the rankings use a significance test.
    #[must_use]
    pub fn significance_tested(&self) -> bool {
        !matches!(self.significance, Significance::None)
    }
}

/// The three cells of a `+/=/−` tally.
pub(super) fn tally_cells(t: &Tally) -> [String; 3] {
    [t.plus.to_string(), t.equal.to_string(), t.minus.to_string()]
}

/// How a table's verdicts were reached (`cec2017`: the suite is CEC2017, whose
/// competition defined the ranking without a test).
fn significance_text(s: &Significance, cec2017: bool) -> String {
    match s {
        Significance::None if cec2017 => "no significance test (original CEC2017 ranking)".into(),
        Significance::None => "no significance test (the CEC competitions' ranking rule)".into(),
        Significance::SignedRank { alpha } => {
            format!("Wilcoxon signed-rank test pairing runs by index, α = {alpha}")
        }
        Significance::RankSum { alpha } => {
            format!("Wilcoxon rank-sum test (unpaired), α = {alpha}")
        }
    }
}
