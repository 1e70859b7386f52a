//! The reproduction of Hellwig & Beyer's εMAg-ES ablation study with the [`emages`]
//! harness — the package behind the repository's example programs and committed
//! results, not a library to depend on (`publish = false`).
//!
//! The paper this toolkit reproduces, and the checks that say how well it does: the
//! published numbers ([`Paper`]), the ablation study's report with them beside the
//! measured ones ([`ablation_report`]), the parameter studies of Section 6
//! ([`parameter_study`]) with the paper's statements measured over seeds ([`section6`]),
//! the fast-versus-exact path check ([`path_check`]), and the
//! generated blocks through which the documentation quotes all of it ([`docs`]).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod beside_paper;
pub mod docs;
pub mod paper;
pub mod parameter_study;
pub mod path_check;
pub mod section6;

pub use beside_paper::BesidePaper;
pub use docs::{relative_link, to_markdown, DocBlock};
pub use paper::Paper;

use emages_harness::report::{Contender, Lineup, Report, ReportOptions, ReportOutput};
use emages_harness::study::{Dataset, StudyConfig};
use emages_harness::StudyError;
use ma_es::{ComponentSpec, Variant};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

/// The label suffix of runs whose problems offered their exact constraint Jacobians
/// (`ablation --jacobian exact`, `cec2020_rw --jacobian exact`).
pub const EXACT_JACOBIAN_SUFFIX: &str = "+jacobian=exact";

/// The ablation study's lineup for the configurations in `data`: εMAg-ES against the
/// reduced variants present, in the paper's order, then any other combination of
/// components (configurations labelled by a [`ComponentSpec`]'s text form, e.g.
/// `eps-mag-es:step-size=median-success`), in label order; with the paper's numbers.
///
/// A study run with exact Jacobians ([`EXACT_JACOBIAN_SUFFIX`] on every label) is
/// compared within itself, against `eps-mag-es+jacobian=exact`, and without the
/// paper's numbers (the paper's runs are black box).
///
/// # Errors
/// [`StudyError::Incompatible`] if εMAg-ES is missing, a configuration is not a
/// component spec, or exact and black-box runs are mixed.
pub fn ablation_lineup(data: &Dataset) -> Result<Lineup, StudyError> {
    let present = data.configs();
    let (suffix, note) = jacobian_suffix(&present)?;
    let exact = !suffix.is_empty();
    let baseline = Variant::EpsMagEs;
    let baseline_key = format!("{}{suffix}", baseline.name());
    if !present.contains(&baseline_key) {
        return Err(StudyError::Incompatible(format!(
            "the results have no runs of the baseline {baseline_key}; the tables compare it with the other variants"
        )));
    }
    let contender = |key: &str, name: &str| Contender::new(key, format!("{name}{note}"));
    let mut custom = Vec::new();
    for c in &present {
        let spec_text = c.strip_suffix(suffix).unwrap_or(c);
        match spec_text.parse::<ComponentSpec>() {
            Ok(spec) if spec.preset().is_some() => {}
            Ok(_) => custom.push(contender(c, spec_text)),
            Err(_) => {
                return Err(StudyError::Incompatible(format!(
                    "the results hold configuration {c:?}, which is not an ablation variant or component spec (a parameter study?)"
                )))
            }
        }
    }
    let others = Variant::ALL[1..]
        .iter()
        .map(|v| (format!("{}{suffix}", v.name()), v.label()))
        .filter(|(key, _)| present.contains(key))
        .map(|(key, name)| contender(&key, name))
        .chain(custom)
        .collect();
    let lineup = Lineup {
        others_title: "reduced variants".into(),
        legend:
            "\"+\": εMAg-ES better (the switched-off component helps), \"−\": the variant better."
                .into(),
        title: format!("εMAg-ES ablation study, N = {}{note}", data.dim),
        ..Lineup::new(contender(&baseline_key, baseline.label()), others)
    };
    Ok(if exact {
        lineup
    } else {
        lineup.with_published(Arc::new(Paper))
    })
}

/// A lineup against any configuration in `data`: `baseline` (a [`ComponentSpec`], e.g.
/// εMAg-ES-R) against every other configuration present, presets and strategies under
/// their labels (`εMAg-ES`, `εMAg-ES-R`), other specs under their text form, in label
/// order; without the paper's numbers (the paper compares its variants with εMAg-ES
/// only). `ablation --baseline eps-mag-es-r` reports through it: "+" then means the
/// baseline is better.
///
/// Runs with exact Jacobians are compared within themselves, as in [`ablation_lineup`].
///
/// # Errors
/// [`StudyError::Incompatible`] if the baseline has no runs, a configuration is not a
/// component spec, or exact and black-box runs are mixed.
pub fn baseline_lineup(data: &Dataset, baseline: &ComponentSpec) -> Result<Lineup, StudyError> {
    let present = data.configs();
    let (suffix, note) = jacobian_suffix(&present)?;
    let key = |spec: &ComponentSpec| format!("{spec}{suffix}");
    let name = |spec: &ComponentSpec| {
        let label = spec_label(spec);
        format!("{label}{note}")
    };
    let baseline_key = key(baseline);
    if !present.contains(&baseline_key) {
        return Err(StudyError::Incompatible(format!(
            "the results have no runs of the baseline {baseline_key}; the tables compare it with the other configurations"
        )));
    }
    let mut others = Vec::new();
    for c in present.iter().filter(|c| **c != baseline_key) {
        let text = c.strip_suffix(suffix).unwrap_or(c);
        if let Ok(spec) = text.parse::<ComponentSpec>() {
            others.push(Contender::new(c, name(&spec)));
        } else if let Ok(other) = StudyConfig::other(c) {
            // A named optimizer that is not an MA-ES spec (`--with`, e.g. a portfolio).
            others.push(Contender::new(c, other.display_name()));
        } else {
            return Err(StudyError::Incompatible(format!(
                "the results hold configuration {c:?}, which is neither a component spec nor an optimizer of --with (a parameter study?)"
            )));
        }
    }
    let baseline_name = name(baseline);
    Ok(Lineup {
        others_title: "other configurations".into(),
        legend: format!("\"+\": {baseline_name} better, \"−\": the other configuration better."),
        title: format!(
            "{baseline_name} against the other configurations, N = {}",
            data.dim
        ),
        ..Lineup::new(Contender::new(&baseline_key, baseline_name.clone()), others)
    })
}

/// The name a table gives a configuration: a preset's label (`εMAg-ES`), a strategy's
/// (`εMAg-ES-R`, [`ma_es::variant::STRATEGIES`]), else the spec's text form.
fn spec_label(spec: &ComponentSpec) -> String {
    let text = spec.to_string();
    if let Some(v) = spec.preset() {
        return v.label().to_string();
    }
    ma_es::variant::STRATEGIES
        .iter()
        .find(|(_, _, components)| *components == text)
        .map_or(text.clone(), |(_, label, _)| (*label).to_string())
}

/// The label suffix and table note of the runs in `present`: exact Jacobians on every
/// label, or on none.
fn jacobian_suffix(present: &BTreeSet<String>) -> Result<(&'static str, &'static str), StudyError> {
    let exact = present
        .iter()
        .filter(|c| c.ends_with(EXACT_JACOBIAN_SUFFIX))
        .count();
    if exact != 0 && exact != present.len() {
        return Err(StudyError::Incompatible(format!(
            "the results mix runs with exact Jacobians ({exact} configurations labelled …{EXACT_JACOBIAN_SUFFIX}) and black-box runs ({}); compare them in two reports",
            present.len() - exact
        )));
    }
    Ok(if exact == 0 {
        ("", "")
    } else {
        (EXACT_JACOBIAN_SUFFIX, " (exact Jacobians)")
    })
}

/// What the ablation report wrote, with the comparison with the paper.
#[derive(Clone, Debug)]
pub struct AblationReport {
    /// The report's outputs.
    pub output: ReportOutput,
    /// The tables beside the paper's (CEC2017, all 28 problems, N = 10 or 100, a
    /// significance test); `None` otherwise.
    pub beside_paper: Option<BesidePaper>,
}

/// Builds every output of the ablation study from `data` into `out`: the lineup of
/// [`ablation_lineup`] through [`Report::build`], the comparison with the paper
/// ([`BesidePaper`]) into `paper_comparison.md` and its own section of `report.html`.
///
/// # Errors
/// [`StudyError::Incompatible`] if the baseline is missing, a configuration is not an
/// ablation variant, or the results are incomplete; I/O and plotting errors.
pub fn ablation_report(
    data: &Dataset,
    out: &Path,
    options: &ReportOptions,
) -> Result<AblationReport, StudyError> {
    let lineup = ablation_lineup(data)?;
    let mut report = Report::build(data, &lineup, out, options)?;
    let beside_paper = BesidePaper::of(&report)?;
    let mut sections = Vec::new();
    if let Some(b) = &beside_paper {
        let md = out.join("paper_comparison.md");
        std::fs::write(
            &md,
            to_markdown(&b.tables(), &report.figure_links(), "plots/"),
        )
        .map_err(|e| StudyError::io(&md, e))?;
        report.files.push(md);
        sections.push(b.section());
    }
    Ok(AblationReport {
        output: report.finish(sections)?,
        beside_paper,
    })
}

/// Builds the report of the configurations in `data` against `baseline`
/// ([`baseline_lineup`]) into `out`: Table 1 and the other tables with "+" for the
/// baseline, the statistics, plots and `report.html`; no comparison with the paper.
///
/// # Errors
/// As [`baseline_lineup`]; [`StudyError::Incompatible`] if the results are incomplete;
/// I/O and plotting errors.
pub fn baseline_report(
    data: &Dataset,
    out: &Path,
    options: &ReportOptions,
    baseline: &ComponentSpec,
) -> Result<ReportOutput, StudyError> {
    let lineup = baseline_lineup(data, baseline)?;
    Report::build(data, &lineup, out, options)?.finish(Vec::new())
}

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
