//! The solving loop and the grade: a [`Ladder`] (techniques in order) is asked for its first
//! step, the step is applied and recorded, until the grid is full or nothing applies; [`grade`]
//! reads HoDoKu's score and level and Sudoku Explainer's rating off the path.

use std::time::{Duration, Instant};

use super::board::{all_digits, bit, digits, Board};
use super::finders;
use super::step::{Found, Step};
pub use super::table::Level;
use super::table::{Family, Technique, TECHNIQUES};
use super::LogicError;
use crate::cancel::Halt;
use crate::model::{Puzzle, Value};

/// Techniques in the order they are tried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ladder {
    techniques: Vec<Technique>,
}

impl Default for Ladder {
    /// Every technique, in HoDoKu's order, bifurcation last, but those
    /// [`Technique::in_default_ladder`] leaves out.
    fn default() -> Ladder {
        Ladder {
            techniques: TECHNIQUES
                .iter()
                .map(|t| t.technique)
                .filter(|t| t.in_default_ladder())
                .collect(),
        }
    }
}

impl Ladder {
    /// The techniques a list names: technique keys (`x-wing`), family keys (`fish`),
    /// `default` (the default ladder) and `all` (every technique), separated by commas, kept in
    /// the default order. A list that names none is an error: a ladder without techniques finds
    /// no step.
    pub fn parse(list: &str) -> Result<Ladder, LogicError> {
        let mut chosen = vec![];
        for word in list.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            let word = word.to_ascii_lowercase();
            if word == "default" || word == "all" {
                let every = TECHNIQUES.iter().map(|t| t.technique);
                chosen.extend(every.filter(|t| word == "all" || t.in_default_ladder()));
            } else if let Some(family) = Family::ALL.iter().find(|f| f.key() == word) {
                chosen.extend(
                    TECHNIQUES
                        .iter()
                        .filter(|t| t.family == *family)
                        .map(|t| t.technique),
                );
            } else if let Some(t) = TECHNIQUES.iter().find(|t| t.key == word) {
                chosen.push(t.technique);
            } else {
                return Err(LogicError::UnknownTechnique(word));
            }
        }
        if chosen.is_empty() {
            return Err(LogicError::NoTechniques);
        }
        Ok(Ladder::of(chosen))
    }
    /// The given techniques, in the default order.
    pub fn of(mut techniques: Vec<Technique>) -> Ladder {
        techniques.sort_unstable();
        techniques.dedup();
        Ladder { techniques }
    }
    /// The same ladder without the techniques that assume a unique solution.
    pub fn without_uniqueness(self) -> Ladder {
        self.without(Family::Uniqueness)
    }
    /// The same ladder without a family.
    pub fn without(mut self, family: Family) -> Ladder {
        self.techniques.retain(|t| t.info().family != family);
        self
    }
    pub fn techniques(&self) -> &[Technique] {
        &self.techniques
    }
    /// The first step of the first technique that finds one.
    pub fn next_step(&self, board: &Board) -> Option<Step> {
        self.steps(board, 1).pop()
    }
    /// Up to `limit` steps, the techniques in order.
    pub fn steps(&self, board: &Board, limit: usize) -> Vec<Step> {
        self.steps_remembering(board, limit, &mut Memo::default(), &Halt::default())
    }
    /// [`Ladder::steps`] along a path: `memo` keeps what the one-digit techniques found
    /// nothing for on earlier boards of the same path, and they skip it (the steps are the
    /// same as without it). Once `halt` is reached, no further technique is tried.
    fn steps_remembering(
        &self,
        board: &Board,
        limit: usize,
        memo: &mut Memo,
        halt: &Halt,
    ) -> Vec<Step> {
        let mut found = Found::new(limit);
        found.ladder = self
            .techniques
            .iter()
            .fold(0u128, |bits, &t| bits | 1 << t as usize);
        for &t in &self.techniques {
            if halt.reached() {
                break;
            }
            let per_digit = finders::per_digit(t);
            found.digits = match per_digit {
                true => memo.changed(board, t),
                false => u64::MAX,
            };
            let before = found.steps.len();
            finders::finder(t)(board, t, &mut found);
            if per_digit && found.steps.len() == before {
                memo.found_nothing(board, t, found.digits);
            }
            for (other, nothing) in std::mem::take(&mut found.also_empty) {
                memo.found_nothing(board, other, nothing);
            }
            if found.full() {
                break;
            }
        }
        found.steps
    }
}

/// What each one-digit technique found nothing for: per technique and digit, the digit's
/// places (a mask per row) on the board where it last looked.
#[derive(Debug, Default)]
struct Memo {
    places: std::collections::HashMap<(Technique, Value), Vec<u64>>,
}

impl Memo {
    /// The places of digit `d`, row by row.
    fn places(board: &Board, d: Value) -> impl Iterator<Item = u64> + '_ {
        (0..board.n()).map(move |row| board.positions(row, d))
    }
    /// The digits whose places differ from those `t` last found nothing on.
    fn changed(&self, board: &Board, t: Technique) -> u64 {
        let mut mask = 0;
        for d in 1..=board.n() as Value {
            let same = self
                .places
                .get(&(t, d))
                .is_some_and(|seen| seen.iter().copied().eq(Memo::places(board, d)));
            if !same {
                mask |= bit(d);
            }
        }
        mask
    }
    /// Records that `t` found nothing for the `digits` on this board.
    fn found_nothing(&mut self, board: &Board, t: Technique, digits_asked: u64) {
        for d in digits(digits_asked & all_digits(board.n())) {
            self.places.insert((t, d), Memo::places(board, d).collect());
        }
    }
}

/// How a solving run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolveOutcome {
    /// Every cell holds a digit.
    Solved,
    /// No technique of the ladder applies.
    Stuck,
    /// The board cannot be completed (the puzzle has no solution).
    Contradiction,
    /// The run's deadline came, or its cancel flag was set ([`solve_board_until`]).
    TimedOut,
}

/// A solving run: the path, how it ended and the board it left.
#[derive(Debug, Clone)]
pub struct SolveResult {
    pub steps: Vec<Step>,
    pub outcome: SolveOutcome,
    pub board: Board,
}

/// Solves a puzzle with a ladder.
pub fn solve(puzzle: &Puzzle, ladder: &Ladder) -> Result<SolveResult, LogicError> {
    Ok(solve_board(Board::new(puzzle)?, ladder))
}

/// Solves from a board (a partly filled grid, with candidates already removed).
pub fn solve_board(board: Board, ladder: &Ladder) -> SolveResult {
    solve_board_until(board, ladder, &Halt::default())
}

/// [`solve_board`] that stops, [`SolveOutcome::TimedOut`], once `halt` is reached: it is
/// looked at before each step and between two techniques (a technique's search under way is
/// finished first).
pub fn solve_board_until(mut board: Board, ladder: &Ladder, halt: &Halt) -> SolveResult {
    let mut steps = vec![];
    let mut memo = Memo::default();
    let outcome = loop {
        if board.broken() {
            break SolveOutcome::Contradiction;
        }
        if board.solved() {
            break SolveOutcome::Solved;
        }
        if halt.reached() {
            break SolveOutcome::TimedOut;
        }
        let Some(step) = ladder.steps_remembering(&board, 1, &mut memo, halt).pop() else {
            // No step: the ladder was cut short by the halt, or it has none.
            break match halt.reached() {
                true => SolveOutcome::TimedOut,
                false => SolveOutcome::Stuck,
            };
        };
        // Finders report only candidates that are there; a step that changes nothing would
        // come back forever, so it ends the run instead.
        if !board.apply(&step) {
            break SolveOutcome::Stuck;
        }
        steps.push(step);
    };
    SolveResult {
        steps,
        outcome,
        board,
    }
}

/// A puzzle's grade, from its path.
#[derive(Debug, Clone, PartialEq)]
pub struct Grade {
    pub level: Level,
    /// HoDoKu score: the sum of the steps' scores.
    pub score: u64,
    /// SE-style rating: the hardest step's rating.
    pub rating: f32,
    /// The hardest step's rating up to the first placement.
    pub pearl: f32,
    /// The first step's rating.
    pub diamond: f32,
    /// The technique of the highest-scoring step.
    pub hardest: Option<Technique>,
    pub steps: usize,
    /// Steps per technique, in ladder order.
    pub counts: Vec<(Technique, usize)>,
    /// True when no bifurcation was needed.
    pub logic_only: bool,
    pub solved: bool,
    /// True when the run was stopped before it ended ([`grade_until`]).
    pub timed_out: bool,
    pub time: Duration,
}

/// The SE-style rating of one step (a hidden single in a box or region rates 1.2).
pub fn step_rating(puzzle: &Puzzle, step: &Step) -> f32 {
    let n = puzzle.size();
    let in_region = step
        .houses
        .first()
        .is_some_and(|&h| (2 * n..3 * n).contains(&(h as usize)));
    match step.technique {
        Technique::HiddenSingle if in_region => 1.2,
        t => t.info().se,
    }
}

/// Solves and grades a puzzle.
pub fn grade(puzzle: &Puzzle, ladder: &Ladder) -> Result<(SolveResult, Grade), LogicError> {
    grade_until(puzzle, ladder, &Halt::default())
}

/// [`grade`] with the solve stopped as [`solve_board_until`] stops it (the grade is then that
/// of the steps found, `solved` false).
pub fn grade_until(
    puzzle: &Puzzle,
    ladder: &Ladder,
    halt: &Halt,
) -> Result<(SolveResult, Grade), LogicError> {
    let start = Instant::now();
    let result = solve_board_until(Board::new(puzzle)?, ladder, halt);
    check_solved(puzzle, &result)?;
    let mut grade = grade_path(puzzle, &result.steps);
    grade.solved = result.outcome == SolveOutcome::Solved;
    grade.timed_out = result.outcome == SolveOutcome::TimedOut;
    grade.time = start.elapsed();
    Ok((result, grade))
}

/// A run that ends solved has filled a grid: it must pass the independent checker before anyone
/// calls it solved (a wrong step that slipped through would show here).
pub fn check_solved(puzzle: &Puzzle, result: &SolveResult) -> Result<(), LogicError> {
    if result.outcome != SolveOutcome::Solved {
        return Ok(());
    }
    let grid = crate::model::Grid::new(result.board.n(), result.board.values().to_vec());
    crate::check::verify(puzzle, &grid).map_err(LogicError::Unchecked)
}

/// The grade of a path (`solved` and `timed_out` false, `time` zero: [`grade`] fills them).
pub fn grade_path(puzzle: &Puzzle, steps: &[Step]) -> Grade {
    let mut level = Level::Easy;
    let mut score = 0u64;
    let (mut rating, mut pearl, mut hardest_score) = (0f32, 0f32, 0);
    let mut hardest = None;
    let mut placed = false;
    let mut counts: Vec<(Technique, usize)> = vec![];
    for step in steps {
        let info = step.technique.info();
        level = level.max(info.level);
        score += info.score as u64;
        let r = step_rating(puzzle, step);
        rating = rating.max(r);
        if !placed {
            pearl = pearl.max(r);
            placed = !step.placements.is_empty();
        }
        if info.score > hardest_score {
            (hardest_score, hardest) = (info.score, Some(step.technique));
        }
        match counts.iter_mut().find(|(t, _)| *t == step.technique) {
            Some((_, k)) => *k += 1,
            None => counts.push((step.technique, 1)),
        }
    }
    while score > level.max_score() as u64 {
        level = level.next();
    }
    counts.sort_unstable();
    Grade {
        level,
        score,
        rating,
        pearl,
        diamond: steps.first().map_or(0.0, |s| step_rating(puzzle, s)),
        hardest,
        steps: steps.len(),
        counts,
        logic_only: steps.iter().all(|s| s.technique != Technique::Bifurcation),
        solved: false,
        timed_out: false,
        time: Duration::ZERO,
    }
}

#[cfg(test)]
mod check_tests {
    use super::*;
    use crate::format::read_puzzles;

    fn puzzle(line: &str) -> Puzzle {
        read_puzzles(line, &Default::default())
            .remove(0)
            .unwrap()
            .puzzle
    }

    #[test]
    fn the_memo_of_one_digit_techniques_changes_no_step() {
        // Each step asked afresh (no memo) against the path `solve` takes (with it), on
        // magictour_top1465 puzzles whose hardest steps are a forcing net, a finned swordfish,
        // a skyscraper, a 2-string kite and an empty rectangle.
        let lines = [
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
            ".1.6...8.3.2..........49.....83...........4.7......5..46..........2...9.7...5....",
            "1.37....5...6.4...8...........81.....9....7...6.....9..2....4..5...3...........2.",
            ".2......6....41.....78....1......7....37.....6..412....1..74..5..8.5..7......39..",
            ".237....68...6.59.9.....7......4.97.3.7.96..2.........5..47.........2....8.......",
        ];
        for line in lines {
            let p = puzzle(line);
            let ladder = Ladder::default();
            let path = solve(&p, &ladder).unwrap().steps;
            let mut board = Board::new(&p).unwrap();
            for (i, step) in path.iter().enumerate() {
                assert_eq!(
                    ladder.next_step(&board).as_ref(),
                    Some(step),
                    "{line} step {i}"
                );
                board.apply(step);
            }
        }
    }

    #[test]
    fn a_solved_grid_passes_the_checker_only_against_its_own_puzzle() {
        let p = crate::logic::hard_test_puzzle();
        let result = solve(&p, &Ladder::default()).unwrap();
        assert_eq!(result.outcome, SolveOutcome::Solved);
        assert_eq!(check_solved(&p, &result), Ok(()));
        // The same filled grid held against a puzzle whose first given it contradicts.
        let digit = result.board.values()[0];
        let other = format!("{}{}", digit % 9 + 1, &".".repeat(80));
        assert!(matches!(
            check_solved(&puzzle(&other), &result),
            Err(LogicError::Unchecked(_))
        ));
    }
}
