//! `encode --to mzn` and the `minizinc` backend: the reference exports in `encodings/minizinc/`
//! are current, run unchanged in `minizinc --solver gecode` with the known answers, and the
//! backend agrees with `dfs`; fake programs (shell scripts) that print garbage, crash, lie or
//! hang give errors, never answers. Tests that need MiniZinc with Gecode (Debian's `minizinc`
//! and `flatzinc`; `.ci/run` installs them) print `skipped: minizinc with gecode not installed`
//! and pass where it is missing. `UPDATE_ENCODINGS=1 cargo test --test minizinc` rewrites the
//! reference exports.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use common::{gecode_installed, run, run_with, stderr, stdout};
use sudoku_lab::backend::{Backend, BackendError, Limits, Optimum};
use sudoku_lab::backends::minizinc::MiniZincOptions;
use sudoku_lab::backends::{self, BackendKind, BackendOptions};
use sudoku_lab::model::{Grid, Puzzle, Shape, Weights};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The reference exports: `(file name, encode arguments, standard input)`.
const EXPORTS: &[(&str, &[&str], &str)] = &[
    ("empty-4x4.mzn", &["--format", "line"], "................\n"),
    (
        "noip2009-sample0.mzn",
        &[
            "--format",
            "grid",
            "--weights",
            "pyramid",
            "tests/data/cases/noip2009/sample0.in",
        ],
        "",
    ),
    (
        "killer9.mzn",
        &["--index", "2", "tests/data/formats/killer.txt"],
        "",
    ),
    (
        "hdu4069-jigsaw.mzn",
        &["tests/data/formats/line_jigsaw.txt"],
        "",
    ),
];

fn export(args: &[&str], stdin: &str) -> String {
    let mut all = vec!["encode", "--to", "mzn"];
    all.extend(args);
    let o = run_with(&all, stdin);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

fn committed(name: &str) -> PathBuf {
    root().join("encodings/minizinc").join(name)
}

#[test]
fn committed_minizinc_exports_are_current() {
    let update = std::env::var_os("UPDATE_ENCODINGS").is_some_and(|v| v != "0");
    for &(name, args, stdin) in EXPORTS {
        let now = export(args, stdin);
        if update {
            fs::create_dir_all(committed(name).parent().unwrap()).unwrap();
            fs::write(committed(name), &now).unwrap();
        }
        let stored = fs::read_to_string(committed(name)).unwrap_or_default();
        assert!(
            stored == now,
            "encodings/minizinc/{name} is stale: UPDATE_ENCODINGS=1 cargo test --test minizinc"
        );
    }
}

#[test]
fn the_export_names_every_house_and_cage() {
    let jigsaw = fs::read_to_string(committed("hdu4069-jigsaw.mzn")).unwrap();
    let killer = fs::read_to_string(committed("killer9.mzn")).unwrap();
    for text in [&jigsaw, &killer] {
        assert!(text.contains("include \"alldifferent.mzn\";"));
        assert!(text.contains("array[1..n, 1..n] of var 1..n: x;"));
        assert!(text.contains("solve satisfy;") && !text.contains("maximize"));
        for i in 1..=9 {
            assert!(text.contains(&format!("% row {i}\nconstraint all_different(")));
            assert!(text.contains(&format!("% column {i}\nconstraint all_different(")));
        }
    }
    for i in 1..=9 {
        assert!(jigsaw.contains(&format!("% region {i}\nconstraint all_different(")));
        assert!(killer.contains(&format!("% box {i}\nconstraint all_different(")));
    }
    // The Killer's 32 cages, each with its sum (tests/data/formats/killer.txt).
    let sums = [
        11, 15, 6, 4, 7, 26, 19, 13, 15, 9, 8, 28, 6, 28, 1, 5, 17, 19, 26, 24, 14, 12, 7, 6, 21,
        16, 4, 8, 1, 13, 3, 13,
    ];
    for (i, sum) in sums.iter().enumerate() {
        let head = format!("% cage {}: sum {sum}, ", i + 1);
        assert!(killer.contains(&head), "{head}");
    }
    assert!(!killer.contains("% cage 33"));
    let noip = fs::read_to_string(committed("noip2009-sample0.mzn")).unwrap();
    assert!(noip.contains("solve maximize score;"));
    assert!(noip.contains("array[1..n, 1..n] of int: weight = [|"));
}

#[test]
fn the_export_writes_every_variant_rule() {
    // mixed6.json holds rules of every form the model has: pairs, groups, sums, parity.
    let model = stdout(&run(&[
        "encode",
        "--to",
        "mzn",
        "tests/data/fpuzzles/mixed6.json",
    ]));
    for part in [
        "include \"table.mzn\";",
        "% Pairs of cells",
        "constraint table([x[",
        "% Arrows and little killers",
    ] {
        assert!(model.contains(part), "{part} missing:\n{model}");
    }
    let sandwich = stdout(&run(&[
        "encode",
        "--to",
        "mzn",
        "tests/data/fpuzzles/sandwich9.json",
    ]));
    assert!(sandwich.contains("% Sandwiches"), "{sandwich}");
}

/// A 4×4 puzzle in the lab's JSON with one rule of each form the model keeps as it is:
/// candidates, a quadruple, a between line, a lockout line, a skyscraper and an X-sum clue.
const EXTRA_FORMS: &str = r#"{"board": [[".", ".", ".", "."], [".", ".", ".", "."], [".", ".", ".", "."], [".", ".", ".", "."]],
 "rules": [{"kind": "candidates", "cell": [1, 1], "digits": [1, 2]},
           {"kind": "quadruple", "cells": [[1, 1], [1, 2], [2, 1], [2, 2]], "digits": [1, 4]},
           {"kind": "between-line", "cells": [[3, 1], [3, 2], [3, 3]]},
           {"kind": "lockout", "cells": [[1, 4], [2, 4], [3, 4]], "gap": 2},
           {"kind": "skyscraper", "row": 4, "from": "right", "count": 2},
           {"kind": "x-sum", "column": 1, "sum": 3}]}
"#;

#[test]
fn the_export_writes_the_rules_with_forms_of_their_own() {
    let model = stdout(&run_with(
        &["encode", "--to", "mzn", "--format", "json"],
        EXTRA_FORMS,
    ));
    for part in [
        "constraint x[1, 1] in {1, 2};",
        "constraint sum([bool2int(x[1, 1] = 4), bool2int(x[1, 2] = 4), bool2int(x[2, 1] = 4), \
         bool2int(x[2, 2] = 4)]) >= 1;",
        "constraint min(x[3, 1], x[3, 3]) < x[3, 2] /\\ x[3, 2] < max(x[3, 1], x[3, 3]);",
        "constraint x[2, 4] < min(x[1, 4], x[3, 4]) \\/ x[2, 4] > max(x[1, 4], x[3, 4]);",
        "l = [x[4, 4], x[4, 3], x[4, 2], x[4, 1]] } in sum(i in index_set(l))\
         (bool2int(forall(j in 1..i - 1)(l[j] < l[i]))) = 2;",
        "l = [x[1, 1], x[2, 1], x[3, 1], x[4, 1]] } in sum(i in index_set(l))\
         (bool2int(i <= l[1]) * l[i]) = 3;",
    ] {
        assert!(model.contains(part), "{part} missing:\n{model}");
    }
    if !gecode_installed() {
        return;
    }
    // One grid (CP-SAT, tools/cpsat_variants.py, finds it too), for Gecode and for cp.
    let (all, complete) = gecode_all(&model);
    assert_eq!((all.len(), complete), (1, true), "{all:?}");
    let cp = stdout(&run_with(
        &["count", "--limit", "1000", "-b", "cp", "--format", "json"],
        EXTRA_FORMS,
    ));
    assert_eq!(cp.trim(), "1", "{cp}");
}

/// Runs `minizinc --solver gecode --all-solutions` on `model`: the solutions (the grid lines
/// and score of each) and whether the search was complete.
fn gecode_all(model: &str) -> (Vec<String>, bool) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("model.mzn");
    fs::write(&path, model).unwrap();
    let o = Command::new("minizinc")
        .args(["--solver", "gecode", "--all-solutions"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let mut solutions: Vec<String> = out
        .split("----------\n")
        .map(|s| s.trim().to_string())
        .collect();
    let complete = solutions.last().is_some_and(|s| s == "==========");
    solutions.pop();
    (solutions, complete)
}

/// The grid of a solution block, as one line of digits.
fn digits(solution: &str) -> String {
    solution
        .lines()
        .filter_map(|l| l.strip_prefix("row "))
        .flat_map(|l| l.split_once(':').unwrap().1.split_whitespace())
        .collect()
}

#[test]
fn exports_round_trip_through_gecode() {
    if !gecode_installed() {
        return;
    }
    // Empty 4×4: 288 grids.
    let (all, complete) = gecode_all(&fs::read_to_string(committed("empty-4x4.mzn")).unwrap());
    assert_eq!((all.len(), complete), (288, true));
    // NOIP 2009 sample 0: optimum 2864 (its judge output), the last improving solution.
    let (all, complete) =
        gecode_all(&fs::read_to_string(committed("noip2009-sample0.mzn")).unwrap());
    assert!(complete);
    assert_eq!(all.last().unwrap().lines().next(), Some("score: 2864"));
    // The 9×9 Killer and the jigsaw: unique, and the grid dfs finds.
    for (name, file, k) in [
        ("killer9.mzn", "tests/data/formats/killer.txt", 1),
        (
            "hdu4069-jigsaw.mzn",
            "tests/data/formats/line_jigsaw.txt",
            0,
        ),
    ] {
        let (all, complete) = gecode_all(&fs::read_to_string(committed(name)).unwrap());
        assert_eq!((all.len(), complete), (1, true), "{name}");
        let o = run(&["solve", "-b", "dfs", file]);
        assert_eq!(
            stdout(&o).lines().nth(k),
            Some(digits(&all[0]).as_str()),
            "{name}"
        );
    }
    // The 4×4 Killer: 16 grids (dfs counts the same).
    let (all, complete) = gecode_all(&export(
        &["tests/data/formats/killer.txt", "--index", "1"],
        "",
    ));
    assert_eq!((all.len(), complete), (16, true));
    // A known unique 9×9 (a 17-clue puzzle of tests/data/samples/mixed.txt).
    let p17 = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
    let (all, complete) = gecode_all(&export(&[], p17));
    assert_eq!((all.len(), complete), (1, true));
    let o = run_with(&["solve"], p17);
    assert_eq!(stdout(&o).trim(), digits(&all[0]));
}

#[test]
fn the_backend_agrees_with_dfs() {
    if !gecode_installed() {
        return;
    }
    for (task, file) in [
        ("unique", "tests/data/samples/mixed.txt"),
        ("unique", "tests/data/formats/killer.txt"),
        ("count", "tests/data/formats/killer.txt"),
        ("unique", "tests/data/formats/line_jigsaw.txt"),
        // Variant rules: every kind among them, puzzles with none, one and several solutions.
        ("count", "tests/data/fpuzzles/mixed6.json"),
        ("count", "tests/data/fpuzzles/sandwich9.json"),
        ("count", "tests/data/fpuzzles/sandwich-none4.json"),
        ("count", "tests/data/fpuzzles/littlekiller-none4.json"),
        ("count", "tests/data/fpuzzles/arrow-alias4.json"),
        ("count", "tests/data/fpuzzles/antiking6.json"),
    ] {
        let o = run(&[
            "xcheck",
            "--backends",
            "dfs,minizinc",
            "--task",
            task,
            "--limit",
            "100",
            "-j",
            "1",
            file,
        ]);
        assert_eq!(o.status.code(), Some(0), "{task} {file}: {}", stdout(&o));
        assert!(
            stdout(&o).contains("0 disagreements, 0 failures, 0 refusals"),
            "{}",
            stdout(&o)
        );
    }
    // The three NOIP 2009 samples: their judge outputs (2864, 2852, -1 for none).
    for k in 0..3 {
        let case = format!("tests/data/cases/noip2009/sample{k}");
        let o = run(&["judge", "noip2009", "-b", "minizinc", &format!("{case}.in")]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(
            stdout(&o),
            fs::read_to_string(format!("{}/{case}.out", root().display())).unwrap()
        );
    }
}

#[test]
fn a_missing_program_is_an_error_naming_it() {
    let o = run_with(
        &[
            "solve",
            "-b",
            "minizinc",
            "--mzn-cmd",
            "no-such-minizinc-xyz",
        ],
        "................\n",
    );
    // As for sat-ext with a missing program: a solver failure.
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("cannot start 'no-such-minizinc-xyz'"), "{err}");
    assert!(err.contains("is it installed and on PATH?"), "{err}");
    assert!(!stdout(&o).contains("none"), "{}", stdout(&o));
}

#[test]
fn a_hard_puzzle_past_the_timeout_is_a_time_out() {
    if !gecode_installed() {
        return;
    }
    // An empty 36×36 grid: Gecode's default search finds no grid within a minute.
    let grid: String = (0..36).map(|_| vec!["0"; 36].join(" ") + "\n").collect();
    let o = run_with(
        &[
            "solve",
            "-b",
            "minizinc",
            "--format",
            "grid",
            "--timeout",
            "0.5",
        ],
        &grid,
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stdout(&o).contains("timeout"), "{}", stdout(&o));
    assert!(stderr(&o).contains("timed out"), "{}", stderr(&o));
    assert!(!stdout(&o).contains("none"), "{}", stdout(&o));
}

#[test]
fn it_is_opt_in_and_external() {
    assert!(!BackendKind::all().contains(&BackendKind::MiniZinc));
    assert!(BackendKind::every().contains(&BackendKind::MiniZinc));
    assert!(BackendKind::MiniZinc.is_external());
    assert!(BackendKind::MiniZinc.opt_in().is_some());
}

#[test]
fn grids_too_large_for_minizinc_are_refused() {
    // 144×144 with 12×12 boxes: a model of about 760 KiB.
    let n = 144;
    let p = Puzzle::new(Arc::new(Shape::standard(n, false).unwrap()), vec![0; n * n]).unwrap();
    let b = minizinc("no-such-minizinc-xyz");
    match b.solve(&p, &Limits::none()) {
        Err(BackendError::Unsupported(why)) => assert!(why.contains("KiB"), "{why}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

// Fake programs.

fn minizinc(command: &str) -> Box<dyn Backend> {
    let options = BackendOptions {
        minizinc: MiniZincOptions {
            command: command.into(),
            ..Default::default()
        },
        ..Default::default()
    };
    backends::create(BackendKind::MiniZinc, &options).unwrap()
}

/// A shell script that prints `body`'s output whatever its arguments.
fn fake(name: &str, body: &str) -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    }
    (path.to_string_lossy().into_owned(), dir)
}

const GRID4: &str = "row 1: 1 2 3 4\nrow 2: 3 4 1 2\nrow 3: 2 1 4 3\nrow 4: 4 3 2 1\n----------\n";

fn empty4() -> Puzzle {
    Puzzle::new(Arc::new(Shape::standard(4, false).unwrap()), vec![0; 16]).unwrap()
}

/// Every weight 1: a grid scores 40.
fn weighted4() -> Puzzle {
    empty4()
        .with_weights(Arc::new(Weights::new(4, vec![1; 16]).unwrap()))
        .unwrap()
}

fn failure(name: &str, body: &str, puzzle: &Puzzle) -> String {
    let (cmd, _dir) = fake(name, body);
    let b = minizinc(&cmd);
    let r = if puzzle.weights().is_some() {
        b.optimize(puzzle, &Limits::none()).map(|_| ())
    } else {
        b.count(puzzle, 10, &Limits::none()).map(|_| ())
    };
    match r {
        Err(BackendError::Failed(m)) => {
            assert!(m.contains(name), "{m}");
            m
        }
        other => panic!("{name}: expected a failure, got {other:?}"),
    }
}

#[test]
fn a_fake_program_is_read_like_minizinc() {
    let (cmd, _dir) = fake("one-grid", &format!("printf '{GRID4}'\necho =========="));
    let c = minizinc(&cmd)
        .count(&empty4(), 10, &Limits::none())
        .unwrap();
    assert_eq!((c.count, c.complete), (1, true));
    let (cmd, _dir) = fake("unsat", "echo =====UNSATISFIABLE=====");
    assert_eq!(minizinc(&cmd).solve(&empty4(), &Limits::none()), Ok(None));
    let (cmd, _dir) = fake(
        "best",
        &format!("printf 'score: 40\\n{GRID4}'\necho =========="),
    );
    match minizinc(&cmd).optimize(&weighted4(), &Limits::none()) {
        Ok(Optimum::Optimal { score, grid }) => {
            assert_eq!(score, 40);
            assert_eq!(
                grid,
                Grid::new(4, vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1])
            );
        }
        other => panic!("expected an optimum, got {other:?}"),
    }
}

#[test]
fn bad_output_is_a_failure_never_an_answer() {
    // A grid that changes a given.
    let mut givens = vec![0; 16];
    givens[0] = 2;
    let given2 = Puzzle::new(Arc::new(Shape::standard(4, false).unwrap()), givens).unwrap();
    // (program name, script, puzzle, what the error says)
    let cases = [
        (
            "garbage",
            "echo hello".to_string(),
            empty4(),
            "unexpected output 'hello'",
        ),
        (
            "nothing",
            "true".into(),
            empty4(),
            "neither a solution nor a status",
        ),
        (
            "unknown",
            "echo =====UNKNOWN=====".into(),
            empty4(),
            "=====UNKNOWN=====",
        ),
        (
            "error-exit",
            "echo 'Error: type error' >&2; exit 1".into(),
            empty4(),
            "type error",
        ),
        (
            "crash",
            format!("printf '{GRID4}'; kill -SEGV $$"),
            empty4(),
            "crashed",
        ),
        (
            "truncated",
            "printf 'row 1: 1 2 3 4\\n'".into(),
            empty4(),
            "not terminated",
        ),
        (
            "twice",
            format!("printf '{GRID4}{GRID4}'; echo =========="),
            empty4(),
            "twice",
        ),
        (
            "liar",
            format!("printf 'score: 41\\n{GRID4}'; echo =========="),
            weighted4(),
            "score 41 for a grid that scores 40",
        ),
        (
            "unproved",
            format!("printf 'score: 40\\n{GRID4}'"),
            weighted4(),
            "not proved",
        ),
        (
            "given-changer",
            format!("printf '{GRID4}'; echo =========="),
            given2,
            "changes the given of row 1, column 1",
        ),
    ];
    for (name, script, puzzle, says) in cases {
        let m = failure(name, &script, &puzzle);
        assert!(m.contains(says), "{name}: {m}");
    }
}

#[test]
fn optimize_killed_at_the_deadline_gives_the_best_grid_so_far() {
    let (cmd, _dir) = fake(
        "slow-optimizer",
        &format!("printf 'score: 40\\n{GRID4}'\nsleep 30"),
    );
    let b = minizinc(&cmd);
    match b.optimize(&weighted4(), &Limits::timeout(Duration::from_secs(1))) {
        Ok(Optimum::Incomplete {
            score: 40,
            bound: None,
            ..
        }) => {}
        other => panic!("expected an incomplete optimum, got {other:?}"),
    }
    // Nothing printed before the deadline: a time-out, for every task.
    let (cmd, _dir) = fake("hanging", "sleep 30");
    let b = minizinc(&cmd);
    let limits = Limits::timeout(Duration::from_millis(300));
    assert_eq!(
        b.optimize(&weighted4(), &limits),
        Err(BackendError::TimedOut)
    );
    let limits = Limits::timeout(Duration::from_millis(300));
    assert_eq!(b.solve(&empty4(), &limits), Err(BackendError::TimedOut));
    let limits = Limits::timeout(Duration::from_millis(300));
    assert_eq!(
        b.count(&empty4(), 2, &limits).map(|c| c.count),
        Err(BackendError::TimedOut)
    );
}
