//! The flags that choose and set up backends — `--backend`, and the options of every engine
//! (`--timeout`, the SAT encoding, the external solver commands, …) — and the one place that
//! builds backends from them.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use sudoku_lab::backend::{Backend, Limits};
use sudoku_lab::backends::cmd::CmdOptions;
#[cfg(feature = "cp")]
use sudoku_lab::backends::cp::CpBackendOptions;
use sudoku_lab::backends::dlx::{DlxOptions, DEFAULT_MEMORY_BUDGET};
use sudoku_lab::backends::ilp::{IlpOptions, IlpSolver};
use sudoku_lab::backends::maxsat_ext::MaxSatExtOptions;
use sudoku_lab::backends::minizinc::{
    MiniZincOptions, DEFAULT_PROGRAM as MZN_PROGRAM, DEFAULT_SOLVER as MZN_SOLVER,
};
use sudoku_lab::backends::sat::{
    CadicalConfig, SatOptimizer, SatOptions, DEFAULT_MEMORY_BUDGET as SAT_MEMORY_BUDGET,
};
use sudoku_lab::backends::sat_ext::SatExtOptions;
use sudoku_lab::backends::{self, BackendKind, BackendOptions};
#[cfg(feature = "cp")]
use sudoku_lab::cp::CpOptions;
use sudoku_lab::cp::{
    AllDiffLevel, Branching, HouseCover, Searches, DEFAULT_MEMORY_MIB as CP_MEMORY_MIB,
};
#[cfg(feature = "cp")]
use sudoku_lab::isolate::WorkerProgram;
use sudoku_lab::sat::encode::{Amo, CageEncoding, EncodeOptions, Encoding, PairEncoding};

use super::args::{mib, quote, seconds_arg, writable};
use super::UsageError;

/// Backend choice and the options of the engines.
#[derive(Args, Debug)]
pub struct BackendArgs {
    /// Solving backend (see `sudoku-lab backends`).
    #[arg(long, short, default_value = "dfs")]
    backend: String,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Options every backend may read, and the time limit.
#[derive(Args, Debug)]
pub struct EngineArgs {
    /// Give up on a puzzle after this many seconds (reported as a time-out, never as "no solution"; a count cut short says how many solutions it had found: "timeout (at least N)").
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    #[command(flatten)]
    cnf: CnfArgs,
    /// sat: write a DRAT proof of every unsatisfiable answer (no solution, uniqueness, optimality).
    #[arg(long, value_name = "FILE", help_heading = "SAT backend")]
    proof: Option<PathBuf>,
    /// sat: check each DRAT proof with varisat's checker as it is produced.
    #[arg(long, help_heading = "SAT backend")]
    check_proof: bool,
    /// sat-ext: the external SAT solver command, e.g. "cadical -q", "picosat", "minisat" (the CNF
    /// path is appended, or replaces `{}`).
    #[arg(long, value_name = "CMD", help_heading = "SAT backend")]
    sat_cmd: Option<String>,
    /// maxsat-ext: the external weighted MaxSAT solver command, e.g. "rc2.py" (python-sat) or
    /// "open-wbo"; it reads WCNF (the file path is appended, or replaces `{}`) and prints
    /// MaxSAT Evaluation `s` / `o` / `v` lines.
    #[arg(long, value_name = "CMD", help_heading = "SAT backend")]
    maxsat_cmd: Option<String>,
    /// cmd: a program speaking the line protocol, started once and kept alive. It reads
    /// `ID solve PUZZLE` or `ID count LIMIT PUZZLE` lines (PUZZLE in line format: n² symbols,
    /// then region labels for a jigsaw and the word `diagonals` for an X-Sudoku; uniqueness is
    /// `count 2`) and writes, flushed, one line each: `ID SOLUTION`, `ID none`,
    /// `ID C [SOL [SOL]]` (C ≤ LIMIT, the first min(C,2) solutions; C = LIMIT means at least)
    /// or `ID refused REASON`. Example: `--cmd target/release/examples/line_solver`; see
    /// docs/backends.md.
    #[arg(long, value_name = "PROGRAM ARGS", help_heading = "cmd backend")]
    cmd: Option<String>,
    /// cadical: CaDiCaL's option preset — default, sat (stable mode only; helps some hard
    /// satisfiable grids), unsat, plain (no pre/inprocessing), race (default and sat on two
    /// threads, first answer wins) or auto (race from 25×25 up, default below). Needs
    /// `--features cadical`.
    #[arg(
        long,
        value_name = "CONFIG",
        default_value = "auto",
        help_heading = "SAT backend"
    )]
    cadical_config: CadicalConfig,
    /// sat, cadical, sat-ext: how `optimize` searches — core (core-guided MaxSAT: lower bounds from
    /// unsatisfiable cores, OLL with stratification; the default) or linear (each solution must be
    /// beaten, until unsatisfiable; sat-ext always searches this way).
    #[arg(
        long,
        value_name = "METHOD",
        default_value = "core",
        help_heading = "SAT backend"
    )]
    sat_opt: SatOptimizer,
    /// sat: do not fix naked / hidden singles and locked candidates before encoding (they are by
    /// default; the SAT solver then sees only what those simple rules leave open).
    #[arg(long, help_heading = "SAT backend")]
    no_propagate: bool,
    /// sat, cadical, sat-ext, maxsat-ext: largest CNF formula to build, in MiB (as estimated before building
    /// it, solver memory included); larger puzzles are refused.
    #[arg(long, value_name = "MIB", default_value_t = (SAT_MEMORY_BUDGET >> 20) as u64,
          value_parser = clap::value_parser!(u64).range(1..), help_heading = "SAT backend")]
    sat_memory_mib: u64,
    /// dlx: largest exact-cover matrix to build, in MiB; larger puzzles are refused.
    #[arg(long, value_name = "MIB", default_value_t = (DEFAULT_MEMORY_BUDGET >> 20) as u64,
          value_parser = clap::value_parser!(u64).range(1..), help_heading = "DLX backend")]
    dlx_memory_mib: u64,
    /// ilp: the MIP solver, `microlp` (pure Rust, default) or `highs` (builds with `--features highs`).
    #[arg(long, default_value = "microlp", help_heading = "ILP backend")]
    ilp_solver: IlpSolver,
    #[command(flatten)]
    cp: CpArgs,
    /// minizinc: the MiniZinc program (a path, or a command line with extra arguments).
    #[arg(long, value_name = "PROGRAM", default_value = MZN_PROGRAM, help_heading = "MiniZinc backend")]
    mzn_cmd: String,
    /// minizinc: the solver MiniZinc runs (`minizinc --solver S`; `minizinc --solvers` lists
    /// them), e.g. gecode, chuffed, cp-sat.
    #[arg(long, value_name = "SOLVER", default_value = MZN_SOLVER, help_heading = "MiniZinc backend")]
    mzn_solver: String,
}

/// Options of the `cp` backend.
#[derive(Args, Debug)]
pub struct CpArgs {
    /// cp: propagation strength of every all-different — value (a fixed digit leaves the other
    /// cells; the default), bounds (Hall intervals) or domain (Régin's matching; unsound in huub
    /// 100.1, refused without --allow-unsound). See docs/backends.md for what the project's
    /// cross-checks found at each level.
    #[arg(long, value_name = "LEVEL", default_value_t = AllDiffLevel::default(), help_heading = "CP backend")]
    cp_alldiff: AllDiffLevel,
    /// cp: accept a setting known to give wrong answers (`--cp-alldiff domain`), to show the
    /// fault.
    #[arg(long, help_heading = "CP backend")]
    allow_unsound: bool,
    /// cp: the redundant constraints "each digit is somewhere in each house", which give hidden
    /// singles (value and bounds all-different do not infer them): clauses on the built solver
    /// (the default), linear constraints in the model, or none. A crash of the solver is retried
    /// with the forms after the chosen one, in that order.
    #[arg(long, value_name = "FORM", default_value_t = HouseCover::default(), help_heading = "CP backend")]
    cp_house_cover: HouseCover,
    /// cp: the search's decisions — activity (the SAT engine's VSIDS with learning; the
    /// default), first-fail (fewest digits left, least digit first) or input-order.
    #[arg(long, value_name = "BRANCHING", default_value_t = Branching::default(), help_heading = "CP backend")]
    cp_branch: Branching,
    /// cp: how the searches of one task run (each solution of a count, each better score of an
    /// optimisation): incremental (one solver answers them all, keeping what it learned; the
    /// default) or copies (each on a fresh copy of the solver as built). A crash of the solver
    /// is retried with copies.
    #[arg(long, value_name = "HOW", default_value_t = Searches::default(), help_heading = "CP backend")]
    cp_searches: Searches,
    /// cp: largest solver to build, in MiB (as estimated before building it); larger puzzles are
    /// refused.
    #[arg(long, value_name = "MIB", default_value_t = CP_MEMORY_MIB,
          value_parser = clap::value_parser!(u64).range(1..), help_heading = "CP backend")]
    cp_memory_mib: u64,
    /// cp: run each search in this process instead of a worker process. The worker (the default,
    /// one per thread) keeps a crash inside huub or CaDiCaL to the one puzzle, which is retried
    /// in another form and then reported as a solver failure, and kills a worker that gives no
    /// sign of life for 60 s; in process, such a crash ends the whole run.
    #[arg(long, help_heading = "CP backend")]
    cp_in_process: bool,
}

/// The `cp` worker: this program, run as `sudoku-lab __worker cp`.
#[cfg(feature = "cp")]
fn cp_worker() -> WorkerProgram {
    let program = std::env::current_exe().unwrap_or_else(|_| "sudoku-lab".into());
    WorkerProgram::new(program, [super::WORKER_COMMAND, "cp"])
}

/// Which CNF encoding to build (the `sat` backends and `encode --to dimacs`).
#[derive(Args, Debug, Default)]
pub struct CnfArgs {
    /// CNF encoding: minimal, efficient, extended (default) or triad.
    #[arg(long, default_value_t = Encoding::default(), help_heading = "SAT encoding")]
    encoding: Encoding,
    /// At-most-one encoding: auto (pairwise up to 9, ladder above), pairwise, ladder, product,
    /// bimander or commander.
    #[arg(long, default_value_t = Amo::default(), help_heading = "SAT encoding")]
    amo: Amo,
    /// Killer cage sums: combinations (default; a selector per digit set reaching the sum), or
    /// the pseudo-Boolean `Σ digit·x = sum` as gte (generalized totalizer), dpw (dynamic
    /// polynomial watchdog) or adder (binary adder).
    #[arg(long, default_value_t = CageEncoding::default(), help_heading = "SAT encoding")]
    cage_encoding: CageEncoding,
    /// Variant rules between two cells: direct (default; a clause per forbidden digit pair and
    /// one per digit listing its partners, so propagation keeps every digit that has a partner)
    /// or order (thermometers, whispers, white dots and renban over order literals "cell ≥ d",
    /// so propagation keeps the digits that have a partner within the other cell's bounds; the
    /// other rules stay direct).
    #[arg(long, value_name = "ENC", default_value_t = PairEncoding::default(), help_heading = "SAT encoding")]
    pair_encoding: PairEncoding,
    /// Keep the plain encoding: do not simplify the givens away.
    #[arg(long, help_heading = "SAT encoding")]
    pub no_simplify: bool,
}

impl CnfArgs {
    pub fn encode_options(&self) -> EncodeOptions {
        EncodeOptions {
            encoding: self.encoding,
            amo: self.amo,
            simplify: !self.no_simplify,
            propagate: false,
            cage: self.cage_encoding,
            pair: self.pair_encoding,
        }
    }
}

impl BackendArgs {
    /// The backend of `--backend`.
    pub fn create(&self) -> Result<Box<dyn Backend>, UsageError> {
        self.engine.create_named(&self.backend)
    }
}

impl EngineArgs {
    fn options(&self) -> BackendOptions {
        let e = self.cnf.encode_options();
        BackendOptions {
            sat: SatOptions {
                encoding: e.encoding,
                amo: e.amo,
                cage: e.cage,
                pair: e.pair,
                simplify: e.simplify,
                propagate: e.simplify && !self.no_propagate,
                proof: self.proof.clone(),
                check_proof: self.check_proof,
                cadical_config: self.cadical_config,
                optimizer: self.sat_opt,
                memory_budget: mib(self.sat_memory_mib),
            },
            ilp: IlpOptions {
                solver: self.ilp_solver,
            },
            dlx: DlxOptions {
                memory_budget: mib(self.dlx_memory_mib),
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
                    alldiff: self.cp.cp_alldiff,
                    allow_unsound: self.cp.allow_unsound,
                    house_cover: self.cp.cp_house_cover,
                    branching: self.cp.cp_branch,
                    searches: self.cp.cp_searches,
                },
                memory_mib: self.cp.cp_memory_mib,
                worker: (!self.cp.cp_in_process).then(cp_worker),
            },
        }
    }
    /// Whether `--proof` asks for proofs (all of them go to one file).
    pub fn writes_proofs(&self) -> bool {
        self.proof.is_some()
    }
    /// The backend of this kind, with the options of the flags.
    pub fn create(&self, kind: BackendKind) -> Result<Box<dyn Backend>, UsageError> {
        if let Some(p) = &self.proof {
            writable(p, "--proof")?;
        }
        backends::create(kind, &self.options())
            .map_err(|e| UsageError(format!("backend {kind}: {e}")))
    }
    /// The backend named `name` (as given to `--backend` or `--backends`).
    pub fn create_named(&self, name: &str) -> Result<Box<dyn Backend>, UsageError> {
        self.create(name.parse()?)
    }
    /// The named backends, or every backend compiled in when `names` is empty.
    pub fn create_all(&self, names: &[String]) -> Result<Vec<Box<dyn Backend>>, UsageError> {
        if names.is_empty() {
            BackendKind::all()
                .into_iter()
                .map(|k| self.create(k))
                .collect()
        } else {
            names.iter().map(|n| self.create_named(n)).collect()
        }
    }
    /// The flags that change what a backend answers, to repeat in a replay command: the time
    /// limit, the external solver commands, and every encoding, model or solver choice that is
    /// not the default (a fault found under `--cp-alldiff bounds` replays under it).
    pub fn replay_flags(&self) -> String {
        let mut flags = String::new();
        if let Some(t) = self.timeout {
            flags.push_str(&format!(" --timeout {t}"));
        }
        for (flag, cmd) in [
            ("--sat-cmd", &self.sat_cmd),
            ("--maxsat-cmd", &self.maxsat_cmd),
            ("--cmd", &self.cmd),
        ] {
            if let Some(cmd) = cmd {
                flags.push_str(&format!(" {flag} {}", quote(cmd)));
            }
        }
        let cnf = self.cnf.encode_options();
        let cnf0 = EncodeOptions::default();
        let cp = &self.cp;
        let choices = [
            ("--mzn-cmd", self.mzn_cmd.clone(), MZN_PROGRAM.to_string()),
            (
                "--mzn-solver",
                self.mzn_solver.clone(),
                MZN_SOLVER.to_string(),
            ),
            (
                "--encoding",
                cnf.encoding.to_string(),
                cnf0.encoding.to_string(),
            ),
            ("--amo", cnf.amo.to_string(), cnf0.amo.to_string()),
            (
                "--cage-encoding",
                cnf.cage.to_string(),
                cnf0.cage.to_string(),
            ),
            (
                "--pair-encoding",
                cnf.pair.to_string(),
                cnf0.pair.to_string(),
            ),
            (
                "--cadical-config",
                self.cadical_config.to_string(),
                CadicalConfig::default().to_string(),
            ),
            (
                "--sat-opt",
                self.sat_opt.name().into(),
                SatOptimizer::default().name().into(),
            ),
            (
                "--ilp-solver",
                self.ilp_solver.name().into(),
                IlpSolver::default().name().into(),
            ),
            (
                "--cp-alldiff",
                cp.cp_alldiff.to_string(),
                AllDiffLevel::default().to_string(),
            ),
            (
                "--cp-house-cover",
                cp.cp_house_cover.to_string(),
                HouseCover::default().to_string(),
            ),
            (
                "--cp-branch",
                cp.cp_branch.to_string(),
                Branching::default().to_string(),
            ),
            (
                "--cp-searches",
                cp.cp_searches.to_string(),
                Searches::default().to_string(),
            ),
        ];
        for (flag, value, default) in choices {
            if value != default {
                flags.push_str(&format!(" {flag} {}", quote(&value)));
            }
        }
        for (flag, on) in [
            ("--no-simplify", self.cnf.no_simplify),
            ("--no-propagate", self.no_propagate),
            ("--cp-in-process", cp.cp_in_process),
            ("--allow-unsound", cp.allow_unsound),
        ] {
            if on {
                flags.push_str(&format!(" {flag}"));
            }
        }
        flags
    }
    pub fn timeout(&self) -> Result<Option<Duration>, UsageError> {
        seconds_arg("--timeout", self.timeout)
    }
    pub fn limits(&self) -> Result<Limits, UsageError> {
        Ok(self.timeout()?.map_or(Limits::none(), Limits::timeout))
    }
}
