//! Single-digit patterns: skyscraper, 2-string kite and empty rectangle (the turbot fish, a short
//! X-chain, is found by [`super::chains`]).
//!
//! The first two join two strong links (a digit with two places left in a line) by a weak link
//! between one end of each: `a2 = a1 - b1 = b2`, so `a2` or `b2` holds the digit, and a cell
//! that sees both loses it. A skyscraper's links lie in parallel lines joined at a shared cross
//! line; a kite's lie in a row and a column joined in a box (or jigsaw region).
//!
//! An empty rectangle is a box whose places for a digit lie in one row and one column; with a
//! strong link from that row (or column) outside the box, the cell where the link's far end
//! meets the box's column (or row) cannot hold the digit.

use super::board::{all_digits, digits, Board};
use super::step::{Candidate, Found, Step};
use super::table::Technique;

type Links = Vec<(usize, usize, usize)>; // (line house, end a, end b)

/// Strong links of `d` in rows (`houses 0..n`) or columns (`n..2n`).
fn links(board: &Board, d: u16, first: usize) -> Links {
    let n = board.n();
    (first..first + n)
        .filter(|&h| board.positions(h, d).count_ones() == 2)
        .map(|h| {
            let mut cells = board.cells_of(h, d);
            let a = cells.next().unwrap_or(0);
            (h, a, cells.next().unwrap_or(0))
        })
        .collect()
}

pub fn find(board: &Board, technique: Technique, found: &mut Found) {
    let n = board.n();
    for d in digits(found.digits & all_digits(n)) {
        let stop = match technique {
            Technique::Skyscraper => skyscraper(board, d, found),
            Technique::TwoStringKite => kite(board, d, found),
            Technique::EmptyRectangle => empty_rectangle(board, d, found),
            _ => true,
        };
        if stop {
            return;
        }
    }
}

fn skyscraper(board: &Board, d: u16, found: &mut Found) -> bool {
    let n = board.n();
    // Row links meet in a column, column links in a row.
    let column: fn(usize, usize) -> usize = |c, n| c % n;
    let row: fn(usize, usize) -> usize = |c, n| c / n;
    for (first, cross) in [(0, column), (n, row)] {
        let ls = links(board, d, first);
        for (i, &(_, a1, a2)) in ls.iter().enumerate() {
            for &(_, b1, b2) in &ls[i + 1..] {
                for (a1, a2) in [(a1, a2), (a2, a1)] {
                    for (b1, b2) in [(b1, b2), (b2, b1)] {
                        if cross(a1, n) == cross(b1, n)
                            && cross(a2, n) != cross(b2, n)
                            && push_pair(board, Technique::Skyscraper, d, [a2, b2, a1, b1], found)
                        {
                            return true;
                        }
                    }
                }
            }
        }
    }
    false
}

fn kite(board: &Board, d: u16, found: &mut Found) -> bool {
    let n = board.n();
    let shape = board.shape();
    let (rows, cols) = (links(board, d, 0), links(board, d, n));
    for &(_, a1, a2) in &rows {
        for &(_, b1, b2) in &cols {
            for (a1, a2) in [(a1, a2), (a2, a1)] {
                for (b1, b2) in [(b1, b2), (b2, b1)] {
                    let region = shape.region_of(a1);
                    let distinct = a1 != b1 && a1 != b2 && a2 != b1 && a2 != b2;
                    if distinct
                        && shape.region_of(b1) == region
                        && shape.region_of(a2) != region
                        && shape.region_of(b2) != region
                        && push_pair(board, Technique::TwoStringKite, d, [a2, b2, a1, b1], found)
                    {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// `ends` = the two far ends, then the two joined ends.
fn push_pair(board: &Board, t: Technique, d: u16, ends: [usize; 4], found: &mut Found) -> bool {
    let [x, y, ..] = ends;
    let mut step = Step::new(t);
    step.digits.push(d);
    step.cells = ends.iter().map(|&c| c as u32).collect();
    for &p in board.peers(x) {
        let p = p as usize;
        if board.has(p, d) && !ends.contains(&p) && board.sees(p, y) {
            step.eliminations.push(Candidate::new(p, d));
        }
    }
    found.push(step)
}

fn empty_rectangle(board: &Board, d: u16, found: &mut Found) -> bool {
    let n = board.n();
    let shape = board.shape();
    let (row_links, col_links) = (links(board, d, 0), links(board, d, n));
    for region in 0..n {
        let h = 2 * n + region;
        let cells: Vec<usize> = board.cells_of(h, d).collect();
        if cells.len() < 2 {
            continue;
        }
        for &r in &cells {
            for &c in &cells {
                let (row, col) = (r / n, c % n);
                let in_cross = |x: &usize| x / n == row || x % n == col;
                if !cells.iter().all(in_cross)
                    || cells.iter().all(|x| x / n == row)
                    || cells.iter().all(|x| x % n == col)
                {
                    continue;
                }
                // A column link with an end in `row`: the other end's row meets `col`;
                // a row link with an end in `col`: the other end's column meets `row`.
                let tries = col_links
                    .iter()
                    .map(|l| (l, true))
                    .chain(row_links.iter().map(|l| (l, false)));
                for (&(_, a, b), by_column) in tries {
                    for (x, y) in [(a, b), (b, a)] {
                        let joined = if by_column {
                            x / n == row
                        } else {
                            x % n == col
                        };
                        let target = if by_column {
                            (y / n) * n + col
                        } else {
                            row * n + y % n
                        };
                        let outside = |c: usize| shape.region_of(c) != region;
                        if joined
                            && outside(x)
                            && outside(y)
                            && outside(target)
                            && target != y
                            && board.has(target, d)
                        {
                            let mut step = Step::new(Technique::EmptyRectangle);
                            step.digits.push(d);
                            step.houses.push(h as u32);
                            step.cells = vec![x as u32, y as u32];
                            step.eliminations.push(Candidate::new(target, d));
                            if found.push(step) {
                                return true;
                            }
                        }
                    }
                }
            }
        }
    }
    false
}
