//! A `sat` run abandoned at its deadline must stop, not go on burning a core in the background
//! (varisat has no interrupt; the backend stops it through a failing proof writer). Its own test
//! binary, so that no other test's solver threads are counted.

#![cfg(target_os = "linux")]

use std::sync::Arc;
use std::time::{Duration, Instant};

use sudoku_lab::backend::{BackendError, Limits};
use sudoku_lab::backends::{self, BackendKind};
use sudoku_lab::format::{self, ReadOptions};
use sudoku_lab::model::{Puzzle, Weights};
use sudoku_lab::task::{self, Answer, RunError, Task};

/// Threads of this process named `sat-worker` (the backend's solver threads).
fn sat_workers() -> usize {
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .filter(|name| name.trim() == "sat-worker")
        .count()
}

fn puzzle(file: &str) -> Puzzle {
    let path = format!("{}/tests/data/large/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    format::read_puzzles(&text, &ReadOptions::default())
        .pop()
        .unwrap()
        .unwrap()
        .puzzle
}

/// The abandoned thread must end within `most` seconds after the deadline (otherwise it would
/// run on for seconds or minutes).
fn workers_end(most: u64) {
    let start = Instant::now();
    while sat_workers() > 0 {
        assert!(
            start.elapsed() < Duration::from_secs(most),
            "a sat-worker thread still runs {most} s after its deadline"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// One test, so that no other run's threads are counted.
#[test]
fn a_timed_out_varisat_run_stops_its_thread() {
    let sat = backends::create(BackendKind::Sat, &Default::default()).unwrap();
    let limits = || Limits::timeout(Duration::from_secs(2));
    // sudoku-64-1: varisat finds no solution in minutes (docs/benchmarks.md, large grids).
    let result = task::run(
        sat.as_ref(),
        &puzzle("sudoku-64-1.txt"),
        Task::Solve,
        &limits(),
    );
    assert!(
        matches!(result, Err(RunError::Backend(BackendError::TimedOut))),
        "{result:?}"
    );
    workers_end(20);
    // A 25×25 pyramid (`generate --size 25 --seed 5`): the core-guided search moves on to the
    // linear programme's duals after 10 ms, which microlp needs seconds for; the deadline
    // stops both microlp and varisat.
    let weighted = puzzle("random-25.txt")
        .with_weights(Arc::new(Weights::pyramid(25)))
        .unwrap();
    let result = task::run(sat.as_ref(), &weighted, Task::Optimize, &limits());
    assert!(
        matches!(
            result,
            Ok(Answer::Optimum { proved: false, .. })
                | Err(RunError::Backend(BackendError::TimedOut))
        ),
        "{result:?}"
    );
    workers_end(3);
}
