//! The `sudoku-lab` command: parses the command line and hands over to [`cli`]. All solving,
//! parsing and checking lives in the `sudoku_lab` library.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
