//! Variant rules as clauses, over the lowering of [`crate::model::lower`], one part per kind in
//! the statistics (`encode --stats`).
//!
//! - **pairs** (chess exclusions, thermometer and whisper steps, palindromes, dots, negative
//!   rules, and renban's "at most `k − 1` apart"): the direct encoding of a binary relation, a
//!   *conflict* clause `¬x(a,d) ∨ ¬x(b,e)` for every pair of digits the rule forbids, and a
//!   *support* clause `¬x(a,d) ∨ ⋁ x(b,e)` over the digits it allows beside `d` (both ways). The
//!   conflicts make every model keep the rule; the supports make unit propagation reach arc
//!   consistency on the pair, as the `dfs` and `cp` backends do.
//! - **extra houses** (disjoint groups, extra regions of `n` cells): at most and at least one cell
//!   per digit, like a house; **distinct groups** at most one.
//! - **sums** (arrows, little killers) `Σ k·d·x(c,d) = rhs`: the terms of one variable are
//!   merged (rustsat's encodings take each literal once: a literal given twice keeps one weight),
//!   a negative weight is moved over as its negated literal (plus a constant), then the equality
//!   by rustsat's binary adder (as `--cage-encoding adder` does for cages).
//! - **sandwiches**: for each cell of the line, `e(i)` "holds 1 or `n`", prefix and suffix ORs of
//!   it, `in(i)` = some end before and some end after (the line is a house, so it has exactly one
//!   1 and one `n`), `y(i,d)` = `in(i) ∧ x(i,d)`, and `Σ d·y(i,d) = clue` as above.
//! - **parity**: unit clauses removing the other digits.

use rustsat::encodings::pb::{BinaryAdder, BoundBoth};

use super::{pb_bound, Builder, Part, Val};
use crate::model::lower::Rules;
use crate::model::Puzzle;
use crate::sat::{ClauseSink, Lit, Var};

/// Encodes every variant rule of `puzzle` (not its cages), one part per kind.
pub(super) fn encode_rules<S: ClauseSink + ?Sized>(
    puzzle: &Puzzle,
    val: &impl Fn(usize, usize) -> Val,
    b: &mut Builder<'_, S>,
) {
    let n = puzzle.size();
    for c in puzzle.constraints() {
        if matches!(c, crate::model::Constraint::Cage(_)) {
            continue;
        }
        let rules = Rules::of_one(puzzle, c);
        encode_lowered(&rules, n, val, b);
        b.out.end_part(Part::Rule(c.kind()));
    }
}

fn encode_lowered<S: ClauseSink + ?Sized>(
    r: &Rules,
    n: usize,
    val: &impl Fn(usize, usize) -> Val,
    b: &mut Builder<'_, S>,
) {
    for &(cell, odd) in &r.parity {
        for d in 0..n {
            if (d % 2 == 0) != odd {
                // Digit d + 1 has the wrong parity.
                b.alo(std::iter::once(not(val(cell as usize, d))));
            }
        }
    }
    for p in r.all_pairs() {
        pair(
            p.a as usize,
            p.b as usize,
            |x, y| p.rule.allows(x, y),
            n,
            val,
            b,
        );
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
        let mut terms = vec![];
        for &(c, k) in &s.terms {
            for d in 0..n {
                terms.push((val(c as usize, d), k * (d as i64 + 1)));
            }
        }
        weighted_eq(terms, s.rhs, b);
    }
    for s in &r.sandwiches {
        sandwich(&s.cells, s.sum, n, val, b);
    }
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

/// `Σ weight · value = rhs` over 0/1 values (every cell has exactly one true digit).
fn weighted_eq<S: ClauseSink + ?Sized>(terms: Vec<(Val, i64)>, rhs: i64, b: &mut Builder<'_, S>) {
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
        b.out.add_clause(&[]);
        return;
    }
    if lits.is_empty() {
        return;
    }
    let rest = rest as usize;
    let adder: BinaryAdder = lits.into_iter().collect();
    pb_bound(b, adder, |e, col, vars| {
        e.encode_both(rest..=rest, col, vars).ok()?;
        e.enforce_eq(rest).ok()
    });
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

/// The sum between the 1 and the `n` of a line (see the module docs).
fn sandwich<S: ClauseSink + ?Sized>(
    line: &[u32],
    clue: u32,
    n: usize,
    val: &impl Fn(usize, usize) -> Val,
    b: &mut Builder<'_, S>,
) {
    let k = line.len();
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
    let mut terms = vec![];
    for (i, &c) in line.iter().enumerate() {
        let inside = and(before[i], after[i], b);
        for d in 1..n - 1 {
            let y = and(inside, val(c as usize, d), b);
            terms.push((y, d as i64 + 1));
        }
    }
    weighted_eq(terms, clue as i64, b);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_flips_constants_and_literals() {
        assert_eq!(not(Val::True), Val::False);
        let l = Var::new(3).pos_lit();
        assert_eq!(not(Val::Lit(l)), Val::Lit(!l));
    }
}
