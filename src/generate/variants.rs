//! Variant rules drawn at random so that a given full grid keeps them: the source of
//! `generate --variants` and of the variant cases of `fuzz` and the tests.
//!
//! Each line (thermometer, arrow, whisper, renban, palindrome) is a random walk between king's-move
//! neighbours that the grid's digits allow; dots are drawn among the orthogonal pairs that meet
//! their rule (all of them when the family's negative rule is drawn too); little killers and
//! sandwiches read their sums off the grid; odd, even and extra regions follow the grid's digits.
//! Global rules (anti-knight, anti-king, disjoint groups, non-consecutive) only come when the grid
//! keeps them, which the checker tells ([`holds_globally`]); the generator searches such grids
//! itself (`fill.rs`).

use std::sync::Arc;

use crate::check;
use crate::model::{
    chess_neighbours, orthogonal_pairs, whisper_gap, Arrow, Constraint, ConstraintKind, Dot,
    DotRule, Grid, Line, LittleKiller, Puzzle, Sandwich, Shape,
};
use crate::rng::GenRng;

/// The kinds [`draw`] makes: every kind but Killer cages (which [`super::random_cages`] makes),
/// in [`ConstraintKind::ALL`] order.
pub fn drawn_kinds() -> &'static [ConstraintKind] {
    debug_assert_eq!(ConstraintKind::ALL[0], ConstraintKind::Killer);
    &ConstraintKind::ALL[1..]
}

/// The rule of a global kind (anti-knight, anti-king, disjoint groups, non-consecutive).
pub fn global_rule(kind: ConstraintKind) -> Option<Constraint> {
    match kind {
        ConstraintKind::AntiKnight => Some(Constraint::AntiKnight),
        ConstraintKind::AntiKing => Some(Constraint::AntiKing),
        ConstraintKind::DisjointGroups => Some(Constraint::DisjointGroups),
        ConstraintKind::NonConsecutive => Some(Constraint::Negative(DotRule::Difference(1))),
        _ => None,
    }
}

/// How many rules of `kind` a generated puzzle of side `n` asks [`draw`] for: `n/2` lines, `2n`
/// dots, `n` odd or even cells, `n/3` outside clues and extra regions.
pub fn default_count(kind: ConstraintKind, n: usize) -> usize {
    match kind {
        ConstraintKind::Kropki | ConstraintKind::Xv => 2 * n,
        ConstraintKind::Odd | ConstraintKind::Even => n,
        ConstraintKind::LittleKiller | ConstraintKind::Sandwich | ConstraintKind::ExtraRegion => {
            n.div_ceil(3)
        }
        _ => n.div_ceil(2),
    }
}

/// Whether `grid` keeps the global rule of `kind` (always true for the other kinds), as the
/// independent checker ([`check::verify`]) judges it.
pub fn holds_globally(kind: ConstraintKind, shape: &Shape, grid: &Grid) -> bool {
    let Some(rule) = global_rule(kind) else {
        return true;
    };
    let empty = Puzzle::new(Arc::new(shape.clone()), vec![0; shape.cells()])
        .and_then(|p| p.with_constraints(vec![rule]));
    empty.is_ok_and(|p| check::verify(&p, grid).is_ok())
}

/// Up to `count` rules of `kind` that `grid` keeps (fewer when the grid offers fewer; one for
/// a global rule when the grid keeps it, none otherwise).
pub fn draw(
    kind: ConstraintKind,
    shape: &Shape,
    grid: &Grid,
    count: usize,
    rng: &mut GenRng,
) -> Vec<Constraint> {
    let n = shape.size();
    let g = |c: u32| grid.cells()[c as usize] as u32;
    let cells = n * n;
    let mut out = vec![];
    let mut tries = 0;
    if let Some(rule) = global_rule(kind) {
        if holds_globally(kind, shape, grid) {
            out.push(rule);
        }
        return out;
    }
    let used = |out: &[Constraint], c: u32| out.iter().any(|k| k.cells().contains(&c));
    while out.len() < count && tries < 50 * count.max(1) {
        tries += 1;
        let start = rng.below(cells) as u32;
        if used(&out, start) {
            continue;
        }
        let made = match kind {
            ConstraintKind::Odd | ConstraintKind::Even => {
                let odd = g(start) % 2 == 1;
                (odd == (kind == ConstraintKind::Odd)).then_some(if odd {
                    Constraint::Odd(start)
                } else {
                    Constraint::Even(start)
                })
            }
            ConstraintKind::ExtraRegion => {
                let len = 2 + rng.below(n.saturating_sub(2).max(1));
                let region = walk(shape, start, len, rng, &|line, next| {
                    line.iter().all(|&c| g(c) != g(next))
                        && line.iter().all(|&c| !used(&out, c) && c != next)
                });
                (region.len() == len).then_some(Constraint::ExtraRegion(region))
            }
            ConstraintKind::Thermo => {
                let len = 2 + rng.below(n.clamp(2, 6) - 1);
                let line = walk(shape, start, len, rng, &|line, next| {
                    g(next) > g(*line.last().unwrap())
                });
                (line.len() >= 2).then_some(Constraint::Thermo(line))
            }
            ConstraintKind::Whisper => {
                let gap = whisper_gap(n);
                let len = 2 + rng.below(n.clamp(2, 6) - 1);
                let line = walk(shape, start, len, rng, &|line, next| {
                    g(next).abs_diff(g(*line.last().unwrap())) >= gap
                });
                (line.len() >= 2).then_some(Constraint::Whisper { cells: line, gap })
            }
            ConstraintKind::Renban => {
                let len = 2 + rng.below(n.clamp(2, 5) - 1);
                let line = walk(shape, start, len, rng, &|line, next| {
                    line.iter().all(|&c| g(c) != g(next))
                });
                let (lo, hi) = line
                    .iter()
                    .fold((u32::MAX, 0), |(lo, hi), &c| (lo.min(g(c)), hi.max(g(c))));
                (line.len() >= 2 && hi - lo + 1 == line.len() as u32)
                    .then_some(Constraint::Renban(line))
            }
            ConstraintKind::Palindrome => {
                let len = 3 + rng.below(3);
                let line = walk(shape, start, len, rng, &|_, _| true);
                let k = line.len();
                (k >= 2 && (0..k / 2).all(|i| g(line[i]) == g(line[k - 1 - i])))
                    .then_some(Constraint::Palindrome(line))
            }
            ConstraintKind::Arrow => {
                let circle = vec![start];
                let target = g(start);
                let mut line = vec![start];
                let mut total = 0;
                while total < target {
                    let next = walk(shape, *line.last().unwrap(), 2, rng, &|l, next| {
                        !line.contains(&next) && !l.contains(&next)
                    });
                    let Some(&next) = next.get(1) else { break };
                    line.push(next);
                    total += g(next);
                }
                (total == target && line.len() >= 2).then(|| {
                    Constraint::Arrow(Arrow {
                        circle,
                        line: line[1..].to_vec(),
                    })
                })
            }
            ConstraintKind::Kropki | ConstraintKind::Xv => {
                let pairs: Vec<(u32, u32)> = orthogonal_pairs(n)
                    .filter(|&(a, b)| a == start || b == start)
                    .collect();
                let (a, b) = pairs[rng.below(pairs.len())];
                dot_on(kind, g(a), g(b)).map(|rule| Constraint::Dot(Dot { a, b, rule }))
            }
            ConstraintKind::Negative => {
                // The negative of the black dot, with every black dot the grid calls for.
                let mut all = vec![Constraint::Negative(DotRule::Ratio(2))];
                for (a, b) in orthogonal_pairs(n) {
                    if DotRule::Ratio(2).holds(g(a), g(b)) {
                        all.push(Constraint::Dot(Dot {
                            a,
                            b,
                            rule: DotRule::Ratio(2),
                        }));
                    }
                }
                return all;
            }
            ConstraintKind::LittleKiller => {
                let line = diagonal(n, rng);
                let sum = line.iter().map(|&c| g(c)).sum();
                Some(Constraint::LittleKiller(LittleKiller { cells: line, sum }))
            }
            ConstraintKind::Sandwich => {
                let i = rng.below(n) as u32;
                let line = if rng.below(2) == 0 {
                    Line::Row(i)
                } else {
                    Line::Col(i)
                };
                let digits: Vec<u32> = line.cells(n).iter().map(|&c| g(c)).collect();
                crate::model::lower::sandwiched(&digits, n as u32)
                    .map(|sum| Constraint::Sandwich(Sandwich { line, sum }))
            }
            _ => None,
        };
        if let Some(c) = made {
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// A dot of `kind`'s family that digits `a` and `b` meet, if any.
fn dot_on(kind: ConstraintKind, a: u32, b: u32) -> Option<DotRule> {
    let rules: &[DotRule] = match kind {
        ConstraintKind::Kropki => &[DotRule::Difference(1), DotRule::Ratio(2)],
        _ => &[DotRule::Sum(10), DotRule::Sum(5)],
    };
    rules.iter().copied().find(|r| r.holds(a, b))
}

/// A random walk of up to `len` distinct cells between king's-move neighbours from `start`,
/// each step one that `ok(line so far, next)` accepts.
fn walk(
    shape: &Shape,
    start: u32,
    len: usize,
    rng: &mut GenRng,
    ok: &dyn Fn(&[u32], u32) -> bool,
) -> Vec<u32> {
    let n = shape.size();
    let mut line = vec![start];
    while line.len() < len {
        let last = *line.last().unwrap() as usize;
        let mut next: Vec<u32> = chess_neighbours(last, n, false)
            .map(|c| c as u32)
            .filter(|c| !line.contains(c) && ok(&line, *c))
            .collect();
        if next.is_empty() {
            break;
        }
        rng.shuffle(&mut next);
        line.push(next[0]);
    }
    line
}

/// A random diagonal from edge to edge, at least two cells long when the side allows.
fn diagonal(n: usize, rng: &mut GenRng) -> Vec<u32> {
    let (r0, c0) = if rng.below(2) == 0 {
        (0, rng.below(n))
    } else {
        (rng.below(n), 0)
    };
    let (dr, dc): (i64, i64) = if c0 == 0 && r0 > 0 {
        (if rng.below(2) == 0 { 1 } else { -1 }, 1)
    } else {
        (1, if rng.below(2) == 0 { 1 } else { -1 })
    };
    let (mut r, mut c) = (r0 as i64, c0 as i64);
    // Walk back to the edge first, so the line runs edge to edge.
    while (0..n as i64).contains(&(r - dr)) && (0..n as i64).contains(&(c - dc)) {
        r -= dr;
        c -= dc;
    }
    let mut out = vec![];
    while (0..n as i64).contains(&r) && (0..n as i64).contains(&c) {
        out.push((r * n as i64 + c) as u32);
        r += dr;
        c += dc;
    }
    out
}
