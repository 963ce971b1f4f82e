//! HiGHS behind good_lp's [`SolverModel`], reporting its effort to a [`Meter`].
//!
//! good_lp's own HiGHS model solves and then keeps the solved model, and with it HiGHS's
//! information, to itself. [`MeteredHighs`] takes good_lp's problem (its rows and columns, built
//! the usual way), hands it to HiGHS with the lab's options, and reads two counters from the
//! solved model whatever its status, an infeasible run's included:
//!
//! - `lp_iterations`: HiGHS's `simplex_iteration_count`, which after a MIP solve is the total of
//!   the simplex iterations of every LP relaxation of the branch and bound;
//! - `bb_nodes`: `mip_node_count`, the branch-and-bound nodes (0 when presolve settles the
//!   program).
//!
//! The status is then read as good_lp reads it: infeasible → [`ResolutionError::Infeasible`], a
//! limit reached with a solution → [`SolutionStatus::TimeLimit`], optimal with a gap left →
//! [`SolutionStatus::GapLimit`].

use std::collections::HashMap;

use ::highs::{HighsModelStatus, HighsSolutionStatus, SolvedModel};
use good_lp::constraint::ConstraintReference;
use good_lp::solvers::highs::HighsProblem;
use good_lp::solvers::{ResolutionError, Solution, SolutionStatus, SolverModel};
use good_lp::{Constraint, Variable};

use crate::effort::{Effort, Meter};

/// A HiGHS run of a good_lp problem, with one thread, zero MIP gaps, an optional time limit, and
/// its effort reported to `meter`.
pub(super) struct MeteredHighs {
    pub problem: HighsProblem,
    /// The problem's variables, in the order they were added (HiGHS's columns).
    pub vars: Vec<Variable>,
    /// HiGHS's `time_limit`, in seconds.
    pub seconds: Option<f64>,
    pub meter: Meter,
}

/// The column values of a solved HiGHS model, by variable.
pub(super) struct HighsColumns {
    status: SolutionStatus,
    values: HashMap<Variable, f64>,
}

impl Solution for HighsColumns {
    fn status(&self) -> SolutionStatus {
        self.status
    }
    fn value(&self, variable: Variable) -> f64 {
        self.values[&variable]
    }
}

impl SolverModel for MeteredHighs {
    type Solution = HighsColumns;
    type Error = ResolutionError;

    fn solve(self) -> Result<HighsColumns, ResolutionError> {
        let mut model = self.problem.try_into_inner()?;
        let option = |e| ResolutionError::Str(format!("HiGHS refused an option: {e:?}"));
        model.try_set_option("threads", 1).map_err(option)?;
        // Zero gaps: HiGHS's default relative gap (1e-4) would stop short of a proof.
        model.try_set_option("mip_rel_gap", 0.0).map_err(option)?;
        model.try_set_option("mip_abs_gap", 0.0).map_err(option)?;
        if let Some(s) = self.seconds {
            model.try_set_option("time_limit", s).map_err(option)?;
        }
        let solved = model
            .try_solve()
            .map_err(|e| ResolutionError::Str(format!("HiGHS error while solving: {e:?}")))?;
        self.meter.record(&effort(&solved));
        let status = match solved.status() {
            HighsModelStatus::Infeasible | HighsModelStatus::UnboundedOrInfeasible => {
                return Err(ResolutionError::Infeasible)
            }
            HighsModelStatus::Unbounded => return Err(ResolutionError::Unbounded),
            HighsModelStatus::ReachedTimeLimit
            | HighsModelStatus::ReachedSolutionLimit
            | HighsModelStatus::ReachedInterrupt
            | HighsModelStatus::ReachedIterationLimit
            | HighsModelStatus::ReachedMemoryLimit => SolutionStatus::TimeLimit,
            HighsModelStatus::Optimal
            | HighsModelStatus::ObjectiveBound
            | HighsModelStatus::ObjectiveTarget => {
                let gap = solved.mip_gap();
                match gap.is_finite() && gap > 0.0 {
                    true => SolutionStatus::GapLimit,
                    false => SolutionStatus::Optimal,
                }
            }
            other => {
                return Err(ResolutionError::Str(format!(
                    "HiGHS ended with status {other:?}"
                )))
            }
        };
        if solved.primal_solution_status() != HighsSolutionStatus::Feasible {
            return Err(ResolutionError::Other("NoSolutionFound"));
        }
        let columns = solved.get_solution();
        let values = self.vars.into_iter().zip(columns.columns().iter().copied());
        Ok(HighsColumns {
            status,
            values: values.collect(),
        })
    }

    fn add_constraint(&mut self, c: Constraint) -> ConstraintReference {
        self.problem.add_constraint(c)
    }

    fn name() -> &'static str {
        "HiGHS"
    }
}

/// The simplex iterations and branch-and-bound nodes of a solved model. A counter HiGHS leaves
/// unset (negative: presolve settled the program before any LP or node) is 0.
fn effort(solved: &SolvedModel) -> Effort {
    let iterations = solved.simplex_iteration_count().max(0) as u64;
    let mut nodes: i64 = -1;
    // SAFETY: `solved.as_ptr()` is the live HiGHS instance `solved` owns, the key is a
    // NUL-terminated string, and `nodes` outlives the call, which writes one `int64_t` to it.
    let status = unsafe {
        highs_sys::Highs_getInt64InfoValue(solved.as_ptr(), c"mip_node_count".as_ptr(), &mut nodes)
    };
    Effort {
        lp_iterations: Some(iterations),
        bb_nodes: (status == highs_sys::STATUS_OK).then_some(nodes.max(0) as u64),
        ..Effort::default()
    }
}
