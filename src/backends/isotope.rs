//! `isotope`: the algebra of [`crate::isotope`] as a backend. It completes grids of the cyclic
//! pattern form that simple generators emit, answers `solve` only, and refuses what it cannot
//! complete; a refusal says nothing about the puzzle (see the engine's docs).

use crate::backend::{Backend, BackendError, Count, Limits, Optimum};
use crate::isotope::{self, IsotopeError};
use crate::model::{Grid, Puzzle};

pub use crate::isotope::MAX_FREE_ORDERS;

/// The `isotope` backend (see the module docs).
#[derive(Debug, Clone, Copy, Default)]
pub struct Isotope;

impl Isotope {
    pub fn new() -> Isotope {
        Isotope
    }
}

impl From<IsotopeError> for BackendError {
    fn from(e: IsotopeError) -> Self {
        match e {
            IsotopeError::TimedOut => BackendError::TimedOut,
            refused => BackendError::Unsupported(refused.to_string()),
        }
    }
}

impl Backend for Isotope {
    fn name(&self) -> &'static str {
        "isotope"
    }

    fn solve(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Option<Grid>, BackendError> {
        Ok(Some(isotope::complete(puzzle, &limits.halt())?))
    }

    fn count(&self, _: &Puzzle, _: u64, _: &Limits) -> Result<Count, BackendError> {
        Err(isotope::refuse(
            "it finds one solution by algebra and cannot count or prove uniqueness",
        )
        .into())
    }

    fn optimize(&self, _: &Puzzle, _: &Limits) -> Result<Optimum, BackendError> {
        Err(isotope::refuse("it finds one solution by algebra and cannot optimise").into())
    }
}
