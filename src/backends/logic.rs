//! The `logic` backend: the human-style engine of [`crate::logic`] behind the
//! [`Backend`] trait.
//!
//! * `solve` runs the default ladder without the uniqueness techniques (which assume one
//!   solution), bifurcation as the last resort, so every puzzle with a solution is finished.
//! * `count` (and so `unique`) answers only when logic alone decides: one solution when the
//!   ladder completes the grid with neither a uniqueness technique nor bifurcation (every step
//!   holds in every solution, so the grid is the only one), none when it reaches a
//!   contradiction; otherwise it refuses, saying it cannot prove the count.
//! * Effort: `nodes` are the steps of the path, `guesses` its bifurcation steps.
//! * It takes Killer cages and every variant rule ([`crate::logic::rules`]), and sides up to 64.

use crate::backend::{Backend, BackendError, Count, Limits, Optimum};
use crate::effort::Effort;
use crate::logic::{self, Family, Ladder, LogicError, SolveOutcome, SolveResult, Technique};
use crate::model::{Grid, Puzzle};

/// The logic engine as a backend.
#[derive(Debug, Default)]
pub struct Logic;

impl Logic {
    pub fn new() -> Logic {
        Logic
    }
}

impl From<LogicError> for BackendError {
    fn from(e: LogicError) -> Self {
        BackendError::Unsupported(e.to_string())
    }
}

/// Solves with `ladder` and reports the effort of the path.
fn run(puzzle: &Puzzle, ladder: &Ladder, limits: &Limits) -> Result<SolveResult, BackendError> {
    if limits.expired() {
        return Err(BackendError::TimedOut);
    }
    let board = logic::Board::new(puzzle)?;
    let result = logic::solver::solve_board_until(board, ladder, &limits.halt());
    if result.outcome == SolveOutcome::TimedOut {
        return Err(BackendError::TimedOut);
    }
    let guesses = result
        .steps
        .iter()
        .filter(|s| s.technique == Technique::Bifurcation)
        .count();
    limits.record(&Effort {
        nodes: Some(result.steps.len() as u64),
        guesses: Some(guesses as u64),
        ..Effort::default()
    });
    Ok(result)
}

fn grid(result: &SolveResult) -> Grid {
    Grid::new(result.board.n(), result.board.values().to_vec())
}

impl Backend for Logic {
    fn name(&self) -> &'static str {
        "logic"
    }

    fn takes(&self, _: crate::model::ConstraintKind) -> bool {
        true
    }

    fn solve(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Option<Grid>, BackendError> {
        let result = run(puzzle, &Ladder::default().without_uniqueness(), limits)?;
        match result.outcome {
            SolveOutcome::Solved => Ok(Some(grid(&result))),
            SolveOutcome::Contradiction => Ok(None),
            SolveOutcome::TimedOut => Err(BackendError::TimedOut),
            SolveOutcome::Stuck => Err(BackendError::Failed(
                "the ladder stopped before the grid was full".to_string(),
            )),
        }
    }

    fn count(&self, puzzle: &Puzzle, limit: u64, limits: &Limits) -> Result<Count, BackendError> {
        let ladder = Ladder::default()
            .without_uniqueness()
            .without(Family::LastResort);
        let result = run(puzzle, &ladder, limits)?;
        match result.outcome {
            SolveOutcome::Solved => Ok(Count::finished(1, limit.max(1), vec![grid(&result)])),
            SolveOutcome::Contradiction => Ok(Count::none()),
            SolveOutcome::TimedOut => Err(BackendError::TimedOut),
            SolveOutcome::Stuck => Err(BackendError::Unsupported(format!(
                "logic alone (no uniqueness technique, no bifurcation) stops after {} steps \
                 with {} empty cells: it cannot prove how many solutions there are",
                result.steps.len(),
                result.board.empty_cells()
            ))),
        }
    }

    fn optimize(&self, _: &Puzzle, _: &Limits) -> Result<Optimum, BackendError> {
        Err(BackendError::Unsupported(
            "the logic engine solves step by step and cannot optimise".to_string(),
        ))
    }
}
