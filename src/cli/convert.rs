//! `sudoku-lab convert`: every puzzle of the input written in another format: the lab's own JSON
//! object (one per line), f-puzzles JSON (one document per line), an f-puzzles link, or the line
//! format.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use sudoku_lab::format::{self, fpuzzles, object, ReadOptions};

use super::args::InputArgs;
use super::batch;
use super::UsageError;

/// Write every puzzle of the input in another format, one per line: the lab's own JSON object
/// (holds every puzzle, with its known answer), f-puzzles JSON (opens in f-puzzles and
/// SudokuPad), an f-puzzles link (the compressed form), or the line format (houses and Killer
/// cages only). A puzzle the target cannot hold is reported by its file and line and the others
/// are still written (exit code 2).
#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// Puzzle files (`-` or none: standard input).
    files: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum)]
    to: ConvertTarget,
    #[command(flatten)]
    input: InputArgs,
}

/// What `convert` writes.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvertTarget {
    /// The lab's own JSON object: board, regions, cages, rules and known answer (JSON Lines).
    Json,
    /// f-puzzles JSON, one document per line.
    Fpuzzles,
    /// An f-puzzles link: https://www.f-puzzles.com/?load=… (LZ-string, base64).
    FpuzzlesLink,
    /// The line format: n² symbols, jigsaw labels, Killer cages.
    Line,
}

impl ConvertArgs {
    pub fn resolve(self) -> Result<Config, UsageError> {
        Ok(Config {
            files: self.files,
            read: self.input.read_options(),
            to: self.to,
        })
    }
}

/// What `convert` was asked for.
pub struct Config {
    files: Vec<PathBuf>,
    read: ReadOptions,
    to: ConvertTarget,
}

/// Converts every puzzle; bad input and puzzles the target cannot hold are reported on
/// standard error and make the exit code 2.
pub fn run(config: &Config) -> ExitCode {
    let mut tally = batch::Tally::default();
    let mut out = Vec::new();
    let mut unwritable = false;
    batch::each_puzzle(&config.files, &config.read, None, &mut tally, |item| {
        let written = match config.to {
            ConvertTarget::Json => {
                Ok(object::to_json(&item.puzzle, item.expected.as_ref()).to_string())
            }
            ConvertTarget::Line => format::to_line(&item.puzzle).map_err(|e| e.to_string()),
            ConvertTarget::Fpuzzles | ConvertTarget::FpuzzlesLink => {
                fpuzzles::to_json(&item.puzzle, None)
                    .map(|doc| match config.to {
                        ConvertTarget::FpuzzlesLink => format!(
                            "https://www.f-puzzles.com/?load={}",
                            fpuzzles::compress(&doc.to_string())
                        ),
                        _ => doc.to_string(),
                    })
                    .map_err(|e| e.to_string())
            }
        };
        match written {
            Ok(text) => {
                out.extend_from_slice(text.as_bytes());
                out.push(b'\n');
            }
            Err(why) => {
                eprintln!("{}: error: {why}", item.place());
                unwritable = true;
            }
        }
    });
    batch::write_stdout(&out);
    let _ = std::io::stdout().flush();
    ExitCode::from(if tally.bad_input || unwritable { 2 } else { 0 })
}
