//! The DIMACS export of an encoding: its header (how to decode a model), the file, and the
//! decoding of a model in the formula's numbering.

use super::*;

/// The comment header of a DIMACS file: how to decode a model.
///
/// `fixed` is the digit of every cell fixed before encoding ([`Decoder::fixed`]); it differs from
/// the givens only with `propagate`, and is then written out so that a model can be decoded.
pub fn dimacs_header(
    puzzle: &Puzzle,
    opts: &EncodeOptions,
    stats: &EncodeStats,
    fixed: &[Value],
) -> Vec<String> {
    let n = puzzle.size();
    let mut h = vec![
        format!(
            "sudoku-lab CNF: side {n}, encoding {}, at-most-one {}, givens {}",
            opts.encoding,
            opts.amo,
            if opts.simplify {
                "simplified away"
            } else {
                "as unit clauses"
            }
        ),
        format!(
            "variable x(cell, digit) = cell*{n} + digit, cell = row*{n} + col (row, col from 0), digit 1..{n}"
        ),
        format!(
            "a model puts digit d in cell c when x(c, d) is true; variables above {} are auxiliary (total {})",
            n * n * n,
            stats.total().vars
        ),
    ];
    let propagated = opts.simplify && opts.propagate;
    let listed = if propagated {
        h.push(
            "given cells and the cells fixed by propagation (singles, locked candidates) keep the digits listed below (their variables appear in no clause)"
                .into(),
        );
        h.push("fixed digits (row by row, 0 = left to the solver):".into());
        fixed
    } else {
        if opts.simplify {
            h.push(
                "given cells keep their given digit (their variables, fixed by simplification, appear in no clause)"
                    .into(),
            );
        }
        h.push("givens (row by row, 0 = empty):".into());
        puzzle.givens()
    };
    for row in listed.chunks(n) {
        let r: Vec<String> = row.iter().map(|v| v.to_string()).collect();
        h.push(format!("  {}", r.join(" ")));
    }
    h.extend(stats.to_string().lines().map(|l| format!("stats {l}")));
    h
}

/// Encodes `puzzle` in the formula numbering and writes DIMACS CNF with the decoding header
/// (`sudoku-lab encode --to dimacs`). Returns the per-part statistics (`--stats`).
pub fn to_dimacs(
    puzzle: &Puzzle,
    opts: &EncodeOptions,
    out: &mut impl io::Write,
) -> io::Result<EncodeStats> {
    let mut cnf = Cnf::new();
    let enc = encode(puzzle, opts, Numbering::Formula, &mut cnf);
    let header = dimacs_header(puzzle, opts, &enc.stats, enc.decoder.fixed());
    dimacs::write(&cnf, &header, out)?;
    Ok(enc.stats)
}

/// The DIMACS number of "cell (`row`, `col`) holds `digit`" in the formula numbering that
/// [`to_dimacs`] writes (and its header states): `cell * n + digit`, with `cell = row * n + col`
/// (row and column from 0, digit from 1). `None` when a coordinate is outside the grid.
///
/// ```
/// use sudoku_lab::sat::encode::dimacs_var;
/// assert_eq!(dimacs_var(9, 0, 0, 1), Some(1));
/// assert_eq!(dimacs_var(9, 8, 8, 9), Some(729));
/// assert_eq!(dimacs_var(9, 0, 9, 1), None);
/// ```
pub fn dimacs_var(n: usize, row: usize, col: usize, digit: usize) -> Option<i64> {
    (row < n && col < n && (1..=n).contains(&digit)).then(|| ((row * n + col) * n + digit) as i64)
}

/// The grid a DIMACS model (formula numbering, as written by [`to_dimacs`] with the same
/// `opts`) stands for. `model` holds the true literals (DIMACS numbers, positive or negative, any
/// order); cells fixed before encoding (givens, and with `propagate` the propagated cells) come
/// from the puzzle.
pub fn decode_dimacs_model(puzzle: &Puzzle, opts: &EncodeOptions, model: &[i64]) -> Grid {
    let n = puzzle.size();
    let mut cells = if opts.simplify && opts.propagate {
        let (state, _) = fixed_values(puzzle, opts);
        state
            .chunks(n)
            .map(|c| {
                c.iter()
                    .position(|&s| s == TRUE)
                    .map_or(0, |d| d as Value + 1)
            })
            .collect()
    } else {
        puzzle.givens().to_vec()
    };
    for &x in model {
        if x > 0 && (x as usize) <= n * n * n {
            let i = x as usize - 1;
            let (c, d) = (i / n, i % n + 1);
            if cells[c] == 0 {
                cells[c] = d as Value;
            }
        }
    }
    Grid::new(n, cells)
}
