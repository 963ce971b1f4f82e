//! `minizinc`: the CP model of [`crate::cp`] written as MiniZinc ([`crate::cp::minizinc`], what
//! `sudoku-lab encode --to mzn` writes) and solved by the `minizinc` program with any solver it
//! knows (`--mzn-solver`, default `gecode`; the program itself: `--mzn-cmd`, default
//! `minizinc`), one process per question.
//!
//! * `solve`: `minizinc --solver S model.mzn`, one solution.
//! * `count` (and `unique`, a count to 2): `--all-solutions --num-solutions LIMIT`; a final
//!   `==========` says the search was complete, so fewer than `LIMIT` solutions are all of them.
//! * `optimize`: the model maximises the score; `--all-solutions` makes MiniZinc print every
//!   improving solution as it is found. `==========` after them proves the last one optimal. At
//!   the deadline the process is killed and the best solution printed so far comes back as
//!   [`Optimum::Incomplete`].
//! * `=====UNSATISFIABLE=====` is "no solution".
//! * Effort: when the caller measures it ([`Limits::meter`]), MiniZinc runs with `--statistics`
//!   and the solver's `%%%mzn-stat` lines are recorded ([`crate::solver_stats::minizinc_effort`]:
//!   nodes, failures as conflicts, propagations, restarts; Gecode's branch points, Chuffed's
//!   decisions).
//! * Running and killing the program is [`crate::process`]'s: a private temporary directory,
//!   its own process group, killed at [`Limits::deadline`] ([`BackendError::TimedOut`]).
//! * Never a wrong answer: a missing program, an exit code other than 0, a crash, output that
//!   [`crate::cp::minizinc::parse_output`] cannot read, a grid that changes a given, a repeated
//!   solution or a score line that is not the grid's score is [`BackendError::Failed`] naming the
//!   program. [`crate::task::run`] then checks every grid.
//! * Grids whose model would exceed [`MAX_MODEL_BYTES`] are refused
//!   ([`BackendError::Unsupported`]).
//!
//! The model, the arguments and the checks of the answers are [`crate::cp::mzn_question`]'s.

use std::path::Path;

use crate::backend::{Backend, BackendError, Count, Limits, Optimum};
use crate::cp::minizinc::{self, MznOutput, Status};
use crate::cp::mzn_question::{self, ModelTextError, Question};
use crate::model::{ConstraintKind, Grid, Puzzle};
use crate::process::{CommandLine, Ended};
use crate::solver_stats;

pub use crate::cp::mzn_question::MAX_MODEL_BYTES;

/// The default `--mzn-cmd`.
pub const DEFAULT_PROGRAM: &str = "minizinc";
/// The default `--mzn-solver`.
pub const DEFAULT_SOLVER: &str = "gecode";

/// Options of the `minizinc` backend (`--mzn-cmd`, `--mzn-solver`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MiniZincOptions {
    /// The `minizinc` program (a command line: a path, possibly with extra arguments).
    pub command: String,
    /// The solver MiniZinc runs (`minizinc --solver S`): `gecode`, `chuffed`, `cp-sat`, …
    pub solver: String,
}

impl Default for MiniZincOptions {
    fn default() -> Self {
        MiniZincOptions {
            command: DEFAULT_PROGRAM.into(),
            solver: DEFAULT_SOLVER.into(),
        }
    }
}

/// The `minizinc` backend.
#[derive(Debug)]
pub struct MiniZinc {
    program: CommandLine,
    solver: String,
}

/// One run of MiniZinc: what it printed, and whether it was killed at the deadline.
struct Run {
    output: MznOutput,
    killed: bool,
}

impl MiniZinc {
    /// The backend for `options`; a command line that cannot be split is
    /// [`BackendError::Unsupported`]. The program is looked for only when it is run.
    pub fn new(options: &MiniZincOptions) -> Result<MiniZinc, BackendError> {
        let program = CommandLine::parse(&options.command)
            .map(CommandLine::reading_file)
            .map_err(|e| BackendError::Unsupported(format!("minizinc: {e}")))?;
        if options.solver.trim().is_empty() {
            return Err(BackendError::Unsupported(
                "minizinc: --mzn-solver is empty".into(),
            ));
        }
        Ok(MiniZinc {
            program,
            solver: options.solver.trim().to_string(),
        })
    }

    fn failed(&self, msg: impl std::fmt::Display) -> BackendError {
        BackendError::Failed(format!(
            "MiniZinc '{}' (solver {}): {msg}",
            self.program.name(),
            self.solver
        ))
    }

    /// Writes the model of `puzzle` for `question`, runs MiniZinc on it and reads its output.
    fn run(
        &self,
        puzzle: &Puzzle,
        question: Question,
        limits: &Limits,
    ) -> Result<Run, BackendError> {
        if limits.expired() {
            return Err(BackendError::TimedOut);
        }
        let text = mzn_question::model_text(puzzle, question).map_err(|e| match e {
            too_large @ ModelTextError::TooLarge { .. } => {
                BackendError::Unsupported(too_large.to_string())
            }
            write => self.failed(write),
        })?;
        let dir = tempfile::Builder::new()
            .prefix("sudoku-lab-minizinc")
            .tempdir()
            .map_err(|e| self.failed(format!("temporary directory: {e}")))?;
        let path = dir.path().join("model.mzn");
        let args = mzn_question::args(question, &self.solver, limits.meter.is_on());
        let command = self.program.with_args(&args);
        command
            .write_input(&path, |f| std::io::Write::write_all(f, &text))
            .map_err(BackendError::from)?;
        self.read(&command, &path, dir.path(), puzzle, question, limits)
    }

    /// Runs `command` on the model at `path` and reads and checks its output.
    fn read(
        &self,
        command: &CommandLine,
        path: &Path,
        dir: &Path,
        puzzle: &Puzzle,
        question: Question,
        limits: &Limits,
    ) -> Result<Run, BackendError> {
        let n = puzzle.size();
        let scored = question == Question::Maximize;
        let ended = command
            .run_until(path, dir, limits.halt())
            .map_err(BackendError::from)?;
        let stdout = match &ended {
            Ended::Killed { stdout } => stdout,
            Ended::Finished(run) => &run.stdout,
        };
        if let Some(effort) = solver_stats::minizinc_effort(stdout, &self.solver) {
            limits.record(&effort);
        }
        let (output, killed) = match ended {
            Ended::Killed { stdout } => {
                let output = minizinc::parse_output(&stdout, n, scored, true).map_err(|msg| {
                    self.failed(format!("{msg} in its output before the deadline"))
                })?;
                (output, true)
            }
            Ended::Finished(run) => {
                if run.status.code() != Some(0) {
                    return Err(self.failed(format!("failed; {}", run.context())));
                }
                let output =
                    minizinc::parse_output(&run.stdout, n, scored, false).map_err(|msg| {
                        self.failed(format!("{msg} in its output; {}", run.context()))
                    })?;
                if output.status == Status::Open && output.solutions.is_empty() {
                    return Err(self.failed(format!(
                        "neither a solution nor a status; {}",
                        run.context()
                    )));
                }
                (output, false)
            }
        };
        mzn_question::check(&output, puzzle).map_err(|e| self.failed(e))?;
        Ok(Run { output, killed })
    }
}

impl Backend for MiniZinc {
    fn name(&self) -> &'static str {
        "minizinc"
    }

    /// The model holds every kind: cages and variant rules ([`crate::cp::minizinc`]).
    fn takes(&self, _kind: ConstraintKind) -> bool {
        true
    }

    fn solve(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Option<Grid>, BackendError> {
        let run = self.run(puzzle, Question::Solve, limits)?;
        if run.killed {
            return Err(BackendError::TimedOut);
        }
        let n = puzzle.size();
        Ok(run
            .output
            .solutions
            .into_iter()
            .next()
            .map(|s| Grid::new(n, s.cells)))
    }

    fn count(&self, puzzle: &Puzzle, limit: u64, limits: &Limits) -> Result<Count, BackendError> {
        let limit = limit.max(1);
        let run = self.run(puzzle, Question::Count(limit), limits)?;
        if run.killed {
            return Err(BackendError::TimedOut);
        }
        let count = run.output.solutions.len() as u64;
        let complete = match run.output.status {
            Status::Complete | Status::Unsatisfiable => true,
            Status::Open if count == limit => false,
            Status::Open => {
                return Err(self.failed(format!(
                    "it stopped after {count} of at most {limit} solutions without saying the search was complete"
                )))
            }
        };
        if count > limit {
            return Err(self.failed(format!("{count} solutions printed, over the limit {limit}")));
        }
        let n = puzzle.size();
        Ok(Count {
            count,
            complete,
            timed_out: false,
            witnesses: run
                .output
                .solutions
                .into_iter()
                .take(2)
                .map(|s| Grid::new(n, s.cells))
                .collect(),
        })
    }

    fn optimize(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Optimum, BackendError> {
        if puzzle.weights().is_none() {
            return Err(BackendError::Unsupported("optimize needs weights".into()));
        }
        let run = self.run(puzzle, Question::Maximize, limits)?;
        let scores: Vec<i64> = run
            .output
            .solutions
            .iter()
            .map(|s| s.score.unwrap_or(i64::MIN))
            .collect();
        if scores.windows(2).any(|w| w[1] <= w[0]) {
            return Err(self.failed(format!("its solutions' scores do not increase: {scores:?}")));
        }
        let n = puzzle.size();
        let Some(best) = run.output.solutions.into_iter().next_back() else {
            return match (run.killed, run.output.status) {
                (true, _) => Err(BackendError::TimedOut),
                (false, Status::Unsatisfiable) => Ok(Optimum::NoSolution),
                (false, _) => Err(self.failed("no solution and no UNSATISFIABLE")),
            };
        };
        let (score, grid) = (best.score.unwrap_or_default(), Grid::new(n, best.cells));
        Ok(match run.output.status {
            Status::Complete => Optimum::Optimal { score, grid },
            _ if run.killed => Optimum::Incomplete {
                score,
                grid,
                bound: None,
            },
            _ => {
                return Err(
                    self.failed("it ended without '==========', so the optimum is not proved")
                )
            }
        })
    }
}
