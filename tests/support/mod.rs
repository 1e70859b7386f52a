//! What the end-to-end tests of the examples share: finding the example binaries that
//! `cargo test` builds, and the official instance data.

#![allow(dead_code)] // each test binary uses its own part

pub mod rerun;

use std::path::{Path, PathBuf};

/// The binary of example `name`, next to the running test binary.
pub fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(Path::parent).unwrap();
    let path = profile_dir.join("examples").join(name);
    assert!(
        path.is_file(),
        "example binary {} not built (run `cargo test`, which builds the examples)",
        path.display()
    );
    path
}

/// Runs the `cec2020_rw` example with `args`; its standard output (it must succeed).
pub fn cec2020_rw(args: &[&std::ffi::OsStr]) -> String {
    let o = std::process::Command::new(example("cec2020_rw"))
        .args(args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).to_string()
}

/// The run files of every dimension group of `study` (`D*/runs*`, shard files
/// included): each as its group's folder name, its path and its file name.
fn group_run_files(study: &Path) -> Vec<(std::ffi::OsString, PathBuf, String)> {
    let mut files = Vec::new();
    for group in std::fs::read_dir(study).unwrap().filter_map(Result::ok) {
        if !group.file_name().to_string_lossy().starts_with('D') {
            continue;
        }
        for f in std::fs::read_dir(group.path())
            .unwrap()
            .filter_map(Result::ok)
        {
            let name = f.file_name().to_string_lossy().to_string();
            if name.starts_with("runs") {
                files.push((group.file_name(), f.path(), name));
            }
        }
    }
    files
}

/// The compressed run files of every dimension group of `study` (`D*/runs*.jsonl.gz`,
/// shard files included) copied into a temporary folder, as a study's `--out` holds
/// them; the folder and how many files.
pub fn copy_groups(study: &Path) -> (tempfile::TempDir, usize) {
    let out = tempfile::tempdir().unwrap();
    let mut copied = 0;
    for (group, path, name) in group_run_files(study) {
        if name.ends_with(".jsonl.gz") {
            let to = out.path().join(group);
            std::fs::create_dir_all(&to).unwrap();
            std::fs::copy(path, to.join(&name)).unwrap();
            copied += 1;
        }
    }
    (out, copied)
}

/// The official instance data: `$CEC2017_DATA_DIR`, else `../shared/cec2017/text`.
pub fn data_dir() -> String {
    emages_test_support::cec2017_data().display().to_string()
}

/// The run records of a CEC2020 study folder (`D009/runs*.jsonl[.gz]` in every dimension
/// group), the archived (`.gz`) files only if `archived_only`.
pub fn cec2020_runs(out: &Path, archived_only: bool) -> Vec<emages_harness::study::store::RunRow> {
    let mut rows = Vec::new();
    for (_group, path, name) in group_run_files(out) {
        let wanted = if archived_only {
            name.ends_with(".jsonl.gz")
        } else {
            name.ends_with(".jsonl") || name.ends_with(".jsonl.gz")
        };
        if wanted {
            rows.extend(emages_harness::study::store::load_runs(&path).unwrap());
        }
    }
    rows
}

/// The run records of a study folder — every `runs*` file in it, shards included — in
/// run order and without their wall times: what two runs of one study must agree on,
/// whatever the threads or shards.
pub fn records_without_time(dir: &Path) -> Vec<emages_harness::study::store::RunRow> {
    let mut rows: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("runs"))
        .flat_map(|p| emages_harness::study::store::load_runs(&p).unwrap())
        .collect();
    rows.sort_by_key(emages_harness::study::store::RunRow::key);
    for r in &mut rows {
        r.seconds = 0.0;
    }
    rows
}
