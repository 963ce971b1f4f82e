//! `dfs`: hand-written bitmask depth-first search over any model with side ≤ 64.
//!
//! The search knows nothing of rows, boxes or diagonals: it sees only the houses of the [`Shape`]
//! (rows, columns, boxes or jigsaw regions, extra houses), turned once per shape into flat tables
//! ([`Tables`]: the cells of every house, the houses of every cell, the peers of every cell) and
//! cached per thread, so a batch of puzzles of one shape pays for them once per thread.
//!
//! Every node of the search holds, per cell, the mask of digits still possible there. Placing a
//! digit removes it from the cell's peers; a cell left with one digit is placed in turn (*naked
//! single*) and a digit left with one cell in a house is placed there (*hidden single*, found with the
//! "seen once / seen twice" masks of the house), to a fixpoint; at the root also *locked
//! candidates* (a digit whose places in one house all lie in its overlap with another house leaves
//! the rest of the other; [`Tables`] lists the overlapping pairs). Then the search branches on the
//! unsolved cell with the fewest candidates, trying candidates by lowest set bit (highest-value first
//! when optimizing), on a copy of the node, so backtracking is free.
//!
//! With variant rules the branching learns where the puzzle is hard, as dom/wdeg does (Boussemart,
//! Hemery, Lecoutre, Sais, "Boosting systematic search by weighting constraints", ECAI 2004): each
//! cell has a weight, 1 plus its pair partners to start with, raised by one each time it takes part
//! in a failure (a branch on it whose propagation fails, its candidates wiped out, or a house of
//! it left without a place for a digit), and the search branches on the cell with the fewest
//! candidates per unit of weight. The weights outlive backtracking and restarts. On the published
//! puzzles of `tests/data/published/` the uniqueness proof of `crawfish` takes 1,514 guesses with
//! them and 50,125 without (`--dfs-branch dom`), `effluence` 19,242 and 40,250, `sistine-hippos`
//! 62 and 319,585 (docs/benchmarks.md); Killers keep the plain rule, whose scan stops at the
//! first cell of two candidates, unless [`DfsBranching::Wdeg`] is asked for.
//!
//! Looking for one solution (`solve`), the generic kernel *restarts*: runs of geometrically
//! growing node budgets, each after the first in a random order, because search without learning
//! has heavy tails on large grids (one early wrong choice can cost more than many fresh starts;
//! see [`Search::solve_with_restarts`]). Counting and uniqueness stay one exhaustive run.
//!
//! `optimize` is branch-and-bound; the bound on what a node can still reach is the least of three
//! admissible bounds, valid for any weights (negative ones included):
//! - *house bound*: for each family of houses partitioning the grid (rows, columns, regions), the
//!   sum over its houses of the lesser of the rearrangement pairing (cells by weight, missing
//!   digits largest first, candidates ignored) and every empty cell's best candidate; the least
//!   family;
//! - *layer bound*: the score is `Σ_k S_k`, `S_k` the weight of the cells holding a digit `≥ k`, and
//!   each house has exactly `n + 1 − k` of them, so each `S_k` is bounded per family by the
//!   heaviest allowed choice of cells per house;
//! - *Lagrangian bound*: every house sums to `n(n+1)/2`, so multipliers on the columns, regions
//!   and extra houses move weight onto the rows without changing any solution's score; the rows'
//!   rearrangement pairing under the moved weights is a bound for any multipliers. They are tuned
//!   by subgradient descent at the root and re-tuned briefly at each node (the empty 9×9 pyramid:
//!   bound 2909 at the root against the optimum 2906, where the other two give 2967). Tuning
//!   costs more than it saves when the other bounds are tight, so it is only brought in when a
//!   first try without it has not finished within a small node budget.
//!
//! Optimizing, the search branches on the highest digit still missing in the house where it has
//! the fewest places (or on a cell with two candidates), tries every child on a copy first and
//! explores them by decreasing bound, in passes of falling targets (see
//! [`Search::optimize_in_passes`]).
//!
//! Counting (and so solving and uniqueness) on standard 9×9 grids (3×3 boxes, no extra houses)
//! runs in the band kernel of [`band9`] (band-by-digit words, configuration look-ups, picked per CPU
//! at run time); it also settles "no solution" before `optimize` searches. On other grids of side
//! ≤ 9 counting takes the digit-major fast path in [`board`]: one `u128` of cells per digit, a
//! `Copy` node of ~200 bytes copied on the call stack at each branch, no allocation in the search.
//! Everything else uses one generic kernel ([`Search`]), instantiated with fixed-capacity node
//! arrays and the narrowest mask type that fits (`u16`/81 cells, `u16`/256, `u32`/1024,
//! `u64`/4096); its node stack is allocated per puzzle and grows with the depth reached. The only
//! `unsafe` is the call into the CPU-specific copy of the band kernel.
//!
//! **Effort** (reported once per call to the [`Limits`]' meter, see [`crate::effort`]):
//! - `guesses`: branch points, the nodes where the search picked something with two alternatives
//!   or more to branch on (a cell's candidates; optimizing, also a digit's cells in a house; in the
//!   band kernel, a digit's configurations in a band or stack, see [`band9`] for how this matches
//!   tdoku's count), counted once however many alternatives are then tried. A puzzle that
//!   propagation at the root settles has none.
//! - `nodes`: search nodes visited, the root included: in the generic kernel and the
//!   digit-major one, each node searched below (children whose propagation fails at once are
//!   not nodes); in the band kernel, each propagation (to a fixpoint or a contradiction) and
//!   each step of its endgame.
//!   Givens that clash give 0.
//! - `restarts`: one-solution searches of the generic kernel only, the runs abandoned at their
//!   node budget (0 when the first run finished).
//!
//! Optimizing a standard 9×9 grid adds the band kernel's first look (is there a solution at all)
//! to the branch and bound's. The counters are plain integers in the search state, bumped once
//! per node or branch point.

use std::cell::RefCell;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXorAssign, Not};
use std::sync::Arc;

use crate::backend::{Backend, BackendError, Count, Halt, Limits, Optimum};
use crate::effort::Effort;
use crate::model::{ConstraintKind, Grid, Puzzle, Shape, Value};

mod band9;
mod board;
mod cages;
mod digit_sets;
mod house_sums;
mod variants;
use board::{BoardSearch, BoardTables};
use cages::Cages;
use variants::Variants;

pub use band9::variant as kernel9_variant;

/// Largest side the bitmask search handles (one bit per digit in a `u64`).
pub const MAX_SIDE: usize = 64;

/// Node budget of the first run of a one-solution search (see [`Search::solve_with_restarts`]).
const RESTART_NODES: u64 = 2_000;

/// How many nodes between two looks at the clock.
const CLOCK_EVERY: u64 = 4096;

/// How the generic kernel picks the cell it branches on, on puzzles with Killer cages or
/// variant rules (`--dfs-branch`). Puzzles with neither keep their kernel's own rule: the 9×9
/// band kernel branches on a digit's configurations, the others on the fewest candidates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DfsBranching {
    /// dom/wdeg with variant rules, the fewest candidates with Killer cages alone.
    #[default]
    Auto,
    /// The fewest candidates (with pair rules, ties to the cell with the most unsolved pair
    /// partners), with no weights.
    Dom,
    /// The fewest candidates per unit of conflict weight (dom/wdeg), with Killer cages too.
    Wdeg,
}

impl DfsBranching {
    pub const ALL: [DfsBranching; 3] = [DfsBranching::Auto, DfsBranching::Dom, DfsBranching::Wdeg];
    pub fn name(self) -> &'static str {
        match self {
            DfsBranching::Auto => "auto",
            DfsBranching::Dom => "dom",
            DfsBranching::Wdeg => "wdeg",
        }
    }
}

crate::named::from_str_by_name!(DfsBranching, "dfs branching");

/// Options of the `dfs` backend.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DfsOptions {
    /// The branching rule of the generic kernel (`--dfs-branch`).
    pub branching: DfsBranching,
}

/// The bitmask search backend.
#[derive(Default)]
pub struct Dfs {
    options: DfsOptions,
}

thread_local! {
    /// The tables of the last shape this thread searched, so that a batch of puzzles of one
    /// shape pays for them once per thread, and worker threads share nothing (no lock, no
    /// reference count bouncing between cores).
    static TABLES: RefCell<Option<(Arc<Shape>, Arc<Tables>)>> = const { RefCell::new(None) };
}

impl Dfs {
    pub fn new() -> Dfs {
        Dfs::default()
    }

    /// The backend with these options.
    pub fn with_options(options: DfsOptions) -> Dfs {
        Dfs { options }
    }

    /// The tables of `puzzle`'s shape, from this thread's cache when the shape is the last one
    /// it saw.
    fn tables(&self, puzzle: &Puzzle) -> Result<Arc<Tables>, BackendError> {
        let n = puzzle.size();
        if n > MAX_SIDE {
            return Err(BackendError::Unsupported(format!(
                "dfs handles sides up to {MAX_SIDE}, this grid has side {n}"
            )));
        }
        let shape = puzzle.shape_arc();
        Ok(TABLES.with_borrow_mut(|cache| {
            if let Some((s, t)) = cache.as_ref() {
                if Arc::ptr_eq(s, shape) || **s == **shape {
                    return t.clone();
                }
            }
            let t = Arc::new(Tables::new(shape));
            *cache = Some((shape.clone(), t.clone()));
            t
        }))
    }
}

/// A shape turned into flat index tables. Cell indices fit in `u16` (at most 64² = 4096 cells).
struct Tables {
    n: usize,
    cells: usize,
    houses: usize,
    /// `house_cells[h * n..(h + 1) * n]`: the cells of house `h`.
    house_cells: Vec<u16>,
    /// `cell_houses[cell_house_start[c]..cell_house_start[c + 1]]`: the houses of cell `c`.
    cell_house_start: Vec<u32>,
    cell_houses: Vec<u16>,
    /// `peers[peer_start[c]..peer_start[c + 1]]`: every other cell sharing a house with `c`.
    peer_start: Vec<u32>,
    peers: Vec<u16>,
    /// Houses sharing two cells or more (a box and a line): `overlap_cells[overlap_start[i]..]`
    /// holds the shared cells, then the rest of the first house, then the rest of the second;
    /// `overlap_len[i]` the lengths of the first two parts (locked candidates).
    overlap_start: Vec<u32>,
    overlap_len: Vec<(u16, u16)>,
    overlap_cells: Vec<u16>,
    /// The digit-major tables of the fast path, for grids of side ≤ 9.
    board: Option<BoardTables>,
    /// A standard 9×9 grid (3×3 boxes, no extra houses): counting takes [`band9`].
    standard9: bool,
}

impl Tables {
    fn new(shape: &Shape) -> Tables {
        let (n, cells, houses) = (shape.size(), shape.cells(), shape.house_count());
        let house_cells = shape.houses().flatten().map(|&c| c as u16).collect();
        let mut cell_house_start = Vec::with_capacity(cells + 1);
        let mut cell_houses = Vec::new();
        let mut peer_start = Vec::with_capacity(cells + 1);
        let mut peers = Vec::new();
        let mut mark = vec![usize::MAX; cells];
        for c in 0..cells {
            cell_house_start.push(cell_houses.len() as u32);
            peer_start.push(peers.len() as u32);
            mark[c] = c;
            for &h in shape.houses_of(c) {
                cell_houses.push(h as u16);
                for &p in shape.house(h as usize) {
                    if mark[p as usize] != c {
                        mark[p as usize] = c;
                        peers.push(p as u16);
                    }
                }
            }
        }
        cell_house_start.push(cell_houses.len() as u32);
        peer_start.push(peers.len() as u32);
        let (mut overlap_start, mut overlap_len, mut overlap_cells) = (vec![0], Vec::new(), vec![]);
        for a in 0..houses {
            let in_a: Vec<bool> = {
                let mut v = vec![false; cells];
                shape.house(a).iter().for_each(|&c| v[c as usize] = true);
                v
            };
            for b in a + 1..houses {
                let (shared, b_rest): (Vec<u32>, Vec<u32>) =
                    shape.house(b).iter().partition(|&&c| in_a[c as usize]);
                if shared.len() < 2 || b_rest.is_empty() {
                    continue;
                }
                let a_rest = shape.house(a).iter().filter(|c| !shared.contains(c));
                let before = overlap_cells.len();
                overlap_cells.extend(shared.iter().map(|&c| c as u16));
                overlap_cells.extend(a_rest.map(|&c| c as u16));
                let a_len = overlap_cells.len() - before - shared.len();
                overlap_cells.extend(b_rest.iter().map(|&c| c as u16));
                overlap_len.push((shared.len() as u16, a_len as u16));
                overlap_start.push(overlap_cells.len() as u32);
            }
        }
        Tables {
            n,
            cells,
            houses,
            house_cells,
            cell_house_start,
            cell_houses,
            peer_start,
            peers,
            overlap_start,
            overlap_len,
            overlap_cells,
            board: BoardTables::new(shape),
            standard9: Shape::standard(9, false).is_ok_and(|s| s == *shape),
        }
    }
    /// Overlap `i`: (shared cells, rest of the first house, rest of the second).
    #[inline]
    fn overlap(&self, i: usize) -> (&[u16], &[u16], &[u16]) {
        let all =
            &self.overlap_cells[self.overlap_start[i] as usize..self.overlap_start[i + 1] as usize];
        let (k, a) = self.overlap_len[i];
        let (shared, rest) = all.split_at(k as usize);
        let (a_rest, b_rest) = rest.split_at(a as usize);
        (shared, a_rest, b_rest)
    }
    #[inline]
    fn house(&self, h: usize) -> &[u16] {
        &self.house_cells[h * self.n..(h + 1) * self.n]
    }
    #[inline]
    fn houses_of(&self, c: usize) -> &[u16] {
        &self.cell_houses[self.cell_house_start[c] as usize..self.cell_house_start[c + 1] as usize]
    }
    #[inline]
    fn peers_of(&self, c: usize) -> &[u16] {
        &self.peers[self.peer_start[c] as usize..self.peer_start[c + 1] as usize]
    }
}

/// A set of digits: bit `d - 1` stands for digit `d`. Implemented for `u16`, `u32`, `u64`.
trait Mask:
    Copy
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    const ZERO: Self;
    /// Digits `1..=n`.
    fn first(n: usize) -> Self;
    fn ones(self) -> u32;
    /// Index of the lowest / highest set bit (the mask is not empty).
    fn low(self) -> u32;
    fn high(self) -> u32;
    fn bit(i: u32) -> Self;
    /// The lowest set bit alone.
    fn lowbit(self) -> Self;
    /// At most one bit set.
    fn at_most_one(self) -> bool;
    fn to_u64(self) -> u64;
    /// The low bits of `v` (only digits of the side are ever given).
    fn from_u64(v: u64) -> Self;
}

macro_rules! impl_mask {
    ($($t:ty),*) => {$(
        impl Mask for $t {
            const ZERO: Self = 0;
            #[inline]
            fn first(n: usize) -> Self {
                if n >= <$t>::BITS as usize { <$t>::MAX } else { (1 << n) - 1 }
            }
            #[inline]
            fn ones(self) -> u32 { self.count_ones() }
            #[inline]
            fn low(self) -> u32 { self.trailing_zeros() }
            #[inline]
            fn high(self) -> u32 { <$t>::BITS - 1 - self.leading_zeros() }
            #[inline]
            fn bit(i: u32) -> Self { 1 << i }
            #[inline]
            fn lowbit(self) -> Self { self & self.wrapping_neg() }
            #[inline]
            fn at_most_one(self) -> bool { self & self.wrapping_sub(1) == 0 }
            #[inline]
            fn to_u64(self) -> u64 { self as u64 }
            #[inline]
            fn from_u64(v: u64) -> Self { v as $t }
        }
    )*};
}
impl_mask!(u16, u32, u64);

/// What the search is asked for.
enum Job<'w> {
    /// Count solutions up to `limit`, keeping the first two.
    Count { limit: u64 },
    /// Maximize `Σ weight × digit`.
    Optimize { weights: &'w [i64] },
}

/// What the search found.
#[derive(Default)]
struct Found {
    count: u64,
    /// The first two solutions (digits row-major).
    witnesses: Vec<Vec<Value>>,
    /// Optimize: the best score and grid so far.
    best: Option<(i64, Vec<Value>)>,
    /// Optimize: an upper bound on the optimum, from the root node.
    root_bound: Option<i64>,
    timed_out: bool,
    /// Search nodes visited (1 when propagation at the root settles everything).
    nodes: u64,
    /// Branch points: nodes where the search picked something with two alternatives or more
    /// (a cell's digits, a house's cells for a digit, a band's configurations of a digit).
    guesses: u64,
    /// Runs abandoned at their node budget by [`Search::solve_with_restarts`]; `None` when the
    /// search does not restart.
    restarts: Option<u64>,
}

impl Found {
    /// What the search did, as the named counters of [`crate::effort`].
    fn effort(&self) -> Effort {
        Effort {
            guesses: Some(self.guesses),
            nodes: Some(self.nodes),
            restarts: self.restarts,
            ..Effort::default()
        }
    }
}

/// What the generic kernel narrows beyond the houses: Killer cages and variant rules.
struct Extra {
    cages: Option<Cages>,
    variants: Option<Variants>,
}

impl Extra {
    /// The cages and variant rules of `puzzle`; `None` when it has neither, `Err` when a cage
    /// has too many combinations.
    fn new(puzzle: &Puzzle) -> Result<Option<Extra>, String> {
        let cages = Cages::new(puzzle)?;
        let variants = Variants::new(puzzle);
        Ok((cages.is_some() || variants.is_some()).then_some(Extra { cages, variants }))
    }

    /// A propagation of a node begins (see [`Cages::begin`]).
    fn begin(&self) {
        if let Some(c) = &self.cages {
            c.begin();
        }
    }

    /// Narrows `cands` by every cage and rule once: `Some(true)` when a candidate was removed
    /// (cells left with one digit are queued), `None` on a contradiction.
    fn narrow<M: Mask>(&self, cands: &mut [M], queue: &mut Vec<u16>) -> Option<bool> {
        let by_cages = match &self.cages {
            Some(c) => c.narrow(cands, queue)?,
            None => false,
        };
        let by_rules = match &self.variants {
            Some(v) => v.narrow(cands, queue)?,
            None => false,
        };
        Some(by_cages || by_rules)
    }

    /// Adds the sums the cages imply, given the propagated root's `cands` ([`Cages::deepen`]):
    /// `true` when that is new.
    fn deepen<M: Mask>(&self, cands: &[M]) -> bool {
        self.cages.as_ref().is_some_and(|c| c.deepen(cands))
    }

    /// Whether the variant rules have pairs (see [`Extra::degree`]).
    fn has_pairs(&self) -> bool {
        self.variants.as_ref().is_some_and(|v| v.has_pairs())
    }

    /// How many pair partners `cell` has.
    fn partners(&self, cell: usize) -> u32 {
        self.variants.as_ref().map_or(0, |v| v.partners(cell))
    }

    /// How many unsolved pair partners `cell` has.
    fn degree<M: Mask>(&self, cell: usize, cands: &[M]) -> u32 {
        self.variants.as_ref().map_or(0, |v| v.degree(cell, cands))
    }

    /// The dearer variant-rule reasoning ([`Variants::look_ahead`]), for when
    /// [`Extra::narrow`] has nothing left to remove; same answer as it.
    fn look_ahead<M: Mask>(&self, cands: &mut [M], queue: &mut Vec<u16>) -> Option<bool> {
        match &self.variants {
            Some(v) => v.look_ahead(cands, queue),
            _ => Some(false),
        }
    }
}

/// Runs `job` with the kernel instance fitting the side. Killer cages and variant rules take the
/// generic kernel, which branches by `branching`.
fn run(
    t: &Tables,
    givens: &[Value],
    extra: Option<&Extra>,
    branching: DfsBranching,
    job: Job,
    limits: &Limits,
) -> Found {
    if let Some(e) = extra {
        let r = RESTART_NODES;
        let b = (e, branching);
        return match t.n {
            0..=9 => Search::<u16, 81, 29, 2>::run_with(t, givens, Some(b), job, limits, r),
            10..=16 => Search::<u16, 256, 50, 4>::run_with(t, givens, Some(b), job, limits, r),
            17..=32 => Search::<u32, 1024, 98, 16>::run_with(t, givens, Some(b), job, limits, r),
            _ => Search::<u64, 4096, 194, 64>::run_with(t, givens, Some(b), job, limits, r),
        };
    }
    match job {
        Job::Count { limit } if t.standard9 => return band9::count(givens, limit, limits.halt()),
        Job::Count { limit } => {
            if let Some(b) = &t.board {
                return BoardSearch::count(b, givens, limit.max(1), limits.halt());
            }
        }
        Job::Optimize { .. } if t.standard9 => {
            // Branch and bound proves "no solution" slowly (its nodes carry bounds, not the band
            // kernel's inferences): the band kernel settles that first, in microseconds.
            let first = band9::count(givens, 1, limits.halt());
            if first.count == 0 {
                return first;
            }
            let mut found = Search::<u16, 81, 29, 2>::run(t, givens, job, limits);
            found.nodes += first.nodes;
            found.guesses += first.guesses;
            return found;
        }
        Job::Optimize { .. } => {}
    }
    match t.n {
        0..=9 => Search::<u16, 81, 29, 2>::run(t, givens, job, limits),
        10..=16 => Search::<u16, 256, 50, 4>::run(t, givens, job, limits),
        17..=32 => Search::<u32, 1024, 98, 16>::run(t, givens, job, limits),
        _ => Search::<u64, 4096, 194, 64>::run(t, givens, job, limits),
    }
}

// One search node, for a grid of `cells ≤ C` cells and `houses ≤ H` houses:
//
//   cands[c]     digits still possible in cell c      bit d-1 ⇔ digit d      ┌ 9×9: u16, bits 0..=8
//                (one bit once c is solved)                                  └ n ≤ 64: u64, bits 0..n
//   placed[h]    digits already placed in house h     same layout
//   unsolved[w]  bit b of word w ⇔ cell 64·w + b not yet placed (its peers not yet cleared)
//   left         number of unsolved cells
//
// A cell whose mask shrinks to one bit is queued; placing it clears that bit from its peers and
// sets it in `placed` of its houses. A node is copied before each branch but the last.

/// One node of the search (see the layout above).
#[derive(Clone)]
struct Node<M, const C: usize, const H: usize, const W: usize> {
    cands: [M; C],
    placed: [M; H],
    unsolved: [u64; W],
    left: usize,
}

/// Optimize state: weights, per house its cells by decreasing weight, and the best so far.
struct Opt<'w> {
    weights: &'w [i64],
    by_weight: Vec<u16>,
    /// The multipliers of the Lagrangian bound, once chosen at the root.
    lagrange: Option<Lagrange>,
}

/// Scale of the Lagrangian multipliers: they are multiples of `1 / LAGRANGE_SCALE`.
const LAGRANGE_SCALE: i128 = 16;

/// Subgradient steps when re-tuning the multipliers at a node.
const RETUNE_ITERATIONS: usize = 30;

/// Nodes an optimization may visit with the cheap bounds alone before it starts over with the
/// Lagrangian bound (see [`Search::optimize_in_passes`]).
const CHEAP_OPTIMIZE_NODES: u64 = 1_000;

/// Lagrangian bound. Every house holds each digit once, so its digits sum to `T = n(n+1)/2`;
/// for any multipliers `λ_h` on the houses other than rows, every solution's score equals
/// `T·Σλ_h + Σ_c w'_c·v_c` with `w'_c = w_c − Σ_{h ∋ c} λ_h`, and the second sum is at most the
/// rows' rearrangement pairing under `w'`. The multipliers are tuned at the root (subgradient
/// descent), then fixed; the arithmetic is exact (scaled integers).
struct Lagrange {
    /// `T·Σλ_h`, scaled.
    constant: i128,
    /// `w'_c`, scaled.
    weights: Vec<i128>,
    /// The cells of each row by decreasing `w'`.
    rows: Vec<u16>,
    /// The multipliers before rounding (to warm-start a re-tuning).
    lambda: Vec<f64>,
}

struct Search<'a, 'w, M, const C: usize, const H: usize, const W: usize> {
    t: &'a Tables,
    full: M,
    /// `nodes[d]` is the node at depth `d`; grown on demand, never shrunk.
    nodes: Vec<Node<M, C, H, W>>,
    /// Cells whose mask became a single digit, waiting to be placed.
    queue: Vec<u16>,
    visited: u64,
    /// Branch points (see [`Found::guesses`]), over every run and pass.
    guesses: u64,
    halt: Halt,
    /// Optimizing without the Lagrangian bound first: give up (and start over with it) past this
    /// many nodes.
    node_budget: Option<u64>,
    over_budget: bool,
    limit: u64,
    /// Optimizing: only scores above this are sought (see [`Search::optimize_in_passes`]).
    floor: i64,
    opt: Option<Opt<'w>>,
    /// Randomised order (0: the plain deterministic one): a xorshift state that rotates where
    /// [`Search::pick`] starts scanning and which candidate goes first (see
    /// [`Search::solve_with_restarts`]).
    rng: u64,
    /// Node budget of the first run of [`Search::solve_with_restarts`].
    restart_nodes: u64,
    /// Propagation also applies locked candidates: at the root only, where they pay (a 25×25
    /// file from 10 s+ to 10 ms); at every node they cost more than they save.
    locked: bool,
    /// The puzzle's Killer cages and variant rules, narrowed at every node once the singles are
    /// done.
    extra: Option<&'a Extra>,
    /// Each cell's weight for the branching (see the module docs): with variant rules, or any
    /// cages or rules under [`DfsBranching::Wdeg`]; empty otherwise.
    weights: Vec<u32>,
    found: Found,
}

/// Whether the search goes on after a node.
type Go = bool;

impl<'a, 'w, M: Mask, const C: usize, const H: usize, const W: usize> Search<'a, 'w, M, C, H, W> {
    fn run(t: &'a Tables, givens: &[Value], job: Job<'w>, limits: &Limits) -> Found {
        Self::run_with(t, givens, None, job, limits, RESTART_NODES)
    }

    /// [`Search::run`] with Killer cages and variant rules, the branching rule for them, and
    /// the first node budget of [`Search::solve_with_restarts`].
    fn run_with(
        t: &'a Tables,
        givens: &[Value],
        extra: Option<(&'a Extra, DfsBranching)>,
        job: Job<'w>,
        limits: &Limits,
        restart_nodes: u64,
    ) -> Found {
        let mut s = Self::new(t, givens, extra.map(|(e, _)| e));
        match extra.map(|(_, b)| b) {
            Some(DfsBranching::Dom) => s.weights.clear(),
            Some(DfsBranching::Wdeg) if s.weights.is_empty() => {
                s.weights = vec![1; t.cells];
            }
            _ => {}
        }
        s.halt = limits.halt();
        s.restart_nodes = restart_nodes;
        match job {
            Job::Count { limit } => s.limit = limit.max(1),
            Job::Optimize { weights } => {
                let mut by_weight = t.house_cells.clone();
                for h in by_weight.chunks_mut(t.n) {
                    h.sort_by_key(|&c| std::cmp::Reverse(weights[c as usize]));
                }
                s.limit = u64::MAX;
                s.opt = Some(Opt {
                    weights,
                    by_weight,
                    lagrange: None,
                });
            }
        }
        let root_ok = s.propagate_root();
        s.locked = false;
        if root_ok {
            if s.opt.is_some() {
                s.optimize_in_passes();
            } else if s.limit == 1 {
                s.solve_with_restarts();
            } else {
                s.descend(0);
            }
        }
        s.found.nodes = s.visited;
        s.found.guesses = s.guesses;
        s.found
    }

    /// The candidates the search's propagation leaves at the root (singles, the cages and rules,
    /// locked candidates, to a fixpoint), before its first branch: per cell, bit `d − 1` for
    /// digit `d`; `None` on a contradiction.
    fn root(t: &'a Tables, givens: &[Value], extra: Option<&'a Extra>) -> Option<Vec<u64>> {
        let mut s = Self::new(t, givens, extra);
        s.propagate_root().then(|| {
            s.nodes[0].cands[..t.cells]
                .iter()
                .map(|m| m.to_u64())
                .collect()
        })
    }

    /// The search before its root is propagated: the givens queued on the root node, one
    /// solution sought, no deadline.
    fn new(t: &'a Tables, givens: &[Value], extra: Option<&'a Extra>) -> Self {
        debug_assert!(t.cells <= C && t.houses <= H && t.cells.div_ceil(64) <= W);
        let full = M::first(t.n);
        let mut root = Node {
            cands: [full; C],
            placed: [M::ZERO; H],
            unsolved: [0; W],
            left: t.cells,
        };
        for c in 0..t.cells {
            root.unsolved[c / 64] |= 1 << (c % 64);
        }
        let mut queue = Vec::with_capacity(t.cells);
        for (c, &v) in givens.iter().enumerate() {
            if v != 0 {
                root.cands[c] = M::bit(v as u32 - 1);
                queue.push(c as u16);
            }
        }
        Search {
            t,
            full,
            nodes: vec![root],
            queue,
            visited: 0,
            guesses: 0,
            halt: Halt::default(),
            node_budget: None,
            over_budget: false,
            limit: 1,
            floor: i64::MIN,
            opt: None,
            rng: 0,
            restart_nodes: RESTART_NODES,
            locked: true,
            extra,
            weights: match extra {
                Some(e) if e.variants.is_some() => {
                    (0..t.cells).map(|c| 1 + e.partners(c)).collect()
                }
                _ => Vec::new(),
            },
            found: Found::default(),
        }
    }

    /// One solution, searched in runs of growing node budgets ([`RESTART_NODES`], then 1.5 times
    /// the previous one), each but the first in a new random order, until one finishes. Search
    /// without learning has heavy tails on large grids: an early wrong choice can cost more than
    /// many fresh starts. The budgets grow without bound, so a last run is complete and "no
    /// solution" is still a proof; geometric growth keeps what that proof costs within about
    /// three times one complete run (the Luby sequence, tried too, cost up to eight times on
    /// unsolvable 16×16 puzzles).
    fn solve_with_restarts(&mut self) {
        let root = self.nodes[0].clone();
        let mut budget = self.restart_nodes.max(2);
        self.found.restarts = Some(0);
        for run in 1u64.. {
            self.node_budget = Some(self.visited.saturating_add(budget));
            budget = budget.saturating_add(budget / 2);
            self.descend(0);
            if !self.over_budget {
                break;
            }
            self.over_budget = false;
            self.found.restarts = self.found.restarts.map(|r| r + 1);
            self.nodes[0] = root.clone();
            self.rng = 0x9e37_79b9_7f4a_7c15 ^ run.wrapping_mul(0xd1b5_4a32_d192_ed03);
        }
        self.node_budget = None;
    }

    /// Next value of the xorshift state.
    fn random(&mut self) -> u64 {
        let mut x = self.rng;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.rng = x;
        x
    }

    /// Branch and bound in passes of falling ambition. Pass `i` seeks only grids scoring at
    /// least `target = root bound − (2^i − 1)`, pruning every node whose bound is below it:
    /// with a tight bound, a grid at the target is found (and proved optimal) after a small
    /// search, where plain branch and bound wanders among weak grids first. A pass finding
    /// nothing proves the optimum is below its target, which then tightens the reported bound.
    ///
    /// Tuning and re-tuning the Lagrangian multipliers costs more than it saves on puzzles whose
    /// cheap bounds are already tight (the NOIP samples: 10× slower with it), so a first try runs
    /// without it under a budget of [`CHEAP_OPTIMIZE_NODES`] nodes; only past that does the search
    /// start over with the Lagrangian bound.
    fn optimize_in_passes(&mut self) {
        let root = self.nodes[0].clone();
        self.node_budget = Some(self.visited + CHEAP_OPTIMIZE_NODES);
        self.passes(&root);
        self.node_budget = None;
        if !self.over_budget {
            return;
        }
        self.over_budget = false;
        self.found = Found::default();
        let lagrange = self.tune_lagrange(0, None, 200);
        if let Some(o) = self.opt.as_mut() {
            o.lagrange = Some(lagrange);
        }
        self.passes(&root);
    }

    /// The falling-target passes of [`Search::optimize_in_passes`] from the propagated `root`.
    fn passes(&mut self, root: &Node<M, C, H, W>) {
        let root_bound = self.bound(0);
        self.found.root_bound = Some(root_bound);
        let (mut target, mut step) = (root_bound, 1i64);
        loop {
            self.floor = target.saturating_sub(1);
            self.nodes[0] = root.clone();
            self.descend(0);
            let stopped = self.found.timed_out || self.over_budget;
            if self.found.best.is_some() || stopped || target == i64::MIN {
                return;
            }
            self.found.root_bound = Some(self.floor); // no grid reaches `target`
            target = target.saturating_sub(step);
            step = step.saturating_mul(2);
        }
    }

    /// Scores at or below this are not worth finding: the best so far, or the pass floor.
    fn worthless(&self) -> i64 {
        self.found.best.as_ref().map_or(self.floor, |(b, _)| *b)
    }

    /// Propagates the root; when that leaves cells open, adds the sums the Killer cages imply
    /// ([`Cages::deepen`]) and propagates again. `false` on a contradiction.
    fn propagate_root(&mut self) -> bool {
        if !self.propagate(0) {
            return false;
        }
        let root = &self.nodes[0];
        let deeper = root.left > 0 && self.extra.is_some_and(|e| e.deepen(&root.cands[..]));
        !deeper || self.propagate(0)
    }

    /// Places the queued cells and every single they imply, in `nodes[d]`. `false` on a
    /// contradiction (a cell or a house digit with no place left).
    fn propagate(&mut self, d: usize) -> bool {
        let t = self.t;
        let full = self.full;
        let node = &mut self.nodes[d];
        if let Some(extra) = self.extra {
            extra.begin();
        }
        // The variant rules' lookahead runs once per propagation: repeating it to a fixpoint
        // costs more than the nodes it saves.
        let mut looked = false;
        loop {
            while let Some(c) = self.queue.pop() {
                let c = c as usize;
                let (w, b) = (c / 64, 1u64 << (c % 64));
                if node.unsolved[w] & b == 0 {
                    continue;
                }
                node.unsolved[w] ^= b;
                node.left -= 1;
                let digit = node.cands[c];
                for &h in t.houses_of(c) {
                    node.placed[h as usize] |= digit;
                }
                for &p in t.peers_of(c) {
                    let m = node.cands[p as usize];
                    if m & digit != M::ZERO {
                        let m = m & !digit;
                        if m == M::ZERO {
                            if let Some(w) = self.weights.get_mut(p as usize) {
                                *w += 1;
                            }
                            self.queue.clear();
                            return false;
                        }
                        node.cands[p as usize] = m;
                        if m.at_most_one() {
                            self.queue.push(p);
                        }
                    }
                }
            }
            if node.left == 0 {
                // A full grid still has to meet its cages' sums and its rules.
                return match self.extra {
                    Some(extra) => extra.narrow(&mut node.cands, &mut self.queue).is_some(),
                    None => true,
                };
            }
            // Hidden singles: per house, the digits seen in exactly one cell and not yet placed.
            for h in 0..t.houses {
                let cells = t.house(h);
                let (mut once, mut twice) = (M::ZERO, M::ZERO);
                for &c in cells {
                    let m = node.cands[c as usize];
                    twice |= once & m;
                    once |= m;
                }
                if once != full {
                    if !self.weights.is_empty() {
                        for &c in cells {
                            self.weights[c as usize] += 1;
                        }
                    }
                    self.queue.clear();
                    return false;
                }
                let mut hidden = once & !twice & !node.placed[h];
                while hidden != M::ZERO {
                    let digit = hidden.lowbit();
                    hidden ^= digit;
                    // The one cell of the house holding `digit`. None is left when that cell was
                    // just forced to another digit missing here: a contradiction. (A cell found
                    // twice is queued twice; placing skips cells already placed.)
                    let Some(&c) = cells
                        .iter()
                        .find(|&&c| node.cands[c as usize] & digit != M::ZERO)
                    else {
                        self.queue.clear();
                        return false;
                    };
                    node.cands[c as usize] = digit;
                    self.queue.push(c);
                }
            }
            if self.queue.is_empty() {
                if let Some(extra) = self.extra {
                    let narrowed = match extra.narrow(&mut node.cands, &mut self.queue) {
                        Some(false) if !looked => {
                            looked = true;
                            extra.look_ahead(&mut node.cands, &mut self.queue)
                        }
                        other => other,
                    };
                    match narrowed {
                        None => {
                            self.queue.clear();
                            return false;
                        }
                        Some(true) => continue,
                        Some(false) => {}
                    }
                }
                if !self.locked {
                    return true;
                }
                match Self::locked_candidates(t, node, &mut self.queue) {
                    None => return false,
                    Some(false) => return true,
                    Some(true) => {}
                }
            }
        }
    }

    /// Locked candidates: a digit whose places in one house all lie where it overlaps another
    /// leaves the rest of the other. `Some(true)` when something was removed (cells left with
    /// one digit are queued), `None` on a contradiction.
    fn locked_candidates(
        t: &Tables,
        node: &mut Node<M, C, H, W>,
        queue: &mut Vec<u16>,
    ) -> Option<bool> {
        let or = |cells: &[u16], node: &Node<M, C, H, W>| {
            cells
                .iter()
                .fold(M::ZERO, |m, &c| m | node.cands[c as usize])
        };
        let mut progress = false;
        for i in 0..t.overlap_len.len() {
            let (shared, a_rest, b_rest) = t.overlap(i);
            let (in_shared, in_a, in_b) = (or(shared, node), or(a_rest, node), or(b_rest, node));
            for (locked, rest) in [
                (in_shared & !in_a & in_b, b_rest),
                (in_shared & !in_b & in_a, a_rest),
            ] {
                if locked == M::ZERO {
                    continue;
                }
                for &c in rest {
                    let m = node.cands[c as usize];
                    if m & locked != M::ZERO {
                        let left = m & !locked;
                        if left == M::ZERO {
                            queue.clear();
                            return None;
                        }
                        node.cands[c as usize] = left;
                        progress = true;
                        if left.at_most_one() {
                            queue.push(c);
                        }
                    }
                }
            }
        }
        Some(progress)
    }

    /// The unsolved cell with the fewest candidates, and its candidates; with variant rules,
    /// the fewest per unit of weight (see the module docs).
    fn pick(&self, d: usize) -> (usize, M) {
        let node = &self.nodes[d];
        let weighted = self.opt.is_none() && !self.weights.is_empty();
        // Optimizing, ties go to the heaviest cell: its digit moves the bound most.
        // With pair rules, ties go to the cell with the most unsolved partners: its digit
        // narrows most (and the first cell of two candidates is not taken at once).
        let degree = self.extra.is_some_and(|e| e.has_pairs());
        let weight = |c: usize| match (&self.opt, self.extra) {
            (Some(o), _) => o.weights[c].unsigned_abs(),
            (None, Some(e)) if degree => e.degree(c, &node.cands) as u64,
            _ => 0,
        };
        let mut best = (0, self.full, u32::MAX, 0);
        let words = self.t.cells.div_ceil(64);
        // Randomised runs start the scan at another word, so ties go elsewhere.
        let start = if self.rng == 0 {
            0
        } else {
            (self.rng % words as u64) as usize
        };
        for w in (start..words).chain(0..start) {
            let mut bits = node.unsolved[w];
            while bits != 0 {
                let c = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let m = node.cands[c];
                let k = m.ones();
                if weighted {
                    // k / w < best k / best w, in integers (the first cell always wins).
                    let w = u64::from(self.weights[c]);
                    if best.2 == u32::MAX || u64::from(k) * best.3 < u64::from(best.2) * w {
                        best = (c, m, k, w);
                    }
                    continue;
                }
                if k < best.2 || (k == best.2 && weight(c) > best.3) {
                    best = (c, m, k, weight(c));
                    if k <= 2 && self.opt.is_none() && !degree {
                        return (c, m);
                    }
                }
            }
        }
        (best.0, best.1)
    }

    /// Copies `nodes[from]` into `nodes[from + 1]`, growing the stack when needed.
    fn push_copy(&mut self, from: usize) {
        let (cells, houses, words) = (self.t.cells, self.t.houses, self.t.cells.div_ceil(64));
        if self.nodes.len() == from + 1 {
            let copy = self.nodes[from].clone();
            self.nodes.push(copy);
            return;
        }
        let (a, b) = self.nodes.split_at_mut(from + 1);
        let (src, dst) = (&a[from], &mut b[0]);
        dst.cands[..cells].copy_from_slice(&src.cands[..cells]);
        dst.placed[..houses].copy_from_slice(&src.placed[..houses]);
        dst.unsolved[..words].copy_from_slice(&src.unsolved[..words]);
        dst.left = src.left;
    }

    /// `true` when the deadline has passed (looked at every [`CLOCK_EVERY`] nodes).
    fn out_of_time(&mut self) -> bool {
        self.visited += 1;
        // Optimizing nodes are costly (bounds on every child): look at the clock at each one.
        let look = self.opt.is_some() || self.visited.is_multiple_of(CLOCK_EVERY);
        if look && self.halt.reached() {
            self.found.timed_out = true;
        }
        if self.node_budget.is_some_and(|b| self.visited > b) {
            self.over_budget = true;
        }
        self.found.timed_out || self.over_budget
    }

    /// Searches below the propagated node `nodes[d]`.
    fn descend(&mut self, d: usize) -> Go {
        if self.out_of_time() {
            return false;
        }
        if self.nodes[d].left == 0 {
            return self.leaf(d);
        }
        if self.opt.is_some() {
            let best = self.worthless();
            if self.bound(d) <= best {
                return true;
            }
            // Re-tune the multipliers for this node, starting from the root's: a tighter
            // bound here saves whole subtrees.
            if let Some(root) = self.opt.as_ref().and_then(|o| o.lagrange.as_ref()) {
                let here = self.tune_lagrange(d, Some(&root.lambda), RETUNE_ITERATIONS);
                if self.lagrange_bound_with(d, &here) <= best {
                    return true;
                }
            }
        }
        let (cell, cands) = self.pick(d);
        if self.opt.is_none() {
            self.guesses += u64::from(!cands.at_most_one());
            return self.branch_on_cell(d, cell, cands);
        }
        // Optimizing: every alternative is tried on a copy first, to explore the children by
        // decreasing bound (good grids early, so the bound prunes more) and drop hopeless ones.
        let alternatives: Vec<(usize, M)> = match self.pick_house_digit(d, cands.ones()) {
            Some((h, digit)) if cands.ones() > 2 => self
                .t
                .house(h)
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| self.nodes[d].cands[c] & digit != M::ZERO)
                .map(|c| (c, digit))
                .collect(),
            _ => {
                let mut v = Vec::new();
                let mut m = cands;
                while m != M::ZERO {
                    v.push((cell, m.lowbit()));
                    m ^= m.lowbit();
                }
                v
            }
        };
        let mut children: Vec<(i64, usize, M)> = Vec::with_capacity(alternatives.len());
        for (c, digit) in alternatives {
            self.push_copy(d);
            self.nodes[d + 1].cands[c] = digit;
            self.queue.push(c as u16);
            if self.propagate(d + 1) {
                children.push((self.bound(d + 1), c, digit));
            }
        }
        self.guesses += u64::from(children.len() >= 2);
        children.sort_by_key(|&(b, _, _)| std::cmp::Reverse(b));
        let last = children.len().saturating_sub(1);
        for (i, &(bound, c, digit)) in children.iter().enumerate() {
            if bound <= self.worthless() {
                break;
            }
            if !self.try_place(d, i == last, c, digit) {
                return false;
            }
        }
        true
    }

    /// Branches on the digit of `cell`: each candidate in turn (best first when optimizing).
    fn branch_on_cell(&mut self, d: usize, cell: usize, mut cands: M) -> Go {
        let high_first = self.opt.as_ref().is_some_and(|o| o.weights[cell] >= 0);
        while cands != M::ZERO {
            let digit = if high_first {
                M::bit(cands.high())
            } else if self.rng != 0 {
                let k = (self.random() % u64::from(cands.ones())) as u32;
                let mut m = cands;
                for _ in 0..k {
                    m ^= m.lowbit();
                }
                m.lowbit()
            } else {
                cands.lowbit()
            };
            cands ^= digit;
            if !self.try_place(d, cands == M::ZERO, cell, digit) {
                return false;
            }
        }
        true
    }

    /// Places `digit` in `cell` below node `d` (in `d` itself when `last`, since nothing needs
    /// it afterwards; else in a copy), propagates and searches on.
    fn try_place(&mut self, d: usize, last: bool, cell: usize, digit: M) -> Go {
        let next = if last {
            d
        } else {
            self.push_copy(d);
            d + 1
        };
        self.nodes[next].cands[cell] = digit;
        self.queue.push(cell as u16);
        if !self.propagate(next) {
            if let Some(w) = self.weights.get_mut(cell) {
                *w += 1;
            }
            return true;
        }
        self.descend(next)
    }

    /// Optimizing: the highest digit still missing somewhere, and the house where it has the
    /// fewest places, when that is at most `cell_choices`.
    fn pick_house_digit(&self, d: usize, cell_choices: u32) -> Option<(usize, M)> {
        let (t, node) = (self.t, &self.nodes[d]);
        let missing = (0..t.houses).fold(M::ZERO, |m, h| m | (self.full & !node.placed[h]));
        if missing == M::ZERO {
            return None;
        }
        let digit = M::bit(missing.high());
        let mut best = None;
        let mut fewest = cell_choices + 1;
        for h in 0..t.houses {
            if node.placed[h] & digit != M::ZERO {
                continue;
            }
            let k = t
                .house(h)
                .iter()
                .filter(|&&c| node.cands[c as usize] & digit != M::ZERO)
                .count() as u32;
            if k < fewest {
                fewest = k;
                best = Some((h, digit));
            }
        }
        best
    }

    fn digits(&self, d: usize) -> Vec<Value> {
        self.nodes[d].cands[..self.t.cells]
            .iter()
            .map(|m| m.low() as Value + 1)
            .collect()
    }

    /// A solution at `nodes[d]`.
    fn leaf(&mut self, d: usize) -> Go {
        let Some(opt) = &self.opt else {
            self.found.count += 1;
            if self.found.witnesses.len() < 2 {
                let g = self.digits(d);
                self.found.witnesses.push(g);
            }
            return self.found.count < self.limit;
        };
        let cands = &self.nodes[d].cands[..self.t.cells];
        let score = cands
            .iter()
            .zip(opt.weights)
            .map(|(m, &w)| w * (m.low() as i64 + 1))
            .sum();
        if score > self.worthless() {
            self.found.best = Some((score, self.digits(d)));
        }
        true
    }

    /// An upper bound on the score of any solution below `nodes[d]` (see the module doc): the
    /// lesser of the house bound and the layer bound.
    fn bound(&self, d: usize) -> i64 {
        self.house_bound(d)
            .min(self.layer_bound(d))
            .min(self.lagrange_bound(d))
    }

    /// The Lagrangian bound of `nodes[d]` (see [`Lagrange`]); `i64::MAX` before it is tuned.
    fn lagrange_bound(&self, d: usize) -> i64 {
        match self.opt.as_ref().and_then(|o| o.lagrange.as_ref()) {
            Some(l) => self.lagrange_bound_with(d, l),
            None => i64::MAX,
        }
    }

    fn lagrange_bound_with(&self, d: usize, l: &Lagrange) -> i64 {
        let digits = self.rows_pairing(d, &l.rows);
        let total = l.constant
            + digits
                .iter()
                .zip(&l.weights)
                .map(|(&v, &w)| w * v as i128)
                .sum::<i128>();
        total
            .div_euclid(LAGRANGE_SCALE)
            .clamp(i64::MIN as i128, i64::MAX as i128) as i64
    }

    /// Per cell, its digit when placed, else the digit the rearrangement pairing of its row
    /// gives it: the row's missing digits, largest first, to its empty cells in `rows` order.
    fn rows_pairing(&self, d: usize, rows: &[u16]) -> Vec<Value> {
        let (t, node) = (self.t, &self.nodes[d]);
        let n = t.n;
        let mut v = vec![0; t.cells];
        for r in 0..n {
            let mut missing = self.full & !node.placed[r];
            for &c in &rows[r * n..(r + 1) * n] {
                let c = c as usize;
                let m = node.cands[c];
                if node.unsolved[c / 64] & (1 << (c % 64)) == 0 {
                    v[c] = m.low() as Value + 1;
                } else if missing != M::ZERO {
                    let top = missing.high();
                    missing &= !M::bit(top);
                    v[c] = top as Value + 1;
                }
            }
        }
        v
    }

    /// Chooses the multipliers of the Lagrangian bound at the root by subgradient descent on
    /// the (convex) bound, then rounds them to multiples of `1 / LAGRANGE_SCALE`.
    fn tune_lagrange(&self, d: usize, start: Option<&[f64]>, iterations: usize) -> Lagrange {
        let (t, opt) = (self.t, self.opt.as_ref().expect("optimizing"));
        let n = t.n;
        let total = (n * (n + 1) / 2) as f64;
        let others = n..t.houses; // every house but the rows
        let mut lambda = start.map_or_else(|| vec![0f64; t.houses], <[f64]>::to_vec);
        let modified = |lambda: &[f64]| -> Vec<f64> {
            (0..t.cells)
                .map(|c| {
                    let extra: f64 = t.houses_of(c)[1..]
                        .iter()
                        .map(|&h| lambda[h as usize])
                        .sum();
                    opt.weights[c] as f64 - extra
                })
                .collect()
        };
        let sorted_rows = |w: &[f64]| -> Vec<u16> {
            let mut rows: Vec<u16> = (0..t.cells as u16).collect();
            for row in rows.chunks_mut(n) {
                row.sort_by(|&a, &b| w[b as usize].total_cmp(&w[a as usize]));
            }
            rows
        };
        let spread = opt
            .weights
            .iter()
            .map(|w| w.unsigned_abs())
            .max()
            .unwrap_or(0) as f64;
        let (mut best, mut best_lambda) = (f64::INFINITY, lambda.clone());
        for it in 0..iterations {
            let w = modified(&lambda);
            let v = self.rows_pairing(d, &sorted_rows(&w));
            let bound = total * lambda[others.clone()].iter().sum::<f64>()
                + v.iter().zip(&w).map(|(&v, &w)| v as f64 * w).sum::<f64>();
            if bound < best {
                (best, best_lambda) = (bound, lambda.clone());
            }
            let g: Vec<f64> = others
                .clone()
                .map(|h| {
                    total
                        - t.house(h)
                            .iter()
                            .map(|&c| v[c as usize] as f64)
                            .sum::<f64>()
                })
                .collect();
            let norm = g.iter().map(|x| x * x).sum::<f64>().sqrt();
            if norm == 0.0 {
                break; // the pairing is a solution: the bound is tight
            }
            let step = spread * 0.2 / (1.0 + (it + 200 - iterations) as f64 / 8.0) / norm;
            for (h, gh) in others.clone().zip(&g) {
                lambda[h] -= step * gh;
            }
        }
        let scaled: Vec<i128> = best_lambda
            .iter()
            .map(|&l| (l * LAGRANGE_SCALE as f64).round() as i128)
            .collect();
        let weights: Vec<i128> = (0..t.cells)
            .map(|c| {
                opt.weights[c] as i128 * LAGRANGE_SCALE
                    - t.houses_of(c)[1..]
                        .iter()
                        .map(|&h| scaled[h as usize])
                        .sum::<i128>()
            })
            .collect();
        let mut rows: Vec<u16> = (0..t.cells as u16).collect();
        for row in rows.chunks_mut(n) {
            row.sort_by_key(|&c| std::cmp::Reverse(weights[c as usize]));
        }
        Lagrange {
            constant: (n * (n + 1) / 2) as i128 * scaled[others].iter().sum::<i128>(),
            weights,
            rows,
            lambda: best_lambda,
        }
    }

    /// Layer bound. A grid's score is `Σ_k S_k` over layers `k = 1..=n`, where `S_k` is the
    /// weight of the cells holding a digit `≥ k`, and every house has exactly `n + 1 - k` such
    /// cells. So `S_k` is at most, for each family of houses partitioning the grid, the sum over
    /// its houses of the heaviest choice of `n + 1 - k` cells that may hold a digit `≥ k` and
    /// including every cell that must; the bound adds up the least family per layer.
    /// `i64::MIN` when some house cannot make its layer (no solution below).
    fn layer_bound(&self, d: usize) -> i64 {
        let (Some(opt), t) = (&self.opt, self.t) else {
            return i64::MAX;
        };
        let node = &self.nodes[d];
        let n = t.n;
        let mut total = 0i64;
        for k in 0..n as u32 {
            // Layer k + 1: digits ≥ k + 1, i.e. bits ≥ k.
            let need = n - k as usize;
            let mut least = i64::MAX;
            for family in 0..3 {
                let mut sum = 0i64;
                for h in family * n..(family + 1) * n {
                    let cells = &opt.by_weight[h * n..(h + 1) * n];
                    let forced = cells
                        .iter()
                        .filter(|&&c| node.cands[c as usize].low() >= k)
                        .count();
                    if forced > need {
                        return i64::MIN;
                    }
                    let mut free = need - forced;
                    for &c in cells {
                        let m = node.cands[c as usize];
                        if m.low() >= k {
                            sum += opt.weights[c as usize];
                        } else if free > 0 && m.high() >= k {
                            sum += opt.weights[c as usize];
                            free -= 1;
                        }
                    }
                    if free > 0 {
                        return i64::MIN;
                    }
                }
                least = least.min(sum);
            }
            total += least;
        }
        total
    }

    /// House bound: for each family of houses partitioning the grid, the sum over its houses of
    /// the lesser of the rearrangement pairing and every empty cell's best candidate; the least
    /// family.
    fn house_bound(&self, d: usize) -> i64 {
        let (Some(opt), t) = (&self.opt, self.t) else {
            return i64::MAX;
        };
        let node = &self.nodes[d];
        let n = t.n;
        let solved = |c: usize| node.unsolved[c / 64] & (1 << (c % 64)) == 0;
        let mut least = i64::MAX;
        for family in 0..3 {
            let mut total = 0i64;
            for h in family * n..(family + 1) * n {
                let mut pairing = 0i64;
                let mut own_best = 0i64;
                let mut missing = self.full & !node.placed[h];
                for &c in &opt.by_weight[h * n..(h + 1) * n] {
                    let c = c as usize;
                    let (w, m) = (opt.weights[c], node.cands[c]);
                    if solved(c) {
                        total += w * (m.low() as i64 + 1);
                        continue;
                    }
                    if missing == M::ZERO {
                        continue; // cannot happen: a propagated house has one missing digit per empty cell
                    }
                    let top = missing.high();
                    missing &= !M::bit(top);
                    pairing += w * (top as i64 + 1);
                    let own = if w >= 0 { m.high() } else { m.low() };
                    own_best += w * (own as i64 + 1);
                }
                total += pairing.min(own_best);
            }
            least = least.min(total);
        }
        least
    }
}

impl Dfs {
    fn search(&self, puzzle: &Puzzle, job: Job, limits: &Limits) -> Result<Found, BackendError> {
        let t = self.tables(puzzle)?;
        let extra = Extra::new(puzzle).map_err(BackendError::Unsupported)?;
        let branching = self.options.branching;
        let found = run(&t, puzzle.givens(), extra.as_ref(), branching, job, limits);
        limits.record(&found.effort());
        Ok(found)
    }

    /// The search nodes that counting `puzzle`'s solutions up to `limit` visits (each node is one
    /// propagation to a fixpoint; 1 when the root settles everything), with no deadline. For
    /// measuring the search itself, as `examples/dfs_speed.rs` does.
    pub fn count_nodes(&self, puzzle: &Puzzle, limit: u64) -> Result<u64, BackendError> {
        let job = Job::Count {
            limit: limit.max(1),
        };
        Ok(self.search(puzzle, job, &Limits::none())?.nodes)
    }
}

impl Dfs {
    /// The candidates `dfs`'s own propagation leaves at the root of `puzzle`'s search, before its
    /// first branch, in the kernel its count (and solve) uses: [`band9`]'s (hidden singles in
    /// every house, box–line interactions, naked singles, the minirow and minicolumn counts) on
    /// standard 9×9 grids without cages or rules; elsewhere the generic kernel's (singles, the
    /// cages and rules, locked candidates; the fast path of [`board`] reaches the same fixpoint).
    /// Per cell (row-major), bit `d − 1` for digit `d`; `Ok(None)` when it meets a contradiction.
    pub fn root_candidates(&self, puzzle: &Puzzle) -> Result<Option<Vec<u64>>, BackendError> {
        let t = self.tables(puzzle)?;
        let extra = Extra::new(puzzle).map_err(BackendError::Unsupported)?;
        let givens = puzzle.givens();
        if extra.is_none() && t.standard9 {
            return Ok(band9::root(givens));
        }
        let extra = extra.as_ref();
        Ok(match t.n {
            0..=9 => Search::<u16, 81, 29, 2>::root(&t, givens, extra),
            10..=16 => Search::<u16, 256, 50, 4>::root(&t, givens, extra),
            17..=32 => Search::<u32, 1024, 98, 16>::root(&t, givens, extra),
            _ => Search::<u64, 4096, 194, 64>::root(&t, givens, extra),
        })
    }
}

impl Backend for Dfs {
    /// Every kind: each form of [`crate::model::lower::Rules`] has its narrowing in
    /// [`variants`].
    fn takes(&self, _kind: ConstraintKind) -> bool {
        true
    }

    fn name(&self) -> &'static str {
        "dfs"
    }

    fn solve(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Option<Grid>, BackendError> {
        let c = self.count(puzzle, 1, limits)?;
        Ok(c.witnesses.into_iter().next())
    }

    fn count(&self, puzzle: &Puzzle, limit: u64, limits: &Limits) -> Result<Count, BackendError> {
        let limit = limit.max(1);
        let found = self.search(puzzle, Job::Count { limit }, limits)?;
        let n = puzzle.size();
        let witnesses = found
            .witnesses
            .into_iter()
            .map(|g| Grid::new(n, g))
            .collect();
        Ok(match found.timed_out {
            true if found.count == 0 => return Err(BackendError::TimedOut),
            true => Count::stopped(found.count, witnesses),
            false => Count::finished(found.count, limit, witnesses),
        })
    }

    fn optimize(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Optimum, BackendError> {
        let weights = puzzle
            .weights()
            .ok_or_else(|| BackendError::Unsupported("optimize needs weights".into()))?;
        let job = Job::Optimize {
            weights: weights.as_slice(),
        };
        let found = self.search(puzzle, job, limits)?;
        let n = puzzle.size();
        Ok(match (found.best, found.timed_out) {
            (None, false) => Optimum::NoSolution,
            (None, true) => return Err(BackendError::TimedOut),
            (Some((score, v)), false) => Optimum::Optimal {
                score,
                grid: Grid::new(n, v),
            },
            (Some((score, v)), true) => Optimum::Incomplete {
                score,
                grid: Grid::new(n, v),
                bound: found.root_bound,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables(n: usize, diagonals: bool) -> Tables {
        Tables::new(&Shape::standard(n, diagonals).unwrap())
    }

    #[test]
    fn peers_of_standard_and_x_grids() {
        let t = tables(9, false);
        assert!((0..81).all(|c| t.peers_of(c).len() == 20));
        let x = tables(9, true);
        assert_eq!(x.peers_of(40).len(), 32); // the centre sees both diagonals
        assert_eq!(x.peers_of(0).len(), 26); // a corner sees one
        assert_eq!(x.peers_of(1).len(), 20);
        assert!(!x.peers_of(40).contains(&40));
    }

    #[test]
    fn masks() {
        assert_eq!(u16::first(9), 0x1ff);
        assert_eq!(u64::first(64), u64::MAX);
        assert_eq!(0b1011_0000u16.low(), 4);
        assert_eq!(0b1011_0000u16.high(), 7);
        assert_eq!(0b1011_0000u32.lowbit(), 0b1_0000);
        assert!(0u64.at_most_one() && 8u64.at_most_one() && !9u64.at_most_one());
    }

    fn givens(line: &str) -> Vec<Value> {
        line.bytes()
            .map(|b| if b == b'.' { 0 } else { (b - b'0') as Value })
            .collect()
    }

    #[test]
    fn singles_alone_solve_an_easy_puzzle_at_the_root() {
        // Solved by naked and hidden singles: one node, no branching.
        let t = tables(9, false);
        let p = givens(
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        );
        let f = Search::<u16, 81, 29, 2>::run(&t, &p, Job::Count { limit: 2 }, &Limits::none());
        assert_eq!(f.count, 1);
        assert_eq!(
            f.witnesses[0]
                .iter()
                .map(|v| v.to_string())
                .collect::<String>(),
            "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
        );
    }

    #[test]
    fn effort_counts_branch_points_and_nodes() {
        // The band kernel (9×9), the digit-major one (4×4) and the generic one (16×16, and
        // optimizing).
        crate::effort::contract::counts_branch_points(&Dfs::new());
        let (easy, hard) = (crate::effort::contract::EASY, crate::effort::contract::HARD);
        let e = crate::effort::contract::effort_of(|l| {
            Dfs::new()
                .count(&crate::effort::contract::puzzle(9, easy), 2, l)
                .unwrap();
        });
        assert_eq!(e.restarts, None, "the band kernel never restarts");
        // The generic kernel counts too, on the grids the others take.
        let t = tables(9, false);
        let f = Search::<u16, 81, 29, 2>::run(
            &t,
            &givens(hard),
            Job::Count { limit: 2 },
            &Limits::none(),
        );
        assert!(f.count == 1 && f.guesses > 0 && f.nodes > f.guesses && f.restarts.is_none());
    }

    #[test]
    fn locked_candidates_at_the_root_settle_what_singles_leave_open() {
        // Singles alone leave 50 cells open here; box-line eliminations then solve it, so the
        // generic kernel visits one node and branches nowhere.
        let t = tables(9, false);
        let p = givens(
            ".................1.....2.3...2...4....3.5......41....6.5.6......7.....2..8.91....",
        );
        let f = Search::<u16, 81, 29, 2>::run(&t, &p, Job::Count { limit: 2 }, &Limits::none());
        assert_eq!((f.count, f.nodes), (1, 1));
    }

    #[test]
    fn restarts_keep_answers_and_proofs() {
        // With a first budget of one node every search restarts many times, in random orders.
        // 16×16: the first two rows of a valid grid fixed (many solutions), then the same with
        // a clash planted where only search finds it (no solution).
        let t = tables(16, false);
        let mut g = vec![0; 256];
        for c in 0..16 {
            g[c] = (c + 1) as Value;
            g[16 + c] = ((c + 4) % 16 + 1) as Value;
        }
        let f = Search::<u16, 256, 50, 4>::run_with(
            &t,
            &g,
            None,
            Job::Count { limit: 1 },
            &Limits::none(),
            1,
        );
        assert_eq!(f.count, 1);
        assert!(f.restarts > Some(0) && !f.timed_out);
        let solved: Vec<Value> = f.witnesses[0].clone();
        assert!(solved.iter().zip(&g).all(|(&s, &g)| g == 0 || s == g));
        // No solution, but only search shows it (a count-0 puzzle from tdoku's tests): the
        // last, complete run still proves it.
        let t = tables(9, false);
        let bad = givens(
            "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4.",
        );
        let f = Search::<u16, 81, 29, 2>::run_with(
            &t,
            &bad,
            None,
            Job::Count { limit: 1 },
            &Limits::none(),
            1,
        );
        assert!(f.restarts > Some(0));
        // tdoku's test puzzles (counts 0 to 847): restarting runs find a solution exactly when
        // there is one.
        let mut restarted = 0;
        let text = include_str!("../../tests/data/9x9/test_puzzles.counts");
        for entry in crate::format::read_puzzles(text, &Default::default()) {
            let entry = entry.unwrap();
            let count = entry.expected.as_ref().unwrap().count;
            let f = Search::<u16, 81, 29, 2>::run_with(
                &t,
                entry.puzzle.givens(),
                None,
                Job::Count { limit: 1 },
                &Limits::none(),
                1,
            );
            assert_eq!(f.count, count.min(1), "line {}", entry.line);
            restarted += f.restarts.unwrap_or(0);
        }
        assert!(restarted > 0);
        assert_eq!((f.count, f.timed_out), (0, false));
    }

    #[test]
    fn hidden_single_clash_is_a_contradiction() {
        // 4×4: row 1 holds 1 and 2 right of the first box, column 1 holds them below it, so box 0
        // needs both 1 and 2 in its one remaining cell (row 0, column 0): no solution.
        let t = tables(4, false);
        let mut g = vec![0; 16];
        (g[6], g[7], g[9], g[13]) = (1, 2, 1, 2);
        let f = Search::<u16, 81, 29, 2>::run(&t, &g, Job::Count { limit: 9 }, &Limits::none());
        assert_eq!(f.count, 0);
        assert!(!f.timed_out);
    }

    #[test]
    fn board_and_generic_kernels_agree() {
        for shape in [
            Shape::standard(4, false).unwrap(),
            Shape::standard(4, true).unwrap(),
            Shape::standard(6, false).unwrap(),
        ] {
            let t = Tables::new(&shape);
            // The first row fixed: 12, a few and 39,168 solutions.
            let mut givens = vec![0; shape.cells()];
            for (c, v) in givens.iter_mut().take(shape.size()).enumerate() {
                *v = c as Value + 1;
            }
            let job = || Job::Count { limit: u64::MAX };
            let generic = Search::<u16, 81, 29, 2>::run(&t, &givens, job(), &Limits::none());
            let board = run(
                &t,
                &givens,
                None,
                DfsBranching::Auto,
                job(),
                &Limits::none(),
            );
            assert!(t.board.is_some());
            assert_eq!(generic.count, board.count);
            assert_eq!(generic.witnesses[0], board.witnesses[0]);
        }
        let t = tables(4, false);
        assert_eq!(
            run(
                &t,
                &[0; 16],
                None,
                DfsBranching::Auto,
                Job::Count { limit: 1000 },
                &Limits::none()
            )
            .count,
            288
        );
    }
}

#[cfg(test)]
mod kernel9_tests {
    //! The 9×9 kernel ([`band9`]) against the two general ones, on random puzzles: sparse ones
    //! (many solutions), near-unique ones, and ones with a random digit planted (often no
    //! solution, sometimes a clash of givens).
    use super::*;
    use crate::generate::full_grid;
    use crate::rng::GenRng;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn band_kernel_agrees_with_the_general_kernels(
            seed in any::<u64>(),
            keep in 0.0f64..0.6,
            poke in proptest::option::weighted(0.3, (0..81usize, 1..=9u16)),
        ) {
            let shape = Arc::new(Shape::standard(9, false).unwrap());
            let t = Tables::new(&shape);
            prop_assert!(t.standard9);
            let mut rng = GenRng::seed(seed);
            let full = full_grid(&shape, &mut rng).unwrap();
            let mut givens: Vec<Value> = full
                .cells()
                .iter()
                .map(|&v| if (rng.next_u64() % 1000) as f64 / 1000.0 < keep { v } else { 0 })
                .collect();
            if let Some((c, v)) = poke {
                givens[c] = v;
            }
            let limits = Limits::none();
            let band = band9::count(&givens, 3, Halt::default());
            let board = BoardSearch::count(t.board.as_ref().unwrap(), &givens, 3, Halt::default());
            let generic = Search::<u16, 81, 29, 2>::run(&t, &givens, Job::Count { limit: 3 }, &limits);
            prop_assert_eq!(band.count, board.count);
            prop_assert_eq!(band.count, generic.count);
            prop_assert_eq!(band.witnesses.len() as u64, band.count.min(2));
            let puzzle = Puzzle::new(shape.clone(), givens.clone()).unwrap();
            for w in &band.witnesses {
                let grid = Grid::new(9, w.clone());
                prop_assert!(crate::check::verify(&puzzle, &grid).is_ok(), "{w:?}");
            }
            if band.witnesses.len() == 2 {
                prop_assert_ne!(&band.witnesses[0], &band.witnesses[1]);
            }
            // Past two solutions the band kernel counts in its endgame.
            let band = band9::count(&givens, 60, Halt::default());
            let generic =
                Search::<u16, 81, 29, 2>::run(&t, &givens, Job::Count { limit: 60 }, &limits);
            prop_assert_eq!(band.count, generic.count);
        }
    }

    #[test]
    fn every_build_of_the_band_kernel_counts_tdokus_test_puzzles() {
        // Counts 0 to 847, in full, by whichever build this CPU runs (CI runs the tests again
        // with SUDOKU_LAB_PORTABLE=1 and with SUDOKU_LAB_NO_PEXT=1 for the others).
        let text = include_str!("../../tests/data/9x9/test_puzzles.counts");
        for entry in crate::format::read_puzzles(text, &Default::default()) {
            let entry = entry.unwrap();
            let count = entry.expected.as_ref().unwrap().count;
            let f = band9::count(entry.puzzle.givens(), u64::MAX, Halt::default());
            assert_eq!(f.count, count, "line {} ({})", entry.line, band9::variant());
        }
    }
}
