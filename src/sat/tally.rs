//! What the in-process SAT engines did, as [`Effort`] counters, reported to a [`Meter`] after
//! each solver call (so that a call stopped by the deadline still reports its work).
//!
//! * varisat has no statistics call. Its proof (in varisat's own format, read as it is written
//!   by [`ConflictTally`]) shows every clause it learns: one per conflict, so the learned clauses
//!   are its conflicts. Nothing in the proof tells decisions, propagations or restarts, so those
//!   stay "not measured". Writing the proof costs time (docs/benchmarks.md, "Effort counters"):
//!   it is written only when a meter is on, or when a deadline needs it anyway
//!   ([`super::run`]).
//! * CaDiCaL's own statistics: decisions (the assumptions it sets are not decisions),
//!   conflicts and propagations (literals propagated); rustsat does not expose its restarts.

use std::cell::Cell;
use std::io::{self, Write};
use std::rc::Rc;

use varisat_internal_proof::binary_format::Parser;
use varisat_internal_proof::ProofStep;

use crate::effort::{Effort, Meter};

/// What a [`ConflictTally`] counted so far, shared with whoever reports it.
#[derive(Debug, Default)]
pub struct Counted {
    conflicts: Cell<u64>,
    /// The proof could not be read (a step longer than [`LONGEST_STEP`]): the count is short.
    lost: Cell<bool>,
}

impl Counted {
    /// The conflicts so far; `None` once the proof could not be read.
    pub fn conflicts(&self) -> Option<u64> {
        (!self.lost.get()).then(|| self.conflicts.get())
    }
}

/// Longest proof step (in bytes) a [`ConflictTally`] waits for before it gives up reading.
const LONGEST_STEP: usize = 64 << 20;

/// A target for varisat's proof in its own format (`ProofFormat::Varisat`) that counts the
/// conflicts as the proof goes by, and hands every byte on to `then` (a writer that stops the
/// solver at its deadline), or drops it. A conflict is a clause learned by conflict analysis:
/// an asymmetric tautology whose derivation names two clauses or more (the conflicting clause
/// and at least one reason), or the empty clause of a conflict with no decision. Varisat's other
/// derived clauses, the shortenings of clauses by literals fixed at the root, name one clause;
/// the literals fixed at the root come in steps of their own. Neither is counted.
pub struct ConflictTally {
    then: Option<Box<dyn Write>>,
    pending: Vec<u8>,
    parser: Parser,
    counted: Rc<Counted>,
}

impl ConflictTally {
    pub fn new(then: Option<Box<dyn Write>>) -> ConflictTally {
        ConflictTally {
            then,
            pending: Vec::new(),
            parser: Parser::default(),
            counted: Rc::default(),
        }
    }

    /// The count, shared: it goes on growing while the solver writes.
    pub fn counted(&self) -> Rc<Counted> {
        self.counted.clone()
    }

    /// Reads the complete steps of the proof so far; a partial step waits for its end.
    fn read(&mut self, bytes: &[u8]) {
        if self.counted.lost.get() {
            return;
        }
        self.pending.extend_from_slice(bytes);
        let mut done = 0;
        while done < self.pending.len() {
            let mut rest = &self.pending[done..];
            let conflict = match self.parser.parse_step(&mut rest) {
                Ok(ProofStep::AtClause {
                    clause,
                    propagation_hashes,
                    ..
                }) => clause.is_empty() || propagation_hashes.len() >= 2,
                Ok(_) => false,
                Err(_) => break,
            };
            if conflict {
                self.counted.conflicts.set(self.counted.conflicts.get() + 1);
            }
            done = self.pending.len() - rest.len();
        }
        self.pending.drain(..done);
        if self.pending.len() > LONGEST_STEP {
            self.counted.lost.set(true);
            self.pending = Vec::new();
        }
    }
}

impl Write for ConflictTally {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = match &mut self.then {
            Some(w) => w.write(buf)?,
            None => buf.len(),
        };
        self.read(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        match &mut self.then {
            Some(w) => w.flush(),
            None => Ok(()),
        }
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

    /// Learned clauses are counted, root shortenings and root units are not: the pigeonhole
    /// formula "three pigeons, two holes" needs conflicts; a formula refuted by unit propagation
    /// alone makes one (the empty clause), and a satisfiable one solved by propagation none.
    #[test]
    fn conflicts_are_the_learned_clauses() {
        let count = |clauses: &[&[isize]]| {
            let tally = ConflictTally::new(None);
            let seen = tally.counted();
            {
                let mut solver = varisat::Solver::new();
                solver.write_proof(tally, varisat::ProofFormat::Varisat);
                for c in clauses {
                    let lits: Vec<Lit> = c.iter().map(|&l| Lit::from_dimacs(l)).collect();
                    solver.add_clause(&lits);
                }
                solver.solve().unwrap();
            }
            seen.conflicts().unwrap()
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
        assert_eq!(count(&[&[1], &[-1, 2], &[2, 3, 4], &[-2, 5, 6]]), 0);
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
