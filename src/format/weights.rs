//! Weights files for `optimize` ([`read_weights`]).

use super::*;

/// Reads a weights file for a grid of side `n`: `n` rows of `n` integers (whitespace-separated,
/// `#` comments and blank lines skipped).
pub fn read_weights(text: &str, n: usize) -> Result<Weights, ParseError> {
    let mut weights = Vec::with_capacity(n * n);
    let mut rows = 0;
    let mut last = (0, 1);
    for (i, l) in content_lines(text) {
        if rows == n {
            return Err(ParseError::new(
                i,
                1,
                format!("more than {n} rows of weights for a {} grid", describe(n)),
            ));
        }
        let toks: Vec<Token<'_>> = line_tokens(l, i).collect();
        if toks.len() != n {
            let col = toks
                .get(n)
                .map_or_else(|| toks.last().map_or(1, Token::end_col), |t| t.col);
            return Err(ParseError::new(
                i,
                col,
                format!("{} weights in this row, expected {n}", toks.len()),
            ));
        }
        for t in &toks {
            let w = match t.text.parse::<i64>() {
                Ok(w) if Weights::in_range(w) => w,
                Ok(w) => return Err(ParseError::at(t, Weights::out_of_range(w))),
                // Digits only, but past i64.
                Err(_)
                    if t.text
                        .trim_start_matches('-')
                        .bytes()
                        .all(|b| b.is_ascii_digit()) =>
                {
                    return Err(ParseError::at(t, Weights::out_of_range(t.text)))
                }
                Err(_) => {
                    return Err(ParseError::at(
                        t,
                        format!("bad weight '{}': expected an integer", t.text),
                    ))
                }
            };
            weights.push(w);
        }
        rows += 1;
        last = (i, toks.last().map_or(1, Token::end_col));
    }
    if rows < n {
        return Err(ParseError::new(
            last.0 + 1,
            1,
            format!("{rows} rows of weights, expected {n}"),
        ));
    }
    Weights::new(n, weights).map_err(|e| ParseError::new(last.0, last.1, e.to_string()))
}
