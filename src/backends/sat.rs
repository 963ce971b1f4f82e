//! `sat` and `cadical`: the CNF encodings of [`crate::sat::encode`] solved in process by varisat
//! or CaDiCaL. The drivers are in [`crate::sat`]: solving and counting with blocking clauses, and
//! DRAT proofs ([`crate::sat::session`]), optimisation ([`crate::sat::optimize`]), one run on one
//! engine ([`crate::sat::run`]). This file only adapts them to [`Backend`]: options, the memory
//! budget, limits, and the mapping of answers.
//!
//! * Memory: a puzzle whose formula (times the solvers that race) would take more than
//!   [`SatOptions::memory_limit`] is refused before it is built ([`check_memory`]).
//! * Deadlines: varisat has no interrupt, so with a deadline (or a cancel flag, [`Limits::cancel`])
//!   the work runs on a worker thread and the caller waits with `recv_timeout`, looking at the
//!   flag every [`crate::backend::CANCEL_POLL`]. At the deadline (or the flag) the caller returns
//!   [`BackendError::TimedOut`] (or, for `optimize`, the best grid found so far, not proved) and
//!   abandons the thread, which stops within milliseconds from 25×25 up and for `optimize` (see
//!   [`crate::sat::run`]). Without a deadline everything runs on the calling thread.
//! * `cadical` (feature): [`CadicalConfig::Race`] (what `auto` picks from 25×25 up) runs one
//!   worker per preset on a shared cancel flag: the first answer wins and stops the others; an
//!   error is reported only once every worker has stopped.
//! * Effort ([`crate::sat::tally`]): with a meter on, each run counts on a meter of its own;
//!   an answer records the counters of the run that gave it (the winner of a race), a time-out
//!   or an error those of every run, up to each one's last finished solver call.

use std::sync::mpsc;

use crate::backend::{Backend, BackendError, Cancel, Count, Limits, Optimum};
use crate::effort::Meter;
use crate::model::{ConstraintKind, Grid, Puzzle};
use crate::sat::failed;
use crate::sat::memory::{check_memory, Holder};
use crate::sat::run::{execute, Job, Outcome, Run};
use crate::sat::session::Progress;

pub use crate::sat::options::{CadicalConfig, SatOptimizer, SatOptions, DEFAULT_MEMORY_LIMIT};
pub use crate::sat::run::EngineKind;

/// The SAT backend: `sat` (varisat) or `cadical`.
pub struct Sat {
    options: SatOptions,
    engine: EngineKind,
}

impl Sat {
    /// The `sat` backend (varisat).
    pub fn new(options: SatOptions) -> Sat {
        Sat::with_engine(options, EngineKind::Varisat)
    }
    pub fn with_engine(options: SatOptions, engine: EngineKind) -> Sat {
        Sat { options, engine }
    }
}

/// What a worker thread reports.
enum Msg {
    /// Run `.0` found its next solution.
    Found(usize, Grid),
    Improved {
        score: i64,
        grid: Grid,
        bound: i64,
    },
    /// Run `.0` ended.
    Done(usize, Result<Outcome, BackendError>),
}

impl Sat {
    /// The runs that answer `job`: one, or one per preset when CaDiCaL races (see
    /// [`SatOptions::cadical_presets`]).
    fn runs(&self, puzzle: &Puzzle, job: Job, limits: &Limits) -> Vec<Run> {
        let presets: &[CadicalConfig] = match self.engine {
            EngineKind::Varisat => &[CadicalConfig::Default],
            #[cfg(feature = "cadical")]
            EngineKind::Cadical => self.options.cadical_presets(puzzle.size()),
        };
        presets
            .iter()
            .map(|&preset| Run {
                puzzle: puzzle.clone(),
                opts: SatOptions {
                    cadical_config: preset,
                    ..self.options.clone()
                },
                engine: self.engine,
                deadline: limits.deadline,
                cancellable: limits.cancel.is_some(),
                job,
                meter: match limits.meter.is_on() {
                    true => Meter::new(),
                    false => Meter::default(),
                },
            })
            .collect()
    }

    /// Runs `job` on this thread, or on worker threads (one per raced preset) abandoned at the
    /// deadline. The first answer wins and stops the other runs; an error counts only once
    /// every run has stopped.
    fn run(&self, puzzle: &Puzzle, job: Job, limits: &Limits) -> Result<Outcome, BackendError> {
        let runs = self.runs(puzzle, job, limits);
        let meters: Vec<Meter> = runs.iter().map(|r| r.meter.clone()).collect();
        let mut winner = None;
        let result = self.run_all(puzzle, runs, limits, &mut winner);
        match winner.and_then(|k| meters.get(k)) {
            Some(m) => limits.record(&m.read()),
            None => meters.iter().for_each(|m| limits.record(&m.read())),
        }
        result
    }

    /// Runs `runs` for [`Sat::run`], setting `winner` to the run whose answer wins a race.
    fn run_all(
        &self,
        puzzle: &Puzzle,
        mut runs: Vec<Run>,
        limits: &Limits,
        winner: &mut Option<usize>,
    ) -> Result<Outcome, BackendError> {
        let holder = match self.engine {
            EngineKind::Varisat => Holder::Varisat,
            #[cfg(feature = "cadical")]
            EngineKind::Cadical => Holder::Cadical,
        };
        // Each raced run holds its own formula.
        check_memory(puzzle, &self.options, holder, runs.len(), self.name())?;
        // The caller's flag stops the runs; a race's own flag (its child) stops the losers.
        let cancel = limits
            .cancel
            .as_ref()
            .map_or_else(Cancel::new, Cancel::child);
        if runs.len() == 1 && !limits.halt().can_stop() {
            return execute(&runs[0], &mut |_| {}, &cancel);
        }
        let (tx, rx) = mpsc::channel();
        let workers = runs.len();
        for (k, run) in runs.drain(..).enumerate() {
            let (tx, c) = (tx.clone(), cancel.clone());
            std::thread::Builder::new()
                .name("sat-worker".into())
                .spawn(move || {
                    let progress = tx.clone();
                    let mut improved = |step: Progress<'_>| {
                        let _ = progress.send(match step {
                            Progress::Found(grid) => Msg::Found(k, grid.clone()),
                            Progress::Improved { score, grid, bound } => Msg::Improved {
                                score,
                                grid: grid.clone(),
                                bound,
                            },
                        });
                    };
                    let r = execute(&run, &mut improved, &c);
                    let _ = tx.send(Msg::Done(k, r));
                })
                .map_err(failed)?;
        }
        drop(tx);
        let stop = || cancel.set();
        let halt = limits.halt();
        let mut best: Option<(i64, Grid, i64)> = None;
        // Each run's solutions so far: how many, and the first two.
        let mut found: Vec<(u64, Vec<Grid>)> = vec![(0, Vec::new()); workers];
        let mut first_error = None;
        let mut finished = 0;
        // What a run stopped by the deadline has to show: the best grid of an optimisation, the
        // solutions of the count that got furthest, or nothing.
        let cut_short = |best: Option<(i64, Grid, i64)>, found: Vec<(u64, Vec<Grid>)>| {
            if let Some((score, grid, bound)) = best {
                return Ok(Outcome::Optimum(Optimum::Incomplete {
                    score,
                    grid,
                    bound: Some(bound),
                }));
            }
            match found.into_iter().max_by_key(|f| f.0) {
                Some((count, witnesses)) if count > 0 => {
                    Ok(Outcome::Count(Count::stopped(count, witnesses)))
                }
                _ => Err(BackendError::TimedOut),
            }
        };
        loop {
            match halt.recv(&rx) {
                Ok(Msg::Found(k, grid)) => {
                    let (count, witnesses) = &mut found[k];
                    *count += 1;
                    if witnesses.len() < 2 {
                        witnesses.push(grid);
                    }
                }
                Ok(Msg::Improved { score, grid, bound }) => {
                    if best.as_ref().is_none_or(|b| score > b.0) {
                        best = Some((score, grid, bound));
                    }
                }
                Ok(Msg::Done(k, Ok(outcome))) => {
                    stop();
                    *winner = Some(k);
                    return Ok(outcome);
                }
                Ok(Msg::Done(_, Err(e))) => {
                    first_error.get_or_insert(e);
                    finished += 1;
                    if finished < workers {
                        continue;
                    }
                    return match first_error {
                        Some(BackendError::TimedOut) | None => cut_short(best, found),
                        Some(e) => Err(e),
                    };
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    stop();
                    return cut_short(best, found);
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(failed("the solver thread stopped without an answer"))
                }
            }
        }
    }
}

impl Backend for Sat {
    /// Every kind: cages and variant rules are in the encoding ([`crate::sat::encode`]).
    fn takes(&self, _kind: ConstraintKind) -> bool {
        true
    }

    /// varisat counts its conflicts only through the proof it writes when metered
    /// ([`crate::sat::tally`]), which adds half or more to the time of a Killer solved in
    /// milliseconds.
    fn meter_slows(&self) -> bool {
        matches!(self.engine, EngineKind::Varisat)
    }

    fn name(&self) -> &'static str {
        match self.engine {
            EngineKind::Varisat => "sat",
            #[cfg(feature = "cadical")]
            EngineKind::Cadical => "cadical",
        }
    }

    fn solve(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Option<Grid>, BackendError> {
        let c = self.count(puzzle, 1, limits)?;
        Ok(c.witnesses.into_iter().next())
    }

    fn count(&self, puzzle: &Puzzle, limit: u64, limits: &Limits) -> Result<Count, BackendError> {
        match self.run(puzzle, Job::Count(limit), limits)? {
            Outcome::Count(c) => Ok(c),
            Outcome::Optimum(_) => Err(failed("internal: optimum for a count")),
        }
    }

    fn optimize(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Optimum, BackendError> {
        match self.run(puzzle, Job::Optimize, limits)? {
            Outcome::Optimum(o) => Ok(o),
            Outcome::Count(_) => Err(failed("internal: count for an optimum")),
        }
    }
}
