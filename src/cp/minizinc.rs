//! The CP model of [`super::model`] written as a self-contained MiniZinc model, and the reader
//! of what `minizinc` prints for it. `sudoku-lab encode --to mzn` and the `minizinc` backend
//! both write through [`write()`], from the same [`CpModel`] the `cp` backend solves, variant
//! rules included.
//!
//! The model (every index 1-based):
//!
//! * `array[1..n, 1..n] of var 1..n: x`: `x[r, c]` is the digit in row `r`, column `c`;
//! * `given`: the givens as an `n × n` table (`0` for an open cell), and one constraint fixing
//!   them;
//! * one `constraint` per house (`all_different` over its cells) and per Killer cage
//!   (`all_different` and the sum), each under a comment naming it (`% row 1`, `% box 2`,
//!   `% region 4`, `% diagonal 1`, `% cage 4: sum 17, 3 cells`);
//! * the variant rules, each kind under a comment (`write_rules`): extra houses, distinct
//!   groups and chess neighbours as `all_different`, pairs and sums over a few open cells as
//!   `table`s of the digits they allow, larger sums linear, parity by `mod 2`, a sandwich
//!   through the positions of its 1 and its `n`; candidates as a set (`x[r, c] in {1, 3}`), a
//!   quadruple's digits counted (`sum([bool2int(x[..] = d), …]) >= k`), between and lockout
//!   lines through `min` and `max` of their ends, skyscrapers and X-sums as sums over the line
//!   (`forall` the cells before each; positions up to the first cell's digit);
//! * with an objective, the table `weight`, `var int: score = Σ weight × digit` and
//!   `solve maximize score`; otherwise `solve satisfy`;
//! * an `output` item printing, per solution, `score: S` (when maximising) and one line
//!   `row R: d1 d2 … dn` per row; MiniZinc ends each solution with `----------`.
//!
//! Only `alldifferent.mzn` (and `table.mzn` when there are tables) is included, not all of
//! `globals.mzn`: the Gecode library that Debian ships with MiniZinc 2.6 (package `flatzinc`)
//! redefines other globals in a way that `globals.mzn` of that MiniZinc no longer type-checks.
//! The root domains of [`super::model::Root`] are not written: the solver derives them.
//!
//! [`parse_output`] reads MiniZinc's output (its solution separators and status lines) strictly:
//! anything it does not recognise is an error, never an answer.

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::model::{AllDifferent, CpModel, ExtraRules, LinearSum, Origin};
use crate::model::{Puzzle, Shape, Value};

/// Writes the MiniZinc model of `puzzle`: `solve maximize` with its weights when it has some,
/// `solve satisfy` otherwise.
pub fn write_puzzle(puzzle: &Puzzle, w: &mut impl Write) -> io::Result<()> {
    write(&CpModel::of(puzzle), puzzle.shape(), w)
}

/// Writes `model` (of a puzzle of shape `shape`, which names its houses) as a MiniZinc model:
/// `solve maximize score` when it has an objective, `solve satisfy` otherwise.
pub fn write(model: &CpModel, shape: &Shape, w: &mut impl Write) -> io::Result<()> {
    let n = model.n;
    let givens = model.givens.iter().filter(|&&g| g != 0).count();
    let cages: BTreeMap<usize, Group> = groups(model)
        .into_iter()
        .filter_map(|(origin, g)| match origin {
            Origin::Cage(i) => Some((i, g)),
            Origin::House(_) | Origin::Rule | Origin::Implied => None,
        })
        .collect();
    writeln!(
        w,
        "% sudoku-lab MiniZinc model: {n}x{n}, {}, {givens} givens, {} cages; {}",
        shape.regions_text(),
        cages.len(),
        if model.objective.is_some() {
            "maximise the weighted score"
        } else {
            "any solution"
        }
    )?;
    writeln!(
        w,
        "% x[r, c] is the digit in row r, column c (1-based). Run: minizinc --solver gecode FILE"
    )?;
    writeln!(w, "include \"alldifferent.mzn\";")?;
    if !model.pairs.is_empty() || !model.tables.is_empty() {
        writeln!(w, "include \"table.mzn\";")?;
    }
    writeln!(w)?;
    writeln!(w, "int: n = {n};")?;
    writeln!(w, "array[1..n, 1..n] of var 1..n: x;")?;
    writeln!(w)?;
    writeln!(w, "% The givens (0: open cell).")?;
    write_table(w, "0..n: given", n, &model.givens)?;
    writeln!(
        w,
        "constraint forall(r, c in 1..n where given[r, c] > 0)(x[r, c] = given[r, c]);"
    )?;
    writeln!(w)?;
    writeln!(w, "% Houses: each holds every digit once.")?;
    for g in &model.all_different {
        if let Origin::House(h) = g.origin {
            writeln!(w, "% {}", shape.house_name(h))?;
            writeln!(w, "constraint {};", all_different(n, g))?;
        }
    }
    if !cages.is_empty() {
        writeln!(w)?;
        writeln!(
            w,
            "% Killer cages: distinct digits (cages of two cells or more) adding up to the sum."
        )?;
    }
    for (i, g) in &cages {
        let cells = g.sum.map_or_else(
            || g.all_different.map_or(0, |a| a.cells.len()),
            |s| s.cells.len(),
        );
        let cells = format!("{cells} cell{}", if cells == 1 { "" } else { "s" });
        match g.sum {
            Some(s) => writeln!(w, "% cage {}: sum {}, {cells}", i + 1, s.sum)?,
            None => writeln!(w, "% cage {}: {cells}", i + 1)?,
        }
        let parts: Vec<String> = g
            .all_different
            .map(|a| all_different(n, a))
            .into_iter()
            .chain(g.sum.map(|s| sum(n, s)))
            .collect();
        writeln!(w, "constraint {};", parts.join(" /\\ "))?;
    }
    write_rules(model, w)?;
    writeln!(w)?;
    match &model.objective {
        Some(weights) => {
            writeln!(
                w,
                "% Maximise the score: the sum of weight × digit over all cells."
            )?;
            write_table(w, "int: weight", n, weights)?;
            writeln!(
                w,
                "var int: score = sum(r, c in 1..n)(weight[r, c] * x[r, c]);"
            )?;
            writeln!(w, "solve maximize score;")?;
        }
        None => writeln!(w, "solve satisfy;")?,
    }
    writeln!(w)?;
    let score = if model.objective.is_some() {
        "[\"score: \" ++ show(score) ++ \"\\n\"] ++\n  "
    } else {
        ""
    };
    writeln!(
        w,
        "output {score}[\"row \" ++ show(r) ++ \":\" ++ concat([\" \" ++ show(x[r, c]) | c in 1..n]) ++ \"\\n\" | r in 1..n];"
    )
}

/// The parts of the model that come from one house or cage.
#[derive(Default)]
struct Group<'a> {
    all_different: Option<&'a AllDifferent>,
    sum: Option<&'a LinearSum>,
}

/// The all-different groups and sums of `model`, gathered by origin.
fn groups(model: &CpModel) -> Vec<(Origin, Group<'_>)> {
    let mut out: Vec<(Origin, Group)> = Vec::new();
    let mut slot = |origin: Origin| -> usize {
        match out.iter().position(|(o, _)| *o == origin) {
            Some(i) => i,
            None => {
                out.push((origin, Group::default()));
                out.len() - 1
            }
        }
    };
    let mut places = Vec::new();
    for g in &model.all_different {
        places.push((slot(g.origin), Some(g), None));
    }
    for s in &model.sums {
        places.push((slot(s.origin), None, Some(s)));
    }
    for (i, a, s) in places {
        if a.is_some() {
            out[i].1.all_different = a;
        }
        if s.is_some() {
            out[i].1.sum = s;
        }
    }
    out
}

/// The variant rules of `model`, each kind under a comment: extra groups as all-different,
/// pairs and small sums as tables of the digits they allow, larger sums linear, parity by
/// `mod 2`, and a sandwich through the positions of its 1 and its `n`.
fn write_rules(model: &CpModel, w: &mut impl Write) -> io::Result<()> {
    let n = model.n;
    let groups: Vec<&AllDifferent> = model
        .all_different
        .iter()
        .filter(|g| g.origin == Origin::Rule)
        .collect();
    if !groups.is_empty() {
        writeln!(w)?;
        writeln!(
            w,
            "% Extra houses, regions, renban lines and chess neighbours: distinct digits."
        )?;
        for g in groups {
            writeln!(w, "constraint {};", all_different(n, g))?;
        }
    }
    if !model.pairs.is_empty() {
        writeln!(w)?;
        writeln!(
            w,
            "% Pairs of cells (lines, dots, negative rules): the digit pairs they allow."
        )?;
        for p in &model.pairs {
            let rows: Vec<String> = p
                .allowed
                .iter()
                .map(|&(a, b)| format!("{a}, {b}"))
                .collect();
            writeln!(
                w,
                "constraint table([{}, {}], [| {} |]);",
                var(n, p.a),
                var(n, p.b),
                rows.join(" | ")
            )?;
        }
    }
    if !model.tables.is_empty() || !model.weighted.is_empty() {
        writeln!(w)?;
        writeln!(
            w,
            "% Arrows and little killers: sums (over a few open cells, the digits that make them)."
        )?;
        for t in &model.tables {
            let cells: Vec<String> = t.cells.iter().map(|&c| var(n, c)).collect();
            let rows: Vec<String> = t
                .allowed
                .iter()
                .map(|row| {
                    let digits: Vec<String> = row.iter().map(|d| d.to_string()).collect();
                    digits.join(", ")
                })
                .collect();
            // A table with no row is no solution; MiniZinc takes no empty 2-D literal.
            if rows.is_empty() {
                writeln!(w, "constraint false;")?;
            } else {
                writeln!(
                    w,
                    "constraint table([{}], [| {} |]);",
                    cells.join(", "),
                    rows.join(" | ")
                )?;
            }
        }
        for s in &model.weighted {
            let terms: Vec<String> = s
                .terms
                .iter()
                .map(|&(c, k)| format!("{k} * {}", var(n, c)))
                .collect();
            writeln!(w, "constraint {} = {};", terms.join(" + "), s.rhs)?;
        }
    }
    if !model.parity.is_empty() {
        writeln!(w)?;
        writeln!(w, "% Odd and even cells.")?;
        for &(c, odd) in &model.parity {
            writeln!(w, "constraint {} mod 2 = {};", var(n, c), u8::from(odd))?;
        }
    }
    write_extra(n, &model.extra, w)?;
    if !model.sandwiches.is_empty() {
        writeln!(w)?;
        writeln!(
            w,
            "% Sandwiches: the digits strictly between the line's 1 and its n add up to the clue."
        )?;
        for s in &model.sandwiches {
            let cells: Vec<String> = s.cells.iter().map(|&c| var(n, c)).collect();
            writeln!(
                w,
                "constraint let {{ array[int] of var int: l = [{}]; var index_set(l): one; \
                 var index_set(l): top }} in l[one] = 1 /\\ l[top] = n /\\ \
                 sum(i in index_set(l))(bool2int(min(one, top) < i /\\ i < max(one, top)) * l[i]) = {};",
                cells.join(", "),
                s.sum
            )?;
        }
    }
    Ok(())
}

/// The rules with forms of their own ([`ExtraRules`]), each kind under a comment: candidates as
/// a set, a quadruple's digits counted with `bool2int`, between and lockout lines by `min` and
/// `max` of their ends, a skyscraper's seen cells by `forall` over the cells before each, an
/// X-sum as the sum of the cells whose position is at most the first cell's digit.
fn write_extra(n: usize, extra: &ExtraRules, w: &mut impl Write) -> io::Result<()> {
    let list = |cells: &[u32]| {
        let vars: Vec<String> = cells.iter().map(|&c| var(n, c)).collect();
        vars.join(", ")
    };
    let heading = |w: &mut dyn Write, empty: bool, text: &str| -> io::Result<()> {
        if empty {
            return Ok(());
        }
        writeln!(w)?;
        writeln!(w, "% {text}")
    };
    heading(
        w,
        extra.domains.is_empty(),
        "Candidates: cells limited to the listed digits.",
    )?;
    for (c, digits) in &extra.domains {
        let digits: Vec<String> = digits.iter().map(|d| d.to_string()).collect();
        match digits.is_empty() {
            // No digit at all: MiniZinc gives an empty set literal no element type.
            true => writeln!(w, "constraint false;")?,
            false => writeln!(w, "constraint {} in {{{}}};", var(n, *c), digits.join(", "))?,
        }
    }
    heading(
        w,
        extra.contains.is_empty(),
        "Quadruples: each listed digit among the cells, at least as often as it is listed.",
    )?;
    for q in &extra.contains {
        let mut digits = q.digits.clone();
        digits.sort_unstable();
        for run in digits.chunk_by(|a, b| a == b) {
            let counted: Vec<String> = q
                .cells
                .iter()
                .map(|&c| format!("bool2int({} = {})", var(n, c), run[0]))
                .collect();
            writeln!(
                w,
                "constraint sum([{}]) >= {};",
                counted.join(", "),
                run.len()
            )?;
        }
    }
    heading(
        w,
        extra.betweens.is_empty(),
        "Between lines (inner cells inside the ends' interval) and lockout lines (outside it).",
    )?;
    for b in &extra.betweens {
        let [a, e] = b.ends.map(|c| var(n, c));
        for &c in &b.cells {
            let x = var(n, c);
            match b.inside {
                true => writeln!(w, "constraint min({a}, {e}) < {x} /\\ {x} < max({a}, {e});")?,
                false => writeln!(w, "constraint {x} < min({a}, {e}) \\/ {x} > max({a}, {e});")?,
            }
        }
    }
    let edge_clues = [
        (
            &extra.skyscrapers,
            "Skyscrapers: the cells larger than every cell before them, from the clue.",
            "bool2int(forall(j in 1..i - 1)(l[j] < l[i]))",
        ),
        (
            &extra.xsums,
            "X-sums: the first X cells from the clue add up to it, X being the first cell's digit.",
            "bool2int(i <= l[1]) * l[i]",
        ),
    ];
    for (clues, text, term) in edge_clues {
        heading(w, clues.is_empty(), text)?;
        for clue in clues {
            writeln!(
                w,
                "constraint let {{ array[int] of var int: l = [{}] }} in \
                 sum(i in index_set(l))({term}) = {};",
                list(&clue.cells),
                clue.value
            )?;
        }
    }
    Ok(())
}

/// `x[r, c]` of a row-major cell index.
fn var(n: usize, cell: u32) -> String {
    let cell = cell as usize;
    format!("x[{}, {}]", cell / n + 1, cell % n + 1)
}

fn all_different(n: usize, g: &AllDifferent) -> String {
    let cells: Vec<String> = g.cells.iter().map(|&c| var(n, c)).collect();
    format!("all_different([{}])", cells.join(", "))
}

fn sum(n: usize, s: &LinearSum) -> String {
    let cells: Vec<String> = s.cells.iter().map(|&c| var(n, c)).collect();
    format!("{} = {}", cells.join(" + "), s.sum)
}

/// `array[1..n, 1..n] of TYPE_AND_NAME = [| … |];`, one row per line, columns aligned.
fn write_table<T: std::fmt::Display>(
    w: &mut impl Write,
    type_and_name: &str,
    n: usize,
    values: &[T],
) -> io::Result<()> {
    let width = values
        .iter()
        .map(|v| v.to_string().len())
        .max()
        .unwrap_or(1);
    writeln!(w, "array[1..n, 1..n] of {type_and_name} = [|")?;
    for (r, row) in values.chunks(n).enumerate() {
        let cells: Vec<String> = row.iter().map(|v| format!("{v:>width$}")).collect();
        let end = if r + 1 == n { " |];" } else { " |" };
        writeln!(w, "  {}{end}", cells.join(", "))?;
    }
    Ok(())
}

/// One solution printed by the model's `output` item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// The digits, row-major.
    pub cells: Vec<Value>,
    /// The `score:` line (models with an objective).
    pub score: Option<i64>,
}

/// How MiniZinc ended its output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// `==========`: the search is complete (every solution printed, or the last one optimal).
    Complete,
    /// `=====UNSATISFIABLE=====`.
    Unsatisfiable,
    /// No final status: the search stopped at the solution limit (or was killed).
    Open,
}

/// What MiniZinc printed for a model of [`write()`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MznOutput {
    pub solutions: Vec<Solution>,
    pub status: Status,
}

/// Reads MiniZinc's output for a model of side `n` written by [`write()`] (`scored`: the model
/// maximises, so every solution has a `score:` line). `truncated`: the program was killed, so
/// whatever follows the last `----------` is dropped rather than read. Lines starting
/// with `%` (MiniZinc's comments and statistics) are skipped; any other unknown line, a row
/// that is missing, repeated, out of order or holds a digit outside `1..=n`, a status line
/// that contradicts the solutions, or text after the final status is an error.
pub fn parse_output(
    text: &str,
    n: usize,
    scored: bool,
    truncated: bool,
) -> Result<MznOutput, MznOutputError> {
    // Killed: only the solutions printed in full count.
    let text = match (truncated, text.rfind("----------\n")) {
        (false, _) => text,
        (true, Some(end)) => &text[..end + "----------\n".len()],
        (true, None) => "",
    };
    let mut solutions = Vec::new();
    let mut status = Status::Open;
    let mut rows: Vec<Vec<Value>> = Vec::new();
    let mut score: Option<i64> = None;
    let mut pending = false;
    for (i, line) in text.lines().enumerate() {
        let at = |problem: LineProblem| MznOutputError::At {
            line: i + 1,
            problem,
        };
        let t = line.trim();
        if t.is_empty() || t.starts_with('%') {
            continue;
        }
        if status != Status::Open {
            return Err(at(LineProblem::AfterStatus(t.into())));
        }
        match t {
            "----------" => {
                if rows.len() != n {
                    return Err(at(LineProblem::Rows {
                        rows: rows.len(),
                        n,
                    }));
                }
                if scored && score.is_none() {
                    return Err(at(LineProblem::NoScore));
                }
                solutions.push(Solution {
                    cells: rows.concat(),
                    score: score.take(),
                });
                rows.clear();
                pending = false;
            }
            "==========" => {
                if pending {
                    return Err(at(LineProblem::CompleteInside));
                }
                if solutions.is_empty() {
                    return Err(at(LineProblem::CompleteWithout));
                }
                status = Status::Complete;
            }
            "=====UNSATISFIABLE=====" => {
                if pending || !solutions.is_empty() {
                    return Err(at(LineProblem::UnsatAfterSolution));
                }
                status = Status::Unsatisfiable;
            }
            _ if t.starts_with("=====") => return Err(at(LineProblem::Reports(t.into()))),
            _ => {
                pending = true;
                if let Some(s) = t.strip_prefix("score:") {
                    if !scored || score.is_some() || !rows.is_empty() {
                        return Err(at(LineProblem::UnexpectedScore(t.into())));
                    }
                    let s = s
                        .trim()
                        .parse()
                        .map_err(|_| at(LineProblem::NotAScore(t.into())))?;
                    score = Some(s);
                } else if let Some(rest) = t.strip_prefix("row ") {
                    rows.push(parse_row(rest, rows.len() + 1, n).map_err(at)?);
                } else {
                    return Err(at(LineProblem::Unexpected(t.into())));
                }
            }
        }
    }
    if pending {
        return Err(MznOutputError::Unterminated);
    }
    Ok(MznOutput { solutions, status })
}

/// What [`parse_output`] cannot read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MznOutputError {
    #[error("line {line}: {problem}")]
    At { line: usize, problem: LineProblem },
    #[error("the last solution is not terminated by '----------' (truncated output?)")]
    Unterminated,
}

/// What is wrong with one line of MiniZinc's output (the line's text where it is quoted).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineProblem {
    #[error("'{0}' after the final status line")]
    AfterStatus(String),
    #[error("a solution with {rows} rows of the {n}")]
    Rows { rows: usize, n: usize },
    #[error("a solution without its score line")]
    NoScore,
    #[error("'==========' inside a solution")]
    CompleteInside,
    #[error("'==========' without any solution")]
    CompleteWithout,
    #[error("UNSATISFIABLE after a solution")]
    UnsatAfterSolution,
    #[error("MiniZinc reports '{0}'")]
    Reports(String),
    #[error("unexpected score line '{0}'")]
    UnexpectedScore(String),
    #[error("'{0}' is not a score")]
    NotAScore(String),
    #[error("unexpected output '{0}'")]
    Unexpected(String),
    /// What follows `row `.
    #[error("'row {0}' has no ':'")]
    RowWithoutColon(String),
    #[error("'row {found}' where row {expect} of {n} was due")]
    RowOutOfOrder {
        found: String,
        expect: usize,
        n: usize,
    },
    #[error("'{token}' in row {row} is not a digit 1 to {n}")]
    NotADigit { token: String, row: usize, n: usize },
    #[error("row {row} has {len} digits, not {n}")]
    RowLength { row: usize, len: usize, n: usize },
}

/// `R: d1 … dn` of row `expect` (1-based).
fn parse_row(rest: &str, expect: usize, n: usize) -> Result<Vec<Value>, LineProblem> {
    let (r, digits) = rest
        .split_once(':')
        .ok_or_else(|| LineProblem::RowWithoutColon(rest.into()))?;
    if r.trim().parse::<usize>().ok() != Some(expect) || expect > n {
        return Err(LineProblem::RowOutOfOrder {
            found: r.into(),
            expect,
            n,
        });
    }
    let row: Vec<Value> = digits
        .split_whitespace()
        .map(|d| {
            d.parse::<Value>()
                .ok()
                .filter(|&v| v >= 1 && v as usize <= n)
                .ok_or_else(|| LineProblem::NotADigit {
                    token: d.into(),
                    row: expect,
                    n,
                })
        })
        .collect::<Result<_, _>>()?;
    if row.len() != n {
        return Err(LineProblem::RowLength {
            row: expect,
            len: row.len(),
            n,
        });
    }
    Ok(row)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::model::{Cage, Constraint, Regions, Weights};

    fn export(puzzle: &Puzzle) -> String {
        let mut buf = Vec::new();
        write_puzzle(puzzle, &mut buf).unwrap();
        String::from_utf8(buf).unwrap()
    }

    #[test]
    fn the_export_names_every_house_and_cage() {
        let shape = Arc::new(Shape::standard(4, true).unwrap());
        let mut givens = vec![0; 16];
        givens[1] = 3;
        let puzzle = Puzzle::new(shape, givens)
            .unwrap()
            .with_constraints(vec![
                Constraint::Cage(Cage::new(vec![0, 4], 3)),
                Constraint::Cage(Cage::new(vec![15], 4)),
            ])
            .unwrap();
        let text = export(&puzzle);
        for i in 1..=4 {
            for house in ["row", "column", "box"] {
                assert!(
                    text.contains(&format!("% {house} {i}\n")),
                    "{house} {i}:\n{text}"
                );
            }
        }
        assert!(text.contains("% diagonal 1\n") && text.contains("% diagonal 2\n"));
        assert!(
            text.contains(
                "% row 1\nconstraint all_different([x[1, 1], x[1, 2], x[1, 3], x[1, 4]]);"
            ),
            "{text}"
        );
        assert!(text.contains("% cage 1: sum 3, 2 cells\nconstraint all_different([x[1, 1], x[2, 1]]) /\\ x[1, 1] + x[2, 1] = 3;"), "{text}");
        assert!(
            text.contains("% cage 2: sum 4, 1 cell\nconstraint x[4, 4] = 4;"),
            "{text}"
        );
        assert!(text.contains("  0, 3, 0, 0 |\n"), "{text}");
        assert!(text.contains("include \"alldifferent.mzn\";"));
        assert!(text.contains("array[1..n, 1..n] of var 1..n: x;"));
        assert!(text.contains("solve satisfy;") && !text.contains("maximize"));
        // Every constraint has its comment line: 4 rows, 4 columns, 4 boxes, 2 diagonals,
        // 2 cages, and the givens.
        assert_eq!(text.matches("\nconstraint ").count(), 17);
    }

    #[test]
    fn weights_give_the_objective() {
        let shape = Arc::new(Shape::standard(9, false).unwrap());
        let puzzle = Puzzle::new(shape, vec![0; 81])
            .unwrap()
            .with_weights(Arc::new(Weights::pyramid(9)))
            .unwrap();
        let text = export(&puzzle);
        assert!(text.contains("solve maximize score;"), "{text}");
        assert!(
            text.contains("array[1..n, 1..n] of int: weight = [|\n   6,  6,"),
            "{text}"
        );
        assert!(text.contains("10,  9,  8,  7,  6 |"), "{text}");
        assert!(text.contains("[\"score: \" ++ show(score)"), "{text}");
    }

    #[test]
    fn jigsaw_regions_are_named_regions() {
        // The 2×2 boxes, given as jigsaw regions.
        let map: Vec<u32> = (0..16).map(|c| (c / 8 * 2 + c % 4 / 2) as u32).collect();
        let shape = Arc::new(Shape::new(4, Regions::Jigsaw(map), false).unwrap());
        let text = export(&Puzzle::new(shape, vec![0; 16]).unwrap());
        assert!(
            text.contains("jigsaw regions") && text.contains("% region 4\n"),
            "{text}"
        );
        assert!(!text.contains("% box"), "{text}");
    }

    #[test]
    fn output_is_read_strictly() {
        let two =
            "row 1: 1 2\nrow 2: 2 1\n----------\nrow 1: 2 1\nrow 2: 1 2\n----------\n==========\n";
        let out = parse_output(two, 2, false, false).unwrap();
        assert_eq!(out.status, Status::Complete);
        assert_eq!(out.solutions.len(), 2);
        assert_eq!(out.solutions[1].cells, vec![2, 1, 1, 2]);
        let scored = "score: 7\nrow 1: 1 2\nrow 2: 2 1\n----------\n";
        let out = parse_output(scored, 2, true, false).unwrap();
        assert_eq!(
            (out.status, out.solutions[0].score),
            (Status::Open, Some(7))
        );
        let unsat = parse_output("=====UNSATISFIABLE=====\n", 2, false, false).unwrap();
        assert_eq!(
            (unsat.status, unsat.solutions.len()),
            (Status::Unsatisfiable, 0)
        );
        // Killed: the unfinished last solution is dropped.
        let out = parse_output(
            "row 1: 1 2\nrow 2: 2 1\n----------\nrow 1: 2",
            2,
            false,
            true,
        )
        .unwrap();
        assert_eq!(out.solutions.len(), 1);
        for bad in [
            "",
            "row 1: 1 2\nrow 2: 2 1\n",
            "row 1: 1 2\n----------\n",
            "row 2: 1 2\nrow 1: 2 1\n----------\n",
            "row 1: 1 3\nrow 2: 2 1\n----------\n",
            "row 1: 1 2 1\nrow 2: 2 1\n----------\n",
            "row 1: 1 2\nrow 2: 2 1\nrow 3: 1 1\n----------\n",
            "row 1: 1 2\nrow 2: 2 1\n----------\n=====UNSATISFIABLE=====\n",
            "=====UNKNOWN=====\n",
            "=====ERROR=====\n",
            "==========\n",
            "hello\n",
            "row 1: 1 2\nrow 2: 2 1\n----------\n==========\nrow 1: 1 2\n",
        ] {
            let r = parse_output(bad, 2, false, false);
            assert!(bad.is_empty() || r.is_err(), "{bad:?} gave {r:?}");
        }
        // Nothing at all is no answer either: an open status without solutions.
        assert_eq!(
            parse_output("", 2, false, false).unwrap().solutions.len(),
            0
        );
        assert!(parse_output("row 1: 1 2\nrow 2: 2 1\n----------\n", 2, true, false).is_err());
        assert!(parse_output(
            "score: x\nrow 1: 1 2\nrow 2: 2 1\n----------\n",
            2,
            true,
            false
        )
        .is_err());
    }
}
