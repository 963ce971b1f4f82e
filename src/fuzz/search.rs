//! The fuzzing loop: cases made and cross-checked on worker threads until the first fault, the
//! case budget, the wall, or a stop request ([`search`]). It prints nothing: each case done is
//! reported to a callback, and the [`Outcome`] says what the run did and why it stopped, so the
//! caller (the `fuzz` command) only prints.
//!
//! The fault reported is the one of the lowest case number, whatever the number of jobs: once a
//! fault is found, workers finish the cases below it and start none above it. So a run with a
//! given seed reports the same case every time (given backends that answer the same every time).
//!
//! The wall ([`Run::deadline`]) covers everything a case does: its uniqueness checks while it is
//! made, and every backend's answer. A case cut off by the wall is not counted and is no error;
//! the cases before it are all in the outcome.
//!
//! A case that cannot be made goes one of two ways. When its own draw fails (no full grid of its
//! random regions keeping its rules within the generator's search budget), or its uniqueness
//! check times out, it is left out and named, and the run goes on; the run stops
//! ([`Stop::Generation`]) only when most cases cannot be drawn ([`GIVE_UP_AFTER`]). Any other
//! error in making a case (a spec the generator refuses, an internal error) stops the run there.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::backend::Backend;
use crate::generate::GenerateError;
use crate::logic::Ladder;
use crate::model::Puzzle;
use crate::shard::Shard;
use crate::xcheck::{BackendRun, Verdict};

use super::steps::{self, StepCheck, StepFault, StepTally};
use super::{check, make_case_until, Case, FuzzOptions};

/// How many cases with a time-out an [`Outcome`] names.
pub const NAMED_TIMEOUTS: usize = 5;

/// A run stops once this many cases could not be drawn and they are most of the cases tried;
/// at its end, it stops with [`Stop::Generation`] whenever most of its cases could not be.
pub const GIVE_UP_AFTER: u64 = 10;

/// Which cases a run makes, and its bounds.
#[derive(Debug, Clone)]
pub struct Run {
    /// The run's seed: case `i` is made from [`super::case_seed`]`(seed, i)`.
    pub seed: u64,
    /// First case number.
    pub first: u64,
    /// Stop after this many cases (counted from `first`, before sharding)…
    pub cases: Option<u64>,
    /// …or at this instant, the wall: cases in flight are cut off there.
    pub deadline: Option<Instant>,
    /// Worker threads.
    pub jobs: usize,
    /// Run only this share of the cases.
    pub shard: Shard,
}

/// The first fault of a run, in case order.
#[derive(Debug, Clone)]
pub struct Fault {
    pub case: Case,
    pub runs: Vec<BackendRun>,
    pub verdict: Verdict,
    /// A logic step that contradicts the solution (the backends agreed: `verdict` is
    /// [`Verdict::Agreed`]).
    pub wrong_step: Option<Box<StepFault>>,
}

/// Why a run stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// A fault was found (and every case below it was run).
    Fault,
    /// A case could not be made ([`Outcome::generation`]).
    Generation,
    /// Every case asked for was run.
    Done,
    /// The wall ([`Run::deadline`]) was reached.
    Wall,
    /// The stop flag was raised (Ctrl-C).
    Interrupted,
}

/// What a run did.
#[derive(Debug)]
pub struct Outcome {
    /// Cases run to the end (made and answered by every backend).
    pub done: u64,
    pub elapsed: Duration,
    /// Answers that timed out, and refusals, over all cases.
    pub timed_out: u64,
    pub refused: u64,
    /// The lowest [`NAMED_TIMEOUTS`] cases with a time-out, and which backends timed out.
    pub timeouts: BTreeMap<u64, Vec<&'static str>>,
    /// Cases left out because the reference could not decide, within the per-answer time-out,
    /// the uniqueness the generator needed: how many, and the lowest [`NAMED_TIMEOUTS`] of them.
    /// Not faults (no backend answered them) and not run.
    pub undecided: u64,
    pub undecided_cases: Vec<u64>,
    /// Cases left out because their grid could not be drawn (see [`undrawable`]): how many, and
    /// the lowest [`NAMED_TIMEOUTS`] of them. Not faults, and not run.
    pub undrawn: u64,
    pub undrawn_cases: Vec<u64>,
    /// The step check's counts ([`FuzzOptions::check_steps`]).
    pub steps: StepTally,
    /// The fault of the lowest case number, if any.
    pub fault: Option<Fault>,
    /// Why the run stopped at [`Stop::Generation`]: the lowest case that could not be made
    /// (below any fault) and why; with most cases undrawn, the lowest of those.
    pub generation: Option<(u64, GenerateError)>,
    pub stop: Stop,
}

/// Shared by the workers.
#[derive(Default)]
struct State {
    next: AtomicU64,
    first_fault: AtomicU64,
    done: AtomicU64,
    timed_out: AtomicU64,
    refused: AtomicU64,
    at_wall: AtomicBool,
    timeouts: Mutex<BTreeMap<u64, Vec<&'static str>>>,
    undecided: AtomicU64,
    undecided_cases: Mutex<Vec<u64>>,
    undrawn: AtomicU64,
    undrawn_cases: Mutex<Vec<u64>>,
    /// The lowest case whose grid could not be drawn, and why.
    first_undrawn: Mutex<Option<(u64, GenerateError)>>,
    /// Most cases could not be drawn: no more are started.
    given_up: AtomicBool,
    steps: Mutex<StepTally>,
    fault: Mutex<Option<Fault>>,
    generation: Mutex<Option<(u64, GenerateError)>>,
}

impl State {
    /// Cases that ended: run, or left out.
    fn ended(&self) -> u64 {
        self.done.load(Ordering::SeqCst)
            + self.undecided.load(Ordering::SeqCst)
            + self.undrawn.load(Ordering::SeqCst)
    }
    /// Whether most of the cases that ended could not be drawn.
    fn mostly_undrawn(&self) -> bool {
        let undrawn = self.undrawn.load(Ordering::SeqCst);
        undrawn > 0 && undrawn * 2 > self.ended()
    }
}

/// Whether `e` says that one case's grid could not be drawn (a full grid of its random shape
/// keeping its rules, within the generator's search budget): another case, drawn from another
/// seed, may well be.
pub fn undrawable(e: &GenerateError) -> bool {
    matches!(
        e,
        GenerateError::NoFullGrid { .. } | GenerateError::NoGridKeeping { .. }
    )
}

/// Adds case `i` to the lowest [`NAMED_TIMEOUTS`] cases of `named`.
fn name_case(named: &Mutex<Vec<u64>>, i: u64) {
    let mut named = lock(named);
    named.push(i);
    named.sort_unstable();
    named.truncate(NAMED_TIMEOUTS);
}

/// Runs the cases of `run` through `backends` (`reference`, normally `dfs`, decides uniqueness
/// while cases are made) until a fault, the case budget, the wall, or `stop`. `on_case` is called
/// with each case number once it is done, from the worker threads.
pub fn search(
    opts: &FuzzOptions,
    run: &Run,
    backends: &[Box<dyn Backend>],
    reference: &dyn Backend,
    stop: &AtomicBool,
    on_case: &(dyn Fn(u64) + Sync),
) -> Outcome {
    let started = Instant::now();
    let state = State {
        first_fault: AtomicU64::new(u64::MAX),
        ..State::default()
    };
    let end = run.cases.map_or(u64::MAX, |m| run.first.saturating_add(m));
    let past_wall = || run.deadline.is_some_and(|d| Instant::now() >= d);
    let worker = || loop {
        // The shard's j-th case is case `first + shard.item(j)`.
        let j = state.next.fetch_add(1, Ordering::SeqCst);
        let i = run.first.saturating_add(run.shard.item(j));
        if i >= end
            || stop.load(Ordering::SeqCst)
            || i > state.first_fault.load(Ordering::SeqCst)
            || state.given_up.load(Ordering::SeqCst)
        {
            break;
        }
        if past_wall() {
            state.at_wall.store(true, Ordering::SeqCst);
            break;
        }
        let case = match make_case_until(opts, run.seed, i, reference, run.deadline) {
            Ok(c) => c,
            Err(GenerateError::Check(e)) if e.timed_out() && past_wall() => {
                state.at_wall.store(true, Ordering::SeqCst);
                break;
            }
            Err(GenerateError::Check(e)) if e.timed_out() => {
                // The reference could not settle a uniqueness question within the time-out:
                // the case is left out and named, and the run goes on.
                state.undecided.fetch_add(1, Ordering::SeqCst);
                name_case(&state.undecided_cases, i);
                continue;
            }
            Err(e) if undrawable(&e) => {
                // This case's grid could not be drawn: it is left out and named, and the run
                // goes on, unless most cases cannot be drawn.
                let undrawn = state.undrawn.fetch_add(1, Ordering::SeqCst) + 1;
                name_case(&state.undrawn_cases, i);
                let mut first = lock(&state.first_undrawn);
                if first.as_ref().is_none_or(|(j, _)| i < *j) {
                    *first = Some((i, e));
                }
                drop(first);
                if undrawn >= GIVE_UP_AFTER && state.mostly_undrawn() {
                    state.given_up.store(true, Ordering::SeqCst);
                    break;
                }
                continue;
            }
            Err(e) => {
                let mut slot = lock(&state.generation);
                if slot.as_ref().is_none_or(|(j, _)| i < *j) {
                    *slot = Some((i, e));
                }
                state.first_fault.fetch_min(i, Ordering::SeqCst);
                break;
            }
        };
        let (runs, verdict) = check(
            backends,
            &case.puzzle,
            opts.task,
            opts.timeout,
            run.deadline,
        );
        if past_wall() && runs.iter().any(BackendRun::timed_out) {
            // Cut off by the wall: not a case run, and no fault.
            state.at_wall.store(true, Ordering::SeqCst);
            break;
        }
        let wrong_step = match &opts.check_steps {
            Some(ladder) if verdict == Verdict::Agreed => {
                check_steps(&case.puzzle, &runs, reference, opts.timeout, ladder, &state)
            }
            _ => None,
        };
        count_ends(i, &runs, &state);
        state.done.fetch_add(1, Ordering::Relaxed);
        on_case(i);
        if verdict != Verdict::Agreed || wrong_step.is_some() {
            let mut slot = lock(&state.fault);
            if slot.as_ref().is_none_or(|f| i < f.case.index) {
                *slot = Some(Fault {
                    case,
                    runs,
                    verdict,
                    wrong_step,
                });
            }
            state.first_fault.fetch_min(i, Ordering::SeqCst);
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..run.jobs.max(1) {
            let deep = std::thread::Builder::new().stack_size(crate::dfs::WORKER_STACK);
            if deep.spawn_scoped(scope, worker).is_err() {
                scope.spawn(worker);
            }
        }
    });
    let mostly_undrawn = state.mostly_undrawn();
    let fault = state.fault.into_inner().unwrap_or_else(|p| p.into_inner());
    let first_undrawn = (state.first_undrawn.into_inner()).unwrap_or_else(|p| p.into_inner());
    let generation = (state.generation.into_inner())
        .unwrap_or_else(|p| p.into_inner())
        .filter(|(i, _)| fault.as_ref().is_none_or(|f| *i < f.case.index))
        .or(first_undrawn.filter(|_| mostly_undrawn && fault.is_none()));
    let stop = if generation.is_some() {
        Stop::Generation
    } else if fault.is_some() {
        Stop::Fault
    } else if state.at_wall.load(Ordering::SeqCst) {
        Stop::Wall
    } else if stop.load(Ordering::SeqCst) {
        Stop::Interrupted
    } else {
        Stop::Done
    };
    Outcome {
        done: state.done.load(Ordering::SeqCst),
        elapsed: started.elapsed(),
        timed_out: state.timed_out.load(Ordering::SeqCst),
        refused: state.refused.load(Ordering::SeqCst),
        timeouts: state
            .timeouts
            .into_inner()
            .unwrap_or_else(|p| p.into_inner()),
        undecided: state.undecided.load(Ordering::SeqCst),
        undecided_cases: state
            .undecided_cases
            .into_inner()
            .unwrap_or_else(|p| p.into_inner()),
        undrawn: state.undrawn.load(Ordering::SeqCst),
        undrawn_cases: (state.undrawn_cases.into_inner()).unwrap_or_else(|p| p.into_inner()),
        steps: state.steps.into_inner().unwrap_or_else(|p| p.into_inner()),
        fault,
        generation,
        stop,
    }
}

/// The logic path `ladder` finds on an agreed case, checked step by step against its solution
/// and counted in the run's tally; the wrong step, if any.
fn check_steps(
    puzzle: &Puzzle,
    runs: &[BackendRun],
    reference: &dyn Backend,
    timeout: Option<Duration>,
    ladder: &Ladder,
    state: &State,
) -> Option<Box<StepFault>> {
    let check = steps::check_case(puzzle, runs, reference, timeout, ladder);
    lock(&state.steps).add(&check);
    match check {
        StepCheck::Wrong(fault) => Some(fault),
        _ => None,
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn count_ends(case: u64, runs: &[BackendRun], state: &State) {
    for r in runs {
        if r.timed_out() {
            state.timed_out.fetch_add(1, Ordering::Relaxed);
            let mut named = lock(&state.timeouts);
            named.entry(case).or_default().push(r.backend);
            while named.len() > NAMED_TIMEOUTS {
                named.pop_last();
            }
        } else if r.refused() {
            state.refused.fetch_add(1, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{BackendError, Count, Limits, Optimum};
    use crate::backends::{self, BackendKind};
    use crate::generate::PuzzleSpec;
    use crate::model::{Grid, Puzzle};

    /// A reference that never settles a count in time, as on a case too hard for the time-out.
    struct NeverInTime;

    impl Backend for NeverInTime {
        fn name(&self) -> &'static str {
            "never-in-time"
        }
        fn solve(&self, _: &Puzzle, _: &Limits) -> Result<Option<Grid>, BackendError> {
            Err(BackendError::TimedOut)
        }
        fn count(&self, _: &Puzzle, _: u64, _: &Limits) -> Result<Count, BackendError> {
            Err(BackendError::TimedOut)
        }
        fn optimize(&self, _: &Puzzle, _: &Limits) -> Result<Optimum, BackendError> {
            Err(BackendError::TimedOut)
        }
    }

    /// Cases `first..first + cases` of `spec` and `seed` through `dfs` on one thread, `reference`
    /// (default `dfs`) deciding uniqueness.
    fn run_cases(
        spec: PuzzleSpec,
        (seed, first, cases): (u64, u64, u64),
        reference: Option<&dyn Backend>,
    ) -> Outcome {
        let run = Run {
            seed,
            first,
            cases: Some(cases),
            deadline: None,
            jobs: 1,
            shard: Shard::default(),
        };
        let dfs = backends::create(BackendKind::Dfs, &Default::default()).unwrap();
        let reference = reference.unwrap_or(dfs.as_ref());
        let opts = FuzzOptions::of(spec);
        search(
            &opts,
            &run,
            std::slice::from_ref(&dfs),
            reference,
            &AtomicBool::new(false),
            &|_| {},
        )
    }

    /// A case whose uniqueness the reference cannot settle in time is left out and named, and
    /// the run goes on through the others, which are run.
    #[test]
    fn cases_the_reference_cannot_decide_are_left_out_and_the_run_goes_on() {
        let outcome = run_cases(PuzzleSpec::new(4), (7, 0, 40), Some(&NeverInTime));
        assert_eq!(outcome.stop, Stop::Done, "{outcome:?}");
        assert!(outcome.generation.is_none() && outcome.fault.is_none());
        assert!(outcome.undecided > 0 && outcome.done > 0, "{outcome:?}");
        assert_eq!(outcome.done + outcome.undecided, 40);
        let named = &outcome.undecided_cases;
        assert_eq!(
            named.len(),
            (outcome.undecided as usize).min(NAMED_TIMEOUTS)
        );
        assert!(named.windows(2).all(|w| w[0] < w[1]), "{named:?}");
    }

    /// A shape no grid fits (side 2 with diagonals): every case is undrawn and named, and the run
    /// gives up after [`GIVE_UP_AFTER`] of them, with the lowest one as the reason.
    #[test]
    fn a_run_whose_cases_cannot_be_drawn_gives_up() {
        let spec = PuzzleSpec {
            jigsaw: true,
            diagonals: true,
            ..PuzzleSpec::new(2)
        };
        let outcome = run_cases(spec, (3, 5, 1000), None);
        assert_eq!(outcome.stop, Stop::Generation, "{outcome:?}");
        assert_eq!((outcome.done, outcome.undrawn), (0, GIVE_UP_AFTER));
        assert_eq!(outcome.undrawn_cases, vec![5, 6, 7, 8, 9]);
        let (case, e) = outcome.generation.unwrap();
        assert_eq!(case, 5);
        assert!(undrawable(&e), "{e}");
    }
}
