//! `maxsat-ext`: a puzzle's optimisation handed to any external weighted MaxSAT solver
//! (`--maxsat-cmd "CMD"`), one process per puzzle. It answers `optimize` only.
//!
//! * The instance is the WCNF of [`crate::sat::wcnf`] (what `sudoku-lab encode --to wcnf`
//!   writes): the `sat` encoding as hard clauses, with the same options (`--encoding`, `--amo`,
//!   `--no-simplify`), and one soft unit clause per loss term. The command line is completed as
//!   for `sat-ext` (`{}` for the file, appended when absent; `{out}` for an answer file).
//! * The answer is read from the MaxSAT Evaluation output: `s OPTIMUM FOUND` /
//!   `s SATISFIABLE` / `s UNSATISFIABLE`, `o COST` and the model on `v` lines (literals, or the
//!   evaluations' bit string). Exit codes 0, 10 (satisfiable), 20 (unsatisfiable) and 30
//!   (optimum) are accepted when they agree with the status.
//! * Nothing is taken on trust: the model must satisfy every hard clause, put exactly one digit
//!   in every free cell, and its cost must be the last `o` value printed; otherwise the answer is
//!   [`BackendError::Failed`] naming the solver. The score is computed from the grid, and
//!   [`crate::task::run`] checks the grid. An `OPTIMUM FOUND` is an optimality claim the checker
//!   cannot verify; `xcheck --task optimize` against another backend is what catches a false one.
//! * `s SATISFIABLE` (a solver stopped before proving) gives [`Optimum::Incomplete`]. At the
//!   deadline the solver's process group is killed: [`BackendError::TimedOut`].
//! * Effort: statistics lines the solver prints on stdout in a form
//!   [`crate::solver_stats::sat_effort`] reads (MiniSat-, CaDiCaL- or PicoSAT-style) go to the
//!   meter; RC2 prints none, so it reports no effort.

use crate::backend::{Backend, BackendError, Count, Limits, Optimum};
use crate::model::{ConstraintKind, Grid, Puzzle};
use crate::process::CommandLine;
use crate::sat::encode::EncodeOptions;
use crate::sat::external;
use crate::sat::memory::{check_memory, Holder};
use crate::sat::options::SatOptions;
use crate::sat::wcnf::{self, MaxSatAnswer};
use crate::sat::ClauseSink;
use crate::solver_stats;

/// Options of the `maxsat-ext` backend (`--maxsat-cmd`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MaxSatExtOptions {
    /// The MaxSAT solver command line, e.g. `"rc2.py"` (PySAT) or `"open-wbo"`.
    pub command: Option<String>,
}

/// The external MaxSAT backend.
#[derive(Debug)]
pub struct MaxSatExt {
    solver: CommandLine,
    encode: EncodeOptions,
    /// The `sat` options, for the memory limit.
    sat: SatOptions,
}

impl MaxSatExt {
    /// The backend for `options.command`; without one, [`BackendError::Unsupported`].
    pub fn new(options: &MaxSatExtOptions, sat: &SatOptions) -> Result<MaxSatExt, BackendError> {
        let solver = external::backend_solver(
            options.command.as_deref(),
            "maxsat-ext",
            "--maxsat-cmd (a weighted MaxSAT solver reading WCNF, e.g. \"rc2.py\" from python-sat)",
        )?;
        Ok(MaxSatExt {
            solver,
            encode: sat.encode_options(),
            sat: sat.clone(),
        })
    }

    fn failed(&self, msg: impl std::fmt::Display) -> BackendError {
        BackendError::Failed(format!("MaxSAT solver '{}': {msg}", self.solver.name()))
    }

    fn only_optimize(&self) -> BackendError {
        BackendError::Unsupported(
            "maxsat-ext answers optimize only (use sat-ext for solve, count and unique)".into(),
        )
    }
}

impl Backend for MaxSatExt {
    /// The WCNF carries the cages as hard clauses (`--cage-encoding`).
    fn takes(&self, kind: ConstraintKind) -> bool {
        kind == ConstraintKind::Killer
    }

    fn name(&self) -> &'static str {
        "maxsat-ext"
    }

    fn solve(&self, _: &Puzzle, _: &Limits) -> Result<Option<Grid>, BackendError> {
        Err(self.only_optimize())
    }

    fn count(&self, _: &Puzzle, _: u64, _: &Limits) -> Result<Count, BackendError> {
        Err(self.only_optimize())
    }

    fn optimize(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Optimum, BackendError> {
        let Some(weights) = puzzle.weights() else {
            return Err(BackendError::Unsupported("optimize needs weights".into()));
        };
        // The hard part is the CNF of `sat-ext`: the same budget (the soft clauses are few).
        check_memory(puzzle, &self.sat, Holder::Cnf, 1, "maxsat-ext")?;
        let p = wcnf::encode_puzzle(puzzle, &self.encode)
            .map_err(|e| BackendError::Unsupported(e.to_string()))?;
        let dir = tempfile::Builder::new()
            .prefix("sudoku-lab-maxsat-ext")
            .tempdir()
            .map_err(|e| self.failed(format!("temporary directory: {e}")))?;
        let path = dir.path().join("formula.wcnf");
        self.solver
            .write_input(&path, |f| wcnf::write(&p.wcnf, &p.comments, f))
            .map_err(BackendError::from)?;
        let run = self
            .solver
            .run_on(&path, dir.path(), limits.halt())
            .map_err(BackendError::from)?;
        let context = || run.context();
        let answer = wcnf::parse_answer(&run.answer, p.wcnf.hard.n_vars())
            .map_err(|msg| self.failed(format!("{msg} in {}; {}", run.answer_from, context())))?;
        let found = matches!(answer, MaxSatAnswer::Model { .. });
        if let Some(effort) = solver_stats::sat_effort(&run.stdout, found) {
            limits.record(&effort);
        }
        let agrees = matches!(
            (&answer, run.status.code()),
            (_, Some(0))
                | (MaxSatAnswer::Unsat, Some(20))
                | (MaxSatAnswer::Model { optimal: false, .. }, Some(10))
                | (MaxSatAnswer::Model { optimal: true, .. }, Some(30))
        );
        if !agrees {
            return Err(self.failed(format!(
                "exit status disagrees with its status line; {}",
                context()
            )));
        }
        let MaxSatAnswer::Model {
            optimal,
            cost,
            values,
        } = answer
        else {
            return Ok(Optimum::NoSolution);
        };
        external::check_model(&p.wcnf.hard, &values)
            .map_err(|msg| self.failed(format!("{msg}; {}", context())))?;
        let grid = p
            .decoder
            .decode_checked(&values)
            .map_err(|msg| self.failed(msg))?;
        let model_cost = p.wcnf.cost(&values);
        if cost.is_some_and(|c| c != model_cost) {
            return Err(self.failed(format!(
                "it reports cost {} but its model costs {model_cost}",
                cost.unwrap_or_default()
            )));
        }
        let score = weights.score(&grid);
        if p.objective.loss(puzzle, &grid) != model_cost as i64 {
            return Err(self.failed(format!(
                "the model's cost {model_cost} does not match its grid's score {score}"
            )));
        }
        Ok(if optimal {
            Optimum::Optimal { score, grid }
        } else {
            Optimum::Incomplete {
                score,
                grid,
                bound: Some(p.objective.score_bound()),
            }
        })
    }
}
