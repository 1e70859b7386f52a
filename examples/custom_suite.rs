//! A benchmark suite of your own through the whole study command line: two small
//! constrained problems, εMAg-ES against εSAg-ES on them — runs, shards, resume,
//! `--status`, `--report`, statistics, rankings, plots and a report that speaks of this
//! suite.
//!
//! ```sh
//! cargo run --release --example custom_suite -- --dim 4 --runs 10 --budget-per-dim 2000
//! cargo run --release --example custom_suite -- --dim 4 --runs 10 --budget-per-dim 2000 --status
//! ```

use constraint_handling::FnProblem;
use emages_harness::cli::compare_main;
use emages_harness::study::StudyConfig;
use emages_harness::suites::{ProblemGroup, SharedProblem, Suite};
use emages_harness::StudyError;
use ma_es::{Config, Variant};
use std::process::ExitCode;
use std::sync::Arc;

/// `min Σ (x_k − s)²  s.t.  s/2 − x₁ ≤ 0` on `[−10, 10]^N`; the second problem adds the
/// equality `x₂ = s`.
#[derive(Debug)]
struct Bowls;

impl Suite for Bowls {
    fn name(&self) -> &str {
        "bowls"
    }
    fn problems(&self) -> Vec<usize> {
        vec![1, 2]
    }
    fn label(&self, id: usize) -> String {
        format!("B{id}")
    }
    fn groups(&self) -> Vec<ProblemGroup> {
        vec![ProblemGroup::new(
            "equality",
            "with an equality constraint",
            vec![2],
        )]
    }
    fn problem(&self, id: usize, dim: usize) -> Result<SharedProblem, StudyError> {
        let (shift, equality) = match id {
            1 => (1.0, false),
            2 => (2.0, true),
            _ => return Err(self.unknown(id)),
        };
        let bounds = (vec![-10.0; dim], vec![10.0; dim]);
        let bowl = FnProblem::new(bounds.0, bounds.1, 1, usize::from(equality), move |x, c| {
            c[0] = shift / 2.0 - x[0];
            if equality {
                c[1] = x[1] - shift;
            }
            Ok(x.iter().map(|v| (v - shift).powi(2)).sum())
        })?;
        Ok(Arc::new(bowl))
    }
}

fn main() -> ExitCode {
    canonical_kernel::at_program_start();
    let configs = vec![
        StudyConfig::preset("eps-mag-es", Variant::EpsMagEs, Config::default()),
        StudyConfig::preset("eps-sag-es", Variant::EpsSagEs, Config::default()),
    ];
    compare_main("bowls", Arc::new(Bowls), configs)
}
