//! What the end-to-end tests share: running the `sudoku-lab` binary from the repository's root
//! and reading what it printed. Each test binary uses its own subset.
#![allow(dead_code)]

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
