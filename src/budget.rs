//! A time budget per backend over a set of puzzles (`bench --budget`, `xcheck --budget`): once a
//! backend has used its budget, it runs no more puzzles of the set, and its figures cover the
//! puzzles it ran.
//!
//! The rule, the same wherever a budget applies:
//! * each run is limited by its own time-out, or by what is left of the backend's budget when
//!   that is less ([`Budget::grant`]);
//! * a run that times out on the budget's deadline (not on its own time-out) is left out, like
//!   the puzzles after it: the budget, not the puzzle, stopped it ([`Budget::spend`]).
//!
//! [`Budget::run`] applies the rule to one timed run; a [`Budget`] may be shared by threads:
//! puzzles already started when a budget runs out still finish.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use crate::task::{RunError, Timed};

/// Each backend's time budget over a set of puzzles; without a limit, every run gets its own
/// time-out and counts.
#[derive(Debug)]
pub struct Budget {
    limit: Option<Duration>,
    /// Nanoseconds used, per backend.
    used: Vec<AtomicU64>,
    /// Per backend: a run ended on the budget's deadline, so the budget is used up.
    spent: Vec<AtomicBool>,
}

/// The time limit the budget gives one run ([`Budget::grant`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grant {
    /// The run's time limit; `None`: none.
    pub timeout: Option<Duration>,
    /// The limit is what was left of the budget (less than the run's own time-out).
    by_budget: bool,
}

impl Budget {
    /// A budget of `limit` for each of `backends` backends (none: no limit).
    pub fn new(limit: Option<Duration>, backends: usize) -> Budget {
        Budget {
            limit,
            used: (0..backends).map(|_| AtomicU64::new(0)).collect(),
            spent: (0..backends).map(|_| AtomicBool::new(false)).collect(),
        }
    }

    /// The time limit of backend `k`'s next run: its own `timeout`, or what is left of its
    /// budget when that is less; `None` once its budget is used.
    pub fn grant(&self, k: usize, timeout: Option<Duration>) -> Option<Grant> {
        let Some(limit) = self.limit else {
            return Some(Grant {
                timeout,
                by_budget: false,
            });
        };
        let left = limit.checked_sub(self.used(k)).filter(|l| !l.is_zero())?;
        if self.spent[k].load(Ordering::SeqCst) {
            return None;
        }
        let by_budget = timeout.is_none_or(|t| left < t);
        Some(Grant {
            timeout: if by_budget { Some(left) } else { timeout },
            by_budget,
        })
    }

    /// Records a run of backend `k` under `grant` that took `time`. Returns whether it counts:
    /// not when it timed out on the budget's deadline (the budget is then used up).
    pub fn spend(&self, k: usize, grant: Grant, time: Duration, timed_out: bool) -> bool {
        let ns = u64::try_from(time.as_nanos()).unwrap_or(u64::MAX);
        self.used[k].fetch_add(ns, Ordering::SeqCst);
        let stopped_by_budget = grant.by_budget && timed_out;
        if stopped_by_budget {
            self.spent[k].store(true, Ordering::SeqCst);
        }
        !stopped_by_budget
    }

    /// Backend `k`'s next run, under the rule of this module: `run` gets the run's time limit
    /// ([`Budget::grant`]) and runs it, timed ([`crate::task::time`]). `None` when the budget
    /// grants nothing, or when the run timed out on the budget's deadline: the run does not count.
    pub fn run(
        &self,
        k: usize,
        timeout: Option<Duration>,
        run: impl FnOnce(Option<Duration>) -> Timed,
    ) -> Option<Timed> {
        let grant = self.grant(k, timeout)?;
        let timed = run(grant.timeout);
        let timed_out = timed.result.as_ref().is_err_and(RunError::timed_out);
        self.spend(k, grant, timed.time, timed_out).then_some(timed)
    }

    /// The time backend `k` has used.
    pub fn used(&self, k: usize) -> Duration {
        Duration::from_nanos(self.used[k].load(Ordering::SeqCst))
    }

    /// What is left of backend `k`'s budget; `None` without a limit.
    pub fn left(&self, k: usize) -> Option<Duration> {
        self.limit.map(|l| l.saturating_sub(self.used(k)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn without_a_limit_every_run_gets_its_own_timeout_and_counts() {
        let b = Budget::new(None, 1);
        let g = b.grant(0, Some(5 * MS)).unwrap();
        assert_eq!(g.timeout, Some(5 * MS));
        assert!(b.spend(0, g, 5 * MS, true));
        assert_eq!(b.grant(0, None).unwrap().timeout, None);
        assert_eq!((b.used(0), b.left(0)), (5 * MS, None));
    }

    #[test]
    fn runs_get_what_is_left_when_it_is_less_than_their_timeout() {
        let b = Budget::new(Some(10 * MS), 2);
        let g = b.grant(0, Some(4 * MS)).unwrap();
        assert_eq!(g.timeout, Some(4 * MS));
        // A time-out of its own counts: the puzzle was hard.
        assert!(b.spend(0, g, 4 * MS, true));
        assert!(b.spend(0, b.grant(0, Some(4 * MS)).unwrap(), 4 * MS, false));
        let g = b.grant(0, Some(4 * MS)).unwrap();
        assert_eq!(g.timeout, Some(2 * MS));
        // Stopped by the budget's deadline: left out, and the budget is used.
        assert!(!b.spend(0, g, MS, true));
        assert_eq!(b.grant(0, Some(4 * MS)), None);
        // The other backend has its own budget.
        assert_eq!(b.grant(1, None).unwrap().timeout, Some(10 * MS));
        assert_eq!(b.left(1), Some(10 * MS));
    }

    #[test]
    fn a_run_stopped_by_the_budget_does_not_count() {
        use crate::backend::BackendError;
        let timed = |time, timed_out: bool| Timed {
            result: match timed_out {
                true => Err(BackendError::TimedOut.into()),
                false => Err(BackendError::Failed("x".into()).into()),
            },
            time,
            effort: Default::default(),
        };
        let b = Budget::new(Some(10 * MS), 1);
        let mut limits = vec![];
        let mut run = |time, timed_out| {
            b.run(0, Some(6 * MS), |limit| {
                limits.push(limit);
                timed(time, timed_out)
            })
            .map(|t| t.time)
        };
        // Its own time-out: it counts.
        assert_eq!(run(6 * MS, true), Some(6 * MS));
        // What is left of the budget, reached: left out, and nothing more runs.
        assert_eq!(run(4 * MS, true), None);
        assert_eq!(run(MS, false), None);
        assert_eq!(limits, [Some(6 * MS), Some(4 * MS)]);
    }

    #[test]
    fn a_used_budget_grants_nothing() {
        let b = Budget::new(Some(3 * MS), 1);
        let g = b.grant(0, None).unwrap();
        assert!(b.spend(0, g, 3 * MS, false));
        assert_eq!(b.grant(0, None), None);
        assert_eq!(b.left(0), Some(Duration::ZERO));
    }
}
