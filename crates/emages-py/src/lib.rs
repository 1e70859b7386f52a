//! The Python package `emages`, its compiled part `emages._emages`: the εMAg-ES and its
//! variants on Python callables or on the suites' problems, the CEC2017 and
//! bbob-constrained suites with batch evaluation on numpy arrays, and the statistics.
//! The pure-Python layer (`python/emages/__init__.py`) gives the scipy-like
//! `minimize` and the documented signatures; see docs/python.md.

mod asktell;
mod callback;
mod contract;
mod convert;
mod error;
mod problems;
mod settings;
mod stats;
mod strategy;

use pyo3::prelude::*;

#[pymodule]
fn _emages(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // The termination reasons, their scipy status and sentence: the one table in Rust.
    m.add("TERMINATIONS", contract::terminations())?;
    m.add("IN_PROGRESS", emages_solver::IN_PROGRESS)?;
    // The recommended strategy: its text form and the equality margin it holds.
    m.add("RECOMMENDED_PORTFOLIO", emages::recommended().to_string())?;
    m.add(
        "DEFAULT_EQUALITY_MARGIN",
        emages::portfolio::DEFAULT_EQUALITY_MARGIN,
    )?;
    // The presets, the strategies and the recommended one, from Rust's tables.
    let presets: Vec<&str> = ma_es::Variant::ALL.iter().map(|v| v.name()).collect();
    m.add("PRESETS", presets)?;
    let strategies: Vec<&str> = ma_es::variant::STRATEGIES.iter().map(|s| s.0).collect();
    m.add("STRATEGIES", strategies)?;
    m.add("RECOMMENDED", ma_es::variant::STRATEGIES[0].0)?;
    // One OpenBLAS thread, as the workspace's programs run (the products' bits depend
    // on the count; numpy's own OpenBLAS, a separate library, is not affected).
    constraint_handling::linalg::kernel::set_num_threads(1);
    m.add_class::<problems::PyCec2017>()?;
    m.add_class::<problems::PyBbob>()?;
    m.add_class::<problems::PyCec2020>()?;
    m.add_class::<settings::PyOptions>()?;
    m.add_class::<settings::PyPortfolioOptions>()?;
    m.add_class::<asktell::PyAskTell>()?;
    m.add_function(wrap_pyfunction!(settings::serialised_fields, m)?)?;
    m.add_function(wrap_pyfunction!(strategy::run_native, m)?)?;
    m.add_function(wrap_pyfunction!(strategy::run_callbacks, m)?)?;
    m.add_function(wrap_pyfunction!(strategy::run_portfolio, m)?)?;
    m.add_function(wrap_pyfunction!(strategy::run_portfolio_native, m)?)?;
    m.add_function(wrap_pyfunction!(strategy::run_seed, m)?)?;
    m.add_function(wrap_pyfunction!(stats::signrank, m)?)?;
    m.add_function(wrap_pyfunction!(stats::ranksum, m)?)?;
    m.add_function(wrap_pyfunction!(stats::cec_statistics, m)?)?;
    m.add_function(wrap_pyfunction!(stats::cec_compare, m)?)?;
    m.add_function(wrap_pyfunction!(kernel, m)?)?;
    m.add_class::<contract::PyProgress>()?;
    m.add_function(wrap_pyfunction!(contract::recommended_half_plane, m)?)?;
    Ok(())
}

/// The OpenBLAS kernel family this process runs (e.g. `Haswell`), or `None` without
/// OpenBLAS.
#[pyfunction]
fn kernel() -> Option<String> {
    constraint_handling::linalg::kernel::BlasKernel::current().map(|k| k.name().to_string())
}
