//! Tables rendered as Markdown and CSV.

use crate::error::StatsError;
use serde::{Deserialize, Serialize};

/// A table: a header row, data rows, and notes printed under the Markdown version.
///
/// ```
/// use bench_stats::table::Table;
/// let mut t = Table::new(["variant", "total"]);
/// t.push(["εMA-ES", "12/10/6"]);
/// assert!(t.to_markdown().contains("| εMA-ES | 12/10/6 |"));
/// assert_eq!(t.to_csv().unwrap(), "variant,total\nεMA-ES,12/10/6\n");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// An optional title (Markdown: a bold line above the table).
    pub title: Option<String>,
    /// Column names.
    pub headers: Vec<String>,
    /// Data rows (as many cells as headers).
    pub rows: Vec<Vec<String>>,
    /// Notes under the table (Markdown only).
    pub notes: Vec<String>,
}

impl Table {
    /// An empty table with these column names.
    pub fn new<I, S>(headers: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self {
            headers: headers.into_iter().map(Into::into).collect(),
            ..Self::default()
        }
    }

    /// Sets the title.
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Appends a row.
    pub fn push<I, S>(&mut self, row: I)
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.rows.push(row.into_iter().map(Into::into).collect());
    }

    /// Appends a note.
    pub fn note(&mut self, note: impl Into<String>) {
        self.notes.push(note.into());
    }

    /// GitHub-flavoured Markdown.
    #[must_use]
    pub fn to_markdown(&self) -> String {
        let escape = |s: &str| s.replace('|', "\\|");
        let mut out = String::new();
        if let Some(t) = &self.title {
            out.push_str(&format!("**{}**\n\n", escape(t)));
        }
        let line = |cells: &[String]| {
            format!(
                "| {} |\n",
                cells
                    .iter()
                    .map(|c| escape(c))
                    .collect::<Vec<_>>()
                    .join(" | ")
            )
        };
        out.push_str(&line(&self.headers));
        out.push_str(&format!("|{}\n", "---|".repeat(self.headers.len())));
        for row in &self.rows {
            out.push_str(&line(row));
        }
        for n in &self.notes {
            out.push_str(&format!("\n{n}\n"));
        }
        out
    }

    /// CSV (RFC 4180 quoting) of the header and rows.
    ///
    /// # Errors
    /// [`StatsError::Output`] if the CSV writer fails (rows of unequal length).
    pub fn to_csv(&self) -> Result<String, StatsError> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let err = |e: csv::Error| StatsError::Output(e.to_string());
        w.write_record(&self.headers).map_err(err)?;
        for row in &self.rows {
            w.write_record(row).map_err(err)?;
        }
        let bytes = w
            .into_inner()
            .map_err(|e| StatsError::Output(e.to_string()))?;
        String::from_utf8(bytes).map_err(|e| StatsError::Output(e.to_string()))
    }
}
