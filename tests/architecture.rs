//! The layout shows the architecture: no module of any workspace crate imports, through
//! `crate::…` or `super::…` paths, a sibling module that imports it back (directly or
//! around a longer circle). Checked on the sources, the way `cargo modules` would, so
//! that a circle cannot come back unnoticed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The module path of a source file under `src` (`study/runner.rs` → `study::runner`,
/// `study/mod.rs` → `study`, `lib.rs` → the root).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap();
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The absolute module paths a file's code (not its comments, not its tests) refers to.
fn references(module: &[String], text: &str) -> Vec<Vec<String>> {
    let code: String = text
        .split("#[cfg(test)]")
        .next()
        .unwrap()
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = Vec::new();
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    for (i, _) in code.match_indices("crate::") {
        if i > 0 && code[..i].ends_with(|c: char| ident(c)) {
            continue; // e.g. `emages_crate::`
        }
        let path: Vec<String> = code[i + 7..]
            .split("::")
            .map(|seg| seg.chars().take_while(|&c| ident(c)).collect::<String>())
            .take_while(|s| !s.is_empty())
            .collect();
        out.push(path);
    }
    for (i, _) in code.match_indices("super::") {
        if i > 0 && code[..i].ends_with(|c: char| ident(c) || c == ':') {
            continue; // `super::super::` handled as one prefix below
        }
        let mut base: Vec<String> = module.to_vec();
        let mut rest = &code[i..];
        while let Some(r) = rest.strip_prefix("super::") {
            base.pop();
            rest = r;
        }
        let first: String = rest.chars().take_while(|&c| ident(c)).collect();
        if !first.is_empty() {
            base.push(first);
        }
        out.push(base);
    }
    out
}

/// The circles among sibling modules of one crate, as lists of module paths.
fn circles(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(src, f)).collect();
    // Edges between siblings: `a → b` when code in `a` (or below it) refers to `b` (or
    // below it) and `a`, `b` share their parent.
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for f in &files {
        let from = module_of(src, f);
        let text = std::fs::read_to_string(f).unwrap();
        for to in references(&from, &text) {
            // The longest common prefix, then the first differing segment on each side.
            let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if common >= from.len() || common >= to.len() {
                continue; // a reference to itself, a parent or a child
            }
            let a = from[..=common].to_vec();
            let b = to[..=common].to_vec();
            if modules.contains(&b) && a != b {
                edges.entry(a).or_default().insert(b);
            }
        }
    }
    // Depth-first search for back edges.
    let mut found = Vec::new();
    let mut state: BTreeMap<&Vec<String>, u8> = BTreeMap::new();
    fn visit<'g>(
        n: &'g Vec<String>,
        edges: &'g BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        state: &mut BTreeMap<&'g Vec<String>, u8>,
        stack: &mut Vec<&'g Vec<String>>,
        found: &mut Vec<String>,
    ) {
        state.insert(n, 1);
        stack.push(n);
        for m in edges.get(n).into_iter().flatten() {
            match state.get(m) {
                Some(1) => {
                    let at = stack.iter().position(|s| *s == m).unwrap();
                    let names: Vec<String> = stack[at..]
                        .iter()
                        .chain(std::iter::once(&m))
                        .map(|p| p.join("::"))
                        .collect();
                    found.push(names.join(" → "));
                }
                Some(_) => {}
                None => visit(m, edges, state, stack, found),
            }
        }
        stack.pop();
        state.insert(n, 2);
    }
    for n in edges.keys() {
        if !state.contains_key(n) {
            visit(n, &edges, &mut state, &mut Vec::new(), &mut found);
        }
    }
    found
}

#[test]
fn no_module_imports_a_sibling_that_imports_it_back() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut crates = vec![root.join("src")];
    for c in std::fs::read_dir(root.join("crates")).unwrap() {
        let src = c.unwrap().path().join("src");
        if src.is_dir() {
            crates.push(src);
        }
    }
    let mut all = Vec::new();
    for src in &crates {
        let c = circles(src);
        println!("{}: {} circle(s)", src.display(), c.len());
        all.extend(c.into_iter().map(|c| format!("{}: {c}", src.display())));
    }
    assert!(crates.len() >= 5, "the root package and the crates");
    assert!(all.is_empty(), "import circles:\n{}", all.join("\n"));
}

/// The checker sees a circle where there is one.
#[test]
fn the_checker_finds_a_planted_circle() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::write(src.join("lib.rs"), "mod a;\nmod b;\n").unwrap();
    std::fs::write(src.join("a.rs"), "use crate::b::B;\npub struct A;\n").unwrap();
    std::fs::create_dir(src.join("b")).unwrap();
    std::fs::write(src.join("b/mod.rs"), "mod inner;\npub struct B;\n").unwrap();
    std::fs::write(src.join("b/inner.rs"), "use super::super::a::A;\n").unwrap();
    let c = circles(src);
    assert_eq!(c, ["a → b → a"], "{c:?}");
    std::fs::write(src.join("b/inner.rs"), "// use crate::a::A;\n").unwrap();
    assert!(circles(src).is_empty());
}
