//! The committed studies (`results/ablation-D100/`, 16 shards, and
//! `results/ablation-D10-seed1/`: the project's own measured output) still give the
//! tables the documentation quotes: the report is rebuilt from the committed runs and
//! its comparison with the paper must equal, byte for byte, the generated blocks of
//! docs/reproduction.md and the committed `paper_comparison.md`. A change of the
//! statistics, the report or the data that would make the docs stale fails here.

use emages_harness::report::ReportOptions;
use emages_harness::study::Dataset;
use emages_paper::ablation_report;
use emages_paper::{to_markdown, DocBlock};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Asserts that `doc` (a path under the root) holds the generated block `block` and that
/// its text is `expected`; `fix` says how to regenerate it.
fn assert_block(doc: &str, block: &DocBlock, expected: &str, fix: &str) {
    let text = std::fs::read_to_string(root().join(doc)).unwrap();
    let (begin, _) = block.markers();
    let quoted = block
        .read(&text)
        .unwrap_or_else(|| panic!("{doc} has no block {begin}"));
    assert!(
        quoted == expected,
        "{doc}: the block {begin} is stale; {fix}"
    );
}

/// The shard files of the committed study (compressed or not), all 16 of them.
fn shard_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("runs.shard-") && n.contains(".jsonl"))
        })
        .collect();
    files.sort();
    files
}

/// Rebuilds the report of the committed study in `dir` from `files` and checks the
/// docs' block of `dim` and the committed `paper_comparison.md` against it.
fn check(dir: &Path, files: &[PathBuf], dim: usize) {
    let data = Dataset::load(files).expect("the committed results load");
    assert_eq!(data.dim, dim);
    let out = tempfile::tempdir().unwrap();
    let report = ablation_report(&data, out.path(), &ReportOptions::default())
        .expect("the report builds from the complete study");
    let beside = report
        .beside_paper
        .as_ref()
        .expect("a comparison with the paper");
    let tables = beside.tables();
    let runs: usize = data
        .configs()
        .iter()
        .map(|c| {
            data.problems()
                .iter()
                .map(|&p| data.runs(c, p).len())
                .sum::<usize>()
        })
        .sum();
    assert_eq!(runs, 4900, "7 variants × 28 problems × 25 runs");

    // docs/reproduction.md links the committed plots from docs/.
    let rel = dir.strip_prefix(root()).unwrap().display().to_string();
    let docs = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    let quoted = DocBlock::ablation(dim)
        .read(&docs)
        .unwrap_or_else(|| panic!("docs/reproduction.md has no N = {dim} block"));
    let rendered = to_markdown(&tables, &report.output.figures, &format!("../{rel}/plots/"));
    assert!(
        quoted == rendered,
        "docs/reproduction.md's N = {dim} block differs from the report of the runs in {rel}; regenerate it with\n  cargo run --release --example ablation -- --dim {dim} --report {rel}/runs*.jsonl.gz --out {rel} --docs docs/reproduction.md"
    );
    let committed = std::fs::read_to_string(dir.join("paper_comparison.md")).unwrap();
    assert!(
        committed == to_markdown(&tables, &report.output.figures, "plots/"),
        "{rel}/paper_comparison.md is stale"
    );
    for f in &report.output.figures {
        assert!(
            dir.join("plots").join(&f.file).is_file(),
            "the figure {} the docs link is not committed",
            f.file
        );
    }
    println!(
        "N = {dim}: checked {runs} runs, {} tables and {} figures against the docs",
        tables.len(),
        report.output.figures.len()
    );
}

#[test]
fn the_docs_quote_the_committed_n100_study() {
    let dir = root().join("results/ablation-D100");
    let files = shard_files(&dir);
    assert_eq!(
        files.len(),
        16,
        "expected the 16 shard files of the N = 100 study in {}",
        dir.display()
    );
    check(&dir, &files, 100);
}

#[test]
fn the_docs_quote_the_committed_n10_study() {
    let dir = root().join("results/ablation-D10-seed1");
    check(&dir, &[dir.join("runs.jsonl.gz")], 10);
}

/// The committed fast-path studies (`results/fast-path-D10/`: all seven variants,
/// `results/fast-path-D100/`: εMAg-ES; `--fast`, seed 1) against the committed exact
/// ones: the rank-sum tests cell by cell give the committed `path_check.md`, whose
/// first line docs/performance.md quotes, and no more significant cells than the
/// significance level predicts (binomial tail above α).
fn check_fast_path(exact: &[PathBuf], fast_dir: &str, cells: usize) {
    use emages_paper::path_check::PathCheck;
    let exact = Dataset::load(exact).unwrap();
    let fast = Dataset::load(&[root().join(fast_dir).join("runs.jsonl.gz")]).unwrap();
    assert!(!exact.fast && fast.fast);
    let check = PathCheck::compare(&exact, &fast, 0.05).unwrap();
    assert_eq!(check.cells.len(), cells);
    let text = check.to_markdown(&|p| exact.label(p));
    let committed = std::fs::read_to_string(root().join(fast_dir).join("path_check.md")).unwrap();
    assert_eq!(text, committed, "{fast_dir}/path_check.md is stale");
    let first = text.lines().next().unwrap();
    let doc = std::fs::read_to_string(root().join("docs/performance.md")).unwrap();
    assert!(
        doc.contains(first),
        "docs/performance.md does not quote: {first}"
    );
    assert!(check.tail() > 0.05, "{first}");
    println!("fast vs exact, N = {}: {first}", exact.dim);
}

#[test]
fn the_fast_path_samples_the_exact_paths_distributions() {
    check_fast_path(
        &[root().join("results/ablation-D10-seed1/runs.jsonl.gz")],
        "results/fast-path-D10",
        7 * 28,
    );
    check_fast_path(
        &shard_files(&root().join("results/ablation-D100")),
        "results/fast-path-D100",
        28,
    );
}

/// A study computed twice with two OpenBLAS kernels (the same seeds): the rank-sum
/// tests cell by cell and the runs compared seed by seed give the committed
/// `kernel_check.md`, which `doc` quotes as its generated block `block`.
fn check_kernels(first: &str, second: &str, doc: &str, block: &str) {
    use emages_paper::path_check::PathCheck;
    let a = Dataset::load(&shard_files(&root().join(first))).unwrap();
    let b = Dataset::load(&shard_files(&root().join(second))).unwrap();
    assert!(!a.fast && !b.fast);
    let check = PathCheck::between(&a, &b, ["Haswell", "Cooperlake"], 0.05).unwrap();
    assert_eq!(check.cells.len(), a.configs().len() * 28);
    assert!(
        check.paired.runs > 0,
        "{second} shares no seed with {first}"
    );
    let text = check.to_markdown(&|p| a.label(p));
    let file = format!("{second}/kernel_check.md");
    let committed = std::fs::read_to_string(root().join(&file)).unwrap();
    let regenerate = format!(
        "regenerate it with path_check --names Haswell Cooperlake --exact {first}/runs.shard-* --other {second}/runs.shard-* --docs {doc} --block \"{block}\" > {file}"
    );
    assert!(text == committed, "{file} is stale; {regenerate}");
    assert_block(doc, &DocBlock::path_check(block), &text, &regenerate);
    println!(
        "Haswell vs Cooperlake, {first}: {} of {} cells significant, {} pairs",
        check.significant(),
        check.cells.len(),
        check.paired.runs
    );
}

#[test]
fn the_docs_quote_the_kernel_checks() {
    check_kernels(
        "results/ablation-D100",
        "results/ablation-D100-cooperlake",
        "docs/reproduction.md",
        "N = 100 ablation, Haswell against Cooperlake",
    );
    check_kernels(
        "results/lambda-D100",
        "results/lambda-D100-cooperlake",
        "docs/parameter-studies.md",
        "λ, N = 100, Haswell against Cooperlake",
    );
}

/// The nl divergence tables docs/reproduction.md quotes are the committed ones, and
/// those of a committed study were measured on that study's runs (the replayed runs end
/// exactly as the study's records).
fn check_nl_table(dim: usize, study: Option<&str>) {
    let file = format!("results/nl-divergence-D{dim}/nl_divergence.md");
    let committed = std::fs::read_to_string(root().join(&file)).unwrap();
    assert_block(
        "docs/reproduction.md",
        &DocBlock::nl_divergence(dim),
        &committed,
        &format!("it must equal {file}; regenerate it with nl_divergence --dim {dim} --docs docs/reproduction.md"),
    );
    let rows = committed.lines().filter(|l| l.starts_with("| C")).count();
    assert_eq!(rows, 28, "{file}: one row per problem");
    if let Some(study) = study {
        let claim = format!(
            "The replayed runs are the study's: 700 of 700 end exactly as their records in {study}"
        );
        assert!(
            committed.contains(&claim),
            "{file} was not measured on the committed study's runs (expected: {claim})"
        );
    }
    println!("N = {dim}: the nl table quoted by the docs is {file}");
}

#[test]
fn the_docs_quote_the_committed_nl_tables() {
    check_nl_table(10, Some("results/ablation-D10-seed1/runs.jsonl.gz"));
    check_nl_table(30, None);
    check_nl_table(
        100,
        Some("16 files (results/ablation-D100/runs.shard-1-of-16.jsonl.gz … results/ablation-D100/runs.shard-9-of-16.jsonl.gz)"),
    );
}

/// docs/parameter-studies.md's Section 6 block of `param` at `dim` is what the committed
/// studies give (`section6::render`: the rankings over all seeds, or how far the study
/// has got), and every committed heat map of a complete study (ranks, average ranks,
/// both rankings, the SVG) is what its runs give. Returns the seeds whose heat maps
/// were re-rendered.
fn check_section6(dim: usize, param: emages_paper::parameter_study::Parameter) -> Vec<u64> {
    use emages_paper::parameter_study::parameter_report;
    use emages_paper::section6::{expected_runs, render, studies};
    let docs = std::fs::read_to_string(root().join("docs/parameter-studies.md")).unwrap();
    let mut complete = Vec::new();
    for (seed, files) in studies(&root().join("results"), param, dim).unwrap() {
        let data = Dataset::load(&files).unwrap();
        let rows = data.len();
        assert!(rows <= expected_runs(param, dim), "{files:?}: {rows} runs");
        if rows < expected_runs(param, dim) {
            continue;
        }
        let dir = files[0].parent().unwrap();
        let out = tempfile::tempdir().unwrap();
        parameter_report(&data, out.path(), param).unwrap();
        for f in [
            "ranks.csv",
            "ranks_significance.csv",
            "ranks_detail.csv",
            "ranks_detail_significance.csv",
            "average_ranks.md",
            "average_ranks_significance.md",
            "heatmap.svg",
            "heatmap_significance.svg",
        ] {
            let committed = std::fs::read_to_string(dir.join(f))
                .unwrap_or_else(|e| panic!("{}/{f}: {e}", dir.display()));
            let rendered = std::fs::read_to_string(out.path().join(f)).unwrap();
            assert!(committed == rendered, "{}/{f} is stale", dir.display());
        }
        complete.push(seed);
    }
    let rendered = render(&root().join("results"), param, dim).unwrap();
    let quoted = DocBlock::section6(param, dim)
        .read(&docs)
        .unwrap_or_else(|| {
            panic!(
                "docs/parameter-studies.md has no {} block for N = {dim}",
                param.key()
            )
        });
    assert!(
        quoted == rendered,
        "docs/parameter-studies.md's {} block of N = {dim} is stale; regenerate it with\n  cargo run --release --example section6 -- --dim {dim} --docs docs/parameter-studies.md",
        param.key()
    );
    complete
}

/// N = 10: four seeds of both studies, complete, their heat maps and the docs' blocks.
#[test]
fn the_docs_quote_the_committed_n10_parameter_studies() {
    use emages_paper::parameter_study::Parameter;
    for param in [Parameter::Lambda, Parameter::ThetaR] {
        let seeds = check_section6(10, param);
        assert_eq!(
            seeds,
            [1, 2, 3, 4],
            "{}: the four seeds' studies",
            param.key()
        );
    }
    println!("N = 10: 8 committed parameter studies re-rendered, both Section 6 blocks checked");
}

/// N = 100: one seed; the docs' blocks say how far each study has got until it is
/// complete, then rank it.
#[test]
fn the_docs_quote_the_committed_n100_parameter_studies() {
    use emages_paper::parameter_study::Parameter;
    for param in [Parameter::Lambda, Parameter::ThetaR] {
        let seeds = check_section6(100, param);
        assert!(seeds.len() <= 1, "N = 100: one seed");
        println!(
            "N = 100, {}: {}",
            param.key(),
            if seeds.is_empty() {
                "under way, the block's run count checked"
            } else {
                "complete, heat maps and the block checked"
            }
        );
    }
}

/// A committed heat map (`ranks.csv`, `ranks_significance.csv`): the configurations'
/// labels and, per problem, their ranks (1 = best).
struct HeatMap {
    labels: Vec<String>,
    rows: Vec<(usize, Vec<usize>)>,
}

impl HeatMap {
    fn load(file: &Path) -> Self {
        let text =
            std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let mut lines = text.lines();
        let labels = lines
            .next()
            .unwrap()
            .split(',')
            .skip(1)
            .map(String::from)
            .collect();
        let rows = lines
            .map(|l| {
                let mut cells = l.split(',');
                let problem = cells
                    .next()
                    .unwrap()
                    .trim_start_matches('C')
                    .parse()
                    .unwrap();
                (problem, cells.map(|c| c.parse().unwrap()).collect())
            })
            .collect();
        Self { labels, rows }
    }

    /// The rank of configuration `label` on problem `problem`.
    fn rank(&self, label: &str, problem: usize) -> usize {
        let col = self.labels.iter().position(|h| h == label).unwrap();
        self.rows.iter().find(|(p, _)| *p == problem).unwrap().1[col]
    }

    /// The problems in `problems` on which `label` has a rank in `ranks`.
    fn problems_where(
        &self,
        label: &str,
        ranks: std::ops::RangeInclusive<usize>,
        problems: std::ops::RangeInclusive<usize>,
    ) -> Vec<usize> {
        self.rows
            .iter()
            .map(|(p, _)| *p)
            .filter(|p| problems.contains(p) && ranks.contains(&self.rank(label, *p)))
            .collect()
    }

    /// How many problems in `problems` `label` ranks first on.
    fn firsts(&self, label: &str, problems: std::ops::RangeInclusive<usize>) -> usize {
        self.problems_where(label, 1..=1, problems).len()
    }

    /// The configurations ranked first on `problem`.
    fn winners(&self, problem: usize) -> Vec<&str> {
        self.labels
            .iter()
            .filter(|l| self.rank(l, problem) == 1)
            .map(String::as_str)
            .collect()
    }
}

/// Asserts that the paragraph of docs/parameter-studies.md that begins with `opening`
/// says each of `claims` (its whitespace collapsed), and prints how many it checked.
fn assert_paragraph_says(opening: &str, claims: &[String]) {
    let docs = std::fs::read_to_string(root().join("docs/parameter-studies.md")).unwrap();
    let start = docs
        .find(opening)
        .unwrap_or_else(|| panic!("no paragraph \"{opening}…\""));
    let end = start + docs[start..].find("\n\n").unwrap_or(docs.len() - start);
    let text = docs[start..end]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(!claims.is_empty());
    for claim in claims {
        assert!(
            text.contains(claim.as_str()),
            "\"{opening}\" should say: {claim}"
        );
    }
    println!(
        "\"{opening}\": {} counts recounted from the heat maps",
        claims.len()
    );
}

/// The committed heat maps of a complete study, exact and significance-aware.
fn heat_maps(dir: &str) -> [HeatMap; 2] {
    let dir = root().join(dir);
    let maps = ["ranks.csv", "ranks_significance.csv"].map(|f| HeatMap::load(&dir.join(f)));
    assert_eq!(maps[0].labels, maps[1].labels);
    maps
}

/// The paragraph "What the λ rows say at N = 100" counts first places by half of the
/// suite, names the problems the largest populations win, and counts λ = 3's bottom
/// places; every count is recounted here from the committed heat maps (which
/// `the_docs_quote_the_committed_n100_parameter_studies` re-renders from the runs).
#[test]
fn the_n100_lambda_paragraph_recounts_the_heat_maps() {
    let [exact, significance] = heat_maps("results/lambda-D100");
    let mut claims = Vec::new();
    let both = |v: &str| (exact.firsts(v, 1..=14), significance.firsts(v, 1..=14));
    let (e100, s100) = both("lambda=100");
    assert_eq!(e100, s100, "the paragraph says \"under both rankings\"");
    claims.push(format!(
        "it ranks first on {e100} of C01–C14 under both rankings"
    ));
    let ((e400, s400), (e200, s200)) = (both("lambda=400"), both("lambda=200"));
    claims.push(format!(
        "λ = 400 on {e400} ({s400} significance-aware) and λ = 200 on {e200} ({s200})"
    ));
    claims.push(format!(
        "({} of C15–C28)",
        exact.firsts("lambda=400", 15..=28)
    ));
    for map in [&exact, &significance] {
        for problem in [19, 28] {
            assert!(
                map.winners(problem).contains(&"lambda=2000"),
                "λ = 2000 first on C{problem}"
            );
        }
    }
    assert_eq!(
        exact.winners(22),
        ["lambda=200", "lambda=400", "lambda=1000"],
        "C22, exact"
    );
    assert_eq!(
        significance.winners(22),
        ["lambda=400"],
        "C22, significance-aware"
    );
    assert_eq!(
        significance.rank("lambda=1000", 22),
        2,
        "C22: λ = 1000 second"
    );
    let large = |map: &HeatMap| -> Vec<usize> {
        (1..=28)
            .filter(|p| ![19, 22, 28].contains(p))
            .filter(|p| {
                map.winners(*p)
                    .iter()
                    .any(|w| ["lambda=1000", "lambda=2000"].contains(w))
            })
            .collect()
    };
    assert_eq!(
        large(&exact),
        [17, 20],
        "λ ≥ 1000 first beyond C19, C22, C28 (exact)"
    );
    assert_eq!(
        large(&significance),
        [17, 20, 24],
        "… and significance-aware"
    );
    assert_eq!(
        exact.firsts("lambda=3", 1..=28) + significance.firsts("lambda=3", 1..=28),
        0
    );
    let bottom = |map: &HeatMap| map.problems_where("lambda=3", 6..=7, 1..=28).len();
    claims.push(format!(
        "last or next to last on {} of the 28 problems exactly ({} significance-aware)",
        bottom(&exact),
        bottom(&significance)
    ));
    assert_paragraph_says("What the λ rows say at N = 100", &claims);
}

/// The paragraph "What the θr rows say at N = 100": the first places of θr = 1 and 3,
/// how often each ranks fifth or worse, where θr = 1 fails, θr = 1000's record and the
/// two problems that reward many repetitions, recounted from the committed heat maps.
#[test]
fn the_n100_theta_r_paragraph_recounts_the_heat_maps() {
    let [exact, significance] = heat_maps("results/theta_r-D100");
    let all = 1..=28;
    let mut claims = Vec::new();
    let (e1, e3) = (
        exact.firsts("theta_r=1", all.clone()),
        exact.firsts("theta_r=3", all.clone()),
    );
    assert_eq!(
        e1, e3,
        "the paragraph says they share the most first places exactly"
    );
    assert!(exact
        .labels
        .iter()
        .all(|l| exact.firsts(l, all.clone()) <= e1));
    claims.push(format!("they share the most, {e1} each"));
    claims.push(format!(
        "significance-aware θr = 3 has {} against θr = 1's {}",
        significance.firsts("theta_r=3", all.clone()),
        significance.firsts("theta_r=1", all.clone())
    ));
    let poor = |map: &HeatMap, l: &str| map.problems_where(l, 5..=6, all.clone());
    claims.push(format!(
        "it ranks fifth or worse on {} problems exactly ({} significance-aware), θr = 1 on {} ({})",
        poor(&exact, "theta_r=3").len(),
        poor(&significance, "theta_r=3").len(),
        poor(&exact, "theta_r=1").len(),
        poor(&significance, "theta_r=1").len()
    ));
    let poor_significant = poor(&significance, "theta_r=1");
    let both: Vec<usize> = poor(&exact, "theta_r=1")
        .into_iter()
        .filter(|p| poor_significant.contains(p))
        .collect();
    assert_eq!(
        both,
        [7, 15, 24],
        "θr = 1 fifth or worse under both rankings"
    );
    assert_eq!(exact.firsts("theta_r=1000", all.clone()), 0);
    claims.push(format!(
        "sixth on {} of the 28 problems",
        poor(&exact, "theta_r=1000").len()
    ));
    for problem in [6, 9] {
        assert_eq!(
            exact.winners(problem),
            ["theta_r=100"],
            "C{problem}: θr = 100 first"
        );
        assert_eq!(
            exact.rank("theta_r=1000", problem),
            2,
            "C{problem}: θr = 1000 second"
        );
    }
    assert_paragraph_says("What the θr rows say at N = 100", &claims);
}

/// The cells of the markdown table that follows the line starting with `header` in
/// `text`: one `Vec` per row, the header and the rule left out.
fn table_after<'t>(text: &'t str, header: &str) -> Vec<Vec<&'t str>> {
    let start = text
        .find(header)
        .unwrap_or_else(|| panic!("no table headed {header:?}"));
    text[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
        .collect()
}

/// The prose of docs/reproduction.md that judges the paper's N = 100 conclusions
/// quotes the numbers of the generated block it sits above: every "here" and "paper"
/// count of its verdict table is a Table 1 total of the block (the same pairs), and
/// the Table 2 agreement and Table 18 figures it states are the block's. When the
/// committed study is replaced (another kernel, another seed), the prose fails here
/// instead of going stale.
#[test]
fn the_n100_verdicts_quote_the_generated_block() {
    let docs = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    let block = DocBlock::ablation(100)
        .read(&docs)
        .expect("docs/reproduction.md has the N = 100 block");
    let table1 = table_after(
        block,
        "| εMAg-ES vs. | Median +/=/− | Mean +/=/− | Total +/=/− | paper Median",
    );
    assert_eq!(table1.len(), 6, "Table 1 of the block: six variants");
    let mut generated: Vec<(&str, &str)> = table1.iter().map(|r| (r[3], r[6])).collect();
    let verdicts = table_after(
        &docs,
        "| the paper says (N = 100) | here | paper | verdict |",
    );
    let mut quoted: Vec<(&str, &str)> = verdicts.iter().map(|r| (r[1], r[2])).collect();
    generated.sort_unstable();
    quoted.sort_unstable();
    assert_eq!(
        quoted, generated,
        "the verdict table's here/paper counts are not the block's Table 1 totals"
    );

    let agreement = table_after(
        block,
        "| εMAg-ES vs. | same verdict | tie vs. + or − | + vs. − |",
    );
    let all = agreement
        .iter()
        .find(|r| r[0] == "all")
        .expect("the Table 2 agreement's 'all' row");
    let cells: usize = all[1..4].iter().map(|c| c.parse::<usize>().unwrap()).sum();
    for claim in [
        format!("**{} of {cells} Table 2 cells**", all[1]),
        format!("{} differ by one step and {} are opposite", all[2], all[3]),
    ] {
        assert!(
            docs.contains(&claim),
            "the N = 100 prose does not say: {claim}"
        );
    }
    let inside = block
        .split("confidence interval of the measured median")
        .nth(1)
        .and_then(|s| s.split(" of 28 problems").next())
        .and_then(|s| s.rsplit(' ').next())
        .expect("the block's Table 18 sentence");
    let claim = format!("**{inside} of 28 problems**");
    assert!(
        docs.contains(&claim),
        "the N = 100 prose does not say: {claim}"
    );
    println!(
        "N = 100: {} verdict rows, the Table 2 agreement and the Table 18 count checked against the block",
        quoted.len()
    );
}

/// The verdicts of results/tie-cells-D100/tie_cells.md (written by
/// `scripts/analysis/tie_cells.py`, quoted by docs/reproduction.md) are what the
/// harness's own comparison (`bench_stats::pairwise::compare`, as in Table 2) gives on
/// the committed runs of the four seeds, and the docs quote the table.
#[test]
fn the_tie_cells_verdicts_are_the_runs() {
    use bench_stats::pairwise::{compare, Significance, Verdict};
    let table =
        std::fs::read_to_string(root().join("results/tie-cells-D100/tie_cells.md")).unwrap();
    let docs = std::fs::read_to_string(root().join("docs/reproduction.md")).unwrap();
    assert!(
        docs.contains(&table),
        "docs/reproduction.md does not quote tie_cells.md"
    );
    let mut studies =
        vec![Dataset::load(&shard_files(&root().join("results/ablation-D100"))).unwrap()];
    for s in 2..=4 {
        studies.push(
            Dataset::load(&[root().join(format!("results/tie-cells-D100/seed{s}/runs.jsonl.gz"))])
                .unwrap(),
        );
    }
    let rows = table_after(&table, "| variant | problem | paper | seed 1 |");
    assert_eq!(rows.len(), 6, "six cells");
    let mut checked = 0;
    for row in &rows {
        let (variant, problem) = (row[0], row[1][1..].parse::<usize>().unwrap());
        let mut wins = 0;
        for (k, data) in studies.iter().enumerate() {
            let base = data.records("eps-mag-es", problem, 1.0);
            let other = data.records(variant, problem, 1.0);
            assert_eq!(
                (base.len(), other.len()),
                (25, 25),
                "{variant} C{problem:02}"
            );
            let total = compare(&base, &other, Significance::default())
                .unwrap()
                .total;
            let sign = match total {
                Verdict::Plus => "+",
                Verdict::Equal => "=",
                Verdict::Minus => "−",
            };
            assert!(
                row[3 + k].starts_with(sign),
                "{variant} C{problem:02}, seed {}: the runs give {sign}, the table {}",
                k + 1,
                row[3 + k]
            );
            wins += usize::from(total == Verdict::Minus);
            checked += 1;
        }
        assert_eq!(row[7], format!("{wins} of 4"), "{variant} C{problem:02}");
    }
    println!("tie_cells.md: {checked} verdicts recomputed from the committed runs");
}

/// The portfolio's CEC2017 N = 50 test: the committed runs of the frozen `portfolio-share0`
/// beside εMAg-ES-R's committed runs give the committed Table 1 and per-problem table
/// (`results/strategy-design/round4/test-cec2017-D50/`), and docs/strategy-design.md
/// quotes that Table 1's median, mean and total.
#[test]
fn the_cec2017_d50_portfolio_test_gives_its_committed_tables() {
    use emages_harness::study::store::load_runs;
    let dir = root().join("results/strategy-design/round4/test-cec2017-D50");
    let baseline: ma_es::ComponentSpec = "eps-mag-es-r".parse().unwrap();
    let label = baseline.to_string();
    let mut rows: Vec<_> =
        load_runs(&root().join("results/strategy-design/test-sets/cec2017-D50/runs.jsonl.gz"))
            .unwrap()
            .into_iter()
            .filter(|r| r.config == label)
            .collect();
    let portfolio = load_runs(&dir.join("runs.jsonl.gz")).unwrap();
    assert_eq!(
        portfolio.len(),
        700,
        "28 problems × 25 runs of the portfolio"
    );
    assert_eq!(rows.len(), 700, "28 problems × 25 runs of εMAg-ES-R");
    rows.extend(portfolio);
    let data = Dataset::from_rows(rows, Vec::new()).unwrap();
    let out = tempfile::tempdir().unwrap();
    let report =
        emages_paper::baseline_report(&data, out.path(), &ReportOptions::default(), &baseline)
            .expect("the report builds from the complete runs");
    for name in ["table1.md", "table_detail.md"] {
        let built = std::fs::read_to_string(out.path().join(name)).unwrap();
        let committed = std::fs::read_to_string(dir.join(name)).unwrap();
        assert!(
            built == committed,
            "{name} is stale: rebuild it with `cargo run --release --example ablation -- --dim 50 --baseline eps-mag-es-r --variants eps-mag-es-r --with portfolio-share0 --report MERGED` (see the README beside it)"
        );
    }
    let row = report.table1.to_markdown();
    let cells: Vec<&str> = row
        .lines()
        .find(|l| l.starts_with("| portfolio-share0 |"))
        .expect("a row of the portfolio")
        .split('|')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    let quoted = format!(
        "median {}, mean {}, total {}",
        cells[1].replace('/', " / "),
        cells[2].replace('/', " / "),
        cells[3].replace('/', " / ")
    );
    let doc = std::fs::read_to_string(root().join("docs/strategy-design.md")).unwrap();
    assert!(
        doc.contains(&quoted),
        "docs/strategy-design.md should quote \"{quoted}\""
    );
    println!("checked 1400 runs, 28 problems; the docs quote {quoted}");
}
