//! The portfolio's training rounds (`rounds`, `rounds+`, …), the `portfolio-share0`
//! family and the restarted SQP local phase (`StudyConfig::OTHERS`) against εMAg-ES-R
//! (the baseline) on CEC2017, by the paper's methodology (Wilcoxon tests per problem,
//! the rankings, the report). All are black boxes (forward differences).
//!
//! ```sh
//! cargo run --release --example portfolio -- --dim 10 --out results/portfolio-D10
//! cargo run --release --example portfolio -- --dim 10 --report results/portfolio-D10/runs.jsonl
//! ```

use emages_harness::cli::compare_cec2017_main;
use emages_harness::optimizer::MaEsOptimizer;
use emages_harness::study::StudyConfig;
use ma_es::ComponentSpec;
use std::process::ExitCode;

fn main() -> ExitCode {
    canonical_kernel::at_program_start();
    compare_cec2017_main("portfolio", || {
        // Labelled by the spec's text form, as the ablation labels it (the label
        // enters the run seeds): the ablation's runs of εMAg-ES-R are these.
        let baseline = ComponentSpec::recommended();
        let mut configs = vec![StudyConfig::custom(
            baseline.to_string(),
            MaEsOptimizer::with_spec(baseline),
        )];
        configs.extend(
            StudyConfig::OTHERS
                .iter()
                .map(|name| StudyConfig::other(name).expect("a known name")),
        );
        configs
    })
}
