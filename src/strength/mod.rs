//! Root strength: what each propagation level derives from a puzzle before any search.
//!
//! A *level* is a deduction procedure run once at the root, with no guess: the clause-list levels
//! of [`cnf`] (unit propagation, failed-literal probing, hyper-binary resolution over the lab's
//! own CNF, for any encoding) and the model levels of [`model`] (singles, locked candidates,
//! `dfs`'s and `cp`'s root propagation). Every level answers with one [`Root`]: whether it found
//! a contradiction, how many of the puzzle's open cells it left undecided and, for the CNF levels,
//! how many of the formula's variables it left unassigned. The `strength` command sums these over
//! files of puzzles (docs/strength.md).

pub mod cnf;
pub mod model;

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
