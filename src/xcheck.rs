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

use std::time::{Duration, Instant};

use crate::backend::{Backend, BackendError, Limits};
use crate::model::Puzzle;
use crate::model::Expected;
use crate::task::{self, Answer, RunError, Task};

/// One backend's result on one puzzle.
#[derive(Debug, Clone)]
pub struct BackendRun {
    pub backend: &'static str,
    pub result: Result<Answer, RunError>,
    pub time: Duration,
}

impl BackendRun {
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
    let limits = Limits { deadline };
    let start = Instant::now();
    let result = task::run(backend, puzzle, task, &limits);
    BackendRun {
        backend: backend.name(),
        result,
        time: start.elapsed(),
    }
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
