//! The SAT paradigm: its vocabulary, the encodings and exports, and the drivers that turn a task
//! into solver calls. The backends `sat`, `cadical`, `sat-ext` and `maxsat-ext` only adapt these
//! to [`crate::backend::Backend`].
//!
//! * Literals and variables are rustsat's [`Lit`] and [`Var`]: 0-based inside, 1-based DIMACS
//!   (`Lit::to_ipasir`) only in files.
//! * Cell variables: `x(cell, digit)` is true when `cell` holds `digit`. In the *formula* numbering
//!   (the one written to DIMACS) its 0-based index is `cell * n + (digit - 1)`, so its DIMACS number
//!   is `cell * n + digit` with `cell = row * n + col`; auxiliary variables (at-most-one helpers,
//!   triads, objective) come after the `n³` cell variables. The *compact* numbering used in process
//!   gives indices only to the cell variables that given simplification leaves free; see
//!   [`encode::Numbering`].
//! * Every encoding writes into one [`ClauseSink`]: the [`Cnf`] container (for files) and the
//!   varisat solver both implement it, so the same code feeds a file or a solver.
//!   [`RsCollector`] lets rustsat's own encodings write into any sink.
//! * Encodings and exports: [`encode`] (with the exact size estimate), [`objective`], [`dimacs`],
//!   [`wcnf`]; external solvers' command lines and answers: [`external`], reading their output
//!   with [`answer`].
//! * In-process drivers, over any incremental solver that implements [`maxsat::Oracle`] (varisat's
//!   [`VarisatSink`], CaDiCaL's `cadical::CadicalSink`): [`session`] (solve and count by blocking
//!   clauses, DRAT proofs), [`optimize`] (linear or core-guided, over [`crate::model::dual`] and [`maxsat`]),
//!   [`run`] (one job on one engine), with their [`options`] and the memory limit check
//!   ([`memory`]); what the engines did, as effort counters: [`tally`].

use std::rc::Rc;

use rustsat::encodings::CollectClauses;
use rustsat::instances::ManageVars;
pub use rustsat::types::{Lit, Var};

use crate::answer::BackendError;
use crate::effort::{Effort, Meter};
use tally::{Counted, Reporter};

pub mod answer;
#[cfg(feature = "cadical")]
pub mod cadical;
pub mod dimacs;
pub mod encode;
pub mod external;
pub mod maxsat;
pub mod memory;
pub mod objective;
pub mod optimize;
pub mod options;
pub mod run;
pub mod session;
pub mod tally;
pub mod trace;
pub mod wcnf;

/// Where clauses go: a CNF container, a DIMACS writer or a solver.
pub trait ClauseSink {
    /// Number of variables in use (indices `0..n_vars()`).
    fn n_vars(&self) -> u32;
    /// Makes sure variables `0..n` exist (new ones are free).
    fn reserve_vars(&mut self, n: u32);
    /// Adds one clause (the empty clause makes the formula unsatisfiable).
    fn add_clause(&mut self, lits: &[Lit]);
    /// Makes sure every variable of `lits` exists.
    fn reserve_vars_of(&mut self, lits: &[Lit]) {
        if let Some(m) = lits.iter().map(|l| l.vidx32() + 1).max() {
            self.reserve_vars(m);
        }
    }
    /// A fresh variable.
    fn new_var(&mut self) -> Var {
        let v = self.n_vars();
        self.reserve_vars(v + 1);
        Var::new(v)
    }
}

/// The `n_vars` and `reserve_vars` of a [`ClauseSink`] that only numbers its variables, in a
/// field `n_vars: u32` (variables `0..n_vars` exist).
macro_rules! numbered_vars {
    () => {
        fn n_vars(&self) -> u32 {
            self.n_vars
        }
        fn reserve_vars(&mut self, n: u32) {
            self.n_vars = self.n_vars.max(n);
        }
    };
}
pub(crate) use numbered_vars;

/// A CNF formula: one flat literal buffer plus clause end offsets.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cnf {
    n_vars: u32,
    lits: Vec<Lit>,
    ends: Vec<usize>,
}

impl Cnf {
    pub fn new() -> Cnf {
        Cnf::default()
    }
    /// Empties the formula, keeping its buffers.
    pub fn clear(&mut self) {
        self.n_vars = 0;
        self.lits.clear();
        self.ends.clear();
    }
    pub fn n_clauses(&self) -> usize {
        self.ends.len()
    }
    /// Total number of literal occurrences.
    pub fn n_lits(&self) -> usize {
        self.lits.len()
    }
    /// The clauses, in the order they were added.
    pub fn clauses(&self) -> impl ExactSizeIterator<Item = &[Lit]> + '_ {
        self.ends.iter().enumerate().map(|(i, &end)| {
            let start = if i == 0 { 0 } else { self.ends[i - 1] };
            &self.lits[start..end]
        })
    }
    /// Adds every clause of this formula to `sink` (and its variables).
    pub fn feed(&self, sink: &mut impl ClauseSink) {
        sink.reserve_vars(self.n_vars);
        for c in self.clauses() {
            sink.add_clause(c);
        }
    }
}

impl ClauseSink for Cnf {
    numbered_vars!();
    fn add_clause(&mut self, lits: &[Lit]) {
        self.reserve_vars_of(lits);
        self.lits.extend_from_slice(lits);
        self.ends.push(self.lits.len());
    }
}

/// The varisat literal for a rustsat literal.
pub fn to_varisat(l: Lit) -> varisat::Lit {
    varisat::Lit::from_index(l.vidx(), l.is_pos())
}

/// An in-process varisat solver as a clause sink.
pub struct VarisatSink<'a> {
    pub solver: varisat::Solver<'a>,
    n_vars: u32,
    buf: Vec<varisat::Lit>,
    /// The conflicts counted from the proof, and where each call reports them
    /// ([`VarisatSink::metered`]).
    effort: Option<(Rc<Counted>, Reporter)>,
}

impl<'a> VarisatSink<'a> {
    pub fn new(solver: varisat::Solver<'a>) -> VarisatSink<'a> {
        VarisatSink {
            solver,
            n_vars: 0,
            buf: Vec::new(),
            effort: None,
        }
    }

    /// A sink that reports to `meter`, after each call, the conflicts a
    /// [`tally::ConflictTally`] on `solver`'s proof counted.
    pub fn metered(
        solver: varisat::Solver<'a>,
        counted: Rc<Counted>,
        meter: Meter,
    ) -> VarisatSink<'a> {
        VarisatSink {
            effort: Some((counted, Reporter::new(meter))),
            ..VarisatSink::new(solver)
        }
    }
}

/// Solves `cnf` with a fresh varisat solver: the model as DIMACS literals (every variable,
/// positive when true), `None` when unsatisfiable. For reading back an exported formula, e.g.
/// with [`encode::decode_dimacs_model`].
pub fn varisat_model(cnf: &Cnf) -> Result<Option<Vec<i64>>, varisat::solver::SolverError> {
    let mut sink = VarisatSink::new(varisat::Solver::new());
    cnf.feed(&mut sink);
    if !sink.solver.solve()? {
        return Ok(None);
    }
    Ok(sink
        .solver
        .model()
        .map(|m| m.iter().map(|l| l.to_dimacs() as i64).collect()))
}

impl ClauseSink for VarisatSink<'_> {
    fn n_vars(&self) -> u32 {
        self.n_vars
    }
    fn reserve_vars(&mut self, n: u32) {
        self.n_vars = self.n_vars.max(n);
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        use varisat::ExtendFormula;
        self.buf.clear();
        self.buf.extend(lits.iter().map(|&l| to_varisat(l)));
        self.reserve_vars_of(lits);
        self.solver.add_clause(&self.buf);
    }
}

impl maxsat::Oracle for VarisatSink<'_> {
    fn solve_assuming(&mut self, assumptions: &[Lit]) -> Result<bool, BackendError> {
        let lits: Vec<varisat::Lit> = assumptions.iter().map(|&l| to_varisat(l)).collect();
        self.solver.assume(&lits);
        let result = self.solver.solve();
        if let Some((conflicts, reporter)) = &mut self.effort {
            reporter.report(Effort {
                conflicts: conflicts.conflicts(),
                ..Effort::default()
            });
        }
        // A proof writer failing with `TimedOut` is how a run stops varisat at its deadline
        // (`run::StopWriter`).
        match result {
            Err(varisat::solver::SolverError::ProofIoError { cause })
                if cause.kind() == std::io::ErrorKind::TimedOut =>
            {
                Err(BackendError::TimedOut)
            }
            r => r.map_err(failed),
        }
    }
    fn core(&mut self) -> Result<Vec<Lit>, BackendError> {
        let core = self
            .solver
            .failed_core()
            .ok_or_else(|| failed("varisat reported no core"))?;
        Ok(core
            .iter()
            .map(|l| Var::new(l.index() as u32).lit(l.is_negative()))
            .collect())
    }
    fn values(&mut self, n: usize) -> Result<Vec<bool>, BackendError> {
        let model = self
            .solver
            .model()
            .ok_or_else(|| failed("varisat reported SAT without a model"))?;
        let mut value = vec![false; n];
        for l in model {
            if l.is_positive() && l.index() < n {
                value[l.index()] = true;
            }
        }
        Ok(value)
    }
}

/// A solver failure, as the backends report it.
pub(crate) fn failed(e: impl std::fmt::Display) -> BackendError {
    BackendError::Failed(e.to_string())
}

/// Adapts a [`ClauseSink`] to rustsat's clause collector and variable manager, so rustsat's
/// encodings (at-most-one, pseudo-Boolean) write straight into the sink.
pub struct RsCollector<'s, S: ClauseSink + ?Sized> {
    pub sink: &'s mut S,
}

/// Fresh variables for a rustsat encoding, starting after the sink's; hand the final count
/// back with [`ClauseSink::reserve_vars`] (see [`with_rustsat`]).
pub struct RsVars {
    next: u32,
}

/// Runs a rustsat encoding into `sink`: `f` gets the clause collector and the variable manager.
pub fn with_rustsat<S: ClauseSink + ?Sized, R>(
    sink: &mut S,
    f: impl FnOnce(&mut RsCollector<'_, S>, &mut RsVars) -> R,
) -> R {
    let mut vars = RsVars {
        next: sink.n_vars(),
    };
    let r = {
        let mut col = RsCollector { sink: &mut *sink };
        f(&mut col, &mut vars)
    };
    sink.reserve_vars(vars.next);
    r
}

impl<S: ClauseSink + ?Sized> CollectClauses for RsCollector<'_, S> {
    fn n_clauses(&self) -> usize {
        0 // not tracked; rustsat only uses it for statistics
    }
    fn extend_clauses<T>(&mut self, cl_iter: T) -> Result<(), rustsat::OutOfMemory>
    where
        T: IntoIterator<Item = rustsat::types::Clause>,
    {
        for cl in cl_iter {
            self.sink.add_clause(&cl[..]);
        }
        Ok(())
    }
}

impl ManageVars for RsVars {
    fn new_var(&mut self) -> Var {
        self.next += 1;
        Var::new(self.next - 1)
    }
    fn max_var(&self) -> Option<Var> {
        self.next.checked_sub(1).map(Var::new)
    }
    fn increase_next_free(&mut self, v: Var) -> bool {
        let grew = v.idx32() > self.next;
        self.next = self.next.max(v.idx32());
        grew
    }
    fn combine(&mut self, other: Self) {
        self.next = self.next.max(other.next);
    }
    fn n_used(&self) -> u32 {
        self.next
    }
    fn forget_from(&mut self, min_var: Var) {
        self.next = self.next.min(min_var.idx32());
    }
}
