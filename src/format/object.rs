//! The lab's own JSON form of a puzzle: one object that carries everything the model holds.
//!
//! ```json
//! {"board": [["1", ".", ".", "."], [".", ".", ".", "."], [".", ".", ".", "."], [".", ".", ".", "3"]],
//!  "diagonals": true,
//!  "cages": [{"sum": 7, "cells": [[1, 3], [1, 4]]}],
//!  "rules": [{"kind": "thermo", "cells": [[4, 2], [3, 2], [2, 2]]},
//!            {"kind": "kropki", "cells": [[4, 3], [4, 4]], "difference": 1}],
//!  "count": 1}
//! ```
//!
//! - `board` (required): the givens, `n` rows of `n` one-value strings or numbers, as a LeetCode
//!   board (`"."`, `"0"` or `0` empty).
//! - `boxes`: `[ROWS, COLS]`, boxes of another shape than the standard one of the side; or
//!   `regions`: a jigsaw, `n` rows of `n` region numbers `1..=n`. Neither: the standard boxes.
//! - `diagonals`: `true` makes both main diagonals houses (as `--diagonals` does for every puzzle).
//! - `cages`: Killer cages, `{"sum": S, "cells": [[ROW, COL], ...]}`.
//! - `rules`: the variant rules, each `{"kind": KIND, ...}` with `KIND` the name
//!   [`ConstraintKind`] gives it and the keys of [`keys`]; cells are `[ROW, COL]`, 1-based, like
//!   the cages'. A dot rule (`kropki`, `xv`, `negative`) says what it means by one of
//!   `"difference": K` (white), `"ratio": K` (black), `"sum": K` (X is 10, V is 5).
//!   `candidates` and `quadruple` list `"digits": [D, ...]`; an `indexer` names its `"house"`
//!   (`"row"`, `"column"` or `"box"`); a `clone` pairs `"cells"` with `"clone"`, place by place;
//!   `skyscraper` (`"count"`) and `x-sum` (`"sum"`) sit on a `"row"` or `"column"` and read it
//!   `"from"` `"left"`, `"right"`, `"top"` or `"bottom"` (the left or the top when not given).
//! - `count` and `solution` (a board): the known answer, as `puzzle:count:solution` in the line
//!   format. A solution alone is the puzzle's one solution (count 1).
//!
//! An unknown key or kind is an error that names it: a dropped rule would change every count.
//! Errors point at the value concerned; what the model refuses (a thermometer whose cells do not
//! touch, a dot between cells that do not touch) points at its cage or rule and names it
//! (`rule 3 (thermo): …`). A parameter (a sum, ratio, difference or gap) is any whole number
//! from `-2^63` to `2^63 - 1`: past that it is out of range, an error. One that no digits can
//! meet (a cage sum past what its cells reach, a ratio past the side, a negative sum) is not an
//! error: the puzzle holds it and has no solution, and a warning at the cage or rule names it
//! ([`Puzzle::rule_warnings`]). A Killer cage's sum is read as the line format reads it: from 0
//! to `2^32 - 1`; a negative one ("negative cage sum") or a larger one ("out of range") is an
//! error.
//!
//! [`to_json`] writes any puzzle the lab holds as this object, and [`super::Format::Json`]
//! reads it back as the same puzzle (cages first, then the rules in order).

use serde_json::{json, Map, Value as J};

use super::{
    cage_sum, json_givens, known_solution, model_error, JsonCursor, Node, ParseError, Shapes, Token,
};
use crate::model::Expected;
use crate::model::{
    exact_param, gap_param, lockout_gap, whisper_gap, Arrow, Cage, Constraint, ConstraintKind, Dot,
    DotRule, EdgeClue, IndexKind, Line, LittleKiller, ModelError, Puzzle, Regions, Sandwich, Shape,
    Value,
};

/// The keys of the object.
const KEYS: [&str; 8] = [
    "board",
    "boxes",
    "regions",
    "diagonals",
    "cages",
    "rules",
    "count",
    "solution",
];

/// The keys a rule of `kind` takes besides `kind`. A dot rule takes one of `difference`,
/// `ratio` (Kropki) and `sum` (XV); a sandwich one of `row` and `column`.
pub fn keys(kind: ConstraintKind) -> &'static [&'static str] {
    use ConstraintKind as K;
    match kind {
        K::Killer => &[],
        K::AntiKnight | K::AntiKing | K::DisjointGroups | K::NonConsecutive => &[],
        K::ExtraRegion | K::Thermo | K::Renban | K::Palindrome => &["cells"],
        K::Odd | K::Even => &["cell"],
        K::Whisper => &["cells", "gap"],
        K::Arrow => &["circle", "line"],
        K::Kropki => &["cells", "difference", "ratio"],
        K::Xv => &["cells", "sum"],
        K::Negative => &["difference", "ratio", "sum"],
        K::LittleKiller => &["cells", "sum"],
        K::Sandwich => &["row", "column", "sum"],
        K::Candidates => &["cell", "digits"],
        K::Quadruple => &["cells", "digits"],
        K::Minimum | K::Maximum => &["cell"],
        K::Indexer => &["cell", "house"],
        K::Between
        | K::RegionSum
        | K::Entropic
        | K::Modular
        | K::Zipper
        | K::SlowThermo
        | K::Nabner
        | K::DoubleArrow => &["cells"],
        K::Lockout => &["cells", "gap"],
        K::Clone => &["cells", "clone"],
        K::Skyscraper => &["row", "column", "from", "count"],
        K::XSum => &["row", "column", "from", "sum"],
    }
}

/// `"a", "b" and "c"`.
fn quoted(keys: &[&str]) -> String {
    let q: Vec<String> = keys.iter().map(|k| format!("\"{k}\"")).collect();
    match q.split_last() {
        None => "nothing".into(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// What an error is about (`cage 3`, `rule 2 (thermo)`, or nothing at the top level), the side,
/// and a reminder of the form added to the messages of a malformed value; notes on parameters
/// held as another value gather in `notes`.
struct About {
    what: String,
    n: usize,
    hint: &'static str,
    notes: std::cell::RefCell<Vec<ParseError>>,
}

impl About {
    fn new(what: String, n: usize, hint: &'static str) -> About {
        About {
            what,
            n,
            hint,
            notes: Default::default(),
        }
    }
    fn err(&self, at: &Node<'_>, message: impl std::fmt::Display) -> ParseError {
        let what = match self.what.is_empty() {
            true => String::new(),
            false => format!("{}: ", self.what),
        };
        ParseError::at(&at.at, format!("{what}{message}{}", self.hint))
    }
    /// A whole number from 0 to `max`.
    fn number(&self, v: &Node<'_>, key: &str, max: u64) -> Result<u64, ParseError> {
        let whole = (v.value.as_u64().map(|x| x as f64))
            .or(v.value.as_f64())
            .filter(|f| f.fract() == 0.0);
        match whole {
            Some(f) if f < 0.0 => Err(self.err(v, format!("\"{key}\" {} is negative", v.value))),
            Some(f) if f <= max as f64 => Ok(f as u64),
            Some(_) => Err(self.err(v, format!("\"{key}\" {} is out of range", v.value))),
            None => Err(self.err(v, format!("\"{key}\" {} is not a whole number", v.value))),
        }
    }
    /// A rule's parameter: a sum, ratio or difference (`gap: false`), or a whisper's gap. Any
    /// whole number that `i64` holds is one: a value the model's `u32` cannot hold is held as a
    /// value digits meet alike ([`exact_param`], [`gap_param`]), with a note.
    fn param(&self, v: &Node<'_>, key: &str, gap: bool) -> Result<u32, ParseError> {
        let fits = |f: f64| (-(2f64.powi(63))..2f64.powi(63)).contains(&f);
        let x = match (v.value.as_i64(), v.value.as_f64()) {
            (Some(x), _) => x,
            (None, Some(f)) if f.fract() == 0.0 && fits(f) => f as i64,
            (None, Some(f)) if f.fract() == 0.0 => {
                let range = "a whole number from -2^63 to 2^63 - 1";
                return Err(self.err(
                    v,
                    format!("\"{key}\" {} is out of range ({range})", v.value),
                ));
            }
            _ => return Err(self.err(v, format!("\"{key}\" {} is not a whole number", v.value))),
        };
        let held = if gap { gap_param(x) } else { exact_param(x) };
        if i64::from(held) != x {
            let note = format!("\"{key}\" {x} is held as {held}, which digits meet alike");
            self.notes.borrow_mut().push(ParseError::at(&v.at, note));
        }
        Ok(held)
    }
    /// A Killer cage's `"sum"` (see [`cage_sum`]).
    fn cage_sum(&self, v: &Node<'_>) -> Result<u32, ParseError> {
        let (negative, value) = match (v.value.as_i64(), v.value.as_f64()) {
            (Some(x), _) => (x < 0, u32::try_from(x).ok()),
            (None, Some(f)) if f.fract() == 0.0 => {
                let fits = (0.0..=f64::from(u32::MAX)).contains(&f);
                (f < 0.0, fits.then_some(f as u32))
            }
            _ => return Err(self.err(v, format!("\"sum\" {} is not a whole number", v.value))),
        };
        cage_sum(negative, value, &v.value.to_string()).map_err(|message| self.err(v, message))
    }
    /// A cell `[ROW, COL]`, 1-based, as its index.
    fn cell(&self, v: &Node<'_>) -> Result<u32, ParseError> {
        let n = self.n as u64;
        let pair = v
            .value
            .as_array()
            .map(|rc| rc.iter().map(J::as_u64).collect::<Vec<_>>());
        match pair.as_deref() {
            Some(&[Some(r), Some(c)]) if (1..=n).contains(&r) && (1..=n).contains(&c) => {
                Ok(((r - 1) * n + c - 1) as u32)
            }
            _ => Err(self.err(
                v,
                format!("cell {} is not [ROW, COL] within 1..={n}", v.value),
            )),
        }
    }
    /// An array of cells under `key`.
    fn cells(&self, v: &Node<'_>, key: &str, cur: &mut JsonCursor) -> Result<Vec<u32>, ParseError> {
        if !v.value.is_array() {
            return Err(self.err(v, format!("\"{key}\" must be an array of [ROW, COL] cells")));
        }
        v.items(cur).iter().map(|c| self.cell(c)).collect()
    }
}

/// The items of an array under `key`.
fn array<'a>(v: &Node<'a>, key: &str, cur: &mut JsonCursor) -> Result<Vec<Node<'a>>, ParseError> {
    match v.value {
        J::Array(_) => Ok(v.items(cur)),
        _ => Err(ParseError::at(&v.at, format!("\"{key}\" must be an array"))),
    }
}

/// The puzzle object at `node`, and its known answer; a cage that is not in one piece adds a
/// warning.
pub(super) fn read(
    node: &Node<'_>,
    cur: &mut JsonCursor,
    shapes: &mut Shapes,
    warnings: &mut Vec<ParseError>,
) -> Result<(Puzzle, Option<Expected>), ParseError> {
    let fields = node.fields(cur);
    if let Some((key, v)) = fields.iter().find(|(k, _)| !KEYS.contains(k)) {
        return Err(ParseError::at(
            &v.at,
            format!(
                "unknown field \"{key}\": a puzzle object has {}",
                quoted(&KEYS)
            ),
        ));
    }
    let get = |key: &str| fields.iter().find(|(k, _)| *k == key).map(|&(_, v)| v);
    let board =
        get("board").ok_or_else(|| ParseError::at(&node.at, "a puzzle object needs \"board\""))?;
    cur.next = board.event;
    let (n, givens) = json_givens(board.value, cur, &board.at)?;
    let top = About::new(String::new(), n, "");
    let (regions, at) = match (get("boxes"), get("regions")) {
        (Some(b), Some(_)) => {
            return Err(top.err(&b, "\"boxes\" and \"regions\" both given: use one"));
        }
        (Some(b), None) => (Some(boxes(&b, &top, cur)?), b.at),
        (None, Some(r)) => (Some(Regions::Jigsaw(regions(&r, &top, cur)?)), r.at),
        (None, None) => (None, board.at),
    };
    let diagonals = match get("diagonals") {
        None => false,
        Some(d) => d
            .value
            .as_bool()
            .ok_or_else(|| top.err(&d, "\"diagonals\" is true or false"))?,
    };
    let shape = shapes.shape(n, regions, diagonals, &at)?;
    let puzzle = Puzzle::new(shape, givens).map_err(|e| model_error(&board.at, e))?;
    let mut constraints = vec![];
    let mut cages_at = vec![];
    if let Some(list) = get("cages") {
        for (i, item) in array(&list, "cages", cur)?.iter().enumerate() {
            let cage = cage(item, i + 1, n, cur, warnings)?;
            if !cage.connected(n) {
                warnings.push(ParseError::at(
                    &item.at,
                    format!(
                        "cage {} is not in one piece (allowed: some puzzles use such cages)",
                        i + 1
                    ),
                ));
            }
            constraints.push(Constraint::Cage(cage));
            cages_at.push(item.at);
        }
    }
    // Each rule's kind, where it is and its number in "rules".
    let mut rules_at: Vec<(ConstraintKind, Token<'static>, usize)> = vec![];
    if let Some(list) = get("rules") {
        for (i, item) in array(&list, "rules", cur)?.iter().enumerate() {
            let rule = rule(item, i + 1, n, cur, warnings)?;
            rules_at.push((rule.kind(), item.at, i + 1));
            constraints.push(rule);
        }
    }
    let puzzle = puzzle.with_constraints(constraints).map_err(|e| match e {
        ModelError::BadCage { cage, message } => {
            ParseError::at(&cages_at[cage - 1], format!("cage {cage}: {message}"))
        }
        ModelError::BadConstraint {
            index,
            kind,
            problem,
        } => match rules_at.iter().filter(|r| r.0 == kind).nth(index - 1) {
            Some((_, at, i)) => ParseError::at(at, format!("rule {i} ({kind}): {problem}")),
            None => ParseError::at(&node.at, format!("{kind} rule {index}: {problem}")),
        },
        e => model_error(&node.at, e),
    })?;
    for w in puzzle.rule_warnings() {
        let (at, what) = match w.kind {
            ConstraintKind::Killer => (cages_at.get(w.index - 1), format!("cage {}", w.index)),
            kind => match rules_at.iter().filter(|r| r.0 == kind).nth(w.index - 1) {
                Some((_, at, i)) => (Some(at), format!("rule {i} ({kind})")),
                None => (None, format!("{kind} rule {}", w.index)),
            },
        };
        let message = format!("{what}: {}", w.message);
        warnings.push(ParseError::at(at.unwrap_or(&node.at), message));
    }
    let expected = known(get("count"), get("solution"), &puzzle, &top, cur)?;
    Ok((puzzle, expected))
}

/// `"boxes": [ROWS, COLS]`.
fn boxes(v: &Node<'_>, top: &About, cur: &mut JsonCursor) -> Result<Regions, ParseError> {
    let items = v.items(cur);
    match items.as_slice() {
        [r, c] => Ok(Regions::Boxes {
            rows: top.number(r, "boxes", top.n as u64)? as usize,
            cols: top.number(c, "boxes", top.n as u64)? as usize,
        }),
        _ => Err(top.err(v, "\"boxes\" is [ROWS, COLS], the box shape")),
    }
}

/// `"regions"`: `n` rows of `n` region numbers `1..=n`, as the model's region map.
fn regions(v: &Node<'_>, top: &About, cur: &mut JsonCursor) -> Result<Vec<u32>, ParseError> {
    let n = top.n;
    let shape = || format!("\"regions\" is {n} rows of {n} region numbers 1..={n}");
    let rows = v.items(cur);
    if !v.value.is_array() || rows.len() != n {
        return Err(top.err(v, shape()));
    }
    let mut map = Vec::with_capacity(n * n);
    for row in rows {
        let cells = row.items(cur);
        if !row.value.is_array() || cells.len() != n {
            return Err(top.err(&row, shape()));
        }
        for c in cells {
            match c.value.as_u64() {
                Some(r) if (1..=n as u64).contains(&r) => map.push(r as u32 - 1),
                _ => {
                    return Err(top.err(
                        &c,
                        format!("region {}: regions are numbered 1..={n}", c.value),
                    ))
                }
            }
        }
    }
    Ok(map)
}

/// Cage `i`: `{"sum": S, "cells": [[ROW, COL], ...]}`.
fn cage(
    v: &Node<'_>,
    i: usize,
    n: usize,
    cur: &mut JsonCursor,
    warnings: &mut Vec<ParseError>,
) -> Result<Cage, ParseError> {
    let hint = " (a cage is {\"sum\": S, \"cells\": [[ROW, COL], ...]}, 1-based)";
    let about = About::new(format!("cage {i}"), n, hint);
    if !v.value.is_object() {
        return Err(about.err(v, "not an object"));
    }
    let fields = v.fields(cur);
    if let Some((key, at)) = fields.iter().find(|(k, _)| !["sum", "cells"].contains(k)) {
        return Err(about.err(at, format!("unknown key \"{key}\"")));
    }
    let get = |key: &str| {
        let found = fields.iter().find(|(k, _)| *k == key).map(|&(_, v)| v);
        found.ok_or_else(|| about.err(v, format!("no \"{key}\"")))
    };
    let sum = about.cage_sum(&get("sum")?)?;
    let cells = about.cells(&get("cells")?, "cells", cur)?;
    warnings.append(&mut about.notes.borrow_mut());
    Ok(Cage::new(cells, sum))
}

/// Rule `i`: `{"kind": KIND, ...}`; notes on its parameter go to `warnings`.
fn rule(
    v: &Node<'_>,
    i: usize,
    n: usize,
    cur: &mut JsonCursor,
    warnings: &mut Vec<ParseError>,
) -> Result<Constraint, ParseError> {
    let mut about = About::new(format!("rule {i}"), n, "");
    let rule = rule_of(v, &mut about, cur);
    warnings.append(&mut about.notes.borrow_mut());
    rule
}

/// The rule at `v`, `about` naming it.
fn rule_of(
    v: &Node<'_>,
    about: &mut About,
    cur: &mut JsonCursor,
) -> Result<Constraint, ParseError> {
    if !v.value.is_object() {
        return Err(about.err(
            v,
            format!(
                "expected an object {{\"kind\": KIND, ...}}, found {}",
                v.value
            ),
        ));
    }
    let fields = v.fields(cur);
    let get = |key: &str| fields.iter().find(|(k, _)| *k == key).map(|&(_, v)| v);
    let kind_at = get("kind").ok_or_else(|| about.err(v, "no \"kind\""))?;
    let name = kind_at
        .value
        .as_str()
        .ok_or_else(|| about.err(&kind_at, "\"kind\" must be a string"))?;
    let kind: ConstraintKind = name.parse().map_err(|e| about.err(&kind_at, e))?;
    about.what = format!("{} ({kind})", about.what);
    let rule = RuleFields {
        v,
        kind_at,
        fields: &fields,
        about,
        n: about.n,
    };
    if kind == ConstraintKind::Killer {
        return Err(rule.in_cages());
    }
    let takes = keys(kind);
    if let Some((key, at)) = fields
        .iter()
        .find(|(k, _)| *k != "kind" && !takes.contains(k))
    {
        let has = match takes {
            [] => "no other key".to_string(),
            _ => quoted(takes),
        };
        return Err(about.err(
            at,
            format!("unknown key \"{key}\": a {kind} rule has {has}"),
        ));
    }
    rule.build(kind, cur)
}

/// The members of one rule's object, read by the rule's kind ([`RuleFields::build`]).
struct RuleFields<'r, 'a> {
    v: &'r Node<'a>,
    kind_at: Node<'a>,
    fields: &'r [(&'a str, Node<'a>)],
    about: &'r About,
    n: usize,
}

impl<'a> RuleFields<'_, 'a> {
    /// The error for a Killer cage given as a rule.
    fn in_cages(&self) -> ParseError {
        let form = "{\"sum\": S, \"cells\": [[ROW, COL], ...]}";
        let msg = format!("Killer cages go in \"cages\": {form}");
        self.about.err(&self.kind_at, msg)
    }

    fn get(&self, key: &str) -> Option<Node<'a>> {
        self.fields.iter().find(|(k, _)| *k == key).map(|&(_, v)| v)
    }

    fn need(&self, key: &str) -> Result<Node<'a>, ParseError> {
        self.get(key)
            .ok_or_else(|| self.about.err(self.v, format!("no \"{key}\"")))
    }

    fn cells(&self, key: &str, cur: &mut JsonCursor) -> Result<Vec<u32>, ParseError> {
        self.about.cells(&self.need(key)?, key, cur)
    }

    fn cell(&self) -> Result<u32, ParseError> {
        self.about.cell(&self.need("cell")?)
    }

    fn param(&self, key: &str, gap: bool) -> Result<u32, ParseError> {
        self.about.param(&self.need(key)?, key, gap)
    }

    /// An optional gap, `default` without one.
    fn gap(&self, default: u32) -> Result<u32, ParseError> {
        match self.get("gap") {
            Some(g) => self.about.param(&g, "gap", true),
            None => Ok(default),
        }
    }

    /// The one of `choices` the rule has, and its node.
    fn one_of(&self, choices: &[&'static str]) -> Result<(&'static str, Node<'a>), ParseError> {
        let present: Vec<(&'static str, Node<'a>)> = choices
            .iter()
            .filter_map(|&k| self.get(k).map(|at| (k, at)))
            .collect();
        match present.as_slice() {
            [one] => Ok(*one),
            [] => Err(self
                .about
                .err(self.v, format!("needs one of {}", quoted(choices)))),
            [_, (k, at), ..] => Err(self.about.err(
                at,
                format!("\"{k}\" too: the rule has one of {}", quoted(choices)),
            )),
        }
    }

    fn dot_rule(&self, choices: &[&'static str]) -> Result<DotRule, ParseError> {
        let (key, at) = self.one_of(choices)?;
        let k = self.about.param(&at, key, false)?;
        Ok(match key {
            "difference" => DotRule::Difference(k),
            "ratio" => DotRule::Ratio(k),
            _ => DotRule::Sum(k),
        })
    }

    /// The row or column of a clue outside the grid.
    fn line(&self) -> Result<Line, ParseError> {
        let n = self.n;
        let (key, at) = self.one_of(&["row", "column"])?;
        let i = self.about.number(&at, key, n as u64)? as u32;
        if i == 0 {
            return Err(self
                .about
                .err(&at, format!("\"{key}\" 0: they are numbered 1..={n}")));
        }
        Ok(match key {
            "row" => Line::Row(i - 1),
            _ => Line::Col(i - 1),
        })
    }

    fn digits(&self, cur: &mut JsonCursor) -> Result<Vec<u32>, ParseError> {
        let at = self.need("digits")?;
        array(&at, "digits", cur)?
            .iter()
            .map(|d| self.about.param(d, "digits", false))
            .collect()
    }

    /// The rule of `kind` (Killer cages go in "cages").
    fn build(&self, kind: ConstraintKind, cur: &mut JsonCursor) -> Result<Constraint, ParseError> {
        use ConstraintKind as K;
        let n = self.n;
        Ok(match kind {
            K::Killer => return Err(self.in_cages()),
            K::AntiKnight => Constraint::AntiKnight,
            K::AntiKing => Constraint::AntiKing,
            K::DisjointGroups => Constraint::DisjointGroups,
            K::NonConsecutive => Constraint::Negative(DotRule::Difference(1)),
            K::ExtraRegion => Constraint::ExtraRegion(self.cells("cells", cur)?),
            K::Thermo => Constraint::Thermo(self.cells("cells", cur)?),
            K::Renban => Constraint::Renban(self.cells("cells", cur)?),
            K::Palindrome => Constraint::Palindrome(self.cells("cells", cur)?),
            K::Odd => Constraint::Odd(self.cell()?),
            K::Even => Constraint::Even(self.cell()?),
            K::Whisper => Constraint::Whisper {
                cells: self.cells("cells", cur)?,
                gap: self.gap(whisper_gap(n))?,
            },
            K::Arrow => Constraint::Arrow(Arrow {
                circle: self.cells("circle", cur)?,
                line: self.cells("line", cur)?,
            }),
            K::Kropki => self.dot(&["difference", "ratio"], cur)?,
            K::Xv => self.dot(&["sum"], cur)?,
            K::Negative => Constraint::Negative(self.dot_rule(&["difference", "ratio", "sum"])?),
            K::LittleKiller => Constraint::LittleKiller(LittleKiller {
                cells: self.cells("cells", cur)?,
                sum: self.param("sum", false)?,
            }),
            K::Sandwich => Constraint::Sandwich(Sandwich {
                line: self.line()?,
                sum: self.param("sum", false)?,
            }),
            K::Candidates => Constraint::Candidates {
                cell: self.cell()?,
                digits: self.digits(cur)?,
            },
            K::Quadruple => Constraint::Quadruple {
                cells: self.cells("cells", cur)?,
                digits: self.digits(cur)?,
            },
            K::Minimum => Constraint::Minimum(self.cell()?),
            K::Maximum => Constraint::Maximum(self.cell()?),
            K::Indexer => self.indexer()?,
            K::Between => Constraint::Between(self.cells("cells", cur)?),
            K::RegionSum => Constraint::RegionSum(self.cells("cells", cur)?),
            K::Entropic => Constraint::Entropic(self.cells("cells", cur)?),
            K::Modular => Constraint::Modular(self.cells("cells", cur)?),
            K::Zipper => Constraint::Zipper(self.cells("cells", cur)?),
            K::SlowThermo => Constraint::SlowThermo(self.cells("cells", cur)?),
            K::Nabner => Constraint::Nabner(self.cells("cells", cur)?),
            K::DoubleArrow => Constraint::DoubleArrow(self.cells("cells", cur)?),
            K::Lockout => Constraint::Lockout {
                cells: self.cells("cells", cur)?,
                gap: self.gap(lockout_gap(n))?,
            },
            K::Clone => Constraint::Clone {
                a: self.cells("cells", cur)?,
                b: self.cells("clone", cur)?,
            },
            K::Skyscraper => Constraint::Skyscraper(self.edge_clue("count")?),
            K::XSum => Constraint::XSum(self.edge_clue("sum")?),
        })
    }

    /// A Kropki or XV dot: its rule (one of `choices`) and its 2 cells.
    fn dot(
        &self,
        choices: &[&'static str],
        cur: &mut JsonCursor,
    ) -> Result<Constraint, ParseError> {
        let rule = self.dot_rule(choices)?;
        let at = self.need("cells")?;
        match self.about.cells(&at, "cells", cur)?.as_slice() {
            &[a, b] => Ok(Constraint::Dot(Dot { a, b, rule })),
            other => Err(self
                .about
                .err(&at, format!("a dot joins 2 cells, not {}", other.len()))),
        }
    }

    fn indexer(&self) -> Result<Constraint, ParseError> {
        let at = self.need("house")?;
        let kind = match at.value.as_str() {
            Some("row") => IndexKind::Row,
            Some("column") => IndexKind::Column,
            Some("box") => IndexKind::Box,
            _ => {
                let msg = format!("\"house\" {} is \"row\", \"column\" or \"box\"", at.value);
                return Err(self.about.err(&at, msg));
            }
        };
        Ok(Constraint::Indexer {
            cell: self.cell()?,
            kind,
        })
    }

    /// A skyscraper or X-sum clue: its line, the end it is read from, and its value under `key`.
    fn edge_clue(&self, key: &str) -> Result<EdgeClue, ParseError> {
        let line = self.line()?;
        let from_end = match self.get("from") {
            None => false,
            Some(at) => match (at.value.as_str(), line) {
                (Some("left"), Line::Row(_)) | (Some("top"), Line::Col(_)) => false,
                (Some("right"), Line::Row(_)) | (Some("bottom"), Line::Col(_)) => true,
                _ => {
                    let sides = match line {
                        Line::Row(_) => "\"left\" or \"right\" on a row",
                        Line::Col(_) => "\"top\" or \"bottom\" on a column",
                    };
                    let msg = format!("\"from\" {} is {sides}", at.value);
                    return Err(self.about.err(&at, msg));
                }
            },
        };
        Ok(EdgeClue {
            line,
            from_end,
            value: self.param(key, false)?,
        })
    }
}

/// The known answer: `count`, `solution`, or both.
fn known(
    count: Option<Node<'_>>,
    solution: Option<Node<'_>>,
    puzzle: &Puzzle,
    top: &About,
    cur: &mut JsonCursor,
) -> Result<Option<Expected>, ParseError> {
    let count = match count {
        Some(c) => Some((top.number(&c, "count", u64::MAX)?, c)),
        None => None,
    };
    let solution = match solution {
        Some(s) => {
            cur.next = s.event;
            let (m, cells) = json_givens(s.value, cur, &s.at)?;
            if m != top.n {
                return Err(top.err(
                    &s,
                    format!("the solution is {m}×{m}, the puzzle {0}×{0}", top.n),
                ));
            }
            let grid = crate::model::Grid::new(m, cells);
            Some(known_solution(puzzle, grid, &s.at)?)
        }
        None => None,
    };
    Ok(match (count, solution) {
        (None, None) => None,
        (Some((0, c)), Some(_)) => {
            return Err(top.err(&c, "a solution is given but the count says there is none"))
        }
        (count, solution) => Some(Expected {
            count: count.map_or(1, |(c, _)| c),
            solution,
        }),
    })
}

/// The object form of `puzzle`, with its known answer when given: what [`super::Format::Json`]
/// reads back as the same puzzle and answer.
pub fn to_json(puzzle: &Puzzle, expected: Option<&Expected>) -> J {
    let shape = puzzle.shape();
    let n = shape.size();
    let mut o = Map::new();
    o.insert("board".into(), board(puzzle.givens(), n));
    match shape.regions() {
        &Regions::Boxes { rows, cols } if Shape::default_boxes(n) != Some((rows, cols)) => {
            o.insert("boxes".into(), json!([rows, cols]));
        }
        Regions::Jigsaw(map) => {
            let rows: Vec<Vec<u32>> = map
                .chunks(n)
                .map(|r| r.iter().map(|&x| x + 1).collect())
                .collect();
            o.insert("regions".into(), json!(rows));
        }
        Regions::Boxes { .. } => {}
    }
    if shape.diagonals() {
        o.insert("diagonals".into(), json!(true));
    }
    let cell = |c: u32| json!([c as usize / n + 1, c as usize % n + 1]);
    let cells = |cs: &[u32]| J::Array(cs.iter().map(|&c| cell(c)).collect());
    let cages: Vec<J> = puzzle
        .cages()
        .map(|c| json!({"sum": c.sum(), "cells": cells(c.cells())}))
        .collect();
    if !cages.is_empty() {
        o.insert("cages".into(), J::Array(cages));
    }
    let mut rules = vec![];
    for c in puzzle.constraints() {
        let mut r = Map::new();
        r.insert("kind".into(), json!(c.kind().name()));
        let dot = |r: &mut Map<String, J>, rule: DotRule| {
            let (key, k) = match rule {
                DotRule::Difference(k) => ("difference", k),
                DotRule::Ratio(k) => ("ratio", k),
                DotRule::Sum(k) => ("sum", k),
            };
            r.insert(key.into(), json!(k));
        };
        let line = |r: &mut Map<String, J>, line: Line| {
            let (key, i) = match line {
                Line::Row(i) => ("row", i),
                Line::Col(i) => ("column", i),
            };
            r.insert(key.into(), json!(i + 1));
        };
        match c {
            Constraint::Cage(_) => continue,
            Constraint::AntiKnight | Constraint::AntiKing | Constraint::DisjointGroups => {}
            Constraint::Negative(DotRule::Difference(1)) => {}
            Constraint::Negative(rule) => dot(&mut r, *rule),
            Constraint::ExtraRegion(cs)
            | Constraint::Thermo(cs)
            | Constraint::Renban(cs)
            | Constraint::Palindrome(cs) => _ = r.insert("cells".into(), cells(cs)),
            Constraint::Odd(c) | Constraint::Even(c) => _ = r.insert("cell".into(), cell(*c)),
            Constraint::Whisper { cells: cs, gap } => {
                r.insert("cells".into(), cells(cs));
                r.insert("gap".into(), json!(gap));
            }
            Constraint::Arrow(a) => {
                r.insert("circle".into(), cells(&a.circle));
                r.insert("line".into(), cells(&a.line));
            }
            Constraint::Dot(d) => {
                r.insert("cells".into(), cells(&[d.a, d.b]));
                dot(&mut r, d.rule);
            }
            Constraint::LittleKiller(l) => {
                r.insert("cells".into(), cells(&l.cells));
                r.insert("sum".into(), json!(l.sum));
            }
            Constraint::Sandwich(s) => {
                line(&mut r, s.line);
                r.insert("sum".into(), json!(s.sum));
            }
            Constraint::Candidates { cell: c, digits } => {
                r.insert("cell".into(), cell(*c));
                r.insert("digits".into(), json!(digits));
            }
            Constraint::Quadruple { cells: cs, digits } => {
                r.insert("cells".into(), cells(cs));
                r.insert("digits".into(), json!(digits));
            }
            Constraint::Minimum(c) | Constraint::Maximum(c) => {
                _ = r.insert("cell".into(), cell(*c))
            }
            Constraint::Indexer { cell: c, kind } => {
                r.insert("cell".into(), cell(*c));
                r.insert("house".into(), json!(kind.name()));
            }
            Constraint::Between(cs)
            | Constraint::RegionSum(cs)
            | Constraint::Entropic(cs)
            | Constraint::Modular(cs)
            | Constraint::Zipper(cs)
            | Constraint::SlowThermo(cs)
            | Constraint::Nabner(cs)
            | Constraint::DoubleArrow(cs) => _ = r.insert("cells".into(), cells(cs)),
            Constraint::Lockout { cells: cs, gap } => {
                r.insert("cells".into(), cells(cs));
                r.insert("gap".into(), json!(gap));
            }
            Constraint::Clone { a, b } => {
                r.insert("cells".into(), cells(a));
                r.insert("clone".into(), cells(b));
            }
            Constraint::Skyscraper(clue) | Constraint::XSum(clue) => {
                line(&mut r, clue.line);
                r.insert("from".into(), json!(clue.side()));
                let key = if c.kind() == ConstraintKind::Skyscraper {
                    "count"
                } else {
                    "sum"
                };
                r.insert(key.into(), json!(clue.value));
            }
        }
        rules.push(J::Object(r));
    }
    if !rules.is_empty() {
        o.insert("rules".into(), J::Array(rules));
    }
    if let Some(e) = expected {
        o.insert("count".into(), json!(e.count));
        if let Some(s) = &e.solution {
            o.insert("solution".into(), board(s.cells(), n));
        }
    }
    J::Object(o)
}

/// Cells as a board: `n` rows of strings, `"."` for empty, else the digit in decimal.
fn board(cells: &[Value], n: usize) -> J {
    let rows: Vec<Vec<String>> = cells
        .chunks(n.max(1))
        .map(|row| {
            row.iter()
                .map(|&v| match v {
                    0 => ".".to_string(),
                    v => v.to_string(),
                })
                .collect()
        })
        .collect();
    json!(rows)
}
