//! Clues outside the grid: `littlekillersum` (its `cell` is the clue, its `direction` one of
//! `UL UR DL DR`) and `sandwichsum` (in row 0 or `n+1` for a column, column 0 or `n+1` for a
//! row). A clue without a value is ignored, with a note.

use serde_json::{json, Map, Value as J};

use super::json::{cell_name, names, param, Reader};
use super::{err, FpuzzlesError};
use crate::model::{Constraint, Line, LittleKiller, Sandwich};

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
        let line = sandwich_line(e, r.n)?;
        rules.push(Constraint::Sandwich(Sandwich { line, sum }));
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

/// The row or column a sandwich clue sits just outside of.
fn sandwich_line(e: &Map<String, J>, n: usize) -> Result<Line, FpuzzlesError> {
    let key = "sandwichsum";
    let (row, col) = cell_name(key, e.get("cell").unwrap_or(&J::Null))?;
    let n = n as i64;
    let edge = |x: i64| x == -1 || x == n;
    let inside = |x: i64| (0..n).contains(&x);
    if edge(row) && inside(col) {
        Ok(Line::Col(col as u32))
    } else if edge(col) && inside(row) {
        Ok(Line::Row(row as u32))
    } else {
        Err(err(
            key,
            "a sandwich clue sits just outside a row or column",
        ))
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
        Constraint::Sandwich(s) => {
            let cell = match s.line {
                Line::Row(r) => format!("R{}C0", r + 1),
                Line::Col(c) => format!("R0C{}", c + 1),
            };
            (
                "sandwichsum",
                json!({"cell": cell, "value": s.sum.to_string()}),
            )
        }
        _ => return None,
    })
}
