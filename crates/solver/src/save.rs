//! Saved runs in JSON that keep every bit: [`to_json`] and [`from_json`].
//!
//! A run in progress (any solver of the workspace) serialises with serde between a
//! tell and the next ask, and the restored value continues bit for bit — provided
//! every number reads back as the number written. `serde_json` parses with a fast
//! algorithm by default that may read a number back one unit in the last place off;
//! its `float_roundtrip` feature makes it exact. This crate depends on `serde_json`
//! with that feature, and Cargo unifies features, so every `serde_json` in a program
//! that links this crate reads floats exactly; [`to_json`] and [`from_json`] also check
//! it once, and refuse rather than lose bits.

use serde::de::DeserializeOwned;
use serde::Serialize;
use std::sync::OnceLock;

/// A run that could not be saved or restored.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SaveError {
    /// JSON could not be written or read.
    #[error("saved run: {0}")]
    Json(#[from] serde_json::Error),
    /// `serde_json` does not read numbers back exactly.
    #[error(
        "saved run: serde_json reads {0:e} back as {1:e}: enable its `float_roundtrip` feature"
    )]
    Rounding(f64, f64),
}

/// `value` (a run in progress, a plan, an outcome) as JSON that reads back bit for bit.
///
/// ```
/// let x = [0.1 + 0.2, 1.0 / 3.0, 2.2250738585072014e-308];
/// let text = emages_solver::save::to_json(&x).unwrap();
/// let back: [f64; 3] = emages_solver::save::from_json(&text).unwrap();
/// assert_eq!(x.map(f64::to_bits), back.map(f64::to_bits));
/// ```
///
/// # Errors
/// [`SaveError`] if serde cannot write the value, or numbers would not read back.
pub fn to_json<T: Serialize + ?Sized>(value: &T) -> Result<String, SaveError> {
    exact()?;
    Ok(serde_json::to_string(value)?)
}

/// A value saved by [`to_json`].
///
/// # Errors
/// [`SaveError`] for text that is not such a value.
pub fn from_json<T: DeserializeOwned>(text: &str) -> Result<T, SaveError> {
    exact()?;
    Ok(serde_json::from_str(text)?)
}

/// Whether `serde_json` reads numbers back exactly (checked once, on a number the fast
/// path reads one unit off).
fn exact() -> Result<(), SaveError> {
    static CHECK: OnceLock<Option<(f64, f64)>> = OnceLock::new();
    let failure = CHECK.get_or_init(|| {
        for x in PROBES {
            let back: f64 = serde_json::from_str(&serde_json::to_string(&x).ok()?).ok()?;
            if back.to_bits() != x.to_bits() {
                return Some((x, back));
            }
        }
        None
    });
    match failure {
        Some((x, back)) => Err(SaveError::Rounding(*x, *back)),
        None => Ok(()),
    }
}

/// Numbers that `serde_json`'s default parser (1.0.154, without `float_roundtrip`)
/// reads back one unit in the last place off.
const PROBES: [f64; 3] = [
    -1.300_468_579_850_834_7e-11,
    -3.511_026_241_839_400_4e-156,
    3.373_397_732_923_520_3e-152,
];

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Every one of 100 000 numbers spread over the exponent range reads back bit for
    /// bit: the test that fails when `serde_json` parses numbers with its fast, inexact
    /// path (without `float_roundtrip`, 30 663 of these).
    #[test]
    fn numbers_read_back_bit_for_bit() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        let mut checked = 0;
        for _ in 0..100_000 {
            let x = f64::from_bits(rng.random::<u64>() >> 2)
                * if rng.random::<bool>() { 1.0 } else { -1.0 };
            if !x.is_finite() {
                continue;
            }
            let back: f64 = from_json(&to_json(&x).unwrap()).unwrap();
            assert_eq!(back.to_bits(), x.to_bits(), "{x:e}");
            checked += 1;
        }
        assert!(checked > 90_000);
        println!("{checked} numbers read back bit for bit");
    }
}
