//! Rules over the whole grid: one main diagonal alone (an extra region; both are houses, see
//! [`super::grid`]), `antiknight`, `antiking`, `disjointgroups`, and the negative rules
//! (`nonconsecutive`, `negative`: `"ratio"`, `"xv"`).

use std::collections::BTreeSet;

use serde_json::{json, Map, Value as J};

use super::json::Reader;
use super::{cannot, err, FpuzzlesError};
use crate::model::{Constraint, DotRule};

pub(super) fn read(
    r: &Reader,
    rules: &mut Vec<Constraint>,
    _notes: &mut Vec<String>,
) -> Result<(), FpuzzlesError> {
    let n = r.n as u32;
    let (plus, minus) = (r.flag("diagonal+")?, r.flag("diagonal-")?);
    if plus != minus {
        let cell = |i: u32| {
            if minus {
                i * n + i
            } else {
                i * n + (n - 1 - i)
            }
        };
        rules.push(Constraint::ExtraRegion((0..n).map(cell).collect()));
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
    let items = match r.doc.get("negative") {
        None | Some(J::Null) => return Ok(()),
        Some(J::Array(items)) => items,
        Some(other) => return Err(err("negative", format!("expected an array, found {other}"))),
    };
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
                    format!("unknown negative rule {item} (the lab reads \"ratio\" and \"xv\")"),
                ))
            }
        }
    }
    Ok(())
}

/// The flag of a rule over the whole grid, if `c` is one.
pub(super) fn flag(c: &Constraint) -> Option<&'static str> {
    match c {
        Constraint::AntiKnight => Some("antiknight"),
        Constraint::AntiKing => Some("antiking"),
        Constraint::DisjointGroups => Some("disjointgroups"),
        _ => None,
    }
}

/// `nonconsecutive` and `negative` for the puzzle's negative rules (X and V go together).
pub(super) fn write_negatives(
    doc: &mut Map<String, J>,
    negatives: &BTreeSet<DotRule>,
) -> Result<(), FpuzzlesError> {
    let mut negative = vec![];
    let xv = [DotRule::Sum(5), DotRule::Sum(10)];
    for rule in negatives {
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
    Ok(())
}
