//! `sudoku-lab backends`: the backends of this build, each with what it is.

use std::process::ExitCode;

use clap::Args;

use sudoku_lab::backends::BackendKind;

/// List the backends compiled into this build.
#[derive(Args, Debug)]
pub struct BackendsArgs {}

/// One line per backend: its name, what it is, and why it is left out of the default set of
/// `xcheck` and `bench` when it is.
pub fn run() -> ExitCode {
    let width = BackendKind::every()
        .iter()
        .map(|k| k.name().len())
        .max()
        .unwrap_or(8);
    for kind in BackendKind::every() {
        let note = kind
            .opt_in()
            .map(|why| format!(" (not in the default set of xcheck and bench: {why})"))
            .unwrap_or_default();
        println!("{:<width$} {}{note}", kind.name(), kind.description());
    }
    ExitCode::SUCCESS
}
