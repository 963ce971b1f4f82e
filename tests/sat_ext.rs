//! The `sat-ext` backend with real external solvers (Debian's `minisat`, `picosat`, `cadical`;
//! `.ci/run` installs them) and with fake ones (shell scripts) that print garbage, crash, lie or
//! hang. A test whose solver is absent prints `skipped: <solver> not installed` (see it with
//! `--nocapture`) and passes.

use std::fs;
use std::sync::Arc;
use std::time::{Duration, Instant};

mod common;

use common::judge_samples::{cases_dir, judge_samples};
use sudoku_lab::backend::{Backend, BackendError, Limits, Optimum};
use sudoku_lab::backends::BackendOptions;
use sudoku_lab::backends::{self, sat::SatOptions, sat_ext::SatExtOptions, BackendKind};
use sudoku_lab::judge;
use sudoku_lab::model::{Puzzle, Shape, Weights};
use sudoku_lab::sat::encode::{Amo, Encoding};
use sudoku_lab::task::{self, Answer, Task};

/// The solvers the tests try: `(program, command line)`.
const SOLVERS: &[(&str, &str)] = &[
    ("minisat", "minisat -verb=0"),
    ("picosat", "picosat"),
    ("cadical", "cadical -q"),
];

fn installed(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// The command lines of the installed solvers; says which are skipped.
fn installed_solvers() -> Vec<&'static str> {
    SOLVERS
        .iter()
        .filter(|&&(program, _)| {
            let ok = installed(program);
            if !ok {
                eprintln!("skipped: {program} not installed");
            }
            ok
        })
        .map(|&(_, cmd)| cmd)
        .collect()
}

fn sat_ext_with(command: &str, sat: SatOptions) -> Box<dyn Backend> {
    let options = BackendOptions {
        sat,
        sat_ext: SatExtOptions {
            command: Some(command.into()),
        },
        ..Default::default()
    };
    backends::create(BackendKind::SatExt, &options).unwrap()
}

fn sat_ext(command: &str) -> Box<dyn Backend> {
    sat_ext_with(command, SatOptions::default())
}

fn empty(n: usize) -> Puzzle {
    Puzzle::new(Arc::new(Shape::standard(n, false).unwrap()), vec![0; n * n]).unwrap()
}

/// A 9×9 puzzle from an 81-character line (`.` empty).
fn line9(line: &str) -> Puzzle {
    let givens = line
        .chars()
        .map(|c| c.to_digit(10).unwrap_or(0) as u16)
        .collect();
    Puzzle::new(Arc::new(Shape::standard(9, false).unwrap()), givens).unwrap()
}

/// A puzzle with 122 solutions (serg_benchmark.counts).
const P122: &str =
    "8.........59.......76...........2468....9.217...6..593...751946...936182...824735";

/// A puzzle with 6 solutions (the first sicily1317 sample).
const P6: &str =
    "........41....9.7...37.28......7.26.4.......8.91.6......42.36...3.14...99........";

/// Two 5s in the first row.
fn clash() -> Puzzle {
    let mut line = "55".to_string() + &".".repeat(79);
    line.truncate(81);
    line9(&line)
}

#[test]
fn every_judge_sample_with_each_installed_solver() {
    let samples = judge_samples();
    assert_eq!(samples.len(), 8, "the judge samples in tests/data/cases");
    for cmd in installed_solvers() {
        let b = sat_ext(cmd);
        for s in &samples {
            let label = s.input.display();
            let got = judge::run(s.problem, &s.text, b.as_ref(), &Limits::none())
                .unwrap_or_else(|e| panic!("{cmd} on {label}: {e}"));
            assert_eq!(got, s.expected, "{cmd} on {label}");
        }
    }
}

#[test]
fn empty_4x4_has_288_solutions_and_p122_has_122() {
    let solvers = installed_solvers();
    for &cmd in &solvers {
        let b = sat_ext(cmd);
        let a = task::run(
            b.as_ref(),
            &empty(4),
            Task::Count { limit: 1000 },
            &Limits::none(),
        );
        assert_eq!(a.unwrap().count(), Some((288, true)), "{cmd}");
        let a = task::run(b.as_ref(), &line9(P122), Task::Unique, &Limits::none()).unwrap();
        assert!(matches!(a, Answer::Multiple(..)), "{cmd}: {a:?}");
    }
    // 123 solver runs: once is enough.
    if let Some(&cmd) = solvers.last() {
        let a = task::run(
            sat_ext(cmd).as_ref(),
            &line9(P122),
            Task::Count { limit: 1000 },
            &Limits::none(),
        );
        assert_eq!(a.unwrap().count(), Some((122, true)), "{cmd}");
    }
}

#[test]
fn every_encoding_and_plain_givens_count_alike() {
    let Some(&cmd) = installed_solvers().last() else {
        return;
    };
    for encoding in Encoding::ALL {
        for (amo, simplify) in [(Amo::Auto, true), (Amo::Ladder, false)] {
            let sat = SatOptions {
                encoding,
                amo,
                simplify,
                ..SatOptions::default()
            };
            let b = sat_ext_with(cmd, sat);
            let what = format!("{cmd} {encoding} {amo} simplify={simplify}");
            let a = task::run(
                b.as_ref(),
                &line9(P6),
                Task::Count { limit: 1000 },
                &Limits::none(),
            );
            assert_eq!(a.unwrap().count(), Some((6, true)), "{what}");
            let a = task::run(b.as_ref(), &clash(), Task::Solve, &Limits::none()).unwrap();
            assert_eq!(a, Answer::NoSolution, "{what}");
        }
    }
}

#[test]
fn a_clash_has_no_solution() {
    for cmd in installed_solvers() {
        let b = sat_ext(cmd);
        for task in [Task::Solve, Task::Unique, Task::Count { limit: 10 }] {
            let a = task::run(b.as_ref(), &clash(), task, &Limits::none()).unwrap();
            assert_eq!(a, Answer::NoSolution, "{cmd} {task:?}");
        }
        let weighted = clash().with_weights(Arc::new(Weights::pyramid(9))).unwrap();
        assert_eq!(
            b.optimize(&weighted, &Limits::none()),
            Ok(Optimum::NoSolution),
            "{cmd}"
        );
    }
}

#[test]
fn no_command_is_unsupported() {
    let Err(e) = backends::create(BackendKind::SatExt, &BackendOptions::default()) else {
        panic!("sat-ext without a command was created");
    };
    assert!(
        matches!(&e, BackendError::Unsupported(m) if m.contains("needs --sat-cmd")),
        "{e}"
    );
    let bad = BackendOptions {
        sat_ext: SatExtOptions {
            command: Some("cadical 'unbalanced".into()),
        },
        ..Default::default()
    };
    assert!(matches!(
        backends::create(BackendKind::SatExt, &bad),
        Err(BackendError::Unsupported(_))
    ));
    assert!("sat-ext".parse::<BackendKind>() == Ok(BackendKind::SatExt));
    assert!(!BackendKind::all().contains(&BackendKind::SatExt));
    assert!(BackendKind::every().contains(&BackendKind::SatExt));
}

/// A fake solver: `sh <dir>/<name>` running `body`. Returns the command line and the directory
/// (kept alive by the caller).
fn fake_solver(name: &str, body: &str) -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    (format!("sh {}", path.display()), dir)
}

/// The `Failed` message of a fake solver on the empty 4×4, checked to name the solver.
fn failure_of(name: &str, body: &str) -> String {
    let (cmd, _dir) = fake_solver(name, body);
    match sat_ext(&cmd).solve(&empty(4), &Limits::none()) {
        Err(BackendError::Failed(m)) => {
            assert!(m.contains(name), "the message names the solver: {m}");
            m
        }
        other => panic!("{name}: expected a failure, got {other:?}"),
    }
}

#[test]
fn garbage_output_is_a_failure_naming_the_solver() {
    let m = failure_of("garbage-solver", "echo 'hello, I am not a SAT solver'");
    assert!(m.contains("no status line"), "{m}");
    assert_eq!(
        m.matches("hello, I am not a SAT solver").count(),
        1,
        "quotes the output once: {m}"
    );
    let m = failure_of(
        "truncated-solver",
        "echo 's SATISFIABLE'; echo 'v 1 -2 3'; exit 10",
    );
    assert!(m.contains("not terminated"), "{m}");
    let m = failure_of("unknown-solver", "echo 's UNKNOWN'; exit 0");
    assert!(m.contains("UNKNOWN"), "{m}");
    let m = failure_of("exit-code-solver", "echo 's UNSATISFIABLE'; exit 10");
    assert!(m.contains("exit status disagrees"), "{m}");
    let m = failure_of("failing-solver", "echo 'out of memory' >&2; exit 1");
    assert!(m.contains("out of memory"), "{m}");
}

#[test]
fn a_wrong_model_is_a_failure_not_an_answer() {
    // Every variable true: violates the at-most-one clauses.
    let all_true: String = (1..=64).map(|v| format!("{v} ")).collect();
    let m = failure_of(
        "lying-solver",
        &format!("echo 's SATISFIABLE'; echo 'v {all_true}0'; exit 10"),
    );
    assert!(m.contains("does not satisfy clause"), "{m}");
    // Every variable false: violates the at-least-one clauses.
    let all_false: String = (1..=64).map(|v| format!("-{v} ")).collect();
    let m = failure_of(
        "lazy-solver",
        &format!("echo 's SATISFIABLE'; echo 'v {all_false}0'; exit 10"),
    );
    assert!(m.contains("does not satisfy clause"), "{m}");
}

#[test]
fn a_crash_or_a_missing_binary_is_a_failure() {
    let m = failure_of("crashing-solver", "echo 's SATISFIABLE'; kill -SEGV $$");
    assert!(m.contains("crashed"), "{m}");
    let missing = "no-such-sat-solver-xyz";
    match sat_ext(missing).solve(&empty(4), &Limits::none()) {
        Err(BackendError::Failed(m)) => {
            assert!(m.contains(missing) && m.contains("cannot start"), "{m}")
        }
        other => panic!("expected a failure, got {other:?}"),
    }
}

#[test]
fn a_hanging_solver_times_out_at_the_deadline() {
    let (cmd, _dir) = fake_solver("sleeping-solver", "sleep 30");
    let b = sat_ext(&cmd);
    let start = Instant::now();
    let r = b.count(&empty(4), 10, &Limits::timeout(Duration::from_millis(300)));
    assert_eq!(r, Err(BackendError::TimedOut));
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn optimize_stopped_at_the_deadline_returns_the_best_grid_so_far() {
    if !installed("cadical") {
        eprintln!("skipped: cadical not installed");
        return;
    }
    // Answers the first call with cadical, then hangs.
    let (cmd, dir) = fake_solver(
        "first-call-only",
        "if [ -e \"$0.done\" ]; then sleep 30; fi\ntouch \"$0.done\"\nexec cadical -q \"$@\"",
    );
    let b = sat_ext(&cmd);
    let input = fs::read_to_string(cases_dir().join("noip2009/sample0.in")).unwrap();
    let puzzle = judge_noip(&input);
    let start = Instant::now();
    let r = b.optimize(&puzzle, &Limits::timeout(Duration::from_secs(3)));
    assert!(
        start.elapsed() < Duration::from_secs(8),
        "{:?}",
        start.elapsed()
    );
    match r {
        Ok(Optimum::Incomplete { score, grid, bound }) => {
            assert_eq!(score, puzzle.weights().unwrap().score(&grid));
            assert!(bound.is_some_and(|b| b >= score));
            assert!(sudoku_lab::check::verify(&puzzle, &grid).is_ok());
        }
        other => panic!("expected an incomplete optimum, got {other:?}"),
    }
    assert!(dir.path().join("first-call-only.done").exists());
}

/// The noip2009 input as a weighted puzzle.
fn judge_noip(input: &str) -> Puzzle {
    let givens = input
        .split_whitespace()
        .map(|t| t.parse::<u16>().unwrap())
        .collect();
    Puzzle::new(Arc::new(Shape::standard(9, false).unwrap()), givens)
        .unwrap()
        .with_weights(Arc::new(Weights::pyramid(9)))
        .unwrap()
}

#[test]
fn unsat_on_a_formula_known_to_be_satisfiable_is_a_failure() {
    // Every cell but one given: propagation fixes the last one and leaves no clause, so the
    // formula is satisfiable whatever the solver says: UNSATISFIABLE is a lie, not "no solution".
    let solved =
        "468931527751624839392578461134756298289413675675289314846192753513867942927345186";
    let puzzle = line9(&format!(".{}", &solved[1..]));
    let (cmd, _dir) = fake_solver("pessimist-solver", "echo 's UNSATISFIABLE'; exit 20");
    match sat_ext(&cmd).solve(&puzzle, &Limits::none()) {
        Err(BackendError::Failed(m)) => {
            assert!(m.contains("pessimist-solver"), "{m}");
            assert!(
                m.contains("UNSATISFIABLE on a formula without clauses"),
                "{m}"
            );
        }
        other => panic!("expected a failure, got {other:?}"),
    }
    // The same claim on a formula with clauses stays an answer (the checker cannot refute it).
    assert_eq!(sat_ext(&cmd).solve(&clash(), &Limits::none()), Ok(None));
}
