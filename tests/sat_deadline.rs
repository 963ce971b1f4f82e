//! A `sat` run abandoned at its deadline must stop, not go on burning a core in the background
//! (varisat has no interrupt; the backend stops it through a failing proof writer). Its own test
//! binary, so that no other test's solver threads are counted.

#![cfg(target_os = "linux")]

use std::time::{Duration, Instant};

use sudoku_lab::backend::{BackendError, Limits};
use sudoku_lab::backends::{self, BackendKind};
use sudoku_lab::format::{self, ReadOptions};
use sudoku_lab::task::{self, RunError, Task};

/// Threads of this process named `sat-worker` (the backend's solver threads).
fn sat_workers() -> usize {
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .filter(|name| name.trim() == "sat-worker")
        .count()
}

#[test]
fn a_timed_out_varisat_run_stops_its_thread() {
    // sudoku-64-1: varisat finds no solution in minutes (docs/benchmarks.md, large grids).
    let path = format!(
        "{}/tests/data/large/sudoku-64-1.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    let puzzle = format::read_puzzles(&text, &ReadOptions::default())
        .pop()
        .unwrap()
        .unwrap()
        .puzzle;
    let sat = backends::create(BackendKind::Sat, &Default::default()).unwrap();
    let result = task::run(
        sat.as_ref(),
        &puzzle,
        Task::Solve,
        &Limits::timeout(Duration::from_secs(2)),
    );
    assert!(
        matches!(result, Err(RunError::Backend(BackendError::TimedOut))),
        "{result:?}"
    );
    // The abandoned thread must end soon after the deadline (otherwise it would run on for minutes).
    let start = Instant::now();
    while sat_workers() > 0 {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "a sat-worker thread still runs 20 s after its deadline"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
