//! Runs one task over every puzzle of every input, printing each answer as soon as it is checked.
//! A bad puzzle is reported (file, line, column) and the batch goes on; the exit code sums up.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;

use sudoku_lab::backend::{Backend, BackendError, Limits};
use sudoku_lab::format::{self, ReadOptions};
use sudoku_lab::model::{symbol, Grid, Weights};
use sudoku_lab::task::{self, Answer, RunError, Task};

use super::UsageError;

/// Where optimisation weights come from.
pub enum WeightsSpec {
    Pyramid,
    File(String, String),
}

impl WeightsSpec {
    pub fn parse(spec: &str) -> Result<WeightsSpec, UsageError> {
        if spec == "pyramid" {
            return Ok(WeightsSpec::Pyramid);
        }
        let bytes = std::fs::read(spec).map_err(|e| UsageError(format!("--weights {spec}: {e}")))?;
        Ok(WeightsSpec::File(spec.to_string(), decode_utf8(spec, &bytes).map_err(UsageError)?))
    }

    fn for_size(&self, n: usize) -> Result<Weights, String> {
        match self {
            WeightsSpec::Pyramid => Ok(Weights::pyramid(n)),
            WeightsSpec::File(name, text) => {
                format::read_weights(text, n).map_err(|e| format!("{name}:{}:{}: {}", e.line, e.col, e.message))
            }
        }
    }
}

/// Everything the batch needs, resolved from the flags.
pub struct Config {
    pub task: Task,
    pub read: ReadOptions,
    pub weights: Option<WeightsSpec>,
    pub timeout: Option<Duration>,
    pub json: bool,
    pub grid_output: bool,
}

/// What went wrong over the batch, for the exit code.
#[derive(Default)]
struct Tally {
    bad_input: bool,
    failed: bool,
    timed_out: bool,
}

impl Tally {
    fn exit_code(&self) -> ExitCode {
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
    /// 1-based line where the puzzle starts.
    line: usize,
    task: &'static str,
    backend: &'static str,
    /// none | solved | counted | unique | multiple | optimal | feasible | timeout | error
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
}

/// Decodes input as UTF-8, or says where the first invalid byte is.
pub fn decode_utf8(name: &str, bytes: &[u8]) -> Result<String, String> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s.to_string()),
        Err(e) => {
            let before = &bytes[..e.valid_up_to()];
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let col = before.len() - before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1) + 1;
            Err(format!("{name}:{line}:{col}: input is not valid UTF-8 text"))
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

fn read_source(path: &PathBuf) -> Result<(String, String), String> {
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        io::stdin().read_to_end(&mut buf).map_err(|e| format!("<stdin>: {e}"))?;
        return Ok(("<stdin>".into(), decode_utf8("<stdin>", &buf)?));
    }
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
    let text = decode_utf8(&name, &bytes)?;
    Ok((name, text))
}

/// Runs the batch over `files` (standard input when empty) and returns the exit code.
pub fn run(backend: &dyn Backend, config: &Config, files: &[PathBuf]) -> ExitCode {
    let stdin = [PathBuf::from("-")];
    let files = if files.is_empty() { &stdin[..] } else { files };
    let mut tally = Tally::default();
    let mut index = 0;
    let mut weights_cache: Option<(usize, Arc<Weights>)> = None;
    for path in files {
        let (name, text) = match read_source(path) {
            Ok(x) => x,
            Err(msg) => {
                eprintln!("sudoku-lab: error: {msg}");
                tally.bad_input = true;
                continue;
            }
        };
        for entry in format::read_puzzles(&text, &config.read) {
            index += 1;
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    eprintln!("{name}:{}:{}: error: {}", e.line, e.col, e.message);
                    tally.bad_input = true;
                    continue;
                }
            };
            let mut puzzle = entry.puzzle;
            if let Some(spec) = &config.weights {
                let n = puzzle.size();
                let w = match &weights_cache {
                    Some((size, w)) if *size == n => w.clone(),
                    _ => match spec.for_size(n) {
                        Ok(w) => {
                            let w = Arc::new(w);
                            weights_cache = Some((n, w.clone()));
                            w
                        }
                        Err(msg) => {
                            eprintln!("{name}:{}:1: error: weights for this puzzle: {msg}", entry.line);
                            tally.bad_input = true;
                            continue;
                        }
                    },
                };
                puzzle = match puzzle.with_weights(w) {
                    Ok(p) => p,
                    Err(e) => {
                        eprintln!("{name}:{}:1: error: {e}", entry.line);
                        tally.bad_input = true;
                        continue;
                    }
                };
            }
            let limits = config.timeout.map_or(Limits::none(), Limits::timeout);
            let start = Instant::now();
            let result = task::run(backend, &puzzle, config.task, &limits);
            let time_us = start.elapsed().as_micros() as u64;
            let mut record = Record {
                index,
                file: &name,
                line: entry.line,
                task: config.task.name(),
                backend: backend.name(),
                status: "error",
                solution: None,
                count: None,
                complete: None,
                score: None,
                proved: None,
                bound: None,
                error: None,
                time_us,
            };
            let text_out = match &result {
                Ok(answer) => {
                    fill_record(&mut record, answer);
                    text_answer(answer, config.grid_output)
                }
                Err(e) => {
                    let status = match e {
                        RunError::Backend(BackendError::TimedOut) => {
                            tally.timed_out = true;
                            "timeout"
                        }
                        RunError::Backend(BackendError::Unsupported(_)) => {
                            tally.bad_input = true;
                            "error"
                        }
                        RunError::Backend(BackendError::Failed(_)) | RunError::Check { .. } => {
                            tally.failed = true;
                            "error"
                        }
                    };
                    record.status = status;
                    record.error = Some(e.to_string());
                    eprintln!("{name}:{}:1: {e}", entry.line);
                    if status == "timeout" {
                        "timeout\n".to_string()
                    } else {
                        "error\n".to_string()
                    }
                }
            };
            if config.json {
                let mut line = serde_json::to_string(&record).expect("records serialise");
                line.push('\n');
                write_stdout(line.as_bytes());
            } else {
                write_stdout(text_out.as_bytes());
            }
        }
    }
    tally.exit_code()
}

fn grid_json(g: &Grid) -> serde_json::Value {
    if g.size() <= 35 {
        serde_json::Value::String(g.cells().iter().map(|&v| symbol(v).unwrap_or('?')).collect())
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
    if let Answer::Optimum { score, proved, bound, .. } = answer {
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
        let sep = if grid_output || g.size() > 35 { "\n" } else { " " };
        let label = if label.is_empty() { String::new() } else { format!("{label}{sep}") };
        format!("{label}{}", grid_text(g, grid_output))
    };
    match answer {
        Answer::NoSolution => "no solution\n".into(),
        Answer::Solved(g) => with_grid(String::new(), g),
        Answer::Counted { count, complete: true, .. } => format!("{count}\n"),
        Answer::Counted { count, complete: false, .. } => format!("at least {count}\n"),
        Answer::Unique(g) => with_grid("unique".into(), g),
        Answer::Multiple(..) => "multiple\n".into(),
        Answer::Optimum { score, grid, proved: true, .. } => with_grid(score.to_string(), grid),
        Answer::Optimum { score, grid, proved: false, bound } => {
            let b = bound.map_or(String::new(), |b| format!(", bound {b}"));
            with_grid(format!("{score} (not proved{b})"), grid)
        }
    }
}
