//! Criterion timings of the `ilp` backend: one group per data set (the NOIP 2009 samples, the
//! empty 9×9 pyramid), one entry per ILP solver compiled in. Per-puzzle medians over the 50
//! generated pyramid puzzles and magictour throughput are in `examples/ilp_bench.rs`.
//!
//! ```text
//! cargo bench --bench ilp [--features highs]
//! ```

/// mimalloc: varisat and the matrix builders allocate many small vectors per puzzle.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use sudoku_lab::backend::Limits;
use sudoku_lab::backends::ilp::{IlpOptions, IlpSolver};
use sudoku_lab::backends::{self, BackendKind, BackendOptions};
use sudoku_lab::model::{Puzzle, Shape, Value, Weights};
use sudoku_lab::task::{self, Answer, Task};

fn pyramid(givens: Vec<Value>) -> Puzzle {
    Puzzle::new(Arc::new(Shape::standard(9, false).unwrap()), givens)
        .unwrap()
        .with_weights(Arc::new(Weights::pyramid(9)))
        .unwrap()
}

fn noip(k: usize) -> Puzzle {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("tests/data/cases/noip2009/sample{k}.in"));
    let text = std::fs::read_to_string(path).unwrap();
    pyramid(
        text.split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect(),
    )
}

fn bench_group(c: &mut Criterion, group: &str, puzzles: &[(String, Puzzle)]) {
    let mut g = c.benchmark_group(group);
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    for &(solver, name) in IlpSolver::NAMES.iter().filter(|(s, _)| s.available()) {
        let options = BackendOptions {
            ilp: IlpOptions { solver },
            ..Default::default()
        };
        let b = backends::create(BackendKind::Ilp, &options).unwrap();
        for (label, p) in puzzles {
            g.bench_function(format!("{name}/{label}"), |bench| {
                bench.iter(|| {
                    let a = task::run(b.as_ref(), p, Task::Optimize, &Limits::none()).unwrap();
                    assert!(matches!(a, Answer::Optimum { proved: true, .. }));
                })
            });
        }
    }
    g.finish();
}

fn benches(c: &mut Criterion) {
    let samples: Vec<(String, Puzzle)> = (0..3).map(|k| (format!("sample{k}"), noip(k))).collect();
    bench_group(c, "noip2009", &samples);
    bench_group(c, "empty9x9", &[("pyramid".into(), pyramid(vec![0; 81]))]);
}

criterion_group!(ilp, benches);
criterion_main!(ilp);
