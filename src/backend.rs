//! The one trait every solving backend implements, and the typed outcomes it returns.
//!
//! A backend answers three questions about a [`Puzzle`]: one solution ([`Backend::solve`]), how many
//! solutions up to a limit ([`Backend::count`], which also serves uniqueness with limit 2), and the
//! best weighted score ([`Backend::optimize`]). Backends never print and never check their own
//! answers: [`crate::task::run`] passes every answer through the independent checker in
//! [`crate::check`] before anyone sees it.
//!
//! A run stops at its deadline or, from another thread, through a [`Cancel`] flag in its
//! [`Limits`] ([`Limits::cancelled_by`]); either way it ends as [`BackendError::TimedOut`] (or a
//! count or optimum marked cut short), never as an answer. Engines that poll read both through
//! [`Halt`] ([`Limits::halt`]; it, [`Cancel`] and [`CANCEL_POLL`] live in [`crate::cancel`] and
//! are re-exported here); the others are stopped by their callbacks or by killing their process
//! (see each backend's docs).

//!
//! The answers and limits themselves ([`Limits`], [`Count`], [`Optimum`], [`BackendError`]) live
//! in [`crate::answer`], below both the engines and this trait, and are re-exported here.

pub use crate::answer::{enumerate, BackendError, Count, Limits, Optimum};
pub use crate::cancel::{Cancel, Halt, CANCEL_POLL};
use crate::model::{ConstraintKind, Grid, Puzzle};

/// A solving backend. One file per implementation under `src/backends/`; constructed only by
/// [`crate::backends::create`].
///
/// Call it through [`crate::task::run`], which checks every answer; calling the trait directly
/// gives unchecked answers.
///
/// ```
/// use std::sync::Arc;
/// use sudoku_lab::backend::{Backend, Limits};
/// use sudoku_lab::backends::{self, BackendKind};
/// use sudoku_lab::model::{Puzzle, Shape};
///
/// let empty = Puzzle::new(Arc::new(Shape::standard(4, false).unwrap()), vec![0; 16]).unwrap();
/// for kind in [BackendKind::Dfs, BackendKind::Dlx, BackendKind::Sat] {
///     let backend: Box<dyn Backend> = backends::create(kind, &Default::default()).unwrap();
///     let count = backend.count(&empty, 1000, &Limits::none()).unwrap();
///     assert_eq!((count.count, count.complete), (288, true), "{}", backend.name());
/// }
/// ```
pub trait Backend: Send + Sync {
    /// Short name, as given to `--backend`.
    fn name(&self) -> &'static str;

    /// One solution, or `None` when there is none.
    fn solve(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Option<Grid>, BackendError>;

    /// The number of solutions, stopping once `limit` (≥ 1) are found.
    fn count(&self, puzzle: &Puzzle, limit: u64, limits: &Limits) -> Result<Count, BackendError>;

    /// The maximum of `Σ weight × digit` over all solutions, using the puzzle's weights.
    /// Returns [`BackendError::Unsupported`] when the puzzle has no weights.
    fn optimize(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Optimum, BackendError>;

    /// Whether the backend reads constraints of `kind` among the puzzle's
    /// [`Puzzle::constraints`]. [`crate::task::run`] refuses, naming the kind, puzzles that carry
    /// a kind the backend does not take, so that a backend is never taken at its word on rules
    /// it does not see.
    fn takes(&self, kind: ConstraintKind) -> bool {
        let _ = kind;
        false
    }

    /// Whether a metered run ([`Limits::metered`]) takes noticeably longer than an unmetered
    /// one, because the engine does extra work to be counted. A timing (`bench`) then times an
    /// unmetered run and reads the effort from a second, metered one. Most engines keep their
    /// counters anyway: reading them is free.
    fn meter_slows(&self) -> bool {
        false
    }
}
