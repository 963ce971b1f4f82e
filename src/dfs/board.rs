//! The fast path of `dfs` for grids of at most 81 cells (side ≤ 9, any houses): the same search
//! (singles to a fixpoint, plus locked candidates at the root; fewest candidates first, copy on
//! branch), but *digit-major*: one
//! 128-bit board of cells per digit, so placing a digit, finding naked singles and finding
//! bivalue cells are a handful of wide bitwise operations instead of loops over peers.
//!
//! Used for counting (and so solving and uniqueness); `optimize` takes the general kernel.

use super::{Found, CLOCK_EVERY};
use crate::cancel::Halt;
use crate::model::{Shape, Value};

/// Largest side this kernel handles (`n²` cells must fit in a `u128`, `n` boards in a [`Board`]).
pub(super) const MAX_SIDE: usize = 9;

// Bit layout of a board (any grid of n ≤ 9, cells row-major):
//
//   bit:   127 … 81 80 79 … 9 8 … 1 0
//   cell:   (unused) 80 79 … 9 8 … 1 0        cell = row·n + col
//
//   pos[d]  cells where digit d+1 is still possible; a placed cell keeps exactly its own digit
//   open    cells not yet placed (their digit not yet cleared from their peers)
//   todo[d] bit h ⇔ digit d+1 not yet placed in house h (where hidden singles are looked for)
//
// Per-shape tables use the same layout: house[h] = the cells of house h, peers[c] = every other
// cell sharing a house with c. "Seen once / seen twice" masks over the n boards give, for all
// cells at once, those with no candidate (contradiction), one (naked single) or two (branch).

/// House and peer masks of a shape with at most 81 cells.
pub(super) struct BoardTables {
    n: usize,
    all: u128,
    houses: Vec<u128>,
    peers: Vec<u128>,
    /// Per cell, bit `h` for each house `h` holding it (at most 29 houses when n ≤ 9).
    houses_of: Vec<u32>,
    /// For every two houses sharing two cells or more: `[shared, rest of the first, rest of the
    /// second]` (locked candidates).
    overlaps: Vec<[u128; 3]>,
}

impl BoardTables {
    /// `None` when the shape is too large for this kernel.
    pub(super) fn new(shape: &Shape) -> Option<BoardTables> {
        let n = shape.size();
        if n > MAX_SIDE {
            return None;
        }
        // At most 81 cells: the shape keeps each house as a bit set.
        let houses: Vec<u128> = (0..shape.house_count())
            .map(|h| shape.house_bits(h).unwrap_or_default())
            .collect();
        let peers = (0..shape.cells())
            .map(|c| {
                let m = shape
                    .houses_of(c)
                    .iter()
                    .fold(0, |m, &h| m | houses[h as usize]);
                m & !(1u128 << c)
            })
            .collect();
        let houses_of = (0..shape.cells())
            .map(|c| shape.houses_of(c).iter().fold(0, |m, &h| m | 1u32 << h))
            .collect();
        let mut overlaps = Vec::new();
        for (i, &a) in houses.iter().enumerate() {
            for &b in &houses[i + 1..] {
                if (a & b).count_ones() >= 2 && a != b {
                    overlaps.push([a & b, a & !b, b & !a]);
                }
            }
        }
        let all = if n * n == 128 {
            u128::MAX
        } else {
            (1u128 << (n * n)) - 1
        };
        Some(BoardTables {
            n,
            all,
            houses,
            peers,
            houses_of,
            overlaps,
        })
    }
}

/// One search node (see the layout above).
#[derive(Clone, Copy)]
struct Board {
    pos: [u128; MAX_SIDE],
    open: u128,
    todo: [u32; MAX_SIDE],
}

/// Counts solutions of a grid with at most 81 cells, up to `limit`, keeping the first `keep`.
pub(super) struct BoardSearch<'a> {
    t: &'a BoardTables,
    limit: u64,
    keep: usize,
    /// Nodes: calls of [`BoardSearch::descend`], the root included.
    visited: u64,
    /// Branch points: nodes whose picked cell had two candidates or more.
    guesses: u64,
    halt: Halt,
    found: Found,
}

impl<'a> BoardSearch<'a> {
    pub(super) fn count(
        t: &'a BoardTables,
        givens: &[Value],
        limit: u64,
        keep: usize,
        halt: Halt,
    ) -> Found {
        let mut b = Board {
            pos: [0; MAX_SIDE],
            open: t.all,
            todo: [0; MAX_SIDE],
        };
        let every_house = (1u32 << t.houses.len()) - 1;
        for d in 0..t.n {
            b.pos[d] = t.all;
            b.todo[d] = every_house;
        }
        let mut s = BoardSearch {
            t,
            limit,
            keep,
            visited: 0,
            guesses: 0,
            halt,
            found: Found::default(),
        };
        let mut ok = true;
        for (c, &v) in givens.iter().enumerate() {
            if v != 0 {
                let d = v as usize - 1;
                // A given already ruled out by another given: they clash.
                if b.pos[d] & (1u128 << c) == 0 {
                    ok = false;
                    break;
                }
                s.place(&mut b, c, d);
            }
        }
        // Locked candidates pay at the root only: deeper, their cost per node outweighs the nodes
        // they save (measured on 17_clue, magictour_top1465, forum_hardest and serg_benchmark).
        if ok && s.propagate(&mut b, true) {
            s.descend(b);
        }
        s.found.nodes = s.visited;
        s.found.guesses = s.guesses;
        s.found
    }

    /// Places digit `d + 1` in cell `c`: `c` loses every other digit, `c`'s peers lose `d + 1`.
    #[inline]
    fn place(&self, b: &mut Board, c: usize, d: usize) {
        let bit = 1u128 << c;
        for p in &mut b.pos[..self.t.n] {
            *p &= !bit;
        }
        b.pos[d] = (b.pos[d] & !self.t.peers[c]) | bit;
        b.open &= !bit;
        b.todo[d] &= !self.t.houses_of[c];
    }

    /// Naked and hidden singles (and locked candidates when `locked`) to a fixpoint; `false` on
    /// a contradiction.
    fn propagate(&self, b: &mut Board, locked: bool) -> bool {
        let (n, t) = (self.t.n, self.t);
        loop {
            let (mut once, mut twice) = (0u128, 0u128);
            for &p in &b.pos[..n] {
                twice |= once & p;
                once |= p;
            }
            if once != t.all {
                return false; // a cell with no candidate
            }
            let mut singles = once & !twice & b.open;
            if singles != 0 {
                while singles != 0 {
                    let c = singles.trailing_zeros() as usize;
                    singles &= singles - 1;
                    // Placing an earlier single may have taken this cell's last digit.
                    let Some(d) = (0..n).find(|&d| b.pos[d] >> c & 1 != 0) else {
                        return false;
                    };
                    self.place(b, c, d);
                }
                continue;
            }
            if b.open == 0 {
                return true;
            }
            // Hidden singles: a digit with one possible cell in a house.
            let mut progress = false;
            for d in 0..n {
                let mut todo = b.todo[d];
                while todo != 0 {
                    let h = todo.trailing_zeros() as usize;
                    todo &= todo - 1;
                    let m = b.pos[d] & t.houses[h];
                    if m & m.wrapping_sub(1) == 0 {
                        if m == 0 {
                            return false;
                        }
                        self.place(b, m.trailing_zeros() as usize, d);
                        progress = true;
                    }
                }
            }
            if !progress && (!locked || !self.locked_candidates(b)) {
                return true;
            }
        }
    }

    /// Locked candidates: when a digit's places in one house all lie where it overlaps another
    /// house, the digit leaves the rest of the other house. `true` when something was removed.
    fn locked_candidates(&self, b: &mut Board) -> bool {
        let mut changed = false;
        for d in 0..self.t.n {
            if b.todo[d] == 0 {
                continue;
            }
            let mut p = b.pos[d];
            for &[shared, a_rest, b_rest] in &self.t.overlaps {
                if p & shared == 0 {
                    continue;
                }
                if p & a_rest == 0 && p & b_rest != 0 {
                    p &= !b_rest;
                    changed = true;
                } else if p & b_rest == 0 && p & a_rest != 0 {
                    p &= !a_rest;
                    changed = true;
                }
            }
            b.pos[d] = p;
        }
        changed
    }

    /// An open cell with the fewest candidates (a bivalue one when there is one).
    fn pick(&self, b: &Board) -> usize {
        let n = self.t.n;
        let (mut one, mut two, mut three) = (0u128, 0u128, 0u128);
        for &p in &b.pos[..n] {
            three |= two & p;
            two |= one & p;
            one |= p;
        }
        let bivalue = two & !three & b.open;
        if bivalue != 0 {
            return bivalue.trailing_zeros() as usize;
        }
        let mut best = (usize::MAX, u32::MAX);
        let mut open = b.open;
        while open != 0 {
            let c = open.trailing_zeros() as usize;
            open &= open - 1;
            let k = b.pos[..n].iter().map(|&p| (p >> c & 1) as u32).sum();
            if k < best.1 {
                best = (c, k);
            }
        }
        best.0
    }

    /// `true` when the deadline has passed (looked at every [`CLOCK_EVERY`] nodes).
    fn out_of_time(&mut self) -> bool {
        self.visited += 1;
        if self.visited.is_multiple_of(CLOCK_EVERY) && self.halt.reached() {
            self.found.timed_out = true;
        }
        self.found.timed_out
    }

    /// Searches below the propagated board `b`; `false` to stop.
    fn descend(&mut self, b: Board) -> bool {
        if self.out_of_time() {
            return false;
        }
        if b.open == 0 {
            return self.leaf(&b);
        }
        let c = self.pick(&b);
        // Propagated: every open cell has two candidates or more.
        debug_assert!(
            b.pos[..self.t.n]
                .iter()
                .filter(|&&p| p >> c & 1 != 0)
                .count()
                >= 2
        );
        self.guesses += 1;
        for d in 0..self.t.n {
            if b.pos[d] >> c & 1 == 0 {
                continue;
            }
            // Copy on branch: `b` stays as it was for the next digit.
            let mut child = b;
            self.place(&mut child, c, d);
            if self.propagate(&mut child, false) && !self.descend(child) {
                return false;
            }
        }
        true
    }

    fn leaf(&mut self, b: &Board) -> bool {
        self.found.count += 1;
        if self.found.witnesses.len() < self.keep {
            let mut g = vec![0; self.t.peers.len()]; // one entry per cell
            for (d, &p) in b.pos[..self.t.n].iter().enumerate() {
                let mut p = p;
                while p != 0 {
                    g[p.trailing_zeros() as usize] = d as Value + 1;
                    p &= p - 1;
                }
            }
            self.found.witnesses.push(g);
        }
        self.found.count < self.limit
    }
}
