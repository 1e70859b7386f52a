//! A crate outside the workspace solves a problem of its own with the recommended
//! strategy of `emages`: the README's builder chain, then the same run by ask and tell,
//! saved to JSON midway and resumed, ending where the uninterrupted run ended. Its
//! first line picks OpenBLAS's canonical kernel (no cargo runner here). Built by
//! scripts/outside-crate/check with `emages` as a direct dependency.

use emages::{save, ConstrainedProblem, FnProblem, Portfolio, Solver};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    emages::use_canonical_kernel()?;
    // minimise (x₁ − 1)² + (x₂ − 2)² subject to x₁² + x₂² = 2 on [−3, 3]²
    let problem = FnProblem::new(vec![-3.0; 2], vec![3.0; 2], 0, 1, |x, c| {
        c[0] = x[0] * x[0] + x[1] * x[1] - 2.0;
        Ok((x[0] - 1.0).powi(2) + (x[1] - 2.0).powi(2))
    })?;
    let outcome = emages::recommended().budget(20_000).seed(1).run(&problem)?;
    let best = &outcome.best;
    println!(
        "recommended: f = {:.10}, h = {:.1e}, {} evaluations ({})",
        best.objective(),
        best.constraints[0],
        outcome.evaluations,
        outcome.termination
    );
    assert!(best.is_feasible() && best.constraints[0].abs() <= 1e-8);
    assert!(outcome.evaluations < 20_000, "it stops by itself");

    // By ask and tell, saved and resumed through JSON after 20 tells.
    let mut run = emages::recommended().budget(20_000).seed(1).build_for(&problem)?.ask_tell()?;
    let mut tells = 0;
    while let Some(request) = run.ask()? {
        let k = request.len();
        let (mut f, mut h) = (Vec::with_capacity(k), emages::ndarray::Array2::zeros((1, k)));
        for j in 0..k {
            let mut c = [0.0];
            f.push(problem.evaluate(request.point(j), &mut c)?);
            h[[0, j]] = c[0];
        }
        run.tell(&f, h.view())?;
        tells += 1;
        if tells == 20 {
            run = save::from_json::<Portfolio>(&save::to_json(&run)?)?;
        }
    }
    assert_eq!(run.best().as_ref(), Some(&outcome.best));
    assert_eq!(run.evaluations(), outcome.evaluations);
    println!("by ask and tell, saved to JSON and resumed: the same run ({tells} tells)");
    Ok(())
}
