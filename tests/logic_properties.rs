//! Property test of the logic engine: on generated puzzles with one solution (4×4, 6×6, 8×8,
//! 9×9, jigsaw 9×9, X 9×9 and 16×16), the default ladder finishes the grid, and every step of
//! the path, with and without the uniqueness techniques, is true to the solution.

use proptest::prelude::*;
use sudoku_lab::backends::{create, BackendKind};
use sudoku_lab::generate::{GenerateOptions, Generator, PuzzleSpec};
use sudoku_lab::logic::verify::check_path;
use sudoku_lab::logic::{solve, Ladder, SolveOutcome};

/// (side, jigsaw, diagonals, givens to keep) of each layout.
const LAYOUTS: [(usize, bool, bool, Option<usize>); 7] = [
    (4, false, false, None),
    (6, false, false, None),
    (8, false, false, None),
    (9, false, false, None),
    (9, true, false, None),
    (9, false, true, None),
    (16, false, false, Some(150)),
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_step_is_true_to_the_solution(layout in 0..LAYOUTS.len(), seed in 0u64..1_000_000) {
        let (size, jigsaw, diagonals, givens) = LAYOUTS[layout];
        let spec = PuzzleSpec { jigsaw, diagonals, ..PuzzleSpec::new(size) };
        let opts = GenerateOptions { unique: true, seed, givens, ..GenerateOptions::of(spec) };
        let dfs = create(BackendKind::Dfs, &Default::default()).unwrap();
        let (puzzle, solution) = Generator::new(opts, dfs.as_ref())
            .unwrap()
            .generate_with_solution()
            .unwrap();
        for ladder in [Ladder::default(), Ladder::default().without_uniqueness()] {
            let result = solve(&puzzle, &ladder).unwrap();
            prop_assert_eq!(result.outcome, SolveOutcome::Solved);
            if let Err(wrong) = check_path(solution.cells(), &result.steps) {
                let step = &result.steps[wrong.index];
                let text = sudoku_lab::logic::render::text(puzzle.shape(), step);
                prop_assert!(false, "{wrong}: {text} ({step:?})");
            }
            prop_assert_eq!(result.board.values(), solution.cells());
        }
    }
}
