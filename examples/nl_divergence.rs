//! How often, when and why the εMAg-ES nl variant (no σ cap) diverges.
//!
//! ```sh
//! cargo run --release --example nl_divergence                 # N = 10, C01–C28, 25 runs
//! cargo run --release --example nl_divergence -- --dim 100 --problems 7,10,22
//! ```
//!
//! Replays the nl runs of the ablation study (same seeds as `ablation --seed S`) and
//! watches every generation: a run *diverges* in the first generation after which
//! `σ > 1e50` or `σ` or the parent `ȳ` is not finite. For that generation it records
//! its counter `g` (0-based, as in REFERENCE.md §5), whether `g mod N = 0` (a repair
//! generation), and whether offspring were repaired in it (evaluations beyond λ).
//! Writes `nl_divergence.md` and `.csv` to `--out` (default `results/nl-divergence-D{N}`).

use clap::Parser;
use emages::cli::{main_with, problems_arg, Problems};
use emages::study::{pin_blas_to_one_thread, run_seed, InstanceChoice};
use emages::StudyError;
use ma_es::noise::RngNoise;
use ma_es::observer::GenerationReport;
use ma_es::{Config, MaEs, Variant};
use rayon::prelude::*;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;

/// Divergence of the εMAg-ES nl variant, per problem.
#[derive(Parser, Debug)]
#[command(name = "nl_divergence", version)]
struct Args {
    /// Search-space dimension N.
    #[arg(long, default_value_t = 10)]
    dim: usize,
    /// Runs per problem.
    #[arg(long, default_value_t = 25)]
    runs: usize,
    /// Problems, e.g. 1-28 or 3,7,27.
    #[arg(long, default_value = "1-28", value_parser = problems_arg)]
    problems: Problems,
    /// Base seed (the ablation study's --seed).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Official instance data (default $CEC2017_DATA_DIR, else ../shared/cec2017/text).
    #[arg(long)]
    data: Option<PathBuf>,
    /// Output directory.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// What one run did.
#[derive(Clone, Copy, Debug, Default)]
struct Divergence {
    /// The counter g of the generation after which σ or ȳ broke out, if any.
    generation: Option<usize>,
    /// Whether g mod N = 0.
    repair_generation: bool,
    /// Whether offspring were repaired in that generation.
    repaired: bool,
    /// Whether ȳ became non-finite at some point.
    parent_non_finite: bool,
}

fn watch(
    problem: usize,
    run: usize,
    args: &Args,
    suite: &cec2017_constrained::Suite,
) -> Result<Divergence, StudyError> {
    let p = suite.problem(problem, args.dim)?;
    let config = Config::default();
    let mut es = MaEs::new(&p, &config, Variant::EpsMagEsNl)?;
    let lambda = es.params().lambda;
    let seed = run_seed(
        args.seed,
        Variant::EpsMagEsNl.name(),
        problem,
        args.dim,
        run,
    );
    let mut out = Divergence::default();
    let mut previous_evals = 0;
    let mut observer = |r: &GenerationReport<'_>| {
        let parent_bad = r.parent.iter().any(|y| !y.is_finite());
        out.parent_non_finite |= parent_bad;
        if out.generation.is_none()
            && r.generation > 0
            && (!r.sigma.is_finite() || r.sigma > 1e50 || parent_bad)
        {
            // The report after k generations: the generation that did it had counter k − 1.
            let g = r.generation - 1;
            out.generation = Some(g);
            out.repair_generation = g.is_multiple_of(args.dim);
            out.repaired = r.evaluations - previous_evals > lambda;
        }
        previous_evals = r.evaluations;
        ControlFlow::Continue(())
    };
    es.run_observed(&mut RngNoise::seed_from_u64(seed), &mut observer)?;
    Ok(out)
}

fn run(args: &Args) -> Result<(), StudyError> {
    let suite = InstanceChoice::resolve(args.data.clone(), None)?.suite()?;
    pin_blas_to_one_thread();
    let jobs: Vec<(usize, usize)> = args
        .problems
        .0
        .iter()
        .flat_map(|&p| (0..args.runs).map(move |r| (p, r)))
        .collect();
    let results: Vec<((usize, usize), Divergence)> = jobs
        .par_iter()
        .map(|&(p, r)| watch(p, r, args, &suite).map(|d| ((p, r), d)))
        .collect::<Result<_, _>>()?;
    let mut md = format!(
        "| problem | diverged (of {}) | first divergence: generation g (median, min–max) | in a g mod N = 0 generation | with repaired offspring | ȳ non-finite |\n|---|---|---|---|---|---|\n",
        args.runs
    );
    let mut csv = String::from("problem,runs,diverged,median_generation,min_generation,max_generation,repair_generation,repaired,parent_non_finite\n");
    let (mut total, mut total_repair, mut total_repaired) = (0, 0, 0);
    for &p in &args.problems.0 {
        let ds: Vec<&Divergence> = results
            .iter()
            .filter(|((q, _), _)| *q == p)
            .map(|(_, d)| d)
            .collect();
        let mut gens: Vec<usize> = ds.iter().filter_map(|d| d.generation).collect();
        gens.sort_unstable();
        let k = gens.len();
        let in_repair = ds
            .iter()
            .filter(|d| d.generation.is_some() && d.repair_generation)
            .count();
        let repaired = ds
            .iter()
            .filter(|d| d.generation.is_some() && d.repaired)
            .count();
        let parent = ds.iter().filter(|d| d.parent_non_finite).count();
        total += k;
        total_repair += in_repair;
        total_repaired += repaired;
        let (median, lo, hi) = match k {
            0 => (String::new(), String::new(), String::new()),
            _ => (
                gens[k / 2].to_string(),
                gens[0].to_string(),
                gens[k - 1].to_string(),
            ),
        };
        md.push_str(&format!(
            "| C{p:02} | {k} | {} | {in_repair} | {repaired} | {parent} |\n",
            if k == 0 {
                "–".to_string()
            } else {
                format!("{median} ({lo}–{hi})")
            }
        ));
        csv.push_str(&format!(
            "{p},{},{k},{median},{lo},{hi},{in_repair},{repaired},{parent}\n",
            ds.len()
        ));
    }
    md.push_str(&format!(
        "\nN = {}, seed {}, {} runs per problem: {total} runs diverged (σ > 1e50 or σ, ȳ not finite); {total_repair} of them first in a generation with g mod N = 0, {total_repaired} in a generation with repaired offspring.\n",
        args.dim, args.seed, args.runs
    ));
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("results/nl-divergence-D{}", args.dim)));
    std::fs::create_dir_all(&out)
        .map_err(|e| StudyError::Other(format!("{}: {e}", out.display())))?;
    for (name, text) in [("nl_divergence.md", &md), ("nl_divergence.csv", &csv)] {
        let path = out.join(name);
        std::fs::write(&path, text)
            .map_err(|e| StudyError::Other(format!("{}: {e}", path.display())))?;
    }
    emages::show!("{md}");
    Ok(())
}

fn main() -> ExitCode {
    main_with(run)
}
