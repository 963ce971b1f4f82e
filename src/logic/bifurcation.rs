//! The last resort, bifurcation: in a cell with the fewest candidates, a digit from which no
//! solution can be reached (by a search with naked and hidden singles) is removed. It is a
//! guess in the graders' sense and counted as one (HoDoKu's "Brute Force" score). On a puzzle
//! with a unique solution every cell with two or more candidates has such a digit, so the
//! ladder always finishes; when every digit of the cell still leads to a solution (several
//! solutions), the first one is placed.

use super::board::{bit, bits, Board};
use super::step::{Candidate, Found, Step};
use super::table::Technique;
use crate::model::Value;

pub fn find(board: &Board, technique: Technique, found: &mut Found) {
    let n = board.n();
    let Some(cell) = (0..n * n)
        .filter(|&c| board.cands(c).count_ones() >= 2)
        .min_by_key(|&c| board.cands(c).count_ones())
    else {
        return;
    };
    let mut step = Step::new(technique);
    step.cells.push(cell as u32);
    let mut first_solvable = None;
    for b in bits(board.cands(cell)) {
        let d = b as Value + 1;
        if solvable_with(board, cell, d) {
            first_solvable.get_or_insert(d);
        } else {
            step.digits.push(d);
            step.eliminations.push(Candidate::new(cell, d));
            break;
        }
    }
    if step.eliminations.is_empty() {
        if let Some(d) = first_solvable {
            step.digits.push(d);
            step.placements.push(Candidate::new(cell, d));
        }
    }
    found.push(step);
}

/// True when placing `d` in `cell` leaves a board that some completion solves.
pub fn solvable_with(board: &Board, cell: usize, d: Value) -> bool {
    if let Some(puzzle) = board.rule_puzzle() {
        return super::rules::solvable_with(puzzle, board, cell, d);
    }
    let mut s = Search::of(board);
    s.assign(cell, d) && s.solvable()
}

/// The candidates left once `d` is placed in `cell` and naked and hidden singles have run
/// (a placed cell keeps its digit's bit), or `None` when that reaches a contradiction.
pub fn singles_after(board: &Board, cell: usize, d: Value) -> Option<Vec<u64>> {
    let mut s = Search::of(board);
    if !(s.assign(cell, d) && s.propagate()) {
        return None;
    }
    for (c, cands) in s.cands.iter_mut().enumerate() {
        if s.values[c] != 0 {
            *cands = bit(s.values[c]);
        }
    }
    Some(s.cands)
}

/// A plain search over copies of the candidates, with naked and hidden singles.
#[derive(Clone)]
struct Search<'a> {
    board: &'a Board,
    cands: Vec<u64>,
    values: Vec<Value>,
    /// The candidates as the houses were last read beside the rules ([`super::rules::net`]).
    seen: Vec<u64>,
}

impl<'a> Search<'a> {
    fn of(board: &'a Board) -> Search<'a> {
        let cands: Vec<u64> = (0..board.n() * board.n()).map(|c| board.cands(c)).collect();
        Search {
            board,
            seen: cands.clone(),
            cands,
            values: board.values().to_vec(),
        }
    }

    fn assign(&mut self, cell: usize, d: Value) -> bool {
        if self.cands[cell] & bit(d) == 0 {
            return false;
        }
        self.values[cell] = d;
        self.cands[cell] = 0;
        for &p in self.board.peers(cell) {
            self.cands[p as usize] &= !bit(d);
        }
        true
    }

    /// Singles (and the puzzle's rules) until nothing changes; false on a contradiction.
    fn propagate(&mut self) -> bool {
        let n = self.board.n();
        let all = super::board::all_digits(n);
        loop {
            let mut changed = false;
            for c in 0..n * n {
                if self.values[c] == 0 {
                    match self.cands[c].count_ones() {
                        0 => return false,
                        1 => {
                            let d = self.cands[c].trailing_zeros() as Value + 1;
                            changed |= self.assign(c, d);
                        }
                        _ => {}
                    }
                }
            }
            for h in 0..self.board.house_count() {
                let (mut once, mut twice, mut placed) = (0u64, 0u64, 0u64);
                for &c in self.board.house(h) {
                    let c = c as usize;
                    if self.values[c] != 0 {
                        placed |= bit(self.values[c]);
                    } else {
                        twice |= once & self.cands[c];
                        once |= self.cands[c];
                    }
                }
                if (once | placed) != all {
                    return false;
                }
                for b in bits(once & !twice & !placed) {
                    let d = b as Value + 1;
                    let Some(&c) = self
                        .board
                        .house(h)
                        .iter()
                        .find(|&&c| self.cands[c as usize] & bit(d) != 0)
                    else {
                        return false;
                    };
                    if !self.assign(c as usize, d) {
                        return false;
                    }
                    changed = true;
                }
            }
            if !changed {
                // The rules beyond the houses, on a puzzle that has them.
                let (values, cands, seen) = (&self.values, &mut self.cands, &mut self.seen);
                match super::rules::narrow_search(self.board, values, cands, seen) {
                    None => return false,
                    Some(true) => {}
                    Some(false) => return true,
                }
            }
        }
    }

    fn solvable(&mut self) -> bool {
        if !self.propagate() {
            return false;
        }
        let n = self.board.n();
        let Some(cell) = (0..n * n)
            .filter(|&c| self.values[c] == 0)
            .min_by_key(|&c| self.cands[c].count_ones())
        else {
            return true;
        };
        bits(self.cands[cell]).any(|b| {
            let mut next = self.clone();
            next.assign(cell, b as Value + 1) && next.solvable()
        })
    }
}
