//! The text form `PRESET[:KEY=VALUE]…`: one table of keys ([`SPEC_KEYS`]) gives the
//! parser, the printer, the error messages, the command lines' help and the docs' table.

#![allow(clippy::wildcard_imports)]
use super::*;

impl ComponentSpec {
    /// The `(key, value)` pairs of the text form, in the order of [`SPEC_KEYS`].
    fn entries(&self) -> impl Iterator<Item = (&'static str, Cow<'static, str>)> + '_ {
        SPEC_KEYS.iter().map(|k| (k.name, (k.get)(self)))
    }

    /// Sets `key` to `value` (the text form's names).
    fn set(&mut self, key: &str, value: &str) -> Result<(), SpecError> {
        let Some(k) = SPEC_KEYS.iter().find(|k| k.name == key) else {
            let names: Vec<&str> = SPEC_KEYS.iter().map(|k| k.name).collect();
            return Err(SpecError::Component(format!(
                "{key}={value}: unknown key; the keys are {}",
                names.join(", ")
            )));
        };
        (k.set)(self, value).ok_or_else(|| {
            SpecError::Component(format!("{key}={value}: expected {}", (k.values)()))
        })
    }
}

/// One `KEY=VALUE` of a [`ComponentSpec`]'s text form: its name, the values it takes,
/// what it chooses, and how it reads and prints. The parser, the printer, the error
/// messages, the command lines' help and the docs' table ([`spec_keys_markdown`]) all
/// come from [`SPEC_KEYS`]: a new key is one entry there (and its field).
pub struct SpecKey {
    /// The key.
    pub name: &'static str,
    /// What it chooses.
    pub help: &'static str,
    /// The values it takes, as the help and the error messages list them.
    pub values: fn() -> String,
    get: fn(&ComponentSpec) -> Cow<'static, str>,
    set: fn(&mut ComponentSpec, &str) -> Option<()>,
}

impl fmt::Debug for SpecKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SpecKey")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// The names of a kind's values in the text form.
type Names<T> = &'static [(&'static str, T)];

const ON_OFF: Names<bool> = &[("on", true), ("off", false)];
const REPAIRS: Names<Option<RepairMethod>> = &[
    ("on", Some(RepairMethod::Gradient)),
    ("off", None),
    (
        "levenberg-marquardt",
        Some(RepairMethod::LevenbergMarquardt),
    ),
];
const BACK_CALCULATIONS: Names<BackCalculationKind> = &[
    ("off", BackCalculationKind::Off),
    ("pseudo-inverse", BackCalculationKind::PseudoInverse),
    ("identity", BackCalculationKind::Identity),
];
const ORDERINGS: Names<OrderingKind> = &[
    ("epsilon-level", OrderingKind::EpsilonLevel),
    ("lexicographic", OrderingKind::Lexicographic),
];
const STEP_SIZES: Names<StepSizeKind> = &[
    ("csa", StepSizeKind::Csa),
    ("median-success", StepSizeKind::MedianSuccess),
    ("constant", StepSizeKind::Constant),
];
const RANKINGS: Names<RankingKind> = &[
    ("epsilon-level", RankingKind::EpsilonLevel),
    ("objective", RankingKind::Objective),
    ("stochastic", RankingKind::Stochastic),
    ("augmented-lagrangian", RankingKind::AugmentedLagrangian),
    ("by-constraint-kind", RankingKind::ByConstraintKind),
];
const RESTARTS: Names<RestartKind> = &[
    ("off", RestartKind::Off),
    ("ipop", RestartKind::Ipop),
    ("bipop", RestartKind::Bipop),
];
const POPULATIONS: Names<PopulationKind> = &[
    ("paper", PopulationKind::Paper),
    ("log", PopulationKind::Log),
];
const JACOBIANS: Names<JacobianUse> = &[
    ("offered", JacobianUse::Offered),
    ("differences", JacobianUse::Differences),
];

const LM_SCALINGS: Names<Scaling> = &[("none", Scaling::None), ("box", Scaling::Box)];
const LM_SOLVES: Names<Solve> = &[("reduced", Solve::Reduced), ("full", Solve::Full)];

const STALLS: Names<StallKind> = &[
    ("stagnation", StallKind::Stagnation),
    ("tolfun", StallKind::TolFun),
    ("range", StallKind::Range),
    ("progress", StallKind::Progress),
];

/// The name of `value`.
fn name_of<T: PartialEq>(names: Names<T>, value: T) -> Cow<'static, str> {
    Cow::Borrowed(
        names
            .iter()
            .find(|(_, v)| *v == value)
            .map_or("?", |(n, _)| n),
    )
}

/// The value named `text`.
fn value_of<T: Copy>(names: Names<T>, text: &str) -> Option<T> {
    names.iter().find(|(n, _)| *n == text).map(|&(_, v)| v)
}

/// `word` for `None`, else the count.
fn count_or_word(count: Option<u32>, word: &'static str) -> Cow<'static, str> {
    count.map_or(Cow::Borrowed(word), |c| Cow::Owned(c.to_string()))
}

/// `Some(None)` for `word`, `Some(Some(c))` for a positive count `c`, else `None`.
fn word_or_count(text: &str, word: &str) -> Option<Option<u32>> {
    if text == word {
        return Some(None);
    }
    text.parse().ok().filter(|&c| c > 0).map(Some)
}

/// `a, b or c`.
fn listed<T>(names: Names<T>) -> String {
    let names: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

/// `p%` with `p` in 1–100.
fn percentage(text: &str) -> Option<u8> {
    match text.strip_suffix('%').map(str::parse::<u8>) {
        Some(Ok(p)) if (1..=100).contains(&p) => Some(p),
        _ => None,
    }
}

/// The keys of the text form, in the order the canonical form prints them.
pub const SPEC_KEYS: &[SpecKey] = &[
    SpecKey {
        name: "repair",
        help: "the periodic repair (step 3.3): the paper's gradient repair (on), or the Levenberg–Marquardt repair on the slack system",
        values: || listed(REPAIRS),
        get: |s| {
            name_of(
                REPAIRS,
                s.components.repair.then_some(s.components.repair_method),
            )
        },
        set: |s, v| {
            value_of(REPAIRS, v).map(|x| {
                s.components.repair = x.is_some();
                s.components.repair_method = x.unwrap_or_default();
            })
        },
    },
    SpecKey {
        name: "lm-frequency",
        help: "the Levenberg–Marquardt repair's generations between repair generations",
        values: || "n (the dimension) or a number of generations".into(),
        get: |s| count_or_word(s.components.lm.frequency, "n"),
        set: |s, v| word_or_count(v, "n").map(|g| s.components.lm.frequency = g),
    },
    SpecKey {
        name: "lm-probability",
        help: "the Levenberg–Marquardt repair's probability per offspring",
        values: || "a share, 1% to 100%".into(),
        get: |s| Cow::Owned(format!("{}%", s.components.lm.probability)),
        set: |s, v| percentage(v).map(|p| s.components.lm.probability = p),
    },
    SpecKey {
        name: "lm-iterations",
        help: "the Levenberg–Marquardt repair's most iterations per offspring",
        values: || "a number of iterations".into(),
        get: |s| Cow::Owned(s.components.lm.iterations.to_string()),
        set: |s, v| {
            s.components.lm.iterations = v.parse().ok().filter(|&t| t > 0)?;
            Some(())
        },
    },
    SpecKey {
        name: "lm-best",
        help: "whether the Levenberg–Marquardt repair also repairs the infeasible best-so-far (SASS's rule: N ≥ 20, equalities)",
        values: || listed(ON_OFF),
        get: |s| name_of(ON_OFF, s.components.lm.best),
        set: |s, v| value_of(ON_OFF, v).map(|x| s.components.lm.best = x),
    },
    SpecKey {
        name: "lm-best-iterations",
        help: "the Levenberg–Marquardt repair's most iterations for the best-so-far (lm-best=on)",
        values: || "same (as lm-iterations) or a number of iterations".into(),
        get: |s| count_or_word(s.components.lm.best_iterations, "same"),
        set: |s, v| word_or_count(v, "same").map(|t| s.components.lm.best_iterations = t),
    },
    SpecKey {
        name: "lm-scaling",
        help: "the units of the Levenberg–Marquardt step: the variables' own (none, SASS's) or the box's widths (box)",
        values: || listed(LM_SCALINGS),
        get: |s| name_of(LM_SCALINGS, s.components.lm.scaling),
        set: |s, v| value_of(LM_SCALINGS, v).map(|x| s.components.lm.scaling = x),
    },
    SpecKey {
        name: "lm-solve",
        help: "how the Levenberg–Marquardt step's linear system is solved: the slacks eliminated (reduced, min(N, constraints) unknowns) or the whole slack system (full; the path of the studies run before 2026-11-29, which replay with it)",
        values: || listed(LM_SOLVES),
        get: |s| name_of(LM_SOLVES, s.components.lm.solve),
        set: |s, v| value_of(LM_SOLVES, v).map(|x| s.components.lm.solve = x),
    },
    SpecKey {
        name: "jacobian",
        help: "the repairs' constraint Jacobian: the problem's own where it offers one, or forward differences always (a black-box run)",
        values: || listed(JACOBIANS),
        get: |s| name_of(JACOBIANS, s.jacobian),
        set: |s, v| value_of(JACOBIANS, v).map(|x| s.jacobian = x),
    },
    SpecKey {
        name: "back-calculation",
        help: "the back-calculation of the selected z (step 3.4)",
        values: || listed(BACK_CALCULATIONS),
        get: |s| name_of(BACK_CALCULATIONS, s.components.back_calculation),
        set: |s, v| value_of(BACK_CALCULATIONS, v).map(|x| s.components.back_calculation = x),
    },
    SpecKey {
        name: "sigma-cap",
        help: "σ ≤ σ_max (step 9)",
        values: || listed(ON_OFF),
        get: |s| name_of(ON_OFF, s.components.sigma_cap),
        set: |s, v| value_of(ON_OFF, v).map(|x| s.components.sigma_cap = x),
    },
    SpecKey {
        name: "matrix-adaptation",
        help: "adapt M (else M stays I; steps 7–8)",
        values: || listed(ON_OFF),
        get: |s| name_of(ON_OFF, s.components.matrix_adaptation),
        set: |s, v| value_of(ON_OFF, v).map(|x| s.components.matrix_adaptation = x),
    },
    SpecKey {
        name: "ordering",
        help: "the threshold schedule: ε-level, or ε ≡ 0",
        values: || listed(ORDERINGS),
        get: |s| name_of(ORDERINGS, s.components.ordering),
        set: |s, v| value_of(ORDERINGS, v).map(|x| s.components.ordering = x),
    },
    SpecKey {
        name: "step-size",
        help: "the step-size rule (step 9)",
        values: || listed(STEP_SIZES),
        get: |s| name_of(STEP_SIZES, s.components.step_size),
        set: |s, v| value_of(STEP_SIZES, v).map(|x| s.components.step_size = x),
    },
    SpecKey {
        name: "ranking",
        help: "how the offspring are ranked (step 4)",
        values: || listed(RANKINGS),
        get: |s| name_of(RANKINGS, s.components.ranking),
        set: |s, v| value_of(RANKINGS, v).map(|x| s.components.ranking = x),
    },
    SpecKey {
        name: "restarts",
        help: "restart a stalled run (IPOP, BIPOP) on the budget left",
        values: || listed(RESTARTS),
        get: |s| name_of(RESTARTS, s.restart.kind),
        set: |s, v| value_of(RESTARTS, v).map(|x| s.restart.kind = x),
    },
    SpecKey {
        name: "population",
        help: "the default λ: 4N (paper) or 4 + ⌊3 ln N⌋ (log)",
        values: || listed(POPULATIONS),
        get: |s| name_of(POPULATIONS, s.components.population),
        set: |s, v| value_of(POPULATIONS, v).map(|x| s.components.population = x),
    },
    SpecKey {
        name: "stall",
        help: "when a run of a restart sequence counts as stalled",
        values: || listed(STALLS),
        get: |s| name_of(STALLS, s.restart.stall),
        set: |s, v| value_of(STALLS, v).map(|x| s.restart.stall = x),
    },
    SpecKey {
        name: "eps-end",
        help: "where the ε schedule ends: t_max, or a share of the run's generations",
        values: || "t-max or a share of the run's generations, 1% to 100%".into(),
        get: |s| match s.epsilon_end {
            EpsilonEnd::TMax => Cow::Borrowed("t-max"),
            EpsilonEnd::Share(p) => Cow::Owned(format!("{p}%")),
        },
        set: |s, v| {
            s.epsilon_end = match v {
                "t-max" => EpsilonEnd::TMax,
                share => EpsilonEnd::Share(percentage(share)?),
            };
            Some(())
        },
    },
    SpecKey {
        name: "polish",
        help: "polish the best-so-far once this share of the budget is left (restarts)",
        values: || "off or a share of the budget, 1% to 100%".into(),
        get: |s| match s.restart.polish {
            Polish::Off => Cow::Borrowed("off"),
            Polish::Share(p) => Cow::Owned(format!("{p}%")),
        },
        set: |s, v| {
            s.restart.polish = match v {
                "off" => Polish::Off,
                share => Polish::Share(percentage(share)?),
            };
            Some(())
        },
    },
    SpecKey {
        name: "opening",
        help: "the ranking of a restart sequence's first run",
        values: || format!("same or a ranking ({})", listed(RANKINGS)),
        get: |s| {
            s.restart.opening
                .map_or(Cow::Borrowed("same"), |r| name_of(RANKINGS, r))
        },
        set: |s, v| {
            s.restart.opening = match v {
                "same" => None,
                name => Some(value_of(RANKINGS, name)?),
            };
            Some(())
        },
    },
    SpecKey {
        name: "tol-fun",
        help: "stop once converged in f and ν̄ (ma_es::control; default: the driver's)",
        values: || "driver or a tolerance ≥ 0 (0: off), e.g. 1e-11".into(),
        get: |s| number(s.convergence.tol_fun),
        set: |s, v| tolerance(v).map(|t| s.convergence.tol_fun = t),
    },
    SpecKey {
        name: "tol-x",
        help: "stop once every coordinate's step σ √((M Mᵀ)_ii) is below it",
        values: || "driver or a tolerance ≥ 0 (0: off), e.g. 1e-11".into(),
        get: |s| number(s.convergence.tol_x),
        set: |s, v| tolerance(v).map(|t| s.convergence.tol_x = t),
    },
    SpecKey {
        name: "target",
        help: "stop once a feasible best-so-far reaches f ≤ target",
        values: || "driver or a number".into(),
        get: |s| number(s.convergence.target),
        set: |s, v| {
            s.convergence.target = match v {
                "driver" => None,
                v => Some(SpecNumber(v.parse::<f64>().ok().filter(|t| !t.is_nan())?)),
            };
            Some(())
        },
    },
    SpecKey {
        name: "stagnation",
        help: "stop after this many generations without improvement (once ε = 0)",
        values: || "driver or a number of generations (0: off)".into(),
        get: |s| {
            s.convergence
                .stagnation
                .map_or(Cow::Borrowed("driver"), |g| Cow::Owned(g.to_string()))
        },
        set: |s, v| {
            s.convergence.stagnation = match v {
                "driver" => None,
                v => Some(v.parse().ok()?),
            };
            Some(())
        },
    },
];

/// A spec number's text, `driver` for none.
fn number(v: Option<SpecNumber>) -> Cow<'static, str> {
    v.map_or(Cow::Borrowed("driver"), |v| Cow::Owned(v.to_string()))
}

/// `driver` (none) or a finite tolerance ≥ 0.
fn tolerance(text: &str) -> Option<Option<SpecNumber>> {
    if text == "driver" {
        return Some(None);
    }
    let v: f64 = text.parse().ok()?;
    (v.is_finite() && v >= 0.0).then_some(Some(SpecNumber(v)))
}

/// The keys as a Markdown table (key, values, what it chooses), for the docs and the
/// command lines' help.
#[must_use]
pub fn spec_keys_markdown() -> String {
    let mut out = String::from("| key | values | chooses |\n|---|---|---|\n");
    for k in SPEC_KEYS {
        out.push_str(&format!(
            "| `{}` | {} | {} |\n",
            k.name,
            (k.values)(),
            k.help
        ));
    }
    out
}

impl fmt::Display for ComponentSpec {
    /// The preset's name, or `eps-mag-es` followed by `:key=value` for every component
    /// that differs from it (a canonical form: equal specs print alike).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(v) = self.preset() {
            return f.write_str(v.name());
        }
        f.write_str(Variant::EpsMagEs.name())?;
        let base = Variant::EpsMagEs.spec();
        for ((key, value), (_, default)) in self.entries().zip(base.entries()) {
            if value != default {
                write!(f, ":{key}={value}")?;
            }
        }
        Ok(())
    }
}

impl FromStr for ComponentSpec {
    type Err = SpecError;

    /// `PRESET[:KEY=VALUE]…`: a preset (any name [`Variant`] parses) with components
    /// changed, e.g. `lex-ma-es:step-size=constant`. The keys and their values are
    /// [`SPEC_KEYS`] (as a table: [`spec_keys_markdown`], and docs/architecture.md).
    ///
    /// A [`STRATEGIES`] name stands for its spec in the same place:
    /// `eps-mag-es-r:polish=off` is εMAg-ES-R without its polishing end.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut parts = s.trim().split(':');
        let name = parts.next().unwrap_or_default().trim();
        let mut spec = match STRATEGIES
            .iter()
            .find(|(n, _, _)| n.eq_ignore_ascii_case(name))
        {
            Some((_, _, components)) => components.parse()?,
            None => name.parse::<Variant>()?.spec(),
        };
        for part in parts {
            let (key, value) = part.split_once('=').ok_or_else(|| {
                SpecError::Component(format!("{part:?}: expected KEY=VALUE after a ':'"))
            })?;
            spec.set(key.trim(), value.trim())?;
        }
        Ok(spec)
    }
}

/// A component spec that does not parse: an unknown preset name, or a `KEY=VALUE` with
/// an unknown key or value.
///
/// ```
/// use ma_es::ComponentSpec;
/// let e = "eps-mag-es:restart=bipop".parse::<ComponentSpec>().unwrap_err();
/// assert!(e.to_string().starts_with("component spec: restart=bipop: unknown key; the keys are repair"));
/// let e = "cma-es".parse::<ComponentSpec>().unwrap_err();
/// assert!(e.to_string().starts_with("unknown variant \"cma-es\""));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// The preset (or strategy) name is unknown.
    #[error(transparent)]
    Variant(#[from] UnknownVariant),
    /// A `KEY=VALUE` part is wrong: the message names it and what was expected.
    #[error("component spec: {0}")]
    Component(String),
}

/// An unknown variant name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant {0:?}; the presets are eps-mag-es, eps-ma-es, eps-mag-es-wo, eps-mag-es-nl, eps-sag-es, lex-mag-es, lex-ma-es, and the strategies eps-mag-es-r and eps-mag-es-rlm")]
pub struct UnknownVariant(pub String);

#[cfg(test)]
mod tests {
    use super::*;

    /// One name per value: every kind's serde name is its text form's name (a saved
    /// spec and a spec string say the same word).
    #[test]
    fn serde_and_the_text_form_name_every_value_alike() {
        fn check<T: Serialize + Copy>(names: Names<T>) -> usize {
            for (name, value) in names {
                let serde_name = serde_json::to_value(value).unwrap();
                assert_eq!(serde_name, serde_json::Value::from(*name), "{name}");
            }
            names.len()
        }
        let checked = check(BACK_CALCULATIONS)
            + check(ORDERINGS)
            + check(STEP_SIZES)
            + check(RANKINGS)
            + check(RESTARTS)
            + check(POPULATIONS)
            + check(JACOBIANS)
            + check(LM_SCALINGS)
            + check(LM_SOLVES)
            + check(STALLS);
        assert_eq!(checked, 3 + 2 + 3 + 5 + 3 + 2 + 2 + 2 + 2 + 4);
        // The old serde name of the stall rule still reads.
        let old: StallKind = serde_json::from_str("\"tol-fun\"").unwrap();
        assert_eq!(old, StallKind::TolFun);
    }
}
