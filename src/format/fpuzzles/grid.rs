//! The grid of an f-puzzles document: its `size`, the givens and jigsaw regions of its `grid`,
//! and the main diagonals when both are set (one diagonal alone is an extra region, read with
//! the global rules).

use serde_json::{json, Map, Value as J};

use super::json::{bounded, Reader};
use super::{err, FpuzzlesError};
use crate::model::{Puzzle, Regions, Shape, Value, MAX_SIZE};

/// The side of the grid (9 when there is no `size`).
pub(super) fn side(doc: &Map<String, J>) -> Result<usize, FpuzzlesError> {
    let n = match doc.get("size") {
        None => 9,
        Some(v) => bounded("size", Some(v), usize::MAX)?.ok_or_else(|| err("size", "missing"))?,
    };
    if !(1..=MAX_SIZE).contains(&n) {
        return Err(err("size", format!("side {n} is not supported")));
    }
    Ok(n)
}

/// The shape and the givens; digits typed without `given` add a note.
pub(super) fn read(
    r: &Reader,
    notes: &mut Vec<String>,
) -> Result<(Shape, Vec<Value>), FpuzzlesError> {
    let n = r.n;
    let rows = r
        .doc
        .get("grid")
        .and_then(J::as_array)
        .ok_or_else(|| err("grid", "expected an array of rows"))?;
    if rows.len() != n {
        return Err(err("grid", format!("{} rows, the size is {n}", rows.len())));
    }
    let default_region = Shape::default_boxes(n)
        .map(|(br, bc)| move |cell: usize| ((cell / n / br) * (n / bc) + (cell % n) / bc) as u32);
    let mut givens = vec![0; n * n];
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
            let at = format!("row {}, column {}", i + 1, j + 1);
            let Some(cell) = cell.as_object() else {
                return Err(err("grid", format!("{at}: not an object")));
            };
            let value = bounded("grid", cell.get("value"), n)
                .map_err(|e| err("grid", format!("{at}: {}", e.message)))?
                .unwrap_or(0);
            if cell.get("given").and_then(J::as_bool) == Some(true) {
                givens[c] = value as Value;
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
                        "{at}: given pencil marks restrict the cell, a rule the lab does not know"
                    ),
                ));
            }
            region[c] = bounded("grid", cell.get("region"), u32::MAX as usize)
                .map_err(|e| err("grid", format!("{at}: region: {}", e.message)))?
                .map(|x| x as u32);
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
    let diagonals = r.flag("diagonal+")? && r.flag("diagonal-")?;
    let shape = match regions {
        Some(map)
            if default_region
                .as_ref()
                .is_none_or(|f| (0..n * n).any(|c| f(c) != map[c])) =>
        {
            Shape::new(n, Regions::Jigsaw(map), diagonals)
        }
        _ if default_region.is_some() => Shape::standard(n, diagonals),
        _ => {
            return Err(err(
                "grid",
                format!("side {n} has no box shape: every cell needs a region"),
            ))
        }
    }
    .map_err(|e| err("grid", e.to_string()))?;
    Ok((shape, givens))
}

/// The document's `size`, `grid` (givens, and regions unless they are f-puzzles' default boxes:
/// a jigsaw, or boxes of another shape such as 3×2 on side 6) and both diagonals.
pub(super) fn write(puzzle: &Puzzle) -> Map<String, J> {
    let shape = puzzle.shape();
    let n = shape.size();
    let jigsaw = match shape.regions() {
        Regions::Jigsaw(_) => true,
        Regions::Boxes { rows, cols } => Shape::default_boxes(n) != Some((*rows, *cols)),
    };
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
    doc
}
