//! How a run in progress is saved: its built-in components by value, its column-major
//! buffers in their memory order.

use crate::adaptation::{FrozenMatrix, MaUpdate, MatrixAdaptation};
use crate::back_calculation::{
    BackCalculation, IdentityBackCalculation, NoBackCalculation, PseudoInverseBackCalculation,
    PseudoInverseState,
};
use crate::ranking::{
    AugmentedLagrangianRanking, ByConstraintKindRanking, EpsilonLevelRanking, ObjectiveRanking,
    PopulationRanking, StochasticRanking,
};
use crate::repair::{LevenbergMarquardtRepair, NoRepair, PeriodicRepair, Repair};
use crate::spec::Components;
use crate::step_size::{
    CappedSigma, ConstantSigma, Csa, MedianSuccessRule, SigmaCap, StepSizeRule, UncappedSigma,
};
use constraint_handling::epsilon::{EpsilonDecay, EpsilonSchedule, ZeroEpsilon};
use serde::{de, ser, Deserialize, Deserializer, Serialize, Serializer};
use std::any::Any;

/// For each seam, the built-in components as an enum: saved by value (found by their
/// type), restored into their box.
macro_rules! seam {
    ($saved:ident, $object:ty, $($variant:ident($ty:ty)),+ $(,)?) => {
        // Short-lived values, built when a run is saved or restored.
        #[allow(clippy::large_enum_variant)]
        #[derive(Serialize, Deserialize)]
        #[serde(rename_all = "kebab-case")]
        enum $saved {
            $($variant($ty)),+
        }

        impl $saved {
            fn save(component: &$object) -> Option<Self> {
                let any: &dyn Any = component;
                $(
                    if let Some(c) = any.downcast_ref::<$ty>() {
                        return Some(Self::$variant(c.clone()));
                    }
                )+
                None
            }

            fn restore(self) -> Box<$object> {
                match self {
                    $(Self::$variant(c) => Box::new(c)),+
                }
            }
        }
    };
}

seam!(
    SavedRepair,
    dyn Repair,
    Off(NoRepair),
    Periodic(PeriodicRepair),
    LevenbergMarquardt(LevenbergMarquardtRepair)
);
seam!(
    SavedSigmaCap,
    dyn SigmaCap,
    Capped(CappedSigma),
    Uncapped(UncappedSigma)
);
seam!(
    SavedAdaptation,
    dyn MatrixAdaptation,
    Frozen(FrozenMatrix),
    Ma(MaUpdate)
);
seam!(
    SavedSchedule,
    dyn EpsilonSchedule + Send,
    Decay(EpsilonDecay),
    Zero(ZeroEpsilon)
);
seam!(
    SavedStepSize,
    dyn StepSizeRule,
    Csa(Csa),
    MedianSuccess(MedianSuccessRule),
    Constant(ConstantSigma)
);
seam!(
    SavedRanking,
    dyn PopulationRanking,
    EpsilonLevel(EpsilonLevelRanking),
    Objective(ObjectiveRanking),
    Stochastic(StochasticRanking),
    AugmentedLagrangian(AugmentedLagrangianRanking),
    ByConstraintKind(ByConstraintKindRanking),
);

/// The back-calculations (the pseudo-inverse's LAPACK workspace is set up anew).
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum SavedBackCalculation {
    Off(NoBackCalculation),
    Identity(IdentityBackCalculation),
    PseudoInverse(PseudoInverseState),
}

impl SavedBackCalculation {
    fn save(component: &dyn BackCalculation) -> Option<Self> {
        let any: &dyn Any = component;
        if let Some(c) = any.downcast_ref::<NoBackCalculation>() {
            return Some(Self::Off(*c));
        }
        if let Some(c) = any.downcast_ref::<IdentityBackCalculation>() {
            return Some(Self::Identity(*c));
        }
        any.downcast_ref::<PseudoInverseBackCalculation>()
            .map(|c| Self::PseudoInverse(c.state()))
    }

    fn restore(self) -> Result<Box<dyn BackCalculation>, crate::MaEsError> {
        Ok(match self {
            Self::Off(c) => Box::new(c),
            Self::Identity(c) => Box::new(c),
            Self::PseudoInverse(s) => Box::new(PseudoInverseBackCalculation::from_state(s)?),
        })
    }
}

/// [`Components`] by value.
#[derive(Serialize, Deserialize)]
struct SavedComponents {
    repair: SavedRepair,
    back_calculation: SavedBackCalculation,
    sigma_cap: SavedSigmaCap,
    adaptation: SavedAdaptation,
    schedule: SavedSchedule,
    step_size: SavedStepSize,
    ranking: SavedRanking,
}

/// `#[serde(with = "components")]` for [`Components`]: hand-made components (not
/// built-in) cannot be saved.
pub(crate) mod components {
    use super::*;

    fn missing<E: ser::Error>(seam: &str) -> E {
        E::custom(format!(
            "the run's {seam} component is not a built-in one: a run with hand-made components cannot be saved"
        ))
    }

    pub(crate) fn serialize<S: Serializer>(c: &Components, s: S) -> Result<S::Ok, S::Error> {
        SavedComponents {
            repair: SavedRepair::save(&*c.repair).ok_or_else(|| missing("repair"))?,
            back_calculation: SavedBackCalculation::save(&*c.back_calculation)
                .ok_or_else(|| missing("back-calculation"))?,
            sigma_cap: SavedSigmaCap::save(&*c.sigma_cap).ok_or_else(|| missing("σ cap"))?,
            adaptation: SavedAdaptation::save(&*c.adaptation)
                .ok_or_else(|| missing("matrix adaptation"))?,
            schedule: SavedSchedule::save(&*c.schedule).ok_or_else(|| missing("ε schedule"))?,
            step_size: SavedStepSize::save(&*c.step_size).ok_or_else(|| missing("step size"))?,
            ranking: SavedRanking::save(&*c.ranking).ok_or_else(|| missing("ranking"))?,
        }
        .serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Components, D::Error> {
        let c = SavedComponents::deserialize(d)?;
        Ok(Components {
            repair: c.repair.restore(),
            back_calculation: c.back_calculation.restore().map_err(de::Error::custom)?,
            sigma_cap: c.sigma_cap.restore(),
            adaptation: c.adaptation.restore(),
            schedule: c.schedule.restore(),
            step_size: c.step_size.restore(),
            ranking: c.ranking.restore(),
        })
    }
}

/// `#[serde(with = "column_major")]` for an `Array2<f64>` that must stay column-major:
/// its shape and its entries column after column.
pub(crate) mod column_major {
    use ndarray::{Array2, ShapeBuilder};
    use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

    pub(crate) fn serialize<S: Serializer>(a: &Array2<f64>, s: S) -> Result<S::Ok, S::Error> {
        let data: Vec<f64> = a.t().iter().copied().collect();
        (a.dim(), data).serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Array2<f64>, D::Error> {
        let (shape, data): ((usize, usize), Vec<f64>) = Deserialize::deserialize(d)?;
        Array2::from_shape_vec(shape.f(), data).map_err(de::Error::custom)
    }
}

/// A run's best-so-far, which holds a NaN placeholder until the initial population is
/// evaluated: saved with that placeholder as `null` (JSON has no NaN), restored as it
/// was.
pub(crate) mod best_so_far {
    use crate::result::Best;
    use constraint_handling::Snapshot;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// The placeholder of a run not yet initialised.
    pub(crate) fn placeholder() -> Snapshot {
        Snapshot::new(f64::NAN, f64::NAN).found_at(0)
    }

    fn is_placeholder(s: &Snapshot) -> bool {
        s.fitness.objective.is_nan() && s.fitness.violation.is_nan() && s.found_at == Some(0)
    }

    #[derive(Serialize, Deserialize)]
    struct Saved {
        y: Vec<f64>,
        constraints: Vec<f64>,
        snapshot: Option<Snapshot>,
    }

    pub(crate) fn serialize<S: Serializer>(best: &Best, s: S) -> Result<S::Ok, S::Error> {
        Saved {
            y: best.x.clone(),
            constraints: best.constraints.clone(),
            snapshot: (!is_placeholder(&best.snapshot)).then_some(best.snapshot),
        }
        .serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Best, D::Error> {
        let saved = Saved::deserialize(d)?;
        Ok(Best {
            x: saved.y,
            constraints: saved.constraints,
            snapshot: saved.snapshot.unwrap_or_else(placeholder),
        })
    }
}
