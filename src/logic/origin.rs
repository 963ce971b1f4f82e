//! What a finder may keep from one board to the next (on one thread, along a solving path):
//! the puzzle a board reads its candidates by. Two boards of one [`Origin`] have the same
//! houses, peers and rules, so what a finder concluded on the first holds on the second where
//! their candidates agree.

use super::board::Board;
use crate::model::{Puzzle, Shape};

/// The shape and, on a puzzle with rules, the puzzle a board was built from.
#[derive(Debug, Clone)]
pub struct Origin {
    shape: Shape,
    puzzle: Option<Puzzle>,
}

impl Origin {
    pub fn of(board: &Board) -> Origin {
        Origin {
            shape: board.shape().clone(),
            puzzle: board.rule_puzzle().cloned(),
        }
    }

    /// True when `board` was built from this origin.
    pub fn holds(&self, board: &Board) -> bool {
        self.shape == *board.shape() && self.puzzle.as_ref() == board.rule_puzzle()
    }
}
