//! The back-calculation component (docs/algorithm.md §5, step 3.4).
//!
//! When an offspring was changed by reflection or repair, its mutation vectors are
//! recomputed from the point actually evaluated:
//!
//! ```text
//! d_k = (ŷ_k − ȳ) / σ,    z_k = M⁺ d_k
//! ```
//!
//! Only the `μ` selected offspring enter the recombination and the `M` update, so the
//! strategy hands over exactly those (the others' `d`, `z` are never used); `M⁺` is
//! obtained at most once per generation and only if a selected offspring changed.

use crate::config::BackCalculationSolver;
use crate::error::MaEsError;
use crate::linalg::{Prepared, SolverStats, SquareSolver};
use ndarray::{s, Array2, ArrayView1, ArrayView2, ArrayViewMut2, ShapeBuilder, Zip};

/// The selected offspring handed to a back-calculation.
pub struct Selected<'a> {
    /// The transformation matrix `M` of this generation.
    pub m: ArrayView2<'a, f64>,
    /// The parent `ȳ` the offspring were sampled around.
    pub parent: ArrayView1<'a, f64>,
    /// The mutation strength `σ` of this generation.
    pub sigma: f64,
    /// The evaluated points `ŷ` of the selected offspring (`N × μ`, rank order).
    pub points: ArrayView2<'a, f64>,
    /// Whether each selected offspring was changed (`μ` flags).
    pub changed: &'a [bool],
    /// Their `d` vectors (`N × μ`), as sampled; updated in place.
    pub d: ArrayViewMut2<'a, f64>,
    /// Their `z` vectors (`N × μ`), as sampled; updated in place.
    pub z: ArrayViewMut2<'a, f64>,
}

/// A back-calculation component.
pub trait BackCalculation: std::any::Any + Send {
    /// Updates `d`, `z` of the changed selected offspring.
    ///
    /// # Errors
    /// Reserved for implementations that can fail; the provided ones do not.
    fn back_calculate(&mut self, selected: Selected<'_>) -> Result<(), MaEsError>;

    /// Counts of the factorisations made (zero for implementations without any).
    fn stats(&self) -> SolverStats {
        SolverStats::default()
    }
}

/// No back-calculation (εMAg-ES w/o): `d`, `z` stay as sampled.
#[derive(Clone, Copy, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct NoBackCalculation;

impl BackCalculation for NoBackCalculation {
    fn back_calculate(&mut self, _selected: Selected<'_>) -> Result<(), MaEsError> {
        Ok(())
    }
}

/// `d_k = (ŷ_k − ȳ)/σ` for the changed offspring; returns how many changed.
fn recompute_d(sel: &mut Selected<'_>) -> usize {
    let mut count = 0;
    for (m, &changed) in sel.changed.iter().enumerate() {
        if changed {
            Zip::from(sel.d.column_mut(m))
                .and(sel.points.column(m))
                .and(&sel.parent)
                .for_each(|d, &y, &p| *d = (y - p) / sel.sigma);
            count += 1;
        }
    }
    count
}

/// Back-calculation with `M⁺ = I` (εSAg-ES, where `M` stays the identity): `z_k = d_k`.
#[derive(Clone, Copy, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct IdentityBackCalculation;

impl BackCalculation for IdentityBackCalculation {
    fn back_calculate(&mut self, mut sel: Selected<'_>) -> Result<(), MaEsError> {
        recompute_d(&mut sel);
        for (m, &changed) in sel.changed.iter().enumerate() {
            if changed {
                let d = sel.d.column(m);
                sel.z.column_mut(m).assign(&d);
            }
        }
        Ok(())
    }
}

/// Back-calculation with the pseudo-inverse `z_k = M⁺ d_k` (or an LU solve when `M`
/// is well conditioned, see [`BackCalculationSolver`]).
///
/// If `M` has a non-finite entry or the decomposition fails, `z` keeps its sampled
/// value (the reference's SVD would stop the run there); `d` is still recomputed.
#[derive(Debug)]
pub struct PseudoInverseBackCalculation {
    solver: SquareSolver,
    block: Array2<f64>,
    columns: Vec<usize>,
}

impl PseudoInverseBackCalculation {
    /// For dimension `n` and `mu` selected offspring.
    ///
    /// # Errors
    /// [`MaEsError::Linalg`] if LAPACK's workspace cannot be set up.
    pub fn new(
        n: usize,
        mu: usize,
        method: BackCalculationSolver,
        tolerance: f64,
    ) -> Result<Self, MaEsError> {
        Ok(Self {
            solver: SquareSolver::new(n, mu, method, tolerance)
                .map_err(|e| MaEsError::Linalg(e.to_string()))?,
            block: Array2::zeros((n, mu).f()),
            columns: Vec::with_capacity(mu),
        })
    }
}

/// What a [`PseudoInverseBackCalculation`] is made of, to save it (its LAPACK
/// workspace is set up anew when it is restored).
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
pub struct PseudoInverseState {
    n: usize,
    mu: usize,
    method: BackCalculationSolver,
    tolerance: f64,
    stats: SolverStats,
}

impl PseudoInverseBackCalculation {
    /// Its parameters and statistics.
    #[must_use]
    pub fn state(&self) -> PseudoInverseState {
        let (n, mu) = self.block.dim();
        let (method, tolerance) = self.solver.method();
        PseudoInverseState {
            n,
            mu,
            method,
            tolerance,
            stats: self.solver.stats(),
        }
    }

    /// The back-calculation of a saved state.
    ///
    /// # Errors
    /// As [`PseudoInverseBackCalculation::new`].
    pub fn from_state(state: PseudoInverseState) -> Result<Self, MaEsError> {
        let mut c = Self::new(state.n, state.mu, state.method, state.tolerance)?;
        c.solver.set_stats(state.stats);
        Ok(c)
    }
}

impl BackCalculation for PseudoInverseBackCalculation {
    fn back_calculate(&mut self, mut sel: Selected<'_>) -> Result<(), MaEsError> {
        let count = recompute_d(&mut sel);
        if count == 0 {
            return Ok(());
        }
        if self.solver.prepare(sel.m) == Prepared::Failed {
            return Ok(());
        }
        self.columns.clear();
        self.columns.extend(
            sel.changed
                .iter()
                .enumerate()
                .filter(|(_, &c)| c)
                .map(|(m, _)| m),
        );
        let mut block = self.block.slice_mut(s![.., 0..count]);
        for (b, &m) in self.columns.iter().enumerate() {
            block.column_mut(b).assign(&sel.d.column(m));
        }
        if self.solver.solve_in_place(block.view_mut()) {
            for (b, &m) in self.columns.iter().enumerate() {
                sel.z.column_mut(m).assign(&block.column(b));
            }
        }
        Ok(())
    }

    fn stats(&self) -> SolverStats {
        self.solver.stats()
    }
}
