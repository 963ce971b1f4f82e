//! `sudoku-lab xcheck`: every puzzle through every selected backend, in parallel over puzzles,
//! with a row for each disagreement or failure and a per-backend summary at the end.
//!
//! Exit codes: 1 on any disagreement or checker/solver failure, else 2 if some input was bad or
//! some backend refused a puzzle (it cannot take that size or task), else 3 if some backend timed
//! out, else 0. Refusals and time-outs are not failures: the backends that answered are compared.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use clap::Args;
use serde::Serialize;

use sudoku_lab::counted::counted;
use sudoku_lab::report;
use sudoku_lab::shard::Shard;
use sudoku_lab::xcheck::{self, Checked, Verdict};

use super::args::{jobs_arg, InputArgs, TaskArg, TaskOptions};
use super::batch::{self, BadPuzzle, Item, Tally};
use super::engine::{EngineArgs, Runs};
use super::render::{fault_picture, PicturesArg};
use super::UsageError;

/// Run every puzzle through several backends and check that they all agree.
///
/// Prints a row for every disagreement, checker failure or solver error, then a summary per
/// backend. Exit 1 on any disagreement or failure, 3 if only time-outs, 0 if all agree.
#[derive(Args, Debug)]
pub struct XcheckArgs {
    /// Puzzle files; `-` or none reads standard input.
    files: Vec<PathBuf>,
    /// The task every backend answers.
    #[arg(long, value_enum, default_value_t = TaskArg::Unique)]
    task: TaskArg,
    /// Comma-separated backends to compare (default: all compiled in).
    #[arg(long, value_delimiter = ',')]
    backends: Vec<String>,
    #[command(flatten)]
    task_options: TaskOptions,
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
    #[command(flatten)]
    pictures: PicturesArg,
}

impl XcheckArgs {
    pub fn resolve(self) -> Result<Config, UsageError> {
        let task = (self.task, &self.task_options);
        let one_puzzle = self.engine.writes_proofs();
        Ok(Config {
            runs: Runs::resolve(&self.engine, &self.backends, task, &self.input, self.budget)?,
            jobs: if one_puzzle { 1 } else { jobs_arg(self.jobs)? },
            one_puzzle,
            json: self.json,
            shard: self.shard,
            files: self.files,
            pictures: self.pictures.resolve()?,
        })
    }
}

/// What the cross-check was asked for, resolved from the flags.
pub struct Config {
    /// The backends, the task and the limits; the budget is each backend's over the run.
    pub runs: Runs,
    pub jobs: usize,
    /// Check the first puzzle only, and report every other as bad input (`--proof`: its files
    /// hold the proofs of one puzzle).
    pub one_puzzle: bool,
    pub json: bool,
    /// Check only this share of the input puzzles.
    pub shard: Shard,
    /// The inputs; none reads standard input.
    pub files: Vec<PathBuf>,
    /// Draw the puzzles on which backends do not agree into this folder.
    pub pictures: Option<PathBuf>,
}

#[derive(Serialize)]
struct JsonResult<'a> {
    backend: &'a str,
    status: &'a str,
    said: String,
    time_us: u64,
    /// The same time in nanoseconds, which `report` merges shards with.
    time_ns: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Serialize)]
struct JsonPuzzle<'a> {
    index: usize,
    file: &'a str,
    /// Where the puzzle starts (for an `invalid` puzzle, where its fault is).
    line: usize,
    /// `invalid` only: the column of the fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    col: Option<usize>,
    task: &'a str,
    /// agreed | disagreement | failure | invalid
    verdict: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<&'a str>,
    /// `invalid` only: what is wrong with the puzzle.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    /// One per backend; none for an `invalid` puzzle, which no backend answered.
    results: Vec<JsonResult<'a>>,
}

impl<'a> JsonPuzzle<'a> {
    /// The record of a puzzle that could not be read, in its place among the others: verdict
    /// `invalid`, where and what the fault is, no results (as `solve --json` writes one with
    /// status `invalid`).
    fn invalid(config: &Config, bad: &'a BadPuzzle) -> JsonPuzzle<'a> {
        JsonPuzzle {
            index: bad.index,
            file: &bad.file,
            line: bad.line,
            col: Some(bad.col),
            task: config.runs.task.name(),
            verdict: "invalid",
            detail: None,
            error: Some(&bad.reason),
            results: Vec::new(),
        }
    }

    fn to_line(&self) -> String {
        let mut line = serde_json::to_string(self).expect("records serialise");
        line.push('\n');
        line
    }
}

pub fn run(config: &Config) -> ExitCode {
    let mut tally = Tally::default();
    let mut items: Vec<Item> = Vec::new();
    // The puzzles that could not be read, each said on standard error; with --json, each has a
    // record in its place too (those of the shard's share of the input).
    let mut invalid: Vec<BadPuzzle> = Vec::new();
    batch::each_item(
        &config.files,
        &config.runs.read,
        config.runs.weights.as_ref(),
        &mut tally,
        |it| match it {
            Ok(item) => items.push(item),
            Err(bad) => invalid.push(bad),
        },
    );
    items.retain(|it| config.shard.takes(it.index as u64 - 1));
    invalid.retain(|bad| config.shard.takes(bad.index as u64 - 1));
    if config.one_puzzle && items.len() > 1 {
        for item in items.drain(1..) {
            let bad = batch::beyond_the_proof(&item);
            eprintln!("{}", bad.message());
            invalid.push(bad);
        }
        tally.bad_input = true;
    }
    if !config.json {
        invalid.clear();
    }
    invalid.sort_by_key(|bad| bad.index);

    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let flag = interrupted.clone();
        // A second Ctrl-C while finishing in-flight puzzles is not worth a failure: ignore errors.
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    }
    let progress = super::bench::progress_bar(items.len());
    let puzzles: Vec<_> = items
        .iter()
        .map(|it| (&it.puzzle, it.expected.as_ref()))
        .collect();
    let job = xcheck::Batch {
        backends: &config.runs.backends,
        task: config.runs.task,
        timeout: config.runs.timeout,
        budget: config.runs.budget,
        jobs: config.jobs,
        cancel: None,
        effort: false,
    };
    // Puzzles finish in any order on several jobs; their rows are printed in input order, each
    // as soon as every puzzle before it has been printed, the records of the invalid puzzles
    // before it first.
    let mut waiting = std::collections::BTreeMap::new();
    let mut next = 0;
    let mut invalid = invalid.iter().peekable();
    let mut print = |text: String, index: usize| {
        let mut text_out = String::new();
        while let Some(bad) = invalid.next_if(|bad| bad.index < index) {
            text_out.push_str(&JsonPuzzle::invalid(config, bad).to_line());
        }
        text_out.push_str(&text);
        if !text_out.is_empty() {
            progress.suspend(|| batch::write_stdout(text_out.as_bytes()));
        }
    };
    let totals = xcheck::run_batch(&job, &puzzles, &interrupted, |checked| {
        let text = report_puzzle(config, &items[checked.position], checked);
        waiting.insert(checked.position, text);
        while let Some(text) = waiting.remove(&next) {
            print(text, items[next].index);
            next += 1;
        }
        progress.inc(1);
    });
    // After Ctrl-C, the puzzles not checked leave gaps: what was checked after them is printed.
    for (position, text) in std::mem::take(&mut waiting) {
        print(text, items[position].index);
    }
    print(String::new(), usize::MAX);
    progress.finish_and_clear();
    let totals = match totals {
        Ok(t) => t,
        Err(e) => {
            eprintln!("sudoku-lab: error: cannot start worker threads: {e}");
            return ExitCode::from(1);
        }
    };
    tally.timed_out |= totals.timed_out;
    tally.bad_input |= totals.refusals > 0;
    print_summary(config, &totals, items.len());
    if totals.disagreements > 0 || totals.failures > 0 {
        return ExitCode::from(1);
    }
    if totals.checked < items.len() {
        // Stopped by Ctrl-C: not everything was checked (128 + SIGINT, as shells report it).
        return ExitCode::from(130);
    }
    tally.exit_code()
}

/// What to print for one checked puzzle: its JSON line, or the rows of its disagreement,
/// failure and refusals (with the picture drawn of a fault).
fn report_puzzle(config: &Config, item: &Item, checked: &Checked) -> String {
    let runs = &checked.runs;
    let (word, detail) = match &checked.verdict {
        Verdict::Agreed => ("agreed", None),
        Verdict::Disagreement(d) => ("disagreement", Some(d.as_str())),
        Verdict::Failure(d) => ("failure", Some(d.as_str())),
    };
    let at = format!("puzzle {} ({}:{})", item.index, item.file, item.line);
    let picture = config.pictures.as_deref().zip(detail).and_then(|(dir, d)| {
        let title = format!("{word}: {at}: {d}");
        fault_picture(
            dir,
            item.index as u64,
            &item.puzzle,
            &checked.verdict,
            title,
        )
    });
    if config.json {
        let rec = JsonPuzzle {
            index: item.index,
            file: &item.file,
            line: item.line,
            col: None,
            task: config.runs.task.name(),
            verdict: word,
            detail,
            error: None,
            results: runs
                .iter()
                .map(|r| JsonResult {
                    backend: r.backend,
                    status: match &r.result {
                        Ok(a) => a.status(),
                        Err(_) if r.timed_out() => "timeout",
                        Err(_) if r.refused() => "refused",
                        Err(_) => "error",
                    },
                    said: r.said(),
                    time_us: r.time.as_micros() as u64,
                    time_ns: u64::try_from(r.time.as_nanos()).unwrap_or(u64::MAX),
                    error: r.result.as_ref().err().map(|e| e.to_string()),
                })
                .collect(),
        };
        return rec.to_line();
    }
    let mut rows = String::new();
    if let Some(d) = detail {
        rows.push_str(&format!("{word}: {at}: {d}\n"));
    }
    if let Some(path) = &picture {
        rows.push_str(&format!("picture: {}\n", path.display()));
    }
    for r in checked.refusals() {
        if let Err(e) = &r.result {
            rows.push_str(&format!("refused: {at}: {}: {e}\n", r.backend));
        }
    }
    rows
}

/// The summary line and the per-backend rows: on standard output, or on standard error under
/// `--json`.
fn print_summary(config: &Config, totals: &xcheck::Totals, puzzles: usize) {
    let done = totals.checked;
    let mut summary = Vec::new();
    if done < puzzles {
        let of = counted(puzzles, "puzzle");
        summary.extend(format!("interrupted: {done} of {of} checked\n").bytes());
    }
    let line = report::XcheckTotals {
        task: config.runs.task.name().to_string(),
        puzzles: done,
        disagreements: totals.disagreements,
        failures: totals.failures,
        refusals: totals.refusals,
    };
    summary.extend(format!("{line}\n").bytes());
    let rows = totals.rows(&config.runs.backends, config.runs.task);
    if let Err(e) = report::write_table(&rows, &mut summary) {
        eprintln!("sudoku-lab: error: {e}");
    }
    let summary = String::from_utf8_lossy(&summary);
    if config.json {
        eprint!("{summary}");
    } else {
        batch::write_stdout(summary.as_bytes());
    }
}
