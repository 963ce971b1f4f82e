//! `cmd`: any program as a backend (`--cmd "PROGRAM ARGS"`), through a line protocol small
//! enough for a 30-line solver in any language.
//!
//! The program is started once and kept alive: it reads questions on standard input, one per
//! line, and writes one answer line for each on standard output (flushed at once; anything for
//! people goes to standard error).
//!
//! ```text
//! question:  ID solve PUZZLE                 ID count LIMIT PUZZLE
//! answer:    ID SOLUTION  |  ID none         ID C [SOLUTION [SOLUTION]]
//!            ID refused [REASON]             (either task)
//! ```
//!
//! * `ID` is a number the host picks (1, 2, … for each process); the answer must start with the
//!   same number, so a line meant for another puzzle is caught even when it says `none` or a
//!   count, which the checker cannot verify.
//! * `PUZZLE` is the line format of `docs/formats.md`: `n²` symbols (`.` empty, `1`–`9`, `A`–`Z`
//!   for 10–35); for a jigsaw, a space and `n²` region labels; for an X-Sudoku, then the word
//!   `diagonals`. Sides above 35 have no line format and are refused without asking.
//! * `SOLUTION` is `n²` digit symbols. For `count LIMIT`, `C` is the number of solutions found,
//!   at most `LIMIT` (`C = LIMIT` means "at least LIMIT": the search may stop there), followed by
//!   the first `min(C, 2)` of them, distinct, as witnesses for the checker. Uniqueness is asked
//!   as `count 2`: `1 SOL` is unique, `2 SOL SOL'` multiple, `0` no solution.
//! * Effort (optional): an answer may end with words `NAME=N`, `NAME` a counter of
//!   [`crate::effort::COUNTERS`] (`1 SOLUTION guesses=3 nodes=12`); they are recorded as the
//!   program's effort for that question ([`crate::solver_stats::split_effort_words`]). A word
//!   with `=` that is not such a counter makes the answer unreadable.
//! * `refused REASON`: the program does not take this puzzle or task (a jigsaw, a count…); the
//!   backend refuses it too ([`BackendError::Unsupported`]). `optimize` is always refused.
//!
//! Every answer goes through [`crate::task::run`], so a wrong grid is a checker failure. A
//! count or a `none` cannot be checked: it is an answer, and `xcheck` against a built-in backend
//! is what catches a false one. A crash, an exit, a hang past the deadline (the process group is
//! killed: [`BackendError::TimedOut`]), an unreadable line or an `ID` of another question is
//! [`BackendError::Failed`] naming the program and quoting its standard error; the process is
//! dropped, and the next question starts a fresh one.
//!
//! Questions from several threads (`--jobs`) go to several processes: a pool keeps the idle
//! ones, and a new process is started when every one is busy. One is started by [`Cmd::new`],
//! so a program that cannot be run is an error before any work.

use std::sync::{Mutex, PoisonError};

use crate::backend::{Backend, BackendError, Count, Limits, Optimum};
use crate::format::{self, MAX_LINE_SIDE};
use crate::line_protocol::{self, Program, Reply, Trouble};
use crate::model::{Grid, Puzzle};
use crate::process::{tail, CommandLine};
use crate::solver_stats;

/// Options of the `cmd` backend (`--cmd`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CmdOptions {
    /// The program and its arguments, split like a POSIX shell would (quotes allowed).
    pub command: Option<String>,
}

/// Longest answer line read (a 35×35 count answer is about 2.5 kB).
const MAX_ANSWER: u64 = 1 << 20;

/// The `cmd` backend: a pool of running processes of one program.
pub struct Cmd {
    /// The program and its arguments; the command as given names it in messages.
    program: CommandLine,
    idle: Mutex<Vec<Program>>,
}

impl Cmd {
    /// Splits `options.command` and starts the program once. Without a command, or when it
    /// cannot be split or started, this is [`BackendError::Unsupported`].
    pub fn new(options: &CmdOptions) -> Result<Cmd, BackendError> {
        let command = options.command.as_deref().ok_or_else(|| {
            BackendError::Unsupported(
                "cmd needs --cmd (a program speaking the line protocol of docs/backends.md, \
                 e.g. \"target/release/examples/line_solver\")"
                    .into(),
            )
        })?;
        let program = CommandLine::parse(command).map_err(|_| {
            BackendError::Unsupported(format!(
                "cmd: bad command '{command}': empty, or unbalanced quotes"
            ))
        })?;
        let cmd = Cmd {
            program,
            idle: Mutex::new(Vec::new()),
        };
        // A program that cannot be started makes the backend unusable: a usage error.
        let first = cmd.start().map_err(|e| match e {
            BackendError::Failed(msg) => BackendError::Unsupported(msg),
            other => other,
        })?;
        cmd.pool().push(first);
        Ok(cmd)
    }

    /// The command as given.
    pub fn program_name(&self) -> &str {
        self.program.name()
    }

    fn pool(&self) -> std::sync::MutexGuard<'_, Vec<Program>> {
        self.idle.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn failed(&self, msg: impl std::fmt::Display) -> BackendError {
        BackendError::Failed(format!("program '{}': {msg}", self.program.name()))
    }

    /// Starts one process of the program, in its own process group.
    fn start(&self) -> Result<Program, BackendError> {
        let io = self
            .program
            .spawn_piped(MAX_ANSWER)
            .map_err(|e| self.failed(e))?;
        Ok(Program::new(io))
    }

    /// Asks `question` (the line without its id) of an idle process, or of a new one, and reads
    /// the answer with `read`. A refusal keeps the process; any failure drops it.
    fn ask<T>(
        &self,
        question: &str,
        limits: &Limits,
        read: impl FnOnce(&str) -> Result<T, line_protocol::Unreadable>,
    ) -> Result<T, BackendError> {
        if limits.expired() {
            return Err(BackendError::TimedOut);
        }
        let idle = self.pool().pop();
        let mut program = match idle {
            Some(p) => p,
            None => self.start()?,
        };
        let answer = program.exchange(question, &limits.halt());
        let result = match answer {
            Ok(Reply::Refused(why)) => Err(BackendError::Unsupported(format!(
                "program '{}' refused: {}",
                self.program.name(),
                if why.is_empty() {
                    "no reason given"
                } else {
                    &why
                }
            ))),
            Ok(Reply::Answer(text)) => solver_stats::split_effort_words(&text)
                .and_then(|(answer, effort)| {
                    limits.record(&effort);
                    read(answer).map_err(|e| e.to_string())
                })
                .map_err(|msg| {
                    program.kill();
                    self.failed(format!("{msg}, in the answer «{}»", tail(&text)))
                }),
            Err(Trouble::TimedOut) => Err(BackendError::TimedOut),
            Err(Trouble::Failed(msg)) => Err(self.failed(program.context(msg))),
        };
        if !program.dead {
            self.pool().push(program);
        }
        result
    }
}

/// The question's `PUZZLE` part (see the module documentation).
fn puzzle_words(puzzle: &Puzzle) -> Result<String, BackendError> {
    let mut words = format::to_line(puzzle).map_err(|_| {
        BackendError::Unsupported(format!(
            "cmd speaks the line format, which stops at side {MAX_LINE_SIDE}; this puzzle has side {}",
            puzzle.size()
        ))
    })?;
    if puzzle.shape().diagonals() {
        words.push_str(" diagonals");
    }
    Ok(words)
}

impl Backend for Cmd {
    fn name(&self) -> &'static str {
        "cmd"
    }

    fn solve(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Option<Grid>, BackendError> {
        let question = format!("solve {}", puzzle_words(puzzle)?);
        self.ask(&question, limits, |a| {
            line_protocol::read_solution(a, puzzle.size())
        })
    }

    fn count(&self, puzzle: &Puzzle, limit: u64, limits: &Limits) -> Result<Count, BackendError> {
        let limit = limit.max(1);
        let question = format!("count {limit} {}", puzzle_words(puzzle)?);
        let c = self.ask(&question, limits, |a| {
            line_protocol::read_count(a, puzzle.size(), limit)
        })?;
        Ok(Count::finished(c.count, limit, c.witnesses))
    }

    fn optimize(&self, _: &Puzzle, _: &Limits) -> Result<Optimum, BackendError> {
        Err(BackendError::Unsupported(
            "cmd answers solve, count and unique only".into(),
        ))
    }
}
