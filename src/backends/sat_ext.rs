//! `sat-ext`: the CNF of [`crate::sat::encode`] handed to any external, SAT-competition-style
//! solver (`--sat-cmd "CMD"`), one process per question.
//!
//! * The formula is written in the *formula* numbering (the one of `sudoku-lab encode --to
//!   dimacs`) to a DIMACS file in a private temporary directory, with the same encoding options as
//!   the `sat` backend (`--encoding`, `--amo`, `--no-simplify`; its proof options do not apply).
//!   How the command line is completed (`{}` for the CNF, `{out}` for an answer file, MiniSat
//!   detected by name) and how the answer is read and checked: [`crate::sat::external`].
//! * `solve` / `count`: after each solution a blocking clause over the chosen-digit literals of
//!   the free cells is appended, the file rewritten and the solver run again, until it answers
//!   UNSATISFIABLE or the limit is reached (limit 2 for uniqueness).
//! * `optimize`: the score bound of [`crate::sat::objective`] ("score > best so far") is added
//!   as clauses after each solution and the solver rerun; the final UNSATISFIABLE proves the
//!   optimum. At the deadline the best grid so far comes back as [`Optimum::Incomplete`].
//! * Effort: each run's statistics (MiniSat at its default verbosity, CaDiCaL and Kissat without
//!   `-q`, PicoSAT with `-v`) are read by [`crate::solver_stats::sat_effort`] and recorded; a
//!   count or an optimisation adds up its runs. Givens never reach the solver as decisions: they
//!   are simplified away, or unit clauses with `--no-simplify`.
//! * Deadlines: the solver is killed (with its process group) at [`Limits::deadline`], giving
//!   [`BackendError::TimedOut`].
//! * Never a wrong answer: besides the checks of [`crate::sat::external`] (the model must satisfy
//!   every clause written), every free cell must decode to exactly one digit; anything else is
//!   [`BackendError::Failed`] naming the solver. [`crate::task::run`] then checks the grid itself.

use crate::backend::{self, Backend, BackendError, Count, Limits, Optimum};
use crate::model::{ConstraintKind, Grid, Puzzle};
use crate::process::CommandLine;
use crate::sat::encode::{self, Decoder, EncodeOptions, Numbering};
use crate::sat::external::{self, SatAnswer};
use crate::sat::memory::{check_memory, Holder};
use crate::sat::objective::Objective;
use crate::sat::options::SatOptions;
use crate::sat::{ClauseSink, Cnf, Lit};

/// Options of the `sat-ext` backend (`--sat-cmd`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SatExtOptions {
    /// The solver command line, e.g. `"cadical -q"`, `"picosat"`, `"minisat"` or
    /// `"kissat {} --no-binary"`; see [`crate::sat::external`] for the placeholders.
    pub command: Option<String>,
}

/// The external-solver backend.
#[derive(Debug)]
pub struct SatExt {
    solver: CommandLine,
    encode: EncodeOptions,
    /// The `sat` options, for the memory limit.
    sat: SatOptions,
}

impl SatExt {
    /// The backend for `options.command`, encoding as `sat` describes. Without a command, or
    /// with one that cannot be split, this is [`BackendError::Unsupported`].
    pub fn new(options: &SatExtOptions, sat: &SatOptions) -> Result<SatExt, BackendError> {
        let solver = external::backend_solver(
            options.command.as_deref(),
            "sat-ext",
            "--sat-cmd (a SAT solver command, e.g. \"cadical\", \"picosat\" or \"minisat\")",
        )?;
        Ok(SatExt {
            solver,
            encode: sat.encode_options(),
            sat: sat.clone(),
        })
    }

    /// The solver command as given.
    pub fn solver_name(&self) -> &str {
        self.solver.name()
    }
}

/// One puzzle's formula, growing with blocking and objective clauses, and the directory its
/// files live in.
struct Session<'a> {
    ext: &'a SatExt,
    cnf: Cnf,
    /// Clauses of the encoding itself (the rest were added afterwards).
    encoded: usize,
    header: Vec<String>,
    decoder: Decoder,
    dir: tempfile::TempDir,
    limits: Limits,
}

impl<'a> Session<'a> {
    fn new(ext: &'a SatExt, puzzle: &Puzzle, limits: &Limits) -> Result<Session<'a>, BackendError> {
        check_memory(puzzle, &ext.sat, Holder::Cnf, 1, "sat-ext")?;
        let mut cnf = Cnf::new();
        let enc = encode::encode(puzzle, &ext.encode, Numbering::Formula, &mut cnf);
        let dir = tempfile::Builder::new()
            .prefix("sudoku-lab-sat-ext")
            .tempdir()
            .map_err(|e| BackendError::Failed(format!("sat-ext: temporary directory: {e}")))?;
        Ok(Session {
            ext,
            encoded: cnf.n_clauses(),
            header: encode::dimacs_header(puzzle, &ext.encode, &enc.stats, enc.decoder.fixed()),
            cnf,
            decoder: enc.decoder,
            dir,
            limits: limits.clone(),
        })
    }

    fn failed(&self, msg: String) -> BackendError {
        BackendError::Failed(format!("SAT solver '{}': {msg}", self.ext.solver.name()))
    }

    /// Runs the solver on the current formula: the next solution, or `None` when there is none.
    fn next(&mut self) -> Result<Option<Grid>, BackendError> {
        self.next_assuming(&[])
    }

    /// [`Session::next`] with every literal of `assumptions` true: they go into this call's file
    /// as unit clauses, and not into the formula.
    fn next_assuming(&mut self, assumptions: &[Lit]) -> Result<Option<Grid>, BackendError> {
        if self.limits.expired() {
            return Err(BackendError::TimedOut);
        }
        let mut comments = self.header.clone();
        let added = self.cnf.n_clauses() - self.encoded;
        if added > 0 {
            comments.push(format!(
                "plus {added} clauses added by sat-ext (blocking clauses / objective bound)"
            ));
        }
        let with_units;
        let cnf = if assumptions.is_empty() {
            &self.cnf
        } else {
            comments.push(format!(
                "plus {} unit clauses: the objective bound",
                assumptions.len()
            ));
            let mut cnf = self.cnf.clone();
            for &l in assumptions {
                cnf.add_clause(&[l]);
            }
            with_units = cnf;
            &with_units
        };
        let answer = external::solve(
            &self.ext.solver,
            cnf,
            &comments,
            self.dir.path(),
            &self.limits,
        )
        .map_err(BackendError::from)?;
        let SatAnswer::Sat(values) = answer else {
            return Ok(None);
        };
        self.decoder
            .decode_checked(&values)
            .map(Some)
            .map_err(|e| self.failed(e.to_string()))
    }

    /// Excludes `grid` from further solutions.
    fn block(&mut self, grid: &Grid) {
        let mut clause = Vec::new();
        self.decoder.blocking_clause(grid, &mut clause);
        self.cnf.add_clause(&clause);
    }
}

impl Backend for SatExt {
    fn takes(&self, kind: ConstraintKind) -> bool {
        kind == ConstraintKind::Killer
    }

    fn name(&self) -> &'static str {
        "sat-ext"
    }

    fn solve(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Option<Grid>, BackendError> {
        Session::new(self, puzzle, limits)?.next()
    }

    fn count(&self, puzzle: &Puzzle, limit: u64, limits: &Limits) -> Result<Count, BackendError> {
        let mut s = Session::new(self, puzzle, limits)?;
        backend::enumerate(limit, || {
            let g = s.next()?;
            if let Some(g) = &g {
                s.block(g);
            }
            Ok(g)
        })
    }

    fn optimize(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Optimum, BackendError> {
        let Some(weights) = puzzle.weights() else {
            return Err(BackendError::Unsupported("optimize needs weights".into()));
        };
        let mut s = Session::new(self, puzzle, limits)?;
        let Some(mut best) = s.next()? else {
            return Ok(Optimum::NoSolution);
        };
        let mut obj = Objective::new(puzzle, &s.decoder)
            .map_err(|e| BackendError::Unsupported(e.to_string()))?;
        loop {
            let loss = obj.loss(puzzle, &best);
            // Loss 0 is the bound itself: optimal without a further call.
            let Some(bound) = obj.bound_loss(loss - 1, &mut s.cnf) else {
                break;
            };
            match s.next_assuming(&bound) {
                Ok(Some(g)) if obj.loss(puzzle, &g) < loss => best = g,
                Ok(Some(g)) => {
                    return Err(s.failed(format!(
                        "its model scores {}, not better than {} as the bound requires",
                        weights.score(&g),
                        weights.score(&best)
                    )))
                }
                Ok(None) => break,
                Err(BackendError::TimedOut) => {
                    return Ok(Optimum::Incomplete {
                        score: weights.score(&best),
                        grid: best,
                        bound: Some(obj.score_bound()),
                    })
                }
                Err(e) => return Err(e),
            }
        }
        Ok(Optimum::Optimal {
            score: weights.score(&best),
            grid: best,
        })
    }
}
