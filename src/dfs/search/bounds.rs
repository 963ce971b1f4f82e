//! The admissible bounds of the `dfs` engine's branch and bound (see [`crate::dfs`]): the house
//! bound, the layer bound and the Lagrangian bound, each an upper bound on the score of any
//! solution below a node.

use super::{Mask, Search};
use crate::model::Value;

/// Scale of the Lagrangian multipliers: they are multiples of `1 / LAGRANGE_SCALE`.
const LAGRANGE_SCALE: i128 = 16;

/// Subgradient steps when re-tuning the multipliers at a node.
pub(super) const RETUNE_ITERATIONS: usize = 30;

/// Lagrangian bound. Every house holds each digit once, so its digits sum to `T = n(n+1)/2`;
/// for any multipliers `λ_h` on the houses other than rows, every solution's score equals
/// `T·Σλ_h + Σ_c w'_c·v_c` with `w'_c = w_c − Σ_{h ∋ c} λ_h`, and the second sum is at most the
/// rows' rearrangement pairing under `w'`. The multipliers are tuned at the root (subgradient
/// descent), then fixed; the arithmetic is exact (scaled integers).
pub(super) struct Lagrange {
    /// `T·Σλ_h`, scaled.
    constant: i128,
    /// `w'_c`, scaled.
    weights: Vec<i128>,
    /// The cells of each row by decreasing `w'`.
    rows: Vec<u16>,
    /// The multipliers before rounding (to warm-start a re-tuning).
    pub(super) lambda: Vec<f64>,
}

impl<M: Mask, const C: usize, const H: usize, const W: usize> Search<'_, '_, M, C, H, W> {
    /// An upper bound on the score of any solution below `nodes[d]` (see the module doc): the
    /// lesser of the house bound and the layer bound.
    pub(super) fn bound(&self, d: usize) -> i64 {
        self.house_bound(d)
            .min(self.layer_bound(d))
            .min(self.lagrange_bound(d))
    }

    /// The Lagrangian bound of `nodes[d]` (see [`Lagrange`]); `i64::MAX` before it is tuned.
    pub(super) fn lagrange_bound(&self, d: usize) -> i64 {
        match self.opt.as_ref().and_then(|o| o.lagrange.as_ref()) {
            Some(l) => self.lagrange_bound_with(d, l),
            None => i64::MAX,
        }
    }

    pub(super) fn lagrange_bound_with(&self, d: usize, l: &Lagrange) -> i64 {
        let digits = self.rows_pairing(d, &l.rows);
        let total = l.constant
            + digits
                .iter()
                .zip(&l.weights)
                .map(|(&v, &w)| w * v as i128)
                .sum::<i128>();
        total
            .div_euclid(LAGRANGE_SCALE)
            .clamp(i64::MIN as i128, i64::MAX as i128) as i64
    }

    /// Per cell, its digit when placed, else the digit the rearrangement pairing of its row
    /// gives it: the row's missing digits, largest first, to its empty cells in `rows` order.
    pub(super) fn rows_pairing(&self, d: usize, rows: &[u16]) -> Vec<Value> {
        let (t, node) = (self.t, &self.nodes[d]);
        let n = t.n;
        let mut v = vec![0; t.cells];
        for r in 0..n {
            let mut missing = self.full & !node.placed[r];
            for &c in &rows[r * n..(r + 1) * n] {
                let c = c as usize;
                let m = node.cands[c];
                if node.unsolved[c / 64] & (1 << (c % 64)) == 0 {
                    v[c] = m.low() as Value + 1;
                } else if missing != M::ZERO {
                    let top = missing.high();
                    missing &= !M::bit(top);
                    v[c] = top as Value + 1;
                }
            }
        }
        v
    }

    /// Chooses the multipliers of the Lagrangian bound at the root by subgradient descent on
    /// the (convex) bound, then rounds them to multiples of `1 / LAGRANGE_SCALE`.
    pub(super) fn tune_lagrange(
        &self,
        d: usize,
        start: Option<&[f64]>,
        iterations: usize,
    ) -> Lagrange {
        let (t, opt) = (self.t, self.opt.as_ref().expect("optimizing"));
        let n = t.n;
        let total = (n * (n + 1) / 2) as f64;
        let others = n..t.houses; // every house but the rows
        let mut lambda = start.map_or_else(|| vec![0f64; t.houses], <[f64]>::to_vec);
        let modified = |lambda: &[f64]| -> Vec<f64> {
            (0..t.cells)
                .map(|c| {
                    let extra: f64 = t.houses_of(c)[1..]
                        .iter()
                        .map(|&h| lambda[h as usize])
                        .sum();
                    opt.weights[c] as f64 - extra
                })
                .collect()
        };
        let sorted_rows = |w: &[f64]| -> Vec<u16> {
            let mut rows: Vec<u16> = (0..t.cells as u16).collect();
            for row in rows.chunks_mut(n) {
                row.sort_by(|&a, &b| w[b as usize].total_cmp(&w[a as usize]));
            }
            rows
        };
        let spread = opt
            .weights
            .iter()
            .map(|w| w.unsigned_abs())
            .max()
            .unwrap_or(0) as f64;
        let (mut best, mut best_lambda) = (f64::INFINITY, lambda.clone());
        for it in 0..iterations {
            let w = modified(&lambda);
            let v = self.rows_pairing(d, &sorted_rows(&w));
            let bound = total * lambda[others.clone()].iter().sum::<f64>()
                + v.iter().zip(&w).map(|(&v, &w)| v as f64 * w).sum::<f64>();
            if bound < best {
                (best, best_lambda) = (bound, lambda.clone());
            }
            let g: Vec<f64> = others
                .clone()
                .map(|h| {
                    total
                        - t.house(h)
                            .iter()
                            .map(|&c| v[c as usize] as f64)
                            .sum::<f64>()
                })
                .collect();
            let norm = g.iter().map(|x| x * x).sum::<f64>().sqrt();
            if norm == 0.0 {
                break; // the pairing is a solution: the bound is tight
            }
            let step = spread * 0.2 / (1.0 + (it + 200 - iterations) as f64 / 8.0) / norm;
            for (h, gh) in others.clone().zip(&g) {
                lambda[h] -= step * gh;
            }
        }
        let scaled: Vec<i128> = best_lambda
            .iter()
            .map(|&l| (l * LAGRANGE_SCALE as f64).round() as i128)
            .collect();
        let weights: Vec<i128> = (0..t.cells)
            .map(|c| {
                opt.weights[c] as i128 * LAGRANGE_SCALE
                    - t.houses_of(c)[1..]
                        .iter()
                        .map(|&h| scaled[h as usize])
                        .sum::<i128>()
            })
            .collect();
        let mut rows: Vec<u16> = (0..t.cells as u16).collect();
        for row in rows.chunks_mut(n) {
            row.sort_by_key(|&c| std::cmp::Reverse(weights[c as usize]));
        }
        Lagrange {
            constant: (n * (n + 1) / 2) as i128 * scaled[others].iter().sum::<i128>(),
            weights,
            rows,
            lambda: best_lambda,
        }
    }

    /// Layer bound. A grid's score is `Σ_k S_k` over layers `k = 1..=n`, where `S_k` is the
    /// weight of the cells holding a digit `≥ k`, and every house has exactly `n + 1 - k` such
    /// cells. So `S_k` is at most, for each family of houses partitioning the grid, the sum over
    /// its houses of the heaviest choice of `n + 1 - k` cells that may hold a digit `≥ k` and
    /// including every cell that must; the bound adds up the least family per layer.
    /// `i64::MIN` when some house cannot make its layer (no solution below).
    pub(super) fn layer_bound(&self, d: usize) -> i64 {
        let (Some(opt), t) = (&self.opt, self.t) else {
            return i64::MAX;
        };
        let node = &self.nodes[d];
        let n = t.n;
        let mut total = 0i64;
        for k in 0..n as u32 {
            // Layer k + 1: digits ≥ k + 1, i.e. bits ≥ k.
            let need = n - k as usize;
            let mut least = i64::MAX;
            for family in 0..3 {
                let mut sum = 0i64;
                for h in family * n..(family + 1) * n {
                    let cells = &opt.by_weight[h * n..(h + 1) * n];
                    let forced = cells
                        .iter()
                        .filter(|&&c| node.cands[c as usize].low() >= k)
                        .count();
                    if forced > need {
                        return i64::MIN;
                    }
                    let mut free = need - forced;
                    for &c in cells {
                        let m = node.cands[c as usize];
                        if m.low() >= k {
                            sum += opt.weights[c as usize];
                        } else if free > 0 && m.high() >= k {
                            sum += opt.weights[c as usize];
                            free -= 1;
                        }
                    }
                    if free > 0 {
                        return i64::MIN;
                    }
                }
                least = least.min(sum);
            }
            total += least;
        }
        total
    }

    /// House bound: for each family of houses partitioning the grid, the sum over its houses of
    /// the lesser of the rearrangement pairing and every empty cell's best candidate; the least
    /// family.
    pub(super) fn house_bound(&self, d: usize) -> i64 {
        let (Some(opt), t) = (&self.opt, self.t) else {
            return i64::MAX;
        };
        let node = &self.nodes[d];
        let n = t.n;
        let solved = |c: usize| node.unsolved[c / 64] & (1 << (c % 64)) == 0;
        let mut least = i64::MAX;
        for family in 0..3 {
            let mut total = 0i64;
            for h in family * n..(family + 1) * n {
                let mut pairing = 0i64;
                let mut own_best = 0i64;
                let mut missing = self.full & !node.placed[h];
                for &c in &opt.by_weight[h * n..(h + 1) * n] {
                    let c = c as usize;
                    let (w, m) = (opt.weights[c], node.cands[c]);
                    if solved(c) {
                        total += w * (m.low() as i64 + 1);
                        continue;
                    }
                    if missing == M::ZERO {
                        continue; // cannot happen: a propagated house has one missing digit per empty cell
                    }
                    let top = missing.high();
                    missing &= !M::bit(top);
                    pairing += w * (top as i64 + 1);
                    let own = if w >= 0 { m.high() } else { m.low() };
                    own_best += w * (own as i64 + 1);
                }
                total += pairing.min(own_best);
            }
            least = least.min(total);
        }
        least
    }
}
