//! The `strength` table: every level's [`Root`] on every puzzle under every encoding
//! ([`Study::derive_all`]), summed into one [`Row`] per level and encoding ([`Study::rows`]), and
//! the weakest level that solves each puzzle ([`Study::weakest`]), and the cross-table of the
//! weakest technique level against the weakest propagation level ([`Study::cross`]). The
//! `strength` command and the Python module both build their rows here.

use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::cnf::{CnfLevel, CnfProber};
use super::model::{self, ModelLevel};
use super::technique::{self, TechniqueLevel};
use super::{Root, StrengthError, Summary};
use crate::cancel::{Cancel, Halt};
use crate::model::Puzzle;
use crate::named::UnknownName;
use crate::sat::encode::{Amo, CageEncoding, EncodeOptions, Encoding, PairEncoding, SumEncoding};
use crate::sat::memory::{check_memory, Holder};
use crate::sat::options::SatOptions;

/// A level: over the clause list of an encoding, over the model, or the logic engine with a
/// set of technique families.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Cnf(CnfLevel),
    Model(ModelLevel),
    Technique(TechniqueLevel),
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Cnf(l) => l.name(),
            Level::Model(l) => l.name(),
            Level::Technique(l) => l.name(),
        }
    }
    /// True for the levels that do not depend on the encoding (model and technique levels).
    fn is_model(self) -> bool {
        !matches!(self, Level::Cnf(_))
    }
    pub fn is_technique(self) -> bool {
        matches!(self, Level::Technique(_))
    }
}

impl FromStr for Level {
    type Err = UnknownName;
    /// A CNF level's name, else a model level's, else a technique level's.
    fn from_str(s: &str) -> Result<Level, UnknownName> {
        s.parse::<CnfLevel>()
            .map(Level::Cnf)
            .or_else(|_| s.parse::<ModelLevel>().map(Level::Model))
            .or_else(|_| s.parse::<TechniqueLevel>().map(Level::Technique))
            .map_err(|_| {
                let names: Vec<&str> = CnfLevel::ALL
                    .iter()
                    .map(|l| l.name())
                    .chain(ModelLevel::ALL.iter().map(|l| l.name()))
                    .chain(TechniqueLevel::ALL.iter().map(|l| l.name()))
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
    /// The time each puzzle's levels may take together ([`Study::with_timeout`]); past it the
    /// puzzle is [`StrengthError::Deadline`].
    pub timeout: Option<Duration>,
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
                    probe: false,
                    cage,
                    pair,
                    sum: SumEncoding::default(),
                })
            })
            .collect();
        Study {
            encodings,
            levels,
            timeout: None,
        }
    }

    /// The same study, each puzzle's levels given `timeout` together (`None`: no limit).
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> Study {
        self.timeout = timeout;
        self
    }

    /// The roots of one puzzle: for each encoding, each level. An error when its formula would
    /// not fit in memory, or [`StrengthError::Deadline`] once `halt` is reached: the CNF probing
    /// levels and the technique levels look at it as they go, the other model levels (root
    /// propagation, quick) before they start.
    pub fn derive(
        &self,
        puzzle: &Puzzle,
        prober: &mut CnfProber,
        halt: &Halt,
    ) -> Result<Vec<Root>, StrengthError> {
        let mut roots = Vec::with_capacity(self.encodings.len() * self.levels.len());
        let check = || match halt.reached() {
            true => Err(StrengthError::Deadline),
            false => Ok(()),
        };
        // Model and technique levels do not depend on the encoding: derived once.
        let mut by_model = Vec::new();
        for &level in &self.levels {
            let root = match level {
                Level::Cnf(_) => continue,
                Level::Model(m) => check().and_then(|()| model::derive(puzzle, m))?,
                Level::Technique(t) => technique::derive_until(puzzle, t, halt)?,
            };
            by_model.push((level, root));
        }
        prober.set_halt(halt.clone());
        for opts in &self.encodings {
            let sat = SatOptions {
                encoding: opts.encoding,
                amo: opts.amo,
                cage: opts.cage,
                pair: opts.pair,
                sum: opts.sum,
                simplify: false,
                propagate: false,
                ..SatOptions::default()
            };
            check_memory(puzzle, &sat, Holder::Cnf, 1, "strength")?;
            prober.encode(puzzle, opts);
            for &level in &self.levels {
                roots.push(match level {
                    Level::Cnf(l) => {
                        let root = prober.derive(puzzle, l);
                        if prober.stopped() {
                            return Err(StrengthError::Deadline);
                        }
                        root
                    }
                    _ => by_model
                        .iter()
                        .find(|(k, _)| *k == level)
                        .map_or_else(Root::default, |(_, r)| *r),
                });
            }
        }
        Ok(roots)
    }

    /// [`Study::derive`] on every puzzle, on `jobs` threads, calling `done` after each puzzle;
    /// the results in the puzzles' order. Each puzzle gets [`Study::timeout`] from its start.
    /// Once `cancel` is set, no more puzzles start (those left are errors, "cancelled"), and the
    /// ones under way stop as at their deadline.
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
                let halt = Halt {
                    deadline: self.timeout.map(|t| Instant::now() + t),
                    cancel: cancel.cloned(),
                };
                derived.push((i, self.derive(puzzle, &mut prober, &halt)));
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
        self.weakest_among(roots, |_| true)
    }

    /// [`Study::weakest`] among the levels that `keep` picks only.
    fn weakest_among<'a>(
        &'a self,
        roots: &[Root],
        keep: impl Fn(Level) -> bool,
    ) -> Vec<(&'a EncodeOptions, &'static str)> {
        let n = self.levels.len();
        self.encodings
            .iter()
            .zip(roots.chunks(n.max(1)))
            .map(|(opts, at)| (opts, weakest_level(&self.levels, at, &keep)))
            .collect()
    }

    /// The cross-tables of one file, `file` naming it, from its puzzles' roots (`None`: left
    /// out): for each encoding, how many puzzles have each weakest technique level (rows) and
    /// each weakest other level (columns), both in the study's order. When the study has no CNF
    /// level, one table (encoding `-`) stands for every encoding.
    pub fn cross(&self, file: &str, roots: &[Option<Vec<Root>>]) -> Vec<Cross> {
        let names = |technique: bool| -> Vec<&'static str> {
            let levels = self.levels.iter().filter(|l| l.is_technique() == technique);
            levels
                .map(|l| l.name())
                .chain(["refuted", "none"])
                .collect()
        };
        let (rows, columns) = (names(true), names(false));
        let per_encoding = self.levels.iter().any(|l| !l.is_model());
        let tables = match per_encoding {
            true => self.encodings.len(),
            false => self.encodings.len().min(1),
        };
        let mut crosses: Vec<Cross> = self.encodings[..tables]
            .iter()
            .map(|opts| {
                let (encoding, amo) = match per_encoding {
                    true => (opts.encoding.name(), opts.amo.name()),
                    false => ("-", "-"),
                };
                Cross {
                    file: file.to_string(),
                    encoding,
                    amo,
                    rows: rows.clone(),
                    columns: columns.clone(),
                    counts: vec![vec![0; columns.len()]; rows.len()],
                }
            })
            .collect();
        for r in roots.iter().flatten() {
            let by_technique = self.weakest_among(r, Level::is_technique);
            let by_other = self.weakest_among(r, |l| !l.is_technique());
            for ((cross, (_, t)), (_, o)) in crosses.iter_mut().zip(by_technique).zip(by_other) {
                let row = cross.rows.iter().position(|n| *n == t).unwrap_or(0);
                let column = cross.columns.iter().position(|n| *n == o).unwrap_or(0);
                cross.counts[row][column] += 1;
            }
        }
        for cross in &mut crosses {
            cross.drop_empty_refuted();
        }
        crosses
    }
}

/// A cross-table ([`Study::cross`]): puzzles counted by the weakest technique level that solves
/// them (a row) and the weakest propagation level that does (a column). `refuted` counts the
/// puzzles a level proved to have no solution (shown only when there are some), `none` those
/// no level of the kind solves.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cross {
    pub file: String,
    pub encoding: &'static str,
    pub amo: &'static str,
    /// Technique levels, weakest first, then `refuted` and `none`.
    pub rows: Vec<&'static str>,
    /// The other levels, in the study's order, then `refuted` and `none`.
    pub columns: Vec<&'static str>,
    /// `counts[row][column]`.
    pub counts: Vec<Vec<usize>>,
}

impl Cross {
    /// Removes the `refuted` row and column when they count no puzzle.
    fn drop_empty_refuted(&mut self) {
        let refuted = |names: &[&str]| names.iter().position(|n| *n == "refuted");
        if let Some(r) = refuted(&self.rows) {
            if self.counts[r].iter().all(|&k| k == 0) {
                self.rows.remove(r);
                self.counts.remove(r);
            }
        }
        if let Some(c) = refuted(&self.columns) {
            if self.counts.iter().all(|row| row[c] == 0) {
                self.columns.remove(c);
                for row in &mut self.counts {
                    row.remove(c);
                }
            }
        }
    }
}

/// The first of `levels` that `keep` picks whose root is solved, `refuted` for a contradiction,
/// or `none`.
fn weakest_level(levels: &[Level], roots: &[Root], keep: impl Fn(Level) -> bool) -> &'static str {
    for (level, root) in levels.iter().zip(roots) {
        if !keep(*level) {
            continue;
        }
        if root.contradiction {
            return "refuted";
        }
        if root.solved() {
            return level.name();
        }
    }
    "none"
}
