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
//! This runs once per puzzle, so it allocates a handful of vectors and no more: the regions are
//! walked in one reused buffer, the sets land in one flat list, and a set already kept is
//! recognised by a fingerprint of its cells (a sum of hashed cell indices, independent of their
//! order). Two different sets sharing a fingerprint would drop the second: a redundant sum
//! left out narrows less, never wrongly.

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
        let Err(at) = seen.binary_search(&fingerprint(cells)) else {
            return;
        };
        seen.insert(at, fingerprint(cells));
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
    let n = shape.size();
    let house_total = (n * (n + 1) / 2) as i64;
    let mut out = ImpliedSums::default();
    if cages.is_empty() {
        return out;
    }
    let mut cage_of = vec![u32::MAX; n * n];
    for (i, (cells, _)) in cages.iter().enumerate() {
        cells.iter().for_each(|&c| cage_of[c as usize] = i as u32);
    }
    let mut seen: Vec<u64> = cages.iter().map(|(c, _)| fingerprint(c)).collect();
    seen.sort_unstable();
    // Regions as (first house, houses): each house, then the runs of rows (houses `0..n`) and
    // of columns (houses `n..2n`).
    let runs = (2..=MOST_LINES.min(n - 1))
        .flat_map(|k| (0..=n - k).flat_map(move |first| [(first, k), (n + first, k)]));
    let regions = (0..shape.house_count()).map(|h| (h, 1)).chain(runs);
    let (mut region, mut innies, mut outies, mut touched) = (vec![], vec![], vec![], vec![]);
    let mut inside = vec![false; n * n];
    let mut meets = vec![0usize; cages.len()];
    for (first, k) in regions {
        region.clear();
        (first..first + k).for_each(|h| region.extend(shape.house(h).iter().map(|&c| c as u16)));
        region.iter().for_each(|&c| inside[c as usize] = true);
        touched.clear();
        for &c in &region {
            let i = cage_of[c as usize];
            if i != u32::MAX {
                if meets[i as usize] == 0 {
                    touched.push(i as usize);
                }
                meets[i as usize] += 1;
            }
        }
        let whole = |i: usize| meets[i] == cages[i].0.len();
        let inner: i64 = touched
            .iter()
            .filter(|&&i| whole(i))
            .map(|&i| cages[i].1)
            .sum();
        innies.clear();
        let mut caged_innies = true;
        for &c in &region {
            let i = cage_of[c as usize];
            if i == u32::MAX || !whole(i as usize) {
                innies.push(c);
                caged_innies &= i != u32::MAX;
            }
        }
        let innie_total = k as i64 * house_total - inner;
        if caged_innies {
            outies.clear();
            let mut crossing_total = 0;
            for &i in touched.iter().filter(|&&i| !whole(i)) {
                crossing_total += cages[i].1;
                let outside = cages[i].0.iter().filter(|&&c| !inside[c as usize]);
                outies.extend(outside);
            }
            out.keep(&mut seen, &outies, crossing_total - innie_total, n);
        }
        if innies.len() < region.len() {
            out.keep(&mut seen, &innies, innie_total, n);
        }
        region.iter().for_each(|&c| inside[c as usize] = false);
        touched.iter().for_each(|&i| meets[i] = 0);
    }
    out
}

/// A 4×4 (2×2 boxes) with no givens and `cages` (cells, sum), for the tests here and in
/// [`super::cages`].
#[cfg(test)]
pub(super) fn killer4(cages: &[(&[u32], u32)]) -> crate::model::Puzzle {
    use crate::model::{Cage, Constraint, Puzzle};
    let shape = std::sync::Arc::new(Shape::standard(4, false).unwrap());
    let cages = cages
        .iter()
        .map(|(c, s)| Constraint::Cage(Cage::new(c.to_vec(), *s)))
        .collect();
    Puzzle::new(shape, vec![0; 16])
        .unwrap()
        .with_constraints(cages)
        .unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The implied sums of `cages` as owned `(cells, total)` pairs.
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
        let sums = implied_sums(p.shape(), &cages);
        let sums: Vec<(Vec<u16>, i64)> = sums.iter().map(|(c, t)| (c.to_vec(), t)).collect();
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
