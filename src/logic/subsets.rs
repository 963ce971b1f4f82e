//! Naked and hidden subsets (pairs, triples, quads) in any house, and locked pairs and triples:
//! a naked pair or triple whose cells share two houses (a box and a line) and which removes
//! candidates from both (from the line outside the box). A naked subset is cleared from every
//! house its cells share, as HoDoKu clears it.

use super::board::{bit, bits, choose_within, digits, Board};
use super::step::{Candidate, Found, Step};
use super::table::Technique;

pub fn find(board: &Board, technique: Technique, found: &mut Found) {
    use Technique as T;
    let (k, naked, locked) = match technique {
        T::LockedPair => (2, true, true),
        T::LockedTriple => (3, true, true),
        T::NakedPair => (2, true, false),
        T::NakedTriple => (3, true, false),
        T::NakedQuad => (4, true, false),
        T::HiddenPair => (2, false, false),
        T::HiddenTriple => (3, false, false),
        T::HiddenQuad => (4, false, false),
        _ => return,
    };
    let n = board.n();
    // Boxes and regions first (where locked subsets live), then lines and extra houses.
    let order = (2 * n..3 * n)
        .chain(0..2 * n)
        .chain(3 * n..board.house_count());
    for h in order {
        let stop = match naked {
            true => naked_in(board, technique, h, k, locked, found),
            false => hidden_in(board, technique, h, k, found),
        };
        if stop {
            return;
        }
    }
}

fn naked_in(
    board: &Board,
    technique: Technique,
    h: usize,
    k: usize,
    locked: bool,
    found: &mut Found,
) -> bool {
    let (shape, n) = (board.shape(), board.n());
    let cells: Vec<usize> = board
        .house(h)
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| (2..=k).contains(&(board.cands(c).count_ones() as usize)))
        .collect();
    let masks: Vec<u64> = cells.iter().map(|&c| board.cands(c)).collect();
    choose_within(&masks, k, k, &mut |chosen, union| {
        let subset: Vec<usize> = chosen.iter().map(|&i| cells[i]).collect();
        // The houses every cell of the subset lies in, its region first.
        let mut common: Vec<u32> = shape
            .houses_of(subset[0])
            .iter()
            .copied()
            .filter(|&g| subset.iter().all(|&c| shape.houses_of(c).contains(&g)))
            .collect();
        common.sort_by_key(|&g| !(2 * n..3 * n).contains(&(g as usize)));
        // Each cell outside the subset counts for the first of those houses that holds it.
        let counted = |i: usize, c: usize| {
            !subset.contains(&c) && !common[..i].iter().any(|&e| shape.houses_of(c).contains(&e))
        };
        let mut cleared = 0;
        for (i, &g) in common.iter().enumerate() {
            let house = board.house(g as usize).iter().map(|&c| c as usize);
            cleared += house
                .filter(|&c| counted(i, c))
                .any(|c| board.cands(c) & union != 0) as usize;
        }
        // HoDoKu's locked subset (a pair or triple): removals in the box, and in the line
        // outside the box. Any other is a naked subset, cleared from all its houses too.
        if cleared == 0 || locked != (k < 4 && cleared >= 2) {
            return false;
        }
        let mut step = Step::new(technique);
        step.digits = digits(union).collect();
        step.cells = subset.iter().map(|&c| c as u32).collect();
        for (i, &g) in common.iter().enumerate() {
            for c in board.house(g as usize).iter().map(|&c| c as usize) {
                if counted(i, c) {
                    for d in digits(board.cands(c) & union) {
                        step.eliminations.push(Candidate::new(c, d));
                    }
                }
            }
        }
        step.houses = common;
        found.push(step)
    })
}

fn hidden_in(board: &Board, technique: Technique, h: usize, k: usize, found: &mut Found) -> bool {
    let n = board.n();
    let open: Vec<u16> = (1..=n as u16)
        .filter(|&d| (1..=k).contains(&(board.positions(h, d).count_ones() as usize)))
        .collect();
    let masks: Vec<u64> = open.iter().map(|&d| board.positions(h, d)).collect();
    let house = board.house(h);
    choose_within(&masks, k, k, &mut |chosen, union| {
        if union.count_ones() as usize != k {
            return false;
        }
        let set: u64 = chosen.iter().fold(0, |m, &i| m | bit(open[i]));
        if bits(union).all(|i| board.cands(house[i] as usize) & !set == 0) {
            return false;
        }
        let mut step = Step::new(technique);
        step.digits = chosen.iter().map(|&i| open[i]).collect();
        step.houses = vec![h as u32];
        for i in bits(union) {
            let c = house[i] as usize;
            step.cells.push(c as u32);
            for d in digits(board.cands(c) & !set) {
                step.eliminations.push(Candidate::new(c, d));
            }
        }
        found.push(step)
    })
}
