//! Differential fuzzing: seeded random puzzles through several backends until they disagree (or
//! the checker rejects an answer), then the puzzle is cut down to a small one that still shows the
//! same fault.
//!
//! **Cases.** Case `i` of a run with seed `S` draws everything from its own seed
//! [`case_seed`]`(S, i)`, so any case can be generated alone: a run can be replayed from one case,
//! split over threads or machines, and stay the same. A case is one of the [`CaseKind`]s: a puzzle
//! with one solution, a random cut of a full grid (often several solutions), a sparse one, one where
//! two givens clash, and one with a given changed (often no solution). The shape options of the run
//! (side, boxes, jigsaw, diagonals) apply to all of them. With [`PuzzleSpec::killer`](crate::generate::PuzzleSpec::killer), every case
//! is a Killer: its full grid cut into random cages (the unique ones with no givens, their cages
//! split until one solution is left), and the changed case alters one cage's sum instead of a
//! given.
//!
//! **The same fault.** What the backends said about a puzzle is reduced to a [`Signature`]: the
//! verdict (disagreement or failure) and the backends grouped by equal answers, a group that
//! failed labelled by how (`checker failure`, `solver failure`, `refused`). The answers themselves
//! are left out: as givens go, "unique" naturally becomes "multiple" and counts grow. A smaller
//! puzzle shows the same fault when its signature is equal: the same backends side together, and
//! the same ones fail in the same way.
//!
//! **Shrinking** ([`Shrinker`]) keeps a cut only while the signature stays the same:
//! 1. givens are dropped by delta debugging (Zeller and Hildebrandt, *Simplifying and Isolating
//!    Failure-Inducing Input*, 2002): in halves first, then ever smaller chunks, down to one given;
//! 2. each remaining given is lowered to the smallest digit that keeps the fault;
//! 3. cages (and any other constraints) are dropped by delta debugging, as givens are;
//! 4. the diagonals are dropped, and jigsaw or odd boxes become the standard boxes of the side,
//!    where the side has them; after such a change, the steps before run again.
//!
//! A time-out is part of the signature too, so a cut on which some backend runs out of time is
//! rejected (unless that backend timed out on the original as well). A budget of trials bounds
//! the whole, so shrinking always ends.
//!
//! **Step check.** With [`FuzzOptions::check_steps`] (the `logic` backend among those compared),
//! every case with one solution on which the backends agree also has the logic engine's whole
//! path, found with the ladder it names (the default one, or any other such as every technique),
//! checked step by step against that solution ([`steps`]); a wrong step is a fault.
//!
//! **Regression line.** [`regression_line`] writes the smallest puzzle of the shrinking path whose
//! number of solutions a trusted backend counts exactly (within a limit), as
//! `puzzle:count[:solution]`, the form [`crate::format`] reads back and `xcheck` holds every
//! backend against.

use std::sync::Arc;
use std::time::{Duration, Instant};

pub mod hostile;
mod search;
pub mod steps;

pub use search::{search, Fault, Outcome, Run, Stop, NAMED_TIMEOUTS};
pub use steps::{StepCheck, StepFault, StepTally, TechniqueCounts};

use crate::backend::{Backend, BackendError, Limits};
use crate::format;
use crate::generate::{GenerateError, GenerateOptions, Generator, PuzzleSpec};
use crate::logic::Ladder;
use crate::model::{Cage, Constraint, Puzzle, Regions, Shape, Value};
use crate::rng::GenRng;
use crate::task::{self, Answer, RunError, Task};
use crate::weights::WeightSource;
use crate::xcheck::{self, BackendRun, Verdict};

/// Default number of shrinking trials (each runs every backend once).
pub const DEFAULT_SHRINK_TRIALS: usize = 4000;

/// Default count limit of [`regression_line`]: above it the count is not written.
pub const REGRESSION_COUNT_LIMIT: u64 = 100_000;

/// What to generate and how to compare.
#[derive(Debug, Clone)]
pub struct FuzzOptions {
    /// The shape and the rules of every case (jigsaw regions are new for every case).
    pub spec: PuzzleSpec,
    /// The task every backend answers.
    pub task: Task,
    /// Weights for [`Task::Optimize`] (ignored by the other tasks): random ones are new for
    /// every case.
    pub weights: WeightSource,
    /// Per backend and puzzle; also bounds each uniqueness check while a case is made.
    pub timeout: Option<Duration>,
    /// Hold the logic engine's path, found with this ladder, step by step against the solution
    /// of every case with one solution ([`steps`]); `None`: no step check. The `fuzz` command
    /// sets it when `logic` is among the backends, to the default ladder unless told another.
    pub check_steps: Option<Ladder>,
}

impl FuzzOptions {
    /// Side `n` with its standard boxes, task `unique`, random weights, no time limit.
    pub fn new(size: usize) -> FuzzOptions {
        FuzzOptions::of(PuzzleSpec::new(size))
    }

    /// Cases of `spec`, task `unique`, random weights, no time limit.
    pub fn of(spec: PuzzleSpec) -> FuzzOptions {
        FuzzOptions {
            spec,
            task: Task::Unique,
            weights: WeightSource::Random,
            timeout: None,
            check_steps: None,
        }
    }

    /// Checks the options by building a generator for them and making weights for the side
    /// (the errors are the generator's).
    pub fn validate(&self, reference: &dyn Backend) -> Result<(), GenerateError> {
        Generator::new(self.generator_options(0, false, None), reference)?;
        self.weights.draw(self.spec.size, &mut GenRng::seed(0))?;
        Ok(())
    }

    fn generator_options(&self, seed: u64, unique: bool, givens: Option<usize>) -> GenerateOptions {
        GenerateOptions {
            givens,
            unique,
            seed,
            ..GenerateOptions::of(self.spec.clone())
        }
    }
}

/// How a case's puzzle was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaseKind {
    /// Givens removed while the solution stays unique.
    Unique,
    /// A full grid with random givens kept, between 30 % and 60 % of the cells.
    Random,
    /// A full grid with at most a quarter of the cells kept.
    Sparse,
    /// A random cut with one empty cell set to a digit already given in one of its houses.
    Clash,
    /// A unique puzzle with one given changed to a digit none of its houses gives; for a Killer,
    /// one cage's sum changed.
    Changed,
}

impl CaseKind {
    pub fn name(self) -> &'static str {
        match self {
            CaseKind::Unique => "unique",
            CaseKind::Random => "random",
            CaseKind::Sparse => "sparse",
            CaseKind::Clash => "clash",
            CaseKind::Changed => "changed",
        }
    }
}

/// One generated puzzle of a run.
#[derive(Debug, Clone)]
pub struct Case {
    /// Its number in the run (`0..`).
    pub index: u64,
    /// The seed everything about it is drawn from: [`case_seed`] of the run's seed and `index`.
    pub seed: u64,
    pub kind: CaseKind,
    pub puzzle: Puzzle,
}

/// The seed of case `index` in a run seeded with `run_seed` (SplitMix64 of both).
pub fn case_seed(run_seed: u64, index: u64) -> u64 {
    let gamma = crate::rng::GOLDEN_GAMMA;
    crate::rng::splitmix64(run_seed.wrapping_add(index.wrapping_add(1).wrapping_mul(gamma)))
}

/// Generates case `index` of the run seeded `run_seed`. `reference` decides uniqueness for the
/// [`CaseKind::Unique`] and [`CaseKind::Changed`] cases (pass `dfs`), each check within
/// [`FuzzOptions::timeout`].
pub fn make_case(
    opts: &FuzzOptions,
    run_seed: u64,
    index: u64,
    reference: &dyn Backend,
) -> Result<Case, GenerateError> {
    make_case_until(opts, run_seed, index, reference, None)
}

/// [`make_case`] that ends by `until` (then [`GenerateError::Check`] with a time-out).
pub fn make_case_until(
    opts: &FuzzOptions,
    run_seed: u64,
    index: u64,
    reference: &dyn Backend,
    until: Option<Instant>,
) -> Result<Case, GenerateError> {
    let seed = case_seed(run_seed, index);
    let mut rng = GenRng::seed(seed);
    let cells = opts.spec.size * opts.spec.size;
    let kind = match rng.below(20) {
        0..=5 => CaseKind::Unique,
        6..=10 => CaseKind::Random,
        11..=14 => CaseKind::Sparse,
        15..=16 => CaseKind::Clash,
        _ => CaseKind::Changed,
    };
    let givens = match kind {
        // A unique Killer keeps no givens: its cages are split until one solution is left.
        CaseKind::Unique | CaseKind::Changed => None,
        CaseKind::Random | CaseKind::Clash => Some(cells * 3 / 10 + rng.below(cells * 3 / 10 + 1)),
        CaseKind::Sparse => Some(rng.below(cells / 4 + 1)),
    };
    let unique = matches!(kind, CaseKind::Unique | CaseKind::Changed);
    let gen_opts = opts.generator_options(rng.next_u64(), unique, givens);
    let mut puzzle = Generator::new(gen_opts, reference)?
        .with_limits(Limits::until(until))
        .with_check_timeout(opts.timeout)
        .generate()?;
    match kind {
        CaseKind::Clash => puzzle = clash(&puzzle, &mut rng)?,
        CaseKind::Changed if opts.spec.killer.is_some() => puzzle = change_sum(&puzzle, &mut rng)?,
        CaseKind::Changed => puzzle = change(&puzzle, &mut rng)?,
        _ => {}
    }
    if opts.task == Task::Optimize {
        let weights = opts.weights.draw(opts.spec.size, &mut rng)?;
        puzzle = puzzle.with_weights(Arc::new(weights))?;
    }
    Ok(Case {
        index,
        seed,
        kind,
        puzzle,
    })
}

/// The digits given in the houses of `cell`.
fn seen_from(puzzle: &Puzzle, cell: usize) -> Vec<Value> {
    let mut seen: Vec<Value> = puzzle
        .shape()
        .houses_of(cell)
        .iter()
        .flat_map(|&h| puzzle.shape().house(h as usize))
        .map(|&c| puzzle.givens()[c as usize])
        .filter(|&v| v != 0)
        .collect();
    seen.sort_unstable();
    seen.dedup();
    seen
}

fn with_givens(puzzle: &Puzzle, givens: Vec<Value>) -> Result<Puzzle, GenerateError> {
    rebuilt(
        puzzle,
        puzzle.shape_arc().clone(),
        givens,
        puzzle.constraints().to_vec(),
    )
}

fn with_constraints(
    puzzle: &Puzzle,
    constraints: Vec<Constraint>,
) -> Result<Puzzle, GenerateError> {
    rebuilt(
        puzzle,
        puzzle.shape_arc().clone(),
        puzzle.givens().to_vec(),
        constraints,
    )
}

/// `puzzle` with another shape, givens and constraints, and its weights.
fn rebuilt(
    puzzle: &Puzzle,
    shape: Arc<Shape>,
    givens: Vec<Value>,
    constraints: Vec<Constraint>,
) -> Result<Puzzle, GenerateError> {
    let p = Puzzle::new(shape, givens)?.with_constraints(constraints)?;
    Ok(match puzzle.weights() {
        Some(w) => p.with_weights(Arc::new(w.clone()))?,
        None => p,
    })
}

/// One random cage gets another sum its cells can make (unchanged when no cage can).
fn change_sum(puzzle: &Puzzle, rng: &mut GenRng) -> Result<Puzzle, GenerateError> {
    let n = puzzle.size();
    let mut cages: Vec<Cage> = puzzle.cages().cloned().collect();
    let mut order: Vec<usize> = (0..cages.len()).collect();
    rng.shuffle(&mut order);
    for k in order {
        let (lo, hi) = Cage::sum_range(cages[k].cells().len(), n);
        let others: Vec<u32> = (lo..=hi).filter(|&s| s != cages[k].sum()).collect();
        if !others.is_empty() {
            let sum = others[rng.below(others.len())];
            cages[k] = Cage::new(cages[k].cells().to_vec(), sum);
            return with_constraints(puzzle, cages.into_iter().map(Constraint::Cage).collect());
        }
    }
    Ok(puzzle.clone())
}

/// One random empty cell gets a digit given in one of its houses (unchanged when no empty cell
/// sees a given).
fn clash(puzzle: &Puzzle, rng: &mut GenRng) -> Result<Puzzle, GenerateError> {
    let mut empty: Vec<usize> = (0..puzzle.givens().len())
        .filter(|&c| puzzle.givens()[c] == 0)
        .collect();
    rng.shuffle(&mut empty);
    for cell in empty {
        let seen = seen_from(puzzle, cell);
        if !seen.is_empty() {
            let mut givens = puzzle.givens().to_vec();
            givens[cell] = seen[rng.below(seen.len())];
            return with_givens(puzzle, givens);
        }
    }
    Ok(puzzle.clone())
}

/// One random given becomes a digit that none of its houses gives (unchanged when no given can).
fn change(puzzle: &Puzzle, rng: &mut GenRng) -> Result<Puzzle, GenerateError> {
    let n = puzzle.size() as Value;
    let mut given: Vec<usize> = (0..puzzle.givens().len())
        .filter(|&c| puzzle.givens()[c] != 0)
        .collect();
    rng.shuffle(&mut given);
    for cell in given {
        let seen = seen_from(puzzle, cell);
        let free: Vec<Value> = (1..=n).filter(|v| !seen.contains(v)).collect();
        if !free.is_empty() {
            let mut givens = puzzle.givens().to_vec();
            givens[cell] = free[rng.below(free.len())];
            return with_givens(puzzle, givens);
        }
    }
    Ok(puzzle.clone())
}

/// What the backends said about a puzzle, reduced to what must stay the same while it shrinks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    /// A checker or solver failure (rather than a plain disagreement).
    pub failure: bool,
    /// The backends grouped by equal answers, each group labelled `answered` or by how it
    /// failed or ended (`timed out`); sorted, so that equal faults compare equal.
    pub groups: Vec<(String, Vec<&'static str>)>,
}

impl Signature {
    /// The signature of a verdict that is not an agreement (`None` for an agreement).
    pub fn of(task: Task, runs: &[BackendRun], verdict: &Verdict) -> Option<Signature> {
        let failure = match verdict {
            Verdict::Agreed => return None,
            Verdict::Disagreement(_) => false,
            Verdict::Failure(_) => true,
        };
        let mut groups: Vec<(String, String, Vec<&'static str>)> = Vec::new();
        for r in runs {
            let (label, key) = match &r.result {
                Err(e) if e.timed_out() => ("timed out".to_string(), String::new()),
                Err(RunError::Backend(BackendError::Unsupported(_))) => {
                    ("refused".to_string(), String::new())
                }
                Err(RunError::Check { .. }) => ("checker failure".to_string(), String::new()),
                Err(_) => ("solver failure".to_string(), String::new()),
                Ok(a) => ("answered".to_string(), answer_key(task, a)),
            };
            match groups.iter_mut().find(|(l, k, _)| *l == label && *k == key) {
                Some((_, _, who)) => who.push(r.backend),
                None => groups.push((label, key, vec![r.backend])),
            }
        }
        let mut groups: Vec<(String, Vec<&'static str>)> = groups
            .into_iter()
            .map(|(label, _, mut who)| {
                who.sort_unstable();
                (label, who)
            })
            .collect();
        groups.sort();
        Some(Signature { failure, groups })
    }
}

/// What makes two answers to `task` different: the status, the count, the score, the one
/// solution of `unique`. (Two `solve` grids may differ: both can be right.)
fn answer_key(task: Task, answer: &Answer) -> String {
    match (task, answer) {
        (_, Answer::Unique(g)) => format!("unique {g}"),
        (Task::Solve, a) => a.status().to_string(),
        (_, a) => a.summary(),
    }
}

/// Every backend on `puzzle` (see [`xcheck::run_all`] for `timeout` and `until`), and the verdict.
pub fn check(
    backends: &[Box<dyn Backend>],
    puzzle: &Puzzle,
    task: Task,
    timeout: Option<Duration>,
    until: Option<Instant>,
) -> (Vec<BackendRun>, Verdict) {
    let runs = xcheck::run_all(backends, puzzle, task, timeout, until);
    let verdict = xcheck::verdict(task, &runs, None);
    (runs, verdict)
}

/// The end of shrinking.
#[derive(Debug, Clone)]
pub struct Shrunk {
    /// The smallest puzzle found that shows the same fault.
    pub puzzle: Puzzle,
    /// What the backends said about it.
    pub runs: Vec<BackendRun>,
    pub verdict: Verdict,
    /// Every puzzle kept on the way, the first (the original) to the last (`puzzle`).
    pub path: Vec<Puzzle>,
    /// Puzzles tried.
    pub trials: usize,
    /// Stopped by the trial budget or the deadline rather than at a fixed point.
    pub cut_short: bool,
}

/// Cuts a failing puzzle down while it shows the same [`Signature`] (see the module docs).
pub struct Shrinker<'a> {
    backends: &'a [Box<dyn Backend>],
    task: Task,
    timeout: Option<Duration>,
    /// Stop after this many trials.
    pub max_trials: usize,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
}

/// The state of one shrinking run.
struct Progress {
    signature: Signature,
    current: Puzzle,
    runs: Vec<BackendRun>,
    verdict: Verdict,
    path: Vec<Puzzle>,
    trials: usize,
}

impl<'a> Shrinker<'a> {
    pub fn new(backends: &'a [Box<dyn Backend>], task: Task, timeout: Option<Duration>) -> Self {
        Shrinker {
            backends,
            task,
            timeout,
            max_trials: DEFAULT_SHRINK_TRIALS,
            deadline: None,
        }
    }

    /// Shrinks `puzzle`, on which the backends gave `runs` and `verdict` (not an agreement).
    /// Returns `None` when that verdict has no [`Signature`] (an agreement, or a time-out).
    pub fn shrink(
        &self,
        puzzle: &Puzzle,
        runs: Vec<BackendRun>,
        verdict: Verdict,
    ) -> Option<Shrunk> {
        let signature = Signature::of(self.task, &runs, &verdict)?;
        let mut p = Progress {
            signature,
            current: puzzle.clone(),
            runs,
            verdict,
            path: vec![puzzle.clone()],
            trials: 0,
        };
        loop {
            self.drop_givens(&mut p);
            self.lower_values(&mut p);
            self.drop_constraints(&mut p);
            if !self.simplify_shape(&mut p) || self.spent(&p) {
                break;
            }
        }
        let cut_short = self.spent(&p);
        Some(Shrunk {
            puzzle: p.current,
            runs: p.runs,
            verdict: p.verdict,
            path: p.path,
            trials: p.trials,
            cut_short,
        })
    }

    fn spent(&self, p: &Progress) -> bool {
        p.trials >= self.max_trials || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Runs the backends on `candidate`; keeps it when it shows the same fault.
    fn try_keep(&self, p: &mut Progress, candidate: Puzzle) -> bool {
        if self.spent(p) {
            return false;
        }
        p.trials += 1;
        let (runs, verdict) = check(self.backends, &candidate, self.task, self.timeout, None);
        if Signature::of(self.task, &runs, &verdict).as_ref() != Some(&p.signature) {
            return false;
        }
        p.path.push(candidate.clone());
        p.current = candidate;
        p.runs = runs;
        p.verdict = verdict;
        true
    }

    /// Delta debugging over the given cells: remove chunks, halving their size when none can go.
    fn drop_givens(&self, p: &mut Progress) {
        let cells: Vec<usize> = (0..p.current.givens().len())
            .filter(|&c| p.current.givens()[c] != 0)
            .collect();
        self.delta(p, cells, |current, gone| {
            let mut givens = current.givens().to_vec();
            for &c in gone {
                givens[c] = 0;
            }
            with_givens(current, givens).ok()
        });
    }

    /// Delta debugging over the constraints (Killer cages), as over the givens. Cages cover
    /// disjoint cells, so each is told apart by its value.
    fn drop_constraints(&self, p: &mut Progress) {
        let all = p.current.constraints().to_vec();
        self.delta(p, all, |current, gone| {
            let kept = current
                .constraints()
                .iter()
                .filter(|c| !gone.contains(c))
                .cloned()
                .collect();
            with_constraints(current, kept).ok()
        });
    }

    /// Delta debugging (Zeller and Hildebrandt): removes chunks of `items` while the fault stays,
    /// halving the chunks when none can go. `without(current, chunk)` is the current puzzle
    /// without `chunk` (`None` when there is no such puzzle).
    fn delta<T: Clone>(
        &self,
        p: &mut Progress,
        mut items: Vec<T>,
        mut without: impl FnMut(&Puzzle, &[T]) -> Option<Puzzle>,
    ) {
        let mut chunks = 2usize;
        while !items.is_empty() && !self.spent(p) {
            let chunks_now = chunks.min(items.len());
            let size = items.len().div_ceil(chunks_now);
            let mut removed = false;
            for start in (0..items.len()).step_by(size) {
                let end = (start + size).min(items.len());
                let Some(candidate) = without(&p.current, &items[start..end]) else {
                    continue;
                };
                if self.try_keep(p, candidate) {
                    items.drain(start..end);
                    chunks = chunks_now.saturating_sub(1).max(2);
                    removed = true;
                    break;
                }
            }
            if !removed {
                if size == 1 {
                    break;
                }
                chunks = (chunks_now * 2).min(items.len());
            }
        }
    }

    /// Each given, in cell order, down to the smallest digit that keeps the fault.
    fn lower_values(&self, p: &mut Progress) {
        for cell in 0..p.current.givens().len() {
            let v = p.current.givens()[cell];
            for lower in 1..v {
                let mut givens = p.current.givens().to_vec();
                givens[cell] = lower;
                let Ok(candidate) = with_givens(&p.current, givens) else {
                    break;
                };
                if self.try_keep(p, candidate) || self.spent(p) {
                    break;
                }
            }
        }
    }

    /// Drops the diagonals, then tries standard boxes in place of jigsaw regions or odd boxes.
    /// True when a change was kept.
    fn simplify_shape(&self, p: &mut Progress) -> bool {
        let shape = p.current.shape();
        let n = shape.size();
        let mut simpler: Vec<Shape> = Vec::new();
        if shape.diagonals() {
            simpler.extend(Shape::new(n, shape.regions().clone(), false));
        }
        let standard = Shape::default_boxes(n).map(|(rows, cols)| Regions::Boxes { rows, cols });
        if let Some(std_regions) = standard.filter(|r| r != shape.regions()) {
            simpler.extend(Shape::new(n, std_regions, shape.diagonals()));
        }
        let mut changed = false;
        for s in simpler {
            let candidate = rebuilt(
                &p.current,
                Arc::new(s),
                p.current.givens().to_vec(),
                p.current.constraints().to_vec(),
            );
            if let Ok(candidate) = candidate {
                changed |= self.try_keep(p, candidate);
            }
        }
        changed
    }
}

/// The number of givens of `puzzle`.
pub fn given_count(puzzle: &Puzzle) -> usize {
    puzzle.givens().iter().filter(|&&v| v != 0).count()
}

/// What a puzzle is given, in words: `12 givens`, `0 givens, 9 cages` when it has cages only,
/// `4 givens, 3 rules` when it has other kinds.
pub fn clues(puzzle: &Puzzle) -> String {
    let givens = given_count(puzzle);
    let what = if puzzle.variant_kind().is_some() {
        "rule"
    } else {
        "cage"
    };
    match puzzle.constraints().len() {
        0 => format!("{givens} givens"),
        1 => format!("{givens} givens, 1 {what}"),
        k => format!("{givens} givens, {k} {what}s"),
    }
}

/// A regression line for a shrunk fault: the last puzzle of `path` whose solutions `reference`
/// counts exactly within `limit`, as `puzzle:count[:solution]` (one solution written when there is
/// one). `None` when no puzzle of the path has a count within the limit.
pub fn regression_line(
    path: &[Puzzle],
    reference: &dyn Backend,
    limit: u64,
    timeout: Option<Duration>,
) -> Option<(String, Puzzle)> {
    for puzzle in path.iter().rev() {
        let limits = timeout.map_or(Limits::none(), Limits::timeout);
        let Ok(answer) = task::run(reference, puzzle, Task::Count { limit }, &limits) else {
            continue;
        };
        let line = match &answer {
            Answer::NoSolution => format::to_line(puzzle).ok().map(|mut line| {
                line.insert_str(puzzle.shape().cells(), ":0");
                line
            }),
            Answer::Counted {
                count,
                complete: true,
                first,
            } => format::to_line_with_answer(puzzle, Some((*count, first))).ok(),
            _ => None,
        };
        if let Some(line) = line {
            return Some((line, puzzle.clone()));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backends::{self, BackendKind};
    use crate::model::Grid;

    fn dfs() -> Box<dyn Backend> {
        backends::create(BackendKind::Dfs, &Default::default()).unwrap()
    }

    /// `dfs` on the puzzle as `plain` rewrites it, yet said to take cages: wrong whenever the
    /// first solution it finds breaks what the rewrite left out.
    struct Rewrites {
        name: &'static str,
        plain: fn(&Puzzle) -> Puzzle,
        inner: Box<dyn Backend>,
    }

    impl Backend for Rewrites {
        fn name(&self) -> &'static str {
            self.name
        }
        fn takes(&self, kind: crate::model::ConstraintKind) -> bool {
            self.inner.takes(kind)
        }
        fn solve(&self, p: &Puzzle, l: &Limits) -> Result<Option<Grid>, BackendError> {
            self.inner.solve(&(self.plain)(p), l)
        }
        fn count(
            &self,
            p: &Puzzle,
            limit: u64,
            l: &Limits,
        ) -> Result<crate::backend::Count, BackendError> {
            self.inner.count(&(self.plain)(p), limit, l)
        }
        fn optimize(
            &self,
            p: &Puzzle,
            l: &Limits,
        ) -> Result<crate::backend::Optimum, BackendError> {
            self.inner.optimize(&(self.plain)(p), l)
        }
    }

    /// Wrong on X-Sudoku: solves without the diagonals.
    fn ignores_diagonals(inner: Box<dyn Backend>) -> Rewrites {
        Rewrites {
            name: "no-diagonals",
            plain: |p| {
                let s = p.shape();
                let shape = Shape::new(s.size(), s.regions().clone(), false).unwrap();
                Puzzle::new(Arc::new(shape), p.givens().to_vec()).unwrap()
            },
            inner,
        }
    }

    /// Wrong on Killers: solves without the cages.
    fn ignores_cages(inner: Box<dyn Backend>) -> Rewrites {
        Rewrites {
            name: "no-cages",
            plain: |p| p.clone().with_constraints(vec![]).unwrap(),
            inner,
        }
    }

    /// `dfs` that stops counting at the first solution and calls the count complete.
    struct CountsOne(Box<dyn Backend>);

    impl Backend for CountsOne {
        fn name(&self) -> &'static str {
            "counts-one"
        }
        fn solve(&self, p: &Puzzle, l: &Limits) -> Result<Option<Grid>, BackendError> {
            self.0.solve(p, l)
        }
        fn count(
            &self,
            p: &Puzzle,
            _limit: u64,
            l: &Limits,
        ) -> Result<crate::backend::Count, BackendError> {
            let mut c = self.0.count(p, 1, l)?;
            c.complete = true;
            Ok(c)
        }
        fn optimize(
            &self,
            p: &Puzzle,
            l: &Limits,
        ) -> Result<crate::backend::Optimum, BackendError> {
            self.0.optimize(p, l)
        }
    }

    #[test]
    fn killer_cases_are_killers_and_shrinking_drops_cages() {
        let reference = dfs();
        let opts = FuzzOptions::of(PuzzleSpec {
            killer: Some((2, 3)),
            ..PuzzleSpec::new(4)
        });
        let cases: Vec<Case> = (0..60)
            .map(|i| make_case(&opts, 5, i, reference.as_ref()).unwrap())
            .collect();
        assert!(cases.iter().all(|c| c.puzzle.cages().count() > 0));
        let answer =
            |p: &Puzzle| task::run(reference.as_ref(), p, Task::Unique, &Limits::none()).unwrap();
        let mut changed_unsolvable = 0;
        for c in &cases {
            match c.kind {
                CaseKind::Unique => {
                    assert_eq!(given_count(&c.puzzle), 0);
                    assert!(matches!(answer(&c.puzzle), Answer::Unique(_)));
                }
                CaseKind::Changed => {
                    assert_eq!(given_count(&c.puzzle), 0);
                    changed_unsolvable += usize::from(answer(&c.puzzle) == Answer::NoSolution);
                }
                _ => {}
            }
        }
        assert!(
            changed_unsolvable > 0,
            "a changed sum never left a Killer unsolvable"
        );

        // A backend blind to cages fails the checker; shrinking keeps the failure with fewer
        // cages (and, here, at least one: without cages the blind backend is right).
        let backends: Vec<Box<dyn Backend>> = vec![dfs(), Box::new(ignores_cages(dfs()))];
        let (case, runs, verdict) = cases
            .iter()
            .find_map(|c| {
                let (runs, verdict) = check(&backends, &c.puzzle, Task::Solve, None, None);
                matches!(verdict, Verdict::Failure(_)).then(|| (c, runs, verdict))
            })
            .expect("no-cages fails on some Killer");
        let signature = Signature::of(Task::Solve, &runs, &verdict);
        let shrunk = Shrinker::new(&backends, Task::Solve, None)
            .shrink(&case.puzzle, runs, verdict)
            .unwrap();
        let cages = |p: &Puzzle| p.cages().count();
        assert!(cages(&shrunk.puzzle) < cages(&case.puzzle), "{shrunk:?}");
        assert!(cages(&shrunk.puzzle) >= 1);
        assert_eq!(given_count(&shrunk.puzzle), 0);
        assert_eq!(
            Signature::of(Task::Solve, &shrunk.runs, &shrunk.verdict),
            signature
        );
    }

    #[test]
    fn cases_are_reproducible_and_varied() {
        let reference = dfs();
        let opts = FuzzOptions::new(4);
        let a: Vec<Case> = (0..100)
            .map(|i| make_case(&opts, 9, i, reference.as_ref()).unwrap())
            .collect();
        let again = make_case(&opts, 9, 17, reference.as_ref()).unwrap();
        assert_eq!(again.puzzle, a[17].puzzle);
        assert_eq!(again.seed, case_seed(9, 17));
        for kind in [
            CaseKind::Unique,
            CaseKind::Random,
            CaseKind::Sparse,
            CaseKind::Clash,
            CaseKind::Changed,
        ] {
            assert!(a.iter().any(|c| c.kind == kind), "no {kind:?} case in 100");
        }
        // Every unique case has one solution; every clash case none.
        for c in &a {
            let answer =
                task::run(reference.as_ref(), &c.puzzle, Task::Unique, &Limits::none()).unwrap();
            match c.kind {
                CaseKind::Unique => assert!(matches!(answer, Answer::Unique(_))),
                CaseKind::Clash if given_count(&c.puzzle) > 1 => {
                    assert_eq!(answer, Answer::NoSolution)
                }
                _ => {}
            }
        }
        assert_ne!(case_seed(9, 0), case_seed(10, 0));
        assert_ne!(case_seed(9, 0), case_seed(9, 1));
    }

    #[test]
    fn signatures_group_backends_and_name_failures() {
        let shape = Arc::new(Shape::standard(4, true).unwrap());
        let empty = Puzzle::new(shape, vec![0; 16]).unwrap();
        let task = Task::Count { limit: 1000 };
        // 4×4 X-Sudoku has 8 solutions: counts-one says 1 (a disagreement); no-diagonals returns
        // grids that break a diagonal (a checker failure).
        let backends: Vec<Box<dyn Backend>> = vec![
            dfs(),
            Box::new(CountsOne(dfs())),
            Box::new(ignores_diagonals(dfs())),
        ];
        let (runs, verdict) = check(&backends[..2], &empty, task, None, None);
        let sig = Signature::of(task, &runs, &verdict).expect("a disagreement");
        assert!(!sig.failure);
        let answered = |who: &[&'static str]| ("answered".to_string(), who.to_vec());
        assert_eq!(
            sig.groups,
            vec![answered(&["counts-one"]), answered(&["dfs"])]
        );
        let (runs, verdict) = check(&backends, &empty, task, None, None);
        let sig = Signature::of(task, &runs, &verdict).expect("a failure");
        assert!(sig.failure);
        assert_eq!(
            sig.groups,
            vec![
                answered(&["counts-one"]),
                answered(&["dfs"]),
                ("checker failure".to_string(), vec!["no-diagonals"]),
            ]
        );
        let agreed = check(&backends[..1], &empty, task, None, None);
        assert_eq!(Signature::of(task, &agreed.0, &agreed.1), None);
    }

    #[test]
    fn a_diagonal_fault_shrinks_to_few_givens_and_keeps_its_signature() {
        let backends: Vec<Box<dyn Backend>> = vec![dfs(), Box::new(ignores_diagonals(dfs()))];
        let reference = dfs();
        let opts = FuzzOptions::of(PuzzleSpec {
            diagonals: true,
            ..PuzzleSpec::new(9)
        });
        let task = Task::Unique;
        let (case, runs, verdict) = (0..200)
            .find_map(|i| {
                let case = make_case(&opts, 1, i, reference.as_ref()).unwrap();
                let (runs, verdict) = check(&backends, &case.puzzle, task, None, None);
                (verdict != Verdict::Agreed).then_some((case, runs, verdict))
            })
            .expect("a disagreement within 200 cases");
        let before = given_count(&case.puzzle);
        let shrunk = Shrinker::new(&backends, task, None)
            .shrink(&case.puzzle, runs.clone(), verdict.clone())
            .unwrap();
        let after = given_count(&shrunk.puzzle);
        assert!(
            after * 3 <= before,
            "{after} givens left of {before}: {}",
            shrunk.puzzle.givens_grid()
        );
        assert_eq!(
            Signature::of(task, &shrunk.runs, &shrunk.verdict),
            Signature::of(task, &runs, &verdict)
        );
        assert!(shrunk.puzzle.shape().diagonals(), "the fault needs them");
        assert_eq!(shrunk.path.first(), Some(&case.puzzle));
        assert_eq!(shrunk.path.last(), Some(&shrunk.puzzle));
        // The regression line reads back, and `dfs` agrees with it.
        let (line, puzzle) =
            regression_line(&shrunk.path, reference.as_ref(), 1000, None).expect("a line");
        let read = crate::format::read_puzzles(
            &line,
            &crate::format::ReadOptions {
                diagonals: true,
                ..Default::default()
            },
        )
        .remove(0)
        .unwrap();
        assert_eq!(read.puzzle.givens(), puzzle.givens());
        let expected = read.expected.unwrap();
        let counted = task::run(
            reference.as_ref(),
            &puzzle,
            Task::Count { limit: 1000 },
            &Limits::none(),
        )
        .unwrap();
        assert_eq!(expected.contradiction(&counted), None);
        assert_eq!(counted.count(), Some((expected.count, true)));
    }

    #[test]
    fn shrinking_a_puzzle_without_fault_gives_nothing() {
        let backends: Vec<Box<dyn Backend>> = vec![dfs(), dfs()];
        let shape = Arc::new(Shape::standard(4, false).unwrap());
        let empty = Puzzle::new(shape, vec![0; 16]).unwrap();
        let (runs, verdict) = check(&backends, &empty, Task::Unique, None, None);
        assert_eq!(verdict, Verdict::Agreed);
        assert!(Shrinker::new(&backends, Task::Unique, None)
            .shrink(&empty, runs, verdict)
            .is_none());
    }
}
