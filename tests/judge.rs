//! Judge modes: every sample in `tests/data/cases/<problem>/` with every backend of this build,
//! compared byte for byte, plus edge cases (clashing givens, several puzzles, bad walls).

use std::fs;

mod common;

use common::judge_samples::{cases_dir, judge_samples};
use sudoku_lab::backend::Limits;
use sudoku_lab::backends::{self, BackendKind};
use sudoku_lab::format::ParseError;
use sudoku_lab::judge::{self, JudgeError, Problem};

fn run_all(problem: Problem, input: &str) -> Vec<(BackendKind, Result<String, JudgeError>)> {
    BackendKind::all()
        .into_iter()
        .map(|kind| {
            let b = backends::create(kind, &Default::default()).unwrap();
            (
                kind,
                judge::run(problem, input, b.as_ref(), &Limits::none()),
            )
        })
        .collect()
}

#[test]
fn every_sample_with_every_backend() {
    let mut checked = 0;
    let samples = judge_samples();
    for problem in Problem::ALL {
        assert!(
            samples.iter().any(|s| s.problem == problem),
            "no samples for {problem}"
        );
    }
    for s in &samples {
        for (kind, got) in run_all(s.problem, &s.text) {
            let got = got.unwrap_or_else(|e| panic!("{kind} on {}: {e}", s.input.display()));
            assert_eq!(got, s.expected, "{kind} on {}", s.input.display());
            checked += 1;
        }
    }
    // 3 noip2009 + 1 hdu1426 + 1 hdu4069 + 1 sicily1317 + 2 leetcode37 samples per backend.
    assert_eq!(checked, 8 * BackendKind::all().len());
}

fn expect_all_ok(problem: Problem, input: &str) -> String {
    let mut outs = run_all(problem, input)
        .into_iter()
        .map(|(k, r)| r.unwrap_or_else(|e| panic!("{k}: {e}")));
    let first = outs.next().unwrap();
    for other in outs {
        assert_eq!(other, first);
    }
    first
}

fn expect_input_error(problem: Problem, input: &str) -> (usize, usize, String) {
    let (kind, r) = run_all(problem, input).remove(0);
    match r {
        Err(JudgeError::Input(e)) => (e.line, e.col, e.message),
        other => panic!("{kind}: expected an input error, got {other:?}"),
    }
}

const HDU1426_SAMPLE: &str = "tests/data/cases/hdu1426/sample";

#[test]
fn hdu1426_several_puzzles_have_a_blank_line_between() {
    let one = fs::read_to_string(format!("{HDU1426_SAMPLE}.in")).unwrap();
    let solved = fs::read_to_string(format!("{HDU1426_SAMPLE}.out")).unwrap();
    // The second puzzle is the first one's solution with two cells erased.
    let second = solved.replacen('7', "?", 1).replacen('3', "?", 1);
    let input = format!("{one}\n{second}\n\n\n");
    assert_eq!(
        expect_all_ok(Problem::Hdu1426, &input),
        format!("{solved}\n{solved}")
    );
    assert_eq!(expect_all_ok(Problem::Hdu1426, ""), "");
}

#[test]
fn clashing_givens_have_no_solution() {
    let clash = "5 5 ? ? ? ? ? ? ?\n".to_string() + &"? ? ? ? ? ? ? ? ?\n".repeat(8);
    assert_eq!(expect_all_ok(Problem::Hdu1426, &clash), "No solution\n");
    let noip = "3 0 0 0 0 0 0 0 3\n".to_string() + &"0 0 0 0 0 0 0 0 0\n".repeat(8);
    assert_eq!(expect_all_ok(Problem::Noip2009, &noip), "-1\n");
    let sicily =
        "1\n".to_string() + "_________\n" + &"1________\n".repeat(2) + &"_________\n".repeat(6);
    assert_eq!(
        expect_all_ok(Problem::Sicily1317, &sicily),
        "Puzzle 1 has no solution\n"
    );
    let board = r#"[["1","1",".",".",".",".",".",".","."]"#.to_string()
        + &r#",[".",".",".",".",".",".",".",".","."]"#.repeat(8)
        + "]";
    let (kind, r) = run_all(Problem::Leetcode37, &board).remove(0);
    assert!(
        matches!(r, Err(JudgeError::NoSolution { .. })),
        "{kind}: {r:?}"
    );
}

/// The first HDU 4069 sample case, as `T = 1` input.
fn hdu4069_first_case() -> String {
    let text = fs::read_to_string("tests/data/cases/hdu4069/sample.in").unwrap();
    let rows: Vec<&str> = text.lines().skip(1).take(9).collect();
    format!("1\n{}\n", rows.join("\n"))
}

#[test]
fn hdu4069_clashing_givens_and_bad_walls() {
    let case = hdu4069_first_case();
    let out = expect_all_ok(Problem::Hdu4069, &case);
    assert!(out.starts_with("Case 1:\n") && out.lines().count() == 10);
    // Give the first two cells (same row) the same digit: walls unchanged, digits clash.
    let mut cells: Vec<u32> = case
        .split_whitespace()
        .skip(1)
        .map(|t| t.parse().unwrap())
        .collect();
    let clash = |cells: &[u32]| -> String {
        let rows: Vec<String> = cells
            .chunks(9)
            .map(|r| r.iter().map(u32::to_string).collect::<Vec<_>>().join(" "))
            .collect();
        format!("1\n{}\n", rows.join("\n"))
    };
    let mut clashing = cells.clone();
    clashing[0] = (clashing[0] & !15) | 1;
    clashing[1] = (clashing[1] & !15) | 1;
    assert_eq!(
        expect_all_ok(Problem::Hdu4069, &clash(&clashing)),
        "Case 1:\nNo solution\n"
    );
    // Drop cell (1,1)'s right wall only: the neighbours disagree.
    let right_wall = cells
        .iter()
        .position(|&c| c & 32 != 0 && c & 128 == 0)
        .unwrap();
    let r = right_wall / 9;
    cells[right_wall] &= !32;
    let (line, col, msg) = expect_input_error(Problem::Hdu4069, &clash(&cells));
    assert_eq!(line, r + 2, "{msg}");
    assert!(col > 0 && msg.contains("walls disagree"), "{msg}");
    // Remove every wall: one region of 81 cells.
    let open: Vec<u32> = cells.iter().map(|c| c & 15).collect();
    let (line, col, msg) = expect_input_error(Problem::Hdu4069, &clash(&open));
    assert_eq!((line, col), (2, 1));
    assert!(
        msg.contains("1 regions") && msg.contains("9 regions of 9 cells"),
        "{msg}"
    );
}

#[test]
fn bad_input_names_line_and_column() {
    let mut noip = "0 0 0 0 0 0 0 0 0\n".repeat(9);
    noip.replace_range(4..5, "x");
    let (line, col, msg) = expect_input_error(Problem::Noip2009, &noip);
    assert_eq!((line, col), (1, 5), "{msg}");
    let short = "0 0 0\n";
    let (line, col, msg) = expect_input_error(Problem::Noip2009, short);
    assert_eq!((line, col), (1, 6));
    assert!(msg.contains("end of input"), "{msg}");
    let extra = "0 0 0 0 0 0 0 0 0\n".repeat(9) + "7\n";
    assert_eq!(expect_input_error(Problem::Noip2009, &extra).0, 10);
    let sicily = "1\n_________\n12345678\n";
    let (line, col, msg) = expect_input_error(Problem::Sicily1317, sicily);
    assert_eq!((line, col), (3, 1), "{msg}");
    let (line, _, msg) = expect_input_error(Problem::Hdu4069, "2\n");
    assert!(line == 1 && msg.contains("end of input"), "{msg}");
    let (line, col, _) = expect_input_error(Problem::Leetcode37, "[[\"1\",");
    assert_eq!((line, col), (1, 6)); // serde_json points at the last character read
}

#[test]
fn an_error_keeps_the_output_of_the_puzzles_before_it() {
    let dfs = backends::create(BackendKind::Dfs, &Default::default()).unwrap();
    let solved = fs::read_to_string(format!("{HDU1426_SAMPLE}.out")).unwrap();
    let one = fs::read_to_string(format!("{HDU1426_SAMPLE}.in")).unwrap();
    // Two good puzzles, then a third with an `X` on its first row: skipped, with its place.
    let bad = one.replacen('?', "X", 1);
    let input = format!("{one}\n{one}\n{bad}");
    let (out, skipped) = hdu1426(&input, dfs.as_ref());
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert_eq!(skipped[0].line, 21, "{}", skipped[0]);
    assert_eq!(out, format!("{solved}\n{solved}"));
    // Sicily 1317 announcing more puzzles than there are: the three answers, then the error.
    let sample = fs::read_to_string(cases_dir().join("sicily1317/sample.in")).unwrap();
    let expected = fs::read_to_string(cases_dir().join("sicily1317/sample.out")).unwrap();
    let (count, rest) = sample.split_once('\n').unwrap();
    assert_eq!(count.trim(), "3");
    let mut out = String::new();
    let e = judge::run_into(
        Problem::Sicily1317,
        &format!("4\n{rest}"),
        dfs.as_ref(),
        &Limits::none(),
        &mut out,
    );
    match e {
        Err(JudgeError::Input(p)) => assert!(p.message.contains("puzzle 4"), "{p}"),
        other => panic!("expected an input error, got {other:?}"),
    }
    assert_eq!(out, expected);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    /// No input panics a judge mode (a deadline keeps accidental valid puzzles short).
    #[test]
    fn judge_modes_never_panic(
        text in proptest::prop_oneof![
            proptest::prelude::any::<String>(),
            "[0-9?_. \n]{0,400}",
            "1\n([0-9]{1,3} ){0,100}",
        ],
    ) {
        let dfs = backends::create(BackendKind::Dfs, &Default::default()).unwrap();
        for problem in Problem::ALL {
            let limits = Limits::timeout(std::time::Duration::from_millis(50));
            let _ = judge::run(problem, &text, dfs.as_ref(), &limits);
        }
    }
}

/// HDU 1426 puzzles are separated by blank lines: a puzzle cut short is an error where it ends,
/// and the puzzle after it is answered, not spliced onto it.
#[test]
fn hdu1426_a_short_puzzle_is_skipped_and_the_next_answered() {
    let dfs = backends::create(BackendKind::Dfs, &Default::default()).unwrap();
    let one = fs::read_to_string(format!("{HDU1426_SAMPLE}.in")).unwrap();
    let solved = fs::read_to_string(format!("{HDU1426_SAMPLE}.out")).unwrap();
    let rows: Vec<&str> = one.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(rows.len(), 9);
    let short = rows[..4].join("\n");
    let input = format!("{one}\n{short}\n\n{one}");
    let (out, skipped) = hdu1426(&input, dfs.as_ref());
    assert_eq!(out, format!("{solved}\n{solved}"));
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    let e = &skipped[0];
    assert_eq!(e.line, 14, "{e}");
    assert_eq!(e.col, rows[3].trim_end().chars().count() + 1, "{e}");
    assert!(
        e.message
            .contains("from line 11 ends after 36 cells (4 rows)"),
        "{e}"
    );
    // `run` makes a skipped puzzle an error.
    let e = judge::run(Problem::Hdu1426, &input, dfs.as_ref(), &Limits::none());
    assert!(matches!(e, Err(JudgeError::Input(_))), "{e:?}");
}

/// `judge hdu1426` on `input`: what it printed, and the puzzles it skipped.
fn hdu1426(input: &str, backend: &dyn sudoku_lab::backend::Backend) -> (String, Vec<ParseError>) {
    let mut out = String::new();
    let skipped =
        judge::run_into(Problem::Hdu1426, input, backend, &Limits::none(), &mut out).unwrap();
    (out, skipped)
}
