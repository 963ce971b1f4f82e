//! Rule parameters at their extremes: for every kind that has a parameter (Kropki difference and
//! ratio, XV sums, their negative rules, whisper gaps, little killers, sandwiches, Killer cages)
//! and the kinds whose cells make the edge cases (arrows, thermometers), a puzzle on 4×4 and 6×6
//! read from the lab's JSON with a parameter of 0, 1, `n`, `n + 1`, `2n`, `u32::MAX`,
//! `i64::MAX`, a negative one or the grid's own (a Killer cage's negative or past-32-bit sum is
//! an error, as in the line format); every backend that takes the kind (`dfs`,
//! `dlx`, `sat` under each pair encoding, `ilp`, `cp`) counts what the brute force counts
//! (`tests/common/brute.rs`), says "no solution" to `solve` when there is none, and nothing
//! panics. A parameter no digits of any grid reach gives a warning that names the rule.

use std::sync::Arc;

use proptest::prelude::*;
use serde_json::{json, Value as J};
use sudoku_lab::backend::Limits;
use sudoku_lab::format::{read_puzzles, Entry};
use sudoku_lab::generate::{blank_solved, GenRng};
use sudoku_lab::model::{Grid, Puzzle, Shape};
use sudoku_lab::task::{self, Answer, Task};

mod common;
use common::brute::{agree_among, brute_count, counters, ilp_alone, Counter};

/// The kinds whose parameter (or cells) the tests push to the extremes.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Difference,
    Ratio,
    Sum,
    NegativeDifference,
    NegativeRatio,
    NegativeSum,
    Whisper,
    LittleKiller,
    Sandwich,
    Cage,
    Arrow,
    Thermo,
}

const KINDS: [Kind; 12] = [
    Kind::Difference,
    Kind::Ratio,
    Kind::Sum,
    Kind::NegativeDifference,
    Kind::NegativeRatio,
    Kind::NegativeSum,
    Kind::Whisper,
    Kind::LittleKiller,
    Kind::Sandwich,
    Kind::Cage,
    Kind::Arrow,
    Kind::Thermo,
];

/// Values past what any grid's digits reach, for a sum, ratio, difference or gap alike.
const PAST_EVERY_REACH: [i64; 4] = [2_147_483_650, u32::MAX as i64, 1 << 32, i64::MAX];

/// The parameters tried on a grid of side `n` (`None`: the grid's own value).
fn values(n: i64) -> Vec<Option<i64>> {
    let mut v: Vec<Option<i64>> = [0, 1, 2, n - 1, n, n + 1, 2 * n - 1, 2 * n, -1, i64::MIN]
        .into_iter()
        .chain(PAST_EVERY_REACH)
        .map(Some)
        .collect();
    v.push(None);
    v
}

/// `[ROW, COL]`, 1-based, of a cell.
fn rc(cell: usize, n: usize) -> J {
    json!([cell / n + 1, cell % n + 1])
}

/// The rule (or cage) of `kind` at row `r`, column `c` of the solved `grid`, with parameter
/// `value` (`None`: the value `grid` meets), as the lab's JSON: `("rules" or "cages", object)`.
fn rule(kind: Kind, grid: &Grid, r: usize, c: usize, value: Option<i64>) -> (&'static str, J) {
    let n = grid.size();
    let d = |cell: usize| grid.cells()[cell] as i64;
    let c = c % (n - 1); // room for a right-hand neighbour
    let (a, b) = (r * n + c, r * n + c + 1);
    let pair = json!([rc(a, n), rc(b, n)]);
    let (x, y) = (d(a).min(d(b)), d(a).max(d(b)));
    let own = |v: i64| value.unwrap_or(v);
    match kind {
        Kind::Difference => (
            "rules",
            json!({"kind": "kropki", "cells": pair, "difference": own(y - x)}),
        ),
        Kind::Ratio => {
            let ratio = if y % x == 0 { y / x } else { 2 };
            let ratio = own(ratio);
            (
                "rules",
                json!({"kind": "kropki", "cells": pair, "ratio": ratio}),
            )
        }
        Kind::Sum => (
            "rules",
            json!({"kind": "xv", "cells": pair, "sum": own(x + y)}),
        ),
        Kind::NegativeDifference => (
            "rules",
            json!({"kind": "negative", "difference": own(n as i64)}),
        ),
        Kind::NegativeRatio => (
            "rules",
            json!({"kind": "negative", "ratio": own(n as i64 + 1)}),
        ),
        Kind::NegativeSum => (
            "rules",
            json!({"kind": "negative", "sum": own(2 * n as i64)}),
        ),
        Kind::Whisper => (
            "rules",
            json!({"kind": "whisper", "cells": pair, "gap": own(y - x)}),
        ),
        Kind::LittleKiller => {
            let cells: Vec<usize> = (0..n - c).map(|i| i * n + c + i).collect();
            let sum = cells.iter().map(|&cell| d(cell)).sum();
            let cells: Vec<J> = cells.iter().map(|&cell| rc(cell, n)).collect();
            (
                "rules",
                json!({"kind": "little-killer", "cells": cells, "sum": own(sum)}),
            )
        }
        Kind::Sandwich => {
            let row: Vec<i64> = (0..n).map(|i| d(r * n + i)).collect();
            let one = row.iter().position(|&v| v == 1).unwrap();
            let top = row.iter().position(|&v| v == n as i64).unwrap();
            let sum = row[one.min(top) + 1..one.max(top)].iter().sum();
            (
                "rules",
                json!({"kind": "sandwich", "row": r + 1, "sum": own(sum)}),
            )
        }
        Kind::Cage => ("cages", json!({"cells": pair, "sum": own(x + y)})),
        // No parameter: the value picks the length of the line along the row (1 to n − 1
        // cells after the circle), and long ones no digits fill.
        Kind::Arrow => {
            let len = 1 + value.unwrap_or(0).rem_euclid(n as i64 - 1) as usize;
            let line: Vec<J> = (1..=len).map(|i| rc(r * n + i, n)).collect();
            (
                "rules",
                json!({"kind": "arrow", "circle": [rc(r * n, n)], "line": line}),
            )
        }
        // 1 to n cells along the row.
        Kind::Thermo => {
            let len = 1 + value.unwrap_or(n as i64 - 1).rem_euclid(n as i64) as usize;
            let cells: Vec<J> = (0..len).map(|i| rc(r * n + i, n)).collect();
            ("rules", json!({"kind": "thermo", "cells": cells}))
        }
    }
}

/// A solved grid of side `n` from `seed`, and a puzzle of it keeping `keep` givens and holding
/// one rule of `kind` with `value`, read from the lab's JSON; `None` for a Killer cage whose
/// sum the reader refuses (negative, or past 32 bits), as it must.
fn puzzle(
    n: usize,
    seed: u64,
    keep: usize,
    kind: Kind,
    at: (usize, usize),
    value: Option<i64>,
) -> Option<Entry> {
    let shape = Arc::new(Shape::standard(n, false).unwrap());
    let (puzzle, grid) = blank_solved(&shape, &mut GenRng::seed(seed), keep).unwrap();
    let board: Vec<Vec<String>> = puzzle
        .givens()
        .chunks(n)
        .map(|row| row.iter().map(|v| v.to_string()).collect())
        .collect();
    let (key, rule) = rule(kind, &grid, at.0 % n, at.1, value);
    let doc = json!({"board": board, key: [rule]});
    let mut read = read_puzzles(&doc.to_string(), &Default::default());
    assert_eq!(read.len(), 1);
    let read = read.remove(0);
    // A Killer cage's sum is read as the line format reads it: from 0 to u32::MAX, else an error.
    if matches!(kind, Kind::Cage) && value.is_some_and(|v| u32::try_from(v).is_err()) {
        let e = read.expect_err(&format!("{value:?} on {doc}"));
        let words = ["negative cage sum", "out of range"];
        assert!(words.iter().any(|w| e.message.contains(w)), "{e}");
        return None;
    }
    Some(read.unwrap_or_else(|e| panic!("{kind:?} {value:?} on {doc}: {e}")))
}

/// `solve` answers "no solution" exactly when the brute force finds none.
fn solve_agrees(backends: &[Counter], puzzle: &Puzzle, solutions: u64, what: &str) {
    let kinds: Vec<_> = puzzle.constraints().iter().map(|c| c.kind()).collect();
    for Counter { label, backend } in backends
        .iter()
        .filter(|c| kinds.iter().all(|&k| c.backend.takes(k)))
    {
        let answer = task::run(backend.as_ref(), puzzle, Task::Solve, &Limits::none())
            .unwrap_or_else(|e| panic!("{what}: {label} failed: {e}"));
        let none = matches!(answer, Answer::NoSolution);
        assert_eq!(none, solutions == 0, "{what}: {label} answered {answer:?}");
    }
}

/// Every backend agrees with the brute force on the puzzle; a value past every reach gives a
/// warning and no solution.
fn check(n: usize, seed: u64, keep: usize, kind: Kind, at: (usize, usize), value: Option<i64>) {
    let Some(entry) = puzzle(n, seed, keep, kind, at, value) else {
        return;
    };
    let what = format!("{n}×{n} seed {seed}, {kind:?} {value:?}");
    let mut backends = counters();
    backends.extend(ilp_alone());
    let cap = 40;
    let solutions = brute_count(&entry.puzzle, cap);
    agree_among(&backends, &entry.puzzle, cap, &what);
    solve_agrees(&backends, &entry.puzzle, solutions, &what);
    let has_param = !matches!(kind, Kind::Arrow | Kind::Thermo);
    let negative = matches!(
        kind,
        Kind::NegativeDifference | Kind::NegativeRatio | Kind::NegativeSum
    );
    // A negative rule of a dot no neighbours meet asks nothing, without a warning.
    if has_param && !negative && value.is_some_and(|v| PAST_EVERY_REACH.contains(&v) || v < 0) {
        let said: Vec<String> = entry.warnings.iter().map(|w| w.message.clone()).collect();
        assert!(
            said.iter()
                .any(|w| w.contains("asks nothing") || w.contains("out of reach")),
            "{what}: no warning names the rule: {said:?}"
        );
        if !matches!(kind, Kind::Whisper if value < Some(0)) {
            assert_eq!(solutions, 0, "{what}");
        }
    }
}

fn cases(n: usize) -> impl Strategy<Value = (u64, usize, usize, usize, usize)> {
    let v = values(n as i64).len();
    (any::<u64>(), 0..KINDS.len(), 0..v, 0..n, 0..n)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn extreme_parameters_on_4x4((seed, k, v, r, c) in cases(4)) {
        check(4, seed, 3, KINDS[k], (r, c), values(4)[v]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn extreme_parameters_on_6x6((seed, k, v, r, c) in cases(6)) {
        check(6, seed, 18, KINDS[k], (r, c), values(6)[v]);
    }
}

/// Every kind meets every value at least once on each side, whatever proptest draws.
#[test]
fn every_kind_meets_every_value() {
    for n in [4, 6] {
        for (i, kind) in KINDS.into_iter().enumerate() {
            for (j, value) in values(n as i64).into_iter().enumerate() {
                let seed = (i * 31 + j) as u64;
                let keep = if n == 4 { 3 } else { 20 };
                check(n, seed, keep, kind, (i + j, i * j), value);
            }
        }
    }
}

/// A thermometer longer than the side, a parameter past `i64` or text: input errors, not panics.
#[test]
fn what_cannot_be_read_is_an_error() {
    let board = json!([
        [".", ".", ".", "."],
        [".", ".", ".", "."],
        [".", ".", ".", "."],
        [".", ".", ".", "."]
    ]);
    let read = |rules: J| {
        let doc = json!({"board": board, "rules": rules}).to_string();
        read_puzzles(&doc, &Default::default()).remove(0)
    };
    let e = read(json!([{"kind": "kropki", "cells": [[1, 1], [1, 2]], "ratio": 99999999999999999999u128 as f64}]))
        .unwrap_err();
    assert!(e.message.contains("out of range"), "{e}");
    let e =
        read(json!([{"kind": "kropki", "cells": [[1, 1], [1, 2]], "ratio": "abc"}])).unwrap_err();
    assert!(e.message.contains("not a whole number"), "{e}");
    let cells: Vec<J> = (1..=4)
        .map(|c| json!([1, c]))
        .chain([json!([2, 4])])
        .collect();
    let e = read(json!([{"kind": "thermo", "cells": cells}])).unwrap_err();
    assert!(e.message.contains("a thermometer of 5 cells"), "{e}");
}
