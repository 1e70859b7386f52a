//! Replays one reference trajectory and prints, per generation, the relative deviation
//! of each traced quantity from the reference — to see where floating-point chaos sets
//! in. Usage:
//!
//! ```sh
//! cargo run -p ma-es --example replay_diff -- ../shared/fixtures/replay/epsMAgES_C12_D10_s12345.jsonl [pinv]
//! ```
//!
//! The instance data comes from `CEC2017_DATA_DIR` (default `../shared/cec2017/text`).

use cec2017_constrained::Suite;
use ma_es::noise::ReplayNoise;
use ma_es::observer::GenerationReport;
use ma_es::{BackCalculationSolver, Config, MaEs, Variant};
use serde_json::Value;
use std::ops::ControlFlow;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: replay_diff FIXTURE.jsonl [pinv]");
        std::process::exit(2);
    };
    let pinv = std::env::args().nth(2).is_some_and(|a| a == "pinv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    let rows: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let h = &rows[0];
    let data =
        std::env::var("CEC2017_DATA_DIR").unwrap_or_else(|_| "../shared/cec2017/text".into());
    let suite = Suite::official(&data).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let problem = suite
        .problem(
            h["problem"].as_u64().unwrap() as usize,
            h["dim"].as_u64().unwrap() as usize,
        )
        .unwrap();
    let variant: Variant = h["variant"].as_str().unwrap().parse().unwrap();
    let config = Config {
        lambda: Some(h["lambda"].as_u64().unwrap() as usize),
        mu: Some(h["mu"].as_u64().unwrap() as usize),
        budget: Some(h["budget"].as_u64().unwrap() as usize),
        max_generations: Some(h["generations"].as_u64().unwrap() as usize),
        back_calculation: if pinv {
            BackCalculationSolver::PseudoInverse
        } else {
            BackCalculationSolver::default()
        },
        ..Config::default()
    };
    let mut es = MaEs::new(&problem, &config, variant).unwrap();
    let mut obs = |r: &GenerationReport<'_>| {
        let e = &rows[r.generation + 1];
        if e.get("g").is_none() {
            return ControlFlow::Continue(());
        }
        let rel = |a: f64, b: f64| {
            if a == b {
                0.0
            } else {
                (a - b).abs() / a.abs().max(b.abs())
            }
        };
        let vecrel = |k: &str, v: &[f64]| {
            e[k].as_array()
                .unwrap()
                .iter()
                .zip(v)
                .map(|(a, b)| rel(a.as_f64().unwrap_or(f64::NAN), *b))
                .fold(0.0f64, f64::max)
        };
        println!("g={:3} evals {}/{} sigma {:.1e} eps {:.1e} parent {:.1e} ps {:.1e} bestf {:.1e} bestv {:.1e} bestevals {}/{}",
            r.generation, r.evaluations, e["evals"], rel(r.sigma, e["sigma"].as_f64().unwrap()),
            rel(r.epsilon, e["epsilon"].as_f64().unwrap()), vecrel("y_parent", r.parent), vecrel("p_sigma", r.p_sigma),
            rel(r.best.objective, e["best_f"].as_f64().unwrap()), rel(r.best.violation, e["best_violation"].as_f64().unwrap()),
            r.best.evaluations, e["best_evals"]);
        ControlFlow::Continue(())
    };
    es.run_observed(&mut ReplayNoise::new(h["seed"].as_u64().unwrap()), &mut obs)
        .unwrap();
    println!("{:?}", es.components().back_calculation.stats());
}
