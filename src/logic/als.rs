//! Almost locked sets: the ALS-XZ rule and the ALS-XY-wing.
//!
//! An almost locked set (ALS) is `k` empty cells of one house holding `k + 1` digits between
//! them: remove any one digit and the rest is locked. Two disjoint ALS `A` and `B` share a
//! *restricted common* digit `x` when every `x` of `A` sees every `x` of `B`: then `x` is in at
//! most one of them, so the other is locked. For any other digit `z` of both, one of the two
//! holds `z`: a cell outside them that sees every `z` of `A` and of `B` loses `z`.
//!
//! ALS-XY-wing: a third ALS `C` shares a restricted common `x` with `A` and another, `y`, with
//! `B` (disjoint sets; not one and the same single digit on both sides). If `A` held no `z`
//! it would be locked and hold `x`, so `C` would be locked without `x` and hold `y`, so `B`
//! would be locked and hold `z`: again one of `A` and `B` holds `z`, and a cell seeing every
//! `z` of both loses it (for each `z` of both that is not a restricted common).
//!
//! Along a solving path the rule is asked again on each board that the easier techniques leave
//! unchanged; it then pairs only the sets with a cell whose candidates changed since the last
//! board where it found nothing, which finds the same steps.

use std::cell::RefCell;
use std::rc::Rc;

use super::board::{bit, bits, choose_within, digits, Board, DigitCells};
use super::origin::{kept_for, since_clean, Clean, Kept};
use super::step::{Candidate, Found, Step};
use super::table::Technique;
use crate::model::Value;

/// Most cells in one ALS (HoDoKu has no limit on 9×9; larger grids need one).
const MAX_CELLS: usize = 8;

/// Every ALS of a board, each cell set once (with the first house that holds it), in HoDoKu's
/// order (house by house; within a house, the lexicographic order of the sets' places), in flat
/// arrays. Bitsets over the cells take `words` `u64`s; per set and digit `d` there are two:
/// the cells seeing every cell of the set that holds `d`, and those cells themselves.
pub(super) struct Sets {
    n: usize,
    words: usize,
    /// `cells[start[i]..start[i + 1]]`: set `i`'s cells, ascending.
    cells: Vec<usize>,
    start: Vec<usize>,
    pub(super) digits: Vec<u64>,
    pub(super) house: Vec<u32>,
    members: Vec<u64>,
    seen: Vec<u64>,
    holding: Vec<u64>,
    /// Per set and digit, the set's first cell holding it (`u32::MAX` for none).
    first: Vec<u32>,
    /// Per set, the disjoint sets it shares restricted commons with (ascending) and those
    /// digits ([`Sets::restricted_commons`]).
    pub(super) commons: Vec<Vec<(usize, u64)>>,
}

thread_local! {
    /// The sets of the last board: the ALS-XY-wing asks for the sets of the board the ALS-XZ
    /// rule has just read.
    static LAST: Kept<Sets> = const { RefCell::new(None) };
}

impl Sets {
    /// [`Sets::of`], kept for the next call on the same board.
    pub(super) fn shared(board: &Board) -> Rc<Sets> {
        kept_for(&LAST, board, || Sets::of(board))
    }

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
            commons: vec![],
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
            let mut found: Vec<(Vec<usize>, u64)> = vec![];
            for k in 1..empty.len().min(MAX_CELLS + 1) {
                choose_within(&masks, k, k + 1, &mut |chosen, union| {
                    if union.count_ones() as usize == k + 1 {
                        found.push((chosen.to_vec(), union));
                    }
                    false
                });
            }
            // HoDoKu's order: depth first over the house's cells (a set, then the sets it
            // begins), which is the lexicographic order of the lists of places.
            found.sort_unstable();
            for (chosen, union) in found {
                let members = cell_set(words, chosen.iter().map(|&i| empty[i]));
                // A set inside an earlier house was taken there.
                let earlier = house_bits[..h]
                    .iter()
                    .any(|hb| members.iter().zip(hb).all(|(m, b)| m & !b == 0));
                if !earlier {
                    sets.push(board, chosen.iter().map(|&i| empty[i]), union, h, members);
                }
            }
        }
        sets.commons = sets.restricted_commons(&DigitCells::of(board));
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

    pub(super) fn len(&self) -> usize {
        self.digits.len()
    }
    pub(super) fn cells(&self, i: usize) -> &[usize] {
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
    /// True when sets `a` and `b` share no cell.
    fn disjoint(&self, a: usize, b: usize) -> bool {
        let (ma, mb) = (self.members(a), self.members(b));
        ma.iter().zip(mb).all(|(p, q)| p & q == 0)
    }
    /// True when `x`, a digit of both disjoint sets, is a restricted common: every `x` of `b`
    /// sees every `x` of `a` (the first one tested alone first: most pairs fail there).
    fn restricted(&self, a: usize, b: usize, x: Value) -> bool {
        let first = self.first_all(b)[x as usize - 1] as usize;
        let seen_a = self.seen_all(a);
        if seen_a[(x as usize - 1) * self.words + first / 64] >> (first % 64) & 1 == 0 {
            return false;
        }
        let sx = self.seen(a, x);
        let outside = self.holding(b, x).iter().zip(sx);
        outside.fold(0, |acc, (h, s)| acc | h & !s) == 0
    }
    /// Per set, the disjoint sets it shares restricted commons with, and those digits. A set
    /// `b` sharing `x` with `a` has its first `x` among the cells seeing every `x` of `a`, so
    /// only the sets whose first `x` is such a cell are tried.
    fn restricted_commons(&self, has: &DigitCells) -> Vec<Vec<(usize, u64)>> {
        let cells = self.n * self.n;
        let mut by_first: Vec<Vec<u32>> = vec![vec![]; self.n * cells];
        for i in 0..self.len() {
            for d in digits(self.digits[i]) {
                let f = self.first_all(i)[d as usize - 1] as usize;
                by_first[(d as usize - 1) * cells + f].push(i as u32);
            }
        }
        let mut commons: Vec<Vec<(usize, u64)>> = vec![vec![]; self.len()];
        // Per set, its place in `commons[a]` while `a` is at hand (`usize::MAX`: none).
        let mut slot = vec![usize::MAX; self.len()];
        for a in 0..self.len() {
            let start = commons[a].len();
            for x in digits(self.digits[a]) {
                let seen = self.seen(a, x).iter().zip(has.of_digit(x));
                for (w, (&s, &h)) in seen.enumerate() {
                    for c in bits(s & h) {
                        // Each list is ascending: only the sets after `a` are tried.
                        let list = &by_first[(x as usize - 1) * cells + w * 64 + c];
                        let later = list.partition_point(|&b| b as usize <= a);
                        for &b in &list[later..] {
                            let b = b as usize;
                            if !self.disjoint(a, b) || !self.restricted(a, b, x) {
                                continue;
                            }
                            match slot[b] {
                                usize::MAX => {
                                    slot[b] = commons[a].len();
                                    commons[a].push((b, bit(x)));
                                }
                                k => commons[a][k].1 |= bit(x),
                            }
                        }
                    }
                }
            }
            let found: Vec<(usize, u64)> = commons[a][start..].to_vec();
            for (b, rc) in found {
                slot[b] = usize::MAX;
                commons[b].push((a, rc));
            }
        }
        for list in commons.iter_mut() {
            list.sort_unstable_by_key(|&(b, _)| b);
        }
        commons
    }
    /// The candidates of the digits `ds`, outside set `other`, that see every cell of set `x`
    /// holding them.
    fn locked_outside(&self, x: usize, other: usize, ds: u64, has: &DigitCells) -> Vec<Candidate> {
        let mut out = vec![];
        for d in digits(ds) {
            let seen = self.seen(x, d).iter().zip(has.of_digit(d));
            for (w, ((&p, &h), &m)) in seen.zip(self.members(other)).enumerate() {
                out.extend(bits(p & h & !m).map(|b| Candidate::new(w * 64 + b, d)));
            }
        }
        out
    }
    /// The candidates of the digits `zs` seen by every cell of `a` and of `b` holding them.
    pub(super) fn seen_by_both(
        &self,
        a: usize,
        b: usize,
        zs: u64,
        has: &DigitCells,
    ) -> Vec<Candidate> {
        let mut out = vec![];
        for z in digits(zs) {
            let (sa, sb) = (self.seen(a, z), self.seen(b, z));
            let hz = has.of_digit(z);
            for (w, ((&p, &q), &h)) in sa.iter().zip(sb).zip(hz).enumerate() {
                out.extend(bits(p & q & h).map(|b| Candidate::new(w * 64 + b, z)));
            }
        }
        out
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

thread_local! {
    /// The last board on which the ALS-XZ rule found nothing.
    static CLEAN: Clean = const { RefCell::new(None) };
}

pub fn find(board: &Board, technique: Technique, found: &mut Found) {
    match technique {
        Technique::AlsXz => xz(board, technique, found),
        Technique::AlsXyWing => xy_wings(board, found),
        _ => {}
    }
}

/// The ALS-XZ steps, from the pairs of sets one of which holds a cell whose candidates
/// changed since the last board where the rule found nothing ([`since_clean`]: two sets whose
/// cells kept their candidates were two sets there, with the same restricted commons and the
/// same cells seeing them).
fn xz(board: &Board, technique: Technique, found: &mut Found) {
    since_clean(&CLEAN, board, found, |changed, found| {
        pairs(board, technique, changed, found)
    });
}

/// The ALS-XZ steps of pairs of sets one of which holds a cell of `changed`.
fn pairs(board: &Board, technique: Technique, changed: &[bool], found: &mut Found) {
    let sets = Sets::shared(board);
    let fresh: Vec<bool> = (0..sets.len())
        .map(|i| sets.cells(i).iter().any(|&c| changed[c]))
        .collect();
    let has = DigitCells::of(board);
    for a in 0..sets.len() {
        let da = sets.digits[a];
        for &(b, restricted) in &sets.commons[a] {
            let common = da & sets.digits[b];
            // Pairs met before (`b < a`), or whose sets both kept their candidates; two
            // digits or more in common.
            if b < a || !(fresh[a] || fresh[b]) || common & common.wrapping_sub(1) == 0 {
                continue;
            }
            let rc = first_two(restricted);
            let mut eliminations = match rc.count_ones() {
                1 => sets.seen_by_both(a, b, common & !rc, &has),
                // Doubly linked: each restricted common is in exactly one of the sets, so
                // every common digit is in one of them, and each set less the two is locked.
                _ => sets.seen_by_both(a, b, common, &has),
            };
            if rc.count_ones() == 2 {
                for (x, y) in [(a, b), (b, a)] {
                    eliminations.extend(sets.locked_outside(x, y, sets.digits[x] & !rc, &has));
                }
            }
            if eliminations.is_empty() {
                continue;
            }
            let mut step = Step::new(technique);
            step.digits = digits(rc).chain(digits(common & !rc)).collect();
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

/// The restricted commons of a pair of sets as HoDoKu keeps them: the first two digits.
fn first_two(restricted: u64) -> u64 {
    digits(restricted).take(2).fold(0, |m, x| m | bit(x))
}

/// The ALS-XY-wings of a board (see the module docs), in HoDoKu's order: its list of
/// restricted commons runs over the pairs of sets `(a, b)`, `a < b`, in order (each with its
/// first two digits), and a wing is two of them sharing a set `C`, the first of the two taken
/// first.
fn xy_wings(board: &Board, found: &mut Found) {
    let sets = Sets::shared(board);
    let has = DigitCells::of(board);
    // In a list of partners (ascending), where the partners after `set` begin.
    let after = |list: &[(usize, u64)], set: usize| list.partition_point(|&(b, _)| b <= set);
    for a1 in 0..sets.len() {
        let list1 = &sets.commons[a1];
        for &(b1, r1) in &list1[after(list1, a1)..] {
            let list2 = &sets.commons[b1];
            // The later entries sharing a set with (a1, b1), in the list's order, as (C, A, B,
            // digits of B with C): (a1, b) for b > b1, (x, b1) for a1 < x < b1, (b1, b) for
            // b > b1.
            let same_first = list1[after(list1, b1)..]
                .iter()
                .map(|&(b, r)| (a1, b1, b, r));
            let between = list2[after(list2, a1)..after(list2, b1 - 1)]
                .iter()
                .map(|&(x, r)| (b1, a1, x, r));
            let from_b1 = list2[after(list2, b1)..]
                .iter()
                .map(|&(b, r)| (b1, a1, b, r));
            for (c, a, b, r2) in same_first.chain(between).chain(from_b1) {
                let (ra, rb) = (first_two(r1), first_two(r2));
                if (ra == rb && ra.count_ones() == 1) || !sets.disjoint(a, b) {
                    continue;
                }
                let zs = sets.digits[a] & sets.digits[b] & !(ra | rb);
                let eliminations = sets.seen_by_both(a, b, zs, &has);
                if eliminations.is_empty() {
                    continue;
                }
                let mut step = Step::new(Technique::AlsXyWing);
                step.digits = digits(ra | rb).chain(digits(zs)).collect();
                step.cells = [a, b, c]
                    .iter()
                    .flat_map(|&i| sets.cells(i))
                    .map(|&cell| cell as u32)
                    .collect();
                step.houses = vec![sets.house[a], sets.house[b], sets.house[c]];
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
    fn als_xy_wing_through_a_third_set() {
        // A = r1c1 {1,2}, C = r1c5 {1,3,4}, r2c5 {3,4} (x = 1 in r1), B = r5c5 {3,2} (y = 3 in
        // c5): z = 2, and r5c1 sees r1c1 and r5c5.
        let p = Puzzle::new(Arc::new(Shape::standard(9, false).unwrap()), vec![0; 81]).unwrap();
        let mut elims = vec![];
        let keep: [(usize, &[u16]); 4] =
            [(0, &[1, 2]), (4, &[1, 3, 4]), (13, &[3, 4]), (40, &[2, 3])];
        for (cell, keep) in keep {
            elims.extend((1..=9).filter(|d| !keep.contains(d)).map(|d| (cell, d)));
        }
        let board = Board::with_eliminations(&p, &elims).unwrap();
        let mut found = Found::new(50);
        find(&board, Technique::AlsXyWing, &mut found);
        let texts: Vec<String> = found.steps.iter().map(|s| text(board.shape(), s)).collect();
        let wing = "Almost Locked Set XY-Wing: r1c15,r25c5 => r5c1<>2";
        assert!(texts.iter().any(|t| t == wing), "{texts:#?}");
    }

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
