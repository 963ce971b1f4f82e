//! `sudoku-lab fuzz --hostile`: mutated documents (f-puzzles JSON and links, puzzle objects)
//! through the reader and the backends, each under a watchdog ([`sudoku_lab::hostile`] does the
//! work). Unlike the generated cases, the run goes on past a fault: each distinct fault is
//! printed once with a replay command, the documents showing it are saved, and at the end the
//! first of each is shrunk and saved beside it.
//!
//! Exit codes: 1 some fault was found, 0 none, 2 bad options.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use sudoku_lab::hostile::{self, CaseOptions, CaseReport, Document, FaultKind, Seed};
use sudoku_lab::task::Task;

use super::fuzz::Config as FuzzConfig;
use super::UsageError;

/// The hostile-input mode's own flags; the rest (`--backends`, `--seconds`, `--puzzles`,
/// `--seed`, `--case`, `--jobs`, `--timeout`, `--shrink-trials`) are `fuzz`'s.
#[derive(Args, Debug, Clone, Default)]
pub struct HostileArgs {
    /// Fuzz the readers instead: mutated f-puzzles documents, f-puzzles links and puzzle
    /// objects (huge, negative and fractional numbers, cells outside the grid, repeated cells,
    /// wrong types, deep nesting, duplicate keys, unicode, text cut short), each read as `solve`
    /// reads a file and every puzzle read counted (to 20, or to --limit with --task count) by
    /// each of --backends, the document within --timeout (default 10 s). A fault is a panic, a
    /// hang, a wrong answer, or an input error without a message or a position. --puzzles
    /// counts documents; the run goes on past a fault.
    #[arg(long, help_heading = "Hostile input")]
    pub hostile: bool,
    /// With --hostile: save the documents that show a fault here, with a shrunk copy of the
    /// first of each fault (default: sudoku-lab-hostile-SEED in the temporary folder).
    #[arg(
        long,
        value_name = "DIR",
        requires = "hostile",
        help_heading = "Hostile input"
    )]
    save_dir: Option<PathBuf>,
}

/// Per-document deadline unless `--timeout` gives one.
const DEFAULT_CASE_SECONDS: u64 = 10;

/// Documents saved per distinct fault (the first is shrunk).
const SAVED_PER_FAULT: usize = 3;

/// Cases left hanging (their threads still run) before the run stops.
const MAX_HUNG: usize = 4;

impl HostileArgs {
    /// The hostile run, from `fuzz`'s resolved flags.
    pub fn resolve(self, fuzz: FuzzConfig) -> Result<Config, UsageError> {
        if !fuzz.run.shard.is_whole() {
            return Err(UsageError("--shard does not go with --hostile".into()));
        }
        let task = match fuzz.options.task {
            Task::Count { limit } => Task::Count { limit },
            _ => Task::Count {
                limit: hostile::HOSTILE_COUNT_LIMIT,
            },
        };
        let save_dir = self.save_dir.unwrap_or_else(|| {
            std::env::temp_dir().join(format!("sudoku-lab-hostile-{}", fuzz.run.seed))
        });
        let seeds = hostile::seeds(fuzz.reference.as_ref());
        let deadline = fuzz
            .options
            .timeout
            .unwrap_or(Duration::from_secs(DEFAULT_CASE_SECONDS));
        let replay = format!(
            "sudoku-lab fuzz --hostile --backends {} --seed {}{}",
            fuzz.names.join(","),
            fuzz.run.seed,
            fuzz.replay_flags
        );
        let case = CaseOptions {
            task,
            ..CaseOptions::new(Arc::new(fuzz.backends), deadline)
        };
        Ok(Config {
            case,
            seeds,
            seed: fuzz.run.seed,
            first: fuzz.run.first,
            cases: fuzz.run.cases,
            until: fuzz.run.deadline,
            jobs: fuzz.run.jobs,
            shrink_trials: fuzz.shrink_trials,
            save_dir,
            replay,
        })
    }
}

/// A hostile run, resolved.
pub struct Config {
    case: CaseOptions,
    seeds: Vec<Seed>,
    seed: u64,
    first: u64,
    cases: Option<u64>,
    until: Option<Instant>,
    jobs: usize,
    shrink_trials: usize,
    save_dir: PathBuf,
    /// The command without `--case` and `--puzzles`.
    replay: String,
}

/// One distinct fault ([`hostile::Fault::signature`]) and where it was seen.
struct Seen {
    kind: FaultKind,
    first: Document,
    cases: Vec<u64>,
    times: u64,
}

/// What the workers add up.
#[derive(Default)]
struct Totals {
    documents: AtomicU64,
    puzzles: AtomicU64,
    input_errors: AtomicU64,
    timeouts: AtomicU64,
    refusals: AtomicU64,
    hung: AtomicUsize,
    faults: Mutex<BTreeMap<String, Seen>>,
}

pub fn run(config: Config) -> ExitCode {
    hostile::record_panic_places();
    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let flag = interrupted.clone();
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    }
    let bar = bar(config.cases);
    let next = AtomicU64::new(0);
    let totals = Totals::default();
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..config.jobs {
            scope.spawn(|| {
                while let Some(i) = claim(&config, &next, &interrupted, &totals) {
                    let doc = hostile::mutate(&config.seeds, config.seed, i);
                    let report = hostile::run_case(&doc.text, i, &config.case);
                    tally(&config, &totals, &bar, doc, &report);
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let elapsed = started.elapsed().as_secs_f64().max(1e-9);
    let done = totals.documents.load(Ordering::SeqCst);
    let faults = totals
        .faults
        .into_inner()
        .unwrap_or_else(|p| p.into_inner());
    let mut by_kind: BTreeMap<FaultKind, u64> = FaultKind::ALL.iter().map(|&k| (k, 0)).collect();
    for seen in faults.values() {
        *by_kind.entry(seen.kind).or_default() += seen.times;
    }
    let kinds: Vec<String> = by_kind
        .iter()
        .map(|(k, n)| format!("{} {n}", k.name()))
        .collect();
    println!(
        "{done} documents (seed {}, from case {}), {:.0} documents/s: {} puzzles read, {} input \
         errors, {} answers timed out, {} refused; faults: {} ({} distinct)",
        config.seed,
        config.first,
        done as f64 / elapsed,
        totals.puzzles.load(Ordering::SeqCst),
        totals.input_errors.load(Ordering::SeqCst),
        totals.timeouts.load(Ordering::SeqCst),
        totals.refusals.load(Ordering::SeqCst),
        kinds.join(", "),
        faults.len(),
    );
    let hung = totals.hung.load(Ordering::SeqCst);
    if hung >= MAX_HUNG {
        println!("stopped after {hung} hung cases (their threads are still running)");
    }
    for (signature, seen) in &faults {
        shrink_and_save(&config, signature, seen);
    }
    if faults.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The next case, or `None` once the budget is spent, the run is interrupted or too many cases
/// hang.
fn claim(config: &Config, next: &AtomicU64, stop: &AtomicBool, totals: &Totals) -> Option<u64> {
    let i = config
        .first
        .saturating_add(next.fetch_add(1, Ordering::SeqCst));
    let spent = config.cases.is_some_and(|m| i - config.first >= m)
        || config.until.is_some_and(|d| Instant::now() >= d);
    let stopped = stop.load(Ordering::SeqCst) || totals.hung.load(Ordering::SeqCst) >= MAX_HUNG;
    (!spent && !stopped).then_some(i)
}

/// Adds a case's report to the totals; prints and saves a fault seen for the first time.
fn tally(config: &Config, totals: &Totals, bar: &ProgressBar, doc: Document, report: &CaseReport) {
    for (total, n) in [
        (&totals.documents, 1),
        (&totals.puzzles, report.puzzles),
        (&totals.input_errors, report.input_errors),
        (&totals.timeouts, report.timeouts),
        (&totals.refusals, report.refusals),
    ] {
        total.fetch_add(n as u64, Ordering::Relaxed);
    }
    if report.faults.iter().any(|f| f.kind == FaultKind::Hang) {
        totals.hung.fetch_add(1, Ordering::SeqCst);
    }
    if report.faults.is_empty() {
        return;
    }
    let mut seen = totals.faults.lock().unwrap_or_else(|p| p.into_inner());
    for fault in &report.faults {
        let entry = seen.entry(fault.signature()).or_insert_with(|| Seen {
            kind: fault.kind,
            first: doc.clone(),
            cases: vec![],
            times: 0,
        });
        entry.times += 1;
        if entry.cases.last() == Some(&doc.case) || entry.cases.len() >= SAVED_PER_FAULT {
            continue;
        }
        entry.cases.push(doc.case);
        let saved = save(&config.save_dir, &format!("case-{}", doc.case), &doc);
        let first = entry.cases.len() == 1;
        bar.suspend(|| {
            if first {
                println!("{}", describe(config, &doc, fault));
            }
            match saved {
                Ok(path) => println!("  saved: {}", path.display()),
                Err(e) => eprintln!("sudoku-lab: error: {e}"),
            }
        });
    }
    bar.set_message(format!("{} distinct faults", seen.len()));
}

/// The fault, the document's origin and the replay command.
fn describe(config: &Config, doc: &Document, fault: &hostile::Fault) -> String {
    format!(
        "{} in case {} ({} from seed document {:?}; {}):\n  {}\n  replay: {} --case {} --puzzles 1",
        fault.kind.name(),
        doc.case,
        doc.form.name(),
        doc.seed,
        doc.mutations.join("; "),
        fault.what,
        config.replay,
        doc.case
    )
}

/// Writes the document's text as `DIR/NAME.json` (`.txt` for a link).
fn save(dir: &Path, name: &str, doc: &Document) -> Result<PathBuf, String> {
    let path = dir.join(format!("{name}.{}", doc.extension()));
    std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&path, &doc.text))
        .map_err(|e| format!("cannot save {}: {e}", path.display()))?;
    Ok(path)
}

/// Shrinks the first document of a distinct fault (not a hang: each trial could take the whole
/// grace) and saves the result beside it.
fn shrink_and_save(config: &Config, signature: &str, seen: &Seen) {
    println!(
        "{signature}\n  {} times, first in case {}",
        seen.times, seen.first.case
    );
    if seen.kind == FaultKind::Hang || config.shrink_trials == 0 {
        return;
    }
    let case = seen.first.case;
    let shrunk = hostile::shrink(&seen.first.text, config.shrink_trials, |text| {
        hostile::run_case(text, case, &config.case)
            .faults
            .iter()
            .any(|f| f.signature() == signature)
    });
    let doc = Document {
        text: shrunk.text,
        ..seen.first.clone()
    };
    match save(&config.save_dir, &format!("case-{case}-min"), &doc) {
        Ok(path) => println!(
            "  shrunk in {} trials to {} bytes: {}",
            shrunk.trials,
            doc.text.len(),
            path.display()
        ),
        Err(e) => eprintln!("sudoku-lab: error: {e}"),
    }
}

/// Documents done, per second, and the distinct faults so far, on standard error when it is a
/// terminal.
fn bar(documents: Option<u64>) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let (bar, template) = match documents {
        Some(m) => (
            ProgressBar::new(m),
            "{wide_bar} {pos}/{len} documents {per_sec} {msg} [{elapsed_precise}]",
        ),
        None => (
            ProgressBar::new_spinner(),
            "{spinner} {pos} documents {per_sec} {msg} [{elapsed_precise}]",
        ),
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}
