//! Mutated documents: case `i` of a run is one seed document and one to four changes of its
//! JSON tree, then now and then of its text ([`mutate`], see the module docs of
//! [`super`]).

use serde_json::{Map, Value as J};

use crate::format::fpuzzles;
use crate::fuzz::case_seed;
use crate::rng::GenRng;

use super::seeding::{Form, Seed};
use super::tree::{node, node_mut, paths, show_path, Step};

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
