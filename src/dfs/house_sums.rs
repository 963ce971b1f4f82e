//! The sums Killer cages imply through the houses ("innies and outies"), for [`super::cages`].
//!
//! Every house holds each digit `1..=n` once, so a *region* made of `k` disjoint houses adds up
//! to `k·n(n+1)/2`. The regions looked at are every house of the shape and every run of two or
//! three consecutive rows or columns ([`MOST_LINES`]; longer runs cost more to narrow, per node,
//! than they save on generated 9×9 Killers). Given a region:
//! - its *innies*, the cells not in a cage lying wholly inside it, add up to the region's total
//!   less those cages' sums;
//! - when every innie lies in a cage, its *outies*, the cells outside the region of the cages
//!   that cross its border, add up to those cages' sums less the innies' total.
//!
//! Each set of at most `n` cells, neither empty nor a cage's own cells, is kept once (sorted
//! cells). A set within one house has distinct digits and the caller treats it as a cage; any
//! other set as a plain linear sum.
//!
//! This runs once per puzzle that leaves its root open. Cells, regions and cages are bit sets
//! (two words up to 128 cells, 64 past that), so a region's whole and crossing cages, its innies
//! and its outies are a few word operations per cage; the sets land in one flat list, and a set
//! already kept is recognised by a fingerprint of its cells (a sum of hashed cell indices,
//! independent of their order). Two different sets sharing a fingerprint would drop the
//! second: a redundant sum left out narrows less, never wrongly.

use crate::model::Shape;

/// Most consecutive rows (or columns) joined into one region.
const MOST_LINES: usize = 3;

/// The implied sums of one puzzle: sets of cells (sorted) and their totals, in one flat list.
#[derive(Default)]
pub(super) struct ImpliedSums {
    cells: Vec<u16>,
    /// Per set: the end of its cells in `cells` and its total.
    sets: Vec<(u32, i64)>,
}

impl ImpliedSums {
    /// Every set: `(sorted cells, total)`.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&[u16], i64)> + '_ {
        let starts = std::iter::once(0).chain(self.sets.iter().map(|&(end, _)| end));
        starts
            .zip(&self.sets)
            .map(|(a, &(b, total))| (&self.cells[a as usize..b as usize], total))
    }

    /// Keeps `cells` (any order) with `total` when it is new, not empty and at most `n` long.
    fn keep(&mut self, seen: &mut Vec<u64>, cells: &[u16], total: i64, n: usize) {
        if cells.is_empty() || cells.len() > n {
            return;
        }
        let print = fingerprint(cells);
        let Err(at) = seen.binary_search(&print) else {
            return;
        };
        seen.insert(at, print);
        let from = self.cells.len();
        self.cells.extend_from_slice(cells);
        self.cells[from..].sort_unstable();
        self.sets.push((self.cells.len() as u32, total));
    }
}

/// An order-independent fingerprint of a set of cells.
fn fingerprint(cells: &[u16]) -> u64 {
    cells.iter().fold(0u64, |f, &c| {
        // splitmix64's finaliser: every bit of the index moves about half the bits.
        let mut x = (c as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        f.wrapping_add(x ^ (x >> 31))
    })
}

/// The implied sums of the `cages` (cells, sum) of a puzzle of `shape`; empty without cages. A
/// total may be out of reach (even negative): the puzzle then has no solution.
pub(super) fn implied_sums(shape: &Shape, cages: &[(&[u16], i64)]) -> ImpliedSums {
    if shape.cells() <= 128 {
        implied_sums_in::<2>(shape, cages)
    } else {
        implied_sums_in::<64>(shape, cages)
    }
}

/// A set of cells of a grid of at most `64 · W` cells, one bit per cell.
#[derive(Clone, Copy, PartialEq)]
struct Cells<const W: usize>([u64; W]);

impl<const W: usize> Cells<W> {
    const EMPTY: Self = Cells([0; W]);

    fn of(cells: impl IntoIterator<Item = u16>) -> Self {
        let mut s = Self::EMPTY;
        cells
            .into_iter()
            .for_each(|c| s.0[c as usize / 64] |= 1 << (c % 64));
        s
    }
    fn zip(self, other: Self, f: impl Fn(u64, u64) -> u64) -> Self {
        Cells(std::array::from_fn(|i| f(self.0[i], other.0[i])))
    }
    fn or(self, other: Self) -> Self {
        self.zip(other, |a, b| a | b)
    }
    fn minus(self, other: Self) -> Self {
        self.zip(other, |a, b| a & !b)
    }
    fn len(self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    /// The cells in increasing order, into `out` (cleared first).
    fn list(self, out: &mut Vec<u16>) {
        out.clear();
        for (i, &w) in self.0.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                out.push((64 * i) as u16 + w.trailing_zeros() as u16);
                w &= w - 1;
            }
        }
    }
}

/// [`implied_sums`] with cell sets of `W` words: for each region, the cages it meets are
/// whole (inside it) or crossing its border, and its innies and outies are a few set
/// operations.
fn implied_sums_in<const W: usize>(shape: &Shape, cages: &[(&[u16], i64)]) -> ImpliedSums {
    let n = shape.size();
    let house_total = (n * (n + 1) / 2) as i64;
    let mut out = ImpliedSums::default();
    if cages.is_empty() {
        return out;
    }
    let masks: Vec<Cells<W>> = cages
        .iter()
        .map(|(c, _)| Cells::of(c.iter().copied()))
        .collect();
    let caged = masks.iter().fold(Cells::EMPTY, |a, &m| a.or(m));
    let houses: Vec<Cells<W>> = (0..shape.house_count())
        .map(|h| Cells::of(shape.house(h).iter().map(|&c| c as u16)))
        .collect();
    // Per house, the cages meeting it, as a set of cage indices (no more cages than cells).
    let mut meeting = vec![Cells::<W>::EMPTY; shape.house_count()];
    for (i, (cells, _)) in cages.iter().enumerate() {
        for &c in cells.iter() {
            for &h in shape.houses_of(c as usize) {
                meeting[h as usize].0[i / 64] |= 1 << (i % 64);
            }
        }
    }
    let mut seen: Vec<u64> = cages.iter().map(|(c, _)| fingerprint(c)).collect();
    seen.sort_unstable();
    // Regions as (first house, houses): each house, then the runs of rows (houses `0..n`) and
    // of columns (houses `n..2n`).
    let runs = (2..=MOST_LINES.min(n - 1))
        .flat_map(|k| (0..=n - k).flat_map(move |first| [(first, k), (n + first, k)]));
    let regions = (0..shape.house_count()).map(|h| (h, 1)).chain(runs);
    let (mut cells, mut met) = (vec![], vec![]);
    for (first, k) in regions {
        let region = houses[first..first + k]
            .iter()
            .fold(Cells::EMPTY, |a, &h| a.or(h));
        let (mut whole, mut crossing) = (Cells::EMPTY, Cells::EMPTY);
        let (mut inner, mut crossing_total) = (0, 0);
        let meets = meeting[first..first + k]
            .iter()
            .fold(Cells::EMPTY, |a, &m| a.or(m));
        meets.list(&mut met);
        for &i in &met {
            let (m, sum) = (masks[i as usize], cages[i as usize].1);
            if m.minus(region) == Cells::EMPTY {
                whole = whole.or(m);
                inner += sum;
            } else {
                crossing = crossing.or(m);
                crossing_total += sum;
            }
        }
        let innies = region.minus(whole);
        let innie_total = k as i64 * house_total - inner;
        if innies.minus(caged) == Cells::EMPTY {
            let outies = crossing.minus(region);
            if outies.len() <= n {
                outies.list(&mut cells);
                out.keep(&mut seen, &cells, crossing_total - innie_total, n);
            }
        }
        if innies != region && innies.len() <= n {
            innies.list(&mut cells);
            out.keep(&mut seen, &cells, innie_total, n);
        }
    }
    out
}

/// A 4×4 (2×2 boxes) with no givens and `cages` (cells, sum), for the tests here and in
/// [`super::cages`].
#[cfg(test)]
pub(super) fn killer4(cages: &[(&[u32], u32)]) -> crate::model::Puzzle {
    killer(4, cages)
}

/// [`killer4`] on a standard grid of side `n`.
#[cfg(test)]
pub(super) fn killer(n: usize, cages: &[(&[u32], u32)]) -> crate::model::Puzzle {
    use crate::model::{Cage, Constraint, Puzzle};
    let shape = std::sync::Arc::new(Shape::standard(n, false).unwrap());
    let cages = cages
        .iter()
        .map(|(c, s)| Constraint::Cage(Cage::new(c.to_vec(), *s)))
        .collect();
    Puzzle::new(shape, vec![0; n * n])
        .unwrap()
        .with_constraints(cages)
        .unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The implied sums of `cages` as owned `(cells, total)` pairs, the same with cell sets of
    /// either width.
    fn sums(cages: &[(&[u32], u32)]) -> Vec<(Vec<u16>, i64)> {
        let p = killer4(cages);
        let cells: Vec<Vec<u16>> = p
            .cages()
            .map(|c| c.cells().iter().map(|&c| c as u16).collect())
            .collect();
        let cages: Vec<(&[u16], i64)> = cells
            .iter()
            .zip(p.cages())
            .map(|(cells, c)| (&cells[..], c.sum() as i64))
            .collect();
        let list = |s: ImpliedSums| -> Vec<(Vec<u16>, i64)> {
            s.iter().map(|(c, t)| (c.to_vec(), t)).collect()
        };
        let sums = list(implied_sums(p.shape(), &cages));
        assert_eq!(sums, list(implied_sums_in::<64>(p.shape(), &cages)));
        // Each set once.
        assert!(sums
            .iter()
            .enumerate()
            .all(|(i, a)| sums[..i].iter().all(|b| a.0 != b.0)));
        sums
    }

    #[test]
    fn innies_and_outies_of_a_house() {
        // Row 0 (total 10) holds the cage {0, 1} = 3; the cage {2, 6} = 7 crosses into row 1.
        let sums = sums(&[(&[0, 1], 3), (&[2, 6], 7)]);
        // Innies of row 0: cells 2 and 3 add up to 7. Not every innie is caged: no outie.
        assert!(sums.contains(&(vec![2, 3], 7)));
        // Box 0 = {0, 1, 4, 5}: innies {4, 5} = 7.
        assert!(sums.contains(&(vec![4, 5], 7)));
        // Column 2 = {2, 6, 10, 14} holds the cage {2, 6}: innies {10, 14} = 3.
        assert!(sums.contains(&(vec![10, 14], 3)));
        // The cages themselves are not repeated.
        assert!(!sums
            .iter()
            .any(|(c, _)| c == &vec![0, 1] || c == &vec![2, 6]));
    }

    #[test]
    fn outies_when_every_innie_is_caged() {
        // Row 0 is covered by {0, 1} = 3 and {2, 3, 7} = 12: its outie 7 is 12 + 3 − 10 = 5.
        assert!(sums(&[(&[0, 1], 3), (&[2, 3, 7], 12)]).contains(&(vec![7], 5)));
    }

    #[test]
    fn no_cages_no_sums() {
        assert!(sums(&[]).is_empty());
    }
}
