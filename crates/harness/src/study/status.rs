//! "Where is my study?": progress of a (possibly sharded) study read from its results
//! files, without locking or changing them.

use crate::error::StudyError;
use crate::study::store::{load_runs, RunKey, RunRow};
use crate::study::{Shard, StudySpec};
use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// Progress of one results file (the whole study, or one shard).
#[derive(Clone, Debug, PartialEq)]
pub struct FileStatus {
    /// The shard, if the study is split.
    pub shard: Option<Shard>,
    /// The results file.
    pub path: PathBuf,
    /// Runs of this file's part of the study.
    pub expected: usize,
    /// Of those, the runs recorded.
    pub done: usize,
    /// Some of the runs still missing (configuration, problem, run), in canonical order.
    pub missing_sample: Vec<RunKey>,
    /// Wall time of the recorded runs (s).
    pub seconds: f64,
    /// Estimated wall time of the missing runs on one thread (s).
    pub remaining_seconds: f64,
}

/// Progress of a study.
#[derive(Clone, Debug, PartialEq)]
pub struct StudyStatus {
    /// One entry per results file.
    pub files: Vec<FileStatus>,
    /// Median run time per problem (s), slowest first.
    pub slowest: Vec<(usize, f64)>,
    /// Threads per process assumed for the ETA.
    pub threads: usize,
    /// The suite's label of each problem of the study (`C07`).
    pub labels: BTreeMap<usize, String>,
}

impl StudyStatus {
    fn label(&self, p: usize) -> String {
        self.labels
            .get(&p)
            .cloned()
            .unwrap_or_else(|| p.to_string())
    }
}

impl StudyStatus {
    /// Runs expected in all.
    #[must_use]
    pub fn expected(&self) -> usize {
        self.files.iter().map(|f| f.expected).sum()
    }

    /// Runs recorded in all.
    #[must_use]
    pub fn done(&self) -> usize {
        self.files.iter().map(|f| f.done).sum()
    }

    /// Whether every run is recorded.
    #[must_use]
    pub fn is_complete(&self) -> bool {
        self.done() == self.expected()
    }
}

/// The shard count of the results in `out`: the one given, else the `N` of the
/// `runs.shard-I-of-N.jsonl` files found there.
fn shard_count(out: &Path, given: Option<Shard>) -> Result<Option<usize>, StudyError> {
    if let Some(s) = given {
        return Ok(Some(s.count));
    }
    let mut counts = std::collections::BTreeSet::new();
    if let Ok(entries) = std::fs::read_dir(out) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if let Some(n) = name
                .strip_prefix("runs.shard-")
                .and_then(|r| r.strip_suffix(".gz").unwrap_or(r).strip_suffix(".jsonl"))
                .and_then(|r| r.split_once("-of-"))
                .and_then(|(_, n)| n.parse::<usize>().ok())
            {
                counts.insert(n);
            }
        }
    }
    match counts.len() {
        0 => Ok(None),
        1 => Ok(counts.first().copied()),
        _ => Err(StudyError::Incompatible(format!(
            "{} holds shard files of several splits ({}); pass --shard I/N to choose one",
            out.display(),
            counts
                .iter()
                .map(|n| format!("of {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// How far the study `spec` has got in `out`.
///
/// # Errors
/// I/O errors and [`StudyError::Corrupt`] naming a bad record;
/// [`StudyError::Incompatible`] for records of another study.
pub fn study_status(spec: &StudySpec, out: &Path) -> Result<StudyStatus, StudyError> {
    let parts: Vec<Option<Shard>> = match shard_count(out, spec.shard)? {
        None => vec![None],
        Some(count) => (1..=count)
            .map(|index| Some(Shard { index, count }))
            .collect(),
    };
    let mut loaded = Vec::new();
    let mut per_config_problem: BTreeMap<(String, usize), Vec<f64>> = BTreeMap::new();
    for shard in parts {
        let part = StudySpec {
            shard,
            ..spec.clone()
        };
        let path = part.files(out).readable_runs();
        let rows: Vec<RunRow> = load_runs(&path)?;
        crate::study::runner::check_compatible(&part, &path, &rows, false)?;
        for r in &rows {
            per_config_problem
                .entry((r.config.clone(), r.problem))
                .or_default()
                .push(r.seconds);
        }
        loaded.push((part, path, rows));
    }
    // Median run time per (configuration, problem), else per problem, else overall:
    // medians, because a run whose process was suspended records the pause as well.
    let median = |v: &[f64]| -> f64 {
        let mut v = v.to_vec();
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(0.0)
    };
    let all: Vec<f64> = per_config_problem.values().flatten().copied().collect();
    let overall = median(&all);
    let mut per_problem: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
    for ((_, p), v) in &per_config_problem {
        per_problem.entry(*p).or_default().extend(v);
    }
    let estimate = |config: &str, problem: usize| -> f64 {
        per_config_problem
            .get(&(config.to_string(), problem))
            .or_else(|| per_problem.get(&problem))
            .map_or(overall, |v| median(v))
    };
    let mut files = Vec::new();
    for (part, path, rows) in loaded {
        let recorded: HashSet<RunKey> = rows.iter().map(RunRow::key).collect();
        let mut status = FileStatus {
            shard: part.shard,
            path,
            expected: 0,
            done: 0,
            missing_sample: Vec::new(),
            seconds: rows.iter().fold(0.0, |s, r| s + r.seconds),
            remaining_seconds: 0.0,
        };
        for job in part.jobs() {
            let key = RunKey {
                config: part.configs[job.config].label.clone(),
                problem: job.problem,
                run: job.run,
            };
            status.expected += 1;
            if recorded.contains(&key) {
                status.done += 1;
            } else {
                status.remaining_seconds += estimate(&key.config, key.problem);
                if status.missing_sample.len() < 5 {
                    status.missing_sample.push(key);
                }
            }
        }
        files.push(status);
    }
    let mut slowest: Vec<(usize, f64)> = per_problem.iter().map(|(&p, v)| (p, median(v))).collect();
    slowest.sort_by(|a, b| b.1.total_cmp(&a.1));
    slowest.truncate(5);
    Ok(StudyStatus {
        files,
        slowest,
        labels: spec
            .problems
            .iter()
            .map(|&p| (p, spec.suite.label(p)))
            .collect(),
        threads: spec.threads.unwrap_or(1).max(1),
    })
}

/// `seconds` as `12 s`, `34 min` or `5.6 h` (`-` for none).
pub fn duration(seconds: f64) -> String {
    if seconds <= 0.0 {
        "-".to_string()
    } else if seconds >= 5400.0 {
        format!("{:.1} h", seconds / 3600.0)
    } else if seconds >= 90.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{seconds:.0} s")
    }
}

impl fmt::Display for StudyStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<10} {:>17} {:>8} {:>11} {:>16}  file",
            "part", "done / expected", "missing", "run time", "remaining (est.)"
        )?;
        for s in &self.files {
            let part = s
                .shard
                .map_or_else(|| "all".to_string(), |s| format!("{}/{}", s.index, s.count));
            let state = if s.done == s.expected {
                "complete".to_string()
            } else {
                duration(s.remaining_seconds)
            };
            writeln!(
                f,
                "{:<10} {:>17} {:>8} {:>11} {:>16}  {}",
                part,
                format!("{} / {}", s.done, s.expected),
                s.expected - s.done,
                duration(s.seconds),
                state,
                s.path.display()
            )?;
        }
        let remaining: f64 = self.files.iter().map(|s| s.remaining_seconds).sum();
        let longest = self
            .files
            .iter()
            .map(|s| s.remaining_seconds)
            .fold(0.0, f64::max);
        writeln!(
            f,
            "total: {} of {} runs done ({:.1} %), {} missing",
            self.done(),
            self.expected(),
            100.0 * self.done() as f64 / self.expected().max(1) as f64,
            self.expected() - self.done()
        )?;
        if !self.slowest.is_empty() {
            writeln!(
                f,
                "slowest problems (median run time): {}",
                self.slowest
                    .iter()
                    .map(|&(p, s)| format!("{} {s:.1} s", self.label(p)))
                    .collect::<Vec<_>>()
                    .join(", ")
            )?;
        }
        if self.is_complete() {
            return writeln!(f, "the study is complete");
        }
        let unfinished: Vec<&FileStatus> =
            self.files.iter().filter(|s| s.done < s.expected).collect();
        if let Some(first) = unfinished.first() {
            let sample: Vec<String> = first
                .missing_sample
                .iter()
                .map(|k| format!("{} {} run {}", k.config, self.label(k.problem), k.run))
                .collect();
            writeln!(f, "next missing runs: {}", sample.join("; "))?;
        }
        let t = self.threads as f64;
        write!(
            f,
            "ETA: {} of CPU left; one process with {} thread(s): {}",
            duration(remaining),
            self.threads,
            duration(remaining / t)
        )?;
        if self.files.len() > 1 {
            write!(
                f,
                "; all {} unfinished shards at once ({} thread(s) each): {}",
                unfinished.len(),
                self.threads,
                duration(longest / t)
            )?;
        }
        writeln!(f)
    }
}

/// Whether every run of `spec` (its shard's, if it is one) is recorded in some runs file
/// of `dir` ([`crate::study::store::runs_files`]: this part's, another part's — a study
/// run in shards, then resumed without — plain or archived), so that nothing needs to
/// run. An archived (compressed) runs file of this part that lacks runs is an error
/// that says how to resume it.
///
/// # Errors
/// I/O and record errors; [`StudyError::Invalid`] for an archived part with runs
/// missing.
pub fn complete_in(spec: &StudySpec, dir: &Path) -> Result<bool, StudyError> {
    let mut done: HashSet<(String, usize, usize)> = HashSet::new();
    for file in crate::study::store::runs_files(dir)? {
        done.extend(
            load_runs(&file)?
                .into_iter()
                .map(|r| (r.config, r.problem, r.run)),
        );
    }
    let missing = spec
        .jobs()
        .iter()
        .filter(|j| !done.contains(&(spec.configs[j.config].label.clone(), j.problem, j.run)))
        .count();
    if missing == 0 {
        return Ok(true);
    }
    let files = spec.files(dir);
    if files.readable_runs() != files.runs {
        return Err(StudyError::Invalid(format!(
            "{} is archived (read-only) but lacks {missing} runs of this part; decompress it and its dynamics file (gunzip) to resume",
            files.compressed_runs().display()
        )));
    }
    Ok(false)
}
