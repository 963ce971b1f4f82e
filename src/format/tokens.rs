//! Tokens and symbols: whitespace-separated tokens with their line and column, the symbols of
//! the line format and their values (shared with the judge parsers).

use super::*;

/// A whitespace-separated token with its 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token<'a> {
    pub line: usize,
    pub col: usize,
    pub text: &'a str,
}

impl Token<'_> {
    /// Column just after the token.
    pub fn end_col(&self) -> usize {
        self.col + self.text.chars().count()
    }
}

/// The tokens of one line, columns counted in characters (linear time).
pub(crate) fn line_tokens(line: &str, lineno: usize) -> impl Iterator<Item = Token<'_>> + '_ {
    // Columns are byte offsets in ASCII lines (the common case), else counted char by char.
    let ascii = line.is_ascii();
    let mut rest = line;
    let mut col = 1;
    std::iter::from_fn(move || {
        let trimmed = rest.trim_start();
        col += width(&rest[..rest.len() - trimmed.len()], ascii);
        if trimmed.is_empty() {
            return None;
        }
        let end = trimmed.find(char::is_whitespace).unwrap_or(trimmed.len());
        let (text, after) = trimmed.split_at(end);
        let t = Token {
            line: lineno,
            col,
            text,
        };
        col += width(text, ascii);
        rest = after;
        Some(t)
    })
}

/// Width of `s` in columns (characters).
pub(super) fn width(s: &str, ascii: bool) -> usize {
    if ascii {
        s.len()
    } else {
        s.chars().count()
    }
}

/// The lines of a text, numbered from 1, each without a byte order mark at its start (texts
/// joined with `cat` carry one at the start of each) and with trailing whitespace (and `\r`)
/// removed.
pub(crate) fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .map(|l| without_bom(l).trim_end())
        .zip(1..)
        .map(|(l, i)| (i, l))
}

/// A Killer cage sum, as every reader takes it: a whole number from 0 to `u32::MAX` (a sum no
/// digits reach is held, with a warning from the model). `negative` tells the number's sign and
/// `value` is the number when `u32` holds it; `written` is the number as the input wrote it.
pub(crate) fn cage_sum(negative: bool, value: Option<u32>, written: &str) -> Result<u32, String> {
    match value {
        _ if negative => Err(format!("negative cage sum {written}")),
        Some(sum) => Ok(sum),
        None => Err(format!(
            "cage sum {written} is out of range (0 to {})",
            u32::MAX
        )),
    }
}

/// A line without the byte order mark it may start with.
pub(crate) fn without_bom(line: &str) -> &str {
    line.strip_prefix('\u{feff}').unwrap_or(line)
}

/// Every token of a text, in order.
pub(crate) fn text_tokens(text: &str) -> impl Iterator<Item = Token<'_>> {
    numbered_lines(text).flat_map(|(i, l)| line_tokens(l, i))
}

/// The value of one line-format symbol: `Some(0)` for the empty markers `. 0 _ ? -`, `1`–`9`,
/// `A`–`Z`/`a`–`z` for 10–35; `None` for anything else.
pub fn symbol_value(c: char) -> Option<Value> {
    match c {
        '.' | '0' | '_' | '?' | '-' => Some(0),
        '1'..='9' => Some(c as Value - '0' as Value),
        'A'..='Z' => Some(c as Value - 'A' as Value + 10),
        'a'..='z' => Some(c as Value - 'a' as Value + 10),
        _ => None,
    }
}

/// A cell token of the grid or JSON forms: an empty marker, a decimal number or one letter.
pub(crate) fn token_value(t: &str) -> Option<Value> {
    if t.len() > 1 && t.bytes().all(|b| b.is_ascii_digit()) {
        return t.parse::<u32>().ok().and_then(|v| Value::try_from(v).ok());
    }
    let mut chars = t.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => symbol_value(c),
        _ => None,
    }
}

pub(super) fn describe(n: usize) -> String {
    format!("{n}×{n}")
}

pub(super) fn check_range(
    v: Value,
    n: usize,
    t: &Token<'_>,
    shown: &str,
) -> Result<Value, ParseError> {
    if v as usize > n {
        Err(ParseError::at(
            t,
            format!(
                "value {v} ('{shown}') is more than {n}, the side of this {} grid",
                describe(n)
            ),
        ))
    } else {
        Ok(v)
    }
}

/// Parses a grid/JSON cell token and checks it is at most `n`.
pub(crate) fn cell_value(t: &Token<'_>, n: usize) -> Result<Value, ParseError> {
    match token_value(t.text) {
        Some(v) => check_range(v, n, t, t.text),
        None => Err(ParseError::at(
            t,
            format!(
                "bad value '{}': expected a number 1..={n}, a letter A-Z, or an empty marker (. 0 _ ? -)",
                t.text
            ),
        )),
    }
}

/// Parses a run of symbols (line format, or a grid row without separators) into `out`.
pub(crate) fn push_symbols(
    t: &Token<'_>,
    n: usize,
    out: &mut Vec<Value>,
) -> Result<(), ParseError> {
    for (i, c) in t.text.chars().enumerate() {
        let at = Token {
            col: t.col + i,
            ..*t
        };
        let v = symbol_value(c).ok_or_else(|| {
            ParseError::at(
                &at,
                format!(
                    "bad symbol '{}': expected 1-9, A-Z or an empty marker (. 0 _ ? -)",
                    c.escape_debug()
                ),
            )
        })?;
        out.push(check_range(v, n, &at, c.encode_utf8(&mut [0; 4]))?);
    }
    Ok(())
}

pub(super) fn isqrt(x: usize) -> usize {
    let mut r = (x as f64).sqrt() as usize;
    while r * r > x {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= x {
        r += 1;
    }
    r
}

/// `Some(n)` when `len == n²`.
pub(super) fn square_side(len: usize) -> Option<usize> {
    let r = isqrt(len);
    (r * r == len && r > 0).then_some(r)
}

pub(super) fn wrong_length(t: &Token<'_>, len: usize, what: &str) -> ParseError {
    let r = isqrt(len).max(1);
    let (lo, hi) = (r, r + 1);
    ParseError::at(
        t,
        format!(
            "{len} {what}: a line puzzle has n² symbols (nearest: {} for {}, {} for {})",
            lo * lo,
            describe(lo),
            hi * hi,
            describe(hi)
        ),
    )
}
