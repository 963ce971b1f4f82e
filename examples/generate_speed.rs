//! Times the generator in release:
//! `cargo run --release --example generate_speed [-- COUNT [FILTER]]`
//! (FILTER: only configurations whose name contains it).
//! Prints, per configuration, the time to generate COUNT puzzles (default 100) and the mean givens.

/// mimalloc: varisat and the matrix builders allocate many small vectors per puzzle.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::Instant;

use sudoku_lab::backends::{self, BackendKind};
use sudoku_lab::generate::{GenerateOptions, Generator, PuzzleSpec};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let count: usize = std::env::args().nth(1).map_or(Ok(100), |s| s.parse())?;
    let filter = std::env::args().nth(2).unwrap_or_default();
    let dfs = backends::create(BackendKind::Dfs, &Default::default())?;
    let configs: Vec<(&str, GenerateOptions)> = vec![
        (
            "9x9 full grids (givens 81)",
            GenerateOptions {
                givens: Some(81),
                ..GenerateOptions::new(9)
            },
        ),
        (
            "9x9 unique",
            GenerateOptions {
                unique: true,
                ..GenerateOptions::new(9)
            },
        ),
        (
            "9x9 unique diagonals",
            GenerateOptions {
                spec: PuzzleSpec {
                    diagonals: true,
                    ..GenerateOptions::new(9).spec
                },
                unique: true,
                ..GenerateOptions::new(9)
            },
        ),
        (
            "9x9 jigsaw unique",
            GenerateOptions {
                spec: PuzzleSpec {
                    jigsaw: true,
                    ..GenerateOptions::new(9).spec
                },
                unique: true,
                ..GenerateOptions::new(9)
            },
        ),
        (
            "16x16 full grids",
            GenerateOptions {
                givens: Some(256),
                ..GenerateOptions::new(16)
            },
        ),
        (
            "25x25 full grids",
            GenerateOptions {
                givens: Some(625),
                ..GenerateOptions::new(25)
            },
        ),
        (
            "7x7 jigsaw full grids",
            GenerateOptions {
                spec: PuzzleSpec {
                    jigsaw: true,
                    ..GenerateOptions::new(7).spec
                },
                givens: Some(49),
                ..GenerateOptions::new(7)
            },
        ),
        (
            "16x16 jigsaw full grids",
            GenerateOptions {
                spec: PuzzleSpec {
                    jigsaw: true,
                    ..GenerateOptions::new(16).spec
                },
                givens: Some(256),
                ..GenerateOptions::new(16)
            },
        ),
    ];
    for (name, opts) in configs
        .into_iter()
        .filter(|(name, _)| name.contains(&filter))
    {
        let start = Instant::now();
        let mut givens = 0usize;
        for p in Generator::new(opts, dfs.as_ref())?.take(count) {
            givens += p?.givens().iter().filter(|&&v| v != 0).count();
        }
        let t = start.elapsed();
        println!(
            "{name:28} {count} puzzles in {:8.3} s ({:.2} ms each), mean givens {:.1}",
            t.as_secs_f64(),
            t.as_secs_f64() * 1e3 / count as f64,
            givens as f64 / count as f64
        );
    }
    Ok(())
}
