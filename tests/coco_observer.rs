//! The harness's COCO files equal cocoex's: the fixed sequence of points of
//! `tests/fixtures/coco-observer/points.jsonl`, evaluated on the bbob-constrained
//! problems through `study::coco`, gives the files cocoex 2.8.2's bbob observer wrote for
//! the same sequence (`tests/fixtures/coco-observer/exdata/`, made by
//! `scripts/bbob-constrained/observer_reference.py`), byte for byte.

use bbob_constrained::BbobProblem;
use emages_harness::study::coco::{CocoArchive, CocoRunLog};
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[test]
fn the_coco_files_equal_cocoexs() {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/coco-observer");
    let points = std::fs::read_to_string(fixtures.join("points.jsonl")).unwrap();
    let out = tempfile::tempdir().unwrap();
    let archive = CocoArchive::new(out.path(), "bbob-constrained", "SEQ", "fixed-sequence");
    let mut evaluations = 0;
    for (k, line) in points.lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let u = |key: &str| v[key].as_u64().unwrap() as usize;
        let p = BbobProblem::new(u("function"), u("dim"), u("instance")).unwrap();
        let mut log = CocoRunLog::new(u("function"), u("instance"), u("dim"), p.best_value());
        let mut g = vec![0.0; p.number_of_constraints()];
        for x in v["points"].as_array().unwrap() {
            let x: Vec<f64> = x
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_f64().unwrap())
                .collect();
            p.constraints(&x, &mut g);
            let f = p.objective(&x);
            log.record(&x, f, &g);
            evaluations += 1;
        }
        let block = log.finish();
        archive.append(&format!("run {k}"), &block).unwrap();
        // Appending the same run again changes nothing.
        archive.append(&format!("run {k}"), &block).unwrap();
    }
    let reference = fixtures.join("exdata");
    let mut want = Vec::new();
    files(&reference, &mut want);
    want.sort();
    assert!(want.len() >= 20, "the reference files");
    for w in &want {
        let rel = w.strip_prefix(&reference).unwrap();
        let got = out.path().join(rel);
        let expected = std::fs::read_to_string(w).unwrap();
        let written = std::fs::read_to_string(&got)
            .unwrap_or_else(|e| panic!("{} not written: {e}", rel.display()));
        if expected != written {
            let diff: Vec<String> = expected
                .lines()
                .zip(written.lines())
                .enumerate()
                .filter(|(_, (a, b))| a != b)
                .take(5)
                .map(|(i, (a, b))| format!("line {}:\n  cocoex {a}\n  here   {b}", i + 1))
                .collect();
            panic!(
                "{} differs ({} against {} lines):\n{}",
                rel.display(),
                expected.lines().count(),
                written.lines().count(),
                diff.join("\n")
            );
        }
    }
    println!(
        "{} COCO files equal cocoex's ({evaluations} evaluations on 5 problems)",
        want.len()
    );
}
