//! Root-level deductions shared by the `dlx`, `sat` and `ilp` backends, before their own search:
//! each open cell's candidates from the givens (what Kwon & Jain call given simplification),
//! then, by [`Level`], naked and hidden singles and locked candidates repeated until nothing
//! changes. Every deduction holds in every solution, so counts are unchanged; what is left open
//! is what the backend decides. (The `dfs` search has its own kernels, since there the same
//! rules run at every node.)
//!
//! - *Naked single*: a cell left with one candidate takes it; a placement removes its digit
//!   from every peer ([`Level::Naked`] stops there, for measuring root strength).
//! - *Hidden single*: a digit left with one place in a house goes there.
//! - *Locked candidates*, for any two houses (box–line "pointing" and "claiming", and the same
//!   between jigsaw regions, lines and diagonals): when every place left for digit `d` in house
//!   `A` lies inside house `B`, `d` is removed from the rest of `B`.
//!
//! These see the houses only. The backends that take variant rules over the candidates (`dlx`,
//! `ilp`) then call [`Candidates::restrict`]: what the fixed cells rule out through the rules,
//! and the pairs made arc consistent, once, with no singles after.
//!
//! Candidates are bitsets: one `u64` per cell up to 64×64 (so 9×9 work is plain word
//! operations), else an array of 2 to 16 words, chosen from the side.
//!
//! [`probe`] goes further on puzzles with variant rules, for `cp` and `sat`: each digit left to
//! a cell is tried and propagated through every rule (singleton arc consistency).

pub mod probe;

use crate::model::lower::{Pair, PairRule, Rules};
use crate::model::{Puzzle, Shape, Value};

/// How far to reason before the backend takes over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Candidates from the givens only.
    Givens,
    /// Naked singles alone to a fixpoint (a cell left with one candidate takes it).
    Naked,
    /// Naked and hidden singles to a fixpoint.
    Singles,
    /// Singles and locked candidates to a fixpoint.
    Locked,
}

/// What the deductions leave: fixed cells and the candidates of the open ones.
#[derive(Debug, Clone)]
pub struct Candidates {
    n: usize,
    /// Words per cell and per house in `cand` and `placed`.
    stride: usize,
    fixed: Vec<Value>,
    /// Candidates of each open cell (bit `d - 1` for digit `d`); empty for fixed cells.
    cand: Vec<u64>,
    /// Digits fixed in each house.
    placed: Vec<u64>,
    contradiction: Option<String>,
}

impl Candidates {
    /// Runs the deductions of `level` on `puzzle`.
    pub fn new(puzzle: &Puzzle, level: Level) -> Candidates {
        match puzzle.size().div_ceil(64) {
            0 | 1 => Work::<u64>::run(puzzle, level),
            2 => Work::<[u64; 2]>::run(puzzle, level),
            3 | 4 => Work::<[u64; 4]>::run(puzzle, level),
            5..=8 => Work::<[u64; 8]>::run(puzzle, level),
            _ => Work::<[u64; 16]>::run(puzzle, level),
        }
    }

    /// Why the puzzle has no solution, when the deductions met a contradiction: two givens
    /// clash, a cell has no candidate left, or a digit has no place left in a house. The rest
    /// of the state is then only what had been deduced when it was found.
    pub fn contradiction(&self) -> Option<&str> {
        self.contradiction.as_deref()
    }

    /// Side of the grid.
    pub fn size(&self) -> usize {
        self.n
    }

    /// The givens and the cells fixed by the deductions; 0 for open cells.
    pub fn fixed(&self) -> &[Value] {
        &self.fixed
    }

    /// Whether `digit` (1-based) is a candidate of the open cell `cell` (never for fixed cells).
    pub fn has(&self, cell: usize, digit: Value) -> bool {
        let d = digit as usize - 1;
        self.cand[cell * self.stride + d / 64] >> (d % 64) & 1 != 0
    }

    /// Number of candidates of `cell` (0 for fixed cells).
    pub fn count(&self, cell: usize) -> u32 {
        self.words(cell).iter().map(|w| w.count_ones()).sum()
    }

    /// The candidates of `cell`, in increasing order (none for fixed cells).
    pub fn digits(&self, cell: usize) -> impl Iterator<Item = Value> + '_ {
        self.words(cell).iter().enumerate().flat_map(|(i, &w)| {
            let mut left = w;
            std::iter::from_fn(move || {
                (left != 0).then(|| {
                    let d = i * 64 + left.trailing_zeros() as usize + 1;
                    left &= left - 1;
                    d as Value
                })
            })
        })
    }

    /// Whether `digit` (1-based) is fixed somewhere in `house`.
    pub fn placed_in(&self, house: usize, digit: Value) -> bool {
        let d = digit as usize - 1;
        self.placed[house * self.stride + d / 64] >> (d % 64) & 1 != 0
    }

    /// Removes the placements that the variant rules exclude given the fixed cells
    /// ([`Rules::exclusions`]), then, to a fixpoint, each open cell's digits that a two-cell rule
    /// with another open cell leaves without a digit there to go with (arc consistency of the
    /// pairs at the root, as `dfs` keeps it at every node), for the backends that take the rules
    /// over these candidates. No other deduction follows (a cell left with one candidate stays
    /// open). Records a contradiction when the fixed cells break a rule or an open cell is left
    /// with no candidate; does nothing after one.
    pub fn restrict(&mut self, rules: &Rules) {
        if self.contradiction.is_some() || rules.is_empty() {
            return;
        }
        let n = self.n;
        let out = match rules.exclusions(n, &self.fixed) {
            Ok(out) => out,
            Err(why) => {
                self.contradiction = Some(why.to_string());
                return;
            }
        };
        for (cell, digit) in out {
            self.drop_candidate(cell as usize, digit);
        }
        let pairs: Vec<Pair> = rules.all_pairs().filter(|p| p.a != p.b).collect();
        let mut changed = true;
        while changed {
            changed = false;
            for p in &pairs {
                for (cell, other, first) in [(p.a, p.b, true), (p.b, p.a, false)] {
                    let (cell, other) = (cell as usize, other as usize);
                    let open = self.fixed[cell] == 0 && self.fixed[other] == 0;
                    // Two digits left in the other cell support any digit of `cell`.
                    if !open || (p.rule == PairRule::Differ && self.count(other) > 1) {
                        continue;
                    }
                    let there: Vec<Value> = self.digits(other).collect();
                    let allows = |d: Value, e: Value| match first {
                        true => p.rule.allows(d as u32, e as u32),
                        false => p.rule.allows(e as u32, d as u32),
                    };
                    let dead: Vec<Value> = self
                        .digits(cell)
                        .filter(|&d| !there.iter().any(|&e| allows(d, e)))
                        .collect();
                    changed |= !dead.is_empty();
                    for d in dead {
                        self.drop_candidate(cell, d);
                    }
                }
            }
        }
        if let Some(cell) = (0..n * n).find(|&c| self.fixed[c] == 0 && self.count(c) == 0) {
            self.contradiction = Some(format!(
                "row {}, column {} has no digit left",
                cell / n + 1,
                cell % n + 1
            ));
        }
    }

    fn drop_candidate(&mut self, cell: usize, digit: Value) {
        let d = digit as usize - 1;
        self.cand[cell * self.stride + d / 64] &= !(1u64 << (d % 64));
    }

    fn words(&self, cell: usize) -> &[u64] {
        &self.cand[cell * self.stride..][..self.stride]
    }
}

/// A contradiction, described cheaply (the message is written once, at the end).
#[derive(Debug, Clone, Copy)]
enum Clash {
    /// The given `value` is twice in `house`.
    Givens { value: Value, house: usize },
    /// `cell` has no candidate left.
    NoDigit { cell: usize },
    /// The 0-based `digit` has no place left in `house`.
    NoPlace { digit: usize, house: usize },
}

impl Clash {
    fn message(self, shape: &Shape) -> String {
        let n = shape.size();
        match self {
            Clash::Givens { value, house } => {
                format!(
                    "the given {value} appears twice in {}",
                    shape.house_name(house)
                )
            }
            Clash::NoDigit { cell } => {
                format!(
                    "row {}, column {} has no digit left",
                    cell / n + 1,
                    cell % n + 1
                )
            }
            Clash::NoPlace { digit, house } => {
                format!(
                    "{} has no place left in {}",
                    digit + 1,
                    shape.house_name(house)
                )
            }
        }
    }
}

/// A set of digits (bit `d` for the 0-based digit `d`): one `u64` up to 64 digits, so that 9×9
/// work is plain word operations, or an array of words.
trait Bits: Copy + PartialEq {
    const ZERO: Self;
    const WORDS: usize;
    /// The set of `d` alone.
    fn bit(d: usize) -> Self;
    fn and(self, other: Self) -> Self;
    fn and_not(self, other: Self) -> Self;
    fn or(self, other: Self) -> Self;
    /// Exactly one digit.
    fn is_single(self) -> bool;
    /// The lowest digit alone, and the digit.
    fn lowest(self) -> Option<(Self, usize)>;
    fn push_words(self, out: &mut Vec<u64>);

    fn is_empty(self) -> bool {
        self == Self::ZERO
    }
    /// The digits `0..n`.
    fn full(n: usize) -> Self {
        (0..n).fold(Self::ZERO, |a, d| a.or(Self::bit(d)))
    }
}

impl Bits for u64 {
    const ZERO: u64 = 0;
    const WORDS: usize = 1;
    fn bit(d: usize) -> u64 {
        1 << d
    }
    fn and(self, other: u64) -> u64 {
        self & other
    }
    fn and_not(self, other: u64) -> u64 {
        self & !other
    }
    fn or(self, other: u64) -> u64 {
        self | other
    }
    fn is_single(self) -> bool {
        self != 0 && self & (self - 1) == 0
    }
    fn lowest(self) -> Option<(u64, usize)> {
        (self != 0).then(|| (self & self.wrapping_neg(), self.trailing_zeros() as usize))
    }
    fn push_words(self, out: &mut Vec<u64>) {
        out.push(self);
    }
}

impl<const W: usize> Bits for [u64; W] {
    const ZERO: [u64; W] = [0; W];
    const WORDS: usize = W;
    fn bit(d: usize) -> [u64; W] {
        let mut b = [0; W];
        b[d / 64] = 1 << (d % 64);
        b
    }
    fn and(mut self, other: [u64; W]) -> [u64; W] {
        self.iter_mut().zip(other).for_each(|(a, b)| *a &= b);
        self
    }
    fn and_not(mut self, other: [u64; W]) -> [u64; W] {
        self.iter_mut().zip(other).for_each(|(a, b)| *a &= !b);
        self
    }
    fn or(mut self, other: [u64; W]) -> [u64; W] {
        self.iter_mut().zip(other).for_each(|(a, b)| *a |= b);
        self
    }
    fn is_single(self) -> bool {
        let mut words = self.iter().filter(|&&w| w != 0);
        matches!((words.next(), words.next()), (Some(w), None) if w.is_single())
    }
    fn lowest(self) -> Option<([u64; W], usize)> {
        let i = self.iter().position(|&w| w != 0)?;
        let (one, d) = self[i].lowest()?;
        let mut b = [0; W];
        b[i] = one;
        Some((b, i * 64 + d))
    }
    fn push_words(self, out: &mut Vec<u64>) {
        out.extend_from_slice(&self);
    }
}

/// The deductions on sets of type `B`.
struct Work<'p, B: Bits> {
    shape: &'p Shape,
    full: B,
    fixed: Vec<Value>,
    cand: Vec<B>,
    placed: Vec<B>,
    /// Cells left with one candidate, to place.
    queue: Vec<u32>,
    /// Houses whose cells lost a candidate since the last hidden-singles sweep looked at them
    /// (kept above 64×64 only: on smaller grids sweeping every house costs less than the
    /// bookkeeping; there every house stays marked).
    dirty: Vec<bool>,
}

impl<'p, B: Bits> Work<'p, B> {
    fn run(puzzle: &'p Puzzle, level: Level) -> Candidates {
        let n = puzzle.size();
        let shape = puzzle.shape();
        let mut work = Work {
            shape,
            full: B::full(n),
            fixed: puzzle.givens().to_vec(),
            cand: vec![B::ZERO; n * n],
            placed: vec![B::ZERO; shape.house_count()],
            queue: Vec::new(),
            dirty: vec![true; shape.house_count()],
        };
        let result = work.givens().and_then(|()| match level {
            Level::Givens => Ok(()),
            Level::Naked => work.drain(),
            Level::Singles | Level::Locked => work.fixpoint(level == Level::Locked),
        });
        let words = |sets: &[B]| {
            let mut out = Vec::with_capacity(sets.len() * B::WORDS);
            sets.iter().for_each(|b| b.push_words(&mut out));
            out
        };
        Candidates {
            n,
            stride: B::WORDS,
            cand: words(&work.cand),
            placed: words(&work.placed),
            fixed: work.fixed,
            contradiction: result.err().map(|c| c.message(shape)),
        }
    }

    /// Marks the givens in their houses and computes the candidates of the open cells.
    fn givens(&mut self) -> Result<(), Clash> {
        let shape = self.shape;
        for c in 0..self.fixed.len() {
            let v = self.fixed[c];
            if v == 0 {
                continue;
            }
            let bit = B::bit(v as usize - 1);
            for &h in shape.houses_of(c) {
                let placed = &mut self.placed[h as usize];
                if !placed.and(bit).is_empty() {
                    return Err(Clash::Givens {
                        value: v,
                        house: h as usize,
                    });
                }
                *placed = placed.or(bit);
            }
        }
        for c in 0..self.fixed.len() {
            if self.fixed[c] != 0 {
                continue;
            }
            let seen = shape
                .houses_of(c)
                .iter()
                .fold(B::ZERO, |a, &h| a.or(self.placed[h as usize]));
            let cand = self.full.and_not(seen);
            if cand.is_empty() {
                return Err(Clash::NoDigit { cell: c });
            }
            if cand.is_single() {
                self.queue.push(c as u32);
            }
            self.cand[c] = cand;
        }
        Ok(())
    }

    /// Singles, and locked candidates when `locked`, until nothing changes.
    fn fixpoint(&mut self, locked: bool) -> Result<(), Clash> {
        self.drain()?;
        while self.hidden_singles()? || (locked && self.locked_candidates()?) {}
        Ok(())
    }

    /// Places every queued naked single, and those they imply in turn.
    fn drain(&mut self) -> Result<(), Clash> {
        while let Some(c) = self.queue.pop() {
            self.place(c as usize)?;
        }
        Ok(())
    }

    /// Places the single candidate of `cell` (if it is still open) and removes it from the
    /// peers, queueing those left with one candidate.
    fn place(&mut self, cell: usize) -> Result<(), Clash> {
        let Some((bit, d)) = self.cand[cell].lowest() else {
            return Ok(()); // queued twice, placed already
        };
        self.cand[cell] = B::ZERO;
        self.fixed[cell] = d as Value + 1;
        let shape = self.shape;
        for &h in shape.houses_of(cell) {
            self.placed[h as usize] = self.placed[h as usize].or(bit);
            // The cell's other candidates lost a place in `h`.
            self.dirty[h as usize] = true;
            for &p in shape.house(h as usize) {
                if !self.cand[p as usize].and(bit).is_empty() {
                    self.remove(p as usize, bit)?;
                }
            }
        }
        Ok(())
    }

    /// Removes the candidate `bit` from the open cell `cell`, queueing it when one is left.
    #[inline]
    fn remove(&mut self, cell: usize, bit: B) -> Result<(), Clash> {
        let left = self.cand[cell].and_not(bit);
        if left.is_empty() {
            return Err(Clash::NoDigit { cell });
        }
        if left.is_single() {
            self.queue.push(cell as u32);
        }
        self.cand[cell] = left;
        if B::WORDS > 1 {
            for &h in self.shape.houses_of(cell) {
                self.dirty[h as usize] = true;
            }
        }
        Ok(())
    }

    /// One sweep of hidden singles over the houses that changed since the last sweep, each
    /// placed at once with everything it implies. `Ok(true)` when something was placed.
    fn hidden_singles(&mut self) -> Result<bool, Clash> {
        let shape = self.shape;
        let mut progress = false;
        for h in 0..shape.house_count() {
            if B::WORDS > 1 && !std::mem::take(&mut self.dirty[h]) {
                continue;
            }
            let (mut once, mut twice) = (B::ZERO, B::ZERO);
            for &c in shape.house(h) {
                let cand = self.cand[c as usize];
                twice = twice.or(once.and(cand));
                once = once.or(cand);
            }
            let missing = self.full.and_not(once.or(self.placed[h]));
            if let Some((_, digit)) = missing.lowest() {
                return Err(Clash::NoPlace { digit, house: h });
            }
            let mut hidden = once.and_not(twice);
            while let Some((bit, d)) = hidden.lowest() {
                hidden = hidden.and_not(bit);
                if !self.placed[h].and(bit).is_empty() {
                    continue; // placed meanwhile by the singles it implied
                }
                // An earlier placement may have taken the only place: no solution.
                let Some(&c) = shape
                    .house(h)
                    .iter()
                    .find(|&&c| !self.cand[c as usize].and(bit).is_empty())
                else {
                    return Err(Clash::NoPlace { digit: d, house: h });
                };
                self.cand[c as usize] = bit;
                self.queue.push(c);
                self.drain()?;
                progress = true;
            }
        }
        Ok(progress)
    }

    /// Locked candidates over every pair of houses. `Ok(true)` when a candidate was removed.
    fn locked_candidates(&mut self) -> Result<bool, Clash> {
        let shape = self.shape;
        let mut progress = false;
        for h in 0..shape.house_count() {
            let mut open = self.full.and_not(self.placed[h]);
            while let Some((bit, _)) = open.lowest() {
                open = open.and_not(bit);
                let has = |w: &Self, c: u32| !w.cand[c as usize].and(bit).is_empty();
                // The other houses holding every cell of `h` that can take `bit`: those of the
                // first such cell, kept while every later one is in them too.
                let cells = shape.house(h);
                let Some(k) = cells.iter().position(|&c| has(self, c)) else {
                    continue;
                };
                let mut common = [0u32; 8];
                let mut len = 0;
                for &x in shape.houses_of(cells[k] as usize) {
                    if x as usize != h && len < common.len() {
                        common[len] = x;
                        len += 1;
                    }
                }
                for &c in &cells[k + 1..] {
                    if len == 0 {
                        break;
                    }
                    if has(self, c) {
                        let theirs = shape.houses_of(c as usize);
                        let mut kept = 0;
                        for i in 0..len {
                            if theirs.contains(&common[i]) {
                                common[kept] = common[i];
                                kept += 1;
                            }
                        }
                        len = kept;
                    }
                }
                for &h2 in &common[..len] {
                    for &p in shape.house(h2 as usize) {
                        if has(self, p) && !shape.houses_of(p as usize).contains(&(h as u32)) {
                            self.remove(p as usize, bit)?;
                            progress = true;
                        }
                    }
                }
            }
        }
        self.drain()?;
        Ok(progress)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{read_puzzles, ReadOptions};

    fn puzzle(line: &str) -> Puzzle {
        let mut e = read_puzzles(line, &ReadOptions::default());
        e.remove(0).unwrap().puzzle
    }

    #[test]
    fn singles_alone_solve_an_easy_puzzle() {
        let p = puzzle(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        );
        let c = Candidates::new(&p, Level::Singles);
        assert_eq!(c.contradiction(), None);
        assert!(c.fixed().iter().all(|&v| v != 0));
        crate::check::verify(&p, &crate::model::Grid::new(9, c.fixed().to_vec())).unwrap();
        // Givens only: the candidates of the open cells, nothing fixed beyond the givens.
        let g = Candidates::new(&p, Level::Givens);
        assert_eq!(g.fixed(), p.givens());
        assert_eq!(g.digits(2).collect::<Vec<_>>(), [1, 2, 4]);
        assert_eq!(g.count(2), 3);
        assert!(g.has(2, 4) && !g.has(2, 3));
        assert!(g.placed_in(0, 5) && !g.placed_in(0, 1));
    }

    #[test]
    fn contradictions_are_named() {
        let clash = format!("11{}", ".".repeat(79));
        let c = Candidates::new(&puzzle(&clash), Level::Givens);
        assert_eq!(
            c.contradiction(),
            Some("the given 1 appears twice in row 1")
        );
        // Row 1 holds 1-8 and column 9 holds a 9: the corner has no digit left.
        let mut cells: Vec<char> = "12345678.".chars().collect();
        cells.extend(std::iter::repeat_n('.', 72));
        cells[4 * 9 + 8] = '9';
        let line: String = cells.into_iter().collect();
        let c = Candidates::new(&puzzle(&line), Level::Givens);
        assert_eq!(c.contradiction(), Some("row 1, column 9 has no digit left"));
        // The 1s of rows 1-2 and columns 1-2 and the 2 at row 3, column 3 leave no place for 1
        // in row 3 (nor in box 1): found by the hidden-single sweep.
        let line = format!(
            "......1..\
             ....1....\
             ..2......\
             .........\
             .........\
             1........\
             .1.......{}",
            ".".repeat(18)
        );
        let c = Candidates::new(&puzzle(&line), Level::Givens);
        assert_eq!(c.contradiction(), None);
        let c = Candidates::new(&puzzle(&line), Level::Singles);
        assert_eq!(c.contradiction(), Some("1 has no place left in row 3"));
    }

    #[test]
    fn locked_candidates_remove_what_singles_leave() {
        // tdoku's test puzzles: locked candidates fix or remove strictly more than singles
        // somewhere, never contradict a solvable puzzle, and keep every known solution.
        let text = include_str!("../../tests/data/9x9/test_puzzles.counts");
        let mut stronger = 0;
        for e in read_puzzles(text, &ReadOptions::default()) {
            let e = e.unwrap();
            let known = e.expected.unwrap();
            let singles = Candidates::new(&e.puzzle, Level::Singles);
            let locked = Candidates::new(&e.puzzle, Level::Locked);
            if known.count == 0 {
                continue;
            }
            assert_eq!(locked.contradiction(), None, "line {}", e.line);
            let total = |c: &Candidates| (0..81).map(|i| c.count(i)).sum::<u32>();
            assert!(total(&locked) <= total(&singles));
            stronger += usize::from(total(&locked) < total(&singles));
            if let Some(s) = known.solution {
                for (cell, &v) in s.cells().iter().enumerate() {
                    let f = locked.fixed()[cell];
                    assert!(f == v || (f == 0 && locked.has(cell, v)), "line {}", e.line);
                }
            }
        }
        assert!(stronger > 0);
    }

    #[test]
    fn wide_grids_use_several_words() {
        // A 100×100 grid: digits above 64 live in the second word.
        let shape = std::sync::Arc::new(Shape::standard(100, false).unwrap());
        let mut givens = vec![0; 100 * 100];
        givens[0] = 100;
        givens[1] = 65;
        let p = Puzzle::new(shape, givens).unwrap();
        let c = Candidates::new(&p, Level::Givens);
        assert_eq!(c.count(2), 98);
        assert!(!c.has(2, 100) && !c.has(2, 65) && c.has(2, 64) && c.has(2, 99));
        assert_eq!(c.digits(2).last(), Some(99));
        assert!(c.placed_in(0, 100) && c.placed_in(0, 65));
    }
}
