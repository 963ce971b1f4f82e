//! Clues outside the grid: `littlekillersum` (its `cell` is the clue, its `direction` one of
//! `UL UR DL DR`), and `sandwichsum`, `skyscraper` and `xsum`, whose `cell` sits in row 0 or
//! `n+1` for a column, column 0 or `n+1` for a row: a skyscraper or X-sum clue reads its line
//! from that end (row 0 from the top, column `n+1` from the right). A clue without a value is
//! ignored, with a note.

use serde_json::{json, Map, Value as J};

use super::json::{cell_name, names, param, Reader};
use super::{err, FpuzzlesError};
use crate::model::{Constraint, EdgeClue, Line, LittleKiller, Sandwich};

type MakeEdge = fn(EdgeClue) -> Constraint;

/// The keys of clues that read a row or column from one end, with how a note names them.
const EDGE: [(&str, &str, MakeEdge); 2] = [
    ("skyscraper", "a skyscraper clue", Constraint::Skyscraper),
    ("xsum", "an X-sum clue", Constraint::XSum),
];

pub(super) fn read(
    r: &Reader,
    rules: &mut Vec<Constraint>,
    notes: &mut Vec<String>,
) -> Result<(), FpuzzlesError> {
    for e in r.entries("littlekillersum")? {
        let Some(sum) = param("littlekillersum", e.get("value"), false, notes)? else {
            notes.push("ignored a little killer without a value".into());
            continue;
        };
        let cells = diagonal(e, r.n)?;
        rules.push(Constraint::LittleKiller(LittleKiller { cells, sum }));
    }
    for e in r.entries("sandwichsum")? {
        let Some(sum) = param("sandwichsum", e.get("value"), false, notes)? else {
            notes.push("ignored a sandwich clue without a value".into());
            continue;
        };
        let (line, _) = edge("sandwichsum", e, r.n)?;
        rules.push(Constraint::Sandwich(Sandwich { line, sum }));
    }
    for (key, what, make) in EDGE {
        for e in r.entries(key)? {
            let Some(value) = param(key, e.get("value"), false, notes)? else {
                notes.push(format!("ignored {what} without a value"));
                continue;
            };
            let (line, from_end) = edge(key, e, r.n)?;
            rules.push(make(EdgeClue {
                line,
                from_end,
                value,
            }));
        }
    }
    Ok(())
}

/// The cells a little killer clue points along, from the clue inwards.
fn diagonal(e: &Map<String, J>, n: usize) -> Result<Vec<u32>, FpuzzlesError> {
    let key = "littlekillersum";
    let (mut row, mut col) = cell_name(key, e.get("cell").unwrap_or(&J::Null))?;
    let (dr, dc) = match e.get("direction").and_then(J::as_str) {
        Some("UL") => (-1, -1),
        Some("UR") => (-1, 1),
        Some("DL") => (1, -1),
        Some("DR") => (1, 1),
        Some(other) => {
            return Err(err(
                key,
                format!("direction \"{other}\": expected UL, UR, DL or DR"),
            ))
        }
        None => return Err(err(key, "no direction: expected UL, UR, DL or DR")),
    };
    let n = n as i64;
    let inside = |r: i64, c: i64| (0..n).contains(&r) && (0..n).contains(&c);
    if !inside(row, col) {
        (row, col) = (row + dr, col + dc);
    }
    let mut cells = vec![];
    while inside(row, col) {
        cells.push((row * n + col) as u32);
        (row, col) = (row + dr, col + dc);
    }
    Ok(cells)
}

/// The row or column a clue sits just outside of, and whether it is at the far end (below a
/// column, right of a row).
fn edge(key: &str, e: &Map<String, J>, n: usize) -> Result<(Line, bool), FpuzzlesError> {
    let (row, col) = cell_name(key, e.get("cell").unwrap_or(&J::Null))?;
    let n = n as i64;
    let edge = |x: i64| x == -1 || x == n;
    let inside = |x: i64| (0..n).contains(&x);
    if edge(row) && inside(col) {
        Ok((Line::Col(col as u32), row == n))
    } else if edge(col) && inside(row) {
        Ok((Line::Row(row as u32), col == n))
    } else {
        Err(err(
            key,
            format!(
                "clue cell {}: a clue of this kind sits just outside a row or column",
                e.get("cell").unwrap_or(&J::Null)
            ),
        ))
    }
}

/// The name of the cell just outside `line`, at its far end when `from_end`.
fn outside(line: Line, from_end: bool, n: usize) -> String {
    let end = if from_end { n + 1 } else { 0 };
    match line {
        Line::Row(r) => format!("R{}C{end}", r + 1),
        Line::Col(c) => format!("R{end}C{}", c + 1),
    }
}

/// The key and entry of a clue outside the grid, if `c` is one.
pub(super) fn write(c: &Constraint, n: usize) -> Option<(&'static str, J)> {
    Some(match c {
        Constraint::LittleKiller(l) => {
            let ((r, c), step) = l.clue(n);
            let dir = match step {
                (-1, -1) => "UL",
                (-1, 1) => "UR",
                (1, -1) => "DL",
                _ => "DR",
            };
            let clue = format!("R{}C{}", r + 1, c + 1);
            (
                "littlekillersum",
                json!({"cell": clue, "cells": names(&l.cells, n), "direction": dir, "value": l.sum.to_string()}),
            )
        }
        Constraint::Sandwich(s) => (
            "sandwichsum",
            json!({"cell": outside(s.line, false, n), "value": s.sum.to_string()}),
        ),
        Constraint::Skyscraper(clue) | Constraint::XSum(clue) => {
            let key = EDGE.iter().find(|(_, _, make)| make(*clue) == *c)?.0;
            let cell = outside(clue.line, clue.from_end, n);
            (key, json!({"cell": cell, "value": clue.value.to_string()}))
        }
        _ => return None,
    })
}
