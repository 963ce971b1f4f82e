//! The `sudoku-lab` command: parses the command line and hands over to [`cli`]. All solving,
//! parsing and checking lives in the `sudoku_lab` library.

mod cli;

/// mimalloc: varisat and the matrix builders allocate many small vectors per puzzle.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
