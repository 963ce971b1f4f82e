//! Almost locked sets: the ALS-XZ rule.
//!
//! An almost locked set (ALS) is `k` empty cells of one house holding `k + 1` digits between
//! them: remove any one digit and the rest is locked. Two disjoint ALS `A` and `B` share a
//! *restricted common* digit `x` when every `x` of `A` sees every `x` of `B`: then `x` is in at
//! most one of them, so the other is locked. For any other digit `z` of both, one of the two
//! holds `z`: a cell outside them that sees every `z` of `A` and of `B` loses `z`.

use super::board::{bit, bits, choose_within, digits, Board};
use super::links::PeerSets;
use super::step::{Candidate, Found, Step};
use super::table::Technique;
use crate::model::Value;

/// One almost locked set, with, per digit, the cells that see every cell of the set holding it
/// (bitsets over the cells, [`PeerSets`] layout).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Als {
    cells: Vec<usize>,
    digits: u64,
    house: u32,
    /// `seen[(d - 1) * words..]`: cells seeing every cell of the set that holds `d`.
    seen: Vec<u64>,
    /// The set's cells as a bitset.
    members: Vec<u64>,
}

impl Als {
    fn new(board: &Board, peers: &PeerSets, cells: Vec<usize>, digits: u64, house: u32) -> Als {
        let words = peers.words();
        let mut seen = vec![u64::MAX; board.n() * words];
        let mut members = vec![0u64; words];
        for &c in &cells {
            members[c / 64] |= 1 << (c % 64);
            for d in bits(board.cands(c)) {
                for (w, p) in seen[d * words..(d + 1) * words].iter_mut().zip(peers.of(c)) {
                    *w &= p;
                }
            }
        }
        Als {
            cells,
            digits,
            house,
            seen,
            members,
        }
    }
    /// Cells seeing every cell of the set that holds `d`.
    fn seen(&self, d: Value, words: usize) -> &[u64] {
        let i = (d as usize - 1) * words;
        &self.seen[i..i + words]
    }
}

/// Most cells in one ALS (HoDoKu has no limit on 9×9; larger grids need one).
const MAX_CELLS: usize = 8;

/// Every ALS of the board (each cell set once, with the first house that holds it).
fn sets(board: &Board, peers: &PeerSets) -> Vec<Als> {
    let mut out: Vec<Als> = vec![];
    let mut seen = std::collections::HashSet::new();
    for h in 0..board.house_count() {
        let empty: Vec<usize> = board
            .house(h)
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| board.cands(c) != 0)
            .collect();
        let masks: Vec<u64> = empty.iter().map(|&c| board.cands(c)).collect();
        for k in 1..empty.len().min(MAX_CELLS + 1) {
            choose_within(&masks, k, k + 1, &mut |chosen, union| {
                if union.count_ones() as usize == k + 1 {
                    let mut cells: Vec<usize> = chosen.iter().map(|&i| empty[i]).collect();
                    cells.sort_unstable();
                    if seen.insert(cells.clone()) {
                        out.push(Als::new(board, peers, cells, union, h as u32));
                    }
                }
                false
            });
        }
    }
    out
}

pub fn find(board: &Board, technique: Technique, found: &mut Found) {
    if technique != Technique::AlsXz {
        return;
    }
    let peers = PeerSets::new(board);
    let words = peers.words();
    let all = sets(board, &peers);
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            let common = a.digits & b.digits;
            let overlap = a.members.iter().zip(&b.members).any(|(p, q)| p & q != 0);
            if common.count_ones() < 2 || overlap {
                continue;
            }
            for x in digits(common) {
                // Restricted common: every x of B sees every x of A.
                let sx = a.seen(x, words);
                let restricted = b
                    .cells
                    .iter()
                    .filter(|&&q| board.has(q, x))
                    .all(|&q| sx[q / 64] >> (q % 64) & 1 != 0);
                if !restricted {
                    continue;
                }
                let mut eliminations = vec![];
                for z in digits(common & !bit(x)) {
                    let (sa, sb) = (a.seen(z, words), b.seen(z, words));
                    for (w, (&p, &q)) in sa.iter().zip(sb).enumerate() {
                        for c in bits(p & q).map(|b| w * 64 + b) {
                            if board.has(c, z) {
                                eliminations.push(Candidate::new(c, z));
                            }
                        }
                    }
                }
                if eliminations.is_empty() {
                    continue;
                }
                let mut step = Step::new(technique);
                step.digits = vec![x];
                step.digits.extend(digits(common & !bit(x)));
                step.cells = a.cells.iter().chain(&b.cells).map(|&c| c as u32).collect();
                step.houses = vec![a.house, b.house];
                step.eliminations = eliminations;
                if found.push(step) {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::logic::render::text;
    use crate::model::{Puzzle, Shape};

    #[test]
    fn als_xz_on_two_bivalue_cells_and_a_pair() {
        // A = r1c1 {1,2}; B = r5c1 {1,3}, r5c2 {2,3}. x = 1 (r1c1 and r5c1 share c1), z = 2:
        // r1c2, r2c2, r3c2, r4c1 and r6c1 see r1c1 and r5c2, the cells of 2.
        let p = Puzzle::new(Arc::new(Shape::standard(9, false).unwrap()), vec![0; 81]).unwrap();
        let mut elims = vec![];
        for (cell, keep) in [(0usize, [1u16, 2]), (36, [1, 3]), (37, [2, 3])] {
            elims.extend((1..=9).filter(|d| !keep.contains(d)).map(|d| (cell, d)));
        }
        let board = Board::with_eliminations(&p, &elims).unwrap();
        let mut found = Found::new(1);
        find(&board, Technique::AlsXz, &mut found);
        let step = &found.steps[0];
        assert_eq!(
            text(board.shape(), step),
            "Almost Locked Set XZ-Rule: r1c1,r5c12 => r123c2,r46c1<>2"
        );
    }
}
