//! The sums of variant rules as clauses: linear sums (arrows, little killers, double arrows,
//! zipper and region sum lines), sandwiches and X-sums, by the [`SumEncoding`] chosen
//! (`--sum-encoding`).
//!
//! ## Order-encoded partial sums (`order`)
//!
//! An integer `X` whose possible values are `v_0 < v_1 < … < v_m` is a *ladder*: the literals
//! `[X ≥ v_j]` (`[X ≥ v_0]` true), chained `[X ≥ v_{j+1}] → [X ≥ v_j]`. A term `k·x_c` of a
//! cell is a ladder over the cell's order literals `o(c,d)` ⇔ `x_c ≥ d` (shared with the pair
//! rules, see `encode/variants.rs`): `[k·x_c ≥ k·d]` is `o(c,d)` for `k > 0` and `¬o(c,d+1)` for
//! `k < 0`. The sum is built term by term, `S_{i+1} = S_i + T_i`, each partial sum a new ladder
//! over the values it can reach, by the two families of the order encoding of an addition
//! (Tamura et al.): for each value `s` of `S_i` and `t` of `T_i`
//!
//! - `[S_i ≥ s] ∧ [T_i ≥ t] → [S_{i+1} ≥ s + t]`,
//! - `[S_i ≤ s] ∧ [T_i ≤ t] → [S_{i+1} ≤ s + t]` (`[X ≤ v_j]` is `¬[X ≥ v_{j+1}]`),
//!
//! `2·|S_i|·|T_i|` clauses at most. Unit propagation on them reaches the bounds of each addition
//! both ways: a bound on the cells gives one on the partial sums, and a bound on a sum one on
//! its last term and partial sum; with the right-hand side fixed, a digit that no value of the
//! others can complete is removed once the others' bounds leave it no room, the reasoning of
//! `cp`'s bounds on a linear equality. (The binary adder's carries hold the same information, but
//! unit propagation cannot read a bound out of a carry.)
//!
//! A sum with a fixed right-hand side `r` keeps each partial sum within what the terms left can
//! still complete, `[r − max(rest), r − min(rest)]`: values outside are not created, and the
//! clauses that would reach them forbid their premises. So the last partial sum has the single
//! value `r`, and each term's range is cut at once by the others'. Terms of one cell are merged
//! first (a region sum line through a cell twice, a zipper's middle).
//!
//! - **sandwiches**: for each cell `i` of the line, `e(i)` "holds 1 or `n`", prefix and suffix ORs
//!   of it, `in(i)` = some end before and some end after (the line is a house, so it has exactly
//!   one 1 and one `n`); the cell adds `in(i)·x_i`, a ladder over the values `0` and the cell's
//!   digits `d` in `2..n`, `[· ≥ d]` = `in(i) ∧ o(i,d)`; then the sum of those ladders is the clue.
//! - **X-sums**: one ladder of the prefix sums `P_j` of the cells after the first (values above
//!   the clue merged into "at least the clue": the terms are positive), shared by every `X`, and
//!   for each digit `X` the first cell may hold, `x(first, X) → P_{X−1} = clue − X` as two binary
//!   clauses (`¬x(first,X) ∨ [P ≥ clue − X]`, `¬x(first,X) ∨ ¬[P ≥ clue − X + 1]`), so a prefix
//!   sum that can no longer be `clue − X` removes `X` from the first cell.
//!
//! ## Pseudo-Boolean forms (`adder`, `gte`)
//!
//! `Σ k·d·x(c,d) = rhs` over the cell variables: the terms of one variable are merged (rustsat's
//! encodings take each literal once: a literal given twice keeps one weight), a negative weight
//! is moved over as its negated literal (plus a constant), then the equality by rustsat's binary
//! adder (`adder`, as `--cage-encoding adder` does for cages: both bounds at once) or as two
//! generalized-totalizer upper bounds (`gte`: the sum, and the sum of the literals left out). A
//! sandwich sums `y(i,d) = in(i) ∧ x(i,d)` weighted by `d`; an X-sum writes one sum per `X`, of
//! the next `X − 1` cells, whose enforcing units become clauses `¬x(first, X) ∨ unit` (the
//! encodings' own clauses only define their outputs, so they hold whatever `X` is).
//!
//! ## Which, by default (`auto`)
//!
//! `order` for a sum whose ladder stays within [`ORDER_SUM_MAX_CLAUSES`] clauses (every 9×9
//! sum: a full line of nine cells needs about 3,100; a full 16-cell line with a large total
//! about 31,000), `adder` above, where the ladder's partial sums grow with the square of the
//! side. docs/benchmarks.md ("The published kinds") has the measurements of each form.
//!
//! References: N. Tamura, A. Taga, S. Kitagawa, M. Banbara, *Compiling finite linear CSP into
//! SAT*, Constraints 14 (2009) (the order encoding of a sum).

use rustsat::encodings::pb::{BinaryAdder, BoundBoth as _, BoundUpper as _, GeneralizedTotalizer};

use super::{and, fresh, not, or, pb_bound_if, Builder, Orders, SumEncoding, Val};
use crate::model::lower::{EdgeLine, SandwichLine};
use crate::sat::encode::ORDER_SUM_MAX_CLAUSES;
use crate::sat::{ClauseSink, Lit, Var};

/// An integer by its order literals: `values` ascending, `ge[j]` = "at least `values[j]`"
/// (`ge[0]` true).
#[derive(Debug, Clone)]
struct Ladder {
    values: Vec<i64>,
    ge: Vec<Val>,
}

impl Ladder {
    fn constant(v: i64) -> Ladder {
        Ladder {
            values: vec![v],
            ge: vec![Val::True],
        }
    }

    /// "At least `t`": true below the least value, false above the greatest.
    fn at_least(&self, t: i64) -> Val {
        match self.values.partition_point(|&v| v < t) {
            0 => Val::True,
            j if j == self.values.len() => Val::False,
            j => self.ge[j],
        }
    }

    /// "At most `values[j]`".
    fn at_most(&self, j: usize) -> Val {
        not(self.ge.get(j + 1).copied().unwrap_or(Val::False))
    }
}

/// How the values of a partial sum are kept: required within `lo..=hi` (a sum with a fixed
/// right-hand side), or merged above `hi` into "at least `hi`" (positive terms, several targets).
#[derive(Debug, Clone, Copy)]
enum Keep {
    Within(i64, i64),
    Saturate(i64),
}

impl Keep {
    /// The value `v` stands for, if kept.
    fn map(self, v: i64) -> Option<i64> {
        match self {
            Keep::Within(lo, hi) => (lo..=hi).contains(&v).then_some(v),
            Keep::Saturate(hi) => Some(v.min(hi)),
        }
    }
}

/// The values of `S + T` kept by `keep`, ascending.
fn sum_values(s: &[i64], t: &[i64], keep: Keep) -> Vec<i64> {
    let mut v: Vec<i64> = s
        .iter()
        .flat_map(|&x| t.iter().filter_map(move |&y| keep.map(x + y)))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The clauses of a chain of additions over terms with these values, `keep(i)` for the partial
/// sum after term `i` (the size [`SumEncoding::Auto`] compares with its limit).
fn ladder_clauses(terms: &[Vec<i64>], keep: impl Fn(usize) -> Keep) -> usize {
    let mut s = vec![0];
    let mut clauses = 0;
    for (i, t) in terms.iter().enumerate() {
        clauses += 2 * s.len() * t.len();
        s = sum_values(&s, t, keep(i));
    }
    clauses
}

/// `S + T` as a new ladder over the values `keep` keeps (see the module docs); `None` when it
/// keeps none (the sum cannot be met).
fn add<S: ClauseSink + ?Sized>(
    s: &Ladder,
    t: &Ladder,
    keep: Keep,
    b: &mut Builder<'_, S>,
) -> Option<Ladder> {
    let values = sum_values(&s.values, &t.values, keep);
    if values.is_empty() {
        return None;
    }
    // A constant plus a ladder whose values all stay is that ladder, shifted.
    if let [c] = s.values[..] {
        if t.values.iter().all(|&y| keep.map(c + y) == Some(c + y)) {
            let values = t.values.iter().map(|&y| c + y).collect();
            return Some(Ladder {
                values,
                ge: t.ge.clone(),
            });
        }
    }
    let mut ge = vec![Val::True];
    ge.extend((1..values.len()).map(|_| Val::Lit(fresh(b))));
    for w in ge.windows(2).skip(1) {
        b.alo([not(w[1]), w[0]].into_iter());
    }
    let sum = Ladder { values, ge };
    for (j, &x) in s.values.iter().enumerate() {
        for (k, &y) in t.values.iter().enumerate() {
            // Below the kept range: true; above it (not saturated): false, forbidding the premises.
            let low = sum.at_least(match keep {
                Keep::Saturate(hi) => (x + y).min(hi),
                Keep::Within(..) => x + y,
            });
            b.alo([not(s.ge[j]), not(t.ge[k]), low].into_iter());
            if matches!(keep, Keep::Saturate(hi) if x + y >= hi) {
                continue;
            }
            let high = sum.at_least(x + y + 1);
            b.alo([not(s.at_most(j)), not(t.at_most(k)), not(high)].into_iter());
        }
    }
    Some(sum)
}

/// The values of `k · x_cell`, ascending, with each one's digit.
fn term_values(cell: usize, k: i64, n: usize, val: &impl Fn(usize, usize) -> Val) -> Vec<i64> {
    let mut v: Vec<i64> = (1..=n as i64)
        .filter(|&d| val(cell, d as usize - 1) != Val::False)
        .map(|d| k * d)
        .collect();
    v.sort_unstable();
    v
}

/// `k · x_cell` as a ladder over the cell's order literals.
fn cell_term<S: ClauseSink + ?Sized>(
    cell: usize,
    k: i64,
    orders: &mut Orders,
    val: &impl Fn(usize, usize) -> Val,
    b: &mut Builder<'_, S>,
) -> Ladder {
    let values = term_values(cell, k, orders.n, val);
    if values.len() <= 1 {
        // One digit left (the cell's at-least-one clause holds it), or none (that clause is
        // already empty).
        return Ladder::constant(values.first().copied().unwrap_or(0));
    }
    orders.define(cell, val, b);
    let ge = values
        .iter()
        .map(|&v| match k > 0 {
            true => orders.at(cell, v / k),
            false => not(orders.at(cell, v / k + 1)),
        })
        .collect();
    Ladder { values, ge }
}

/// `Σ terms = rhs` by a chain of additions, each partial sum kept within what the terms left can
/// complete.
fn ladder_eq<S: ClauseSink + ?Sized>(terms: &[Ladder], rhs: i64, b: &mut Builder<'_, S>) {
    let keep = within(terms.iter().map(|t| &t.values[..]), rhs);
    let mut s = Ladder::constant(0);
    for (i, t) in terms.iter().enumerate() {
        match add(&s, t, keep[i], b) {
            Some(next) => s = next,
            None => return b.out.add_clause(&[]),
        }
    }
    if s.values != [rhs] {
        b.out.add_clause(&[]);
    }
}

/// For each term, the range its partial sum must stay within for `Σ = rhs`.
fn within<'a>(terms: impl DoubleEndedIterator<Item = &'a [i64]>, rhs: i64) -> Vec<Keep> {
    let mut keep = vec![];
    let (mut lo, mut hi) = (rhs, rhs);
    for t in terms.rev() {
        keep.push(Keep::Within(lo, hi));
        lo -= t.last().copied().unwrap_or(0);
        hi -= t.first().copied().unwrap_or(0);
    }
    keep.reverse();
    keep
}

/// The encoding a sum gets: `how`, or under `Auto` `order` unless the ladder's `clauses` pass
/// the limit.
fn resolve(how: SumEncoding, clauses: impl FnOnce() -> usize) -> SumEncoding {
    match how {
        SumEncoding::Auto if clauses() <= ORDER_SUM_MAX_CLAUSES => SumEncoding::Order,
        SumEncoding::Auto => SumEncoding::Adder,
        h => h,
    }
}

/// `Σ k · x_c = rhs` over the cells of `terms` (a [`crate::model::lower::LinearSum`]).
pub(super) fn linear_eq<S: ClauseSink + ?Sized>(
    terms: &[(u32, i64)],
    rhs: i64,
    how: SumEncoding,
    orders: &mut Orders,
    val: &impl Fn(usize, usize) -> Val,
    b: &mut Builder<'_, S>,
) {
    let n = orders.n;
    // One weight per cell, in the order met.
    let mut merged: Vec<(usize, i64)> = vec![];
    for &(c, k) in terms {
        match merged.iter_mut().find(|(x, _)| *x == c as usize) {
            Some((_, w)) => *w += k,
            None => merged.push((c as usize, k)),
        }
    }
    merged.retain(|&(_, k)| k != 0);
    let values: Vec<Vec<i64>> = merged
        .iter()
        .map(|&(c, k)| term_values(c, k, n, val))
        .collect();
    let keep = within(values.iter().map(|v| &v[..]), rhs);
    match resolve(how, || ladder_clauses(&values, |i| keep[i])) {
        SumEncoding::Order => {
            let ladders: Vec<Ladder> = merged
                .iter()
                .map(|&(c, k)| cell_term(c, k, orders, val, b))
                .collect();
            ladder_eq(&ladders, rhs, b);
        }
        how => {
            let mut lits = vec![];
            for &(c, k) in &merged {
                lits.extend((0..n).map(|d| (val(c, d), k * (d as i64 + 1))));
            }
            weighted_eq(lits, rhs, None, how, b);
        }
    }
}

/// An X-sum clue (see the module docs).
pub(super) fn x_sum<S: ClauseSink + ?Sized>(
    clue: &EdgeLine,
    how: SumEncoding,
    orders: &mut Orders,
    val: &impl Fn(usize, usize) -> Val,
    b: &mut Builder<'_, S>,
) {
    let (n, cells) = (orders.n, &clue.cells);
    let first = cells[0] as usize;
    let xs: Vec<usize> = (1..=n.min(cells.len()))
        .filter(|&x| val(first, x - 1) != Val::False)
        .collect();
    let Some(&last) = xs.last() else {
        return;
    };
    let cap = clue.value as i64;
    let rest = &cells[1..last];
    let values: Vec<Vec<i64>> = rest
        .iter()
        .map(|&c| term_values(c as usize, 1, n, val))
        .collect();
    let guard = |x: usize| match val(first, x - 1) {
        Val::Lit(l) => Some(l),
        _ => None,
    };
    match resolve(how, || ladder_clauses(&values, |_| Keep::Saturate(cap))) {
        SumEncoding::Order => {
            let mut prefix = vec![Ladder::constant(0)];
            for &c in rest {
                let t = cell_term(c as usize, 1, orders, val, b);
                let next = add(&prefix[prefix.len() - 1], &t, Keep::Saturate(cap), b);
                prefix.push(next.expect("a saturated sum keeps every value"));
            }
            for &x in &xs {
                let off = not(val(first, x - 1));
                let target = cap - x as i64;
                if target < 0 {
                    b.alo(std::iter::once(off));
                    continue;
                }
                let p = &prefix[x - 1];
                b.alo([off, p.at_least(target)].into_iter());
                b.alo([off, not(p.at_least(target + 1))].into_iter());
            }
        }
        how => {
            for &x in &xs {
                let mut terms = vec![];
                for &c in &cells[1..x] {
                    terms.extend((0..n).map(|d| (val(c as usize, d), d as i64 + 1)));
                }
                weighted_eq(terms, cap - x as i64, guard(x), how, b);
            }
        }
    }
}

/// The sum between the 1 and the `n` of a line (see the module docs).
pub(super) fn sandwich<S: ClauseSink + ?Sized>(
    s: &SandwichLine,
    how: SumEncoding,
    orders: &mut Orders,
    val: &impl Fn(usize, usize) -> Val,
    b: &mut Builder<'_, S>,
) {
    let (n, line, clue) = (orders.n, &s.cells, s.sum);
    let k = line.len();
    // The digits each cell may add: 2..n it may hold.
    let inner: Vec<Vec<i64>> = line
        .iter()
        .map(|&c| {
            let v = term_values(c as usize, 1, n, val);
            v.into_iter().filter(|&d| d > 1 && d < n as i64).collect()
        })
        .collect();
    let values: Vec<Vec<i64>> = inner
        .iter()
        .map(|v| std::iter::once(0).chain(v.iter().copied()).collect())
        .collect();
    let keep = within(values.iter().map(|v| &v[..]), clue as i64);
    let how = resolve(how, || ladder_clauses(&values, |i| keep[i]));
    let ends: Vec<Val> = line
        .iter()
        .map(|&c| {
            let (one, top) = (val(c as usize, 0), val(c as usize, n - 1));
            or(one, top, b)
        })
        .collect();
    let mut before = vec![Val::False; k];
    for i in 1..k {
        before[i] = or(before[i - 1], ends[i - 1], b);
    }
    let mut after = vec![Val::False; k];
    for i in (0..k - 1).rev() {
        after[i] = or(after[i + 1], ends[i + 1], b);
    }
    let inside: Vec<Val> = (0..k).map(|i| and(before[i], after[i], b)).collect();
    if how == SumEncoding::Order {
        let mut terms = vec![];
        for (i, &c) in line.iter().enumerate() {
            let (c, ds) = (c as usize, &inner[i]);
            if inside[i] == Val::False || ds.is_empty() {
                terms.push(Ladder::constant(0));
                continue;
            }
            orders.define(c, val, b);
            let mut ge = vec![Val::True, inside[i]];
            for &d in &ds[1..] {
                ge.push(and(inside[i], orders.at(c, d), b));
            }
            terms.push(Ladder {
                values: values[i].clone(),
                ge,
            });
        }
        return ladder_eq(&terms, clue as i64, b);
    }
    let mut terms = vec![];
    for (i, &c) in line.iter().enumerate() {
        for d in 1..n - 1 {
            let y = and(inside[i], val(c as usize, d), b);
            terms.push((y, d as i64 + 1));
        }
    }
    weighted_eq(terms, clue as i64, None, how, b);
}

/// `Σ weight · value = rhs` over 0/1 values (every cell has exactly one true digit) by a
/// pseudo-Boolean encoding (`adder`, or `gte` for any other `how`); with `guard`, only when the
/// guard holds.
fn weighted_eq<S: ClauseSink + ?Sized>(
    terms: Vec<(Val, i64)>,
    rhs: i64,
    guard: Option<Lit>,
    how: SumEncoding,
    b: &mut Builder<'_, S>,
) {
    // Constants fold into the right-hand side; the terms of one variable merge into one weight
    // on its positive literal (w·¬v = w − w·v), which then flips to the negated literal when
    // negative (w·v = w + |w|·¬v), so every literal reaches the encoding once, weight > 0.
    let mut rest = rhs;
    let mut weight: std::collections::BTreeMap<u32, i64> = std::collections::BTreeMap::new();
    for (v, w) in terms {
        match v {
            Val::False => {}
            Val::True => rest -= w,
            Val::Lit(l) if l.is_pos() => *weight.entry(l.vidx32()).or_default() += w,
            Val::Lit(l) => {
                rest -= w;
                *weight.entry(l.vidx32()).or_default() -= w;
            }
        }
    }
    let mut lits: Vec<(Lit, usize)> = vec![];
    for (var, w) in weight {
        let l = Var::new(var).pos_lit();
        match w {
            0 => {}
            w if w > 0 => lits.push((l, w as usize)),
            w => {
                rest -= w;
                lits.push((!l, (-w) as usize));
            }
        }
    }
    let total: i64 = lits.iter().map(|&(_, w)| w as i64).sum();
    if rest < 0 || rest > total {
        b.out
            .add_clause(&guard.map(|g| !g).into_iter().collect::<Vec<_>>());
        return;
    }
    if lits.is_empty() {
        return;
    }
    let rest = rest as usize;
    if how == SumEncoding::Adder {
        let adder: BinaryAdder = lits.into_iter().collect();
        return pb_bound_if(b, guard, adder, |e, col, vars| {
            e.encode_both(rest..=rest, col, vars).ok()?;
            e.enforce_eq(rest).ok()
        });
    }
    // Σ w·l ≤ rest, and Σ w·¬l ≤ total − rest.
    let slack = total as usize - rest;
    let negated: Vec<(Lit, usize)> = lits.iter().map(|&(l, w)| (!l, w)).collect();
    for (lits, ub) in [(lits, rest), (negated, slack)] {
        let gte: GeneralizedTotalizer = lits.into_iter().collect();
        pb_bound_if(b, guard, gte, |e, col, vars| {
            e.encode_ub(ub..=ub, col, vars).ok()?;
            e.enforce_ub(ub).ok()
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{digits, propagate, with_cells};
    use super::*;
    use crate::sat::maxsat::Oracle as _;
    use crate::sat::{Cnf, VarisatSink};

    const N: usize = 6;

    /// Sums over cells `0..`: a line of three, an arrow, a region sum line's two segments, a pill
    /// arrow (circle `10·a + b`), a cell met twice.
    const SUMS: [(&[(u32, i64)], i64); 6] = [
        (&[(0, 1), (1, 1), (2, 1)], 9),
        (&[(0, 1), (1, 1), (2, -1)], 0),
        (&[(0, 1), (1, 1), (2, -1), (3, -1)], 0),
        (&[(0, 1), (1, 1), (2, 1), (3, -10), (4, -1)], 0),
        (&[(0, 2), (1, 1), (0, -1), (2, 1)], 7),
        (&[(0, 1), (1, 1), (2, 1), (3, 1)], 14),
    ];

    /// Domains (bit `d − 1`: digit `d`) the cells are given, in turn.
    const DOMS: [u32; 6] = [0b111111, 0b000100, 0b110001, 0b011110, 0b100011, 0b001010];

    fn encoded(terms: &[(u32, i64)], rhs: i64, doms: &[u32], how: SumEncoding) -> (Cnf, Vec<Val>) {
        with_cells(N, doms, |val, b| {
            linear_eq(terms, rhs, how, &mut Orders::new(N), &val, b)
        })
    }

    /// The cells' merged weights, in order.
    fn weights(terms: &[(u32, i64)], cells: usize) -> Vec<i64> {
        let mut w = vec![0; cells];
        terms.iter().for_each(|&(c, k)| w[c as usize] += k);
        w
    }

    /// Every assignment of digits from the domains, as one digit per cell.
    fn assignments(doms: &[u32]) -> Vec<Vec<u32>> {
        let mut all = vec![vec![]];
        for &dom in doms {
            let ds = (1..=N as u32).filter(|&d| dom >> (d - 1) & 1 != 0);
            all = all
                .iter()
                .flat_map(|a| ds.clone().map(move |d| [&a[..], &[d]].concat()))
                .collect();
        }
        all
    }

    /// Every assignment of digits from the domains: the formula is satisfiable with those digits
    /// exactly when `holds` (varisat, under assumptions), and under `order` unit propagation alone
    /// finds the conflict, or settles every variable.
    fn check_assignments(
        (cnf, vals): &(Cnf, Vec<Val>),
        doms: &[u32],
        how: SumEncoding,
        holds: impl Fn(&[u32]) -> bool,
        what: &str,
    ) {
        let mut solver = VarisatSink::new(varisat::Solver::new());
        cnf.feed(&mut solver);
        for a in assignments(doms) {
            let units: Vec<Lit> = a
                .iter()
                .enumerate()
                .filter_map(|(c, &d)| match vals[c * N + d as usize - 1] {
                    Val::Lit(l) => Some(l),
                    _ => None,
                })
                .collect();
            let sat = solver.solve_assuming(&units).unwrap();
            assert_eq!(sat, holds(&a), "{what}: digits {a:?}");
            if how == SumEncoding::Order {
                let value = propagate(cnf, &units);
                assert_eq!(value.is_some(), sat, "{what}: digits {a:?} by propagation");
                let open = value.is_some_and(|v| v.iter().any(Option::is_none));
                assert!(!open, "{what}: {a:?} leaves variables open");
            }
        }
    }

    /// Each sum under each encoding, on cells with rotating domains: (1) exact on every
    /// assignment ([`check_assignments`]); (2) under `order`, unit propagation alone leaves
    /// each cell only digits `v` with `rhs − w·v` within the least and greatest sums of the
    /// others' digits left (the bounds of the linear equality), or a conflict when the sum has
    /// no solution.
    #[test]
    fn sums_state_the_equality_and_order_propagates_its_bounds() {
        for (terms, rhs) in SUMS {
            let cells = terms
                .iter()
                .map(|&(c, _)| c as usize + 1)
                .max()
                .unwrap_or(0);
            let w = weights(terms, cells);
            for shift in 0..DOMS.len() {
                let doms: Vec<u32> = (0..cells).map(|i| DOMS[(i + shift) % DOMS.len()]).collect();
                let holds =
                    |a: &[u32]| a.iter().zip(&w).map(|(&d, &k)| k * d as i64).sum::<i64>() == rhs;
                let solutions = assignments(&doms).into_iter().filter(|a| holds(a)).count();
                for how in SumEncoding::ALL {
                    let what = format!("{terms:?} = {rhs} on {doms:?} under {how}");
                    let encoded = encoded(terms, rhs, &doms, how);
                    check_assignments(&encoded, &doms, how, holds, &what);
                    let (cnf, vals) = encoded;
                    if how != SumEncoding::Order {
                        continue;
                    }
                    let Some(value) = propagate(&cnf, &[]) else {
                        assert_eq!(solutions, 0, "{what}: a conflict, but solutions");
                        continue;
                    };
                    let left: Vec<Vec<u32>> = (0..cells)
                        .map(|c| digits(&vals[c * N..][..N], &value))
                        .collect();
                    let (lo, hi): (Vec<i64>, Vec<i64>) = (0..cells)
                        .map(|c| {
                            let v = left[c].iter().map(|&d| w[c] * d as i64);
                            (v.clone().min().unwrap_or(0), v.max().unwrap_or(0))
                        })
                        .unzip();
                    let (all_lo, all_hi): (i64, i64) = (lo.iter().sum(), hi.iter().sum());
                    for c in 0..cells {
                        for &d in &left[c] {
                            let need = rhs - w[c] * d as i64;
                            let (others_lo, others_hi) = (all_lo - lo[c], all_hi - hi[c]);
                            assert!(
                                (others_lo..=others_hi).contains(&need),
                                "{what}: cell {c} keeps {d}, the others reach {others_lo}..={others_hi}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// An X-sum clue on a line of six cells under each encoding, on rotating domains: exact on
    /// every assignment ([`check_assignments`]: the first `X` cells add up to the clue, `X` the
    /// first cell's digit); under `order`, unit propagation alone leaves the first cell only
    /// digits `X` whose `clue − X` lies within the least and greatest sums of the next `X − 1`
    /// cells' digits left.
    #[test]
    fn x_sums_state_the_clue_and_order_propagates_its_bounds() {
        let line = EdgeLine {
            cells: (0..N as u32).collect(),
            value: 0,
        };
        for value in [1, 4, 7, 10, 13] {
            let clue = EdgeLine {
                value,
                ..line.clone()
            };
            for shift in 0..DOMS.len() {
                let doms: Vec<u32> = (0..N).map(|i| DOMS[(i + shift) % DOMS.len()]).collect();
                let holds = |a: &[u32]| a[..a[0] as usize].iter().sum::<u32>() == value;
                for how in SumEncoding::ALL {
                    let what = format!("X-sum {value} on {doms:?} under {how}");
                    let encoded = with_cells(N, &doms, |val, b| {
                        x_sum(&clue, how, &mut Orders::new(N), &val, b)
                    });
                    check_assignments(&encoded, &doms, how, holds, &what);
                    let (cnf, vals) = encoded;
                    let value_left = match (how, propagate(&cnf, &[])) {
                        (SumEncoding::Order, Some(v)) => v,
                        _ => continue,
                    };
                    let left: Vec<Vec<u32>> = (0..N)
                        .map(|c| digits(&vals[c * N..][..N], &value_left))
                        .collect();
                    for &x in &left[0] {
                        let rest = &left[1..x as usize];
                        let lo: u32 = rest.iter().map(|d| d.first().copied().unwrap_or(0)).sum();
                        let hi: u32 = rest.iter().map(|d| d.last().copied().unwrap_or(0)).sum();
                        assert!(
                            (lo..=hi).contains(&(value.saturating_sub(x))) && x <= value,
                            "{what}: the first cell keeps {x}, the next cells reach {lo}..={hi}"
                        );
                    }
                }
            }
        }
    }

    /// `auto` is `order` for a 9×9 line of nine cells and `adder` for a 25×25 line of 25.
    #[test]
    fn auto_takes_the_ladder_while_it_is_small() {
        for (n, order) in [(9usize, true), (25, false)] {
            let line: Vec<Vec<i64>> = vec![(1..=n as i64).collect(); n];
            let total = (n * (n + 1) / 2) as i64;
            let keep = within(line.iter().map(|v| &v[..]), total);
            let clauses = ladder_clauses(&line, |i| keep[i]);
            assert_eq!(
                clauses <= ORDER_SUM_MAX_CLAUSES,
                order,
                "{n}: {clauses} clauses"
            );
            let expected = if order {
                SumEncoding::Order
            } else {
                SumEncoding::Adder
            };
            assert_eq!(resolve(SumEncoding::Auto, || clauses), expected);
        }
    }
}
