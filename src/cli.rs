//! Command-line front end: clap definitions, resolution of raw flags into library types, and the
//! exit-code policy. Every solving decision is made by the library.
//!
//! Exit codes: 0 every puzzle answered ("no solution" is an answer); 1 a checker failure or a
//! solver failure; 2 bad input or usage (the message names file, line and column); 3 some puzzle
//! timed out (and nothing worse happened).

mod batch;
mod bench;
mod fuzz;
mod xcheck;

use std::convert::Infallible;
use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use sudoku_lab::backend::{Backend, BackendError, Limits};
use sudoku_lab::backends::cmd::CmdOptions;
#[cfg(feature = "cp")]
use sudoku_lab::backends::cp::CpBackendOptions;
use sudoku_lab::backends::dlx::{DlxOptions, DEFAULT_MEMORY_BUDGET};
use sudoku_lab::backends::ilp::{IlpOptions, IlpSolver};
use sudoku_lab::backends::maxsat_ext::MaxSatExtOptions;
use sudoku_lab::backends::minizinc::{
    MiniZincOptions, DEFAULT_PROGRAM as MZN_PROGRAM, DEFAULT_SOLVER as MZN_SOLVER,
};
use sudoku_lab::backends::sat::{
    CadicalConfig, SatOptimizer, SatOptions, DEFAULT_MEMORY_BUDGET as SAT_MEMORY_BUDGET,
};
use sudoku_lab::backends::sat_ext::SatExtOptions;
use sudoku_lab::backends::{self, BackendKind, BackendOptions};
#[cfg(feature = "cp")]
use sudoku_lab::cp::CpOptions;
use sudoku_lab::cp::{AllDiffLevel, Branching, DEFAULT_MEMORY_MIB as CP_MEMORY_MIB};
use sudoku_lab::format::{self, Format, ReadOptions};
use sudoku_lab::generate::{GenerateOptions, Generator};
use sudoku_lab::judge::{JudgeError, Problem};
use sudoku_lab::model::{Shape, MAX_SIZE};
use sudoku_lab::sat::encode::{Amo, CageEncoding, EncodeOptions, Encoding};
use sudoku_lab::shard::Shard;
use sudoku_lab::task::{Task, DEFAULT_COUNT_LIMIT};
use sudoku_lab::weights::WeightSource;

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
        #[arg(long, default_value = "pyramid", value_name = "pyramid|FILE",
              value_parser = WeightsArg::pyramid_or_file)]
        weights: WeightsArg,
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
        #[arg(long, default_value = "pyramid", value_name = "pyramid|FILE",
              value_parser = WeightsArg::pyramid_or_file)]
        weights: WeightsArg,
        /// Puzzles checked in parallel (default: all cores).
        #[arg(long, short)]
        jobs: Option<usize>,
        /// Each backend's time over the run: once it has used this many seconds, it checks no
        /// more puzzles, and its summary row (marked cut short) covers the puzzles it ran.
        #[arg(long, value_name = "SECONDS")]
        budget: Option<f64>,
        #[command(flatten)]
        input: InputArgs,
        #[command(flatten)]
        engine: EngineArgs,
        /// Stream one JSON object per puzzle as results complete (summary on standard error).
        #[arg(long)]
        json: bool,
        /// Do shard K of N of the job: the input puzzles i (from 0) with i mod N = K − 1. The N
        /// shards together do exactly one run's work (see docs/campaigns.md).
        #[arg(long, value_name = "K/N", default_value = "1/1")]
        shard: Shard,
    },
    /// Time backends on puzzle files: puzzles/s and µs per puzzle (median, p90, max), with
    /// optional CSV, JSON and an SVG plot of the time distributions (one panel per file).
    ///
    /// Runs on one thread so figures compare; times include the independent check.
    Bench {
        /// Puzzle files (each becomes one panel / group of rows).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Comma-separated backends to time (default: all compiled in).
        #[arg(long, value_delimiter = ',')]
        backends: Vec<String>,
        /// The task to time (`unique` = solve with uniqueness check).
        #[arg(long, value_enum, default_value_t = TaskArg::Unique)]
        task: TaskArg,
        /// Count limit for `--task count`.
        #[arg(long, default_value_t = DEFAULT_COUNT_LIMIT, value_parser = clap::value_parser!(u64).range(1..))]
        limit: u64,
        /// Weights for `--task optimize`: `pyramid` or a file of n rows of n integers.
        #[arg(long, default_value = "pyramid", value_name = "pyramid|FILE",
              value_parser = WeightsArg::pyramid_or_file)]
        weights: WeightsArg,
        /// Time only the first N puzzles of each file.
        #[arg(long, value_name = "N")]
        max_puzzles: Option<usize>,
        /// Each backend's time on each file: once it has used this many seconds, it runs no more
        /// puzzles of the file, and its row (marked cut short) covers the puzzles it ran.
        #[arg(long, value_name = "SECONDS")]
        budget: Option<f64>,
        #[command(flatten)]
        outputs: TableOutputs,
        #[command(flatten)]
        input: InputArgs,
        #[command(flatten)]
        engine: EngineArgs,
        /// Do shard K of N of the job: the puzzles of each file (after --max-puzzles) i (from 0) with i mod N = K − 1. The N
        /// shards together do exactly one run's work (see docs/campaigns.md).
        #[arg(long, value_name = "K/N", default_value = "1/1")]
        shard: Shard,
    },
    /// Generate random puzzles and cross-check backends on them until two disagree or an answer
    /// fails the checker; then shrink the puzzle and print it with a regression line.
    ///
    /// Case I of seed S is generated from its own seed, so `--seed S --case I --puzzles 1` replays
    /// it. Cases mix unique, random, sparse, clashing and altered puzzles of the asked shape.
    /// The fault reported is always the lowest case number, whatever --jobs. Shrinking drops
    /// givens (delta debugging), lowers given values, drops cages (`--killer`), then drops
    /// diagonals and jigsaw regions where the fault allows, keeping a cut only while the same
    /// backends disagree the same way.
    /// Exit 1 when a fault was found, 0 when the budget ran out without one, 2 when a case could
    /// not be generated (a shape with no full grid, such as side 2 with diagonals).
    Fuzz {
        /// Comma-separated backends to compare (at least one; the checker judges each answer).
        #[arg(long, value_delimiter = ',', required = true)]
        backends: Vec<String>,
        #[command(flatten)]
        shape: ShapeArgs,
        /// The task every backend answers.
        #[arg(long, value_enum, default_value_t = TaskArg::Unique)]
        task: TaskArg,
        /// Count limit for `--task count`.
        #[arg(long, default_value_t = DEFAULT_COUNT_LIMIT, value_parser = clap::value_parser!(u64).range(1..))]
        limit: u64,
        /// Weights for `--task optimize`: `random` (new ones per case, in -20..=50), `pyramid`,
        /// or a file of n rows of n integers.
        #[arg(long, default_value = "random", value_name = "random|pyramid|FILE",
              value_parser = WeightsArg::random_pyramid_or_file)]
        weights: WeightsArg,
        /// Stop after this many seconds (default 60, unless --puzzles is given).
        #[arg(long, value_name = "S")]
        seconds: Option<f64>,
        /// Stop after this many cases (puzzles).
        #[arg(long, value_name = "M")]
        puzzles: Option<u64>,
        /// Seed of the run (default: from the clock, printed so that the run can be replayed).
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        /// Start at this case number (with `--puzzles 1`: replay one case).
        #[arg(long, value_name = "I", default_value_t = 0)]
        case: u64,
        /// Cases checked in parallel (default: all cores).
        #[arg(long, short)]
        jobs: Option<usize>,
        /// Shrinking trials at most (each runs every backend once); 0 reports the fault unshrunk.
        #[arg(long, value_name = "N", default_value_t = sudoku_lab::fuzz::DEFAULT_SHRINK_TRIALS)]
        shrink_trials: usize,
        /// Append the regression line (`puzzle:count[:solution]`) to this file.
        #[arg(long, value_name = "FILE")]
        regressions: Option<PathBuf>,
        /// Killer cases: every case's full grid cut into random cages (the unique ones with no
        /// givens); the changed case alters a cage's sum. Shrinking drops cages as well as givens.
        #[arg(long)]
        killer: bool,
        /// Cage sizes of `--killer`, e.g. `2..5` (the default).
        #[arg(long, value_name = "A..B", requires = "killer", default_value = "2..5")]
        cage_sizes: String,
        #[command(flatten)]
        engine: EngineArgs,
        /// Do shard K of N of the job: the cases (counted from --case) i (from 0) with i mod N = K − 1. The N
        /// shards together do exactly one run's work (see docs/campaigns.md).
        #[arg(long, value_name = "K/N", default_value = "1/1")]
        shard: Shard,
    },
    /// Merge the JSON outputs of a campaign's shards (`bench --json` files, or `xcheck --json`
    /// output) into the table one run would have printed, with optional CSV, JSON and plot.
    ///
    /// Medians, percentiles and totals are recomputed from every puzzle's time, never averaged
    /// from the shards. A puzzle found in two inputs is an error (exit 2).
    Report {
        /// `bench --json` files, or files of `xcheck --json` output (one kind at a time).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        outputs: TableOutputs,
    },
    /// Generate random puzzles in line format (jigsaw ones followed by their region labels).
    ///
    /// A random full grid by randomised search, then givens removed at random (or, with
    /// `--unique`, only while the solution stays unique). The same seed gives the same output.
    Generate {
        #[command(flatten)]
        shape: ShapeArgs,
        /// Givens to keep (default about 0.4·n², or as few as uniqueness allows with `--unique`).
        #[arg(long, value_name = "K")]
        givens: Option<usize>,
        /// Remove givens only while the puzzle stays uniquely solvable.
        #[arg(long)]
        unique: bool,
        /// Write each puzzle's known answer after it, `puzzle:1:solution` (needs `--unique`), so
        /// that `xcheck`, `solve`, `count`… check every backend against it.
        #[arg(long, requires = "unique")]
        with_answer: bool,
        /// How many puzzles.
        #[arg(long, default_value_t = 1, value_name = "M")]
        count: usize,
        /// Random seed (default: from the clock, printed on standard error so the run can be replayed).
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        /// Attach weights to the puzzles (`pyramid`); the line output is unchanged.
        #[arg(long, value_name = "pyramid", value_parser = WeightsArg::pyramid_or_file)]
        weights: Option<WeightsArg>,
        /// Backend used for the uniqueness checks of `--unique`.
        #[arg(long, short, default_value = "dfs")]
        backend: String,
        /// Killer Sudoku: the full grid cut into random connected cages of distinct digits, with
        /// no givens unless `--givens` asks; with `--unique`, cages are split until one solution
        /// is left.
        #[arg(long)]
        killer: bool,
        /// Cage sizes of `--killer`, e.g. `2..5` (the default).
        #[arg(long, value_name = "A..B", requires = "killer", default_value = "2..5")]
        cage_sizes: String,
        /// Do shard K of N of the job: the puzzles i (from 0) with i mod N = K − 1. The N
        /// shards together do exactly one run's work (see docs/campaigns.md).
        #[arg(long, value_name = "K/N", default_value = "1/1")]
        shard: Shard,
    },
    /// Write a puzzle's encoding for external tools: DIMACS CNF (with a comment header giving
    /// the variable numbering), a CPLEX LP integer program, weighted MaxSAT (WCNF), or a
    /// MiniZinc model.
    Encode {
        /// Puzzle file (`-` or none: standard input).
        file: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = EncodeTarget::Dimacs)]
        to: EncodeTarget,
        /// Which puzzle of the file to encode (1-based, bad ones counted); needed when it holds
        /// several. It is encoded even when others are bad (they are reported; exit code 2).
        #[arg(long, value_name = "K")]
        index: Option<usize>,
        /// Write the encoding to this file instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Print variables, clauses and literals per part of the CNF (instead of the CNF itself
        /// unless --output is given).
        #[arg(long)]
        stats: bool,
        /// Objective: maximise Σ weight × digit with `pyramid` or a weights file. LP, MiniZinc:
        /// none (feasibility only) when absent; WCNF: pyramid when absent.
        #[arg(long, value_name = "pyramid|FILE", value_parser = WeightsArg::pyramid_or_file)]
        weights: Option<WeightsArg>,
        /// DIMACS: also fix naked / hidden singles and locked candidates before encoding, as the
        /// in-process `sat` backend does, so the file is the formula that backend solves (the
        /// header lists the fixed digits needed to decode a model).
        #[arg(long)]
        propagate: bool,
        /// Largest export to build, in MiB (as estimated before building it): the CNF formula
        /// of DIMACS and WCNF, the integer program and its text for LP; larger puzzles are
        /// refused, as by the `sat` backends.
        #[arg(long, value_name = "MIB", default_value_t = (SAT_MEMORY_BUDGET >> 20) as u64,
              value_parser = clap::value_parser!(u64).range(1..))]
        sat_memory_mib: u64,
        #[command(flatten)]
        cnf: CnfArgs,
        #[command(flatten)]
        input: InputArgs,
    },
    /// List the backends compiled into this build.
    Backends,
    /// Print a shell completion script for this command, generated from its flags.
    ///
    /// Install for bash: `sudoku-lab completions bash > ~/.local/share/bash-completion/completions/sudoku-lab`;
    /// zsh: `sudoku-lab completions zsh > ~/.zfunc/_sudoku-lab` (with `~/.zfunc` in `fpath`);
    /// fish: `sudoku-lab completions fish > ~/.config/fish/completions/sudoku-lab.fish`.
    Completions {
        /// The shell to complete for.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), generated from the same flags as `--help`.
    ///
    /// View it with `sudoku-lab man | man -l -`; install it with
    /// `sudoku-lab man > ~/.local/share/man/man1/sudoku-lab.1`. `sudoku-lab man solve` prints the
    /// page of one command (`sudoku-lab-solve(1)`, every flag in full).
    Man {
        /// A command whose own page to print (default: the main page).
        command: Option<String>,
    },
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum EncodeTarget {
    /// DIMACS CNF.
    Dimacs,
    /// CPLEX LP integer program (objective: the weights of --weights).
    Lp,
    /// Weighted MaxSAT (MaxSAT Evaluation WCNF: `h` hard clauses, weighted soft clauses): the
    /// DIMACS encoding plus the objective of --weights (default pyramid); the header says how
    /// a cost becomes a score.
    Wcnf,
    /// MiniZinc model (the `cp` backend's model: all_different per house and cage, cage sums,
    /// `solve maximize score` with --weights, `solve satisfy` without); run it with
    /// `minizinc --solver gecode FILE`.
    Mzn,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum TaskArg {
    Solve,
    Count,
    Unique,
    Optimize,
}

impl TaskArg {
    fn with_limit(self, limit: u64) -> Task {
        match self {
            TaskArg::Solve => Task::Solve,
            TaskArg::Count => Task::Count { limit },
            TaskArg::Unique => Task::Unique,
            TaskArg::Optimize => Task::Optimize,
        }
    }
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
    /// Puzzles answered in parallel (default: all cores). Output keeps the input order and
    /// streams. With --proof, one job (every proof goes to the same file).
    #[arg(long, short)]
    jobs: Option<usize>,
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

/// The shape of the puzzles `generate` and `fuzz` make.
#[derive(Args, Debug)]
struct ShapeArgs {
    /// Side of the grid, with its standard boxes (default 9).
    #[arg(long, conflicts_with = "boxes")]
    size: Option<usize>,
    /// Box shape rows×columns, e.g. `2x3` (`generate`: only the standard shape of a side, the one
    /// line format carries).
    #[arg(long, value_name = "RxC")]
    boxes: Option<String>,
    /// Random jigsaw regions (n connected regions of n cells) instead of boxes; `fuzz` draws new
    /// ones for every case.
    #[arg(long, conflicts_with = "boxes")]
    jigsaw: bool,
    /// Both main diagonals are houses too (X-Sudoku).
    #[arg(long)]
    diagonals: bool,
}

impl ShapeArgs {
    /// The side, and the box shape when `--boxes` gave one.
    fn side_and_boxes(&self) -> Result<(usize, Option<(usize, usize)>), UsageError> {
        match &self.boxes {
            Some(b) => {
                let (r, c) = boxes_arg(b)?;
                match r.checked_mul(c) {
                    Some(n) if (1..=MAX_SIZE).contains(&n) => Ok((n, Some((r, c)))),
                    _ => Err(UsageError(format!(
                        "--boxes {b}: boxes of {r}×{c} make a side out of range (1 to {MAX_SIZE})"
                    ))),
                }
            }
            None => Ok((self.size.unwrap_or(9), None)),
        }
    }
}

/// Options every backend may read, and the time limit.
#[derive(Args, Debug)]
struct EngineArgs {
    /// Give up on a puzzle after this many seconds (reported as a time-out, never as "no solution"; a count cut short says how many solutions it had found: "timeout (at least N)").
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    #[command(flatten)]
    cnf: CnfArgs,
    /// sat: write a DRAT proof of every unsatisfiable answer (no solution, uniqueness, optimality).
    #[arg(long, value_name = "FILE", help_heading = "SAT backend")]
    proof: Option<PathBuf>,
    /// sat: check each DRAT proof with varisat's checker as it is produced.
    #[arg(long, help_heading = "SAT backend")]
    check_proof: bool,
    /// sat-ext: the external SAT solver command, e.g. "cadical -q", "picosat", "minisat" (the CNF
    /// path is appended, or replaces `{}`).
    #[arg(long, value_name = "CMD", help_heading = "SAT backend")]
    sat_cmd: Option<String>,
    /// maxsat-ext: the external weighted MaxSAT solver command, e.g. "rc2.py" (python-sat) or
    /// "open-wbo"; it reads WCNF (the file path is appended, or replaces `{}`) and prints
    /// MaxSAT Evaluation `s` / `o` / `v` lines.
    #[arg(long, value_name = "CMD", help_heading = "SAT backend")]
    maxsat_cmd: Option<String>,
    /// cmd: a program speaking the line protocol, started once and kept alive. It reads
    /// `ID solve PUZZLE` or `ID count LIMIT PUZZLE` lines (PUZZLE in line format: n² symbols,
    /// then region labels for a jigsaw and the word `diagonals` for an X-Sudoku; uniqueness is
    /// `count 2`) and writes, flushed, one line each: `ID SOLUTION`, `ID none`,
    /// `ID C [SOL [SOL]]` (C ≤ LIMIT, the first min(C,2) solutions; C = LIMIT means at least)
    /// or `ID refused REASON`. Example: `--cmd target/release/examples/line_solver`; see
    /// docs/backends.md.
    #[arg(long, value_name = "PROGRAM ARGS", help_heading = "cmd backend")]
    cmd: Option<String>,
    /// cadical: CaDiCaL's option preset — default, sat (stable mode only; helps some hard
    /// satisfiable grids), unsat, plain (no pre/inprocessing), race (default and sat on two
    /// threads, first answer wins) or auto (race from 25×25 up, default below). Needs
    /// `--features cadical`.
    #[arg(
        long,
        value_name = "CONFIG",
        default_value = "auto",
        help_heading = "SAT backend"
    )]
    cadical_config: CadicalConfig,
    /// sat, cadical, sat-ext: how `optimize` searches — core (core-guided MaxSAT: lower bounds from
    /// unsatisfiable cores, OLL with stratification; the default) or linear (each solution must be
    /// beaten, until unsatisfiable; sat-ext always searches this way).
    #[arg(
        long,
        value_name = "METHOD",
        default_value = "core",
        help_heading = "SAT backend"
    )]
    sat_opt: SatOptimizer,
    /// sat: do not fix naked / hidden singles and locked candidates before encoding (they are by
    /// default; the SAT solver then sees only what those simple rules leave open).
    #[arg(long, help_heading = "SAT backend")]
    no_propagate: bool,
    /// sat, cadical, sat-ext, maxsat-ext: largest CNF formula to build, in MiB (as estimated before building
    /// it, solver memory included); larger puzzles are refused.
    #[arg(long, value_name = "MIB", default_value_t = (SAT_MEMORY_BUDGET >> 20) as u64,
          value_parser = clap::value_parser!(u64).range(1..), help_heading = "SAT backend")]
    sat_memory_mib: u64,
    /// dlx: largest exact-cover matrix to build, in MiB; larger puzzles are refused.
    #[arg(long, value_name = "MIB", default_value_t = (DEFAULT_MEMORY_BUDGET >> 20) as u64,
          value_parser = clap::value_parser!(u64).range(1..), help_heading = "DLX backend")]
    dlx_memory_mib: u64,
    /// ilp: the MIP solver, `microlp` (pure Rust, default) or `highs` (builds with `--features highs`).
    #[arg(long, default_value = "microlp", help_heading = "ILP backend")]
    ilp_solver: IlpSolver,
    #[command(flatten)]
    cp: CpArgs,
    /// minizinc: the MiniZinc program (a path, or a command line with extra arguments).
    #[arg(long, value_name = "PROGRAM", default_value = MZN_PROGRAM, help_heading = "MiniZinc backend")]
    mzn_cmd: String,
    /// minizinc: the solver MiniZinc runs (`minizinc --solver S`; `minizinc --solvers` lists
    /// them), e.g. gecode, chuffed, cp-sat.
    #[arg(long, value_name = "SOLVER", default_value = MZN_SOLVER, help_heading = "MiniZinc backend")]
    mzn_solver: String,
}

/// Options of the `cp` backend.
#[derive(Args, Debug)]
struct CpArgs {
    /// cp: propagation strength of every all-different — value (a fixed digit leaves the other
    /// cells; the default), bounds (Hall intervals) or domain (Régin's matching; huub 100.1
    /// answers wrongly under it). See docs/backends.md for what the project's cross-checks
    /// found at each level.
    #[arg(long, value_name = "LEVEL", default_value_t = AllDiffLevel::default(), help_heading = "CP backend")]
    cp_alldiff: AllDiffLevel,
    /// cp: leave out the redundant constraints "each digit is somewhere in each house" (they give
    /// hidden singles, which value and bounds all-different do not infer).
    #[arg(long, help_heading = "CP backend")]
    cp_no_house_cover: bool,
    /// cp: the search's decisions — activity (the SAT engine's VSIDS with learning; the
    /// default), first-fail (fewest digits left, least digit first) or input-order.
    #[arg(long, value_name = "BRANCHING", default_value_t = Branching::default(), help_heading = "CP backend")]
    cp_branch: Branching,
    /// cp: largest solver to build, in MiB (as estimated before building it); larger puzzles are
    /// refused.
    #[arg(long, value_name = "MIB", default_value_t = CP_MEMORY_MIB,
          value_parser = clap::value_parser!(u64).range(1..), help_heading = "CP backend")]
    cp_memory_mib: u64,
}

/// Where `bench` and `report` also write their rows.
#[derive(Args, Debug, Default)]
struct TableOutputs {
    /// Also write the rows as CSV to this file.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Also write the rows, with every puzzle's time, as JSON to this file (`report` merges them).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Draw the time distributions (log scale, one panel per file) to this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
}

impl TableOutputs {
    /// The outputs, each checked to be writable before any work starts.
    fn into_outputs(self) -> Result<bench::Outputs, UsageError> {
        for (path, flag) in [
            (&self.csv, "--csv"),
            (&self.json, "--json"),
            (&self.plot, "--plot"),
        ] {
            if let Some(p) = path {
                writable(p, flag)?;
            }
        }
        Ok(bench::Outputs {
            csv: self.csv,
            json: self.json,
            plot: self.plot,
        })
    }
}

/// Which CNF encoding to build (the `sat` backends and `encode --to dimacs`).
#[derive(Args, Debug, Default)]
struct CnfArgs {
    /// CNF encoding: minimal, efficient, extended (default) or triad.
    #[arg(long, default_value_t = Encoding::default(), help_heading = "SAT encoding")]
    encoding: Encoding,
    /// At-most-one encoding: auto (pairwise up to 9, ladder above), pairwise, ladder, product,
    /// bimander or commander.
    #[arg(long, default_value_t = Amo::default(), help_heading = "SAT encoding")]
    amo: Amo,
    /// Killer cage sums: combinations (default; a selector per digit set reaching the sum), or
    /// the pseudo-Boolean `Σ digit·x = sum` as gte (generalized totalizer), dpw (dynamic
    /// polynomial watchdog) or adder (binary adder).
    #[arg(long, default_value_t = CageEncoding::default(), help_heading = "SAT encoding")]
    cage_encoding: CageEncoding,
    /// Keep the plain encoding: do not simplify the givens away.
    #[arg(long, help_heading = "SAT encoding")]
    no_simplify: bool,
}

impl CnfArgs {
    fn encode_options(&self) -> EncodeOptions {
        EncodeOptions {
            encoding: self.encoding,
            amo: self.amo,
            simplify: !self.no_simplify,
            propagate: false,
            cage: self.cage_encoding,
        }
    }
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

/// A `--weights` value: a word, or a weights file, which is read when the flags are resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
enum WeightsArg {
    Pyramid,
    Random,
    File(PathBuf),
}

impl WeightsArg {
    /// `pyramid`, or a weights file (any other word names a file).
    fn pyramid_or_file(s: &str) -> Result<WeightsArg, Infallible> {
        Ok(match s {
            "pyramid" => WeightsArg::Pyramid,
            file => WeightsArg::File(file.into()),
        })
    }

    /// `random`, `pyramid`, or a weights file.
    fn random_pyramid_or_file(s: &str) -> Result<WeightsArg, Infallible> {
        match s {
            "random" => Ok(WeightsArg::Random),
            s => WeightsArg::pyramid_or_file(s),
        }
    }

    /// Where the weights come from, with the file read.
    fn resolve(&self) -> Result<WeightSource, UsageError> {
        let path = match self {
            WeightsArg::Pyramid => return Ok(WeightSource::Pyramid),
            WeightsArg::Random => return Ok(WeightSource::Random),
            WeightsArg::File(path) => path,
        };
        let name = path.display().to_string();
        let bytes =
            std::fs::read(path).map_err(|e| UsageError(format!("--weights {name}: {e}")))?;
        let text = batch::decode_utf8(&name, &bytes).map_err(UsageError)?;
        Ok(WeightSource::File { name, text })
    }
}

impl fmt::Display for WeightsArg {
    /// The value as given.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsArg::Pyramid => f.write_str("pyramid"),
            WeightsArg::Random => f.write_str("random"),
            WeightsArg::File(path) => write!(f, "{}", path.display()),
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
        let e = self.cnf.encode_options();
        BackendOptions {
            sat: SatOptions {
                encoding: e.encoding,
                amo: e.amo,
                cage: e.cage,
                simplify: e.simplify,
                propagate: e.simplify && !self.no_propagate,
                proof: self.proof.clone(),
                check_proof: self.check_proof,
                cadical_config: self.cadical_config,
                optimizer: self.sat_opt,
                memory_budget: mib(self.sat_memory_mib),
            },
            ilp: IlpOptions {
                solver: self.ilp_solver,
            },
            dlx: DlxOptions {
                memory_budget: mib(self.dlx_memory_mib),
            },
            sat_ext: SatExtOptions {
                command: self.sat_cmd.clone(),
            },
            maxsat_ext: MaxSatExtOptions {
                command: self.maxsat_cmd.clone(),
            },
            cmd: CmdOptions {
                command: self.cmd.clone(),
            },
            minizinc: MiniZincOptions {
                command: self.mzn_cmd.clone(),
                solver: self.mzn_solver.clone(),
            },
            #[cfg(feature = "cp")]
            cp: CpBackendOptions {
                model: CpOptions {
                    alldiff: self.cp.cp_alldiff,
                    house_cover: !self.cp.cp_no_house_cover,
                    branching: self.cp.cp_branch,
                },
                memory_mib: self.cp.cp_memory_mib,
            },
        }
    }
    fn create(&self, name: &str) -> Result<Box<dyn Backend>, UsageError> {
        let kind: BackendKind = name
            .parse()
            .map_err(|e: backends::UnknownBackend| UsageError(e.to_string()))?;
        if let Some(p) = &self.proof {
            writable(p, "--proof")?;
        }
        backends::create(kind, &self.options())
            .map_err(|e| UsageError(format!("backend {kind}: {e}")))
    }
    /// The named backends, or every backend compiled in when `names` is empty.
    fn create_all(&self, names: &[String]) -> Result<Vec<Box<dyn Backend>>, UsageError> {
        if names.is_empty() {
            BackendKind::all()
                .iter()
                .map(|k| self.create(k.name()))
                .collect()
        } else {
            names.iter().map(|n| self.create(n)).collect()
        }
    }
    /// The flags that change what a backend answers, to repeat in a replay command: the time
    /// limit and the external solver commands.
    fn replay_flags(&self) -> String {
        let mut flags = String::new();
        if let Some(t) = self.timeout {
            flags.push_str(&format!(" --timeout {t}"));
        }
        for (flag, cmd) in [
            ("--sat-cmd", &self.sat_cmd),
            ("--maxsat-cmd", &self.maxsat_cmd),
            ("--cmd", &self.cmd),
        ] {
            if let Some(cmd) = cmd {
                flags.push_str(&format!(" {flag} {}", quote(cmd)));
            }
        }
        for (flag, value, default) in [
            ("--mzn-cmd", &self.mzn_cmd, MZN_PROGRAM),
            ("--mzn-solver", &self.mzn_solver, MZN_SOLVER),
        ] {
            if value != default {
                flags.push_str(&format!(" {flag} {}", quote(value)));
            }
        }
        flags
    }
    fn timeout(&self) -> Result<Option<Duration>, UsageError> {
        seconds_arg("--timeout", self.timeout)
    }
    fn limits(&self) -> Result<Limits, UsageError> {
        Ok(self.timeout()?.map_or(Limits::none(), Limits::timeout))
    }
}

/// A flag's number of seconds (`--timeout`, `--budget`), above 0 and below 1e9.
fn seconds_arg(flag: &str, value: Option<f64>) -> Result<Option<Duration>, UsageError> {
    match value {
        None => Ok(None),
        Some(s) if s.is_finite() && s > 0.0 && s < 1e9 => Ok(Some(Duration::from_secs_f64(s))),
        Some(s) => Err(UsageError(format!(
            "{flag} takes a number of seconds above 0 and below 1e9, not {s}"
        ))),
    }
}

/// The `A..B` of `--cage-sizes`.
fn cage_sizes_arg(arg: &str) -> Result<(usize, usize), UsageError> {
    arg.split_once("..")
        .and_then(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<usize>().ok()?)))
        .filter(|&(a, b)| 1 <= a && a <= b)
        .ok_or_else(|| {
            UsageError(format!(
                "--cage-sizes takes A..B with 1 ≤ A ≤ B, e.g. 2..5 (got '{arg}')"
            ))
        })
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
            budget,
            input,
            engine,
            json,
            shard,
        } => {
            let task = task.with_limit(limit);
            let backends = engine.create_all(&backends)?;
            let weights = optimize_weights(task, &weights)?;
            let config = xcheck::Config {
                task,
                read: input.read_options(),
                weights,
                timeout: engine.timeout()?,
                budget: seconds_arg("--budget", budget)?,
                jobs: jobs_arg(jobs)?,
                json,
                shard,
            };
            return Ok(xcheck::run(&backends, &config, &files));
        }
        Command::Bench {
            files,
            backends,
            task,
            limit,
            weights,
            max_puzzles,
            budget,
            outputs,
            input,
            engine,
            shard,
        } => {
            let task = task.with_limit(limit);
            let config = bench::Config {
                task,
                read: input.read_options(),
                weights: optimize_weights(task, &weights)?,
                timeout: engine.timeout()?,
                budget: seconds_arg("--budget", budget)?,
                max_puzzles,
                outputs: outputs.into_outputs()?,
                shard,
            };
            return Ok(bench::run(&engine.create_all(&backends)?, &config, &files));
        }
        Command::Generate {
            shape,
            givens,
            unique,
            with_answer,
            count,
            seed,
            weights,
            backend,
            killer,
            cage_sizes,
            shard,
        } => {
            let (n, boxes) = shape.side_and_boxes()?;
            if let Some((r, c)) = boxes.filter(|&b| Shape::default_boxes(n) != Some(b)) {
                return Err(UsageError(format!(
                    "line format carries only the standard box shape of side {n}; {r}x{c} is not it"
                )));
            }
            let mut opts = GenerateOptions {
                boxes,
                ..GenerateOptions::new(n)
            };
            if opts.size > format::MAX_LINE_SIDE {
                return Err(UsageError(format!(
                    "side {} cannot be written in line format (at most {})",
                    opts.size,
                    format::MAX_LINE_SIDE
                )));
            }
            let seed = seed.unwrap_or_else(clock_seed);
            opts.jigsaw = shape.jigsaw;
            opts.diagonals = shape.diagonals;
            opts.givens = givens;
            opts.unique = unique;
            opts.seed = seed;
            if killer {
                opts.killer = Some(cage_sizes_arg(&cage_sizes)?);
            }
            opts.weights = match weights {
                None => None,
                Some(WeightsArg::Pyramid) => Some(WeightSource::Pyramid),
                Some(other) => {
                    return Err(UsageError(format!(
                        "--weights: unknown weights '{other}' (known: pyramid)"
                    )))
                }
            };
            let kind: BackendKind = backend
                .parse()
                .map_err(|e: backends::UnknownBackend| UsageError(e.to_string()))?;
            let checker = backends::create(kind, &BackendOptions::default())
                .map_err(|e| UsageError(format!("backend {kind}: {e}")))?;
            let mut generator =
                Generator::new(opts, checker.as_ref()).map_err(|e| UsageError(e.to_string()))?;
            for i in 0..count {
                if !shard.takes(i as u64) {
                    generator
                        .pass_over()
                        .map_err(|e| UsageError(e.to_string()))?;
                    continue;
                }
                let (p, solution) = generator
                    .generate_with_solution()
                    .map_err(|e| UsageError(e.to_string()))?;
                let answer = with_answer.then_some((1, &solution));
                let line = format::to_line_with_answer(&p, answer)
                    .map_err(|e| UsageError(e.to_string()))?;
                batch::write_stdout(format!("{line}\n").as_bytes());
            }
            return Ok(ExitCode::SUCCESS);
        }
        Command::Fuzz {
            backends,
            shape,
            task,
            limit,
            weights,
            seconds,
            puzzles,
            seed,
            case,
            jobs,
            shrink_trials,
            regressions,
            killer,
            cage_sizes,
            engine,
            shard,
        } => {
            let (n, boxes) = shape.side_and_boxes()?;
            let mut options = sudoku_lab::fuzz::FuzzOptions {
                boxes,
                ..sudoku_lab::fuzz::FuzzOptions::new(n)
            };
            let task = task.with_limit(limit);
            options.jigsaw = shape.jigsaw;
            options.diagonals = shape.diagonals;
            options.task = task;
            options.timeout = engine.timeout()?;
            if killer {
                options.killer = Some(cage_sizes_arg(&cage_sizes)?);
            }
            options.weights = weights.resolve()?;
            let deadline = match (seconds, puzzles) {
                (Some(s), _) if !(s.is_finite() && s > 0.0 && s < 1e9) => {
                    return Err(UsageError(format!(
                        "--seconds must be a positive number, not {s}"
                    )))
                }
                (Some(s), _) => Some(std::time::Instant::now() + Duration::from_secs_f64(s)),
                (None, Some(_)) => None,
                (None, None) => Some(std::time::Instant::now() + Duration::from_secs(60)),
            };
            let fuzzed = engine.create_all(&backends)?;
            let reference = engine.create("dfs")?;
            options
                .validate(reference.as_ref())
                .map_err(|e| UsageError(e.to_string()))?;
            let seed = seed.unwrap_or_else(clock_seed);
            let mut replay = format!(" --task {}", task.name());
            if let Task::Count { limit } = task {
                replay.push_str(&format!(" --limit {limit}"));
            }
            if shape.diagonals {
                replay.push_str(" --diagonals");
            }
            if killer {
                replay.push_str(&format!(" --killer --cage-sizes {cage_sizes}"));
            }
            if task == Task::Optimize && weights != WeightsArg::Random {
                replay.push_str(&format!(" --weights {}", quote(&weights.to_string())));
            }
            replay.push_str(&engine.replay_flags());
            if let Some(p) = &regressions {
                writable(p, "--regressions")?;
            }
            let config = fuzz::Config {
                options,
                names: backends,
                seed,
                first: case,
                cases: puzzles,
                deadline,
                jobs: jobs_arg(jobs)?,
                shrink_trials,
                regressions,
                replay_flags: replay,
                shard,
            };
            return Ok(fuzz::run(&fuzzed, reference.as_ref(), &config));
        }
        Command::Report { files, outputs } => {
            return bench::report(&files, &outputs.into_outputs()?).map_err(UsageError);
        }
        Command::Encode {
            file,
            to,
            index,
            output,
            stats,
            weights,
            propagate,
            sat_memory_mib,
            cnf,
            input,
        } => {
            let weights = weights
                .or((to == EncodeTarget::Wcnf).then_some(WeightsArg::Pyramid))
                .map(|w| w.resolve())
                .transpose()?;
            let request = EncodeRequest {
                to,
                index,
                output,
                stats,
                weights,
                propagate,
                memory_budget: mib(sat_memory_mib),
            };
            return encode(file, request, &cnf, &input);
        }
        Command::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "sudoku-lab", &mut out);
            batch::write_stdout(&out);
            return Ok(ExitCode::SUCCESS);
        }
        Command::Man { command } => {
            let mut cli = Cli::command();
            cli.build();
            let page = match command {
                None => clap_mangen::Man::new(cli),
                Some(name) => {
                    let sub = cli
                        .find_subcommand(&name)
                        .cloned()
                        .ok_or_else(|| UsageError(format!("man: no command '{name}'")))?;
                    clap_mangen::Man::new(sub).title(format!("sudoku-lab-{name}"))
                }
            };
            let mut out = Vec::new();
            page.render(&mut out)
                .map_err(|e| UsageError(format!("man page: {e}")))?;
            batch::write_stdout(&out);
            return Ok(ExitCode::SUCCESS);
        }
        Command::Backends => {
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
            return Ok(ExitCode::SUCCESS);
        }
    };
    let backend = args.backend.create()?;
    let config = batch::Config {
        task,
        read: args.input.read_options(),
        weights: weights.map(|w| w.resolve()).transpose()?,
        timeout: args.backend.engine.timeout()?,
        json: args.json,
        grid_output: args.output == OutputArg::Grid,
        jobs: if args.backend.engine.proof.is_some() {
            1
        } else {
            jobs_arg(args.jobs)?
        },
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
    let limits = args.engine.limits()?;
    let mut out = String::new();
    let result = sudoku_lab::judge::run_into(problem, &text, backend.as_ref(), &limits, &mut out);
    // The answers before an error are kept.
    batch::write_stdout(out.as_bytes());
    match result {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => {
            match &e {
                JudgeError::Input(p) => eprintln!("{name}:{}:{}: {}", p.line, p.col, p.message),
                e => eprintln!("{name}: {e}"),
            }
            Ok(ExitCode::from(e.exit_code()))
        }
    }
}

/// A budget in MiB (`--sat-memory-mib`, `--dlx-memory-mib`) in bytes, saturating.
fn mib(m: u64) -> usize {
    usize::try_from(m.saturating_mul(1 << 20)).unwrap_or(usize::MAX)
}

/// Checks, before any work, that the file `path` given to `flag` can be written: it is created
/// when missing (and left as it is otherwise, for the command to write later).
fn writable(path: &Path, flag: &str) -> Result<(), UsageError> {
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map(drop)
        .map_err(|e| UsageError(format!("{flag} {}: cannot write: {e}", path.display())))
}

/// The most threads `--jobs` starts.
const MAX_JOBS: usize = 1024;

/// `--boxes RxC`.
fn boxes_arg(b: &str) -> Result<(usize, usize), UsageError> {
    b.split_once(['x', 'X', '×'])
        .and_then(|(r, c)| Some((r.trim().parse().ok()?, c.trim().parse().ok()?)))
        .ok_or_else(|| UsageError(format!("--boxes takes RxC, e.g. 3x3, not '{b}'")))
}

/// A seed from the clock, printed on standard error so that the run can be replayed.
fn clock_seed() -> u64 {
    let s = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    eprintln!("seed: {s}");
    s
}

/// `s` as one shell word.
fn quote(s: &str) -> String {
    shlex::try_quote(s).map_or_else(|_| s.to_string(), |q| q.into_owned())
}

/// `--jobs`: 1 to [`MAX_JOBS`]; all cores when not given.
fn jobs_arg(jobs: Option<usize>) -> Result<usize, UsageError> {
    match jobs {
        Some(j) if !(1..=MAX_JOBS).contains(&j) => Err(UsageError(format!(
            "--jobs takes 1 to {MAX_JOBS} (one thread each), not {j}"
        ))),
        Some(j) => Ok(j),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// The weights to attach: only when the task is `optimize`.
fn optimize_weights(task: Task, weights: &WeightsArg) -> Result<Option<WeightSource>, UsageError> {
    (task == Task::Optimize)
        .then(|| weights.resolve())
        .transpose()
}

/// What `encode` was asked for.
struct EncodeRequest {
    to: EncodeTarget,
    index: Option<usize>,
    output: Option<PathBuf>,
    stats: bool,
    weights: Option<WeightSource>,
    propagate: bool,
    /// The largest CNF to build, in bytes (`--sat-memory-mib`).
    memory_budget: usize,
}

/// `encode`: one puzzle of the input, written as DIMACS (or its statistics), CPLEX LP, WCNF or
/// MiniZinc.
fn encode(
    file: Option<PathBuf>,
    req: EncodeRequest,
    cnf: &CnfArgs,
    input: &InputArgs,
) -> Result<ExitCode, UsageError> {
    if req.stats && req.to != EncodeTarget::Dimacs {
        return Err(UsageError(
            "--stats describes the CNF: use it with --to dimacs".into(),
        ));
    }
    if req.propagate && (req.to != EncodeTarget::Dimacs || cnf.no_simplify) {
        return Err(UsageError(
            "--propagate simplifies the CNF further: use it with --to dimacs and without --no-simplify"
                .into(),
        ));
    }
    let encode_options = EncodeOptions {
        propagate: req.propagate,
        ..cnf.encode_options()
    };
    let mut tally = batch::Tally::default();
    let mut items = Vec::new();
    let files: Vec<PathBuf> = file.into_iter().collect();
    let entries = batch::each_puzzle(
        &files,
        &input.read_options(),
        req.weights.as_ref(),
        &mut tally,
        |it| items.push(it),
    );
    // With --index, only that puzzle matters: it is encoded even when others are bad (they
    // are reported, and the exit code is still 2). A bad puzzle K has been reported already.
    let item = match (req.index, items.len()) {
        (Some(i), _) => match items.iter().find(|it| it.index == i) {
            Some(it) => it,
            // Puzzle K itself is bad: reported already.
            None if (1..=entries).contains(&i) => return Ok(ExitCode::from(2)),
            None => {
                return Err(UsageError(format!(
                    "--index {i} is out of range: the input holds {entries} puzzles (bad ones \
                     counted), numbered from 1"
                )))
            }
        },
        (None, _) if tally.bad_input => return Ok(ExitCode::from(2)),
        (None, 0) => return Err(UsageError("no puzzle in the input".into())),
        (None, 1) => &items[0],
        (None, k) => {
            return Err(UsageError(format!(
                "the input holds {k} puzzles: choose one with --index K"
            )))
        }
    };
    if req.to == EncodeTarget::Lp {
        let need = sudoku_lab::ilp::lp::estimated_bytes(&item.puzzle);
        if need > req.memory_budget as u64 {
            return Err(UsageError(format!(
                "{}:{}: the integer program would take about {} MiB, over the memory budget of \
                 {} MiB (--sat-memory-mib)",
                item.file,
                item.line,
                need.div_ceil(1 << 20),
                req.memory_budget >> 20
            )));
        }
    } else if req.to != EncodeTarget::Mzn {
        let sat = sudoku_lab::backends::sat::SatOptions {
            encoding: encode_options.encoding,
            amo: encode_options.amo,
            cage: encode_options.cage,
            simplify: encode_options.simplify,
            propagate: encode_options.propagate,
            memory_budget: req.memory_budget,
            ..Default::default()
        };
        let holder = sudoku_lab::backends::sat::Holder::Export;
        sudoku_lab::backends::sat::check_memory(&item.puzzle, &sat, holder, 1, "encode").map_err(
            |e| {
                let why = match e {
                    BackendError::Unsupported(why) => why,
                    e => e.to_string(),
                };
                UsageError(format!("{}:{}: {why}", item.file, item.line))
            },
        )?;
    }
    let mut buf = Vec::new();
    let encode_stats = match req.to {
        EncodeTarget::Dimacs => Some(
            sudoku_lab::sat::encode::to_dimacs(&item.puzzle, &encode_options, &mut buf)
                .map_err(|e| UsageError(e.to_string()))?,
        ),
        EncodeTarget::Wcnf => {
            sudoku_lab::sat::wcnf::to_wcnf(&item.puzzle, &encode_options, &mut buf)
                .map_err(|e| UsageError(e.to_string()))?;
            None
        }
        EncodeTarget::Lp => {
            let objective = item.puzzle.weights().is_some();
            sudoku_lab::ilp::lp::write_lp(&item.puzzle, objective, &mut buf)
                .map_err(|e| UsageError(e.to_string()))?;
            None
        }
        EncodeTarget::Mzn => {
            // Like LP: the objective is there only when --weights attached weights.
            sudoku_lab::cp::minizinc::write_puzzle(&item.puzzle, &mut buf)
                .map_err(|e| UsageError(format!("writing the MiniZinc model: {e}")))?;
            None
        }
    };
    match &req.output {
        Some(path) => std::fs::write(path, &buf)
            .map_err(|e| UsageError(format!("{}: {e}", path.display())))?,
        None if !req.stats => batch::write_stdout(&buf),
        None => {}
    }
    if let Some(st) = encode_stats.filter(|_| req.stats) {
        batch::write_stdout(st.to_string().as_bytes());
    }
    Ok(ExitCode::from(if tally.bad_input { 2 } else { 0 }))
}
