//! `sudoku-lab report`: the JSON outputs of a campaign's shards merged into the rows of one run.
//!
//! Two kinds of input, told apart by their first character:
//!
//! * `bench --json` files (a JSON array of rows, each with its per-puzzle `samples`): rows with
//!   the same file, backend and task are one row again, over the union of their samples;
//! * `xcheck --json` output (JSON Lines, one record per puzzle with each backend's `status` and
//!   `time_ns`): one row per backend over every record, as `xcheck` prints them, and the totals
//!   of its summary line (a puzzle that could not be read, verdict `invalid`, is in neither).
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

/// Why the inputs cannot be merged; each names its input (and, for JSON Lines, the line).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    #[error("no input")]
    NoInput,
    /// `odd`: the kind of `name`, with its article; `kind`: the kind of `first`.
    #[error("{name}: {odd} output among {kind} outputs (like {first}): merge one kind at a time")]
    MixedKinds {
        name: String,
        first: String,
        odd: &'static str,
        kind: &'static str,
    },
    /// `line` and `col` from 1.
    #[error("{name}:{line}:{col}: not a bench --json file: {error}")]
    NotBench {
        name: String,
        line: usize,
        col: usize,
        error: String,
    },
    /// `row` from 1.
    #[error(
        "{name}: row {row} ({backend} on {file}) has {samples} samples for {puzzles} puzzles: \
         written by an older sudoku-lab? Run bench again."
    )]
    OldRow {
        name: String,
        row: usize,
        backend: String,
        file: String,
        samples: usize,
        puzzles: usize,
    },
    #[error(
        "{name}: puzzle {index} of {file} for {backend} is in another input too (a shard given \
         twice?)"
    )]
    BenchTwice {
        name: String,
        index: usize,
        file: String,
        backend: String,
    },
    /// A record of `xcheck --json` (`line` and `col` from 1).
    #[error("{name}:{line}:{col}: {problem}")]
    Line {
        name: String,
        line: usize,
        col: usize,
        problem: RecordProblem,
    },
}

/// What is wrong with one record of `xcheck --json`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordProblem {
    #[error("not an xcheck --json record: {0}")]
    NotXcheck(String),
    #[error("puzzle {index} ({file}) is in another input too (a shard given twice?)")]
    Twice { index: usize, file: String },
    #[error("task {task} among records of task {expected}")]
    MixedTasks { task: String, expected: String },
    #[error("unknown verdict '{0}'")]
    UnknownVerdict(String),
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
pub fn merge(inputs: &[(String, String)]) -> Result<Merged, MergeError> {
    let is_bench = |text: &str| text.trim_start().starts_with('[');
    let Some((first, _)) = inputs.first() else {
        return Err(MergeError::NoInput);
    };
    let bench = is_bench(&inputs[0].1);
    if let Some((name, _)) = inputs.iter().find(|(_, t)| is_bench(t) != bench) {
        return Err(MergeError::MixedKinds {
            name: name.clone(),
            first: first.clone(),
            odd: if bench {
                "an xcheck --json"
            } else {
                "a bench --json"
            },
            kind: if bench {
                "bench --json"
            } else {
                "xcheck --json"
            },
        });
    }
    if bench {
        merge_bench(inputs)
    } else {
        merge_xcheck(inputs)
    }
}

/// The line and column (from 1, the column counted in characters, as every message of the lab
/// counts it; serde_json counts bytes) of the error `e` of serde_json in `text`, whose first line
/// is line `first_line` of its input, and the error without serde_json's own position.
fn json_error(text: &str, first_line: usize, e: &serde_json::Error) -> (usize, usize, String) {
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
    (first_line + row - 1, col.max(1), why.to_string())
}

fn merge_bench(inputs: &[(String, String)]) -> Result<Merged, MergeError> {
    let mut groups = Groups::default();
    let mut seen = HashSet::new();
    // Puzzles each shard's row left unrun (a budget): they add up.
    let mut not_run: HashMap<(String, String, String), usize> = HashMap::new();
    for (name, text) in inputs {
        let rows: Vec<JsonRow> = serde_json::from_str(text).map_err(|e| {
            let (line, col, error) = json_error(text, 1, &e);
            MergeError::NotBench {
                name: name.clone(),
                line,
                col,
                error,
            }
        })?;
        for (i, row) in rows.into_iter().enumerate() {
            let r = row.record;
            if row.samples.len() != r.puzzles {
                return Err(MergeError::OldRow {
                    name: name.clone(),
                    row: i + 1,
                    backend: r.backend,
                    file: r.file,
                    samples: row.samples.len(),
                    puzzles: r.puzzles,
                });
            }
            let key = (r.file, r.backend, r.task);
            *not_run.entry(key.clone()).or_default() += r.not_run;
            for s in row.samples {
                if !seen.insert((key.clone(), s.index)) {
                    return Err(MergeError::BenchTwice {
                        name: name.clone(),
                        index: s.index,
                        file: key.0,
                        backend: key.1,
                    });
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

fn merge_xcheck(inputs: &[(String, String)]) -> Result<Merged, MergeError> {
    let mut groups = Groups::default();
    let mut seen = HashSet::new();
    let mut totals: Option<XcheckTotals> = None;
    for (name, text) in inputs {
        for (i, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let at = |col, problem| MergeError::Line {
                name: name.clone(),
                line: i + 1,
                col,
                problem,
            };
            let rec: XcheckRecord = serde_json::from_str(line).map_err(|e| {
                let (_, col, error) = json_error(line, i + 1, &e);
                at(col, RecordProblem::NotXcheck(error))
            })?;
            if !seen.insert((rec.file.clone(), rec.index)) {
                return Err(at(
                    1,
                    RecordProblem::Twice {
                        index: rec.index,
                        file: rec.file,
                    },
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
                return Err(at(
                    1,
                    RecordProblem::MixedTasks {
                        task: rec.task,
                        expected: t.task.clone(),
                    },
                ));
            }
            match rec.verdict.as_str() {
                "agreed" => {}
                "disagreement" => t.disagreements += 1,
                "failure" => t.failures += 1,
                // A puzzle that could not be read: no backend answered it, and xcheck's totals
                // leave it out.
                "invalid" => continue,
                other => return Err(at(1, RecordProblem::UnknownVerdict(other.into()))),
            }
            t.puzzles += 1;
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
