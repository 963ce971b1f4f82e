//! f-puzzles: the JSON that f-puzzles (and SudokuPad's importer) writes, raw or in the
//! compressed form its links carry (LZ-string, base64: `https://www.f-puzzles.com/?load=N4Ig…`).
//!
//! Read: `size`, `grid` (each cell's `value` when `given`, and `region` for jigsaws),
//! `diagonal+`/`diagonal-`, `antiknight`, `antiking`, `disjointgroups`, `nonconsecutive`,
//! `negative` (`"ratio"`, `"xv"`), `killercage`, `littlekillersum`, `arrow`, `thermometer`,
//! `difference`, `ratio`, `xv`, `odd`, `even`, `sandwichsum`, `palindrome`, `extraregion`, and the
//! keyed line forms of public f-puzzles readers, `whispers` (with an optional `value`, the gap)
//! and `renban`. f-puzzles itself draws whispers and renban as coloured `line`s; a plain `line` is
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
//! Write ([`to_json`]): every puzzle the lab holds whose rules f-puzzles can express, so that it
//! opens in f-puzzles; [`compress`] gives the link's form.

use std::collections::BTreeSet;

use serde_json::{json, Map, Value as J};

use crate::model::{
    Arrow, Cage, Constraint, Dot, DotRule, Grid, Line, LittleKiller, Puzzle, Regions, Sandwich,
    Shape,
};

/// What is wrong with an f-puzzles document: the key it is under, and what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", key.as_ref().map(|k| format!("\"{k}\": ")).unwrap_or_default())]
pub struct FpuzzlesError {
    pub key: Option<String>,
    pub message: String,
}

fn err(key: &str, message: impl Into<String>) -> FpuzzlesError {
    FpuzzlesError {
        key: Some(key.to_string()),
        message: message.into(),
    }
}

/// Keys that only draw (their content is ignored, and the reader says so).
const DRAWING: [&str; 5] = ["text", "line", "circle", "rectangle", "cage"];
/// Keys that hold no rule.
const META: [&str; 8] = [
    "size",
    "grid",
    "title",
    "author",
    "ruleset",
    "solution",
    "disabledlogic",
    "truecandidatesoptions",
];

/// Whether `text` looks like an f-puzzles document: a JSON object with `size` and `grid`, or a
/// compressed one (an f-puzzles link, or LZ-string base64 of such an object).
pub fn looks_like(text: &str) -> bool {
    let t = text.trim_start_matches('\u{feff}').trim();
    if t.starts_with('{') {
        return t.contains("\"grid\"");
    }
    let first = t.lines().next().unwrap_or("").trim();
    first.contains("load=") || first.starts_with("N4Ig")
}

/// The JSON text of a compressed f-puzzles document (the `load=` part of a link, or the bare
/// LZ-string base64, URL-encoded or not).
pub fn decompress(compressed: &str) -> Result<String, FpuzzlesError> {
    let s = compressed.trim();
    let s = s.rsplit_once("load=").map_or(s, |(_, tail)| tail);
    let s = s.split(['&', '#']).next().unwrap_or(s);
    let s = s
        .replace("%2B", "+")
        .replace("%2F", "/")
        .replace("%3D", "=");
    let bad = || FpuzzlesError {
        key: None,
        message: "not a compressed f-puzzles document (LZ-string base64)".into(),
    };
    let wide = lz_str::decompress_from_base64(&s).ok_or_else(bad)?;
    let text = String::from_utf16(&wide).map_err(|_| bad())?;
    if !text.trim_start().starts_with('{') {
        return Err(bad());
    }
    Ok(text)
}

/// The compressed form of an f-puzzles JSON text, as its links carry it.
pub fn compress(json: &str) -> String {
    lz_str::compress_to_base64(json)
}

/// A cell name `R{row}C{col}` (1-based) as its row and column, 0-based, each possibly just
/// outside the grid (`-1` or `n`).
fn cell_name(key: &str, v: &J) -> Result<(i64, i64), FpuzzlesError> {
    let s = v.as_str().ok_or_else(|| {
        err(
            key,
            format!("expected a cell name like \"R1C1\", found {v}"),
        )
    })?;
    let bad = || {
        err(
            key,
            format!("bad cell name \"{s}\" (expected R<row>C<column>)"),
        )
    };
    let rest = s.strip_prefix(['R', 'r']).ok_or_else(bad)?;
    let (r, c) = rest.split_once(['C', 'c']).ok_or_else(bad)?;
    let r: i64 = r.parse().map_err(|_| bad())?;
    let c: i64 = c.parse().map_err(|_| bad())?;
    Ok((r - 1, c - 1))
}

/// Reads f-puzzles entries; `n` is the side.
struct Reader<'a> {
    n: usize,
    doc: &'a Map<String, J>,
}

impl Reader<'_> {
    fn cell(&self, key: &str, v: &J) -> Result<u32, FpuzzlesError> {
        let (r, c) = cell_name(key, v)?;
        let n = self.n as i64;
        if !(0..n).contains(&r) || !(0..n).contains(&c) {
            return Err(err(key, format!("cell {v} is outside the {n}×{n} grid")));
        }
        Ok((r * n + c) as u32)
    }
    fn cells(&self, key: &str, v: Option<&J>) -> Result<Vec<u32>, FpuzzlesError> {
        match v {
            Some(J::Array(items)) => items.iter().map(|c| self.cell(key, c)).collect(),
            _ => Err(err(key, "expected \"cells\": an array of cell names")),
        }
    }
    /// The entries of an array key (empty when absent).
    fn entries(&self, key: &str) -> Result<Vec<&Map<String, J>>, FpuzzlesError> {
        match self.doc.get(key) {
            None | Some(J::Null) => Ok(vec![]),
            Some(J::Array(items)) => items
                .iter()
                .map(|e| {
                    e.as_object()
                        .ok_or_else(|| err(key, format!("expected an object, found {e}")))
                })
                .collect(),
            Some(other) => Err(err(key, format!("expected an array, found {other}"))),
        }
    }
    /// Every line of a `lines` entry.
    fn lines(&self, key: &str, e: &Map<String, J>) -> Result<Vec<Vec<u32>>, FpuzzlesError> {
        match e.get("lines") {
            Some(J::Array(lines)) => lines.iter().map(|l| self.cells(key, Some(l))).collect(),
            _ => Err(err(
                key,
                "expected \"lines\": an array of lines of cell names",
            )),
        }
    }
    fn flag(&self, key: &str) -> Result<bool, FpuzzlesError> {
        match self.doc.get(key) {
            None | Some(J::Null) => Ok(false),
            Some(J::Bool(b)) => Ok(*b),
            Some(other) => Err(err(key, format!("expected true or false, found {other}"))),
        }
    }
}

/// A number written as a JSON string or number; `None` when empty.
fn number(key: &str, v: Option<&J>) -> Result<Option<u32>, FpuzzlesError> {
    match v {
        None | Some(J::Null) => Ok(None),
        Some(J::Number(x)) => x
            .as_u64()
            .map(|x| Some(x as u32))
            .ok_or_else(|| err(key, format!("bad value {x}"))),
        Some(J::String(s)) if s.trim().is_empty() => Ok(None),
        Some(J::String(s)) => s
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| err(key, format!("bad value \"{s}\" (expected a number)"))),
        Some(other) => Err(err(key, format!("bad value {other}"))),
    }
}

/// A puzzle from an f-puzzles document, with notes on what was ignored.
pub fn from_json(doc: &J) -> Result<(Puzzle, Vec<String>), FpuzzlesError> {
    let doc = doc.as_object().ok_or_else(|| FpuzzlesError {
        key: None,
        message: "an f-puzzles document is a JSON object".into(),
    })?;
    let n = match doc.get("size") {
        None => 9,
        Some(v) => number("size", Some(v))?.ok_or_else(|| err("size", "missing"))? as usize,
    };
    if !(1..=crate::model::MAX_SIZE).contains(&n) {
        return Err(err("size", format!("side {n} is not supported")));
    }
    let r = Reader { n, doc };
    let mut notes = vec![];
    // Keys: rules we read, drawing we ignore, anything else that carries content is an error.
    for (key, v) in doc {
        let empty = matches!(v, J::Null | J::Bool(false))
            || v.as_array().is_some_and(|a| a.is_empty())
            || v.as_str().is_some_and(|s| s.is_empty());
        if META.contains(&key.as_str()) || READ.contains(&key.as_str()) || empty {
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
    // Grid: givens and regions.
    let rows = doc
        .get("grid")
        .and_then(J::as_array)
        .ok_or_else(|| err("grid", "expected an array of rows"))?;
    if rows.len() != n {
        return Err(err("grid", format!("{} rows, the size is {n}", rows.len())));
    }
    let default_region = Shape::default_boxes(n)
        .map(|(br, bc)| move |cell: usize| ((cell / n / br) * (n / bc) + (cell % n) / bc) as u32);
    let mut givens = vec![0u16; n * n];
    let mut region = vec![None; n * n];
    let mut typed = 0;
    for (i, row) in rows.iter().enumerate() {
        let row = row.as_array().filter(|c| c.len() == n).ok_or_else(|| {
            err(
                "grid",
                format!("row {} is not an array of {n} cells", i + 1),
            )
        })?;
        for (j, cell) in row.iter().enumerate() {
            let c = i * n + j;
            let Some(cell) = cell.as_object() else {
                return Err(err(
                    "grid",
                    format!("row {}, column {}: not an object", i + 1, j + 1),
                ));
            };
            let value = number("grid", cell.get("value"))?.unwrap_or(0);
            if value as usize > n {
                return Err(err(
                    "grid",
                    format!(
                        "row {}, column {}: value {value} is out of 1..={n}",
                        i + 1,
                        j + 1
                    ),
                ));
            }
            if cell.get("given").and_then(J::as_bool) == Some(true) {
                givens[c] = value as u16;
            } else if value != 0 {
                typed += 1;
            }
            if cell
                .get("givenPencilMarks")
                .and_then(J::as_array)
                .is_some_and(|m| !m.is_empty())
            {
                return Err(err(
                    "grid",
                    format!(
                        "row {}, column {}: given pencil marks restrict the cell, a rule the lab does not know",
                        i + 1,
                        j + 1
                    ),
                ));
            }
            region[c] = number("grid", cell.get("region"))?;
        }
    }
    if typed > 0 {
        notes.push(format!(
            "ignored {typed} digits entered without \"given\": they are not givens"
        ));
    }
    let regions = if region.iter().all(Option::is_none) {
        None
    } else {
        let fallback = default_region.as_ref();
        let map: Option<Vec<u32>> = (0..n * n)
            .map(|c| region[c].or_else(|| fallback.map(|f| f(c))))
            .collect();
        Some(map.ok_or_else(|| err("grid", "some cells have a region and others none"))?)
    };
    let (plus, minus) = (r.flag("diagonal+")?, r.flag("diagonal-")?);
    let shape = match regions {
        Some(map)
            if default_region
                .as_ref()
                .is_none_or(|f| (0..n * n).any(|c| f(c) != map[c])) =>
        {
            Shape::new(n, Regions::Jigsaw(map), plus && minus)
        }
        _ if default_region.is_some() => Shape::standard(n, plus && minus),
        _ => {
            return Err(err(
                "grid",
                format!("side {n} has no box shape: every cell needs a region"),
            ))
        }
    }
    .map_err(|e| err("grid", e.to_string()))?;
    let mut rules = vec![];
    if plus != minus {
        let cells = (0..n as u32)
            .map(|i| {
                if minus {
                    i * n as u32 + i
                } else {
                    i * n as u32 + (n as u32 - 1 - i)
                }
            })
            .collect();
        rules.push(Constraint::ExtraRegion(cells));
    }
    for (key, rule) in [
        ("antiknight", Constraint::AntiKnight),
        ("antiking", Constraint::AntiKing),
        ("disjointgroups", Constraint::DisjointGroups),
        (
            "nonconsecutive",
            Constraint::Negative(DotRule::Difference(1)),
        ),
    ] {
        if r.flag(key)? {
            rules.push(rule);
        }
    }
    match doc.get("negative") {
        None | Some(J::Null) => {}
        Some(J::Array(items)) => {
            for item in items {
                match item.as_str() {
                    Some("ratio") => rules.push(Constraint::Negative(DotRule::Ratio(2))),
                    Some("xv") => {
                        rules.push(Constraint::Negative(DotRule::Sum(5)));
                        rules.push(Constraint::Negative(DotRule::Sum(10)));
                    }
                    _ => {
                        return Err(err(
                            "negative",
                            format!(
                                "unknown negative rule {item} (the lab reads \"ratio\" and \"xv\")"
                            ),
                        ))
                    }
                }
            }
        }
        Some(other) => return Err(err("negative", format!("expected an array, found {other}"))),
    }
    for e in r.entries("killercage")? {
        let cells = r.cells("killercage", e.get("cells"))?;
        match number("killercage", e.get("value"))? {
            Some(sum) => rules.push(Constraint::Cage(Cage::new(cells, sum))),
            None => rules.push(Constraint::ExtraRegion(cells)),
        }
    }
    for e in r.entries("extraregion")? {
        rules.push(Constraint::ExtraRegion(
            r.cells("extraregion", e.get("cells"))?,
        ));
    }
    for (key, odd) in [("odd", true), ("even", false)] {
        for e in r.entries(key)? {
            let cell = r.cell(key, e.get("cell").unwrap_or(&J::Null))?;
            rules.push(if odd {
                Constraint::Odd(cell)
            } else {
                Constraint::Even(cell)
            });
        }
    }
    for e in r.entries("thermometer")? {
        for line in r.lines("thermometer", e)? {
            rules.push(Constraint::Thermo(line));
        }
    }
    for e in r.entries("palindrome")? {
        for line in r.lines("palindrome", e)? {
            rules.push(Constraint::Palindrome(line));
        }
    }
    for e in r.entries("renban")? {
        for line in r.lines("renban", e)? {
            rules.push(Constraint::Renban(line));
        }
    }
    for e in r.entries("whispers")? {
        let gap = number("whispers", e.get("value"))?.unwrap_or(crate::model::whisper_gap(n));
        for line in r.lines("whispers", e)? {
            rules.push(Constraint::Whisper { cells: line, gap });
        }
    }
    for e in r.entries("arrow")? {
        let circle = r.cells("arrow", e.get("cells"))?;
        for line in r.lines("arrow", e)? {
            let line: Vec<u32> = line.into_iter().filter(|c| !circle.contains(c)).collect();
            rules.push(Constraint::Arrow(Arrow {
                circle: circle.clone(),
                line,
            }));
        }
    }
    for (key, make) in [
        ("difference", DotRule::Difference as fn(u32) -> DotRule),
        ("ratio", DotRule::Ratio),
    ] {
        let default = if key == "difference" { 1 } else { 2 };
        for e in r.entries(key)? {
            let cells = r.cells(key, e.get("cells"))?;
            let k = number(key, e.get("value"))?.unwrap_or(default);
            rules.push(dot(key, &cells, make(k))?);
        }
    }
    for e in r.entries("xv")? {
        let cells = r.cells("xv", e.get("cells"))?;
        let sum = match e.get("value").and_then(J::as_str).map(str::trim) {
            Some("X" | "x") => 10,
            Some("V" | "v") => 5,
            other => {
                return Err(err(
                    "xv",
                    format!("value {other:?}: expected \"X\" or \"V\""),
                ))
            }
        };
        rules.push(dot("xv", &cells, DotRule::Sum(sum))?);
    }
    for e in r.entries("littlekillersum")? {
        let Some(sum) = number("littlekillersum", e.get("value"))? else {
            notes.push("ignored a little killer without a value".into());
            continue;
        };
        let (mut row, mut col) = cell_name("littlekillersum", e.get("cell").unwrap_or(&J::Null))?;
        let (dr, dc) = match e.get("direction").and_then(J::as_str) {
            Some("UL") => (-1, -1),
            Some("UR") => (-1, 1),
            Some("DL") => (1, -1),
            Some("DR") => (1, 1),
            other => {
                return Err(err(
                    "littlekillersum",
                    format!("direction {other:?}: expected UL, UR, DL or DR"),
                ))
            }
        };
        let inside = |r: i64, c: i64| (0..n as i64).contains(&r) && (0..n as i64).contains(&c);
        if !inside(row, col) {
            (row, col) = (row + dr, col + dc);
        }
        let mut cells = vec![];
        while inside(row, col) {
            cells.push((row * n as i64 + col) as u32);
            (row, col) = (row + dr, col + dc);
        }
        rules.push(Constraint::LittleKiller(LittleKiller { cells, sum }));
    }
    for e in r.entries("sandwichsum")? {
        let Some(sum) = number("sandwichsum", e.get("value"))? else {
            notes.push("ignored a sandwich clue without a value".into());
            continue;
        };
        let (row, col) = cell_name("sandwichsum", e.get("cell").unwrap_or(&J::Null))?;
        let (edge, inside) = (
            |x: i64| x == -1 || x == n as i64,
            |x: i64| (0..n as i64).contains(&x),
        );
        let line = if edge(row) && inside(col) {
            Line::Col(col as u32)
        } else if edge(col) && inside(row) {
            Line::Row(row as u32)
        } else {
            return Err(err(
                "sandwichsum",
                "a sandwich clue sits just outside a row or column",
            ));
        };
        rules.push(Constraint::Sandwich(Sandwich { line, sum }));
    }
    let puzzle = Puzzle::new(std::sync::Arc::new(shape), givens)
        .and_then(|p| p.with_constraints(rules))
        .map_err(|e| FpuzzlesError {
            key: None,
            message: e.to_string(),
        })?;
    Ok((puzzle, notes))
}

/// The `solution` of an f-puzzles document of side `n`, when it has one: `n²` digits row by row,
/// as f-puzzles writes it (a flat array of numbers); also accepted are `n` rows of `n`, digits as
/// strings, and one string of digits (comma-separated or not). An all-empty solution (none, `[]`,
/// all `0`, `.` or `null`: f-puzzles' placeholders) is no solution; a partial one is ignored with
/// a note. The caller checks that it solves the puzzle.
pub fn solution(doc: &J, n: usize, notes: &mut Vec<String>) -> Result<Option<Grid>, FpuzzlesError> {
    let bad = |what: String| err("solution", what);
    let split: Vec<J>;
    let values: Vec<&J> = match doc.get("solution") {
        None | Some(J::Null) => return Ok(None),
        Some(J::String(s)) => {
            split = match s.contains(',') {
                true => s.split(',').map(|d| J::from(d.trim())).collect(),
                false => s.chars().map(|d| J::from(d.to_string())).collect(),
            };
            split.iter().collect()
        }
        Some(J::Array(rows)) if !rows.is_empty() && rows.iter().all(J::is_array) => rows
            .iter()
            .flat_map(|r| r.as_array().into_iter().flatten())
            .collect(),
        Some(J::Array(items)) => items.iter().collect(),
        Some(other) => return Err(bad(format!("expected an array of digits, found {other}"))),
    };
    let mut cells = Vec::with_capacity(values.len());
    for (i, v) in values.iter().enumerate() {
        let d = match v {
            J::Null => 0,
            J::String(s) if s.trim() == "." => 0,
            _ => number("solution", Some(*v))?.unwrap_or(0),
        };
        if d as usize > n {
            return Err(bad(format!("cell {} holds {d}, out of 1..={n}", i + 1)));
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
const READ: [&str; 21] = [
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
];

fn dot(key: &str, cells: &[u32], rule: DotRule) -> Result<Constraint, FpuzzlesError> {
    match cells {
        [a, b] => Ok(Constraint::Dot(Dot { a: *a, b: *b, rule })),
        _ => Err(err(
            key,
            format!("a dot joins 2 cells, not {}", cells.len()),
        )),
    }
}

/// The f-puzzles JSON of `puzzle` (with `solution` when given), or why f-puzzles cannot hold it.
pub fn to_json(puzzle: &Puzzle, solution: Option<&Grid>) -> Result<J, FpuzzlesError> {
    let shape = puzzle.shape();
    let n = shape.size();
    let name = |c: u32| format!("R{}C{}", c as usize / n + 1, c as usize % n + 1);
    let names = |cells: &[u32]| cells.iter().map(|&c| name(c)).collect::<Vec<_>>();
    let jigsaw = matches!(shape.regions(), Regions::Jigsaw(_));
    let grid: Vec<Vec<J>> = (0..n)
        .map(|r| {
            (0..n)
                .map(|c| {
                    let cell = r * n + c;
                    let mut o = Map::new();
                    let v = puzzle.givens()[cell];
                    if v != 0 {
                        o.insert("value".into(), json!(v));
                        o.insert("given".into(), json!(true));
                    }
                    if jigsaw {
                        o.insert("region".into(), json!(shape.region_of(cell)));
                    }
                    J::Object(o)
                })
                .collect()
        })
        .collect();
    let mut doc = Map::new();
    doc.insert("size".into(), json!(n));
    doc.insert("grid".into(), json!(grid));
    if shape.diagonals() {
        doc.insert("diagonal+".into(), json!(true));
        doc.insert("diagonal-".into(), json!(true));
    }
    let push = |doc: &mut Map<String, J>, key: &str, v: J| {
        let entry = doc.entry(key).or_insert_with(|| json!([]));
        entry.as_array_mut().expect("array keys only").push(v);
    };
    let mut negatives = BTreeSet::new();
    let cannot = |what: String| FpuzzlesError {
        key: None,
        message: format!("f-puzzles cannot express {what}"),
    };
    for c in puzzle.constraints() {
        match c {
            Constraint::Cage(cage) => push(
                &mut doc,
                "killercage",
                json!({"cells": names(cage.cells()), "value": cage.sum().to_string()}),
            ),
            Constraint::AntiKnight => _ = doc.insert("antiknight".into(), json!(true)),
            Constraint::AntiKing => _ = doc.insert("antiking".into(), json!(true)),
            Constraint::DisjointGroups => _ = doc.insert("disjointgroups".into(), json!(true)),
            Constraint::ExtraRegion(cells) => {
                push(&mut doc, "extraregion", json!({"cells": names(cells)}))
            }
            Constraint::Odd(cell) => push(&mut doc, "odd", json!({"cell": name(*cell)})),
            Constraint::Even(cell) => push(&mut doc, "even", json!({"cell": name(*cell)})),
            Constraint::Thermo(cells) => {
                push(&mut doc, "thermometer", json!({"lines": [names(cells)]}))
            }
            Constraint::Palindrome(cells) => {
                push(&mut doc, "palindrome", json!({"lines": [names(cells)]}))
            }
            Constraint::Renban(cells) => push(&mut doc, "renban", json!({"lines": [names(cells)]})),
            Constraint::Whisper { cells, gap } => {
                let mut e = json!({"lines": [names(cells)]});
                if *gap != crate::model::whisper_gap(n) {
                    e["value"] = json!(gap.to_string());
                }
                push(&mut doc, "whispers", e)
            }
            Constraint::Arrow(a) => {
                // The line starts in the circle cell nearest its first cell.
                let first = a.line[0] as usize;
                let dist = |c: &&u32| {
                    let c = **c as usize;
                    (c / n).abs_diff(first / n).max((c % n).abs_diff(first % n))
                };
                let start = *a
                    .circle
                    .iter()
                    .min_by_key(dist)
                    .expect("a circle has cells");
                let mut line = vec![start];
                line.extend(&a.line);
                push(
                    &mut doc,
                    "arrow",
                    json!({"cells": names(&a.circle), "lines": [names(&line)]}),
                )
            }
            Constraint::Dot(d) => {
                let cells = names(&[d.a, d.b]);
                let (key, value) = match d.rule {
                    DotRule::Difference(1) => ("difference", String::new()),
                    DotRule::Difference(k) => ("difference", k.to_string()),
                    DotRule::Ratio(2) => ("ratio", String::new()),
                    DotRule::Ratio(k) => ("ratio", k.to_string()),
                    DotRule::Sum(10) => ("xv", "X".into()),
                    DotRule::Sum(5) => ("xv", "V".into()),
                    DotRule::Sum(k) => return Err(cannot(format!("a dot of sum {k}"))),
                };
                push(&mut doc, key, json!({"cells": cells, "value": value}))
            }
            Constraint::Negative(rule) => _ = negatives.insert(*rule),
            Constraint::LittleKiller(l) => {
                let ((r, c), step) = l.clue(n);
                let dir = match step {
                    (-1, -1) => "UL",
                    (-1, 1) => "UR",
                    (1, -1) => "DL",
                    _ => "DR",
                };
                let clue = format!("R{}C{}", r + 1, c + 1);
                push(
                    &mut doc,
                    "littlekillersum",
                    json!({"cell": clue, "cells": names(&l.cells), "direction": dir, "value": l.sum.to_string()}),
                )
            }
            Constraint::Sandwich(s) => {
                let cell = match s.line {
                    Line::Row(r) => format!("R{}C0", r + 1),
                    Line::Col(c) => format!("R0C{}", c + 1),
                };
                push(
                    &mut doc,
                    "sandwichsum",
                    json!({"cell": cell, "value": s.sum.to_string()}),
                )
            }
        }
    }
    let mut negative = vec![];
    let xv = [DotRule::Sum(5), DotRule::Sum(10)];
    for rule in &negatives {
        match rule {
            DotRule::Difference(1) => _ = doc.insert("nonconsecutive".into(), json!(true)),
            DotRule::Ratio(2) => negative.push("ratio"),
            DotRule::Sum(5) | DotRule::Sum(10) if xv.iter().all(|r| negatives.contains(r)) => {
                if !negative.contains(&"xv") {
                    negative.push("xv")
                }
            }
            other => return Err(cannot(format!("the negative rule of {other} alone"))),
        }
    }
    if !negative.is_empty() {
        doc.insert("negative".into(), json!(negative));
    }
    if let Some(g) = solution {
        doc.insert("solution".into(), json!(g.cells()));
    }
    Ok(J::Object(doc))
}
