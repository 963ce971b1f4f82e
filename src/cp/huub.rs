//! The CP model solved in process by huub, a lazy-clause-generation solver (CP propagators on top
//! of the CaDiCaL SAT engine, which learns clauses from their explanations).
//!
//! [`lower`] turns a [`CpModel`] into a huub solver; [`solve`], [`count`] and [`maximize`] are
//! the three drivers the `cp` backend calls. A task is a run of searches: counting adds, after
//! each solution, the clause "some open cell differs from it"; maximising adds "the score is at
//! least one more than the best so far"; until a search finds no solution, which proves the count
//! or the optimum. With [`Searches::Incremental`] one solver does them all, keeping what it
//! learns; with [`Searches::Copies`] the built solver is a master that never searches, each
//! search runs on a fresh copy of it, and the clauses go into the master. huub 100.1 crashes
//! inside CaDiCaL's conflict analysis on some puzzles (docs/backends.md), in a solver asked again
//! and in a new one, depending on the form of the model; the `cp` backend can run the drivers in
//! a worker process and retry a crash with copies and other forms. A deadline ends a search
//! through huub's terminate callback, and is reported as [`Stop::Deadline`], never as an answer;
//! the same callback beats the worker's [`Pulse`].
//!
//! Some forms of the model are chosen to keep clear of faults of huub 100.1, each told where it
//! is posted: the root domains ([`root_domains`]), cells over ranges with their holes as
//! clauses ([`post_holes`]), sums as two inequalities ([`post_sum`]),
//! sandwiches as tables ([`post_sandwich`]), the all-differents short of a house and the house
//! cover as clauses on the built solver ([`post_on_solver`]). A conflict while building the
//! solver is a proof that the puzzle has no solution, answered as such without a search.
//!
//! Effort: each driver adds to an [`Effort`] what huub's `SolverStatistics` counted during its
//! searches (the difference before and after each search, on the solver that searched, so that
//! a copy's inherited figures are not counted twice); see [`search_effort`] for the mapping. A
//! task answered while building the solver made no search: every counter is 0.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use huub::actions::IntDecisionActions;
use huub::constraints::Conflict;
use huub::model::expressions::IntLinearExp;
use huub::model::{Model, View as ModelView};
use huub::solver::branchers::{DecisionSelection, DomainSelection, IntBrancher};
use huub::solver::{
    IntLitMeaning, Solver, SolverStatistics, Status, TerminationSignal, Valuation, View,
};

use super::model::{
    AllDiffLevel, AllDifferent, Between, Branching, Contains, CpModel, CpOptions, EdgeClue,
    HouseCover, ObjectiveBound, PairTable, Root, Sandwich, Searches,
};
use crate::cancel::Halt;
use crate::effort::Effort;
use crate::isolate::Pulse;
use crate::model::dual::{self, Domains, Duals, ASCENT_BUDGET};
use crate::model::Value;

/// Why a driver returned without a complete answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stop {
    /// The deadline passed, or the run was cancelled.
    Deadline,
    /// The model cannot be given to huub (an objective out of range…).
    Unsupported(String),
}

/// A model lowered into a huub solver (with [`Searches::Copies`], the master, never searched
/// itself), one integer view per cell, and the objective's view when the model was lowered with
/// it.
struct Lowered {
    solver: Solver,
    searches: Searches,
    cells: Vec<View<i64>>,
    objective: Option<View<i64>>,
}

/// The result of lowering: a solver, or the proof (found while simplifying) that the model has
/// no solution.
enum Lowering {
    Ready(Box<Lowered>),
    Infeasible,
}

/// Bytes of memory huub is expected to take for `model`: a fixed base, the literals of each open
/// cell's domain (direct and order encodings, created eagerly up to 255 digits), and the terms
/// of [`CpOptions::house_cover`].
pub fn estimate_bytes(model: &CpModel, options: &CpOptions) -> u64 {
    let n = model.n as u64;
    let open = model.givens.iter().filter(|&&g| g == 0).count() as u64;
    let literals = open * 2 * n;
    let cover = if options.house_cover != HouseCover::None {
        let full = model.all_different.iter().filter(|g| g.full).count() as u64;
        full * n * n
    } else {
        0
    };
    (16 << 20) + literals * BYTES_PER_LITERAL + cover * BYTES_PER_COVER_LITERAL
}

/// Per-item costs of [`estimate_bytes`], set from the peak resident memory of `solve` on empty
/// 25×25 to 64×64 grids (docs/backends.md, "Memory"): they over-estimate large grids rather than
/// under.
const BYTES_PER_LITERAL: u64 = 900;
const BYTES_PER_COVER_LITERAL: u64 = 16;

/// Least and greatest values of `Σ weights[c] × cell c` over digits `1..=n` (givens fixed), or
/// `None` when they overflow.
fn objective_range(model: &CpModel, weights: &[i64]) -> Option<(i64, i64)> {
    let n = model.n as i64;
    let (mut lo, mut hi) = (0i64, 0i64);
    for (&w, &g) in weights.iter().zip(&model.givens) {
        let (a, b) = if g > 0 { (g as i64, g as i64) } else { (1, n) };
        let (x, y) = (w.checked_mul(a)?, w.checked_mul(b)?);
        lo = lo.checked_add(x.min(y))?;
        hi = hi.checked_add(x.max(y))?;
    }
    Some((lo, hi))
}

/// Each cell's digits: the model's [`Root`] domains (singles over the houses and the variant
/// rules' exclusions, from [`crate::propagate`], then probing) within the listed candidates, then, to a fixpoint, each fixed cell's digit
/// removed from the other cells of every all-different group (the cages' among them, which
/// [`crate::propagate`] does not see), hidden singles in every full group (cells that the sums
/// fixed on the way leave new ones) and the digits that no sum supports (each sum's cells taken
/// independently); `None` when a cell runs out of digits, which proves there is no solution.
///
/// huub 100.1 drops the fixed cells of an all-different when it builds the solver, trusting its
/// presolve to have removed their digits from the other cells; when presolve has not (a cell
/// fixed late in it), the solver is unsound (huub's debug assertion in `IntUnique::to_solver`).
/// At this fixpoint no fixed cell's digit is left in its groups. The sums' filter keeps from
/// huub the sums no digits can make: its lowering of a sum over two-valued cells panics when it
/// finds the sum unsatisfiable (`int_linear.rs:566`).
fn root_domains(model: &CpModel) -> Option<Vec<Vec<Value>>> {
    let n = model.n;
    let mut cand = match &model.root {
        Root::NoSolution => return None,
        Root::Givens => {
            let mut digits: Vec<Vec<Value>> = model
                .givens
                .iter()
                .map(|&g| match g {
                    0 => (1..=n as Value).collect(),
                    g => vec![g],
                })
                .collect();
            for (c, listed) in &model.extra.domains {
                digits[*c as usize].retain(|d| listed.contains(d));
            }
            return digits.iter().all(|d| !d.is_empty()).then_some(digits);
        }
        Root::Masks(masks) => masks.clone(),
    };
    let bit = |d: Value| 1u128 << (d - 1);
    for (c, listed) in &model.extra.domains {
        cand[*c as usize] &= listed.iter().fold(0, |m, &d| m | bit(d));
    }
    let mut groups_of: Vec<Vec<usize>> = vec![Vec::new(); model.cells()];
    for (g, group) in model.all_different.iter().enumerate() {
        for &c in &group.cells {
            groups_of[c as usize].push(g);
        }
    }
    let sums: Vec<(Vec<(u32, i64)>, i64)> = model
        .weighted
        .iter()
        .map(|s| (s.terms.clone(), s.rhs))
        .chain(
            model
                .sums
                .iter()
                .map(|s| (s.cells.iter().map(|&c| (c, 1)).collect(), s.sum)),
        )
        .filter(|(terms, _)| {
            let mut cells: Vec<u32> = terms.iter().map(|&(c, _)| c).collect();
            cells.sort_unstable();
            cells.dedup();
            cells.len() == terms.len() && terms.iter().all(|&(_, k)| k != 0)
        })
        .collect();
    let values_of = |k: i64, mask: u128, n: usize| {
        (1..=n as Value)
            .filter(move |&d| mask & (1u128 << (d - 1)) != 0)
            .map(move |d| k * d as i64)
    };
    let mut done = vec![false; model.cells()];
    let mut changed = true;
    while changed {
        changed = false;
        // A fixed cell's digit leaves its groups' other cells.
        for c in 0..model.cells() {
            if cand[c] == 0 {
                return None;
            }
            if done[c] || cand[c].count_ones() != 1 {
                continue;
            }
            done[c] = true;
            for &g in &groups_of[c] {
                for &p in &model.all_different[g].cells {
                    let p = p as usize;
                    if p != c && cand[p] & cand[c] != 0 {
                        cand[p] &= !cand[c];
                        changed = true;
                    }
                }
            }
        }
        // Hidden singles: a digit with one place left in a full group goes there. huub's
        // presolve would find them too, late, which is the unsound case above.
        for group in model.all_different.iter().filter(|g| g.full) {
            for d in 1..=n as Value {
                let mut places = group
                    .cells
                    .iter()
                    .filter(|&&c| cand[c as usize] & bit(d) != 0);
                match (places.next(), places.next()) {
                    (None, _) => return None,
                    (Some(&c), None) if cand[c as usize] != bit(d) => {
                        cand[c as usize] = bit(d);
                        changed = true;
                    }
                    _ => {}
                }
            }
        }
        // Sums: a digit that no choice of the other terms' digits completes goes.
        for (terms, rhs) in &sums {
            let values: Vec<Vec<i64>> = terms
                .iter()
                .map(|&(c, k)| values_of(k, cand[c as usize], n).collect())
                .collect();
            let Some(keep) = supported(&values, *rhs) else {
                continue;
            };
            for (&(c, k), keep) in terms.iter().zip(keep) {
                for (v, kept) in values_of(k, cand[c as usize], n).zip(keep) {
                    if !kept {
                        cand[c as usize] &= !bit((v / k) as Value);
                        changed = true;
                    }
                }
                if cand[c as usize] == 0 {
                    return None;
                }
            }
        }
    }
    Some(
        cand.iter()
            .map(|&m| (1..=n as Value).filter(|&d| m & bit(d) != 0).collect())
            .collect(),
    )
}

/// For each term (the values `coefficient × digit` its cell may take) and each of its values,
/// whether some choice of one value from every other term completes `rhs` (the terms taken
/// independently: repeats allowed). `None` when the values' span is over [`EXACT_SPAN`] (then
/// nothing is filtered).
fn supported(values: &[Vec<i64>], rhs: i64) -> Option<Vec<Vec<bool>>> {
    let lo: i64 = values
        .iter()
        .map(|v| v.iter().min().copied().unwrap_or(0))
        .sum();
    let hi: i64 = values
        .iter()
        .map(|v| v.iter().max().copied().unwrap_or(0))
        .sum();
    if hi - lo > EXACT_SPAN {
        return None;
    }
    // Reachable sums of a run of terms, as (least, flags from the least up).
    type Reach = (i64, Vec<bool>);
    let add = |(low, can): &Reach, term: &Vec<i64>| -> Reach {
        let least = term.iter().min().copied().unwrap_or(0);
        let width = term.iter().max().copied().unwrap_or(0) - least;
        let mut next = vec![false; can.len() + width as usize];
        for (s, _) in can.iter().enumerate().filter(|(_, &b)| b) {
            for &v in term {
                next[s + (v - least) as usize] = true;
            }
        }
        (low + least, next)
    };
    let empty: Reach = (0, vec![true]);
    // prefix[i]: the sums of terms before i; suffix[i]: of terms from i on.
    let mut prefix = vec![empty.clone()];
    for term in values {
        let next = add(prefix.last().expect("starts with the empty sum"), term);
        prefix.push(next);
    }
    let mut suffix = vec![empty];
    for term in values.iter().rev() {
        let next = add(suffix.last().expect("starts with the empty sum"), term);
        suffix.push(next);
    }
    suffix.reverse();
    let holds =
        |(low, can): &Reach, s: i64| s >= *low && can.get((s - low) as usize) == Some(&true);
    Some(
        values
            .iter()
            .enumerate()
            .map(|(i, term)| {
                let (before, after) = (&prefix[i], &suffix[i + 1]);
                term.iter()
                    .map(|&v| {
                        before
                            .1
                            .iter()
                            .enumerate()
                            .any(|(s, &b)| b && holds(after, rhs - v - (before.0 + s as i64)))
                    })
                    .collect()
            })
            .collect(),
    )
}

/// Largest span of a sum's values that [`supported`] walks exactly.
const EXACT_SPAN: i64 = 1 << 12;

/// Posts `sandwich` with tables only, each domain-consistent: a counter `kᵢ` (`0..=2`) of the
/// line's ends (1 and `n`) before cell `i`, stepped by the table `(kᵢ, xᵢ, kᵢ₊₁)` from `k₀ = 0`
/// to `2` past the line; a term `yᵢ` that is `xᵢ` when cell `i` is no end and has one end before
/// it (so, the line being a house, one after it) and `0` otherwise, by the table
/// `(kᵢ, xᵢ, yᵢ)`; and partial sums `sᵢ₊₁ = sᵢ + yᵢ` by the table `(sᵢ, yᵢ, sᵢ₊₁)` from `s₀ = 0`
/// to the clue. No linear constraint: huub 100.1 panics (`int_linear.rs:566`) on some linear
/// sums it finds infeasible, as on a 4×4 sandwich of clue 5 no digits can make
/// (`tests/data/fpuzzles/sandwich-none4.json`).
fn post_sandwich(
    m: &mut Model,
    cells: &[ModelView<i64>],
    sandwich: &Sandwich,
    n: i64,
) -> Result<(), Conflict<ModelView<bool>>> {
    let is_end = |d: i64| d == 1 || d == n;
    let len = sandwich.cells.len();
    let counters: Vec<ModelView<i64>> = (0..=len)
        .map(|i| match i {
            0 => m.new_int_decision(0..=0),
            i if i == len => m.new_int_decision(2..=2),
            _ => m.new_int_decision(0..=2),
        })
        .collect();
    let mut partial = m.new_int_decision(0..=0);
    for (i, &c) in sandwich.cells.iter().enumerate() {
        let x = cells[c as usize];
        let step = (0..=2).flat_map(|k| {
            (1..=n).filter_map(move |d| {
                let next = k + i64::from(is_end(d));
                (next <= 2).then(|| vec![k, d, next])
            })
        });
        m.table(vec![counters[i], x, counters[i + 1]])
            .values(step)
            .post()?;
        let y = m.new_int_decision(0..=n - 1);
        let term = (0..=2).flat_map(|k| {
            (1..=n).map(move |d| vec![k, d, if k == 1 && !is_end(d) { d } else { 0 }])
        });
        m.table(vec![counters[i], x, y]).values(term).post()?;
        // The partial sum past cell i.
        let total = sandwich.sum;
        let next = if i + 1 == len {
            m.new_int_decision(total..=total)
        } else {
            m.new_int_decision(0..=total)
        };
        let add = (0..=total).flat_map(|p| {
            (0..n)
                .filter(move |&v| p + v <= total)
                .map(move |v| vec![p, v, p + v])
        });
        m.table(vec![partial, y, next]).values(add).post()?;
        partial = next;
    }
    Ok(())
}

/// Most rows of a table that [`post_rule_tables`] builds from the cells' root domains; past it
/// the rule is left to its clauses.
const RULE_TABLE_ROWS: usize = 4096;

/// The tuples of the product of `domains` (one digit list per cell) that `keep` accepts, or
/// `None` when the product has more than `limit` tuples.
fn product_where(
    domains: &[&[Value]],
    limit: usize,
    keep: impl Fn(&[Value]) -> bool,
) -> Option<Vec<Vec<i64>>> {
    let size = domains.iter().try_fold(1usize, |p, d| {
        p.checked_mul(d.len()).filter(|&p| p <= limit)
    })?;
    let mut out = vec![];
    if size == 0 {
        return Some(out);
    }
    // An odometer over the positions in each domain.
    let mut at = vec![0usize; domains.len()];
    loop {
        let tuple: Vec<Value> = at.iter().zip(domains).map(|(&i, d)| d[i]).collect();
        if keep(&tuple) {
            out.push(tuple.iter().map(|&d| d as i64).collect());
        }
        let Some(i) = at.iter().zip(domains).rposition(|(&i, d)| i + 1 < d.len()) else {
            return Some(out);
        };
        at[i] += 1;
        at[i + 1..].iter_mut().for_each(|p| *p = 0);
    }
}

/// Posts a table over `vars`; no rows at all is a proof that there is no solution (huub is not
/// handed an empty table).
fn post_table(
    m: &mut Model,
    vars: Vec<ModelView<i64>>,
    rows: Vec<Vec<i64>>,
) -> Result<(), Infeasible> {
    if rows.is_empty() {
        return Err(Infeasible);
    }
    m.table(vars).values(rows).post().map_err(|_| Infeasible)
}

/// Tables, domain-consistent, over the cells' root `domains`: a quadruple's cells take the tuples
/// that hold its digits, and each inner cell of a between or lockout line with the line's two
/// ends the triples the line allows; a table whose product of domains passes
/// [`RULE_TABLE_ROWS`] is left out. They add strength only: the clauses of
/// [`post_contains_clauses`] and [`post_between_clauses`] state every rule whole.
fn post_rule_tables(
    m: &mut Model,
    cells: &[ModelView<i64>],
    domains: &[Vec<Value>],
    model: &CpModel,
) -> Result<(), Infeasible> {
    let dom = |c: u32| domains[c as usize].as_slice();
    let view = |c: &u32| cells[*c as usize];
    for rule in &model.extra.contains {
        let ds: Vec<&[Value]> = rule.cells.iter().map(|&c| dom(c)).collect();
        let holds = |t: &[Value]| {
            rule.digits.iter().all(|d| {
                let listed = rule.digits.iter().filter(|&e| e == d).count();
                t.iter().filter(|&e| e == d).count() >= listed
            })
        };
        if let Some(rows) = product_where(&ds, RULE_TABLE_ROWS, holds) {
            post_table(m, rule.cells.iter().map(view).collect(), rows)?;
        }
    }
    for rule in &model.extra.betweens {
        let [a, b] = rule.ends;
        for &c in &rule.cells {
            let ds = [dom(a), dom(b), dom(c)];
            let keep = |t: &[Value]| rule.allows(t[0], t[1], t[2]);
            if let Some(rows) = product_where(&ds, RULE_TABLE_ROWS, keep) {
                post_table(m, [a, b, c].iter().map(view).collect(), rows)?;
            }
        }
    }
    Ok(())
}

/// A quadruple as clauses on the built solver: for each listed digit `d`, listed `k` times among
/// `m` cells, every `m − k + 1` of the cells include one holding `d`. Each digit's clauses say
/// exactly "at least `k` cells hold `d`"; together they are the rule, since a cell holds one
/// digit.
fn post_contains_clauses(
    solver: &mut Solver,
    cells: &[View<i64>],
    rule: &Contains,
    n: i64,
) -> Result<(), Infeasible> {
    let m = rule.cells.len();
    let mut digits = rule.digits.clone();
    digits.sort_unstable();
    for run in digits.chunk_by(|x, y| x == y) {
        let (d, k) = (run[0] as i64, run.len());
        if d > n || k > m {
            return Err(Infeasible);
        }
        for subset in (0u32..1 << m).filter(|s| s.count_ones() as usize == m - k + 1) {
            let clause: Vec<_> = (0..m)
                .filter(|i| subset & (1 << i) != 0)
                .map(|i| cells[rule.cells[i] as usize].lit(solver, IntLitMeaning::Eq(d)))
                .collect();
            solver.add_clause(clause).map_err(|_| Infeasible)?;
        }
    }
    Ok(())
}

/// A between or lockout line as clauses on the built solver, over the direct and order literals
/// of its ends `a`, `b` and each inner cell `x`: `x = d` excludes `a = d` and `b = d`; inside,
/// it excludes both ends below `d` and both above; outside, one end below and the other above.
fn post_between_clauses(
    solver: &mut Solver,
    cells: &[View<i64>],
    rule: &Between,
    n: i64,
) -> Result<(), Infeasible> {
    use IntLitMeaning::{GreaterEq, Less, NotEq};
    let [a, b] = rule.ends.map(|c| cells[c as usize]);
    for &c in &rule.cells {
        let x = cells[c as usize];
        for d in 1..=n {
            let not_x = x.lit(solver, NotEq(d));
            let mut clauses = vec![
                vec![not_x, a.lit(solver, NotEq(d))],
                vec![not_x, b.lit(solver, NotEq(d))],
            ];
            // [v ≥ d] and [v ≤ d], for the ends' order literals.
            let mut ge = |v: View<i64>| v.lit(solver, GreaterEq(d));
            let (a_ge, b_ge) = (ge(a), ge(b));
            let mut le = |v: View<i64>| v.lit(solver, Less(d + 1));
            let (a_le, b_le) = (le(a), le(b));
            if rule.inside {
                if d > 1 {
                    clauses.push(vec![not_x, a_ge, b_ge]);
                }
                if d < n {
                    clauses.push(vec![not_x, a_le, b_le]);
                }
            } else if d > 1 && d < n {
                clauses.push(vec![not_x, a_ge, b_le]);
                clauses.push(vec![not_x, b_ge, a_le]);
            }
            for clause in clauses {
                solver.add_clause(clause).map_err(|_| Infeasible)?;
            }
        }
    }
    Ok(())
}

/// Posts a skyscraper clue by its running maximum: `top₀ = x₀`, `topᵢ = max(topᵢ₋₁, xᵢ)`
/// (huub's bounds propagator), a Boolean `sᵢ` per cell after the first, with `sᵢ ⇔ xᵢ >
/// topᵢ₋₁` as clauses on the built solver (each [`Sighting`] kept in `sightings` for
/// [`post_sightings`]), and `Σ sᵢ = clue − 1` (the first cell is always seen) by
/// [`post_count`]. An automaton of tables over the state (tallest so far, cells seen) would be
/// domain-consistent per step, but huub lowers a table to one selector per row, hundreds per
/// cell, and a grid ringed with clues then solves many times slower, with more conflicts, than
/// with this form; so does a table per cell over `(topᵢ₋₁, xᵢ, topᵢ, sᵢ)`.
fn post_skyscraper(
    m: &mut Model,
    cells: &[ModelView<i64>],
    clue: &EdgeClue,
    n: i64,
    sightings: &mut Vec<Sighting>,
) -> Result<(), Infeasible> {
    let line: Vec<ModelView<i64>> = clue.cells.iter().map(|&c| cells[c as usize]).collect();
    let Some((&first, rest)) = line.split_first() else {
        // No cell is seen from a clue without a line, as the checker counts it.
        return if clue.value == 0 {
            Ok(())
        } else {
            Err(Infeasible)
        };
    };
    let mut tallest = first;
    let mut seen = vec![];
    for (i, &cell) in rest.iter().enumerate() {
        let s = m.new_bool_decision();
        seen.push(s);
        sightings.push(Sighting {
            cell,
            tallest,
            seen: s,
        });
        if i + 1 < rest.len() {
            let next = m.new_int_decision(1..=n);
            m.maximum([tallest, cell])
                .result(next)
                .post()
                .map_err(|_| Infeasible)?;
            tallest = next;
        }
    }
    post_count(m, &seen, clue.value as i64 - 1)
}

/// A cell of a skyscraper line after the first, the tallest cell before it, and whether it is
/// seen: `seen ⇔ cell > tallest` ([`post_sightings`]).
struct Sighting {
    cell: ModelView<i64>,
    tallest: ModelView<i64>,
    seen: ModelView<bool>,
}

/// `seen ⇔ cell > tallest` for each sighting, as clauses on the built solver over the cell's
/// direct literals and the tallest's order literals: `cell = d ∧ tallest < d → seen` and
/// `cell = d ∧ tallest ≥ d → ¬seen`. Not a reified linear constraint: huub 100.1 lowers a
/// linear constraint whose views all have two values through pindakaas's aggregator, and when
/// that finds it unsatisfiable (a puzzle without a solution) it panics instead of failing.
fn post_sightings(
    solver: &mut Solver,
    map: &huub::lower::LoweringMap,
    sightings: &[Sighting],
    n: i64,
) -> Result<(), Infeasible> {
    use IntLitMeaning::{GreaterEq, Less, NotEq};
    for s in sightings {
        let (cell, tallest) = (map.get(solver, s.cell), map.get(solver, s.tallest));
        let seen = map.get(solver, s.seen);
        for d in 1..=n {
            let not_d = cell.lit(solver, NotEq(d));
            let (below, at_least) = (
                tallest.lit(solver, Less(d)),
                tallest.lit(solver, GreaterEq(d)),
            );
            for clause in [vec![not_d, at_least, seen], vec![not_d, below, !seen]] {
                solver.add_clause(clause).map_err(|_| Infeasible)?;
            }
        }
    }
    Ok(())
}

/// Posts "exactly `k` of `bools` hold" as a chain of small tables over the running count
/// `(cᵢ₋₁, bᵢ, cᵢ)`, each count kept to the values from which `k` is still reachable. Not as a
/// linear sum of Booleans, for the huub panic [`post_sightings`] describes.
fn post_count(m: &mut Model, bools: &[ModelView<bool>], k: i64) -> Result<(), Infeasible> {
    let len = bools.len() as i64;
    if !(0..=len).contains(&k) {
        return Err(Infeasible);
    }
    let mut count = m.new_int_decision(0..=0);
    for (i, &b) in bools.iter().enumerate() {
        let left = len - i as i64 - 1; // Booleans after this one
        let reachable = |c: i64| c <= k && c + left >= k;
        let before = 0..=(i as i64).min(k);
        let rows: Vec<Vec<i64>> = before
            .flat_map(|c| [(c, 0), (c, 1)])
            .filter(|&(c, x)| reachable(c + x))
            .map(|(c, x)| vec![c, x, c + x])
            .collect();
        let (lo, hi) = (
            rows.iter().map(|r| r[2]).min(),
            rows.iter().map(|r| r[2]).max(),
        );
        let (Some(lo), Some(hi)) = (lo, hi) else {
            return Err(Infeasible);
        };
        let next = m.new_int_decision(lo..=hi);
        post_table(m, vec![count, ModelView::<i64>::from(b), next], rows)?;
        count = next;
    }
    Ok(())
}

/// Posts an X-sum clue by its prefix sums up to the largest digit the first cell may hold:
/// `p₁ = x₁`, `pₖ = pₖ₋₁ + xₖ` (each a linear sum, as [`post_sum`]; `pₖ` over the range of the
/// sums its cells' root `domains` can make, not the set, for the crash [`post_holes`] avoids);
/// and for each such count `k` an [`XsumIndex`] "`x₁ = k` ⇒ `pₖ = clue`", kept in `indexes` for
/// [`post_xsum_indexes`]. Tables over `(pₖ₋₁, xₖ, pₖ)` would be domain-consistent per step, but
/// huub lowers a table to one selector per row, thousands per clue, and the published kinds'
/// mixed set (three X-sums a puzzle) solved about twice as slowly with them.
fn post_xsum(
    m: &mut Model,
    cells: &[ModelView<i64>],
    domains: &[Vec<Value>],
    clue: &EdgeClue,
    indexes: &mut Vec<XsumIndex>,
) -> Result<(), Infeasible> {
    let value = clue.value as i64;
    let first = clue.cells[0] as usize;
    let longest = domains[first].iter().copied().max().unwrap_or(0) as usize;
    let mut prefix = cells[first];
    let mut reach: Vec<i64> = domains[first].iter().map(|&d| d as i64).collect();
    for (k, &c) in clue.cells.iter().enumerate().take(longest) {
        if k > 0 {
            let mut sums: Vec<i64> = reach
                .iter()
                .flat_map(|&p| domains[c as usize].iter().map(move |&d| p + d as i64))
                .collect();
            sums.sort_unstable();
            sums.dedup();
            let next = m.new_int_decision(sums[0]..=sums[sums.len() - 1]);
            post_sum(m, &[(next, 1), (prefix, -1), (cells[c as usize], -1)], 0)?;
            prefix = next;
            reach = sums;
        }
        indexes.push(XsumIndex {
            first: cells[first],
            count: k as i64 + 1,
            prefix,
            value,
        });
    }
    Ok(())
}

/// An X-sum clue's "the first cell holds `count` ⇒ the first `count` cells add up to `value`",
/// `prefix` being that sum.
struct XsumIndex {
    first: ModelView<i64>,
    count: i64,
    prefix: ModelView<i64>,
    value: i64,
}

/// Each [`XsumIndex`] as two clauses on the built solver over the first cell's direct literal
/// and the prefix's order literals: `x₁ ≠ k ∨ pₖ ≥ clue` and `x₁ ≠ k ∨ pₖ < clue + 1`.
fn post_xsum_indexes(
    solver: &mut Solver,
    map: &huub::lower::LoweringMap,
    indexes: &[XsumIndex],
) -> Result<(), Infeasible> {
    use IntLitMeaning::{GreaterEq, Less, NotEq};
    for x in indexes {
        let (first, prefix) = (map.get(solver, x.first), map.get(solver, x.prefix));
        let not_k = first.lit(solver, NotEq(x.count));
        for bound in [GreaterEq(x.value), Less(x.value + 1)] {
            let clause = vec![not_k, prefix.lit(solver, bound)];
            solver.add_clause(clause).map_err(|_| Infeasible)?;
        }
    }
    Ok(())
}

/// Whether `pair` is posted as clauses on the built solver rather than as a table: when it
/// forbids fewer digit pairs than it allows.
fn as_clauses(pair: &PairTable, n: i64) -> bool {
    2 * pair.allowed.len() as i64 > n * n
}

/// The direct encoding of the relation `allowed` between cells `a` and `b` over digits `1..=n`,
/// on the built solver: for each digit of either cell a clause "not this digit, or one the other
/// cell may hold beside it", and for each forbidden pair "not both".
fn post_pair(
    solver: &mut Solver,
    a: View<i64>,
    b: View<i64>,
    allowed: &[(Value, Value)],
    n: i64,
) -> Result<(), Infeasible> {
    let side = n as usize;
    let mut table = vec![false; side * side];
    for &(x, y) in allowed {
        table[(x as usize - 1) * side + y as usize - 1] = true;
    }
    let allows = |x: i64, y: i64| table[(x - 1) as usize * side + (y - 1) as usize];
    let add =
        |solver: &mut Solver, clause: Vec<_>| solver.add_clause(clause).map_err(|_| Infeasible);
    for d in 1..=n {
        let not_a = a.lit(solver, IntLitMeaning::NotEq(d));
        let not_b = b.lit(solver, IntLitMeaning::NotEq(d));
        let mut support_a = vec![not_a];
        let mut support_b = vec![not_b];
        for e in 1..=n {
            if allows(d, e) {
                support_a.push(b.lit(solver, IntLitMeaning::Eq(e)));
            } else {
                let not_be = b.lit(solver, IntLitMeaning::NotEq(e));
                add(solver, vec![not_a, not_be])?;
            }
            if allows(e, d) {
                support_b.push(a.lit(solver, IntLitMeaning::Eq(e)));
            }
        }
        add(solver, support_a)?;
        add(solver, support_b)?;
    }
    Ok(())
}

/// A proof, found while building the solver, that the model has no solution (a conflict while
/// posting, by propagation alone, or domains left empty).
struct Infeasible;

/// Whether [`lower`] posts the objective; with it, how the duals of its bound
/// ([`post_reduced_costs`]) are found.
#[derive(Debug, Clone, Copy)]
enum WithObjective {
    No,
    Yes(Duals),
}

/// Builds the solver for `model`, with its objective when asked: the cells over their root
/// domains, the constraints huub presolves ([`post_model`]) and the objective's bound
/// ([`post_reduced_costs`]), huub's lowering, then what is added to the built solver
/// ([`post_on_solver`]) and the branching.
fn lower(
    model: &CpModel,
    options: &CpOptions,
    with_objective: WithObjective,
) -> Result<Lowering, Stop> {
    options
        .check()
        .map_err(|e| Stop::Unsupported(e.to_string()))?;
    let Some(domains) = root_domains(model) else {
        return Ok(Lowering::Infeasible);
    };
    let mut m = Model::default();
    let cells: Vec<_> = domains
        .iter()
        .map(|digits| {
            // Non-empty: `root_domains` proves infeasibility otherwise.
            m.new_int_decision(digits[0] as i64..=digits[digits.len() - 1] as i64)
        })
        .collect();
    let objective = match (&model.objective, with_objective) {
        (Some(weights), WithObjective::Yes { .. }) => Some(
            objective_range(model, weights)
                .ok_or_else(|| Stop::Unsupported("the objective overflows 64 bits".into()))?,
        ),
        _ => None,
    };
    let (mut sightings, mut indexes) = (vec![], vec![]);
    let posted = post_model(
        &mut m,
        &cells,
        &domains,
        model,
        options,
        objective,
        (&mut sightings, &mut indexes),
    );
    let Ok(objective) = posted else {
        return Ok(Lowering::Infeasible);
    };
    if let (Some(total), Some(weights), WithObjective::Yes(duals)) =
        (objective, &model.objective, with_objective)
    {
        if options.objective_bound == ObjectiveBound::ReducedCosts
            && post_reduced_costs(&mut m, &cells, &domains, model, weights, total, duals).is_err()
        {
            return Ok(Lowering::Infeasible);
        }
    }
    let Ok((mut solver, map)) = m.lower().to_solver::<huub::solver::Cadical>() else {
        return Ok(Lowering::Infeasible);
    };
    if post_sightings(&mut solver, &map, &sightings, model.n as i64).is_err()
        || post_xsum_indexes(&mut solver, &map, &indexes).is_err()
    {
        return Ok(Lowering::Infeasible);
    }
    let cells: Vec<View<i64>> = cells.iter().map(|&v| map.get(&mut solver, v)).collect();
    if post_holes(&mut solver, &cells, &domains).is_err() {
        return Ok(Lowering::Infeasible);
    }
    if post_on_solver(&mut solver, &cells, model, options).is_err() {
        return Ok(Lowering::Infeasible);
    }
    let objective = objective.map(|v| map.get(&mut solver, v));
    set_branching(&mut solver, &cells, options.branching);
    Ok(Lowering::Ready(Box::new(Lowered {
        solver,
        searches: options.searches,
        cells,
        objective,
    })))
}

/// Posts [`ObjectiveBound::ReducedCosts`]: `total + Σ rc(c, d)·[cell c = d] ≤ upper` over the
/// candidates of positive reduced cost ([`crate::model::dual`], from `duals` over the full
/// groups, its houses). Cell `c` holding `d` loses `θ(c, d) = best(c) − w(c)·d` against its best
/// root digit, so in every solution `total = Σ best + Σ fixed scores − offset − Σ rc`; the offset
/// is the duals' lower bound on the loss. Over the cells' own `[c = d]` literals the bound adds
/// no variable; an element per cell (its reduced cost at its digit) would also see that a cell
/// holds one digit, but was slower on weighted 9×9 puzzles (its variables' wide domains).
fn post_reduced_costs(
    m: &mut Model,
    cells: &[ModelView<i64>],
    domains: &[Vec<Value>],
    model: &CpModel,
    weights: &[i64],
    total: ModelView<i64>,
    duals: Duals,
) -> Result<(), Infeasible> {
    // Each term of `total` fits in 64 bits ([`objective_range`]), so these do too.
    let best = |c: usize| -> i64 {
        let w = weights[c];
        domains[c].iter().map(|&d| w * d as i64).max().unwrap_or(0)
    };
    let theta = |c: usize, d: u16| (best(c) - weights[c] * d as i64) as u64;
    let houses = model.all_different.iter().filter(|g| g.full);
    let candidates = Domains::new(model.n, domains);
    let reduced = dual::reduce(
        houses.map(|g| g.cells.as_slice()),
        &candidates,
        theta,
        duals,
    );
    let upper = (0..domains.len()).map(best).sum::<i64>() - reduced.offset as i64;
    // The propagator adds up every term's bounds: leave the bound out (it is redundant) when
    // that sum could overflow, as with weights near the model's limit on large grids.
    let spread = reduced
        .costs
        .iter()
        .try_fold(upper.unsigned_abs(), |sum, &(_, rc)| sum.checked_add(rc));
    if spread.is_none_or(|s| s > (i64::MAX / 4) as u64) {
        return Ok(());
    }
    let mut expr: IntLinearExp = total.into();
    for &((c, d), rc) in reduced.costs.iter().filter(|&&(_, rc)| rc > 0) {
        expr += ModelView::<i64>::from(cells[c as usize].eq(d as i64)) * rc as i64;
    }
    m.linear(expr).le(upper).post().map_err(|_| Infeasible)
}

/// Removes from each cell, by a unit clause on the built solver, the digits between its smallest
/// and largest root digit that its root domain lacks. The cells are built over that range, not
/// over the domain itself: huub 100.1 crashes inside CaDiCaL's conflict analysis when a variable
/// built over a set with holes takes part in a failing sum (three cells of a cage, each `4..=6`
/// or `9`, that must add up to 22: `NO_SOLUTION_KILLERS` in `tests/cp.rs`).
fn post_holes(
    solver: &mut Solver,
    cells: &[View<i64>],
    domains: &[Vec<Value>],
) -> Result<(), Infeasible> {
    for (&cell, digits) in cells.iter().zip(domains) {
        let (Some(&lo), Some(&hi)) = (digits.first(), digits.last()) else {
            return Err(Infeasible);
        };
        for d in (lo..hi).filter(|d| digits.binary_search(d).is_err()) {
            let hole = cell.lit(solver, IntLitMeaning::NotEq(d as i64));
            solver.add_clause(vec![hole]).map_err(|_| Infeasible)?;
        }
    }
    Ok(())
}

/// Posts to the model what huub presolves: the all-differents of three cells or more (and the
/// linear house cover), the sums, the tables, the pairs that stay tables, the sandwiches, the
/// tables of quadruples and between lines over the cells' root `domains` ([`post_rule_tables`]),
/// skyscraper and X-sum clues, and the objective `Σ weight × cell` over `objective`'s range,
/// whose variable it returns.
fn post_model(
    m: &mut Model,
    cells: &[ModelView<i64>],
    domains: &[Vec<Value>],
    model: &CpModel,
    options: &CpOptions,
    objective: Option<(i64, i64)>,
    (sightings, indexes): (&mut Vec<Sighting>, &mut Vec<XsumIndex>),
) -> Result<Option<ModelView<i64>>, Infeasible> {
    let n = model.n as i64;
    let (value, bounds, domain) = match options.alldiff {
        AllDiffLevel::Value => (true, false, false),
        AllDiffLevel::Bounds => (false, true, false),
        AllDiffLevel::Domain => (false, false, true),
    };
    for group in model.all_different.iter().filter(|g| !is_pair(g)) {
        let vars: Vec<_> = group
            .cells
            .iter()
            .filter(|&&c| !(options.drop_fixed && settled(c, &group.cells, domains)))
            .map(|&c| cells[c as usize])
            .collect();
        m.unique(vars)
            .value_propagation(value)
            .bounds_propagation(bounds)
            .domain_propagation(domain)
            .post()
            .map_err(|_| Infeasible)?;
        if options.house_cover == HouseCover::Linear && group.full {
            for d in 1..=n {
                let somewhere: IntLinearExp =
                    group.cells.iter().map(|&c| cells[c as usize].eq(d)).sum();
                m.linear(somewhere).ge(1).post().map_err(|_| Infeasible)?;
            }
        }
    }
    for sum in &model.sums {
        let terms: Vec<_> = sum.cells.iter().map(|&c| (cells[c as usize], 1)).collect();
        post_sum(m, &terms, sum.sum)?;
    }
    for sum in &model.weighted {
        let terms: Vec<_> = sum
            .terms
            .iter()
            .map(|&(c, k)| (cells[c as usize], k))
            .collect();
        post_sum(m, &terms, sum.rhs)?;
    }
    for table in &model.tables {
        let vars: Vec<_> = table.cells.iter().map(|&c| cells[c as usize]).collect();
        let rows = table
            .allowed
            .iter()
            .map(|row| row.iter().map(|&d| d as i64).collect::<Vec<_>>());
        m.table(vars).values(rows).post().map_err(|_| Infeasible)?;
    }
    for pair in model.pairs.iter().filter(|p| !as_clauses(p, n)) {
        let vars = [cells[pair.a as usize], cells[pair.b as usize]];
        let rows = pair.allowed.iter().map(|&(x, y)| vec![x as i64, y as i64]);
        m.table(vars).values(rows).post().map_err(|_| Infeasible)?;
    }
    for sandwich in &model.sandwiches {
        post_sandwich(m, cells, sandwich, n).map_err(|_| Infeasible)?;
    }
    post_rule_tables(m, cells, domains, model)?;
    for clue in &model.extra.skyscrapers {
        post_skyscraper(m, cells, clue, n, sightings)?;
    }
    for clue in &model.extra.xsums {
        post_xsum(m, cells, domains, clue, indexes)?;
    }
    let (Some(weights), Some((lo, hi))) = (&model.objective, objective) else {
        return Ok(None);
    };
    let total = m.new_int_decision(lo..=hi);
    let expr: IntLinearExp = weights
        .iter()
        .zip(cells)
        .filter(|(&w, _)| w != 0)
        .map(|(&w, &v)| v * w)
        .sum();
    m.linear(expr).eq(total).post().map_err(|_| Infeasible)?;
    Ok(Some(total))
}

/// Whether cell `c` is fixed and its digit is in no other of `group`'s cells: then the group's
/// all-different needs it no more ([`CpOptions::drop_fixed`]). The root domains' fixpoint makes
/// every fixed cell so, except on grids past 128 (their root is the givens alone).
fn settled(c: u32, group: &[u32], domains: &[Vec<Value>]) -> bool {
    let [digit] = domains[c as usize][..] else {
        return false;
    };
    group
        .iter()
        .all(|&p| p == c || domains[p as usize].binary_search(&digit).is_err())
}

/// Posts `Σ coefficient × cell = rhs` as its two halves, `≤ rhs` and `≥ rhs`, which propagate
/// as the equality does (huub posts an equality as those two bounds propagators). As one
/// equality, huub 100.1's presolve turns a sum left with two cells into an alias of one by the
/// other: in a Killer cage of even sum `2k` whose cells may hold `k`, an all-different then holds
/// a cell and its own view `2k − x`, and CaDiCaL crashed in conflict analysis (the two
/// Killers without a solution in `tests/cp.rs`); and aliases over arrows in a cycle made its
/// presolve loop for ever.
fn post_sum(m: &mut Model, terms: &[(ModelView<i64>, i64)], rhs: i64) -> Result<(), Infeasible> {
    let expr = || -> IntLinearExp { terms.iter().map(|&(v, k)| v * k).sum() };
    m.linear(expr()).le(rhs).post().map_err(|_| Infeasible)?;
    m.linear(expr()).ge(rhs).post().map_err(|_| Infeasible)
}

/// Two cells that differ are clauses on the built solver ([`post_on_solver`]), not an
/// all-different: huub 100.1's presolve fixes cells of such pairs (anti-king ones, say) that it
/// then drops from the all-different with their digit still in the other cell, and answers
/// wrongly.
fn is_pair(group: &AllDifferent) -> bool {
    group.cells.len() == 2
}

/// Adds to the built solver what huub's presolve must not see: the all-differents short of a
/// house (those of two cells, [`is_pair`], only here), the pairs posted as clauses
/// ([`as_clauses`]), the clauses of quadruples and between lines ([`post_contains_clauses`],
/// [`post_between_clauses`]), and the house cover as clauses.
fn post_on_solver(
    solver: &mut Solver,
    cells: &[View<i64>],
    model: &CpModel,
    options: &CpOptions,
) -> Result<(), Infeasible> {
    let n = model.n as i64;
    let add =
        |solver: &mut Solver, clause: Vec<_>| solver.add_clause(clause).map_err(|_| Infeasible);
    // Every all-different short of a house is clauses, one per two cells and digit: a group of
    // two cells only so (huub's presolve must not see it), a longer one (cages, rules' groups)
    // besides huub's propagator too, which, with the fixed cells in it, let a 6×6 Killer's
    // answer hold one digit twice in a cage of five (fuzz seed 74, case 18,167;
    // docs/backends.md). A full house is held by the house cover below (the default form).
    for group in model.all_different.iter().filter(|g| !g.full) {
        for (i, &a) in group.cells.iter().enumerate() {
            for &b in &group.cells[i + 1..] {
                let [a, b] = [a, b].map(|c| cells[c as usize]);
                for d in 1..=n {
                    let clause = vec![
                        a.lit(solver, IntLitMeaning::NotEq(d)),
                        b.lit(solver, IntLitMeaning::NotEq(d)),
                    ];
                    add(solver, clause)?;
                }
            }
        }
    }
    // A pair that forbids fewer digit pairs than it allows (the negative rules, non-consecutive
    // among them) is clauses too, by its direct encoding: as propagating as a table (arc
    // consistency), and faster than huub's tables on the non-consecutive set
    // (docs/benchmarks.md), which stay for the pairs that allow few digits (dots,
    // thermometers, whispers).
    for pair in model.pairs.iter().filter(|p| as_clauses(p, n)) {
        let [a, b] = [pair.a, pair.b].map(|c| cells[c as usize]);
        post_pair(solver, a, b, &pair.allowed, n)?;
    }
    for rule in &model.extra.contains {
        post_contains_clauses(solver, cells, rule, n)?;
    }
    for rule in &model.extra.betweens {
        post_between_clauses(solver, cells, rule, n)?;
    }
    if options.house_cover == HouseCover::Clauses {
        // On the built solver: as clauses in the model (a Boolean formula), huub 100.1's
        // presolve crashes inside CaDiCaL on some puzzles, and as linear constraints its
        // presolve takes much of the time on Killers (docs/backends.md).
        for group in model.all_different.iter().filter(|g| g.full) {
            for d in 1..=n {
                let clause: Vec<_> = group
                    .cells
                    .iter()
                    .map(|&c| cells[c as usize].lit(solver, IntLitMeaning::Eq(d)))
                    .collect();
                add(solver, clause)?;
            }
        }
    }
    Ok(())
}

/// Hands the search's decisions to a CP brancher over the cells, unless it is the SAT engine's
/// own activity.
fn set_branching(solver: &mut Solver, cells: &[View<i64>], branching: Branching) {
    let var_sel = match branching {
        Branching::Activity => return,
        Branching::FirstFail => DecisionSelection::FirstFail,
        Branching::InputOrder => DecisionSelection::InputOrder,
    };
    IntBrancher::new_in(
        solver,
        cells.to_vec(),
        var_sel,
        DomainSelection::IndomainMin,
    );
}

/// A solution: every cell's digit, and its score when lowered with the objective.
type Solution = (Vec<Value>, Option<i64>);

impl Lowered {
    /// One solution (and its score when lowered with the objective), found by the solver itself
    /// or by a copy of it ([`Searches`]); `None` when there is none.
    /// The search's periodic callback checks `halt` (the deadline and the cancel flag) and
    /// beats `pulse`; what the search
    /// did is added to `effort`, whatever its end.
    fn search(
        &mut self,
        halt: &Halt,
        pulse: &Pulse,
        effort: &mut Effort,
    ) -> Result<Option<Solution>, Stop> {
        let mut copy;
        let solver = match self.searches {
            Searches::Incremental => &mut self.solver,
            Searches::Copies => {
                copy = self.solver.clone();
                &mut copy
            }
        };
        let (pulse, halt) = (pulse.clone(), halt.clone());
        solver.set_terminate_callback(Some(move || {
            pulse.beat();
            if halt.reached() {
                TerminationSignal::Terminate
            } else {
                TerminationSignal::Continue
            }
        }));
        let mut found = None;
        let before = solver.solver_statistics();
        let status = solver
            .solve()
            .on_solution(|sol| {
                found = Some((
                    self.cells.iter().map(|v| v.val(sol) as Value).collect(),
                    self.objective.map(|o| o.val(sol)),
                ))
            })
            .satisfy();
        effort.add(&search_effort(&before, &solver.solver_statistics()));
        match status {
            Status::Satisfied | Status::Complete if found.is_some() => Ok(found),
            Status::Unsatisfiable => Ok(None),
            _ => Err(Stop::Deadline),
        }
    }

    /// Excludes `grid` from the solutions of later searches: some open cell differs from it.
    /// `false` when nothing is left.
    fn exclude(&mut self, model: &CpModel, grid: &[Value]) -> bool {
        let clause: Vec<_> = (0..model.cells())
            .filter(|&c| model.givens[c] == 0)
            .map(|c| self.cells[c].lit(&mut self.solver, IntLitMeaning::NotEq(grid[c] as i64)))
            .collect();
        self.solver.add_clause(clause).is_ok()
    }

    /// Later searches must score at least `score`. `false` when nothing is left.
    fn require_at_least(&mut self, score: i64) -> bool {
        let objective = self.objective.expect("lowered with its objective");
        let at_least = objective.lit(&mut self.solver, IntLitMeaning::GreaterEq(score));
        self.solver.add_clause([at_least]).is_ok()
    }
}

/// What huub counted between two readings of its statistics, as [`Effort`] counters:
/// `decisions` are the search directives (those huub's brancher made and those it left to
/// CaDiCaL: each is one decision of the search), `conflicts` huub's conflict count (every
/// backtrack CaDiCaL signals to huub's propagation engine: after each conflict, and at each
/// restart), `propagations` the calls of huub's CP propagators (not CaDiCaL's clause
/// propagations), `restarts` the restarts CaDiCaL signalled.
pub fn search_effort(before: &SolverStatistics, after: &SolverStatistics) -> Effort {
    let directives = |s: &SolverStatistics| s.sat_search_directives + s.user_search_directives;
    Effort {
        decisions: Some(directives(after).saturating_sub(directives(before))),
        conflicts: Some(after.conflicts.saturating_sub(before.conflicts)),
        propagations: Some(
            after
                .cp_propagator_calls
                .saturating_sub(before.cp_propagator_calls),
        ),
        restarts: Some(u64::from(after.restarts.saturating_sub(before.restarts))),
        ..Effort::default()
    }
}

/// The counters of a task that made no search (answered while the solver was built, or from
/// the root domains): all 0.
pub fn no_search() -> Effort {
    search_effort(&SolverStatistics::default(), &SolverStatistics::default())
}

/// One solution, or `None` when there is none. `pulse` beats once the solver is built and while
/// it searches (a worker's signs of life; [`Pulse::none`] elsewhere), as in every driver; what
/// the searches did is added to `effort` (see the module documentation), as in every driver.
pub fn solve(
    model: &CpModel,
    options: &CpOptions,
    halt: &Halt,
    pulse: &Pulse,
    effort: &mut Effort,
) -> Result<Option<Vec<Value>>, Stop> {
    count(model, options, 1, halt, pulse, effort).map(|found| found.solutions.into_iter().next())
}

/// What a count found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Found {
    /// Solutions found, at most the limit (complete when below it and not `stopped`).
    pub count: u64,
    /// The deadline stopped the count after `count` solutions (at least one): there are at least
    /// that many.
    pub stopped: bool,
    /// The first (up to) two solutions, in the order found.
    pub solutions: Vec<Vec<Value>>,
}

/// Counts solutions up to `limit` (≥ 1), keeping the first two. A deadline before the first
/// solution is [`Stop::Deadline`]; after it, a [`Found`] that says it was stopped.
pub fn count(
    model: &CpModel,
    options: &CpOptions,
    limit: u64,
    halt: &Halt,
    pulse: &Pulse,
    effort: &mut Effort,
) -> Result<Found, Stop> {
    effort.add(&no_search());
    let mut lowered = match lower(model, options, WithObjective::No)? {
        Lowering::Infeasible => {
            return Ok(Found {
                count: 0,
                stopped: false,
                solutions: vec![],
            })
        }
        Lowering::Ready(l) => l,
    };
    pulse.beat();
    let mut count = 0;
    let mut solutions: Vec<Vec<Value>> = Vec::new();
    let mut stopped = false;
    while count < limit {
        match lowered.search(halt, pulse, effort) {
            Ok(Some((grid, _))) => {
                count += 1;
                let more = lowered.exclude(model, &grid);
                if solutions.len() < 2 {
                    solutions.push(grid);
                }
                if !more {
                    break;
                }
            }
            Ok(None) => break,
            Err(Stop::Deadline) if count > 0 => {
                stopped = true;
                break;
            }
            Err(stop) => return Err(stop),
        }
    }
    Ok(Found {
        count,
        stopped,
        solutions,
    })
}

/// The best score, as found by [`maximize`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Best {
    /// No solution at all.
    NoSolution,
    /// `grid` reaches `score`; `proved` when no grid scores more.
    Found {
        score: i64,
        grid: Vec<Value>,
        proved: bool,
    },
}

/// Maximises the model's objective by branch and bound: each next search must beat the best
/// score so far, until none can, which proves the optimum; at the deadline, the best grid so
/// far. With [`ObjectiveBound::ReducedCosts`], in two stages as the `sat` backend's core-guided
/// search: the bound of the coordinate ascent's duals (microseconds to find, and on most
/// weighted puzzles enough to end within [`ASCENT_BUDGET`]); then, if the search has not ended,
/// a solver built again with the linear programme's duals (milliseconds on 9×9, the relaxation's
/// bound), which must beat the best score of the first.
pub fn maximize(
    model: &CpModel,
    options: &CpOptions,
    halt: &Halt,
    pulse: &Pulse,
    effort: &mut Effort,
) -> Result<Best, Stop> {
    if model.objective.is_none() {
        return Err(Stop::Unsupported("the puzzle has no weights".into()));
    }
    effort.add(&no_search());
    let start = Instant::now();
    let lp = Duals::Lp {
        deadline: halt.deadline,
    };
    let stages: &[(Duals, Option<Duration>)] = match options.objective_bound {
        ObjectiveBound::ReducedCosts => &[(Duals::Ascent, Some(ASCENT_BUDGET)), (lp, None)],
        ObjectiveBound::None => &[(lp, None)],
    };
    let mut best: Option<(i64, Vec<Value>)> = None;
    for &(duals, budget) in stages {
        let mut lowered = match lower(model, options, WithObjective::Yes(duals))? {
            Lowering::Infeasible => break,
            Lowering::Ready(l) => l,
        };
        pulse.beat();
        if let Some((score, _)) = &best {
            if !lowered.require_at_least(score + 1) {
                break;
            }
        }
        let stage = Halt {
            deadline: match (budget, halt.deadline) {
                (Some(b), Some(d)) => Some(d.min(start + b)),
                (Some(b), None) => Some(start + b),
                (None, d) => d,
            },
            cancel: halt.cancel.clone(),
        };
        match improve(&mut lowered, &mut best, &stage, pulse, effort) {
            Ok(()) => break,
            // Only a stage's own budget moves on to the next stage: the run's deadline ends it,
            // unproved.
            Err(Stop::Deadline) if budget.is_some() && !halt.reached() => continue,
            Err(Stop::Deadline) => {
                return match best {
                    None => Err(Stop::Deadline),
                    Some((score, grid)) => Ok(Best::Found {
                        score,
                        grid,
                        proved: false,
                    }),
                }
            }
            Err(stop) => return Err(stop),
        }
    }
    Ok(match best {
        None => Best::NoSolution,
        Some((score, grid)) => Best::Found {
            score,
            grid,
            proved: true,
        },
    })
}

/// Searches `lowered` for better and better solutions, each kept in `best`, until none is left
/// (`Ok`) or the search stops.
fn improve(
    lowered: &mut Lowered,
    best: &mut Option<(i64, Vec<Value>)>,
    halt: &Halt,
    pulse: &Pulse,
    effort: &mut Effort,
) -> Result<(), Stop> {
    while let Some((grid, score)) = lowered.search(halt, pulse, effort)? {
        let score = score.expect("lowered with its objective");
        *best = Some((score, grid));
        if !lowered.require_at_least(score + 1) {
            break;
        }
    }
    Ok(())
}

/// Each cell's digits once the solver as built for `model` has propagated at the root, before
/// its first decision: [`lower`] (the lab's root domains, huub's presolve of the model, the
/// clauses added to the built solver), then one `satisfy` whose terminate callback stops it at
/// its first look: by then CaDiCaL has run unit propagation and huub's propagators (under
/// `options`' all-different level) to their joint fixpoint at decision level 0, and made no
/// decision. Per cell, bit `d − 1` for digit `d` (sides up to 128); `Ok(None)` when the
/// propagation proves there is no solution. An error if the solver decided or learned anything
/// all the same (then what it holds is no longer the root fixpoint).
pub fn root_propagation(model: &CpModel, options: &CpOptions) -> Result<Option<Vec<u128>>, Stop> {
    use huub::actions::IntInspectionActions as _;
    if model.n > 128 {
        return Err(Stop::Unsupported(format!(
            "root domains are read for sides up to 128, this grid has side {}",
            model.n
        )));
    }
    let mut lowered = match lower(model, options, WithObjective::No)? {
        Lowering::Infeasible => return Ok(None),
        Lowering::Ready(l) => l,
    };
    let solver = &mut lowered.solver;
    solver.set_terminate_callback(Some(|| TerminationSignal::Terminate));
    let mut found = None;
    let cells = &lowered.cells;
    let status = solver
        .solve()
        .on_solution(|sol| {
            found = Some(
                cells
                    .iter()
                    .map(|v| Valuation::val(v, sol))
                    .collect::<Vec<_>>(),
            )
        })
        .satisfy();
    let stats = solver.solver_statistics();
    let decisions = stats.sat_search_directives + stats.user_search_directives;
    if decisions > 0 || stats.peak_depth > 0 || stats.conflicts > 0 {
        return Err(Stop::Unsupported(format!(
            "huub searched past the root ({decisions} decisions, depth {}, {} conflicts)",
            stats.peak_depth, stats.conflicts
        )));
    }
    let bit = |d: i64| 1u128 << (d - 1);
    Ok(match (status, found) {
        (Status::Unsatisfiable, _) => None,
        (_, Some(grid)) => Some(grid.into_iter().map(bit).collect()),
        _ => Some(
            cells
                .iter()
                .map(|v| {
                    (1..=model.n as i64)
                        .filter(|&d| v.in_domain(solver, d))
                        .fold(0, |m, d| m | bit(d))
                })
                .collect(),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::settled;

    /// A fixed cell leaves its all-different only once its digit is gone from the other cells
    /// (a given of a grid past 128 keeps its place: its digit is still in its peers' domains).
    #[test]
    fn a_fixed_cell_is_settled_only_when_no_other_cell_may_hold_its_digit() {
        let group = [0, 1, 2];
        let open = vec![vec![3], vec![1, 2, 3], vec![1, 2]];
        assert!(!settled(0, &group, &open));
        let pruned = vec![vec![3], vec![1, 2], vec![1, 2]];
        assert!(settled(0, &group, &pruned));
        assert!(!settled(1, &group, &pruned), "an open cell stays");
    }
}
