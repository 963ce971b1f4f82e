//! `sudoku-lab report`: the JSON outputs of a campaign's shards merged
//! ([`sudoku_lab::report::merge`]) and written as the table, CSV, JSON and plot of one run.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use sudoku_lab::report;

use super::batch;
use super::bench::{self, Outputs, TableOutputs};
use super::UsageError;

/// Merge the JSON outputs of a campaign's shards (`bench --json` files, or `xcheck --json`
/// output) into the table one run would have printed, with optional CSV, JSON and plot.
///
/// Medians, percentiles and totals are recomputed from every puzzle's time, never averaged
/// from the shards. A puzzle found in two inputs, or an empty input, is an error (exit 2).
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// `bench --json` files, or files of `xcheck --json` output (one kind at a time); `-`:
    /// standard input.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    outputs: TableOutputs,
}

impl ReportArgs {
    pub fn resolve(self) -> Result<Config, UsageError> {
        Ok(Config {
            outputs: self.outputs.resolve()?,
            files: self.files,
        })
    }
}

/// The shards' files, and where the merged rows go besides the table.
pub struct Config {
    files: Vec<PathBuf>,
    outputs: Outputs,
}

/// The shards' JSON merged and written as one run's. Unreadable or inconsistent inputs are usage
/// errors (exit 2); an output that cannot be written, exit 1.
pub fn run(config: &Config) -> Result<ExitCode, UsageError> {
    let inputs = config
        .files
        .iter()
        .map(|p| {
            let name = batch::source_name(p);
            let text = batch::read_text(p).map_err(|e| e.to_string())?;
            if text.trim().is_empty() {
                return Err(format!(
                    "{name}: empty: expected the output of bench --json or xcheck --json"
                ));
            }
            Ok((name, text))
        })
        .collect::<Result<Vec<_>, String>>()
        .map_err(UsageError)?;
    let merged = report::merge(&inputs).map_err(|e| UsageError(e.to_string()))?;
    let head = merged
        .xcheck
        .map(|t| format!("{t}\n").into_bytes())
        .unwrap_or_default();
    if let Err(e) = bench::write_rows(&merged.rows, &config.outputs, head) {
        eprintln!("sudoku-lab: error: {e}");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
