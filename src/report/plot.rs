//! The benchmark plot: one panel per file, one row per backend, each row a box-and-whisker of the
//! time per puzzle on a shared logarithmic axis, over a strip of individual puzzle times.
//!
//! Row `i` of every panel is the same backend in the same colour, so a reader compares panels
//! row by row. Boxes show answered puzzles only; puzzles a backend timed out on, refused or
//! failed on are counted beside its row, and a row with no answer says so instead
//! of drawing a box. Within a panel the median printed in bold is the lowest among the backends
//! that answered every puzzle. A row whose backend reported its search effort says, under its
//! median and p90, its mean guesses per puzzle and its share of puzzles solved without a guess.

use std::collections::HashMap;
use std::path::Path;

use plotters::coord::combinators::{LogCoord, WithKeyPoints};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{fmt_micros, percentile, ReportError};

/// The per-puzzle times (µs) of one backend on one file.
#[derive(Debug, Clone, PartialEq)]
pub struct PlotSeries {
    pub file: String,
    pub backend: String,
    /// Times per answered puzzle in microseconds. Values below [`MIN_US`] (zero included) are
    /// drawn at [`MIN_US`]; NaN is ignored.
    pub times_us: Vec<f64>,
    /// Puzzles attempted without an answer (timed out, refused, failed): counted, not drawn.
    pub unanswered: usize,
    /// Of those, the ones that ran out of time.
    pub timed_out: usize,
    /// Of those, the ones the backend refused (size, form, task); the rest failed.
    pub refused: usize,
    /// The row's `guesses_per_puzzle` and `no_guess_pct` (see
    /// [`RowRecord`](super::RowRecord)), when the backend measured them.
    pub effort: Option<(f64, f64)>,
}

impl PlotSeries {
    /// A series from measured durations (converted to µs, nanosecond resolution).
    pub fn from_durations(
        file: impl Into<String>,
        backend: impl Into<String>,
        times: &[std::time::Duration],
    ) -> PlotSeries {
        PlotSeries {
            file: file.into(),
            backend: backend.into(),
            times_us: times.iter().map(|t| t.as_nanos() as f64 / 1000.0).collect(),
            unanswered: 0,
            timed_out: 0,
            refused: 0,
            effort: None,
        }
    }

    /// A series from `bench` samples: the times of answered puzzles, and how many were not.
    pub fn from_samples(
        file: impl Into<String>,
        backend: impl Into<String>,
        samples: &[(super::Outcome, std::time::Duration)],
    ) -> PlotSeries {
        let answered: Vec<std::time::Duration> = samples
            .iter()
            .filter(|(o, _)| o.answered())
            .map(|&(_, t)| t)
            .collect();
        let count = |outcome| samples.iter().filter(|(o, _)| *o == outcome).count();
        PlotSeries {
            unanswered: samples.len() - answered.len(),
            timed_out: count(super::Outcome::TimedOut),
            refused: count(super::Outcome::Refused),
            ..PlotSeries::from_durations(file, backend, &answered)
        }
    }
}

/// Smallest time drawn: the log axis cannot show zero.
pub const MIN_US: f64 = 0.1;
/// At most this many individual points per row (chosen evenly by rank, so the strip keeps the
/// shape of the distribution while the SVG stays small).
const MAX_DOTS: usize = 150;
/// Tableau 10, without the yellow that is unreadable on white.
const PALETTE: [RGBColor; 9] = [
    RGBColor(0x4e, 0x79, 0xa7),
    RGBColor(0xf2, 0x8e, 0x2b),
    RGBColor(0xe1, 0x57, 0x59),
    RGBColor(0x59, 0xa1, 0x4f),
    RGBColor(0xb0, 0x7a, 0xa1),
    RGBColor(0x76, 0xb7, 0xb2),
    RGBColor(0x9c, 0x75, 0x5f),
    RGBColor(0xff, 0x9d, 0xa7),
    RGBColor(0xba, 0xb0, 0xac),
];
const FONT: &str = "sans-serif";
const HEADER_H: u32 = 80;
/// Height of each line of the footer's key, and the margin around them.
const FOOTER_LINE_H: u32 = 18;
const FOOTER_PAD_H: u32 = 10;
/// Size of the footer's text, and the width of one of its characters as estimated for wrapping
/// (sans-serif averages about 0.55 em; a little more, so that no viewer's font runs over).
const FOOTER_FONT: u32 = 13;
const FOOTER_CHAR_W: f64 = 7.6;
/// Vertical pixels per backend row in a panel.
const ROW_H: u32 = 42;
/// Panel caption + x axis + margins.
const PANEL_EXTRA_H: u32 = 100;
/// Room right of each panel's axis for the median / p90 annotations.
const ANNOTATION_W: u32 = 135;
/// More room there when a row also says its effort (`0.38 guesses · 82.9% no guess`).
const EFFORT_EXTRA_W: u32 = 60;

const GREY: RGBColor = RGBColor(0x55, 0x55, 0x55);

/// A text style anchored vertically at its centre.
fn text(size: u32, weight: FontStyle, c: RGBColor, h: HPos) -> TextStyle<'static> {
    TextStyle {
        font: (FONT, size, weight).into_font(),
        color: c.to_backend_color(),
        pos: Pos::new(h, VPos::Center),
    }
}

fn plot_err(e: impl std::fmt::Display) -> ReportError {
    ReportError::Plot(e.to_string())
}

fn colour(backend: usize) -> RGBColor {
    PALETTE[backend % PALETTE.len()]
}

/// One backend's times on one file, sorted and clamped.
struct Dist {
    sorted: Vec<f64>,
}

impl Dist {
    fn q(&self, pct: u32) -> f64 {
        percentile(&self.sorted, pct).unwrap_or(MIN_US)
    }
}

/// Series grouped by file (first-appearance order) and backend (global first-appearance order);
/// duplicate (file, backend) series are merged.
struct Grouped {
    files: Vec<String>,
    backends: Vec<String>,
    /// `dists[file][backend]`, `None` when that pair has no finite time.
    dists: Vec<Vec<Option<Dist>>>,
    /// `unanswered[file][backend]`: puzzles without an answer.
    unanswered: Vec<Vec<usize>>,
    /// `timed_out[file][backend]`: of those, the ones that ran out of time.
    timed_out: Vec<Vec<usize>>,
    /// `refused[file][backend]`: of those, the ones the backend refused.
    refused: Vec<Vec<usize>>,
    /// `effort[(file, backend)]`: guesses per puzzle and no-guess share, when measured.
    effort: HashMap<(usize, usize), (f64, f64)>,
}

fn group(series: &[PlotSeries]) -> Grouped {
    let mut files: Vec<String> = Vec::new();
    let mut backends: Vec<String> = Vec::new();
    let mut times: HashMap<(usize, usize), Vec<f64>> = HashMap::new();
    let mut missed: HashMap<(usize, usize), usize> = HashMap::new();
    let mut late: HashMap<(usize, usize), usize> = HashMap::new();
    let mut declined: HashMap<(usize, usize), usize> = HashMap::new();
    let mut effort: HashMap<(usize, usize), (f64, f64)> = HashMap::new();
    let index = |list: &mut Vec<String>, name: &str| {
        list.iter().position(|n| n == name).unwrap_or_else(|| {
            list.push(name.to_string());
            list.len() - 1
        })
    };
    for s in series {
        let f = index(&mut files, &s.file);
        let b = index(&mut backends, &s.backend);
        *missed.entry((f, b)).or_default() += s.unanswered;
        *late.entry((f, b)).or_default() += s.timed_out;
        *declined.entry((f, b)).or_default() += s.refused;
        if let Some(e) = s.effort {
            effort.insert((f, b), e);
        }
        let v = times.entry((f, b)).or_default();
        v.extend(
            s.times_us
                .iter()
                .filter(|t| !t.is_nan())
                .map(|&t| t.max(MIN_US)),
        );
    }
    let dists = (0..files.len())
        .map(|f| {
            (0..backends.len())
                .map(|b| {
                    let mut sorted = times.remove(&(f, b)).unwrap_or_default();
                    sorted.sort_by(f64::total_cmp);
                    (!sorted.is_empty()).then_some(Dist { sorted })
                })
                .collect()
        })
        .collect();
    let table = |counts: &HashMap<(usize, usize), usize>| -> Vec<Vec<usize>> {
        (0..files.len())
            .map(|f| {
                (0..backends.len())
                    .map(|b| counts.get(&(f, b)).copied().unwrap_or(0))
                    .collect()
            })
            .collect()
    };
    let (unanswered, timed_out, refused) = (table(&missed), table(&late), table(&declined));
    Grouped {
        files,
        backends,
        dists,
        unanswered,
        timed_out,
        refused,
        effort,
    }
}

/// Axis bounds: whole decades around every time, at least one decade wide, with at least a
/// tenth of a decade of room on both sides so no time sits on the frame.
fn axis_range(g: &Grouped) -> Option<(f64, f64)> {
    let all = g.dists.iter().flatten().flatten();
    let Some(lo) = all.clone().map(|d| d.sorted[0]).reduce(f64::min) else {
        // Nothing answered anywhere: still a plot (every row says so), over 1 µs – 1 s.
        let attempted = g.unanswered.iter().flatten().any(|&u| u > 0);
        return attempted.then_some((1.0, 1e6));
    };
    let hi = all.map(|d| d.sorted[d.sorted.len() - 1]).reduce(f64::max)?;
    let lo = 10f64.powf((lo.log10() - 0.1).floor());
    let hi = 10f64.powf((hi.log10() + 0.1).ceil()).min(f64::MAX);
    Some((lo, if hi > lo { hi } else { lo * 10.0 }))
}

/// Tick label for a decade: `100 ns`, `1 µs`, `10 ms`, `1 s`.
fn tick_label(us: &f64) -> String {
    fmt_micros(*us).replace(".00 ", " ").replace(".0 ", " ")
}

/// Deterministic jitter in `[-1, 1)` for the `k`-th dot (golden-ratio sequence).
fn jitter(k: usize) -> f64 {
    let x = (k as f64 * 0.618_033_988_749_895).fract();
    2.0 * x - 1.0
}

/// Draws one panel per file of per-backend time distributions (µs per puzzle, log scale) and
/// writes it as SVG to `path`. Every panel shares the time axis, the backend order and colours;
/// a legend under `title` names the backends, a footer explains the glyphs.
///
/// Files and backends appear in the order they first occur in `series`; pass short file names
/// (the panel captions are not wrapped). Fails with [`ReportError::NoData`] when no series holds
/// a time or an unanswered puzzle.
pub fn plot_svg(series: &[PlotSeries], path: &Path, title: &str) -> Result<(), ReportError> {
    let svg = plot_svg_text(series, title)?;
    std::fs::write(path, svg).map_err(|e| plot_err(format!("{}: {e}", path.display())))
}

/// The picture of [`plot_svg`] as SVG text, for any writer.
pub fn plot_svg_text(series: &[PlotSeries], title: &str) -> Result<String, ReportError> {
    let mut svg = String::new();
    draw(series, title, &mut svg)?;
    Ok(svg)
}

/// Draws the picture of [`plot_svg`] into `svg`.
fn draw(series: &[PlotSeries], title: &str, svg: &mut String) -> Result<(), ReportError> {
    let g = group(series);
    let (lo, hi) = axis_range(&g).ok_or(ReportError::NoData)?;
    let cols = if g.files.len() == 1 { 1 } else { 2 };
    let rows = g.files.len().div_ceil(cols);
    let panel_w = if cols == 1 { 900 } else { 660 };
    let panel_h = PANEL_EXTRA_H + ROW_H * g.backends.len() as u32;
    let width = panel_w * cols as u32;
    let key = key_lines(width);
    let footer_h = FOOTER_PAD_H + FOOTER_LINE_H * key.len() as u32;
    let size = (width, HEADER_H + footer_h + panel_h * rows as u32);

    let root = SVGBackend::with_string(svg, size).into_drawing_area();
    root.fill(&WHITE).map_err(plot_err)?;
    let (header, rest) = root.split_vertically(HEADER_H);
    let (body, footer) = rest.split_vertically(panel_h * rows as u32);
    draw_header(&header, title, &g.backends)?;
    for (i, line) in key.into_iter().enumerate() {
        let y = FOOTER_PAD_H / 2 + FOOTER_LINE_H * i as u32 + FOOTER_LINE_H / 2;
        footer
            .draw(&Text::new(
                line,
                (10, y as i32),
                text(FOOTER_FONT, FontStyle::Normal, GREY, HPos::Left),
            ))
            .map_err(plot_err)?;
    }

    let panels = body.split_evenly((rows, cols));
    for (f, area) in panels.iter().enumerate().take(g.files.len()) {
        draw_panel(&root, area, f, &g, (lo, hi))?;
    }
    root.present().map_err(plot_err)?;
    Ok(())
}

/// The footer's key to the glyphs, wrapped between its items into lines that fit `width` pixels
/// (with 10 px margins).
fn key_lines(width: u32) -> Vec<String> {
    let items = [
        "box: p25–p75".to_string(),
        "black bar: median".into(),
        "◆: p90".into(),
        "whiskers: min–max".into(),
        format!("dots: puzzles (≤{MAX_DOTS} per row, by rank)"),
        "answered puzzles only".into(),
        "bold: fastest median of the rows with no unanswered puzzle".into(),
    ];
    let most = ((width.saturating_sub(20)) as f64 / FOOTER_CHAR_W) as usize;
    let mut lines: Vec<String> = Vec::new();
    for item in items {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 3 + item.chars().count() <= most => {
                line.push_str(" · ");
                line.push_str(&item);
            }
            _ => lines.push(item),
        }
    }
    lines
}

fn draw_header(
    area: &DrawingArea<SVGBackend, Shift>,
    title: &str,
    backends: &[String],
) -> Result<(), ReportError> {
    let (w, _) = area.dim_in_pixel();
    area.draw(&Text::new(
        title.to_string(),
        (w as i32 / 2, 22),
        text(26, FontStyle::Bold, BLACK, HPos::Center),
    ))
    .map_err(plot_err)?;
    // Legend: swatch + name per backend, centred; widths estimated at ~8 px per character.
    let item_w = |name: &str| 24 + 8 * name.chars().count() as i32 + 22;
    let total: i32 = backends.iter().map(|b| item_w(b)).sum();
    let mut x = (w as i32 - total).max(0) / 2;
    let y = 58;
    for (b, name) in backends.iter().enumerate() {
        let c = colour(b);
        area.draw(&Rectangle::new(
            [(x, y - 8), (x + 16, y + 8)],
            c.mix(0.5).filled(),
        ))
        .map_err(plot_err)?;
        area.draw(&Rectangle::new(
            [(x, y - 8), (x + 16, y + 8)],
            c.stroke_width(2),
        ))
        .map_err(plot_err)?;
        area.draw(&Text::new(
            name.clone(),
            (x + 24, y),
            text(16, FontStyle::Normal, BLACK, HPos::Left),
        ))
        .map_err(plot_err)?;
        x += item_w(name);
    }
    Ok(())
}

fn draw_panel(
    root: &DrawingArea<SVGBackend, Shift>,
    area: &DrawingArea<SVGBackend, Shift>,
    f: usize,
    g: &Grouped,
    (lo, hi): (f64, f64),
) -> Result<(), ReportError> {
    let nb = g.backends.len();
    let dists = &g.dists[f];
    let unanswered = &g.unanswered[f];
    let puzzles = (0..nb)
        .map(|b| dists[b].as_ref().map_or(0, |d| d.sorted.len()) + unanswered[b])
        .max();
    let caption = format!(
        "{} — {} puzzle{}",
        g.files[f],
        puzzles.unwrap_or(0),
        if puzzles == Some(1) { "" } else { "s" }
    );
    let decades: Vec<f64> = std::iter::successors(Some(lo), |&d| Some(d * 10.0))
        .take_while(|&d| d <= hi * 1.000_001)
        .collect();
    let minor: Vec<f64> = decades
        .iter()
        .flat_map(|&d| [2.0 * d, 5.0 * d])
        .filter(|&v| v < hi)
        .collect();
    let label_w = 16
        + 8 * g
            .backends
            .iter()
            .map(|b| b.chars().count())
            .max()
            .unwrap_or(1);
    // Backend `b` sits at y = nb-1-b, so the first backend is the top row.
    let y_of = |b: usize| (nb - 1 - b) as f64;
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 19, FontStyle::Bold))
        .margin(12)
        .margin_right(if g.effort.is_empty() {
            ANNOTATION_W
        } else {
            ANNOTATION_W + EFFORT_EXTRA_W
        })
        .x_label_area_size(40)
        .y_label_area_size(label_w as u32)
        .build_cartesian_2d(
            (lo..hi)
                .log_scale()
                .with_key_points(decades)
                .with_light_points(minor),
            -0.6..nb as f64 - 0.4,
        )
        .map_err(plot_err)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_label_formatter(&tick_label)
        .y_labels(0)
        .x_label_style((FONT, 14))
        .x_desc("time per puzzle (log scale)")
        .axis_desc_style((FONT, 14))
        .bold_line_style(RGBColor(0xbb, 0xbb, 0xbb))
        .light_line_style(RGBColor(0xee, 0xee, 0xee))
        .draw()
        .map_err(plot_err)?;

    let fastest = (0..nb)
        .filter(|&b| unanswered[b] == 0)
        .filter_map(|b| dists[b].as_ref().map(|d| (b, d.q(50))))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(b, _)| b);
    for (b, dist) in dists.iter().enumerate() {
        let y = y_of(b);
        let text_x = chart.backend_coord(&(hi, y)).0 + 10;
        let (axis_x, axis_y) = chart.backend_coord(&(lo, y));
        root.draw(&Text::new(
            g.backends[b].clone(),
            (axis_x - 8, axis_y),
            text(16, FontStyle::Normal, BLACK, HPos::Right),
        ))
        .map_err(plot_err)?;
        let Some(d) = dist else {
            let (k, t, r) = (unanswered[b], g.timed_out[f][b], g.refused[f][b]);
            let what = if k == 0 {
                "no data".to_string()
            } else {
                let kinds = [(t, "timed out"), (r, "refused"), (k - t - r, "failed")];
                let said: Vec<String> = kinds
                    .iter()
                    .filter(|(count, _)| *count > 0)
                    .map(|(count, kind)| format!("{count} {kind}"))
                    .collect();
                format!("no answer ({})", said.join(", "))
            };
            root.draw(&Text::new(
                what,
                (axis_x + 10, axis_y),
                text(14, FontStyle::Italic, GREY, HPos::Left),
            ))
            .map_err(plot_err)?;
            continue;
        };
        draw_distribution(&mut chart, d, y, colour(b))?;
        let weight = if Some(b) == fastest {
            FontStyle::Bold
        } else {
            FontStyle::Normal
        };
        root.draw(&Text::new(
            format!("median {}", fmt_micros(d.q(50))),
            (text_x, chart.backend_coord(&(hi, y + 0.12)).1),
            text(14, weight, BLACK, HPos::Left),
        ))
        .map_err(plot_err)?;
        let missed = match unanswered[b] {
            0 => String::new(),
            k => format!(" · {k} unanswered"),
        };
        root.draw(&Text::new(
            format!("p90 {}{missed}", fmt_micros(d.q(90))),
            (text_x, chart.backend_coord(&(hi, y - 0.2)).1),
            text(12, FontStyle::Normal, GREY, HPos::Left),
        ))
        .map_err(plot_err)?;
        if let Some(&(guesses, no_guess)) = g.effort.get(&(f, b)) {
            root.draw(&Text::new(
                format!(
                    "{} guesses · {no_guess:.1}% no guess",
                    super::fmt_mean(guesses)
                ),
                (text_x, chart.backend_coord(&(hi, y - 0.46)).1),
                text(12, FontStyle::Normal, GREY, HPos::Left),
            ))
            .map_err(plot_err)?;
        }
    }
    Ok(())
}

type Chart<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<WithKeyPoints<LogCoord<f64>>, RangedCoordf64>>;

/// Dots, whiskers, box, median bar and p90 diamond of one distribution centred on row `y`.
fn draw_distribution(chart: &mut Chart, d: &Dist, y: f64, c: RGBColor) -> Result<(), ReportError> {
    let n = d.sorted.len();
    let shown = n.min(MAX_DOTS);
    let dots = (0..shown).map(|k| {
        let i = if shown < 2 {
            0
        } else {
            k * (n - 1) / (shown - 1)
        };
        Circle::new((d.sorted[i], y + 0.3 * jitter(k)), 2, c.mix(0.35).filled())
    });
    chart.draw_series(dots).map_err(plot_err)?;
    let (min, p25, med, p75, p90, max) = (d.q(0), d.q(25), d.q(50), d.q(75), d.q(90), d.q(100));
    let whisker = c.stroke_width(2);
    let lines = [
        vec![(min, y), (max, y)],
        vec![(min, y - 0.12), (min, y + 0.12)],
        vec![(max, y - 0.12), (max, y + 0.12)],
    ];
    chart
        .draw_series(lines.into_iter().map(|l| PathElement::new(l, whisker)))
        .map_err(plot_err)?;
    chart
        .draw_series([
            Rectangle::new([(p25, y - 0.22), (p75, y + 0.22)], c.mix(0.3).filled()),
            Rectangle::new([(p25, y - 0.22), (p75, y + 0.22)], c.stroke_width(2)),
        ])
        .map_err(plot_err)?;
    chart
        .draw_series([PathElement::new(
            vec![(med, y - 0.3), (med, y + 0.3)],
            BLACK.stroke_width(3),
        )])
        .map_err(plot_err)?;
    let diamond = EmptyElement::at((p90, y))
        + Polygon::new(
            vec![(0, -6), (5, 0), (0, 6), (-5, 0)],
            BLACK.mix(0.8).filled(),
        );
    chart.draw_series([diamond]).map_err(plot_err)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_wraps_to_the_width_of_the_figure() {
        for width in [660, 900, 1320] {
            let lines = key_lines(width);
            let most = ((width - 20) as f64 / FOOTER_CHAR_W) as usize;
            assert!(
                lines.iter().all(|l| l.chars().count() <= most),
                "{width}: {lines:?}"
            );
            // Every item, whole and in order, ending with the one that was cut off.
            let joined = lines.join(" · ");
            assert!(joined.starts_with("box: p25–p75 · black bar: median"));
            assert!(joined.ends_with("bold: fastest median of the rows with no unanswered puzzle"));
        }
        // The single-panel figure (900 px) needs two lines; a wide enough one, one.
        assert_eq!(key_lines(900).len(), 2);
        assert_eq!(key_lines(2000).len(), 1);
    }
}
