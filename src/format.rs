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
//! - [`Format::Fpuzzles`]: compressed f-puzzles documents (links), one per line; a JSON text is
//!   read as [`Format::Json`] reads it (raw f-puzzles documents).
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
//! Apart from these, [`candidates`] reads grids with candidates (pencil marks, as HoDoKu and
//! Sudoku Explainer print them), which `explain --candidates` takes: a puzzle with eliminations,
//! which no other command reads.
//!
//! One file per format under `format/` (`line.rs`, `grid.rs`, `json.rs` with `object.rs` and
//! `fpuzzles.rs`), beside the shared tokens (`tokens.rs`) and shapes (`shapes.rs`), the weights
//! reader (`weights.rs`) and the writers (`writers.rs`); their items are reached as
//! `crate::format::…`. This file detects the format and hands each text to its reader.
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

pub mod candidates;
pub mod fpuzzles;
mod grid;
mod json;
mod line;
pub mod object;
mod shapes;
mod tokens;
mod weights;
mod writers;
use grid::*;
use json::*;
pub use line::*;
use shapes::*;
pub use tokens::*;
pub use weights::*;
pub use writers::*;

use crate::check;
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
    /// f-puzzles documents: compressed (links), one per line, or a JSON text (read as
    /// [`Format::Json`] reads it).
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
// Detection and the readers

/// What [`detect_start`] tells of a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Detection {
    pub format: Format,
    /// Another format the text reads as just as well, when the choice is a guess (16 rows of 16
    /// symbols that are also sixteen valid 4×4 line puzzles, with no clash as a 16×16 grid):
    /// worth a warning that names the other format.
    pub also: Option<Format>,
}

/// Guesses the format of a text from its first content line (comments and blank lines skipped):
/// `[` (or `{`) starts JSON; one run of symbols (optionally followed by region labels) is a line
/// puzzle; several values, or a block of exactly `k` (or `2k`) rows of `k ≤ 35` symbols, is a grid,
/// unless every row of the block is also a whole line puzzle (`k = m²` symbols of values at most
/// `m`, for a side `m` with standard boxes), as `generate` writes them: lines.
pub fn detect(text: &str) -> Format {
    detect_start(text, true).map_or(Format::Line, |d| d.format)
}

/// [`detect`] on the start of a text that goes on (`complete` false, as when reading a stream):
/// `None` while the lines after `head` could still change the answer (the first block of rows
/// not yet ended by a blank line); it never is once `complete`.
pub fn detect_start(head: &str, complete: bool) -> Option<Detection> {
    let decided = |format| Some(Detection { format, also: None });
    let mut content = numbered_lines(head).filter(|(_, l)| !l.trim_start().starts_with('#'));
    let mut lines = content.by_ref().skip_while(|(_, l)| l.trim().is_empty());
    let Some((_, first)) = lines.next() else {
        return if complete {
            decided(Format::Line)
        } else {
            None
        };
    };
    // A JSON text, or one of JSON's words (`null`: not a puzzle, which the JSON reader says).
    if first.trim_start().starts_with(['[', '{'])
        || ["null", "true", "false"].contains(&first.trim())
    {
        return decided(Format::Json);
    }
    if fpuzzles::looks_like(first) {
        return decided(Format::Fpuzzles);
    }
    let toks: Vec<&str> = first.split_whitespace().collect();
    match toks.as_slice() {
        // A grid row of two values would be a 2×2 grid: two runs of symbols are a line jigsaw.
        [a, _] if a.len() > 1 => decided(Format::Line),
        // Three tokens or more of which the first is longer than any value of a grid row that
        // wide: a line Killer (cage labels and sums, after region labels for a jigsaw), or a line
        // with a token too many, which its reader names.
        [a, _, _, ..] if a.chars().count() > 2.max(toks.len().to_string().len()) => {
            decided(Format::Line)
        }
        [t] if (2..=MAX_LINE_SIDE).contains(&t.chars().count()) => {
            symbol_block(first, lines.map(|(_, l)| l), complete)
        }
        [_] => decided(Format::Line),
        _ => decided(Format::Grid),
    }
}

/// The format of a first content line of `k` symbols, from the rest of its block: `k` rows of
/// `k` symbols (2k with a jigsaw's region rows) are a grid. So is such a block with one row of
/// another length, which the grid reader then reports by its line; read as lines, it would give
/// one error per row. `None` while the block may go on past `rest` (not `complete`).
fn symbol_block<'a>(
    first: &'a str,
    rest: impl Iterator<Item = &'a str>,
    complete: bool,
) -> Option<Detection> {
    let k = first.trim().chars().count();
    let row = |l: &str| {
        let mut w = l.split_whitespace();
        w.next().is_some_and(|t| t.chars().count() == k) && w.next().is_none()
    };
    let mut block = vec![first];
    let (mut prefix, mut others, mut ended) = (1, 0, complete);
    for l in rest {
        if l.trim().is_empty() {
            ended = true;
            break;
        }
        block.push(l);
        if row(l) && others == 0 && prefix + 1 == block.len() {
            prefix += 1;
        } else if !row(l) {
            others += 1;
        }
        if block.len() > 2 * k {
            ended = true;
            break;
        }
    }
    if !ended {
        return None;
    }
    let rows = block.len();
    let sides = |n: usize| n == k || n == 2 * k;
    if !(sides(prefix) || (sides(rows) && others == 1)) {
        return Some(Detection {
            format: Format::Line,
            also: None,
        });
    }
    // Every row a whole line puzzle (sixteen 4×4 puzzles from `generate`): lines, and a grid
    // only as a second reading when its givens do not clash.
    let side = square_side(k).filter(|&m| Shape::default_boxes(m).is_some());
    let line_puzzles = side.is_some() && block.iter().all(|l| fast_symbols(l.trim()).is_some());
    Some(if line_puzzles {
        Detection {
            format: Format::Line,
            also: (!clashes(&block[..k], k)).then_some(Format::Grid),
        }
    } else {
        Detection {
            format: Format::Grid,
            also: None,
        }
    })
}

/// Whether `rows` (`k` rows of `k` line symbols) read as a `k×k` grid have a given twice in a row,
/// a column or a standard box.
fn clashes(rows: &[&str], k: usize) -> bool {
    let boxes = Shape::default_boxes(k);
    let mut seen = std::collections::HashSet::new();
    rows.iter().enumerate().any(|(r, l)| {
        l.trim().chars().enumerate().any(|(c, ch)| {
            let v = symbol_value(ch).unwrap_or(0);
            let b = boxes.map(|(h, w)| (r / h) * (k / w) + c / w);
            if v == 0 {
                return false;
            }
            let new_in_row = seen.insert((0, r, v));
            let new_in_col = seen.insert((1, c, v));
            let new_in_box = b.is_none_or(|b| seen.insert((2, b, v)));
            !(new_in_row && new_in_col && new_in_box)
        })
    })
}

/// `read`, a puzzle read from a text that starts `by` lines into its input, with its lines (and
/// those of its warnings or error) counted from the start of the input.
pub fn shift_lines(read: Result<Entry, ParseError>, by: usize) -> Result<Entry, ParseError> {
    match read {
        Ok(mut entry) => {
            entry.line += by;
            for w in &mut entry.warnings {
                w.line += by;
            }
            Ok(entry)
        }
        Err(mut e) => {
            e.line += by;
            Err(e)
        }
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
        // An f-puzzles document as JSON, not compressed: read as the JSON format reads it.
        Format::Fpuzzles if detect(text) == Format::Json => {
            Box::new(read_json(text, &mut shapes).into_iter())
        }
        Format::Fpuzzles => Box::new(read_compressed_fpuzzles(text).into_iter()),
    }
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

    /// Sixteen rows of 16 symbols are a 16×16 grid, unless each is a whole 4×4 line puzzle, as
    /// `generate --size 4` writes them.
    #[test]
    fn sixteen_4x4_line_puzzles_are_not_a_16x16_grid() {
        let puzzles =
            "34.1.2......2.3.\n21.4.3..1.....2.\n.3.4.4..4..33...\n.3.4.1..3....43.\n".repeat(4);
        let clash = |text: &str| detect_start(text, true).unwrap();
        assert_eq!(
            clash(&puzzles),
            Detection {
                format: Format::Line,
                also: None
            }
        );
        assert_eq!(
            detect(&format!("# header\n{puzzles}\n{puzzles}")),
            Format::Line
        );
        // No clash as a 16×16 grid: still lines, with the grid as the other reading.
        let diagonal: String = (0..16)
            .map(|r| format!("{}{}{}\n", ".".repeat(r), r % 4 + 1, ".".repeat(15 - r)))
            .collect();
        assert_eq!(
            clash(&diagonal),
            Detection {
                format: Format::Line,
                also: Some(Format::Grid)
            }
        );
        // A value above 4 is no 4×4 line puzzle: a grid.
        let grid = diagonal.replacen('1', "G", 1);
        assert_eq!(detect(&grid), Format::Grid);
    }

    #[test]
    fn detection_of_a_start_waits_for_the_end_of_the_first_block() {
        let rows = "1...\n..3.\n.4..\n...2\n";
        assert_eq!(detect_start("# c\n\n", false), None);
        assert_eq!(detect_start(rows, false), None);
        let decided = |text: &str| detect_start(text, false).map(|d| d.format);
        assert_eq!(decided(&format!("{rows}\n")), Some(Format::Grid));
        assert_eq!(decided(&format!("{rows}{rows}{rows}")), Some(Format::Line));
        assert_eq!(
            decided(&format!("{}\n", ".".repeat(81))),
            Some(Format::Line)
        );
        assert_eq!(decided("[[1]"), Some(Format::Json));
    }

    #[test]
    fn square_sides() {
        assert_eq!(square_side(81), Some(9));
        assert_eq!(square_side(80), None);
        assert_eq!(square_side(0), None);
        assert_eq!(isqrt(1225), 35);
    }
}
