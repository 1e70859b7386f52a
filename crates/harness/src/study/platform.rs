//! Where the numbers of a run come from beyond its seed and configuration: the OpenBLAS
//! kernel family and its thread count (the products' rounding shapes the chaotic
//! trajectories) and the batch evaluation kernel (which does not change a bit).

/// Limits OpenBLAS to one thread: the runs are parallel, BLAS within a run is not (and
/// a product's bits depend on its thread count,
/// [`constraint_handling::linalg::kernel::set_num_threads`]).
pub fn pin_blas_to_one_thread() {
    constraint_handling::linalg::kernel::set_num_threads(1);
}

/// Where the numbers of a run come from beyond its seed: the OpenBLAS kernel family
/// (chosen when OpenBLAS loads, from the CPU or `OPENBLAS_CORETYPE`; its rounding shapes
/// the chaotic trajectories, so the same seed gives other runs under another family,
/// [`constraint_handling::linalg::kernel`]) and the batch evaluation kernel (which does
/// not change a bit). Recorded in every run record, e.g. `"openblas Haswell; batch
/// avx512"`.
#[must_use]
pub fn platform() -> String {
    let blas = constraint_handling::linalg::kernel::BlasKernel::current().map_or_else(
        || "blas unknown".to_string(),
        |k| format!("openblas {}", k.name()),
    );
    format!(
        "{blas}; batch {}",
        cec2017_constrained::BatchKernel::Auto.resolved()
    )
}
