//! Timings of the `ilp` backend for docs/benchmarks.md: per-puzzle median time of a proved optimum
//! on the NOIP 2009 samples and on `tests/data/pyramid50.txt` (50 pyramid puzzles, 24–30 givens),
//! the empty 9×9 pyramid, and solve + unique throughput on `magictour_top1465` (first puzzles).
//!
//! ```text
//! cargo run --release --example ilp_bench [-- --solver highs] [--repeat 3] [--magictour 100]
//! cargo run --release --example ilp_bench -- --generate   # rewrites tests/data/pyramid50.txt
//! ```
//! Add `--features highs` to time HiGHS. Every answer passes through `task::run` (the checker).

/// mimalloc: varisat and the matrix builders allocate many small vectors per puzzle.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use sudoku_lab::backend::{Backend, Limits};
use sudoku_lab::backends::ilp::{IlpOptions, IlpSolver};
use sudoku_lab::backends::{self, BackendKind, BackendOptions};
use sudoku_lab::model::{Puzzle, Shape, Value, Weights};
use sudoku_lab::task::{self, Answer, Task};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn puzzle_from_digits(digits: impl Iterator<Item = Value>) -> Puzzle {
    let shape = Arc::new(Shape::standard(9, false).expect("9×9 shape"));
    Puzzle::new(shape, digits.collect()).expect("a 9×9 puzzle")
}

/// One 81-character line, `.` or `0` for empty.
fn parse_line(line: &str) -> Puzzle {
    puzzle_from_digits(line.trim().bytes().map(|b| match b {
        b'1'..=b'9' => (b - b'0') as Value,
        _ => 0,
    }))
}

fn lines(path: &Path) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(path).ok()?;
    Some(
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(String::from)
            .collect(),
    )
}

fn pyramid(p: Puzzle) -> Puzzle {
    p.with_weights(Arc::new(Weights::pyramid(9)))
        .expect("9×9 weights")
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

/// CPU time of this thread (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)` on Linux), or wall time
/// elsewhere. On a shared, loaded machine wall time mostly measures the other processes; with no
/// deadline the solver runs on the calling thread, so thread CPU time is its cost.
#[derive(Clone, Copy)]
enum Clock {
    Cpu(Duration),
    Wall(Instant),
}

#[cfg(target_os = "linux")]
fn thread_cpu_time() -> Option<Duration> {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut ts = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec (64-bit Linux layout) for the call's duration.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

#[cfg(not(target_os = "linux"))]
fn thread_cpu_time() -> Option<Duration> {
    None
}

impl Clock {
    fn now() -> Clock {
        match thread_cpu_time() {
            Some(t) => Clock::Cpu(t),
            None => Clock::Wall(Instant::now()),
        }
    }
    fn elapsed(self) -> Duration {
        match (self, Clock::now()) {
            (Clock::Cpu(a), Clock::Cpu(b)) => b.saturating_sub(a),
            (Clock::Wall(a), _) | (_, Clock::Wall(a)) => a.elapsed(),
        }
    }
    fn kind() -> &'static str {
        match Clock::now() {
            Clock::Cpu(_) => "thread CPU time",
            Clock::Wall(_) => "wall time",
        }
    }
}

/// Median over `repeat` runs of one optimisation, checking it is a proved optimum.
fn time_optimum(b: &dyn Backend, p: &Puzzle, repeat: usize) -> (i64, Duration) {
    let mut times = Vec::new();
    let mut best = 0;
    for _ in 0..repeat {
        let t = Clock::now();
        match task::run(b, p, Task::Optimize, &Limits::none()) {
            Ok(Answer::Optimum {
                score,
                proved: true,
                ..
            }) => best = score,
            other => panic!("expected a proved optimum, got {other:?}"),
        }
        times.push(t.elapsed());
    }
    (best, median(times))
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, k: usize) -> usize {
        (self.next() % k as u64) as usize
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

/// 50 NOIP-style puzzles: a solved grid (dfs on the empty grid, then a random relabelling, band,
/// stack, row-in-band and column-in-band permutation, and maybe a transposition), keeping 24–30
/// random givens. Deterministic (fixed seed).
fn generate() -> Vec<String> {
    let dfs = backends::create(BackendKind::Dfs, &BackendOptions::default()).expect("dfs");
    let base = match task::run(
        dfs.as_ref(),
        &puzzle_from_digits(std::iter::repeat_n(0, 81)),
        Task::Solve,
        &Limits::none(),
    ) {
        Ok(Answer::Solved(g)) => g,
        other => panic!("dfs found no 9×9 grid: {other:?}"),
    };
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let order = |rng: &mut Rng| -> Vec<usize> {
        let mut bands = [0, 1, 2];
        rng.shuffle(&mut bands);
        let mut out = Vec::new();
        for b in bands {
            let mut within = [0, 1, 2];
            rng.shuffle(&mut within);
            out.extend(within.iter().map(|w| 3 * b + w));
        }
        out
    };
    (0..50)
        .map(|_| {
            let mut label: Vec<Value> = (1..=9).collect();
            rng.shuffle(&mut label);
            let (rows, cols) = (order(&mut rng), order(&mut rng));
            let transpose = rng.below(2) == 1;
            let mut cells: Vec<Value> = (0..81)
                .map(|i| {
                    let (r, c) = (rows[i / 9], cols[i % 9]);
                    let (r, c) = if transpose { (c, r) } else { (r, c) };
                    label[base.get(r, c) as usize - 1]
                })
                .collect();
            let keep = 24 + rng.below(7);
            let mut idx: Vec<usize> = (0..81).collect();
            rng.shuffle(&mut idx);
            for &i in &idx[keep..] {
                cells[i] = 0;
            }
            cells
                .iter()
                .map(|&v| {
                    if v == 0 {
                        '.'
                    } else {
                        (b'0' + v as u8) as char
                    }
                })
                .collect()
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().position(|a| a == name).map(|i| args.get(i + 1));
    let pyramid_file = root().join("tests/data/pyramid50.txt");
    if args.iter().any(|a| a == "--generate") {
        let mut text = String::from(
            "# 50 NOIP-style pyramid puzzles (24-30 givens), from examples/ilp_bench.rs --generate\n",
        );
        for l in generate() {
            text.push_str(&l);
            text.push('\n');
        }
        std::fs::write(&pyramid_file, text).expect("write pyramid50.txt");
        println!("wrote {}", pyramid_file.display());
        return;
    }
    let solver: IlpSolver = match flag("--solver") {
        Some(Some(s)) => s.parse().unwrap_or_else(|e| panic!("{e}")),
        _ => IlpSolver::Microlp,
    };
    let number = |name: &str, default: usize| match flag(name) {
        Some(Some(v)) => v.parse().unwrap_or(default),
        _ => default,
    };
    let repeat = number("--repeat", 3);
    let magictour = number("--magictour", 100);
    let options = BackendOptions {
        ilp: IlpOptions { solver },
        ..Default::default()
    };
    let b = backends::create(BackendKind::Ilp, &options).unwrap_or_else(|e| panic!("{e}"));
    println!(
        "ilp with {} ({repeat} runs per puzzle, median, {})",
        solver.name(),
        Clock::kind()
    );

    let noip = root().join("tests/data/cases/noip2009");
    for name in ["sample0", "sample1", "sample2"] {
        let text = std::fs::read_to_string(noip.join(format!("{name}.in"))).expect("noip sample");
        let p = pyramid(puzzle_from_digits(
            text.split_whitespace()
                .map(|t| t.parse().expect("a number")),
        ));
        let (score, t) = time_optimum(b.as_ref(), &p, repeat);
        println!("noip2009 {name}: optimum {score} in {}", ms(t));
    }

    let (score, t) = time_optimum(b.as_ref(), &pyramid(parse_line(&".".repeat(81))), repeat);
    println!("empty 9x9 pyramid: optimum {score} in {}", ms(t));

    match lines(&pyramid_file) {
        None => println!("pyramid50: skipped ({} missing)", pyramid_file.display()),
        Some(puzzles) => {
            let times: Vec<Duration> = puzzles
                .iter()
                .map(|l| time_optimum(b.as_ref(), &pyramid(parse_line(l)), repeat).1)
                .collect();
            let max = *times.iter().max().expect("50 puzzles");
            let min = *times.iter().min().expect("50 puzzles");
            println!(
                "pyramid50 ({} puzzles): per-puzzle median {} (min {}, max {})",
                times.len(),
                ms(median(times)),
                ms(min),
                ms(max)
            );
        }
    }

    let magic = root().join("../shared/data/9x9/magictour_top1465.txt");
    match lines(&magic) {
        None => println!("magictour_top1465: skipped ({} missing)", magic.display()),
        Some(all) => {
            for task in [Task::Solve, Task::Unique] {
                let t = Clock::now();
                let k = all.len().min(magictour);
                for l in &all[..k] {
                    let a = task::run(b.as_ref(), &parse_line(l), task, &Limits::none());
                    assert!(
                        matches!(a, Ok(Answer::Solved(_)) | Ok(Answer::Unique(_))),
                        "{l}: {a:?}"
                    );
                }
                let s = t.elapsed().as_secs_f64();
                println!(
                    "magictour_top1465 first {k}, {}: {:.1} puzzles/s ({:.2} ms each)",
                    task.name(),
                    k as f64 / s,
                    s * 1e3 / k as f64
                );
            }
        }
    }
}
