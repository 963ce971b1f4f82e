//! `sudoku-lab fuzz`: parses the flags, runs [`fuzz::search`] (generated cases through several
//! backends on worker threads until the first fault), prints what it did, and shrinks and reports
//! the fault with a regression line.
//!
//! Exit codes: 1 a fault was found, 0 the budget or the wall (`--seconds`) ran out without one
//! (time-outs and refusals are counted, not faults), 2 bad options or a case that could not be
//! made.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use sudoku_lab::backend::Backend;
use sudoku_lab::backends::BackendKind;
use sudoku_lab::counted::counted;
use sudoku_lab::format;
use sudoku_lab::fuzz::hostile::campaign::Campaign;
use sudoku_lab::fuzz::hostile::{self, CaseOptions};
use sudoku_lab::fuzz::{
    self, Fault, FuzzOptions, Outcome, Run, Shrinker, Signature, StepTally, Stop,
    DEFAULT_SHRINK_TRIALS,
};
use sudoku_lab::logic::Ladder;
use sudoku_lab::model::{Puzzle, Regions};
use sudoku_lab::shard::Shard;
use sudoku_lab::task::{Task, DEFAULT_COUNT_LIMIT};
use sudoku_lab::xcheck::{BackendRun, Verdict};

use super::args::{jobs_arg, quote, Seed, SpecArgs, TaskArg, WeightsArg};
use super::engine::EngineArgs;
use super::fuzz_inputs::Config as HostileConfig;
use super::output::file_only;
use super::render::{fault_picture, PicturesArg};
use super::UsageError;

/// Generate random puzzles and cross-check backends on them until two disagree or an answer
/// fails the checker; then shrink the puzzle and print it with a regression line.
///
/// Case I of seed S is generated from its own seed, so `--seed S --case I --puzzles 1` replays
/// it. Cases mix unique, random, sparse, clashing and altered puzzles of the asked shape.
/// The fault reported is always the lowest case number, whatever --jobs. Shrinking drops
/// givens (delta debugging), lowers given values, drops cages (`--killer`), then drops
/// diagonals and jigsaw regions where the fault allows, keeping a cut only while the same
/// backends disagree the same way.
/// A case whose grid cannot be drawn (its random regions and rules within the generator's
/// search budget), like one whose uniqueness check times out, is left out and named, and the
/// run goes on.
/// Exit 1 when a fault was found, 0 when the budget ran out without one, 2 when most cases
/// could not be drawn (a shape with no full grid, such as side 2 with diagonals) or a case could
/// not be generated for another reason.
#[derive(Args, Debug)]
pub struct FuzzArgs {
    /// Comma-separated backends to compare (at least one; the checker judges each answer).
    #[arg(long, value_delimiter = ',', required = true)]
    backends: Vec<String>,
    #[command(flatten)]
    spec: SpecArgs,
    /// The task every backend answers.
    #[arg(long, value_enum, default_value_t = TaskArg::Unique)]
    task: TaskArg,
    /// Count limit for `--task count`.
    #[arg(long, default_value_t = DEFAULT_COUNT_LIMIT, value_parser = clap::value_parser!(u64).range(1..))]
    limit: u64,
    /// Weights for `--task optimize`: `random` (new ones per case, in -20..=50), `pyramid`,
    /// or a file of n rows of n integers.
    #[arg(long, default_value = "random", value_name = "random|pyramid|FILE",
          value_parser = WeightsArg::random_pyramid_or_file)]
    weights: WeightsArg,
    /// Stop after this many seconds (default 60, unless --puzzles is given).
    #[arg(long, value_name = "S")]
    seconds: Option<f64>,
    /// Stop after this many cases (puzzles).
    #[arg(long, value_name = "M")]
    puzzles: Option<u64>,
    /// Seed of the run (default: from the clock, printed so that the run can be replayed).
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Start at this case number (with `--puzzles 1`: replay one case).
    #[arg(long, value_name = "I", default_value_t = 0)]
    case: u64,
    /// Cases checked in parallel (default: all cores).
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Shrinking trials at most (each runs every backend once); 0 reports the fault unshrunk.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SHRINK_TRIALS)]
    shrink_trials: usize,
    /// Append the regression line (`puzzle:count[:solution]`) to this file.
    #[arg(long, value_name = "FILE")]
    regressions: Option<PathBuf>,
    /// With `logic` among --backends: the techniques of the ladder whose path the step check
    /// holds against each case's solution, as `explain --techniques` takes them (technique or
    /// family keys, comma-separated; `default`, the ladder used without this flag; `all`, every
    /// technique, the Franken fish too).
    #[arg(long, value_name = "LIST")]
    techniques: Option<String>,
    #[command(flatten)]
    engine: EngineArgs,
    /// Do shard K of N of the job: the cases (counted from --case) i (from 0) with i mod N = K − 1. The N
    /// shards together do exactly one run's work (see docs/campaigns.md).
    #[arg(long, value_name = "K/N", default_value = "1/1")]
    shard: Shard,
    #[command(flatten)]
    pictures: PicturesArg,
    #[command(flatten)]
    pub(super) hostile: HostileArgs,
}

impl FuzzArgs {
    pub fn resolve(self) -> Result<Config, UsageError> {
        let spec = self.spec.resolve()?;
        let task = self.task.with_limit(self.limit);
        let logic = (self.backends.iter()).any(|b| matches!(b.parse(), Ok(BackendKind::Logic)));
        if self.techniques.is_some() && !logic {
            return Err(UsageError(
                "--techniques sets the ladder of the logic step check, which runs only with the \
                 logic backend among --backends (for example --backends logic,dfs)"
                    .into(),
            ));
        }
        let check_steps = match &self.techniques {
            Some(list) => {
                Some(Ladder::parse(list).map_err(|e| UsageError(format!("--techniques: {e}")))?)
            }
            None => logic.then(Ladder::default),
        };
        let options = FuzzOptions {
            task,
            check_steps,
            timeout: self.engine.timeout()?,
            weights: self.weights.resolve()?,
            ..FuzzOptions::of(spec)
        };
        let deadline = match (self.seconds, self.puzzles) {
            (Some(s), _) if !(s.is_finite() && s > 0.0 && s < 1e9) => {
                return Err(UsageError(format!(
                    "--seconds must be a positive number, not {s}"
                )))
            }
            (Some(s), _) => Some(Instant::now() + Duration::from_secs_f64(s)),
            (None, Some(_)) => None,
            (None, None) => Some(Instant::now() + Duration::from_secs(60)),
        };
        if self.puzzles == Some(0) {
            return Err(UsageError("--puzzles takes 1 or more cases, not 0".into()));
        }
        if self.case.checked_add(self.puzzles.unwrap_or(1)).is_none() {
            return Err(UsageError(format!(
                "--case {}: the cases asked for go past the last case number, {}",
                self.case,
                u64::MAX
            )));
        }
        self.engine.no_proofs("fuzz")?;
        let backends = self.engine.create_all(&self.backends)?;
        let reference = self.engine.create(BackendKind::Dfs)?;
        options
            .validate(reference.as_ref())
            .map_err(|e| UsageError(e.to_string()))?;
        let seed = Seed::resolve(self.seed);
        let mut replay = format!(" --task {}", task.name());
        if let Task::Count { limit } = task {
            replay.push_str(&format!(" --limit {limit}"));
        }
        // The regression line holds the regions and cages: of the shape, only the diagonals
        // are to be said again.
        if options.spec.diagonals {
            replay.push_str(" --diagonals");
        }
        if task == Task::Optimize && self.weights != WeightsArg::Random {
            replay.push_str(&format!(" --weights {}", quote(&self.weights.to_string())));
        }
        replay.push_str(&self.engine.replay_flags());
        if let Some(p) = &self.regressions {
            file_only(p, "--regressions", "the regression line is printed anyway")?;
        }
        Ok(Config {
            options,
            backends,
            reference,
            names: self.backends,
            seed,
            run: Run {
                seed: seed.value,
                first: self.case,
                cases: self.puzzles,
                deadline,
                jobs: jobs_arg(self.jobs)?,
                shard: self.shard,
            },
            shrink_trials: self.shrink_trials,
            regressions: self.regressions,
            replay_flags: replay,
            techniques: self.techniques,
            pictures: self.pictures.resolve()?,
        })
    }
}

/// What the run was asked for, resolved from the flags.
pub struct Config {
    pub options: FuzzOptions,
    pub backends: Vec<Box<dyn Backend>>,
    /// Decides uniqueness when making cases, and counts the regression puzzle's solutions when
    /// no backend is trusted to (`dfs`).
    pub reference: Box<dyn Backend>,
    /// The backend names as given (for the replay command).
    pub names: Vec<String>,
    /// The cases to run and the bounds (`--seed`, `--case`, `--puzzles`, `--seconds`, `--jobs`,
    /// `--shard`).
    pub run: Run,
    /// The seed of `run`, said on standard error when it came from the clock.
    pub seed: Seed,
    /// Shrinking trials; 0 reports the fault as found.
    pub shrink_trials: usize,
    /// Append the regression line to this file.
    pub regressions: Option<PathBuf>,
    /// Flags to repeat in the replay command (task, limit, diagonals, weights, engine options).
    pub replay_flags: String,
    /// `--techniques` as given: the step check's ladder, repeated in the replay of a wrong step.
    pub techniques: Option<String>,
    /// Draw the fault's puzzle (as shrunk) into this folder.
    pub pictures: Option<PathBuf>,
}

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

impl HostileArgs {
    /// The hostile run, from `fuzz`'s resolved flags.
    pub fn resolve(self, fuzz: Config) -> Result<HostileConfig, UsageError> {
        if !fuzz.run.shard.is_whole() {
            return Err(UsageError("--shard does not go with --hostile".into()));
        }
        if fuzz.techniques.is_some() {
            return Err(UsageError(
                "--techniques does not go with --hostile: it sets the ladder of the logic step \
                 check of generated cases"
                    .into(),
            ));
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
        // Every option is checked: the seed line is the first output.
        fuzz.seed.announce();
        let case = CaseOptions {
            task,
            ..CaseOptions::new(Arc::new(fuzz.backends), deadline)
        };
        let campaign = Campaign {
            case,
            seeds,
            seed: fuzz.run.seed,
            first: fuzz.run.first,
            cases: fuzz.run.cases,
            until: fuzz.run.deadline,
            jobs: fuzz.run.jobs,
            shrink_trials: fuzz.shrink_trials,
        };
        Ok(HostileConfig {
            campaign,
            save_dir,
            replay,
        })
    }
}

pub fn run(config: &Config) -> ExitCode {
    config.seed.announce();
    let (backends, reference) = (&config.backends[..], config.reference.as_ref());
    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let flag = interrupted.clone();
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    }
    let (k, n) = (config.run.shard.k(), config.run.shard.n());
    let progress = progress_bar(config.run.cases.map(|m| (m + n - k) / n));
    let outcome = fuzz::search(
        &config.options,
        &config.run,
        backends,
        reference,
        &interrupted,
        &|_| progress.inc(1),
    );
    progress.finish_and_clear();
    let seed = config.run.seed;
    let done = counted(outcome.done, "case");
    let extras = ends_summary(&outcome, config.options.check_steps.as_ref());

    if let Some((i, e)) = &outcome.generation {
        let most = match outcome.undrawn {
            0 => String::new(),
            u => {
                let ended = outcome.done + outcome.undecided + u;
                format!("{u} of {} could not be drawn; ", counted(ended, "case"))
            }
        };
        eprintln!(
            "sudoku-lab: error: {most}case {i} of seed {seed} could not be generated: {e} \
             (after {done} without a fault{extras})"
        );
        // Not a fault of a backend: the shape (or the generator's budget) is the problem.
        return ExitCode::from(2);
    }
    let Some(fault) = &outcome.fault else {
        println!("{}", no_fault(config, &outcome, &extras));
        // Nothing was compared: a refusal is exit 2, as in the other commands.
        if outcome.done > 0 && outcome.refused == outcome.done * config.backends.len() as u64 {
            eprintln!(
                "sudoku-lab: error: every case was refused by every backend ({}): nothing was \
                 checked: pick backends that take these puzzles and this task",
                config.names.join(", ")
            );
            return ExitCode::from(2);
        }
        return ExitCode::SUCCESS;
    };
    println!(
        "fault in case {} of seed {seed} (case seed {}, a {} puzzle with {}), after {done}{extras}",
        fault.case.index,
        fault.case.seed,
        fault.case.kind.name(),
        fuzz::clues(&fault.case.puzzle),
    );
    describe(&fault.case.puzzle, &fault.runs, &fault.verdict);
    if let Some(wrong) = &fault.wrong_step {
        // The backends agree: there is no disagreement to shrink; the case is the regression,
        // and `explain --verify` with the same ladder replays the wrong step.
        println!("  logic {wrong}");
        println!("  solution: {}", wrong.solution);
        let replay = step_replay(config.options.spec.diagonals, config.techniques.as_deref());
        regression(
            config,
            fault,
            std::slice::from_ref(&fault.case.puzzle),
            &replay,
        );
        return ExitCode::from(1);
    }
    let path = if config.shrink_trials == 0 {
        vec![fault.case.puzzle.clone()]
    } else {
        shrink(backends, config, fault)
    };
    if let (Some(dir), Some(puzzle)) = (&config.pictures, path.last()) {
        let title = format!(
            "fault in case {} of seed {seed}: {}",
            fault.case.index, fault.verdict
        );
        if let Some(file) = fault_picture(dir, fault.case.index, puzzle, &fault.verdict, title) {
            println!("picture: {}", file.display());
        }
    }
    let replay = format!(
        "sudoku-lab xcheck --backends {}{}",
        config.names.join(","),
        config.replay_flags
    );
    regression(config, fault, &path, &replay);
    ExitCode::from(1)
}

/// The command that replays a wrong logic step on the regression line: `explain --verify` with
/// the step check's ladder (`--techniques` as given; the default ladder without it).
fn step_replay(diagonals: bool, techniques: Option<&str>) -> String {
    let mut replay = "sudoku-lab explain --verify".to_string();
    if diagonals {
        replay.push_str(" --diagonals");
    }
    if let Some(list) = techniques {
        replay.push_str(&format!(" --techniques {}", quote(list)));
    }
    replay
}

/// The summary of a run without a fault: cases, rate, time-outs, and why it stopped.
fn no_fault(config: &Config, outcome: &Outcome, extras: &str) -> String {
    let (run, done) = (&config.run, outcome.done);
    let rate = done as f64 / outcome.elapsed.as_secs_f64().max(1e-9);
    let cases = if run.shard.is_whole() {
        format!(
            "cases {}..{}",
            run.first,
            run.first + done + outcome.undecided + outcome.undrawn
        )
    } else {
        format!("shard {} of the cases from {}", run.shard, run.first)
    };
    let stopped = match outcome.stop {
        Stop::Wall => "; stopped at the wall (--seconds)",
        Stop::Interrupted => "; interrupted",
        _ => "",
    };
    format!(
        "no fault in {} (seed {}, {cases}), {rate:.0} cases/s{extras}{stopped}",
        counted(done, "case"),
        run.seed
    )
}

/// Prints the regression line of the fault's shrinking `path` (appended to `--regressions`) and
/// the command that replays it: `replay` followed by the file.
fn regression(config: &Config, fault: &Fault, path: &[Puzzle], replay: &str) {
    let (backends, reference) = (&config.backends[..], config.reference.as_ref());
    let trusted = trusted_backend(backends, fault, config.options.task);
    let line = fuzz::regression_line(
        path,
        trusted.unwrap_or(reference),
        fuzz::REGRESSION_COUNT_LIMIT,
        config.options.timeout,
    );
    let trusted_name = trusted.unwrap_or(reference).name();
    let Some((line, puzzle)) = line else {
        println!(
            "no regression line: {trusted_name} could not count the solutions of any puzzle on \
             the way exactly (limit {})",
            fuzz::REGRESSION_COUNT_LIMIT
        );
        return;
    };
    println!(
        "regression line ({}, solutions counted by {trusted_name}):",
        fuzz::clues(&puzzle)
    );
    println!("{line}");
    if let Some(file) = &config.regressions {
        if let Err(e) = append_line(file, &line) {
            eprintln!(
                "sudoku-lab: error: cannot append to {}: {e}",
                file.display()
            );
        }
    }
    let file = config
        .regressions
        .as_ref()
        .map_or("FILE".to_string(), |f| f.display().to_string());
    println!("replay: {replay} {file}");
}

/// Shrinks the fault and prints the result; returns the path of kept puzzles.
fn shrink(backends: &[Box<dyn Backend>], config: &Config, fault: &Fault) -> Vec<Puzzle> {
    let mut shrinker = Shrinker::new(backends, config.options.task, config.options.timeout);
    shrinker.max_trials = config.shrink_trials;
    shrinker.deadline = config.run.deadline;
    let spinner = progress_bar(None);
    spinner.set_message("shrinking");
    let shrunk = shrinker.shrink(
        &fault.case.puzzle,
        fault.runs.clone(),
        fault.verdict.clone(),
    );
    spinner.finish_and_clear();
    let Some(shrunk) = shrunk else {
        return vec![fault.case.puzzle.clone()];
    };
    println!(
        "shrunk in {} trials{} to {}{}:",
        shrunk.trials,
        match shrunk.cut_short {
            true if config.run.deadline.is_some_and(|d| Instant::now() >= d) => {
                " (stopped at the wall, --seconds)"
            }
            true => " (trial budget spent)",
            false => "",
        },
        fuzz::clues(&shrunk.puzzle),
        shape_note(&fault.case.puzzle, &shrunk.puzzle),
    );
    describe(&shrunk.puzzle, &shrunk.runs, &shrunk.verdict);
    shrunk.path
}

/// How shrinking changed the shape, if it did.
fn shape_note(before: &Puzzle, after: &Puzzle) -> String {
    let mut notes = Vec::new();
    if before.shape().diagonals() && !after.shape().diagonals() {
        notes.push("without the diagonals");
    }
    if before.shape().regions() != after.shape().regions() {
        if let Regions::Boxes { .. } = after.shape().regions() {
            notes.push("with standard boxes");
        }
    }
    if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join(", "))
    }
}

/// The puzzle, what each backend said, and the verdict, indented.
fn describe(puzzle: &Puzzle, runs: &[BackendRun], verdict: &Verdict) {
    // The line format holds houses and cages; other rules are shown as f-puzzles JSON.
    let line = match format::to_line(puzzle) {
        Ok(line) => line,
        Err(format::LineError::Variant(_)) => format::fpuzzles::to_json(puzzle, None)
            .map(|doc| doc.to_string())
            .unwrap_or_else(|e| format!("(not expressible: {e})")),
        Err(_) => "(too large for a line)".into(),
    };
    println!("  puzzle: {line}");
    if puzzle.shape().diagonals() {
        println!("  (with both diagonals as houses: --diagonals)");
    }
    if let Some(w) = puzzle.weights() {
        println!("  weights (a --weights file):");
        for row in w.as_slice().chunks(puzzle.size()) {
            let row: Vec<String> = row.iter().map(|x| x.to_string()).collect();
            println!("    {}", row.join(" "));
        }
    }
    for r in runs {
        println!("  {}: {}", r.backend, r.said());
    }
    if *verdict != Verdict::Agreed {
        println!("  {verdict}");
    }
}

/// A built-in backend on the side of the most backends that answered, to count the regression
/// puzzle's solutions; `None` to use the reference (`dfs`).
fn trusted_backend<'a>(
    backends: &'a [Box<dyn Backend>],
    fault: &Fault,
    task: Task,
) -> Option<&'a dyn Backend> {
    let sig = Signature::of(task, &fault.runs, &fault.verdict)?;
    let mut answered: Vec<&Vec<&'static str>> = sig
        .groups
        .iter()
        .filter(|(label, _)| label == "answered")
        .map(|(_, who)| who)
        .collect();
    answered.sort_by_key(|who| std::cmp::Reverse(who.len()));
    let largest = answered.first()?;
    // Only a strict majority is trusted; a tie says nothing about who is right.
    if answered.get(1).is_some_and(|w| w.len() == largest.len()) {
        return None;
    }
    largest.iter().find_map(|name| {
        let kind: BackendKind = name.parse().ok()?;
        if kind.is_external() {
            return None;
        }
        backends
            .iter()
            .find(|b| b.name() == *name)
            .map(|b| b.as_ref())
    })
}

fn ends_summary(outcome: &Outcome, check_steps: Option<&Ladder>) -> String {
    let (t, r) = (outcome.timed_out, outcome.refused);
    let mut s = match check_steps {
        Some(ladder) => steps_summary(&outcome.steps, ladder),
        None => String::new(),
    };
    if t > 0 {
        let named = &outcome.timeouts;
        let cases: Vec<String> = named
            .iter()
            .map(|(case, who)| format!("{case} ({})", who.join(", ")))
            .collect();
        let shown: usize = named.values().map(Vec::len).sum();
        let more = if t as usize > shown { ", …" } else { "" };
        s.push_str(&format!(
            "; {} timed out, in {} {}{more} (replay one with --case I --puzzles 1)",
            counted(t, "answer"),
            if cases.len() == 1 { "case" } else { "cases" },
            cases.join(", ")
        ));
    }
    if r > 0 {
        s.push_str(&format!("; {}", counted(r, "refusal")));
    }
    left_out(
        &mut s,
        outcome.undecided,
        &outcome.undecided_cases,
        "the generator's uniqueness check timed out",
    );
    left_out(
        &mut s,
        outcome.undrawn,
        &outcome.undrawn_cases,
        "no grid could be drawn",
    );
    s
}

/// "; logic path checked step by step on 120 puzzles with one solution: 3456 steps, 0 wrong",
/// the steps of the techniques of `ladder` that the default ladder leaves out ("; steps off the
/// default ladder: Franken X-Wing 3, …", each named, none left out for having no step), and the
/// puzzles the logic engine refused, when the step check ran.
fn steps_summary(tally: &StepTally, ladder: &Ladder) -> String {
    let mut s = format!(
        "; logic path checked step by step on {} with one solution: {}, {} wrong",
        counted(tally.puzzles, "puzzle"),
        counted(tally.steps, "step"),
        tally.wrong
    );
    let off: Vec<String> = (ladder.techniques().iter())
        .filter(|t| !t.in_default_ladder())
        .map(|&t| format!("{} {}", t.name(), tally.techniques.get(t)))
        .collect();
    if !off.is_empty() {
        s.push_str(&format!(
            "; steps off the default ladder: {}",
            off.join(", ")
        ));
    }
    if tally.refused > 0 {
        s.push_str(&format!(
            "; {} with one solution not step-checked (the logic engine refused them)",
            counted(tally.refused, "puzzle")
        ));
    }
    s
}

/// "; 3 cases left out (WHY): 4, 9, 17", for `count` cases of which `named` are the lowest.
fn left_out(s: &mut String, count: u64, named: &[u64], why: &str) {
    if count == 0 {
        return;
    }
    let cases: Vec<String> = named.iter().map(u64::to_string).collect();
    let more = if count as usize > cases.len() {
        ", …"
    } else {
        ""
    };
    s.push_str(&format!(
        "; {} left out ({why}): {}{more}",
        counted(count, "case"),
        cases.join(", ")
    ));
}

fn append_line(file: &PathBuf, line: &str) -> std::io::Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)?;
    writeln!(f, "{line}")
}

/// Cases done and cases/s on standard error (hidden when it is not a terminal); a bar when the
/// number of cases is known.
fn progress_bar(len: Option<u64>) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let (pb, template) = match len {
        Some(n) => (
            ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::stderr()),
            "{bar:40} {pos}/{len} cases  {per_sec}  {msg} {elapsed}",
        ),
        None => (
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
            "{spinner} {pos} cases  {per_sec}  {msg} {elapsed}",
        ),
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        pb.set_style(style);
    }
    pb.enable_steady_tick(Duration::from_millis(200));
    pb
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A wrong step replays with `explain --verify` on the regression line, with the diagonals
    /// and the ladder of the step check as given.
    #[test]
    fn a_wrong_step_replays_with_the_ladder_of_the_step_check() {
        assert_eq!(step_replay(false, None), "sudoku-lab explain --verify");
        assert_eq!(
            step_replay(true, Some("all")),
            "sudoku-lab explain --verify --diagonals --techniques all"
        );
        assert_eq!(
            step_replay(false, Some("singles, fish")),
            "sudoku-lab explain --verify --techniques 'singles, fish'"
        );
    }
}
