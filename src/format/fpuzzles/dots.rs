//! Dots between two cells: `difference` (Kropki white, 1 without a value), `ratio` (Kropki
//! black, 2 without a value) and `xv` (`"X"`, sum 10, or `"V"`, sum 5).

use serde_json::{json, Value as J};

use super::json::{names, param, Reader};
use super::{cannot, err, FpuzzlesError};
use crate::model::{Constraint, Dot, DotRule};

pub(super) fn read(
    r: &Reader,
    rules: &mut Vec<Constraint>,
    notes: &mut Vec<String>,
) -> Result<(), FpuzzlesError> {
    type Make = fn(u32) -> DotRule;
    let kropki: [(&str, Make, u32); 2] = [
        ("difference", DotRule::Difference, 1),
        ("ratio", DotRule::Ratio, 2),
    ];
    for (key, make, default) in kropki {
        for e in r.entries(key)? {
            let cells = r.cells(key, e.get("cells"))?;
            let k = param(key, e.get("value"), false, notes)?.unwrap_or(default);
            rules.push(dot(key, &cells, make(k))?);
        }
    }
    for e in r.entries("xv")? {
        let cells = r.cells("xv", e.get("cells"))?;
        let sum = match e.get("value") {
            Some(J::String(s)) if s.trim().eq_ignore_ascii_case("x") => 10,
            Some(J::String(s)) if s.trim().eq_ignore_ascii_case("v") => 5,
            Some(other) => {
                return Err(err("xv", format!("value {other}: expected \"X\" or \"V\"")))
            }
            None => return Err(err("xv", "no value: expected \"X\" or \"V\"")),
        };
        rules.push(dot("xv", &cells, DotRule::Sum(sum))?);
    }
    Ok(())
}

fn dot(key: &str, cells: &[u32], rule: DotRule) -> Result<Constraint, FpuzzlesError> {
    match cells {
        [a, b] => Ok(Constraint::Dot(Dot { a: *a, b: *b, rule })),
        _ => Err(err(
            key,
            format!("a dot joins 2 cells, not {}", cells.len()),
        )),
    }
}

/// The key and entry of a dot, if `c` is one, or why f-puzzles cannot hold it.
pub(super) fn write(c: &Constraint, n: usize) -> Option<Result<(&'static str, J), FpuzzlesError>> {
    let Constraint::Dot(d) = c else {
        return None;
    };
    let (key, value) = match d.rule {
        DotRule::Difference(1) => ("difference", String::new()),
        DotRule::Difference(k) => ("difference", k.to_string()),
        DotRule::Ratio(2) => ("ratio", String::new()),
        DotRule::Ratio(k) => ("ratio", k.to_string()),
        DotRule::Sum(10) => ("xv", "X".into()),
        DotRule::Sum(5) => ("xv", "V".into()),
        DotRule::Sum(k) => return Some(Err(cannot(format!("a dot of sum {k}")))),
    };
    let cells = names(&[d.a, d.b], n);
    Some(Ok((key, json!({"cells": cells, "value": value}))))
}
