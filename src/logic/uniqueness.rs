//! Techniques that assume the puzzle has one solution: unique rectangles (types 1 to 6), hidden
//! and avoidable rectangles, and BUG+1. A ladder built with
//! [`crate::logic::Ladder::without_uniqueness`] leaves them out.
//!
//! A unique rectangle is four empty cells in two rows and two columns where the digits `a`
//! and `b` may go, such that swapping `a` and `b` in them would leave every house as it was
//! (each house holds none or two of the corners, in one row or one column): a deadly pattern,
//! which the extra candidates (those other than `a` and `b`) must break. On diagonals and
//! jigsaw regions the house rule decides. As in HoDoKu, at least one corner holds `a` and `b`
//! alone; the others need neither digit placed in one of their houses, but may have lost one
//! to a step (HoDoKu's default, "allow missing candidates"): the four cells holding `a` and `b`
//! would still give two solutions.
//!
//! * Type 1: one corner has extra candidates: it loses `a` and `b`.
//! * Type 2: two corners in one row or column have the same one extra `c`: a cell seeing both
//!   loses `c`.
//! * Type 3: two corners in one house have extras: they act as one cell of the extras, which
//!   forms a naked subset with other cells of the house holding neither `a` nor `b`.
//! * Type 4: two corners in one row or column have extras and no other cell seeing both holds
//!   `a`: `a` lies on one of them (each house they share needs it), so both lose `b`.
//! * Type 5: two diagonal corners, or three corners, have the same one extra `c`: a cell seeing
//!   them all loses `c`.
//! * Type 6: two diagonal corners have extras and `a` has no place outside the corners in the
//!   rectangle's two rows and two columns: `a` lies on the other diagonal, so those corners
//!   lose it.
//! * Hidden rectangle: one corner holds `a` and `b` alone (or two diagonal ones do) and, in the
//!   row and the column of the opposite corner, `a` has no place outside the rectangle: the
//!   opposite corner loses `b` (if it took `b`, `a` would fill the two corners beside it and
//!   the first corner would take `b`).
//!
//! An avoidable rectangle is the same pattern over cells that steps have filled (never
//! givens): swapping the digits of four such cells would give a second solution too.
//!
//! * Type 1: three corners are filled with `a`, `b`, `a` around the rectangle: the fourth,
//!   holding two candidates, loses `b`.
//! * Type 2: two corners of one row or column are filled with `a` and `b`, and the other two
//!   hold `b`, `c` and `a`, `c` (beside the `a` and the `b`): one of them is `c`, so a cell
//!   seeing both loses `c`.
//!
//! BUG+1: every empty cell has two candidates but one, which has three, and each digit has two
//! places in each house but the third candidate's digit: that digit is the cell's.

use super::board::{bit, bits, digits, Board};
use super::origin::{kept_for, Kept};
use super::step::{Candidate, Found, Step};
use super::table::Technique;

pub fn find(board: &Board, technique: Technique, found: &mut Found) {
    use Technique as T;
    match technique {
        T::BugPlusOne => bug(board, found),
        T::UniqueRectangle1
        | T::UniqueRectangle2
        | T::UniqueRectangle3
        | T::UniqueRectangle4
        | T::UniqueRectangle5
        | T::UniqueRectangle6
        | T::HiddenRectangle => rectangles(board, technique, found),
        T::AvoidableRectangle1 | T::AvoidableRectangle2 => avoidable(board, technique, found),
        _ => {}
    }
}

thread_local! {
    /// The rectangles of the last board with the pairs they are checked for
    /// ([`candidate_rectangles`]), for the next rectangle technique asked on the same board.
    static LAST: Kept<Vec<([usize; 4], u16, u16)>> = const { std::cell::RefCell::new(None) };
}

/// The deadly rectangles to check, each with the pair of digits it is about, in HoDoKu's
/// order: from each cell holding two candidates alone (in the order of the cells), with its
/// two digits, the rectangles through it, by the corner beside it in its box then by the far
/// side's line. Every corner is empty and has neither digit placed in one of its houses; a
/// corner may have lost a digit to a step all the same (HoDoKu's default, "allow missing
/// candidates": the four cells holding `a` and `b` would still give two solutions). A
/// rectangle is checked once, with the pair of the first cell that takes it.
fn candidate_rectangles(board: &Board) -> Vec<([usize; 4], u16, u16)> {
    let n = board.n();
    let allows = |c: usize, pair: u64| {
        board.value(c) == 0
            && board
                .shape()
                .houses_of(c)
                .iter()
                .all(|&h| board.placed(h as usize) & pair == 0)
    };
    let mut taken = vec![false; board.rectangles().len()];
    let mut out = vec![];
    for start in 0..n * n {
        let pair = board.cands(start);
        if pair.count_ones() != 2 {
            continue;
        }
        for &(i, around) in board.rectangles_from(start) {
            if !taken[i] && around.iter().all(|&c| allows(c, pair)) {
                taken[i] = true;
                let mut ds = digits(pair);
                out.push((around, ds.next().unwrap_or(0), ds.next().unwrap_or(0)));
            }
        }
    }
    out
}

fn rectangles(board: &Board, technique: Technique, found: &mut Found) {
    let candidates = kept_for(&LAST, board, || candidate_rectangles(board));
    for &(corners, a, b) in candidates.iter() {
        if rectangle(board, technique, corners, a, b, found) {
            return;
        }
    }
}

/// True when two cells share a row or a column.
fn aligned(n: usize, x: usize, y: usize) -> bool {
    x / n == y / n || x % n == y % n
}

/// True when `d` has a place outside `corners` in row `row` or column `col` (either `None`
/// to leave it out).
fn placed_outside(
    board: &Board,
    corners: &[usize; 4],
    d: u16,
    row: Option<usize>,
    col: Option<usize>,
) -> bool {
    let n = board.n();
    let in_row = row.into_iter().flat_map(|r| (0..n).map(move |c| r * n + c));
    let in_col = col.into_iter().flat_map(|c| (0..n).map(move |r| r * n + c));
    in_row
        .chain(in_col)
        .any(|p| !corners.contains(&p) && board.has(p, d))
}

fn rectangle(
    board: &Board,
    technique: Technique,
    corners: [usize; 4],
    a: u16,
    b: u16,
    found: &mut Found,
) -> bool {
    let n = board.n();
    let pair = bit(a) | bit(b);
    let (mut with_extras, mut count) = ([0; 4], 0);
    for &c in corners.iter().filter(|&&c| board.cands(c) & !pair != 0) {
        with_extras[count] = c;
        count += 1;
    }
    let extra = &with_extras[..count];
    // Two extra corners on a diagonal, or three: one or two corners of `a` and `b` alone,
    // diagonal when two.
    let diagonal = match *extra {
        [x, y] => !aligned(n, x, y),
        [_, _, _] => true,
        _ => false,
    };
    // The corners with extras each form asks for (the step is built only then).
    let shaped = match (technique, extra) {
        (Technique::UniqueRectangle1, [_]) => true,
        (Technique::UniqueRectangle2 | Technique::UniqueRectangle4, &[x, y]) => aligned(n, x, y),
        (Technique::UniqueRectangle3, [_, _]) => true,
        (Technique::UniqueRectangle6, &[x, y]) => !aligned(n, x, y),
        (Technique::UniqueRectangle5 | Technique::HiddenRectangle, _) => diagonal,
        _ => false,
    };
    if !shaped {
        return false;
    }
    let mut step = Step::new(technique);
    step.digits = vec![a, b];
    step.cells = corners.iter().map(|&c| c as u32).collect();
    step.fins = extra.iter().map(|&c| c as u32).collect();
    let shared_houses = |x: usize, y: usize| -> Vec<usize> {
        let hy = board.shape().houses_of(y);
        board
            .shape()
            .houses_of(x)
            .iter()
            .filter(|h| hy.contains(h))
            .map(|&h| h as usize)
            .collect()
    };
    match (technique, extra) {
        (Technique::UniqueRectangle1, &[x]) => {
            step.eliminations = [a, b]
                .iter()
                .filter(|&&d| board.has(x, d))
                .map(|&d| Candidate::new(x, d))
                .collect();
            found.push(step)
        }
        (Technique::UniqueRectangle2, &[x, y]) if aligned(n, x, y) => {
            let (ex, ey) = (board.cands(x) & !pair, board.cands(y) & !pair);
            if ex != ey || ex.count_ones() != 1 {
                return false;
            }
            let c = digits(ex).next().unwrap_or(0);
            step.digits.push(c);
            for &p in board.peers(x) {
                let p = p as usize;
                if p != y && board.has(p, c) && board.sees(p, y) {
                    step.eliminations.push(Candidate::new(p, c));
                }
            }
            found.push(step)
        }
        (Technique::UniqueRectangle3, &[x, y]) => {
            let extras = (board.cands(x) | board.cands(y)) & !pair;
            for h in shared_houses(x, y) {
                // As in HoDoKu: the other cells of the subset hold neither `a` nor `b`.
                let pool: Vec<usize> = board
                    .house(h)
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| !corners.contains(&c))
                    .filter(|&c| board.cands(c) != 0 && board.cands(c) & pair == 0)
                    .collect();
                let mut chosen = vec![x, y];
                if naked_with_roof(board, &step, h, &pool, 0, extras, &mut chosen, found) {
                    return true;
                }
            }
            false
        }
        (Technique::UniqueRectangle4, &[x, y]) if aligned(n, x, y) => {
            // As in HoDoKu, the first of `a` and `b` that no other cell seeing both corners
            // holds decides.
            let elsewhere = |d: u16| {
                board.peers(x).iter().any(|&p| {
                    let p = p as usize;
                    p != y && board.sees(p, y) && board.has(p, d)
                })
            };
            let Some(lose) = [(a, b), (b, a)]
                .into_iter()
                .find(|&(keep, _)| !elsewhere(keep))
                .map(|(_, lose)| lose)
            else {
                return false;
            };
            step.houses = shared_houses(x, y).iter().map(|&h| h as u32).collect();
            step.eliminations = [x, y]
                .into_iter()
                .filter(|&c| board.has(c, lose))
                .map(|c| Candidate::new(c, lose))
                .collect();
            found.push(step)
        }
        (Technique::UniqueRectangle5, _) if diagonal => {
            let more = extra.iter().fold(0, |m, &x| m | board.cands(x)) & !pair;
            if more.count_ones() != 1 {
                return false;
            }
            let c = more.trailing_zeros() as u16 + 1;
            step.digits.push(c);
            for &p in board.peers(extra[0]) {
                let p = p as usize;
                if !corners.contains(&p)
                    && board.has(p, c)
                    && extra.iter().all(|&x| board.sees(p, x))
                {
                    step.eliminations.push(Candidate::new(p, c));
                }
            }
            found.push(step)
        }
        (Technique::UniqueRectangle6, &[x, y]) if !aligned(n, x, y) => {
            for d in [a, b] {
                let outside = placed_outside(board, &corners, d, Some(x / n), Some(x % n))
                    || placed_outside(board, &corners, d, Some(y / n), Some(y % n));
                if !outside {
                    let mut s = step.clone();
                    s.eliminations = [x, y]
                        .into_iter()
                        .filter(|&c| board.has(c, d))
                        .map(|c| Candidate::new(c, d))
                        .collect();
                    if found.push(s) {
                        return true;
                    }
                }
            }
            false
        }
        (Technique::HiddenRectangle, _) if diagonal => {
            for (i, &first) in corners.iter().enumerate() {
                if extra.contains(&first) {
                    continue;
                }
                let opposite = corners[(i + 2) % 4];
                for (keep, lose) in [(a, b), (b, a)] {
                    let (row, col) = (Some(opposite / n), Some(opposite % n));
                    if board.has(opposite, lose) && !placed_outside(board, &corners, keep, row, col)
                    {
                        let mut s = step.clone();
                        s.eliminations = vec![Candidate::new(opposite, lose)];
                        if found.push(s) {
                            return true;
                        }
                    }
                }
            }
            false
        }
        _ => false,
    }
}

/// Type 3 in house `h`: the cells of `pool` from `start` on, added one at a time to `chosen`
/// (the two roof corners, as one cell of their extras, then the cells added) in HoDoKu's
/// order, depth first; `cands` is what `chosen` holds (the roof's extras only). When the cells
/// after the roof hold one digit fewer than they count, they form a naked subset with the
/// roof: every other cell of each house they all share loses those digits. A box's subset
/// along one line is the line's, and is left to it. True once `found` is full.
#[allow(clippy::too_many_arguments)]
fn naked_with_roof(
    board: &Board,
    step: &Step,
    h: usize,
    pool: &[usize],
    start: usize,
    cands: u64,
    chosen: &mut Vec<usize>,
    found: &mut Found,
) -> bool {
    let n = board.n();
    let on_line = |cells: &[usize]| {
        cells.iter().all(|&c| c / n == cells[0] / n) || cells.iter().all(|&c| c % n == cells[0] % n)
    };
    let is_line = on_line(
        &board
            .house(h)
            .iter()
            .map(|&c| c as usize)
            .collect::<Vec<_>>(),
    );
    for i in start..pool.len() {
        let union = cands | board.cands(pool[i]);
        chosen.push(pool[i]);
        if (is_line || !on_line(chosen)) && union.count_ones() as usize + 1 == chosen.len() {
            let mut s = step.clone();
            s.digits.extend(digits(union));
            s.fins.extend(chosen[2..].iter().map(|&c| c as u32));
            s.houses = board
                .shape()
                .houses_of(chosen[0])
                .iter()
                .filter(|&&g| {
                    chosen
                        .iter()
                        .all(|&c| board.shape().houses_of(c).contains(&g))
                })
                .map(|&g| g as usize)
                .filter(|&g| g == h || is_line)
                .map(|g| g as u32)
                .collect();
            for &g in &s.houses {
                for &c in board.house(g as usize) {
                    let c = c as usize;
                    if !chosen.contains(&c) {
                        for d in digits(board.cands(c) & union) {
                            s.eliminations.push(Candidate::new(c, d));
                        }
                    }
                }
            }
            if found.push(s) {
                return true;
            }
        }
        if naked_with_roof(board, step, h, pool, i + 1, union, chosen, found) {
            return true;
        }
        chosen.pop();
    }
    false
}

/// Avoidable rectangles: deadly patterns over cells the steps have filled (see the module
/// docs).
fn avoidable(board: &Board, technique: Technique, found: &mut Found) {
    let filled = |c: usize| board.value(c) != 0 && !board.is_given(c);
    let bivalue = |c: usize| board.cands(c).count_ones() == 2;
    // Filled corners each form needs: three for type 1, two for type 2.
    let needs = match technique {
        Technique::AvoidableRectangle1 => 3,
        _ => 2,
    };
    for corners in board.rectangles() {
        if corners.iter().filter(|&&c| filled(c)).count() < needs {
            continue;
        }
        for i in 0..4 {
            // `p[0]` and `p[2]` are opposite corners, as are `p[1]` and `p[3]`.
            let p: [usize; 4] = std::array::from_fn(|k| corners[(i + k) % 4]);
            let mut step = Step::new(technique);
            match technique {
                // p[0] empty; p[1] and p[3] hold one digit, p[2] the other: p[0] loses it.
                Technique::AvoidableRectangle1 => {
                    let (x, y) = (board.value(p[1]), board.value(p[2]));
                    let pattern = filled(p[1]) && filled(p[2]) && filled(p[3]);
                    if !(pattern && board.value(p[3]) == x && bivalue(p[0]) && board.has(p[0], y)) {
                        continue;
                    }
                    step.digits = vec![x, y];
                    step.eliminations.push(Candidate::new(p[0], y));
                }
                // p[0] holds a, p[1] b; p[3] (beside p[0]) holds b and c, p[2] a and c.
                Technique::AvoidableRectangle2 => {
                    let (x, y) = (board.value(p[0]), board.value(p[1]));
                    if !(filled(p[0]) && filled(p[1]) && bivalue(p[2]) && bivalue(p[3])) {
                        continue;
                    }
                    let (c2, c3) = (board.cands(p[2]), board.cands(p[3]));
                    let (more2, more3) = (c2 & !bit(x), c3 & !bit(y));
                    if c2 & bit(x) == 0 || c3 & bit(y) == 0 || more2 != more3 {
                        continue;
                    }
                    let c = more2.trailing_zeros() as u16 + 1;
                    step.digits = vec![x, y, c];
                    for &q in board.peers(p[2]) {
                        let q = q as usize;
                        if q != p[3] && board.has(q, c) && board.sees(q, p[3]) {
                            step.eliminations.push(Candidate::new(q, c));
                        }
                    }
                }
                _ => return,
            }
            step.cells = corners.iter().map(|&c| c as u32).collect();
            if found.push(step) {
                return;
            }
        }
    }
}

fn bug(board: &Board, found: &mut Found) {
    let n = board.n();
    let mut three = None;
    for c in 0..n * n {
        match board.cands(c).count_ones() {
            0 | 2 => {}
            3 if three.is_none() => three = Some(c),
            _ => return,
        }
    }
    let Some(cell) = three else { return };
    let houses = board.shape().houses_of(cell);
    let mut digit = None;
    for h in 0..board.house_count() {
        for d in 1..=n as u16 {
            let count = board.positions(h, d).count_ones();
            let at_cell = houses.contains(&(h as u32)) && board.has(cell, d);
            match (count, at_cell) {
                (0 | 2, _) => {}
                (3, true) if digit.is_none_or(|x| x == d) => digit = Some(d),
                _ => return,
            }
        }
    }
    let Some(d) = digit else { return };
    // The digit must be the odd one out in every house of the cell.
    if houses
        .iter()
        .any(|&h| board.positions(h as usize, d).count_ones() != 3)
    {
        return;
    }
    let mut step = Step::new(Technique::BugPlusOne);
    step.digits.push(d);
    step.cells.push(cell as u32);
    step.eliminations = bits(board.cands(cell) & !bit(d))
        .map(|b| Candidate::new(cell, b as u16 + 1))
        .collect();
    found.push(step);
}
