//! Root strength: what each propagation level derives from a puzzle before any search.
//!
//! A *level* is a deduction procedure run once at the root, with no guess: the clause-list levels
//! of [`cnf`] (unit propagation, failed-literal probing, hyper-binary resolution over the lab's
//! own CNF, for any encoding), the model levels of [`model`] (singles, locked candidates,
//! `dfs`'s and `cp`'s root propagation) and the technique levels of [`technique`] (the logic
//! engine limited to cumulative technique families, run until nothing applies). Every level
//! answers with one [`Root`]: whether it found a contradiction, how many of the puzzle's open
//! cells it left undecided and, for the CNF levels, how many of the formula's variables it left
//! unassigned. The `strength` command sums these over files of puzzles ([`table`],
//! docs/strength.md) and crosses the weakest technique level that solves each puzzle with the
//! weakest propagation level that does ([`table::Study::cross`]).

pub mod cages;
pub mod cnf;
pub mod model;
pub mod table;
pub mod technique;

use crate::answer::BackendError;
use crate::logic::LogicError;

/// Why a level (or a cage comparison) cannot run on a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StrengthError {
    /// The side.
    #[error("model levels handle sides up to {max}, this grid has side {0}", max = model::MAX_SIDE)]
    ModelSide(usize),
    /// The side.
    #[error("cages are compared on sides up to 64, not {0}")]
    CageSide(usize),
    /// The givens already break a rule (the message says which cells).
    #[error("{0}")]
    Contradiction(String),
    #[error("the CP solver would need about {need_mib} MiB, over {limit_mib} MiB")]
    CpMemory { need_mib: u64, limit_mib: u64 },
    /// The engine refused the puzzle (the reason).
    #[error("{0}")]
    Refused(String),
    /// A backend's error (the formula would not fit in memory, `dfs` refused).
    #[error(transparent)]
    Backend(#[from] BackendError),
    #[error("stopped by a deadline")]
    Deadline,
    /// What the build lacks: "levels" or "methods".
    #[error("the cp {0} need a build with the `cp` feature")]
    NoCp(&'static str),
    /// The logic engine refused the puzzle (rules, a side over 64) or failed its own check.
    #[error(transparent)]
    Logic(#[from] LogicError),
    /// The study was cancelled before the puzzle started.
    #[error("cancelled")]
    Cancelled,
}

/// What one level derived from one puzzle at the root.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Root {
    /// The level proved that the puzzle has no solution.
    pub contradiction: bool,
    /// Cells without a given.
    pub open_cells: usize,
    /// Open cells whose digit the level left undecided (for the CNF levels: cells with at least
    /// one unassigned `x(cell, digit)` variable). 0 when [`Root::contradiction`] is set.
    pub unassigned_cells: usize,
    /// For the CNF levels, `(unassigned, total)` variables of the whole formula (cell variables,
    /// the givens' included, and every auxiliary variable of the encoding); `None` for the model
    /// levels.
    pub vars: Option<(usize, usize)>,
}

impl Root {
    /// Every cell decided, with no contradiction.
    pub fn solved(&self) -> bool {
        !self.contradiction && self.unassigned_cells == 0
    }
}

/// The figures of one row of the `strength` table: a level's [`Root`]s over many puzzles.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Summary {
    pub puzzles: usize,
    pub solved: usize,
    pub contradictions: usize,
    /// Puzzles neither solved nor refuted, over which the means below are taken.
    unsolved: usize,
    unassigned_cells_pct: f64,
    unassigned_vars_pct: f64,
    cnf: bool,
}

impl Summary {
    pub fn add(&mut self, root: &Root) {
        self.puzzles += 1;
        if root.contradiction {
            self.contradictions += 1;
        } else if root.solved() {
            self.solved += 1;
        } else {
            self.unsolved += 1;
            self.unassigned_cells_pct +=
                100.0 * root.unassigned_cells as f64 / root.open_cells.max(1) as f64;
            if let Some((free, total)) = root.vars {
                self.unassigned_vars_pct += 100.0 * free as f64 / total.max(1) as f64;
            }
        }
        self.cnf |= root.vars.is_some();
    }

    /// Solved puzzles (every cell decided, no contradiction), in % of the puzzles.
    pub fn solved_pct(&self) -> f64 {
        100.0 * self.solved as f64 / self.puzzles.max(1) as f64
    }

    /// The mean, over the puzzles neither solved nor refuted, of the % of their open cells left
    /// undecided; `None` when there are no such puzzles.
    pub fn unassigned_pct(&self) -> Option<f64> {
        (self.unsolved > 0).then(|| self.unassigned_cells_pct / self.unsolved as f64)
    }

    /// The mean, over the same puzzles, of the % of the formula's variables left unassigned
    /// (all of them, the givens' and the auxiliary ones included: [`Root::vars`]); `None` for a
    /// model level or when every puzzle was solved or refuted.
    pub fn unassigned_vars_pct(&self) -> Option<f64> {
        (self.cnf && self.unsolved > 0).then(|| self.unassigned_vars_pct / self.unsolved as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn means_are_over_the_unsolved_puzzles_only() {
        let mut s = Summary::default();
        let root = |unassigned_cells, free| Root {
            contradiction: false,
            open_cells: 50,
            unassigned_cells,
            vars: Some((free, 100)),
        };
        s.add(&root(0, 0));
        s.add(&root(10, 40));
        s.add(&root(20, 60));
        s.add(&Root {
            contradiction: true,
            ..root(0, 0)
        });
        assert_eq!((s.puzzles, s.solved, s.contradictions), (4, 1, 1));
        assert_eq!(s.solved_pct(), 25.0);
        assert_eq!(s.unassigned_pct(), Some(30.0));
        assert_eq!(s.unassigned_vars_pct(), Some(50.0));
    }
}
