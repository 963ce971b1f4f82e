//! Synthetic timings for three backends on two files, to preview the bench plot and table:
//! `cargo run --example plot_demo -- [OUT.svg]` (default `target/plot_demo.svg`).

/// mimalloc: varisat and the matrix builders allocate many small vectors per puzzle.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::PathBuf;
use std::time::Duration;

use sudoku_lab::report::{self, BenchRow, Outcome, PlotSeries};

/// A small deterministic generator (xorshift64*), so the demo needs no extra crate.
struct Rng(u64);

impl Rng {
    fn uniform(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Log-normal with the given median (µs) and spread (natural-log standard deviation),
    /// from an approximately normal sum of uniforms.
    fn lognormal(&mut self, median: f64, sigma: f64) -> f64 {
        let z: f64 = (0..6).map(|_| self.uniform()).sum::<f64>() - 3.0;
        median * (sigma * z * std::f64::consts::SQRT_2).exp()
    }
}

fn main() -> Result<(), report::ReportError> {
    let out = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target/plot_demo.svg"));
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    // (file, puzzles, [(backend, median µs, spread)])
    let files = [
        (
            "easy50.txt",
            50,
            [("dfs", 18.0, 0.4), ("dlx", 45.0, 0.3), ("sat", 900.0, 0.25)],
        ),
        (
            "hardest.txt",
            2000,
            [
                ("dfs", 400.0, 1.3),
                ("dlx", 150.0, 0.7),
                ("sat", 2500.0, 0.4),
            ],
        ),
    ];
    let mut series = Vec::new();
    let mut rows = Vec::new();
    for (file, puzzles, backends) in files {
        for (backend, median, sigma) in backends {
            let times_us: Vec<f64> = (0..puzzles).map(|_| rng.lognormal(median, sigma)).collect();
            let samples: Vec<(Outcome, Duration)> = times_us
                .iter()
                .map(|&us| (Outcome::Answered, Duration::from_nanos((us * 1e3) as u64)))
                .collect();
            rows.push(BenchRow::from_samples(file, backend, "solve", &samples));
            series.push(PlotSeries::from_samples(file, backend, &samples));
        }
    }
    report::write_table(&rows, &mut std::io::stdout().lock())?;
    report::plot_svg(&series, &out, "solve: time per puzzle (synthetic demo)")?;
    println!("wrote {}", out.display());
    Ok(())
}
