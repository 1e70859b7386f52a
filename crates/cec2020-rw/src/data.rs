//! The problems' numeric tables, embedded from `data/` (see `data/README.md` for their
//! source) and parsed once, on first use.

use std::sync::OnceLock;

/// A dense row-major table of numbers.
#[derive(Debug)]
pub(crate) struct Table {
    pub rows: usize,
    pub cols: usize,
    values: Vec<f64>,
}

impl Table {
    fn parse(name: &str, text: &str) -> Self {
        let mut cols = 0;
        let mut values = Vec::new();
        let mut rows = 0;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let before = values.len();
            values.extend(line.split_whitespace().map(|t| {
                t.parse::<f64>()
                    .unwrap_or_else(|e| panic!("embedded table {name}: {t:?}: {e}"))
            }));
            let n = values.len() - before;
            assert!(
                rows == 0 || n == cols,
                "embedded table {name}: ragged row {rows}"
            );
            cols = n;
            rows += 1;
        }
        Self { rows, cols, values }
    }

    /// The entry in row `i`, column `j` (0-based).
    #[inline]
    pub fn at(&self, i: usize, j: usize) -> f64 {
        self.values[i * self.cols + j]
    }

    /// Row `i`.
    #[inline]
    pub fn row(&self, i: usize) -> &[f64] {
        &self.values[i * self.cols..(i + 1) * self.cols]
    }
}

macro_rules! table {
    ($fn:ident, $file:literal) => {
        pub(crate) fn $fn() -> &'static Table {
            static T: OnceLock<Table> = OnceLock::new();
            T.get_or_init(|| Table::parse($file, include_str!(concat!("../data/", $file))))
        }
    };
}

table!(ps1_g, "FunctionPS1_G.txt");
table!(ps1_b, "FunctionPS1_B.txt");
table!(ps1_p, "FunctionPS1_P.txt");
table!(ps1_q, "FunctionPS1_Q.txt");
table!(ps2_g, "FunctionPS2_G.txt");
table!(ps2_b, "FunctionPS2_B.txt");
table!(ps2_p, "FunctionPS2_P.txt");
table!(ps2_q, "FunctionPS2_Q.txt");
table!(ps11_g, "FunctionPS11_G.txt");
table!(ps11_b, "FunctionPS11_B.txt");
table!(ps11_p, "FunctionPS11_P.txt");
table!(ps11_q, "FunctionPS11_Q.txt");
table!(ps14_lines, "FunctionPS14_linedata.txt");
table!(feed, "FunctionRM_feed.txt");
table!(dairy, "FunctionRM_dairy.txt");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_have_the_shapes_the_problems_index() {
        for (t, r, c) in [
            (ps1_g(), 30, 30),
            (ps1_b(), 30, 30),
            (ps1_p(), 30, 1),
            (ps1_q(), 30, 1),
            (ps2_g(), 38, 38),
            (ps2_b(), 38, 38),
            (ps2_p(), 38, 6),
            (ps2_q(), 38, 6),
            (ps11_g(), 30, 30),
            (ps11_b(), 30, 30),
            (ps11_p(), 30, 1),
            (ps11_q(), 30, 1),
            (ps14_lines(), 37, 6),
            (feed(), 7, 59),
            (dairy(), 14, 64),
        ] {
            assert_eq!((t.rows, t.cols), (r, c));
        }
    }
}
