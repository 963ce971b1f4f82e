//! `sudoku-lab completions`: a shell completion script, generated from the flags.

use std::process::ExitCode;

use clap::{Args, CommandFactory};

use super::batch;
use super::Cli;

/// Print a shell completion script for this command, generated from its flags.
///
/// Install for bash: `sudoku-lab completions bash > ~/.local/share/bash-completion/completions/sudoku-lab`;
/// zsh: `sudoku-lab completions zsh > ~/.zfunc/_sudoku-lab` (with `~/.zfunc` in `fpath`);
/// fish: `sudoku-lab completions fish > ~/.config/fish/completions/sudoku-lab.fish`.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    shell: clap_complete::Shell,
}

pub fn run(args: &CompletionsArgs) -> ExitCode {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "sudoku-lab", &mut out);
    batch::write_stdout(&out);
    ExitCode::SUCCESS
}
