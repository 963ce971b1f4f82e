//! `sudoku-lab solve`, `count`, `unique` and `optimize`: one task over every puzzle of the input,
//! with one backend. Their flags resolve into a [`batch::Config`], which [`batch::run`] runs.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use sudoku_lab::task::{Task, DEFAULT_COUNT_LIMIT};

use super::args::{jobs_arg, InputArgs, WeightsArg};
use super::batch;
use super::engine::BackendArgs;
use super::UsageError;

/// Find one solution of each puzzle (or report that there is none).
#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    puzzles: PuzzleArgs,
}

/// Count the solutions of each puzzle, up to a limit.
#[derive(Args, Debug)]
pub struct CountArgs {
    #[command(flatten)]
    puzzles: PuzzleArgs,
    /// Stop counting at this many solutions; the answer is then "at least N".
    #[arg(long, default_value_t = DEFAULT_COUNT_LIMIT, value_parser = clap::value_parser!(u64).range(1..))]
    limit: u64,
}

/// Classify each puzzle: no solution, unique, or multiple solutions.
#[derive(Args, Debug)]
pub struct UniqueArgs {
    #[command(flatten)]
    puzzles: PuzzleArgs,
}

/// Maximise the weighted score Σ weight(cell) × digit(cell) over all solutions.
#[derive(Args, Debug)]
pub struct OptimizeArgs {
    #[command(flatten)]
    puzzles: PuzzleArgs,
    /// `pyramid` (NOIP 2009: 6 on the border up to 10 in the centre of a 9×9), or a file of
    /// n rows of n integers.
    #[arg(long, default_value = "pyramid", value_name = "pyramid|FILE",
          value_parser = WeightsArg::pyramid_or_file)]
    weights: WeightsArg,
}

impl SolveArgs {
    pub fn resolve(self) -> Result<batch::Config, UsageError> {
        self.puzzles.resolve(Task::Solve, None)
    }
}

impl CountArgs {
    pub fn resolve(self) -> Result<batch::Config, UsageError> {
        let task = Task::Count { limit: self.limit };
        self.puzzles.resolve(task, None)
    }
}

impl UniqueArgs {
    pub fn resolve(self) -> Result<batch::Config, UsageError> {
        self.puzzles.resolve(Task::Unique, None)
    }
}

impl OptimizeArgs {
    pub fn resolve(self) -> Result<batch::Config, UsageError> {
        self.puzzles.resolve(Task::Optimize, Some(&self.weights))
    }
}

/// The flags of the four tasks.
#[derive(Args, Debug)]
struct PuzzleArgs {
    /// Puzzle files; `-` or none reads standard input.
    files: Vec<PathBuf>,
    #[command(flatten)]
    backend: BackendArgs,
    #[command(flatten)]
    input: InputArgs,
    /// Print one JSON object per puzzle (JSON Lines) instead of text.
    #[arg(long)]
    json: bool,
    /// How to print grids in text mode.
    #[arg(long, value_enum, default_value_t = OutputArg::Line)]
    output: OutputArg,
    /// Puzzles answered in parallel (default: all cores). Output keeps the input order and
    /// streams. With --proof, one job (every proof goes to the same file).
    #[arg(long, short)]
    jobs: Option<usize>,
}

impl PuzzleArgs {
    /// The batch that answers `task` over the input, with `weights` attached to every puzzle.
    fn resolve(
        self,
        task: Task,
        weights: Option<&WeightsArg>,
    ) -> Result<batch::Config, UsageError> {
        let engine = &self.backend.engine;
        Ok(batch::Config {
            backend: self.backend.create()?,
            task,
            read: self.input.read_options(),
            weights: weights.map(WeightsArg::resolve).transpose()?,
            timeout: engine.timeout()?,
            json: self.json,
            grid_output: self.output == OutputArg::Grid,
            jobs: if engine.writes_proofs() {
                1
            } else {
                jobs_arg(self.jobs)?
            },
            one_puzzle: engine.writes_proofs(),
            files: self.files,
        })
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum OutputArg {
    /// One line of n² symbols per grid.
    Line,
    /// n rows of space-separated numbers, a blank line after each grid.
    Grid,
}
