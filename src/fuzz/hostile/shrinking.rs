//! Minimal documents: a document that shows a fault cut down while the fault stays the same.

use serde_json::Value as J;

use crate::format::fpuzzles;

use super::tree::{node_mut, paths, Step};

/// The smallest document found that shows a fault of `signature` ([`super::Fault::signature`]), and
/// the cases tried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shrunk {
    pub text: String,
    pub trials: usize,
}

/// Cuts `text` down while `shows(candidate)` holds (pass a closure running [`super::run_case`] and
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
