//! Command-line front end: clap definitions, resolution of raw flags into library types, and the
//! exit-code policy. Every solving decision is made by the library.
//!
//! Each command has its own module: its flags (`XArgs`), resolved into a config before any work
//! starts (`XArgs::resolve`), and the `run` that does the work. Flag groups that several commands
//! share are in [`args`] and [`engine`]. Adding a command: one module, one variant in [`Command`]
//! and one line in [`run`].
//!
//! Exit codes: 0 every puzzle answered ("no solution" is an answer); 1 a checker failure or a
//! solver failure; 2 bad input or usage (the message names file, line and column); 3 some puzzle
//! timed out (and nothing worse happened).

/// `eprintln!` that ignores a closed or failing standard error, where the standard macro panics
/// (`sudoku-lab … 2>&1 | head -1`): a message no one can read is no reason to stop or to lose the
/// answers already written. Every module of the command line uses this one.
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// `eprint!` that ignores a closed or failing standard error, as [`eprintln!`] above.
macro_rules! eprint {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

mod args;
mod backends;
mod batch;
mod bench;
mod completions;
mod convert;
mod encode;
mod engine;
mod explain;
mod fuzz;
mod fuzz_inputs;
mod generate;
mod grade;
mod judge;
mod man;
mod output;
mod render;
mod report;
mod solve;
mod strength;
mod xcheck;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use sudoku_lab::backends::UnknownBackend;

#[derive(Parser, Debug)]
#[command(
    name = "sudoku-lab",
    version,
    about = "A workbench for Sudoku-family puzzles: one model, interchangeable backends, every answer checked",
    long_about = "A workbench for Sudoku-family puzzles (any n×n grid with standard boxes or jigsaw regions, \
optional diagonals, optional per-cell weights). Each backend answers the same tasks — solve, count, unique, \
optimize — and every answer is verified by one independent checker before it is printed.\n\n\
Exit codes: 0 answered (\"no solution\" is an answer), 1 checker or solver failure, 2 bad input or usage, \
3 timed out, 130 xcheck stopped by Ctrl-C (its summary covers the puzzles checked)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The commands, each described by its flags' type.
#[derive(Subcommand, Debug)]
enum Command {
    Solve(solve::SolveArgs),
    Count(solve::CountArgs),
    Unique(solve::UniqueArgs),
    Optimize(solve::OptimizeArgs),
    Judge(judge::JudgeArgs),
    Xcheck(xcheck::XcheckArgs),
    Bench(bench::BenchArgs),
    Fuzz(fuzz::FuzzArgs),
    Report(report::ReportArgs),
    Generate(generate::GenerateArgs),
    Encode(encode::EncodeArgs),
    Strength(strength::StrengthArgs),
    Explain(explain::ExplainArgs),
    Grade(grade::GradeArgs),
    Convert(convert::ConvertArgs),
    Render(render::RenderArgs),
    Backends(backends::BackendsArgs),
    Completions(completions::CompletionsArgs),
    Man(man::ManArgs),
    /// A worker process of a backend (started by this program itself).
    #[command(name = WORKER_COMMAND, hide = true)]
    Worker(WorkerArgs),
}

/// The hidden subcommand that runs a worker process: `sudoku-lab __worker cp`.
pub const WORKER_COMMAND: &str = "__worker";

/// Which worker to run: `cp` (the `cp` backend's searches) or `faults` (misbehaves on request,
/// for tests).
#[derive(clap::Args, Debug)]
struct WorkerArgs {
    kind: String,
}

/// Serves a worker's requests on standard input and output until standard input ends.
fn worker(args: &WorkerArgs) -> Result<ExitCode, UsageError> {
    let served = match args.kind.as_str() {
        #[cfg(feature = "cp")]
        "cp" => sudoku_lab::backends::cp::serve_worker(),
        "faults" => sudoku_lab::isolate::serve_faults(),
        other => return Err(UsageError(format!("unknown worker '{other}'"))),
    };
    Ok(match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::FAILURE,
    })
}

/// A usage or input error that stops the command before any work: exit 2.
#[derive(Debug)]
struct UsageError(String);

impl From<UnknownBackend> for UsageError {
    fn from(e: UnknownBackend) -> UsageError {
        UsageError(e.to_string())
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

/// Resolves the command's flags, then runs it.
fn run(cli: Cli) -> Result<ExitCode, UsageError> {
    Ok(match cli.command {
        Command::Solve(args) => batch::run(&args.resolve()?),
        Command::Count(args) => batch::run(&args.resolve()?),
        Command::Unique(args) => batch::run(&args.resolve()?),
        Command::Optimize(args) => batch::run(&args.resolve()?),
        Command::Judge(args) => judge::run(&args.resolve()?)?,
        Command::Xcheck(args) => xcheck::run(&args.resolve()?),
        Command::Bench(args) => bench::run(&args.resolve()?),
        Command::Fuzz(args) if args.hostile.hostile => {
            fuzz_inputs::run(args.hostile.clone().resolve(args.resolve()?)?)
        }
        Command::Fuzz(args) => fuzz::run(&args.resolve()?),
        Command::Report(args) => report::run(&args.resolve()?)?,
        Command::Generate(args) => generate::run(&args.resolve()?)?,
        Command::Encode(args) => encode::run(&args.resolve()?)?,
        Command::Strength(args) => strength::run(&args.resolve()?),
        Command::Explain(args) => explain::run(&args.resolve()?),
        Command::Grade(args) => grade::run(&args.resolve()?),
        Command::Convert(args) => convert::run(&args.resolve()?),
        Command::Render(args) => render::run(&args.resolve()?),
        Command::Backends(_) => backends::run(),
        Command::Completions(args) => completions::run(&args),
        Command::Man(args) => man::run(&args)?,
        Command::Worker(args) => worker(&args)?,
    })
}
