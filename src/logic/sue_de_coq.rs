//! Sue de Coq: two or more empty cells `C` where a line meets a box, holding digits `V` with
//! at least two more digits than cells, and two sets beside them: `L` in the line outside `C`,
//! `B` in the box outside `C` and `L`, such that `C`, `L` and `B` together have exactly as many
//! cells as the places their digits can fill. No digit of `V` that `L` holds may be in `B`;
//! digits outside `V` (*extras*) may be in both.
//!
//! Why it holds: a digit of `C ∪ L` (all in the line) fits there once, of `C ∪ B` (all in the
//! box) once, so a digit fills two of the cells at most, and then only an extra of both `L`
//! and `B`. Counting those places gives exactly `|C| + |L| + |B|`, so every digit takes all
//! its places: each digit of `V ∪ L` that `B` lacks is in `C ∪ L`, inside the line, and
//! leaves the rest of the line; each digit of `V ∪ B` that `L` lacks leaves the rest of the
//! box; an extra of both is in `L` and in `B`, and leaves the rest of both.
//!
//! The search follows HoDoKu's (`MiscellaneousSolver`): rows then columns (then the other
//! non-box houses), each with every box it meets in two empty cells or more; two cells of the
//! intersection, then three (more on large grids), then line sets from the smallest up and,
//! for each line set that leaves digits of `V` to the box, box sets likewise; the first
//! pattern that removes a candidate is the step. On sides over 9 the line and box sets are
//! kept to [`MAX_SET`] cells (HoDoKu's 9×9 has no limit). Along a solving path, a line and
//! box whose cells kept their candidates since the last board where the technique found
//! nothing are skipped ([`since_clean`]).

use std::cell::RefCell;

use super::board::{digits, Board};
use super::origin::{since_clean, Clean};
use super::step::{Candidate, CellSet, Found, Step};
use super::table::Technique;

/// Most cells in a line or box set on sides over 9 (and in the intersection subset).
const MAX_SET: usize = 4;

thread_local! {
    /// The last board on which the technique found nothing.
    static CLEAN: Clean = const { RefCell::new(None) };
}

pub fn find(board: &Board, technique: Technique, found: &mut Found) {
    if technique == Technique::SueDeCoq {
        since_clean(&CLEAN, board, found, |changed, found| {
            search(board, changed, found)
        });
    }
}

/// The first patterns of the line and box pairs with a cell whose candidates changed since
/// the last board where the technique found nothing (a pattern reads its line and box only).
fn search(board: &Board, changed: &[bool], found: &mut Found) {
    let n = board.n();
    let boxes = 2 * n..3 * n;
    let lines = (0..board.house_count()).filter(|h| !boxes.contains(h));
    let max_set = if n <= 9 { n } else { MAX_SET };
    // Per house, its empty cells (ascending), and whether one of its cells changed.
    let empty: Vec<Vec<usize>> = (0..board.house_count())
        .map(|h| {
            let mut cells: Vec<usize> = (board.house(h).iter().map(|&c| c as usize))
                .filter(|&c| board.cands(c) != 0)
                .collect();
            cells.sort_unstable();
            cells
        })
        .collect();
    let fresh: Vec<bool> = (0..board.house_count())
        .map(|h| board.house(h).iter().any(|&c| changed[c as usize]))
        .collect();
    for line in lines {
        for bx in boxes.clone() {
            if !(fresh[line] || fresh[bx]) {
                continue;
            }
            let (line_cells, box_cells) = (&empty[line], &empty[bx]);
            let inter: Vec<usize> = (line_cells.iter().copied())
                .filter(|c| box_cells.contains(c))
                .collect();
            if inter.len() < 2 {
                continue;
            }
            let search = Search {
                board,
                line: (line, line_cells),
                bx: (bx, box_cells),
                max_set,
            };
            if search.intersection(&inter, 0, &Part::default(), found) {
                return;
            }
        }
    }
}

/// One line and one box, with their empty cells (ascending).
struct Search<'a> {
    board: &'a Board,
    line: (usize, &'a [usize]),
    bx: (usize, &'a [usize]),
    max_set: usize,
}

/// Most cells in one part: a line or box set of a side up to 9 has fewer than 9 cells (two or
/// more are in the intersection), and larger sides keep to [`MAX_SET`].
const PART_CELLS: usize = 9;

/// A set of cells being built, with the union of their candidates (on the stack: the search
/// builds many).
#[derive(Clone, Copy, Default)]
struct Part {
    cells: [usize; PART_CELLS],
    len: usize,
    digits: u64,
}

impl Part {
    fn with(&self, cell: usize, cands: u64) -> Part {
        let mut next = *self;
        next.cells[self.len] = cell;
        next.len += 1;
        next.digits |= cands;
        next
    }
    fn cells(&self) -> &[usize] {
        &self.cells[..self.len]
    }
    /// Cells less extras: how many digits of `v` the set takes.
    fn takes(&self, v: u64) -> isize {
        self.len as isize - (self.digits & !v).count_ones() as isize
    }
}

impl Search<'_> {
    /// Every subset of two cells or more (up to three on 9×9, as HoDoKu) of the intersection,
    /// in HoDoKu's order: each pair, then the triples that extend it. True once `found` is full.
    fn intersection(&self, inter: &[usize], from: usize, c: &Part, found: &mut Found) -> bool {
        let most = inter
            .len()
            .min(if self.board.n() <= 9 { 3 } else { MAX_SET });
        for i in from..inter.len() {
            let next = c.with(inter[i], self.board.cands(inter[i]));
            let n_plus = next.digits.count_ones() as isize - next.len as isize;
            if next.len >= 2 && n_plus >= 2 && self.line_sets(&next, n_plus, found) {
                return true;
            }
            if next.len < most && self.intersection(inter, i + 1, &next, found) {
                return true;
            }
        }
        false
    }

    /// Line sets `L` (line cells outside `C`), depth first in cell order; each that takes some
    /// but not all of the `n_plus` surplus digits of `C` hands the rest to the box.
    fn line_sets(&self, c: &Part, n_plus: isize, found: &mut Found) -> bool {
        let source: Vec<usize> = (self.line.1.iter())
            .copied()
            .filter(|x| !c.cells().contains(x))
            .collect();
        self.line_from(c, n_plus, &source, 0, &Part::default(), found)
    }

    fn line_from(
        &self,
        c: &Part,
        n_plus: isize,
        source: &[usize],
        from: usize,
        l: &Part,
        found: &mut Found,
    ) -> bool {
        for i in from..source.len() {
            let next = l.with(source[i], self.board.cands(source[i]));
            let takes = next.takes(c.digits);
            if next.digits & c.digits != 0 && takes > 0 && takes < n_plus {
                // The box may not hold the digits of `C` the line set holds.
                let banned = next.digits & c.digits;
                let box_source: Vec<usize> = (self.bx.1.iter())
                    .copied()
                    .filter(|x| !c.cells().contains(x) && !next.cells().contains(x))
                    .filter(|&x| self.board.cands(x) & banned == 0)
                    .collect();
                let rest = n_plus - takes;
                if self.box_from(c, &next, rest, &box_source, 0, &Part::default(), found) {
                    return true;
                }
            }
            if next.len < self.max_set && self.line_from(c, n_plus, source, i + 1, &next, found) {
                return true;
            }
        }
        false
    }

    #[allow(clippy::too_many_arguments)]
    fn box_from(
        &self,
        c: &Part,
        l: &Part,
        rest: isize,
        source: &[usize],
        from: usize,
        b: &Part,
        found: &mut Found,
    ) -> bool {
        for i in from..source.len() {
            let next = b.with(source[i], self.board.cands(source[i]));
            let takes = next.takes(c.digits);
            if next.digits & c.digits != 0 && takes == rest {
                if let Some(step) = self.step(c, l, &next) {
                    if found.push(step) {
                        return true;
                    }
                }
            }
            if takes <= rest
                && next.len < self.max_set
                && self.box_from(c, l, rest, source, i + 1, &next, found)
            {
                return true;
            }
        }
        false
    }

    /// The step of a pattern, when it removes a candidate.
    fn step(&self, c: &Part, l: &Part, b: &Part) -> Option<Step> {
        let v = c.digits;
        let shared = l.digits & b.digits & !v;
        let from_line = ((v | l.digits) & !b.digits) | shared;
        let from_box = ((v | b.digits) & !l.digits) | shared;
        let mut eliminations = vec![];
        for (cells, keep, ds) in [(self.line.1, l, from_line), (self.bx.1, b, from_box)] {
            for &x in cells {
                if c.cells().contains(&x) || keep.cells().contains(&x) {
                    continue;
                }
                let hit = self.board.cands(x) & ds;
                eliminations.extend(digits(hit).map(|d| Candidate::new(x, d)));
            }
        }
        if eliminations.is_empty() {
            return None;
        }
        let mut step = Step::new(Technique::SueDeCoq);
        step.digits = digits(v).collect();
        step.houses = vec![self.line.0 as u32, self.bx.0 as u32];
        step.cells = (c.cells().iter().chain(l.cells()).chain(b.cells()))
            .map(|&x| x as u32)
            .collect();
        step.sets = [c, l, b]
            .iter()
            .map(|p| CellSet {
                cells: p.cells().iter().map(|&x| x as u32).collect(),
                digits: digits(p.digits).collect(),
            })
            .collect();
        step.eliminations = eliminations;
        Some(step)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::logic::render::text;
    use crate::model::{Puzzle, Shape};

    /// A 9×9 board with no givens, the listed cells narrowed to the listed digits.
    fn board_with(keep: &[(usize, &[u16])]) -> Board {
        let p = Puzzle::new(Arc::new(Shape::standard(9, false).unwrap()), vec![0; 81]).unwrap();
        let mut elims = vec![];
        for &(cell, keep) in keep {
            elims.extend((1..=9).filter(|d| !keep.contains(d)).map(|d| (cell, d)));
        }
        Board::with_eliminations(&p, &elims).unwrap()
    }

    #[test]
    fn the_classic_pattern() {
        // C = r1c12 {1,2,3,4}; L = r1c7 {1,2} in row 1; B = r2c3 {3,4} in box 1. 1 and 2
        // leave row 1 (but for C and L), 3 and 4 leave box 1 (but for C and B).
        let board = board_with(&[
            (0, &[1, 2, 3, 4]),
            (1, &[1, 2, 3, 4]),
            (6, &[1, 2]),
            (11, &[3, 4]),
        ]);
        let mut found = Found::new(1);
        find(&board, Technique::SueDeCoq, &mut found);
        let step = &found.steps[0];
        assert_eq!(
            text(board.shape(), step),
            "Sue de Coq: r1c12 - {1234} (r1c7 - {12}, r2c3 - {34}) => r1c345689<>1, \
             r1c345689<>2, r1c3,r2c12,r3c123<>3, r1c3,r2c12,r3c123<>4"
        );
    }

    #[test]
    fn no_pattern_when_the_box_set_reuses_a_line_digit() {
        // B = r2c3 {1,3} holds 1, which L holds too: not a Sue de Coq.
        let board = board_with(&[
            (0, &[1, 2, 3, 4]),
            (1, &[1, 2, 3, 4]),
            (6, &[1, 2]),
            (11, &[1, 3]),
        ]);
        let mut found = Found::new(10);
        find(&board, Technique::SueDeCoq, &mut found);
        assert!(found.steps.iter().all(|s| !s.cells.contains(&11)));
    }
}
