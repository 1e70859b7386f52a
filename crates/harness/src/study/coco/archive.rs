//! The COCO files of a study's configurations, and a problem that logs through them.

use super::log::{c_exp, CocoRunBlock, CocoRunLog, COCO_VERSION};
use crate::error::StudyError;
use crate::study::spec::{Job, StudySpec};
use crate::study::store::RunRow;
use crate::suites::CocoProblem;
use constraint_handling::{ConstrainedProblem, ConstraintJacobian, ProblemError, ProblemWrapper};
use ndarray::{ArrayView1, ArrayView2, ArrayViewMut1, ArrayViewMut2, Axis};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs::OpenOptions;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The COCO files of one algorithm: where runs are appended, one block at a time
/// (safe across the study's threads; a run already written is not written twice).
#[derive(Debug)]
pub struct CocoArchive {
    folder: PathBuf,
    suite: String,
    algorithm: String,
    info: String,
    lock: Mutex<()>,
}

impl CocoArchive {
    /// The archive in `folder` for `algorithm` (COCO's `algId`) with a one-line
    /// description `info`, for results of `suite` (e.g. `bbob-constrained`).
    #[must_use]
    pub fn new(folder: &Path, suite: &str, algorithm: &str, info: &str) -> Self {
        Self {
            folder: folder.to_path_buf(),
            suite: suite.to_string(),
            algorithm: algorithm.to_string(),
            info: info.replace('\n', " "),
            lock: Mutex::new(()),
        }
    }

    /// Its folder.
    #[must_use]
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// Appends a finished run (`key` identifies it within the study: a run already
    /// appended under the same key is skipped, so that a resumed study does not write
    /// it twice).
    ///
    /// Exactly once, across threads and processes (the shards of a study may share the
    /// folder): an exclusive lock on `.emages-lock` is held while appending, and a
    /// journal (`.emages-pending`: the files' lengths and the index before the append)
    /// lets the next append undo one that was cut short.
    ///
    /// # Errors
    /// I/O errors naming the file; [`StudyError::Corrupt`] for a damaged journal.
    pub fn append(&self, key: &str, block: &CocoRunBlock) -> Result<(), StudyError> {
        let _guard = self
            .lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        std::fs::create_dir_all(&self.folder).map_err(io(&self.folder))?;
        let lock_path = self.folder.join(".emages-lock");
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(io(&lock_path))?;
        lock.lock().map_err(io(&lock_path))?;
        self.recover()?;
        if self.keys().contains(key) {
            return Ok(());
        }
        let (f, d) = (block.function, block.dim);
        let data_dir = self.folder.join(format!("data_f{f}"));
        std::fs::create_dir_all(&data_dir).map_err(io(&data_dir))?;
        let stem = format!("bbobexp_f{f}_DIM{d}");
        let info_path = self.folder.join(format!("bbobexp_f{f}.info"));
        let old_info = std::fs::read_to_string(&info_path).ok();
        let data: Vec<(PathBuf, &String)> = [
            ("dat", &block.dat),
            ("tdat", &block.tdat),
            ("rdat", &block.empty),
            ("mdat", &block.empty),
        ]
        .into_iter()
        .map(|(ext, text)| (data_dir.join(format!("{stem}.{ext}")), text))
        .collect();
        // The journal first: what to restore if this append is cut short.
        let journal = Journal {
            files: data
                .iter()
                .map(|(p, _)| (p.clone(), std::fs::metadata(p).map_or(0, |m| m.len())))
                .collect(),
            info: (info_path.clone(), old_info.clone()),
        };
        write_atomically(&self.folder.join(PENDING), &journal.to_text())?;
        for (path, text) in &data {
            let mut file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(io(path))?;
            file.write_all(text.as_bytes()).map_err(io(path))?;
        }
        // The index: the line of (F, D) gets the run, or a new block starts.
        let mut text = old_info.unwrap_or_default();
        let data_line = format!("data_f{f}/{stem}.dat");
        let mut found = false;
        let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
        for line in &mut lines {
            if line.starts_with(&data_line) {
                line.push_str(&format!(", {}", block.info));
                found = true;
            }
        }
        if found {
            text = lines.join("\n");
        } else {
            if !text.is_empty() {
                text.push('\n');
            }
            let _ = write!(
                text,
                "suite = '{}', funcId = {f}, DIM = {d}, Precision = {}, algId = '{}', coco_version = '{COCO_VERSION}', logger = 'bbob', data_format = 'bbob-new2', settings = ''\n% {}\n{data_line}, {}",
                self.suite,
                c_exp(1e-8, 3, false),
                self.algorithm,
                self.info,
                block.info
            );
        }
        write_atomically(&info_path, &text)?;
        let done_path = self.folder.join(DONE);
        let mut done_file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&done_path)
            .map_err(io(&done_path))?;
        writeln!(done_file, "{key}").map_err(io(&done_path))?;
        done_file.sync_data().map_err(io(&done_path))?;
        let pending = self.folder.join(PENDING);
        std::fs::remove_file(&pending).map_err(io(&pending))?;
        Ok(())
    }

    /// Undoes an append that was cut short (its journal is still there).
    fn recover(&self) -> Result<(), StudyError> {
        let pending = self.folder.join(PENDING);
        let Ok(text) = std::fs::read_to_string(&pending) else {
            return Ok(());
        };
        let journal = Journal::parse(&text).ok_or_else(|| StudyError::Corrupt {
            path: pending.clone(),
            line: 1,
            detail: "the journal of an interrupted append is damaged; delete this COCO folder and run the study into a new --out".into(),
        })?;
        for (path, len) in &journal.files {
            if let Ok(file) = OpenOptions::new().write(true).open(path) {
                file.set_len(*len).map_err(io(path))?;
            }
        }
        let (info_path, info) = &journal.info;
        match info {
            Some(text) => write_atomically(info_path, text)?,
            None => {
                if info_path.exists() {
                    std::fs::remove_file(info_path).map_err(io(info_path))?;
                }
            }
        }
        std::fs::remove_file(&pending).map_err(io(&pending))
    }
}

/// The keys of the appended runs, one per line.
const DONE: &str = ".emages-runs";
/// The journal of an append under way.
const PENDING: &str = ".emages-pending";

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StudyError {
    let path = path.to_path_buf();
    move |e| StudyError::io(&path, e)
}

/// Writes `text` to `path` through a temporary file and a rename.
fn write_atomically(path: &Path, text: &str) -> Result<(), StudyError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let mut file = std::fs::File::create(&tmp).map_err(io(&tmp))?;
    file.write_all(text.as_bytes()).map_err(io(&tmp))?;
    file.sync_data().map_err(io(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io(path))
}

/// What an append changes: the data files' lengths before it and the index's text
/// (`None`: there was none).
struct Journal {
    files: Vec<(PathBuf, u64)>,
    info: (PathBuf, Option<String>),
}

impl Journal {
    /// `len<TAB>path` per data file, then `info<TAB>path`, then the old index (if any)
    /// after a line `---`.
    fn to_text(&self) -> String {
        let mut s = String::new();
        for (path, len) in &self.files {
            let _ = writeln!(s, "{len}\t{}", path.display());
        }
        let _ = writeln!(s, "info\t{}", self.info.0.display());
        if let Some(old) = &self.info.1 {
            s.push_str("---\n");
            s.push_str(old);
        }
        s
    }

    fn parse(text: &str) -> Option<Self> {
        let (head, old) = match text.split_once("---\n") {
            Some((h, o)) => (h, Some(o.to_string())),
            None => (text, None),
        };
        let mut files = Vec::new();
        let mut info = None;
        for line in head.lines() {
            let (a, b) = line.split_once('\t')?;
            if a == "info" {
                info = Some(PathBuf::from(b));
            } else {
                files.push((PathBuf::from(b), a.parse().ok()?));
            }
        }
        Some(Self {
            files,
            info: (info?, old),
        })
    }
}

impl CocoArchive {
    /// The keys of the runs appended so far.
    #[must_use]
    pub fn keys(&self) -> BTreeSet<String> {
        std::fs::read_to_string(self.folder.join(DONE))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }
}

/// The folder of a configuration's COCO files under the study's COCO folder: its label
/// with every character other than ASCII letters, digits, `.`, `_` and `-` replaced by
/// `_` (cocopp names the algorithm after it).
#[must_use]
pub fn archive_folder(root: &Path, label: &str) -> PathBuf {
    root.join(
        label
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                    c
                } else {
                    '_'
                }
            })
            .collect::<String>(),
    )
}

/// A study's COCO output ([`StudySpec::coco`]): the problems as COCO names them and an
/// archive per configuration.
#[derive(Debug)]
pub(crate) struct CocoOutput {
    problems: BTreeMap<usize, CocoProblem>,
    archives: Vec<CocoArchive>,
}

impl CocoOutput {
    /// The output of `spec` under `root`; the runs already recorded (`existing`) must
    /// be in it.
    pub(crate) fn open(
        spec: &StudySpec,
        root: &Path,
        existing: &[RunRow],
    ) -> Result<Self, StudyError> {
        let mut problems = BTreeMap::new();
        for &p in &spec.problems {
            let Some(coco) = spec.suite.coco_problem(p, spec.dim)? else {
                return Err(StudyError::Invalid(format!(
                    "--coco: the {} suite does not name its problems as COCO does (bbob-constrained does)",
                    spec.suite.name()
                )));
            };
            problems.insert(p, coco);
        }
        let mut folders = BTreeSet::new();
        let mut archives = Vec::new();
        for c in &spec.configs {
            let folder = archive_folder(root, &c.label);
            if !folders.insert(folder.clone()) {
                return Err(StudyError::Invalid(format!(
                    "--coco: two configurations would share the folder {}; give them labels that differ in letters or digits",
                    folder.display()
                )));
            }
            let info = format!(
                "{}: emages {}, budget {} x n evaluations (each of f and g; a repair's Jacobian of g only), base seed {}",
                c.display_name(),
                env!("CARGO_PKG_VERSION"),
                spec.budget_per_dim,
                spec.seed
            );
            archives.push(CocoArchive::new(
                &folder,
                spec.suite.name(),
                &c.label,
                &info,
            ));
        }
        let out = Self { problems, archives };
        let mut missing = 0;
        for (k, c) in spec.configs.iter().enumerate() {
            let keys = out.archives[k].keys();
            missing += existing
                .iter()
                .filter(|r| {
                    r.config == c.label && !keys.contains(&run_key(r.problem, r.dim, r.run, r.seed))
                })
                .count();
        }
        if missing > 0 {
            return Err(StudyError::Incompatible(format!(
                "--coco {}: {missing} runs already recorded in the results are not in the COCO files (recorded without --coco?); run the study into a new --out to have COCO files of every run",
                root.display()
            )));
        }
        Ok(out)
    }

    /// The log of `job`'s run.
    pub(crate) fn log(&self, spec: &StudySpec, job: &Job) -> CocoRunLog {
        let p = &self.problems[&job.problem];
        CocoRunLog::new(p.function, p.instance, spec.dim, p.optimal_value)
    }

    /// Appends `job`'s finished run to its configuration's archive.
    pub(crate) fn append(
        &self,
        spec: &StudySpec,
        job: &Job,
        block: &CocoRunBlock,
    ) -> Result<(), StudyError> {
        self.archives[job.config].append(&run_key(job.problem, spec.dim, job.run, job.seed), block)
    }
}

/// The key of a run in an archive (studies in several dimensions may share one).
fn run_key(problem: usize, dim: usize, run: usize, seed: u64) -> String {
    format!("{problem}:D{dim}:{run}:{seed}")
}

/// A problem whose evaluations a [`CocoRunLog`] follows: every evaluation of
/// [`ConstrainedProblem::evaluate`] and of the batch is recorded (one `g` and one `f`
/// evaluation each, in column order); those of
/// [`ConstrainedProblem::evaluate_constraints_batch`] count as `g` evaluations only.
#[derive(Debug)]
pub struct CocoLogged<'p, P: ?Sized> {
    inner: &'p P,
    log: Mutex<(CocoRunLog, [Vec<f64>; 2])>,
}

impl<'p, P: ConstrainedProblem + ?Sized> CocoLogged<'p, P> {
    /// `inner` followed by `log`.
    pub fn new(inner: &'p P, log: CocoRunLog) -> Self {
        let scratch = [
            Vec::with_capacity(inner.dim()),
            Vec::with_capacity(inner.num_constraints()),
        ];
        Self {
            inner,
            log: Mutex::new((log, scratch)),
        }
    }

    /// The run's block of the files ([`CocoRunLog::finish`]).
    #[must_use]
    pub fn finish(self) -> CocoRunBlock {
        self.log
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .0
            .finish()
    }

    fn with_log<R>(&self, f: impl FnOnce(&mut CocoRunLog, &mut [Vec<f64>; 2]) -> R) -> R {
        let mut guard = self
            .log
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let (log, scratch) = &mut *guard;
        f(log, scratch)
    }
}

/// The inner problem's, every evaluation logged. The inner problem's Jacobian and
/// `as_expensive` are hidden: evaluations through them would not be logged.
impl<P: ConstrainedProblem + ?Sized> ProblemWrapper for CocoLogged<'_, P> {
    type Inner = P;
    fn inner(&self) -> &P {
        self.inner
    }
    fn wrap_as_expensive(&self) -> Option<&(dyn ConstrainedProblem + Sync)> {
        None
    }
    fn wrap_constraint_jacobian(&self) -> Option<&dyn ConstraintJacobian> {
        None
    }

    fn wrap_evaluate(&self, x: &[f64], constraints: &mut [f64]) -> Result<f64, ProblemError> {
        let f = self.inner.evaluate(x, constraints)?;
        self.with_log(|log, _| log.record(x, f, constraints));
        Ok(f)
    }

    fn wrap_evaluate_batch(
        &self,
        points: ArrayView2<'_, f64>,
        mut objectives: ArrayViewMut1<'_, f64>,
        mut constraints: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        self.inner
            .evaluate_batch(points, objectives.view_mut(), constraints.view_mut())?;
        self.with_log(|log, scratch| {
            for (k, x) in points.axis_iter(Axis(1)).enumerate() {
                let [xs, gs] = &mut *scratch;
                let x = contiguous(x, xs);
                let g = contiguous(constraints.column(k), gs);
                log.record(x, objectives[k], g);
            }
        });
        Ok(())
    }

    fn wrap_evaluate_constraints_batch(
        &self,
        points: ArrayView2<'_, f64>,
        objectives: ArrayViewMut1<'_, f64>,
        constraints: ArrayViewMut2<'_, f64>,
    ) -> Result<(), ProblemError> {
        let n = points.ncols();
        self.inner
            .evaluate_constraints_batch(points, objectives, constraints)?;
        self.with_log(|log, _| log.count_constraint_evaluations(n));
        Ok(())
    }
}

/// The values of `v` as a slice: `v`'s own memory when it is contiguous, else a copy in
/// `buffer` (reused, so the generation loop does not allocate).
fn contiguous<'v: 'b, 'b>(v: ArrayView1<'v, f64>, buffer: &'b mut Vec<f64>) -> &'b [f64] {
    match v.to_slice() {
        Some(s) => s,
        None => {
            buffer.clear();
            buffer.extend(v.iter());
            buffer
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::log::single_digit;
    use super::*;

    #[test]
    fn numbers_are_printed_as_c_does() {
        assert_eq!(c_exp(2354.674903, 9, true), "+2.354674903e+03");
        assert_eq!(c_exp(-734.180658929, 12, false), "-7.341806589290e+02");
        assert_eq!(c_exp(1e-8, 3, false), "1.000e-08");
        assert_eq!(c_exp(52.0, 1, false), "5.2e+01");
        assert_eq!(c_exp(9.5243e-3, 4, true), "+9.5243e-03");
        assert_eq!(c_exp(0.0, 4, true), "+0.0000e+00");
        assert_eq!(c_exp(1e100, 1, false), "1.0e+100");
    }

    fn block(instance: usize, points: &[[f64; 2]]) -> CocoRunBlock {
        let mut log = CocoRunLog::new(1, instance, 2, 0.5);
        for x in points {
            log.record(x, x[0] * x[0] + x[1] * x[1], &[x[0] - 1.0]);
        }
        log.count_constraint_evaluations(2);
        log.finish()
    }

    /// Every evaluation goes through the log: a logged problem offers no Jacobian and
    /// no `as_expensive` of its inner problem (the drivers would evaluate past the
    /// log), and it is the inner problem in its shape and values.
    #[test]
    fn a_logged_problem_hides_what_would_bypass_the_log() {
        struct Circle;
        impl ConstrainedProblem for Circle {
            fn dim(&self) -> usize {
                2
            }
            fn num_inequalities(&self) -> usize {
                1
            }
            fn num_equalities(&self) -> usize {
                0
            }
            fn lower_bounds(&self) -> &[f64] {
                &[-5.0; 2]
            }
            fn upper_bounds(&self) -> &[f64] {
                &[5.0; 2]
            }
            fn evaluate(&self, x: &[f64], c: &mut [f64]) -> Result<f64, ProblemError> {
                c[0] = x[0] * x[0] + x[1] * x[1] - 1.0;
                Ok(x[0] + x[1])
            }
            fn as_expensive(&self) -> Option<&(dyn ConstrainedProblem + Sync)> {
                Some(self)
            }
            fn constraint_jacobian(&self) -> Option<&dyn ConstraintJacobian> {
                Some(self)
            }
        }
        impl ConstraintJacobian for Circle {
            fn evaluate_jacobian(
                &self,
                x: &[f64],
                _values: Option<&mut [f64]>,
                mut jacobian: ArrayViewMut2<'_, f64>,
            ) -> Result<(), ProblemError> {
                jacobian[[0, 0]] = 2.0 * x[0];
                jacobian[[0, 1]] = 2.0 * x[1];
                Ok(())
            }
        }
        assert!(Circle.as_expensive().is_some() && Circle.constraint_jacobian().is_some());
        let logged = CocoLogged::new(&Circle, CocoRunLog::new(1, 1, 2, -2.0));
        assert!(logged.as_expensive().is_none());
        assert!(logged.constraint_jacobian().is_none());
        assert_eq!((logged.dim(), logged.num_constraints()), (2, 1));
        assert_eq!(logged.upper_bounds(), &[5.0; 2]);
        let mut c = [0.0];
        assert_eq!(logged.evaluate(&[2.0, 1.0], &mut c).unwrap(), 3.0);
        assert_eq!(c[0], 4.0);
    }

    /// An append cut short (its journal left behind, the files half written) is undone
    /// by the next append; a key appended before is skipped.
    #[test]
    fn an_interrupted_append_is_undone() {
        let dir = tempfile::tempdir().unwrap();
        let archive = CocoArchive::new(dir.path(), "bbob-constrained", "alg", "info");
        let (a, b) = (block(1, &[[2.0, 1.0], [0.5, 0.1]]), block(2, &[[3.0, 0.0]]));
        archive.append("a", &a).unwrap();
        let dat = dir.path().join("data_f1/bbobexp_f1_DIM2.dat");
        let info = dir.path().join("bbobexp_f1.info");
        let (dat_a, info_a) = (
            std::fs::read_to_string(&dat).unwrap(),
            std::fs::read_to_string(&info).unwrap(),
        );
        // The state an interrupted append of "b" leaves: its journal, junk written.
        let files = ["dat", "tdat", "rdat", "mdat"]
            .iter()
            .map(|e| {
                let p = dir.path().join(format!("data_f1/bbobexp_f1_DIM2.{e}"));
                let len = std::fs::metadata(&p).unwrap().len();
                (p, len)
            })
            .collect();
        let journal = Journal {
            files,
            info: (info.clone(), Some(info_a.clone())),
        };
        std::fs::write(dir.path().join(PENDING), journal.to_text()).unwrap();
        std::fs::write(&dat, format!("{dat_a}1 1 +2.0e+00 half a li")).unwrap();
        std::fs::write(&info, "junk").unwrap();
        archive.append("a", &a).unwrap();
        assert_eq!(std::fs::read_to_string(&dat).unwrap(), dat_a);
        assert_eq!(std::fs::read_to_string(&info).unwrap(), info_a);
        archive.append("b", &b).unwrap();
        assert_eq!(
            std::fs::read_to_string(&dat).unwrap(),
            format!("{dat_a}{}", b.dat)
        );
        let info_ab = std::fs::read_to_string(&info).unwrap();
        assert!(
            info_ab.ends_with(&format!("{}, {}", a.info, b.info)),
            "{info_ab}"
        );
        assert!(!dir.path().join(PENDING).exists());
        assert_eq!(archive.keys().into_iter().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(
            archive_folder(dir.path(), "eps-mag-es:λ=8"),
            dir.path().join("eps-mag-es___8")
        );
    }

    #[test]
    fn single_digits() {
        assert_eq!(single_digit(-1.0), 0);
        assert_eq!(single_digit(0.0), 0);
        assert_eq!(single_digit(5e-8), 1);
        assert_eq!(single_digit(0.5), 8);
        assert_eq!(single_digit(2.0), 9);
    }
}
