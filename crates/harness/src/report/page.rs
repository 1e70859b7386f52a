//! A self-contained HTML report: tables inline, plots as inline SVG.

use bench_stats::Table;
use std::fmt::Write as _;

/// Escapes text for HTML.
#[must_use]
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// One part of the page.
#[derive(Clone, Debug)]
pub enum Block {
    /// A heading.
    Heading(String),
    /// A paragraph.
    Text(String),
    /// A highlighted warning.
    Warning(String),
    /// A table.
    Table(Table),
    /// An SVG image (its file content) with a caption.
    Svg {
        /// The SVG document.
        svg: String,
        /// The caption.
        caption: String,
    },
    /// Collapsible content.
    Details {
        /// The summary line.
        summary: String,
        /// The content.
        blocks: Vec<Block>,
    },
}

/// A report page.
#[derive(Clone, Debug, Default)]
pub struct Page {
    /// The title.
    pub title: String,
    /// The content.
    pub blocks: Vec<Block>,
}

fn table_html(t: &Table, out: &mut String) {
    if let Some(title) = &t.title {
        let _ = write!(out, "<h3>{}</h3>", escape(title));
    }
    out.push_str("<table><thead><tr>");
    for h in &t.headers {
        let _ = write!(out, "<th>{}</th>", escape(h));
    }
    out.push_str("</tr></thead><tbody>");
    for row in &t.rows {
        out.push_str("<tr>");
        for c in row {
            let _ = write!(out, "<td>{}</td>", escape(c));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    for n in &t.notes {
        let _ = write!(out, "<p class=\"note\">{}</p>", escape(n));
    }
}

fn blocks_html(blocks: &[Block], out: &mut String) {
    for b in blocks {
        match b {
            Block::Heading(h) => {
                let _ = write!(out, "<h2>{}</h2>", escape(h));
            }
            Block::Text(t) => {
                let _ = write!(out, "<p>{}</p>", escape(t));
            }
            Block::Warning(w) => {
                let _ = write!(out, "<p class=\"warning\">{}</p>", escape(w));
            }
            Block::Table(t) => table_html(t, out),
            Block::Svg { svg, caption } => {
                // Drop an XML declaration; the SVG element itself is inlined.
                let body = svg.find("<svg").map_or(svg.as_str(), |i| &svg[i..]);
                let _ = write!(
                    out,
                    "<figure>{body}<figcaption>{}</figcaption></figure>",
                    escape(caption)
                );
            }
            Block::Details { summary, blocks } => {
                let _ = write!(out, "<details><summary>{}</summary>", escape(summary));
                blocks_html(blocks, out);
                out.push_str("</details>");
            }
        }
    }
}

impl Page {
    /// The whole page.
    #[must_use]
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = write!(
            out,
            "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>\
             body{{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}}\
             table{{border-collapse:collapse;margin:1em 0;font-size:0.9em}}\
             th,td{{border:1px solid #bbb;padding:3px 8px;text-align:center}}th{{background:#eee}}\
             .warning{{background:#fff3cd;border:2px solid #e0a800;padding:0.8em;font-weight:bold}}\
             .note{{color:#555;font-size:0.85em}}figure{{margin:1em 0}}figure svg{{max-width:100%;height:auto}}\
             </style></head><body><h1>{}</h1>",
            escape(&self.title),
            escape(&self.title)
        );
        blocks_html(&self.blocks, &mut out);
        out.push_str("</body></html>\n");
        out
    }
}
