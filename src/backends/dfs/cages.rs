//! Killer cages for the generic kernel of `dfs`.
//!
//! Once per puzzle, each cage gets the table of its *combinations*: the sets of distinct digits
//! of its size that reach its sum ([`crate::model::Cage::combinations`]). During propagation
//! a combination is still possible when it holds every digit already fixed in the cage and its
//! other digits are among the candidates of the cage's open cells; the union of those is what the
//! open cells may still take ([`Cages::allowed`]). A cage with no possible combination, or two
//! cells fixed to one digit, is a contradiction. A digit every possible combination holds must
//! go in the cage, so it leaves the other cells of every house holding the whole cage.
//!
//! The sums the cages imply through the houses ([`super::house_sums`], "innies and outies") are
//! narrowed too: a set of cells within one house as one more cage (combinations, as above),
//! any other set by interval reasoning (each cell between the total less the most and the least
//! the other cells can add). The search's choice of the cell with the fewest candidates then
//! sees the cages through the narrowed candidates.

use super::house_sums::implied_sums;
use super::Mask;
use crate::model::{Cage, Puzzle, Shape};

/// Most combinations one cage may have (a cage of 8 cells of a 16×16 grid can have thousands);
/// past this the backend refuses the puzzle rather than crawl.
pub(super) const MAX_COMBINATIONS: usize = 100_000;

/// The cages of one puzzle, with their combination tables.
pub(super) struct Cages {
    /// The puzzle's cages, then the implied sums within one house.
    cells: Vec<Vec<u16>>,
    combos: Vec<Vec<u64>>,
    /// Per cage: the other cells of the houses holding all of its cells.
    rest: Vec<Vec<u16>>,
    /// The other implied sums: cells (digits may repeat) and total.
    sums: Vec<(Vec<u16>, i64)>,
}

impl Cages {
    /// The cages of `puzzle`; `None` when it has none, `Err` when a cage has too many
    /// combinations.
    pub(super) fn new(puzzle: &Puzzle) -> Result<Option<Cages>, String> {
        let n = puzzle.size();
        let shape = puzzle.shape();
        let mut cages = Cages {
            cells: vec![],
            combos: vec![],
            rest: vec![],
            sums: vec![],
        };
        for (i, cage) in puzzle.cages().enumerate() {
            let combos = cage.combinations(n, MAX_COMBINATIONS).ok_or_else(|| {
                format!(
                    "cage {} has more than {MAX_COMBINATIONS} digit combinations",
                    i + 1
                )
            })?;
            cages.push(shape, cage.cells(), combos);
        }
        if cages.cells.is_empty() {
            return Ok(None);
        }
        for (cells, total) in implied_sums(puzzle) {
            let combos = match u32::try_from(total) {
                _ if rest_of(shape, &cells).is_none() => None,
                Ok(total) => Cage::new(cells.clone(), total).combinations(n, MAX_COMBINATIONS),
                Err(_) => Some(vec![]), // a negative total: no solution
            };
            match combos {
                Some(combos) => cages.push(shape, &cells, combos),
                None => cages
                    .sums
                    .push((cells.iter().map(|&c| c as u16).collect(), total)),
            }
        }
        Ok(Some(cages))
    }

    /// Adds a cage over `cells` (distinct digits) with its `combos`.
    fn push(&mut self, shape: &Shape, cells: &[u32], combos: Vec<u64>) {
        self.cells.push(cells.iter().map(|&c| c as u16).collect());
        self.combos.push(combos);
        self.rest.push(rest_of(shape, cells).unwrap_or_default());
    }

    /// The digits the open cells of cage `i` may still take, and the digits every possible
    /// combination holds, given the digits `fixed` in its cells with one candidate (`count`
    /// such cells) and the union `open` of the other cells' candidates; `None` when no
    /// combination is left.
    pub(super) fn allowed(
        &self,
        i: usize,
        fixed: u64,
        count: u32,
        open: u64,
    ) -> Option<(u64, u64)> {
        if fixed.count_ones() != count {
            return None; // two cells of the cage hold the same digit
        }
        let (mut allowed, mut required) = (0, u64::MAX);
        for &k in &self.combos[i] {
            if k & fixed == fixed && k & !fixed & !open == 0 {
                allowed |= k;
                required &= k;
            }
        }
        (allowed != 0).then_some((allowed & !fixed, required & !fixed))
    }

    /// The open cells of each cage keep only the digits of its combinations still possible
    /// ([`Cages::allowed`]), the digits the cage must hold leave the rest of its houses, and the
    /// other implied sums narrow their cells' bounds. `Some(true)` when a candidate was removed
    /// (cells left with one digit are queued), `None` on a contradiction.
    pub(super) fn narrow<M: Mask>(&self, cands: &mut [M], queue: &mut Vec<u16>) -> Option<bool> {
        let mut progress = false;
        for (i, cells) in self.cells.iter().enumerate() {
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
            let (allowed, required) = self.allowed(i, fixed, count, open)?;
            let (allowed, required) = (M::from_u64(allowed), M::from_u64(required));
            for &c in cells {
                if !cands[c as usize].at_most_one() {
                    progress |= keep(cands, c, allowed, queue)?;
                }
            }
            if required != M::ZERO {
                for &c in &self.rest[i] {
                    progress |= keep(cands, c, !required, queue)?;
                }
            }
        }
        for (cells, total) in &self.sums {
            progress |= narrow_sum(cands, cells, *total, queue)?;
        }
        Some(progress)
    }
}

/// The cells outside `cells` of the houses of `shape` holding all of `cells`; `None` when no
/// house holds them all.
fn rest_of(shape: &Shape, cells: &[u32]) -> Option<Vec<u16>> {
    let (&first, others) = cells.split_first()?;
    let mut rest = vec![];
    let mut found = false;
    for &h in shape.houses_of(first as usize) {
        let house = shape.house(h as usize);
        if others.iter().all(|c| house.contains(c)) {
            found = true;
            let outside = house.iter().filter(|c| !cells.contains(c));
            rest.extend(outside.map(|&c| c as u16));
        }
    }
    found.then_some(rest)
}

/// Cell `c` keeps its candidates in `mask`: `Some(true)` when some were removed (a cell left
/// with one is queued), `None` when none is left.
fn keep<M: Mask>(cands: &mut [M], c: u16, mask: M, queue: &mut Vec<u16>) -> Option<bool> {
    let m = cands[c as usize];
    if m & !mask == M::ZERO {
        return Some(false);
    }
    let m = m & mask;
    cands[c as usize] = m;
    if m == M::ZERO {
        return None;
    }
    if m.at_most_one() {
        queue.push(c);
    }
    Some(true)
}

/// Interval reasoning on `Σ cells = total` (digits may repeat): each cell keeps the digits
/// between the total less the greatest the others can add and the total less their least.
fn narrow_sum<M: Mask>(
    cands: &mut [M],
    cells: &[u16],
    total: i64,
    queue: &mut Vec<u16>,
) -> Option<bool> {
    let (mut least, mut most) = (0i64, 0i64);
    for &c in cells {
        let m = cands[c as usize];
        if m == M::ZERO {
            return None;
        }
        least += m.low() as i64 + 1;
        most += m.high() as i64 + 1;
    }
    if total < least || total > most {
        return None;
    }
    let mut progress = false;
    for &c in cells {
        let m = cands[c as usize];
        let (low, high) = (m.low() as i64 + 1, m.high() as i64 + 1);
        let from = total - (most - high);
        let to = total - (least - low);
        if from <= low && to >= high {
            continue;
        }
        // Digits `from..=to` (within `1..=64`) as bits `from − 1..=to − 1`.
        let (from, to) = (from.max(1), to.min(64));
        let range = if from > to {
            0
        } else {
            (u64::MAX >> (64 - to)) & !((1u64 << (from - 1)) - 1)
        };
        progress |= keep(cands, c, M::from_u64(range), queue)?;
    }
    Some(progress)
}
