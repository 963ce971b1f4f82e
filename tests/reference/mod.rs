//! The reference DIMACS exports committed under `encodings/dimacs/`: the judge samples and empty
//! grids under every encoding, and a generated `README.md` with their sizes and the sizes of the
//! encodings on 9×9, 16×16 and 25×25 grids (empty, and a pattern puzzle plain and simplified).
//!
//! [`regenerate`] writes them all; `tests/encodings.rs` regenerates into a temporary directory and
//! compares byte for byte, so the committed files cannot drift from the encoder unnoticed
//! (`UPDATE_ENCODINGS=1 cargo test --test encodings` rewrites them). Files above about 1 MB (every
//! 25×25 encoding, 2 to 12 MB each) are described in the README tables only.
//!
//! Judge inputs are read by [`judge::run`] itself (through a backend that records the puzzles it
//! is given, answering with `dfs`), so the exported puzzle is exactly the one the judge mode
//! solves.

use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use sudoku_lab::backend::{Backend, BackendError, Count, Limits, Optimum};
use sudoku_lab::backends::dfs::Dfs;
use sudoku_lab::judge::{self, JudgeError, Problem};
use sudoku_lab::model::{Grid, Puzzle, Shape, Value};
use sudoku_lab::sat::encode::{
    self, Amo, CageEncoding, EncodeOptions, EncodeStats, Encoding, Numbering, Part,
};
use sudoku_lab::sat::Cnf;

/// Why the reference files could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReferenceError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error("{path}: {source}")]
    Judge { path: PathBuf, source: JudgeError },
    #[error("{path}: no puzzle in this judge input")]
    Empty { path: PathBuf },
    #[error("the pattern puzzle for size {0}: {1}")]
    Pattern(usize, String),
}

/// The judge samples exported, as `(problem, file under the cases directory, puzzle index)`.
pub const SAMPLES: &[(Problem, &str, usize)] = &[
    (Problem::Noip2009, "noip2009/sample0.in", 0),
    (Problem::Noip2009, "noip2009/sample1.in", 0),
    (Problem::Noip2009, "noip2009/sample2.in", 0),
    (Problem::Hdu1426, "hdu1426/sample.in", 0),
    (Problem::Hdu4069, "hdu4069/sample.in", 0),
];

/// The Killer puzzle exported under every cage encoding: the first of
/// `benches/data/killer1000.txt` (`sudoku-lab generate --killer --unique --count 1000 --seed 1`),
/// no givens, 32 cages of 1 to 5 cells.
pub const KILLER_SAMPLE: &str =
    "................................................................................. \
     00123455566173895a66178895bcddddd9bbefggghhbbiijjjjhhkillmnopqkiilroopsktttuoopvv \
     11,15,6,4,7,26,19,13,15,9,8,28,6,28,1,5,17,19,26,24,14,12,7,6,21,16,4,8,1,13,3,13";

/// The puzzle of [`KILLER_SAMPLE`].
pub fn killer_sample() -> Puzzle {
    let entries = sudoku_lab::format::read_puzzles(KILLER_SAMPLE, &Default::default());
    match entries.into_iter().next() {
        Some(Ok(entry)) => entry.puzzle,
        other => unreachable!("the Killer sample reads: {other:?}"),
    }
}

/// Sizes of the empty grids exported as files (larger ones appear in the tables only).
pub const EMPTY_FILE_SIZES: &[usize] = &[9, 16];
/// Sizes in the tables.
pub const TABLE_SIZES: &[usize] = &[9, 16, 25];

/// One exported file.
struct Export {
    file: String,
    source: String,
    puzzle: Puzzle,
    opts: EncodeOptions,
}

/// Records every puzzle the judge hands it, answering with `dfs`.
struct Recorder {
    dfs: Dfs,
    seen: Mutex<Vec<Puzzle>>,
}

impl Recorder {
    fn record(&self, p: &Puzzle) {
        if let Ok(mut seen) = self.seen.lock() {
            seen.push(p.clone());
        }
    }
}

impl Backend for Recorder {
    fn name(&self) -> &'static str {
        "recorder"
    }
    fn solve(&self, p: &Puzzle, l: &Limits) -> Result<Option<Grid>, BackendError> {
        self.record(p);
        self.dfs.solve(p, l)
    }
    fn count(&self, p: &Puzzle, limit: u64, l: &Limits) -> Result<Count, BackendError> {
        self.record(p);
        self.dfs.count(p, limit, l)
    }
    fn optimize(&self, p: &Puzzle, l: &Limits) -> Result<Optimum, BackendError> {
        self.record(p);
        self.dfs.optimize(p, l)
    }
}

/// The puzzles of a judge input, exactly as [`judge::run`] reads them, in input order.
pub fn judge_puzzles(problem: Problem, input: &str) -> Result<Vec<Puzzle>, JudgeError> {
    let rec = Recorder {
        dfs: Dfs::new(),
        seen: Mutex::new(Vec::new()),
    };
    judge::run(problem, input, &rec, &Limits::none())?;
    Ok(rec.seen.into_inner().unwrap_or_default())
}

/// The empty `n`×`n` grid with standard boxes.
fn empty(n: usize) -> Result<Puzzle, ReferenceError> {
    let shape = Shape::standard(n, false).map_err(|e| ReferenceError::Pattern(n, e.to_string()))?;
    Puzzle::new(Arc::new(shape), vec![0; n * n])
        .map_err(|e| ReferenceError::Pattern(n, e.to_string()))
}

/// The pattern puzzle of side `n = b²`: the grid `((r mod b)·b + ⌊r / b⌋ + c) mod n + 1` with the
/// cells where `(3r + 7c) mod 5 < 2` given (40 %). It has at least that solution.
pub fn pattern(n: usize) -> Result<Puzzle, ReferenceError> {
    let b = (n as f64).sqrt().round() as usize;
    let p = empty(n)?;
    let givens = (0..n * n)
        .map(|cell| {
            let (r, c) = (cell / n, cell % n);
            if (3 * r + 7 * c) % 5 < 2 {
                (((r % b) * b + r / b + c) % n + 1) as Value
            } else {
                0
            }
        })
        .collect();
    Puzzle::new(p.shape_arc().clone(), givens)
        .map_err(|e| ReferenceError::Pattern(n, e.to_string()))
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> ReferenceError + '_ {
    move |source| ReferenceError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn default_opts(encoding: Encoding) -> EncodeOptions {
    EncodeOptions {
        encoding,
        ..EncodeOptions::default()
    }
}

/// The exported files, in a fixed order.
fn exports(cases: &Path) -> Result<Vec<Export>, ReferenceError> {
    let mut out = Vec::new();
    for &(problem, file, index) in SAMPLES {
        let path = cases.join(file);
        let text = fs::read_to_string(&path).map_err(io_err(&path))?;
        let puzzles = judge_puzzles(problem, &text).map_err(|source| ReferenceError::Judge {
            path: path.clone(),
            source,
        })?;
        let puzzle = puzzles
            .into_iter()
            .nth(index)
            .ok_or(ReferenceError::Empty { path: path.clone() })?;
        let stem = file.trim_end_matches(".in").replace('/', "-");
        for encoding in Encoding::ALL {
            out.push(Export {
                file: format!("{stem}.{encoding}.cnf"),
                source: format!("`tests/data/cases/{file}`"),
                puzzle: puzzle.clone(),
                opts: default_opts(encoding),
            });
        }
        if problem == Problem::Hdu1426 {
            out.push(Export {
                file: format!("{stem}.extended-plain.cnf"),
                source: format!("`tests/data/cases/{file}`"),
                puzzle,
                opts: EncodeOptions {
                    simplify: false,
                    ..EncodeOptions::default()
                },
            });
        }
    }
    for &n in EMPTY_FILE_SIZES {
        for encoding in Encoding::ALL {
            out.push(Export {
                file: format!("empty-{n}x{n}.{encoding}.cnf"),
                source: format!("empty {n}×{n}"),
                puzzle: empty(n)?,
                opts: default_opts(encoding),
            });
        }
    }
    for cage in CageEncoding::ALL {
        out.push(Export {
            file: format!("killer9.{cage}.cnf"),
            source: "`reference::KILLER_SAMPLE`".into(),
            puzzle: killer_sample(),
            opts: EncodeOptions {
                cage,
                ..EncodeOptions::default()
            },
        });
    }
    Ok(out)
}

/// Size of an encoding: its statistics, the DIMACS text's length and the free cell variables.
struct Measured {
    stats: EncodeStats,
    bytes: usize,
    free_vars: usize,
}

fn dimacs_bytes(puzzle: &Puzzle, opts: &EncodeOptions) -> Result<(Vec<u8>, Measured), io::Error> {
    let mut bytes = Vec::new();
    let stats = encode::to_dimacs(puzzle, opts, &mut bytes)?;
    let mut cnf = Cnf::new();
    let enc = encode::encode(puzzle, opts, Numbering::Formula, &mut cnf);
    let free_vars = (0..puzzle.shape().cells())
        .map(|c| enc.decoder.candidates(c).len())
        .sum();
    let len = bytes.len();
    Ok((
        bytes,
        Measured {
            stats,
            bytes: len,
            free_vars,
        },
    ))
}

fn measure(puzzle: &Puzzle, opts: &EncodeOptions) -> Result<Measured, ReferenceError> {
    dimacs_bytes(puzzle, opts)
        .map(|(_, m)| m)
        .map_err(io_err(Path::new("<memory>")))
}

/// `1234567` → `1,234,567`.
fn thousands(x: u64) -> String {
    let s = x.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// Writes every reference file and `README.md` into `out` (created if needed), reading the judge
/// samples from `cases` (the repository's `tests/data/cases`). Returns the paths written.
/// Files of `out` that are not reference files are left alone.
pub fn regenerate(cases: &Path, out: &Path) -> Result<Vec<PathBuf>, ReferenceError> {
    fs::create_dir_all(out).map_err(io_err(out))?;
    let mut written = Vec::new();
    let mut files_table = String::new();
    for e in exports(cases)? {
        let (bytes, m) = dimacs_bytes(&e.puzzle, &e.opts).map_err(io_err(Path::new(&e.file)))?;
        let path = out.join(&e.file);
        fs::write(&path, bytes).map_err(io_err(&path))?;
        written.push(path);
        let t = m.stats.total();
        let encoding = match e.puzzle.cages().next() {
            Some(_) => format!("{}, cages {}", e.opts.encoding, e.opts.cage),
            None => e.opts.encoding.to_string(),
        };
        let _ = writeln!(
            files_table,
            "| `{}` | {} | {} | {} | {} | {} | {} | {} | {} |",
            e.file,
            e.source,
            encoding,
            e.opts.amo,
            if e.opts.simplify {
                "simplified"
            } else {
                "unit clauses"
            },
            thousands(m.free_vars as u64),
            thousands(t.vars),
            thousands(t.clauses),
            thousands(t.lits),
        );
    }
    let readme = readme(&files_table)?;
    let path = out.join("README.md");
    fs::write(&path, readme).map_err(io_err(&path))?;
    written.push(path);
    Ok(written)
}

/// The names of the files [`regenerate`] writes (for drift checks: anything else in the folder
/// is stale).
pub fn file_names(cases: &Path) -> Result<Vec<String>, ReferenceError> {
    let mut names: Vec<String> = exports(cases)?.into_iter().map(|e| e.file).collect();
    names.push("README.md".into());
    Ok(names)
}

fn readme(files_table: &str) -> Result<String, ReferenceError> {
    let mut r = String::new();
    r += "# DIMACS reference exports (SAT encodings)\n\n";
    r += "Generated by `regenerate` in `tests/reference/mod.rs`; do not edit by hand. `tests/encodings.rs`\n";
    r += "regenerates everything into a temporary directory and fails when a byte differs. After an\n";
    r += "intended change to the encoder, rewrite this folder with\n\n";
    r += "```sh\nUPDATE_ENCODINGS=1 cargo test --test encodings\n```\n\n";
    r += "One file: `sudoku_lab::sat::encode::to_dimacs(&puzzle, &EncodeOptions { .. }, &mut out)`.\n";
    r += "Any file can be given to a SAT solver as is (`cadical FILE`, `picosat FILE`, `minisat FILE OUT`);\n";
    r += "the `sat-ext` backend does exactly that, one run per solution.\n\n";
    r += "## Variables\n\n";
    r +=
        "For an `n`×`n` grid, `x(cell, digit)` (\"the cell holds the digit\") is DIMACS variable\n";
    r += "`cell·n + digit` with `cell = row·n + col` (rows and columns from 0, digits 1..n): variables 1..n³.\n";
    r += "Auxiliary variables (at-most-one helpers, triads) are numbered after n³. A model's positive\n";
    r += "literals ≤ n³ give the grid. With given simplification (the default) the variables of given\n";
    r += "cells and of digits a given excludes from its peers are fixed and appear in no clause; those\n";
    r += "cells keep their given. Every file starts with `c` lines saying this, listing the givens and\n";
    r += "the size of each part.\n\n";
    r += "## Encodings\n\n";
    r += "| encoding | clauses |\n|---|---|\n";
    r += "| `minimal` | each cell holds at least one digit; each digit at most once per house |\n";
    r += "| `efficient` | minimal + each cell holds at most one digit |\n";
    r += "| `extended` (default) | efficient + each digit at least once per house |\n";
    r += "| `triad` | extended + a variable per line ∩ region segment and digit, exactly one segment per (line, digit) and per (region, direction, digit), so unit propagation finds pointing / claiming |\n\n";
    r += "Houses are rows, columns and regions (boxes, or jigsaw regions for `hdu4069`). At-most-one\n";
    r += "constraints: `auto` (default) is pairwise up to 9 literals and ladder above; `pairwise`,\n";
    r += "`ladder`, `product`, `bimander`, `commander` as named (rustsat's implementations). Simplified\n";
    r += "(default): givens removed as described above; plain: one unit clause per given.\n\n";
    r += "## Files\n\n";
    r += "\"free\" counts the cell variables left free by simplification; \"variables\" is the header's count.\n";
    r += "Every 25×25 encoding (2 to 12 MB of text) is described in the tables below only.\n\n";
    r += "| file | puzzle | encoding | at-most-one | givens | free | variables | clauses | literals |\n";
    r += "|---|---|---|---|---|---:|---:|---:|---:|\n";
    r += files_table;
    r += "\n## Sizes by grid\n\n";
    r += "Default at-most-one (`auto`). *Empty*: the empty grid (plain and simplified coincide).\n";
    r += "*Pattern*: `reference::pattern(n)`, the grid `((r mod b)·b + ⌊r/b⌋ + c) mod n + 1` with the cells\n";
    r += "where `(3r + 7c) mod 5 < 2` given (40 % of the cells), plain and simplified. MB = DIMACS text.\n\n";
    r += "| grid | encoding | empty: variables | clauses | literals | MB | pattern plain: clauses | literals | pattern simplified: free | clauses | literals |\n";
    r += "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for &n in TABLE_SIZES {
        let (e, p) = (empty(n)?, pattern(n)?);
        for encoding in Encoding::ALL {
            let opts = default_opts(encoding);
            let me = measure(&e, &opts)?;
            let plain = measure(
                &p,
                &EncodeOptions {
                    simplify: false,
                    ..opts
                },
            )?;
            let simp = measure(&p, &opts)?;
            let (te, tp, ts) = (me.stats.total(), plain.stats.total(), simp.stats.total());
            let _ = writeln!(
                r,
                "| {n}×{n} | {encoding} | {} | {} | {} | {:.2} | {} | {} | {} | {} | {} |",
                thousands(te.vars),
                thousands(te.clauses),
                thousands(te.lits),
                me.bytes as f64 / 1e6,
                thousands(tp.clauses),
                thousands(tp.lits),
                thousands(simp.free_vars as u64),
                thousands(ts.clauses),
                thousands(ts.lits),
            );
        }
    }
    r += "\n## Killer cages\n\n";
    r += "`reference::KILLER_SAMPLE` (9×9, no givens, 32 cages), `extended` encoding, simplified, under each\n";
    r +=
        "`--cage-encoding`. Each digit is at most once per cage in all of them; the sum is then:\n";
    r += "`combinations`, a selector variable per digit set reaching the sum (exactly one) and a variable\n";
    r += "per digit \"the cage holds d\" tied to the cells; `gte`, `dpw`, `adder`, the pseudo-Boolean\n";
    r += "`Σ d·x(c, d) = S` through rustsat's generalized totalizer, dynamic polynomial watchdog and binary\n";
    r += "adder (the first two as two upper bounds: the sum, and the sum of the digits left out). The\n";
    r += "`cage` columns count only the clauses and variables the cages add.\n\n";
    r += "| cage encoding | cage: variables | clauses | literals | total: variables | clauses | literals | MB |\n";
    r += "|---|---:|---:|---:|---:|---:|---:|---:|\n";
    let k = killer_sample();
    for cage in CageEncoding::ALL {
        let m = measure(
            &k,
            &EncodeOptions {
                cage,
                ..EncodeOptions::default()
            },
        )?;
        let (c, t) = (m.stats.part(Part::Cage), m.stats.total());
        let _ = writeln!(
            r,
            "| {cage} | {} | {} | {} | {} | {} | {} | {:.2} |",
            thousands(c.vars),
            thousands(c.clauses),
            thousands(c.lits),
            thousands(t.vars),
            thousands(t.clauses),
            thousands(t.lits),
            m.bytes as f64 / 1e6
        );
    }
    r += "\n## At-most-one variants\n\n";
    r += "Empty grids, `extended` encoding.\n\n";
    r += "| grid | at-most-one | variables | clauses | literals | MB |\n";
    r += "|---|---|---:|---:|---:|---:|\n";
    for &n in &TABLE_SIZES[1..] {
        let e = empty(n)?;
        for amo in Amo::ALL {
            let m = measure(
                &e,
                &EncodeOptions {
                    amo,
                    ..EncodeOptions::default()
                },
            )?;
            let t = m.stats.total();
            let _ = writeln!(
                r,
                "| {n}×{n} | {amo} | {} | {} | {} | {:.2} |",
                thousands(t.vars),
                thousands(t.clauses),
                thousands(t.lits),
                m.bytes as f64 / 1e6
            );
        }
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(752_500), "752,500");
        assert_eq!(thousands(1_562_500), "1,562,500");
    }

    #[test]
    fn pattern_givens_are_a_valid_partial_grid() {
        for n in [4, 9, 16, 25] {
            let p = pattern(n).unwrap();
            let given = p.givens().iter().filter(|&&g| g != 0).count();
            assert!(
                given * 10 >= n * n * 3 && given * 10 <= n * n * 5,
                "{n}: {given}"
            );
            // The full pattern grid is a solution: every house holds every digit once.
            let b = (n as f64).sqrt() as usize;
            let full: Vec<Value> = (0..n * n)
                .map(|cell| (((cell / n % b) * b + cell / n / b + cell % n) % n + 1) as Value)
                .collect();
            let grid = Grid::new(n, full);
            assert!(sudoku_lab::check::verify(&p, &grid).is_ok(), "{n}");
        }
    }
}
