//! f-puzzles documents: reading raw and compressed ones, what is ignored and what is refused,
//! and the round trip read → write → read over every kind the lab holds.

use std::sync::Arc;

use sudoku_lab::format::fpuzzles::{compress, decompress, from_json, to_json};
use sudoku_lab::format::{read_puzzles, ReadOptions};
use sudoku_lab::generate::variants::{draw, drawn_kinds};
use sudoku_lab::generate::{blank_solved, GenRng};
use sudoku_lab::model::{Constraint, ConstraintKind, DotRule, Line, Puzzle, Shape};

fn sorted(p: &Puzzle) -> Vec<String> {
    let mut v: Vec<String> = p.constraints().iter().map(|c| format!("{c:?}")).collect();
    v.sort();
    v
}

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
            let mut rng = GenRng::seed(seed * 31 + n as u64);
            let shape = Arc::new(Shape::standard(n, seed % 2 == 0).unwrap());
            let (puzzle, grid) = blank_solved(&shape, &mut rng, n).unwrap();
            let mut rules = vec![];
            for &kind in drawn_kinds() {
                rules.extend(draw(kind, &shape, &grid, 2, &mut rng));
            }
            rules.push(Constraint::AntiKing);
            rules.push(Constraint::Negative(DotRule::Sum(5)));
            rules.push(Constraint::Negative(DotRule::Sum(10)));
            let puzzle = puzzle.with_constraints(rules).unwrap();
            let doc = to_json(&puzzle, Some(&grid)).unwrap();
            let (back, notes) = from_json(&doc).unwrap();
            assert!(notes.is_empty(), "{notes:?}");
            assert_eq!(back.shape(), puzzle.shape());
            assert_eq!(back.givens(), puzzle.givens());
            assert_eq!(sorted(&back), sorted(&puzzle), "{n}×{n} seed {seed}");
            // Compressed, and once more.
            let json = decompress(&compress(&doc.to_string())).unwrap();
            let again = from_json(&serde_json::from_str(&json).unwrap()).unwrap().0;
            assert_eq!(sorted(&again), sorted(&puzzle));
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
    for backend in ["dfs", "sat"] {
        let out = common::run_with(&["count", "--backend", backend, "-"], &link);
        assert_eq!(
            common::stdout(&out).trim(),
            "2",
            "{backend}: {}",
            common::stderr(&out)
        );
    }
    // cp has no sandwich: it refuses by name.
    let out = common::run_with(&["count", "--backend", "cp", "-"], &link);
    assert!(
        common::stderr(&out).contains("sandwich"),
        "{}",
        common::stderr(&out)
    );
    // The line format holds houses and cages only.
    let out = common::run(&["convert", "--to", "line", "tests/data/fpuzzles/mixed6.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        common::stderr(&out).contains("cannot be written in line format"),
        "{}",
        common::stderr(&out)
    );
}
