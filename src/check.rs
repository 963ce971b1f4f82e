//! The one independent checker: every grid a backend returns is verified here before it is
//! reported. It shares no code with any backend — only the model's houses and constraints
//! (Killer cages: distinct digits, and their sum; every variant rule, read straight from its
//! definition in [`crate::model::variant`], not through the lowering backends use).

use crate::model::{
    chess_neighbours, disjoint_groups, orthogonal_pairs, pill_value, Constraint, ConstraintKind,
    Grid, Line, Puzzle, Weights,
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
            let total: u32 = digits().map(u32::from).sum();
            if total == cage.sum() {
                continue;
            }
            format!("digits add up to {total}, the cage says {}", cage.sum())
        };
        return Err(CheckFailure::Cage {
            cage: i + 1,
            problem,
        });
    }
    let mut index = std::collections::HashMap::new();
    for c in puzzle.constraints() {
        let kind = c.kind();
        let i = index.entry(kind).or_insert(0usize);
        *i += 1;
        if kind == ConstraintKind::Killer {
            continue;
        }
        if let Some(problem) = broken(puzzle, c, cells) {
            return Err(CheckFailure::Rule {
                kind,
                index: *i,
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
    let n = puzzle.size();
    let d = |cell: u32| cells[cell as usize] as u32;
    let at = |cell: u32| {
        format!(
            "row {}, column {}",
            cell as usize / n + 1,
            cell as usize % n + 1
        )
    };
    let twice = |group: &[u32]| {
        repeated(group.iter().map(|&c| cells[c as usize]), n).map(|v| format!("digit {v} twice"))
    };
    match c {
        Constraint::Cage(_) => None,
        Constraint::AntiKnight | Constraint::AntiKing => {
            let knight = matches!(c, Constraint::AntiKnight);
            (0..n * n).find_map(|a| {
                chess_neighbours(a, n, knight)
                    .find(|&b| cells[a] == cells[b])
                    .map(|b| {
                        format!(
                            "{} and {} both hold {}",
                            at(a as u32),
                            at(b as u32),
                            cells[a]
                        )
                    })
            })
        }
        Constraint::DisjointGroups => disjoint_groups(puzzle.shape())
            .unwrap_or_default()
            .iter()
            .find_map(|g| twice(g)),
        Constraint::ExtraRegion(g) => twice(g),
        Constraint::Odd(cell) => (d(*cell) % 2 == 0).then(|| format!("{} is even", at(*cell))),
        Constraint::Even(cell) => (d(*cell) % 2 == 1).then(|| format!("{} is odd", at(*cell))),
        Constraint::Thermo(line) => line
            .windows(2)
            .find(|w| d(w[1]) <= d(w[0]))
            .map(|w| format!("{} does not rise above {}", at(w[1]), at(w[0]))),
        Constraint::Whisper { cells: line, gap } => line
            .windows(2)
            .find(|w| d(w[0]).abs_diff(d(w[1])) < *gap)
            .map(|w| format!("{} and {} differ by less than {gap}", at(w[0]), at(w[1]))),
        Constraint::Renban(line) => twice(line).or_else(|| {
            let (lo, hi) = line
                .iter()
                .fold((u32::MAX, 0), |(lo, hi), &c| (lo.min(d(c)), hi.max(d(c))));
            (hi - lo + 1 != line.len() as u32)
                .then(|| format!("digits {lo} to {hi} are not consecutive"))
        }),
        Constraint::Palindrome(line) => {
            let k = line.len();
            (0..k / 2)
                .find(|&i| d(line[i]) != d(line[k - 1 - i]))
                .map(|i| format!("{} and {} differ", at(line[i]), at(line[k - 1 - i])))
        }
        Constraint::Arrow(a) => {
            let circle = pill_value(a.circle.iter().map(|&c| d(c)));
            let total: u32 = a.line.iter().map(|&c| d(c)).sum();
            (total != circle)
                .then(|| format!("the arrow adds up to {total}, its circle reads {circle}"))
        }
        Constraint::Dot(dot) => (!dot.rule.holds(d(dot.a), d(dot.b))).then(|| {
            format!(
                "{} and {} hold {} and {}, not {}",
                at(dot.a),
                at(dot.b),
                d(dot.a),
                d(dot.b),
                dot.rule
            )
        }),
        Constraint::Negative(rule) => orthogonal_pairs(n).find_map(|(a, b)| {
            let marked = puzzle.constraints().iter().any(|c| match c {
                Constraint::Dot(dot) => {
                    dot.rule.family() == rule.family()
                        && ((dot.a, dot.b) == (a, b) || (dot.b, dot.a) == (a, b))
                }
                _ => false,
            });
            (!marked && rule.holds(d(a), d(b))).then(|| {
                format!(
                    "{} and {} meet {rule} with no dot between them",
                    at(a),
                    at(b)
                )
            })
        }),
        Constraint::LittleKiller(l) => {
            let total: u32 = l.cells.iter().map(|&c| d(c)).sum();
            (total != l.sum)
                .then(|| format!("the diagonal adds up to {total}, the clue says {}", l.sum))
        }
        Constraint::Sandwich(s) => {
            let line = s.line.cells(n);
            let pos = |v: u32| line.iter().position(|&c| d(c) == v);
            let (Some(one), Some(top)) = (pos(1), pos(n as u32)) else {
                return Some(format!("{} lacks 1 or {n}", line_name(s.line)));
            };
            let (lo, hi) = (one.min(top), one.max(top));
            let total: u32 = line[lo + 1..hi].iter().map(|&c| d(c)).sum();
            (total != s.sum).then(|| {
                format!(
                    "{}: the digits between 1 and {n} add up to {total}, the clue says {}",
                    line_name(s.line),
                    s.sum
                )
            })
        }
    }
}

fn line_name(line: Line) -> String {
    match line {
        Line::Row(r) => format!("row {}", r + 1),
        Line::Col(c) => format!("column {}", c + 1),
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
