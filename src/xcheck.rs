//! Cross-checking: run one puzzle through several backends and decide whether their (already
//! checker-verified) answers agree.
//!
//! Rules, per task:
//! - every answer must pass the independent checker (a failure there is reported as such);
//! - `solve`: the same status (solved / none). Different grids are fine: two distinct valid grids
//!   only prove the puzzle has several solutions;
//! - `unique`: the same status; the same grid when both say unique;
//! - `count`: the same exact count, or both "at least the limit";
//! - `optimize`: the same status; all proved optima equal; no unproved score above a proved optimum
//!   and no claimed bound below a score some backend reached.
//!
//! Besides, a "no solution" from one backend next to a verified grid from another is a
//! disagreement whatever the task, and it is plain which side is wrong.
//! A time-out, or a refusal (the backend cannot take this puzzle or task: `dfs` above 64×64,
//! `isotope` anything but `solve` on a cyclic-pattern grid), is neither a disagreement nor a
//! failure: both leave the comparison to the backends that answered, and are counted apart.
//!
//! A puzzle read with a known answer (`puzzle:count[:solution]`, [`Expected`]) brings one more
//! voice: [`verdict`] holds every answer against it too, and a contradiction is a disagreement
//! (either the data or the backend is wrong; the row says which answers were given).
//!
//! [`run_batch`] cross-checks a whole batch on a pool of threads, under a time [`Budget`] per
//! backend when asked, hands each puzzle's result to the caller as it completes, and adds up the
//! totals of the summary.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::backend::{Backend, BackendError, Cancel, Limits};
use crate::bench::error_outcome;
use crate::budget::Budget;
use crate::effort::Effort;
use crate::model::Expected;
use crate::model::Puzzle;
use crate::report::{BenchRow, Outcome, Sample};
use crate::task::{self, Answer, RunError, Task};

/// One backend's result on one puzzle.
#[derive(Debug, Clone)]
pub struct BackendRun {
    pub backend: &'static str,
    pub result: Result<Answer, RunError>,
    pub time: Duration,
    /// What the engine did (empty unless the run was metered: [`Batch::effort`]).
    pub effort: Effort,
}

impl BackendRun {
    /// The run of `backend` that [`task::time`] timed.
    pub fn of(backend: &dyn Backend, timed: task::Timed) -> BackendRun {
        BackendRun {
            backend: backend.name(),
            result: timed.result,
            time: timed.time,
            effort: timed.effort,
        }
    }
    pub fn timed_out(&self) -> bool {
        self.result.as_ref().is_err_and(RunError::timed_out)
    }
    /// The backend cannot take this puzzle or task ([`BackendError::Unsupported`]).
    pub fn refused(&self) -> bool {
        matches!(
            self.result,
            Err(RunError::Backend(BackendError::Unsupported(_)))
        )
    }
    /// A short description of what the backend said, for reports ([`Answer::summary`]).
    pub fn said(&self) -> String {
        match &self.result {
            Ok(a) => a.summary(),
            Err(e) => format!("error: {e}"),
        }
    }
}

/// The verdict on one puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Every backend that answered agrees (some may have timed out).
    Agreed,
    /// Answers contradict each other; the text says how.
    Disagreement(String),
    /// At least one backend's answer was rejected by the checker or its solver failed.
    Failure(String),
}

impl std::fmt::Display for Verdict {
    /// `agreed`, or `disagreement: …` / `failure: …` with what happened.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::Agreed => f.write_str("agreed"),
            Verdict::Disagreement(why) => write!(f, "disagreement: {why}"),
            Verdict::Failure(why) => write!(f, "failure: {why}"),
        }
    }
}

impl BackendRun {
    /// How the run ended, for the summary rows: a checked answer agreed or not (`verdict`), or
    /// the kind of error.
    pub fn outcome(&self, verdict: &Verdict) -> Outcome {
        match &self.result {
            Err(e) => error_outcome(e),
            Ok(_) if *verdict == Verdict::Agreed => Outcome::Agreed,
            Ok(_) => Outcome::Disagreed,
        }
    }
}

/// What [`run_batch`] does: the task every backend answers, and its limits.
pub struct Batch<'a> {
    pub backends: &'a [Box<dyn Backend>],
    pub task: Task,
    /// Each run's time limit.
    pub timeout: Option<Duration>,
    /// Each backend's time over the batch ([`Budget`]).
    pub budget: Option<Duration>,
    /// Puzzles checked at the same time, one thread each.
    pub jobs: usize,
    /// Once set, the runs under way stop as at their deadline and no more puzzles start
    /// (`None`: runs end by themselves or at their deadline).
    pub cancel: Option<Cancel>,
    /// Meter each run, for the effort columns of [`Totals::rows`] (metering costs some engines
    /// time: varisat counts its conflicts from a proof it writes).
    pub effort: bool,
}

/// One puzzle's cross-check, as [`run_batch`] hands it over.
pub struct Checked {
    /// The puzzle's position in the batch (from 0).
    pub position: usize,
    /// The backends that ran (indices into [`Batch::backends`]); with a budget, the ones with
    /// budget left. Their runs are in `runs`, in the same order.
    pub ran: Vec<usize>,
    pub runs: Vec<BackendRun>,
    pub verdict: Verdict,
}

impl Checked {
    /// Some backend timed out.
    pub fn timed_out(&self) -> bool {
        self.runs.iter().any(BackendRun::timed_out)
    }
    /// The runs of backends that refused the puzzle.
    pub fn refusals(&self) -> impl Iterator<Item = &BackendRun> {
        self.runs.iter().filter(|r| r.refused())
    }
}

/// What a batch added up to ([`run_batch`]).
#[derive(Debug, Default)]
pub struct Totals {
    /// Puzzles checked (fewer than the batch's when it was stopped).
    pub checked: usize,
    pub disagreements: usize,
    pub failures: usize,
    /// Runs refused (a backend cannot take the puzzle or the task).
    pub refusals: usize,
    /// Some run timed out.
    pub timed_out: bool,
    /// Per backend, in the order of [`Batch::backends`]: how each puzzle it ran ended, the time
    /// it took and the effort (its `index` is the puzzle's position in the batch, from 1).
    pub samples: Vec<Vec<Sample>>,
}

impl Totals {
    /// The summary row of each backend over the batch, on `task`: a backend that ran fewer
    /// puzzles than were checked (its budget ran out) is marked cut short.
    pub fn rows(&self, backends: &[Box<dyn Backend>], task: Task) -> Vec<BenchRow> {
        backends
            .iter()
            .zip(&self.samples)
            .map(|(b, s)| {
                let mut row = BenchRow::from_indexed("all", b.name(), task.name(), s);
                row.record.not_run = self.checked - s.len();
                row
            })
            .collect()
    }

    fn add(&mut self, c: &Checked) {
        self.checked += 1;
        for (&k, r) in c.ran.iter().zip(&c.runs) {
            self.samples[k].push(Sample {
                index: c.position + 1,
                outcome: r.outcome(&c.verdict),
                time_ns: u64::try_from(r.time.as_nanos()).unwrap_or(u64::MAX),
                effort: r.effort,
            });
        }
        match c.verdict {
            Verdict::Agreed => {}
            Verdict::Disagreement(_) => self.disagreements += 1,
            Verdict::Failure(_) => self.failures += 1,
        }
        self.timed_out |= c.timed_out();
        self.refusals += c.refusals().count();
    }
}

/// Cross-checks every puzzle of `puzzles` (each with its known answer, if any) through the
/// backends of `batch`, [`Batch::jobs`] puzzles at a time, and calls `each` on this thread with
/// every puzzle's result as it completes (in the order they complete). Once `stop` is set, no
/// more puzzles start; those under way finish. The error is the thread pool's, when its threads
/// could not start.
pub fn run_batch(
    batch: &Batch,
    puzzles: &[(&Puzzle, Option<&Expected>)],
    stop: &AtomicBool,
    mut each: impl FnMut(&Checked),
) -> Result<Totals, rayon::ThreadPoolBuildError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(batch.jobs)
        .stack_size(crate::dfs::WORKER_STACK)
        .build()?;
    let budget = Budget::new(batch.budget, batch.backends.len());
    let mut totals = Totals {
        samples: vec![Vec::new(); batch.backends.len()],
        ..Totals::default()
    };
    let (tx, rx) = mpsc::channel::<Checked>();
    std::thread::scope(|scope| {
        let budget = &budget;
        scope.spawn(move || {
            pool.install(|| {
                puzzles.par_iter().enumerate().for_each_with(
                    tx,
                    |tx, (position, &(puzzle, expected))| {
                        let cancelled = batch.cancel.as_ref().is_some_and(Cancel::is_set);
                        if stop.load(Ordering::SeqCst) || cancelled {
                            return;
                        }
                        let (ran, runs) = run_budgeted(batch, budget, puzzle);
                        let verdict = verdict(batch.task, &runs, expected);
                        let _ = tx.send(Checked {
                            position,
                            ran,
                            runs,
                            verdict,
                        });
                    },
                );
            })
        });
        for checked in rx {
            totals.add(&checked);
            each(&checked);
        }
    });
    Ok(totals)
}

/// Runs the backends with budget left on `puzzle`, each limited as the budget grants
/// ([`Budget::run`]). Returns the indices of the backends whose runs count, and their runs.
fn run_budgeted(batch: &Batch, budget: &Budget, puzzle: &Puzzle) -> (Vec<usize>, Vec<BackendRun>) {
    batch
        .backends
        .iter()
        .enumerate()
        .filter_map(|(k, b)| {
            let timed = budget.run(k, batch.timeout, |timeout| {
                let limits = || Limits {
                    cancel: batch.cancel.clone(),
                    ..Limits::timeout_of(timeout)
                };
                task::time(b.as_ref(), puzzle, batch.task, limits, batch.effort)
            })?;
            Some((k, BackendRun::of(b.as_ref(), timed)))
        })
        .unzip()
}

/// Runs `puzzle` through every backend, each with its own `timeout`, and none past `until`.
pub fn run_all(
    backends: &[Box<dyn Backend>],
    puzzle: &Puzzle,
    task: Task,
    timeout: Option<Duration>,
    until: Option<Instant>,
) -> Vec<BackendRun> {
    backends
        .iter()
        .map(|b| run_one(b.as_ref(), puzzle, task, timeout, until))
        .collect()
}

/// One backend on `puzzle`, with its own `timeout` and none past `until`.
pub fn run_one(
    backend: &dyn Backend,
    puzzle: &Puzzle,
    task: Task,
    timeout: Option<Duration>,
    until: Option<Instant>,
) -> BackendRun {
    let own = timeout.map(|t| Instant::now() + t);
    let deadline = match (own, until) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let limits = || Limits::until(deadline);
    BackendRun::of(backend, task::time(backend, puzzle, task, limits, false))
}

/// [`compare`], then, when the puzzle comes with a known answer, every answer against it: a
/// backend that contradicts it is a disagreement even when all the backends agree.
pub fn verdict(task: Task, runs: &[BackendRun], expected: Option<&Expected>) -> Verdict {
    let verdict = compare(task, runs);
    let Some(expected) = expected else {
        return verdict;
    };
    if verdict != Verdict::Agreed {
        return verdict;
    }
    // Backends grouped by how they contradict the known answer.
    let mut wrong: Vec<(String, Vec<String>)> = Vec::new();
    for r in runs {
        let Some(why) = r
            .result
            .as_ref()
            .ok()
            .and_then(|a| expected.contradiction(a))
        else {
            continue;
        };
        let said = format!("{} said {}", r.backend, r.said());
        match wrong.iter_mut().find(|(w, _)| *w == why) {
            Some((_, who)) => who.push(said),
            None => wrong.push((why, vec![said])),
        }
    }
    if wrong.is_empty() {
        return Verdict::Agreed;
    }
    let parts: Vec<String> = wrong
        .into_iter()
        .map(|(why, who)| format!("{why}, but {}", who.join(", ")))
        .collect();
    Verdict::Disagreement(parts.join("; "))
}

/// Compares the answers of several backends to the same task on the same puzzle.
pub fn compare(task: Task, runs: &[BackendRun]) -> Verdict {
    let failures: Vec<String> = runs
        .iter()
        .filter_map(|r| match &r.result {
            Err(RunError::Backend(BackendError::TimedOut | BackendError::Unsupported(_)))
            | Err(RunError::CountTimedOut { .. })
            | Ok(_) => None,
            Err(e) => Some(format!("{}: {e}", r.backend)),
        })
        .collect();
    if !failures.is_empty() {
        return Verdict::Failure(failures.join("; "));
    }
    let answered: Vec<(&str, &Answer)> = runs
        .iter()
        .filter_map(|r| r.result.as_ref().ok().map(|a| (r.backend, a)))
        .collect();
    let said = || {
        runs.iter()
            .map(|r| format!("{} said {}", r.backend, r.said()))
            .collect::<Vec<_>>()
            .join(", ")
    };

    // A verified grid refutes any "no solution".
    let has_grid = answered.iter().find(|(_, a)| a.grid().is_some());
    let says_none = answered
        .iter()
        .find(|(_, a)| matches!(a, Answer::NoSolution));
    if let (Some((g, _)), Some((n, _))) = (has_grid, says_none) {
        return Verdict::Disagreement(format!(
            "{n} found no solution but {g} returned a valid grid ({})",
            said()
        ));
    }
    let Some(&(_, first)) = answered.first() else {
        return Verdict::Agreed; // everyone timed out or refused
    };
    match task {
        Task::Solve => {} // statuses already agree (grid vs none handled above)
        Task::Unique => {
            let statuses: Vec<&str> = answered.iter().map(|(_, a)| a.status()).collect();
            if statuses.iter().any(|s| *s != statuses[0]) {
                return Verdict::Disagreement(said());
            }
            if let Answer::Unique(g) = first {
                if answered.iter().any(|(_, a)| a.grid() != Some(g)) {
                    return Verdict::Disagreement(format!(
                        "different unique solutions ({})",
                        said()
                    ));
                }
            }
        }
        Task::Count { .. } => {
            let c0 = first.count();
            if answered.iter().any(|(_, a)| a.count() != c0) {
                return Verdict::Disagreement(said());
            }
        }
        Task::Optimize => {
            let proved: Vec<i64> = answered
                .iter()
                .filter_map(|(_, a)| match a {
                    Answer::Optimum {
                        score,
                        proved: true,
                        ..
                    } => Some(*score),
                    _ => None,
                })
                .collect();
            let best_seen = answered
                .iter()
                .filter_map(|(_, a)| {
                    if let Answer::Optimum { score, .. } = a {
                        Some(*score)
                    } else {
                        None
                    }
                })
                .max();
            if proved.iter().any(|&s| s != proved[0]) {
                return Verdict::Disagreement(format!("different optima ({})", said()));
            }
            if let (Some(&opt), Some(best)) = (proved.first(), best_seen) {
                if best > opt {
                    return Verdict::Disagreement(format!(
                        "a grid scoring {best} beats the claimed optimum {opt} ({})",
                        said()
                    ));
                }
            }
            for (b, a) in &answered {
                if let Answer::Optimum {
                    bound: Some(bound), ..
                } = a
                {
                    if best_seen.is_some_and(|s| s > *bound) {
                        return Verdict::Disagreement(format!(
                            "{b} claims bound {bound}, below a score reached ({})",
                            said()
                        ));
                    }
                }
            }
        }
    }
    Verdict::Agreed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::CheckFailure;
    use crate::model::Grid;

    fn g(k: u16) -> Grid {
        Grid::new(1, vec![k])
    }
    fn run(backend: &'static str, result: Result<Answer, RunError>) -> BackendRun {
        BackendRun {
            backend,
            result,
            time: Duration::ZERO,
            effort: Effort::default(),
        }
    }

    #[test]
    fn a_known_answer_is_one_more_voice() {
        let known = Expected {
            count: 0,
            solution: None,
        };
        let runs = [
            run("a", Ok(Answer::Solved(g(1)))),
            run("b", Ok(Answer::Solved(g(1)))),
            run("c", Err(RunError::Backend(BackendError::TimedOut))),
        ];
        assert_eq!(verdict(Task::Solve, &runs, None), Verdict::Agreed);
        assert_eq!(
            verdict(Task::Solve, &runs, Some(&known)),
            Verdict::Disagreement("expected no solution, but a said solved, b said solved".into())
        );
        let runs = [run("a", Ok(Answer::NoSolution))];
        assert_eq!(verdict(Task::Solve, &runs, Some(&known)), Verdict::Agreed);
        // A disagreement between backends is reported as such first.
        let runs = [
            run("a", Ok(Answer::Solved(g(1)))),
            run("b", Ok(Answer::NoSolution)),
        ];
        let Verdict::Disagreement(d) = verdict(Task::Solve, &runs, Some(&known)) else {
            panic!("not a disagreement");
        };
        assert!(d.starts_with("b found no solution"), "{d}");
    }

    #[test]
    fn a_batch_hands_over_every_puzzle_and_adds_up() {
        use crate::backends::{self, BackendKind};
        use crate::model::Shape;
        let create = |k| backends::create(k, &Default::default()).unwrap();
        let backends = vec![create(BackendKind::Dfs), create(BackendKind::Dlx)];
        let shape = std::sync::Arc::new(Shape::standard(4, false).unwrap());
        let empty = Puzzle::new(shape, vec![0; 16]).unwrap();
        let known = Expected {
            count: 288,
            solution: None,
        };
        let wrong = Expected {
            count: 5,
            solution: None,
        };
        let puzzles = [
            (&empty, None),
            (&empty, Some(&known)),
            (&empty, Some(&wrong)),
        ];
        let batch = Batch {
            backends: &backends,
            task: Task::Count { limit: 1000 },
            timeout: None,
            budget: None,
            jobs: 2,
            cancel: None,
            effort: false,
        };
        let mut seen = Vec::new();
        let go = AtomicBool::new(false);
        let totals = run_batch(&batch, &puzzles, &go, |c| {
            assert_eq!(c.ran, [0, 1]);
            seen.push((c.position, c.verdict.clone()));
        })
        .unwrap();
        seen.sort_by_key(|&(position, _)| position);
        assert_eq!(seen[..2], [(0, Verdict::Agreed), (1, Verdict::Agreed)]);
        assert!(matches!(seen[2], (2, Verdict::Disagreement(_))), "{seen:?}");
        let counts = (totals.checked, totals.disagreements, totals.failures);
        assert_eq!(
            (counts, totals.refusals, totals.timed_out),
            ((3, 1, 0), 0, false)
        );
        let rows = totals.rows(&backends, batch.task);
        let dlx = &rows[1].record;
        assert_eq!((dlx.backend.as_str(), dlx.task.as_str()), ("dlx", "count"));
        assert_eq!((dlx.puzzles, dlx.agreed, dlx.not_run), (3, Some(2), 0));
        // Unmetered: no effort columns; metered, the backends' counters.
        assert_eq!(
            (dlx.nodes_per_puzzle, rows[0].record.nodes_per_puzzle),
            (None, None)
        );
        let metered = Batch {
            effort: true,
            cancel: None,
            ..batch
        };
        let totals = run_batch(&metered, &puzzles, &go, |_| {}).unwrap();
        let rows = totals.rows(&backends, batch.task);
        for row in &rows {
            let nodes = row.record.nodes_per_puzzle;
            assert!(
                nodes.is_some_and(|n| n >= 1.0),
                "{}: {nodes:?}",
                row.record.backend
            );
        }
        // Once stopped, no puzzle starts.
        let stopped = AtomicBool::new(true);
        let totals = run_batch(&batch, &puzzles, &stopped, |_| panic!("ran")).unwrap();
        assert_eq!(totals.checked, 0);
    }

    #[test]
    fn none_against_a_grid_is_a_disagreement() {
        let runs = [
            run("a", Ok(Answer::Solved(g(1)))),
            run("b", Ok(Answer::NoSolution)),
        ];
        assert!(matches!(
            compare(Task::Solve, &runs),
            Verdict::Disagreement(_)
        ));
        let runs = [
            run("a", Ok(Answer::Multiple(g(1), g(2)))),
            run("b", Ok(Answer::NoSolution)),
        ];
        assert!(matches!(
            compare(Task::Unique, &runs),
            Verdict::Disagreement(_)
        ));
    }

    #[test]
    fn different_solutions_are_fine_for_solve_not_for_unique() {
        let runs = [
            run("a", Ok(Answer::Solved(g(1)))),
            run("b", Ok(Answer::Solved(g(2)))),
        ];
        assert_eq!(compare(Task::Solve, &runs), Verdict::Agreed);
        let runs = [
            run("a", Ok(Answer::Unique(g(1)))),
            run("b", Ok(Answer::Unique(g(2)))),
        ];
        assert!(matches!(
            compare(Task::Unique, &runs),
            Verdict::Disagreement(_)
        ));
        let runs = [
            run("a", Ok(Answer::Unique(g(1)))),
            run("b", Ok(Answer::Multiple(g(1), g(2)))),
        ];
        assert!(matches!(
            compare(Task::Unique, &runs),
            Verdict::Disagreement(_)
        ));
    }

    #[test]
    fn counts() {
        let c = |count, complete| {
            Ok(Answer::Counted {
                count,
                complete,
                first: g(1),
            })
        };
        let task = Task::Count { limit: 10 };
        assert_eq!(
            compare(task, &[run("a", c(5, true)), run("b", c(5, true))]),
            Verdict::Agreed
        );
        assert!(matches!(
            compare(task, &[run("a", c(5, true)), run("b", c(6, true))]),
            Verdict::Disagreement(_)
        ));
        assert!(matches!(
            compare(task, &[run("a", c(10, false)), run("b", c(10, true))]),
            Verdict::Disagreement(_)
        ));
        assert_eq!(
            compare(task, &[run("a", c(10, false)), run("b", c(10, false))]),
            Verdict::Agreed
        );
    }

    #[test]
    fn optima() {
        let o = |score, proved, bound| {
            Ok(Answer::Optimum {
                score,
                grid: g(1),
                proved,
                bound,
            })
        };
        let t = Task::Optimize;
        assert_eq!(
            compare(
                t,
                &[run("a", o(10, true, Some(10))), run("b", o(10, true, None))]
            ),
            Verdict::Agreed
        );
        assert!(matches!(
            compare(
                t,
                &[run("a", o(10, true, None)), run("b", o(9, true, None))]
            ),
            Verdict::Disagreement(_)
        ));
        assert_eq!(
            compare(
                t,
                &[run("a", o(10, true, None)), run("b", o(9, false, Some(12)))]
            ),
            Verdict::Agreed
        );
        assert!(matches!(
            compare(
                t,
                &[run("a", o(10, true, None)), run("b", o(11, false, None))]
            ),
            Verdict::Disagreement(_)
        ));
        assert!(matches!(
            compare(
                t,
                &[run("a", o(10, false, None)), run("b", o(9, false, Some(9)))]
            ),
            Verdict::Disagreement(_)
        ));
    }

    #[test]
    fn timeouts_refusals_and_failures() {
        let runs = [
            run("a", Ok(Answer::NoSolution)),
            run("b", Err(RunError::Backend(BackendError::TimedOut))),
            run(
                "c",
                Err(RunError::Backend(BackendError::Unsupported(
                    "n > 64".into(),
                ))),
            ),
        ];
        assert_eq!(compare(Task::Solve, &runs), Verdict::Agreed);
        assert!(runs[1].timed_out() && runs[2].refused() && !runs[2].timed_out());
        let solver_failure = Err(RunError::Backend(BackendError::Failed("crash".into())));
        assert!(matches!(
            compare(
                Task::Solve,
                &[run("a", Ok(Answer::NoSolution)), run("b", solver_failure)]
            ),
            Verdict::Failure(_)
        ));
        let bad = Err(RunError::Check {
            backend: "b",
            failure: CheckFailure::SameWitnesses,
        });
        assert!(matches!(
            compare(
                Task::Solve,
                &[run("a", Ok(Answer::NoSolution)), run("b", bad)]
            ),
            Verdict::Failure(_)
        ));
    }
}
