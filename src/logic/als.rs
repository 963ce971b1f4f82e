//! Almost locked sets: the ALS-XZ rule.
//!
//! An almost locked set (ALS) is `k` empty cells of one house holding `k + 1` digits between
//! them: remove any one digit and the rest is locked. Two disjoint ALS `A` and `B` share a
//! *restricted common* digit `x` when every `x` of `A` sees every `x` of `B`: then `x` is in at
//! most one of them, so the other is locked. For any other digit `z` of both, one of the two
//! holds `z`: a cell outside them that sees every `z` of `A` and of `B` loses `z`.
//!
//! Along a solving path the rule is asked again on each board that the easier techniques leave
//! unchanged; it then pairs only the sets with a cell whose candidates changed since the last
//! board where it found nothing, which finds the same steps.

use std::cell::RefCell;

use super::board::{bit, bits, choose_within, digits, Board, DigitCells};
use super::origin::Origin;
use super::step::{Candidate, Found, Step};
use super::table::Technique;
use crate::model::Value;

/// Most cells in one ALS (HoDoKu has no limit on 9×9; larger grids need one).
const MAX_CELLS: usize = 8;

/// Every ALS of a board, each cell set once (with the first house that holds it), in flat
/// arrays. Bitsets over the cells take `words` `u64`s; per set and digit `d` there are two:
/// the cells seeing every cell of the set that holds `d`, and those cells themselves.
struct Sets {
    n: usize,
    words: usize,
    /// `cells[start[i]..start[i + 1]]`: set `i`'s cells, ascending.
    cells: Vec<usize>,
    start: Vec<usize>,
    digits: Vec<u64>,
    house: Vec<u32>,
    members: Vec<u64>,
    seen: Vec<u64>,
    holding: Vec<u64>,
    /// Per set and digit, the set's first cell holding it (`u32::MAX` for none).
    first: Vec<u32>,
}

impl Sets {
    fn of(board: &Board) -> Sets {
        let n = board.n();
        let words = (n * n).div_ceil(64);
        let mut sets = Sets {
            n,
            words,
            cells: vec![],
            start: vec![0],
            digits: vec![],
            house: vec![],
            members: vec![],
            seen: vec![],
            holding: vec![],
            first: vec![],
        };
        let house_bits: Vec<Vec<u64>> = (0..board.house_count())
            .map(|h| cell_set(words, board.house(h).iter().map(|&c| c as usize)))
            .collect();
        for h in 0..board.house_count() {
            let empty: Vec<usize> = board
                .house(h)
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| board.cands(c) != 0)
                .collect();
            let masks: Vec<u64> = empty.iter().map(|&c| board.cands(c)).collect();
            for k in 1..empty.len().min(MAX_CELLS + 1) {
                choose_within(&masks, k, k + 1, &mut |chosen, union| {
                    if union.count_ones() as usize == k + 1 {
                        let members = cell_set(words, chosen.iter().map(|&i| empty[i]));
                        // A set inside an earlier house was taken there.
                        let earlier = house_bits[..h]
                            .iter()
                            .any(|hb| members.iter().zip(hb).all(|(m, b)| m & !b == 0));
                        if !earlier {
                            sets.push(board, chosen.iter().map(|&i| empty[i]), union, h, members);
                        }
                    }
                    false
                });
            }
        }
        sets
    }

    fn push(
        &mut self,
        board: &Board,
        cells: impl Iterator<Item = usize>,
        digits: u64,
        house: usize,
        members: Vec<u64>,
    ) {
        let (n, words) = (self.n, self.words);
        let first = self.cells.len();
        self.cells.extend(cells);
        self.cells[first..].sort_unstable();
        self.start.push(self.cells.len());
        self.digits.push(digits);
        self.house.push(house as u32);
        self.members.extend(members);
        let at = self.seen.len();
        self.seen.resize(at + n * words, u64::MAX);
        self.holding.resize(at + n * words, 0);
        let firsts = self.first.len();
        self.first.resize(firsts + n, u32::MAX);
        for &c in &self.cells[first..] {
            for d in bits(board.cands(c)) {
                let f = &mut self.first[firsts + d];
                *f = (*f).min(c as u32);
                let range = at + d * words..at + (d + 1) * words;
                for (w, p) in self.seen[range.clone()].iter_mut().zip(board.peer_set(c)) {
                    *w &= p;
                }
                self.holding[range][c / 64] |= 1 << (c % 64);
            }
        }
    }

    fn len(&self) -> usize {
        self.digits.len()
    }
    fn cells(&self, i: usize) -> &[usize] {
        &self.cells[self.start[i]..self.start[i + 1]]
    }
    fn members(&self, i: usize) -> &[u64] {
        &self.members[i * self.words..(i + 1) * self.words]
    }
    /// [`Sets::seen`] of every digit, digit by digit.
    fn seen_all(&self, i: usize) -> &[u64] {
        let size = self.n * self.words;
        &self.seen[i * size..(i + 1) * size]
    }
    /// Per digit, the first cell of set `i` holding it.
    fn first_all(&self, i: usize) -> &[u32] {
        &self.first[i * self.n..(i + 1) * self.n]
    }
    /// Cells seeing every cell of set `i` that holds `d`.
    fn seen(&self, i: usize, d: Value) -> &[u64] {
        let at = (i * self.n + d as usize - 1) * self.words;
        &self.seen[at..at + self.words]
    }
    /// The cells of set `i` that hold `d`.
    fn holding(&self, i: usize, d: Value) -> &[u64] {
        let at = (i * self.n + d as usize - 1) * self.words;
        &self.holding[at..at + self.words]
    }
}

/// The bitset of some cells.
fn cell_set(words: usize, cells: impl Iterator<Item = usize>) -> Vec<u64> {
    let mut set = vec![0u64; words];
    for c in cells {
        set[c / 64] |= 1 << (c % 64);
    }
    set
}

/// The last board on which the rule found nothing, per thread: its origin and candidates.
type Clean = Option<(Origin, Vec<u64>)>;

thread_local! {
    static CLEAN: RefCell<Clean> = const { RefCell::new(None) };
}

/// Per cell, whether its candidates may differ from the last board on which the rule found
/// nothing: all of them unless `board` narrows that board (same origin, each cell's
/// candidates among the earlier ones).
///
/// Two sets whose cells kept their candidates since such a board were two sets there, with
/// the same restricted commons and the same cells seeing them, and each candidate the pair
/// could remove now it could remove then: the pair gives nothing and is skipped.
fn changed_cells(board: &Board, last: &Clean) -> Vec<bool> {
    let cells = board.values().len();
    match last {
        Some((origin, was))
            if origin.holds(board) && (0..cells).all(|c| board.cands(c) & !was[c] == 0) =>
        {
            (0..cells).map(|c| board.cands(c) != was[c]).collect()
        }
        _ => vec![true; cells],
    }
}

pub fn find(board: &Board, technique: Technique, found: &mut Found) {
    if technique != Technique::AlsXz {
        return;
    }
    let last = CLEAN.with(|c| c.borrow_mut().take());
    let changed = changed_cells(board, &last);
    let before = found.steps.len();
    pairs(board, technique, &changed, found);
    if found.steps.len() == before {
        let origin = match last {
            Some((origin, _)) if origin.holds(board) => origin,
            _ => Origin::of(board),
        };
        let cands = (0..board.values().len()).map(|c| board.cands(c)).collect();
        CLEAN.with(|c| *c.borrow_mut() = Some((origin, cands)));
    }
}

/// The ALS-XZ steps of pairs of sets one of which holds a cell of `changed`.
fn pairs(board: &Board, technique: Technique, changed: &[bool], found: &mut Found) {
    let sets = Sets::of(board);
    let words = sets.words;
    let fresh: Vec<bool> = (0..sets.len())
        .map(|i| sets.cells(i).iter().any(|&c| changed[c]))
        .collect();
    let has = DigitCells::of(board);
    let every: Vec<usize> = (0..sets.len()).collect();
    let fresh_sets: Vec<usize> = every.iter().copied().filter(|&i| fresh[i]).collect();
    for a in 0..sets.len() {
        // The sets after `a` to pair it with: all of them, or the fresh ones.
        let pool = if fresh[a] { &every } else { &fresh_sets };
        let (da, ma) = (sets.digits[a], sets.members(a));
        for &b in &pool[pool.partition_point(|&b| b <= a)..] {
            let common = da & sets.digits[b];
            // Two digits or more in common, and no cell.
            if common & common.wrapping_sub(1) == 0 {
                continue;
            }
            let mb = sets.members(b);
            if ma.iter().zip(mb).any(|(p, q)| p & q != 0) {
                continue;
            }
            let (seen_a, first_b) = (sets.seen_all(a), sets.first_all(b));
            for x in digits(common) {
                // Restricted common: every x of B sees every x of A (the first one tested
                // alone first: most pairs fail there).
                let first = first_b[x as usize - 1] as usize;
                if seen_a[(x as usize - 1) * words + first / 64] >> (first % 64) & 1 == 0 {
                    continue;
                }
                let sx = sets.seen(a, x);
                let outside = sets.holding(b, x).iter().zip(sx);
                if outside.fold(0, |acc, (h, s)| acc | h & !s) != 0 {
                    continue;
                }
                let mut eliminations = vec![];
                for z in digits(common & !bit(x)) {
                    let (sa, sb) = (sets.seen(a, z), sets.seen(b, z));
                    let hz = has.of_digit(z);
                    for (w, ((&p, &q), &h)) in sa.iter().zip(sb).zip(hz).enumerate() {
                        eliminations.extend(bits(p & q & h).map(|b| Candidate::new(w * 64 + b, z)));
                    }
                }
                if eliminations.is_empty() {
                    continue;
                }
                let mut step = Step::new(technique);
                step.digits = vec![x];
                step.digits.extend(digits(common & !bit(x)));
                step.cells = sets
                    .cells(a)
                    .iter()
                    .chain(sets.cells(b))
                    .map(|&c| c as u32)
                    .collect();
                step.houses = vec![sets.house[a], sets.house[b]];
                step.eliminations = eliminations;
                if found.push(step) {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::logic::render::text;
    use crate::model::{Puzzle, Shape};

    #[test]
    fn als_xz_on_two_bivalue_cells_and_a_pair() {
        // A = r1c1 {1,2}; B = r5c1 {1,3}, r5c2 {2,3}. x = 1 (r1c1 and r5c1 share c1), z = 2:
        // r1c2, r2c2, r3c2, r4c1 and r6c1 see r1c1 and r5c2, the cells of 2.
        let p = Puzzle::new(Arc::new(Shape::standard(9, false).unwrap()), vec![0; 81]).unwrap();
        let mut elims = vec![];
        for (cell, keep) in [(0usize, [1u16, 2]), (36, [1, 3]), (37, [2, 3])] {
            elims.extend((1..=9).filter(|d| !keep.contains(d)).map(|d| (cell, d)));
        }
        let board = Board::with_eliminations(&p, &elims).unwrap();
        let mut found = Found::new(1);
        find(&board, Technique::AlsXz, &mut found);
        let step = &found.steps[0];
        assert_eq!(
            text(board.shape(), step),
            "Almost Locked Set XZ-Rule: r1c1,r5c12 => r123c2,r46c1<>2"
        );
    }
}
