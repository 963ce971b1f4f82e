//! Published puzzles: every f-puzzles document of `tests/data/published/` (setters' puzzles with
//! their own solutions; where each comes from, its licence and a survey of its keys are in
//! `tests/data/published/SOURCES.md`) is read, and `dfs`, `sat` and `cp` each count its solutions
//! up to 2: exactly one, the setter's.
//!
//! Every document is read. A document whose published solution breaks one of its own rules is
//! listed in [`WRONG_SOLUTION`] with the rule the checker names: the reader refuses that solution
//! by that rule, and without it the backends must still agree on one grid.
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

/// Documents (file name without `.json`) whose published solution breaks a rule of the document,
/// with the rule the checker names. `executive-function`: the solution's segments of region sum
/// line 1 add up to 6, 23 and 5; `dfs`, `sat` and `cp` agree on another, unique grid.
const WRONG_SOLUTION: &[(&str, &str)] = &[("executive-function", "region-sum constraint 1")];

/// Each backend's time for one count of one puzzle; past it the puzzle fails the test unless it
/// is listed in [`TOO_SLOW`]. Every other count takes under 2 s on an idle machine; the margin is
/// for a loaded one.
const LIMIT: Duration = Duration::from_secs(10);
/// Counts slower than this are named on standard error.
const SLOW: Duration = Duration::from_secs(1);

/// `(document, backend)`: counts known to take longer than [`LIMIT`]. They get
/// [`LISTED_LIMIT`] and may time out (named on standard error); an answer they give must still
/// be right. None today: `sudoku-lab unique --json --backend B FILE` (2026-11-27, `rust`
/// machine kind, 2 cores) takes `dfs` 3 ms, `sat` 9 ms and `cp` 11 ms on `solver-needs-set` (a
/// boxless Killer without givens, with Kropki white dots, which set equivalence breaks:
/// [`sudoku_lab::model::set_equivalence`]); the slowest count of `dfs` is
/// `antiking-extra-region-noclone-coloring-book-bartizan`, about 0.5 s.
const TOO_SLOW: &[(&str, &str)] = &[];
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
    for (name, _) in WRONG_SOLUTION.iter().chain(TOO_SLOW) {
        assert!(names.contains(*name), "{name} is listed but not in {DIR}");
    }
    let sources = std::fs::read_to_string(format!("{DIR}/SOURCES.md")).unwrap();
    for name in &names {
        assert!(
            sources.contains(&format!("`{name}.json`")),
            "{name}.json has no row in SOURCES.md"
        );
    }
}

#[test]
fn a_wrong_published_solution_is_refused_and_the_backends_agree_without_it() {
    let docs = documents();
    for (name, rule) in WRONG_SOLUTION {
        let text = &docs.iter().find(|(n, _)| n == name).unwrap().1;
        let e = read(text).expect_err("the solution is refused");
        assert!(e.message.contains(rule), "{name}: {e}");
        let mut doc: serde_json::Value = serde_json::from_str(text).unwrap();
        doc.as_object_mut().unwrap().remove("solution");
        let entry = read(&doc.to_string()).unwrap();
        let mut grids = vec![];
        for kind in backends() {
            let runner = backends::create(kind, &Default::default()).unwrap();
            let may_time_out = TOO_SLOW.contains(&(*name, runner.name()));
            let limit = if may_time_out { LISTED_LIMIT } else { LIMIT };
            match task::run(
                runner.as_ref(),
                &entry.puzzle,
                Task::Count { limit: 2 },
                &Limits::timeout(limit),
            ) {
                Ok(Answer::Counted {
                    count: 1,
                    complete: true,
                    first,
                }) => grids.push(first),
                Err(e) if e.timed_out() && may_time_out => {}
                other => panic!("{name}: {}: {other:?}", kind.name()),
            }
        }
        assert!(grids.len() >= 2, "{name}: fewer than two backends answered");
        assert!(
            grids.windows(2).all(|w| w[0] == w[1]),
            "{name}: grids differ"
        );
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
        if WRONG_SOLUTION.iter().any(|(n, _)| *n == name) {
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

/// `dfs` branches by conflict weights on variant puzzles (dom/wdeg, docs/backends.md): the
/// uniqueness proof of `crawfish` (skyscrapers, renban, Kropki) takes 2,464 guesses with it and
/// 991,275 by fewest candidates alone. Guesses do not depend on the machine.
#[test]
fn dfs_proves_crawfish_with_few_guesses() {
    let text = &documents()
        .into_iter()
        .find(|(n, _)| n == "crawfish")
        .unwrap()
        .1;
    let entry = read(text).unwrap();
    let dfs = backends::create(BackendKind::Dfs, &Default::default()).unwrap();
    let limits = Limits::timeout(LIMIT).metered();
    let answer = task::run(dfs.as_ref(), &entry.puzzle, Task::Unique, &limits).unwrap();
    assert!(matches!(answer, Answer::Unique(_)), "{answer:?}");
    let guesses = limits.effort().guesses.unwrap();
    assert!(guesses < 10_000, "{guesses} guesses");
}
