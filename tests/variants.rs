//! Variant rules: every backend that takes a kind (`sat` under each pair encoding) against a brute
//! force on 4×4 and 6×6 grids, per
//! kind and in random mixes (`minizinc` too, where MiniZinc with Gecode is installed); a known
//! count from outside the lab; refusals by kind name.
//!
//! The brute force enumerates the grids that keep the givens and fill every house, and keeps
//! those that the one checker accepts: it shares nothing with the backends or with the lowering
//! of the rules (`model::lower`) that the backends use.

use std::sync::Arc;

use proptest::prelude::*;
use sudoku_lab::backend::{BackendError, Limits};
use sudoku_lab::backends::{self, BackendKind};
use sudoku_lab::check;
use sudoku_lab::generate::variants::{draw, drawn_kinds};
use sudoku_lab::generate::{blank_solved, GenRng, PuzzleSpec};
use sudoku_lab::model::{Constraint, ConstraintKind, DotRule, Grid, Puzzle, Shape, Weights};
use sudoku_lab::sat::encode::PairEncoding;
use sudoku_lab::task::{self, Answer, RunError, Task};

/// A random grid of side `n` with `keep` givens and up to `count` rules of each of `kinds` that
/// the grid keeps.
fn variant(n: usize, seed: u64, keep: usize, kinds: &[ConstraintKind], count: usize) -> Puzzle {
    let mut rng = GenRng::seed(seed);
    let shape = Arc::new(Shape::standard(n, false).unwrap());
    let (puzzle, grid) = blank_solved(&shape, &mut rng, keep).unwrap();
    let mut rules = vec![];
    for &kind in kinds {
        rules.extend(draw(kind, &shape, &grid, count, &mut rng));
    }
    puzzle.with_constraints(rules).unwrap()
}

/// The one puzzle of `tests/data/fpuzzles/NAME.json`.
fn fpuzzles_file(name: &str) -> Puzzle {
    let text = std::fs::read_to_string(format!("tests/data/fpuzzles/{name}.json")).unwrap();
    sudoku_lab::format::read_puzzles(&text, &Default::default())
        .remove(0)
        .unwrap()
        .puzzle
}

/// Every counter that takes the puzzle's kinds counts what the brute force counts.
fn agree(puzzle: &Puzzle, cap: u64, what: &str) {
    agree_among(&counters(), puzzle, cap, what)
}

#[test]
fn every_kind_alone_matches_the_brute_force_on_4x4() {
    for &kind in drawn_kinds() {
        for seed in 0..12 {
            let p = variant(4, seed, 2, &[kind], 3);
            agree(&p, 300, &format!("4×4 {kind} seed {seed}"));
        }
    }
}

#[test]
fn every_kind_alone_matches_the_brute_force_on_6x6() {
    for &kind in drawn_kinds() {
        for seed in 0..4 {
            let p = variant(6, 100 + seed, 14, &[kind], 4);
            agree(&p, 100_000, &format!("6×6 {kind} seed {seed}"));
        }
    }
}

#[test]
fn minizinc_counts_as_the_brute_force_on_every_kind() {
    // One MiniZinc process per question (about 0.2 s): a few cases per kind, with a low cap.
    if !common::gecode_installed() {
        return;
    }
    let mzn = [Counter::new(
        BackendKind::MiniZinc,
        &Default::default(),
        "minizinc".into(),
    )];
    for &kind in drawn_kinds() {
        for seed in 0..2 {
            let p = variant(4, seed, 2, &[kind], 3);
            agree_among(&mzn, &p, 50, &format!("minizinc: 4×4 {kind} seed {seed}"));
        }
        let p = variant(6, 100, 14, &[kind], 4);
        agree_among(&mzn, &p, 50, &format!("minizinc: 6×6 {kind}"));
    }
}

#[test]
fn global_rules_on_empty_grids() {
    // Global rules rarely hold on a random grid, so they get empty grids of their own.
    for rules in [
        vec![Constraint::AntiKnight],
        vec![Constraint::AntiKing],
        vec![Constraint::DisjointGroups],
        vec![Constraint::Negative(DotRule::Difference(1))],
        vec![Constraint::Negative(DotRule::Ratio(2))],
        vec![Constraint::Negative(DotRule::Sum(5))],
        vec![Constraint::AntiKing, Constraint::Negative(DotRule::Sum(5))],
    ] {
        let shape = Arc::new(Shape::standard(4, false).unwrap());
        let p = Puzzle::new(shape, vec![0; 16])
            .unwrap()
            .with_constraints(rules.clone())
            .unwrap();
        agree(&p, 300, &format!("empty 4×4 with {rules:?}"));
    }
}

#[test]
fn ilp_counts_as_the_brute_force_on_small_cases_of_every_kind_it_takes() {
    // Counting is one solve per solution for `ilp`: few solutions per case (givens, a low cap).
    let ilp = ilp_alone();
    let mut kinds = 0;
    for &kind in drawn_kinds().iter().filter(|&&k| ilp[0].backend.takes(k)) {
        kinds += 1;
        for seed in 0..3 {
            let p = variant(4, 200 + seed, 6, &[kind], 3);
            agree_among(&ilp, &p, 12, &format!("ilp: 4×4 {kind} seed {seed}"));
        }
        let p = variant(6, 300, 20, &[kind], 4);
        agree_among(&ilp, &p, 12, &format!("ilp: 6×6 {kind}"));
    }
    assert_eq!(kinds, drawn_kinds().len(), "ilp takes every drawn kind");
    for rules in [
        vec![Constraint::AntiKnight],
        vec![Constraint::DisjointGroups],
        vec![Constraint::Negative(DotRule::Sum(5))],
    ] {
        let shape = Arc::new(Shape::standard(4, false).unwrap());
        let p = Puzzle::new(shape, vec![0; 16])
            .unwrap()
            .with_constraints(rules.clone())
            .unwrap();
        agree_among(&ilp, &p, 12, &format!("ilp: empty 4×4 with {rules:?}"));
    }
    for (i, kinds) in [
        [ConstraintKind::Thermo, ConstraintKind::Arrow],
        [ConstraintKind::Renban, ConstraintKind::Kropki],
        [ConstraintKind::LittleKiller, ConstraintKind::Even],
    ]
    .iter()
    .enumerate()
    {
        let p = variant(4, 400 + i as u64, 4, kinds, 2);
        agree_among(&ilp, &p, 12, &format!("ilp: 4×4 {kinds:?}"));
    }
}

#[test]
fn dlx_and_ilp_optimize_as_dfs_does_under_variant_rules() {
    let best = |kind: BackendKind, p: &Puzzle| -> Option<i64> {
        let b = backends::create(kind, &Default::default()).unwrap();
        match task::run(b.as_ref(), p, Task::Optimize, &Limits::none()) {
            Ok(Answer::Optimum {
                score,
                proved: true,
                ..
            }) => Some(score),
            Ok(Answer::NoSolution) => None,
            other => panic!("{}: {other:?}", b.name()),
        }
    };
    let mixes = [
        [ConstraintKind::Thermo, ConstraintKind::Kropki],
        [ConstraintKind::Renban, ConstraintKind::Odd],
        [ConstraintKind::Whisper, ConstraintKind::DisjointGroups],
        [ConstraintKind::Palindrome, ConstraintKind::Xv],
    ];
    for (i, kinds) in mixes.iter().enumerate() {
        let p = variant(4, 500 + i as u64, 2, kinds, 2)
            .with_weights(Arc::new(Weights::pyramid(4)))
            .unwrap();
        let want = best(BackendKind::Dfs, &p);
        assert!(want.is_some(), "the rules were drawn from a solution");
        for kind in [BackendKind::Dlx, BackendKind::Ilp] {
            assert_eq!(best(kind, &p), want, "{kinds:?}, backend {kind:?}");
        }
    }
}

/// Whether `dlx` has no exact-cover form for `kind`: sums, and the kinds with forms of their own
/// but candidate lists.
fn not_for_dlx(kind: ConstraintKind) -> bool {
    let sums = [
        ConstraintKind::Arrow,
        ConstraintKind::LittleKiller,
        ConstraintKind::Sandwich,
        ConstraintKind::RegionSum,
        ConstraintKind::Zipper,
        ConstraintKind::DoubleArrow,
    ];
    sums.contains(&kind) || NEW_FORMS.contains(&kind) && kind != ConstraintKind::Candidates
}

#[test]
fn dlx_refuses_the_kinds_it_does_not_take_by_name() {
    let dlx = backends::create(BackendKind::Dlx, &Default::default()).unwrap();
    for kind in ConstraintKind::ALL.into_iter().filter(|&k| not_for_dlx(k)) {
        assert!(!dlx.takes(kind));
        let p = (0..20)
            .map(|seed| variant(4, seed, 4, &[kind, ConstraintKind::Thermo], 2))
            .find(|p| p.constraints().iter().any(|c| c.kind() == kind))
            .unwrap_or_else(|| panic!("no {kind} drawn"));
        match task::run(dlx.as_ref(), &p, Task::Solve, &Limits::none()) {
            Err(RunError::Backend(BackendError::Unsupported(m))) => {
                assert!(m.contains(kind.name()), "dlx: {m}")
            }
            other => panic!("dlx did not refuse {kind}: {other:?}"),
        }
    }
    // ilp and sat take every kind.
    let ilp = ilp_alone().remove(0).backend;
    let sat = backends::create(BackendKind::Sat, &Default::default()).unwrap();
    for kind in ConstraintKind::ALL {
        assert_eq!(dlx.takes(kind), !not_for_dlx(kind), "dlx, {kind}");
        assert!(ilp.takes(kind), "ilp, {kind}");
        assert!(sat.takes(kind), "sat, {kind}");
    }
}

#[test]
fn encode_lp_writes_the_rules_ilp_takes() {
    let export = |kinds: &str| {
        let out = common::run(&[
            "generate",
            "--size",
            "4",
            "--givens",
            "0",
            "--variants",
            kinds,
            "--seed",
            "2",
            "--count",
            "1",
        ]);
        assert!(out.status.success(), "{}", common::stderr(&out));
        common::run_with(&["encode", "--to", "lp"], &common::stdout(&out))
    };
    let o = export("thermo,extra-region,arrow");
    assert!(o.status.success(), "{}", common::stderr(&o));
    let lp = common::stdout(&o);
    for row in [" pair1_", " group1_d", " sum1_1:"] {
        assert!(lp.contains(row), "no {row} row in\n{lp}");
    }
    let o = export("sandwich");
    assert!(o.status.success(), "{}", common::stderr(&o));
    let lp = common::stdout(&o);
    for part in [" sandwich1_1:", "sw1_u1", "sw1_y"] {
        assert!(lp.contains(part), "no {part} in\n{lp}");
    }
}

#[test]
fn anti_kropki_9x9_has_8448_solutions() {
    // Empty 9×9 with no Kropki dot and both negative rules: no two orthogonal neighbours are
    // consecutive or in ratio 2. 8448 solutions, as the f-puzzles solver (SudokuSolver) counts.
    let shape = Arc::new(Shape::standard(9, false).unwrap());
    let p = Puzzle::new(shape, vec![0; 81])
        .unwrap()
        .with_constraints(vec![
            Constraint::Negative(DotRule::Difference(1)),
            Constraint::Negative(DotRule::Ratio(2)),
        ])
        .unwrap();
    let dfs = backends::create(BackendKind::Dfs, &Default::default()).unwrap();
    let answer = task::run(
        dfs.as_ref(),
        &p,
        Task::Count { limit: 10_000 },
        &Limits::none(),
    )
    .unwrap();
    assert!(
        matches!(answer, Answer::Counted { count: 8448, .. }),
        "{answer:?}"
    );
}

#[test]
fn backends_refuse_kinds_they_do_not_take_by_name() {
    let p = variant(4, 7, 4, &[ConstraintKind::Thermo], 2);
    assert!(p
        .constraints()
        .iter()
        .any(|c| c.kind() == ConstraintKind::Thermo));
    for kind in BackendKind::all() {
        let Ok(b) = backends::create(kind, &Default::default()) else {
            continue;
        };
        if b.takes(ConstraintKind::Thermo) {
            continue;
        }
        match task::run(b.as_ref(), &p, Task::Solve, &Limits::none()) {
            Err(RunError::Backend(BackendError::Unsupported(m))) => {
                assert!(m.contains("thermo"), "{}: {m}", b.name())
            }
            other => panic!("{} did not refuse a thermometer: {other:?}", b.name()),
        }
    }
}

#[test]
fn the_checker_names_the_broken_rule() {
    let mut rng = GenRng::seed(3);
    let shape = Arc::new(Shape::standard(4, false).unwrap());
    let (puzzle, grid) = blank_solved(&shape, &mut rng, 0).unwrap();
    let g = |c: usize| grid.cells()[c] as u32;
    // A thermometer along row 1 from its largest digit down can never hold.
    let mut row: Vec<u32> = (0..4).collect();
    row.sort_by_key(|&c| std::cmp::Reverse(g(c as usize)));
    let p = puzzle
        .clone()
        .with_constraints(vec![Constraint::Thermo(vec![row[0], row[1]])]);
    // Row cells sorted by digit need not touch; only check when they do.
    if let Ok(p) = p {
        let e = check::verify(&p, &grid).unwrap_err().to_string();
        assert!(e.contains("thermo constraint 1"), "{e}");
    }
    let odd_cell = (0..16).find(|&c| g(c) % 2 == 0).unwrap() as u32;
    let p = puzzle
        .with_constraints(vec![Constraint::Odd(odd_cell)])
        .unwrap();
    let e = check::verify(&p, &grid).unwrap_err().to_string();
    assert!(
        e.contains("odd constraint 1") && e.contains("is even"),
        "{e}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, .. ProptestConfig::default() })]
    #[test]
    fn random_mixes_of_kinds_match_the_brute_force(
        seed in any::<u64>(),
        picks in proptest::collection::vec(0..drawn_kinds().len(), 1..4),
        keep in 0usize..6,
    ) {
        let kinds: Vec<ConstraintKind> = picks.iter().map(|&i| drawn_kinds()[i]).collect();
        let p = variant(4, seed, keep, &kinds, 2);
        agree(&p, 300, &format!("4×4 {kinds:?} seed {seed}"));
    }
}

#[test]
fn an_f_puzzles_document_counts_as_the_brute_force_does() {
    let p = fpuzzles_file("mixed6");
    assert_eq!(brute_count(&p, 1000), 2);
    agree(&p, 1000, "mixed6.json");
}

mod common;
use common::brute::{agree_among, brute_count, counters, ilp_alone, Counter};

#[test]
fn generated_variant_puzzles_are_unique_for_every_backend_that_takes_them() {
    let out = common::run(&[
        "generate",
        "--size",
        "6",
        "--variants",
        "thermo,kropki,little-killer",
        "--unique",
        "--seed",
        "5",
        "--count",
        "3",
        "--with-answer",
    ]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let text = common::stdout(&out);
    let entries = sudoku_lab::format::read_puzzles(&text, &Default::default());
    assert_eq!(entries.len(), 3);
    for (i, e) in entries.into_iter().enumerate() {
        let p = e.unwrap().puzzle;
        let kinds: Vec<ConstraintKind> = p.constraints().iter().map(|c| c.kind()).collect();
        assert!(
            kinds.contains(&ConstraintKind::Thermo),
            "puzzle {i}: {kinds:?}"
        );
        // Few givens leave the brute force too much to enumerate: the backends that take
        // every kind here must each find exactly one solution.
        for Counter { label, backend } in counters()
            .iter()
            .filter(|c| kinds.iter().all(|&k| c.backend.takes(k)))
        {
            let answer = task::run(backend.as_ref(), &p, Task::Unique, &Limits::none()).unwrap();
            assert!(
                matches!(answer, Answer::Unique(_)),
                "puzzle {i}: {label} answered {answer:?}"
            );
        }
        // The document's solution solves it.
        let doc: serde_json::Value = serde_json::from_str(text.lines().nth(i).unwrap()).unwrap();
        let cells: Vec<u16> = doc["solution"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as u16)
            .collect();
        check::verify(&p, &Grid::new(6, cells)).unwrap();
    }
}

#[test]
fn generate_refuses_killer_as_a_variant_and_unknown_kinds() {
    let out = common::run(&["generate", "--variants", "killer"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        common::stderr(&out).contains("--killer"),
        "{}",
        common::stderr(&out)
    );
    let out = common::run(&["generate", "--variants", "thermometer"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        common::stderr(&out).contains("unknown constraint kind"),
        "{}",
        common::stderr(&out)
    );
}

#[test]
fn a_generated_9x9_sandwich_is_unique_for_dfs_and_sat() {
    // Its sandwich lines share one "between" literal among several cells, which the sums
    // encoding must merge (a literal given twice to a pseudo-Boolean encoding keeps one weight).
    let p = fpuzzles_file("sandwich9");
    for kind in [BackendKind::Dfs, BackendKind::Sat] {
        let b = backends::create(kind, &Default::default()).unwrap();
        let answer = task::run(b.as_ref(), &p, Task::Unique, &Limits::none()).unwrap();
        assert!(
            matches!(answer, Answer::Unique(_)),
            "{}: {answer:?}",
            b.name()
        );
    }
}

#[test]
fn generated_9x9_puzzles_of_each_new_form_are_unique_for_dfs() {
    // Candidate lists, quadruples, between and lockout lines, skyscrapers and X-sums: a 9×9
    // puzzle of each, cut down to a unique solution, has that solution and no other for `dfs`.
    use sudoku_lab::generate::{GenerateOptions, Generator};
    let dfs = backends::create(BackendKind::Dfs, &Default::default()).unwrap();
    for kind in NEW_FORMS {
        let opts = GenerateOptions {
            unique: true,
            seed: 1,
            ..GenerateOptions::of(PuzzleSpec {
                variants: vec![kind],
                ..PuzzleSpec::new(9)
            })
        };
        let (p, grid) = Generator::new(opts, dfs.as_ref())
            .unwrap()
            .generate_with_solution()
            .unwrap();
        assert!(
            p.constraints().iter().any(|c| c.kind() == kind),
            "{kind}: no rule drawn"
        );
        match task::run(dfs.as_ref(), &p, Task::Unique, &Limits::none()).unwrap() {
            Answer::Unique(g) => assert_eq!(g, grid, "{kind}"),
            other => panic!("{kind}: dfs answered {other:?}"),
        }
    }
}

#[test]
fn fuzz_draws_variant_cases_and_finds_no_fault_in_dfs_and_sat() {
    let out = common::run(&[
        "fuzz",
        "--size",
        "4",
        "--variants",
        "thermo,xv,sandwich",
        "--backends",
        "dfs,sat",
        "--puzzles",
        "60",
        "--seed",
        "1",
    ]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let said = common::stdout(&out).to_lowercase();
    assert!(said.contains("no fault in 60 cases"), "{said}");
    let case = sudoku_lab::fuzz::make_case(
        &sudoku_lab::fuzz::FuzzOptions {
            spec: PuzzleSpec {
                variants: vec![ConstraintKind::Thermo],
                ..sudoku_lab::fuzz::FuzzOptions::new(4).spec
            },
            ..sudoku_lab::fuzz::FuzzOptions::new(4)
        },
        1,
        0,
        backends::create(BackendKind::Dfs, &Default::default())
            .unwrap()
            .as_ref(),
    )
    .unwrap();
    assert!(case
        .puzzle
        .constraints()
        .iter()
        .any(|c| c.kind() == ConstraintKind::Thermo));
}

#[test]
fn a_6x6_anti_king_that_crashed_the_cp_solver_counts_one_everywhere() {
    // With its knight/king pairs as binary tables, huub 100.1 crashed (a segmentation fault
    // inside the solver) on this puzzle, found by `fuzz --variants anti-king --size 6`; the
    // pairs are now two-cell all-different groups.
    let p = fpuzzles_file("antiking6");
    agree(&p, 10, "antiking6.json");
}

/// `puzzle` written by `encode --to dimacs` under `opts`, read back and solved by varisat: the
/// statistics count the file's clauses and variables, and the decoded grid keeps every rule.
/// Returns the statistics.
fn dimacs_round_trip(
    p: &Puzzle,
    opts: &sudoku_lab::sat::encode::EncodeOptions,
    what: &str,
) -> sudoku_lab::sat::encode::EncodeStats {
    use sudoku_lab::sat::encode;
    use sudoku_lab::sat::{dimacs, varisat_model, ClauseSink as _};
    let mut text = Vec::new();
    let stats = encode::to_dimacs(p, opts, &mut text).unwrap();
    let cnf = dimacs::read(&text[..]).unwrap();
    assert_eq!(stats.total().clauses as usize, cnf.n_clauses(), "{what}");
    assert_eq!(stats.total().vars, cnf.n_vars() as u64, "{what}");
    let model = varisat_model(&cnf).unwrap().expect(what);
    let grid = encode::decode_dimacs_model(p, opts, &model);
    check::verify(p, &grid).unwrap_or_else(|e| panic!("{what}: {e}"));
    stats
}

/// `encode --to dimacs` under each pair encoding, read back and solved by varisat: the decoded
/// grid keeps every rule, the statistics count the file's clauses and variables, and the order
/// literals are in the part of the kind that needs them.
#[test]
fn dimacs_exports_of_pair_rules_decode_to_solutions_under_each_pair_encoding() {
    use sudoku_lab::sat::encode::{EncodeOptions, Part};
    let kinds = [
        ConstraintKind::Thermo,
        ConstraintKind::Whisper,
        ConstraintKind::Kropki,
        ConstraintKind::Renban,
        ConstraintKind::Negative,
        ConstraintKind::NonConsecutive,
        ConstraintKind::Palindrome,
        ConstraintKind::Xv,
    ];
    for (i, &kind) in kinds.iter().enumerate() {
        let p = variant(9, 500 + i as u64, 20, &[kind], 6);
        for pair in PairEncoding::ALL {
            let what = format!("{kind} --pair-encoding {pair}");
            let opts = EncodeOptions {
                pair,
                ..Default::default()
            };
            let stats = dimacs_round_trip(&p, &opts, &what);
            let order_vars = stats.part(Part::Rule(kind)).vars;
            let interval_kind = !matches!(
                kind,
                ConstraintKind::Palindrome
                    | ConstraintKind::Xv
                    | ConstraintKind::Negative
                    | ConstraintKind::NonConsecutive
            );
            assert_eq!(
                order_vars > 0,
                pair == PairEncoding::Order && interval_kind,
                "{what}: {order_vars} variables in its part"
            );
        }
    }
}

/// The kinds whose lowering has forms of their own (domains, contains, betweens, edge lines).
const NEW_FORMS: [ConstraintKind; 6] = [
    ConstraintKind::Candidates,
    ConstraintKind::Quadruple,
    ConstraintKind::Between,
    ConstraintKind::Lockout,
    ConstraintKind::Skyscraper,
    ConstraintKind::XSum,
];

/// The kinds of [`NEW_FORMS`], exported under every encoding and pair encoding, decode to checked solutions; each has a
/// part of its own in the statistics.
#[test]
fn dimacs_exports_of_the_new_forms_decode_to_solutions_under_every_encoding() {
    use sudoku_lab::sat::encode::{EncodeOptions, Encoding, Part};
    for (i, &kind) in NEW_FORMS.iter().enumerate() {
        let p = variant(9, 600 + i as u64, 20, &[kind], 6);
        assert!(p.constraints().iter().any(|c| c.kind() == kind), "{kind}");
        for encoding in Encoding::ALL {
            for pair in PairEncoding::ALL {
                let what = format!("{kind} --encoding {encoding} --pair-encoding {pair}");
                let opts = EncodeOptions {
                    encoding,
                    pair,
                    ..Default::default()
                };
                let stats = dimacs_round_trip(&p, &opts, &what);
                assert!(stats.part(Part::Rule(kind)).clauses > 0, "{what}");
            }
        }
    }
}

/// A generated 9×9 puzzle of each kind with forms of its own, unique by `sat` under the default
/// encodings, is unique under the other pair encoding and the minimal encoding too, and its one
/// solution passes the checker.
#[test]
fn generated_9x9_puzzles_of_the_new_forms_are_unique_for_sat() {
    use sudoku_lab::generate::{GenerateOptions, Generator};
    use sudoku_lab::sat::encode::Encoding;
    let sat = backends::create(BackendKind::Sat, &Default::default()).unwrap();
    let mut others = vec![];
    for (pair, encoding) in [
        (PairEncoding::Order, Encoding::Extended),
        (PairEncoding::Direct, Encoding::Minimal),
    ] {
        let mut options = backends::BackendOptions::default();
        options.sat.pair = pair;
        options.sat.encoding = encoding;
        others.push((
            format!("{pair} {encoding}"),
            backends::create(BackendKind::Sat, &options).unwrap(),
        ));
    }
    for (i, &kind) in NEW_FORMS.iter().enumerate() {
        let spec = PuzzleSpec {
            variants: vec![kind],
            ..PuzzleSpec::new(9)
        };
        let opts = GenerateOptions {
            unique: true,
            seed: 700 + i as u64,
            ..GenerateOptions::of(spec)
        };
        let (p, grid) = Generator::new(opts, sat.as_ref())
            .unwrap()
            .generate_with_solution()
            .unwrap();
        assert!(p.constraints().iter().any(|c| c.kind() == kind), "{kind}");
        for (label, b) in &others {
            let answer = task::run(b.as_ref(), &p, Task::Unique, &Limits::none()).unwrap();
            match answer {
                Answer::Unique(g) => assert_eq!(g, grid, "{kind}, sat {label}"),
                other => panic!("{kind}, sat {label}: {other:?}"),
            }
        }
    }
}

/// The kinds whose rules `sat` states as sums (`--sum-encoding`).
const SUM_KINDS: [ConstraintKind; 7] = [
    ConstraintKind::Arrow,
    ConstraintKind::LittleKiller,
    ConstraintKind::Sandwich,
    ConstraintKind::XSum,
    ConstraintKind::RegionSum,
    ConstraintKind::DoubleArrow,
    ConstraintKind::Zipper,
];

/// 9×9 grids with sums and few givens, past what the brute force enumerates: `sat` under every
/// sum encoding counts what `dfs` counts (up to 300 solutions), on grids most of which have
/// several.
#[test]
fn sat_counts_as_dfs_does_on_9x9_sums_under_every_sum_encoding() {
    use sudoku_lab::backend::Backend;
    use sudoku_lab::sat::encode::SumEncoding;
    let dfs = backends::create(BackendKind::Dfs, &Default::default()).unwrap();
    let sats: Vec<(SumEncoding, Box<dyn Backend>)> = SumEncoding::ALL
        .into_iter()
        .map(|sum| {
            let mut options = backends::BackendOptions::default();
            options.sat.sum = sum;
            (sum, backends::create(BackendKind::Sat, &options).unwrap())
        })
        .collect();
    let mut several = 0;
    for (i, &kind) in SUM_KINDS.iter().enumerate() {
        for seed in 0..2 {
            let p = variant(9, 700 + 10 * i as u64 + seed, 26, &[kind], 4);
            let count = |b: &dyn Backend| match task::run(
                b,
                &p,
                Task::Count { limit: 300 },
                &Limits::none(),
            )
            .unwrap()
            {
                Answer::Counted { count, .. } => count,
                Answer::NoSolution => 0,
                other => panic!("{kind} seed {seed}: {other:?}"),
            };
            let expected = count(dfs.as_ref());
            assert!(
                expected >= 1,
                "{kind} seed {seed}: the grid keeps its rules"
            );
            several += (expected > 1) as usize;
            for (sum, b) in &sats {
                let found = count(b.as_ref());
                assert_eq!(
                    found, expected,
                    "{kind} seed {seed}: sat --sum-encoding {sum} counts {found}, dfs {expected}"
                );
            }
        }
    }
    assert!(several >= 10, "only {several} grids with several solutions");
}
