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

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use wait_timeout::ChildExt;

use crate::backend::{Backend, BackendError, Count, Halt, Limits, Optimum};
use crate::format::{self, MAX_LINE_SIDE};
use crate::model::{Grid, Puzzle, Value};
use crate::process::{describe, kill, signal, tail, CommandLine};
use crate::solver_stats;

/// Options of the `cmd` backend (`--cmd`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CmdOptions {
    /// The program and its arguments, split like a POSIX shell would (quotes allowed).
    pub command: Option<String>,
}

/// Longest answer line read (a 35×35 count answer is about 2.5 kB).
const MAX_ANSWER: u64 = 1 << 20;
/// How long a program that closed its output gets to exit before its status is read.
const EXIT_GRACE: Duration = Duration::from_millis(500);

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
        let mut child = self.program.spawn_piped().map_err(|e| self.failed(e))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().map(BufReader::new);
        let stderr = child.stderr.take();
        let (send, answers) = mpsc::channel();
        if let Some(mut out) = stdout {
            thread::spawn(move || loop {
                let mut line = Vec::new();
                match (&mut out).take(MAX_ANSWER).read_until(b'\n', &mut line) {
                    Ok(0) => break,
                    Ok(_) if line.last() != Some(&b'\n') && line.len() as u64 >= MAX_ANSWER => {
                        let _ = send.send(Err(format!(
                            "an answer line longer than {MAX_ANSWER} bytes"
                        )));
                        break;
                    }
                    Ok(_) => {
                        if send.send(Ok(line)).is_err() {
                            break;
                        }
                    }
                    Err(e) => {
                        let _ = send.send(Err(format!("reading its output: {e}")));
                        break;
                    }
                }
            });
        }
        let errors = Arc::new(Mutex::new(VecDeque::new()));
        if let Some(err) = stderr {
            let errors = Arc::clone(&errors);
            thread::spawn(move || {
                for line in BufReader::new(err).lines() {
                    let Ok(line) = line else { break };
                    let mut e = errors.lock().unwrap_or_else(PoisonError::into_inner);
                    if e.len() == 4 {
                        e.pop_front();
                    }
                    e.push_back(line);
                }
            });
        }
        Ok(Program {
            child,
            stdin,
            answers,
            errors,
            next_id: 1,
            dead: false,
        })
    }

    /// Asks `question` (the line without its id) of an idle process, or of a new one, and reads
    /// the answer with `read`. A refusal keeps the process; any failure drops it.
    fn ask<T>(
        &self,
        question: &str,
        limits: &Limits,
        read: impl FnOnce(&str) -> Result<T, String>,
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
                .map_err(|e| e.to_string())
                .and_then(|(answer, effort)| {
                    limits.record(&effort);
                    read(answer)
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

/// One running process of the program.
struct Program {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Its answer lines, read by a thread (so that waiting can stop at a deadline).
    answers: Receiver<Result<Vec<u8>, String>>,
    /// The last lines of its standard error.
    errors: Arc<Mutex<VecDeque<String>>>,
    next_id: u64,
    /// Killed (timed out, failed, out of step): never asked again.
    dead: bool,
}

/// What came back for a question.
enum Reply {
    /// The answer after the id.
    Answer(String),
    /// `refused REASON`.
    Refused(String),
}

/// Why no answer came back.
enum Trouble {
    TimedOut,
    Failed(String),
}

impl Program {
    /// Writes `ID question`, reads the line with the same id.
    fn exchange(&mut self, question: &str, halt: &Halt) -> Result<Reply, Trouble> {
        let id = self.next_id;
        self.next_id += 1;
        let sent = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{id} {question}").and_then(|()| stdin.flush()),
            None => Err(io::Error::other("no standard input")),
        };
        if let Err(e) = sent {
            let how = self.exit_status();
            return Err(self.fail(format!("cannot send question {id} ({e}): {how}")));
        }
        let line = match halt.recv(&self.answers) {
            Ok(Ok(line)) => line,
            Ok(Err(msg)) => return Err(self.fail(msg)),
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                return Err(Trouble::TimedOut);
            }
            Err(RecvTimeoutError::Disconnected) => {
                let how = self.exit_status();
                return Err(self.fail(format!("{how} before answering question {id}")));
            }
        };
        let Ok(text) = String::from_utf8(line) else {
            return Err(self.fail(format!("the answer to question {id} is not UTF-8")));
        };
        let text = text.trim();
        let (said_id, rest) = text.split_once(' ').unwrap_or((text, ""));
        if said_id != id.to_string() {
            return Err(self.fail(format!(
                "unreadable answer «{}»: expected a line starting with the question's id {id} \
                 (a line for another puzzle?)",
                tail(text)
            )));
        }
        let rest = rest.trim();
        Ok(match rest.strip_prefix("refused") {
            Some(why) if why.is_empty() || why.starts_with(' ') => {
                Reply::Refused(why.trim().to_string())
            }
            _ => Reply::Answer(rest.to_string()),
        })
    }

    /// Kills the process (and its process group) and says why.
    fn fail(&mut self, msg: String) -> Trouble {
        self.kill();
        Trouble::Failed(msg)
    }

    fn kill(&mut self) {
        if !self.dead {
            self.dead = true;
            kill(&mut self.child);
        }
    }

    /// How the process ended, once its output closed: "exited (code 1)", "crashed (signal 11)".
    fn exit_status(&mut self) -> String {
        match self.child.wait_timeout(EXIT_GRACE) {
            Ok(Some(status)) => match signal(&status) {
                Some(sig) => format!("crashed (signal {sig})"),
                None => format!("exited ({})", describe(&status)),
            },
            _ => "closed its output".into(),
        }
    }

    /// `msg`, with the last lines of its standard error.
    fn context(&self, msg: String) -> String {
        // Give the stderr reader a moment to catch the last words of a dying process.
        thread::sleep(Duration::from_millis(20));
        let errors = self.errors.lock().unwrap_or_else(PoisonError::into_inner);
        let lines: Vec<&str> = errors.iter().map(String::as_str).collect();
        let t = tail(&lines.join("\n"));
        if t.is_empty() {
            msg
        } else {
            format!("{msg}; stderr ends: «{t}»")
        }
    }
}

impl Drop for Program {
    /// Closes its input (a well-behaved program exits), then kills what is left.
    fn drop(&mut self) {
        drop(self.stdin.take());
        if !self.dead
            && !matches!(
                self.child.wait_timeout(Duration::from_millis(200)),
                Ok(Some(_))
            )
        {
            self.kill();
        }
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

/// A solution: `n²` digit symbols.
fn read_grid(word: &str, n: usize) -> Result<Grid, String> {
    let cells: Vec<Value> = word
        .chars()
        .map(format::symbol_value)
        .collect::<Option<_>>()
        .filter(|c: &Vec<Value>| c.len() == n * n)
        .ok_or_else(|| format!("'{word}' is not a grid of {} symbols", n * n))?;
    Ok(Grid::new(n, cells))
}

/// `none` or a solution.
fn read_solution(text: &str, n: usize) -> Result<Option<Grid>, String> {
    match text {
        "none" => Ok(None),
        t if t.contains(char::is_whitespace) => Err("expected a solution or 'none'".into()),
        t => read_grid(t, n).map(Some),
    }
}

/// `C [SOLUTION [SOLUTION]]` with `C ≤ limit` and `min(C, 2)` solutions.
fn read_count(text: &str, n: usize, limit: u64) -> Result<Count, String> {
    let mut words = text.split_whitespace();
    let count: u64 = words
        .next()
        .and_then(|w| w.parse().ok())
        .ok_or("expected a count")?;
    if count > limit {
        return Err(format!("count {count} is above the limit {limit}"));
    }
    let witnesses = words
        .map(|w| read_grid(w, n))
        .collect::<Result<Vec<_>, _>>()?;
    if witnesses.len() as u64 != count.min(2) {
        return Err(format!(
            "count {count} needs {} solutions after it, not {}",
            count.min(2),
            witnesses.len()
        ));
    }
    Ok(Count::finished(count, limit, witnesses))
}

impl Backend for Cmd {
    fn name(&self) -> &'static str {
        "cmd"
    }

    fn solve(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Option<Grid>, BackendError> {
        let question = format!("solve {}", puzzle_words(puzzle)?);
        self.ask(&question, limits, |a| read_solution(a, puzzle.size()))
    }

    fn count(&self, puzzle: &Puzzle, limit: u64, limits: &Limits) -> Result<Count, BackendError> {
        let limit = limit.max(1);
        let question = format!("count {limit} {}", puzzle_words(puzzle)?);
        self.ask(&question, limits, |a| read_count(a, puzzle.size(), limit))
    }

    fn optimize(&self, _: &Puzzle, _: &Limits) -> Result<Optimum, BackendError> {
        Err(BackendError::Unsupported(
            "cmd answers solve, count and unique only".into(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(s: &str) -> Grid {
        read_grid(s, 2).unwrap()
    }

    #[test]
    fn answers_are_read_strictly() {
        assert_eq!(read_solution("none", 2), Ok(None));
        assert_eq!(read_solution("1221", 2), Ok(Some(grid("1221"))));
        assert!(read_solution("122", 2).is_err());
        assert!(read_solution("12!1", 2).is_err());
        assert!(read_solution("1221 1221", 2).is_err());
        let c = read_count("2 1221 2112", 2, 5).unwrap();
        assert_eq!((c.count, c.complete, c.witnesses.len()), (2, true, 2));
        let c = read_count("2 1221 2112", 2, 2).unwrap();
        assert!(!c.complete, "a count at the limit means 'at least'");
        assert_eq!(read_count("0", 2, 2).unwrap(), Count::none());
        assert!(read_count("3 1221 2112", 2, 2).is_err(), "above the limit");
        assert!(read_count("1", 2, 2).is_err(), "a witness is missing");
        assert!(read_count("1 1221 2112", 2, 2).is_err(), "one too many");
        assert!(read_count("many", 2, 2).is_err());
    }
}
