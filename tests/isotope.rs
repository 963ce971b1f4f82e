//! The `isotope` backend: algebraic completion of cyclic-pattern grids (solve only).

use std::process::Command;
use std::sync::Arc;

use sudoku_lab::backend::{BackendError, Limits};
use sudoku_lab::backends::{self, BackendKind};
use sudoku_lab::check;
use sudoku_lab::format::{self, ReadOptions};
use sudoku_lab::generate::{full_grid, GenRng};
use sudoku_lab::model::{Grid, Puzzle, Shape, Value};
use sudoku_lab::task::{self, Answer, RunError, Task};

fn isotope() -> Box<dyn sudoku_lab::backend::Backend> {
    backends::create(BackendKind::Isotope, &Default::default()).unwrap()
}

/// What a pattern generator makes: the grid `(b·(r mod b) + ⌊r/b⌋ + c) mod n`, rows shuffled
/// within bands and bands shuffled, the same for columns and stacks, digits relabelled; then a
/// fraction `holes` of the cells emptied at random, and whole columns `empty_cols` and rows
/// `empty_rows` emptied too.
fn pattern_puzzle(
    b: usize,
    holes: f64,
    empty_rows: &[usize],
    empty_cols: &[usize],
    seed: u64,
) -> Puzzle {
    let n = b * b;
    let mut rng = GenRng::seed(seed);
    let lines = |rng: &mut GenRng| {
        let mut groups: Vec<usize> = (0..b).collect();
        rng.shuffle(&mut groups);
        let mut order = Vec::with_capacity(n);
        for g in groups {
            let mut within: Vec<usize> = (0..b).collect();
            rng.shuffle(&mut within);
            order.extend(within.into_iter().map(|i| g * b + i));
        }
        order
    };
    let rows = lines(&mut rng);
    let cols = lines(&mut rng);
    let mut digits: Vec<Value> = (1..=n as Value).collect();
    rng.shuffle(&mut digits);
    let mut cells: Vec<Value> = (0..n * n)
        .map(|i| {
            let (r, c) = (rows[i / n], cols[i % n]);
            digits[(b * (r % b) + r / b + c) % n]
        })
        .collect();
    for (i, cell) in cells.iter_mut().enumerate() {
        let (r, c) = (i / n, i % n);
        if empty_rows.contains(&r)
            || empty_cols.contains(&c)
            || rng.below(1000) < (holes * 1000.0) as usize
        {
            *cell = 0;
        }
    }
    Puzzle::new(Arc::new(Shape::standard(n, false).unwrap()), cells).unwrap()
}

fn solve(puzzle: &Puzzle) -> Result<Answer, RunError> {
    task::run(isotope().as_ref(), puzzle, Task::Solve, &Limits::none())
}

fn assert_unsupported(result: Result<Answer, RunError>, words: &str) {
    match result {
        Err(RunError::Backend(BackendError::Unsupported(why))) => {
            assert!(why.contains(words), "{why}")
        }
        other => panic!("expected a refusal saying '{words}', got {other:?}"),
    }
}

#[test]
fn completes_shuffled_cyclic_patterns_with_holes_and_empty_lines() {
    for (b, seed) in [(3, 1), (4, 2), (4, 3), (5, 4), (6, 5), (7, 6)] {
        let n = b * b;
        // Two columns in different stacks and one row left without any given.
        let puzzle = pattern_puzzle(b, 0.35, &[n / 2], &[0, n - 1], seed);
        let grid = match solve(&puzzle) {
            Ok(Answer::Solved(grid)) => grid,
            other => panic!("{n}×{n}, seed {seed}: {other:?}"),
        };
        // task::run has already checked it; check again here, in the test's own words.
        check::verify(&puzzle, &grid).unwrap();
    }
}

#[test]
fn refuses_grids_of_other_forms() {
    let ready = Arc::new(Shape::standard(16, false).unwrap());
    let mut rng = GenRng::seed(11);
    let grid: Grid = full_grid(&ready, &mut rng).unwrap();
    // A random full grid is no isotope of Z_16: keep most of it and the method must refuse.
    let cells = grid
        .cells()
        .iter()
        .map(|&v| if rng.below(10) < 3 { 0 } else { v })
        .collect();
    let puzzle = Puzzle::new(ready, cells).unwrap();
    assert_unsupported(solve(&puzzle), "cyclic pattern");

    let empty = Puzzle::new(Arc::new(Shape::standard(9, false).unwrap()), vec![0; 81]).unwrap();
    assert_unsupported(solve(&empty), "no givens");
}

#[test]
fn refuses_every_task_but_solve() {
    let puzzle = pattern_puzzle(3, 0.3, &[], &[], 9);
    for t in [Task::Count { limit: 10 }, Task::Unique] {
        assert_unsupported(
            task::run(isotope().as_ref(), &puzzle, t, &Limits::none()),
            "cannot count",
        );
    }
}

/// `sudoku-225-1` (rkkautsar/sudoku-solver's data, copied into tests/data): no search backend
/// here, nor CaDiCaL or CryptoMiniSat in 10–15 minutes, finds its solution; its givens fit the pattern.
#[test]
fn solves_sudoku_225_1_from_the_command_line() {
    let path = format!(
        "{}/tests/data/large/sudoku-225-1.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let o = Command::new(env!("CARGO_BIN_EXE_sudoku-lab"))
        .args(["solve", "--backend", "isotope", "--output", "grid", &path])
        .output()
        .unwrap();
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let read = |text: &str| {
        let mut entries = format::read_puzzles(text, &ReadOptions::default());
        assert_eq!(entries.len(), 1);
        entries.pop().unwrap().unwrap().puzzle
    };
    let puzzle = read(&std::fs::read_to_string(&path).unwrap());
    let solved = read(&out);
    assert!(solved.givens().iter().all(|&v| v != 0), "a full grid");
    check::verify(&puzzle, &Grid::new(225, solved.givens().to_vec())).unwrap();
}
