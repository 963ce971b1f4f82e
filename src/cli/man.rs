//! `sudoku-lab man`: the manual page (roff) of the program or of one command, generated from the
//! same flags as `--help`.

use std::process::ExitCode;

use clap::{Args, CommandFactory};

use super::batch;
use super::{Cli, UsageError};

/// Print the manual page (roff), generated from the same flags as `--help`.
///
/// View it with `sudoku-lab man | man -l -`; install it with
/// `sudoku-lab man > ~/.local/share/man/man1/sudoku-lab.1`. `sudoku-lab man solve` prints the
/// page of one command (`sudoku-lab-solve(1)`, every flag in full).
#[derive(Args, Debug)]
pub struct ManArgs {
    /// A command whose own page to print (default: the main page).
    command: Option<String>,
}

/// Writes the page; a command that does not exist is a usage error.
pub fn run(args: &ManArgs) -> Result<ExitCode, UsageError> {
    let mut cli = Cli::command();
    cli.build();
    let page = match &args.command {
        None => clap_mangen::Man::new(cli),
        Some(name) => {
            let sub = cli
                .find_subcommand(name)
                .cloned()
                .ok_or_else(|| UsageError(format!("man: no command '{name}'")))?;
            // The program's name and version, as on the main page (a command has no version).
            let source = format!("sudoku-lab {}", env!("CARGO_PKG_VERSION"));
            clap_mangen::Man::new(sub)
                .title(format!("sudoku-lab-{name}"))
                .source(source)
        }
    };
    let mut out = Vec::new();
    page.render(&mut out)
        .map_err(|e| UsageError(format!("man page: {e}")))?;
    batch::write_stdout(&out);
    Ok(ExitCode::SUCCESS)
}
