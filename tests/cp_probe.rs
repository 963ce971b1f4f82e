//! The `cp` model's root domains after probing ([`sudoku_lab::cp::probe`]) keep every digit of
//! every solution: each digit they leave out of a cell, given to that cell, makes a puzzle `dfs`
//! counts 0 solutions of; and `cp` counts as `dfs` does on puzzles with several solutions (the
//! published mixed kinds with givens taken away, and small grids with a rule of every kind).

#![cfg(feature = "cp")]
mod common;

use std::sync::Arc;

use sudoku_lab::backend::{Backend, Limits};
use sudoku_lab::backends::{self, BackendKind};
use sudoku_lab::cp::model::Root;
use sudoku_lab::cp::CpModel;
use sudoku_lab::model::{Puzzle, Value};

/// Puzzles of the published mixed set (quadruples, between lines, region sums, skyscrapers,
/// X-sums, clones), each with a unique solution: the first, fourth, sixth and fourteenth of
/// `sudoku-lab generate --variants quadruple,between-line,region-sum,skyscraper,x-sum,clone
/// --unique --seed 1 --count 20`. Probing settles all but the second (which takes the solver
/// thousands of conflicts).
fn mixed() -> Vec<Puzzle> {
    let text = std::fs::read_to_string("tests/data/cp/mixed-probe.jsonl").unwrap();
    sudoku_lab::format::read_puzzles(&text, &Default::default())
        .into_iter()
        .map(|e| e.unwrap().puzzle)
        .collect()
}

fn dfs() -> Box<dyn Backend> {
    backends::create(BackendKind::Dfs, &Default::default()).unwrap()
}

fn cp() -> Box<dyn Backend> {
    backends::create(BackendKind::Cp, &Default::default()).unwrap()
}

/// `dfs`'s complete count of `p`'s solutions (below `limit`).
fn dfs_count(p: &Puzzle, limit: u64) -> u64 {
    let c = dfs().count(p, limit, &Limits::none()).unwrap();
    assert!(c.complete, "dfs reached the limit {limit}");
    c.count
}

/// `p` with `digit` given in `cell`; `None` when the puzzle refuses it (a digit its house
/// already holds).
fn with_given(p: &Puzzle, cell: usize, digit: Value) -> Option<Puzzle> {
    let mut givens = p.givens().to_vec();
    givens[cell] = digit;
    Puzzle::new(Arc::clone(p.shape_arc()), givens)
        .ok()?
        .with_constraints(p.constraints().to_vec())
        .ok()
}

/// `p` with its givens taken away, last first, until it has at least two solutions.
fn loosened(p: &Puzzle) -> (Puzzle, u64) {
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

/// Asserts that every digit the root domains of `p`'s model leave out of an open cell is in
/// no solution; returns how many digits they left out.
fn assert_no_true_digit_removed(p: &Puzzle) -> usize {
    let masks = match CpModel::of(p).root {
        Root::Masks(masks) => masks,
        Root::NoSolution => {
            assert_eq!(dfs_count(p, 2), 0, "probing proved no solution");
            return p.givens().iter().filter(|&&g| g == 0).count();
        }
        Root::Givens => panic!("grids up to 128×128 have masks"),
    };
    let n = p.size();
    let mut removed = 0;
    for (c, &mask) in masks.iter().enumerate() {
        if p.givens()[c] != 0 {
            continue;
        }
        for d in (1..=n as Value).filter(|&d| mask & (1 << (d - 1)) == 0) {
            removed += 1;
            let Some(q) = with_given(p, c, d) else {
                continue;
            };
            assert_eq!(
                dfs_count(&q, 2),
                0,
                "digit {d} removed from cell {c}, yet it is in a solution"
            );
        }
    }
    removed
}

#[test]
fn probing_settles_the_mixed_puzzles_at_the_root() {
    // Unique puzzles: probing leaves every cell one digit, the solution's.
    for (i, p) in mixed().iter().enumerate().filter(|&(i, _)| i != 1) {
        let Root::Masks(masks) = CpModel::of(p).root else {
            panic!("puzzle {i}: no masks");
        };
        let open = masks.iter().filter(|m| m.count_ones() > 1).count();
        let solution = dfs().solve(p, &Limits::none()).unwrap().unwrap();
        for (c, (&m, &d)) in masks.iter().zip(solution.cells()).enumerate() {
            assert!(m & (1 << (d - 1)) != 0, "puzzle {i}: cell {c} lost {d}");
        }
        assert_eq!(open, 0, "puzzle {i}: {open} cells left open");
        // Answered from the root domains, without a solver.
        let by_cp = cp().count(p, 2, &Limits::none()).unwrap();
        assert_eq!((by_cp.count, by_cp.complete), (1, true), "puzzle {i}");
        assert_eq!(by_cp.witnesses, vec![solution.clone()], "puzzle {i}");
    }
}

#[test]
fn probing_keeps_every_solution_of_loosened_mixed_puzzles() {
    for (i, p) in mixed().iter().enumerate() {
        let (p, count) = loosened(p);
        let removed = assert_no_true_digit_removed(&p);
        assert!(removed > 0, "puzzle {i}: nothing removed");
        let by_cp = cp().count(&p, 100_000, &Limits::none()).unwrap();
        assert_eq!((by_cp.count, by_cp.complete), (count, true), "puzzle {i}");
    }
}

#[test]
fn probing_keeps_every_solution_of_small_grids_with_each_kind() {
    use sudoku_lab::generate::variants::{draw, drawn_kinds};
    use sudoku_lab::generate::{blank_solved, GenRng};
    use sudoku_lab::model::Shape;
    let shape = Arc::new(Shape::standard(6, false).unwrap());
    let (mut several, mut removed) = (0, 0);
    for (i, &kind) in drawn_kinds().iter().enumerate() {
        let mut rng = GenRng::seed(100 + i as u64);
        // Ten givens of a random grid and two rules of the kind that grid satisfies.
        let (blank, grid) = blank_solved(&shape, &mut rng, 10).unwrap();
        let rules = draw(kind, &shape, &grid, 2, &mut rng);
        let p = blank.with_constraints(rules).unwrap();
        let dfs_answer = dfs().count(&p, 100_000, &Limits::none()).unwrap();
        if !dfs_answer.complete {
            continue;
        }
        let count = dfs_answer.count;
        assert!(
            count >= 1,
            "{kind:?}: the grid the rules came from solves it"
        );
        several += usize::from(count >= 2);
        removed += assert_no_true_digit_removed(&p);
        let by_cp = cp().count(&p, 100_000, &Limits::none()).unwrap();
        assert_eq!((by_cp.count, by_cp.complete), (count, true), "{kind:?}");
    }
    assert!(
        several >= 10,
        "only {several} puzzles with several solutions"
    );
    assert!(removed > 0);
}
