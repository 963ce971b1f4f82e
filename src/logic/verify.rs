//! The step check: every step of a path, against the puzzle's solution. An elimination that
//! removes the solution's digit, or a placement of another digit, is a wrong step. The solution
//! comes from the caller (e.g. [`crate::task::unique_solution`]).

use std::fmt;

use super::step::{Candidate, Step};
use crate::model::Value;

/// A step that contradicts the solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrongStep {
    /// Index of the step in the path (from 0).
    pub index: usize,
    /// The candidate the step got wrong.
    pub candidate: Candidate,
    /// True for a wrong placement, false for an elimination of the solution's digit.
    pub placement: bool,
    /// The solution's digit in that cell.
    pub solution: Value,
}

impl fmt::Display for WrongStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = if self.placement { "places" } else { "removes" };
        write!(
            f,
            "step {} {what} {} in cell {} where the solution has {}",
            self.index + 1,
            self.candidate.digit,
            self.candidate.cell,
            self.solution
        )
    }
}

impl std::error::Error for WrongStep {}

/// Checks every step against `solution` (row-major digits).
pub fn check_path(solution: &[Value], steps: &[Step]) -> Result<(), WrongStep> {
    for (index, step) in steps.iter().enumerate() {
        let wrong = |candidate: Candidate, placement: bool| WrongStep {
            index,
            candidate,
            placement,
            solution: solution[candidate.cell as usize],
        };
        if let Some(&p) = step
            .placements
            .iter()
            .find(|p| solution[p.cell as usize] != p.digit)
        {
            return Err(wrong(p, true));
        }
        if let Some(&e) = step
            .eliminations
            .iter()
            .find(|e| solution[e.cell as usize] == e.digit)
        {
            return Err(wrong(e, false));
        }
    }
    Ok(())
}
