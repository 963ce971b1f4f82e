//! The admissible bounds of the `dfs` engine's branch and bound (see [`crate::dfs`]): the house
//! bound, the layer bound and the Lagrangian bound, each an upper bound on the score of any
//! solution below a node.

use super::assignment::{Amount, Assignment};
use super::{Mask, Search};

/// Scale of the Lagrangian multipliers: they are multiples of `1 / LAGRANGE_SCALE`.
const LAGRANGE_SCALE: i128 = 16;

/// Subgradient steps when re-tuning the multipliers at a node.
pub(super) const RETUNE_ITERATIONS: usize = 15;

/// Lagrangian bound. Every house other than a row holds each digit once: for any multipliers
/// `μ_{h,v}` on those (house, digit) constraints, every solution's score equals
/// `Σμ + Σ_c p_{c,v_c}` with the moved profits `p_{c,v} = w_c·v − Σ_{h ∋ c, not a row} μ_{h,v}`,
/// and the second sum is at most the sum over the rows of the best assignment of digits to the
/// row's cells within their candidates (the rows' own constraints are kept). At the best
/// multipliers this is the bound of the linear relaxation of the 0/1 model (each row's
/// assignment polytope has integral corners). The multipliers are tuned by subgradient descent
/// in floating point, then rounded to multiples of `1 / LAGRANGE_SCALE`; the bound itself is
/// computed exactly (scaled integers), so it holds whatever the rounding.
#[derive(Clone)]
pub(super) struct Lagrange {
    /// `Σμ`, scaled.
    constant: i128,
    /// `p[c * n + v − 1]`: the moved profit of digit `v` in cell `c`, scaled.
    profit: Vec<i128>,
    /// The multipliers before rounding, `μ[(h − n) * n + v − 1]` (to warm-start a re-tuning).
    pub(super) lambda: Vec<f64>,
    /// The rows' best assignments under `profit` at the node the multipliers were tuned for.
    rows: RowMemo<i128>,
    /// The bound at that node (`i64::MIN`: no solution below it).
    pub(super) bound: i64,
}

/// The rows' best assignments at one node: each row's value (its placed cells' profits
/// included) and each cell's digit (bit index). Below that node a row whose cells still allow
/// their digits has the same best value, since its choices only shrank: the Lagrangian bound
/// of a child solves again only the rows its propagation broke.
#[derive(Default, Clone)]
pub(super) struct RowMemo<T> {
    value: Vec<T>,
    digit_of: Vec<usize>,
}

/// Work space of the Lagrangian bound: the assignment solvers and the rows' digits.
#[derive(Default)]
pub(super) struct LagrangeWork {
    exact: Assignment<i128>,
    float: Assignment<f64>,
    /// The rows' assignments of the current subgradient step.
    assigned: RowMemo<f64>,
    row: RowScratch,
}

impl LagrangeWork {
    /// The assignment solvers' work so far ([`Assignment`]'s `work`).
    pub(super) fn work(&self) -> u64 {
        self.exact.work + self.float.work
    }
}

/// One row's problem: its empty cells, its missing digits (bit indices), the assignment.
#[derive(Default)]
pub(super) struct RowScratch {
    cells: Vec<usize>,
    digits: Vec<usize>,
    column_of: Vec<usize>,
}

impl<M: Mask, const C: usize, const H: usize, const W: usize> Search<'_, '_, M, C, H, W> {
    /// An upper bound on the score of any solution below `nodes[d]` (see the module doc): the
    /// least of the house bound, the layer bound and the Lagrangian bound (once tuned).
    pub(super) fn bound(&self, d: usize) -> i64 {
        self.bound_with(d, self.opt.as_ref().and_then(|o| o.lagrange.as_ref()))
    }

    /// [`Search::bound`] with the Lagrangian multipliers of `l` (none: without that bound).
    pub(super) fn bound_with(&self, d: usize, l: Option<&Lagrange>) -> i64 {
        let cheap = self.house_bound(d).min(self.layer_bound(d));
        match l {
            Some(l) if cheap > i64::MIN => cheap.min(self.lagrange_bound_with(d, l)),
            _ => cheap,
        }
    }

    /// The Lagrangian bound of `nodes[d]`, a node at or below the one `l` was tuned for, under
    /// the multipliers of `l`; `i64::MIN` when some row has no assignment (no solution below).
    pub(super) fn lagrange_bound_with(&self, d: usize, l: &Lagrange) -> i64 {
        let mut work = self.lagrange_work.borrow_mut();
        let LagrangeWork { exact, row, .. } = &mut *work;
        let rows = self.rows_assigned(d, &l.profit, exact, row, None, Some(&l.rows));
        Self::scaled_bound(l.constant, rows)
    }

    /// `(constant + rows) / LAGRANGE_SCALE` rounded down into `i64`; `i64::MIN` for no rows.
    fn scaled_bound(constant: i128, rows: Option<i128>) -> i64 {
        match rows {
            Some(rows) => (constant + rows)
                .div_euclid(LAGRANGE_SCALE)
                .clamp(i64::MIN as i128, i64::MAX as i128) as i64,
            None => i64::MIN,
        }
    }

    /// The sum over the rows of their best assignments under `profit` (see [`Lagrange`]);
    /// `None` when a row has none. A placed cell keeps its digit, so each row's problem is its
    /// empty cells against its missing digits. `out` receives each row's value and each cell's
    /// digit; a row whose cells all still allow their digits in `known` (from this node or one
    /// above) takes its value from there.
    fn rows_assigned<T: Amount>(
        &self,
        d: usize,
        profit: &[T],
        solver: &mut Assignment<T>,
        scratch: &mut RowScratch,
        mut out: Option<&mut RowMemo<T>>,
        known: Option<&RowMemo<T>>,
    ) -> Option<T> {
        let (t, node) = (self.t, &self.nodes[d]);
        let n = t.n;
        if let Some(out) = out.as_deref_mut() {
            out.value.resize(n, T::ZERO);
            out.digit_of.resize(t.cells, 0);
        }
        let mut total = T::ZERO;
        let known = known.filter(|k| k.value.len() == n);
        for r in 0..n {
            if let Some(known) = known {
                let still = t.house(r).iter().all(|&c| {
                    node.cands[c as usize] & M::bit(known.digit_of[c as usize] as u32) != M::ZERO
                });
                if still {
                    total = total + known.value[r];
                    continue;
                }
            }
            let RowScratch {
                cells,
                digits,
                column_of,
            } = &mut *scratch;
            let mut value = T::ZERO;
            cells.clear();
            for &c in t.house(r) {
                let c = c as usize;
                if node.unsolved[c / 64] & (1 << (c % 64)) != 0 {
                    cells.push(c);
                } else {
                    let v = node.cands[c].low() as usize;
                    value = value + profit[c * n + v];
                    if let Some(out) = out.as_deref_mut() {
                        out.digit_of[c] = v;
                    }
                }
            }
            digits.clear();
            let mut missing = self.full & !node.placed[r];
            while missing != M::ZERO {
                digits.push(missing.low() as usize);
                missing ^= missing.lowbit();
            }
            column_of.resize(cells.len(), 0);
            let allowed = |i: usize, j: usize| {
                let (c, v) = (cells[i], digits[j]);
                (node.cands[c] & M::bit(v as u32) != M::ZERO).then(|| profit[c * n + v])
            };
            // More empty cells than missing digits, or no assignment: no solution below (and
            // `out` is left empty, so that it is never taken as known).
            let solved = (digits.len() == cells.len())
                .then(|| solver.solve(cells.len(), allowed, column_of))
                .flatten();
            let Some(assigned) = solved else {
                if let Some(out) = out {
                    out.value.clear();
                }
                return None;
            };
            value = value + assigned;
            if let Some(out) = out.as_deref_mut() {
                out.value[r] = value;
                for (&c, &j) in cells.iter().zip(column_of.iter()) {
                    out.digit_of[c] = digits[j];
                }
            }
            total = total + value;
        }
        Some(total)
    }

    /// Chooses the multipliers of the Lagrangian bound at `nodes[d]` by subgradient descent on
    /// the (convex) bound, from `start` (or zero), with Polyak's step towards `target` (a score
    /// some grid is known to reach, or that the search needs to beat), stopping early once the
    /// bound is at most `target` or the rows' assignments form a grid. Then rounds them to
    /// multiples of `1 / LAGRANGE_SCALE`.
    pub(super) fn tune_lagrange(
        &self,
        d: usize,
        start: Option<&[f64]>,
        iterations: usize,
        target: Option<i64>,
    ) -> Lagrange {
        let (t, opt) = (self.t, self.opt.as_ref().expect("optimizing"));
        let n = t.n;
        let others = t.houses - n; // every house but the rows
        let mut work = self.lagrange_work.borrow_mut();
        let work = &mut *work;
        let mut mu = start.map_or_else(|| vec![0f64; others * n], <[f64]>::to_vec);
        let mut profit = vec![0f64; t.cells * n];
        let mut g = vec![0f64; others * n];
        let (mut best, mut best_mu) = (f64::INFINITY, mu.clone());
        // Polyak's step factor: 1 from zero multipliers (the root), 2 from a parent's, the better
        // choices on the optimisation sets of docs/benchmarks.md; halved after 5 steps without a
        // better bound.
        let (mut theta, mut stale) = (if start.is_none() { 1.0 } else { 2.0f64 }, 0);
        let mut aim_at = target.map(|t| t as f64);
        for _ in 0..iterations {
            self.move_profits(
                &mu,
                |c, v| opt.weights[c] as f64 * (v + 1) as f64,
                &mut profit,
            );
            let Some(rows) = self.rows_assigned(
                d,
                &profit,
                &mut work.float,
                &mut work.row,
                Some(&mut work.assigned),
                None,
            ) else {
                break; // no solution below: the exact bound says so too
            };
            let bound = mu.iter().sum::<f64>() + rows;
            if bound < best - 1e-9 {
                (best, best_mu, stale) = (bound, mu.clone(), 0);
            } else {
                stale += 1;
                if stale == 5 {
                    (theta, stale) = (theta / 2.0, 0);
                }
            }
            if target.is_some_and(|t| bound < t as f64 + 1.0) {
                break;
            }
            // With no grid known, aim a tenth below the first bound.
            let aim = *aim_at.get_or_insert(bound - bound.abs() / 10.0 - 1.0);
            g.fill(1.0);
            for h in n..t.houses {
                for &c in t.house(h) {
                    g[(h - n) * n + work.assigned.digit_of[c as usize]] -= 1.0;
                }
            }
            let norm2: f64 = g.iter().map(|x| x * x).sum();
            if norm2 == 0.0 {
                break; // the rows' assignments form a grid: the bound is reached
            }
            let step = theta * (bound - aim).max(1.0) / norm2;
            for (m, gh) in mu.iter_mut().zip(&g) {
                *m -= step * gh;
            }
        }
        let scaled: Vec<i128> = best_mu
            .iter()
            .map(|&m| (m * LAGRANGE_SCALE as f64).round() as i128)
            .collect();
        let mut exact = vec![0i128; t.cells * n];
        let base = |c: usize, v: usize| opt.weights[c] as i128 * LAGRANGE_SCALE * (v + 1) as i128;
        self.move_profits(&scaled, base, &mut exact);
        let constant = scaled.iter().sum();
        let mut rows = RowMemo::default();
        let LagrangeWork {
            exact: solver, row, ..
        } = work;
        let value = self.rows_assigned(d, &exact, solver, row, Some(&mut rows), None);
        Lagrange {
            constant,
            profit: exact,
            lambda: best_mu,
            rows,
            bound: Self::scaled_bound(constant, value),
        }
    }

    /// The moved profits of [`Lagrange`]: `out[c * n + v] = base(c, v) − Σ μ[(h − n) * n + v]`
    /// over the houses `h` of cell `c` other than its row.
    fn move_profits<T: Amount>(&self, mu: &[T], base: impl Fn(usize, usize) -> T, out: &mut [T]) {
        let (t, n) = (self.t, self.t.n);
        for c in 0..t.cells {
            for v in 0..n {
                let mut profit = base(c, v);
                for &h in &t.houses_of(c)[1..] {
                    profit = profit - mu[(h as usize - n) * n + v];
                }
                out[c * n + v] = profit;
            }
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

#[cfg(test)]
mod tests {
    use super::super::{Node, Opt};
    use super::*;
    use crate::dfs::Tables;
    use crate::model::{Regions, Shape};

    type Search9<'a, 'w> = Search<'a, 'w, u16, 81, 29, 2>;

    /// The Lagrangian bound of `nodes[d]` under `l` with every row solved afresh.
    fn afresh(s: &Search9, d: usize, l: &Lagrange) -> i64 {
        let mut work = s.lagrange_work.borrow_mut();
        let LagrangeWork { exact, row, .. } = &mut *work;
        let rows = s.rows_assigned(d, &l.profit, exact, row, None, None);
        Search9::scaled_bound(l.constant, rows)
    }

    /// Random walks down from a tuned node, placing a random candidate and propagating at each
    /// step: at every node below, the bound that keeps the tuned node's row assignments equals
    /// the bound that solves every row again, also under multipliers re-tuned on the way down.
    #[test]
    fn kept_rows_give_the_bound_of_rows_solved_afresh() {
        let jigsaw =
            "000011122301114112300014222330554222333354444635555744668857777666858887666888777";
        let map = jigsaw.bytes().map(|b| u32::from(b - b'0')).collect();
        let shapes = [
            Shape::standard(9, false).unwrap(),
            Shape::standard(9, true).unwrap(),
            Shape::new(9, Regions::Jigsaw(map), true).unwrap(),
            Shape::standard(6, false).unwrap(),
        ];
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut random = move |m: u64| {
            x = crate::rng::xorshift64(x);
            x % m
        };
        let (mut kept, mut checked) = (0, 0);
        for (k, shape) in shapes.iter().enumerate() {
            let t = Tables::new(shape);
            for _ in 0..6 {
                let weights: Vec<i64> = (0..t.cells).map(|_| random(100) as i64 - 20).collect();
                let mut s = Search9::new(&t, &vec![0; t.cells], None);
                s.opt = Some(Opt {
                    weights: &weights,
                    by_weight: t.house_cells.clone(),
                    enumerate: false,
                    lagrange: None,
                });
                assert!(s.propagate_root());
                let root = s.tune_lagrange(0, None, 200, None);
                let mut here: Option<Lagrange> = None;
                let mut d = 0;
                for step in 0..40 {
                    let node: &Node<u16, 81, 29, 2> = &s.nodes[d];
                    let open: Vec<usize> = (0..t.cells)
                        .filter(|&c| node.cands[c].count_ones() > 1)
                        .collect();
                    if open.is_empty() {
                        break;
                    }
                    let c = open[random(open.len() as u64) as usize];
                    let mut digits = node.cands[c];
                    for _ in 0..random(u64::from(digits.count_ones())) {
                        digits &= digits - 1;
                    }
                    s.push_copy(d);
                    s.nodes[d + 1].cands[c] = digits & digits.wrapping_neg();
                    s.queue.push(c as u16);
                    let ok = s.propagate(d + 1);
                    s.queue.clear();
                    if !ok {
                        continue;
                    }
                    d += 1;
                    for l in std::iter::once(&root).chain(here.as_ref()) {
                        let fresh = afresh(&s, d, l);
                        assert_eq!(s.lagrange_bound_with(d, l), fresh, "shape {k}, depth {d}");
                        kept += usize::from(fresh > i64::MIN);
                        checked += 1;
                    }
                    if step % 4 == 3 {
                        let start = here.as_ref().unwrap_or(&root).lambda.clone();
                        here = Some(s.tune_lagrange(d, Some(&start), RETUNE_ITERATIONS, None));
                    }
                }
            }
        }
        // Most nodes checked have a solution below them, so their rows were compared.
        assert!(checked > 200 && kept * 2 > checked, "{kept} of {checked}");
    }
}
