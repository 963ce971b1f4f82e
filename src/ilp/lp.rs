//! Writes a puzzle's integer program ([`crate::ilp::model`]) in CPLEX LP format, for external MIP
//! solvers (`glpsol --lp`, `cbc`, HiGHS, CPLEX, Gurobi…). good_lp has no writer, so this is ours;
//! it reads the same [`IlpModel`] the `ilp` backend solves, so the two cannot drift.
//!
//! Naming (all 1-based):
//! - `x_r{row}c{col}_d{digit}`: binary, 1 when the cell at `row`, `col` holds `digit`. Only free
//!   cells and the digits their houses allow have variables; givens are removed.
//! - `one`: fixed to 1 by its bounds; its objective coefficient carries the constant part of the
//!   score, so the reported optimum is the score of the whole grid, givens included.
//! - rows `cell_r{row}c{col}` (one digit per cell) and `{house}_d{digit}` with house `row{i}`,
//!   `col{i}`, `box{i}` (or `region{i}` for jigsaw), `diag{i}`: the digit once in the house.
//! - rows of Killer cages: `cage{k}_set`, `cage{k}_d{digit}`, `cage{k}_sum`.
//! - rows of the variant rules ([`crate::ilp::model::takes`]):
//!   `group{g}_d{digit}` (an extra house or distinct group), `pair{p}_r{row}c{col}_d{digit}`
//!   (the cell holding the digit rules out what two-cell rule `p` forbids beside it), and the rows
//!   `sum{s}_{r}` (an arrow, little killer, double arrow, zipper or region sum line),
//!   `sandwich{s}_{r}`, `quad{q}_{r}`, `between{w}_{r}`, `sky{k}_{r}`, `xsum{k}_{r}` of the rules
//!   over auxiliary binaries (named `sum{s}_c{i}_d{digit}_{state}`, `sw{s}_…`, `sky{k}_s{i}`,
//!   `xs{k}_y{i}_d{digit}`), numbered as in
//!   [`crate::ilp::model::RowKind`].
//!
//! With an objective the program maximises `Σ (weight − min weight) × digit × x + offset × one`
//! (see [`crate::ilp::model`] for why the reduced weights give the same optimum); without one, the
//! objective is `0 one` (pure feasibility). A puzzle whose givens already clash gets a one-row
//! program that is infeasible, with the reason in a comment.

use std::io::{self, Write};

use crate::ilp::model::{IlpModel, ModelBuildError, Reduction, RowKind, Sense};
use crate::model::lower::Rules;
use crate::model::{Puzzle, Shape};

/// Why no LP file was written.
#[derive(Debug, thiserror::Error)]
pub enum LpError {
    #[error("{0}")]
    Model(ModelBuildError),
    #[error("writing the LP file: {0}")]
    Io(#[from] io::Error),
}

/// Terms per line: keeps lines well under the 255 characters some LP readers accept.
const TERMS_PER_LINE: usize = 6;

/// Bytes held per term of a row: its variable and coefficient in the program, and its text.
const BYTES_PER_TERM: u64 = 12 + 16;
/// Bytes held per variable: its description, its objective coefficient and its bounds line.
const BYTES_PER_VAR: u64 = 64;

/// An upper estimate of the memory [`write_lp`] takes for `puzzle` (the program and its text),
/// made without building either, so that an export can be refused before any work: every cell
/// with every digit, each in its cell row, its houses' rows and two cage rows; each digit set of
/// a cage ([`crate::ilp::model::MAX_CAGE_SETS`] at most) in one row per digit and its set row;
/// each cell of a variant rule's group or sum with every digit (and each sum's flow at its most
/// arcs), and each two-cell rule with
/// `2n` rows of up to `n + 1` terms.
pub fn estimated_bytes(puzzle: &Puzzle) -> u64 {
    let n = puzzle.size() as u64;
    let shape = puzzle.shape();
    let per_cell = (0..shape.cells())
        .map(|c| shape.houses_of(c).len() as u64 + 3)
        .sum::<u64>();
    let sets: u64 = puzzle
        .cages()
        .map(|cage| {
            let most = crate::ilp::model::MAX_CAGE_SETS;
            cage.combinations(n as usize, most)
                .map_or(0, |c| c.len() as u64)
        })
        .sum();
    let rules = Rules::of(puzzle);
    let rule_cells: usize = rules
        .houses
        .iter()
        .chain(&rules.distinct)
        .map(Vec::len)
        .sum::<usize>()
        + rules.sums.iter().map(|s| s.terms.len()).sum::<usize>();
    let pairs = rules.all_pairs().count() as u64;
    // Each arc of a sum's flow is in its digit's row and in two states' rows.
    let arcs = (rules.sums.len() * crate::ilp::model::MAX_SUM_ARCS) as u64;
    let terms =
        per_cell * n + sets * (n + 1) + rule_cells as u64 * n + pairs * 2 * n * (n + 1) + arcs * 3;
    terms * BYTES_PER_TERM + (n * n * n + sets + arcs) * BYTES_PER_VAR
}

/// Writes the program of `puzzle` (with its weighted objective when `objective` is set) in CPLEX
/// LP format. Only the givens are removed; no further propagation, so the file is the plain model.
pub fn write_lp(puzzle: &Puzzle, objective: bool, w: &mut impl Write) -> Result<(), LpError> {
    let n = puzzle.size();
    writeln!(
        w,
        "\\ sudoku-lab integer program: {n}x{n}, {}, {}",
        puzzle.shape().regions_text(),
        if objective {
            "maximise the weighted score"
        } else {
            "feasibility"
        }
    )?;
    writeln!(
        w,
        "\\ x_rRcC_dD = 1 when row R, column C holds digit D (1-based); one = 1 carries the constant score"
    )?;
    let model = match IlpModel::build(puzzle, objective, Reduction::Givens) {
        Ok(m) => m,
        Err(ModelBuildError::Infeasible(why)) => {
            writeln!(w, "\\ no solution: {why}")?;
            write!(
                w,
                "Maximize\n obj: 0 one\nSubject To\n no_solution: one = 0\nBounds\n one = 1\nEnd\n"
            )?;
            return Ok(());
        }
        Err(e) => return Err(LpError::Model(e)),
    };
    let names: Vec<String> = (0..model.n_vars()).map(|v| model.name(v)).collect();

    writeln!(w, "Maximize")?;
    let mut terms: Vec<(i64, &str)> = Vec::new();
    if let Some(o) = model.objective() {
        terms.extend(
            o.coef
                .iter()
                .zip(&names)
                .filter(|(&c, _)| c != 0)
                .map(|(&c, name)| (c, name.as_str())),
        );
    }
    let offset = model.objective().map_or(0, |o| o.offset);
    terms.push((offset, "one"));
    write_terms(w, " obj:", &terms)?;
    writeln!(w)?;

    writeln!(w, "Subject To")?;
    for row in model.rows() {
        let label = match row.kind {
            RowKind::Cell(cell) => {
                let cell = cell as usize;
                format!(" cell_r{}c{}:", cell / n + 1, cell % n + 1)
            }
            RowKind::House { house, digit } => {
                format!(" {}_d{digit}:", house_label(puzzle.shape(), house as usize))
            }
            RowKind::CageSet { cage } => format!(" cage{}_set:", cage + 1),
            RowKind::CageDigit { cage, digit } => format!(" cage{}_d{digit}:", cage + 1),
            RowKind::CageSum { cage } => format!(" cage{}_sum:", cage + 1),
            RowKind::Group { group, digit } => format!(" group{}_d{digit}:", group + 1),
            RowKind::Pair { pair, cell, digit } => {
                let cell = cell as usize;
                format!(
                    " pair{}_r{}c{}_d{digit}:",
                    pair + 1,
                    cell / n + 1,
                    cell % n + 1
                )
            }
            RowKind::Sum { sum, row } => format!(" sum{}_{}:", sum + 1, row + 1),
            RowKind::Sandwich { sandwich, row } => {
                format!(" sandwich{}_{}:", sandwich + 1, row + 1)
            }
            RowKind::Quadruple { rule, row } => format!(" quad{}_{}:", rule + 1, row + 1),
            RowKind::Between { rule, row } => format!(" between{}_{}:", rule + 1, row + 1),
            RowKind::Skyscraper { clue, row } => format!(" sky{}_{}:", clue + 1, row + 1),
            RowKind::XSum { clue, row } => format!(" xsum{}_{}:", clue + 1, row + 1),
        };
        let terms: Vec<(i64, &str)> = row
            .vars
            .iter()
            .zip(&row.coef)
            .map(|(&v, &c)| (c, names[v as usize].as_str()))
            .collect();
        write_terms(w, &label, &terms)?;
        let sense = match row.sense {
            Sense::Eq => "=",
            Sense::AtMost => "<=",
        };
        writeln!(w, " {sense} {}", row.rhs)?;
    }

    writeln!(w, "Bounds\n one = 1\nBinary")?;
    for chunk in names.chunks(TERMS_PER_LINE) {
        writeln!(w, " {}", chunk.join(" "))?;
    }
    writeln!(w, "End")?;
    Ok(())
}

/// `label c1 x1 + c2 x2 …`, wrapped every few terms (continuation lines start with spaces); no
/// final newline.
fn write_terms(w: &mut impl Write, label: &str, terms: &[(i64, &str)]) -> io::Result<()> {
    write!(w, "{label}")?;
    for (i, &(c, name)) in terms.iter().enumerate() {
        if i > 0 && i % TERMS_PER_LINE == 0 {
            write!(w, "\n   ")?;
        }
        let sign = match (c < 0, i > 0) {
            (true, _) => " -",
            (false, true) => " +",
            (false, false) => "",
        };
        match c.unsigned_abs() {
            1 if name != "one" => write!(w, "{sign} {name}")?,
            a => write!(w, "{sign} {a} {name}")?,
        }
    }
    Ok(())
}

/// `row3`, `col5`, `box2` / `region2`, `diag1` (1-based): [`Shape::house_name`] without spaces,
/// columns and diagonals shortened.
fn house_label(shape: &Shape, h: usize) -> String {
    shape
        .house_name(h)
        .replace("column ", "col")
        .replace("diagonal ", "diag")
        .replace(' ', "")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Value, Weights};
    use std::sync::Arc;

    fn lp(givens: Vec<Value>, objective: bool) -> String {
        let shape = Arc::new(Shape::standard(4, false).unwrap());
        let p = Puzzle::new(shape, givens)
            .unwrap()
            .with_weights(Arc::new(Weights::pyramid(4)))
            .unwrap();
        let mut out = Vec::new();
        write_lp(&p, objective, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn sections_and_names() {
        let mut g = vec![0; 16];
        g[0] = 1;
        let text = lp(g, true);
        for part in [
            "Maximize\n obj:",
            "Subject To\n",
            "Bounds\n one = 1\n",
            "Binary\n",
            "End\n",
        ] {
            assert!(text.contains(part), "missing {part:?} in\n{text}");
        }
        assert!(text.contains(" cell_r1c2: x_r1c2_d2 + x_r1c2_d3 + x_r1c2_d4 = 1\n"));
        assert!(!text.contains("x_r1c1_"), "the given cell has no variables");
        assert!(
            !text.contains("row1_d1:"),
            "the given digit has no row constraint"
        );
        assert!(text.contains(" row1_d2:"));
        assert!(text.lines().all(|l| l.len() < 255));
    }

    #[test]
    fn feasibility_has_a_zero_objective() {
        let text = lp(vec![0; 16], false);
        assert!(text.contains(" obj: 0 one\n"), "{text}");
    }

    #[test]
    fn clashing_givens_write_an_infeasible_program() {
        let mut g = vec![0; 16];
        g[0] = 2;
        g[1] = 2;
        let text = lp(g, true);
        assert!(text.contains("no_solution: one = 0"), "{text}");
    }
}
