//! `cp`: the constraint-programming model of [`crate::cp`] solved by huub ([`crate::cp::huub`]).
//! This file only adapts it to [`Backend`]: options, the memory limit, limits, the mapping of
//! answers, and where the search runs. By default in the calling thread; with
//! [`CpBackendOptions::worker`] (the `sudoku-lab` command's default) in a worker process
//! ([`crate::isolate`]) that runs [`serve_worker`], because huub 100.1 can crash inside CaDiCaL
//! (docs/backends.md). There a crash, a panic or a hang costs one puzzle, not the run; a crash or
//! a panic is retried in other forms before it is reported. A cancel flag ([`Limits::cancel`])
//! stops the search through huub's terminate callback in this thread, or kills the worker.
//!
//! Effort: huub's counters of the form that answered ([`huub::search_effort`]) come back with
//! the answer, across the worker protocol too (the `effort` of its answer), and are recorded to the
//! caller's [`Limits`]; so are those of a search stopped by the deadline. A form that crashed
//! leaves none.

use std::time::Instant;

use crate::backend::{Backend, BackendError, Count, Limits, Optimum};
use crate::check;
use crate::cp::huub::{self, Best, Stop};
use crate::cp::model::Root;
use crate::cp::worker::{answer, retries, Job, Reply, Request};
use crate::cp::{CpModel, CpOptions, DEFAULT_MEMORY_MIB};
use crate::isolate::{self, Pulse, WorkerProgram};
use crate::model::{ConstraintKind, Grid, Puzzle, Value};

pub use crate::cp::worker::serve_worker;

/// Options of the `cp` backend (`--cp-alldiff`, `--cp-house-cover`, `--cp-branch`,
/// `--cp-searches`, `--allow-unsound`, `--cp-memory-mib`, `--cp-in-process`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CpBackendOptions {
    /// How the model is handed to the solver.
    pub model: CpOptions,
    /// Refuse a puzzle whose solver would need more than this many MiB (estimated).
    pub memory_mib: u64,
    /// Run each search in a worker process started from this program (which must run
    /// [`serve_worker`]), so that a crash or a hang of the solver is a failure of one puzzle;
    /// `None` (the default) runs it in the calling thread.
    pub worker: Option<WorkerProgram>,
}

impl Default for CpBackendOptions {
    fn default() -> Self {
        CpBackendOptions {
            model: CpOptions::default(),
            memory_mib: DEFAULT_MEMORY_MIB,
            worker: None,
        }
    }
}

/// The `cp` backend.
#[derive(Debug, Clone, Default)]
pub struct Cp {
    options: CpBackendOptions,
}

impl Cp {
    /// The backend with `options`; an error when they ask for an unsound setting without
    /// allowing it ([`CpOptions::check`]).
    pub fn new(options: CpBackendOptions) -> Result<Cp, BackendError> {
        options
            .model
            .check()
            .map_err(|e| BackendError::Unsupported(e.to_string()))?;
        Ok(Cp { options })
    }

    fn model(&self, puzzle: &Puzzle) -> Result<CpModel, BackendError> {
        let model = CpModel::of(puzzle);
        let need = huub::estimate_bytes(&model, &self.options.model);
        let budget = self.options.memory_mib.saturating_mul(1 << 20);
        if need > budget {
            return Err(BackendError::Unsupported(format!(
                "the CP solver would need about {} MiB, over the {} MiB budget (--cp-memory-mib)",
                need.div_ceil(1 << 20),
                self.options.memory_mib
            )));
        }
        Ok(model)
    }

    /// Runs `job` on `model`. With a worker program, it runs in this thread's worker process,
    /// and a crash or panic there is retried in the forms [`retries`] lists: huub 100.1's
    /// crashes depend on the form of the model and of the search, and every form has the same
    /// solutions. Only when every form has crashed is it a solver failure, naming each crash. A
    /// worker killed by the watchdog for silence is a solver failure at once (a hang is not
    /// retried: it would cost the watchdog's limit again per form).
    /// The effort of the answering form is recorded to `limits`.
    fn drive(&self, model: CpModel, job: Job, limits: &Limits) -> Result<Reply, BackendError> {
        let deadline = limits.deadline;
        let time_left = || deadline.map(|d| d.saturating_duration_since(Instant::now()));
        let mut request = Request {
            model,
            options: self.options.model,
            job,
            time_left: time_left(),
        };
        let answer = if let Some(worker) = &self.options.worker {
            let mut crashes = Vec::new();
            let mut answer = None;
            for options in retries(self.options.model) {
                request.options = options;
                request.time_left = time_left();
                let form = format!(
                    "{} searches, house cover {}, all-different {}, branching {}{}",
                    options.searches.name(),
                    options.house_cover.name(),
                    options.alldiff.name(),
                    options.branching.name(),
                    if options.drop_fixed {
                        ", fixed cells out of the all-differents"
                    } else {
                        ""
                    }
                );
                match isolate::call_until(worker, &request, &limits.halt()) {
                    Ok(found) => {
                        answer = Some(found);
                        break;
                    }
                    Err(isolate::Crash::Killed) => return Err(BackendError::TimedOut),
                    Err(crash @ isolate::Crash::Silent(_)) => {
                        crashes.push(format!("{form}: {crash}"));
                        break;
                    }
                    Err(crash) => crashes.push(format!("{form}: {crash}")),
                }
            }
            answer.ok_or_else(|| BackendError::Failed(format!("huub: {}", crashes.join("; "))))?
        } else {
            answer(request, &Pulse::none(), limits.cancel.clone())
        };
        limits.record(&answer.effort);
        answer.reply.map_err(|stop| match stop {
            Stop::Deadline => BackendError::TimedOut,
            Stop::Unsupported(why) => BackendError::Unsupported(why),
        })
    }
}

/// The answer the model's root domains already give, without building a solver: `Some(None)`
/// when they prove there is no solution, `Some(Some(grid))` when they leave every cell one digit
/// and that grid satisfies every rule (checked by [`crate::check::verify`]: the root deductions
/// need not see every rule whole), `None` when cells are left open for the search. An answer
/// records the effort of no search to `limits`.
fn settled(puzzle: &Puzzle, model: &CpModel, limits: &Limits) -> Option<Option<Grid>> {
    let masks = match &model.root {
        Root::NoSolution => {
            limits.record(&huub::no_search());
            return Some(None);
        }
        Root::Givens => return None,
        Root::Masks(masks) => masks,
    };
    let cells = masks
        .iter()
        .map(|&m| (m.count_ones() == 1).then(|| m.trailing_zeros() as Value + 1))
        .collect::<Option<Vec<Value>>>()?;
    let grid = Grid::new(model.n, cells);
    limits.record(&huub::no_search());
    Some(check::verify(puzzle, &grid).is_ok().then_some(grid))
}

/// A reply of another kind than the request's job: the worker's protocol broke.
fn mismatched(reply: Reply) -> BackendError {
    BackendError::Failed(format!(
        "huub: the worker answered another task ({reply:?})"
    ))
}

impl Backend for Cp {
    fn name(&self) -> &'static str {
        "cp"
    }

    /// Every kind.
    fn takes(&self, _kind: ConstraintKind) -> bool {
        true
    }

    fn solve(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Option<Grid>, BackendError> {
        let model = self.model(puzzle)?;
        if let Some(found) = settled(puzzle, &model, limits) {
            return Ok(found);
        }
        let n = model.n;
        match self.drive(model, Job::Solve, limits)? {
            Reply::Solved(found) => Ok(found.map(|cells| Grid::new(n, cells))),
            other => Err(mismatched(other)),
        }
    }

    fn count(&self, puzzle: &Puzzle, limit: u64, limits: &Limits) -> Result<Count, BackendError> {
        let model = self.model(puzzle)?;
        if let Some(found) = settled(puzzle, &model, limits) {
            let witnesses: Vec<Grid> = found.into_iter().collect();
            return Ok(Count::finished(witnesses.len() as u64, limit, witnesses));
        }
        let n = model.n;
        let found = match self.drive(model, Job::Count(limit), limits)? {
            Reply::Counted(found) => found,
            other => return Err(mismatched(other)),
        };
        let witnesses = found
            .solutions
            .into_iter()
            .map(|cells| Grid::new(n, cells))
            .collect();
        Ok(match found.stopped {
            true => Count::stopped(found.count, witnesses),
            false => Count::finished(found.count, limit, witnesses),
        })
    }

    fn optimize(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Optimum, BackendError> {
        if puzzle.weights().is_none() {
            return Err(BackendError::Unsupported("optimize needs weights".into()));
        }
        let model = self.model(puzzle)?;
        if let (Some(found), Some(weights)) = (settled(puzzle, &model, limits), puzzle.weights()) {
            return Ok(match found {
                None => Optimum::NoSolution,
                Some(grid) => Optimum::Optimal {
                    score: weights.score(&grid),
                    grid,
                },
            });
        }
        let n = model.n;
        let best = match self.drive(model, Job::Maximize, limits)? {
            Reply::Best(best) => best,
            other => return Err(mismatched(other)),
        };
        Ok(match best {
            Best::NoSolution => Optimum::NoSolution,
            Best::Found {
                score,
                grid,
                proved: true,
            } => Optimum::Optimal {
                score,
                grid: Grid::new(n, grid),
            },
            Best::Found { score, grid, .. } => Optimum::Incomplete {
                score,
                grid: Grid::new(n, grid),
                bound: None,
            },
        })
    }
}
