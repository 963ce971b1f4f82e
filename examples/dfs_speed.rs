//! Quick timing of the `dfs` backend outside criterion, in wall-clock and thread CPU time:
//! `cargo run --release --example dfs_speed -- FILE [LIMIT]` counts every puzzle of FILE (any
//! format the lab reads; bad entries are skipped) with LIMIT (default 2: solve + uniqueness; use a huge LIMIT to count all solutions);
//! LIMIT 0 instead maximizes the NOIP 2009 pyramid score of the first puzzle (20 s limit).
//! A third argument REPEAT (default 1) runs the whole file that many times and reports the
//! median pass, for sets too small to time in one pass.
//! Besides the speed it prints the search nodes per puzzle (one node: one propagation to a
//! fixpoint, counted in a second pass) and the CPU time per node.

/// mimalloc: varisat and the matrix builders allocate many small vectors per puzzle.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::sync::Arc;
use std::time::Instant;
use sudoku_lab::backend::{Backend, Limits};
use sudoku_lab::backends::dfs::Dfs;
use sudoku_lab::format::{read_puzzles, ReadOptions};
use sudoku_lab::model::{Puzzle, Weights};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = || -> ! {
        eprintln!("usage: dfs_speed FILE [LIMIT [REPEAT]]  (LIMIT 2: solve + uniqueness)");
        std::process::exit(2)
    };
    let Some(path) = args.get(1) else { usage() };
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    let limit: u64 = match args.get(2).map(|s| s.parse()) {
        None => 2,
        Some(Ok(l)) => l,
        Some(Err(_)) => usage(),
    };
    let ps: Vec<Puzzle> = read_puzzles(&text, &ReadOptions::default())
        .into_iter()
        .filter_map(|e| e.ok().map(|e| e.puzzle))
        .collect();
    let dfs = Dfs::new();
    if limit == 0 {
        let p = ps[0]
            .clone()
            .with_weights(Arc::new(Weights::pyramid(9)))
            .unwrap();
        let t = Instant::now();
        let o = dfs
            .optimize(&p, &Limits::timeout(std::time::Duration::from_secs(20)))
            .unwrap();
        println!("{:?} in {:?}", o, t.elapsed());
        return;
    }
    let repeat: usize = match args.get(3).map(|s| s.parse::<usize>()) {
        None => 1,
        Some(Ok(r)) => r.max(1),
        Some(Err(_)) => usage(),
    };
    let mut passes = Vec::with_capacity(repeat);
    let mut total = 0u64;
    for _ in 0..repeat {
        let cpu0 = cpu();
        let t = Instant::now();
        total = 0;
        for p in &ps {
            total += dfs.count(p, limit, &Limits::none()).unwrap().count;
        }
        passes.push((cpu() - cpu0, t.elapsed()));
    }
    passes.sort_by_key(|p| p.1);
    let (c, e) = passes[repeat / 2];
    println!(
        "cpu {:.3}s: {:.0} puzzles per cpu-second",
        c,
        ps.len() as f64 / c
    );
    println!(
        "{} puzzles, {} solutions, {:?}, {:.0} puzzles/s",
        ps.len(),
        total,
        e,
        ps.len() as f64 / e.as_secs_f64()
    );
    let mut per: Vec<u64> = ps
        .iter()
        .map(|p| dfs.count_nodes(p, limit).unwrap())
        .collect();
    let nodes: u64 = per.iter().sum();
    per.sort_unstable();
    println!(
        "{:.1} nodes per puzzle (median {}, max {}), {:.0} ns of CPU per node",
        nodes as f64 / ps.len() as f64,
        per[per.len() / 2],
        per[per.len() - 1],
        c * 1e9 / nodes as f64
    );
}

fn cpu() -> f64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap();
    s.split_whitespace().next().unwrap().parse::<f64>().unwrap() / 1e9
}
