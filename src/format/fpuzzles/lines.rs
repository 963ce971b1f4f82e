//! Lines: `thermometer`, `slowthermometer`, `palindrome`, `renban`, `betweenline`,
//! `regionsumline`, `entropicline`, `modularline`, `zipperline`, `nabner`, `doublearrow`,
//! `whispers` (an optional `value`, the gap), `lockout` (an optional `value`, the ends' gap) and
//! `arrow` (its `lines` start in its circle, `cells`).

use serde_json::{json, Value as J};

use super::json::{names, param, Reader};
use super::FpuzzlesError;
use crate::model::{lockout_gap, whisper_gap, Arrow, Constraint};

type Make = fn(Vec<u32>) -> Constraint;

/// The keys of lines that carry nothing but their cells.
const PLAIN: [(&str, Make); 11] = [
    ("thermometer", Constraint::Thermo),
    ("slowthermometer", Constraint::SlowThermo),
    ("palindrome", Constraint::Palindrome),
    ("renban", Constraint::Renban),
    ("betweenline", Constraint::Between),
    ("regionsumline", Constraint::RegionSum),
    ("entropicline", Constraint::Entropic),
    ("modularline", Constraint::Modular),
    ("zipperline", Constraint::Zipper),
    ("nabner", Constraint::Nabner),
    ("doublearrow", Constraint::DoubleArrow),
];

pub(super) fn read(
    r: &Reader,
    rules: &mut Vec<Constraint>,
    notes: &mut Vec<String>,
) -> Result<(), FpuzzlesError> {
    for (key, make) in PLAIN {
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
    for e in r.entries("lockout")? {
        let gap = param("lockout", e.get("value"), true, notes)?.unwrap_or(lockout_gap(r.n));
        for cells in r.lines("lockout", e)? {
            rules.push(Constraint::Lockout { cells, gap });
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
    // A line with a gap: the value is written when it is not the default.
    let gapped = |cells: &[u32], gap: u32, default: u32| {
        let mut e = line(cells);
        if gap != default {
            e["value"] = json!(gap.to_string());
        }
        e
    };
    if let Some((key, _)) = PLAIN.iter().find(|(_, make)| {
        let cells = c.cells();
        !cells.is_empty() && make(cells) == *c
    }) {
        return Some((key, line(&c.cells())));
    }
    Some(match c {
        Constraint::Whisper { cells, gap } => ("whispers", gapped(cells, *gap, whisper_gap(n))),
        Constraint::Lockout { cells, gap } => ("lockout", gapped(cells, *gap, lockout_gap(n))),
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
