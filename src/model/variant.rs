//! The variant rules that setters publish beyond houses and Killer cages: chess exclusions,
//! parity cells, lines (thermometers, arrows, whispers, renban, palindromes), dots between two
//! cells (Kropki, XV) with their negative rule, and outside clues (little killers, sandwiches).
//!
//! Each rule is plain data over row-major cell indices. [`Constraint::kind`] names it (the word
//! that backends refuse, `encode --stats` counts and the docs' table lists); [`validate`] checks
//! it against a shape when a puzzle is built; [`crate::check::verify`] checks a grid against it;
//! [`super::lower`] turns the rules into the few forms backends propagate.
//!
//! The definitions follow f-puzzles (and the solver it calls):
//! - a **thermometer** strictly increases from its bulb (its first cell);
//! - an **arrow**'s cells add up to its circle; a circle of 2 or 3 cells (a *pill*) is read as a
//!   decimal number, first cell first, so pills need `n ≤ 9`;
//! - on a **German whisper** neighbours on the line differ by at least `gap` (`⌈n/2⌉` by
//!   default, 5 on 9×9);
//! - a **renban** line holds distinct consecutive digits in any order;
//! - a **palindrome** reads the same from both ends;
//! - a **dot** joins two orthogonal neighbours: Kropki white (difference `k`, 1 by default),
//!   Kropki black (one is `k` times the other, 2 by default), X (sum 10), V (sum 5);
//! - a **negative** rule says every dot of its family is given: orthogonal neighbours that carry
//!   no dot of the family (Kropki: white or black; XV: X or V) must not meet the rule.
//!   Non-consecutive is the negative of the white dot of difference 1;
//! - a **little killer** clue outside the grid gives the sum of the diagonal it points along
//!   (digits may repeat);
//! - a **sandwich** clue gives the sum of the digits strictly between 1 and `n` in its row or
//!   column (0 when they are neighbours);
//! - **disjoint groups**: the cells at the same position of every box hold distinct digits (boxes
//!   only);
//! - an **extra region** holds distinct digits (up to `n` cells);
//! - **candidates** (f-puzzles' given pencil marks on an empty cell) limit a cell to the listed
//!   digits;
//! - a **quadruple** lists digits that appear among the (up to four) cells around a grid point,
//!   a digit listed twice at least twice;
//! - a **minimum** (**maximum**) cell, of a fortress, is smaller (larger) than each of its
//!   orthogonal neighbours that is not itself a minimum (maximum) cell, as f-puzzles and the
//!   setters' solvers read it (two neighbouring fortress cells are not compared);
//! - an **indexer** cell at position `p` (from 1) of a house holds the position, in that house,
//!   of the digit `p`: a row indexer's house is its column (its digit says in which row of the
//!   column the digit equal to its own row number stands), a column indexer's its row (the 1-5-9
//!   rule), a box indexer's its box (positions row-major);
//! - a **between line**'s inner cells hold digits strictly between those of its two ends;
//! - a **lockout line**'s ends differ by at least `gap` (4 on 9×9) and its inner cells hold
//!   digits outside the ends' closed interval;
//! - a **region sum line** is cut by the region borders into segments of equal sums;
//! - on an **entropic line** any three consecutive cells hold one low, one middle and one high
//!   digit (the thirds of `1..=n`);
//! - on a **modular line** any three consecutive cells hold digits of three residues mod 3;
//! - on a **zipper line** cells at the same distance from the middle add up to the same sum,
//!   which is the middle cell's digit on a line of odd length;
//! - a **slow thermometer** never decreases from its bulb;
//! - a **Nabner line** holds digits no two of which are equal or consecutive;
//! - a **double arrow**'s inner cells add up to the sum of its two ends;
//! - a **clone** is two lists of cells holding the same digits, place by place;
//! - a **skyscraper** clue outside the grid counts the cells of its row or column seen from it,
//!   a cell being seen when it is larger than every cell before it;
//! - an **X-sum** clue outside the grid is the sum of the first `X` cells of its row or column
//!   counted from the clue, `X` being the digit of the first of them.

use std::fmt;

use super::{Cage, CellAt, Regions, Shape};

/// A rule beyond the houses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Constraint {
    /// A Killer cage: distinct digits with a given sum.
    Cage(Cage),
    /// Cells a chess knight's move apart hold different digits.
    AntiKnight,
    /// Cells a chess king's move apart (diagonal neighbours included) hold different digits.
    AntiKing,
    /// The cells at the same position of every box hold different digits.
    DisjointGroups,
    /// Up to `n` cells holding different digits.
    ExtraRegion(Vec<u32>),
    /// A cell holding an odd digit.
    Odd(u32),
    /// A cell holding an even digit.
    Even(u32),
    /// Strictly increasing from the first cell (the bulb).
    Thermo(Vec<u32>),
    /// The line's digits add up to the number in the circle.
    Arrow(Arrow),
    /// Neighbours on the line differ by at least `gap`.
    Whisper { cells: Vec<u32>, gap: u32 },
    /// Distinct consecutive digits in any order.
    Renban(Vec<u32>),
    /// The line reads the same from both ends.
    Palindrome(Vec<u32>),
    /// A dot between two orthogonal neighbours.
    Dot(Dot),
    /// No orthogonal neighbours without a dot of the rule's family meet the rule.
    Negative(DotRule),
    /// The sum along a diagonal (repeats allowed).
    LittleKiller(LittleKiller),
    /// The sum of the digits between 1 and `n` in a row or column.
    Sandwich(Sandwich),
    /// The cell holds one of `digits`.
    Candidates { cell: u32, digits: Vec<u32> },
    /// Each of `digits` appears among `cells` (a digit listed `k` times, at least `k` times).
    Quadruple { cells: Vec<u32>, digits: Vec<u32> },
    /// Smaller than each orthogonal neighbour that is not a minimum cell too.
    Minimum(u32),
    /// Larger than each orthogonal neighbour that is not a maximum cell too.
    Maximum(u32),
    /// The cell holds the position, in its house of `kind`, of the digit equal to its own.
    Indexer { cell: u32, kind: IndexKind },
    /// The inner cells hold digits strictly between the ends' (first and last cell).
    Between(Vec<u32>),
    /// The ends differ by at least `gap`; the inner cells hold digits outside the ends' interval.
    Lockout { cells: Vec<u32>, gap: u32 },
    /// Cut by region borders into segments of equal sums.
    RegionSum(Vec<u32>),
    /// Any three consecutive cells hold a low, a middle and a high digit.
    Entropic(Vec<u32>),
    /// Any three consecutive cells hold digits of three different residues mod 3.
    Modular(Vec<u32>),
    /// Cells at the same distance from the middle add up to the same sum (the middle's digit).
    Zipper(Vec<u32>),
    /// Never decreasing from the first cell (the bulb).
    SlowThermo(Vec<u32>),
    /// No two digits equal or consecutive.
    Nabner(Vec<u32>),
    /// The inner cells add up to the sum of the two ends.
    DoubleArrow(Vec<u32>),
    /// `a[i]` and `b[i]` hold the same digit.
    Clone { a: Vec<u32>, b: Vec<u32> },
    /// How many cells of the line are seen from the clue.
    Skyscraper(EdgeClue),
    /// The sum of the first `X` cells from the clue, `X` the first cell's digit.
    XSum(EdgeClue),
}

/// Which house an indexer cell indexes (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IndexKind {
    /// The cell's column: its digit is a row.
    Row,
    /// The cell's row: its digit is a column.
    Column,
    /// The cell's box: its digit is a position in the box, row-major.
    Box,
}

impl IndexKind {
    /// The f-puzzles and model name: `row`, `column`, `box`.
    pub fn name(self) -> &'static str {
        match self {
            IndexKind::Row => "row",
            IndexKind::Column => "column",
            IndexKind::Box => "box",
        }
    }
}

/// A clue outside the grid that reads a row or column from one end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EdgeClue {
    pub line: Line,
    /// Read from the far end (the right of a row, the bottom of a column).
    pub from_end: bool,
    pub value: u32,
}

impl EdgeClue {
    /// The side the clue reads from: `left`, `right` (rows), `top` or `bottom` (columns).
    pub fn side(&self) -> &'static str {
        match (self.line, self.from_end) {
            (Line::Row(_), false) => "left",
            (Line::Row(_), true) => "right",
            (Line::Col(_), false) => "top",
            (Line::Col(_), true) => "bottom",
        }
    }
    /// The line's cells on a grid of side `n`, from the clue inwards.
    pub fn cells(&self, n: usize) -> Vec<u32> {
        let mut cells = self.line.cells(n);
        if self.from_end {
            cells.reverse();
        }
        cells
    }
}

/// The houses' cells in order, for an indexer at `cell` of `kind`: `None` for a box indexer on a
/// jigsaw shape.
pub fn indexed_house(shape: &Shape, cell: u32, kind: IndexKind) -> Option<Vec<u32>> {
    let n = shape.size();
    let (r, c) = (cell as usize / n, cell as usize % n);
    Some(match kind {
        IndexKind::Row => Line::Col(c as u32).cells(n),
        IndexKind::Column => Line::Row(r as u32).cells(n),
        IndexKind::Box => {
            let Regions::Boxes { rows, cols } = *shape.regions() else {
                return None;
            };
            let (r0, c0) = (r / rows * rows, c / cols * cols);
            (0..rows)
                .flat_map(|i| (0..cols).map(move |j| ((r0 + i) * n + c0 + j) as u32))
                .collect()
        }
    })
}

/// The lockout gap on a grid of side `n` when none is given: `⌊(n − 1)/2⌋` (4 on 9×9).
pub fn lockout_gap(n: usize) -> u32 {
    (n.saturating_sub(1) / 2) as u32
}

/// The segments a region sum line is cut into by the regions of `shape`, in order along the line.
pub fn region_segments(shape: &Shape, cells: &[u32]) -> Vec<Vec<u32>> {
    let mut out: Vec<Vec<u32>> = vec![];
    let mut last = None;
    for &c in cells {
        let region = shape.region_of(c as usize);
        match out.last_mut() {
            Some(seg) if last == Some(region) => seg.push(c),
            _ => out.push(vec![c]),
        }
        last = Some(region);
    }
    out
}

/// The circle (1 to 3 cells, read as a number) and the line of an arrow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arrow {
    pub circle: Vec<u32>,
    pub line: Vec<u32>,
}

/// What a dot between two cells says about their digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DotRule {
    /// Kropki white: the digits differ by exactly `k`.
    Difference(u32),
    /// Kropki black: one digit is `k` times the other.
    Ratio(u32),
    /// XV: the digits add up to `k` (X is 10, V is 5).
    Sum(u32),
}

impl DotRule {
    /// Whether digits `a` and `b` meet the rule.
    pub fn holds(self, a: u32, b: u32) -> bool {
        match self {
            DotRule::Difference(k) => a.abs_diff(b) == k,
            DotRule::Ratio(k) => {
                let (a, b, k) = (a as u64, b as u64, k as u64);
                a == k * b || b == k * a
            }
            DotRule::Sum(k) => a as u64 + b as u64 == k as u64,
        }
    }
    /// Kropki dots (white and black) form one family, X and V another: a dot of a family
    /// exempts its pair from every negative rule of that family.
    pub fn family(self) -> DotFamily {
        match self {
            DotRule::Difference(_) | DotRule::Ratio(_) => DotFamily::Kropki,
            DotRule::Sum(_) => DotFamily::Xv,
        }
    }
}

impl fmt::Display for DotRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DotRule::Difference(k) => write!(f, "difference {k}"),
            DotRule::Ratio(k) => write!(f, "ratio {k}"),
            DotRule::Sum(10) => write!(f, "X"),
            DotRule::Sum(5) => write!(f, "V"),
            DotRule::Sum(k) => write!(f, "sum {k}"),
        }
    }
}

/// The families of dots that a negative rule speaks of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DotFamily {
    Kropki,
    Xv,
}

/// A dot between two orthogonal neighbours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dot {
    pub a: u32,
    pub b: u32,
    pub rule: DotRule,
}

/// A little killer clue: the cells of its diagonal, from the clue inwards, and their sum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LittleKiller {
    pub cells: Vec<u32>,
    pub sum: u32,
}

impl LittleKiller {
    /// Where the clue sits on a grid of side `n` and where it points: the (row, column) of the
    /// clue, from 0, one diagonal step before the first cell (so `-1` or `n` when outside the
    /// grid), and that step `(±1, ±1)`. A clue of one cell points along the diagonal that leaves
    /// the grid at both ends of it (a corner's), else along one that starts outside.
    pub fn clue(&self, n: usize) -> ((i64, i64), (i64, i64)) {
        let n64 = n as i64;
        let at = |c: u32| (c as i64 / n64.max(1), c as i64 % n64.max(1));
        let Some(&first) = self.cells.first() else {
            return ((-1, -1), (1, 1));
        };
        let (r, c) = at(first);
        let outside = |(r, c): (i64, i64)| !(0..n64).contains(&r) || !(0..n64).contains(&c);
        let diagonals = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let step = match self.cells.get(1) {
            Some(&next) => {
                let (r2, c2) = at(next);
                (r2 - r, c2 - c)
            }
            None => diagonals
                .into_iter()
                .find(|&(dr, dc)| outside((r - dr, c - dc)) && outside((r + dr, c + dc)))
                .or_else(|| {
                    diagonals
                        .into_iter()
                        .find(|&(dr, dc)| outside((r - dr, c - dc)))
                })
                .unwrap_or((1, 1)),
        };
        ((r - step.0, c - step.1), step)
    }
}

/// A row or a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    Row(u32),
    Col(u32),
}

impl Line {
    /// The cells of the line in a grid of side `n`, in order.
    pub fn cells(self, n: usize) -> Vec<u32> {
        let n32 = n as u32;
        match self {
            Line::Row(r) => (0..n32).map(|c| r * n32 + c).collect(),
            Line::Col(c) => (0..n32).map(|r| r * n32 + c).collect(),
        }
    }
}

/// A sandwich clue on a row or column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sandwich {
    pub line: Line,
    pub sum: u32,
}

/// The kinds of constraint, by the name users and backends use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ConstraintKind {
    Killer,
    AntiKnight,
    AntiKing,
    DisjointGroups,
    ExtraRegion,
    Odd,
    Even,
    Thermo,
    Arrow,
    Whisper,
    Renban,
    Palindrome,
    Kropki,
    Xv,
    NonConsecutive,
    Negative,
    LittleKiller,
    Sandwich,
    Candidates,
    Quadruple,
    Minimum,
    Maximum,
    Indexer,
    Between,
    Lockout,
    RegionSum,
    Entropic,
    Modular,
    Zipper,
    SlowThermo,
    Nabner,
    DoubleArrow,
    Clone,
    Skyscraper,
    XSum,
}

impl ConstraintKind {
    pub const ALL: [ConstraintKind; 35] = [
        ConstraintKind::Killer,
        ConstraintKind::AntiKnight,
        ConstraintKind::AntiKing,
        ConstraintKind::DisjointGroups,
        ConstraintKind::ExtraRegion,
        ConstraintKind::Odd,
        ConstraintKind::Even,
        ConstraintKind::Thermo,
        ConstraintKind::Arrow,
        ConstraintKind::Whisper,
        ConstraintKind::Renban,
        ConstraintKind::Palindrome,
        ConstraintKind::Kropki,
        ConstraintKind::Xv,
        ConstraintKind::NonConsecutive,
        ConstraintKind::Negative,
        ConstraintKind::LittleKiller,
        ConstraintKind::Sandwich,
        ConstraintKind::Candidates,
        ConstraintKind::Quadruple,
        ConstraintKind::Minimum,
        ConstraintKind::Maximum,
        ConstraintKind::Indexer,
        ConstraintKind::Between,
        ConstraintKind::Lockout,
        ConstraintKind::RegionSum,
        ConstraintKind::Entropic,
        ConstraintKind::Modular,
        ConstraintKind::Zipper,
        ConstraintKind::SlowThermo,
        ConstraintKind::Nabner,
        ConstraintKind::DoubleArrow,
        ConstraintKind::Clone,
        ConstraintKind::Skyscraper,
        ConstraintKind::XSum,
    ];
    pub fn name(self) -> &'static str {
        match self {
            ConstraintKind::Killer => "killer",
            ConstraintKind::AntiKnight => "anti-knight",
            ConstraintKind::AntiKing => "anti-king",
            ConstraintKind::DisjointGroups => "disjoint-groups",
            ConstraintKind::ExtraRegion => "extra-region",
            ConstraintKind::Odd => "odd",
            ConstraintKind::Even => "even",
            ConstraintKind::Thermo => "thermo",
            ConstraintKind::Arrow => "arrow",
            ConstraintKind::Whisper => "whisper",
            ConstraintKind::Renban => "renban",
            ConstraintKind::Palindrome => "palindrome",
            ConstraintKind::Kropki => "kropki",
            ConstraintKind::Xv => "xv",
            ConstraintKind::NonConsecutive => "nonconsecutive",
            ConstraintKind::Negative => "negative",
            ConstraintKind::LittleKiller => "little-killer",
            ConstraintKind::Sandwich => "sandwich",
            ConstraintKind::Candidates => "candidates",
            ConstraintKind::Quadruple => "quadruple",
            ConstraintKind::Minimum => "minimum",
            ConstraintKind::Maximum => "maximum",
            ConstraintKind::Indexer => "indexer",
            ConstraintKind::Between => "between-line",
            ConstraintKind::Lockout => "lockout",
            ConstraintKind::RegionSum => "region-sum",
            ConstraintKind::Entropic => "entropic",
            ConstraintKind::Modular => "modular",
            ConstraintKind::Zipper => "zipper",
            ConstraintKind::SlowThermo => "slow-thermo",
            ConstraintKind::Nabner => "nabner",
            ConstraintKind::DoubleArrow => "double-arrow",
            ConstraintKind::Clone => "clone",
            ConstraintKind::Skyscraper => "skyscraper",
            ConstraintKind::XSum => "x-sum",
        }
    }
}

crate::named::from_str_by_name!(ConstraintKind, "constraint kind");

impl Constraint {
    /// What kind of rule this is.
    pub fn kind(&self) -> ConstraintKind {
        match self {
            Constraint::Cage(_) => ConstraintKind::Killer,
            Constraint::AntiKnight => ConstraintKind::AntiKnight,
            Constraint::AntiKing => ConstraintKind::AntiKing,
            Constraint::DisjointGroups => ConstraintKind::DisjointGroups,
            Constraint::ExtraRegion(_) => ConstraintKind::ExtraRegion,
            Constraint::Odd(_) => ConstraintKind::Odd,
            Constraint::Even(_) => ConstraintKind::Even,
            Constraint::Thermo(_) => ConstraintKind::Thermo,
            Constraint::Arrow(_) => ConstraintKind::Arrow,
            Constraint::Whisper { .. } => ConstraintKind::Whisper,
            Constraint::Renban(_) => ConstraintKind::Renban,
            Constraint::Palindrome(_) => ConstraintKind::Palindrome,
            Constraint::Dot(d) => match d.rule.family() {
                DotFamily::Kropki => ConstraintKind::Kropki,
                DotFamily::Xv => ConstraintKind::Xv,
            },
            Constraint::Negative(DotRule::Difference(1)) => ConstraintKind::NonConsecutive,
            Constraint::Negative(_) => ConstraintKind::Negative,
            Constraint::LittleKiller(_) => ConstraintKind::LittleKiller,
            Constraint::Sandwich(_) => ConstraintKind::Sandwich,
            Constraint::Candidates { .. } => ConstraintKind::Candidates,
            Constraint::Quadruple { .. } => ConstraintKind::Quadruple,
            Constraint::Minimum(_) => ConstraintKind::Minimum,
            Constraint::Maximum(_) => ConstraintKind::Maximum,
            Constraint::Indexer { .. } => ConstraintKind::Indexer,
            Constraint::Between(_) => ConstraintKind::Between,
            Constraint::Lockout { .. } => ConstraintKind::Lockout,
            Constraint::RegionSum(_) => ConstraintKind::RegionSum,
            Constraint::Entropic(_) => ConstraintKind::Entropic,
            Constraint::Modular(_) => ConstraintKind::Modular,
            Constraint::Zipper(_) => ConstraintKind::Zipper,
            Constraint::SlowThermo(_) => ConstraintKind::SlowThermo,
            Constraint::Nabner(_) => ConstraintKind::Nabner,
            Constraint::DoubleArrow(_) => ConstraintKind::DoubleArrow,
            Constraint::Clone { .. } => ConstraintKind::Clone,
            Constraint::Skyscraper(_) => ConstraintKind::Skyscraper,
            Constraint::XSum(_) => ConstraintKind::XSum,
        }
    }

    /// The cells the rule speaks of (empty for the rules over the whole grid).
    pub fn cells(&self) -> Vec<u32> {
        match self {
            Constraint::Cage(c) => c.cells().to_vec(),
            Constraint::AntiKnight
            | Constraint::AntiKing
            | Constraint::DisjointGroups
            | Constraint::Negative(_)
            | Constraint::Sandwich(_)
            | Constraint::Skyscraper(_)
            | Constraint::XSum(_) => vec![],
            Constraint::ExtraRegion(cells)
            | Constraint::Thermo(cells)
            | Constraint::Whisper { cells, .. }
            | Constraint::Renban(cells)
            | Constraint::Palindrome(cells)
            | Constraint::Quadruple { cells, .. }
            | Constraint::Between(cells)
            | Constraint::Lockout { cells, .. }
            | Constraint::RegionSum(cells)
            | Constraint::Entropic(cells)
            | Constraint::Modular(cells)
            | Constraint::Zipper(cells)
            | Constraint::SlowThermo(cells)
            | Constraint::Nabner(cells)
            | Constraint::DoubleArrow(cells) => cells.clone(),
            Constraint::Clone { a, b } => a.iter().chain(b).copied().collect(),
            Constraint::Odd(c)
            | Constraint::Even(c)
            | Constraint::Minimum(c)
            | Constraint::Maximum(c)
            | Constraint::Candidates { cell: c, .. }
            | Constraint::Indexer { cell: c, .. } => vec![*c],
            Constraint::Arrow(a) => a.circle.iter().chain(&a.line).copied().collect(),
            Constraint::Dot(d) => vec![d.a, d.b],
            Constraint::LittleKiller(l) => l.cells.clone(),
        }
    }
}

/// The default gap of a German whisper on a grid of side `n`: `⌈n/2⌉` (5 on 9×9).
pub fn whisper_gap(n: usize) -> u32 {
    n.div_ceil(2) as u32
}

/// The number a pill (the circle of an arrow) reads as, its digits first cell first.
pub fn pill_value(digits: impl Iterator<Item = u32>) -> u32 {
    digits.fold(0, |v, d| v * 10 + d)
}

/// Knight's-move or king's-move neighbours of `cell` in a grid of side `n`.
pub fn chess_neighbours(cell: usize, n: usize, knight: bool) -> impl Iterator<Item = usize> {
    const KNIGHT: [(i64, i64); 8] = [
        (-2, -1),
        (-2, 1),
        (-1, -2),
        (-1, 2),
        (1, -2),
        (1, 2),
        (2, -1),
        (2, 1),
    ];
    const KING: [(i64, i64); 8] = [
        (-1, -1),
        (-1, 0),
        (-1, 1),
        (0, -1),
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
    ];
    let (r, c, n) = ((cell / n) as i64, (cell % n) as i64, n as i64);
    let moves = if knight { KNIGHT } else { KING };
    moves.into_iter().filter_map(move |(dr, dc)| {
        let (r2, c2) = (r + dr, c + dc);
        (0..n)
            .contains(&r2)
            .then_some(())
            .filter(|_| (0..n).contains(&c2))
            .map(|_| (r2 * n + c2) as usize)
    })
}

/// Orthogonal neighbour pairs `(a, b)`, `a < b`, of a grid of side `n`.
pub fn orthogonal_pairs(n: usize) -> impl Iterator<Item = (u32, u32)> {
    (0..n * n).flat_map(move |c| {
        let right = (c % n + 1 < n).then_some((c as u32, c as u32 + 1));
        let down = (c + n < n * n).then_some((c as u32, (c + n) as u32));
        right.into_iter().chain(down)
    })
}

/// The disjoint groups of a shape with boxes: for each position inside a box, its cells.
pub fn disjoint_groups(shape: &Shape) -> Option<Vec<Vec<u32>>> {
    let Regions::Boxes { rows, cols } = *shape.regions() else {
        return None;
    };
    let n = shape.size();
    let mut groups = vec![vec![]; n];
    for cell in 0..n * n {
        let (r, c) = (cell / n, cell % n);
        groups[(r % rows) * cols + c % cols].push(cell as u32);
    }
    Some(groups)
}

/// A sum, a ratio or a difference read as a whole number of any size, brought into the model's
/// `u32` without changing what the rule allows: no digits of any grid the model holds meet a
/// negative value or one past `u32::MAX` (the largest sum, of a 1024×1024 grid's line, is far
/// below), and neither do they meet `u32::MAX`, which such a value becomes.
pub fn exact_param(v: i64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// A whisper's gap ("differ by at least") read as a whole number of any size, brought into the
/// model's `u32` without changing what the rule allows: a negative gap asks nothing, as 0 does;
/// one past `u32::MAX` is out of reach, as `u32::MAX` is.
pub fn gap_param(v: i64) -> u32 {
    u32::try_from(v.max(0)).unwrap_or(u32::MAX)
}

/// `R{row}C{col}` of a cell of a grid of side `n`, 1-based.
fn name(c: u32, n: usize) -> String {
    format!("R{}C{}", c as usize / n + 1, c as usize % n + 1)
}

fn names(cells: &[u32], n: usize) -> String {
    let names: Vec<String> = cells.iter().map(|&c| name(c, n)).collect();
    names.join(" ")
}

/// A rule whose parameter no digits of the grid can meet (the puzzle has no solution), or whose
/// parameter asks nothing (a whisper gap of 0 or less).
/// Neither is an input error: the puzzle is held as written and every backend answers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleWarning {
    /// The rule's place in [`super::Puzzle::constraints`], from 0.
    pub position: usize,
    pub kind: ConstraintKind,
    /// Its number among the rules of its kind, from 1 (as [`super::ModelError::BadConstraint`]
    /// and [`super::ModelError::BadCage`] count).
    pub index: usize,
    /// Whether no grid meets the rule (else it asks nothing).
    pub unsatisfiable: bool,
    /// The rule (kind, cells, value) and why, in words.
    pub message: String,
}

/// Why no digits of a grid of side `n` meet `constraint`'s parameter, or why it asks nothing:
/// `(unsatisfiable, message)`, or `None` for a parameter in reach. Checked with wide arithmetic.
pub(super) fn out_of_reach(constraint: &Constraint, n: usize) -> Option<(bool, String)> {
    let n64 = n as i64;
    let unreachable = |what: String, reach: String| {
        Some((
            true,
            format!("{what} is out of reach ({reach}): the puzzle has no solution"),
        ))
    };
    match constraint {
        Constraint::Cage(cage) => {
            let k = cage.cells().len();
            let (lo, hi) = Cage::sum_range(k, n);
            (!(lo..=hi).contains(&cage.sum())).then_some(())?;
            unreachable(
                format!("cage sum {} on {}", cage.sum(), names(cage.cells(), n)),
                format!("{k} distinct digits 1..={n} add up to {lo} to {hi}"),
            )
        }
        Constraint::Whisper { cells, gap } => {
            let what = format!("whisper gap {gap} on {}", names(cells, n));
            match *gap as i64 {
                0 => Some((
                    false,
                    format!("{what} asks nothing: any two digits differ by 0 or more"),
                )),
                g if g >= n64 => {
                    unreachable(what, format!("digits 1..={n} differ by at most {}", n - 1))
                }
                _ => None,
            }
        }
        Constraint::Dot(d) => {
            let reach = dot_reach(d.rule, n)?;
            unreachable(
                format!("{} dot on {}", d.rule, names(&[d.a, d.b], n)),
                reach,
            )
        }
        // A negative rule of a dot no neighbours meet (the X of an XV negative on 4×4) asks
        // nothing, as it says: no warning.
        Constraint::LittleKiller(l) => {
            let k = l.cells.len() as i64;
            (!(k..=k * n64).contains(&(l.sum as i64))).then_some(())?;
            unreachable(
                format!("little killer sum {} on {}", l.sum, names(&l.cells, n)),
                format!("{k} digits 1..={n} add up to {k} to {}", k * n64),
            )
        }
        Constraint::Sandwich(s) => {
            let most = sandwich_most(n);
            (s.sum as i64 > most).then_some(())?;
            let line = match s.line {
                Line::Row(r) => format!("row {}", r + 1),
                Line::Col(c) => format!("column {}", c + 1),
            };
            unreachable(
                format!("sandwich sum {} on {line}", s.sum),
                format!("the digits between 1 and {n} add up to 0 to {most}"),
            )
        }
        Constraint::Candidates { cell, digits } => {
            digits
                .iter()
                .all(|d| !(1..=n as u32).contains(d))
                .then_some(())?;
            unreachable(
                format!("candidates {digits:?} of {}", name(*cell, n)),
                format!("the digits are 1..={n}"),
            )
        }
        Constraint::Quadruple { cells, digits } => {
            let what = format!("quadruple {digits:?} on {}", names(cells, n));
            if let Some(d) = digits.iter().find(|d| !(1..=n as u32).contains(d)) {
                unreachable(what, format!("{d} is not a digit 1..={n}"))
            } else if digits.len() > cells.len() {
                unreachable(
                    what,
                    format!("{} cells hold {} digits", cells.len(), cells.len()),
                )
            } else {
                None
            }
        }
        Constraint::Lockout { cells, gap } => {
            (*gap as i64 >= n64).then_some(())?;
            unreachable(
                format!("lockout gap {gap} on {}", names(cells, n)),
                format!("digits 1..={n} differ by at most {}", n - 1),
            )
        }
        Constraint::Nabner(cells) => {
            let most = n.div_ceil(2);
            (cells.len() > most).then_some(())?;
            unreachable(
                format!(
                    "Nabner line of {} cells on {}",
                    cells.len(),
                    names(cells, n)
                ),
                format!("at most {most} digits 1..={n} are neither equal nor consecutive"),
            )
        }
        Constraint::Skyscraper(clue) => {
            (!(1..=n64).contains(&(clue.value as i64))).then_some(())?;
            unreachable(
                format!("skyscraper clue {} on {}", clue.value, edge_name(clue)),
                format!("1 to {n} cells of a line are seen"),
            )
        }
        Constraint::XSum(clue) => {
            let most = n64 * (n64 + 1) / 2;
            (!(1..=most).contains(&(clue.value as i64))).then_some(())?;
            unreachable(
                format!("X-sum clue {} on {}", clue.value, edge_name(clue)),
                format!("an X-sum of digits 1..={n} is 1 to {most}"),
            )
        }
        _ => None,
    }
}

/// `row 3 from the right`, `column 1 from the top`, … (1-based).
fn edge_name(clue: &EdgeClue) -> String {
    match clue.line {
        Line::Row(r) => format!("row {} from the {}", r + 1, clue.side()),
        Line::Col(c) => format!("column {} from the {}", c + 1, clue.side()),
    }
}

/// The largest sum of the digits strictly between 1 and `n` (all of `2..n`).
fn sandwich_most(n: usize) -> i64 {
    let n = n as i64;
    (n * (n + 1) / 2 - n - 1).max(0)
}

/// What two orthogonal neighbours (distinct digits `1..=n`) can meet, when `rule` is not among it.
fn dot_reach(rule: DotRule, n: usize) -> Option<String> {
    let n64 = n as i64;
    let (k, lo, hi, what) = match rule {
        DotRule::Difference(k) => (k, 1, n64 - 1, "differences"),
        DotRule::Ratio(k) => (k, 2, n64, "ratios"),
        DotRule::Sum(k) => (k, 3, 2 * n64 - 1, "sums"),
    };
    (!(lo..=hi).contains(&(k as i64)))
        .then(|| format!("two neighbours' digits 1..={n} have {what} {lo} to {hi}"))
}

/// What is wrong with one rule's cells, lines or groups against a grid (found by
/// [`super::Puzzle::with_constraints`]); the model error ([`super::ModelError::BadConstraint`])
/// adds the rule's kind and number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("cell index {0} is outside the grid")]
    CellOutside(u32),
    /// A line index from 1.
    #[error("line {0} is outside the grid")]
    LineOutside(usize),
    #[error("the cell at {0} is on it twice")]
    Twice(CellAt),
    #[error("consecutive cells of a line must touch; {0} and {1} do not")]
    NotTouching(CellAt, CellAt),
    #[error("a line of {len} cells: it needs at least {min}")]
    ShortLine { len: usize, min: usize },
    /// `what`: "an extra region", "a renban line", "a thermometer".
    #[error("{what} of {len} cells: it holds 1 to {n} distinct digits")]
    GroupSize {
        what: &'static str,
        len: usize,
        n: usize,
    },
    #[error("a whisper line needs at least 2 cells")]
    ShortWhisper,
    #[error("a palindrome needs at least 2 cells")]
    ShortPalindrome,
    #[error("a quadruple of {0} cells: it sits on 1 to 4")]
    QuadrupleSize(usize),
    /// The cells, named as in [`super::Puzzle::rule_warnings`].
    #[error("a quadruple's cells must lie around one grid point; {0} do not")]
    QuadrupleSpread(String),
    #[error("a clone pairs two lists of cells of one length, not {0} and {1}")]
    CloneLengths(usize, usize),
    #[error("a circle of {0} cells: it holds 1 to 3")]
    CircleSize(usize),
    #[error("a pill of {0} cells is read as a decimal number, which needs side ≤ 9")]
    PillOnLargeGrid(usize),
    #[error("an arrow needs at least one cell on its line")]
    EmptyArrow,
    #[error("a dot joins orthogonal neighbours; {0} and {1} are not")]
    DotApart(CellAt, CellAt),
    #[error("a little killer needs at least one cell")]
    EmptyLittleKiller,
    #[error("a little killer's cells must run along one diagonal")]
    LittleKillerOffDiagonal,
    #[error("a little killer's diagonal must run from edge to edge")]
    LittleKillerShort,
    #[error("a sandwich needs a side of 2 or more (1 and the side apart)")]
    SandwichSide,
    #[error("{}; on {len} cells", entropic_side(.n))]
    EntropicSide { n: usize, len: usize },
    #[error("a box indexer needs box regions, not a jigsaw")]
    IndexerOnJigsaw,
    #[error("disjoint groups need box regions, not a jigsaw")]
    DisjointOnJigsaw,
}

/// Why an entropic line cannot be on a grid of side `n` (one not divisible by 3).
pub fn entropic_side(n: &usize) -> String {
    format!("an entropic line needs a side divisible by 3 (low, middle and high thirds), not {n}")
}

/// Checks one rule against a grid of `shape` (cells, lines, groups: what the rule is made of, not
/// its parameter, see [`out_of_reach`]).
pub(super) fn validate(constraint: &Constraint, shape: &Shape) -> Result<(), RuleError> {
    let n = shape.size();
    if let Some(&c) = constraint.cells().iter().find(|&&c| c as usize >= n * n) {
        return Err(RuleError::CellOutside(c));
    }
    match constraint {
        Constraint::Cage(_) => Ok(()), // checked with the other cages (no cell in two)
        Constraint::AntiKnight | Constraint::AntiKing => Ok(()),
        Constraint::Odd(_) | Constraint::Even(_) => Ok(()),
        Constraint::DisjointGroups => validate_disjoint_groups(shape),
        Constraint::ExtraRegion(cells) => validate_group("an extra region", cells, n),
        Constraint::Thermo(cells) => validate_thermo(cells, n),
        Constraint::Renban(cells) => validate_group("a renban line", cells, n),
        Constraint::Whisper { cells, .. } => validate_whisper(cells, n),
        Constraint::Palindrome(cells) => validate_palindrome(cells, n),
        Constraint::Arrow(a) => validate_arrow(a, n),
        Constraint::Dot(d) => validate_dot(d, n),
        Constraint::Negative(_) => Ok(()),
        Constraint::LittleKiller(l) => validate_little_killer(l, n),
        Constraint::Sandwich(s) => validate_sandwich(s, n),
        Constraint::Candidates { .. } | Constraint::Minimum(_) | Constraint::Maximum(_) => Ok(()),
        Constraint::Quadruple { cells, .. } => validate_quadruple(cells, n),
        Constraint::Indexer { cell, kind } => match indexed_house(shape, *cell, *kind) {
            Some(_) => Ok(()),
            None => Err(RuleError::IndexerOnJigsaw),
        },
        Constraint::Between(cells)
        | Constraint::Lockout { cells, .. }
        | Constraint::Zipper(cells)
        | Constraint::DoubleArrow(cells) => validate_line(cells, 2, n),
        Constraint::Entropic(cells) if !n.is_multiple_of(3) => Err(RuleError::EntropicSide {
            n,
            len: cells.len(),
        }),
        Constraint::RegionSum(cells)
        | Constraint::Entropic(cells)
        | Constraint::Modular(cells)
        | Constraint::SlowThermo(cells)
        | Constraint::Nabner(cells) => validate_line(cells, 1, n),
        Constraint::Clone { a, b } => validate_clone(a, b, n),
        Constraint::Skyscraper(clue) | Constraint::XSum(clue) => validate_line_index(clue.line, n),
    }
}

/// At least `min` distinct cells, consecutive ones touching.
fn validate_line(cells: &[u32], min: usize, n: usize) -> Result<(), RuleError> {
    if cells.len() < min {
        return Err(RuleError::ShortLine {
            len: cells.len(),
            min,
        });
    }
    distinct(cells, n)?;
    touching(cells, n)
}

/// 1 to 4 distinct cells around one grid point (inside one 2×2 block).
fn validate_quadruple(cells: &[u32], n: usize) -> Result<(), RuleError> {
    if cells.is_empty() || cells.len() > 4 {
        return Err(RuleError::QuadrupleSize(cells.len()));
    }
    distinct(cells, n)?;
    let (rows, cols): (Vec<usize>, Vec<usize>) = cells
        .iter()
        .map(|&c| (c as usize / n, c as usize % n))
        .unzip();
    let span = |v: &[usize]| v.iter().max().unwrap_or(&0) - v.iter().min().unwrap_or(&0);
    if span(&rows) > 1 || span(&cols) > 1 {
        return Err(RuleError::QuadrupleSpread(names(cells, n)));
    }
    Ok(())
}

fn validate_clone(a: &[u32], b: &[u32], n: usize) -> Result<(), RuleError> {
    if a.is_empty() || a.len() != b.len() {
        return Err(RuleError::CloneLengths(a.len(), b.len()));
    }
    distinct(a, n)?;
    distinct(b, n)
}

fn validate_line_index(line: Line, n: usize) -> Result<(), RuleError> {
    let i = match line {
        Line::Row(i) | Line::Col(i) => i as usize,
    };
    if i >= n {
        return Err(RuleError::LineOutside(i + 1));
    }
    Ok(())
}

fn distinct(cells: &[u32], n: usize) -> Result<(), RuleError> {
    let mut seen = std::collections::HashSet::new();
    match cells.iter().find(|&&c| !seen.insert(c)) {
        Some(&c) => Err(RuleError::Twice(CellAt::of(c, n))),
        None => Ok(()),
    }
}

/// Whether cells `a` and `b` touch (orthogonally, or also diagonally).
fn adjacent(a: u32, b: u32, n: usize, diagonal: bool) -> bool {
    let (ra, ca) = (a as usize / n, a as usize % n);
    let (rb, cb) = (b as usize / n, b as usize % n);
    let (dr, dc) = (ra.abs_diff(rb), ca.abs_diff(cb));
    dr.max(dc) == 1 && (diagonal || dr + dc == 1)
}

/// Consecutive cells of a line touch (diagonals included).
fn touching(cells: &[u32], n: usize) -> Result<(), RuleError> {
    match cells.windows(2).find(|w| !adjacent(w[0], w[1], n, true)) {
        Some(w) => Err(RuleError::NotTouching(
            CellAt::of(w[0], n),
            CellAt::of(w[1], n),
        )),
        None => Ok(()),
    }
}

fn validate_disjoint_groups(shape: &Shape) -> Result<(), RuleError> {
    match disjoint_groups(shape) {
        Some(_) => Ok(()),
        None => Err(RuleError::DisjointOnJigsaw),
    }
}

/// 1 to `n` distinct cells.
fn validate_group(what: &'static str, cells: &[u32], n: usize) -> Result<(), RuleError> {
    let len = cells.len();
    if len == 0 || len > n {
        return Err(RuleError::GroupSize { what, len, n });
    }
    distinct(cells, n)
}

fn validate_thermo(cells: &[u32], n: usize) -> Result<(), RuleError> {
    validate_group("a thermometer", cells, n)?;
    touching(cells, n)
}

fn validate_whisper(cells: &[u32], n: usize) -> Result<(), RuleError> {
    if cells.len() < 2 {
        return Err(RuleError::ShortWhisper);
    }
    distinct(cells, n)?;
    touching(cells, n)
}

fn validate_palindrome(cells: &[u32], n: usize) -> Result<(), RuleError> {
    if cells.len() < 2 {
        return Err(RuleError::ShortPalindrome);
    }
    distinct(cells, n)
}

fn validate_arrow(a: &Arrow, n: usize) -> Result<(), RuleError> {
    if a.circle.is_empty() || a.circle.len() > 3 {
        return Err(RuleError::CircleSize(a.circle.len()));
    }
    if a.circle.len() > 1 && n > 9 {
        return Err(RuleError::PillOnLargeGrid(a.circle.len()));
    }
    if a.line.is_empty() {
        return Err(RuleError::EmptyArrow);
    }
    let cells: Vec<u32> = a.circle.iter().chain(&a.line).copied().collect();
    distinct(&cells, n)
}

fn validate_dot(d: &Dot, n: usize) -> Result<(), RuleError> {
    if adjacent(d.a, d.b, n, false) {
        Ok(())
    } else {
        Err(RuleError::DotApart(CellAt::of(d.a, n), CellAt::of(d.b, n)))
    }
}

fn validate_little_killer(l: &LittleKiller, n: usize) -> Result<(), RuleError> {
    let Some(&first) = l.cells.first() else {
        return Err(RuleError::EmptyLittleKiller);
    };
    let n64 = n as i64;
    let steps: Vec<(i64, i64)> = l
        .cells
        .windows(2)
        .map(|w| {
            let (a, b) = (w[0] as i64, w[1] as i64);
            (b / n64 - a / n64, b % n64 - a % n64)
        })
        .collect();
    let step = steps.first().copied();
    if steps
        .iter()
        .any(|&s| Some(s) != step || s.0.abs() != 1 || s.1.abs() != 1)
    {
        return Err(RuleError::LittleKillerOffDiagonal);
    }
    let ends_at_edge = |c: u32, (dr, dc): (i64, i64)| {
        let (r, col) = (c as i64 / n64, c as i64 % n64);
        let (r2, c2) = (r + dr, col + dc);
        !(0..n64).contains(&r2) || !(0..n64).contains(&c2)
    };
    let last = *l.cells.last().unwrap_or(&first);
    let dir = step.unwrap_or((1, 1));
    if l.cells.len() > 1 && !(ends_at_edge(first, (-dir.0, -dir.1)) && ends_at_edge(last, dir)) {
        return Err(RuleError::LittleKillerShort);
    }
    Ok(())
}

fn validate_sandwich(s: &Sandwich, n: usize) -> Result<(), RuleError> {
    validate_line_index(s.line, n)?;
    if n < 2 {
        return Err(RuleError::SandwichSide);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_rules() {
        assert!(DotRule::Difference(1).holds(4, 5));
        assert!(!DotRule::Difference(1).holds(4, 6));
        assert!(DotRule::Ratio(2).holds(3, 6) && DotRule::Ratio(2).holds(6, 3));
        assert!(!DotRule::Ratio(2).holds(3, 5));
        assert!(DotRule::Sum(10).holds(3, 7) && !DotRule::Sum(5).holds(3, 3));
        assert_eq!(DotRule::Sum(10).to_string(), "X");
    }

    #[test]
    fn neighbours_and_groups() {
        let knight: Vec<usize> = chess_neighbours(0, 9, true).collect();
        assert_eq!(knight, vec![11, 19]);
        assert_eq!(chess_neighbours(40, 9, false).count(), 8);
        assert_eq!(orthogonal_pairs(9).count(), 2 * 9 * 8);
        let groups = disjoint_groups(&Shape::standard(9, false).unwrap()).unwrap();
        assert_eq!(groups[0], vec![0, 3, 6, 27, 30, 33, 54, 57, 60]);
        assert_eq!(whisper_gap(9), 5);
        assert_eq!(whisper_gap(6), 3);
        assert_eq!(pill_value([1, 2].into_iter()), 12);
    }

    #[test]
    fn little_killer_clues_sit_outside() {
        let lk = |cells: Vec<u32>| LittleKiller { cells, sum: 1 }.clue(9);
        // From above column 1, down and right: cells (0,1), (1,2), …
        assert_eq!(lk(vec![1, 11, 21]), ((-1, 0), (1, 1)));
        // From below, up and left.
        assert_eq!(lk(vec![79, 69]), ((9, 8), (-1, -1)));
        // One cell: the top-right corner, on the diagonal that leaves the grid after it.
        assert_eq!(lk(vec![8]), ((-1, 7), (1, 1)));
    }

    #[test]
    fn new_kinds_warn_only_past_reach() {
        let warns = |c: Constraint| out_of_reach(&c, 9).map(|(unsat, _)| unsat);
        let lockout = |gap| Constraint::Lockout {
            cells: vec![0, 1, 2],
            gap,
        };
        assert_eq!(warns(lockout(4)), None);
        assert_eq!(warns(lockout(8)), None);
        assert_eq!(warns(lockout(9)), Some(true));
        assert_eq!(warns(Constraint::Nabner(vec![0, 1, 2, 3, 4])), None);
        assert_eq!(
            warns(Constraint::Nabner(vec![0, 1, 2, 3, 4, 5])),
            Some(true)
        );
        let candidates = |digits| Constraint::Candidates { cell: 0, digits };
        assert_eq!(warns(candidates(vec![3, 10])), None);
        assert_eq!(warns(candidates(vec![10])), Some(true));
        let quad = |digits| Constraint::Quadruple {
            cells: vec![0, 1, 9, 10],
            digits,
        };
        assert_eq!(warns(quad(vec![1, 1, 2, 9])), None);
        assert_eq!(warns(quad(vec![1, 10])), Some(true));
        assert_eq!(warns(quad(vec![1, 2, 3, 4, 5])), Some(true));
        let clue = |value| EdgeClue {
            line: Line::Row(0),
            from_end: true,
            value,
        };
        assert_eq!(warns(Constraint::Skyscraper(clue(9))), None);
        assert_eq!(warns(Constraint::Skyscraper(clue(0))), Some(true));
        assert_eq!(warns(Constraint::Skyscraper(clue(10))), Some(true));
        assert_eq!(warns(Constraint::XSum(clue(45))), None);
        assert_eq!(warns(Constraint::XSum(clue(46))), Some(true));
    }

    #[test]
    fn kinds_have_names() {
        for k in ConstraintKind::ALL {
            assert_eq!(k.name().parse::<ConstraintKind>(), Ok(k));
        }
        assert_eq!(
            Constraint::Negative(DotRule::Difference(1)).kind(),
            ConstraintKind::NonConsecutive
        );
    }
}
