//! The `sat` backend's root pass on puzzles with variant rules ([`sudoku_lab::propagate::probe`],
//! shared with `cp`): the encoding of a probed root has fewer cell variables, settles the
//! published mixed puzzles outright, and never loses a solution: `sat` counts what `dfs` counts,
//! with and without the pass, on those puzzles with givens taken away.

mod common;

use common::probe::{loosened, mixed};

use sudoku_lab::backend::{Backend, Limits};
use sudoku_lab::backends::{self, BackendKind, BackendOptions};
use sudoku_lab::model::Puzzle;
use sudoku_lab::sat::encode::{encode, EncodeOptions, Numbering, Part};
use sudoku_lab::sat::options::SatOptions;
use sudoku_lab::sat::Cnf;

fn backend(kind: BackendKind, no_probe: bool) -> Box<dyn Backend> {
    let options = BackendOptions {
        sat: SatOptions {
            probe: !no_probe,
            ..Default::default()
        },
        ..Default::default()
    };
    backends::create(kind, &options).unwrap()
}

/// The cell variables the encoding leaves to the solver.
fn cell_vars(p: &Puzzle, probe: bool) -> u64 {
    let opts = EncodeOptions {
        propagate: true,
        probe,
        ..Default::default()
    };
    let mut cnf = Cnf::new();
    encode(p, &opts, Numbering::Compact, &mut cnf)
        .stats
        .part(Part::CellVars)
        .vars
}

#[test]
fn the_root_pass_settles_the_mixed_puzzles() {
    for (i, p) in mixed().iter().enumerate() {
        let (with, without) = (cell_vars(p, true), cell_vars(p, false));
        assert!(
            with < without,
            "puzzle {i}: {with} cell variables against {without}"
        );
        if i != 1 {
            assert_eq!(with, 0, "puzzle {i}: cells left to the solver");
        }
        let solution = backend(BackendKind::Dfs, false)
            .solve(p, &Limits::none())
            .unwrap();
        let by_sat = backend(BackendKind::Sat, false)
            .count(p, 2, &Limits::none())
            .unwrap();
        assert_eq!((by_sat.count, by_sat.complete), (1, true), "puzzle {i}");
        assert_eq!(by_sat.witnesses.first(), solution.as_ref(), "puzzle {i}");
    }
}

#[test]
fn the_root_pass_keeps_every_solution() {
    for (i, p) in mixed().iter().enumerate() {
        let (p, count) = loosened(p);
        for no_probe in [false, true] {
            let by_sat = backend(BackendKind::Sat, no_probe)
                .count(&p, 100_000, &Limits::none())
                .unwrap();
            assert_eq!(
                (by_sat.count, by_sat.complete),
                (count, true),
                "puzzle {i}, no_probe {no_probe}"
            );
        }
    }
}
