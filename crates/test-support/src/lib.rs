//! Test support shared by the workspace's crates (a dev-dependency only): where the
//! shared ground truth lives and how its JSON-lines fixtures are read.
//!
//! The fixtures are never copied into the repository; they are read at run time from
//! `../shared` beside the checkout, or from the directory an environment variable
//! names.

use serde::de::DeserializeOwned;
use std::path::{Path, PathBuf};

/// `$var` if set, else `relative` below the shared directory beside the checkout
/// (`<workspace>/../shared`).
#[must_use]
pub fn shared(var: &str, relative: &str) -> PathBuf {
    std::env::var_os(var).map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared")
            .join(relative)
    })
}

/// The official CEC2017 instance data: `$CEC2017_DATA_DIR`, else
/// `../shared/cec2017/text`.
#[must_use]
pub fn cec2017_data() -> PathBuf {
    shared("CEC2017_DATA_DIR", "cec2017/text")
}

/// The records of a JSON-lines file (blank lines skipped).
///
/// # Panics
/// If the file cannot be read or a line does not parse, naming the file and line — a
/// fixture test must fail loudly, never pass on nothing.
#[must_use]
pub fn jsonl<T: DeserializeOwned>(path: &Path) -> Vec<T> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read fixture {}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), i + 1))
        })
        .collect()
}
