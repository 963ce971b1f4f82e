//! Hostile input (`sudoku_lab::hostile`, `fuzz --hostile`): the mutator is the same for the same
//! seed and case, a short campaign on the real reader and backends finds no fault, and a
//! planted panic, hang, wrong answer or unhelpful error is caught and reported as such.

mod common;
use common::{run, stdout};

use std::sync::Arc;
use std::time::{Duration, Instant};

use sudoku_lab::backend::{Backend, BackendError, Count, Limits, Optimum};
use sudoku_lab::backends::{self, BackendKind};
use sudoku_lab::format::{Entry, ParseError};
use sudoku_lab::fuzz::hostile::{self, CaseOptions, FaultKind, Form};
use sudoku_lab::model::{ConstraintKind, Grid, Puzzle};

fn dfs() -> Box<dyn Backend> {
    backends::create(BackendKind::Dfs, &Default::default()).unwrap()
}

fn options(backends: Vec<Box<dyn Backend>>) -> CaseOptions {
    CaseOptions::new(Arc::new(backends), Duration::from_secs(10))
}

/// An f-puzzles 4×4 with one Kropki black dot: 96 of the 288 solutions (4 of the 12 ordered
/// pairs of digits, by symmetry) keep one of R1C1 and R1C2 twice the other.
const KROPKI4: &str = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"ratio":[{"cells":["R1C1","R1C2"]}]}"#;

#[test]
fn the_mutator_is_the_same_for_the_same_seed_and_case() {
    let seeds = hostile::seeds(dfs().as_ref());
    assert_eq!(seeds, hostile::seeds(dfs().as_ref()));
    let mut differ = 0;
    for case in 0..300 {
        let a = hostile::mutate(&seeds, 7, case);
        assert_eq!(a, hostile::mutate(&seeds, 7, case), "case {case}");
        assert_eq!(a.case, case);
        assert!(!a.mutations.is_empty(), "case {case} changed nothing");
        if a.text != hostile::mutate(&seeds, 8, case).text {
            differ += 1;
        }
    }
    assert!(
        differ > 290,
        "seeds 7 and 8 gave the same text in {} cases",
        300 - differ
    );
}

#[test]
fn the_seeds_cover_both_forms_every_rule_and_read_cleanly() {
    let seeds = hostile::seeds(dfs().as_ref());
    assert!(seeds.len() >= 60, "{} seeds", seeds.len());
    for form in [Form::Object, Form::Fpuzzles] {
        assert!(
            seeds.iter().any(|s| s.form == form),
            "no {} seed",
            form.name()
        );
    }
    let mut kinds = std::collections::BTreeSet::new();
    for seed in &seeds {
        let entries = hostile::read_document(&seed.doc.to_string());
        assert_eq!(entries.len(), 1, "{}", seed.name);
        let entry = entries[0]
            .as_ref()
            .unwrap_or_else(|e| panic!("{}: {e}", seed.name));
        kinds.extend(entry.puzzle.constraints().iter().map(|c| c.kind()));
    }
    assert_eq!(kinds.len(), ConstraintKind::ALL.len(), "{kinds:?}");
}

#[test]
fn mutations_reach_every_fault_prone_form() {
    let seeds = hostile::seeds(dfs().as_ref());
    let docs: Vec<_> = (0..2000).map(|i| hostile::mutate(&seeds, 1, i)).collect();
    let any = |f: &dyn Fn(&hostile::Document) -> bool| docs.iter().any(f);
    assert!(any(&|d| d.form == Form::Link && d.text.contains("load=")));
    assert!(any(&|d| d.text.contains("18446744073709551616")));
    assert!(any(&|d| d.text.contains("1e400")));
    assert!(any(&|d| d.text.contains("[[[[[[[[[[[[[[[[")));
    assert!(any(&|d| d
        .mutations
        .iter()
        .any(|m| m.contains("again, with"))));
    assert!(any(&|d| d
        .mutations
        .iter()
        .any(|m| m.starts_with("text cut"))));
    assert!(any(&|d| d
        .mutations
        .iter()
        .any(|m| m.contains("random base64"))));
    assert!(any(&|d| d
        .mutations
        .iter()
        .any(|m| m.contains("repeated at"))));
}

#[test]
fn a_short_campaign_on_the_real_reader_finds_no_fault() {
    let seeds = hostile::seeds(dfs().as_ref());
    let sat = backends::create(BackendKind::Sat, &Default::default()).unwrap();
    let opts = options(vec![dfs(), sat]);
    let (mut puzzles, mut errors) = (0, 0);
    for case in 0..300 {
        let doc = hostile::mutate(&seeds, 1, case);
        let report = hostile::run_case(&doc.text, case, &opts);
        assert!(
            report.faults.is_empty(),
            "case {case} ({:?}): {:?}\n{}",
            doc.mutations,
            report.faults,
            doc.text
        );
        puzzles += report.puzzles;
        errors += report.input_errors;
    }
    // Both paths are taken: documents that still read, and documents the reader refuses.
    assert!(
        puzzles > 20 && errors > 200,
        "{puzzles} puzzles, {errors} errors"
    );
}

#[test]
fn an_intact_document_is_answered_by_every_backend() {
    let report = hostile::run_case(KROPKI4, 0, &options(vec![dfs()]));
    assert_eq!((report.puzzles, report.input_errors), (1, 0));
    assert!(report.faults.is_empty(), "{:?}", report.faults);
    let counted = hostile::run_case(
        KROPKI4,
        0,
        &CaseOptions {
            task: sudoku_lab::task::Task::Count { limit: 1000 },
            ..options(vec![dfs(), Box::new(Liar)])
        },
    );
    // The liar says "no solution" where dfs counts 96.
    assert_eq!(counted.faults.len(), 1, "{:?}", counted.faults);
    assert_eq!(counted.faults[0].kind, FaultKind::WrongAnswer);
    assert!(
        counted.faults[0].what.contains("dfs said 96"),
        "{}",
        counted.faults[0].what
    );
}

fn panicking_reader(_: &str) -> Vec<Result<Entry, ParseError>> {
    panic!("planted in the reader")
}

#[test]
fn a_planted_panic_in_the_reader_is_caught_with_its_message() {
    hostile::record_panic_places();
    let opts = CaseOptions {
        reader: panicking_reader,
        ..options(vec![dfs()])
    };
    let report = hostile::run_case("{}", 3, &opts);
    assert_eq!(report.faults.len(), 1, "{:?}", report.faults);
    let fault = &report.faults[0];
    assert_eq!(fault.kind, FaultKind::Panic);
    assert!(
        fault.what.starts_with("planted in the reader"),
        "{}",
        fault.what
    );
    assert!(
        fault.what.contains("tests/hostile.rs:"),
        "no place: {}",
        fault.what
    );
}

#[test]
fn a_planted_panic_in_a_backend_is_a_panic_fault() {
    let report = hostile::run_case(KROPKI4, 0, &options(vec![dfs(), Box::new(Panicky)]));
    assert_eq!(report.faults.len(), 1, "{:?}", report.faults);
    assert_eq!(report.faults[0].kind, FaultKind::Panic);
    assert!(report.faults[0].what.contains("planted in a backend"));
}

#[test]
fn a_planted_hang_is_reported_without_blocking_the_run() {
    let opts = CaseOptions {
        deadline: Duration::from_millis(200),
        grace: Duration::from_millis(300),
        ..options(vec![Box::new(Sleeper)])
    };
    let start = Instant::now();
    let report = hostile::run_case(KROPKI4, 5, &opts);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(report.faults.len(), 1, "{:?}", report.faults);
    assert_eq!(report.faults[0].kind, FaultKind::Hang);
    // The next case runs at once.
    let report = hostile::run_case(KROPKI4, 6, &options(vec![dfs()]));
    assert!(report.faults.is_empty());
}

fn error_without_position(_: &str) -> Vec<Result<Entry, ParseError>> {
    vec![Err(ParseError {
        line: 0,
        col: 0,
        message: "bad".into(),
    })]
}

fn error_past_the_end(_: &str) -> Vec<Result<Entry, ParseError>> {
    vec![Err(ParseError {
        line: 1,
        col: 40,
        message: "bad".into(),
    })]
}

fn error_without_message(_: &str) -> Vec<Result<Entry, ParseError>> {
    vec![Err(ParseError {
        line: 1,
        col: 1,
        message: " ".into(),
    })]
}

fn reads_nothing(_: &str) -> Vec<Result<Entry, ParseError>> {
    vec![]
}

#[test]
fn an_input_error_the_user_could_not_act_on_is_a_fault() {
    for (reader, why) in [
        (
            error_without_position as hostile::Reader,
            "without a position",
        ),
        (error_past_the_end, "column past the end"),
        (error_without_message, "without a message"),
        (reads_nothing, "read no puzzle"),
    ] {
        let opts = CaseOptions {
            reader,
            ..options(vec![dfs()])
        };
        let report = hostile::run_case("{\"size\": 4}", 0, &opts);
        assert_eq!(report.faults.len(), 1, "{why}: {:?}", report.faults);
        assert_eq!(report.faults[0].kind, FaultKind::SilentError);
        assert!(
            report.faults[0].what.contains(why),
            "{}",
            report.faults[0].what
        );
    }
    // The real reader's error on bad JSON names a place in the text.
    let report = hostile::run_case("{\"size\": 4,\n \"grid\": [", 0, &options(vec![dfs()]));
    assert_eq!((report.input_errors, report.faults.len()), (1, 0));
}

#[test]
fn a_campaign_counts_a_fault_once_keeps_its_first_documents_and_shrinks_the_first() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Mutex;
    use sudoku_lab::fuzz::hostile::campaign::{self, Campaign, Event, SAVED_PER_FAULT};

    let c = Campaign {
        case: CaseOptions {
            reader: error_without_message,
            ..options(vec![dfs()])
        },
        seeds: hostile::seeds(dfs().as_ref()),
        seed: 1,
        first: 5,
        cases: Some(12),
        until: None,
        jobs: 2,
        shrink_trials: 50,
    };
    let (done, kept) = (Mutex::new(0), Mutex::new(Vec::new()));
    let summary = campaign::run(&c, &AtomicBool::new(false), |e| match e {
        Event::Done { distinct } => {
            assert_eq!(distinct, 1);
            *done.lock().unwrap() += 1;
        }
        Event::Fault { doc, first, .. } => kept.lock().unwrap().push((doc.case, first)),
    });
    assert_eq!((summary.documents, *done.lock().unwrap()), (12, 12));
    let kept = kept.into_inner().unwrap();
    assert_eq!(kept.len(), SAVED_PER_FAULT);
    assert_eq!(kept.iter().filter(|(_, first)| *first).count(), 1);
    assert!(kept.iter().all(|(case, _)| (5..17).contains(case)));
    assert_eq!(summary.faults.len(), 1);
    let (signature, seen) = summary.faults.iter().next().unwrap();
    assert_eq!((seen.kind, seen.times), (FaultKind::SilentError, 12));
    assert_eq!(summary.by_kind()[&FaultKind::SilentError], 12);
    let shrunk = campaign::shrink_first(&c, signature, seen).unwrap();
    assert!(shrunk.text.len() <= seen.first.text.len());
    // A stopped campaign runs no case.
    let stopped = campaign::run(&c, &AtomicBool::new(true), |_| panic!("ran a case"));
    assert_eq!(stopped.documents, 0);
}

#[test]
fn shrinking_keeps_what_shows_the_fault_and_drops_the_rest() {
    let shrunk = hostile::shrink(KROPKI4, 500, |t| t.contains("R1C2"));
    assert!(shrunk.text.contains("R1C2"));
    assert!(shrunk.text.len() <= 30, "{}", shrunk.text);
    // A link is shrunk as its JSON when that shows the fault.
    let link = format!(
        "https://www.f-puzzles.com/?load={}",
        sudoku_lab::format::fpuzzles::compress(KROPKI4)
    );
    let shrunk = hostile::shrink(&link, 500, |t| t.contains("ratio") || t.contains("load="));
    assert!(shrunk.text.starts_with('{'), "{}", shrunk.text);
    assert!(shrunk.text.len() < KROPKI4.len(), "{}", shrunk.text);
}

#[test]
fn fault_signatures_leave_out_numbers_and_quoted_parts() {
    let fault = |what: &str| hostile::Fault {
        kind: FaultKind::Panic,
        what: what.into(),
    };
    assert_eq!(
        fault("overflow at src/a.rs:12:5 on \"R1C1\"").signature(),
        fault("overflow at src/a.rs:40:9 on \"R9C9\"").signature()
    );
    assert_ne!(
        fault("overflow").signature(),
        hostile::Fault {
            kind: FaultKind::WrongAnswer,
            what: "overflow".into()
        }
        .signature()
    );
}

#[test]
fn the_command_runs_a_seeded_budget_and_summarises_it() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().to_str().unwrap();
    let args = [
        "fuzz",
        "--hostile",
        "--backends",
        "dfs",
        "--puzzles",
        "40",
        "--seed",
        "1",
        "--save-dir",
        save,
    ];
    let o = run(&args);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.starts_with("40 documents (seed 1, from case 0), "),
        "{out}"
    );
    assert!(
        out.contains("faults: panic 0, hang 0, wrong answer 0, silent input error 0 (0 distinct)"),
        "{out}"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // --save-dir belongs to --hostile.
    let o = run(&["fuzz", "--backends", "dfs", "--save-dir", save]);
    assert_eq!(o.status.code(), Some(2));
}

/// Documents on which the reader, the writer or the model went wrong (docs/fuzz.md, "Hostile
/// input"), with what they should give: each must be read or refused without a fault, and
/// each with the right answer (the puzzles read are counted by `dfs`, to 1000).
#[test]
fn the_saved_hostile_documents_read_right() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/hostile/");
    let opts = CaseOptions {
        task: sudoku_lab::task::Task::Count { limit: 1000 },
        ..options(vec![dfs()])
    };
    // (file, solutions; None: the reader refuses it)
    let expected: [(&str, Option<u64>); 6] = [
        ("json-error-column-in-bytes.json", None),
        ("fpuzzles-number-truncated.json", Some(0)),
        ("kropki-ratio-wraps.json", Some(0)),
        ("boxes3x2-object.json", Some(1)),
        ("boxes3x2-fpuzzles.json", Some(1)),
        ("quadruple-digit-zero.json", Some(0)),
    ];
    let mut wrong = vec![];
    for (file, solutions) in expected {
        let text = std::fs::read_to_string(format!("{dir}{file}")).unwrap();
        let report = hostile::run_case(&text, 0, &opts);
        if !report.faults.is_empty() {
            wrong.push(format!("{file}: {:?}", report.faults));
        }
        let got = hostile::read_document(&text)
            .into_iter()
            .map(|e| {
                let puzzle = e.ok()?.puzzle;
                let answer =
                    sudoku_lab::task::run(dfs().as_ref(), &puzzle, opts.task, &Limits::none());
                answer.ok()?.count().map(|(c, _)| c)
            })
            .next()
            .flatten();
        if got != solutions {
            wrong.push(format!("{file}: {got:?} solutions, expected {solutions:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Says "no solution" to everything.
struct Liar;

impl Backend for Liar {
    fn name(&self) -> &'static str {
        "liar"
    }
    fn solve(&self, _: &Puzzle, _: &Limits) -> Result<Option<Grid>, BackendError> {
        Ok(None)
    }
    fn count(&self, _: &Puzzle, _: u64, _: &Limits) -> Result<Count, BackendError> {
        Ok(Count::none())
    }
    fn optimize(&self, _: &Puzzle, _: &Limits) -> Result<Optimum, BackendError> {
        Err(BackendError::Unsupported("optimize".into()))
    }
    fn takes(&self, _: ConstraintKind) -> bool {
        true
    }
}

/// Panics on every puzzle.
struct Panicky;

impl Backend for Panicky {
    fn name(&self) -> &'static str {
        "panicky"
    }
    fn solve(&self, _: &Puzzle, _: &Limits) -> Result<Option<Grid>, BackendError> {
        panic!("planted in a backend")
    }
    fn count(&self, _: &Puzzle, _: u64, _: &Limits) -> Result<Count, BackendError> {
        panic!("planted in a backend")
    }
    fn optimize(&self, _: &Puzzle, _: &Limits) -> Result<Optimum, BackendError> {
        panic!("planted in a backend")
    }
    fn takes(&self, _: ConstraintKind) -> bool {
        true
    }
}

/// Ignores its deadline.
struct Sleeper;

impl Backend for Sleeper {
    fn name(&self) -> &'static str {
        "sleeper"
    }
    fn solve(&self, _: &Puzzle, _: &Limits) -> Result<Option<Grid>, BackendError> {
        std::thread::sleep(Duration::from_secs(60));
        Ok(None)
    }
    fn count(&self, _: &Puzzle, _: u64, _: &Limits) -> Result<Count, BackendError> {
        std::thread::sleep(Duration::from_secs(60));
        Ok(Count::none())
    }
    fn optimize(&self, _: &Puzzle, _: &Limits) -> Result<Optimum, BackendError> {
        Err(BackendError::Unsupported("optimize".into()))
    }
    fn takes(&self, _: ConstraintKind) -> bool {
        true
    }
}
