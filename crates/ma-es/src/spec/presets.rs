//! The paper's seven variants ([`Variant`]) and the strategies designed from their
//! components ([`STRATEGIES`]).

#![allow(clippy::wildcard_imports)]
use super::*;

/// Strategies beyond the paper's seven, designed from its components: `(name,
/// label, spec)`. [`ComponentSpec`]'s parser reads the name as the spec; a study's
/// records carry the spec's canonical text form.
///
/// - **εMAg-ES-R** (`eps-mag-es-r`): εMAg-ES restarted by BIPOP ([`crate::restarts`]),
///   each run's ε ending at 10 % of its generations, a run stalled once its offspring's
///   `f` range falls below `10⁻¹² |f|`, and the last half of the budget spent polishing
///   the best-so-far. docs/strategy-design.md (entry 13) says how it was chosen.
///
/// - **εMAg-ES-RLM** (`eps-mag-es-rlm`): εMAg-ES-R with the
///   Levenberg–Marquardt repair ([`crate::repair::LevenbergMarquardtRepair`]) in place of
///   the gradient repair: every generation, a fifth of the infeasible offspring and the
///   infeasible best-so-far (N ≥ 20, equalities), at most 4 iterations, the step in units
///   of the box's widths. Made for problems that offer their constraint Jacobian
///   ([`constraint_handling::ConstrainedProblem::constraint_jacobian`]): by forward
///   differences each iteration costs `N + 1` evaluations, and it lost to εMAg-ES-R as a
///   black box (docs/strategy-design.md, entries 19 and 21).
///
/// ```
/// use ma_es::variant::{RepairMethod, RestartKind, STRATEGIES};
/// use ma_es::ComponentSpec;
/// let r: ComponentSpec = "eps-mag-es-r".parse().unwrap();
/// assert_eq!(r.restart.kind, RestartKind::Bipop);
/// assert_eq!(r.to_string(), STRATEGIES[0].2);
/// let rlm: ComponentSpec = "eps-mag-es-rlm".parse().unwrap();
/// assert_eq!(rlm.components.repair_method, RepairMethod::LevenbergMarquardt);
/// assert_eq!(rlm.restart, r.restart);
/// assert_eq!(rlm.to_string(), STRATEGIES[1].2);
/// ```
pub const STRATEGIES: [(&str, &str, &str); 2] = [
    (
        "eps-mag-es-r",
        "εMAg-ES-R",
        "eps-mag-es:restarts=bipop:stall=range:eps-end=10%:polish=50%",
    ),
    (
        "eps-mag-es-rlm",
        "εMAg-ES-RLM",
        "eps-mag-es:repair=levenberg-marquardt:lm-frequency=1:lm-best=on:lm-scaling=box:restarts=bipop:stall=range:eps-end=10%:polish=50%",
    ),
];

/// The seven variants of the paper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// εMAg-ES: every component (the baseline of the paper's comparisons).
    EpsMagEs,
    /// εMA-ES: without the gradient repair.
    EpsMaEs,
    /// εMAg-ES w/o: without back-calculation.
    EpsMagEsWo,
    /// εMAg-ES nl: without the σ cap.
    EpsMagEsNl,
    /// εSAg-ES: without matrix adaptation (`M = I`).
    EpsSagEs,
    /// lexMAg-ES: lexicographic instead of ε-level ordering.
    LexMagEs,
    /// lexMA-ES: lexicographic ordering and no repair.
    LexMaEs,
}

impl Variant {
    /// All seven, baseline first, in the paper's order.
    pub const ALL: [Variant; 7] = [
        Variant::EpsMagEs,
        Variant::EpsMaEs,
        Variant::EpsMagEsWo,
        Variant::EpsMagEsNl,
        Variant::EpsSagEs,
        Variant::LexMagEs,
        Variant::LexMaEs,
    ];

    /// The preset name (`eps-mag-es`, …).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::EpsMagEs => "eps-mag-es",
            Self::EpsMaEs => "eps-ma-es",
            Self::EpsMagEsWo => "eps-mag-es-wo",
            Self::EpsMagEsNl => "eps-mag-es-nl",
            Self::EpsSagEs => "eps-sag-es",
            Self::LexMagEs => "lex-mag-es",
            Self::LexMaEs => "lex-ma-es",
        }
    }

    /// The paper's label (`εMAg-ES`, …), for tables.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Self::EpsMagEs => "εMAg-ES",
            Self::EpsMaEs => "εMA-ES",
            Self::EpsMagEsWo => "εMAg-ES w/o",
            Self::EpsMagEsNl => "εMAg-ES nl",
            Self::EpsSagEs => "εSAg-ES",
            Self::LexMagEs => "lexMAg-ES",
            Self::LexMaEs => "lexMA-ES",
        }
    }

    /// The reference implementation's name (`epsMAgES`, …), as in the replay fixtures.
    #[must_use]
    pub fn reference_name(self) -> &'static str {
        match self {
            Self::EpsMagEs => "epsMAgES",
            Self::EpsMaEs => "epsMAES",
            Self::EpsMagEsWo => "epsMAgESwo",
            Self::EpsMagEsNl => "epsMAgESnl",
            Self::EpsSagEs => "epsSAgES",
            Self::LexMagEs => "lexMAgES",
            Self::LexMaEs => "lexMAES",
        }
    }

    /// The components of this variant.
    #[must_use]
    pub fn spec(self) -> ComponentSpec {
        let full = ComponentSpec::default();
        let with = |components| ComponentSpec { components, ..full };
        let c = full.components;
        match self {
            Self::EpsMagEs => full,
            Self::EpsMaEs => with(ComponentChoice { repair: false, ..c }),
            Self::EpsMagEsWo => with(ComponentChoice {
                back_calculation: BackCalculationKind::Off,
                ..c
            }),
            Self::EpsMagEsNl => with(ComponentChoice {
                sigma_cap: false,
                ..c
            }),
            Self::EpsSagEs => with(ComponentChoice {
                back_calculation: BackCalculationKind::Identity,
                matrix_adaptation: false,
                ..c
            }),
            Self::LexMagEs => with(ComponentChoice {
                ordering: OrderingKind::Lexicographic,
                ..c
            }),
            Self::LexMaEs => with(ComponentChoice {
                repair: false,
                ordering: OrderingKind::Lexicographic,
                ..c
            }),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// Parses a preset name, the reference name or the paper's label (case-insensitive).
    ///
    /// ```
    /// use ma_es::Variant;
    /// assert_eq!("eps-mag-es".parse::<Variant>().unwrap(), Variant::EpsMagEs);
    /// assert_eq!("epsMAgESwo".parse::<Variant>().unwrap(), Variant::EpsMagEsWo);
    /// assert_eq!("lexMA-ES".parse::<Variant>().unwrap(), Variant::LexMaEs);
    /// assert!("cma-es".parse::<Variant>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim();
        Variant::ALL
            .into_iter()
            .find(|v| {
                [v.name(), v.reference_name(), v.label()]
                    .iter()
                    .any(|n| n.eq_ignore_ascii_case(wanted))
            })
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}
