//! With the `openblas-system` feature: stop with one clear line when the system
//! OpenBLAS is missing, instead of a linker error at the end of the build.

use std::path::Path;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=OPENBLAS_LIB_DIR");
    println!("cargo::rerun-if-env-changed=PKG_CONFIG_PATH");
    let wanted = std::env::var_os("CARGO_FEATURE_OPENBLAS_SYSTEM").is_some();
    let unix = std::env::var("CARGO_CFG_UNIX").is_ok();
    // Only a native build can be probed here; cross builds are the user's to set up.
    let native = std::env::var("HOST").ok() == std::env::var("TARGET").ok();
    if !wanted || !unix || !native || openblas_found() {
        return;
    }
    println!(
        "cargo::error=the system OpenBLAS (libopenblas) was not found: install it with \
         `sudo apt-get install libopenblas-dev` (Debian/Ubuntu), `sudo dnf install openblas-devel` \
         (Fedora/RHEL) or `brew install openblas` (macOS), or set OPENBLAS_LIB_DIR to the \
         directory that holds libopenblas"
    );
}

fn openblas_found() -> bool {
    let pkg_config = std::process::Command::new("pkg-config")
        .args(["--exists", "openblas"])
        .status()
        .is_ok_and(|s| s.success());
    if pkg_config {
        return true;
    }
    let mut dirs: Vec<String> = std::env::var("OPENBLAS_LIB_DIR").into_iter().collect();
    for var in ["LIBRARY_PATH", "LD_LIBRARY_PATH"] {
        if let Ok(v) = std::env::var(var) {
            dirs.extend(v.split(':').filter(|d| !d.is_empty()).map(String::from));
        }
    }
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    dirs.extend([
        format!("/usr/lib/{arch}-linux-gnu"),
        format!("/usr/lib/{arch}-linux-gnu/openblas-pthread"),
        "/usr/lib64".into(),
        "/usr/lib".into(),
        "/usr/local/lib".into(),
        "/opt/homebrew/opt/openblas/lib".into(),
        "/usr/local/opt/openblas/lib".into(),
    ]);
    dirs.iter().any(|d| {
        ["libopenblas.so", "libopenblas.a", "libopenblas.dylib"]
            .iter()
            .any(|f| Path::new(d).join(f).exists())
    })
}
