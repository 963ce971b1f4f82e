//! Timing statistics and benchmark reports: [`Stats`] summarises per-puzzle times (nearest-rank
//! percentiles), [`BenchRow`] is one (file, backend, task) line of a `bench` or `xcheck` summary,
//! written as an aligned text table ([`write_table`]), CSV ([`write_csv`]) or JSON ([`write_json`]),
//! and [`plot_svg`] draws per-backend time distributions on a log scale, one panel per file.
//!
//! Nothing here runs solvers: callers time the puzzles and hand over durations.
//!
//! ```
//! use std::time::Duration;
//! use sudoku_lab::report::{self, BenchRow, Outcome, Stats};
//!
//! let ms = Duration::from_millis;
//! let s = Stats::from_durations(&[ms(4), ms(1), ms(3), ms(2)]);
//! assert_eq!((s.median, s.p90, s.max), (ms(2), ms(4), ms(4))); // nearest rank
//!
//! let samples = [(Outcome::Answered, ms(2)), (Outcome::TimedOut, ms(10))];
//! let row = BenchRow::from_samples("easy.txt", "dfs", "solve", &samples);
//! assert_eq!((row.record.answered, row.record.timed_out), (1, 1));
//! let mut table = Vec::new();
//! report::write_table(&[row], &mut table).unwrap();
//! assert!(String::from_utf8(table).unwrap().starts_with("file"));
//! ```
//! A row also summarises the search effort the backends reported for its puzzles
//! ([`Sample::effort`]): tdoku's `%no_guess` and guesses per puzzle, and the mean of every
//! counter of [`crate::effort`] (see [`RowRecord`]), empty where nothing was measured.
//!
//! [`merge()`] puts the JSON outputs of the shards of a campaign (`bench --json`, `xcheck --json`)
//! back together into the rows one run would have given: the figures are recomputed from every
//! puzzle's time, never averaged from the shards' summaries.
//!
//! [`logic`] holds the records of the logic engine's commands (`explain --json`, `grade`);
//! [`html`] writes the page of `explain --html`, to step through a solve in a browser.
//!
//! The SVG is written by plotters' pure-Rust SVG backend (no font files or system libraries: text
//! becomes `<text>` elements rendered by the viewer).

use std::io::Write;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::effort::Effort;

/// Why a report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
    #[error("csv error: {0}")]
    Csv(#[from] csv::Error),
    #[error("json error: {0}")]
    Json(#[from] serde_json::Error),
    /// The plotting library failed (for the SVG backend: writing the file).
    #[error("plot error: {0}")]
    Plot(String),
    /// There is nothing to plot: no series, or no finite times in any series.
    #[error("no timings to plot")]
    NoData,
}

/// Index into a sorted sample of `n > 0` values of the nearest-rank `pct`-th percentile: the
/// smallest value such that at least `pct`% of the sample is less than or equal to it, i.e. the
/// value of rank `ceil(pct/100 · n)` (1-based), clamped to `1..=n`. `pct = 0` gives the minimum,
/// `pct = 100` the maximum, `pct = 50` the lower median.
fn nearest_rank_index(n: usize, pct: u32) -> usize {
    debug_assert!(n > 0);
    let rank = (pct.min(100) as usize * n).div_ceil(100);
    rank.clamp(1, n) - 1
}

/// The nearest-rank `pct`-th percentile (see [`Stats`]) of an already sorted slice; `None` when
/// it is empty.
pub fn percentile<T: Copy>(sorted: &[T], pct: u32) -> Option<T> {
    (!sorted.is_empty()).then(|| sorted[nearest_rank_index(sorted.len(), pct)])
}

/// Summary of a set of per-puzzle times.
///
/// Percentiles use the nearest-rank definition: the `p`-th percentile of `n` sorted values is the
/// value of 1-based rank `ceil(p/100 · n)` (clamped to `1..=n`). It is always one of the measured
/// values; `median` is the 50th percentile, i.e. the lower middle value for even `n`
/// (`[1,2,3,4]` → 2), and `p90` of ten values is the 9th smallest. For an empty input every field
/// is zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    pub count: usize,
    pub total: Duration,
    pub median: Duration,
    pub p90: Duration,
    pub max: Duration,
    pub min: Duration,
    /// `total / count`, rounded down to the nanosecond.
    pub mean: Duration,
}

impl Stats {
    pub fn from_durations(times: &[Duration]) -> Stats {
        if times.is_empty() {
            return Stats::default();
        }
        let mut sorted = times.to_vec();
        sorted.sort_unstable();
        let total = sorted
            .iter()
            .fold(Duration::ZERO, |acc, &t| acc.saturating_add(t));
        let mean_ns = total.as_nanos() / sorted.len() as u128;
        let pct = |p| sorted[nearest_rank_index(sorted.len(), p)];
        Stats {
            count: sorted.len(),
            total,
            median: pct(50),
            p90: pct(90),
            max: sorted[sorted.len() - 1],
            min: sorted[0],
            mean: Duration::from_nanos(u64::try_from(mean_ns).unwrap_or(u64::MAX)),
        }
    }
}

/// How one timed puzzle ended, for [`BenchRow::from_samples`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// A checked answer (bench: not compared with other backends).
    Answered,
    /// A checked answer that agrees with the other backends (xcheck).
    Agreed,
    /// A checked answer that disagrees with another backend (xcheck): a bug somewhere.
    Disagreed,
    /// The time limit passed first.
    TimedOut,
    /// The backend cannot take this puzzle or task (size, form, missing weights): no answer, and
    /// no sign of a bug either.
    Refused,
    /// Any other error: solver failure, answer rejected by the checker.
    Failed,
}

/// Every outcome with its name in JSON.
const OUTCOME_NAMES: [(Outcome, &str); 6] = [
    (Outcome::Answered, "answered"),
    (Outcome::Agreed, "agreed"),
    (Outcome::Disagreed, "disagreed"),
    (Outcome::TimedOut, "timeout"),
    (Outcome::Refused, "refused"),
    (Outcome::Failed, "failed"),
];

impl Outcome {
    /// Its name in the `samples` of `bench --json`.
    pub fn name(self) -> &'static str {
        OUTCOME_NAMES
            .iter()
            .find(|(o, _)| *o == self)
            .map_or("?", |&(_, n)| n)
    }
    /// The outcome of a name given by [`Outcome::name`].
    pub fn from_name(name: &str) -> Option<Outcome> {
        OUTCOME_NAMES
            .iter()
            .find(|(_, n)| *n == name)
            .map(|&(o, _)| o)
    }
    /// A checked answer came back (whether or not it agreed with the other backends).
    pub fn answered(self) -> bool {
        matches!(
            self,
            Outcome::Answered | Outcome::Agreed | Outcome::Disagreed
        )
    }
}

/// One line of a `bench` or `xcheck` summary: how `backend` did on `task` over the puzzles of
/// `file`, as [`RowRecord`] writes it, with the [`Stats`] it was computed from and every
/// puzzle's sample. `stats` covers the durations the caller timed (normally every attempt,
/// timed-out and failed ones included, so `puzzles_per_sec` is the throughput actually seen).
#[derive(Debug, Clone, PartialEq)]
pub struct BenchRow {
    /// The row's names, counts and figures.
    pub record: RowRecord,
    pub stats: Stats,
    /// Every puzzle's outcome and time, so that shards can be merged into exactly the figures of
    /// one run ([`merge()`]).
    pub samples: Vec<Sample>,
}

/// One timed puzzle of a [`BenchRow`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sample {
    /// 1-based position of the puzzle in its input (bench: in its file).
    pub index: usize,
    #[serde(with = "outcome_name")]
    pub outcome: Outcome,
    /// Nanoseconds: the figures are computed from these, so a merge recomputes them exactly.
    pub time_ns: u64,
    /// What the backend's engine did for this puzzle (empty when it measured nothing); the
    /// effort columns of the row are computed from these.
    #[serde(default, skip_serializing_if = "Effort::is_empty")]
    pub effort: Effort,
}

fn timed(samples: &[Sample]) -> Vec<(Outcome, Duration)> {
    samples
        .iter()
        .map(|s| (s.outcome, Duration::from_nanos(s.time_ns)))
        .collect()
}

mod outcome_name {
    use super::Outcome;
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(o: &Outcome, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(o.name())
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Outcome, D::Error> {
        let name = String::deserialize(d)?;
        Outcome::from_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown outcome '{name}'")))
    }
}

impl BenchRow {
    /// [`BenchRow::from_samples`] for puzzles that are not numbered 1, 2, … in order (a shard):
    /// `(index, outcome, time)`.
    pub fn from_indexed(
        file: impl Into<String>,
        backend: impl Into<String>,
        task: impl Into<String>,
        samples: &[Sample],
    ) -> BenchRow {
        let mut row = BenchRow {
            samples: samples.to_vec(),
            ..BenchRow::from_samples(file, backend, task, &timed(samples))
        };
        row.record.set_effort(samples);
        row
    }

    /// Tallies `(outcome, time)` samples. `agreed` is `Some` as soon as one sample is
    /// [`Outcome::Agreed`] or [`Outcome::Disagreed`].
    pub fn from_samples(
        file: impl Into<String>,
        backend: impl Into<String>,
        task: impl Into<String>,
        samples: &[(Outcome, Duration)],
    ) -> BenchRow {
        let count = |f: fn(Outcome) -> bool| samples.iter().filter(|(o, _)| f(*o)).count();
        let cross_checked = samples
            .iter()
            .any(|(o, _)| matches!(o, Outcome::Agreed | Outcome::Disagreed));
        let stats = Stats::from_durations(&samples.iter().map(|&(_, t)| t).collect::<Vec<_>>());
        let answered = count(Outcome::answered);
        let us = |d: Duration| d.as_nanos() as f64 / 1000.0;
        let secs = stats.total.as_secs_f64();
        BenchRow {
            record: RowRecord {
                file: file.into(),
                backend: backend.into(),
                task: task.into(),
                puzzles: samples.len(),
                answered,
                agreed: cross_checked.then(|| count(|o| o == Outcome::Agreed)),
                timed_out: count(|o| o == Outcome::TimedOut),
                refused: count(|o| o == Outcome::Refused),
                failed: count(|o| o == Outcome::Failed),
                // No throughput without an answer: it would only restate the time limit.
                puzzles_per_sec: (stats.count > 0 && secs > 0.0 && answered > 0)
                    .then(|| stats.count as f64 / secs),
                total_s: secs,
                min_us: us(stats.min),
                mean_us: us(stats.mean),
                median_us: us(stats.median),
                p90_us: us(stats.p90),
                max_us: us(stats.max),
                not_run: 0,
                ..RowRecord::default()
            },
            stats,
            samples: samples
                .iter()
                .enumerate()
                .map(|(i, &(outcome, t))| Sample {
                    index: i + 1,
                    outcome,
                    time_ns: u64::try_from(t.as_nanos()).unwrap_or(u64::MAX),
                    effort: Effort::default(),
                })
                .collect(),
        }
    }

    /// The `(outcome, time)` of every puzzle (for [`PlotSeries::from_samples`]).
    pub fn timed(&self) -> Vec<(Outcome, Duration)> {
        timed(&self.samples)
    }

    /// Timed puzzles per second of total time; `None` when nothing was timed, the total is zero,
    /// or no puzzle was answered (a row of time-outs and failures has no throughput to speak of:
    /// its rate would only restate the time limit).
    pub fn puzzles_per_sec(&self) -> Option<f64> {
        self.record.puzzles_per_sec
    }
}

/// A summary row as the CSV and JSON writers write it, and the one place its names, counts and
/// figures are held ([`BenchRow::record`]): times in µs, total in s; `agreed`,
/// `puzzles_per_sec` and the effort columns empty/null when absent.
///
/// The effort columns (after `not_run`) summarise the [`Effort`] of the answered puzzles (time-outs,
/// refusals and failures are left out), each over the answered puzzles whose backend measured
/// what it needs, and are empty, never 0, when none did: `no_guess_pct` is the share of them
/// solved without a guess ([`Effort::no_guess`], tdoku's `%no_guess`), `guesses_per_puzzle` the
/// mean of [`Effort::guesses_or_decisions`] (tdoku's `guesses/puzzle`), and each
/// `COUNTER_per_puzzle` the mean of that counter.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct RowRecord {
    pub file: String,
    pub backend: String,
    pub task: String,
    pub puzzles: usize,
    pub answered: usize,
    pub agreed: Option<usize>,
    pub timed_out: usize,
    pub refused: usize,
    pub failed: usize,
    pub puzzles_per_sec: Option<f64>,
    pub total_s: f64,
    pub min_us: f64,
    pub mean_us: f64,
    pub median_us: f64,
    pub p90_us: f64,
    pub max_us: f64,
    /// Puzzles left unrun when the backend's time budget ran out (0: not cut short); last, so
    /// that the columns before it stay where they were.
    #[serde(default)]
    pub not_run: usize,
    #[serde(default)]
    pub no_guess_pct: Option<f64>,
    #[serde(default)]
    pub guesses_per_puzzle: Option<f64>,
    #[serde(default)]
    pub nodes_per_puzzle: Option<f64>,
    #[serde(default)]
    pub decisions_per_puzzle: Option<f64>,
    #[serde(default)]
    pub conflicts_per_puzzle: Option<f64>,
    #[serde(default)]
    pub propagations_per_puzzle: Option<f64>,
    #[serde(default)]
    pub restarts_per_puzzle: Option<f64>,
    #[serde(default)]
    pub lp_iterations_per_puzzle: Option<f64>,
    #[serde(default)]
    pub bb_nodes_per_puzzle: Option<f64>,
}

impl RowRecord {
    /// The effort columns: their names as the text table heads them, and their values.
    pub fn effort_columns(&self) -> [(&'static str, Option<f64>); 9] {
        [
            ("no guess %", self.no_guess_pct),
            ("guesses/puzzle", self.guesses_per_puzzle),
            ("nodes/puzzle", self.nodes_per_puzzle),
            ("decisions/puzzle", self.decisions_per_puzzle),
            ("conflicts/puzzle", self.conflicts_per_puzzle),
            ("propagations/puzzle", self.propagations_per_puzzle),
            ("restarts/puzzle", self.restarts_per_puzzle),
            ("lp iterations/puzzle", self.lp_iterations_per_puzzle),
            ("bb nodes/puzzle", self.bb_nodes_per_puzzle),
        ]
    }

    /// Computes the effort columns from the answered puzzles among `samples` (see
    /// [`RowRecord`]).
    fn set_effort(&mut self, samples: &[Sample]) {
        let answered: Vec<&Effort> = samples
            .iter()
            .filter(|s| s.outcome.answered())
            .map(|s| &s.effort)
            .collect();
        let mean = |value: &dyn Fn(&Effort) -> Option<f64>| {
            let measured: Vec<f64> = answered.iter().filter_map(|e| value(e)).collect();
            (!measured.is_empty()).then(|| measured.iter().sum::<f64>() / measured.len() as f64)
        };
        let counter = |name: &'static str| mean(&|e: &Effort| e.get(name).map(|v| v as f64));
        self.no_guess_pct = mean(&|e| e.no_guess().map(|n| if n { 100.0 } else { 0.0 }));
        self.guesses_per_puzzle = mean(&|e| e.guesses_or_decisions().map(|v| v as f64));
        self.nodes_per_puzzle = counter("nodes");
        self.decisions_per_puzzle = counter("decisions");
        self.conflicts_per_puzzle = counter("conflicts");
        self.propagations_per_puzzle = counter("propagations");
        self.restarts_per_puzzle = counter("restarts");
        self.lp_iterations_per_puzzle = counter("lp_iterations");
        self.bb_nodes_per_puzzle = counter("bb_nodes");
    }
}

/// A mean of the effort columns, with about three significant digits (`0.61`, `12.3`, `456`).
fn fmt_mean(x: f64) -> String {
    fmt_us_number(x)
}

/// A time in µs with about three significant digits (`0.25`, `12.3`, `456`, `12345`).
fn fmt_us_number(us: f64) -> String {
    if us < 10.0 {
        format!("{us:.2}")
    } else if us < 100.0 {
        format!("{us:.1}")
    } else {
        format!("{us:.0}")
    }
}

/// A time given in µs, human readable with a unit: `250 ns`, `12.3 µs`, `4.56 ms`, `1.23 s`.
pub fn fmt_micros(us: f64) -> String {
    let three = fmt_us_number;
    if us < 1.0 {
        format!("{} ns", three(us * 1000.0))
    } else if us < 1000.0 {
        format!("{} µs", three(us))
    } else if us < 1e6 {
        format!("{} ms", three(us / 1e3))
    } else {
        format!("{} s", three(us / 1e6))
    }
}

/// Writes `rows` as an aligned plain-text table: text columns left-aligned, numbers
/// right-aligned, times in µs per puzzle. The `agreed` column appears when some row has it; each
/// effort column ([`RowRecord::effort_columns`]) when some row has a figure for it (`-` where a
/// row has none); the `cut short` column (puzzles left unrun when the backend's budget ran out),
/// last, when some row was.
pub fn write_table(rows: &[BenchRow], out: &mut impl Write) -> Result<(), ReportError> {
    let with_agreed = rows.iter().any(|r| r.record.agreed.is_some());
    let with_cut = rows.iter().any(|r| r.record.not_run > 0);
    // The effort columns some row has a figure for.
    let effort: Vec<usize> = (0..9)
        .filter(|&i| {
            rows.iter()
                .any(|r| r.record.effort_columns()[i].1.is_some())
        })
        .collect();
    let mut header = vec!["file", "backend", "task", "puzzles", "answered"];
    if with_agreed {
        header.push("agreed");
    }
    header.extend([
        "timeout",
        "refused",
        "failed",
        "puzzles/s",
        "total",
        "median µs",
        "p90 µs",
        "max µs",
    ]);
    let names = RowRecord::default().effort_columns();
    header.extend(effort.iter().map(|&i| names[i].0));
    if with_cut {
        header.push("cut short");
    }
    let left_aligned = 3; // file, backend, task
    let us = |d: Duration| fmt_us_number(d.as_nanos() as f64 / 1000.0);
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|row| {
            let (r, stats) = (&row.record, &row.stats);
            let mut c = vec![
                r.file.clone(),
                r.backend.clone(),
                r.task.clone(),
                r.puzzles.to_string(),
                r.answered.to_string(),
            ];
            if with_agreed {
                c.push(r.agreed.map_or("-".into(), |a| a.to_string()));
            }
            c.extend([
                r.timed_out.to_string(),
                r.refused.to_string(),
                r.failed.to_string(),
                r.puzzles_per_sec.map_or("-".into(), |p| format!("{p:.1}")),
                fmt_micros(stats.total.as_nanos() as f64 / 1000.0),
                us(stats.median),
                us(stats.p90),
                us(stats.max),
            ]);
            let figures = r.effort_columns();
            c.extend(effort.iter().map(|&i| match (i, figures[i].1) {
                (_, None) => "-".into(),
                (0, Some(pct)) => format!("{pct:.1}"),
                (_, Some(mean)) => fmt_mean(mean),
            }));
            if with_cut {
                c.push(match r.not_run {
                    0 => "-".into(),
                    left => format!("{left} left"),
                });
            }
            c
        })
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            cells
                .iter()
                .map(|c| c[i].chars().count())
                .chain([header[i].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let header: Vec<String> = header.iter().map(|s| s.to_string()).collect();
    for line in std::iter::once(&header).chain(&cells) {
        let padded: Vec<String> = line
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (s, &w))| {
                if i < left_aligned {
                    format!("{s:<w$}")
                } else {
                    format!("{s:>w$}")
                }
            })
            .collect();
        writeln!(out, "{}", padded.join("  ").trim_end())?;
    }
    Ok(())
}

/// Writes `rows` as CSV with a header line; the columns are the fields of [`RowRecord`].
pub fn write_csv(rows: &[BenchRow], out: impl Write) -> Result<(), ReportError> {
    let mut w = csv::Writer::from_writer(out);
    for r in rows {
        w.serialize(&r.record)?;
    }
    w.flush()?;
    Ok(())
}

/// A row in JSON: the [`RowRecord`] fields, then `samples`.
#[derive(Serialize, Deserialize)]
struct JsonRow {
    #[serde(flatten)]
    record: RowRecord,
    #[serde(default)]
    samples: Vec<Sample>,
}

/// Writes `rows` as a JSON array of [`RowRecord`] objects, each with its `samples` (one compact
/// `{"index", "outcome", "time_ns"}` per puzzle), one row per line.
pub fn write_json(rows: &[BenchRow], mut out: impl Write) -> Result<(), ReportError> {
    writeln!(out, "[")?;
    for (i, r) in rows.iter().enumerate() {
        let row = JsonRow {
            record: r.record.clone(),
            samples: r.samples.clone(),
        };
        let comma = if i + 1 < rows.len() { "," } else { "" };
        writeln!(out, "{}{comma}", serde_json::to_string(&row)?)?;
    }
    writeln!(out, "]")?;
    Ok(())
}

pub mod html;
pub mod logic;

mod merge;
pub use merge::{merge, MergeError, Merged, RecordProblem, XcheckTotals};

mod plot;
pub use plot::{plot_svg, plot_svg_text, PlotSeries, MIN_US};
