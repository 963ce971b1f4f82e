//! Published puzzles: every f-puzzles document of `tests/data/published/` (setters' puzzles with
//! their own solutions; where each comes from, its licence and a survey of its keys are in
//! `tests/data/published/SOURCES.md`) is read, and `dfs`, `sat` and `cp` each count its solutions
//! up to 2: exactly one, the setter's.
//!
//! The documents whose rules the reader does not know yet are listed in [`NOT_READ`] with the key
//! the reader refuses: the test holds that the reader refuses each of them by that key, so a kind
//! that lands without its entry being taken off the list fails here, and so does a document that
//! reads silently. When a kind lands, its documents leave the list, or move to the next key the
//! reader refuses in them.
//!
//! Each count has a time limit ([`LIMIT`]); the few counts known to run longer are listed in
//! [`TOO_SLOW`]. `tools/published_survey.py` surveys the keys; `tools/published_import.py`
//! rebuilds the folder from its sources.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use sudoku_lab::backend::Limits;
use sudoku_lab::backends::{self, BackendKind};
use sudoku_lab::format::{read_puzzles, Entry, ParseError, ReadOptions};
use sudoku_lab::task::{self, Answer, Task};

const DIR: &str = "tests/data/published";

/// Documents (file name without `.json`) the reader refuses today, with the f-puzzles key its
/// error names: the first rule in the document that the lab does not read. `"grid"`: a given
/// that also carries `givenPencilMarks`.
const NOT_READ: &[(&str, &str)] = &[
    ("5-31-23-consec-pairs-quads", "quadruple"),
    ("april-1-2022-skyscrapers", "skyscraper"),
    ("aug-12-2022-lockout-lines", "lockout"),
    ("aug-18-2022-renban-sudoku", "grid"),
    ("aug-24-2022-x-sums-sudoku", "xsum"),
    ("between-lines", "betweenline"),
    ("box-indexing-test", "boxindexer"),
    ("clone-wars", "clone"),
    ("column-indexing-test", "columnindexer"),
    ("crawfish", "skyscraper"),
    ("deflation", "quadruple"),
    ("every-third-knight", "entropicline"),
    ("exclusive-singularity", "regionsumline"),
    ("executive-function", "regionsumline"),
    ("forgiven", "regionsumline"),
    ("fortress-coverage", "minimum"),
    ("fortress-sudoku", "maximum"),
    ("jan-6-2024-region-sum-lines", "regionsumline"),
    ("jul-13-2022-clone-arrow", "clone"),
    ("jul-16-2022-quadruple-sudoku", "quadruple"),
    ("jul-28-2022-xv-quads", "quadruple"),
    ("july-10-2023-caterpillars", "entropicline"),
    ("july-4-2023-x-sums-sudoku", "xsum"),
    ("keep-off-the-border", "lockout"),
    ("locking-out-the-odds", "lockout"),
    ("mar-17-2022-lockout-lines", "lockout"),
    ("march-15-2021-quadruples", "quadruple"),
    ("may-19-2021-fortress-sudoku", "maximum"),
    ("modular-nabner-da-coverage", "modularline"),
    ("nov-10-2023-odd-even-diag", "grid"),
    ("one-to-six", "rowindexer"),
    ("parking-garage", "modularline"),
    ("quad-bike", "quadruple"),
    ("row-indexing-test", "rowindexer"),
    ("skyscrapers-sudoku", "skyscraper"),
    ("the-initials", "quadruple"),
    ("third-degree-murder", "entropicline"),
    ("trollscraper", "skyscraper"),
    ("van-de-graaf-generator", "entropicline"),
    ("zipper-lines", "zipperline"),
];

/// Each backend's time for one count of one puzzle; past it the puzzle fails the test unless it
/// is listed in [`TOO_SLOW`]. Every other count takes under 2 s on an idle machine; the margin is
/// for a loaded one.
const LIMIT: Duration = Duration::from_secs(10);
/// Counts slower than this are named on standard error.
const SLOW: Duration = Duration::from_secs(1);

/// `(document, backend)`: counts known to take longer than [`LIMIT`]. They get
/// [`LISTED_LIMIT`] and may time out (named on standard error); an answer they give must still
/// be right. `sudoku-lab unique --json --backend B --timeout 30 FILE` (2026-11-27, `rust`
/// machine kind, 2 cores, shared): `dfs` times out at 30 s on `solver-needs-set` (a Killer
/// without givens), takes 4.0 s on `effluence` and 2.2 s on `sistine-hippos`; `cp` takes 3.0 s
/// on `solver-needs-set`, which `sat` answers in 1.7 s.
const TOO_SLOW: &[(&str, &str)] = &[
    ("effluence", "dfs"),
    ("sistine-hippos", "dfs"),
    ("solver-needs-set", "cp"),
    ("solver-needs-set", "dfs"),
];
/// The time a count listed in [`TOO_SLOW`] gets.
const LISTED_LIMIT: Duration = Duration::from_millis(500);

/// The backends that count every published puzzle.
fn backends() -> Vec<BackendKind> {
    #[allow(unused_mut)]
    let mut kinds = vec![BackendKind::Dfs, BackendKind::Sat];
    #[cfg(feature = "cp")]
    kinds.push(BackendKind::Cp);
    kinds
}

/// Every document of [`DIR`], by name, in name order.
fn documents() -> Vec<(String, String)> {
    let mut docs: Vec<(String, String)> = std::fs::read_dir(DIR)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    docs.sort();
    docs
}

/// The one entry a document reads as, or the reader's error.
fn read(text: &str) -> Result<Entry, ParseError> {
    let mut entries = read_puzzles(text, &ReadOptions::default());
    assert_eq!(entries.len(), 1, "one puzzle per document");
    entries.remove(0)
}

/// The setter's solution: the document's `"solution"`, row by row.
fn setters_solution(text: &str) -> Vec<u16> {
    let doc: serde_json::Value = serde_json::from_str(text).unwrap();
    doc["solution"]
        .as_array()
        .expect("a \"solution\" list")
        .iter()
        .map(|v| match v {
            serde_json::Value::String(s) => s.parse().unwrap(),
            v => v.as_u64().unwrap() as u16,
        })
        .collect()
}

#[test]
fn the_corpus_is_whole() {
    let names: BTreeSet<String> = documents().into_iter().map(|(n, _)| n).collect();
    assert!(names.len() >= 100, "{} documents", names.len());
    for (name, _) in NOT_READ {
        assert!(names.contains(*name), "{name} is listed but not in {DIR}");
    }
    let listed: BTreeSet<&str> = NOT_READ.iter().map(|(n, _)| *n).collect();
    assert_eq!(listed.len(), NOT_READ.len(), "a document listed twice");
    let sources = std::fs::read_to_string(format!("{DIR}/SOURCES.md")).unwrap();
    for name in &names {
        assert!(
            sources.contains(&format!("`{name}.json`")),
            "{name}.json has no row in SOURCES.md"
        );
    }
}

#[test]
fn the_reader_refuses_the_listed_documents_by_key() {
    let docs = documents();
    for (name, key) in NOT_READ {
        let text = &docs.iter().find(|(n, _)| n == name).unwrap().1;
        match read(text) {
            Ok(_) => panic!("{name} reads now: take it off NOT_READ"),
            Err(e) => assert!(
                e.message.contains(&format!("\"{key}\"")),
                "{name}: the refusal names another key than \"{key}\": {e}"
            ),
        }
    }
}

#[test]
fn every_read_document_has_the_setters_solution_alone() {
    let kinds = backends();
    let runners: Vec<_> = kinds
        .iter()
        .map(|&k| backends::create(k, &Default::default()).unwrap())
        .collect();
    let mut failures = vec![];
    let mut passed = 0;
    let mut spent = vec![Duration::ZERO; runners.len()];
    for (name, text) in documents() {
        if NOT_READ.iter().any(|(n, _)| *n == name) {
            continue;
        }
        let entry = match read(&text) {
            Ok(e) => e,
            Err(e) => {
                failures.push(format!("{name}: not read: {e}"));
                continue;
            }
        };
        let solution = setters_solution(&text);
        let known = entry.expected.as_ref().and_then(|x| x.solution.as_ref());
        assert_eq!(
            known.map(|g| g.cells().to_vec()),
            Some(solution.clone()),
            "{name}: the reader's known answer"
        );
        let mut ok = true;
        for (runner, spent) in runners.iter().zip(&mut spent) {
            let may_time_out = TOO_SLOW.contains(&(name.as_str(), runner.name()));
            let limit = if may_time_out { LISTED_LIMIT } else { LIMIT };
            let start = Instant::now();
            let answer = task::run(
                runner.as_ref(),
                &entry.puzzle,
                Task::Count { limit: 2 },
                &Limits::timeout(limit),
            );
            let took = start.elapsed();
            *spent += took;
            if took > SLOW || may_time_out {
                eprintln!("{name}: {} took {took:.2?}", runner.name());
            }
            let wrong = match answer {
                Ok(Answer::Counted {
                    count: 1,
                    complete: true,
                    first,
                }) if first.cells() == solution.as_slice() => None,
                Ok(Answer::Counted {
                    count: 1,
                    complete: true,
                    ..
                }) => Some("one solution, not the setter's".to_string()),
                Ok(a) => Some(format!("counted {}", a.summary())),
                Err(e) if e.timed_out() && may_time_out => None,
                Err(e) => Some(e.to_string()),
            };
            if let Some(w) = wrong {
                failures.push(format!("{name}: {}: {w}", runner.name()));
                ok = false;
            }
        }
        passed += usize::from(ok);
    }
    let under: Vec<String> = (kinds.iter().zip(&spent))
        .map(|(k, t)| format!("{} ({t:.2?} in all)", k.name()))
        .collect();
    eprintln!(
        "{passed} published puzzles: one solution, the setter's, or a listed time-out, under {}",
        under.join(", ")
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
