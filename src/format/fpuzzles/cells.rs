//! Rules on cells and groups of cells: `killercage` (a cage without a value is an extra region),
//! `extraregion`, `odd`, `even`, `minimum`, `maximum` (a `cell` each), `rowindexer`,
//! `columnindexer`, `boxindexer` (`cells`, each an indexer), `quadruple` (`cells` around a
//! grid point, `values` the digits) and `clone` (`cells` and `cloneCells`, place by place).
//!
//! A Killer cage's sum is a whole number from 0 to `2^32 - 1`, as every reader takes it: a
//! negative or larger one is an error.
//!
//! A Killer cage of more cells than the grid's side cannot hold distinct digits: it is held as
//! a cage of its first `n` cells with sum 0, which no digits make, and the reader says so (the
//! puzzle has no solution either way).

use serde_json::{json, Map, Value as J};

use super::json::{digits, name, names, number, Reader};
use super::{err, FpuzzlesError};
use crate::format::cage_sum;
use crate::model::{Cage, Constraint, IndexKind};

/// The indexer keys and the house each indexes.
const INDEXERS: [(&str, IndexKind); 3] = [
    ("rowindexer", IndexKind::Row),
    ("columnindexer", IndexKind::Column),
    ("boxindexer", IndexKind::Box),
];

pub(super) fn read(
    r: &Reader,
    rules: &mut Vec<Constraint>,
    notes: &mut Vec<String>,
) -> Result<(), FpuzzlesError> {
    for (i, e) in r.entries("killercage")?.into_iter().enumerate() {
        let mut cells = r.cells("killercage", e.get("cells"))?;
        let sum = number("killercage", e.get("value"))?
            .map(|x| {
                cage_sum(x < 0, u32::try_from(x).ok(), &x.to_string())
                    .map_err(|message| err("killercage", message).at(&[i]))
            })
            .transpose()?;
        match sum {
            Some(_) if cells.len() > r.n => {
                notes.push(format!(
                    "\"killercage\" {}: {} cells cannot hold distinct digits 1..={}: held as its \
                     first {} cells with sum 0, which no digits make; the puzzle has no solution",
                    i + 1,
                    cells.len(),
                    r.n,
                    r.n
                ));
                cells.truncate(r.n);
                rules.push(Constraint::Cage(Cage::new(cells, 0)));
            }
            Some(sum) => rules.push(Constraint::Cage(Cage::new(cells, sum))),
            None => rules.push(Constraint::ExtraRegion(cells)),
        }
    }
    for e in r.entries("extraregion")? {
        rules.push(Constraint::ExtraRegion(
            r.cells("extraregion", e.get("cells"))?,
        ));
    }
    type Make = fn(u32) -> Constraint;
    let single: [(&str, Make); 4] = [
        ("odd", Constraint::Odd),
        ("even", Constraint::Even),
        ("minimum", Constraint::Minimum),
        ("maximum", Constraint::Maximum),
    ];
    for (key, make) in single {
        for e in r.entries(key)? {
            rules.push(make(r.cell(key, e.get("cell").unwrap_or(&J::Null))?));
        }
    }
    for (key, kind) in INDEXERS {
        for e in r.entries(key)? {
            for cell in r.cells(key, e.get("cells"))? {
                rules.push(Constraint::Indexer { cell, kind });
            }
        }
    }
    for e in r.entries("quadruple")? {
        rules.push(Constraint::Quadruple {
            cells: r.cells("quadruple", e.get("cells"))?,
            digits: digits("quadruple", e.get("values"), notes)?,
        });
    }
    for e in r.entries("clone")? {
        rules.push(Constraint::Clone {
            a: r.cells("clone", e.get("cells"))?,
            b: r.cells("clone", e.get("cloneCells"))?,
        });
    }
    Ok(())
}

/// The key and entry of a rule on cells, if `c` is one.
pub(super) fn write(c: &Constraint, n: usize) -> Option<(&'static str, J)> {
    let cell = |c: &u32| json!({"cell": name(*c, n)});
    Some(match c {
        Constraint::Cage(cage) => (
            "killercage",
            json!({"cells": names(cage.cells(), n), "value": cage.sum().to_string()}),
        ),
        Constraint::ExtraRegion(cells) => ("extraregion", json!({"cells": names(cells, n)})),
        Constraint::Odd(c) => ("odd", cell(c)),
        Constraint::Even(c) => ("even", cell(c)),
        Constraint::Minimum(c) => ("minimum", cell(c)),
        Constraint::Maximum(c) => ("maximum", cell(c)),
        Constraint::Indexer { cell, kind } => {
            let key = INDEXERS.iter().find(|(_, k)| k == kind)?.0;
            (key, json!({"cells": [name(*cell, n)]}))
        }
        Constraint::Quadruple { cells, digits } => (
            "quadruple",
            json!({"cells": names(cells, n), "values": digits}),
        ),
        Constraint::Clone { a, b } => {
            let mut e = Map::new();
            e.insert("cells".into(), json!(names(a, n)));
            e.insert("cloneCells".into(), json!(names(b, n)));
            ("clone", J::Object(e))
        }
        _ => return None,
    })
}
