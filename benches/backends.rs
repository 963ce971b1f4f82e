//! Criterion benchmarks of every backend in `BackendKind::all()`, one group per data set.
//!
//! - one group per 9×9 set in `../shared/data/9x9` (a fixed sample: the first [`SAMPLE`] puzzles,
//!   the whole of `forum_hardest_1106`): solve with a uniqueness check (count, limit 2);
//! - `count`: every solution of all 10,000 `serg_benchmark` puzzles;
//! - `pyramid`: the NOIP 2009 pyramid optimum of the three judge samples and of the empty grid.
//!
//! Throughput is in puzzles, so criterion prints puzzles/s. A backend too slow for a group is
//! listed in [`TOO_SLOW`], or skipped at run time with `BENCH_SKIP=dlx,sat`. Groups whose data is
//! missing print a message and are skipped. Run with e.g.
//! `cargo bench --bench backends -- 17_clue` (criterion's filter).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use sudoku_lab::backend::{Backend, Limits};
use sudoku_lab::backends::{create, BackendKind};
use sudoku_lab::model::{Puzzle, Shape, Value, Weights};

/// Puzzles taken from the start of each large set.
const SAMPLE: usize = 1000;

/// `(set, sample size or None for the whole file)`.
const SETS: &[(&str, Option<usize>)] = &[
    ("17_clue", Some(SAMPLE)),
    ("magictour_top1465", Some(SAMPLE)),
    ("forum_hardest_1905_11plus", Some(SAMPLE)),
    ("forum_hardest_1106", None),
];

/// `(backend, group)` pairs not worth measuring (a group name, or `*` for all of them).
const TOO_SLOW: &[(&str, &str)] = &[];

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data")
}

fn cases_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/cases")
}

fn read(path: &PathBuf) -> Option<String> {
    match std::fs::read_to_string(path) {
        Ok(s) => Some(s),
        Err(e) => {
            eprintln!("skipping: cannot read {} ({e})", path.display());
            None
        }
    }
}

/// Puzzles of a one-puzzle-per-line 9×9 file: `#` lines skipped, CRLF trimmed, anything after
/// the first 81 characters (e.g. `:count`) ignored.
fn read_lines(text: &str, shape: &Arc<Shape>) -> Vec<Puzzle> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let givens = l
                .bytes()
                .take(81)
                .map(|b| match b {
                    b'1'..=b'9' => (b - b'0') as Value,
                    _ => 0,
                })
                .collect();
            Puzzle::new(shape.clone(), givens).expect("an 81-character puzzle line")
        })
        .collect()
}

/// The backends to measure in `group`, built once.
fn backends(group: &str) -> Vec<(BackendKind, Box<dyn Backend>)> {
    let skip_env = std::env::var("BENCH_SKIP").unwrap_or_default();
    BackendKind::all()
        .into_iter()
        .filter(|k| {
            !skip_env.split(',').any(|s| s.trim() == k.name())
                && !TOO_SLOW
                    .iter()
                    .any(|&(b, g)| b == k.name() && (g == group || g == "*"))
        })
        .filter_map(|k| match create(k, &Default::default()) {
            Ok(b) => Some((k, b)),
            Err(e) => {
                eprintln!("skipping backend {k}: {e}");
                None
            }
        })
        .collect()
}

fn configure<M: criterion::measurement::Measurement>(g: &mut BenchmarkGroup<'_, M>, elems: usize) {
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .throughput(Throughput::Elements(elems as u64));
}

fn solve_unique(c: &mut Criterion) {
    let shape = Arc::new(Shape::standard(9, false).unwrap());
    for &(set, sample) in SETS {
        let Some(text) = read(&data_dir().join(format!("9x9/{set}.txt"))) else {
            continue;
        };
        let mut puzzles = read_lines(&text, &shape);
        puzzles.truncate(sample.unwrap_or(usize::MAX));
        let mut g = c.benchmark_group(set);
        configure(&mut g, puzzles.len());
        for (kind, backend) in backends(set) {
            g.bench_function(kind.name(), |b| {
                b.iter(|| {
                    let mut unique = 0;
                    for p in &puzzles {
                        let r = backend
                            .count(p, 2, &Limits::none())
                            .expect("backend failed");
                        unique += (r.count == 1) as usize;
                    }
                    assert_eq!(unique, puzzles.len(), "{set}: every puzzle is unique");
                })
            });
        }
        g.finish();
    }
}

fn count_all(c: &mut Criterion) {
    let shape = Arc::new(Shape::standard(9, false).unwrap());
    let Some(counts) = read(&data_dir().join("9x9/serg_benchmark.counts")) else {
        return;
    };
    let puzzles = read_lines(&counts, &shape);
    let expected: u64 = counts
        .lines()
        .filter_map(|l| l.split(':').nth(1))
        .map(|k| k.trim().parse::<u64>().expect("a count"))
        .sum();
    let mut g = c.benchmark_group("count");
    configure(&mut g, puzzles.len());
    for (kind, backend) in backends("count") {
        g.bench_function(kind.name(), |b| {
            b.iter(|| {
                let total: u64 = puzzles
                    .iter()
                    .map(|p| {
                        backend
                            .count(p, u64::MAX, &Limits::none())
                            .expect("backend failed")
                            .count
                    })
                    .sum();
                assert_eq!(total, expected, "serg_benchmark: total solutions");
            })
        });
    }
    g.finish();
}

fn pyramid(c: &mut Criterion) {
    let shape = Arc::new(Shape::standard(9, false).unwrap());
    let weights = Arc::new(Weights::pyramid(9));
    let mut cases: Vec<(String, Puzzle, Option<i64>)> = Vec::new();
    for i in 0..3 {
        let dir = cases_dir().join("noip2009");
        let (Some(input), Some(output)) = (
            read(&dir.join(format!("sample{i}.in"))),
            read(&dir.join(format!("sample{i}.out"))),
        ) else {
            continue;
        };
        let givens: Vec<Value> = input
            .split_whitespace()
            .map(|t| t.parse().expect("a digit"))
            .collect();
        let p = Puzzle::new(shape.clone(), givens).expect("a 9×9 grid");
        cases.push((format!("sample{i}"), p, output.trim().parse().ok()));
    }
    cases.push((
        "empty".into(),
        Puzzle::new(shape.clone(), vec![0; 81]).unwrap(),
        Some(2906),
    ));
    let mut g = c.benchmark_group("pyramid");
    configure(&mut g, 1);
    for (kind, backend) in backends("pyramid") {
        for (name, p, expected) in &cases {
            let p = p.clone().with_weights(weights.clone()).unwrap();
            g.bench_function(format!("{}/{name}", kind.name()), |b| {
                b.iter(|| {
                    let o = backend
                        .optimize(&p, &Limits::none())
                        .expect("backend failed");
                    if let (sudoku_lab::backend::Optimum::Optimal { score, .. }, Some(e)) =
                        (&o, expected)
                    {
                        assert_eq!(score, e, "{name}");
                    }
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, solve_unique, count_all, pyramid);
criterion_main!(benches);
