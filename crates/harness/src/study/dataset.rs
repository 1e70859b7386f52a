//! Results loaded from one or several results files (a whole study, or its shards),
//! checked for consistency and grouped by configuration and problem.

use crate::error::StudyError;
use crate::study::store::{load_dynamics, load_runs, DynamicsRow, RunRow};
use crate::suites::{by_name, Suite};
use constraint_handling::Snapshot;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The runs of a study.
#[derive(Clone, Debug)]
pub struct Dataset {
    /// The dimension.
    pub dim: usize,
    /// The evaluation budget.
    pub budget: usize,
    /// The benchmark suite (labels and groups for the tables): by its recorded name
    /// ([`crate::suites::by_name`]) or attached with [`Dataset::with_suite`].
    suite: Arc<dyn Suite>,
    /// The instance label (`official` or `synthetic:SEED`).
    pub instance: String,
    /// The runs took the fast path (`--fast`; a dataset holds runs of one path).
    pub fast: bool,
    /// The fractions of the budget at which every run reported its best-so-far (the
    /// study's checkpoints; every run has the same).
    pub checkpoint_fractions: Vec<f64>,
    runs: BTreeMap<(String, usize), Vec<RunRow>>,
    dynamics: BTreeMap<(String, usize), Vec<DynamicsRow>>,
    /// Set by [`Dataset::allow_incomplete`] when runs were missing: what the tables say.
    incomplete: Option<String>,
}

/// The dynamics file that belongs to a runs file (`runs…jsonl` → `dynamics…jsonl`).
#[must_use]
pub fn dynamics_path(runs: &Path) -> Option<PathBuf> {
    let name = runs.file_name()?.to_str()?;
    let rest = name.strip_prefix("runs")?;
    Some(runs.with_file_name(format!("dynamics{rest}")))
}

impl Dataset {
    /// Loads and merges results files (and the dynamics files beside them).
    ///
    /// # Errors
    /// [`StudyError::Invalid`] if no file or no record is found; [`StudyError::Corrupt`]
    /// for a bad line; [`StudyError::Incompatible`] if the files mix dimensions, budgets
    /// or instances, or hold different results for the same run.
    pub fn load(files: &[PathBuf]) -> Result<Self, StudyError> {
        if files.is_empty() {
            return Err(StudyError::Invalid("no results files given".into()));
        }
        let mut rows = Vec::new();
        let mut dyns = Vec::new();
        for f in files {
            if !f.is_file() {
                return Err(StudyError::Invalid(format!(
                    "results file {} does not exist",
                    f.display()
                )));
            }
            rows.extend(load_runs(f)?);
            if let Some(d) = dynamics_path(f) {
                dyns.extend(load_dynamics(&d)?);
            }
        }
        Self::from_rows(rows, dyns)
    }

    /// Builds a dataset from records.
    ///
    /// # Errors
    /// As [`Dataset::load`].
    pub fn from_rows(rows: Vec<RunRow>, dynamics: Vec<DynamicsRow>) -> Result<Self, StudyError> {
        let first = rows
            .first()
            .ok_or_else(|| StudyError::Invalid("the results files hold no runs".into()))?;
        let (dim, budget) = (first.dim, first.budget);
        let (suite, instance) = (by_name(&first.suite), first.instance.clone());
        let fast = first.fast;
        let fractions: Vec<f64> = first.checkpoints.iter().map(|c| c.fraction).collect();
        let mut runs: BTreeMap<(String, usize), Vec<RunRow>> = BTreeMap::new();
        for r in rows {
            if r.dim != dim
                || r.budget != budget
                || r.instance != instance
                || r.suite != suite.name()
            {
                return Err(StudyError::Incompatible(format!(
                    "the results mix studies: {} N = {dim}, budget {budget}, instance {instance} and {} N = {}, budget {}, instance {}",
                    suite.name(), r.suite, r.dim, r.budget, r.instance
                )));
            }
            if r.fast != fast {
                return Err(StudyError::Incompatible(
                    "the results mix runs of the fast path (--fast) and of the exact path".into(),
                ));
            }
            if !r
                .checkpoints
                .iter()
                .map(|c| c.fraction)
                .eq(fractions.iter().copied())
            {
                return Err(StudyError::Incompatible(format!(
                    "the results mix checkpoints at {fractions:?} of the budget and at {:?}",
                    r.checkpoints.iter().map(|c| c.fraction).collect::<Vec<_>>()
                )));
            }
            let group = runs.entry((r.config.clone(), r.problem)).or_default();
            if let Some(prev) = group.iter().find(|p| p.run == r.run) {
                let same = prev.seed == r.seed
                    && prev.best.objective().to_bits() == r.best.objective().to_bits()
                    && prev.best.violation().to_bits() == r.best.violation().to_bits();
                if !same {
                    return Err(StudyError::Incompatible(format!(
                        "run {} of {} on {} appears twice with different results",
                        r.run,
                        r.config,
                        suite.label(r.problem)
                    )));
                }
                continue;
            }
            group.push(r);
        }
        for group in runs.values_mut() {
            group.sort_by_key(|r| r.run);
        }
        let mut dyn_map: BTreeMap<(String, usize), Vec<DynamicsRow>> = BTreeMap::new();
        for d in dynamics {
            if d.dim == dim {
                dyn_map
                    .entry((d.config.clone(), d.problem))
                    .or_default()
                    .push(d);
            }
        }
        for group in dyn_map.values_mut() {
            group.sort_by_key(|d| d.run);
            group.dedup_by_key(|d| d.run);
        }
        Ok(Self {
            dim,
            budget,
            suite,
            instance,
            fast,
            checkpoint_fractions: fractions,
            runs,
            dynamics: dyn_map,
            incomplete: None,
        })
    }

    /// Builds tables from an incomplete study: on each problem, every configuration
    /// keeps its first `n` runs present (by run index), `n` the smallest count among
    /// the configurations there, so that the paired statistics pair `n` runs each
    /// (the runs are independent, so which ones pair does not bias the tests); problems
    /// some configuration has no run on are left out. If anything was missing, the
    /// dataset is marked incomplete: every table and report built from it carries the
    /// mark ([`Dataset::warning`]).
    #[must_use]
    pub fn allow_incomplete(mut self) -> Self {
        let configs = self.configs();
        let (mut kept, mut dropped, mut left_out) = (Vec::new(), Vec::new(), 0usize);
        let most = self.runs.values().map(Vec::len).max().unwrap_or(0);
        for p in self.problems() {
            let n = configs
                .iter()
                .map(|c| self.runs(c, p).len())
                .min()
                .unwrap_or(0);
            for c in &configs {
                if let Some(group) = self.runs.get_mut(&(c.clone(), p)) {
                    left_out += group.len().saturating_sub(n);
                    group.truncate(n);
                }
            }
            if n == 0 {
                dropped.push(self.suite.label(p));
            } else {
                kept.push(n);
            }
        }
        self.runs.retain(|_, g| !g.is_empty());
        let (lo, hi) = (
            kept.iter().min().copied().unwrap_or(0),
            kept.iter().max().copied().unwrap_or(0),
        );
        if left_out > 0 || !dropped.is_empty() || lo < most {
            self.incomplete = Some(format!(
                "INCOMPLETE RESULTS (--allow-incomplete): {lo} to {hi} runs per configuration and problem (the most any group has: {most}){}{}. Preliminary: finish the study for the final tables.",
                if dropped.is_empty() {
                    String::new()
                } else {
                    format!("; left out for lack of runs: {}", dropped.join(", "))
                },
                if left_out > 0 {
                    format!("; {left_out} runs beyond the common count unused")
                } else {
                    String::new()
                }
            ));
        }
        self
    }

    /// The warning every table of this dataset carries: a synthetic instance, results
    /// marked incomplete, runs of the fast path, or several of these.
    #[must_use]
    pub fn warning(&self) -> Option<String> {
        let fast = self.fast.then(|| {
            "Runs of the fast path (--fast): other runs than the exact path's, drawn from the same distributions (docs/performance.md).".to_string()
        });
        let parts: Vec<String> = crate::suites::synthetic_warning(&self.instance, false)
            .into_iter()
            .chain(self.incomplete.clone())
            .chain(fast)
            .collect();
        (!parts.is_empty()).then(|| parts.join(" "))
    }

    /// The configuration labels present.
    #[must_use]
    pub fn configs(&self) -> BTreeSet<String> {
        self.runs.keys().map(|(c, _)| c.clone()).collect()
    }

    /// The number of runs it holds, over all configurations and problems.
    #[must_use]
    pub fn len(&self) -> usize {
        self.runs.values().map(Vec::len).sum()
    }

    /// Whether it holds no run (never after [`Dataset::load`], which refuses that).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// The problems present.
    #[must_use]
    pub fn problems(&self) -> BTreeSet<usize> {
        self.runs.keys().map(|&(_, p)| p).collect()
    }

    /// The runs of a configuration on a problem, by run index.
    #[must_use]
    pub fn runs(&self, config: &str, problem: usize) -> &[RunRow] {
        self.runs
            .get(&(config.to_string(), problem))
            .map_or(&[], Vec::as_slice)
    }

    /// Every run of a configuration, over all problems.
    pub fn runs_of<'s>(&'s self, config: &'s str) -> impl Iterator<Item = &'s RunRow> + 's {
        self.runs
            .iter()
            .filter(move |((c, _), _)| c == config)
            .flat_map(|(_, rows)| rows)
    }

    /// The statistics records of a configuration on a problem at a checkpoint fraction.
    #[must_use]
    pub fn records(&self, config: &str, problem: usize, fraction: f64) -> Vec<Snapshot> {
        self.runs(config, problem)
            .iter()
            .map(|r| r.snapshot(fraction))
            .collect()
    }

    /// The CEC statistics (best, median, mean, std, worst, feasibility rate, mean ν̄,
    /// meanRTgb; [`bench_stats::CecStatistics`]) of `config` on `problem` at checkpoint
    /// `fraction` of the budget (`1.0`: the end of the runs).
    ///
    /// # Errors
    /// [`StudyError::Invalid`] if the dataset has no runs of `config` on `problem` or
    /// no checkpoint at `fraction`; [`StudyError::Stats`] if they cannot be computed.
    pub fn statistics(
        &self,
        config: &str,
        problem: usize,
        fraction: f64,
    ) -> Result<bench_stats::CecStatistics, StudyError> {
        let recorded = fraction == 1.0
            || self
                .checkpoint_fractions
                .iter()
                .any(|&f| (f - fraction).abs() < 1e-12);
        let runs = self.records(config, problem, fraction);
        if runs.is_empty() || !recorded {
            return Err(StudyError::Invalid(format!(
                "no runs of {config} on {} at {fraction} of the budget (checkpoints: {:?})",
                self.label(problem),
                self.checkpoint_fractions
            )));
        }
        Ok(bench_stats::CecStatistics::compute(&runs)?)
    }

    /// The dynamics of a configuration on a problem (possibly empty).
    #[must_use]
    pub fn dynamics(&self, config: &str, problem: usize) -> &[DynamicsRow] {
        self.dynamics
            .get(&(config.to_string(), problem))
            .map_or(&[], Vec::as_slice)
    }

    /// Checks that every configuration has the same runs on every problem; returns the
    /// number of runs.
    ///
    /// # Errors
    /// [`StudyError::Incompatible`] naming the first gap.
    pub fn check_complete(
        &self,
        configs: &[String],
        problems: &[usize],
    ) -> Result<usize, StudyError> {
        if self.incomplete.is_some() {
            // Problems may hold different numbers of runs; each is complete in itself.
            return Ok(problems
                .iter()
                .map(|&p| configs.first().map_or(0, |c| self.runs(c, p).len()))
                .min()
                .unwrap_or(0));
        }
        let mut expected: Option<(Vec<usize>, String, usize)> = None;
        for &p in problems {
            for c in configs {
                let ids: Vec<usize> = self.runs(c, p).iter().map(|r| r.run).collect();
                let label = self.suite.label(p);
                if ids.is_empty() {
                    return Err(StudyError::Incompatible(format!(
                        "incomplete results: no runs of {c} on {label}; finish the study (rerun the same command), merge all shards, or pass --allow-incomplete for preliminary tables"
                    )));
                }
                match &expected {
                    None => expected = Some((ids, c.clone(), p)),
                    Some((e, ec, ep)) if *e != ids => {
                        return Err(StudyError::Incompatible(format!(
                            "incomplete results: {c} has {} runs on {label}, {ec} has {} on {}; finish the study (rerun the same command), merge all shards, or pass --allow-incomplete for preliminary tables",
                            ids.len(),
                            e.len(),
                            self.suite.label(*ep)
                        )))
                    }
                    Some(_) => {}
                }
            }
        }
        Ok(expected.map_or(0, |e| e.0.len()))
    }

    /// The benchmark suite of the runs.
    #[must_use]
    pub fn suite(&self) -> &dyn Suite {
        self.suite.as_ref()
    }

    /// Attaches the suite the runs were made on (its labels and groups go into the
    /// tables), for suites this crate knows only by name.
    ///
    /// # Errors
    /// [`StudyError::Incompatible`] if the records name another suite.
    pub fn with_suite(mut self, suite: Arc<dyn Suite>) -> Result<Self, StudyError> {
        if suite.name() != self.suite.name() {
            return Err(StudyError::Incompatible(format!(
                "the results are of the {} suite, not {}",
                self.suite.name(),
                suite.name()
            )));
        }
        self.suite = suite;
        Ok(self)
    }

    /// The label of problem `p` in tables and messages.
    #[must_use]
    pub fn label(&self, p: usize) -> String {
        self.suite.label(p)
    }

    /// The total wall time of the runs (seconds).
    #[must_use]
    pub fn cpu_seconds(&self) -> f64 {
        self.runs.values().flatten().map(|r| r.seconds).sum()
    }
}
