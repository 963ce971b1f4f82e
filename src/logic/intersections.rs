//! Locked candidates over any two intersecting houses: when a digit's places in house A all lie
//! in house B, the digit leaves the rest of B. Pointing takes A among the boxes (or jigsaw
//! regions), claiming among rows, columns and diagonals, so jigsaw and X grids need no case of
//! their own.

use super::board::Board;
use super::step::{Candidate, Found, Step};
use super::table::Technique;

pub fn find(board: &Board, technique: Technique, found: &mut Found) {
    let n = board.n();
    let sources: Vec<usize> = match technique {
        Technique::Pointing => (2 * n..3 * n).collect(),
        Technique::Claiming => (0..2 * n).chain(3 * n..board.house_count()).collect(),
        _ => return,
    };
    let shape = board.shape();
    for a in sources {
        for d in 1..=n as u16 {
            let p = board.positions(a, d);
            if p.count_ones() < 2 {
                continue;
            }
            let cells: Vec<usize> = board.cells_of(a, d).collect();
            for &b in shape.houses_of(cells[0]) {
                let b = b as usize;
                if b == a
                    || !cells
                        .iter()
                        .all(|&c| shape.houses_of(c).contains(&(b as u32)))
                {
                    continue;
                }
                let mut step = Step::new(technique);
                step.digits.push(d);
                step.houses = vec![a as u32];
                step.covers = vec![b as u32];
                step.cells = cells.iter().map(|&c| c as u32).collect();
                step.eliminations = board
                    .cells_of(b, d)
                    .filter(|c| !cells.contains(c))
                    .map(|c| Candidate::new(c, d))
                    .collect();
                if found.push(step) {
                    return;
                }
            }
        }
    }
}
