//! Search effort: what a backend's engine did to reach its answer, in named counters.
//!
//! Every counter is optional, so that "not measured" is never shown as 0: a backend fills in the
//! counters its engine can tell and leaves the others `None`. The meaning of each counter is
//! fixed here; docs/backends.md says which backend reports which, and how its engine counts it.
//!
//! A backend reports to the [`Meter`] in the [`Limits`](crate::backend::Limits) it is given
//! ([`Limits::record`](crate::backend::Limits::record)); a caller that wants the figures puts a
//! meter there ([`Limits::metered`](crate::backend::Limits::metered)) and reads it after the call.
//! A call that records several times (a count that restarts its solver, an optimisation that
//! solves many times) adds up.
//!
//! "No guess" follows tdoku's benchmark tables: a puzzle is solved without a guess when the
//! search made no branch point ([`Effort::guesses`]) or, for a solver that reports decisions
//! instead, no decision ([`Effort::decisions`]); givens are never decisions.

use std::sync::{Arc, Mutex};

/// Named effort counters of one or more backend calls. `None` means "not measured".
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Effort {
    /// Branch points: nodes of the search tree where more than one choice was tried or left to
    /// try (a cell or a constraint column with two or more candidates).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guesses: Option<u64>,
    /// Search-tree nodes visited, the root included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Decisions of a CDCL or CP search: literals or domain choices set by the search rather
    /// than derived (assumptions and givens excluded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decisions: Option<u64>,
    /// Conflicts met (for a CDCL solver, the clauses it learned).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conflicts: Option<u64>,
    /// Propagations, as the engine counts them (literals propagated, or propagator calls).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub propagations: Option<u64>,
    /// Restarts of the search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restarts: Option<u64>,
    /// Simplex iterations of an LP solver, over every relaxation solved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lp_iterations: Option<u64>,
    /// Branch-and-bound nodes of a MIP solver.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bb_nodes: Option<u64>,
}

/// The counters' names, in the order tables show them.
pub const COUNTERS: [&str; 8] = [
    "guesses",
    "nodes",
    "decisions",
    "conflicts",
    "propagations",
    "restarts",
    "lp_iterations",
    "bb_nodes",
];

impl Effort {
    /// Each counter with its name, in [`COUNTERS`] order.
    pub fn counters(&self) -> [(&'static str, Option<u64>); 8] {
        [
            ("guesses", self.guesses),
            ("nodes", self.nodes),
            ("decisions", self.decisions),
            ("conflicts", self.conflicts),
            ("propagations", self.propagations),
            ("restarts", self.restarts),
            ("lp_iterations", self.lp_iterations),
            ("bb_nodes", self.bb_nodes),
        ]
    }

    /// The counter called `name` (one of [`COUNTERS`]); `None` for an unknown name too.
    pub fn get(&self, name: &str) -> Option<u64> {
        self.counters()
            .into_iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| v)
    }

    /// Sets the counter called `name`; returns `false` (and changes nothing) for an unknown name.
    pub fn set(&mut self, name: &str, value: u64) -> bool {
        let slot = match name {
            "guesses" => &mut self.guesses,
            "nodes" => &mut self.nodes,
            "decisions" => &mut self.decisions,
            "conflicts" => &mut self.conflicts,
            "propagations" => &mut self.propagations,
            "restarts" => &mut self.restarts,
            "lp_iterations" => &mut self.lp_iterations,
            "bb_nodes" => &mut self.bb_nodes,
            _ => return false,
        };
        *slot = Some(value);
        true
    }

    /// Whether no counter was measured.
    pub fn is_empty(&self) -> bool {
        self.counters().iter().all(|(_, v)| v.is_none())
    }

    /// Adds `other` counter by counter: measured plus measured is the sum, measured plus "not
    /// measured" keeps the measured figure.
    pub fn add(&mut self, other: &Effort) {
        fn plus(a: &mut Option<u64>, b: Option<u64>) {
            if let Some(b) = b {
                *a = Some(a.unwrap_or(0).saturating_add(b));
            }
        }
        plus(&mut self.guesses, other.guesses);
        plus(&mut self.nodes, other.nodes);
        plus(&mut self.decisions, other.decisions);
        plus(&mut self.conflicts, other.conflicts);
        plus(&mut self.propagations, other.propagations);
        plus(&mut self.restarts, other.restarts);
        plus(&mut self.lp_iterations, other.lp_iterations);
        plus(&mut self.bb_nodes, other.bb_nodes);
    }

    /// The guess count tables show: branch points when the backend counts them, otherwise its
    /// decisions; `None` when it reports neither.
    pub fn guesses_or_decisions(&self) -> Option<u64> {
        self.guesses.or(self.decisions)
    }

    /// Whether the answer needed no guess (see the module documentation); `None` when the
    /// backend reports neither guesses nor decisions.
    pub fn no_guess(&self) -> Option<bool> {
        self.guesses_or_decisions().map(|g| g == 0)
    }
}

/// Where a backend reports its effort during one call; shared, so that a clone of a
/// [`Limits`](crate::backend::Limits) reports to the same place. The default meter measures
/// nothing and costs nothing.
#[derive(Debug, Clone, Default)]
pub struct Meter(Option<Arc<Mutex<Effort>>>);

impl Meter {
    /// A meter that keeps what is recorded.
    pub fn new() -> Meter {
        Meter(Some(Arc::default()))
    }
    /// Whether anyone reads this meter: a backend may skip work done only to measure when not.
    pub fn is_on(&self) -> bool {
        self.0.is_some()
    }
    /// Adds `effort` to what the meter holds (nothing when the meter is off).
    pub fn record(&self, effort: &Effort) {
        if let Some(m) = &self.0 {
            m.lock().unwrap_or_else(|p| p.into_inner()).add(effort);
        }
    }
    /// What has been recorded so far (empty when the meter is off).
    pub fn read(&self) -> Effort {
        match &self.0 {
            Some(m) => *m.lock().unwrap_or_else(|p| p.into_inner()),
            None => Effort::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adding_keeps_not_measured_apart_from_zero() {
        let mut a = Effort {
            guesses: Some(2),
            ..Effort::default()
        };
        a.add(&Effort {
            guesses: Some(3),
            conflicts: Some(0),
            ..Effort::default()
        });
        assert_eq!(a.guesses, Some(5));
        assert_eq!(a.conflicts, Some(0));
        assert_eq!(a.decisions, None);
        assert_eq!(a.no_guess(), Some(false));
        assert!(Effort::default().is_empty());
        assert_eq!(Effort::default().no_guess(), None);
    }

    #[test]
    fn names_round_trip() {
        let mut e = Effort::default();
        for (i, name) in COUNTERS.iter().enumerate() {
            assert!(e.set(name, i as u64 + 1));
        }
        assert!(!e.set("bogus", 1));
        for (i, name) in COUNTERS.iter().enumerate() {
            assert_eq!(e.get(name), Some(i as u64 + 1));
        }
        let json = serde_json::to_string(&Effort {
            nodes: Some(7),
            ..Effort::default()
        })
        .unwrap();
        assert_eq!(json, r#"{"nodes":7}"#);
    }

    #[test]
    fn a_meter_off_records_nothing_and_clones_share() {
        let off = Meter::default();
        off.record(&Effort {
            nodes: Some(1),
            ..Effort::default()
        });
        assert!(off.read().is_empty());
        let on = Meter::new();
        let other = on.clone();
        other.record(&Effort {
            nodes: Some(4),
            ..Effort::default()
        });
        on.record(&Effort {
            nodes: Some(1),
            ..Effort::default()
        });
        assert_eq!(on.read().nodes, Some(5));
    }
}
