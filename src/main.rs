//! The `sudoku-lab` command: parses the command line and hands over to [`cli`]. All solving,
//! parsing and checking lives in the `sudoku_lab` library.

mod cli;

/// mimalloc: varisat and the matrix builders allocate many small vectors per puzzle.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::process::ExitCode;

use sudoku_lab::sat::trace;

fn main() -> ExitCode {
    // The library only hands its search traces to a sink; they go to standard error on request.
    if let Some(level) = std::env::var_os(trace::ENV).and_then(|v| trace::Level::from_env_value(&v))
    {
        trace::install(level, |line| eprintln!("{line}"));
    }
    cli::main()
}
