//! Techniques that assume the puzzle has one solution: unique rectangles (types 1 to 4) and
//! BUG+1. A ladder built with [`crate::logic::Ladder::without_uniqueness`] leaves them out.
//!
//! A unique rectangle is four empty cells in two rows and two columns holding the digits `a`
//! and `b`, such that swapping `a` and `b` in them would leave every house as it was (each
//! house holds none or two of the corners, in one row or one column): a deadly pattern, which
//! the extra candidates must break. On diagonals and jigsaw regions the house rule decides.
//!
//! * Type 1: one corner has extra candidates: it loses `a` and `b`.
//! * Type 2: two corners have the same one extra `c`: a cell seeing both loses `c`.
//! * Type 3: two corners in one house have extras: they act as one cell of the extras, which
//!   forms a naked subset with other cells of the house.
//! * Type 4: two corners in one house have extras and `a` has no other place in that house:
//!   both lose `b`.
//!
//! BUG+1: every empty cell has two candidates but one, which has three, and each digit has two
//! places in each house but the third candidate's digit: that digit is the cell's.

use super::board::{bit, bits, choose_within, digits, Board};
use super::step::{Candidate, Found, Step};
use super::table::Technique;

pub fn find(board: &Board, technique: Technique, found: &mut Found) {
    match technique {
        Technique::BugPlusOne => bug(board, found),
        Technique::UniqueRectangle1
        | Technique::UniqueRectangle2
        | Technique::UniqueRectangle3
        | Technique::UniqueRectangle4 => rectangles(board, technique, found),
        _ => {}
    }
}

fn rectangles(board: &Board, technique: Technique, found: &mut Found) {
    for corners in board.rectangles() {
        let common = corners.iter().fold(u64::MAX, |m, &c| m & board.cands(c));
        if common.count_ones() < 2 {
            continue;
        }
        let ds: Vec<u16> = digits(common).collect();
        for (i, &a) in ds.iter().enumerate() {
            for &b in &ds[i + 1..] {
                if rectangle(board, technique, *corners, a, b, found) {
                    return;
                }
            }
        }
    }
}

fn rectangle(
    board: &Board,
    technique: Technique,
    corners: [usize; 4],
    a: u16,
    b: u16,
    found: &mut Found,
) -> bool {
    let pair = bit(a) | bit(b);
    let extra: Vec<usize> = corners
        .iter()
        .copied()
        .filter(|&c| board.cands(c) != pair)
        .collect();
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
    match (technique, &extra[..]) {
        (Technique::UniqueRectangle1, &[x]) => {
            step.eliminations = [a, b].iter().map(|&d| Candidate::new(x, d)).collect();
            found.push(step)
        }
        (Technique::UniqueRectangle2, &[x, y]) => {
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
                let others: Vec<usize> = board
                    .house(h)
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| c != x && c != y && board.cands(c) != 0)
                    .collect();
                let masks: Vec<u64> = others.iter().map(|&c| board.cands(c) | extras).collect();
                for m in 1..=3usize.min(others.len()) {
                    let stop = choose_within(&masks, m, m + 1, &mut |chosen, union| {
                        if union.count_ones() as usize != m + 1 {
                            return false;
                        }
                        let subset: Vec<usize> = chosen.iter().map(|&i| others[i]).collect();
                        let mut s = step.clone();
                        s.digits.extend(digits(union));
                        s.houses = vec![h as u32];
                        s.fins.extend(subset.iter().map(|&c| c as u32));
                        for &c in &others {
                            if !subset.contains(&c) {
                                for d in digits(board.cands(c) & union) {
                                    s.eliminations.push(Candidate::new(c, d));
                                }
                            }
                        }
                        found.push(s)
                    });
                    if stop {
                        return true;
                    }
                }
            }
            false
        }
        (Technique::UniqueRectangle4, &[x, y]) => {
            for h in shared_houses(x, y) {
                for (keep, lose) in [(a, b), (b, a)] {
                    if board.positions(h, keep).count_ones() == 2 {
                        let mut s = step.clone();
                        s.houses = vec![h as u32];
                        s.eliminations = vec![Candidate::new(x, lose), Candidate::new(y, lose)];
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
