//! What a run of an engine or a backend answers, and under which limits: [`Limits`] (a deadline,
//! a [`Cancel`] flag and the effort [`Meter`]), [`Count`], [`Optimum`], and [`BackendError`] for a
//! run that gives no answer (timed out, not supported, failed).
//!
//! This is the vocabulary shared by the engines (`dfs/`, `sat/`, `ilp/`, `cp/`, …) and the
//! [`crate::backend::Backend`] trait above them, so an engine names its answers without importing
//! the trait's floor; [`crate::backend`] re-exports everything here.

use std::time::{Duration, Instant};

use crate::cancel::due;
use crate::cancel::{Cancel, Halt};
use crate::effort::{Effort, Meter};
use crate::model::Grid;
use crate::process::ProcessError;

/// Limits a backend must respect, and the [`Meter`] it reports its search effort to.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Give up (with [`BackendError::TimedOut`], or an incomplete [`Optimum`]) after this instant.
    pub deadline: Option<Instant>,
    /// Give up the same way once this flag is set ([`Limits::expired`]).
    pub cancel: Option<Cancel>,
    /// Where the backend records what its engine did ([`Limits::record`]); off by default.
    pub meter: Meter,
}

impl Limits {
    pub fn none() -> Limits {
        Limits::default()
    }
    pub fn timeout(d: Duration) -> Limits {
        Limits::until(Some(Instant::now() + d))
    }
    /// Limits ending `d` from now, or none when `None`.
    pub fn timeout_of(d: Option<Duration>) -> Limits {
        Limits::until(d.map(|d| Instant::now() + d))
    }
    /// Limits with this deadline (none when `None`) and no meter.
    pub fn until(deadline: Option<Instant>) -> Limits {
        Limits {
            deadline,
            cancel: None,
            meter: Meter::default(),
        }
    }
    /// The same limits, also stopped once `cancel` is set.
    pub fn cancelled_by(mut self, cancel: Cancel) -> Limits {
        self.cancel = Some(cancel);
        self
    }
    /// The deadline and the cancel flag, for a search to poll.
    pub fn halt(&self) -> Halt {
        Halt {
            deadline: self.deadline,
            cancel: self.cancel.clone(),
        }
    }
    /// The same limits, reporting effort to a new meter; read it with [`Limits::effort`].
    pub fn metered(mut self) -> Limits {
        self.meter = Meter::new();
        self
    }
    /// Reports effort; adds to what was recorded before. Does nothing when no meter is on.
    pub fn record(&self, effort: &Effort) {
        self.meter.record(effort)
    }
    /// The effort recorded so far (empty when no meter is on).
    pub fn effort(&self) -> Effort {
        self.meter.read()
    }
    /// Time left before the deadline (`None` when there is none; zero once it has passed).
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }
    /// Whether the deadline has passed or the run was cancelled: the backend must stop.
    pub fn expired(&self) -> bool {
        due(self.deadline, self.cancel.as_ref())
    }
    /// Whether the cancel flag is set.
    pub fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(Cancel::is_set)
    }
}

/// The answer to "how many solutions, up to `limit`?".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Count {
    /// Solutions found: exact when `complete`, otherwise equal to the limit ("at least"), or
    /// (when `timed_out`) the solutions found before the deadline.
    pub count: u64,
    /// `false` when the search stopped at the limit or at the deadline.
    pub complete: bool,
    /// The first `min(count, 2)` solutions found, all distinct: the checker verifies them, so a
    /// "multiple solutions" answer is backed by two different valid grids.
    pub witnesses: Vec<Grid>,
    /// The deadline passed before the count was done: there are at least `count` solutions.
    /// [`crate::task::run`] reports it as a time-out that says so, never as an answer.
    pub timed_out: bool,
}

impl Count {
    /// The complete answer "no solution".
    pub fn none() -> Count {
        Count {
            count: 0,
            complete: true,
            witnesses: Vec::new(),
            timed_out: false,
        }
    }
    /// A finished count of `count` solutions up to `limit` (complete when below it).
    pub fn finished(count: u64, limit: u64, witnesses: Vec<Grid>) -> Count {
        Count {
            count,
            complete: count < limit,
            witnesses,
            timed_out: false,
        }
    }
    /// A count the deadline stopped after `count` solutions (the first two in `witnesses`).
    pub fn stopped(count: u64, witnesses: Vec<Grid>) -> Count {
        Count {
            count,
            complete: false,
            witnesses,
            timed_out: true,
        }
    }
}

/// Counts by enumeration, for backends that find one solution at a time: each call of `next`
/// returns a solution different from the ones before (it blocks each one it returns), or `None`
/// when there is none left. Keeps the first two as witnesses; a time-out after at least one
/// solution gives [`Count::stopped`].
pub fn enumerate(
    limit: u64,
    mut next: impl FnMut() -> Result<Option<Grid>, BackendError>,
) -> Result<Count, BackendError> {
    let limit = limit.max(1);
    let mut count = 0;
    let mut witnesses = Vec::new();
    while count < limit {
        match next() {
            Ok(Some(g)) => {
                count += 1;
                if witnesses.len() < 2 {
                    witnesses.push(g);
                }
            }
            Ok(None) => break,
            Err(BackendError::TimedOut) if count > 0 => {
                return Ok(Count::stopped(count, witnesses))
            }
            Err(e) => return Err(e),
        }
    }
    Ok(Count::finished(count, limit, witnesses))
}

/// The answer to "what is the best score?".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Optimum {
    /// The puzzle has no solution.
    NoSolution,
    /// `grid` reaches `score`, and no grid scores more (proved).
    Optimal { score: i64, grid: Grid },
    /// Stopped (time limit) before proving optimality: the best grid found so far and, when known,
    /// an upper bound on the optimum.
    Incomplete {
        score: i64,
        grid: Grid,
        bound: Option<i64>,
    },
}

/// Why a backend gave no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BackendError {
    /// The deadline in [`Limits`] passed first.
    #[error("timed out")]
    TimedOut,
    /// The backend cannot handle this puzzle (size, memory limit, missing weights…).
    #[error("not supported by this backend: {0}")]
    Unsupported(String),
    /// The underlying solver failed (crash, malformed output, numerical trouble…).
    #[error("solver failure: {0}")]
    Failed(String),
}

impl From<ProcessError> for BackendError {
    /// A time-out stays a time-out; anything else is a failure naming the program.
    fn from(e: ProcessError) -> Self {
        match e {
            ProcessError::TimedOut { .. } => BackendError::TimedOut,
            other => BackendError::Failed(other.to_string()),
        }
    }
}
