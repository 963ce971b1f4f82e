//! Sudoku as exact cover, solved by the generic dancing-links engine of [`crate::exact_cover`]:
//! the engine of the `dlx` backend ([`crate::backends::dlx`]). [`SudokuCover`] counts, solves
//! and optimizes a [`Puzzle`] and says what its search did ([`Effort`]).
//!
//! Before the matrix is built, a *singles pass* ([`crate::propagate`], shared with `sat` and
//! `ilp`): naked and hidden singles and locked candidates, until nothing changes. A
//! contradiction found there (a cell or a house digit with no place left) means no solution
//! without any search. The givens and the placed singles together are the *fixed* cells;
//! solutions are reported as full grids including them, and `optimize` scores them as part of
//! its base.
//!
//! Rows are the `(cell, digit)` placements still possible: one per remaining candidate of each
//! open cell. Primary columns are one per open cell ("filled once") and one per `(house, digit)`
//! not yet fixed ("placed once in the house"), for every house of the shape: rows, columns, boxes
//! or jigsaw regions, diagonals. Fixed cells are not rows at all, and the columns they cover are
//! left out, so the matrix holds only the open part of the grid (nothing at all for a puzzle the
//! pass solves).
//!
//! Counting stores the first two solutions as witnesses and afterwards only counts, without
//! building solution row lists. Looking for one solution on grids over 9×9, the search restarts
//! ([`SudokuCover::solve_with_restarts`]): runs of growing node limits, each after the first on a
//! matrix built in a new random order, against the heavy tails of search without learning.
//!
//! `optimize` enumerates solutions with branch and bound: rows are added in decreasing score
//! (`weight × digit`) order, so the first row left in a cell's column is that cell's best
//! remaining placement, and a subtree is pruned when the score so far plus the best remaining
//! placement of every open cell (an admissible upper bound) cannot beat the best grid found.
//!
//! **Killer cages**: the open cells of a cage get no rows of their own. Instead the cage gets one
//! row per *placement*: a set of distinct digits reaching the cage's sum (with the digits fixed
//! in it), laid onto its open cells in one of the orders their candidates allow. Such a row
//! covers the column of each of those cells and the `(house, digit)` columns of each, so exact
//! cover keeps both the houses and the cage. Large cages of large grids have too many placements
//! (up to `k!` per digit set for `k` open cells): they count against the memory limit like every
//! row, and are counted before any is listed, so a cage over the memory limit is refused without
//! listing them.
//!
//! **Variant rules** ([`rules`]): extra houses are primary columns like any house; distinct
//! groups and every forbidden digit pair of a two-cell rule (chess exclusions, lines, dots,
//! negative rules, renban, minimum and maximum cells, indexers, entropic, modular and Nabner
//! lines, slow thermometers, clones) are *secondary* columns, covered at most once, so no cover
//! breaks them; parity cells, candidate lists, what the fixed cells forbid and the digits a pair
//! leaves without support at the root ([`Candidates::restrict`]) only remove candidates. A cage
//! placement that covers one of these columns twice breaks its rule by itself and is left out.
//! Sums (arrows, little killers, sandwiches, region sums, zippers, double arrows), quadruples,
//! between and lockout lines, skyscrapers and X-sums are refused by name (why: [`rules`]).
//!
//! **Effort** (added to the caller's [`Effort`], see [`crate::effort`]): `nodes` are the levels
//! the exact-cover search entered, the root included, and `guesses` the levels whose chosen
//! column still had two rows or more (a column with one row is a forced placement, not a
//! guess), summed over every search of the call; `restarts` counts the runs
//! [`SudokuCover::solve_with_restarts`] abandoned. The singles pass before the matrix is no search: a
//! puzzle it solves gives one node and no guess, one it proves unsolvable no node at all.
//!
//! Memory is `O(n³)` rows of `1 + houses` nodes each (plus one per rule column a placement
//! covers); the matrix size is computed exactly before anything large is allocated, and puzzles
//! over [`SudokuCover::memory_limit`] are refused.

use super::{ExactCover, ExactCoverError, Interrupted, View, DEFAULT_MEMORY_LIMIT};
use crate::cancel::Halt;
use crate::effort::Effort;
use crate::model::lower::Rules;
use crate::model::{Grid, Puzzle, Value};
use crate::propagate::{Candidates, Level};
use crate::rng::GenRng;

mod rules;
pub use rules::takes;
use rules::RuleColumns;

/// Node limit of the first run of a one-solution search (see [`SudokuCover::solve_with_restarts`]).
const RESTART_NODES: u64 = 2_000;

/// The effort of a call the singles pass settles as "no solution": no matrix, no search.
const SETTLED_BEFORE_SEARCH: Effort = Effort {
    guesses: Some(0),
    nodes: Some(0),
    decisions: None,
    conflicts: None,
    propagations: None,
    restarts: None,
    lp_iterations: None,
    bb_nodes: None,
};

/// The exact-cover engine for Sudoku-family puzzles, with the largest matrix it may build.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SudokuCover {
    /// Largest matrix (in bytes, nodes and bookkeeping) built; larger puzzles are refused with
    /// [`CoverError::Unsupported`].
    pub memory_limit: usize,
}

impl Default for SudokuCover {
    fn default() -> Self {
        SudokuCover {
            memory_limit: DEFAULT_MEMORY_LIMIT,
        }
    }
}

/// Why the engine gave no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CoverError {
    /// The puzzle is not one the engine takes (a rule, the memory limit), with the reason.
    #[error("{0}")]
    Unsupported(String),
    /// The deadline passed, or the run was cancelled.
    #[error("timed out")]
    TimedOut,
    /// The matrix could not be built.
    #[error("dlx: building the exact-cover matrix: {0}")]
    Matrix(ExactCoverError),
}

/// What a count found: `count` solutions up to the limit (all of them unless `timed_out`), the
/// first two as full grids.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counted {
    pub count: u64,
    pub witnesses: Vec<Grid>,
    /// The deadline or the cancel flag stopped the count.
    pub timed_out: bool,
}

/// What the branch and bound found: the best grid and its score (optimal unless `timed_out`),
/// and the root's upper bound on the optimum.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Best {
    pub best: Option<(i64, Grid)>,
    pub root_bound: Option<i64>,
    /// The deadline or the cancel flag stopped the search.
    pub timed_out: bool,
}

impl SudokuCover {
    /// The solutions of `puzzle`, up to `limit` (≥ 1), until `halt`; the search's effort is
    /// added to `effort`. Looking for one solution on grids over 9×9, the search restarts
    /// ([`SudokuCover::solve_with_restarts`]).
    pub fn count(
        &self,
        puzzle: &Puzzle,
        limit: u64,
        halt: &Halt,
        effort: &mut Effort,
    ) -> Result<Counted, CoverError> {
        // 9×9 searches are short whatever the order: restarts would only repeat work there.
        if limit == 1 && puzzle.size() > 9 {
            let (count, restarts) =
                self.solve_with_restarts(puzzle, halt, RESTART_NODES, effort)?;
            effort.add(&Effort {
                restarts: Some(restarts),
                ..Effort::default()
            });
            return Ok(count);
        }
        let Some(mut inst) = self.build(puzzle, None, None, halt.clone())? else {
            effort.add(&SETTLED_BEFORE_SEARCH);
            return Ok(Counted::default());
        };
        let mut count = 0u64;
        let mut found: Vec<Vec<usize>> = Vec::new();
        let mut search = inst.matrix.search().with_halt(halt.clone());
        // The first two solutions are kept as witnesses; the rest are only counted.
        let mut timed_out = false;
        while count < limit && found.len() < 2 {
            match search.next_solution() {
                Ok(Some(solution)) => {
                    count += 1;
                    found.push(solution.to_vec());
                }
                Ok(None) => break,
                Err(Interrupted) => {
                    timed_out = true;
                    break;
                }
            }
        }
        if count < limit && found.len() == 2 {
            timed_out = search.count_into(limit, &mut count).is_err();
        }
        effort.add(&search.effort());
        drop(search);
        let witnesses = found.iter().map(|s| inst.grid(puzzle.size(), s)).collect();
        Ok(Counted {
            count,
            witnesses,
            timed_out,
        })
    }

    /// The maximum of `Σ weights[cell] × digit` over the solutions of `puzzle`, until `halt`;
    /// the search's effort is added to `effort`.
    pub fn optimize(
        &self,
        puzzle: &Puzzle,
        w: &[i64],
        halt: &Halt,
        effort: &mut Effort,
    ) -> Result<Best, CoverError> {
        let score = |cell: usize, d: Value| w[cell] * d as i64;
        let Some(mut inst) = self.build(puzzle, Some(&score), None, halt.clone())? else {
            effort.add(&SETTLED_BEFORE_SEARCH);
            return Ok(Best::default());
        };
        let base: i64 = inst
            .fixed
            .iter()
            .enumerate()
            .map(|(cell, &v)| score(cell, v))
            .sum();
        let row_score: Vec<i64> = (0..inst.matrix.rows())
            .map(|r| {
                inst.rows
                    .row(r)
                    .iter()
                    .map(|&(c, d)| score(c as usize, d))
                    .sum()
            })
            .collect();
        let mut bound = ScoreBound::new(puzzle, w, &inst.fixed, &inst.cell_col);
        let mut best: Option<(i64, Vec<usize>)> = None;
        let mut root_bound: Option<i64> = None;
        let mut timed_out = false;
        {
            let mut search = inst.matrix.search().with_halt(halt.clone());
            loop {
                let beat = best.as_ref().map(|(s, _)| *s);
                let step = search.next_solution_pruned(|view| {
                    let Some(b) = bound.eval(view, &inst.rows, &row_score) else {
                        return false;
                    };
                    if view.depth() == 0 {
                        root_bound.get_or_insert(base + b);
                    }
                    beat.is_none_or(|best| base + b > best)
                });
                match step {
                    Ok(Some(solution)) => {
                        let s = base + solution.iter().map(|&r| row_score[r]).sum::<i64>();
                        if beat.is_none_or(|b| s > b) {
                            best = Some((s, solution.to_vec()));
                        }
                    }
                    Ok(None) => break,
                    Err(Interrupted) => {
                        timed_out = true;
                        break;
                    }
                }
            }
            effort.add(&search.effort());
        }
        Ok(Best {
            best: best.map(|(score, s)| (score, inst.grid(puzzle.size(), &s))),
            root_bound,
            timed_out,
        })
    }
}

/// A puzzle as an exact-cover matrix: row `r` places the `(cell, digit)` pairs
/// `places[span[r]..span[r + 1]]` (one pair, or a cage's placement).
struct Instance {
    matrix: ExactCover,
    rows: Rows,
    /// The column of each open cell (`u32::MAX` for fixed cells).
    cell_col: Vec<u32>,
    /// The givens and the singles placed before the search (0 for open cells).
    fixed: Vec<Value>,
}

impl Instance {
    fn grid(&self, n: usize, solution: &[usize]) -> Grid {
        let mut cells = self.fixed.clone();
        for &r in solution {
            for &(cell, digit) in self.rows.row(r) {
                cells[cell as usize] = digit;
            }
        }
        Grid::new(n, cells)
    }
}

/// What the rows of an [`Instance`] place.
struct Rows {
    places: Vec<(u32, Value)>,
    span: Vec<u32>,
}

impl Rows {
    /// The `(cell, digit)` pairs of row `r`.
    fn row(&self, r: usize) -> &[(u32, Value)] {
        &self.places[self.span[r] as usize..self.span[r + 1] as usize]
    }
}

/// An admissible upper bound on the score of any completion of a partial grid, for `optimize`.
///
/// For each family of houses that partitions the grid (rows, columns, regions) and each house of
/// it, the open cells can score at most the smaller of (a) the sum of each open cell's best
/// remaining placement and (b) the rearrangement bound: the house's missing digits paired, largest
/// with largest, with its open cells sorted by weight (the best any bijection can do). Summing
/// over the houses of one family bounds the grid; the smallest family total is kept.
struct ScoreBound<'a> {
    n: usize,
    weights: &'a [i64],
    /// Givens and singles placed before the search.
    fixed: &'a [Value],
    cell_col: &'a [u32],
    /// For the first `3n` houses, their cells by decreasing weight, `n` per house.
    by_weight: Vec<u32>,
    /// Scratch: the current grid and each open cell's best remaining placement score.
    value: Vec<Value>,
    cell_max: Vec<i64>,
    present: Vec<bool>,
}

impl<'a> ScoreBound<'a> {
    fn new(
        puzzle: &Puzzle,
        weights: &'a [i64],
        fixed: &'a [Value],
        cell_col: &'a [u32],
    ) -> ScoreBound<'a> {
        let n = puzzle.size();
        let mut by_weight = Vec::with_capacity(3 * n * n);
        for h in 0..3 * n {
            let start = by_weight.len();
            by_weight.extend_from_slice(puzzle.shape().house(h));
            by_weight[start..].sort_by_key(|&c| std::cmp::Reverse(weights[c as usize]));
        }
        ScoreBound {
            n,
            weights,
            fixed,
            cell_col,
            by_weight,
            value: vec![0; n * n],
            cell_max: vec![0; n * n],
            present: vec![false; n + 1],
        }
    }

    /// The bound on the score of the open (non-fixed) cells under the partial solution in `view`, or
    /// `None` when an open cell has no placement left (a dead end).
    fn eval(&mut self, view: &View<'_>, inst: &Rows, row_score: &[i64]) -> Option<i64> {
        let n = self.n;
        self.value.copy_from_slice(self.fixed);
        let mut placed = 0i64;
        for r in view.chosen_rows() {
            for &(cell, d) in inst.row(r) {
                self.value[cell as usize] = d;
            }
            placed += row_score[r];
        }
        for cell in 0..n * n {
            if self.value[cell] == 0 {
                let mut rows = view.rows_in(self.cell_col[cell] as usize).peekable();
                let first = *rows.peek()?;
                self.cell_max[cell] = if inst.row(first).len() == 1 {
                    // Rows are in decreasing score order: the first is the cell's best.
                    row_score[first]
                } else {
                    // Cage placements are ordered by their total: take this cell's own best.
                    rows.filter_map(|r| inst.row(r).iter().find(|&&(c, _)| c as usize == cell))
                        .map(|&(_, d)| self.weights[cell] * d as i64)
                        .max()?
                };
            }
        }
        let mut best = i64::MAX;
        for family in 0..3 {
            let mut total = 0i64;
            for h in family * n..(family + 1) * n {
                let cells = &self.by_weight[h * n..(h + 1) * n];
                self.present.iter_mut().for_each(|p| *p = false);
                let mut cell_max = 0i64;
                for &c in cells {
                    let v = self.value[c as usize];
                    self.present[v as usize] = true;
                    if v == 0 {
                        cell_max += self.cell_max[c as usize];
                    }
                }
                let mut digits = (1..=n).rev().filter(|&d| !self.present[d]);
                let rearranged: i64 = cells
                    .iter()
                    .filter(|&&c| self.value[c as usize] == 0)
                    .zip(&mut digits)
                    .map(|(&c, d)| self.weights[c as usize] * d as i64)
                    .sum();
                total += cell_max.min(rearranged);
            }
            best = best.min(total);
        }
        Some(placed + best)
    }
}

impl SudokuCover {
    /// One solution (and the number of runs abandoned), in runs of growing node limits
    /// (`first_node_limit` plus one node per open cell, then half as much again each time), each run
    /// after the first on a matrix built in a new random order, until one finishes: search
    /// without learning has heavy tails on large grids (`dfs` does the same). The limits grow
    /// without bound, so the last run is complete and "no solution" is a proof.
    pub fn solve_with_restarts(
        &self,
        puzzle: &Puzzle,
        halt: &Halt,
        first_node_limit: u64,
        effort: &mut Effort,
    ) -> Result<(Counted, u64), CoverError> {
        let mut node_limit = 0u64;
        for run in 0u64.. {
            let shuffle = (run > 0).then(|| run.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            let Some(mut inst) = self.build(puzzle, None, shuffle, halt.clone())? else {
                effort.add(&SETTLED_BEFORE_SEARCH);
                return Ok((Counted::default(), run));
            };
            if run == 0 {
                // A search without a wrong turn still enters one node per open cell.
                node_limit = first_node_limit.max(2) + inst.matrix.primary_columns() as u64;
            }
            let (mut nodes, mut cut) = (0u64, false);
            let mut search = inst.matrix.search().with_halt(halt.clone());
            let found = search
                .next_solution_pruned(|_| {
                    nodes += 1;
                    cut |= nodes > node_limit;
                    !cut
                })
                .map(|s| s.map(<[usize]>::to_vec));
            effort.add(&search.effort());
            let Ok(found) = found else {
                return Err(CoverError::TimedOut);
            };
            drop(search);
            if cut && found.is_none() {
                node_limit = node_limit.saturating_add(node_limit / 2);
                continue;
            }
            let count = match found {
                Some(rows) => Counted {
                    count: 1,
                    witnesses: vec![inst.grid(puzzle.size(), &rows)],
                    timed_out: false,
                },
                None => Counted::default(),
            };
            return Ok((count, run));
        }
        unreachable!("the run loop only ends by returning")
    }

    /// Builds the matrix of `puzzle` (`None` when it has no solution: givens clash, the singles
    /// pass found a contradiction, or the fixed cells break a variant rule). With `scores`, rows are added in decreasing
    /// `scores(cell, digit)` order; with `shuffle`, cell columns and rows in a random order from
    /// that seed (ties in the column choice and the row tried first then fall elsewhere). Listing
    /// the cages' placements stops at `halt`.
    fn build(
        &self,
        puzzle: &Puzzle,
        scores: Option<&dyn Fn(usize, Value) -> i64>,
        shuffle: Option<u64>,
        halt: Halt,
    ) -> Result<Option<Instance>, CoverError> {
        if let Some(c) = puzzle
            .constraints()
            .iter()
            .find(|c| !rules::takes(c.kind()))
        {
            return Err(CoverError::Unsupported(format!(
                "dlx: {} constraints",
                c.kind()
            )));
        }
        let mut rng = shuffle.map(GenRng::seed);
        let shape = puzzle.shape();
        let n = puzzle.size();
        let rules = Rules::of(puzzle);
        let mut cands = Candidates::new(puzzle, Level::Locked);
        cands.restrict(&rules);
        if cands.contradiction().is_some() {
            return Ok(None);
        }
        let Some(extra) = RuleColumns::new(&rules, &cands) else {
            return Ok(None);
        };
        let fixed = cands.fixed().to_vec();
        const NONE: u32 = u32::MAX;

        // Columns: open cells first, then the (house, digit) pairs not fixed. With scores, the
        // cells that can score most come first, so they win ties when choosing a column.
        let mut open: Vec<usize> = (0..fixed.len()).filter(|&c| fixed[c] == 0).collect();
        if let Some(rng) = &mut rng {
            rng.shuffle(&mut open);
        }
        if let Some(score) = scores {
            let top = n as Value;
            open.sort_by_key(|&c| std::cmp::Reverse(score(c, 1).max(score(c, top))));
        }
        let mut cell_col = vec![NONE; fixed.len()];
        let mut columns = 0usize;
        for &cell in &open {
            cell_col[cell] = columns as u32;
            columns += 1;
        }
        let mut house_digit_col = vec![NONE; shape.house_count() * n];
        for h in 0..shape.house_count() {
            for d in 1..=n {
                if !cands.placed_in(h, d as Value) {
                    house_digit_col[h * n + d - 1] = columns as u32;
                    columns += 1;
                }
            }
        }
        // The rules' columns follow: their primary ones, then the secondary ones.
        let first_rule_col = columns;
        let primary = columns + extra.primary;
        columns = primary + extra.secondary;
        let row_len = |cell: u32, d: Value| {
            1 + shape.houses_of(cell as usize).len() + extra.of(cell, d).len()
        };

        // The placements of the cages (their cells then get no rows of their own), then the
        // exact size, so an oversized matrix is refused before it is allocated.
        let Some(caged) = cage_placements(puzzle, &cands, self.memory_limit, halt)? else {
            return Ok(None);
        };
        let mut in_cage = vec![false; fixed.len()];
        for p in &caged {
            p.iter().for_each(|&(c, _)| in_cage[c as usize] = true);
        }
        let (mut rows, mut entries) = (caged.len(), 0usize);
        for p in &caged {
            entries += p.iter().map(|&(c, d)| row_len(c, d)).sum::<usize>();
        }
        for &cell in open.iter().filter(|&&c| !in_cage[c]) {
            rows += cands.count(cell) as usize;
            entries += cands
                .digits(cell)
                .map(|d| row_len(cell as u32, d))
                .sum::<usize>();
        }
        let bytes = ExactCover::bytes_needed(columns, rows, entries)
            .saturating_add(rows.saturating_mul(std::mem::size_of::<(u32, Value)>()));
        if bytes > self.memory_limit {
            return Err(CoverError::Unsupported(format!(
                "dlx: the exact-cover matrix of this {n}×{n} puzzle ({rows} rows, {entries} nodes) \
                 needs about {} MiB, over the {} MiB memory limit",
                bytes >> 20,
                self.memory_limit >> 20
            )));
        }

        let mut placements: Vec<Placement> = caged;
        placements.reserve(rows - placements.len());
        for &cell in open.iter().filter(|&&c| !in_cage[c]) {
            placements.extend(cands.digits(cell).map(|d| vec![(cell as u32, d)]));
        }
        if let Some(rng) = &mut rng {
            rng.shuffle(&mut placements);
        }
        if let Some(score) = scores {
            placements.sort_by_key(|p| {
                std::cmp::Reverse(p.iter().map(|&(c, d)| score(c as usize, d)).sum::<i64>())
            });
        }
        let mut matrix = ExactCover::default();
        matrix
            .reset(primary, columns - primary, rows, entries)
            .map_err(CoverError::Matrix)?;
        let mut row = Vec::with_capacity(8);
        let mut span = Vec::with_capacity(rows + 1);
        let mut places = Vec::with_capacity(rows);
        for p in &placements {
            row.clear();
            for &(cell, d) in p {
                row.push(cell_col[cell as usize] as usize);
                row.extend(
                    shape
                        .houses_of(cell as usize)
                        .iter()
                        .map(|&h| house_digit_col[h as usize * n + d as usize - 1] as usize),
                );
                row.extend(
                    extra
                        .of(cell, d)
                        .iter()
                        .map(|&c| first_rule_col + c as usize),
                );
            }
            match matrix.add_row(&row) {
                Ok(_) => {}
                // A cage placement covering a rule's column twice breaks the rule itself.
                Err(ExactCoverError::DuplicateColumn { .. }) if p.len() > 1 => continue,
                Err(e) => return Err(CoverError::Matrix(e)),
            }
            span.push(places.len() as u32);
            places.extend_from_slice(p);
        }
        span.push(places.len() as u32);
        Ok(Some(Instance {
            matrix,
            rows: Rows { places, span },
            cell_col,
            fixed,
        }))
    }
}

type Placement = Vec<(u32, Value)>;

/// Bytes one placement of `cells` takes once built: its own list, its share of the flat list
/// of every row's pairs, and its row of the matrix (a node per cell and per house of the cell).
fn placement_bytes(puzzle: &Puzzle, cells: &[u32]) -> usize {
    let shape = puzzle.shape();
    let entries: usize = cells
        .iter()
        .map(|&c| 1 + shape.houses_of(c as usize).len())
        .sum();
    let pair = std::mem::size_of::<(u32, Value)>();
    std::mem::size_of::<Placement>()
        + 2 * cells.len() * pair
        + (ExactCover::bytes_needed(0, 1, entries) - ExactCover::bytes_needed(0, 0, 0))
}

/// An upper bound on the number of ways to lay the digits of `digits` (as many as the cells)
/// onto `cells` within their candidates: the Brègman–Minc bound on the permanent,
/// `Π (r!)^(1/r)` over the cells, `r` being a cell's candidates among the digits. It is `k!`
/// for `k` cells that all take every digit, and 0 when a cell takes none.
fn layings_bound(cells: &[u32], digits: u64, cands: &Candidates) -> f64 {
    let mut log = 0.0f64;
    for &cell in cells {
        let r = cands
            .digits(cell as usize)
            .filter(|&d| digits >> (d - 1) & 1 != 0)
            .count();
        if r == 0 {
            return 0.0;
        }
        log += (2..=r).map(|j| (j as f64).ln()).sum::<f64>() / r as f64;
    }
    log.exp()
}

/// A count for messages: exact below a billion, then in scientific notation.
fn approx(x: f64) -> String {
    if x < 1e9 {
        format!("{}", x.round() as u64)
    } else {
        format!("{x:.1e}")
    }
}

/// The rows of every Killer cage (see the module docs): for each digit set reaching the sum with
/// the digits fixed in the cage, each way to lay its other digits onto the cage's open cells
/// within their candidates. `None` when a cage has no placement (no solution).
///
/// Nothing large is allocated before it is known to fit in what `memory_limit` bytes leave: a cage's
/// placements are listed straight away when [`layings_bound`] says they fit; otherwise they are
/// first counted, the count stopping as soon as they would not fit (so it takes time in
/// proportion to what fits), and a cage that does not fit is refused with
/// [`CoverError::Unsupported`], its size estimated by the bound. Counting and listing both stop
/// at `halt` ([`CoverError::TimedOut`]).
fn cage_placements(
    puzzle: &Puzzle,
    cands: &Candidates,
    memory_limit: usize,
    halt: Halt,
) -> Result<Option<Vec<Placement>>, CoverError> {
    let n = puzzle.size();
    let fixed = cands.fixed();
    let mut out: Vec<Placement> = vec![];
    // Bytes taken by the placements of the cages before the current one.
    let mut used = 0usize;
    let mut walk = Walk {
        cands,
        halt,
        nodes: 0,
        late: false,
    };
    let most_sets = memory_limit / 64;
    for (k, cage) in puzzle.cages().enumerate() {
        let mut held = 0u64;
        let mut open = vec![];
        for &c in cage.cells() {
            match fixed[c as usize] {
                0 => open.push(c),
                d if held >> (d - 1) & 1 != 0 => return Ok(None),
                d => held |= 1 << (d - 1),
            }
        }
        let sets = cage.combinations(n, most_sets).ok_or_else(|| {
            CoverError::Unsupported(format!(
                "dlx: Killer cage {} ({} cells, sum {}) has more digit sets than the memory \
                 memory limit allows",
                k + 1,
                cage.cells().len(),
                cage.sum()
            ))
        })?;
        if open.is_empty() {
            // A full cage: its digits must be one of the sets.
            if !sets.contains(&held) {
                return Ok(None);
            }
            continue;
        }
        let sets: Vec<u64> = sets
            .into_iter()
            .filter(|&set| set & held == held)
            .map(|set| set & !held)
            .collect();
        // Placements that still fit, and an upper bound on this cage's: when the bound fits
        // (the common case), they are listed straight away; otherwise they are counted first,
        // the count stopping as soon as they pass the room left.
        let per = placement_bytes(puzzle, &open);
        let room = (memory_limit.saturating_sub(used) / per) as u64;
        let bounds: Vec<f64> = sets
            .iter()
            .map(|&digits| layings_bound(&open, digits, cands))
            .collect();
        let bound: f64 = bounds.iter().sum();
        let refuse = |counted: u64| {
            let estimate = bound.max(counted as f64);
            let need = used as f64 + estimate * per as f64;
            let before = if k == 0 {
                ""
            } else {
                " (with the cages before it)"
            };
            CoverError::Unsupported(format!(
                "dlx: Killer cage {} ({} open cells, sum {}) has up to about {} placements \
                 (rows of the exact-cover matrix), which{before} need about {} MiB, over the {} \
                 MiB memory limit",
                k + 1,
                open.len(),
                cage.sum(),
                approx(estimate),
                approx(need / (1u64 << 20) as f64),
                memory_limit >> 20
            ))
        };
        // The bound may round below an exact count: keep a margin.
        let listed: Vec<u64> = if bound * (1.0 + 1e-9) + 1.0 <= room as f64 {
            sets.iter()
                .zip(&bounds)
                .filter(|&(_, &b)| b > 0.0)
                .map(|(&digits, _)| digits)
                .collect()
        } else {
            let mut total = 0u64;
            let mut fitting = Vec::new();
            for (&digits, &b) in sets.iter().zip(&bounds) {
                if b == 0.0 {
                    continue;
                }
                let mut count = 0u64;
                walk.run(&open, digits, &mut |_| {
                    count += 1;
                    total + count <= room
                });
                if walk.late {
                    return Err(CoverError::TimedOut);
                }
                total += count;
                if total > room {
                    return Err(refuse(total));
                }
                if count > 0 {
                    fitting.push(digits);
                }
            }
            out.reserve(total as usize);
            fitting
        };
        let before = out.len();
        for digits in listed {
            // The room is checked again as they are listed.
            walk.run(&open, digits, &mut |p| {
                out.push(p.to_vec());
                ((out.len() - before) as u64) <= room
            });
            if walk.late {
                return Err(CoverError::TimedOut);
            }
            if (out.len() - before) as u64 > room {
                return Err(refuse((out.len() - before) as u64));
            }
        }
        let total = out.len() - before;
        if total == 0 {
            return Ok(None);
        }
        used += total * per;
    }
    Ok(Some(out))
}

/// What [`Walk::run`] calls with each full placement: `false` stops the walk.
type Leaf<'a> = dyn FnMut(&[(u32, Value)]) -> bool + 'a;

/// Lays digit sets onto cells (see [`Walk::run`]), checking the deadline as it goes.
struct Walk<'a> {
    cands: &'a Candidates,
    halt: Halt,
    /// Search nodes so far (the deadline is read every 4096).
    nodes: u64,
    /// The deadline passed: the last run stopped early.
    late: bool,
}

impl Walk<'_> {
    /// Calls `leaf` with every way to give each cell of `cells` a different digit of `digits`
    /// (as many as the cells) among its candidates, until `leaf` returns `false` or the deadline
    /// passes (then `late` is set).
    fn run(&mut self, cells: &[u32], digits: u64, leaf: &mut Leaf<'_>) {
        let mut place = Vec::with_capacity(cells.len());
        self.late = false;
        self.go(cells, digits, &mut place, leaf);
    }

    fn go(
        &mut self,
        cells: &[u32],
        digits: u64,
        place: &mut Placement,
        leaf: &mut Leaf<'_>,
    ) -> bool {
        self.nodes += 1;
        if self.nodes & 4095 == 0 && self.halt.reached() {
            self.late = true;
            return false;
        }
        let Some((&cell, rest)) = cells.split_first() else {
            return leaf(place);
        };
        for d in self.cands.digits(cell as usize) {
            if digits >> (d - 1) & 1 != 0 {
                place.push((cell, d));
                let go_on = self.go(rest, digits & !(1 << (d - 1)), place, leaf);
                place.pop();
                if !go_on {
                    return false;
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod harness {
    //! Counts and optima of the engine against those of the `dfs` engine.
    use super::*;
    use crate::dfs::{self, DfsBranching, Job};

    /// A count, complete when below the limit.
    #[derive(Debug)]
    pub struct Answer {
        pub count: u64,
        pub complete: bool,
        pub witnesses: Vec<Grid>,
    }

    pub fn cover_count(p: &Puzzle, limit: u64) -> Result<Answer, CoverError> {
        let c = SudokuCover::default().count(p, limit, &Halt::default(), &mut Effort::default())?;
        assert!(!c.timed_out);
        Ok(Answer {
            count: c.count,
            complete: c.count < limit,
            witnesses: c.witnesses,
        })
    }

    pub fn dfs_count(p: &Puzzle, limit: u64) -> Result<Answer, dfs::DfsError> {
        let f = dfs::search(
            p,
            DfsBranching::Auto,
            Job::Count { limit },
            &Halt::default(),
        )?;
        Ok(Answer {
            count: f.count,
            complete: f.count < limit,
            witnesses: Vec::new(),
        })
    }

    /// The proved optimum and its grid.
    pub fn optimize(p: &Puzzle) -> (i64, Grid) {
        let w = p.weights().unwrap().as_slice();
        let b = SudokuCover::default()
            .optimize(p, w, &Halt::default(), &mut Effort::default())
            .unwrap();
        assert!(!b.timed_out);
        b.best.unwrap()
    }

    pub fn dfs_optimize(p: &Puzzle) -> i64 {
        let weights = p.weights().unwrap().as_slice();
        let job = Job::Optimize {
            weights,
            enumerate: true,
        };
        let f = dfs::search(p, DfsBranching::Auto, job, &Halt::default()).unwrap();
        assert!(!f.timed_out);
        f.best.unwrap().0
    }
}

#[cfg(test)]
mod tests {
    use super::harness::*;
    use super::*;
    use crate::model::Shape;
    use std::sync::Arc;

    fn puzzle(n: usize, line: &str) -> Puzzle {
        let givens = line
            .bytes()
            .map(|b| if b == b'.' { 0 } else { (b - b'0') as Value })
            .collect();
        Puzzle::new(Arc::new(Shape::standard(n, false).unwrap()), givens).unwrap()
    }

    fn digits(cells: &[Value]) -> String {
        cells.iter().map(|v| v.to_string()).collect()
    }

    const EASY: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    const EASY_SOLUTION: &str =
        "483921657967345821251876493548132976729564138136798245372689514814253769695417382";

    #[test]
    fn singles_alone_solve_an_easy_puzzle_before_the_search() {
        let p = puzzle(9, EASY);
        let m = Candidates::new(&p, Level::Locked);
        assert_eq!(digits(m.fixed()), EASY_SOLUTION);
        assert!((0..81).all(|c| m.count(c) == 0));
        // Nothing is left for the matrix, yet the solution is the full grid.
        let inst = SudokuCover::default()
            .build(&p, None, None, Halt::default())
            .unwrap()
            .unwrap();
        assert_eq!((inst.matrix.rows(), inst.matrix.columns()), (0, 0));
        let c = cover_count(&p, 2).unwrap();
        assert_eq!((c.count, c.complete), (1, true));
        assert_eq!(digits(c.witnesses[0].cells()), EASY_SOLUTION);
    }

    #[test]
    fn singles_pass_keeps_only_open_candidates() {
        // Remove four givens from the easy puzzle: singles no longer finish it (294 solutions).
        // Every solution must keep what the pass fixed, the matrix holds only the open cells'
        // candidates, and the count agrees with `dfs`.
        let mut line: Vec<u8> = EASY.bytes().collect();
        for i in [2, 4, 6, 9] {
            line[i] = b'.';
        }
        let p = puzzle(9, std::str::from_utf8(&line).unwrap());
        let m = Candidates::new(&p, Level::Locked);
        let open = m.fixed().iter().filter(|&&v| v == 0).count();
        assert!(open > 0, "the thinned puzzle needs a search");
        let inst = SudokuCover::default()
            .build(&p, None, None, Halt::default())
            .unwrap()
            .unwrap();
        assert_eq!(
            inst.matrix.rows(),
            (0..81).map(|c| m.count(c) as usize).sum::<usize>()
        );
        let c = cover_count(&p, 1_000_000).unwrap();
        let dfs = dfs_count(&p, 1_000_000);
        assert_eq!((c.count, c.complete), (294, true));
        assert_eq!(c.count, dfs.unwrap().count);
        for w in &c.witnesses {
            // Every witness is a full grid that keeps the givens and the singles.
            assert!(w.cells().iter().all(|&v| v != 0));
            for (cell, &v) in m.fixed().iter().enumerate() {
                if v != 0 {
                    assert_eq!(w.cells()[cell], v);
                }
            }
        }
    }

    #[test]
    fn hidden_single_clash_means_no_solution() {
        // 4×4: row 1 holds 1 and 2 right of the first box, column 1 holds them below it, so box 0
        // needs both 1 and 2 in its one remaining cell (row 0, column 0). The givens do not clash.
        let p = puzzle(4, "......12.1...2..");
        let givens = Candidates::new(&p, Level::Givens);
        assert_eq!(givens.contradiction(), None, "no clash among the givens");
        assert!(Candidates::new(&p, Level::Locked).contradiction().is_some());
        assert!(SudokuCover::default()
            .build(&p, None, None, Halt::default())
            .unwrap()
            .is_none());
        let c = cover_count(&p, 5).unwrap();
        assert_eq!((c.count, c.complete, c.witnesses.len()), (0, true, 0));
    }

    #[test]
    fn restarts_keep_answers_and_proofs() {
        // A first limit of one node (plus the open cells) makes hard searches restart on
        // shuffled matrices; tdoku's test puzzles (counts 0 to 847) must still get a solution
        // exactly when they have one, and the count-0 ones a complete last run.
        let dlx = SudokuCover::default();
        let mut restarts = 0;
        let text = include_str!("../../tests/data/9x9/test_puzzles.counts");
        for entry in crate::format::read_puzzles(text, &Default::default()) {
            let entry = entry.unwrap();
            let count = entry.expected.as_ref().unwrap().count;
            let (c, r) = dlx
                .solve_with_restarts(&entry.puzzle, &Halt::default(), 1, &mut Effort::default())
                .unwrap();
            assert_eq!(c.count, count.min(1), "line {}", entry.line);
            if let Some(g) = c.witnesses.first() {
                crate::check::verify(&entry.puzzle, g).unwrap();
            }
            restarts += r;
        }
        assert!(restarts > 0);
    }

    #[test]
    fn counting_past_the_witnesses() {
        // An empty 4×4 grid: 288 solutions; two witnesses kept, the rest only counted.
        let p = puzzle(4, &".".repeat(16));
        for (limit, count, complete) in [
            (1, 1, false),
            (2, 2, false),
            (3, 3, false),
            (1000, 288, true),
        ] {
            let c = cover_count(&p, limit).unwrap();
            assert_eq!((c.count, c.complete), (count, complete), "limit {limit}");
            assert_eq!(c.witnesses.len(), count.min(2) as usize);
            assert_ne!(c.witnesses.first(), c.witnesses.get(1));
        }
    }
}

#[cfg(test)]
mod locked_tests {
    use super::harness::*;
    use super::*;
    use crate::model::Shape;
    use std::sync::Arc;

    #[test]
    fn locked_candidates_leave_the_rest_of_the_line() {
        // Box 0 is full but for (0,1) and (0,2): digits 1 and 9 must go there, in row 0, so the
        // rest of row 0 loses them. Singles alone would not remove them.
        let mut givens = vec![0 as Value; 81];
        for (cell, v) in [(0, 8), (9, 2), (10, 3), (11, 4), (18, 5), (19, 6), (20, 7)] {
            givens[cell] = v;
        }
        let p = Puzzle::new(Arc::new(Shape::standard(9, false).unwrap()), givens).unwrap();
        let m = Candidates::new(&p, Level::Locked);
        let digits = |cell| m.digits(cell).collect::<Vec<_>>();
        assert_eq!((digits(1), digits(2)), (vec![1, 9], vec![1, 9]));
        for cell in 3..9 {
            assert_eq!(digits(cell), [2, 3, 4, 5, 6, 7], "cell {cell}: 2..=7 only");
        }
        // Below row 0 the columns 3..8 keep 1 and 9.
        assert!(m.has(27 + 3, 1) && m.has(27 + 3, 9));
        let dlx = cover_count(&p, 50).unwrap();
        let dfs = dfs_count(&p, 50);
        assert_eq!((dlx.count, dlx.complete), (50, false));
        assert_eq!(dlx.count, dfs.unwrap().count);
        for w in &dlx.witnesses {
            assert!(matches!(w.cells()[1], 1 | 9) && matches!(w.cells()[2], 1 | 9));
        }
    }
}

#[cfg(test)]
mod wide_tests {
    use super::harness::*;
    use super::*;
    use crate::model::{Regions, Shape};
    use std::sync::Arc;

    #[test]
    fn grids_over_64_get_the_singles_pass_too() {
        // 65×65 with 5×13 boxes (candidate sets of two words): a patterned full grid with its
        // first row and column blanked. Singles fill them in before any matrix is built.
        let (n, r, c) = (65, 5, 13);
        let shape = Shape::new(n, Regions::Boxes { rows: r, cols: c }, false).unwrap();
        let full: Vec<Value> = (0..n * n)
            .map(|cell| {
                let (row, col) = (cell / n, cell % n);
                ((c * (row % r) + row / r + col) % n + 1) as Value
            })
            .collect();
        let mut givens = full.clone();
        for i in 0..n {
            givens[i] = 0;
            givens[i * n] = 0;
        }
        let p = Puzzle::new(Arc::new(shape), givens).unwrap();
        let inst = SudokuCover::default()
            .build(&p, None, None, Halt::default())
            .unwrap()
            .unwrap();
        assert_eq!(inst.fixed, full, "everything fixed by singles");
        assert_eq!((inst.matrix.rows(), inst.matrix.columns()), (0, 0));
        let count = cover_count(&p, 2).unwrap();
        assert_eq!((count.count, count.complete), (1, true));
        assert_eq!(count.witnesses[0].cells(), &full[..]);
    }
}

#[cfg(test)]
mod rule_tests {
    use super::harness::*;
    use super::*;
    use crate::model::{Cage, Constraint, DotRule, Shape, Weights};
    use std::sync::Arc;

    fn empty(n: usize, rules: Vec<Constraint>) -> Puzzle {
        let shape = Arc::new(Shape::standard(n, false).unwrap());
        Puzzle::new(shape, vec![0; n * n])
            .unwrap()
            .with_constraints(rules)
            .unwrap()
    }

    fn counts(p: &Puzzle) -> (u64, u64) {
        let dlx = cover_count(p, 20_000).unwrap();
        let dfs = dfs_count(p, 20_000).unwrap();
        assert_eq!(dlx.complete, dfs.complete);
        for w in &dlx.witnesses {
            crate::check::verify(p, w).unwrap();
        }
        (dlx.count, dfs.count)
    }

    #[test]
    fn pair_rules_are_secondary_columns() {
        // Non-consecutive on an empty 6×6: one secondary column per forbidden digit pair of
        // each orthogonal pair (2 × 5 of them), besides the primary cell and house columns.
        let p = empty(6, vec![Constraint::Negative(DotRule::Difference(1))]);
        let inst = SudokuCover::default()
            .build(&p, None, None, Halt::default())
            .unwrap()
            .unwrap();
        assert_eq!(inst.matrix.primary_columns(), 36 + 3 * 6 * 6);
        assert_eq!(inst.matrix.columns() - 36 - 108, 2 * 6 * 5 * 10);
        let (dlx, dfs) = counts(&p);
        assert_eq!(dlx, dfs);
        let p = empty(6, vec![Constraint::AntiKnight, Constraint::DisjointGroups]);
        let (dlx, dfs) = counts(&p);
        assert_eq!(dlx, dfs);
    }

    #[test]
    fn a_cage_placement_that_breaks_a_rule_is_left_out() {
        // Two orthogonal neighbours caged to 3 hold 1 and 2, which non-consecutive forbids:
        // every placement of the cage covers a pair's column twice, so there is no solution.
        let nc = Constraint::Negative(DotRule::Difference(1));
        let p = empty(
            6,
            vec![Constraint::Cage(Cage::new(vec![0, 1], 3)), nc.clone()],
        );
        assert_eq!(counts(&p), (0, 0));
        // A cage to 4 (1 and 3) keeps its placements.
        let p = empty(6, vec![Constraint::Cage(Cage::new(vec![0, 1], 4)), nc]);
        let (dlx, dfs) = counts(&p);
        assert!(dlx > 0 && dlx == dfs, "{dlx} against {dfs}");
    }

    #[test]
    fn fixed_cells_remove_what_their_rules_forbid() {
        // A given 1 at row 1, column 1 with anti-king: its diagonal neighbour (cell 5) of the
        // same box loses 1 already; non-consecutive takes 2 from its orthogonal neighbours.
        let shape = Arc::new(Shape::standard(4, false).unwrap());
        let mut givens = vec![0; 16];
        givens[0] = 1;
        let p = Puzzle::new(shape, givens)
            .unwrap()
            .with_constraints(vec![Constraint::Negative(DotRule::Difference(1))])
            .unwrap();
        let inst = SudokuCover::default()
            .build(&p, None, None, Halt::default())
            .unwrap()
            .unwrap();
        let digits_of = |cell: u32| -> Vec<Value> {
            (0..inst.matrix.rows())
                .flat_map(|r| inst.rows.row(r).iter().copied())
                .filter(|&(c, _)| c == cell)
                .map(|(_, d)| d)
                .collect()
        };
        assert_eq!(digits_of(1), vec![3, 4]);
        assert_eq!(digits_of(4), vec![3, 4]);
        let (dlx, dfs) = counts(&p);
        assert_eq!(dlx, dfs);
    }

    #[test]
    fn optimize_keeps_the_rules() {
        let p = empty(4, vec![Constraint::AntiKnight])
            .with_weights(Arc::new(Weights::pyramid(4)))
            .unwrap();
        let (dlx, grid) = optimize(&p);
        crate::check::verify(&p, &grid).unwrap();
        let dfs = dfs_optimize(&p);
        assert_eq!(dlx, dfs);
    }

    #[test]
    fn sums_are_refused_by_name() {
        let arrow = Constraint::Arrow(crate::model::Arrow {
            circle: vec![0],
            line: vec![1],
        });
        let p = empty(4, vec![arrow]);
        assert!(!takes(crate::model::ConstraintKind::Arrow));
        match cover_count(&p, 2) {
            Err(CoverError::Unsupported(m)) => assert!(m.contains("arrow"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
}
