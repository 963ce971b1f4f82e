//! The variant rules of a puzzle (everything but houses and Killer cages) turned into the few
//! forms that backends propagate or encode, once per puzzle:
//!
//! - [`Pair`]: a relation between the digits of two cells ([`PairRule`]): different, equal,
//!   rising by at least `k`, apart by at least `k`, a dot's rule or its negation. Anti-knight,
//!   anti-king, thermometers, whispers, palindromes, dots and negative rules all become pairs;
//!   chess pairs that already share a house are left out;
//! - houses beyond the shape's (disjoint groups, extra regions of `n` cells): every digit once;
//! - distinct groups (extra regions of fewer cells, renban lines);
//! - windows: renban lines, whose digits are consecutive;
//!   Minimum and maximum cells, indexers, entropic, modular and Nabner lines, slow thermometers,
//!   clones and a lockout line's ends become pairs too;
//! - [`LinearSum`]s: arrows (`Σ line − circle = 0`, a pill weighted by powers of ten), little
//!   killers, double arrows (`Σ inner − ends = 0`), zipper lines (each pair's sum equal to the
//!   middle's digit or to the first pair's sum) and region sum lines (each segment's sum equal to
//!   the first's);
//! - sandwiches: a line and the sum between its 1 and its `n`;
//! - parity: odd and even cells;
//! - domains: cells limited to listed digits (candidates);
//! - [`Contains`]: digits that must appear among cells (quadruples);
//! - [`Between`]: cells inside (between lines) or outside (lockout lines) the interval of two
//!   end cells' digits;
//! - [`EdgeLine`]s: skyscraper and X-sum clues, as the line's cells from the clue and its value.
//!
//! Two views serve the backends that reason over `(cell, digit)` placements (`dlx`, `ilp`, `sat`):
//! [`Rules::all_pairs`] adds to the pairs the ones a window reduces to, and [`Rules::exclusions`]
//! the placements that fixed cells rule out.
//!
//! A parameter past every digit's reach (a ratio of `u32::MAX`, a gap past the side) is lowered
//! to the smallest value past the same reach (a ratio of `n + 1`, a gap of `n`), so that
//! backends meet only small numbers and need no overflow care: what the rule allows is the same
//! (see [`in_reach`]).
//!
//! The lowering is the one shared step between the model and the backends that take variants;
//! [`crate::check::verify`] does not use it, so a wrong lowering shows up as a disagreement with
//! the checker (brute-force counts in `tests/variants.rs`).

use super::{
    chess_neighbours, disjoint_groups, indexed_house, orthogonal_pairs, region_segments, Arrow,
    CellAt, Constraint, DotRule, IndexKind, Puzzle, Shape, Value,
};

/// What two cells' digits `a` (first cell) and `b` (second) must satisfy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PairRule {
    /// `a ≠ b`.
    Differ,
    /// `a = b`.
    Equal,
    /// `b ≥ a + k` (a thermometer step: `k = 1`).
    Rise(u32),
    /// `|a − b| ≥ k` (a whisper step).
    Apart(u32),
    /// The dot's rule holds.
    Is(DotRule),
    /// The dot's rule does not hold (a negative rule on a pair without a dot).
    Not(DotRule),
    /// `a ≠ b` and `|a − b| ≤ k`: two cells of a renban line of `k + 1` cells.
    Within(u32),
    /// `a = x` exactly when `b = y` (an indexer and a cell of its house).
    Iff(u32, u32),
    /// `a` and `b` in different thirds of the digits, `t` digits a third (entropic lines).
    OtherThird(u32),
    /// `a` and `b` of different residues mod `m` (modular lines).
    OtherResidue(u32),
}

impl PairRule {
    /// Whether digits `a` (first cell) and `b` (second cell) meet the rule.
    pub fn allows(self, a: u32, b: u32) -> bool {
        match self {
            PairRule::Differ => a != b,
            PairRule::Equal => a == b,
            PairRule::Rise(k) => b >= a + k,
            PairRule::Apart(k) => a.abs_diff(b) >= k,
            PairRule::Is(r) => r.holds(a, b),
            PairRule::Not(r) => !r.holds(a, b),
            PairRule::Within(k) => a != b && a.abs_diff(b) <= k,
            PairRule::Iff(x, y) => (a == x) == (b == y),
            PairRule::OtherThird(t) => (a - 1) / t != (b - 1) / t,
            PairRule::OtherResidue(m) => a % m != b % m,
        }
    }
}

/// A relation between two cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pair {
    pub a: u32,
    pub b: u32,
    pub rule: PairRule,
}

impl Pair {
    /// The digit pairs `(x, y)`, each in `1..=n`, that the rule forbids to the first and the
    /// second cell.
    pub fn forbidden(self, n: usize) -> impl Iterator<Item = (Value, Value)> {
        let n = n as Value;
        (1..=n)
            .flat_map(move |x| (1..=n).map(move |y| (x, y)))
            .filter(move |&(x, y)| !self.rule.allows(x as u32, y as u32))
    }
}

/// `Σ coefficient × digit = rhs` over distinct cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinearSum {
    pub terms: Vec<(u32, i64)>,
    pub rhs: i64,
}

/// A sandwich: the cells of a row or column in order, and the sum between its 1 and its `n`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandwichLine {
    pub cells: Vec<u32>,
    pub sum: u32,
}

/// Digits that must appear among some cells: each digit of `digits` at least as many times as it
/// is listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contains {
    pub cells: Vec<u32>,
    pub digits: Vec<u32>,
}

/// Cells whose digits lie strictly inside (`inside`) the interval between the digits of the ends
/// `a` and `b`, or outside its closed interval (`!inside`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Between {
    pub a: u32,
    pub b: u32,
    pub cells: Vec<u32>,
    pub inside: bool,
}

impl Between {
    /// Whether digit `d` of an inner cell meets the rule with ends holding `x` and `y`.
    pub fn allows(&self, x: u32, y: u32, d: u32) -> bool {
        let (lo, hi) = (x.min(y), x.max(y));
        if self.inside {
            lo < d && d < hi
        } else {
            d < lo || d > hi
        }
    }
}

/// A clue read from one end of a row or column: the line's cells from the clue, and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdgeLine {
    pub cells: Vec<u32>,
    pub value: u32,
}

/// The number of cells of `digits` (from the clue) seen from the clue: those larger than every
/// digit before them.
pub fn skyscraper_count(digits: &[u32]) -> u32 {
    let mut top = 0;
    let mut seen = 0;
    for &d in digits {
        if d > top {
            top = d;
            seen += 1;
        }
    }
    seen
}

/// The X-sum of `digits` (from the clue): the sum of the first `x` of them, `x` being the first;
/// `None` when `x` is past the line.
pub fn x_sum(digits: &[u32]) -> Option<u32> {
    let x = *digits.first()? as usize;
    digits.get(..x).map(|d| d.iter().sum())
}

/// Fixed cells that already break a rule ([`Rules::exclusions`]): the puzzle has no solution.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Broken {
    #[error("{0} holds {1}, against its parity rule")]
    Parity(CellAt, Value),
    #[error("{0} holds {1}, not one of its candidates")]
    NotACandidate(CellAt, Value),
    /// The two cells and their digits.
    #[error("{0} and {1} hold {2} and {3}, which a rule between them forbids")]
    Pair(CellAt, CellAt, Value, Value),
    #[error("{0} and {1} both hold {2} in a group of distinct digits")]
    Repeated(CellAt, CellAt, Value),
}

/// The variant rules of one puzzle in propagation-ready forms.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rules {
    pub pairs: Vec<Pair>,
    /// Groups of `n` cells holding every digit once.
    pub houses: Vec<Vec<u32>>,
    /// Groups of fewer than `n` cells holding distinct digits.
    pub distinct: Vec<Vec<u32>>,
    /// Groups whose digits are consecutive (renban; each is also in `distinct`).
    pub windows: Vec<Vec<u32>>,
    pub sums: Vec<LinearSum>,
    pub sandwiches: Vec<SandwichLine>,
    /// Cells that hold an odd digit (`true`) or an even one (`false`).
    pub parity: Vec<(u32, bool)>,
    /// Cells and the digits they may hold (each list sorted, within `1..=n`, maybe empty).
    pub domains: Vec<(u32, Vec<u32>)>,
    pub contains: Vec<Contains>,
    pub betweens: Vec<Between>,
    pub skyscrapers: Vec<EdgeLine>,
    pub xsums: Vec<EdgeLine>,
}

impl Rules {
    /// The rules of `puzzle` beyond its houses and cages; empty for a plain or Killer puzzle.
    pub fn of(puzzle: &Puzzle) -> Rules {
        let mut r = Rules::default();
        for c in puzzle.constraints() {
            r.add(puzzle, c);
        }
        r
    }

    /// The lowering of one of `puzzle`'s constraints (a negative rule looks at the puzzle's dots).
    pub fn of_one(puzzle: &Puzzle, c: &Constraint) -> Rules {
        let mut r = Rules::default();
        r.add(puzzle, c);
        r
    }

    /// Lowers one rule of `puzzle` (one function per kind where there is more than a line).
    fn add(&mut self, puzzle: &Puzzle, c: &Constraint) {
        let shape = puzzle.shape();
        let n = shape.size();
        match c {
            Constraint::Cage(_) => {}
            Constraint::AntiKnight => self.add_chess(shape, true),
            Constraint::AntiKing => self.add_chess(shape, false),
            Constraint::DisjointGroups => {
                for g in disjoint_groups(shape).unwrap_or_default() {
                    self.group(&g, n);
                }
            }
            Constraint::ExtraRegion(cells) => self.group(cells, n),
            Constraint::Odd(cell) => self.parity.push((*cell, true)),
            Constraint::Even(cell) => self.parity.push((*cell, false)),
            Constraint::Thermo(cells) => self.line_pairs(cells, PairRule::Rise(1)),
            Constraint::Whisper { cells, gap } => {
                self.line_pairs(cells, PairRule::Apart((*gap).min(n as u32)))
            }
            Constraint::Palindrome(cells) => self.add_palindrome(cells),
            Constraint::Renban(cells) => {
                self.group(cells, n);
                if cells.len() > 1 && cells.len() < n {
                    self.windows.push(cells.clone());
                }
            }
            Constraint::Dot(d) => self.pairs.push(Pair {
                a: d.a,
                b: d.b,
                rule: PairRule::Is(in_reach(d.rule, n)),
            }),
            Constraint::Negative(rule) => self.add_negative(puzzle, *rule),
            Constraint::Arrow(arrow) => self.add_arrow(arrow),
            Constraint::LittleKiller(l) => self.sums.push(LinearSum {
                terms: l.cells.iter().map(|&c| (c, 1)).collect(),
                rhs: (l.sum as i64).min(n as i64 * l.cells.len() as i64 + 1),
            }),
            Constraint::Sandwich(s) => self.sandwiches.push(SandwichLine {
                cells: s.line.cells(n),
                sum: s.sum.min((n * n) as u32),
            }),
            Constraint::Candidates { cell, digits } => self.add_candidates(*cell, digits, n),
            // A digit, clue or count no cell can meet is lowered to one past the digits' reach
            // (`n + 1`, or the largest X-sum plus one), so backends meet no zero.
            Constraint::Quadruple { cells, digits } => self.contains.push(Contains {
                cells: cells.clone(),
                digits: digits.iter().map(|&d| beyond(d, n as u32)).collect(),
            }),
            Constraint::Minimum(cell) => self.add_extremum(puzzle, *cell, true),
            Constraint::Maximum(cell) => self.add_extremum(puzzle, *cell, false),
            Constraint::Indexer { cell, kind } => self.add_indexer(shape, *cell, *kind),
            Constraint::Between(cells) => self.add_between(cells, None),
            Constraint::Lockout { cells, gap } => {
                self.add_between(cells, Some((*gap).min(n as u32)))
            }
            Constraint::RegionSum(cells) => self.add_region_sum(shape, cells),
            Constraint::Entropic(cells) => {
                self.add_near_pairs(cells, PairRule::OtherThird(n as u32 / 3))
            }
            Constraint::Modular(cells) => self.add_near_pairs(cells, PairRule::OtherResidue(3)),
            Constraint::Zipper(cells) => self.add_zipper(cells),
            Constraint::SlowThermo(cells) => self.line_pairs(cells, PairRule::Rise(0)),
            Constraint::Nabner(cells) => self.add_nabner(cells, n),
            Constraint::DoubleArrow(cells) => self.add_double_arrow(cells),
            Constraint::Clone { a, b } => {
                for (&x, &y) in a.iter().zip(b).filter(|(x, y)| x != y) {
                    self.pairs.push(Pair {
                        a: x,
                        b: y,
                        rule: PairRule::Equal,
                    });
                }
            }
            Constraint::Skyscraper(clue) => self.skyscrapers.push(EdgeLine {
                cells: clue.cells(n),
                value: beyond(clue.value, n as u32),
            }),
            Constraint::XSum(clue) => self.xsums.push(EdgeLine {
                cells: clue.cells(n),
                value: beyond(clue.value, (n * (n + 1) / 2) as u32),
            }),
        }
    }

    /// Distinct digits on `cells`: a house when they are `n`, a distinct group when fewer.
    fn group(&mut self, cells: &[u32], n: usize) {
        if cells.len() == n {
            self.houses.push(cells.to_vec());
        } else if cells.len() > 1 {
            self.distinct.push(cells.to_vec());
        }
    }

    /// `rule` between each two consecutive cells of a line.
    fn line_pairs(&mut self, cells: &[u32], rule: PairRule) {
        for w in cells.windows(2) {
            self.pairs.push(Pair {
                a: w[0],
                b: w[1],
                rule,
            });
        }
    }

    /// Anti-knight (`knight`) or anti-king: different digits a chess move apart, where no house
    /// already says so.
    fn add_chess(&mut self, shape: &Shape, knight: bool) {
        let n = shape.size();
        let share_house = |a: usize, b: usize| {
            let hb = shape.houses_of(b);
            shape.houses_of(a).iter().any(|h| hb.contains(h))
        };
        for a in 0..n * n {
            for b in chess_neighbours(a, n, knight) {
                if a < b && !share_house(a, b) {
                    self.pairs.push(Pair {
                        a: a as u32,
                        b: b as u32,
                        rule: PairRule::Differ,
                    });
                }
            }
        }
    }

    fn add_palindrome(&mut self, cells: &[u32]) {
        let k = cells.len();
        for i in 0..k / 2 {
            self.pairs.push(Pair {
                a: cells[i],
                b: cells[k - 1 - i],
                rule: PairRule::Equal,
            });
        }
    }

    /// The negative rule of `rule`'s family: every orthogonal pair without a dot of that family.
    fn add_negative(&mut self, puzzle: &Puzzle, rule: DotRule) {
        let n = puzzle.size();
        let dotted: Vec<(u32, u32, DotRule)> = puzzle
            .constraints()
            .iter()
            .filter_map(|c| match c {
                Constraint::Dot(d) => Some((d.a.min(d.b), d.a.max(d.b), d.rule)),
                _ => None,
            })
            .collect();
        for (a, b) in orthogonal_pairs(n) {
            let marked = dotted
                .iter()
                .any(|&(x, y, dot)| (x, y) == (a, b) && dot.family() == rule.family());
            if !marked {
                self.pairs.push(Pair {
                    a,
                    b,
                    rule: PairRule::Not(in_reach(rule, n)),
                });
            }
        }
    }

    /// The line's digits add up to the circle's (a pill's cells read as a decimal number).
    fn add_arrow(&mut self, arrow: &Arrow) {
        let k = arrow.circle.len() as u32;
        let mut terms: Vec<(u32, i64)> = arrow.line.iter().map(|&c| (c, 1)).collect();
        for (i, &c) in arrow.circle.iter().enumerate() {
            terms.push((c, -(10i64.pow(k - 1 - i as u32))));
        }
        self.sums.push(LinearSum { terms, rhs: 0 });
    }

    fn add_candidates(&mut self, cell: u32, digits: &[u32], n: usize) {
        let mut ds: Vec<u32> = digits
            .iter()
            .copied()
            .filter(|d| (1..=n as u32).contains(d))
            .collect();
        ds.sort_unstable();
        ds.dedup();
        self.domains.push((cell, ds));
    }

    /// A minimum (`min`) or maximum cell: below (above) each orthogonal neighbour.
    fn add_extremum(&mut self, puzzle: &Puzzle, cell: u32, min: bool) {
        // Neighbours that are cells of the same kind are not compared (f-puzzles).
        let same: Vec<u32> = puzzle
            .constraints()
            .iter()
            .filter_map(|k| match (k, min) {
                (Constraint::Minimum(x), true) | (Constraint::Maximum(x), false) => Some(*x),
                _ => None,
            })
            .collect();
        for (x, y) in orthogonal_pairs(puzzle.size()).filter(|&(x, y)| x == cell || y == cell) {
            let other = if x == cell { y } else { x };
            if same.contains(&other) {
                continue;
            }
            let (a, b) = if min { (cell, other) } else { (other, cell) };
            self.pairs.push(Pair {
                a,
                b,
                rule: PairRule::Rise(1),
            });
        }
    }

    fn add_indexer(&mut self, shape: &Shape, cell: u32, kind: IndexKind) {
        let house = indexed_house(shape, cell, kind).unwrap_or_default();
        if let Some(p) = house.iter().position(|&c| c == cell) {
            for (x, &other) in house.iter().enumerate().filter(|&(x, _)| x != p) {
                self.pairs.push(Pair {
                    a: cell,
                    b: other,
                    rule: PairRule::Iff(x as u32 + 1, p as u32 + 1),
                });
            }
        }
    }

    /// A between line (`gap` `None`), or a lockout line whose ends are `gap` apart at least.
    fn add_between(&mut self, cells: &[u32], gap: Option<u32>) {
        let (a, b) = (cells[0], cells[cells.len() - 1]);
        if let Some(gap) = gap {
            self.pairs.push(Pair {
                a,
                b,
                rule: PairRule::Apart(gap),
            });
        }
        let inner = cells[1..cells.len() - 1].to_vec();
        if !inner.is_empty() {
            self.betweens.push(Between {
                a,
                b,
                cells: inner,
                inside: gap.is_none(),
            });
        }
    }

    fn add_region_sum(&mut self, shape: &Shape, cells: &[u32]) {
        let segments = region_segments(shape, cells);
        for seg in segments.iter().skip(1) {
            let terms = segments[0].iter().map(|&c| (c, 1));
            self.sums.push(LinearSum {
                terms: terms.chain(seg.iter().map(|&c| (c, -1))).collect(),
                rhs: 0,
            });
        }
    }

    /// `rule` between each cell and the next two along the line (entropic, modular).
    fn add_near_pairs(&mut self, cells: &[u32], rule: PairRule) {
        for (i, &a) in cells.iter().enumerate() {
            for &b in cells.iter().skip(i + 1).take(2) {
                self.pairs.push(Pair { a, b, rule });
            }
        }
    }

    fn add_zipper(&mut self, cells: &[u32]) {
        let k = cells.len();
        let pair = |i: usize| [(cells[i], 1), (cells[k - 1 - i], 1)];
        for i in 0..k / 2 {
            let mut terms = pair(i).to_vec();
            if k % 2 == 1 {
                terms.push((cells[k / 2], -1));
            } else if i > 0 {
                terms.extend(pair(0).iter().map(|&(c, _)| (c, -1)));
            } else {
                continue;
            }
            self.sums.push(LinearSum { terms, rhs: 0 });
        }
    }

    fn add_nabner(&mut self, cells: &[u32], n: usize) {
        self.group(cells, n);
        for (i, &a) in cells.iter().enumerate() {
            for &b in &cells[i + 1..] {
                self.pairs.push(Pair {
                    a,
                    b,
                    rule: PairRule::Apart(2),
                });
            }
        }
    }

    fn add_double_arrow(&mut self, cells: &[u32]) {
        let k = cells.len();
        let ends = [(cells[0], -1), (cells[k - 1], -1)];
        let inner = cells[1..k - 1].iter().map(|&c| (c, 1));
        self.sums.push(LinearSum {
            terms: inner.chain(ends).collect(),
            rhs: 0,
        });
    }

    /// The pairs, then the ones the windows reduce to: distinct digits (which their groups in
    /// [`Rules::distinct`] say too) are consecutive exactly when every two of them are at most
    /// `k − 1` apart, `k` being the window's length, so each two cells of a window get
    /// [`PairRule::Within`]`(k − 1)`.
    pub fn all_pairs(&self) -> impl Iterator<Item = Pair> + '_ {
        let windows = self.windows.iter().flat_map(|w| {
            let k = w.len() as u32 - 1;
            w.iter().enumerate().flat_map(move |(i, &a)| {
                w[i + 1..].iter().map(move |&b| Pair {
                    a,
                    b,
                    rule: PairRule::Within(k),
                })
            })
        });
        self.pairs.iter().copied().chain(windows)
    }

    /// The placements `(cell, digit)` of open cells that the rules rule out once the `fixed`
    /// cells (0 for open ones) are known, on a grid of side `n`: a parity cell's digits of the
    /// other parity, the digits a fixed cell forbids to its partners in [`Rules::all_pairs`], and
    /// a digit fixed in an extra house or distinct group from its other cells, the digits outside
    /// a cell's domain. An error, saying which cells, when the fixed cells themselves already
    /// break one of these rules. Sums, sandwiches, quadruples, between lines and edge clues are
    /// not looked at.
    pub fn exclusions(&self, n: usize, fixed: &[Value]) -> Result<Vec<(u32, Value)>, Broken> {
        let at = |c: u32| CellAt::of(c, n);
        let mut out = vec![];
        for &(cell, odd) in &self.parity {
            match fixed[cell as usize] {
                0 => out.extend(
                    (1..=n as Value)
                        .filter(|d| (d % 2 == 1) != odd)
                        .map(|d| (cell, d)),
                ),
                d if (d % 2 == 1) != odd => return Err(Broken::Parity(at(cell), d)),
                _ => {}
            }
        }
        for (cell, digits) in &self.domains {
            match fixed[*cell as usize] {
                0 => out.extend(
                    (1..=n as u32)
                        .filter(|d| !digits.contains(d))
                        .map(|d| (*cell, d as Value)),
                ),
                d if !digits.contains(&(d as u32)) => {
                    return Err(Broken::NotACandidate(at(*cell), d))
                }
                _ => {}
            }
        }
        for p in self.all_pairs() {
            match (fixed[p.a as usize], fixed[p.b as usize]) {
                (0, 0) => {}
                (x, 0) => out.extend(
                    p.forbidden(n)
                        .filter(|&(fx, _)| fx == x)
                        .map(|(_, y)| (p.b, y)),
                ),
                (0, y) => out.extend(
                    p.forbidden(n)
                        .filter(|&(_, fy)| fy == y)
                        .map(|(x, _)| (p.a, x)),
                ),
                (x, y) if !p.rule.allows(x as u32, y as u32) => {
                    return Err(Broken::Pair(at(p.a), at(p.b), x, y))
                }
                _ => {}
            }
        }
        for g in self.houses.iter().chain(&self.distinct) {
            let mut held: Vec<Option<u32>> = vec![None; n + 1];
            for &c in g {
                let d = fixed[c as usize] as usize;
                if d == 0 {
                    continue;
                }
                if let Some(other) = held[d].replace(c) {
                    return Err(Broken::Repeated(at(other), at(c), d as Value));
                }
                out.extend(
                    g.iter()
                        .filter(|&&o| fixed[o as usize] == 0)
                        .map(|&o| (o, d as Value)),
                );
            }
        }
        Ok(out)
    }

    /// Whether there is nothing beyond houses and cages.
    pub fn is_empty(&self) -> bool {
        *self == Rules::default()
    }
}

/// `rule` with a parameter past what digits `1..=n` reach brought down to the smallest value past
/// the same reach: a difference to `n`, a ratio to `n + 1`, a sum to `2n + 1`. No two digits meet
/// either, so the rule allows the same pairs, and `k × d` and `a + b` stay small.
pub fn in_reach(rule: DotRule, n: usize) -> DotRule {
    let n = n as u32;
    match rule {
        DotRule::Difference(k) => DotRule::Difference(k.min(n)),
        DotRule::Ratio(k) => DotRule::Ratio(k.min(n + 1)),
        DotRule::Sum(k) => DotRule::Sum(k.min(2 * n + 1)),
    }
}

/// `v` when it is in `1..=most`, else `most + 1` (past every reach, and never 0).
fn beyond(v: u32, most: u32) -> u32 {
    if (1..=most).contains(&v) {
        v
    } else {
        most + 1
    }
}

/// The digits strictly between the 1 and the `n` of a full line (`None` when either is missing).
pub fn sandwiched(digits: &[u32], n: u32) -> Option<u32> {
    let one = digits.iter().position(|&d| d == 1)?;
    let top = digits.iter().position(|&d| d == n)?;
    let (lo, hi) = (one.min(top), one.max(top));
    Some(digits[lo + 1..hi].iter().sum())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Shape;
    use std::sync::Arc;

    fn rules(n: usize, c: Vec<Constraint>) -> Rules {
        let shape = Arc::new(Shape::standard(n, false).unwrap());
        let p = Puzzle::new(shape, vec![0; n * n])
            .unwrap()
            .with_constraints(c)
            .unwrap();
        Rules::of(&p)
    }

    #[test]
    fn a_renban_window_gives_each_two_cells_within_its_length() {
        let r = rules(4, vec![Constraint::Renban(vec![0, 1, 2])]);
        let pairs: Vec<Pair> = r.all_pairs().collect();
        assert_eq!(pairs.len(), 3);
        assert!(pairs.iter().all(|p| p.rule == PairRule::Within(2)));
        let p = pairs[0];
        assert!(p.rule.allows(1, 3) && !p.rule.allows(1, 4) && !p.rule.allows(2, 2));
        let forbidden: Vec<(Value, Value)> = p.forbidden(4).collect();
        assert_eq!(forbidden, [(1, 1), (1, 4), (2, 2), (3, 3), (4, 1), (4, 4)]);
    }

    #[test]
    fn exclusions_follow_the_fixed_cells_and_name_a_broken_rule() {
        let r = rules(4, vec![Constraint::Thermo(vec![0, 1]), Constraint::Odd(5)]);
        let mut fixed = vec![0; 16];
        fixed[0] = 3;
        let mut out = r.exclusions(4, &fixed).unwrap();
        out.sort_unstable();
        // The odd cell loses 2 and 4; the thermometer's second cell everything up to 3.
        assert_eq!(out, [(1, 1), (1, 2), (1, 3), (5, 2), (5, 4)]);
        fixed[1] = 2;
        let e = r.exclusions(4, &fixed).unwrap_err();
        assert_eq!(e, Broken::Pair(CellAt::of(0, 4), CellAt::of(1, 4), 3, 2));
        assert_eq!(
            e.to_string(),
            "row 1, column 1 and row 1, column 2 hold 3 and 2, which a rule between them forbids"
        );
    }
}
