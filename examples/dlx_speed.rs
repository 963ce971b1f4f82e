//! Throughput of a backend (default `dlx`) on the 9×9 benchmark sets in `../shared/data/9x9`:
//! uniqueness checks (count limit 2) on the first puzzles of `17_clue` and
//! `forum_hardest_1905_11plus`, and full counting of `serg_benchmark`.
//!
//! ```text
//! cargo run --release --example dlx_speed -- [BACKEND] [PUZZLES] [SET]
//! ```
//!
//! `SET` (`17`, `forum` or `serg`) runs one data set only. On a loaded machine, compare CPU time
//! (`perf stat -e task-clock …` or `/usr/bin/time`) rather than wall-clock rates.
//!
//! Prints a clear message and skips any data set that is missing.

/// mimalloc: varisat and the matrix builders allocate many small vectors per puzzle.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use sudoku_lab::backend::{Backend, Limits};
use sudoku_lab::backends::{self, BackendKind};
use sudoku_lab::model::{Puzzle, Shape, Value};

const DATA: &str = "../shared/data/9x9";

fn load(name: &str, max: usize) -> Option<Vec<Puzzle>> {
    let path = Path::new(DATA).join(name);
    let Ok(text) = std::fs::read_to_string(&path) else {
        println!("{}: missing, skipped", path.display());
        return None;
    };
    let shape = Arc::new(Shape::standard(9, false).ok()?);
    let puzzles = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let line = l.split(':').next()?;
            let givens: Vec<Value> = line
                .chars()
                .map(|c| c.to_digit(10).unwrap_or(0) as Value)
                .collect();
            Puzzle::new(shape.clone(), givens).ok()
        })
        .take(max)
        .collect();
    Some(puzzles)
}

/// CPU time this thread has run, from `/proc/thread-self/schedstat` (Linux); `None` elsewhere.
fn cpu_secs() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 * 1e-9)
}

fn run(backend: &dyn Backend, name: &str, puzzles: &[Puzzle], limit: u64) {
    let cpu_start = cpu_secs();
    let start = Instant::now();
    let mut solutions = 0u64;
    for p in puzzles {
        match backend.count(p, limit, &Limits::none()) {
            Ok(c) => solutions += c.count,
            Err(e) => println!("{name}: error {e}"),
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let cpu = cpu_start.zip(cpu_secs()).map(|(a, b)| b - a);
    let limit = if limit == u64::MAX {
        "none".to_string()
    } else {
        limit.to_string()
    };
    println!(
        "{name:<30} {:>6} puzzles, limit {limit:>4}: {solutions:>8} solutions, wall {secs:.3} s \
         ({:.0}/s), cpu {} ({}/s)",
        puzzles.len(),
        puzzles.len() as f64 / secs,
        cpu.map_or("?".into(), |c| format!("{c:.3} s")),
        cpu.map_or("?".into(), |c| format!("{:.0}", puzzles.len() as f64 / c)),
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kind: BackendKind = args
        .first()
        .map(|s| s.parse().unwrap_or_else(|e| panic!("{e}")))
        .unwrap_or(BackendKind::Dlx);
    let max: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let only = args.get(2).map(String::as_str).unwrap_or("");
    let backend = backends::create(kind, &Default::default()).expect("backend");
    println!("backend {kind}");
    for set in ["17_clue.txt", "forum_hardest_1905_11plus.txt"] {
        if set.starts_with(only) {
            if let Some(p) = load(set, max) {
                run(backend.as_ref(), set, &p, 2);
            }
        }
    }
    if "serg_benchmark.txt".starts_with(only) {
        if let Some(p) = load("serg_benchmark.txt", usize::MAX) {
            run(backend.as_ref(), "serg_benchmark.txt", &p, u64::MAX);
        }
    }
}
