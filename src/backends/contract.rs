//! What every backend that counts its own branch points (`dfs`, `dlx`) must report, checked on
//! known puzzles; shared by their tests.

use std::sync::Arc;

use crate::backend::{Backend, Limits};
use crate::effort::Effort;
use crate::model::{Puzzle, Shape, Value, Weights};

/// Solved by naked and hidden singles.
pub const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// The first puzzle of forum_hardest_1106: one solution, found only by guessing.
pub const HARD: &str =
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";

/// The effort `call` reports to a fresh meter.
pub fn effort_of(call: impl FnOnce(&Limits)) -> Effort {
    let limits = Limits::none().metered();
    call(&limits);
    limits.effort()
}

/// A standard grid of side `n` from a line of digits and dots.
pub fn puzzle(n: usize, line: &str) -> Puzzle {
    let givens = line
        .bytes()
        .map(|b| if b == b'.' { 0 } else { (b - b'0') as Value })
        .collect();
    Puzzle::new(Arc::new(Shape::standard(n, false).unwrap()), givens).unwrap()
}

/// Guesses and nodes of `backend` on known puzzles: none and one where propagation settles
/// everything, some where it does not, the same figures for the same search, sums over the
/// calls of one meter, a node per solution of a full count, restarts said where a search
/// restarts (one solution of a 16×16), and the branch and bound's search when optimizing.
pub fn counts_branch_points(backend: &dyn Backend) {
    let count = |p: &Puzzle, limit: u64, l: &Limits| backend.count(p, limit, l).unwrap().count;
    let easy = puzzle(9, EASY);
    let e = effort_of(|l| assert_eq!(count(&easy, 2, l), 1));
    assert_eq!((e.guesses, e.nodes), (Some(0), Some(1)), "{e:?}");
    assert_eq!(
        (e.no_guess(), e.decisions, e.conflicts),
        (Some(true), None, None)
    );
    let hard = puzzle(9, HARD);
    let e = effort_of(|l| assert_eq!(count(&hard, 2, l), 1));
    assert!(e.guesses > Some(0) && e.nodes > e.guesses, "{e:?}");
    assert_eq!(e, effort_of(|l| assert_eq!(count(&hard, 2, l), 1)));
    let twice = effort_of(|l| {
        count(&hard, 2, l);
        count(&hard, 2, l);
    });
    let double = |x: Option<u64>| x.map(|x| 2 * x);
    assert_eq!(
        (twice.guesses, twice.nodes),
        (double(e.guesses), double(e.nodes))
    );
    // The empty 4×4, counted in full: each of its 288 solutions is a node of its own.
    let empty = puzzle(4, &".".repeat(16));
    let e = effort_of(|l| assert_eq!(count(&empty, 1000, l), 288));
    assert!(e.nodes > Some(288) && e.guesses > Some(0), "{e:?}");
    assert_eq!(e, effort_of(|l| assert_eq!(count(&empty, 1000, l), 288)));
    let empty16 = puzzle(16, &".".repeat(256));
    let e = effort_of(|l| assert_eq!(count(&empty16, 1, l), 1));
    assert!(e.restarts.is_some() && e.nodes > Some(0), "{e:?}");
    let weighted = empty.with_weights(Arc::new(Weights::pyramid(4))).unwrap();
    let e = effort_of(|l| {
        backend.optimize(&weighted, l).unwrap();
    });
    assert!(e.guesses > Some(0) && e.nodes > e.guesses, "{e:?}");
}
