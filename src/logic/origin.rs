//! What a finder may keep from one board to the next (on one thread, along a solving path):
//! the geometry a board reads its houses, peers and rules from. The boards of one solving path
//! share it, as do puzzles without rules of one shape solved in turn on one thread; two boards
//! of one [`Origin`] have the same houses, peers and rules, so what a finder concluded on the
//! first holds on the second where their candidates agree.

use std::sync::Arc;

use super::board::{Board, Geometry};
use super::step::Found;

/// The geometry a board was built from, held so that it cannot be freed and its address
/// reused by another while a finder keeps this.
#[derive(Clone)]
pub struct Origin(Arc<Geometry>);

impl std::fmt::Debug for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Origin({:p})", Arc::as_ptr(&self.0))
    }
}

impl Origin {
    pub fn of(board: &Board) -> Origin {
        Origin(board.geometry().clone())
    }

    /// True when `board` was built from this origin.
    pub fn holds(&self, board: &Board) -> bool {
        Arc::ptr_eq(&self.0, board.geometry())
    }
}

/// What a finder built from the last board it read, kept for the next finder asking on the
/// same board (same origin, same candidates): see [`kept_for`].
pub type Kept<T> = std::cell::RefCell<Option<(Origin, Vec<u64>, std::rc::Rc<T>)>>;

/// The value kept in `slot` when it was built for this board, else `build`'s, kept in turn.
pub fn kept_for<T>(
    slot: &'static std::thread::LocalKey<Kept<T>>,
    board: &Board,
    build: impl FnOnce() -> T,
) -> std::rc::Rc<T> {
    let cands: Vec<u64> = (0..board.values().len()).map(|c| board.cands(c)).collect();
    let hit = slot.with_borrow(|kept| match kept {
        Some((origin, was, value)) if origin.holds(board) && *was == cands => Some(value.clone()),
        _ => None,
    });
    hit.unwrap_or_else(|| {
        let value = std::rc::Rc::new(build());
        slot.with_borrow_mut(|kept| *kept = Some((Origin::of(board), cands, value.clone())));
        value
    })
}

/// The last board on which a finder found nothing, per thread: its origin and candidates
/// ([`since_clean`]).
pub type Clean = std::cell::RefCell<Option<(Origin, Vec<u64>)>>;

/// Runs `find` with, per cell, whether its candidates may differ from the last board on
/// which it found nothing (kept in `slot`), and keeps this board there when it finds nothing.
/// Every cell counts as changed unless `board` narrows that board (same origin, each cell's
/// candidates among the earlier ones).
///
/// A finder whose every pattern reads the candidates of a few cells only may skip the
/// patterns whose cells all kept their candidates: they were patterns there too, with the
/// same conclusions, none of which removed a candidate, so they give nothing now and the
/// steps found are the same.
pub fn since_clean(
    slot: &'static std::thread::LocalKey<Clean>,
    board: &Board,
    found: &mut Found,
    find: impl FnOnce(&[bool], &mut Found),
) {
    let last = slot.with(|c| c.borrow_mut().take());
    let cells = board.values().len();
    let changed: Vec<bool> = match &last {
        Some((origin, was))
            if origin.holds(board) && (0..cells).all(|c| board.cands(c) & !was[c] == 0) =>
        {
            (0..cells).map(|c| board.cands(c) != was[c]).collect()
        }
        _ => vec![true; cells],
    };
    let before = found.steps.len();
    find(&changed, found);
    if found.steps.len() == before {
        let origin = match last {
            Some((origin, _)) if origin.holds(board) => origin,
            _ => Origin::of(board),
        };
        let cands = (0..cells).map(|c| board.cands(c)).collect();
        slot.with(|c| *c.borrow_mut() = Some((origin, cands)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Cage, Constraint, Puzzle, Shape};

    fn puzzle(shape: Shape, cages: &[(&[u32], u32)]) -> Puzzle {
        let cells = shape.size() * shape.size();
        let cages = cages
            .iter()
            .map(|(c, s)| Constraint::Cage(Cage::new(c.to_vec(), *s)));
        Puzzle::new(Arc::new(shape), vec![0; cells])
            .unwrap()
            .with_constraints(cages.collect())
            .unwrap()
    }

    #[test]
    fn a_board_holds_only_for_its_own_geometry() {
        let plain = Board::new(&puzzle(Shape::standard(4, false).unwrap(), &[])).unwrap();
        let origin = Origin::of(&plain);
        assert!(origin.holds(&plain.clone()), "a board of the same path");
        // Puzzles without rules of one shape, in turn on one thread, share the geometry.
        let other = Board::new(&puzzle(Shape::standard(4, false).unwrap(), &[])).unwrap();
        assert!(origin.holds(&other));
        let diagonal = Board::new(&puzzle(Shape::standard(4, true).unwrap(), &[])).unwrap();
        assert!(!origin.holds(&diagonal), "other houses");
        // A puzzle with rules has its own, even with the same shape and rules as another.
        let caged = puzzle(Shape::standard(4, false).unwrap(), &[(&[0, 1], 3)]);
        let (a, b) = (Board::new(&caged).unwrap(), Board::new(&caged).unwrap());
        assert!(Origin::of(&a).holds(&a) && !Origin::of(&a).holds(&b));
        assert!(!origin.holds(&a), "other rules");
    }
}
