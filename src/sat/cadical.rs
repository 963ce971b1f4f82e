//! CaDiCaL (through rustsat) as an incremental [`Oracle`], with one of its option presets; a
//! terminator stops it at the deadline or when its run is cancelled (feature `cadical`).

use rustsat::solvers::{
    ControlSignal, GetInternalStats, Solve, SolveIncremental, SolverResult, Terminate,
};
use rustsat::types::TernaryVal;
use rustsat_cadical::CaDiCaL;

use super::maxsat::Oracle;
use super::options::CadicalConfig;
use super::tally::Reporter;
use super::{failed, ClauseSink, Lit, Var};
use crate::answer::BackendError;
use crate::cancel::Cancel;
use crate::effort::{Effort, Meter};

/// A CaDiCaL solver as a clause sink and an [`Oracle`].
pub struct CadicalSink {
    solver: CaDiCaL<'static, 'static>,
    n_vars: u32,
    /// Reports CaDiCaL's statistics after each call, when metered ([`super::tally`]).
    reporter: Option<Reporter>,
}

impl CadicalSink {
    /// A solver with one single preset (not `auto` / `race`, which [`CadicalConfig::presets`]
    /// resolves), stopped at `deadline` or once `stop` is set, reporting its statistics to
    /// `meter` (when it is on) after each call.
    pub fn new(
        deadline: Option<std::time::Instant>,
        config: CadicalConfig,
        stop: Cancel,
        meter: Meter,
    ) -> Result<CadicalSink, BackendError> {
        let mut solver = CaDiCaL::default();
        let preset = match config {
            CadicalConfig::Sat => rustsat_cadical::Config::Sat,
            CadicalConfig::Unsat => rustsat_cadical::Config::Unsat,
            CadicalConfig::Plain => rustsat_cadical::Config::Plain,
            CadicalConfig::Default | CadicalConfig::Auto | CadicalConfig::Race => {
                rustsat_cadical::Config::Default
            }
        };
        // Only possible before any clause is added, which is the case here.
        solver.set_configuration(preset).map_err(failed)?;
        solver.attach_terminator(move || {
            if stop.is_set() || deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                ControlSignal::Terminate
            } else {
                ControlSignal::Continue
            }
        });
        Ok(CadicalSink {
            solver,
            n_vars: 0,
            reporter: meter.is_on().then(|| Reporter::new(meter)),
        })
    }
}

impl ClauseSink for CadicalSink {
    crate::sat::numbered_vars!();
    fn add_clause(&mut self, lits: &[Lit]) {
        self.reserve_vars_of(lits);
        // Only fails on out-of-memory, which CaDiCaL reports by aborting anyway.
        let _ = self.solver.add_clause_ref(lits);
    }
}

impl Oracle for CadicalSink {
    fn solve_assuming(&mut self, assumptions: &[Lit]) -> Result<bool, BackendError> {
        let result = self.solver.solve_assumps(assumptions);
        if let Some(reporter) = &mut self.reporter {
            reporter.report(Effort {
                decisions: Some(self.solver.decisions() as u64),
                conflicts: Some(self.solver.conflicts() as u64),
                propagations: Some(self.solver.propagations() as u64),
                ..Effort::default()
            });
        }
        match result.map_err(failed)? {
            SolverResult::Sat => Ok(true),
            SolverResult::Unsat => Ok(false),
            SolverResult::Interrupted => Err(BackendError::TimedOut),
        }
    }
    fn core(&mut self) -> Result<Vec<Lit>, BackendError> {
        // rustsat gives the core as a clause: the negated assumptions.
        Ok(self
            .solver
            .core()
            .map_err(failed)?
            .into_iter()
            .map(|l| !l)
            .collect())
    }
    fn values(&mut self, n: usize) -> Result<Vec<bool>, BackendError> {
        (0..n)
            .map(|v| {
                let l = Var::new(v as u32).pos_lit();
                Ok(self.solver.lit_val(l).map_err(failed)? == TernaryVal::True)
            })
            .collect()
    }
}
