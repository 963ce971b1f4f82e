//! `sudoku-lab strength`: what each propagation level derives at the root, without search, over
//! files of puzzles — one row per file, encoding, at-most-one encoding and level, and on request
//! the cross-table of technique levels against propagation levels (the library's
//! [`sudoku_lab::strength::table`] does the deriving, the sums, the rows and the cross-tables;
//! this module reads the files and writes them out).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::str::FromStr;

use clap::Args;

use sudoku_lab::sat::encode::{Amo, CageEncoding, EncodeOptions, Encoding, PairEncoding};
use sudoku_lab::shard::Shard;
use sudoku_lab::strength::table::{Cross, Level, Row, Study};
use sudoku_lab::strength::{Root, StrengthError};

use super::args::{jobs_arg, named_once, seconds_arg, InputArgs};
use super::batch::{self, Item, Tally};
use super::output::{to_stdout, Output};
use super::UsageError;

/// What each propagation level derives from a puzzle before any search.
///
/// For every puzzle, encoding and level: is the puzzle solved at the root, and how many of its
/// open cells (and of the formula's variables) are left undecided. One row per file, encoding,
/// at-most-one encoding and level: puzzles, solved_pct, unassigned_pct and unassigned_vars_pct
/// (means over the puzzles left unsolved). Levels: up (unit propagation), flp1 (one round of
/// failed-literal probing), flp (failed-literal probing to a fixpoint), flp-both (flp, and what
/// both branches of a variable imply), hbr (hyper-binary resolution to a fixpoint), hbr-eq (hbr
/// and equality reduction), binflr1 (one
/// round of the binary failed-literal rule), binflr (the binary failed-literal rule to a
/// fixpoint), pairs1 and pairs (the same pair probes, the failed pairs' binaries not kept: one
/// round, and to a fixpoint); model levels (one row per file, encoding `-`):
/// naked, hidden, locked, dfs, cp-value, cp-bounds, cp-domain; technique levels (the logic
/// engine limited to cumulative technique families, no uniqueness technique, no bifurcation; one
/// row per file, encoding `-`): logic-singles, logic-intersections, logic-subsets, logic-fish
/// (with single-digit patterns), logic-wings (with colouring), logic-chains (with ALS),
/// logic-forcing. `--cross` counts the puzzles by the weakest technique level and the weakest
/// other level that solve them; see docs/strength.md.
#[derive(Args, Debug)]
pub struct StrengthArgs {
    /// Puzzle files; `-` or none reads standard input.
    files: Vec<PathBuf>,
    /// Comma-separated CNF encodings: minimal, efficient, extended, triad.
    #[arg(long, value_delimiter = ',', default_value = "minimal,extended")]
    encodings: Vec<Encoding>,
    /// Comma-separated levels, weakest first (`--per-puzzle` names the first that solves): CNF
    /// levels up, flp1, flp, flp-both, hbr, hbr-eq, binflr1, binflr, pairs1, pairs; model levels
    /// naked, hidden, locked, dfs, cp-value, cp-bounds, cp-domain; technique levels
    /// logic-singles, logic-intersections, logic-subsets, logic-fish, logic-wings, logic-chains,
    /// logic-forcing.
    #[arg(long, value_delimiter = ',', default_value = "up,flp", value_parser = Level::from_str)]
    levels: Vec<Level>,
    /// Comma-separated at-most-one encodings: auto, pairwise, ladder, product, bimander,
    /// commander.
    #[arg(long, value_delimiter = ',', default_value = "auto")]
    amo: Vec<Amo>,
    /// Killer cage sums: combinations, gte, dpw or adder.
    #[arg(long, default_value_t = CageEncoding::default())]
    cage_encoding: CageEncoding,
    /// Variant rules between two cells: direct or order.
    #[arg(long, value_name = "ENC", default_value_t = PairEncoding::default())]
    pair_encoding: PairEncoding,
    /// Print, for each puzzle and encoding, the weakest level of `--levels` that solves it.
    #[arg(long)]
    per_puzzle: bool,
    /// Also print, per file and encoding, the cross-table: puzzles counted by the weakest
    /// technique level of `--levels` that solves them (rows) and the weakest other level that
    /// does (columns). `--levels` must name levels of both kinds.
    #[arg(long)]
    cross: bool,
    /// Also write the rows as JSON to this file (`-`: standard output, instead of the tables).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Also write the rows as CSV to this file (`-`: standard output, instead of the tables).
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Puzzles worked on in parallel (default: all cores).
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Do shard K of N of the job: the input puzzles i (from 0) with i mod N = K − 1.
    #[arg(long, value_name = "K/N", default_value = "1/1")]
    shard: Shard,
    /// Seconds each puzzle's levels may take together (every encoding); a puzzle past them is
    /// left out of the rows, named on standard error, marked `timeout` in `--per-puzzle`, and
    /// the exit code is 3.
    #[arg(long, value_name = "S")]
    timeout: Option<f64>,
    #[command(flatten)]
    input: InputArgs,
}

impl StrengthArgs {
    pub fn resolve(self) -> Result<Config, UsageError> {
        for (flag, names) in [
            (
                "--encodings",
                self.encodings.iter().map(|e| e.name()).collect(),
            ),
            ("--amo", self.amo.iter().map(|a| a.name()).collect()),
            (
                "--levels",
                self.levels.iter().map(|l| l.name()).collect::<Vec<_>>(),
            ),
        ] {
            named_once(flag, &names, "its rows would be repeated")?;
        }
        let json = Output::resolve_opt(self.json, "--json")?;
        let csv = Output::resolve_opt(self.csv, "--csv")?;
        to_stdout([&json, &csv])?;
        let techniques = self.levels.iter().filter(|l| l.is_technique()).count();
        if self.cross && (techniques == 0 || techniques == self.levels.len()) {
            return Err(UsageError(
                "--cross needs technique levels (logic-singles, …, logic-forcing) and other levels \
                 (up, flp, naked, …) in --levels"
                    .into(),
            ));
        }
        let timeout = seconds_arg("--timeout", self.timeout)?;
        Ok(Config {
            study: Study::new(
                &self.encodings,
                &self.amo,
                self.cage_encoding,
                self.pair_encoding,
                self.levels,
            )
            .with_timeout(timeout),
            per_puzzle: self.per_puzzle,
            cross: self.cross,
            json,
            csv,
            jobs: jobs_arg(self.jobs)?,
            shard: self.shard,
            read: self.input.read_options(),
            files: self.files,
        })
    }
}

/// What `strength` was asked for, resolved from the flags.
pub struct Config {
    /// Every encoding × at-most-one encoding asked for, and the levels.
    pub study: Study,
    pub per_puzzle: bool,
    pub cross: bool,
    pub json: Option<Output>,
    pub csv: Option<Output>,
    pub jobs: usize,
    pub shard: Shard,
    pub read: sudoku_lab::format::ReadOptions,
    pub files: Vec<PathBuf>,
}

pub fn run(config: &Config) -> ExitCode {
    let mut tally = Tally::default();
    let mut rows = Vec::new();
    let mut per_puzzle = String::new();
    let mut crosses = Vec::new();
    for path in input_files(&config.files) {
        let mut items: Vec<Item> = Vec::new();
        batch::each_puzzle(path.as_slice(), &config.read, None, &mut tally, |it| {
            items.push(it)
        });
        // A file that gives no puzzle (unreadable, empty, every puzzle bad: said above) has no
        // rows, as it has none in the other commands.
        if items.is_empty() {
            continue;
        }
        items.retain(|it| config.shard.takes(it.index as u64 - 1));
        let label = batch::file_label(path.first().map_or(Path::new("-"), PathBuf::as_path));
        let (roots, timed_out) = derive_all(config, &items, &mut tally);
        rows.extend(config.study.rows(&label, &roots));
        if config.cross {
            crosses.extend(config.study.cross(&label, &roots));
        }
        if config.per_puzzle {
            for ((item, r), &late) in items.iter().zip(&roots).zip(&timed_out) {
                let weakest: Vec<(&EncodeOptions, &str)> = match r {
                    Some(r) => config.study.weakest(r),
                    // Every encoding's row says it: the deadline came first.
                    None if late => config
                        .study
                        .encodings
                        .iter()
                        .map(|opts| (opts, "timeout"))
                        .collect(),
                    None => continue,
                };
                for (opts, weakest) in weakest {
                    per_puzzle.push_str(&format!(
                        "{}\t{}\t{}\t{}\t{}\t{}\n",
                        item.index,
                        item.file,
                        item.line,
                        opts.encoding.name(),
                        opts.amo.name(),
                        weakest
                    ));
                }
            }
        }
    }
    let mut out = Vec::new();
    if config.per_puzzle {
        out.extend_from_slice(b"index\tfile\tline\tencoding\tamo\tweakest\n");
        out.extend_from_slice(per_puzzle.as_bytes());
        out.push(b'\n');
    }
    write_table(&rows, &mut out);
    for cross in &crosses {
        out.push(b'\n');
        write_cross(cross, &mut out);
    }
    if !config.json.iter().chain(&config.csv).any(Output::is_stdout) {
        batch::write_stdout(&out);
    }
    if let Err(e) = write_files(config, &rows) {
        eprintln!("sudoku-lab: error: {e}");
        return ExitCode::from(1);
    }
    tally.exit_code()
}

/// Each file on its own (one table row group per file); standard input when none is given.
fn input_files(files: &[PathBuf]) -> Vec<Vec<PathBuf>> {
    if files.is_empty() {
        return vec![Vec::new()];
    }
    files.iter().map(|f| vec![f.clone()]).collect()
}

/// Every level's root on every puzzle under every encoding, on `config.jobs` threads, and which
/// puzzles `--timeout` stopped. A puzzle without roots (`None`) is named on standard error: its
/// formula would not fit in memory (bad input), or the time-out came first.
fn derive_all(
    config: &Config,
    items: &[Item],
    tally: &mut Tally,
) -> (Vec<Option<Vec<Root>>>, Vec<bool>) {
    let progress = super::bench::progress_bar(items.len());
    let puzzles: Vec<_> = items.iter().map(|it| &it.puzzle).collect();
    let derived = config
        .study
        .derive_all(&puzzles, config.jobs, None, &|| progress.inc(1));
    progress.finish_and_clear();
    let mut timed_out = vec![false; items.len()];
    let roots = derived
        .into_iter()
        .zip(items)
        .zip(&mut timed_out)
        .map(|((r, item), late)| match r {
            Ok(roots) => Some(roots),
            Err(StrengthError::Deadline) => {
                let s = config.study.timeout.unwrap_or_default().as_secs_f64();
                eprintln!(
                    "{}: timed out after {s} s (--timeout): left out of the rows",
                    item.place()
                );
                (*late, tally.timed_out) = (true, true);
                None
            }
            Err(e) => {
                eprintln!("{}: {e}", item.place());
                tally.bad_input = true;
                None
            }
        })
        .collect();
    (roots, timed_out)
}

/// A figure with two decimals, `-` when there is none.
fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "-".into(), |x| format!("{x:.2}"))
}

/// A cross-table: a title line, then one line per technique level, a `total` column and line.
fn write_cross(cross: &Cross, out: &mut Vec<u8>) {
    out.extend_from_slice(
        format!(
            "cross {} encoding {} amo {}: rows the weakest technique level, columns the weakest \
             other level\n",
            cross.file, cross.encoding, cross.amo
        )
        .as_bytes(),
    );
    let total = |counts: &[usize]| counts.iter().sum::<usize>().to_string();
    let mut lines: Vec<Vec<String>> = vec![std::iter::once("technique")
        .chain(cross.columns.iter().copied())
        .chain(["total"])
        .map(String::from)
        .collect()];
    for (name, counts) in cross.rows.iter().zip(&cross.counts) {
        let mut line = vec![name.to_string()];
        line.extend(counts.iter().map(usize::to_string));
        line.push(total(counts));
        lines.push(line);
    }
    let columns: Vec<usize> = (0..cross.columns.len())
        .map(|c| cross.counts.iter().map(|row| row[c]).sum())
        .collect();
    let mut line = vec!["total".to_string()];
    line.extend(columns.iter().map(usize::to_string));
    line.push(total(&columns));
    lines.push(line);
    write_aligned(&lines, 1, out);
}

/// Lines of cells in columns as wide as their widest cell: the first `text` columns to the
/// left, the others (figures) to the right.
fn write_aligned(lines: &[Vec<String>], text: usize, out: &mut Vec<u8>) {
    let mut width = vec![0; lines.iter().map(Vec::len).max().unwrap_or(0)];
    for line in lines {
        for (w, s) in width.iter_mut().zip(line) {
            *w = (*w).max(s.chars().count());
        }
    }
    for line in lines {
        let mut s = String::new();
        for (k, (w, v)) in width.iter().zip(line).enumerate() {
            if k < text {
                s.push_str(&format!("{v:<w$}  "));
            } else {
                s.push_str(&format!("{v:>w$}  "));
            }
        }
        out.extend_from_slice(s.trim_end().as_bytes());
        out.push(b'\n');
    }
}

fn write_table(rows: &[Row], out: &mut Vec<u8>) {
    let head = [
        "file",
        "encoding",
        "amo",
        "level",
        "puzzles",
        "solved_pct",
        "unassigned_pct",
        "unassigned_vars_pct",
        "contradictions",
    ];
    let mut lines = vec![head.map(String::from).to_vec()];
    lines.extend(rows.iter().map(|r| {
        vec![
            r.file.clone(),
            r.encoding.into(),
            r.amo.into(),
            r.level.into(),
            r.puzzles.to_string(),
            pct(Some(r.solved_pct)),
            pct(r.unassigned_pct),
            pct(r.unassigned_vars_pct),
            r.contradictions.to_string(),
        ]
    }));
    write_aligned(&lines, 4, out);
}

fn write_files(config: &Config, rows: &[Row]) -> Result<(), String> {
    if let Some(output) = &config.json {
        let text = serde_json::to_string_pretty(rows).map_err(|e| e.to_string())?;
        output.write((text + "\n").as_bytes())?;
    }
    if let Some(output) = &config.csv {
        let mut w = csv::Writer::from_writer(Vec::new());
        for r in rows {
            w.serialize(r).map_err(|e| e.to_string())?;
        }
        output.write(&w.into_inner().map_err(|e| e.to_string())?)?;
    }
    Ok(())
}
