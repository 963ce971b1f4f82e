//! `dfs`: hand-written bitmask depth-first search over any model with side ≤ 64.
//!
//! Bit `d-1` of a `u64` mask stands for digit `d`. For each house we keep the mask of digits already
//! placed; a cell's candidates are the digits no house of it has used. The search fills the empty
//! cell with the fewest candidates first and iterates over candidates by lowest set bit.
//! `optimize` is branch-and-bound: the bound adds, for every empty cell, its weight times its
//! largest candidate (an admissible over-estimate).

use crate::backend::{Backend, BackendError, Count, Limits, Optimum};
use crate::model::{Grid, Puzzle, Value};

/// The bitmask search backend.
pub struct Dfs;

/// Largest side the bitmask search handles (one bit per digit in a `u64`).
pub const MAX_SIDE: usize = 64;

struct Search<'a> {
    puzzle: &'a Puzzle,
    n: usize,
    full: u64,
    values: Vec<Value>,
    used: Vec<u64>,
    empty: Vec<u32>,
    limits: &'a Limits,
    nodes: u64,
    timed_out: bool,
}

impl<'a> Search<'a> {
    /// Places the givens; `None` when two givens clash (no solution).
    fn new(puzzle: &'a Puzzle, limits: &'a Limits) -> Result<Option<Search<'a>>, BackendError> {
        let n = puzzle.size();
        if n > MAX_SIDE {
            return Err(BackendError::Unsupported(format!(
                "dfs handles sides up to {MAX_SIDE}, this grid has side {n}"
            )));
        }
        let shape = puzzle.shape();
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut s = Search {
            puzzle,
            n,
            full,
            values: puzzle.givens().to_vec(),
            used: vec![0; shape.house_count()],
            empty: Vec::new(),
            limits,
            nodes: 0,
            timed_out: false,
        };
        for (cell, &v) in puzzle.givens().iter().enumerate() {
            if v == 0 {
                s.empty.push(cell as u32);
                continue;
            }
            let bit = 1u64 << (v - 1);
            for &h in shape.houses_of(cell) {
                if s.used[h as usize] & bit != 0 {
                    return Ok(None);
                }
                s.used[h as usize] |= bit;
            }
        }
        Ok(Some(s))
    }

    fn candidates(&self, cell: usize) -> u64 {
        let mut u = 0;
        for &h in self.puzzle.shape().houses_of(cell) {
            u |= self.used[h as usize];
        }
        self.full & !u
    }

    fn set(&mut self, cell: usize, v: Value, on: bool) {
        let bit = 1u64 << (v - 1);
        for &h in self.puzzle.shape().houses_of(cell) {
            self.used[h as usize] ^= bit;
        }
        self.values[cell] = if on { v } else { 0 };
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0 && self.limits.expired() {
            self.timed_out = true;
        }
        self.timed_out
    }

    /// Index in `self.empty[depth..]` of the cell with fewest candidates, and its candidates.
    fn pick(&self, depth: usize) -> (usize, u64) {
        let mut best = (depth, u64::MAX, u32::MAX);
        for i in depth..self.empty.len() {
            let c = self.candidates(self.empty[i] as usize);
            let k = c.count_ones();
            if k < best.2 {
                best = (i, c, k);
                if k <= 1 {
                    break;
                }
            }
        }
        (best.0, best.1)
    }

    /// Enumerates solutions; `visit` returns `false` to stop. Returns `false` once stopped.
    fn enumerate(&mut self, depth: usize, visit: &mut dyn FnMut(&[Value]) -> bool) -> bool {
        if self.tick() {
            return false;
        }
        if depth == self.empty.len() {
            return visit(&self.values);
        }
        let (i, mut cands) = self.pick(depth);
        self.empty.swap(depth, i);
        let cell = self.empty[depth] as usize;
        while cands != 0 {
            let v = cands.trailing_zeros() as Value + 1;
            cands &= cands - 1;
            self.set(cell, v, true);
            let go_on = self.enumerate(depth + 1, visit);
            self.set(cell, v, false);
            if !go_on {
                return false;
            }
        }
        true
    }

    /// Branch and bound for the best weighted score; digits tried from the largest down.
    fn maximize(
        &mut self,
        depth: usize,
        w: &[i64],
        score: i64,
        best: &mut Option<(i64, Vec<Value>)>,
    ) {
        if self.tick() {
            return;
        }
        if depth == self.empty.len() {
            if best.as_ref().is_none_or(|(b, _)| score > *b) {
                *best = Some((score, self.values.clone()));
            }
            return;
        }
        if let Some((b, _)) = best {
            let mut bound = 0i64;
            for &c in &self.empty[depth..] {
                let cands = self.candidates(c as usize);
                if cands == 0 {
                    return; // dead end
                }
                let wc = w[c as usize];
                let best_digit = if wc >= 0 {
                    64 - cands.leading_zeros() as i64
                } else {
                    cands.trailing_zeros() as i64 + 1
                };
                bound += wc * best_digit;
            }
            if score + bound <= *b {
                return;
            }
        }
        let (i, mut cands) = self.pick(depth);
        self.empty.swap(depth, i);
        let cell = self.empty[depth] as usize;
        while cands != 0 {
            let v = 63 - cands.leading_zeros() as Value + 1;
            cands &= !(1u64 << (v - 1));
            self.set(cell, v, true);
            self.maximize(depth + 1, w, score + w[cell] * v as i64, best);
            self.set(cell, v, false);
        }
    }
}

impl Backend for Dfs {
    fn name(&self) -> &'static str {
        "dfs"
    }

    fn solve(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Option<Grid>, BackendError> {
        let c = self.count(puzzle, 1, limits)?;
        Ok(c.witnesses.into_iter().next())
    }

    fn count(&self, puzzle: &Puzzle, limit: u64, limits: &Limits) -> Result<Count, BackendError> {
        let Some(mut s) = Search::new(puzzle, limits)? else {
            return Ok(Count {
                count: 0,
                complete: true,
                witnesses: vec![],
            });
        };
        let n = s.n;
        let mut count = 0u64;
        let mut witnesses = Vec::new();
        s.enumerate(0, &mut |vals| {
            count += 1;
            if witnesses.len() < 2 {
                witnesses.push(Grid::new(n, vals.to_vec()));
            }
            count < limit
        });
        if s.timed_out {
            return Err(BackendError::TimedOut);
        }
        Ok(Count {
            count,
            complete: count < limit,
            witnesses,
        })
    }

    fn optimize(&self, puzzle: &Puzzle, limits: &Limits) -> Result<Optimum, BackendError> {
        let weights = puzzle
            .weights()
            .ok_or_else(|| BackendError::Unsupported("optimize needs weights".into()))?;
        let Some(mut s) = Search::new(puzzle, limits)? else {
            return Ok(Optimum::NoSolution);
        };
        let w = weights.as_slice();
        let base: i64 = puzzle
            .givens()
            .iter()
            .zip(w)
            .map(|(&v, &w)| w * v as i64)
            .sum();
        let mut best = None;
        s.maximize(0, w, base, &mut best);
        let n = s.n;
        Ok(match (best, s.timed_out) {
            (None, false) => Optimum::NoSolution,
            (None, true) => return Err(BackendError::TimedOut),
            (Some((score, v)), false) => Optimum::Optimal {
                score,
                grid: Grid::new(n, v),
            },
            (Some((score, v)), true) => Optimum::Incomplete {
                score,
                grid: Grid::new(n, v),
                bound: None,
            },
        })
    }
}
