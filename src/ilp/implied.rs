//! The equality rows of an [`IlpModel`] that the other rows imply, left out of what the `ilp`
//! backend hands to its solver.
//!
//! The program of a puzzle is full of exact linear dependencies among its equality rows:
//! - for each digit, the row houses, the column houses and the regions each cover every variable
//!   of that digit once, so the three families' rows add up to the same sum (two dependencies);
//! - the cell rows and the row houses (over all digits) both cover every cell variable once;
//! - for each cage in the digit-set formulation, its digit rows add up to its cells' rows less
//!   `free × ` its set row (every digit set of a cage has one digit per free cell).
//!
//! A basis of the simplex must then keep a fixed slack (bounds `[0, 0]`) of each dependent group
//! basic. In floating point, after many degenerate pivots, microlp's ratio test may pick a pivot
//! that is zero in exact arithmetic but not in its drifted tableau, and the next refactorisation
//! of the basis fails with "Singular matrix". Leaving one row of each dependency out makes the
//! equality rows independent in these directions without changing the set of solutions.
//!
//! Every dependency is checked exactly (its rows, with their multipliers, cancel to `0 = 0`)
//! before a row is left out, so an unexpected model shape only keeps rows, never loses one. The
//! rows left out form a triangular system over the dependencies (the cell row first, then one
//! row per cage, then one per digit and family), so each is a combination of the rows kept.

use std::collections::HashMap;

use crate::ilp::model::{IlpModel, RowKind, Sense};

/// One flag per row of `model`: `true` when the rows kept imply it.
pub fn implied_rows(model: &IlpModel) -> Vec<bool> {
    let rows = model.rows();
    let n = model.size() as u32;
    let mut implied = vec![false; rows.len()];
    let is_eq = |i: usize| rows[i].sense == Sense::Eq;
    let cell_rows: HashMap<u32, usize> = (0..rows.len())
        .filter_map(|i| match rows[i].kind {
            RowKind::Cell(c) => Some((c, i)),
            _ => None,
        })
        .collect();
    // (family, digit) → the house rows of that family and digit; family 0 rows, 1 columns,
    // 2 regions (diagonals, family 3, take part in no dependency).
    let mut families: HashMap<(u32, u32), Vec<usize>> = HashMap::new();
    for (i, r) in rows.iter().enumerate() {
        if let RowKind::House { house, digit } = r.kind {
            families
                .entry((house / n, digit as u32))
                .or_default()
                .push(i);
        }
    }
    let mut drop_if_cancels = |parts: &[(usize, i64)], row: Option<usize>| {
        if let Some(row) = row {
            if cancels(model, parts) && parts.iter().any(|&(i, m)| i == row && m != 0) {
                implied[row] = true;
            }
        }
    };

    // All cell rows against all row houses.
    let mut parts: Vec<(usize, i64)> = cell_rows.values().map(|&i| (i, 1)).collect();
    for ((family, _), hs) in &families {
        if *family == 0 {
            parts.extend(hs.iter().map(|&i| (i, -1)));
        }
    }
    let last_cell = cell_rows.values().copied().max();
    drop_if_cancels(&parts, last_cell);

    // Each cage: its digit rows against its cells' rows and its set row.
    let mut cages: HashMap<u32, (Option<usize>, Vec<usize>)> = HashMap::new();
    for (i, r) in rows.iter().enumerate() {
        match r.kind {
            RowKind::CageSet { cage } => cages.entry(cage).or_default().0 = Some(i),
            RowKind::CageDigit { cage, .. } if is_eq(i) => cages.entry(cage).or_default().1.push(i),
            _ => {}
        }
    }
    for (set_row, digit_rows) in cages.values() {
        let Some(set_row) = *set_row else { continue };
        let mut cells: Vec<u32> = digit_rows
            .iter()
            .flat_map(|&i| &rows[i].vars)
            .filter_map(|&v| model.vars().get(v as usize).map(|x| x.cell))
            .collect();
        cells.sort_unstable();
        cells.dedup();
        let Some(cell_parts) = cells
            .iter()
            .map(|c| cell_rows.get(c).map(|&i| (i, -1)))
            .collect::<Option<Vec<_>>>()
        else {
            continue;
        };
        let mut parts: Vec<(usize, i64)> = digit_rows.iter().map(|&i| (i, 1)).collect();
        parts.extend(cell_parts);
        parts.push((set_row, cells.len() as i64));
        drop_if_cancels(&parts, digit_rows.last().copied());
    }

    // Each digit: the column houses, and the regions, against the row houses.
    for digit in 1..=n {
        let Some(by_row) = families.get(&(0, digit)) else {
            continue;
        };
        for family in [1, 2] {
            let Some(other) = families.get(&(family, digit)) else {
                continue;
            };
            let parts: Vec<(usize, i64)> = by_row
                .iter()
                .map(|&i| (i, 1))
                .chain(other.iter().map(|&i| (i, -1)))
                .collect();
            drop_if_cancels(&parts, other.last().copied());
        }
    }
    implied
}

/// Whether `Σ multiplier × row` over `parts` is `0 = 0`: every row an equality, every variable's
/// coefficients and the right sides adding up to zero.
fn cancels(model: &IlpModel, parts: &[(usize, i64)]) -> bool {
    let rows = model.rows();
    let mut sum: HashMap<u32, i64> = HashMap::new();
    let mut rhs = 0;
    for &(i, m) in parts {
        let r = &rows[i];
        if r.sense != Sense::Eq {
            return false;
        }
        rhs += m * r.rhs;
        for (&v, &c) in r.vars.iter().zip(&r.coef) {
            *sum.entry(v).or_default() += m * c;
        }
    }
    rhs == 0 && sum.values().all(|&c| c == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ilp::model::Reduction;

    fn model(line: &str) -> IlpModel {
        let p = crate::format::read_puzzles(line, &Default::default())
            .remove(0)
            .unwrap()
            .puzzle;
        IlpModel::build(&p, false, Reduction::Givens).unwrap()
    }

    fn kinds(m: &IlpModel) -> Vec<RowKind> {
        let implied = implied_rows(m);
        (0..m.rows().len())
            .filter(|&i| implied[i])
            .map(|i| m.rows()[i].kind)
            .collect()
    }

    #[test]
    fn one_row_per_dependency_of_an_empty_killer() {
        // 4×4, eight cages of two cells: the last cell row, one digit row per cage, and a
        // column and a box row per digit.
        let m = model("................ 0011223344556677 3,7,7,3,3,7,7,3");
        let k = kinds(&m);
        assert_eq!(k.len(), 1 + 8 + 2 * 4, "{k:?}");
        assert_eq!(k[0], RowKind::Cell(15));
        for digit in 1..=4 {
            assert!(k.contains(&RowKind::House { house: 7, digit }), "{k:?}");
            assert!(k.contains(&RowKind::House { house: 11, digit }), "{k:?}");
        }
        for cage in 0..8 {
            let digit_rows = k
                .iter()
                .filter(|r| matches!(r, RowKind::CageDigit { cage: c, .. } if *c == cage))
                .count();
            assert_eq!(digit_rows, 1, "cage {cage}: {k:?}");
        }
    }

    #[test]
    fn givens_and_diagonals_keep_the_dependencies_exact() {
        // Givens remove rows and variables, the diagonals add rows in no dependency: still one
        // cell row and a column and a box row per digit.
        let p = crate::format::read_puzzles("1..2............", &Default::default())
            .remove(0)
            .unwrap()
            .puzzle;
        let shape = crate::model::Shape::standard(4, true).unwrap();
        let p = crate::model::Puzzle::new(std::sync::Arc::new(shape), p.givens().to_vec()).unwrap();
        let m = IlpModel::build(&p, false, Reduction::Givens).unwrap();
        let k = kinds(&m);
        assert_eq!(k.len(), 1 + 2 * 4, "{k:?}");
        assert!(k
            .iter()
            .all(|r| !matches!(r, RowKind::House { house, .. } if *house >= 12)));
    }

    #[test]
    fn rows_that_do_not_cancel_are_kept() {
        let m = model("................ 0011223344556677 3,7,7,3,3,7,7,3");
        let rows = m.rows();
        let cell = |c| {
            rows.iter()
                .position(|r| r.kind == RowKind::Cell(c))
                .unwrap()
        };
        assert!(cancels(&m, &[(cell(0), 1), (cell(0), -1)]));
        assert!(!cancels(&m, &[(cell(0), 1), (cell(1), -1)]));
    }
}
