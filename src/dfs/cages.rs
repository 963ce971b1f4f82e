//! Killer cages for the generic kernel of `dfs`.
//!
//! Each cage has its *combinations*: the sets of distinct digits of its size that reach its sum,
//! a slice of the side's table of digit sets by size and sum ([`super::digit_sets`], built once
//! per process; past its largest side, [`crate::model::Cage::combinations`] per cage and
//! puzzle). The cages' cells, combinations and houses lie in a few flat lists ([`Groups`]).
//! During propagation a combination is still possible when it holds every digit already fixed
//! in the cage and its other digits are among the candidates of the cage's open cells; the union
//! of those is what the open cells may still take ([`Groups::allowed`]). A cage with no possible
//! combination, or two cells fixed to one digit, is a contradiction. A digit every possible
//! combination holds must go in the cage, so it leaves the other cells of every house holding
//! the whole cage.
//!
//! From the start, on grids of at most 128 cells, a house holding whole cages that leave at
//! most [`MOST_INNIES`] of its cells gives those cells (its *innies*) a cage of their own:
//! they add up to the house's total less the cages' sums. It is read off the houses found for
//! the cages themselves, and it settles at the root many Killers that would otherwise need the
//! full sums below.
//!
//! The sums the cages imply through the houses ([`super::house_sums`], "innies and outies") are
//! narrowed too: a set of cells within one house as one more cage (combinations, as above), any
//! other set by interval reasoning (each cell between the total less the most and the least the
//! other cells can add). They are built only once the root is propagated and the search has to
//! branch ([`Cages::deepen`]), without the cells fixed by then: most generated 9×9 Killers are
//! settled at the root by their cages alone, and building the sums was most of their cost. The
//! search's choice of the cell with the fewest candidates then sees the cages through the
//! narrowed candidates.

use std::cell::{Cell, OnceCell};
use std::sync::Arc;

use super::digit_sets::DigitSets;
use super::house_sums::implied_sums;
use super::Mask;
use crate::model::set_equivalence::implied_cages;
use crate::model::{Cage, Puzzle, Shape};

/// Most combinations one cage may have (a cage of 8 cells of a 16×16 grid can have thousands);
/// past this the backend refuses the puzzle rather than crawl.
pub(super) const MAX_COMBINATIONS: usize = 100_000;

/// The cages of one puzzle, and later the sums they imply.
pub(super) struct Cages {
    shape: Arc<Shape>,
    /// The puzzle (its constraints shared, not copied), whose cages [`implied_cages`] takes.
    puzzle: Puzzle,
    /// The puzzle's cages, narrowed until [`Cages::deepen`] is called.
    given: Groups,
    /// Once [`Cages::deepen`] is called: the puzzle's cages and the implied sums, less the
    /// cells fixed then; narrowed from then on instead of `given`.
    deep: OnceCell<Groups>,
    /// Counts the propagations begun ([`Cages::begin`]): see [`Group::memo`].
    epoch: Cell<u64>,
}

impl Cages {
    /// The cages of `puzzle`; `None` when it has none, `Err` when a cage has too many
    /// combinations.
    pub(super) fn new(puzzle: &Puzzle) -> Result<Option<Cages>, String> {
        Cages::with_innies(puzzle, MOST_INNIES)
    }

    /// [`Cages::new`] with the innies of at most `most` cells.
    fn with_innies(puzzle: &Puzzle, most: usize) -> Result<Option<Cages>, String> {
        if puzzle.cages().next().is_none() {
            return Ok(None);
        }
        let shape = puzzle.shape_arc().clone();
        let mut given = Groups::new(shape.size(), puzzle.cages().count());
        if shape.cells() <= 128 {
            given.held = vec![(0, 0); shape.house_count()];
        }
        let mut cells = vec![];
        for (i, cage) in by_size(puzzle) {
            cells.clear();
            cells.extend(cage.cells().iter().map(|&c| c as u16));
            if !given.push(&shape, &cells, i64::from(cage.sum()), true) {
                return Err(format!(
                    "cage {} has more than {MAX_COMBINATIONS} digit combinations",
                    i + 1
                ));
            }
        }
        given.add_innies(&shape, most);
        Ok(Some(Cages {
            shape,
            puzzle: puzzle.clone(),
            given,
            deep: OnceCell::new(),
            epoch: Cell::new(0),
        }))
    }

    /// Adds the sums the cages imply through the houses ([`super::house_sums`]), given the
    /// candidates `cands` of a propagated node whose descendants alone are searched from then
    /// on (the root): a cell with one candidate there keeps it, so every cage and sum drops its
    /// fixed cells (their digits out of its total; the open cells of a cage already lack them)
    /// and one with no open cell left goes. `false` when they were already added.
    ///
    /// Most Killers are settled at the root by their cages alone, so building the implied sums
    /// (half the work of such a puzzle) waits until the search has to branch.
    pub(super) fn deepen<M: Mask>(&self, cands: &[M]) -> bool {
        if self.deep.get().is_some() {
            return false;
        }
        // The puzzle's cages alone: the innies added to them overlap them.
        let given = self.given.groups.iter().filter(|g| g.cage);
        let given: Vec<(&[u16], i64)> = given.map(|g| self.given.of(g)).collect();
        let implied = implied_sums(&self.shape, &given);
        let domains: Vec<u64> = cands.iter().map(|m| m.to_u64()).collect();
        let set: Vec<(Vec<u16>, i64)> = implied_cages(&self.shape, self.puzzle.cages(), &domains)
            .into_iter()
            .map(|c| {
                (
                    c.cells.iter().map(|&x| x as u16).collect(),
                    i64::from(c.sum),
                )
            })
            .collect();
        let count = given.len() + implied.iter().count() + set.len();
        let mut deep = Groups::new(self.shape.size(), count);
        let mut open = vec![];
        // The puzzle's cages and those set equivalence implies hold distinct digits.
        let sets = given.iter().map(|&(c, t)| (c, t, true));
        let sets = sets.chain(set.iter().map(|(c, t)| (&c[..], *t, true)));
        for (cells, whole, is_given) in sets.chain(implied.iter().map(|(c, t)| (c, t, false))) {
            open.clear();
            let mut total = whole;
            for &c in cells {
                let m = cands[c as usize];
                if m.at_most_one() {
                    total -= i64::from(m.low()) + 1;
                } else {
                    open.push(c);
                }
            }
            if open.is_empty() {
                if total != 0 {
                    deep.sums.push((deep.sum_cells.len() as u32, total)); // no cell to reach it
                }
                continue;
            }
            if deep.push(&self.shape, &open, total, is_given) {
                continue;
            }
            if is_given {
                // Too many combinations without the fixed cells (only past the tabled sides):
                // the whole cage, as it was.
                deep.push(&self.shape, cells, whole, true);
            } else {
                deep.sum_cells.extend_from_slice(&open);
                deep.sums.push((deep.sum_cells.len() as u32, total));
            }
        }
        deep.sort();
        self.deep.set(deep).is_ok()
    }

    /// A propagation of a node begins: the narrowing of the node before (another node, or
    /// the same one changed by a branch) says nothing about this one.
    pub(super) fn begin(&self) {
        self.epoch.set(self.epoch.get() + 1);
    }

    /// Narrows `cands` by the cages (and the implied sums once added): see [`Groups::narrow`].
    pub(super) fn narrow<M: Mask>(&self, cands: &mut [M], queue: &mut Vec<u16>) -> Option<bool> {
        let groups = self.deep.get().unwrap_or(&self.given);
        groups.narrow(cands, queue, self.epoch.get())
    }
}

/// Most cells an innie of one house may have to be narrowed from the start ([`Cages::new`]).
/// On killer1000, 2 brings about 80 more puzzles under 35 µs than none does (settled at the
/// root without the implied sums), for a little more narrowing on every other puzzle; 3 or 4
/// bring more still but cost the others more (docs/benchmarks.md, "Killer Sudoku").
const MOST_INNIES: usize = 2;

/// The puzzle's cages with their numbers (from 0), smallest first, in the puzzle's order within
/// one size. [`Groups::narrow`]'s loops over each cage's cells then run the same number of
/// times for cage after cage, which the processor predicts; the puzzle's order follows no
/// pattern. A counting sort: a general sort of a few dozen cages costs more than that.
fn by_size(puzzle: &Puzzle) -> Vec<(usize, &Cage)> {
    let most = puzzle.cages().map(|c| c.cells().len()).max().unwrap_or(0);
    let mut start = vec![0usize; most + 2];
    for cage in puzzle.cages() {
        start[cage.cells().len() + 1] += 1;
    }
    for s in 1..start.len() {
        start[s] += start[s - 1];
    }
    let mut order = vec![None; start[most + 1]];
    for (i, cage) in puzzle.cages().enumerate() {
        let at = &mut start[cage.cells().len()];
        order[*at] = Some((i, cage));
        *at += 1;
    }
    order.into_iter().flatten().collect()
}

/// One cage (the puzzle's, or an implied sum within one house): ranges of [`Groups`]' lists.
struct Group {
    /// Its cells, in `Groups::cells`.
    cells: (u32, u32),
    /// Its combinations, in `Groups::combos`.
    combos: (u32, u32),
    /// The other cells of the houses holding all of its cells, in `Groups::rest`.
    rest: (u32, u32),
    total: i64,
    /// Among the puzzle's cages and their innies: one of the cages. (Among the deepened
    /// groups: a group of distinct digits given as such to [`Groups::push`].)
    cage: bool,
    /// What the cage's cells were when it was last narrowed without changing them: see [`Memo`].
    memo: Cell<Memo>,
}

/// A cage's cells as [`Groups::allowed`] sees them, in one propagation (`epoch`): the digits
/// of its fixed cells, their number and the union of its open cells' candidates. Within one
/// propagation masks only lose bits, so while these stay as they were when narrowing the cage
/// changed nothing, narrowing it again would remove nothing either: each cell still lies
/// within the combinations' digits, which are the same, and the rest of its houses already
/// lacks the digits it must hold.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Memo {
    epoch: u64,
    fixed: u64,
    open: u64,
    count: u32,
}

/// Cages with their combinations, and plain sums, in a few flat lists.
struct Groups {
    groups: Vec<Group>,
    cells: Vec<u16>,
    rest: Vec<u16>,
    /// The digit sets of the side by size and sum ([`DigitSets`]), or, past its largest side,
    /// each cage's combinations in turn.
    combos: Combos,
    /// The implied sums not within one house: cells (digits may repeat) in `sum_cells`, by end,
    /// and total.
    sums: Vec<(u32, i64)>,
    sum_cells: Vec<u16>,
    /// Per house, the cells of the cages it holds whole and their sums (small grids, while
    /// the puzzle's cages are added; empty otherwise): see [`Groups::add_innies`].
    held: Vec<(u128, i64)>,
}

/// Where the cages' combinations are listed.
enum Combos {
    Shared(&'static DigitSets),
    Own(Vec<u64>),
}

impl Groups {
    /// Room for about `groups` cages of side `n` (one allocation per list).
    fn new(n: usize, groups: usize) -> Groups {
        Groups {
            groups: Vec::with_capacity(groups),
            cells: Vec::with_capacity(n * n + groups),
            rest: Vec::with_capacity(2 * n * groups),
            combos: match DigitSets::of_side(n) {
                Some(t) => Combos::Shared(t),
                None => Combos::Own(vec![]),
            },
            sums: vec![],
            sum_cells: vec![],
            held: vec![],
        }
    }

    /// Orders the cages by size, as [`by_size`] does the puzzle's.
    fn sort(&mut self) {
        self.groups.sort_unstable_by_key(|g| g.cells.1 - g.cells.0);
    }

    /// The cells and total of cage `g`.
    fn of(&self, g: &Group) -> (&[u16], i64) {
        (&self.cells[g.cells.0 as usize..g.cells.1 as usize], g.total)
    }

    /// Adds a cage over `cells` (distinct digits: a puzzle's cage, `given`, or else cells
    /// within one house) adding up to `total`; `false`, adding nothing, when it has more than
    /// [`MAX_COMBINATIONS`] combinations or, not `given`, no house holds all of its cells. A
    /// total out of reach leaves it no combination.
    fn push(&mut self, shape: &Shape, cells: &[u16], total: i64, given: bool) -> bool {
        let rest_from = self.rest.len() as u32;
        if !self.rest_of(shape, cells, total) && !given {
            return false;
        }
        let combos = match &mut self.combos {
            Combos::Shared(t) => t.range(cells.len(), total),
            Combos::Own(own) => {
                let from = own.len() as u32;
                if let Ok(total) = u32::try_from(total) {
                    let cage = Cage::new(cells.iter().map(|&c| c as u32).collect(), total);
                    match cage.combinations(shape.size(), MAX_COMBINATIONS) {
                        Some(c) => own.extend(c),
                        None => {
                            self.rest.truncate(rest_from as usize);
                            return false;
                        }
                    }
                }
                (from, own.len() as u32)
            }
        };
        let cells_from = self.cells.len() as u32;
        self.cells.extend_from_slice(cells);
        self.groups.push(Group {
            cells: (cells_from, self.cells.len() as u32),
            combos,
            rest: (rest_from, self.rest.len() as u32),
            total,
            cage: given,
            memo: Cell::new(Memo {
                epoch: u64::MAX,
                fixed: 0,
                open: 0,
                count: 0,
            }),
        });
        true
    }

    /// Appends to `rest` the cells outside `cells` of the houses holding all of `cells`;
    /// `false` when no house holds them all.
    fn rest_of(&mut self, shape: &Shape, cells: &[u16], total: i64) -> bool {
        let Some((&first, others)) = cells.split_first() else {
            return false;
        };
        let mut found = false;
        if shape.cells() <= 128 {
            // Cells and houses as bit sets: whether a house holds them all, and its other
            // cells, are a few word operations.
            let inside = cells.iter().fold(0u128, |m, &c| m | 1 << c);
            for &h in shape.houses_of(first as usize) {
                let Some(house) = shape.house_bits(h as usize) else {
                    continue;
                };
                if inside & !house != 0 {
                    continue;
                }
                found = true;
                if let Some((held, sum)) = self.held.get_mut(h as usize) {
                    *held |= inside;
                    *sum += total;
                }
                let outside = house & !inside;
                // Word by word: a 9×9's cells fill two.
                for (base, mut word) in [(0, outside as u64), (64, (outside >> 64) as u64)] {
                    while word != 0 {
                        self.rest.push(base + word.trailing_zeros() as u16);
                        word &= word - 1;
                    }
                }
            }
            return found;
        }
        for (i, &h) in shape.houses_of(first as usize).iter().enumerate() {
            // A cell's row, column and region come first, in that order (`Shape::houses_of`):
            // one comparison each; an extra house may be anywhere after them.
            let in_h = |c: u16| match shape.houses_of(c as usize) {
                theirs if i < 3 => theirs.get(i) == Some(&h),
                theirs => theirs.contains(&h),
            };
            if !others.iter().all(|&c| in_h(c)) {
                continue;
            }
            found = true;
            let outside = shape.house(h as usize).iter();
            let outside = outside.filter(|&&c| !cells.contains(&(c as u16)));
            self.rest.extend(outside.map(|&c| c as u16));
        }
        found
    }

    /// Adds the innies of single houses: in a house holding whole cages that leave at most
    /// `most` of its cells, those cells add up to the house's total less the cages' sums (a
    /// cage of its own, within the house). Ends [`Groups::held`].
    fn add_innies(&mut self, shape: &Shape, most: usize) {
        let held = std::mem::take(&mut self.held);
        let n = shape.size();
        let whole = (n * (n + 1) / 2) as i64;
        let mut cells = vec![];
        for (h, &(inside, sum)) in held.iter().enumerate() {
            let left = n - inside.count_ones() as usize;
            if left == 0 || left > most || left == n {
                continue;
            }
            cells.clear();
            let outside = |&&c: &&u32| inside >> c & 1 == 0;
            cells.extend(shape.house(h).iter().filter(outside).map(|&c| c as u16));
            self.push(shape, &cells, whole - sum, false);
        }
    }

    /// The combinations of cage `g`.
    fn combos_of(&self, g: &Group) -> &[u64] {
        let (a, b) = (g.combos.0 as usize, g.combos.1 as usize);
        match &self.combos {
            Combos::Shared(t) => &t.sets()[a..b],
            Combos::Own(own) => &own[a..b],
        }
    }

    /// The digits the open cells of cage `g` may still take, and the digits every possible
    /// combination holds, given the digits `fixed` in its cells with one candidate (`count`
    /// such cells) and the union `open` of the other cells' candidates; `None` when no
    /// combination is left.
    fn allowed(&self, g: &Group, fixed: u64, count: u32, open: u64) -> Option<(u64, u64)> {
        if fixed.count_ones() != count {
            return None; // two cells of the cage hold the same digit
        }
        let (mut allowed, mut required) = (0, u64::MAX);
        for &k in self.combos_of(g) {
            if k & fixed == fixed && k & !fixed & !open == 0 {
                allowed |= k;
                required &= k;
            }
        }
        (allowed != 0).then_some((allowed & !fixed, required & !fixed))
    }

    /// The open cells of each cage keep only the digits of its combinations still possible
    /// ([`Groups::allowed`]), the digits the cage must hold leave the rest of its houses, and the
    /// other implied sums narrow their cells' bounds. `Some(true)` when a candidate was removed
    /// (cells left with one digit are queued), `None` on a contradiction.
    ///
    /// A cage is skipped while its cells are, as [`Groups::allowed`] reads them, what they were
    /// when it was last narrowed to no effect in this propagation (`epoch`): see [`Memo`].
    fn narrow<M: Mask>(&self, cands: &mut [M], queue: &mut Vec<u16>, epoch: u64) -> Option<bool> {
        let mut progress = false;
        for g in &self.groups {
            let cells = &self.cells[g.cells.0 as usize..g.cells.1 as usize];
            let (mut fixed, mut count, mut open) = (0u64, 0, 0u64);
            for &c in cells {
                let m = cands[c as usize].to_u64();
                // Without a branch: which cells are fixed follows no pattern.
                let one = u64::from(m & m.wrapping_sub(1) == 0);
                fixed |= m & one.wrapping_neg();
                open |= m & one.wrapping_sub(1);
                count += one as u32;
            }
            let memo = Memo {
                epoch,
                fixed,
                open,
                count,
            };
            if g.memo.get() == memo {
                continue;
            }
            let (allowed, required) = self.allowed(g, fixed, count, open)?;
            let (allowed, required) = (M::from_u64(allowed), M::from_u64(required));
            let mut changed = false;
            for &c in cells {
                if !cands[c as usize].at_most_one() {
                    changed |= keep(cands, c, allowed, queue)?;
                }
            }
            // Narrowing its cells may fix one, which may narrow the others further: only a
            // cage left as it was is at rest.
            match changed {
                true => progress = true,
                false => g.memo.set(memo),
            }
            if required != M::ZERO {
                for &c in &self.rest[g.rest.0 as usize..g.rest.1 as usize] {
                    progress |= keep(cands, c, !required, queue)?;
                }
            }
        }
        let mut from = 0;
        for &(end, total) in &self.sums {
            let cells = &self.sum_cells[from..end as usize];
            from = end as usize;
            progress |= narrow_sum(cands, cells, total, queue)?;
        }
        Some(progress)
    }
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

#[cfg(test)]
mod tests {
    use super::super::house_sums::{killer, killer4};
    use super::*;

    /// The cages of a 4×4 with `cages` (cells, sum), without innies.
    fn cages(cages: &[(&[u32], u32)]) -> Cages {
        Cages::with_innies(&killer4(cages), 0).unwrap().unwrap()
    }

    /// Narrows `cands` to a fixpoint of `c` alone (in one propagation) and returns it.
    fn settle(c: &Cages, mut cands: Vec<u16>) -> Option<Vec<u16>> {
        c.begin();
        while c.narrow(&mut cands, &mut vec![])? {}
        Some(cands)
    }

    #[test]
    fn cages_go_smallest_first_keeping_their_numbers() {
        let puzzle = killer4(&[
            (&[0, 1, 4], 7),
            (&[2, 3], 7),
            (&[5, 6, 7, 8], 10),
            (&[9], 2),
        ]);
        let order: Vec<(usize, usize)> = by_size(&puzzle)
            .into_iter()
            .map(|(i, c)| (i, c.cells().len()))
            .collect();
        assert_eq!(order, [(3, 1), (1, 2), (0, 3), (2, 4)]);
    }

    #[test]
    fn the_cell_a_house_s_cages_leave_is_narrowed_from_the_start() {
        // Row 0 of a 9×9 is four cages of two cells adding up to 10 each, and cells 8 and 17
        // (column 8) form a cage of 11 whose other cell lies outside row 0. No digit is
        // required by any pair, so the cages alone only take 1 from cell 8; the row's innie is
        // cell 8 alone, 45 − 40 = 5, with no implied sums added. Then cell 17 is 6.
        let cages: Vec<(Vec<u32>, u32)> = (0..4)
            .map(|k| (vec![2 * k, 2 * k + 1], 10))
            .chain([(vec![8, 17], 11)])
            .collect();
        let cages: Vec<(&[u32], u32)> = cages.iter().map(|(c, s)| (&c[..], *s)).collect();
        let puzzle = killer(9, &cages);
        let without = Cages::with_innies(&puzzle, 0).unwrap().unwrap();
        assert_eq!(settle(&without, vec![0x1ffu16; 81]).unwrap()[8], 0x1fe);
        let c = Cages::new(&puzzle).unwrap().unwrap();
        let cands = settle(&c, vec![0x1ffu16; 81]).unwrap();
        assert_eq!((cands[8], cands[17]), (1 << 4, 1 << 5));
        assert!(c.deep.get().is_none());
        // The innie is not taken for a cage of the puzzle when the sums are added.
        let given = c.given.groups.iter().filter(|g| g.cage).count();
        assert_eq!((given, c.given.groups.len()), (5, 6));
    }

    #[test]
    fn implied_sums_narrow_only_once_added() {
        // Row 0 is covered by {0, 1} = 3 and {2, 3, 7} = 9, so cell 7 (row 1) is 9 − (10 − 3)
        // = 2; the cage alone leaves it {2, 3, 4}.
        let c = cages(&[(&[0, 1], 3), (&[2, 3, 7], 9)]);
        let cands = settle(&c, vec![0b1111; 16]).unwrap();
        assert_eq!(cands[7], 0b1110);
        // {0, 1} holds 1 and 2, which leave the rest of row 0.
        assert_eq!((cands[0], cands[2]), (0b0011, 0b1100));
        assert!(c.deepen(&cands));
        assert!(!c.deepen(&cands), "added once");
        let cands = settle(&c, cands).unwrap();
        assert_eq!(cands[7], 0b0010);
    }

    #[test]
    fn fixed_cells_leave_the_deepened_cages_and_sums() {
        // Cell 0 fixed to 1 when the sums are added: the cage {0, 1} = 3 keeps cell 1 alone, to
        // 2; a clash planted afterwards in a fixed cell's former cage is still found through
        // the cells left open.
        let c = cages(&[(&[0, 1], 3), (&[2, 3, 7], 9)]);
        let mut cands = vec![0b1111u16; 16];
        cands[0] = 0b0001;
        assert!(c.deepen(&cands));
        let settled = settle(&c, cands.clone()).unwrap();
        assert_eq!(settled[1], 0b0010);
        cands[1] = 0b0001; // the cage's other cell may not take 1 as well (3 − 1 = 2 only)
        assert!(settle(&c, cands).is_none());
    }
}
