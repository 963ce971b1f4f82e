//! `sudoku-lab render`: one SVG picture per puzzle of the input ([`sudoku_lab::render`]), with
//! the solution a backend finds (`--solve`) or the one the input gives.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use sudoku_lab::backend::{Backend, Limits};
use sudoku_lab::counted::counted;
use sudoku_lab::format::ReadOptions;
use sudoku_lab::model::{Grid, Puzzle};
use sudoku_lab::render::{self, RenderOptions};
use sudoku_lab::task::{Answer, Task};
use sudoku_lab::xcheck::Verdict;

use super::args::InputArgs;
use super::batch::{self, Item, Tally};
use super::engine::EngineArgs;
use super::output::Output;
use super::UsageError;

/// Draw every puzzle of the input as an SVG picture: the grid, its regions and diagonals, the
/// givens, Killer cages and every variant rule; with `--solve BACKEND` (or a known answer in the
/// input, `puzzle:count:solution`), the solution's digits too.
///
/// Pictures are named `STEM-K.svg` after the input file and the puzzle's number K over the whole
/// input (the number other commands report), in the current folder or `--out DIR`; `-o FILE`
/// writes the one puzzle of the input (or the one `--index` picks). Each file written is
/// printed. A bad puzzle is reported by file and line and the others are still drawn (exit 2).
#[derive(Args, Debug)]
pub struct RenderArgs {
    /// Puzzle files (`-` or none: standard input, whose pictures are named `stdin-K.svg`).
    files: Vec<PathBuf>,
    /// The folder for the pictures (created when missing; default: the current folder).
    #[arg(long, value_name = "DIR", conflicts_with = "output")]
    out: Option<PathBuf>,
    /// Write the picture to this file (`-`: standard output); the input must hold one puzzle, or
    /// `--index` picks one.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Solve each puzzle with this backend (see `sudoku-lab backends`) and draw the solution it
    /// finds, checked as every answer is.
    #[arg(long, value_name = "BACKEND")]
    solve: Option<String>,
    /// Draw only puzzle K of the input (from 1, counted over every file).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    index: Option<u64>,
    /// The side of a cell, in pixels (4 to 400).
    #[arg(long, value_name = "PX", default_value_t = 40.0)]
    cell: f64,
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    engine: EngineArgs,
}

impl RenderArgs {
    pub fn resolve(self) -> Result<Config, UsageError> {
        if !(4.0..=400.0).contains(&self.cell) {
            return Err(UsageError(format!(
                "--cell takes 4 to 400 pixels, not {}",
                self.cell
            )));
        }
        if self.output.is_none() {
            self.engine.no_proofs("render without -o")?;
        }
        let solver = match &self.solve {
            Some(name) => Some(self.engine.create_named(name)?),
            None => None,
        };
        let to = match (self.output, self.out) {
            (Some(file), _) => Target::File(Output::resolve(file, "-o")?),
            (None, Some(dir)) => {
                std::fs::create_dir_all(&dir).map_err(|e| {
                    UsageError(format!("--out {}: cannot create: {e}", dir.display()))
                })?;
                Target::Dir(dir)
            }
            (None, None) => Target::Dir(PathBuf::new()),
        };
        Ok(Config {
            files: self.files,
            read: self.input.read_options(),
            to,
            solver,
            limits: self.engine.limits()?,
            index: self.index.map(|k| usize::try_from(k).unwrap_or(usize::MAX)),
            options: RenderOptions {
                cell: self.cell,
                title: None,
            },
        })
    }
}

/// Where pictures go.
pub enum Target {
    /// `STEM-K.svg` in this folder.
    Dir(PathBuf),
    /// This one file, or standard output.
    File(Output),
}

/// What `render` was asked for.
pub struct Config {
    files: Vec<PathBuf>,
    read: ReadOptions,
    to: Target,
    /// The backend whose solution is drawn.
    solver: Option<Box<dyn Backend>>,
    limits: Limits,
    /// Only this puzzle of the input.
    index: Option<usize>,
    options: RenderOptions,
}

/// Draws the puzzles; bad input, a file that cannot be written or a puzzle the backend refuses
/// gives exit code 2, a solver failure 1, a time-out 3 (the picture is drawn without digits).
pub fn run(config: &Config) -> ExitCode {
    let mut tally = Tally::default();
    let mut items: Vec<Item> = Vec::new();
    let read = batch::each_puzzle(&config.files, &config.read, None, &mut tally, |item| {
        if config.index.is_none_or(|k| k == item.index) {
            items.push(item)
        }
    });
    if let Some(k) = config.index.filter(|&k| k > read) {
        let read = counted(read, "puzzle");
        eprintln!("sudoku-lab: error: --index {k}: the input holds {read}");
        return ExitCode::from(2);
    }
    if let Target::File(output) = &config.to {
        if items.len() > 1 || (items.is_empty() && !tally.bad_input) {
            eprintln!(
                "sudoku-lab: error: {output} takes one picture; the input holds {} (pick one with \
                 --index K, or write them all with --out DIR)",
                counted(items.len(), "puzzle")
            );
            return ExitCode::from(2);
        }
    }
    let mut listed = String::new();
    for item in &items {
        let solution = solution(config, item, &mut tally);
        let picture = render::svg(&item.puzzle, solution.as_ref(), &config.options);
        let written = match &config.to {
            Target::File(output) => output
                .write(picture.as_bytes())
                .map(|()| output.file().map(Path::to_path_buf)),
            Target::Dir(dir) => {
                let path = dir.join(format!("{}-{}.svg", stem(&item.file), item.index));
                match std::fs::write(&path, picture) {
                    Ok(()) => Ok(Some(path)),
                    Err(e) => Err(format!("cannot write {}: {e}", path.display())),
                }
            }
        };
        match written {
            // A picture on standard output is not listed there.
            Ok(Some(path)) => listed.push_str(&format!("{}\n", path.display())),
            Ok(None) => {}
            Err(e) => {
                eprintln!("sudoku-lab: error: {e}");
                tally.bad_input = true;
            }
        }
    }
    batch::write_stdout(listed.as_bytes());
    tally.exit_code()
}

/// The grid to draw with the puzzle: the one `--solve`'s backend finds, else the known answer
/// the input gives. What keeps the backend from one is reported and recorded.
fn solution(config: &Config, item: &Item, tally: &mut Tally) -> Option<Grid> {
    let Some(backend) = &config.solver else {
        return item.expected.as_ref().and_then(|e| e.solution.clone());
    };
    let at = item.place();
    match sudoku_lab::task::run(backend.as_ref(), &item.puzzle, Task::Solve, &config.limits) {
        Ok(Answer::Solved(grid)) => Some(grid),
        Ok(_) => {
            eprintln!(
                "{at}: no solution ({}); drawn with the givens only",
                backend.name()
            );
            None
        }
        Err(e) => {
            tally.record_error(&e);
            eprintln!("{at}: {e}; drawn with the givens only");
            None
        }
    }
}

/// The name of an input file without its folder and extension (`stdin` for standard input).
fn stem(file: &str) -> String {
    if file == "<stdin>" {
        return "stdin".into();
    }
    Path::new(file)
        .file_stem()
        .map_or("puzzle".into(), |s| s.to_string_lossy().into_owned())
}

/// `--pictures DIR` of `xcheck` and `fuzz`.
#[derive(Args, Debug)]
pub struct PicturesArg {
    /// Draw each puzzle on which backends disagree, or an answer fails, as
    /// DIR/disagreement-K.svg or DIR/failure-K.svg (K: the puzzle's number; for fuzz, the case's,
    /// drawn as shrunk). The folder is created, when missing, for the first picture.
    #[arg(long, value_name = "DIR")]
    pictures: Option<PathBuf>,
}

impl PicturesArg {
    /// The folder; one that is a file is refused now, one that is missing is created when the
    /// first picture is written (a run that draws none leaves nothing behind).
    pub fn resolve(self) -> Result<Option<PathBuf>, UsageError> {
        if let Some(dir) = self
            .pictures
            .as_deref()
            .filter(|d| d.exists() && !d.is_dir())
        {
            return Err(UsageError(format!(
                "--pictures {}: not a folder",
                dir.display()
            )));
        }
        Ok(self.pictures)
    }
}

/// Draws `puzzle`, on which the backends did not agree, into `dir`, titled with what happened.
/// Returns the file written; `None` when they agreed, or when it cannot be written (which is
/// reported on standard error).
pub fn fault_picture(
    dir: &Path,
    index: u64,
    puzzle: &Puzzle,
    verdict: &Verdict,
    title: String,
) -> Option<PathBuf> {
    let word = match verdict {
        Verdict::Agreed => return None,
        Verdict::Disagreement(_) => "disagreement",
        Verdict::Failure(_) => "failure",
    };
    let path = dir.join(format!("{word}-{index}.svg"));
    let options = RenderOptions {
        title: Some(title),
        ..RenderOptions::default()
    };
    let written = std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&path, render::svg(puzzle, None, &options)));
    match written {
        Ok(()) => Some(path),
        Err(e) => {
            eprintln!("sudoku-lab: error: cannot write {}: {e}", path.display());
            None
        }
    }
}
