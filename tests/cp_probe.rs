//! The `cp` model's root domains after probing ([`sudoku_lab::propagate::probe`]) keep every digit of
//! every solution: each digit they leave out of a cell, given to that cell, makes a puzzle `dfs`
//! counts 0 solutions of; and `cp` counts as `dfs` does on puzzles with several solutions (the
//! published mixed kinds with givens taken away, and small grids with a rule of every kind).

#![cfg(feature = "cp")]
mod common;

use common::probe::{dfs_count, loosened, mixed, with_given};

use std::sync::Arc;

use sudoku_lab::backend::{Backend, Limits};
use sudoku_lab::backends::{self, BackendKind};
use sudoku_lab::cp::model::Root;
use sudoku_lab::cp::CpModel;
use sudoku_lab::model::{Puzzle, Value};

fn dfs() -> Box<dyn Backend> {
    backends::create(BackendKind::Dfs, &Default::default()).unwrap()
}

fn cp() -> Box<dyn Backend> {
    backends::create(BackendKind::Cp, &Default::default()).unwrap()
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
