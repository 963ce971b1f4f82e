//! Hostile input: mutated puzzle documents through the real reader, then through the backends,
//! each case under a watchdog, so that what a stranger's file can do to the lab is tried before
//! a stranger does it.
//!
//! **Documents.** The seeds ([`seeds`]) are f-puzzles documents, raw JSON and in the compressed
//! form of f-puzzles links, and the lab's own puzzle objects ([`crate::format::object`]): the
//! f-puzzles files of the test data, and puzzles generated as `generate … | convert --to
//! json|fpuzzles` would write them (mostly 4×4 and 6×6, some 9×9, every variant rule, Killer
//! cages, jigsaw regions, diagonals). [`mutate`] draws case `i` of a run seeded `S` from its own
//! seed ([`crate::fuzz::case_seed`]), so any case is replayed alone: one seed document, then
//! one to four changes of its JSON tree. Half the cases only nudge the rules' numbers and cells
//! (mostly within the grid's range, sometimes far past it), so that the document often still
//! reads and its puzzle reaches the backends; the others change anything — hostile numbers (past `u32`, past `i64`, floats, exponents),
//! cells outside the grid, repeated cells, lines that cross themselves, wrong types, empty arrays,
//! deep nesting, unknown, removed, renamed and duplicate keys, unicode, pieces of other
//! documents — then, now and then, changes of the text (cut short, characters inserted or
//! removed, a byte-order mark, several documents in one), and for an f-puzzles document written
//! as a link, changes of the compressed string that decode to garbage.
//!
//! **Cases.** [`run_case`] reads the text as the command line does ([`crate::format::puzzles`],
//! format detected) and answers each puzzle read (at most [`MAX_PUZZLES_PER_DOCUMENT`]) with
//! every backend, each answer through the checker ([`crate::task::run`]), all before the case's
//! deadline. The reading and solving run on a thread of their own under a watchdog: a case that
//! has not ended [`HANG_GRACE`] after its deadline is reported as a hang and left behind, and
//! the campaign goes on. A case fails ([`FaultKind`]) on a panic (caught, with its message and
//! where it was raised), a hang, a wrong answer (backends disagree, the checker rejects an
//! answer, a solver fails), or an input error that would leave the user without a useful
//! message: no message, or a line and column that are not in the text.
//!
//! **Minimal documents.** [`shrink`] cuts a document that shows a fault down while the fault's
//! [`Fault::signature`] stays the same: object keys and array items removed, values replaced by
//! smaller ones, on the JSON tree (a compressed link is decompressed first when its JSON shows
//! the same fault).

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use serde_json::{Map, Value as J};

use crate::backend::Backend;
use crate::format::{self, fpuzzles, object, Entry, ParseError, ReadOptions};
use crate::fuzz::case_seed;
use crate::generate::{GenerateOptions, Generator, PuzzleSpec};
use crate::model::ConstraintKind;
use crate::rng::GenRng;
use crate::task::Task;
use crate::xcheck::{self, BackendRun, Verdict};

/// Puzzles of one document that are answered (a JSON array or JSON Lines may hold many).
pub const MAX_PUZZLES_PER_DOCUMENT: usize = 4;

/// How long past its deadline a case may run before it is a hang. The `cp` backend's worker
/// process is killed two seconds past a deadline; this leaves room for that.
pub const HANG_GRACE: Duration = Duration::from_secs(5);

/// Count limit of a hostile run unless the task is `count` with its own: small, since the
/// documents are small grids that often have many solutions.
pub const HOSTILE_COUNT_LIMIT: u64 = 20;

// ---------------------------------------------------------------------------------------------
// Seed documents

/// How a document is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// The lab's own puzzle object (`convert --to json`).
    Object,
    /// f-puzzles JSON (`convert --to fpuzzles`).
    Fpuzzles,
    /// An f-puzzles link: the JSON compressed (`convert --to fpuzzles-link`).
    Link,
}

impl Form {
    pub fn name(self) -> &'static str {
        match self {
            Form::Object => "object",
            Form::Fpuzzles => "f-puzzles",
            Form::Link => "f-puzzles link",
        }
    }
}

/// A document mutations start from.
#[derive(Debug, Clone, PartialEq)]
pub struct Seed {
    /// Where it comes from: a test data file or the generator's options.
    pub name: String,
    /// [`Form::Object`] or [`Form::Fpuzzles`] (an f-puzzles seed may be written as a link).
    pub form: Form,
    pub doc: J,
}

/// The f-puzzles documents of the test data, each once a fault of some backend.
const DATA_FILES: [(&str, &str); 7] = [
    (
        "antiking6-pairs.json",
        include_str!("../tests/data/fpuzzles/antiking6-pairs.json"),
    ),
    (
        "antiking6.json",
        include_str!("../tests/data/fpuzzles/antiking6.json"),
    ),
    (
        "arrow-alias4.json",
        include_str!("../tests/data/fpuzzles/arrow-alias4.json"),
    ),
    (
        "littlekiller-none4.json",
        include_str!("../tests/data/fpuzzles/littlekiller-none4.json"),
    ),
    (
        "mixed6.json",
        include_str!("../tests/data/fpuzzles/mixed6.json"),
    ),
    (
        "sandwich-none4.json",
        include_str!("../tests/data/fpuzzles/sandwich-none4.json"),
    ),
    (
        "sandwich9.json",
        include_str!("../tests/data/fpuzzles/sandwich9.json"),
    ),
];

/// The generated seeds: side, rules, Killer cages, jigsaw, diagonals.
fn generated_specs() -> Vec<PuzzleSpec> {
    use ConstraintKind as K;
    let mut specs = vec![];
    let spec = |size: usize, variants: Vec<K>| PuzzleSpec {
        variants,
        ..PuzzleSpec::new(size)
    };
    for kind in ConstraintKind::ALL {
        if kind == K::Killer {
            continue;
        }
        // No 4×4 grid keeps anti-king or non-consecutive.
        let small = if matches!(kind, K::AntiKing | K::NonConsecutive) {
            6
        } else {
            4
        };
        specs.push(spec(small, vec![kind]));
        specs.push(spec(6, vec![kind]));
    }
    specs.push(spec(4, vec![K::Thermo, K::Kropki, K::Xv, K::Arrow]));
    specs.push(spec(
        4,
        vec![K::LittleKiller, K::Sandwich, K::Whisper, K::Renban],
    ));
    specs.push(spec(6, vec![K::Palindrome, K::Negative, K::Odd, K::Even]));
    specs.push(spec(9, vec![K::Thermo, K::Kropki, K::Arrow, K::Sandwich]));
    specs.push(spec(9, vec![K::Xv, K::Renban, K::LittleKiller]));
    for size in [4, 6, 9] {
        specs.push(PuzzleSpec {
            killer: Some((2, 4)),
            ..PuzzleSpec::new(size)
        });
        specs.push(PuzzleSpec::new(size));
    }
    specs.push(PuzzleSpec {
        jigsaw: true,
        ..PuzzleSpec::new(6)
    });
    specs.push(PuzzleSpec {
        diagonals: true,
        ..PuzzleSpec::new(4)
    });
    specs.push(PuzzleSpec {
        boxes: Some((3, 2)),
        ..PuzzleSpec::new(6)
    });
    specs
}

/// Every seed document: the test data's f-puzzles files, then each generated puzzle as a puzzle
/// object and, when f-puzzles can express it, as f-puzzles JSON with its full grid as the
/// `solution`. The same list every time; `reference` (pass `dfs`) is the generator's backend.
pub fn seeds(reference: &dyn Backend) -> Vec<Seed> {
    let mut out: Vec<Seed> = DATA_FILES
        .iter()
        .filter_map(|(name, text)| {
            Some(Seed {
                name: (*name).to_string(),
                form: Form::Fpuzzles,
                doc: serde_json::from_str(text).ok()?,
            })
        })
        .collect();
    for (i, spec) in generated_specs().into_iter().enumerate() {
        let name = spec_name(&spec);
        let opts = GenerateOptions {
            seed: i as u64 + 1,
            ..GenerateOptions::of(spec)
        };
        let Ok(mut generator) = Generator::new(opts, reference) else {
            continue;
        };
        let Ok((puzzle, grid)) = generator.generate_with_solution() else {
            continue;
        };
        out.push(Seed {
            name: name.clone(),
            form: Form::Object,
            doc: object::to_json(&puzzle, None),
        });
        if let Ok(doc) = fpuzzles::to_json(&puzzle, Some(&grid)) {
            out.push(Seed {
                name,
                form: Form::Fpuzzles,
                doc,
            });
        }
    }
    out
}

/// `6x6 thermo,kropki`, `9x9 killer`, `6x6 jigsaw`…
fn spec_name(o: &PuzzleSpec) -> String {
    let mut parts: Vec<&str> = o.variants.iter().map(|k| k.name()).collect();
    if o.killer.is_some() {
        parts.push("killer");
    }
    if o.jigsaw {
        parts.push("jigsaw");
    }
    if o.diagonals {
        parts.push("diagonals");
    }
    if o.boxes.is_some() {
        parts.push("3x2 boxes");
    }
    format!("{0}x{0} {1}", o.size, parts.join(","))
        .trim_end()
        .to_string()
}

// ---------------------------------------------------------------------------------------------
// Mutation

/// One mutated document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// The case number in its run.
    pub case: u64,
    /// The seed document's name.
    pub seed: String,
    pub form: Form,
    /// What was changed, in order (`$.rules[2].ratio: 4294967296`, `text cut at 120`).
    pub mutations: Vec<String>,
    /// The text handed to the reader.
    pub text: String,
}

impl Document {
    /// The file extension its text calls for: `json` when it starts as JSON, else `txt` (a
    /// link, or what is left of one).
    pub fn extension(&self) -> &'static str {
        let t = self.text.trim_start_matches('\u{feff}').trim_start();
        if t.starts_with(['{', '[']) {
            "json"
        } else {
            "txt"
        }
    }
}

/// Numbers as written in JSON, chosen to cross every limit a reader might hold numbers in.
const HOSTILE_NUMBERS: [&str; 40] = [
    "0",
    "-1",
    "1",
    "2",
    "3",
    "5",
    "7",
    "9",
    "10",
    "16",
    "17",
    "36",
    "45",
    "64",
    "65",
    "255",
    "256",
    "65536",
    "2147483647",
    "2147483648",
    "-2147483648",
    "4294967294",
    "4294967295",
    "4294967296",
    "4294967298",
    "-4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "123456789012345678901234567890",
    "1e400",
    "-1e400",
    "1e-400",
    "1.5",
    "-0",
    "2.0",
    "1E1",
];

/// Key names tried as new or renamed keys: the readers' own, near misses, and garbage.
const KEY_POOL: [&str; 32] = [
    "size",
    "grid",
    "board",
    "regions",
    "boxes",
    "diagonals",
    "cages",
    "rules",
    "count",
    "solution",
    "kind",
    "cells",
    "sum",
    "ratio",
    "difference",
    "value",
    "given",
    "region",
    "lines",
    "cell",
    "direction",
    "killercage",
    "thermometer",
    "arrow",
    "littlekillersum",
    "sandwichsum",
    "diagonal+",
    "antiking",
    "Size",
    "grid ",
    "ｇｒｉｄ",
    "__proto__",
];

/// Strings tried in place of any value or cell.
const HOSTILE_STRINGS: [&str; 16] = [
    "",
    " ",
    "5",
    "-1",
    "R0C1",
    "R1C1",
    "R99C99",
    "R-1C2",
    "R4294967297C1",
    "R1C",
    "r2c3",
    "é",
    "😀",
    "\u{202e}R1C1",
    "\u{feff}",
    "1\u{0}",
];

/// Characters inserted into the text.
const UNICODE_BITS: [&str; 8] = [
    "\u{feff}", "é", "😀", "\u{202e}", "\u{0}", "\u{ffff}", "\u{2028}", "\u{a0}",
];

/// Top-level keys that hold the givens (and the known solution): a change there mostly makes
/// the document unreadable, so changes go there less often.
const GIVENS_KEYS: [&str; 3] = ["board", "grid", "solution"];

/// A step of a path into a JSON tree.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
}

/// `$.rules[2].cells`.
fn show_path(path: &[Step]) -> String {
    let mut s = String::from("$");
    for step in path {
        match step {
            Step::Key(k) => s.push_str(&format!(".{k}")),
            Step::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

/// Every path in `v`, the root first.
fn paths(v: &J, here: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    out.push(here.clone());
    match v {
        J::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                here.push(Step::Index(i));
                paths(item, here, out);
                here.pop();
            }
        }
        J::Object(map) => {
            for (k, item) in map {
                here.push(Step::Key(k.clone()));
                paths(item, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

fn node<'a>(v: &'a J, path: &[Step]) -> Option<&'a J> {
    path.iter().try_fold(v, |v, step| match (step, v) {
        (Step::Key(k), J::Object(map)) => map.get(k),
        (Step::Index(i), J::Array(items)) => items.get(*i),
        _ => None,
    })
}

fn node_mut<'a>(v: &'a mut J, path: &[Step]) -> Option<&'a mut J> {
    path.iter().try_fold(v, |v, step| match (step, v) {
        (Step::Key(k), J::Object(map)) => map.get_mut(k),
        (Step::Index(i), J::Array(items)) => items.get_mut(*i),
        _ => None,
    })
}

/// A JSON tree being mutated, with the raw text some markers stand for: numbers no JSON value
/// holds (`1e400`, `18446744073709551616`), duplicate keys, deep nesting.
struct Mutation<'a> {
    rng: GenRng,
    seeds: &'a [Seed],
    raw: Vec<(String, String)>,
    log: Vec<String>,
}

impl Mutation<'_> {
    fn pick<'b, T>(&mut self, items: &'b [T]) -> &'b T {
        &items[self.rng.below(items.len())]
    }
    fn chance(&mut self, one_in: usize) -> bool {
        self.rng.below(one_in) == 0
    }
    /// A string value standing for `text` in the written document.
    fn raw(&mut self, text: String) -> J {
        let marker = format!("@@raw{}@@", self.raw.len());
        self.raw.push((format!("\"{marker}\""), text));
        J::String(marker)
    }
    fn hostile_number(&mut self) -> J {
        let text = self.pick(&HOSTILE_NUMBERS).to_string();
        self.raw(text)
    }
    /// A random piece of some seed document.
    fn splice(&mut self) -> J {
        let seed = &self.pick(self.seeds).doc;
        let mut all = vec![];
        paths(seed, &mut vec![], &mut all);
        let path = self.pick(&all).clone();
        let mut doc = seed.clone();
        node_mut(&mut doc, &path)
            .map(std::mem::take)
            .unwrap_or(J::Null)
    }
    /// A value of any type, mostly hostile.
    fn any_value(&mut self) -> (J, String) {
        match self.rng.below(9) {
            0 => (J::Null, "null".into()),
            1 => (J::Bool(self.chance(2)), "a boolean".into()),
            2 => {
                let s = self.pick(&HOSTILE_STRINGS).to_string();
                (J::String(s.clone()), format!("{s:?}"))
            }
            3 => (J::Array(vec![]), "[]".into()),
            4 => (J::Object(Map::new()), "{}".into()),
            5 => {
                let depth = *self.pick(&[2usize, 3, 16, 127, 128, 129, 1000, 20000]);
                let text = format!("{}0{}", "[".repeat(depth), "]".repeat(depth));
                (self.raw(text), format!("0 nested {depth} deep"))
            }
            6 => (self.splice(), "a piece of another document".into()),
            _ => {
                let v = self.hostile_number();
                let shown = self.raw_text(&v);
                (v, shown)
            }
        }
    }
    fn raw_text(&self, v: &J) -> String {
        let quoted = format!("\"{}\"", v.as_str().unwrap_or_default());
        self.raw
            .iter()
            .find(|(m, _)| *m == quoted)
            .map_or_else(|| v.to_string(), |(_, t)| t.clone())
    }

    /// One change at a random node of `doc`.
    fn change(&mut self, doc: &mut J) {
        let mut all = vec![];
        paths(doc, &mut vec![], &mut all);
        // Mostly the rules, which a document still reads with; the givens now and then.
        let rules: Vec<Vec<Step>> = all
            .iter()
            .filter(
                |p| !matches!(p.first(), Some(Step::Key(k)) if GIVENS_KEYS.contains(&k.as_str())),
            )
            .cloned()
            .collect();
        let from = if rules.is_empty() || self.chance(5) {
            &all
        } else {
            &rules
        };
        let path = self.pick(from).clone();
        let at = show_path(&path);
        let Some(node) = node_mut(doc, &path) else {
            return;
        };
        let what = match node {
            J::Number(_) if self.chance(2) => {
                *node = J::Number((self.rng.below(12) as u64).into());
                format!("{node}")
            }
            J::Number(_) => {
                *node = self.hostile_number();
                self.raw_text(node)
            }
            J::String(s) if is_cell_name(s) => self.change_cell_name(node),
            J::Array(items)
                if items.len() == 2 && items.iter().all(|x| x.is_u64()) && self.chance(2) =>
            {
                self.change_cell_pair(node)
            }
            J::Array(_) if self.chance(2) => self.change_array(node),
            J::Object(_) if self.chance(2) => self.change_object(node),
            _ => {
                let (v, shown) = self.any_value();
                *node = v;
                shown
            }
        };
        self.log.push(format!("{at}: {what}"));
    }

    /// A change a document may well still read with: a number of a rule to another, mostly in
    /// the range of the grid's digits and sums; a cell of a rule to another, mostly inside the
    /// grid; a line's or cage's cells repeated, closed into a loop, reversed, cut. `n` is the
    /// side.
    fn nudge(&mut self, doc: &mut J, n: usize) {
        let mut all = vec![];
        paths(doc, &mut vec![], &mut all);
        let targets: Vec<Vec<Step>> = all
            .into_iter()
            .filter(|p| {
                let rule = matches!(p.first(), Some(Step::Key(k))
                    if !GIVENS_KEYS.contains(&k.as_str()) && k != "size" && k != "count");
                rule && node(doc, p).is_some_and(|v| {
                    v.is_number()
                        || numeric_string(v)
                        || is_cell(v)
                        || v.as_array().is_some_and(|a| a.iter().any(is_cell))
                })
            })
            .collect();
        if targets.is_empty() {
            return self.change(doc);
        }
        let path = self.pick(&targets).clone();
        let at = show_path(&path);
        let Some(v) = node_mut(doc, &path) else {
            return;
        };
        let inside = |m: &mut Self| 1 + m.rng.below(n) as u64;
        let what = match v {
            J::Number(_) => {
                *v = self.rule_number(n);
                self.raw_text(v)
            }
            // f-puzzles writes a rule's number as a string.
            J::String(_) if numeric_string(v) => {
                let number = self.rule_number(n);
                *v = J::String(self.raw_text(&number));
                v.to_string()
            }
            J::String(_) if self.chance(4) => self.change_cell_name(v),
            J::String(_) => {
                *v = J::String(format!("R{}C{}", inside(self), inside(self)));
                v.to_string()
            }
            J::Array(items) if items.len() == 2 && items.iter().all(J::is_u64) => {
                *items = vec![J::from(inside(self)), J::from(inside(self))];
                v.to_string()
            }
            _ => self.change_array(v),
        };
        self.log.push(format!("{at}: {what}"));
    }

    /// A rule's number: mostly a digit, a sum or a difference of the grid, sometimes hostile.
    fn rule_number(&mut self, n: usize) -> J {
        match self.rng.below(4) {
            0 => J::from(self.rng.below(n + 2) as u64),
            1 => J::from(self.rng.below(n * (n + 1) / 2 + 2) as u64),
            2 => J::from(self.rng.below(2 * n + 2) as u64),
            _ => self.hostile_number(),
        }
    }

    fn change_cell_name(&mut self, node: &mut J) -> String {
        let row = *self.pick(&[0i64, 1, 2, 5, 7, 10, 65, -1, 4294967297]);
        let col = *self.pick(&[0i64, 1, 3, 6, 9, 10, -2, 18446744073709551]);
        let s = match self.rng.below(3) {
            0 => self.pick(&HOSTILE_STRINGS).to_string(),
            _ => format!("R{row}C{col}"),
        };
        *node = J::String(s.clone());
        format!("{s:?}")
    }

    fn change_cell_pair(&mut self, node: &mut J) -> String {
        let v = match self.rng.below(5) {
            0 => J::Array(vec![J::from(0), J::from(1)]),
            1 => J::Array(vec![J::from(10), J::from(1)]),
            2 => J::Array(vec![J::from(1)]),
            3 => J::Array(vec![J::from(1), J::from(2), J::from(3)]),
            _ => {
                let a = self.hostile_number();
                J::Array(vec![a, J::from(1)])
            }
        };
        let shown = match &v {
            J::Array(items) => {
                let parts: Vec<String> = items.iter().map(|x| self.raw_text(x)).collect();
                format!("[{}]", parts.join(","))
            }
            _ => v.to_string(),
        };
        *node = v;
        shown
    }

    fn change_array(&mut self, node: &mut J) -> String {
        let J::Array(items) = node else {
            return String::new();
        };
        if items.is_empty() {
            let (v, shown) = self.any_value();
            items.push(v);
            return format!("[{shown}]");
        }
        let i = self.rng.below(items.len());
        match self.rng.below(6) {
            0 => {
                items.clear();
                "emptied".into()
            }
            1 => {
                // A repeated item: a repeated cell in a cage, a line that crosses itself.
                let copy = items[i].clone();
                let at = self.rng.below(items.len() + 1);
                items.insert(at, copy);
                format!("item {i} repeated at {at}")
            }
            2 => {
                items.remove(i);
                format!("item {i} removed")
            }
            3 => {
                items.reverse();
                "reversed".into()
            }
            4 => {
                items.truncate(1);
                "cut to one item".into()
            }
            _ => {
                let copy = items[i].clone();
                items.push(copy);
                format!("item {i} appended again")
            }
        }
    }

    fn change_object(&mut self, node: &mut J) -> String {
        let J::Object(map) = node else {
            return String::new();
        };
        let keys: Vec<String> = map.keys().cloned().collect();
        let key = (!keys.is_empty()).then(|| self.pick(&keys).clone());
        match (self.rng.below(4), key) {
            (0, Some(k)) => {
                map.remove(&k);
                format!("key {k:?} removed")
            }
            (1, Some(k)) => {
                // A duplicate key: written as a marker key, replaced by `k` in the text.
                let (v, shown) = self.any_value();
                let marker = format!("@@key{}@@", self.raw.len());
                self.raw
                    .push((format!("\"{marker}\""), format!("\"{}\"", json_escape(&k))));
                map.insert(marker, v);
                format!("key {k:?} again, with {shown}")
            }
            (2, Some(k)) => {
                let new = self.pick(&KEY_POOL).to_string();
                if let Some(v) = map.remove(&k) {
                    map.insert(new.clone(), v);
                }
                format!("key {k:?} renamed {new:?}")
            }
            _ => {
                let new = self.pick(&KEY_POOL).to_string();
                let (v, shown) = self.any_value();
                map.insert(new.clone(), v);
                format!("key {new:?} set to {shown}")
            }
        }
    }

    /// The document's text, the markers replaced by their raw text.
    fn write(&mut self, doc: &J) -> String {
        let mut text = if self.chance(4) {
            serde_json::to_string_pretty(doc)
        } else {
            serde_json::to_string(doc)
        }
        .unwrap_or_default();
        for (marker, raw) in &self.raw {
            text = text.replacen(marker.as_str(), raw, 1);
        }
        text
    }

    /// A change of the text itself.
    fn change_text(&mut self, text: &mut String) {
        let bounds: Vec<usize> = (0..=text.len())
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        let at = *self.pick(&bounds);
        let what = match self.rng.below(7) {
            0 => {
                text.truncate(at);
                format!("text cut at byte {at}")
            }
            1 => {
                let bit = self.pick(&UNICODE_BITS);
                text.insert_str(at, bit);
                format!("{bit:?} inserted at byte {at}")
            }
            2 => {
                if let Some(c) = text[at..].chars().next() {
                    text.replace_range(at..at + c.len_utf8(), "");
                }
                format!("character at byte {at} removed")
            }
            3 => {
                text.insert(0, '\u{feff}');
                "byte-order mark first".into()
            }
            4 => {
                *text = format!("{text}\n{text}");
                "written twice, one a line".into()
            }
            5 => {
                *text = format!("[{text},{text}]");
                "written twice in an array".into()
            }
            _ => {
                *text = text.replace('\n', "\r\n");
                "CRLF line ends".into()
            }
        };
        self.log.push(what);
    }

    /// The compressed form, itself perhaps damaged (when `damage`).
    fn link(&mut self, json: &str, damage: bool) -> String {
        let mut s = fpuzzles::compress(json);
        match if damage { self.rng.below(6) } else { 6 } {
            0 => {
                let i = self.rng.below(s.len());
                let c = *self.pick(&['A', 'z', '+', '/', '=', '%', '~', 'é']);
                s.replace_range(i..i + 1, &c.to_string());
                self.log.push(format!("compressed: {c:?} at {i}"));
            }
            1 => {
                let i = self.rng.below(s.len() + 1);
                s.truncate(i);
                self.log.push(format!("compressed: cut at {i}"));
            }
            2 => {
                // Base64 after the f-puzzles prefix: decodes to garbage.
                let alphabet: Vec<char> =
                    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
                        .chars()
                        .collect();
                let len = 1 + self.rng.below(200);
                let tail: String = (0..len).map(|_| *self.pick(&alphabet)).collect();
                s = format!("N4Ig{tail}");
                self.log.push(format!("compressed: random base64 of {len}"));
            }
            _ => {}
        }
        if self.chance(2) {
            s = format!("https://www.f-puzzles.com/?load={s}");
        }
        s
    }
}

/// A number written as a string (`"12"`), as f-puzzles writes its rules' numbers.
fn numeric_string(v: &J) -> bool {
    v.as_str().is_some_and(|s| s.parse::<i64>().is_ok())
}

/// A cell of either form: `"R1C2"` or `[1, 2]`.
fn is_cell(v: &J) -> bool {
    match v {
        J::String(s) => is_cell_name(s),
        J::Array(items) => items.len() == 2 && items.iter().all(J::is_u64),
        _ => false,
    }
}

/// The side a document states (`size`, or the rows of its `board`), 9 when it states none.
fn side_of(doc: &J) -> usize {
    let n = doc["size"]
        .as_u64()
        .map(|n| n as usize)
        .or_else(|| doc["board"].as_array().map(Vec::len))
        .unwrap_or(9);
    n.clamp(1, 64)
}

fn is_cell_name(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 4 && (b[0] == b'R' || b[0] == b'r') && s[1..].contains(['C', 'c'])
}

fn json_escape(s: &str) -> String {
    let quoted = J::String(s.to_string()).to_string();
    quoted[1..quoted.len() - 1].to_string()
}

/// Case `case` of a run seeded `run_seed`: a seed document, changed (see the module docs).
/// Depends on nothing but the seeds, `run_seed` and `case`.
pub fn mutate(seeds: &[Seed], run_seed: u64, case: u64) -> Document {
    let mut m = Mutation {
        rng: GenRng::seed(case_seed(run_seed, case)),
        seeds,
        raw: vec![],
        log: vec![],
    };
    if seeds.is_empty() {
        return Document {
            case,
            seed: String::new(),
            form: Form::Object,
            mutations: vec![],
            text: String::new(),
        };
    }
    let seed = m.pick(seeds);
    let mut doc = seed.doc.clone();
    let n = side_of(&doc);
    // Half the cases only nudge the rules' numbers and cells, which a document often still
    // reads with; the others change anything, and often break the document.
    let gentle = m.chance(2);
    let changes = *m.pick(&[1, 1, 1, 2, 2, 3, 4]);
    for _ in 0..changes {
        if gentle {
            m.nudge(&mut doc, n);
        } else {
            m.change(&mut doc);
        }
    }
    let mut text = m.write(&doc);
    if !gentle && m.chance(6) {
        m.change_text(&mut text);
    }
    let form = if seed.form == Form::Fpuzzles && m.chance(3) {
        text = m.link(&text, !gentle);
        Form::Link
    } else {
        seed.form
    };
    Document {
        case,
        seed: seed.name.clone(),
        form,
        mutations: m.log,
        text,
    }
}

// ---------------------------------------------------------------------------------------------
// Running a case

/// What makes a case fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FaultKind {
    /// A panic in the reader, or in a backend (caught).
    Panic,
    /// Neither read nor answered by [`HANG_GRACE`] past the case's deadline.
    Hang,
    /// Backends disagree, the checker rejects an answer, or a solver fails.
    WrongAnswer,
    /// An input error without a message, or whose line and column are not in the text.
    SilentError,
}

impl FaultKind {
    pub const ALL: [FaultKind; 4] = [
        FaultKind::Panic,
        FaultKind::Hang,
        FaultKind::WrongAnswer,
        FaultKind::SilentError,
    ];
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Panic => "panic",
            FaultKind::Hang => "hang",
            FaultKind::WrongAnswer => "wrong answer",
            FaultKind::SilentError => "silent input error",
        }
    }
}

/// One fault of a case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    /// What happened: the panic's message and place, the verdict, the error.
    pub what: String,
}

impl Fault {
    /// What two documents showing the same fault have in common: the kind and the message with
    /// its numbers and quoted parts left out (`panic: attempt to add with overflow at
    /// src/model.rs:#:#`).
    pub fn signature(&self) -> String {
        let mut s = String::new();
        let mut quoted = false;
        for c in self.what.chars() {
            match c {
                '"' => {
                    quoted = !quoted;
                    s.push('"');
                }
                _ if quoted => {}
                '0'..='9' => {
                    if !s.ends_with('#') {
                        s.push('#');
                    }
                }
                c => s.push(c),
            }
        }
        format!("{}: {s}", self.kind.name())
    }
}

/// What happened to one document.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CaseReport {
    /// Puzzles read (answered or not).
    pub puzzles: usize,
    /// Input errors (each with a message and a position; the others are faults).
    pub input_errors: usize,
    /// Backend answers that ran out of time (not faults).
    pub timeouts: usize,
    /// Backend answers refused (a backend that cannot take a rule: not faults).
    pub refusals: usize,
    pub faults: Vec<Fault>,
}

/// The reader a case uses: [`read_document`] unless a test plants another.
pub type Reader = fn(&str) -> Vec<Result<Entry, ParseError>>;

/// The text read as the command line reads a file: the format detected, every puzzle.
pub fn read_document(text: &str) -> Vec<Result<Entry, ParseError>> {
    format::read_puzzles(text, &ReadOptions::default())
}

/// How to run a case.
#[derive(Clone)]
pub struct CaseOptions {
    pub backends: Arc<Vec<Box<dyn Backend>>>,
    /// `count` with a small limit, usually ([`HOSTILE_COUNT_LIMIT`]).
    pub task: Task,
    /// Reading and answering end by then, after the case starts.
    pub deadline: Duration,
    /// Past the deadline by this much, the case is a hang.
    pub grace: Duration,
    pub reader: Reader,
}

impl CaseOptions {
    pub fn new(backends: Arc<Vec<Box<dyn Backend>>>, deadline: Duration) -> CaseOptions {
        CaseOptions {
            backends,
            task: Task::Count {
                limit: HOSTILE_COUNT_LIMIT,
            },
            deadline,
            grace: HANG_GRACE,
            reader: read_document,
        }
    }
}

thread_local! {
    /// Where the last panic on this thread was raised, kept by [`record_panic_places`]' hook.
    static PANIC_PLACE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Makes panics on the threads of hostile cases quiet, their place kept for the fault's
/// message; panics elsewhere go to the hook there was before. For a campaign's command: the
/// default hook would print each caught panic over the progress bar.
pub fn record_panic_places() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let on_case = std::thread::current()
            .name()
            .is_some_and(|n| n.starts_with(CASE_THREAD));
        if on_case {
            let place = info
                .location()
                .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
            PANIC_PLACE.with(|p| *p.borrow_mut() = place);
        } else {
            previous(info);
        }
    }));
}

/// The name of a case's thread starts with this (a stack overflow names it when it aborts).
pub const CASE_THREAD: &str = "hostile case";

/// Reads `text` and answers its puzzles under a watchdog (see the module docs). Never panics and
/// never blocks much past `opts.deadline + opts.grace`: a case still running then is left behind
/// on its thread and reported as a [`FaultKind::Hang`].
pub fn run_case(text: &str, case: u64, opts: &CaseOptions) -> CaseReport {
    let (send, receive) = mpsc::channel();
    let text: Arc<str> = Arc::from(text);
    let job_opts = opts.clone();
    let started = Instant::now();
    let spawned = std::thread::Builder::new()
        .name(format!("{CASE_THREAD} {case}"))
        .spawn(move || {
            let until = started + job_opts.deadline;
            let report = catch_unwind(AssertUnwindSafe(|| examine(&text, &job_opts, until)))
                .unwrap_or_else(|payload| CaseReport {
                    faults: vec![Fault {
                        kind: FaultKind::Panic,
                        what: panic_text(crate::isolate::panic_message(payload.as_ref())),
                    }],
                    ..CaseReport::default()
                });
            let _ = send.send(report);
        });
    if let Err(e) = spawned {
        return CaseReport {
            faults: vec![Fault {
                kind: FaultKind::Hang,
                what: format!("no thread for the case: {e}"),
            }],
            ..CaseReport::default()
        };
    }
    let wait = opts.deadline + opts.grace;
    match receive.recv_timeout(wait) {
        Ok(report) => report,
        Err(_) => CaseReport {
            faults: vec![Fault {
                kind: FaultKind::Hang,
                what: format!(
                    "still reading or answering {:.1} s after the case began (deadline {:.1} s)",
                    wait.as_secs_f64(),
                    opts.deadline.as_secs_f64()
                ),
            }],
            ..CaseReport::default()
        },
    }
}

/// A panic's message with the place the hook kept, if any.
fn panic_text(message: String) -> String {
    match PANIC_PLACE.with(|p| p.borrow_mut().take()) {
        Some(place) => format!("{message} (at {place})"),
        None => message,
    }
}

/// The case's work, on its thread.
fn examine(text: &str, opts: &CaseOptions, until: Instant) -> CaseReport {
    let mut report = CaseReport::default();
    let entries = (opts.reader)(text);
    if entries.is_empty() && has_content(text) {
        report.faults.push(Fault {
            kind: FaultKind::SilentError,
            what: "read no puzzle and reported no error".into(),
        });
    }
    let mut answered = 0;
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                match unhelpful(text, &e) {
                    Some(why) => report.faults.push(Fault {
                        kind: FaultKind::SilentError,
                        what: format!("{why}: {e}"),
                    }),
                    None => report.input_errors += 1,
                }
                continue;
            }
        };
        report.puzzles += 1;
        if answered == MAX_PUZZLES_PER_DOCUMENT {
            continue;
        }
        answered += 1;
        let runs = xcheck::run_all(&opts.backends, &entry.puzzle, opts.task, None, Some(until));
        report.timeouts += runs.iter().filter(|r| r.timed_out()).count();
        report.refusals += runs.iter().filter(|r| r.refused()).count();
        let verdict = xcheck::verdict(opts.task, &runs, None);
        if verdict != Verdict::Agreed {
            report.faults.push(answer_fault(&entry, &runs, &verdict));
        }
    }
    report
}

/// A backend's panic comes back from [`crate::task::run`] as a failure that says so.
fn answer_fault(entry: &Entry, runs: &[BackendRun], verdict: &Verdict) -> Fault {
    let panicked = runs.iter().any(|r| {
        r.result
            .as_ref()
            .is_err_and(|e| e.to_string().contains(" panicked on this puzzle"))
    });
    let said: Vec<String> = runs
        .iter()
        .map(|r| format!("{} said {}", r.backend, r.said()))
        .collect();
    let kind = if panicked {
        FaultKind::Panic
    } else {
        FaultKind::WrongAnswer
    };
    let what = format!(
        "puzzle of line {}: {verdict} ({})",
        entry.line,
        said.join(", ")
    );
    Fault {
        kind,
        what: panic_text(what),
    }
}

/// Text other than whitespace and comment lines.
fn has_content(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
        !t.is_empty() && !t.starts_with('#')
    })
}

/// Why an input error would not help its reader: no message, or a position not in the text.
fn unhelpful(text: &str, e: &ParseError) -> Option<&'static str> {
    if e.message.trim().is_empty() {
        return Some("input error without a message");
    }
    if e.line == 0 || e.col == 0 {
        return Some("input error without a position");
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().collect();
    // The line after the last is where the end of the text is.
    let Some(line) = lines.get(e.line - 1).or(if e.line == lines.len() + 1 {
        Some(&"")
    } else {
        None
    }) else {
        return Some("input error on a line past the end of the text");
    };
    if e.col > line.chars().count() + 1 {
        return Some("input error at a column past the end of its line");
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Shrinking

/// The smallest document found that shows a fault of `signature` ([`Fault::signature`]), and
/// the cases tried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shrunk {
    pub text: String,
    pub trials: usize,
}

/// Cuts `text` down while `shows(candidate)` holds (pass a closure running [`run_case`] and
/// comparing signatures): removes object keys and array items, replaces values by `0`, `""`,
/// `[]` or `{}`, on the JSON tree, to a fixed point or `max_trials` candidates. A compressed
/// link is first replaced by its JSON when that shows the fault; text that is not JSON is
/// returned as it is.
pub fn shrink(text: &str, max_trials: usize, mut shows: impl FnMut(&str) -> bool) -> Shrunk {
    let mut trials = 0;
    let mut try_text = |t: &str, trials: &mut usize| {
        *trials += 1;
        shows(t)
    };
    let mut best = text.to_string();
    if let Ok(json) = fpuzzles::decompress(text) {
        if !text.trim_start().starts_with('{') && try_text(&json, &mut trials) {
            best = json;
        }
    }
    let Ok(mut doc) = serde_json::from_str::<J>(&best) else {
        return Shrunk { text: best, trials };
    };
    // Markers and duplicate keys do not survive a parse: the parsed text must show it too.
    let written = doc.to_string();
    if written != best {
        if !try_text(&written, &mut trials) {
            return Shrunk { text: best, trials };
        }
        best = written;
    }
    let mut changed = true;
    while changed && trials < max_trials {
        changed = false;
        let mut all = vec![];
        paths(&doc, &mut vec![], &mut all);
        // Parents before their children: removing a parent first saves trials.
        for path in all.iter().skip(1) {
            if trials >= max_trials {
                break;
            }
            for candidate in smaller(&doc, path) {
                let t = candidate.to_string();
                if t.len() < best.len() && try_text(&t, &mut trials) {
                    doc = candidate;
                    best = t;
                    changed = true;
                    break;
                }
            }
            if changed {
                break;
            }
        }
    }
    Shrunk { text: best, trials }
}

/// `doc` with the node at `path` removed, or replaced by a smaller value.
fn smaller(doc: &J, path: &[Step]) -> Vec<J> {
    let mut out = vec![];
    let Some((last, parent_path)) = path.split_last() else {
        return out;
    };
    let mut removed = doc.clone();
    if let Some(parent) = node_mut(&mut removed, parent_path) {
        match (parent, last) {
            (J::Object(map), Step::Key(k)) => {
                map.shift_remove(k);
                out.push(removed);
            }
            (J::Array(items), Step::Index(i)) if *i < items.len() => {
                items.remove(*i);
                out.push(removed);
            }
            _ => {}
        }
    }
    for simple in [J::from(0), J::String(String::new()), J::Array(vec![])] {
        let mut replaced = doc.clone();
        if let Some(node) = node_mut(&mut replaced, path) {
            if node.to_string().len() > simple.to_string().len() {
                *node = simple;
                out.push(replaced);
            }
        }
    }
    out
}
