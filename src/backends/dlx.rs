//! `dlx`: dancing-links exact cover as a backend. The engine is [`crate::exact_cover`] (Knuth's
//! Algorithm X) with its Sudoku matrix, singles pass, restarts and branch and bound in
//! [`crate::exact_cover::sudoku`]; this file keeps the options (`--dlx-memory-mib`), maps the
//! engine's answers to the [`Backend`]'s and reports its effort to the limits' meter.

use crate::backend::{Backend, BackendError, Count, Limits, Optimum};
use crate::effort::Effort;
use crate::exact_cover::sudoku::{self, CoverError, SudokuCover};
use crate::model::{ConstraintKind, Grid, Puzzle};

pub use crate::exact_cover::DEFAULT_MEMORY_LIMIT;

/// Options of the `dlx` backend.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DlxOptions {
    /// Largest matrix (in bytes, nodes and bookkeeping) the backend will build; larger puzzles are
    /// refused with [`BackendError::Unsupported`].
    pub memory_limit: usize,
}

impl Default for DlxOptions {
    fn default() -> Self {
        DlxOptions {
            memory_limit: DEFAULT_MEMORY_LIMIT,
        }
    }
}

/// The dancing-links backend.
#[derive(Debug, Clone, Default)]
pub struct Dlx {
    options: DlxOptions,
}

impl Dlx {
    pub fn new(options: DlxOptions) -> Dlx {
        Dlx { options }
    }

    fn engine(&self) -> SudokuCover {
        SudokuCover {
            memory_limit: self.options.memory_limit,
        }
    }
}

impl From<CoverError> for BackendError {
    fn from(e: CoverError) -> Self {
        match e {
            CoverError::Unsupported(why) => BackendError::Unsupported(why),
            CoverError::TimedOut => BackendError::TimedOut,
            matrix @ CoverError::Matrix(_) => BackendError::Failed(matrix.to_string()),
        }
    }
}

/// Runs `call` with a fresh effort, then reports that effort to `limits` whatever the outcome.
fn metered<T>(
    limits: &Limits,
    call: impl FnOnce(&mut Effort) -> Result<T, CoverError>,
) -> Result<T, BackendError> {
    let mut effort = Effort::default();
    let result = call(&mut effort);
    limits.record(&effort);
    Ok(result?)
}

impl Backend for Dlx {
    fn takes(&self, kind: ConstraintKind) -> bool {
        sudoku::takes(kind)
    }

    fn name(&self) -> &'static str {
        "dlx"
    }

    fn solve(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Option<Grid>, BackendError> {
        let c = self.count(puzzle, 1, limits)?;
        Ok(c.witnesses.into_iter().next())
    }

    fn count(&self, puzzle: &Puzzle, limit: u64, limits: &Limits) -> Result<Count, BackendError> {
        let halt = limits.halt();
        let c = metered(limits, |e| self.engine().count(puzzle, limit, &halt, e))?;
        Ok(match c.timed_out {
            true if c.count == 0 => return Err(BackendError::TimedOut),
            true => Count::stopped(c.count, c.witnesses),
            false => Count::finished(c.count, limit, c.witnesses),
        })
    }

    fn optimize(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Optimum, BackendError> {
        let w = puzzle
            .weights()
            .ok_or_else(|| BackendError::Unsupported("optimize needs weights".into()))?
            .as_slice();
        let halt = limits.halt();
        let b = metered(limits, |e| self.engine().optimize(puzzle, w, &halt, e))?;
        Ok(match (b.best, b.timed_out) {
            (None, false) => Optimum::NoSolution,
            (None, true) => return Err(BackendError::TimedOut),
            (Some((score, grid)), false) => Optimum::Optimal { score, grid },
            (Some((score, grid)), true) => Optimum::Incomplete {
                score,
                grid,
                bound: b.root_bound,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backends::contract::{self, effort_of};

    #[test]
    fn effort_counts_branch_points_and_nodes() {
        contract::counts_branch_points(&Dlx::default());
        // Proved unsolvable by the singles pass: no search at all.
        let clash = contract::puzzle(4, "......12.1...2..");
        let e = effort_of(|l| {
            assert_eq!(Dlx::default().count(&clash, 2, l).unwrap().count, 0);
        });
        assert_eq!((e.guesses, e.nodes), (Some(0), Some(0)));
    }

    #[test]
    fn over_the_memory_limit_is_unsupported() {
        let dlx = Dlx::new(DlxOptions { memory_limit: 1 });
        let empty = contract::puzzle(9, &".".repeat(81));
        let e = dlx.count(&empty, 2, &Limits::none()).unwrap_err();
        assert!(
            matches!(&e, BackendError::Unsupported(m) if m.contains("memory")),
            "{e}"
        );
    }
}
