//! The engine of the `dfs` backend ([`crate::backends::dfs`]): hand-written bitmask depth-first
//! search over any model with side ≤ 64. [`search()`] runs a [`Job`] on a puzzle and gives what it
//! [`Found`]; [`root_candidates`] gives what its propagation leaves at the root.
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
//! growing node limits, each after the first in a random order, because search without learning
//! has heavy tails on large grids (one early wrong choice can cost more than many fresh starts;
//! see `Search::solve_with_restarts` in [`search`](mod@search)). Counting and uniqueness stay
//! one exhaustive run.
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
//! - *Lagrangian bound*: every house other than a row holds each digit once, so a multiplier per
//!   house and digit moves profit between that house's cells without changing any solution's
//!   score; the sum over the rows of each row's best assignment of digits to its cells, within
//!   their candidates and under the moved profits (the Hungarian method), is a bound for any
//!   multipliers, and at the best ones it is the bound of the 0/1 model's linear relaxation.
//!   They are tuned by subgradient descent (Polyak's step) at the root, re-tuned briefly at each
//!   node from its parent's, and each child is bounded with its parent's, solving again only
//!   the rows whose best assignment at the parent its propagation broke. A sparse 9×9 with
//!   random weights (`tests/dfs.rs`) is proved in about 1,200 nodes of branch and bound, where
//!   one multiplier per house on its digit sum took 2.9 M. Tuning costs more than it saves when
//!   the other bounds are tight, so it is only brought in when a first try without it has not
//!   finished within a small node limit.
//!
//! Before any bound, `optimize` enumerates the solutions, up to 64, keeping the best: when the
//! puzzle has fewer, that settles the optimum. Bounds prune little where one or a few grids lie
//! deep in a tree that counting crosses fast (unique jigsaw and X puzzles with random weights:
//! seconds against milliseconds), while a puzzle with many solutions yields 64 of them in a few
//! hundred nodes. On grids of side ≤ 9 without cages or rules the counting kernels enumerate
//! (and so settle "no solution" in microseconds); elsewhere the generic kernel's counting
//! search does, within 200,000 nodes.
//!
//! Optimizing, the search branches on the highest digit still missing in the house where it has
//! the fewest places (or on a cell with two candidates), tries every child on a copy first and
//! explores them by decreasing bound, in passes of falling targets (see
//! `Search::optimize_in_passes`); the bounds are in `search/bounds.rs`. Once the multipliers are
//! tuned, a greedy descent (the best-bound child at each node) gives a first grid, which the
//! passes only seek to beat, and which a time-out reports when they find nothing: on a sparse
//! 16×16 under random weights, 7 % below the bound within 0.5 s, where the best grid met while
//! enumerating is 16 % below it. When the passes have done a set amount of work without ending
//! (counted in the assignment solver's steps and in nodes, so the same on every machine), a
//! large-neighbourhood search improves the best grid for a share of that work, again after each
//! doubling of it: the cells holding a few random digits are freed, the rest kept, and a descent
//! looks for a better grid among them (`Search::improve`). On that 16×16 the grid at a 10 s
//! time-out goes from 7 % to 4 % below the bound; puzzles the passes settle soon never get there.
//!
//! Counting (and so solving and uniqueness) on standard 9×9 grids (3×3 boxes, no extra houses)
//! runs in the band kernel of [`band9`] (band-by-digit words, configuration look-ups, picked per CPU
//! at run time); it also settles "no solution" before `optimize` searches. On other grids of side
//! ≤ 9 counting takes the digit-major fast path in [`board`]: one `u128` of cells per digit, a
//! `Copy` node of ~200 bytes copied on the call stack at each branch, no allocation in the search.
//! Everything else uses one generic kernel (`Search`, in [`search`](mod@search)), instantiated
//! with fixed-capacity node arrays and the narrowest mask type that fits (`u16`/81 cells,
//! `u16`/256, `u32`/1024, `u64`/4096); its node stack is allocated per puzzle and grows with the depth reached. The only
//! `unsafe` is the call into the CPU-specific copy of the band kernel.
//!
//! **Effort** ([`Found::effort`], which the `dfs` backend reports once per call; see
//! [`crate::effort`]):
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
//!   node limit (0 when the first run finished).
//!
//! Optimizing a standard 9×9 grid adds the band kernel's first look (is there a solution at all)
//! to the branch and bound's. The counters are plain integers in the search state, bumped once
//! per node or branch point.

use std::cell::RefCell;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXorAssign, Not};
use std::sync::Arc;

use crate::cancel::Halt;
use crate::effort::Effort;
use crate::model::{Puzzle, Shape, Value};

/// Stack for a thread that runs searches (fuzz workers, `xcheck` and `grade` pools): the
/// kernels recurse once per guess level, and a build with debug assertions can need more than
/// the 2 MiB a spawned thread gets by default on a 9×9 grid (a fuzz worker's stack overflowed
/// there). Address space only: pages are touched as the recursion reaches them.
pub const WORKER_STACK: usize = 64 << 20;

mod band9;
mod board;
mod cages;
mod digit_sets;
mod house_sums;
mod search;
mod variants;

use board::{BoardSearch, BoardTables};
use cages::Cages;
use search::Search;
pub use variants::RuleNarrower;
use variants::Variants;

pub use band9::variant as kernel9_variant;

/// Largest side the bitmask search handles (one bit per digit in a `u64`).
pub const MAX_SIDE: usize = 64;

/// Node limit of the first run of a one-solution search (see [`Search::solve_with_restarts`]).
const RESTART_NODES: u64 = 2_000;

/// How many nodes between two looks at the clock.
const CLOCK_EVERY: u64 = 4096;

/// `optimize` first enumerates the solutions when there are fewer than this many (see the
/// module docs).
const ENUMERATE_SOLUTIONS: u64 = 64;

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

thread_local! {
    /// The tables of the last shape this thread searched, so that a batch of puzzles of one
    /// shape pays for them once per thread, and worker threads share nothing (no lock, no
    /// reference count bouncing between cores).
    static TABLES: RefCell<Option<(Arc<Shape>, Arc<Tables>)>> = const { RefCell::new(None) };
}

/// Why the engine does not take a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DfsError {
    /// The side is over [`MAX_SIDE`].
    #[error("dfs handles sides up to {MAX_SIDE}, this grid has side {side}")]
    Side { side: usize },
    /// A Killer cage has too many combinations (the message names it).
    #[error("{0}")]
    Cages(String),
}

/// The tables of `puzzle`'s shape, from this thread's cache when the shape is the last one it
/// saw.
fn tables(puzzle: &Puzzle) -> Result<Arc<Tables>, DfsError> {
    let n = puzzle.size();
    if n > MAX_SIDE {
        return Err(DfsError::Side { side: n });
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

/// Runs `job` on `puzzle` until `halt`, branching by `branching` on puzzles with Killer cages or
/// variant rules: what the search found, its effort included ([`Found::effort`]).
pub fn search(
    puzzle: &Puzzle,
    branching: DfsBranching,
    job: Job,
    halt: &Halt,
) -> Result<Found, DfsError> {
    let t = tables(puzzle)?;
    let extra = Extra::new(puzzle).map_err(DfsError::Cages)?;
    Ok(run(
        &t,
        puzzle.givens(),
        extra.as_ref(),
        branching,
        job,
        halt,
    ))
}

/// The candidates the engine's own propagation leaves at the root of `puzzle`'s search, before
/// its first branch, in the kernel its count (and solve) uses: [`band9`]'s (hidden singles in
/// every house, box–line interactions, naked singles, the minirow and minicolumn counts) on
/// standard 9×9 grids without cages or rules; elsewhere the generic kernel's (singles, the
/// cages and rules, locked candidates; the fast path of [`board`] reaches the same fixpoint).
/// Per cell (row-major), bit `d − 1` for digit `d`; `Ok(None)` when it meets a contradiction.
pub fn root_candidates(puzzle: &Puzzle) -> Result<Option<Vec<u64>>, DfsError> {
    let t = tables(puzzle)?;
    let extra = Extra::new(puzzle).map_err(DfsError::Cages)?;
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
pub enum Job<'w> {
    /// Count solutions up to `limit`, keeping the first two.
    Count { limit: u64 },
    /// Maximize `Σ weight × digit`; `enumerate`: first try enumerating every solution (see the
    /// module docs), which [`run`] turns off once a counting kernel has found too many.
    Optimize { weights: &'w [i64], enumerate: bool },
}

/// What the search found.
#[derive(Default)]
pub struct Found {
    pub count: u64,
    /// The first solutions found, digits row-major: two, or as many as the counting kernels were
    /// asked to keep (`optimize` enumerating).
    pub witnesses: Vec<Vec<Value>>,
    /// Optimize: the best score and grid so far.
    pub best: Option<(i64, Vec<Value>)>,
    /// Optimize: an upper bound on the optimum, from the root node.
    pub root_bound: Option<i64>,
    pub timed_out: bool,
    /// Search nodes visited (1 when propagation at the root settles everything).
    pub nodes: u64,
    /// Branch points: nodes where the search picked something with two alternatives or more
    /// (a cell's digits, a house's cells for a digit, a band's configurations of a digit).
    pub guesses: u64,
    /// Runs abandoned at their node limit by [`Search::solve_with_restarts`]; `None` when the
    /// search does not restart.
    pub restarts: Option<u64>,
}

impl Found {
    /// What the search did, as the named counters of [`crate::effort`].
    pub fn effort(&self) -> Effort {
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

/// The best of `grids` under `weights`, as [`Found::best`]; `None` for no grid.
fn best_of(grids: Vec<Vec<Value>>, weights: &[i64]) -> Option<(i64, Vec<Value>)> {
    let score = |g: &[Value]| g.iter().zip(weights).map(|(&v, &w)| w * v as i64).sum();
    grids
        .into_iter()
        .map(|g| (score(&g), g))
        .max_by_key(|(s, _)| *s)
}

/// Runs `job` with the kernel instance fitting the side. Killer cages and variant rules take the
/// generic kernel, which branches by `branching`.
fn run(
    t: &Tables,
    givens: &[Value],
    extra: Option<&Extra>,
    branching: DfsBranching,
    job: Job,
    halt: &Halt,
) -> Found {
    if let Some(e) = extra {
        let r = RESTART_NODES;
        let b = (e, branching);
        return match t.n {
            0..=9 => Search::<u16, 81, 29, 2>::run_with(t, givens, Some(b), job, halt, r),
            10..=16 => Search::<u16, 256, 50, 4>::run_with(t, givens, Some(b), job, halt, r),
            17..=32 => Search::<u32, 1024, 98, 16>::run_with(t, givens, Some(b), job, halt, r),
            _ => Search::<u64, 4096, 194, 64>::run_with(t, givens, Some(b), job, halt, r),
        };
    }
    // The counting kernels of side ≤ 9; `None` elsewhere.
    let counted = |limit: u64, keep: usize| {
        if t.standard9 {
            return Some(band9::count(givens, limit, keep, halt.clone()));
        }
        let b = t.board.as_ref()?;
        Some(BoardSearch::count(
            b,
            givens,
            limit.max(1),
            keep,
            halt.clone(),
        ))
    };
    match job {
        Job::Count { limit } => {
            if let Some(found) = counted(limit, 2) {
                return found;
            }
        }
        Job::Optimize {
            weights,
            enumerate: true,
        } => {
            // The counting kernel enumerates the solutions of a puzzle that has few (and proves
            // "no solution" in microseconds, where branch and bound's nodes carry bounds, not
            // its inferences); with more, branch and bound takes over.
            if let Some(mut first) = counted(ENUMERATE_SOLUTIONS, ENUMERATE_SOLUTIONS as usize) {
                if first.count < ENUMERATE_SOLUTIONS || first.timed_out {
                    first.best = best_of(std::mem::take(&mut first.witnesses), weights);
                    return first;
                }
                let job = Job::Optimize {
                    weights,
                    enumerate: false,
                };
                let mut found = Search::<u16, 81, 29, 2>::run(t, givens, job, halt);
                found.nodes += first.nodes;
                found.guesses += first.guesses;
                if found.best.is_none() && found.timed_out {
                    // Out of time before any grid at the passes' targets: the best counted.
                    found.best = best_of(first.witnesses, weights);
                }
                return found;
            }
        }
        Job::Optimize { .. } => {}
    }
    match t.n {
        0..=9 => Search::<u16, 81, 29, 2>::run(t, givens, job, halt),
        10..=16 => Search::<u16, 256, 50, 4>::run(t, givens, job, halt),
        17..=32 => Search::<u32, 1024, 98, 16>::run(t, givens, job, halt),
        _ => Search::<u64, 4096, 194, 64>::run(t, givens, job, halt),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Shape;

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
        let f = Search::<u16, 81, 29, 2>::run(&t, &p, Job::Count { limit: 2 }, &Halt::default());
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
    fn the_generic_kernel_counts_guesses_and_nodes() {
        // The first puzzle of forum_hardest_1106: one solution, found only by guessing; the
        // generic kernel counts it too, on the grids the other kernels take.
        let hard =
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
        let t = tables(9, false);
        let f = Search::<u16, 81, 29, 2>::run(
            &t,
            &givens(hard),
            Job::Count { limit: 2 },
            &Halt::default(),
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
        let f = Search::<u16, 81, 29, 2>::run(&t, &p, Job::Count { limit: 2 }, &Halt::default());
        assert_eq!((f.count, f.nodes), (1, 1));
    }

    #[test]
    fn restarts_keep_answers_and_proofs() {
        // With a first limit of one node every search restarts many times, in random orders.
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
            &Halt::default(),
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
            &Halt::default(),
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
                &Halt::default(),
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
        let f = Search::<u16, 81, 29, 2>::run(&t, &g, Job::Count { limit: 9 }, &Halt::default());
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
            let generic = Search::<u16, 81, 29, 2>::run(&t, &givens, job(), &Halt::default());
            let board = run(
                &t,
                &givens,
                None,
                DfsBranching::Auto,
                job(),
                &Halt::default(),
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
                &Halt::default()
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
    use crate::model::{Grid, Shape};
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
            let halt = Halt::default();
            let band = band9::count(&givens, 3, 2, Halt::default());
            let board = t.board.as_ref().unwrap();
            let board = BoardSearch::count(board, &givens, 3, 2, Halt::default());
            let generic = Search::<u16, 81, 29, 2>::run(&t, &givens, Job::Count { limit: 3 }, &halt);
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
            // Past two solutions the band kernel counts in its endgame; kept (as `optimize`
            // enumerates), its solutions are distinct, and all of them are those the digit-major
            // kernel finds.
            let band = band9::count(&givens, 60, 60, Halt::default());
            let generic =
                Search::<u16, 81, 29, 2>::run(&t, &givens, Job::Count { limit: 60 }, &halt);
            prop_assert_eq!(band.count, generic.count);
            let board = BoardSearch::count(t.board.as_ref().unwrap(), &givens, 60, 60, halt);
            prop_assert_eq!(band.witnesses.len() as u64, band.count);
            let (mut a, mut b) = (band.witnesses, board.witnesses);
            a.sort();
            b.sort();
            a.dedup();
            prop_assert_eq!(a.len() as u64, band.count);
            if band.count < 60 {
                prop_assert_eq!(a, b); // every solution, found in another order
            }
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
            let f = band9::count(entry.puzzle.givens(), u64::MAX, 2, Halt::default());
            assert_eq!(f.count, count, "line {} ({})", entry.line, band9::variant());
        }
    }
}
