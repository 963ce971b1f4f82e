//! Puzzles per second of the `sat` backend with a uniqueness check (count limit 2), and the time
//! to count a 122-solution puzzle.
//!
//! ```text
//! cargo run --release --example sat_bench [-- [DATA_DIR] [MAX_PUZZLES] [ENCODING] [AMO]]
//! ```
//! DATA_DIR defaults to `../shared/data/9x9`; sets missing there are skipped with a message.
//! `SAT_PROPAGATE=0` turns off the singles / locked-candidates pass before encoding
//! (`--no-propagate`), for a pure-SAT comparison.

/// mimalloc: varisat and the matrix builders allocate many small vectors per puzzle.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::sync::Arc;
use std::time::Instant;

use sudoku_lab::backend::{Limits, Optimum};
use sudoku_lab::backends::{self, sat::SatOptions, BackendKind, BackendOptions};
use sudoku_lab::check;
use sudoku_lab::model::{Puzzle, Shape};

/// CPU time of this thread in seconds (Linux `/proc`; `None` elsewhere). The machine may be
/// shared, so wall time alone overstates the cost.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let after = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn read_set(path: &std::path::Path, max: usize, shape: &Arc<Shape>) -> Option<Vec<Puzzle>> {
    let text = std::fs::read_to_string(path).ok()?;
    let puzzles = text
        .lines()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split(':').next().unwrap_or(""))
        .filter(|l| l.len() == 81)
        .take(max)
        .map(|l| {
            let g = l
                .chars()
                .map(|c| c.to_digit(10).unwrap_or(0) as u16)
                .collect();
            Puzzle::new(shape.clone(), g).expect("81 digits")
        })
        .collect();
    Some(puzzles)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = std::path::PathBuf::from(args.first().map_or("../shared/data/9x9", |s| s.as_str()));
    let max: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let mut sat = SatOptions::default();
    if let Some(e) = args.get(2) {
        sat.encoding = e.parse().expect("encoding");
    }
    if let Some(a) = args.get(3) {
        sat.amo = a.parse().expect("amo");
    }
    sat.propagate = std::env::var("SAT_PROPAGATE").map_or(true, |v| v != "0");
    println!(
        "sat backend: encoding {}, amo {}, simplify {}, propagate {}",
        sat.encoding, sat.amo, sat.simplify, sat.propagate
    );
    let backend = backends::create(
        BackendKind::Sat,
        &BackendOptions {
            sat,
            ..Default::default()
        },
    )
    .expect("sat");
    let shape = Arc::new(Shape::standard(9, false).expect("9x9"));
    let none = Limits::none();
    for (name, limit) in [
        ("17_clue.txt", max),
        ("magictour_top1465.txt", usize::MAX),
        ("forum_hardest_1905_11plus.txt", max),
    ] {
        let Some(puzzles) = read_set(&dir.join(name), limit, &shape) else {
            println!("{name}: not found in {}, skipped", dir.display());
            continue;
        };
        let start = Instant::now();
        let cpu0 = cpu_seconds();
        let mut unique = 0;
        let mut answers = Vec::with_capacity(puzzles.len());
        for p in &puzzles {
            let c = backend.count(p, 2, &none).expect("count");
            unique += (c.count == 1) as usize;
            answers.push(c);
        }
        let secs = start.elapsed().as_secs_f64();
        let cpu = cpu_seconds().zip(cpu0).map(|(b, a)| b - a);
        for (p, c) in puzzles.iter().zip(&answers) {
            check::verify_witnesses(p, c.count, &c.witnesses).expect("checked");
        }
        let per_cpu = cpu.map_or(String::new(), |c| {
            format!(", CPU {c:.2} s = {:.0} puzzles/s", puzzles.len() as f64 / c)
        });
        println!(
            "{name:32} {:6} puzzles wall {:7.3} s = {:6.0} puzzles/s{per_cpu} ({unique} unique)",
            puzzles.len(),
            secs,
            puzzles.len() as f64 / secs
        );
    }
    // Optimize: the NOIP 2009 samples (pyramid weights) and the empty 9×9.
    let weights = Arc::new(sudoku_lab::model::Weights::pyramid(9));
    let mut cases = Vec::new();
    for i in 0..3 {
        let path = format!("tests/data/sat/noip2009-sample{i}.in");
        if let Ok(text) = std::fs::read_to_string(&path) {
            let g: Vec<u16> = text
                .split_whitespace()
                .filter_map(|t| t.parse().ok())
                .collect();
            cases.push((path, g));
        }
    }
    cases.push(("empty 9x9".into(), vec![0; 81]));
    for (name, g) in cases {
        let p = Puzzle::new(shape.clone(), g)
            .and_then(|p| p.with_weights(weights.clone()))
            .expect("9x9");
        let start = Instant::now();
        let cpu0 = cpu_seconds();
        // The empty grid is not proved within minutes: give it (and any case) 10 s.
        let o = match backend.optimize(&p, &Limits::timeout(std::time::Duration::from_secs(10))) {
            Ok(o) => o,
            Err(e) => {
                println!("optimize {name}: {e}");
                continue;
            }
        };
        let cpu = cpu_seconds().zip(cpu0).map_or(0.0, |(b, a)| b - a);
        let result = match o {
            Optimum::Optimal { score, .. } => format!("optimal {score}"),
            Optimum::Incomplete { score, .. } => format!("not proved {score}"),
            Optimum::NoSolution => "no solution".into(),
        };
        println!(
            "optimize {name}: {result}, wall {:.2} s, CPU {cpu:.2} s",
            start.elapsed().as_secs_f64()
        );
    }
    let p122 = "8.........59.......76...........2468....9.217...6..593...751946...936182...824735";
    let g = p122
        .chars()
        .map(|c| c.to_digit(10).unwrap_or(0) as u16)
        .collect();
    let p = Puzzle::new(shape, g).expect("81 digits");
    let runs = 20;
    let start = Instant::now();
    let cpu0 = cpu_seconds();
    let mut count = 0;
    for _ in 0..runs {
        count = backend.count(&p, 1_000_000, &none).expect("count").count;
    }
    let cpu = cpu_seconds().zip(cpu0).map_or(String::new(), |(b, a)| {
        format!(", CPU {:.2} ms", (b - a) * 1000.0 / runs as f64)
    });
    println!(
        "count of the 122-solution puzzle: {count} in wall {:.2} ms{cpu} (mean of {runs})",
        start.elapsed().as_secs_f64() * 1000.0 / runs as f64
    );
}
