//! Judge modes: the exact input and output of classic online-judge Sudoku problems, so a sample
//! file can be fed in and the output compared byte for byte with the accepted answer.
//!
//! Every answer is obtained through [`crate::task::run`], so it has passed the independent checker;
//! a checker rejection is [`JudgeError::Check`]. Bad input is [`JudgeError::Input`] with the
//! 1-based line and column. On an error, [`run_into`] keeps the output of the puzzles before it
//! (nothing already answered is lost); the puzzle in error and those after it get none. Only
//! `hdu1426`, whose puzzles are separated by blank lines, can stay in step past a bad puzzle: the
//! puzzle is skipped, its error returned with the others skipped, and the puzzles after it are
//! answered.
//!
//! | problem | input | output |
//! |---|---|---|
//! | `noip2009` | 9 rows of 9 numbers, `0` empty | best pyramid score ([`Weights::pyramid`]), or `-1` |
//! | `hdu1426` | puzzles of 9 rows of 9 tokens, `?` empty, blank lines between | each solution as 9 rows of space-separated digits, a blank line between puzzles; `No solution` for a puzzle without one (the problem promises there is none such) |
//! | `hdu4069` | `T`, then `T` jigsaw grids of 9×9 numbers: digit + walls (16 up, 32 right, 64 down, 128 left) | `Case k:` then the 9 digit rows if unique, `No solution`, or `Multiple Solutions` |
//! | `sicily1317` | a count, then puzzles of 9 rows of 9 symbols, `_` empty | `Puzzle k has N solutions` / `Puzzle k solution is` + 9 rows / `Puzzle k has no solution`, a blank line between |
//! | `leetcode37` | a JSON board `[["5","3",".",...],...]` | the solved board, compact JSON, with no final newline (as LeetCode shows it); a board without solution is [`JudgeError::NoSolution`] (the format cannot say it) |
//!
//! hdu4069 regions are the connected groups of cells not separated by walls; a wall that only one
//! of two neighbours declares, or walls that do not cut the grid into 9 regions of 9 cells, are
//! input errors (the outer border walls are not checked). Clashing givens simply have no solution.
//! Every output but `leetcode37`'s ends with a newline.

use std::sync::Arc;

use crate::backend::{Backend, BackendError, Limits};
use crate::check::CheckFailure;
use crate::format::{
    self, cell_value, line_tokens, numbered_lines, text_tokens, Format, ParseError, ReadOptions,
    Token,
};
use crate::model::{Grid, Puzzle, Regions, Shape, Value, Weights};
use crate::named::from_str_by_name;
use crate::task::{self, Answer, RunError, Task};

/// A judge problem whose input/output this module speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Problem {
    /// NOIP 2009 senior "靶形数独" (pyramid Sudoku): maximum weighted score.
    Noip2009,
    /// HDU 1426 "Sudoku Killer": solve puzzles with `?` for empty.
    Hdu1426,
    /// HDU 4069 "Squiggly Sudoku": jigsaw regions given by walls; unique / none / multiple.
    Hdu4069,
    /// Sicily 1317 "Sudoku": count the solutions.
    Sicily1317,
    /// LeetCode 37 "Sudoku Solver": JSON board in and out.
    Leetcode37,
}

impl Problem {
    pub const ALL: [Problem; 5] = [
        Problem::Noip2009,
        Problem::Hdu1426,
        Problem::Hdu4069,
        Problem::Sicily1317,
        Problem::Leetcode37,
    ];
    /// The name used on the command line and as the directory of its samples.
    pub fn name(self) -> &'static str {
        match self {
            Problem::Noip2009 => "noip2009",
            Problem::Hdu1426 => "hdu1426",
            Problem::Hdu4069 => "hdu4069",
            Problem::Sicily1317 => "sicily1317",
            Problem::Leetcode37 => "leetcode37",
        }
    }
}

from_str_by_name!(Problem, "problem");

/// Why a judge run stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JudgeError {
    /// The input does not follow the problem's format.
    #[error("bad input: {0}")]
    Input(#[from] ParseError),
    /// The backend failed, timed out or cannot handle the puzzle.
    #[error("{0}")]
    Backend(#[from] BackendError),
    /// The checker rejected the backend's answer: a bug in that backend. Nothing is printed.
    #[error("checker rejected the {backend} backend's answer: {failure}")]
    Check {
        backend: &'static str,
        failure: CheckFailure,
    },
    /// The backend stopped (time limit) before the answer was exact.
    #[error("puzzle {puzzle}: stopped before the answer was exact ({detail})")]
    Incomplete { puzzle: usize, detail: String },
    /// The puzzle has no solution and the problem's output format cannot say so.
    #[error("puzzle {puzzle} has no solution, which the {problem} output format cannot express")]
    NoSolution { problem: Problem, puzzle: usize },
}

impl JudgeError {
    /// The CLI's exit code for this error: 2 bad input (including a puzzle without solution where
    /// the problem promises one, and a task the backend refuses), 1 checker or solver failure,
    /// 3 time limit.
    pub fn exit_code(&self) -> u8 {
        match self {
            JudgeError::Input(_)
            | JudgeError::NoSolution { .. }
            | JudgeError::Backend(BackendError::Unsupported(_)) => 2,
            JudgeError::Backend(BackendError::TimedOut) | JudgeError::Incomplete { .. } => 3,
            JudgeError::Backend(_) | JudgeError::Check { .. } => 1,
        }
    }
}

impl From<RunError> for JudgeError {
    fn from(e: RunError) -> JudgeError {
        match e {
            RunError::Backend(b) => JudgeError::Backend(b),
            RunError::CountTimedOut { .. } => JudgeError::Backend(BackendError::TimedOut),
            RunError::Check { backend, failure } => JudgeError::Check { backend, failure },
        }
    }
}

/// Reads `input` as `problem` specifies, solves every puzzle with `backend` (checked) and returns
/// the exact output the judge accepts; a puzzle skipped as bad input makes the whole an error.
pub fn run(
    problem: Problem,
    input: &str,
    backend: &dyn Backend,
    limits: &Limits,
) -> Result<String, JudgeError> {
    let mut out = String::new();
    match run_into(problem, input, backend, limits, &mut out)?
        .into_iter()
        .next()
    {
        Some(skipped) => Err(JudgeError::Input(skipped)),
        None => Ok(out),
    }
}

/// [`run`], appending to `out` puzzle by puzzle: on an error, `out` holds the exact output of
/// every puzzle before the one in error. Returns the errors of the puzzles skipped as bad input
/// (`hdu1426` only), whose answers are missing from `out`.
pub fn run_into(
    problem: Problem,
    input: &str,
    backend: &dyn Backend,
    limits: &Limits,
    out: &mut String,
) -> Result<Vec<ParseError>, JudgeError> {
    let solve = |puzzle: &Puzzle, task: Task| -> Result<Answer, JudgeError> {
        Ok(task::run(backend, puzzle, task, limits)?)
    };
    let none_skipped = |()| Vec::new();
    match problem {
        Problem::Noip2009 => noip2009(input, solve, out).map(none_skipped),
        Problem::Hdu1426 => hdu1426(input, solve, out),
        Problem::Hdu4069 => hdu4069(input, solve, out).map(none_skipped),
        Problem::Sicily1317 => sicily1317(input, solve, out).map(none_skipped),
        Problem::Leetcode37 => leetcode37(input, solve, out).map(none_skipped),
    }
}

/// The backend call shared by the problems: a puzzle and a task to a checked answer.
trait Solve: Fn(&Puzzle, Task) -> Result<Answer, JudgeError> {}
impl<F: Fn(&Puzzle, Task) -> Result<Answer, JudgeError>> Solve for F {}

/// Whitespace-separated tokens of the input, with "expected X" errors that point at the place.
struct Input<'a> {
    toks: Box<dyn Iterator<Item = Token<'a>> + 'a>,
    /// Line and column just after the last token read (for "unexpected end of input").
    end: (usize, usize),
}

impl<'a> Input<'a> {
    fn new(text: &'a str) -> Input<'a> {
        Input {
            toks: Box::new(text_tokens(text)),
            end: (1, 1),
        }
    }
    fn next(&mut self, what: &str) -> Result<Token<'a>, ParseError> {
        let t = self.toks.next().ok_or_else(|| {
            ParseError::new(
                self.end.0,
                self.end.1,
                format!("unexpected end of input: expected {what}"),
            )
        })?;
        self.end = (t.line, t.end_col());
        Ok(t)
    }
    fn count(&mut self, what: &str) -> Result<usize, ParseError> {
        let t = self.next(what)?;
        t.text.parse().map_err(|_| {
            ParseError::new(
                t.line,
                t.col,
                format!("expected {what}, found '{}'", t.text),
            )
        })
    }
    /// Fails if anything follows.
    fn finish(mut self) -> Result<(), ParseError> {
        match self.toks.next() {
            None => Ok(()),
            Some(t) => Err(ParseError::new(
                t.line,
                t.col,
                format!("unexpected '{}' after the last puzzle", t.text),
            )),
        }
    }
    /// 81 cell tokens of a 9×9 puzzle, each read by `cell`.
    fn cells81(
        &mut self,
        mut cell: impl FnMut(&Token<'a>) -> Result<Value, ParseError>,
    ) -> Result<Vec<Value>, ParseError> {
        (0..81)
            .map(|i| cell(&self.next(&format!("cell {} of 81", i + 1))?))
            .collect()
    }
}

fn standard9() -> Arc<Shape> {
    Arc::new(Shape::standard(9, false).expect("9×9 has 3×3 boxes"))
}

fn puzzle9(
    shape: &Arc<Shape>,
    givens: Vec<Value>,
    at: (usize, usize),
) -> Result<Puzzle, ParseError> {
    Puzzle::new(shape.clone(), givens).map_err(|e| ParseError::new(at.0, at.1, e.to_string()))
}

/// The 9 rows of a grid, each joined by `sep`, each ending in a newline.
fn rows(grid: &Grid, sep: &str) -> String {
    grid.rows()
        .map(|r| {
            let digits: Vec<String> = r.iter().map(|v| v.to_string()).collect();
            digits.join(sep) + "\n"
        })
        .collect()
}

fn noip2009(input: &str, solve: impl Solve, out: &mut String) -> Result<(), JudgeError> {
    let mut inp = Input::new(input);
    let givens = inp.cells81(|t| cell_value(t, 9))?;
    inp.finish()?;
    let weights = Arc::new(Weights::pyramid(9));
    let puzzle = puzzle9(&standard9(), givens, (1, 1))?
        .with_weights(weights)
        .map_err(|e| ParseError::new(1, 1, e.to_string()))?;
    *out += &match solve(&puzzle, Task::Optimize)? {
        Answer::NoSolution => "-1\n".into(),
        Answer::Optimum {
            score,
            proved: true,
            ..
        } => format!("{score}\n"),
        Answer::Optimum { score, bound, .. } => {
            return Err(JudgeError::Incomplete {
                puzzle: 1,
                detail: format!("best score found {score}, upper bound {bound:?}"),
            })
        }
        other => return Err(unexpected(other)),
    };
    Ok(())
}

/// A task returned an answer of another task: cannot happen with [`task::run`].
fn unexpected(a: Answer) -> JudgeError {
    JudgeError::Check {
        backend: "?",
        failure: CheckFailure::Other(format!("unexpected answer kind '{}'", a.status())),
    }
}

/// HDU 1426: puzzles of 81 tokens, blank lines between them (a block may hold several). A
/// puzzle cut short, or with a bad cell, is skipped and returned; the blank lines keep the
/// reading in step, so the puzzles after it are answered.
fn hdu1426(
    input: &str,
    solve: impl Solve,
    out: &mut String,
) -> Result<Vec<ParseError>, JudgeError> {
    let shape = standard9();
    let mut skipped = vec![];
    let mut first = true;
    for block in token_blocks(input) {
        for cells in block.chunks(81) {
            let puzzle = match hdu1426_puzzle(&shape, cells) {
                Ok(puzzle) => puzzle,
                Err(e) => {
                    skipped.push(e);
                    continue;
                }
            };
            let answer = match solve(&puzzle, Task::Solve)? {
                Answer::Solved(g) => rows(&g, " "),
                Answer::NoSolution => "No solution\n".into(),
                other => return Err(unexpected(other)),
            };
            // A blank line between puzzles.
            if !std::mem::take(&mut first) {
                out.push('\n');
            }
            *out += &answer;
        }
    }
    Ok(skipped)
}

/// The tokens of `input`, in blocks separated by blank lines.
fn token_blocks(input: &str) -> Vec<Vec<Token<'_>>> {
    let mut blocks = vec![vec![]];
    for (i, line) in numbered_lines(input) {
        match blocks.last_mut() {
            Some(block) if line.trim().is_empty() && !block.is_empty() => blocks.push(vec![]),
            Some(block) => block.extend(line_tokens(line, i)),
            None => {}
        }
    }
    blocks.retain(|b| !b.is_empty());
    blocks
}

/// An HDU 1426 puzzle from its cell tokens (`?` empty): 81 of them, else an error where they end.
fn hdu1426_puzzle(shape: &Arc<Shape>, cells: &[Token<'_>]) -> Result<Puzzle, ParseError> {
    let (start, end) = (cells[0], cells[cells.len() - 1]);
    if cells.len() < 81 {
        let rows = end.line - start.line + 1;
        return Err(ParseError::new(
            end.line,
            end.end_col(),
            format!(
                "the puzzle from line {} ends after {} cells ({rows} {}), expected 81, 9 rows of \
                 9",
                start.line,
                cells.len(),
                if rows == 1 { "row" } else { "rows" }
            ),
        ));
    }
    let givens = cells
        .iter()
        .map(|t| cell_value(t, 9))
        .collect::<Result<_, _>>()?;
    puzzle9(shape, givens, (start.line, start.col))
}

/// HDU 4069 wall bits (after the digit's low 4 bits).
const UP: u32 = 16;
const RIGHT: u32 = 32;
const DOWN: u32 = 64;
const LEFT: u32 = 128;

fn hdu4069(input: &str, solve: impl Solve, out: &mut String) -> Result<(), JudgeError> {
    let mut inp = Input::new(input);
    let cases = inp.count("the number of cases")?;
    for case in 1..=cases {
        let puzzle = squiggly(&mut inp)?;
        let answer = match solve(&puzzle, Task::Unique)? {
            Answer::Unique(g) => rows(&g, ""),
            Answer::NoSolution => "No solution\n".into(),
            Answer::Multiple(..) => "Multiple Solutions\n".into(),
            other => return Err(unexpected(other)),
        };
        *out += &format!("Case {case}:\n{answer}");
    }
    inp.finish()?;
    Ok(())
}

/// One HDU 4069 grid: digits and walls; regions from the walls.
fn squiggly(inp: &mut Input<'_>) -> Result<Puzzle, ParseError> {
    let mut toks = Vec::with_capacity(81);
    let mut codes = Vec::with_capacity(81);
    for i in 0..81 {
        let t = inp.next(&format!("cell {} of 81", i + 1))?;
        let code = t
            .text
            .parse::<u32>()
            .ok()
            .filter(|&c| c < 256 && c & 15 <= 9)
            .ok_or_else(|| {
                ParseError::new(
                    t.line,
                    t.col,
                    format!(
                        "bad cell '{}': expected digit 0-9 plus walls (16 up, 32 right, 64 down, 128 left)",
                        t.text
                    ),
                )
            })?;
        toks.push(t);
        codes.push(code);
    }
    let at = |cell: usize| (toks[cell].line, toks[cell].col);
    let err = |cell: usize, msg: String| ParseError::new(toks[cell].line, toks[cell].col, msg);
    // Walls must agree between neighbours.
    for cell in 0..81 {
        let (r, c) = (cell / 9, cell % 9);
        let pairs = [
            (c < 8, cell + 1, RIGHT, LEFT, "right"),
            (r < 8, cell + 9, DOWN, UP, "lower"),
        ];
        for (exists, other, mine, theirs, side) in pairs {
            if exists && (codes[cell] & mine != 0) != (codes[other] & theirs != 0) {
                return Err(err(
                    cell,
                    format!(
                        "walls disagree: row {}, column {} and its {side} neighbour do not both declare the wall between them",
                        r + 1,
                        c + 1
                    ),
                ));
            }
        }
    }
    // Regions: connected components of cells not separated by walls.
    let mut region = vec![u32::MAX; 81];
    let mut sizes = vec![];
    let mut firsts = vec![];
    for start in 0..81 {
        if region[start] != u32::MAX {
            continue;
        }
        let id = sizes.len() as u32;
        region[start] = id;
        let mut stack = vec![start];
        let mut size = 0;
        while let Some(cell) = stack.pop() {
            size += 1;
            let (r, c) = (cell / 9, cell % 9);
            let moves = [
                (r > 0, UP, cell.wrapping_sub(9)),
                (c < 8, RIGHT, cell + 1),
                (r < 8, DOWN, cell + 9),
                (c > 0, LEFT, cell.wrapping_sub(1)),
            ];
            for (ok, wall, next) in moves {
                if ok && codes[cell] & wall == 0 && region[next] == u32::MAX {
                    region[next] = id;
                    stack.push(next);
                }
            }
        }
        sizes.push(size);
        firsts.push(start);
    }
    if let Some(bad) = (0..sizes.len()).find(|&i| sizes[i] != 9 || sizes.len() != 9) {
        return Err(err(
            firsts[bad],
            format!(
                "the walls cut the grid into {} regions of sizes {:?}; need 9 regions of 9 cells (this region starts here with {} cells)",
                sizes.len(),
                sizes,
                sizes[bad]
            ),
        ));
    }
    let shape = Shape::new(9, Regions::Jigsaw(region), false)
        .map_err(|e| ParseError::new(at(0).0, at(0).1, e.to_string()))?;
    let givens = codes.iter().map(|&c| (c & 15) as Value).collect();
    puzzle9(&Arc::new(shape), givens, at(0))
}

fn sicily1317(input: &str, solve: impl Solve, out: &mut String) -> Result<(), JudgeError> {
    let shape = standard9();
    let mut inp = Input::new(input);
    let count = inp.count("the number of puzzles")?;
    for k in 1..=count {
        let mut givens = Vec::with_capacity(81);
        let mut start = (0, 0);
        for r in 0..9 {
            let t = inp.next(&format!("row {} of puzzle {k}", r + 1))?;
            if r == 0 {
                start = (t.line, t.col);
            }
            let len = t.text.chars().count();
            if len != 9 {
                return Err(ParseError::new(
                    t.line,
                    t.col,
                    format!("row of {len} symbols, expected 9 (digits 1-9, _ for empty)"),
                )
                .into());
            }
            format::push_symbols(&t, 9, &mut givens)?;
        }
        let puzzle = puzzle9(&shape, givens, start)?;
        let answer = match solve(&puzzle, Task::Count { limit: u64::MAX })? {
            Answer::NoSolution => format!("Puzzle {k} has no solution\n"),
            Answer::Counted {
                count: 1,
                complete: true,
                first,
            } => format!("Puzzle {k} solution is\n{}", rows(&first, "")),
            Answer::Counted {
                count,
                complete: true,
                ..
            } => format!("Puzzle {k} has {count} solutions\n"),
            Answer::Counted { count, .. } => {
                return Err(JudgeError::Incomplete {
                    puzzle: k,
                    detail: format!("at least {count} solutions"),
                })
            }
            other => return Err(unexpected(other)),
        };
        // A blank line between puzzles.
        if k > 1 {
            out.push('\n');
        }
        *out += &answer;
    }
    inp.finish()?;
    Ok(())
}

fn leetcode37(input: &str, solve: impl Solve, out: &mut String) -> Result<(), JudgeError> {
    let opts = ReadOptions {
        format: Some(Format::Json),
        diagonals: false,
    };
    let mut entries = format::read_puzzles(input, &opts);
    if entries.len() != 1 {
        return Err(
            ParseError::new(1, 1, format!("expected one board, found {}", entries.len())).into(),
        );
    }
    let puzzle = entries.remove(0)?.puzzle;
    match solve(&puzzle, Task::Solve)? {
        Answer::Solved(g) => {
            let json = format::write_json(&g).ok_or_else(|| {
                ParseError::new(1, 1, "boards larger than 35×35 cannot be written")
            })?;
            *out += &json;
            Ok(())
        }
        Answer::NoSolution => Err(JudgeError::NoSolution {
            problem: Problem::Leetcode37,
            puzzle: 1,
        }),
        other => Err(unexpected(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problem_names_round_trip() {
        for p in Problem::ALL {
            assert_eq!(p.name().parse::<Problem>(), Ok(p));
        }
        assert!("hdu".parse::<Problem>().is_err());
    }
}
