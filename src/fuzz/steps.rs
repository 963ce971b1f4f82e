//! The step check of a fuzzing run with the `logic` backend ([`FuzzOptions::check_steps`]):
//! every case with one solution is also solved step by step with the run's ladder (the whole
//! default ladder unless the run names another: uniqueness techniques included, since the
//! solution is unique; bifurcation as the last resort), and every step of that path is held
//! against the solution with [`crate::logic::verify::check_path`]. A step that removes the
//! solution's digit, or places another one, is a fault of the run, as a disagreement is. A
//! ladder without bifurcation may stop before the grid is full: the steps it found are checked.
//!
//! The solution is the one the backends agreed on when the task gives it (`unique`, or a
//! complete count of one); otherwise the reference backend is asked, within the run's time-out.
//! Killer cages and variant rules are checked like the rest; a puzzle the engine refuses (a
//! side above 64) skips the check and is counted apart. The steps checked are counted per
//! technique ([`StepTally::techniques`]), so a run says how often each technique was held to
//! the solution.
//!
//! [`FuzzOptions::check_steps`]: super::FuzzOptions::check_steps

use std::collections::BTreeMap;
use std::time::Duration;

use crate::backend::{Backend, Limits};
use crate::logic::render::text;
use crate::logic::solver::solve_board;
use crate::logic::verify::{check_path, WrongStep};
use crate::logic::{Board, Ladder, LogicError, Step, Technique};
use crate::model::{Grid, Puzzle};
use crate::task::{self, Answer, Task};
use crate::xcheck::BackendRun;

/// A logic step that contradicts the puzzle's only solution.
#[derive(Debug, Clone)]
pub struct StepFault {
    pub wrong: WrongStep,
    /// The wrong step in HoDoKu's notation.
    pub text: String,
    /// Steps of the path before it (all right).
    pub before: usize,
    /// The steps checked, the wrong one included, per technique.
    pub techniques: TechniqueCounts,
    pub solution: Grid,
}

impl std::fmt::Display for StepFault {
    /// `wrong step: step 12 removes 4 in cell 30 where the solution has 4: <step text>`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "wrong step: {}: {}", self.wrong, self.text)
    }
}

/// What the step check did with one case.
#[derive(Debug, Clone)]
pub enum StepCheck {
    /// Every step of the path holds in the solution; how many steps of each technique there
    /// were.
    Checked(TechniqueCounts),
    /// The puzzle has no single solution (or it could not be settled): nothing to check against.
    NotUnique,
    /// The engine refuses the puzzle (a side above 64).
    Refused(LogicError),
    /// A step contradicts the solution.
    Wrong(Box<StepFault>),
}

/// Steps per technique (techniques with no step are absent).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TechniqueCounts(BTreeMap<Technique, u64>);

impl TechniqueCounts {
    /// The techniques of `steps`, counted.
    pub fn of(steps: &[Step]) -> TechniqueCounts {
        let mut counts = TechniqueCounts::default();
        for step in steps {
            *counts.0.entry(step.technique).or_default() += 1;
        }
        counts
    }
    /// Steps of `technique`.
    pub fn get(&self, technique: Technique) -> u64 {
        self.0.get(&technique).copied().unwrap_or(0)
    }
    /// Steps of every technique.
    pub fn total(&self) -> u64 {
        self.0.values().sum()
    }
    /// Each technique with steps, and how many, in the default order.
    pub fn iter(&self) -> impl Iterator<Item = (Technique, u64)> + '_ {
        self.0.iter().map(|(&t, &n)| (t, n))
    }
    /// Adds `other`'s steps.
    pub fn add(&mut self, other: &TechniqueCounts) {
        for (t, n) in other.iter() {
            *self.0.entry(t).or_default() += n;
        }
    }
}

/// Step counts of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StepTally {
    /// Puzzles whose whole path was checked.
    pub puzzles: u64,
    /// Steps checked over those puzzles.
    pub steps: u64,
    /// Puzzles with one solution that the engine refused.
    pub refused: u64,
    /// Wrong steps found (at most one a puzzle: the path stops being checked there).
    pub wrong: u64,
    /// The steps checked, per technique (they add up to [`StepTally::steps`]).
    pub techniques: TechniqueCounts,
}

impl StepTally {
    pub fn add(&mut self, check: &StepCheck) {
        let checked = match check {
            StepCheck::Checked(techniques) => techniques,
            StepCheck::NotUnique => return,
            StepCheck::Refused(_) => {
                self.refused += 1;
                return;
            }
            StepCheck::Wrong(fault) => {
                self.wrong += 1;
                &fault.techniques
            }
        };
        self.puzzles += 1;
        self.steps += checked.total();
        self.techniques.add(checked);
    }
}

/// The step check of one case, on which the backends gave `runs` (and agreed): the path
/// `ladder` finds, held against the solution.
pub fn check_case(
    puzzle: &Puzzle,
    runs: &[BackendRun],
    reference: &dyn Backend,
    timeout: Option<Duration>,
    ladder: &Ladder,
) -> StepCheck {
    let solution = match settled(runs) {
        Some(answer) => answer,
        None => reference_solution(puzzle, reference, timeout),
    };
    let Some(solution) = solution else {
        return StepCheck::NotUnique;
    };
    let board = match Board::new(puzzle) {
        Ok(b) => b,
        Err(e) => return StepCheck::Refused(e),
    };
    let result = solve_board(board, ladder);
    check_steps(puzzle, &solution, &result.steps)
}

/// Holds `steps` (a path from `puzzle`) against `solution`: the check every case gets.
pub fn check_steps(puzzle: &Puzzle, solution: &Grid, steps: &[Step]) -> StepCheck {
    match check_path(solution.cells(), steps) {
        Ok(()) => StepCheck::Checked(TechniqueCounts::of(steps)),
        Err(wrong) => StepCheck::Wrong(Box::new(StepFault {
            text: text(puzzle.shape(), &steps[wrong.index]),
            before: wrong.index,
            techniques: TechniqueCounts::of(&steps[..=wrong.index]),
            wrong,
            solution: solution.clone(),
        })),
    }
}

/// The one solution an answer gives: `unique`, or a complete count of one.
fn solution_of(answer: &Answer) -> Option<&Grid> {
    match answer {
        Answer::Unique(g) => Some(g),
        Answer::Counted {
            count: 1,
            complete: true,
            first,
        } => Some(first),
        _ => None,
    }
}

/// What the backends' answers settle: `Some(Some(solution))` when one gives the only solution,
/// `Some(None)` when one says there is none or more than one, `None` when none says (another
/// task, or no answer).
fn settled(runs: &[BackendRun]) -> Option<Option<Grid>> {
    let answers = runs.iter().filter_map(|r| r.result.as_ref().ok());
    let mut not_unique = false;
    for answer in answers {
        if let Some(g) = solution_of(answer) {
            return Some(Some(g.clone()));
        }
        not_unique |= match answer {
            Answer::NoSolution | Answer::Multiple(..) => true,
            Answer::Counted { count, .. } => *count > 1,
            _ => false,
        };
    }
    not_unique.then_some(None)
}

/// When no backend's answer settles it (other tasks, or all refused): the reference decides.
fn reference_solution(
    puzzle: &Puzzle,
    reference: &dyn Backend,
    timeout: Option<Duration>,
) -> Option<Grid> {
    let limits = timeout.map_or(Limits::none(), Limits::timeout);
    match task::run(reference, puzzle, Task::Unique, &limits) {
        Ok(Answer::Unique(g)) => Some(g),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::backends::{self, BackendKind};
    use crate::fuzz::{search, FuzzOptions, Run};
    use crate::generate::PuzzleSpec;
    use crate::logic::{self, Candidate};
    use crate::shard::Shard;

    fn dfs() -> Box<dyn Backend> {
        backends::create(BackendKind::Dfs, &Default::default()).unwrap()
    }

    /// The path of a hard puzzle passes; the same path with one step made to remove the
    /// solution's digit is caught at that step, with its text.
    #[test]
    fn a_wrong_elimination_in_a_path_is_caught_with_its_step() {
        let puzzle = logic::hard_test_puzzle();
        let solution = task::unique_solution(&puzzle).unwrap();
        let mut path = logic::solve(&puzzle, &Ladder::default()).unwrap().steps;
        let StepCheck::Checked(counts) = check_steps(&puzzle, &solution, &path) else {
            panic!("the engine's path is wrong");
        };
        let n = counts.total() as usize;
        assert_eq!(n, path.len());
        assert!(n > 20, "{n} steps");
        // Step 6 also removes the solution's digit of the first empty cell.
        let cell = puzzle.givens().iter().position(|&v| v == 0).unwrap();
        let digit = solution.cells()[cell];
        path[5].eliminations.push(Candidate {
            cell: cell as u32,
            digit,
        });
        let StepCheck::Wrong(fault) = check_steps(&puzzle, &solution, &path) else {
            panic!("the wrong step passed");
        };
        assert_eq!(fault.before, 5);
        assert_eq!((fault.wrong.index, fault.wrong.placement), (5, false));
        assert_eq!(fault.wrong.candidate.digit, digit);
        assert_eq!(fault.text, text(puzzle.shape(), &path[5]));
        assert!(
            fault.to_string().starts_with("wrong step: step 6 removes"),
            "{fault}"
        );
        let mut tally = StepTally::default();
        tally.add(&StepCheck::Wrong(fault));
        assert_eq!((tally.puzzles, tally.steps, tally.wrong), (1, 6, 1));
        assert_eq!(tally.techniques, TechniqueCounts::of(&path[..6]));
    }

    /// Cases `0..cases` of seed 3 with the step check on (the default ladder), `dfs` and `logic`
    /// answering `unique`.
    fn checked(spec: PuzzleSpec, cases: u64) -> crate::fuzz::Outcome {
        checked_with(spec, cases, Ladder::default())
    }

    /// [`checked`] with the step check's path found by `ladder`.
    fn checked_with(spec: PuzzleSpec, cases: u64, ladder: Ladder) -> crate::fuzz::Outcome {
        let backends = vec![
            dfs(),
            backends::create(BackendKind::Logic, &Default::default()).unwrap(),
        ];
        let opts = FuzzOptions {
            check_steps: Some(ladder),
            ..FuzzOptions::of(spec)
        };
        let run = Run {
            seed: 3,
            first: 0,
            cases: Some(cases),
            deadline: None,
            jobs: 1,
            shard: Shard::default(),
        };
        let reference = dfs();
        search(
            &opts,
            &run,
            &backends,
            reference.as_ref(),
            &AtomicBool::new(false),
            &|_| {},
        )
    }

    /// Every shape the fuzzer makes has its unique cases checked, none wrong; Killers are
    /// counted as refused.
    #[test]
    fn fuzzing_with_the_step_check_checks_every_shape() {
        for spec in [
            PuzzleSpec::new(4),
            PuzzleSpec::new(6),
            PuzzleSpec {
                jigsaw: true,
                ..PuzzleSpec::new(6)
            },
            PuzzleSpec {
                diagonals: true,
                ..PuzzleSpec::new(9)
            },
        ] {
            let outcome = checked(spec.clone(), 30);
            assert!(outcome.fault.is_none(), "{spec:?}: {:?}", outcome.fault);
            let tally = outcome.steps;
            assert!(tally.puzzles >= 5, "{spec:?}: {tally:?}");
            assert!(tally.steps >= tally.puzzles, "{spec:?}: {tally:?}");
            assert_eq!((tally.wrong, tally.refused), (0, 0), "{spec:?}");
        }
        let killer = checked(
            PuzzleSpec {
                killer: Some((2, 4)),
                ..PuzzleSpec::new(4)
            },
            30,
        );
        // The engine takes cages too: their paths are checked like the others.
        assert!(killer.fault.is_none(), "{:?}", killer.fault);
        let tally = killer.steps;
        assert!(
            tally.puzzles >= 5 && tally.steps >= tally.puzzles,
            "{tally:?}"
        );
        assert_eq!((tally.wrong, tally.refused), (0, 0), "{tally:?}");
    }

    /// The step check follows the run's ladder: with the singles, the fish and bifurcation only,
    /// the Franken fish (off the default ladder) take steps, every one checked, and no
    /// technique off that ladder does.
    #[test]
    fn the_step_check_follows_the_ladder_it_is_given() {
        let ladder = Ladder::parse("singles,fish,bifurcation").unwrap();
        let outcome = checked_with(PuzzleSpec::new(9), 30, ladder.clone());
        assert!(outcome.fault.is_none(), "{:?}", outcome.fault);
        let tally = outcome.steps;
        assert_eq!(tally.wrong, 0);
        assert_eq!(tally.techniques.total(), tally.steps);
        let franken: u64 = (ladder.techniques().iter())
            .filter(|t| !t.in_default_ladder())
            .map(|&t| tally.techniques.get(t))
            .sum();
        assert!(franken > 0, "{tally:?}");
        for (t, _) in tally.techniques.iter() {
            assert!(
                ladder.techniques().contains(&t),
                "{t:?} is not on the ladder"
            );
        }
        // The default ladder takes none of them.
        let default = checked(PuzzleSpec::new(9), 30).steps;
        assert!(default
            .techniques
            .iter()
            .all(|(t, _)| t.in_default_ladder()));
        assert_eq!(default.puzzles, tally.puzzles);
    }
}
