//! Variant rules drawn at random so that a given full grid keeps them: the source of
//! `generate --variants` and of the variant cases of `fuzz` and the tests.
//!
//! Each line (thermometer, arrow, whisper, renban, palindrome) is a random walk between king's-move
//! neighbours that the grid's digits allow; dots are drawn among the orthogonal pairs that meet
//! their rule (all of them when the family's negative rule is drawn too); little killers and
//! sandwiches read their sums off the grid; odd, even and extra regions follow the grid's digits.
//! The lines of the other kinds (between, lockout, region sum, zipper, double arrow) are random
//! walks kept when the grid meets them, or walks each of whose steps keeps the rule (entropic,
//! modular, slow thermometer, Nabner); quadruples, candidates, fortress cells and indexers
//! follow the grid's digits, clones are a walk and a shifted copy with the same digits, and
//! skyscraper and X-sum clues read their values off the grid.
//! Global rules (anti-knight, anti-king, disjoint groups, non-consecutive) only come when the grid
//! keeps them, which the checker tells ([`holds_globally`]); the generator searches such grids
//! itself (`fill.rs`).

use std::sync::Arc;

use crate::check;
use crate::model::lower::{skyscraper_count, x_sum};
use crate::model::{
    chess_neighbours, indexed_house, lockout_gap, orthogonal_pairs, region_segments, whisper_gap,
    Arrow, Constraint, ConstraintKind, Dot, DotRule, EdgeClue, Grid, IndexKind, Line, LittleKiller,
    Puzzle, Sandwich, Shape,
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
        ConstraintKind::LittleKiller
        | ConstraintKind::Sandwich
        | ConstraintKind::ExtraRegion
        | ConstraintKind::Skyscraper
        | ConstraintKind::XSum
        | ConstraintKind::Quadruple
        | ConstraintKind::Indexer
        | ConstraintKind::Candidates
        | ConstraintKind::Minimum
        | ConstraintKind::Maximum
        | ConstraintKind::Clone => n.div_ceil(3),
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
            ConstraintKind::Candidates => {
                let mut digits = vec![g(start)];
                for _ in 0..1 + rng.below(3) {
                    let d = 1 + rng.below(n) as u32;
                    if !digits.contains(&d) {
                        digits.push(d);
                    }
                }
                digits.sort_unstable();
                Some(Constraint::Candidates {
                    cell: start,
                    digits,
                })
            }
            ConstraintKind::Quadruple => {
                let (r, c) = (start as usize / n, start as usize % n);
                (r + 1 < n && c + 1 < n).then(|| {
                    let s = start;
                    let n32 = n as u32;
                    let cells = vec![s, s + 1, s + n32, s + n32 + 1];
                    let mut digits: Vec<u32> = cells.iter().map(|&c| g(c)).collect();
                    rng.shuffle(&mut digits);
                    digits.truncate(1 + rng.below(4));
                    digits.sort_unstable();
                    Constraint::Quadruple { cells, digits }
                })
            }
            ConstraintKind::Minimum | ConstraintKind::Maximum => {
                let min = kind == ConstraintKind::Minimum;
                let ok = orthogonal_pairs(n)
                    .filter_map(|(a, b)| match (a == start, b == start) {
                        (true, _) => Some(b),
                        (_, true) => Some(a),
                        _ => None,
                    })
                    .all(|o| {
                        if min {
                            g(start) < g(o)
                        } else {
                            g(start) > g(o)
                        }
                    });
                ok.then_some(if min {
                    Constraint::Minimum(start)
                } else {
                    Constraint::Maximum(start)
                })
            }
            ConstraintKind::Indexer => {
                let kinds = [IndexKind::Row, IndexKind::Column, IndexKind::Box];
                let kind = kinds[rng.below(3)];
                indexed_house(shape, start, kind).and_then(|house| {
                    let p = house.iter().position(|&c| c == start)? as u32;
                    (g(house[g(start) as usize - 1]) == p + 1)
                        .then_some(Constraint::Indexer { cell: start, kind })
                })
            }
            ConstraintKind::Between | ConstraintKind::Lockout => {
                let line = walk(shape, start, 3 + rng.below(3), rng, &|_, _| true);
                let k = line.len();
                let (x, y) = (g(line[0]), g(line[k - 1]));
                let (lo, hi) = (x.min(y), x.max(y));
                let inner = || line[1..k - 1].iter().map(|&c| g(c));
                match kind {
                    ConstraintKind::Between => (k >= 3 && inner().all(|d| lo < d && d < hi))
                        .then_some(Constraint::Between(line)),
                    _ => {
                        let gap = lockout_gap(n);
                        (k >= 3 && hi - lo >= gap && inner().all(|d| d < lo || d > hi))
                            .then_some(Constraint::Lockout { cells: line, gap })
                    }
                }
            }
            ConstraintKind::RegionSum => {
                let line = walk(shape, start, 2 + rng.below(4), rng, &|_, _| true);
                let sums: Vec<u32> = region_segments(shape, &line)
                    .iter()
                    .map(|s| s.iter().map(|&c| g(c)).sum())
                    .collect();
                (sums.len() >= 2 && sums.iter().all(|&s| s == sums[0]))
                    .then_some(Constraint::RegionSum(line))
            }
            ConstraintKind::Entropic | ConstraintKind::Modular => {
                let entropic = kind == ConstraintKind::Entropic;
                let third = (n / 3).max(1) as u32;
                let class = |d: u32| if entropic { (d - 1) / third } else { d % 3 };
                let len = 2 + rng.below(5);
                let line = walk(shape, start, len, rng, &|line, next| {
                    line.iter()
                        .rev()
                        .take(2)
                        .all(|&c| class(g(c)) != class(g(next)))
                });
                (line.len() >= 2 && (!entropic || n.is_multiple_of(3))).then_some(if entropic {
                    Constraint::Entropic(line)
                } else {
                    Constraint::Modular(line)
                })
            }
            ConstraintKind::Zipper => {
                let line = walk(shape, start, 3 + rng.below(3), rng, &|_, _| true);
                let k = line.len();
                let sums: Vec<u32> = (0..k / 2)
                    .map(|i| g(line[i]) + g(line[k - 1 - i]))
                    .collect();
                let target = if k % 2 == 1 { g(line[k / 2]) } else { sums[0] };
                (k >= 3 && sums.iter().all(|&s| s == target)).then_some(Constraint::Zipper(line))
            }
            ConstraintKind::SlowThermo => {
                let len = 2 + rng.below(n.clamp(2, 6) - 1);
                let line = walk(shape, start, len, rng, &|line, next| {
                    g(next) >= g(*line.last().unwrap())
                });
                (line.len() >= 2).then_some(Constraint::SlowThermo(line))
            }
            ConstraintKind::Nabner => {
                let line = walk(shape, start, 2 + rng.below(3), rng, &|line, next| {
                    line.iter().all(|&c| g(c).abs_diff(g(next)) >= 2)
                });
                (line.len() >= 2).then_some(Constraint::Nabner(line))
            }
            ConstraintKind::DoubleArrow => {
                let line = walk(shape, start, 3 + rng.below(4), rng, &|_, _| true);
                let k = line.len();
                let inner: u32 = line
                    .iter()
                    .skip(1)
                    .take(k.saturating_sub(2))
                    .map(|&c| g(c))
                    .sum();
                (k >= 3 && inner == g(line[0]) + g(line[k - 1]))
                    .then_some(Constraint::DoubleArrow(line))
            }
            ConstraintKind::Clone => {
                let a = walk(shape, start, 1 + rng.below(3), rng, &|_, _| true);
                let (n64, at) = (n as i64, |c: u32| {
                    (c as i64 / n as i64, c as i64 % n as i64)
                });
                let mut shifts: Vec<(i64, i64)> = (-n64 + 1..n64)
                    .flat_map(|dr| (-n64 + 1..n64).map(move |dc| (dr, dc)))
                    .filter(|&s| s != (0, 0))
                    .collect();
                rng.shuffle(&mut shifts);
                shifts.into_iter().find_map(|(dr, dc)| {
                    let b: Option<Vec<u32>> = a
                        .iter()
                        .map(|&c| {
                            let (r, col) = at(c);
                            let (r2, c2) = (r + dr, col + dc);
                            ((0..n64).contains(&r2) && (0..n64).contains(&c2))
                                .then_some((r2 * n64 + c2) as u32)
                        })
                        .collect();
                    let b = b?;
                    let disjoint = b.iter().all(|c| !a.contains(c));
                    (disjoint && a.iter().zip(&b).all(|(&x, &y)| g(x) == g(y)))
                        .then(|| Constraint::Clone { a: a.clone(), b })
                })
            }
            ConstraintKind::Skyscraper | ConstraintKind::XSum => {
                let i = rng.below(n) as u32;
                let line = if rng.below(2) == 0 {
                    Line::Row(i)
                } else {
                    Line::Col(i)
                };
                let mut clue = EdgeClue {
                    line,
                    from_end: rng.below(2) == 1,
                    value: 0,
                };
                let digits: Vec<u32> = clue.cells(n).iter().map(|&c| g(c)).collect();
                clue.value = match kind {
                    ConstraintKind::Skyscraper => skyscraper_count(&digits),
                    _ => x_sum(&digits).unwrap_or(0),
                };
                Some(match kind {
                    ConstraintKind::Skyscraper => Constraint::Skyscraper(clue),
                    _ => Constraint::XSum(clue),
                })
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
