//! An adapter for the `cmd` backend: puts a "one puzzle per line in, one answer line out"
//! program (tdoku's `example/solve`, most contest solvers) behind the line protocol of
//! docs/backends.md. Standard library only.
//!
//! ```sh
//! cargo build --release --example line_adapter
//! sudoku-lab solve --backend cmd \
//!   --cmd "target/release/examples/line_adapter stdbuf -oL /path/to/tdoku/build/solve 1" puzzles.txt
//! ```
//!
//! `line_adapter [--side N] PROGRAM [ARGS...]`: the program takes grids of side N (default 9);
//! other sides are refused without asking it (tdoku, for one, ignores a shorter line and would
//! never answer).
//!
//! The program is started once. For each `ID solve PUZZLE` question the adapter writes the
//! puzzle's n² symbols (`.` for empty) as one line, reads one line back, and answers:
//!
//! * `PUZZLE:COUNT[:SOLUTION]` (tdoku, the data sets' `.counts` lines): `none` for count 0, else
//!   the solution; the echoed puzzle must be the one sent;
//! * a line of n² symbols: that solution; `none`, `no solution` or `0`: `none`.
//!
//! Anything else, or the program ending, stops the adapter with a message on standard error
//! (which the host quotes). Counting, jigsaw regions, diagonals and other sides are refused:
//! such programs solve the standard grid of one side. Programs that buffer their output when it is a pipe (C stdio
//! does) need `stdbuf -oL` in front, as above.

use std::io::{self, BufRead, BufReader, Write};
use std::process::{exit, Command, Stdio};

fn die(msg: String) -> ! {
    eprintln!("line_adapter: {msg}");
    exit(1)
}

/// The answer to a solve question for `puzzle`, from the program's `line`.
fn translate(puzzle: &str, line: &str) -> Result<String, String> {
    let cells = puzzle.chars().count();
    let line = line.trim();
    let grid = |s: &str| s.chars().count() == cells && s.chars().all(|c| c.is_ascii_alphanumeric());
    let fields: Vec<&str> = line.split(':').collect();
    match fields[..] {
        [echo, count, ..] if echo != puzzle => Err(format!(
            "the program answered for puzzle {echo} (count {count}), not {puzzle}"
        )),
        [_, "0"] | [_, "0", ""] => Ok("none".into()),
        [_, _, solution] if grid(solution) => Ok(solution.into()),
        [solution] if grid(solution) => Ok(solution.into()),
        ["none" | "no solution" | "0"] => Ok("none".into()),
        _ => Err(format!("cannot read the program's answer «{line}»")),
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut side = 9;
    if args.first().is_some_and(|a| a == "--side") {
        side = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        args.drain(..2.min(args.len()));
    }
    let name = args.join(" ");
    let (Some((program, program_args)), 1..) = (args.split_first(), side) else {
        eprintln!("usage: line_adapter [--side N] PROGRAM [ARGS...]");
        exit(2)
    };
    let mut child = Command::new(program)
        .args(program_args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| die(format!("cannot start {program}: {e}")));
    let mut to_program = child.stdin.take().expect("piped");
    let mut from_program = BufReader::new(child.stdout.take().expect("piped"));
    let mut out = io::stdout().lock();
    for question in io::stdin().lock().lines() {
        let question = question.unwrap_or_else(|e| die(format!("reading questions: {e}")));
        let words: Vec<&str> = question.split_whitespace().collect();
        let reply = match words[..] {
            [id, "solve", puzzle] if puzzle.len() == side * side => {
                writeln!(to_program, "{puzzle}")
                    .and_then(|()| to_program.flush())
                    .unwrap_or_else(|e| die(format!("{program} does not take input: {e}")));
                let mut line = String::new();
                match from_program.read_line(&mut line) {
                    Ok(0) | Err(_) => die(format!("{program} ended without answering")),
                    Ok(_) => {}
                }
                let answer = translate(puzzle, &line).unwrap_or_else(|e| die(e));
                format!("{id} {answer}")
            }
            [id, "solve", ..] => {
                format!("{id} refused {name} solves standard grids of side {side} only")
            }
            [id, ..] => format!("{id} refused {name} answers solve only"),
            [] => continue,
        };
        writeln!(out, "{reply}")
            .and_then(|()| out.flush())
            .unwrap_or_else(|e| die(format!("writing answers: {e}")));
    }
    // End of the questions: the program gets end of input too, and is waited for.
    drop(to_program);
    let _ = child.wait();
}
