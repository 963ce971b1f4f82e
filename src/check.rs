//! The one independent checker: every grid a backend returns is verified here before it is
//! reported. It shares no code with any backend, nor with the model's rule helpers or the
//! lowering backends use ([`crate::model::lower`]): it reads the model's data (houses, givens,
//! cages and the variant rules' cells and parameters) and states every rule in its own code,
//! from its definition in [`crate::model::variant`], so that a bug there cannot hide a wrong
//! answer. Digits meet parameters in `i128` arithmetic: any parameter the model holds (a ratio
//! of `u32::MAX`, a cage sum past every reach) is compared, never overflowed.

use crate::model::{
    Constraint, ConstraintKind, DotRule, EdgeClue, Grid, IndexKind, Line, Puzzle, Regions, Weights,
};

/// What is wrong with a grid a backend returned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckFailure {
    #[error("grid has side {found}, the puzzle has side {expected}")]
    WrongSize { expected: usize, found: usize },
    #[error("row {row}, column {col} holds {value}, outside 1..={n}")]
    BadValue {
        row: usize,
        col: usize,
        value: u16,
        n: usize,
    },
    #[error("row {row}, column {col} holds {found} but the given is {given}")]
    GivenChanged {
        row: usize,
        col: usize,
        given: u16,
        found: u16,
    },
    #[error("{house} holds {digit} twice")]
    Repeated { house: String, digit: u16 },
    #[error("cage {cage}: {problem}")]
    Cage { cage: usize, problem: String },
    #[error("{kind} constraint {index}: {problem}")]
    Rule {
        kind: ConstraintKind,
        index: usize,
        problem: String,
    },
    #[error("claimed score {claimed}, the grid scores {actual}")]
    WrongScore { claimed: i64, actual: i64 },
    #[error("claimed {claimed} solutions but {given} witness grids were returned")]
    Witnesses { claimed: u64, given: usize },
    #[error("the two witness grids of a multiple-solution answer are the same grid")]
    SameWitnesses,
    #[error("{0}")]
    Other(String),
}

/// Checks that `grid` solves `puzzle`: right size, every value in `1..=n`, every given kept, and
/// every house a permutation of `1..=n`, every cage's digits distinct and adding up to its sum.
pub fn verify(puzzle: &Puzzle, grid: &Grid) -> Result<(), CheckFailure> {
    let n = puzzle.size();
    if grid.size() != n {
        return Err(CheckFailure::WrongSize {
            expected: n,
            found: grid.size(),
        });
    }
    let cells = grid.cells();
    for (cell, (&v, &g)) in cells.iter().zip(puzzle.givens()).enumerate() {
        let (row, col) = (cell / n + 1, cell % n + 1);
        if v == 0 || v as usize > n {
            return Err(CheckFailure::BadValue {
                row,
                col,
                value: v,
                n,
            });
        }
        if g != 0 && g != v {
            return Err(CheckFailure::GivenChanged {
                row,
                col,
                given: g,
                found: v,
            });
        }
    }
    for (i, cage) in puzzle.cages().enumerate() {
        let digits = || cage.cells().iter().map(|&c| cells[c as usize]);
        let problem = if let Some(d) = repeated(digits(), n) {
            format!("digit {d} twice")
        } else {
            let total: i128 = digits().map(i128::from).sum();
            if total == i128::from(cage.sum()) {
                continue;
            }
            format!("digits add up to {total}, the cage says {}", cage.sum())
        };
        return Err(CheckFailure::Cage {
            cage: i + 1,
            problem,
        });
    }
    let constraints = puzzle.constraints();
    for (at, c) in constraints.iter().enumerate() {
        let kind = c.kind();
        if kind == ConstraintKind::Killer {
            continue;
        }
        if let Some(problem) = broken(puzzle, c, cells) {
            // Its number among the rules of its kind.
            let index = constraints[..=at]
                .iter()
                .filter(|d| d.kind() == kind)
                .count();
            return Err(CheckFailure::Rule {
                kind,
                index,
                problem,
            });
        }
    }
    let shape = puzzle.shape();
    if n < 64 {
        // Every value is in 1..=n (checked above): a house is a permutation exactly when its
        // values cover 1..=n. One branch-free pass; the slow one below names the repeated digit.
        let full = (u64::MAX >> (63 - n)) & !1;
        let covers = |house: &[u32]| house.iter().fold(0u64, |m, &c| m | 1 << cells[c as usize]);
        if shape.houses().all(|house| covers(house) == full) {
            return Ok(());
        }
    }
    for (h, house) in shape.houses().enumerate() {
        if let Some(digit) = repeated(house.iter().map(|&c| cells[c as usize]), n) {
            return Err(CheckFailure::Repeated {
                house: shape.house_name(h),
                digit,
            });
        }
    }
    Ok(())
}

/// What is wrong with `cells` (a full grid of `puzzle`) under one variant rule, if anything.
fn broken(puzzle: &Puzzle, c: &Constraint, cells: &[u16]) -> Option<String> {
    let g = Digits {
        n: puzzle.size(),
        cells,
    };
    match c {
        Constraint::Cage(_) => None,
        Constraint::AntiKnight => g.chess(&KNIGHT),
        Constraint::AntiKing => g.chess(&KING),
        Constraint::DisjointGroups => g.disjoint_groups(puzzle.shape().regions()),
        Constraint::ExtraRegion(group) => g.twice(group),
        Constraint::Odd(cell) => (g.d(*cell) % 2 == 0).then(|| format!("{} is even", g.at(*cell))),
        Constraint::Even(cell) => (g.d(*cell) % 2 == 1).then(|| format!("{} is odd", g.at(*cell))),
        Constraint::Thermo(line) => g.thermo(line),
        Constraint::Whisper { cells: line, gap } => g.whisper(line, *gap),
        Constraint::Renban(line) => g.renban(line),
        Constraint::Palindrome(line) => g.palindrome(line),
        Constraint::Arrow(a) => g.arrow(&a.circle, &a.line),
        Constraint::Dot(dot) => {
            let (x, y) = (g.d(dot.a), g.d(dot.b));
            (!meets(dot.rule, x, y)).then(|| {
                format!(
                    "{} and {} hold {x} and {y}, not {}",
                    g.at(dot.a),
                    g.at(dot.b),
                    dot.rule
                )
            })
        }
        Constraint::Negative(rule) => g.negative(*rule, puzzle.constraints()),
        Constraint::LittleKiller(l) => {
            let total = g.total(&l.cells);
            (total != i128::from(l.sum))
                .then(|| format!("the diagonal adds up to {total}, the clue says {}", l.sum))
        }
        Constraint::Sandwich(s) => g.sandwich(s.line, s.sum),
        Constraint::Candidates { cell, digits } => {
            (!digits.iter().any(|&d| i128::from(d) == g.d(*cell))).then(|| {
                format!(
                    "{} holds {}, not one of {digits:?}",
                    g.at(*cell),
                    g.d(*cell)
                )
            })
        }
        Constraint::Quadruple { cells, digits } => g.quadruple(cells, digits),
        Constraint::Minimum(cell) => g.fortress(*cell, true, puzzle.constraints()),
        Constraint::Maximum(cell) => g.fortress(*cell, false, puzzle.constraints()),
        Constraint::Indexer { cell, kind } => g.indexer(puzzle.shape().regions(), *cell, *kind),
        Constraint::Between(line) => g.between(line, true),
        Constraint::Lockout { cells: line, gap } => g.lockout(line, *gap),
        Constraint::RegionSum(line) => g.region_sum(puzzle, line),
        Constraint::Entropic(line) => g.triples(line, "thirds", &|d| (d - 1) * 3 / g.n as i128),
        Constraint::Modular(line) => g.triples(line, "residues mod 3", &|d| d % 3),
        Constraint::Zipper(line) => g.zipper(line),
        Constraint::SlowThermo(line) => line
            .windows(2)
            .find(|w| g.d(w[1]) < g.d(w[0]))
            .map(|w| format!("{} is below {}", g.at(w[1]), g.at(w[0]))),
        Constraint::Nabner(line) => g.nabner(line),
        Constraint::DoubleArrow(line) => {
            let k = line.len();
            let ends = g.d(line[0]) + g.d(line[k - 1]);
            let inner = g.total(&line[1..k - 1]);
            (inner != ends).then(|| format!("the line adds up to {inner}, its ends to {ends}"))
        }
        Constraint::Clone { a, b } => a
            .iter()
            .zip(b)
            .find(|&(&x, &y)| g.d(x) != g.d(y))
            .map(|(&x, &y)| format!("{} and {} differ", g.at(x), g.at(y))),
        Constraint::Skyscraper(clue) => g.skyscraper(clue),
        Constraint::XSum(clue) => g.x_sum(clue),
    }
}

/// Whether digits `x` and `y` meet a dot's rule, in wide arithmetic (a parameter may be any
/// `u32`).
fn meets(rule: DotRule, x: i128, y: i128) -> bool {
    match rule {
        DotRule::Difference(k) => (x - y).abs() == i128::from(k),
        DotRule::Ratio(k) => x == i128::from(k) * y || y == i128::from(k) * x,
        DotRule::Sum(k) => x + y == i128::from(k),
    }
}

/// Whether two dot rules belong to one family (Kropki: difference and ratio; XV: sums), whose
/// dots exempt their pair from the family's negative rules.
fn same_family(a: DotRule, b: DotRule) -> bool {
    let kropki = |r| matches!(r, DotRule::Difference(_) | DotRule::Ratio(_));
    kropki(a) == kropki(b)
}

const KNIGHT: [(i64, i64); 4] = [(1, -2), (1, 2), (2, -1), (2, 1)];
const KING: [(i64, i64); 4] = [(0, 1), (1, -1), (1, 0), (1, 1)];

/// A full grid of side `n`, read for the rules.
struct Digits<'a> {
    n: usize,
    cells: &'a [u16],
}

impl Digits<'_> {
    fn d(&self, cell: u32) -> i128 {
        i128::from(self.cells[cell as usize])
    }
    fn at(&self, cell: u32) -> String {
        let n = self.n;
        format!(
            "row {}, column {}",
            cell as usize / n + 1,
            cell as usize % n + 1
        )
    }
    fn total(&self, group: &[u32]) -> i128 {
        group.iter().map(|&c| self.d(c)).sum()
    }
    fn twice(&self, group: &[u32]) -> Option<String> {
        repeated(group.iter().map(|&c| self.cells[c as usize]), self.n)
            .map(|v| format!("digit {v} twice"))
    }
    /// Cells one of `moves` apart (each move also taken mirrored) holding the same digit.
    fn chess(&self, moves: &[(i64, i64)]) -> Option<String> {
        let n = self.n as i64;
        (0..n * n).find_map(|a| {
            let (r, c) = (a / n, a % n);
            moves.iter().find_map(|&(dr, dc)| {
                let (r2, c2) = (r + dr, c + dc);
                let inside = (0..n).contains(&r2) && (0..n).contains(&c2);
                let (a, b) = (a as u32, (r2 * n + c2) as u32);
                (inside && self.d(a) == self.d(b))
                    .then(|| format!("{} and {} both hold {}", self.at(a), self.at(b), self.d(a)))
            })
        })
    }
    fn disjoint_groups(&self, regions: &Regions) -> Option<String> {
        let &Regions::Boxes { rows, cols } = regions else {
            return Some("disjoint groups on a grid without boxes".into());
        };
        let n = self.n;
        (0..rows * cols).find_map(|position| {
            let group: Vec<u32> = (0..n * n)
                .filter(|&c| (c / n % rows) * cols + c % n % cols == position)
                .map(|c| c as u32)
                .collect();
            self.twice(&group)
        })
    }
    fn thermo(&self, line: &[u32]) -> Option<String> {
        line.windows(2)
            .find(|w| self.d(w[1]) <= self.d(w[0]))
            .map(|w| format!("{} does not rise above {}", self.at(w[1]), self.at(w[0])))
    }
    fn whisper(&self, line: &[u32], gap: u32) -> Option<String> {
        line.windows(2)
            .find(|w| (self.d(w[0]) - self.d(w[1])).abs() < i128::from(gap))
            .map(|w| {
                format!(
                    "{} and {} differ by less than {gap}",
                    self.at(w[0]),
                    self.at(w[1])
                )
            })
    }
    fn renban(&self, line: &[u32]) -> Option<String> {
        self.twice(line).or_else(|| {
            let lo = line.iter().map(|&c| self.d(c)).min()?;
            let hi = line.iter().map(|&c| self.d(c)).max()?;
            (hi - lo + 1 != line.len() as i128)
                .then(|| format!("digits {lo} to {hi} are not consecutive"))
        })
    }
    fn palindrome(&self, line: &[u32]) -> Option<String> {
        let k = line.len();
        (0..k / 2)
            .find(|&i| self.d(line[i]) != self.d(line[k - 1 - i]))
            .map(|i| {
                format!(
                    "{} and {} differ",
                    self.at(line[i]),
                    self.at(line[k - 1 - i])
                )
            })
    }
    /// The circle reads as a decimal number, first cell first.
    fn arrow(&self, circle: &[u32], line: &[u32]) -> Option<String> {
        let reads = circle.iter().fold(0i128, |v, &c| v * 10 + self.d(c));
        let total = self.total(line);
        (total != reads).then(|| format!("the arrow adds up to {total}, its circle reads {reads}"))
    }
    /// Orthogonal neighbours with no dot of `rule`'s family between them do not meet it.
    fn negative(&self, rule: DotRule, rules: &[Constraint]) -> Option<String> {
        let n = self.n as u32;
        let dotted: std::collections::HashSet<(u32, u32)> = rules
            .iter()
            .filter_map(|c| match c {
                Constraint::Dot(d) if same_family(d.rule, rule) => {
                    Some((d.a.min(d.b), d.a.max(d.b)))
                }
                _ => None,
            })
            .collect();
        let pairs = (0..n * n).flat_map(|a| {
            let right = (a % n + 1 < n).then_some((a, a + 1));
            let down = (a + n < n * n).then_some((a, a + n));
            right.into_iter().chain(down)
        });
        pairs
            .filter(|p| !dotted.contains(p))
            .find(|&(a, b)| meets(rule, self.d(a), self.d(b)))
            .map(|(a, b)| {
                format!(
                    "{} and {} meet {rule} with no dot between them",
                    self.at(a),
                    self.at(b)
                )
            })
    }
    /// A row's or column's name and cells, in order.
    fn line(&self, line: Line) -> (String, Vec<u32>) {
        let n = self.n as u32;
        match line {
            Line::Row(r) => (
                format!("row {}", r + 1),
                (0..n).map(|c| r * n + c).collect(),
            ),
            Line::Col(c) => (
                format!("column {}", c + 1),
                (0..n).map(|r| r * n + c).collect(),
            ),
        }
    }
    /// An edge clue's line, named, and its digits from the clue inwards.
    fn edge(&self, clue: &EdgeClue) -> (String, Vec<i128>) {
        let (name, mut cells) = self.line(clue.line);
        if clue.from_end {
            cells.reverse();
        }
        let side = match (clue.line, clue.from_end) {
            (Line::Row(_), false) => "left",
            (Line::Row(_), true) => "right",
            (Line::Col(_), false) => "top",
            (Line::Col(_), true) => "bottom",
        };
        let digits = cells.iter().map(|&c| self.d(c)).collect();
        (format!("{name} from the {side}"), digits)
    }
    /// The digits strictly between the line's 1 and its `n` add up to `sum`.
    fn sandwich(&self, line: Line, sum: u32) -> Option<String> {
        let n = self.n as u32;
        let (name, cells) = self.line(line);
        let pos = |v: i128| cells.iter().position(|&c| self.d(c) == v);
        let (Some(one), Some(top)) = (pos(1), pos(i128::from(n))) else {
            return Some(format!("{name} lacks 1 or {n}"));
        };
        let (lo, hi) = (one.min(top), one.max(top));
        let total = self.total(cells.get(lo + 1..hi).unwrap_or_default());
        (total != i128::from(sum)).then(|| {
            format!("{name}: the digits between 1 and {n} add up to {total}, the clue says {sum}")
        })
    }
}

impl Digits<'_> {
    /// Each listed digit appears among `cells` at least as often as it is listed.
    fn quadruple(&self, cells: &[u32], digits: &[u32]) -> Option<String> {
        digits.iter().find_map(|&d| {
            let wanted = digits.iter().filter(|&&e| e == d).count();
            let held = cells
                .iter()
                .filter(|&&c| self.d(c) == i128::from(d))
                .count();
            (held < wanted).then(|| format!("{d} appears {held} times, {wanted} wanted"))
        })
    }
    /// The cell is smaller (`min`) or larger than each orthogonal neighbour that is not a cell of
    /// the same kind.
    fn fortress(&self, cell: u32, min: bool, rules: &[Constraint]) -> Option<String> {
        let same_kind = |o: u32| {
            rules.iter().any(|k| match k {
                Constraint::Minimum(x) => min && *x == o,
                Constraint::Maximum(x) => !min && *x == o,
                _ => false,
            })
        };
        let n = self.n as i64;
        let (r, c) = (cell as i64 / n, cell as i64 % n);
        [(-1, 0), (1, 0), (0, -1), (0, 1)]
            .into_iter()
            .map(|(dr, dc)| (r + dr, c + dc))
            .filter(|&(r2, c2)| (0..n).contains(&r2) && (0..n).contains(&c2))
            .map(|(r2, c2)| (r2 * n + c2) as u32)
            .filter(|&o| !same_kind(o))
            .find(|&o| {
                let (x, y) = (self.d(cell), self.d(o));
                if min {
                    x >= y
                } else {
                    x <= y
                }
            })
            .map(|o| {
                let what = if min { "smaller" } else { "larger" };
                format!("{} is not {what} than {}", self.at(cell), self.at(o))
            })
    }
    /// The digit at position `p` (from 1) of the indexed house stands at the position the
    /// indexer's digit names.
    fn indexer(&self, regions: &Regions, cell: u32, kind: IndexKind) -> Option<String> {
        let n = self.n as u32;
        let (r, c) = (cell / n, cell % n);
        let house: Vec<u32> = match kind {
            IndexKind::Row => (0..n).map(|i| i * n + c).collect(),
            IndexKind::Column => (0..n).map(|j| r * n + j).collect(),
            IndexKind::Box => {
                let &Regions::Boxes { rows, cols } = regions else {
                    return Some("a box indexer on a grid without boxes".into());
                };
                let (rows, cols) = (rows as u32, cols as u32);
                let (r0, c0) = (r / rows * rows, c / cols * cols);
                (0..rows)
                    .flat_map(|i| (0..cols).map(move |j| (r0 + i) * n + c0 + j))
                    .collect()
            }
        };
        let p = house.iter().position(|&x| x == cell)? as i128 + 1;
        let v = self.d(cell);
        let target = house[(v - 1) as usize];
        (self.d(target) != p).then(|| {
            format!(
                "{} holds {v}, but {} holds {}, not {p}",
                self.at(cell),
                self.at(target),
                self.d(target)
            )
        })
    }
    /// The inner cells lie strictly between the ends' digits (`inside`) or outside their closed
    /// interval.
    fn between(&self, line: &[u32], inside: bool) -> Option<String> {
        let k = line.len();
        let (x, y) = (self.d(line[0]), self.d(line[k - 1]));
        let (lo, hi) = (x.min(y), x.max(y));
        line[1..k - 1]
            .iter()
            .find(|&&c| {
                let d = self.d(c);
                if inside {
                    d <= lo || d >= hi
                } else {
                    lo <= d && d <= hi
                }
            })
            .map(|&c| {
                let place = if inside { "not between" } else { "between" };
                format!("{} holds {}, {place} {lo} and {hi}", self.at(c), self.d(c))
            })
    }
    fn lockout(&self, line: &[u32], gap: u32) -> Option<String> {
        let (x, y) = (self.d(line[0]), self.d(line[line.len() - 1]));
        if (x - y).abs() < i128::from(gap) {
            return Some(format!("the ends {x} and {y} differ by less than {gap}"));
        }
        self.between(line, false)
    }
    /// The segments between region borders add up to one sum.
    fn region_sum(&self, puzzle: &Puzzle, line: &[u32]) -> Option<String> {
        let shape = puzzle.shape();
        let mut sums: Vec<i128> = vec![];
        for (i, &c) in line.iter().enumerate() {
            let same =
                i > 0 && shape.region_of(c as usize) == shape.region_of(line[i - 1] as usize);
            match sums.last_mut() {
                Some(s) if same => *s += self.d(c),
                _ => sums.push(self.d(c)),
            }
        }
        sums.iter()
            .any(|&s| s != sums[0])
            .then(|| format!("the segments add up to {sums:?}"))
    }
    /// Any three consecutive cells fall in three different classes.
    fn triples(&self, line: &[u32], what: &str, class: &dyn Fn(i128) -> i128) -> Option<String> {
        let w = line.len().min(3);
        line.windows(w)
            .find(|w| {
                let k: Vec<i128> = w.iter().map(|&c| class(self.d(c))).collect();
                (0..k.len()).any(|i| k[i + 1..].contains(&k[i]))
            })
            .map(|w| format!("{} and its neighbours share {what}", self.at(w[0])))
    }
    /// Cells at one distance from the middle add up to one sum, the middle's digit when the
    /// line has one.
    fn zipper(&self, line: &[u32]) -> Option<String> {
        let k = line.len();
        let sums: Vec<i128> = (0..k / 2)
            .map(|i| self.d(line[i]) + self.d(line[k - 1 - i]))
            .collect();
        let target = if k % 2 == 1 {
            self.d(line[k / 2])
        } else {
            sums[0]
        };
        sums.iter()
            .any(|&s| s != target)
            .then(|| format!("the pairs add up to {sums:?}, not all {target}"))
    }
    /// No two digits on the line equal or consecutive.
    fn nabner(&self, line: &[u32]) -> Option<String> {
        line.iter().enumerate().find_map(|(i, &a)| {
            line[i + 1..]
                .iter()
                .find(|&&b| (self.d(a) - self.d(b)).abs() < 2)
                .map(|&b| format!("{} and {} are equal or consecutive", self.at(a), self.at(b)))
        })
    }
    fn skyscraper(&self, clue: &EdgeClue) -> Option<String> {
        let (name, digits) = self.edge(clue);
        let mut top = 0;
        let seen = digits.iter().filter(|&&d| {
            let seen = d > top;
            top = top.max(d);
            seen
        });
        let seen = seen.count() as i128;
        (seen != i128::from(clue.value)).then(|| {
            format!(
                "{name}: {seen} cells are seen, the clue says {}",
                clue.value
            )
        })
    }
    fn x_sum(&self, clue: &EdgeClue) -> Option<String> {
        let (name, digits) = self.edge(clue);
        let x = digits[0] as usize;
        let total: i128 = digits.iter().take(x).sum();
        (total != i128::from(clue.value)).then(|| {
            format!(
                "{name}: the first {x} digits add up to {total}, the clue says {}",
                clue.value
            )
        })
    }
}

/// A value that occurs twice among `values` (each in `1..=n`).
fn repeated(values: impl Iterator<Item = u16>, n: usize) -> Option<u16> {
    if n < 128 {
        let mut seen = 0u128;
        for v in values {
            let bit = 1u128 << v;
            if seen & bit != 0 {
                return Some(v);
            }
            seen |= bit;
        }
        None
    } else {
        let mut sorted: Vec<u16> = values.collect();
        sorted.sort_unstable();
        sorted.windows(2).find(|w| w[0] == w[1]).map(|w| w[0])
    }
}

/// Checks a solution and that it reaches the claimed score under `weights`.
pub fn verify_score(
    puzzle: &Puzzle,
    weights: &Weights,
    grid: &Grid,
    claimed: i64,
) -> Result<(), CheckFailure> {
    verify(puzzle, grid)?;
    let actual = weights.score(grid);
    if actual != claimed {
        return Err(CheckFailure::WrongScore { claimed, actual });
    }
    Ok(())
}

/// Checks the witnesses of a count: `min(count, 2)` distinct valid grids.
pub fn verify_witnesses(
    puzzle: &Puzzle,
    count: u64,
    witnesses: &[Grid],
) -> Result<(), CheckFailure> {
    let need = count.min(2) as usize;
    if witnesses.len() != need {
        return Err(CheckFailure::Witnesses {
            claimed: count,
            given: witnesses.len(),
        });
    }
    for w in witnesses {
        verify(puzzle, w)?;
    }
    if need == 2 && witnesses[0] == witnesses[1] {
        return Err(CheckFailure::SameWitnesses);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Shape, Value};
    use std::sync::Arc;

    const SOLVED: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn grid(s: &str) -> Grid {
        Grid::new(9, s.bytes().map(|b| (b - b'0') as Value).collect())
    }

    fn puzzle(s: &str) -> Puzzle {
        let shape = Arc::new(Shape::standard(9, false).unwrap());
        let g = s
            .bytes()
            .map(|b| if b == b'.' { 0 } else { (b - b'0') as Value })
            .collect();
        Puzzle::new(shape, g).unwrap()
    }

    #[test]
    fn accepts_a_solution() {
        let p = puzzle(&".".repeat(81));
        verify(&p, &grid(SOLVED)).unwrap();
        let w = Weights::pyramid(9);
        let s = w.score(&grid(SOLVED));
        verify_score(&p, &w, &grid(SOLVED), s).unwrap();
        assert!(matches!(
            verify_score(&p, &w, &grid(SOLVED), s + 1),
            Err(CheckFailure::WrongScore { .. })
        ));
    }

    #[test]
    fn a_broken_rule_is_named_by_its_number_among_its_kind() {
        // Cells 0, 1, 2 of SOLVED hold 5, 3, 4: the third odd-cell rule is broken.
        let rules = [
            Constraint::Odd(0),
            Constraint::Even(2),
            Constraint::Odd(1),
            Constraint::Odd(2),
        ];
        let p = puzzle(&".".repeat(81))
            .with_constraints(rules.to_vec())
            .unwrap();
        match verify(&p, &grid(SOLVED)) {
            Err(CheckFailure::Rule { kind, index, .. }) => {
                assert_eq!((kind, index), (ConstraintKind::Odd, 3));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn rejects_repeats_and_changed_givens() {
        let p = puzzle(&".".repeat(81));
        let mut bad = SOLVED.as_bytes().to_vec();
        bad.swap(0, 1); // row still a permutation, columns are not
        let bad = String::from_utf8(bad).unwrap();
        assert!(matches!(
            verify(&p, &grid(&bad)),
            Err(CheckFailure::Repeated { .. })
        ));
        let mut givens = ".".repeat(81);
        givens.replace_range(0..1, "1");
        assert_eq!(
            verify(&puzzle(&givens), &grid(SOLVED)),
            Err(CheckFailure::GivenChanged {
                row: 1,
                col: 1,
                given: 1,
                found: 5
            })
        );
        let zero = SOLVED.replacen('5', "0", 1);
        assert!(matches!(
            verify(&p, &grid(&zero)),
            Err(CheckFailure::BadValue { .. })
        ));
    }

    #[test]
    fn diagonals_are_checked() {
        let shape = Arc::new(Shape::standard(9, true).unwrap());
        let p = Puzzle::new(shape, vec![0; 81]).unwrap();
        // SOLVED is not an X-Sudoku: its main diagonal repeats a digit.
        assert!(
            matches!(verify(&p, &grid(SOLVED)), Err(CheckFailure::Repeated { house, .. }) if house.starts_with("diagonal"))
        );
    }

    /// A solved 4×4 grid, rows `1234 3412 2143 4321`, cells numbered row-major from 0.
    const FOUR: &str = "1234341221434321";
    /// A solved 4×4 grid with no digit a knight's move from itself.
    const KNIGHTLESS: &str = "1234432134122143";

    /// Whether the checker accepts [`FOUR`] under `rules`.
    fn accepts(rules: Vec<Constraint>) -> bool {
        accepts_on(FOUR, rules)
    }

    /// Whether the checker accepts the solved 4×4 grid `digits` under `rules`.
    fn accepts_on(digits: &str, rules: Vec<Constraint>) -> bool {
        let shape = Arc::new(Shape::standard(4, false).unwrap());
        let g = Grid::new(4, digits.bytes().map(|b| (b - b'0') as Value).collect());
        let p = Puzzle::new(shape, vec![0; 16])
            .unwrap()
            .with_constraints(rules)
            .unwrap();
        match verify(&p, &g) {
            Ok(()) => true,
            Err(CheckFailure::Rule { .. } | CheckFailure::Cage { .. }) => false,
            Err(e) => panic!("not a rule failure: {e}"),
        }
    }

    #[test]
    fn every_kind_is_checked_on_its_own_terms() {
        use crate::model::{Arrow, Cage, Dot, LittleKiller, Sandwich};
        let dot = |a, b, rule| Constraint::Dot(Dot { a, b, rule });
        // Each rule and a twin the grid breaks.
        let cases: Vec<(Constraint, Constraint)> = vec![
            (
                Constraint::Cage(Cage::new(vec![0, 1], 3)),
                Constraint::Cage(Cage::new(vec![0, 1], 4)),
            ),
            (
                Constraint::ExtraRegion(vec![0, 1, 4, 5]),
                Constraint::ExtraRegion(vec![0, 6]),
            ),
            (Constraint::Odd(0), Constraint::Odd(1)),
            (Constraint::Even(1), Constraint::Even(0)),
            (
                Constraint::Thermo(vec![0, 1, 2]),
                Constraint::Thermo(vec![2, 1]),
            ),
            (
                Constraint::Whisper {
                    cells: vec![0, 5],
                    gap: 3,
                },
                Constraint::Whisper {
                    cells: vec![0, 1],
                    gap: 2,
                },
            ),
            (
                Constraint::Renban(vec![0, 1, 2]),
                Constraint::Renban(vec![0, 5]),
            ),
            (
                Constraint::Palindrome(vec![2, 6, 11]),
                Constraint::Palindrome(vec![0, 1]),
            ),
            (
                Constraint::Arrow(Arrow {
                    circle: vec![3],
                    line: vec![2, 0],
                }),
                Constraint::Arrow(Arrow {
                    circle: vec![0, 1],
                    line: vec![2],
                }),
            ),
            (
                dot(0, 1, DotRule::Difference(1)),
                dot(0, 1, DotRule::Difference(2)),
            ),
            (dot(1, 5, DotRule::Ratio(2)), dot(0, 1, DotRule::Ratio(3))),
            (dot(0, 4, DotRule::Sum(4)), dot(0, 4, DotRule::Sum(5))),
            (
                Constraint::LittleKiller(LittleKiller {
                    cells: vec![1, 6, 11],
                    sum: 2 + 1 + 3,
                }),
                Constraint::LittleKiller(LittleKiller {
                    cells: vec![1, 6, 11],
                    sum: 7,
                }),
            ),
            (
                Constraint::Sandwich(Sandwich {
                    line: Line::Row(0),
                    sum: 5,
                }),
                Constraint::Sandwich(Sandwich {
                    line: Line::Col(0),
                    sum: 4,
                }),
            ),
        ];
        for (good, bad) in cases {
            assert!(accepts(vec![good.clone()]), "{good:?} is met");
            assert!(!accepts(vec![bad.clone()]), "{bad:?} is broken");
        }
        // R1C1 1 and R2C3 1 are a knight's move apart, R2C2 4 and R3C3 4 a king's.
        assert!(!accepts(vec![Constraint::AntiKnight]));
        assert!(!accepts(vec![Constraint::AntiKing]));
        assert!(accepts_on(KNIGHTLESS, vec![Constraint::AntiKnight]));
        // The first cells of the boxes hold 1 3 2 4 in FOUR, 1 3 3 1 in KNIGHTLESS.
        assert!(accepts(vec![Constraint::DisjointGroups]));
        assert!(!accepts_on(KNIGHTLESS, vec![Constraint::DisjointGroups]));
    }

    #[test]
    fn negative_rules_spare_dotted_pairs_only() {
        let nonconsecutive = Constraint::Negative(DotRule::Difference(1));
        assert!(!accepts(vec![nonconsecutive.clone()])); // 1 2 in row 1
        let dotted: Vec<Constraint> = [(0, 1), (1, 2), (2, 3), (4, 5), (5, 6), (6, 7)]
            .into_iter()
            .map(|(a, b)| {
                Constraint::Dot(crate::model::Dot {
                    a,
                    b,
                    rule: DotRule::Difference(1),
                })
            })
            .collect();
        // Row 3 (2 1 4 3) still holds 2 1 undotted.
        let mut rules = dotted.clone();
        rules.push(nonconsecutive);
        assert!(!accepts(rules));
        // An X dot does not spare a pair from the Kropki negative, nor the reverse.
        let mut xv = vec![Constraint::Negative(DotRule::Sum(5))];
        xv.extend(dotted);
        assert!(!accepts(xv)); // R1C2 2 + R1C3 3 under a Kropki dot, not an XV one
    }

    #[test]
    fn overflow_sized_parameters_are_never_met() {
        use crate::model::{Cage, Dot, LittleKiller, Sandwich};
        let dot = |rule| Constraint::Dot(Dot { a: 1, b: 5, rule }); // digits 2 and 4
                                                                    // 2147483650 × 2 wraps to 4 in u32 arithmetic.
        for k in [2_147_483_650, u32::MAX, 2_147_483_649] {
            assert!(!accepts(vec![dot(DotRule::Ratio(k))]), "ratio {k}");
            assert!(!accepts(vec![dot(DotRule::Sum(k))]), "sum {k}");
            assert!(
                !accepts(vec![dot(DotRule::Difference(k))]),
                "difference {k}"
            );
            assert!(!accepts(vec![Constraint::Cage(Cage::new(vec![0, 1], k))]));
            let lk = LittleKiller {
                cells: vec![3],
                sum: k,
            };
            assert!(!accepts(vec![Constraint::LittleKiller(lk)]));
            let s = Sandwich {
                line: Line::Row(0),
                sum: k,
            };
            assert!(!accepts(vec![Constraint::Sandwich(s)]));
            let w = Constraint::Whisper {
                cells: vec![0, 5],
                gap: k,
            };
            assert!(!accepts(vec![w]));
            // A negative rule nobody meets asks nothing.
            assert!(accepts(vec![Constraint::Negative(DotRule::Ratio(k))]));
        }
    }

    #[test]
    fn witnesses() {
        let p = puzzle(&".".repeat(81));
        let g = grid(SOLVED);
        verify_witnesses(&p, 1, std::slice::from_ref(&g)).unwrap();
        assert_eq!(
            verify_witnesses(&p, 5, &[g.clone(), g.clone()]),
            Err(CheckFailure::SameWitnesses)
        );
        assert!(verify_witnesses(&p, 3, std::slice::from_ref(&g)).is_err());
        verify_witnesses(&p, 0, &[]).unwrap();
    }
}
