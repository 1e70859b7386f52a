//! The command line of studies, for the examples and for a user's `main`: the options
//! every study shares ([`StudyArgs`], for any [`crate::suites::Suite`]), the report's
//! ([`ReportArgs`]), CEC2017's instance data ([`Cec2017Args`]), list parsing, one-line
//! errors, and [`compare_main`] — the whole study command line for a user's suite and
//! configurations in one call.

mod compare;
mod study;

pub use compare::{compare, compare_cec2017_main, compare_main, Cec2017CompareArgs, CompareArgs};
pub use study::{BuildReport, Cec2017Args, ReportArgs, StudyArgs, TestChoice};

use crate::error::StudyError;
use ma_es::{ComponentSpec, Variant};
use std::process::ExitCode;

/// Parses the constraint Jacobians a study's problems offer: `exact` (automatic
/// differentiation, one evaluation each, as the CEC2020 rules count it) or
/// `differences` (black box: the repairs take forward differences).
///
/// ```
/// use constraint_handling::JacobianSource;
/// use emages_harness::cli::jacobian_arg;
/// assert_eq!(jacobian_arg("exact"), Ok(JacobianSource::Exact));
/// assert_eq!(jacobian_arg("differences"), Ok(JacobianSource::Differences));
/// assert!(jacobian_arg("analytic").unwrap_err().contains("exact"));
/// ```
///
/// # Errors
/// A message naming the two values.
pub fn jacobian_arg(s: &str) -> Result<constraint_handling::JacobianSource, String> {
    use constraint_handling::JacobianSource;
    match s {
        "exact" => Ok(JacobianSource::Exact),
        "differences" => Ok(JacobianSource::Differences),
        _ => Err(format!("'{s}': the Jacobian is `exact` or `differences`")),
    }
}

/// Parses a problem selection such as `1-28`, `3,7,27`, `C01-C05` or `1-5,9`: sorted,
/// without duplicates, each at least 1 (whether the suite has them is the study's
/// check, [`crate::study::StudySpec::validate`]).
///
/// ```
/// use emages_harness::cli::parse_problems;
/// assert_eq!(parse_problems("3,1-2,3").unwrap(), vec![1, 2, 3]);
/// assert_eq!(parse_problems("C27-C29").unwrap(), vec![27, 28, 29]);
/// assert!(parse_problems("0").is_err());
/// assert!(parse_problems("5-3").is_err());
/// ```
///
/// # Errors
/// A message naming the bad part.
pub fn parse_problems(s: &str) -> Result<Vec<usize>, String> {
    let mut out = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let number = |t: &str| -> Result<usize, String> {
            let t = t.trim().trim_start_matches(['C', 'c']);
            let v: usize = t
                .parse()
                .map_err(|_| format!("{part:?} is not a problem number"))?;
            if v >= 1 {
                Ok(v)
            } else {
                Err("problem numbers start at 1".to_string())
            }
        };
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (number(a)?, number(b)?);
                if a > b {
                    return Err(format!("empty range {part:?}"));
                }
                out.extend(a..=b);
            }
            None => out.push(number(part)?),
        }
    }
    if out.is_empty() {
        return Err("no problems selected".into());
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// Parses a variant selection: `all` (the seven presets), or component specs separated
/// by commas — preset names, or a preset with components changed
/// (`eps-mag-es:step-size=median-success`, [`ma_es::ComponentSpec`]'s text form).
///
/// ```
/// use emages_harness::cli::parse_variants;
/// let v = parse_variants("eps-ma-es, eps-mag-es:step-size=constant").unwrap();
/// assert_eq!(v[0].to_string(), "eps-ma-es");
/// assert_eq!(v[1].to_string(), "eps-mag-es:step-size=constant");
/// assert!(parse_variants("eps-mag-es:step-size=fast").unwrap_err().contains("step-size=fast"));
/// ```
///
/// # Errors
/// A message naming the unknown variant or component.
pub fn parse_variants(s: &str) -> Result<Vec<ComponentSpec>, String> {
    if s.trim().eq_ignore_ascii_case("all") {
        return Ok(Variant::ALL.iter().map(|v| v.spec()).collect());
    }
    let mut out = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let v: ComponentSpec = part
            .parse()
            .map_err(|e: ma_es::variant::SpecError| e.to_string())?;
        if !out.contains(&v) {
            out.push(v);
        }
    }
    if out.is_empty() {
        return Err("no variants selected".into());
    }
    Ok(out)
}

/// The whole `main` of a front end: parses the arguments ([`parse_args`]), runs, and
/// turns an error into one line on stderr and a failing exit code ([`fail`]). It warns
/// once if OpenBLAS runs a fallback kernel
/// ([`constraint_handling::linalg::kernel::warn_once`]) but does not change the kernel:
/// that is the program's choice, made before this (the workspace's programs call
/// `canonical_kernel::at_program_start()` first).
pub fn main_with<T: clap::Parser>(run: impl FnOnce(&T) -> Result<(), StudyError>) -> ExitCode {
    constraint_handling::linalg::kernel::warn_once();
    match run(&parse_args::<T>()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&e),
    }
}

/// Prints `error: …` (one line) and returns a failing exit code.
#[must_use]
pub fn fail(e: &StudyError) -> ExitCode {
    crate::say!("error: {e}");
    ExitCode::FAILURE
}

/// Parses the command line; on a usage error prints its first line and exits with
/// status 2 (help and version print in full and exit 0).
pub fn parse_args<T: clap::Parser>() -> T {
    match T::try_parse() {
        Ok(t) => t,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let _ = e.print();
                std::process::exit(0);
            }
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("error: invalid arguments");
            crate::say!("{first} (see --help)");
            std::process::exit(2);
        }
    }
}

/// A problem selection as a command-line value (see [`parse_problems`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problems(pub Vec<usize>);

/// A variant selection as a command-line value (see [`parse_variants`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variants(pub Vec<ComponentSpec>);

/// `clap` value parser for [`Problems`].
///
/// # Errors
/// As [`parse_problems`].
pub fn problems_arg(s: &str) -> Result<Problems, String> {
    parse_problems(s).map(Problems)
}

/// `clap` value parser for [`Variants`].
///
/// # Errors
/// As [`parse_variants`].
pub fn variants_arg(s: &str) -> Result<Variants, String> {
    parse_variants(s).map(Variants)
}

/// The long help of a `--variants` option: `what` it takes, then every key of the
/// component spec with its values (from [`ma_es::variant::SPEC_KEYS`]).
#[must_use]
pub fn variants_help(what: &str) -> String {
    let mut help = format!(
        "{what}\n\nA preset (eps-mag-es, eps-ma-es, eps-mag-es-wo, eps-mag-es-nl, eps-sag-es, \
         lex-mag-es, lex-ma-es), the strategies eps-mag-es-r and eps-mag-es-rlm, or any of them with \
         components changed: \
         PRESET:KEY=VALUE…, e.g. eps-mag-es:step-size=median-success. The keys:\n"
    );
    for k in ma_es::variant::SPEC_KEYS {
        help.push_str(&format!("\n  {}: {} — {}", k.name, (k.values)(), k.help));
    }
    help
}
