//! Runs one task over every puzzle of every input, printing each answer as soon as it is checked.
//! A bad puzzle is reported (file, line, column) and the batch goes on; the exit code sums up.
//! Puzzles are answered on several threads (`--jobs`); output keeps the input order.

use std::collections::BTreeMap;
use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

use sudoku_lab::backend::{Backend, BackendError, Limits};
use sudoku_lab::effort::Effort;
use sudoku_lab::format::{self, ReadOptions};
use sudoku_lab::model::Expected;
use sudoku_lab::model::{symbol, Grid, Puzzle, Weights};
use sudoku_lab::task::{self, Answer, RunError, Task};
use sudoku_lab::weights::WeightSource;

/// Everything the batch needs, resolved from the flags.
pub struct Config {
    pub backend: Box<dyn Backend>,
    pub task: Task,
    pub read: ReadOptions,
    pub weights: Option<WeightSource>,
    pub timeout: Option<Duration>,
    pub json: bool,
    pub grid_output: bool,
    /// Worker threads (at least 1).
    pub jobs: usize,
    /// Answer the first puzzle only, and report every other as bad input (`--proof`: its files
    /// hold the proofs of one puzzle).
    pub one_puzzle: bool,
    /// The inputs; none reads standard input.
    pub files: Vec<PathBuf>,
}

/// What went wrong over the batch, for the exit code.
#[derive(Default)]
pub struct Tally {
    pub bad_input: bool,
    pub failed: bool,
    pub timed_out: bool,
}

impl Tally {
    /// Records a task error and returns its status word (`timeout` or `error`).
    pub fn record_error(&mut self, e: &RunError) -> &'static str {
        match e {
            RunError::Backend(BackendError::TimedOut) | RunError::CountTimedOut { .. } => {
                self.timed_out = true;
                return "timeout";
            }
            // The backend cannot take this puzzle (size, budget): a usage problem.
            RunError::Backend(BackendError::Unsupported(_)) => self.bad_input = true,
            RunError::Backend(BackendError::Failed(_)) | RunError::Check { .. } => {
                self.failed = true
            }
        }
        "error"
    }

    pub fn merge(&mut self, other: &Tally) {
        self.bad_input |= other.bad_input;
        self.failed |= other.failed;
        self.timed_out |= other.timed_out;
    }

    /// 1 for a checker or solver failure, else 2 for bad input, else 3 for time-outs, else 0.
    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(if self.failed {
            1
        } else if self.bad_input {
            2
        } else if self.timed_out {
            3
        } else {
            0
        })
    }
}

/// One JSON Lines record per puzzle. Fields that do not apply are omitted.
#[derive(Serialize)]
struct Record<'a> {
    /// 1-based position of the puzzle over the whole batch.
    index: usize,
    file: &'a str,
    /// 1-based line where the puzzle starts (for an `invalid` puzzle, where its fault is).
    line: usize,
    /// `invalid` only: the 1-based column of the fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    col: Option<usize>,
    task: &'static str,
    backend: &'static str,
    /// none | solved | counted | unique | multiple | optimal | feasible | timeout | error |
    /// invalid
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    complete: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    proved: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bound: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    time_us: u64,
    /// What the backend's engine did (docs/backends.md), when it reports anything.
    #[serde(skip_serializing_if = "Option::is_none")]
    effort: Option<Effort>,
}

impl<'a> Record<'a> {
    /// A record of the puzzle at `index` (`file`, `line`) with `status` and nothing else.
    fn bare(
        index: usize,
        file: &'a str,
        line: usize,
        config: &Config,
        backend: &dyn Backend,
        status: &'static str,
    ) -> Record<'a> {
        Record {
            index,
            file,
            line,
            col: None,
            task: config.task.name(),
            backend: backend.name(),
            status,
            solution: None,
            count: None,
            complete: None,
            score: None,
            proved: None,
            bound: None,
            error: None,
            time_us: 0,
            effort: None,
        }
    }
}

/// Decodes input as UTF-8, or says where the first invalid byte is.
pub fn decode_utf8(name: &str, bytes: &[u8]) -> Result<String, String> {
    into_utf8(name, bytes.to_vec()).map_err(|e| e.to_string())
}

/// Why an input read whole cannot be used: where (`FILE`, or `FILE:LINE:COL`), and what.
#[derive(Debug)]
pub struct InputError {
    pub place: String,
    pub message: String,
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.place, self.message)
    }
}

/// [`decode_utf8`] without a copy.
fn into_utf8(name: &str, bytes: Vec<u8>) -> Result<String, InputError> {
    match String::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(e) => {
            let bytes = e.as_bytes();
            let e = e.utf8_error();
            let before = &bytes[..e.valid_up_to()];
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let col = before.len()
                - before
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |p| p + 1)
                + 1;
            Err(InputError {
                place: format!("{name}:{line}:{col}"),
                message: "input is not valid UTF-8 text".into(),
            })
        }
    }
}

/// Writes to standard output; a closed pipe ends the program quietly (like `head` closing it).
pub fn write_stdout(bytes: &[u8]) {
    let mut out = io::stdout().lock();
    if let Err(e) = out.write_all(bytes).and_then(|_| out.flush()) {
        if e.kind() == io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("sudoku-lab: cannot write output: {e}");
        std::process::exit(1);
    }
}

/// How much of an input is read at most to tell its format when none is forced, after the blank
/// and comment lines it starts with (then up to a line break). Mostly it is known sooner: at the
/// first line, or at the end of the first block of rows.
const DETECT_BYTES: usize = 64 << 10;

/// The longest line the line format reads; a longer one is one bad puzzle, passed over up to
/// the next line break without being held (so that memory stays bounded, and `/dev/zero` is
/// read in constant memory as one bad line).
const MAX_LINE: usize = 1 << 20;

/// Grid and JSON inputs are read whole, up to this size; the line format streams.
const MAX_WHOLE: usize = 256 << 20;

/// The name of an input in messages: its path, or `<stdin>` for "-".
pub fn source_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".into()
    } else {
        path.display().to_string()
    }
}

/// The name of an input in a table's rows: its file name without its folder, or `<stdin>` for
/// "-" (as messages name it).
pub fn file_label(path: &Path) -> String {
    match path.file_name() {
        Some(f) if path.as_os_str() != "-" => f.to_string_lossy().into_owned(),
        _ => source_name(path),
    }
}

/// A reader of the input `path` ("-" for standard input); its buffer shows what has arrived.
fn open_source(path: &Path) -> Result<io::BufReader<Box<dyn Read>>, String> {
    let source: Box<dyn Read> = if path.as_os_str() == "-" {
        Box::new(io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?)
    };
    Ok(io::BufReader::with_capacity(1 << 16, source))
}

/// The whole text of the input `path` ("-" for standard input), for inputs read whole; the error
/// names the input (and the line and column of a byte that is not UTF-8).
pub fn read_text(path: &Path) -> Result<String, InputError> {
    let name = source_name(path);
    let io_error = |e: io::Error| InputError {
        place: name.clone(),
        message: e.to_string(),
    };
    let mut bytes = Vec::new();
    match path.as_os_str() == "-" {
        true => io::stdin().lock().read_to_end(&mut bytes),
        false => std::fs::File::open(path).and_then(|mut f| f.read_to_end(&mut bytes)),
    }
    .map_err(io_error)?;
    into_utf8(&name, bytes)
}

/// Appends one line of `input` (with its line break) to `buf`, reading at most [`MAX_LINE`] + 1
/// bytes; `false` at the end of the input.
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<bool> {
    Ok(input.take(MAX_LINE as u64 + 1).read_until(b'\n', buf)? > 0)
}

/// Passes over the rest of the current line of `input`, up to and with its line break, without
/// holding it.
fn skip_line(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let available = input.fill_buf()?;
        if available.is_empty() {
            return Ok(());
        }
        match available.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                return Ok(());
            }
            None => {
                let len = available.len();
                input.consume(len);
            }
        }
    }
}

/// The start of an input, read to tell its format.
struct Head {
    /// The blank and comment lines the input starts with: passed over, not kept.
    skipped: usize,
    /// The whole lines after those, up to where the format is known.
    text: Vec<u8>,
    detection: format::Detection,
}

/// Reads the start of `input` until its format is known (at most [`DETECT_BYTES`] after the
/// blank and comment lines it starts with, which are only counted).
fn read_head(input: &mut impl BufRead) -> io::Result<Head> {
    let (mut skipped, mut text) = (0, Vec::new());
    loop {
        let start = text.len();
        if !read_line(input, &mut text)? {
            break;
        }
        let long = text.len() - start > MAX_LINE;
        let line = String::from_utf8_lossy(&text[start..]);
        let line = line.trim_start_matches('\u{feff}').trim();
        let comment = line.starts_with('#');
        if start == 0 && !long && (line.is_empty() || comment) {
            skipped += 1;
            text.clear();
            continue;
        }
        if long || text.len() >= DETECT_BYTES {
            break;
        }
        if comment {
            continue;
        }
        if let Some(detection) = format::detect_start(&String::from_utf8_lossy(&text), false) {
            return Ok(Head {
                skipped,
                text,
                detection,
            });
        }
    }
    let detection =
        format::detect_start(&String::from_utf8_lossy(&text), true).unwrap_or(format::Detection {
            format: format::Format::Line,
            also: None,
        });
    Ok(Head {
        skipped,
        text,
        detection,
    })
}

/// What reading one input hands on, in input order.
enum Reading {
    /// A puzzle, or what is wrong with it.
    Puzzle(Result<format::Entry, format::ParseError>),
    /// A warning about the whole input.
    Warning(String),
    /// Nothing more has arrived yet (a pipe): what is held back should go on now.
    Waiting,
}

/// Reads the puzzles of one input and hands each to `take`, in order: the line format a line at
/// a time as it arrives (a pipe of endless puzzles is answered as it goes, in bounded memory),
/// the grid and JSON formats whole. Input that cannot be read at all is an `Err`.
fn read_input(
    path: &Path,
    read: &ReadOptions,
    mut take: impl FnMut(Reading),
) -> Result<(), String> {
    let name = source_name(path);
    let mut input = open_source(path)?;
    let io_error = |e: io::Error| format!("{name}: {e}");
    let head = match read.format {
        // A forced format needs no look ahead: each line is answered as soon as it is read.
        Some(format) => Head {
            skipped: 0,
            text: Vec::new(),
            detection: format::Detection { format, also: None },
        },
        None => read_head(&mut input).map_err(io_error)?,
    };
    let Head {
        skipped,
        text: mut head,
        detection,
    } = head;
    let format = detection.format;
    if let Some(other) = detection.also {
        take(Reading::Warning(format!(
            "sudoku-lab: warning: {name}: read in the {format} format, but it reads in the \
             {other} format too: give --format {other} if that is what it holds"
        )));
    }
    if format != format::Format::Line {
        input
            .take((MAX_WHOLE - head.len()) as u64 + 1)
            .read_to_end(&mut head)
            .map_err(io_error)?;
        if head.len() > MAX_WHOLE {
            return Err(format!(
                "{name}: more than {} MiB of {format} input (the line format is read as a \
                 stream, the others whole: split the input)",
                MAX_WHOLE >> 20
            ));
        }
        let text = into_utf8(&name, head).map_err(|e| e.to_string())?;
        let opts = ReadOptions {
            format: Some(format),
            ..*read
        };
        format::puzzles(&text, &opts)
            .for_each(|entry| take(Reading::Puzzle(format::shift_lines(entry, skipped))));
        return Ok(());
    }
    let mut lines = io::Cursor::new(head).chain(input);
    let mut reader = format::LineReader::new(read);
    let mut buf = Vec::new();
    for lineno in skipped + 1.. {
        buf.clear();
        if !read_line(&mut lines, &mut buf).map_err(io_error)? {
            break;
        }
        // A full read without a line break: the line goes on past MAX_LINE. It is one bad
        // puzzle, passed over; reading goes on at the next line.
        let entry = if buf.len() > MAX_LINE && !buf.ends_with(b"\n") {
            skip_line(&mut lines).map_err(io_error)?;
            Some(Err(format::ParseError {
                line: lineno,
                col: 1,
                message: format!(
                    "a line of more than {} MiB: not a puzzle line; it is skipped",
                    MAX_LINE >> 20
                ),
            }))
        } else {
            let bytes = buf.strip_suffix(b"\n").unwrap_or(&buf);
            match std::str::from_utf8(bytes) {
                Ok(line) => reader.read(line, lineno),
                Err(e) => Some(Err(format::ParseError {
                    line: lineno,
                    col: String::from_utf8_lossy(&bytes[..e.valid_up_to()])
                        .chars()
                        .count()
                        + 1,
                    message: "input is not valid UTF-8 text".into(),
                })),
            }
        };
        if let Some(entry) = entry {
            take(Reading::Puzzle(entry));
        }
        // The next line has not all arrived: reading it may wait on the writer.
        let (head, input) = lines.get_ref();
        if head.position() as usize >= head.get_ref().len() && !input.buffer().contains(&b'\n') {
            take(Reading::Waiting);
        }
    }
    Ok(())
}

/// One puzzle of the input, with where it came from.
pub struct Item {
    /// 1-based position over the whole batch (bad puzzles count too).
    pub index: usize,
    pub file: Arc<str>,
    /// 1-based line where the puzzle starts.
    pub line: usize,
    pub puzzle: Puzzle,
    /// The known answer the input gave with the puzzle (`puzzle:count[:solution]`, an object's
    /// `count` and `solution`, an f-puzzles `solution`).
    pub expected: Option<Expected>,
}

impl Item {
    /// Where the puzzle starts, as messages name it: `file:line:1`.
    pub fn place(&self) -> String {
        format!("{}:{}:1", self.file, self.line)
    }
    /// When `answer` (from `backend`) contradicts the known answer given with the puzzle, what
    /// to report: "dfs said 2; expected: the puzzle has exactly 3 solutions".
    pub fn wrong_answer(&self, backend: &str, answer: &Answer) -> Option<String> {
        sudoku_lab::bench::wrong_answer(self.expected.as_ref()?, backend, answer)
    }
}

/// Reads every puzzle of every file (standard input when `files` is empty), attaching weights
/// when asked, and calls `f` on each. Unreadable files and bad puzzles are reported on standard
/// error with file, line and column, and recorded in `tally`; reading goes on. Returns the number
/// of puzzles read, bad ones included (the highest [`Item::index`] there could be).
pub fn each_puzzle(
    files: &[PathBuf],
    read: &ReadOptions,
    weights: Option<&WeightSource>,
    tally: &mut Tally,
    mut f: impl FnMut(Item),
) -> usize {
    each_item(files, read, weights, tally, |item| {
        if let Ok(item) = item {
            f(item)
        }
    })
}

/// [`each_puzzle`] that also hands over each bad puzzle (once reported), for callers that keep
/// its place in their output (`xcheck --json`).
pub fn each_item(
    files: &[PathBuf],
    read: &ReadOptions,
    weights: Option<&WeightSource>,
    tally: &mut Tally,
    mut f: impl FnMut(Result<Item, BadPuzzle>),
) -> usize {
    each_entry(files, read, weights, |entry| match entry {
        Entry::Puzzle(item) => f(Ok(item)),
        Entry::Bad(msg) => {
            eprintln!("{msg}");
            tally.bad_input = true;
        }
        Entry::BadPuzzle(bad) => {
            eprintln!("{}", bad.message());
            tally.bad_input = true;
            f(Err(bad))
        }
        Entry::Warning(msg) => eprintln!("{msg}"),
        Entry::Waiting => {}
    })
}

/// The error for a puzzle after the first when `--proof` is given: the proof files hold the
/// proofs of one puzzle.
pub fn beyond_the_proof(item: &Item) -> BadPuzzle {
    BadPuzzle {
        index: item.index,
        file: item.file.clone(),
        line: item.line,
        col: 1,
        reason: format!(
            "--proof writes the proofs of one puzzle (FILE and FILE.cnf), and this is puzzle \
             {}: give one puzzle per run",
            item.index
        ),
    }
}

/// A puzzle of the input that cannot be answered, with where it is.
pub struct BadPuzzle {
    /// 1-based position over the whole batch, as [`Item::index`].
    pub index: usize,
    pub file: Arc<str>,
    /// Where the fault is: 1-based line and column.
    pub line: usize,
    pub col: usize,
    /// What is wrong, without the place.
    pub reason: String,
}

impl BadPuzzle {
    /// The message on standard error: `file:line:col: error: reason`.
    pub fn message(&self) -> String {
        format!(
            "{}:{}:{}: error: {}",
            self.file, self.line, self.col, self.reason
        )
    }
}

/// What reading the input yields, in input order.
pub enum Entry {
    Puzzle(Item),
    /// Bad input that is no puzzle (an unreadable file): the full message.
    Bad(String),
    /// A bad puzzle: it has its place in the batch.
    BadPuzzle(BadPuzzle),
    /// Worth saying, not an error.
    Warning(String),
    /// Nothing more has arrived yet: the puzzles read so far should be answered now.
    Waiting,
}

/// [`each_puzzle`], handing over the messages too, for callers that must keep them in order.
fn each_entry(
    files: &[PathBuf],
    read: &ReadOptions,
    weights: Option<&WeightSource>,
    mut f: impl FnMut(Entry),
) -> usize {
    let stdin = [PathBuf::from("-")];
    let files = if files.is_empty() { &stdin[..] } else { files };
    let mut index = 0;
    let mut weights_cache: Option<(usize, Arc<Weights>)> = None;
    for path in files {
        let name: Arc<str> = Arc::from(source_name(path));
        let mut any = false;
        let read_all = read_input(path, read, |entry| {
            let entry = match entry {
                Reading::Puzzle(entry) => entry,
                Reading::Warning(msg) => return f(Entry::Warning(msg)),
                Reading::Waiting => return f(Entry::Waiting),
            };
            any = true;
            index += 1;
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    f(Entry::BadPuzzle(BadPuzzle {
                        index,
                        file: name.clone(),
                        line: e.line,
                        col: e.col,
                        reason: e.message,
                    }));
                    return;
                }
            };
            for w in &entry.warnings {
                f(Entry::Warning(format!(
                    "{name}:{}:{}: warning: {}",
                    w.line, w.col, w.message
                )));
            }
            let mut puzzle = entry.puzzle;
            if let Some(spec) = weights {
                let n = puzzle.size();
                let w = match &weights_cache {
                    Some((size, w)) if *size == n => Ok(w.clone()),
                    _ => spec.fixed(n).map(Arc::new).map_err(|e| e.to_string()),
                };
                let attached = w.and_then(|w| {
                    weights_cache = Some((n, w.clone()));
                    puzzle.with_weights(w).map_err(|e| e.to_string())
                });
                puzzle = match attached {
                    Ok(p) => p,
                    Err(msg) => {
                        f(Entry::BadPuzzle(BadPuzzle {
                            index,
                            file: name.clone(),
                            line: entry.line,
                            col: 1,
                            reason: format!("weights for this puzzle: {msg}"),
                        }));
                        return;
                    }
                };
            }
            f(Entry::Puzzle(Item {
                index,
                file: name.clone(),
                line: entry.line,
                puzzle,
                expected: entry.expected,
            }));
        });
        if let Err(msg) = read_all {
            f(Entry::Bad(format!("sudoku-lab: error: {msg}")));
            continue;
        }
        if !any {
            f(Entry::Warning(format!(
                "sudoku-lab: warning: {name}: no puzzle in this input"
            )));
        }
    }
    index
}

/// What one entry of the input gives: standard output and standard error text, and how it ended.
#[derive(Default)]
struct Done {
    out: String,
    err: String,
    tally: Tally,
}

/// Runs the task on one puzzle and renders what is to be printed for it.
fn answer(backend: &dyn Backend, config: &Config, item: &Item) -> Done {
    let mut done = Done::default();
    let mut limits = config.timeout.map_or(Limits::none(), Limits::timeout);
    if config.json {
        limits = limits.metered();
    }
    let start = Instant::now();
    let result = task::run(backend, &item.puzzle, config.task, &limits);
    let time_us = start.elapsed().as_micros() as u64;
    let effort = Some(limits.effort()).filter(|e| !e.is_empty());
    let mut record = Record {
        time_us,
        effort,
        ..Record::bare(item.index, &item.file, item.line, config, backend, "error")
    };
    let text_out = match &result {
        Ok(answer) => {
            fill_record(&mut record, answer);
            // An optimum the deadline stopped before its proof: the best grid is printed, and
            // the exit code says time-out (docs/cli.md).
            if let Answer::Optimum { proved: false, .. } = answer {
                done.tally.timed_out = true;
            }
            if let Some(wrong) = item.wrong_answer(backend.name(), answer) {
                done.err = format!("{}: wrong answer: {wrong}\n", item.place());
                done.tally.failed = true;
                record.error = Some(format!("wrong answer: {wrong}"));
            }
            text_answer(answer, config.grid_output)
        }
        Err(e) => {
            record.status = done.tally.record_error(e);
            record.error = Some(e.to_string());
            // A refusal or a failure is an error; a time-out is said as it is.
            let error = if record.status == "error" {
                "error: "
            } else {
                ""
            };
            done.err = format!("{}: {error}{e}\n", item.place());
            match e.at_least() {
                // A count cut short: what it found, still a time-out.
                Some(found) => {
                    record.count = Some(found);
                    record.complete = Some(false);
                    format!("{} (at least {found})\n", record.status)
                }
                None => format!("{}\n", record.status),
            }
        }
    };
    done.out = if config.json {
        let mut line = serde_json::to_string(&record).expect("records serialise");
        line.push('\n');
        line
    } else {
        text_out
    };
    done
}

/// What is printed for a puzzle that cannot be answered: its message on standard error and,
/// with `--json`, a record in its place (status `invalid`), so that the records keep the input
/// order.
fn invalid(backend: &dyn Backend, config: &Config, bad: &BadPuzzle) -> Done {
    let mut done = Done {
        err: bad.message() + "\n",
        ..Done::default()
    };
    done.tally.bad_input = true;
    if config.json {
        let record = Record {
            col: Some(bad.col),
            error: Some(bad.reason.clone()),
            ..Record::bare(bad.index, &bad.file, bad.line, config, backend, "invalid")
        };
        done.out = serde_json::to_string(&record).expect("records serialise") + "\n";
    }
    done
}

/// How many entries may be read ahead of the first one not yet printed: bounds the memory that
/// a slow puzzle can hold up behind it.
const WINDOW: usize = 1 << 14;
/// How often, in entries, the reader looks at the window and printing reports how far it got.
const STEP: usize = 64;
/// Puzzles are handed to a worker in chunks sized to take about this long, from the time the
/// puzzles answered so far took: easy puzzles go by the hundred (few thread hand-offs), hard ones
/// a few at a time (no worker left with a long tail while the others idle).
const CHUNK_TIME: Duration = Duration::from_micros(1000);
const CHUNK_MIN: usize = 2;
const CHUNK_MAX: usize = 1024;
/// The first chunks, before any puzzle is timed.
const CHUNK_FIRST: usize = 16;
/// The longest a worker holds answers back before sending them on.
const HOLD: Duration = Duration::from_millis(2);

/// The time the workers have taken so far, for sizing chunks.
#[derive(Default)]
struct Pace {
    puzzles: AtomicU64,
    nanos: AtomicU64,
}

impl Pace {
    fn record(&self, puzzles: usize, took: Duration) {
        self.puzzles.fetch_add(puzzles as u64, Ordering::Relaxed);
        self.nanos
            .fetch_add(took.as_nanos() as u64, Ordering::Relaxed);
    }

    /// How many puzzles the next chunk should hold.
    fn chunk(&self) -> usize {
        let puzzles = self.puzzles.load(Ordering::Relaxed);
        let nanos = self.nanos.load(Ordering::Relaxed).max(1);
        if puzzles == 0 {
            return CHUNK_FIRST;
        }
        let fit = CHUNK_TIME.as_nanos() as u64 * puzzles / nanos;
        (fit as usize).clamp(CHUNK_MIN, CHUNK_MAX)
    }
}

/// Runs the batch over its files (standard input when none) on `config.jobs` worker threads and
/// returns the exit code.
///
/// One thread reads and parses, the workers take puzzles a chunk at a time, and this thread
/// prints each answer (with its messages on standard error) in input order as soon as everything
/// before it is printed. Workers pass answers on at least every few milliseconds and output is
/// flushed whenever nothing further is ready, so a slow puzzle's answer shows at once while fast
/// ones are written in large blocks.
pub fn run(config: &Config) -> ExitCode {
    let (backend, files) = (config.backend.as_ref(), &config.files[..]);
    let jobs = config.jobs.max(1);
    let (work_tx, work_rx) = mpsc::sync_channel::<Vec<(usize, Item)>>(16 * jobs);
    let work_rx = Mutex::new(work_rx);
    let (done_tx, done_rx) = mpsc::channel::<Vec<(usize, Done)>>();
    let printed = (Mutex::new(0usize), Condvar::new());
    let pace = Pace::default();
    let mut tally = Tally::default();
    std::thread::scope(|scope| {
        let (printed, pace) = (&printed, &pace);
        let reader_done = done_tx.clone();
        scope.spawn(move || {
            let mut seq = 0;
            let mut chunk = Vec::new();
            let mut size = CHUNK_FIRST;
            let mut ok = true;
            let mut puzzles = 0usize;
            each_entry(files, &config.read, config.weights.as_ref(), |entry| {
                if !ok {
                    return;
                }
                let entry = match entry {
                    // Nothing more has arrived: the puzzles held for a chunk are answered now.
                    Entry::Waiting => {
                        if !chunk.is_empty() {
                            ok &= work_tx.send(std::mem::take(&mut chunk)).is_ok();
                        }
                        return;
                    }
                    Entry::Puzzle(item) if config.one_puzzle && puzzles > 0 => {
                        Entry::BadPuzzle(beyond_the_proof(&item))
                    }
                    Entry::Puzzle(item) => {
                        puzzles += 1;
                        Entry::Puzzle(item)
                    }
                    other => other,
                };
                if seq % STEP == 0 {
                    // Reading never runs more than WINDOW entries ahead of printing. What is
                    // read goes out before waiting: printing may need it to move on.
                    let (lock, cv) = printed;
                    let mut p = lock.lock().unwrap_or_else(|e| e.into_inner());
                    if seq >= *p + WINDOW && !chunk.is_empty() {
                        drop(p);
                        ok &= work_tx.send(std::mem::take(&mut chunk)).is_ok();
                        p = lock.lock().unwrap_or_else(|e| e.into_inner());
                    }
                    while seq >= *p + WINDOW {
                        p = cv.wait(p).unwrap_or_else(|e| e.into_inner());
                    }
                }
                let is_bad = matches!(entry, Entry::Bad(_));
                match entry {
                    Entry::BadPuzzle(bad) => {
                        let done = invalid(backend, config, &bad);
                        ok &= reader_done.send(vec![(seq, done)]).is_ok();
                    }
                    Entry::Puzzle(item) => {
                        if chunk.is_empty() {
                            size = pace.chunk();
                        }
                        chunk.push((seq, item))
                    }
                    Entry::Bad(msg) | Entry::Warning(msg) => {
                        let mut done = Done {
                            err: msg + "\n",
                            ..Done::default()
                        };
                        done.tally.bad_input = is_bad;
                        ok &= reader_done.send(vec![(seq, done)]).is_ok();
                    }
                    Entry::Waiting => return, // sent on above
                }
                seq += 1;
                if chunk.len() >= size {
                    ok &= work_tx.send(std::mem::take(&mut chunk)).is_ok();
                }
            });
            if !chunk.is_empty() {
                let _ = work_tx.send(chunk);
            }
        });
        for _ in 0..jobs {
            let (work_rx, done_tx) = (&work_rx, done_tx.clone());
            scope.spawn(move || {
                let mut held = Vec::new();
                let mut since = Instant::now();
                loop {
                    let next = work_rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                    let Ok(chunk) = next else { break };
                    let (start, n) = (Instant::now(), chunk.len());
                    for (seq, item) in chunk {
                        held.push((seq, answer(backend, config, &item)));
                        if since.elapsed() >= HOLD {
                            if done_tx.send(std::mem::take(&mut held)).is_err() {
                                return;
                            }
                            since = Instant::now();
                        }
                    }
                    pace.record(n, start.elapsed());
                    if !held.is_empty() && done_tx.send(std::mem::take(&mut held)).is_err() {
                        return;
                    }
                    since = Instant::now();
                }
            });
        }
        drop(done_tx);
        print_in_order(done_rx, printed, &mut tally);
    });
    tally.exit_code()
}

/// Prints results in sequence order as they arrive, moving the reader's window on.
fn print_in_order(
    results: mpsc::Receiver<Vec<(usize, Done)>>,
    printed: &(Mutex<usize>, Condvar),
    tally: &mut Tally,
) {
    let mut waiting: BTreeMap<usize, Done> = BTreeMap::new();
    let mut next = 0;
    let mut out = String::new();
    let flush = |out: &mut String| {
        if !out.is_empty() {
            write_stdout(out.as_bytes());
            out.clear();
        }
    };
    let mut incoming = results.recv().ok();
    while let Some(batch) = incoming {
        waiting.extend(batch);
        let before = next;
        while let Some(done) = waiting.remove(&next) {
            out.push_str(&done.out);
            if !done.err.is_empty() {
                // Messages go out after the answers before them.
                flush(&mut out);
                eprint!("{}", done.err);
            }
            tally.merge(&done.tally);
            next += 1;
        }
        if next / STEP != before / STEP {
            let (lock, cv) = printed;
            *lock.lock().unwrap_or_else(|e| e.into_inner()) = next;
            cv.notify_all();
        }
        if out.len() >= 1 << 16 {
            flush(&mut out);
        }
        incoming = match results.try_recv() {
            Ok(r) => Some(r),
            Err(_) => {
                flush(&mut out);
                results.recv().ok()
            }
        };
    }
    flush(&mut out);
}

fn grid_json(g: &Grid) -> serde_json::Value {
    if g.size() <= 35 {
        serde_json::Value::String(
            g.cells()
                .iter()
                .map(|&v| symbol(v).unwrap_or('?'))
                .collect(),
        )
    } else {
        serde_json::json!(g.rows().map(|r| r.to_vec()).collect::<Vec<_>>())
    }
}

fn fill_record(r: &mut Record<'_>, answer: &Answer) {
    r.status = answer.status();
    r.solution = answer.grid().map(grid_json);
    if let Some((count, complete)) = answer.count() {
        r.count = Some(count);
        r.complete = Some(complete);
    }
    if let Answer::Optimum {
        score,
        proved,
        bound,
        ..
    } = answer
    {
        r.score = Some(*score);
        r.proved = Some(*proved);
        r.bound = *bound;
    }
}

fn grid_text(g: &Grid, grid_output: bool) -> String {
    if grid_output || g.size() > 35 {
        let mut s = String::new();
        for row in g.rows() {
            let cells: Vec<String> = row.iter().map(|v| v.to_string()).collect();
            s.push_str(&cells.join(" "));
            s.push('\n');
        }
        s.push('\n');
        s
    } else {
        format!("{g}\n")
    }
}

/// The text form of an answer: what was established, then the grid where there is one
/// (on the same line in line output, on the following rows in grid output).
fn text_answer(answer: &Answer, grid_output: bool) -> String {
    let with_grid = |label: String, g: &Grid| {
        let sep = if grid_output || g.size() > 35 {
            "\n"
        } else {
            " "
        };
        let label = if label.is_empty() {
            String::new()
        } else {
            format!("{label}{sep}")
        };
        format!("{label}{}", grid_text(g, grid_output))
    };
    match answer {
        Answer::NoSolution => "no solution\n".into(),
        Answer::Solved(g) => with_grid(String::new(), g),
        Answer::Counted {
            count,
            complete: true,
            ..
        } => format!("{count}\n"),
        Answer::Counted {
            count,
            complete: false,
            ..
        } => format!("at least {count}\n"),
        Answer::Unique(g) => with_grid("unique".into(), g),
        Answer::Multiple(..) => "multiple\n".into(),
        Answer::Optimum {
            score,
            grid,
            proved: true,
            ..
        } => with_grid(score.to_string(), grid),
        Answer::Optimum {
            score,
            grid,
            proved: false,
            bound,
        } => {
            let b = bound.map_or(String::new(), |b| format!(", bound {b}"));
            with_grid(format!("{score} (not proved{b})"), grid)
        }
    }
}
