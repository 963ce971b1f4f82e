//! The writers: a grid as a line, a block or JSON, and a whole puzzle as the line the reader
//! takes back ([`to_line`]).

use super::*;

/// The grid as one line of `n²` symbols (`.` for empty), no newline; `None` when `n > 35`.
pub fn write_line(grid: &Grid) -> Option<String> {
    if grid.size() > MAX_LINE_SIDE {
        return None;
    }
    grid.cells().iter().map(|&v| model::symbol(v)).collect()
}

/// The grid as `n` rows of space-separated numbers (`0` for empty), rows joined by `\n`, no final
/// newline.
pub fn write_grid(grid: &Grid) -> String {
    let mut out = String::with_capacity(grid.cells().len() * 3);
    for (i, row) in grid.rows().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        for (j, v) in row.iter().enumerate() {
            if j > 0 {
                out.push(' ');
            }
            out.push_str(&v.to_string());
        }
    }
    out
}

/// The grid as a compact LeetCode board `[["5","3",...],...]` (`"."` for empty), no newline;
/// `None` when `n > 35`.
pub fn write_json(grid: &Grid) -> Option<String> {
    let rows = grid
        .rows()
        .map(|row| {
            row.iter()
                .map(|&v| model::symbol(v).map(String::from))
                .collect::<Option<Vec<String>>>()
        })
        .collect::<Option<Vec<Vec<String>>>>()?;
    serde_json::to_string(&rows).ok()
}

/// Why a puzzle has no line form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error(
        "side {0} cannot be written in line format (at most {MAX_LINE_SIDE}: one symbol per digit)"
    )]
    TooLarge(usize),
    #[error("{0} cages cannot be written in line format (at most 62 labels); use larger cages")]
    TooManyCages(usize),
    #[error("{0} constraints cannot be written in line format (houses and cages only); write f-puzzles JSON")]
    Variant(model::ConstraintKind),
}

/// The whole puzzle as one line, the form [`Format::Line`] reads back: `n²` symbols (`.` empty,
/// `1`–`9`, `A`–`Z`); for a jigsaw (of side 2 or more), or boxes other than the side's standard
/// ones, a space and `n²` region labels (`0`–`9`, `A`–`Z`: such boxes read back as a jigsaw with
/// the same houses); for a Killer a space, `n²` cage labels (`.` for a cell in no cage) and a
/// space, then the cage sums. The diagonals are not written: the reader adds them from its
/// options.
/// [`write_line`] writes a grid's symbols only.
pub fn to_line(puzzle: &Puzzle) -> Result<String, LineError> {
    to_line_with_answer(puzzle, None)
}

/// [`to_line`], with the puzzle's known answer `(count, a solution)` written after the puzzle
/// as `puzzle:count:solution` (read back as [`Entry::expected`]).
pub fn to_line_with_answer(
    puzzle: &Puzzle,
    answer: Option<(u64, &Grid)>,
) -> Result<String, LineError> {
    let n = puzzle.size();
    if n > MAX_LINE_SIDE {
        return Err(LineError::TooLarge(n));
    }
    let kinds = puzzle.constraints().iter().map(|c| c.kind());
    if let Some(k) = kinds
        .into_iter()
        .find(|&k| k != model::ConstraintKind::Killer)
    {
        return Err(LineError::Variant(k));
    }
    let symbols = |cells: &[Value]| -> String {
        cells
            .iter()
            .map(|&v| model::symbol(v).unwrap_or('?'))
            .collect()
    };
    let mut line = symbols(puzzle.givens());
    if let Some((count, solution)) = answer {
        line.push_str(&format!(":{count}:{}", symbols(solution.cells())));
    }
    // A 1×1 jigsaw's one region is the whole grid, as in the standard 1×1 grid: it is written
    // without it, since `. 0` alone would read back as a row of a 2×2 grid. Boxes other than the
    // side's standard ones (`3×2` on 6×6, `1×5` on 5×5) are written as their regions too: the
    // reader would give the line the standard boxes, or none.
    let shape = puzzle.shape();
    let written_regions = match shape.regions() {
        Regions::Jigsaw(_) => n > 1,
        Regions::Boxes { rows, cols } => Shape::default_boxes(n) != Some((*rows, *cols)),
    };
    if written_regions {
        line.push(' ');
        line.extend((0..n * n).map(|c| region_label(shape.region_of(c) as u32)));
    }
    let cages: Vec<&model::Cage> = puzzle.cages().collect();
    if !cages.is_empty() {
        if cages.len() > CAGE_LABELS.len() {
            return Err(LineError::TooManyCages(cages.len()));
        }
        // Labels in order of first appearance, which is how the reader numbers the cages.
        let mut label = vec!['.'; n * n];
        let mut first: Vec<(u32, usize)> = cages
            .iter()
            .enumerate()
            .map(|(k, c)| (c.cells().iter().copied().min().unwrap_or(0), k))
            .collect();
        first.sort_unstable();
        let mut sums = vec![];
        for (i, &(_, k)) in first.iter().enumerate() {
            for &c in cages[k].cells() {
                label[c as usize] = CAGE_LABELS[i] as char;
            }
            sums.push(cages[k].sum().to_string());
        }
        line.push(' ');
        line.extend(label);
        line.push(' ');
        line.push_str(&sums.join(","));
    }
    Ok(line)
}

/// Cage labels of the line format, in the order given to cages.
pub(super) const CAGE_LABELS: &[u8; 62] =
    b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// `0`–`9`, then `A`–`Z` (labels up to 35).
pub(super) fn region_label(r: u32) -> char {
    char::from_digit(r, 36).map_or('?', |c| c.to_ascii_uppercase())
}
