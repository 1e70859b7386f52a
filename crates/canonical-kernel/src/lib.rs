//! Program start-up for reproducible OpenBLAS arithmetic: make this process run
//! OpenBLAS's [`CANONICAL_KERNEL`] family (`Haswell`, AVX2/FMA) — the family every
//! committed result of the emages workspace was computed with.
//!
//! OpenBLAS reads `OPENBLAS_CORETYPE` only when it loads, before `main` runs, so the
//! only way for a program to change its kernel is to restart itself with the variable
//! set. That is a program's decision (a library must not re-execute the process that
//! links it), which is why it lives here and not in the libraries: they report which
//! kernel runs ([`BlasKernel`]) and warn once about a fallback
//! ([`constraint_handling::linalg::kernel::warn_once`]).
//!
//! ```no_run
//! // First thing in `main`:
//! canonical_kernel::at_program_start();
//! // … the program
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

use constraint_handling::linalg::kernel::{
    self, BlasKernel, CANONICAL_KERNEL, CORETYPE_VARIABLE, SIMULATE_FALLBACK_VARIABLE,
};

/// What [`use_canonical_kernel`] found (it does not return when it restarts the
/// program).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum KernelChoice {
    /// The canonical kernel runs already.
    Canonical,
    /// The user chose the kernel with `OPENBLAS_CORETYPE`; it is respected.
    UserChoice(String),
    /// The CPU cannot run the canonical kernel (no AVX2/FMA, or not x86-64): OpenBLAS's
    /// own choice stays.
    Unsupported(String),
    /// The BLAS provider is not the system OpenBLAS: nothing to choose.
    NotOpenBlas,
}

/// Makes this program run the [`CANONICAL_KERNEL`]: when OpenBLAS runs another family,
/// the CPU has AVX2 and FMA and the user has not set `OPENBLAS_CORETYPE`, restarts the
/// program (`exec`, same process id, same arguments and environment) with
/// `OPENBLAS_CORETYPE=Haswell`; otherwise returns what it found. OpenBLAS reads the
/// variable only when it loads, so this must be the first thing `main` does, before
/// any thread starts.
///
/// ```no_run
/// use canonical_kernel::use_canonical_kernel;
/// fn main() {
///     if let Err(e) = use_canonical_kernel() {
///         eprintln!("warning: could not restart with the canonical BLAS kernel: {e}");
///     }
///     // … the program
/// }
/// ```
///
/// # Errors
/// The restart failed (e.g. the executable was replaced while running); the program
/// then goes on with OpenBLAS's own choice.
pub fn use_canonical_kernel() -> std::io::Result<KernelChoice> {
    let Some(kernel) = BlasKernel::current() else {
        return Ok(KernelChoice::NotOpenBlas);
    };
    if let Some(r) = kernel.requested() {
        return Ok(KernelChoice::UserChoice(r.to_string()));
    }
    if kernel.is_canonical() {
        return Ok(KernelChoice::Canonical);
    }
    if !kernel.cpu_has_avx2_fma() {
        return Ok(KernelChoice::Unsupported(kernel.name().to_string()));
    }
    restart_with(CANONICAL_KERNEL)
}

#[cfg(unix)]
fn restart_with(core: &str) -> std::io::Result<KernelChoice> {
    use std::os::unix::process::CommandExt;
    let exe = std::env::current_exe()?;
    let mut args = std::env::args_os();
    let mut cmd = std::process::Command::new(exe);
    if let Some(arg0) = args.next() {
        cmd.arg0(arg0);
    }
    cmd.args(args)
        .env(CORETYPE_VARIABLE, core)
        .env_remove(SIMULATE_FALLBACK_VARIABLE);
    // `exec` returns only on failure.
    Err(cmd.exec())
}

#[cfg(not(unix))]
fn restart_with(_core: &str) -> std::io::Result<KernelChoice> {
    Err(std::io::Error::new(
        std::io::ErrorKind::Unsupported,
        format!("restarting is implemented for Unix only; set {CORETYPE_VARIABLE}={_core}"),
    ))
}

/// The first step of a program's `main`: [`use_canonical_kernel`] (a failed restart is
/// reported as one `warning:` line on stderr, and the program goes on with OpenBLAS's
/// own choice), then [`kernel::warn_once`] if the kernel is still a fallback.
pub fn at_program_start() {
    if let Err(e) = use_canonical_kernel() {
        eprintln!(
            "warning: could not restart with OpenBLAS's {CANONICAL_KERNEL} kernels ({e}); \
             set {CORETYPE_VARIABLE}={CANONICAL_KERNEL} to get them"
        );
    }
    kernel::warn_once();
}

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
