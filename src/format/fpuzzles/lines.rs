//! Lines: `thermometer`, `palindrome`, `renban`, `whispers` (an optional `value`, the gap) and
//! `arrow` (its `lines` start in its circle, `cells`).

use serde_json::{json, Value as J};

use super::json::{names, param, Reader};
use super::FpuzzlesError;
use crate::model::{whisper_gap, Arrow, Constraint};

pub(super) fn read(
    r: &Reader,
    rules: &mut Vec<Constraint>,
    notes: &mut Vec<String>,
) -> Result<(), FpuzzlesError> {
    type Make = fn(Vec<u32>) -> Constraint;
    let plain: [(&str, Make); 3] = [
        ("thermometer", Constraint::Thermo),
        ("palindrome", Constraint::Palindrome),
        ("renban", Constraint::Renban),
    ];
    for (key, make) in plain {
        for e in r.entries(key)? {
            rules.extend(r.lines(key, e)?.into_iter().map(make));
        }
    }
    for e in r.entries("whispers")? {
        let gap = param("whispers", e.get("value"), true, notes)?.unwrap_or(whisper_gap(r.n));
        for cells in r.lines("whispers", e)? {
            rules.push(Constraint::Whisper { cells, gap });
        }
    }
    for e in r.entries("arrow")? {
        let circle = r.cells("arrow", e.get("cells"))?;
        for line in r.lines("arrow", e)? {
            let line: Vec<u32> = line.into_iter().filter(|c| !circle.contains(c)).collect();
            rules.push(Constraint::Arrow(Arrow {
                circle: circle.clone(),
                line,
            }));
        }
    }
    Ok(())
}

/// The key and entry of a line, if `c` is one.
pub(super) fn write(c: &Constraint, n: usize) -> Option<(&'static str, J)> {
    let line = |cells: &[u32]| json!({"lines": [names(cells, n)]});
    Some(match c {
        Constraint::Thermo(cells) => ("thermometer", line(cells)),
        Constraint::Palindrome(cells) => ("palindrome", line(cells)),
        Constraint::Renban(cells) => ("renban", line(cells)),
        Constraint::Whisper { cells, gap } => {
            let mut e = line(cells);
            if *gap != whisper_gap(n) {
                e["value"] = json!(gap.to_string());
            }
            ("whispers", e)
        }
        Constraint::Arrow(a) => {
            // The line starts in the circle cell nearest its first cell.
            let first = *a.line.first()? as usize;
            let dist = |c: &&u32| {
                let c = **c as usize;
                (c / n).abs_diff(first / n).max((c % n).abs_diff(first % n))
            };
            let mut line = vec![*a.circle.iter().min_by_key(dist)?];
            line.extend(&a.line);
            (
                "arrow",
                json!({"cells": names(&a.circle, n), "lines": [names(&line, n)]}),
            )
        }
        _ => return None,
    })
}
