//! `bench` rows carry the search-effort columns (docs/cli.md, `bench`): real figures for `dfs` and
//! `dlx`, which count their own guesses and nodes, in the table, the CSV and the JSON.

mod common;
use common::{run, stderr, stdout};

/// Solved by naked and hidden singles: no guess in any backend that propagates them.
const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// The first puzzle of forum_hardest_1106: no backend solves it without guessing.
const HARD: &str =
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";

/// Every effort column of a row, by its CSV and JSON name.
const COLUMNS: [&str; 9] = [
    "no_guess_pct",
    "guesses_per_puzzle",
    "nodes_per_puzzle",
    "decisions_per_puzzle",
    "conflicts_per_puzzle",
    "propagations_per_puzzle",
    "restarts_per_puzzle",
    "lp_iterations_per_puzzle",
    "bb_nodes_per_puzzle",
];

#[test]
fn bench_rows_carry_the_effort_columns() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    std::fs::write(path("easy.txt"), format!("{EASY}\n")).unwrap();
    std::fs::write(path("hard.txt"), format!("{HARD}\n")).unwrap();
    let mut backends = vec!["dfs", "dlx", "sat", "ilp"];
    if cfg!(feature = "cp") {
        backends.push("cp");
    }
    let o = run(&[
        "bench",
        "--backends",
        &backends.join(","),
        "--timeout",
        "120",
        "--csv",
        &path("rows.csv"),
        "--json",
        &path("rows.json"),
        &path("easy.txt"),
        &path("hard.txt"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let header = stdout(&o).lines().next().unwrap().to_string();
    assert!(
        header.contains("no guess %") && header.contains("guesses/puzzle"),
        "{header}"
    );

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path("rows.json")).unwrap()).unwrap();
    let rows = json.as_array().unwrap();
    assert_eq!(rows.len(), 2 * backends.len());
    let row = |file: &str, backend: &str| {
        rows.iter()
            .find(|r| r["file"] == file && r["backend"] == backend)
            .unwrap_or_else(|| panic!("no {backend} row for {file}: {json}"))
    };
    for r in rows {
        assert_eq!(r["answered"], 1, "{r}");
        for c in COLUMNS {
            let v = &r[c];
            assert!(
                v.is_null() || v.as_f64().is_some_and(|x| x >= 0.0),
                "{c} is neither empty nor a figure: {r}"
            );
        }
    }
    for backend in ["dfs", "dlx"] {
        // Settled by propagation: one node (the root), no guess.
        let easy = row("easy.txt", backend);
        assert_eq!(easy["no_guess_pct"], 100.0, "{easy}");
        assert_eq!(easy["guesses_per_puzzle"], 0.0, "{easy}");
        assert_eq!(easy["nodes_per_puzzle"], 1.0, "{easy}");
        assert_eq!(easy["samples"][0]["effort"]["guesses"], 0, "{easy}");
        // A hard puzzle needs guesses, each below a node of its own.
        let hard = row("hard.txt", backend);
        assert_eq!(hard["no_guess_pct"], 0.0, "{hard}");
        let guesses = hard["guesses_per_puzzle"].as_f64().unwrap();
        let nodes = hard["nodes_per_puzzle"].as_f64().unwrap();
        assert!(guesses >= 1.0 && nodes > guesses, "{hard}");
        // Neither counts what it does not do: no figure, never 0.
        for c in [
            "decisions_per_puzzle",
            "conflicts_per_puzzle",
            "lp_iterations_per_puzzle",
        ] {
            assert!(hard[c].is_null(), "{backend} {c}: {hard}");
        }
    }
    // The in-process engines report what their solvers count. The uniqueness proof of the hard
    // puzzle is a refutation: a CDCL or CP search meets conflicts on the way; the easy one is
    // settled before any search.
    let sat = row("hard.txt", "sat");
    assert!(sat["conflicts_per_puzzle"].as_f64().unwrap() > 0.0, "{sat}");
    assert!(
        sat["decisions_per_puzzle"].is_null(),
        "varisat cannot count decisions: {sat}"
    );
    assert_eq!(row("easy.txt", "sat")["conflicts_per_puzzle"], 0.0);
    // `sat` is timed without its meter and counted in a second run (its meter makes varisat
    // write a proof): the count is the one the answer itself carries.
    let u = run(&["unique", "--backend", "sat", "--json", &path("hard.txt")]);
    assert_eq!(u.status.code(), Some(0), "{}", stderr(&u));
    let answer: serde_json::Value = serde_json::from_str(stdout(&u).trim()).unwrap();
    assert_eq!(
        sat["samples"][0]["effort"]["conflicts"], answer["effort"]["conflicts"],
        "{sat}\n{answer}"
    );
    let ilp = row("hard.txt", "ilp");
    assert!(
        ilp["lp_iterations_per_puzzle"].as_f64().unwrap() > 0.0,
        "{ilp}"
    );
    if cfg!(feature = "cp") {
        let cp = row("hard.txt", "cp");
        assert_eq!(cp["no_guess_pct"], 0.0, "{cp}");
        assert!(cp["decisions_per_puzzle"].as_f64().unwrap() > 0.0, "{cp}");
        assert!(cp["conflicts_per_puzzle"].as_f64().unwrap() > 0.0, "{cp}");
        let easy = row("easy.txt", "cp");
        assert_eq!(easy["no_guess_pct"], 100.0, "{easy}");
    }

    // The CSV carries the same figures, empty where there are none.
    let mut csv = csv::Reader::from_path(path("rows.csv")).unwrap();
    let names = csv.headers().unwrap().clone();
    let at = |c: &str| names.iter().position(|n| n == c).unwrap();
    for record in csv.records() {
        let record = record.unwrap();
        let of = |c: &str| record.get(at(c)).unwrap().to_string();
        if of("backend") == "dfs" && of("file") == "easy.txt" {
            assert_eq!(of("no_guess_pct").parse::<f64>().unwrap(), 100.0);
            assert_eq!(of("conflicts_per_puzzle"), "");
        }
        for c in COLUMNS {
            let v = of(c);
            assert!(v.is_empty() || v.parse::<f64>().is_ok(), "{c}: {record:?}");
        }
    }
}

#[test]
fn bench_without_the_meter_leaves_the_effort_columns_empty() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hard.txt");
    std::fs::write(&file, format!("{HARD}\n")).unwrap();
    let json = dir.path().join("rows.json");
    let o = run(&[
        "bench",
        "--backends",
        "dfs,sat",
        "--no-effort",
        "--json",
        &json.to_string_lossy(),
        &file.to_string_lossy(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    for r in rows.as_array().unwrap() {
        assert_eq!(r["answered"], 1, "{r}");
        for c in COLUMNS {
            assert!(r[c].is_null(), "{c} measured without a meter: {r}");
        }
    }
}
