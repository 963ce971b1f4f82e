//! `dfs`: the bitmask depth-first search of [`crate::dfs`] as a backend. This file maps the
//! [`Backend`] questions to the engine's [`Job`]s and its [`Found`] to answers, reports its
//! effort to the limits' meter, and keeps the options (`--dfs-branch`); the search, its kernels,
//! bounds and propagators are the engine's.

use crate::backend::{Backend, BackendError, Count, Limits, Optimum};
use crate::dfs::{self, DfsError, Found, Job};
use crate::model::{ConstraintKind, Grid, Puzzle};

pub use crate::dfs::{kernel9_variant, DfsBranching, MAX_SIDE};

/// Options of the `dfs` backend.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DfsOptions {
    /// The branching rule of the generic kernel (`--dfs-branch`).
    pub branching: DfsBranching,
}

/// The bitmask search backend.
#[derive(Default)]
pub struct Dfs {
    options: DfsOptions,
}

impl From<DfsError> for BackendError {
    /// A puzzle the engine does not take is one this backend does not support.
    fn from(e: DfsError) -> Self {
        BackendError::Unsupported(e.to_string())
    }
}

impl Dfs {
    pub fn new() -> Dfs {
        Dfs::default()
    }

    /// The backend with these options.
    pub fn with_options(options: DfsOptions) -> Dfs {
        Dfs { options }
    }

    /// Runs `job` within `limits` and reports its effort to their meter.
    fn search(&self, puzzle: &Puzzle, job: Job, limits: &Limits) -> Result<Found, BackendError> {
        let found = dfs::search(puzzle, self.options.branching, job, &limits.halt())?;
        limits.record(&found.effort());
        Ok(found)
    }

    /// The search nodes that counting `puzzle`'s solutions up to `limit` visits (each node is one
    /// propagation to a fixpoint; 1 when the root settles everything), with no deadline. For
    /// measuring the search itself, as `examples/dfs_speed.rs` does.
    pub fn count_nodes(&self, puzzle: &Puzzle, limit: u64) -> Result<u64, BackendError> {
        let job = Job::Count {
            limit: limit.max(1),
        };
        Ok(self.search(puzzle, job, &Limits::none())?.nodes)
    }

    /// The candidates `dfs`'s own propagation leaves at the root of `puzzle`'s search, before its
    /// first branch ([`dfs::root_candidates`]): per cell (row-major), bit `d − 1` for digit `d`;
    /// `Ok(None)` when it meets a contradiction.
    pub fn root_candidates(&self, puzzle: &Puzzle) -> Result<Option<Vec<u64>>, BackendError> {
        Ok(dfs::root_candidates(puzzle)?)
    }
}

impl Backend for Dfs {
    /// Every kind: each form of [`crate::model::lower::Rules`] has its narrowing in the engine's
    /// variant propagators.
    fn takes(&self, _kind: ConstraintKind) -> bool {
        true
    }

    fn name(&self) -> &'static str {
        "dfs"
    }

    fn solve(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Option<Grid>, BackendError> {
        let c = self.count(puzzle, 1, limits)?;
        Ok(c.witnesses.into_iter().next())
    }

    fn count(&self, puzzle: &Puzzle, limit: u64, limits: &Limits) -> Result<Count, BackendError> {
        let limit = limit.max(1);
        let found = self.search(puzzle, Job::Count { limit }, limits)?;
        let n = puzzle.size();
        let witnesses = found
            .witnesses
            .into_iter()
            .map(|g| Grid::new(n, g))
            .collect();
        Ok(match found.timed_out {
            true if found.count == 0 => return Err(BackendError::TimedOut),
            true => Count::stopped(found.count, witnesses),
            false => Count::finished(found.count, limit, witnesses),
        })
    }

    fn optimize(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Optimum, BackendError> {
        let weights = puzzle
            .weights()
            .ok_or_else(|| BackendError::Unsupported("optimize needs weights".into()))?;
        let job = Job::Optimize {
            weights: weights.as_slice(),
            enumerate: true,
        };
        let found = self.search(puzzle, job, limits)?;
        let n = puzzle.size();
        Ok(match (found.best, found.timed_out) {
            (None, false) => Optimum::NoSolution,
            (None, true) => return Err(BackendError::TimedOut),
            (Some((score, v)), false) => Optimum::Optimal {
                score,
                grid: Grid::new(n, v),
            },
            (Some((score, v)), true) => Optimum::Incomplete {
                score,
                grid: Grid::new(n, v),
                bound: found.root_bound,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backends::contract::{self, effort_of, EASY};

    #[test]
    fn effort_counts_branch_points_and_nodes() {
        // The band kernel (9×9), the digit-major one (4×4) and the generic one (16×16, and
        // optimizing).
        contract::counts_branch_points(&Dfs::new());
        let e = effort_of(|l| {
            Dfs::new().count(&contract::puzzle(9, EASY), 2, l).unwrap();
        });
        assert_eq!(e.restarts, None, "the band kernel never restarts");
    }

    #[test]
    fn a_side_over_the_limit_is_unsupported() {
        let shape = std::sync::Arc::new(crate::model::Shape::standard(81, false).unwrap());
        let p = Puzzle::new(shape, vec![0; 81 * 81]).unwrap();
        let e = Dfs::new().solve(&p, &Limits::none()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "not supported by this backend: dfs handles sides up to 64, this grid has side 81"
        );
    }
}
