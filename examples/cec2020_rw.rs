//! εMAg-ES (or any variant) on the CEC2020 real-world constrained suite under the
//! competition's protocol, its entry files, and the competition's score.
//!
//! ```sh
//! cargo run --release --example cec2020_rw                          # 25 runs × RC01–RC57 → results/cec2020-rw
//! cargo run --release --example cec2020_rw -- --problems 1-33       # a subset
//! cargo run --release --example cec2020_rw -- --shard 2/4           # a cluster's shard
//! cargo run --release --example cec2020_rw -- --status              # how far it has got
//! cargo run --release --example cec2020_rw -- --entry               # NAME.f.csv / NAME.cv.csv from the runs
//! cargo run --release --example cec2020_rw -- --score ../shared/cec2020-rw/entrants results/cec2020-rw/entry
//! ```
//!
//! The protocol of the guidelines: 25 runs per problem; the budget `MaxFEs` by
//! dimension (10⁵ for D ≤ 10, 2·10⁵ ≤ 30, 4·10⁵ ≤ 50, 8·10⁵ ≤ 150, 10⁶ above); the best
//! solution's `f` and `ν` recorded at 10 %, 20 %, …, 100 % of the budget. The problems
//! have dimensions of their own, so the study runs in groups of equal dimension, one
//! folder each (`OUT/D009/`), with the harness's records, resumption and shards.
//! Re-running the same command resumes. A run stops after the generation in which its
//! budget runs out (at most one generation and one repair beyond `MaxFEs`), and has no
//! generation limit besides (the reference's `2000 · N` would end runs at D = 2 and 3
//! early).
//!
//! `--entry` writes the entry the organisers score (`OUT/entry/NAME.f.csv` and
//! `NAME.cv.csv`: a header `RC01,…,RC57`, 25 rows sorted best first — feasible runs by
//! `f`, then infeasible ones by `ν`) and the guidelines' submission files
//! (`OUT/entry/submission/NAME RC05 F.txt`, `… CV.txt`: the best solution's `f` and `ν`
//! at 10 %, 20 %, …, 100 % of the budget, a 10 × 25 matrix of checkpoints × trials). `--score DIR…` scores every entry in the folders
//! together, as the organisers' `Score.m` does, and prints the ranking; with `--versus`
//! it compares `--name` with those entries per problem class, and `--shares` adds each
//! problem's share of their totals (where the scores part).

use bench_stats::cec2020::{dimension_weight, problem_shares, score, Entry};
use clap::Parser;
use constraint_handling::JacobianSource;
use emages_harness::cli::{
    jacobian_arg, main_with, problems_arg, variants_arg, variants_help, Problems, Variants,
};
use emages_harness::optimizer::MaEsOptimizer;
use emages_harness::study::cec2020;
use emages_harness::study::status::complete_in;
use emages_harness::study::store::{load_runs, runs_files};
use emages_harness::study::{pin_blas_to_one_thread, Shard, StudyConfig, StudySpec};
use emages_harness::suites::{Cec2020RwSuite, Suite};
use emages_harness::StudyError;
use ma_es::Config;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// εMAg-ES on the CEC2020 real-world suite under the competition's protocol; its entry
/// files; the competition's score.
#[derive(Parser, Debug)]
#[command(name = "cec2020_rw", version)]
struct Args {
    /// Independent runs per problem (the competition: 25).
    #[arg(long, default_value_t = 25)]
    runs: usize,
    /// Problems, e.g. 1-57 or 3,7,27 (default: all).
    #[arg(long, value_parser = problems_arg)]
    problems: Option<Problems>,
    /// The strategy: a preset or PRESET:KEY=VALUE… (as for the ablation).
    #[arg(long, default_value = "eps-mag-es", value_parser = variants_arg,
          long_help = variants_help("The strategy (comma-separated: several)."))]
    variant: Variants,
    /// Run this optimizer that is not an MA-ES spec instead of --variant (labelled by
    /// its name; --t-max does not apply): `sqp-restarts`, `portfolio`, `portfolio+`,
    /// `portfolio@B`, the `portfolio-share0` family. Black boxes, but for the
    /// `portfolio-share0` family, which takes the exact Jacobians with `--jacobian
    /// exact` (labelled `NAME+jacobian=exact`; the others are refused then).
    #[arg(long = "with", value_name = "NAME")]
    with: Option<String>,
    /// The generation T from which ε is 0: `scaled` (default) takes T = 1000 ·
    /// (MaxFEs / D) / 20000, the share of the run the paper's T = 1000 has at CEC2017's
    /// 20000 · D; `paper` the paper's 1000; or a number.
    #[arg(long, default_value = "scaled", value_name = "scaled|paper|T")]
    t_max: String,
    /// Base seed of the runs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The constraint Jacobians the repairs get: `differences` (black box, forward
    /// differences, D evaluations each) or `exact` (automatic differentiation, one
    /// evaluation each, as the competition's rules count it). `exact` names the runs
    /// `…+jacobian=exact`.
    #[arg(long, default_value = "differences", value_parser = jacobian_arg)]
    jacobian: JacobianSource,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Output directory.
    #[arg(long, default_value = "results/cec2020-rw")]
    out: PathBuf,
    /// Run only shard I of N of every dimension group.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// Show how far the study in --out has got and exit.
    #[arg(long)]
    status: bool,
    /// Write the entry files (OUT/entry/NAME.f.csv, NAME.cv.csv) from the runs in --out
    /// instead of running.
    #[arg(long, conflicts_with = "status")]
    entry: bool,
    /// Print what the runs in --out cost, per problem class (Markdown), instead of
    /// running.
    #[arg(long, conflicts_with_all = ["status", "entry"])]
    costs: bool,
    /// The entry's name.
    #[arg(long, default_value = "epsMAgES")]
    name: String,
    /// With --entry: write it even if runs are missing (their values are NaN, which the
    /// score counts as the worst).
    #[arg(long)]
    allow_incomplete: bool,
    /// Score every entry in these folders together and print the ranking (instead of
    /// running).
    #[arg(long, num_args = 1.., value_name = "DIR", conflicts_with_all = ["status", "entry"])]
    score: Option<Vec<PathBuf>>,
    /// With --score: also write the ranking (and the comparison of --versus) as Markdown
    /// to this file.
    #[arg(long, value_name = "FILE", requires = "score")]
    markdown: Option<PathBuf>,
    /// With --score: compare the entry --name with these entries per problem class
    /// (Wilcoxon rank-sum over the 25 runs, α = 0.05, runs ordered as the competition
    /// orders them) and count the problems where each reaches the guidelines'
    /// best-known values.
    #[arg(long, value_delimiter = ',', value_name = "NAME,…", requires = "score")]
    versus: Vec<String>,
    /// With --score: score only these problems (every entry restricted to them, the
    /// weights too), e.g. for a study not yet complete.
    #[arg(long, value_parser = problems_arg, requires = "score")]
    subset: Option<Problems>,
    /// With --score and --versus: also print each problem's share of the totals of
    /// --name and of --versus, sorted by how much more it costs --name than the first
    /// of --versus (where the scores part).
    #[arg(long, requires = "versus")]
    shares: bool,
    /// Do not show the progress bar.
    #[arg(long)]
    no_progress: bool,
}

fn main() -> ExitCode {
    canonical_kernel::at_program_start();
    main_with(run)
}

fn run(args: &Args) -> Result<(), StudyError> {
    if let Some(dirs) = &args.score {
        return print_score(
            dirs,
            args.markdown.as_deref(),
            &args.name,
            &args.versus,
            args.subset.as_ref(),
            args.shares,
        );
    }
    let suite = Arc::new(Cec2020RwSuite {
        jacobian: args.jacobian,
        ..Cec2020RwSuite::default()
    });
    let problems = match &args.problems {
        Some(p) => {
            for &id in &p.0 {
                suite.dimension_of(id)?;
            }
            p.0.clone()
        }
        None => suite.problems(),
    };
    if args.runs == 0 {
        return Err(StudyError::Invalid("--runs must be at least 1".into()));
    }
    let [variant] = args.variant.0.as_slice() else {
        return Err(StudyError::Invalid(
            "--variant takes one strategy (compare several with --score on their entries)".into(),
        ));
    };
    let label = match args.t_max.as_str() {
        "paper" => variant.to_string(),
        "scaled" => format!("{variant}@Tscaled"),
        t => format!("{variant}@T{t}"),
    };
    let label = match args.jacobian {
        JacobianSource::Exact => format!("{label}+jacobian=exact"),
        JacobianSource::Differences => label,
    };
    let other = args
        .with
        .as_deref()
        .map(|name| StudyConfig::other_with_jacobian(name, args.jacobian))
        .transpose()?;
    if let Some(note) = args.with.as_deref().and_then(StudyConfig::protocol_note) {
        eprintln!("note: {note}");
    }
    let label = other.as_ref().map_or(label, |c| c.label.clone());
    let groups: Vec<(usize, Vec<usize>)> = suite
        .dimensions()
        .into_iter()
        .map(|d| {
            let ps: Vec<usize> = suite
                .problems_of_dimension(d)
                .into_iter()
                .filter(|p| problems.contains(p))
                .collect();
            (d, ps)
        })
        .filter(|(_, ps)| !ps.is_empty())
        .collect();
    let specs = groups
        .iter()
        .map(|(dim, ps)| {
            let budget = suite.budget(*dim, 0);
            let t_max = t_max_for(&args.t_max, *dim, budget)?;
            // the competition's budget is the only limit: no generation limit of its own
            // (the reference's 2000 · N would stop runs at D = 2, 3 early)
            let config = Config {
                t_max,
                ..Config::default()
            };
            let optimizer = MaEsOptimizer::with_spec(*variant)
                .with_config(config)
                .with_max_generations(budget);
            let config = match &other {
                Some(c) => c.clone(),
                None => StudyConfig::custom(label.clone(), optimizer),
            };
            Ok(StudySpec {
                runs: args.runs,
                problems: ps.clone(),
                seed: args.seed,
                shard: args.shard,
                threads: args.threads,
                progress: !args.no_progress,
                checkpoint_fractions: cec2020::CHECKPOINTS.to_vec(),
                ..StudySpec::new(suite.clone() as Arc<dyn Suite>, *dim, vec![config])
            })
        })
        .collect::<Result<Vec<_>, StudyError>>()?;
    if args.entry {
        return write_entry(args, &suite, &specs, &label);
    }
    if args.costs {
        return print_costs(args, &suite, &specs, &label);
    }
    if args.status {
        for spec in &specs {
            spec.validate()?;
            let status =
                emages_harness::study::status::study_status(spec, &group_dir(&args.out, spec.dim))?;
            emages_harness::show!(
                "D = {:3} ({}): {status}",
                spec.dim,
                labels(&suite, &spec.problems)
            );
        }
        return Ok(());
    }
    // a group whose runs are all recorded (by any part, e.g. archived shards) is done
    let mut pending_specs = Vec::new();
    for spec in &specs {
        if !complete_in(spec, &group_dir(&args.out, spec.dim))? {
            pending_specs.push(spec);
        }
    }
    let prepared = pending_specs
        .iter()
        .map(|s| s.prepare(&group_dir(&args.out, s.dim)))
        .collect::<Result<Vec<_>, StudyError>>()?;
    pin_blas_to_one_thread();
    emages_harness::say!(
        "CEC2020 real-world study: {label}, {} problems in {} dimension groups × {} runs, the competition's budgets, {} thread(s){}; results in {}/D*/",
        problems.len(),
        specs.len(),
        args.runs,
        args.threads.unwrap_or_else(rayon::current_num_threads),
        args.shard.map_or(String::new(), |s| format!(", shard {}/{}", s.index, s.count)),
        args.out.display()
    );
    if pending_specs.len() < specs.len() {
        emages_harness::say!(
            "{} dimension group(s) complete (all runs recorded): skipped",
            specs.len() - pending_specs.len()
        );
    }
    for (spec, study) in pending_specs.iter().zip(prepared) {
        let outcome = study.run()?;
        emages_harness::say!(
            "D = {:3} ({}), budget {}: {} runs done ({} before) in {:.1} s",
            spec.dim,
            labels(&suite, &spec.problems),
            spec.budget(),
            outcome.ran,
            outcome.skipped,
            outcome.elapsed.as_secs_f64()
        );
    }
    emages_harness::say!(
        "done; write the entry with: cargo run --release --example cec2020_rw -- --entry --out {}",
        args.out.display()
    );
    Ok(())
}

/// The ε schedule's end for a problem of dimension `dim` and budget `budget`.
fn t_max_for(choice: &str, dim: usize, budget: usize) -> Result<usize, StudyError> {
    let paper = Config::default().t_max;
    Ok(match choice {
        "paper" => paper,
        // the share of the run the paper's T has at CEC2017's budget of 20 000 · D
        "scaled" => {
            ((paper as f64 * budget as f64 / dim as f64 / 20_000.0).round() as usize).max(1)
        }
        t => t.parse().ok().filter(|&t: &usize| t > 0).ok_or_else(|| {
            StudyError::Invalid(format!(
                "--t-max {t}: expected scaled, paper or a generation count"
            ))
        })?,
    })
}

fn group_dir(out: &Path, dim: usize) -> PathBuf {
    out.join(format!("D{dim:03}"))
}

fn labels(suite: &Cec2020RwSuite, ids: &[usize]) -> String {
    ids.iter()
        .map(|&p| suite.label(p))
        .collect::<Vec<_>>()
        .join(", ")
}

fn write_entry(
    args: &Args,
    suite: &Cec2020RwSuite,
    specs: &[StudySpec],
    label: &str,
) -> Result<(), StudyError> {
    let all = suite.problems();
    let rows = study_records(args, suite, specs, label)?;
    let collected = cec2020::collect(&rows, &all, args.runs);
    if !collected.missing.is_empty() {
        let problems: std::collections::BTreeSet<usize> =
            collected.missing.iter().map(|m| m.0).collect();
        let msg = format!(
            "{} of {} runs of {label} are missing (problems {})",
            collected.missing.len(),
            all.len() * args.runs,
            labels(suite, &problems.into_iter().collect::<Vec<_>>())
        );
        if !args.allow_incomplete {
            return Err(StudyError::Invalid(format!(
                "{msg}; finish the study, or write an incomplete entry with --allow-incomplete"
            )));
        }
        emages_harness::say!("warning: {msg}; their values are NaN in the entry");
    }
    let names: Vec<String> = all.iter().map(|&p| suite.label(p)).collect();
    let entry = Entry::from_runs(&args.name, names.clone(), collected.finals.clone())?;
    let dir = args.out.join("entry");
    std::fs::create_dir_all(&dir).map_err(|e| StudyError::io(&dir, e))?;
    entry.write(&dir)?;
    let submission = dir.join("submission");
    std::fs::create_dir_all(&submission).map_err(|e| StudyError::io(&submission, e))?;
    for (name, text) in cec2020::submission_files(&args.name, &names, &collected) {
        let path = submission.join(name);
        std::fs::write(&path, text).map_err(|e| StudyError::io(&path, e))?;
    }
    emages_harness::show!(
        "entry {} ({label}, {} runs per problem) in {}/, the guidelines' per-problem files (f and ν at every tenth of the budget, 10 × {} each) in {}/",
        args.name,
        args.runs,
        dir.display(),
        args.runs,
        submission.display()
    );
    Ok(())
}

fn print_score(
    dirs: &[PathBuf],
    markdown: Option<&Path>,
    ours: &str,
    versus: &[String],
    subset: Option<&Problems>,
    shares: bool,
) -> Result<(), StudyError> {
    let mut entries = Vec::new();
    for d in dirs {
        entries.extend(Entry::read_all(d)?);
    }
    let catalog = cec2020_rw::catalog::all();
    let chosen: Vec<usize> = match subset {
        Some(p) => {
            for &id in &p.0 {
                if cec2020_rw::catalog::info(id).is_none() {
                    return Err(StudyError::Invalid(format!(
                        "--subset: there is no problem RC{id:02}"
                    )));
                }
            }
            p.0.iter().map(|id| id - 1).collect()
        }
        None => (0..catalog.len()).collect(),
    };
    cec2020::restrict(&mut entries, &chosen)?;
    let mut names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
    names.sort_unstable();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(StudyError::Invalid(format!(
            "two entries are called {}",
            w[0]
        )));
    }
    let weights: Vec<f64> = chosen
        .iter()
        .map(|&k| dimension_weight(catalog[k].dim))
        .collect();
    let mut scores = score(&entries, &weights, 12)?;
    scores.sort_by_key(|s| s.rank);
    let mut table = cec2020::ranking_table(&scores);
    if !versus.is_empty() {
        table.push('\n');
        table.push_str(&cec2020::class_comparison(&entries, &chosen, ours, versus)?);
    }
    if shares {
        let by_problem = problem_shares(&entries, &weights, 12)?;
        table.push('\n');
        table.push_str(&cec2020::share_table(
            &entries,
            &by_problem,
            &chosen,
            ours,
            versus,
        )?);
    }
    emages_harness::show!("{table}");
    if let Some(path) = markdown {
        std::fs::write(path, &table).map_err(|e| StudyError::io(path, e))?;
    }
    Ok(())
}

/// Every run record of `label` in the study folder.
fn study_records(
    args: &Args,
    suite: &Cec2020RwSuite,
    specs: &[StudySpec],
    label: &str,
) -> Result<Vec<emages_harness::study::store::RunRow>, StudyError> {
    let mut rows = Vec::new();
    for spec in specs {
        for file in runs_files(&group_dir(&args.out, spec.dim))? {
            rows.extend(
                load_runs(&file)?
                    .into_iter()
                    .filter(|r| r.config == label && r.suite == suite.name()),
            );
        }
    }
    Ok(rows)
}

fn print_costs(
    args: &Args,
    suite: &Cec2020RwSuite,
    specs: &[StudySpec],
    label: &str,
) -> Result<(), StudyError> {
    let rows = study_records(args, suite, specs, label)?;
    if rows.is_empty() {
        return Err(StudyError::Invalid(format!(
            "no runs of {label} in {}",
            args.out.display()
        )));
    }
    emages_harness::show!("{}", cec2020::cost_table(&rows));
    Ok(())
}
