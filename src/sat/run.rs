//! One run of a task on one in-process engine ([`execute`]): the engine is built (varisat, or
//! CaDiCaL with one preset), the puzzle loaded into it, and the job ([`Job`]: a count, or an
//! optimisation) driven to its end by [`super::session`] or [`super::optimize`], with its
//! progress reported as it goes.
//!
//! Whoever runs it picks the thread and stops it: CaDiCaL stops at [`Run::deadline`] through a
//! terminator; varisat has no interrupt, so from 25×25 up, and for `optimize` at any size, it
//! writes a discarded proof to a [`StopWriter`] that fails once the deadline passes, which ends
//! the solve (below that size the proof's cost outweighs it for solving and counting, whose runs
//! are short anyway). A shared cancel flag stops either the same way, and the drivers poll it
//! between solver calls.

use super::maxsat::Oracle;
use super::optimize::optimize;
use super::options::SatOptions;
use super::session::{count, Improved};
use super::tally::ConflictTally;
use super::VarisatSink;
use crate::answer::{BackendError, Count, Optimum};
use crate::cancel::Cancel;
use crate::effort::Meter;
use crate::model::Puzzle;

/// The in-process solvers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineKind {
    Varisat,
    /// CaDiCaL through rustsat (feature `cadical`).
    #[cfg(feature = "cadical")]
    Cadical,
}

/// What to compute.
#[derive(Debug, Clone, Copy)]
pub enum Job {
    /// Solutions up to a limit (1 to solve, 2 for uniqueness).
    Count(u64),
    Optimize,
}

/// The answer of a [`Job`].
pub enum Outcome {
    Count(Count),
    Optimum(Optimum),
}

/// Smallest side whose varisat runs with a deadline get a [`StopWriter`]. Writing the proof costs
/// time: measured with `bench --timeout 1000` against no deadline, ≈ 30 % on forum_hardest_1106
/// (`unique`) and 20–40 % on random 16×16 puzzles, ≤ 15 % on random 25×25 and nothing
/// measurable on the large files (encoding dominates there). Below this size varisat answers in
/// milliseconds anyway, so an abandoned run soon ends by itself.
const STOP_WRITER_MIN_SIZE: usize = 25;

/// How a varisat run with a deadline stops: varisat has no interrupt, but it stops solving at
/// the first proof write that fails. So such a run writes its proof (varisat's own format, which
/// allows adding clauses between calls) here, where it is thrown away until the deadline passes
/// or the run is cancelled; then writes fail with [`std::io::ErrorKind::TimedOut`], which
/// [`Oracle::solve_assuming`] reports as [`BackendError::TimedOut`]. Proof steps reach the
/// writer every few kilobytes (varisat buffers them), so an abandoned run stops within
/// milliseconds instead of running on in the background.
struct StopWriter {
    deadline: Option<std::time::Instant>,
    cancel: Cancel,
}

impl std::io::Write for StopWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let late = self
            .deadline
            .is_some_and(|d| std::time::Instant::now() >= d);
        if late || self.cancel.is_set() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "deadline passed",
            ));
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Everything a run needs, movable to a worker thread.
pub struct Run {
    pub puzzle: Puzzle,
    /// With CaDiCaL, `cadical_config` is one single preset (see
    /// [`CadicalConfig::presets`](super::options::CadicalConfig::presets)).
    pub opts: SatOptions,
    pub engine: EngineKind,
    /// Stops the engine: CaDiCaL through its terminator, varisat through [`StopWriter`].
    pub deadline: Option<std::time::Instant>,
    /// The caller can cancel the run (its limits carry a [`Cancel`]): varisat needs the
    /// [`StopWriter`] as with a deadline.
    pub cancellable: bool,
    pub job: Job,
    /// Where the engine reports its counters after each call ([`super::tally`]); off, it
    /// measures nothing.
    pub meter: Meter,
}

/// Runs `run.job` to its end on this thread, on a fresh engine, reporting progress to
/// `improved`. The deadline, or `cancel` once set, stops it with [`BackendError::TimedOut`].
pub fn execute(
    run: &Run,
    improved: Improved<'_>,
    cancel: &Cancel,
) -> Result<Outcome, BackendError> {
    match run.engine {
        EngineKind::Varisat => {
            let mut solver = varisat::Solver::new();
            // An optimisation can make long calls at any size (the linear search's bound
            // clauses grow large), so it always gets the writer.
            let long =
                run.puzzle.size() >= STOP_WRITER_MIN_SIZE || matches!(run.job, Job::Optimize);
            let stop = ((run.deadline.is_some() || run.cancellable) && long).then(|| StopWriter {
                deadline: run.deadline,
                cancel: cancel.clone(),
            });
            let sink = if run.meter.is_on() {
                let tally =
                    ConflictTally::new(stop.map(|w| Box::new(w) as Box<dyn std::io::Write>));
                let counted = tally.counted();
                solver.write_proof(tally, varisat::ProofFormat::Varisat);
                VarisatSink::metered(solver, counted, run.meter.clone())
            } else {
                if let Some(stop) = stop {
                    solver.write_proof(stop, varisat::ProofFormat::Varisat);
                }
                VarisatSink::new(solver)
            };
            execute_with(run, sink, improved, cancel)
        }
        #[cfg(feature = "cadical")]
        EngineKind::Cadical => execute_with(
            run,
            super::cadical::CadicalSink::new(
                run.deadline,
                run.opts.cadical_config,
                cancel.clone(),
                run.meter.clone(),
            )?,
            improved,
            cancel,
        ),
    }
}

fn execute_with<E: Oracle>(
    run: &Run,
    engine: E,
    improved: Improved<'_>,
    cancel: &Cancel,
) -> Result<Outcome, BackendError> {
    let (p, o) = (&run.puzzle, &run.opts);
    match run.job {
        Job::Count(limit) => count(p, o, engine, limit, improved, cancel).map(Outcome::Count),
        Job::Optimize => {
            optimize(p, o, engine, improved, cancel, run.deadline).map(Outcome::Optimum)
        }
    }
}
