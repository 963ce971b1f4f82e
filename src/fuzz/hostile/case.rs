//! One case: a document read as the command line reads a file, its puzzles answered by every
//! backend and checked, on a thread of its own under a watchdog ([`run_case`]), and the faults
//! that makes ([`FaultKind`]).

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use crate::backend::Backend;
use crate::format::{self, Entry, ParseError, ReadOptions};
use crate::task::Task;
use crate::xcheck::{self, BackendRun, Verdict};

use super::{HANG_GRACE, HOSTILE_COUNT_LIMIT, MAX_PUZZLES_PER_DOCUMENT};

/// What makes a case fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FaultKind {
    /// A panic in the reader, or in a backend (caught).
    Panic,
    /// Neither read nor answered by [`HANG_GRACE`] past the case's deadline.
    Hang,
    /// Backends disagree, the checker rejects an answer, or a solver fails.
    WrongAnswer,
    /// An input error without a message, or whose line and column are not in the text.
    SilentError,
}

impl FaultKind {
    pub const ALL: [FaultKind; 4] = [
        FaultKind::Panic,
        FaultKind::Hang,
        FaultKind::WrongAnswer,
        FaultKind::SilentError,
    ];
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Panic => "panic",
            FaultKind::Hang => "hang",
            FaultKind::WrongAnswer => "wrong answer",
            FaultKind::SilentError => "silent input error",
        }
    }
}

/// One fault of a case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    /// What happened: the panic's message and place, the verdict, the error.
    pub what: String,
}

impl Fault {
    /// What two documents showing the same fault have in common: the kind and the message with
    /// its numbers and quoted parts left out (`panic: attempt to add with overflow at
    /// src/model.rs:#:#`).
    pub fn signature(&self) -> String {
        let mut s = String::new();
        let mut quoted = false;
        for c in self.what.chars() {
            match c {
                '"' => {
                    quoted = !quoted;
                    s.push('"');
                }
                _ if quoted => {}
                '0'..='9' => {
                    if !s.ends_with('#') {
                        s.push('#');
                    }
                }
                c => s.push(c),
            }
        }
        format!("{}: {s}", self.kind.name())
    }
}

/// What happened to one document.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CaseReport {
    /// Puzzles read (answered or not).
    pub puzzles: usize,
    /// Input errors (each with a message and a position; the others are faults).
    pub input_errors: usize,
    /// Backend answers that ran out of time (not faults).
    pub timeouts: usize,
    /// Backend answers refused (a backend that cannot take a rule: not faults).
    pub refusals: usize,
    pub faults: Vec<Fault>,
}

/// The reader a case uses: [`read_document`] unless a test plants another.
pub type Reader = fn(&str) -> Vec<Result<Entry, ParseError>>;

/// The text read as the command line reads a file: the format detected, every puzzle.
pub fn read_document(text: &str) -> Vec<Result<Entry, ParseError>> {
    format::read_puzzles(text, &ReadOptions::default())
}

/// How to run a case.
#[derive(Clone)]
pub struct CaseOptions {
    pub backends: Arc<Vec<Box<dyn Backend>>>,
    /// `count` with a small limit, usually ([`HOSTILE_COUNT_LIMIT`]).
    pub task: Task,
    /// Reading and answering end by then, after the case starts.
    pub deadline: Duration,
    /// Past the deadline by this much, the case is a hang.
    pub grace: Duration,
    pub reader: Reader,
}

impl CaseOptions {
    pub fn new(backends: Arc<Vec<Box<dyn Backend>>>, deadline: Duration) -> CaseOptions {
        CaseOptions {
            backends,
            task: Task::Count {
                limit: HOSTILE_COUNT_LIMIT,
            },
            deadline,
            grace: HANG_GRACE,
            reader: read_document,
        }
    }
}

thread_local! {
    /// Where the last panic on this thread was raised, kept by [`record_panic_places`]' hook.
    static PANIC_PLACE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Makes panics on the threads of hostile cases quiet, their place kept for the fault's
/// message; panics elsewhere go to the hook there was before. For a campaign's command: the
/// default hook would print each caught panic over the progress bar.
pub fn record_panic_places() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let on_case = std::thread::current()
            .name()
            .is_some_and(|n| n.starts_with(CASE_THREAD));
        if on_case {
            let place = info
                .location()
                .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
            PANIC_PLACE.with(|p| *p.borrow_mut() = place);
        } else {
            previous(info);
        }
    }));
}

/// The name of a case's thread starts with this (a stack overflow names it when it aborts).
pub const CASE_THREAD: &str = "hostile case";

/// Reads `text` and answers its puzzles under a watchdog (see the module docs). Never panics and
/// never blocks much past `opts.deadline + opts.grace`: a case still running then is left behind
/// on its thread and reported as a [`FaultKind::Hang`].
pub fn run_case(text: &str, case: u64, opts: &CaseOptions) -> CaseReport {
    let (send, receive) = mpsc::channel();
    let text: Arc<str> = Arc::from(text);
    let job_opts = opts.clone();
    let started = Instant::now();
    let spawned = std::thread::Builder::new()
        .name(format!("{CASE_THREAD} {case}"))
        .spawn(move || {
            let until = started + job_opts.deadline;
            let report = catch_unwind(AssertUnwindSafe(|| examine(&text, &job_opts, until)))
                .unwrap_or_else(|payload| CaseReport {
                    faults: vec![Fault {
                        kind: FaultKind::Panic,
                        what: panic_text(crate::isolate::panic_message(payload.as_ref())),
                    }],
                    ..CaseReport::default()
                });
            let _ = send.send(report);
        });
    if let Err(e) = spawned {
        return CaseReport {
            faults: vec![Fault {
                kind: FaultKind::Hang,
                what: format!("no thread for the case: {e}"),
            }],
            ..CaseReport::default()
        };
    }
    let wait = opts.deadline + opts.grace;
    match receive.recv_timeout(wait) {
        Ok(report) => report,
        Err(_) => CaseReport {
            faults: vec![Fault {
                kind: FaultKind::Hang,
                what: format!(
                    "still reading or answering {:.1} s after the case began (deadline {:.1} s)",
                    wait.as_secs_f64(),
                    opts.deadline.as_secs_f64()
                ),
            }],
            ..CaseReport::default()
        },
    }
}

/// A panic's message with the place the hook kept, if any.
fn panic_text(message: String) -> String {
    match PANIC_PLACE.with(|p| p.borrow_mut().take()) {
        Some(place) => format!("{message} (at {place})"),
        None => message,
    }
}

/// The case's work, on its thread.
fn examine(text: &str, opts: &CaseOptions, until: Instant) -> CaseReport {
    let mut report = CaseReport::default();
    let entries = (opts.reader)(text);
    if entries.is_empty() && has_content(text) {
        report.faults.push(Fault {
            kind: FaultKind::SilentError,
            what: "read no puzzle and reported no error".into(),
        });
    }
    let mut answered = 0;
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                match unhelpful(text, &e) {
                    Some(why) => report.faults.push(Fault {
                        kind: FaultKind::SilentError,
                        what: format!("{why}: {e}"),
                    }),
                    None => report.input_errors += 1,
                }
                continue;
            }
        };
        report.puzzles += 1;
        if answered == MAX_PUZZLES_PER_DOCUMENT {
            continue;
        }
        answered += 1;
        let runs = xcheck::run_all(&opts.backends, &entry.puzzle, opts.task, None, Some(until));
        report.timeouts += runs.iter().filter(|r| r.timed_out()).count();
        report.refusals += runs.iter().filter(|r| r.refused()).count();
        let verdict = xcheck::verdict(opts.task, &runs, None);
        if verdict != Verdict::Agreed {
            report.faults.push(answer_fault(&entry, &runs, &verdict));
        }
    }
    report
}

/// A backend's panic comes back from [`crate::task::run`] as a failure that says so.
fn answer_fault(entry: &Entry, runs: &[BackendRun], verdict: &Verdict) -> Fault {
    let panicked = runs.iter().any(|r| {
        r.result
            .as_ref()
            .is_err_and(|e| e.to_string().contains(" panicked on this puzzle"))
    });
    let said: Vec<String> = runs
        .iter()
        .map(|r| format!("{} said {}", r.backend, r.said()))
        .collect();
    let kind = if panicked {
        FaultKind::Panic
    } else {
        FaultKind::WrongAnswer
    };
    let what = format!(
        "puzzle of line {}: {verdict} ({})",
        entry.line,
        said.join(", ")
    );
    Fault {
        kind,
        what: panic_text(what),
    }
}

/// Text other than whitespace and comment lines.
fn has_content(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
        !t.is_empty() && !t.starts_with('#')
    })
}

/// Why an input error would not help its reader: no message, or a position not in the text.
fn unhelpful(text: &str, e: &ParseError) -> Option<&'static str> {
    if e.message.trim().is_empty() {
        return Some("input error without a message");
    }
    if e.line == 0 || e.col == 0 {
        return Some("input error without a position");
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().collect();
    // The line after the last is where the end of the text is.
    let Some(line) = lines.get(e.line - 1).or(if e.line == lines.len() + 1 {
        Some(&"")
    } else {
        None
    }) else {
        return Some("input error on a line past the end of the text");
    };
    if e.col > line.chars().count() + 1 {
        return Some("input error at a column past the end of its line");
    }
    None
}
