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
    let cx = Drawer {
        shape,
        grid,
        n: shape.size(),
    };
    let cells = cx.n * cx.n;
    let mut out = vec![];
    let mut tries = 0;
    if let Some(rule) = global_rule(kind) {
        if holds_globally(kind, shape, grid) {
            out.push(rule);
        }
        return out;
    }
    while out.len() < count && tries < 50 * count.max(1) {
        tries += 1;
        let start = rng.below(cells) as u32;
        if used(&out, start) {
            continue;
        }
        let made = match kind {
            ConstraintKind::Odd | ConstraintKind::Even => cx.parity(kind, start),
            ConstraintKind::ExtraRegion => cx.extra_region(start, &out, rng),
            ConstraintKind::Thermo => cx.thermo(start, rng),
            ConstraintKind::Whisper => cx.whisper(start, rng),
            ConstraintKind::Renban => cx.renban(start, rng),
            ConstraintKind::Palindrome => cx.palindrome(start, rng),
            ConstraintKind::Arrow => cx.arrow(start, rng),
            ConstraintKind::Kropki | ConstraintKind::Xv => cx.dot(kind, start, rng),
            ConstraintKind::Negative => return cx.negative(),
            ConstraintKind::LittleKiller => cx.little_killer(rng),
            ConstraintKind::Sandwich => cx.sandwich(rng),
            ConstraintKind::Candidates => cx.candidates(start, rng),
            ConstraintKind::Quadruple => cx.quadruple(start, rng),
            ConstraintKind::Minimum | ConstraintKind::Maximum => cx.extremum(kind, start),
            ConstraintKind::Indexer => cx.indexer(start, rng),
            ConstraintKind::Between | ConstraintKind::Lockout => {
                cx.between_or_lockout(kind == ConstraintKind::Lockout, start, rng)
            }
            ConstraintKind::RegionSum => cx.region_sum(start, rng),
            ConstraintKind::Entropic | ConstraintKind::Modular => {
                cx.entropic_or_modular(kind, start, rng)
            }
            ConstraintKind::Zipper => cx.zipper(start, rng),
            ConstraintKind::SlowThermo => cx.slow_thermo(start, rng),
            ConstraintKind::Nabner => cx.nabner(start, rng),
            ConstraintKind::DoubleArrow => cx.double_arrow(start, rng),
            ConstraintKind::Clone => cx.clone_pair(start, rng),
            ConstraintKind::Skyscraper | ConstraintKind::XSum => cx.edge_clue(kind, rng),
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

/// Whether a rule of `out` covers cell `c`.
fn used(out: &[Constraint], c: u32) -> bool {
    out.iter().any(|k| k.cells().contains(&c))
}

/// The grid [`draw`] keeps its rules on, with one function per kind: each draws a rule around a
/// random `start` cell, or `None` when this try does not give one.
struct Drawer<'a> {
    shape: &'a Shape,
    grid: &'a Grid,
    n: usize,
}

impl Drawer<'_> {
    /// The digit of cell `c`.
    fn g(&self, c: u32) -> u32 {
        self.grid.cells()[c as usize] as u32
    }

    /// A row or a column, drawn at random.
    fn random_line(&self, rng: &mut GenRng) -> Line {
        let i = rng.below(self.n) as u32;
        if rng.below(2) == 0 {
            Line::Row(i)
        } else {
            Line::Col(i)
        }
    }

    /// An odd or even cell at `start`, when its digit has that parity.
    fn parity(&self, kind: ConstraintKind, start: u32) -> Option<Constraint> {
        let odd = self.g(start) % 2 == 1;
        (odd == (kind == ConstraintKind::Odd)).then_some(if odd {
            Constraint::Odd(start)
        } else {
            Constraint::Even(start)
        })
    }

    /// An extra region from `start`: a walk over distinct digits, clear of the rules so far.
    fn extra_region(&self, start: u32, out: &[Constraint], rng: &mut GenRng) -> Option<Constraint> {
        let n = self.n;
        let len = 2 + rng.below(n.saturating_sub(2).max(1));
        let region = walk(self.shape, start, len, rng, &|line, next| {
            line.iter().all(|&c| self.g(c) != self.g(next))
                && line.iter().all(|&c| !used(out, c) && c != next)
        });
        (region.len() == len).then_some(Constraint::ExtraRegion(region))
    }

    /// A thermometer from `start`: a walk of rising digits.
    fn thermo(&self, start: u32, rng: &mut GenRng) -> Option<Constraint> {
        let n = self.n;
        let len = 2 + rng.below(n.clamp(2, 6) - 1);
        let line = walk(self.shape, start, len, rng, &|line, next| {
            self.g(next) > self.g(*line.last().unwrap())
        });
        (line.len() >= 2).then_some(Constraint::Thermo(line))
    }

    /// A whisper line from `start`: a walk whose neighbours differ by the gap at least.
    fn whisper(&self, start: u32, rng: &mut GenRng) -> Option<Constraint> {
        let n = self.n;
        let gap = whisper_gap(n);
        let len = 2 + rng.below(n.clamp(2, 6) - 1);
        let line = walk(self.shape, start, len, rng, &|line, next| {
            self.g(next).abs_diff(self.g(*line.last().unwrap())) >= gap
        });
        (line.len() >= 2).then_some(Constraint::Whisper { cells: line, gap })
    }

    /// A renban line from `start`: a walk of distinct digits, kept when they run consecutively.
    fn renban(&self, start: u32, rng: &mut GenRng) -> Option<Constraint> {
        let n = self.n;
        let len = 2 + rng.below(n.clamp(2, 5) - 1);
        let line = walk(self.shape, start, len, rng, &|line, next| {
            line.iter().all(|&c| self.g(c) != self.g(next))
        });
        let (lo, hi) = line.iter().fold((u32::MAX, 0), |(lo, hi), &c| {
            (lo.min(self.g(c)), hi.max(self.g(c)))
        });
        (line.len() >= 2 && hi - lo + 1 == line.len() as u32).then_some(Constraint::Renban(line))
    }

    /// A palindrome from `start`: a walk kept when its digits read the same both ways.
    fn palindrome(&self, start: u32, rng: &mut GenRng) -> Option<Constraint> {
        let len = 3 + rng.below(3);
        let line = walk(self.shape, start, len, rng, &|_, _| true);
        let k = line.len();
        (k >= 2 && (0..k / 2).all(|i| self.g(line[i]) == self.g(line[k - 1 - i])))
            .then_some(Constraint::Palindrome(line))
    }

    /// An arrow circled at `start`: a walk whose digits add up to the circle's.
    fn arrow(&self, start: u32, rng: &mut GenRng) -> Option<Constraint> {
        let circle = vec![start];
        let target = self.g(start);
        let mut line = vec![start];
        let mut total = 0;
        while total < target {
            let next = walk(self.shape, *line.last().unwrap(), 2, rng, &|l, next| {
                !line.contains(&next) && !l.contains(&next)
            });
            let Some(&next) = next.get(1) else { break };
            line.push(next);
            total += self.g(next);
        }
        (total == target && line.len() >= 2).then(|| {
            Constraint::Arrow(Arrow {
                circle,
                line: line[1..].to_vec(),
            })
        })
    }

    /// A Kropki or XV dot between `start` and a neighbour, when their digits meet one.
    fn dot(&self, kind: ConstraintKind, start: u32, rng: &mut GenRng) -> Option<Constraint> {
        let n = self.n;
        let pairs: Vec<(u32, u32)> = orthogonal_pairs(n)
            .filter(|&(a, b)| a == start || b == start)
            .collect();
        let (a, b) = pairs[rng.below(pairs.len())];
        dot_on(kind, self.g(a), self.g(b)).map(|rule| Constraint::Dot(Dot { a, b, rule }))
    }

    /// The negative of the black dot, with every black dot the grid calls for.
    fn negative(&self) -> Vec<Constraint> {
        let n = self.n;
        let mut all = vec![Constraint::Negative(DotRule::Ratio(2))];
        for (a, b) in orthogonal_pairs(n) {
            if DotRule::Ratio(2).holds(self.g(a), self.g(b)) {
                all.push(Constraint::Dot(Dot {
                    a,
                    b,
                    rule: DotRule::Ratio(2),
                }));
            }
        }
        all
    }

    /// A little killer on a random diagonal, its sum read off the grid.
    fn little_killer(&self, rng: &mut GenRng) -> Option<Constraint> {
        let n = self.n;
        let line = diagonal(n, rng);
        let sum = line.iter().map(|&c| self.g(c)).sum();
        Some(Constraint::LittleKiller(LittleKiller { cells: line, sum }))
    }

    /// A sandwich on a random row or column, when the grid has a sum there.
    fn sandwich(&self, rng: &mut GenRng) -> Option<Constraint> {
        let n = self.n;
        let line = self.random_line(rng);
        let digits: Vec<u32> = line.cells(n).iter().map(|&c| self.g(c)).collect();
        crate::model::lower::sandwiched(&digits, n as u32)
            .map(|sum| Constraint::Sandwich(Sandwich { line, sum }))
    }

    /// Candidates of `start`: its digit and up to three others.
    fn candidates(&self, start: u32, rng: &mut GenRng) -> Option<Constraint> {
        let n = self.n;
        let mut digits = vec![self.g(start)];
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

    /// A quadruple on the 2×2 block from `start`, some of its digits.
    fn quadruple(&self, start: u32, rng: &mut GenRng) -> Option<Constraint> {
        let n = self.n;
        let (r, c) = (start as usize / n, start as usize % n);
        (r + 1 < n && c + 1 < n).then(|| {
            let s = start;
            let n32 = n as u32;
            let cells = vec![s, s + 1, s + n32, s + n32 + 1];
            let mut digits: Vec<u32> = cells.iter().map(|&c| self.g(c)).collect();
            rng.shuffle(&mut digits);
            digits.truncate(1 + rng.below(4));
            digits.sort_unstable();
            Constraint::Quadruple { cells, digits }
        })
    }

    /// A minimum or maximum cell at `start`, when its digit is below or above its neighbours'.
    fn extremum(&self, kind: ConstraintKind, start: u32) -> Option<Constraint> {
        let n = self.n;
        let min = kind == ConstraintKind::Minimum;
        let ok = orthogonal_pairs(n)
            .filter_map(|(a, b)| match (a == start, b == start) {
                (true, _) => Some(b),
                (_, true) => Some(a),
                _ => None,
            })
            .all(|o| {
                if min {
                    self.g(start) < self.g(o)
                } else {
                    self.g(start) > self.g(o)
                }
            });
        ok.then_some(if min {
            Constraint::Minimum(start)
        } else {
            Constraint::Maximum(start)
        })
    }

    /// A row, column or box indexer at `start`, when the grid keeps it.
    fn indexer(&self, start: u32, rng: &mut GenRng) -> Option<Constraint> {
        let kinds = [IndexKind::Row, IndexKind::Column, IndexKind::Box];
        let kind = kinds[rng.below(3)];
        indexed_house(self.shape, start, kind).and_then(|house| {
            let p = house.iter().position(|&c| c == start)? as u32;
            (self.g(house[self.g(start) as usize - 1]) == p + 1)
                .then_some(Constraint::Indexer { cell: start, kind })
        })
    }

    /// A between or lockout line from `start`, kept when the grid meets it.
    fn between_or_lockout(
        &self,
        lockout: bool,
        start: u32,
        rng: &mut GenRng,
    ) -> Option<Constraint> {
        let line = walk(self.shape, start, 3 + rng.below(3), rng, &|_, _| true);
        let k = line.len();
        let (x, y) = (self.g(line[0]), self.g(line[k - 1]));
        let (lo, hi) = (x.min(y), x.max(y));
        let inner = || line[1..k - 1].iter().map(|&c| self.g(c));
        if lockout {
            let gap = lockout_gap(self.n);
            (k >= 3 && hi - lo >= gap && inner().all(|d| d < lo || d > hi))
                .then_some(Constraint::Lockout { cells: line, gap })
        } else {
            (k >= 3 && inner().all(|d| lo < d && d < hi)).then_some(Constraint::Between(line))
        }
    }

    /// A region-sum line from `start`, kept when its segments add up alike.
    fn region_sum(&self, start: u32, rng: &mut GenRng) -> Option<Constraint> {
        let line = walk(self.shape, start, 2 + rng.below(4), rng, &|_, _| true);
        let sums: Vec<u32> = region_segments(self.shape, &line)
            .iter()
            .map(|s| s.iter().map(|&c| self.g(c)).sum())
            .collect();
        (sums.len() >= 2 && sums.iter().all(|&s| s == sums[0]))
            .then_some(Constraint::RegionSum(line))
    }

    /// An entropic or modular line from `start`: a walk each of whose steps keeps the rule.
    fn entropic_or_modular(
        &self,
        kind: ConstraintKind,
        start: u32,
        rng: &mut GenRng,
    ) -> Option<Constraint> {
        let n = self.n;
        let entropic = kind == ConstraintKind::Entropic;
        let third = (n / 3).max(1) as u32;
        let class = |d: u32| if entropic { (d - 1) / third } else { d % 3 };
        let len = 2 + rng.below(5);
        let line = walk(self.shape, start, len, rng, &|line, next| {
            line.iter()
                .rev()
                .take(2)
                .all(|&c| class(self.g(c)) != class(self.g(next)))
        });
        (line.len() >= 2 && (!entropic || n.is_multiple_of(3))).then_some(if entropic {
            Constraint::Entropic(line)
        } else {
            Constraint::Modular(line)
        })
    }

    /// A zipper line from `start`, kept when the grid meets it.
    fn zipper(&self, start: u32, rng: &mut GenRng) -> Option<Constraint> {
        let line = walk(self.shape, start, 3 + rng.below(3), rng, &|_, _| true);
        let k = line.len();
        let sums: Vec<u32> = (0..k / 2)
            .map(|i| self.g(line[i]) + self.g(line[k - 1 - i]))
            .collect();
        let target = if k % 2 == 1 {
            self.g(line[k / 2])
        } else {
            sums[0]
        };
        (k >= 3 && sums.iter().all(|&s| s == target)).then_some(Constraint::Zipper(line))
    }

    /// A slow thermometer from `start`: a walk of digits that never fall.
    fn slow_thermo(&self, start: u32, rng: &mut GenRng) -> Option<Constraint> {
        let n = self.n;
        let len = 2 + rng.below(n.clamp(2, 6) - 1);
        let line = walk(self.shape, start, len, rng, &|line, next| {
            self.g(next) >= self.g(*line.last().unwrap())
        });
        (line.len() >= 2).then_some(Constraint::SlowThermo(line))
    }

    /// A Nabner line from `start`: a walk whose digits are 2 apart at least.
    fn nabner(&self, start: u32, rng: &mut GenRng) -> Option<Constraint> {
        let line = walk(self.shape, start, 2 + rng.below(3), rng, &|line, next| {
            line.iter().all(|&c| self.g(c).abs_diff(self.g(next)) >= 2)
        });
        (line.len() >= 2).then_some(Constraint::Nabner(line))
    }

    /// A double arrow from `start`, kept when the inner digits add up to the ends'.
    fn double_arrow(&self, start: u32, rng: &mut GenRng) -> Option<Constraint> {
        let line = walk(self.shape, start, 3 + rng.below(4), rng, &|_, _| true);
        let k = line.len();
        let inner: u32 = line
            .iter()
            .skip(1)
            .take(k.saturating_sub(2))
            .map(|&c| self.g(c))
            .sum();
        (k >= 3 && inner == self.g(line[0]) + self.g(line[k - 1]))
            .then_some(Constraint::DoubleArrow(line))
    }

    /// A clone: a walk from `start` and a shifted copy with the same digits.
    fn clone_pair(&self, start: u32, rng: &mut GenRng) -> Option<Constraint> {
        let n = self.n;
        let a = walk(self.shape, start, 1 + rng.below(3), rng, &|_, _| true);
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
            (disjoint && a.iter().zip(&b).all(|(&x, &y)| self.g(x) == self.g(y)))
                .then(|| Constraint::Clone { a: a.clone(), b })
        })
    }

    /// A skyscraper or X-sum clue on a random row or column end, its value read off the grid.
    fn edge_clue(&self, kind: ConstraintKind, rng: &mut GenRng) -> Option<Constraint> {
        let n = self.n;
        let line = self.random_line(rng);
        let mut clue = EdgeClue {
            line,
            from_end: rng.below(2) == 1,
            value: 0,
        };
        let digits: Vec<u32> = clue.cells(n).iter().map(|&c| self.g(c)).collect();
        clue.value = match kind {
            ConstraintKind::Skyscraper => skyscraper_count(&digits),
            _ => x_sum(&digits).unwrap_or(0),
        };
        Some(match kind {
            ConstraintKind::Skyscraper => Constraint::Skyscraper(clue),
            _ => Constraint::XSum(clue),
        })
    }
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
