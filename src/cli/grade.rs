//! `sudoku-lab grade`: each puzzle solved with the logic ladder and graded the way HoDoKu and
//! Sudoku Explainer grade (level, score, rating, pearl, diamond, hardest technique), one row a
//! puzzle in input order, then the levels' distribution on standard error. `--shard K/N` grades
//! one share of the input; a progress bar shows on standard error when it is a terminal.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use rayon::prelude::*;
use serde_json::json;

use sudoku_lab::format::ReadOptions;
use sudoku_lab::logic::{self, Ladder, Level};
use sudoku_lab::report::logic::GradeRow;
use sudoku_lab::shard::Shard;

use super::args::{jobs_arg, InputArgs};
use super::batch;
use super::explain::{halt_after, LadderArgs};
use super::output::Output;
use super::UsageError;

/// Grade each puzzle with human techniques: one row per puzzle, in input order, with `level`
/// (easy, medium, hard, unfair, extreme: HoDoKu's), `score` (HoDoKu's), `rating`, `pearl` and
/// `diamond` (Sudoku Explainer style), the `hardest` technique, `steps`, `logic_only` (no
/// bifurcation needed) and `time` (s); then the distribution of levels.
#[derive(Args, Debug)]
pub struct GradeArgs {
    /// Puzzle files (`-` or none: standard input).
    files: Vec<PathBuf>,
    /// Comma-separated rows with a header instead of aligned columns.
    #[arg(long)]
    csv: bool,
    /// Also write the rows and the summary as one JSON document to FILE (`-`: standard output,
    /// instead of the rows).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Do shard K of N of the job: the input puzzles i (from 0) with i mod N = K − 1. The N
    /// shards together do exactly one run's work (see docs/campaigns.md).
    #[arg(long, value_name = "K/N", default_value = "1/1")]
    shard: Shard,
    #[command(flatten)]
    ladder: LadderArgs,
    #[command(flatten)]
    input: InputArgs,
}

impl GradeArgs {
    pub fn resolve(self) -> Result<Config, UsageError> {
        Ok(Config {
            json: Output::resolve_opt(self.json, "--json")?,
            ladder: self.ladder.resolve()?,
            timeout: self.ladder.timeout()?,
            read: self.input.read_options(),
            files: self.files,
            csv: self.csv,
            jobs: jobs_arg(self.jobs)?,
            shard: self.shard,
        })
    }
}

/// What `grade` was asked for.
pub struct Config {
    files: Vec<PathBuf>,
    read: ReadOptions,
    ladder: Ladder,
    timeout: Option<Duration>,
    csv: bool,
    json: Option<Output>,
    jobs: usize,
    shard: Shard,
}

pub fn run(config: &Config) -> ExitCode {
    let mut tally = batch::Tally::default();
    let mut items = vec![];
    batch::each_puzzle(&config.files, &config.read, None, &mut tally, |item| {
        items.push(item)
    });
    items.retain(|it| config.shard.takes(it.index as u64 - 1));
    let progress = super::bench::progress_bar(items.len());
    let grade_all = || -> Vec<_> {
        items
            .par_iter()
            .map(|item| {
                let halt = halt_after(config.timeout);
                let grade =
                    logic::solver::grade_until(&item.puzzle, &config.ladder, &halt).map(|(_, g)| g);
                progress.inc(1);
                grade
            })
            .collect()
    };
    let grades = match rayon::ThreadPoolBuilder::new()
        .num_threads(config.jobs)
        .stack_size(sudoku_lab::dfs::WORKER_STACK)
        .build()
    {
        Ok(pool) => pool.install(grade_all),
        Err(_) => grade_all(),
    };
    progress.finish_and_clear();
    let mut out = String::new();
    let sep = if config.csv { "," } else { "\t" };
    let _ = writeln!(out, "{}", GradeRow::COLUMNS.join(sep));
    let mut levels: BTreeMap<&str, usize> = BTreeMap::new();
    let mut records = vec![];
    let mut wrong = false;
    for (item, grade) in items.iter().zip(&grades) {
        match grade {
            Ok(g) => {
                let row = GradeRow::new(&item.file, item.line, g);
                *levels.entry(row.level).or_default() += 1;
                let _ = writeln!(out, "{}", row.cells().join(sep));
                records.push(row);
            }
            Err(e) => {
                eprintln!("{}: error: {e}", item.place());
                match e {
                    logic::LogicError::Unchecked(_) => wrong = true,
                    _ => tally.bad_input = true,
                }
            }
        }
    }
    if !config.json.as_ref().is_some_and(Output::is_stdout) {
        batch::write_stdout(out.as_bytes());
    }
    let order = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Unfair,
        Level::Extreme,
    ];
    let summary: Vec<String> = order
        .iter()
        .map(|l| l.name())
        .chain(["unsolved"])
        // Time-outs only when --timeout stopped some puzzle.
        .chain(levels.contains_key("timeout").then_some("timeout"))
        .map(|name| format!("{name} {}", levels.get(name).copied().unwrap_or(0)))
        .collect();
    eprintln!("{} puzzles graded: {}", records.len(), summary.join(", "));
    if let Some(output) = &config.json {
        let doc = json!({ "command": "grade", "rows": records, "levels": levels });
        if let Err(e) = output.write(format!("{doc:#}\n").as_bytes()) {
            eprintln!("sudoku-lab: error: {e}");
            return ExitCode::from(2);
        }
    }
    // A filled grid the checker rejects is a wrong answer (1), as in the other commands; a
    // time-out is 3 when nothing worse happened.
    ExitCode::from(if wrong {
        1
    } else if tally.bad_input {
        2
    } else if levels.contains_key("timeout") {
        3
    } else {
        0
    })
}
