//! The brute force that the variant tests hold backends against, and the backends they ask.
//!
//! The brute force enumerates the grids that keep the givens and fill every house, and keeps
//! those that the one checker accepts: it shares nothing with the backends or with the lowering
//! of the rules (`model::lower`) that the backends use.

use sudoku_lab::backend::{Backend, Limits};
use sudoku_lab::backends::{self, BackendKind, BackendOptions};
use sudoku_lab::check;
use sudoku_lab::model::{ConstraintKind, Grid, Puzzle};
use sudoku_lab::sat::encode::{PairEncoding, SumEncoding};
use sudoku_lab::task::{self, Answer, Task};

/// A backend and its name in failure messages (with its options when it runs under several).
pub struct Counter {
    pub label: String,
    pub backend: Box<dyn Backend>,
}

impl Counter {
    pub fn new(kind: BackendKind, options: &BackendOptions, label: String) -> Counter {
        Counter {
            label,
            backend: backends::create(kind, options).unwrap(),
        }
    }
}

/// The backends that count quickly enough for brute-force comparisons (`ilp` counts hundreds of
/// solutions slowly; it gets its own, smaller cases: [`ilp_alone`]); `sat` under each of its
/// pair encodings, and under each sum encoding besides the default (`auto`, which is `order` on
/// grids this small).
pub fn counters() -> Vec<Counter> {
    let kinds = [
        BackendKind::Dfs,
        BackendKind::Dlx,
        BackendKind::Sat,
        #[cfg(feature = "cp")]
        BackendKind::Cp,
    ];
    let mut out = vec![];
    for kind in kinds {
        if kind != BackendKind::Sat {
            out.push(Counter::new(kind, &Default::default(), kind.to_string()));
            continue;
        }
        let mut forms = vec![];
        for pair in PairEncoding::ALL {
            let mut options = BackendOptions::default();
            options.sat.pair = pair;
            forms.push((format!("--pair-encoding {pair}"), options));
        }
        for sum in [SumEncoding::Adder, SumEncoding::Gte] {
            let mut options = BackendOptions::default();
            options.sat.sum = sum;
            forms.push((format!("--sum-encoding {sum}"), options));
        }
        for (flag, options) in forms {
            out.push(Counter::new(kind, &options, format!("{kind} {flag}")));
        }
    }
    out
}

/// `ilp` alone, for its small cases.
pub fn ilp_alone() -> Vec<Counter> {
    let kind = BackendKind::Ilp;
    vec![Counter::new(kind, &Default::default(), kind.to_string())]
}

/// Solutions of `puzzle` by brute force (houses, then the checker), up to `cap`.
pub fn brute_count(puzzle: &Puzzle, cap: u64) -> u64 {
    let shape = puzzle.shape();
    let fits = |grid: &[u16], cell: usize, v: u16| {
        shape.houses_of(cell).iter().all(|&h| {
            shape
                .house(h as usize)
                .iter()
                .all(|&c| c as usize == cell || grid[c as usize] != v)
        })
    };
    fn go(
        cell: usize,
        grid: &mut Vec<u16>,
        cap: u64,
        puzzle: &Puzzle,
        fits: &dyn Fn(&[u16], usize, u16) -> bool,
    ) -> u64 {
        let n = puzzle.size();
        if cell == grid.len() {
            let g = Grid::new(n, grid.clone());
            return check::verify(puzzle, &g).is_ok() as u64;
        }
        if puzzle.givens()[cell] != 0 {
            let v = grid[cell];
            return if fits(grid, cell, v) {
                go(cell + 1, grid, cap, puzzle, fits)
            } else {
                0
            };
        }
        let mut total = 0;
        for v in 1..=n as u16 {
            if fits(grid, cell, v) {
                grid[cell] = v;
                total += go(cell + 1, grid, cap - total, puzzle, fits);
                grid[cell] = 0;
                if total >= cap {
                    break;
                }
            }
        }
        total
    }
    let mut grid = puzzle.givens().to_vec();
    go(0, &mut grid, cap, puzzle, &fits)
}

/// Every backend of `backends` that takes the puzzle's kinds counts what the brute force counts.
pub fn agree_among(backends: &[Counter], puzzle: &Puzzle, cap: u64, what: &str) {
    let expected = brute_count(puzzle, cap);
    let kinds: Vec<ConstraintKind> = puzzle.constraints().iter().map(|c| c.kind()).collect();
    let mut asked = 0;
    for Counter { label, backend } in backends
        .iter()
        .filter(|c| kinds.iter().all(|&k| c.backend.takes(k)))
    {
        asked += 1;
        let answer = task::run(
            backend.as_ref(),
            puzzle,
            Task::Count { limit: cap },
            &Limits::none(),
        )
        .unwrap_or_else(|e| panic!("{what}: {label} failed: {e}"));
        let found = match answer {
            Answer::Counted { count, .. } => count,
            Answer::NoSolution => 0,
            other => panic!("{what}: {label} answered {other:?}"),
        };
        assert_eq!(
            found, expected,
            "{what}: {label} counts {found}, brute force {expected}"
        );
    }
    assert!(
        asked > 0 || kinds.is_empty(),
        "{what}: no backend takes {kinds:?}"
    );
}
