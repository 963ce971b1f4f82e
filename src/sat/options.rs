//! Options of the in-process SAT drivers: the encoding, proofs, the optimisation algorithm,
//! CaDiCaL's preset and the memory limit. The `sat` and `cadical` backends take them whole;
//! `sat-ext`, `maxsat-ext` and `encode` take the encoding and the memory limit.

use std::path::PathBuf;

use super::encode::{Amo, CageEncoding, EncodeOptions, Encoding, PairEncoding, SumEncoding};

/// Options of the `sat` backend (`--encoding`, `--amo`, `--no-simplify`, `--no-propagate`,
/// `--proof`, `--check-proof`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SatOptions {
    pub encoding: Encoding,
    pub amo: Amo,
    /// How Killer cage sums are encoded (`--cage-encoding`).
    pub cage: CageEncoding,
    /// How variant rules between two cells are encoded (`--pair-encoding`).
    pub pair: PairEncoding,
    /// How the sums of variant rules are encoded (`--sum-encoding`).
    pub sum: SumEncoding,
    pub simplify: bool,
    /// With `simplify`, also fix naked / hidden singles and locked candidates before encoding.
    pub propagate: bool,
    /// With `propagate`, also probe the root of a puzzle with variant rules (`--no-probe` turns
    /// it off).
    pub probe: bool,
    /// Write a DRAT proof of every unsatisfiable answer here.
    pub proof: Option<PathBuf>,
    /// Check the proof with varisat's checker while it is produced.
    pub check_proof: bool,
    /// CaDiCaL's option preset for the `cadical` backend (`--cadical-config`); varisat ignores it.
    pub cadical_config: CadicalConfig,
    /// How `optimize` searches (`--sat-opt`).
    pub optimizer: SatOptimizer,
    /// Largest formula (in bytes, as estimated by [`check_memory`](super::memory::check_memory))
    /// the backends will build (`--sat-memory-mib`); larger puzzles are refused with
    /// [`BackendError::Unsupported`](crate::backend::BackendError::Unsupported).
    pub memory_limit: usize,
}

/// Default memory limit for the formula of one puzzle: 1 GiB.
pub const DEFAULT_MEMORY_LIMIT: usize = 1 << 30;

/// The optimisation algorithm of the SAT backends (`--sat-opt`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SatOptimizer {
    /// Core-guided MaxSAT ([`crate::sat::maxsat`]: OLL with stratification, weight-aware core
    /// extraction, trimming, exhaustion and hardening): raises a lower bound from unsatisfiable
    /// cores until a solution meets it.
    #[default]
    Core,
    /// Solution-improving linear search: after each solution, a pseudo-Boolean bound (assumed)
    /// demands a strictly better one, until unsatisfiable.
    Linear,
}

impl SatOptimizer {
    pub const NAMES: &'static [(SatOptimizer, &'static str)] = &[
        (SatOptimizer::Core, "core"),
        (SatOptimizer::Linear, "linear"),
    ];
    pub fn name(self) -> &'static str {
        SatOptimizer::NAMES
            .iter()
            .find(|(o, _)| *o == self)
            .map_or("core", |(_, n)| n)
    }
}

impl std::str::FromStr for SatOptimizer {
    type Err = crate::named::UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::named::by_name(SatOptimizer::NAMES, "SAT optimisation", s)
    }
}

/// CaDiCaL's built-in option presets, set before any clause is added (`--cadical-config`), or a
/// race of two of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CadicalConfig {
    /// [`CadicalConfig::Race`] for grids of 25×25 and more, [`CadicalConfig::Default`] below
    /// (racing doubles the CPU time of the many small puzzles a batch holds).
    #[default]
    Auto,
    /// CaDiCaL's defaults.
    Default,
    /// Tuned for satisfiable formulas (stable mode only): `sudoku-64-1` in 6 s instead of
    /// 10–17 s, but `sudoku-81-1` three times slower.
    Sat,
    /// Tuned for unsatisfiable formulas (no stable mode, no local search).
    Unsat,
    /// No preprocessing or inprocessing.
    Plain,
    /// `default` and `sat` on two threads; the first answer wins and stops the other.
    Race,
}

/// Side from which [`CadicalConfig::Auto`] races.
pub const RACE_MIN_SIZE: usize = 25;

impl CadicalConfig {
    pub const NAMES: &'static [(CadicalConfig, &'static str)] = &[
        (CadicalConfig::Auto, "auto"),
        (CadicalConfig::Default, "default"),
        (CadicalConfig::Sat, "sat"),
        (CadicalConfig::Unsat, "unsat"),
        (CadicalConfig::Plain, "plain"),
        (CadicalConfig::Race, "race"),
    ];

    pub fn name(self) -> &'static str {
        CadicalConfig::NAMES
            .iter()
            .find(|(c, _)| *c == self)
            .map_or("auto", |(_, n)| n)
    }

    /// The single presets to run on a grid of side `n`: one, or several to race.
    pub fn presets(self, n: usize) -> &'static [CadicalConfig] {
        match self {
            CadicalConfig::Auto if n >= RACE_MIN_SIZE => CadicalConfig::Race.presets(n),
            CadicalConfig::Auto | CadicalConfig::Default => &[CadicalConfig::Default],
            CadicalConfig::Sat => &[CadicalConfig::Sat],
            CadicalConfig::Unsat => &[CadicalConfig::Unsat],
            CadicalConfig::Plain => &[CadicalConfig::Plain],
            CadicalConfig::Race => &[CadicalConfig::Default, CadicalConfig::Sat],
        }
    }
}

impl std::fmt::Display for CadicalConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for CadicalConfig {
    type Err = crate::named::UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::named::by_name(CadicalConfig::NAMES, "CaDiCaL configuration", s)
    }
}

impl Default for SatOptions {
    fn default() -> Self {
        let e = EncodeOptions::default();
        SatOptions {
            encoding: e.encoding,
            amo: e.amo,
            cage: e.cage,
            pair: e.pair,
            sum: e.sum,
            simplify: e.simplify,
            propagate: true,
            probe: true,
            proof: None,
            check_proof: false,
            cadical_config: CadicalConfig::Auto,
            optimizer: SatOptimizer::Core,
            memory_limit: DEFAULT_MEMORY_LIMIT,
        }
    }
}

impl SatOptions {
    /// The CaDiCaL presets a `cadical` run uses on a grid of side `n`: those of
    /// [`CadicalConfig::presets`], but only the first when a proof is to be written (racers would
    /// write one file at the same time).
    pub fn cadical_presets(&self, n: usize) -> &'static [CadicalConfig] {
        let presets = self.cadical_config.presets(n);
        if self.proof.is_some() {
            &presets[..1]
        } else {
            presets
        }
    }

    pub fn encode_options(&self) -> EncodeOptions {
        EncodeOptions {
            encoding: self.encoding,
            amo: self.amo,
            simplify: self.simplify,
            propagate: self.propagate,
            probe: self.probe,
            cage: self.cage,
            pair: self.pair,
            sum: self.sum,
        }
    }
}
