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

/// The ablation study's lineup for the configurations in `data`: εMAg-ES against the
/// reduced variants present, in the paper's order, then any other combination of
/// components (configurations labelled by a [`ComponentSpec`]'s text form, e.g.
/// `eps-mag-es:step-size=median-success`), in label order; with the paper's numbers.
///
/// # Errors
/// [`StudyError::Incompatible`] if εMAg-ES is missing or a configuration is not a
/// component spec.
pub fn ablation_lineup(data: &Dataset) -> Result<Lineup, StudyError> {
    let present = data.configs();
    let baseline = Variant::EpsMagEs;
    if !present.contains(baseline.name()) {
        return Err(StudyError::Incompatible(format!(
            "the results have no runs of the baseline {}; the tables compare it with the other variants",
            baseline.name()
        )));
    }
    let mut custom = Vec::new();
    for c in &present {
        match c.parse::<ComponentSpec>() {
            Ok(spec) if spec.preset().is_some() => {}
            Ok(_) => custom.push(Contender::new(c.clone(), c.clone())),
            Err(_) => {
                return Err(StudyError::Incompatible(format!(
                    "the results hold configuration {c:?}, which is not an ablation variant or component spec (a parameter study?)"
                )))
            }
        }
    }
    let others = Variant::ALL[1..]
        .iter()
        .filter(|v| present.contains(v.name()))
        .map(|&v| Contender::variant(v))
        .chain(custom)
        .collect();
    Ok(Lineup {
        others_title: "reduced variants".into(),
        legend:
            "\"+\": εMAg-ES better (the switched-off component helps), \"−\": the variant better."
                .into(),
        title: format!("εMAg-ES ablation study, N = {}", data.dim),
        ..Lineup::new(Contender::variant(baseline), others)
    }
    .with_published(Arc::new(Paper)))
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
