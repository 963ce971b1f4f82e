//! The driver of `optimize` on a [`Session`]: the grid of greatest score (Σ weight × digit),
//! proved optimal.
//!
//! * [`SatOptimizer::Core`] (the default): the loss rewritten by reduced costs from house duals
//!   ([`crate::model::dual`]), then core-guided MaxSAT ([`super::maxsat`]) on the same solver; see
//!   [`optimize_core`].
//! * [`SatOptimizer::Linear`]: the score as a pseudo-Boolean bound ([`super::objective`]); after
//!   each solution the bound is tightened to "strictly better" on the same solver, and the final
//!   unsatisfiable call proves optimality ([`optimize_linear`]).
//! * With [`SatOptions::proof`], whatever the search, the optimum is proved by refuting the
//!   encoding plus "loss below the optimum's" in a fresh run ([`prove`]).

use super::maxsat::{self, MaxSatResult, Oracle};
use super::objective::Objective;
use super::options::{SatOptimizer, SatOptions};
use super::session::{prove, Improved, Progress, Session};
use super::trace::{self, Level};
use super::{failed, Lit, Var};
use crate::answer::{BackendError, Optimum};
use crate::cancel::Cancel;
use crate::model::dual;
use crate::model::{Grid, Puzzle};

/// Maximises the score of `puzzle` (it needs weights) on `engine` with the algorithm of
/// [`SatOptions::optimizer`], reporting each better grid to `improved`: the optimum, proved (with
/// [`SatOptions::proof`], also by a DRAT proof), or no solution. A set `cancel` stops it between
/// calls, as a time-out; `deadline` also bounds the linear programme of [`optimize_core`].
pub(super) fn optimize<E: Oracle>(
    puzzle: &Puzzle,
    opts: &SatOptions,
    engine: E,
    improved: Improved<'_>,
    cancel: &Cancel,
    deadline: Option<std::time::Instant>,
) -> Result<Optimum, BackendError> {
    if puzzle.weights().is_none() {
        return Err(BackendError::Unsupported("optimize needs weights".into()));
    }
    let mut s = Session::new(puzzle, opts, engine);
    // The formula before any bound: what a proof of optimality refutes, with "better than the
    // optimum" added.
    let base = s.record.clone();
    let Some(first) = s.next()? else {
        s.finish_proof(opts)?;
        return Ok(Optimum::NoSolution);
    };
    let mut obj =
        Objective::new(puzzle, &s.decoder).map_err(|e| BackendError::Unsupported(e.to_string()))?;
    let best = match opts.optimizer {
        SatOptimizer::Linear => optimize_linear(puzzle, &mut s, &mut obj, first, improved, cancel)?,
        SatOptimizer::Core => optimize_core(puzzle, &mut s, first, improved, cancel, deadline)?,
    };
    if let (Some(path), Some(mut cnf)) = (&opts.proof, base) {
        // No grid loses less than the optimum: the formula with "loss < optimum's" is refuted.
        if obj.require_loss_at_most(obj.loss(puzzle, &best) - 1, &mut cnf) {
            prove(&cnf, path, opts.check_proof)?;
        } else {
            // Loss 0 is optimal by the bound alone: nothing to refute.
            let _ = std::fs::remove_file(path);
        }
    }
    let score = puzzle.weights().map_or(0, |w| w.score(&best));
    Ok(Optimum::Optimal { score, grid: best })
}

/// Solution-improving search: demand a strictly smaller loss after each solution, until
/// unsatisfiable. Each bound is assumed for its calls only (see [`Objective::bound_loss`]).
fn optimize_linear<E: Oracle>(
    puzzle: &Puzzle,
    s: &mut Session<E>,
    obj: &mut Objective,
    mut best: Grid,
    improved: Improved<'_>,
    cancel: &Cancel,
) -> Result<Grid, BackendError> {
    let score_of = |g: &Grid| puzzle.weights().map_or(0, |w| w.score(g));
    loop {
        improved(Progress::Improved {
            score: score_of(&best),
            grid: &best,
            bound: obj.score_bound(),
        });
        if cancel.is_set() {
            return Err(BackendError::TimedOut);
        }
        let loss = obj.loss(puzzle, &best);
        let Some(bound) = obj.bound_loss(loss - 1, s) else {
            // Loss 0 is the bound itself: optimal without a further call.
            return Ok(best);
        };
        match s.next_assuming(&bound)? {
            Some(g) => best = g,
            None => return Ok(best),
        }
    }
}

/// Core-guided search ([`maxsat::minimize`]). Each free cell `c` loses `θ(c, d) = best(c) − w(c)·d`
/// when it holds `d`, `best(c)` its best candidate's `w(c)·d'` (never negative, whatever the sign
/// of the weight); the score is the sum of the best values (and the givens' scores) minus the
/// loss. The loss is rewritten by reduced costs ([`dual::reduce`]): it is `offset + Σ rc(c, d)`
/// in every solution, `offset` a bound from the house duals, and the soft literal `¬x(c, d)`
/// weighs `rc(c, d)`, so the cores only have to prove what lies above the offset. Two stages on
/// the same solver:
///
/// 1. Duals from coordinate ascent (microseconds). On most weighted puzzles the offset is then
///    the optimum itself or close to it, and the search ends within [`dual::ASCENT_BUDGET`].
/// 2. Otherwise (the ascent stalled far below the optimum, as on the empty pyramid) the search
///    starts over on the duals of the linear programme (milliseconds to tens of milliseconds on
///    9×9, seconds on 25×25; microlp stops at the run's deadline), whose offset is the
///    relaxation's bound. The clauses the first stage left (totalizers, hardened literals,
///    refuted literals) keep every optimal solution, so the second stage proves the same
///    optimum.
fn optimize_core<E: Oracle>(
    puzzle: &Puzzle,
    s: &mut Session<E>,
    first: Grid,
    improved: Improved<'_>,
    cancel: &Cancel,
    deadline: Option<std::time::Instant>,
) -> Result<Grid, BackendError> {
    let weights = puzzle.weights().map(|w| w.as_slice()).unwrap_or(&[]);
    let score_of = |g: &Grid| puzzle.weights().map_or(0, |w| w.score(g));
    let decoder = s.decoder.clone();
    let best_of = |c: usize| {
        let w = weights[c];
        decoder
            .candidates(c)
            .iter()
            .map(|&(_, d)| w * d as i64)
            .max()
            .unwrap_or(0)
    };
    let theta = |c: usize, d: u16| (best_of(c) - weights[c] * d as i64) as u64;
    let mut free = vec![false; weights.len()];
    for &c in decoder.free_cells() {
        free[c as usize] = true;
    }
    let bound: i64 = (0..weights.len())
        .map(|c| match free[c] {
            true => best_of(c),
            false => weights[c] * decoder.fixed()[c] as i64,
        })
        .sum();
    improved(Progress::Improved {
        score: score_of(&first),
        grid: &first,
        bound,
    });
    let start = std::time::Instant::now();
    for (duals, budget) in [
        (dual::Duals::Ascent, Some(dual::ASCENT_BUDGET)),
        (dual::Duals::Lp { deadline }, None),
    ] {
        let t = std::time::Instant::now();
        let reduced = dual::reduce(puzzle.shape().houses(), &decoder, theta, duals);
        let offset = reduced.offset as i64;
        trace::emit(Level::Summary, || {
            let (t, kind) = (t.elapsed(), duals.name());
            format!("maxsat: score bound {bound}, {kind} offset {offset} ({t:.1?})")
        });
        let soft: Vec<(Lit, u64)> = reduced
            .costs
            .iter()
            .map(|&(v, rc)| (!v.pos_lit(), rc))
            .collect();
        let decode = |values: &[bool]| decoder.decode(|v: Var| values[v.idx()]);
        // A solution's loss above the offset; below it would be a wrong offset.
        let below = std::cell::Cell::new(false);
        let mut cost = |values: &[bool]| {
            let residual = bound - offset - score_of(&decode(values));
            below.set(below.get() || residual < 0);
            residual.max(0) as u64
        };
        let mut progress = |values: &[bool], _cost: u64, lb: u64| {
            let g = decode(values);
            improved(Progress::Improved {
                score: score_of(&g),
                grid: &g,
                bound: bound - offset - lb as i64,
            });
        };
        let out_of_budget = || budget.is_some_and(|b| start.elapsed() >= b);
        let stop = || cancel.is_set() || out_of_budget();
        let result = maxsat::minimize(s, &soft, &mut cost, &mut progress, &stop);
        if below.get() {
            return Err(failed(
                "a solution lost less than the reduced-cost offset (internal error)",
            ));
        }
        match result {
            Err(BackendError::TimedOut) if out_of_budget() && !cancel.is_set() => {
                continue
            }
            Err(e) => return Err(e),
            Ok(MaxSatResult::Done {
                values,
                cost,
                lower_bound,
            }) if cost == lower_bound => return Ok(decode(&values)),
            Ok(MaxSatResult::Done {
                cost, lower_bound, ..
            }) => {
                return Err(failed(format!(
                    "core-guided search ended with a solution of loss {cost} and a lower bound of {lower_bound}"
                )))
            }
            // A solution is in hand, so the formula is satisfiable.
            Ok(MaxSatResult::Unsatisfiable) => {
                return Err(failed(
                    "core-guided search found no solution where one exists (solver disagreement)",
                ))
            }
        }
    }
    Err(failed("core-guided search: no stage ended"))
}
