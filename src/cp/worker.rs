//! huub's drivers ([`super::huub`]) as a request and an answer that can cross a process
//! boundary: what the `cp` backend ([`crate::backends::cp`]) sends to its worker process
//! ([`crate::isolate`]), or answers in its own thread without one, and the forms of the model
//! a crashed request is retried in ([`retries`]).

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::huub::{self, Best, Found, Stop};
use super::{AllDiffLevel, Branching, CpModel, CpOptions, HouseCover, Searches};
use crate::cancel::{Cancel, Halt};
use crate::effort::Effort;
use crate::isolate::{self, Pulse};
use crate::model::Value;

/// The options a task is run with, in order, until one does not crash: the chosen ones; then
/// the same with the fixed cells left out of the all-differents ([`CpOptions::drop_fixed`],
/// which every later form keeps); then, after incremental searches, with copies; then copies
/// with each house cover after the chosen one in [`HouseCover::ALL`]'s order (clauses, linear,
/// none); then copies with the chosen cover under `bounds` all-different (after `value`), and
/// under first-fail branching (after activity). Each form is sound and has the same solutions.
/// Every crash of huub 100.1 known to the tests (`tests/cp.rs`) is answered by the second form.
pub fn retries(chosen: CpOptions) -> Vec<CpOptions> {
    let mut all = vec![chosen];
    let dropped = CpOptions {
        drop_fixed: true,
        ..chosen
    };
    if !chosen.drop_fixed {
        all.push(dropped);
    }
    let copies = CpOptions {
        searches: Searches::Copies,
        ..dropped
    };
    if chosen.searches == Searches::Incremental {
        all.push(copies);
    }
    let later = HouseCover::ALL
        .into_iter()
        .skip_while(|&f| f != chosen.house_cover)
        .skip(1);
    all.extend(later.map(|house_cover| CpOptions {
        house_cover,
        ..copies
    }));
    if chosen.alldiff == AllDiffLevel::Value {
        all.push(CpOptions {
            alldiff: AllDiffLevel::Bounds,
            ..copies
        });
    }
    if chosen.branching == Branching::Activity {
        all.push(CpOptions {
            branching: Branching::FirstFail,
            ..copies
        });
    }
    all
}

/// One of huub's three drivers.
#[derive(Debug, Serialize, Deserialize)]
pub enum Job {
    Solve,
    Count(u64),
    Maximize,
}

/// What the `cp` backend asks of the worker; the deadline travels as the time left.
#[derive(Debug, Serialize, Deserialize)]
pub struct Request {
    pub model: CpModel,
    pub options: CpOptions,
    pub job: Job,
    pub time_left: Option<Duration>,
}

#[derive(Debug, Serialize, Deserialize)]
pub enum Reply {
    Solved(Option<Vec<Value>>),
    Counted(Found),
    Best(Best),
}

/// What the worker sends back for a [`Request`]: the reply, or why there is none, and what
/// huub's searches did on the way.
#[derive(Debug, Serialize, Deserialize)]
pub struct Answer {
    pub reply: Result<Reply, Stop>,
    /// huub's counters over the task's searches ([`huub::search_effort`]); an answer without
    /// them reads as "not measured".
    #[serde(default)]
    pub effort: Effort,
}

/// Answers a request (in the worker process, or in this thread without a worker program).
pub fn answer(request: Request, pulse: &Pulse, cancel: Option<Cancel>) -> Answer {
    let halt = &Halt {
        deadline: request.time_left.map(|t| Instant::now() + t),
        cancel,
    };
    let (model, options) = (&request.model, &request.options);
    let mut effort = Effort::default();
    let e = &mut effort;
    let reply = match request.job {
        Job::Solve => huub::solve(model, options, halt, pulse, e).map(Reply::Solved),
        Job::Count(limit) => huub::count(model, options, limit, halt, pulse, e).map(Reply::Counted),
        Job::Maximize => huub::maximize(model, options, halt, pulse, e).map(Reply::Best),
    };
    Answer { reply, effort }
}

/// The worker process's side: answers the requests of the `cp` backend on standard input and output
/// until standard input ends (the `sudoku-lab` command runs it as a hidden subcommand).
pub fn serve_worker() -> std::io::Result<()> {
    isolate::serve(|request, pulse| answer(request, pulse, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An answer without counters reads as "not measured"; one that is not an answer is an error,
    /// not a panic (the caller reports it as the worker's failure).
    #[test]
    fn answers_without_effort_or_malformed_are_handled() {
        let old: Answer = serde_json::from_str(r#"{"reply":{"Ok":{"Solved":null}}}"#).unwrap();
        assert!(old.effort.is_empty());
        assert!(matches!(old.reply, Ok(Reply::Solved(None))));
        let with: Answer = serde_json::from_str(
            r#"{"reply":{"Err":"Deadline"},"effort":{"decisions":3,"bogus":1}}"#,
        )
        .unwrap();
        assert_eq!(with.effort.decisions, Some(3));
        assert!(matches!(with.reply, Err(Stop::Deadline)));
        for bad in [
            r#"{"Solved":null}"#,
            r#"{"reply":7}"#,
            r#"{"reply":{"Ok":{"Solved":null}},"effort":{"decisions":-1}}"#,
        ] {
            assert!(serde_json::from_str::<Answer>(bad).is_err(), "{bad}");
        }
    }
}
