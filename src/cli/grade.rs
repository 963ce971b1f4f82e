//! `sudoku-lab grade`: each puzzle solved with the logic ladder and graded the way HoDoKu and
//! Sudoku Explainer grade (level, score, rating, pearl, diamond, hardest technique), one row a
//! puzzle in input order, then the levels' distribution on standard error.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use rayon::prelude::*;
use serde_json::{json, Value};

use sudoku_lab::format::ReadOptions;
use sudoku_lab::logic::{self, Grade, Ladder, Level};

use super::args::{jobs_arg, writable, InputArgs};
use super::batch;
use super::explain::LadderArgs;
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
    /// Also write the rows and the summary as one JSON document to FILE.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
    #[command(flatten)]
    ladder: LadderArgs,
    #[command(flatten)]
    input: InputArgs,
}

impl GradeArgs {
    pub fn resolve(self) -> Result<Config, UsageError> {
        if let Some(path) = &self.json {
            writable(path, "--json")?;
        }
        Ok(Config {
            ladder: self.ladder.resolve()?,
            read: self.input.read_options(),
            files: self.files,
            csv: self.csv,
            json: self.json,
            jobs: jobs_arg(self.jobs)?,
        })
    }
}

/// What `grade` was asked for.
pub struct Config {
    files: Vec<PathBuf>,
    read: ReadOptions,
    ladder: Ladder,
    csv: bool,
    json: Option<PathBuf>,
    jobs: usize,
}

const COLUMNS: [&str; 11] = [
    "file",
    "line",
    "level",
    "score",
    "rating",
    "pearl",
    "diamond",
    "hardest",
    "steps",
    "logic_only",
    "time",
];

fn row(file: &str, line: usize, g: &Grade) -> [String; 11] {
    let level = match g.solved {
        true => g.level.name(),
        false => "unsolved",
    };
    [
        file.to_string(),
        line.to_string(),
        level.to_string(),
        g.score.to_string(),
        format!("{:.1}", g.rating),
        format!("{:.1}", g.pearl),
        format!("{:.1}", g.diamond),
        g.hardest.map_or("-", |t| t.key()).to_string(),
        g.steps.to_string(),
        g.logic_only.to_string(),
        format!("{:.6}", g.time.as_secs_f64()),
    ]
}

pub fn run(config: &Config) -> ExitCode {
    let mut tally = batch::Tally::default();
    let mut items = vec![];
    batch::each_puzzle(&config.files, &config.read, None, &mut tally, |item| {
        items.push(item)
    });
    let grade_all = || -> Vec<_> {
        items
            .par_iter()
            .map(|item| logic::grade(&item.puzzle, &config.ladder).map(|(_, g)| g))
            .collect()
    };
    let grades = match rayon::ThreadPoolBuilder::new()
        .num_threads(config.jobs)
        .build()
    {
        Ok(pool) => pool.install(grade_all),
        Err(_) => grade_all(),
    };
    let mut out = String::new();
    let sep = if config.csv { "," } else { "\t" };
    let _ = writeln!(out, "{}", COLUMNS.join(sep));
    let mut levels: BTreeMap<&str, usize> = BTreeMap::new();
    let mut records = vec![];
    for (item, grade) in items.iter().zip(&grades) {
        match grade {
            Ok(g) => {
                let cells = row(&item.file, item.line, g);
                *levels
                    .entry(if g.solved { g.level.name() } else { "unsolved" })
                    .or_default() += 1;
                let _ = writeln!(out, "{}", cells.join(sep));
                let mut record = serde_json::Map::new();
                for (name, cell) in COLUMNS.iter().zip(&cells) {
                    let value = cell.parse::<f64>().map_or(json!(cell), |x| json!(x));
                    record.insert(name.to_string(), value);
                }
                record.insert("file".into(), json!(&*item.file));
                record.insert("logic_only".into(), json!(g.logic_only));
                records.push(Value::Object(record));
            }
            Err(e) => {
                eprintln!("{}:{}: error: {e}", item.file, item.line);
                tally.bad_input = true;
            }
        }
    }
    batch::write_stdout(out.as_bytes());
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
        .map(|name| format!("{name} {}", levels.get(name).copied().unwrap_or(0)))
        .collect();
    eprintln!("{} puzzles graded: {}", records.len(), summary.join(", "));
    if let Some(path) = &config.json {
        let doc = json!({ "command": "grade", "rows": records, "levels": levels });
        if let Err(e) = std::fs::write(path, format!("{doc:#}\n")) {
            eprintln!("{}: error: {e}", path.display());
            return ExitCode::from(2);
        }
    }
    ExitCode::from(if tally.bad_input { 2 } else { 0 })
}
