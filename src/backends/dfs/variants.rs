//! Variant rules for the generic kernel of `dfs`: the forms of [`crate::model::lower::Rules`],
//! each narrowed at every node once the singles are done, to a fixpoint with them.
//!
//! - a **pair** keeps, in each of its cells, only the digits that some candidate of the other
//!   cell allows (arc consistency; a table per direction, built once: bit `e − 1` of
//!   `table[d − 1]` when the other cell may hold `e` beside `d`). On a chain (thermometer,
//!   whisper) repeated passes reach the chain's bounds;
//! - a **group** (extra houses, extra regions, renban) removes its fixed digits from its other
//!   cells and fails when two cells hold one digit or too few digits are left; a group of `n`
//!   cells also places its hidden singles;
//! - a **window** (renban) keeps the digits of the runs of consecutive digits, as long as the
//!   line, that hold every fixed digit and meet every cell's candidates;
//! - a **sum** (arrow, little killer) bounds each term by the least and greatest the others can
//!   add (interval reasoning on `Σ cᵢ·xᵢ = rhs`);
//! - a **sandwich** keeps the digits that some placement of its 1 and its `n` supports: a pair
//!   of positions is possible when both ends may go there, no other cell must hold an end, and
//!   the cells between can reach the clue (the interval of their candidates' bounds, cut to the
//!   least and greatest sums of that many distinct digits of `2..n−1`); it supports the ends at
//!   its positions, each digit between that leaves the others a reachable rest, and any digit
//!   but an end outside. Once the 1 and the `n` are placed this is interval reasoning on the sum
//!   between them;
//! - **parity** masks odd or even cells.
//!
//! A full grid goes through the same narrowing, which then fails on any broken rule.

use super::Mask;
use crate::model::lower::{LinearSum, PairRule, Rules};
use crate::model::Puzzle;

/// A pair partner of a cell, for [`Cut::lookahead`].
#[derive(Clone)]
struct Partner {
    cell: u16,
    /// Per digit index `d`: the digits (bits) of the cell that leave `cell` no room for `d`.
    leave: Vec<u64>,
}

/// Most places of a digit in a house for which [`Cut::lookahead`] looks ahead.
const LOOKAHEAD: usize = 3;

/// Digit `d` (1-based) as bit `d − 1`.
fn bit(d: u32) -> u64 {
    1 << (d - 1)
}

/// The variant rules of one puzzle, ready for narrowing.
pub(super) struct Variants {
    n: usize,
    /// `(a, b, allowed b per digit of a, allowed a per digit of b)`.
    pairs: Vec<(u16, u16, Vec<u64>, Vec<u64>)>,
    /// `(cells, every digit once)`.
    groups: Vec<(Vec<u16>, bool)>,
    windows: Vec<Vec<u16>>,
    sums: Vec<(Vec<(u16, i64)>, i64)>,
    sandwiches: Vec<(Vec<u16>, i64)>,
    parity: Vec<(u16, u64)>,
    /// For the pair lookahead (empty without pairs): every house, the grid's and the rules'.
    houses: Vec<Vec<u16>>,
    /// For each cell `c`, its pair partners `p` with, per digit index `d`, the digits (as bits)
    /// of `c` that leave `p` no room for `d` under their pairs.
    partners: Vec<Vec<Partner>>,
}

impl Variants {
    /// The variant rules of `puzzle`; `None` when it has none.
    pub(super) fn new(puzzle: &Puzzle) -> Option<Variants> {
        let rules = Rules::of(puzzle);
        if rules.is_empty() {
            return None;
        }
        let n = puzzle.size();
        let table = |rule: &dyn Fn(u32, u32) -> bool| -> Vec<u64> {
            (1..=n as u32)
                .map(|d| {
                    (1..=n as u32)
                        .filter(|&e| rule(d, e))
                        .fold(0, |m, e| m | bit(e))
                })
                .collect()
        };
        let pairs = rules
            .pairs
            .iter()
            .map(|p| {
                let ab = table(&|d, e| p.rule.allows(d, e));
                let ba = table(&|e, d| p.rule.allows(d, e));
                (p.a as u16, p.b as u16, ab, ba)
            })
            .collect();
        let cells16 = |cells: &[u32]| cells.iter().map(|&c| c as u16).collect::<Vec<_>>();
        let mut groups: Vec<(Vec<u16>, bool)> =
            rules.houses.iter().map(|g| (cells16(g), true)).collect();
        groups.extend(rules.distinct.iter().map(|g| (cells16(g), false)));
        let sum = |s: &LinearSum| {
            let terms = s.terms.iter().map(|&(c, k)| (c as u16, k)).collect();
            (terms, s.rhs)
        };
        let mut partners: Vec<Vec<Partner>> = vec![vec![]; n * n];
        let mut houses = vec![];
        if rules.pairs.iter().any(|p| p.rule != PairRule::Differ) {
            let mut add = |c: u32, p: u32, allows: &dyn Fn(u32, u32) -> bool| {
                let at = match partners[c as usize].iter().position(|q| q.cell == p as u16) {
                    Some(i) => i,
                    None => {
                        partners[c as usize].push(Partner {
                            cell: p as u16,
                            leave: vec![0; n],
                        });
                        partners[c as usize].len() - 1
                    }
                };
                let leave = &mut partners[c as usize][at].leave;
                for d in 1..=n as u32 {
                    for e in (1..=n as u32).filter(|&e| !allows(e, d)) {
                        leave[d as usize - 1] |= bit(e);
                    }
                }
            };
            // Two cells that only differ leave each other room for every digit but their own,
            // which the lookahead never removes: they are not partners.
            for p in rules.pairs.iter().filter(|p| p.rule != PairRule::Differ) {
                add(p.a, p.b, &|e, d| p.rule.allows(e, d));
                add(p.b, p.a, &|e, d| p.rule.allows(d, e));
            }
            houses.extend(puzzle.shape().houses().map(cells16));
            houses.extend(groups.iter().filter(|g| g.1).map(|g| g.0.clone()));
        }
        let odd: u64 = (1..=n as u32).step_by(2).fold(0, |m, d| m | bit(d));
        let all: u64 = (1..=n as u32).fold(0, |m, d| m | bit(d));
        Some(Variants {
            n,
            pairs,
            groups,
            windows: rules.windows.iter().map(|w| cells16(w)).collect(),
            sums: rules.sums.iter().map(sum).collect(),
            sandwiches: rules
                .sandwiches
                .iter()
                .map(|s| (cells16(&s.cells), s.sum as i64))
                .collect(),
            parity: rules
                .parity
                .iter()
                .map(|&(c, is_odd)| (c as u16, if is_odd { odd } else { all & !odd }))
                .collect(),
            houses,
            partners,
        })
    }

    /// Narrows `cands` by every rule once. `Some(true)` when a candidate was removed (cells
    /// left with one digit are queued), `None` on a contradiction.
    pub(super) fn narrow<M: Mask>(&self, cands: &mut [M], queue: &mut Vec<u16>) -> Option<bool> {
        let mut cut = Cut {
            cands,
            queue,
            progress: false,
        };
        for &(c, mask) in &self.parity {
            cut.keep(c, mask)?;
        }
        for (a, b, ab, ba) in &self.pairs {
            let support = |from: M, table: &[u64]| {
                let mut s = 0u64;
                let mut m = from.to_u64();
                while m != 0 {
                    s |= table[m.trailing_zeros() as usize];
                    m &= m - 1;
                }
                s
            };
            let sb = support(cut.cands[*a as usize], ab);
            cut.keep(*b, sb)?;
            let sa = support(cut.cands[*b as usize], ba);
            cut.keep(*a, sa)?;
        }
        for (cells, full) in &self.groups {
            cut.group(cells, *full, self.n)?;
        }
        for cells in &self.windows {
            cut.window(cells, self.n)?;
        }
        for (terms, rhs) in &self.sums {
            cut.sum(terms, *rhs)?;
        }
        for (line, total) in &self.sandwiches {
            cut.sandwich(line, *total, self.n)?;
        }
        Some(cut.progress)
    }

    /// Whether some cell has a partner (a pair rule other than "differ").
    pub(super) fn has_pairs(&self) -> bool {
        !self.houses.is_empty()
    }

    /// How many of `cell`'s pair partners are unsolved.
    pub(super) fn degree<M: Mask>(&self, cell: usize, cands: &[M]) -> u32 {
        self.partners[cell]
            .iter()
            .filter(|q| !cands[q.cell as usize].at_most_one())
            .count() as u32
    }

    /// The pair lookahead ([`Cut::lookahead`]) from every house, once: dearer than
    /// [`Variants::narrow`], so run when that has nothing left to remove. Same answer.
    pub(super) fn look_ahead<M: Mask>(
        &self,
        cands: &mut [M],
        queue: &mut Vec<u16>,
    ) -> Option<bool> {
        let mut cut = Cut {
            cands,
            queue,
            progress: false,
        };
        for house in &self.houses {
            cut.lookahead(house, &self.partners)?;
        }
        Some(cut.progress)
    }
}

/// One narrowing pass over a node's candidates.
struct Cut<'a, M> {
    cands: &'a mut [M],
    queue: &'a mut Vec<u16>,
    progress: bool,
}

impl<M: Mask> Cut<'_, M> {
    /// Keeps only the digits of `mask` in `cell`; `None` when none is left.
    fn keep(&mut self, cell: u16, mask: u64) -> Option<()> {
        let m = self.cands[cell as usize];
        let kept = m & M::from_u64(mask);
        if kept == m {
            return Some(());
        }
        if kept == M::ZERO {
            return None;
        }
        self.cands[cell as usize] = kept;
        self.progress = true;
        if kept.at_most_one() {
            self.queue.push(cell);
        }
        Some(())
    }

    /// Pair lookahead from `house`: when a digit `d` has at most [`LOOKAHEAD`] places left in
    /// the house, a digit `e` of a cell `c` goes when placing `e` in `c` leaves `d` no place
    /// there, through the pairs of `c` (or `c` being the place itself). Two neighbouring places
    /// of `d` under non-consecutive, for one, both lose `d − 1` and `d + 1`.
    fn lookahead(&mut self, house: &[u16], partners: &[Vec<Partner>]) -> Option<()> {
        // Per digit, the places (bits of house positions) it has left.
        let mut at = [0u64; 64];
        for (i, &c) in house.iter().enumerate() {
            let mut m = self.cands[c as usize].to_u64();
            while m != 0 {
                at[m.trailing_zeros() as usize] |= 1 << i;
                m &= m - 1;
            }
        }
        for (d, &spots) in at[..house.len()].iter().enumerate() {
            // Two to LOOKAHEAD places (no popcount: it is not in every target's base set).
            if spots & spots.wrapping_sub(1) == 0 {
                continue;
            }
            let mut places = [0u16; LOOKAHEAD];
            let (mut bits, mut count) = (spots, 0);
            while bits != 0 && count < LOOKAHEAD {
                places[count] = house[bits.trailing_zeros() as usize];
                bits &= bits - 1;
                count += 1;
            }
            if bits != 0 {
                continue;
            }
            let places = &places[..count];
            let first = places[0];
            self.lookahead_cell(first, d, places, partners)?;
            for q in &partners[first as usize] {
                self.lookahead_cell(q.cell, d, places, partners)?;
            }
        }
        Some(())
    }

    /// One cell `c` of [`Cut::lookahead`]: removes its digits (other than `d`) that leave `d`
    /// no place among `places`.
    fn lookahead_cell(
        &mut self,
        c: u16,
        d: usize,
        places: &[u16],
        partners: &[Vec<Partner>],
    ) -> Option<()> {
        let mut drop = self.cands[c as usize].to_u64() & !(1 << d);
        for &p in places {
            if drop == 0 {
                return Some(());
            }
            if p != c {
                drop &= partners[c as usize]
                    .iter()
                    .find(|q| q.cell == p)
                    .map_or(0, |q| q.leave[d]);
            }
        }
        if drop != 0 {
            self.keep(c, !drop)?;
        }
        Some(())
    }

    /// Distinct digits in `cells`; with `full`, every digit of `1..=n` once.
    fn group(&mut self, cells: &[u16], full: bool, n: usize) -> Option<()> {
        let (mut fixed, mut union) = (0u64, 0u64);
        for &c in cells {
            let m = self.cands[c as usize];
            if m.at_most_one() {
                let d = m.to_u64();
                if fixed & d != 0 {
                    return None;
                }
                fixed |= d;
            }
            union |= m.to_u64();
        }
        if (union.count_ones() as usize) < cells.len() {
            return None;
        }
        for &c in cells {
            if !self.cands[c as usize].at_most_one() {
                self.keep(c, !fixed)?;
            }
        }
        if full {
            let (mut once, mut twice) = (0u64, 0u64);
            for &c in cells {
                let m = self.cands[c as usize].to_u64();
                twice |= once & m;
                once |= m;
            }
            if once.count_ones() as usize != n {
                return None;
            }
            let mut hidden = once & !twice & !fixed;
            while hidden != 0 {
                let d = hidden & hidden.wrapping_neg();
                hidden ^= d;
                let &c = cells
                    .iter()
                    .find(|&&c| self.cands[c as usize].to_u64() & d != 0)?;
                self.keep(c, d)?;
            }
        }
        Some(())
    }

    /// Consecutive digits in `cells` (any order).
    fn window(&mut self, cells: &[u16], n: usize) -> Option<()> {
        let k = cells.len();
        let fixed = cells
            .iter()
            .map(|&c| self.cands[c as usize])
            .filter(|m| m.at_most_one())
            .fold(0u64, |f, m| f | m.to_u64());
        let mut allowed = 0u64;
        for start in 0..=n - k {
            let w = ((1u64 << k) - 1) << start;
            if fixed & !w == 0
                && cells
                    .iter()
                    .all(|&c| self.cands[c as usize].to_u64() & w != 0)
            {
                allowed |= w;
            }
        }
        for &c in cells {
            self.keep(c, allowed)?;
        }
        Some(())
    }

    /// The sandwich clue `total` on `line`: each cell keeps the digits that some possible
    /// placement of the line's 1 and `n` supports (see the module docs).
    fn sandwich(&mut self, line: &[u16], total: i64, n: usize) -> Option<()> {
        let (one, top) = (bit(1), bit(n as u32));
        let cands: Vec<u64> = line
            .iter()
            .map(|&c| self.cands[c as usize].to_u64())
            .collect();
        let middle: Vec<u64> = cands.iter().map(|m| m & !(one | top)).collect();
        // A cell with no middle digit holds an end; a placement must put an end there.
        let forced: Vec<usize> = (0..line.len()).filter(|&j| middle[j] == 0).collect();
        if forced.len() > 2 {
            return None;
        }
        let low = |m: u64| m.trailing_zeros() as i64 + 1;
        let high = |m: u64| 64 - m.leading_zeros() as i64;
        // The least and greatest sums of `k` distinct digits of `2..n−1`.
        let n = n as i64;
        let least = |k: i64| k * (k + 3) / 2;
        let greatest = |k: i64| k * (2 * n - k - 1) / 2;
        let mut allowed = vec![0u64; line.len()];
        for p in 0..line.len() {
            for q in p + 1..line.len() {
                let one_first = cands[p] & one != 0 && cands[q] & top != 0;
                let top_first = cands[p] & top != 0 && cands[q] & one != 0;
                if !(one_first || top_first) || forced.iter().any(|&f| f != p && f != q) {
                    continue;
                }
                let between = p + 1..q;
                let k = between.len() as i64;
                let (min, max) = between.clone().fold((0, 0), |(lo, hi), j| {
                    (lo + low(middle[j]), hi + high(middle[j]))
                });
                if total < min.max(least(k)) || total > max.min(greatest(k)) {
                    continue;
                }
                let ends = |first: bool, second: bool| {
                    (if first { one } else { 0 }) | (if second { top } else { 0 })
                };
                allowed[p] |= ends(one_first, top_first);
                allowed[q] |= ends(top_first, one_first);
                for j in between {
                    let rest_lo = (min - low(middle[j])).max(least(k - 1));
                    let rest_hi = (max - high(middle[j])).min(greatest(k - 1));
                    let mut bits = middle[j];
                    while bits != 0 {
                        let d = bits.trailing_zeros() as i64 + 1;
                        if (rest_lo..=rest_hi).contains(&(total - d)) {
                            allowed[j] |= 1 << (d - 1);
                        }
                        bits &= bits - 1;
                    }
                }
                for j in (0..p).chain(q + 1..line.len()) {
                    allowed[j] |= middle[j];
                }
            }
        }
        for (&c, &mask) in line.iter().zip(&allowed) {
            self.keep(c, mask)?;
        }
        Some(())
    }

    /// `Σ coefficient × digit = rhs`, by bounds.
    fn sum(&mut self, terms: &[(u16, i64)], rhs: i64) -> Option<()> {
        let range = |m: M, k: i64| {
            let (lo, hi) = (m.low() as i64 + 1, m.high() as i64 + 1);
            if k >= 0 {
                (k * lo, k * hi)
            } else {
                (k * hi, k * lo)
            }
        };
        let (mut min, mut max) = (0i64, 0i64);
        for &(c, k) in terms {
            let (lo, hi) = range(self.cands[c as usize], k);
            min += lo;
            max += hi;
        }
        if rhs < min || rhs > max {
            return None;
        }
        for &(c, k) in terms {
            let m = self.cands[c as usize];
            let (lo, hi) = range(m, k);
            // k·x must lie in [rhs − (max − hi), rhs − (min − lo)].
            let (need_lo, need_hi) = (rhs - (max - hi), rhs - (min - lo));
            let mut keep = 0u64;
            let mut bits = m.to_u64();
            while bits != 0 {
                let d = bits.trailing_zeros() as i64 + 1;
                if (need_lo..=need_hi).contains(&(k * d)) {
                    keep |= 1 << (d - 1);
                }
                bits &= bits - 1;
            }
            self.keep(c, keep)?;
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::model::variant::{DotRule, Line, Sandwich};
    use crate::model::{Constraint, Shape};

    fn empty(n: usize, rules: Vec<Constraint>) -> (Variants, Vec<u16>) {
        let shape = Arc::new(Shape::standard(n, false).unwrap());
        let puzzle = Puzzle::new(shape, vec![0; n * n])
            .unwrap()
            .with_constraints(rules)
            .unwrap();
        let all = (1u16 << n) - 1;
        (Variants::new(&puzzle).unwrap(), vec![all; n * n])
    }

    #[test]
    fn a_sandwich_places_its_ends_before_they_are_placed() {
        // 4×4, first row: 5 between the 1 and the 4 needs both 2 and 3 there, so the ends are the
        // row's ends.
        let rule = Constraint::Sandwich(Sandwich {
            line: Line::Row(0),
            sum: 5,
        });
        let (v, mut cands) = empty(4, vec![rule]);
        let mut queue = vec![];
        assert_eq!(v.narrow(&mut cands, &mut queue), Some(true));
        let (ends, middle) = (0b1001, 0b0110);
        assert_eq!(&cands[..4], &[ends, middle, middle, ends]);
        // A clue no placement reaches is a contradiction at once.
        let rule = Constraint::Sandwich(Sandwich {
            line: Line::Row(0),
            sum: 4,
        });
        let (v, mut cands) = empty(4, vec![rule]);
        assert_eq!(v.narrow(&mut cands, &mut queue), None);
    }

    #[test]
    fn two_neighbouring_places_of_a_digit_take_its_neighbours_out_of_both() {
        // Non-consecutive 9×9: 5 can only go in the first two cells of the first row, so neither
        // of them holds 4 or 6 (one is 5, the other its neighbour).
        let (v, mut cands) = empty(9, vec![Constraint::Negative(DotRule::Difference(1))]);
        let five = 1 << 4;
        for c in &mut cands[2..9] {
            *c &= !five;
        }
        let mut queue = vec![];
        assert_eq!(v.narrow(&mut cands, &mut queue), Some(false));
        assert_eq!(v.look_ahead(&mut cands, &mut queue), Some(true));
        let four_six = (1 << 3) | (1 << 5);
        assert_eq!(cands[0] & four_six, 0);
        assert_eq!(cands[1] & four_six, 0);
        assert_eq!(cands[9] & four_six, four_six, "a cell below keeps them");
    }
}
