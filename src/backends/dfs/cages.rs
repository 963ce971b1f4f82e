//! Killer cages for the generic kernel of `dfs`.
//!
//! Once per puzzle, each cage gets the table of its *combinations*: the sets of distinct digits
//! of its size that reach its sum ([`crate::model::Cage::combinations`]). During propagation
//! a combination is still possible when it holds every digit already fixed in the cage and its
//! other digits are among the candidates of the cage's open cells; the union of those is what the
//! open cells may still take ([`Cages::allowed`]). A cage with no possible combination, or two
//! cells fixed to one digit, is a contradiction. The search's choice of the cell with the fewest
//! candidates then sees the cages through the narrowed candidates.

use super::Mask;
use crate::model::Puzzle;

/// Most combinations one cage may have (a cage of 8 cells of a 16×16 grid can have thousands);
/// past this the backend refuses the puzzle rather than crawl.
pub(super) const MAX_COMBINATIONS: usize = 100_000;

/// The cages of one puzzle, with their combination tables.
pub(super) struct Cages {
    cells: Vec<Vec<u16>>,
    combos: Vec<Vec<u64>>,
}

impl Cages {
    /// The cages of `puzzle`; `None` when it has none, `Err` when a cage has too many
    /// combinations.
    pub(super) fn new(puzzle: &Puzzle) -> Result<Option<Cages>, String> {
        let n = puzzle.size();
        let mut cages = Cages {
            cells: vec![],
            combos: vec![],
        };
        for (i, cage) in puzzle.cages().enumerate() {
            let combos = cage.combinations(n, MAX_COMBINATIONS).ok_or_else(|| {
                format!(
                    "cage {} has more than {MAX_COMBINATIONS} digit combinations",
                    i + 1
                )
            })?;
            cages
                .cells
                .push(cage.cells().iter().map(|&c| c as u16).collect());
            cages.combos.push(combos);
        }
        Ok((!cages.cells.is_empty()).then_some(cages))
    }

    /// How many cages.
    pub(super) fn len(&self) -> usize {
        self.cells.len()
    }

    /// The cells of cage `i`.
    pub(super) fn cells(&self, i: usize) -> &[u16] {
        &self.cells[i]
    }

    /// The digits the open cells of cage `i` may still take, given the digits `fixed` in its
    /// cells with one candidate (`count` such cells) and the union `open` of the other cells'
    /// candidates; `None` when no combination is left.
    pub(super) fn allowed(&self, i: usize, fixed: u64, count: u32, open: u64) -> Option<u64> {
        if fixed.count_ones() != count {
            return None; // two cells of the cage hold the same digit
        }
        let mut allowed = 0;
        for &k in &self.combos[i] {
            if k & fixed == fixed && k & !fixed & !open == 0 {
                allowed |= k;
            }
        }
        (allowed != 0).then_some(allowed & !fixed)
    }

    /// The open cells of each cage keep only the digits of its combinations still possible
    /// ([`Cages::allowed`]). `Some(true)` when a candidate was removed (cells left with one digit
    /// are queued), `None` on a contradiction.
    pub(super) fn narrow<M: Mask>(&self, cands: &mut [M], queue: &mut Vec<u16>) -> Option<bool> {
        let mut progress = false;
        for i in 0..self.len() {
            let cells = self.cells(i);
            let (mut fixed, mut count, mut open) = (0u64, 0, 0u64);
            for &c in cells {
                let m = cands[c as usize];
                if m.at_most_one() {
                    fixed |= m.to_u64();
                    count += 1;
                } else {
                    open |= m.to_u64();
                }
            }
            let allowed = M::from_u64(self.allowed(i, fixed, count, open)?);
            for &c in cells {
                let m = cands[c as usize];
                if m.at_most_one() || m & !allowed == M::ZERO {
                    continue;
                }
                let m = m & allowed;
                cands[c as usize] = m;
                progress = true;
                if m == M::ZERO {
                    return None;
                }
                if m.at_most_one() {
                    queue.push(c);
                }
            }
        }
        Some(progress)
    }
}
