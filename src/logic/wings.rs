//! Wings: XY-wing (a bivalue pivot `xy` and pincers `xz`, `yz`: a cell seeing both pincers
//! loses `z`), XYZ-wing (pivot `xyz`: a cell seeing the pivot and both pincers loses `z`) and
//! W-wing (two cells `xy` joined by a strong link on `y`: a cell seeing both loses `x`).

use super::board::{bit, digits, Board};
use super::step::{Candidate, Found, Step};
use super::table::Technique;

pub fn find(board: &Board, technique: Technique, found: &mut Found) {
    match technique {
        Technique::XyWing => xy_wings(board, 2, technique, found),
        Technique::XyzWing => xy_wings(board, 3, technique, found),
        Technique::WWing => w_wings(board, found),
        _ => {}
    }
}

/// XY-wings (`pivot_size` 2) and XYZ-wings (3).
fn xy_wings(board: &Board, pivot_size: u32, technique: Technique, found: &mut Found) {
    let n = board.n();
    for pivot in 0..n * n {
        let pc = board.cands(pivot);
        if pc.count_ones() != pivot_size {
            continue;
        }
        let wings: Vec<usize> = board
            .peers(pivot)
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| {
                let cc = board.cands(c);
                cc.count_ones() == 2 && (cc & pc).count_ones() == pivot_size - 1
            })
            .collect();
        for (i, &a) in wings.iter().enumerate() {
            for &b in &wings[i + 1..] {
                let (ca, cb) = (board.cands(a), board.cands(b));
                if ca == cb {
                    continue;
                }
                let z = ca & cb;
                // XY: z outside the pivot, the pincers cover its two digits;
                // XYZ: z in the pivot, the three cells hold exactly the pivot's digits.
                let fits = match pivot_size {
                    2 => z.count_ones() == 1 && z & pc == 0 && (ca | cb) & pc == pc,
                    _ => z.count_ones() == 1 && (ca | cb) == pc,
                };
                if !fits {
                    continue;
                }
                let d = digits(z).next().unwrap_or(0);
                let mut step = Step::new(technique);
                step.digits = digits(pc | z).collect();
                step.cells = vec![pivot as u32, a as u32, b as u32];
                for &p in board.peers(a) {
                    let p = p as usize;
                    let sees_pivot = pivot_size == 2 || board.sees(p, pivot);
                    if p != b && p != pivot && board.has(p, d) && board.sees(p, b) && sees_pivot {
                        step.eliminations.push(Candidate::new(p, d));
                    }
                }
                step.digits.retain(|&x| x != d);
                step.digits.push(d);
                if found.push(step) {
                    return;
                }
            }
        }
    }
}

fn w_wings(board: &Board, found: &mut Found) {
    let bivalue = board.bivalue_cells();
    for (i, &a) in bivalue.iter().enumerate() {
        for &b in &bivalue[i + 1..] {
            let mask = board.cands(a);
            if board.cands(b) != mask || board.sees(a, b) {
                continue;
            }
            for (x, y) in [(0, 1), (1, 0)] {
                let ds: Vec<u16> = digits(mask).collect();
                let (x, y) = (ds[x], ds[y]);
                for h in 0..board.house_count() {
                    if board.positions(h, y).count_ones() != 2 {
                        continue;
                    }
                    let mut ends = board.cells_of(h, y);
                    let (e1, e2) = (ends.next().unwrap_or(0), ends.next().unwrap_or(0));
                    for (e1, e2) in [(e1, e2), (e2, e1)] {
                        if [a, b].contains(&e1) || [a, b].contains(&e2) {
                            continue;
                        }
                        if !(board.sees(e1, a) && board.sees(e2, b)) {
                            continue;
                        }
                        let mut step = Step::new(Technique::WWing);
                        step.digits = vec![x, y];
                        step.cells = vec![a as u32, b as u32, e1 as u32, e2 as u32];
                        step.houses.push(h as u32);
                        for &p in board.peers(a) {
                            let p = p as usize;
                            if p != b && board.cands(p) & bit(x) != 0 && board.sees(p, b) {
                                step.eliminations.push(Candidate::new(p, x));
                            }
                        }
                        if found.push(step) {
                            return;
                        }
                    }
                }
            }
        }
    }
}
