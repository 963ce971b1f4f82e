//! `sudoku-lab bench`: times every selected backend on every puzzle of every file (one thread, so
//! figures compare), then prints a table and optionally writes CSV, JSON and an SVG plot.
//! Times include the independent check of each answer, as users see them. Each run gets a
//! metered [`Limits`] (unless `--no-effort`), so rows also carry the search effort the backends
//! report (the effort columns of [`report::RowRecord`]); a backend whose meter slows it
//! ([`Backend::meter_slows`](sudoku_lab::backend::Backend::meter_slows)) is timed unmetered and
//! run a second time, untimed, for its effort.

use std::fs::File;
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use sudoku_lab::backend::Limits;
use sudoku_lab::budget::Budget;
use sudoku_lab::report::{self, BenchRow, Outcome, PlotSeries};
use sudoku_lab::shard::Shard;
use sudoku_lab::task::{self, Answer, RunError};
use sudoku_lab::xcheck::error_outcome;

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
    let (backends, files) = (&config.runs.backends[..], &config.files[..]);
    let mut tally = Tally::default();
    let mut rows = Vec::new();
    for path in files {
        let mut items: Vec<Item> = Vec::new();
        batch::each_puzzle(
            std::slice::from_ref(path),
            &config.runs.read,
            config.runs.weights.as_ref(),
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
        let pb = progress_bar(items.len() * backends.len());
        let budget = Budget::new(config.runs.budget, backends.len());
        for (k, b) in backends.iter().enumerate() {
            let mut indexed = Vec::with_capacity(items.len());
            let started = Instant::now();
            for item in &items {
                pb.set_message(format!(
                    "{label}: {}{}",
                    b.name(),
                    eta(&budget, k, started.elapsed(), indexed.len(), items.len())
                ));
                let Some(grant) = budget.grant(k, config.runs.timeout) else {
                    break;
                };
                // Metered: each backend reports what its engine did (the effort columns).
                let task::Timed {
                    result,
                    time,
                    effort,
                } = task::time(
                    b.as_ref(),
                    &item.puzzle,
                    config.runs.task,
                    || grant.timeout.map_or(Limits::none(), Limits::timeout),
                    config.effort,
                );
                let timed_out = result.as_ref().is_err_and(RunError::timed_out);
                if !budget.spend(k, grant, time, timed_out) {
                    // The budget, not the puzzle, stopped this run: it is left out.
                    break;
                }
                let outcome = match &result {
                    // An optimum the deadline stopped before its proof is a time-out.
                    Ok(Answer::Optimum { proved: false, .. }) => {
                        tally.timed_out = true;
                        Outcome::TimedOut
                    }
                    // With a known answer, `agreed` counts the answers that match it.
                    Ok(answer) => match item.wrong_answer(b.name(), answer) {
                        None if item.expected.is_some() => Outcome::Agreed,
                        None => Outcome::Answered,
                        Some(wrong) => {
                            let msg =
                                format!("{}:{}:1: wrong answer: {wrong}\n", item.file, item.line);
                            pb.suspend(|| eprint!("{msg}"));
                            tally.failed = true;
                            Outcome::Disagreed
                        }
                    },
                    Err(e) => {
                        let msg = format!("{}:{}:1: {}: {e}\n", item.file, item.line, b.name());
                        pb.suspend(|| eprint!("{msg}"));
                        tally.record_error(e);
                        error_outcome(e)
                    }
                };
                indexed.push(report::Sample {
                    index: item.index,
                    outcome,
                    time_ns: u64::try_from(time.as_nanos()).unwrap_or(u64::MAX),
                    effort,
                });
                pb.inc(1);
            }
            let not_run = items.len() - indexed.len();
            pb.inc(not_run as u64);
            let mut row =
                BenchRow::from_indexed(&label, b.name(), config.runs.task.name(), &indexed);
            row.record.not_run = not_run;
            rows.push(row);
        }
        pb.finish_and_clear();
    }
    if let Err(e) = write_rows(&rows, &config.outputs, Vec::new()) {
        eprintln!("sudoku-lab: error: {e}");
        return ExitCode::from(1);
    }
    tally.exit_code()
}

/// The estimated time left for backend `k`, for the progress bar: the mean wall time of the
/// `done` puzzles it ran (`spent` in all, a second, counting run included) times the puzzles
/// left of `puzzles`, capped by what is left of its budget.
fn eta(budget: &Budget, k: usize, spent: Duration, done: usize, puzzles: usize) -> String {
    if done == 0 {
        return String::new();
    }
    let mean = spent / done as u32;
    let mut left = mean.saturating_mul((puzzles - done) as u32);
    if let Some(b) = budget.left(k) {
        left = left.min(b);
    }
    format!(
        ", about {} left",
        report::fmt_micros(left.as_micros() as f64)
    )
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
