//! `explain` and `grade` from the command line: exact step texts, one row per puzzle in input
//! order, JSON records, and usage errors with exit code 2.

mod common;

use common::{run, run_with, stderr, stdout};

const EASY: &str = "tests/data/logic/17_clue_5.txt";
const HARD: &str = "tests/data/logic/magictour_10.txt";

#[test]
fn explain_prints_the_steps_and_how_the_run_ended() {
    let o = run(&["explain", "--verify", HARD]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.matches("# solved in").count(), 10, "{out}");
    assert!(
        out.starts_with("# tests/data/logic/magictour_10.txt:1\n"),
        "{out}"
    );
    assert!(out.contains("Bifurcation: "), "{out}");
    // Singles only: the first 17-clue puzzle stops after 8 steps.
    let first = std::fs::read_to_string(EASY).unwrap();
    let first = first.lines().next().unwrap();
    let o = run_with(
        &["explain", "--techniques", "singles"],
        &format!("{first}\n"),
    );
    let out = stdout(&o);
    // The path, the candidates left (a heading and nine rows), then the last line.
    assert_eq!(out.lines().count(), 20, "{out}");
    assert!(out.contains("# candidates left:\n"), "{out}");
    assert!(
        out.ends_with("# no logical step found after 8 steps, 56 cells empty\n"),
        "{out}"
    );
}

#[test]
fn explain_json_and_hint() {
    let o = run(&["explain", "--hint", "--json", HARD]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 10, "{out}");
    let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(first["technique"], "hidden-single");
    assert_eq!(first["text"], "Hidden Single: r9c3=7");
    assert_eq!(first["placements"], serde_json::json!([[9, 3, 7]]));
}

#[test]
fn grade_writes_a_row_per_puzzle_in_input_order() {
    let json = std::env::temp_dir().join(format!("logic-grade-{}.json", std::process::id()));
    let path = json.to_str().unwrap();
    let o = run(&["grade", "--csv", "--jobs", "2", "--json", path, HARD]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 11, "{out}");
    assert!(
        lines[0].starts_with("file,line,level,score,rating"),
        "{out}"
    );
    for (i, l) in lines[1..].iter().enumerate() {
        assert!(l.starts_with(&format!("{HARD},{},", i + 1)), "{l}");
    }
    assert!(stderr(&o).contains("10 puzzles graded"), "{}", stderr(&o));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(doc["rows"].as_array().unwrap().len(), 10);
    let _ = std::fs::remove_file(&json);
}

#[test]
fn usage_errors_exit_2() {
    let o = run(&["grade", "--techniques", "telepathy", EASY]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown technique or family 'telepathy'"));
    let o = run_with(&["explain"], "1234\n");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn grade_shards_split_the_input_round_robin() {
    let mut lines = vec![];
    for (k, want) in [(1, "1,3,5"), (2, "2,4")] {
        let o = run(&["grade", "--csv", "--shard", &format!("{k}/2"), EASY]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let out = stdout(&o);
        let got: Vec<&str> = out
            .lines()
            .skip(1)
            .map(|l| l.split(',').nth(1).unwrap())
            .collect();
        assert_eq!(got.join(","), want, "{out}");
        lines.extend(got.iter().map(|l| l.parse::<usize>().unwrap()));
    }
    lines.sort_unstable();
    assert_eq!(lines, [1, 2, 3, 4, 5]);
    // Standard error is not a terminal here: no progress bar, only the summary.
    let o = run(&["grade", "--shard", "2/2", EASY]);
    assert_eq!(
        stderr(&o),
        "2 puzzles graded: easy 2, medium 0, hard 0, unfair 0, extreme 0, unsolved 0\n"
    );
    let o = run(&["grade", "--shard", "3/2", EASY]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("K must be between 1 and N"),
        "{}",
        stderr(&o)
    );
}

/// A grid with candidates (Sudopedia's pencil-mark example with 6 also gone from r1c3): the
/// pencil marks leave 6 one place in box 1, a hidden single that the placed digits alone do not
/// give (from them, the first step is a pointing pair).
const PENCIL_MARKS: &str = "tests/data/logic/pencil_marks.txt";

#[test]
fn hint_from_a_grid_with_candidates() {
    let o = run(&[
        "explain",
        "--hint",
        "--candidates",
        "--verify",
        PENCIL_MARKS,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        format!("# {PENCIL_MARKS}:1\nHidden Single: r3c2=6\n")
    );
    // The same placed digits as a puzzle: every candidate they allow is there.
    let givens =
        ".7.2.3.8.3457981262.8.4....4..5.98.2.5.8.4.9.8.......1........8.8.....7.62..87.15";
    let o = run_with(&["explain", "--hint"], &format!("{givens}\n"));
    assert_eq!(
        stdout(&o),
        "# <stdin>:1\nLocked Candidates Type 1 (Pointing): 1 in b5 => r178c5<>1\n"
    );
    // The whole explanation from the candidates ends solved.
    let o = run(&["explain", "--candidates", PENCIL_MARKS]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.lines().nth(1) == Some("Hidden Single: r3c2=6"), "{out}");
    assert!(out.contains("\n# solved in "), "{out}");
}

#[test]
fn bad_grids_with_candidates_are_named_by_line_and_column() {
    for (text, error) in [
        (
            "12 34 3 4\n34 12 1 2\n1 2 34 12\n3 4 102 12\n",
            "<stdin>:4:6: error: '0' is not a candidate of a grid of side 4 (digits 1 to 4) in \
             cell '102'",
        ),
        (
            "|12 34 3 4|\n|34 121 1 2|\n|1 2 34 12|\n|3 4 12 12|\n",
            "<stdin>:2:7: error: digit 1 twice in cell '121'",
        ),
        (
            "12 34 3 4\n34 12 1 2\n1 2 34\n3 4 12 12\n",
            "<stdin>:3:1: error: row 3 has 3 cells, but the grid has 4 rows",
        ),
    ] {
        let o = run_with(&["explain", "--hint", "--candidates"], text);
        assert_eq!(o.status.code(), Some(2), "{text}: {}", stdout(&o));
        assert!(stderr(&o).starts_with(error), "{text}: {}", stderr(&o));
    }
    let o = run(&["explain", "--candidates", "tests/data/logic/no such file"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("tests/data/logic/no such file: error: "),
        "{}",
        stderr(&o)
    );
}

/// The `--grade` column of `sudoku-lab grade --csv` for some puzzle lines, with the hardest
/// technique.
fn graded(lines: &str) -> Vec<(String, String)> {
    let out = common::run_with(&["grade", "--csv"], lines);
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    common::stdout(&out)
        .lines()
        .skip(1)
        .map(|row| {
            let cols: Vec<&str> = row.split(',').collect();
            (cols[2].to_string(), cols[7].to_string())
        })
        .collect()
}

/// `generate --grade` keeps only puzzles that `grade` puts at that level, `--techniques` only
/// puzzles whose hardest step is a listed technique; a target never met ends with exit 2 and
/// the levels drawn.
#[test]
fn generate_draws_puzzles_to_a_grade() {
    for level in ["easy", "medium", "hard"] {
        let out = common::run(&["generate", "--grade", level, "--count", "2", "--seed", "5"]);
        assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
        let rows = graded(&common::stdout(&out));
        assert_eq!(rows.len(), 2);
        assert!(rows.iter().all(|(l, _)| l == level), "{level}: {rows:?}");
    }
    let list = "intersections,subsets";
    let out = common::run(&[
        "generate",
        "--techniques",
        list,
        "--count",
        "2",
        "--seed",
        "5",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    let keys: Vec<&str> = sudoku_lab::logic::TECHNIQUES
        .iter()
        .filter(|t| ["intersections", "subsets"].contains(&t.family.key()))
        .map(|t| t.key)
        .collect();
    for (_, hardest) in graded(&common::stdout(&out)) {
        assert!(keys.contains(&hardest.as_str()), "{hardest}");
    }
    let out = common::run(&[
        "generate",
        "--size",
        "4",
        "--grade",
        "extreme",
        "--attempts",
        "5",
        "--seed",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = common::stderr(&out);
    assert!(err.contains("in 5 drawn (their levels: easy 5)"), "{err}");
    let out = common::run(&["generate", "--grade", "hard", "--shard", "1/2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(common::stderr(&out).contains("--shard"));
}
