//! `cp`: the constraint-programming model of [`crate::cp`] solved in process by huub
//! ([`crate::cp::huub`]). This file only adapts it to [`Backend`]: options, the memory budget,
//! limits, and the mapping of answers.

use crate::backend::{Backend, BackendError, Count, Limits, Optimum};
use crate::cp::huub::{self, Best, Stop};
use crate::cp::{CpModel, CpOptions, DEFAULT_MEMORY_MIB};
use crate::model::{ConstraintKind, Grid, Puzzle};

/// Options of the `cp` backend (`--cp-alldiff`, `--cp-house-cover`, `--cp-branch`,
/// `--cp-memory-mib`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CpBackendOptions {
    /// How the model is handed to the solver.
    pub model: CpOptions,
    /// Refuse a puzzle whose solver would need more than this many MiB (estimated).
    pub memory_mib: u64,
}

impl Default for CpBackendOptions {
    fn default() -> Self {
        CpBackendOptions {
            model: CpOptions::default(),
            memory_mib: DEFAULT_MEMORY_MIB,
        }
    }
}

/// The `cp` backend.
#[derive(Debug, Clone, Default)]
pub struct Cp {
    options: CpBackendOptions,
}

impl Cp {
    pub fn new(options: CpBackendOptions) -> Cp {
        Cp { options }
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
}

fn stopped(stop: Stop) -> BackendError {
    match stop {
        Stop::Deadline => BackendError::TimedOut,
        Stop::Unsupported(why) => BackendError::Unsupported(why),
    }
}

impl Backend for Cp {
    fn name(&self) -> &'static str {
        "cp"
    }

    /// Every kind but sandwiches (see [`crate::cp::model`]).
    fn takes(&self, kind: ConstraintKind) -> bool {
        kind != ConstraintKind::Sandwich
    }

    fn solve(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Option<Grid>, BackendError> {
        let model = self.model(puzzle)?;
        let found = huub::solve(&model, &self.options.model, limits.deadline).map_err(stopped)?;
        Ok(found.map(|cells| Grid::new(model.n, cells)))
    }

    fn count(&self, puzzle: &Puzzle, limit: u64, limits: &Limits) -> Result<Count, BackendError> {
        let model = self.model(puzzle)?;
        let found =
            huub::count(&model, &self.options.model, limit, limits.deadline).map_err(stopped)?;
        let witnesses = found
            .solutions
            .into_iter()
            .map(|cells| Grid::new(model.n, cells))
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
        let best = huub::maximize(&model, &self.options.model, limits.deadline).map_err(stopped)?;
        Ok(match best {
            Best::NoSolution => Optimum::NoSolution,
            Best::Found {
                score,
                grid,
                proved: true,
            } => Optimum::Optimal {
                score,
                grid: Grid::new(model.n, grid),
            },
            Best::Found { score, grid, .. } => Optimum::Incomplete {
                score,
                grid: Grid::new(model.n, grid),
                bound: None,
            },
        })
    }
}
