//! Sums that Killer cages imply by *set equivalence*: rows against columns, once per puzzle.
//!
//! `k` rows and `k` columns hold the same digits, `k` of each, so the digits of the rows'
//! cells outside the columns add up to those of the columns' cells outside the rows. A cage
//! lying mostly on one side of that equation can be traded for its sum and its other cells,
//! which shrinks the equation; what is left is `Σ plus − Σ minus = total` over few cells.
//! Those cells fall into *groups* of distinct digits (each group within one house or cage),
//! and each group's sum has a least and a greatest value (the smallest or largest distinct
//! digits its cells may take). When the equation's total is the greatest (or least) value its
//! left side can take, every group must take its own extreme: each group is then an implied
//! cage with that sum.
//!
//! This is how setters' boxless Killers are broken in (a puzzle published as "Solver needs
//! SET"): there, in rows 1, 6 and 7 against columns 3, 4 and 9, nine cells of sum-12 cages
//! outside the rows must add up to exactly 54 less than nine cells of sum-18 cages, which only
//! three `{1,2,3}` triples and three `{7,8,9}` triples reach. Neither sum propagation nor the
//! innies and outies of single runs of rows see it; with the implied cages, `dfs`, `sat` and
//! `cp` settle that puzzle in milliseconds instead of seconds.
//!
//! Every pair of `k` rows and `k` columns is tried for `k` up to [`MOST_LINES`], on grids of at
//! most [`MAX_SIDE`] (cell sets are one 128-bit word) whose regions are rows or columns
//! ([`boxless`]): there the lines are the only houses, and the innies and outies of single
//! houses see little. With boxes, a 9×9 Killer's many small cages leave thousands of
//! equations to shrink and group: milliseconds a puzzle, more than `dfs` takes for most
//! Killers, and no change in the guesses `dfs` makes on the benchmark Killer sets.
//!
//! The bounds use the caller's candidates (the givens, or a propagated root), so the cages are
//! implied by the puzzle under those candidates: a solution meets them. Nothing is derived
//! from an equation no assignment of the candidates can meet; the search finds that
//! contradiction itself.

use super::{Cage, Shape};

/// Most rows (and columns) on each side of an equation: `C(9,3)² = 7,056` pairs on a 9×9.
pub const MOST_LINES: usize = 3;
/// Largest side looked at: 121 cells fit a 128-bit set.
pub const MAX_SIDE: usize = 11;
/// Most cells an equation may keep to be looked at, in lines' worth: `2n`.
const MOST_LINES_OF_CELLS: usize = 2;

/// A set of cells within one house or cage (so of distinct digits) whose digits add up to
/// `sum`: a cage the puzzle implies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImpliedCage {
    /// Row-major cell indices, increasing.
    pub cells: Vec<u32>,
    pub sum: u32,
}

/// The cages that set equivalence implies for a puzzle of `shape` with Killer cages `cages`
/// under the candidates `domains` (per cell, bit `d − 1` for digit `d`; a single bit fixes the
/// cell). Empty without cages, past [`MAX_SIDE`], or when nothing is tight. None repeats a
/// cage of the puzzle or another implied cage.
pub fn implied_cages<'a>(
    shape: &Shape,
    cages: impl IntoIterator<Item = &'a Cage>,
    domains: &[u64],
) -> Vec<ImpliedCage> {
    let n = shape.size();
    if domains.len() != n * n || !boxless(shape) {
        return vec![];
    }
    let eq = Equations::new(shape, cages, domains);
    if eq.cages.is_empty() {
        return vec![];
    }
    let mut out: Vec<ImpliedCage> = vec![];
    let mut seen: Vec<u128> = eq.cages.iter().map(|&(m, _)| m).collect();
    let lines: Vec<u128> = (0..2 * n).map(|h| house_set(shape, h)).collect();
    let (rows, cols) = lines.split_at(n);
    for k in 1..=MOST_LINES.min(n / 2) {
        // Per set of k rows (and of k columns): its cells, and the most that trading cages
        // can take out of an equation ([`Equations::gain`]).
        let sets = |lines: &[u128]| -> Vec<(u128, u32, usize)> {
            let mut out = vec![];
            for_each_subset(n, k, &mut |s| {
                let cells = s.iter().fold(0, |a, &i| a | lines[i]);
                let mask = s.iter().fold(0, |a, &i| a | 1 << i);
                out.push((cells, mask, eq.gain(cells)));
            });
            out
        };
        let (row_sets, col_sets) = (sets(rows), sets(cols));
        for &(row_cells, row_mask, row_gain) in &row_sets {
            for &(col_cells, col_mask, col_gain) in &col_sets {
                let cells = ((row_cells ^ col_cells) & eq.open).count_ones() as usize;
                let cells = cells.saturating_sub(row_gain + col_gain);
                if cells > MOST_LINES_OF_CELLS * n {
                    continue; // trading cages cannot shrink it enough
                }
                let lines = (row_cells, row_mask, col_cells, col_mask);
                eq.solve(lines, &mut |cells, sum| {
                    if !seen.contains(&cells) {
                        seen.push(cells);
                        out.push(ImpliedCage {
                            cells: list(cells),
                            sum,
                        });
                    }
                });
            }
        }
    }
    out
}

/// Whether every region of `shape` is a row or a column: a Latin square, where the houses are
/// the lines alone. `false` past [`MAX_SIDE`], where this module looks at nothing.
pub fn boxless(shape: &Shape) -> bool {
    let n = shape.size();
    if n > MAX_SIDE {
        return false;
    }
    let lines: Vec<u128> = (0..2 * n).map(|h| house_set(shape, h)).collect();
    (2 * n..3 * n).all(|h| lines.contains(&house_set(shape, h)))
}

/// What every equation of one puzzle shares: its cages, the groups of distinct digits and the
/// candidates. Fixed cells (one candidate) are left out of everything: their digits are
/// constants.
struct Equations<'a> {
    n: usize,
    /// The cages' open cells, their sums less the fixed cells' digits, and the rows and
    /// the columns they meet (bit `i` for line `i`).
    cages: Vec<(u128, i64)>,
    lines_met: Vec<(u32, u32)>,
    /// Per cage, the row and column of each open cell: `coords[ends[i - 1]..ends[i]]`.
    coords: Vec<(u8, u8)>,
    ends: Vec<u32>,
    /// Houses, then cages: sets whose cells hold distinct digits.
    groups: Vec<u128>,
    /// Per cell, the groups holding it (indices into `groups`).
    groups_of_cell: Vec<Vec<u32>>,
    domains: &'a [u64],
    /// The cells with more than one candidate.
    open: u128,
}

impl<'a> Equations<'a> {
    fn new<'c>(
        shape: &Shape,
        cages: impl IntoIterator<Item = &'c Cage>,
        domains: &'a [u64],
    ) -> Self {
        let open = (0..domains.len())
            .filter(|&c| domains[c].count_ones() > 1)
            .fold(0u128, |a, c| a | 1 << c);
        let n = shape.size();
        let mut groups: Vec<u128> = (0..shape.house_count())
            .map(|h| house_set(shape, h) & open)
            .collect();
        let mut groups_of_cell: Vec<Vec<u32>> =
            (0..n * n).map(|c| shape.houses_of(c).to_vec()).collect();
        let (mut kept, mut lines_met, mut coords, mut ends) = (vec![], vec![], vec![], vec![]);
        for cage in cages {
            let cells = set_of(cage.cells()) & open;
            let fixed: i64 = cage
                .cells()
                .iter()
                .filter(|&&c| open >> c & 1 == 0)
                .map(|&c| digit(domains, c))
                .sum();
            for &c in cage.cells() {
                groups_of_cell[c as usize].push(groups.len() as u32);
            }
            groups.push(cells);
            if cells != 0 {
                kept.push((cells, i64::from(cage.sum()) - fixed));
                let met = list(cells).iter().fold((0, 0), |(r, k), &c| {
                    coords.push(((c as usize / n) as u8, (c as usize % n) as u8));
                    (r | 1 << (c as usize / n), k | 1 << (c as usize % n))
                });
                lines_met.push(met);
                ends.push(coords.len() as u32);
            }
        }
        Equations {
            n,
            cages: kept,
            lines_met,
            coords,
            ends,
            groups,
            groups_of_cell,
            domains,
            open,
        }
    }

    /// The most cells that trading cages can take out of an equation with `cells` on one side:
    /// a cage traded there loses its cells on that side and brings in its others, so it takes
    /// out at most `2·inside − size` (when no other line of the equation meets it).
    fn gain(&self, cells: u128) -> usize {
        self.cages
            .iter()
            .map(|&(cage, _)| (2 * (cage & cells).count_ones()).saturating_sub(cage.count_ones()))
            .sum::<u32>() as usize
    }

    /// The equation "rows `row_cells` against columns `col_cells`", shrunk by the cages; calls
    /// `found(cells, sum)` for each group it forces to an extreme.
    fn solve(&self, lines: (u128, u32, u128, u32), found: &mut impl FnMut(u128, u32)) {
        let (row_cells, row_mask, col_cells, col_mask) = lines;
        let (plus, minus) = (row_cells & !col_cells, col_cells & !row_cells);
        // Σ plus − Σ minus is 0 over all cells; over the open ones it is the fixed cells'
        // digits of the minus side less those of the plus side.
        let fixed = |mut cells: u128| -> i64 {
            cells &= !self.open;
            let mut sum = 0;
            while cells != 0 {
                sum += self.digit(cells.trailing_zeros());
                cells &= cells - 1;
            }
            sum
        };
        let mut total: i64 = fixed(minus) - fixed(plus);
        let (mut plus, mut minus) = (plus & self.open, minus & self.open);
        let mut from = 0;
        for (i, (&(cage, sum), &(rows, cols))) in self.cages.iter().zip(&self.lines_met).enumerate()
        {
            let to = self.ends[i] as usize;
            let coords = &self.coords[from..to];
            from = to;
            if rows & row_mask == 0 && cols & col_mask == 0 {
                continue; // on neither side
            }
            // Its cells on the plus side (in the rows, not the columns) and on the minus side,
            // from the lines alone (cages are disjoint: no trade before touched them).
            let (mut p, mut m) = (0, 0);
            for &(r, c) in coords {
                let (in_r, in_c) = (row_mask >> r & 1, col_mask >> c & 1);
                p += in_r & !in_c;
                m += in_c & !in_r;
            }
            let rest = coords.len() as u32 - p - m;
            let zero = cage & !plus & !minus;
            if m == 0 && p > rest {
                // Σ plus ⊇ most of the cage: trade them for the sum less its other cells.
                plus &= !cage;
                minus |= zero;
                total -= sum;
            } else if p == 0 && m > rest {
                minus &= !cage;
                plus |= zero;
                total += sum;
            }
        }
        let size = (plus | minus).count_ones() as usize;
        if size == 0 || size > MOST_LINES_OF_CELLS * self.n {
            return;
        }
        let (Some(pos), Some(neg)) = (self.groups_of(plus), self.groups_of(minus)) else {
            return;
        };
        let high: i64 = pos.iter().map(|g| g.2).sum::<i64>() - neg.iter().map(|g| g.1).sum::<i64>();
        let low: i64 = pos.iter().map(|g| g.1).sum::<i64>() - neg.iter().map(|g| g.2).sum::<i64>();
        if total < low || total > high || low == high {
            return; // no assignment meets it (the search will see), or nothing to learn
        }
        // At the top, each plus group takes its greatest sum and each minus group its least.
        let tight = if total == high {
            Some(true)
        } else if total == low {
            Some(false)
        } else {
            None
        };
        let Some(top) = tight else { return };
        for (groups, greatest) in [(&pos, top), (&neg, !top)] {
            for &(cells, least, most) in groups.iter() {
                if least != most {
                    found(cells, if greatest { most } else { least } as u32);
                }
            }
        }
    }

    /// The digit of a fixed cell.
    fn digit(&self, cell: u32) -> i64 {
        digit(self.domains, cell)
    }

    /// `cells` split into groups of distinct digits (greedily: of the groups holding the
    /// lowest cell left, the one holding the most cells left), each with its least and greatest
    /// sum; `None` when a group's candidates cannot give it distinct digits.
    fn groups_of(&self, mut cells: u128) -> Option<Vec<(u128, i64, i64)>> {
        let mut out = vec![];
        while cells != 0 {
            let first = cells.trailing_zeros() as usize;
            let best = self.groups_of_cell[first]
                .iter()
                .map(|&g| self.groups[g as usize] & cells)
                .max_by_key(|g| g.count_ones())
                .filter(|g| g.count_ones() > 1)
                .unwrap_or(cells & cells.wrapping_neg());
            cells &= !best;
            let (least, most) = self.bounds(best)?;
            out.push((best, least, most));
        }
        Some(out)
    }

    /// The least and greatest sums of distinct digits over `cells` under their candidates:
    /// each the tighter of the per-cell extremes and the extremes of their candidates' union.
    fn bounds(&self, cells: u128) -> Option<(i64, i64)> {
        let cells = list(cells);
        let union = cells
            .iter()
            .fold(0u64, |a, &c| a | self.domains[c as usize]);
        let k = cells.len();
        if (union.count_ones() as usize) < k {
            return None;
        }
        let digits: Vec<i64> = (0..64)
            .filter(|d| union >> d & 1 == 1)
            .map(|d| d + 1)
            .collect();
        let (low_union, high_union): (i64, i64) = (
            digits[..k].iter().sum(),
            digits[digits.len() - k..].iter().sum(),
        );
        let per_cell = |f: fn(u64) -> i64| cells.iter().map(|&c| f(self.domains[c as usize])).sum();
        let low_cells: i64 = per_cell(|m| i64::from(m.trailing_zeros()) + 1);
        let high_cells: i64 = per_cell(|m| 64 - i64::from(m.leading_zeros()));
        Some((low_union.max(low_cells), high_union.min(high_cells)))
    }
}

/// The digit of a fixed cell (its lowest candidate).
fn digit(domains: &[u64], cell: u32) -> i64 {
    i64::from(domains[cell as usize].trailing_zeros()) + 1
}

/// The cells of house `h` as a set, as the shape keeps them (the grids here have at most
/// `MAX_SIDE`² ≤ 128 cells).
fn house_set(shape: &Shape, h: usize) -> u128 {
    shape
        .house_bits(h)
        .unwrap_or_else(|| set_of(shape.house(h)))
}

/// The set of `cells` (each below 128).
fn set_of(cells: &[u32]) -> u128 {
    cells.iter().fold(0, |a, &c| a | 1 << c)
}

/// The cells of a set, increasing.
fn list(mut set: u128) -> Vec<u32> {
    let mut out = vec![];
    while set != 0 {
        out.push(set.trailing_zeros());
        set &= set - 1;
    }
    out
}

/// Calls `f` with every `k`-subset of `0..n`, increasing.
fn for_each_subset(n: usize, k: usize, f: &mut impl FnMut(&[usize])) {
    fn go(n: usize, k: usize, from: usize, chosen: &mut Vec<usize>, f: &mut impl FnMut(&[usize])) {
        if chosen.len() == k {
            f(chosen);
            return;
        }
        for i in from..=n - (k - chosen.len()) {
            chosen.push(i);
            go(n, k, i + 1, chosen, f);
            chosen.pop();
        }
    }
    go(n, k, 0, &mut Vec::with_capacity(k), f);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{read_puzzles, ReadOptions};
    use crate::model::{Constraint, Puzzle, Regions, Value};
    use crate::rng::GenRng;
    use std::sync::Arc;

    /// Each cell's candidates from the givens alone.
    fn given_domains(p: &Puzzle) -> Vec<u64> {
        let full = (1u64 << p.size()) - 1;
        p.givens()
            .iter()
            .map(|&g| if g == 0 { full } else { 1 << (g - 1) })
            .collect()
    }

    /// Every solution of `p` (houses, givens and cages), by plain backtracking over cells in
    /// order; `None` past `most`.
    fn solutions(p: &Puzzle, most: usize) -> Option<Vec<Vec<Value>>> {
        fn go(
            p: &Puzzle,
            g: &mut Vec<Value>,
            at: usize,
            most: usize,
            out: &mut Vec<Vec<Value>>,
        ) -> bool {
            let n = p.size();
            if at == g.len() {
                out.push(g.clone());
                return out.len() <= most;
            }
            let fixed = p.givens()[at];
            for d in 1..=n as Value {
                if fixed != 0 && d != fixed {
                    continue;
                }
                let peers_clash = p.shape().houses_of(at).iter().any(|&h| {
                    p.shape()
                        .house(h as usize)
                        .iter()
                        .any(|&c| (c as usize) < at && g[c as usize] == d)
                });
                g[at] = d;
                let cage_ok = p
                    .cages()
                    .filter(|c| c.cells().contains(&(at as u32)))
                    .all(|c| {
                        let placed: Vec<Value> = c
                            .cells()
                            .iter()
                            .filter(|&&x| (x as usize) <= at)
                            .map(|&x| g[x as usize])
                            .collect();
                        let sum: u32 = placed.iter().map(|&v| v as u32).sum();
                        let distinct = placed
                            .iter()
                            .all(|v| placed.iter().filter(|w| *w == v).count() == 1);
                        distinct
                            && if placed.len() == c.cells().len() {
                                sum == c.sum()
                            } else {
                                sum < c.sum()
                            }
                    });
                if !peers_clash && cage_ok && !go(p, g, at + 1, most, out) {
                    return false;
                }
            }
            g[at] = 0;
            true
        }
        let mut out = vec![];
        let mut g = vec![0; p.size() * p.size()];
        go(p, &mut g, 0, most, &mut out).then_some(out)
    }

    #[test]
    fn the_published_set_puzzle_gets_its_twelve_triples() {
        let text = include_str!("../../tests/data/published/solver-needs-set.json");
        let entry = read_puzzles(text, &ReadOptions::default())
            .remove(0)
            .unwrap();
        let p = &entry.puzzle;
        let mut cages = implied_cages(p.shape(), p.cages(), &given_domains(p));
        cages.sort_by_key(|c| c.cells.clone());
        let (low, high): (Vec<_>, Vec<_>) = cages.iter().partition(|c| c.sum == 6);
        assert_eq!((low.len(), high.len()), (6, 6), "{cages:?}");
        assert!(high.iter().all(|c| c.sum == 24 && c.cells.len() == 3));
        // R2C1, R2C6, R2C7 (row-major 9, 14, 15) are the sum-12 cages' cells of row 2.
        assert!(low.iter().any(|c| c.cells == [9, 14, 15]));
        // And the setter's solution meets every one.
        let solution = entry.expected.unwrap().solution.unwrap();
        for c in &cages {
            let sum: u32 = c
                .cells
                .iter()
                .map(|&x| solution.cells()[x as usize] as u32)
                .sum();
            assert_eq!(sum, c.sum, "{c:?}");
        }
    }

    /// Random Killers on 4×4, 5×5 and 6×6 grids (rows or columns as regions), each made
    /// from a random grid, with random givens: every solution meets every implied cage.
    #[test]
    fn every_solution_meets_every_implied_cage() {
        let mut rng = GenRng::seed(41);
        let (mut implied, mut puzzles) = (0, 0);
        while puzzles < 400 {
            let n = [4, 5, 6][rng.below(3)];
            let by_rows = rng.below(2) == 0;
            let region = |c: usize| if by_rows { c / n } else { c % n } as u32;
            let regions = Regions::Jigsaw((0..n * n).map(region).collect());
            let shape = Arc::new(Shape::new(n, regions, false).unwrap());
            // A grid: a Latin square by shifted rows, its rows, columns and digits shuffled,
            // kept when it fits the regions.
            let mut perm: Vec<usize> = (0..n).collect();
            let mut cols: Vec<usize> = (0..n).collect();
            let mut digits: Vec<usize> = (1..=n).collect();
            rng.shuffle(&mut perm);
            rng.shuffle(&mut cols);
            rng.shuffle(&mut digits);
            let grid: Vec<Value> = (0..n * n)
                .map(|c| digits[(perm[c / n] + cols[c % n]) % n] as Value)
                .collect();
            if !shape.houses().all(|h| {
                let seen = h.iter().fold(0u64, |a, &c| a | 1 << grid[c as usize]);
                seen.count_ones() as usize == n
            }) {
                continue;
            }
            // Cages: the cells in a random order, cut into runs of 1 to 4; about one in four
            // cells left out, and one in six given (one in three on 6×6, whose backtracking
            // would take long).
            let mut order: Vec<u32> = (0..(n * n) as u32).collect();
            rng.shuffle(&mut order);
            let mut cages = vec![];
            let mut rest = &order[..];
            while !rest.is_empty() {
                let k = (1 + rng.below(4)).min(rest.len());
                let (cells, tail) = rest.split_at(k);
                rest = tail;
                let distinct = cells.iter().all(|&a| {
                    cells
                        .iter()
                        .filter(|&&b| grid[b as usize] == grid[a as usize])
                        .count()
                        == 1
                });
                if rng.below(4) > 0 && distinct {
                    let sum = cells.iter().map(|&c| grid[c as usize] as u32).sum();
                    cages.push(Constraint::Cage(Cage::new(cells.to_vec(), sum)));
                }
            }
            let one_in = if n == 6 { 3 } else { 6 };
            let givens = grid
                .iter()
                .map(|&d| if rng.below(one_in) == 0 { d } else { 0 })
                .collect();
            let Ok(p) = Puzzle::new(shape, givens).and_then(|p| p.with_constraints(cages)) else {
                continue;
            };
            let Some(all) = solutions(&p, 300) else {
                continue;
            };
            puzzles += 1;
            for cage in implied_cages(p.shape(), p.cages(), &given_domains(&p)) {
                implied += 1;
                for s in &all {
                    let sum: u32 = cage.cells.iter().map(|&c| s[c as usize] as u32).sum();
                    assert_eq!(sum, cage.sum, "{cage:?} of {p:?}");
                }
            }
        }
        assert!(
            implied > 100,
            "only {implied} implied cages: the test tests little"
        );
    }
}
