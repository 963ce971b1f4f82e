//! `sudoku-lab bench`: times every selected backend on every puzzle of every file with the
//! library's loop ([`sudoku_lab::bench::run`]: one thread, so figures compare; times include the
//! independent check; each run metered unless `--no-effort`, for the effort columns of
//! [`report::RowRecord`]), then prints a table and optionally writes CSV, JSON and an SVG plot.
//! This module reads the files, shows the progress and the errors, and writes the rows.

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use sudoku_lab::bench::{self, Bench, Case, Progress};
use sudoku_lab::report::{self, BenchRow, Outcome, PlotSeries};
use sudoku_lab::shard::Shard;

use super::args::{InputArgs, TaskArg, TaskOptions};
use super::batch::{self, Item, Tally};
use super::engine::{EngineArgs, Runs};
use super::output::{to_stdout, Output};
use super::UsageError;

/// Time backends on puzzle files: puzzles/s and µs per puzzle (median, p90, max), with
/// optional CSV, JSON and an SVG plot of the time distributions (one panel per file).
///
/// Runs on one thread so figures compare; times include the independent check.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Puzzle files (each becomes one panel / group of rows).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Comma-separated backends to time (default: all compiled in).
    #[arg(long, value_delimiter = ',')]
    backends: Vec<String>,
    /// The task to time (`unique` = solve with uniqueness check).
    #[arg(long, value_enum, default_value_t = TaskArg::Unique)]
    task: TaskArg,
    #[command(flatten)]
    task_options: TaskOptions,
    /// Time only the first N puzzles of each file.
    #[arg(long, value_name = "N")]
    max_puzzles: Option<usize>,
    /// Each backend's time on each file: once it has used this many seconds, it runs no more
    /// puzzles of the file, and its row (marked cut short) covers the puzzles it ran.
    #[arg(long, value_name = "SECONDS")]
    budget: Option<f64>,
    #[command(flatten)]
    outputs: TableOutputs,
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    engine: EngineArgs,
    /// Do shard K of N of the job: the puzzles of each file (after --max-puzzles) i (from 0) with i mod N = K − 1. The N
    /// shards together do exactly one run's work (see docs/campaigns.md).
    #[arg(long, value_name = "K/N", default_value = "1/1")]
    shard: Shard,
    /// Leave the effort columns empty. Reading the counters is free for most backends; `sat`
    /// counts its conflicts through the proof varisat then writes, which adds half or more to
    /// its time on Killers, so each of its puzzles is timed without the meter and run again,
    /// untimed, to count (docs/benchmarks.md, "Effort counters"): this flag saves that second
    /// run.
    #[arg(long)]
    no_effort: bool,
}

impl BenchArgs {
    pub fn resolve(self) -> Result<Config, UsageError> {
        let task = (self.task, &self.task_options);
        self.engine.no_proofs("bench")?;
        let runs = Runs::resolve(&self.engine, &self.backends, task, &self.input, self.budget)?;
        Ok(Config {
            runs,
            outputs: self.outputs.resolve()?,
            max_puzzles: self.max_puzzles,
            shard: self.shard,
            effort: !self.no_effort,
            files: self.files,
        })
    }
}

/// Where `bench` and `report` also write their rows.
#[derive(Args, Debug, Default)]
pub struct TableOutputs {
    /// Also write the rows as CSV to this file (`-`: standard output, instead of the table).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Also write the rows, with every puzzle's time, as JSON to this file (`report` merges
    /// them; `-`: standard output, instead of the table).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Draw the time distributions (log scale, one panel per file) to this SVG file (`-`:
    /// standard output, instead of the table).
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
}

impl TableOutputs {
    /// The outputs, each checked to be writable before any work starts; one at most may be
    /// standard output.
    pub fn resolve(self) -> Result<Outputs, UsageError> {
        let outputs = Outputs {
            csv: Output::resolve_opt(self.csv, "--csv")?,
            json: Output::resolve_opt(self.json, "--json")?,
            plot: Output::resolve_opt(self.plot, "--plot")?,
        };
        to_stdout([&outputs.csv, &outputs.json, &outputs.plot])?;
        Ok(outputs)
    }
}

/// What the benchmark was asked for, resolved from the flags.
pub struct Config {
    /// The backends, the task and the limits; the budget is each backend's on each file.
    pub runs: Runs,
    /// Time at most this many puzzles of each file (the first ones).
    pub max_puzzles: Option<usize>,
    pub outputs: Outputs,
    /// Time only this share of the puzzles of each file.
    pub shard: Shard,
    pub files: Vec<PathBuf>,
    /// Give each run a meter, for the effort columns.
    pub effort: bool,
}

/// Where the rows go besides the table on standard output (or instead of it, for the one that
/// is standard output).
pub struct Outputs {
    pub csv: Option<Output>,
    pub json: Option<Output>,
    pub plot: Option<Output>,
}

/// A progress bar on standard error when it is a terminal, hidden otherwise.
pub fn progress_bar(len: usize) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}  {elapsed} (eta {eta})")
    {
        pb.set_style(style);
    }
    pb
}

pub fn run(config: &Config) -> ExitCode {
    let runs = &config.runs;
    let bench = Bench {
        backends: &runs.backends,
        task: runs.task,
        timeout: runs.timeout,
        budget: runs.budget,
        effort: config.effort,
        cancel: None,
    };
    let mut tally = Tally::default();
    let mut rows = Vec::new();
    for path in &config.files {
        let mut items: Vec<Item> = Vec::new();
        batch::each_puzzle(
            std::slice::from_ref(path),
            &runs.read,
            runs.weights.as_ref(),
            &mut tally,
            |it| items.push(it),
        );
        // A file that gives no puzzle (unreadable, empty, every puzzle bad: said above) has no
        // rows, as it has none in the other commands.
        if items.is_empty() {
            continue;
        }
        if let Some(max) = config.max_puzzles {
            items.truncate(max);
        }
        items.retain(|it| config.shard.takes(it.index as u64 - 1));
        let label = batch::file_label(path);
        let cases: Vec<Case> = items
            .iter()
            .map(|it| Case {
                index: it.index,
                puzzle: &it.puzzle,
                expected: it.expected.as_ref(),
            })
            .collect();
        let pb = progress_bar(items.len() * runs.backends.len());
        let file_rows = bench::run(&bench, &label, &cases, |p| match p {
            Progress::Next { backend, left } => {
                let left = left.map_or_else(String::new, |l| {
                    format!(", about {} left", report::fmt_micros(l.as_micros() as f64))
                });
                pb.set_message(format!("{label}: {backend}{left}"));
            }
            Progress::Ran {
                case,
                backend,
                result,
                outcome,
                wrong,
            } => {
                let it = items.binary_search_by_key(&case.index, |it| it.index);
                let at = it.map_or_else(
                    |_| String::new(),
                    |i| format!("{}:{}:1: ", items[i].file, items[i].line),
                );
                let msg = match (result, wrong) {
                    (Err(e), _) => {
                        tally.record_error(e);
                        Some(format!("{at}{backend}: {e}\n"))
                    }
                    (Ok(_), Some(wrong)) => {
                        tally.failed = true;
                        Some(format!("{at}wrong answer: {wrong}\n"))
                    }
                    // An optimum the deadline stopped before its proof is a time-out.
                    (Ok(_), None) => {
                        tally.timed_out |= outcome == Outcome::TimedOut;
                        None
                    }
                };
                if let Some(msg) = msg {
                    pb.suspend(|| eprint!("{msg}"));
                }
                pb.inc(1);
            }
            Progress::Cut { not_run, .. } => pb.inc(not_run as u64),
        });
        rows.extend(file_rows);
        pb.finish_and_clear();
    }
    if let Err(e) = write_rows(&rows, &config.outputs, Vec::new()) {
        eprintln!("sudoku-lab: error: {e}");
        return ExitCode::from(1);
    }
    tally.exit_code()
}

/// The table (after `head`) on standard output, unless one of `outputs` goes there, and the
/// files of `outputs`; an error names the option and the file it could not write.
pub fn write_rows(rows: &[BenchRow], outputs: &Outputs, mut out: Vec<u8>) -> Result<(), String> {
    let outs = [&outputs.csv, &outputs.json, &outputs.plot];
    if !outs
        .iter()
        .any(|o| o.as_ref().is_some_and(Output::is_stdout))
    {
        report::write_table(rows, &mut out).map_err(|e| format!("cannot write the table: {e}"))?;
        batch::write_stdout(&out);
    }
    write_to(&outputs.csv, || {
        let mut csv = Vec::new();
        report::write_csv(rows, &mut csv).map(|()| csv)
    })?;
    write_to(&outputs.json, || {
        let mut json = Vec::new();
        report::write_json(rows, &mut json).map(|()| json)
    })?;
    if rows.is_empty() {
        return Ok(());
    }
    write_to(&outputs.plot, || {
        let series: Vec<PlotSeries> = rows
            .iter()
            .map(|r| {
                let (file, backend) = (&r.record.file, &r.record.backend);
                let effort = r.record.guesses_per_puzzle.zip(r.record.no_guess_pct);
                PlotSeries {
                    effort,
                    ..PlotSeries::from_samples(file, backend, &r.timed())
                }
            })
            .collect();
        let title = format!("{}: time per puzzle", rows[0].record.task);
        report::plot_svg_text(&series, &title).map(String::into_bytes)
    })
}

/// Makes the text of `output`, when it is asked for, and writes it.
fn write_to(
    output: &Option<Output>,
    text: impl FnOnce() -> Result<Vec<u8>, report::ReportError>,
) -> Result<(), String> {
    let Some(output) = output else {
        return Ok(());
    };
    let bytes = text().map_err(|e| format!("{output}: cannot write: {e}"))?;
    output.write(&bytes)
}
