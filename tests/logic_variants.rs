//! The logic engine on Killer cages and every variant rule: per kind, generated puzzles with one
//! solution are finished with every step true to the solution (from `dfs`), and a step naming a
//! rule of the kind appears; published puzzles of the corpus likewise; a property test over
//! random mixes of kinds; uniqueness techniques stay off; a run without bifurcation that stalls
//! says so.

use proptest::prelude::*;
use sudoku_lab::backends::{create, BackendKind};
use sudoku_lab::generate::variants::drawn_kinds;
use sudoku_lab::generate::{GenerateOptions, Generator, PuzzleSpec};
use sudoku_lab::logic::render::text;
use sudoku_lab::logic::table::Family;
use sudoku_lab::logic::verify::check_path;
use sudoku_lab::logic::{solve, Ladder, SolveOutcome, SolveResult, Technique};
use sudoku_lab::model::{ConstraintKind, Grid, Puzzle};

/// A puzzle of side `n` with one solution, of `kinds` (Killer cages of 2 to 4 cells for
/// [`ConstraintKind::Killer`]), and that solution.
fn generated(n: usize, kinds: &[ConstraintKind], seed: u64) -> (Puzzle, Grid) {
    try_generated(n, kinds, seed).unwrap()
}

/// [`generated`], or `None` when no grid keeps the rules (anti-king on 4×4).
fn try_generated(n: usize, kinds: &[ConstraintKind], seed: u64) -> Option<(Puzzle, Grid)> {
    let killer = kinds.contains(&ConstraintKind::Killer);
    let spec = PuzzleSpec {
        killer: killer.then_some((2, 4)),
        variants: kinds
            .iter()
            .copied()
            .filter(|&k| k != ConstraintKind::Killer)
            .collect(),
        ..PuzzleSpec::new(n)
    };
    let opts = GenerateOptions {
        unique: true,
        seed,
        ..GenerateOptions::of(spec)
    };
    let dfs = create(BackendKind::Dfs, &Default::default()).unwrap();
    Generator::new(opts, dfs.as_ref())
        .unwrap()
        .generate_with_solution()
        .ok()
}

/// Solves with `ladder` and fails on the first step that the solution contradicts.
fn checked(puzzle: &Puzzle, solution: &Grid, ladder: &Ladder, what: &str) -> SolveResult {
    let result = solve(puzzle, ladder).unwrap();
    if let Err(wrong) = check_path(solution.cells(), &result.steps) {
        let step = &result.steps[wrong.index];
        panic!("{what}: {wrong}: {}", text(puzzle.shape(), step));
    }
    result
}

/// Steps that read a rule (they carry its name).
fn rule_steps(result: &SolveResult) -> usize {
    result.steps.iter().filter(|s| s.rule.is_some()).count()
}

/// Kinds whose rules only keep cells distinct: the board counts those cells as peers, so
/// placements and the house techniques do their work and no step need name them (a group's
/// hidden single may, when no house has one first).
const DISTINCT_ONLY: [ConstraintKind; 4] = [
    ConstraintKind::AntiKnight,
    ConstraintKind::AntiKing,
    ConstraintKind::DisjointGroups,
    ConstraintKind::ExtraRegion,
];

#[test]
fn every_kind_on_6x6_is_finished_with_true_steps_that_name_its_rules() {
    let mut kinds = vec![ConstraintKind::Killer];
    kinds.extend(drawn_kinds());
    assert_eq!(kinds.len(), ConstraintKind::ALL.len());
    for kind in kinds {
        let mut named = 0;
        for seed in 0..3 {
            let (p, solution) = generated(6, &[kind], seed);
            let what = format!("{kind} seed {seed}");
            let result = checked(&p, &solution, &Ladder::default(), &what);
            assert_eq!(result.outcome, SolveOutcome::Solved, "{what}");
            assert_eq!(result.board.values(), solution.cells(), "{what}");
            named += rule_steps(&result);
        }
        if !DISTINCT_ONLY.contains(&kind) {
            assert!(named > 0, "{kind}: no step names a rule");
        }
    }
}

#[test]
fn a_killer_cage_step_names_the_cage_and_its_sum() {
    // r1c1+r1c2 = 3 on a 4×4 grid: the cage holds 1 and 2.
    let text_in = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],
        "killercage":[{"cells":["R1C1","R1C2"],"value":"3"}]}"#;
    let p = sudoku_lab::format::read_puzzles(text_in, &Default::default())
        .remove(0)
        .unwrap()
        .puzzle;
    let first = Ladder::default()
        .next_step(&sudoku_lab::logic::Board::new(&p).unwrap())
        .unwrap();
    assert_eq!(first.technique, Technique::RuleNarrowing);
    assert_eq!(
        text(p.shape(), &first),
        "[Killer cage r1c1 3] r1c12<>3, r1c12<>4"
    );
}

#[test]
fn published_puzzles_take_only_true_steps() {
    // A sample across kinds (Killer, palindrome, anti-knight, …); the whole corpus is graded in
    // docs/benchmarks.md.
    let names = [
        "october-10-2023-killer",
        "aug-18-23-palindrome-killer",
        "anti-knight-minimal-givens-1",
        "4squarex",
    ];
    for name in names {
        let (p, solution) = published(name);
        let result = checked(&p, &solution, &Ladder::default(), name);
        assert_eq!(result.outcome, SolveOutcome::Solved, "{name}");
    }
}

#[test]
fn the_last_resort_finishes_solver_needs_set_with_true_steps() {
    // A boxless Killer with Kropki dots that the ladder does not finish: its bifurcations ask
    // whether a digit leads to a solution, and refuting one takes `dfs` seconds, so the `sat`
    // engine answers those (`logic::rules::solvable_with`). Every step is checked against the
    // solution.
    let (p, solution) = published("solver-needs-set");
    let result = checked(&p, &solution, &Ladder::default(), "solver-needs-set");
    assert_eq!(result.outcome, SolveOutcome::Solved);
    let guesses = result.steps.iter();
    let guesses = guesses.filter(|s| s.technique == Technique::Bifurcation);
    assert!(guesses.count() > 0, "solved without the last resort");
}

/// The published puzzle `name` of the corpus, and its solution.
fn published(name: &str) -> (Puzzle, Grid) {
    let path = format!("tests/data/published/{name}.json");
    let doc = std::fs::read_to_string(&path).unwrap();
    let p = sudoku_lab::format::read_puzzles(&doc, &Default::default())
        .remove(0)
        .unwrap()
        .puzzle;
    let solution = sudoku_lab::task::unique_solution(&p).expect(name);
    (p, solution)
}

#[test]
fn forcing_nets_that_read_the_rules_finish_published_puzzles_without_a_guess() {
    // Each needed bifurcation while its nets propagated singles and the rules alone:
    // `keep-off-the-border` (anti-knight, thermometers, lockout lines) needs the naked and
    // hidden pairs of the houses in the nets, `deflation` (arrows, cages, quadruples) its
    // arrows read with distinct digits, `antiknight-coloring-book-two-birds` pointing through
    // knight's moves.
    for name in [
        "keep-off-the-border",
        "deflation",
        "antiknight-coloring-book-two-birds",
    ] {
        let (p, solution) = published(name);
        let result = checked(&p, &solution, &Ladder::default(), name);
        assert_eq!(result.outcome, SolveOutcome::Solved, "{name}");
        let guesses = result.steps.iter();
        let guesses = guesses.filter(|s| s.technique == Technique::Bifurcation);
        assert_eq!(guesses.count(), 0, "{name} needed a guess");
    }
}

#[test]
fn uniqueness_techniques_stay_off_with_rules() {
    for seed in 0..4 {
        let (p, solution) = generated(6, &[ConstraintKind::Killer], seed);
        let result = checked(&p, &solution, &Ladder::default(), "killer");
        assert!(result
            .steps
            .iter()
            .all(|s| s.technique.info().family != Family::Uniqueness));
    }
}

#[test]
fn without_the_rule_techniques_a_variant_run_stalls_and_says_so() {
    // Singles alone leave a thermometer puzzle with few givens unfinished: the run is stuck,
    // not wrong, and the candidates it leaves keep the solution.
    let (p, solution) = generated(6, &[ConstraintKind::Thermo], 3);
    let ladder = Ladder::parse("singles").unwrap();
    let result = checked(&p, &solution, &ladder, "thermo");
    assert_eq!(result.outcome, SolveOutcome::Stuck);
    for (c, &d) in solution.cells().iter().enumerate() {
        let b = &result.board;
        assert!(
            b.value(c) == d || b.has(c, d),
            "r{}c{}",
            c / 6 + 1,
            c % 6 + 1
        );
    }
}

#[test]
fn the_logic_backend_proves_a_killer_unique_by_logic_alone() {
    use sudoku_lab::backend::Limits;
    use sudoku_lab::task::{run, Answer, Task};
    let logic = create(BackendKind::Logic, &Default::default()).unwrap();
    for kind in [ConstraintKind::Killer, ConstraintKind::Thermo] {
        assert!(logic.takes(kind));
    }
    let (p, solution) = generated(6, &[ConstraintKind::Killer], 1);
    match run(logic.as_ref(), &p, Task::Unique, &Limits::none()).unwrap() {
        Answer::Unique(grid) => assert_eq!(grid, solution),
        other => panic!("{other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_step_on_random_mixes_is_true_to_the_solution(
        a in 0..ConstraintKind::ALL.len(),
        b in 0..ConstraintKind::ALL.len(),
        four in any::<bool>(),
        seed in 0u64..1_000_000,
    ) {
        let kinds = [ConstraintKind::ALL[a], ConstraintKind::ALL[b]];
        let n = if four { 4 } else { 6 };
        let made = try_generated(n, &kinds, seed);
        prop_assume!(made.is_some());
        let (p, solution) = made.unwrap();
        let what = format!("{kinds:?} n {n} seed {seed}");
        let result = checked(&p, &solution, &Ladder::default(), &what);
        prop_assert_eq!(result.outcome, SolveOutcome::Solved, "{}", what);
        prop_assert_eq!(result.board.values(), solution.cells());
    }
}
