//! The assignment problem for the Lagrangian bound of [`super::bounds`]: in one row of the grid,
//! give each cell a different digit among its candidates so that the total profit is largest.
//! Kuhn and Munkres's Hungarian method with potentials (O(n³) for n cells), generic over the
//! number type: `f64` while the multipliers are tuned, `i128` for the exact bound.

use std::ops::{Add, Sub};

/// A number the Hungarian method can run on.
pub(super) trait Amount:
    Copy + PartialOrd + Add<Output = Self> + Sub<Output = Self>
{
    const ZERO: Self;
}

impl Amount for f64 {
    const ZERO: f64 = 0.0;
}

impl Amount for i128 {
    const ZERO: i128 = 0;
}

/// Work space of [`Assignment::solve`], kept between calls.
#[derive(Debug, Clone, Default)]
pub(super) struct Assignment<T> {
    u: Vec<T>,
    v: Vec<T>,
    min_v: Vec<T>,
    /// `owner[j]`: the row (1-based) matched to column `j` (1-based); 0 for none.
    owner: Vec<usize>,
    way: Vec<usize>,
    used: Vec<bool>,
    /// Columns some augmenting path reaches (their `min_v` is set).
    reached: Vec<bool>,
    /// The profits, row by row (`None`: forbidden), read once from the caller's function.
    table: Vec<Option<T>>,
    /// The work done so far: `k³` for each problem of `k` rows solved.
    pub(super) work: u64,
}

impl<T: Amount> Assignment<T> {
    /// The largest total profit of a perfect matching of `n` rows to `n` columns, where
    /// `profit(i, j)` is `None` for a forbidden pair; `None` when every perfect matching uses a
    /// forbidden pair. `column_of[i]` receives row `i`'s column.
    pub(super) fn solve(
        &mut self,
        n: usize,
        profit: impl Fn(usize, usize) -> Option<T>,
        column_of: &mut [usize],
    ) -> Option<T> {
        self.work += (n * n * n) as u64;
        // Minimises the cost −profit, rows added one by one along shortest augmenting paths
        // over allowed pairs, with potentials `u` (rows) and `v` (columns). A row that no such
        // path reaches leaves some rows with too few columns (Hall): no perfect matching.
        let Assignment {
            u,
            v,
            min_v,
            owner,
            way,
            used,
            reached,
            table,
            ..
        } = self;
        table.clear();
        table.extend((0..n * n).map(|k| profit(k / n, k % n)));
        for work in [&mut *u, &mut *v, &mut *min_v] {
            work.clear();
            work.resize(n + 1, T::ZERO);
        }
        for work in [&mut *owner, &mut *way] {
            work.clear();
            work.resize(n + 1, 0);
        }
        for work in [&mut *used, &mut *reached] {
            work.clear();
            work.resize(n + 1, false);
        }
        let (u, v, min_v) = (&mut u[..], &mut v[..], &mut min_v[..]);
        let (owner, way, used, reached) = (
            &mut owner[..],
            &mut way[..],
            &mut used[..],
            &mut reached[..],
        );
        let table = &table[..];
        for i in 1..=n {
            owner[0] = i;
            let mut j0 = 0;
            used.fill(false);
            reached.fill(false);
            loop {
                used[j0] = true;
                let i0 = owner[j0];
                let row = &table[(i0 - 1) * n..i0 * n];
                let mut next: Option<(T, usize)> = None;
                for j in 1..=n {
                    if used[j] {
                        continue;
                    }
                    if let Some(p) = row[j - 1] {
                        let reduced = T::ZERO - p - u[i0] - v[j];
                        if !reached[j] || reduced < min_v[j] {
                            (min_v[j], way[j], reached[j]) = (reduced, j0, true);
                        }
                    }
                    if reached[j] && next.is_none_or(|(delta, _)| min_v[j] < delta) {
                        next = Some((min_v[j], j));
                    }
                }
                let (delta, j1) = next?;
                for j in 0..=n {
                    if used[j] {
                        let row = owner[j];
                        u[row] = u[row] + delta;
                        v[j] = v[j] - delta;
                    } else if reached[j] {
                        min_v[j] = min_v[j] - delta;
                    }
                }
                j0 = j1;
                if owner[j0] == 0 {
                    break;
                }
            }
            loop {
                let j1 = way[j0];
                owner[j0] = owner[j1];
                j0 = j1;
                if j0 == 0 {
                    break;
                }
            }
        }
        let mut total = T::ZERO;
        for j in 1..=n {
            let i = owner[j] - 1;
            column_of[i] = j - 1;
            total = total + table[i * n + j - 1]?;
        }
        Some(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The best perfect matching by trying every permutation.
    fn brute(n: usize, profit: &dyn Fn(usize, usize) -> Option<i128>) -> Option<i128> {
        fn go(
            i: usize,
            n: usize,
            taken: &mut Vec<bool>,
            profit: &dyn Fn(usize, usize) -> Option<i128>,
        ) -> Option<i128> {
            if i == n {
                return Some(0);
            }
            let mut best = None;
            for j in 0..n {
                if taken[j] {
                    continue;
                }
                let Some(p) = profit(i, j) else { continue };
                taken[j] = true;
                if let Some(rest) = go(i + 1, n, taken, profit) {
                    best = best.max(Some(p + rest));
                }
                taken[j] = false;
            }
            best
        }
        go(0, n, &mut vec![false; n], profit)
    }

    #[test]
    fn matches_every_permutation_on_random_tables_with_forbidden_pairs() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state = crate::rng::xorshift64(state);
            state
        };
        let mut solver = Assignment::<i128>::default();
        let mut float = Assignment::<f64>::default();
        for trial in 0..400 {
            let n = 1 + trial % 7;
            let table: Vec<Option<i128>> = (0..n * n)
                .map(|_| match next() % 5 {
                    0 => None,
                    _ => Some((next() % 201) as i128 - 100),
                })
                .collect();
            let profit = |i: usize, j: usize| table[i * n + j];
            let mut column_of = vec![0; n];
            let got = solver.solve(n, profit, &mut column_of);
            assert_eq!(got, brute(n, &profit), "table {table:?}");
            if let Some(total) = got {
                let mut seen = vec![false; n];
                let mut sum = 0;
                for (i, &j) in column_of.iter().enumerate() {
                    assert!(!seen[j]);
                    seen[j] = true;
                    sum += table[i * n + j].unwrap();
                }
                assert_eq!(sum, total);
            }
            let as_float = float.solve(n, |i, j| profit(i, j).map(|p| p as f64), &mut column_of);
            assert_eq!(as_float.map(|t| t as i128), got);
        }
    }
}
