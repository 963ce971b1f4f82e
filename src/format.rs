//! Reading and writing puzzles as text. Library only: the CLI adds file names and flags.
//!
//! Four formats, detected from the text ([`detect`]) unless [`ReadOptions::format`] forces one:
//!
//! - [`Format::Line`]: one puzzle per line, `n²` symbols for sides `n = 1..=35`. Empty is any of
//!   `. 0 _ ? -`; digits `1`–`9`, then letters `A`–`Z` (either case) for 10–35. A jigsaw puzzle is
//!   followed, after whitespace, by `n²` region labels (`0-9`, `a-z`, case-insensitive; any `n`
//!   distinct labels, numbered in order of first appearance). Lines starting with `#` are comments,
//!   blank lines are skipped, CRLF and trailing whitespace are accepted.
//! - [`Format::Grid`]: `n` rows of `n` whitespace-separated values (numbers, or the line symbols),
//!   or `n` rows of `n` symbols with no separator; optionally `n` more rows of region labels (same
//!   layout) for a jigsaw. Puzzles are separated by one or more blank lines.
//! - [`Format::Json`]: a LeetCode 37 board `[["5","3",".",...],...]` (any `n×n` of one-value
//!   strings or integers); the lab's own puzzle object `{"board": BOARD, ...}`, which carries
//!   every kind the model holds (regions, diagonals, cages, variant rules, known answer: see
//!   [`object`]); an f-puzzles document (an object with a `grid`: see [`fpuzzles`]). A JSON array
//!   of these, or several one after another (JSON Lines), is a batch.
//! - [`Format::Fpuzzles`]: compressed f-puzzles documents (links), one per line.
//!
//! Without regions a puzzle gets the standard boxes of its side ([`Shape::default_boxes`]); a side
//! with no box shape (7, 11, …) is an error. Puzzles of one geometry share one [`Arc<Shape>`].
//!
//! Reading never panics: each puzzle yields an [`Entry`] or a [`ParseError`] naming the 1-based line
//! and column, and reading goes on with the next puzzle. The caller adds the file name and handles
//! non-UTF-8 input (everything here takes `&str`).
//!
//! A puzzle may carry its known answer, which becomes [`Entry::expected`] and which `xcheck` and
//! the solving commands hold every answer against: in a line, as in the data sets' `.counts`
//! files, `puzzle:count[:solution]` (the exact number of solutions, optionally one solution); in
//! a puzzle object, `count` and `solution`; in an f-puzzles document, its `solution` (the one
//! solution). A solution given must solve the puzzle, else the puzzle is an error.
//!
//! Also here: [`read_weights`] for `optimize` weights, the writers of a grid [`write_line`],
//! [`write_grid`] and [`write_json`], and [`to_line`], which writes a whole puzzle (regions,
//! cages, known answer) as the line the reader takes back; [`object::to_json`] and
//! [`fpuzzles::to_json`] write any puzzle as JSON.
//!
//! ```
//! use sudoku_lab::format::{read_puzzles, write_line, ReadOptions};
//! let text = "# two 4×4 puzzles\n1...\n..3.\n.4..\n...2\n\n12..\n....\n....\n..21\n";
//! let entries = read_puzzles(text, &ReadOptions::default());
//! assert_eq!(entries.len(), 2);
//! let first = entries[0].as_ref().unwrap();
//! assert_eq!((first.line, first.puzzle.size()), (2, 4));
//! assert_eq!(write_line(&first.puzzle.givens_grid()).unwrap(), "1.....3..4.....2");
//! ```

use std::collections::HashMap;
use std::sync::Arc;

pub mod fpuzzles;
pub mod object;

use crate::check;
use crate::counted::counted;
use crate::model::Expected;
use crate::model::{self, Grid, ModelError, Puzzle, Regions, Shape, Value, Weights};
use crate::named::from_str_by_name;

/// Largest side the line format (one symbol per cell) can express.
pub const MAX_LINE_SIDE: usize = 35;

/// A text format of puzzles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    Line,
    Grid,
    Json,
    /// Compressed f-puzzles documents, one per line (raw f-puzzles JSON is [`Format::Json`]).
    Fpuzzles,
}

impl Format {
    pub const ALL: [Format; 4] = [Format::Line, Format::Grid, Format::Json, Format::Fpuzzles];
    pub fn name(self) -> &'static str {
        match self {
            Format::Line => "line",
            Format::Grid => "grid",
            Format::Json => "json",
            Format::Fpuzzles => "fpuzzles",
        }
    }
}

from_str_by_name!(Format, "format");

/// How to read a text of puzzles.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Force a format; `None` detects it with [`detect`].
    pub format: Option<Format>,
    /// Add both main diagonals as houses (X-Sudoku).
    pub diagonals: bool,
}

/// One puzzle read from a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// 1-based line where the puzzle starts.
    pub line: usize,
    pub puzzle: Puzzle,
    /// The known answer given with the puzzle (`puzzle:count[:solution]` in a line, `count` and
    /// `solution` in a puzzle object, an f-puzzles `solution`).
    pub expected: Option<Expected>,
    /// What is odd but allowed (a Killer cage in several pieces), with where it was read.
    pub warnings: Vec<ParseError>,
}

/// What is wrong with the input, and where (1-based line and column, in characters).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {col}: {message}")]
pub struct ParseError {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl ParseError {
    pub(crate) fn new(line: usize, col: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            line,
            col,
            message: message.into(),
        }
    }
    fn at(t: &Token<'_>, message: impl Into<String>) -> ParseError {
        ParseError::new(t.line, t.col, message)
    }
}

// ---------------------------------------------------------------------------------------------
// Tokens and symbols (shared with the judge parsers)

/// A whitespace-separated token with its 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token<'a> {
    pub line: usize,
    pub col: usize,
    pub text: &'a str,
}

impl Token<'_> {
    /// Column just after the token.
    pub fn end_col(&self) -> usize {
        self.col + self.text.chars().count()
    }
}

/// The tokens of one line, columns counted in characters (linear time).
pub(crate) fn line_tokens(line: &str, lineno: usize) -> impl Iterator<Item = Token<'_>> + '_ {
    // Columns are byte offsets in ASCII lines (the common case), else counted char by char.
    let ascii = line.is_ascii();
    let mut rest = line;
    let mut col = 1;
    std::iter::from_fn(move || {
        let trimmed = rest.trim_start();
        col += width(&rest[..rest.len() - trimmed.len()], ascii);
        if trimmed.is_empty() {
            return None;
        }
        let end = trimmed.find(char::is_whitespace).unwrap_or(trimmed.len());
        let (text, after) = trimmed.split_at(end);
        let t = Token {
            line: lineno,
            col,
            text,
        };
        col += width(text, ascii);
        rest = after;
        Some(t)
    })
}

/// Width of `s` in columns (characters).
fn width(s: &str, ascii: bool) -> usize {
    if ascii {
        s.len()
    } else {
        s.chars().count()
    }
}

/// The lines of a text, numbered from 1, with trailing whitespace (and `\r`) removed.
pub(crate) fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines()
        .map(str::trim_end)
        .zip(1..)
        .map(|(l, i)| (i, l))
}

/// Every token of a text, in order.
pub(crate) fn text_tokens(text: &str) -> impl Iterator<Item = Token<'_>> {
    numbered_lines(text).flat_map(|(i, l)| line_tokens(l, i))
}

/// The value of one line-format symbol: `Some(0)` for the empty markers `. 0 _ ? -`, `1`–`9`,
/// `A`–`Z`/`a`–`z` for 10–35; `None` for anything else.
pub fn symbol_value(c: char) -> Option<Value> {
    match c {
        '.' | '0' | '_' | '?' | '-' => Some(0),
        '1'..='9' => Some(c as Value - '0' as Value),
        'A'..='Z' => Some(c as Value - 'A' as Value + 10),
        'a'..='z' => Some(c as Value - 'a' as Value + 10),
        _ => None,
    }
}

/// A cell token of the grid or JSON forms: an empty marker, a decimal number or one letter.
pub(crate) fn token_value(t: &str) -> Option<Value> {
    if t.len() > 1 && t.bytes().all(|b| b.is_ascii_digit()) {
        return t.parse::<u32>().ok().and_then(|v| Value::try_from(v).ok());
    }
    let mut chars = t.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => symbol_value(c),
        _ => None,
    }
}

fn describe(n: usize) -> String {
    format!("{n}×{n}")
}

fn check_range(v: Value, n: usize, t: &Token<'_>, shown: &str) -> Result<Value, ParseError> {
    if v as usize > n {
        Err(ParseError::at(
            t,
            format!(
                "value {v} ('{shown}') is more than {n}, the side of this {} grid",
                describe(n)
            ),
        ))
    } else {
        Ok(v)
    }
}

/// Parses a grid/JSON cell token and checks it is at most `n`.
pub(crate) fn cell_value(t: &Token<'_>, n: usize) -> Result<Value, ParseError> {
    match token_value(t.text) {
        Some(v) => check_range(v, n, t, t.text),
        None => Err(ParseError::at(
            t,
            format!(
                "bad value '{}': expected a number 1..={n}, a letter A-Z, or an empty marker (. 0 _ ? -)",
                t.text
            ),
        )),
    }
}

/// Parses a run of symbols (line format, or a grid row without separators) into `out`.
pub(crate) fn push_symbols(
    t: &Token<'_>,
    n: usize,
    out: &mut Vec<Value>,
) -> Result<(), ParseError> {
    for (i, c) in t.text.chars().enumerate() {
        let at = Token {
            col: t.col + i,
            ..*t
        };
        let v = symbol_value(c).ok_or_else(|| {
            ParseError::at(
                &at,
                format!(
                    "bad symbol '{}': expected 1-9, A-Z or an empty marker (. 0 _ ? -)",
                    c.escape_debug()
                ),
            )
        })?;
        out.push(check_range(v, n, &at, c.encode_utf8(&mut [0; 4]))?);
    }
    Ok(())
}

fn isqrt(x: usize) -> usize {
    let mut r = (x as f64).sqrt() as usize;
    while r * r > x {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= x {
        r += 1;
    }
    r
}

/// `Some(n)` when `len == n²`.
fn square_side(len: usize) -> Option<usize> {
    let r = isqrt(len);
    (r * r == len && r > 0).then_some(r)
}

fn wrong_length(t: &Token<'_>, len: usize, what: &str) -> ParseError {
    let r = isqrt(len).max(1);
    let (lo, hi) = (r, r + 1);
    ParseError::at(
        t,
        format!(
            "{len} {what}: a line puzzle has n² symbols (nearest: {} for {}, {} for {})",
            lo * lo,
            describe(lo),
            hi * hi,
            describe(hi)
        ),
    )
}

// ---------------------------------------------------------------------------------------------
// Shapes shared within a batch

/// Builds each geometry once per batch and hands out shared [`Arc<Shape>`]s.
struct Shapes {
    diagonals: bool,
    boxes: HashMap<usize, Arc<Shape>>,
    jigsaws: HashMap<Vec<u32>, Arc<Shape>>,
    /// Shapes a puzzle asks for itself (JSON objects): by side, regions and diagonals.
    shaped: HashMap<(usize, Option<Regions>, bool), Arc<Shape>>,
}

impl Shapes {
    fn new(diagonals: bool) -> Shapes {
        Shapes {
            diagonals,
            boxes: HashMap::new(),
            jigsaws: HashMap::new(),
            shaped: HashMap::new(),
        }
    }

    fn standard(&mut self, n: usize, at: &Token<'_>) -> Result<Arc<Shape>, ParseError> {
        if let Some(s) = self.boxes.get(&n) {
            return Ok(s.clone());
        }
        let s = Arc::new(Shape::standard(n, self.diagonals).map_err(|e| model_error(at, e))?);
        self.boxes.insert(n, s.clone());
        Ok(s)
    }

    /// A shape of side `n` with `regions` (`None`: the standard boxes), with the diagonals when
    /// the options or `diagonals` ask for them.
    fn shape(
        &mut self,
        n: usize,
        regions: Option<Regions>,
        diagonals: bool,
        at: &Token<'_>,
    ) -> Result<Arc<Shape>, ParseError> {
        let diagonals = diagonals || self.diagonals;
        let key = (n, regions, diagonals);
        if let Some(s) = self.shaped.get(&key) {
            return Ok(s.clone());
        }
        let s = match &key.1 {
            None => Shape::standard(n, diagonals),
            Some(r) => Shape::new(n, r.clone(), diagonals),
        }
        .map_err(|e| model_error(at, e))?;
        let s = Arc::new(s);
        self.shaped.insert(key, s.clone());
        Ok(s)
    }

    fn jigsaw(
        &mut self,
        n: usize,
        map: Vec<u32>,
        at: &Token<'_>,
    ) -> Result<Arc<Shape>, ParseError> {
        if let Some(s) = self.jigsaws.get(&map) {
            return Ok(s.clone());
        }
        let s = Shape::new(n, Regions::Jigsaw(map.clone()), self.diagonals)
            .map_err(|e| model_error(at, e))?;
        let s = Arc::new(s);
        self.jigsaws.insert(map, s.clone());
        Ok(s)
    }
}

/// A model error located at a token.
fn model_error(at: &Token<'_>, e: ModelError) -> ParseError {
    ParseError::at(at, e.to_string())
}

/// Numbers region labels in order of first appearance and checks `n` regions of `n` cells.
struct RegionLabels {
    n: usize,
    index: HashMap<String, u32>,
    /// `(first token, size)` of every region.
    regions: Vec<(String, Token<'static>, usize)>,
    map: Vec<u32>,
}

impl RegionLabels {
    fn new(n: usize) -> RegionLabels {
        RegionLabels {
            n,
            index: HashMap::new(),
            regions: Vec::new(),
            map: Vec::with_capacity(n * n),
        }
    }

    fn push(&mut self, label: &str, at: &Token<'_>) -> Result<(), ParseError> {
        let key = label.to_ascii_lowercase();
        let r = match self.index.get(&key) {
            Some(&r) => r,
            None => {
                if self.regions.len() == self.n {
                    return Err(ParseError::at(
                        at,
                        format!(
                            "region label '{label}' is label number {} but a {} grid has {} regions",
                            self.n + 1,
                            describe(self.n),
                            self.n
                        ),
                    ));
                }
                let r = self.regions.len() as u32;
                self.index.insert(key, r);
                let place = Token {
                    line: at.line,
                    col: at.col,
                    text: "",
                };
                self.regions.push((label.to_string(), place, 0));
                r
            }
        };
        self.regions[r as usize].2 += 1;
        self.map.push(r);
        Ok(())
    }

    /// The region map, once `n` regions of `n` cells each are known; `end` locates "too few".
    fn finish(self, end: &Token<'_>) -> Result<Vec<u32>, ParseError> {
        let n = self.n;
        if self.regions.len() < n {
            return Err(ParseError::at(
                end,
                format!(
                    "{} distinct region labels, a {} grid needs {n} regions of {n} cells",
                    self.regions.len(),
                    describe(n)
                ),
            ));
        }
        if let Some((label, at, size)) = self.regions.iter().find(|r| r.2 != n) {
            return Err(ParseError::at(
                at,
                format!("region '{label}' has {size} cells, every region needs {n} ({n} regions of {n} cells)"),
            ));
        }
        Ok(self.map)
    }
}

// ---------------------------------------------------------------------------------------------
// Detection and the readers

/// Guesses the format of a text from its first content line (comments and blank lines skipped):
/// `[` (or `{`) starts JSON; one run of symbols (optionally followed by region labels) is a line
/// puzzle; several values, or a block of exactly `k` (or `2k`) rows of `k ≤ 35` symbols, is a grid.
pub fn detect(text: &str) -> Format {
    let mut content = numbered_lines(text).filter(|(_, l)| !l.trim_start().starts_with('#'));
    let mut lines = content.by_ref().skip_while(|(_, l)| l.trim().is_empty());
    let Some((_, first)) = lines.next() else {
        return Format::Line;
    };
    if first.trim_start().starts_with(['[', '{']) {
        return Format::Json;
    }
    if fpuzzles::looks_like(first) {
        return Format::Fpuzzles;
    }
    let toks: Vec<&str> = first.split_whitespace().collect();
    match toks.as_slice() {
        // A grid row of two values would be a 2×2 grid: two runs of symbols are a line jigsaw.
        [a, _] if a.len() > 1 => Format::Line,
        // Three or four tokens of which the first is long: a line Killer (cage labels and sums,
        // after region labels for a jigsaw). A grid row that short has one-symbol values.
        [a, _, _] | [a, _, _, _] if a.chars().count() > 2 => Format::Line,
        [t] if (2..=MAX_LINE_SIDE).contains(&t.chars().count()) => {
            // k rows of k symbols (2k with a jigsaw's region rows): a grid. So is such a block
            // with one row of another length, which the grid reader then reports by its line;
            // read as lines, it would give one error per row.
            let k = t.chars().count();
            let row = |l: &str| {
                let mut w = l.split_whitespace();
                w.next().is_some_and(|t| t.chars().count() == k) && w.next().is_none()
            };
            let (mut rows, mut prefix, mut others) = (1, 1, 0);
            for (_, l) in lines.take_while(|(_, l)| !l.trim().is_empty()) {
                rows += 1;
                if row(l) && others == 0 && prefix + 1 == rows {
                    prefix += 1;
                } else if !row(l) {
                    others += 1;
                }
                if rows > 2 * k {
                    break;
                }
            }
            let sides = |n: usize| n == k || n == 2 * k;
            if sides(prefix) || (sides(rows) && others == 1) {
                Format::Grid
            } else {
                Format::Line
            }
        }
        [_] => Format::Line,
        _ => Format::Grid,
    }
}

/// Reads every puzzle of `text`. A bad puzzle yields an `Err` and reading goes on with the next
/// one (except for JSON syntax errors, which end the text).
pub fn read_puzzles(text: &str, opts: &ReadOptions) -> Vec<Result<Entry, ParseError>> {
    puzzles(text, opts).collect()
}

/// [`read_puzzles`] as an iterator: the line format is read one puzzle at a time as it is
/// consumed (a large file is never held parsed in full); the grid and JSON formats are read
/// whole first.
pub fn puzzles<'a>(
    text: &'a str,
    opts: &ReadOptions,
) -> Box<dyn Iterator<Item = Result<Entry, ParseError>> + 'a> {
    let mut shapes = Shapes::new(opts.diagonals);
    match opts.format.unwrap_or_else(|| detect(text)) {
        Format::Line => {
            Box::new(content_lines(text).map(move |(i, l)| read_line_puzzle(l, i, &mut shapes)))
        }
        Format::Grid => Box::new(
            blocks(text)
                .into_iter()
                .map(|b| read_grid_block(&b, &mut shapes))
                .collect::<Vec<_>>()
                .into_iter(),
        ),
        Format::Json => Box::new(read_json(text, &mut shapes).into_iter()),
        Format::Fpuzzles => Box::new(read_compressed_fpuzzles(text).into_iter()),
    }
}

/// The line format read one line at a time, for input that arrives as a stream (standard
/// input): the same puzzles, errors and line numbers as [`puzzles`] with [`Format::Line`].
pub struct LineReader {
    shapes: Shapes,
}

impl LineReader {
    pub fn new(opts: &ReadOptions) -> LineReader {
        LineReader {
            shapes: Shapes::new(opts.diagonals),
        }
    }

    /// The puzzle on line `lineno` (1-based; `line` without its line break), or `None` for a
    /// blank or comment line.
    pub fn read(&mut self, line: &str, lineno: usize) -> Option<Result<Entry, ParseError>> {
        let line = if lineno == 1 {
            line.strip_prefix('\u{feff}').unwrap_or(line)
        } else {
            line
        };
        let line = line.trim_end();
        let t = line.trim_start();
        (!t.is_empty() && !t.starts_with('#'))
            .then(|| read_line_puzzle(line, lineno, &mut self.shapes))
    }
}

/// Non-blank, non-comment lines.
pub(crate) fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    numbered_lines(text).filter(|(_, l)| {
        let t = l.trim_start();
        !t.is_empty() && !t.starts_with('#')
    })
}

fn read_line_puzzle(line: &str, lineno: usize, shapes: &mut Shapes) -> Result<Entry, ParseError> {
    let mut toks = line_tokens(line, lineno);
    let Some(first) = toks.next() else {
        return Err(ParseError::new(lineno, 1, "empty line"));
    };
    let mut fields = first.text.split(':').scan(first.col, |col, text| {
        let t = Token {
            text,
            col: *col,
            ..first
        };
        *col += text.chars().count() + 1;
        Some(t)
    });
    let t = fields.next().unwrap_or(first);
    let known: Vec<Token<'_>> = fields.collect();
    // After the givens: region labels (jigsaw), cage labels and sums (Killer), or both.
    let rest: Vec<Token<'_>> = toks.collect();
    let (regions, cages) = match rest.as_slice() {
        [] => (None, None),
        [r] => (Some(*r), None),
        [c, sums] => (None, Some((*c, *sums))),
        [r, c, sums] => (Some(*r), Some((*c, *sums))),
        [_, _, _, extra, ..] => {
            return Err(ParseError::at(
                extra,
                format!(
                    "unexpected '{}' after the puzzle: a line holds the puzzle, then optionally its region labels, then optionally cage labels and cage sums",
                    extra.text
                ),
            ))
        }
    };
    let mut puzzle = line_puzzle(&t, regions, shapes)?;
    let mut warnings = vec![];
    if let Some((labels, sums)) = cages {
        puzzle = line_cages(puzzle, &labels, &sums, &mut warnings)?;
    }
    let expected = match known.as_slice() {
        [] => None,
        [count] => Some(read_expected(&puzzle, count, None)?),
        [count, solution] => Some(read_expected(&puzzle, count, Some(solution))?),
        [_, _, extra, ..] => {
            return Err(ParseError::new(
                lineno,
                extra.col - 1,
                format!(
                    "{} ':'-separated fields, expected puzzle:count[:solution]",
                    known.len() + 1
                ),
            ))
        }
    };
    Ok(Entry {
        line: lineno,
        puzzle,
        expected,
        warnings,
    })
}

/// The Killer cages of a line puzzle: `labels` gives every cell's cage (`.` for none; labels
/// `0-9a-zA-Z`, case-sensitive, cages numbered in order of first appearance) and `sums` the cage
/// sums in that order, comma-separated: at most 62 cages (the JSON form has no such limit). A
/// cage that is not in one piece gets a warning.
fn line_cages(
    puzzle: Puzzle,
    labels: &Token<'_>,
    sums: &Token<'_>,
    warnings: &mut Vec<ParseError>,
) -> Result<Puzzle, ParseError> {
    let n = puzzle.size();
    let len = labels.text.chars().count();
    if len != n * n {
        return Err(ParseError::at(
            labels,
            format!(
                "{len} cage labels, the {} puzzle needs {} (one per cell, '.' for a cell in no cage)",
                describe(n),
                n * n
            ),
        ));
    }
    let mut order: Vec<char> = vec![];
    let mut cells: Vec<Vec<u32>> = vec![];
    for (i, c) in labels.text.chars().enumerate() {
        if c == '.' {
            continue;
        }
        if !c.is_ascii_alphanumeric() {
            return Err(ParseError::new(
                labels.line,
                labels.col + i,
                format!(
                    "bad cage label '{}': use 0-9, a-z, A-Z, or '.' for no cage",
                    c.escape_debug()
                ),
            ));
        }
        let k = match order.iter().position(|&o| o == c) {
            Some(k) => k,
            None => {
                order.push(c);
                cells.push(vec![]);
                order.len() - 1
            }
        };
        cells[k].push(i as u32);
    }
    let mut values = vec![];
    let mut col = sums.col;
    for field in sums.text.split(',') {
        let at = Token {
            col,
            text: field,
            ..*sums
        };
        col += field.chars().count() + 1;
        values.push((
            field.parse::<u32>().map_err(|_| {
                ParseError::at(
                    &at,
                    format!(
                        "bad cage sum '{field}': cage sums are whole numbers separated by commas"
                    ),
                )
            })?,
            at,
        ));
    }
    if values.len() != cells.len() {
        return Err(ParseError::at(
            sums,
            format!(
                "{} cage sums for {} cages (one per distinct label, in order of first appearance)",
                values.len(),
                cells.len()
            ),
        ));
    }
    let cages: Vec<model::Cage> = cells
        .into_iter()
        .zip(&values)
        .map(|(c, &(sum, _))| model::Cage::new(c, sum))
        .collect();
    for (cage, (label, (_, at))) in cages.iter().zip(order.iter().zip(&values)) {
        if !cage.connected(n) {
            warnings.push(ParseError::at(
                at,
                format!(
                    "cage '{label}' is not in one piece (allowed: some puzzles use such cages)"
                ),
            ));
        }
    }
    let constraints = cages.into_iter().map(model::Constraint::Cage).collect();
    let puzzle = puzzle.with_constraints(constraints).map_err(|e| match e {
        ModelError::BadCage { cage, message } => ParseError::at(
            &values[cage - 1].1,
            format!("cage '{}': {message}", order[cage - 1]),
        ),
        e => model_error(sums, e),
    })?;
    // A sum no digits reach: the puzzle has no solution, which the reader says.
    warnings.extend(puzzle.rule_warnings().into_iter().map(|w| {
        let label = order[w.index - 1];
        ParseError::at(
            &values[w.index - 1].1,
            format!("cage '{label}': {}", w.message),
        )
    }));
    Ok(puzzle)
}

/// The `count[:solution]` after a line puzzle. The solution must solve the puzzle (an empty
/// solution field counts as absent).
fn read_expected(
    puzzle: &Puzzle,
    count: &Token<'_>,
    solution: Option<&Token<'_>>,
) -> Result<Expected, ParseError> {
    let c = count.text.parse::<u64>().map_err(|_| {
        ParseError::at(
            count,
            format!(
                "bad solution count '{}' after the puzzle (puzzle:count[:solution])",
                count.text
            ),
        )
    })?;
    let solution = match solution {
        Some(s) if !s.text.is_empty() => {
            let n = puzzle.size();
            let len = s.text.chars().count();
            if len != n * n {
                return Err(ParseError::at(
                    s,
                    format!("the solution has {len} symbols, expected {}", n * n),
                ));
            }
            let mut cells = Vec::with_capacity(n * n);
            push_symbols(s, n, &mut cells)?;
            let grid = known_solution(puzzle, Grid::new(n, cells), s)?;
            if c == 0 {
                return Err(ParseError::at(
                    count,
                    "a solution is given but the count says there is none",
                ));
            }
            Some(grid)
        }
        _ => None,
    };
    Ok(Expected { count: c, solution })
}

/// `grid`, the known solution given with `puzzle` at `at`, when it solves the puzzle.
fn known_solution(puzzle: &Puzzle, grid: Grid, at: &Token<'_>) -> Result<Grid, ParseError> {
    match check::verify(puzzle, &grid) {
        Ok(()) => Ok(grid),
        Err(e) => Err(ParseError::at(
            at,
            format!("the solution given does not solve the puzzle: {e}"),
        )),
    }
}

/// A line puzzle from its symbols token and, for a jigsaw, its region-labels token.
fn line_puzzle(
    t: &Token<'_>,
    regions: Option<Token<'_>>,
    shapes: &mut Shapes,
) -> Result<Puzzle, ParseError> {
    if let Some(givens) = fast_symbols(t.text) {
        let n = square_side(givens.len()).unwrap_or(0);
        let shape = match regions {
            None => shapes.standard(n, t)?,
            Some(r) => line_regions(n, givens.len(), r, shapes)?,
        };
        return Puzzle::new(shape, givens).map_err(|e| model_error(t, e));
    }
    // Slow path, with a precise error.
    // Report a foreign character before a length that it may explain.
    if let Some((i, (b, _))) = t
        .text
        .char_indices()
        .enumerate()
        .find(|&(_, (_, c))| symbol_value(c).is_none())
    {
        let rest = Token {
            col: t.col + i,
            text: &t.text[b..],
            ..*t
        };
        push_symbols(&rest, MAX_LINE_SIDE, &mut Vec::new())?;
    }
    let len = t.text.chars().count();
    let n = square_side(len).ok_or_else(|| wrong_length(t, len, "symbols"))?;
    if n > MAX_LINE_SIDE {
        return Err(ParseError::at(
            t,
            format!(
                "a {} puzzle cannot be written in line format (sides up to {MAX_LINE_SIDE}): use the grid format",
                describe(n)
            ),
        ));
    }
    let mut givens = Vec::with_capacity(len);
    push_symbols(t, n, &mut givens)?;
    let shape = match regions {
        None => shapes.standard(n, t)?,
        Some(r) => line_regions(n, len, r, shapes)?,
    };
    Puzzle::new(shape, givens).map_err(|e| model_error(t, e))
}

/// The givens of a well-formed line puzzle (ASCII symbols, `n²` of them with `n ≤ 35`, every
/// value at most `n`); `None` when anything is off, and the slow path then says what.
fn fast_symbols(text: &str) -> Option<Vec<Value>> {
    let n = square_side(text.len()).filter(|&n| n <= MAX_LINE_SIDE)?;
    text.bytes()
        .map(|b| symbol_value(b as char).filter(|&v| v as usize <= n))
        .collect()
}

/// The shape of a line jigsaw from its region-labels token.
fn line_regions(
    n: usize,
    len: usize,
    r: Token<'_>,
    shapes: &mut Shapes,
) -> Result<Arc<Shape>, ParseError> {
    let rlen = r.text.chars().count();
    if rlen != len {
        return Err(ParseError::at(
            &r,
            format!(
                "{rlen} region labels, the {} puzzle needs {len}",
                describe(n)
            ),
        ));
    }
    let mut labels = RegionLabels::new(n);
    for (i, c) in r.text.chars().enumerate() {
        let at = Token {
            col: r.col + i,
            ..r
        };
        if !c.is_ascii_alphanumeric() {
            return Err(ParseError::at(
                &at,
                format!("bad region label '{}': use 0-9 or a-z", c.escape_debug()),
            ));
        }
        labels.push(c.encode_utf8(&mut [0; 4]), &at)?;
    }
    let map = labels.finish(&r)?;
    shapes.jigsaw(n, map, &r)
}

/// Consecutive content lines, split at blank lines (comment lines are skipped).
fn blocks(text: &str) -> Vec<Vec<(usize, &str)>> {
    let mut out: Vec<Vec<(usize, &str)>> = vec![];
    let mut cur = vec![];
    for (i, l) in numbered_lines(text) {
        let t = l.trim_start();
        if t.starts_with('#') {
            continue;
        }
        if t.is_empty() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        } else {
            cur.push((i, l));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Reads one grid block: `n` rows of values, optionally `n` rows of region labels.
fn read_grid_block(block: &[(usize, &str)], shapes: &mut Shapes) -> Result<Entry, ParseError> {
    let rows: Vec<Vec<Token<'_>>> = block
        .iter()
        .map(|&(i, l)| line_tokens(l, i).collect())
        .collect();
    let first = rows[0][0];
    // Separated values, or one run of symbols per row.
    let separated = rows[0].len() > 1 || first.text.chars().count() == 1;
    let n = if separated {
        rows[0].len()
    } else {
        first.text.chars().count()
    };
    let last = *rows.last().and_then(|r| r.last()).unwrap_or(&first);
    let width = |row: &[Token<'_>]| -> Result<(), ParseError> {
        let (have, what) = if separated {
            (row.len(), "values")
        } else if row.len() > 1 {
            return Err(ParseError::at(
                &row[1],
                "unexpected separator: rows of this grid are runs of symbols with no spaces",
            ));
        } else {
            (row[0].text.chars().count(), "symbols")
        };
        if have == n {
            return Ok(());
        }
        // Point at the first extra value, or just after the row when values are missing.
        let col = match (have > n, separated) {
            (true, true) => row[n].col,
            (true, false) => row[0].col + n,
            (false, _) => row.last().map_or(1, Token::end_col),
        };
        Err(ParseError::new(
            row[0].line,
            col,
            format!("row has {have} {what}, expected {n} like the first row (ragged grid)"),
        ))
    };
    // A ragged row is the more precise complaint, so widths are checked first.
    for row in &rows {
        width(row)?;
    }
    if rows.len() != n && rows.len() != 2 * n {
        let (line, msg) = if rows.len() < n {
            (
                last.line + 1,
                format!(
                    "a {} grid needs {n} rows, this one has {}",
                    describe(n),
                    rows.len()
                ),
            )
        } else {
            (
                rows[n].first().map_or(last.line, |t| t.line),
                format!(
                    "a {} grid has {n} rows (or {} with region rows), this block has {}: separate puzzles with a blank line",
                    describe(n),
                    2 * n,
                    rows.len()
                ),
            )
        };
        return Err(ParseError::new(line, 1, msg));
    }
    let mut givens = Vec::with_capacity(n * n);
    for row in &rows[..n] {
        if separated {
            for t in row {
                givens.push(cell_value(t, n)?);
            }
        } else {
            push_symbols(&row[0], n, &mut givens)?;
        }
    }
    let shape = if rows.len() == n {
        shapes.standard(n, &first)?
    } else {
        let mut labels = RegionLabels::new(n);
        for row in &rows[n..] {
            if separated {
                for t in row {
                    labels.push(t.text, t)?;
                }
            } else {
                let r = row[0];
                for (i, c) in r.text.chars().enumerate() {
                    labels.push(
                        c.encode_utf8(&mut [0; 4]),
                        &Token {
                            col: r.col + i,
                            ..r
                        },
                    )?;
                }
            }
        }
        let at = rows[n][0];
        let map = labels.finish(&at)?;
        shapes.jigsaw(n, map, &at)?
    };
    Ok(Entry {
        line: first.line,
        puzzle: Puzzle::new(shape, givens).map_err(|e| model_error(&first, e))?,
        expected: None,
        warnings: vec![],
    })
}

// ---------------------------------------------------------------------------------------------
// JSON

/// Positions of the JSON tokens in document order: `[`/`{` opens, `]`/`}` closes, scalars (strings,
/// numbers, literals, object keys included). serde_json has already checked the syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum JsonEvent {
    Open(usize, usize),
    Close,
    Scalar(usize, usize),
}

fn json_events(text: &str) -> Vec<JsonEvent> {
    let mut out = vec![];
    let (mut line, mut col) = (1, 0);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        col += 1;
        match c {
            '\n' => (line, col) = (line + 1, 0),
            '[' | '{' => out.push(JsonEvent::Open(line, col)),
            ']' | '}' => out.push(JsonEvent::Close),
            '"' => {
                out.push(JsonEvent::Scalar(line, col));
                let mut escaped = false;
                for c in chars.by_ref() {
                    col += 1;
                    match (escaped, c) {
                        (false, '\\') => escaped = true,
                        (false, '"') => break,
                        _ => escaped = false,
                    }
                }
            }
            c if c == '-' || c.is_ascii_alphanumeric() => {
                out.push(JsonEvent::Scalar(line, col));
                while chars
                    .peek()
                    .is_some_and(|&c| c.is_ascii_alphanumeric() || "+-.".contains(c))
                {
                    chars.next();
                    col += 1;
                }
            }
            _ => {}
        }
    }
    out
}

/// Walks a `serde_json::Value` alongside its [`JsonEvent`]s, so every value has a position.
struct JsonCursor {
    events: Vec<JsonEvent>,
    next: usize,
}

impl JsonCursor {
    /// Position of the next value; `(1, 1)` if the events ran out (cannot happen on valid JSON).
    fn here(&self) -> Token<'static> {
        let (line, col) = match self.events.get(self.next) {
            Some(JsonEvent::Open(l, c) | JsonEvent::Scalar(l, c)) => (*l, *c),
            _ => (1, 1),
        };
        Token {
            line,
            col,
            text: "",
        }
    }
    /// Consumes one event.
    fn step(&mut self) {
        self.next += 1;
    }
    /// Skips the value at the cursor (a scalar, or a whole array or object).
    fn skip(&mut self) {
        let mut depth = 0usize;
        while let Some(e) = self.events.get(self.next) {
            self.next += 1;
            match e {
                JsonEvent::Open(..) => depth += 1,
                JsonEvent::Close => depth = depth.saturating_sub(1),
                JsonEvent::Scalar(..) => {}
            }
            if depth == 0 {
                break;
            }
        }
    }
}

/// A JSON value with where it starts and its first event, so that what is inside it can be
/// located too.
#[derive(Clone, Copy)]
struct Node<'a> {
    value: &'a serde_json::Value,
    at: Token<'static>,
    event: usize,
}

impl<'a> Node<'a> {
    /// The value at the cursor.
    fn here(value: &'a serde_json::Value, cur: &JsonCursor) -> Node<'a> {
        Node {
            value,
            at: cur.here(),
            event: cur.next,
        }
    }
    /// The items of an array (empty for anything else).
    fn items(&self, cur: &mut JsonCursor) -> Vec<Node<'a>> {
        let serde_json::Value::Array(items) = self.value else {
            return vec![];
        };
        cur.next = self.event + 1; // after '['
        items
            .iter()
            .map(|v| {
                let node = Node::here(v, cur);
                cur.skip();
                node
            })
            .collect()
    }
    /// The members of an object, in document order (empty for anything else).
    fn fields(&self, cur: &mut JsonCursor) -> Vec<(&'a str, Node<'a>)> {
        let serde_json::Value::Object(fields) = self.value else {
            return vec![];
        };
        cur.next = self.event + 1; // after '{'
        fields
            .iter()
            .map(|(k, v)| {
                cur.step(); // the key
                let node = Node::here(v, cur);
                cur.skip();
                (k.as_str(), node)
            })
            .collect()
    }
}

/// The column, counted in characters as everywhere in the readers, of serde_json's `byte_column`
/// (counted in bytes) on line `line` of `text`; at least 1.
fn char_column(text: &str, line: usize, byte_column: usize) -> usize {
    let chars = text.lines().nth(line - 1).map_or(byte_column, |l| {
        l.char_indices()
            .take_while(|&(i, _)| i < byte_column)
            .count()
    });
    chars.max(1)
}

fn read_json(text: &str, shapes: &mut Shapes) -> Vec<Result<Entry, ParseError>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // One JSON value, or several one after another (JSON Lines: one document per line).
    let values: Vec<serde_json::Value> = match serde_json::Deserializer::from_str(text)
        .into_iter::<serde_json::Value>()
        .collect()
    {
        Ok(v) => v,
        Err(_) if json_lines_form(text) => return read_json_lines(text, shapes),
        Err(e) => {
            let msg = e.to_string();
            let msg = msg
                .rsplit_once(" at line ")
                .map_or(msg.as_str(), |(m, _)| m);
            let line = e.line().max(1);
            return vec![Err(ParseError::new(
                line,
                char_column(text, line, e.column()),
                format!("invalid JSON: {msg}"),
            ))];
        }
    };
    if values.is_empty() {
        return vec![Err(ParseError::new(1, 1, "invalid JSON: no value"))];
    }
    let mut cur = JsonCursor {
        events: json_events(text),
        next: 0,
    };
    let mut out = vec![];
    for value in &values {
        use serde_json::Value as J;
        let is_board_list = match value {
            J::Array(items) => {
                matches!(items.first(), Some(J::Array(rows)) if matches!(rows.first(), Some(J::Array(_))))
                    || matches!(items.first(), Some(J::Object(_)))
            }
            _ => false,
        };
        let J::Array(boards) = value else {
            out.push(json_board(value, &mut cur, shapes));
            continue;
        };
        if !is_board_list {
            out.push(json_board(value, &mut cur, shapes));
            continue;
        }
        cur.step(); // the outer '['
        out.extend(boards.iter().map(|b| json_board(b, &mut cur, shapes)));
        cur.step(); // the outer ']'
    }
    out
}

/// Whether `text` is JSON Lines: its first non-blank line a JSON value by itself, and more lines
/// after it. A document written over several lines (pretty-printed) is not.
fn json_lines_form(text: &str) -> bool {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let first = lines.next().unwrap_or("");
    lines.next().is_some() && serde_json::from_str::<serde_json::Value>(first).is_ok()
}

/// JSON Lines whose whole text is not a stream of JSON values, read line by line: a line that is
/// not JSON is an error of its own, at its own line, and every other line is read, as a batch
/// goes on past a bad puzzle in the other formats.
fn read_json_lines(text: &str, shapes: &mut Shapes) -> Vec<Result<Entry, ParseError>> {
    let mut out = vec![];
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        // One line holds no second line, so this reads it as one document.
        out.extend(read_json(line, shapes).into_iter().map(|r| match r {
            Ok(mut entry) => {
                entry.line += i;
                for w in &mut entry.warnings {
                    w.line += i;
                }
                Ok(entry)
            }
            Err(mut e) => {
                e.line += i;
                Err(e)
            }
        }));
    }
    out
}

/// One board at the cursor; always leaves the cursor after it.
fn json_board(
    board: &serde_json::Value,
    cur: &mut JsonCursor,
    shapes: &mut Shapes,
) -> Result<Entry, ParseError> {
    let node = Node::here(board, cur);
    let mut warnings = vec![];
    let result = match board {
        serde_json::Value::Object(fields) if fields.contains_key("grid") => {
            let members = node.fields(cur);
            let mut locate = |key: &str, path: &[usize]| {
                let mut at = members.iter().find(|(k, _)| *k == key)?.1;
                for &i in path {
                    at = *at.items(cur).get(i)?;
                }
                Some(at.at)
            };
            fpuzzles_puzzle(board, &node.at, &mut locate, &mut warnings)
        }
        serde_json::Value::Object(_) => object::read(&node, cur, shapes, &mut warnings),
        _ => json_board_inner(board, cur, shapes, &node.at).map(|p| (p, None)),
    };
    // Re-synchronise whatever happened inside.
    cur.next = node.event;
    cur.skip();
    result.map(|(puzzle, expected)| Entry {
        line: node.at.line,
        puzzle,
        expected,
        warnings,
    })
}

/// Where in the text the item `path` (array indices, see [`fpuzzles::FpuzzlesError::path`]) of
/// the value of a document's member starts; `None` when the text is not at hand or has no such
/// item.
type Locate<'l> = dyn FnMut(&str, &[usize]) -> Option<Token<'static>> + 'l;

/// An f-puzzles document at `at`, with its `solution` as the known answer: the one solution,
/// which f-puzzles and SudokuPad hold a solver's grid against. An error is placed at the item it
/// names inside the member it names (a cell of `grid`), else at that member's value, else at the
/// document's start; what the reader ignores becomes warnings.
fn fpuzzles_puzzle(
    doc: &serde_json::Value,
    at: &Token<'_>,
    locate: &mut Locate<'_>,
    warnings: &mut Vec<ParseError>,
) -> Result<(Puzzle, Option<Expected>), ParseError> {
    let at = Token { text: "", ..*at };
    let solution_at = locate("solution", &[]).unwrap_or(at);
    let mut located = |e: fpuzzles::FpuzzlesError| {
        let key = e.key.as_deref().unwrap_or_default();
        let place = (locate(key, &e.path)).or_else(|| locate(key, &[]));
        ParseError::at(&place.unwrap_or(at), format!("f-puzzles: {e}"))
    };
    let (puzzle, notes) = fpuzzles::from_json(doc).map_err(&mut located)?;
    warnings.extend(notes.into_iter().map(|m| ParseError::at(&at, m)));
    let mut notes = vec![];
    let solution = fpuzzles::solution(doc, puzzle.size(), &mut notes).map_err(&mut located)?;
    warnings.extend(notes.into_iter().map(|m| ParseError::at(&solution_at, m)));
    let expected = match solution {
        Some(grid) => Some(Expected {
            count: 1,
            solution: Some(known_solution(&puzzle, grid, &solution_at)?),
        }),
        None => None,
    };
    Ok((puzzle, expected))
}

/// Compressed f-puzzles documents (links or LZ-string base64), one per content line.
fn read_compressed_fpuzzles(text: &str) -> Vec<Result<Entry, ParseError>> {
    content_lines(text)
        .map(|(line, l)| {
            let at = Token {
                line,
                col: 1 + l.len() - l.trim_start().len(),
                text: "",
            };
            let json = fpuzzles::decompress(l).map_err(|e| ParseError::at(&at, e.to_string()))?;
            let doc: serde_json::Value = serde_json::from_str(&json).map_err(|e| {
                ParseError::at(
                    &at,
                    format!("the compressed f-puzzles JSON is invalid: {e}"),
                )
            })?;
            let mut warnings = vec![];
            let (puzzle, expected) = fpuzzles_puzzle(&doc, &at, &mut |_, _| None, &mut warnings)?;
            Ok(Entry {
                line,
                puzzle,
                expected,
                warnings,
            })
        })
        .collect()
}

/// A LeetCode board at the cursor, with the standard boxes.
fn json_board_inner(
    board: &serde_json::Value,
    cur: &mut JsonCursor,
    shapes: &mut Shapes,
    start: &Token<'_>,
) -> Result<Puzzle, ParseError> {
    let (n, givens) = json_givens(board, cur, start)?;
    let shape = shapes.standard(n, start)?;
    Puzzle::new(shape, givens).map_err(|e| model_error(start, e))
}

/// The side and the cells of a LeetCode board at the cursor (`start`): `n` rows of `n`
/// one-value strings or numbers.
fn json_givens(
    board: &serde_json::Value,
    cur: &mut JsonCursor,
    start: &Token<'_>,
) -> Result<(usize, Vec<Value>), ParseError> {
    use serde_json::Value as J;
    let not_board = || {
        ParseError::at(
            start,
            "expected a board: an array of n rows, each an array of n one-value strings like \"5\" or \".\"",
        )
    };
    let J::Array(rows) = board else {
        return Err(not_board());
    };
    let n = rows.len();
    if n == 0 {
        return Err(not_board());
    }
    cur.step();
    let mut givens = Vec::with_capacity(n * n);
    for (r, row) in rows.iter().enumerate() {
        let row_at = cur.here();
        let J::Array(cells) = row else {
            return Err(ParseError::at(
                &row_at,
                format!("row {} is not an array", r + 1),
            ));
        };
        if cells.len() != n {
            return Err(ParseError::at(
                &row_at,
                format!(
                    "row {} has {}, expected {n} (a board of {} is {})",
                    r + 1,
                    counted(cells.len(), "cell"),
                    counted(n, "row"),
                    describe(n)
                ),
            ));
        }
        cur.step();
        for cell in cells {
            let at = cur.here();
            let v = match cell {
                J::String(s) => cell_value(&Token { text: s, ..at }, n)?,
                J::Number(num) => {
                    let shown = num.to_string();
                    let t = Token { text: &shown, ..at };
                    let v = num
                        .as_u64()
                        .and_then(|v| Value::try_from(v).ok())
                        .ok_or_else(|| ParseError::at(&t, format!("bad value {shown}")))?;
                    check_range(v, n, &t, &shown)?
                }
                _ => {
                    return Err(ParseError::at(
                        &at,
                        format!("expected a one-value string like \"5\" or \".\", found {cell}"),
                    ))
                }
            };
            givens.push(v);
            cur.skip();
        }
        cur.step(); // ']'
    }
    Ok((n, givens))
}

// ---------------------------------------------------------------------------------------------
// Weights files

/// Reads a weights file for a grid of side `n`: `n` rows of `n` integers (whitespace-separated,
/// `#` comments and blank lines skipped).
pub fn read_weights(text: &str, n: usize) -> Result<Weights, ParseError> {
    let mut weights = Vec::with_capacity(n * n);
    let mut rows = 0;
    let mut last = (0, 1);
    for (i, l) in content_lines(text) {
        if rows == n {
            return Err(ParseError::new(
                i,
                1,
                format!("more than {n} rows of weights for a {} grid", describe(n)),
            ));
        }
        let toks: Vec<Token<'_>> = line_tokens(l, i).collect();
        if toks.len() != n {
            let col = toks
                .get(n)
                .map_or_else(|| toks.last().map_or(1, Token::end_col), |t| t.col);
            return Err(ParseError::new(
                i,
                col,
                format!("{} weights in this row, expected {n}", toks.len()),
            ));
        }
        for t in &toks {
            let w = match t.text.parse::<i64>() {
                Ok(w) if Weights::in_range(w) => w,
                Ok(w) => return Err(ParseError::at(t, Weights::out_of_range(w))),
                // Digits only, but past i64.
                Err(_)
                    if t.text
                        .trim_start_matches('-')
                        .bytes()
                        .all(|b| b.is_ascii_digit()) =>
                {
                    return Err(ParseError::at(t, Weights::out_of_range(t.text)))
                }
                Err(_) => {
                    return Err(ParseError::at(
                        t,
                        format!("bad weight '{}': expected an integer", t.text),
                    ))
                }
            };
            weights.push(w);
        }
        rows += 1;
        last = (i, toks.last().map_or(1, Token::end_col));
    }
    if rows < n {
        return Err(ParseError::new(
            last.0 + 1,
            1,
            format!("{rows} rows of weights, expected {n}"),
        ));
    }
    Weights::new(n, weights).map_err(|e| ParseError::new(last.0, last.1, e.to_string()))
}

// ---------------------------------------------------------------------------------------------
// Writers

/// The grid as one line of `n²` symbols (`.` for empty), no newline; `None` when `n > 35`.
pub fn write_line(grid: &Grid) -> Option<String> {
    if grid.size() > MAX_LINE_SIDE {
        return None;
    }
    grid.cells().iter().map(|&v| model::symbol(v)).collect()
}

/// The grid as `n` rows of space-separated numbers (`0` for empty), rows joined by `\n`, no final
/// newline.
pub fn write_grid(grid: &Grid) -> String {
    let mut out = String::with_capacity(grid.cells().len() * 3);
    for (i, row) in grid.rows().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        for (j, v) in row.iter().enumerate() {
            if j > 0 {
                out.push(' ');
            }
            out.push_str(&v.to_string());
        }
    }
    out
}

/// The grid as a compact LeetCode board `[["5","3",...],...]` (`"."` for empty), no newline;
/// `None` when `n > 35`.
pub fn write_json(grid: &Grid) -> Option<String> {
    let rows = grid
        .rows()
        .map(|row| {
            row.iter()
                .map(|&v| model::symbol(v).map(String::from))
                .collect::<Option<Vec<String>>>()
        })
        .collect::<Option<Vec<Vec<String>>>>()?;
    serde_json::to_string(&rows).ok()
}

/// Why a puzzle has no line form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error(
        "side {0} cannot be written in line format (at most {MAX_LINE_SIDE}: one symbol per digit)"
    )]
    TooLarge(usize),
    #[error("{0} cages cannot be written in line format (at most 62 labels); use larger cages")]
    TooManyCages(usize),
    #[error("{0} constraints cannot be written in line format (houses and cages only); write f-puzzles JSON")]
    Variant(model::ConstraintKind),
}

/// The whole puzzle as one line, the form [`Format::Line`] reads back: `n²` symbols (`.` empty,
/// `1`–`9`, `A`–`Z`); for a jigsaw (of side 2 or more), or boxes other than the side's standard
/// ones, a space and `n²` region labels (`0`–`9`, `A`–`Z`: such boxes read back as a jigsaw with
/// the same houses); for a Killer a space, `n²` cage labels (`.` for a cell in no cage) and a
/// space, then the cage sums. The diagonals are not written: the reader adds them from its
/// options.
/// [`write_line`] writes a grid's symbols only.
pub fn to_line(puzzle: &Puzzle) -> Result<String, LineError> {
    to_line_with_answer(puzzle, None)
}

/// [`to_line`], with the puzzle's known answer `(count, a solution)` written after the puzzle
/// as `puzzle:count:solution` (read back as [`Entry::expected`]).
pub fn to_line_with_answer(
    puzzle: &Puzzle,
    answer: Option<(u64, &Grid)>,
) -> Result<String, LineError> {
    let n = puzzle.size();
    if n > MAX_LINE_SIDE {
        return Err(LineError::TooLarge(n));
    }
    let kinds = puzzle.constraints().iter().map(|c| c.kind());
    if let Some(k) = kinds
        .into_iter()
        .find(|&k| k != model::ConstraintKind::Killer)
    {
        return Err(LineError::Variant(k));
    }
    let symbols = |cells: &[Value]| -> String {
        cells
            .iter()
            .map(|&v| model::symbol(v).unwrap_or('?'))
            .collect()
    };
    let mut line = symbols(puzzle.givens());
    if let Some((count, solution)) = answer {
        line.push_str(&format!(":{count}:{}", symbols(solution.cells())));
    }
    // A 1×1 jigsaw's one region is the whole grid, as in the standard 1×1 grid: it is written
    // without it, since `. 0` alone would read back as a row of a 2×2 grid. Boxes other than the
    // side's standard ones (`3×2` on 6×6, `1×5` on 5×5) are written as their regions too: the
    // reader would give the line the standard boxes, or none.
    let shape = puzzle.shape();
    let written_regions = match shape.regions() {
        Regions::Jigsaw(_) => n > 1,
        Regions::Boxes { rows, cols } => Shape::default_boxes(n) != Some((*rows, *cols)),
    };
    if written_regions {
        line.push(' ');
        line.extend((0..n * n).map(|c| region_label(shape.region_of(c) as u32)));
    }
    let cages: Vec<&model::Cage> = puzzle.cages().collect();
    if !cages.is_empty() {
        if cages.len() > CAGE_LABELS.len() {
            return Err(LineError::TooManyCages(cages.len()));
        }
        // Labels in order of first appearance, which is how the reader numbers the cages.
        let mut label = vec!['.'; n * n];
        let mut first: Vec<(u32, usize)> = cages
            .iter()
            .enumerate()
            .map(|(k, c)| (c.cells().iter().copied().min().unwrap_or(0), k))
            .collect();
        first.sort_unstable();
        let mut sums = vec![];
        for (i, &(_, k)) in first.iter().enumerate() {
            for &c in cages[k].cells() {
                label[c as usize] = CAGE_LABELS[i] as char;
            }
            sums.push(cages[k].sum().to_string());
        }
        line.push(' ');
        line.extend(label);
        line.push(' ');
        line.push_str(&sums.join(","));
    }
    Ok(line)
}

/// Cage labels of the line format, in the order given to cages.
const CAGE_LABELS: &[u8; 62] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// `0`–`9`, then `A`–`Z` (labels up to 35).
fn region_label(r: u32) -> char {
    char::from_digit(r, 36).map_or('?', |c| c.to_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_have_columns() {
        let toks: Vec<_> = line_tokens("  ab\tcé  d", 3).collect();
        let got: Vec<_> = toks.iter().map(|t| (t.col, t.text)).collect();
        assert_eq!(got, vec![(3, "ab"), (6, "cé"), (10, "d")]);
        assert_eq!(toks[1].end_col(), 8);
    }

    #[test]
    fn symbols() {
        assert_eq!(symbol_value('.'), Some(0));
        assert_eq!(symbol_value('9'), Some(9));
        assert_eq!(symbol_value('a'), Some(10));
        assert_eq!(symbol_value('Z'), Some(35));
        assert_eq!(symbol_value('*'), None);
        assert_eq!(token_value("12"), Some(12));
        assert_eq!(token_value("007"), Some(7));
        assert_eq!(token_value("?"), Some(0));
        assert_eq!(token_value("ab"), None);
        assert_eq!(token_value("99999999999"), None);
    }

    #[test]
    fn detection() {
        assert_eq!(
            detect(&format!("# c\n\n{}\n", ".".repeat(81))),
            Format::Line
        );
        assert_eq!(detect("1 2 3 4\n"), Format::Grid);
        assert_eq!(detect("  [[\"1\"]]"), Format::Json);
        assert_eq!(detect("1...\n..3.\n.4..\n...2\n"), Format::Grid);
        assert_eq!(detect("1...\n..3.\n.4..\n"), Format::Line);
        // A 4×4 symbol grid with one short row is still a grid (its reader names the row).
        assert_eq!(detect("1...\n..3\n.4..\n...2\n"), Format::Grid);
        // Four lines of which two are not 4 symbols long: lines.
        assert_eq!(detect("1...\n..3\n.4.\n...2\n"), Format::Line);
        assert_eq!(
            detect(&format!("{} {}\n", ".".repeat(16), "a".repeat(16))),
            Format::Line
        );
        assert_eq!(detect(""), Format::Line);
    }

    #[test]
    fn square_sides() {
        assert_eq!(square_side(81), Some(9));
        assert_eq!(square_side(80), None);
        assert_eq!(square_side(0), None);
        assert_eq!(isqrt(1225), 35);
    }
}
