//! `sudoku-lab xcheck`: every puzzle through every selected backend, in parallel over puzzles,
//! with a row for each disagreement or failure and a per-backend summary at the end.
//!
//! Exit codes: 1 on any disagreement or checker/solver failure, else 2 if some input was bad or
//! some backend refused a puzzle (it cannot take that size or task), else 3 if some backend timed
//! out, else 0. Refusals and time-outs are not failures: the backends that answered are compared.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use clap::Args;
use rayon::prelude::*;
use serde::Serialize;

use sudoku_lab::backend::Backend;
use sudoku_lab::format::ReadOptions;
use sudoku_lab::model::Puzzle;
use sudoku_lab::report::{self, BenchRow, Outcome};
use sudoku_lab::shard::Shard;
use sudoku_lab::task::Task;
use sudoku_lab::weights::WeightSource;
use sudoku_lab::xcheck::{self, BackendRun, Verdict};

use super::args::{jobs_arg, seconds_arg, InputArgs, TaskArg, TaskOptions};
use super::batch::{self, Item, Tally};
use super::engine::EngineArgs;
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
        let backends = self.engine.create_all(&self.backends)?;
        let (task, weights) = self.task_options.resolve(self.task)?;
        Ok(Config {
            backends,
            task,
            read: self.input.read_options(),
            weights,
            timeout: self.engine.timeout()?,
            budget: seconds_arg("--budget", self.budget)?,
            jobs: jobs_arg(self.jobs)?,
            json: self.json,
            shard: self.shard,
            files: self.files,
            pictures: self.pictures.resolve()?,
        })
    }
}

/// What the cross-check was asked for, resolved from the flags.
pub struct Config {
    pub backends: Vec<Box<dyn Backend>>,
    pub task: Task,
    pub read: ReadOptions,
    pub weights: Option<WeightSource>,
    pub timeout: Option<Duration>,
    /// Each backend's time over the run: once used, it checks no more puzzles.
    pub budget: Option<Duration>,
    pub jobs: usize,
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
    line: usize,
    task: &'a str,
    /// agreed | disagreement | failure
    verdict: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<&'a str>,
    results: Vec<JsonResult<'a>>,
}

/// Each backend's time budget over the run (`--budget`), shared by the workers. With several
/// jobs, puzzles already started when a budget runs out still finish.
struct Budget {
    limit: Duration,
    /// Nanoseconds used, per backend.
    used: Vec<AtomicU64>,
}

impl Budget {
    fn new(limit: Duration, backends: usize) -> Budget {
        Budget {
            limit,
            used: (0..backends).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Runs the backends with budget left on `puzzle`, each with its own `timeout` or what is
    /// left of its budget when that is less. A run stopped by the budget's deadline is left out,
    /// like the puzzles after it. Returns the indices of the backends that ran, and their runs.
    fn run(
        &self,
        backends: &[Box<dyn Backend>],
        puzzle: &Puzzle,
        task: Task,
        timeout: Option<Duration>,
    ) -> (Vec<usize>, Vec<BackendRun>) {
        backends
            .iter()
            .enumerate()
            .filter_map(|(k, b)| {
                let used = Duration::from_nanos(self.used[k].load(Ordering::SeqCst));
                let left = self.limit.checked_sub(used).filter(|l| !l.is_zero())?;
                let by_budget = timeout.is_none_or(|t| left < t);
                let limit = if by_budget { Some(left) } else { timeout };
                let run = xcheck::run_one(b.as_ref(), puzzle, task, limit, None);
                let ns = u64::try_from(run.time.as_nanos()).unwrap_or(u64::MAX);
                self.used[k].fetch_add(ns, Ordering::SeqCst);
                (!(by_budget && run.timed_out())).then_some((k, run))
            })
            .unzip()
    }
}

pub fn run(config: &Config) -> ExitCode {
    let (backends, files) = (&config.backends[..], &config.files[..]);
    let mut tally = Tally::default();
    let mut items: Vec<Item> = Vec::new();
    batch::each_puzzle(
        files,
        &config.read,
        config.weights.as_ref(),
        &mut tally,
        |it| items.push(it),
    );
    items.retain(|it| config.shard.takes(it.index as u64 - 1));

    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let flag = interrupted.clone();
        // A second Ctrl-C while finishing in-flight puzzles is not worth a failure: ignore errors.
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    }
    let progress = super::bench::progress_bar(items.len());

    // Per backend, in the order given: how each puzzle ended and how long it took.
    let mut samples: Vec<Vec<(Outcome, Duration)>> = vec![Vec::new(); backends.len()];
    let (mut disagreements, mut failures, mut refusals) = (0usize, 0usize, 0usize);
    let mut checked = 0usize;
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
    let budget = config
        .budget
        .map(|limit| Budget::new(limit, backends.len()));
    // Per puzzle: its number, the backends that ran (their indices, and their runs), the verdict.
    let (tx, rx) = mpsc::channel::<(usize, Vec<usize>, Vec<BackendRun>, Verdict)>();
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
                        let (which, runs) = match &budget {
                            Some(b) => b.run(backends, &item.puzzle, config.task, config.timeout),
                            None => {
                                let runs = xcheck::run_all(
                                    backends,
                                    &item.puzzle,
                                    config.task,
                                    config.timeout,
                                    None,
                                );
                                ((0..runs.len()).collect(), runs)
                            }
                        };
                        let verdict = xcheck::verdict(config.task, &runs, item.expected.as_ref());
                        let _ = tx.send((i, which, runs, verdict));
                    });
            })
        });
        for (i, which, runs, verdict) in rx {
            let item = &items[i];
            checked += 1;
            for (&k, r) in which.iter().zip(&runs) {
                let outcome = match &r.result {
                    Err(e) => batch::error_outcome(e),
                    Ok(_) if verdict == Verdict::Agreed => Outcome::Agreed,
                    Ok(_) => Outcome::Disagreed,
                };
                samples[k].push((outcome, r.time));
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
            let at = format!("puzzle {} ({}:{})", item.index, item.file, item.line);
            let picture = config.pictures.as_deref().zip(detail).and_then(|(dir, d)| {
                let title = format!("{word}: {at}: {d}");
                fault_picture(dir, item.index as u64, &item.puzzle, &verdict, title)
            });
            if runs.iter().any(BackendRun::timed_out) {
                tally.timed_out = true;
            }
            let refused = runs.iter().filter(|r| r.refused()).count();
            if refused > 0 {
                refusals += refused;
                tally.bad_input = true;
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
                let mut line = serde_json::to_string(&rec).expect("records serialise");
                line.push('\n');
                progress.suspend(|| batch::write_stdout(line.as_bytes()));
            } else {
                let mut rows = String::new();
                if let Some(d) = detail {
                    rows.push_str(&format!("{word}: {at}: {d}\n"));
                }
                if let Some(path) = &picture {
                    rows.push_str(&format!("picture: {}\n", path.display()));
                }
                for r in runs.iter().filter(|r| r.refused()) {
                    if let Err(e) = &r.result {
                        rows.push_str(&format!("refused: {at}: {}: {e}\n", r.backend));
                    }
                }
                if !rows.is_empty() {
                    progress.suspend(|| batch::write_stdout(rows.as_bytes()));
                }
            }
            progress.inc(1);
        }
    });
    progress.finish_and_clear();

    let done = checked;
    let mut summary = Vec::new();
    if interrupted.load(Ordering::SeqCst) {
        summary.extend(format!("interrupted: {done} of {} puzzles checked\n", items.len()).bytes());
    }
    summary.extend(
        format!(
            "{done} puzzles, task {}: {disagreements} disagreements, {failures} failures, \
             {refusals} refusals\n",
            config.task.name()
        )
        .bytes(),
    );
    let rows: Vec<BenchRow> = backends
        .iter()
        .zip(&samples)
        .map(|(b, s)| BenchRow {
            not_run: done - s.len(),
            ..BenchRow::from_samples("all", b.name(), config.task.name(), s)
        })
        .collect();
    if let Err(e) = report::write_table(&rows, &mut summary) {
        eprintln!("sudoku-lab: error: {e}");
    }
    let summary = String::from_utf8_lossy(&summary);
    if config.json {
        eprint!("{summary}");
    } else {
        batch::write_stdout(summary.as_bytes());
    }
    if disagreements > 0 || failures > 0 {
        return ExitCode::from(1);
    }
    if done < items.len() {
        // Stopped by Ctrl-C: not everything was checked (128 + SIGINT, as shells report it).
        return ExitCode::from(130);
    }
    tally.exit_code()
}
