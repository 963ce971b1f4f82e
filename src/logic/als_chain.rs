//! The ALS-XY-chain: almost locked sets joined one after another by restricted common digits.
//!
//! Sets `A = S0, S1, …, Sk = B` (`k ≥ 3`), each two neighbours disjoint and sharing a
//! restricted common digit (every place of the digit in one sees every place in the other: at
//! most one of the two holds it). If `A` held no `z`, it would be locked and hold the digit it
//! shares with `S1`; then `S1` holds it nowhere, so `S1` is locked and holds the digit it
//! shares with `S2` (a different one), and so on, until `B` is locked without its last common
//! digit and holds `z`. So `A` or `B` holds `z`, and a cell seeing every `z` of both loses it.
//! Two sets and one link are the ALS-XZ rule, three sets the ALS-XY-wing; both come earlier.
//!
//! As HoDoKu 2.2.0 does, the sets are numbered in its order (house by house, rows, columns,
//! then boxes; within a house the cell lists in lexicographic order, each set with the first
//! house holding it), a chain only goes from a set to a later one, a link whose two digits
//! both qualify is tried with each in turn when it is the first link, and of all chains the
//! one removing the most candidates is taken (ties: HoDoKu's weighted sum of the removed
//! candidates, then fewer sets, then fewer cells).
//!
//! The walk goes through each state of a chain (last set, digits in force on the first and on
//! the last link, length up to three links) once per start set: two chains that reach the
//! same state go on and conclude alike, so only the first is followed (of several chains with
//! the same conclusion the one shown is the first found, not always HoDoKu's).
//!
//! Along a solving path a chain whose sets all kept their candidates since the last board where
//! the technique found nothing removes nothing now either ([`since_clean`]); only chains through
//! a changed set are followed to the end.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use super::als::Sets;
use super::board::{bit, digits, Board, DigitCells};
use super::origin::{since_clean, Clean};
use super::step::{index_sum, Candidate, CellSet, Found, Step};
use super::table::Technique;
use crate::model::Value;

/// Most links in one chain (HoDoKu's bound).
const MAX_LINKS: usize = 50;

thread_local! {
    /// The last board on which the ALS-XY-chain found nothing.
    static CLEAN: Clean = const { RefCell::new(None) };
}

pub fn find(board: &Board, technique: Technique, found: &mut Found) {
    if technique == Technique::AlsXyChain {
        since_clean(&CLEAN, board, found, |changed, found| {
            chains(board, changed, found)
        });
    }
}

/// A link from one set to a later one: the later set and the two lowest restricted common
/// digits (the second `0` when there is one only).
#[derive(Clone, Copy)]
struct Forward {
    to: usize,
    first: Value,
    second: Value,
}

/// One chain's conclusion, kept per set of removed candidates: its sets in order, the digit
/// of each link, and how many cells its sets hold.
struct Kept {
    sets: Vec<usize>,
    links: Vec<Value>,
    cells: usize,
}

/// The depth-first walk over the chains from one start set.
struct Walk<'a> {
    sets: &'a Sets,
    has: DigitCells,
    forward: Vec<Vec<Forward>>,
    /// Per set: whether it, or a set a chain can reach from it, holds a changed cell.
    reaches_fresh: Vec<bool>,
    fresh: Vec<bool>,
    /// The chain under way: its sets, and per link its digits in force (a mask).
    path: Vec<usize>,
    active: Vec<u64>,
    /// How many sets of `path` hold a changed cell.
    fresh_in_path: usize,
    /// The states the chains from the start set have reached ([`Walk::arrive`]).
    reached: HashSet<State>,
    kept: HashMap<Vec<Candidate>, Kept>,
}

/// Where a chain stands, all that decides how it may go on and what it concludes: its last
/// set, the digits in force on its first and last link, its length up to 3 links, and whether
/// it holds a changed set.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct State {
    set: u32,
    first: u64,
    last: u64,
    links: u8,
    fresh: bool,
}

/// The ALS-XY-chain steps through a set with a cell of `changed`, best first.
fn chains(board: &Board, changed: &[bool], found: &mut Found) {
    let sets = Sets::shared(board);
    let count = sets.len();
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by(|&a, &b| (sets.house[a], sets.cells(a)).cmp(&(sets.house[b], sets.cells(b))));
    let mut rank = vec![0; count];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r;
    }
    let forward: Vec<Vec<Forward>> = (0..count)
        .map(|a| {
            let mut list: Vec<Forward> = sets.commons[a]
                .iter()
                .filter(|&&(b, _)| rank[b] > rank[a])
                .map(|&(to, rc)| {
                    let mut ds = digits(rc);
                    let first = ds.next().unwrap_or(0);
                    let second = ds.next().unwrap_or(0);
                    Forward { to, first, second }
                })
                .collect();
            list.sort_unstable_by_key(|f| rank[f.to]);
            list
        })
        .collect();
    let fresh: Vec<bool> = (0..count)
        .map(|i| sets.cells(i).iter().any(|&c| changed[c]))
        .collect();
    let mut reaches_fresh = fresh.clone();
    for &a in order.iter().rev() {
        reaches_fresh[a] |= forward[a].iter().any(|f| reaches_fresh[f.to]);
    }
    let mut walk = Walk {
        sets: &sets,
        has: DigitCells::of(board),
        forward,
        reaches_fresh,
        fresh,
        path: vec![],
        active: vec![],
        fresh_in_path: 0,
        reached: HashSet::new(),
        kept: HashMap::new(),
    };
    for &start in &order {
        if walk.reaches_fresh[start] {
            walk.reached.clear();
            walk.enter(start);
            walk.extend(start);
            walk.leave();
        }
    }
    let mut best: Vec<(Vec<Candidate>, Kept)> = walk.kept.into_iter().collect();
    best.sort_by(|(x, kx), (y, ky)| {
        y.len()
            .cmp(&x.len())
            .then(index_sum(x).cmp(&index_sum(y)))
            .then(kx.sets.len().cmp(&ky.sets.len()))
            .then(kx.cells.cmp(&ky.cells))
            .then(x.cmp(y))
    });
    for (eliminations, kept) in best {
        let mut step = Step::new(Technique::AlsXyChain);
        step.sets = kept
            .sets
            .iter()
            .map(|&i| CellSet {
                cells: sets.cells(i).iter().map(|&c| c as u32).collect(),
                digits: digits(sets.digits[i]).collect(),
            })
            .collect();
        step.digits = kept.links;
        step.cells = kept
            .sets
            .iter()
            .flat_map(|&i| sets.cells(i))
            .map(|&c| c as u32)
            .collect();
        step.houses = kept.sets.iter().map(|&i| sets.house[i]).collect();
        step.eliminations = eliminations;
        if found.push(step) {
            return;
        }
    }
}

impl Walk<'_> {
    fn enter(&mut self, set: usize) {
        self.path.push(set);
        self.fresh_in_path += self.fresh[set] as usize;
    }
    fn leave(&mut self) {
        if let Some(set) = self.path.pop() {
            self.fresh_in_path -= self.fresh[set] as usize;
        }
    }
    /// False when a chain from the same start set already reached the state that a link into
    /// `set` with the digits `active` in force leads to: its ways on, and what they conclude,
    /// were followed then (only the chain shown for a conclusion may differ). This keeps the
    /// walk to as many steps as there are states, where the chains can be exponentially many.
    fn arrive(&mut self, set: usize, active: u64) -> bool {
        let state = State {
            set: set as u32,
            first: self.active.first().copied().unwrap_or(active),
            last: active,
            links: (self.active.len() + 1).min(3) as u8,
            fresh: self.fresh_in_path > 0 || self.fresh[set],
        };
        self.reached.insert(state)
    }
    /// Follows every link out of `from`, the last set of the chain under way.
    fn extend(&mut self, from: usize) {
        if self.active.len() >= MAX_LINKS {
            return;
        }
        for k in 0..self.forward[from].len() {
            let link = self.forward[from][k];
            if self.fresh_in_path == 0 && !self.reaches_fresh[link.to] {
                continue;
            }
            let both = bit(link.first) | if link.second > 0 { bit(link.second) } else { 0 };
            let tries: &[u64] = match self.active.last() {
                // The first link: each of its digits in turn.
                None if link.second > 0 => &[bit(link.first), bit(link.second)],
                None => &[both],
                // Later links: the digits that differ from the one the last link forces out
                // of this set (HoDoKu takes the lower when there were two).
                Some(&last) => &[both & !(last & last.wrapping_neg())],
            };
            for &active in tries {
                if active == 0 {
                    continue;
                }
                if !self.arrive(link.to, active) {
                    continue;
                }
                self.active.push(active);
                self.enter(link.to);
                if self.active.len() >= 3 && self.fresh_in_path > 0 {
                    self.conclude();
                }
                self.extend(link.to);
                self.leave();
                self.active.pop();
            }
        }
    }
    /// Keeps what the chain under way removes, unless a chain with as few cells removes the
    /// same.
    fn conclude(&mut self) {
        let (start, end) = (self.path[0], self.path[self.path.len() - 1]);
        let (first, last) = (self.active[0], self.active[self.active.len() - 1]);
        let zs = self.sets.digits[start] & self.sets.digits[end] & !(first | last);
        if zs == 0 {
            return;
        }
        let mut eliminations = self.sets.seen_by_both(start, end, zs, &self.has);
        if eliminations.is_empty() {
            return;
        }
        eliminations.sort_unstable();
        let cells = self.path.iter().map(|&i| self.sets.cells(i).len()).sum();
        let better = self.kept.get(&eliminations).is_none_or(|k| k.cells > cells);
        if better {
            let links = self.active.iter().map(|&m| m.trailing_zeros() as Value + 1);
            let kept = Kept {
                sets: self.path.clone(),
                links: links.collect(),
                cells,
            };
            self.kept.insert(eliminations, kept);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::logic::render::text;
    use crate::model::{Puzzle, Shape};

    /// An empty 9×9 board where the listed cells keep only the listed digits.
    fn board(keep: &[(usize, &[u16])]) -> Board {
        let p = Puzzle::new(Arc::new(Shape::standard(9, false).unwrap()), vec![0; 81]).unwrap();
        let mut elims = vec![];
        for (cell, keep) in keep {
            elims.extend((1..=9).filter(|d| !keep.contains(d)).map(|d| (*cell, d)));
        }
        Board::with_eliminations(&p, &elims).unwrap()
    }

    #[test]
    fn four_bivalue_cells_make_a_chain() {
        // r1c1 {12} -1- r1c5 {13} -3- r5c5 {34} -4- r5c9 {42}: r1c1 or r5c9 holds 2, so r1c9
        // and r5c1, which see both, lose it.
        let b = board(&[(0, &[1, 2]), (4, &[1, 3]), (40, &[3, 4]), (44, &[2, 4])]);
        let mut found = Found::new(5);
        find(&b, Technique::AlsXyChain, &mut found);
        let texts: Vec<String> = found.steps.iter().map(|s| text(b.shape(), s)).collect();
        assert!(
            found
                .steps
                .iter()
                .any(|s| { s.eliminations == vec![Candidate::new(8, 2), Candidate::new(36, 2)] }),
            "{texts:#?}"
        );
        assert!(
            texts.iter().any(|t| t.contains("=> r1c9,r5c1<>2")),
            "{texts:#?}"
        );
    }

    #[test]
    fn no_chain_when_a_link_repeats_its_digit() {
        // r1c1 {12} -1- r1c5 {13} -1- r5c5 {14} -4- r5c9 {24} is no chain: r1c5 holding 1
        // would not follow from r1c1 holding 2. And r1c9 or r5c1 may hold 2 here (r1c1 = 1,
        // r1c5 = 3, r5c5 = 1, r5c9 = 4 leave both free), so nothing may remove them.
        let b = board(&[(0, &[1, 2]), (4, &[1, 3]), (40, &[1, 4]), (44, &[2, 4])]);
        let mut found = Found::new(50);
        find(&b, Technique::AlsXyChain, &mut found);
        let wrong = found
            .steps
            .iter()
            .flat_map(|s| &s.eliminations)
            .any(|c| *c == Candidate::new(8, 2) || *c == Candidate::new(36, 2));
        assert!(!wrong, "{:?}", found.steps);
    }
}
