//! `ilp`: the puzzle as a 0-1 integer program ([`crate::ilp::model`]) solved through good_lp, with
//! microlp (pure Rust, the default) or HiGHS (cargo feature `highs`), as a backend. The engine,
//! its retries, deadlines and bounds are in [`crate::ilp::solve`]; this file keeps the options
//! (`--ilp-solver`) and turns the backend's questions into programs: `solve` one feasibility
//! program, `count` and `unique` one more program per solution found (a no-good cut against
//! each), `optimize` the weighted program with the best upper bound known when it is not proved
//! (the solver's, or the engine's cheap one).

use crate::backend::{self, Backend, BackendError, Count, Limits, Optimum};
use crate::ilp::solve::{simple_bound, IlpError, Mip, Outcome};
use crate::model::{ConstraintKind, Grid, Puzzle};

pub use crate::ilp::solve::IlpSolver;

/// Options of the `ilp` backend (`--ilp-solver`).
#[derive(Debug, Clone, Copy, Default)]
pub struct IlpOptions {
    pub solver: IlpSolver,
}

/// The integer-programming backend.
#[derive(Debug)]
pub struct Ilp {
    mip: Mip,
}

impl Ilp {
    /// Errors when the solver asked for is not compiled into this build.
    pub fn new(options: &IlpOptions) -> Result<Ilp, BackendError> {
        Ok(Ilp {
            mip: Mip::new(options.solver)?,
        })
    }

    /// One program of `model` plus the no-good `cuts`, within `limits`.
    fn run(
        &self,
        model: &crate::ilp::IlpModel,
        cuts: &[Vec<u32>],
        objective: bool,
        limits: &Limits,
    ) -> Result<Outcome, IlpError> {
        self.mip
            .run(model, cuts, objective, &limits.halt(), &limits.meter)
    }
}

impl From<IlpError> for BackendError {
    fn from(e: IlpError) -> Self {
        match e {
            IlpError::Unsupported(why) => BackendError::Unsupported(why),
            IlpError::TimedOut => BackendError::TimedOut,
            IlpError::Failed(why) => BackendError::Failed(why),
        }
    }
}

impl Backend for Ilp {
    fn takes(&self, kind: ConstraintKind) -> bool {
        crate::ilp::model::takes(kind)
    }

    fn name(&self) -> &'static str {
        "ilp"
    }

    fn solve(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Option<Grid>, BackendError> {
        let Some(model) = self.mip.model(puzzle, false)? else {
            return Ok(None);
        };
        match self.run(&model, &[], false, limits)? {
            Outcome::Infeasible => Ok(None),
            Outcome::Found { ones, .. } => Ok(Some(self.mip.grid(&model, ones)?)),
        }
    }

    fn count(&self, puzzle: &Puzzle, limit: u64, limits: &Limits) -> Result<Count, BackendError> {
        let Some(model) = self.mip.model(puzzle, false)? else {
            return Ok(Count::none());
        };
        let mut cuts = Vec::new();
        backend::enumerate(limit, || {
            let Outcome::Found { ones, .. } = self.run(&model, &cuts, false, limits)? else {
                return Ok(None);
            };
            let grid = self.mip.grid(&model, ones)?;
            cuts.push(model.encode(&grid));
            Ok(Some(grid))
        })
    }

    fn optimize(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Optimum, BackendError> {
        let weights = puzzle
            .weights()
            .ok_or_else(|| BackendError::Unsupported("optimize needs weights".into()))?;
        let Some(model) = self.mip.model(puzzle, true)? else {
            return Ok(Optimum::NoSolution);
        };
        let (ones, proved, bound) = match self.run(&model, &[], true, limits)? {
            Outcome::Infeasible => return Ok(Optimum::NoSolution),
            Outcome::Found {
                ones,
                proved,
                bound,
            } => (ones, proved, bound),
        };
        let grid = self.mip.grid(&model, ones)?;
        let score = weights.score(&grid);
        if proved {
            return Ok(Optimum::Optimal { score, grid });
        }
        let offset = model.objective().map_or(0, |o| o.offset);
        let solver_bound = bound.map(|b| offset + (b + 1e-6).floor() as i64);
        let bound = [Some(simple_bound(&model, weights)), solver_bound]
            .into_iter()
            .flatten()
            .filter(|&b| b >= score)
            .min();
        Ok(Optimum::Incomplete { score, grid, bound })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ilp::model::Reduction;
    use crate::ilp::solve::simple_bound;
    use crate::ilp::IlpModel;
    use crate::model::{Shape, Weights};
    use std::sync::Arc;

    fn pyramid(givens: Vec<crate::model::Value>) -> Puzzle {
        Puzzle::new(Arc::new(Shape::standard(4, false).unwrap()), givens)
            .unwrap()
            .with_weights(Arc::new(Weights::pyramid(4)))
            .unwrap()
    }

    #[test]
    fn simple_bound_is_exact_on_a_full_grid_and_admissible_on_the_empty_one() {
        let full = vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        let p = pyramid(full.clone());
        let w = p.weights().unwrap();
        let m = IlpModel::build(&p, true, Reduction::Givens).unwrap();
        assert_eq!(simple_bound(&m, w), w.score(&Grid::new(4, full)));

        let empty = pyramid(vec![0; 16]);
        let m = IlpModel::build(&empty, true, Reduction::Givens).unwrap();
        let best = match Ilp::new(&IlpOptions::default())
            .unwrap()
            .optimize(&empty, &Limits::none())
        {
            Ok(Optimum::Optimal { score, .. }) => score,
            other => panic!("{other:?}"),
        };
        assert!(simple_bound(&m, w) >= best);
    }
}
