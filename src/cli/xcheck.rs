//! `sudoku-lab xcheck`: every puzzle through every selected backend, in parallel over puzzles,
//! with a row for each disagreement or failure and a per-backend summary at the end.
//!
//! Exit codes: 1 on any disagreement or checker/solver failure, else 2 if some input was bad,
//! else 3 if some backend timed out, else 0.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;

use sudoku_lab::backend::Backend;
use sudoku_lab::format::ReadOptions;
use sudoku_lab::report::Stats;
use sudoku_lab::task::Task;
use sudoku_lab::xcheck::{self, BackendRun, Verdict};

use super::batch::{self, Item, Tally, WeightsSpec};

pub struct Config {
    pub task: Task,
    pub read: ReadOptions,
    pub weights: Option<WeightsSpec>,
    pub timeout: Option<Duration>,
    pub jobs: usize,
    pub json: bool,
}

/// Per-backend totals for the summary table.
#[derive(Default)]
struct Totals {
    puzzles: usize,
    agreed: usize,
    disagreed: usize,
    timed_out: usize,
    failed: usize,
    times: Vec<Duration>,
}

#[derive(Serialize)]
struct JsonResult<'a> {
    backend: &'a str,
    status: &'a str,
    said: String,
    time_us: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Serialize)]
struct JsonPuzzle<'a> {
    index: usize,
    file: &'a str,
    line: usize,
    task: &'a str,
    /// agreed | disagreement | failure
    verdict: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<&'a str>,
    results: Vec<JsonResult<'a>>,
}

pub fn run(backends: &[Box<dyn Backend>], config: &Config, files: &[PathBuf]) -> ExitCode {
    let mut tally = Tally::default();
    let mut items: Vec<Item> = Vec::new();
    batch::each_puzzle(
        files,
        &config.read,
        config.weights.as_ref(),
        &mut tally,
        |it| items.push(it),
    );

    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let flag = interrupted.clone();
        // A second Ctrl-C while finishing in-flight puzzles is not worth a failure: ignore errors.
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    }
    let progress = if std::io::stderr().is_terminal() {
        let pb =
            ProgressBar::with_draw_target(Some(items.len() as u64), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(
            "{bar:40} {pos}/{len} puzzles  {elapsed} (eta {eta}) {msg}",
        ) {
            pb.set_style(style);
        }
        pb
    } else {
        ProgressBar::hidden()
    };

    let mut totals: BTreeMap<&'static str, Totals> = BTreeMap::new();
    for b in backends {
        totals.insert(b.name(), Totals::default());
    }
    let (mut disagreements, mut failures) = (0usize, 0usize);
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(config.jobs)
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("sudoku-lab: error: cannot start worker threads: {e}");
            return ExitCode::from(1);
        }
    };
    let (tx, rx) = mpsc::channel::<(usize, Vec<BackendRun>, Verdict)>();
    std::thread::scope(|scope| {
        let items = &items;
        let interrupted = &interrupted;
        scope.spawn(move || {
            pool.install(|| {
                items
                    .par_iter()
                    .enumerate()
                    .for_each_with(tx, |tx, (i, item)| {
                        if interrupted.load(Ordering::SeqCst) {
                            return;
                        }
                        let runs =
                            xcheck::run_all(backends, &item.puzzle, config.task, config.timeout);
                        let verdict = xcheck::compare(config.task, &runs);
                        let _ = tx.send((i, runs, verdict));
                    });
            })
        });
        for (i, runs, verdict) in rx {
            let item = &items[i];
            for r in &runs {
                let t = totals.entry(r.backend).or_default();
                t.puzzles += 1;
                t.times.push(r.time);
                if r.timed_out() {
                    t.timed_out += 1;
                } else if r.result.is_err() {
                    t.failed += 1;
                } else if verdict == Verdict::Agreed {
                    t.agreed += 1;
                } else {
                    t.disagreed += 1;
                }
            }
            let (word, detail) = match &verdict {
                Verdict::Agreed => ("agreed", None),
                Verdict::Disagreement(d) => {
                    disagreements += 1;
                    ("disagreement", Some(d.as_str()))
                }
                Verdict::Failure(d) => {
                    failures += 1;
                    ("failure", Some(d.as_str()))
                }
            };
            if runs.iter().any(BackendRun::timed_out) {
                tally.timed_out = true;
            }
            if config.json {
                let rec = JsonPuzzle {
                    index: item.index,
                    file: &item.file,
                    line: item.line,
                    task: config.task.name(),
                    verdict: word,
                    detail,
                    results: runs
                        .iter()
                        .map(|r| JsonResult {
                            backend: r.backend,
                            status: match &r.result {
                                Ok(a) => a.status(),
                                Err(_) if r.timed_out() => "timeout",
                                Err(_) => "error",
                            },
                            said: r.said(),
                            time_us: r.time.as_micros() as u64,
                            error: r.result.as_ref().err().map(|e| e.to_string()),
                        })
                        .collect(),
                };
                let mut line = serde_json::to_string(&rec).expect("records serialise");
                line.push('\n');
                progress.suspend(|| batch::write_stdout(line.as_bytes()));
            } else if let Some(d) = detail {
                let row = format!(
                    "{word}: puzzle {} ({}:{}): {d}\n",
                    item.index, item.file, item.line
                );
                progress.suspend(|| batch::write_stdout(row.as_bytes()));
            }
            progress.inc(1);
        }
    });
    progress.finish_and_clear();

    let done: usize = totals.values().map(|t| t.puzzles).max().unwrap_or(0);
    let mut summary = String::new();
    if interrupted.load(Ordering::SeqCst) {
        summary.push_str(&format!(
            "interrupted: {done} of {} puzzles checked\n",
            items.len()
        ));
    }
    summary.push_str(&format!(
        "{} puzzles, task {}: {} disagreements, {} failures\n",
        done,
        config.task.name(),
        disagreements,
        failures
    ));
    summary.push_str(&format!(
        "{:<10} {:>8} {:>8} {:>10} {:>9} {:>7} {:>12} {:>12} {:>12} {:>12}\n",
        "backend",
        "puzzles",
        "agreed",
        "disagreed",
        "timed-out",
        "failed",
        "total",
        "median",
        "p90",
        "max"
    ));
    for (name, t) in &totals {
        let s = Stats::from_durations(&t.times);
        summary.push_str(&format!(
            "{:<10} {:>8} {:>8} {:>10} {:>9} {:>7} {:>12} {:>12} {:>12} {:>12}\n",
            name,
            t.puzzles,
            t.agreed,
            t.disagreed,
            t.timed_out,
            t.failed,
            fmt_duration(s.total),
            fmt_duration(s.median),
            fmt_duration(s.p90),
            fmt_duration(s.max)
        ));
    }
    if config.json {
        eprint!("{summary}");
    } else {
        batch::write_stdout(summary.as_bytes());
    }
    if disagreements > 0 || failures > 0 {
        return ExitCode::from(1);
    }
    tally.exit_code()
}

/// A duration with a unit that keeps 3–4 significant digits.
fn fmt_duration(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us < 1_000.0 {
        format!("{us:.1} µs")
    } else if us < 1_000_000.0 {
        format!("{:.2} ms", us / 1e3)
    } else {
        format!("{:.3} s", us / 1e6)
    }
}
