//! End-to-end tests of `cargo run --release --example ablation`: records, tables,
//! resume, shards, thread counts, and bad input as a new user would try it.
//!
//! `cargo test` builds the examples; the binary is found next to this test's binary.

mod support;
use support::*;

use std::path::Path;
use std::process::{Command, Output};

fn ablation(args: &[&str]) -> Output {
    Command::new(example("ablation"))
        .args(args)
        .arg("--no-progress")
        .env_remove("CEC2017_DATA_DIR")
        .output()
        .unwrap()
}

fn ok(out: &Output) {
    assert!(
        out.status.success(),
        "failed: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
}

const TABLES: [&str; 8] = [
    "table1.csv",
    "table1_cec.csv",
    "table2.csv",
    "table4_equality.csv",
    "table5_rotated.csv",
    "table_detail.csv",
    "stats_eps-mag-es.csv",
    "stats_lex-ma-es.csv",
];

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name))
        .unwrap_or_else(|e| panic!("{}/{name}: {e}", dir.display()))
}

/// Asserts that every one of `files` in `dir` carries `mark`.
fn assert_marked(dir: &Path, files: &[&str], mark: &str) {
    for f in files {
        assert!(read(dir, f).contains(mark), "{f} does not carry {mark:?}");
    }
}

/// `--report files --out out` succeeds and writes the [`TABLES`] `before` holds.
fn assert_report_gives(files: &[&Path], out: &Path, before: &[String], what: &str) {
    let mut args = vec!["--report"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    args.extend(["--out", out.to_str().unwrap()]);
    ok(&ablation(&args));
    for (t, b) in TABLES.iter().zip(before) {
        assert_eq!(&read(out, t), b, "{t} differs between one run and {what}");
    }
}

fn study_args<'a>(out: &'a str, data: &'a str) -> Vec<&'a str> {
    vec![
        "--dim",
        "10",
        "--runs",
        "5",
        "--problems",
        "1,3,7",
        "--budget-per-dim",
        "3000",
        "--out",
        out,
        "--data",
        data,
        "--plot-problems",
        "3",
    ]
}

#[test]
fn study_resume_and_shards() {
    let data = data_dir();
    let tmp = tempfile::tempdir().unwrap();
    let one = tmp.path().join("one");
    let one_s = one.to_str().unwrap();

    ok(&ablation(&study_args(one_s, &data)));
    let records = read(&one, "runs.jsonl");
    assert_eq!(
        records.lines().count(),
        105,
        "7 variants × 3 problems × 5 runs"
    );
    let table1 = read(&one, "table1.csv");
    let rows: Vec<&str> = table1.lines().collect();
    assert_eq!(rows[0], "variant,median_plus,median_eq,median_minus,mean_plus,mean_eq,mean_minus,total_plus,total_eq,total_minus");
    assert_eq!(rows.len(), 7, "one row per non-baseline variant");
    for row in &rows[1..] {
        let n: Vec<usize> = row.split(',').skip(1).map(|x| x.parse().unwrap()).collect();
        for group in n.chunks(3) {
            assert_eq!(group.iter().sum::<usize>(), 3, "{row}");
        }
    }
    for f in [
        "report.html",
        "plots/C03_D10_fitness.svg",
        "plots/C03_D10_fitness.png",
        "plots/C03_D10_sigma.png",
    ] {
        assert!(one.join(f).is_file(), "{f} missing");
    }
    let before: Vec<String> = TABLES.iter().map(|t| read(&one, t)).collect();

    // Running the same command again adds nothing and reproduces the tables.
    ok(&ablation(&study_args(one_s, &data)));
    assert_eq!(read(&one, "runs.jsonl").lines().count(), 105);
    for (t, b) in TABLES.iter().zip(&before) {
        assert_eq!(&read(&one, t), b, "{t} changed on resume");
    }

    // Two shards with one thread each, merged, give the same tables; --status follows.
    let two = tmp.path().join("two");
    let two_s = two.to_str().unwrap();
    for shard in ["1/2", "2/2"] {
        let mut args = study_args(two_s, &data);
        args.extend(["--shard", shard, "--threads", "1"]);
        ok(&ablation(&args));
        let mut status_args = study_args(two_s, &data);
        status_args.push("--status");
        let status = ablation(&status_args);
        ok(&status);
        let text = String::from_utf8_lossy(&status.stdout).to_string();
        if shard == "1/2" {
            assert!(
                text.contains("53 / 53") && text.contains("0 / 52"),
                "{text}"
            );
            assert!(
                text.contains("total: 53 of 105 runs done") && text.contains("ETA"),
                "{text}"
            );
        } else {
            assert!(text.contains("the study is complete"), "{text}");
        }
    }
    let s1 = two.join("runs.shard-1-of-2.jsonl");
    let s2 = two.join("runs.shard-2-of-2.jsonl");
    assert_eq!(
        read(&two, "runs.shard-1-of-2.jsonl").lines().count()
            + read(&two, "runs.shard-2-of-2.jsonl").lines().count(),
        105
    );
    assert_report_gives(&[&s1, &s2], &two, &before, "merged shards");
    // Finished shards committed compressed (.jsonl.gz) still merge to the same tables,
    // --status reads them, and resuming on top of them stops with one clear line.
    let gz = tmp.path().join("gz");
    std::fs::create_dir_all(&gz).unwrap();
    for f in [
        "runs.shard-1-of-2.jsonl",
        "runs.shard-2-of-2.jsonl",
        "dynamics.shard-1-of-2.jsonl",
        "dynamics.shard-2-of-2.jsonl",
    ] {
        use std::io::Write as _;
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(read(&two, f).as_bytes()).unwrap();
        std::fs::write(gz.join(format!("{f}.gz")), enc.finish().unwrap()).unwrap();
    }
    let gz_s = gz.to_str().unwrap();
    let (g1, g2) = (
        gz.join("runs.shard-1-of-2.jsonl.gz"),
        gz.join("runs.shard-2-of-2.jsonl.gz"),
    );
    assert_report_gives(&[&g1, &g2], &gz, &before, "shards read from .jsonl.gz");
    let mut status_args = study_args(gz_s, &data);
    status_args.push("--status");
    let status = ablation(&status_args);
    ok(&status);
    assert!(
        String::from_utf8_lossy(&status.stdout).contains("the study is complete"),
        "{}",
        String::from_utf8_lossy(&status.stdout)
    );
    let mut resume = study_args(gz_s, &data);
    resume.extend(["--shard", "1/2"]);
    one_line_error(&ablation(&resume), "compressed (read-only)");
    assert!(!gz.join("runs.shard-1-of-2.jsonl").exists());

    // A single shard is not a complete study: a clear error, or — when asked for —
    // tables marked incomplete.
    let out = ablation(&["--report", s1.to_str().unwrap(), "--out", two_s]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("incomplete"));
    let part = tmp.path().join("part");
    let out = ablation(&[
        "--report",
        s1.to_str().unwrap(),
        "--out",
        part.to_str().unwrap(),
        "--allow-incomplete",
    ]);
    ok(&out);
    assert_marked(
        &part,
        &[
            "table1.md",
            "table2.md",
            "stats_eps-mag-es.md",
            "report.html",
        ],
        "INCOMPLETE RESULTS",
    );
}

/// One writer per results file: a second process on the same file fails at once with
/// one line and writes nothing; two identical studies started together record every
/// run exactly once.
#[test]
fn a_second_writer_is_refused() {
    let data = data_dir();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("locked");
    let dir_s = dir.to_str().unwrap();
    std::fs::create_dir_all(&dir).unwrap();
    let runs = dir.join("runs.jsonl");
    let holder = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&runs)
        .unwrap();
    holder.lock().unwrap();
    std::io::Write::write_all(&mut &holder, b"{\"half\": ").unwrap();
    let out = ablation(&study_args(dir_s, &data));
    one_line_error(&out, "being written by another process");
    assert_eq!(
        std::fs::read(&runs).unwrap(),
        b"{\"half\": ",
        "the file was touched"
    );
    drop(holder);
    std::fs::remove_file(&runs).unwrap();

    let both: Vec<std::process::Child> = (0..2)
        .map(|_| {
            Command::new(example("ablation"))
                .args(study_args(dir_s, &data))
                .args(["--no-progress", "--threads", "1"])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let outputs: Vec<Output> = both
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect();
    let succeeded = outputs.iter().filter(|o| o.status.success()).count();
    assert!(succeeded >= 1);
    for o in outputs.iter().filter(|o| !o.status.success()) {
        one_line_error(o, "being written by another process");
    }
    let text = read(&dir, "runs.jsonl");
    let mut keys: Vec<String> = text
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            format!("{} {} {}", v["config"], v["problem"], v["run"])
        })
        .collect();
    keys.sort();
    let total = keys.len();
    keys.dedup();
    assert_eq!((total, keys.len()), (105, 105), "every run exactly once");
}

/// A closed stdout/stderr (`ablation … 2>&1 | head`) is not an error of the study: it
/// runs and writes its tables and report.
#[test]
fn a_closed_pipe_still_gets_the_tables_written() {
    let data = data_dir();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("piped");
    let mut child = Command::new(example("ablation"))
        .args(study_args(dir.to_str().unwrap(), &data))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The reader goes away at once, as `head` does after its lines.
    drop(child.stdout.take());
    drop(child.stderr.take());
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}");
    for t in TABLES.iter().chain(&["report.html"]) {
        assert!(dir.join(t).is_file(), "{t} was not written");
    }
}

/// Asserts a failure with exactly one line on stderr containing `needle`.
fn one_line_error(out: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "expected failure, stderr: {err}");
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "expected one line, got:\n{err}");
    assert!(
        lines[0].contains(needle),
        "{:?} does not mention {needle:?}",
        lines[0]
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bad_input_gives_one_clear_line() {
    let data = data_dir();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    let o = out.to_str().unwrap();
    one_line_error(
        &ablation(&[
            "--variants",
            "eps-mag-es,cma-es",
            "--out",
            o,
            "--data",
            &data,
        ]),
        "unknown variant",
    );
    one_line_error(
        &ablation(&[
            "--variants",
            "eps-mag-es:step-size=fast",
            "--out",
            o,
            "--data",
            &data,
        ]),
        "step-size=fast: expected csa, median-success or constant",
    );
    one_line_error(
        &ablation(&["--problems", "1,29", "--out", o, "--data", &data]),
        "problem 29 is not in the cec2017 suite (it has 1–28)",
    );
    one_line_error(
        &ablation(&["--problems", "x", "--out", o, "--data", &data]),
        "not a problem number",
    );
    one_line_error(
        &ablation(&["--dim", "7", "--out", o, "--data", &data]),
        "N = 7",
    );
    one_line_error(
        &ablation(&["--dim", "7", "--out", o, "--synthetic", "3"]),
        "N = 7",
    );
    one_line_error(
        &ablation(&["--out", o, "--data", "/nonexistent/cec2017"]),
        "does not exist",
    );
    one_line_error(
        &ablation(&["--shard", "3/2", "--out", o, "--data", &data]),
        "invalid shard",
    );
    // an --out below a regular file cannot be created
    let file = tmp.path().join("file.txt");
    std::fs::write(&file, "x").unwrap();
    let below = file.join("out");
    one_line_error(
        &ablation(&[
            "--runs",
            "1",
            "--problems",
            "1",
            "--variants",
            "eps-mag-es",
            "--budget-per-dim",
            "100",
            "--out",
            below.to_str().unwrap(),
            "--data",
            &data,
        ]),
        "file.txt",
    );
    // a corrupt line in runs.jsonl: a clear error, the file untouched
    let small = [
        "--runs",
        "2",
        "--problems",
        "1",
        "--variants",
        "eps-mag-es",
        "--budget-per-dim",
        "200",
        "--out",
        o,
        "--data",
        &data,
    ];
    ok(&ablation(&small));
    let runs = out.join("runs.jsonl");
    let mut text = std::fs::read_to_string(&runs).unwrap();
    text.insert_str(0, "{\"not\": \"a run\"\n");
    std::fs::write(&runs, &text).unwrap();
    one_line_error(&ablation(&small), "runs.jsonl:1");
    assert_eq!(
        std::fs::read_to_string(&runs).unwrap(),
        text,
        "the results file was modified"
    );
    // a run cut short mid-append is dropped, the others kept
    let good: String = text.lines().skip(1).map(|l| format!("{l}\n")).collect();
    std::fs::write(&runs, format!("{good}{{\"config\": \"eps-mag-es\", \"pro")).unwrap();
    ok(&ablation(&small));
    assert_eq!(std::fs::read_to_string(&runs).unwrap(), good);
}

#[test]
fn synthetic_instance_is_flagged_everywhere() {
    let tmp = tempfile::tempdir().unwrap();
    let o = tmp.path().join("s");
    let out = ablation(&[
        "--synthetic",
        "5",
        "--runs",
        "2",
        "--problems",
        "2",
        "--variants",
        "eps-mag-es,eps-sag-es",
        "--budget-per-dim",
        "500",
        "--out",
        o.to_str().unwrap(),
        "--plot-problems",
        "2",
    ]);
    ok(&out);
    assert!(String::from_utf8_lossy(&out.stderr).contains("SYNTHETIC INSTANCE"));
    assert_marked(
        &o,
        &[
            "table1.md",
            "table2.md",
            "table1_cec.md",
            "stats_eps-mag-es.md",
            "report.html",
        ],
        "SYNTHETIC INSTANCE",
    );
}

/// `--fast` end to end: the records say so, the tables carry the mark, and the same
/// directory refuses a run of the exact path with one line.
#[test]
fn the_fast_path_from_the_command_line() {
    let data = data_dir();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("fast");
    let o = out.to_str().unwrap();
    let mut args = study_args(o, &data);
    args.push("--fast");
    ok(&ablation(&args));
    let runs = read(&out, "runs.jsonl");
    assert_eq!(runs.lines().count(), 7 * 3 * 5);
    assert!(runs.lines().all(|l| l.contains("\"fast\":true")));
    assert_marked(
        &out,
        &[
            "table1.md",
            "table2.md",
            "stats_eps-mag-es.md",
            "report.html",
        ],
        "fast path (--fast)",
    );
    args.pop();
    one_line_error(
        &ablation(&args),
        "holds results of another study (runs of the fast path (--fast) (this study: the exact path))",
    );
}

/// A combination of components that is no preset, chosen on the command line: recorded
/// under its spec (label and variant), compared with εMAg-ES in every table, its
/// statistics in a file whose name has no `:` or `=`; the reduced variants keep their
/// preset names and seeds.
#[test]
fn component_specs_from_the_command_line() {
    let data = data_dir();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("specs");
    let o = out.to_str().unwrap();
    let spec = "eps-mag-es:step-size=median-success";
    ok(&ablation(&[
        "--variants",
        &format!("eps-ma-es,{spec},eps-mag-es:step-size=constant:sigma-cap=off"),
        "--runs",
        "3",
        "--problems",
        "1,3",
        "--budget-per-dim",
        "500",
        "--plot-problems",
        "3",
        "--out",
        o,
        "--data",
        &data,
    ]));
    let runs = read(&out, "runs.jsonl");
    let rows: Vec<serde_json::Value> = runs
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 4 * 2 * 3);
    let of = |label: &str| rows.iter().filter(|r| r["config"] == label).count();
    assert_eq!(of(spec), 6);
    // Labels are the canonical text form: keys in a fixed order, whatever the order typed.
    assert_eq!(of("eps-mag-es:sigma-cap=off:step-size=constant"), 6);
    for r in &rows {
        assert_eq!(
            r["config"], r["variant"],
            "the spec is the recorded variant"
        );
    }
    // The same preset runs as in a study of presets only: the same seeds.
    let presets = tmp.path().join("presets");
    ok(&ablation(&[
        "--variants",
        "eps-ma-es",
        "--runs",
        "3",
        "--problems",
        "1,3",
        "--budget-per-dim",
        "500",
        "--plot-problems",
        "3",
        "--out",
        presets.to_str().unwrap(),
        "--data",
        &data,
    ]));
    let seeds = |text: &str, label: &str| -> Vec<u64> {
        text.lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter(|r| r["config"] == label)
            .map(|r| r["seed"].as_u64().unwrap())
            .collect()
    };
    let other = read(&presets, "runs.jsonl");
    for label in ["eps-mag-es", "eps-ma-es"] {
        let (mut a, mut b) = (seeds(&runs, label), seeds(&other, label));
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "{label}");
    }
    let table1 = read(&out, "table1.md");
    assert!(table1.contains(&format!("| {spec} |")), "{table1}");
    assert!(out
        .join("stats_eps-mag-es_step-size_median-success.md")
        .is_file());
}

/// The ablation study with a combination of components the paper did not run, beside
/// one it did, at N = 10 on all 28 problems (what the comparison with the paper
/// needs): the report is built, the paper's columns stand beside the preset, and the
/// other combination's Table 2 cells say "–" for the paper (it used to stop with "the
/// paper has no Table 2 for N = 10").
#[test]
fn a_lineup_with_a_combination_the_paper_did_not_run_gets_its_report() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("sr");
    let o = out.to_str().unwrap();
    ok(&ablation(&[
        "--dim",
        "10",
        "--runs",
        "2",
        "--budget-per-dim",
        "200",
        "--variants",
        "eps-mag-es,lex-ma-es,eps-mag-es:ranking=stochastic",
        "--out",
        o,
        "--plot-problems",
        "1",
    ]));
    let beside = read(&out, "paper_comparison.md");
    // Table 2's cells are `here / paper`: lexMA-ES's column, then the combination's.
    let rows: Vec<&str> = beside
        .lines()
        .filter(|l| l.starts_with("| C") && l.contains(" / "))
        .collect();
    assert_eq!(rows.len(), 28, "{beside}");
    for row in &rows {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        assert!(
            !cells[2].ends_with("/ –"),
            "lexMA-ES has the paper's cell: {row}"
        );
        assert!(cells[3].ends_with("/ –"), "the combination has none: {row}");
    }
    assert!(read(&out, "table1.md").contains("eps-mag-es:ranking=stochastic"));
}

/// `--jacobian exact`: the CEC2017 problems offer their exact Jacobians, the runs are
/// labelled `…+jacobian=exact` and compared with εMAg-ES given the same (no paper
/// columns); a repair then costs 1 evaluation instead of N + 1, so the same budget
/// buys more generations; and a report over exact and black-box runs together is
/// refused with one line.
#[test]
fn exact_jacobians_are_labelled_and_compared_among_themselves() {
    let data = data_dir();
    let tmp = tempfile::tempdir().unwrap();
    let (exact, black_box) = (tmp.path().join("exact"), tmp.path().join("black-box"));
    let run = |out: &Path, jacobian: &str| {
        ok(&ablation(&[
            "--dim",
            "10",
            "--runs",
            "3",
            "--problems",
            "3,7",
            "--budget-per-dim",
            "3000",
            "--variants",
            "eps-mag-es-r",
            "--jacobian",
            jacobian,
            "--threads",
            "1",
            "--data",
            &data,
            "--plot-problems",
            "3",
            "--out",
            out.to_str().unwrap(),
        ]));
        emages_harness::study::store::load_runs(&out.join("runs.jsonl")).unwrap()
    };
    let exact_runs = run(&exact, "exact");
    let black_box_runs = run(&black_box, "differences");
    assert_eq!(
        exact_runs.len(),
        12,
        "2 configurations × 2 problems × 3 runs"
    );
    assert!(exact_runs
        .iter()
        .all(|r| r.config.ends_with("+jacobian=exact")));
    assert!(black_box_runs
        .iter()
        .all(|r| !r.config.contains("jacobian")));
    let table1 = read(&exact, "table1.csv");
    assert_eq!(table1.lines().count(), 2, "{table1}");
    assert!(
        table1.contains("+jacobian=exact,"),
        "the row is the exact configuration: {table1}"
    );
    let markdown = read(&exact, "table1.md");
    assert!(
        markdown.contains("(exact Jacobians)"),
        "the table names the Jacobians: {markdown}"
    );
    assert!(
        !exact.join("paper_comparison.md").exists(),
        "no comparison with the paper's black-box runs"
    );
    let generations = |runs: &[emages_harness::study::store::RunRow]| -> usize {
        runs.iter()
            .filter(|r| r.problem == 3)
            .map(|r| r.generations)
            .sum()
    };
    assert!(
        generations(&exact_runs) > generations(&black_box_runs),
        "C03 (an equality; repaired): {} generations with exact Jacobians, {} with differences",
        generations(&exact_runs),
        generations(&black_box_runs)
    );
    let mixed = ablation(&[
        "--report",
        exact.join("runs.jsonl").to_str().unwrap(),
        black_box.join("runs.jsonl").to_str().unwrap(),
        "--out",
        tmp.path().join("mixed").to_str().unwrap(),
    ]);
    assert!(!mixed.status.success());
    let err = String::from_utf8_lossy(&mixed.stderr);
    assert!(err.contains("mix runs with exact Jacobians"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

/// `--baseline eps-mag-es-r`: the study adds εMAg-ES-R (not εMAg-ES) and its tables
/// compare every other configuration with it ("+": εMAg-ES-R better), under the
/// strategies' labels, without the paper's numbers; the same records reported against
/// the default baseline are refused with one line, as εMAg-ES never ran; `--docs`
/// needs the paper's baseline.
#[test]
fn a_study_against_another_baseline() {
    let data = data_dir();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("vs-r");
    ok(&ablation(&[
        "--dim",
        "10",
        "--runs",
        "3",
        "--problems",
        "1,3",
        "--budget-per-dim",
        "1000",
        "--baseline",
        "eps-mag-es-r",
        "--variants",
        "eps-mag-es-r:repair=levenberg-marquardt,lex-ma-es",
        "--jacobian",
        "exact",
        "--threads",
        "1",
        "--data",
        &data,
        "--plot-problems",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]));
    let runs = emages_harness::study::store::load_runs(&out.join("runs.jsonl")).unwrap();
    let mut configs: Vec<&str> = runs.iter().map(|r| r.config.as_str()).collect();
    configs.sort_unstable();
    configs.dedup();
    assert_eq!(
        configs,
        [
            "eps-mag-es:repair=levenberg-marquardt:restarts=bipop:stall=range:eps-end=10%:polish=50%+jacobian=exact",
            "eps-mag-es:restarts=bipop:stall=range:eps-end=10%:polish=50%+jacobian=exact",
            "lex-ma-es+jacobian=exact",
        ],
        "εMAg-ES-R added as the baseline, no εMAg-ES"
    );
    let table1 = read(&out, "table1.md");
    assert!(
        table1.contains("| εMAg-ES-R (exact Jacobians) vs. |"),
        "{table1}"
    );
    for row in [
        "| eps-mag-es:repair=levenberg-marquardt:restarts=bipop:stall=range:eps-end=10%:polish=50% (exact Jacobians) |",
        "| lexMA-ES (exact Jacobians) |",
    ] {
        assert!(table1.contains(row), "{row} in {table1}");
    }
    assert!(
        table1.contains("\"+\": εMAg-ES-R (exact Jacobians) better"),
        "{table1}"
    );
    assert!(!out.join("paper_comparison.md").exists());
    let file = out.join("runs.jsonl");
    let against_paper = ablation(&[
        "--report",
        file.to_str().unwrap(),
        "--out",
        tmp.path().join("paper").to_str().unwrap(),
    ]);
    one_line_error(
        &against_paper,
        "no runs of the baseline eps-mag-es+jacobian=exact",
    );
    let docs = ablation(&[
        "--report",
        file.to_str().unwrap(),
        "--baseline",
        "eps-mag-es-r",
        "--docs",
        tmp.path().join("doc.md").to_str().unwrap(),
        "--out",
        tmp.path().join("docs").to_str().unwrap(),
    ]);
    one_line_error(
        &docs,
        "--docs: the comparison with the paper needs the baseline eps-mag-es",
    );
}
