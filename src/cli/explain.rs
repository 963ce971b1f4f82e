//! `sudoku-lab explain`: each puzzle solved step by step with human techniques, one step a line
//! in HoDoKu's notation (or one JSON record a step), or only the next step (`--hint`), or a page
//! to step through each solve in a browser (`--html`, [`Pages`]). The technique flags shared with
//! `grade` are [`LadderArgs`].

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use serde_json::json;

use sudoku_lab::backend::Limits;
use sudoku_lab::backends::{self, BackendKind};
use sudoku_lab::cancel::Halt;
use sudoku_lab::counted::counted;
use sudoku_lab::format::candidates::read_candidates;
use sudoku_lab::format::ReadOptions;
use sudoku_lab::logic::render::{candidate_grid, text};
use sudoku_lab::logic::verify::check_path;
use sudoku_lab::logic::{self, Board, Ladder, LogicError, SolveOutcome, SolveResult};
use sudoku_lab::model::{Grid, Value};
use sudoku_lab::report::html::explain_page;
use sudoku_lab::report::logic::StepRecord;
use sudoku_lab::task::{self, Answer, Task};

use super::args::{seconds_arg, InputArgs};
use super::batch;
use super::output::Output;
use super::UsageError;

/// The logic engine's flags (`explain` and `grade`): which techniques the ladder holds, and how
/// long a puzzle may take.
#[derive(Args, Debug, Clone)]
pub struct LadderArgs {
    /// Techniques to use, by key or family, comma-separated (`singles,intersections,x-wing`);
    /// `default` is the default ladder (HoDoKu's default steps in its order, bifurcation last,
    /// without the Franken fish), the one used without this flag; `all` is every technique
    /// (`default,franken-x-wing` adds one).
    #[arg(long, value_name = "LIST")]
    techniques: Option<String>,
    /// Leave out the techniques that assume one solution (unique rectangles, BUG+1).
    #[arg(long)]
    no_uniqueness: bool,
    /// Stop a puzzle's solve after this many seconds, looked at between two techniques (one
    /// technique's search under way is finished first): the puzzle is reported as timed out,
    /// with the steps found, and the others go on (exit code 3).
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
}

impl LadderArgs {
    pub fn resolve(&self) -> Result<Ladder, UsageError> {
        let ladder = match &self.techniques {
            Some(list) => {
                Ladder::parse(list).map_err(|e| UsageError(format!("--techniques: {e}")))?
            }
            None => Ladder::default(),
        };
        Ok(match self.no_uniqueness {
            true => ladder.without_uniqueness(),
            false => ladder,
        })
    }

    /// `--timeout`.
    pub fn timeout(&self) -> Result<Option<Duration>, UsageError> {
        seconds_arg("--timeout", self.timeout)
    }
}

/// When the solve of a puzzle started now must stop.
pub fn halt_after(timeout: Option<Duration>) -> Halt {
    Halt::from(timeout.map(|t| Instant::now() + t))
}

/// Solve each puzzle with human techniques and print every step in HoDoKu's notation
/// (`Locked Candidates Type 1 (Pointing): 8 in b3 => r1c136<>8`; a rule's own step
/// `[Killer cage r1c1 17] r1c2<>9`), then how the run ended. Where no logical step is left
/// (a `--techniques` list without bifurcation), the candidates left come before the last line,
/// `# no logical step found …` (with `--json`, a last record with `"outcome": "stuck"`). With
/// `--html FILE`, a page to step through each solve in a browser instead (docs/logic.md).
#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// Puzzle files (`-` or none: standard input).
    files: Vec<PathBuf>,
    /// One JSON record per step (JSON Lines).
    #[arg(long)]
    json: bool,
    /// Only the next step from the grid as given (a partly filled grid, or a grid with
    /// candidates: --candidates).
    #[arg(long)]
    hint: bool,
    /// Read each file as grids with candidates (pencil marks), as HoDoKu and Sudoku Explainer
    /// print them: n rows of n cells (n up to 9), each cell its candidate digits, one digit a
    /// placed digit; `| - + . : '` borders are skipped, grids are separated by blank lines. The
    /// steps start from those candidates.
    #[arg(long)]
    candidates: bool,
    /// Write a page to step through the solve in a browser to FILE (one HTML file with its
    /// style, script and data inline: it fetches nothing) and print its name instead of the
    /// steps. With several puzzles in the input, one page each, named with the puzzle's number
    /// before the extension (`page-1.html`, `page-2.html`, …). `-`: the page of the one puzzle
    /// of the input on standard output.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["json", "hint"])]
    html: Option<PathBuf>,
    /// Check every step against the puzzle's solution (from the dfs backend, held against the
    /// known answer the input gives with the puzzle, if any); a wrong step is reported and gives
    /// exit code 1; a puzzle without a unique solution, or whose known answer does not hold
    /// (its steps are not checked), exit code 2.
    #[arg(long)]
    verify: bool,
    #[command(flatten)]
    ladder: LadderArgs,
    #[command(flatten)]
    input: InputArgs,
}

impl ExplainArgs {
    pub fn resolve(self) -> Result<Config, UsageError> {
        if let Some(path) = self.html.as_deref().filter(|p| p.as_os_str() != "-") {
            check_page_path(path)?;
        }
        Ok(Config {
            html: Output::resolve_opt(self.html, "--html")?,
            ladder: self.ladder.resolve()?,
            timeout: self.ladder.timeout()?,
            read: self.input.read_options(),
            files: self.files,
            json: self.json,
            hint: self.hint,
            candidates: self.candidates,
            verify: self.verify,
        })
    }
}

/// What `explain` was asked for.
pub struct Config {
    files: Vec<PathBuf>,
    read: ReadOptions,
    ladder: Ladder,
    timeout: Option<Duration>,
    json: bool,
    hint: bool,
    candidates: bool,
    verify: bool,
    html: Option<Output>,
}

pub fn run(config: &Config) -> ExitCode {
    let mut tally = batch::Tally::default();
    let mut out = String::new();
    let (mut wrong, mut refused, mut timed_out) = (false, false, false);
    let mut pages = config.html.clone().map(Pages::new);
    let mut explain = |item: batch::Item, board: Result<Board, LogicError>| {
        let shape = item.puzzle.shape();
        let where_ = format!("{}:{}", item.file, item.line);
        // Messages name the puzzle's first line and column, as the other commands do.
        let at = item.place();
        let board = match board {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{at}: error: {e}");
                refused = true;
                return;
            }
        };
        // The candidates left where no logical step is found.
        let mut left = vec![];
        let (steps, ending) = if config.hint {
            let step = config.ladder.next_step(&board);
            if step.is_none() {
                left = candidate_grid(&board);
            }
            let ending = if step.is_none() { "no step found" } else { "" };
            (step.into_iter().collect(), ending.to_string())
        } else {
            let halt = halt_after(config.timeout);
            let result = logic::solver::solve_board_until(board, &config.ladder, &halt);
            if let Err(e) = logic::solver::check_solved(&item.puzzle, &result) {
                eprintln!("{at}: error: {e}");
                wrong = true;
                return;
            }
            if let Some(pages) = &mut pages {
                pages.add(&item, &result);
            }
            let g = logic::solver::grade_path(&item.puzzle, &result.steps);
            let ending = match result.outcome {
                SolveOutcome::Solved => format!(
                    "solved in {} steps: {} (score {}), rating {:.1}",
                    result.steps.len(),
                    g.level.name(),
                    g.score,
                    g.rating
                ),
                SolveOutcome::Stuck => {
                    left = candidate_grid(&result.board);
                    format!(
                        "no logical step found after {} steps, {} cells empty",
                        result.steps.len(),
                        result.board.empty_cells()
                    )
                }
                SolveOutcome::Contradiction => "the puzzle has no solution".to_string(),
                SolveOutcome::TimedOut => {
                    timed_out = true;
                    eprintln!("{at}: timed out after {} steps", result.steps.len());
                    format!("timed out after {} steps", result.steps.len())
                }
            };
            (result.steps, ending)
        };
        if config.verify {
            match reference_solution(&item) {
                Ok(solution) => {
                    if let Err(e) = check_path(solution.cells(), &steps) {
                        eprintln!("{at}: wrong step: {e}: {}", text(shape, &steps[e.index]));
                        wrong = true;
                    }
                }
                // Verification was asked for and cannot be done: as a refusal, exit code 2.
                Err(why) => {
                    eprintln!("{at}: error: --verify: not checked: {why}");
                    refused = true;
                }
            }
        }
        if config.json {
            for (i, step) in steps.iter().enumerate() {
                let mut record = json!(StepRecord::new(&item.puzzle, i, step));
                record["puzzle"] = json!(item.index);
                let _ = writeln!(out, "{record}");
            }
            if !left.is_empty() {
                let end = json!({"puzzle": item.index, "outcome": "stuck", "text": ending,
                    "candidates": left});
                let _ = writeln!(out, "{end}");
            }
        } else {
            let _ = writeln!(out, "# {where_}");
            for step in &steps {
                let _ = writeln!(out, "{}", text(shape, step));
            }
            if !left.is_empty() {
                let _ = writeln!(out, "# candidates left:");
            }
            for row in &left {
                let _ = writeln!(out, "# {row}");
            }
            if !ending.is_empty() {
                let _ = writeln!(out, "# {ending}");
            }
        }
    };
    let read = if config.candidates {
        each_candidate_grid(config, &mut tally, |item, eliminations| {
            let board = Board::with_eliminations(&item.puzzle, &eliminations);
            explain(item, board)
        })
    } else {
        batch::each_puzzle(&config.files, &config.read, None, &mut tally, |item| {
            let board = Board::new(&item.puzzle);
            explain(item, board)
        })
    };
    match &pages {
        Some(pages) => refused |= !pages.write(read),
        None => batch::write_stdout(out.as_bytes()),
    }
    ExitCode::from(match (wrong, tally.bad_input || refused, timed_out) {
        (true, _, _) => 1,
        (false, true, _) => 2,
        (false, false, true) => 3,
        _ => 0,
    })
}

/// The grid `--verify` holds the steps of `item` against: the puzzle's one solution, from the
/// dfs backend, which must agree with the known answer the input gives with the puzzle (the
/// count and solution of `puzzle:count:solution`, of a puzzle object, of an f-puzzles document;
/// the reader has checked that such a solution solves the puzzle). When there is none, or the
/// input's answer says otherwise, why the steps are not checked.
fn reference_solution(item: &batch::Item) -> Result<Grid, String> {
    let dfs = backends::create(BackendKind::Dfs, &Default::default()).map_err(|e| e.to_string())?;
    let answer = task::run(dfs.as_ref(), &item.puzzle, Task::Unique, &Limits::none())
        .map_err(|e| format!("no solution to check against: {e}"))?;
    let found = match &answer {
        Answer::Unique(_) => "exactly one solution",
        Answer::Multiple(..) => "several solutions",
        _ => "no solution",
    };
    if let Some(why) = item
        .expected
        .as_ref()
        .and_then(|e| e.contradiction(&answer))
    {
        return Err(format!(
            "the known answer given with the puzzle does not hold: {why}, and the puzzle has \
             {found}"
        ));
    }
    match answer {
        Answer::Unique(grid) => Ok(grid),
        _ => Err(format!("the puzzle has {found}, not a unique solution")),
    }
}

/// Every grid with candidates of every file (standard input when there is none), with its
/// eliminations; unreadable files and bad grids are reported with file, line and column.
fn each_candidate_grid(
    config: &Config,
    tally: &mut batch::Tally,
    mut f: impl FnMut(batch::Item, Vec<(usize, Value)>),
) -> usize {
    let stdin = [PathBuf::from("-")];
    let files = if config.files.is_empty() {
        &stdin[..]
    } else {
        &config.files[..]
    };
    let mut index = 0;
    for path in files {
        let name: Arc<str> = Arc::from(batch::source_name(path));
        let text = match batch::read_text(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{}: error: {}", e.place, e.message);
                tally.bad_input = true;
                continue;
            }
        };
        for grid in read_candidates(&text, &config.read) {
            index += 1;
            match grid {
                Ok(g) => f(
                    batch::Item {
                        index,
                        file: name.clone(),
                        line: g.line,
                        puzzle: g.puzzle,
                        expected: None,
                    },
                    g.eliminations,
                ),
                Err(e) => {
                    eprintln!("{name}:{}:{}: error: {}", e.line, e.col, e.message);
                    tally.bad_input = true;
                }
            }
        }
    }
    index
}

/// A page can be written to `path` as far as can be told before solving: its folder exists and
/// it is not a folder itself.
fn check_page_path(path: &Path) -> Result<(), UsageError> {
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(folder) = folder.filter(|f| !f.is_dir()) {
        return Err(UsageError(format!(
            "--html {}: the folder {} does not exist",
            path.display(),
            folder.display()
        )));
    }
    if path.is_dir() {
        return Err(UsageError(format!(
            "--html {}: is a folder; give the page's file name",
            path.display()
        )));
    }
    Ok(())
}

/// The pages of `--html`, one a puzzle, written once the input is read: its file when the input
/// held one puzzle, else the file's name with the puzzle's number before its extension.
pub struct Pages {
    output: Output,
    pages: Vec<(usize, String)>,
    failed: bool,
}

impl Pages {
    fn new(output: Output) -> Pages {
        Pages {
            output,
            pages: vec![],
            failed: false,
        }
    }

    /// The page of one puzzle's solve.
    fn add(&mut self, item: &batch::Item, result: &SolveResult) {
        let title = format!("{}:{}", item.file, item.line);
        match explain_page(&item.puzzle, result, &title) {
            Ok(page) => self.pages.push((item.index, page)),
            Err(e) => {
                eprintln!("{title}: error: {e}");
                self.failed = true;
            }
        }
    }

    /// The file of puzzle `index` of an input of more than one puzzle.
    fn path_of(path: &Path, index: usize) -> PathBuf {
        let stem = path.file_stem().unwrap_or_default().to_string_lossy();
        let name = match path.extension() {
            Some(ext) => format!("{stem}-{index}.{}", ext.to_string_lossy()),
            None => format!("{stem}-{index}"),
        };
        path.with_file_name(name)
    }

    /// Writes every page and prints its file's name (a page on standard output is not named);
    /// false when one could not be made or written (said on standard error).
    fn write(&self, read: usize) -> bool {
        if self.output.is_stdout() && read > 1 {
            eprintln!(
                "sudoku-lab: error: {} takes one page; the input holds {} (give a file name)",
                self.output,
                counted(read, "puzzle")
            );
            return false;
        }
        let mut listed = String::new();
        let mut ok = !self.failed;
        for (index, page) in &self.pages {
            let written = match self.output.file() {
                Some(path) if read > 1 => {
                    let path = Self::path_of(path, *index);
                    match std::fs::write(&path, page) {
                        Ok(()) => Ok(Some(path)),
                        Err(e) => Err(format!("cannot write {}: {e}", path.display())),
                    }
                }
                Some(path) => self
                    .output
                    .write(page.as_bytes())
                    .map(|()| Some(path.to_path_buf())),
                None => self.output.write(page.as_bytes()).map(|()| None),
            };
            match written {
                Ok(Some(path)) => {
                    let _ = writeln!(listed, "{}", path.display());
                }
                Ok(None) => {}
                Err(e) => {
                    eprintln!("sudoku-lab: error: {e}");
                    ok = false;
                }
            }
        }
        batch::write_stdout(listed.as_bytes());
        ok
    }
}
