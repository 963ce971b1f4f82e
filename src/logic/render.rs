//! Step texts in HoDoKu's notation, read off the [`Step`] record: `Name: premise => conclusions`
//! (`Name: conclusions` for singles).
//!
//! Cells are `r5c3` (1-based); cells of one digit are grouped by rows with equal columns
//! (`r1c136`, `r12c4`; on sides above 9 every cell is written out, `r10c11,r12c11`). Houses are
//! `r3`, `c3`, `b3` for boxes, `j3` for jigsaw regions and `x1` / `x2` for the main and the
//! anti-diagonal. Placements read `r5c5=3`, eliminations `r1c136<>8`.
//!
//! ```text
//! Locked Candidates Type 1 (Pointing): 8 in b3 => r1c136<>8
//! X-Wing: 5 r15 c37 => r3c3<>5
//! ```
//!
//! A step of a rule ([`super::rules`]) names it in brackets; a rule's own narrowing reads
//! `[Killer cage r1c1 17] r1c2<>9`, a group's `Hidden Single in a Rule's Group: [Extra region
//! r1c1] 5 in r2c3 => r2c3=5`.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::board::{digits, Board};
use super::step::{Candidate, CellSet, Link, Node, Step};
use super::table::Technique as T;
use crate::model::{Regions, Shape, Value};

/// `r5c3`.
pub fn cell(n: usize, c: u32) -> String {
    let c = c as usize;
    format!("r{}c{}", c / n + 1, c % n + 1)
}

/// Cells in the grouped notation (`r1c136,r2c5`).
pub fn cells(n: usize, list: &[u32]) -> String {
    let mut sorted = list.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    if n > 9 {
        return sorted
            .iter()
            .map(|&c| cell(n, c))
            .collect::<Vec<_>>()
            .join(",");
    }
    // Columns of each row, then rows with the same columns merged.
    let mut by_row: BTreeMap<usize, String> = BTreeMap::new();
    for &c in &sorted {
        let c = c as usize;
        by_row
            .entry(c / n)
            .or_default()
            .push_str(&(c % n + 1).to_string());
    }
    let mut groups: Vec<(String, String)> = vec![];
    for (row, cols) in by_row {
        match groups.iter_mut().find(|(_, g)| *g == cols) {
            Some((rows, _)) => rows.push_str(&(row + 1).to_string()),
            None => groups.push(((row + 1).to_string(), cols)),
        }
    }
    groups
        .iter()
        .map(|(rows, cols)| format!("r{rows}c{cols}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// A house's short name: `r3`, `c3`, `b3`, `j3` or `x1`.
pub fn house(shape: &Shape, h: u32) -> String {
    let (prefix, index) = house_parts(shape, h);
    format!("{prefix}{index}")
}

fn house_parts(shape: &Shape, h: u32) -> (&'static str, usize) {
    let (n, h) = (shape.size(), h as usize);
    match h / n {
        0 => ("r", h + 1),
        1 => ("c", h - n + 1),
        2 if matches!(shape.regions(), Regions::Boxes { .. }) => ("b", h - 2 * n + 1),
        2 => ("j", h - 2 * n + 1),
        _ => ("x", h - 3 * n + 1),
    }
}

/// Houses of one kind joined (`r15`), or each written out when kinds mix or sides pass 9.
pub fn houses(shape: &Shape, list: &[u32]) -> String {
    let parts: Vec<_> = list.iter().map(|&h| house_parts(shape, h)).collect();
    let same = parts.windows(2).all(|w| w[0].0 == w[1].0);
    match parts.first() {
        Some((prefix, _)) if same && shape.size() <= 9 => {
            let digits: String = parts.iter().map(|(_, i)| i.to_string()).collect();
            format!("{prefix}{digits}")
        }
        _ => list
            .iter()
            .map(|&h| house(shape, h))
            .collect::<Vec<_>>()
            .join(","),
    }
}

/// Houses with each run of one kind under one prefix (`c29b7`), or each written out on sides
/// above 9.
pub fn grouped_houses(shape: &Shape, list: &[u32]) -> String {
    if shape.size() > 9 {
        return houses(shape, list);
    }
    let mut out = String::new();
    let mut last = "";
    for &h in list {
        let (prefix, index) = house_parts(shape, h);
        if prefix != last {
            out.push_str(prefix);
            last = prefix;
        }
        let _ = write!(out, "{index}");
    }
    out
}

fn digit_list(digits: &[Value], sep: &str) -> String {
    digits
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

/// A multi-colour step's premise: `5 (r1c1) / (r1c5), (r2c2) / (r5c2)`, the two clusters'
/// colour classes with their cells one by one, as HoDoKu writes them.
fn multi_colors(n: usize, s: &Step) -> String {
    let class = |node: &Node| {
        let mut list = node.cells.clone();
        list.sort_unstable();
        let list: Vec<String> = list.iter().map(|&c| cell(n, c)).collect();
        format!("({})", list.join(","))
    };
    let pair = |k: usize| format!("{} / {}", class(&s.chain[k]), class(&s.chain[k + 1]));
    let d0 = s.digits.first().copied().unwrap_or(0);
    format!("{d0} {}, {}", pair(0), pair(2))
}

/// An ALS-XY-chain's premise: its sets with their digits, each link's digit between them
/// (`r7c4 {23} -2- r8c24569 {124689} -9- …`).
fn als_chain(n: usize, s: &Step) -> String {
    let mut t = String::new();
    for (i, set) in s.sets.iter().enumerate() {
        if i > 0 {
            let _ = write!(t, " -{}- ", s.digits[i - 1]);
        }
        t.push_str(&cell_set(n, set, " "));
    }
    t
}

/// Some cells and their digits: `r13c4 - {45789}` (`between` is ` - `), `{10,11}` on sides
/// above 9.
fn cell_set(n: usize, set: &CellSet, between: &str) -> String {
    let sep = if n > 9 { "," } else { "" };
    format!(
        "{}{between}{{{}}}",
        cells(n, &set.cells),
        digit_list(&set.digits, sep)
    )
}

/// Candidates grouped by digit: `r1c136<>8, r2c5<>3` (or with `=`).
pub fn conclusions(n: usize, list: &[Candidate], op: &str) -> String {
    let mut by_digit: BTreeMap<Value, Vec<u32>> = BTreeMap::new();
    for c in list {
        by_digit.entry(c.digit).or_default().push(c.cell);
    }
    by_digit
        .iter()
        .map(|(d, cs)| format!("{}{op}{d}", cells(n, cs)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A chain in HoDoKu's notation: the first digit, then the cells joined by their links, each
/// labelled with its digit (`1 r1c2 =1= r3c1 -1- r3c7`; `=` strong, `-` weak); a link inside a
/// cell follows the cell (`r1c1(1=2) -2- r1c5`).
pub fn chain(n: usize, nodes: &[Node]) -> String {
    let Some(first) = nodes.first() else {
        return String::new();
    };
    let mut out = format!("{} {}", first.digit, cells(n, &first.cells));
    for pair in nodes.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        let sym = if a.link == Link::Strong { "=" } else { "-" };
        if a.cells == b.cells {
            let _ = write!(out, "({}{sym}{})", a.digit, b.digit);
        } else {
            let _ = write!(out, " {sym}{}{sym} {}", b.digit, cells(n, &b.cells));
        }
    }
    out
}

/// The grid's digits and candidates, one line a row: a placed digit alone, an open cell's
/// candidates in brackets (`[1289]`; on sides above 9 comma-separated), columns padded to one
/// width and boxes parted by `|`, as `explain` shows them where no logical step is left.
pub fn candidate_grid(board: &Board) -> Vec<String> {
    let n = board.n();
    let sep = if n > 9 { "," } else { "" };
    let texts: Vec<String> = (0..n * n)
        .map(|c| match board.value(c) {
            0 => format!(
                "[{}]",
                digit_list(&digits(board.cands(c)).collect::<Vec<_>>(), sep)
            ),
            v => v.to_string(),
        })
        .collect();
    let width: Vec<usize> = (0..n)
        .map(|col| (0..n).map(|r| texts[r * n + col].len()).max().unwrap_or(0))
        .collect();
    let box_cols = match board.shape().regions() {
        Regions::Boxes { cols, .. } if *cols < n => *cols,
        _ => n,
    };
    (0..n)
        .map(|r| {
            let mut line = String::new();
            for col in 0..n {
                if col > 0 {
                    line.push_str(if col % box_cols == 0 { " | " } else { " " });
                }
                let _ = write!(line, "{:<w$}", texts[r * n + col], w = width[col]);
            }
            line.trim_end().to_string()
        })
        .collect()
}

/// The step's text, HoDoKu-like: `Naked Pair: 2,6 in r3c28 => r3c5679<>2, r3c5679<>6`.
pub fn text(shape: &Shape, step: &Step) -> String {
    let n = shape.size();
    let s = step;
    let d0 = s.digits.first().copied().unwrap_or(0);
    let premise = match s.technique {
        T::FullHouse | T::NakedSingle | T::HiddenSingle | T::BugPlusOne => String::new(),
        T::Pointing | T::Claiming => format!("{d0} in {}", houses(shape, &s.houses)),
        T::LockedPair
        | T::LockedTriple
        | T::NakedPair
        | T::NakedTriple
        | T::NakedQuad
        | T::HiddenPair
        | T::HiddenTriple
        | T::HiddenQuad => {
            format!("{} in {}", digit_list(&s.digits, ","), cells(n, &s.cells))
        }
        T::XWing
        | T::Swordfish
        | T::Jellyfish
        | T::FinnedXWing
        | T::SashimiXWing
        | T::FinnedSwordfish
        | T::SashimiSwordfish
        | T::FinnedJellyfish
        | T::SashimiJellyfish => {
            let mut t = format!(
                "{d0} {} {}",
                houses(shape, &s.houses),
                houses(shape, &s.covers)
            );
            if !s.fins.is_empty() {
                let _ = write!(t, " f{}", cells(n, &s.fins));
            }
            t
        }
        T::FrankenXWing
        | T::FrankenSwordfish
        | T::FinnedFrankenXWing
        | T::FinnedFrankenSwordfish => {
            let mut t = format!(
                "{d0} {} {}",
                grouped_houses(shape, &s.houses),
                grouped_houses(shape, &s.covers)
            );
            if !s.fins.is_empty() {
                let _ = write!(t, " f{}", cells(n, &s.fins));
            }
            if !s.endo_fins.is_empty() {
                let _ = write!(t, " ef{}", cells(n, &s.endo_fins));
            }
            t
        }
        T::Skyscraper | T::TwoStringKite if s.cells.len() == 4 => format!(
            "{d0} in {},{} (connected by {},{})",
            cell(n, s.cells[0]),
            cell(n, s.cells[1]),
            cell(n, s.cells[2]),
            cell(n, s.cells[3])
        ),
        T::EmptyRectangle => format!(
            "{d0} in {} ({})",
            houses(shape, &s.houses),
            cells(n, &s.cells)
        ),
        T::WWing if s.cells.len() == 4 && s.digits.len() == 2 => format!(
            "{}/{} in {},{} connected by {} in {},{}",
            s.digits[0],
            s.digits[1],
            cell(n, s.cells[0]),
            cell(n, s.cells[1]),
            s.digits[1],
            cell(n, s.cells[2]),
            cell(n, s.cells[3])
        ),
        T::XyWing | T::XyzWing => {
            format!("{} in {}", digit_list(&s.digits, "/"), cells(n, &s.cells))
        }
        // The rectangles (BUG+1, the other uniqueness technique, is above).
        t if t.assumes_uniqueness() => {
            format!(
                "{} in {}",
                digit_list(&s.digits[..2.min(s.digits.len())], "/"),
                cells(n, &s.cells)
            )
        }
        // HoDoKu writes a multi-colour step's classes cell by cell: `(a1) / (a2), (b1) / (b2)`.
        T::MultiColors1 | T::MultiColors2 => multi_colors(n, s),
        T::SimpleColorsTrap | T::SimpleColorsWrap => s
            .chain
            .iter()
            .map(|node| format!("({})", cells(n, &node.cells)))
            .fold(d0.to_string(), |acc, part| match acc.contains('(') {
                true => format!("{acc} / {part}"),
                false => format!("{acc} {part}"),
            }),
        T::RemotePair => format!(
            "{} {}",
            digit_list(&s.digits, "/"),
            s.cells
                .iter()
                .map(|&c| cell(n, c))
                .collect::<Vec<_>>()
                .join(" -- ")
        ),
        T::GroupHiddenSingle | T::GroupPointing if s.houses.is_empty() => {
            format!("{d0} in {}", cells(n, &s.cells))
        }
        T::GroupPointing => format!(
            "{d0} in {} ({})",
            cells(n, &s.cells),
            houses(shape, &s.houses)
        ),
        T::SueDeCoq if s.sets.len() == 3 => {
            let set = |i: usize| cell_set(n, &s.sets[i], " - ");
            format!("{} ({}, {})", set(0), set(1), set(2))
        }
        T::AlsXyChain if s.sets.len() == s.digits.len() + 1 => als_chain(n, s),
        T::Bifurcation => match s.eliminations.first() {
            Some(e) => format!("{}={} has no solution", cell(n, e.cell), e.digit),
            None => String::new(),
        },
        _ if !s.chain.is_empty() => chain(n, &s.chain),
        _ => cells(n, &s.cells),
    };
    let mut out = match (&s.rule, s.technique) {
        (Some(rule), T::RuleNarrowing | T::InniesOuties) => format!("[{rule}] "),
        (Some(rule), t) => format!("{}: [{rule}] ", t.name()),
        (None, t) => format!("{}: ", t.name()),
    };
    if !premise.is_empty() && !matches!(s.technique, T::RuleNarrowing | T::InniesOuties) {
        let _ = write!(out, "{premise} => ");
    }
    let mut parts = vec![];
    if !s.placements.is_empty() {
        parts.push(conclusions(n, &s.placements, "="));
    }
    if !s.eliminations.is_empty() {
        parts.push(conclusions(n, &s.eliminations, "<>"));
    }
    out.push_str(&parts.join(", "));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grouped_cells() {
        assert_eq!(cells(9, &[0, 2, 5]), "r1c136");
        assert_eq!(cells(9, &[3, 12, 40]), "r12c4,r5c5");
        assert_eq!(cells(16, &[9, 25]), "r1c10,r2c10");
        let shape = Shape::standard(9, true).unwrap();
        assert_eq!(houses(&shape, &[0, 4]), "r15");
        assert_eq!(houses(&shape, &[20, 27]), "b3,x1");
        assert_eq!(grouped_houses(&shape, &[10, 17, 24]), "c29b7");
    }
}
