//! The CP model solved in process by huub, a lazy-clause-generation solver (CP propagators on top
//! of the CaDiCaL SAT engine, which learns clauses from their explanations).
//!
//! [`lower`] turns a [`CpModel`] into a huub solver; [`solve`], [`count`] and [`maximize`] are
//! the three drivers the `cp` backend calls. Every search is one `satisfy` call on a new solver:
//! counting excludes each solution found (a clause "some open cell differs") from the next
//! solver's model, and maximising asks each next solver for a strictly better score until none
//! is left, which proves the optimum. huub 100.1 can crash when a solver that has answered is
//! asked again (see [`count_with_partial`]), so no solver is. A deadline ends a search through
//! huub's terminate callback, and is reported as [`Stop::Deadline`], never as an answer.

use std::time::Instant;

use huub::model::expressions::{BoolFormula, IntLinearExp};
use huub::model::Model;
use huub::solver::branchers::{DecisionSelection, DomainSelection, IntBrancher};
use huub::solver::{Solver, Status, Valuation, View};

use super::model::{AllDiffLevel, Branching, CpModel, CpOptions};
use crate::model::Value;

/// Why a driver returned without a complete answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// The deadline passed.
    Deadline,
    /// The model cannot be given to huub (an objective out of range…).
    Unsupported(String),
}

/// A model lowered into a huub solver: the solver, and one integer view per cell.
struct Lowered {
    solver: Solver,
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
/// cell's domain (direct and order encodings, created eagerly up to 255 digits), and the clauses
/// of [`CpOptions::house_cover`].
pub fn estimate_bytes(model: &CpModel, options: &CpOptions) -> u64 {
    let n = model.n as u64;
    let open = model.givens.iter().filter(|&&g| g == 0).count() as u64;
    let literals = open * 2 * n;
    let cover = if options.house_cover {
        let full = model.all_different.iter().filter(|g| g.full).count() as u64;
        full * n * n
    } else {
        0
    };
    (8 << 20) + literals * BYTES_PER_LITERAL + cover * BYTES_PER_COVER_LITERAL
}

/// Per-item costs of [`estimate_bytes`].
const BYTES_PER_LITERAL: u64 = 200;
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

/// What a search adds to the model: solutions to exclude (counting), and a least objective
/// value (branch and bound).
#[derive(Debug, Clone, Copy, Default)]
struct Extra<'a> {
    exclude: &'a [Vec<Value>],
    at_least: Option<i64>,
}

/// Builds the huub solver for `model` with what `extra` adds; the objective when the model has
/// one and `extra.at_least` is set.
fn lower(model: &CpModel, options: &CpOptions, extra: Extra<'_>) -> Result<Lowering, Stop> {
    let n = model.n as i64;
    let mut m = Model::default();
    let cells: Vec<_> = model
        .givens
        .iter()
        .map(|&g| {
            if g > 0 {
                m.new_int_decision(g as i64..=g as i64)
            } else {
                m.new_int_decision(1..=n)
            }
        })
        .collect();
    // A conflict while posting is a proof, by propagation alone, that there is no solution.
    macro_rules! post {
        ($e:expr) => {
            if $e.is_err() {
                return Ok(Lowering::Infeasible);
            }
        };
    }
    for group in &model.all_different {
        let vars: Vec<_> = group.cells.iter().map(|&c| cells[c as usize]).collect();
        let (value, bounds, domain) = match options.alldiff {
            AllDiffLevel::Value => (true, false, false),
            AllDiffLevel::Bounds => (false, true, false),
            AllDiffLevel::Domain => (false, false, true),
        };
        post!(m
            .unique(vars)
            .value_propagation(value)
            .bounds_propagation(bounds)
            .domain_propagation(domain)
            .post());
        if options.house_cover && group.full {
            for d in 1..=n {
                let somewhere = BoolFormula::Or(
                    group
                        .cells
                        .iter()
                        .map(|&c| BoolFormula::Atom(cells[c as usize].eq(d)))
                        .collect(),
                );
                post!(m.proposition(somewhere).post());
            }
        }
    }
    for sum in &model.sums {
        let terms = sum.cells.iter().map(|&c| cells[c as usize]);
        post!(m.linear(terms.sum::<IntLinearExp>()).eq(sum.sum).post());
    }
    // Each excluded solution: some open cell differs from it.
    for grid in extra.exclude {
        let differs = BoolFormula::Or(
            model
                .givens
                .iter()
                .zip(grid)
                .enumerate()
                .filter(|(_, (&g, _))| g == 0)
                .map(|(c, (_, &v))| BoolFormula::Atom(cells[c].ne(v as i64)))
                .collect(),
        );
        post!(m.proposition(differs).post());
    }
    let objective = match (&model.objective, extra.at_least) {
        (Some(weights), Some(at_least)) => {
            let (lo, hi) = objective_range(model, weights)
                .ok_or_else(|| Stop::Unsupported("the objective overflows 64 bits".into()))?;
            if at_least > hi {
                return Ok(Lowering::Infeasible);
            }
            let total = m.new_int_decision(lo.max(at_least)..=hi);
            let expr: IntLinearExp = weights
                .iter()
                .zip(&cells)
                .filter(|(&w, _)| w != 0)
                .map(|(&w, &v)| v * w)
                .sum();
            post!(m.linear(expr).eq(total).post());
            Some(total)
        }
        _ => None,
    };
    let Ok((mut solver, map)) = m.lower().to_solver::<huub::solver::Cadical>() else {
        return Ok(Lowering::Infeasible);
    };
    let cells: Vec<View<i64>> = cells.iter().map(|&v| map.get(&mut solver, v)).collect();
    let objective = objective.map(|v| map.get(&mut solver, v));
    let var_sel = match options.branching {
        Branching::Activity => None,
        Branching::FirstFail => Some(DecisionSelection::FirstFail),
        Branching::InputOrder => Some(DecisionSelection::InputOrder),
    };
    if let Some(var_sel) = var_sel {
        IntBrancher::new_in(
            &mut solver,
            cells.clone(),
            var_sel,
            DomainSelection::IndomainMin,
        );
    }
    Ok(Lowering::Ready(Box::new(Lowered {
        solver,
        cells,
        objective,
    })))
}

/// One solution of the model with `extra` (and its objective value when it has one), or `None`
/// when there is none.
fn solve_once(
    model: &CpModel,
    options: &CpOptions,
    extra: Extra<'_>,
    deadline: Option<Instant>,
) -> Result<Option<(Vec<Value>, Option<i64>)>, Stop> {
    let Lowered {
        mut solver,
        cells,
        objective,
    } = match lower(model, options, extra)? {
        Lowering::Infeasible => return Ok(None),
        Lowering::Ready(l) => *l,
    };
    solver.set_terminate_callback(Some(move || {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            huub::solver::TerminationSignal::Terminate
        } else {
            huub::solver::TerminationSignal::Continue
        }
    }));
    let mut found = None;
    let status = solver
        .solve()
        .on_solution(|sol| {
            found = Some((
                cells.iter().map(|v| v.val(sol) as Value).collect(),
                objective.map(|o| o.val(sol)),
            ))
        })
        .satisfy();
    match status {
        Status::Satisfied | Status::Complete if found.is_some() => Ok(found),
        Status::Unsatisfiable => Ok(None),
        _ => Err(Stop::Deadline),
    }
}

/// One solution, or `None` when there is none.
pub fn solve(
    model: &CpModel,
    options: &CpOptions,
    deadline: Option<Instant>,
) -> Result<Option<Vec<Value>>, Stop> {
    count(model, options, 1, deadline).map(|found| found.solutions.into_iter().next())
}

/// What a count found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Solutions found, at most the limit; the first two are kept in `solutions`.
    pub count: u64,
    /// The search proved there are no others.
    pub complete: bool,
    /// The first (up to) two solutions, in the order found.
    pub solutions: Vec<Vec<Value>>,
}

/// Counts solutions up to `limit` (≥ 1), keeping the first two.
pub fn count(
    model: &CpModel,
    options: &CpOptions,
    limit: u64,
    deadline: Option<Instant>,
) -> Result<Found, Stop> {
    count_with_partial(model, options, limit, deadline).map_err(|(stop, _)| stop)
}

/// [`count`], returning on a deadline also how many solutions had been found.
///
/// Each solution is searched for by a new solver whose model excludes the ones found before.
/// Adding the exclusion to the solver that found the previous solution (huub's own
/// enumeration) makes huub 100.1 crash inside CaDiCaL's conflict analysis on some puzzles
/// under value all-different (docs/backends.md); a new solver per solution costs one lowering,
/// about a millisecond on 9×9.
pub fn count_with_partial(
    model: &CpModel,
    options: &CpOptions,
    limit: u64,
    deadline: Option<Instant>,
) -> Result<Found, (Stop, u64)> {
    let mut solutions: Vec<Vec<Value>> = Vec::new();
    while (solutions.len() as u64) < limit {
        let extra = Extra {
            exclude: &solutions,
            at_least: None,
        };
        match solve_once(model, options, extra, deadline) {
            Ok(Some((grid, _))) => solutions.push(grid),
            Ok(None) => {
                let count = solutions.len() as u64;
                solutions.truncate(2);
                return Ok(Found {
                    count,
                    complete: true,
                    solutions,
                });
            }
            Err(stop) => return Err((stop, solutions.len() as u64)),
        }
    }
    solutions.truncate(2);
    Ok(Found {
        count: limit,
        complete: false,
        solutions,
    })
}

/// The best score, as found by [`maximize`].
#[derive(Debug, Clone, PartialEq, Eq)]
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

/// Maximises the model's objective by branch and bound: each solution found must be beaten by
/// the next (a new solver whose objective is at least one more), until none can; at the
/// deadline, the best grid so far.
pub fn maximize(
    model: &CpModel,
    options: &CpOptions,
    deadline: Option<Instant>,
) -> Result<Best, Stop> {
    let Some(weights) = &model.objective else {
        return Err(Stop::Unsupported("the puzzle has no weights".into()));
    };
    let (lo, _) = objective_range(model, weights)
        .ok_or_else(|| Stop::Unsupported("the objective overflows 64 bits".into()))?;
    let mut best: Option<(i64, Vec<Value>)> = None;
    loop {
        let at_least = best.as_ref().map_or(lo, |(s, _)| s + 1);
        let extra = Extra {
            exclude: &[],
            at_least: Some(at_least),
        };
        match solve_once(model, options, extra, deadline) {
            Ok(Some((grid, score))) => {
                let score = score.expect("lowered with its objective");
                best = Some((score, grid));
            }
            Ok(None) => {
                return Ok(match best {
                    None => Best::NoSolution,
                    Some((score, grid)) => Best::Found {
                        score,
                        grid,
                        proved: true,
                    },
                })
            }
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
}
