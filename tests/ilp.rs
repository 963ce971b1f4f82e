//! The `ilp` backend against known facts (NOIP 2009 optima, the empty 9×9 pyramid optimum 2906,
//! the 288 solutions of the empty 4×4) and against the `dfs` backend on generated puzzles; every
//! answer goes through `task::run`, so the independent checker sees it. Each test runs with every
//! ILP solver compiled in (microlp always, HiGHS with `--features highs`).

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use sudoku_lab::backend::{Backend, BackendError, Limits};
use sudoku_lab::backends::ilp::{IlpOptions, IlpSolver};
use sudoku_lab::backends::{self, BackendKind, BackendOptions};
use sudoku_lab::generate::GenRng;
use sudoku_lab::ilp::model::{IlpModel, Reduction};
use sudoku_lab::model::{Puzzle, Shape, Value, Weights};
use sudoku_lab::task::{self, Answer, RunError, Task};

fn solvers() -> Vec<IlpSolver> {
    IlpSolver::NAMES
        .iter()
        .map(|&(s, _)| s)
        .filter(|s| s.available())
        .collect()
}

fn ilp(solver: IlpSolver) -> Box<dyn Backend> {
    let options = BackendOptions {
        ilp: IlpOptions { solver },
        ..Default::default()
    };
    backends::create(BackendKind::Ilp, &options).unwrap()
}

fn dfs() -> Box<dyn Backend> {
    backends::create(BackendKind::Dfs, &BackendOptions::default()).unwrap()
}

fn puzzle(n: usize, givens: Vec<Value>) -> Puzzle {
    Puzzle::new(Arc::new(Shape::standard(n, false).unwrap()), givens).unwrap()
}

fn pyramid(p: Puzzle) -> Puzzle {
    let n = p.size();
    p.with_weights(Arc::new(Weights::pyramid(n))).unwrap()
}

/// A NOIP 2009 judge input: nine lines of nine numbers, 0 for empty.
fn noip(name: &str) -> (Puzzle, i64) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cases/noip2009");
    let input = std::fs::read_to_string(dir.join(format!("{name}.in"))).unwrap();
    let output = std::fs::read_to_string(dir.join(format!("{name}.out"))).unwrap();
    let givens = input
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    (pyramid(puzzle(9, givens)), output.trim().parse().unwrap())
}

fn run(b: &dyn Backend, p: &Puzzle, task: Task) -> Answer {
    task::run(b, p, task, &Limits::none())
        .unwrap_or_else(|e| panic!("{} on {task:?}: {e}", b.name()))
}

fn proved_optimum(a: &Answer) -> i64 {
    match a {
        Answer::Optimum {
            score,
            proved: true,
            ..
        } => *score,
        other => panic!("expected a proved optimum, got {other:?}"),
    }
}

#[test]
fn noip2009_sample_optima() {
    for solver in solvers() {
        for name in ["sample0", "sample1", "sample2"] {
            let (p, expected) = noip(name);
            let a = run(ilp(solver).as_ref(), &p, Task::Optimize);
            assert_eq!(proved_optimum(&a), expected, "{name} with {solver:?}");
        }
    }
}

#[test]
fn empty_9x9_pyramid_optimum_is_2906() {
    for solver in solvers() {
        let p = pyramid(puzzle(9, vec![0; 81]));
        let a = run(ilp(solver).as_ref(), &p, Task::Optimize);
        assert_eq!(proved_optimum(&a), 2906, "{solver:?}");
    }
}

#[test]
fn empty_4x4_has_288_solutions() {
    for solver in solvers() {
        let b = ilp(solver);
        let p = puzzle(4, vec![0; 16]);
        let count = |limit| run(b.as_ref(), &p, Task::Count { limit }).count();
        assert_eq!(count(300), Some((288, true)), "{solver:?}");
        // Stopping at the limit means "at least", even when the limit is the exact count.
        assert_eq!(count(288), Some((288, false)), "{solver:?}");
        assert_eq!(count(5), Some((5, false)), "{solver:?}");
    }
}

#[test]
fn clashing_givens_have_no_solution() {
    let mut g = vec![0; 81];
    g[0] = 5;
    g[80] = 5;
    g[8] = 5; // same row as cell 0
    let p = pyramid(puzzle(9, g));
    for solver in solvers() {
        let b = ilp(solver);
        for task in [
            Task::Solve,
            Task::Unique,
            Task::Count { limit: 10 },
            Task::Optimize,
        ] {
            assert_eq!(run(b.as_ref(), &p, task), Answer::NoSolution, "{task:?}");
        }
    }
}

#[test]
fn no_solution_found_by_the_solver_itself() {
    // From tdoku's test puzzles (count 0). No two givens clash and singles do not expose a
    // contradiction, so the solver itself must prove infeasibility.
    let lines = [
        "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4.",
        ".2....7..4....9.3.6..723.4...83.........1....9....4.6..94....5.5.....6.3.....5...",
        ".......8...6.8.1..7....3..2.47..5...5..32............53....4..7......9...1.9...6.",
    ];
    for line in lines {
        // '.' sorts below '0', so it becomes 0 (empty).
        let givens = line
            .bytes()
            .map(|b| b.saturating_sub(b'0') as Value)
            .collect();
        let p = pyramid(puzzle(9, givens));
        assert!(
            IlpModel::build(&p, false, Reduction::Singles).is_ok(),
            "premise: singles alone must not refute {line}"
        );
        assert_eq!(run(dfs().as_ref(), &p, Task::Unique), Answer::NoSolution);
        for solver in solvers() {
            let b = ilp(solver);
            for task in [Task::Solve, Task::Unique, Task::Optimize] {
                assert_eq!(
                    run(b.as_ref(), &p, task),
                    Answer::NoSolution,
                    "{line} {task:?}"
                );
            }
        }
    }
}

/// A solved grid (dfs on the empty grid, digits relabelled at random) with `blanks` cells emptied.
fn generated(n: usize, blanks: usize, rng: &mut GenRng) -> Puzzle {
    let empty = puzzle(n, vec![0; n * n]);
    let solved = match run(dfs().as_ref(), &empty, Task::Solve) {
        Answer::Solved(g) => g,
        other => panic!("dfs found no grid for the empty {n}×{n}: {other:?}"),
    };
    let mut relabel: Vec<Value> = (1..=n as Value).collect();
    for i in (1..n).rev() {
        relabel.swap(i, rng.below(i + 1));
    }
    let mut cells: Vec<Value> = solved
        .cells()
        .iter()
        .map(|&v| relabel[v as usize - 1])
        .collect();
    for _ in 0..blanks {
        cells[rng.below(n * n)] = 0;
    }
    pyramid(puzzle(n, cells))
}

#[test]
fn agrees_with_dfs_on_generated_puzzles() {
    let mut rng = GenRng::seed(0x5eed_1234_abcd_0001);
    let reference = dfs();
    for solver in solvers() {
        let b = ilp(solver);
        for (n, blanks) in [(4, 12), (4, 40), (6, 20), (6, 60), (9, 45), (9, 60)] {
            for _ in 0..3 {
                let p = generated(n, blanks, &mut rng);
                let counted = |b: &dyn Backend| run(b, &p, Task::Count { limit: 10 }).count();
                assert_eq!(counted(b.as_ref()), counted(reference.as_ref()), "{p:?}");
                let unique = |b: &dyn Backend| run(b, &p, Task::Unique).status();
                assert_eq!(unique(b.as_ref()), unique(reference.as_ref()), "{p:?}");
                let solved = run(b.as_ref(), &p, Task::Solve);
                assert_eq!(solved.status(), "solved");
                let best = |b: &dyn Backend| proved_optimum(&run(b, &p, Task::Optimize));
                assert_eq!(best(b.as_ref()), best(reference.as_ref()), "{p:?}");
            }
        }
    }
}

/// The sums of double arrows, zipper and region sum lines, solved through their partial-sum flows
/// (`ilp::model`), on 6×6 and 9×9 grids with rules drawn from their solution: every solver's
/// counts (up to 12) and uniqueness verdicts are `dfs`'s.
#[test]
fn sum_lines_as_flows_count_as_dfs() {
    use sudoku_lab::generate::blank_solved;
    use sudoku_lab::generate::variants::draw;
    use sudoku_lab::model::ConstraintKind;
    let reference = dfs();
    let kinds = [
        ConstraintKind::DoubleArrow,
        ConstraintKind::Zipper,
        ConstraintKind::RegionSum,
    ];
    let mut cases = 0;
    for solver in solvers() {
        let b = ilp(solver);
        for (i, &kind) in kinds.iter().enumerate() {
            for (n, keep, seed) in [(6, 14, 1), (6, 10, 2), (9, 45, 3), (9, 40, 4)] {
                let mut rng = GenRng::seed(700 + 10 * i as u64 + seed);
                let shape = Arc::new(Shape::standard(n, false).unwrap());
                let (p, grid) = blank_solved(&shape, &mut rng, keep).unwrap();
                let rules = draw(kind, &shape, &grid, 3, &mut rng);
                if rules.is_empty() {
                    continue; // the grid leaves this kind no rule to draw
                }
                cases += 1;
                let p = p.with_constraints(rules).unwrap();
                let model = IlpModel::build(&p, false, Reduction::Givens).unwrap();
                assert!(model.n_vars() > model.vars().len(), "{kind}: no flow arcs");
                let counted = |b: &dyn Backend| run(b, &p, Task::Count { limit: 12 }).count();
                let want = counted(reference.as_ref());
                assert!(
                    want.is_some_and(|(c, _)| c >= 1),
                    "{kind} {n}×{n} seed {seed}: {want:?}"
                );
                assert_eq!(counted(b.as_ref()), want, "{kind} {n}×{n} seed {seed}");
                let unique = |b: &dyn Backend| run(b, &p, Task::Unique).status();
                assert_eq!(
                    unique(b.as_ref()),
                    unique(reference.as_ref()),
                    "{kind} seed {seed}"
                );
            }
        }
    }
    assert!(
        cases >= 10 * solvers().len(),
        "only {cases} cases had rules"
    );
}

#[test]
fn a_passed_deadline_is_a_time_out() {
    let p = pyramid(puzzle(9, vec![0; 81]));
    let expired = Limits::timeout(Duration::ZERO);
    for solver in solvers() {
        let b = ilp(solver);
        for task in [Task::Solve, Task::Count { limit: 10 }, Task::Optimize] {
            let r = task::run(b.as_ref(), &p, task, &expired);
            assert_eq!(
                r,
                Err(RunError::Backend(BackendError::TimedOut)),
                "{task:?}"
            );
        }
    }
}

/// Far more solutions than can be enumerated one solve each in a few seconds: a time-out, never
/// a count, that says how many solutions it had found.
#[test]
fn counting_past_the_deadline_is_a_time_out_that_says_what_it_found() {
    let p = puzzle(9, vec![0; 81]);
    for solver in solvers() {
        // A deadline of its own for each solver: the first one uses all of its time.
        let limits = Limits::timeout(Duration::from_secs(3));
        let r = task::run(
            ilp(solver).as_ref(),
            &p,
            Task::Count { limit: 1_000_000 },
            &limits,
        );
        match r {
            Err(RunError::CountTimedOut { found }) => assert!(found >= 1),
            other => panic!("{solver:?}: {other:?}"),
        }
    }
}

#[cfg(not(feature = "highs"))]
#[test]
fn highs_without_the_feature_is_unsupported() {
    let options = BackendOptions {
        ilp: IlpOptions {
            solver: IlpSolver::Highs,
        },
        ..Default::default()
    };
    match backends::create(BackendKind::Ilp, &options) {
        Err(BackendError::Unsupported(msg)) => assert!(msg.contains("--features highs"), "{msg}"),
        Err(e) => panic!("wrong error: {e}"),
        Ok(_) => panic!("a build without the highs feature created a HiGHS backend"),
    }
}

/// Writes the LP export of `p` to a fresh temporary file.
fn export(p: &Puzzle, objective: bool, tag: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("sudoku-lab-ilp-{}-{tag}.lp", std::process::id()));
    let mut file = std::fs::File::create(&path).unwrap();
    sudoku_lab::ilp::lp::write_lp(p, objective, &mut file).unwrap();
    path
}

/// Runs an external MIP solver and returns its stdout followed by the text of its solution file;
/// `None` (with a visible message) when the program is not installed.
fn external(program: &str, args: &[&str], solution: &Path) -> Option<String> {
    match std::process::Command::new(program).args(args).output() {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!("skipped: {program} not installed");
            None
        }
        Err(e) => panic!("running {program}: {e}"),
        Ok(out) => {
            assert!(out.status.success(), "{program} failed: {out:?}");
            let text = std::fs::read_to_string(solution).unwrap_or_default();
            let _ = std::fs::remove_file(solution);
            Some(format!("{}\n{text}", String::from_utf8_lossy(&out.stdout)))
        }
    }
}

/// The optimum glpsol reports for an LP file (`Objective:  obj = 2864 (MAXimum)`); `Some(None)`
/// when it finds no integer optimum.
fn glpsol_optimum(lp: &Path) -> Option<Option<i64>> {
    let out = lp.with_extension("glpsol.txt");
    let text = external("glpsol", &["--lp", lp.to_str()?, "-o", out.to_str()?], &out)?;
    if !text.contains("INTEGER OPTIMAL SOLUTION FOUND") {
        return Some(None);
    }
    let line = text.lines().find(|l| l.starts_with("Objective:")).unwrap();
    let value = line
        .split('=')
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    Some(Some(value.parse::<f64>().unwrap().round() as i64))
}

/// The optimum cbc reports (`Optimal - objective value 2864.00000000` in its solution file).
fn cbc_optimum(lp: &Path) -> Option<Option<i64>> {
    let out = lp.with_extension("cbc.txt");
    let text = external("cbc", &[lp.to_str()?, "solve", "solu", out.to_str()?], &out)?;
    let line = text
        .lines()
        .find(|l| l.starts_with("Optimal - objective value"));
    Some(line.map(|l| {
        let value = l.rsplit(' ').next().unwrap();
        value.parse::<f64>().unwrap().round() as i64
    }))
}

#[test]
fn lp_export_gives_the_same_optimum_in_glpsol_and_cbc() {
    let backend = ilp(IlpSolver::Microlp);
    let mut rng = GenRng::seed(0x001b_e7a1);
    let mut cases: Vec<(String, Puzzle)> = ["sample0", "sample1", "sample2"]
        .iter()
        .map(|name| (name.to_string(), noip(name).0))
        .collect();
    cases.push(("generated-6x6".into(), generated(6, 30, &mut rng)));
    for (name, p) in cases {
        let expected = proved_optimum(&run(backend.as_ref(), &p, Task::Optimize));
        let lp = export(&p, true, &name);
        for (solver, optimum) in [("glpsol", glpsol_optimum(&lp)), ("cbc", cbc_optimum(&lp))] {
            if let Some(found) = optimum {
                assert_eq!(found, Some(expected), "{solver} on the export of {name}");
            }
        }
        let _ = std::fs::remove_file(&lp);
    }
}

#[test]
fn lp_export_of_an_infeasible_puzzle_is_infeasible() {
    let mut g = vec![0; 16];
    g[0] = 3;
    g[5] = 3; // same box
    let p = pyramid(puzzle(4, g));
    let lp = export(&p, true, "infeasible");
    for (solver, optimum) in [("glpsol", glpsol_optimum(&lp)), ("cbc", cbc_optimum(&lp))] {
        if let Some(found) = optimum {
            assert_eq!(
                found, None,
                "{solver} found an optimum of an infeasible export"
            );
        }
    }
    let _ = std::fs::remove_file(&lp);
}

#[test]
fn reference_lp_exports_are_current() {
    // encodings/noip2009-sampleK.lp are written by `cargo run --example lp_export`.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("encodings");
    for k in 0..3 {
        let (p, _) = noip(&format!("sample{k}"));
        let mut now = Vec::new();
        sudoku_lab::ilp::lp::write_lp(&p, true, &mut now).unwrap();
        let stored = std::fs::read(dir.join(format!("noip2009-sample{k}.lp"))).unwrap();
        assert!(
            stored == now,
            "encodings/noip2009-sample{k}.lp is stale: run `cargo run --example lp_export`"
        );
    }
}

#[test]
fn optimizing_past_the_deadline_is_incomplete_or_a_time_out() {
    let p = pyramid(puzzle(9, vec![0; 81]));
    for solver in solvers() {
        for ms in [1, 30, 120, 200, 260, 320] {
            let limits = Limits::timeout(Duration::from_millis(ms));
            match task::run(ilp(solver).as_ref(), &p, Task::Optimize, &limits) {
                Err(RunError::Backend(BackendError::TimedOut)) => {}
                Ok(Answer::Optimum {
                    score,
                    proved,
                    bound,
                    ..
                }) => {
                    eprintln!("{solver:?} {ms} ms: {score} proved {proved} bound {bound:?}");
                    assert!(score <= 2906);
                    assert!(proved || bound.is_some_and(|b| b >= 2906));
                }
                other => panic!("{solver:?} with {ms} ms: {other:?}"),
            }
        }
    }
}

/// A standard 9×9 puzzle from its 81 symbols (`.` for empty).
fn line(symbols: &str) -> Puzzle {
    puzzle(
        9,
        symbols
            .chars()
            .map(|c| c.to_digit(10).unwrap_or(0) as Value)
            .collect(),
    )
}

/// microlp's statistics: a hard puzzle (forum_hardest_1106 #1) takes simplex iterations; one
/// that singles solve before the program is built (17_clue #2) takes none and no node; the
/// optimum of the empty pyramid takes iterations too.
#[test]
fn microlp_reports_simplex_iterations_and_nodes() {
    let effort = |b: &dyn Backend, p: &Puzzle, task: Task| {
        let limits = Limits::none().metered();
        task::run(b, p, task, &limits).unwrap();
        limits.effort()
    };
    let b = ilp(IlpSolver::Microlp);
    let hard =
        line("........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3");
    let e_hard = effort(b.as_ref(), &hard, Task::Solve);
    assert!(
        e_hard.lp_iterations.unwrap() > 0 && e_hard.bb_nodes.is_some(),
        "{e_hard:?}"
    );
    assert_eq!(
        (e_hard.decisions, e_hard.conflicts, e_hard.guesses),
        (None, None, None)
    );
    let easy =
        line(".................1.....2.3......3.2...4....5...6.1.....3......6.7..8...952.7.....");
    let e = effort(b.as_ref(), &easy, Task::Solve);
    assert_eq!((e.lp_iterations, e.bb_nodes), (Some(0), Some(0)));
    let e = effort(b.as_ref(), &pyramid(puzzle(9, vec![0; 81])), Task::Optimize);
    assert!(e.lp_iterations.unwrap() > 0, "{e:?}");
    // microlp's infeasible run (the uniqueness proof) reports nothing: unique = solve.
    assert_eq!(effort(b.as_ref(), &hard, Task::Unique), e_hard);
    if IlpSolver::Highs.available() {
        highs_reports_every_run(&hard);
    }
}

/// HiGHS's statistics, read from its solved model whatever the outcome: the uniqueness proof's
/// infeasible run adds its iterations to the solve's.
fn highs_reports_every_run(hard: &Puzzle) {
    let b = ilp(IlpSolver::Highs);
    let effort = |task: Task| {
        let limits = Limits::none().metered();
        task::run(b.as_ref(), hard, task, &limits).unwrap();
        limits.effort()
    };
    let solve = effort(Task::Solve);
    assert!(
        solve.lp_iterations.unwrap() > 0 && solve.bb_nodes.is_some(),
        "{solve:?}"
    );
    assert_eq!((solve.decisions, solve.conflicts), (None, None));
    let unique = effort(Task::Unique);
    assert!(
        unique.lp_iterations.unwrap() > solve.lp_iterations.unwrap(),
        "solve {solve:?}, unique {unique:?}"
    );
}
