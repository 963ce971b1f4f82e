//! Timing backends on a set of puzzles (`sudoku-lab bench`, Python's `bench`): every backend on
//! every puzzle, one run at a time so figures compare, each answer checked ([`task::time`]: the
//! time includes the check; a backend whose meter slows it is timed without it), under a time
//! budget per backend ([`Budget`]). The loop prints nothing: each run is reported to a callback
//! ([`Progress`]), and the rows are returned for the caller to print or write.
//!
//! How a run is classed ([`Outcome`]):
//! * a checked answer is `agreed` when the puzzle came with a known answer ([`Expected`]) that it
//!   matches, `disagreed` when it contradicts it, and `answered` when there is none;
//! * an optimum whose proof the deadline stopped is a time-out, like a count cut short;
//! * an error is a time-out, a refusal or a failure ([`error_outcome`]).
//!
//! A run the budget stopped ([`Budget::run`]) is left out, with the puzzles after it: the row of
//! that backend says how many it did not run.

use std::time::{Duration, Instant};

use crate::backend::{Backend, BackendError, Cancel, Limits};
use crate::budget::Budget;
use crate::model::{Expected, Puzzle};
use crate::report::{BenchRow, Outcome, Sample};
use crate::task::{self, Answer, RunError, Task};

/// What [`run`] times: the backends, the task and the limits.
pub struct Bench<'a> {
    pub backends: &'a [Box<dyn Backend>],
    pub task: Task,
    /// Each run's time limit.
    pub timeout: Option<Duration>,
    /// Each backend's time over the set ([`Budget`]).
    pub budget: Option<Duration>,
    /// Meter each run, for the effort columns of the rows.
    pub effort: bool,
    /// Once set, the run under way stops as at its deadline and no more start.
    pub cancel: Option<Cancel>,
}

/// One puzzle of the set.
#[derive(Debug, Clone, Copy)]
pub struct Case<'a> {
    /// The puzzle's number in its input (from 1), as the rows' samples name it.
    pub index: usize,
    pub puzzle: &'a Puzzle,
    /// The known answer the input gave with the puzzle.
    pub expected: Option<&'a Expected>,
}

/// What [`run`] reports as it goes.
#[derive(Debug)]
pub enum Progress<'a> {
    /// `backend` is about to run its next puzzle; `left` estimates its time still to go (none
    /// before its first puzzle): the mean time of the puzzles it ran, counting runs included,
    /// times the puzzles left, capped by what is left of its budget.
    Next {
        backend: &'a str,
        left: Option<Duration>,
    },
    /// A run that counts, and how it is classed. `wrong` says how a `disagreed` answer
    /// contradicts the known answer.
    Ran {
        case: &'a Case<'a>,
        backend: &'a str,
        result: &'a Result<Answer, RunError>,
        outcome: Outcome,
        wrong: Option<String>,
    },
    /// `backend` stopped, its budget used (or the run cancelled): `not_run` puzzles left out.
    Cut { backend: &'a str, not_run: usize },
}

/// How a run that gave no answer ended: a time-out, a refusal, or a failure.
pub fn error_outcome(e: &RunError) -> Outcome {
    match e {
        RunError::Backend(BackendError::TimedOut) | RunError::CountTimedOut { .. } => {
            Outcome::TimedOut
        }
        RunError::Backend(BackendError::Unsupported(_)) => Outcome::Refused,
        RunError::Backend(BackendError::Failed(_)) | RunError::Check { .. } => Outcome::Failed,
    }
}

/// How `answer` from `backend` contradicts the known answer, if it does: "dfs said 2; expected
/// exactly 3 solutions".
pub fn wrong_answer(expected: &Expected, backend: &str, answer: &Answer) -> Option<String> {
    let why = expected.contradiction(answer)?;
    Some(format!("{backend} said {}; {why}", answer.summary()))
}

/// How a run on `case` ended (the classes of this module's doc), and what was wrong with a
/// `disagreed` answer.
fn classify(
    case: &Case,
    backend: &str,
    result: &Result<Answer, RunError>,
) -> (Outcome, Option<String>) {
    match result {
        Ok(Answer::Optimum { proved: false, .. }) => (Outcome::TimedOut, None),
        Ok(answer) => match case.expected {
            None => (Outcome::Answered, None),
            Some(expected) => match wrong_answer(expected, backend, answer) {
                None => (Outcome::Agreed, None),
                wrong => (Outcome::Disagreed, wrong),
            },
        },
        Err(e) => (error_outcome(e), None),
    }
}

/// Times every backend of `bench` on every case of `cases`, backend after backend, and returns
/// one row per backend (its file column `label`), in the order of [`Bench::backends`]. Each run
/// is reported to `progress` ([`Progress`]).
pub fn run(
    bench: &Bench,
    label: &str,
    cases: &[Case],
    mut progress: impl FnMut(Progress),
) -> Vec<BenchRow> {
    let budget = Budget::new(bench.budget, bench.backends.len());
    let cancelled = || bench.cancel.as_ref().is_some_and(Cancel::is_set);
    let mut rows = Vec::with_capacity(bench.backends.len());
    for (k, b) in bench.backends.iter().enumerate() {
        let backend = b.name();
        let mut samples = Vec::with_capacity(cases.len());
        let started = Instant::now();
        for case in cases {
            let left = estimate(&budget, k, started.elapsed(), samples.len(), cases.len());
            progress(Progress::Next { backend, left });
            let timed = (!cancelled())
                .then(|| {
                    budget.run(k, bench.timeout, |timeout| {
                        let limits = || Limits {
                            cancel: bench.cancel.clone(),
                            ..Limits::timeout_of(timeout)
                        };
                        task::time(b.as_ref(), case.puzzle, bench.task, limits, bench.effort)
                    })
                })
                .flatten();
            let Some(timed) = timed else {
                break;
            };
            let (outcome, wrong) = classify(case, backend, &timed.result);
            progress(Progress::Ran {
                case,
                backend,
                result: &timed.result,
                outcome,
                wrong,
            });
            samples.push(Sample {
                index: case.index,
                outcome,
                time_ns: u64::try_from(timed.time.as_nanos()).unwrap_or(u64::MAX),
                effort: timed.effort,
            });
        }
        let not_run = cases.len() - samples.len();
        if not_run > 0 {
            progress(Progress::Cut { backend, not_run });
        }
        let mut row = BenchRow::from_indexed(label, backend, bench.task.name(), &samples);
        row.record.not_run = not_run;
        rows.push(row);
    }
    rows
}

/// The estimated time left for backend `k` ([`Progress::Next`]): the mean wall time of the
/// `done` puzzles it ran (`spent` in all) times the puzzles left of `puzzles`, capped by what is
/// left of its budget.
fn estimate(
    budget: &Budget,
    k: usize,
    spent: Duration,
    done: usize,
    puzzles: usize,
) -> Option<Duration> {
    if done == 0 {
        return None;
    }
    let mean = spent / done as u32;
    let left = mean.saturating_mul((puzzles - done) as u32);
    Some(budget.left(k).map_or(left, |b| left.min(b)))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::backends::{self, BackendKind};
    use crate::model::{Shape, Weights};

    fn puzzle(givens: Vec<u16>) -> Puzzle {
        Puzzle::new(Arc::new(Shape::standard(4, false).unwrap()), givens).unwrap()
    }

    #[test]
    fn runs_are_classed_against_the_known_answer() {
        let dfs = vec![backends::create(BackendKind::Dfs, &Default::default()).unwrap()];
        let empty = puzzle(vec![0; 16]);
        let (right, wrong) = (
            Expected {
                count: 2,
                solution: None,
            },
            Expected {
                count: 1,
                solution: None,
            },
        );
        let cases = [
            Case {
                index: 1,
                puzzle: &empty,
                expected: None,
            },
            Case {
                index: 3,
                puzzle: &empty,
                expected: Some(&right),
            },
            Case {
                index: 4,
                puzzle: &empty,
                expected: Some(&wrong),
            },
        ];
        // The empty grid has many solutions: "multiple" fits a count of 2, not of 1.
        let bench = Bench {
            backends: &dfs,
            task: Task::Unique,
            timeout: None,
            budget: None,
            effort: true,
            cancel: None,
        };
        let mut seen = Vec::new();
        let rows = run(&bench, "f", &cases, |p| {
            if let Progress::Ran {
                case,
                outcome,
                wrong,
                ..
            } = p
            {
                seen.push((case.index, outcome, wrong));
            }
        });
        let wrong = "dfs said multiple; expected exactly 1 solution".to_string();
        assert_eq!(
            seen,
            [
                (1, Outcome::Answered, None),
                (3, Outcome::Agreed, None),
                (4, Outcome::Disagreed, Some(wrong)),
            ]
        );
        let r = &rows[0].record;
        assert_eq!((r.file.as_str(), r.backend.as_str()), ("f", "dfs"));
        assert_eq!(
            (r.puzzles, r.answered, r.agreed, r.not_run),
            (3, 3, Some(1), 0)
        );
        assert!(r.nodes_per_puzzle.is_some_and(|n| n >= 1.0));
        let indices: Vec<usize> = rows[0].samples.iter().map(|s| s.index).collect();
        assert_eq!(indices, [1, 3, 4]);
    }

    #[test]
    fn an_unproved_optimum_is_a_time_out_and_a_used_budget_cuts_the_row() {
        let o = Answer::Optimum {
            score: 3,
            grid: crate::model::Grid::new(1, vec![1]),
            proved: false,
            bound: None,
        };
        let empty = puzzle(vec![0; 16]);
        let case = Case {
            index: 1,
            puzzle: &empty,
            expected: None,
        };
        assert_eq!(classify(&case, "x", &Ok(o)), (Outcome::TimedOut, None));
        let refused = Err(RunError::Backend(BackendError::Unsupported("n".into())));
        assert_eq!(classify(&case, "x", &refused), (Outcome::Refused, None));

        // A cancelled bench runs nothing: every puzzle is left out.
        let weighted = empty
            .clone()
            .with_weights(Arc::new(Weights::pyramid(4)))
            .unwrap();
        let dfs = vec![backends::create(BackendKind::Dfs, &Default::default()).unwrap()];
        let cancel = Cancel::new();
        cancel.set();
        let bench = Bench {
            backends: &dfs,
            task: Task::Optimize,
            timeout: None,
            budget: None,
            effort: false,
            cancel: Some(cancel),
        };
        let cases = [Case {
            puzzle: &weighted,
            ..case
        }; 2];
        let mut cut = None;
        let rows = run(&bench, "f", &cases, |p| {
            if let Progress::Cut { not_run, .. } = p {
                cut = Some(not_run);
            }
        });
        assert_eq!(
            (cut, rows[0].record.not_run, rows[0].record.puzzles),
            (Some(2), 2, 0)
        );
    }
}
