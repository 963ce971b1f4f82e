//! f-puzzles documents: reading raw and compressed ones, what is ignored and what is refused,
//! the round trip read → write → read over every kind the lab holds, and a document's
//! `solution` as its known answer.

use std::sync::Arc;

use sudoku_lab::format::fpuzzles::{compress, decompress, from_json, to_json};
use sudoku_lab::format::{read_puzzles, ReadOptions};
use sudoku_lab::model::Expected;
use sudoku_lab::model::{Constraint, ConstraintKind, DotRule, Line, Puzzle, Shape};

#[test]
fn reads_a_raw_document_and_says_what_it_ignores() {
    let text = std::fs::read_to_string("tests/data/fpuzzles/mixed6.json").unwrap();
    let entries = read_puzzles(&text, &ReadOptions::default());
    assert_eq!(entries.len(), 1);
    let e = entries[0].as_ref().unwrap();
    let p = &e.puzzle;
    assert_eq!(p.size(), 6);
    // R3C3 has a value but no "given": a solver's entry, not a given.
    assert_eq!(p.givens().iter().filter(|&&v| v != 0).count(), 2);
    let kinds: Vec<ConstraintKind> = p.constraints().iter().map(|c| c.kind()).collect();
    for k in [
        ConstraintKind::Thermo,
        ConstraintKind::Arrow,
        ConstraintKind::Kropki,
        ConstraintKind::Xv,
        ConstraintKind::Odd,
        ConstraintKind::LittleKiller,
        ConstraintKind::Sandwich,
    ] {
        assert!(kinds.contains(&k), "{k} missing from {kinds:?}");
    }
    assert!(p
        .constraints()
        .contains(&Constraint::Sandwich(sudoku_lab::model::Sandwich {
            line: Line::Col(3),
            sum: 7
        })));
    // The little killer from above column 2 runs down-right: R1C3, R2C4, … R4C6.
    let lk = p
        .constraints()
        .iter()
        .find_map(|c| match c {
            Constraint::LittleKiller(l) => Some(l.cells.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(lk, vec![2, 9, 16, 23]);
    let notes: Vec<String> = e.warnings.iter().map(|w| w.message.clone()).collect();
    assert!(notes.iter().any(|m| m.contains("\"text\"")), "{notes:?}");
    assert!(notes.iter().any(|m| m.contains("\"line\"")), "{notes:?}");
    assert!(notes.iter().any(|m| m.contains("not givens")), "{notes:?}");
}

#[test]
fn unknown_rules_are_refused_by_name() {
    let doc = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],
        "quadruple":[{"cells":["R1C1","R1C2","R2C1","R2C2"],"values":[1]}]}"#;
    let e = read_puzzles(doc, &ReadOptions::default())
        .remove(0)
        .unwrap_err();
    assert!(e.message.contains("quadruple"), "{e}");
    // An empty list of an unknown rule carries nothing and is no error.
    let doc = doc.replace(
        r#"[{"cells":["R1C1","R1C2","R2C1","R2C2"],"values":[1]}]"#,
        "[]",
    );
    assert!(read_puzzles(&doc, &ReadOptions::default())[0].is_ok());
}

#[test]
fn compressed_links_read_like_the_raw_document() {
    let text = std::fs::read_to_string("tests/data/fpuzzles/mixed6.json").unwrap();
    let raw = read_puzzles(&text, &ReadOptions::default())
        .remove(0)
        .unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let packed = compress(&doc.to_string());
    assert!(packed.starts_with("N4Ig"), "{packed}");
    let link = format!("https://www.f-puzzles.com/?load={packed}\n{packed}\n");
    let entries = read_puzzles(&link, &ReadOptions::default());
    assert_eq!(entries.len(), 2);
    for e in entries {
        let e = e.unwrap();
        assert_eq!(e.puzzle, raw.puzzle);
    }
    assert!(decompress("not-base64!").is_err());
}

#[test]
fn every_kind_round_trips() {
    for n in [4, 6, 9] {
        for seed in 0..6u64 {
            let (puzzle, grid) = common::every_kind_puzzle(n, seed);
            let doc = to_json(&puzzle, Some(&grid)).unwrap();
            let (back, notes) = from_json(&doc).unwrap();
            assert!(notes.is_empty(), "{notes:?}");
            assert_eq!(back.shape(), puzzle.shape());
            assert_eq!(back.givens(), puzzle.givens());
            assert_eq!(
                common::sorted_rules(&back),
                common::sorted_rules(&puzzle),
                "{n}×{n} seed {seed}"
            );
            // Compressed, and once more.
            let json = decompress(&compress(&doc.to_string())).unwrap();
            let again = from_json(&serde_json::from_str(&json).unwrap()).unwrap().0;
            assert_eq!(common::sorted_rules(&again), common::sorted_rules(&puzzle));
        }
    }
}

#[test]
fn rules_f_puzzles_cannot_hold_are_refused_on_write() {
    let shape = Arc::new(Shape::standard(4, false).unwrap());
    let p = Puzzle::new(shape, vec![0; 16])
        .unwrap()
        .with_constraints(vec![Constraint::Negative(DotRule::Sum(5))])
        .unwrap();
    let e = to_json(&p, None).unwrap_err();
    assert!(e.to_string().contains("f-puzzles cannot express"), "{e}");
}

mod common;

#[test]
fn convert_writes_links_that_count_the_same_from_the_command_line() {
    let out = common::run(&[
        "convert",
        "--to",
        "fpuzzles-link",
        "tests/data/fpuzzles/mixed6.json",
    ]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let link = common::stdout(&out);
    assert!(
        link.starts_with("https://www.f-puzzles.com/?load=N4Ig"),
        "{link}"
    );
    let mut backends = vec!["dfs", "sat"];
    if cfg!(feature = "cp") {
        backends.push("cp");
    }
    for backend in backends {
        let out = common::run_with(&["count", "--backend", backend, "-"], &link);
        assert_eq!(
            common::stdout(&out).trim(),
            "2",
            "{backend}: {}",
            common::stderr(&out)
        );
    }
    // The line format holds houses and cages only.
    let out = common::run(&["convert", "--to", "line", "tests/data/fpuzzles/mixed6.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        common::stderr(&out).contains("cannot be written in line format"),
        "{}",
        common::stderr(&out)
    );
}

/// A puzzle of the data sets with one solution, and that solution.
fn unique_with_solution() -> (Puzzle, sudoku_lab::model::Grid) {
    let counts = std::fs::read_to_string("tests/data/9x9/test_puzzles.counts").unwrap();
    read_puzzles(&counts, &ReadOptions::default())
        .into_iter()
        .map(Result::unwrap)
        .find_map(|e| match e.expected {
            Some(Expected {
                count: 1,
                solution: Some(s),
            }) => Some((e.puzzle, s)),
            _ => None,
        })
        .unwrap()
}

#[test]
fn the_solution_is_the_known_answer() {
    let (puzzle, solution) = unique_with_solution();
    let known = Some(Expected {
        count: 1,
        solution: Some(solution.clone()),
    });
    let mut doc = to_json(&puzzle, Some(&solution)).unwrap();
    let read_one = |doc: &serde_json::Value| {
        let text = serde_json::to_string_pretty(doc).unwrap();
        (read_puzzles(&text, &ReadOptions::default()).remove(0), text)
    };
    assert_eq!(read_one(&doc).0.unwrap().expected, known);
    // As f-puzzles writes it (flat numbers), and the other forms readers meet.
    let digits: Vec<u16> = solution.cells().to_vec();
    let text: String = digits.iter().map(|d| d.to_string()).collect();
    let strings: Vec<String> = digits.iter().map(|d| d.to_string()).collect();
    let rows: Vec<&[u16]> = digits.chunks(9).collect();
    for form in [
        serde_json::json!(rows),
        serde_json::json!(text),
        serde_json::json!(strings.join(",")),
        serde_json::json!(strings),
    ] {
        doc["solution"] = form;
        assert_eq!(
            read_one(&doc).0.unwrap().expected,
            known,
            "{}",
            doc["solution"]
        );
    }
    // f-puzzles' placeholders are no solution; a partial one is ignored, with a warning.
    for blank in [
        serde_json::json!([]),
        serde_json::json!(vec![0; 81]),
        serde_json::json!(vec!["."; 81]),
        serde_json::json!(""),
        serde_json::Value::Null,
    ] {
        doc["solution"] = blank;
        let e = read_one(&doc).0.unwrap();
        assert_eq!(
            (e.expected, e.warnings),
            (None, vec![]),
            "{}",
            doc["solution"]
        );
    }
    let mut partial = digits.clone();
    partial[40] = 0;
    doc["solution"] = serde_json::json!(partial);
    let e = read_one(&doc).0.unwrap();
    assert_eq!(e.expected, None);
    assert!(
        e.warnings[0].message.contains("partial"),
        "{:?}",
        e.warnings
    );
    // A solution that does not solve the puzzle, or of another size, is an error at its place.
    let mut wrong = digits.clone();
    wrong.swap(0, 1);
    for (bad, says) in [
        (wrong, "the solution given does not solve the puzzle"),
        (
            digits[..80].to_vec(),
            "\"solution\": 80 cells, a 9×9 grid has 81",
        ),
        (
            [&digits[..80], &[10u16][..]].concat(),
            "\"solution\": cell 81 holds 10, out of 1..=9",
        ),
    ] {
        doc["solution"] = serde_json::json!(bad);
        let (e, text) = read_one(&doc);
        let e = e.unwrap_err();
        let (line, col) = common::place(&text, "\"solution\": ");
        assert_eq!((e.line, e.col), (line, col + "\"solution\": ".len()), "{e}");
        assert!(e.message.contains(says), "{e}");
    }
}

#[test]
fn xcheck_and_unique_hold_answers_against_the_documents_solution() {
    let (puzzle, solution) = unique_with_solution();
    let doc = format!("{}\n", to_json(&puzzle, Some(&solution)).unwrap());
    let args = ["xcheck", "--task", "unique", "--backends", "dfs,sat", "-"];
    let o = common::run_with(&args, &doc);
    assert_eq!(o.status.code(), Some(0), "{}", common::stdout(&o));
    assert!(
        common::stdout(&o).contains(": 0 disagreements"),
        "{}",
        common::stdout(&o)
    );
    // The empty 4×4 has 288 solutions: a document that gives one as its solution claims one.
    let empty = Puzzle::new(Arc::new(Shape::standard(4, false).unwrap()), vec![0; 16]).unwrap();
    let one = sudoku_lab::model::Grid::new(4, vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]);
    let doc = format!("{}\n", to_json(&empty, Some(&one)).unwrap());
    let o = common::run_with(&args, &doc);
    assert_eq!(o.status.code(), Some(1), "{}", common::stderr(&o));
    let row = "expected exactly 1 solution, but dfs said multiple, sat said multiple";
    assert!(common::stdout(&o).contains(row), "{}", common::stdout(&o));
    let o = common::run_with(&["unique", "--backend", "dlx", "-"], &doc);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        common::stderr(&o)
            .contains("<stdin>:1:1: wrong answer: dlx said multiple; expected exactly 1 solution"),
        "{}",
        common::stderr(&o)
    );
    // `generate --variants … --with-answer` writes the solution, which comes back as the answer.
    let out = common::run(&[
        "generate",
        "--size",
        "4",
        "--variants",
        "thermo,xv",
        "--unique",
        "--with-answer",
        "--seed",
        "3",
        "--count",
        "2",
    ]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    for e in read_puzzles(&common::stdout(&out), &ReadOptions::default()) {
        let known = e.unwrap().expected.unwrap();
        assert_eq!((known.count, known.solution.is_some()), (1, true));
    }
}
