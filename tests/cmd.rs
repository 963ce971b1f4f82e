//! The `cmd` backend end to end: the reference solver (`examples/line_solver.rs`) through the
//! line protocol agrees with `dfs` on every shape, and each way a program can fail (crash, hang
//! past `--timeout`, garbage, a line for another puzzle, a wrong grid) is an error naming the
//! program, after which the process is restarted and the batch goes on. The adapter
//! (`examples/line_adapter.rs`) puts a one-line-per-puzzle program behind the protocol.

mod common;
use common::{run_with, stderr, stdout};

mod line_solver;

use std::fs;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use line_solver::line_solver;

const MAGIC1: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
const MAGIC1_SOLUTION: &str =
    "468931527751624839392578461134756298289413675675289314846192753513867942927345186";
/// Two clashing puzzles: no solution, so `none` is the right answer.
const CLASH1: &str =
    "11...............................................................................";
const CLASH2: &str =
    "22...............................................................................";
/// The puzzle on which the fake programs below misbehave.
const TRIGGER: &str =
    "9................................................................................";

/// A fake program: a shell script that answers `none` to everything, except that it runs
/// `misbehave` on the question for [`TRIGGER`]. Each start appends a line to `starts.log` in the
/// returned directory.
fn fake_program(misbehave: &str) -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("fake-solver.sh");
    let log = dir.path().join("starts.log");
    fs::write(
        &script,
        format!(
            "echo started >> '{}'\n\
             while read id task rest; do\n\
               case \"$rest\" in 9*) {misbehave} ;; esac\n\
               echo \"$id none\"\n\
             done\n",
            log.display()
        ),
    )
    .unwrap();
    (format!("sh {}", script.display()), dir)
}

fn starts(dir: &tempfile::TempDir) -> usize {
    fs::read_to_string(dir.path().join("starts.log"))
        .unwrap_or_default()
        .lines()
        .count()
}

/// Runs `solve -j 1` on CLASH1, TRIGGER, CLASH2 with a fake program misbehaving on TRIGGER:
/// the first and last answers are `no solution` whatever happened in between, and the program
/// was started twice (once, then again after the failure). Returns the output.
fn batch_goes_on_after(misbehave: &str, extra: &[&str]) -> Output {
    batch_goes_on_with(misbehave, extra, 2)
}

/// [`batch_goes_on_after`], with the number of starts expected.
fn batch_goes_on_with(misbehave: &str, extra: &[&str], expected_starts: usize) -> Output {
    let (cmd, dir) = fake_program(misbehave);
    let mut args = vec!["solve", "-j", "1", "--backend", "cmd", "--cmd", &cmd];
    args.extend_from_slice(extra);
    let o = run_with(&args, &format!("{CLASH1}\n{TRIGGER}\n{CLASH2}\n"));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}{}", stderr(&o));
    assert_eq!(
        (lines[0], lines[2]),
        ("no solution", "no solution"),
        "{out}"
    );
    assert_eq!(starts(&dir), expected_starts, "{}", stderr(&o));
    o
}

/// The error printed for the second puzzle: names the program and says `words`.
fn assert_failure(o: &Output, words: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("<stdin>:2:1"), "names the puzzle: {err}");
    assert!(err.contains("program 'sh "), "names the program: {err}");
    assert!(err.contains("fake-solver.sh"), "names the program: {err}");
    assert!(err.contains(words), "expected '{words}' in: {err}");
}

#[test]
fn a_crash_is_an_error_naming_the_program_and_the_batch_goes_on() {
    let o = batch_goes_on_after("echo 'segfault in my solver' >&2; kill -SEGV $$", &[]);
    assert_eq!(stdout(&o).lines().nth(1), Some("error"));
    assert_failure(&o, "crashed (signal 11) before answering question 2");
    assert_failure(&o, "segfault in my solver");
    let o = batch_goes_on_after("exit 4", &[]);
    assert_failure(&o, "exited (code 4)");
}

#[test]
fn a_hang_past_the_timeout_is_a_timeout_and_the_batch_goes_on() {
    let start = Instant::now();
    let o = batch_goes_on_after("sleep 60", &["--timeout", "0.5"]);
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().nth(1), Some("timeout"));
    assert!(
        stderr(&o).contains("<stdin>:2:1: timed out"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn an_unreadable_line_is_an_error_and_the_batch_goes_on() {
    // No id at all.
    let o = batch_goes_on_after("echo 'I am thinking'; continue", &[]);
    assert_failure(&o, "unreadable answer «I am thinking»");
    // The right id, then something that is neither a solution nor `none`.
    let o = batch_goes_on_after("echo \"$id maybe later\"; continue", &[]);
    assert_failure(
        &o,
        "expected a solution or 'none', in the answer «maybe later»",
    );
    // A grid of the wrong length.
    let o = batch_goes_on_after("echo \"$id 123\"; continue", &[]);
    assert_failure(&o, "'123' is not a grid of 81 symbols");
    // An effort word that names no counter.
    let o = batch_goes_on_after("echo \"$id none speed=3\"; continue", &[]);
    assert_failure(&o, "effort word 'speed=3': 'speed' is not a counter");
}

#[test]
fn effort_words_become_the_answers_effort() {
    // The reference solver ends its answers with `guesses=G nodes=N`: the puzzle needs search,
    // and a count to 2 explores the whole tree.
    let o = run_with(
        &["unique", "--json", "-b", "cmd", "--cmd", line_solver()],
        MAGIC1,
    );
    let out = stdout(&o);
    let answer: serde_json::Value = serde_json::from_str(out.trim()).expect(&out);
    assert_eq!(answer["status"], "unique", "{out}");
    let (guesses, nodes) = (&answer["effort"]["guesses"], &answer["effort"]["nodes"]);
    assert!(guesses.as_u64().unwrap() > 0, "{out}");
    assert!(nodes.as_u64().unwrap() > guesses.as_u64().unwrap(), "{out}");
    // A program that says nothing about its effort gives none.
    let (cmd, _dir) = fake_program("");
    let o = run_with(&["solve", "--json", "-b", "cmd", "--cmd", &cmd], CLASH1);
    assert!(!stdout(&o).contains("effort"), "{}", stdout(&o));
}

#[test]
fn a_line_for_another_puzzle_is_an_error_and_the_batch_goes_on() {
    // An answer with another question's id: even a `none`, which no checker could refute.
    let o = batch_goes_on_after("echo \"$((id + 1)) none\"; continue", &[]);
    assert_failure(&o, "expected a line starting with the question's id 2");
    // A solution of another puzzle under the right id: the checker rejects it. The program
    // kept to the protocol, so it is kept too.
    let misbehave = format!("echo \"$id {MAGIC1_SOLUTION}\"; continue");
    let o = batch_goes_on_with(&misbehave, &[], 1);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("<stdin>:2:1: error: checker rejected the cmd backend's answer: row 1, column 1 holds 4 but the given is 9"),
        "{err}"
    );
}

#[test]
fn a_refusal_is_a_refusal_and_the_process_is_kept() {
    let (cmd, dir) = fake_program("echo \"$id refused only Tuesdays\"; continue");
    let o = run_with(
        &["solve", "-j", "1", "--backend", "cmd", "--cmd", &cmd],
        &format!("{CLASH1}\n{TRIGGER}\n{CLASH2}\n"),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("refused: only Tuesdays"),
        "{}",
        stderr(&o)
    );
    assert_eq!(starts(&dir), 1);
}

#[test]
fn missing_command_or_program_is_a_usage_error() {
    let o = run_with(&["solve", "--backend", "cmd"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cmd needs --cmd"), "{}", stderr(&o));
    let o = run_with(
        &["solve", "-b", "cmd", "--cmd", "no-such-solver-xyz --fast"],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("cannot start 'no-such-solver-xyz'"), "{err}");
    assert!(err.contains("is it installed and on PATH?"), "{err}");
    let o = run_with(&["optimize", "-b", "cmd", "--cmd", line_solver()], MAGIC1);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("solve, count and unique only"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_reference_solver_answers_like_dfs_on_every_shape() {
    let ls = line_solver();
    let samples = "tests/data/samples/mixed.txt";
    for task in ["solve", "unique", "count"] {
        let o = run_with(
            &[
                "xcheck",
                "--task",
                task,
                "--limit",
                "50",
                "--backends",
                "dfs,cmd",
                "--cmd",
                ls,
                samples,
            ],
            "",
        );
        assert_eq!(
            o.status.code(),
            Some(0),
            "{task}: {}{}",
            stdout(&o),
            stderr(&o)
        );
        assert!(stdout(&o).contains(" 0 disagreements, 0 failures, 0 refusals"));
    }
    // Jigsaw, X-Sudoku and other sides, from generated puzzles.
    for shape in [
        &["--size", "5", "--jigsaw"][..],
        &["--size", "6", "--diagonals"],
        &["--size", "12"],
    ] {
        let mut args = vec!["generate", "--count", "8", "--seed", "3"];
        args.extend_from_slice(shape);
        let puzzles = stdout(&run_with(&args, ""));
        let mut args = vec![
            "xcheck",
            "--task",
            "count",
            "--limit",
            "20",
            "--backends",
            "dfs,cmd",
            "--cmd",
            ls,
        ];
        if shape.contains(&"--diagonals") {
            args.push("--diagonals");
        }
        let o = run_with(&args, &puzzles);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{shape:?}: {}{}",
            stdout(&o),
            stderr(&o)
        );
    }
    let o = run_with(&["solve", "-b", "cmd", "--cmd", ls], MAGIC1);
    assert_eq!(stdout(&o).trim(), MAGIC1_SOLUTION);
}

#[test]
fn xcheck_catches_a_count_the_checker_cannot_refute() {
    // Six clues short of unique: several solutions; `--wrong count` reports one fewer.
    let cmd = format!("{} --wrong count", line_solver());
    let o = run_with(
        &[
            "xcheck",
            "--task",
            "count",
            "--backends",
            "dfs,cmd",
            "--cmd",
            &cmd,
        ],
        "....13..1.24.53...41....2...........\n",
    );
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("dfs said 4, cmd said 3"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn bench_times_a_program_beside_dfs() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("bench.json");
    let o = run_with(
        &[
            "bench",
            "--backends",
            "dfs,cmd",
            "--cmd",
            line_solver(),
            "--task",
            "solve",
            "--json",
            json.to_str().unwrap(),
            "tests/data/samples/mixed.txt",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    let cmd_row = rows
        .as_array()
        .and_then(|r| r.iter().find(|r| r["backend"] == "cmd"))
        .unwrap_or_else(|| panic!("{rows}"));
    assert_eq!(cmd_row["answered"], 12, "{cmd_row}");
    assert_eq!(cmd_row["failed"], 0, "{cmd_row}");
}

#[test]
fn the_adapter_puts_a_one_line_program_behind_the_protocol() {
    // A tdoku-style program: `puzzle:count:solution` for each puzzle line, flushed by `echo`.
    // It knows one puzzle; anything else it calls unsolvable, and on `9…` it echoes another
    // puzzle (the adapter must notice).
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("one-liner.sh");
    fs::write(
        &program,
        format!(
            "while read p; do case \"$p\" in\n\
               {MAGIC1}) echo \"$p:1:{MAGIC1_SOLUTION}\" ;;\n\
               9*) echo \"{CLASH1}:0:\" ;;\n\
               *) echo \"$p:0:\" ;;\n\
             esac; done\n"
        ),
    )
    .unwrap();
    let cmd = format!("{} sh {}", line_solver::line_adapter(), program.display());
    let o = run_with(
        &["solve", "-j", "1", "-b", "cmd", "--cmd", &cmd],
        &format!("{MAGIC1}\n{CLASH2}\n{TRIGGER}\n{MAGIC1}\n"),
    );
    let out = stdout(&o);
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [MAGIC1_SOLUTION, "no solution", "error", MAGIC1_SOLUTION],
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains(&format!("the program answered for puzzle {CLASH1}")),
        "{}",
        stderr(&o)
    );
    // Counting and other sides are refused, not guessed.
    let o = run_with(&["unique", "-b", "cmd", "--cmd", &cmd], MAGIC1);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("answers solve only"), "{}", stderr(&o));
    let o = run_with(
        &["solve", "-b", "cmd", "--cmd", &cmd],
        "1...\n....\n....\n....\n",
    );
    assert!(
        stderr(&o).contains("solves standard grids of side 9 only"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_python_example_speaks_the_protocol() {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("skipped: no python3");
        return;
    }
    let cmd = "python3 examples/line_solver.py";
    for (generate, task) in [
        (&["--unique", "--count", "6"][..], "unique"),
        (&["--size", "6", "--diagonals", "--count", "10"], "count"),
    ] {
        let puzzles = stdout(&run_with(
            &[&["generate", "--seed", "2"][..], generate].concat(),
            "",
        ));
        let mut args = vec![
            "xcheck",
            "--task",
            task,
            "--limit",
            "30",
            "--backends",
            "dfs,cmd",
        ];
        args.extend(["--cmd", cmd]);
        if generate.contains(&"--diagonals") {
            args.push("--diagonals");
        }
        let o = run_with(&args, &puzzles);
        assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
        assert!(stdout(&o).contains("0 disagreements, 0 failures, 0 refusals"));
    }
    let o = run_with(
        &["solve", "-b", "cmd", "--cmd", cmd],
        "3...21........3. 0000122211123333\n",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("refused: jigsaw regions"),
        "{}",
        stderr(&o)
    );
}
