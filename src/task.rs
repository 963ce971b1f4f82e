//! Tasks (solve, count, unique, optimize) run on any backend, with every answer verified by the
//! independent checker before it is returned. This is the only way answers reach users.

use std::time::{Duration, Instant};

use crate::backend::{Backend, BackendError, Limits, Optimum};
use crate::check::{self, CheckFailure};
use crate::effort::Effort;
use crate::model::{Expected, Grid, Puzzle};

/// Default `--limit` for counting.
pub const DEFAULT_COUNT_LIMIT: u64 = 1_000_000;

/// What to ask of a backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    /// One solution, or none.
    Solve,
    /// Exact number of solutions up to `limit` ("at least `limit`" beyond).
    Count { limit: u64 },
    /// None, unique or multiple (a count with limit 2).
    Unique,
    /// Maximum weighted score (the puzzle must carry weights).
    Optimize,
}

impl Task {
    /// Every task, by name (a count to [`DEFAULT_COUNT_LIMIT`]).
    pub const ALL: [Task; 4] = [
        Task::Solve,
        Task::Count {
            limit: DEFAULT_COUNT_LIMIT,
        },
        Task::Unique,
        Task::Optimize,
    ];

    pub fn name(&self) -> &'static str {
        match self {
            Task::Solve => "solve",
            Task::Count { .. } => "count",
            Task::Unique => "unique",
            Task::Optimize => "optimize",
        }
    }

    /// The same task, a count counting to `limit` (at least 1).
    pub fn with_limit(self, limit: u64) -> Task {
        match self {
            Task::Count { .. } => Task::Count {
                limit: limit.max(1),
            },
            other => other,
        }
    }
}

/// A task name that is none of [`Task::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown task '{0}' (choose one of: solve, count, unique, optimize)")]
pub struct UnknownTask(pub String);

impl std::str::FromStr for Task {
    type Err = UnknownTask;
    /// `solve`, `count` (to [`DEFAULT_COUNT_LIMIT`]: [`Task::with_limit`]), `unique` or
    /// `optimize`.
    fn from_str(s: &str) -> Result<Task, UnknownTask> {
        Task::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| UnknownTask(s.to_string()))
    }
}

/// A checked answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// The puzzle has no solution (any task).
    NoSolution,
    /// `solve`: a solution.
    Solved(Grid),
    /// `count`: `count` solutions, exact when `complete`, else "at least"; `first` is one of them.
    Counted {
        count: u64,
        complete: bool,
        first: Grid,
    },
    /// `unique`: exactly one solution.
    Unique(Grid),
    /// `unique`: two different solutions (there may be more).
    Multiple(Grid, Grid),
    /// `optimize`: a grid reaching `score`; `proved` when no grid scores more, else `bound` may
    /// give an upper bound.
    Optimum {
        score: i64,
        grid: Grid,
        proved: bool,
        bound: Option<i64>,
    },
}

impl Answer {
    /// The grid to show for this answer, if any.
    pub fn grid(&self) -> Option<&Grid> {
        match self {
            Answer::NoSolution => None,
            Answer::Solved(g) | Answer::Unique(g) | Answer::Multiple(g, _) => Some(g),
            Answer::Counted { first, .. } => Some(first),
            Answer::Optimum { grid, .. } => Some(grid),
        }
    }
    /// A one-word status: `none`, `solved`, `counted`, `unique`, `multiple`, `optimal`, `feasible`.
    pub fn status(&self) -> &'static str {
        match self {
            Answer::NoSolution => "none",
            Answer::Solved(_) => "solved",
            Answer::Counted { .. } => "counted",
            Answer::Unique(_) => "unique",
            Answer::Multiple(..) => "multiple",
            Answer::Optimum { proved: true, .. } => "optimal",
            Answer::Optimum { proved: false, .. } => "feasible",
        }
    }
    /// The number of solutions this answer establishes, and whether it is exact.
    pub fn count(&self) -> Option<(u64, bool)> {
        match self {
            Answer::NoSolution => Some((0, true)),
            Answer::Counted {
                count, complete, ..
            } => Some((*count, *complete)),
            Answer::Unique(_) => Some((1, true)),
            Answer::Multiple(..) => Some((2, false)),
            _ => None,
        }
    }
    /// A short description for reports: the status, the count (`>=` for "at least") or the
    /// score (with "(optimal)" or "(not proved)").
    pub fn summary(&self) -> String {
        match self {
            Answer::Counted {
                count, complete, ..
            } => format!("{}{count}", if *complete { "" } else { ">=" }),
            Answer::Optimum { score, proved, .. } => {
                let how = if *proved { "optimal" } else { "not proved" };
                format!("{score} ({how})")
            }
            a => a.status().to_string(),
        }
    }
}

/// Any answer can be held against a puzzle's known answer, whatever the task.
impl Expected {
    /// How `answer` contradicts the known answer, if it does: its count (exact, or "at least")
    /// against the known count, the existence of a grid against a count of 0, and a grid against
    /// the known solution when that solution is the only one.
    pub fn contradiction(&self, answer: &Answer) -> Option<String> {
        let count_ok = match answer.count() {
            Some((c, true)) => c == self.count,
            Some((c, false)) => self.count >= c,
            None => answer.grid().is_none() || self.count > 0,
        };
        if !count_ok {
            return Some(match self.count {
                0 => "expected no solution".to_string(),
                1 => "expected exactly 1 solution".to_string(),
                c => format!("expected exactly {c} solutions"),
            });
        }
        match (&self.solution, answer.grid()) {
            (Some(s), Some(g)) if self.count == 1 && s != g => {
                Some("expected the one solution the input gives, a different grid".to_string())
            }
            _ => None,
        }
    }
}

/// Why a task produced no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    #[error("{0}")]
    Backend(#[from] BackendError),
    /// The deadline passed during a count after `found` solutions (≥ 1, the first two checked):
    /// there are at least `found`. A time-out, never an answer.
    #[error("timed out: at least {found} solution{}", if *found == 1 { "" } else { "s" })]
    CountTimedOut { found: u64 },
    /// The backend returned something the checker rejects: a bug in that backend.
    #[error("checker rejected the {backend} backend's answer: {failure}")]
    Check {
        backend: &'static str,
        failure: CheckFailure,
    },
}

impl RunError {
    /// The deadline passed first ([`BackendError::TimedOut`], or a count cut short).
    pub fn timed_out(&self) -> bool {
        matches!(
            self,
            RunError::Backend(BackendError::TimedOut) | RunError::CountTimedOut { .. }
        )
    }
    /// The solutions a count cut short by the deadline had found: "at least" this many.
    pub fn at_least(&self) -> Option<u64> {
        match self {
            RunError::CountTimedOut { found } => Some(*found),
            _ => None,
        }
    }
}

/// The puzzle's solution when it has exactly one, from the `dfs` backend through [`run`] (so
/// the independent checker has passed it); `None` when it has none, several, or the search fails.
/// What [`crate::logic::verify::check_path`] holds a path of steps against.
pub fn unique_solution(puzzle: &Puzzle) -> Option<Grid> {
    let dfs =
        crate::backends::create(crate::backends::BackendKind::Dfs, &Default::default()).ok()?;
    match run(dfs.as_ref(), puzzle, Task::Unique, &Limits::none()) {
        Ok(Answer::Unique(grid)) => Some(grid),
        _ => None,
    }
}

/// Runs `task` on `backend` and verifies the answer with [`crate::check`].
///
/// A backend that returns a wrong grid, a count that does not fit the limit, or two equal
/// "different" solutions gets [`RunError::Check`], never an answer. A panic inside the backend
/// (a bug in it, or in the solver library it wraps) is a failure of this puzzle,
/// [`BackendError::Failed`], never a crash of the caller: a batch goes on past it. A run whose
/// [`Limits::cancel`] flag is set by the time it returns is [`BackendError::TimedOut`] (or a
/// count cut short), never an answer.
///
/// ```
/// use std::time::Duration;
/// use sudoku_lab::backend::Limits;
/// use sudoku_lab::backends::{self, BackendKind};
/// use sudoku_lab::format::{read_puzzles, ReadOptions};
/// use sudoku_lab::task::{run, Answer, Task};
///
/// // The first puzzle of magictour_top1465, in line format.
/// let line = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
/// let puzzle = read_puzzles(line, &ReadOptions::default()).remove(0).unwrap().puzzle;
/// let sat = backends::create(BackendKind::Sat, &Default::default()).unwrap();
/// let limits = Limits::timeout(Duration::from_secs(60));
/// match run(sat.as_ref(), &puzzle, Task::Unique, &limits).unwrap() {
///     Answer::Unique(grid) => assert_eq!(grid.get(0, 0), 4),
///     other => panic!("magictour's first puzzle has one solution, not {other:?}"),
/// }
/// ```
pub fn run(
    backend: &dyn Backend,
    puzzle: &Puzzle,
    task: Task,
    limits: &Limits,
) -> Result<Answer, RunError> {
    let guarded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run_checked(backend, puzzle, task, limits)
    }));
    // An engine stopped by the cancel flag may return what it had, as at a deadline (the best
    // grid of an optimisation): a cancelled run is a time-out, never an answer.
    let guarded = match guarded {
        Ok(Ok(_)) if limits.cancelled() => Ok(Err(BackendError::TimedOut.into())),
        other => other,
    };
    guarded.unwrap_or_else(|payload| {
        let what = crate::isolate::panic_message(payload.as_ref());
        Err(RunError::Backend(BackendError::Failed(format!(
            "internal error: {} panicked on this puzzle ({what})",
            backend.name()
        ))))
    })
}

/// One timed [`run`] and the effort it took, as a timing reports them.
#[derive(Debug)]
pub struct Timed {
    pub result: Result<Answer, RunError>,
    /// The wall time of the run, the independent check included.
    pub time: Duration,
    /// What the backend counted (empty when not `metered`, or not measured).
    pub effort: Effort,
}

/// Runs `task` once under `limits()` and times it; when `metered`, also reads the search effort.
/// A backend whose meter slows it ([`Backend::meter_slows`]) is timed without the meter, then
/// run again, untimed and metered, on the same puzzle: every engine here searches the same way
/// twice, so the counts are those of the timed run. Should the meter make that second run miss
/// the deadline, or fail, the effort is left unmeasured.
pub fn time(
    backend: &dyn Backend,
    puzzle: &Puzzle,
    task: Task,
    limits: impl Fn() -> Limits,
    metered: bool,
) -> Timed {
    let apart = metered && backend.meter_slows();
    let timed = if metered && !apart {
        limits().metered()
    } else {
        limits()
    };
    let start = Instant::now();
    let result = run(backend, puzzle, task, &timed);
    let time = start.elapsed();
    let effort = if apart && result.is_ok() {
        let counted = limits().metered();
        match run(backend, puzzle, task, &counted) {
            Ok(_) => counted.effort(),
            Err(_) => Effort::default(),
        }
    } else {
        timed.effort()
    };
    Timed {
        result,
        time,
        effort,
    }
}

/// [`run`] without the panic guard.
fn run_checked(
    backend: &dyn Backend,
    puzzle: &Puzzle,
    task: Task,
    limits: &Limits,
) -> Result<Answer, RunError> {
    let fail = |failure| RunError::Check {
        backend: backend.name(),
        failure,
    };
    if let Some(c) = puzzle
        .constraints()
        .iter()
        .find(|c| !backend.takes(c.kind()))
    {
        return Err(BackendError::Unsupported(format!("{} constraints", c.kind())).into());
    }
    match task {
        Task::Solve => match backend.solve(puzzle, limits)? {
            None => Ok(Answer::NoSolution),
            Some(g) => {
                check::verify(puzzle, &g).map_err(fail)?;
                Ok(Answer::Solved(g))
            }
        },
        Task::Count { .. } | Task::Unique => {
            let limit = match task {
                Task::Count { limit } => limit.max(1),
                _ => 2,
            };
            let c = backend.count(puzzle, limit, limits)?;
            if c.timed_out {
                // What was found is checked like an answer, then reported as the time-out it is.
                if c.count >= limit || c.complete {
                    return Err(fail(CheckFailure::Other(format!(
                        "count {} cut short by the deadline is inconsistent with limit {limit}",
                        c.count
                    ))));
                }
                check::verify_witnesses(puzzle, c.count, &c.witnesses).map_err(fail)?;
                return Err(match c.count {
                    0 => BackendError::TimedOut.into(),
                    found => RunError::CountTimedOut { found },
                });
            }
            if c.count > limit || (!c.complete && c.count != limit) {
                return Err(fail(CheckFailure::Other(format!(
                    "count {} (complete: {}) is inconsistent with limit {limit}",
                    c.count, c.complete
                ))));
            }
            check::verify_witnesses(puzzle, c.count, &c.witnesses).map_err(fail)?;
            let mut w = c.witnesses.into_iter();
            Ok(match (task, c.count) {
                (_, 0) => Answer::NoSolution,
                (Task::Unique, 1) => Answer::Unique(w.next().unwrap()),
                (Task::Unique, _) => Answer::Multiple(w.next().unwrap(), w.next().unwrap()),
                _ => Answer::Counted {
                    count: c.count,
                    complete: c.complete,
                    first: w.next().unwrap(),
                },
            })
        }
        Task::Optimize => {
            let weights = puzzle.weights().ok_or_else(|| {
                BackendError::Unsupported("optimize needs weights on the puzzle".into())
            })?;
            let (score, grid, proved, bound) = match backend.optimize(puzzle, limits)? {
                Optimum::NoSolution => return Ok(Answer::NoSolution),
                Optimum::Optimal { score, grid } => (score, grid, true, Some(score)),
                Optimum::Incomplete { score, grid, bound } => (score, grid, false, bound),
            };
            check::verify_score(puzzle, weights, &grid, score).map_err(fail)?;
            if bound.is_some_and(|b| b < score) {
                return Err(fail(CheckFailure::Other(format!(
                    "upper bound {} is below the score {score} of the grid returned",
                    bound.unwrap()
                ))));
            }
            Ok(Answer::Optimum {
                score,
                grid,
                proved,
                bound,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(k: u16) -> Grid {
        Grid::new(1, vec![k])
    }
    fn known(count: u64, solution: Option<u16>) -> Expected {
        Expected {
            count,
            solution: solution.map(g),
        }
    }
    #[test]
    fn tasks_by_name() {
        for t in Task::ALL {
            assert_eq!(t.name().parse(), Ok(t));
        }
        assert_eq!(
            "count".parse::<Task>().unwrap().with_limit(0),
            Task::Count { limit: 1 }
        );
        assert_eq!(Task::Solve.with_limit(5), Task::Solve);
        let e = "sole".parse::<Task>().unwrap_err().to_string();
        assert_eq!(
            e,
            "unknown task 'sole' (choose one of: solve, count, unique, optimize)"
        );
    }

    fn counted(count: u64, complete: bool) -> Answer {
        Answer::Counted {
            count,
            complete,
            first: g(1),
        }
    }

    #[test]
    fn counts_are_held_against_the_known_count() {
        let three = known(3, None);
        assert_eq!(three.contradiction(&counted(3, true)), None);
        assert_eq!(three.contradiction(&counted(2, false)), None); // "at least 2"
        assert_eq!(three.contradiction(&counted(3, false)), None);
        let msg = three.contradiction(&counted(2, true)).unwrap();
        assert_eq!(msg, "expected exactly 3 solutions");
        assert!(three.contradiction(&counted(4, false)).is_some());
        assert!(three.contradiction(&Answer::NoSolution).is_some());
        assert!(three.contradiction(&Answer::Unique(g(1))).is_some());
        assert_eq!(three.contradiction(&Answer::Multiple(g(1), g(2))), None);
        assert_eq!(three.contradiction(&Answer::Solved(g(1))), None);
    }

    #[test]
    fn none_and_unique_against_the_known_count() {
        let none = known(0, None);
        assert_eq!(none.contradiction(&Answer::NoSolution), None);
        let msg = none.contradiction(&Answer::Solved(g(1))).unwrap();
        assert_eq!(msg, "expected no solution");
        let optimum = Answer::Optimum {
            score: 1,
            grid: g(1),
            proved: true,
            bound: None,
        };
        assert!(none.contradiction(&optimum).is_some());
        let one = known(1, None);
        assert_eq!(one.contradiction(&Answer::Unique(g(1))), None);
        assert!(one.contradiction(&Answer::Multiple(g(1), g(2))).is_some());
        assert!(one.contradiction(&Answer::NoSolution).is_some());
    }

    #[test]
    fn the_only_solution_must_be_the_grid_returned() {
        let one = known(1, Some(1));
        assert_eq!(one.contradiction(&Answer::Solved(g(1))), None);
        assert_eq!(one.contradiction(&Answer::Unique(g(1))), None);
        let msg = one.contradiction(&Answer::Unique(g(2))).unwrap();
        assert!(msg.contains("a different grid"), "{msg}");
        assert!(one.contradiction(&Answer::Solved(g(2))).is_some());
        // With several solutions, the one given is just one of them.
        let two = known(2, Some(1));
        assert_eq!(two.contradiction(&Answer::Solved(g(2))), None);
    }

    /// A backend whose count is always the same [`crate::backend::Count`].
    struct Canned(crate::backend::Count);

    impl Backend for Canned {
        fn name(&self) -> &'static str {
            "canned"
        }
        fn solve(&self, _: &Puzzle, _: &Limits) -> Result<Option<Grid>, BackendError> {
            unreachable!()
        }
        fn count(
            &self,
            _: &Puzzle,
            _: u64,
            _: &Limits,
        ) -> Result<crate::backend::Count, BackendError> {
            Ok(self.0.clone())
        }
        fn optimize(&self, _: &Puzzle, _: &Limits) -> Result<Optimum, BackendError> {
            unreachable!()
        }
    }

    #[test]
    fn a_count_cut_short_is_a_checked_time_out() {
        use crate::backend::Count;
        use crate::model::Shape;
        let shape = std::sync::Arc::new(Shape::standard(4, false).unwrap());
        let empty = Puzzle::new(shape, vec![0; 16]).unwrap();
        let a = Grid::new(4, vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]);
        let b = Grid::new(4, vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 3, 4, 1, 4, 1, 2, 3]);
        let run = |c: Count| {
            super::run(
                &Canned(c),
                &empty,
                Task::Count { limit: 100 },
                &Limits::none(),
            )
        };
        let found = run(Count::stopped(5, vec![a.clone(), b.clone()]));
        assert_eq!(found, Err(RunError::CountTimedOut { found: 5 }));
        assert!(found.as_ref().unwrap_err().timed_out());
        assert_eq!(found.unwrap_err().at_least(), Some(5));
        // Nothing found: a plain time-out.
        let nothing = run(Count::stopped(0, vec![]));
        assert_eq!(nothing, Err(RunError::Backend(BackendError::TimedOut)));
        // The witnesses are checked like an answer's.
        let same = run(Count::stopped(5, vec![a.clone(), a.clone()]));
        assert!(matches!(same, Err(RunError::Check { .. })), "{same:?}");
        let bad = Grid::new(4, vec![1; 16]);
        let wrong = run(Count::stopped(1, vec![bad]));
        assert!(matches!(wrong, Err(RunError::Check { .. })), "{wrong:?}");
        // Cut short at or past the limit is no time-out.
        let past = run(Count::stopped(100, vec![a, b]));
        assert!(matches!(past, Err(RunError::Check { .. })), "{past:?}");
    }

    /// A backend that solves the empty 4×4 grid, records whether each of its runs was metered,
    /// and counts one guess when it is; `slows` is what it says of its meter.
    struct Watched {
        slows: bool,
        metered: std::sync::Mutex<Vec<bool>>,
    }

    impl Backend for Watched {
        fn name(&self) -> &'static str {
            "watched"
        }
        fn solve(&self, _: &Puzzle, limits: &Limits) -> Result<Option<Grid>, BackendError> {
            self.metered.lock().unwrap().push(limits.meter.is_on());
            limits.record(&Effort {
                guesses: Some(1),
                ..Effort::default()
            });
            let rows = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
            Ok(Some(Grid::new(4, rows.to_vec())))
        }
        fn count(
            &self,
            _: &Puzzle,
            _: u64,
            _: &Limits,
        ) -> Result<crate::backend::Count, BackendError> {
            unreachable!()
        }
        fn optimize(&self, _: &Puzzle, _: &Limits) -> Result<Optimum, BackendError> {
            unreachable!()
        }
        fn meter_slows(&self) -> bool {
            self.slows
        }
    }

    /// A timing meters the timed run itself, unless the backend's meter slows it: then the
    /// timed run goes unmetered and a second, metered run gives the effort.
    #[test]
    fn a_slow_meter_is_read_apart_from_the_timed_run() {
        let shape = std::sync::Arc::new(crate::model::Shape::standard(4, false).unwrap());
        let empty = Puzzle::new(shape, vec![0; 16]).unwrap();
        for (slows, metered, runs, guesses) in [
            (false, true, vec![true], Some(1)),
            (true, true, vec![false, true], Some(1)),
            (false, false, vec![false], None),
            (true, false, vec![false], None),
        ] {
            let b = Watched {
                slows,
                metered: Default::default(),
            };
            let timed = time(&b, &empty, Task::Solve, Limits::none, metered);
            assert!(matches!(timed.result, Ok(Answer::Solved(_))), "{timed:?}");
            assert_eq!(
                *b.metered.lock().unwrap(),
                runs,
                "slows {slows}, metered {metered}"
            );
            assert_eq!(
                timed.effort.guesses, guesses,
                "slows {slows}, metered {metered}"
            );
        }
    }

    #[test]
    fn summaries() {
        assert_eq!(counted(5, false).summary(), ">=5");
        assert_eq!(counted(5, true).summary(), "5");
        assert_eq!(Answer::NoSolution.summary(), "none");
        let optimum = Answer::Optimum {
            score: 7,
            grid: g(1),
            proved: false,
            bound: Some(9),
        };
        assert_eq!(optimum.summary(), "7 (not proved)");
    }
}
