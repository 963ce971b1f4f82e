//! A lower bound on a per-cell loss from the Sudoku rules alone, and the loss rewritten above it.
//!
//! The loss of a solution is `Σ θ(c, d_c)` over the free cells (`θ ≥ 0`). In every solution each
//! free cell holds one candidate, and each digit `d` missing from the fixed cells of a house `h`
//! lies in exactly one free cell of `h`. So for any numbers `u(h, d)` ("duals"), every solution
//! has
//!
//! `loss = Σ u(h, d) + Σ_c v(c) + Σ_c rc(c, d_c)`, with
//! `rc(c, d) = θ(c, d) − Σ_{h ∋ c} u(h, d) − v(c)` and `v(c) = min_d (θ(c, d) − Σ_{h ∋ c} u(h, d))`,
//!
//! where every `rc ≥ 0`: the loss is at least `offset = Σ u + Σ v`, and what lies above the offset
//! is the *reduced cost* `rc` of the chosen candidates. This is the Lagrangian dual of the
//! assignment relaxation (the linear programme `ilp` starts from), maximised over `u` by exact
//! coordinate ascent: a single `u(h, d)` enters the bound as `u + Σ_{c} min(a_c − u, b_c)` over
//! the cells of `h` that may hold `d` (`a_c`: its reduced cost for `d` without `u`, `b_c`: its
//! best other candidate), which is largest for `u` between the two smallest `a_c − b_c`. Each
//! step keeps the bound or raises it; the ascent stops when a round raises it no more. Integer
//! steps keep every figure exact. (Coordinate ascent can stop below the best `u`; the core-guided
//! search proves the rest.)

use super::encode::Decoder;
use super::Var;
use crate::model::Puzzle;

/// Rounds over every house and digit at most (each costs microseconds on a 9×9 grid).
const MAX_ROUNDS: usize = 200;

/// The loss rewritten: `loss = offset + Σ rc(x)` over the chosen candidates `x` of a solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reduced {
    pub offset: u64,
    /// `(x(c, d), rc(c, d))` for every candidate of a free cell; `rc ≥ 0`.
    pub costs: Vec<(Var, u64)>,
}

/// Duals for the houses of `puzzle`, starting from `θ(cell, digit)` (`theta` is called for the
/// candidates of the free cells only, and must not be negative).
pub fn reduce(puzzle: &Puzzle, decoder: &Decoder, theta: impl Fn(usize, u16) -> u64) -> Reduced {
    let n = puzzle.size();
    // One row per candidate: its cell, variable and current reduced cost before `v`.
    let mut cell_of = Vec::new();
    let mut cand_of: Vec<(Var, u16)> = Vec::new();
    let mut red: Vec<i64> = Vec::new();
    let mut first = vec![usize::MAX; n * n];
    let mut cell_range = Vec::new();
    for &c in decoder.free_cells() {
        let c = c as usize;
        first[c] = red.len();
        for &(v, d) in decoder.candidates(c) {
            cell_of.push(cell_range.len());
            cand_of.push((v, d));
            red.push(theta(c, d) as i64);
        }
        cell_range.push((first[c], red.len()));
    }
    // Groups: the candidates `d` of the free cells of `h`, for each digit `d` not fixed in `h`.
    let fixed = decoder.fixed();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for h in puzzle.shape().houses() {
        for d in 1..=n as u16 {
            if h.iter().any(|&c| fixed[c as usize] == d) {
                continue;
            }
            let g: Vec<usize> = h
                .iter()
                .filter(|&&c| first[c as usize] != usize::MAX)
                .flat_map(|&c| {
                    let (a, b) = cell_range[cell_of[first[c as usize]]];
                    (a..b).filter(|&i| cand_of[i].1 == d)
                })
                .collect();
            if !g.is_empty() {
                groups.push(g);
            }
        }
    }
    let mut u = vec![0i64; groups.len()];
    // The best other candidate of `i`'s cell (`None`: `i` is the cell's only candidate).
    let best_other = |red: &[i64], i: usize| {
        let (a, b) = cell_range[cell_of[i]];
        (a..b).filter(|&j| j != i).map(|j| red[j]).min()
    };
    let bound = |red: &[i64], u: &[i64]| -> i64 {
        let v: i64 = cell_range
            .iter()
            .map(|&(a, b)| red[a..b].iter().copied().min().unwrap_or(0))
            .sum();
        v + u.iter().sum::<i64>()
    };
    let mut last = bound(&red, &u);
    for _ in 0..MAX_ROUNDS {
        for (g, members) in groups.iter().enumerate() {
            // The two smallest `a_c − b_c` of the members; a cell whose only candidate is `d`
            // counts as −∞ (it holds `d`).
            let (mut t1, mut t2) = (i64::MAX, i64::MAX);
            for &i in members {
                let t = best_other(&red, i).map_or(i64::MIN, |b| red[i] + u[g] - b);
                if t < t1 {
                    t2 = t1;
                    t1 = t;
                } else if t < t2 {
                    t2 = t;
                }
            }
            // Anywhere in [t1, t2] is best; the middle leaves room to the other houses.
            let new = match (t1, t2) {
                (i64::MIN, i64::MIN) | (i64::MIN, i64::MAX) => u[g],
                (i64::MIN, t2) => t2,
                (t1, i64::MAX) => t1,
                (t1, t2) => t1 + (t2 - t1) / 2,
            };
            for &i in members {
                red[i] += u[g] - new;
            }
            u[g] = new;
        }
        let now = bound(&red, &u);
        if now <= last {
            break;
        }
        last = now;
    }
    let mut costs = Vec::with_capacity(red.len());
    let mut offset = u.iter().sum::<i64>();
    for &(a, b) in &cell_range {
        let v = red[a..b].iter().copied().min().unwrap_or(0);
        offset += v;
        costs.extend((a..b).map(|i| (cand_of[i].0, (red[i] - v) as u64)));
    }
    Reduced {
        offset: offset.max(0) as u64,
        costs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Shape, Weights};
    use crate::sat::encode::{encode, EncodeOptions, Numbering};
    use crate::sat::Cnf;
    use std::sync::Arc;

    /// `loss = offset + Σ rc` holds for every solution, and no `rc` is negative: checked on
    /// solutions of an empty 9×9 grid (a base grid under digit relabellings and a transposition),
    /// with weights of both signs.
    #[test]
    fn reduced_costs_add_up_to_the_loss_of_every_solution() {
        let base: Vec<u16> = (0..81)
            .map(|i| {
                let (r, c) = (i / 9, i % 9);
                ((r * 3 + r / 3 + c) % 9 + 1) as u16
            })
            .collect();
        let w: Vec<i64> = (0..81).map(|i| (i * 37 % 71) as i64 - 20).collect();
        let shape = Arc::new(Shape::standard(9, false).unwrap());
        let puzzle = Puzzle::new(shape, vec![0; 81])
            .unwrap()
            .with_weights(Arc::new(Weights::new(9, w.clone()).unwrap()))
            .unwrap();
        let mut cnf = Cnf::new();
        let enc = encode(
            &puzzle,
            &EncodeOptions::default(),
            Numbering::Compact,
            &mut cnf,
        );
        let d = &enc.decoder;
        let theta = |c: usize, digit: u16| {
            let best = if w[c] >= 0 { 9 * w[c] } else { w[c] };
            (best - w[c] * i64::from(digit)) as u64
        };
        let r = reduce(&puzzle, d, theta);
        assert!(r.offset > 0, "the duals raise the bound");
        let rc: std::collections::HashMap<Var, u64> = r.costs.iter().copied().collect();
        for k in 0..9u16 {
            for transpose in [false, true] {
                let grid: Vec<u16> = (0..81)
                    .map(|i| {
                        let j = if transpose { i % 9 * 9 + i / 9 } else { i };
                        (base[j] + k - 1) % 9 + 1
                    })
                    .collect();
                let mut loss = 0;
                let mut reduced = r.offset;
                for (c, &digit) in grid.iter().enumerate() {
                    loss += theta(c, digit);
                    let &(v, _) = d
                        .candidates(c)
                        .iter()
                        .find(|&&(_, dd)| dd == digit)
                        .unwrap();
                    reduced += rc[&v];
                }
                assert_eq!(loss, reduced, "relabel {k} transpose {transpose}");
            }
        }
    }
}
