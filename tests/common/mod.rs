//! What the end-to-end tests share: running the `sudoku-lab` binary from the repository's root
//! and reading what it printed. Each test binary uses its own subset.
#![allow(dead_code)]

pub mod browser;
pub mod brute;
pub mod judge_samples;
pub mod probe;

use std::io::Write;
use std::process::{Child, Command, Output, Stdio};

/// The `sudoku-lab` binary, to run from the repository's root.
pub fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sudoku-lab"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// Runs `sudoku-lab ARGS` with no standard input.
pub fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("binary runs")
}

/// Starts `sudoku-lab ARGS` with its standard input, output and error piped.
pub fn spawn_piped(args: &[&str]) -> Child {
    bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs")
}

/// Runs `sudoku-lab ARGS` with `stdin` as its standard input.
pub fn run_with(args: &[&str], stdin: &str) -> Output {
    let mut child = spawn_piped(args);
    // A usage error may end the program before it reads its input: a broken pipe is fine.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// A standard puzzle from a line of n² symbols (`1`–`9`, then letters for 10 and up; anything
/// else is empty).
pub fn parse_line(line: &str) -> sudoku_lab::model::Puzzle {
    use std::sync::Arc;
    use sudoku_lab::model::{Puzzle, Shape};
    let n = (line.len() as f64).sqrt() as usize;
    let givens = line
        .chars()
        .map(|ch| ch.to_digit(36).unwrap_or(0) as u16)
        .collect();
    Puzzle::new(Arc::new(Shape::standard(n, false).unwrap()), givens).unwrap()
}

/// Up to two rules of every variant kind the generator draws on `grid` (the global ones when the
/// grid keeps them; disjoint groups only on boxes), anti-king and both XV negatives: everything
/// f-puzzles can express.
pub fn rules_of_every_kind(
    shape: &sudoku_lab::model::Shape,
    grid: &sudoku_lab::model::Grid,
    rng: &mut sudoku_lab::generate::GenRng,
) -> Vec<sudoku_lab::model::Constraint> {
    use sudoku_lab::generate::variants::{draw, drawn_kinds};
    use sudoku_lab::model::{Constraint, ConstraintKind, DotRule, Regions};
    let jigsaw = matches!(shape.regions(), Regions::Jigsaw(_));
    let mut rules = vec![];
    for &kind in drawn_kinds() {
        if !(jigsaw && kind == ConstraintKind::DisjointGroups) {
            rules.extend(draw(kind, shape, grid, 2, rng));
        }
    }
    rules.push(Constraint::AntiKing);
    rules.push(Constraint::Negative(DotRule::Sum(5)));
    rules.push(Constraint::Negative(DotRule::Sum(10)));
    rules
}

/// A puzzle of side `n` with [`rules_of_every_kind`] on the seed's random full grid (standard
/// boxes, both diagonals on even seeds), and that grid: the writers' round trips start from it.
pub fn every_kind_puzzle(
    n: usize,
    seed: u64,
) -> (sudoku_lab::model::Puzzle, sudoku_lab::model::Grid) {
    use std::sync::Arc;
    use sudoku_lab::generate::{blank_solved, GenRng};
    use sudoku_lab::model::Shape;
    let mut rng = GenRng::seed(seed * 31 + n as u64);
    let shape = Arc::new(Shape::standard(n, seed.is_multiple_of(2)).unwrap());
    let (puzzle, grid) = blank_solved(&shape, &mut rng, n).unwrap();
    let rules = rules_of_every_kind(&shape, &grid, &mut rng);
    (puzzle.with_constraints(rules).unwrap(), grid)
}

/// The rules of a puzzle in a canonical order (the formats may write them in another order).
pub fn sorted_rules(p: &sudoku_lab::model::Puzzle) -> Vec<String> {
    let mut v: Vec<String> = p.constraints().iter().map(|c| format!("{c:?}")).collect();
    v.sort();
    v
}

/// The 1-based line and column of the first `needle` in `text` (ASCII), as errors give them.
pub fn place(text: &str, needle: &str) -> (usize, usize) {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} in {text}"));
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, col)
}

/// Whether `minizinc` is on PATH and lists Gecode among its solvers; says "skipped" if not.
pub fn gecode_installed() -> bool {
    let ok = Command::new("minizinc")
        .arg("--solvers")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("org.gecode.gecode"));
    if !ok {
        eprintln!("skipped: minizinc with gecode not installed");
    }
    ok
}
