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
//! its counter `g` (0-based, as in docs/algorithm.md §5), whether `g mod N = 0` (a repair
//! generation), and whether offspring were repaired in it (evaluations beyond λ).
//! Writes `nl_divergence.md` and `.csv` to `--out` (default `results/nl-divergence-D{N}`).
//!
//! `--docs FILE` writes the table into the file's block `nl_divergence: N = {N}`
//! (docs/reproduction.md has N = 10, 30 and 100; `tests/committed_results.rs` checks them
//! against the committed files).
//!
//! `--study FILES` names the study's results files: every replayed run is then checked
//! to end exactly as the study's record of the same run (f, ν̄, evaluations,
//! generations, bit for bit), and the summary says how many did — so the table speaks of
//! the committed runs, not of others drawn with another kernel or build.

use clap::Parser;
use emages_harness::cli::{main_with, problems_arg, Problems};
use emages_harness::study::{pin_blas_to_one_thread, run_seed};
use emages_harness::suites::InstanceChoice;
use emages_harness::StudyError;
use ma_es::ask_tell::reports;
use ma_es::noise::RngNoise;
use ma_es::observer::GenerationReport;
use ma_es::{Options, Variant};
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
    /// A folder of official instance data (default $CEC2017_DATA_DIR, else the official data compiled into the program).
    #[arg(long)]
    data: Option<PathBuf>,
    /// Output directory.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Do not show progress (accepted for the study scripts; this tool shows none).
    #[arg(long, hide = true)]
    no_progress: bool,
    /// The ablation study's results files (e.g. its shards): check that every replayed
    /// run ends as the study's record of it.
    #[arg(long, num_args = 1..)]
    study: Vec<PathBuf>,
    /// Also write the table into the marked block of this Markdown file (e.g.
    /// docs/reproduction.md; the block of N is `nl_divergence: N = 10`).
    #[arg(long)]
    docs: Option<PathBuf>,
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
    /// How the run ended: (f, ν̄) as bits, evaluations, generations.
    end: (u64, u64, usize, usize),
}

fn watch(
    problem: usize,
    run: usize,
    args: &Args,
    suite: &cec2017_constrained::Suite,
) -> Result<Divergence, StudyError> {
    let p = suite.problem(problem, args.dim)?;
    let plan = Options::new(Variant::EpsMagEsNl)
        .to_the_end()
        .build_for(&p)?;
    let lambda = plan.params().lambda;
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
    let r = plan.run_with(
        &p,
        RngNoise::seed_from_u64(seed),
        &mut reports(&mut observer),
    )?;
    out.end = (
        r.best.objective().to_bits(),
        r.best.violation().to_bits(),
        r.evaluations,
        r.generations,
    );
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
    if args.threads == Some(0) {
        return Err(StudyError::Invalid("--threads must be at least 1".into()));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(|e| StudyError::Other(e.to_string()))?;
    let results: Vec<((usize, usize), Divergence)> = pool.install(|| {
        jobs.par_iter()
            .map(|&(p, r)| watch(p, r, args, &suite).map(|d| ((p, r), d)))
            .collect::<Result<_, _>>()
    })?;
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
        "\nN = {}, seed {}, {} runs per problem: {total} of {} runs diverged (σ > 1e50 or σ, ȳ not finite) on {} of {} problems; {total_repair} of them first in a generation with g mod N = 0, {total_repaired} in a generation with repaired offspring. OpenBLAS kernel: {}.{}\n",
        args.dim,
        args.seed,
        args.runs,
        results.len(),
        args.problems
            .0
            .iter()
            .filter(|&&p| results.iter().any(|((q, _), d)| *q == p && d.generation.is_some()))
            .count(),
        args.problems.0.len(),
        constraint_handling::linalg::kernel::BlasKernel::current()
            .map_or_else(|| "unknown".to_string(), |k| k.name().to_string()),
        study_check(args, &results)?
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
    if let Some(doc) = &args.docs {
        emages_paper::DocBlock::nl_divergence(args.dim).replace(doc, &md)?;
    }
    emages_harness::show!("{md}");
    Ok(())
}

/// With `--study`: " The replayed runs are the study's: K of R end exactly as their
/// records in FILES." (an error if a run has no record); else nothing.
fn study_check(
    args: &Args,
    results: &[((usize, usize), Divergence)],
) -> Result<String, StudyError> {
    if args.study.is_empty() {
        return Ok(String::new());
    }
    let label = Variant::EpsMagEsNl.name();
    let mut records = std::collections::HashMap::new();
    for f in &args.study {
        for r in emages_harness::study::store::load_runs(f)? {
            if r.config == label && r.dim == args.dim {
                records.insert((r.problem, r.run), r);
            }
        }
    }
    let mut equal = 0;
    for ((p, run), d) in results {
        let r = records.get(&(*p, *run)).ok_or_else(|| {
            StudyError::Invalid(format!(
                "the study has no record of {label} C{p:02} run {run}"
            ))
        })?;
        let (f, v, evals, generations) = d.end;
        if r.best.objective().to_bits() == f
            && r.best.violation().to_bits() == v
            && r.evals == evals
            && r.generations == generations
        {
            equal += 1;
        }
    }
    let files: Vec<String> = args.study.iter().map(|f| f.display().to_string()).collect();
    let shown = match files.as_slice() {
        [one] => one.clone(),
        [first, .., last] => format!("{} files ({first} … {last})", files.len()),
        [] => unreachable!(),
    };
    Ok(format!(
        " The replayed runs are the study's: {equal} of {} end exactly as their records in {shown}.",
        results.len()
    ))
}

fn main() -> ExitCode {
    canonical_kernel::at_program_start();
    main_with(run)
}
