//! A puzzle loaded into an incremental SAT solver ([`Session`]), and the driver of `solve` and
//! `count` on it ([`count`]): after each solution a blocking clause over the chosen-digit
//! literals of the free cells excludes it, until the formula becomes unsatisfiable or the limit
//! is reached (limit 2 for uniqueness).
//!
//! Proofs: with [`SatOptions::proof`], every answer that ends in an unsatisfiable call (no
//! solution, a complete count such as "unique", a proved optimum) is re-derived by a fresh
//! varisat run on the final formula (encoding + blocking / bound clauses), which writes a DRAT
//! proof to the file and that formula as DIMACS to the file name plus `.cnf` ([`prove`]). With
//! [`SatOptions::check_proof`] varisat's checker checks every step of that run as it is made.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use super::encode::{self, Decoder, Numbering};
use super::maxsat::Oracle;
use super::options::SatOptions;
use super::{dimacs, failed, ClauseSink, Cnf, Lit, Var, VarisatSink};
use crate::answer::{self, BackendError, Count};
use crate::cancel::Cancel;
use crate::model::{Grid, Puzzle};

/// A puzzle loaded into an incremental solver; also records every clause when a proof will be
/// needed.
pub(super) struct Session<E: Oracle> {
    sink: E,
    /// Every clause so far, when a proof will be needed.
    pub(super) record: Option<Cnf>,
    pub(super) decoder: Decoder,
    /// The last call was unsatisfiable.
    unsat: bool,
}

impl<E: Oracle> ClauseSink for Session<E> {
    fn n_vars(&self) -> u32 {
        self.sink.n_vars()
    }
    fn reserve_vars(&mut self, n: u32) {
        self.sink.reserve_vars(n);
        if let Some(r) = &mut self.record {
            r.reserve_vars(n);
        }
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        self.sink.add_clause(lits);
        if let Some(r) = &mut self.record {
            r.add_clause(lits);
        }
    }
}

impl<E: Oracle> Oracle for Session<E> {
    fn solve_assuming(&mut self, assumptions: &[Lit]) -> Result<bool, BackendError> {
        self.sink.solve_assuming(assumptions)
    }
    fn core(&mut self) -> Result<Vec<Lit>, BackendError> {
        self.sink.core()
    }
    fn values(&mut self, n: usize) -> Result<Vec<bool>, BackendError> {
        self.sink.values(n)
    }
}

impl<E: Oracle> Session<E> {
    /// `puzzle` encoded (in the compact numbering) into `sink`.
    pub(super) fn new(puzzle: &Puzzle, opts: &SatOptions, mut sink: E) -> Session<E> {
        let mut record = opts.proof.as_ref().map(|_| Cnf::new());
        let enc = match &mut record {
            None => encode::encode(
                puzzle,
                &opts.encode_options(),
                Numbering::Compact,
                &mut sink,
            ),
            Some(r) => {
                let enc = encode::encode(puzzle, &opts.encode_options(), Numbering::Compact, r);
                r.feed(&mut sink);
                enc
            }
        };
        Session {
            sink,
            record,
            decoder: enc.decoder,
            unsat: false,
        }
    }

    /// The next solution, or `None` once the formula is unsatisfiable.
    pub(super) fn next(&mut self) -> Result<Option<Grid>, BackendError> {
        self.next_assuming(&[])
    }

    /// The next solution with every literal of `assumptions` true.
    pub(super) fn next_assuming(
        &mut self,
        assumptions: &[Lit],
    ) -> Result<Option<Grid>, BackendError> {
        if !self.sink.solve_assuming(assumptions)? {
            self.unsat = true;
            return Ok(None);
        }
        let value = self.sink.values(self.sink.n_vars() as usize)?;
        Ok(Some(self.decoder.decode(|v: Var| value[v.idx()])))
    }

    /// Excludes `grid` from further solutions.
    fn block(&mut self, grid: &Grid) {
        let mut clause = Vec::new();
        self.decoder.blocking_clause(grid, &mut clause);
        self.add_clause(&clause);
    }

    /// Writes (and optionally checks) the DRAT proof of the final unsatisfiable call.
    fn prove(&self, path: &Path, check: bool) -> Result<(), BackendError> {
        match &self.record {
            Some(cnf) => prove(cnf, path, check),
            None => Ok(()),
        }
    }

    /// After an unsatisfiable last call, the proof that [`SatOptions::proof`] asks for.
    pub(super) fn finish_proof(&self, opts: &SatOptions) -> Result<(), BackendError> {
        match &opts.proof {
            Some(p) if self.unsat => self.prove(p, opts.check_proof),
            _ => Ok(()),
        }
    }
}

/// Writes `cnf` next to `path` (as `path.cnf`) and a DRAT proof that it is unsatisfiable to
/// `path`, from a fresh varisat run (checked as it goes with `check`).
pub(super) fn prove(cnf: &Cnf, path: &Path, check: bool) -> Result<(), BackendError> {
    let mut cnf_path = path.as_os_str().to_owned();
    cnf_path.push(".cnf");
    let comments = [format!(
        "formula refuted by the DRAT proof in {} (sudoku-lab sat backend, compact numbering)",
        path.display()
    )];
    let mut f = File::create(&cnf_path).map_err(failed)?;
    dimacs::write(cnf, &comments, &mut f).map_err(failed)?;
    let out = BufWriter::new(File::create(path).map_err(failed)?);
    let mut solver = varisat::Solver::new();
    solver.write_proof(out, varisat::ProofFormat::Drat);
    if check {
        solver.enable_self_checking();
    }
    let mut sink = VarisatSink::new(solver);
    cnf.feed(&mut sink);
    let sat = sink
        .solver
        .solve()
        .map_err(|e| failed(format!("proof run: {e}")))?;
    sink.solver
        .close_proof()
        .map_err(|e| failed(format!("proof: {e}")))?;
    if sat {
        return Err(failed(
            "proof run found the final formula satisfiable (solver disagreement)",
        ));
    }
    Ok(())
}

/// Progress a run reports as it goes, so that a run stopped by the deadline still says what it
/// found: a count's next solution, or an optimisation's better grid and the upper bound on the
/// score.
pub enum Progress<'g> {
    Found(&'g Grid),
    Improved {
        score: i64,
        grid: &'g Grid,
        bound: i64,
    },
}

/// Where a run reports its [`Progress`].
pub type Improved<'a> = &'a mut dyn FnMut(Progress<'_>);

/// Counts the solutions of `puzzle` up to `limit` on `engine`, reporting each to `found`, until
/// the formula is unsatisfiable (a complete count, proved with [`SatOptions::proof`]) or the limit
/// is reached. A set `cancel` stops it between calls, as a time-out.
pub(super) fn count<E: Oracle>(
    puzzle: &Puzzle,
    opts: &SatOptions,
    engine: E,
    limit: u64,
    found: Improved<'_>,
    cancel: &Cancel,
) -> Result<Count, BackendError> {
    let mut s = Session::new(puzzle, opts, engine);
    let count = answer::enumerate(limit, || {
        if cancel.is_set() {
            return Err(BackendError::TimedOut);
        }
        let g = s.next()?;
        if let Some(g) = &g {
            s.block(g);
            found(Progress::Found(g));
        }
        Ok(g)
    })?;
    if !count.timed_out {
        s.finish_proof(opts)?;
    }
    Ok(count)
}
