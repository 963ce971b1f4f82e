//! The Killer cage tables of docs/strength.md ("Beyond the papers"), printed as Markdown. The
//! model levels' table of the same section comes from `sudoku-lab strength --levels …`.
//!
//! `cargo run --release --example strength_beyond -- cages FILE [PERCENTS] [SEED]`: for every
//! Killer cage of FILE, the candidates unit propagation leaves under each `--cage-encoding`, and
//! `cp`'s root propagation under each `--cp-alldiff` level, against the cage's generalised arc
//! consistency ([`sudoku_lab::strength::cages`]). PERCENTS (default `0,30`) lists the shares of
//! each puzzle's solution (found by `dfs`) revealed as givens before the candidates are taken
//! (each cell drawn from SEED, default 1), one table each.

use std::process::ExitCode;

use sudoku_lab::backend::{Backend, Limits};
use sudoku_lab::backends::dfs::Dfs;
use sudoku_lab::format::{read_puzzles, ReadOptions};
use sudoku_lab::model::Puzzle;
use sudoku_lab::strength::cages::{reveal, Method, Tally};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let run = match args.first().map(String::as_str) {
        Some("cages") if args.len() >= 2 => cages(&args[1..]),
        _ => Err("usage: strength_beyond cages FILE [PERCENTS] [SEED]".into()),
    };
    match run {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("strength_beyond: {why}");
            ExitCode::from(2)
        }
    }
}

/// Every puzzle of `path`; an error naming the file, line and column of the first bad entry.
fn puzzles(path: &str) -> Result<Vec<Puzzle>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    read_puzzles(&text, &ReadOptions::default())
        .into_iter()
        .map(|e| e.map(|e| e.puzzle).map_err(|e| format!("{path}:{e}")))
        .collect()
}

fn cages(args: &[String]) -> Result<(), String> {
    let path = &args[0];
    let percents: Vec<u32> = args
        .get(1)
        .map_or("0,30", String::as_str)
        .split(',')
        .map(|p| p.parse().map_err(|_| format!("not a percentage: {p}")))
        .collect::<Result<_, _>>()?;
    let seed: u64 = match args.get(2) {
        Some(s) => s.parse().map_err(|_| format!("not a seed: {s}"))?,
        None => 1,
    };
    let all = puzzles(path)?;
    let dfs = Dfs::new();
    let methods = Method::all();
    for percent in percents {
        let mut tally = Tally::new(&methods);
        for (i, p) in all.iter().enumerate() {
            let puzzle = match percent {
                0 => p.clone(),
                _ => {
                    let found = dfs
                        .count(p, 1, &Limits::none())
                        .map_err(|e| format!("{path}: puzzle {}: {e}", i + 1))?;
                    let Some(solution) = found.witnesses.first() else {
                        return Err(format!("{path}: puzzle {} has no solution", i + 1));
                    };
                    reveal(p, solution.cells(), percent, seed.wrapping_add(i as u64))
                }
            };
            tally
                .add_puzzle(&puzzle)
                .map_err(|e| format!("{path}: puzzle {}: {e}", i + 1))?;
        }
        println!(
            "\n{} cages of {} puzzles, {percent}% of each solution revealed (seed {seed}): \
             {:.2} candidates per cage before, {:.2} at GAC\n",
            tally.cages,
            all.len(),
            tally.before as f64 / tally.cages.max(1) as f64,
            tally.gac as f64 / tally.cages.max(1) as f64
        );
        println!("| method | cages at GAC | digits kept beyond GAC, per cage |");
        println!("|---|---:|---:|");
        for (i, (m, _, _)) in tally.rows.iter().enumerate() {
            println!(
                "| {} | {:.1}% | {:.3} |",
                m.name(),
                tally.at_gac_pct(i),
                tally.missed_per_cage(i)
            );
        }
    }
    Ok(())
}
