//! The backends, and the one place that picks them: [`BackendKind`] names every backend compiled
//! in, [`create`] builds one from its kind and the resolved [`BackendOptions`].
//!
//! Adding a backend: one file here implementing [`crate::backend::Backend`], a variant in
//! [`BackendKind`] (with its name in `NAMES`), one arm in [`create`].

use std::fmt;
use std::str::FromStr;

use crate::backend::{Backend, BackendError};

pub mod cmd;
#[cfg(feature = "cp")]
pub mod cp;
pub mod dfs;
pub mod dlx;
pub mod ilp;
pub mod isotope;
pub mod logic;
pub mod maxsat_ext;
pub mod minizinc;
pub mod sat;
pub mod sat_ext;

/// Every backend this build knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BackendKind {
    /// Hand-written bitmask search.
    Dfs,
    /// CNF encodings solved in process by varisat.
    Sat,
    /// 0-1 integer program through good_lp (microlp, or HiGHS with the `highs` feature).
    Ilp,
    /// Dancing-links exact cover (Knuth's Algorithm X).
    Dlx,
    /// Constraint programming solved in process by huub (feature `cp`, on by default).
    #[cfg(feature = "cp")]
    Cp,
    /// The same encodings solved by CaDiCaL (feature `cadical`).
    #[cfg(feature = "cadical")]
    Cadical,
    /// The same CNF handed to an external SAT solver (`--sat-cmd`).
    SatExt,
    /// The optimisation as WCNF handed to an external MaxSAT solver (`--maxsat-cmd`).
    MaxSatExt,
    /// Algebraic completion of cyclic-pattern grids (solve only, incomplete).
    Isotope,
    /// The CP model as MiniZinc, solved by the `minizinc` program (`--mzn-solver`, `--mzn-cmd`).
    MiniZinc,
    /// Any program speaking the line protocol of [`cmd`] (`--cmd`).
    Cmd,
    /// Human-style techniques step by step ([`crate::logic`]).
    Logic,
}

/// `(kind, name, one-line description)` for every backend compiled in, in the order
/// `xcheck`, `bench` and the tests list them.
#[rustfmt::skip]
const NAMES: &[(BackendKind, &str, &str)] = &[
    (BackendKind::Dfs, "dfs", "bitmask depth-first search with singles propagation"),
    (BackendKind::Dlx, "dlx", "dancing-links exact cover (Knuth's Algorithm X)"),
    (BackendKind::Sat, "sat", "CNF encoding solved in process by varisat (incremental, DRAT proofs)"),
    (BackendKind::Ilp, "ilp", "0-1 integer program solved by microlp or HiGHS (good_lp)"),
    #[cfg(feature = "cp")]
    (BackendKind::Cp, "cp", "constraint programming (all-different, linear sums) solved in process by huub, lazy clause generation"),
    #[cfg(feature = "cadical")]
    (BackendKind::Cadical, "cadical", "CNF encoding solved in process by CaDiCaL (feature `cadical`)"),
    (BackendKind::SatExt, "sat-ext", "CNF encoding solved by an external SAT solver (--sat-cmd, e.g. cadical, minisat)"),
    (BackendKind::MaxSatExt, "maxsat-ext", "weighted MaxSAT (WCNF) solved by an external MaxSAT solver (--maxsat-cmd, e.g. rc2.py)"),
    (BackendKind::MiniZinc, "minizinc", "the CP model as MiniZinc, solved by the minizinc program with --mzn-solver (default gecode)"),
    (BackendKind::Cmd, "cmd", "any program speaking the line protocol (--cmd): puzzles in, solutions, counts or none out; solve, count, unique"),
    (BackendKind::Logic, "logic", "human-style techniques step by step (singles to uniqueness, bifurcation last); unique only when logic alone completes the grid"),
    (BackendKind::Isotope, "isotope", "algebra, no search: completes grids of the cyclic pattern form (isotopes of Z_n) that generators emit; solve only"),
];

/// `(backend name, cargo feature)` for the backends a build may leave out, so that asking for one
/// says how to get it.
const FEATURE_GATED: &[(&str, &str)] = &[("cadical", "cadical"), ("cp", "cp")];

/// Backends left out of the default set ([`BackendKind::all`]) of `xcheck` and `bench`, with the
/// reason: `sat-ext`, `maxsat-ext` and `cmd` cannot run without a command (and `maxsat-ext`
/// answers only `optimize`), `minizinc` needs a program installed outside this build and starts
/// one process per question, `isotope` answers only `solve` and only for one form of grid. They are named, parsed and described like the others.
const OPT_IN: &[(BackendKind, &str)] = &[
    (BackendKind::SatExt, "needs --sat-cmd"),
    (BackendKind::MaxSatExt, "needs --maxsat-cmd; optimize only"),
    (
        BackendKind::MiniZinc,
        "needs the minizinc program and its solver (default gecode); one process per question",
    ),
    (BackendKind::Cmd, "needs --cmd"),
    (
        BackendKind::Logic,
        "count and unique only when logic alone decides; no optimize",
    ),
    (
        BackendKind::Isotope,
        "solve only, and only grids of one form",
    ),
];

impl BackendKind {
    /// All backends compiled into this build that run on default options, in a stable order
    /// ("every backend" for cross-checks and benchmarks).
    pub fn all() -> Vec<BackendKind> {
        Self::every()
            .into_iter()
            .filter(|k| k.opt_in().is_none())
            .collect()
    }
    /// All backends compiled into this build, including the opt-in ones (see
    /// [`BackendKind::opt_in`]).
    pub fn every() -> Vec<BackendKind> {
        NAMES.iter().map(|&(k, _, _)| k).collect()
    }
    /// Why this backend is left out of the default set of `xcheck` and `bench` (`None` when it is
    /// in): it needs options before it can run, or it answers only some tasks or puzzles.
    pub fn opt_in(self) -> Option<&'static str> {
        OPT_IN.iter().find(|(k, _)| *k == self).map(|&(_, why)| why)
    }
    /// The answers come from a program outside this build (an external solver), so they are not
    /// the project's own reference.
    pub fn is_external(self) -> bool {
        matches!(
            self,
            BackendKind::SatExt | BackendKind::MaxSatExt | BackendKind::MiniZinc | BackendKind::Cmd
        )
    }
    pub fn name(self) -> &'static str {
        NAMES
            .iter()
            .find(|(k, _, _)| *k == self)
            .map(|&(_, n, _)| n)
            .unwrap_or("?")
    }
    pub fn description(self) -> &'static str {
        NAMES
            .iter()
            .find(|(k, _, _)| *k == self)
            .map(|&(_, _, d)| d)
            .unwrap_or("")
    }
}

impl fmt::Display for BackendKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BackendKind {
    type Err = UnknownBackend;
    fn from_str(s: &str) -> Result<Self, UnknownBackend> {
        NAMES
            .iter()
            .find(|(_, n, _)| n.eq_ignore_ascii_case(s))
            .map(|&(k, _, _)| k)
            .ok_or_else(|| UnknownBackend {
                name: s.to_string(),
                feature: FEATURE_GATED
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(s))
                    .map(|&(_, f)| f),
            })
    }
}

/// A name that is none of the backends of this build.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownBackend {
    pub name: String,
    /// The cargo feature that builds it in, when it is a backend this build left out.
    pub feature: Option<&'static str>,
}

impl fmt::Display for UnknownBackend {
    /// Lists the backends of this build, and names the feature that builds in one left out.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = NAMES.iter().map(|&(_, n, _)| n).collect();
        write!(
            f,
            "unknown backend '{}' (this build has: {}",
            self.name,
            names.join(", ")
        )?;
        if let Some(feature) = self.feature {
            write!(
                f,
                "; '{}' needs a build with `--features {feature}`",
                self.name
            )?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for UnknownBackend {}

/// Options of every backend, resolved from the command line (or set by library users) before
/// any work starts. Each backend reads only its own part.
#[derive(Debug, Clone, Default)]
pub struct BackendOptions {
    /// `dfs`: the branching rule with Killer cages and variant rules.
    pub dfs: dfs::DfsOptions,
    /// `sat`: encoding, at-most-one, simplification, proofs.
    pub sat: sat::SatOptions,
    /// `ilp`: which MIP solver (`--ilp-solver`).
    pub ilp: ilp::IlpOptions,
    /// Options of the `dlx` backend.
    pub dlx: dlx::DlxOptions,
    /// `sat-ext`: the solver command; its encoding options are those of `sat`.
    pub sat_ext: sat_ext::SatExtOptions,
    /// `maxsat-ext`: the MaxSAT solver command; its encoding options are those of `sat`.
    pub maxsat_ext: maxsat_ext::MaxSatExtOptions,
    /// `minizinc`: the program and the solver it runs.
    pub minizinc: minizinc::MiniZincOptions,
    /// `cmd`: the program speaking the line protocol.
    pub cmd: cmd::CmdOptions,
    /// `cp`: all-different strength, house-cover clauses, branching, memory budget.
    #[cfg(feature = "cp")]
    pub cp: cp::CpBackendOptions,
}

/// Builds the backend of the given kind.
pub fn create(
    kind: BackendKind,
    options: &BackendOptions,
) -> Result<Box<dyn Backend>, BackendError> {
    Ok(match kind {
        BackendKind::Dfs => Box::new(dfs::Dfs::with_options(options.dfs)),
        BackendKind::Sat => Box::new(sat::Sat::new(options.sat.clone())),
        BackendKind::Ilp => Box::new(ilp::Ilp::new(&options.ilp)?),
        BackendKind::Dlx => Box::new(dlx::Dlx::new(options.dlx.clone())),
        #[cfg(feature = "cp")]
        BackendKind::Cp => Box::new(cp::Cp::new(options.cp.clone())?),
        #[cfg(feature = "cadical")]
        BackendKind::Cadical => Box::new(sat::Sat::with_engine(
            options.sat.clone(),
            sat::EngineKind::Cadical,
        )),
        BackendKind::SatExt => Box::new(sat_ext::SatExt::new(&options.sat_ext, &options.sat)?),
        BackendKind::MaxSatExt => Box::new(maxsat_ext::MaxSatExt::new(
            &options.maxsat_ext,
            &options.sat,
        )?),
        BackendKind::MiniZinc => Box::new(minizinc::MiniZinc::new(&options.minizinc)?),
        BackendKind::Isotope => Box::new(isotope::Isotope::new()),
        BackendKind::Cmd => Box::new(cmd::Cmd::new(&options.cmd)?),
        BackendKind::Logic => Box::new(logic::Logic::new()),
    })
}
