//! `sudoku-lab generate`: seeded random puzzles ([`sudoku_lab::generate`]), one line each.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use clap::Args;
use indicatif::ProgressBar;

use sudoku_lab::backend::Backend;
use sudoku_lab::backends::{self, BackendKind};
use sudoku_lab::format;
use sudoku_lab::generate::graded::{draw_graded, GradeTarget};
use sudoku_lab::generate::{GenerateOptions, Generator, PuzzleSpec};
use sudoku_lab::logic::{Ladder, Level};
use sudoku_lab::shard::Shard;
use sudoku_lab::weights::WeightSource;

use super::args::{seconds_arg, Seed, SpecArgs, WeightsArg};
use super::batch;
use super::UsageError;

/// Generate random puzzles in line format (jigsaw ones followed by their region labels).
///
/// A random full grid by randomised search, then givens removed at random (or, with
/// `--unique`, only while the solution stays unique). The same seed gives the same output.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    #[command(flatten)]
    spec: SpecArgs,
    /// Givens to keep (default about 0.4·n², or as few as uniqueness allows with `--unique`).
    #[arg(long, value_name = "K")]
    givens: Option<usize>,
    /// Remove givens only while the puzzle stays uniquely solvable.
    #[arg(long)]
    unique: bool,
    /// Write each puzzle's known answer after it, `puzzle:1:solution` (needs `--unique`), so
    /// that `xcheck`, `solve`, `count`… check every backend against it (needs `--unique`, or
    /// `--grade` or `--techniques`, which imply it).
    #[arg(long)]
    with_answer: bool,
    /// How many puzzles.
    #[arg(long, default_value_t = 1, value_name = "M")]
    count: usize,
    /// Random seed (default: from the clock, printed on standard error so the run can be replayed).
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Attach weights to the puzzles (`pyramid`); the line output is unchanged.
    #[arg(long, value_name = "pyramid", value_parser = WeightsArg::pyramid_or_file)]
    weights: Option<WeightsArg>,
    /// Backend used for the uniqueness checks of `--unique` (only its verdicts are used: any
    /// correct backend gives the same puzzles).
    #[arg(long, short, default_value = "dfs")]
    backend: String,
    /// Seconds the uniqueness checks of one puzzle may take together; past them, generation
    /// stops with an error (exit 2).
    #[arg(long, value_name = "S", default_value_t = DEFAULT_PUZZLE_BUDGET)]
    budget: f64,
    /// Do shard K of N of the job: the puzzles i (from 0) with i mod N = K − 1. The N
    /// shards together do exactly one run's work (see docs/campaigns.md).
    #[arg(long, value_name = "K/N", default_value = "1/1")]
    shard: Shard,
    /// Keep only puzzles whose logical path (the logic engine's default ladder, as `grade`
    /// grades) has this level: easy, medium, hard, unfair or extreme. Implies `--unique`.
    #[arg(long, value_name = "LEVEL", value_parser = parse_level)]
    grade: Option<Level>,
    /// Keep only puzzles whose path uses no technique outside this list but singles, and whose
    /// hardest step is one of it (technique or family keys, as `explain --techniques`). Implies
    /// `--unique`.
    #[arg(long, value_name = "LIST")]
    techniques: Option<String>,
    /// With `--grade` or `--techniques`: puzzles drawn for each one kept before giving up
    /// (exit 2, naming the levels drawn).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    attempts: usize,
}

/// A level by name.
fn parse_level(name: &str) -> Result<Level, String> {
    let levels = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Unfair,
        Level::Extreme,
    ];
    levels
        .into_iter()
        .find(|l| l.name() == name.to_ascii_lowercase())
        .ok_or_else(|| {
            format!("unknown level '{name}' (known: easy, medium, hard, unfair, extreme)")
        })
}

impl GenerateArgs {
    pub fn resolve(self) -> Result<Config, UsageError> {
        let spec = self.spec.resolve()?;
        let n = spec.size;
        if n > format::MAX_LINE_SIDE {
            return Err(UsageError(format!(
                "side {n} cannot be written in line format (at most {})",
                format::MAX_LINE_SIDE
            )));
        }
        let seed = Seed::resolve(self.seed);
        let weights = match self.weights {
            None => None,
            Some(WeightsArg::Pyramid) => Some(WeightSource::Pyramid),
            Some(other) => {
                return Err(UsageError(format!(
                    "--weights: unknown weights '{other}' (known: pyramid)"
                )))
            }
        };
        let kind: BackendKind = self.backend.parse()?;
        let checker = backends::create(kind, &Default::default())
            .map_err(|e| UsageError(format!("backend {kind}: {e}")))?;
        let budget = seconds_arg("--budget", Some(self.budget))?;
        let techniques = match &self.techniques {
            Some(list) => Some(
                Ladder::parse(list)
                    .map_err(|e| UsageError(format!("--techniques: {e}")))?
                    .techniques()
                    .to_vec(),
            ),
            None => None,
        };
        let target = (self.grade.is_some() || techniques.is_some()).then_some(GradeTarget {
            level: self.grade,
            techniques,
        });
        if target.is_some() && self.shard != Shard::default() {
            return Err(UsageError(
                "--grade and --techniques draw as many puzzles as it takes, so they do not \
                 split into --shard"
                    .into(),
            ));
        }
        if self.with_answer && !self.unique && target.is_none() {
            return Err(UsageError(
                "--with-answer needs --unique (or --grade or --techniques, which imply it)".into(),
            ));
        }
        if target.is_some() && self.attempts == 0 {
            return Err(UsageError("--attempts must be at least 1".into()));
        }
        Ok(Config {
            seed,
            budget,
            options: GenerateOptions {
                givens: self.givens,
                unique: self.unique || target.is_some(),
                seed: seed.value,
                weights,
                ..GenerateOptions::of(spec)
            },
            checker,
            count: self.count,
            with_answer: self.with_answer,
            shard: self.shard,
            target,
            attempts: self.attempts,
        })
    }
}

/// Default `--budget`: seconds for the uniqueness checks of one puzzle.
const DEFAULT_PUZZLE_BUDGET: f64 = 120.0;

/// What to generate, resolved from the flags.
pub struct Config {
    options: GenerateOptions,
    /// The seed of `options`, said on standard error when it came from the clock.
    seed: Seed,
    /// The uniqueness checks of one puzzle end within this time.
    budget: Option<Duration>,
    /// Decides uniqueness (`--backend`).
    checker: Box<dyn Backend>,
    count: usize,
    with_answer: bool,
    shard: Shard,
    /// `--grade` and `--techniques`.
    target: Option<GradeTarget>,
    attempts: usize,
}

/// Writes the shard's puzzles, one line each, as they are made; options the generator refuses
/// are usage errors.
pub fn run(config: &Config) -> Result<ExitCode, UsageError> {
    let mut generator = Generator::new(config.options.clone(), config.checker.as_ref())
        .map_err(|e| UsageError(e.to_string()))?
        .with_puzzle_budget(config.budget);
    // Every option is checked: the seed line is the first output.
    config.seed.announce();
    let what = spec_words(&config.options.spec);
    for i in 0..config.count {
        let made = with_spinner(&format!("puzzle {} ({what})", i + 1), || {
            match (&config.target, config.shard.takes(i as u64)) {
                (Some(target), _) => draw_graded(&mut generator, target, config.attempts)
                    .map(|(p, solution, _)| Some((p, solution))),
                (None, true) => generator.generate_with_solution().map(Some),
                (None, false) => generator.pass_over().map(|()| None),
            }
        });
        let made = made.map_err(|e| UsageError(format!("puzzle {} ({what}): {e}", i + 1)))?;
        let Some((p, solution)) = made else {
            continue;
        };
        // The line format holds neither variant rules nor diagonals: those go out as f-puzzles.
        let spec = &config.options.spec;
        let line = if spec.variants.is_empty() && !spec.diagonals {
            let answer = config.with_answer.then_some((1, &solution));
            format::to_line_with_answer(&p, answer).map_err(|e| UsageError(e.to_string()))?
        } else {
            let answer = config.with_answer.then_some(&solution);
            format::fpuzzles::to_json(&p, answer)
                .map_err(|e| UsageError(e.to_string()))?
                .to_string()
        };
        batch::write_stdout(format!("{line}\n").as_bytes());
    }
    Ok(ExitCode::SUCCESS)
}

/// The spec in words, for messages: `9×9, jigsaw, anti-knight`.
fn spec_words(spec: &PuzzleSpec) -> String {
    let mut words = vec![format!("{0}×{0}", spec.size)];
    if spec.jigsaw {
        words.push("jigsaw".into());
    }
    if spec.diagonals {
        words.push("diagonals".into());
    }
    if spec.killer.is_some() {
        words.push("killer".into());
    }
    words.extend(spec.variants.iter().map(|k| k.name().to_string()));
    words.join(", ")
}

/// Runs `draw`, with a spinner on standard error once it has taken more than a second (only
/// when standard error is a terminal).
fn with_spinner<T>(message: &str, draw: impl FnOnce() -> T) -> T {
    if !std::io::stderr().is_terminal() {
        return draw();
    }
    let (done, wait) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            if wait.recv_timeout(Duration::from_secs(1)) != Err(mpsc::RecvTimeoutError::Timeout) {
                return;
            }
            let spinner = ProgressBar::new_spinner();
            spinner.set_message(format!("drawing {message}"));
            spinner.enable_steady_tick(Duration::from_millis(100));
            let _ = wait.recv(); // until `done` is dropped
            spinner.finish_and_clear();
        });
        let out = draw();
        drop(done);
        out
    })
}
