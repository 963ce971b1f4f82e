//! f-puzzles: the JSON that f-puzzles (and SudokuPad's importer) writes, raw or in the
//! compressed form its links carry (LZ-string, base64: `https://www.f-puzzles.com/?load=N4Ig…`).
//!
//! Read: `size`, `grid` (each cell's `value` when `given`, and `region` for jigsaws),
//! `diagonal+`/`diagonal-`, `antiknight`, `antiking`, `disjointgroups`, `nonconsecutive`,
//! `negative` (`"ratio"`, `"xv"`), `killercage`, `littlekillersum`, `arrow`, `thermometer`,
//! `difference`, `ratio`, `xv`, `odd`, `even`, `sandwichsum`, `palindrome`, `extraregion`, and the
//! keyed line forms of public f-puzzles readers, `whispers` (with an optional `value`, the gap)
//! and `renban`; `minimum`, `maximum`, `rowindexer`, `columnindexer`, `boxindexer`, `quadruple`,
//! `clone`, `slowthermometer`, `betweenline`, `lockout`, `regionsumline`, `entropicline`,
//! `modularline`, `zipperline`, `nabner`, `doublearrow`, `skyscraper`, `xsum`, and each cell's
//! `givenPencilMarks` (see [`grid`]). f-puzzles itself draws whispers and renban as coloured
//! `line`s; a plain `line` is
//! drawing, like `text`, `circle`, `rectangle` and `cage`: those are ignored and the reader says
//! so. Any other key that carries something is an error naming it, because a dropped rule changes
//! every count. Digits a solver typed (`value` without `given`) are not givens.
//!
//! Conventions, as f-puzzles' own solver reads them: a Kropki dot exempts its pair from both
//! Kropki negatives (`nonconsecutive` is the white dot's), an X or V from the XV negative (which
//! covers both sums); a `difference` without a value is 1, a `ratio` 2; an arrow's `lines` start
//! in its circle; a little killer's `cell` is the clue outside the grid, its `direction` one of
//! `UL UR DL DR`; a sandwich clue sits in row 0 or `n+1` (a column's) or column 0 or `n+1` (a
//! row's). A Killer cage without a value is an extra region (distinct digits).
//!
//! Numbers (sizes, digits, sums, ratios…) are JSON numbers or strings of a whole number; one
//! past `i64`, or text, is an error. A rule parameter that no digits can meet (a ratio past the
//! side, a sum past what its cells reach, a negative one) is not: the puzzle holds it and has no
//! solution, and the reader adds a note naming the rule (see [`Puzzle::rule_warnings`]). A
//! Killer cage's value is the exception: a negative one, or one past `2^32 - 1`, is an error, as
//! in the other readers.
//!
//! Write ([`to_json`]): every puzzle the lab holds whose rules f-puzzles can express, so that it
//! opens in f-puzzles; [`compress`] gives the link's form.
//!
//! One file per family of keys, each with its reader and its writer: [`grid`] (size, givens,
//! regions, diagonals), [`global`] (rules over the whole grid and the negative rules),
//! [`cells`] (cages, extra regions, parity), [`lines`], [`dots`], [`outside`] (little killers,
//! sandwiches); [`json`](mod@json) holds the building blocks (cell names, numbers, entries).

use std::collections::BTreeSet;

use serde_json::{json, Map, Value as J};

use crate::model::{Constraint, Grid, Puzzle};

mod cells;
mod dots;
mod global;
mod grid;
mod json;
mod lines;
mod outside;

use json::{bounded, Reader};

/// What is wrong with an f-puzzles document: the key it is under, where inside that key's
/// value, and what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", key.as_ref().map(|k| format!("\"{k}\": ")).unwrap_or_default())]
pub struct FpuzzlesError {
    pub key: Option<String>,
    /// The item of the key's value at fault, as array indices from the outside in (`[4, 2]`:
    /// row 5, cell 3 of `grid`); empty for the value as a whole.
    pub path: Vec<usize>,
    pub message: String,
}

impl FpuzzlesError {
    /// An error that is about the document as a whole (no key).
    fn whole(message: impl Into<String>) -> FpuzzlesError {
        FpuzzlesError {
            key: None,
            path: vec![],
            message: message.into(),
        }
    }
    /// The same error, placed at the item `path` of its key's value.
    fn at(mut self, path: &[usize]) -> FpuzzlesError {
        self.path = path.to_vec();
        self
    }
}

fn err(key: &str, message: impl Into<String>) -> FpuzzlesError {
    FpuzzlesError {
        key: Some(key.to_string()),
        path: vec![],
        message: message.into(),
    }
}

fn cannot(what: String) -> FpuzzlesError {
    FpuzzlesError::whole(format!("f-puzzles cannot express {what}"))
}

/// Keys that only draw (their content is ignored, and the reader says so).
const DRAWING: [&str; 5] = ["text", "line", "circle", "rectangle", "cage"];
/// Keys that hold no rule.
const META: [&str; 9] = [
    "size",
    "grid",
    "title",
    "author",
    "ruleset",
    "successMessage",
    "solution",
    "disabledlogic",
    "truecandidatesoptions",
];

/// Whether `text` looks like an f-puzzles document: a JSON object with `size` and `grid`, or a
/// compressed one (an f-puzzles or SudokuPad link, or LZ-string base64 of such an object).
pub fn looks_like(text: &str) -> bool {
    let t = text.trim_start_matches('\u{feff}').trim();
    if t.starts_with('{') {
        return t.contains("\"grid\"");
    }
    let first = t.lines().next().unwrap_or("").trim();
    first.contains("load=") || first.starts_with("N4Ig") || first.contains(SUDOKUPAD)
}

/// The host of SudokuPad links.
const SUDOKUPAD: &str = "sudokupad.app/";

/// The JSON text of a compressed f-puzzles document: the `load=` part of an f-puzzles link, the
/// `fpuzzles…` part of a SudokuPad link (`sudokupad.app/fpuzzlesN4Ig…` or
/// `sudokupad.app/?puzzleid=fpuzzlesN4Ig…`, with or without the scheme), or the bare LZ-string
/// base64, URL-encoded or not. A SudokuPad puzzle in SudokuPad's own format (`scl…`, `ctc…`) or
/// by short id is an error that says why the lab cannot read it.
pub fn decompress(compressed: &str) -> Result<String, FpuzzlesError> {
    let s = compressed.trim();
    let s = match s.rsplit_once("load=") {
        _ if s.contains(SUDOKUPAD) => sudokupad_payload(s)?,
        Some((_, tail)) => tail,
        None => s,
    };
    let s = s.split(['&', '#']).next().unwrap_or(s);
    let s = s
        .replace("%2B", "+")
        .replace("%2F", "/")
        .replace("%3D", "=");
    let bad = || FpuzzlesError::whole("not a compressed f-puzzles document (LZ-string base64)");
    let wide = lz_str::decompress_from_base64(&s).ok_or_else(bad)?;
    let text = String::from_utf16(&wide).map_err(|_| bad())?;
    if !text.trim_start().starts_with('{') {
        return Err(bad());
    }
    Ok(text)
}

/// The f-puzzles payload of a SudokuPad link (the text after `fpuzzles`).
fn sudokupad_payload(s: &str) -> Result<&str, FpuzzlesError> {
    let path = s.split_once(SUDOKUPAD).map_or(s, |(_, path)| path);
    let id = match path.split_once("puzzleid=") {
        Some((_, id)) => id,
        None => path.trim_start_matches("puzzle/").trim_start_matches('?'),
    };
    let refuse = |message: String| Err(FpuzzlesError::whole(message));
    if let Some(payload) = id.strip_prefix("fpuzzles") {
        return Ok(payload);
    }
    if id.starts_with("scl") || id.starts_with("ctc") {
        return refuse(format!(
            "a SudokuPad puzzle in SudokuPad's own format (\"{}…\"): its rules are prose and its \
             lines drawings, so the lab cannot read them; an f-puzzles export (a link with \
             \"fpuzzles\" or \"load=\") can be read",
            &id[..3]
        ));
    }
    refuse(
        "a SudokuPad link by short id: the puzzle is stored on SudokuPad's server, which the lab \
         does not fetch; an f-puzzles export (a link with \"fpuzzles\" or \"load=\") can be read"
            .into(),
    )
}

/// The compressed form of an f-puzzles JSON text, as its links carry it.
pub fn compress(json: &str) -> String {
    lz_str::compress_to_base64(json)
}

/// A puzzle from an f-puzzles document, with notes on what was ignored and on rules whose
/// parameter no digits meet.
pub fn from_json(doc: &J) -> Result<(Puzzle, Vec<String>), FpuzzlesError> {
    let doc = doc
        .as_object()
        .ok_or_else(|| FpuzzlesError::whole("an f-puzzles document is a JSON object"))?;
    let r = Reader {
        n: grid::side(doc)?,
        doc,
    };
    let mut notes = vec![];
    known_keys(doc, &mut notes)?;
    let mut rules = vec![];
    let (shape, givens) = grid::read(&r, &mut rules, &mut notes)?;
    for family in [
        global::read,
        cells::read,
        lines::read,
        dots::read,
        outside::read,
    ] {
        family(&r, &mut rules, &mut notes)?;
    }
    let puzzle = Puzzle::new(std::sync::Arc::new(shape), givens)
        .and_then(|p| p.with_constraints(rules))
        .map_err(|e| FpuzzlesError::whole(e.to_string()))?;
    notes.extend(
        (puzzle.rule_warnings().into_iter())
            .map(|w| format!("{} rule {}: {}", w.kind, w.index, w.message)),
    );
    Ok((puzzle, notes))
}

/// Keys: rules we read, drawing we ignore (with a note), anything else that carries content is
/// an error.
fn known_keys(doc: &Map<String, J>, notes: &mut Vec<String>) -> Result<(), FpuzzlesError> {
    for (key, v) in doc {
        if META.contains(&key.as_str()) || READ.contains(&key.as_str()) || carries_nothing(v) {
            continue;
        }
        if DRAWING.contains(&key.as_str()) {
            notes.push(format!("ignored \"{key}\": drawing only, not a rule"));
            continue;
        }
        return Err(err(
            key,
            "a rule the lab does not know; refusing rather than dropping it",
        ));
    }
    Ok(())
}

/// Whether a value carries nothing (`null`, `false`, an empty array or string): under an
/// unknown key, no rule is dropped.
fn carries_nothing(v: &J) -> bool {
    matches!(v, J::Null | J::Bool(false))
        || v.as_array().is_some_and(|a| a.is_empty())
        || v.as_str().is_some_and(|s| s.is_empty())
}

/// The `solution` of an f-puzzles document of side `n`, when it has one: `n²` digits row by row,
/// as f-puzzles writes it (a flat array of numbers); also accepted are `n` rows of `n`, digits as
/// strings, and one string of digits (comma-separated or not). An all-empty solution (none, `[]`,
/// all `0`, `.` or `null`: f-puzzles' placeholders) is no solution; a partial one is ignored with
/// a note. The caller checks that it solves the puzzle.
pub fn solution(doc: &J, n: usize, notes: &mut Vec<String>) -> Result<Option<Grid>, FpuzzlesError> {
    let bad = |what: String| err("solution", what);
    let split: Vec<J>;
    // Each digit with where it is in the value (empty inside a string).
    let values: Vec<(&J, Vec<usize>)> = match doc.get("solution") {
        None | Some(J::Null) => return Ok(None),
        Some(J::String(s)) => {
            split = match s.contains(',') {
                true => s.split(',').map(|d| J::from(d.trim())).collect(),
                false => s.chars().map(|d| J::from(d.to_string())).collect(),
            };
            split.iter().map(|d| (d, vec![])).collect()
        }
        Some(J::Array(rows)) if !rows.is_empty() && rows.iter().all(J::is_array) => (rows.iter())
            .enumerate()
            .flat_map(|(r, row)| {
                let row = row.as_array().into_iter().flatten().enumerate();
                row.map(move |(c, d)| (d, vec![r, c]))
            })
            .collect(),
        Some(J::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, d)| (d, vec![i]))
            .collect(),
        Some(other) => return Err(bad(format!("expected an array of digits, found {other}"))),
    };
    let mut cells = Vec::with_capacity(values.len());
    for (i, (v, path)) in values.iter().enumerate() {
        let d = match v {
            J::Null => 0,
            J::String(s) if s.trim() == "." => 0,
            _ => bounded("solution", Some(*v), usize::MAX)
                .map_err(|e| e.at(path))?
                .unwrap_or(0),
        };
        if d > n {
            return Err(bad(format!("cell {} holds {d}, out of 1..={n}", i + 1)).at(path));
        }
        cells.push(d as u16);
    }
    let empty = cells.iter().filter(|&&d| d == 0).count();
    if empty == cells.len() {
        return Ok(None);
    }
    if cells.len() != n * n {
        return Err(bad(format!(
            "{} cells, a {n}×{n} grid has {}",
            cells.len(),
            n * n
        )));
    }
    if empty > 0 {
        notes.push(format!(
            "ignored a partial \"solution\" ({empty} of {} cells empty): not a known answer",
            n * n
        ));
        return Ok(None);
    }
    Ok(Some(Grid::new(n, cells)))
}

/// The keys [`from_json`] reads as rules.
const READ: [&str; 39] = [
    "diagonal+",
    "diagonal-",
    "antiknight",
    "antiking",
    "disjointgroups",
    "nonconsecutive",
    "negative",
    "killercage",
    "littlekillersum",
    "arrow",
    "thermometer",
    "difference",
    "ratio",
    "xv",
    "odd",
    "even",
    "sandwichsum",
    "palindrome",
    "extraregion",
    "whispers",
    "renban",
    "minimum",
    "maximum",
    "rowindexer",
    "columnindexer",
    "boxindexer",
    "quadruple",
    "clone",
    "slowthermometer",
    "betweenline",
    "lockout",
    "regionsumline",
    "entropicline",
    "modularline",
    "zipperline",
    "nabner",
    "doublearrow",
    "skyscraper",
    "xsum",
];

/// The f-puzzles JSON of `puzzle` (with `solution` when given), or why f-puzzles cannot hold it.
pub fn to_json(puzzle: &Puzzle, solution: Option<&Grid>) -> Result<J, FpuzzlesError> {
    let n = puzzle.size();
    let mut doc = grid::write(puzzle)?;
    let mut negatives = BTreeSet::new();
    for c in puzzle.constraints() {
        if let Constraint::Negative(rule) = c {
            negatives.insert(*rule);
        } else if let Constraint::Candidates { .. } = c {
            // Written with the grid, as given pencil marks.
        } else if let Some(key) = global::flag(c) {
            doc.insert(key.into(), json!(true));
        } else {
            let entry = cells::write(c, n)
                .or_else(|| lines::write(c, n))
                .or_else(|| outside::write(c, n))
                .map(Ok)
                .or_else(|| dots::write(c, n))
                .unwrap_or_else(|| Err(cannot(format!("this {} rule", c.kind()))))?;
            json::push(&mut doc, entry.0, entry.1);
        }
    }
    global::write_negatives(&mut doc, &negatives)?;
    if let Some(g) = solution {
        doc.insert("solution".into(), json!(g.cells()));
    }
    Ok(J::Object(doc))
}
