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
//!
//! Time is the benchmark thread's *CPU time* ([`ThreadCpu`], from `/proc/thread-self/schedstat`)
//! rather than wall-clock time, because the benchmark machine is shared and wall-clock figures
//! swing with its load; where that file is missing (not Linux) wall-clock time is used.

/// mimalloc: varisat and the matrix builders allocate many small vectors per puzzle.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::measurement::{Measurement, ValueFormatter};
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

/// `(backend, group)` pairs not worth measuring (a group name, or `*` for all of them):
/// counting 1,982,741 solutions by re-solving (sat: one blocking clause each; ilp: one MIP solve
/// each; cp: one search each) takes hours, and dlx does not prove the empty 9×9 pyramid within
/// minutes.
/// ilp's 9×9 throughput (tens of puzzles/s) is measured by `examples/ilp_bench.rs` instead.
const TOO_SLOW: &[(&str, &str)] = &[
    ("sat", "count"),
    ("ilp", "17_clue"),
    ("ilp", "magictour_top1465"),
    ("ilp", "forum_hardest_1905_11plus"),
    ("ilp", "forum_hardest_1106"),
    ("ilp", "count"),
    ("dlx", "pyramid"),
    ("cp", "count"),
];

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

/// CPU time of the calling thread, in nanoseconds (wall-clock time since the first call when
/// the kernel does not report it).
fn thread_cpu_ns() -> f64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .unwrap_or_else(|| START.get_or_init(Instant::now).elapsed().as_nanos() as f64)
}

/// A criterion measurement of the benchmark thread's CPU time, in nanoseconds.
struct ThreadCpu;

impl Measurement for ThreadCpu {
    type Intermediate = f64;
    type Value = f64;
    fn start(&self) -> f64 {
        thread_cpu_ns()
    }
    fn end(&self, start: f64) -> f64 {
        thread_cpu_ns() - start
    }
    fn add(&self, a: &f64, b: &f64) -> f64 {
        a + b
    }
    fn zero(&self) -> f64 {
        0.0
    }
    fn to_f64(&self, v: &f64) -> f64 {
        *v
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &CpuFormatter
    }
}

/// Formats nanoseconds of CPU time, and elements per CPU-second.
struct CpuFormatter;

impl ValueFormatter for CpuFormatter {
    fn scale_values(&self, typical: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = match typical {
            t if t < 1e3 => (1.0, "ns"),
            t if t < 1e6 => (1e-3, "µs"),
            t if t < 1e9 => (1e-6, "ms"),
            _ => (1e-9, "s"),
        };
        values.iter_mut().for_each(|v| *v *= factor);
        unit
    }
    fn scale_throughputs(&self, typical: f64, t: &Throughput, values: &mut [f64]) -> &'static str {
        let per = match *t {
            Throughput::Elements(k) | Throughput::ElementsAndBytes { elements: k, .. } => k,
            Throughput::Bytes(k) | Throughput::BytesDecimal(k) => k,
            Throughput::Bits(k) => k,
        } as f64;
        // elements per CPU-second, scaled by the typical value
        let (factor, unit) = match per * 1e9 / typical {
            r if r < 1e3 => (1.0, "elem/cpu-s"),
            r if r < 1e6 => (1e-3, "Kelem/cpu-s"),
            _ => (1e-6, "Melem/cpu-s"),
        };
        values.iter_mut().for_each(|v| *v = per * 1e9 / *v * factor);
        unit
    }
    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

type Crit = Criterion<ThreadCpu>;

fn configure<M: Measurement>(g: &mut BenchmarkGroup<'_, M>, elems: usize) {
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .throughput(Throughput::Elements(elems as u64));
}

fn solve_unique(c: &mut Crit) {
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

fn count_all(c: &mut Crit) {
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

fn pyramid(c: &mut Crit) {
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

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(ThreadCpu);
    targets = solve_unique, count_all, pyramid
}
criterion_main!(benches);
