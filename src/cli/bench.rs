//! `sudoku-lab bench`: times every selected backend on every puzzle of every file with the
//! library's loop ([`sudoku_lab::bench::run`]: one thread, so figures compare; times include the
//! independent check; each run metered unless `--no-effort`, for the effort columns of
//! [`report::RowRecord`]), then prints a table and optionally writes CSV, JSON and an SVG plot.
//! This module reads the files, shows the progress and the errors, and writes the rows.

use std::fs::File;
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use sudoku_lab::bench::{self, Bench, Case, Progress};
use sudoku_lab::report::{self, BenchRow, Outcome, PlotSeries};
use sudoku_lab::shard::Shard;

use super::args::{writable, InputArgs, TaskArg, TaskOptions};
use super::batch::{self, Item, Tally};
use super::engine::{EngineArgs, Runs};
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
    /// Also write the rows as CSV to this file.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Also write the rows, with every puzzle's time, as JSON to this file (`report` merges them).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Draw the time distributions (log scale, one panel per file) to this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
}

impl TableOutputs {
    /// The outputs, each checked to be writable before any work starts.
    pub fn resolve(self) -> Result<Outputs, UsageError> {
        for (path, flag) in [
            (&self.csv, "--csv"),
            (&self.json, "--json"),
            (&self.plot, "--plot"),
        ] {
            if let Some(p) = path {
                writable(p, flag)?;
            }
        }
        Ok(Outputs {
            csv: self.csv,
            json: self.json,
            plot: self.plot,
        })
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

/// Where the rows go besides the table on standard output.
pub struct Outputs {
    pub csv: Option<PathBuf>,
    pub json: Option<PathBuf>,
    pub plot: Option<PathBuf>,
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
        if let Some(max) = config.max_puzzles {
            items.truncate(max);
        }
        items.retain(|it| config.shard.takes(it.index as u64 - 1));
        let label = Path::new(path).file_name().map_or_else(
            || path.display().to_string(),
            |f| f.to_string_lossy().into_owned(),
        );
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

/// The table (after `head`) on standard output, and the files of `outputs`; an error names the
/// file it could not write.
pub fn write_rows(rows: &[BenchRow], outputs: &Outputs, mut out: Vec<u8>) -> Result<(), String> {
    let written = report::write_table(rows, &mut out)
        .map_err(|e| format!("cannot write the table: {e}"))
        .and_then(|_| write_to(&outputs.csv, |f| report::write_csv(rows, f)))
        .and_then(|_| write_to(&outputs.json, |f| report::write_json(rows, f)))
        .and_then(|_| match &outputs.plot {
            Some(p) if !rows.is_empty() => {
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
                report::plot_svg(&series, p, &title)
                    .map_err(|e| format!("{}: cannot write: {e}", p.display()))
            }
            _ => Ok(()),
        });
    batch::write_stdout(&out);
    written
}

fn write_to(
    path: &Option<PathBuf>,
    write: impl FnOnce(File) -> Result<(), report::ReportError>,
) -> Result<(), String> {
    match path {
        Some(p) => File::create(p)
            .map_err(report::ReportError::from)
            .and_then(write)
            .map_err(|e| format!("{}: cannot write: {e}", p.display())),
        None => Ok(()),
    }
}
