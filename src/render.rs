//! Pictures of puzzles: [`svg`] draws one puzzle as a self-contained SVG document, good enough
//! for a paper or a bug report.
//!
//! It draws the grid (thin cell lines, thick box or jigsaw borders), the diagonals when they are
//! houses, the givens in bold and, with a solution, the other digits in blue; Killer cages as
//! dashed outlines inset in their cells with the sum in the top-left corner; and every variant
//! rule in the look setters know from f-puzzles and SudokuPad: thermometers (grey bulb and
//! line), arrows (a circle or pill and a line ending in an arrowhead), whispers (green lines),
//! renban (purple), palindromes (grey), Kropki dots and X / V on the edge between their cells
//! (with the value when it is not the usual one), odd cells (grey circles), even cells (grey
//! squares), extra regions (shaded), little killer clues outside the grid (the sum and a small
//! diagonal arrow) and sandwich clues left of their row or above their column; candidates as
//! small digits along the top of their cell, quadruples (a white circle with its digits on the
//! grid point), fortress cells (grey, with arrowheads pointing out of a maximum and into a
//! minimum), indexer cells tinted (red row, green column, yellow box indexers), clones (both
//! lists tinted alike), between and double-arrow lines (thin grey, circles at both ends),
//! lockout lines (diamonds at the ends), region-sum, entropic, modular, zipper and Nabner lines
//! in SudokuPad's colours, slow thermometers (a blue thermometer), and skyscraper and X-sum
//! clues outside their row or column, at the end they read from. Rules over the
//! whole grid (anti-knight, anti-king, disjoint groups, non-consecutive and the other negative
//! rules) mark no cell: a caption under the grid names them.
//!
//! The SVG is written as text: no fonts, images or scripts to fetch, every text escaped. Each
//! layer is a group `<g class="…">` named `grid`, `regions`, `diagonals`, `givens`, `solution`,
//! `title`, `caption`, or by the kind it draws ([`ConstraintKind::name`]: `thermo`, `kropki`,
//! `little-killer`, …); a layer with nothing to draw is left out. Layers are painted from the
//! bottom: shading and parity marks, the grid, lines, cages, dots, digits, outside clues, text.
//! Any side is drawn, digits above 9 as numbers. [`grid_frame`] says where the grid lies in the
//! picture, for a page that draws over it (the page of `explain --html`).
//!
//! ```
//! use std::sync::Arc;
//! use sudoku_lab::model::{Cage, Constraint, Puzzle, Shape};
//! use sudoku_lab::render::{svg, RenderOptions};
//!
//! let shape = Arc::new(Shape::standard(4, false).unwrap());
//! let puzzle = Puzzle::new(shape, vec![1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2])
//!     .unwrap()
//!     .with_constraints(vec![Constraint::Cage(Cage::new(vec![1, 2], 5))])
//!     .unwrap();
//! let picture = svg(&puzzle, None, &RenderOptions::default());
//! assert!(picture.contains("<svg") && picture.contains(r#"<g class="killer">"#));
//! ```

use std::fmt::{self, Write};

use crate::model::{
    Arrow, Cage, Constraint, ConstraintKind, Dot, DotRule, Grid, IndexKind, Line, LittleKiller,
    Puzzle, Value,
};

/// How a picture is drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderOptions {
    /// The side of a cell in SVG user units (pixels when shown at 100 %), 4 to 400 (other
    /// values are brought into that range; not a number gives the default, 40).
    pub cell: f64,
    /// A line of text above the grid, such as where the puzzle comes from (wrapped to the
    /// picture's width).
    pub title: Option<String>,
}

impl Default for RenderOptions {
    fn default() -> RenderOptions {
        RenderOptions {
            cell: DEFAULT_CELL,
            title: None,
        }
    }
}

const DEFAULT_CELL: f64 = 40.0;

const INK: &str = "#000";
const GRID_LINE: &str = "#777";
const DIAGONAL: &str = "#999";
const SOLUTION: &str = "#1f5fbf";
const SHADE: &str = "#d9e4ef";
const PARITY: &str = "#dedede";
const THERMO: &str = "#c4c4c4";
const ARROW: &str = "#8a8a8a";
const WHISPER: &str = "#5ecf5e";
const RENBAN: &str = "#c27ee8";
const PALINDROME: &str = "#a8a8a8";
const CAGE: &str = "#222";
const SLOW_THERMO: &str = "#9dbbe0";
const ROW_INDEXER: &str = "#ffd9d9";
const COLUMN_INDEXER: &str = "#cbf1d5";
const BOX_INDEXER: &str = "#fff3b0";
const FORTRESS: &str = "#d0d0d0";
const CANDIDATE: &str = "#555";
/// Clone tints, one per clone in turn.
const CLONES: [&str; 4] = ["#f3d4a9", "#c9dcf5", "#e3c9f0", "#cdebc0"];
/// Lines drawn as coloured lines, in SudokuPad's colours, with their width (in cells).
const COLOURED_LINES: [(ConstraintKind, &str, f64); 5] = [
    (ConstraintKind::RegionSum, "#2ecbff", 0.22),
    (ConstraintKind::Entropic, "#fa9678", 0.22),
    (ConstraintKind::Modular, "#00b5ad", 0.22),
    (ConstraintKind::Zipper, "#ac8aff", 0.22),
    (ConstraintKind::Nabner, "#f0c300", 0.22),
];
/// Lines drawn thin and grey with a mark at both ends: a circle, or a diamond for lockout.
const ENDED_LINES: [(ConstraintKind, bool); 3] = [
    (ConstraintKind::Between, false),
    (ConstraintKind::DoubleArrow, false),
    (ConstraintKind::Lockout, true),
];
const ENDED_LINE: &str = "#9a9a9a";
const CLUE: &str = "#333";

/// The picture of `puzzle` as an SVG document; with a `solution` of the same side, the digits it
/// puts in the empty cells too (a solution of another side is left out).
pub fn svg(puzzle: &Puzzle, solution: Option<&Grid>, options: &RenderOptions) -> String {
    let n = puzzle.size();
    let rules = puzzle.constraints();
    let clues = outside_clues(rules, n);
    let (s, layout) = layout(puzzle, &clues, options);
    let mut pic = Pic {
        out: String::new(),
        n,
        s,
        x0: layout.x0,
        y0: layout.y0,
    };
    let _ = write!(
        pic.out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#fff\"/>\n",
        w = N(layout.width),
        h = N(layout.height)
    );
    pic.cell_marks(rules);
    pic.grid(puzzle);
    if puzzle.shape().diagonals() {
        pic.group("diagonals", |p| {
            let nf = n as f64;
            let style = line_style(DIAGONAL, 0.04 * s);
            p.line(p.at(0.0, 0.0), p.at(nf, nf), &style);
            p.line(p.at(0.0, nf), p.at(nf, 0.0), &style);
        });
    }
    pic.lines(rules);
    pic.group("killer", |p| {
        for cage in puzzle.cages() {
            p.cage(cage)
        }
    });
    for kind in [ConstraintKind::Kropki, ConstraintKind::Xv] {
        pic.group(kind.name(), |p| {
            for c in of_kind(rules, kind) {
                if let Constraint::Dot(d) = c {
                    p.dot(d)
                }
            }
        });
    }
    pic.digits(puzzle, solution);
    pic.group("candidates", |p| {
        for c in rules {
            if let Constraint::Candidates { cell, digits } = c {
                p.candidates(*cell, digits)
            }
        }
    });
    pic.group("quadruple", |p| {
        for c in rules {
            if let Constraint::Quadruple { cells, digits } = c {
                p.quadruple(cells, digits)
            }
        }
    });
    for kind in [
        ConstraintKind::LittleKiller,
        ConstraintKind::Sandwich,
        ConstraintKind::Skyscraper,
        ConstraintKind::XSum,
    ] {
        pic.group(kind.name(), |p| {
            for c in clues.iter().filter(|c| c.kind == kind) {
                p.clue(c)
            }
        });
    }
    layout.texts(&mut pic);
    pic.out.push_str("</svg>\n");
    pic.out
}

/// The side of a cell and the layout of the picture of `puzzle`, whose outside clues are `clues`.
fn layout(puzzle: &Puzzle, clues: &[Clue], options: &RenderOptions) -> (f64, Layout) {
    let s = if options.cell.is_nan() {
        DEFAULT_CELL
    } else {
        options.cell.clamp(4.0, 400.0)
    };
    let title = options.title.as_deref().unwrap_or("");
    let caption = caption(puzzle.constraints());
    (s, Layout::new(clues, puzzle.size(), s, title, &caption))
}

/// Where [`svg`] puts the grid in its picture, in SVG user units: what a page needs to draw
/// over the picture (marks in cells, lines between candidates).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridFrame {
    /// The grid's top-left corner.
    pub x: f64,
    pub y: f64,
    /// The side of a cell.
    pub cell: f64,
}

/// The [`GridFrame`] of the picture [`svg`] draws of `puzzle` with `options`.
pub fn grid_frame(puzzle: &Puzzle, options: &RenderOptions) -> GridFrame {
    let clues = outside_clues(puzzle.constraints(), puzzle.size());
    let (cell, layout) = layout(puzzle, &clues, options);
    GridFrame {
        x: layout.x0,
        y: layout.y0,
        cell,
    }
}

/// The rules of `kind` among `rules`.
fn of_kind(rules: &[Constraint], kind: ConstraintKind) -> impl Iterator<Item = &Constraint> {
    rules.iter().filter(move |c| c.kind() == kind)
}

/// Where the parts of the picture go: the grid with room for the clues outside it, the title
/// above and the caption below, each wrapped to the picture's width.
struct Layout {
    width: f64,
    height: f64,
    /// The top-left corner of the grid.
    x0: f64,
    y0: f64,
    pad: f64,
    font: f64,
    line_h: f64,
    title_lines: Vec<String>,
    caption_lines: Vec<String>,
    /// Where the caption starts.
    caption_y: f64,
}

impl Layout {
    fn new(clues: &[Clue], n: usize, s: f64, title: &str, caption: &str) -> Layout {
        let side = |f: &dyn Fn(&Clue) -> bool| if clues.iter().any(f) { s } else { 0.0 };
        let (n64, nf) = (n as i64, n as f64);
        let (top, bottom) = (side(&|c| c.row < 0), side(&|c| c.row >= n64));
        let (left, right) = (side(&|c| c.col < 0), side(&|c| c.col >= n64));
        let pad = 0.3 * s;
        let font = 0.32 * s;
        let line_h = 1.3 * font;
        // Text needs room even beside a small grid.
        let text_w = if caption.is_empty() && title.is_empty() {
            0.0
        } else {
            40.0 * CHAR_W * font
        };
        let width = (left + nf * s + right).max(text_w) + 2.0 * pad;
        let chars = ((width - 2.0 * pad) / (CHAR_W * font)).floor().max(1.0) as usize;
        let title_lines = wrap(title, chars);
        let caption_lines = wrap(caption, chars);
        let x0 = pad + left;
        let title_gap = if title_lines.is_empty() { 0.0 } else { pad };
        let y0 = pad + title_lines.len() as f64 * line_h + title_gap + top;
        let grid_bottom = y0 + nf * s + bottom;
        let caption_gap = if caption_lines.is_empty() { 0.0 } else { pad };
        let height = grid_bottom + caption_gap + caption_lines.len() as f64 * line_h + pad;
        Layout {
            width,
            height,
            x0,
            y0,
            pad,
            font,
            line_h,
            title_lines,
            caption_lines,
            caption_y: grid_bottom + caption_gap,
        }
    }

    /// The title and the caption.
    fn texts(&self, pic: &mut Pic) {
        let text_lines = |p: &mut Pic, lines: &[String], y: f64| {
            for (i, l) in lines.iter().enumerate() {
                let at = (self.pad, y + i as f64 * self.line_h);
                p.text(at, self.font, l, "start", &format!("fill=\"{CLUE}\""));
            }
        };
        let (title_y, caption_y) = (self.pad, self.caption_y);
        pic.group("title", |p| {
            text_lines(p, &self.title_lines, title_y + 0.5 * self.line_h)
        });
        pic.group("caption", |p| {
            text_lines(p, &self.caption_lines, caption_y + 0.5 * self.line_h)
        });
    }
}

/// The average width of a character of sans-serif text, in ems (a little more than most fonts
/// take, so that wrapped lines stay inside the picture).
const CHAR_W: f64 = 0.58;

/// A number written with at most two decimals (SVG coordinates).
struct N(f64);

impl fmt::Display for N {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = (self.0 * 100.0).round() / 100.0;
        if v == v.trunc() && v.abs() < 1e15 {
            write!(f, "{}", v as i64)
        } else {
            write!(f, "{v}")
        }
    }
}

/// A point `(x, y)`.
type P = (f64, f64);

/// `text` with the characters XML gives a meaning escaped, and those it does not allow
/// (control characters) replaced.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(' '),
            c if c.is_control() || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// The attributes of a stroke with round ends and joins.
fn stroke(colour: &str, width: f64) -> String {
    format!(
        "stroke=\"{colour}\" stroke-width=\"{}\" stroke-linecap=\"round\" \
         stroke-linejoin=\"round\"",
        N(width)
    )
}

/// The attributes of a line (a stroke, no fill).
fn line_style(colour: &str, width: f64) -> String {
    format!("fill=\"none\" {}", stroke(colour, width))
}

/// A clue outside the grid: its kind, where it is (row and column from 0, `-1` or `n`
/// outside), its number and, for a little killer, the diagonal step it points along.
struct Clue {
    kind: ConstraintKind,
    row: i64,
    col: i64,
    sum: u32,
    step: Option<(i64, i64)>,
}

fn outside_clues(rules: &[Constraint], n: usize) -> Vec<Clue> {
    rules
        .iter()
        .filter_map(|c| match c {
            Constraint::LittleKiller(l @ LittleKiller { sum, .. }) => {
                let ((row, col), step) = l.clue(n);
                Some(Clue {
                    kind: ConstraintKind::LittleKiller,
                    row,
                    col,
                    sum: *sum,
                    step: Some(step),
                })
            }
            Constraint::Sandwich(s) => {
                let (row, col) = match s.line {
                    Line::Row(r) => (r as i64, -1),
                    Line::Col(c) => (-1, c as i64),
                };
                Some(Clue {
                    kind: ConstraintKind::Sandwich,
                    row,
                    col,
                    sum: s.sum,
                    step: None,
                })
            }
            Constraint::Skyscraper(clue) | Constraint::XSum(clue) => {
                let end = if clue.from_end { n as i64 } else { -1 };
                let (row, col) = match clue.line {
                    Line::Row(r) => (r as i64, end),
                    Line::Col(c) => (end, c as i64),
                };
                Some(Clue {
                    kind: c.kind(),
                    row,
                    col,
                    sum: clue.value,
                    step: None,
                })
            }
            _ => None,
        })
        .collect()
}

/// The rules over the whole grid, named for the caption.
fn caption(rules: &[Constraint]) -> String {
    let mut names: Vec<String> = Vec::new();
    for c in rules {
        let name = match c {
            Constraint::AntiKnight => "Anti-knight".to_string(),
            Constraint::AntiKing => "Anti-king".to_string(),
            Constraint::DisjointGroups => "Disjoint groups".to_string(),
            Constraint::Negative(DotRule::Difference(1)) => "Non-consecutive".to_string(),
            Constraint::Negative(rule) => {
                let (dots, relation) = match *rule {
                    DotRule::Difference(k) => ("white dots", format!("differ by {k}")),
                    DotRule::Ratio(k) => ("black dots", format!("are in ratio {k}")),
                    DotRule::Sum(10) => ("X", "add up to 10".to_string()),
                    DotRule::Sum(5) => ("V", "add up to 5".to_string()),
                    DotRule::Sum(k) => ("sums", format!("add up to {k}")),
                };
                format!("Negative {dots} (no other neighbours {relation})")
            }
            _ => continue,
        };
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names.join("; ")
}

/// `text` cut into lines of at most `width` characters, between words where it can.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let chars: Vec<char> = word.chars().collect();
        for piece in chars.chunks(width.max(1)) {
            let piece: String = piece.iter().collect();
            let len = line.chars().count();
            if len > 0 && len + 1 + piece.chars().count() > width {
                lines.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&piece);
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The picture being written, and where its grid is.
struct Pic {
    out: String,
    n: usize,
    /// The side of a cell.
    s: f64,
    /// The top-left corner of the grid.
    x0: f64,
    y0: f64,
}

impl Pic {
    /// The point `row` cells down and `col` cells right of the grid's top-left corner.
    fn at(&self, row: f64, col: f64) -> P {
        (self.x0 + col * self.s, self.y0 + row * self.s)
    }
    /// The row and column of a cell.
    fn rc(&self, cell: u32) -> (i64, i64) {
        let n = self.n.max(1) as i64;
        (cell as i64 / n, cell as i64 % n)
    }
    fn centre(&self, cell: u32) -> P {
        let (r, c) = self.rc(cell);
        self.at(r as f64 + 0.5, c as f64 + 0.5)
    }
    /// Draws a layer in `<g class="…">`, left out when it draws nothing.
    fn group(&mut self, class: &str, draw: impl FnOnce(&mut Pic)) {
        let start = self.out.len();
        let _ = writeln!(self.out, "<g class=\"{class}\">");
        let inner = self.out.len();
        draw(self);
        if self.out.len() == inner {
            self.out.truncate(start);
        } else {
            self.out.push_str("</g>\n");
        }
    }
    /// The layers under the grid lines: shaded and tinted cells, fortress cells, parity marks.
    fn cell_marks(&mut self, rules: &[Constraint]) {
        let s = self.s;
        self.group("extra-region", |p| {
            for c in of_kind(rules, ConstraintKind::ExtraRegion) {
                p.shade(&c.cells())
            }
        });
        self.group("indexer", |p| {
            for c in rules {
                if let Constraint::Indexer { cell, kind } = c {
                    let tint = match kind {
                        IndexKind::Row => ROW_INDEXER,
                        IndexKind::Column => COLUMN_INDEXER,
                        IndexKind::Box => BOX_INDEXER,
                    };
                    p.tint(&[*cell], tint);
                }
            }
        });
        self.group("clone", |p| {
            for (i, c) in of_kind(rules, ConstraintKind::Clone).enumerate() {
                p.tint(&c.cells(), CLONES[i % CLONES.len()]);
            }
        });
        for (kind, outward) in [
            (ConstraintKind::Minimum, false),
            (ConstraintKind::Maximum, true),
        ] {
            self.group(kind.name(), |p| {
                for c in of_kind(rules, kind).flat_map(|c| c.cells()) {
                    p.fortress(c, outward);
                }
            });
        }
        self.group("odd", |p| {
            for c in of_kind(rules, ConstraintKind::Odd).flat_map(|c| c.cells()) {
                p.circle(p.centre(c), 0.32 * s, &format!("fill=\"{PARITY}\""));
            }
        });
        self.group("even", |p| {
            for c in of_kind(rules, ConstraintKind::Even).flat_map(|c| c.cells()) {
                let (x, y) = p.centre(c);
                let a = 0.32 * s;
                p.rect(
                    x - a,
                    y - a,
                    2.0 * a,
                    2.0 * a,
                    &format!("fill=\"{PARITY}\""),
                );
            }
        });
    }
    /// The line rules over the grid: coloured lines, lines with marked ends, thermometers and
    /// arrows.
    fn lines(&mut self, rules: &[Constraint]) {
        let s = self.s;
        for (kind, colour, width) in [
            (ConstraintKind::Palindrome, PALINDROME, 0.22),
            (ConstraintKind::Renban, RENBAN, 0.28),
            (ConstraintKind::Whisper, WHISPER, 0.22),
        ]
        .into_iter()
        .chain(COLOURED_LINES)
        {
            self.group(kind.name(), |p| {
                for c in of_kind(rules, kind) {
                    p.thick_line(&c.cells(), colour, width * s)
                }
            });
        }
        for (kind, diamond) in ENDED_LINES {
            self.group(kind.name(), |p| {
                for c in of_kind(rules, kind) {
                    p.ended_line(&c.cells(), diamond)
                }
            });
        }
        for (kind, colour) in [
            (ConstraintKind::Thermo, THERMO),
            (ConstraintKind::SlowThermo, SLOW_THERMO),
        ] {
            self.group(kind.name(), |p| {
                for cells in of_kind(rules, kind).map(|c| c.cells()) {
                    p.thick_line(&cells, colour, 0.3 * s);
                    if let Some(&bulb) = cells.first() {
                        p.circle(p.centre(bulb), 0.38 * s, &format!("fill=\"{colour}\""));
                    }
                }
            });
        }
        self.group("arrow", |p| {
            for c in rules {
                if let Constraint::Arrow(a) = c {
                    p.arrow(a)
                }
            }
        });
    }
    fn line(&mut self, a: P, b: P, style: &str) {
        let _ = writeln!(
            self.out,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" {style}/>",
            N(a.0),
            N(a.1),
            N(b.0),
            N(b.1)
        );
    }
    fn points(points: &[P]) -> String {
        let mut text = String::new();
        for (i, p) in points.iter().enumerate() {
            let sep = if i == 0 { "" } else { " " };
            let _ = write!(text, "{sep}{},{}", N(p.0), N(p.1));
        }
        text
    }
    fn polyline(&mut self, points: &[P], style: &str) {
        let _ = writeln!(
            self.out,
            "<polyline points=\"{}\" {style}/>",
            Pic::points(points)
        );
    }
    fn polygon(&mut self, points: &[P], style: &str) {
        let _ = writeln!(
            self.out,
            "<polygon points=\"{}\" {style}/>",
            Pic::points(points)
        );
    }
    fn path(&mut self, d: &str, style: &str) {
        let _ = writeln!(self.out, "<path d=\"{d}\" {style}/>");
    }
    fn circle(&mut self, c: P, r: f64, style: &str) {
        let _ = writeln!(
            self.out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {style}/>",
            N(c.0),
            N(c.1),
            N(r)
        );
    }
    fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, style: &str) {
        let _ = writeln!(
            self.out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {style}/>",
            N(x),
            N(y),
            N(w),
            N(h)
        );
    }
    /// Text of `size` whose middle height is at `at.1`, `anchor`ed at `at.0` (`start`,
    /// `middle`).
    fn text(&mut self, at: P, size: f64, text: &str, anchor: &str, style: &str) {
        let _ = writeln!(
            self.out,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"{anchor}\" {style}>{}</text>",
            N(at.0),
            N(at.1 + 0.35 * size),
            N(size),
            escape(text)
        );
    }

    /// Thin lines between the cells, thick lines between regions and around the grid.
    fn grid(&mut self, puzzle: &Puzzle) {
        let (n, s) = (self.n, self.s);
        let nf = n as f64;
        self.group("grid", |p| {
            let style = format!("stroke=\"{GRID_LINE}\" stroke-width=\"{}\"", N(0.025 * s));
            for i in 1..n {
                let i = i as f64;
                p.line(p.at(i, 0.0), p.at(i, nf), &style);
                p.line(p.at(0.0, i), p.at(nf, i), &style);
            }
        });
        let shape = puzzle.shape();
        let region = |r: usize, c: usize| shape.region_of(r * n + c);
        // Runs of the borders between regions, along each line between rows and columns.
        let mut d = String::new();
        for i in 1..n {
            for across in [false, true] {
                let apart = |j: usize| match across {
                    true => region(i - 1, j) != region(i, j),
                    false => region(j, i - 1) != region(j, i),
                };
                let mut j = 0;
                while j < n {
                    if !apart(j) {
                        j += 1;
                        continue;
                    }
                    let start = j;
                    while j < n && apart(j) {
                        j += 1;
                    }
                    let (i, a, b) = (i as f64, start as f64, j as f64);
                    let (from, to) = match across {
                        true => (self.at(i, a), self.at(i, b)),
                        false => (self.at(a, i), self.at(b, i)),
                    };
                    let _ = write!(d, "M{},{}L{},{}", N(from.0), N(from.1), N(to.0), N(to.1));
                }
            }
        }
        let width = 0.075 * s;
        self.group("regions", |p| {
            let style = format!(
                "fill=\"none\" stroke=\"{INK}\" stroke-width=\"{}\" stroke-linecap=\"square\"",
                N(width)
            );
            if !d.is_empty() {
                p.path(&d, &style);
            }
            let (x, y) = p.at(0.0, 0.0);
            p.rect(x, y, nf * s, nf * s, &style);
        });
    }

    /// Every cell of `cells` shaded.
    fn shade(&mut self, cells: &[u32]) {
        for &c in cells {
            let (x, y) = self.at(self.rc(c).0 as f64, self.rc(c).1 as f64);
            let style = format!("fill=\"{SHADE}\"");
            self.rect(x, y, self.s, self.s, &style);
        }
    }

    /// Every cell of `cells` tinted with `colour`.
    fn tint(&mut self, cells: &[u32], colour: &str) {
        for &c in cells {
            let (x, y) = self.at(self.rc(c).0 as f64, self.rc(c).1 as f64);
            self.rect(x, y, self.s, self.s, &format!("fill=\"{colour}\""));
        }
    }

    /// A fortress cell: shaded grey, with a small arrowhead by each side pointing out of the
    /// cell (a maximum, larger than its neighbours) or into it (a minimum).
    fn fortress(&mut self, cell: u32, outward: bool) {
        let s = self.s;
        self.tint(&[cell], FORTRESS);
        let (cx, cy) = self.centre(cell);
        let (near, far) = if outward { (0.3, 0.44) } else { (0.44, 0.3) };
        let half = 0.08 * s;
        let style = format!("fill=\"{ARROW}\"");
        for (dx, dy) in [(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)] {
            let base = (cx + near * s * dx, cy + near * s * dy);
            let tip = (cx + far * s * dx, cy + far * s * dy);
            let wing = (half * dy, half * dx);
            self.polygon(
                &[
                    tip,
                    (base.0 + wing.0, base.1 + wing.1),
                    (base.0 - wing.0, base.1 - wing.1),
                ],
                &style,
            );
        }
    }

    /// A thin grey line through the centres of `cells` with a white mark over each end: a
    /// circle, or a diamond.
    fn ended_line(&mut self, cells: &[u32], diamond: bool) {
        let s = self.s;
        self.thick_line(cells, ENDED_LINE, 0.08 * s);
        let style = format!("fill=\"#fff\" {}", stroke(ENDED_LINE, 0.05 * s));
        let ends = match cells {
            [] => return,
            [one] => vec![*one],
            [first, .., last] => vec![*first, *last],
        };
        for c in ends {
            let (x, y) = self.centre(c);
            let r = 0.38 * s;
            if diamond {
                self.polygon(&[(x, y - r), (x + r, y), (x, y + r), (x - r, y)], &style);
            } else {
                self.circle((x, y), r, &style);
            }
        }
    }

    /// A cell's candidates as small digits along its top.
    fn candidates(&mut self, cell: u32, digits: &[u32]) {
        let (x, y) = self.centre(cell);
        let sep = if self.n > 9 { "," } else { "" };
        let text: Vec<String> = digits.iter().map(u32::to_string).collect();
        let size = 0.2 * self.s;
        let style = format!("fill=\"{CANDIDATE}\"");
        self.text(
            (x, y - 0.32 * self.s),
            size,
            &text.join(sep),
            "middle",
            &style,
        );
    }

    /// A quadruple: a white circle on the grid point its cells share, with its digits inside
    /// (two rows of two when there are more than two).
    fn quadruple(&mut self, cells: &[u32], digits: &[u32]) {
        let s = self.s;
        let n = self.n as i64;
        let corners = |c: u32| {
            let (r, k) = self.rc(c);
            [(r, k), (r, k + 1), (r + 1, k), (r + 1, k + 1)]
        };
        let Some(&first) = cells.first() else {
            return;
        };
        let shared: Vec<(i64, i64)> = corners(first)
            .into_iter()
            .filter(|p| cells.iter().all(|&c| corners(c).contains(p)))
            .collect();
        // Fewer than four cells sit by the edge: the point on the edge.
        let edge = |&(r, k): &(i64, i64)| r == 0 || k == 0 || r == n || k == n;
        let Some(&(r, k)) = shared.iter().find(|p| edge(p)).or(shared.last()) else {
            return;
        };
        let centre = self.at(r as f64, k as f64);
        let style = format!("fill=\"#fff\" {}", stroke(INK, 0.03 * s));
        self.circle(centre, 0.3 * s, &style);
        let text: Vec<String> = digits.iter().map(u32::to_string).collect();
        let style = format!("fill=\"{INK}\"");
        let (size, rows) = match text.len() {
            0..=2 => (0.22 * s, vec![text.join(" ")]),
            _ => (0.18 * s, text.chunks(2).map(|c| c.join(" ")).collect()),
        };
        let top = centre.1 - (rows.len() as f64 - 1.0) * 0.55 * size;
        for (i, row) in rows.iter().enumerate() {
            let at = (centre.0, top + i as f64 * 1.1 * size);
            self.text(at, size, row, "middle", &style);
        }
    }

    /// A line of `width` through the centres of `cells` (a dot for one cell).
    fn thick_line(&mut self, cells: &[u32], colour: &str, width: f64) {
        let points: Vec<P> = cells.iter().map(|&c| self.centre(c)).collect();
        match points[..] {
            [] => {}
            [one] => self.circle(one, width / 2.0, &format!("fill=\"{colour}\"")),
            _ => self.polyline(&points, &line_style(colour, width)),
        }
    }

    /// An arrow: its line from the circle cell nearest to it, ending in an arrowhead, under the
    /// circle (or pill) drawn as an outline.
    fn arrow(&mut self, arrow: &Arrow) {
        let s = self.s;
        let thin = 0.05 * s;
        let (Some(&first), Some(&last)) = (arrow.line.first(), arrow.line.last()) else {
            return;
        };
        let (fr, fc) = self.rc(first);
        let start = arrow.circle.iter().copied().min_by_key(|&c| {
            let (r, col) = self.rc(c);
            (r - fr).pow(2) + (col - fc).pow(2)
        });
        let mut points: Vec<P> = start.into_iter().map(|c| self.centre(c)).collect();
        points.extend(arrow.line.iter().map(|&c| self.centre(c)));
        let style = line_style(ARROW, thin);
        self.polyline(&points, &style);
        if let [.., a, b] = points[..] {
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len = (dx * dx + dy * dy).sqrt().max(f64::EPSILON);
            let (ux, uy) = (dx / len, dy / len);
            let (head, spread) = (0.28 * s, 0.6f64);
            let (cos, sin) = (spread.cos(), spread.sin());
            let wing = |sign: f64| {
                let (wx, wy) = (ux * cos - sign * uy * sin, uy * cos + sign * ux * sin);
                (b.0 - head * wx, b.1 - head * wy)
            };
            self.polyline(&[wing(1.0), b, wing(-1.0)], &style);
        } else {
            self.circle(self.centre(last), 0.1 * s, &format!("fill=\"{ARROW}\""));
        }
        let circle: Vec<P> = arrow.circle.iter().map(|&c| self.centre(c)).collect();
        let r = 0.4 * s;
        match circle[..] {
            [] => {}
            [one] => self.circle(one, r, &format!("fill=\"#fff\" {}", stroke(ARROW, thin))),
            _ => {
                self.polyline(&circle, &line_style(ARROW, 2.0 * r + thin));
                self.polyline(&circle, &line_style("#fff", 2.0 * r - thin));
            }
        }
    }

    /// A Killer cage: a dashed outline inset in its cells, its sum in the top-left corner.
    fn cage(&mut self, cage: &Cage) {
        let (n, s) = (self.n as i64, self.s);
        let cells = cage.cells();
        let inside = |(r, c): (i64, i64)| {
            (0..n).contains(&r) && (0..n).contains(&c) && cells.contains(&((r * n + c) as u32))
        };
        let inset = 0.09 * s;
        let h = s / 2.0;
        let mut d = String::new();
        // Each side of a cell on the cage's edge, as its outward normal and its direction,
        // (row, column) steps; ends meet the next cell's side, or turn around a corner.
        const SIDES: [((i64, i64), (i64, i64)); 4] = [
            ((-1, 0), (0, 1)),
            ((0, 1), (1, 0)),
            ((1, 0), (0, -1)),
            ((0, -1), (-1, 0)),
        ];
        for &cell in cells {
            let (r, c) = self.rc(cell);
            let (cx, cy) = self.centre(cell);
            for ((nr, nc), (tr, tc)) in SIDES {
                if inside((r + nr, c + nc)) {
                    continue;
                }
                let end = |sign: i64| {
                    let (dr, dc) = (sign * tr, sign * tc);
                    let reach = if !inside((r + dr, c + dc)) {
                        h - inset
                    } else if inside((r + nr + dr, c + nc + dc)) {
                        h + inset
                    } else {
                        h
                    };
                    let off = h - inset;
                    (
                        cx + nc as f64 * off + dc as f64 * reach,
                        cy + nr as f64 * off + dr as f64 * reach,
                    )
                };
                let (a, b) = (end(-1), end(1));
                let _ = write!(d, "M{},{}L{},{}", N(a.0), N(a.1), N(b.0), N(b.1));
            }
        }
        let dash = format!(
            "fill=\"none\" stroke=\"{CAGE}\" stroke-width=\"{}\" stroke-dasharray=\"{} {}\"",
            N(0.03 * s),
            N(0.1 * s),
            N(0.07 * s)
        );
        self.path(&d, &dash);
        let Some(&corner) = cells.iter().min() else {
            return;
        };
        let (r, c) = self.rc(corner);
        let (x, y) = self.at(r as f64, c as f64);
        let sum = cage.sum().to_string();
        let size = 0.26 * s;
        let w = sum.len() as f64 * 0.6 * size + 0.08 * s;
        self.rect(x + 0.03 * s, y + 0.03 * s, w, size * 1.05, "fill=\"#fff\"");
        let at = (x + 0.06 * s, y + 0.03 * s + size * 0.5);
        self.text(at, size, &sum, "start", &format!("fill=\"{CAGE}\""));
    }

    /// A dot on the edge between its two cells: Kropki white or black (with its value when it
    /// is not 1 or 2), X or V (or the sum).
    fn dot(&mut self, dot: &Dot) {
        let s = self.s;
        let (a, b) = (self.centre(dot.a), self.centre(dot.b));
        let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
        let thin = format!("stroke=\"{INK}\" stroke-width=\"{}\"", N(0.03 * s));
        let (white, label) = match dot.rule {
            DotRule::Difference(k) => (true, (k != 1).then(|| k.to_string())),
            DotRule::Ratio(k) => (false, (k != 2).then(|| k.to_string())),
            DotRule::Sum(k) => {
                let letter = match k {
                    10 => "X".to_string(),
                    5 => "V".to_string(),
                    k => k.to_string(),
                };
                self.circle(mid, 0.2 * s, "fill=\"#fff\"");
                let style = format!("font-weight=\"bold\" fill=\"{INK}\"");
                let size = if letter.len() > 1 { 0.3 } else { 0.4 } * s;
                self.text(mid, size, &letter, "middle", &style);
                return;
            }
        };
        let r = if label.is_some() { 0.16 } else { 0.12 } * s;
        let fill = if white { "#fff" } else { INK };
        self.circle(mid, r, &format!("fill=\"{fill}\" {thin}"));
        if let Some(label) = label {
            let colour = if white { INK } else { "#fff" };
            let size = if label.len() > 1 { 0.16 } else { 0.2 } * s;
            self.text(mid, size, &label, "middle", &format!("fill=\"{colour}\""));
        }
    }

    /// The givens in bold, then the solution's other digits.
    fn digits(&mut self, puzzle: &Puzzle, solution: Option<&Grid>) {
        let givens = puzzle.givens();
        let solved = solution.filter(|g| g.size() == self.n).map(Grid::cells);
        let digit = |p: &mut Pic, cell: usize, v: Value, style: &str| {
            let text = v.to_string();
            let size = match text.len() {
                1 => 0.6,
                2 => 0.5,
                3 => 0.38,
                _ => 0.3,
            } * p.s;
            p.text(p.centre(cell as u32), size, &text, "middle", style);
        };
        self.group("givens", |p| {
            let style = format!("font-weight=\"bold\" fill=\"{INK}\"");
            for (cell, &v) in givens.iter().enumerate().filter(|(_, &v)| v != 0) {
                digit(p, cell, v, &style);
            }
        });
        self.group("solution", |p| {
            let style = format!("fill=\"{SOLUTION}\"");
            let found = solved.into_iter().flatten().enumerate();
            for (cell, &v) in found.filter(|&(cell, &v)| v != 0 && givens[cell] == 0) {
                digit(p, cell, v, &style);
            }
        });
    }

    /// A clue outside the grid: its number and, for a little killer, a small arrow along its
    /// diagonal from the corner nearest the grid.
    fn clue(&mut self, clue: &Clue) {
        let s = self.s;
        let centre = self.at(clue.row as f64 + 0.5, clue.col as f64 + 0.5);
        let text = clue.sum.to_string();
        let style = format!("fill=\"{CLUE}\"");
        let Some((dr, dc)) = clue.step else {
            self.text(centre, 0.42 * s, &text, "middle", &style);
            return;
        };
        let (dx, dy) = (dc as f64, dr as f64);
        let at = (centre.0 - 0.1 * s * dx, centre.1 - 0.1 * s * dy);
        let size = if text.len() > 2 { 0.26 } else { 0.32 } * s;
        self.text(at, size, &text, "middle", &style);
        let from = (centre.0 + 0.15 * s * dx, centre.1 + 0.15 * s * dy);
        let tip = (centre.0 + 0.45 * s * dx, centre.1 + 0.45 * s * dy);
        self.line(from, tip, &line_style(CLUE, 0.03 * s));
        // The head: a triangle back from the tip, across the diagonal.
        let back = 0.12 * s;
        let base = (tip.0 - back * dx, tip.1 - back * dy);
        let half = 0.06 * s;
        self.polygon(
            &[
                tip,
                (base.0 + half * dy, base.1 - half * dx),
                (base.0 - half * dy, base.1 + half * dx),
            ],
            &style,
        );
    }
}
