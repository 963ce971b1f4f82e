//! The CP model solved in process by huub, a lazy-clause-generation solver (CP propagators on top
//! of the CaDiCaL SAT engine, which learns clauses from their explanations).
//!
//! [`lower`] turns a [`CpModel`] into a huub solver; [`solve`], [`count`] and [`maximize`] are
//! the three drivers the `cp` backend calls. Counting enumerates solutions, each excluded by a
//! no-good clause once found; maximising is huub's branch and bound, which ends with a proof of
//! optimality. A deadline ends a search through huub's terminate callback, and is reported as
//! [`Stop::Deadline`], never as an answer.

use std::cell::Cell;
use std::rc::Rc;
use std::time::Instant;

use huub::model::expressions::BoolFormula;
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

/// Builds the huub solver for `model`, with the objective when `with_objective`.
fn lower(model: &CpModel, options: &CpOptions, with_objective: bool) -> Result<Lowering, Stop> {
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
        post!(m
            .linear(terms.sum::<huub::model::expressions::IntLinearExp>())
            .eq(sum.sum)
            .post());
    }
    let objective = match (&model.objective, with_objective) {
        (Some(weights), true) => {
            let (lo, hi) = objective_range(model, weights)
                .ok_or_else(|| Stop::Unsupported("the objective overflows 64 bits".into()))?;
            let total = m.new_int_decision(lo..=hi);
            let expr: huub::model::expressions::IntLinearExp = weights
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
    let (var_sel, order) = match options.branching {
        Branching::Activity => (None, cells.clone()),
        Branching::FirstFail => (Some(DecisionSelection::FirstFail), cells.clone()),
        Branching::InputOrder => (Some(DecisionSelection::InputOrder), cells.clone()),
    };
    if let Some(var_sel) = var_sel {
        IntBrancher::new_in(&mut solver, order, var_sel, DomainSelection::IndomainMin);
    }
    Ok(Lowering::Ready(Box::new(Lowered {
        solver,
        cells,
        objective,
    })))
}

/// Stops the search at `deadline`, or once `done` says so.
fn set_stop(solver: &mut Solver, deadline: Option<Instant>, done: Rc<Cell<bool>>) {
    solver.set_terminate_callback(Some(move || {
        if done.get() || deadline.is_some_and(|d| Instant::now() >= d) {
            huub::solver::TerminationSignal::Terminate
        } else {
            huub::solver::TerminationSignal::Continue
        }
    }));
}

fn grid_of(cells: &[View<i64>], sol: huub::solver::Solution<'_>) -> Vec<Value> {
    cells.iter().map(|v| v.val(sol) as Value).collect()
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
///
/// When the deadline passes first, `Err(Stop::Deadline)`; the solutions found until then are
/// in `partial` for callers that report "at least".
pub fn count(
    model: &CpModel,
    options: &CpOptions,
    limit: u64,
    deadline: Option<Instant>,
) -> Result<Found, Stop> {
    count_with_partial(model, options, limit, deadline).map_err(|(stop, _)| stop)
}

/// [`count`], returning on a deadline also how many solutions had been found.
pub fn count_with_partial(
    model: &CpModel,
    options: &CpOptions,
    limit: u64,
    deadline: Option<Instant>,
) -> Result<Found, (Stop, u64)> {
    let lowered = match lower(model, options, false).map_err(|s| (s, 0))? {
        Lowering::Infeasible => {
            return Ok(Found {
                count: 0,
                complete: true,
                solutions: vec![],
            })
        }
        Lowering::Ready(l) => l,
    };
    let Lowered {
        mut solver, cells, ..
    } = *lowered;
    let done = Rc::new(Cell::new(false));
    set_stop(&mut solver, deadline, done.clone());
    let mut found: u64 = 0;
    let mut solutions = Vec::new();
    let on_solution = |sol: huub::solver::Solution<'_>| {
        if found < limit {
            found += 1;
            if solutions.len() < 2 {
                solutions.push(grid_of(&cells, sol));
            }
            if found >= limit {
                done.set(true);
            }
        }
    };
    let status = solver
        .solve()
        .all_solutions(cells.iter().copied())
        .on_solution(on_solution)
        .satisfy();
    match status {
        Status::Complete | Status::Unsatisfiable => Ok(Found {
            count: found,
            complete: true,
            solutions,
        }),
        // Stopped by the callback: either the limit was reached, or the deadline passed.
        Status::Satisfied | Status::Unknown if found >= limit => Ok(Found {
            count: found,
            complete: false,
            solutions,
        }),
        _ => Err((Stop::Deadline, found)),
    }
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

/// Maximises the model's objective by branch and bound; at the deadline, the best grid so far.
pub fn maximize(
    model: &CpModel,
    options: &CpOptions,
    deadline: Option<Instant>,
) -> Result<Best, Stop> {
    if model.objective.is_none() {
        return Err(Stop::Unsupported("the puzzle has no weights".into()));
    }
    let lowered = match lower(model, options, true)? {
        Lowering::Infeasible => return Ok(Best::NoSolution),
        Lowering::Ready(l) => l,
    };
    let Lowered {
        mut solver,
        cells,
        objective,
    } = *lowered;
    let objective = objective.expect("lowered with its objective");
    set_stop(&mut solver, deadline, Rc::new(Cell::new(false)));
    let mut best: Option<(i64, Vec<Value>)> = None;
    let (status, score) = solver
        .solve()
        .on_solution(|sol| best = Some((objective.val(sol), grid_of(&cells, sol))))
        .maximize(objective);
    match (status, best) {
        (Status::Unsatisfiable, _) => Ok(Best::NoSolution),
        (Status::Complete, Some((s, grid))) => Ok(Best::Found {
            score: score.unwrap_or(s),
            grid,
            proved: true,
        }),
        (Status::Satisfied, Some((s, grid))) => Ok(Best::Found {
            score: s,
            grid,
            proved: false,
        }),
        _ => Err(Stop::Deadline),
    }
}
