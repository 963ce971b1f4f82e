//! Campaigns end to end: `--shard K/N` on `generate`, `xcheck`, `bench` and `fuzz` splits one
//! run's work into N shares that together do exactly the whole job, and `report` merges the
//! shards' JSON into one run's figures. No GNU parallel needed: the shards run one after another.

mod common;
use common::{run, stderr, stdout};

mod line_solver;

use std::fs;
use std::path::Path;
use std::process::Output;

const SAMPLES: &str = "tests/data/samples/mixed.txt";

/// The columns of a table that do not depend on timing: file, backend, task and the counts.
fn counts(table: &str) -> Vec<String> {
    // file, backend, task, puzzles, answered, [agreed,] timeout, refused, failed: the words
    // before the times (and the effort columns after them).
    let agreed = table
        .lines()
        .any(|l| l.starts_with("file") && l.split_whitespace().any(|w| w == "agreed"));
    let n = if agreed { 9 } else { 8 };
    table
        .lines()
        .filter(|l| !l.starts_with("file"))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words[..n.min(words.len())].join(" ")
        })
        .collect()
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn generate_shards_interleave_into_one_run() {
    for shape in [
        &["--unique"][..],
        &["--size", "6", "--jigsaw"],
        &["--unique", "--givens", "30"],
    ] {
        let mut args = vec!["generate", "--count", "11", "--seed", "9"];
        args.extend_from_slice(shape);
        let whole: Vec<String> = stdout(&run(&args)).lines().map(String::from).collect();
        assert_eq!(whole.len(), 11);
        let shards: Vec<Vec<String>> = (1..=3)
            .map(|k| {
                let shard = format!("{k}/3");
                let o = run(&[&args[..], &["--shard", &shard]].concat());
                assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
                stdout(&o).lines().map(String::from).collect()
            })
            .collect();
        assert_eq!(shards.iter().map(Vec::len).collect::<Vec<_>>(), [4, 4, 3]);
        for (i, line) in whole.iter().enumerate() {
            assert_eq!(&shards[i % 3][i / 3], line, "{shape:?}: puzzle {i}");
        }
    }
}

#[test]
fn xcheck_shards_merged_by_report_give_one_runs_totals() {
    let dir = tempfile::tempdir().unwrap();
    let base = ["xcheck", "--backends", "dfs,dlx,sat", "--json", SAMPLES];
    let one = run(&base);
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    let one_json = write(dir.path(), "one.jsonl", &stdout(&one));
    let mut shard_files = Vec::new();
    for k in 1..=3 {
        let o = run(&[&base[..], &["--shard", &format!("{k}/3")]].concat());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(
            stdout(&o).lines().count(),
            4,
            "shard {k}: 4 of the 12 puzzles"
        );
        shard_files.push(write(dir.path(), &format!("x{k}.jsonl"), &stdout(&o)));
    }
    let merged = run(&[
        &["report"][..],
        &shard_files.iter().map(String::as_str).collect::<Vec<_>>(),
    ]
    .concat());
    assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
    // The summary line and every count are those of the one run (its summary is on stderr).
    let (one_summary, merged_out) = (stderr(&one), stdout(&merged));
    assert_eq!(
        merged_out.lines().next(),
        one_summary.lines().next(),
        "{merged_out}"
    );
    assert_eq!(
        merged_out.lines().next(),
        Some("12 puzzles, task unique: 0 disagreements, 0 failures, 0 refusals")
    );
    assert_eq!(counts(&merged_out), counts(&one_summary));
    assert_eq!(
        counts(&merged_out).len(),
        4,
        "the summary line and three backends"
    );
    // Medians and totals come from the per-puzzle times: `report` on the one run's output
    // prints exactly the table that run printed.
    let again = run(&["report", &one_json]);
    assert_eq!(stdout(&again), one_summary);
}

#[test]
fn bench_shards_merged_by_report_give_one_runs_figures() {
    let dir = tempfile::tempdir().unwrap();
    let json = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    let base = [
        "bench",
        "--backends",
        "dfs,dlx",
        "--task",
        "count",
        "--limit",
        "20",
        SAMPLES,
    ];
    let one = run(&[&base[..], &["--json", &json("one.json")]].concat());
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let o = run(&[
            &base[..],
            &["--shard", &shard, "--json", &json(&format!("b{k}.json"))],
        ]
        .concat());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let rows = counts(&stdout(&o));
        assert!(rows[0].starts_with("mixed.txt dfs count 6 6"), "{rows:?}");
    }
    let csv = json("merged.csv");
    let merged = run(&["report", &json("b1.json"), &json("b2.json"), "--csv", &csv]);
    assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
    assert_eq!(counts(&stdout(&merged)), counts(&stdout(&one)));
    assert_eq!(counts(&stdout(&one)).len(), 2);
    assert!(fs::read_to_string(&csv).unwrap().lines().count() == 3);
    // The effort figures too: recomputed from the merged samples, they are the one run's.
    let one_rows: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(json("one.json")).unwrap()).unwrap();
    let mut merged_rows = csv::Reader::from_path(&csv).unwrap();
    let header = merged_rows.headers().unwrap().clone();
    for (record, row) in merged_rows.records().zip(one_rows.as_array().unwrap()) {
        let record = record.unwrap();
        for c in ["no_guess_pct", "guesses_per_puzzle", "nodes_per_puzzle"] {
            let merged = record.get(header.iter().position(|h| h == c).unwrap());
            let merged: f64 = merged.unwrap().parse().unwrap();
            assert_eq!(
                Some(merged),
                row[c].as_f64(),
                "{c}: {record:?} against {row}"
            );
        }
    }
    let again = run(&["report", &json("one.json")]);
    assert_eq!(stdout(&again), stdout(&one));
}

#[test]
fn fuzz_shards_split_the_cases_and_find_the_same_first_fault() {
    let ok = [
        "fuzz",
        "--backends",
        "dfs,dlx",
        "--size",
        "4",
        "--seed",
        "2",
        "--puzzles",
        "41",
    ];
    for (k, cases) in [(1, 21), (2, 20)] {
        let o = run(&[&ok[..], &["--shard", &format!("{k}/2")]].concat());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(
            stdout(&o).starts_with(&format!("no fault in {cases} cases (seed 2, shard {k}/2")),
            "{}",
            stdout(&o)
        );
    }
    // A solver that misses solutions: the unsharded run's first fault is found by the shard
    // that owns that case.
    let cmd = format!("{} --wrong count", line_solver::line_solver());
    let wrong = [
        "fuzz",
        "--backends",
        "dfs,cmd",
        "--cmd",
        &cmd,
        "--size",
        "6",
        "--task",
        "count",
        "--limit",
        "50",
        "--seed",
        "1",
        "--puzzles",
        "200",
        "-j",
        "1",
        "--shrink-trials",
        "0",
    ];
    let first_line = |o: &Output| stdout(o).lines().next().unwrap_or_default().to_string();
    let whole = run(&wrong);
    let case: u64 = first_line(&whole)
        .strip_prefix("fault in case ")
        .and_then(|r| r.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("{}", stdout(&whole)));
    let owner = case % 3 + 1;
    let o = run(&[&wrong[..], &["--shard", &format!("{owner}/3")]].concat());
    assert!(
        first_line(&o).starts_with(&format!("fault in case {case} of seed 1")),
        "{}",
        stdout(&o)
    );
}

#[test]
fn bad_shards_and_bad_reports_are_usage_errors() {
    for command in [
        &["generate"][..],
        &["xcheck", SAMPLES],
        &["bench", SAMPLES],
        &["fuzz", "--backends", "dfs", "--puzzles", "1"],
    ] {
        for (shard, words) in [
            ("0/3", "K must be between 1 and N"),
            ("4/3", "K must be between 1 and N"),
            ("1/0", "N must be at least 1"),
            ("2", "--shard takes K/N"),
        ] {
            let o = run(&[command, &["--shard", shard]].concat());
            assert_eq!(o.status.code(), Some(2), "{command:?} {shard}");
            assert!(
                stderr(&o).contains(words),
                "{command:?} {shard}: {}",
                stderr(&o)
            );
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let bench_json = dir.path().join("b.json");
    let o = run(&[
        "bench",
        "--backends",
        "dfs",
        SAMPLES,
        "--json",
        bench_json.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let b = bench_json.to_str().unwrap();
    let garbage = write(dir.path(), "garbage.jsonl", "{\"index\": 1}\n");
    let x = write(
        dir.path(),
        "x.jsonl",
        &stdout(&run(&["xcheck", "--json", "--backends", "dfs", SAMPLES])),
    );
    for (args, words) in [
        (vec!["report", b, b], "is in another input too"),
        (vec!["report", b, &x], "merge one kind at a time"),
        (
            vec!["report", &garbage],
            "garbage.jsonl:1:12: not an xcheck --json record: missing field `file`\n",
        ),
        (vec!["report", "no/such.json"], "no/such.json"),
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(words), "{args:?}: {}", stderr(&o));
    }
}
