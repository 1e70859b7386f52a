//! The results store: one JSON object per finished run in `runs.jsonl`, appended and
//! flushed as each run ends, so an interrupted study loses nothing but the runs in
//! flight; per-run dynamics in `dynamics.jsonl`.

use crate::error::StudyError;
use constraint_handling::{Checkpoint, Snapshot};
use ma_es::restarts::RestartRecord;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use constraint_handling::quality::real;

/// The best-so-far at a checkpoint: the fraction of the budget the harness asked for
/// and the optimizer's [`Checkpoint`], unchanged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckpointRecord {
    /// Fraction of the budget (0.1, 0.5, 1.0).
    pub fraction: f64,
    /// When it was taken and the best-so-far then.
    #[serde(flatten)]
    pub checkpoint: Checkpoint,
}

/// The format version of the run records this code writes: 2 added `format` and
/// `setting`, 3 `suite`, 4 writes the optimizer's result types unchanged
/// (`best` and the checkpoints as [`Snapshot`]s with their counts and `found_at`).
/// Records without `format` are version 1 (written before 2026-11-26); every version
/// is read.
pub const RECORD_FORMAT: u32 = 4;

/// The value of a studied parameter in a run (parameter studies).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setting {
    /// The parameter (`lambda`, `theta_r`).
    pub parameter: String,
    /// Its value.
    pub value: usize,
}

/// One finished run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "legacy::AnyRow")]
pub struct RunRow {
    /// The record format ([`RECORD_FORMAT`]; 1 for records without the field).
    pub format: u32,
    /// The configuration's label (the variant name in the ablation study).
    pub config: String,
    /// The algorithm ([`crate::optimizer::Optimizer::kind`]; the preset name for
    /// εMAg-ES and its variants).
    pub variant: String,
    /// Problem number.
    pub problem: usize,
    /// Dimension.
    pub dim: usize,
    /// Run index (0-based).
    pub run: usize,
    /// The seed of the run's noise source.
    pub seed: u64,
    /// The evaluation budget.
    pub budget: usize,
    /// The benchmark suite ([`crate::suites::Suite::name`]; `cec2017` for records of
    /// format 1 and 2, which do not have the field).
    pub suite: String,
    /// The suite's instance data (CEC2017: `official` or `synthetic:SEED`).
    pub instance: String,
    /// The final best-so-far, its counts, and the evaluation count after the iteration
    /// that found it.
    pub best: Snapshot,
    /// Evaluations consumed.
    pub evals: usize,
    /// Generations done.
    pub generations: usize,
    /// Why the run stopped.
    pub termination: crate::optimizer::StopReason,
    /// Checkpoints at 10 %, 50 %, 100 % of the budget.
    pub checkpoints: Vec<CheckpointRecord>,
    /// Wall time of the run.
    pub seconds: f64,
    /// The OpenBLAS kernel and batch kernel the run used ([`crate::study::platform()`]);
    /// absent in records written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
    /// The run took the fast path (`--fast`: `FastNoise` normals, `Fidelity::Fast`
    /// `sin`/`cos`); absent, i.e. `false`, on the default exact path.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fast: bool,
    /// The studied parameter's value (parameter studies; absent otherwise and in
    /// version-1 records, whose label `lambda=40` says it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setting: Option<Setting>,
    /// The runs of a restart sequence (`restarts=ipop|bipop`): where each began, its
    /// λ, σ₀ and `T`, its generations, evaluations and best, and why it ended; absent
    /// for a single run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub restarts: Vec<RestartRecord>,
}

impl RunRow {
    /// The identity of the run within a study.
    #[must_use]
    pub fn key(&self) -> RunKey {
        RunKey {
            config: self.config.clone(),
            problem: self.problem,
            run: self.run,
        }
    }

    /// What the statistics use: the best-so-far at the checkpoint nearest to
    /// `fraction`, or the final best for `1.0`.
    #[must_use]
    pub fn snapshot(&self, fraction: f64) -> Snapshot {
        if fraction >= 1.0 {
            return self.best;
        }
        self.checkpoints
            .iter()
            .min_by(|a, b| {
                (a.fraction - fraction)
                    .abs()
                    .total_cmp(&(b.fraction - fraction).abs())
            })
            .map_or(self.best, |c| c.checkpoint.best)
    }
}

/// The shapes of earlier record formats, read into [`RunRow`].
mod legacy {
    use super::{real, Checkpoint, CheckpointRecord, RestartRecord, RunRow, Setting, Snapshot};
    use constraint_handling::violation::ConstraintCounts;
    use serde::Deserialize;

    const fn format_v1() -> u32 {
        1
    }

    fn cec2017() -> String {
        crate::suites::CEC2017.to_string()
    }

    /// A checkpoint of formats 1–3: `{fraction, evals, f, violation, c}`.
    #[derive(Deserialize)]
    pub(super) struct OldCheckpoint {
        fraction: f64,
        evals: usize,
        #[serde(with = "real")]
        f: f64,
        #[serde(with = "real")]
        violation: f64,
        c: [u32; 3],
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    pub(super) enum AnyCheckpoint {
        Current(CheckpointRecord),
        Old(OldCheckpoint),
    }

    /// A real that is present (`null` is NaN); a missing field is `None` by default.
    fn present_real<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
        real::deserialize(d).map(Some)
    }

    /// A record of any format.
    #[derive(Deserialize)]
    pub(super) struct AnyRow {
        #[serde(default = "format_v1")]
        format: u32,
        config: String,
        variant: String,
        problem: usize,
        dim: usize,
        run: usize,
        seed: u64,
        budget: usize,
        #[serde(default = "cec2017")]
        suite: String,
        instance: String,
        /// Format 4.
        #[serde(default)]
        best: Option<Snapshot>,
        /// Formats 1–3 (NaN was written as `null`).
        #[serde(default, deserialize_with = "present_real")]
        best_f: Option<f64>,
        #[serde(default, deserialize_with = "present_real")]
        best_violation: Option<f64>,
        #[serde(default)]
        best_evals: Option<usize>,
        evals: usize,
        generations: usize,
        termination: crate::optimizer::StopReason,
        checkpoints: Vec<AnyCheckpoint>,
        seconds: f64,
        #[serde(default)]
        platform: Option<String>,
        #[serde(default)]
        fast: bool,
        #[serde(default)]
        setting: Option<Setting>,
        #[serde(default)]
        restarts: Vec<RestartRecord>,
    }

    impl TryFrom<AnyRow> for RunRow {
        type Error = String;

        fn try_from(r: AnyRow) -> Result<Self, String> {
            let checkpoints: Vec<CheckpointRecord> = r
                .checkpoints
                .into_iter()
                .map(|c| match c {
                    AnyCheckpoint::Current(c) => c,
                    // Formats 1–3 did not record when a checkpoint's best was found.
                    AnyCheckpoint::Old(c) => CheckpointRecord {
                        fraction: c.fraction,
                        checkpoint: Checkpoint {
                            evaluations: c.evals,
                            best: Snapshot::new(c.f, c.violation).with_counts(c.c),
                        },
                    },
                })
                .collect();
            let best = match (r.best, r.best_f, r.best_violation, r.best_evals) {
                (Some(best), ..) => best,
                // The final checkpoint holds the final best-so-far: its counts are
                // the best's (formats 1–3 did not record them apart).
                (None, Some(f), Some(v), Some(found)) => {
                    Snapshot::new(f, v)
                        .with_counts(
                            checkpoints
                                .last()
                                .map_or(ConstraintCounts::default(), |c| {
                                    c.checkpoint.best.counts
                                }),
                        )
                        .found_at(found)
                }
                _ => return Err("a run record without its best-so-far (best, or best_f, best_violation and best_evals)".into()),
            };
            Ok(RunRow {
                format: r.format,
                config: r.config,
                variant: r.variant,
                problem: r.problem,
                dim: r.dim,
                run: r.run,
                seed: r.seed,
                budget: r.budget,
                suite: r.suite,
                instance: r.instance,
                best,
                evals: r.evals,
                generations: r.generations,
                termination: r.termination,
                checkpoints,
                seconds: r.seconds,
                platform: r.platform,
                fast: r.fast,
                setting: r.setting,
                restarts: r.restarts,
            })
        }
    }
}

/// The identity of a run: configuration, problem, run index (the dimension is fixed
/// per study).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RunKey {
    /// Configuration label.
    pub config: String,
    /// Problem.
    pub problem: usize,
    /// Run index.
    pub run: usize,
}

/// Mean best-so-far dynamics of one run, sampled on an evaluation grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DynamicsRow {
    /// Configuration label.
    pub config: String,
    /// Problem.
    pub problem: usize,
    /// Dimension.
    pub dim: usize,
    /// Run index.
    pub run: usize,
    /// The evaluation grid.
    pub evals: Vec<usize>,
    /// Best-so-far `f` at each grid point (NaN before the first generation).
    #[serde(with = "real::vec")]
    pub f: Vec<f64>,
    /// Best-so-far `ν̄`.
    #[serde(with = "real::vec")]
    pub violation: Vec<f64>,
    /// Mutation strength `σ`.
    #[serde(with = "real::vec")]
    pub sigma: Vec<f64>,
}

/// Whether `path` names a gzip-compressed results file (`….jsonl.gz`): read-only, e.g.
/// the committed shards of a finished study.
#[must_use]
pub fn is_compressed(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "gz")
}

/// Reads JSON lines (gzip-compressed if the name ends in `.gz`); a final line without
/// newline is an interrupted append and is reported separately so that the writer can
/// cut it off.
fn read_lines<T: for<'de> Deserialize<'de>>(
    path: &Path,
) -> Result<(Vec<T>, Option<u64>), StudyError> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), None)),
        Err(e) => return Err(StudyError::io(path, e)),
    };
    let mut reader: Box<dyn BufRead> = if is_compressed(path) {
        Box::new(BufReader::new(flate2::read::MultiGzDecoder::new(file)))
    } else {
        Box::new(BufReader::new(file))
    };
    let mut rows = Vec::new();
    let mut offset = 0u64;
    let mut line = String::new();
    let mut number = 0;
    loop {
        line.clear();
        let n = reader
            .read_line(&mut line)
            .map_err(|e| StudyError::io(path, e))?;
        if n == 0 {
            return Ok((rows, None));
        }
        number += 1;
        if !line.ends_with('\n') {
            // An append cut short: everything before it is intact.
            return Ok((rows, Some(offset)));
        }
        offset += n as u64;
        if line.trim().is_empty() {
            continue;
        }
        let row = serde_json::from_str(&line).map_err(|e| StudyError::Corrupt {
            path: path.to_path_buf(),
            line: number,
            detail: e.to_string(),
        })?;
        rows.push(row);
    }
}

/// Every runs file in the folder `dir` (`runs.jsonl`, shards `runs.shard-1-of-4.jsonl`,
/// each plain or compressed `.gz`), sorted; a plain file and its compressed copy hold
/// the same runs, so only one of the two is listed. A missing folder holds none.
///
/// # Errors
/// I/O errors reading the folder.
pub fn runs_files(dir: &Path) -> Result<Vec<PathBuf>, StudyError> {
    let listing = match std::fs::read_dir(dir) {
        Ok(listing) => listing,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(StudyError::io(dir, e)),
    };
    let mut files: Vec<PathBuf> = listing
        .filter_map(Result::ok)
        .map(|d| d.path())
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                n.starts_with("runs") && (n.ends_with(".jsonl") || n.ends_with(".jsonl.gz"))
            })
        })
        .collect();
    files.sort();
    files.dedup_by(|b, a| {
        b.as_os_str().to_string_lossy().trim_end_matches(".gz")
            == a.as_os_str().to_string_lossy().trim_end_matches(".gz")
    });
    Ok(files)
}

/// Loads the run records of a results file.
///
/// # Errors
/// [`StudyError::Corrupt`] naming the file and line of a line that is not a run record;
/// I/O errors. A missing file holds no records; a last line cut short by an
/// interrupted append is ignored.
pub fn load_runs(path: &Path) -> Result<Vec<RunRow>, StudyError> {
    Ok(read_lines(path)?.0)
}

/// Loads per-run dynamics (the last line per run wins).
///
/// # Errors
/// As [`load_runs`].
pub fn load_dynamics(path: &Path) -> Result<Vec<DynamicsRow>, StudyError> {
    let rows: Vec<DynamicsRow> = read_lines(path)?.0;
    let mut latest: HashMap<(String, usize, usize), DynamicsRow> = HashMap::new();
    for r in rows {
        latest.insert((r.config.clone(), r.problem, r.run), r);
    }
    let mut out: Vec<DynamicsRow> = latest.into_values().collect();
    out.sort_by(|a, b| (&a.config, a.problem, a.run).cmp(&(&b.config, b.problem, b.run)));
    Ok(out)
}

/// An append-only JSON-lines file: each record is written with one `write_all` of a
/// complete line and flushed to the disk before the next.
#[derive(Debug)]
pub struct Appender {
    path: PathBuf,
    file: File,
}

impl Appender {
    /// Opens (creating) `path` for appending, holding an exclusive advisory lock on it
    /// (`flock`) until the appender is dropped; a last line cut short by an interrupted
    /// append is removed first.
    ///
    /// # Errors
    /// [`StudyError::Locked`] at once if another process holds the file (nothing is
    /// read or written); I/O errors (e.g. an unwritable directory), naming the file;
    /// [`StudyError::Corrupt`] for a line that is not valid JSON.
    pub fn open(path: &Path) -> Result<Self, StudyError> {
        Ok(Self::open_with::<serde_json::Value>(path)?.1)
    }

    /// Reads the records already in `path` (which must all parse as `T`), then opens it
    /// for appending as [`Appender::open`] does: one pass over the file.
    ///
    /// # Errors
    /// As [`Appender::open`], with [`StudyError::Corrupt`] for a line that is not a `T`.
    pub fn open_with<T: for<'de> Deserialize<'de>>(
        path: &Path,
    ) -> Result<(Vec<T>, Self), StudyError> {
        if is_compressed(path) {
            return Err(StudyError::Invalid(format!(
                "{} is compressed and read-only; decompress it (gunzip) to add runs to it",
                path.display()
            )));
        }
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)
            .map_err(|e| StudyError::io(path, e))?;
        // One writer per file: the lock is held as long as the appender lives, and is
        // taken before the file is read, so that a torn last line is never another
        // writer's append in progress.
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(StudyError::Locked(path.to_path_buf()));
            }
            Err(TryLockError::Error(e)) => return Err(StudyError::io(path, e)),
        }
        let (rows, torn) = read_lines::<T>(path)?;
        if let Some(len) = torn {
            file.set_len(len).map_err(|e| StudyError::io(path, e))?;
            file.seek(SeekFrom::End(0))
                .map_err(|e| StudyError::io(path, e))?;
        }
        let appender = Self {
            path: path.to_path_buf(),
            file,
        };
        Ok((rows, appender))
    }

    /// Appends one record as a line and syncs it to the disk.
    ///
    /// # Errors
    /// Serialisation or I/O errors.
    pub fn append<T: Serialize>(&mut self, row: &T) -> Result<(), StudyError> {
        write_record(&mut self.file, row)
            .and_then(|()| self.file.sync_data())
            .map_err(|e| StudyError::io(&self.path, e))
    }
}

/// Writes `row` as one JSON line with a single `write_all`, then flushes. A failure
/// (a full disk) may leave a part of this line, never touches the earlier ones; the
/// next [`Appender::open`] removes such a torn last line.
fn write_record<T: Serialize>(out: &mut impl Write, row: &T) -> std::io::Result<()> {
    let mut line = serde_json::to_string(row).map_err(std::io::Error::other)?;
    line.push('\n');
    out.write_all(line.as_bytes())?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every runs file of a folder, shards and archives included, once each; other
    /// files and a missing folder give none.
    #[test]
    fn runs_files_lists_each_file_once() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            "runs.jsonl",
            "runs.jsonl.gz",
            "runs.shard-2-of-2.jsonl.gz",
            "runs.shard-1-of-2.jsonl",
            "dynamics.jsonl",
            "notes.md",
        ] {
            std::fs::write(dir.path().join(name), "").unwrap();
        }
        let names: Vec<String> = runs_files(dir.path())
            .unwrap()
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            [
                "runs.jsonl",
                "runs.shard-1-of-2.jsonl",
                "runs.shard-2-of-2.jsonl.gz"
            ]
        );
        assert!(runs_files(&dir.path().join("none")).unwrap().is_empty());
    }

    /// A disk that fills up after `room` bytes.
    struct FullDisk {
        written: Vec<u8>,
        room: usize,
    }

    impl Write for FullDisk {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let n = buf.len().min(self.room - self.written.len());
            if n == 0 {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::StorageFull,
                    "No space left on device",
                ));
            }
            self.written.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn compressed_files_read_like_plain_ones_and_are_read_only() {
        use std::io::Write as _;
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("runs.jsonl");
        let mut a = Appender::open(&plain).unwrap();
        for run in 0..3 {
            a.append(&serde_json::json!({"run": run, "f": 0.5 * f64::from(run)}))
                .unwrap();
        }
        drop(a);
        let bytes = std::fs::read(&plain).unwrap();
        let gz = dir.path().join("runs.jsonl.gz");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        enc.write_all(&bytes).unwrap();
        std::fs::write(&gz, enc.finish().unwrap()).unwrap();
        let (from_plain, _) = read_lines::<serde_json::Value>(&plain).unwrap();
        let (from_gz, torn) = read_lines::<serde_json::Value>(&gz).unwrap();
        assert_eq!(from_plain.len(), 3);
        assert_eq!(from_gz, from_plain);
        assert_eq!(torn, None);
        let err = Appender::open(&gz).unwrap_err().to_string();
        assert!(err.contains("compressed and read-only"), "{err}");
        // A damaged compressed file is an error naming it, not an empty study.
        std::fs::write(&gz, b"\x1f\x8b garbage").unwrap();
        let err = read_lines::<serde_json::Value>(&gz)
            .unwrap_err()
            .to_string();
        assert!(err.contains("runs.jsonl.gz"), "{err}");
    }

    #[test]
    fn a_full_disk_is_an_error_and_keeps_the_earlier_records() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.jsonl");
        let record = serde_json::json!({"run": 1, "f": 0.5});
        let line_len = serde_json::to_string(&record).unwrap().len() + 1;
        // Two records fit, the third is cut short.
        let mut disk = FullDisk {
            written: Vec::new(),
            room: 2 * line_len + 5,
        };
        write_record(&mut disk, &record).unwrap();
        write_record(&mut disk, &record).unwrap();
        let err = write_record(&mut disk, &record).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::StorageFull);
        let wrapped = StudyError::io(&path, err).to_string();
        assert!(
            wrapped.contains("runs.jsonl") && wrapped.contains("No space left"),
            "{wrapped}"
        );
        // What reached the disk: two whole records and a torn third, which the next
        // writer removes; the two records are intact.
        std::fs::write(&path, &disk.written).unwrap();
        let (rows, appender) = Appender::open_with::<serde_json::Value>(&path).unwrap();
        assert_eq!(rows, vec![record.clone(), record.clone()]);
        drop(appender);
        assert_eq!(
            std::fs::metadata(&path).unwrap().len() as usize,
            2 * line_len
        );
    }

    #[test]
    fn a_second_writer_is_refused_and_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.jsonl");
        let mut first = Appender::open(&path).unwrap();
        first.append(&serde_json::json!({"run": 0})).unwrap();
        // A half-written line of the first writer must stay as it is.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"run\": 1")
            .unwrap();
        let before = std::fs::read(&path).unwrap();
        let err = Appender::open(&path).unwrap_err();
        assert!(matches!(err, StudyError::Locked(_)), "{err}");
        assert!(err.to_string().contains("runs.jsonl"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), before);
        // Readers need no lock.
        let (rows, torn) = read_lines::<serde_json::Value>(&path).unwrap();
        assert_eq!((rows.len(), torn.is_some()), (1, true));
        drop(first);
        assert!(Appender::open(&path).is_ok());
    }
}
