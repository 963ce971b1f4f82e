//! The page of `explain --html`: one self-contained HTML document to step through a logic solve.
//!
//! [`PageData`] is what the page shows, read off a [`SolveResult`]: the grade, the board (digits
//! and candidates) before every step and after the last, and each step's record
//! ([`StepRecord`]) with what justifies it: premise cells, fins, the cells of its houses, the
//! premise candidates and the links of its chain (or a coloring step's two colour classes). [`page`] writes the document: the grid is the
//! picture [`crate::render::svg`] draws, and a script draws the candidates, the step's marks
//! and its chain over it ([`GridFrame`] says where the cells are).
//!
//! The document fetches nothing: its style and script are inline, and the data is one JSON
//! object in `<script type="application/json" id="page-data">` (every `<` written `\u003c`).
//! The page shows step `K` (1-based) for the fragment `#step=K` and the grid after the last step
//! for `#step=end`; `#play` steps from the first step to the end with the arrow key, as a reader
//! would, then moves with a click in the list, End and the buttons, and lists where each move
//! led in the attribute `data-trail` of `<body>`. An error in the script is written into the page and into the attribute `data-error`
//! of `<body>`; `data-step` holds the position shown (`1`…, or `end`), and
//! `<output id="grid">` the digits of the grid shown, row by row (`.` for an empty cell).
//!
//! Cells and candidates are 1-based `[row, column]` and `[row, column, digit]`, as in
//! [`StepRecord`].

use serde::Serialize;

use crate::logic::board::digits;
use crate::logic::solver::grade_path;
use crate::logic::{Board, Family, Link, LogicError, SolveOutcome, SolveResult, Step};
use crate::model::{Puzzle, Value};
use crate::render::{grid_frame, svg, GridFrame, RenderOptions};
use crate::report::logic::{GradeRow, StepRecord};

/// Why a page could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    #[error(transparent)]
    Logic(#[from] LogicError),
    #[error("json error: {0}")]
    Json(#[from] serde_json::Error),
}

/// The side of a cell in the page's picture.
const CELL: f64 = 54.0;

/// Everything the page shows, as its script reads it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PageData {
    /// Where the puzzle was read (`file:line`).
    pub title: String,
    /// The side of the grid.
    pub size: usize,
    /// Where the picture puts the grid.
    pub frame: Frame,
    pub grade: PageGrade,
    /// The board before each step, then after the last: one more than `steps`.
    pub boards: Vec<BoardView>,
    pub steps: Vec<PageStep>,
}

/// [`GridFrame`] as the page's data holds it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Frame {
    pub x: f64,
    pub y: f64,
    pub cell: f64,
}

/// The grade at the top of the page (the fields of `grade`'s row) and how the solve ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PageGrade {
    /// HoDoKu's level, or `unsolved`.
    pub level: &'static str,
    pub score: u64,
    pub rating: f64,
    /// The hardest technique's key, `-` for an empty path.
    pub hardest: &'static str,
    pub steps: usize,
    /// `solved in 54 steps`, `no logical step found after 8 steps, 56 cells empty`, …
    pub outcome: String,
}

/// The digits and candidates of a board.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoardView {
    /// Row by row, 0 for an empty cell.
    pub values: Vec<Value>,
    /// Row by row, the candidates of each empty cell (none for a filled one).
    pub candidates: Vec<Vec<Value>>,
}

/// A link of a step's chain: from the candidates of one node to those of the next (a group node
/// has several).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LinkView {
    pub from: Vec<[usize; 3]>,
    pub to: Vec<[usize; 3]>,
    /// Strong (one of the two is true) or weak (not both).
    pub strong: bool,
}

/// One step: its record and the marks that justify it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PageStep {
    #[serde(flatten)]
    pub record: StepRecord,
    /// The premise cells (a subset's cells, a wing's pivot and pincers, …).
    pub cells: Vec<[usize; 2]>,
    /// Fins, or the extra candidates' cells of a BUG+1 or unique rectangle.
    pub fins: Vec<[usize; 2]>,
    /// The cells of the step's houses (base and cover houses alike).
    pub houses: Vec<[usize; 2]>,
    /// The candidates the step reasons from, its eliminations and placements left out.
    pub premises: Vec<[usize; 3]>,
    pub links: Vec<LinkView>,
    /// The colour classes of a coloring step (its chain's nodes: all true or all false each),
    /// drawn in colours rather than as links (two, or four for multi-colours: two clusters).
    pub colours: Vec<Vec<[usize; 3]>>,
}

impl PageData {
    /// The data of the page of `result`, a solve of `puzzle` from its givens ([`Board::new`]);
    /// `title` says where the puzzle comes from.
    pub fn new(puzzle: &Puzzle, result: &SolveResult, title: &str) -> Result<PageData, LogicError> {
        let mut board = Board::new(puzzle)?;
        let mut boards = vec![view(&board)];
        for step in &result.steps {
            board.apply(step);
            boards.push(view(&board));
        }
        let steps = (result.steps.iter().enumerate())
            .map(|(i, step)| PageStep::new(puzzle, &boards[i], i, step))
            .collect();
        let mut grade = grade_path(puzzle, &result.steps);
        grade.solved = result.outcome == SolveOutcome::Solved;
        grade.timed_out = result.outcome == SolveOutcome::TimedOut;
        let row = GradeRow::new(title, 0, &grade);
        let outcome = match result.outcome {
            SolveOutcome::Solved => format!("solved in {} steps", result.steps.len()),
            SolveOutcome::Stuck => format!(
                "no logical step found after {} steps, {} cells empty",
                result.steps.len(),
                result.board.empty_cells()
            ),
            SolveOutcome::Contradiction => "the puzzle has no solution".to_string(),
            SolveOutcome::TimedOut => format!("timed out after {} steps", result.steps.len()),
        };
        let GridFrame { x, y, cell } = grid_frame(puzzle, &options());
        Ok(PageData {
            title: title.to_string(),
            size: puzzle.size(),
            frame: Frame { x, y, cell },
            grade: PageGrade {
                level: row.level,
                score: row.score,
                rating: row.rating,
                hardest: row.hardest,
                steps: row.steps,
                outcome,
            },
            boards,
            steps,
        })
    }
}

/// How the page's picture is drawn.
fn options() -> RenderOptions {
    RenderOptions {
        cell: CELL,
        title: None,
    }
}

fn view(board: &Board) -> BoardView {
    let cells = board.n() * board.n();
    BoardView {
        values: board.values().to_vec(),
        candidates: (0..cells)
            .map(|c| digits(board.cands(c)).collect())
            .collect(),
    }
}

impl PageStep {
    /// The step at 0-based `index` of a path of `puzzle`, taken on a board that looked like
    /// `before`.
    fn new(puzzle: &Puzzle, before: &BoardView, index: usize, step: &Step) -> PageStep {
        let n = puzzle.size();
        let rc = |c: u32| [c as usize / n + 1, c as usize % n + 1];
        let rcd = |c: u32, d: Value| [c as usize / n + 1, c as usize % n + 1, d as usize];
        let has = |c: u32, d: Value| before.candidates[c as usize].contains(&d);
        let record = StepRecord::new(puzzle, index, step);
        let mut house_cells: Vec<u32> = (step.houses.iter().chain(&step.covers))
            .flat_map(|&h| puzzle.shape().house(h as usize).iter().copied())
            .collect();
        house_cells.sort_unstable();
        house_cells.dedup();
        // Premise candidates: the step's digits in its cells and fins (a forcing step pairs
        // each premise cell with its digit), in its base houses when it names no cells, and
        // every node of its chain.
        let mut premises: Vec<(u32, Value)> = vec![];
        let family = step.technique.info().family;
        let paired = family == Family::Forcing && step.cells.len() == step.digits.len();
        if paired {
            premises.extend(step.cells.iter().copied().zip(step.digits.iter().copied()));
        } else {
            let base: Vec<u32> = if step.cells.is_empty() {
                (step.houses.iter())
                    .flat_map(|&h| puzzle.shape().house(h as usize).iter().copied())
                    .collect()
            } else {
                step.cells.clone()
            };
            for &c in base.iter().chain(&step.fins).chain(&step.endo_fins) {
                premises.extend(step.digits.iter().map(|&d| (c, d)));
            }
        }
        let coloring = family == Family::Coloring;
        if !coloring {
            for node in &step.chain {
                premises.extend(node.cells.iter().map(|&c| (c, node.digit)));
            }
        }
        let concluded = |&(c, d): &(u32, Value)| {
            (step.eliminations.iter().chain(&step.placements)).any(|x| x.cell == c && x.digit == d)
        };
        premises.retain(|p| has(p.0, p.1) && !concluded(p));
        premises.sort_unstable();
        premises.dedup();
        let node = |i: usize| -> Vec<[usize; 3]> {
            let node = &step.chain[i];
            node.cells.iter().map(|&c| rcd(c, node.digit)).collect()
        };
        let colours = match coloring {
            true => (0..step.chain.len()).map(node).collect(),
            false => vec![],
        };
        let links = (0..step.chain.len().saturating_sub(1))
            .filter(|&i| !coloring && step.chain[i].link != Link::End)
            .map(|i| LinkView {
                from: node(i),
                to: node(i + 1),
                strong: step.chain[i].link == Link::Strong,
            })
            .collect();
        PageStep {
            record,
            cells: step.cells.iter().map(|&c| rc(c)).collect(),
            fins: (step.fins.iter().chain(&step.endo_fins))
                .map(|&c| rc(c))
                .collect(),
            houses: house_cells.into_iter().map(rc).collect(),
            premises: premises.into_iter().map(|(c, d)| rcd(c, d)).collect(),
            links,
            colours,
        }
    }
}

/// The style of the page.
const STYLE: &str = include_str!("html/page.css");
/// The script that steps through the data.
const SCRIPT: &str = include_str!("html/page.js");
/// Catches the script's errors into the page; runs first.
const GUARD: &str = include_str!("html/guard.js");

/// The page of `data`, whose puzzle is `puzzle`: one HTML document that fetches nothing.
pub fn page(puzzle: &Puzzle, data: &PageData) -> Result<String, PageError> {
    let picture = svg(puzzle, None, &options());
    // The SVG document without its XML declaration, inline in the page.
    let picture = picture.find("<svg").map_or("", |i| &picture[i..]);
    // `<` only occurs inside JSON strings, where `\u003c` means the same: no `</script>`.
    let json = serde_json::to_string(data)?.replace('<', "\\u003c");
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>sudoku-lab explain</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
         <script>\n{GUARD}</script>\n\
         <header>\n<h1 id=\"title\"></h1>\n<p id=\"grade\"></p>\n\
         <p id=\"error\" hidden></p>\n</header>\n\
         <main>\n<section id=\"board\">\n{picture}\
         <nav>\n<button id=\"prev\" type=\"button\" title=\"Previous step (left arrow)\">\
         &#8592; back</button>\n<span id=\"position\"></span>\n\
         <button id=\"next\" type=\"button\" title=\"Next step (right arrow)\">forward \
         &#8594;</button>\n</nav>\n<p id=\"current\"></p>\n\
         <p class=\"legend\"><span class=\"key premise\">premise</span> \
         <span class=\"key eliminated\">eliminated</span> \
         <span class=\"key placed\">placed</span> \
         <span class=\"key strong\">strong link</span> \
         <span class=\"key weak\">weak link</span></p>\n\
         <output id=\"grid\"></output>\n</section>\n\
         <ol id=\"steps\"></ol>\n</main>\n\
         <script type=\"application/json\" id=\"page-data\">{json}</script>\n\
         <script>\n{SCRIPT}</script>\n</body>\n</html>\n"
    ))
}

/// The page of a solve of `puzzle` ([`PageData::new`], then [`page`]).
pub fn explain_page(
    puzzle: &Puzzle,
    result: &SolveResult,
    title: &str,
) -> Result<String, PageError> {
    page(puzzle, &PageData::new(puzzle, result, title)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::{solve, Ladder};

    #[test]
    fn the_data_replays_the_path_to_the_solution() {
        let puzzle = crate::logic::hard_test_puzzle();
        let result = solve(&puzzle, &Ladder::default()).unwrap();
        let data = PageData::new(&puzzle, &result, "hard").unwrap();
        assert_eq!(data.boards.len(), result.steps.len() + 1);
        assert_eq!(data.boards[0].values, puzzle.givens());
        let last = data.boards.last().unwrap();
        assert_eq!(last.values, result.board.values());
        assert!(last.candidates.iter().all(Vec::is_empty));
        // Every premise was a candidate when its step was taken, and no link is empty.
        for (i, step) in data.steps.iter().enumerate() {
            let n = data.size;
            for &[r, c, d] in &step.premises {
                let cands = &data.boards[i].candidates[(r - 1) * n + c - 1];
                assert!(cands.contains(&(d as Value)), "step {}", i + 1);
            }
            assert!(step
                .links
                .iter()
                .all(|l| !l.from.is_empty() && !l.to.is_empty()));
        }
        assert!(data.steps.iter().any(|s| !s.links.is_empty()));
    }
}
