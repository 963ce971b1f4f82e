//! The building blocks of an f-puzzles document, both ways: cell names (`R1C1`), numbers written
//! as JSON numbers or strings, the entries of an array key, and the lines of a `lines` entry.

use serde_json::{Map, Value as J};

use super::{err, FpuzzlesError};
use crate::model::{exact_param, gap_param};

/// A cell name `R{row}C{col}` (1-based) as its row and column, 0-based, each possibly just
/// outside the grid (`-1` or `n`).
pub(super) fn cell_name(key: &str, v: &J) -> Result<(i64, i64), FpuzzlesError> {
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

/// The name `R{row}C{col}` of a cell of a grid of side `n`.
pub(super) fn name(c: u32, n: usize) -> String {
    format!("R{}C{}", c as usize / n + 1, c as usize % n + 1)
}

/// The names of cells of a grid of side `n`.
pub(super) fn names(cells: &[u32], n: usize) -> Vec<String> {
    cells.iter().map(|&c| name(c, n)).collect()
}

/// A whole number written as a JSON number or string; `None` when empty. A number past `i64`
/// is out of range, text is not a number: both are errors naming the value.
pub(super) fn number(key: &str, v: Option<&J>) -> Result<Option<i64>, FpuzzlesError> {
    let out_of_range = |v: &dyn std::fmt::Display| {
        err(
            key,
            format!("value {v} is out of range (a whole number from -2^63 to 2^63 - 1)"),
        )
    };
    match v {
        None | Some(J::Null) => Ok(None),
        Some(J::Number(x)) => match x.as_i64() {
            Some(x) => Ok(Some(x)),
            None if x.as_f64().is_some_and(|f| f.fract() == 0.0) => Err(out_of_range(x)),
            None => Err(err(key, format!("value {x} is not a whole number"))),
        },
        Some(J::String(s)) if s.trim().is_empty() => Ok(None),
        Some(J::String(s)) => {
            let t = s.trim();
            t.parse().map(Some).map_err(|e: std::num::ParseIntError| {
                use std::num::IntErrorKind::{NegOverflow, PosOverflow};
                match e.kind() {
                    PosOverflow | NegOverflow => out_of_range(&format!("\"{t}\"")),
                    _ => err(key, format!("value \"{t}\" is not a whole number")),
                }
            })
        }
        Some(other) => Err(err(key, format!("value {other} is not a whole number"))),
    }
}

/// A whole number from 0 to `max` (a size, a digit, a region number).
pub(super) fn bounded(
    key: &str,
    v: Option<&J>,
    max: usize,
) -> Result<Option<usize>, FpuzzlesError> {
    match number(key, v)? {
        None => Ok(None),
        Some(x) => usize::try_from(x)
            .ok()
            .filter(|&x| x <= max)
            .map(Some)
            .ok_or_else(|| err(key, format!("value {x} is out of range 0 to {max}"))),
    }
}

/// A rule's parameter: a sum, ratio or difference (`gap: false`), or a whisper's gap. Any whole
/// number is a parameter: one the model's `u32` cannot hold is held as a value digits meet
/// alike (see [`exact_param`], [`gap_param`]), with a note.
pub(super) fn param(
    key: &str,
    v: Option<&J>,
    gap: bool,
    notes: &mut Vec<String>,
) -> Result<Option<u32>, FpuzzlesError> {
    let Some(x) = number(key, v)? else {
        return Ok(None);
    };
    let held = if gap { gap_param(x) } else { exact_param(x) };
    if i64::from(held) != x {
        notes.push(format!(
            "\"{key}\": value {x} is held as {held}, which digits meet alike"
        ));
    }
    Ok(Some(held))
}

/// A list of digits (`values` of a quadruple): an array of whole numbers, each a rule parameter
/// (see [`param`]); empty entries are skipped.
pub(super) fn digits(
    key: &str,
    v: Option<&J>,
    notes: &mut Vec<String>,
) -> Result<Vec<u32>, FpuzzlesError> {
    list(key, v, |item| param(key, Some(item), false, notes))
}

/// A cell's digits on a grid of side `n` (its given pencil marks): an array of whole numbers
/// from 1 to `n`; empty entries are skipped.
pub(super) fn cell_digits(key: &str, v: Option<&J>, n: usize) -> Result<Vec<u32>, FpuzzlesError> {
    list(key, v, |item| match number(key, Some(item))? {
        Some(d) if !(1..=n as i64).contains(&d) => {
            Err(err(key, format!("value {d} is out of range 1 to {n}")))
        }
        d => Ok(d.map(|d| d as u32)),
    })
}

/// The items of an array of digits, each read by `item` (`None`: an empty entry, skipped).
fn list(
    key: &str,
    v: Option<&J>,
    mut item: impl FnMut(&J) -> Result<Option<u32>, FpuzzlesError>,
) -> Result<Vec<u32>, FpuzzlesError> {
    match v {
        None | Some(J::Null) => Ok(vec![]),
        Some(J::Array(items)) => {
            let mut out = vec![];
            for i in items {
                out.extend(item(i)?);
            }
            Ok(out)
        }
        Some(other) => Err(err(
            key,
            format!("expected an array of digits, found {other}"),
        )),
    }
}

/// A `true`/`false` value (false when absent or `null`).
pub(super) fn boolean(key: &str, v: Option<&J>) -> Result<bool, FpuzzlesError> {
    match v {
        None | Some(J::Null) => Ok(false),
        Some(J::Bool(b)) => Ok(*b),
        Some(other) => Err(err(key, format!("expected true or false, found {other}"))),
    }
}

/// Reads the rule entries of an f-puzzles document of side `n`.
pub(super) struct Reader<'a> {
    pub n: usize,
    pub doc: &'a Map<String, J>,
}

impl Reader<'_> {
    /// A cell inside the grid, by name.
    pub fn cell(&self, key: &str, v: &J) -> Result<u32, FpuzzlesError> {
        let (r, c) = cell_name(key, v)?;
        let n = self.n as i64;
        if !(0..n).contains(&r) || !(0..n).contains(&c) {
            return Err(err(key, format!("cell {v} is outside the {n}×{n} grid")));
        }
        Ok((r * n + c) as u32)
    }
    /// An array of cell names.
    pub fn cells(&self, key: &str, v: Option<&J>) -> Result<Vec<u32>, FpuzzlesError> {
        match v {
            Some(J::Array(items)) => items.iter().map(|c| self.cell(key, c)).collect(),
            _ => Err(err(key, "expected \"cells\": an array of cell names")),
        }
    }
    /// The entries of an array key (empty when absent).
    pub fn entries(&self, key: &str) -> Result<Vec<&Map<String, J>>, FpuzzlesError> {
        match self.doc.get(key) {
            None | Some(J::Null) => Ok(vec![]),
            Some(J::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    e.as_object()
                        .ok_or_else(|| err(key, format!("expected an object, found {e}")).at(&[i]))
                })
                .collect(),
            Some(other) => Err(err(key, format!("expected an array, found {other}"))),
        }
    }
    /// Every line of a `lines` entry. An entry with no line is read as one empty line, which
    /// the model refuses (a rule drawn without cells), rather than dropped.
    pub fn lines(&self, key: &str, e: &Map<String, J>) -> Result<Vec<Vec<u32>>, FpuzzlesError> {
        match e.get("lines") {
            Some(J::Array(lines)) if lines.is_empty() => Ok(vec![vec![]]),
            Some(J::Array(lines)) => lines.iter().map(|l| self.cells(key, Some(l))).collect(),
            _ => Err(err(
                key,
                "expected \"lines\": an array of lines of cell names",
            )),
        }
    }
    /// A `true`/`false` key (false when absent).
    pub fn flag(&self, key: &str) -> Result<bool, FpuzzlesError> {
        boolean(key, self.doc.get(key))
    }
}

/// Appends `entry` to the array under `key` of an f-puzzles document being written.
pub(super) fn push(doc: &mut Map<String, J>, key: &str, entry: J) {
    match doc.entry(key).or_insert_with(|| J::Array(vec![])) {
        J::Array(items) => items.push(entry),
        other => *other = J::Array(vec![entry]),
    }
}
