//! A strategy component of your own through a whole study: a step-size rule that lets σ
//! decay geometrically, in εMAg-ES, compared with the reference's CSA on the CEC2017
//! problems — runs, records, statistics, rankings, plots and report, with every option
//! of the study command line (`--runs`, `--problems`, `--out`, `--shard`, `--status`,
//! `--report`, …).
//!
//! ```sh
//! cargo run --release --example custom_component -- --problems 1-5 --runs 10
//! ```
//!
//! The rule is ten lines; putting it into the strategy is one factory; the rest is the
//! harness's. (Specs reach the built-in rules without code: `ablation --variants
//! eps-mag-es:step-size=median-success`.)

use emages_harness::cli::compare_cec2017_main;
use emages_harness::optimizer::MaEsOptimizer;
use emages_harness::study::StudyConfig;
use ma_es::step_size::{StepSizeContext, StepSizeRule};
use ma_es::{Components, Config, Variant};
use std::process::ExitCode;

/// σ ← q · σ every generation: no adaptation, a fixed schedule.
struct GeometricDecay {
    q: f64,
}

impl StepSizeRule for GeometricDecay {
    fn update(&mut self, ctx: &StepSizeContext<'_>) -> f64 {
        self.q * ctx.sigma
    }
}

fn main() -> ExitCode {
    canonical_kernel::at_program_start();
    compare_cec2017_main("custom-component", || {
        let decay = MaEsOptimizer::with_factory("eps-mag-es, σ ← 0.998 σ", |params, seed| {
            let mut components = Components::from_spec(&Variant::EpsMagEs.spec(), params, seed)?;
            components.step_size = Box::new(GeometricDecay { q: 0.998 });
            Ok(components)
        });
        vec![
            StudyConfig::preset("eps-mag-es", Variant::EpsMagEs, Config::default()),
            StudyConfig::custom("geometric-decay", decay).with_name("εMAg-ES, σ decay"),
        ]
    })
}
