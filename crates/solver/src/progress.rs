//! Progress lines (pycma's layout): a header, then the iterations 1, 2, 3 and every
//! `every`-th, and the last — one formatter for Rust's programs and Python's `disp`.

use crate::observer::Observer;
use crate::solver::{Solver, Status};
use std::ops::ControlFlow;
use std::time::Instant;

/// The progress lines of a run (pycma's layout): a header, then the iterations 1, 2,
/// 3 and every `every`-th, and the last.
///
/// ```
/// use emages_solver::{Phase, Progress, Status};
/// let mut progress = Progress::new(100);
/// let mut status = Status { iterations: 1, evaluations: 13, objective: -37.313312, violation: 0.0,
///     step_size: 0.5, epsilon: 0.0, phase: Phase::Es, run: 1 };
/// let lines = progress.lines(&status);
/// assert_eq!(lines.len(), 2); // the header, then the first iteration
/// assert!(lines[0].starts_with("   Iter     evals"));
/// assert!(lines[1].starts_with("      1        13 -3.7313312e+01  0.000e+00 5.00e-01    es    1"));
/// status.iterations = 57;
/// assert!(progress.lines(&status).is_empty()); // not shown: only kept as the last
/// assert_eq!(progress.finish().map(|l| l.contains(" 57 ")), Some(true));
/// ```
#[derive(Debug)]
pub struct Progress {
    every: usize,
    started: Instant,
    printed: usize,
    last: Option<String>,
}

impl Progress {
    /// The columns.
    pub const HEADER: &'static str =
        "   Iter     evals         best f  violation     step phase  run     t[s]";

    /// Lines for the iterations 1–3 and every `every`-th (0: no lines at all).
    #[must_use]
    pub fn new(every: usize) -> Self {
        Self {
            every,
            started: Instant::now(),
            printed: 0,
            last: None,
        }
    }

    /// The line of a state, whether shown or not.
    #[must_use]
    pub fn line(&self, status: &Status) -> String {
        format!(
            "{:>7} {:>9} {:>14} {:>10} {:>8} {:>5} {:>4} {:>8.1}",
            status.iterations,
            status.evaluations,
            scientific(status.objective, 7, true),
            scientific(status.violation, 3, false),
            scientific(status.step_size, 2, false),
            status.phase.name(),
            status.run,
            self.started.elapsed().as_secs_f64()
        )
    }

    /// The lines to show after an iteration: none, its line, or the header and its
    /// line (the first time).
    pub fn lines(&mut self, status: &Status) -> Vec<String> {
        if self.every == 0 {
            return Vec::new();
        }
        let text = self.line(status);
        let i = status.iterations;
        if i >= 1 && (i <= 3 || i.is_multiple_of(self.every)) {
            self.last = None;
            self.show(text)
        } else {
            self.last = Some(text);
            Vec::new()
        }
    }

    /// The last iteration's line, with the header if it is the first, if it was not
    /// shown.
    pub fn finish(&mut self) -> Option<String> {
        let text = self.last.take()?;
        Some(self.show(text).join("\n"))
    }

    fn show(&mut self, text: String) -> Vec<String> {
        self.printed += 1;
        if self.printed == 1 {
            vec![Self::HEADER.to_string(), text]
        } else {
            vec![text]
        }
    }
}

/// Prints the progress lines to standard output, as an observer.
impl<S: Solver + ?Sized> Observer<S> for Progress {
    fn observe(&mut self, solver: &S) -> ControlFlow<()> {
        for line in self.lines(&solver.status()) {
            println!("{line}");
        }
        ControlFlow::Continue(())
    }
}

/// `x` as Python's `{:.{digits}e}` writes it (`-3.7313312e+01`; `+` before a positive
/// mantissa with `sign`).
#[must_use]
pub fn scientific(x: f64, digits: usize, sign: bool) -> String {
    if !x.is_finite() {
        return format!("{x}");
    }
    let text = format!("{x:.digits$e}");
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let plus = if sign && !mantissa.starts_with('-') {
        "+"
    } else {
        ""
    };
    let esign = if exponent < 0 { '-' } else { '+' };
    format!("{plus}{mantissa}e{esign}{:02}", exponent.abs())
}
