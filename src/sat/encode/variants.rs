//! Variant rules as clauses, over the lowering of [`crate::model::lower`], one part per kind in
//! the statistics (`encode --stats`).
//!
//! - **pairs** (chess exclusions, thermometer and whisper steps, palindromes, dots, negative
//!   rules, and renban's "at most `k − 1` apart"), by the [`PairEncoding`] chosen
//!   (`--pair-encoding`):
//!   - `direct` (default), for every rule: the direct encoding of a binary relation, a
//!     *conflict* clause `¬x(a,d) ∨ ¬x(b,e)` for every pair of digits the rule forbids, and a
//!     *support* clause `¬x(a,d) ∨ ⋁ x(b,e)` over the digits it allows beside `d` (both ways).
//!     The conflicts make every model keep the rule; the supports make unit propagation reach
//!     arc consistency on the pair, as the `dfs` and `cp` backends do.
//!   - `order`: the rules whose allowed digits form intervals are stated over *order literals*
//!     `o(c,d)` ⇔ `x_c ≥ d`, the others as with `direct` (see below).
//!
//! - **extra houses** (disjoint groups, extra regions of `n` cells): at most and at least one cell
//!   per digit, like a house; **distinct groups** at most one.
//! - **sums** (arrows, little killers, double arrows, zipper and region sum lines: `Σ k·x_c =
//!   rhs`), **sandwiches** and **X-sums**, by the [`SumEncoding`] chosen (`--sum-encoding`):
//!   `auto` (default) builds order-encoded partial sums over the cells' order literals, so that
//!   unit propagation reasons over bounds, and falls back to rustsat's binary adder for a sum
//!   too large; `order`, `adder` and `gte` force one form (`encode/variants/sums.rs`).
//! - **parity** and **candidates**: unit clauses removing the other digits.
//! - **quadruples**: for a digit listed `k` times among `m` cells, every `m − k + 1` of the
//!   cells hold it somewhere (at least `k` of the `m` literals; a quadruple has at most 4 cells,
//!   so at most 6 clauses a digit, no new variable).
//! - **between and lockout lines** (the ends' interval; the lockout's ends' gap is a pair):
//!   - `direct` (default): for each pair of end digits `(x, y)` and each inner cell,
//!     `¬x(a,x) ∨ ¬x(b,y) ∨` the digits the cell may then hold: `n²` clauses an inner cell.
//!   - `order`, between lines only: `o(a,d) ∧ o(b,d) → o(c,d+1)` and
//!     `¬o(a,d) ∧ ¬o(b,d) → ¬o(c,d−1)` for each inner cell `c` and digit `d` (both ends at least
//!     `d`: the cell above `d`; both below `d`: the cell below `d − 1`), which together say
//!     exactly `min < c < max`. `2n + 2` ternary clauses an inner cell instead of `n²`, plus
//!     the cells' order literals, and unit propagation keeps the same strength: with both ends
//!     known either form leaves the cell the open interval, with one end or the cell known
//!     neither removes a digit by itself (both find the conflict once a digit is tried).
//!     A lockout's inner cell lies outside the interval, on either side: that is two intervals,
//!     which would need a side literal per cell; it stays direct.
//! - **skyscrapers** (the line from the clue, cells `c_0, c_1, …`): the running maximum as order
//!   literals `m(i,d) = m(i−1,d) ∨ o(c_i,d)` ("one of the first `i + 1` cells is at least `d`",
//!   over the cells' order literals), a *seen* literal `s(i)` per cell after the first (always
//!   seen) with `x(c_i,d) ∧ ¬m(i−1,d) → s(i)` and `x(c_i,d) ∧ m(i−1,d) → ¬s(i)`, and
//!   `Σ s(i) = clue − 1` by rustsat's totalizer (both bounds).
//!
//! ## Order encoding of pairs
//!
//! **Order literals.** A cell that takes part in an order-encoded rule (a pair, a between line
//! or a sum under the order forms, a skyscraper) gets them once, the first
//! time a rule needs them, in that rule's kind's part of the statistics. `o(c,1)` is true and
//! `o(c,n+1)` false; below the cell's least free digit they are true, above its greatest false,
//! and where digit `d` is not free `o(c,d)` is `o(c,d+1)` (so a given or fixed cell has only
//! constants, and a cell with `m` free digits `m − 1` new variables). Clauses: the chain
//! `o(c,d+1) → o(c,d)` between its variables, and for each free digit the channelling
//! `x(c,d) ⇔ o(c,d) ∧ ¬o(c,d+1)`. Given the cell's at-least-one clause, the channelling alone
//! also keeps a cell to one digit, so the order literals are exactly its digit's bounds in every
//! model, under every `--encoding`.
//!
//! **Which rule gets which form** under `order`:
//!
//! | rule | form | why |
//! |---|---|---|
//! | `Rise(k)` (thermometer step `a < b`) | `o(a,d) → o(b,d+k)` for each `d`: pure order clauses, binary | monotone: a bound of either cell gives the other's; the same clauses read backwards are `[b ≤ d] → [a ≤ d−k]` |
//! | `Apart(k)` (whisper), `Is(Difference(k))` (white dot), `Within(k)` (renban pair) | interval form, both ways (below) | the digits one cell allows beside `d` are an interval, or an interval with one gap |
//! | `Is(Ratio)` (black dot), `Is(Sum)` (X, V), `Not(..)` (negative rules), `Equal` (palindrome), `Differ` (chess) | direct | no interval: a sum or an equality allows one digit beside `d` (a binary support clause), a ratio one or two far apart; a negative or chess rule forbids one or two digits (binary conflicts). Order literals would add variables and shorten nothing |
//!
//! *Interval form*, for each free digit `d` of one cell `p` of the pair and the set `A(d)` of
//! digits the other cell `q` may then hold, with `[lo, hi]` the smallest interval holding `A(d)`:
//! `x(p,d) → o(q,lo)` and `x(p,d) → ¬o(q,hi+1)` (dropped at the grid's ends); the digits of
//! `[lo, hi]` outside `A(d)`, when they are one run `g..=h` of two or more (a whisper's or a
//! white dot's gap), as `x(p,d) → ¬o(q,g) ∨ o(q,h+1)`, otherwise (a renban pair's `d` itself, a
//! difference-1 dot's `d`) as direct conflicts `¬x(p,d) ∨ ¬x(q,e)`, each written once. `A(d)`
//! empty gives the unit `¬x(p,d)`. The same clauses from the other cell's digits make unit
//! propagation reach the bounds: a digit with no allowed partner within the other cell's
//! current bounds is removed, and the channelling moves the bounds. The direct form removes
//! digits whose partners are all gone even inside the bounds (arc consistency). Sizes: a pair
//! costs `O(n)` clauses instead of up to `n²` conflicts, but the order literals cost about three
//! clauses per free digit of each cell, so the formula is not always smaller: on generated 9×9
//! puzzles the whisper part shrinks, the Kropki and thermometer parts grow (docs/benchmarks.md,
//! "SAT pair encodings", has the clause counts).
//!
//! Every model keeps the rule under both forms: the clauses state the relation exactly. On the
//! generated 9×9 sets `order` was not faster, and slower on Kropki dots, where arc consistency
//! matters (docs/benchmarks.md, "SAT pair encodings"), so `direct` is the default.

use rustsat::encodings::card::{BoundBoth as _, Totalizer};

use super::{pb_bound, pb_bound_if, Builder, PairEncoding, Part, SumEncoding, Val};
use crate::model::lower::{Between, PairRule, Rules};
use crate::model::{DotRule, Puzzle};
use crate::sat::{ClauseSink, Lit, Var};

mod sums;

/// Encodes every variant rule of `puzzle` (not its cages), one part per kind.
pub(super) fn encode_rules<S: ClauseSink + ?Sized>(
    puzzle: &Puzzle,
    pairs: PairEncoding,
    sums: SumEncoding,
    val: &impl Fn(usize, usize) -> Val,
    b: &mut Builder<'_, S>,
) {
    let n = puzzle.size();
    let mut orders = Orders::new(n);
    for c in puzzle.constraints() {
        if matches!(c, crate::model::Constraint::Cage(_)) {
            continue;
        }
        let rules = Rules::of_one(puzzle, c);
        encode_lowered(&rules, n, (pairs, sums), &mut orders, val, b);
        b.out.end_part(Part::Rule(c.kind()));
    }
}

fn encode_lowered<S: ClauseSink + ?Sized>(
    r: &Rules,
    n: usize,
    (pairs, sum_encoding): (PairEncoding, SumEncoding),
    orders: &mut Orders,
    val: &impl Fn(usize, usize) -> Val,
    b: &mut Builder<'_, S>,
) {
    for &(cell, odd) in &r.parity {
        only(cell, n, |d| (d % 2 == 1) == odd, val, b);
    }
    for (cell, digits) in &r.domains {
        only(*cell, n, |d| digits.contains(&d), val, b);
    }
    for p in r.all_pairs() {
        let (a, c) = (p.a as usize, p.b as usize);
        let allows = |x, y| p.rule.allows(x, y);
        match (pairs, order_form(p.rule)) {
            (PairEncoding::Order, Some(OrderForm::Rise(k))) => rise(a, c, k, orders, val, b),
            (PairEncoding::Order, Some(OrderForm::Intervals)) => {
                intervals(a, c, allows, orders, val, b)
            }
            _ => pair(a, c, allows, n, val, b),
        }
    }
    for g in &r.houses {
        for d in 0..n {
            b.amo(g.iter().map(|&c| val(c as usize, d)));
            b.alo(g.iter().map(|&c| val(c as usize, d)));
        }
    }
    for g in &r.distinct {
        for d in 0..n {
            b.amo(g.iter().map(|&c| val(c as usize, d)));
        }
    }
    for s in &r.sums {
        sums::linear_eq(&s.terms, s.rhs, sum_encoding, orders, val, b);
    }
    for s in &r.sandwiches {
        sums::sandwich(s, sum_encoding, orders, val, b);
    }
    for q in &r.contains {
        contains(&q.cells, &q.digits, n, val, b);
    }
    for w in &r.betweens {
        match (pairs, w.inside) {
            (PairEncoding::Order, true) => between_order(w, orders, val, b),
            _ => between_direct(w, n, val, b),
        }
    }
    for s in &r.skyscrapers {
        skyscraper(&s.cells, s.value, orders, val, b);
    }
    for s in &r.xsums {
        sums::x_sum(s, sum_encoding, orders, val, b);
    }
}

/// Unit clauses removing from `cell` every digit `keep` refuses.
fn only<S: ClauseSink + ?Sized>(
    cell: u32,
    n: usize,
    keep: impl Fn(u32) -> bool,
    val: &impl Fn(usize, usize) -> Val,
    b: &mut Builder<'_, S>,
) {
    for d in (1..=n as u32).filter(|&d| !keep(d)) {
        b.alo(std::iter::once(not(val(cell as usize, d as usize - 1))));
    }
}

/// Each digit listed `k` times among at least `k` of the `m` cells: every `m − k + 1` of them
/// hold it somewhere (a quadruple has at most 4 cells, so at most 6 clauses a digit).
fn contains<S: ClauseSink + ?Sized>(
    cells: &[u32],
    digits: &[u32],
    n: usize,
    val: &impl Fn(usize, usize) -> Val,
    b: &mut Builder<'_, S>,
) {
    let m = cells.len();
    let mut listed = digits.to_vec();
    listed.sort_unstable();
    for run in listed.chunk_by(|x, y| x == y) {
        let (d, k) = (run[0] as usize, run.len());
        if k > m || d > n {
            b.out.add_clause(&[]);
            continue;
        }
        let holds: Vec<Val> = cells.iter().map(|&c| val(c as usize, d - 1)).collect();
        for subset in (0u32..1 << m).filter(|s| s.count_ones() as usize == m - k + 1) {
            let picked = holds
                .iter()
                .enumerate()
                .filter(|&(i, _)| subset >> i & 1 == 1);
            b.alo(picked.map(|(_, &v)| v));
        }
    }
}

/// A between or lockout line, directly: for each pair of end digits `(x, y)` and each inner
/// cell, `¬x(a,x) ∨ ¬x(b,y) ∨` the digits the cell may then hold (one binary clause when it may
/// hold none).
fn between_direct<S: ClauseSink + ?Sized>(
    w: &Between,
    n: usize,
    val: &impl Fn(usize, usize) -> Val,
    b: &mut Builder<'_, S>,
) {
    for x in 1..=n as u32 {
        let xa = val(w.a as usize, x as usize - 1);
        for y in 1..=n as u32 {
            let yb = val(w.b as usize, y as usize - 1);
            if xa == Val::False || yb == Val::False {
                continue;
            }
            let allowed: Vec<usize> = (1..=n as u32)
                .filter(|&d| w.allows(x, y, d))
                .map(|d| d as usize - 1)
                .collect();
            let cells = if allowed.is_empty() {
                &w.cells[..1]
            } else {
                &w.cells[..]
            };
            for &c in cells {
                let inner = allowed.iter().map(|&d| val(c as usize, d));
                b.alo([not(xa), not(yb)].into_iter().chain(inner));
            }
        }
    }
}

/// A between line over order literals (see the module docs): for each inner cell `c` and digit
/// `d`, `o(a,d) ∧ o(b,d) → o(c,d+1)` (both ends at least `d`: the cell above `d`) and
/// `¬o(a,d) ∧ ¬o(b,d) → ¬o(c,d−1)` (both ends below `d`: the cell below `d − 1`).
fn between_order<S: ClauseSink + ?Sized>(
    w: &Between,
    orders: &mut Orders,
    val: &impl Fn(usize, usize) -> Val,
    b: &mut Builder<'_, S>,
) {
    let (a, e) = (w.a as usize, w.b as usize);
    orders.define(a, val, b);
    orders.define(e, val, b);
    for &c in &w.cells {
        let c = c as usize;
        orders.define(c, val, b);
        for d in 1..=orders.n as i64 + 1 {
            let (oa, ob) = (orders.at(a, d), orders.at(e, d));
            b.alo([not(oa), not(ob), orders.at(c, d + 1)].into_iter());
            b.alo([oa, ob, not(orders.at(c, d - 1))].into_iter());
        }
    }
}

/// A skyscraper clue (see the module docs): the running maximum's order literals
/// `m(i,d) = m(i−1,d) ∨ o(c_i,d)`, a "seen" literal per cell, `x(c_i,d) ∧ ¬m(i−1,d) → s(i)` and
/// `x(c_i,d) ∧ m(i−1,d) → ¬s(i)`, and a totalizer for `Σ s(i) = value`.
fn skyscraper<S: ClauseSink + ?Sized>(
    cells: &[u32],
    value: u32,
    orders: &mut Orders,
    val: &impl Fn(usize, usize) -> Val,
    b: &mut Builder<'_, S>,
) {
    let n = orders.n;
    // top[d]: the maximum of the cells so far is at least d (d in 0..=n + 1).
    let mut top = vec![Val::False; n + 2];
    let mut seen = vec![];
    for (i, &c) in cells.iter().enumerate() {
        let c = c as usize;
        let s = match i {
            0 => Val::True,
            _ => {
                let s = Val::Lit(fresh(b));
                for (d, &m) in top.iter().enumerate().take(n + 1).skip(1) {
                    let x = val(c, d - 1);
                    b.alo([not(x), m, s].into_iter());
                    b.alo([not(x), not(m), not(s)].into_iter());
                }
                s
            }
        };
        seen.push(s);
        if i + 1 < cells.len() {
            orders.define(c, val, b);
            for (d, m) in top.iter_mut().enumerate().take(n + 1).skip(1) {
                *m = or(*m, orders.at(c, d as i64), b);
            }
        }
    }
    count_eq(&seen, value as usize, b);
}

/// Exactly `k` of `vals` true, by a totalizer (constants fold into `k`).
fn count_eq<S: ClauseSink + ?Sized>(vals: &[Val], k: usize, b: &mut Builder<'_, S>) {
    let trues = vals.iter().filter(|&&v| v == Val::True).count();
    let lits: Vec<Lit> = vals
        .iter()
        .filter_map(|&v| match v {
            Val::Lit(l) => Some(l),
            _ => None,
        })
        .collect();
    let Some(rest) = k.checked_sub(trues).filter(|&r| r <= lits.len()) else {
        b.out.add_clause(&[]);
        return;
    };
    if lits.is_empty() {
        return;
    }
    let totalizer: Totalizer = lits.into_iter().collect();
    pb_bound(b, totalizer, |e, col, vars| {
        e.encode_both(rest..=rest, col, vars).ok()?;
        e.enforce_eq(rest).ok()
    });
}

fn not(v: Val) -> Val {
    match v {
        Val::True => Val::False,
        Val::False => Val::True,
        Val::Lit(l) => Val::Lit(!l),
    }
}

/// The direct encoding of the relation `allows(digit of a, digit of b)`.
fn pair<S: ClauseSink + ?Sized>(
    a: usize,
    bc: usize,
    allows: impl Fn(u32, u32) -> bool,
    n: usize,
    val: &impl Fn(usize, usize) -> Val,
    b: &mut Builder<'_, S>,
) {
    for d in 0..n {
        let xa = val(a, d);
        if xa == Val::False {
            continue;
        }
        for e in 0..n {
            if !allows(d as u32 + 1, e as u32 + 1) {
                b.alo([not(xa), not(val(bc, e))].into_iter());
            }
        }
        let support = (0..n).filter(|&e| allows(d as u32 + 1, e as u32 + 1));
        b.alo(std::iter::once(not(xa)).chain(support.map(|e| val(bc, e))));
    }
    for e in 0..n {
        let xb = val(bc, e);
        if xb == Val::False {
            continue;
        }
        let support = (0..n).filter(|&d| allows(d as u32 + 1, e as u32 + 1));
        b.alo(std::iter::once(not(xb)).chain(support.map(|d| val(a, d))));
    }
}

/// How the order encoding states a pair rule (see the module docs); `None`: directly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OrderForm {
    /// `b ≥ a + k`: binary clauses between the two cells' order literals.
    Rise(u32),
    /// Each digit of either cell bounds the other to an interval, less a gap.
    Intervals,
}

fn order_form(rule: PairRule) -> Option<OrderForm> {
    match rule {
        PairRule::Rise(k) => Some(OrderForm::Rise(k)),
        PairRule::Apart(_) | PairRule::Within(_) | PairRule::Is(DotRule::Difference(_)) => {
            Some(OrderForm::Intervals)
        }
        PairRule::Is(DotRule::Ratio(_) | DotRule::Sum(_))
        | PairRule::Not(_)
        | PairRule::Equal
        | PairRule::Differ
        | PairRule::Iff(..)
        | PairRule::OtherThird(_)
        | PairRule::OtherResidue(_) => None,
    }
}

/// The order literals of the cells that have them, defined on first use (see the module docs).
struct Orders {
    n: usize,
    /// Per cell, `o(c,d)` at index `d` for `d` in `0..=n + 1` (0 and 1 true, `n + 1` false).
    cells: Vec<Option<Vec<Val>>>,
}

impl Orders {
    fn new(n: usize) -> Orders {
        Orders {
            n,
            cells: vec![None; n * n],
        }
    }

    /// Defines the order literals of `cell` unless they are.
    fn define<S: ClauseSink + ?Sized>(
        &mut self,
        cell: usize,
        val: &impl Fn(usize, usize) -> Val,
        b: &mut Builder<'_, S>,
    ) {
        if self.cells[cell].is_some() {
            return;
        }
        let n = self.n;
        // x[d] for d in 1..=n (x[0] unused).
        let x: Vec<Val> = std::iter::once(Val::False)
            .chain((0..n).map(|d| val(cell, d)))
            .collect();
        let mut o = vec![Val::False; n + 2];
        o[0] = Val::True;
        let held = (1..=n).find(|&d| x[d] == Val::True);
        let free: Vec<usize> = (1..=n).filter(|&d| matches!(x[d], Val::Lit(_))).collect();
        match (held, free.first(), free.last()) {
            (Some(t), _, _) => o[1..=t].fill(Val::True),
            (None, Some(&lo), Some(&hi)) => {
                o[1..=lo].fill(Val::True);
                for d in (lo + 1..=hi).rev() {
                    o[d] = match x[d] {
                        Val::Lit(_) => Val::Lit(fresh(b)),
                        _ => o[d + 1],
                    };
                }
                // The chain between the new variables, then the channelling of each free digit.
                for d in lo + 1..hi {
                    if o[d + 1] != o[d] {
                        b.alo([not(o[d + 1]), o[d]].into_iter());
                    }
                }
                for &d in &free {
                    b.alo([not(x[d]), o[d]].into_iter());
                    b.alo([not(x[d]), not(o[d + 1])].into_iter());
                    b.alo([x[d], not(o[d]), o[d + 1]].into_iter());
                }
            }
            // No digit left: the cell's at-least-one clause is already empty.
            _ => o[1] = Val::True,
        }
        self.cells[cell] = Some(o);
    }

    /// `o(cell, d)`, clipped: true for `d ≤ 1`, false for `d > n`. The cell must be defined.
    fn at(&self, cell: usize, d: i64) -> Val {
        match d {
            ..=1 => Val::True,
            d if d > self.n as i64 => Val::False,
            d => self.cells[cell].as_ref().expect("order literals defined")[d as usize],
        }
    }
}

/// `b ≥ a + k` over order literals: `o(a,d) → o(b,d+k)`, written only for the last `d` of each
/// run of equal `o(a,d)` (the others follow through `b`'s chain).
fn rise<S: ClauseSink + ?Sized>(
    a: usize,
    bc: usize,
    k: u32,
    orders: &mut Orders,
    val: &impl Fn(usize, usize) -> Val,
    b: &mut Builder<'_, S>,
) {
    orders.define(a, val, b);
    orders.define(bc, val, b);
    for d in 1..=orders.n as i64 {
        let here = orders.at(a, d);
        if here != orders.at(a, d + 1) {
            b.alo([not(here), orders.at(bc, d + k as i64)].into_iter());
        }
    }
}

/// The interval form of a pair rule (see the module docs), from both cells' digits.
fn intervals<S: ClauseSink + ?Sized>(
    a: usize,
    bc: usize,
    allows: impl Fn(u32, u32) -> bool,
    orders: &mut Orders,
    val: &impl Fn(usize, usize) -> Val,
    b: &mut Builder<'_, S>,
) {
    orders.define(a, val, b);
    orders.define(bc, val, b);
    let n = orders.n;
    // Single digits missing inside an interval, as (digit of a, digit of b), written once.
    let mut conflicts = std::collections::BTreeSet::new();
    for (from, to, forward) in [(a, bc, true), (bc, a, false)] {
        let allowed = |d: usize, e: usize| {
            let (x, y) = if forward { (d, e) } else { (e, d) };
            allows(x as u32, y as u32)
        };
        for d in 1..=n {
            let xd = val(from, d - 1);
            if xd == Val::False {
                continue;
            }
            let mut ok = (1..=n).filter(|&e| allowed(d, e));
            let Some(lo) = ok.next() else {
                b.alo(std::iter::once(not(xd)));
                continue;
            };
            let hi = ok.next_back().unwrap_or(lo);
            b.alo([not(xd), orders.at(to, lo as i64)].into_iter());
            b.alo([not(xd), not(orders.at(to, hi as i64 + 1))].into_iter());
            let gaps: Vec<usize> = (lo..=hi).filter(|&e| !allowed(d, e)).collect();
            match gaps[..] {
                [g, .., h] if h - g + 1 == gaps.len() => b.alo(
                    [
                        not(xd),
                        not(orders.at(to, g as i64)),
                        orders.at(to, h as i64 + 1),
                    ]
                    .into_iter(),
                ),
                _ => conflicts.extend(gaps.iter().map(|&e| if forward { (d, e) } else { (e, d) })),
            }
        }
    }
    for (d, e) in conflicts {
        b.alo([not(val(a, d - 1)), not(val(bc, e - 1))].into_iter());
    }
}

/// A fresh variable's positive literal.
fn fresh<S: ClauseSink + ?Sized>(b: &mut Builder<'_, S>) -> Lit {
    let v = b.out.n_vars();
    b.out.reserve_vars(v + 1);
    Var::new(v).pos_lit()
}

/// `out ⇔ a ∨ b` (either may be a constant).
fn or<S: ClauseSink + ?Sized>(a: Val, c: Val, b: &mut Builder<'_, S>) -> Val {
    match (a, c) {
        (Val::True, _) | (_, Val::True) => Val::True,
        (Val::False, x) | (x, Val::False) => x,
        (Val::Lit(x), Val::Lit(y)) => {
            let o = fresh(b);
            b.out.add_clause(&[!o, x, y]);
            b.out.add_clause(&[o, !x]);
            b.out.add_clause(&[o, !y]);
            Val::Lit(o)
        }
    }
}

/// `out ⇔ a ∧ b` (either may be a constant).
fn and<S: ClauseSink + ?Sized>(a: Val, c: Val, b: &mut Builder<'_, S>) -> Val {
    not(or(not(a), not(c), b))
}

#[cfg(test)]
mod tests {
    use super::super::{Counting, EncodeStats};
    use super::*;
    use crate::model::lower::Pair;
    use crate::sat::Cnf;

    /// Cells of side `n` whose free digits are the bits of `doms` (bit `d − 1`: digit `d`), the
    /// others constant false, a single digit constant true as for a fixed cell, as the encoder
    /// hands them over; each with at least and at most one digit, and then the clauses of
    /// `encode`. Returns the formula and each cell's value per digit (index `c·n + d − 1`).
    pub(super) fn with_cells(
        n: usize,
        doms: &[u32],
        encode: impl FnOnce(&dyn Fn(usize, usize) -> Val, &mut Builder<'_, Cnf>),
    ) -> (Cnf, Vec<Val>) {
        let mut cnf = Cnf::new();
        let mut vals = Vec::new();
        for &dom in doms {
            for d in 0..n {
                vals.push(match dom >> d & 1 {
                    0 => Val::False,
                    _ if dom.count_ones() == 1 => Val::True,
                    _ => Val::Lit(cnf.new_var().pos_lit()),
                });
            }
        }
        let mut b = Builder {
            out: Counting {
                mark: (cnf.n_vars(), 0, 0),
                sink: &mut cnf,
                clauses: 0,
                lits: 0,
                stats: EncodeStats::default(),
            },
            amo: crate::sat::encode::Amo::Pairwise,
            buf: Vec::new(),
        };
        let val = |c: usize, d: usize| vals[c * n + d];
        for c in 0..doms.len() {
            b.alo((0..n).map(|d| val(c, d)));
            b.amo((0..n).map(|d| val(c, d)));
        }
        encode(&val, &mut b);
        (cnf, vals)
    }

    /// Two cells as [`with_cells`] makes them, and `rule` between them under `how`.
    fn two_cells(n: usize, doms: [u32; 2], rule: PairRule, how: PairEncoding) -> (Cnf, Vec<Val>) {
        with_cells(n, &doms, |val, b| {
            let rules = Rules {
                pairs: vec![Pair { a: 0, b: 1, rule }],
                ..Rules::default()
            };
            let forms = (how, SumEncoding::default());
            encode_lowered(&rules, n, forms, &mut Orders::new(n), &val, b);
        })
    }

    /// Unit propagation from `units`: the assignment, or `None` on a conflict.
    pub(super) fn propagate(cnf: &Cnf, units: &[Lit]) -> Option<Vec<Option<bool>>> {
        let mut value = vec![None; cnf.n_vars() as usize];
        let truth = |value: &[Option<bool>], l: Lit| value[l.var().idx()].map(|v| v == l.is_pos());
        for &u in units {
            value[u.var().idx()] = Some(u.is_pos());
        }
        loop {
            let mut changed = false;
            for clause in cnf.clauses() {
                if clause.iter().any(|&l| truth(&value, l) == Some(true)) {
                    continue;
                }
                let mut open = clause.iter().filter(|&&l| truth(&value, l).is_none());
                match (open.next(), open.next()) {
                    (None, _) => return None,
                    (Some(&l), None) => {
                        value[l.var().idx()] = Some(l.is_pos());
                        changed = true;
                    }
                    _ => {}
                }
            }
            if !changed {
                return Some(value);
            }
        }
    }

    /// The digits (1-based) a cell may still hold under `value`.
    pub(super) fn digits(vals: &[Val], value: &[Option<bool>]) -> Vec<u32> {
        (1..=vals.len() as u32)
            .filter(|&d| match vals[d as usize - 1] {
                Val::True => true,
                Val::False => false,
                Val::Lit(l) => value[l.var().idx()] != Some(!l.is_pos()),
            })
            .collect()
    }

    const RULES: [PairRule; 16] = [
        PairRule::Rise(1),
        PairRule::Rise(2),
        PairRule::Apart(2),
        PairRule::Apart(3),
        PairRule::Within(1),
        PairRule::Within(2),
        PairRule::Within(3),
        PairRule::Is(DotRule::Difference(1)),
        PairRule::Is(DotRule::Difference(2)),
        PairRule::Is(DotRule::Ratio(2)),
        PairRule::Is(DotRule::Sum(5)),
        PairRule::Is(DotRule::Sum(7)),
        PairRule::Not(DotRule::Difference(1)),
        PairRule::Not(DotRule::Sum(5)),
        PairRule::Equal,
        PairRule::Differ,
    ];

    /// Every rule, both encodings, on two cells with the domains `doms`: (1) with both digits
    /// chosen, unit propagation satisfies every clause exactly when the rule allows the pair, so
    /// the models are the rule's pairs; (2) unit propagation alone leaves each cell only digits
    /// with a partner between the other cell's least and greatest digit (the bounds), and the
    /// direct encoding only digits with a partner among the other cell's digits.
    fn check(n: usize, doms: [u32; 2]) {
        for rule in RULES {
            for how in PairEncoding::ALL {
                let what = format!("{rule:?} {how} on {doms:?} of {n}");
                let (cnf, vals) = two_cells(n, doms, rule, how);
                let (va, vb) = vals.split_at(n);
                let lit = |v: Val| match v {
                    Val::Lit(l) => Some(l),
                    _ => None,
                };
                for d in (1..=n as u32).filter(|&d| doms[0] >> (d - 1) & 1 != 0) {
                    for e in (1..=n as u32).filter(|&e| doms[1] >> (e - 1) & 1 != 0) {
                        let units: Vec<Lit> = [va[d as usize - 1], vb[e as usize - 1]]
                            .into_iter()
                            .filter_map(lit)
                            .collect();
                        let kept = propagate(&cnf, &units).is_some_and(|value| {
                            cnf.clauses().all(|c| {
                                c.iter().any(|&l| value[l.var().idx()] == Some(l.is_pos()))
                            })
                        });
                        assert_eq!(kept, rule.allows(d, e), "{what}: digits {d}, {e}");
                    }
                }
                let Some(value) = propagate(&cnf, &[]) else {
                    continue;
                };
                let (da, db) = (digits(va, &value), digits(vb, &value));
                let pairs = [(&da, &db, true), (&db, &da, false)];
                for (mine, theirs, first) in pairs {
                    let allows = |x: u32, y: u32| {
                        if first {
                            rule.allows(x, y)
                        } else {
                            rule.allows(y, x)
                        }
                    };
                    let (lo, hi) = match (theirs.first(), theirs.last()) {
                        (Some(&lo), Some(&hi)) => (lo, hi),
                        _ => continue,
                    };
                    for &x in mine.iter() {
                        assert!(
                            (lo..=hi).any(|y| allows(x, y)),
                            "{what}: {x} left without a partner within {lo}..={hi}"
                        );
                        if how == PairEncoding::Direct {
                            assert!(
                                theirs.iter().any(|&y| allows(x, y)),
                                "{what}: {x} left without a partner in {theirs:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn pair_encodings_state_the_rule_and_propagate_bounds_on_4x4_every_domain() {
        for a in 1..16 {
            for b in 1..16 {
                check(4, [a, b]);
            }
        }
    }

    #[test]
    fn pair_encodings_state_the_rule_and_propagate_bounds_on_6x6() {
        let doms = [
            0b111111, 0b000001, 0b000100, 0b100000, 0b100001, 0b010110, 0b001110, 0b110011,
            0b000011, 0b101010,
        ];
        for a in doms {
            for b in doms {
                check(6, [a, b]);
            }
        }
    }

    #[test]
    fn order_literals_of_a_cell_are_shared_and_merged_over_missing_digits() {
        // A cell with digits {2, 5, 6} of 9 has two order variables: o(3) = o(4) = o(5), o(6).
        let (cnf, _) = two_cells(
            9,
            [0b000110010, 0b111111111],
            PairRule::Rise(1),
            PairEncoding::Order,
        );
        let (direct, _) = two_cells(
            9,
            [0b000110010, 0b111111111],
            PairRule::Rise(1),
            PairEncoding::Direct,
        );
        assert_eq!(cnf.n_vars() - direct.n_vars(), 2 + 8);
    }

    #[test]
    fn not_flips_constants_and_literals() {
        assert_eq!(not(Val::True), Val::False);
        let l = Var::new(3).pos_lit();
        assert_eq!(not(Val::Lit(l)), Val::Lit(!l));
    }
}
