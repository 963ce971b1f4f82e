//! Puzzle formats: every file under `tests/data/formats/` (and the judge samples that are plain
//! puzzles), the large grids of `../shared/data/large` when present, one test per class of bad
//! input, writer round trips (grids, and whole puzzles as lines), and a property that no input
//! panics the readers.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use proptest::prelude::*;
use sudoku_lab::backend::Limits;
use sudoku_lab::backends::{self, BackendKind};
use sudoku_lab::format::{
    self, detect, read_puzzles, read_weights, to_line, to_line_with_answer, write_grid, write_json,
    write_line, Entry, Format, LineError, ParseError, ReadOptions,
};
use sudoku_lab::generate::{full_grid, random_cages, random_jigsaw, GenRng};
use sudoku_lab::model::Expected;
use sudoku_lab::model::{Cage, Constraint, Grid, Puzzle, Regions, Shape, Value, Weights};
use sudoku_lab::task::{self, Answer, Task};

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

fn read(rel: &str) -> String {
    fs::read_to_string(data(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn auto() -> ReadOptions {
    ReadOptions::default()
}

/// Reads a text that must be all good puzzles.
fn all_ok(text: &str, opts: &ReadOptions) -> Vec<Entry> {
    read_puzzles(text, opts)
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// The single error of a one-puzzle text.
fn one_err(text: &str, opts: &ReadOptions) -> ParseError {
    let mut v = read_puzzles(text, opts);
    assert_eq!(v.len(), 1, "{v:?}");
    v.remove(0).expect_err("expected a parse error")
}

fn solve(p: &Puzzle, t: Task) -> Answer {
    let dfs = backends::create(BackendKind::Dfs, &Default::default()).unwrap();
    task::run(dfs.as_ref(), p, t, &Limits::none()).unwrap()
}

/// A 9×9 grid from 81 digits, or from 9 lines of 9 digits.
fn digits(s: &str) -> Grid {
    let cells: Vec<Value> = s
        .chars()
        .filter(char::is_ascii_digit)
        .map(|c| c as Value - '0' as Value)
        .collect();
    Grid::new(9, cells)
}

// ---------------------------------------------------------------------------------------------
// Good files

/// `(file under tests/data/formats, format detected, puzzles, side)`; every file there must be
/// listed (`.counts` files, line puzzles with known answers, and weights files are checked
/// below).
const FILES: &[(&str, Format, usize, usize)] = &[
    ("line_9x9.txt", Format::Line, 7, 9),
    ("line_jigsaw.txt", Format::Line, 1, 9),
    ("grid_jigsaw.txt", Format::Grid, 1, 9),
    ("grid_numbers.txt", Format::Grid, 3, 9),
    ("grid_symbols.txt", Format::Grid, 2, 9),
    ("boards.json", Format::Json, 2, 9),
    ("killer.txt", Format::Line, 2, 9),
    ("killer_boxless.txt", Format::Line, 1, 9),
    ("large/sudoku-4-1.txt", Format::Grid, 1, 4),
    ("large/sudoku-9-1.txt", Format::Line, 1, 9),
    ("large/sudoku-16-1.txt", Format::Grid, 1, 16),
    ("large/sudoku-25-1.txt", Format::Grid, 1, 25),
];

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(files_under(&p));
        } else {
            out.push(p);
        }
    }
    out.sort();
    out
}

#[test]
fn every_format_file_reads_as_expected() {
    let root = data("formats");
    for path in files_under(&root) {
        let rel = path
            .strip_prefix(&root)
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let text = fs::read_to_string(&path).unwrap();
        if rel.ends_with(".counts") {
            let entries = all_ok(&text, &auto());
            assert!(!entries.is_empty(), "{rel}");
            assert!(entries.iter().all(|e| e.expected.is_some()), "{rel}");
            continue;
        }
        if rel.starts_with("weights") {
            read_weights(&text, 9).unwrap_or_else(|e| panic!("{rel}: {e}"));
            continue;
        }
        let &(_, format, count, n) = FILES
            .iter()
            .find(|f| f.0 == rel)
            .unwrap_or_else(|| panic!("{rel} is not listed in FILES"));
        assert_eq!(detect(&text), format, "{rel}");
        let entries = all_ok(&text, &auto());
        assert_eq!(entries.len(), count, "{rel}");
        assert!(entries.iter().any(|e| e.puzzle.size() == n), "{rel}");
        // Forcing the detected format reads the same.
        let forced = ReadOptions {
            format: Some(format),
            ..auto()
        };
        assert_eq!(all_ok(&text, &forced), entries, "{rel}");
    }
}

#[test]
fn line_file_positions_and_shared_shapes() {
    let entries = all_ok(&read("formats/line_9x9.txt"), &auto());
    let lines: Vec<usize> = entries.iter().map(|e| e.line).collect();
    assert_eq!(lines, vec![3, 4, 6, 7, 9, 10, 11]);
    for e in &entries[1..] {
        assert!(Arc::ptr_eq(
            e.puzzle.shape_arc(),
            entries[0].puzzle.shape_arc()
        ));
    }
    // Every empty marker reads as 0: the 17-clue lines have 17 givens.
    for e in &entries[4..] {
        assert_eq!(e.puzzle.givens().iter().filter(|&&v| v > 0).count(), 17);
    }
    // Each is a proper puzzle: a unique solution.
    for e in &entries {
        assert!(matches!(solve(&e.puzzle, Task::Unique), Answer::Unique(_)));
    }
}

#[test]
fn jigsaw_line_and_grid_agree_and_solve_to_the_judge_answer() {
    let line = all_ok(&read("formats/line_jigsaw.txt"), &auto()).remove(0);
    let grid = all_ok(&read("formats/grid_jigsaw.txt"), &auto()).remove(0);
    assert!(matches!(line.puzzle.shape().regions(), Regions::Jigsaw(_)));
    assert_eq!(line.puzzle, grid.puzzle);
    let expected = read("cases/hdu4069/sample.out");
    let rows: String = expected.lines().skip(1).take(9).collect();
    match solve(&line.puzzle, Task::Unique) {
        Answer::Unique(g) => assert_eq!(g, digits(&rows)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn grid_files_solve_to_the_judge_answers() {
    let numbers = all_ok(&read("formats/grid_numbers.txt"), &auto());
    assert_eq!(
        numbers
            .iter()
            .map(|e| (e.line, e.puzzle.size()))
            .collect::<Vec<_>>(),
        vec![(1, 9), (12, 6), (19, 4)]
    );
    let hdu = digits(&read("cases/hdu1426/sample.out"));
    assert_eq!(solve(&numbers[0].puzzle, Task::Solve), Answer::Solved(hdu));
    for e in &numbers[1..] {
        assert!(matches!(solve(&e.puzzle, Task::Solve), Answer::Solved(_)));
    }
    let symbols = all_ok(&read("formats/grid_symbols.txt"), &auto());
    let sicily = read("cases/sicily1317/sample.out");
    let second: String = sicily.lines().skip(3).take(9).collect();
    assert_eq!(
        solve(&symbols[1].puzzle, Task::Unique),
        Answer::Unique(digits(&second))
    );
    assert_eq!(
        solve(&symbols[0].puzzle, Task::Count { limit: 100 }).count(),
        Some((6, true))
    );
}

#[test]
fn json_boards_solve_to_the_leetcode_answers() {
    let boards = all_ok(&read("formats/boards.json"), &auto());
    assert_eq!(
        boards.iter().map(|e| e.line).collect::<Vec<_>>(),
        vec![2, 3]
    );
    for (e, name) in boards.iter().zip(["example1", "testcase_noahdragon"]) {
        let out = all_ok(&read(&format!("cases/leetcode37/{name}.out.json")), &auto()).remove(0);
        assert_eq!(
            solve(&e.puzzle, Task::Solve),
            Answer::Solved(out.puzzle.givens_grid())
        );
    }
}

#[test]
fn plain_judge_inputs_are_puzzles_too() {
    for rel in [
        "cases/noip2009/sample0.in",
        "cases/hdu1426/sample.in",
        "cases/leetcode37/example1.in.json",
    ] {
        let e = all_ok(&read(rel), &auto());
        assert_eq!(e.len(), 1, "{rel}");
        assert_eq!(e[0].puzzle.size(), 9, "{rel}");
    }
}

#[test]
fn counts_file_agrees_with_the_solver() {
    let entries = all_ok(&read("formats/test_puzzles.counts"), &auto());
    assert_eq!(entries.len(), 43);
    let known = |e: &Entry| e.expected.clone().unwrap();
    assert!(entries.iter().any(|e| known(e).count == 0));
    assert!(entries.iter().any(|e| known(e).count > 1));
    for e in &entries {
        let Expected { count, solution } = known(e);
        let answer = solve(&e.puzzle, Task::Count { limit: count + 1 });
        assert_eq!(answer.count(), Some((count, true)), "line {}", e.line);
        if let (Some(sol), 1) = (&solution, count) {
            assert_eq!(answer.grid(), Some(sol), "line {}", e.line);
        }
        assert_eq!(known(e).contradiction(&answer), None, "line {}", e.line);
    }
    // serg_benchmark's form: an empty solution field.
    let serg = all_ok(
        "8.........95.......76.........426798...571243...893165......916....3.487....1.532:872:\n",
        &auto(),
    );
    assert_eq!(
        serg[0].expected,
        Some(Expected {
            count: 872,
            solution: None
        })
    );
    // A puzzle without a known answer on the next line of the same file.
    let mixed = all_ok(
        &format!("{}:288\n{}\n", ".".repeat(16), ".".repeat(16)),
        &auto(),
    );
    assert_eq!(mixed[0].expected.as_ref().map(|k| k.count), Some(288));
    assert_eq!(mixed[1].expected, None);
}

#[test]
fn weights_file_is_the_pyramid() {
    let w = read_weights(&read("formats/weights_pyramid9.txt"), 9).unwrap();
    assert_eq!(w, Weights::pyramid(9));
}

#[test]
fn diagonals_option_adds_two_houses() {
    let opts = ReadOptions {
        diagonals: true,
        ..auto()
    };
    let p = all_ok(&format!("123456789{}\n", ".".repeat(72)), &opts).remove(0);
    assert!(p.puzzle.shape().diagonals());
    assert_eq!(p.puzzle.shape().house_count(), 29);
    // The checker in task::run verifies both diagonals of the solution.
    assert!(matches!(solve(&p.puzzle, Task::Solve), Answer::Solved(_)));
}

/// Parsing only: the large grids of the shared data set (skipped when absent).
#[test]
fn shared_large_grids_read() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/large");
    if !dir.is_dir() {
        println!(
            "note: {} not found, skipping the large grids",
            dir.display()
        );
        return;
    }
    let mut seen = 0;
    for path in files_under(&dir) {
        let name = path.file_name().unwrap().to_str().unwrap();
        let n: usize = name.split('-').nth(1).unwrap().parse().unwrap();
        let text = fs::read_to_string(&path).unwrap();
        let expected = if n == 9 { Format::Line } else { Format::Grid };
        assert_eq!(detect(&text), expected, "{name}");
        let e = all_ok(&text, &auto());
        assert_eq!(e.len(), 1, "{name}");
        assert_eq!(e[0].puzzle.size(), n, "{name}");
        assert!(e[0].puzzle.givens().iter().any(|&v| v > 0), "{name}");
        seen += 1;
    }
    assert!(seen >= 10, "only {seen} files in {}", dir.display());
}

// ---------------------------------------------------------------------------------------------
// Bad input: one test per class, each naming line and column

#[test]
fn bad_symbol() {
    let text = format!("# c\n{}*{}\n", ".".repeat(10), ".".repeat(70));
    let e = one_err(&text, &auto());
    assert_eq!((e.line, e.col), (2, 11), "{e}");
    assert!(e.message.contains("'*'"), "{e}");
    let e = one_err("1 2 3 4\n3 4 1 2\n2 1 x 3\n4 3 2 1\n", &auto());
    assert_eq!((e.line, e.col), (3, 5), "{e}");
}

#[test]
fn wrong_length() {
    let e = one_err(&".".repeat(80), &auto());
    assert_eq!((e.line, e.col), (1, 1));
    assert!(
        e.message.contains("80") && e.message.contains("64") && e.message.contains("81"),
        "{e}"
    );
    let e = one_err(&".".repeat(36 * 36), &auto());
    assert!(e.message.contains("grid format"), "{e}");
}

#[test]
fn value_larger_than_side() {
    let e = one_err("1...\n..3.\n.4..\n...5\n", &auto());
    assert_eq!((e.line, e.col), (4, 4), "{e}");
    let e = one_err("1..5............\n", &auto());
    assert_eq!((e.line, e.col), (1, 4), "{e}");
    let e = one_err("1 0 0 0\n0 0 17 0\n0 0 0 0\n0 0 0 0\n", &auto());
    assert_eq!((e.line, e.col), (2, 5), "{e}");
    assert!(e.message.contains("17"), "{e}");
}

#[test]
fn ragged_grid() {
    let e = one_err("1 2 3 4\n3 4 1\n2 1 4 3\n4 3 2 1\n", &auto());
    assert_eq!((e.line, e.col), (2, 6), "{e}");
    assert!(e.message.contains("ragged"), "{e}");
    let e = one_err("1 2 3 4\n3 4 1 2 3\n2 1 4 3\n4 3 2 1\n", &auto());
    assert_eq!((e.line, e.col), (2, 9), "{e}");
    // Too few and too many rows.
    let e = one_err("1 2 3 4\n3 4 1 2\n2 1 4 3\n", &auto());
    assert_eq!(e.line, 4, "{e}");
    let e = one_err("1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n1 2 3 4\n", &auto());
    assert!(e.line == 5 && e.message.contains("blank line"), "{e}");
    // Rows of symbols with no separator, one of them short: one error at that row, not nine
    // line puzzles of side 3.
    let rows = [
        "123456789",
        "456789123",
        "78912345",
        "234567891",
        "567891234",
        "891234567",
        "345678912",
        "678912345",
        "912345678",
    ];
    let e = one_err(&(rows.join("\n") + "\n"), &auto());
    assert_eq!(e.line, 3, "{e}");
    assert!(e.message.contains("ragged"), "{e}");
}

#[test]
fn bad_region_maps() {
    let givens = ".".repeat(16);
    // Region 'a' has 5 cells, 'd' 3.
    let e = one_err(&format!("{givens} aaaabbbbccccaddd\n"), &auto());
    assert_eq!((e.line, e.col), (1, 18), "{e}");
    assert!(e.message.contains("'a' has 5 cells"), "{e}");
    // A fifth label.
    let e = one_err(&format!("{givens} aaaabbbbccccdddE\n"), &auto());
    assert_eq!((e.line, e.col), (1, 33), "{e}");
    // Three labels only.
    let e = one_err(&format!("{givens} aaaabbbbccccaaaa\n"), &auto());
    assert!(e.message.contains("3 distinct"), "{e}");
    // Wrong number of labels, bad label character.
    let e = one_err(&format!("{givens} aaaabbbb\n"), &auto());
    assert!(e.message.contains("8 region labels"), "{e}");
    let e = one_err(&format!("{givens} aaaabbbbcccc.ddd\n"), &auto());
    assert_eq!(e.col, 30, "{e}");
    // Grid form: region rows that do not make 4 regions of 4.
    let e = one_err(
        "0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n1 1 2 2\n1 1 2 2\n3 3 4 4\n3 3 3 4\n",
        &auto(),
    );
    assert!(e.message.contains("'3' has 5 cells"), "{e}");
    // One mistyped label of the grid form is named where it is, not the fifth label to appear
    // ('4', on line 7).
    for bad in ["10", "0", "x"] {
        let text =
            format!("0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n1 1 {bad} 2\n1 1 2 2\n3 3 4 4\n3 3 4 4\n");
        let e = one_err(&text, &auto());
        assert_eq!((e.line, e.col), (5, 5), "{e}");
        let words = format!("region label '{bad}' (on 1 cell) makes 5 distinct labels");
        assert!(e.message.contains(&words), "{e}");
    }
}

/// Killer sums: a space inside the list, or a word after it, is named where it is; a negative
/// or huge sum is an error that says so, in a line and in a puzzle object alike.
#[test]
fn bad_killer_sums_say_what_is_wrong() {
    let line = |sums: &str| format!("{} 0011223344556677 {sums}\n", ".".repeat(16));
    let e = one_err(&line("3, 7,7,3,3,7,7,3"), &auto());
    assert_eq!((e.line, e.col), (1, 38), "{e}");
    assert!(
        e.message
            .starts_with("unexpected token '7,7,3,3,7,7,3' after the cage sums '3,'"),
        "{e}"
    );
    let e = one_err(&line("3,7,7,3,3,7,7,3 extra"), &auto());
    assert_eq!(e.col, 51, "{e}");
    assert!(e.message.starts_with("unexpected token 'extra'"), "{e}");
    assert_eq!(all_ok(&line("+3,7,7,3,3,7,7,-0"), &auto()).len(), 1);
    let e = one_err(&line("-3,7,7,3,3,7,7,3"), &auto());
    assert_eq!((e.col, e.message.as_str()), (35, "negative cage sum -3"));
    let e = one_err(&line("3,99999999999999999999999,7,3,3,7,7,3"), &auto());
    assert_eq!(e.col, 37, "{e}");
    assert_eq!(
        e.message,
        "cage sum 99999999999999999999999 is out of range (0 to 4294967295)"
    );
    let object = |sum: &str| {
        let row = r#"[".",".",".","."]"#;
        format!(
            r#"{{"board": [{row},{row},{row},{row}], "cages": [{{"sum": {sum}, "cells": [[1, 1], [1, 2]]}}]}}"#
        )
    };
    let e = one_err(&object("-3"), &auto());
    assert!(e.message.contains("negative cage sum -3"), "{e}");
    let e = one_err(&object("4294967296"), &auto());
    assert!(
        e.message.contains("cage sum 4294967296 is out of range"),
        "{e}"
    );
}

/// Line inputs that used to get a misleading message: a byte order mark at the start of a later
/// line (files joined with `cat`) is skipped; a CR-only line end, a comment after a puzzle and
/// the JSON word `null` are named as such.
#[test]
fn odd_line_inputs_get_clear_messages() {
    let empty = ".".repeat(81);
    let text = format!("\u{feff}{empty}\n\u{feff}{empty}\n");
    assert_eq!(all_ok(&text, &auto()).len(), 2);
    let text = format!("{empty}\r{empty}\r");
    let e = one_err(&text, &auto());
    assert_eq!((e.line, e.col), (1, 82), "{e}");
    assert!(
        e.message.starts_with("a carriage return inside the line"),
        "{e}"
    );
    let e = one_err(&format!("{empty} # hard one\n"), &auto());
    assert_eq!((e.line, e.col), (1, 83), "{e}");
    assert!(e.message.starts_with("a comment after the puzzle"), "{e}");
    let e = one_err("null\n", &auto());
    assert!(!e.message.contains("value 23"), "{e}");
    // A jigsaw line with a token too many is a line (not a grid row of 5 values) whose reader
    // names the token.
    let labels = "0000111122223333";
    let text = format!("{} {labels} {labels} {labels} 1,2,3,4\n", ".".repeat(16));
    let e = one_err(&text, &auto());
    assert_eq!((e.line, e.col), (1, 69), "{e}");
    assert!(
        e.message
            .starts_with("unexpected '1,2,3,4' after the puzzle"),
        "{e}"
    );
}

#[test]
fn side_without_box_shape() {
    let row = "0 0 0 0 0 0 0\n";
    let e = one_err(&row.repeat(7), &auto());
    assert_eq!((e.line, e.col), (1, 1));
    assert!(e.message.contains("no box shape fits side 7"), "{e}");
    let e = one_err(&".".repeat(49), &auto());
    assert!(e.message.contains("no box shape"), "{e}");
    // With regions a 7×7 is fine: rows as regions would clash with rows, so use a latin layout.
    let labels: String = (0..49)
        .map(|i| char::from(b'a' + ((i % 7 + i / 7) % 7) as u8))
        .collect();
    let p = all_ok(&format!("{} {labels}\n", ".".repeat(49)), &auto()).remove(0);
    assert_eq!(p.puzzle.size(), 7);
}

#[test]
fn bad_json() {
    let e = one_err("[[\"1\",\"2\"],\n [\"3\" \"4\"]]", &auto());
    assert_eq!(e.line, 2, "{e}");
    assert!(e.message.starts_with("invalid JSON"), "{e}");
    let e = one_err(
        "[[\"1\",\"2\",\".\",\".\"],\n[\".\",\".\",\".\"],[],[]]",
        &auto(),
    );
    assert_eq!((e.line, e.col), (2, 1), "{e}");
    assert!(e.message.contains("row 2 has 3 cells"), "{e}");
    let board = "[[\"1\",\".\",\".\",\".\"],[\".\",\".\",\".\",\".\"],\n [\".\",\".\",\"x\",\".\"],[\".\",\".\",\".\",\".\"]]";
    let e = one_err(board, &auto());
    assert_eq!((e.line, e.col), (2, 11), "{e}");
    // A batch of boards goes on past a bad one.
    let two = format!(
        "[{},\n{}]",
        board.replace('\n', ""),
        board.replace("\"x\"", "\"3\"").replace('\n', "")
    );
    let r = read_puzzles(&two, &auto());
    assert!(
        r[0].is_err() && r[1].as_ref().is_ok_and(|e| e.line == 2),
        "{r:?}"
    );
    let e = one_err("{\"board\": 1}", &auto());
    assert!(e.message.contains("expected a board"), "{e}");
}

#[test]
fn a_batch_goes_on_past_a_bad_puzzle() {
    let good = ".".repeat(81);
    let text = format!("{good}\n{}\n\n{good}\r\n", ".".repeat(79));
    let r = read_puzzles(&text, &auto());
    assert_eq!(r.len(), 3);
    assert_eq!(r[0].as_ref().unwrap().line, 1);
    assert_eq!(r[1].as_ref().unwrap_err().line, 2);
    assert_eq!(r[2].as_ref().unwrap().line, 4);
    let grids = "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n\n1 2\n\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n";
    let r = read_puzzles(grids, &auto());
    assert!(r[0].is_ok() && r[1].is_err() && r[2].as_ref().is_ok_and(|e| e.line == 8));
}

#[test]
fn bad_weights_and_counts() {
    let e = read_weights("1 2\n3 4\n5 6\n", 2).unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    let e = read_weights("1 2\n3 x\n", 2).unwrap_err();
    assert_eq!((e.line, e.col), (2, 3), "{e}");
    let e = read_weights("1 2\n", 2).unwrap_err();
    assert_eq!(e.line, 2, "{e}");
    let e = read_weights("1 2 3\n3 4\n", 2).unwrap_err();
    assert_eq!((e.line, e.col), (1, 5), "{e}");
    let e = read_weights("1 2\n3 -99999999999999\n", 2).unwrap_err();
    assert!(
        (e.line, e.col) == (2, 3) && e.message.contains("out of range"),
        "{e}"
    );
    // The first weight out of range is the one named, where it is; past i64 too.
    let e = read_weights("1099511627777 2\n3 1099511627778\n", 2).unwrap_err();
    assert_eq!((e.line, e.col), (1, 1), "{e}");
    assert!(e.message.contains("1099511627777 "), "{e}");
    let e = read_weights("1 2\n3 99999999999999999999999\n", 2).unwrap_err();
    assert!(
        (e.line, e.col) == (2, 3) && e.message.contains("out of range"),
        "{e}"
    );
}

#[test]
fn bad_known_answer() {
    let empty = ".".repeat(16);
    // (input, line and column of the error, words of the message)
    let cases = [
        (
            format!("# c\n{}:many\n", ".".repeat(81)),
            (2, 83),
            "bad solution count 'many'",
        ),
        (
            format!("{empty}:1:123\n"),
            (1, 20),
            "3 symbols, expected 16",
        ),
        // A grid that is not a solution of the puzzle: rows repeat.
        (
            format!("{empty}:1:{}\n", "1234".repeat(4)),
            (1, 20),
            "does not solve the puzzle",
        ),
        // A solution next to a count of 0.
        (
            format!("{empty}:0:1234341221434321\n"),
            (1, 18),
            "count says there is none",
        ),
        (
            format!("{empty}:1:1234341221434321:x\n"),
            (1, 36),
            "4 ':'-separated fields",
        ),
    ];
    for (text, pos, words) in cases {
        let e = one_err(&text, &auto());
        assert_eq!((e.line, e.col), pos, "{e}");
        assert!(e.message.contains(words), "{e}");
    }
}

// ---------------------------------------------------------------------------------------------
// Writers

#[test]
fn writers() {
    let g = Grid::new(4, vec![1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2]);
    assert_eq!(write_line(&g).unwrap(), "1.....3..4.....2");
    assert_eq!(write_grid(&g), "1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2");
    assert_eq!(
        write_json(&g).unwrap(),
        r#"[["1",".",".","."],[".",".","3","."],[".","4",".","."],[".",".",".","2"]]"#
    );
    let big = Grid::new(36, vec![36; 36 * 36]);
    assert_eq!(write_line(&big), None);
    assert_eq!(write_json(&big), None);
    assert!(write_grid(&big).starts_with("36 36"));
}

/// Random partial grids of the sides the writers handle.
fn grids() -> impl Strategy<Value = Grid> {
    prop_oneof![
        Just(1usize),
        Just(4),
        Just(6),
        Just(9),
        Just(16),
        Just(25),
        Just(36)
    ]
    .prop_flat_map(|n| {
        proptest::collection::vec(0..=n as Value, n * n).prop_map(move |cells| Grid::new(n, cells))
    })
}

fn read_back(text: &str, format: Format) -> Grid {
    let opts = ReadOptions {
        format: Some(format),
        ..auto()
    };
    let mut v = all_ok(text, &opts);
    assert_eq!(v.len(), 1);
    v.remove(0).puzzle.givens_grid()
}

/// A puzzle of each kind the line format writes — standard boxes (with or without the diagonals,
/// which the reader adds from its options), jigsaw regions, Killer cages on either — cut from a
/// random full grid, with that grid. Cages are in the order the reader numbers them (of their
/// first cell), each cage's cells in increasing order, and some cells are in no cage.
fn line_puzzles() -> impl Strategy<Value = (Puzzle, Grid)> {
    (
        prop_oneof![Just(1usize), Just(2), Just(4), Just(6), Just(9), Just(12)],
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<u64>(),
        0..=100usize,
    )
        .prop_map(|(n, jigsaw, killer, diagonals, seed, keep_pct)| {
            let mut rng = GenRng::seed(seed);
            // Side 2 has no boxes: only jigsaw regions.
            let (shape, grid) = if (jigsaw && n > 1) || n == 2 {
                random_jigsaw(n, false, &mut rng).unwrap()
            } else {
                let shape = Arc::new(Shape::standard(n, diagonals && matches!(n, 4 | 9)).unwrap());
                let grid = full_grid(&shape, &mut rng).unwrap();
                (shape, grid)
            };
            let givens = grid
                .cells()
                .iter()
                .map(|&v| if rng.below(100) < keep_pct { v } else { 0 })
                .collect();
            let mut puzzle = Puzzle::new(shape, givens).unwrap();
            if killer {
                let mut cages = random_cages(n, &grid, (1, n), &mut rng);
                cages.retain(|_| rng.below(4) > 0);
                cages.iter_mut().for_each(|c| c.sort_unstable());
                cages.sort_unstable();
                let cages = cages
                    .into_iter()
                    .map(|cells| {
                        let sum = cells.iter().map(|&c| grid.cells()[c as usize] as u32).sum();
                        Constraint::Cage(Cage::new(cells, sum))
                    })
                    .collect();
                puzzle = puzzle.with_constraints(cages).unwrap();
            }
            (puzzle, grid)
        })
}

/// Boxes other than the side's standard ones are written as region labels, and the line reads
/// back with the same houses (as a jigsaw), givens and cages: without the labels, `3×2` boxes on
/// 6×6 would read back as `2×3` ones, and a 5×5 line would not read at all.
#[test]
fn lines_keep_boxes_other_than_the_standard_ones() {
    for (n, rows, cols) in [(6, 3, 2), (5, 1, 5), (9, 1, 9), (8, 4, 2), (4, 4, 1)] {
        let shape = Arc::new(Shape::new(n, Regions::Boxes { rows, cols }, false).unwrap());
        let mut rng = GenRng::seed(n as u64 * 31 + rows as u64);
        let grid = full_grid(&shape, &mut rng).unwrap();
        let givens: Vec<Value> = grid
            .cells()
            .iter()
            .map(|&v| if rng.below(3) == 0 { v } else { 0 })
            .collect();
        let mut cages = random_cages(n, &grid, (2, 4), &mut rng);
        cages.iter_mut().for_each(|c| c.sort_unstable());
        cages.sort_unstable();
        let cages: Vec<Constraint> = cages
            .into_iter()
            .map(|cells| {
                let sum = cells.iter().map(|&c| grid.cells()[c as usize] as u32).sum();
                Constraint::Cage(Cage::new(cells, sum))
            })
            .collect();
        let puzzle = Puzzle::new(shape.clone(), givens)
            .unwrap()
            .with_constraints(cages)
            .unwrap();
        let line = to_line(&puzzle).unwrap();
        let back = all_ok(&line, &auto()).remove(0).puzzle;
        let (a, b) = (puzzle.shape(), back.shape());
        assert_eq!(b.size(), n, "{line}");
        assert!(matches!(b.regions(), Regions::Jigsaw(_)), "{line}");
        for h in 0..a.house_count() {
            let mut x = a.house(h).to_vec();
            let mut y = b.house(h).to_vec();
            x.sort_unstable();
            y.sort_unstable();
            assert_eq!(x, y, "{rows}x{cols} boxes, house {h}: {line}");
        }
        assert_eq!(back.givens(), puzzle.givens(), "{line}");
        assert_eq!(back.constraints(), puzzle.constraints(), "{line}");
    }
}

proptest! {
    /// A puzzle written as a line reads back as the same puzzle (givens, regions, cages), and its
    /// known answer written after it reads back as that answer.
    #[test]
    fn puzzle_lines_round_trip((puzzle, grid) in line_puzzles(), count in 1..10u64) {
        let opts = ReadOptions {
            format: Some(Format::Line),
            diagonals: puzzle.shape().diagonals(),
        };
        let line = match to_line(&puzzle) {
            Ok(line) => line,
            Err(e) => {
                let cages = puzzle.cages().count();
                prop_assert_eq!(e, LineError::TooManyCages(cages));
                prop_assert!(cages > 62);
                return Ok(());
            }
        };
        let mut back = all_ok(&line, &opts);
        prop_assert_eq!(back.len(), 1);
        let entry = back.remove(0);
        prop_assert_eq!(&entry.puzzle, &puzzle, "{}", line);
        prop_assert_eq!(entry.expected, None);

        let line = to_line_with_answer(&puzzle, Some((count, &grid))).unwrap();
        let entry = all_ok(&line, &opts).remove(0);
        prop_assert_eq!(&entry.puzzle, &puzzle, "{}", line);
        let expected = Expected { count, solution: Some(grid) };
        prop_assert_eq!(entry.expected, Some(expected), "{}", line);
    }

    #[test]
    fn writers_round_trip(g in grids()) {
        prop_assert_eq!(read_back(&write_grid(&g), Format::Grid), g.clone());
        if let Some(line) = write_line(&g) {
            prop_assert_eq!(read_back(&line, Format::Line), g.clone());
            prop_assert_eq!(detect(&line), Format::Line);
        }
        if let Some(json) = write_json(&g) {
            prop_assert_eq!(read_back(&json, Format::Json), g.clone());
        }
    }

    /// No input panics any reader (arbitrary strings, and strings made of the formats' own
    /// characters, which reach deeper).
    #[test]
    fn readers_never_panic(
        text in prop_oneof![
            any::<String>(),
            "[0-9a-zA-Z.?_\\-: \t\r\n#\\[\\]{}\",é]{0,300}",
            "([0-9.]{16}( [a-d]{16})?\n){1,3}",
            "(([0-9] ){3}[0-9]\n){3,5}\n?",
        ],
        diagonals in any::<bool>(),
    ) {
        for format in [None, Some(Format::Line), Some(Format::Grid), Some(Format::Json)] {
            let _ = read_puzzles(&text, &ReadOptions { format, diagonals });
        }
        for n in [1, 2, 4, 9] {
            let _ = read_weights(&text, n);
        }
        let _ = format::detect(&text);
    }
}
