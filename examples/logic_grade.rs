//! Grades every puzzle of a file with the logic engine and prints one row per puzzle and a
//! summary: `cargo run --release --example logic_grade -- FILE [TECHNIQUES] [--verify]`
//! (TECHNIQUES: a comma-separated list of technique or family keys; default the whole ladder).
//! With `--verify` every step is checked against the solution from the `dfs` backend.

use std::time::Instant;

use sudoku_lab::format::{read_puzzles, ReadOptions};
use sudoku_lab::logic::verify::check_path;
use sudoku_lab::logic::{grade, Ladder};
use sudoku_lab::task::unique_solution;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verify = args.iter().any(|a| a == "--verify");
    let args: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: logic_grade FILE [TECHNIQUES] [--verify]");
        std::process::exit(2)
    };
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    let ladder = match args.get(1) {
        Some(list) => Ladder::parse(list).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2)
        }),
        None => Ladder::default(),
    };
    let start = Instant::now();
    let (mut count, mut logic_only, mut wrong) = (0, 0, 0);
    let mut levels = std::collections::BTreeMap::new();
    for entry in read_puzzles(&text, &ReadOptions::default())
        .into_iter()
        .flatten()
    {
        let Ok((result, g)) = grade(&entry.puzzle, &ladder) else {
            continue;
        };
        count += 1;
        logic_only += g.logic_only as usize;
        *levels.entry(g.level).or_insert(0) += 1;
        let hardest = g.hardest.map_or("-", |t| t.key());
        println!(
            "{}\t{}\t{}\t{:.1}\t{:.1}\t{:.1}\t{hardest}\t{}\t{}\t{:.4}\t{:?}",
            entry.line,
            g.level.name(),
            g.score,
            g.rating,
            g.pearl,
            g.diamond,
            g.steps,
            g.logic_only,
            g.time.as_secs_f64(),
            result.outcome
        );
        if verify {
            if let Some(solution) = unique_solution(&entry.puzzle) {
                if let Err(e) = check_path(solution.cells(), &result.steps) {
                    wrong += 1;
                    eprintln!("line {}: {e}", entry.line);
                }
            }
        }
    }
    eprintln!(
        "{count} puzzles in {:.2} s, {logic_only} without bifurcation, levels {levels:?}, {wrong} wrong paths",
        start.elapsed().as_secs_f64()
    );
}
