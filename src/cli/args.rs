//! Flag groups that several commands share (`#[command(flatten)]`), the parsers of typed flag
//! values, and the checks that turn raw numbers and paths into resolved ones (seconds, jobs,
//! writable files). The backend flags are in [`super::engine`].

use std::convert::Infallible;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, ValueEnum};

use sudoku_lab::format::{Format, ReadOptions};
use sudoku_lab::generate::{PuzzleSpec, SpecError};
use sudoku_lab::model::ConstraintKind;
use sudoku_lab::task::{Task, DEFAULT_COUNT_LIMIT};
use sudoku_lab::weights::WeightSource;

use super::batch;
use super::UsageError;

/// `--task` of `xcheck`, `bench` and `fuzz`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskArg {
    Solve,
    Count,
    Unique,
    Optimize,
}

impl TaskArg {
    pub fn with_limit(self, limit: u64) -> Task {
        match self {
            TaskArg::Solve => Task::Solve,
            TaskArg::Count => Task::Count { limit },
            TaskArg::Unique => Task::Unique,
            TaskArg::Optimize => Task::Optimize,
        }
    }
}

/// What the task of `xcheck` and `bench` takes besides its name: the count limit, the weights.
#[derive(Args, Debug)]
pub struct TaskOptions {
    /// Count limit for `--task count`.
    #[arg(long, default_value_t = DEFAULT_COUNT_LIMIT, value_parser = clap::value_parser!(u64).range(1..))]
    limit: u64,
    /// Weights for `--task optimize`: `pyramid` or a file of n rows of n integers.
    #[arg(long, default_value = "pyramid", value_name = "pyramid|FILE",
          value_parser = WeightsArg::pyramid_or_file)]
    weights: WeightsArg,
}

impl TaskOptions {
    /// The task, and the weights to attach (only for `optimize`, whose weights file is read).
    pub fn resolve(&self, task: TaskArg) -> Result<(Task, Option<WeightSource>), UsageError> {
        let task = task.with_limit(self.limit);
        let weights = (task == Task::Optimize)
            .then(|| self.weights.resolve())
            .transpose()?;
        Ok((task, weights))
    }
}

/// How puzzles are read.
#[derive(Args, Debug)]
pub struct InputArgs {
    /// Add both main diagonals as houses (X-Sudoku).
    #[arg(long)]
    diagonals: bool,
    /// Input format (default: detected from the text).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
}

impl InputArgs {
    pub fn read_options(&self) -> ReadOptions {
        ReadOptions {
            format: self.format.map(Format::from),
            diagonals: self.diagonals,
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum FormatArg {
    /// One puzzle per line (n² symbols, optional jigsaw labels after whitespace).
    Line,
    /// n rows of n numbers or symbols; puzzles separated by blank lines.
    Grid,
    /// A LeetCode 37 board, or an array of boards; a puzzle object (board, regions, cages, rules);
    /// an f-puzzles document.
    Json,
    /// f-puzzles documents: compressed (links or LZ-string base64), one per line, or raw JSON.
    Fpuzzles,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Line => Format::Line,
            FormatArg::Grid => Format::Grid,
            FormatArg::Json => Format::Json,
            FormatArg::Fpuzzles => Format::Fpuzzles,
        }
    }
}

/// The puzzles `generate` and `fuzz` make: the shape and the rules beyond houses, resolved into
/// one [`PuzzleSpec`].
#[derive(Args, Debug)]
pub struct SpecArgs {
    /// Side of the grid, with its standard boxes (default 9).
    #[arg(long, conflicts_with = "boxes")]
    size: Option<usize>,
    /// Box shape rows×columns, e.g. `2x3`; `1xN` makes the regions the rows, a Latin square
    /// (line format writes boxes other than the side's standard ones as region labels).
    #[arg(long, value_name = "RxC")]
    boxes: Option<String>,
    /// Random jigsaw regions (n connected regions of n cells) instead of boxes; `fuzz` draws new
    /// ones for every case.
    #[arg(long, conflicts_with = "boxes")]
    jigsaw: bool,
    /// Both main diagonals are houses too (X-Sudoku).
    #[arg(long)]
    diagonals: bool,
    /// Killer Sudoku: the full grid cut into random connected cages of distinct digits, with no
    /// givens unless asked; a unique puzzle's cages are split until one solution is left
    /// (`fuzz`: its changed case alters a cage's sum, and shrinking drops cages too).
    #[arg(long)]
    killer: bool,
    /// Cage sizes of `--killer`, e.g. `2..5` (the default); sizes above the side are drawn as
    /// the side, and a smallest size above it is refused.
    #[arg(long, value_name = "A..B", requires = "killer", default_value = "2..5",
          value_parser = cage_sizes)]
    cage_sizes: (usize, usize),
    /// Variant rules drawn from each full grid, e.g. `thermo,arrow,kropki` (kinds: anti-knight,
    /// anti-king, disjoint-groups, extra-region, odd, even, thermo, arrow, whisper, renban,
    /// palindrome, kropki, xv, nonconsecutive, negative, little-killer, sandwich, candidates,
    /// quadruple, minimum, maximum, indexer, between-line, lockout, region-sum, entropic (a side
    /// divisible by 3), modular, zipper, slow-thermo, nabner, double-arrow, clone, skyscraper,
    /// x-sum). `generate`
    /// writes such puzzles as f-puzzles JSON, one document per line; `fuzz` shrinks by dropping
    /// rules too (pick backends that take the kinds: docs/variants.md).
    #[arg(long, value_name = "KIND,…", value_delimiter = ',', value_parser = variant_kind)]
    variants: Vec<ConstraintKind>,
}

impl SpecArgs {
    /// The spec the flags ask for (the side from `--size` or `--boxes`).
    pub fn resolve(&self) -> Result<PuzzleSpec, UsageError> {
        let boxes = self.boxes.as_deref().map(boxes_arg).transpose()?;
        let spec = PuzzleSpec {
            size: boxes.map_or(self.size.unwrap_or(9), |(r, c)| r.saturating_mul(c)),
            boxes,
            jigsaw: self.jigsaw,
            diagonals: self.diagonals,
            killer: self.killer.then_some(self.cage_sizes),
            variants: self.variants.clone(),
        };
        spec.validate().map_err(|e| match (&e, &self.boxes) {
            (SpecError::CagesBeyondSide { .. }, _) => {
                let (a, b) = self.cage_sizes;
                UsageError(format!("--cage-sizes {a}..{b}: {e}"))
            }
            (_, Some(b)) => UsageError(format!("--boxes {b}: {e}")),
            (_, None) => UsageError(e.to_string()),
        })?;
        Ok(spec)
    }
}

/// `--boxes RxC`.
fn boxes_arg(b: &str) -> Result<(usize, usize), UsageError> {
    b.split_once(['x', 'X', '×'])
        .and_then(|(r, c)| Some((r.trim().parse().ok()?, c.trim().parse().ok()?)))
        .ok_or_else(|| UsageError(format!("--boxes takes RxC, e.g. 3x3, not '{b}'")))
}

/// `--cage-sizes A..B`: the smallest and the largest size of a Killer cage.
pub fn cage_sizes(arg: &str) -> Result<(usize, usize), String> {
    arg.split_once("..")
        .and_then(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<usize>().ok()?)))
        .filter(|&(a, b)| 1 <= a && a <= b)
        .ok_or_else(|| format!("--cage-sizes takes A..B with 1 ≤ A ≤ B, e.g. 2..5 (got '{arg}')"))
}

/// A `--weights` value: a word, or a weights file, which is read when the flags are resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WeightsArg {
    Pyramid,
    Random,
    File(PathBuf),
}

impl WeightsArg {
    /// `pyramid`, or a weights file (any other word names a file).
    pub fn pyramid_or_file(s: &str) -> Result<WeightsArg, Infallible> {
        Ok(match s {
            "pyramid" => WeightsArg::Pyramid,
            file => WeightsArg::File(file.into()),
        })
    }

    /// `random`, `pyramid`, or a weights file.
    pub fn random_pyramid_or_file(s: &str) -> Result<WeightsArg, Infallible> {
        match s {
            "random" => Ok(WeightsArg::Random),
            s => WeightsArg::pyramid_or_file(s),
        }
    }

    /// Where the weights come from, with the file read.
    pub fn resolve(&self) -> Result<WeightSource, UsageError> {
        let path = match self {
            WeightsArg::Pyramid => return Ok(WeightSource::Pyramid),
            WeightsArg::Random => return Ok(WeightSource::Random),
            WeightsArg::File(path) => path,
        };
        let name = path.display().to_string();
        let bytes =
            std::fs::read(path).map_err(|e| UsageError(format!("--weights {name}: {e}")))?;
        let text =
            batch::decode_utf8(&name, &bytes).map_err(|e| UsageError(format!("--weights {e}")))?;
        let source = WeightSource::File { name, text };
        // A file that holds no side's weights is one usage error, not an error at every puzzle.
        source
            .check()
            .map_err(|e| UsageError(format!("--weights {e}")))?;
        Ok(source)
    }
}

impl fmt::Display for WeightsArg {
    /// The value as given.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsArg::Pyramid => f.write_str("pyramid"),
            WeightsArg::Random => f.write_str("random"),
            WeightsArg::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// A flag's number of seconds (`--timeout`, `--budget`), above 0 and below 1e9.
pub fn seconds_arg(flag: &str, value: Option<f64>) -> Result<Option<Duration>, UsageError> {
    match value {
        None => Ok(None),
        Some(s) if s.is_finite() && s > 0.0 && s < 1e9 => Ok(Some(Duration::from_secs_f64(s))),
        Some(s) => Err(UsageError(format!(
            "{flag} takes a number of seconds above 0 and below 1e9, not {s}"
        ))),
    }
}

/// The most threads `--jobs` starts.
const MAX_JOBS: usize = 1024;

/// `--jobs`: 1 to [`MAX_JOBS`]; all cores when not given.
pub fn jobs_arg(jobs: Option<usize>) -> Result<usize, UsageError> {
    match jobs {
        Some(j) if !(1..=MAX_JOBS).contains(&j) => Err(UsageError(format!(
            "--jobs takes 1 to {MAX_JOBS} (one thread each), not {j}"
        ))),
        Some(j) => Ok(j),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// A budget in MiB (`--sat-memory-mib`, `--dlx-memory-mib`) in bytes, saturating.
pub use sudoku_lab::settings::mib;

/// Checks, before any work, that the file `path` given to `flag` can be written. A file that is
/// missing is created to try and removed again, so that a run stopped before it writes leaves
/// no empty file behind; one that exists is left as it is, for the command to write later.
pub fn writable(path: &Path, flag: &str) -> Result<(), UsageError> {
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| UsageError(format!("{flag} {}: cannot write: {e}", path.display())))?;
    if !existed {
        // Created just now and empty: nothing is lost if it cannot be removed.
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Refuses a list option (`--backends`, `--encodings`, …) that names one value twice: `why`
/// says what the repeat would do.
pub fn named_once<T: fmt::Display + PartialEq>(
    flag: &str,
    values: &[T],
    why: &str,
) -> Result<(), UsageError> {
    match values
        .iter()
        .enumerate()
        .find(|(i, v)| values[..*i].contains(v))
    {
        Some((_, v)) => Err(UsageError(format!("{flag} names {v} twice: {why}"))),
        None => Ok(()),
    }
}

/// A run's seed: `--seed S`, or one from the clock. One from the clock is printed on standard
/// error so that the run can be replayed, by [`Seed::announce`], once every option is checked:
/// an option error comes alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seed {
    pub value: u64,
    from_clock: bool,
}

impl Seed {
    /// The seed given, or one from the clock.
    pub fn resolve(given: Option<u64>) -> Seed {
        match given {
            Some(value) => Seed {
                value,
                from_clock: false,
            },
            None => Seed {
                value: std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64),
                from_clock: true,
            },
        }
    }

    /// Prints `seed: S` on standard error when the seed came from the clock. Call it after the
    /// last option check, before any other output.
    pub fn announce(&self) {
        if self.from_clock {
            eprintln!("seed: {}", self.value);
        }
    }
}

/// `s` as one shell word.
pub fn quote(s: &str) -> String {
    shlex::try_quote(s).map_or_else(|_| s.to_string(), |q| q.into_owned())
}

/// A variant kind named on the command line (Killer cages have `--killer`).
pub fn variant_kind(s: &str) -> Result<ConstraintKind, String> {
    match s.parse::<ConstraintKind>() {
        Ok(ConstraintKind::Killer) => Err("Killer cages have their own flag: --killer".into()),
        Ok(k) => Ok(k),
        Err(e) => Err(e.to_string()),
    }
}
