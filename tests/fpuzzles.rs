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
        "numberedroom":[{"cell":"R0C1","value":"3"}]}"#;
    let e = read_puzzles(doc, &ReadOptions::default())
        .remove(0)
        .unwrap_err();
    assert!(
        e.message
            .contains("\"numberedroom\": a rule the lab does not know"),
        "{e}"
    );
    // An empty list of an unknown rule carries nothing and is no error.
    let doc = doc.replace(r#"[{"cell":"R0C1","value":"3"}]"#, "[]");
    assert!(read_puzzles(&doc, &ReadOptions::default())[0].is_ok());
}

/// The puzzle of `mixed6.json`, and the document compressed.
fn mixed6() -> (sudoku_lab::format::Entry, String) {
    let text = std::fs::read_to_string("tests/data/fpuzzles/mixed6.json").unwrap();
    let raw = read_puzzles(&text, &ReadOptions::default())
        .remove(0)
        .unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    (raw, compress(&doc.to_string()))
}

#[test]
fn compressed_links_read_like_the_raw_document() {
    let (raw, packed) = mixed6();
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
            // Candidates of a cell with a given restrict nothing there (the given is among
            // them, as the puzzle is drawn from a solution) and f-puzzles ignores them.
            let held: Vec<Constraint> = (puzzle.constraints().iter())
                .filter(|c| {
                    !matches!(c, Constraint::Candidates { cell, .. }
                        if puzzle.givens()[*cell as usize] != 0)
                })
                .cloned()
                .collect();
            let held = puzzle.clone().with_constraints(held).unwrap();
            assert_eq!(
                common::sorted_rules(&back),
                common::sorted_rules(&held),
                "{n}×{n} seed {seed}"
            );
            // Compressed, and once more.
            let json = decompress(&compress(&doc.to_string())).unwrap();
            let again = from_json(&serde_json::from_str(&json).unwrap()).unwrap().0;
            assert_eq!(common::sorted_rules(&again), common::sorted_rules(&held));
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
    // A solution that does not solve the puzzle, or of another size, is an error at its place;
    // a digit out of range, at that digit.
    let mut wrong = digits.clone();
    wrong.swap(0, 1);
    let member = "\"solution\": ";
    for (bad, says, (at, skip)) in [
        (
            wrong,
            "the solution given does not solve the puzzle",
            (member, member.len()),
        ),
        (
            digits[..80].to_vec(),
            "\"solution\": 80 cells, a 9×9 grid has 81",
            (member, member.len()),
        ),
        (
            [&digits[..80], &[10u16][..]].concat(),
            "\"solution\": cell 81 holds 10, out of 1..=9",
            ("10\n", 0),
        ),
    ] {
        doc["solution"] = serde_json::json!(bad);
        let (e, text) = read_one(&doc);
        let e = e.unwrap_err();
        let (line, col) = common::place(&text, at);
        assert_eq!((e.line, e.col), (line, col + skip), "{e}");
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

/// An empty f-puzzles document of side `n` with `extra` keys (a JSON object's inside).
fn document(n: usize, extra: &str) -> String {
    let row = format!("[{}]", vec!["{}"; n].join(","));
    let grid = vec![row; n].join(",");
    let extra = if extra.is_empty() {
        String::new()
    } else {
        format!(",{extra}")
    };
    format!(r#"{{"size":{n},"grid":[{grid}]{extra}}}"#)
}

fn read_doc(text: &str) -> (Puzzle, Vec<String>) {
    from_json(&serde_json::from_str(text).unwrap()).unwrap()
}

#[test]
fn every_new_key_reads_as_its_kind() {
    use sudoku_lab::model::{EdgeClue, IndexKind};
    let edge = |line, from_end, value| EdgeClue {
        line,
        from_end,
        value,
    };
    // Shapes as f-puzzles writes them (published documents).
    let cases: Vec<(&str, Vec<Constraint>)> = vec![
        (
            r#""quadruple":[{"cells":["R1C1","R1C2","R2C1","R2C2"],"values":[3,3]}]"#,
            vec![Constraint::Quadruple {
                cells: vec![0, 1, 9, 10],
                digits: vec![3, 3],
            }],
        ),
        (
            r#""minimum":[{"cell":"R7C2"}],"maximum":[{"cell":"R5C8"}]"#,
            vec![Constraint::Minimum(55), Constraint::Maximum(43)],
        ),
        (
            r#""rowindexer":[{"cells":["R2C1","R2C2"]}],"columnindexer":[{"cells":["R1C1"]}],
               "boxindexer":[{"cells":["R3C3"]}]"#,
            vec![
                Constraint::Indexer {
                    cell: 0,
                    kind: IndexKind::Column,
                },
                Constraint::Indexer {
                    cell: 9,
                    kind: IndexKind::Row,
                },
                Constraint::Indexer {
                    cell: 10,
                    kind: IndexKind::Row,
                },
                Constraint::Indexer {
                    cell: 20,
                    kind: IndexKind::Box,
                },
            ],
        ),
        (
            r#""clone":[{"cells":["R2C2","R2C3"],"cloneCells":["R4C4","R4C5"]}]"#,
            vec![Constraint::Clone {
                a: vec![10, 11],
                b: vec![30, 31],
            }],
        ),
        (
            r#""betweenline":[{"lines":[["R1C1","R1C2","R1C3"]]}],
               "slowthermometer":[{"lines":[["R2C1","R2C2"]]}],
               "regionsumline":[{"lines":[["R3C3","R3C4"]]}],
               "entropicline":[{"lines":[["R4C1","R4C2","R4C3"]]}],
               "modularline":[{"lines":[["R5C1","R5C2","R5C3"]]}],
               "zipperline":[{"lines":[["R6C1","R6C2","R6C3"]]}],
               "nabner":[{"lines":[["R7C1","R7C2"]]}],
               "doublearrow":[{"lines":[["R8C1","R8C2","R8C3"]]}]"#,
            vec![
                Constraint::Between(vec![0, 1, 2]),
                Constraint::SlowThermo(vec![9, 10]),
                Constraint::RegionSum(vec![20, 21]),
                Constraint::Entropic(vec![27, 28, 29]),
                Constraint::Modular(vec![36, 37, 38]),
                Constraint::Zipper(vec![45, 46, 47]),
                Constraint::Nabner(vec![54, 55]),
                Constraint::DoubleArrow(vec![63, 64, 65]),
            ],
        ),
        (
            r#""lockout":[{"lines":[["R9C1","R9C2","R9C3"]]},{"lines":[["R1C9","R2C9"]],"value":"6"}]"#,
            vec![
                Constraint::Lockout {
                    cells: vec![72, 73, 74],
                    gap: 4,
                },
                Constraint::Lockout {
                    cells: vec![8, 17],
                    gap: 6,
                },
            ],
        ),
        (
            // Above column 4, left of row 4, right of row 5 (R5C10), below column 7 (R10C7).
            r#""skyscraper":[{"cell":"R0C4","value":"5"},{"cell":"R4C0","value":"3"}],
               "xsum":[{"cell":"R5C10","value":"11"},{"cell":"R10C7","value":"13"}]"#,
            vec![
                Constraint::Skyscraper(edge(Line::Col(3), false, 5)),
                Constraint::Skyscraper(edge(Line::Row(3), false, 3)),
                Constraint::XSum(edge(Line::Row(4), true, 11)),
                Constraint::XSum(edge(Line::Col(6), true, 13)),
            ],
        ),
    ];
    for (keys, want) in cases {
        let (p, notes) = read_doc(&document(9, keys));
        assert!(notes.is_empty(), "{keys}: {notes:?}");
        let mut got = p.constraints().to_vec();
        let mut want = want;
        let key = |c: &Constraint| format!("{c:?}");
        got.sort_by_key(key);
        want.sort_by_key(key);
        assert_eq!(got, want, "{keys}");
        // Written back and read again: the same rules.
        let back = from_json(&to_json(&p, None).unwrap()).unwrap().0;
        assert_eq!(
            common::sorted_rules(&back),
            common::sorted_rules(&p),
            "{keys}"
        );
    }
    // An X-sum clue of the corner, or inside the grid, is an error naming the key.
    for cell in ["R0C0", "R3C3"] {
        let doc = document(9, &format!(r#""xsum":[{{"cell":"{cell}","value":"3"}}]"#));
        let e = from_json(&serde_json::from_str(&doc).unwrap()).unwrap_err();
        assert!(e.to_string().starts_with("\"xsum\": clue cell"), "{e}");
    }
    // A clue without a value is ignored, with a note.
    let (p, notes) = read_doc(&document(9, r#""skyscraper":[{"cell":"R0C4","value":""}]"#));
    assert!(p.constraints().is_empty());
    assert_eq!(notes, ["ignored a skyscraper clue without a value"]);
}

#[test]
fn given_pencil_marks_limit_an_empty_cell_and_are_ignored_on_a_given() {
    let mut doc: serde_json::Value = serde_json::from_str(&document(4, "")).unwrap();
    doc["grid"][0][0] = serde_json::json!({"value": 3, "given": true, "givenPencilMarks": [1, 3]});
    doc["grid"][1][2] = serde_json::json!({"givenPencilMarks": [2, 4]});
    let (p, notes) = from_json(&doc).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(p.givens()[0], 3);
    assert_eq!(
        p.constraints(),
        [Constraint::Candidates {
            cell: 6,
            digits: vec![2, 4]
        }]
    );
    // Written back as the empty cell's given pencil marks.
    let out = to_json(&p, None).unwrap();
    assert_eq!(
        out["grid"][1][2]["givenPencilMarks"],
        serde_json::json!([2, 4])
    );
    assert!(out["grid"][0][0].get("givenPencilMarks").is_none());
    assert_eq!(from_json(&out).unwrap().0, p);
    // A pencil mark that is not a number is an error at its cell.
    doc["grid"][1][2] = serde_json::json!({"givenPencilMarks": ["x"]});
    let e = from_json(&doc).unwrap_err();
    assert!(
        e.to_string().contains("row 2, column 3: givenPencilMarks"),
        "{e}"
    );
    // Candidates that exclude a cell's given cannot be written: f-puzzles ignores them there.
    let shape = Arc::new(Shape::standard(4, false).unwrap());
    let mut givens = vec![0; 16];
    givens[0] = 3;
    let p = Puzzle::new(shape, givens)
        .unwrap()
        .with_constraints(vec![Constraint::Candidates {
            cell: 0,
            digits: vec![1, 2],
        }])
        .unwrap();
    let e = to_json(&p, None).unwrap_err();
    assert!(e.to_string().contains("given 3"), "{e}");
}

#[test]
fn a_side_without_a_box_shape_takes_the_rows_as_regions() {
    use sudoku_lab::model::Regions;
    // A 7×7 Latin square with one cell left empty: f-puzzles' default regions are the rows, so
    // the cell's digit is forced and the document has one solution.
    let mut doc: serde_json::Value = serde_json::from_str(&document(7, "")).unwrap();
    for r in 0..7 {
        for c in 0..7 {
            if (r, c) != (3, 4) {
                doc["grid"][r][c] = serde_json::json!({"value": (r + c) % 7 + 1, "given": true});
            }
        }
    }
    let (p, notes) = from_json(&doc).unwrap();
    assert_eq!(*p.shape().regions(), Regions::Boxes { rows: 1, cols: 7 });
    assert!(notes.iter().any(|m| m.contains("the rows")), "{notes:?}");
    // Written back without regions (they are the default), and read the same.
    let out = to_json(&p, None).unwrap();
    assert!(out["grid"][0][0].get("region").is_none(), "{out}");
    assert_eq!(from_json(&out).unwrap().0, p);
    let out = common::run_with(&["count", "--backend", "dfs", "-"], &doc.to_string());
    assert_eq!(common::stdout(&out).trim(), "1", "{}", common::stderr(&out));
    // A 5×5 whose regions are given is a jigsaw, as before.
    let mut doc: serde_json::Value = serde_json::from_str(&document(5, "")).unwrap();
    for r in 0..5 {
        for c in 0..5 {
            doc["grid"][r][c] = serde_json::json!({"region": (r + 2 * c) % 5});
        }
    }
    let (p, _) = from_json(&doc).unwrap();
    assert!(matches!(p.shape().regions(), Regions::Jigsaw(_)));
}

#[test]
fn success_message_is_metadata() {
    let (p, notes) = read_doc(&document(
        4,
        r#""title":"T","successMessage":"Well done!","disabledlogic":["tuples"]"#,
    ));
    assert!(notes.is_empty(), "{notes:?}");
    assert!(p.constraints().is_empty());
}

#[test]
fn sudokupad_links_carrying_an_f_puzzles_document_read_like_the_raw_document() {
    let (raw, packed) = mixed6();
    let links = [
        format!("https://sudokupad.app/fpuzzles{packed}"),
        format!("https://sudokupad.app/?puzzleid=fpuzzles{packed}"),
        format!("sudokupad.app/fpuzzles{packed}"),
    ];
    for link in &links {
        let entries = read_puzzles(link, &ReadOptions::default());
        assert_eq!(entries.len(), 1, "{link}");
        let e = entries.into_iter().next().unwrap().unwrap();
        assert_eq!(e.puzzle, raw.puzzle, "{link}");
    }
    // SudokuPad's own format and short ids: a clear error, exit code 2 from the command line.
    for (link, says) in [
        (
            "https://sudokupad.app/sclN4IgzglgXgpiBcBOAN",
            "its rules are prose",
        ),
        ("https://sudokupad.app/ctcN4IgzglgXgpiBcBOAN", "\"ctc…\""),
        ("https://sudokupad.app/jsm6fxl03y", "short id"),
    ] {
        let e = read_puzzles(link, &ReadOptions::default())
            .remove(0)
            .unwrap_err();
        assert!(e.message.contains(says), "{link}: {e}");
        assert_eq!((e.line, e.col), (1, 1));
        let out = common::run_with(&["count", "-"], link);
        assert_eq!(out.status.code(), Some(2), "{link}");
    }
}

#[test]
fn an_impossible_killer_cage_is_a_puzzle_without_solution_and_a_warning() {
    // A sum its cells cannot make, and a cage of more cells than the side: both read, both
    // named in a warning, and the puzzle counts 0.
    for cage in [
        r#"{"cells":["R1C1","R1C2"],"value":"21"}"#,
        r#"{"cells":["R1C1","R1C2","R2C1","R2C2","R3C1"],"value":"15"}"#,
    ] {
        let text = document(4, &format!(r#""killercage":[{cage}]"#));
        let e = read_puzzles(&text, &ReadOptions::default())
            .remove(0)
            .unwrap();
        let notes: Vec<&str> = e.warnings.iter().map(|w| w.message.as_str()).collect();
        assert!(
            notes
                .iter()
                .any(|m| m.contains("cage") && m.contains("no solution")),
            "{cage}: {notes:?}"
        );
        let out = common::run_with(&["count", "--backend", "dfs", "-"], &text);
        assert_eq!(
            common::stdout(&out).trim(),
            "no solution",
            "{}",
            common::stderr(&out)
        );
    }
}

/// An error in an f-puzzles document is placed at the item it names inside a member: the cell
/// or row of `"grid"`, the digit of `"solution"`, not the member's first character.
#[test]
fn errors_point_at_the_item_they_name() {
    // 1-based line and column of the first `needle` in `text`.
    let place = |text: &str, needle: &str| {
        let before = &text[..text.find(needle).unwrap()];
        let line = before.matches('\n').count() + 1;
        (
            line,
            before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1,
        )
    };
    let error = |text: &str| {
        read_puzzles(text, &ReadOptions::default())
            .remove(0)
            .unwrap_err()
    };
    let doc = |row2: &str, row4: &str, solution: &str| {
        format!(
            "{{\"size\": 4,\n \"grid\": [\n  [{{}}, {{}}, {{}}, {{}}],\n  {row2},\n  \
             [{{}}, {{}}, {{}}, {{}}],\n  {row4}],\n \"solution\": {solution}}}"
        )
    };
    let (row, full) = ("[{}, {}, {}, {}]", "[1,2,3,4, 3,4,1,2, 2,1,4,3, 4,3,2,1]");
    // Row 2, column 3 holds 7 on a 4×4 grid: line 4, where that cell's object starts.
    let text = doc("[{}, {}, {\"value\": 7, \"given\": true}, {}]", row, full);
    let e = error(&text);
    assert_eq!((e.line, e.col), place(&text, "{\"value\": 7"), "{e}");
    assert_eq!((e.line, e.col), (4, 12), "{e}");
    assert!(e.message.contains("row 2, column 3"), "{e}");
    // Row 4 has 3 cells: its opening bracket.
    let text = doc(row, "[{}, {}, {}]", full);
    let e = error(&text);
    assert_eq!((e.line, e.col), (6, 3), "{e}");
    assert!(
        e.message.contains("row 4 is not an array of 4 cells"),
        "{e}"
    );
    // The 9th digit of the solution is 9: that digit.
    let text = doc(row, row, "[1,2,3,4, 3,4,1,2, 9,1,4,3, 4,3,2,1]");
    let e = error(&text);
    assert_eq!((e.line, e.col), place(&text, "9,1,4"), "{e}");
    assert!(e.message.contains("cell 9 holds 9"), "{e}");
}

/// The fields of a cell: a `given` that is not true or false, a given pencil mark outside
/// 1..n and a key the reader does not know are errors at the cell; a solver's marks and colours
/// are ignored with a note.
#[test]
fn bad_cell_fields_are_errors_at_their_cell() {
    let with_cell = |cell: serde_json::Value| {
        let mut doc: serde_json::Value = serde_json::from_str(&document(4, "")).unwrap();
        doc["grid"][1][2] = cell;
        from_json(&doc)
    };
    let error = |cell: serde_json::Value| {
        let e = with_cell(cell).unwrap_err();
        assert_eq!(e.path, [1, 2], "{e}");
        e.to_string()
    };
    let e = error(serde_json::json!({"value": 1, "given": "yes"}));
    assert!(
        e.contains("row 2, column 3: given: expected true or false, found \"yes\""),
        "{e}"
    );
    for bad in [0, -1, 5] {
        let e = error(serde_json::json!({"givenPencilMarks": [1, bad]}));
        let words =
            format!("row 2, column 3: givenPencilMarks: value {bad} is out of range 1 to 4");
        assert!(e.contains(&words), "{e}");
    }
    let e = error(serde_json::json!({"foo": 1}));
    assert!(e.contains("row 2, column 3: unknown key \"foo\""), "{e}");
    // A key that carries nothing drops nothing.
    assert!(with_cell(serde_json::json!({"foo": null})).is_ok());
    let (p, notes) = with_cell(serde_json::json!({
        "value": 2, "given": false, "centerPencilMarks": [1, 2], "c": "#FF0000"
    }))
    .unwrap();
    assert!(p.givens().iter().all(|&v| v == 0));
    assert_eq!(
        notes,
        [
            "ignored 1 digits entered without \"given\": they are not givens",
            "ignored \"c\" in 1 cells: a solver's marks or colours, not the puzzle",
            "ignored \"centerPencilMarks\" in 1 cells: a solver's marks or colours, not the puzzle",
        ]
    );
}

/// An entry of a line rule with no line is refused as a line without cells, not dropped.
#[test]
fn a_line_rule_without_a_line_is_an_error() {
    for (key, words) in [
        ("arrow", "circle"),
        ("thermometer", "a thermometer of 0 cells"),
    ] {
        let doc = document(4, &format!(r#""{key}":[{{"lines":[],"cells":[]}}]"#));
        let e = from_json(&serde_json::from_str(&doc).unwrap()).unwrap_err();
        assert!(e.to_string().contains(words), "{key}: {e}");
    }
    let doc = document(4, r#""arrow":[{"lines":[],"cells":["R1C1"]}]"#);
    let e = from_json(&serde_json::from_str(&doc).unwrap()).unwrap_err();
    assert!(
        e.to_string().contains("at least one cell on its line"),
        "{e}"
    );
}

/// `--format fpuzzles` reads a raw f-puzzles document as well as a compressed one.
#[test]
fn the_fpuzzles_format_reads_raw_documents_too() {
    use sudoku_lab::format::Format;
    let opts = ReadOptions {
        format: Some(Format::Fpuzzles),
        ..ReadOptions::default()
    };
    let doc = document(4, r#""killercage":[{"cells":["R1C1","R1C2"],"value":"3"}]"#);
    let compressed = compress(&doc);
    let raw = read_puzzles(&doc, &opts).remove(0).unwrap();
    let link = read_puzzles(&compressed, &opts).remove(0).unwrap();
    assert_eq!(raw.puzzle, link.puzzle);
    assert_eq!(raw.puzzle.constraints().len(), 1);
}

/// A `killercage` value is read as cage sums are everywhere: a negative or past-32-bit one is an
/// error, not a puzzle without solution.
#[test]
fn a_negative_or_huge_killer_cage_value_is_an_error() {
    for (value, words) in [
        ("\"-3\"", "negative cage sum -3"),
        ("4294967296", "cage sum 4294967296 is out of range"),
    ] {
        let cage = format!(r#""killercage":[{{"cells":["R1C1","R1C2"],"value":{value}}}]"#);
        let e = from_json(&serde_json::from_str(&document(4, &cage)).unwrap()).unwrap_err();
        assert!(e.to_string().contains(words), "{e}");
    }
}
