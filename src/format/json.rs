//! The JSON formats ([`Format::Json`], [`Format::Fpuzzles`]): LeetCode boards, the lab's puzzle
//! objects and f-puzzles documents, with the position of every value for errors.

use super::*;
use crate::counted::counted;

/// Positions of the JSON tokens in document order: `[`/`{` opens, `]`/`}` closes, scalars (strings,
/// numbers, literals, object keys included). serde_json has already checked the syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum JsonEvent {
    Open(usize, usize),
    Close,
    Scalar(usize, usize),
}

pub(super) fn json_events(text: &str) -> Vec<JsonEvent> {
    let mut out = vec![];
    let (mut line, mut col) = (1, 0);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        col += 1;
        match c {
            '\n' => (line, col) = (line + 1, 0),
            '[' | '{' => out.push(JsonEvent::Open(line, col)),
            ']' | '}' => out.push(JsonEvent::Close),
            '"' => {
                out.push(JsonEvent::Scalar(line, col));
                let mut escaped = false;
                for c in chars.by_ref() {
                    col += 1;
                    match (escaped, c) {
                        (false, '\\') => escaped = true,
                        (false, '"') => break,
                        _ => escaped = false,
                    }
                }
            }
            c if c == '-' || c.is_ascii_alphanumeric() => {
                out.push(JsonEvent::Scalar(line, col));
                while chars
                    .peek()
                    .is_some_and(|&c| c.is_ascii_alphanumeric() || "+-.".contains(c))
                {
                    chars.next();
                    col += 1;
                }
            }
            _ => {}
        }
    }
    out
}

/// Walks a `serde_json::Value` alongside its [`JsonEvent`]s, so every value has a position.
pub(super) struct JsonCursor {
    pub(super) events: Vec<JsonEvent>,
    pub(super) next: usize,
}

impl JsonCursor {
    /// Position of the next value; `(1, 1)` if the events ran out (cannot happen on valid JSON).
    pub(super) fn here(&self) -> Token<'static> {
        let (line, col) = match self.events.get(self.next) {
            Some(JsonEvent::Open(l, c) | JsonEvent::Scalar(l, c)) => (*l, *c),
            _ => (1, 1),
        };
        Token {
            line,
            col,
            text: "",
        }
    }
    /// Consumes one event.
    pub(super) fn step(&mut self) {
        self.next += 1;
    }
    /// Skips the value at the cursor (a scalar, or a whole array or object).
    pub(super) fn skip(&mut self) {
        let mut depth = 0usize;
        while let Some(e) = self.events.get(self.next) {
            self.next += 1;
            match e {
                JsonEvent::Open(..) => depth += 1,
                JsonEvent::Close => depth = depth.saturating_sub(1),
                JsonEvent::Scalar(..) => {}
            }
            if depth == 0 {
                break;
            }
        }
    }
}

/// A JSON value with where it starts and its first event, so that what is inside it can be
/// located too.
#[derive(Clone, Copy)]
pub(super) struct Node<'a> {
    pub(super) value: &'a serde_json::Value,
    pub(super) at: Token<'static>,
    pub(super) event: usize,
}

impl<'a> Node<'a> {
    /// The value at the cursor.
    pub(super) fn here(value: &'a serde_json::Value, cur: &JsonCursor) -> Node<'a> {
        Node {
            value,
            at: cur.here(),
            event: cur.next,
        }
    }
    /// The items of an array (empty for anything else).
    pub(super) fn items(&self, cur: &mut JsonCursor) -> Vec<Node<'a>> {
        let serde_json::Value::Array(items) = self.value else {
            return vec![];
        };
        cur.next = self.event + 1; // after '['
        items
            .iter()
            .map(|v| {
                let node = Node::here(v, cur);
                cur.skip();
                node
            })
            .collect()
    }
    /// The members of an object, in document order (empty for anything else).
    pub(super) fn fields(&self, cur: &mut JsonCursor) -> Vec<(&'a str, Node<'a>)> {
        let serde_json::Value::Object(fields) = self.value else {
            return vec![];
        };
        cur.next = self.event + 1; // after '{'
        fields
            .iter()
            .map(|(k, v)| {
                cur.step(); // the key
                let node = Node::here(v, cur);
                cur.skip();
                (k.as_str(), node)
            })
            .collect()
    }
}

/// The column, counted in characters as everywhere in the readers, of serde_json's `byte_column`
/// (counted in bytes) on line `line` of `text`; at least 1.
pub(super) fn char_column(text: &str, line: usize, byte_column: usize) -> usize {
    let chars = text.lines().nth(line - 1).map_or(byte_column, |l| {
        l.char_indices()
            .take_while(|&(i, _)| i < byte_column)
            .count()
    });
    chars.max(1)
}

/// A JSON value read as `serde_json::Value` reads it, except that a key given twice in one object
/// is an error naming the key, placed by serde_json (which would keep the last: a `board` or
/// `rules` given twice would change the puzzle without a word).
pub(super) struct UniqueKeys(pub(super) serde_json::Value);

impl<'de> serde::Deserialize<'de> for UniqueKeys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<UniqueKeys, D::Error> {
        d.deserialize_any(UniqueKeysVisitor).map(UniqueKeys)
    }
}

struct UniqueKeysVisitor;

impl<'de> serde::de::Visitor<'de> for UniqueKeysVisitor {
    type Value = serde_json::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(v.into())
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = vec![];
        while let Some(UniqueKeys(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(items.into())
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut fields = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if fields.contains_key(&key) {
                return Err(serde::de::Error::custom(format!(
                    "key \"{}\" given twice in one object",
                    key.escape_debug()
                )));
            }
            let UniqueKeys(v) = map.next_value()?;
            fields.insert(key, v);
        }
        Ok(fields.into())
    }
}

pub(super) fn read_json(text: &str, shapes: &mut Shapes) -> Vec<Result<Entry, ParseError>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // One JSON value, or several one after another (JSON Lines: one document per line).
    let values: Vec<serde_json::Value> = match serde_json::Deserializer::from_str(text)
        .into_iter::<UniqueKeys>()
        .map(|v| v.map(|UniqueKeys(v)| v))
        .collect()
    {
        Ok(v) => v,
        Err(_) if json_lines_form(text) => return read_json_lines(text, shapes),
        Err(e) => {
            let msg = e.to_string();
            let msg = msg
                .rsplit_once(" at line ")
                .map_or(msg.as_str(), |(m, _)| m);
            let line = e.line().max(1);
            return vec![Err(ParseError::new(
                line,
                char_column(text, line, e.column()),
                format!("invalid JSON: {msg}"),
            ))];
        }
    };
    if values.is_empty() {
        return vec![Err(ParseError::new(1, 1, "invalid JSON: no value"))];
    }
    let mut cur = JsonCursor {
        events: json_events(text),
        next: 0,
    };
    let mut out = vec![];
    for value in &values {
        use serde_json::Value as J;
        let is_board_list = match value {
            J::Array(items) => {
                matches!(items.first(), Some(J::Array(rows)) if matches!(rows.first(), Some(J::Array(_))))
                    || matches!(items.first(), Some(J::Object(_)))
            }
            _ => false,
        };
        let J::Array(boards) = value else {
            out.push(json_board(value, &mut cur, shapes));
            continue;
        };
        if !is_board_list {
            out.push(json_board(value, &mut cur, shapes));
            continue;
        }
        cur.step(); // the outer '['
        out.extend(boards.iter().map(|b| json_board(b, &mut cur, shapes)));
        cur.step(); // the outer ']'
    }
    out
}

/// Whether `text` is JSON Lines: its first non-blank line a JSON value by itself, and more lines
/// after it. A document written over several lines (pretty-printed) is not.
pub(super) fn json_lines_form(text: &str) -> bool {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let first = lines.next().unwrap_or("");
    lines.next().is_some() && serde_json::from_str::<serde_json::Value>(first).is_ok()
}

/// JSON Lines whose whole text is not a stream of JSON values, read line by line: a line that is
/// not JSON is an error of its own, at its own line, and every other line is read, as a batch
/// goes on past a bad puzzle in the other formats.
pub(super) fn read_json_lines(text: &str, shapes: &mut Shapes) -> Vec<Result<Entry, ParseError>> {
    let mut out = vec![];
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        // One line holds no second line, so this reads it as one document.
        out.extend(
            read_json(line, shapes)
                .into_iter()
                .map(|r| shift_lines(r, i)),
        );
    }
    out
}

/// One board at the cursor; always leaves the cursor after it.
pub(super) fn json_board(
    board: &serde_json::Value,
    cur: &mut JsonCursor,
    shapes: &mut Shapes,
) -> Result<Entry, ParseError> {
    let node = Node::here(board, cur);
    let mut warnings = vec![];
    let result = match board {
        serde_json::Value::Object(fields) if fields.contains_key("grid") => {
            let members = node.fields(cur);
            let mut locate = |key: &str, path: &[usize]| {
                let mut at = members.iter().find(|(k, _)| *k == key)?.1;
                for &i in path {
                    at = *at.items(cur).get(i)?;
                }
                Some(at.at)
            };
            fpuzzles_puzzle(board, &node.at, &mut locate, &mut warnings)
        }
        serde_json::Value::Object(_) => object::read(&node, cur, shapes, &mut warnings),
        _ => json_board_inner(board, cur, shapes, &node.at).map(|p| (p, None)),
    };
    // Re-synchronise whatever happened inside.
    cur.next = node.event;
    cur.skip();
    result.map(|(puzzle, expected)| Entry {
        line: node.at.line,
        puzzle,
        expected,
        warnings,
    })
}

/// Where in the text the item `path` (array indices, see [`fpuzzles::FpuzzlesError::path`]) of
/// the value of a document's member starts; `None` when the text is not at hand or has no such
/// item.
type Locate<'l> = dyn FnMut(&str, &[usize]) -> Option<Token<'static>> + 'l;

/// An f-puzzles document at `at`, with its `solution` as the known answer: the one solution,
/// which f-puzzles and SudokuPad hold a solver's grid against. An error is placed at the item it
/// names inside the member it names (a cell of `grid`), else at that member's value, else at the
/// document's start; what the reader ignores becomes warnings.
pub(super) fn fpuzzles_puzzle(
    doc: &serde_json::Value,
    at: &Token<'_>,
    locate: &mut Locate<'_>,
    warnings: &mut Vec<ParseError>,
) -> Result<(Puzzle, Option<Expected>), ParseError> {
    let at = Token { text: "", ..*at };
    let solution_at = locate("solution", &[]).unwrap_or(at);
    let mut located = |e: fpuzzles::FpuzzlesError| {
        let key = e.key.as_deref().unwrap_or_default();
        let place = (locate(key, &e.path)).or_else(|| locate(key, &[]));
        ParseError::at(&place.unwrap_or(at), format!("f-puzzles: {e}"))
    };
    let (puzzle, notes) = fpuzzles::from_json(doc).map_err(&mut located)?;
    warnings.extend(notes.into_iter().map(|m| ParseError::at(&at, m)));
    let mut notes = vec![];
    let solution = fpuzzles::solution(doc, puzzle.size(), &mut notes).map_err(&mut located)?;
    warnings.extend(notes.into_iter().map(|m| ParseError::at(&solution_at, m)));
    let expected = match solution {
        Some(grid) => Some(Expected {
            count: 1,
            solution: Some(known_solution(&puzzle, grid, &solution_at)?),
        }),
        None => None,
    };
    Ok((puzzle, expected))
}

/// Compressed f-puzzles documents (links or LZ-string base64), one per content line.
pub(super) fn read_compressed_fpuzzles(text: &str) -> Vec<Result<Entry, ParseError>> {
    content_lines(text)
        .map(|(line, l)| {
            let at = Token {
                line,
                col: 1 + l.len() - l.trim_start().len(),
                text: "",
            };
            let json = fpuzzles::decompress(l).map_err(|e| ParseError::at(&at, e.to_string()))?;
            let doc = serde_json::from_str(&json)
                .map(|UniqueKeys(v)| v)
                .map_err(|e| {
                    ParseError::at(
                        &at,
                        format!("the compressed f-puzzles JSON is invalid: {e}"),
                    )
                })?;
            let mut warnings = vec![];
            let (puzzle, expected) = fpuzzles_puzzle(&doc, &at, &mut |_, _| None, &mut warnings)?;
            Ok(Entry {
                line,
                puzzle,
                expected,
                warnings,
            })
        })
        .collect()
}

/// A LeetCode board at the cursor, with the standard boxes.
pub(super) fn json_board_inner(
    board: &serde_json::Value,
    cur: &mut JsonCursor,
    shapes: &mut Shapes,
    start: &Token<'_>,
) -> Result<Puzzle, ParseError> {
    let (n, givens) = json_givens(board, cur, start)?;
    let shape = shapes.standard(n, start)?;
    Puzzle::new(shape, givens).map_err(|e| model_error(start, e))
}

/// The side and the cells of a LeetCode board at the cursor (`start`): `n` rows of `n`
/// one-value strings or numbers.
pub(super) fn json_givens(
    board: &serde_json::Value,
    cur: &mut JsonCursor,
    start: &Token<'_>,
) -> Result<(usize, Vec<Value>), ParseError> {
    use serde_json::Value as J;
    let not_board = || {
        ParseError::at(
            start,
            "expected a board: an array of n rows, each an array of n one-value strings like \"5\" or \".\"",
        )
    };
    let J::Array(rows) = board else {
        return Err(not_board());
    };
    let n = rows.len();
    if n == 0 {
        return Err(not_board());
    }
    cur.step();
    let mut givens = Vec::with_capacity(n * n);
    for (r, row) in rows.iter().enumerate() {
        let row_at = cur.here();
        let J::Array(cells) = row else {
            return Err(ParseError::at(
                &row_at,
                format!("row {} is not an array", r + 1),
            ));
        };
        if cells.len() != n {
            return Err(ParseError::at(
                &row_at,
                format!(
                    "row {} has {}, expected {n} (a board of {} is {})",
                    r + 1,
                    counted(cells.len(), "cell"),
                    counted(n, "row"),
                    describe(n)
                ),
            ));
        }
        cur.step();
        for cell in cells {
            let at = cur.here();
            let v = match cell {
                J::String(s) => cell_value(&Token { text: s, ..at }, n)?,
                J::Number(num) => {
                    let shown = num.to_string();
                    let t = Token { text: &shown, ..at };
                    let v = num
                        .as_u64()
                        .and_then(|v| Value::try_from(v).ok())
                        .ok_or_else(|| ParseError::at(&t, format!("bad value {shown}")))?;
                    check_range(v, n, &t, &shown)?
                }
                _ => {
                    return Err(ParseError::at(
                        &at,
                        format!("expected a one-value string like \"5\" or \".\", found {cell}"),
                    ))
                }
            };
            givens.push(v);
            cur.skip();
        }
        cur.step(); // ']'
    }
    Ok((n, givens))
}
