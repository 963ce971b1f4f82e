//! The flags that choose and set up backends — `--backend`, and the options of every engine
//! (`--timeout`, the SAT encoding, the external solver commands, …) — and the one place that
//! builds backends from them.
//!
//! [`EngineArgs`] keeps, besides the resolved flags ([`EngineFlags`], derived by clap), the words
//! of every engine flag the command line gave, read from clap's matches argument by argument:
//! [`EngineArgs::replay_flags`] repeats them (a fuzz fault's replay command), so a flag added to
//! [`EngineFlags`] or to a group it flattens is replayed with no more code. The tests parse each
//! flag's replay back to the same options, for every argument of the group.

use std::path::PathBuf;
use std::time::Duration;

use clap::parser::ValueSource;
use clap::{ArgAction, ArgMatches, Args, FromArgMatches};

use sudoku_lab::backend::{Backend, Limits};
use sudoku_lab::backends::dfs::DfsBranching;
use sudoku_lab::backends::dlx::DEFAULT_MEMORY_LIMIT;
use sudoku_lab::backends::ilp::IlpSolver;
use sudoku_lab::backends::minizinc::{
    DEFAULT_PROGRAM as MZN_PROGRAM, DEFAULT_SOLVER as MZN_SOLVER,
};
use sudoku_lab::backends::sat::{
    CadicalConfig, SatOptimizer, DEFAULT_MEMORY_LIMIT as SAT_MEMORY_LIMIT,
};
use sudoku_lab::backends::{self, BackendKind, BackendOptions};
use sudoku_lab::cp::{
    AllDiffLevel, Branching, HouseCover, ObjectiveBound, Searches,
    DEFAULT_MEMORY_MIB as CP_MEMORY_MIB,
};
use sudoku_lab::format::ReadOptions;
use sudoku_lab::isolate::WorkerProgram;
use sudoku_lab::sat::encode::{
    Amo, CageEncoding, EncodeOptions, Encoding, PairEncoding, SumEncoding,
};
use sudoku_lab::settings::EngineSettings;
use sudoku_lab::task::Task;
use sudoku_lab::weights::WeightSource;

use super::args::{named_once, quote, seconds_arg, InputArgs, TaskArg, TaskOptions};
use super::output::file_only;
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

/// Options every backend may read, and the time limit, as clap derives them. [`EngineArgs`]
/// keeps them with the words that set them.
#[derive(Args, Debug)]
pub struct EngineFlags {
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
    /// sat, cadical, sat-ext, maxsat-ext: do not fix naked / hidden singles and locked candidates
    /// before encoding (they are by default; the SAT solver then sees only what those simple
    /// rules leave open).
    #[arg(long, help_heading = "SAT backend")]
    no_propagate: bool,
    /// sat, cadical, sat-ext, maxsat-ext: do not probe the root of a puzzle with variant rules (by
    /// default each digit left to a cell is tried and propagated through the rules before
    /// encoding, as `cp` does; what a trial rules out is removed, and many variant puzzles reach
    /// the solver settled).
    #[arg(long, help_heading = "SAT backend")]
    no_probe: bool,
    /// sat, cadical, sat-ext, maxsat-ext: largest CNF formula to build, in MiB (as estimated before building
    /// it, solver memory included); larger puzzles are refused.
    #[arg(long, value_name = "MIB", default_value_t = (SAT_MEMORY_LIMIT >> 20) as u64,
          value_parser = clap::value_parser!(u64).range(1..), help_heading = "SAT backend")]
    sat_memory_mib: u64,
    /// dfs: how the search picks the cell to branch on, on puzzles with Killer cages or variant
    /// rules — auto (dom/wdeg with variant rules, the fewest candidates with cages alone; the
    /// default), dom (the fewest candidates) or wdeg (the fewest candidates per unit of conflict
    /// weight, with cages too). Other puzzles keep their kernel's own rule.
    #[arg(long, value_name = "RULE", default_value_t = DfsBranching::default(), help_heading = "DFS backend")]
    dfs_branch: DfsBranching,
    /// dlx: largest exact-cover matrix to build, in MiB; larger puzzles are refused.
    #[arg(long, value_name = "MIB", default_value_t = (DEFAULT_MEMORY_LIMIT >> 20) as u64,
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
    /// cp: leave the fixed cells (a single digit after root propagation) out of every
    /// all-different. huub 100.1 crashes on some puzzles with them in and has not crashed
    /// without them, but the searches are slower; a crash of the solver is retried this way
    /// first.
    #[arg(long, help_heading = "CP backend")]
    cp_drop_fixed: bool,
    /// cp, optimize: the redundant bound on the score — reduced-costs (the default: the score
    /// rewritten by the reduced costs of the houses' linear relaxation, so that a digit whose
    /// cost exceeds what the score can still lose is removed) or none (the weighted sum alone,
    /// whose bounds see each cell apart).
    #[arg(long, value_name = "BOUND", default_value_t = ObjectiveBound::default(), help_heading = "CP backend")]
    cp_objective_bound: ObjectiveBound,
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
    /// Sums of variant rules (arrows, little killers, double arrows, zipper and region sum lines,
    /// sandwiches, X-sums): auto (default; order, or adder for a sum too large), order (partial
    /// sums as order literals "sum so far ≥ k", built cell by cell, so propagation reasons over
    /// bounds), adder (binary adder) or gte (generalized totalizer).
    #[arg(long, value_name = "ENC", default_value_t = SumEncoding::default(), help_heading = "SAT encoding")]
    sum_encoding: SumEncoding,
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
            probe: false,
            cage: self.cage_encoding,
            pair: self.pair_encoding,
            sum: self.sum_encoding,
        }
    }
}

impl BackendArgs {
    /// The backend of `--backend`.
    pub fn create(&self) -> Result<Box<dyn Backend>, UsageError> {
        self.engine.create_named(&self.backend)
    }
}

impl EngineFlags {
    /// The settings the flags give, as the library names them.
    fn settings(&self) -> EngineSettings {
        let (cnf, cp) = (&self.cnf, &self.cp);
        EngineSettings {
            encoding: cnf.encoding,
            amo: cnf.amo,
            cage_encoding: cnf.cage_encoding,
            pair_encoding: cnf.pair_encoding,
            sum_encoding: cnf.sum_encoding,
            no_simplify: cnf.no_simplify,
            no_propagate: self.no_propagate,
            no_probe: self.no_probe,
            proof: self.proof.clone(),
            check_proof: self.check_proof,
            sat_cmd: self.sat_cmd.clone(),
            maxsat_cmd: self.maxsat_cmd.clone(),
            cmd: self.cmd.clone(),
            cadical_config: self.cadical_config,
            sat_opt: self.sat_opt,
            sat_memory_mib: self.sat_memory_mib,
            dfs_branch: self.dfs_branch,
            dlx_memory_mib: self.dlx_memory_mib,
            ilp_solver: self.ilp_solver,
            cp_alldiff: cp.cp_alldiff,
            allow_unsound: cp.allow_unsound,
            cp_house_cover: cp.cp_house_cover,
            cp_branch: cp.cp_branch,
            cp_searches: cp.cp_searches,
            cp_drop_fixed: cp.cp_drop_fixed,
            cp_objective_bound: cp.cp_objective_bound,
            cp_memory_mib: cp.cp_memory_mib,
            cp_in_process: cp.cp_in_process,
            mzn_cmd: self.mzn_cmd.clone(),
            mzn_solver: self.mzn_solver.clone(),
        }
    }

    fn options(&self) -> BackendOptions {
        self.settings().options(cp_worker)
    }
}

/// The engine flags as resolved ([`EngineFlags`]), and the words that set them on the command
/// line, so that a run can be repeated ([`EngineArgs::replay_flags`]).
#[derive(Debug)]
pub struct EngineArgs {
    flags: EngineFlags,
    /// Every engine flag the command line gave, with its values, in the order given.
    given: Vec<Given>,
}

/// One engine flag given on the command line: its id, where it was, and its words.
#[derive(Debug)]
struct Given {
    id: String,
    index: usize,
    words: Vec<String>,
}

impl Args for EngineArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        EngineFlags::augment_args(cmd)
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        EngineFlags::augment_args_for_update(cmd)
    }
}

impl FromArgMatches for EngineArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        Self::from_arg_matches_mut(&mut matches.clone())
    }
    fn from_arg_matches_mut(matches: &mut ArgMatches) -> Result<Self, clap::Error> {
        // Read the words before the derived code takes the values out of `matches`.
        let given = given_flags(matches);
        Ok(EngineArgs {
            flags: EngineFlags::from_arg_matches_mut(matches)?,
            given,
        })
    }
    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        self.update_from_arg_matches_mut(&mut matches.clone())
    }
    fn update_from_arg_matches_mut(&mut self, matches: &mut ArgMatches) -> Result<(), clap::Error> {
        let given = given_flags(matches);
        self.given
            .retain(|old| given.iter().all(|new| new.id != old.id));
        self.given.extend(given);
        self.given.sort_by_key(|g| g.index);
        self.flags.update_from_arg_matches_mut(matches)
    }
}

/// The engine flags that `matches` holds from the command line (or the environment), each as
/// the words that give it again: `--flag` for a switch (once per occurrence of a counter),
/// `--flag VALUE` per occurrence of an option (its values joined by the flag's delimiter),
/// `--flag=VALUE` when the value starts with `-`. Nothing is listed by name: every argument of
/// [`EngineFlags`] is read the same way, so a flag added there is replayed with no more code.
fn given_flags(matches: &ArgMatches) -> Vec<Given> {
    let group = EngineFlags::augment_args(clap::Command::new("engine"));
    let mut given: Vec<Given> = group
        .get_arguments()
        .filter_map(|arg| {
            let id = arg.get_id().as_str();
            let from_user = matches!(
                matches.value_source(id),
                Some(ValueSource::CommandLine | ValueSource::EnvVariable)
            );
            let long = arg.get_long().filter(|_| from_user)?;
            let flag = format!("--{long}");
            let mut words = Vec::new();
            if !arg.get_action().takes_values() {
                let times = match arg.get_action() {
                    ArgAction::Count => matches.get_count(id).into(),
                    _ => 1,
                };
                words.extend(std::iter::repeat_n(flag, times));
            } else {
                let delimiter = arg.get_value_delimiter().unwrap_or(' ').to_string();
                for occurrence in matches.get_raw_occurrences(id)? {
                    let values: Vec<String> = occurrence
                        .map(|v| v.to_string_lossy().into_owned())
                        .collect();
                    let value = values.join(&delimiter);
                    if value.starts_with('-') {
                        words.push(format!("{flag}={value}"));
                    } else {
                        words.extend([flag.clone(), value]);
                    }
                }
            }
            Some(Given {
                id: id.to_string(),
                index: matches.index_of(id).unwrap_or(usize::MAX),
                words,
            })
        })
        .collect();
    given.sort_by_key(|g| g.index);
    given
}

impl EngineArgs {
    /// Whether `--proof` asks for proofs (all of them go to one file).
    pub fn writes_proofs(&self) -> bool {
        self.flags.proof.is_some()
    }
    /// The backend of this kind, with the options of the flags. With `--proof`, it must be one
    /// that writes proofs.
    pub fn create(&self, kind: BackendKind) -> Result<Box<dyn Backend>, UsageError> {
        self.check_proofs(&[kind])?;
        self.build(kind)
    }
    fn build(&self, kind: BackendKind) -> Result<Box<dyn Backend>, UsageError> {
        backends::create(kind, &self.flags.options())
            .map_err(|e| UsageError(format!("backend {kind}: {e}")))
    }
    /// With `--proof FILE`: exactly one of `kinds` writes proofs (two would write the same
    /// file), and FILE can be written. Checked before any file is created.
    fn check_proofs(&self, kinds: &[BackendKind]) -> Result<(), UsageError> {
        let Some(p) = &self.flags.proof else {
            return Ok(());
        };
        let provers: Vec<&str> = (kinds.iter())
            .filter(|k| k.writes_proofs())
            .map(|k| k.name())
            .collect();
        match provers[..] {
            [_] => file_only(p, "--proof", "the proof, and the formula to FILE.cnf"),
            [] => Err(UsageError(format!(
                "--proof: {} writes no proofs (only sat and cadical do)",
                kinds
                    .iter()
                    .map(|k| k.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
            _ => Err(UsageError(format!(
                "--proof: {} would each write {}: name one of them",
                provers.join(" and "),
                p.display()
            ))),
        }
    }
    /// `--proof` refused by a command that runs many puzzles, whose proofs would overwrite
    /// each other in one file.
    pub fn no_proofs(&self, command: &str) -> Result<(), UsageError> {
        match self.flags.proof {
            Some(_) => Err(UsageError(format!(
                "--proof writes the proofs of one puzzle, and {command} runs many: prove a \
                 puzzle with solve, count, unique, optimize or judge"
            ))),
            None => Ok(()),
        }
    }
    /// The backend named `name` (as given to `--backend`).
    pub fn create_named(&self, name: &str) -> Result<Box<dyn Backend>, UsageError> {
        self.create(name.parse()?)
    }
    /// The backends named (`--backends`, each once), or every backend compiled in when `names`
    /// is empty. With `--proof`, one of them must write proofs; the others write none.
    pub fn create_all(&self, names: &[String]) -> Result<Vec<Box<dyn Backend>>, UsageError> {
        let kinds = if names.is_empty() {
            BackendKind::all()
        } else {
            let kinds = (names.iter())
                .map(|n| n.parse())
                .collect::<Result<Vec<BackendKind>, _>>()?;
            named_once("--backends", &kinds, "each backend runs once")?;
            kinds
        };
        self.check_proofs(&kinds)?;
        kinds.into_iter().map(|k| self.build(k)).collect()
    }
    /// The engine flags the command line gave, in the order given, each word quoted for a shell
    /// and preceded by a space: repeated in a replay command, they give back these options
    /// (every flag whose value is not its default, whichever it is).
    pub fn replay_flags(&self) -> String {
        self.given
            .iter()
            .flat_map(|g| &g.words)
            .map(|w| format!(" {}", quote(w)))
            .collect()
    }
    pub fn timeout(&self) -> Result<Option<Duration>, UsageError> {
        seconds_arg("--timeout", self.flags.timeout)
    }
    pub fn limits(&self) -> Result<Limits, UsageError> {
        Ok(self.timeout()?.map_or(Limits::none(), Limits::timeout))
    }
}

/// What `bench` and `xcheck` run, resolved from their flags: each backend on each puzzle, the
/// task with its weights, how the puzzles are read, and the limits.
pub struct Runs {
    pub backends: Vec<Box<dyn Backend>>,
    pub task: Task,
    pub read: ReadOptions,
    pub weights: Option<WeightSource>,
    /// Each run's time limit.
    pub timeout: Option<Duration>,
    /// Each backend's time budget (`--budget`, [`sudoku_lab::budget`]): over the whole run
    /// (`xcheck`), or on each file (`bench`).
    pub budget: Option<Duration>,
}

impl Runs {
    /// The backends named in `backends` (all when empty), the task, reading and limits.
    pub fn resolve(
        engine: &EngineArgs,
        backends: &[String],
        (task, task_options): (TaskArg, &TaskOptions),
        input: &InputArgs,
        budget: Option<f64>,
    ) -> Result<Runs, UsageError> {
        let (task, weights) = task_options.resolve(task)?;
        Ok(Runs {
            backends: engine.create_all(backends)?,
            task,
            read: input.read_options(),
            weights,
            timeout: engine.timeout()?,
            budget: seconds_arg("--budget", budget)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    /// A command with only the engine flags.
    #[derive(Parser, Debug)]
    struct Engine {
        #[command(flatten)]
        engine: EngineArgs,
    }

    fn parse<S: AsRef<str>>(words: &[S]) -> Result<EngineArgs, clap::Error> {
        let argv = std::iter::once("engine").chain(words.iter().map(AsRef::as_ref));
        Engine::try_parse_from(argv).map(|e| e.engine)
    }

    /// What the options resolve to, to compare two parses.
    fn resolved(e: &EngineArgs) -> String {
        format!("{:?}", e.flags)
    }

    /// The choices a flag names in its error for an unknown word ("choose one of: a, b").
    fn choices(flag: &str) -> Vec<String> {
        let error = parse(&[flag, "?"]).err().map(|e| e.to_string());
        let listed = error
            .as_deref()
            .and_then(|e| e.split_once("choose one of: "));
        listed.map_or(Vec::new(), |(_, rest)| {
            let list = rest.split(')').next().unwrap_or("");
            list.split(", ").map(str::to_string).collect()
        })
    }

    /// Words that give `arg` a value other than its default: the flag alone for a switch, else
    /// the first of its choices, a command line with quotes and spaces, or a number, that
    /// parses and changes the options.
    fn non_default(arg: &clap::Arg, defaults: &str) -> Vec<String> {
        let flag = format!("--{}", arg.get_long().expect("engine flags are long"));
        if !arg.get_action().takes_values() {
            return vec![flag];
        }
        let mut candidates: Vec<String> = arg
            .get_possible_values()
            .iter()
            .map(|v| v.get_name().to_string())
            .chain(choices(&flag))
            .collect();
        candidates.extend(["prog --opt 'a b' {}".into(), "7".into(), "2.5".into()]);
        candidates
            .into_iter()
            .map(|v| vec![flag.clone(), v])
            .find(|words| parse(words).is_ok_and(|e| resolved(&e) != defaults))
            .unwrap_or_else(|| panic!("no value of {flag} changes the options"))
    }

    #[test]
    fn every_engine_flag_comes_back_from_its_replay() {
        let defaults = resolved(&parse::<&str>(&[]).unwrap());
        assert_eq!(parse::<&str>(&[]).unwrap().replay_flags(), "");
        let group = EngineFlags::augment_args(clap::Command::new("engine"));
        let mut all = Vec::new();
        let mut flags = 0;
        for arg in group.get_arguments() {
            let words = non_default(arg, &defaults);
            let given = parse(&words).unwrap();
            let replay = given.replay_flags();
            let again = parse(&shlex::split(&replay).unwrap()).unwrap();
            assert_eq!(
                resolved(&again),
                resolved(&given),
                "{words:?} replays as '{replay}'"
            );
            assert_eq!(again.replay_flags(), replay);
            all.extend(words);
            flags += 1;
        }
        assert!(flags >= 25, "only {flags} engine flags found");
        // All at once, in the order given.
        let given = parse(&all).unwrap();
        let replay = given.replay_flags();
        assert_eq!(shlex::split(&replay).unwrap(), all);
        assert_eq!(resolved(&parse(&all).unwrap()), resolved(&given));
    }

    #[test]
    fn replays_keep_the_order_and_the_form_of_values() {
        let e = parse(&[
            "--pair-encoding",
            "order",
            "--cp-alldiff",
            "bounds",
            "--no-simplify",
            "--sat-cmd=-weird solver",
            "--timeout",
            "2.5",
        ])
        .unwrap();
        assert_eq!(
            e.replay_flags(),
            " --pair-encoding order --cp-alldiff bounds --no-simplify \
             '--sat-cmd=-weird solver' --timeout 2.5"
        );
        // A fault found under a memory limit replays under it.
        let e = parse(&["--dlx-memory-mib", "64", "--cp-memory-mib", "32"]).unwrap();
        assert_eq!(e.replay_flags(), " --dlx-memory-mib 64 --cp-memory-mib 32");
    }
}
