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

use emages::report::{Contender, Lineup, Report, ReportOptions, ReportOutput};
use emages::study::Dataset;
use emages::StudyError;
use ma_es::{ComponentSpec, Variant};
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
    let (suffix, note) = if exact == 0 {
        ("", "")
    } else {
        (EXACT_JACOBIAN_SUFFIX, " (exact Jacobians)")
    };
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
    Ok(if exact == 0 {
        lineup.with_published(Arc::new(Paper))
    } else {
        lineup
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
