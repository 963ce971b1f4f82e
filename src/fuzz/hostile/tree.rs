//! Paths into a JSON tree, for the changes of [`super::mutate`] and the cuts of
//! [`super::shrink`].

use serde_json::Value as J;

/// A step of a path into a JSON tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Step {
    Key(String),
    Index(usize),
}

/// `$.rules[2].cells`.
pub(super) fn show_path(path: &[Step]) -> String {
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
pub(super) fn paths(v: &J, here: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
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

pub(super) fn node<'a>(v: &'a J, path: &[Step]) -> Option<&'a J> {
    path.iter().try_fold(v, |v, step| match (step, v) {
        (Step::Key(k), J::Object(map)) => map.get(k),
        (Step::Index(i), J::Array(items)) => items.get(*i),
        _ => None,
    })
}

pub(super) fn node_mut<'a>(v: &'a mut J, path: &[Step]) -> Option<&'a mut J> {
    path.iter().try_fold(v, |v, step| match (step, v) {
        (Step::Key(k), J::Object(map)) => map.get_mut(k),
        (Step::Index(i), J::Array(items)) => items.get_mut(*i),
        _ => None,
    })
}
