//! The campaign: cases mutated and run on worker threads ([`run`]) until the case budget, the
//! wall, a stop request or too many hangs, every fault counted under its signature
//! ([`Fault::signature`]), and the first document of each distinct fault shrunk afterwards
//! ([`shrink_first`]). Unlike [`crate::fuzz::search()`], a campaign goes on past a fault. It
//! prints and writes nothing: each case done and each document worth keeping is reported to a
//! callback ([`Event`]).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::case::{run_case, CaseOptions, CaseReport, Fault, FaultKind};
use super::mutation::{mutate, Document};
use super::seeding::Seed;
use super::shrinking::{shrink, Shrunk};

/// Documents kept per distinct fault ([`Event::Fault`]; the first is shrunk).
pub const SAVED_PER_FAULT: usize = 3;

/// Cases left hanging (their threads still run) before the campaign stops.
pub const MAX_HUNG: usize = 4;

/// What a campaign runs.
pub struct Campaign {
    /// How each case runs: the backends, the task, the deadline.
    pub case: CaseOptions,
    pub seeds: Vec<Seed>,
    /// The run's seed: case `i` is [`mutate`]`(seeds, seed, i)`.
    pub seed: u64,
    /// First case number.
    pub first: u64,
    /// Stop after this many cases…
    pub cases: Option<u64>,
    /// …or at this instant (cases under way finish).
    pub until: Option<Instant>,
    /// Worker threads.
    pub jobs: usize,
    /// Most cases tried to shrink one fault's document ([`shrink_first`]).
    pub shrink_trials: usize,
}

/// What a campaign reports as it goes.
#[derive(Debug)]
pub enum Event<'a> {
    /// A case is done; `distinct` faults have been seen so far.
    Done { distinct: usize },
    /// `doc` shows `fault`: one of the first [`SAVED_PER_FAULT`] cases of a distinct fault
    /// (`first`: the very first).
    Fault {
        fault: &'a Fault,
        doc: &'a Document,
        first: bool,
    },
}

/// One distinct fault ([`Fault::signature`]) and where it was seen.
#[derive(Debug, Clone)]
pub struct Seen {
    pub kind: FaultKind,
    /// The first document that showed it.
    pub first: Document,
    /// The cases reported for it ([`Event::Fault`]).
    pub cases: Vec<u64>,
    /// Every time it was seen.
    pub times: u64,
}

/// What a campaign did.
#[derive(Debug, Default)]
pub struct Summary {
    pub documents: u64,
    pub puzzles: u64,
    pub input_errors: u64,
    pub timeouts: u64,
    pub refusals: u64,
    /// Cases that hung (at [`MAX_HUNG`], the campaign stopped).
    pub hung: usize,
    /// Every distinct fault, by signature.
    pub faults: BTreeMap<String, Seen>,
    pub elapsed: Duration,
}

impl Summary {
    /// The faults seen, by kind (every kind, 0 included).
    pub fn by_kind(&self) -> BTreeMap<FaultKind, u64> {
        let mut by_kind: BTreeMap<FaultKind, u64> =
            FaultKind::ALL.iter().map(|&k| (k, 0)).collect();
        for seen in self.faults.values() {
            *by_kind.entry(seen.kind).or_default() += seen.times;
        }
        by_kind
    }
}

/// What the workers add up.
#[derive(Default)]
struct Totals {
    documents: AtomicU64,
    puzzles: AtomicU64,
    input_errors: AtomicU64,
    timeouts: AtomicU64,
    refusals: AtomicU64,
    hung: AtomicUsize,
    faults: Mutex<BTreeMap<String, Seen>>,
}

/// Runs the campaign on [`Campaign::jobs`] threads until its cases are done, its wall is
/// reached, `stop` is set, or [`MAX_HUNG`] cases hang; `on` hears of every case done and of the
/// documents worth keeping, from the worker threads.
pub fn run(c: &Campaign, stop: &AtomicBool, on: impl Fn(Event) + Sync) -> Summary {
    let next = AtomicU64::new(0);
    let totals = Totals::default();
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..c.jobs {
            scope.spawn(|| {
                while let Some(i) = claim(c, &next, stop, &totals) {
                    let doc = mutate(&c.seeds, c.seed, i);
                    let report = run_case(&doc.text, i, &c.case);
                    let distinct = tally(&totals, doc, &report, &on);
                    on(Event::Done { distinct });
                }
            });
        }
    });
    let load = |a: &AtomicU64| a.load(Ordering::SeqCst);
    Summary {
        documents: load(&totals.documents),
        puzzles: load(&totals.puzzles),
        input_errors: load(&totals.input_errors),
        timeouts: load(&totals.timeouts),
        refusals: load(&totals.refusals),
        hung: totals.hung.load(Ordering::SeqCst),
        faults: totals
            .faults
            .into_inner()
            .unwrap_or_else(|p| p.into_inner()),
        elapsed: started.elapsed(),
    }
}

/// The next case, or `None` once the cases are done, the wall is reached, the campaign is
/// stopped or too many cases hang.
fn claim(c: &Campaign, next: &AtomicU64, stop: &AtomicBool, totals: &Totals) -> Option<u64> {
    let i = c.first.saturating_add(next.fetch_add(1, Ordering::SeqCst));
    let spent =
        c.cases.is_some_and(|m| i - c.first >= m) || c.until.is_some_and(|d| Instant::now() >= d);
    let stopped = stop.load(Ordering::SeqCst) || totals.hung.load(Ordering::SeqCst) >= MAX_HUNG;
    (!spent && !stopped).then_some(i)
}

/// Adds a case's report to the totals, and reports the first [`SAVED_PER_FAULT`] cases of each
/// distinct fault. Returns the number of distinct faults so far.
fn tally(totals: &Totals, doc: Document, report: &CaseReport, on: &impl Fn(Event)) -> usize {
    for (total, n) in [
        (&totals.documents, 1),
        (&totals.puzzles, report.puzzles),
        (&totals.input_errors, report.input_errors),
        (&totals.timeouts, report.timeouts),
        (&totals.refusals, report.refusals),
    ] {
        total.fetch_add(n as u64, Ordering::Relaxed);
    }
    if report.faults.iter().any(|f| f.kind == FaultKind::Hang) {
        totals.hung.fetch_add(1, Ordering::SeqCst);
    }
    let mut seen = totals.faults.lock().unwrap_or_else(|p| p.into_inner());
    for fault in &report.faults {
        let entry = seen.entry(fault.signature()).or_insert_with(|| Seen {
            kind: fault.kind,
            first: doc.clone(),
            cases: vec![],
            times: 0,
        });
        entry.times += 1;
        if entry.cases.last() == Some(&doc.case) || entry.cases.len() >= SAVED_PER_FAULT {
            continue;
        }
        entry.cases.push(doc.case);
        let first = entry.cases.len() == 1;
        on(Event::Fault {
            fault,
            doc: &doc,
            first,
        });
    }
    seen.len()
}

/// The first document of a distinct fault shrunk while it shows the same fault ([`shrink`]);
/// `None` for a hang (each trial could take the whole grace) or without shrink trials.
pub fn shrink_first(c: &Campaign, signature: &str, seen: &Seen) -> Option<Shrunk> {
    if seen.kind == FaultKind::Hang || c.shrink_trials == 0 {
        return None;
    }
    let case = seen.first.case;
    Some(shrink(&seen.first.text, c.shrink_trials, |text| {
        run_case(text, case, &c.case)
            .faults
            .iter()
            .any(|f| f.signature() == signature)
    }))
}
