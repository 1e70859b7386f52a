//! The fifth round's CEC2020 tests under the competition's protocol
//! (`results/strategy-design/round5/test-cec2020-margin`, docs/strategy-design.md §39):
//! for the black-box and the exact-Jacobian form, the entry rebuilt from the eight
//! committed shards of every dimension group is the committed entry; scored with the
//! eight published entries, εMAg-ES-R's and the previous round's candidates' (rebuilt
//! from their committed runs where no entry is committed) it is the committed ranking;
//! and the design log and the study's README quote the candidate's total and place.

mod support;
use support::*;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The candidate under the protocol, as the study ran it.
const SPEC: &str = "portfolio:confirmations=0:margin=problem:accuracy=1e-12:soc=on";

/// The committed run files of `study` (`D*/runs*.jsonl.gz`: eight shards a group, or
/// one file) copied into a temporary folder; the folder, the number of groups and of
/// files, and the runs.
fn copy_study(study: &Path) -> (tempfile::TempDir, usize, usize, usize) {
    let (out, shards) = copy_groups(study);
    let groups = std::fs::read_dir(out.path()).unwrap().count();
    let runs = cec2020_runs(out.path(), true).len();
    (out, groups, shards, runs)
}

/// Builds the entry `name` of the runs labelled `label` in `out` (`out/entry`).
fn entry(out: &Path, label: &str, jacobian: Option<&str>, name: &str) -> PathBuf {
    let mut args = vec![OsStr::new("--entry"), "--with".as_ref(), label.as_ref()];
    if let Some(j) = jacobian {
        args.extend([OsStr::new("--jacobian"), j.as_ref()]);
    }
    args.extend([OsStr::new("--name"), name.as_ref(), "--out".as_ref()]);
    args.push(out.as_os_str());
    cec2020_rw(&args);
    out.join("entry")
}

/// Asserts the entry files of `name` in `mine` equal those of `committed`.
fn assert_same_entry(mine: &Path, committed: &Path, name: &str) {
    for ext in ["f.csv", "cv.csv"] {
        let file = format!("{name}.{ext}");
        assert_eq!(
            std::fs::read_to_string(mine.join(&file)).unwrap(),
            std::fs::read_to_string(committed.join(&file)).unwrap(),
            "{}",
            committed.join(&file).display()
        );
    }
}

/// A black-box entry rebuilt from a committed study of 57 × 25 runs (label `label`,
/// entry name `name`) in a temporary folder; the folder (kept alive by the caller) and
/// the entry.
fn rebuilt(study: &str, label: &str, name: &str) -> (tempfile::TempDir, PathBuf) {
    let (out, _groups, _files, runs) = copy_study(&root().join(study));
    assert_eq!(runs, 57 * 25, "{study}");
    let e = entry(out.path(), label, None, name);
    (out, e)
}

/// The total of `name` in the ranking table of `ranking` (its row
/// `| place | name | best | mean | median | total |`).
fn total_of(ranking: &str, name: &str) -> String {
    let row = ranking
        .lines()
        .find(|l| l.split('|').nth(2).map(str::trim) == Some(name))
        .unwrap_or_else(|| panic!("no row of {name}"));
    row.split('|').map(str::trim).nth(6).unwrap().to_string()
}

/// Checks one form: shards, entry, ranking and what the docs quote; `field` are the
/// further entries scored beside the published ones, `versus` the comparisons.
fn check_form(form: &str, jacobian: Option<&str>, name: &str, field: &[&Path], versus: &str) {
    let study = root().join("results/strategy-design/round5/test-cec2020-margin");
    let (out, groups, shards, runs) = copy_study(&study.join(form));
    assert_eq!(
        (shards, runs),
        (groups * 8, 57 * 25),
        "{form}: eight shards a group"
    );
    let mine = entry(out.path(), SPEC, jacobian, name);
    assert_same_entry(&mine, &study.join(form).join("entry"), name);

    let entrants = emages_test_support::shared("CEC2020_RW_ENTRANTS", "cec2020-rw/entrants");
    let markdown = out.path().join("ranking.md");
    let mut args = vec![OsStr::new("--score"), entrants.as_os_str()];
    args.extend(field.iter().map(|p| p.as_os_str()));
    args.push(mine.as_os_str());
    args.extend([
        OsStr::new("--name"),
        name.as_ref(),
        "--versus".as_ref(),
        versus.as_ref(),
        "--shares".as_ref(),
        "--markdown".as_ref(),
        markdown.as_os_str(),
    ]);
    cec2020_rw(&args);
    let committed =
        std::fs::read_to_string(study.join(form).join("ranking-57-problems.md")).unwrap();
    assert_eq!(
        std::fs::read_to_string(&markdown).unwrap().trim_end(),
        committed.trim_end(),
        "{form}/ranking-57-problems.md"
    );

    // Among the ten (the eight entrants, εMAg-ES-R, the candidate): the place counts
    // the entrants and εMAg-ES-R above it, not the previous round's candidates.
    let total = total_of(&committed, name);
    let above = committed
        .lines()
        .filter(|l| {
            l.starts_with("| ")
                && l.split('|')
                    .nth(1)
                    .is_some_and(|c| c.trim().parse::<usize>().is_ok())
        })
        .take_while(|l| l.split('|').nth(2).map(str::trim) != Some(name))
        .filter(|l| !l.contains("portfolio-"))
        .count();
    let ordinal = ["first", "second", "third", "fourth", "fifth"][above];
    let quote = format!("{total}, {ordinal} of the ten");
    let log = std::fs::read_to_string(root().join("docs/strategy-design.md")).unwrap();
    let readme = std::fs::read_to_string(study.join("README.md")).unwrap();
    let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat(&log).contains(&quote),
        "§39 lacks \"{quote}\" ({form})"
    );
    assert!(
        flat(&readme).contains(&quote),
        "the README lacks \"{quote}\" ({form})"
    );
    println!("{form}: {groups} groups, {shards} shards, {runs} runs; entry and ranking as committed; \"{quote}\" quoted");
}

/// The black-box form, scored beside εMAg-ES-R's black-box test entry and the previous
/// round's two candidates, whose entries are rebuilt from their committed runs.
#[test]
fn the_black_box_test_under_the_protocol_is_its_committed_shards() {
    let r = root().join("results/strategy-design/test-sets/cec2020/entry");
    let (_soc_dir, soc) = rebuilt(
        "results/strategy-design/round4/soc/test-cec2020-bb",
        "portfolio-share0:nan-last:curvature:soc",
        "portfolio-soc",
    );
    let (_curv_dir, curvature) = rebuilt(
        "results/strategy-design/round4/test-cec2020-bb-curvature",
        "portfolio-share0:nan-last:curvature",
        "portfolio-curvature",
    );
    check_form(
        "bb",
        None,
        "portfolio-r5-protocol",
        &[&r, &soc, &curvature],
        "portfolio-curvature,portfolio-soc,epsMAgES-R,SASS",
    );
}

/// The exact-Jacobian form, scored beside εMAg-ES-R's and the previous round's
/// candidate's exact-Jacobian entries (both committed).
#[test]
fn the_exact_jacobian_test_under_the_protocol_is_its_committed_shards() {
    let r3 = root().join("results/strategy-design/round3/r-exact-cec2020/entry");
    let r4 = root().join("results/strategy-design/round4/test-cec2020-exact-curvature/entry");
    check_form(
        "exact",
        Some("exact"),
        "portfolio-r5-protocol-exact",
        &[&r3, &r4],
        "portfolio-curvature-exact,epsMAgES-R-exact,SASS",
    );
}
