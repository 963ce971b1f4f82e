//! The line protocol of the `cmd` backend ([`crate::backends::cmd`]), the host's side: one
//! running program asked questions, one line each, and its answer lines read back by id
//! ([`Program::exchange`]); and the readers of the answers ([`read_solution`], [`read_count`]).
//!
//! ```text
//! question:  ID solve PUZZLE                 ID count LIMIT PUZZLE
//! answer:    ID SOLUTION  |  ID none         ID C [SOLUTION [SOLUTION]]
//!            ID refused [REASON]             (either task)
//! ```
//!
//! The program runs through [`crate::process`] ([`Piped`]): its output is read by a thread, so a
//! wait for an answer stops at the deadline or the cancel flag; a program that fails, times out
//! or answers out of step is killed with its process group and never asked again.

use std::sync::mpsc::RecvTimeoutError;
use std::thread;
use std::time::Duration;

use wait_timeout::ChildExt;

use crate::cancel::Halt;
use crate::format;
use crate::model::{Grid, Value};
use crate::process::{describe, kill, signal, tail, Piped};

/// How long a program that closed its output gets to exit before its status is read.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// One running process of the program.
pub struct Program {
    /// Its input, its answer lines (read by a thread, so that waiting can stop at a deadline)
    /// and the last lines of its standard error.
    io: Piped,
    next_id: u64,
    /// Killed (timed out, failed, out of step): never asked again.
    pub dead: bool,
}

/// What came back for a question.
pub enum Reply {
    /// The answer after the id.
    Answer(String),
    /// `refused REASON`.
    Refused(String),
}

/// Why no answer came back.
pub enum Trouble {
    TimedOut,
    Failed(String),
}

impl Program {
    /// Writes `ID question`, reads the line with the same id.
    pub fn exchange(&mut self, question: &str, halt: &Halt) -> Result<Reply, Trouble> {
        let id = self.next_id;
        self.next_id += 1;
        if let Err(e) = self.io.send(format!("{id} {question}\n").as_bytes()) {
            let how = self.exit_status();
            return Err(self.fail(format!("cannot send question {id} ({e}): {how}")));
        }
        let line = match halt.recv(&self.io.lines) {
            Ok(Ok(line)) => line,
            Ok(Err(e)) => return Err(self.fail(e.to_string())),
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

    pub fn kill(&mut self) {
        if !self.dead {
            self.dead = true;
            kill(&mut self.io.child);
        }
    }

    /// How the process ended, once its output closed: "exited (code 1)", "crashed (signal 11)".
    fn exit_status(&mut self) -> String {
        match self.io.child.wait_timeout(EXIT_GRACE) {
            Ok(Some(status)) => match signal(&status) {
                Some(sig) => format!("crashed (signal {sig})"),
                None => format!("exited ({})", describe(&status)),
            },
            _ => "closed its output".into(),
        }
    }

    /// `msg`, with the last lines of its standard error.
    pub fn context(&self, msg: String) -> String {
        // Give the stderr reader a moment to catch the last words of a dying process.
        thread::sleep(Duration::from_millis(20));
        let t = self.io.stderr_tail();
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
        self.io.close_input();
        if !self.dead
            && !matches!(
                self.io.child.wait_timeout(Duration::from_millis(200)),
                Ok(Some(_))
            )
        {
            self.kill();
        }
    }
}

impl Program {
    /// A conversation with a program just started; its first question gets id 1.
    pub fn new(io: Piped) -> Program {
        Program {
            io,
            next_id: 1,
            dead: false,
        }
    }
}

/// An answer that does not read as one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unreadable {
    #[error("'{word}' is not a grid of {cells} symbols")]
    NotAGrid { word: String, cells: usize },
    #[error("expected a solution or 'none'")]
    NotASolution,
    #[error("expected a count")]
    NoCount,
    #[error("count {count} is above the limit {limit}")]
    OverLimit { count: u64, limit: u64 },
    /// `needed` is `min(count, 2)`.
    #[error("count {count} needs {needed} solutions after it, not {got}")]
    Witnesses { count: u64, needed: u64, got: usize },
}

/// A count answer: `count ≤ limit` solutions, the first `min(count, 2)` of them as witnesses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counted {
    pub count: u64,
    pub witnesses: Vec<Grid>,
}

/// A solution: `n²` digit symbols.
pub fn read_grid(word: &str, n: usize) -> Result<Grid, Unreadable> {
    let cells: Vec<Value> = word
        .chars()
        .map(format::symbol_value)
        .collect::<Option<_>>()
        .filter(|c: &Vec<Value>| c.len() == n * n)
        .ok_or_else(|| Unreadable::NotAGrid {
            word: word.to_string(),
            cells: n * n,
        })?;
    Ok(Grid::new(n, cells))
}

/// `none` or a solution.
pub fn read_solution(text: &str, n: usize) -> Result<Option<Grid>, Unreadable> {
    match text {
        "none" => Ok(None),
        t if t.contains(char::is_whitespace) => Err(Unreadable::NotASolution),
        t => read_grid(t, n).map(Some),
    }
}

/// `C [SOLUTION [SOLUTION]]` with `C ≤ limit` and `min(C, 2)` solutions.
pub fn read_count(text: &str, n: usize, limit: u64) -> Result<Counted, Unreadable> {
    let mut words = text.split_whitespace();
    let count: u64 = words
        .next()
        .and_then(|w| w.parse().ok())
        .ok_or(Unreadable::NoCount)?;
    if count > limit {
        return Err(Unreadable::OverLimit { count, limit });
    }
    let witnesses = words
        .map(|w| read_grid(w, n))
        .collect::<Result<Vec<_>, _>>()?;
    if witnesses.len() as u64 != count.min(2) {
        return Err(Unreadable::Witnesses {
            count,
            needed: count.min(2),
            got: witnesses.len(),
        });
    }
    Ok(Counted { count, witnesses })
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
        assert_eq!((c.count, c.witnesses.len()), (2, 2));
        assert_eq!(c.witnesses, [grid("1221"), grid("2112")]);
        let none = Counted {
            count: 0,
            witnesses: vec![],
        };
        assert_eq!(read_count("0", 2, 2).unwrap(), none);
        assert!(read_count("3 1221 2112", 2, 2).is_err(), "above the limit");
        assert!(read_count("1", 2, 2).is_err(), "a witness is missing");
        assert!(read_count("1 1221 2112", 2, 2).is_err(), "one too many");
        assert_eq!(read_count("many", 2, 2), Err(Unreadable::NoCount));
        assert_eq!(
            read_count("1", 2, 2).unwrap_err().to_string(),
            "count 1 needs 1 solutions after it, not 0"
        );
    }
}
