//! End-to-end tests of option handling that every command shares: `-` as standard output for the
//! output-file options (and as standard input for `report`), `-j` wherever `--jobs` is, errors
//! that say `error:` and name their option, degenerate option values refused, and files that
//! could not be read leaving no rows behind.

mod common;
use common::{bin, run, run_with, stderr, stdout};

use std::io::Write;
use std::process::{Output, Stdio};

const MAGIC1: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
/// A medium puzzle, graded in milliseconds.
const MEDIUM: &str =
    ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
/// An empty 4×4 grid: 288 solutions.
const EMPTY4: &str = "................";

/// Exit code 2 (bad input or usage) with `words` in the error output.
fn assert_usage_error(o: &Output, words: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains(words), "expected '{words}' in: {err}");
}

/// Runs `sudoku-lab ARGS` in `dir` with `input` on standard input.
fn run_in(dir: &std::path::Path, args: &[&str], input: &str) -> Output {
    let mut child = bin()
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

/// A file holding `text`, in `dir`.
fn file(dir: &tempfile::TempDir, name: &str, text: &[u8]) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// Every output-file option takes `-` for standard output: what it writes replaces what the
/// command prints there otherwise, and no file named `-` is made.
#[test]
fn dash_is_standard_output_for_every_output_file_option() {
    let dir = tempfile::tempdir().unwrap();
    let input = format!("{MAGIC1}\n");
    let cases: [(&[&str], &str); 7] = [
        (&["render", "-o", "-"], "<svg"),
        (&["encode", "-o", "-"], "p cnf "),
        (
            &["bench", "--backends", "dfs", "--csv", "-", "-"],
            "file,backend,task",
        ),
        (
            &["bench", "--backends", "dfs", "--json", "-", "-"],
            "\"samples\"",
        ),
        (&["grade", "--json", "-"], "\"command\": \"grade\""),
        (
            &["strength", "--levels", "up", "--csv", "-"],
            "file,encoding,amo,level",
        ),
        (&["explain", "--html", "-"], "<html"),
    ];
    for (args, head) in cases {
        let o = run_in(dir.path(), args, &input);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains(head), "{args:?}: expected '{head}' in: {out}");
        assert!(
            !dir.path().join("-").exists(),
            "{args:?} wrote a file named -"
        );
    }
    // The table is left out: the CSV is all there is; standard input is named as elsewhere.
    let o = run_in(
        dir.path(),
        &["bench", "--backends", "dfs", "--csv", "-", "-"],
        &input,
    );
    assert!(
        stdout(&o).starts_with("file,backend,task"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("\n<stdin>,dfs,"), "{}", stdout(&o));
    // Two outputs of one command cannot share standard output.
    let o = run_in(
        dir.path(),
        &[
            "bench",
            "--backends",
            "dfs",
            "--csv",
            "-",
            "--json",
            "-",
            "-",
        ],
        &input,
    );
    assert_usage_error(&o, "--csv, --json cannot all write to standard output");
    assert!(!dir.path().join("-").exists());
}

/// `report -` reads the shards' JSON from standard input.
#[test]
fn report_reads_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = file(&dir, "p.txt", format!("{MAGIC1}\n").as_bytes());
    let o = run(&["bench", "--backends", "dfs", "--json", "-", &puzzles]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run_with(&["report", "-"], &stdout(&o));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("dfs"), "{}", stdout(&o));
}

/// `grade` takes `-j` as the other commands do.
#[test]
fn grade_takes_dash_j() {
    let o = run_with(&["grade", "-j1"], &format!("{MAGIC1}\n"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Errors say `error:`, name the option they are about, and place what they can.
#[test]
fn errors_say_error_and_name_their_option() {
    let dir = tempfile::tempdir().unwrap();
    let garbage = file(&dir, "garbage.bin", b"\xff\xfe\x00garbage\n");
    let o = run(&["explain", "--candidates", &garbage]);
    assert_usage_error(
        &o,
        &format!("{garbage}:1:1: error: input is not valid UTF-8 text"),
    );
    let o = run_with(&["optimize", "--weights", &garbage], &format!("{MAGIC1}\n"));
    assert_usage_error(&o, &format!("--weights {garbage}:1:1:"));
    let nowhere = dir.path().join("no-such-dir").join("x.cnf");
    let nowhere = nowhere.to_str().unwrap();
    let o = run_with(&["encode", "-o", nowhere], &format!("{MAGIC1}\n"));
    assert_usage_error(&o, &format!("-o {nowhere}: cannot write"));
    // Eight rows of a nine-row NOIP puzzle: the end of the input is an error at its place.
    let rows: Vec<String> = MAGIC1
        .as_bytes()
        .chunks(9)
        .take(8)
        .map(|r| {
            let r: Vec<String> = r
                .iter()
                .map(|&c| (c as char).to_digit(10).unwrap_or(0).to_string())
                .collect();
            r.join(" ")
        })
        .collect();
    let o = run_with(&["judge", "noip2009"], &(rows.join("\n") + "\n"));
    assert_usage_error(&o, "<stdin>:8:18: error: unexpected end of input");
    let o = run_with(&["count", "-b", "isotope"], &format!("{MAGIC1}\n"));
    assert_usage_error(&o, "<stdin>:1:1: error: ");
}

/// `strength` and `bench` print no rows for a file they could not read; the other files keep
/// theirs, and the exit code says something was wrong.
#[test]
fn an_unreadable_file_has_no_rows() {
    let dir = tempfile::tempdir().unwrap();
    let good = file(&dir, "good.txt", format!("{MAGIC1}\n").as_bytes());
    let missing = dir.path().join("missing.txt");
    let missing = missing.to_str().unwrap();
    for args in [
        vec!["strength", "--levels", "up", missing, &good],
        vec!["bench", "--backends", "dfs", missing, &good],
    ] {
        let o = run(&args);
        assert_usage_error(&o, "missing.txt");
        let out = stdout(&o);
        assert!(!out.contains("missing.txt"), "{args:?}: {out}");
        assert!(out.contains("good.txt"), "{args:?}: {out}");
    }
}

/// Option values that name nothing, or that could only repeat or mislead, are refused.
#[test]
fn degenerate_option_values_are_refused() {
    let input = format!("{MAGIC1}\n");
    for list in ["", ",,,"] {
        for command in ["explain", "grade"] {
            let o = run_with(&[command, "--techniques", list], &input);
            assert_usage_error(&o, "--techniques: no technique or family named (known: ");
        }
    }
    let o = run(&["generate", "--techniques", ""]);
    assert_usage_error(&o, "--techniques: no technique or family named");
    let o = run(&["fuzz", "--backends", "dfs", "--puzzles", "0"]);
    assert_usage_error(&o, "--puzzles takes 1 or more");
    let fuzz3 = |extra: &[&str]| {
        let args = [&["fuzz", "--backends", "dfs", "--puzzles", "3"][..], extra].concat();
        run(&args)
    };
    let o = fuzz3(&["--case", &u64::MAX.to_string()]);
    assert_usage_error(&o, "--case");
    let o = fuzz3(&["--killer", "--cage-sizes", "20..30"]);
    assert_usage_error(&o, "--cage-sizes 20..30: no cage of 20 cells or more fits");
    let o = run_with(&["strength", "--encodings", "minimal,minimal"], &input);
    assert_usage_error(&o, "--encodings names minimal twice");
}

/// A fuzz run whose every case every backend refused checked nothing: it says so and fails.
#[test]
fn fuzz_with_every_case_refused_fails() {
    let o = run(&[
        "fuzz",
        "--backends",
        "isotope",
        "--puzzles",
        "2",
        "--seed",
        "1",
        "-j1",
    ]);
    assert_usage_error(&o, "every case was refused by every backend (isotope)");
}

/// `explain --verify` on a puzzle it cannot verify (no unique solution) fails.
#[test]
fn explain_verify_without_a_unique_solution_fails() {
    let o = run_with(&["explain", "--verify"], &format!("{EMPTY4}\n"));
    assert_usage_error(&o, "<stdin>:1:1: error: --verify: not checked");
}

/// `explain --verify` holds the puzzle's solution against the known answer the input gives
/// with it (`puzzle:count:solution`): an answer that agrees is what the steps are checked
/// against; a count the puzzle does not have is said, and the steps are not checked (exit 2).
#[test]
fn explain_verify_holds_the_known_answer_given() {
    let solve = |puzzle: &str| {
        stdout(&run_with(&["solve"], &format!("{puzzle}\n")))
            .trim()
            .to_string()
    };
    let solution = solve(MEDIUM);
    let o = run_with(
        &["explain", "--verify"],
        &format!("{MEDIUM}:1:{solution}\n"),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("# solved in"), "{}", stdout(&o));
    let o = run_with(&["explain", "--verify"], &format!("{MEDIUM}:2\n"));
    assert_usage_error(
        &o,
        "<stdin>:1:1: error: --verify: not checked: the known answer given with the puzzle does \
         not hold: expected exactly 2 solutions, and the puzzle has exactly one solution",
    );
    let o = run_with(&["explain", "--verify"], &format!("{MEDIUM}:0\n"));
    assert_usage_error(
        &o,
        "expected no solution, and the puzzle has exactly one solution",
    );
    // One of the 288 solutions of the empty 4×4, given as its only one.
    let one_of_many = solve(EMPTY4);
    let o = run_with(
        &["explain", "--verify"],
        &format!("{EMPTY4}:1:{one_of_many}\n"),
    );
    assert_usage_error(
        &o,
        "expected exactly 1 solution, and the puzzle has several solutions",
    );
    // A grid that does not solve the puzzle is the reader's error, at the grid.
    let mut wrong: Vec<char> = solution.chars().collect();
    wrong.swap(0, 1);
    let wrong: String = wrong.into_iter().collect();
    let o = run_with(&["explain", "--verify"], &format!("{MEDIUM}:1:{wrong}\n"));
    assert_usage_error(
        &o,
        "<stdin>:1:85: error: the solution given does not solve the puzzle",
    );
    assert_eq!(stdout(&o), "");
}

/// `xcheck --pictures DIR` makes DIR only for a picture: a run that draws none leaves no folder.
#[test]
fn pictures_folder_is_made_only_for_a_picture() {
    let dir = tempfile::tempdir().unwrap();
    let pics = dir.path().join("pics");
    let o = run_with(
        &[
            "xcheck",
            "--backends",
            "dfs,dlx",
            "--pictures",
            pics.to_str().unwrap(),
        ],
        &format!("{MAGIC1}\n"),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!pics.exists());
}

/// A command's manual page names the version in its header, as the main page does.
#[test]
fn command_man_page_has_the_version() {
    let o = run(&["man", "solve"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let version = format!("sudoku-lab {}", env!("CARGO_PKG_VERSION"));
    let th = stdout(&o)
        .lines()
        .find(|l| l.starts_with(".TH"))
        .unwrap()
        .to_string();
    assert!(th.contains(&version), "{th}");
}

/// `grade --timeout` and `explain --timeout` stop a puzzle that runs out of time (an empty 25×25
/// grid takes minutes) and report it, and the batch goes on: exit code 3.
#[test]
fn grade_and_explain_time_out_a_puzzle_and_go_on() {
    let input = format!("{}\n{MEDIUM}\n", ".".repeat(625));
    let o = run_with(&["grade", "--timeout", "0.2", "-j1"], &input);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let rows: Vec<Vec<String>> = stdout(&o)
        .lines()
        .map(|l| l.split('\t').map(String::from).collect())
        .collect();
    assert_eq!(rows.len(), 3, "{}", stdout(&o));
    assert_eq!(rows[1][2], "timeout", "{}", stdout(&o));
    assert_ne!(rows[2][2], "timeout", "{}", stdout(&o));
    assert!(stderr(&o).contains("timeout 1"), "{}", stderr(&o));
    let o = run_with(&["explain", "--timeout", "0.2"], &input);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("# <stdin>:1\n"), "{out}");
    assert!(out.contains("# timed out after "), "{out}");
    assert!(out.contains("# <stdin>:2\n"), "{out}");
    assert!(out.contains("# solved in "), "{out}");
}

/// The options that write files only refuse `-` instead of making a file named `-`.
#[test]
fn file_only_options_refuse_dash() {
    let dir = tempfile::tempdir().unwrap();
    let input = format!("{MAGIC1}\n");
    let o = run_in(dir.path(), &["unique", "-b", "sat", "--proof", "-"], &input);
    assert_usage_error(&o, "--proof -: --proof writes a file, not standard output");
    let o = run_in(
        dir.path(),
        &[
            "fuzz",
            "--backends",
            "dfs",
            "--puzzles",
            "1",
            "--seed",
            "1",
            "--regressions",
            "-",
        ],
        "",
    );
    assert_usage_error(&o, "--regressions -: --regressions writes a file");
    assert!(!dir.path().join("-").exists());
}

/// A puzzle the logic engine refuses is named by line and column, as in the other commands.
#[test]
fn logic_refusals_name_line_and_column() {
    let row = vec!["0"; 65].join(" ");
    let grid = vec![row; 65].join("\n") + "\n";
    for command in ["grade", "explain"] {
        let o = run_with(&[command], &grid);
        assert_usage_error(
            &o,
            "<stdin>:1:1: error: the logic engine handles sides up to 64",
        );
    }
}
