//! `sudoku-lab fuzz` end to end: correct backends pass a fixed budget on every shape, a run is the
//! same whatever the number of jobs, and bad options are usage errors. Through the `cmd` backend,
//! deliberately wrong solvers (`examples/line_solver.rs --wrong …`) are caught within seconds
//! from a fixed seed and shrunk, and the correct one passes a fixed budget.

mod common;
use common::{run, stderr, stdout};

mod line_solver;

use std::process::Output;
use std::time::{Duration, Instant};

use line_solver::line_solver;

/// The summary without its rate (cases/s differ from run to run).
fn summary(o: &Output) -> String {
    let out = stdout(o);
    out.split(", ").next().unwrap_or_default().to_string()
}

/// Runs `sudoku-lab ARGS`, which must end within 30 s.
fn run_within_30s(args: &[&str]) -> Output {
    let start = Instant::now();
    let o = run(args);
    let took = start.elapsed();
    assert!(took < Duration::from_secs(30), "{args:?}: {took:?}");
    o
}

#[test]
fn correct_backends_pass_a_fixed_budget_on_every_shape() {
    for (shape, task) in [
        (&["--size", "4"][..], "count"),
        (&["--size", "6", "--diagonals"][..], "unique"),
        (&["--size", "5", "--jigsaw"][..], "count"),
        (&["--boxes", "2x3", "--diagonals"][..], "solve"),
        (&["--size", "4"][..], "optimize"),
        (&["--size", "9"][..], "unique"),
    ] {
        let mut args = vec![
            "fuzz",
            "--backends",
            "dfs,dlx,sat",
            "--puzzles",
            "40",
            "--seed",
            "11",
            "--task",
            task,
        ];
        args.extend_from_slice(shape);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(
            summary(&o),
            "no fault in 40 cases (seed 11",
            "{args:?}: {}",
            stdout(&o)
        );
    }
}

/// `--killer`: every backend that takes cages passes a fixed budget of Killer cases, on boxes,
/// with diagonals and on jigsaw regions, and the summary says which seed and cases.
#[test]
fn correct_backends_pass_a_fixed_budget_of_killers() {
    for shape in [
        &["--size", "4"][..],
        &["--size", "6", "--diagonals"][..],
        &["--size", "5", "--jigsaw"][..],
    ] {
        let mut args = vec![
            "fuzz",
            "--killer",
            "--cage-sizes",
            "1..4",
            "--backends",
            "dfs,dlx,sat,ilp",
            "--puzzles",
            "30",
            "--seed",
            "7",
            "--task",
            "count",
            "--limit",
            "100",
        ];
        args.extend_from_slice(shape);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(
            summary(&o),
            "no fault in 30 cases (seed 7",
            "{args:?}: {}",
            stdout(&o)
        );
    }
    let o = run(&["fuzz", "--cage-sizes", "2..3", "--backends", "dfs"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = run(&[
        "fuzz",
        "--killer",
        "--cage-sizes",
        "3..2",
        "--backends",
        "dfs",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--cage-sizes takes A..B"),
        "{}",
        stderr(&o)
    );
}

/// `--seconds` bounds the run even while a case is in flight: from seed 3, case 7 of a 9×9
/// `optimize` keeps `dlx` busy for minutes; with a 2 s budget its run is cut off at the budget
/// (a time-out, not a fault).
#[test]
fn the_budget_cuts_off_a_case_in_flight() {
    let o = run_within_30s(&[
        "fuzz",
        "--backends",
        "dfs,dlx",
        "--task",
        "optimize",
        "--seconds",
        "2",
        "--jobs",
        "1",
        "--seed",
        "3",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(summary(&o).starts_with("no fault in"), "{}", stdout(&o));
}

/// Time-outs are not faults, but the summary names the cases they happened in (the lowest
/// five), so that one can be replayed.
#[test]
fn the_summary_names_the_cases_with_time_outs() {
    let o = run(&[
        "fuzz",
        "--backends",
        "dfs,sat",
        "--size",
        "9",
        "--puzzles",
        "3",
        "--seed",
        "5",
        "--jobs",
        "1",
        "--timeout",
        "0.000000001",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    // Which backends notice a deadline already passed before answering depends on timing.
    let named = out
        .split(" timed out, in case")
        .nth(1)
        .unwrap_or_else(|| panic!("{out}"));
    let named = named.trim_start_matches('s').trim_start();
    let first = named.split(' ').next().unwrap();
    assert!(first.parse::<u64>().is_ok_and(|c| c < 3), "{out}");
    assert!(named.contains("(sat") || named.contains("(dfs"), "{out}");
    assert!(
        out.contains("replay one with --case I --puzzles 1"),
        "{out}"
    );
}

#[test]
fn a_run_is_the_same_whatever_the_jobs_and_can_start_at_any_case() {
    let base = [
        "fuzz",
        "--backends",
        "dfs,dlx",
        "--seed",
        "5",
        "--size",
        "6",
        "--puzzles",
        "30",
    ];
    let one = run(&[&base[..], &["-j", "1"]].concat());
    let two = run(&[&base[..], &["-j", "2"]].concat());
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    assert_eq!(summary(&one), summary(&two));
    let later = run(&[&base[..], &["--case", "100"]].concat());
    assert!(
        stdout(&later).starts_with("no fault in 30 cases (seed 5, cases 100..130)"),
        "{}",
        stdout(&later)
    );
}

#[test]
fn bad_options_are_usage_errors() {
    for (args, words) in [
        (
            &["fuzz", "--backends", "dfs,nope", "--puzzles", "1"][..],
            "unknown backend 'nope'",
        ),
        (
            &["fuzz", "--backends", "dfs", "--size", "7", "--puzzles", "1"][..],
            "no box shape fits side 7",
        ),
        (
            &[
                "fuzz",
                "--backends",
                "dfs",
                "--boxes",
                "2x",
                "--puzzles",
                "1",
            ][..],
            "--boxes takes RxC",
        ),
        (
            &["fuzz", "--backends", "dfs", "--seconds", "0"][..],
            "--seconds must be a positive number",
        ),
        (
            &[
                "fuzz",
                "--backends",
                "dfs",
                "--task",
                "optimize",
                "--weights",
                "no/such/file",
            ][..],
            "--weights no/such/file",
        ),
        (&["fuzz", "--puzzles", "1"][..], "--backends"),
        // The ladder of the step check, which only `logic` among the backends brings.
        (
            &["fuzz", "--backends", "dfs,sat", "--techniques", "all"][..],
            "--techniques sets the ladder of the logic step check, which runs only with the \
             logic backend among --backends",
        ),
        (
            &[
                "fuzz",
                "--backends",
                "logic,dfs",
                "--techniques",
                "fish,nope",
            ][..],
            "--techniques: unknown technique or family 'nope'",
        ),
        (
            &[
                "fuzz",
                "--hostile",
                "--backends",
                "logic,dfs",
                "--techniques",
                "all",
            ][..],
            "--techniques does not go with --hostile",
        ),
        // Side 2 with diagonals has no full grid: no case can be generated (not a fault).
        (
            &[
                "fuzz",
                "--backends",
                "dfs",
                "--size",
                "2",
                "--jigsaw",
                "--diagonals",
                "--puzzles",
                "1",
            ][..],
            "could not be generated: no full grid found for side 2",
        ),
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(words), "{args:?}: {}", stderr(&o));
    }
}

/// The number after `words` in `text` ("a unique puzzle with 18 givens" → 18; "X-Wing 4, …"
/// → 4).
fn number_after(text: &str, words: &str) -> usize {
    let at = text
        .find(words)
        .unwrap_or_else(|| panic!("no '{words}' in: {text}"));
    text[at + words.len()..]
        .split_whitespace()
        .next()
        .and_then(|w| w.trim_end_matches([',', ';']).parse().ok())
        .unwrap_or_else(|| panic!("no number after '{words}' in: {text}"))
}

/// Fuzzes `dfs` against the reference solver run with `--wrong fault`, from seed 1: the fault is
/// found and shrunk within a few seconds. Returns the report and the givens of the first puzzle
/// found and of the shrunk one.
fn wrong_solver_is_caught(fault: &str, extra: &[&str]) -> (String, usize, usize) {
    let cmd = format!("{} --wrong {fault}", line_solver());
    let mut args = vec![
        "fuzz",
        "--backends",
        "dfs,cmd",
        "--cmd",
        &cmd,
        "--seed",
        "1",
        "--seconds",
        "30",
        "-j",
        "1",
    ];
    args.extend_from_slice(extra);
    let start = Instant::now();
    let o = run(&args);
    let elapsed = start.elapsed();
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {out}{}", stderr(&o));
    assert!(elapsed < Duration::from_secs(10), "{elapsed:?}: {out}");
    let first = number_after(&out, "puzzle with");
    let shrunk = number_after(&out[out.find("shrunk in").unwrap_or(0)..], " to");
    assert!(shrunk <= first, "{out}");
    (out, first, shrunk)
}

#[test]
fn a_solver_that_forgets_a_diagonal_is_caught_and_shrunk_to_a_third() {
    // Choices that change how a backend answers are carried to the replay command.
    let (out, first, shrunk) = wrong_solver_is_caught(
        "diagonal",
        &[
            "--diagonals",
            "--pair-encoding",
            "order",
            "--cp-alldiff",
            "bounds",
            "--no-simplify",
        ],
    );
    assert!(
        3 * shrunk <= first,
        "shrunk to {shrunk} givens from {first}: {out}"
    );
    assert!(
        out.contains("checker rejected the cmd backend's answer: diagonal 2 holds"),
        "{out}"
    );
    assert!(
        out.contains("replay: sudoku-lab xcheck --backends dfs,cmd"),
        "{out}"
    );
    assert!(
        out.contains(" --pair-encoding order --cp-alldiff bounds --no-simplify"),
        "{out}"
    );
}

#[test]
fn a_solver_that_misses_a_solution_is_caught_by_the_cross_check() {
    // Only a cross-check sees this fault: every grid the solver gives is a solution.
    let (out, _, _) = wrong_solver_is_caught(
        "count",
        &["--size", "6", "--task", "count", "--limit", "50"],
    );
    assert!(out.contains("disagreement: dfs said"), "{out}");
}

#[test]
fn the_correct_solver_through_cmd_passes_a_fixed_budget() {
    for shape in [
        &["--size", "9", "--diagonals"][..],
        &["--size", "6", "--jigsaw"],
        &["--size", "4", "--task", "count"],
    ] {
        let mut args = vec![
            "fuzz",
            "--backends",
            "dfs,cmd",
            "--cmd",
            line_solver(),
            "--puzzles",
            "60",
            "--seed",
            "1",
        ];
        args.extend_from_slice(shape);
        let o = run(&args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{args:?}: {}{}",
            stdout(&o),
            stderr(&o)
        );
        assert_eq!(
            summary(&o),
            "no fault in 60 cases (seed 1",
            "{}",
            stdout(&o)
        );
    }
}

/// `--seconds` is a wall for the whole run, the making of cases included: on random jigsaws
/// under anti-knight the run stops at the wall and says how many cases it ran.
#[test]
fn the_wall_covers_the_making_of_cases() {
    let o = run_within_30s(&[
        "fuzz",
        "--backends",
        "dfs,sat",
        "--size",
        "9",
        "--jigsaw",
        "--variants",
        "anti-knight",
        "--seconds",
        "5",
        "--seed",
        "1",
        "--jobs",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("no fault in "), "{out}");
    assert!(out.contains("stopped at the wall (--seconds)"), "{out}");
}

/// A case with many rules whose drawing never ended: it now ends within the run's bounds, as
/// a case run or as a clear error.
#[test]
fn a_case_with_many_rules_ends() {
    let rules = "thermo,arrow,kropki,xv,whisper,renban,palindrome,little-killer,anti-knight,odd,\
                 even,extra-region,sandwich";
    let o = run_within_30s(&[
        "fuzz",
        "--backends",
        "dfs",
        "--size",
        "9",
        "--variants",
        rules,
        "--task",
        "count",
        "--limit",
        "5",
        "--seed",
        "9191",
        "--case",
        "13772",
        "--puzzles",
        "1",
        "--timeout",
        "10",
    ]);
    match o.status.code() {
        Some(0) => assert!(
            stdout(&o).starts_with("no fault in 1 case "),
            "{}",
            stdout(&o)
        ),
        Some(2) => assert!(stderr(&o).contains("case 13772"), "{}", stderr(&o)),
        other => panic!("exit {other:?}: {}{}", stdout(&o), stderr(&o)),
    }
}

/// With `logic` among the backends, the unique cases have the logic path checked step by step,
/// and the summary counts them, Killer cases as the others.
/// The 40 cases of seed 11 through `logic` and `dfs`.
const LOGIC_SEED_11: [&str; 7] = [
    "fuzz",
    "--backends",
    "logic,dfs",
    "--puzzles",
    "40",
    "--seed",
    "11",
];

#[test]
fn the_logic_backend_brings_the_step_check() {
    let base = LOGIC_SEED_11;
    let o = run_within_30s(&[&base[..], &["--size", "9"]].concat());
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert_eq!(summary(&o), "no fault in 40 cases (seed 11", "{out}");
    let puzzles = number_after(&out, "step by step on");
    let steps = number_after(&out, "with one solution:");
    assert_eq!(puzzles, PUZZLES_WITH_ONE_SOLUTION, "{out}");
    assert!(steps > 20 * puzzles, "{out}");
    assert!(out.contains(" steps, 0 wrong"), "{out}");

    let killer = [&base[..], &["--size", "4", "--killer"]].concat();
    let o = run_within_30s(&killer);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert!(number_after(&out, "step by step on") > 5, "{out}");
    assert!(out.contains(" steps, 0 wrong"), "{out}");
    assert!(!out.contains("not step-checked"), "{out}");

    // Without `logic`, no step check and no such words.
    let o = run_within_30s(&[
        "fuzz",
        "--backends",
        "dfs",
        "--puzzles",
        "10",
        "--seed",
        "11",
    ]);
    assert!(!stdout(&o).contains("step by step"), "{}", stdout(&o));
}

/// `--techniques` sets the ladder of the step check: a ladder of the singles, the fish and
/// bifurcation has the Franken fish (off the default ladder) take steps on the cases of seed 11,
/// each checked and counted in the summary; `all` names them too; without the option, the
/// summary has no such count.
#[test]
fn techniques_set_the_ladder_of_the_step_check() {
    let base = [
        &LOGIC_SEED_11[..],
        &["--size", "9", "-j", "1", "--techniques"],
    ]
    .concat();
    let franken = [
        "Franken X-Wing",
        "Franken Swordfish",
        "Finned Franken X-Wing",
        "Finned Franken Swordfish",
    ];
    let o = run_within_30s(&[&base[..], &["singles,fish,bifurcation"]].concat());
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert_eq!(summary(&o), "no fault in 40 cases (seed 11", "{out}");
    assert!(
        out.contains(" steps, 0 wrong; steps off the default ladder: "),
        "{out}"
    );
    assert_eq!(
        number_after(&out, "step by step on"),
        PUZZLES_WITH_ONE_SOLUTION
    );
    let off = &out[out.find("off the default ladder:").unwrap()..];
    let steps: usize = franken.iter().map(|t| number_after(off, t)).sum();
    assert!(steps > 0, "no Franken fish step checked: {out}");

    let o = run_within_30s(&[&base[..], &["all"]].concat());
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    let off = &out[out.find("; steps off the default ladder:").expect(&out)..];
    for t in franken {
        number_after(off, t);
    }
    let o = run_within_30s(&base[..base.len() - 1]);
    assert!(
        !stdout(&o).contains("off the default ladder"),
        "{}",
        stdout(&o)
    );
}

/// Cases 0..40 of seed 11 on 9×9 with one solution (the unique cases and the random cuts that
/// happen to have one).
const PUZZLES_WITH_ONE_SOLUTION: usize = 16;
