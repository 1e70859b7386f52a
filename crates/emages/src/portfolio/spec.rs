//! The text form of [`Options`]: `portfolio[:KEY=VALUE]…`, the keys of
//! [`SPEC_KEYS`] — how studies, the command line and Python name a portfolio, as
//! `ma_es::ComponentSpec`'s text form names an ES.
//!
//! ```
//! use emages::Options;
//! let options: Options = "portfolio:confirmations=0:soc=off".parse()?;
//! assert_eq!(options.settings().confirmations, 0);
//! assert!(!options.settings().sqp.second_order_correction);
//! // Only what differs from the recommended strategy is written, in the table's order.
//! assert_eq!(options.to_string(), "portfolio:confirmations=0:soc=off");
//! assert_eq!(Options::recommended().to_string(), "portfolio");
//! assert!("portfolio:colour=red".parse::<Options>().is_err());
//! # Ok::<(), emages::Error>(())
//! ```

use crate::error::Error;
use crate::portfolio::Options;
use std::fmt;
use std::str::FromStr;

/// A key of the text form: its name, what it sets, and what a value must be.
#[derive(Clone, Copy, Debug)]
pub struct SpecKey {
    /// The key.
    pub key: &'static str,
    /// What it sets.
    pub sets: &'static str,
    /// What a value must be.
    pub values: &'static str,
}

/// The keys of the text form, in the order [`Options`]' `Display` writes them.
pub const SPEC_KEYS: [SpecKey; 18] = [
    SpecKey {
        key: "confirmations",
        sets: "PortfolioSettings::confirmations (0: run to the budget)",
        values: "a whole number",
    },
    SpecKey {
        key: "margin",
        sets: "the equality margin δ the run holds (Options::equality_margin)",
        values: "a number >= 0, or `problem` (the problem's own)",
    },
    SpecKey {
        key: "target",
        sets: "PortfolioSettings::target",
        values: "a number",
    },
    SpecKey {
        key: "nan-last",
        sets: "PortfolioSettings::nan_last",
        values: "on or off",
    },
    SpecKey {
        key: "curvature",
        sets: "SqpSettings::curvature_steering",
        values: "on or off",
    },
    SpecKey {
        key: "soc",
        sets: "SqpSettings::second_order_correction",
        values: "on or off",
    },
    SpecKey {
        key: "bound",
        sets: "PortfolioSettings::bound_local_runs",
        values: "on or off",
    },
    SpecKey {
        key: "warm",
        sets: "PortfolioSettings::warm_curvature",
        values: "on or off",
    },
    SpecKey {
        key: "patience",
        sets: "PortfolioSettings::patience",
        values: "on or off",
    },
    SpecKey {
        key: "early",
        sets: "PortfolioSettings::confirm_early",
        values: "on or off",
    },
    SpecKey {
        key: "speculate",
        sets: "SqpSettings::speculative_probes",
        values: "on or off",
    },
    SpecKey {
        key: "scale-cap",
        sets: "SqpSettings::capped_first_scale",
        values: "on or off",
    },
    SpecKey {
        key: "decrease",
        sets: "SqpSettings::decrease_tolerance (0: off)",
        values: "a number >= 0",
    },
    SpecKey {
        key: "es-budget",
        sets: "PortfolioSettings::es_budget_per_dim",
        values: "a positive whole number",
    },
    SpecKey {
        key: "initial-share",
        sets: "PortfolioSettings::initial_share",
        values: "a number in [0, 1]",
    },
    SpecKey {
        key: "max-share",
        sets: "PortfolioSettings::max_share",
        values: "a number in [0, 1]",
    },
    SpecKey {
        key: "sqp-margin",
        sets: "SqpSettings::margin (the local phase's back-off)",
        values: "a number >= 0",
    },
    SpecKey {
        key: "accuracy",
        sets: "SqpSettings::accuracy (the back-off scaled down to it)",
        values: "a number > 0, or `off`",
    },
];

/// The name of the text form.
pub const NAME: &str = "portfolio";

impl FromStr for Options {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self, Error> {
        let mut parts = text.split(':');
        if parts.next() != Some(NAME) {
            return Err(Error::Settings(format!(
                "{text:?}: a portfolio is named `portfolio[:KEY=VALUE]…`"
            )));
        }
        let mut options = Options::recommended();
        for part in parts {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| Error::Settings(format!("{text:?}: `{part}` is not KEY=VALUE")))?;
            options = set(options, key, value)
                .map_err(|why| Error::Settings(format!("{text:?}: {key}={value}: {why}")))?;
        }
        options.settings().validate()?;
        Ok(options)
    }
}

/// `options` with `key` set to `value`, or why not.
fn set(mut options: Options, key: &str, value: &str) -> Result<Options, String> {
    let expected = |k: &str| {
        SPEC_KEYS
            .iter()
            .find(|s| s.key == k)
            .map_or("", |s| s.values)
    };
    let number = || {
        value
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| expected(key).to_string())
    };
    let whole = || {
        value
            .parse::<usize>()
            .map_err(|_| expected(key).to_string())
    };
    let switch = || match value {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(expected(key).to_string()),
    };
    let mut settings = options.settings().clone();
    match key {
        "confirmations" => settings.confirmations = whole()?,
        "margin" => {
            options = options.equality_margin(match value {
                "problem" => None,
                _ => Some(number()?),
            });
        }
        "target" => settings.target = Some(number()?),
        "nan-last" => settings.nan_last = switch()?,
        "curvature" => settings.sqp.curvature_steering = switch()?,
        "soc" => settings.sqp.second_order_correction = switch()?,
        "bound" => settings.bound_local_runs = switch()?,
        "warm" => settings.warm_curvature = switch()?,
        "patience" => settings.patience = switch()?,
        "early" => settings.confirm_early = switch()?,
        "speculate" => settings.sqp.speculative_probes = switch()?,
        "scale-cap" => settings.sqp.capped_first_scale = switch()?,
        "decrease" => settings.sqp.decrease_tolerance = number()?,
        "es-budget" => settings.es_budget_per_dim = whole()?,
        "initial-share" => settings.initial_share = number()?,
        "max-share" => settings.max_share = number()?,
        "sqp-margin" => settings.sqp.margin = number()?,
        "accuracy" => {
            settings.sqp.accuracy = match value {
                "off" => None,
                _ => Some(
                    Some(number()?)
                        .filter(|a| *a > 0.0)
                        .ok_or_else(|| expected(key).to_string())?,
                ),
            }
        }
        _ => {
            let known: Vec<_> = SPEC_KEYS.iter().map(|s| s.key).collect();
            return Err(format!("unknown key (known: {})", known.join(", ")));
        }
    }
    Ok(options.with_settings(settings))
}

impl fmt::Display for Options {
    /// `portfolio` and the keys whose values differ from the recommended strategy's
    /// (the budget, seed and start are not part of the text form).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let base = Options::recommended();
        let (s, b) = (self.settings(), base.settings());
        let on = |x: bool| if x { "on" } else { "off" };
        f.write_str(NAME)?;
        if s.confirmations != b.confirmations {
            write!(f, ":confirmations={}", s.confirmations)?;
        }
        if self.equality_margin_value() != base.equality_margin_value() {
            match self.equality_margin_value() {
                Some(m) => write!(f, ":margin={m:e}")?,
                None => f.write_str(":margin=problem")?,
            }
        }
        if let Some(t) = s.target.filter(|_| s.target != b.target) {
            write!(f, ":target={t}")?;
        }
        for (key, mine, theirs) in [
            ("nan-last", s.nan_last, b.nan_last),
            (
                "curvature",
                s.sqp.curvature_steering,
                b.sqp.curvature_steering,
            ),
            (
                "soc",
                s.sqp.second_order_correction,
                b.sqp.second_order_correction,
            ),
            ("bound", s.bound_local_runs, b.bound_local_runs),
            ("warm", s.warm_curvature, b.warm_curvature),
            ("patience", s.patience, b.patience),
            ("early", s.confirm_early, b.confirm_early),
            (
                "speculate",
                s.sqp.speculative_probes,
                b.sqp.speculative_probes,
            ),
            (
                "scale-cap",
                s.sqp.capped_first_scale,
                b.sqp.capped_first_scale,
            ),
        ] {
            if mine != theirs {
                write!(f, ":{key}={}", on(mine))?;
            }
        }
        if s.es_budget_per_dim != b.es_budget_per_dim {
            write!(f, ":es-budget={}", s.es_budget_per_dim)?;
        }
        for (key, mine, theirs) in [
            ("initial-share", s.initial_share, b.initial_share),
            ("max-share", s.max_share, b.max_share),
            ("sqp-margin", s.sqp.margin, b.sqp.margin),
            (
                "decrease",
                s.sqp.decrease_tolerance,
                b.sqp.decrease_tolerance,
            ),
        ] {
            if mine.to_bits() != theirs.to_bits() {
                write!(f, ":{key}={mine}")?;
            }
        }
        if s.sqp.accuracy != b.sqp.accuracy {
            match s.sqp.accuracy {
                Some(a) => write!(f, ":accuracy={a:e}")?,
                None => f.write_str(":accuracy=off")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every key parses, changes what it names, and prints back to the same text.
    #[test]
    fn every_key_round_trips() {
        let texts = [
            "portfolio:confirmations=0",
            "portfolio:margin=problem",
            "portfolio:margin=1e-4",
            "portfolio:target=-44",
            "portfolio:nan-last=off",
            "portfolio:curvature=off",
            "portfolio:soc=off",
            "portfolio:bound=on",
            "portfolio:warm=off",
            "portfolio:patience=off",
            "portfolio:early=off",
            "portfolio:speculate=off",
            "portfolio:scale-cap=on",
            "portfolio:decrease=0",
            "portfolio:es-budget=500",
            "portfolio:initial-share=0.5",
            "portfolio:max-share=1",
            "portfolio:sqp-margin=0",
            "portfolio:accuracy=off",
            "portfolio:accuracy=1e-8",
            "portfolio:confirmations=0:margin=problem:nan-last=off:curvature=off",
        ];
        for text in texts {
            let options: Options = text.parse().unwrap();
            assert_ne!(options, Options::recommended(), "{text}");
            assert_eq!(options.to_string(), text);
        }
        assert_eq!(texts.len() - 1, SPEC_KEYS.len() + 2);
        for bad in [
            "portfolio:soc=maybe",
            "portfolio:es-budget=0",
            "portfolio:max-share=2",
            "rounds",
            "portfolio:margin",
            "portfolio:accuracy=0",
        ] {
            assert!(bad.parse::<Options>().is_err(), "{bad}");
        }
    }
}
