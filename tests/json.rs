//! The lab's own JSON object form: every kind the model holds written and read back as the same
//! puzzle, errors that name what is wrong and where, and `convert --to json` from the command line.

use std::sync::Arc;

use sudoku_lab::check;
use sudoku_lab::format::object::{keys, to_json};
use sudoku_lab::format::{read_puzzles, Entry, ParseError, ReadOptions};
use sudoku_lab::generate::{blank_solved, random_cages, random_jigsaw, GenRng};
use sudoku_lab::model::Expected;
use sudoku_lab::model::{
    Cage, Constraint, ConstraintKind, Dot, DotRule, Grid, Puzzle, Regions, Shape,
};

mod common;

fn read(text: &str) -> Vec<Result<Entry, ParseError>> {
    read_puzzles(text, &ReadOptions::default())
}

/// Killer cages cut from `grid` (some cells in none), then the rules of every kind, then rules
/// only this form holds: a dot of another sum than X or V, a negative rule of another
/// difference, a whisper of gap 1.
fn everything(shape: &Arc<Shape>, seed: u64) -> (Puzzle, Grid) {
    let n = shape.size();
    let mut rng = GenRng::seed(seed);
    let (puzzle, grid) = blank_solved(shape, &mut rng, n).unwrap();
    let g = |c: u32| grid.cells()[c as usize] as u32;
    let mut rules: Vec<Constraint> = random_cages(n, &grid, (1, n.min(4)), &mut rng)
        .into_iter()
        .filter(|cells| cells.len() % 2 == 1)
        .map(|cells| {
            let sum = cells.iter().map(|&c| g(c)).sum();
            Constraint::Cage(Cage::new(cells, sum))
        })
        .collect();
    rules.extend(common::rules_of_every_kind(shape, &grid, &mut rng));
    rules.extend([
        Constraint::Dot(Dot {
            a: 0,
            b: 1,
            rule: DotRule::Sum(g(0) + g(1)),
        }),
        Constraint::Negative(DotRule::Difference(2)),
        Constraint::Whisper {
            cells: vec![0, n as u32],
            gap: 1,
        },
    ]);
    (puzzle.with_constraints(rules).unwrap(), grid)
}

/// Every shape the object names: standard boxes with and without diagonals, boxes of another
/// shape (6×6 of 3×2), a jigsaw with diagonals.
fn shapes(n: usize, seed: u64) -> Vec<Arc<Shape>> {
    let mut out = vec![
        Arc::new(Shape::standard(n, false).unwrap()),
        Arc::new(Shape::standard(n, true).unwrap()),
        random_jigsaw(n, true, &mut GenRng::seed(seed)).unwrap().0,
    ];
    if n == 6 {
        let boxes = Regions::Boxes { rows: 3, cols: 2 };
        out.push(Arc::new(Shape::new(6, boxes, false).unwrap()));
    }
    out
}

#[test]
fn every_kind_round_trips_on_4_6_and_9() {
    let mut lines = vec![];
    let mut written = vec![];
    for n in [4, 6, 9] {
        for seed in 0..3u64 {
            let mut puzzles = vec![common::every_kind_puzzle(n, seed)];
            puzzles.extend(shapes(n, seed).iter().map(|s| everything(s, seed)));
            for (puzzle, grid) in puzzles {
                // A known answer rides along: with the grid when it solves the puzzle (rules
                // drawn from it do; anti-king and the negatives may not hold on it).
                let expected = match check::verify(&puzzle, &grid) {
                    Ok(()) => Expected {
                        count: 1,
                        solution: Some(grid),
                    },
                    Err(_) => Expected {
                        count: 5,
                        solution: None,
                    },
                };
                let doc = to_json(&puzzle, Some(&expected));
                // Each rule says only what its kind takes.
                for rule in doc["rules"].as_array().unwrap() {
                    let kind: ConstraintKind = rule["kind"].as_str().unwrap().parse().unwrap();
                    for key in rule.as_object().unwrap().keys() {
                        assert!(
                            key == "kind" || keys(kind).contains(&key.as_str()),
                            "{rule}"
                        );
                    }
                }
                let line = doc.to_string();
                let back = read(&line).remove(0).unwrap();
                let shown = format!("{n}×{n} seed {seed}: {line}");
                assert_eq!(back.puzzle, puzzle, "{shown}");
                assert_eq!(back.expected.as_ref(), Some(&expected), "{shown}");
                assert_eq!(to_json(&back.puzzle, back.expected.as_ref()), doc);
                lines.push(line);
                written.push(puzzle);
            }
        }
    }
    // All of them as JSON Lines, one object a line.
    let entries = read(&lines.join("\n"));
    assert_eq!(entries.len(), written.len());
    for (i, (e, p)) in entries.into_iter().zip(&written).enumerate() {
        let e = e.unwrap();
        assert_eq!((e.line, &e.puzzle), (i + 1, p));
    }
}

const EMPTY4: &str = r#"[[".",".",".","."],[".",".",".","."],[".",".",".","."],[".",".",".","."]]"#;

#[test]
fn bad_values_are_named_at_their_line_and_column() {
    // (what follows the board on its own line, where the error points, what it says)
    let cases: &[(&str, &str, &str)] = &[
        (
            r#""colour": "red""#,
            r#""red""#,
            r#"unknown field "colour""#,
        ),
        (
            r#""rules": [{"kind": "numbered-room", "cells": [[1,1]]}]"#,
            r#""numbered-room""#,
            "rule 1: unknown constraint kind 'numbered-room'",
        ),
        (
            r#""rules": [{"cells": [[1,1]]}]"#,
            r#"{"cells""#,
            r#"rule 1: no "kind""#,
        ),
        (
            r#""rules": [{"kind": "anti-king"}, {"kind": "thermo", "cells": [[1,1],[1,2]], "colour": 3}]"#,
            "3}",
            r#"rule 2 (thermo): unknown key "colour": a thermo rule has "cells""#,
        ),
        (
            r#""rules": [{"kind": "thermo", "cells": [[1,1],[1,5]]}]"#,
            "[1,5]",
            "rule 1 (thermo): cell [1,5] is not [ROW, COL] within 1..=4",
        ),
        (
            r#""rules": [{"kind": "odd", "cell": [1,1]}, {"kind": "thermo", "cells": [[1,1],[3,3]]}]"#,
            r#"{"kind": "thermo""#,
            "rule 2 (thermo): consecutive cells of a line must touch",
        ),
        (
            r#""rules": [{"kind": "kropki", "cells": [[1,1],[1,2]]}]"#,
            "{",
            r#"rule 1 (kropki): needs one of "difference" and "ratio""#,
        ),
        (
            r#""rules": [{"kind": "kropki", "cells": [[1,1],[2,2]], "ratio": 2}]"#,
            "{",
            "rule 1 (kropki): a dot joins orthogonal neighbours",
        ),
        (
            r#""rules": [{"kind": "xv", "cells": [[1,1],[1,2]], "sum": 2.5}]"#,
            "2.5",
            r#"rule 1 (xv): "sum" 2.5 is not a whole number"#,
        ),
        (
            r#""rules": [{"kind": "sandwich", "row": 5, "sum": 0}]"#,
            "5,",
            r#"rule 1 (sandwich): "row" 5 is out of range"#,
        ),
        (
            r#""rules": [{"kind": "killer", "sum": 3, "cells": [[1,1],[1,2]]}]"#,
            r#""killer""#,
            r#"Killer cages go in "cages""#,
        ),
        (
            r#""cages": [{"sum": 3, "cells": [[1,1],[1,2]]}, {"sum": 99999999999999999999, "cells": [[2,1],[2,2]]}]"#,
            "99999999999999999999",
            "cage 2: cage sum 1e+20 is out of range (0 to 4294967295)",
        ),
        (
            r#""cages": [{"sum": "3", "cells": [[1,1],[1,2]]}]"#,
            r#""3""#,
            r#"cage 1: "sum" "3" is not a whole number"#,
        ),
        (
            r#""regions": [[1,1,1,1],[2,2,2,2],[3,3,3,3],[4,4,4,5]]"#,
            "5]",
            "region 5: regions are numbered 1..=4",
        ),
        (
            r#""regions": [[1,1,1,1],[2,2,2,2],[3,3,3,3],[4,4,4,1]]"#,
            "[[1,1",
            "region map invalid",
        ),
        (
            r#""boxes": [2, 2], "regions": [[1]]"#,
            "[2, 2]",
            r#""boxes" and "regions" both given"#,
        ),
        (
            r#""diagonals": "yes""#,
            r#""yes""#,
            r#""diagonals" is true or false"#,
        ),
        (
            r#""rules": [{"kind": "disjoint-groups"}], "regions": [[1,1,1,1],[2,2,2,2],[3,3,3,3],[4,4,4,4]]"#,
            r#"{"kind""#,
            "rule 1 (disjoint-groups): disjoint groups need box regions",
        ),
        (
            r#""solution": [["1","2","3","4"],["1","2","3","4"],["1","2","3","4"],["1","2","3","4"]]"#,
            r#"[["1""#,
            "the solution given does not solve the puzzle",
        ),
        (
            r#""count": 0, "solution": [["1","2","3","4"],["3","4","1","2"],["2","1","4","3"],["4","3","2","1"]]"#,
            "0,",
            "a solution is given but the count says there is none",
        ),
    ];
    for &(rest, at, says) in cases {
        let text = format!("\n{{\"board\": {EMPTY4},\n {rest}}}\n");
        let e = read(&text).remove(0).unwrap_err();
        let (line, col) = common::place(&text[text.find(rest).unwrap()..], at);
        assert_eq!(
            (e.line, e.col),
            (line + 2, col + (line == 1) as usize),
            "{e}\n{text}"
        );
        assert!(e.message.contains(says), "{e}\nshould say: {says}");
    }
}

#[test]
fn a_board_alone_reads_as_before() {
    let bare = read(EMPTY4).remove(0).unwrap();
    let object = read(&format!("{{\"board\": {EMPTY4}}}")).remove(0).unwrap();
    assert_eq!(bare.puzzle, object.puzzle);
    assert_eq!(object.expected, None);
    // --diagonals adds them to an object that does not ask for them.
    let opts = ReadOptions {
        diagonals: true,
        ..Default::default()
    };
    let x = read_puzzles(&format!("{{\"board\": {EMPTY4}}}"), &opts).remove(0);
    assert!(x.unwrap().puzzle.shape().diagonals());
    // A solution alone is the one solution.
    let solved = r#"[["1","2","3","4"],["3","4","1","2"],["2","1","4","3"],["4","3","2","1"]]"#;
    let e = read(&format!("{{\"board\": {EMPTY4}, \"solution\": {solved}}}"))
        .remove(0)
        .unwrap();
    assert_eq!(e.expected.map(|x| x.count), Some(1));
}

#[test]
fn convert_to_json_counts_like_the_source() {
    for (file, count) in [
        ("tests/data/fpuzzles/mixed6.json", "2"),
        ("tests/data/formats/line_jigsaw.txt", ""),
    ] {
        let out = common::run(&["convert", "--to", "json", file]);
        assert!(out.status.success(), "{file}: {}", common::stderr(&out));
        let json = common::stdout(&out);
        assert!(json.lines().all(|l| l.starts_with("{\"board\":")), "{json}");
        let direct = common::run(&["count", "--backend", "dfs", file]);
        let from_json = common::run_with(&["count", "--backend", "dfs", "-"], &json);
        assert!(from_json.status.success(), "{}", common::stderr(&from_json));
        assert_eq!(
            common::stdout(&from_json),
            common::stdout(&direct),
            "{file}"
        );
        if !count.is_empty() {
            assert_eq!(common::stdout(&from_json).trim(), count);
        }
    }
    // Known answers are kept: a wrong one is still caught after the conversion.
    let three = "8.........95.......67.........472968...913245...856137....9.716...6.8492......583";
    let out = common::run_with(&["convert", "--to", "json", "-"], &format!("{three}:4\n"));
    let json = common::stdout(&out);
    assert!(json.contains("\"count\":4"), "{json}");
    let o = common::run_with(&["count", "-"], &json);
    assert_eq!(o.status.code(), Some(1), "{}", common::stderr(&o));
    assert!(
        common::stderr(&o).contains("wrong answer: dfs said 3; expected exactly 4 solutions"),
        "{}",
        common::stderr(&o)
    );
}

/// The examples of docs/formats.md read as documented: its objects, and every rule of its table
/// of kinds on an empty 9×9.
/// A sum or ratio no digits reach is no error: the puzzle has no solution, and a warning at the
/// cage or rule names it.
#[test]
fn out_of_reach_values_are_warnings_at_their_rule() {
    let cases: &[(&str, &str, &str)] = &[
        (
            r#""cages": [{"sum": 3, "cells": [[1,1],[1,2]]}, {"sum": 30, "cells": [[2,1],[2,2]]}]"#,
            r#"{"sum": 30"#,
            "cage 2: cage sum 30 on R2C1 R2C2 is out of reach (2 distinct digits 1..=4 add up to 3 to 7)",
        ),
        (
            r#""rules": [{"kind": "xv", "cells": [[1,1],[1,2]], "sum": -1}]"#,
            r#"{"kind""#,
            "rule 1 (xv): sum 4294967295 dot on R1C1 R1C2 is out of reach",
        ),
        (
            r#""rules": [{"kind": "thermo", "cells": [[1,1],[1,2]]}, {"kind": "kropki", "cells": [[1,1],[1,2]], "ratio": 9223372036854775807}]"#,
            r#"{"kind": "kropki""#,
            "rule 2 (kropki): ratio 4294967295 dot on R1C1 R1C2 is out of reach (two neighbours' digits 1..=4 have ratios 2 to 4): the puzzle has no solution",
        ),
    ];
    for &(rest, at, says) in cases {
        let text = format!("\n{{\"board\": {EMPTY4},\n {rest}}}\n");
        let entry = read(&text).remove(0).unwrap();
        let w = entry.warnings.last().expect("a warning");
        let (line, col) = common::place(&text[text.find(rest).unwrap()..], at);
        assert_eq!(
            (w.line, w.col),
            (line + 2, col + (line == 1) as usize),
            "{w}\n{text}"
        );
        assert!(w.message.contains(says), "{w}\nshould say: {says}");
    }
}

#[test]
fn the_documented_examples_read() {
    let doc = include_str!("../docs/formats.md");
    let section = doc.split("## JSON format").nth(1).unwrap();
    let section = section.split("\n## ").next().unwrap();
    let objects: Vec<&str> = section
        .split("```json\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap())
        .collect();
    assert!(objects.len() >= 2, "{section}");
    for text in &objects {
        let e = read(text).remove(0).unwrap();
        assert!(e.expected.is_some(), "{text}");
    }
    // Their known answers hold.
    let args = ["xcheck", "--task", "count", "--backends", "dfs,sat", "-"];
    let o = common::run_with(&args, &objects.join("\n"));
    assert_eq!(o.status.code(), Some(0), "{}", common::stdout(&o));
    assert!(common::stdout(&o).contains(": 0 disagreements"));
    let empty9 = format!("[{}]", [r#"[0,0,0,0,0,0,0,0,0]"#; 9].join(","));
    let mut kinds = std::collections::BTreeSet::new();
    for rule in section
        .split('`')
        .filter(|t| t.starts_with("{\"kind\": \""))
    {
        let text = format!("{{\"board\": {empty9}, \"rules\": [{rule}]}}");
        let e = read(&text)
            .remove(0)
            .unwrap_or_else(|e| panic!("{rule}: {e}"));
        kinds.insert(e.puzzle.constraints()[0].kind());
    }
    // Every kind but Killer (which has "cages") has an example.
    assert_eq!(kinds.len(), ConstraintKind::ALL.len() - 1, "{kinds:?}");
}

/// No value in any place makes the reader panic: every number of a written object, and every
/// key, replaced in turn by values of the wrong kind or range, reads as a puzzle or an error.
#[test]
fn no_bad_value_panics_the_reader() {
    let (puzzle, grid) = everything(&shapes(6, 1)[2], 1);
    let mut doc = to_json(&puzzle, None);
    // The grid as a solution (checked last, so the rules are read whatever it is).
    let rows: Vec<Vec<u16>> = grid.rows().map(<[u16]>::to_vec).collect();
    doc["count"] = serde_json::json!(2);
    doc["solution"] = serde_json::json!(rows);
    let text = doc.to_string();
    let replacements = [
        "0", "-1", "7", "99", "2.5", "1e40", "\"x\"", "[]", "{}", "null", "[[1,1]]",
    ];
    let mut places = vec![];
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        if bytes[i].is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            places.push((start, i));
        } else if bytes[i] == b'"' {
            i += 1;
            while bytes[i] != b'"' {
                i += 1;
            }
            i += 1;
            places.push((start, i));
        } else {
            i += 1;
        }
    }
    assert!(places.len() > 100);
    for &(a, b) in &places {
        for r in replacements {
            let mutated = format!("{}{r}{}", &text[..a], &text[b..]);
            for e in read(&mutated) {
                if let Err(e) = e {
                    assert!(e.line >= 1 && e.col >= 1, "{e}");
                }
            }
        }
    }
}

/// serde_json keeps the last of two equal keys; the reader refuses them, naming the key where
/// the second ends, in an object and in a rule, and reads the next puzzle (JSON Lines).
#[test]
fn a_key_given_twice_is_an_error_at_the_second() {
    let board4 = r#"[[".",".",".","."],[".",".",".","."],[".",".",".","."],[".",".",".","."]]"#;
    let twice = format!("{{\"board\": {board4}, \"board\": {board4}}}");
    let got = read(&format!("{twice}\n{{\"board\": {board4}}}\n"));
    assert_eq!(got.len(), 2, "{got:?}");
    let e = got[0].as_ref().unwrap_err();
    assert!(e.message.contains("key \"board\" given twice"), "{e}");
    let second = twice.rfind("\"board\"").unwrap();
    assert_eq!((e.line, e.col), (1, second + "\"board\"".len()), "{e}");
    assert!(got[1].is_ok(), "{got:?}");
    let rule = r#"{"kind": "thermo", "cells": [[1,1],[1,2]], "cells": [[2,1],[2,2]]}"#;
    let text = format!("{{\"board\": {board4},\n \"rules\": [{rule}]}}");
    let e = read(&text).remove(0).unwrap_err();
    assert!(e.message.contains("key \"cells\" given twice"), "{e}");
    assert_eq!(e.line, 2, "{e}");
}
