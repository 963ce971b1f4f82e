//! The `strength` table: every level's [`Root`] on every puzzle under every encoding
//! ([`Study::derive_all`]), summed into one [`Row`] per level and encoding ([`Study::rows`]), and
//! the weakest level that solves each puzzle ([`Study::weakest`]). The `strength` command and
//! the Python module both build their rows here.

use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::Serialize;

use super::cnf::{CnfLevel, CnfProber};
use super::model::{self, ModelLevel};
use super::{Root, StrengthError, Summary};
use crate::cancel::Cancel;
use crate::model::Puzzle;
use crate::named::UnknownName;
use crate::sat::encode::{Amo, CageEncoding, EncodeOptions, Encoding, PairEncoding};
use crate::sat::memory::{check_memory, Holder};
use crate::sat::options::SatOptions;

/// A level: over the clause list of an encoding, or over the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Cnf(CnfLevel),
    Model(ModelLevel),
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Cnf(l) => l.name(),
            Level::Model(l) => l.name(),
        }
    }
    fn is_model(self) -> bool {
        matches!(self, Level::Model(_))
    }
}

impl FromStr for Level {
    type Err = UnknownName;
    /// A CNF level's name, else a model level's.
    fn from_str(s: &str) -> Result<Level, UnknownName> {
        s.parse::<CnfLevel>()
            .map(Level::Cnf)
            .or_else(|_| s.parse::<ModelLevel>().map(Level::Model))
            .map_err(|_| {
                let names: Vec<&str> = CnfLevel::ALL
                    .iter()
                    .map(|l| l.name())
                    .chain(ModelLevel::ALL.iter().map(|l| l.name()))
                    .collect();
                UnknownName {
                    what: "level",
                    name: s.to_string(),
                    choices: names.join(", "),
                }
            })
    }
}

/// One row of the table: a level (under an encoding and an at-most-one encoding, `-` for the
/// model levels) summed over the puzzles of a file ([`Summary`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    pub file: String,
    pub encoding: &'static str,
    pub amo: &'static str,
    pub level: &'static str,
    pub puzzles: usize,
    pub solved_pct: f64,
    pub unassigned_pct: Option<f64>,
    pub unassigned_vars_pct: Option<f64>,
    pub contradictions: usize,
}

/// What to derive: every level under every encoding. A puzzle's roots are listed encoding by
/// encoding, each with one [`Root`] per level, in order.
#[derive(Debug, Clone)]
pub struct Study {
    /// Every encoding × at-most-one encoding asked for.
    pub encodings: Vec<EncodeOptions>,
    /// Weakest first: [`Study::weakest`] names the first that solves.
    pub levels: Vec<Level>,
}

impl Study {
    /// Every encoding of `encodings` with every at-most-one encoding of `amo` (unsimplified: the
    /// levels see the whole formula), with these cage and pair encodings.
    pub fn new(
        encodings: &[Encoding],
        amo: &[Amo],
        cage: CageEncoding,
        pair: PairEncoding,
        levels: Vec<Level>,
    ) -> Study {
        let encodings = encodings
            .iter()
            .flat_map(|&encoding| {
                amo.iter().map(move |&amo| EncodeOptions {
                    encoding,
                    amo,
                    simplify: false,
                    propagate: false,
                    cage,
                    pair,
                })
            })
            .collect();
        Study { encodings, levels }
    }

    /// The roots of one puzzle: for each encoding, each level. An error when its formula would
    /// not fit in memory.
    pub fn derive(
        &self,
        puzzle: &Puzzle,
        prober: &mut CnfProber,
    ) -> Result<Vec<Root>, StrengthError> {
        let mut roots = Vec::with_capacity(self.encodings.len() * self.levels.len());
        // Model levels do not depend on the encoding: derived once.
        let mut by_model = Vec::new();
        for level in &self.levels {
            if let Level::Model(m) = *level {
                by_model.push((m, model::derive(puzzle, m)?));
            }
        }
        for opts in &self.encodings {
            let sat = SatOptions {
                encoding: opts.encoding,
                amo: opts.amo,
                cage: opts.cage,
                pair: opts.pair,
                simplify: false,
                propagate: false,
                ..SatOptions::default()
            };
            check_memory(puzzle, &sat, Holder::Cnf, 1, "strength")?;
            prober.encode(puzzle, opts);
            for &level in &self.levels {
                roots.push(match level {
                    Level::Cnf(l) => prober.derive(puzzle, l),
                    Level::Model(m) => by_model
                        .iter()
                        .find(|(k, _)| *k == m)
                        .map_or_else(Root::default, |(_, r)| *r),
                });
            }
        }
        Ok(roots)
    }

    /// [`Study::derive`] on every puzzle, on `jobs` threads, calling `done` after each puzzle;
    /// the results in the puzzles' order. Once `cancel` is set, no more puzzles start (those
    /// left are errors, "cancelled").
    pub fn derive_all(
        &self,
        puzzles: &[&Puzzle],
        jobs: usize,
        cancel: Option<&Cancel>,
        done: &(dyn Fn() + Sync),
    ) -> Vec<Result<Vec<Root>, StrengthError>> {
        let next = AtomicUsize::new(0);
        let work = || {
            let mut prober = CnfProber::new();
            let mut derived = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(puzzle) = puzzles.get(i) else { break };
                if cancel.is_some_and(Cancel::is_set) {
                    break;
                }
                derived.push((i, self.derive(puzzle, &mut prober)));
                done();
            }
            derived
        };
        let mut results: Vec<Result<Vec<Root>, StrengthError>> =
            vec![Err(StrengthError::Cancelled); puzzles.len()];
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..jobs.min(puzzles.len()).max(1))
                .map(|_| s.spawn(work))
                .collect();
            for h in handles {
                // A worker cannot panic short of a bug; its puzzles are then left out.
                for (i, r) in h.join().unwrap_or_default() {
                    results[i] = r;
                }
            }
        });
        results
    }

    /// The rows of one file, `file` naming it, from its puzzles' roots (`None`: left out): the
    /// model levels first (one row each, encoding `-`: they do not depend on the encoding), then
    /// each encoding's CNF levels.
    pub fn rows(&self, file: &str, roots: &[Option<Vec<Root>>]) -> Vec<Row> {
        let mut order: Vec<(usize, usize)> = Vec::new();
        for model_rows in [true, false] {
            for e in 0..self.encodings.len() {
                for (l, level) in self.levels.iter().enumerate() {
                    if level.is_model() == model_rows && (!level.is_model() || e == 0) {
                        order.push((e, l));
                    }
                }
            }
        }
        order
            .into_iter()
            .map(|(e, l)| {
                let (opts, level) = (&self.encodings[e], self.levels[l]);
                let mut s = Summary::default();
                for r in roots.iter().flatten() {
                    s.add(&r[e * self.levels.len() + l]);
                }
                let (encoding, amo) = match level.is_model() {
                    true => ("-", "-"),
                    false => (opts.encoding.name(), opts.amo.name()),
                };
                Row {
                    file: file.to_string(),
                    encoding,
                    amo,
                    level: level.name(),
                    puzzles: s.puzzles,
                    solved_pct: s.solved_pct(),
                    unassigned_pct: s.unassigned_pct(),
                    unassigned_vars_pct: s.unassigned_vars_pct(),
                    contradictions: s.contradictions,
                }
            })
            .collect()
    }

    /// For each encoding, the first level whose root on this puzzle (`roots`, as
    /// [`Study::derive`] gives them) is solved, `refuted` when a level before it found a
    /// contradiction, or `none`.
    pub fn weakest<'a>(&'a self, roots: &[Root]) -> Vec<(&'a EncodeOptions, &'static str)> {
        let n = self.levels.len();
        self.encodings
            .iter()
            .zip(roots.chunks(n.max(1)))
            .map(|(opts, at)| (opts, weakest_level(&self.levels, at)))
            .collect()
    }
}

/// The first of `levels` whose root is solved, `refuted` for a contradiction, or `none`.
fn weakest_level(levels: &[Level], roots: &[Root]) -> &'static str {
    for (level, root) in levels.iter().zip(roots) {
        if root.contradiction {
            return "refuted";
        }
        if root.solved() {
            return level.name();
        }
    }
    "none"
}
