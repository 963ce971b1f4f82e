//! The engines' settings as the front ends name them: one field per flag of the command line
//! (`--encoding`, `--no-propagate`, `--sat-memory-mib`, …), set by name for Python's keywords
//! ([`EngineSettings::set`]: `no_propagate=True`, `cp_alldiff="bounds"`), and the one place that
//! turns them into [`BackendOptions`] ([`EngineSettings::options`]) and CNF [`EncodeOptions`].
//!
//! The rules between settings live here: the givens are fixed by unit propagation only when
//! they are simplified away (`--no-simplify` turns both off), memory limits in MiB become bytes.

use std::path::PathBuf;
use std::str::FromStr;

use crate::backends::cmd::CmdOptions;
#[cfg(feature = "cp")]
use crate::backends::cp::CpBackendOptions;
use crate::backends::dfs::{DfsBranching, DfsOptions};
use crate::backends::dlx::{self, DlxOptions};
use crate::backends::ilp::{IlpOptions, IlpSolver};
use crate::backends::maxsat_ext::MaxSatExtOptions;
use crate::backends::minizinc::{self, MiniZincOptions};
use crate::backends::sat::{self, CadicalConfig, SatOptimizer, SatOptions};
use crate::backends::sat_ext::SatExtOptions;
use crate::backends::BackendOptions;
#[cfg(feature = "cp")]
use crate::cp::CpOptions;
use crate::cp::{AllDiffLevel, Branching, HouseCover, ObjectiveBound, Searches};
use crate::isolate::WorkerProgram;
use crate::sat::encode::{Amo, CageEncoding, EncodeOptions, Encoding, PairEncoding, SumEncoding};

/// Every engine setting, named as the flag that sets it (with `_` for `-`); the defaults are the
/// flags' defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineSettings {
    pub encoding: Encoding,
    pub amo: Amo,
    pub cage_encoding: CageEncoding,
    pub pair_encoding: PairEncoding,
    pub sum_encoding: SumEncoding,
    pub no_simplify: bool,
    pub no_propagate: bool,
    pub no_probe: bool,
    pub proof: Option<PathBuf>,
    pub check_proof: bool,
    pub sat_cmd: Option<String>,
    pub maxsat_cmd: Option<String>,
    pub cmd: Option<String>,
    pub cadical_config: CadicalConfig,
    pub sat_opt: SatOptimizer,
    pub sat_memory_mib: u64,
    pub dfs_branch: DfsBranching,
    pub dlx_memory_mib: u64,
    pub ilp_solver: IlpSolver,
    pub cp_alldiff: AllDiffLevel,
    pub allow_unsound: bool,
    pub cp_house_cover: HouseCover,
    pub cp_branch: Branching,
    pub cp_searches: Searches,
    pub cp_drop_fixed: bool,
    pub cp_objective_bound: ObjectiveBound,
    pub cp_memory_mib: u64,
    /// `cp` searches in this process, not in the worker process the front end names.
    pub cp_in_process: bool,
    pub mzn_cmd: String,
    pub mzn_solver: String,
}

impl Default for EngineSettings {
    fn default() -> EngineSettings {
        EngineSettings {
            encoding: Encoding::default(),
            amo: Amo::default(),
            cage_encoding: CageEncoding::default(),
            pair_encoding: PairEncoding::default(),
            sum_encoding: SumEncoding::default(),
            no_simplify: false,
            no_propagate: false,
            no_probe: false,
            proof: None,
            check_proof: false,
            sat_cmd: None,
            maxsat_cmd: None,
            cmd: None,
            cadical_config: CadicalConfig::default(),
            sat_opt: SatOptimizer::default(),
            sat_memory_mib: (sat::DEFAULT_MEMORY_LIMIT >> 20) as u64,
            dfs_branch: DfsBranching::default(),
            dlx_memory_mib: (dlx::DEFAULT_MEMORY_LIMIT >> 20) as u64,
            ilp_solver: IlpSolver::default(),
            cp_alldiff: AllDiffLevel::default(),
            allow_unsound: false,
            cp_house_cover: HouseCover::default(),
            cp_branch: Branching::default(),
            cp_searches: Searches::default(),
            cp_drop_fixed: false,
            cp_objective_bound: ObjectiveBound::default(),
            cp_memory_mib: crate::cp::DEFAULT_MEMORY_MIB,
            cp_in_process: false,
            mzn_cmd: minizinc::DEFAULT_PROGRAM.to_string(),
            mzn_solver: minizinc::DEFAULT_SOLVER.to_string(),
        }
    }
}

/// A value given to a setting by name ([`EngineSettings::set`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Setting {
    /// A switch (`no_simplify=True`).
    Switch(bool),
    /// A number (`sat_memory_mib=512`).
    Number(u64),
    /// A word naming a choice (`encoding="minimal"`), a command or a path.
    Word(String),
}

impl Setting {
    fn what(&self) -> &'static str {
        match self {
            Setting::Switch(_) => "a switch",
            Setting::Number(_) => "a number",
            Setting::Word(_) => "a word",
        }
    }
}

/// Why a setting was not taken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    #[error("unknown engine option '{0}' (the flags of `sudoku-lab solve --help`, with _ for -)")]
    Unknown(String),
    #[error("{name}: expected {expected}, not {given}")]
    Kind {
        name: String,
        expected: &'static str,
        given: &'static str,
    },
    #[error("{name}: {message}")]
    Value { name: String, message: String },
}

impl EngineSettings {
    /// Sets the setting `name` (a flag's name without `--`, with `_` or `-`) to `value`: a
    /// switch for a flag without value, a number for the `*_mib` limits, a word otherwise.
    pub fn set(&mut self, name: &str, value: Setting) -> Result<(), SettingError> {
        let key = name.replace('-', "_");
        let kind = |expected| SettingError::Kind {
            name: key.clone(),
            expected,
            given: value.what(),
        };
        let switch = || match value {
            Setting::Switch(b) => Ok(b),
            _ => Err(kind("True or False")),
        };
        let number = || match value {
            Setting::Number(n) => Ok(n),
            _ => Err(kind("a number of MiB")),
        };
        let text = || match &value {
            Setting::Word(w) => Ok(w.clone()),
            _ => Err(kind("a string")),
        };
        match key.as_str() {
            "encoding" => self.encoding = choice(&key, &value)?,
            "amo" => self.amo = choice(&key, &value)?,
            "cage_encoding" => self.cage_encoding = choice(&key, &value)?,
            "pair_encoding" => self.pair_encoding = choice(&key, &value)?,
            "sum_encoding" => self.sum_encoding = choice(&key, &value)?,
            "no_simplify" => self.no_simplify = switch()?,
            "no_propagate" => self.no_propagate = switch()?,
            "no_probe" => self.no_probe = switch()?,
            "proof" => self.proof = Some(text()?.into()),
            "check_proof" => self.check_proof = switch()?,
            "sat_cmd" => self.sat_cmd = Some(text()?),
            "maxsat_cmd" => self.maxsat_cmd = Some(text()?),
            "cmd" => self.cmd = Some(text()?),
            "cadical_config" => self.cadical_config = choice(&key, &value)?,
            "sat_opt" => self.sat_opt = choice(&key, &value)?,
            "sat_memory_mib" => self.sat_memory_mib = number()?,
            "dfs_branch" => self.dfs_branch = choice(&key, &value)?,
            "dlx_memory_mib" => self.dlx_memory_mib = number()?,
            "ilp_solver" => self.ilp_solver = choice(&key, &value)?,
            "cp_alldiff" => self.cp_alldiff = choice(&key, &value)?,
            "allow_unsound" => self.allow_unsound = switch()?,
            "cp_house_cover" => self.cp_house_cover = choice(&key, &value)?,
            "cp_branch" => self.cp_branch = choice(&key, &value)?,
            "cp_searches" => self.cp_searches = choice(&key, &value)?,
            "cp_drop_fixed" => self.cp_drop_fixed = switch()?,
            "cp_objective_bound" => self.cp_objective_bound = choice(&key, &value)?,
            "cp_memory_mib" => self.cp_memory_mib = number()?,
            "cp_in_process" => self.cp_in_process = switch()?,
            "mzn_cmd" => self.mzn_cmd = text()?,
            "mzn_solver" => self.mzn_solver = text()?,
            _ => return Err(SettingError::Unknown(name.to_string())),
        }
        Ok(())
    }

    /// The CNF encoding of the `sat` backends: unit propagation of the givens only when they
    /// are simplified away.
    pub fn encode_options(&self) -> EncodeOptions {
        let simplify = !self.no_simplify;
        EncodeOptions {
            encoding: self.encoding,
            amo: self.amo,
            cage: self.cage_encoding,
            pair: self.pair_encoding,
            sum: self.sum_encoding,
            simplify,
            propagate: simplify && !self.no_propagate,
            probe: simplify && !self.no_propagate && !self.no_probe,
        }
    }

    /// The backends' options; `cp` searches in the process `worker()` names, unless
    /// [`EngineSettings::cp_in_process`].
    pub fn options(&self, worker: impl FnOnce() -> WorkerProgram) -> BackendOptions {
        let e = self.encode_options();
        #[cfg(not(feature = "cp"))]
        let _ = worker;
        BackendOptions {
            sat: SatOptions {
                encoding: e.encoding,
                amo: e.amo,
                cage: e.cage,
                pair: e.pair,
                sum: e.sum,
                simplify: e.simplify,
                propagate: e.propagate,
                probe: e.probe,
                proof: self.proof.clone(),
                check_proof: self.check_proof,
                cadical_config: self.cadical_config,
                optimizer: self.sat_opt,
                memory_limit: mib(self.sat_memory_mib),
            },
            ilp: IlpOptions {
                solver: self.ilp_solver,
            },
            dfs: DfsOptions {
                branching: self.dfs_branch,
            },
            dlx: DlxOptions {
                memory_limit: mib(self.dlx_memory_mib),
            },
            sat_ext: SatExtOptions {
                command: self.sat_cmd.clone(),
            },
            maxsat_ext: MaxSatExtOptions {
                command: self.maxsat_cmd.clone(),
            },
            cmd: CmdOptions {
                command: self.cmd.clone(),
            },
            minizinc: MiniZincOptions {
                command: self.mzn_cmd.clone(),
                solver: self.mzn_solver.clone(),
            },
            #[cfg(feature = "cp")]
            cp: CpBackendOptions {
                model: CpOptions {
                    alldiff: self.cp_alldiff,
                    allow_unsound: self.allow_unsound,
                    house_cover: self.cp_house_cover,
                    branching: self.cp_branch,
                    searches: self.cp_searches,
                    drop_fixed: self.cp_drop_fixed,
                    objective_bound: self.cp_objective_bound,
                },
                memory_mib: self.cp_memory_mib,
                worker: (!self.cp_in_process).then(worker),
            },
        }
    }
}

/// A word naming one of a setting's choices.
fn choice<T: FromStr>(name: &str, value: &Setting) -> Result<T, SettingError>
where
    T::Err: std::fmt::Display,
{
    let Setting::Word(w) = value else {
        return Err(SettingError::Kind {
            name: name.to_string(),
            expected: "a string",
            given: value.what(),
        });
    };
    w.parse().map_err(|e: T::Err| SettingError::Value {
        name: name.to_string(),
        message: e.to_string(),
    })
}

/// A limit in MiB in bytes, saturating.
pub fn mib(m: u64) -> usize {
    usize::try_from(m.saturating_mul(1 << 20)).unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn worker() -> WorkerProgram {
        WorkerProgram::new("w", ["cp"])
    }

    #[test]
    fn settings_by_name_reach_the_options() {
        let mut s = EngineSettings::default();
        s.set("encoding", Setting::Word("minimal".into())).unwrap();
        s.set("sat-memory-mib", Setting::Number(3)).unwrap();
        s.set("no_propagate", Setting::Switch(true)).unwrap();
        let o = s.options(worker);
        assert_eq!(o.sat.encoding, Encoding::Minimal);
        assert_eq!(o.sat.memory_limit, 3 << 20);
        assert!(o.sat.simplify && !o.sat.propagate);
        assert_eq!(
            s.set("amo", Setting::Switch(true)),
            Err(SettingError::Kind {
                name: "amo".into(),
                expected: "a string",
                given: "a switch"
            })
        );
        assert!(matches!(
            s.set("encoding", Setting::Word("nope".into())),
            Err(SettingError::Value { .. })
        ));
        assert_eq!(
            s.set("colour", Setting::Switch(true)),
            Err(SettingError::Unknown("colour".into()))
        );
    }

    #[test]
    fn propagation_needs_simplification() {
        let mut s = EngineSettings::default();
        assert!(s.encode_options().propagate && s.encode_options().probe);
        s.set("no_probe", Setting::Switch(true)).unwrap();
        assert!(s.encode_options().propagate && !s.encode_options().probe);
        assert!(!s.options(worker).sat.probe);
        s.no_simplify = true;
        let e = s.encode_options();
        assert!(!e.simplify && !e.propagate);
        assert!(!s.options(worker).sat.propagate);
    }

    #[cfg(feature = "cp")]
    #[test]
    fn cp_searches_in_the_worker_unless_in_process() {
        let mut s = EngineSettings::default();
        assert_eq!(s.options(worker).cp.worker, Some(worker()));
        s.set("cp_in_process", Setting::Switch(true)).unwrap();
        assert_eq!(s.options(worker).cp.worker, None);
    }
}
