//! The grid of an f-puzzles document: its `size`, the givens, given pencil marks and jigsaw
//! regions of its `grid`, and the main diagonals when both are set (one diagonal alone is an
//! extra region, read with the global rules).
//!
//! A cell without a `region` is in f-puzzles' default region for its side: the boxes of
//! [`Shape::default_boxes`], or on a side without a box shape (a prime such as 5 or 7) its row,
//! as f-puzzles and the solvers it calls lay such grids out. `givenPencilMarks` (digits 1 to
//! the side) on an empty cell limit it to those digits ([`Constraint::Candidates`]); on a cell
//! with a given they restrict nothing and are ignored. A solver's marks and colours
//! (`candidates`, `centerPencilMarks`, `cornerPencilMarks`, `c`, `highlight`) are ignored with
//! a note; any other key of a cell that carries something is an error naming it.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value as J};

use super::json::{boolean, bounded, cell_digits, Reader};
use super::{cannot, carries_nothing, err, FpuzzlesError};
use crate::model::{Constraint, Puzzle, Regions, Shape, Value, MAX_SIZE};

/// f-puzzles' default regions for side `n`, as rows × columns of a box: the standard boxes, or
/// rows (1 × `n`) on a side without a box shape.
fn boxes(n: usize) -> (usize, usize) {
    Shape::default_boxes(n).unwrap_or((1, n))
}

/// The keys of a cell that are read.
const CELL_KEYS: [&str; 4] = ["value", "given", "givenPencilMarks", "region"];
/// The keys of a cell that hold a solver's marks or colours, not the puzzle: ignored, with a note.
const CELL_NOTES: [&str; 5] = [
    "candidates",
    "centerPencilMarks",
    "cornerPencilMarks",
    "c",
    "highlight",
];

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

/// The shape and the givens; given pencil marks on empty cells go to `rules`; digits typed
/// without `given` add a note.
pub(super) fn read(
    r: &Reader,
    rules: &mut Vec<Constraint>,
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
    let (br, bc) = boxes(n);
    let default_region = |cell: usize| ((cell / n / br) * (n / bc) + (cell % n) / bc) as u32;
    let mut givens = vec![0; n * n];
    let mut region = vec![None; n * n];
    let mut typed = 0;
    let mut ignored: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, row) in rows.iter().enumerate() {
        let row = row.as_array().filter(|c| c.len() == n).ok_or_else(|| {
            err(
                "grid",
                format!("row {} is not an array of {n} cells", i + 1),
            )
            .at(&[i])
        })?;
        for (j, cell) in row.iter().enumerate() {
            let c = i * n + j;
            let at = format!("row {}, column {}", i + 1, j + 1);
            let here = |e: String| err("grid", format!("{at}: {e}")).at(&[i, j]);
            let Some(cell) = cell.as_object() else {
                return Err(here("not an object".into()));
            };
            for (key, v) in cell {
                if CELL_NOTES.contains(&key.as_str()) && !carries_nothing(v) {
                    *ignored.entry(key.as_str()).or_insert(0) += 1;
                } else if !CELL_KEYS.contains(&key.as_str()) && !carries_nothing(v) {
                    return Err(here(format!(
                        "unknown key \"{key}\" in a cell; refusing rather than dropping it"
                    )));
                }
            }
            let value = bounded("grid", cell.get("value"), n)
                .map_err(|e| here(e.message))?
                .unwrap_or(0);
            let given = boolean("grid", cell.get("given"))
                .map_err(|e| here(format!("given: {}", e.message)))?;
            if given {
                givens[c] = value as Value;
            } else if value != 0 {
                typed += 1;
            }
            let marks = cell_digits("grid", cell.get("givenPencilMarks"), n)
                .map_err(|e| here(format!("givenPencilMarks: {}", e.message)))?;
            if givens[c] == 0 && !marks.is_empty() {
                rules.push(Constraint::Candidates {
                    cell: c as u32,
                    digits: marks,
                });
            }
            region[c] = bounded("grid", cell.get("region"), u32::MAX as usize)
                .map_err(|e| here(format!("region: {}", e.message)))?
                .map(|x| x as u32);
        }
    }
    if typed > 0 {
        notes.push(format!(
            "ignored {typed} digits entered without \"given\": they are not givens"
        ));
    }
    for (key, cells) in ignored {
        notes.push(format!(
            "ignored \"{key}\" in {cells} cells: a solver's marks or colours, not the puzzle"
        ));
    }
    let map: Vec<u32> = (0..n * n)
        .map(|c| region[c].unwrap_or_else(|| default_region(c)))
        .collect();
    if region.iter().all(Option::is_none) && br == 1 && n > 1 {
        notes.push(format!(
            "side {n} has no box shape: its regions are f-puzzles' default, the rows"
        ));
    }
    let diagonals = r.flag("diagonal+")? && r.flag("diagonal-")?;
    let regions = if (0..n * n).any(|c| default_region(c) != map[c]) {
        Regions::Jigsaw(map)
    } else {
        Regions::Boxes { rows: br, cols: bc }
    };
    let shape = Shape::new(n, regions, diagonals).map_err(|e| err("grid", e.to_string()))?;
    Ok((shape, givens))
}

/// The document's `size`, `grid` (givens, the puzzle's candidates as given pencil marks, and
/// regions unless they are f-puzzles' default: a jigsaw, or boxes of another shape such as 3×2
/// on side 6) and both diagonals. Candidates of a cell that holds a given, which f-puzzles
/// ignores, are written only when the given is among them (they restrict nothing).
pub(super) fn write(puzzle: &Puzzle) -> Result<Map<String, J>, FpuzzlesError> {
    let shape = puzzle.shape();
    let n = shape.size();
    let jigsaw = match shape.regions() {
        Regions::Jigsaw(_) => true,
        Regions::Boxes { rows, cols } => boxes(n) != (*rows, *cols),
    };
    let mut marks: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
    for c in puzzle.constraints() {
        let Constraint::Candidates { cell, digits } = c else {
            continue;
        };
        let cell = *cell as usize;
        let given = puzzle.givens()[cell];
        if given != 0 && !digits.contains(&u32::from(given)) {
            return Err(cannot(format!(
                "candidates {digits:?} on a cell with the given {given}"
            )));
        }
        marks
            .entry(cell)
            .and_modify(|m| m.retain(|d| digits.contains(d)))
            .or_insert_with(|| digits.clone());
    }
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
                    if let Some(m) = marks.get(&cell) {
                        o.insert("givenPencilMarks".into(), json!(m));
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
    Ok(doc)
}
