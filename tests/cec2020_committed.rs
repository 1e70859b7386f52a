//! The committed CEC2020 real-world study and what the docs say of it agree: the entry
//! files equal an entry rebuilt from the committed run records; the committed ranking
//! (`results/cec2020-rw/ranking.md`) is what the score command computes from that entry
//! and the eight published ones; docs/cec2020-rw.md quotes it verbatim; and the study is
//! complete (25 runs of every problem). The same for the design log's CEC2020 scores
//! (docs/strategy-design.md, entries 14, 15, 21 and 23).

mod support;
use support::*;

use bench_stats::cec2020::Entry;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

const LABEL: &str = "eps-mag-es@Tscaled";

#[test]
fn the_entry_is_the_committed_runs() {
    let results = root().join("results/cec2020-rw");
    let mut finals = vec![Vec::new(); 57];
    for r in cec2020_runs(&results, true) {
        assert_eq!(r.config, LABEL);
        let last = r.checkpoints.iter().find(|c| c.fraction == 1.0).unwrap();
        finals[r.problem - 1].push((
            last.checkpoint.best.objective(),
            last.checkpoint.best.violation(),
        ));
    }
    for (k, runs) in finals.iter().enumerate() {
        assert_eq!(
            runs.len(),
            25,
            "RC{:02}: {} committed runs",
            k + 1,
            runs.len()
        );
    }
    let labels = (1..=57).map(|k| format!("RC{k:02}")).collect();
    let rebuilt = Entry::from_runs("epsMAgES", labels, finals).unwrap();
    let committed = Entry::read(&results.join("entry"), "epsMAgES").unwrap();
    assert_eq!(committed.problems, rebuilt.problems);
    for k in 0..57 {
        for (a, b) in committed.f[k]
            .iter()
            .zip(&rebuilt.f[k])
            .chain(committed.cv[k].iter().zip(&rebuilt.cv[k]))
        {
            assert!(
                a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                "RC{:02}: {a} ≠ {b}",
                k + 1
            );
        }
    }
    println!("checked the entry against 1425 committed runs");
}

#[test]
fn the_committed_ranking_is_the_score_of_the_entries_and_the_docs_quote_it() {
    let results = root().join("results/cec2020-rw");
    let entrants = emages_test_support::shared("CEC2020_RW_ENTRANTS", "cec2020-rw/entrants");
    let entry = results.join("entry");
    let computed = cec2020_rw(&[
        "--score".as_ref(),
        entrants.as_os_str(),
        entry.as_os_str(),
        "--versus".as_ref(),
        "SASS,sCMAgES,BiPop".as_ref(),
    ]);
    let committed = std::fs::read_to_string(results.join("ranking.md")).unwrap();
    assert_eq!(
        computed.trim_end(),
        committed.trim_end(),
        "results/cec2020-rw/ranking.md is stale; regenerate it with\n  cargo run --release --example cec2020_rw -- --score ../shared/cec2020-rw/entrants results/cec2020-rw/entry --versus SASS,sCMAgES,BiPop --markdown results/cec2020-rw/ranking.md"
    );
    let docs = std::fs::read_to_string(root().join("docs/cec2020-rw.md")).unwrap();
    for table in committed.split("\n\n").filter(|t| t.starts_with('|')) {
        assert!(
            docs.contains(table.trim_end()),
            "docs/cec2020-rw.md does not quote:\n{table}"
        );
    }
}

/// The CEC2020 score of εMAg-ES-R (docs/strategy-design.md, entries 14 and 15): its
/// entry, rebuilt from the committed runs (`results/strategy-design/test-sets/cec2020`,
/// all 57 problems × 25 runs), scored with the eight published entries and εMAg-ES's, is
/// the committed ranking; scored on the 49 problems that were complete at entry 14 it is
/// the committed interim ranking (those runs are the same); and the design log quotes
/// every total of both.
#[test]
fn the_score_of_the_frozen_strategy_is_its_committed_runs() {
    let runs = root().join("results/strategy-design/test-sets/cec2020");
    let out = tempfile::tempdir().unwrap();
    let mut files = 0;
    // The dimension groups D002 … D158 (not the committed entry, rebuilt below).
    for group in std::fs::read_dir(&runs).unwrap().filter_map(Result::ok) {
        if group.path().is_dir() && group.file_name().to_string_lossy().starts_with('D') {
            let to = out.path().join(group.file_name());
            std::fs::create_dir_all(&to).unwrap();
            for f in std::fs::read_dir(group.path())
                .unwrap()
                .filter_map(Result::ok)
            {
                std::fs::copy(f.path(), to.join(f.file_name())).unwrap();
                files += 1;
            }
        }
    }
    assert_eq!(files, 48, "24 dimension groups × 2 shards");
    let run = cec2020_rw;
    let os = |s: &'static str| std::ffi::OsStr::new(s);
    // No --allow-incomplete: a missing run fails here.
    run(&[
        os("--entry"),
        os("--variant"),
        os("eps-mag-es-r"),
        os("--name"),
        os("epsMAgES-R"),
        os("--out"),
        out.path().as_os_str(),
    ]);
    let entrants = emages_test_support::shared("CEC2020_RW_ENTRANTS", "cec2020-rw/entrants");
    let eps = root().join("results/cec2020-rw/entry");
    let mine = out.path().join("entry");
    let score = |subset: Option<&'static str>| {
        let mut args = vec![
            os("--score"),
            entrants.as_os_str(),
            eps.as_os_str(),
            mine.as_os_str(),
            os("--name"),
            os("epsMAgES-R"),
            os("--versus"),
            os("epsMAgES,BiPop,SASS,sCMAgES"),
        ];
        if let Some(s) = subset {
            args.extend([os("--subset"), os(s)]);
        }
        run(&args)
    };
    // The committed entry files are the ones rebuilt from the committed runs.
    for file in ["epsMAgES-R.f.csv", "epsMAgES-R.cv.csv"] {
        assert_eq!(
            std::fs::read_to_string(mine.join(file)).unwrap(),
            std::fs::read_to_string(runs.join("entry").join(file)).unwrap(),
            "{file}"
        );
    }
    let log = std::fs::read_to_string(root().join("docs/strategy-design.md")).unwrap();
    for (file, subset) in [
        ("ranking.md", None),
        ("interim-ranking-49-problems.md", Some("1-33,40,41,44-57")),
    ] {
        let committed = std::fs::read_to_string(runs.join(file)).unwrap();
        assert_eq!(score(subset).trim_end(), committed.trim_end(), "{file}");
        let mut quoted = 0;
        for row in committed
            .lines()
            .filter(|l| l.starts_with("| ") && l.contains('.'))
        {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            if cells.len() == 8 && cells[1].parse::<usize>().is_ok() {
                let line = format!("| {} | ", cells[1]);
                let total = format!(" | {} |", cells[6]);
                assert!(
                    log.lines()
                        .any(|l| l.starts_with(&line) && l.ends_with(&total)),
                    "the design log lacks place {} with total {} ({file})",
                    cells[1],
                    cells[6]
                );
                quoted += 1;
            }
        }
        assert_eq!(quoted, 10, "{file}");
        println!("{file}: rebuilt from the committed runs; {quoted} totals quoted");
    }
}

/// Asserts that `log` quotes every place of the ranking table in `committed` as a row
/// that starts with the place, names the algorithm and ends with its total; the number
/// of places.
fn assert_places_quoted(committed: &str, log: &str, file: &str) -> usize {
    let mut quoted = 0;
    for row in committed.lines().filter(|l| l.starts_with("| ")) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        if cells.len() == 8 && cells[1].parse::<usize>().is_ok() {
            let (place, total) = (format!("| {} | ", cells[1]), format!(" | {} |", cells[6]));
            assert!(
                log.lines()
                    .any(|l| l.starts_with(&place) && l.contains(cells[2]) && l.ends_with(&total)),
                "the design log lacks place {} ({}) with total {} ({file})",
                cells[1],
                cells[2],
                cells[6]
            );
            quoted += 1;
        }
    }
    quoted
}

/// εMAg-ES-RLM's entry rebuilt from the compressed dimension groups of `study` (there
/// must be `groups` of them) into a temporary folder, checked against the committed
/// `study/entry` files; the folder, the rebuilt entry's folder and the group count.
fn rebuild_rlm_entry(
    study: &std::path::Path,
    groups: usize,
    allow_incomplete: bool,
) -> (tempfile::TempDir, PathBuf, usize) {
    let (out, copied) = copy_groups(study);
    assert_eq!(copied, groups, "{}: compressed groups", study.display());
    let os = std::ffi::OsStr::new;
    let mut args = vec![
        os("--entry"),
        os("--variant"),
        os("eps-mag-es-rlm"),
        os("--jacobian"),
        os("exact"),
        os("--name"),
        os("epsMAgES-RLM-exact"),
        os("--out"),
        out.path().as_os_str(),
    ];
    if allow_incomplete {
        args.push(os("--allow-incomplete"));
    }
    cec2020_rw(&args);
    let mine = out.path().join("entry");
    for file in ["epsMAgES-RLM-exact.f.csv", "epsMAgES-RLM-exact.cv.csv"] {
        assert_eq!(
            std::fs::read_to_string(mine.join(file)).unwrap(),
            std::fs::read_to_string(study.join("entry").join(file)).unwrap(),
            "{file}"
        );
    }
    (out, mine, copied)
}

/// The score of εMAg-ES-RLM's entry in `mine` with the eight published entries and
/// εMAg-ES-R-exact's (`--name epsMAgES-RLM-exact`), with the further arguments `more`.
fn score_rlm(mine: &std::path::Path, more: &[&str]) -> String {
    let entrants = emages_test_support::shared("CEC2020_RW_ENTRANTS", "cec2020-rw/entrants");
    let r_exact = root().join("results/strategy-design/round3/r-exact-cec2020/entry");
    let mut args = vec![
        std::ffi::OsStr::new("--score"),
        entrants.as_os_str(),
        r_exact.as_os_str(),
        mine.as_os_str(),
        "--name".as_ref(),
        "epsMAgES-RLM-exact".as_ref(),
    ];
    args.extend(more.iter().map(std::ffi::OsStr::new));
    cec2020_rw(&args)
}

/// The odd CEC2020 problems the training of εMAg-ES-RLM scored at the freeze
/// (docs/strategy-design.md, entry 21): every odd one but RC35, whose group was still
/// running then (it is in the entry since).
const RLM_TRAINING_SUBSET: &str =
    "1,3,5,7,9,11,13,15,17,19,21,23,25,27,29,31,33,37,39,41,43,45,47,49,51,53,55,57";

/// The CEC2020 training score of εMAg-ES-RLM (docs/strategy-design.md, entry 21): its
/// entry rebuilt from the committed runs of the odd problems
/// (`results/strategy-design/round3/lm-f1p20-box-best-exact-odd`, the compressed groups
/// only) is the committed one; scored on those problems with the eight published
/// entries and εMAg-ES-R-exact's it is the committed `ranking-odd.md`; and the design
/// log quotes every total.
#[test]
fn the_training_score_of_the_frozen_lm_strategy_is_its_committed_runs() {
    let study = root().join("results/strategy-design/round3/lm-f1p20-box-best-exact-odd");
    // The compressed groups D003 … D153.
    let (_out, mine, groups) = rebuild_rlm_entry(&study, 15, true);
    let computed = score_rlm(
        &mine,
        &[
            "--versus",
            "epsMAgES-R-exact,SASS",
            "--subset",
            RLM_TRAINING_SUBSET,
        ],
    );
    let committed = std::fs::read_to_string(study.join("ranking-odd.md")).unwrap();
    assert_eq!(computed.trim_end(), committed.trim_end(), "ranking-odd.md");
    let log = std::fs::read_to_string(root().join("docs/strategy-design.md")).unwrap();
    let quoted = assert_places_quoted(&committed, &log, "ranking-odd.md");
    assert_eq!(quoted, 10);
    println!("ranking-odd.md: rebuilt from {groups} committed groups; {quoted} totals quoted");
}

/// The even CEC2020 problems, the separate test of entry 23.
const EVEN: &str =
    "2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44,46,48,50,52,54,56";

/// The CEC2020 test of εMAg-ES-RLM (docs/strategy-design.md, entry 23): its entry,
/// rebuilt from the committed runs (`results/strategy-design/test-sets/round3/cec2020-exact`,
/// all 57 problems × 25 runs, no run missing), is the committed one; scored with the
/// eight published entries and εMAg-ES-R-exact's it is the committed `ranking.md` (all
/// 57 problems) and `ranking-even.md` (the even ones), each with the problems' shares;
/// and the design log quotes every place of both.
#[test]
fn the_test_score_of_the_frozen_lm_strategy_is_its_committed_runs() {
    let study = root().join("results/strategy-design/test-sets/round3/cec2020-exact");
    // The groups D002 … D158; no --allow-incomplete: a missing run fails here.
    let (_out, mine, groups) = rebuild_rlm_entry(&study, 24, false);
    let log = std::fs::read_to_string(root().join("docs/strategy-design.md")).unwrap();
    for (file, subset) in [("ranking.md", None), ("ranking-even.md", Some(EVEN))] {
        let mut args = vec![
            "--versus",
            "SASS,epsMAgES-R-exact,COLSHADE,sCMAgES,BiPop",
            "--shares",
        ];
        if let Some(s) = subset {
            args.extend(["--subset", s]);
        }
        let computed = score_rlm(&mine, &args);
        let committed = std::fs::read_to_string(study.join(file)).unwrap();
        assert_eq!(computed.trim_end(), committed.trim_end(), "{file}");
        let quoted = assert_places_quoted(&committed, &log, file);
        assert_eq!(quoted, 10, "{file}");
        // the shares add up to the ranking's totals
        let total = |name: &str| {
            committed
                .lines()
                .find(|l| l.starts_with("| ") && l.split('|').nth(2).map(str::trim) == Some(name))
                .and_then(|l| l.split('|').nth(6))
                .map(|c| c.trim().to_string())
                .unwrap()
        };
        let shares_total = committed
            .lines()
            .find(|l| l.starts_with("| total |"))
            .unwrap();
        let cells: Vec<&str> = shares_total.split('|').map(str::trim).collect();
        assert_eq!(cells[4], total("epsMAgES-RLM-exact"), "{file}");
        assert_eq!(cells[5], total("SASS"), "{file}");
        println!("{file}: rebuilt from {groups} committed groups; {quoted} places quoted");
    }
}

/// Writes the entry `name` of the runs labelled `label` in `out` (`out/entry`).
fn portfolio_entry(out: &std::path::Path, label: &str, name: &str) {
    let os = std::ffi::OsStr::new;
    cec2020_rw(&[
        os("--entry"),
        os("--with"),
        os(label),
        os("--name"),
        os(name),
        os("--out"),
        out.as_os_str(),
    ]);
}

/// Scores the entry `name` of `out/entry` with the eight published entries and
/// εMAg-ES-R's black-box test entry (on `subset`, or all 57 problems), comparing it with
/// εMAg-ES-R and SASS; the ranking as Markdown into `markdown`.
fn score_portfolio_entry(
    out: &std::path::Path,
    name: &str,
    subset: Option<&str>,
    markdown: &std::path::Path,
) {
    let os = std::ffi::OsStr::new;
    let entrants = emages_test_support::shared("CEC2020_RW_ENTRANTS", "cec2020-rw/entrants");
    let test_entry = root().join("results/strategy-design/test-sets/cec2020/entry");
    let entry = out.join("entry");
    let mut args = vec![
        os("--score"),
        entrants.as_os_str(),
        test_entry.as_os_str(),
        entry.as_os_str(),
        os("--name"),
        os(name),
        os("--versus"),
        os("epsMAgES-R,SASS"),
        os("--markdown"),
        markdown.as_os_str(),
    ];
    if let Some(subset) = subset {
        args.extend([os("--subset"), os(subset)]);
    }
    cec2020_rw(&args);
}

/// The CEC2020 test of the frozen portfolio (`portfolio-share0`, black box): its
/// entry rebuilt from the 24 committed dimension groups
/// (`results/strategy-design/round4/test-cec2020-bb`, all 57 problems), scored with the
/// eight published entries and εMAg-ES-R's black-box test entry, is the committed
/// ranking on the 47 problems that can be scored (RC34–RC43 cannot: every run's best
/// point has a NaN violation) and the interim one on the 44 of the first session; the
/// design log quotes every place of both.
#[test]
fn the_cec2020_score_of_the_portfolio_is_its_committed_runs() {
    let study = root().join("results/strategy-design/round4/test-cec2020-bb");
    let (out, groups) = copy_groups(&study);
    assert_eq!(groups, 24, "the committed dimension groups");
    portfolio_entry(out.path(), "portfolio-share0", "portfolio-share0");
    let log = std::fs::read_to_string(root().join("docs/strategy-design.md")).unwrap();
    for (file, subset) in [
        ("ranking-47-problems.md", "1-33,44-57"),
        ("interim-ranking-44-problems.md", "1-33,44-54"),
    ] {
        let markdown = out.path().join(file);
        score_portfolio_entry(out.path(), "portfolio-share0", Some(subset), &markdown);
        let committed = std::fs::read_to_string(study.join(file)).unwrap();
        assert_eq!(
            std::fs::read_to_string(&markdown).unwrap().trim_end(),
            committed.trim_end(),
            "{file}"
        );
        let quoted = assert_places_quoted(&committed, &log, file);
        assert_eq!(quoted, 10, "{file}");
        println!("{file}: rebuilt from {groups} committed groups; {quoted} places quoted");
    }
}

/// The NaN fix, `portfolio-share0:nan-last` (black box): its runs are the frozen
/// candidate's wherever the first point's violation is a number (the same seeds,
/// `run_seed` leaves `:nan-last` out), so its entry is built from the frozen runs of the
/// 17 groups without a power-system problem, relabelled, and its own runs of RC34–RC43
/// (the 7 groups of `results/strategy-design/round4/test-cec2020-bb-nan-last`). Scored
/// on all 57 problems with the eight published entries and εMAg-ES-R's black-box test
/// entry, it is the committed ranking, and the design log quotes every place.
#[test]
fn the_cec2020_score_of_the_nan_last_portfolio_is_its_committed_runs() {
    use std::io::Read;
    let frozen = root().join("results/strategy-design/round4/test-cec2020-bb");
    let study = root().join("results/strategy-design/round4/test-cec2020-bb-nan-last");
    let out = tempfile::tempdir().unwrap();
    let (mut own, mut relabelled, mut runs) = (0, 0, 0);
    for group in std::fs::read_dir(&frozen).unwrap().filter_map(Result::ok) {
        let name = group.file_name();
        if !name.to_string_lossy().starts_with('D') {
            continue;
        }
        let mine = study.join(&name).join("runs.jsonl.gz");
        let from = if mine.is_file() {
            own += 1;
            mine
        } else {
            relabelled += 1;
            group.path().join("runs.jsonl.gz")
        };
        let mut text = String::new();
        flate2::read::GzDecoder::new(std::fs::File::open(&from).unwrap())
            .read_to_string(&mut text)
            .unwrap();
        let text = text.replace(
            "\"config\":\"portfolio-share0\",",
            "\"config\":\"portfolio-share0:nan-last\",",
        );
        runs += text.lines().filter(|l| !l.trim().is_empty()).count();
        std::fs::create_dir_all(out.path().join(&name)).unwrap();
        std::fs::write(out.path().join(&name).join("runs.jsonl"), text).unwrap();
    }
    assert_eq!((own, relabelled, runs), (7, 17, 57 * 25));
    portfolio_entry(
        out.path(),
        "portfolio-share0:nan-last",
        "portfolio-share0-nan-last",
    );
    let markdown = out.path().join("ranking-57-problems.md");
    score_portfolio_entry(out.path(), "portfolio-share0-nan-last", None, &markdown);
    let committed = std::fs::read_to_string(study.join("ranking-57-problems.md")).unwrap();
    assert_eq!(
        std::fs::read_to_string(&markdown).unwrap().trim_end(),
        committed.trim_end()
    );
    let log = std::fs::read_to_string(root().join("docs/strategy-design.md")).unwrap();
    let quoted = assert_places_quoted(&committed, &log, "ranking-57-problems.md");
    assert_eq!(quoted, 10);
    println!("ranking-57-problems.md: {own} own and {relabelled} relabelled groups, {runs} runs; {quoted} places quoted");
}
