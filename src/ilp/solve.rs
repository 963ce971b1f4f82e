//! Solving the puzzle's 0-1 integer program ([`crate::ilp::model`]) through good_lp, with
//! microlp (pure Rust, the default) or HiGHS (cargo feature `highs`): the engine of the `ilp`
//! backend ([`crate::backends::ilp`]), which asks it the questions below through [`Mip`].
//!
//! - `solve`: a feasibility program (no objective).
//! - `optimize`: maximise the weighted score; a proved optimum is proved optimal, a time-out
//!   with a grid in hand is an incomplete optimum with the best upper bound known (the solver's,
//!   when it reports one, and a cheap bound of our own otherwise).
//! - `count` / `unique`: solve, then add the no-good cut `Σ x(cell, chosen digit) ≤ free − 1` over
//!   the free cells and solve again, until infeasible or the limit. Deliberately simple (one new
//!   solve per solution), for comparison with the search backends.
//!
//! Before the program is built, givens and every naked or hidden single are fixed
//! ([`Reduction::Singles`]), which removes most variables of a typical puzzle. Formulation choices
//! were measured with microlp on the empty 9×9 pyramid (dev profile, loaded machine): all rows as
//! equalities with the reduced objective 0.36 s; house rows as `≤ 1` 0.45 s; the raw objective
//! `weight × digit` 0.89 s; cell rows as `≤ 1` 0.82 s.
//!
//! The rows handed to microlp leave out the equality rows that the others imply ([`implied`]):
//! with them, its simplex stopped on a "Singular matrix" on some Killers, in every row order
//! tried on line 23 of `benches/data/killer1000.txt`. HiGHS gets every row, which its presolve
//! and cuts use (see [`attempts`]).
//! `count` and `unique` report the solutions found before a deadline.
//!
//! Solver trouble is typed: infeasible → no solution; anything else (microlp's "Singular matrix",
//! an unbounded status, a value that is not 0 or 1, a grid with a cell left empty, even a panic
//! inside the solver) → [`IlpError::Failed`] with the solver's words. The deadline of the [`Halt`] becomes
//! the solver's own time limit (both solvers check it inside their loops); microlp, which can
//! overrun its limit, also runs on a worker thread that is abandoned shortly after the deadline,
//! or at once when the run is cancelled (its cancel flag: neither solver can see the flag, and
//! HiGHS, run in the calling thread, stops only at its time limit).
//! An expiry is always [`IlpError::TimedOut`] or an incomplete optimum, never "no solution".
//!
//! Effort: each run records, to the [`Meter`] it is given, its simplex iterations (`lp_iterations`, every relaxation of its
//! branch and bound) and its branch-and-bound nodes (`bb_nodes`); a program with every variable
//! fixed before it is built records 0 of each. HiGHS runs record them whatever their outcome
//! (`src/ilp/highs.rs`, with the `highs` feature). A microlp run records them only
//! when it returns a solution: microlp returns no statistics with "infeasible" or an error, so
//! under microlp a count's last, infeasible run (the proof that no further solution exists) is
//! not in its figures.

use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use good_lp::solvers::{ResolutionError, Solution, SolutionStatus, SolverModel, WithTimeLimit};
use good_lp::{variable, Constraint, Expression, ProblemVariables, Variable};

#[cfg(feature = "highs")]
use super::highs;
use super::implied;
use super::model::{IlpModel, ModelBuildError, Reduction, Row, Sense};
use crate::cancel::Halt;
use crate::effort::{Effort, Meter};
use crate::model::{Grid, Puzzle, Weights};
use crate::named::UnknownName;
use crate::rng::GenRng;

/// The MIP solver behind the `ilp` backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IlpSolver {
    /// microlp, pure Rust: always compiled in.
    #[default]
    Microlp,
    /// HiGHS: only in builds with the cargo feature `highs`; asking for it elsewhere is
    /// [`IlpError::Unsupported`].
    Highs,
}

impl IlpSolver {
    /// `(solver, name)` for every solver, compiled in or not.
    pub const NAMES: &'static [(IlpSolver, &'static str)] =
        &[(IlpSolver::Microlp, "microlp"), (IlpSolver::Highs, "highs")];

    pub fn name(self) -> &'static str {
        match self {
            IlpSolver::Microlp => "microlp",
            IlpSolver::Highs => "highs",
        }
    }
    /// Whether this build contains the solver.
    pub fn available(self) -> bool {
        match self {
            IlpSolver::Microlp => true,
            IlpSolver::Highs => cfg!(feature = "highs"),
        }
    }
}

impl std::str::FromStr for IlpSolver {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        crate::named::by_name(IlpSolver::NAMES, "ILP solver", s)
    }
}

/// Why the engine gave no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IlpError {
    /// The puzzle or the solver is not one this build takes, with the reason.
    #[error("{0}")]
    Unsupported(String),
    /// The deadline passed, or the run was cancelled.
    #[error("timed out")]
    TimedOut,
    /// The solver failed (numerical trouble, a panic, a value that is not 0 or 1…), in its words.
    #[error("{0}")]
    Failed(String),
}

/// A MIP solver of this build, asked the questions of the module docs.
#[derive(Debug, Clone, Copy)]
pub struct Mip {
    solver: IlpSolver,
}

impl Mip {
    /// Errors when the solver is not compiled into this build.
    pub fn new(solver: IlpSolver) -> Result<Mip, IlpError> {
        if !solver.available() {
            return Err(not_compiled_in(solver));
        }
        Ok(Mip { solver })
    }
}

/// Time left before the deadline of `halt` (`None` when there is none).
fn remaining(halt: &Halt) -> Option<Duration> {
    halt.deadline
        .map(|d| d.saturating_duration_since(Instant::now()))
}

fn not_compiled_in(solver: IlpSolver) -> IlpError {
    IlpError::Unsupported(format!(
        "the {0} solver is not in this build (rebuild with `--features {0}`)",
        solver.name()
    ))
}

/// What one solver call found.
pub enum Outcome {
    Infeasible,
    /// The variable indices at 1; `proved` when the objective value is proved optimal;
    /// `bound` is the solver's upper bound on the program's objective, when it reports one.
    Found {
        ones: Vec<usize>,
        proved: bool,
        bound: Option<f64>,
    },
}

/// Tolerance for reading a binary variable as 0 or 1.
const INTEGRALITY: f64 = 1e-6;

/// How long past the deadline [`within_deadline`] waits for a solver that overruns its time limit.
const GRACE: Duration = Duration::from_millis(50);

/// How close to the deadline a solver failure counts as the time-out it probably is.
const DEADLINE_SLACK: Duration = Duration::from_millis(20);

impl Mip {
    /// Builds the program of `puzzle`; `Ok(None)` when the puzzle has no solution.
    pub fn model(&self, puzzle: &Puzzle, objective: bool) -> Result<Option<IlpModel>, IlpError> {
        match IlpModel::build(puzzle, objective, Reduction::Singles) {
            Ok(m) => Ok(Some(m)),
            Err(ModelBuildError::Infeasible(_)) => Ok(None),
            Err(e) => Err(IlpError::Unsupported(e.to_string())),
        }
    }

    /// Solves `model` plus the no-good `cuts` (each a list of variables of which not all may be
    /// 1), with the objective when `objective` is set. A run that microlp stops on a "singular
    /// matrix" (numerical trouble of its simplex) is tried again, each time another way (the
    /// [`Attempt`]s of [`attempts`]); only when every way fails is the failure reported, with
    /// what was tried.
    pub fn run(
        &self,
        model: &IlpModel,
        cuts: &[Vec<u32>],
        objective: bool,
        halt: &Halt,
        meter: &Meter,
    ) -> Result<Outcome, IlpError> {
        let implied = implied::implied_rows(model);
        let mut first = None;
        for attempt in attempts(self.solver) {
            match self.attempt(model, &implied, cuts, objective, halt, meter, attempt) {
                Err(IlpError::Failed(why)) if why.contains("Singular matrix") => {
                    first.get_or_insert(why);
                }
                result => return result,
            }
        }
        let tried = match self.solver == IlpSolver::Microlp && IlpSolver::Highs.available() {
            true => ", with every row kept, and with highs",
            false => " and with every row kept (HiGHS is not in this build)",
        };
        Err(IlpError::Failed(format!(
            "{} (also with the rows in {SINGULAR_RETRIES} other orders{tried})",
            first.unwrap_or_default()
        )))
    }

    /// One way of solving for [`Mip::run`].
    #[allow(clippy::too_many_arguments)]
    fn attempt(
        &self,
        model: &IlpModel,
        implied: &[bool],
        cuts: &[Vec<u32>],
        objective: bool,
        halt: &Halt,
        meter: &Meter,
        attempt: Attempt,
    ) -> Result<Outcome, IlpError> {
        let Attempt {
            solver,
            every_row,
            order,
        } = attempt;
        if halt.reached() {
            return Err(IlpError::TimedOut);
        }
        if model.vars().is_empty() {
            // Everything is fixed: the one solution is already known, and any cut excludes it.
            meter.record(&Effort {
                lp_iterations: Some(0),
                bb_nodes: Some(0),
                ..Effort::default()
            });
            return Ok(match cuts.is_empty() {
                true => Outcome::Found {
                    ones: vec![],
                    proved: true,
                    bound: None,
                },
                false => Outcome::Infeasible,
            });
        }
        let mut pv = ProblemVariables::new();
        let xs = pv.add_vector(variable().binary(), model.n_vars());
        let mut goal = Expression::with_capacity(if objective { xs.len() } else { 0 });
        if let (true, Some(o)) = (objective, model.objective()) {
            for (&x, &c) in xs.iter().zip(&o.coef) {
                if c != 0 {
                    goal.add_mul(c as f64, x);
                }
            }
        }
        let sum = |vars: &[u32]| -> Expression { vars.iter().map(|&v| xs[v as usize]).sum() };
        let row = |r: &Row| -> Constraint {
            let lhs: Expression = r
                .vars
                .iter()
                .zip(&r.coef)
                .map(|(&v, &c)| c as f64 * xs[v as usize])
                .sum();
            match r.sense {
                Sense::Eq => lhs.eq(r.rhs as f64),
                Sense::AtMost => lhs.leq(r.rhs as f64),
            }
        };
        let free = model.free_cells() as f64;
        let mut constraints: Vec<Constraint> = model
            .rows()
            .iter()
            .zip(implied)
            .filter(|(_, &implied)| every_row || !implied)
            .map(|(r, _)| row(r))
            .chain(cuts.iter().map(|c| sum(c).leq(free - 1.0)))
            .collect();
        match order {
            0 => {}
            1 => constraints.reverse(),
            seed => GenRng::seed(seed).shuffle(&mut constraints),
        }
        let problem = pv.maximise(goal);
        let seconds = remaining(halt).map(|d| d.as_secs_f64());
        let result = match solver {
            IlpSolver::Microlp => {
                let m = with_limit(problem.using(good_lp::microlp), seconds);
                let meter = meter.clone();
                within_deadline(halt, move || {
                    solve_with(m, constraints, &xs, |s| {
                        let stats = s.into_inner().stats();
                        meter.record(&Effort {
                            lp_iterations: Some(stats.lp_iterations),
                            bb_nodes: Some(stats.nodes_solved),
                            ..Effort::default()
                        });
                        stats.best_bound
                    })
                })?
            }
            #[cfg(feature = "highs")]
            IlpSolver::Highs => {
                let m = highs::MeteredHighs {
                    problem: problem.using(good_lp::highs),
                    vars: xs.clone(),
                    seconds,
                    meter: meter.clone(),
                };
                solve_with(m, constraints, &xs, |_| None)
            }
            #[cfg(not(feature = "highs"))]
            IlpSolver::Highs => return Err(not_compiled_in(solver)),
        };
        match result {
            Ok(Ok(found)) => found.map_err(|v| {
                IlpError::Failed(format!(
                    "{} returned {} = {} for a binary variable",
                    solver.name(),
                    model.name(v.0),
                    v.1
                ))
            }),
            Ok(Err(ResolutionError::Infeasible)) => Ok(Outcome::Infeasible),
            Ok(Err(e)) => Err(failure(solver, e.to_string(), halt)),
            Err(panic) => Err(failure(solver, format!("panicked: {panic}"), halt)),
        }
    }

    /// Solves and decodes the grid, mapping a decoding failure to [`IlpError::Failed`].
    pub fn grid(&self, model: &IlpModel, ones: Vec<usize>) -> Result<Grid, IlpError> {
        model.decode(ones).map_err(|e| {
            IlpError::Failed(format!(
                "{} returned an invalid assignment: {e}",
                self.solver.name()
            ))
        })
    }
}

/// A solver failure, or the time-out it really is when the deadline has (nearly) passed:
/// a solver stopped by its time limit before finding any solution reports an error.
fn failure(solver: IlpSolver, words: String, halt: &Halt) -> IlpError {
    if remaining(halt).is_some_and(|r| r <= DEADLINE_SLACK) {
        IlpError::TimedOut
    } else {
        IlpError::Failed(format!("{}: {words}", solver.name()))
    }
}

/// How many times a run that microlp stops on a singular matrix is tried again with its rows in
/// another order (see [`Mip::run`]).
const SINGULAR_RETRIES: u64 = 4;

/// One way to solve a program: the solver, whether the rows that the others imply are kept
/// ([`implied`]), and the order of the rows: as built (0), reversed (1), or shuffled from seed
/// `order`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Attempt {
    solver: IlpSolver,
    every_row: bool,
    order: u64,
}

/// The ways [`Mip::run`] tries, in order, while microlp stops on a singular matrix: the implied
/// rows left out, in the order built and then [`SINGULAR_RETRIES`] other orders; every row kept
/// (another basis path through the same solutions); then HiGHS, when it is in the build. For
/// HiGHS itself, one way, with every row: its presolve copes with the dependent rows, and
/// without them its branch and bound proved the empty 9×9 pyramid and the first Killers of
/// `benches/data/killer1000.txt` several times slower.
fn attempts(solver: IlpSolver) -> Vec<Attempt> {
    let way = |solver, every_row, order| Attempt {
        solver,
        every_row,
        order,
    };
    if solver == IlpSolver::Highs {
        return vec![way(solver, true, 0)];
    }
    let mut ways: Vec<Attempt> = (0..=SINGULAR_RETRIES)
        .map(|order| way(solver, false, order))
        .collect();
    ways.push(way(solver, true, 0));
    if IlpSolver::Highs.available() {
        ways.push(way(IlpSolver::Highs, true, 0));
    }
    ways
}

/// Runs `job` on a worker thread and waits for it until the deadline plus [`GRACE`], or until the
/// cancel flag is set. microlp checks its time limit only between simplex phases and can overrun
/// it by a good fraction of a second; on expiry the thread is abandoned (it stops by itself at its
/// own time limit soon after, and its answer is dropped) and the result is a time-out. microlp
/// cannot see the flag: a cancelled thread runs on, abandoned, to its time limit or its end.
/// Without a deadline or a flag, runs `job` here.
fn within_deadline<T: Send + 'static>(
    halt: &Halt,
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<T, IlpError> {
    if !halt.can_stop() {
        return Ok(job());
    }
    let (tx, rx) = mpsc::channel();
    thread::Builder::new()
        .name("ilp-solver".into())
        .spawn(move || {
            // The receiver is gone when the caller gave up: nothing to do then.
            let _ = tx.send(job());
        })
        .map_err(|e| IlpError::Failed(format!("cannot start the solver thread: {e}")))?;
    let late = Halt {
        deadline: halt.deadline.map(|d| d + GRACE),
        cancel: halt.cancel.clone(),
    };
    match late.recv(&rx) {
        Ok(v) => Ok(v),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(IlpError::TimedOut),
        Err(mpsc::RecvTimeoutError::Disconnected) => Err(IlpError::Failed(
            "the solver thread ended without an answer".into(),
        )),
    }
}

fn with_limit<M: WithTimeLimit>(m: M, seconds: Option<f64>) -> M {
    match seconds {
        Some(s) => m.with_time_limit(s),
        None => m,
    }
}

/// A variable index and the non-binary value a solver gave it.
struct NotBinary(usize, f64);

/// Adds the constraints, solves, and reads the variables at 1. The outer `Err` is a panic inside
/// the solver (its message), caught so a solver bug cannot take the caller down.
fn solve_with<M>(
    mut m: M,
    constraints: Vec<Constraint>,
    xs: &[Variable],
    bound: impl FnOnce(M::Solution) -> Option<f64>,
) -> Result<Result<Result<Outcome, NotBinary>, ResolutionError>, String>
where
    M: SolverModel<Error = ResolutionError>,
{
    panic::catch_unwind(AssertUnwindSafe(move || {
        for c in constraints {
            m.add_constraint(c);
        }
        let s = m.solve()?;
        let proved = matches!(s.status(), SolutionStatus::Optimal);
        let mut ones = Vec::new();
        for (i, &x) in xs.iter().enumerate() {
            let v = s.value(x);
            if (v - 1.0).abs() <= INTEGRALITY {
                ones.push(i);
            } else if v.abs() > INTEGRALITY {
                return Ok(Err(NotBinary(i, v)));
            }
        }
        Ok(Ok(Outcome::Found {
            ones,
            proved,
            bound: bound(s),
        }))
    }))
    .map_err(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "unknown panic".into())
    })
}

/// A cheap upper bound on the score, independent of any solver: in each row, the free cells'
/// weights sorted against the row's missing digits (rearrangement inequality), plus the fixed
/// cells' score; the same by columns; the smaller of the two.
pub fn simple_bound(model: &IlpModel, weights: &Weights) -> i64 {
    let n = model.size();
    let w = weights.as_slice();
    let fixed = model.fixed();
    let line = |cell_at: &dyn Fn(usize, usize) -> usize| -> i64 {
        (0..n)
            .map(|i| {
                let cells: Vec<usize> = (0..n).map(|j| cell_at(i, j)).collect();
                let mut present = vec![false; n + 1];
                let mut total = 0;
                let mut ws = Vec::new();
                for &c in &cells {
                    match fixed[c] {
                        0 => ws.push(w[c]),
                        v => {
                            present[v as usize] = true;
                            total += w[c] * v as i64;
                        }
                    }
                }
                ws.sort_unstable();
                let digits = (1..=n as i64).filter(|&d| !present[d as usize]);
                total + ws.iter().zip(digits).map(|(w, d)| w * d).sum::<i64>()
            })
            .sum()
    };
    line(&|i, j| i * n + j).min(line(&|i, j| j * n + i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn microlp_trouble_is_tried_other_ways_before_it_is_reported() {
        let ways = attempts(IlpSolver::Microlp);
        let orders: Vec<u64> = ways.iter().take(5).map(|a| a.order).collect();
        assert_eq!(orders, [0, 1, 2, 3, 4]);
        assert!(ways[..5]
            .iter()
            .all(|a| a.solver == IlpSolver::Microlp && !a.every_row));
        assert_eq!(
            ways[5],
            Attempt {
                solver: IlpSolver::Microlp,
                every_row: true,
                order: 0
            }
        );
        // HiGHS always gets every row.
        let highs = Attempt {
            solver: IlpSolver::Highs,
            every_row: true,
            order: 0,
        };
        assert_eq!(ways.get(6), IlpSolver::Highs.available().then_some(&highs));
        assert_eq!(attempts(IlpSolver::Highs), [highs]);
    }
}
