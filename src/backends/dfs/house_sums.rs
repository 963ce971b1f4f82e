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

use std::collections::BTreeSet;

use crate::model::Puzzle;

/// Most consecutive rows (or columns) joined into one region.
const MOST_LINES: usize = 3;

/// The implied sums of `puzzle`'s cages: `(sorted cells, total)`; empty without cages. A total
/// may be out of reach (even negative): the puzzle then has no solution.
pub(super) fn implied_sums(puzzle: &Puzzle) -> Vec<(Vec<u32>, i64)> {
    let shape = puzzle.shape();
    let n = shape.size();
    let house_total = (n * (n + 1) / 2) as i64;
    let cages: Vec<(&[u32], i64)> = puzzle
        .cages()
        .map(|c| (c.cells(), c.sum() as i64))
        .collect();
    if cages.is_empty() {
        return vec![];
    }
    let mut cage_of = vec![usize::MAX; n * n];
    for (i, (cells, _)) in cages.iter().enumerate() {
        cells.iter().for_each(|&c| cage_of[c as usize] = i);
    }
    let mut regions: Vec<Vec<u32>> = shape.houses().map(|h| h.to_vec()).collect();
    for k in 2..=MOST_LINES.min(n - 1) {
        for first in 0..=n - k {
            for line in [0, n] {
                let houses = (first..first + k).map(|h| shape.house(line + h));
                regions.push(houses.flatten().copied().collect());
            }
        }
    }
    let mut seen: BTreeSet<Vec<u32>> = cages.iter().map(|(c, _)| sorted(c.to_vec())).collect();
    let mut out = vec![];
    let mut keep = |cells: Vec<u32>, total: i64| {
        let cells = sorted(cells);
        if !cells.is_empty() && cells.len() <= n && seen.insert(cells.clone()) {
            out.push((cells, total));
        }
    };
    let mut inside = vec![false; n * n];
    let mut meets = vec![0usize; cages.len()];
    for region in &regions {
        region.iter().for_each(|&c| inside[c as usize] = true);
        let mut touched = vec![];
        for &c in region {
            let i = cage_of[c as usize];
            if i != usize::MAX {
                if meets[i] == 0 {
                    touched.push(i);
                }
                meets[i] += 1;
            }
        }
        let whole = |i: usize| meets[i] == cages[i].0.len();
        let inner: i64 = touched
            .iter()
            .filter(|&&i| whole(i))
            .map(|&i| cages[i].1)
            .sum();
        let innies: Vec<u32> = region
            .iter()
            .copied()
            .filter(|&c| cage_of[c as usize] == usize::MAX || !whole(cage_of[c as usize]))
            .collect();
        let innie_total = (region.len() / n) as i64 * house_total - inner;
        if innies.iter().all(|&c| cage_of[c as usize] != usize::MAX) {
            let crossing = touched.iter().filter(|&&i| !whole(i));
            let outies = crossing.clone().flat_map(|&i| cages[i].0.iter().copied());
            let outies = outies.filter(|&c| !inside[c as usize]).collect();
            let crossing_total: i64 = crossing.map(|&i| cages[i].1).sum();
            keep(outies, crossing_total - innie_total);
        }
        if innies.len() < region.len() {
            keep(innies, innie_total);
        }
        region.iter().for_each(|&c| inside[c as usize] = false);
        touched.iter().for_each(|&i| meets[i] = 0);
    }
    out
}

fn sorted(mut cells: Vec<u32>) -> Vec<u32> {
    cells.sort_unstable();
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Cage, Constraint, Shape};
    use std::sync::Arc;

    /// A 4×4 (2×2 boxes) with `cages` (cells, sum).
    fn puzzle(cages: &[(&[u32], u32)]) -> Puzzle {
        let shape = Arc::new(Shape::standard(4, false).unwrap());
        let cages = cages
            .iter()
            .map(|(c, s)| Constraint::Cage(Cage::new(c.to_vec(), *s)))
            .collect();
        Puzzle::new(shape, vec![0; 16])
            .unwrap()
            .with_constraints(cages)
            .unwrap()
    }

    #[test]
    fn innies_and_outies_of_a_house() {
        // Row 0 (total 10) holds the cage {0, 1} = 3; the cage {2, 6} = 7 crosses into row 1.
        let p = puzzle(&[(&[0, 1], 3), (&[2, 6], 7)]);
        let sums = implied_sums(&p);
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
        let p = puzzle(&[(&[0, 1], 3), (&[2, 3, 7], 12)]);
        assert!(implied_sums(&p).contains(&(vec![7], 5)));
    }

    #[test]
    fn no_cages_no_sums() {
        assert!(implied_sums(&puzzle(&[])).is_empty());
    }
}
