//! `sudoku-lab report`: the JSON outputs of a campaign's shards merged into the rows of one run.
//!
//! Two kinds of input, told apart by their first character:
//!
//! * `bench --json` files (a JSON array of rows, each with its per-puzzle `samples`): rows with
//!   the same file, backend and task are one row again, over the union of their samples;
//! * `xcheck --json` output (JSON Lines, one record per puzzle with each backend's `status` and
//!   `time_ns`): one row per backend over every record, as `xcheck` prints them, and the totals
//!   of its summary line.
//!
//! Medians, percentiles and totals are computed from the merged per-puzzle times (nanoseconds),
//! and the effort columns from the merged per-puzzle efforts (a sample's `effort`, when its
//! backend measured any), so they are exactly those of one run with the same times. A puzzle that two inputs both hold
//! (the same shard given twice, overlapping shards) is an error: the merge would count it twice.

use std::collections::{HashMap, HashSet};

use serde::Deserialize;

use super::{BenchRow, JsonRow, Outcome, Sample};
use crate::counted::counted;
use crate::effort::Effort;

/// What the inputs add up to.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    /// One row per (file, backend, task), in the order they first appear.
    pub rows: Vec<BenchRow>,
    /// For `xcheck` outputs: the totals of its summary line.
    pub xcheck: Option<XcheckTotals>,
}

/// The summary line of `xcheck`, recomputed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XcheckTotals {
    pub task: String,
    pub puzzles: usize,
    pub disagreements: usize,
    pub failures: usize,
    pub refusals: usize,
}

impl std::fmt::Display for XcheckTotals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}, task {}: {}, {}, {}",
            counted(self.puzzles, "puzzle"),
            self.task,
            counted(self.disagreements, "disagreement"),
            counted(self.failures, "failure"),
            counted(self.refusals, "refusal")
        )
    }
}

/// One record of `xcheck --json`.
#[derive(Deserialize)]
struct XcheckRecord {
    index: usize,
    file: String,
    task: String,
    verdict: String,
    results: Vec<XcheckResult>,
}

#[derive(Deserialize)]
struct XcheckResult {
    backend: String,
    status: String,
    time_ns: u64,
    #[serde(default)]
    effort: Effort,
}

/// Samples gathered per (file, backend, task), in order of first appearance.
#[derive(Default)]
struct Groups {
    order: Vec<(String, String, String)>,
    samples: HashMap<(String, String, String), Vec<Sample>>,
}

impl Groups {
    fn add(&mut self, key: (String, String, String), sample: Sample) {
        let entry = self.samples.entry(key.clone()).or_insert_with(|| {
            self.order.push(key);
            Vec::new()
        });
        entry.push(sample);
    }
    fn rows(mut self) -> Vec<BenchRow> {
        self.order
            .into_iter()
            .map(|key| {
                let mut samples = self.samples.remove(&key).unwrap_or_default();
                samples.sort_by_key(|s| s.index);
                let (file, backend, task) = key;
                BenchRow::from_indexed(file, backend, task, &samples)
            })
            .collect()
    }
}

/// Merges `inputs` (`(name, text)`: a name for messages and the file's text). Errors name the
/// input (and the line, for JSON Lines).
pub fn merge(inputs: &[(String, String)]) -> Result<Merged, String> {
    let is_bench = |text: &str| text.trim_start().starts_with('[');
    let Some((first, _)) = inputs.first() else {
        return Err("no input".into());
    };
    let bench = is_bench(&inputs[0].1);
    if let Some((name, _)) = inputs.iter().find(|(_, t)| is_bench(t) != bench) {
        return Err(format!(
            "{name}: {} output among {} outputs (like {first}): merge one kind at a time",
            if bench {
                "an xcheck --json"
            } else {
                "a bench --json"
            },
            if bench {
                "bench --json"
            } else {
                "xcheck --json"
            },
        ));
    }
    if bench {
        merge_bench(inputs)
    } else {
        merge_xcheck(inputs)
    }
}

/// `name:line:column: what: why` for the error `e` of serde_json in `text`, whose first line is
/// line `first_line` of the input `name`; the column counted in characters, as every message of
/// the lab counts it (serde_json counts bytes).
fn json_error(
    name: &str,
    text: &str,
    first_line: usize,
    what: &str,
    e: &serde_json::Error,
) -> String {
    let row = e.line().max(1);
    let col = text.lines().nth(row - 1).map_or(e.column(), |l| {
        l.char_indices()
            .take_while(|&(i, _)| i < e.column())
            .count()
    });
    let why = e.to_string();
    let why = why
        .rsplit_once(" at line ")
        .map_or(why.as_str(), |(w, _)| w);
    format!(
        "{name}:{}:{}: {what}: {why}",
        first_line + row - 1,
        col.max(1)
    )
}

fn merge_bench(inputs: &[(String, String)]) -> Result<Merged, String> {
    let mut groups = Groups::default();
    let mut seen = HashSet::new();
    // Puzzles each shard's row left unrun (a budget): they add up.
    let mut not_run: HashMap<(String, String, String), usize> = HashMap::new();
    for (name, text) in inputs {
        let rows: Vec<JsonRow> = serde_json::from_str(text)
            .map_err(|e| json_error(name, text, 1, "not a bench --json file", &e))?;
        for (i, row) in rows.into_iter().enumerate() {
            let r = row.record;
            if row.samples.len() != r.puzzles {
                return Err(format!(
                    "{name}: row {} ({} on {}) has {} samples for {} puzzles: written by an older \
                     sudoku-lab? Run bench again.",
                    i + 1,
                    r.backend,
                    r.file,
                    row.samples.len(),
                    r.puzzles
                ));
            }
            let key = (r.file, r.backend, r.task);
            *not_run.entry(key.clone()).or_default() += r.not_run;
            for s in row.samples {
                if !seen.insert((key.clone(), s.index)) {
                    return Err(format!(
                        "{name}: puzzle {} of {} for {} is in another input too (a shard given \
                         twice?)",
                        s.index, key.0, key.1
                    ));
                }
                groups.add(key.clone(), s);
            }
        }
    }
    let mut rows = groups.rows();
    for r in &mut rows {
        let r = &mut r.record;
        let key = (r.file.clone(), r.backend.clone(), r.task.clone());
        r.not_run = not_run.get(&key).copied().unwrap_or(0);
    }
    Ok(Merged { rows, xcheck: None })
}

fn merge_xcheck(inputs: &[(String, String)]) -> Result<Merged, String> {
    let mut groups = Groups::default();
    let mut seen = HashSet::new();
    let mut totals: Option<XcheckTotals> = None;
    for (name, text) in inputs {
        for (i, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let at = format!("{name}:{}:1", i + 1);
            let rec: XcheckRecord = serde_json::from_str(line)
                .map_err(|e| json_error(name, line, i + 1, "not an xcheck --json record", &e))?;
            if !seen.insert((rec.file.clone(), rec.index)) {
                return Err(format!(
                    "{at}: puzzle {} ({}) is in another input too (a shard given twice?)",
                    rec.index, rec.file
                ));
            }
            let t = totals.get_or_insert_with(|| XcheckTotals {
                task: rec.task.clone(),
                puzzles: 0,
                disagreements: 0,
                failures: 0,
                refusals: 0,
            });
            if t.task != rec.task {
                return Err(format!(
                    "{at}: task {} among records of task {}",
                    rec.task, t.task
                ));
            }
            t.puzzles += 1;
            match rec.verdict.as_str() {
                "agreed" => {}
                "disagreement" => t.disagreements += 1,
                "failure" => t.failures += 1,
                other => return Err(format!("{at}: unknown verdict '{other}'")),
            }
            for r in rec.results {
                // As xcheck tallies them: an answer agrees only when every backend agreed.
                let outcome = match r.status.as_str() {
                    "timeout" => Outcome::TimedOut,
                    "refused" => {
                        t.refusals += 1;
                        Outcome::Refused
                    }
                    "error" => Outcome::Failed,
                    _ if rec.verdict == "agreed" => Outcome::Agreed,
                    _ => Outcome::Disagreed,
                };
                let sample = Sample {
                    index: rec.index,
                    outcome,
                    time_ns: r.time_ns,
                    effort: r.effort,
                };
                groups.add(("all".into(), r.backend, rec.task.clone()), sample);
            }
        }
    }
    Ok(Merged {
        rows: groups.rows(),
        xcheck: totals,
    })
}
