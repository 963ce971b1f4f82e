//! The puzzles the root-probing tests share (`tests/cp_probe.rs`, `tests/sat_probe.rs`).

use std::sync::Arc;

use sudoku_lab::backend::Limits;
use sudoku_lab::backends::{self, BackendKind};
use sudoku_lab::model::{Puzzle, Value};

/// Puzzles of the published mixed set (quadruples, between lines, region sums, skyscrapers,
/// X-sums, clones), each with a unique solution: the first, fourth, sixth and fourteenth of
/// `sudoku-lab generate --variants quadruple,between-line,region-sum,skyscraper,x-sum,clone
/// --unique --seed 1 --count 20`. Probing settles all but the second (which takes the solver
/// thousands of conflicts).
pub fn mixed() -> Vec<Puzzle> {
    let text = std::fs::read_to_string("tests/data/cp/mixed-probe.jsonl").unwrap();
    sudoku_lab::format::read_puzzles(&text, &Default::default())
        .into_iter()
        .map(|e| e.unwrap().puzzle)
        .collect()
}

/// `dfs`'s complete count of `p`'s solutions (below `limit`).
pub fn dfs_count(p: &Puzzle, limit: u64) -> u64 {
    let dfs = backends::create(BackendKind::Dfs, &Default::default()).unwrap();
    let c = dfs.count(p, limit, &Limits::none()).unwrap();
    assert!(c.complete, "dfs reached the limit {limit}");
    c.count
}

/// `p` with `digit` given in `cell`; `None` when the puzzle refuses it (a digit its house
/// already holds).
pub fn with_given(p: &Puzzle, cell: usize, digit: Value) -> Option<Puzzle> {
    let mut givens = p.givens().to_vec();
    givens[cell] = digit;
    Puzzle::new(Arc::clone(p.shape_arc()), givens)
        .ok()?
        .with_constraints(p.constraints().to_vec())
        .ok()
}

/// `p` with its givens taken away, last first, until it has at least two solutions, and
/// their count.
pub fn loosened(p: &Puzzle) -> (Puzzle, u64) {
    let mut p = p.clone();
    loop {
        let count = dfs_count(&p, 100_000);
        if count >= 2 {
            return (p, count);
        }
        let last = p.givens().iter().rposition(|&g| g != 0).unwrap();
        p = with_given(&p, last, 0).unwrap();
    }
}
