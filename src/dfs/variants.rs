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
//!   line, that hold every fixed digit, meet every cell's candidates and have each of their
//!   digits among some cell's; a digit of every such run goes in the line, so the one cell
//!   left for it takes it;
//! - a **sum** (arrow, little killer) bounds each term by the least and greatest the others can
//!   add (interval reasoning on `Σ cᵢ·xᵢ = rhs`);
//! - a **sandwich** keeps the digits that some placement of its 1 and its `n` supports: a pair
//!   of positions is possible when both ends may go there, no other cell must hold an end, and
//!   the cells between can reach the clue (the interval of their candidates' bounds, cut to the
//!   least and greatest sums of that many distinct digits of `2..n−1`); it supports the ends at
//!   its positions, each digit between that leaves the others a reachable rest, and any digit
//!   but an end outside. Once the 1 and the `n` are placed this is interval reasoning on the sum
//!   between them;
//! - **parity** and **domains** (candidate lists) mask their cells;
//! - a **contains** rule (quadruple) fails when fewer cells than a listed digit's count may still
//!   hold it, places it when exactly that many may, and, when the listed digits fill every cell,
//!   keeps only them there;
//! - a **between** (lockout) line keeps the pairs of end digits that leave every inner cell a
//!   candidate inside the ends' open interval (outside their closed one) and every group of inner
//!   cells sharing a house as many such digits as it has cells (they are distinct); the ends keep
//!   their digits of those pairs, the inner cells their candidates one of them allows (bitmask
//!   intervals per pair);
//! - a **skyscraper** clue keeps the digits that some assignment of the row's candidates with
//!   the clue's count of seen cells supports: dynamic programming over positions, with state
//!   (tallest so far, seen so far) and the tallest heights of a state as the bits of a `u128`,
//!   forward and backward passes. Digits may repeat in this relaxation; that the line is a house
//!   comes back in two facts: after `i` cells the tallest is at least `i`, and at the end it is
//!   `n`. A clue of 1 so places the `n` first, a clue of `n` the whole row;
//! - an **X-sum** clue keeps the first cell's digits `X` for which the first `X` cells can
//!   reach the clue (the bounds of their candidates, cut to the sums of `X − 1` distinct digits);
//!   a cell within reach of such an `X` keeps the digits that leave the others a reachable
//!   rest, the cells past the least such `X` everything.
//!
//! A full grid goes through the same narrowing, which then fails on any broken rule.

use super::Mask;
use crate::model::lower::{EdgeLine, LinearSum, PairRule, Rules};
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

/// The digits `1..=d` (`d ≤ 64`) as bits.
fn upto(d: i64) -> u64 {
    match d {
        ..=0 => 0,
        1..=63 => (1 << d) - 1,
        _ => u64::MAX,
    }
}

/// The digits `lo..=hi` as bits.
fn digits_in(lo: i64, hi: i64) -> u64 {
    upto(hi) & !upto(lo - 1)
}

/// The least digit of a non-empty mask.
fn least_digit(m: u64) -> i64 {
    m.trailing_zeros() as i64 + 1
}

/// The greatest digit of a non-empty mask.
fn greatest_digit(m: u64) -> i64 {
    64 - m.leading_zeros() as i64
}

/// A digit a quadruple lists (as a bit; 0 past the side) and how many times it is listed.
type Want = (u64, u32);

/// A between or lockout line, for [`Cut::between`].
struct BetweenLine {
    a: u16,
    b: u16,
    cells: Vec<u16>,
    /// Inside the ends' open interval (between line), or outside their closed one (lockout).
    inside: bool,
    /// Positions in `cells` of the inner cells that share a house (two or more per group): they
    /// hold distinct digits, so the ends must leave room for that many.
    groups: Vec<Vec<usize>>,
}

impl BetweenLine {
    /// The digits an inner cell may hold when the ends hold `x` and `y`.
    fn room(&self, x: i64, y: i64, all: u64) -> u64 {
        let (lo, hi) = (x.min(y), x.max(y));
        if self.inside {
            digits_in(lo + 1, hi - 1)
        } else {
            upto(lo - 1) | (all & !upto(hi))
        }
    }
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
    /// Parity cells and candidate lists: a cell and the digits (bits) it may hold.
    masks: Vec<(u16, u64)>,
    /// Quadruples: the cells and the digits they must hold.
    contains: Vec<(Vec<u16>, Vec<Want>)>,
    betweens: Vec<BetweenLine>,
    /// Skyscraper clues: a row or column from the clue, and how many cells it sees.
    skyscrapers: Vec<(Vec<u16>, u32)>,
    /// X-sum clues: a row or column from the clue, and the sum of its first `X` cells.
    xsums: Vec<(Vec<u16>, i64)>,
    /// Every digit of `1..=n`, as bits.
    all: u64,
    /// For the pair lookahead (empty without pairs): every house, the grid's and the rules'.
    houses: Vec<Vec<u16>>,
    /// For each cell `c`, its pair partners `p` with, per digit index `d`, the digits (as bits)
    /// of `c` that leave `p` no room for `d` under their pairs.
    partners: Vec<Vec<Partner>>,
}

impl Variants {
    /// The variant rules of `puzzle`; `None` when it has none.
    pub(super) fn new(puzzle: &Puzzle) -> Option<Variants> {
        Variants::of_rules(puzzle, &Rules::of(puzzle))
    }

    /// The lowered rules `rules` of `puzzle` (all of them, or one constraint's); `None` when
    /// empty.
    fn of_rules(puzzle: &Puzzle, rules: &Rules) -> Option<Variants> {
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
        let mut masks: Vec<(u16, u64)> = rules
            .parity
            .iter()
            .map(|&(c, is_odd)| (c as u16, if is_odd { odd } else { all & !odd }))
            .collect();
        masks.extend(rules.domains.iter().map(|(c, digits)| {
            let m = digits.iter().fold(0, |m, &d| m | bit(d));
            (*c as u16, m)
        }));
        let contains = rules
            .contains
            .iter()
            .map(|q| {
                let mut wants: Vec<Want> = vec![];
                for &d in &q.digits {
                    let b = if d as usize <= n { bit(d) } else { 0 };
                    match wants.iter_mut().find(|w| w.0 == b) {
                        Some(w) => w.1 += 1,
                        None => wants.push((b, 1)),
                    }
                }
                (cells16(&q.cells), wants)
            })
            .collect();
        let betweens = rules
            .betweens
            .iter()
            .map(|b| {
                let cells = cells16(&b.cells);
                let mut groups: Vec<Vec<usize>> = vec![];
                for house in puzzle.shape().houses() {
                    let g: Vec<usize> = (0..cells.len())
                        .filter(|&i| house.contains(&b.cells[i]))
                        .collect();
                    if g.len() > 1 && !groups.contains(&g) {
                        groups.push(g);
                    }
                }
                BetweenLine {
                    a: b.a as u16,
                    b: b.b as u16,
                    cells,
                    inside: b.inside,
                    groups,
                }
            })
            .collect();
        let edge = |l: &EdgeLine| (cells16(&l.cells), l.value);
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
            masks,
            contains,
            betweens,
            skyscrapers: rules.skyscrapers.iter().map(edge).collect(),
            xsums: rules
                .xsums
                .iter()
                .map(|l| (cells16(&l.cells), l.value as i64))
                .collect(),
            all,
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
        for &(c, mask) in &self.masks {
            cut.keep(c, mask)?;
        }
        for (cells, wants) in &self.contains {
            cut.contains(cells, wants)?;
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
        for line in &self.betweens {
            cut.between(line, self.all)?;
        }
        for (line, seen) in &self.skyscrapers {
            cut.skyscraper(line, *seen)?;
        }
        for (line, total) in &self.xsums {
            cut.x_sum(line, *total, self.n)?;
        }
        Some(cut.progress)
    }

    /// Whether some cell has a partner (a pair rule other than "differ").
    pub(super) fn has_pairs(&self) -> bool {
        !self.houses.is_empty()
    }

    /// How many pair partners `cell` has.
    pub(super) fn partners(&self, cell: usize) -> u32 {
        self.partners[cell].len() as u32
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

/// One constraint's lowered forms ([`Rules::of_one`]), narrowed over candidate masks by the
/// same code as the search's nodes: what the logic engine's rule steps conclude.
pub struct RuleNarrower(Variants);

impl RuleNarrower {
    /// The narrower of `rules` (forms of `puzzle`); `None` when they are empty.
    pub fn new(puzzle: &Puzzle, rules: &Rules) -> Option<RuleNarrower> {
        Variants::of_rules(puzzle, rules).map(RuleNarrower)
    }

    /// Narrows `cands` (per cell, bit `d − 1` for digit `d`; a fixed cell holds its digit's bit
    /// alone) to a fixpoint of these rules; false on a contradiction.
    pub fn narrow(&self, cands: &mut [u64]) -> bool {
        let mut queue = vec![];
        loop {
            match self.0.narrow(cands, &mut queue) {
                None => return false,
                Some(false) => return true,
                Some(true) => queue.clear(),
            }
        }
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
        let (mut allowed, mut every) = (0u64, u64::MAX);
        for start in 0..=n - k {
            let w = ((1u64 << k) - 1) << start;
            // The run's digits all go in, one a cell: each cell needs one of them, and each
            // of them a cell.
            let (mut each_cell, mut union) = (true, 0u64);
            for &c in cells {
                let m = self.cands[c as usize].to_u64() & w;
                each_cell &= m != 0;
                union |= m;
            }
            if fixed & !w == 0 && each_cell && union == w {
                allowed |= w;
                every &= w;
            }
        }
        for &c in cells {
            self.keep(c, allowed)?;
        }
        // A digit of every possible run is in the line: with one cell left for it, it goes there.
        let mut must = every & allowed;
        while must != 0 {
            let d = must & must.wrapping_neg();
            must &= must - 1;
            let mut holders = cells
                .iter()
                .filter(|&&c| self.cands[c as usize].to_u64() & d != 0);
            match (holders.next(), holders.next()) {
                (None, _) => return None,
                (Some(&c), None) => self.keep(c, d)?,
                _ => {}
            }
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

    /// A quadruple: each wanted digit (a bit, 0 when past the side) at least its count of times
    /// among `cells`. Fails when fewer cells may hold it, places it when exactly that many may;
    /// when the wanted digits fill every cell, the cells hold only them.
    fn contains(&mut self, cells: &[u16], wants: &[Want]) -> Option<()> {
        let (mut wanted, mut total) = (0u64, 0usize);
        for &(d, k) in wants {
            let may = || {
                cells
                    .iter()
                    .filter(|&&c| self.cands[c as usize].to_u64() & d != 0)
            };
            let places = may().count();
            if places < k as usize {
                return None;
            }
            if places == k as usize {
                let at: Vec<u16> = may().copied().collect();
                for c in at {
                    self.keep(c, d)?;
                }
            }
            wanted |= d;
            total += k as usize;
        }
        let open = cells
            .iter()
            .filter(|&&c| self.cands[c as usize].to_u64() & wanted != 0)
            .count();
        if open < total {
            return None;
        }
        if total == cells.len() {
            for &c in cells {
                self.keep(c, wanted)?;
            }
        }
        Some(())
    }

    /// A between (lockout) line: keeps the pairs of end digits `(x, y)` that leave every inner
    /// cell a candidate inside (outside) their interval and every group of inner cells sharing a
    /// house as many such digits as it has cells; each end keeps its digits of those pairs, each
    /// inner cell its candidates that one of them allows.
    fn between(&mut self, line: &BetweenLine, all: u64) -> Option<()> {
        let (ends_a, ends_b) = (
            self.cands[line.a as usize].to_u64(),
            self.cands[line.b as usize].to_u64(),
        );
        let inner: Vec<u64> = line
            .cells
            .iter()
            .map(|&c| self.cands[c as usize].to_u64())
            .collect();
        let unions: Vec<(u64, u32)> = line
            .groups
            .iter()
            .map(|g| (g.iter().fold(0, |u, &i| u | inner[i]), g.len() as u32))
            .collect();
        let (mut keep_a, mut keep_b) = (0u64, 0u64);
        let mut keep = vec![0u64; inner.len()];
        let mut xs = ends_a;
        while xs != 0 {
            let x = xs.trailing_zeros() as i64 + 1;
            xs &= xs - 1;
            let mut ys = ends_b;
            while ys != 0 {
                let y = ys.trailing_zeros() as i64 + 1;
                ys &= ys - 1;
                let room = line.room(x, y, all);
                if inner.iter().any(|&m| m & room == 0)
                    || unions.iter().any(|&(u, k)| (u & room).count_ones() < k)
                {
                    continue;
                }
                keep_a |= 1 << (x - 1);
                keep_b |= 1 << (y - 1);
                for (k, &m) in keep.iter_mut().zip(&inner) {
                    *k |= m & room;
                }
            }
        }
        self.keep(line.a, keep_a)?;
        self.keep(line.b, keep_b)?;
        for (&c, &m) in line.cells.iter().zip(&keep) {
            self.keep(c, m)?;
        }
        Some(())
    }

    /// A skyscraper clue: `line` (a row or column, from the clue) sees `seen` cells. Each cell
    /// keeps the digits that some assignment of the line's candidates with that count supports,
    /// found by dynamic programming over positions with state (tallest so far, seen so far).
    /// Digits may repeat in the relaxation, but since the line is a house its tallest is
    /// finally `n`, and after `i` cells it is at least `i`.
    fn skyscraper(&mut self, line: &[u16], seen: u32) -> Option<()> {
        let (k, v) = (line.len(), seen as usize);
        if v == 0 || v > k {
            return None;
        }
        // Sets of heights as bits of a u128: bit `t` for height `t`, 0 for "none yet".
        let cands: Vec<u128> = line
            .iter()
            .map(|&c| (self.cands[c as usize].to_u64() as u128) << 1)
            .collect();
        // Heights above the least of `m`.
        let above = |m: u128| match m {
            0 => 0,
            _ => (!0u128).checked_shl(m.trailing_zeros() + 1).unwrap_or(0),
        };
        // Heights below the greatest of `m`.
        let below = |m: u128| match m {
            0 => 0,
            _ => (1u128 << (127 - m.leading_zeros())) - 1,
        };
        let at_least = |i: usize| !((1u128 << i) - 1);
        let states = v + 1;
        // fwd[i·states + s]: the tallest heights of the first `i` cells with `s` seen.
        let mut fwd = vec![0u128; (k + 1) * states];
        fwd[0] = 1;
        for (i, &c) in cands.iter().enumerate() {
            for s in 0..states {
                let t = fwd[i * states + s];
                if t == 0 {
                    continue;
                }
                fwd[(i + 1) * states + s] |= t & above(c);
                if s < v {
                    fwd[(i + 1) * states + s + 1] |= c & above(t);
                }
            }
            for f in &mut fwd[(i + 1) * states..(i + 2) * states] {
                *f &= at_least(i + 1);
            }
        }
        // bwd[i·states + s]: the tallest heights before cell `i`, with `s` seen, from which the
        // rest ends with `v` seen and height `k`.
        let mut bwd = vec![0u128; (k + 1) * states];
        bwd[k * states + v] = 1 << k;
        for (i, &c) in cands.iter().enumerate().rev() {
            for s in 0..states {
                let mut t = bwd[(i + 1) * states + s] & above(c);
                if s < v {
                    t |= below(c & bwd[(i + 1) * states + s + 1]);
                }
                bwd[i * states + s] = t & at_least(i);
            }
        }
        for (i, (&cell, &c)) in line.iter().zip(&cands).enumerate() {
            let mut keep = 0u128;
            for s in 0..states {
                let t = fwd[i * states + s];
                if t == 0 {
                    continue;
                }
                keep |= c & below(t & bwd[(i + 1) * states + s]);
                if s < v {
                    keep |= c & bwd[(i + 1) * states + s + 1] & above(t);
                }
            }
            self.keep(cell, (keep >> 1) as u64)?;
        }
        Some(())
    }

    /// An X-sum clue: the first `X` cells of `line` (from the clue, `X` the first cell's digit)
    /// add up to `total`. The first cell keeps the `X` whose cells can reach the total (bounds of
    /// their candidates, cut to the sums of that many distinct digits); the cells within reach of
    /// such an `X` keep the digits that leave the others a reachable rest, the cells past the
    /// least of them everything.
    fn x_sum(&mut self, line: &[u16], total: i64, n: usize) -> Option<()> {
        let cands: Vec<u64> = line
            .iter()
            .map(|&c| self.cands[c as usize].to_u64())
            .collect();
        let n = n as i64;
        let least = |k: i64| k * (k + 1) / 2;
        let greatest = |k: i64| k * (2 * n - k + 1) / 2;
        // lo[j], hi[j]: the least and greatest sums of the candidates of cells 1..=j.
        let (mut lo, mut hi) = (vec![0i64; line.len()], vec![0i64; line.len()]);
        for j in 1..line.len() {
            lo[j] = lo[j - 1] + least_digit(cands[j]);
            hi[j] = hi[j - 1] + greatest_digit(cands[j]);
        }
        let mut keep = vec![0u64; line.len()];
        let mut reach = line.len();
        let mut xs = cands[0];
        while xs != 0 {
            let x = xs.trailing_zeros() as usize + 1;
            xs &= xs - 1;
            if x > line.len() {
                continue;
            }
            let q = x as i64 - 1;
            let rest = total - x as i64;
            let (min, max) = (lo[x - 1], hi[x - 1]);
            if rest < min.max(least(q)) || rest > max.min(greatest(q)) {
                continue;
            }
            keep[0] |= bit(x as u32);
            reach = reach.min(x);
            for (k, &m) in keep.iter_mut().zip(&cands).take(x).skip(1) {
                let others_lo = (min - least_digit(m)).max(least(q - 1));
                let others_hi = (max - greatest_digit(m)).min(greatest(q - 1));
                *k |= m & digits_in(rest - others_hi, rest - others_lo);
            }
        }
        for (k, &m) in keep.iter_mut().zip(&cands).skip(reach) {
            *k |= m;
        }
        for (&c, &m) in line.iter().zip(&keep) {
            self.keep(c, m)?;
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
    use crate::model::variant::{DotRule, EdgeClue, Line, Sandwich};
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

    /// Narrows `cands` by the rules alone until nothing changes; `None` on a contradiction.
    fn settle(v: &Variants, cands: &mut [u16]) -> Option<()> {
        let mut queue = vec![];
        while v.narrow(cands, &mut queue)? {}
        Some(())
    }

    /// Digits as a mask.
    fn ds(digits: &[u32]) -> u16 {
        digits.iter().fold(0, |m, &d| m | bit(d) as u16)
    }

    fn clue(row: u32, from_end: bool, value: u32) -> EdgeClue {
        EdgeClue {
            line: Line::Row(row),
            from_end,
            value,
        }
    }

    #[test]
    fn candidates_mask_their_cell_and_an_empty_list_fails() {
        let rule = |digits: Vec<u32>| Constraint::Candidates { cell: 5, digits };
        let (v, mut cands) = empty(4, vec![rule(vec![2, 4])]);
        settle(&v, &mut cands).unwrap();
        assert_eq!(cands[5], ds(&[2, 4]));
        assert_eq!(cands[4], ds(&[1, 2, 3, 4]));
        let (v, mut cands) = empty(4, vec![rule(vec![])]);
        assert_eq!(settle(&v, &mut cands), None);
    }

    #[test]
    fn a_quadruple_places_a_digit_with_as_many_places_as_it_needs() {
        // 9×9, cells r1c2, r1c3, r2c2, r2c3 (two boxes): 3 twice, and r1c2, r2c2 cannot hold it,
        // so r1c3 and r2c3 hold 3.
        let cells = vec![1, 2, 10, 11];
        let rule = Constraint::Quadruple {
            cells: cells.clone(),
            digits: vec![3, 3],
        };
        let (v, mut cands) = empty(9, vec![rule]);
        cands[1] &= !ds(&[3]);
        cands[10] &= !ds(&[3]);
        settle(&v, &mut cands).unwrap();
        let all = ds(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        assert_eq!(
            [cands[1], cands[2], cands[10], cands[11]],
            [all & !ds(&[3]), ds(&[3]), all & !ds(&[3]), ds(&[3])]
        );
        // Four listed digits fill the four cells; a digit with no place left is a contradiction.
        let rule = Constraint::Quadruple {
            cells: cells.clone(),
            digits: vec![1, 2, 5, 9],
        };
        let (v, mut cands) = empty(9, vec![rule.clone()]);
        settle(&v, &mut cands).unwrap();
        assert!(cells
            .iter()
            .all(|&c| cands[c as usize] == ds(&[1, 2, 5, 9])));
        assert_eq!(cands[0], all);
        let (v, mut cands) = empty(9, vec![rule]);
        for &c in &cells {
            cands[c as usize] &= !ds(&[5]);
        }
        assert_eq!(settle(&v, &mut cands), None);
    }

    #[test]
    fn a_between_line_keeps_end_pairs_that_leave_its_inner_cells_room() {
        // 9×9, first row r1c1..r1c4: ends 1 or 3 and 3 or 4. Only (1, 4) leaves the two inner
        // cells (one row: distinct) two digits strictly between.
        let (v, mut cands) = empty(9, vec![Constraint::Between(vec![0, 1, 2, 3])]);
        cands[0] = ds(&[1, 3]);
        cands[3] = ds(&[3, 4]);
        settle(&v, &mut cands).unwrap();
        assert_eq!(&cands[..4], &[ds(&[1]), ds(&[2, 3]), ds(&[2, 3]), ds(&[4])]);
        // A three-cell line whose ends are two apart still fits one inner cell.
        let (v, mut cands) = empty(9, vec![Constraint::Between(vec![0, 1, 2])]);
        cands[0] = ds(&[1, 3]);
        cands[2] = ds(&[3, 4]);
        settle(&v, &mut cands).unwrap();
        assert_eq!(&cands[..3], &[ds(&[1]), ds(&[2, 3]), ds(&[3, 4])]);
    }

    #[test]
    fn a_lockout_line_keeps_its_inner_cells_outside_the_ends() {
        // 9×9, gap 4, first end 4: the other end is 8 or 9, the inner cell below 4 or 9.
        let rule = Constraint::Lockout {
            cells: vec![0, 1, 2],
            gap: 4,
        };
        let (v, mut cands) = empty(9, vec![rule]);
        cands[0] = ds(&[4]);
        settle(&v, &mut cands).unwrap();
        assert_eq!(&cands[..3], &[ds(&[4]), ds(&[1, 2, 3, 9]), ds(&[8, 9])]);
    }

    #[test]
    fn a_skyscraper_clue_keeps_the_digits_of_rows_that_see_its_count() {
        let all = ds(&[1, 2, 3, 4]);
        // 4×4, 2 seen from the left: the first cell is not the 4 and the second not the 3 (the
        // rows 1-4-x-x, 2-1-4-3, 2-4-x-x, 3-x-x-x with the 4 after the 3).
        let (v, mut cands) = empty(4, vec![Constraint::Skyscraper(clue(0, false, 2))]);
        settle(&v, &mut cands).unwrap();
        assert_eq!(&cands[..4], &[ds(&[1, 2, 3]), ds(&[1, 2, 4]), all, all]);
        // 1 seen from the right: the 4 last; 4 seen: the row rises.
        let (v, mut cands) = empty(4, vec![Constraint::Skyscraper(clue(1, true, 1))]);
        settle(&v, &mut cands).unwrap();
        assert_eq!(cands[7], ds(&[4]));
        assert_eq!(cands[6], ds(&[1, 2, 3]));
        let (v, mut cands) = empty(4, vec![Constraint::Skyscraper(clue(0, false, 4))]);
        settle(&v, &mut cands).unwrap();
        assert_eq!(&cands[..4], &[ds(&[1]), ds(&[2]), ds(&[3]), ds(&[4])]);
        // A row set to 3-1-2-4 sees 2, not 3.
        let (v, mut cands) = empty(4, vec![Constraint::Skyscraper(clue(0, false, 3))]);
        cands[..4].copy_from_slice(&[ds(&[3]), ds(&[1]), ds(&[2]), ds(&[4])]);
        assert_eq!(settle(&v, &mut cands), None);
    }

    #[test]
    fn an_x_sum_clue_keeps_the_counts_that_reach_it() {
        let all = ds(&[1, 2, 3, 4]);
        // 4×4, X-sum 3 from the left: only 2 + 1 reaches it (1 gives 1, 3 and 4 give more).
        let (v, mut cands) = empty(4, vec![Constraint::XSum(clue(0, false, 3))]);
        settle(&v, &mut cands).unwrap();
        assert_eq!(&cands[..4], &[ds(&[2]), ds(&[1]), all, all]);
        // X-sum 9 from the right: 4 would sum the whole row (10), so X is 3 and the next two
        // cells add up to 6 (digits 2 to 4 by bounds; the row's 3 is the houses' to remove).
        let (v, mut cands) = empty(4, vec![Constraint::XSum(clue(1, true, 9))]);
        settle(&v, &mut cands).unwrap();
        let middle = ds(&[2, 3, 4]);
        assert_eq!(&cands[4..8], &[all, middle, middle, ds(&[3])]);
        // X-sum 2 is out of reach.
        let (v, mut cands) = empty(4, vec![Constraint::XSum(clue(0, false, 2))]);
        assert_eq!(settle(&v, &mut cands), None);
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
