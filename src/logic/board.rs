//! The candidate grid that techniques read: digits, candidates per cell and, per house and
//! digit, the positions inside the house that still hold the digit.
//!
//! Bit layout: a cell's candidates are a `u64` with bit `d - 1` for digit `d`; a house's
//! positions of a digit are a `u64` with bit `i` for the house's `i`-th cell
//! ([`crate::model::Shape::house`] order). Both fit because the side is at most 64.

use std::sync::Arc;

use super::rules::{self, Rule};
use super::step::Step;
use super::LogicError;
use crate::model::{Puzzle, Shape, Value};

/// Largest side the engine takes (candidates are a `u64`).
pub const MAX_SIDE: usize = 64;

/// A rectangle of [`Board::rectangles`] seen from one corner: its index, and its corners from
/// that one around it ([`Board::rectangles_from`]).
pub type RectangleFrom = (usize, [usize; 4]);

/// The geometry shared by all boards of one shape: houses and the peers of each cell.
#[derive(Debug)]
pub(crate) struct Geometry {
    shape: Arc<Shape>,
    /// Distinct cells sharing a house with the cell, the cell excluded.
    peers: Vec<Vec<u32>>,
    /// Per cell, each house holding it and the cell's index in that house (the bit of
    /// [`Board::positions`] the cell owns there).
    slots: Vec<Vec<(u32, u32)>>,
    /// The same peers as bitsets over the cells, `words` `u64`s a cell (bit `p % 64` of word
    /// `cell * words + p / 64`), for [`Board::sees`].
    peer_bits: Vec<u64>,
    words: usize,
    /// The cells two houses share, for every pair of houses sharing two or more (built when
    /// first asked for).
    intersections: std::sync::OnceLock<Vec<Vec<u32>>>,
    /// The rectangles whose digits could swap (built when first asked for).
    rectangles: std::sync::OnceLock<Vec<[usize; 4]>>,
    /// Per cell, the rectangles through it, ordered from it ([`Board::rectangles_from`]).
    rectangles_from: std::sync::OnceLock<Vec<Vec<RectangleFrom>>>,
    /// The puzzle's rules beyond its houses, one a constraint ([`rules`]).
    rules: Vec<Rule>,
    /// The puzzle, when it has rules (the last resort searches it).
    puzzle: Option<Puzzle>,
}

impl Geometry {
    /// The geometry of a puzzle's shape and rules. A puzzle without rules shares the geometry
    /// of the puzzle before it on the same thread when their shapes are the same (a file of
    /// puzzles of one shape builds it once).
    fn of(puzzle: &Puzzle) -> Arc<Geometry> {
        thread_local! {
            static LAST: std::cell::RefCell<Option<Arc<Geometry>>> = const { std::cell::RefCell::new(None) };
        }
        let rules = rules::compile(puzzle);
        if !rules.is_empty() {
            return Arc::new(Geometry::build(puzzle, rules));
        }
        LAST.with_borrow_mut(|last| {
            match last {
                Some(geo) if geo.rules.is_empty() && *geo.shape == *puzzle.shape() => {}
                _ => *last = Some(Arc::new(Geometry::build(puzzle, rules))),
            }
            last.clone().expect("set above")
        })
    }

    fn build(puzzle: &Puzzle, mut rules: Vec<Rule>) -> Geometry {
        let shape = puzzle.shape_arc().clone();
        let cells = shape.size() * shape.size();
        let mut peers = vec![vec![]; cells];
        for (cell, list) in peers.iter_mut().enumerate() {
            for &h in shape.houses_of(cell) {
                list.extend(
                    shape
                        .house(h as usize)
                        .iter()
                        .filter(|&&c| c as usize != cell),
                );
            }
        }
        for group in rules.iter().flat_map(|r| &r.distinct) {
            for &a in group {
                peers[a as usize].extend(group.iter().filter(|&&b| b != a));
            }
        }
        for list in peers.iter_mut() {
            list.sort_unstable();
            list.dedup();
        }
        rules::read_sums(&mut rules, &peers);
        let words = cells.div_ceil(64);
        let mut peer_bits = vec![0u64; cells * words];
        for (cell, list) in peers.iter().enumerate() {
            for &p in list {
                peer_bits[cell * words + p as usize / 64] |= 1u64 << (p % 64);
            }
        }
        let slots = (0..cells)
            .map(|cell| {
                let at = |h: u32| {
                    shape
                        .house(h as usize)
                        .iter()
                        .position(|&c| c as usize == cell)
                };
                shape
                    .houses_of(cell)
                    .iter()
                    .map(|&h| (h, at(h).unwrap_or(0) as u32))
                    .collect()
            })
            .collect();
        Geometry {
            shape,
            peers,
            slots,
            peer_bits,
            words,
            intersections: std::sync::OnceLock::new(),
            rectangles: std::sync::OnceLock::new(),
            rectangles_from: std::sync::OnceLock::new(),
            puzzle: (!rules.is_empty()).then(|| puzzle.clone()),
            rules,
        }
    }
}

/// Digits and candidates of a grid being solved.
#[derive(Debug, Clone)]
pub struct Board {
    geo: Arc<Geometry>,
    values: Vec<Value>,
    cands: Vec<u64>,
    /// `pos[h * n + d - 1]`: positions in house `h` holding candidate `d`.
    pos: Vec<u64>,
    /// `placed[h]`: digits already placed in house `h`.
    placed: Vec<u64>,
    /// [`Board::broken`], computed with the per-house data.
    broken: bool,
    /// The puzzle's givens (true for a cell given, not placed by a step): avoidable
    /// rectangles read only placed cells.
    givens: Arc<[bool]>,
}

/// The cells holding each digit as a candidate: per digit, a bit set over the cells (bit
/// `c % 64` of word `c / 64`, as [`Board::peer_set`]).
pub struct DigitCells {
    words: usize,
    sets: Vec<u64>,
}

impl DigitCells {
    pub fn of(board: &Board) -> DigitCells {
        let n = board.n();
        let words = board.geo.words;
        let mut sets = vec![0u64; (n + 1) * words];
        for c in 0..n * n {
            for d in digits(board.cands(c)) {
                sets[d as usize * words + c / 64] |= 1 << (c % 64);
            }
        }
        DigitCells { words, sets }
    }
    /// The cells holding `d`.
    pub fn of_digit(&self, d: Value) -> &[u64] {
        &self.sets[d as usize * self.words..(d as usize + 1) * self.words]
    }
}

/// All digits of side `n`.
pub fn all_digits(n: usize) -> u64 {
    if n == 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// The bit of digit `d`.
pub fn bit(d: Value) -> u64 {
    1u64 << (d - 1)
}

/// The digits of a mask, ascending.
pub fn digits(mask: u64) -> impl Iterator<Item = Value> {
    bits(mask).map(|b| b as Value + 1)
}

/// The set bit indices of a mask, ascending.
pub fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let b = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            b
        })
    })
}

impl Board {
    /// The board of a puzzle's givens: every empty cell holds the digits none of its peers is
    /// given. Givens that clash are kept (the board is then [`Board::broken`]). Cells that a
    /// rule keeps distinct (a cage, an extra region, anti-knight neighbours, …) are peers too.
    pub fn new(puzzle: &Puzzle) -> Result<Board, LogicError> {
        let n = puzzle.size();
        if n > MAX_SIDE {
            return Err(LogicError::TooLarge(n));
        }
        let cells = n * n;
        let geo = Geometry::of(puzzle);
        let mut board = Board {
            geo,
            values: puzzle.givens().to_vec(),
            cands: vec![all_digits(n); cells],
            pos: vec![0; puzzle.shape().house_count() * n],
            placed: vec![0; puzzle.shape().house_count()],
            broken: false,
            givens: puzzle.givens().iter().map(|&v| v != 0).collect(),
        };
        for cell in 0..cells {
            let v = board.values[cell];
            if v != 0 {
                board.cands[cell] = 0;
                for &p in &board.geo.peers[cell] {
                    board.cands[p as usize] &= !bit(v);
                }
            }
        }
        board.refresh();
        Ok(board)
    }

    /// The board of a puzzle with candidates removed (a grid with pencil marks).
    pub fn with_eliminations(
        puzzle: &Puzzle,
        eliminations: &[(usize, Value)],
    ) -> Result<Board, LogicError> {
        let mut board = Board::new(puzzle)?;
        let n = board.n();
        for &(cell, d) in eliminations {
            if cell >= n * n || d == 0 || d as usize > n {
                return Err(LogicError::BadCandidates {
                    row: cell / n + 1,
                    col: cell % n + 1,
                    message: format!("no candidate {d} in a grid of side {n}"),
                });
            }
            board.eliminate(cell, d);
        }
        Ok(board)
    }

    /// Computes the per-house data from the cells, and whether the board is broken (once, for
    /// the givens; steps then keep the data up to date as they change the cells).
    fn refresh(&mut self) {
        let n = self.n();
        self.pos.fill(0);
        let mut broken = (0..n * n).any(|c| self.values[c] == 0 && self.cands[c] == 0);
        let shape = &self.geo.shape;
        for (h, house) in shape.houses().enumerate() {
            let (mut placed, mut given, mut open) = (0, 0, 0);
            let pos = &mut self.pos[h * n..(h + 1) * n];
            for (i, &cell) in house.iter().enumerate() {
                let cell = cell as usize;
                if self.values[cell] != 0 {
                    placed |= bit(self.values[cell]);
                    given += 1;
                }
                open |= self.cands[cell];
                for b in bits(self.cands[cell]) {
                    pos[b] |= 1 << i;
                }
            }
            self.placed[h] = placed;
            // A digit twice, a digit both placed and open, or a digit with no place left.
            broken |= given != placed.count_ones()
                || (open | placed) != all_digits(n)
                || open & placed != 0;
        }
        self.broken = broken;
    }

    /// Applies a step: its placements (which also remove the digit from the peers) and its
    /// eliminations. Returns false when the step changed nothing.
    pub fn apply(&mut self, step: &Step) -> bool {
        let mut changed = false;
        for p in &step.placements {
            changed |= self.values[p.cell as usize] == 0;
            self.place(p.cell as usize, p.digit);
        }
        for e in &step.eliminations {
            changed |= self.eliminate(e.cell as usize, e.digit);
        }
        changed
    }

    /// Removes candidate `d` from a cell and from the cell's places in its houses; marks the
    /// board broken when the cell, or a house still missing `d`, is left without a place.
    /// Returns false when the cell did not hold the candidate.
    fn eliminate(&mut self, cell: usize, d: Value) -> bool {
        let b = bit(d);
        if self.cands[cell] & b == 0 {
            return false;
        }
        self.cands[cell] &= !b;
        self.broken |= self.cands[cell] == 0 && self.values[cell] == 0;
        self.unplace(cell, d);
        true
    }

    /// Clears a cell's bit from the places of `d` in each of its houses (the cell no longer
    /// holds the candidate); a house still missing `d` with no place left breaks the board.
    fn unplace(&mut self, cell: usize, d: Value) {
        let n = self.n();
        for &(h, i) in &self.geo.slots[cell] {
            let (h, i) = (h as usize, i as usize);
            let places = &mut self.pos[h * n + d as usize - 1];
            *places &= !(1u64 << i);
            self.broken |= *places == 0 && self.placed[h] & bit(d) == 0;
        }
    }

    /// Places `d` in a cell: the houses take the digit (a house that has it already breaks the
    /// board), the cell's other candidates leave its houses' places, and the peers lose `d`.
    fn place(&mut self, cell: usize, d: Value) {
        if self.values[cell] != 0 {
            if self.values[cell] != d {
                // A digit over another: a wrong step. Rebuild the house data from the cells.
                self.overwrite(cell, d);
            }
            return;
        }
        let geo = Arc::clone(&self.geo);
        for &(h, _) in &geo.slots[cell] {
            self.broken |= self.placed[h as usize] & bit(d) != 0;
            self.placed[h as usize] |= bit(d);
        }
        let open = std::mem::take(&mut self.cands[cell]);
        self.values[cell] = d;
        for b in bits(open) {
            self.unplace(cell, b as Value + 1);
        }
        for &p in &geo.peers[cell] {
            self.eliminate(p as usize, d);
        }
    }

    fn overwrite(&mut self, cell: usize, d: Value) {
        self.values[cell] = d;
        self.cands[cell] = 0;
        let geo = Arc::clone(&self.geo);
        for &p in &geo.peers[cell] {
            self.cands[p as usize] &= !bit(d);
        }
        let broken = self.broken;
        self.refresh();
        self.broken |= broken;
    }

    /// Places a digit and removes it from the peers (the data of houses follows).
    pub fn set(&mut self, cell: usize, d: Value) {
        self.place(cell, d);
    }

    pub fn n(&self) -> usize {
        self.geo.shape.size()
    }
    pub fn shape(&self) -> &Shape {
        &self.geo.shape
    }
    /// The digit in a cell, `0` when empty.
    pub fn value(&self, cell: usize) -> Value {
        self.values[cell]
    }
    pub fn values(&self) -> &[Value] {
        &self.values
    }
    /// The candidates of a cell (`0` when it holds a digit).
    pub fn cands(&self, cell: usize) -> u64 {
        self.cands[cell]
    }
    /// True when the cell is one of the puzzle's givens.
    pub fn is_given(&self, cell: usize) -> bool {
        self.givens[cell]
    }
    pub fn has(&self, cell: usize, d: Value) -> bool {
        self.cands[cell] & bit(d) != 0
    }
    pub fn house_count(&self) -> usize {
        self.placed.len()
    }
    pub fn house(&self, h: usize) -> &[u32] {
        self.geo.shape.house(h)
    }
    /// Positions (bits over [`Board::house`]) of candidate `d` in house `h`.
    pub fn positions(&self, h: usize, d: Value) -> u64 {
        self.pos[h * self.n() + d as usize - 1]
    }
    /// The cells of house `h` holding candidate `d`.
    pub fn cells_of(&self, h: usize, d: Value) -> impl Iterator<Item = usize> + '_ {
        let house = self.house(h);
        bits(self.positions(h, d)).map(move |i| house[i] as usize)
    }
    /// Digits placed in house `h`.
    pub fn placed(&self, h: usize) -> u64 {
        self.placed[h]
    }
    /// The cells sharing a house with `cell`.
    pub fn peers(&self, cell: usize) -> &[u32] {
        &self.geo.peers[cell]
    }
    /// True when two distinct cells share a house.
    pub fn sees(&self, a: usize, b: usize) -> bool {
        let geo = &self.geo;
        geo.peer_bits[a * geo.words + b / 64] >> (b % 64) & 1 != 0
    }
    /// The cells two houses share, for each pair of houses (in order of the first house, then
    /// the second) sharing two or more: a box and a line, or two overlapping regions.
    pub fn intersections(&self) -> &[Vec<u32>] {
        self.geo.intersections.get_or_init(|| {
            let shape = &self.geo.shape;
            let count = self.house_count();
            let mut out = vec![];
            for h1 in 0..count {
                for h2 in h1 + 1..count {
                    let common: Vec<u32> = shape
                        .house(h1)
                        .iter()
                        .copied()
                        .filter(|c| shape.house(h2).contains(c))
                        .collect();
                    if common.len() >= 2 {
                        out.push(common);
                    }
                }
            }
            out
        })
    }
    /// The rectangles of four cells, in two rows and two columns, where swapping two digits
    /// keeps every house's digits (each house holding a corner holds all four, or two in one
    /// row or one column): the deadly patterns of unique rectangles. Corners in cycle order
    /// (`r1c1, r1c2, r2c2, r2c1`), rectangles by first row, second row, first column, second.
    pub fn rectangles(&self) -> &[[usize; 4]] {
        self.geo.rectangles.get_or_init(|| {
            let (n, shape) = (self.n(), &*self.geo.shape);
            let deadly = |corners: &[usize; 4]| {
                corners.iter().all(|&first| {
                    shape.houses_of(first).iter().all(|h| {
                        let mut inside =
                            corners.iter().filter(|&&c| shape.houses_of(c).contains(h));
                        match (inside.next(), inside.next(), inside.clone().count()) {
                            (Some(_), Some(_), 2) => true,
                            (Some(&x), Some(&y), 0) => x / n == y / n || x % n == y % n,
                            _ => false,
                        }
                    })
                })
            };
            let mut out = vec![];
            for r1 in 0..n {
                for r2 in r1 + 1..n {
                    for c1 in 0..n {
                        for c2 in c1 + 1..n {
                            let corners = [r1 * n + c1, r1 * n + c2, r2 * n + c2, r2 * n + c1];
                            if deadly(&corners) {
                                out.push(corners);
                            }
                        }
                    }
                }
            }
            out
        })
    }
    /// The rectangles through `cell` (indices into [`Board::rectangles`]), each with its
    /// corners from `cell` around it, the corner beside `cell` in its box second: ordered by
    /// that corner, then by the far side's line (row or column), as HoDoKu meets them.
    pub fn rectangles_from(&self, cell: usize) -> &[RectangleFrom] {
        let all = self.geo.rectangles_from.get_or_init(|| {
            let (n, shape) = (self.n(), &*self.geo.shape);
            let shared = |x: usize, y: usize| {
                let hy = shape.houses_of(y);
                shape.houses_of(x).iter().filter(|h| hy.contains(h)).count()
            };
            // Per cell, its rectangles with their sort key (the corner beside, the far line).
            let mut from: Vec<Vec<((usize, usize), RectangleFrom)>> = vec![vec![]; n * n];
            for (i, corners) in self.rectangles().iter().enumerate() {
                for (at, &start) in corners.iter().enumerate() {
                    let (next, prev) = (corners[(at + 1) % 4], corners[(at + 3) % 4]);
                    let around: [usize; 4] = if shared(start, prev) > shared(start, next) {
                        std::array::from_fn(|k| corners[(at + 4 - k) % 4])
                    } else {
                        std::array::from_fn(|k| corners[(at + k) % 4])
                    };
                    let beside = around[1];
                    let far = match beside / n == start / n {
                        true => around[3] / n,
                        false => around[3] % n,
                    };
                    from[start].push(((beside, far), (i, around)));
                }
            }
            (from.into_iter())
                .map(|mut list| {
                    list.sort_unstable();
                    list.into_iter().map(|(_, rectangle)| rectangle).collect()
                })
                .collect()
        });
        &all[cell]
    }
    /// The peers of a cell as a bitset over the cells (bit `p % 64` of word `p / 64`).
    pub fn peer_set(&self, cell: usize) -> &[u64] {
        let words = self.geo.words;
        &self.geo.peer_bits[cell * words..(cell + 1) * words]
    }
    /// The cells with exactly two candidates.
    pub fn bivalue_cells(&self) -> Vec<usize> {
        (0..self.cands.len())
            .filter(|&c| self.cands[c].count_ones() == 2)
            .collect()
    }
    /// Empty cells left.
    pub fn empty_cells(&self) -> usize {
        self.values.iter().filter(|&&v| v == 0).count()
    }
    pub fn solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }
    /// The puzzle's rules beyond its houses (empty for a classic, jigsaw or X grid).
    pub fn rules(&self) -> &[Rule] {
        &self.geo.rules
    }
    /// The puzzle, when it has rules beyond its houses.
    /// The geometry the board reads its houses, peers and rules from: one for every board of a
    /// solving path ([`super::origin`]).
    pub(crate) fn geometry(&self) -> &Arc<Geometry> {
        &self.geo
    }
    pub fn rule_puzzle(&self) -> Option<&Puzzle> {
        self.geo.puzzle.as_ref()
    }
    /// True when the board cannot be completed as it stands: an empty cell without candidates,
    /// a digit twice in a house, a house where a missing digit has no place left, or a rule
    /// that cannot be met.
    pub fn broken(&self) -> bool {
        self.broken || rules::broken(self)
    }
}

/// Calls `f(chosen, union)` for every choice of `k` entries of `masks` (indices ascending)
/// whose union has at most `limit` bits, pruning as soon as a partial union passes `limit`.
/// Returns true as soon as `f` does (to stop).
pub fn choose_within(
    masks: &[u64],
    k: usize,
    limit: usize,
    f: &mut dyn FnMut(&[usize], u64) -> bool,
) -> bool {
    fn go(
        masks: &[u64],
        k: usize,
        limit: usize,
        from: usize,
        chosen: &mut Vec<usize>,
        union: u64,
        f: &mut dyn FnMut(&[usize], u64) -> bool,
    ) -> bool {
        if chosen.len() == k {
            return f(chosen, union);
        }
        for i in from..masks.len() {
            if masks.len() - i < k - chosen.len() {
                break;
            }
            let u = union | masks[i];
            if u.count_ones() as usize > limit {
                continue;
            }
            chosen.push(i);
            let stop = go(masks, k, limit, i + 1, chosen, u, f);
            chosen.pop();
            if stop {
                return true;
            }
        }
        false
    }
    go(masks, k, limit, 0, &mut Vec::with_capacity(k), 0, f)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks the data a step keeps up to date against the data rebuilt from the cells.
    fn assert_as_rebuilt(board: &Board) {
        let mut rebuilt = board.clone();
        rebuilt.refresh();
        assert_eq!(board.pos, rebuilt.pos);
        assert_eq!(board.placed, rebuilt.placed);
        assert_eq!(board.broken, rebuilt.broken);
    }

    /// Random placements and eliminations (a fixed generator) on an empty grid of each shape,
    /// each followed by the check, until the board breaks (placements of guessed digits break
    /// it sooner or later): the step that breaks it must be seen as breaking by both.
    #[test]
    fn steps_keep_the_house_data_a_rebuild_gives() {
        let shapes = [
            Shape::standard(9, false),
            Shape::standard(9, true),
            Shape::standard(6, false),
            Shape::standard(4, false),
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |m: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % m as u64) as usize
        };
        let mut broke = 0;
        for shape in shapes {
            let shape = Arc::new(shape.unwrap());
            let n = shape.size();
            for _ in 0..40 {
                let puzzle = Puzzle::new(Arc::clone(&shape), vec![0; n * n]).unwrap();
                let mut board = Board::new(&puzzle).unwrap();
                assert_as_rebuilt(&board);
                while !board.broken && !board.solved() {
                    let cell = next(n * n);
                    let open: Vec<Value> = digits(board.cands(cell)).collect();
                    if open.is_empty() {
                        continue;
                    }
                    let d = open[next(open.len())];
                    match next(3) {
                        0 => board.set(cell, d),
                        _ => {
                            board.eliminate(cell, d);
                        }
                    }
                    assert_as_rebuilt(&board);
                }
                broke += usize::from(board.broken);
            }
        }
        assert!(
            broke > 0,
            "no run broke the board: the check saw no breaking step"
        );
    }
}
