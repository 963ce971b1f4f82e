//! Parsing speed of the puzzle readers on the shared data sets (one group per data set). Files
//! missing from `../shared/data` are skipped with a note.

/// mimalloc: varisat and the matrix builders allocate many small vectors per puzzle.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sudoku_lab::format::{read_puzzles, ReadOptions};

const SETS: &[&str] = &[
    "9x9/17_clue.txt",
    "9x9/serg_benchmark.counts",
    "large/sudoku-400-1.txt",
];

fn parse(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    for rel in SETS {
        let Ok(text) = std::fs::read_to_string(root.join(rel)) else {
            println!("note: {} not found, skipping", root.join(rel).display());
            continue;
        };
        let mut group = c.benchmark_group(format!("parse/{rel}"));
        group
            .sample_size(10)
            .measurement_time(Duration::from_secs(3))
            .throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function("read_puzzles", |b| {
            b.iter(|| read_puzzles(black_box(&text), &ReadOptions::default()).len())
        });
        group.finish();
    }
}

criterion_group!(benches, parse);
criterion_main!(benches);
