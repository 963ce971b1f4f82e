//! `sudoku-lab judge`: reads an original judge problem's input and writes its exact expected
//! output ([`sudoku_lab::judge`] speaks each problem's formats).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use clap::{Args, ValueEnum};

use sudoku_lab::backend::{Backend, BackendError, Count, Limits, Optimum};
use sudoku_lab::format::ParseError;
use sudoku_lab::judge::{JudgeError, Problem};
use sudoku_lab::model::{ConstraintKind, Grid, Puzzle};

use super::batch;
use super::engine::BackendArgs;
use super::UsageError;

/// Read an original judge problem's standard input and write its exact expected output.
#[derive(Args, Debug)]
pub struct JudgeArgs {
    /// The problem whose input/output format to speak.
    #[arg(value_enum)]
    problem: ProblemArg,
    /// Input file (default: standard input).
    input: Option<PathBuf>,
    #[command(flatten)]
    backend: BackendArgs,
}

impl JudgeArgs {
    pub fn resolve(self) -> Result<Config, UsageError> {
        Ok(Config {
            backend: self.backend.create()?,
            one_puzzle: self.backend.engine.writes_proofs(),
            limits: self.backend.engine.limits()?,
            problem: self.problem.into(),
            input: self.input,
        })
    }
}

/// What `judge` was asked for.
pub struct Config {
    problem: Problem,
    /// The input file; `None` or `-` reads standard input.
    input: Option<PathBuf>,
    backend: Box<dyn Backend>,
    /// Answer the first puzzle only (`--proof`: its files hold the proofs of one puzzle).
    one_puzzle: bool,
    limits: Limits,
}

/// Answers the input. An input that cannot be read is a usage error; the answers before an
/// error in the input are written, and the error decides the exit code.
pub fn run(config: &Config) -> Result<ExitCode, UsageError> {
    let path = config.input.as_deref().unwrap_or(Path::new("-"));
    let name = batch::source_name(path);
    let text = batch::read_text(path).map_err(|e| UsageError(e.to_string()))?;
    let mut out = String::new();
    let first = FirstPuzzle::new(config.backend.as_ref());
    let backend: &dyn Backend = match config.one_puzzle {
        true => &first,
        false => config.backend.as_ref(),
    };
    let result =
        sudoku_lab::judge::run_into(config.problem, &text, backend, &config.limits, &mut out);
    // The answers before an error are kept.
    batch::write_stdout(out.as_bytes());
    let place = |p: &ParseError| format!("{name}:{}:{}", p.line, p.col);
    let skipped = result.as_ref().map_or(&[][..], Vec::as_slice);
    for p in skipped {
        eprintln!("{}: error: {}; the puzzle is skipped", place(p), p.message);
    }
    // Bad input (2) comes before a time-out (3) and after a failure (1).
    let code = if skipped.is_empty() { 0 } else { 2 };
    match result {
        Ok(_) => Ok(ExitCode::from(code)),
        Err(_) if first.refused.load(Ordering::Relaxed) => {
            eprintln!(
                "{name}: error: --proof writes the proofs of one puzzle (FILE and FILE.cnf), and \
                 the input holds more: the first is answered; give one puzzle per run"
            );
            Ok(ExitCode::from(2))
        }
        Err(e) => {
            match &e {
                JudgeError::Input(p) => eprintln!("{}: error: {}", place(p), p.message),
                e => eprintln!("{name}: error: {e}"),
            }
            Ok(ExitCode::from(match code {
                0 => e.exit_code(),
                _ => e.exit_code().min(code),
            }))
        }
    }
}

/// The backend of a judge run with `--proof`: it answers the first puzzle of the input, and
/// refuses every other, whose proof would overwrite the first's.
struct FirstPuzzle<'a> {
    inner: &'a dyn Backend,
    first: Mutex<Option<Puzzle>>,
    refused: AtomicBool,
}

impl<'a> FirstPuzzle<'a> {
    fn new(inner: &'a dyn Backend) -> FirstPuzzle<'a> {
        FirstPuzzle {
            inner,
            first: Mutex::new(None),
            refused: AtomicBool::new(false),
        }
    }
    /// Whether `puzzle` is the first puzzle asked about.
    fn admit(&self, puzzle: &Puzzle) -> Result<(), BackendError> {
        let mut first = self.first.lock().unwrap_or_else(|e| e.into_inner());
        match &*first {
            Some(p) if p != puzzle => {
                self.refused.store(true, Ordering::Relaxed);
                Err(BackendError::Unsupported(
                    "--proof answers one puzzle".into(),
                ))
            }
            Some(_) => Ok(()),
            None => {
                *first = Some(puzzle.clone());
                Ok(())
            }
        }
    }
}

impl Backend for FirstPuzzle<'_> {
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    fn solve(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Option<Grid>, BackendError> {
        self.admit(puzzle)?;
        self.inner.solve(puzzle, limits)
    }
    fn count(&self, puzzle: &Puzzle, limit: u64, limits: &Limits) -> Result<Count, BackendError> {
        self.admit(puzzle)?;
        self.inner.count(puzzle, limit, limits)
    }
    fn optimize(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Optimum, BackendError> {
        self.admit(puzzle)?;
        self.inner.optimize(puzzle, limits)
    }
    fn takes(&self, kind: ConstraintKind) -> bool {
        self.inner.takes(kind)
    }
    fn meter_slows(&self) -> bool {
        self.inner.meter_slows()
    }
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
