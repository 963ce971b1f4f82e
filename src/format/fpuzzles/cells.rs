//! Rules on groups of cells: `killercage` (a cage without a value is an extra region),
//! `extraregion`, `odd` and `even`.

use serde_json::{json, Value as J};

use super::json::{name, names, param, Reader};
use super::FpuzzlesError;
use crate::model::{Cage, Constraint};

pub(super) fn read(
    r: &Reader,
    rules: &mut Vec<Constraint>,
    notes: &mut Vec<String>,
) -> Result<(), FpuzzlesError> {
    for e in r.entries("killercage")? {
        let cells = r.cells("killercage", e.get("cells"))?;
        match param("killercage", e.get("value"), false, notes)? {
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
            rules.push(match odd {
                true => Constraint::Odd(cell),
                false => Constraint::Even(cell),
            });
        }
    }
    Ok(())
}

/// The key and entry of a rule on cells, if `c` is one.
pub(super) fn write(c: &Constraint, n: usize) -> Option<(&'static str, J)> {
    Some(match c {
        Constraint::Cage(cage) => (
            "killercage",
            json!({"cells": names(cage.cells(), n), "value": cage.sum().to_string()}),
        ),
        Constraint::ExtraRegion(cells) => ("extraregion", json!({"cells": names(cells, n)})),
        Constraint::Odd(cell) => ("odd", json!({"cell": name(*cell, n)})),
        Constraint::Even(cell) => ("even", json!({"cell": name(*cell, n)})),
        _ => return None,
    })
}
