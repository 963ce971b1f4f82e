//! The records of the logic engine's commands, shared by the command line and the Python
//! module so both write the same fields: [`StepRecord`], one step of `explain --json`, and
//! [`GradeRow`], one puzzle's row of `grade` (its text columns and its JSON record).
//!
//! Cells are 1-based `[row, column, digit]` triples; ratings keep the table's one decimal.

use serde::Serialize;

use crate::logic::render::text;
use crate::logic::solver::step_rating;
use crate::logic::{Candidate, Grade, Step};
use crate::model::Puzzle;

/// One step of a solving path, as `explain --json` writes it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepRecord {
    /// 1-based position in the path.
    pub step: usize,
    /// The technique's key (`hidden-single`).
    pub technique: &'static str,
    /// The technique's name (`Hidden Single`).
    pub name: &'static str,
    /// The step in HoDoKu's notation (`Hidden Single: r9c3=7`).
    pub text: String,
    pub placements: Vec<[usize; 3]>,
    pub eliminations: Vec<[usize; 3]>,
    /// HoDoKu score of the step.
    pub score: u32,
    /// Sudoku Explainer style rating of the step.
    pub rating: f64,
}

/// `[row, column, digit]`, 1-based, on a grid of side `n`.
fn triples(n: usize, list: &[Candidate]) -> Vec<[usize; 3]> {
    list.iter()
        .map(|c| {
            let cell = c.cell as usize;
            [cell / n + 1, cell % n + 1, c.digit as usize]
        })
        .collect()
}

/// A rating to its one decimal (the table's ratings are tenths; an `f32` widened to `f64` would
/// write `3.5999999046325684` for 3.6).
fn tenths(rating: f32) -> f64 {
    (f64::from(rating) * 10.0).round() / 10.0
}

impl StepRecord {
    /// The record of the step at 0-based `index` of a path of `puzzle`.
    pub fn new(puzzle: &Puzzle, index: usize, step: &Step) -> StepRecord {
        let n = puzzle.size();
        let info = step.technique.info();
        StepRecord {
            step: index + 1,
            technique: info.key,
            name: info.name,
            text: text(puzzle.shape(), step),
            placements: triples(n, &step.placements),
            eliminations: triples(n, &step.eliminations),
            score: info.score,
            rating: tenths(step_rating(puzzle, step)),
        }
    }

    /// The records of a whole path.
    pub fn path(puzzle: &Puzzle, steps: &[Step]) -> Vec<StepRecord> {
        (steps.iter().enumerate())
            .map(|(i, s)| StepRecord::new(puzzle, i, s))
            .collect()
    }
}

/// One puzzle's row of `grade`: where it was read and its [`Grade`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GradeRow {
    pub file: String,
    /// 1-based line where the puzzle starts.
    pub line: usize,
    /// `easy`, `medium`, `hard`, `unfair`, `extreme` (HoDoKu's), `unsolved`, or `timeout` (the
    /// run stopped at its time limit; the other figures are those of the steps found).
    pub level: &'static str,
    /// HoDoKu score: the sum of the steps' scores.
    pub score: u64,
    /// Sudoku Explainer style rating: the hardest step's.
    pub rating: f64,
    pub pearl: f64,
    pub diamond: f64,
    /// The hardest technique's key, `-` for an empty path.
    pub hardest: &'static str,
    pub steps: usize,
    /// True when no bifurcation was needed.
    pub logic_only: bool,
    /// Seconds spent solving and grading.
    pub time: f64,
}

impl GradeRow {
    /// The column names, in the order of [`GradeRow::cells`].
    pub const COLUMNS: [&'static str; 11] = [
        "file",
        "line",
        "level",
        "score",
        "rating",
        "pearl",
        "diamond",
        "hardest",
        "steps",
        "logic_only",
        "time",
    ];

    pub fn new(file: &str, line: usize, g: &Grade) -> GradeRow {
        GradeRow {
            file: file.to_string(),
            line,
            level: match (g.solved, g.timed_out) {
                (true, _) => g.level.name(),
                (false, true) => "timeout",
                (false, false) => "unsolved",
            },
            score: g.score,
            rating: tenths(g.rating),
            pearl: tenths(g.pearl),
            diamond: tenths(g.diamond),
            hardest: g.hardest.map_or("-", |t| t.key()),
            steps: g.steps,
            logic_only: g.logic_only,
            time: g.time.as_secs_f64(),
        }
    }

    /// The row as text cells (ratings with one decimal, time in microsecond steps).
    pub fn cells(&self) -> [String; 11] {
        [
            self.file.clone(),
            self.line.to_string(),
            self.level.to_string(),
            self.score.to_string(),
            format!("{:.1}", self.rating),
            format!("{:.1}", self.pearl),
            format!("{:.1}", self.diamond),
            self.hardest.to_string(),
            self.steps.to_string(),
            self.logic_only.to_string(),
            format!("{:.6}", self.time),
        ]
    }
}
