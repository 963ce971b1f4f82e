//! What the in-process SAT engines did, as [`Effort`] counters, reported to a [`Meter`] after
//! each solver call (so that a call stopped by the deadline still reports its work).
//!
//! * varisat has no statistics call. Its proof, handed to a proof processor
//!   ([`ConflictTally`]), shows every clause it learns: one per conflict, so the learned clauses
//!   are its conflicts. Nothing in the proof tells decisions, propagations or restarts, so
//!   those stay "not measured". Attaching a processor turns on varisat's self-checking proof
//!   checker, which costs time (docs/benchmarks.md, "Effort counters"): it is attached only
//!   when a meter is on.
//! * CaDiCaL's own statistics: decisions (the assumptions it sets are not decisions),
//!   conflicts and propagations (literals propagated); rustsat does not expose its restarts.

use std::cell::Cell;
use std::rc::Rc;

use varisat::checker::{CheckedProofStep, CheckerData, ProofProcessor};

use crate::effort::{Effort, Meter};

/// Counts varisat's conflicts from its proof. A conflict is a learned clause: an asymmetric
/// tautology derived by conflict analysis, which resolves the conflicting clause with at least
/// one reason (so its derivation names two clauses or more), or the empty clause of a conflict
/// with no decision. Varisat's other derived clauses, the shortenings of clauses by the
/// literals fixed at the root, name one clause and are not counted.
#[derive(Debug, Default)]
pub struct ConflictTally {
    conflicts: Rc<Cell<u64>>,
}

impl ConflictTally {
    /// The count, shared: it goes on growing while the solver that holds the tally runs.
    pub fn conflicts(&self) -> Rc<Cell<u64>> {
        self.conflicts.clone()
    }
}

impl ProofProcessor for ConflictTally {
    fn process_step(
        &mut self,
        step: &CheckedProofStep,
        _data: CheckerData,
    ) -> Result<(), anyhow::Error> {
        if let CheckedProofStep::AtClause {
            clause,
            propagations,
            ..
        } = step
        {
            if clause.is_empty() || propagations.len() >= 2 {
                self.conflicts.set(self.conflicts.get() + 1);
            }
        }
        Ok(())
    }
}

/// Reports to a meter the growth of an engine's cumulative counters since the last report.
#[derive(Debug, Default)]
pub struct Reporter {
    meter: Meter,
    reported: Effort,
}

impl Reporter {
    pub fn new(meter: Meter) -> Reporter {
        Reporter {
            meter,
            reported: Effort::default(),
        }
    }

    /// Records `now` (the engine's counters since it was built) minus what was reported
    /// before; the counters `now` leaves `None` stay unmeasured.
    pub fn report(&mut self, now: Effort) {
        let mut delta = Effort::default();
        for (name, value) in now.counters() {
            if let Some(v) = value {
                delta.set(name, v.saturating_sub(self.reported.get(name).unwrap_or(0)));
            }
        }
        self.meter.record(&delta);
        self.reported = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use varisat::{ExtendFormula, Lit};

    /// Learned clauses are counted, root shortenings are not: the pigeonhole formula "three
    /// pigeons, two holes" needs conflicts; a formula refuted by unit propagation alone makes one
    /// (the empty clause), and a satisfiable one solved by propagation none.
    #[test]
    fn conflicts_are_the_learned_clauses() {
        let count = |clauses: &[&[isize]]| {
            let mut tally = ConflictTally::default();
            let seen = tally.conflicts();
            {
                let mut solver = varisat::Solver::new();
                solver.add_proof_processor(&mut tally);
                for c in clauses {
                    let lits: Vec<Lit> = c.iter().map(|&l| Lit::from_dimacs(l)).collect();
                    solver.add_clause(&lits);
                }
                solver.solve().unwrap();
            }
            seen.get()
        };
        // p(i, h) = 2i + h + 1: pigeon i in hole h.
        let mut php: Vec<Vec<isize>> = (0..3).map(|i| vec![2 * i + 1, 2 * i + 2]).collect();
        for h in 1..=2 {
            for i in 0..3 {
                for j in i + 1..3 {
                    php.push(vec![-(2 * i + h), -(2 * j + h)]);
                }
            }
        }
        let php: Vec<&[isize]> = php.iter().map(|c| &c[..]).collect();
        assert!(count(&php) >= 2);
        assert_eq!(count(&[&[1], &[-1, 2], &[-2]]), 1);
        assert_eq!(count(&[&[1], &[-1, 2], &[2, 3, 4]]), 0);
    }

    #[test]
    fn the_reporter_records_growth() {
        let meter = Meter::new();
        let mut r = Reporter::new(meter.clone());
        let at = |c| Effort {
            conflicts: Some(c),
            ..Effort::default()
        };
        r.report(at(4));
        r.report(at(4));
        r.report(at(10));
        assert_eq!(meter.read(), at(10));
        assert_eq!(meter.read().decisions, None);
    }
}
