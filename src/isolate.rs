//! Runs computations in a worker process, so that a crash in foreign code (a segmentation fault
//! or an abort inside a C++ solver), a panic or a hang ends that worker only, and the caller gets
//! an error for the one request instead of losing the whole run.
//!
//! A worker is a program started by [`crate::process::start_worker`] (fork and exec: no code of
//! this process runs in the child before the new program), named by a [`WorkerProgram`]: the
//! `sudoku-lab` command starts itself with a hidden subcommand. The library never assumes its
//! own binary; whoever builds the backend says which program serves. Requests and answers are
//! JSON lines over the worker's standard input and output: the caller writes a request, the
//! worker ([`serve`]) answers it with its handler, catching a panic, and may send signs of life
//! ([`Pulse`]) before the answer.
//!
//! [`call`] keeps one worker per thread and program, so a batch pays for one start per thread,
//! not one per puzzle. A watchdog is always on: the worker must answer, or give a sign of life,
//! within [`WorkerProgram::silence`] of the request or of its last sign; with a deadline, it must
//! answer within [`GRACE`] after it. A worker that does not is killed. A worker that dies by a
//! signal gives [`Crash::Signal`], one killed for silence [`Crash::Silent`], one killed at the
//! deadline, or once the caller's cancel flag is set ([`call_until`]), [`Crash::Killed`]; the next
//! call starts a new one.
//!
//! The worker is in a process group of its own, so a Ctrl-C at the terminal reaches the caller
//! only (the caller decides when to stop); it ends when its standard input closes, and on Linux
//! when the thread that started it ends (`PR_SET_PDEATHSIG`, set by [`serve`]).

use std::cell::{Cell, RefCell};
use std::ffi::OsString;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use crate::cancel::Halt;
use crate::process::{self, Piped};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// How long after the deadline a worker that has not answered is killed: the handler is expected
/// to notice the deadline itself, and this only bounds one that cannot.
pub const GRACE: Duration = Duration::from_secs(2);

/// Default of [`WorkerProgram::silence`]: far above the time to build any model the memory
/// budgets let through (about a second for an empty 64×64 in `cp`).
pub const DEFAULT_SILENCE: Duration = Duration::from_secs(60);

/// How often, at most, a [`Pulse`] sends a sign of life.
const PULSE_EVERY: Duration = Duration::from_secs(1);

/// The program that serves requests, its arguments, and the watchdog's limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerProgram {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    /// Longest time a worker may go without answering or giving a sign of life (building a
    /// model, a search that never checks its deadline) before it is killed, with or without a
    /// deadline. A [`Pulse`] beats once a second at most, so this should be well above that.
    pub silence: Duration,
}

impl WorkerProgram {
    /// `program args…`, with the default watchdog limit [`DEFAULT_SILENCE`].
    pub fn new<I, S>(program: impl Into<PathBuf>, args: I) -> WorkerProgram
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        WorkerProgram {
            program: program.into(),
            args: args.into_iter().map(Into::into).collect(),
            silence: DEFAULT_SILENCE,
        }
    }
}

/// Why a request got no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Crash {
    /// The worker was ended by a signal (it crashed).
    #[error("the solver process crashed ({0})")]
    Signal(String),
    /// The handler panicked, with this message.
    #[error("the solver panicked ({0})")]
    Panic(String),
    /// The deadline and [`GRACE`] passed without an answer, or the call was cancelled; the
    /// worker was killed.
    #[error("the solver did not stop at the deadline, or was cancelled, and was killed")]
    Killed,
    /// The worker gave no sign of life for this long; it was killed.
    #[error("the solver gave no sign of life for {} s and was killed", .0.as_secs_f64())]
    Silent(Duration),
    /// The worker could not be started, or its answer could not be read.
    #[error("the solver process failed: {0}")]
    Io(String),
}

/// [`Message::Alive`] as the worker writes it.
const ALIVE_LINE: &[u8] = b"\"Alive\"\n";

/// One line from the worker.
#[derive(Debug, Serialize, Deserialize)]
enum Message<Resp> {
    /// A sign of life: the worker is busy with the request.
    Alive,
    /// The handler's answer, or its panic's message.
    Answer(Result<Resp, String>),
}

/// Answers `request` in this thread's worker for `worker` (started on first use; see the module
/// docs). `deadline` is the handler's own deadline, which the request must carry: the worker is
/// killed [`GRACE`] after it.
pub fn call<Req, Resp>(
    worker: &WorkerProgram,
    request: &Req,
    deadline: Option<Instant>,
) -> Result<Resp, Crash>
where
    Req: Serialize,
    Resp: DeserializeOwned,
{
    let halt = Halt {
        deadline,
        cancel: None,
    };
    call_until(worker, request, &halt)
}

/// [`call`] that also stops once the cancel flag of `halt` is set: the worker is killed within
/// [`crate::cancel::CANCEL_POLL`] of it ([`Crash::Killed`]).
pub fn call_until<Req, Resp>(
    worker: &WorkerProgram,
    request: &Req,
    halt: &Halt,
) -> Result<Resp, Crash>
where
    Req: Serialize,
    Resp: DeserializeOwned,
{
    let mut line = serde_json::to_vec(request).map_err(io)?;
    line.push(b'\n');
    let taken = WORKERS.with_borrow_mut(|all| {
        let at = all.iter().position(|w| w.program == *worker)?;
        Some(all.swap_remove(at))
    });
    let mut running = match taken {
        Some(running) => running,
        None => Running::start(worker)?,
    };
    let answer = running.exchange(&line, halt);
    if answer.is_ok() {
        WORKERS.with_borrow_mut(|all| all.push(running));
    } else {
        running.stop();
    }
    match serde_json::from_slice::<Message<Resp>>(&answer?) {
        Ok(Message::Answer(Ok(answer))) => Ok(answer),
        Ok(Message::Answer(Err(message))) => Err(Crash::Panic(message)),
        Ok(Message::Alive) => unreachable!("signs of life are read by the exchange"),
        Err(e) => Err(Crash::Io(format!("unreadable answer: {e}"))),
    }
}

thread_local! {
    /// This thread's workers.
    static WORKERS: RefCell<Vec<Running>> = const { RefCell::new(Vec::new()) };
}

/// A started worker: its process, its input, and the lines of its output as a thread reads them.
struct Running {
    program: WorkerProgram,
    io: Piped,
    /// Already waited for: the drop must not kill or wait for it again.
    stopped: bool,
}

impl Running {
    fn start(program: &WorkerProgram) -> Result<Running, Crash> {
        let io = process::start_worker(&program.program, &program.args).map_err(|e| {
            io(format!(
                "cannot start the worker {}: {e}",
                program.program.display()
            ))
        })?;
        Ok(Running {
            program: program.clone(),
            io,
            stopped: false,
        })
    }

    /// Writes the request, then reads lines until the answer, within the watchdog's limits; the
    /// answer's line (a [`Message::Answer`]).
    fn exchange(&mut self, line: &[u8], halt: &Halt) -> Result<Vec<u8>, Crash> {
        if self.io.send(line).is_err() {
            return Err(self.ended());
        }
        let kill_at = halt.deadline.map(|d| d + GRACE);
        let mut last_sign = Instant::now();
        loop {
            let silent_at = last_sign + self.program.silence;
            // The watchdog's limit, or the deadline's; the cancel flag is looked at meanwhile.
            let watch = Halt {
                deadline: Some(kill_at.map_or(silent_at, |k| k.min(silent_at))),
                cancel: halt.cancel.clone(),
            };
            match watch.recv(&self.io.lines) {
                Ok(Ok(line)) if line == ALIVE_LINE => last_sign = Instant::now(),
                // A line cut short is the end of a worker that died while writing it.
                Ok(Ok(line)) if line.last() == Some(&b'\n') => return Ok(line),
                Ok(_) | Err(RecvTimeoutError::Disconnected) => return Err(self.ended()),
                Err(RecvTimeoutError::Timeout) => {
                    self.stop();
                    return Err(match kill_at {
                        _ if halt.cancelled() => Crash::Killed,
                        Some(k) if Instant::now() >= k => Crash::Killed,
                        _ => Crash::Silent(self.program.silence),
                    });
                }
            }
        }
    }

    /// What ended a worker whose output closed, once it is reaped.
    fn ended(&mut self) -> Crash {
        self.io.close_input();
        let status = self.io.child.wait();
        self.stopped = true;
        match status {
            Ok(status) => match process::crash_name(&status) {
                Some(signal) => Crash::Signal(signal),
                None => Crash::Io(format!(
                    "the solver process ended without an answer ({status})"
                )),
            },
            Err(e) => io(e),
        }
    }

    /// Kills and reaps the worker.
    fn stop(&mut self) {
        if !self.stopped {
            self.io.close_input();
            process::kill(&mut self.io.child);
            self.stopped = true;
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Sends the worker's signs of life, at most one per [`PULSE_EVERY`]: a handler calls
/// [`Pulse::beat`] whenever it is convenient (once its model is built, from a search's
/// periodic callback), and the watchdog then knows it is busy, not hung. Cloning shares the
/// clock. Outside a worker ([`Pulse::none`]) it does nothing.
#[derive(Debug, Clone)]
pub struct Pulse {
    last: Option<Rc<Cell<Instant>>>,
}

impl Pulse {
    /// A pulse that sends nothing (a handler run in the calling process).
    pub fn none() -> Pulse {
        Pulse { last: None }
    }

    /// Sends a sign of life, unless one went out less than [`PULSE_EVERY`] ago.
    pub fn beat(&self) {
        let Some(last) = &self.last else { return };
        let now = Instant::now();
        if now.duration_since(last.get()) < PULSE_EVERY {
            return;
        }
        last.set(now);
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(ALIVE_LINE).and_then(|()| out.flush());
    }
}

/// The worker's side: answers each request line on standard input with `handler`, one answer
/// line each on standard output (a panic is caught and sent as its message), until standard
/// input ends. Standard output carries nothing else; the handler may write to standard error.
/// The signs of life of the handler's [`Pulse`] go out between a request and its answer.
pub fn serve<Req, Resp>(mut handler: impl FnMut(Req, &Pulse) -> Resp) -> std::io::Result<()>
where
    Req: DeserializeOwned,
    Resp: Serialize,
{
    #[cfg(target_os = "linux")]
    // SAFETY: sets this process's own parent-death signal; no memory is involved.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
    }
    // A panic's message goes back as the answer; printing it too would only repeat it.
    std::panic::set_hook(Box::new(|_| {}));
    let stdin = std::io::stdin();
    let mut requests = stdin.lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        if requests.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        // The first sign of life goes out a [`PULSE_EVERY`] after the request: a quick answer
        // needs none.
        let pulse = Pulse {
            last: Some(Rc::new(Cell::new(Instant::now()))),
        };
        let answer: Result<Resp, String> = match serde_json::from_slice::<Req>(&line) {
            Ok(request) => {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(request, &pulse)))
                    .map_err(|payload| panic_message(payload.as_ref()))
            }
            Err(e) => Err(format!("unreadable request: {e}")),
        };
        let mut bytes = serde_json::to_vec(&Message::Answer(answer)).or_else(|e| {
            serde_json::to_vec(&Message::<()>::Answer(Err(format!(
                "unwritable answer: {e}"
            ))))
        })?;
        bytes.push(b'\n');
        let mut out = std::io::stdout().lock();
        out.write_all(&bytes)?;
        out.flush()?;
    }
}

/// What a test worker ([`serve_faults`]) is asked to do.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fault {
    /// Answer with the worker's process id.
    Pid,
    /// Write through a null pointer (a segmentation fault).
    Crash,
    Panic,
    Abort,
    /// Sleep for ever, giving no sign of life.
    Hang,
    /// Sleep for ever, giving signs of life.
    Busy,
}

/// A worker that misbehaves on request, to test the callers' handling of each fault.
#[doc(hidden)]
pub fn serve_faults() -> std::io::Result<()> {
    serve(|fault: Fault, pulse: &Pulse| -> u32 {
        match fault {
            Fault::Pid => std::process::id(),
            // SAFETY: none: a deliberate write through a null pointer, as a crashing C++ solver
            // would do; it ends this test worker by a segmentation fault.
            Fault::Crash => unsafe {
                std::ptr::null_mut::<u8>().write_volatile(1);
                0
            },
            Fault::Panic => panic!("deliberate"),
            Fault::Abort => std::process::abort(),
            Fault::Hang | Fault::Busy => loop {
                if fault == Fault::Busy {
                    pulse.beat();
                }
                std::thread::sleep(Duration::from_millis(50));
            },
        }
    })
}

/// The text of a panic's payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into())
}

fn io(e: impl std::fmt::Display) -> Crash {
    Crash::Io(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sign_of_life_is_the_serialized_message() {
        let mut line = serde_json::to_vec(&Message::<()>::Alive).unwrap();
        line.push(b'\n');
        assert_eq!(line, ALIVE_LINE);
        let answer: Message<u32> = serde_json::from_slice(br#"{"Answer":{"Ok":7}}"#).unwrap();
        assert!(matches!(answer, Message::Answer(Ok(7))));
    }
}
