//! Command-line front end: clap definitions, resolution of raw flags into library types, and the
//! exit-code policy. Every solving decision is made by the library.
//!
//! Exit codes: 0 every puzzle answered ("no solution" is an answer); 1 a checker failure or a
//! solver failure; 2 bad input or usage (the message names file, line and column); 3 some puzzle
//! timed out (and nothing worse happened).

mod batch;
mod xcheck;

use std::io::{self, Read};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

use sudoku_lab::backend::{Backend, Limits};
use sudoku_lab::backends::{self, BackendKind, BackendOptions};
use sudoku_lab::format::{Format, ReadOptions};
use sudoku_lab::judge::Problem;
use sudoku_lab::task::{Task, DEFAULT_COUNT_LIMIT};

#[derive(Parser, Debug)]
#[command(
    name = "sudoku-lab",
    version,
    about = "A workbench for Sudoku-family puzzles: one model, interchangeable backends, every answer checked",
    long_about = "A workbench for Sudoku-family puzzles (any n×n grid with standard boxes or jigsaw regions, \
optional diagonals, optional per-cell weights). Each backend answers the same tasks — solve, count, unique, \
optimize — and every answer is verified by one independent checker before it is printed.\n\n\
Exit codes: 0 answered (\"no solution\" is an answer), 1 checker or solver failure, 2 bad input or usage, \
3 timed out."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Find one solution of each puzzle (or report that there is none).
    Solve(PuzzleArgs),
    /// Count the solutions of each puzzle, up to a limit.
    Count {
        #[command(flatten)]
        args: PuzzleArgs,
        /// Stop counting at this many solutions; the answer is then "at least N".
        #[arg(long, default_value_t = DEFAULT_COUNT_LIMIT, value_parser = clap::value_parser!(u64).range(1..))]
        limit: u64,
    },
    /// Classify each puzzle: no solution, unique, or multiple solutions.
    Unique(PuzzleArgs),
    /// Maximise the weighted score Σ weight(cell) × digit(cell) over all solutions.
    Optimize {
        #[command(flatten)]
        args: PuzzleArgs,
        /// `pyramid` (NOIP 2009: 6 on the border up to 10 in the centre of a 9×9), or a file of
        /// n rows of n integers.
        #[arg(long, default_value = "pyramid", value_name = "pyramid|FILE")]
        weights: String,
    },
    /// Read an original judge problem's standard input and write its exact expected output.
    Judge {
        /// The problem whose input/output format to speak.
        #[arg(value_enum)]
        problem: ProblemArg,
        /// Input file (default: standard input).
        input: Option<PathBuf>,
        #[command(flatten)]
        backend: BackendArgs,
    },
    /// Run every puzzle through several backends and check that they all agree.
    ///
    /// Prints a row for every disagreement, checker failure or solver error, then a summary per
    /// backend. Exit 1 on any disagreement or failure, 3 if only time-outs, 0 if all agree.
    Xcheck {
        /// Puzzle files; `-` or none reads standard input.
        files: Vec<PathBuf>,
        /// The task every backend answers.
        #[arg(long, value_enum, default_value_t = TaskArg::Unique)]
        task: TaskArg,
        /// Comma-separated backends to compare (default: all compiled in).
        #[arg(long, value_delimiter = ',')]
        backends: Vec<String>,
        /// Count limit for `--task count`.
        #[arg(long, default_value_t = DEFAULT_COUNT_LIMIT, value_parser = clap::value_parser!(u64).range(1..))]
        limit: u64,
        /// Weights for `--task optimize`: `pyramid` or a file of n rows of n integers.
        #[arg(long, default_value = "pyramid", value_name = "pyramid|FILE")]
        weights: String,
        /// Puzzles checked in parallel (default: all cores).
        #[arg(long, short)]
        jobs: Option<usize>,
        #[command(flatten)]
        input: InputArgs,
        #[command(flatten)]
        engine: EngineArgs,
        /// Stream one JSON object per puzzle as results complete (summary on standard error).
        #[arg(long)]
        json: bool,
    },
    /// List the backends compiled into this build.
    Backends,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum TaskArg {
    Solve,
    Count,
    Unique,
    Optimize,
}

/// Arguments shared by the puzzle tasks.
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
}

/// How puzzles are read.
#[derive(Args, Debug)]
struct InputArgs {
    /// Add both main diagonals as houses (X-Sudoku).
    #[arg(long)]
    diagonals: bool,
    /// Input format (default: detected from the text).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
}

impl InputArgs {
    fn read_options(&self) -> ReadOptions {
        ReadOptions {
            format: self.format.map(Format::from),
            diagonals: self.diagonals,
        }
    }
}

/// Backend choice and the options of the engines.
#[derive(Args, Debug)]
struct BackendArgs {
    /// Solving backend (see `sudoku-lab backends`).
    #[arg(long, short, default_value = "dfs")]
    backend: String,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Options every backend may read, and the time limit.
#[derive(Args, Debug)]
struct EngineArgs {
    /// Give up on a puzzle after this many seconds (reported as a time-out, never as "no solution").
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum FormatArg {
    /// One puzzle per line (n² symbols, optional jigsaw labels after whitespace).
    Line,
    /// n rows of n numbers or symbols; puzzles separated by blank lines.
    Grid,
    /// A LeetCode 37 board, or an array of boards.
    Json,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum OutputArg {
    /// One line of n² symbols per grid.
    Line,
    /// n rows of space-separated numbers, a blank line after each grid.
    Grid,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum ProblemArg {
    /// NOIP 2009 靶形数独: maximum pyramid score, or -1.
    Noip2009,
    /// HDU 1426: solve puzzles with `?` for empty cells.
    Hdu1426,
    /// HDU 4069: Squiggly Sudoku with walls; unique / none / multiple.
    Hdu4069,
    /// Sicily 1317: count solutions, print the unique one.
    Sicily1317,
    /// LeetCode 37: solve a JSON board.
    Leetcode37,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Line => Format::Line,
            FormatArg::Grid => Format::Grid,
            FormatArg::Json => Format::Json,
        }
    }
}

impl From<ProblemArg> for Problem {
    fn from(p: ProblemArg) -> Problem {
        match p {
            ProblemArg::Noip2009 => Problem::Noip2009,
            ProblemArg::Hdu1426 => Problem::Hdu1426,
            ProblemArg::Hdu4069 => Problem::Hdu4069,
            ProblemArg::Sicily1317 => Problem::Sicily1317,
            ProblemArg::Leetcode37 => Problem::Leetcode37,
        }
    }
}

/// A usage or input error that stops the command before any work: exit 2.
#[derive(Debug)]
struct UsageError(String);

impl BackendArgs {
    fn create(&self) -> Result<Box<dyn Backend>, UsageError> {
        self.engine.create(&self.backend)
    }
}

impl EngineArgs {
    fn options(&self) -> BackendOptions {
        BackendOptions::default()
    }
    fn create(&self, name: &str) -> Result<Box<dyn Backend>, UsageError> {
        let kind: BackendKind = name.parse().map_err(UsageError)?;
        backends::create(kind, &self.options())
            .map_err(|e| UsageError(format!("backend {kind}: {e}")))
    }
    fn timeout(&self) -> Result<Option<Duration>, UsageError> {
        match self.timeout {
            None => Ok(None),
            Some(s) if s.is_finite() && s > 0.0 && s < 1e9 => Ok(Some(Duration::from_secs_f64(s))),
            Some(s) => Err(UsageError(format!(
                "--timeout must be a positive number of seconds, not {s}"
            ))),
        }
    }
    fn limits(&self) -> Result<Limits, UsageError> {
        Ok(self.timeout()?.map_or(Limits::none(), Limits::timeout))
    }
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(UsageError(msg)) => {
            eprintln!("sudoku-lab: error: {msg}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode, UsageError> {
    let (args, task, weights) = match cli.command {
        Command::Solve(args) => (args, Task::Solve, None),
        Command::Count { args, limit } => (args, Task::Count { limit }, None),
        Command::Unique(args) => (args, Task::Unique, None),
        Command::Optimize { args, weights } => (args, Task::Optimize, Some(weights)),
        Command::Judge {
            problem,
            input,
            backend,
        } => return judge(problem.into(), input, &backend),
        Command::Xcheck {
            files,
            task,
            backends,
            limit,
            weights,
            jobs,
            input,
            engine,
            json,
        } => {
            let task = match task {
                TaskArg::Solve => Task::Solve,
                TaskArg::Count => Task::Count { limit },
                TaskArg::Unique => Task::Unique,
                TaskArg::Optimize => Task::Optimize,
            };
            let names: Vec<String> = if backends.is_empty() {
                BackendKind::all()
                    .iter()
                    .map(|k| k.name().to_string())
                    .collect()
            } else {
                backends
            };
            let backends = names
                .iter()
                .map(|n| engine.create(n))
                .collect::<Result<Vec<_>, _>>()?;
            let config = xcheck::Config {
                task,
                read: input.read_options(),
                weights: (task == Task::Optimize)
                    .then(|| batch::WeightsSpec::parse(&weights))
                    .transpose()?,
                timeout: engine.timeout()?,
                jobs: match jobs {
                    Some(0) => return Err(UsageError("--jobs must be at least 1".into())),
                    Some(j) => j,
                    None => std::thread::available_parallelism().map_or(1, |n| n.get()),
                },
                json,
            };
            return Ok(xcheck::run(&backends, &config, &files));
        }
        Command::Backends => {
            for kind in BackendKind::all() {
                println!("{:<8} {}", kind.name(), kind.description());
            }
            return Ok(ExitCode::SUCCESS);
        }
    };
    let backend = args.backend.create()?;
    let config = batch::Config {
        task,
        read: args.input.read_options(),
        weights: weights.map(|w| batch::WeightsSpec::parse(&w)).transpose()?,
        timeout: args.backend.engine.timeout()?,
        json: args.json,
        grid_output: args.output == OutputArg::Grid,
    };
    Ok(batch::run(backend.as_ref(), &config, &args.files))
}

fn judge(
    problem: Problem,
    input: Option<PathBuf>,
    args: &BackendArgs,
) -> Result<ExitCode, UsageError> {
    let backend = args.create()?;
    let (name, bytes) = match &input {
        Some(p) if p.as_os_str() != "-" => (
            p.display().to_string(),
            std::fs::read(p).map_err(|e| UsageError(format!("{}: {e}", p.display())))?,
        ),
        _ => {
            let mut buf = Vec::new();
            io::stdin()
                .read_to_end(&mut buf)
                .map_err(|e| UsageError(format!("<stdin>: {e}")))?;
            ("<stdin>".to_string(), buf)
        }
    };
    let text = batch::decode_utf8(&name, &bytes).map_err(UsageError)?;
    match sudoku_lab::judge::run(problem, &text, backend.as_ref(), &args.engine.limits()?) {
        Ok(out) => {
            batch::write_stdout(out.as_bytes());
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("{name}: {e}");
            Ok(ExitCode::from(e.exit_code()))
        }
    }
}
