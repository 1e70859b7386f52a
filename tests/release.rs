//! The release path of docs/release.md holds on the tree: one version for the
//! workspace's crates, their path dependencies and the wheel; the crates the document
//! publishes, in its order, are the workspace's publishable crates, each after every
//! sibling it depends on, and the ones CI packages.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The value of `key = "…"` on the first line of `section` that sets it.
fn value_in(text: &str, section: &str, key: &str) -> Option<String> {
    let mut inside = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == section;
            continue;
        }
        if inside {
            if let Some(rest) = line.strip_prefix(key) {
                let rest = rest.trim_start();
                if let Some(v) = rest.strip_prefix('=') {
                    return Some(v.trim().trim_matches('"').to_string());
                }
            }
        }
    }
    None
}

/// The workspace's crates: name → (publishable, the sibling crates it depends on, not
/// counting dev-dependencies).
fn crates() -> BTreeMap<String, (bool, Vec<String>)> {
    let mut out = BTreeMap::new();
    let dirs: Vec<PathBuf> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    let names: Vec<String> = dirs
        .iter()
        .map(|d| value_in(&read(&d.join("Cargo.toml")), "[package]", "name").unwrap())
        .collect();
    for (dir, name) in dirs.iter().zip(&names) {
        let text = read(&dir.join("Cargo.toml"));
        let publish = value_in(&text, "[package]", "publish").as_deref() != Some("false");
        let mut deps = Vec::new();
        let mut section = String::new();
        for line in text.lines() {
            let line = line.trim();
            if line.starts_with('[') {
                section = line.to_string();
                continue;
            }
            if section == "[dependencies]" || section == "[build-dependencies]" {
                let dep = line.split(['.', '=', ' ']).next().unwrap_or("");
                if names.iter().any(|n| n == dep) {
                    deps.push(dep.to_string());
                }
            }
        }
        out.insert(name.clone(), (publish, deps));
    }
    out
}

#[test]
fn one_version_for_the_crates_their_path_dependencies_and_the_wheel() {
    let cargo = read(&root().join("Cargo.toml"));
    let version = value_in(&cargo, "[workspace.package]", "version").expect("a workspace version");
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
    let wheel = value_in(
        &read(&root().join("crates/emages-py/pyproject.toml")),
        "[project]",
        "version",
    )
    .expect("the wheel's version");
    assert_eq!(wheel, version, "crates/emages-py/pyproject.toml");
    let mut checked = 0;
    let mut inside = false;
    for line in cargo.lines() {
        if line.starts_with('[') {
            inside = line.trim() == "[workspace.dependencies]";
            continue;
        }
        if inside && line.contains("path = \"crates/") {
            if line.contains("emages-test-support") || line.contains("crates/test-support") {
                continue;
            }
            assert!(
                line.contains(&format!("version = \"{version}\"")),
                "the path dependency should carry the workspace's version {version}: {line}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} path dependencies found");
    println!("version {version}: the wheel and {checked} path dependencies");
}

#[test]
fn the_release_order_publishes_every_crate_after_its_dependencies() {
    let doc = read(&root().join("docs/release.md"));
    // The numbered list under "Published crates": "  1. `name` …".
    let listed: Vec<String> = doc
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let (number, rest) = l.split_once(". `")?;
            number.parse::<usize>().ok()?;
            Some(rest.split('`').next()?.to_string())
        })
        .collect();
    let crates = crates();
    let publishable: Vec<&String> = crates
        .iter()
        .filter(|(_, (p, _))| *p)
        .map(|(n, _)| n)
        .collect();
    let mut sorted = listed.clone();
    sorted.sort();
    assert_eq!(
        sorted.iter().collect::<Vec<_>>(),
        publishable,
        "docs/release.md should list exactly the publishable crates"
    );
    let edges: usize = listed.iter().map(|n| crates[n].1.len()).sum();
    assert!(
        edges >= 15,
        "only {edges} dependencies among the crates found"
    );
    for (i, name) in listed.iter().enumerate() {
        for dep in &crates[name].1 {
            let at = listed.iter().position(|n| n == dep);
            assert!(
                at.is_some_and(|j| j < i),
                "{name} is published before its dependency {dep}"
            );
        }
    }
    // The publish loop of step 4 and CI's `cargo package` name the same crates in the
    // same order.
    let ci = read(&root().join(".ci/run"));
    let packaged: Vec<String> = ci
        .lines()
        .find(|l| l.starts_with("cargo package"))
        .expect("CI packages the crates")
        .split_whitespace()
        .collect::<Vec<_>>()
        .windows(2)
        .filter(|w| w[0] == "-p")
        .map(|w| w[1].to_string())
        .collect();
    assert_eq!(packaged, listed, ".ci/run's cargo package");
    let start = doc.find("for c in ").expect("the publish loop");
    let end = start + doc[start..].find("; do").unwrap();
    let looped: Vec<String> = doc[start + "for c in ".len()..end]
        .split_whitespace()
        .filter(|w| *w != "\\")
        .map(str::to_string)
        .collect();
    assert_eq!(looped, listed, "the publish loop of docs/release.md");
    println!(
        "{} crates in dependency order ({edges} dependencies among them)",
        listed.len()
    );
}
