//! End-to-end tests of the command as a new user meets it: outputs compared byte for byte with
//! the judges' samples, refusals that come before any file is written, counts in words, the name
//! of standard input, and errors that name their line and column.

mod common;
use common::{run, run_with, stderr, stdout};

use std::process::Output;

const MAGIC1: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
const CLASH: &str =
    "11...............................................................................";
/// No solution, but only search shows it (its proof is not empty).
const NO_SOLUTION: &str =
    "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4.";

fn data(path: &str) -> String {
    format!("{}/tests/data/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// Exit code 2 (bad input or usage) with `words` in the error output.
fn assert_usage_error(o: &Output, words: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains(words), "expected '{words}' in: {err}");
}

/// `judge leetcode37` writes the expected board of the shared sample byte for byte: compact JSON
/// with no final newline.
#[test]
fn judge_leetcode37_writes_the_expected_board_byte_for_byte() {
    let input = std::fs::read_to_string(data("cases/leetcode37/testcase_noahdragon.in.json"));
    let expected = std::fs::read(data("cases/leetcode37/testcase_noahdragon.out.json")).unwrap();
    let o = run_with(&["judge", "leetcode37"], &input.unwrap());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(o.stdout, expected, "{}", stdout(&o));
}

/// `render -o FILE` that cannot draw one picture (two puzzles, or only a bad one) says why and
/// leaves no file behind.
#[test]
fn render_to_a_file_that_it_refuses_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("one.svg");
    let out = svg.to_str().unwrap();
    let o = run_with(&["render", "-o", out], &format!("{MAGIC1}\n{MAGIC1}\n"));
    assert_usage_error(&o, "takes one picture; the input holds 2 puzzles");
    assert!(!svg.exists());
    let o = run_with(&["render", "-o", out], "12x\n");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!svg.exists());
    // One puzzle: drawn.
    let o = run_with(&["render", "-o", out], &format!("{MAGIC1}\n"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
}

/// `--proof FILE` with backends none of which writes proofs is refused before FILE is made;
/// so is a pair of backends that would both write it, and a command that runs many puzzles.
#[test]
fn proof_is_refused_before_any_file_without_a_backend_that_proves() {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("p.drat");
    let p = proof.to_str().unwrap();
    let input = format!("{CLASH}\n");
    for (args, words) in [
        (
            &["solve", "--backend", "dfs", "--proof", p][..],
            "--proof: dfs writes no proofs",
        ),
        (
            &["xcheck", "--backends", "dfs,dlx", "--proof", p][..],
            "--proof: dfs, dlx writes no proofs",
        ),
        (
            &["judge", "hdu1426", "--backend", "ilp", "--proof", p][..],
            "--proof: ilp writes no proofs",
        ),
        (
            &["bench", "--backends", "sat", "--proof", p, "-"][..],
            "--proof writes the proofs of one puzzle, and bench runs many",
        ),
        (
            &["fuzz", "--backends", "sat", "--puzzles", "1", "--proof", p][..],
            "--proof writes the proofs of one puzzle, and fuzz runs many",
        ),
    ] {
        let o = run_with(args, &input);
        assert_usage_error(&o, words);
        assert!(!proof.exists(), "{args:?}");
    }
}

/// `xcheck --proof` answers and proves the first puzzle and reports each other as bad input, as
/// `solve` does: one proof file holds the proofs of one puzzle.
#[test]
fn xcheck_with_a_proof_checks_the_first_puzzle_only() {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("p.drat");
    let p = proof.to_str().unwrap();
    let input = format!("{NO_SOLUTION}\n{MAGIC1}\n");
    let o = run_with(
        &[
            "xcheck",
            "--backends",
            "dfs,sat",
            "--task",
            "solve",
            "--proof",
            p,
        ],
        &input,
    );
    assert_usage_error(
        &o,
        "<stdin>:2:1: error: --proof writes the proofs of one puzzle",
    );
    assert!(
        stdout(&o).starts_with("1 puzzle, task solve: 0 disagreements"),
        "{}",
        stdout(&o)
    );
    assert!(std::fs::metadata(&proof).unwrap().len() > 0);
}

/// `judge --proof` answers the first puzzle of the input, writes its proof, and stops at the
/// second with a usage error instead of overwriting the proof.
#[test]
fn judge_with_a_proof_answers_the_first_puzzle_only() {
    let dir = tempfile::tempdir().unwrap();
    let proof = dir.path().join("p.drat");
    let p = proof.to_str().unwrap();
    let input = std::fs::read_to_string(data("cases/sicily1317/sample.in")).unwrap();
    let expected = std::fs::read_to_string(data("cases/sicily1317/sample.out")).unwrap();
    let o = run_with(
        &["judge", "sicily1317", "--backend", "sat", "--proof", p],
        &input,
    );
    assert_usage_error(&o, "--proof writes the proofs of one puzzle");
    let first = expected.split("\n\n").next().unwrap();
    assert_eq!(stdout(&o).trim_end(), first.trim_end());
    assert!(std::fs::metadata(&proof).unwrap().len() > 0);
}

/// A backend named twice in `--backends` is a usage error, not a duplicate row.
#[test]
fn a_backend_named_twice_is_a_usage_error() {
    for command in ["xcheck", "bench"] {
        let args = [command, "--backends", "dfs,sat,dfs", "-"];
        let o = run_with(&args, &format!("{MAGIC1}\n"));
        assert_usage_error(&o, "--backends names dfs twice");
        assert_eq!(stdout(&o), "");
    }
}

/// `report` on an empty file is an error naming it (exit 2), not an empty table; its errors in a
/// JSON input name their line and column.
#[test]
fn report_refuses_an_empty_file_and_names_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text, words) in [
        (
            "empty.json",
            "\n",
            "empty.json: empty: expected the output of bench --json",
        ),
        (
            "bench.json",
            "[\n  {\"file\" 1}\n]\n",
            "bench.json:2:11: not a bench --json file: expected `:`\n",
        ),
        (
            "xcheck.jsonl",
            "{\"index\": 1,\n",
            "xcheck.jsonl:1:12: not an xcheck --json record: EOF",
        ),
    ] {
        let file = dir.path().join(name);
        std::fs::write(&file, text).unwrap();
        let o = run(&["report", file.to_str().unwrap()]);
        assert_usage_error(&o, words);
        assert_eq!(stdout(&o), "");
    }
}

/// A puzzle that `convert` cannot write, or that `encode` refuses, is named by line and column.
#[test]
fn convert_and_encode_errors_name_line_and_column() {
    let antiking = std::fs::read_to_string(data("fpuzzles/antiking6.json")).unwrap();
    let o = run_with(&["convert", "--to", "line"], &antiking);
    assert_usage_error(
        &o,
        "<stdin>:1:1: error: anti-king constraints cannot be written",
    );
    let o = run_with(
        &["encode", "--to", "dimacs", "--sat-memory-mib", "1"],
        &format!("{}\n", ".".repeat(25 * 25)),
    );
    assert_usage_error(&o, "<stdin>:1:1: encode: the CNF of this 25×25 puzzle");
    let o = run_with(
        &["encode", "--to", "lp", "--sat-memory-mib", "1"],
        &format!("{}\n", ".".repeat(25 * 25)),
    );
    assert_usage_error(&o, "<stdin>:1:1: the integer program would take about");
}

/// Counts are words: "1 puzzle", "1 case".
#[test]
fn counts_of_one_are_singular() {
    let o = run_with(&["xcheck", "--backends", "dfs,sat"], &format!("{MAGIC1}\n"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("1 puzzle, task unique: 0 disagreements, 0 failures, 0 refusals\n"),
        "{}",
        stdout(&o)
    );
    let o = run(&["fuzz", "--backends", "dfs", "--size", "4", "--puzzles", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("no fault in 1 case ("),
        "{}",
        stdout(&o)
    );
    let o = run_with(
        &["render", "--index", "3", "--out", "."],
        &format!("{MAGIC1}\n"),
    );
    assert_usage_error(&o, "--index 3: the input holds 1 puzzle\n");
    let o = run_with(&["judge", "leetcode37"], "[[1,1],[2]]");
    assert_usage_error(
        &o,
        "row 2 has 1 cell, expected 2 (a board of 2 rows is 2×2)",
    );
}

/// `strength` names standard input `<stdin>` in its rows, as every other command names it.
#[test]
fn strength_names_standard_input_as_other_commands_do() {
    let o = run_with(&["strength"], &format!("{MAGIC1}\n"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let rows: Vec<&str> = out.lines().skip(1).filter(|l| !l.is_empty()).collect();
    assert!(!rows.is_empty(), "{out}");
    assert!(rows.iter().all(|l| l.starts_with("<stdin>  ")), "{out}");
}

/// A fuzz case whose grid cannot be drawn (case 4 of this seed: no 9×9 jigsaw with diagonals
/// keeping anti-knight within the search budget) is left out and named, and the run goes on;
/// a run made only of such cases ends with exit 2.
#[test]
fn fuzz_leaves_out_a_case_whose_grid_cannot_be_drawn() {
    let fuzz = |more: &[&str]| {
        let spec = ["fuzz", "--size", "9", "--jigsaw", "--diagonals"];
        let rest = [
            "--variants",
            "anti-knight",
            "--backends",
            "dfs",
            "--seed",
            "5503",
        ];
        let args: Vec<&str> = spec.iter().chain(&rest).chain(more).copied().collect();
        run(&args)
    };
    // Cases 4 and 7.
    let o = fuzz(&["--case", "4", "--puzzles", "4", "--shard", "1/3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("no fault in 1 case (seed 5503, shard 1/3 of the cases from 4)"),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).ends_with("; 1 case left out (no grid could be drawn): 4\n"),
        "{}",
        stdout(&o)
    );
    let o = fuzz(&["--case", "4", "--puzzles", "1"]);
    assert_usage_error(
        &o,
        "error: 1 of 1 case could not be drawn; case 4 of seed 5503 could not be generated: no \
         full grid of a 9×9 jigsaw and diagonals keeping anti-knight",
    );
}
