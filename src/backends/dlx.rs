//! `dlx`: Sudoku as exact cover, solved by the generic dancing-links engine in
//! [`crate::exact_cover`].
//!
//! Rows are the `(cell, digit)` placements consistent with the givens (a digit already given in
//! one of the cell's houses is skipped). Primary columns are one per empty cell ("filled once") and
//! one per `(house, digit)` not yet given ("placed once in the house"), for every house of the
//! shape: rows, columns, boxes or jigsaw regions, diagonals. Givens are not rows at all, and the
//! columns they cover are left out, so a 17-clue 9×9 matrix has only the open part of the grid.
//!
//! `optimize` enumerates solutions with branch and bound: rows are added in decreasing score
//! (`weight × digit`) order, so the first row left in a cell's column is that cell's best
//! remaining placement, and a subtree is pruned when the score so far plus the best remaining
//! placement of every open cell (an admissible upper bound) cannot beat the best grid found.
//!
//! Memory is `O(n³)` rows of `1 + houses` nodes each; the matrix size is computed exactly before
//! anything large is allocated, and puzzles over [`DlxOptions::memory_budget`] are refused.

use crate::backend::{Backend, BackendError, Count, Limits, Optimum};
use crate::exact_cover::{ExactCover, ExactCoverError, Interrupted, View};
use crate::model::{Grid, Puzzle, Value};

/// Default memory budget for one exact-cover matrix: 1 GiB.
pub const DEFAULT_MEMORY_BUDGET: usize = 1 << 30;

/// Options of the `dlx` backend.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DlxOptions {
    /// Largest matrix (in bytes, nodes and bookkeeping) the backend will build; larger puzzles are
    /// refused with [`BackendError::Unsupported`].
    pub memory_budget: usize,
}

impl Default for DlxOptions {
    fn default() -> Self {
        DlxOptions {
            memory_budget: DEFAULT_MEMORY_BUDGET,
        }
    }
}

/// The dancing-links backend.
#[derive(Debug, Clone, Default)]
pub struct Dlx {
    options: DlxOptions,
}

impl Dlx {
    pub fn new(options: DlxOptions) -> Dlx {
        Dlx { options }
    }
}

/// A puzzle as an exact-cover matrix: row `r` places digit `rows[r].1` in cell `rows[r].0`.
struct Instance {
    matrix: ExactCover,
    rows: Vec<(u32, Value)>,
    /// The column of each empty cell (`u32::MAX` for givens).
    cell_col: Vec<u32>,
}

impl Instance {
    fn grid(&self, puzzle: &Puzzle, solution: &[usize]) -> Grid {
        let mut cells = puzzle.givens().to_vec();
        for &r in solution {
            let (cell, digit) = self.rows[r];
            cells[cell as usize] = digit;
        }
        Grid::new(puzzle.size(), cells)
    }
}

/// Candidate digits of every cell as bitsets over `1..=n`, from the digits given in each house.
struct Candidates<'p> {
    puzzle: &'p Puzzle,
    words: usize,
    /// `used[h * words..][..words]`: digits given in house `h` (bit `d - 1`).
    used: Vec<u64>,
    scratch: Vec<u64>,
}

impl<'p> Candidates<'p> {
    /// `None` when two givens clash.
    fn new(puzzle: &'p Puzzle) -> Option<Candidates<'p>> {
        let shape = puzzle.shape();
        let words = puzzle.size().div_ceil(64);
        let mut used = vec![0u64; shape.house_count() * words];
        for (cell, &v) in puzzle.givens().iter().enumerate() {
            if v == 0 {
                continue;
            }
            let (w, bit) = ((v as usize - 1) / 64, 1u64 << ((v - 1) % 64));
            for &h in shape.houses_of(cell) {
                let word = &mut used[h as usize * words + w];
                if *word & bit != 0 {
                    return None;
                }
                *word |= bit;
            }
        }
        Some(Candidates {
            puzzle,
            words,
            used,
            scratch: vec![0; words],
        })
    }

    fn given_in(&self, house: usize, digit: usize) -> bool {
        self.used[house * self.words + (digit - 1) / 64] & (1u64 << ((digit - 1) % 64)) != 0
    }

    /// Calls `f(digit)` for every candidate of the empty cell `cell`, in increasing order.
    fn for_each(&mut self, cell: usize, mut f: impl FnMut(Value)) {
        let n = self.puzzle.size();
        let words = self.words;
        self.scratch.iter_mut().for_each(|w| *w = 0);
        for &h in self.puzzle.shape().houses_of(cell) {
            let u = &self.used[h as usize * words..][..words];
            for (s, &u) in self.scratch.iter_mut().zip(u) {
                *s |= u;
            }
        }
        for (w, &u) in self.scratch.iter().enumerate() {
            let mut free = !u;
            if w == words - 1 && !n.is_multiple_of(64) {
                free &= (1u64 << (n % 64)) - 1;
            }
            while free != 0 {
                f((w * 64 + free.trailing_zeros() as usize + 1) as Value);
                free &= free - 1;
            }
        }
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
    givens: &'a [Value],
    cell_col: &'a [u32],
    /// For the first `3n` houses, their cells by decreasing weight, `n` per house.
    by_weight: Vec<u32>,
    /// Scratch: the current grid and each open cell's best remaining placement score.
    value: Vec<Value>,
    cell_max: Vec<i64>,
    present: Vec<bool>,
}

impl<'a> ScoreBound<'a> {
    fn new(puzzle: &'a Puzzle, weights: &'a [i64], cell_col: &'a [u32]) -> ScoreBound<'a> {
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
            givens: puzzle.givens(),
            cell_col,
            by_weight,
            value: vec![0; n * n],
            cell_max: vec![0; n * n],
            present: vec![false; n + 1],
        }
    }

    /// The bound on the score of the non-given cells under the partial solution in `view`, or
    /// `None` when an open cell has no placement left (a dead end).
    fn eval(&mut self, view: &View<'_>, rows: &[(u32, Value)], row_score: &[i64]) -> Option<i64> {
        let n = self.n;
        self.value.copy_from_slice(self.givens);
        let mut placed = 0i64;
        for r in view.chosen_rows() {
            let (cell, d) = rows[r];
            self.value[cell as usize] = d;
            placed += row_score[r];
        }
        for cell in 0..n * n {
            if self.value[cell] == 0 {
                let first = view.rows_in(self.cell_col[cell] as usize).next()?;
                self.cell_max[cell] = row_score[first];
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

fn matrix_error(e: ExactCoverError) -> BackendError {
    BackendError::Failed(format!("dlx: building the exact-cover matrix: {e}"))
}

impl Dlx {
    /// Builds the matrix of `puzzle` (`None` when givens clash). With `scores`, rows are added in
    /// decreasing `scores(cell, digit)` order.
    fn build(
        &self,
        puzzle: &Puzzle,
        scores: Option<&dyn Fn(usize, Value) -> i64>,
    ) -> Result<Option<Instance>, BackendError> {
        let Some(mut cands) = Candidates::new(puzzle) else {
            return Ok(None);
        };
        let shape = puzzle.shape();
        let n = puzzle.size();
        let givens = puzzle.givens();
        const NONE: u32 = u32::MAX;

        // Columns: empty cells first, then the (house, digit) pairs not given. With scores, the
        // cells that can score most come first, so they win ties when choosing a column.
        let mut open: Vec<usize> = (0..givens.len()).filter(|&c| givens[c] == 0).collect();
        if let Some(score) = scores {
            let top = n as Value;
            open.sort_by_key(|&c| std::cmp::Reverse(score(c, 1).max(score(c, top))));
        }
        let mut cell_col = vec![NONE; givens.len()];
        let mut columns = 0usize;
        for &cell in &open {
            cell_col[cell] = columns as u32;
            columns += 1;
        }
        let mut house_digit_col = vec![NONE; shape.house_count() * n];
        for h in 0..shape.house_count() {
            for d in 1..=n {
                if !cands.given_in(h, d) {
                    house_digit_col[h * n + d - 1] = columns as u32;
                    columns += 1;
                }
            }
        }

        // Exact size first, so an oversized matrix is refused before it is allocated.
        let (mut rows, mut entries) = (0usize, 0usize);
        for cell in (0..givens.len()).filter(|&c| givens[c] == 0) {
            let per_row = 1 + shape.houses_of(cell).len();
            cands.for_each(cell, |_| {
                rows += 1;
                entries += per_row;
            });
        }
        let bytes = ExactCover::bytes_needed(columns, rows, entries)
            .saturating_add(rows.saturating_mul(std::mem::size_of::<(u32, Value)>()));
        if bytes > self.options.memory_budget {
            return Err(BackendError::Unsupported(format!(
                "dlx: the exact-cover matrix of this {n}×{n} puzzle ({rows} rows, {entries} nodes) \
                 needs about {} MiB, over the {} MiB memory budget",
                bytes >> 20,
                self.options.memory_budget >> 20
            )));
        }

        let mut placements = Vec::with_capacity(rows);
        for cell in (0..givens.len()).filter(|&c| givens[c] == 0) {
            cands.for_each(cell, |d| placements.push((cell as u32, d)));
        }
        if let Some(score) = scores {
            placements.sort_by_key(|&(cell, d)| std::cmp::Reverse(score(cell as usize, d)));
        }
        let mut matrix = ExactCover::default();
        matrix
            .reset(columns, 0, rows, entries)
            .map_err(matrix_error)?;
        let mut row = Vec::with_capacity(8);
        for &(cell, d) in &placements {
            row.clear();
            row.push(cell_col[cell as usize] as usize);
            row.extend(
                shape
                    .houses_of(cell as usize)
                    .iter()
                    .map(|&h| house_digit_col[h as usize * n + d as usize - 1] as usize),
            );
            matrix.add_row(&row).map_err(matrix_error)?;
        }
        Ok(Some(Instance {
            matrix,
            rows: placements,
            cell_col,
        }))
    }
}

impl Backend for Dlx {
    fn name(&self) -> &'static str {
        "dlx"
    }

    fn solve(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Option<Grid>, BackendError> {
        let c = self.count(puzzle, 1, limits)?;
        Ok(c.witnesses.into_iter().next())
    }

    fn count(&self, puzzle: &Puzzle, limit: u64, limits: &Limits) -> Result<Count, BackendError> {
        let Some(mut inst) = self.build(puzzle, None)? else {
            return Ok(Count {
                count: 0,
                complete: true,
                witnesses: vec![],
            });
        };
        let mut count = 0u64;
        let mut found: Vec<Vec<usize>> = Vec::new();
        let mut search = inst.matrix.search().with_deadline(limits.deadline);
        while count < limit {
            match search.next_solution() {
                Ok(Some(solution)) => {
                    count += 1;
                    if found.len() < 2 {
                        found.push(solution.to_vec());
                    }
                }
                Ok(None) => break,
                Err(Interrupted) => return Err(BackendError::TimedOut),
            }
        }
        drop(search);
        Ok(Count {
            count,
            complete: count < limit,
            witnesses: found.iter().map(|s| inst.grid(puzzle, s)).collect(),
        })
    }

    fn optimize(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Optimum, BackendError> {
        let w = puzzle
            .weights()
            .ok_or_else(|| BackendError::Unsupported("optimize needs weights".into()))?
            .as_slice();
        let score = |cell: usize, d: Value| w[cell] * d as i64;
        let Some(mut inst) = self.build(puzzle, Some(&score))? else {
            return Ok(Optimum::NoSolution);
        };
        let base: i64 = puzzle
            .givens()
            .iter()
            .enumerate()
            .map(|(cell, &v)| score(cell, v))
            .sum();
        let row_score: Vec<i64> = inst
            .rows
            .iter()
            .map(|&(c, d)| score(c as usize, d))
            .collect();
        let mut bound = ScoreBound::new(puzzle, w, &inst.cell_col);
        let mut best: Option<(i64, Vec<usize>)> = None;
        let mut root_bound: Option<i64> = None;
        let mut timed_out = false;
        {
            let mut search = inst.matrix.search().with_deadline(limits.deadline);
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
        }
        Ok(match (best, timed_out) {
            (None, false) => Optimum::NoSolution,
            (None, true) => return Err(BackendError::TimedOut),
            (Some((score, s)), false) => Optimum::Optimal {
                score,
                grid: inst.grid(puzzle, &s),
            },
            (Some((score, s)), true) => Optimum::Incomplete {
                score,
                grid: inst.grid(puzzle, &s),
                bound: root_bound,
            },
        })
    }
}
