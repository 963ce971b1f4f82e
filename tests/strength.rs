//! The root-strength levels: the clause-list engine against brute force on small random
//! formulas, known facts on real puzzles, and the `strength` command's figures on a small file.

mod common;

use proptest::prelude::*;

use sudoku_lab::propagate::{Candidates, Level};
use sudoku_lab::sat::encode::{EncodeOptions, Encoding};
use sudoku_lab::sat::{ClauseSink, Cnf, Lit, Var};
use sudoku_lab::strength::cnf::{CnfLevel, CnfProber, Propagator};

/// Clauses as DIMACS-like integers (variable `v` is `±(v + 1)`).
fn formula(n_vars: u32, clauses: &[Vec<i32>]) -> Cnf {
    let mut f = Cnf::new();
    f.reserve_vars(n_vars);
    for c in clauses {
        let c: Vec<Lit> = c
            .iter()
            .map(|&x| Var::new(x.unsigned_abs() - 1).lit(x < 0))
            .collect();
        f.add_clause(&c);
    }
    f
}

fn holds(x: i32, a: &[Option<bool>]) -> Option<bool> {
    a[x.unsigned_abs() as usize - 1].map(|v| v == (x > 0))
}

/// The unassigned literals of clause `c` under `a`, sorted and distinct; `None` when `c` is
/// satisfied.
fn open_literals(c: &[i32], a: &[Option<bool>]) -> Option<Vec<i32>> {
    if c.iter().any(|&x| holds(x, a) == Some(true)) {
        return None;
    }
    let mut open: Vec<i32> = c
        .iter()
        .copied()
        .filter(|&x| holds(x, a).is_none())
        .collect();
    open.sort_unstable();
    open.dedup();
    Some(open)
}

/// Unit propagation by rescanning every clause until nothing changes; `None` on a conflict.
fn naive_up(clauses: &[Vec<i32>], mut a: Vec<Option<bool>>) -> Option<Vec<Option<bool>>> {
    loop {
        let mut changed = false;
        for c in clauses {
            let Some(open) = open_literals(c, &a) else {
                continue;
            };
            match open[..] {
                [] => return None,
                [x] => {
                    a[x.unsigned_abs() as usize - 1] = Some(x > 0);
                    changed = true;
                }
                _ => {}
            }
        }
        if !changed {
            return Some(a);
        }
    }
}

/// The first literal unassigned in `a` (DIMACS-like) for which `holds` is false on `a` plus that
/// literal, if any.
fn failing_literal(a: &[Option<bool>], holds: impl Fn(Vec<Option<bool>>) -> bool) -> Option<i32> {
    (0..a.len())
        .filter(|&v| a[v].is_none())
        .flat_map(|v| [true, false].map(|val| (v, val)))
        .find(|&(v, val)| {
            let mut b = a.to_vec();
            b[v] = Some(val);
            !holds(b)
        })
        .map(|(v, val)| if val { v as i32 + 1 } else { -(v as i32 + 1) })
}

/// Failed-literal probing to a fixpoint over `naive_up`, from `a`; `None` on a conflict.
fn naive_flp(clauses: &[Vec<i32>], a: Vec<Option<bool>>) -> Option<Vec<Option<bool>>> {
    let mut a = naive_up(clauses, a)?;
    while let Some(l) = failing_literal(&a, |b| naive_up(clauses, b).is_some()) {
        a[l.unsigned_abs() as usize - 1] = Some(l < 0);
        a = naive_up(clauses, a)?;
    }
    Some(a)
}

/// The closure under unit propagation and Bacchus's HypBinRes rule, by the rule itself: from a
/// clause whose unassigned literals are `l1 … lk` (`k ≥ 2`) and, for every `i ≠ j`, a clause whose
/// unassigned literals are exactly `¬li` and `x`, add `(lj ∨ x)` (the unit `lj` when `x = lj`);
/// repeated until nothing is added. `None` on a conflict.
fn naive_hbr(clauses: &[Vec<i32>], n: usize) -> Option<Vec<Option<bool>>> {
    let mut all: Vec<Vec<i32>> = clauses.to_vec();
    let mut a = vec![None; n];
    loop {
        a = naive_up(&all, a)?;
        let reduced: Vec<Vec<i32>> = all
            .iter()
            .filter_map(|c| open_literals(c, &a))
            .filter(|r| !r.iter().any(|&x| r.contains(&-x)))
            .collect();
        let binary = |p: i32, q: i32| {
            let mut b = vec![p, q];
            b.sort_unstable();
            reduced.contains(&b)
        };
        let mut new = Vec::new();
        for r in reduced.iter().filter(|r| r.len() >= 2) {
            for (j, &lj) in r.iter().enumerate() {
                for x in (1..=n as i32).flat_map(|v| [v, -v]) {
                    if holds(x, &a).is_some() || x == -lj {
                        continue;
                    }
                    let all_binaries = r
                        .iter()
                        .enumerate()
                        .all(|(i, &li)| i == j || li == x || binary(-li, x));
                    let mut c = if x == lj { vec![lj] } else { vec![lj, x] };
                    c.sort_unstable();
                    if all_binaries && !reduced.contains(&c) && !new.contains(&c) {
                        new.push(c);
                    }
                }
            }
        }
        if new.is_empty() {
            return Some(a);
        }
        all.extend(new);
    }
}

/// Every model of the formula.
fn models(n: usize, clauses: &[Vec<i32>]) -> Vec<Vec<bool>> {
    (0u32..1 << n)
        .map(|bits| (0..n).map(|v| bits >> v & 1 == 1).collect::<Vec<bool>>())
        .filter(|m| {
            clauses.iter().all(|c| {
                c.iter()
                    .any(|&x| m[x.unsigned_abs() as usize - 1] == (x > 0))
            })
        })
        .collect()
}

fn run(n: usize, clauses: &[Vec<i32>], level: CnfLevel) -> Option<Vec<Option<bool>>> {
    let mut p = Propagator::new();
    p.load(&formula(n as u32, clauses));
    p.run(level).then(|| (0..n).map(|v| p.value(v)).collect())
}

/// Random formulas over up to 8 variables, clauses of 1 to 4 literals.
fn formulas() -> impl Strategy<Value = (usize, Vec<Vec<i32>>)> {
    (2usize..=8).prop_flat_map(|n| {
        let lit = (1..=n as i32, any::<bool>()).prop_map(|(v, s)| if s { v } else { -v });
        let clause = prop::collection::vec(lit, 1..=4);
        (Just(n), prop::collection::vec(clause, 0..=16))
    })
}

/// Random formulas of ternary clauses over 4 to 7 variables: few literals fail alone, many pairs
/// do (the ground of `binflr`).
fn ternary_formulas() -> impl Strategy<Value = (usize, Vec<Vec<i32>>)> {
    (4usize..=7).prop_flat_map(|n| {
        let lit = (1..=n as i32, any::<bool>()).prop_map(|(v, s)| if s { v } else { -v });
        let clause = prop::collection::vec(lit, 3);
        (Just(n), prop::collection::vec(clause, 4..=20))
    })
}

/// `a` extends `b`: every value of `b` is in `a`.
fn extends(a: &[Option<bool>], b: &[Option<bool>]) -> bool {
    a.iter().zip(b).all(|(x, y)| y.is_none() || x == y)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// `up` is exactly the unit-propagation closure.
    #[test]
    fn up_is_the_closure((n, clauses) in formulas()) {
        prop_assert_eq!(run(n, &clauses, CnfLevel::Up), naive_up(&clauses, vec![None; n]));
    }

    /// `hbr` is exactly the closure under unit propagation and the HypBinRes rule.
    #[test]
    fn hbr_is_the_hypbinres_closure((n, clauses) in prop_oneof![formulas(), ternary_formulas()]) {
        prop_assert_eq!(run(n, &clauses, CnfLevel::Hbr), naive_hbr(&clauses, n));
    }

    /// Every level derives only implied literals, finds a conflict only on an unsatisfiable
    /// formula, and extends the weaker levels; `flp` is a fixpoint of the failed-literal rule.
    #[test]
    fn levels_are_sound_ordered_and_closed((n, clauses) in prop_oneof![formulas(), ternary_formulas()]) {
        let ms = models(n, &clauses);
        let up = run(n, &clauses, CnfLevel::Up);
        let hbr = run(n, &clauses, CnfLevel::Hbr);
        let mut previous = up.clone();
        let pairs = run(n, &clauses, CnfLevel::Pairs);
        for level in [CnfLevel::Flp1, CnfLevel::Flp, CnfLevel::FlpBoth, CnfLevel::Hbr, CnfLevel::HbrEq, CnfLevel::Binflr1, CnfLevel::Pairs1, CnfLevel::Pairs, CnfLevel::Binflr] {
            let got = run(n, &clauses, level);
            match &got {
                None => prop_assert!(ms.is_empty(), "{} conflict on a satisfiable formula", level),
                Some(a) => {
                    for m in &ms {
                        for (v, x) in a.iter().enumerate() {
                            prop_assert!(x.is_none() || *x == Some(m[v]),
                                "{} set variable {} against a model", level, v + 1);
                        }
                    }
                    // At least what `up` derives; `flp-both`, `hbr`, `binflr1` and `pairs` at
                    // least what `flp` derives, `binflr` at least what `hbr` and `pairs` derive.
                    let weaker = match level {
                        CnfLevel::Flp | CnfLevel::Flp1 | CnfLevel::Pairs1 => &up,
                        CnfLevel::Binflr => &hbr,
                        _ => &previous,
                    };
                    if let Some(w) = weaker {
                        prop_assert!(extends(a, w), "{} lost a literal of a weaker level", level);
                    }
                }
            }
            if level == CnfLevel::Flp {
                if let Some(a) = &got {
                    // No unassigned literal fails under unit propagation.
                    let left = failing_literal(a, |b| naive_up(&clauses, b).is_some());
                    prop_assert!(left.is_none(), "flp left the failed literal {:?}", left);
                }
                previous = got.clone();
            }
            // Equality reduction adds nothing to hbr's closure: unit propagation over the
            // binaries sets equivalent literals together.
            if level == CnfLevel::HbrEq {
                prop_assert_eq!(&got, &hbr, "hbr-eq differs from hbr");
            }
            if level == CnfLevel::Binflr {
                if let (Some(a), Some(p)) = (&got, &pairs) {
                    prop_assert!(extends(a, p), "binflr lost a literal of pairs");
                }
                if let Some(a) = &got {
                    // No unassigned literal fails under failed-literal probing to a fixpoint:
                    // its pairs with every other literal have all been probed.
                    let left = failing_literal(a, |b| naive_flp(&clauses, b).is_some());
                    prop_assert!(left.is_none(), "binflr left {:?}, which fails under flp", left);
                }
            }
            // A weaker level's conflict is kept by the stronger ones.
            if up.is_none() {
                prop_assert!(got.is_none());
            }
        }
    }
}

/// `level` on `f`: no conflict, and the value of every variable.
fn run_on(f: &Cnf, level: CnfLevel) -> (bool, Vec<Option<bool>>) {
    let mut p = Propagator::new();
    p.load(f);
    let ok = p.run(level);
    (ok, (0..p.n_vars()).map(|v| p.value(v)).collect())
}

#[test]
fn unit_propagation_follows_chains_and_long_clauses() {
    // 1; 1 → 2; (¬2 ∨ ¬3 ∨ 4); 3.
    let f = formula(4, &[vec![1], vec![-1, 2], vec![-2, -3, 4], vec![3]]);
    let (ok, v) = run_on(&f, CnfLevel::Up);
    assert!(ok);
    assert_eq!(v, vec![Some(true); 4]);
}

#[test]
fn a_failed_literal_is_set_false_by_flp_not_up() {
    // 1 → 2, 1 → 3, (¬2 ∨ ¬3 ∨ 4), 4 → ¬1: 1 fails.
    let f = formula(
        4,
        &[vec![-1, 2], vec![-1, 3], vec![-2, -3, 4], vec![-4, -1]],
    );
    assert_eq!(run_on(&f, CnfLevel::Up).1, vec![None; 4]);
    assert_eq!(
        run_on(&f, CnfLevel::Flp).1,
        vec![Some(false), None, None, None]
    );
    // A tautology is dropped: with it 1 would not fail either way.
    let f = formula(3, &[vec![-1, 2], vec![-1, 3], vec![-2, -3, -1, 2]]);
    assert_eq!(run_on(&f, CnfLevel::Flp).1, vec![None; 3]);
}

#[test]
fn an_empty_clause_or_opposite_units_are_a_conflict() {
    assert!(!run_on(&formula(1, &[vec![]]), CnfLevel::Up).0);
    assert!(!run_on(&formula(1, &[vec![1], vec![-1]]), CnfLevel::Up).0);
    assert!(run_on(&formula(1, &[vec![1], vec![1]]), CnfLevel::Up).0);
}

#[test]
fn both_branches_set_what_they_share() {
    // 1 → 3 through (¬1 ∨ ¬6 ∨ 3) with 1 → 6, and ¬1 → 3 through (1 ∨ ¬5 ∨ 3) with
    // ¬1 → 5: no literal fails, but both branches of 1 imply 3.
    let f = formula(
        6,
        &[vec![-1, -6, 3], vec![-1, 6], vec![1, -5, 3], vec![1, 5]],
    );
    assert_eq!(run_on(&f, CnfLevel::Flp).1, vec![None; 6]);
    let (ok, both) = run_on(&f, CnfLevel::FlpBoth);
    assert!(ok);
    assert_eq!(both, vec![None, None, Some(true), None, None, None]);
}

/// A consequence hbr reaches and flp does not: unit propagation from `l` forces `u` through the
/// long clause `(¬a ∨ ¬b ∨ u)`, so hbr learns `(¬l ∨ u)`; its contrapositive `¬u → ¬l` then
/// makes `¬u` fail on `(l ∨ u ∨ c)`, `(l ∨ u ∨ ¬c)`, and `u` is set. No single literal fails
/// under plain unit propagation, and no variable's two branches share a consequence.
#[test]
fn hbr_derives_what_flp_cannot() {
    // l=1 a=2 b=3 u=4 c=5
    let clauses = vec![
        vec![-1, 2],
        vec![-1, 3],
        vec![-2, -3, 4],
        vec![1, 4, 5],
        vec![1, 4, -5],
    ];
    assert!(
        models(5, &clauses).iter().all(|m| m[3]),
        "every model has u"
    );
    assert_eq!(run(5, &clauses, CnfLevel::Flp).unwrap(), vec![None; 5]);
    assert_eq!(run(5, &clauses, CnfLevel::FlpBoth).unwrap(), vec![None; 5]);
    assert_eq!(run(5, &clauses, CnfLevel::Hbr).unwrap()[3], Some(true));
}

/// A consequence binflr (and the pair rule) reaches and hbr cannot: under `x`, both `y` and
/// `¬y` fail, each through two ternary clauses, so binflr learns `(¬x ∨ ¬y)`, sets `¬y` under
/// `x`, finds the conflict and sets `¬x`. No literal fails alone under unit propagation, and no long clause forces
/// anything under a single literal, so hbr learns nothing.
#[test]
fn binflr_derives_what_hbr_cannot() {
    // x=1 y=2 a=3 b=4
    let clauses = vec![
        vec![-1, -2, 3],
        vec![-1, -2, -3],
        vec![-1, 2, 4],
        vec![-1, 2, -4],
    ];
    assert!(
        models(4, &clauses).iter().all(|m| !m[0]),
        "every model has ¬x"
    );
    assert_eq!(models(4, &clauses).len(), 8, "the other variables are free");
    assert_eq!(run(4, &clauses, CnfLevel::Hbr).unwrap(), vec![None; 4]);
    assert_eq!(run(4, &clauses, CnfLevel::FlpBoth).unwrap(), vec![None; 4]);
    let expected = vec![Some(false), None, None, None];
    assert_eq!(run(4, &clauses, CnfLevel::Binflr1).unwrap(), expected);
    // The pair rule needs no kept binary here: `¬y` is set under `x` for the rest of its probe.
    assert_eq!(run(4, &clauses, CnfLevel::Pairs1).unwrap(), expected);
    assert_eq!(run(4, &clauses, CnfLevel::Pairs).unwrap(), expected);
    assert_eq!(run(4, &clauses, CnfLevel::Binflr).unwrap(), expected);
}

fn puzzles(text: &str) -> Vec<sudoku_lab::model::Puzzle> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| common::parse_line(l.split(':').next().unwrap_or(l)))
        .collect()
}

fn options(encoding: Encoding) -> EncodeOptions {
    EncodeOptions {
        encoding,
        ..EncodeOptions::default()
    }
}

/// A puzzle that naked and hidden singles solve is solved by `up` on `extended`; `flp` derives
/// at least what `up` derives; undecided cells never exceed the open cells.
#[test]
fn known_facts_on_real_puzzles() {
    let text = std::fs::read_to_string("tests/data/9x9/test_puzzles.counts").unwrap();
    let mut prober = CnfProber::new();
    let mut by_singles = 0;
    for p in puzzles(&text) {
        let singles = Candidates::new(&p, Level::Singles);
        let solved_by_singles = singles.fixed().iter().all(|&d| d != 0);
        for encoding in [Encoding::Minimal, Encoding::Efficient, Encoding::Extended] {
            prober.encode(&p, &options(encoding));
            let up = prober.derive(&p, CnfLevel::Up);
            let up_values: Vec<Option<bool>> =
                (0..729).map(|v| prober.propagator().value(v)).collect();
            let flp = prober.derive(&p, CnfLevel::Flp);
            let flp_values: Vec<Option<bool>> =
                (0..729).map(|v| prober.propagator().value(v)).collect();
            for r in [&up, &flp] {
                assert!(r.unassigned_cells <= r.open_cells);
                assert!(!r.contradiction);
            }
            assert!(extends(&flp_values, &up_values));
            assert!(flp.unassigned_cells <= up.unassigned_cells);
            if encoding == Encoding::Extended && solved_by_singles {
                assert!(up.solved(), "singles solve it, up on extended must too");
                by_singles += 1;
            }
        }
    }
    assert!(by_singles > 0, "the file holds puzzles singles solve");
}

/// The table of `strength` on the first 20 puzzles of the 17-clue collection, minimal and
/// extended, at `levels` (two threads: the figures do not depend on them).
fn twenty_table(levels: &str) -> String {
    let out = common::run(&[
        "strength",
        "tests/data/9x9/17_clue_first20.txt",
        "--encodings",
        "minimal,extended",
        "--levels",
        levels,
        "--jobs",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    common::stdout(&out)
}

/// The command's table on the first 20 puzzles of the 17-clue collection, exactly.
#[test]
fn cli_table_on_twenty_17_clue_puzzles() {
    let table = twenty_table("up,flp,flp-both,hbr,hbr-eq,binflr1,binflr");
    let expected = "\
file                 encoding  amo   level     puzzles  solved_pct  unassigned_pct  unassigned_vars_pct  contradictions
17_clue_first20.txt  minimal   auto  up             20        0.00           97.89                51.97               0
17_clue_first20.txt  minimal   auto  flp            20       35.00           97.12                45.46               0
17_clue_first20.txt  minimal   auto  flp-both       20       35.00           97.12                45.46               0
17_clue_first20.txt  minimal   auto  hbr            20       55.00           93.23                41.76               0
17_clue_first20.txt  minimal   auto  hbr-eq         20       55.00           93.23                41.76               0
17_clue_first20.txt  minimal   auto  binflr1        20      100.00               -                    -               0
17_clue_first20.txt  minimal   auto  binflr         20      100.00               -                    -               0
17_clue_first20.txt  extended  auto  up             20       65.00           68.08                22.75               0
17_clue_first20.txt  extended  auto  flp            20      100.00               -                    -               0
17_clue_first20.txt  extended  auto  flp-both       20      100.00               -                    -               0
17_clue_first20.txt  extended  auto  hbr            20      100.00               -                    -               0
17_clue_first20.txt  extended  auto  hbr-eq         20      100.00               -                    -               0
17_clue_first20.txt  extended  auto  binflr1        20      100.00               -                    -               0
17_clue_first20.txt  extended  auto  binflr         20      100.00               -                    -               0
";
    assert_eq!(table, expected);
}

/// `--json` rows carry the agreed keys; a bad puzzle is reported with its line and column, the
/// others are still counted, and the exit code is 2; `--per-puzzle` names the weakest level.
#[test]
fn cli_json_bad_input_and_per_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("rows.json");
    let text = std::fs::read_to_string("tests/data/9x9/17_clue_first20.txt").unwrap();
    let mut lines = text.lines();
    let (first, second) = (lines.next().unwrap(), lines.next().unwrap());
    let input = format!("{first}\n12x\n{second}\n");
    let out = common::run_with(
        &[
            "strength",
            "--encodings",
            "extended",
            "--levels",
            "up,flp",
            "--per-puzzle",
            "--json",
            json.to_str().unwrap(),
        ],
        &input,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        common::stderr(&out).contains("<stdin>:2:"),
        "{}",
        common::stderr(&out)
    );
    let stdout = common::stdout(&out);
    assert!(
        stdout.contains("1\t<stdin>\t1\textended\tauto\tflp\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("3\t<stdin>\t3\textended\tauto\tup\n"),
        "{stdout}"
    );
    let rows: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for key in [
        "file",
        "encoding",
        "level",
        "puzzles",
        "solved_pct",
        "unassigned_pct",
    ] {
        assert!(rows[0].get(key).is_some(), "no {key} in {}", rows[0]);
    }
    assert_eq!(rows[0]["puzzles"], 2);
    assert_eq!(rows[0]["solved_pct"], 50.0);
    assert_eq!(rows[1]["solved_pct"], 100.0);
}

/// Model levels: one row each, before the encodings' rows, with no variable figure; naked singles
/// match `up` on `minimal` and naked plus hidden singles match `up` on `extended`.
#[test]
fn cli_model_levels_beside_the_cnf_levels() {
    let table = twenty_table("naked,hidden,locked,dfs,up,flp");
    let expected = "\
file                 encoding  amo   level   puzzles  solved_pct  unassigned_pct  unassigned_vars_pct  contradictions
17_clue_first20.txt  -         -     naked        20        0.00           97.89                    -               0
17_clue_first20.txt  -         -     hidden       20       65.00           68.08                    -               0
17_clue_first20.txt  -         -     locked       20       80.00           55.86                    -               0
17_clue_first20.txt  -         -     dfs          20       80.00           55.08                    -               0
17_clue_first20.txt  minimal   auto  up           20        0.00           97.89                51.97               0
17_clue_first20.txt  minimal   auto  flp          20       35.00           97.12                45.46               0
17_clue_first20.txt  extended  auto  up           20       65.00           68.08                22.75               0
17_clue_first20.txt  extended  auto  flp          20      100.00               -                    -               0
";
    assert_eq!(table, expected);
    let bad = common::run(&[
        "strength",
        "--levels",
        "up,nope",
        "tests/data/9x9/17_clue_first20.txt",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        common::stderr(&bad).contains("unknown level 'nope'"),
        "{}",
        common::stderr(&bad)
    );
}

/// The output of `strength` on the first 20 puzzles of the 17-clue collection, minimal encoding,
/// at `levels`, with `flag` (two threads: the figures do not depend on them).
fn twenty_minimal(levels: &str, flag: &str) -> String {
    let out = common::run(&[
        "strength",
        "tests/data/9x9/17_clue_first20.txt",
        "--encodings",
        "minimal",
        "--levels",
        levels,
        flag,
        "--jobs",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    common::stdout(&out)
}

/// How many of the first 20 17-clue puzzles (minimal encoding) each of `levels` is the weakest
/// level to solve, as `strength --per-puzzle` names it, then how many none solves.
fn weakest_levels(levels: &[&str]) -> Vec<usize> {
    let stdout = twenty_minimal(&levels.join(","), "--per-puzzle");
    levels
        .iter()
        .chain(&["none"])
        .map(|level| {
            stdout
                .lines()
                .filter(|l| l.ends_with(&format!("\tminimal\tauto\t{level}")))
                .count()
        })
        .collect()
}

/// `--per-puzzle` names the first level of `--levels` that solves each puzzle: on the first 20
/// 17-clue puzzles, minimal encoding, `flp` solves 7, `hbr` 4 more and `binflr` the other 9.
#[test]
fn cli_per_puzzle_weakest_level_includes_binflr() {
    assert_eq!(
        weakest_levels(&["up", "flp", "hbr", "binflr"]),
        vec![0, 7, 4, 9, 0]
    );
}

/// Keeping the failed pairs' binaries is what separates one round of `binflr` from one round of
/// `pairs`: on the first 20 17-clue puzzles, minimal encoding, `binflr1` solves all 20 and
/// `pairs1` 15.
#[test]
fn cli_kept_binaries_separate_binflr1_from_pairs1() {
    assert_eq!(weakest_levels(&["pairs1", "binflr1"]), vec![15, 5, 0]);
}

/// Every technique level, weakest first.
const TECHNIQUE_LEVELS: &str = "logic-singles,logic-intersections,logic-subsets,logic-fish,\
logic-wings,logic-chains,logic-forcing";

/// A puzzle naked singles solve (line 6 of `17_clue.txt`), one that needs an X-wing after the
/// subsets (line 2982 of `17_clue.txt`: `explain --techniques singles,intersections,subsets`
/// stops with 40 cells empty, `x-wing` added finishes it) and the first puzzle of
/// magictour_top1465, which needs forcing chains.
const SINGLES_XWING_FORCING: &str = "\
.5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4
................12....345........3....6.......71..8......2.6..834.......5..7.....
4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........
";

/// The technique levels through the library: the X-wing puzzle is left with 40 empty cells by
/// the subsets and solved once fish join; every level solves the singles puzzle.
#[test]
fn technique_levels_leave_and_solve_known_puzzles() {
    use sudoku_lab::strength::technique::{derive, TechniqueLevel};
    let p = puzzles(SINGLES_XWING_FORCING);
    for level in TechniqueLevel::ALL {
        assert!(derive(&p[0], level).unwrap().solved(), "{}", level.name());
    }
    let subsets = derive(&p[1], TechniqueLevel::Subsets).unwrap();
    assert!(!subsets.solved() && !subsets.contradiction);
    assert_eq!((subsets.unassigned_cells, subsets.open_cells), (40, 64));
    assert!(derive(&p[1], TechniqueLevel::Fish).unwrap().solved());
    assert!(!derive(&p[2], TechniqueLevel::Chains).unwrap().solved());
    assert!(derive(&p[2], TechniqueLevel::Forcing).unwrap().solved());
}

/// `--per-puzzle` names the weakest technique level that solves each puzzle, and the table has
/// one row per technique level, encoding `-`, with the exact figures.
#[test]
fn cli_technique_levels_per_puzzle_and_table() {
    let out = common::run_with(
        &[
            "strength",
            "--encodings",
            "minimal",
            "--levels",
            TECHNIQUE_LEVELS,
            "--per-puzzle",
            "--jobs",
            "2",
        ],
        SINGLES_XWING_FORCING,
    );
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    let expected = "\
index\tfile\tline\tencoding\tamo\tweakest
1\t<stdin>\t1\tminimal\tauto\tlogic-singles
2\t<stdin>\t2\tminimal\tauto\tlogic-fish
3\t<stdin>\t3\tminimal\tauto\tlogic-forcing

file     encoding  amo  level                puzzles  solved_pct  unassigned_pct  unassigned_vars_pct  contradictions
<stdin>  -         -    logic-singles              3       33.33           81.24                    -               0
<stdin>  -         -    logic-intersections        3       33.33           78.87                    -               0
<stdin>  -         -    logic-subsets              3       33.33           78.87                    -               0
<stdin>  -         -    logic-fish                 3       66.67           95.24                    -               0
<stdin>  -         -    logic-wings                3       66.67           95.24                    -               0
<stdin>  -         -    logic-chains               3       66.67           95.24                    -               0
<stdin>  -         -    logic-forcing              3      100.00               -                    -               0
";
    assert_eq!(common::stdout(&out), expected);
}

/// `--cross` on the first 20 17-clue puzzles, minimal encoding: the 13 puzzles singles solve
/// are the 13 that hidden singles solve, the 3 that need intersections need `locked`, and of
/// the 4 that need subsets `flp` solves 2.
#[test]
fn cli_cross_table_on_twenty_17_clue_puzzles() {
    let stdout = twenty_minimal(
        "hidden,locked,up,flp,logic-singles,logic-intersections,logic-subsets",
        "--cross",
    );
    let cross = &stdout[stdout.find("cross ").expect("a cross-table")..];
    let expected = "\
cross 17_clue_first20.txt encoding minimal amo auto: rows the weakest technique level, columns the weakest other level
technique            hidden  locked  up  flp  none  total
logic-singles            13       0   0    0     0     13
logic-intersections       0       3   0    0     0      3
logic-subsets             0       0   0    2     2      4
none                      0       0   0    0     0      0
total                    13       3   0    2     2     20
";
    assert_eq!(cross, expected);
}

/// A misspelt technique level and `--cross` without levels of both kinds are errors with exit
/// code 2 and a message that says why; a Killer puzzle takes the technique levels (its cages
/// through the rules family).
#[test]
fn cli_technique_level_errors() {
    let file = "tests/data/9x9/17_clue_first20.txt";
    let bad = common::run(&["strength", "--levels", "up,logic-fishes", file]);
    assert_eq!(bad.status.code(), Some(2));
    let err = common::stderr(&bad);
    assert!(
        err.contains("unknown level 'logic-fishes'") && err.contains("logic-fish,"),
        "{err}"
    );
    for levels in ["up,flp", "logic-singles,logic-fish"] {
        let bad = common::run(&["strength", "--levels", levels, "--cross", file]);
        assert_eq!(bad.status.code(), Some(2), "{levels}");
        let err = common::stderr(&bad);
        assert!(err.contains("--cross needs technique levels"), "{err}");
    }
    let killer = std::fs::read_to_string("benches/data/killer1000.txt").unwrap();
    let first = killer.lines().next().unwrap();
    let out = common::run_with(
        &[
            "strength",
            "--levels",
            "logic-singles,logic-forcing",
            "--per-puzzle",
        ],
        first,
    );
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    let text = common::stdout(&out);
    // The cage sums alone (the rules family, with singles) finish it.
    let weakest: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("1\t<stdin>\t1\t"))
        .filter_map(|l| l.split('\t').nth(5))
        .collect();
    assert_eq!(weakest, ["logic-singles", "logic-singles"], "{text}");
}

/// `strength --timeout S`: each puzzle's levels share S seconds. A puzzle past them (the pair
/// probes of a sparse 16×16 take far longer) is named on standard error, marked `timeout` in
/// `--per-puzzle` and left out of the rows, and the exit code is 3; the run ends soon after.
/// Where no puzzle reaches it, the output is the one without it.
#[test]
fn a_timeout_stops_each_puzzle_and_marks_it() {
    let timeout = 0.2;
    let start = std::time::Instant::now();
    let o = common::run(&[
        "strength",
        "tests/data/sparse16.txt",
        "--encodings",
        "minimal",
        "--levels",
        "up,pairs",
        "--per-puzzle",
        "--jobs",
        "1",
        "--timeout",
        &timeout.to_string(),
    ]);
    let took = start.elapsed().as_secs_f64();
    let (out, err) = (common::stdout(&o), common::stderr(&o));
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(took < 3.0 * (3.0 * timeout) + 2.0, "{took} s");
    for i in 1..=3 {
        let row = format!("{i}\ttests/data/sparse16.txt\t{i}\tminimal\tauto\ttimeout\n");
        assert!(out.contains(&row), "{out}");
        let said = format!("tests/data/sparse16.txt:{i}:1: timed out after {timeout} s");
        assert!(err.contains(&said), "{err}");
    }
    let pairs_row = out.lines().find(|l| l.contains(" pairs ")).unwrap();
    assert_eq!(pairs_row.split_whitespace().nth(4), Some("0"), "{out}");
    assert_eq!(
        twenty_minimal("up,flp,logic-fish", "--timeout=600"),
        twenty_minimal("up,flp,logic-fish", "--amo=auto"),
    );
}
