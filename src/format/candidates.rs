//! Grids with candidates (pencil marks), as HoDoKu and Sudoku Explainer print them:
//!
//! ```text
//! .------------------.------------------.------------------.
//! | 19    7     169  | 2     156   3    | 459   8     49   |
//! :------------------+------------------+------------------:
//! ...
//! '------------------'------------------'------------------'
//! ```
//!
//! `n` rows of `n` cells (sides 1 to 9, with the side's standard boxes, and the diagonals when
//! [`ReadOptions::diagonals`] asks), each cell the digits still possible there; a cell of one
//! digit is a placed digit (given or solved). The border characters `| - + . : ' *` and
//! whitespace separate cells; a line with no digit is a border line. Lines starting with `#` are
//! comments; grids are separated by blank lines. A cell's candidates that are missing are
//! eliminations ([`CandidateGrid::eliminations`]), which the logic engine's board takes
//! (`logic::Board::with_eliminations`).
//!
//! Errors name the 1-based line and column of what is wrong; reading goes on with the next grid.

use super::*;

/// The characters that draw a printed grid's borders (and separate its cells).
pub const BORDER_CHARS: &[char] = &['|', '-', '+', '.', ':', '\'', '*'];

/// One grid with candidates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CandidateGrid {
    /// 1-based line where the grid starts.
    pub line: usize,
    /// The placed digits (cells of one candidate) as givens.
    pub puzzle: Puzzle,
    /// `(cell, digit)` for every digit missing from a cell of two or more candidates.
    pub eliminations: Vec<(usize, Value)>,
}

/// A cell as written: its position and its digits.
struct Cell<'a> {
    line: usize,
    col: usize,
    text: &'a str,
}

/// Reads every grid with candidates of `text` (see the module docs).
pub fn read_candidates(text: &str, opts: &ReadOptions) -> Vec<Result<CandidateGrid, ParseError>> {
    let mut grids = vec![];
    // The rows of the grid being read, and the line it starts on (a border line, maybe).
    let mut block: Vec<(usize, Vec<Cell<'_>>)> = vec![];
    let mut start: Option<usize> = None;
    let mut end_block = |block: &mut Vec<(usize, Vec<Cell<'_>>)>, start: &mut Option<usize>| {
        if let Some(line) = start.take().filter(|_| !block.is_empty()) {
            grids.push(grid(line, block, opts));
        }
        block.clear();
    };
    for (lineno, line) in numbered_lines(text) {
        if line.trim_start().starts_with('#') {
            continue;
        }
        if line.trim().is_empty() {
            end_block(&mut block, &mut start);
            continue;
        }
        start.get_or_insert(lineno);
        if line.chars().any(|c| c.is_ascii_alphanumeric()) {
            block.push((lineno, cells(line, lineno)));
        }
    }
    end_block(&mut block, &mut start);
    grids
}

/// The cells of a row: runs of characters between whitespace and border characters.
fn cells(line: &str, lineno: usize) -> Vec<Cell<'_>> {
    let mut out = vec![];
    let mut begin: Option<usize> = None;
    let separator = |c: char| c.is_whitespace() || BORDER_CHARS.contains(&c);
    for (i, c) in line.char_indices().chain([(line.len(), ' ')]) {
        match (separator(c), begin) {
            (true, Some(b)) => {
                out.push(Cell {
                    line: lineno,
                    col: line[..b].chars().count() + 1,
                    text: &line[b..i],
                });
                begin = None;
            }
            (false, None) => begin = Some(i),
            _ => {}
        }
    }
    out
}

/// One grid from its rows of cells.
fn grid(
    start: usize,
    rows: &[(usize, Vec<Cell<'_>>)],
    opts: &ReadOptions,
) -> Result<CandidateGrid, ParseError> {
    let n = rows.len();
    if n > 9 {
        return Err(ParseError::new(
            rows[9].0,
            1,
            format!(
                "a grid with candidates has at most 9 rows (one digit per candidate), this one \
                 has {n}"
            ),
        ));
    }
    let mut givens = vec![0; n * n];
    let mut eliminations = vec![];
    for (r, (lineno, row)) in rows.iter().enumerate() {
        if row.len() != n {
            let col = row.get(n).map_or(1, |c| c.col);
            return Err(ParseError::new(
                *lineno,
                col,
                format!(
                    "row {} has {} cells, but the grid has {n} rows: a grid with candidates is \
                     n rows of n cells",
                    r + 1,
                    row.len()
                ),
            ));
        }
        for (c, cell) in row.iter().enumerate() {
            let mask = candidates(cell, n)?;
            let index = r * n + c;
            if mask.count_ones() == 1 {
                givens[index] = mask.trailing_zeros() as Value;
                continue;
            }
            for d in 1..=n as Value {
                if mask & (1 << d) == 0 {
                    eliminations.push((index, d));
                }
            }
        }
    }
    let shape = Shape::standard(n, opts.diagonals)
        .map_err(|e| ParseError::new(start, 1, format!("a grid of {n} rows: {e}")))?;
    let puzzle = Puzzle::new(Arc::new(shape), givens)
        .map_err(|e| ParseError::new(start, 1, e.to_string()))?;
    Ok(CandidateGrid {
        line: start,
        puzzle,
        eliminations,
    })
}

/// The candidates of a cell as bits `1 << d`.
fn candidates(cell: &Cell<'_>, n: usize) -> Result<u32, ParseError> {
    let mut mask = 0u32;
    for (i, ch) in cell.text.chars().enumerate() {
        let at = |message: String| ParseError::new(cell.line, cell.col + i, message);
        let d = match ch.to_digit(10) {
            Some(d) if (1..=n as u32).contains(&d) => d,
            _ => {
                return Err(at(format!(
                    "'{ch}' is not a candidate of a grid of side {n} (digits 1 to {n}) in cell \
                     '{}'",
                    cell.text
                )))
            }
        };
        if mask & (1 << d) != 0 {
            return Err(at(format!("digit {d} twice in cell '{}'", cell.text)));
        }
        mask |= 1 << d;
    }
    Ok(mask)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUDOPEDIA: &str = "\
.------------------.------------------.------------------.
| 19    7     169  | 2     156   3    | 459   8     49   |
| 3     4     5    | 7     9     8    | 1     2     6    |
| 2     169   8    | 16    4     156  | 3579  35    379  |
:------------------+------------------+------------------:
| 4     136   1367 | 5     1367  9    | 8     36    2    |
| 17    5     12367| 8     12367 4    | 367   9     37   |
| 8     369   23679| 36    2367  26   | 34567 3456  1    |
:------------------+------------------+------------------:
| 1579  139   13479| 13469 12356 1256 | 23469 346   8    |
| 159   8     1349 | 13469 12356 1256 | 23469 7     349  |
| 6     2     349  | 349   8     7    | 349   1     5    |
'------------------'------------------'------------------'
";

    #[test]
    fn a_printed_pencil_mark_grid_reads_with_its_givens_and_eliminations() {
        let grids = read_candidates(SUDOPEDIA, &ReadOptions::default());
        assert_eq!(grids.len(), 1, "{grids:?}");
        let g = grids[0].as_ref().unwrap();
        assert_eq!(g.line, 1);
        assert_eq!(
            write_line(&g.puzzle.givens_grid()).unwrap(),
            ".7.2.3.8.3457981262.8.4....4..5.98.2.5.8.4.9.8.......1........8.8.....7.62..87.15"
        );
        // r1c1 holds 1 and 9: the other seven digits are gone; r5c3 (12367) lacks 4, 5, 8, 9.
        let gone = |cell: usize| -> Vec<Value> {
            g.eliminations
                .iter()
                .filter(|(c, _)| *c == cell)
                .map(|&(_, d)| d)
                .collect()
        };
        assert_eq!(gone(0), vec![2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(gone(4 * 9 + 2), vec![4, 5, 8, 9]);
        assert_eq!(gone(1), Vec::<Value>::new());
    }

    #[test]
    fn bad_cells_and_rows_are_named_by_line_and_column() {
        let read = |text: &str| read_candidates(text, &ReadOptions::default()).remove(0);
        let err = |text: &str| read(text).unwrap_err();
        assert_eq!(
            err("12 34 3 4\n34 12 1 2\n1 2 34 12\n3 4 102 12\n"),
            ParseError::new(
                4,
                6,
                "'0' is not a candidate of a grid of side 4 (digits 1 to 4) in cell '102'"
            )
        );
        assert_eq!(err("12 34 3 4\n34 12 1 2\n1 2 34 5\n3 4 12 12\n").col, 8);
        assert_eq!(
            err("12 34 3 4\n34 121 1 2\n1 2 34 12\n3 4 12 12\n"),
            ParseError::new(2, 6, "digit 1 twice in cell '121'")
        );
        let short = err("|12 34 3 4|\n|34 12 1 2|\n|1 2 34|\n|3 4 12 12|\n");
        assert_eq!((short.line, short.col), (3, 1));
        assert!(short.message.starts_with("row 3 has 3 cells"), "{short}");
        let long = err("12 34 3 4\n34 12 1 2\n1 2 34 12 3\n3 4 12 12\n");
        assert_eq!((long.line, long.col), (3, 11));
        // Side 5 has no standard boxes.
        let five = "1 2 3 4 5\n".repeat(5);
        assert!(err(&five).message.contains("5 rows"), "{}", err(&five));
        // Two grids, separated by a blank line; the second one bad.
        let two = read_candidates(
            "12 34 3 4\n34 12 1 2\n1 2 34 12\n3 4 12 12\n\n# next\n1 2\n3\n",
            &ReadOptions::default(),
        );
        assert!(two[0].is_ok());
        assert_eq!(two[1].as_ref().unwrap_err().line, 8);
    }
}
