//! Human-style logic: solve a puzzle step by step with named techniques, explain each step and
//! grade the puzzle, the way HoDoKu and Sudoku Explainer do.
//!
//! * [`Board`] holds the digits and the candidates of every cell over the shared model's houses
//!   (rows, columns, boxes or jigsaw regions, diagonals), for any side up to 64 (a cell's
//!   candidates are one `u64`).
//! * A *finder* reads a board and returns typed [`Step`] records (placements, eliminations and
//!   the cells, houses, digits, fins and chain that justify them) without applying them;
//!   [`Board::apply`] applies one. Text is rendered from the record afterwards ([`render`]).
//! * One table, [`table::TECHNIQUES`], lists every technique with its name, family, HoDoKu
//!   score and level and Sudoku Explainer rating, in HoDoKu's default order. A technique family
//!   is one file (`singles`, `intersections`, `subsets`, `fish`, `single_digit`, `wings`,
//!   `coloring` with `multi_colors`, `uniqueness`, `chains`, `als` with `als_chain` and
//!   `sue_de_coq`, `forcing`, `bifurcation`);
//!   [`finders`] ties each row to its family's finder. A new family adds a file, its rows and its line in [`finders`].
//! * [`solver`] applies the first step of a [`Ladder`] until the grid is full or nothing applies,
//!   and grades the path ([`Grade`]); [`verify`] checks every step of a path against the
//!   puzzle's solution.
//!
//! Killer cages and variant rules take part through [`rules`]: each constraint is a rule with
//! its own named deductions (one step a rule application, `[Killer cage r1c1 17] r1c2<>9`),
//! hidden singles and pointing from its groups of distinct digits, and the cells it keeps
//! distinct as peers on the board (which every technique's "sees" counts). The uniqueness
//! techniques stay off on such puzzles (a rule can break a rectangle's symmetry); the last
//! resort searches with the rules ([`rules::solvable_with`]).

pub mod als;
pub mod als_chain;
pub mod bifurcation;
pub mod board;
pub mod chains;
pub mod coloring;
pub mod finders;
pub mod fish;
pub mod forcing;
pub mod franken;
pub mod intersections;
pub mod links;
pub mod multi_colors;
pub mod origin;
pub mod render;
pub mod rules;
pub mod single_digit;
pub mod singles;
pub mod solver;
pub mod step;
pub mod subsets;
pub mod sue_de_coq;
pub mod table;
pub mod uniqueness;
pub mod verify;
pub mod wings;

pub use board::Board;
pub use solver::{grade, solve, Grade, Ladder, Level, SolveOutcome, SolveResult};
pub use step::{Candidate, Link, Node, Step};
pub use table::{Family, Technique, TechniqueInfo, TECHNIQUES};

/// Why the logic engine cannot take a puzzle or a request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LogicError {
    #[error("the logic engine handles sides up to 64, this grid has side {0}")]
    TooLarge(usize),
    #[error("unknown technique or family '{0}' (known: {known})", known = table::known_keys())]
    UnknownTechnique(String),
    #[error("no technique or family named (known: {known})", known = table::known_keys())]
    NoTechniques,
    #[error("the candidates at row {row}, column {col} do not fit the grid: {message}")]
    BadCandidates {
        row: usize,
        col: usize,
        message: String,
    },
    /// A filled grid that the independent checker ([`crate::check::verify`]) rejects: a defect
    /// of a finder, reported rather than printed as solved.
    #[error("the grid the steps filled fails the independent check: {0}")]
    Unchecked(crate::check::CheckFailure),
}

/// The first puzzle of magictour_top1465, which needs chains or forcing nets: the finders' tests
/// hold their steps against its solution.
#[cfg(test)]
pub(crate) fn hard_test_puzzle() -> crate::model::Puzzle {
    let line = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
    crate::format::read_puzzles(line, &Default::default())
        .remove(0)
        .unwrap()
        .puzzle
}
