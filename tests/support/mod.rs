//! What the end-to-end tests of the examples share: finding the example binaries that
//! `cargo test` builds, and the official instance data.

#![allow(dead_code)] // each test binary uses its own part

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

/// The official instance data: `$CEC2017_DATA_DIR`, else `../shared/cec2017/text`.
pub fn data_dir() -> String {
    emages_test_support::cec2017_data().display().to_string()
}
