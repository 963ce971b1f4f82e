//! End-to-end tests of the `sudoku-lab` command: outputs, exit codes and error locations.

mod common;
use common::{bin, run, run_with, spawn_piped, stderr, stdout};

use std::io::Write;
use std::process::{Command, Output, Stdio};

const MAGIC1: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
const CLASH: &str =
    "11...............................................................................";

/// Exit code 2 (bad input or usage) with `words` in the error output.
fn assert_usage_error(o: &Output, words: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains(words), "expected '{words}' in: {err}");
}

fn data(path: &str) -> String {
    format!("{}/tests/data/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// Checks a printed 81-symbol solution against its puzzle by hand: givens kept, all houses full.
fn assert_solves(puzzle: &str, solution: &str) {
    let s: Vec<u8> = solution.bytes().collect();
    assert_eq!(s.len(), 81, "solution line: {solution}");
    for (p, v) in puzzle.bytes().zip(&s) {
        assert!(p == b'.' || p == *v, "given changed");
    }
    for i in 0..9 {
        let mut row: Vec<u8> = (0..9).map(|j| s[i * 9 + j]).collect();
        let mut col: Vec<u8> = (0..9).map(|j| s[j * 9 + i]).collect();
        let mut bx: Vec<u8> = (0..9)
            .map(|j| s[(i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3])
            .collect();
        for h in [&mut row, &mut col, &mut bx] {
            h.sort();
            assert_eq!(h.as_slice(), b"123456789");
        }
    }
}

#[test]
fn solve_prints_a_checked_solution_per_puzzle() {
    let o = run_with(&["solve"], &format!("{MAGIC1}\n{CLASH}\n"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert_solves(MAGIC1, lines[0]);
    assert_eq!(lines[1], "no solution");
}

#[test]
fn count_and_limit() {
    let o = run_with(&["count", "--limit", "1000"], "................\n");
    assert_eq!(stdout(&o), "288\n");
    let o = run_with(&["count", "--limit", "100"], "................\n");
    assert_eq!(stdout(&o), "at least 100\n");
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn unique_classifies() {
    let multi = "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
    let o = run_with(&["unique"], &format!("{MAGIC1}\n{multi}\n{CLASH}\n"));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("unique "), "{out}");
    assert_solves(MAGIC1, &lines[0]["unique ".len()..]);
    assert_eq!(lines[1..], ["multiple", "no solution"]);
}

#[test]
fn optimize_pyramid_from_grid_format() {
    let o = bin()
        .args(["optimize", &data("cases/noip2009/sample0.in")])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("2864 "), "{}", stdout(&o));
}

#[test]
fn a_bad_puzzle_is_reported_with_its_location_and_the_batch_goes_on() {
    let dir = std::env::temp_dir().join(format!("sudoku-lab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("batch.txt");
    let bad = MAGIC1.replacen('.', "x", 1); // column 2 holds 'x'
    std::fs::write(&file, format!("# comment\n{MAGIC1}\n{bad}\n{MAGIC1}\n")).unwrap();
    let o = bin().args(["solve"]).arg(&file).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains(&format!("{}:3:2:", file.display())), "{err}");
    assert_eq!(
        stdout(&o).lines().count(),
        2,
        "both good puzzles are still solved"
    );
}

#[test]
fn json_lines_hold_a_record_for_a_bad_puzzle_in_its_place() {
    let bad = MAGIC1.replacen('.', "x", 1); // column 2 holds 'x'
    let input = format!("{MAGIC1}\n{bad}\n{MAGIC1}\n");
    let o = run_with(&["solve", "--json", "--jobs", "2"], &input);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("<stdin>:2:2: error:"), "{}", stderr(&o));
    let recs: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 3, "one record per puzzle, the bad one too");
    let indexes: Vec<_> = recs.iter().map(|r| r["index"].as_u64().unwrap()).collect();
    assert_eq!(indexes, [1, 2, 3]);
    assert_eq!(recs[1]["status"], "invalid");
    assert_eq!(
        (recs[1]["line"].as_u64(), recs[1]["col"].as_u64()),
        (Some(2), Some(2))
    );
    assert!(
        recs[1]["error"].as_str().unwrap().contains("'x'"),
        "{}",
        recs[1]
    );
    assert!(recs[1].get("solution").is_none());
    for r in [&recs[0], &recs[2]] {
        assert_eq!(r["status"], "solved");
        assert!(r.get("col").is_none());
        assert_solves(MAGIC1, r["solution"].as_str().unwrap());
    }
}

/// `xcheck --json` writes a record for a bad puzzle in its place, as `solve --json` does (the
/// same place and error), goes on past it, and `report` merges the records, the shards' too.
#[test]
fn xcheck_json_holds_a_record_for_a_bad_puzzle_in_its_place() {
    let bad = MAGIC1.replacen('.', "x", 1); // column 2 holds 'x'
    let input = format!("{MAGIC1}\n{bad}\n{MAGIC1}\n");
    let records = |o: &Output| -> Vec<serde_json::Value> {
        (stdout(o).lines())
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let args = [
        "xcheck",
        "--json",
        "--backends",
        "dfs,dlx",
        "--jobs",
        "2",
        "-",
    ];
    let o = run_with(&args, &input);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("<stdin>:2:2: error:"), "{}", stderr(&o));
    let recs = records(&o);
    assert_eq!(recs.len(), 3, "one record per puzzle, the bad one too");
    let solve = records(&run_with(&["solve", "--json"], &input));
    let error = solve[1]["error"].clone();
    assert!(error.as_str().unwrap().contains("'x'"), "{error}");
    assert_eq!(
        recs[1],
        serde_json::json!({"index": 2, "file": "<stdin>", "line": 2, "col": 2,
            "task": "unique", "verdict": "invalid", "error": error, "results": []})
    );
    for r in [&recs[0], &recs[2]] {
        assert_eq!(r["verdict"], "agreed", "{r}");
        assert_eq!(r["results"].as_array().unwrap().len(), 2, "{r}");
        assert!(r.get("col").is_none() && r.get("error").is_none(), "{r}");
    }
    let merged = run_with(&["report", "-"], &stdout(&o));
    assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
    let table = stdout(&merged);
    assert!(
        table.starts_with("2 puzzles, task unique: 0 disagreements"),
        "{table}"
    );

    // Each shard writes the records of its own puzzles, the bad one in the shard that has it.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("batch.txt");
    std::fs::write(&file, &input).unwrap();
    let mut inputs = vec![];
    for shard in ["1/2", "2/2"] {
        let o = bin()
            .args([
                "xcheck",
                "--json",
                "--backends",
                "dfs,dlx",
                "--shard",
                shard,
            ])
            .arg(&file)
            .output()
            .unwrap();
        let out = dir.path().join(format!("shard{}.jsonl", &shard[..1]));
        std::fs::write(&out, stdout(&o)).unwrap();
        inputs.push(out);
    }
    let invalid = |path: &std::path::PathBuf| {
        let text = std::fs::read_to_string(path).unwrap();
        text.lines().filter(|l| l.contains("\"invalid\"")).count()
    };
    assert_eq!((invalid(&inputs[0]), invalid(&inputs[1])), (0, 1));
    let merged = bin().arg("report").args(&inputs).output().unwrap();
    assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
    assert_eq!(stdout(&merged).lines().next(), table.lines().next());
}

#[test]
fn an_input_without_puzzles_is_said_so() {
    let o = run_with(&["solve"], "# only a comment\n\n");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).contains("warning: <stdin>: no puzzle in this input"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn missing_file_and_unknown_backend_are_usage_errors() {
    let o = bin()
        .args(["solve", "/nonexistent/puzzles.txt"])
        .output()
        .unwrap();
    assert_usage_error(&o, "/nonexistent/puzzles.txt");
    let o = run_with(&["solve", "--cadical-config", "fast"], MAGIC1);
    assert_usage_error(&o, "unknown CaDiCaL configuration 'fast'");
    let o = run_with(&["solve", "--backend", "nosuch"], MAGIC1);
    assert_usage_error(&o, "unknown backend 'nosuch'");
    // A backend this build left out says which feature brings it.
    if !cfg!(feature = "cadical") {
        let o = run_with(&["solve", "--backend", "cadical"], MAGIC1);
        assert_usage_error(&o, "needs a build with `--features cadical`");
    }
}

#[test]
fn non_utf8_input_names_line_and_column() {
    let mut child = spawn_piped(&["solve"]);
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"................\n..\xff\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_usage_error(&o, "<stdin>:2:3");
}

#[test]
fn json_lines_carry_the_documented_fields() {
    let o = run_with(
        &["count", "--json", "--limit", "1000"],
        &format!("................\n{CLASH}\n"),
    );
    let out = stdout(&o);
    let recs: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 2);
    assert_eq!(recs[0]["index"], 1);
    assert_eq!(recs[0]["line"], 1);
    assert_eq!(recs[0]["status"], "counted");
    assert_eq!(recs[0]["count"], 288);
    assert_eq!(recs[0]["complete"], true);
    assert_eq!(recs[0]["backend"], "dfs");
    assert_eq!(recs[0]["solution"].as_str().unwrap().len(), 16);
    assert!(recs[0]["time_us"].is_u64());
    assert_eq!(recs[1]["status"], "none");
    assert_eq!(recs[1]["count"], 0);
}

#[test]
fn judge_noip2009_sample_through_the_cli() {
    for k in 0..3 {
        let input = std::fs::read_to_string(data(&format!("cases/noip2009/sample{k}.in"))).unwrap();
        let expected =
            std::fs::read_to_string(data(&format!("cases/noip2009/sample{k}.out"))).unwrap();
        let o = run_with(&["judge", "noip2009"], &input);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(stdout(&o), expected);
    }
}

#[test]
fn xcheck_agrees_on_the_shipped_samples() {
    let o = bin()
        .args(["xcheck", "--jobs", "2", &data("samples/mixed.txt")])
        .output()
        .unwrap();
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert!(out.contains("0 disagreements, 0 failures"), "{out}");
    for kind in sudoku_lab::backends::BackendKind::all() {
        assert!(
            out.lines()
                .any(|l| l.split_whitespace().nth(1) == Some(kind.name())),
            "summary row for {kind}: {out}"
        );
    }
}

#[test]
fn xcheck_counts_refusals_apart_from_failures() {
    // dfs refuses a 225×225 grid; isotope answers it: not a failure, but exit 2 with a row.
    let o = bin()
        .args([
            "xcheck",
            "--task",
            "solve",
            "--backends",
            "dfs,isotope",
            &data("large/sudoku-225-1.txt"),
        ])
        .output()
        .unwrap();
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(2), "{out}{}", stderr(&o));
    assert!(
        out.contains("1 puzzle, task solve: 0 disagreements, 0 failures, 1 refusal\n"),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("refused: puzzle 1 (") && l.contains("): dfs: ")),
        "{out}"
    );
    // Summary columns: puzzles answered agreed timeout refused failed.
    let row = |name: &str| -> Vec<String> {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(name))
            .unwrap_or_else(|| panic!("no {name} row: {out}"));
        line.split_whitespace()
            .skip(3)
            .take(6)
            .map(String::from)
            .collect()
    };
    assert_eq!(row("dfs"), ["1", "0", "-", "0", "1", "0"], "{out}");
    assert_eq!(row("isotope"), ["1", "1", "1", "0", "0", "0"], "{out}");
}

/// Line puzzles may carry their known answer (`puzzle:count[:solution]`, as in the data sets'
/// `.counts` files); every command holds its answers against it.
#[test]
fn known_answers_in_the_input_are_checked() {
    let counts = data("9x9/test_puzzles.counts");
    let o = run_with(&["count", &counts], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 43);
    let o = run_with(
        &[
            "xcheck",
            "--task",
            "unique",
            "--backends",
            "dfs,dlx,sat",
            &counts,
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("43 puzzles, task unique: 0 disagreements"));

    // This puzzle has 3 solutions; the input claims 4.
    let three = "8.........95.......67.........472968...913245...856137....9.716...6.8492......583";
    let wrong = format!("# known answers\n{three}:4\n");
    let o = run_with(&["count", "-"], &wrong);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stdout(&o), "3\n", "the answer is still printed");
    assert!(
        stderr(&o).contains("<stdin>:2:1: wrong answer: dfs said 3; expected exactly 4 solutions"),
        "{}",
        stderr(&o)
    );
    let o = run_with(
        &[
            "xcheck",
            "--task",
            "count",
            "--backends",
            "dfs,dlx,sat",
            "-",
        ],
        &wrong,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let expected_row = "disagreement: puzzle 1 (<stdin>:2): expected exactly 4 solutions, \
                        but dfs said 3, dlx said 3, sat said 3";
    assert!(stdout(&o).contains(expected_row), "{}", stdout(&o));
    // `unique` on the empty 4×4 (288 solutions) claimed to have one.
    let empty = format!("{}:1:1234341221434321\n", ".".repeat(16));
    let o = run_with(&["unique", "--backend", "dlx", "-"], &empty);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("dlx said multiple; expected exactly 1 solution"),
        "{}",
        stderr(&o)
    );
    // bench: `agreed` counts the answers that match the known ones.
    let both = format!("{three}:3\n{three}:4\n");
    let o = run_with(
        &["bench", "--backends", "dfs", "--task", "count", "-"],
        &both,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("<stdin>:2:1: wrong answer: dfs said 3"));
    let row = summary_columns(&o, "dfs", 3, 3);
    assert_eq!(
        row,
        ["2", "2", "1"],
        "puzzles answered agreed: {}",
        stdout(&o)
    );
}

#[test]
fn generated_puzzles_can_carry_their_answers() {
    let args = ["generate", "--count", "3", "--unique", "--seed", "3"];
    let o = run_with(&[&args[..], &["--with-answer"]].concat(), "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 3);
    for line in text.lines() {
        let fields: Vec<&str> = line.split(':').collect();
        assert_eq!(fields.len(), 3, "{line}");
        assert_eq!(fields[1], "1");
        let u = run_with(&["unique", "-"], &format!("{}\n", fields[0]));
        assert_eq!(stdout(&u), format!("unique {}\n", fields[2]));
    }
    // The same puzzles as without the answers.
    let puzzles: String = text
        .lines()
        .map(|l| format!("{}\n", l.split(':').next().unwrap()))
        .collect();
    assert_eq!(stdout(&run_with(&args, "")), puzzles);
    let x = run_with(
        &["xcheck", "--task", "unique", "--backends", "dfs,dlx", "-"],
        &text,
    );
    assert_eq!(x.status.code(), Some(0), "{}", stdout(&x));
    assert_usage_error(&run_with(&["generate", "--with-answer"], ""), "--unique");
}

#[test]
fn backends_lists_every_compiled_backend() {
    let o = bin().arg("backends").output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for kind in sudoku_lab::backends::BackendKind::every() {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(kind.name()))
            .unwrap_or_else(|| panic!("no line for {kind}: {out}"));
        assert_eq!(
            line.contains("not in the default set"),
            kind.opt_in().is_some(),
            "{line}"
        );
    }
}

#[test]
fn encode_writes_dimacs_and_propagate_shrinks_it() {
    // Singles leave 50 cells open here; locked candidates then fix every one.
    let puzzle =
        ".................1.....2.3...2...4....3.5......41....6.5.6......7.....2..8.91....\n";
    let total = |o: &Output| -> Vec<u64> {
        let out = stdout(o);
        let line = out.lines().find(|l| l.starts_with("total")).unwrap_or("");
        line.split_whitespace()
            .skip(1)
            .map(|x| x.parse().unwrap())
            .collect()
    };
    let plain = run_with(&["encode", "--stats"], puzzle);
    assert_eq!(plain.status.code(), Some(0), "{}", stderr(&plain));
    let plain = total(&plain);
    assert!(plain[1] > 0, "{plain:?}");
    let propagated = run_with(&["encode", "--stats", "--propagate"], puzzle);
    assert_eq!(propagated.status.code(), Some(0), "{}", stderr(&propagated));
    assert_eq!(total(&propagated), vec![729, 0, 0]);
    // The DIMACS itself names what is fixed, so a model can be decoded.
    let cnf = stdout(&run_with(&["encode", "--propagate"], puzzle));
    assert!(cnf.contains("p cnf 729 0"), "{cnf}");
    assert!(cnf.contains("fixed digits"), "{cnf}");
    let bad = run_with(&["encode", "--propagate", "--no-simplify"], puzzle);
    assert_usage_error(&bad, "--propagate");
}

#[test]
fn encode_index_picks_its_puzzle_past_a_bad_one() {
    let puzzle =
        ".................1.....2.3...2...4....3.5......41....6.5.6......7.....2..8.91....";
    let text = format!("12345\n{puzzle}\n");
    // Puzzle 2 is encoded; bad puzzle 1 is reported and makes the exit code 2.
    let o = run_with(&["encode", "--index", "2"], &text);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stdout(&o).contains("p cnf 729 "), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("<stdin>:1:1: error: 5 symbols"),
        "{}",
        stderr(&o)
    );
    // Asking for the bad one, or for no index, encodes nothing.
    for args in [&["encode", "--index", "1"][..], &["encode"][..]] {
        let o = run_with(args, &text);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
    }
    // An index past the end is a usage error that says so, with or without bad input.
    for input in [format!("{puzzle}\n{puzzle}\n"), text] {
        let o = run_with(&["encode", "--index", "3"], &input);
        assert_usage_error(&o, "--index 3 is out of range: the input holds 2 puzzles");
        let o = run_with(&["encode", "--index", "0"], &input);
        assert_usage_error(&o, "--index 0 is out of range");
    }
}

/// `encode --to lp` keeps the memory limit of the other exports: the empty 25×25's program
/// (about 4 MiB with its text) is refused under 1 MiB before anything is built, and written
/// under the default budget.
#[test]
fn encode_lp_keeps_the_memory_limit() {
    let empty = ".".repeat(625);
    let o = run_with(&["encode", "--to", "lp", "--sat-memory-mib", "1"], &empty);
    assert_usage_error(&o, "over the memory limit of 1 MiB (--sat-memory-mib)");
    assert!(stdout(&o).is_empty());
    let o = run_with(&["encode", "--to", "lp"], &empty);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("\\ sudoku-lab integer program: 25x25"));
}

#[test]
fn xcheck_ctrl_c_prints_the_summary_so_far_and_exits_130() {
    use std::io::{BufRead, BufReader, Read};
    // Far more work than the test waits for: every unique puzzle of test_puzzles, many times.
    let text = std::fs::read_to_string(data("9x9/test_puzzles.counts")).unwrap();
    let unique: Vec<&str> = text
        .lines()
        .filter(|l| l.split(':').nth(1) == Some("1"))
        .map(|l| &l[..81])
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.txt");
    std::fs::write(&path, unique.repeat(3000).join("\n")).unwrap();
    let mut child = bin()
        .args(["xcheck", "--json", "--jobs", "1", "--backends", "dfs,sat"])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The first streamed result shows the run (and its Ctrl-C handler) has started.
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    assert!(first.contains("\"verdict\":\"agreed\""), "{first}");
    // The shell's built-in kill: no procps needed.
    let killed = Command::new("sh")
        .args(["-c", &format!("kill -INT {}", child.id())])
        .status()
        .unwrap();
    assert!(killed.success());
    let mut rest = String::new();
    out.read_to_string(&mut rest).unwrap();
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(130), "{err}");
    let summary = err.lines().next().unwrap_or("");
    assert!(summary.starts_with("interrupted: "), "{err}");
    assert!(
        summary.ends_with(&format!(" of {} puzzles checked", unique.len() * 3000)),
        "{err}"
    );
    // Every puzzle counted in the summary was streamed before the program ended.
    let checked: usize = summary["interrupted: ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(1 + rest.lines().count(), checked, "{err}");
    assert!(err.contains("0 disagreements, 0 failures"), "{err}");
}

#[test]
fn jobs_keep_the_order_the_messages_and_the_exit_code_of_one_job() {
    // Known counts, with a bad line every so often: every job count must print exactly what one
    // job prints, on both streams, and end the same way.
    let known = std::fs::read_to_string(data("9x9/test_puzzles.counts")).unwrap();
    let mut input = String::new();
    for (i, line) in known.lines().enumerate() {
        input.push_str(line);
        input.push('\n');
        if i % 17 == 5 {
            input.push_str(&MAGIC1.replacen('.', "x", 1));
            input.push('\n');
        }
    }
    let strip_times = |s: String| {
        s.lines()
            .map(|l| l.split(",\"time_us\"").next().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    for args in [
        &["count", "--limit", "1000"][..],
        &["unique"],
        &["solve", "--json"],
        &["optimize"],
    ] {
        let one = run_with(&[args, &["-j", "1"]].concat(), &input);
        assert_eq!(one.status.code(), Some(2), "{args:?}: {}", stderr(&one));
        assert!(
            stderr(&one).contains("<stdin>:7:2: error"),
            "{}",
            stderr(&one)
        );
        for jobs in ["2", "3"] {
            let many = run_with(&[args, &["--jobs", jobs]].concat(), &input);
            assert_eq!(many.status.code(), one.status.code(), "{args:?} -j {jobs}");
            assert_eq!(stderr(&many), stderr(&one), "{args:?} -j {jobs}");
            assert_eq!(
                strip_times(stdout(&many)),
                strip_times(stdout(&one)),
                "{args:?} -j {jobs}"
            );
        }
    }
    assert_usage_error(&run_with(&["solve", "--jobs", "0"], MAGIC1), "--jobs");
}

/// Columns `first..first + n` of `backend`'s row in a `bench` or `xcheck` summary table.
fn summary_columns(o: &Output, backend: &str, first: usize, n: usize) -> Vec<String> {
    stdout(o)
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(backend))
        .unwrap_or_else(|| panic!("no {backend} row in:\n{}", stdout(o)))
        .split_whitespace()
        .skip(first)
        .take(n)
        .map(String::from)
        .collect()
}

/// `bench --task optimize`: an optimum the deadline stopped before its proof counts as a
/// time-out (exit code 3), not as an answer. The linear SAT search does not prove the empty
/// pyramid within minutes; the core-guided one does in well under a second.
#[test]
fn bench_counts_an_unproved_optimum_as_a_time_out() {
    let summary = |o: &Output| summary_columns(o, "sat", 3, 4);
    let empty = data("empty9.txt");
    let args = [
        "bench",
        "--task",
        "optimize",
        "--backends",
        "sat",
        "--timeout",
    ];
    let o = run_with(
        &[&args[..], &["0.3", "--sat-opt", "linear", &empty]].concat(),
        "",
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    // puzzles, answered, timeout, refused
    assert_eq!(summary(&o), ["1", "0", "1", "0"], "{}", stdout(&o));
    let o = run_with(&[&args[..], &["60", &empty]].concat(), "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(summary(&o), ["1", "1", "0", "0"], "{}", stdout(&o));
}

/// `bench --budget`: a backend that has used its budget on a file runs no more of its puzzles;
/// its row covers the puzzles it ran and says how many it left (`cut short`). A budget of a
/// microsecond is used by the first puzzle; one of a million seconds cuts nothing short.
#[test]
fn bench_budget_cuts_a_backend_short_and_says_so() {
    let samples = data("samples/mixed.txt");
    let total = std::fs::read_to_string(&samples)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .count();
    let o = run_with(
        &[
            "bench",
            "--backends",
            "dfs,dlx",
            "--budget",
            "0.000001",
            &samples,
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).lines().next().unwrap().ends_with("cut short"));
    for backend in ["dfs", "dlx"] {
        let row = summary_columns(&o, backend, 0, 20);
        let ran: usize = row[3].parse().unwrap();
        assert!(ran <= 1, "{row:?}");
        assert_eq!(row[row.len() - 2], (total - ran).to_string(), "{row:?}");
        assert_eq!(row[row.len() - 1], "left", "{row:?}");
    }
    let o = run_with(
        &[
            "bench",
            "--backends",
            "dfs",
            "--budget",
            "1000000",
            &samples,
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stdout(&o).contains("cut short"), "{}", stdout(&o));
    assert_eq!(summary_columns(&o, "dfs", 3, 1), [total.to_string()]);
    let o = run_with(&["bench", "--budget", "0", &samples], "");
    assert_usage_error(&o, "--budget takes a number of seconds");
}

/// `xcheck --budget`: as for `bench`, over the whole run; the backends that ran are compared.
#[test]
fn xcheck_budget_cuts_a_backend_short_and_says_so() {
    let samples = data("samples/mixed.txt");
    let o = run_with(
        &[
            "xcheck",
            "--backends",
            "dfs,dlx",
            "--jobs",
            "1",
            "--budget",
            "0.000001",
            &samples,
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("12 puzzles, task unique: 0 disagreements"));
    for backend in ["dfs", "dlx"] {
        let row = summary_columns(&o, backend, 0, 20);
        let ran: usize = row[3].parse().unwrap();
        assert!(ran <= 1, "{row:?}");
        assert_eq!(
            row[row.len() - 2..],
            [(12 - ran).to_string(), "left".into()]
        );
    }
    let o = run_with(&["xcheck", "--budget", "inf", &samples], "");
    assert_usage_error(&o, "--budget takes a number of seconds");
}

#[test]
fn out_of_range_jobs_and_boxes_are_usage_errors() {
    let huge = u64::MAX.to_string();
    for command in ["count", "xcheck"] {
        let o = run_with(&[command, "--jobs", &huge], MAGIC1);
        assert_usage_error(&o, "--jobs takes 1 to 1024");
    }
    let o = run_with(
        &["fuzz", "--backends", "dfs,dlx", "--jobs", "4294967296"],
        "",
    );
    assert_usage_error(&o, "--jobs takes 1 to 1024");
    // 2^64 − 1 boxes of 2 rows wrap around in a plain product.
    let o = run_with(&["generate", "--boxes", &format!("{huge}x2")], "");
    assert_usage_error(&o, "side out of range");
    let o = run_with(
        &[
            "fuzz",
            "--backends",
            "dfs,dlx",
            "--boxes",
            "4294967296x4294967296",
        ],
        "",
    );
    assert_usage_error(&o, "side out of range");
}

#[test]
fn an_optimum_stopped_by_the_deadline_prints_its_grid_and_exits_3() {
    // dlx finds grids of the empty 16×16 at once, and cannot prove the best in half a second.
    let o = run_with(
        &["optimize", "--backend", "dlx", "--timeout", "0.5"],
        &".".repeat(256),
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stdout(&o).contains("(not proved, bound "), "{}", stdout(&o));
}

/// A count the deadline stops reports the solutions found so far as "at least N", in the text
/// and the JSON, and stays a time-out (exit 3). The empty 9×9 has ~6.7·10²¹ solutions: every
/// backend that enumerates finds some in half a second, none finds them all.
#[test]
fn a_count_stopped_by_the_deadline_says_how_many_it_found_and_exits_3() {
    let empty = ".".repeat(81);
    for backend in ["dfs", "dlx", "sat"] {
        let args = [
            "count",
            "--backend",
            backend,
            "--timeout",
            "0.5",
            "--limit",
            "1000000000000",
        ];
        let o = run_with(&args, &empty);
        assert_eq!(o.status.code(), Some(3), "{backend}: {}", stderr(&o));
        let out = stdout(&o);
        let found: u64 = out
            .strip_prefix("timeout (at least ")
            .and_then(|rest| rest.strip_suffix(")\n"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{backend}: {out}"));
        assert!(found >= 1, "{backend}: {out}");
        assert!(
            stderr(&o).contains(&format!("timed out: at least {found} solution")),
            "{backend}: {}",
            stderr(&o)
        );
        let o = run_with(&[&args[..], &["--json"]].concat(), &empty);
        assert_eq!(o.status.code(), Some(3), "{backend}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert_eq!(v["status"], "timeout", "{backend}: {v}");
        assert_eq!(v["complete"], false, "{backend}: {v}");
        assert!(
            v["count"].as_u64().is_some_and(|c| c >= 1),
            "{backend}: {v}"
        );
    }
}

#[test]
fn unwritable_output_files_are_usage_errors_before_any_work() {
    let samples = data("samples/mixed.txt");
    let nowhere = "/nonexistent-dir/out";
    for (args, flag) in [
        (
            vec!["bench", "--backends", "dfs", "--csv", nowhere, &samples],
            "--csv",
        ),
        (vec!["report", &samples, "--json", nowhere], "--json"),
        (
            vec!["unique", "--backend", "sat", "--proof", nowhere, &samples],
            "--proof",
        ),
        (
            vec!["fuzz", "--backends", "dfs,dlx", "--regressions", nowhere],
            "--regressions",
        ),
    ] {
        let o = run_with(&args, "");
        assert_usage_error(&o, &format!("{flag} {nowhere}: cannot write"));
        assert_eq!(stdout(&o), "", "{args:?}");
    }
}

#[test]
fn judge_prints_the_answers_before_a_bad_puzzle_and_names_its_place() {
    // Sicily 1317 announcing two puzzles, the second with a short row.
    let input = "2\n________4\n1____9_7_\n____42__6\n_____3__7\n8__6_5__9\n2__1_____\n3__96____\n\
                 _8_2____1\n2________\n123\n";
    let o = run_with(&["judge", "sicily1317"], input);
    assert_usage_error(&o, "<stdin>:11:1: error: row of 3 symbols");
    assert!(stdout(&o).starts_with("Puzzle 1 has "), "{}", stdout(&o));
}

/// The first line `sudoku-lab ARGS` prints while `lines` have been written to its standard input
/// and the pipe is still open (`None` if nothing comes within 60 s).
fn first_answer_while_open(args: &[&str], lines: &[&str]) -> Option<String> {
    use std::io::{BufRead, BufReader};
    let mut child = spawn_piped(args);
    let mut stdin = child.stdin.take().unwrap();
    for line in lines {
        writeln!(stdin, "{line}").unwrap();
    }
    stdin.flush().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let first = BufReader::new(stdout).lines().next();
        let _ = tx.send(first);
    });
    let first = rx.recv_timeout(std::time::Duration::from_secs(60));
    let _ = child.kill();
    let _ = child.wait();
    drop(stdin);
    first.ok().flatten().and_then(Result::ok)
}

#[test]
fn standard_input_in_the_line_format_is_answered_as_it_arrives() {
    // More than the 64 KiB read to tell the format at most, and the pipe left open.
    let first = first_answer_while_open(&["solve"], &[MAGIC1; 1000]);
    assert_solves(
        MAGIC1,
        &first.expect("no answer while the input was still open"),
    );
    // One puzzle, and the writer waits for its answer: the line format given, or told by the line.
    for args in [&["solve", "--format", "line"][..], &["solve"]] {
        let first = first_answer_while_open(args, &[MAGIC1]);
        assert_solves(
            MAGIC1,
            &first.expect("no answer while the input was still open"),
        );
    }
    let first = first_answer_while_open(&["count", "--format", "line"], &["................"]);
    assert_eq!(first.as_deref(), Some("288"));
}

/// `generate --size 4 --count 16` writes 16 lines of 16 symbols: they are 16 puzzles, not one
/// 16×16 grid, with a header or a second block too. Lines that would also be a 16×16 grid
/// without a clash are still read as lines, with a warning naming the other format.
#[test]
fn sixteen_generated_4x4_puzzles_are_not_read_as_a_16x16_grid() {
    let o = run(&["generate", "--size", "4", "--count", "16", "--seed", "1"]);
    let generated = stdout(&o);
    assert_eq!(generated.lines().count(), 16, "{generated}");
    for input in [
        generated.clone(),
        format!("# header\n{generated}\n{generated}"),
    ] {
        let o = run_with(&["solve"], &input);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(stderr(&o), "");
        let out = stdout(&o);
        assert_eq!(
            out.lines().count(),
            input.lines().count() / 16 * 16,
            "{out}"
        );
        assert!(out.lines().all(|l| l.len() == 16), "{out}");
    }
    let diagonal: String = (0..16)
        .map(|r| format!("{}{}{}\n", ".".repeat(r), r % 4 + 1, ".".repeat(15 - r)))
        .collect();
    let o = run_with(&["count", "--limit", "1"], &diagonal);
    assert_eq!(stdout(&o).lines().count(), 16, "{}", stdout(&o));
    assert!(
        stderr(&o).contains("warning: <stdin>: read in the line format")
            && stderr(&o).contains("--format grid"),
        "{}",
        stderr(&o)
    );
    let o = run_with(&["count", "--limit", "1", "--format", "grid"], &diagonal);
    assert_eq!(stdout(&o).lines().count(), 1, "{}", stdout(&o));
}

/// Comment and blank lines before the first puzzle do not count toward the start read to tell
/// the format: a grid after a long header is a grid, and lines keep their numbers.
#[test]
fn a_long_comment_header_does_not_hide_the_format() {
    let header =
        "# a comment line of some length, repeated to fill more than 64 KiB\n".repeat(1100);
    let o = run_with(
        &["solve"],
        &format!("{header}\n0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n"),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 1, "{}", stdout(&o));
    let o = run_with(
        &["solve"],
        &format!("{header}{MAGIC1}\n{}x\n", &CLASH[..80]),
    );
    assert_usage_error(&o, "<stdin>:1102:81: error: value 33 ('x')");
    assert_solves(MAGIC1, stdout(&o).trim());
}

/// A backend refusing the task is exit 2 with an `error:` message, as in the other commands; an
/// HDU 1426 puzzle cut short is reported where it ends, and the puzzle after it answered.
#[test]
fn judge_refusals_and_skipped_puzzles_exit_2() {
    let sample = data("cases/noip2009/sample0.in");
    let o = run(&["judge", "noip2009", "-b", "isotope", &sample]);
    assert_usage_error(&o, "sample0.in: error: not supported by this backend");
    let one = std::fs::read_to_string(data("cases/hdu1426/sample.in")).unwrap();
    let short: Vec<&str> = one.lines().take(4).collect();
    let o = run_with(
        &["judge", "hdu1426"],
        &format!("{one}\n{}\n\n{one}", short.join("\n")),
    );
    assert_usage_error(
        &o,
        "<stdin>:14:18: error: the puzzle from line 11 ends after 36 cells",
    );
    let solved = std::fs::read_to_string(data("cases/hdu1426/sample.out")).unwrap();
    assert_eq!(stdout(&o), format!("{solved}\n{solved}"));
}

/// A line too long for the line format is one bad puzzle: the puzzles after it are answered,
/// whether it starts the input or comes after a puzzle, and with the format forced or not.
#[test]
fn a_line_too_long_for_the_line_format_is_one_bad_puzzle() {
    let long = "1".repeat(2 << 20);
    let o = run_with(&["solve"], &format!("{long}\n{MAGIC1}\n"));
    assert_usage_error(&o, "<stdin>:1:1: error: a line of more than 1 MiB");
    assert_eq!(stdout(&o).lines().count(), 1, "{}", stdout(&o));
    for args in [&["count"][..], &["count", "--format", "line"]] {
        let o = run_with(args, &format!("{MAGIC1}\n{long}\n{MAGIC1}\n\n{MAGIC1}\n"));
        assert_usage_error(&o, "<stdin>:2:1: error: a line of more than 1 MiB");
        assert_eq!(stdout(&o).lines().count(), 3, "{}", stdout(&o));
        assert!(!stderr(&o).contains(":3:"), "{}", stderr(&o));
    }
}

/// An empty grid of side `n` in the whitespace grid format.
fn empty_grid(n: usize) -> String {
    let row = vec!["0"; n].join(" ");
    (0..n).map(|_| format!("{row}\n")).collect()
}

#[test]
fn sat_refuses_a_formula_over_its_memory_limit_before_building_it() {
    // The CNF of an empty 144×144 grid needs gigabytes: refused in well under a second from an
    // estimate, not built until memory runs out. So are 225×225 and 400×400 (bigger still).
    for n in [144, 225] {
        let start = std::time::Instant::now();
        let o = run_with(
            &["solve", "--backend", "sat", "--timeout", "8"],
            &empty_grid(n),
        );
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{n}: {err}");
        for words in [
            &format!("sat: the CNF of this {n}×{n} puzzle (extended encoding, at-most-one auto: "),
            "MiB, over the 1024 MiB memory limit (--sat-memory-mib); no encoding fits; ",
        ] {
            assert!(err.contains(words), "{n}: expected '{words}' in {err}");
        }
        assert!(start.elapsed().as_secs_f64() < 5.0, "{n}: {err}");
    }
    // Where a lighter at-most-one fits, the message names it; sat-ext refuses the same way.
    let o = run_with(
        &["solve", "--backend", "sat", "--sat-memory-mib", "300"],
        &empty_grid(64),
    );
    assert_usage_error(
        &o,
        "over the 300 MiB memory limit (--sat-memory-mib); try --amo ",
    );
    let o = run_with(
        &[
            "solve",
            "--backend",
            "sat-ext",
            "--sat-cmd",
            "false",
            "--sat-memory-mib",
            "4",
        ],
        &empty_grid(25),
    );
    assert_usage_error(&o, "sat-ext: the CNF of this 25×25 puzzle");
    // Under the budget nothing changes: a 9×9 and a 16×16 are solved.
    for n in [9, 16] {
        let o = run_with(&["solve", "--backend", "sat"], &empty_grid(n));
        assert_eq!(o.status.code(), Some(0), "{n}: {}", stderr(&o));
    }
    // `encode` keeps the same budget for the CNF it writes (and has no other backend to offer).
    let o = run_with(&["encode", "--stats"], &empty_grid(225));
    assert_usage_error(&o, "encode: the CNF of this 225×225 puzzle");
    assert!(!stderr(&o).contains("dlx"), "{}", stderr(&o));
    let o = run_with(&["encode", "--stats"], &empty_grid(25));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // A budget of 0 MiB is a usage error, not a refusal of every puzzle.
    for flag in ["--sat-memory-mib", "--dlx-memory-mib"] {
        let o = run_with(&["solve", flag, "0"], &empty_grid(4));
        assert_eq!(o.status.code(), Some(2), "{flag}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("invalid value '0' for '{flag}")),
            "{}",
            stderr(&o)
        );
    }
}

#[test]
fn encode_stats_columns_line_up_past_long_part_names() {
    // A little killer's part name is wider than the default first column.
    let doc = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"littlekillersum":[{"cell":"R0C0","direction":"DR","value":"10"}]}"#;
    let o = run_with(&["encode", "--stats"], doc);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(out.contains("little-killer"), "{out}");
    let ends: Vec<usize> = out.lines().map(|l| l.trim_end().len()).collect();
    assert!(
        ends.windows(2).all(|w| w[0] == w[1]),
        "ragged columns:\n{out}"
    );
}

#[test]
fn pair_encoding_flag_chooses_the_form_and_refuses_an_unknown_one() {
    // A 4×4 with a thermometer along its first row: order variables under `order`, none under
    // `direct`; both solve it.
    let doc = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"thermometer":[{"lines":[["R1C1","R1C2","R1C3","R1C4"]]}]}"#;
    for (pair, vars) in [("direct", false), ("order", true)] {
        let o = run_with(&["encode", "--stats", "--pair-encoding", pair], doc);
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(0), "{pair}: {}", stderr(&o));
        let row = out.lines().find(|l| l.starts_with("thermo")).expect(&out);
        let thermo_vars: u64 = row.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert_eq!(thermo_vars > 0, vars, "{pair}: {out}");
        let o = run_with(&["solve", "-b", "sat", "--pair-encoding", pair], doc);
        assert_eq!(o.status.code(), Some(0), "{pair}: {}", stderr(&o));
    }
    let o = run_with(&["solve", "-b", "sat", "--pair-encoding", "log"], MAGIC1);
    assert_usage_error(
        &o,
        "unknown pair encoding 'log' (choose one of: direct, order)",
    );
}

#[test]
fn sum_encoding_flag_chooses_the_form_and_refuses_an_unknown_one() {
    // A 4×4 with a little killer along the main diagonal: `auto` is `order` on a sum this small,
    // `adder` and `gte` write other clauses; every form solves it.
    let doc = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"littlekillersum":[{"cell":"R0C0","direction":"DR","value":"10"}]}"#;
    let mut rows = vec![];
    for sum in ["auto", "order", "adder", "gte"] {
        let o = run_with(&["encode", "--stats", "--sum-encoding", sum], doc);
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(0), "{sum}: {}", stderr(&o));
        let row = out
            .lines()
            .find(|l| l.starts_with("little-killer"))
            .expect(&out);
        rows.push(row.to_string());
        let o = run_with(&["solve", "-b", "sat", "--sum-encoding", sum], doc);
        assert_eq!(o.status.code(), Some(0), "{sum}: {}", stderr(&o));
    }
    assert_eq!(rows[0], rows[1], "auto is order here");
    assert_ne!(rows[1], rows[2], "order and adder");
    assert_ne!(rows[2], rows[3], "adder and gte");
    let o = run_with(&["solve", "-b", "sat", "--sum-encoding", "log"], MAGIC1);
    assert_usage_error(
        &o,
        "unknown sum encoding 'log' (choose one of: auto, order, adder, gte)",
    );
}

/// A Kropki black dot of ratio 2147483650 (2 × it wraps to 4 in `u32`) on an empty 4×4 grid: no
/// digits meet it, so every backend counts none and the reader warns, naming the dot.
#[test]
fn a_ratio_past_every_reach_counts_none_on_every_backend_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ratio.json");
    let row = "[{},{},{},{}]";
    let doc = format!(
        r#"{{"size":4,"grid":[{row},{row},{row},{row}],"ratio":[{{"cells":["R1C1","R1C2"],"value":"2147483650"}}]}}"#
    );
    std::fs::write(&file, doc).unwrap();
    for backend in ["dfs", "dlx", "sat", "ilp", "cp"] {
        let o = bin()
            .args(["count", "--backend", backend])
            .arg(&file)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{backend}: {}", stderr(&o));
        assert_eq!(stdout(&o), "no solution\n", "{backend}");
        assert_eq!(
            stderr(&o),
            format!(
                "{}:1:1: warning: kropki rule 1: ratio 2147483650 dot on R1C1 R1C2 is out of \
                 reach (two neighbours' digits 1..=4 have ratios 2 to 4): the puzzle has no \
                 solution\n",
                file.display()
            ),
            "{backend}"
        );
    }
    let o = bin().arg("solve").arg(&file).output().unwrap();
    assert_eq!(stdout(&o), "no solution\n");
}

/// A parameter past `i64`, or text, is an input error with its place (exit 2): the value of the
/// document's member that holds it.
#[test]
fn a_parameter_that_cannot_be_read_is_an_error_with_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let row = "[{},{},{},{}]";
    for (value, says) in [
        ("99999999999999999999", "is out of range"),
        ("abc", "is not a whole number"),
    ] {
        let file = dir.path().join(format!("{value}.json"));
        let doc = format!(
            r#"{{"size":4,"grid":[{row},{row},{row},{row}],"ratio":[{{"cells":["R1C1","R1C2"],"value":"{value}"}}]}}"#
        );
        std::fs::write(&file, &doc).unwrap();
        let o = bin().arg("count").arg(&file).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{value}");
        let err = stderr(&o);
        // At the value of the member it names, the "ratio" list.
        let col = doc.find(r#""ratio":"#).unwrap() + r#""ratio":"#.len() + 1;
        assert!(
            err.starts_with(&format!(
                "{}:1:{col}: error: f-puzzles: \"ratio\": value \"{value}\" {says}",
                file.display()
            )),
            "{err}"
        );
    }
}

#[test]
fn the_variants_flag_lists_every_kind_it_draws() {
    let o = bin().args(["fuzz", "--help"]).output().unwrap();
    // The help wraps lines; read its words.
    let help = stdout(&o);
    let words: Vec<&str> = help
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .collect();
    for kind in sudoku_lab::generate::variants::drawn_kinds() {
        let name = kind.to_string();
        assert!(
            words.contains(&name.as_str()),
            "fuzz --help does not list {kind}"
        );
    }
}

/// `--dfs-branch` takes its three rules, each answering the same, reaches the backend (the
/// rules search trees of different sizes on this puzzle), and names the rules when given
/// another word.
#[test]
fn the_dfs_branching_flag_is_checked() {
    let puzzle = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/fpuzzles/mixed6.json"
    ))
    .unwrap();
    let mut guesses = Vec::new();
    for rule in ["auto", "dom", "wdeg"] {
        let o = run_with(&["count", "--limit", "100", "--dfs-branch", rule], &puzzle);
        assert_eq!(o.status.code(), Some(0), "{rule}: {}", stderr(&o));
        assert_eq!(stdout(&o).trim(), "2", "{rule}");
        let args = ["count", "--limit", "100", "--json", "--dfs-branch", rule];
        let answer: serde_json::Value =
            serde_json::from_str(stdout(&run_with(&args, &puzzle)).trim()).unwrap();
        guesses.push(answer["effort"]["guesses"].as_u64().unwrap());
    }
    // With variant rules auto is wdeg, and dom searches without the weights.
    assert_eq!(guesses[0], guesses[2]);
    assert_ne!(guesses[0], guesses[1]);
    let o = run_with(&["count", "--dfs-branch", "random"], &puzzle);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("--dfs-branch") && err.contains("auto, dom, wdeg"),
        "{err}"
    );
}

/// A closed standard error (`sudoku-lab … 2>&1 | head -1` once `head` has quit) is no reason to
/// panic: the messages are lost, the answers on standard output are not, and the exit code is
/// the run's own (2 here, for the bad line), never 101.
#[test]
fn a_closed_standard_error_is_not_a_panic() {
    use std::io::Read;
    let mut child = spawn_piped(&["count", "--limit", "1000"]);
    // Close the reading end of standard error before the program writes to it.
    drop(child.stderr.take());
    let bad = "1".repeat(17);
    let input = format!("{}\n{bad}\n{}\n", ".".repeat(16), ".".repeat(16));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(2), "{out}");
    assert_eq!(out, "288\n288\n");
}

/// JSON Lines with a line that is not JSON: that line is an error at its own line, and every
/// other line is answered (as a bad line of the line format is), not the whole file lost.
#[test]
fn a_bad_line_of_json_lines_loses_only_itself() {
    let empty =
        r#"{"board":[[".",".",".","."],[".",".",".","."],[".",".",".","."],[".",".",".","."]]}"#;
    let one =
        r#"{"board":[["1",".",".","."],[".",".",".","."],[".",".",".","."],[".",".",".","."]]}"#;
    let cut = &one[..one.len() - 1];
    let input = format!("{empty}\n{cut}\n{one}\ngarbage\n");
    let o = run_with(&["count", "--limit", "1000"], &input);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(stdout(&o), "288\n72\n");
    let err = stderr(&o);
    assert!(err.contains("<stdin>:2:"), "{err}");
    assert!(err.contains("<stdin>:4:1:"), "{err}");
    // One document written over several lines is still read as one, and its error is its own.
    let o = run_with(&["count"], "{\n  \"board\": [[\".\"]\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("invalid JSON"), "{}", stderr(&o));
}

/// A weights file that holds no side's weights (here a word among the numbers) is one usage
/// error naming the file, line and column, before any puzzle is read, not an error per puzzle.
#[test]
fn a_malformed_weights_file_is_one_usage_error() {
    let dir = std::env::temp_dir().join(format!("sudoku-lab-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("w.txt");
    std::fs::write(&file, "1 2 3 4\n5 x 7 8\n1 2 3 4\n5 6 7 8\n").unwrap();
    let w = file.to_str().unwrap();
    let input = ".".repeat(16) + "\n" + &".".repeat(16) + "\n";
    let o = run_with(&["optimize", "--weights", w], &input);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "");
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("w.txt:2:3:"), "{err}");
    // The same file, well formed, is used.
    std::fs::write(&file, "1 2 3 4\n5 6 7 8\n1 2 3 4\n5 6 7 8\n").unwrap();
    let o = run_with(&["optimize", "--weights", w], &input);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}
