//! `sat`: the CNF encodings of [`crate::sat::encode`] solved in process by varisat.
//!
//! * `solve` / `count`: one incremental solver per puzzle; after each solution a blocking clause
//!   over the chosen-digit literals of the free cells excludes it, until the formula becomes
//!   unsatisfiable or the limit is reached (limit 2 for uniqueness).
//! * `optimize` ([`SatOptimizer::Core`], the default): the loss rewritten by reduced costs from
//!   house duals ([`crate::sat::dual`]), then core-guided MaxSAT ([`crate::sat::maxsat`]) on the
//!   same solver; see [`optimize_core`]. [`SatOptimizer::Linear`]: the score as a pseudo-Boolean
//!   bound ([`crate::sat::objective`]); after each solution the bound is tightened to "strictly
//!   better" on the same solver, and the final unsatisfiable call proves optimality.
//! * Deadlines: varisat has no interrupt, so with a deadline the work runs on a worker thread and
//!   the caller waits with `recv_timeout`. At the deadline the caller returns
//!   [`BackendError::TimedOut`] (or, for `optimize`, the best grid found so far, not proved) and
//!   abandons the thread. From 25×25 up, and for `optimize` at any size, the thread stops within
//!   milliseconds: its solver writes a discarded proof to a [`StopWriter`] that fails once the
//!   deadline passes, which ends the solve (below that size the proof's cost outweighs it for
//!   solving and counting, whose runs are short anyway). Without a deadline everything runs on
//!   the calling thread.
//! * `cadical` (feature): the same driver over CaDiCaL, which a terminator stops at the deadline.
//!   [`CadicalConfig::Race`] (what `auto` picks from 25×25 up) runs one worker per preset on a
//!   shared cancel flag: the first answer wins and stops the others; an error is reported only
//!   once every worker has stopped.
//! * Proofs: with [`SatOptions::proof`], every answer that ends in an unsatisfiable call (no
//!   solution, a complete count such as "unique", a proved optimum) is re-derived by a fresh
//!   varisat run on the final formula (encoding + blocking / bound clauses), which writes a DRAT
//!   proof to the file and that formula as DIMACS to the file name plus `.cnf`. With
//!   [`SatOptions::check_proof`] varisat's checker checks every step of that run as it is made.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};

use crate::backend::{self, Backend, BackendError, Count, Limits, Optimum};
use crate::model::{ConstraintKind, Grid, Puzzle};
use crate::sat::dual;
use crate::sat::encode::{self, Decoder, Numbering};
use crate::sat::maxsat::{self, MaxSatResult, Oracle};
use crate::sat::memory::{check_memory, Holder};
use crate::sat::objective::Objective;
use crate::sat::{dimacs, failed, ClauseSink, Cnf, Lit, Var, VarisatSink};

pub use crate::sat::options::{
    CadicalConfig, SatOptimizer, SatOptions, DEFAULT_MEMORY_BUDGET, RACE_MIN_SIZE,
};

/// The SAT backend: `sat` (varisat) or `cadical`.
pub struct Sat {
    options: SatOptions,
    engine: EngineKind,
}

impl Sat {
    /// The `sat` backend (varisat).
    pub fn new(options: SatOptions) -> Sat {
        Sat::with_engine(options, EngineKind::Varisat)
    }
    pub fn with_engine(options: SatOptions, engine: EngineKind) -> Sat {
        Sat { options, engine }
    }
}

/// The in-process solvers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineKind {
    Varisat,
    /// CaDiCaL through rustsat (feature `cadical`).
    #[cfg(feature = "cadical")]
    Cadical,
}

/// A puzzle loaded into an incremental solver; also records every clause when a proof will be
/// needed.
struct Session<E: Oracle> {
    sink: E,
    record: Option<Cnf>,
    decoder: Decoder,
    /// The last call was unsatisfiable.
    unsat: bool,
}

impl<E: Oracle> ClauseSink for Session<E> {
    fn n_vars(&self) -> u32 {
        self.sink.n_vars()
    }
    fn reserve_vars(&mut self, n: u32) {
        self.sink.reserve_vars(n);
        if let Some(r) = &mut self.record {
            r.reserve_vars(n);
        }
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        self.sink.add_clause(lits);
        if let Some(r) = &mut self.record {
            r.add_clause(lits);
        }
    }
}

impl<E: Oracle> Oracle for Session<E> {
    fn solve_assuming(&mut self, assumptions: &[Lit]) -> Result<bool, BackendError> {
        self.sink.solve_assuming(assumptions)
    }
    fn core(&mut self) -> Result<Vec<Lit>, BackendError> {
        self.sink.core()
    }
    fn values(&mut self, n: usize) -> Result<Vec<bool>, BackendError> {
        self.sink.values(n)
    }
}

impl<E: Oracle> Session<E> {
    fn new(puzzle: &Puzzle, opts: &SatOptions, mut sink: E) -> Session<E> {
        let mut record = opts.proof.as_ref().map(|_| Cnf::new());
        let enc = match &mut record {
            None => encode::encode(
                puzzle,
                &opts.encode_options(),
                Numbering::Compact,
                &mut sink,
            ),
            Some(r) => {
                let enc = encode::encode(puzzle, &opts.encode_options(), Numbering::Compact, r);
                r.feed(&mut sink);
                enc
            }
        };
        Session {
            sink,
            record,
            decoder: enc.decoder,
            unsat: false,
        }
    }

    /// The next solution, or `None` once the formula is unsatisfiable.
    fn next(&mut self) -> Result<Option<Grid>, BackendError> {
        self.next_assuming(&[])
    }

    /// The next solution with every literal of `assumptions` true.
    fn next_assuming(&mut self, assumptions: &[Lit]) -> Result<Option<Grid>, BackendError> {
        if !self.sink.solve_assuming(assumptions)? {
            self.unsat = true;
            return Ok(None);
        }
        let value = self.sink.values(self.sink.n_vars() as usize)?;
        Ok(Some(self.decoder.decode(|v: Var| value[v.idx()])))
    }

    /// Excludes `grid` from further solutions.
    fn block(&mut self, grid: &Grid) {
        let mut clause = Vec::new();
        self.decoder.blocking_clause(grid, &mut clause);
        self.add_clause(&clause);
    }

    /// Writes (and optionally checks) the DRAT proof of the final unsatisfiable call.
    fn prove(&self, path: &Path, check: bool) -> Result<(), BackendError> {
        match &self.record {
            Some(cnf) => prove(cnf, path, check),
            None => Ok(()),
        }
    }

    fn finish_proof(&self, opts: &SatOptions) -> Result<(), BackendError> {
        match &opts.proof {
            Some(p) if self.unsat => self.prove(p, opts.check_proof),
            _ => Ok(()),
        }
    }
}

/// Writes `cnf` next to `path` (as `path.cnf`) and a DRAT proof that it is unsatisfiable to
/// `path`, from a fresh varisat run (checked as it goes with `check`).
fn prove(cnf: &Cnf, path: &Path, check: bool) -> Result<(), BackendError> {
    let mut cnf_path = path.as_os_str().to_owned();
    cnf_path.push(".cnf");
    let comments = [format!(
        "formula refuted by the DRAT proof in {} (sudoku-lab sat backend, compact numbering)",
        path.display()
    )];
    let mut f = File::create(&cnf_path).map_err(failed)?;
    dimacs::write(cnf, &comments, &mut f).map_err(failed)?;
    let out = BufWriter::new(File::create(path).map_err(failed)?);
    let mut solver = varisat::Solver::new();
    solver.write_proof(out, varisat::ProofFormat::Drat);
    if check {
        solver.enable_self_checking();
    }
    let mut sink = VarisatSink::new(solver);
    cnf.feed(&mut sink);
    let sat = sink
        .solver
        .solve()
        .map_err(|e| failed(format!("proof run: {e}")))?;
    sink.solver
        .close_proof()
        .map_err(|e| failed(format!("proof: {e}")))?;
    if sat {
        return Err(failed(
            "proof run found the final formula satisfiable (solver disagreement)",
        ));
    }
    Ok(())
}

/// What to compute.
#[derive(Debug, Clone, Copy)]
enum Job {
    Count(u64),
    Optimize,
}

enum Outcome {
    Count(Count),
    Optimum(Optimum),
}

/// Progress a run reports as it goes, so that a run stopped by the deadline still says what it
/// found: a count's next solution, or an optimisation's better grid and the upper bound on the
/// score.
enum Progress<'g> {
    Found(&'g Grid),
    Improved {
        score: i64,
        grid: &'g Grid,
        bound: i64,
    },
}

/// Where a run reports its [`Progress`].
type Improved<'a> = &'a mut dyn FnMut(Progress<'_>);

fn count<E: Oracle>(
    puzzle: &Puzzle,
    opts: &SatOptions,
    engine: E,
    limit: u64,
    found: Improved<'_>,
    cancel: &AtomicBool,
) -> Result<Count, BackendError> {
    let mut s = Session::new(puzzle, opts, engine);
    let count = backend::enumerate(limit, || {
        if cancel.load(Ordering::Relaxed) {
            return Err(BackendError::TimedOut);
        }
        let g = s.next()?;
        if let Some(g) = &g {
            s.block(g);
            found(Progress::Found(g));
        }
        Ok(g)
    })?;
    if !count.timed_out {
        s.finish_proof(opts)?;
    }
    Ok(count)
}

fn optimize<E: Oracle>(
    puzzle: &Puzzle,
    opts: &SatOptions,
    engine: E,
    improved: Improved<'_>,
    cancel: &AtomicBool,
    deadline: Option<std::time::Instant>,
) -> Result<Optimum, BackendError> {
    if puzzle.weights().is_none() {
        return Err(BackendError::Unsupported("optimize needs weights".into()));
    }
    let mut s = Session::new(puzzle, opts, engine);
    // The formula before any bound: what a proof of optimality refutes, with "better than the
    // optimum" added.
    let base = s.record.clone();
    let Some(first) = s.next()? else {
        s.finish_proof(opts)?;
        return Ok(Optimum::NoSolution);
    };
    let mut obj =
        Objective::new(puzzle, &s.decoder).map_err(|e| BackendError::Unsupported(e.to_string()))?;
    let best = match opts.optimizer {
        SatOptimizer::Linear => optimize_linear(puzzle, &mut s, &mut obj, first, improved, cancel)?,
        SatOptimizer::Core => optimize_core(puzzle, &mut s, first, improved, cancel, deadline)?,
    };
    if let (Some(path), Some(mut cnf)) = (&opts.proof, base) {
        // No grid loses less than the optimum: the formula with "loss < optimum's" is refuted.
        if obj.require_loss_at_most(obj.loss(puzzle, &best) - 1, &mut cnf) {
            prove(&cnf, path, opts.check_proof)?;
        } else {
            // Loss 0 is optimal by the bound alone: nothing to refute.
            let _ = std::fs::remove_file(path);
        }
    }
    let score = puzzle.weights().map_or(0, |w| w.score(&best));
    Ok(Optimum::Optimal { score, grid: best })
}

/// Solution-improving search: demand a strictly smaller loss after each solution, until
/// unsatisfiable. Each bound is assumed for its calls only (see [`Objective::bound_loss`]).
fn optimize_linear<E: Oracle>(
    puzzle: &Puzzle,
    s: &mut Session<E>,
    obj: &mut Objective,
    mut best: Grid,
    improved: Improved<'_>,
    cancel: &AtomicBool,
) -> Result<Grid, BackendError> {
    let score_of = |g: &Grid| puzzle.weights().map_or(0, |w| w.score(g));
    loop {
        improved(Progress::Improved {
            score: score_of(&best),
            grid: &best,
            bound: obj.score_bound(),
        });
        if cancel.load(Ordering::Relaxed) {
            return Err(BackendError::TimedOut);
        }
        let loss = obj.loss(puzzle, &best);
        let Some(bound) = obj.bound_loss(loss - 1, s) else {
            // Loss 0 is the bound itself: optimal without a further call.
            return Ok(best);
        };
        match s.next_assuming(&bound)? {
            Some(g) => best = g,
            None => return Ok(best),
        }
    }
}

/// How long the core-guided search runs on the duals of [`dual::Duals::Ascent`] before it starts
/// over on those of the linear programme (see [`optimize_core`]).
const ASCENT_BUDGET: std::time::Duration = std::time::Duration::from_millis(10);

/// Core-guided search ([`maxsat::minimize`]). Each free cell `c` loses `θ(c, d) = best(c) − w(c)·d`
/// when it holds `d`, `best(c)` its best candidate's `w(c)·d'` (never negative, whatever the sign
/// of the weight); the score is the sum of the best values (and the givens' scores) minus the
/// loss. The loss is rewritten by reduced costs ([`dual::reduce`]): it is `offset + Σ rc(c, d)`
/// in every solution, `offset` a bound from the house duals, and the soft literal `¬x(c, d)`
/// weighs `rc(c, d)`, so the cores only have to prove what lies above the offset. Two stages on
/// the same solver:
///
/// 1. Duals from coordinate ascent (microseconds). On most weighted puzzles the offset is then
///    the optimum itself or close to it, and the search ends within [`ASCENT_BUDGET`].
/// 2. Otherwise (the ascent stalled far below the optimum, as on the empty pyramid) the search
///    starts over on the duals of the linear programme (milliseconds to tens of milliseconds on
///    9×9, seconds on 25×25; microlp stops at the run's deadline), whose offset is the
///    relaxation's bound. The clauses the first stage left (totalizers, hardened literals,
///    refuted literals) keep every optimal solution, so the second stage proves the same
///    optimum.
fn optimize_core<E: Oracle>(
    puzzle: &Puzzle,
    s: &mut Session<E>,
    first: Grid,
    improved: Improved<'_>,
    cancel: &AtomicBool,
    deadline: Option<std::time::Instant>,
) -> Result<Grid, BackendError> {
    let weights = puzzle.weights().map(|w| w.as_slice()).unwrap_or(&[]);
    let score_of = |g: &Grid| puzzle.weights().map_or(0, |w| w.score(g));
    let decoder = s.decoder.clone();
    let best_of = |c: usize| {
        let w = weights[c];
        decoder
            .candidates(c)
            .iter()
            .map(|&(_, d)| w * d as i64)
            .max()
            .unwrap_or(0)
    };
    let theta = |c: usize, d: u16| (best_of(c) - weights[c] * d as i64) as u64;
    let mut free = vec![false; weights.len()];
    for &c in decoder.free_cells() {
        free[c as usize] = true;
    }
    let bound: i64 = (0..weights.len())
        .map(|c| match free[c] {
            true => best_of(c),
            false => weights[c] * decoder.fixed()[c] as i64,
        })
        .sum();
    improved(Progress::Improved {
        score: score_of(&first),
        grid: &first,
        bound,
    });
    let trace = std::env::var_os(maxsat::TRACE_ENV).is_some_and(|v| v != "0");
    let start = std::time::Instant::now();
    for (duals, budget) in [
        (dual::Duals::Ascent, Some(ASCENT_BUDGET)),
        (dual::Duals::Lp { deadline }, None),
    ] {
        let t = std::time::Instant::now();
        let reduced = dual::reduce(puzzle, &decoder, theta, duals);
        let offset = reduced.offset as i64;
        if trace {
            let (t, kind) = (t.elapsed(), duals.name());
            eprintln!("maxsat: score bound {bound}, {kind} offset {offset} ({t:.1?})");
        }
        let soft: Vec<(Lit, u64)> = reduced
            .costs
            .iter()
            .map(|&(v, rc)| (!v.pos_lit(), rc))
            .collect();
        let decode = |values: &[bool]| decoder.decode(|v: Var| values[v.idx()]);
        // A solution's loss above the offset; below it would be a wrong offset.
        let below = std::cell::Cell::new(false);
        let mut cost = |values: &[bool]| {
            let residual = bound - offset - score_of(&decode(values));
            below.set(below.get() || residual < 0);
            residual.max(0) as u64
        };
        let mut progress = |values: &[bool], _cost: u64, lb: u64| {
            let g = decode(values);
            improved(Progress::Improved {
                score: score_of(&g),
                grid: &g,
                bound: bound - offset - lb as i64,
            });
        };
        let out_of_budget = || budget.is_some_and(|b| start.elapsed() >= b);
        let stop = || cancel.load(Ordering::Relaxed) || out_of_budget();
        let result = maxsat::minimize(s, &soft, &mut cost, &mut progress, &stop);
        if below.get() {
            return Err(failed(
                "a solution lost less than the reduced-cost offset (internal error)",
            ));
        }
        match result {
            Err(BackendError::TimedOut) if out_of_budget() && !cancel.load(Ordering::Relaxed) => {
                continue
            }
            Err(e) => return Err(e),
            Ok(MaxSatResult::Done {
                values,
                cost,
                lower_bound,
            }) if cost == lower_bound => return Ok(decode(&values)),
            Ok(MaxSatResult::Done {
                cost, lower_bound, ..
            }) => {
                return Err(failed(format!(
                    "core-guided search ended with a solution of loss {cost} and a lower bound of {lower_bound}"
                )))
            }
            // A solution is in hand, so the formula is satisfiable.
            Ok(MaxSatResult::Unsatisfiable) => {
                return Err(failed(
                    "core-guided search found no solution where one exists (solver disagreement)",
                ))
            }
        }
    }
    Err(failed("core-guided search: no stage ended"))
}

/// Smallest side whose varisat runs with a deadline get a [`StopWriter`]. Writing the proof costs
/// time: measured with `bench --timeout 1000` against no deadline, ≈ 30 % on forum_hardest_1106
/// (`unique`) and 20–40 % on random 16×16 puzzles, ≤ 15 % on random 25×25 and nothing
/// measurable on the large files (encoding dominates there). Below this size varisat answers in
/// milliseconds anyway, so an abandoned run soon ends by itself.
const STOP_WRITER_MIN_SIZE: usize = 25;

/// How a varisat run with a deadline stops: varisat has no interrupt, but it stops solving at
/// the first proof write that fails. So such a run writes its proof (varisat's own format, which
/// allows adding clauses between calls) here, where it is thrown away until the deadline passes
/// or the run is cancelled; then writes fail with [`std::io::ErrorKind::TimedOut`], which
/// [`Oracle::solve_assuming`] reports as [`BackendError::TimedOut`]. Proof steps reach the writer every few
/// kilobytes (varisat buffers them), so an abandoned run stops within milliseconds instead of
/// running on in the background.
struct StopWriter {
    deadline: Option<std::time::Instant>,
    cancel: Arc<AtomicBool>,
}

impl std::io::Write for StopWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let late = self
            .deadline
            .is_some_and(|d| std::time::Instant::now() >= d);
        if late || self.cancel.load(Ordering::Relaxed) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "deadline passed",
            ));
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Everything a run needs, movable to a worker thread.
struct Run {
    puzzle: Puzzle,
    opts: SatOptions,
    engine: EngineKind,
    /// Stops the engine: CaDiCaL through its terminator, varisat through [`StopWriter`].
    deadline: Option<std::time::Instant>,
    job: Job,
}

fn execute(
    run: &Run,
    improved: Improved<'_>,
    cancel: &Arc<AtomicBool>,
) -> Result<Outcome, BackendError> {
    match run.engine {
        EngineKind::Varisat => {
            let mut solver = varisat::Solver::new();
            // An optimisation can make long calls at any size (the linear search's bound
            // clauses grow large), so it always gets the writer.
            let long =
                run.puzzle.size() >= STOP_WRITER_MIN_SIZE || matches!(run.job, Job::Optimize);
            if run.deadline.is_some() && long {
                let stop = StopWriter {
                    deadline: run.deadline,
                    cancel: cancel.clone(),
                };
                solver.write_proof(stop, varisat::ProofFormat::Varisat);
            }
            execute_with(run, VarisatSink::new(solver), improved, cancel)
        }
        #[cfg(feature = "cadical")]
        EngineKind::Cadical => execute_with(
            run,
            crate::sat::cadical::CadicalSink::new(
                run.deadline,
                run.opts.cadical_config,
                cancel.clone(),
            )?,
            improved,
            cancel,
        ),
    }
}

fn execute_with<E: Oracle>(
    run: &Run,
    engine: E,
    improved: Improved<'_>,
    cancel: &AtomicBool,
) -> Result<Outcome, BackendError> {
    let (p, o) = (&run.puzzle, &run.opts);
    match run.job {
        Job::Count(limit) => count(p, o, engine, limit, improved, cancel).map(Outcome::Count),
        Job::Optimize => {
            optimize(p, o, engine, improved, cancel, run.deadline).map(Outcome::Optimum)
        }
    }
}

enum Msg {
    /// Run `.0` found its next solution.
    Found(usize, Grid),
    Improved {
        score: i64,
        grid: Grid,
        bound: i64,
    },
    Done(Result<Outcome, BackendError>),
}

impl Sat {
    /// The runs that answer `job`: one, or one per preset when CaDiCaL races (see
    /// [`SatOptions::cadical_presets`]).
    fn runs(&self, puzzle: &Puzzle, job: Job, limits: &Limits) -> Vec<Run> {
        let presets: &[CadicalConfig] = match self.engine {
            EngineKind::Varisat => &[CadicalConfig::Default],
            #[cfg(feature = "cadical")]
            EngineKind::Cadical => self.options.cadical_presets(puzzle.size()),
        };
        presets
            .iter()
            .map(|&preset| Run {
                puzzle: puzzle.clone(),
                opts: SatOptions {
                    cadical_config: preset,
                    ..self.options.clone()
                },
                engine: self.engine,
                deadline: limits.deadline,
                job,
            })
            .collect()
    }

    /// Runs `job` on this thread, or on worker threads (one per raced preset) abandoned at the
    /// deadline. The first answer wins and stops the other runs; an error counts only once
    /// every run has stopped.
    fn run(&self, puzzle: &Puzzle, job: Job, limits: &Limits) -> Result<Outcome, BackendError> {
        let mut runs = self.runs(puzzle, job, limits);
        let holder = match self.engine {
            EngineKind::Varisat => Holder::Varisat,
            #[cfg(feature = "cadical")]
            EngineKind::Cadical => Holder::Cadical,
        };
        // Each raced run holds its own formula.
        check_memory(puzzle, &self.options, holder, runs.len(), self.name())?;
        let cancel = Arc::new(AtomicBool::new(false));
        if runs.len() == 1 && limits.deadline.is_none() {
            return execute(&runs[0], &mut |_| {}, &cancel);
        }
        let (tx, rx) = mpsc::channel();
        let workers = runs.len();
        for (k, run) in runs.drain(..).enumerate() {
            let (tx, c) = (tx.clone(), cancel.clone());
            std::thread::Builder::new()
                .name("sat-worker".into())
                .spawn(move || {
                    let progress = tx.clone();
                    let mut improved = |step: Progress<'_>| {
                        let _ = progress.send(match step {
                            Progress::Found(grid) => Msg::Found(k, grid.clone()),
                            Progress::Improved { score, grid, bound } => Msg::Improved {
                                score,
                                grid: grid.clone(),
                                bound,
                            },
                        });
                    };
                    let r = execute(&run, &mut improved, &c);
                    let _ = tx.send(Msg::Done(r));
                })
                .map_err(failed)?;
        }
        drop(tx);
        let stop = || cancel.store(true, Ordering::Relaxed);
        let mut best: Option<(i64, Grid, i64)> = None;
        // Each run's solutions so far: how many, and the first two.
        let mut found: Vec<(u64, Vec<Grid>)> = vec![(0, Vec::new()); workers];
        let mut first_error = None;
        let mut finished = 0;
        // What a run stopped by the deadline has to show: the best grid of an optimisation, the
        // solutions of the count that got furthest, or nothing.
        let cut_short = |best: Option<(i64, Grid, i64)>, found: Vec<(u64, Vec<Grid>)>| {
            if let Some((score, grid, bound)) = best {
                return Ok(Outcome::Optimum(Optimum::Incomplete {
                    score,
                    grid,
                    bound: Some(bound),
                }));
            }
            match found.into_iter().max_by_key(|f| f.0) {
                Some((count, witnesses)) if count > 0 => {
                    Ok(Outcome::Count(Count::stopped(count, witnesses)))
                }
                _ => Err(BackendError::TimedOut),
            }
        };
        loop {
            let msg = match limits.deadline {
                Some(d) => rx.recv_timeout(d.saturating_duration_since(std::time::Instant::now())),
                None => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
            };
            match msg {
                Ok(Msg::Found(k, grid)) => {
                    let (count, witnesses) = &mut found[k];
                    *count += 1;
                    if witnesses.len() < 2 {
                        witnesses.push(grid);
                    }
                }
                Ok(Msg::Improved { score, grid, bound }) => {
                    if best.as_ref().is_none_or(|b| score > b.0) {
                        best = Some((score, grid, bound));
                    }
                }
                Ok(Msg::Done(Ok(outcome))) => {
                    stop();
                    return Ok(outcome);
                }
                Ok(Msg::Done(Err(e))) => {
                    first_error.get_or_insert(e);
                    finished += 1;
                    if finished < workers {
                        continue;
                    }
                    return match first_error {
                        Some(BackendError::TimedOut) | None => cut_short(best, found),
                        Some(e) => Err(e),
                    };
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    stop();
                    return cut_short(best, found);
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(failed("the solver thread stopped without an answer"))
                }
            }
        }
    }
}

impl Backend for Sat {
    fn takes(&self, kind: ConstraintKind) -> bool {
        kind == ConstraintKind::Killer
    }

    fn name(&self) -> &'static str {
        match self.engine {
            EngineKind::Varisat => "sat",
            #[cfg(feature = "cadical")]
            EngineKind::Cadical => "cadical",
        }
    }

    fn solve(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Option<Grid>, BackendError> {
        let c = self.count(puzzle, 1, limits)?;
        Ok(c.witnesses.into_iter().next())
    }

    fn count(&self, puzzle: &Puzzle, limit: u64, limits: &Limits) -> Result<Count, BackendError> {
        match self.run(puzzle, Job::Count(limit), limits)? {
            Outcome::Count(c) => Ok(c),
            Outcome::Optimum(_) => Err(failed("internal: optimum for a count")),
        }
    }

    fn optimize(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Optimum, BackendError> {
        match self.run(puzzle, Job::Optimize, limits)? {
            Outcome::Optimum(o) => Ok(o),
            Outcome::Count(_) => Err(failed("internal: count for an optimum")),
        }
    }
}
