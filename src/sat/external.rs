//! Running an external, SAT-competition-style solver on a DIMACS file and reading its answer.
//!
//! The solver's command line is a [`CommandLine`] of [`crate::process`] (split like a POSIX
//! shell would, quotes allowed), which also runs it and kills it at the deadline. Its two
//! optional placeholders are replaced inside any argument:
//!
//! * `{}`: the CNF file. Without it the CNF path is appended as the last argument.
//! * `{out}`: a file the solver writes its answer to (MiniSat style: a line `SAT` / `UNSAT` /
//!   `INDET`, then the model's literals ending in `0`; `s` / `v` lines are accepted there too).
//!   The answer is then read from that file only. A program whose name starts with `minisat`
//!   gets `{out}` appended automatically (after the CNF path) unless the command already names
//!   it, since MiniSat prints no model on stdout.
//!
//! Otherwise the answer is read from stdout: `s SATISFIABLE` / `s UNSATISFIABLE` and `v` lines
//! (every other line is ignored). Exit codes 10 (satisfiable), 20 (unsatisfiable) and 0 are
//! accepted when they agree with the printed status.
//!
//! Nothing the solver says is trusted: a missing or contradictory status, a model that is not
//! terminated by `0`, names unknown variables, assigns a variable twice or does **not satisfy
//! every clause of the formula** is a [`ProcessError::Failed`] naming the solver and quoting
//! the end of its output, as is a crash (signal), a missing binary or an unexpected exit code.
//! So is UNSATISFIABLE on a formula without clauses (a puzzle that propagation solved outright):
//! such a formula is satisfiable, whatever the solver says.
//! At the deadline the solver's whole process group is killed ([`ProcessError::TimedOut`]).
//!
//! Variables that occur in no clause (those given simplification fixed) are left out of the
//! file, the others renumbered in their order, and the model is read back in the formula's
//! numbering: a solver without preprocessing would otherwise decide each of them, and its
//! decision count would measure the numbering, not the puzzle.

use std::path::Path;

use super::answer::{self, AnswerError, Dialect, Status};
use super::{dimacs, ClauseSink, Cnf, Var};
use crate::answer::{BackendError, Limits};
use crate::process::{CommandLine, ProcessError};
use crate::solver_stats;

/// A solver's verdict on a formula.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SatAnswer {
    /// Satisfiable, with the value of every variable (`value[i]` for 0-based variable `i`;
    /// `None` when the solver did not print it). The model satisfies every clause.
    Sat(Vec<Option<bool>>),
    Unsat,
}

/// The command line of a solver that reads a formula file: `command` with the file's `{}`, and
/// MiniSat's answer file `{out}` (see the module documentation).
pub fn solver_command(command: &str) -> Result<CommandLine, ProcessError> {
    let solver = CommandLine::parse(command)?.reading_file();
    Ok(if solver.program_name().starts_with("minisat") {
        solver.writing_answer_file()
    } else {
        solver
    })
}

/// The solver of `backend` from its command flag (`--sat-cmd`, `--maxsat-cmd`): without one,
/// [`BackendError::Unsupported`] saying that the backend `needs` it; one that cannot be split,
/// too.
pub fn backend_solver(
    command: Option<&str>,
    backend: &str,
    needs: &str,
) -> Result<CommandLine, BackendError> {
    let command =
        command.ok_or_else(|| BackendError::Unsupported(format!("{backend} needs {needs}")))?;
    solver_command(command).map_err(|e| BackendError::Unsupported(format!("{backend}: {e}")))
}

/// Writes `cnf` (with `comments`) into `dir`, runs `solver` on it until it exits or the deadline
/// of `limits` passes, and returns its checked answer; the statistics it printed on stdout go to
/// the meter of `limits` ([`solver_stats::sat_effort`]). `dir` holds the CNF, the answer file and the captured
/// output; the same directory can serve many runs.
pub fn solve(
    solver: &CommandLine,
    cnf: &Cnf,
    comments: &[String],
    dir: &Path,
    limits: &Limits,
) -> Result<SatAnswer, ProcessError> {
    let cnf_path = dir.join("formula.cnf");
    // Variables in no clause (those given simplification removed) are left out of the file: a
    // solver without preprocessing would decide each of them, and count those decisions.
    let compacted = Compacted::of(cnf);
    let written = compacted.as_ref().map_or(cnf, |c| &c.cnf);
    solver.write_input(&cnf_path, |f| match &compacted {
        Some(c) => {
            let mut comments = comments.to_vec();
            comments.push(format!(
                "variables renumbered 1..{}: the {} of the formula's {} variables that occur in \
                 a clause, in their order",
                c.old.len(),
                c.old.len(),
                cnf.n_vars()
            ));
            dimacs::write(written, &comments, f)
        }
        None => dimacs::write(written, comments, f),
    })?;
    let run = solver.run_on(&cnf_path, dir, limits.halt())?;
    let answer = parse_answer(&run.answer, written.n_vars(), solver.uses_out_file())
        .map_err(|msg| solver.failed(format!("{msg} in {}; {}", run.answer_from, run.context())))?;
    let answer = match (answer, &compacted) {
        (SatAnswer::Sat(values), Some(c)) => SatAnswer::Sat(c.expand(&values, cnf.n_vars())),
        (answer, _) => answer,
    };
    if answer == SatAnswer::Unsat && cnf.n_clauses() == 0 {
        return Err(solver.failed(format!(
            "claims UNSATISFIABLE on a formula without clauses, which every assignment \
             satisfies; {}",
            run.context()
        )));
    }
    let agrees = matches!(
        (&answer, run.status.code()),
        (_, Some(0)) | (SatAnswer::Sat(_), Some(10)) | (SatAnswer::Unsat, Some(20))
    );
    if !agrees {
        let said = match answer {
            SatAnswer::Sat(_) => "SATISFIABLE",
            SatAnswer::Unsat => "UNSATISFIABLE",
        };
        return Err(solver.failed(format!(
            "exit status disagrees with the answer {said}; {}",
            run.context()
        )));
    }
    if let SatAnswer::Sat(values) = &answer {
        check_model(cnf, values)
            .map_err(|msg| solver.failed(format!("{msg}; {}", run.context())))?;
    }
    let satisfiable = matches!(answer, SatAnswer::Sat(_));
    if let Some(effort) = solver_stats::sat_effort(&run.stdout, satisfiable) {
        limits.record(&effort);
    }
    Ok(answer)
}

/// A formula renumbered without the variables that occur in no clause.
struct Compacted {
    cnf: Cnf,
    /// The original index of each new variable, in increasing order.
    old: Vec<u32>,
}

impl Compacted {
    /// `None` when every variable of `cnf` occurs in a clause.
    fn of(cnf: &Cnf) -> Option<Compacted> {
        let mut used = vec![false; cnf.n_vars() as usize];
        for l in cnf.clauses().flatten() {
            used[l.vidx()] = true;
        }
        if used.iter().all(|&u| u) {
            return None;
        }
        let mut new_index = vec![0u32; used.len()];
        let mut old = Vec::new();
        for (v, _) in used.iter().enumerate().filter(|(_, &u)| u) {
            new_index[v] = old.len() as u32;
            old.push(v as u32);
        }
        let mut out = Cnf::new();
        let mut clause = Vec::new();
        for c in cnf.clauses() {
            clause.clear();
            clause.extend(
                c.iter()
                    .map(|l| Var::new(new_index[l.vidx()]).lit(l.is_neg())),
            );
            out.add_clause(&clause);
        }
        Some(Compacted { cnf: out, old })
    }

    /// A model of the compacted formula in the original numbering (variables in no clause
    /// unassigned).
    fn expand(&self, values: &[Option<bool>], n_vars: u32) -> Vec<Option<bool>> {
        let mut out = vec![None; n_vars as usize];
        for (new, &old) in self.old.iter().enumerate() {
            out[old as usize] = values.get(new).copied().flatten();
        }
        out
    }
}

/// Reads a solver's answer: `s` status and `v` model lines; with `bare`, also MiniSat's answer
/// file (a bare `SAT` / `UNSAT` / `INDET` line, then bare literal lines). Other lines are
/// ignored. `n_vars` bounds the variables a model may name.
pub fn parse_answer(text: &str, n_vars: u32, bare: bool) -> Result<SatAnswer, AnswerError> {
    let answer = answer::read(text, n_vars, Dialect::Sat { bare })?;
    if let Some(e) = answer.mismatch() {
        return Err(e);
    }
    match answer.status {
        Some(Status::Sat) if !answer.terminated => Err(AnswerError::Unterminated),
        Some(Status::Sat) => Ok(SatAnswer::Sat(answer.values)),
        _ => Ok(SatAnswer::Unsat),
    }
}

/// A clause that a model leaves false.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the model does not satisfy clause {number} ({} 0)", literals.join(" "))]
pub struct Unsatisfied {
    /// 1-based, in the formula's order.
    pub number: usize,
    /// The clause in DIMACS numbering.
    pub literals: Vec<String>,
}

/// `Ok` when every clause of `cnf` has a literal that `values` makes true.
pub fn check_model(cnf: &Cnf, values: &[Option<bool>]) -> Result<(), Unsatisfied> {
    for (i, clause) in cnf.clauses().enumerate() {
        let satisfied = clause
            .iter()
            .any(|l| values.get(l.vidx()).copied().flatten() == Some(l.is_pos()));
        if !satisfied {
            return Err(Unsatisfied {
                number: i + 1,
                literals: clause.iter().map(|l| l.to_ipasir().to_string()).collect(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_in_no_clause_are_left_out_and_come_back_unassigned() {
        let mut cnf = Cnf::new();
        let lit = |v: u32, neg: bool| Var::new(v).lit(neg);
        cnf.add_clause(&[lit(1, false), lit(4, true)]);
        cnf.add_clause(&[lit(4, false)]);
        cnf.reserve_vars(6);
        let c = Compacted::of(&cnf).unwrap();
        assert_eq!(c.old, [1, 4]);
        assert_eq!(c.cnf.n_vars(), 2);
        let clauses: Vec<Vec<crate::sat::Lit>> = c.cnf.clauses().map(|c| c.to_vec()).collect();
        assert_eq!(
            clauses,
            [vec![lit(0, false), lit(1, true)], vec![lit(1, false)]]
        );
        let back = c.expand(&[Some(true), Some(true)], cnf.n_vars());
        assert_eq!(back, [None, Some(true), None, None, Some(true), None]);
        check_model(&cnf, &back).unwrap();
        let mut full = Cnf::new();
        full.add_clause(&[lit(0, false), lit(1, false)]);
        assert!(Compacted::of(&full).is_none());
    }

    #[test]
    fn minisat_gets_its_answer_file() {
        let c = solver_command("/usr/bin/minisat -verb=0").unwrap();
        assert_eq!(c.words(), ["/usr/bin/minisat", "-verb=0", "{}", "{out}"]);
        assert_eq!(c.name(), "/usr/bin/minisat -verb=0");
        assert!(c.uses_out_file());
        let c = solver_command("cadical -q").unwrap();
        assert_eq!(c.words(), ["cadical", "-q", "{}"]);
        assert!(!c.uses_out_file());
    }

    #[test]
    fn competition_output() {
        let out = "c hello\ns SATISFIABLE\nv 1 -2\nv 3 0\n";
        assert_eq!(
            parse_answer(out, 3, false),
            Ok(SatAnswer::Sat(vec![Some(true), Some(false), Some(true)]))
        );
        assert_eq!(
            parse_answer("s UNSATISFIABLE\n", 3, false),
            Ok(SatAnswer::Unsat)
        );
        // MiniSat's answer file.
        assert_eq!(
            parse_answer("SAT\n-1 2 0\n", 2, true),
            Ok(SatAnswer::Sat(vec![Some(false), Some(true)]))
        );
        assert_eq!(parse_answer("UNSAT\n", 2, true), Ok(SatAnswer::Unsat));
    }

    #[test]
    fn malformed_output_is_an_error() {
        for (text, bare) in [
            ("", false),
            ("SATISFIABLE\n", false),
            ("s SATISFIABLE\n", false),
            ("s SATISFIABLE\nv 1 2\n", false),
            ("s SATISFIABLE\nv 1 x 0\n", false),
            ("s SATISFIABLE\nv 1 4 0\n", false),
            ("s SATISFIABLE\nv 1 -1 0\n", false),
            ("s SATISFIABLE\nv 1 0 2\n", false),
            ("s UNSATISFIABLE\ns SATISFIABLE\nv 0\n", false),
            ("s UNKNOWN\n", false),
            ("s MAYBE\n", false),
            ("s UNSATISFIABLE\nv 1 0\n", false),
            ("INDET\n", true),
            ("garbage\n", true),
        ] {
            assert!(
                parse_answer(text, 3, bare).is_err(),
                "{text:?} should be rejected"
            );
        }
    }

    #[test]
    fn model_must_satisfy_every_clause() {
        use crate::sat::Lit;
        let mut cnf = Cnf::new();
        cnf.add_clause(&[Lit::positive(0), Lit::positive(1)]);
        cnf.add_clause(&[Lit::negative(0)]);
        assert!(check_model(&cnf, &[Some(false), Some(true)]).is_ok());
        let e = check_model(&cnf, &[Some(true), Some(true)]).unwrap_err();
        assert_eq!(e.to_string(), "the model does not satisfy clause 2 (-1 0)");
        assert!(check_model(&cnf, &[Some(false), None]).is_err());
    }
}
