//! Seeded puzzle generation: a random full grid, optional random jigsaw regions, then givens
//! removed at random (down to `K`) or, with `unique`, removed only while the puzzle keeps exactly
//! one solution.
//!
//! * **Determinism.** All randomness comes from [`GenRng`]: xoshiro256++ seeded through SplitMix64
//!   (`rand_xoshiro`, both algorithms fixed by their published reference code), with our own
//!   uniform-range and shuffle code on top, so no library "value-breaking" change can alter the
//!   output. The same [`GenerateOptions`] (seed included) give the same puzzles, forever; the tests
//!   pin one recorded output. Two steps take an answer of the backend, not just its verdict, and
//!   so also depend on its search order: the full grid of a puzzle with global variant rules
//!   (the first solution it finds, [`Generator::grid_keeping`]) and, with `unique`, the pair of
//!   solutions that decides which Killer cage to split. A change in how `dfs` searches can change
//!   those puzzles (the `unique` non-consecutive set of `tools/variant_bench.sh` did change).
//! * **Full grids** come from a small randomised backtracking search over the model's houses
//!   ([`full_grid`]): fewest candidates first, ties and digit order random, restarted with a fresh
//!   random order when a node budget runs out. Every grid is verified with [`check::verify`].
//! * **Jigsaw regions** ([`random_jigsaw`]) start from the boxes (or rows) and are mixed by random
//!   swaps of two cells between neighbouring regions ([`mix_regions`]), each kept only when both
//!   regions stay 4-connected, so sizes never change; a layout whose full grid is not found
//!   quickly is dropped, and after a few such layouts (side ≥ 16) a slower-mixing walk that keeps
//!   a full grid by construction takes over ([`same_digit_walk`]).
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

pub mod variants;

use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::backend::{Backend, Limits};
use crate::check::{self, CheckFailure};
use crate::model::{
    Cage, Constraint, ConstraintKind, Grid, ModelError, Puzzle, Regions, Shape, Value, Weights,
};
use crate::task::{self, Answer, RunError, Task};
use crate::weights::{WeightSource, WeightsError};

/// Largest side the generator handles (one bit per digit in a `u64`, like the `dfs` backend).
pub const MAX_GENERATE_SIDE: usize = 64;

/// Full-grid search: restarts (fresh random order) before giving up on one shape.
const FILL_RESTARTS: usize = 200;
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
    /// No full grid keeping the global variant rules was found (a small grid may have none:
    /// no 4×4 keeps anti-king or non-consecutive).
    #[error("no full grid of side {n} keeping {rules} found in {attempts} attempts (small grids may have none)")]
    NoGridKeeping {
        n: usize,
        rules: String,
        attempts: usize,
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
}

/// A deterministic, portable random source: xoshiro256++ seeded with SplitMix64, plus our own
/// range and shuffle code so that the output depends on nothing but the seed.
#[derive(Debug, Clone)]
pub struct GenRng(Xoshiro256PlusPlus);

impl GenRng {
    pub fn seed(seed: u64) -> GenRng {
        GenRng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// Uniform in `0..bound` (Lemire's multiply-and-reject); `0` when `bound <= 1`.
    pub fn below(&mut self, bound: usize) -> usize {
        if bound <= 1 {
            return 0;
        }
        let b = bound as u64;
        let threshold = b.wrapping_neg() % b;
        loop {
            let m = self.next_u64() as u128 * b as u128;
            if m as u64 >= threshold {
                return (m >> 64) as usize;
            }
        }
    }
    /// Fisher–Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// What to generate. Build with [`GenerateOptions::new`] and struct update syntax.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenerateOptions {
    /// Side `n` (`--size N`, or `R*C` from `--boxes RxC`).
    pub size: usize,
    /// Box shape `(rows, cols)` (`--boxes RxC`); `None` = [`Shape::default_boxes`]. Not with jigsaw.
    pub boxes: Option<(usize, usize)>,
    /// Random jigsaw regions instead of boxes (`--jigsaw`); works for any side, prime ones included.
    pub jigsaw: bool,
    /// Both main diagonals are houses too (`--diagonals`).
    pub diagonals: bool,
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
    /// Killer cages of sizes in this range (`--killer`, `--cage-sizes A..B`): the full grid cut
    /// into random connected cages of distinct digits, and no givens unless `givens` asks. With
    /// `unique`, cages are split until the solution is unique.
    pub killer: Option<(usize, usize)>,
    /// Variant rules drawn from the full grid (`--variants thermo,arrow,…`, see
    /// [`variants::draw`]); a global rule (anti-knight…) makes the full grid one that keeps it.
    /// With `unique`, givens are then removed while the solution stays unique.
    pub variants: Vec<ConstraintKind>,
}

impl GenerateOptions {
    /// Side `n` with its default boxes, no extras, default givens, seed 0.
    pub fn new(size: usize) -> GenerateOptions {
        GenerateOptions {
            size,
            boxes: None,
            jigsaw: false,
            diagonals: false,
            givens: None,
            unique: false,
            seed: 0,
            weights: None,
            killer: None,
            variants: vec![],
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
    limits: Limits,
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
        let n = opts.size;
        if n == 0 || n > MAX_GENERATE_SIDE {
            return Err(GenerateError::BadSize(n));
        }
        if opts.jigsaw && opts.boxes.is_some() {
            return Err(GenerateError::BoxesWithJigsaw);
        }
        if let Some(k) = opts.givens.filter(|&k| k > n * n) {
            return Err(GenerateError::TooManyGivens { givens: k, n });
        }
        let shape = match (opts.jigsaw, opts.boxes) {
            (true, _) => None,
            (false, Some((rows, cols))) => Some(Shape::new(
                n,
                Regions::Boxes { rows, cols },
                opts.diagonals,
            )?),
            (false, None) => Some(Shape::standard(n, opts.diagonals)?),
        };
        let weights = match &opts.weights {
            Some(source) => Some(Arc::new(source.fixed(n)?)),
            None => None,
        };
        Ok(Generator {
            rng: GenRng::seed(opts.seed),
            opts,
            backend,
            limits: Limits::none(),
            shape: shape.map(Arc::new),
            weights,
        })
    }

    /// Applies `limits` to every uniqueness check (a timeout then ends generation with an error).
    pub fn with_limits(mut self, limits: Limits) -> Generator<'a> {
        self.limits = limits;
        self
    }

    /// The next puzzle.
    pub fn generate(&mut self) -> Result<Puzzle, GenerateError> {
        self.generate_with_solution().map(|(p, _)| p)
    }

    /// The next puzzle and the full grid it was cut from (its only solution with `unique`).
    pub fn generate_with_solution(&mut self) -> Result<(Puzzle, Grid), GenerateError> {
        let attempts = match (self.opts.unique, self.opts.givens) {
            (true, Some(_)) => UNIQUE_ATTEMPTS,
            _ => 1,
        };
        if let Some(sizes) = self.opts.killer {
            let (shape, grid) = self.shape_and_grid()?;
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
                    .unwrap_or_else(|| default_givens(self.opts.size));
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
            || self.opts.killer.is_some()
            || !self.opts.variants.is_empty()
        {
            return self.generate_with_solution().map(|_| ());
        }
        // Both `blank` and `remove_unique` draw one shuffle of the cells from the stream.
        let (shape, _) = self.shape_and_grid()?;
        let mut order: Vec<usize> = (0..shape.cells()).collect();
        self.rng.shuffle(&mut order);
        Ok(())
    }

    fn shape_and_grid(&mut self) -> Result<(Arc<Shape>, Grid), GenerateError> {
        match &self.shape {
            Some(shape) => {
                let grid = full_grid(shape, &mut self.rng)?;
                Ok((shape.clone(), grid))
            }
            None => random_jigsaw(self.opts.size, self.opts.diagonals, &mut self.rng),
        }
    }

    /// A shape, a full grid and the variant rules drawn from it ([`GenerateOptions::variants`]).
    /// With a global rule the full grid is one that keeps it: a few random givens solved by the
    /// backend, retried until they have a solution.
    fn shape_grid_and_rules(
        &mut self,
    ) -> Result<(Arc<Shape>, Grid, Vec<Constraint>), GenerateError> {
        let (shape, mut grid) = self.shape_and_grid()?;
        let kinds = self.opts.variants.clone();
        let global: Vec<Constraint> = kinds
            .iter()
            .filter_map(|&k| variants::global_rule(k))
            .collect();
        if !global.is_empty() {
            grid = self.grid_keeping(&shape, &global)?;
        }
        let n = shape.size();
        let mut rules = vec![];
        for kind in kinds {
            let count = variants::default_count(kind, n);
            rules.extend(variants::draw(kind, &shape, &grid, count, &mut self.rng));
        }
        Ok((shape, grid, rules))
    }

    /// A random full grid of `shape` that keeps the global `rules`.
    fn grid_keeping(
        &mut self,
        shape: &Arc<Shape>,
        rules: &[Constraint],
    ) -> Result<Grid, GenerateError> {
        let n = shape.size();
        for _ in 0..GLOBAL_GRID_ATTEMPTS {
            let seed = full_grid(shape, &mut self.rng)?;
            let mut givens = vec![0; n * n];
            let mut cells: Vec<usize> = (0..n * n).collect();
            self.rng.shuffle(&mut cells);
            for &c in cells.iter().take(n.div_ceil(3)) {
                givens[c] = seed.cells()[c];
            }
            let trial = Puzzle::new(shape.clone(), givens)?.with_constraints(rules.to_vec())?;
            if let Answer::Solved(grid) =
                task::run(self.backend, &trial, Task::Solve, &self.limits)?
            {
                return Ok(grid);
            }
        }
        Err(GenerateError::NoGridKeeping {
            n,
            rules: rules
                .iter()
                .map(|r| r.kind().name())
                .collect::<Vec<_>>()
                .join(", "),
            attempts: GLOBAL_GRID_ATTEMPTS,
        })
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
            match task::run(self.backend, &trial, Task::Unique, &self.limits)? {
                Answer::Unique(_) => left -= 1,
                Answer::Multiple(..) => givens[cell] = v,
                other => {
                    return Err(GenerateError::Internal(format!(
                        "{} backend answered '{}' for a puzzle cut from a full grid",
                        self.backend.name(),
                        other.status()
                    )))
                }
            }
        }
        Ok(Puzzle::new(shape.clone(), givens)?.with_constraints(rules.to_vec())?)
    }
}

/// Fresh attempts at a full grid that keeps the global variant rules.
const GLOBAL_GRID_ATTEMPTS: usize = 200;

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
            let (a, b) = match task::run(self.backend, &caged, Task::Unique, &self.limits)? {
                Answer::Unique(_) => return Ok(caged),
                Answer::Multiple(a, b) => (a, b),
                other => {
                    return Err(GenerateError::Internal(format!(
                        "{} backend answered '{}' for cages cut from a full grid",
                        self.backend.name(),
                        other.status()
                    )))
                }
            };
            let differ: Vec<u32> = (0..(n * n) as u32)
                .filter(|&c| a.cells()[c as usize] != b.cells()[c as usize])
                .collect();
            let cell = differ[self.rng.below(differ.len())];
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

/// A random full grid of `shape` (any regions, diagonals included), verified by the checker.
/// Errors when none is found within the restart budget (for example a shape without one).
pub fn full_grid(shape: &Shape, rng: &mut GenRng) -> Result<Grid, GenerateError> {
    try_fill(shape, rng, FILL_RESTARTS)?.ok_or(GenerateError::NoFullGrid {
        n: shape.size(),
        attempts: FILL_RESTARTS,
    })
}

/// Up to `restarts` randomised searches, each with a node budget; `None` when all run out.
fn try_fill(
    shape: &Shape,
    rng: &mut GenRng,
    restarts: usize,
) -> Result<Option<Grid>, GenerateError> {
    let n = shape.size();
    if n > MAX_GENERATE_SIDE {
        return Err(GenerateError::BadSize(n));
    }
    for _ in 0..restarts {
        let mut fill = Fill::new(shape, rng);
        match fill.search(0, rng) {
            Some(true) => {
                let grid = Grid::new(n, fill.values);
                verify_full(shape, &grid)?;
                return Ok(Some(grid));
            }
            Some(false) => return Ok(None), // searched to the end: there is no full grid
            None => {}                      // budget spent: restart with a new random order
        }
    }
    Ok(None)
}

/// Passes a generated full grid through the independent checker (a failure is a generator bug).
fn verify_full(shape: &Shape, grid: &Grid) -> Result<(), GenerateError> {
    let empty = Puzzle::new(Arc::new(shape.clone()), vec![0; shape.cells()])?;
    check::verify(&empty, grid)
        .map_err(|f: CheckFailure| GenerateError::Internal(format!("generated grid rejected: {f}")))
}

/// Randomised backtracking fill of an empty grid. Bit `d-1` of a mask stands for digit `d`;
/// `used[h]` holds the digits placed in house `h`. Cells `order[depth..]` are still empty.
struct Fill<'a> {
    shape: &'a Shape,
    full: u64,
    values: Vec<Value>,
    used: Vec<u64>,
    order: Vec<u32>,
    nodes: u64,
    budget: u64,
}

impl<'a> Fill<'a> {
    fn new(shape: &'a Shape, rng: &mut GenRng) -> Fill<'a> {
        let n = shape.size();
        let mut order: Vec<u32> = (0..(n * n) as u32).collect();
        rng.shuffle(&mut order);
        Fill {
            shape,
            full: if n == 64 { u64::MAX } else { (1u64 << n) - 1 },
            values: vec![0; n * n],
            used: vec![0; shape.house_count()],
            order,
            nodes: 0,
            budget: (20 * n * n).max(2000) as u64,
        }
    }

    fn candidates(&self, cell: usize) -> u64 {
        let u = self
            .shape
            .houses_of(cell)
            .iter()
            .fold(0, |u, &h| u | self.used[h as usize]);
        self.full & !u
    }

    fn toggle(&mut self, cell: usize, v: Value) {
        for &h in self.shape.houses_of(cell) {
            self.used[h as usize] ^= 1u64 << (v - 1);
        }
    }

    /// The branch to take at `depth`: an index into `order` and the digits to try there, or `None`
    /// at a dead end. A cell with fewest candidates (ties: earliest in the random order), unless it
    /// has two or more and some house has a digit with one possible cell left (a hidden single).
    fn choose(&self, depth: usize) -> Option<(usize, u64)> {
        let (mut best, mut best_mask, mut best_k) = (depth, 0, u32::MAX);
        for i in depth..self.order.len() {
            let mask = self.candidates(self.order[i] as usize);
            let k = mask.count_ones();
            if k < best_k {
                (best, best_mask, best_k) = (i, mask, k);
                if k <= 1 {
                    break;
                }
            }
        }
        if best_k == 0 {
            return None;
        }
        if best_k == 1 {
            return Some((best, best_mask));
        }
        for (h, house) in self.shape.houses().enumerate() {
            let (mut once, mut twice) = (0u64, 0u64);
            for &c in house.iter().filter(|&&c| self.values[c as usize] == 0) {
                let m = self.candidates(c as usize);
                twice |= once & m;
                once |= m;
            }
            let missing = self.full & !self.used[h];
            if missing & !once != 0 {
                return None;
            }
            let single = missing & once & !twice;
            if single != 0 {
                let bit = single & single.wrapping_neg();
                let &cell = house.iter().find(|&&c| {
                    self.values[c as usize] == 0 && self.candidates(c as usize) & bit != 0
                })?;
                let i = depth + self.order[depth..].iter().position(|&c| c == cell)?;
                return Some((i, bit));
            }
        }
        Some((best, best_mask))
    }

    /// `Some(true)` filled, `Some(false)` dead end, `None` node budget spent.
    fn search(&mut self, depth: usize, rng: &mut GenRng) -> Option<bool> {
        if depth == self.order.len() {
            return Some(true);
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        let Some((best, mask)) = self.choose(depth) else {
            return Some(false);
        };
        self.order.swap(depth, best);
        let cell = self.order[depth] as usize;
        let mut digits: Vec<Value> = (1..=64).filter(|d| mask >> (d - 1) & 1 == 1).collect();
        rng.shuffle(&mut digits);
        for v in digits {
            self.values[cell] = v;
            self.toggle(cell, v);
            let r = self.search(depth + 1, rng);
            if r != Some(false) {
                return r;
            }
            self.toggle(cell, v);
            self.values[cell] = 0;
        }
        Some(false)
    }
}

/// A random jigsaw shape of side `n` (`n` 4-connected regions of `n` cells, labelled `0..n` by
/// first appearance, row-major) together with a full grid for it.
///
/// Each layout starts from the standard boxes (the rows when `n` has no box shape) and is mixed by
/// [`mix_regions`] (`4n³` attempts); the full-grid search then gets a small restart budget. Random
/// layouts of side ≤ 12 nearly always get a grid at once. When [`JIGSAW_LAYOUTS`] layouts get none,
/// and always above side [`MIX_MAX_SIDE`] (where the search rarely completes: 16×16 layouts took
/// seconds), [`same_digit_walk`] builds a less mixed layout that has a full grid by construction.
pub fn random_jigsaw(
    n: usize,
    diagonals: bool,
    rng: &mut GenRng,
) -> Result<(Arc<Shape>, Grid), GenerateError> {
    let layouts = if n <= MIX_MAX_SIDE { JIGSAW_LAYOUTS } else { 0 };
    for _ in 0..layouts {
        let mut region = start_regions(n);
        mix_regions(n, &mut region, rng, 4 * n * n * n);
        let shape = Shape::new(n, Regions::Jigsaw(region), diagonals)?;
        if let Some(grid) = try_fill(&shape, rng, JIGSAW_RESTARTS)? {
            return Ok((Arc::new(shape), grid));
        }
    }
    same_digit_walk(n, diagonals, rng)
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
    let mut region = start_regions(n);
    let grid = full_grid(
        &Shape::new(n, Regions::Jigsaw(region.clone()), diagonals)?,
        rng,
    )?;
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
    let shape = Shape::new(n, Regions::Jigsaw(region), diagonals)?;
    verify_full(&shape, &grid)?;
    Ok((Arc::new(shape), grid))
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

    /// xoshiro256++ seeded by SplitMix64 from 0: pins the raw stream every output depends on.
    /// The values were computed independently from the published reference algorithms.
    #[test]
    fn rng_stream_is_pinned() {
        let mut rng = GenRng::seed(0);
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(
            first,
            [
                5987356902031041503,
                7051070477665621255,
                6633766593972829180
            ]
        );
    }

    #[test]
    fn below_stays_in_range_and_hits_every_value() {
        let mut rng = GenRng::seed(3);
        let mut hits = [0usize; 7];
        for _ in 0..7000 {
            hits[rng.below(7)] += 1;
        }
        assert!(hits.iter().all(|&h| (800..1200).contains(&h)), "{hits:?}");
        assert_eq!(rng.below(0), 0);
        assert_eq!(rng.below(1), 0);
    }

    #[test]
    fn shuffle_permutes() {
        let mut rng = GenRng::seed(5);
        let mut v: Vec<u32> = (0..50).collect();
        rng.shuffle(&mut v);
        assert_ne!(v, (0..50).collect::<Vec<_>>());
        v.sort();
        assert_eq!(v, (0..50).collect::<Vec<_>>());
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
        verify_full(&shape, &grid).unwrap();
        let Regions::Jigsaw(map) = shape.regions() else {
            panic!("jigsaw expected")
        };
        assert_ne!(*map, start_regions(9), "the walk moved some cells");
    }

    #[test]
    fn full_grid_of_a_shape_without_one() {
        // Side 2 with diagonals: cell (0,0) must differ from its row, column and diagonal
        // neighbours, three cells, with only two digits.
        let shape = Shape::new(2, Regions::Jigsaw(vec![0, 0, 1, 1]), true).unwrap();
        let err = full_grid(&shape, &mut GenRng::seed(0)).unwrap_err();
        assert!(matches!(err, GenerateError::NoFullGrid { n: 2, .. }));
    }
}
