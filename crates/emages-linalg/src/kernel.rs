//! Which OpenBLAS kernel does the arithmetic, and how to get the one the results assume.
//!
//! An OpenBLAS built with `DYNAMIC_ARCH` (Debian's, Ubuntu's, Fedora's, conda's) carries
//! one kernel family per CPU generation and picks one when the library loads — before
//! `main` runs — from the CPU's identification, or takes the one named by the environment
//! variable `OPENBLAS_CORETYPE`. The family fixes how every product rounds. That matters
//! here: the strategy's trajectories are chaotic (the repair's forward differences
//! amplify last-bit differences by `1/η = 10⁴`), so the same seed gives other runs
//! under another family, and the replay fixtures' comparison windows hold only with the
//! FMA families (docs/deviations.md, "Floating-point agreement").
//!
//! Two things go wrong on a CPU newer than the installed OpenBLAS (Debian 12 ships
//! 0.3.21): it does not recognise the CPU and silently falls back to its oldest SSE3
//! kernels (`Prescott`), which are 1.5–2× slower and round differently although the CPU
//! has AVX2 and FMA; and a misspelt `OPENBLAS_CORETYPE` silently selects some other
//! family. [`BlasKernel::current`] tells which family runs and whether it is such a
//! fallback; [`warn_once`] reports a fallback once per process (on stderr, or through
//! the handler given to [`set_warning_handler`]). Choosing the kernel is a program's
//! business, not a library's: the `canonical-kernel` crate's `use_canonical_kernel`,
//! called first thing in `main`, restarts the program with the [`CANONICAL_KERNEL`]
//! when the CPU can run it and the user has not chosen a kernel.
//!
//! The canonical kernel is `Haswell`, OpenBLAS's AVX2/FMA family: it runs on every
//! x86-64 CPU with AVX2 and FMA (Intel since 2013, AMD since 2017), so that one kernel
//! reproduces every committed result on all of them. On CPUs with AVX-512 OpenBLAS's own
//! `SkylakeX`/`Cooperlake` kernels are about 10 % faster (docs/performance.md); set
//! `OPENBLAS_CORETYPE=SkylakeX` to trade that bit-for-bit agreement for speed.
//!
//! Without the `openblas-system` feature the BLAS provider is the user's and nothing
//! here can ask it: [`BlasKernel::current`] returns `None` and [`warn_once`] does nothing.

use std::fmt;
use std::sync::{Once, OnceLock};

/// The kernel family every committed result of this workspace was computed with, and
/// the one `canonical_kernel::use_canonical_kernel` selects: OpenBLAS's AVX2/FMA kernels.
pub const CANONICAL_KERNEL: &str = "Haswell";

/// The kernel families with which the replay fixtures' comparison windows have been
/// checked to hold (the FMA families of OpenBLAS 0.3.21 on x86-64; `Zen` uses the
/// `Haswell` kernels).
pub const VERIFIED_KERNELS: [&str; 4] = ["Haswell", "Zen", "SkylakeX", "Cooperlake"];

/// The environment variable OpenBLAS reads when it loads.
pub const CORETYPE_VARIABLE: &str = "OPENBLAS_CORETYPE";

/// Test hook: when this environment variable is set (to anything), a value of
/// `OPENBLAS_CORETYPE` counts as OpenBLAS's own choice rather than the user's, so that
/// `OPENBLAS_CORETYPE=Prescott EMAGES_SIMULATE_KERNEL_FALLBACK=1` starts a program with
/// the real fallback kernels loaded and lets the detection and the correction act as on
/// a CPU that OpenBLAS does not know. The workspace's CI uses it; nothing else should.
pub const SIMULATE_FALLBACK_VARIABLE: &str = "EMAGES_SIMULATE_KERNEL_FALLBACK";

/// The OpenBLAS kernel family of this process and the circumstances of its choice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlasKernel {
    name: String,
    requested: Option<String>,
    cpu_has_avx2_fma: bool,
}

impl BlasKernel {
    /// The kernel family OpenBLAS runs in this process (`openblas_get_corename`), the
    /// user's `OPENBLAS_CORETYPE` if any, and whether the CPU has AVX2 and FMA; `None`
    /// when the BLAS provider is not the system OpenBLAS (feature `openblas-system`
    /// off).
    ///
    /// ```
    /// use emages_linalg::kernel::BlasKernel;
    /// if let Some(kernel) = BlasKernel::current() {
    ///     println!("OpenBLAS kernel: {}", kernel.name());
    ///     assert!(!kernel.name().is_empty());
    /// }
    /// ```
    #[must_use]
    pub fn current() -> Option<Self> {
        let name = corename()?;
        Some(Self::from_parts(
            &name,
            requested_coretype().as_deref(),
            cpu_has_avx2_fma(),
        ))
    }

    /// A description from its parts (for tests and for reports of other processes):
    /// the family's name, the `OPENBLAS_CORETYPE` the user set (if any), and whether
    /// the CPU has AVX2 and FMA.
    ///
    /// ```
    /// use emages_linalg::kernel::BlasKernel;
    /// let k = BlasKernel::from_parts("Prescott", None, true);
    /// assert!(k.is_fallback());
    /// assert!(!BlasKernel::from_parts("Prescott", Some("Prescott"), true).is_fallback());
    /// assert!(!BlasKernel::from_parts("Prescott", None, false).is_fallback());
    /// ```
    #[must_use]
    pub fn from_parts(name: &str, requested: Option<&str>, cpu_has_avx2_fma: bool) -> Self {
        Self {
            name: name.to_string(),
            requested: requested.map(str::to_string),
            cpu_has_avx2_fma,
        }
    }

    /// The family's name as OpenBLAS reports it (`Haswell`, `SkylakeX`, `Prescott`, …).
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The kernel the user asked for with `OPENBLAS_CORETYPE`, if any.
    #[must_use]
    pub fn requested(&self) -> Option<&str> {
        self.requested.as_deref()
    }

    /// Whether the CPU has AVX2 and FMA (always `false` off x86-64).
    #[must_use]
    pub fn cpu_has_avx2_fma(&self) -> bool {
        self.cpu_has_avx2_fma
    }

    /// Whether this is the [`CANONICAL_KERNEL`].
    #[must_use]
    pub fn is_canonical(&self) -> bool {
        self.name.eq_ignore_ascii_case(CANONICAL_KERNEL)
    }

    /// Whether the replay fixtures' windows are known to hold with this family
    /// ([`VERIFIED_KERNELS`]).
    #[must_use]
    pub fn is_verified(&self) -> bool {
        VERIFIED_KERNELS
            .iter()
            .any(|k| self.name.eq_ignore_ascii_case(k))
    }

    /// OpenBLAS chose, by itself, a family outside [`VERIFIED_KERNELS`] on a CPU that
    /// has AVX2 and FMA: the fallback of an OpenBLAS older than the CPU.
    #[must_use]
    pub fn is_fallback(&self) -> bool {
        self.requested.is_none() && self.cpu_has_avx2_fma && !self.is_verified()
    }

    /// What is wrong with this kernel, if anything: a fallback ([`Self::is_fallback`]),
    /// or an `OPENBLAS_CORETYPE` that names no family OpenBLAS has (it then runs another
    /// one without saying so).
    #[must_use]
    pub fn warning(&self) -> Option<KernelWarning> {
        if self.is_fallback() {
            return Some(KernelWarning::Fallback {
                kernel: self.name.clone(),
            });
        }
        match &self.requested {
            Some(r) if !r.eq_ignore_ascii_case(&self.name) => Some(KernelWarning::UnknownRequest {
                requested: r.clone(),
                kernel: self.name.clone(),
            }),
            _ => None,
        }
    }
}

impl fmt::Display for BlasKernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name)?;
        if self.requested.is_some() {
            write!(f, " ({CORETYPE_VARIABLE})")?;
        }
        Ok(())
    }
}

/// Something about the running OpenBLAS kernel the user should know ([`warn_once`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum KernelWarning {
    /// OpenBLAS fell back to a pre-FMA family on a CPU with AVX2 and FMA.
    Fallback {
        /// The family it runs.
        kernel: String,
    },
    /// `OPENBLAS_CORETYPE` names no family OpenBLAS has; it runs `kernel` instead.
    UnknownRequest {
        /// The value of `OPENBLAS_CORETYPE`.
        requested: String,
        /// The family it runs.
        kernel: String,
    },
}

impl fmt::Display for KernelWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Fallback { kernel } => write!(
                f,
                "OpenBLAS does not recognise this CPU and runs its pre-FMA `{kernel}` kernels \
                 although the CPU has AVX2 and FMA: runs are 1.5-2x slower and round \
                 differently from the committed results and the replay fixtures. Fix: set \
                 {CORETYPE_VARIABLE}={CANONICAL_KERNEL} before the program starts (OpenBLAS \
                 reads it when it loads), or make `emages::use_canonical_kernel();` the \
                 first line of main (crate `canonical-kernel` without `emages`)"
            ),
            Self::UnknownRequest { requested, kernel } => write!(
                f,
                "{CORETYPE_VARIABLE}={requested} names no kernel this OpenBLAS has; it runs \
                 `{kernel}` instead (e.g. {CORETYPE_VARIABLE}={CANONICAL_KERNEL})"
            ),
        }
    }
}

static HANDLER: OnceLock<fn(&KernelWarning)> = OnceLock::new();
static WARNED: Once = Once::new();

/// Sends [`warn_once`]'s warning to `handler` instead of stderr (e.g. into a log).
/// Takes effect only before the first warning; returns `false` if a handler was set
/// already.
///
/// ```
/// use emages_linalg::kernel::{set_warning_handler, KernelWarning};
/// fn to_log(w: &KernelWarning) {
///     // log::warn!("{w}")
///     let _ = w;
/// }
/// assert!(set_warning_handler(to_log));
/// assert!(!set_warning_handler(to_log));
/// ```
pub fn set_warning_handler(handler: fn(&KernelWarning)) -> bool {
    HANDLER.set(handler).is_ok()
}

/// Checks the running kernel once per process and reports a [`KernelWarning`] on
/// stderr (`warning: …`, one line) or through the handler of [`set_warning_handler`].
/// The strategy and the benchmark call it when they are built, so a program that links
/// these crates learns of a fallback kernel without asking.
pub fn warn_once() {
    WARNED.call_once(|| {
        if let Some(w) = BlasKernel::current().and_then(|k| k.warning()) {
            match HANDLER.get() {
                Some(h) => h(&w),
                None => eprintln!("warning: {w}"),
            }
        }
    });
}

/// Sets the number of threads OpenBLAS uses inside one product (returns `false`, doing
/// nothing, when the provider is not the system OpenBLAS). The product's bits depend on
/// it: a C21 run at N = 100 takes other trajectories with 2 threads than with 1 (and is
/// 2.5x slower on 2 cores, the products being small). The workspace's programs use one
/// thread, running independent runs in parallel instead.
pub fn set_num_threads(threads: usize) -> bool {
    #[cfg(feature = "openblas-system")]
    {
        extern "C" {
            fn openblas_set_num_threads(n: std::os::raw::c_int);
        }
        let n = std::os::raw::c_int::try_from(threads.max(1)).unwrap_or(std::os::raw::c_int::MAX);
        // SAFETY: OpenBLAS is linked (feature openblas-system); the call only sets a count.
        unsafe { openblas_set_num_threads(n) };
        true
    }
    #[cfg(not(feature = "openblas-system"))]
    {
        let _ = threads;
        false
    }
}

/// The user's `OPENBLAS_CORETYPE` (unset, empty, or under the test hook
/// [`SIMULATE_FALLBACK_VARIABLE`]: none).
fn requested_coretype() -> Option<String> {
    if std::env::var_os(SIMULATE_FALLBACK_VARIABLE).is_some() {
        return None;
    }
    std::env::var(CORETYPE_VARIABLE)
        .ok()
        .filter(|v| !v.trim().is_empty())
}

/// Whether the CPU has AVX2 and FMA.
#[must_use]
pub fn cpu_has_avx2_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(feature = "openblas-system")]
fn corename() -> Option<String> {
    extern "C" {
        fn openblas_get_corename() -> *mut std::os::raw::c_char;
    }
    // SAFETY: OpenBLAS is linked (feature openblas-system); the call returns a pointer
    // to a static NUL-terminated string (or null).
    unsafe {
        let p = openblas_get_corename();
        if p.is_null() {
            return Some("unknown".into());
        }
        Some(
            std::ffi::CStr::from_ptr(p)
                .to_string_lossy()
                .trim()
                .to_string(),
        )
    }
}

#[cfg(not(feature = "openblas-system"))]
fn corename() -> Option<String> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fallback_is_a_pre_fma_kernel_that_openblas_chose_on_an_fma_cpu() {
        for name in ["Prescott", "Sandybridge", "Nehalem", "Core2", "Unknown"] {
            let k = BlasKernel::from_parts(name, None, true);
            assert!(k.is_fallback(), "{name}");
            assert_eq!(
                k.warning(),
                Some(KernelWarning::Fallback {
                    kernel: name.into()
                })
            );
        }
        for name in VERIFIED_KERNELS {
            assert!(!BlasKernel::from_parts(name, None, true).is_fallback());
        }
        // The user's choice, or a CPU without FMA: not a fallback.
        assert!(!BlasKernel::from_parts("Prescott", Some("prescott"), true).is_fallback());
        assert_eq!(
            BlasKernel::from_parts("Prescott", Some("prescott"), true).warning(),
            None
        );
        assert!(!BlasKernel::from_parts("Sandybridge", None, false).is_fallback());
    }

    #[test]
    fn a_coretype_that_openblas_does_not_know_is_reported() {
        // OpenBLAS 0.3.21 runs Cooperlake for OPENBLAS_CORETYPE=SapphireRapids.
        let k = BlasKernel::from_parts("Cooperlake", Some("SapphireRapids"), true);
        let w = k.warning().expect("a warning");
        assert_eq!(
            w,
            KernelWarning::UnknownRequest {
                requested: "SapphireRapids".into(),
                kernel: "Cooperlake".into()
            }
        );
        assert!(w.to_string().contains("OPENBLAS_CORETYPE=SapphireRapids"));
        assert!(BlasKernel::from_parts("Haswell", Some("haswell"), true)
            .warning()
            .is_none());
    }

    #[test]
    fn the_fallback_warning_names_the_kernel_and_the_fix() {
        let w = KernelWarning::Fallback {
            kernel: "Prescott".into(),
        }
        .to_string();
        assert!(w.contains("`Prescott`"), "{w}");
        assert!(w.contains("OPENBLAS_CORETYPE=Haswell"), "{w}");
        assert!(!w.contains('\n'), "one line: {w}");
    }

    #[test]
    fn the_canonical_kernel_is_verified() {
        let k = BlasKernel::from_parts(CANONICAL_KERNEL, None, true);
        assert!(k.is_canonical() && k.is_verified());
        assert_eq!(k.to_string(), "Haswell");
        assert_eq!(
            BlasKernel::from_parts("Haswell", Some("Haswell"), true).to_string(),
            "Haswell (OPENBLAS_CORETYPE)"
        );
    }
}
