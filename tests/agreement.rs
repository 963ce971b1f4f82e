//! Every backend compiled in agrees with every other on generated puzzles — standard 4×4, 6×6 and
//! 9×9, jigsaw 9×9 and X-Sudoku 9×9 — for solve, count (limit 50), unique and optimize (pyramid
//! weights), judged by the same rules as `sudoku-lab xcheck` ([`sudoku_lab::xcheck::compare`]).
//!
//! A failure prints the puzzle in line format (jigsaw labels included) with the `xcheck` command
//! that replays it; proptest shrinks the case (fewer givens, smaller kinds) first.

use std::sync::Arc;
use std::time::Duration;

use proptest::prelude::*;
use sudoku_lab::backends::{self, BackendKind};
use sudoku_lab::format;
use sudoku_lab::generate::{blank_solved, random_jigsaw, GenRng};
use sudoku_lab::model::{Puzzle, Shape, Weights};
use sudoku_lab::task::Task;
use sudoku_lab::xcheck::{self, Verdict};

/// Generous per-backend limit: a time-out is not a disagreement, but it would hide one, so the
/// test fails on time-outs too.
const TIMEOUT: Duration = Duration::from_secs(20);

#[derive(Debug, Clone, Copy)]
enum Kind {
    Std4,
    Std6,
    Std9,
    Jigsaw9,
    X9,
}

fn puzzle(kind: Kind, seed: u64, keep_per_mille: usize) -> Puzzle {
    let mut rng = GenRng::seed(seed);
    let (shape, n) = match kind {
        Kind::Std4 => (Arc::new(Shape::standard(4, false).unwrap()), 4),
        Kind::Std6 => (Arc::new(Shape::standard(6, false).unwrap()), 6),
        Kind::Std9 => (Arc::new(Shape::standard(9, false).unwrap()), 9),
        Kind::X9 => (Arc::new(Shape::standard(9, true).unwrap()), 9),
        Kind::Jigsaw9 => (random_jigsaw(9, false, &mut rng).unwrap().0, 9),
    };
    let keep = n * n * keep_per_mille / 1000;
    let (p, _) = blank_solved(&shape, &mut rng, keep).unwrap();
    p.with_weights(Arc::new(Weights::pyramid(n))).unwrap()
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        Just(Kind::Std4),
        Just(Kind::Std6),
        Just(Kind::Std9),
        Just(Kind::Jigsaw9),
        Just(Kind::X9)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn all_backends_agree(kind in kind(), seed in any::<u64>(), keep in 250usize..700) {
        // 9×9 puzzles keep at least 45 % of their cells so that counting by re-solving (ilp)
        // stays quick; small grids go down to 25 %.
        let keep = match kind {
            Kind::Std4 | Kind::Std6 => keep,
            _ => keep.max(450),
        };
        let p = puzzle(kind, seed, keep);
        let backends: Vec<_> = BackendKind::all()
            .into_iter()
            .map(|k| backends::create(k, &Default::default()).unwrap())
            .collect();
        for task in [Task::Solve, Task::Count { limit: 50 }, Task::Unique, Task::Optimize] {
            let runs = xcheck::run_all(&backends, &p, task, Some(TIMEOUT), None);
            let verdict = xcheck::compare(task, &runs);
            let line = format::to_line(&p).unwrap();
            let replay = format!(
                "echo '{line}' | sudoku-lab xcheck --task {}{}{}",
                task.name(),
                if matches!(task, Task::Count { .. }) { " --limit 50" } else { "" },
                if p.shape().diagonals() { " --diagonals" } else { "" },
            );
            prop_assert!(
                !runs.iter().any(|r| r.timed_out()),
                "a backend timed out on {kind:?} {line}: replay with {replay}"
            );
            prop_assert_eq!(verdict, Verdict::Agreed, "{:?} puzzle {}: replay with {}", kind, line, replay);
        }
    }
}
