//! Command-line helpers shared by the examples: list parsing and error reporting.

use crate::error::StudyError;
use ma_es::Variant;
use std::process::ExitCode;

/// Parses a problem selection such as `1-28`, `3,7,27` or `1-5,9`: sorted, without
/// duplicates, each in `1..=28`.
///
/// ```
/// use emages::cli::parse_problems;
/// assert_eq!(parse_problems("3,1-2,3").unwrap(), vec![1, 2, 3]);
/// assert!(parse_problems("0").is_err());
/// assert!(parse_problems("27-29").is_err());
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
            if (1..=28).contains(&v) {
                Ok(v)
            } else {
                Err(format!("problem {v} does not exist: the CEC2017 constrained suite has problems 1 to 28"))
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

/// Parses a variant selection: `all`, or preset names separated by commas.
///
/// # Errors
/// A message naming the unknown variant.
pub fn parse_variants(s: &str) -> Result<Vec<Variant>, String> {
    if s.trim().eq_ignore_ascii_case("all") {
        return Ok(Variant::ALL.to_vec());
    }
    let mut out = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let v: Variant = part
            .parse()
            .map_err(|e: ma_es::variant::UnknownVariant| e.to_string())?;
        if !out.contains(&v) {
            out.push(v);
        }
    }
    if out.is_empty() {
        return Err("no variants selected".into());
    }
    Ok(out)
}

/// Prints `error: …` (one line) and returns a failing exit code.
#[must_use]
pub fn fail(e: &StudyError) -> ExitCode {
    eprintln!("error: {e}");
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
            eprintln!("{first} (see --help)");
            std::process::exit(2);
        }
    }
}

/// A problem selection as a command-line value (see [`parse_problems`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problems(pub Vec<usize>);

/// A variant selection as a command-line value (see [`parse_variants`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variants(pub Vec<Variant>);

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
