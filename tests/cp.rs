//! The `cp` backend (huub): known counts under every option setting, proved optima, time-outs
//! and refusals. Its agreement with the other backends on random puzzles of every shape is in
//! `tests/agreement.rs`, on Killers in `tests/killer.rs`, and on the judge samples in
//! `tests/judge.rs`, all of which take every default backend.
#![cfg(feature = "cp")]

mod common;
use common::{parse_line, run, run_with, stderr, stdout};

use std::sync::Arc;

use std::time::{Duration, Instant};

use sudoku_lab::backend::{Backend, BackendError, Limits};
use sudoku_lab::backends::{self, BackendKind, BackendOptions};
use sudoku_lab::cp::{AllDiffLevel, Branching, CpOptions, HouseCover, ObjectiveBound, Searches};
use sudoku_lab::isolate::{self, Crash, Fault, WorkerProgram};
use sudoku_lab::model::{Puzzle, Shape, Weights};
use sudoku_lab::task::{self, Answer, RunError, Task};

/// The `cp` backend with these model options, searching in this thread.
fn cp_with(model: CpOptions) -> Box<dyn Backend> {
    let mut o = BackendOptions::default();
    o.cp.model = model;
    backends::create(BackendKind::Cp, &o).unwrap()
}

/// This package's `sudoku-lab` as the worker `kind` (`cp` or `faults`).
fn worker(kind: &str) -> WorkerProgram {
    WorkerProgram::new(env!("CARGO_BIN_EXE_sudoku-lab"), ["__worker", kind])
}

/// `(puzzle, known count)` from `test_puzzles.counts` (counts 0 to 847).
fn known_counts() -> Vec<(Puzzle, u64)> {
    let text = std::fs::read_to_string("tests/data/9x9/test_puzzles.counts").unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.trim().split(':').collect();
            (parse_line(f[0]), f[1].parse().unwrap())
        })
        .collect()
}

fn checked_count(b: &dyn Backend, p: &Puzzle, limit: u64) -> (u64, bool) {
    match task::run(b, p, Task::Count { limit }, &Limits::none()) {
        Ok(Answer::NoSolution) => (0, true),
        Ok(a) => a.count().unwrap_or_else(|| panic!("{}", a.status())),
        Err(e) => panic!("{}: {e}", b.name()),
    }
}

#[test]
fn test_puzzles_counts_are_the_known_counts() {
    let cp = cp_with(CpOptions::default());
    let cases = known_counts();
    assert!(cases.iter().any(|&(_, c)| c == 0) && cases.iter().any(|&(_, c)| c > 100));
    for (p, expected) in &cases {
        assert_eq!(
            checked_count(cp.as_ref(), p, 1000),
            (*expected, true),
            "{p:?}"
        );
    }
}

/// The options change how the solver sees the model, never what it answers: every sound
/// setting, with the fixed cells in the all-differents or out, gives the known counts, and
/// stops exactly at a limit below them.
#[test]
fn every_option_setting_gives_the_known_counts() {
    let empty4 = Puzzle::new(Arc::new(Shape::standard(4, false).unwrap()), vec![0; 16]).unwrap();
    let cases = known_counts();
    for alldiff in [AllDiffLevel::Value, AllDiffLevel::Bounds] {
        for house_cover in HouseCover::ALL {
            for (branching, drop_fixed) in Branching::ALL
                .into_iter()
                .flat_map(|b| [(b, false), (b, true)])
            {
                let o = CpOptions {
                    alldiff,
                    house_cover,
                    branching,
                    drop_fixed,
                    ..CpOptions::default()
                };
                let cp = cp_with(o);
                assert_eq!(
                    checked_count(cp.as_ref(), &empty4, 1000),
                    (288, true),
                    "{o:?}"
                );
                assert_eq!(
                    checked_count(cp.as_ref(), &empty4, 100),
                    (100, false),
                    "{o:?}"
                );
                // Every puzzle with up to 130 solutions (none, one, and several).
                for (p, expected) in cases.iter().filter(|&&(_, c)| c <= 130) {
                    assert_eq!(
                        checked_count(cp.as_ref(), p, 1000),
                        (*expected, true),
                        "{o:?} {p:?}"
                    );
                }
            }
        }
    }
}

/// Searches on fresh copies (what a crash of incremental searches is retried with) count the
/// same as the default incremental ones.
#[test]
fn searches_on_copies_give_the_known_counts() {
    let cp = cp_with(CpOptions {
        searches: Searches::Copies,
        ..CpOptions::default()
    });
    for (p, expected) in known_counts().iter().filter(|&&(_, c)| c <= 200) {
        assert_eq!(
            checked_count(cp.as_ref(), p, 1000),
            (*expected, true),
            "{p:?}"
        );
    }
}

/// The optimum of `p` under `cp` with `options`, which must be proved and equal `dfs`'s.
fn assert_cp_optimum_is_dfs_optimum(options: CpOptions, p: &Puzzle) {
    let cp = cp_with(options);
    let dfs = backends::create(BackendKind::Dfs, &Default::default()).unwrap();
    let got = task::run(cp.as_ref(), p, Task::Optimize, &Limits::none()).unwrap();
    let want = task::run(dfs.as_ref(), p, Task::Optimize, &Limits::none()).unwrap();
    let (Answer::Optimum { score, proved, .. }, Answer::Optimum { score: best, .. }) =
        (&got, &want)
    else {
        panic!("{got:?} / {want:?}")
    };
    assert!(proved, "not proved under {options:?}: {p:?}");
    assert_eq!(score, best, "{options:?}: {p:?}");
}

/// The puzzles `skip + 1` to `skip + take` of a line file, with `weights`.
fn weighted(path: &str, skip: usize, take: usize, weights: &Weights) -> Vec<Puzzle> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .skip(skip)
        .take(take)
        .map(|line| {
            parse_line(line.trim())
                .with_weights(Arc::new(weights.clone()))
                .unwrap()
        })
        .collect()
}

#[test]
fn optimize_proves_the_pyramid_optima() {
    // The empty 4×4 with pyramid weights, the first puzzles of pyramid50.txt (NOIP-style, 24 to
    // 30 givens) and the last of random-weighted9.txt (weights of both signs, 34 givens; with
    // fewer, the search without the bound takes seconds to a minute): the same proved optimum
    // as dfs, with the reduced-cost bound and without it.
    let mut puzzles = vec![
        Puzzle::new(Arc::new(Shape::standard(4, false).unwrap()), vec![0; 16])
            .unwrap()
            .with_weights(Arc::new(Weights::pyramid(4)))
            .unwrap(),
    ];
    puzzles.extend(weighted(
        "tests/data/pyramid50.txt",
        0,
        8,
        &Weights::pyramid(9),
    ));
    let text = std::fs::read_to_string("tests/data/weights-random9.txt").unwrap();
    let random: Vec<i64> = text
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    let random = Weights::new(9, random).unwrap();
    puzzles.extend(weighted("tests/data/random-weighted9.txt", 42, 8, &random));
    for bound in ObjectiveBound::ALL {
        for p in &puzzles {
            let options = CpOptions {
                objective_bound: bound,
                ..CpOptions::default()
            };
            assert_cp_optimum_is_dfs_optimum(options, p);
        }
    }
    // The NOIP 2009 samples' optima through the judge mode.
    for (sample, optimum) in [
        ("sample0", "2864"),
        ("sample1", "2829"),
        ("sample2", "2852"),
    ] {
        let path = format!("tests/data/cases/noip2009/{sample}.in");
        let o = run(&["judge", "noip2009", &path, "--backend", "cp"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(stdout(&o).trim(), optimum, "{sample}");
    }
}

/// `sudoku-lab optimize --backend cp` on the empty 9×9 pyramid within `timeout` seconds.
fn empty_pyramid_by_cp(timeout: &str) -> std::process::Output {
    let args = [
        "optimize",
        "--backend",
        "cp",
        "--weights",
        "pyramid",
        "--timeout",
        timeout,
    ];
    run_with(&args, &".".repeat(81))
}

/// The reduced-cost bound is what lets `cp` prove the empty 9×9 pyramid (2906): without it the
/// search finds 2881 and proves nothing within a minute (docs/benchmarks.md), with it the run
/// takes about a second. So this fails when the bound is lost or weakened.
#[test]
fn the_reduced_cost_bound_proves_the_empty_pyramid() {
    let o = empty_pyramid_by_cp("60");
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("2906 "), "{out}");
    assert!(!out.contains("not proved"), "{out}");
}

#[test]
fn a_count_stopped_by_the_deadline_is_a_time_out_never_an_answer() {
    // The empty 16×16 has far more than 10⁹ solutions: no enumeration ends in half a second.
    let o = run_with(
        &[
            "count",
            "--backend",
            "cp",
            "--limit",
            "1000000000",
            "--timeout",
            "0.5",
        ],
        &".".repeat(256),
    );
    assert_eq!(o.status.code(), Some(3), "{}{}", stdout(&o), stderr(&o));
    assert!(!stdout(&o).contains("no solution"), "{}", stdout(&o));
    // In the library: a time-out that says how many solutions it had found.
    let cp = cp_with(CpOptions::default());
    let empty = Puzzle::new(Arc::new(Shape::standard(16, false).unwrap()), vec![0; 256]).unwrap();
    let r = task::run(
        cp.as_ref(),
        &empty,
        Task::Count {
            limit: 1_000_000_000,
        },
        &Limits::timeout(std::time::Duration::from_millis(300)),
    );
    assert!(
        matches!(r, Err(RunError::CountTimedOut { found }) if found > 0),
        "{r:?}"
    );
}

#[test]
fn an_optimum_stopped_by_the_deadline_is_not_called_proved() {
    // The empty 9×9 pyramid: found at once, not proved in a tenth of a second.
    let o = empty_pyramid_by_cp("0.1");
    assert_eq!(o.status.code(), Some(3), "{}{}", stdout(&o), stderr(&o));
    assert!(!stdout(&o).contains("no solution"), "{}", stdout(&o));
}

#[test]
fn a_puzzle_over_the_memory_limit_is_refused_by_name() {
    let o = run_with(
        &["solve", "--backend", "cp", "--cp-memory-mib", "1"],
        &".".repeat(81),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--cp-memory-mib"), "{}", stderr(&o));
    assert!(!stdout(&o).contains("no solution"), "{}", stdout(&o));
}

#[test]
fn the_cp_flags_are_checked() {
    for (flag, value) in [
        ("--cp-alldiff", "strong"),
        ("--cp-branch", "random"),
        ("--cp-house-cover", "sometimes"),
        ("--cp-searches", "parallel"),
        ("--cp-memory-mib", "0"),
        ("--cp-objective-bound", "lagrangian"),
    ] {
        let o = run_with(&["solve", "--backend", "cp", flag, value], &".".repeat(16));
        assert_eq!(o.status.code(), Some(2), "{flag} {value}");
        assert!(stderr(&o).contains(flag), "{}", stderr(&o));
    }
    // Each accepted setting answers the same.
    for args in [
        vec!["--cp-alldiff", "bounds"],
        vec!["--cp-house-cover", "linear"],
        vec!["--cp-house-cover", "none"],
        vec!["--cp-searches", "copies"],
        vec!["--cp-branch", "first-fail"],
        vec!["--cp-branch", "input-order"],
        vec!["--cp-in-process"],
    ] {
        let mut all = vec!["count", "--backend", "cp", "--limit", "1000"];
        all.extend(args.iter().copied());
        let o = run_with(&all, &".".repeat(16));
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o).trim(), "288", "{args:?}");
    }
}

/// `--cp-objective-bound` reaches the backend: on a puzzle of pyramid50.txt, the bound leaves the
/// search a small part of the decisions it makes without it (4,430 without; about 210 with,
/// some more when the first stage runs out of its 10 ms), for the same optimum.
#[test]
fn the_objective_bound_flag_reaches_the_backend() {
    let puzzle =
        "..3...1..8.......5.65...3...8.25..34..78.9.5...6...91...8.7...1...1......1.....9.";
    let decisions = |bound: &str| {
        let o = run_with(
            &[
                "optimize",
                "--backend",
                "cp",
                "--weights",
                "pyramid",
                "--json",
                "--cp-objective-bound",
                bound,
            ],
            puzzle,
        );
        assert_eq!(o.status.code(), Some(0), "{bound}: {}", stderr(&o));
        let answer: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        let score = answer["score"].as_i64().unwrap();
        (score, answer["effort"]["decisions"].as_u64().unwrap())
    };
    let (with, without) = (decisions("reduced-costs"), decisions("none"));
    assert_eq!(with.0, without.0);
    assert!(with.1 * 3 < without.1, "{with:?} against {without:?}");
}

/// A Killer of `benches/data/killer1000.txt` (line 797) on which huub 100.1 under `bounds` with
/// the linear house cover crashes inside CaDiCaL (a segmentation fault).
const HUUB_CRASHER: &str = "................................................................................. 012233456017777486917aabc8d911aeefghijjkelfhhijmkenoppiqrksnttpurrssvwtpuurrwwwxx 9,31,7,10,17,6,3,19,12,17,15,6,3,4,14,9,3,21,14,10,16,3,4,17,2,23,5,31,17,13,9,4,19,12";

/// A crash inside the solver costs nothing but time: the search runs in a child process, and a
/// crash is retried in another form, which answers. In process the same
/// setting ends the run by a signal (huub 100.1; a later huub may answer, and then so must we).
#[test]
fn a_solver_crash_is_retried_in_another_form_and_the_batch_goes_on() {
    let killer = std::fs::read_to_string("benches/data/killer1000.txt").unwrap();
    let first = killer.lines().next().unwrap();
    let input = format!("{HUUB_CRASHER}\n{first}\n");
    let args = [
        "count",
        "--limit",
        "2",
        "--backend",
        "cp",
        "--cp-alldiff",
        "bounds",
    ];
    let linear = [&args[..], &["--cp-house-cover", "linear"]].concat();
    let o = run_with(&linear, &input);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "1\n1\n");
    let in_process = [&linear[..], &["--cp-in-process"]].concat();
    let o = run_with(&in_process, &input);
    match o.status.code() {
        None => {} // the crash this guards against
        Some(_) => assert_eq!(stdout(&o), "1\n1\n", "{}", stderr(&o)),
    }
}

/// Puzzles huub 100.1 cannot take as they are: arrows whose two-cell sums alias one cell by
/// another in a cycle (its presolve looped forever: a time-out at best), a little killer that
/// two-valued cells cannot make (its lowering panicked), a sandwich no digits can make (as a
/// linear sum, the same panic), a skyscraper clue no line can meet (its "seen" cells as reified
/// linear sums and their count as one: the same panic), and anti-king pairs as two-cell
/// all-differents (a grid with two kings' neighbours equal, which the checker rejected). `cp`
/// answers them all as `dfs` does.
#[test]
fn models_huub_cannot_take_as_they_are_are_answered() {
    for file in [
        "tests/data/fpuzzles/arrow-alias4.json",
        "tests/data/fpuzzles/littlekiller-none4.json",
        "tests/data/fpuzzles/sandwich-none4.json",
        "tests/data/fpuzzles/skyscraper-none.json",
        "tests/data/fpuzzles/antiking6-pairs.json",
    ] {
        let args = |backend| {
            [
                "count",
                "--limit",
                "2",
                "--timeout",
                "10",
                "--backend",
                backend,
                file,
            ]
        };
        let (cp, dfs) = (run(&args("cp")), run(&args("dfs")));
        assert_eq!(cp.status.code(), Some(0), "{file}: {}", stderr(&cp));
        assert_eq!(stdout(&cp), stdout(&dfs), "{file}");
    }
}

/// Two 4×4 arrow cases of the fuzzer on which huub 100.1's presolve looped forever, sums over
/// three open cells closing a cycle; such sums are tables now. Replayed by case number, each
/// must be answered within the time limit rather than time out.
#[test]
fn arrow_sums_over_three_cells_in_a_cycle_are_answered() {
    for case in ["39319", "85424"] {
        let o = run(&[
            "fuzz",
            "--size",
            "4",
            "--variants",
            "arrow",
            "--backends",
            "dfs,cp",
            "--seed",
            "2",
            "--case",
            case,
            "--puzzles",
            "1",
            "--timeout",
            "5",
        ]);
        assert_eq!(o.status.code(), Some(0), "case {case}: {}", stderr(&o));
        assert!(
            !stdout(&o).contains("timed out"),
            "case {case}: {}",
            stdout(&o)
        );
    }
}

/// Killers without a solution, shrunk from fuzz cases (6×6, six cages; 9×9, nine cages; 9×9,
/// four cages) on which huub 100.1 crashed in every form. In the third, the row leaves the
/// 22-cage's cells `1..=6` and 9, a domain with holes: built over that set, huub crashed inside
/// CaDiCaL's conflict analysis.
const NO_SOLUTION_KILLERS: [&str; 3] = [
    "....................................:0 0.................1.....122..3144.55 4,8,6,6,10,3",
    ".................................................................................:0 ....000.....1........12........3........3.4..5...6.477....6........6........68888 6,9,2,14,5,4,25,16,10",
    ".................................................................................:0 ...................00......................................................1112.3 5,22,8,7",
];

/// Each of them is answered "no solution" in the worker and in process, through the command
/// (exit 0; the `:0` of each line is the known count it is checked against) and through the
/// library, with the worker and without.
#[test]
fn killers_without_a_solution_are_answered_no_solution() {
    let input = NO_SOLUTION_KILLERS.join("\n") + "\n";
    for extra in [&[][..], &["--cp-in-process"]] {
        let args = [&["count", "--backend", "cp"][..], extra].concat();
        let o = run_with(&args, &input);
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "no solution\n".repeat(3), "{extra:?}");
    }
    let mut with_worker = BackendOptions::default();
    with_worker.cp.worker = Some(worker("cp"));
    let backends = [
        backends::create(BackendKind::Cp, &BackendOptions::default()).unwrap(),
        backends::create(BackendKind::Cp, &with_worker).unwrap(),
    ];
    for line in NO_SOLUTION_KILLERS {
        let read = sudoku_lab::format::read_puzzles(line, &Default::default());
        let puzzle = &read[0].as_ref().unwrap().puzzle;
        let cages = line.rsplit(' ').next().unwrap().split(',').count();
        assert_eq!(puzzle.cages().count(), cages);
        for cp in &backends {
            let got = task::run(
                cp.as_ref(),
                puzzle,
                Task::Count { limit: 2 },
                &Limits::none(),
            );
            assert!(matches!(got, Ok(Answer::NoSolution)), "{line}: {got:?}");
        }
    }
}

/// A 6×6 Killer (fuzz seed 74, case 18,167, shrunk) whose answer from huub 100.1, with the
/// fixed cells in the all-differents, held 5 twice in its cage of five cells 3, 8, 9, 10, 11;
/// the checker refused it. Posted as clauses too, the cage holds: four solutions, the count
/// `dfs` and `sat` give, in every search form.
#[test]
fn a_cage_short_of_a_house_holds_its_digits_apart() {
    let line = ".................................... \
                0001..0011112233..45....46.7..86.... 16,17,9,7,7,3,3,3,5\n";
    let count = ["count", "--limit", "10", "--backend"];
    let runs = [
        &["dfs"][..],
        &["sat"],
        &["cp"],
        &["cp", "--cp-in-process"],
        &["cp", "--cp-searches", "copies"],
        &["cp", "--cp-house-cover", "none"],
    ];
    for run in runs {
        let args = [&count[..], run].concat();
        let o = run_with(&args, line);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "4\n", "{args:?}");
    }
}

/// `--cp-alldiff domain` gives wrong answers in huub 100.1: it is refused (exit 2, naming why and
/// `--allow-unsound`) unless allowed, by every command that builds backends, and by the
/// library.
#[test]
fn an_unsound_setting_needs_allow_unsound() {
    let puzzle = ".".repeat(16);
    for command in [
        &["count", "--backend", "cp", "--limit", "1000"][..],
        &[
            "xcheck",
            "--backends",
            "dfs,cp",
            "--task",
            "count",
            "--limit",
            "1000",
        ],
    ] {
        let refused = run_with(&[command, &["--cp-alldiff", "domain"]].concat(), &puzzle);
        assert_eq!(refused.status.code(), Some(2), "{command:?}");
        let message = stderr(&refused);
        for word in ["unsound", "huub 100.1", "--allow-unsound", "domain"] {
            assert!(message.contains(word), "{word}: {message}");
        }
        let allowed = [command, &["--cp-alldiff", "domain", "--allow-unsound"]].concat();
        let o = run_with(&allowed, &puzzle);
        assert_eq!(o.status.code(), Some(0), "{command:?}: {}", stderr(&o));
    }
    let o = run(&[
        "fuzz",
        "--backends",
        "dfs,cp",
        "--size",
        "4",
        "--puzzles",
        "3",
        "--seed",
        "1",
        "--cp-alldiff",
        "domain",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let domain = CpOptions {
        alldiff: AllDiffLevel::Domain,
        ..CpOptions::default()
    };
    let mut o = BackendOptions::default();
    o.cp.model = domain;
    match backends::create(BackendKind::Cp, &o) {
        Err(BackendError::Unsupported(why)) => assert!(why.contains("--allow-unsound"), "{why}"),
        other => panic!("{:?}", other.map(|b| b.name())),
    }
    o.cp.model.allow_unsound = true;
    assert!(backends::create(BackendKind::Cp, &o).is_ok());
}

/// A 9×9 Killer without a solution (fuzz seed 5003, case 13914, shrunk) on which huub 100.1
/// crashes in process, under the default settings and every house cover, but not under
/// `bounds` all-different: the worker's retries reach that form and answer.
const KILLER_CRASHING_UNDER_VALUE: &str = ".................................................................................:0 .........000..1.2..30..4.2......4............................5.......65....777755 28,7,14,8,13,25,8,14";

#[test]
fn the_worker_retries_a_crash_under_bounds_all_different() {
    let o = run_with(&["count", "--backend", "cp"], KILLER_CRASHING_UNDER_VALUE);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "no solution\n");
    let o = run_with(
        &[
            "count",
            "--backend",
            "cp",
            "--cp-in-process",
            "--cp-alldiff",
            "bounds",
        ],
        KILLER_CRASHING_UNDER_VALUE,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "no solution\n");
}

/// A 9×9 Killer with both diagonals and no solution (fuzz seed 1128, case 186444, shrunk to
/// eight cages) on which huub 100.1 crashed in every form but the one that leaves the fixed
/// cells out of the all-differents.
const DIAGONAL_KILLER_CRASHER: &str = ".................................................................................:0 ..0.11.........2........2....333.......3.4....5...4........6..............77..... 1,11,4,10,5,3,4,14";

/// Every puzzle on which huub 100.1 is known to crash, under the options it crashed with, is
/// answered in process once the fixed cells are left out of the all-differents
/// (`CpOptions::drop_fixed`), with `dfs`'s count; and through the command, whose worker retries
/// a crash in that form first, and in process under `--cp-drop-fixed`, the diagonal Killer is
/// answered "no solution". A crash here ends the test binary: the test fails.
#[test]
fn fixed_cells_out_of_the_all_differents_answer_every_known_crash() {
    let args = ["count", "--limit", "2", "--diagonals", "--backend", "cp"];
    for extra in [&[][..], &["--cp-in-process", "--cp-drop-fixed"]] {
        let o = run_with(&[&args[..], extra].concat(), DIAGONAL_KILLER_CRASHER);
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "no solution\n", "{extra:?}");
    }
    let value = CpOptions {
        drop_fixed: true,
        ..CpOptions::default()
    };
    let cases = [
        (DIAGONAL_KILLER_CRASHER, true, value),
        (KILLER_CRASHING_UNDER_VALUE, false, value),
        (
            HUUB_CRASHER,
            false,
            CpOptions {
                alldiff: AllDiffLevel::Bounds,
                house_cover: HouseCover::Linear,
                ..value
            },
        ),
        (
            "98.7..6..75..6..9...6......4...3.....9......4..58...7..2....1.3..95...6.....21..9",
            false,
            value,
        ),
        (
            ".................1..2.34.5...36......4..75.3.5...8.2...249......7....8..3...27.4.",
            false,
            value,
        ),
    ];
    let dfs = backends::create(BackendKind::Dfs, &BackendOptions::default()).unwrap();
    for (line, diagonals, options) in cases {
        let read = sudoku_lab::format::read_puzzles(
            line,
            &sudoku_lab::format::ReadOptions {
                diagonals,
                ..Default::default()
            },
        );
        let puzzle = &read[0].as_ref().unwrap().puzzle;
        let cp = cp_with(options);
        assert_eq!(
            checked_count(cp.as_ref(), puzzle, 2),
            checked_count(dfs.as_ref(), puzzle, 2),
            "{line}"
        );
    }
}

/// A worker that crashes, panics, aborts or hangs costs its request only: each gives a named
/// error, and the next request is answered by a new worker.
#[test]
fn a_crash_a_panic_an_abort_and_a_hang_each_end_one_request() {
    let mut faults = worker("faults");
    faults.silence = Duration::from_secs(1);
    let pid = |w: &WorkerProgram| isolate::call::<_, u32>(w, &Fault::Pid, None).unwrap();
    let first = pid(&faults);
    assert_eq!(pid(&faults), first, "the worker is kept");
    assert_ne!(first, std::process::id());
    let ask = |fault, deadline| isolate::call::<_, u32>(&faults, &fault, deadline);
    let mut pids = vec![first];
    for (fault, named) in [
        (Fault::Crash, "segmentation fault"),
        (Fault::Panic, "panicked (deliberate)"),
        (Fault::Abort, "abort"),
        (Fault::Hang, "no sign of life for 1 s"),
    ] {
        let started = Instant::now();
        let got = ask(fault, None);
        let message = got.as_ref().map_err(|e| e.to_string()).unwrap_err();
        assert!(message.contains(named), "{fault:?}: {message}");
        assert!(started.elapsed() < Duration::from_secs(10), "{fault:?}");
        let next = pid(&faults);
        if fault != Fault::Panic {
            assert!(!pids.contains(&next), "{fault:?}: a new worker");
        }
        pids.push(next);
    }
    // A worker that gives signs of life (one a second) but never answers is killed at its
    // deadline, not for silence.
    faults.silence = Duration::from_secs(5);
    let started = Instant::now();
    let deadline = Instant::now() + Duration::from_millis(500);
    let busy = isolate::call::<_, u32>(&faults, &Fault::Busy, Some(deadline));
    assert_eq!(busy, Err(Crash::Killed));
    assert!(started.elapsed() >= isolate::GRACE);
    assert!(started.elapsed() < isolate::GRACE + Duration::from_secs(5));
    pid(&faults);
    // A program that is no worker at all is an error too, not a hang.
    let missing = WorkerProgram::new("/nonexistent/sudoku-lab-worker", ["x"]);
    assert!(matches!(
        isolate::call::<_, u32>(&missing, &Fault::Pid, None),
        Err(Crash::Io(_))
    ));
}

/// A 6×6 Killer with eight solutions (`fuzz --backends dfs,sat,cp --size 6 --killer --variants
/// …,anti-king --task count --limit 20 --seed 4242`, case 125,163, shrunk): the root domains
/// must run hidden singles to their fixpoint, or huub's presolve fixes a cell late and the
/// solver it builds lets a cage repeat a digit, which the checker rejects.
#[test]
fn a_killer_whose_root_needs_hidden_singles_is_counted() {
    let line = "..6...2.....6.......................:8:146325235416614532523641451263362154 \
                011...0112..0344..0355..0..5..66.55. 18,18,4,3,9,17,9\n";
    for extra in [&[][..], &["--cp-in-process"]] {
        let args = [&["count", "--backend", "cp", "--limit", "20"][..], extra].concat();
        let o = run_with(&args, line);
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "8\n", "{extra:?}");
    }
}

/// The first puzzle of forum_hardest_1106 (`../shared/data/9x9/`): `dfs` needs guesses.
const HARD: &str =
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
/// The second puzzle of 17_clue: the root domains fix every cell, so huub makes no decision.
const ROOT_SOLVED: &str =
    ".................1.....2.3......3.2...4....5...6.1.....3......6.7..8...952.7.....";

/// The counters huub reported for solving `line` with `options`.
fn cp_effort(options: &BackendOptions, line: &str) -> sudoku_lab::effort::Effort {
    let cp = backends::create(BackendKind::Cp, options).unwrap();
    let limits = Limits::none().metered();
    assert!(cp.solve(&parse_line(line), &limits).unwrap().is_some());
    limits.effort()
}

/// huub's statistics reach the caller's meter, the same in the worker as in process (the search
/// is deterministic); a puzzle whose root domains fix every cell is answered with every counter
/// at 0, and a hard one with decisions, conflicts and propagator calls.
#[test]
fn huub_reports_its_effort_in_the_worker_and_in_process() {
    let in_process = BackendOptions::default();
    let mut in_worker = BackendOptions::default();
    in_worker.cp.worker = Some(worker("cp"));
    let hard = cp_effort(&in_process, HARD);
    assert_eq!(cp_effort(&in_worker, HARD), hard);
    assert!(
        hard.decisions.unwrap() > 0 && hard.conflicts.unwrap() > 0,
        "{hard:?}"
    );
    assert!(
        hard.propagations.unwrap() > 0 && hard.restarts.is_some(),
        "{hard:?}"
    );
    assert_eq!(
        (hard.guesses, hard.nodes, hard.lp_iterations),
        (None, None, None)
    );
    let easy = cp_effort(&in_worker, ROOT_SOLVED);
    assert_eq!(easy.no_guess(), Some(true), "{easy:?}");
    assert_eq!((easy.conflicts, easy.propagations), (Some(0), Some(0)));
    // Counting searches again after the solution: the effort adds up over the searches.
    let cp = backends::create(BackendKind::Cp, &in_worker).unwrap();
    let limits = Limits::none().metered();
    cp.count(&parse_line(HARD), 2, &limits).unwrap();
    assert!(limits.effort().conflicts.unwrap() > hard.conflicts.unwrap());
}

/// `solve --json` carries huub's counters from the worker (the command's default) and in process.
#[test]
fn json_answers_carry_huubs_effort() {
    for extra in [&[][..], &["--cp-in-process"]] {
        let args = [&["solve", "--json", "--backend", "cp"][..], extra].concat();
        let o = run_with(&args, &format!("{HARD}\n{ROOT_SOLVED}\n"));
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {}", stderr(&o));
        let efforts: Vec<serde_json::Value> = stdout(&o)
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["effort"].clone())
            .collect();
        assert_eq!(efforts.len(), 2);
        assert!(efforts[0]["decisions"].as_u64().unwrap() > 0, "{extra:?}");
        assert!(efforts[0]["conflicts"].as_u64().unwrap() > 0, "{extra:?}");
        assert_eq!(efforts[1]["decisions"], 0, "{extra:?}");
        assert!(
            efforts[0].get("guesses").is_none(),
            "not measured is absent"
        );
    }
}

/// A generated 9×9 puzzle of each kind whose rules have forms of their own in the model
/// (candidates, quadruples, between and lockout lines, skyscraper and X-sum clues) is unique for
/// `cp`, in process and in its worker, with the grid it was cut from as its solution; MiniZinc
/// with Gecode, which shares only the model's lowering, counts one solution too where installed.
#[test]
fn generated_9x9_puzzles_of_the_kinds_with_forms_of_their_own_are_unique_for_cp() {
    use sudoku_lab::generate::{GenerateOptions, Generator, PuzzleSpec};
    use sudoku_lab::model::ConstraintKind as K;
    let in_process = cp_with(CpOptions::default());
    let mut o = BackendOptions::default();
    o.cp.worker = Some(worker("cp"));
    let in_worker = backends::create(BackendKind::Cp, &o).unwrap();
    let gecode = common::gecode_installed();
    let mzn = backends::create(BackendKind::MiniZinc, &Default::default()).unwrap();
    for kind in [
        K::Candidates,
        K::Quadruple,
        K::Between,
        K::Lockout,
        K::Skyscraper,
        K::XSum,
    ] {
        let mut spec = PuzzleSpec::new(9);
        spec.variants = vec![kind];
        let options = GenerateOptions {
            unique: true,
            seed: 1,
            ..GenerateOptions::of(spec)
        };
        let (p, grid) = Generator::new(options, in_process.as_ref())
            .unwrap()
            .generate_with_solution()
            .unwrap();
        assert!(p.constraints().iter().any(|c| c.kind() == kind), "{kind}");
        for cp in [&in_process, &in_worker] {
            let answer = task::run(cp.as_ref(), &p, Task::Unique, &Limits::none()).unwrap();
            assert_eq!(answer, Answer::Unique(grid.clone()), "{kind}");
        }
        if gecode {
            let answer = task::run(mzn.as_ref(), &p, Task::Unique, &Limits::none()).unwrap();
            assert_eq!(answer, Answer::Unique(grid.clone()), "minizinc: {kind}");
        }
    }
}
