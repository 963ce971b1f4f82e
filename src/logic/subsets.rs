//! Naked and hidden subsets (pairs, triples, quads) in any house, and locked pairs and triples:
//! a naked subset whose cells share two houses (a box and a line), cleared from both.

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
    let shape = board.shape();
    let cells: Vec<usize> = board
        .house(h)
        .iter()
        .map(|&c| c as usize)
        .filter(|&c| (2..=k).contains(&(board.cands(c).count_ones() as usize)))
        .collect();
    let masks: Vec<u64> = cells.iter().map(|&c| board.cands(c)).collect();
    choose_within(&masks, k, k, &mut |chosen, union| {
        let subset: Vec<usize> = chosen.iter().map(|&i| cells[i]).collect();
        // True when house `g` holds a digit of the subset outside it.
        let removes = |g: u32| {
            let outside = board.house(g as usize).iter().map(|&c| c as usize);
            outside
                .filter(|c| !subset.contains(c))
                .any(|c| board.cands(c) & union != 0)
        };
        if !locked && !removes(h as u32) {
            return false;
        }
        // The houses every cell of the subset lies in.
        let common: Vec<u32> = shape
            .houses_of(subset[0])
            .iter()
            .copied()
            .filter(|&g| subset.iter().all(|&c| shape.houses_of(c).contains(&g)))
            .collect();
        if locked && (common.len() < 2 || !common.iter().any(|&g| removes(g))) {
            return false;
        }
        let targets: Vec<u32> = if locked { common } else { vec![h as u32] };
        let mut step = Step::new(technique);
        step.digits = digits(union).collect();
        step.cells = subset.iter().map(|&c| c as u32).collect();
        step.houses = targets.clone();
        for &g in &targets {
            for &c in board.house(g as usize) {
                let c = c as usize;
                if !subset.contains(&c) {
                    for d in digits(board.cands(c) & union) {
                        step.eliminations.push(Candidate::new(c, d));
                    }
                }
            }
        }
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
