//! The paper's published aggregate results, to set beside measured ones.
//!
//! Hellwig & Beyer, Tables 1 (significance-based ranking) and A1 (the original CEC
//! ranking), εMAg-ES versus each reduced variant over the 28 problems, `+/=/−` for the
//! median, mean and total rank.

/// `(plus, equal, minus)` for median, mean, total.
pub type Row = [(u32, u32, u32); 3];

/// The paper's row for `variant` (preset name) in dimension `dim` (10 or 100), with
/// (`significance = true`, Table 1) or without (Table A1) significance testing.
#[must_use]
pub fn table1(variant: &str, dim: usize, significance: bool) -> Option<Row> {
    let rows: &[(&str, Row, Row)] = match (significance, dim) {
        (true, _) => &[
            (
                "eps-ma-es",
                [(7, 19, 2), (7, 17, 4), (7, 18, 3)],
                [(5, 12, 11), (7, 11, 10), (5, 13, 10)],
            ),
            (
                "eps-mag-es-wo",
                [(8, 17, 2), (10, 15, 3), (10, 15, 3)],
                [(10, 8, 10), (13, 6, 9), (11, 8, 9)],
            ),
            (
                "eps-mag-es-nl",
                [(12, 14, 2), (14, 12, 2), (14, 12, 2)],
                [(5, 15, 8), (7, 14, 7), (5, 16, 7)],
            ),
            (
                "eps-sag-es",
                [(18, 9, 1), (20, 7, 1), (20, 7, 1)],
                [(18, 8, 2), (18, 8, 2), (17, 10, 1)],
            ),
            (
                "lex-mag-es",
                [(6, 20, 2), (7, 18, 3), (7, 18, 3)],
                [(9, 10, 9), (10, 9, 9), (9, 11, 8)],
            ),
            (
                "lex-ma-es",
                [(8, 16, 4), (8, 14, 6), (8, 14, 6)],
                [(14, 7, 7), (14, 7, 7), (13, 9, 6)],
            ),
        ],
        (false, _) => &[
            (
                "eps-ma-es",
                [(11, 13, 4), (12, 8, 8), (11, 11, 6)],
                [(8, 2, 18), (11, 1, 16), (8, 6, 14)],
            ),
            (
                "eps-mag-es-wo",
                [(14, 9, 5), (21, 0, 7), (19, 5, 4)],
                [(15, 0, 13), (15, 0, 13), (13, 4, 11)],
            ),
            (
                "eps-mag-es-nl",
                [(15, 9, 4), (20, 5, 3), (18, 7, 3)],
                [(11, 2, 15), (12, 1, 15), (9, 6, 13)],
            ),
            (
                "eps-sag-es",
                [(23, 3, 2), (23, 2, 3), (22, 5, 1)],
                [(21, 0, 7), (22, 0, 6), (20, 3, 5)],
            ),
            (
                "lex-mag-es",
                [(7, 13, 8), (15, 5, 8), (11, 9, 8)],
                [(15, 0, 13), (14, 0, 14), (13, 3, 12)],
            ),
            (
                "lex-ma-es",
                [(9, 11, 8), (17, 3, 8), (13, 7, 8)],
                [(16, 0, 12), (17, 0, 11), (15, 3, 10)],
            ),
        ],
    };
    let &(_, d10, d100) = rows.iter().find(|(name, _, _)| *name == variant)?;
    match dim {
        10 => Some(d10),
        100 => Some(d100),
        _ => None,
    }
}

/// `a/b/c`.
#[must_use]
pub fn fmt(t: (u32, u32, u32)) -> String {
    format!("{}/{}/{}", t.0, t.1, t.2)
}
