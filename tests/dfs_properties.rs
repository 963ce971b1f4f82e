//! Property tests of the `dfs` backend: puzzles made by blanking random cells of a solved grid
//! (standard 4×4, 6×6, 9×9 and a jigsaw 9×9, solved grid relabelled by a random digit permutation)
//! must be solved with their givens kept, counted (at least one solution), classified the same way
//! by `count` and `unique`, and optimized at least as well as the grid they came from. Every task
//! runs through `task::run`, so the independent checker verifies each answer.

mod dfs_common;

use std::sync::Arc;
use std::time::Duration;

use dfs_common::*;
use proptest::prelude::*;
use sudoku_lab::backend::Limits;
use sudoku_lab::backends::{create, BackendKind};
use sudoku_lab::model::{Grid, Shape, Value, Weights};
use sudoku_lab::task::{run, Answer, Task};

/// The four layouts under test.
fn shapes() -> Vec<Arc<Shape>> {
    vec![standard(4), standard(6), standard(9), jigsaw9()]
}

/// A solved grid of `shape`: dfs's solution of the empty grid, digits relabelled by `perm`.
fn solved(shape: &Arc<Shape>, perm: &[Value]) -> Vec<Value> {
    let dfs = create(BackendKind::Dfs, &Default::default()).unwrap();
    let empty = puzzle(shape, vec![0; shape.cells()]);
    let Answer::Solved(g) = run(dfs.as_ref(), &empty, Task::Solve, &Limits::none()).unwrap() else {
        panic!("the empty grid has a solution");
    };
    g.cells().iter().map(|&v| perm[v as usize - 1]).collect()
}

fn case() -> impl Strategy<Value = (usize, Vec<Value>, Vec<bool>, Vec<i64>)> {
    (0..4usize).prop_flat_map(|layout| {
        let n = [4, 6, 9, 9][layout];
        let perm = Just((1..=n as Value).collect::<Vec<_>>()).prop_shuffle();
        // Blank between a third and all of the cells.
        let blanks = (1u32..=3).prop_flat_map(move |k| {
            proptest::collection::vec(proptest::bool::weighted(k as f64 / 3.0), n * n)
        });
        let weights = proptest::collection::vec(-20i64..=20, n * n);
        (Just(layout), perm, blanks, weights)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn blanked_solutions_are_found_counted_and_optimized(
        (layout, perm, blank, weights) in case()
    ) {
        let shape = &shapes()[layout];
        let n = shape.size();
        let full = solved(shape, &perm);
        let givens: Vec<Value> = full
            .iter()
            .zip(&blank)
            .map(|(&v, &b)| if b { 0 } else { v })
            .collect();
        let p = puzzle(shape, givens);
        let dfs = create(BackendKind::Dfs, &Default::default()).unwrap();
        let none = Limits::none();

        let solved = run(dfs.as_ref(), &p, Task::Solve, &none).unwrap();
        prop_assert!(matches!(solved, Answer::Solved(_)), "{solved:?}");

        let (count, complete) = run(dfs.as_ref(), &p, Task::Count { limit: 500 }, &none)
            .unwrap()
            .count()
            .unwrap();
        prop_assert!(count >= 1);
        let unique = run(dfs.as_ref(), &p, Task::Unique, &none).unwrap();
        let is_unique = count == 1 && complete;
        prop_assert_eq!(matches!(unique, Answer::Unique(_)), is_unique);
        prop_assert_eq!(matches!(unique, Answer::Multiple(..)), !is_unique);
        if let Answer::Unique(g) = &unique {
            prop_assert_eq!(g, &Grid::new(n, full.clone()));
        }

        // Optimize: never below the grid the puzzle came from; an incomplete answer's bound is
        // an upper bound, so it is not below it either.
        let w = Arc::new(Weights::new(n, weights.clone()).unwrap());
        let original = w.score(&Grid::new(n, full.clone()));
        let p = p.with_weights(w).unwrap();
        let limits = Limits::timeout(Duration::from_secs(2));
        match run(dfs.as_ref(), &p, Task::Optimize, &limits) {
            Ok(Answer::Optimum { score, proved: true, .. }) => prop_assert!(score >= original),
            Ok(Answer::Optimum { bound: Some(b), .. }) => prop_assert!(b >= original),
            Err(e) => prop_assert!(e.to_string().contains("timed out"), "{e}"),
            other => prop_assert!(false, "unexpected optimize answer {other:?}"),
        }
    }
}
