//! A lower bound on a per-cell loss from the Sudoku rules alone, and the loss rewritten above it:
//! the reduced costs that the `sat` backend's core-guided search weighs its soft literals by and
//! that the `cp` backend posts as a redundant bound on its objective.
//!
//! The loss of a solution is `Σ θ(c, d_c)` over the free cells (`θ ≥ 0`). In every solution each
//! free cell holds one candidate, and each digit `d` missing from the fixed cells of a house `h`
//! lies in exactly one free cell of `h` (a house: any `n` cells that hold every digit once). So
//! for any numbers `u(h, d)` ("duals"), every solution has
//!
//! `loss = Σ u(h, d) + Σ_c v(c) + Σ_c rc(c, d_c)`, with
//! `rc(c, d) = θ(c, d) − Σ_{h ∋ c} u(h, d) − v(c)` and `v(c) = min_d (θ(c, d) − Σ_{h ∋ c} u(h, d))`,
//!
//! where every `rc ≥ 0`: the loss is at least `offset = Σ u + Σ v`, and what lies above the offset
//! is the *reduced cost* `rc` of the chosen candidates. The best `u` is the dual of the assignment
//! relaxation (the linear programme `ilp` starts from). Two ways to find good duals:
//!
//! - [`Duals::Ascent`]: exact coordinate ascent from `u = 0`. A single `u(h, d)` enters the bound
//!   as `u + Σ_{c} min(a_c − u, b_c)` over the cells of `h` that may hold `d` (`a_c`: its reduced
//!   cost for `d` without `u`, `b_c`: its best other candidate), which is largest for `u` between
//!   the two smallest `a_c − b_c`. Each step keeps the bound or raises it; the ascent stops when a
//!   round raises it no more. Microseconds on a 9×9 grid, but it can stall well below the best
//!   `u` (on the empty pyramid at 2133 where the relaxation gives 2224).
//! - [`Duals::Lp`]: the dual linear programme solved by microlp (tens of milliseconds on an empty
//!   9×9 grid), its values rounded down to integers and then polished by the same ascent. The
//!   optimal duals are fractional (sixths on the empty pyramid), so rounding loses a little: on
//!   the empty pyramid the offset is 2223 against the relaxation's 2224, which is the optimum. If
//!   microlp fails, the ascent starts from zero.
//!
//! All arithmetic on the rounded duals is in integers, so every offset is exact.

use std::time::{Duration, Instant};

use super::Value;

/// Rounds over every house and digit at most (each costs microseconds on a 9×9 grid).
const MAX_ROUNDS: usize = 200;

/// How long a two-stage search (the `sat` backend's core-guided search, the `cp` backend's branch
/// and bound) runs on the duals of [`Duals::Ascent`] before it starts over on those of
/// [`Duals::Lp`].
pub const ASCENT_BUDGET: Duration = Duration::from_millis(10);

/// How [`reduce`] finds its duals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Duals {
    /// Coordinate ascent from zero.
    Ascent,
    /// The dual linear programme, then coordinate ascent. microlp stops at `deadline` (then the
    /// ascent starts from zero).
    Lp { deadline: Option<Instant> },
}

impl Duals {
    /// `ascent` or `lp`, for traces.
    pub fn name(&self) -> &'static str {
        match self {
            Duals::Ascent => "ascent",
            Duals::Lp { .. } => "lp",
        }
    }
}

/// The cells [`reduce`] rewrites the loss over: the fixed ones, and the candidates of the others.
pub trait Candidates {
    /// How a candidate is named in [`Reduced::costs`].
    type Key: Copy;
    /// The side of the grid.
    fn size(&self) -> usize;
    /// The digit of every fixed cell (a given, or a single digit left before the search), 0 for
    /// the others.
    fn fixed(&self) -> &[Value];
    /// The cells left open.
    fn free_cells(&self) -> &[u32];
    /// The candidates `(key, digit)` of an open cell.
    fn candidates(&self, cell: usize) -> &[(Self::Key, Value)];
}

/// [`Candidates`] given as each cell's digits, a cell with a single digit fixed; a candidate's key
/// is its `(cell, digit)`.
#[derive(Debug, Clone)]
pub struct Domains {
    n: usize,
    fixed: Vec<Value>,
    free: Vec<u32>,
    /// The candidates of cell `c`: `cands[start[c]..start[c + 1]]`.
    start: Vec<usize>,
    cands: Vec<((u32, Value), Value)>,
}

impl Domains {
    /// `digits[c]`: the digits cell `c` may hold, in a grid of side `n` (`n²` cells, none empty).
    pub fn new(n: usize, digits: &[Vec<Value>]) -> Domains {
        let mut d = Domains {
            n,
            fixed: vec![0; digits.len()],
            free: vec![],
            start: vec![0],
            cands: vec![],
        };
        for (c, digits) in digits.iter().enumerate() {
            match digits[..] {
                [one] => d.fixed[c] = one,
                _ => {
                    d.free.push(c as u32);
                    let key = |&v: &Value| ((c as u32, v), v);
                    d.cands.extend(digits.iter().map(key));
                }
            }
            d.start.push(d.cands.len());
        }
        d
    }
}

impl Candidates for Domains {
    type Key = (u32, Value);
    fn size(&self) -> usize {
        self.n
    }
    fn fixed(&self) -> &[Value] {
        &self.fixed
    }
    fn free_cells(&self) -> &[u32] {
        &self.free
    }
    fn candidates(&self, cell: usize) -> &[(Self::Key, Value)] {
        &self.cands[self.start[cell]..self.start[cell + 1]]
    }
}

/// The loss rewritten: `loss = offset + Σ rc(x)` over the chosen candidates `x` of a solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reduced<K> {
    pub offset: u64,
    /// `(key, rc(c, d))` for every candidate of a free cell, cell by cell in the order of
    /// [`Candidates::free_cells`]; `rc ≥ 0`, and 0 for some candidate of each cell.
    pub costs: Vec<(K, u64)>,
}

/// Duals for `houses` (each holding every digit `1..=n` once: a puzzle's houses, or any other
/// such groups), starting from `θ(cell, digit)` (`theta` is called for the candidates of the free
/// cells only, and must not be negative).
pub fn reduce<'h, C: Candidates>(
    houses: impl IntoIterator<Item = &'h [u32]>,
    cands: &C,
    theta: impl Fn(usize, u16) -> u64,
    duals: Duals,
) -> Reduced<C::Key> {
    let n = cands.size();
    // One row per candidate: its cell, variable and current reduced cost before `v`.
    let mut cell_of = Vec::new();
    let mut cand_of: Vec<(C::Key, u16)> = Vec::new();
    let mut red: Vec<i64> = Vec::new();
    let mut first = vec![usize::MAX; n * n];
    let mut cell_range = Vec::new();
    for &c in cands.free_cells() {
        let c = c as usize;
        first[c] = red.len();
        for &(v, d) in cands.candidates(c) {
            cell_of.push(cell_range.len());
            cand_of.push((v, d));
            red.push(theta(c, d) as i64);
        }
        cell_range.push((first[c], red.len()));
    }
    // Groups: the candidates `d` of the free cells of `h`, for each digit `d` not fixed in `h`.
    let fixed = cands.fixed();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for h in houses {
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
    if let Duals::Lp { deadline } = duals {
        if let Some(lp) = lp_duals(&groups, &cell_range, &cell_of, &red, deadline) {
            for ((members, u), x) in groups.iter().zip(&mut u).zip(lp) {
                // Down to an integer, unless within rounding error of the next one up.
                *u = (x + 1e-6).floor() as i64;
                for &i in members {
                    red[i] -= *u;
                }
            }
        }
    }
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

/// The dual linear programme: maximise `Σ u + Σ v` subject to `u`-sum + `v(c) ≤ red(i)` for every
/// candidate `i` (of cell `c`); `None` when microlp fails or `deadline` passes. The variables get
/// wide bounds, as microlp reports some free-variable programmes of this shape as unbounded.
fn lp_duals(
    groups: &[Vec<usize>],
    cell_range: &[(usize, usize)],
    cell_of: &[usize],
    red: &[i64],
    deadline: Option<Instant>,
) -> Option<Vec<f64>> {
    use good_lp::solvers::WithTimeLimit;
    use good_lp::{variable, Expression, ProblemVariables, Solution, SolverModel};
    // Any duals give a valid bound, so a box that happened to cut off the optimal ones would only
    // weaken the bound, never make it wrong; this one is wide (eight times the largest cost).
    let m = (red.iter().copied().max().unwrap_or(0) as f64 + 1.0) * 8.0;
    let mut vars = ProblemVariables::new();
    let u: Vec<_> = groups
        .iter()
        .map(|_| vars.add(variable().min(-m).max(m)))
        .collect();
    let v: Vec<_> = cell_range
        .iter()
        .map(|_| vars.add(variable().min(-m).max(m)))
        .collect();
    let objective: Expression = u.iter().chain(&v).copied().sum();
    let mut rows: Vec<Expression> = cell_of.iter().map(|&c| v[c].into()).collect();
    for (members, &u) in groups.iter().zip(&u) {
        for &i in members {
            rows[i] += u;
        }
    }
    let mut model = vars.maximise(objective).using(good_lp::microlp);
    for (row, &r) in rows.into_iter().zip(red) {
        model = model.with(row.leq(r as f64));
    }
    // A solution stopped early is still a choice of duals, and every choice gives a valid bound.
    if let Some(d) = deadline {
        let left = d.checked_duration_since(Instant::now())?;
        model = model.with_time_limit(left.as_secs_f64());
    }
    let solution = model.solve().ok()?;
    Some(u.iter().map(|&x| solution.value(x)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Shape, Weights};

    /// The houses of the standard 9×9 grid, and the candidates of its empty grid.
    fn empty_9x9() -> (Shape, Domains) {
        let shape = Shape::standard(9, false).unwrap();
        (shape, Domains::new(9, &vec![(1..=9).collect(); 81]))
    }

    /// `loss = offset + Σ rc` holds for every solution, and no `rc` is negative: checked
    /// for both kinds of duals on solutions of an empty 9×9 grid (a base grid under digit
    /// relabellings and a transposition), with weights of both signs.
    #[test]
    fn reduced_costs_add_up_to_the_loss_of_every_solution() {
        let base: Vec<u16> = (0..81)
            .map(|i| {
                let (r, c) = (i / 9, i % 9);
                ((r * 3 + r / 3 + c) % 9 + 1) as u16
            })
            .collect();
        let w: Vec<i64> = (0..81).map(|i| (i * 37 % 71) as i64 - 20).collect();
        let (shape, d) = empty_9x9();
        let theta = |c: usize, digit: u16| {
            let best = if w[c] >= 0 { 9 * w[c] } else { w[c] };
            (best - w[c] * i64::from(digit)) as u64
        };
        for duals in [Duals::Ascent, Duals::Lp { deadline: None }] {
            let r = reduce(shape.houses(), &d, theta, duals);
            assert!(r.offset > 0, "the duals raise the bound");
            check_solutions(&base, &theta, &r);
        }
    }

    /// With fixed cells (a single digit: the givens) the identity holds for the solution that
    /// keeps them, and the fixed cells get no cost.
    #[test]
    fn fixed_cells_are_left_out_of_the_costs() {
        let shape = Shape::standard(9, false).unwrap();
        let base: Vec<u16> = (0..81)
            .map(|i| {
                let (r, c) = (i / 9, i % 9);
                ((r * 3 + r / 3 + c) % 9 + 1) as u16
            })
            .collect();
        let digits: Vec<Vec<Value>> = (0..81)
            .map(|c| match c % 3 {
                0 => vec![base[c]],
                _ => (1..=9).collect(),
            })
            .collect();
        let d = Domains::new(9, &digits);
        assert_eq!(d.free_cells().len(), 54);
        let w: Vec<i64> = (0..81).map(|i| (i * 53 % 61) as i64 - 25).collect();
        let theta = |c: usize, digit: u16| {
            let best = if w[c] >= 0 { 9 * w[c] } else { w[c] };
            (best - w[c] * i64::from(digit)) as u64
        };
        for duals in [Duals::Ascent, Duals::Lp { deadline: None }] {
            let r = reduce(shape.houses(), &d, theta, duals);
            assert!(r.costs.iter().all(|&((c, _), _)| c % 3 != 0));
            let loss: u64 = (0..81)
                .filter(|c| c % 3 != 0)
                .map(|c| theta(c, base[c]))
                .sum();
            let rc: std::collections::HashMap<(u32, Value), u64> =
                r.costs.iter().copied().collect();
            let above: u64 = (0..81)
                .filter(|c| c % 3 != 0)
                .map(|c| rc[&(c as u32, base[c])])
                .sum();
            assert_eq!(loss, r.offset + above, "{duals:?}");
        }
    }

    fn check_solutions(base: &[u16], theta: &dyn Fn(usize, u16) -> u64, r: &Reduced<(u32, Value)>) {
        let rc: std::collections::HashMap<(u32, Value), u64> = r.costs.iter().copied().collect();
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
                    reduced += rc[&(c as u32, digit)];
                }
                assert_eq!(loss, reduced, "relabel {k} transpose {transpose}");
            }
        }
    }

    /// On the empty pyramid the relaxation is tight (its optimum is the score 2906, a loss of
    /// 9 × 570 − 2906 = 2224): the linear programme's duals, rounded, come within one of it; the
    /// ascent alone stops far below.
    #[test]
    fn lp_duals_reach_the_empty_pyramid_optimum() {
        let weights = Weights::pyramid(9);
        let w = weights.as_slice().to_vec();
        let (shape, d) = empty_9x9();
        let theta = |c: usize, digit: u16| (w[c] * (9 - i64::from(digit))) as u64;
        let lp = reduce(shape.houses(), &d, theta, Duals::Lp { deadline: None });
        assert!((2223..=2224).contains(&lp.offset), "{}", lp.offset);
        let ascent = reduce(shape.houses(), &d, theta, Duals::Ascent);
        assert!(ascent.offset < 2200, "{}", ascent.offset);
    }
}
