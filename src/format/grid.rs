//! The grid format ([`Format::Grid`]): blocks of `n` rows, optionally followed by `n` rows of
//! region labels.

use super::*;

/// Consecutive content lines, split at blank lines (comment lines are skipped).
pub(super) fn blocks(text: &str) -> Vec<Vec<(usize, &str)>> {
    let mut out: Vec<Vec<(usize, &str)>> = vec![];
    let mut cur = vec![];
    for (i, l) in numbered_lines(text) {
        let t = l.trim_start();
        if t.starts_with('#') {
            continue;
        }
        if t.is_empty() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        } else {
            cur.push((i, l));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Reads one grid block: `n` rows of values, optionally `n` rows of region labels.
pub(super) fn read_grid_block(
    block: &[(usize, &str)],
    shapes: &mut Shapes,
) -> Result<Entry, ParseError> {
    let rows: Vec<Vec<Token<'_>>> = block
        .iter()
        .map(|&(i, l)| line_tokens(l, i).collect())
        .collect();
    let first = rows[0][0];
    // Separated values, or one run of symbols per row.
    let separated = rows[0].len() > 1 || first.text.chars().count() == 1;
    let n = if separated {
        rows[0].len()
    } else {
        first.text.chars().count()
    };
    let last = *rows.last().and_then(|r| r.last()).unwrap_or(&first);
    let width = |row: &[Token<'_>]| -> Result<(), ParseError> {
        let (have, what) = if separated {
            (row.len(), "values")
        } else if row.len() > 1 {
            return Err(ParseError::at(
                &row[1],
                "unexpected separator: rows of this grid are runs of symbols with no spaces",
            ));
        } else {
            (row[0].text.chars().count(), "symbols")
        };
        if have == n {
            return Ok(());
        }
        // Point at the first extra value, or just after the row when values are missing.
        let col = match (have > n, separated) {
            (true, true) => row[n].col,
            (true, false) => row[0].col + n,
            (false, _) => row.last().map_or(1, Token::end_col),
        };
        Err(ParseError::new(
            row[0].line,
            col,
            format!("row has {have} {what}, expected {n} like the first row (ragged grid)"),
        ))
    };
    // A ragged row is the more precise complaint, so widths are checked first.
    for row in &rows {
        width(row)?;
    }
    if rows.len() != n && rows.len() != 2 * n {
        let (line, msg) = if rows.len() < n {
            (
                last.line + 1,
                format!(
                    "a {} grid needs {n} rows, this one has {}",
                    describe(n),
                    rows.len()
                ),
            )
        } else {
            (
                rows[n].first().map_or(last.line, |t| t.line),
                format!(
                    "a {} grid has {n} rows (or {} with region rows), this block has {}: separate puzzles with a blank line",
                    describe(n),
                    2 * n,
                    rows.len()
                ),
            )
        };
        return Err(ParseError::new(line, 1, msg));
    }
    let mut givens = Vec::with_capacity(n * n);
    for row in &rows[..n] {
        if separated {
            for t in row {
                givens.push(cell_value(t, n)?);
            }
        } else {
            push_symbols(&row[0], n, &mut givens)?;
        }
    }
    let shape = if rows.len() == n {
        shapes.standard(n, &first)?
    } else {
        let mut labels = RegionLabels::new(n);
        for row in &rows[n..] {
            if separated {
                for t in row {
                    labels.push(t.text, t);
                }
            } else {
                let r = row[0];
                for (i, c) in r.text.chars().enumerate() {
                    labels.push(
                        c.encode_utf8(&mut [0; 4]),
                        &Token {
                            col: r.col + i,
                            ..r
                        },
                    );
                }
            }
        }
        let at = rows[n][0];
        let map = labels.finish(&at)?;
        shapes.jigsaw(n, map, &at)?
    };
    Ok(Entry {
        line: first.line,
        puzzle: Puzzle::new(shape, givens).map_err(|e| model_error(&first, e))?,
        expected: None,
        warnings: vec![],
    })
}
