//! Effort read from what external programs print, on their real output captured in
//! `tests/data/solver-output/` (MiniSat 2.2.1, CaDiCaL 1.5.3, Kissat 4.0.4, PicoSAT 965 and
//! MiniZinc 2.6.4 with Gecode 6.2.0, on the first 17-clue puzzle's CNF or small formulas), and
//! end to end: `unique --json --backend sat-ext` with the real `minisat` carries its counters.

use std::path::Path;
use std::process::Command;

use sudoku_lab::effort::Effort;
use sudoku_lab::solver_stats::{minizinc_effort, sat_effort, split_effort_words};

fn captured(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/solver-output")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `(decisions, conflicts, propagations, restarts)`.
fn cdpr(e: &Effort) -> [Option<u64>; 4] {
    [e.decisions, e.conflicts, e.propagations, e.restarts]
}

#[test]
fn sat_solvers_statistics_become_counters() {
    // (file, satisfiable, decisions, conflicts, propagations, restarts)
    let cases = [
        // MiniSat prints 24 decisions and 1 "restart" (the first search): one decision is the
        // pick that found the model, and no restart happened.
        ("minisat-sat.txt", true, 23, 10, 959, 0),
        ("minisat-sat-triad.txt", true, 7, 2, 661, 0),
        // Unsatisfiable: the decisions are as printed.
        ("minisat-unsat.txt", false, 1, 2, 2, 0),
        ("minisat-unsat-simplified.txt", false, 0, 0, 2, 0),
        ("cadical-sat.txt", true, 650, 33, 2386, 0),
        // Solved by propagation: CaDiCaL leaves out the zero counters.
        ("cadical-sat-propagated.txt", true, 0, 0, 2, 0),
        ("kissat-sat.txt", true, 41, 24, 6449, 0),
        ("picosat-sat.txt", true, 689, 116, 15164, 0),
    ];
    for (file, sat, d, c, p, r) in cases {
        let e = sat_effort(&captured(file), sat).unwrap_or_else(|| panic!("{file}: no effort"));
        assert_eq!(cdpr(&e), [Some(d), Some(c), Some(p), Some(r)], "{file}");
        assert_eq!((e.guesses, e.nodes), (None, None), "{file}");
    }
}

#[test]
fn no_statistics_is_no_effort_not_zero() {
    // `minisat -verb=0`, `cadical -q`: the answer lines only.
    assert_eq!(sat_effort("SATISFIABLE\n", true), None);
    assert_eq!(sat_effort("s SATISFIABLE\nv 1 -2 0\n", true), None);
    assert_eq!(minizinc_effort("row 1: 1 2\n----------\n", "gecode"), None);
    // The compilation's statistics alone are not the solver's.
    let flat = "%%%mzn-stat: flatIntVars=64\n%%%mzn-stat: flatTime=0.06\n%%%mzn-stat-end\n";
    assert_eq!(minizinc_effort(flat, "gecode"), None);
}

#[test]
fn minizinc_statistics_become_counters() {
    // Solve: 44 nodes, 20 failed, 1 solved, so 23 branch points.
    let e = minizinc_effort(&captured("minizinc-gecode-solve.txt"), "gecode").unwrap();
    assert_eq!(
        (e.guesses, e.nodes, e.conflicts, e.propagations, e.restarts),
        (Some(23), Some(44), Some(20), Some(3100), Some(0))
    );
    assert_eq!(e.decisions, None);
    // A complete count to 2: the whole tree, 67 nodes = 33 branch points + 34 leaves.
    let e = minizinc_effort(&captured("minizinc-gecode-count.txt"), "gecode").unwrap();
    assert_eq!(
        (e.guesses, e.nodes, e.conflicts),
        (Some(33), Some(67), Some(33))
    );
    // Another solver: the four counters only.
    let e = minizinc_effort(&captured("minizinc-gecode-solve.txt"), "cp-sat").unwrap();
    assert_eq!((e.guesses, e.decisions, e.nodes), (None, None, Some(44)));
}

#[test]
fn chuffed_nodes_are_decisions_plus_the_root() {
    // Chuffed is not packaged here: these are the lines of its `Engine::printStats` (nodes
    // starts at 1 and counts each decision; failures are its conflicts), not captured output.
    let out = "%%%mzn-stat: nodes=13\n%%%mzn-stat: failures=5\n%%%mzn-stat: restarts=0\n\
               %%%mzn-stat: propagations=812\n%%%mzn-stat: nogoods=5\n%%%mzn-stat-end\n";
    let e = minizinc_effort(out, "chuffed").unwrap();
    assert_eq!(
        (e.decisions, e.nodes, e.conflicts, e.guesses),
        (Some(12), Some(13), Some(5), None)
    );
}

#[test]
fn cmd_answers_may_end_with_effort_words() {
    let (answer, e) = split_effort_words("2 1221 2112 guesses=1 nodes=3").unwrap();
    assert_eq!(answer, "2 1221 2112");
    assert_eq!((e.guesses, e.nodes), (Some(1), Some(3)));
    let e = split_effort_words("1234 speed=9").unwrap_err().to_string();
    assert!(e.contains("'speed' is not a counter"), "{e}");
}

fn installed(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// The first 17-clue puzzle: the minimal encoding and Gecode's propagation leave it open.
const P17: &str =
    ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
/// Its solution with the first cell left open: a naked single.
const EASY: &str =
    ".53168742862734951417952836746893125281645397395271468138529674574386219629417583";

/// The JSON answer of `sudoku-lab ARGS FILE`, FILE holding `puzzle`; the run must succeed.
fn answer(args: &[&str], puzzle: &str) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    std::fs::write(&file, format!("{puzzle}\n")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_sudoku-lab"))
        .args(args)
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let line = String::from_utf8(out.stdout).unwrap();
    serde_json::from_str(line.trim()).unwrap()
}

#[test]
fn solve_json_with_minisat_carries_decisions_and_conflicts() {
    if !installed("minisat") {
        eprintln!("skipped: minisat not installed");
        return;
    }
    let sat_ext = ["--json", "--backend", "sat-ext", "--sat-cmd"];
    let minimal = ["--encoding", "minimal", "--no-propagate"];
    let searched = answer(
        &[&["solve"], &sat_ext[..], &["minisat -no-pre"], &minimal].concat(),
        P17,
    );
    let effort = &searched["effort"];
    assert!(effort["decisions"].as_u64().unwrap() > 0, "{searched}");
    assert!(effort["conflicts"].as_u64().is_some(), "{searched}");
    assert!(effort["restarts"].as_u64().is_some(), "{searched}");
    // Unit propagation in MiniSat solves the easy one, uniqueness check included: its one
    // printed decision is the pick that finds the model.
    let propagated = answer(
        &[&["unique"], &sat_ext[..], &["minisat", "--no-propagate"]].concat(),
        EASY,
    );
    assert_eq!(propagated["status"], "unique", "{propagated}");
    assert_eq!(propagated["effort"]["decisions"], 0, "{propagated}");
    assert_eq!(propagated["effort"]["conflicts"], 0, "{propagated}");
    // The givens simplified away (the default) leave their variables in no clause; they are
    // not in the file MiniSat reads, so it does not decide them. With them declared, MiniSat
    // without preprocessing made 443 decisions on this puzzle; with the givens as unit clauses,
    // 10.
    let simplified = answer(
        &[
            &["unique"],
            &sat_ext[..],
            &["minisat -no-pre", "--no-propagate", "--encoding", "triad"],
        ]
        .concat(),
        P17,
    );
    assert_eq!(simplified["status"], "unique", "{simplified}");
    let decisions = simplified["effort"]["decisions"].as_u64().unwrap();
    assert!(decisions < 100, "{simplified}");
    // Without statistics there is no effort at all.
    let quiet = answer(
        &[&["solve"], &sat_ext[..], &["minisat -verb=0"]].concat(),
        P17,
    );
    assert!(quiet.get("effort").is_none(), "{quiet}");
}

#[test]
fn solve_json_with_minizinc_carries_gecodes_counters() {
    if !installed("minizinc") || !installed("fzn-gecode") {
        eprintln!("skipped: minizinc or fzn-gecode not installed");
        return;
    }
    let a = answer(&["unique", "--json", "-b", "minizinc"], P17);
    assert_eq!(a["status"], "unique", "{a}");
    let effort = &a["effort"];
    let (nodes, guesses) = (effort["nodes"].as_u64(), effort["guesses"].as_u64());
    assert!(
        guesses.unwrap() > 0 && nodes.unwrap() > guesses.unwrap(),
        "{a}"
    );
    assert!(effort["conflicts"].as_u64().is_some(), "{a}");
}
