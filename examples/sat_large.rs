//! Solves large grids with the `sat` backend and checks each answer with the independent checker.
//!
//! ```text
//! cargo run --release --example sat_large -- [FILE...]
//! ```
//! Without files it runs every `../shared/data/large/sudoku-N-k.txt` with `N ≤ 225` (skipping,
//! with a message, when the folder is missing). Files hold `N` rows of `N` whitespace-separated
//! numbers (`0` or `.` empty), or one line of `N²` characters. `SAT_ENCODING` and `SAT_AMO`
//! pick the encoding (default: the backend's), `SAT_BACKEND` the backend (`sat`, or `cadical`
//! in a build with `--features cadical`).

/// mimalloc: varisat and the matrix builders allocate many small vectors per puzzle.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::sync::Arc;
use std::time::Instant;

use sudoku_lab::backend::Limits;
use sudoku_lab::backends::{self, sat::SatOptions, BackendKind, BackendOptions};
use sudoku_lab::model::{Puzzle, Shape};
use sudoku_lab::task::{self, Task};

fn read(path: &std::path::Path) -> Result<Puzzle, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let toks: Vec<&str> = text.split_whitespace().collect();
    let values: Vec<u16> = if toks.len() == 1 {
        toks[0]
            .chars()
            .map(|c| c.to_digit(36).unwrap_or(0) as u16)
            .collect()
    } else {
        toks.iter()
            .map(|t| if *t == "." { Ok(0) } else { t.parse() })
            .collect::<Result<_, _>>()
            .map_err(|e| format!("{e}"))?
    };
    let n = (values.len() as f64).sqrt().round() as usize;
    let shape = Shape::standard(n, false).map_err(|e| e.to_string())?;
    Puzzle::new(Arc::new(shape), values).map_err(|e| e.to_string())
}

fn main() {
    let mut files: Vec<std::path::PathBuf> = std::env::args().skip(1).map(Into::into).collect();
    if files.is_empty() {
        let dir = std::path::Path::new("../shared/data/large");
        let Ok(entries) = std::fs::read_dir(dir) else {
            println!("{} not found: nothing to run", dir.display());
            return;
        };
        let mut found: Vec<(usize, std::path::PathBuf)> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter_map(|p| {
                let name = p.file_name()?.to_str()?.to_string();
                let n: usize = name
                    .strip_prefix("sudoku-")?
                    .split('-')
                    .next()?
                    .parse()
                    .ok()?;
                (n <= 225).then_some((n, p))
            })
            .collect();
        found.sort();
        files = found.into_iter().map(|(_, p)| p).collect();
    }
    let mut sat = SatOptions::default();
    if let Ok(e) = std::env::var("SAT_ENCODING") {
        sat.encoding = e.parse().expect("SAT_ENCODING");
    }
    if let Ok(a) = std::env::var("SAT_AMO") {
        sat.amo = a.parse().expect("SAT_AMO");
    }
    let kind: BackendKind = std::env::var("SAT_BACKEND")
        .unwrap_or_else(|_| "sat".into())
        .parse()
        .expect("SAT_BACKEND");
    println!("backend {kind}, encoding {}, amo {}", sat.encoding, sat.amo);
    let backend = backends::create(
        kind,
        &BackendOptions {
            sat,
            ..Default::default()
        },
    )
    .expect("backend");
    for f in files {
        let p = match read(&f) {
            Ok(p) => p,
            Err(e) => {
                println!("{}: {e}", f.display());
                continue;
            }
        };
        let start = Instant::now();
        let r = task::run(backend.as_ref(), &p, Task::Solve, &Limits::none());
        let secs = start.elapsed().as_secs_f64();
        let status = match r {
            Ok(a) => a.status().to_string(),
            Err(e) => format!("error: {e}"),
        };
        println!(
            "{:40} side {:3} {:8.3} s  {status} (checked)",
            f.display(),
            p.size(),
            secs
        );
    }
}
