//! Seeded puzzle generation: a random full grid, optional random jigsaw regions, then givens
//! removed at random (down to `K`) or, with `unique`, removed only while the puzzle keeps exactly
//! one solution.
//!
//! * **Determinism.** All randomness comes from [`GenRng`] ([`crate::rng`]), so the same
//!   [`GenerateOptions`] (seed included) give the same puzzles, forever; the tests pin one
//!   recorded output. The backend is asked only for verdicts ("one solution or several?"), which
//!   do not depend on its search order, so any correct backend gives the same puzzles: the full
//!   grid of a puzzle with global variant rules comes from the generator's own search, and the
//!   Killer cage that `unique` splits is found by verdicts ([`Generator::differing_cell`]), not
//!   from two solutions a backend happened to find first.
//! * **Full grids** come from a small randomised backtracking search over the model's houses and
//!   the global variant rules as the model lowers them ([`fill`]): fewest candidates first, ties
//!   and digit order random, restarted with a fresh random order when a node limit runs out,
//!   with a bounded number of restarts. Every grid is verified with [`crate::check::verify`].
//! * **Jigsaw regions** ([`random_jigsaw_keeping`]) start from the boxes (or rows) and are mixed
//!   by random swaps of two cells between neighbouring regions ([`mix_regions`]), each kept only
//!   when both regions stay 4-connected, so sizes never change; a layout whose full grid is not
//!   found within the budget is drawn again, and after [`JIGSAW_LAYOUTS`] such layouts (at once
//!   above side [`MIX_MAX_SIDE`]) a slower-mixing walk that keeps a full grid by construction
//!   takes over ([`same_digit_walk`]).
//! * **Bounds.** Every search ends: full grids and layouts by the budgets above (then
//!   [`GenerateError::NoFullGrid`] or [`GenerateError::NoGridKeeping`], which names the rules
//!   and the shape), variant rules by a number of tries, and the uniqueness checks of a clue set
//!   by time ([`Generator::with_limits`], [`Generator::with_check_timeout`],
//!   [`Generator::with_puzzle_budget`]): a time-out ends generation with an error, never with a
//!   different puzzle. A clue set makes at most `n²` checks, and a Killer split about `log₂ n²`.
//! * **Uniqueness** is decided by the caller's backend (normally `dfs`) through
//!   [`task::run`] with [`Task::Unique`], so every answer passes the independent checker.
//! * **Weights** ([`GenerateOptions::weights`]) are attached to each puzzle, the same for all;
//!   the line format does not carry them.
//!
//! [`format::to_line`](crate::format::to_line) writes a generated puzzle in the line format.
//!
//! ```
//! use sudoku_lab::backends::{self, BackendKind};
//! use sudoku_lab::format::to_line;
//! use sudoku_lab::generate::{GenerateOptions, Generator};
//!
//! let dfs = backends::create(BackendKind::Dfs, &Default::default()).unwrap();
//! let opts = GenerateOptions { unique: true, seed: 7, ..GenerateOptions::new(4) };
//! let mut gen = Generator::new(opts, dfs.as_ref()).unwrap();
//! let puzzle = gen.generate().unwrap();
//! assert_eq!(to_line(&puzzle).unwrap().len(), 16);
//! ```

use std::sync::Arc;
use std::time::{Duration, Instant};

mod fill;
pub mod graded;
pub mod variants;

pub use fill::{full_grid, FILL_RESTARTS};
use fill::{try_fill, Plan};

use crate::backend::{Backend, BackendError, Cancel, Limits};
use crate::cancel::due;
pub use crate::rng::GenRng;

use crate::model::{
    Cage, Constraint, ConstraintKind, Grid, ModelError, Puzzle, Regions, Shape, Weights, MAX_SIZE,
};
use crate::task::{self, Answer, RunError, Task};
use crate::weights::{WeightSource, WeightsError};

/// Largest side the generator handles (one bit per digit in a `u64`, like the `dfs` backend).
pub const MAX_GENERATE_SIDE: usize = 64;

/// `unique` with a target `K`: fresh full grids tried before reporting `K` unreachable.
const UNIQUE_ATTEMPTS: usize = 20;
/// Jigsaw: mixed layouts tried (each with a few full-grid searches) before [`same_digit_walk`].
pub const JIGSAW_LAYOUTS: usize = 8;
/// Largest jigsaw side given freely mixed layouts; larger sides use [`same_digit_walk`] directly.
pub const MIX_MAX_SIDE: usize = 12;
const JIGSAW_RESTARTS: usize = 4;

/// Why no puzzle was generated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    #[error(transparent)]
    Model(#[from] ModelError),
    #[error("side {0} is not supported by the generator (1 to {MAX_GENERATE_SIDE})")]
    BadSize(usize),
    #[error(
        "--boxes and --jigsaw exclude each other: jigsaw puzzles have random regions, not boxes"
    )]
    BoxesWithJigsaw,
    #[error("disjoint groups need boxes: --variants disjoint-groups does not go with --jigsaw")]
    DisjointGroupsWithJigsaw,
    #[error("{givens} givens requested, a grid of side {n} has only {} cells", n * n)]
    TooManyGivens { givens: usize, n: usize },
    #[error("no full grid found for side {n} within the search budget ({attempts} restarts)")]
    NoFullGrid { n: usize, attempts: usize },
    #[error(
        "could not reach {wanted} givens with a unique solution in {attempts} attempts \
         (fewest reached: {best}); ask for more givens"
    )]
    GivensUnreachable {
        wanted: usize,
        best: usize,
        attempts: usize,
    },
    /// No full grid keeping the global variant rules was found within the search budget (a small
    /// grid may have none: no 4×4 keeps anti-king or non-consecutive).
    #[error(
        "no full grid of a {shape} keeping {rules} found within the search budget ({attempts}); \
         small grids and some shapes have none"
    )]
    NoGridKeeping {
        shape: String,
        rules: String,
        attempts: String,
    },
    /// The uniqueness check failed (timeout, unsupported size, or a backend bug caught by the checker).
    #[error("uniqueness check: {0}")]
    Check(#[from] RunError),
    /// A generated grid failed the checker, or the backend claimed no solution for a puzzle cut from
    /// a full grid: a bug, never expected.
    #[error("internal error: {0}")]
    Internal(String),
    #[error(transparent)]
    Weights(#[from] WeightsError),
    /// No drawn puzzle met the grade asked for ([`graded::draw_graded`]).
    #[error("no puzzle at the grade asked for in {attempts} drawn (their levels: {seen}); try more --attempts, another level or other techniques")]
    NoneAtGrade { attempts: usize, seen: String },
}

/// The kind of puzzle to make: its shape and the rules beyond houses. `generate` and `fuzz`
/// take the same flags for it (`--size`, `--boxes`, `--jigsaw`, `--diagonals`, `--killer`,
/// `--cage-sizes`, `--variants`). Build with [`PuzzleSpec::new`] and struct update syntax.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PuzzleSpec {
    /// Side `n` (`--size N`, or `R*C` from `--boxes RxC`).
    pub size: usize,
    /// Box shape `(rows, cols)` (`--boxes RxC`); `None` = [`Shape::default_boxes`]. Not with jigsaw.
    pub boxes: Option<(usize, usize)>,
    /// Random jigsaw regions instead of boxes (`--jigsaw`), new ones for every puzzle; works for
    /// any side, prime ones included.
    pub jigsaw: bool,
    /// Both main diagonals are houses too (`--diagonals`).
    pub diagonals: bool,
    /// Killer cages of sizes in this range (`--killer`, `--cage-sizes A..B`): the full grid cut
    /// into random connected cages of distinct digits, and no givens unless asked. With
    /// `unique`, cages are split until the solution is unique.
    pub killer: Option<(usize, usize)>,
    /// Variant rules drawn from the full grid (`--variants thermo,arrow,…`, see
    /// [`variants::draw`]); a global rule (anti-knight…) makes the full grid one that keeps it.
    /// With `unique`, givens are then removed while the solution stays unique.
    pub variants: Vec<ConstraintKind>,
}

/// Why a [`PuzzleSpec`] asks for something that cannot be ([`PuzzleSpec::validate`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("boxes of {rows}×{cols} make a side out of range (1 to {MAX_SIZE})")]
    BoxesOutOfRange { rows: usize, cols: usize },
    #[error("boxes of {rows}×{cols} make side {}, not size {size}", rows * cols)]
    BoxesNotSide {
        rows: usize,
        cols: usize,
        size: usize,
    },
    #[error("cage sizes take (smallest, largest) with 1 ≤ smallest ≤ largest, not ({0}, {1})")]
    CageSizes(usize, usize),
    #[error(
        "no cage of {smallest} cells or more fits: a cage's digits are distinct, so it holds at \
         most {size} cells on a {size}×{size} grid"
    )]
    CagesBeyondSide { smallest: usize, size: usize },
    #[error("Killer cages are not drawn as a variant rule: they have their own option")]
    KillerAsVariant,
    #[error("--variants entropic: {}", crate::model::variant::entropic_side(.0))]
    EntropicSide(usize),
}

impl PuzzleSpec {
    /// Checks what the spec asks for: boxes that make a side in range, and the side, cage sizes
    /// `1 ≤ smallest ≤ largest`, no Killer cages among the variant rules (cages are
    /// [`PuzzleSpec::killer`]), and entropic lines only on a side divisible by 3.
    pub fn validate(&self) -> Result<(), SpecError> {
        if let Some((rows, cols)) = self.boxes {
            match rows.checked_mul(cols) {
                Some(n) if (1..=MAX_SIZE).contains(&n) => {
                    if n != self.size {
                        let size = self.size;
                        return Err(SpecError::BoxesNotSide { rows, cols, size });
                    }
                }
                _ => return Err(SpecError::BoxesOutOfRange { rows, cols }),
            }
        }
        if let Some((a, b)) = self.killer {
            if !(1 <= a && a <= b) {
                return Err(SpecError::CageSizes(a, b));
            }
            // Sizes above the side are drawn as the side (the default 2..5 on a 4×4 grid); a
            // range with none that fits would silently give cages of another size.
            if a > self.size {
                let size = self.size;
                return Err(SpecError::CagesBeyondSide { smallest: a, size });
            }
        }
        if self.variants.contains(&ConstraintKind::Killer) {
            return Err(SpecError::KillerAsVariant);
        }
        if self.variants.contains(&ConstraintKind::Entropic) && !self.size.is_multiple_of(3) {
            return Err(SpecError::EntropicSide(self.size));
        }
        Ok(())
    }

    /// Side `n` with its default boxes, no diagonals, no cages, no variant rules.
    pub fn new(size: usize) -> PuzzleSpec {
        PuzzleSpec {
            size,
            boxes: None,
            jigsaw: false,
            diagonals: false,
            killer: None,
            variants: vec![],
        }
    }
}

/// What to generate. Build with [`GenerateOptions::new`] and struct update syntax.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenerateOptions {
    /// The shape and the rules of the puzzles.
    pub spec: PuzzleSpec,
    /// Givens to keep (`--givens K`). `None`: with `unique`, as few as the random removal order
    /// allows; without, [`default_givens`] (about 0.4·n²).
    pub givens: Option<usize>,
    /// Remove givens only while the solution stays unique (`--unique`).
    pub unique: bool,
    /// Seed of the whole run (`--seed S`): one seed, one sequence of puzzles.
    pub seed: u64,
    /// Weights attached to every puzzle (`--weights pyramid`), the same for all: the pyramid or a
    /// file's, not [`WeightSource::Random`]. The line output is unchanged.
    pub weights: Option<WeightSource>,
}

impl GenerateOptions {
    /// Side `n` with its default boxes, no extras, default givens, seed 0.
    pub fn new(size: usize) -> GenerateOptions {
        GenerateOptions::of(PuzzleSpec::new(size))
    }

    /// Puzzles of `spec`, default givens, seed 0.
    pub fn of(spec: PuzzleSpec) -> GenerateOptions {
        GenerateOptions {
            spec,
            givens: None,
            unique: false,
            seed: 0,
            weights: None,
        }
    }
}

/// Default number of givens without `unique`: `round(0.4 · n²)` (32 for 9×9).
pub fn default_givens(n: usize) -> usize {
    (2 * n * n + 2) / 5
}

/// Generates puzzles one after another from one seeded random stream. Also an endless
/// [`Iterator`]: `gen.take(m)` gives the `--count M` puzzles.
pub struct Generator<'a> {
    opts: GenerateOptions,
    backend: &'a dyn Backend,
    /// Every uniqueness check ends by this instant…
    deadline: Option<Instant>,
    /// …and within this time…
    check_timeout: Option<Duration>,
    /// …and each puzzle's checks, all together, within this time.
    puzzle_budget: Option<Duration>,
    /// The end of the current puzzle's budget.
    puzzle_deadline: Option<Instant>,
    /// Stops every uniqueness check once set (as a time-out).
    cancel: Option<Cancel>,
    rng: GenRng,
    /// The fixed shape (`None` for jigsaw: every puzzle gets new regions).
    shape: Option<Arc<Shape>>,
    weights: Option<Arc<Weights>>,
}

impl<'a> Generator<'a> {
    /// Checks the options. `backend` decides uniqueness (pass `dfs`); it is only used with `unique`.
    pub fn new(
        opts: GenerateOptions,
        backend: &'a dyn Backend,
    ) -> Result<Generator<'a>, GenerateError> {
        let n = opts.spec.size;
        if n == 0 || n > MAX_GENERATE_SIDE {
            return Err(GenerateError::BadSize(n));
        }
        if opts.spec.jigsaw && opts.spec.boxes.is_some() {
            return Err(GenerateError::BoxesWithJigsaw);
        }
        if opts.spec.jigsaw && opts.spec.variants.contains(&ConstraintKind::DisjointGroups) {
            return Err(GenerateError::DisjointGroupsWithJigsaw);
        }
        if let Some(k) = opts.givens.filter(|&k| k > n * n) {
            return Err(GenerateError::TooManyGivens { givens: k, n });
        }
        let shape = match (opts.spec.jigsaw, opts.spec.boxes) {
            (true, _) => None,
            (false, Some((rows, cols))) => Some(Shape::new(
                n,
                Regions::Boxes { rows, cols },
                opts.spec.diagonals,
            )?),
            (false, None) => Some(Shape::standard(n, opts.spec.diagonals)?),
        };
        let weights = match &opts.weights {
            Some(source) => Some(Arc::new(source.fixed(n)?)),
            None => None,
        };
        Ok(Generator {
            rng: GenRng::seed(opts.seed),
            opts,
            backend,
            deadline: None,
            check_timeout: None,
            puzzle_budget: None,
            puzzle_deadline: None,
            cancel: None,
            shape: shape.map(Arc::new),
            weights,
        })
    }

    /// Applies `limits` (deadline and cancel flag) to every uniqueness check (a timeout then
    /// ends generation with an error).
    pub fn with_limits(mut self, limits: Limits) -> Generator<'a> {
        self.deadline = limits.deadline;
        self.cancel = limits.cancel;
        self
    }

    /// Gives each uniqueness check at most `timeout` (a time-out ends generation with an error,
    /// [`GenerateError::Check`]).
    pub fn with_check_timeout(mut self, timeout: Option<Duration>) -> Generator<'a> {
        self.check_timeout = timeout;
        self
    }

    /// Gives the uniqueness checks of each puzzle, all together, at most `budget` (past it,
    /// generation ends with an error, [`GenerateError::Check`], naming the time-out).
    pub fn with_puzzle_budget(mut self, budget: Option<Duration>) -> Generator<'a> {
        self.puzzle_budget = budget;
        self
    }

    /// The next puzzle.
    pub fn generate(&mut self) -> Result<Puzzle, GenerateError> {
        self.generate_with_solution().map(|(p, _)| p)
    }

    /// The next puzzle and the full grid it was cut from (its only solution with `unique`).
    pub fn generate_with_solution(&mut self) -> Result<(Puzzle, Grid), GenerateError> {
        self.puzzle_deadline = self.puzzle_budget.map(|b| Instant::now() + b);
        let attempts = match (self.opts.unique, self.opts.givens) {
            (true, Some(_)) => UNIQUE_ATTEMPTS,
            _ => 1,
        };
        if let Some(sizes) = self.opts.spec.killer {
            let (shape, grid) = self.shape_and_grid(&[])?;
            let keep = self.opts.givens.unwrap_or(0);
            let puzzle = blank(&shape, &grid, &mut self.rng, keep)?;
            let puzzle = self.killer(puzzle, &grid, sizes)?;
            let puzzle = match &self.weights {
                Some(w) => puzzle.with_weights(w.clone())?,
                None => puzzle,
            };
            return Ok((puzzle, grid));
        }
        let mut best = usize::MAX;
        for _ in 0..attempts {
            let (shape, grid, rules) = self.shape_grid_and_rules()?;
            let puzzle = if self.opts.unique {
                self.remove_unique(&shape, &grid, &rules)?
            } else {
                let keep = self
                    .opts
                    .givens
                    .unwrap_or_else(|| default_givens(self.opts.spec.size));
                blank(&shape, &grid, &mut self.rng, keep)?.with_constraints(rules)?
            };
            let left = puzzle.givens().iter().filter(|&&v| v != 0).count();
            if self.opts.givens.is_none_or(|k| left <= k) {
                let puzzle = match &self.weights {
                    Some(w) => puzzle.with_weights(w.clone())?,
                    None => puzzle,
                };
                return Ok((puzzle, grid));
            }
            best = best.min(left);
        }
        Err(GenerateError::GivensUnreachable {
            wanted: self.opts.givens.unwrap_or(0),
            best,
            attempts,
        })
    }

    /// Moves past the next puzzle without building it: the random stream advances exactly as
    /// [`Generator::generate`] would advance it, so the puzzles after it are the same (this is
    /// how `generate --shard` leaves the other shards' puzzles). Cheap — a full grid and one
    /// shuffle, no uniqueness check — except with both `unique` and `givens`, whose retries
    /// depend on the checks, and for Killers, whose cages draw from the stream as they grow and
    /// split: the puzzle is then generated.
    pub fn pass_over(&mut self) -> Result<(), GenerateError> {
        if (self.opts.unique && self.opts.givens.is_some())
            || self.opts.spec.killer.is_some()
            || !self.opts.spec.variants.is_empty()
        {
            return self.generate_with_solution().map(|_| ());
        }
        // Both `blank` and `remove_unique` draw one shuffle of the cells from the stream.
        let (shape, _) = self.shape_and_grid(&[])?;
        let mut order: Vec<usize> = (0..shape.cells()).collect();
        self.rng.shuffle(&mut order);
        Ok(())
    }

    /// A shape and a full grid of it that keeps the global `rules` (the fixed shape, or a new
    /// jigsaw layout).
    fn shape_and_grid(
        &mut self,
        rules: &[Constraint],
    ) -> Result<(Arc<Shape>, Grid), GenerateError> {
        match (&self.shape, rules) {
            (Some(shape), []) => Ok((shape.clone(), full_grid(shape, &mut self.rng)?)),
            (Some(shape), _) => Ok((
                shape.clone(),
                full_grid_keeping(shape, rules, &mut self.rng)?,
            )),
            (None, _) => random_jigsaw_keeping(
                self.opts.spec.size,
                self.opts.spec.diagonals,
                rules,
                &mut self.rng,
            ),
        }
    }

    /// A shape, a full grid and the variant rules drawn from it ([`PuzzleSpec::variants`]).
    /// With a global rule the full grid is one that keeps it, from the generator's own search.
    fn shape_grid_and_rules(
        &mut self,
    ) -> Result<(Arc<Shape>, Grid, Vec<Constraint>), GenerateError> {
        let kinds = self.opts.spec.variants.clone();
        let global: Vec<Constraint> = kinds
            .iter()
            .filter_map(|&k| variants::global_rule(k))
            .collect();
        let (shape, grid) = self.shape_and_grid(&global)?;
        let n = shape.size();
        let mut rules = vec![];
        for kind in kinds {
            let count = variants::default_count(kind, n);
            rules.extend(variants::draw(kind, &shape, &grid, count, &mut self.rng));
        }
        Ok((shape, grid, rules))
    }

    /// Tries the cells in random order, emptying each one whose removal keeps the solution unique
    /// (under `rules`); stops once `givens` (if set) are left.
    fn remove_unique(
        &mut self,
        shape: &Arc<Shape>,
        grid: &Grid,
        rules: &[Constraint],
    ) -> Result<Puzzle, GenerateError> {
        let n2 = shape.cells();
        let target = self.opts.givens.unwrap_or(0);
        let mut givens = grid.cells().to_vec();
        let mut order: Vec<usize> = (0..n2).collect();
        self.rng.shuffle(&mut order);
        let mut left = n2;
        for cell in order {
            if left <= target {
                break;
            }
            let v = std::mem::replace(&mut givens[cell], 0);
            let trial =
                Puzzle::new(shape.clone(), givens.clone())?.with_constraints(rules.to_vec())?;
            match self.is_unique(&trial)? {
                true => left -= 1,
                false => givens[cell] = v,
            }
        }
        Ok(Puzzle::new(shape.clone(), givens)?.with_constraints(rules.to_vec())?)
    }
}

impl Generator<'_> {
    /// `puzzle` with random cages cut from `grid` (see [`random_cages`]); with `unique`, a cage
    /// holding a cell where two solutions differ is split into connected pieces, until one
    /// solution is left.
    fn killer(
        &mut self,
        puzzle: Puzzle,
        grid: &Grid,
        sizes: (usize, usize),
    ) -> Result<Puzzle, GenerateError> {
        let n = puzzle.size();
        let mut cages = random_cages(n, grid, sizes, &mut self.rng);
        loop {
            let constraints = cages
                .iter()
                .map(|cells| {
                    let sum = cells.iter().map(|&c| grid.cells()[c as usize] as u32).sum();
                    Constraint::Cage(Cage::new(cells.clone(), sum))
                })
                .collect();
            let caged = puzzle.clone().with_constraints(constraints)?;
            if !self.opts.unique {
                return Ok(caged);
            }
            if self.is_unique(&caged)? {
                return Ok(caged);
            }
            let cell = self.differing_cell(&caged, grid)?;
            let k = cages
                .iter()
                .position(|c| c.contains(&cell))
                .ok_or_else(|| {
                    GenerateError::Internal(format!("cell {cell} differs but is in no cage"))
                })?;
            let cage = cages.swap_remove(k);
            cages.extend(split_cage(n, &cage, cell));
        }
    }
}

impl Generator<'_> {
    /// The backend's verdict on `puzzle`, cut from a full grid (so it has a solution): `true`
    /// for one solution, `false` for several. Only the verdict is used, never the solutions,
    /// so the puzzles a seed gives do not depend on the backend's search order.
    ///
    /// A check does not start once the run's deadline or the puzzle's budget has passed (or
    /// the cancel flag is set): a backend looks at the clock only every so many steps, and the
    /// checks of a large grid are many short ones, so past the deadline each would still end
    /// with a verdict, and the loops that make them would run on. The time-out of one check is
    /// its own: counted from its start, it bounds the check, whatever the time.
    fn is_unique(&self, puzzle: &Puzzle) -> Result<bool, GenerateError> {
        let fixed = [self.deadline, self.puzzle_deadline]
            .into_iter()
            .flatten()
            .min();
        if due(fixed, self.cancel.as_ref()) {
            return Err(RunError::Backend(BackendError::TimedOut).into());
        }
        let by_timeout = self.check_timeout.map(|t| Instant::now() + t);
        let mut limits = Limits::until(fixed.into_iter().chain(by_timeout).min());
        limits.cancel = self.cancel.clone();
        match task::run(self.backend, puzzle, Task::Unique, &limits)? {
            Answer::Unique(_) => Ok(true),
            Answer::Multiple(..) => Ok(false),
            other => Err(GenerateError::Internal(format!(
                "{} backend answered '{}' for a puzzle cut from a full grid",
                self.backend.name(),
                other.status()
            ))),
        }
    }

    /// A cell that some solution of `puzzle` (which has several) fills differently from `grid`
    /// (one of them), found from verdicts alone: `grid`'s digits are added as givens in a random
    /// order, and a binary search finds the shortest prefix of that order that leaves one
    /// solution. Its last cell is the answer: with it the solution is unique, without it some
    /// other solution agrees with `grid` on every cell before it, so it differs there.
    fn differing_cell(&mut self, puzzle: &Puzzle, grid: &Grid) -> Result<u32, GenerateError> {
        let cells = grid.cells().len();
        let mut order: Vec<usize> = (0..cells).collect();
        self.rng.shuffle(&mut order);
        // The first `lo` cells given leave several solutions, the first `hi` one.
        let (mut lo, mut hi) = (0, cells);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            let mut givens = puzzle.givens().to_vec();
            for &c in &order[..mid] {
                givens[c] = grid.cells()[c];
            }
            let trial = Puzzle::new(puzzle.shape_arc().clone(), givens)?
                .with_constraints(puzzle.constraints().to_vec())?;
            match self.is_unique(&trial)? {
                true => hi = mid,
                false => lo = mid,
            }
        }
        Ok(order[hi - 1] as u32)
    }
}

/// Cuts `grid` into connected cages of distinct digits: from each cell not yet taken, in random
/// order, a cage grows by random neighbours not taken whose digit it does not hold yet, to a size
/// drawn from `sizes` (smaller when it runs out of such neighbours).
pub fn random_cages(
    n: usize,
    grid: &Grid,
    sizes: (usize, usize),
    rng: &mut GenRng,
) -> Vec<Vec<u32>> {
    let digits = grid.cells();
    let mut taken = vec![false; n * n];
    let mut order: Vec<usize> = (0..n * n).collect();
    rng.shuffle(&mut order);
    let mut cages = vec![];
    for start in order {
        if taken[start] {
            continue;
        }
        let (lo, hi) = (
            sizes.0.clamp(1, n),
            sizes.1.clamp(1, n).max(sizes.0.clamp(1, n)),
        );
        let target = lo + rng.below(hi - lo + 1);
        let mut cage = vec![start];
        taken[start] = true;
        while cage.len() < target {
            let frontier: Vec<usize> = cage
                .iter()
                .flat_map(|&c| neighbours(n, c))
                .filter(|&d| !taken[d] && cage.iter().all(|&c| digits[c] != digits[d]))
                .collect();
            if frontier.is_empty() {
                break;
            }
            let next = frontier[rng.below(frontier.len())];
            taken[next] = true;
            cage.push(next);
        }
        cages.push(cage.into_iter().map(|c| c as u32).collect());
    }
    cages
}

/// `cage` split in two around `cell`: the cell with about half the cage grown from it by
/// neighbours, then each connected piece of the rest.
fn split_cage(n: usize, cage: &[u32], cell: u32) -> Vec<Vec<u32>> {
    let near = |a: u32, b: u32| {
        let (a, b) = (a as usize, b as usize);
        (a / n).abs_diff(b / n) + (a % n).abs_diff(b % n) == 1
    };
    let mut first = vec![cell];
    let half = (cage.len() / 2).max(1);
    while first.len() < half {
        let Some(&next) = cage
            .iter()
            .find(|&&c| !first.contains(&c) && first.iter().any(|&f| near(f, c)))
        else {
            break;
        };
        first.push(next);
    }
    let mut rest: Vec<u32> = cage
        .iter()
        .copied()
        .filter(|c| !first.contains(c))
        .collect();
    let mut pieces = vec![first];
    while let Some(seed) = rest.pop() {
        let mut piece = vec![seed];
        let mut i = 0;
        while i < piece.len() {
            let c = piece[i];
            let (joined, left): (Vec<u32>, Vec<u32>) = rest.iter().partition(|&&d| near(c, d));
            piece.extend(joined);
            rest = left;
            i += 1;
        }
        pieces.push(piece);
    }
    pieces
}

impl Iterator for Generator<'_> {
    type Item = Result<Puzzle, GenerateError>;
    fn next(&mut self) -> Option<Self::Item> {
        Some(self.generate())
    }
}

/// A puzzle keeping `keep` random cells of `grid` (all of them if `keep ≥ n²`).
fn blank(
    shape: &Arc<Shape>,
    grid: &Grid,
    rng: &mut GenRng,
    keep: usize,
) -> Result<Puzzle, GenerateError> {
    let mut order: Vec<usize> = (0..shape.cells()).collect();
    rng.shuffle(&mut order);
    let mut givens = grid.cells().to_vec();
    for &cell in order.iter().skip(keep) {
        givens[cell] = 0;
    }
    Ok(Puzzle::new(shape.clone(), givens)?)
}

/// For property tests and benchmarks: a random full grid of `shape` and the puzzle keeping
/// `keep` random cells of it (so the puzzle has at least that grid as a solution; it need not be
/// unique). Same `rng` state ⇒ same result.
pub fn blank_solved(
    shape: &Arc<Shape>,
    rng: &mut GenRng,
    keep: usize,
) -> Result<(Puzzle, Grid), GenerateError> {
    let grid = full_grid(shape, rng)?;
    let puzzle = blank(shape, &grid, rng, keep)?;
    Ok((puzzle, grid))
}

/// A random jigsaw shape of side `n` (`n` 4-connected regions of `n` cells, labelled `0..n` by
/// first appearance, row-major) together with a full grid for it: [`random_jigsaw_keeping`]
/// without global rules.
pub fn random_jigsaw(
    n: usize,
    diagonals: bool,
    rng: &mut GenRng,
) -> Result<(Arc<Shape>, Grid), GenerateError> {
    random_jigsaw_keeping(n, diagonals, &[], rng)
}

/// A random jigsaw shape of side `n` and a full grid for it that keeps the global `rules`.
///
/// Each layout starts from the standard boxes (the rows when `n` has no box shape) and is mixed by
/// [`mix_regions`] (`4n³` attempts); the full-grid search then gets a small restart budget. Random
/// layouts of side ≤ 12 nearly always get a grid at once. A layout without a grid within the
/// budget is drawn again; when [`JIGSAW_LAYOUTS`] layouts get none, and always above side
/// [`MIX_MAX_SIDE`] (where the search rarely completes: 16×16 layouts took seconds),
/// [`same_digit_walk`] builds a less mixed layout that has a full grid by construction. When even
/// its starting regions have no grid keeping `rules` within the budget, the error
/// ([`GenerateError::NoGridKeeping`]) names the rules and the shape.
pub fn random_jigsaw_keeping(
    n: usize,
    diagonals: bool,
    rules: &[Constraint],
    rng: &mut GenRng,
) -> Result<(Arc<Shape>, Grid), GenerateError> {
    let layouts = if n <= MIX_MAX_SIDE { JIGSAW_LAYOUTS } else { 0 };
    for _ in 0..layouts {
        let mut region = start_regions(n);
        mix_regions(n, &mut region, rng, 4 * n * n * n);
        let shape = Arc::new(Shape::new(n, Regions::Jigsaw(region), diagonals)?);
        let plan = Plan::new(&shape, rules)?;
        if let Some(grid) = try_fill(&plan, rng, JIGSAW_RESTARTS)? {
            return Ok((shape, grid));
        }
    }
    same_digit_walk_keeping(n, diagonals, rules, rng).map_err(|e| match e {
        GenerateError::NoGridKeeping { shape, rules, .. } => GenerateError::NoGridKeeping {
            shape,
            rules,
            attempts: format!(
                "{layouts} random layouts of {JIGSAW_RESTARTS} searches each, then \
                 {FILL_RESTARTS} searches on the unmixed regions"
            ),
        },
        e => e,
    })
}

/// The names of `rules`, for messages: `anti-knight, nonconsecutive`.
fn rule_names(rules: &[Constraint]) -> String {
    let names: Vec<&str> = rules.iter().map(|r| r.kind().name()).collect();
    names.join(", ")
}

/// A shape in words, for messages: `9×9 jigsaw`, `6×6 with 2×3 boxes and diagonals`.
fn shape_words(shape: &Shape) -> String {
    let n = shape.size();
    let regions = match shape.regions() {
        Regions::Boxes { rows, cols } => format!("{n}×{n} with {rows}×{cols} boxes"),
        Regions::Jigsaw(_) => format!("{n}×{n} jigsaw"),
    };
    match shape.diagonals() {
        true => format!("{regions} and diagonals"),
        false => regions,
    }
}

/// A random full grid of `shape` keeping the global `rules` within [`FILL_RESTARTS`] searches;
/// [`GenerateError::NoGridKeeping`] names the rules and the shape when there is none.
pub fn full_grid_keeping(
    shape: &Arc<Shape>,
    rules: &[Constraint],
    rng: &mut GenRng,
) -> Result<Grid, GenerateError> {
    let plan = Plan::new(shape, rules)?;
    try_fill(&plan, rng, FILL_RESTARTS)?.ok_or_else(|| GenerateError::NoGridKeeping {
        shape: shape_words(shape),
        rules: rule_names(rules),
        attempts: format!("{FILL_RESTARTS} searches"),
    })
}

/// The standard boxes of side `n` as region labels, or the rows when `n` has no box shape.
fn start_regions(n: usize) -> Vec<u32> {
    match Shape::default_boxes(n) {
        Some((r, c)) => (0..n * n)
            .map(|x| ((x / n / r) * (n / c) + x % n / c) as u32)
            .collect(),
        None => (0..n * n).map(|x| (x / n) as u32).collect(),
    }
}

/// A jigsaw layout that has a full grid by construction: take a random full grid `G` of the
/// [`start_regions`], then make `8n³` attempts to let a random cell `a` trade regions with the cell
/// `b` of a neighbouring region holding the same digit in `G`, kept when both regions stay
/// connected. Each region keeps `n` distinct digits of `G`, so `G` stays a solution; but the walk
/// moves slowly, so layouts stay closer to the boxes than [`mix_regions`] ones.
pub fn same_digit_walk(
    n: usize,
    diagonals: bool,
    rng: &mut GenRng,
) -> Result<(Arc<Shape>, Grid), GenerateError> {
    same_digit_walk_keeping(n, diagonals, &[], rng)
}

/// [`same_digit_walk`] from a grid `G` that keeps the global `rules` (none of which depends on
/// the regions, so `G` keeps them on every layout of the walk).
fn same_digit_walk_keeping(
    n: usize,
    diagonals: bool,
    rules: &[Constraint],
    rng: &mut GenRng,
) -> Result<(Arc<Shape>, Grid), GenerateError> {
    let mut region = start_regions(n);
    let start = Arc::new(Shape::new(n, Regions::Jigsaw(region.clone()), diagonals)?);
    let grid = match rules {
        [] => full_grid(&start, rng)?,
        _ => full_grid_keeping(&start, rules, rng)?,
    };
    let g = grid.cells();
    // cell_of[r * n + d - 1]: the cell of region r holding digit d in G.
    let mut cell_of = vec![0usize; n * n];
    for (x, (&r, &d)) in region.iter().zip(g).enumerate() {
        cell_of[r as usize * n + d as usize - 1] = x;
    }
    let (mut seen, mut epoch) = (vec![0u32; n * n], 0u32);
    for _ in 0..8 * n * n * n {
        let a = rng.below(n * n);
        let Some(rb) = random_other_region(n, &region, a, rng) else {
            continue;
        };
        let (ra, d) = (region[a], g[a] as usize - 1);
        let b = cell_of[rb as usize * n + d];
        if try_trade(n, &mut region, a, b, &mut seen, &mut epoch) {
            cell_of[ra as usize * n + d] = b;
            cell_of[rb as usize * n + d] = a;
        }
    }
    relabel(&mut region);
    let shape = Arc::new(Shape::new(n, Regions::Jigsaw(region), diagonals)?);
    Plan::new(&shape, rules)?.verify(&grid)?;
    Ok((shape, grid))
}

/// The region of a random 4-neighbour of `a` outside `a`'s region, if any.
fn random_other_region(n: usize, region: &[u32], a: usize, rng: &mut GenRng) -> Option<u32> {
    let others: Vec<usize> = neighbours(n, a)
        .filter(|&c| region[c] != region[a])
        .collect();
    (!others.is_empty()).then(|| region[others[rng.below(others.len())]])
}

/// Swaps the regions of cells `a` and `b`; keeps the swap (and returns `true`) only when both
/// regions are still 4-connected.
fn try_trade(
    n: usize,
    region: &mut [u32],
    a: usize,
    b: usize,
    seen: &mut [u32],
    epoch: &mut u32,
) -> bool {
    region.swap(a, b);
    *epoch += 2;
    if region_size(n, region, a, seen, *epoch) == n
        && region_size(n, region, b, seen, *epoch + 1) == n
    {
        return true;
    }
    region.swap(a, b);
    false
}

/// Numbers the regions by first appearance, row-major.
fn relabel(region: &mut [u32]) {
    let mut map = vec![u32::MAX; region.len()];
    let mut next = 0;
    for r in region.iter_mut() {
        if map[*r as usize] == u32::MAX {
            map[*r as usize] = next;
            next += 1;
        }
        *r = map[*r as usize];
    }
}

/// Mixes a partition of the `n × n` grid into `n` connected regions of `n` cells, keeping those
/// properties: `attempts` times, a random cell `a` and a random cell `b` of a neighbouring region
/// that touches `a`'s region elsewhere trade regions, kept only when both regions stay
/// 4-connected. Then numbers the regions by first appearance, row-major.
pub fn mix_regions(n: usize, region: &mut [u32], rng: &mut GenRng, attempts: usize) {
    let mut members: Vec<Vec<usize>> = vec![Vec::with_capacity(n); n];
    for (x, &r) in region.iter().enumerate() {
        members[r as usize].push(x);
    }
    let (mut seen, mut epoch) = (vec![0u32; n * n], 0u32);
    let mut touching = Vec::with_capacity(n);
    for _ in 0..attempts {
        let a = rng.below(n * n);
        let Some(rb) = random_other_region(n, region, a, rng) else {
            continue;
        };
        let ra = region[a];
        touching.clear();
        touching.extend(
            members[rb as usize]
                .iter()
                .copied()
                .filter(|&c| neighbours(n, c).any(|d| d != a && region[d] == ra)),
        );
        if touching.is_empty() {
            continue;
        }
        let b = touching[rng.below(touching.len())];
        if try_trade(n, region, a, b, &mut seen, &mut epoch) {
            for (r, old, new) in [(ra, a, b), (rb, b, a)] {
                if let Some(slot) = members[r as usize].iter_mut().find(|c| **c == old) {
                    *slot = new;
                }
            }
        }
    }
    relabel(region);
}

/// The 4-neighbours of `cell` in an `n × n` grid.
fn neighbours(n: usize, cell: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (cell / n, cell % n);
    [
        (r > 0).then(|| cell - n),
        (r + 1 < n).then(|| cell + n),
        (c > 0).then(|| cell - 1),
        (c + 1 < n).then(|| cell + 1),
    ]
    .into_iter()
    .flatten()
}

/// Cells of `start`'s region reachable from it through 4-neighbours in that region (`seen` marks
/// visited cells with `epoch`).
fn region_size(n: usize, region: &[u32], start: usize, seen: &mut [u32], epoch: u32) -> usize {
    let r = region[start];
    let mut stack = vec![start];
    seen[start] = epoch;
    let mut count = 1;
    while let Some(c) = stack.pop() {
        for d in neighbours(n, c) {
            if region[d] == r && seen[d] != epoch {
                seen[d] = epoch;
                count += 1;
                stack.push(d);
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_is_checked_before_any_puzzle() {
        let spec = |boxes, killer, variants| PuzzleSpec {
            boxes,
            killer,
            variants,
            ..PuzzleSpec::new(6)
        };
        assert_eq!(spec(Some((2, 3)), Some((1, 1)), vec![]).validate(), Ok(()));
        assert_eq!(
            spec(Some((3, 3)), None, vec![]).validate(),
            Err(SpecError::BoxesNotSide {
                rows: 3,
                cols: 3,
                size: 6
            })
        );
        let huge = spec(Some((usize::MAX, 2)), None, vec![]).validate();
        assert_eq!(
            huge.unwrap_err().to_string(),
            format!(
                "boxes of {}×2 make a side out of range (1 to 1024)",
                usize::MAX
            )
        );
        let cages = spec(None, Some((3, 2)), vec![]).validate();
        assert_eq!(cages, Err(SpecError::CageSizes(3, 2)));
        let killer = spec(None, None, vec![ConstraintKind::Killer]).validate();
        assert_eq!(killer, Err(SpecError::KillerAsVariant));
    }

    #[test]
    fn mixed_regions_stay_connected_partitions() {
        let mut rng = GenRng::seed(2);
        for n in [4, 7, 10] {
            let mut region = start_regions(n);
            mix_regions(n, &mut region, &mut rng, 4 * n * n * n);
            assert_ne!(region, start_regions(n), "side {n}: nothing moved");
            assert_eq!(region[0], 0, "labelled by first appearance");
            let mut seen = vec![0; n * n];
            for r in 0..n as u32 {
                let start = region.iter().position(|&x| x == r).unwrap();
                assert_eq!(region_size(n, &region, start, &mut seen, r + 1), n);
                assert_eq!(region.iter().filter(|&&x| x == r).count(), n);
            }
        }
    }

    #[test]
    fn same_digit_walk_keeps_its_grid() {
        let mut rng = GenRng::seed(4);
        let (shape, grid) = same_digit_walk(9, false, &mut rng).unwrap();
        assert_ne!(*shape.regions(), Regions::Boxes { rows: 3, cols: 3 });
        fill::Plan::new(&shape, &[]).unwrap().verify(&grid).unwrap();
        let Regions::Jigsaw(map) = shape.regions() else {
            panic!("jigsaw expected")
        };
        assert_ne!(*map, start_regions(9), "the walk moved some cells");
    }
}
