//! Weighted MaxSAT: the WCNF export (`encode --to wcnf`) read back and checked against the
//! DIMACS encoding and the score, and the `maxsat-ext` backend with a real MaxSAT solver (PySAT's
//! `rc2.py`, which `.ci/run` installs; or the command in `SUDOKU_LAB_MAXSAT_CMD`) and with fake
//! ones (shell scripts) that print garbage, lie or hang. Without a MaxSAT solver the agreement
//! test prints `skipped: …` (see it with `--nocapture`) and passes.

use std::fs;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use sudoku_lab::backend::{Backend, BackendError, Limits};
use sudoku_lab::backends::{self, dfs::Dfs, maxsat_ext::MaxSatExtOptions, BackendKind};
use sudoku_lab::backends::{sat::SatOptions, BackendOptions};
use sudoku_lab::format::{self, ReadOptions};
use sudoku_lab::model::{Grid, Puzzle, Shape, Weights};
use sudoku_lab::sat::encode::{self, Amo, EncodeOptions};
use sudoku_lab::sat::{dimacs, wcnf};
use sudoku_lab::task::{self, Answer, Task};

fn data(path: &str) -> String {
    format!("{}/tests/data/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// The three NOIP 2009 samples, with pyramid weights.
fn noip_samples() -> Vec<Puzzle> {
    (0..3)
        .flat_map(|i| pyramid_puzzles(&format!("noip2009/sample{i}.in"), 1))
        .collect()
}

/// The puzzles of a test data file, with pyramid weights.
fn pyramid_puzzles(path: &str, take: usize) -> Vec<Puzzle> {
    let text = fs::read_to_string(data(path)).unwrap();
    format::read_puzzles(&text, &ReadOptions::default())
        .into_iter()
        .take(take)
        .map(|e| {
            let p = e.unwrap().puzzle;
            let n = p.size();
            p.with_weights(Arc::new(Weights::pyramid(n))).unwrap()
        })
        .collect()
}

fn optimum(backend: &dyn Backend, p: &Puzzle) -> Answer {
    task::run(backend, p, Task::Optimize, &Limits::none()).unwrap()
}

fn maxsat_ext_with(command: &str, sat: SatOptions) -> Box<dyn Backend> {
    let options = BackendOptions {
        sat,
        maxsat_ext: MaxSatExtOptions {
            command: Some(command.into()),
        },
        ..Default::default()
    };
    backends::create(BackendKind::MaxSatExt, &options).unwrap()
}

#[test]
fn the_wcnf_reads_back_with_the_dimacs_clauses_and_costs_the_score() {
    let opts = EncodeOptions::default();
    let dfs = Dfs::new();
    for p in noip_samples() {
        let mut text = Vec::new();
        wcnf::to_wcnf(&p, &opts, &mut text).unwrap();
        let back = wcnf::read(&text[..]).unwrap();
        let built = wcnf::encode_puzzle(&p, &opts).unwrap();
        assert_eq!(back.soft, built.wcnf.soft);
        // Hard clauses: the DIMACS export of the same puzzle, clause for clause.
        let mut cnf_text = Vec::new();
        encode::to_dimacs(&p, &opts, &mut cnf_text).unwrap();
        let cnf = dimacs::read(&cnf_text[..]).unwrap();
        let hard: Vec<_> = back.hard.clauses().map(<[_]>::to_vec).collect();
        let dimacs: Vec<_> = cnf.clauses().map(<[_]>::to_vec).collect();
        assert_eq!(hard, dimacs);
        // The header's "score = OFFSET - cost" holds for the optimum dfs finds.
        let header = String::from_utf8_lossy(&text);
        let offset: i64 = header
            .lines()
            .find_map(|l| l.split("weighted score = ").nth(1))
            .and_then(|r| r.split(' ').next())
            .and_then(|o| o.parse().ok())
            .expect("the header gives the offset");
        let Answer::Optimum { score, grid, .. } = optimum(&dfs, &p) else {
            panic!("the samples have solutions");
        };
        let n = p.size();
        let mut values = vec![Some(false); back.hard.clauses().len().max(n * n * n)];
        for (c, &d) in grid.cells().iter().enumerate() {
            values[c * n + d as usize - 1] = Some(true);
        }
        assert_eq!(offset - back.cost(&values) as i64, score);
    }
}

#[test]
fn encode_to_wcnf_from_the_command_line() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-lab"))
        .args(["encode", "--to", "wcnf", &data("empty9.txt")])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let back = wcnf::read(&o.stdout[..]).unwrap();
    // The empty 9×9 pyramid: a loss term for every (cell, digit) but the border ring (weight 6
    // is the least) and each cell's digit 9.
    assert_eq!(back.soft.len(), (81 - 32) * 8);
    assert!(back.hard.clauses().len() > 0);
}

/// The MaxSAT solver commands to test with: `SUDOKU_LAB_MAXSAT_CMD`, else `rc2.py` on the PATH,
/// printing its model as literals and as the evaluations' bit string.
fn maxsat_solvers() -> Vec<String> {
    if let Ok(cmd) = std::env::var("SUDOKU_LAB_MAXSAT_CMD") {
        return vec![cmd];
    }
    let on_path = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join("rc2.py").is_file()));
    if !on_path {
        return Vec::new();
    }
    vec!["rc2.py -vv".into(), "rc2.py -vv --vnew".into()]
}

#[test]
fn an_installed_maxsat_solver_agrees_with_dfs() {
    let solvers = maxsat_solvers();
    if solvers.is_empty() {
        eprintln!("skipped: no MaxSAT solver (rc2.py from python-sat, or SUDOKU_LAB_MAXSAT_CMD)");
    }
    for cmd in solvers {
        agrees_with_dfs(&cmd);
    }
}

fn agrees_with_dfs(cmd: &str) {
    let ext = maxsat_ext_with(cmd, SatOptions::default());
    let dfs = Dfs::new();
    let mut puzzles = noip_samples();
    puzzles.extend(pyramid_puzzles("pyramid50.txt", 5));
    for p in &puzzles {
        let (ours, theirs) = (optimum(&dfs, p), optimum(ext.as_ref(), p));
        match (&ours, &theirs) {
            (Answer::Optimum { score: a, .. }, Answer::Optimum { score: b, .. }) => {
                assert_eq!(a, b, "{cmd}")
            }
            _ => assert_eq!(ours, theirs, "{cmd}"),
        }
    }
    // Clashing givens: no solution.
    let shape = Arc::new(Shape::standard(9, false).unwrap());
    let mut givens = vec![0; 81];
    givens[0] = 5;
    givens[1] = 5;
    let clash = Puzzle::new(shape, givens)
        .unwrap()
        .with_weights(Arc::new(Weights::pyramid(9)))
        .unwrap();
    assert_eq!(optimum(ext.as_ref(), &clash), Answer::NoSolution);
}

/// The empty 4×4 with pyramid weights; pairwise at-most-one so that its formula has cell
/// variables only (64), which a fake solver can fill in.
fn empty4() -> Puzzle {
    let shape = Arc::new(Shape::standard(4, false).unwrap());
    Puzzle::new(shape, vec![0; 16])
        .unwrap()
        .with_weights(Arc::new(Weights::pyramid(4)))
        .unwrap()
}

fn fake(name: &str, body: &str, dir: &Path) -> Box<dyn Backend> {
    let path = dir.join(name);
    fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    let sat = SatOptions {
        amo: Amo::Pairwise,
        ..SatOptions::default()
    };
    maxsat_ext_with(&format!("sh {}", path.display()), sat)
}

fn failure_of(name: &str, body: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    match fake(name, body, dir.path()).optimize(&empty4(), &Limits::none()) {
        Err(BackendError::Failed(m)) => {
            assert!(m.contains(name), "the message names the solver: {m}");
            m
        }
        other => panic!("{name}: expected a failure, got {other:?}"),
    }
}

/// The `v` line of a grid of the empty 4×4: x(c, d) true exactly where the grid has d.
fn model_line(grid: &Grid) -> String {
    let mut v = String::from("v");
    for (c, &d) in grid.cells().iter().enumerate() {
        for digit in 1..=4 {
            let x = c * 4 + digit;
            v += &format!(
                " {}",
                if digit == d as usize {
                    x as i64
                } else {
                    -(x as i64)
                }
            );
        }
    }
    v
}

#[test]
fn a_lying_or_broken_maxsat_solver_is_a_failure_not_an_answer() {
    let m = failure_of("garbage-maxsat", "echo 'I am not a MaxSAT solver'");
    assert!(
        m.contains("no status line") && m.contains("not a MaxSAT"),
        "{m}"
    );
    let m = failure_of("no-model-maxsat", "echo 's OPTIMUM FOUND'; echo 'o 0'");
    assert!(m.contains("no model"), "{m}");
    let all_false: String = (1..=64).map(|v| format!(" -{v}")).collect();
    let m = failure_of(
        "lazy-maxsat",
        &format!("echo 's OPTIMUM FOUND'; echo 'o 0'; echo 'v{all_false}'"),
    );
    assert!(m.contains("does not satisfy clause"), "{m}");
    let m = failure_of("exit-code-maxsat", "echo 's UNSATISFIABLE'; exit 30");
    assert!(m.contains("exit status disagrees"), "{m}");
    let m = failure_of("crashing-maxsat", "kill -SEGV $$");
    assert!(m.contains("crashed"), "{m}");
    // A real solution, claimed at cost 0: its cost is not 0.
    let grid = Dfs::new()
        .solve(&empty4(), &Limits::none())
        .unwrap()
        .unwrap();
    let m = failure_of(
        "boasting-maxsat",
        &format!(
            "echo 's OPTIMUM FOUND'; echo 'o 0'; echo '{}'",
            model_line(&grid)
        ),
    );
    assert!(m.contains("reports cost 0 but its model costs"), "{m}");
}

#[test]
fn a_maxsat_solver_that_stops_early_gives_an_unproved_grid() {
    let dir = tempfile::tempdir().unwrap();
    let grid = Dfs::new()
        .solve(&empty4(), &Limits::none())
        .unwrap()
        .unwrap();
    let b = fake(
        "early-maxsat",
        &format!(
            "echo 's SATISFIABLE'; echo '{}'; exit 10",
            model_line(&grid)
        ),
        dir.path(),
    );
    match task::run(b.as_ref(), &empty4(), Task::Optimize, &Limits::none()) {
        Ok(Answer::Optimum {
            proved: false,
            grid: g,
            score,
            ..
        }) => {
            assert_eq!(g, grid);
            assert_eq!(score, Weights::pyramid(4).score(&grid));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_hanging_maxsat_solver_times_out_and_other_tasks_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let b = fake("sleeping-maxsat", "sleep 30", dir.path());
    let start = Instant::now();
    let r = b.optimize(&empty4(), &Limits::timeout(Duration::from_millis(300)));
    assert_eq!(r, Err(BackendError::TimedOut));
    assert!(start.elapsed() < Duration::from_secs(5));
    assert!(matches!(
        b.solve(&empty4(), &Limits::none()),
        Err(BackendError::Unsupported(m)) if m.contains("optimize only")
    ));
    let options = BackendOptions::default();
    assert!(matches!(
        backends::create(BackendKind::MaxSatExt, &options),
        Err(BackendError::Unsupported(m)) if m.contains("--maxsat-cmd")
    ));
}
