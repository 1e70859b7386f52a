//! Plots (SVG and PNG): line charts of mean dynamics and rank heat maps.
//!
//! PNG text is rendered with the DejaVu Sans font compiled into the binary, so no system
//! fonts are needed.

use crate::error::StudyError;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const FONT: &str = "sans-serif";

/// Registers the embedded DejaVu Sans as plotters' "sans-serif" font (idempotent).
///
/// # Errors
/// [`StudyError::Other`] if plotters rejects the font.
pub fn register_font() -> Result<(), StudyError> {
    static DONE: OnceLock<bool> = OnceLock::new();
    let ok = *DONE.get_or_init(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular()).is_ok()
    });
    if ok {
        Ok(())
    } else {
        Err(StudyError::Other("cannot register the plot font".into()))
    }
}

fn plot_err<E: std::fmt::Display>(path: &Path) -> impl Fn(E) -> StudyError + '_ {
    move |e| StudyError::Other(format!("{}: {e}", path.display()))
}

/// One line of a chart.
#[derive(Clone, Debug)]
pub struct Series {
    /// Legend label.
    pub label: String,
    /// Points `(x, y)`; non-finite points, points beyond ±1e300 and, on a log axis,
    /// points below 1e-300 are skipped.
    pub points: Vec<(f64, f64)>,
    /// An optional circle marker.
    pub marker: Option<(f64, f64)>,
}

/// The largest magnitude (and, on a log axis, the largest ratio of the ends) plotted.
const AXIS_LIMIT: f64 = 1e300;

/// A palette that stays distinguishable for seven lines.
const COLORS: [RGBColor; 8] = [
    RGBColor(0, 0, 0),
    RGBColor(230, 25, 75),
    RGBColor(60, 120, 216),
    RGBColor(60, 180, 75),
    RGBColor(245, 130, 48),
    RGBColor(145, 30, 180),
    RGBColor(70, 200, 200),
    RGBColor(128, 128, 0),
];

/// A compact tick label: integers without decimals, large or small values in
/// scientific notation.
fn format_tick(v: f64) -> String {
    let a = v.abs();
    if a != 0.0 && !(1e-3..1e6).contains(&a) {
        format!("{v:.1e}")
    } else if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.4}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

fn draw_lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[Series],
    log_y: bool,
) -> Result<(), String> {
    area.fill(&WHITE).map_err(|e| e.to_string())?;
    // Points beyond ±1e300 (or below 1e-300 on a log axis) are left out like non-finite
    // ones: plotters' tick search needs a finite span.
    let usable = |&(x, y): &(f64, f64)| {
        x.is_finite() && y.abs() <= AXIS_LIMIT && (!log_y || y >= 1.0 / AXIS_LIMIT)
    };
    let pts: Vec<(f64, f64)> = series
        .iter()
        .flat_map(|s| s.points.iter().copied().filter(usable))
        .collect();
    let (mut x0, mut x1, mut y0, mut y1) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for &(x, y) in &pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if pts.is_empty() {
        (x0, x1, y0, y1) = (0.0, 1.0, 1.0, 10.0);
    }
    if x1 <= x0 {
        x1 = x0 + 1.0;
    }
    // Spans stay finite: on an axis from 1e-300 to 1e300 the ratio of the ends
    // overflows, and plotters' tick search would never end.
    if log_y {
        if y1 <= y0 {
            y1 = y0 * 10.0;
        }
        y0 /= 2.0;
        y1 *= 2.0;
        y0 = y0.max(y1 / AXIS_LIMIT);
    } else {
        let pad = if y1 > y0 { 0.05 * (y1 - y0) } else { 1.0 };
        y0 -= pad;
        y1 += pad;
    }
    let mut builder = ChartBuilder::on(area);
    builder
        .caption(title, (FONT, 22))
        .margin(12)
        .x_label_area_size(42)
        .y_label_area_size(80);
    let x_fmt = |x: &f64| format_tick(*x);
    let y_fmt = |y: &f64| {
        if log_y {
            format!("{y:.0e}")
        } else {
            format_tick(*y)
        }
    };
    macro_rules! finish {
        ($chart:expr) => {{
            let mut chart = $chart;
            chart
                .configure_mesh()
                .x_desc(x_desc)
                .y_desc(y_desc)
                .x_label_formatter(&x_fmt)
                .y_label_formatter(&y_fmt)
                .label_style((FONT, 13))
                .draw()
                .map_err(|e| e.to_string())?;
            for (i, s) in series.iter().enumerate() {
                let color = COLORS[i % COLORS.len()];
                chart
                    .draw_series(LineSeries::new(
                        s.points.iter().copied().filter(usable),
                        color.stroke_width(2),
                    ))
                    .map_err(|e| e.to_string())?
                    .label(s.label.clone())
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                    });
                if let Some(m) = s.marker.filter(usable) {
                    chart
                        .draw_series(std::iter::once(Circle::new(m, 6, color.filled())))
                        .map_err(|e| e.to_string())?;
                }
            }
            chart
                .configure_series_labels()
                .label_font((FONT, 13))
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .position(SeriesLabelPosition::UpperRight)
                .draw()
                .map_err(|e| e.to_string())?;
        }};
    }
    if log_y {
        finish!(builder
            .build_cartesian_2d(x0..x1, (y0..y1).log_scale())
            .map_err(|e| e.to_string())?);
    } else {
        finish!(builder
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(|e| e.to_string())?);
    }
    area.present().map_err(|e| e.to_string())
}

/// Writes a line chart as `stem.svg` and `stem.png`; returns both paths.
///
/// # Errors
/// [`StudyError::Other`] naming the file if drawing fails.
pub fn line_chart(
    stem: &Path,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[Series],
    log_y: bool,
) -> Result<Vec<PathBuf>, StudyError> {
    register_font()?;
    let svg = stem.with_extension("svg");
    let png = stem.with_extension("png");
    {
        let area = SVGBackend::new(&svg, (900, 560)).into_drawing_area();
        draw_lines(&area, title, x_desc, y_desc, series, log_y).map_err(plot_err(&svg))?;
    }
    {
        let area = BitMapBackend::new(&png, (900, 560)).into_drawing_area();
        draw_lines(&area, title, x_desc, y_desc, series, log_y).map_err(plot_err(&png))?;
    }
    Ok(vec![svg, png])
}

fn draw_heat_map<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    rows: &[String],
    cols: &[String],
    ranks: &[Vec<usize>],
) -> Result<(), String> {
    use plotters::coord::ranged1d::SegmentValue;
    area.fill(&WHITE).map_err(|e| e.to_string())?;
    let (nr, nc) = (rows.len() as i32, cols.len() as i32);
    let max_rank = ranks.iter().flatten().copied().max().unwrap_or(1).max(1);
    let mut chart = ChartBuilder::on(area)
        .caption(title, (FONT, 20))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(56)
        // A segmented range a..b has the b − a + 1 segments a, …, b.
        .build_cartesian_2d((0..nc - 1).into_segmented(), (0..nr - 1).into_segmented())
        .map_err(|e| e.to_string())?;
    // Row 0 (the first problem) is drawn at the top.
    let label = |v: &SegmentValue<i32>, names: &[String], flip: bool| match v {
        SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => {
            let i = if flip {
                names.len() as i32 - 1 - *i
            } else {
                *i
            };
            usize::try_from(i)
                .ok()
                .and_then(|i| names.get(i))
                .cloned()
                .unwrap_or_default()
        }
        SegmentValue::Last => String::new(),
    };
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(cols.len())
        .y_labels(rows.len())
        .x_label_formatter(&|v| label(v, cols, false))
        .y_label_formatter(&|v| label(v, rows, true))
        .label_style((FONT, 13))
        .draw()
        .map_err(|e| e.to_string())?;
    for (i, row) in ranks.iter().enumerate() {
        let y = nr - 1 - i as i32;
        for (j, &r) in row.iter().enumerate() {
            // darker = better: rank 1 is darkest
            let t = if max_rank > 1 {
                (r - 1) as f64 / (max_rank - 1) as f64
            } else {
                0.0
            };
            let shade = (30.0 + 200.0 * t) as u8;
            let fill = RGBColor(shade / 3, shade / 2 + 10, shade.saturating_add(25));
            let x = j as i32;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [
                        (SegmentValue::Exact(x), SegmentValue::Exact(y)),
                        (SegmentValue::Exact(x + 1), SegmentValue::Exact(y + 1)),
                    ],
                    fill.filled(),
                )))
                .map_err(|e| e.to_string())?;
            let text_color = if t < 0.5 { WHITE } else { BLACK };
            let style = TextStyle::from((FONT, 14).into_font())
                .color(&text_color)
                .pos(plotters::style::text_anchor::Pos::new(
                    plotters::style::text_anchor::HPos::Center,
                    plotters::style::text_anchor::VPos::Center,
                ));
            chart
                .draw_series(std::iter::once(Text::new(
                    r.to_string(),
                    (SegmentValue::CenterOf(x), SegmentValue::CenterOf(y)),
                    style,
                )))
                .map_err(|e| e.to_string())?;
        }
    }
    area.present().map_err(|e| e.to_string())
}

/// Writes a heat map of ranks (rows × columns, darker = better, ranks in the tiles) as
/// `stem.svg` and `stem.png`.
///
/// # Errors
/// [`StudyError::Other`] naming the file if drawing fails.
pub fn heat_map(
    stem: &Path,
    title: &str,
    rows: &[String],
    cols: &[String],
    ranks: &[Vec<usize>],
) -> Result<Vec<PathBuf>, StudyError> {
    register_font()?;
    let svg = stem.with_extension("svg");
    let png = stem.with_extension("png");
    let height = (120 + 26 * rows.len()) as u32;
    let width = (160 + 70 * cols.len()).max(500) as u32;
    {
        let area = SVGBackend::new(&svg, (width, height)).into_drawing_area();
        draw_heat_map(&area, title, rows, cols, ranks).map_err(plot_err(&svg))?;
    }
    {
        let area = BitMapBackend::new(&png, (width, height)).into_drawing_area();
        draw_heat_map(&area, title, rows, cols, ranks).map_err(plot_err(&png))?;
    }
    Ok(vec![svg, png])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A σ curve that reaches the largest doubles (the nl variant's divergence) still
    /// gives a chart, on finite axes.
    #[test]
    fn extreme_values_still_plot() {
        let dir = tempfile::tempdir().unwrap();
        let series = [
            Series {
                label: "diverging".into(),
                points: vec![
                    (1.0, 1.0),
                    (2.0, 1e200),
                    (3.0, 1.7e308),
                    (4.0, f64::INFINITY),
                ],
                marker: None,
            },
            Series {
                label: "tiny".into(),
                points: vec![(1.0, 1e-300), (2.0, 5e-324), (3.0, f64::NAN)],
                marker: None,
            },
        ];
        for log_y in [true, false] {
            let files = line_chart(
                &dir.path().join(format!("c{log_y}")),
                "t",
                "x",
                "y",
                &series,
                log_y,
            )
            .unwrap();
            assert!(files.iter().all(|f| f.is_file()));
        }
    }
}
