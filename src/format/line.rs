//! The line format ([`Format::Line`]): one puzzle per line, with its region labels, cages and
//! known answer; also read one line at a time from a stream ([`LineReader`]).

use super::*;

/// The line format read one line at a time, for input that arrives as a stream (standard
/// input): the same puzzles, errors and line numbers as [`puzzles`] with [`Format::Line`].
pub struct LineReader {
    pub(super) shapes: Shapes,
}

impl LineReader {
    pub fn new(opts: &ReadOptions) -> LineReader {
        LineReader {
            shapes: Shapes::new(opts.diagonals),
        }
    }

    /// The puzzle on line `lineno` (1-based; `line` without its line break), or `None` for a
    /// blank or comment line.
    pub fn read(&mut self, line: &str, lineno: usize) -> Option<Result<Entry, ParseError>> {
        let line = without_bom(line).trim_end();
        let t = line.trim_start();
        (!t.is_empty() && !t.starts_with('#'))
            .then(|| read_line_puzzle(line, lineno, &mut self.shapes))
    }
}

/// Non-blank, non-comment lines.
pub(crate) fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    numbered_lines(text).filter(|(_, l)| {
        let t = l.trim_start();
        !t.is_empty() && !t.starts_with('#')
    })
}

pub(super) fn read_line_puzzle(
    line: &str,
    lineno: usize,
    shapes: &mut Shapes,
) -> Result<Entry, ParseError> {
    let mut toks = line_tokens(line, lineno);
    let Some(first) = toks.next() else {
        return Err(ParseError::new(lineno, 1, "empty line"));
    };
    let mut fields = first.text.split(':').scan(first.col, |col, text| {
        let t = Token {
            text,
            col: *col,
            ..first
        };
        *col += text.chars().count() + 1;
        Some(t)
    });
    let t = fields.next().unwrap_or(first);
    let known: Vec<Token<'_>> = fields.collect();
    // After the givens: region labels (jigsaw), cage labels and sums (Killer), or both.
    let rest: Vec<Token<'_>> = toks.collect();
    unexpected_token(line, lineno, &rest)?;
    let (regions, cages) = match rest.as_slice() {
        [] => (None, None),
        [r] => (Some(*r), None),
        [c, sums] => (None, Some((*c, *sums))),
        [r, c, sums] => (Some(*r), Some((*c, *sums))),
        [_, _, _, extra, ..] => {
            return Err(ParseError::at(
                extra,
                format!(
                    "unexpected '{}' after the puzzle: a line holds the puzzle, then optionally its region labels, then optionally cage labels and cage sums",
                    extra.text
                ),
            ))
        }
    };
    let mut puzzle = line_puzzle(&t, regions, shapes)?;
    let mut warnings = vec![];
    if let Some((labels, sums)) = cages {
        puzzle = line_cages(puzzle, &labels, &sums, &mut warnings)?;
    }
    let expected = match known.as_slice() {
        [] => None,
        [count] => Some(read_expected(&puzzle, count, None)?),
        [count, solution] => Some(read_expected(&puzzle, count, Some(solution))?),
        [_, _, extra, ..] => {
            return Err(ParseError::new(
                lineno,
                extra.col - 1,
                format!(
                    "{} ':'-separated fields, expected puzzle:count[:solution]",
                    known.len() + 1
                ),
            ))
        }
    };
    Ok(Entry {
        line: lineno,
        puzzle,
        expected,
        warnings,
    })
}

/// What a line holds that cannot be part of a puzzle line (`rest`: its tokens after the
/// givens), with a message that says why: a carriage return inside the line (a text with old Mac
/// line ends, which are not read), a comment after the puzzle, or a token after the cage sums (a
/// space inside the sum list, or an extra word).
fn unexpected_token(line: &str, lineno: usize, rest: &[Token<'_>]) -> Result<(), ParseError> {
    if let Some(i) = line.find('\r') {
        return Err(ParseError::new(
            lineno,
            line[..i].chars().count() + 1,
            "a carriage return inside the line: line ends are LF or CRLF (CR alone is not read)",
        ));
    }
    if let Some(t) = rest.iter().find(|t| t.text.starts_with('#')) {
        return Err(ParseError::at(
            t,
            "a comment after the puzzle: comments are lines of their own, starting with '#'",
        ));
    }
    // The sums: after the cage labels (so not first), digits and commas (labels hold none).
    let sums = |t: &Token<'_>| {
        t.text.contains(',')
            && (t.text.bytes()).all(|b| b.is_ascii_digit() || b == b',' || b == b'-')
    };
    match rest.iter().skip(1).position(sums) {
        Some(i) if i + 2 < rest.len() => {
            let extra = &rest[i + 2];
            Err(ParseError::at(
                extra,
                format!(
                    "unexpected token '{}' after the cage sums '{}': the sums are one \
                     comma-separated list, with no spaces",
                    extra.text,
                    rest[i + 1].text
                ),
            ))
        }
        _ => Ok(()),
    }
}

/// The Killer cages of a line puzzle: `labels` gives every cell's cage (`.` for none; labels
/// `0-9a-zA-Z`, case-sensitive, cages numbered in order of first appearance) and `sums` the cage
/// sums in that order, comma-separated: at most 62 cages (the JSON form has no such limit). A
/// cage that is not in one piece gets a warning.
pub(super) fn line_cages(
    puzzle: Puzzle,
    labels: &Token<'_>,
    sums: &Token<'_>,
    warnings: &mut Vec<ParseError>,
) -> Result<Puzzle, ParseError> {
    let n = puzzle.size();
    let len = labels.text.chars().count();
    if len != n * n {
        return Err(ParseError::at(
            labels,
            format!(
                "{len} cage labels, the {} puzzle needs {} (one per cell, '.' for a cell in no cage)",
                describe(n),
                n * n
            ),
        ));
    }
    let mut order: Vec<char> = vec![];
    let mut cells: Vec<Vec<u32>> = vec![];
    for (i, c) in labels.text.chars().enumerate() {
        if c == '.' {
            continue;
        }
        if !c.is_ascii_alphanumeric() {
            return Err(ParseError::new(
                labels.line,
                labels.col + i,
                format!(
                    "bad cage label '{}': use 0-9, a-z, A-Z, or '.' for no cage",
                    c.escape_debug()
                ),
            ));
        }
        let k = match order.iter().position(|&o| o == c) {
            Some(k) => k,
            None => {
                order.push(c);
                cells.push(vec![]);
                order.len() - 1
            }
        };
        cells[k].push(i as u32);
    }
    let mut values = vec![];
    let mut col = sums.col;
    for field in sums.text.split(',') {
        let at = Token {
            col,
            text: field,
            ..*sums
        };
        col += field.chars().count() + 1;
        let digits = field.strip_prefix(['-', '+']).unwrap_or(field);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseError::at(
                &at,
                format!("bad cage sum '{field}': cage sums are whole numbers separated by commas"),
            ));
        }
        let negative = field.starts_with('-') && digits.bytes().any(|b| b != b'0');
        let sum = cage_sum(negative, digits.parse().ok(), field)
            .map_err(|message| ParseError::at(&at, message))?;
        values.push((sum, at));
    }
    if values.len() != cells.len() {
        return Err(ParseError::at(
            sums,
            format!(
                "{} cage sums for {} cages (one per distinct label, in order of first appearance)",
                values.len(),
                cells.len()
            ),
        ));
    }
    let cages: Vec<model::Cage> = cells
        .into_iter()
        .zip(&values)
        .map(|(c, &(sum, _))| model::Cage::new(c, sum))
        .collect();
    for (cage, (label, (_, at))) in cages.iter().zip(order.iter().zip(&values)) {
        if !cage.connected(n) {
            warnings.push(ParseError::at(
                at,
                format!(
                    "cage '{label}' is not in one piece (allowed: some puzzles use such cages)"
                ),
            ));
        }
    }
    let constraints = cages.into_iter().map(model::Constraint::Cage).collect();
    let puzzle = puzzle.with_constraints(constraints).map_err(|e| match e {
        ModelError::BadCage { cage, message } => ParseError::at(
            &values[cage - 1].1,
            format!("cage '{}': {message}", order[cage - 1]),
        ),
        e => model_error(sums, e),
    })?;
    // A sum no digits reach: the puzzle has no solution, which the reader says.
    warnings.extend(puzzle.rule_warnings().into_iter().map(|w| {
        let label = order[w.index - 1];
        ParseError::at(
            &values[w.index - 1].1,
            format!("cage '{label}': {}", w.message),
        )
    }));
    Ok(puzzle)
}

/// The `count[:solution]` after a line puzzle. The solution must solve the puzzle (an empty
/// solution field counts as absent).
pub(super) fn read_expected(
    puzzle: &Puzzle,
    count: &Token<'_>,
    solution: Option<&Token<'_>>,
) -> Result<Expected, ParseError> {
    let c = count.text.parse::<u64>().map_err(|_| {
        ParseError::at(
            count,
            format!(
                "bad solution count '{}' after the puzzle (puzzle:count[:solution])",
                count.text
            ),
        )
    })?;
    let solution = match solution {
        Some(s) if !s.text.is_empty() => {
            let n = puzzle.size();
            let len = s.text.chars().count();
            if len != n * n {
                return Err(ParseError::at(
                    s,
                    format!("the solution has {len} symbols, expected {}", n * n),
                ));
            }
            let mut cells = Vec::with_capacity(n * n);
            push_symbols(s, n, &mut cells)?;
            let grid = known_solution(puzzle, Grid::new(n, cells), s)?;
            if c == 0 {
                return Err(ParseError::at(
                    count,
                    "a solution is given but the count says there is none",
                ));
            }
            Some(grid)
        }
        _ => None,
    };
    Ok(Expected { count: c, solution })
}

/// `grid`, the known solution given with `puzzle` at `at`, when it solves the puzzle.
pub(super) fn known_solution(
    puzzle: &Puzzle,
    grid: Grid,
    at: &Token<'_>,
) -> Result<Grid, ParseError> {
    match check::verify(puzzle, &grid) {
        Ok(()) => Ok(grid),
        Err(e) => Err(ParseError::at(
            at,
            format!("the solution given does not solve the puzzle: {e}"),
        )),
    }
}

/// A line puzzle from its symbols token and, for a jigsaw, its region-labels token.
pub(super) fn line_puzzle(
    t: &Token<'_>,
    regions: Option<Token<'_>>,
    shapes: &mut Shapes,
) -> Result<Puzzle, ParseError> {
    if let Some(givens) = fast_symbols(t.text) {
        let n = square_side(givens.len()).unwrap_or(0);
        let shape = match regions {
            None => shapes.standard(n, t)?,
            Some(r) => line_regions(n, givens.len(), r, shapes)?,
        };
        return Puzzle::new(shape, givens).map_err(|e| model_error(t, e));
    }
    // Slow path, with a precise error.
    // Report a foreign character before a length that it may explain.
    if let Some((i, (b, _))) = t
        .text
        .char_indices()
        .enumerate()
        .find(|&(_, (_, c))| symbol_value(c).is_none())
    {
        let rest = Token {
            col: t.col + i,
            text: &t.text[b..],
            ..*t
        };
        push_symbols(&rest, MAX_LINE_SIDE, &mut Vec::new())?;
    }
    let len = t.text.chars().count();
    let n = square_side(len).ok_or_else(|| wrong_length(t, len, "symbols"))?;
    if n > MAX_LINE_SIDE {
        return Err(ParseError::at(
            t,
            format!(
                "a {} puzzle cannot be written in line format (sides up to {MAX_LINE_SIDE}): use the grid format",
                describe(n)
            ),
        ));
    }
    let mut givens = Vec::with_capacity(len);
    push_symbols(t, n, &mut givens)?;
    let shape = match regions {
        None => shapes.standard(n, t)?,
        Some(r) => line_regions(n, len, r, shapes)?,
    };
    Puzzle::new(shape, givens).map_err(|e| model_error(t, e))
}

/// The givens of a well-formed line puzzle (ASCII symbols, `n²` of them with `n ≤ 35`, every
/// value at most `n`); `None` when anything is off, and the slow path then says what.
pub(super) fn fast_symbols(text: &str) -> Option<Vec<Value>> {
    let n = square_side(text.len()).filter(|&n| n <= MAX_LINE_SIDE)?;
    text.bytes()
        .map(|b| symbol_value(b as char).filter(|&v| v as usize <= n))
        .collect()
}

/// The shape of a line jigsaw from its region-labels token.
pub(super) fn line_regions(
    n: usize,
    len: usize,
    r: Token<'_>,
    shapes: &mut Shapes,
) -> Result<Arc<Shape>, ParseError> {
    let rlen = r.text.chars().count();
    if rlen != len {
        return Err(ParseError::at(
            &r,
            format!(
                "{rlen} region labels, the {} puzzle needs {len}",
                describe(n)
            ),
        ));
    }
    let mut labels = RegionLabels::new(n);
    for (i, c) in r.text.chars().enumerate() {
        let at = Token {
            col: r.col + i,
            ..r
        };
        if !c.is_ascii_alphanumeric() {
            return Err(ParseError::at(
                &at,
                format!("bad region label '{}': use 0-9 or a-z", c.escape_debug()),
            ));
        }
        labels.push(c.encode_utf8(&mut [0; 4]), &at);
    }
    let map = labels.finish(&r)?;
    shapes.jigsaw(n, map, &r)
}
