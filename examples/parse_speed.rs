//! Times `format::read_puzzles` on the files given (default: the 17-clue set):
//! `cargo run --release --example parse_speed -- ../shared/data/9x9/17_clue.txt`.

/// mimalloc: varisat and the matrix builders allocate many small vectors per puzzle.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::Instant;

use sudoku_lab::format::{read_puzzles, ReadOptions};

fn main() {
    let mut paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        paths.push(
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../shared/data/9x9/17_clue.txt"
            )
            .into(),
        );
    }
    for path in paths {
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                println!("note: {path}: {e}, skipped");
                continue;
            }
        };
        let start = Instant::now();
        let entries = read_puzzles(&text, &ReadOptions::default());
        let elapsed = start.elapsed();
        let bad = entries.iter().filter(|e| e.is_err()).count();
        println!(
            "{path}: {} puzzles ({bad} bad) in {:.1} ms",
            entries.len(),
            elapsed.as_secs_f64() * 1e3
        );
    }
}
