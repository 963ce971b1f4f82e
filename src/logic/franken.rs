//! Franken fish, HoDoKu's: fish whose base and cover sets mix lines and boxes (jigsaw regions on
//! a jigsaw grid), with or without fins.
//!
//! For one digit, the bases are rows and boxes and the covers columns and boxes, or the bases
//! columns and boxes and the covers rows and boxes; at least one box is among them (without one
//! it is a basic fish, [`super::fish`]). Every place of the digit in the bases lies in a cover,
//! but for the fins. A place in two bases (a row and a box cross) is an *endo fin*: the bases
//! then need not hold `k` distinct true places. Were no fin (endo fins included) true, the `k`
//! bases would hold `k` true places in distinct cells, one in each cover, so the covers would
//! be full: the digit leaves every cover place outside the bases, and every place in two covers
//! (cannibalism: a true place there would fill two covers at once). With fins, only the places
//! that see every fin go, as for finned basic fish.
//!
//! The search follows HoDoKu 2.2.0's (as the `hodoku-py` port runs it), so that the first fish
//! found is HoDoKu's: digit by digit; rows-and-boxes bases first, then columns-and-boxes; base
//! sets in house order (lines, then boxes), chosen in lexicographic order, at most two endo
//! fins, none for a fish without fins; then covers (the other lines, then the boxes not among
//! the bases, each holding a base place) in lexicographic order. A search with fins passes over
//! a partial cover choice that already covers every base place; it takes at most five fins,
//! endo fins counted. Of fish with the same eliminations only the first is kept.

use std::cell::OnceCell;
use std::ops::{BitAnd, BitOr};

use super::board::{all_digits, bits, digits, Board};
use super::step::{Candidate, Found, Step};
use super::table::Technique;
use crate::model::Value;

/// Most fins a finned Franken fish may have, endo fins counted (HoDoKu's default).
const MAX_FINS: u32 = 5;
/// Most endo fins (HoDoKu's default).
const MAX_ENDO_FINS: u32 = 2;

pub fn find(board: &Board, technique: Technique, found: &mut Found) {
    use Technique as T;
    let (k, finned) = match technique {
        T::FrankenXWing => (2, false),
        T::FrankenSwordfish => (3, false),
        T::FinnedFrankenXWing => (2, true),
        T::FinnedFrankenSwordfish => (3, true),
        _ => return,
    };
    let n = board.n();
    // Elimination sets already taken (one fish per set).
    let mut taken: Vec<Vec<Candidate>> = vec![];
    for d in digits(found.digits & all_digits(n)) {
        let cells: Vec<u32> = (0..n)
            .flat_map(|row| board.cells_of(row, d))
            .map(|c| c as u32)
            .collect();
        let spec = Spec {
            board,
            technique,
            d,
            k,
            finned,
            cells: &cells,
        };
        let stop = match cells.len().div_ceil(64) {
            0 | 1 => Search::<1>::new(spec).run(&mut taken, found),
            2 => Search::<2>::new(spec).run(&mut taken, found),
            3 | 4 => Search::<4>::new(spec).run(&mut taken, found),
            5..=16 => Search::<16>::new(spec).run(&mut taken, found),
            _ => Search::<64>::new(spec).run(&mut taken, found),
        };
        if stop {
            break;
        }
    }
}

/// A set of the digit's places, by their index in [`Spec::cells`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Set<const W: usize>([u64; W]);

impl<const W: usize> Set<W> {
    const EMPTY: Self = Set([0; W]);
    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1u64 << (i % 64);
    }
    fn minus(self, other: Self) -> Self {
        Set(std::array::from_fn(|w| self.0[w] & !other.0[w]))
    }
    fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    /// The indices in the set, ascending.
    fn indices(self) -> impl Iterator<Item = usize> {
        (0..W).flat_map(move |w| bits(self.0[w]).map(move |b| w * 64 + b))
    }
}

impl<const W: usize> BitOr for Set<W> {
    type Output = Self;
    fn bitor(self, other: Self) -> Self {
        Set(std::array::from_fn(|w| self.0[w] | other.0[w]))
    }
}

impl<const W: usize> BitAnd for Set<W> {
    type Output = Self;
    fn bitand(self, other: Self) -> Self {
        Set(std::array::from_fn(|w| self.0[w] & other.0[w]))
    }
}

/// What one digit's search is about.
#[derive(Clone, Copy)]
struct Spec<'a> {
    board: &'a Board,
    technique: Technique,
    d: Value,
    /// Base sets (and cover sets) of the fish.
    k: usize,
    finned: bool,
    /// The cells holding the digit, ascending: the places a [`Set`] indexes.
    cells: &'a [u32],
}

/// A house's kind: 0 a row, 1 a column, 2 a box or region.
fn kind(n: usize, h: usize) -> usize {
    h / n
}

/// The search for one digit, over places in sets of `W` words.
struct Search<'a, const W: usize> {
    spec: Spec<'a>,
    /// The digit's places in each row, column and box (houses `0..3n`).
    units: Vec<Set<W>>,
    /// Per place, the places that see it (built when a fin first needs it).
    peers: OnceCell<Vec<Set<W>>>,
}

/// A choice of base sets: its houses, their places, and the places in two of them.
struct Bases<const W: usize> {
    houses: Vec<usize>,
    places: Set<W>,
    endo: Set<W>,
}

impl<'a, const W: usize> Search<'a, W> {
    fn new(spec: Spec<'a>) -> Self {
        let (board, n) = (spec.board, spec.board.n());
        let index = |cell: usize| spec.cells.binary_search(&(cell as u32)).ok();
        let units = (0..3 * n)
            .map(|h| {
                let mut set = Set::EMPTY;
                for i in board.cells_of(h, spec.d).filter_map(index) {
                    set.insert(i);
                }
                set
            })
            .collect();
        Search {
            spec,
            units,
            peers: OnceCell::new(),
        }
    }

    /// Both orientations; true once `found` is full.
    fn run(&self, taken: &mut Vec<Vec<Candidate>>, found: &mut Found) -> bool {
        let n = self.spec.board.n();
        for rows_first in [true, false] {
            let line = if rows_first { 0 } else { 1 };
            let usable = |h: &usize| {
                let count = self.units[*h].count() as usize;
                count > 0 && (self.spec.finned || count <= self.spec.k)
            };
            let pool: Vec<usize> = (0..3 * n)
                .filter(|&h| kind(n, h) == line || kind(n, h) == 2)
                .filter(usable)
                .collect();
            let covers: Vec<usize> = (0..3 * n)
                .filter(|&h| kind(n, h) == 1 - line || kind(n, h) == 2)
                .filter(|&h| !self.units[h].is_empty())
                .collect();
            let mut bases = Bases {
                houses: vec![],
                places: Set::EMPTY,
                endo: Set::EMPTY,
            };
            let mut scratch = Scratch::default();
            if self.bases((&pool, &covers), 0, &mut bases, &mut scratch, taken, found) {
                return true;
            }
        }
        false
    }

    /// Chooses the base sets from `pool[from..]`, then the covers (from `covers`) of each full
    /// choice.
    fn bases(
        &self,
        (pool, covers): (&[usize], &[usize]),
        from: usize,
        chosen: &mut Bases<W>,
        scratch: &mut Scratch,
        taken: &mut Vec<Vec<Candidate>>,
        found: &mut Found,
    ) -> bool {
        let k = self.spec.k;
        if chosen.houses.len() == k {
            let Scratch {
                eligible,
                reach,
                houses,
            } = scratch;
            eligible.clear();
            eligible.extend(covers.iter().copied().filter(|&h| {
                !chosen.houses.contains(&h) && !(self.units[h] & chosen.places).is_empty()
            }));
            if eligible.len() < k {
                return false;
            }
            self.reach(eligible, chosen.places, reach);
            let slack = if self.spec.finned { MAX_FINS } else { 0 };
            if chosen.places.count() > reach[k] + slack {
                return false;
            }
            let mut cover = Covers {
                bases: chosen,
                eligible,
                reach,
                houses,
            };
            return self.covers(&mut cover, 0, Set::EMPTY, Set::EMPTY, taken, found);
        }
        for i in from..pool.len() {
            if pool.len() - i < k - chosen.houses.len() {
                break;
            }
            let unit = self.units[pool[i]];
            let overlap = chosen.places & unit;
            let endo = chosen.endo | overlap;
            if !overlap.is_empty() && (!self.spec.finned || endo.count() > MAX_ENDO_FINS) {
                continue;
            }
            let saved = (chosen.places, chosen.endo);
            chosen.houses.push(pool[i]);
            (chosen.places, chosen.endo) = (chosen.places | unit, endo);
            let stop = self.bases((pool, covers), i + 1, chosen, scratch, taken, found);
            chosen.houses.pop();
            (chosen.places, chosen.endo) = saved;
            if stop {
                return true;
            }
        }
        false
    }

    /// Chooses the covers from `eligible[from..]` (`union` the places of those chosen,
    /// `cannibal` the places in two of them) and tries each full choice.
    fn covers(
        &self,
        cover: &mut Covers<W>,
        from: usize,
        union: Set<W>,
        cannibal: Set<W>,
        taken: &mut Vec<Vec<Candidate>>,
        found: &mut Found,
    ) -> bool {
        let (k, base, n) = (self.spec.k, cover.bases.places, self.spec.board.n());
        let level = cover.houses.len() + 1;
        let slack = if self.spec.finned { MAX_FINS } else { 0 };
        let width = k + 1;
        // Without a box among the bases and the covers chosen, the last cover is a box.
        let is_box = |h: &usize| kind(n, *h) == 2;
        let mut from = from;
        if level == k && !(cover.bases.houses.iter().any(is_box) || cover.houses.iter().any(is_box))
        {
            from = from.max(cover.eligible.iter().position(is_box).unwrap_or(usize::MAX));
        }
        for i in from..=cover.eligible.len().saturating_sub(k - level + 1) {
            let h = cover.eligible[i];
            let unit = self.units[h];
            let (next, cannibal) = (union | unit, cannibal | (union & unit));
            // The places left out must be within reach of the covers still to choose.
            let left = base.minus(next).count();
            if left > slack + cover.reach[(i + 1) * width + k - level] {
                continue;
            }
            cover.houses.push(h);
            let stop = if level < k {
                // A search with fins passes over covers that leave no place of the bases out.
                let open = !self.spec.finned || left > 0;
                open && self.covers(cover, i + 1, next, cannibal, taken, found)
            } else {
                self.leaf(cover, next, cannibal, taken, found)
            };
            cover.houses.pop();
            if stop {
                return true;
            }
        }
        false
    }

    /// Tries a full choice of bases and covers: the fish's eliminations, if it is one of the
    /// technique's and eliminates something new. True once `found` is full.
    fn leaf(
        &self,
        cover: &Covers<W>,
        union: Set<W>,
        cannibal: Set<W>,
        taken: &mut Vec<Vec<Candidate>>,
        found: &mut Found,
    ) -> bool {
        let bases = cover.bases;
        let fins = bases.places.minus(union);
        let all_fins = fins | bases.endo;
        let eliminated = match self.spec.finned {
            false if !all_fins.is_empty() => return false,
            false => union.minus(bases.places) | cannibal,
            true => {
                let count = all_fins.count();
                if count == 0 || count > MAX_FINS {
                    return false;
                }
                let peers = self.peers();
                let seen = all_fins
                    .indices()
                    .fold(Set([u64::MAX; W]), |acc, f| acc & peers[f]);
                (union.minus(bases.places) | cannibal) & seen
            }
        };
        let n = self.spec.board.n();
        let has_box = |h: &usize| kind(n, *h) == 2;
        if eliminated.is_empty()
            || !(bases.houses.iter().any(has_box) || cover.houses.iter().any(has_box))
        {
            return false;
        }
        let (d, cells) = (self.spec.d, self.spec.cells);
        let cell = |i: usize| cells[i];
        let eliminations: Vec<Candidate> = eliminated
            .indices()
            .map(|i| Candidate::new(cell(i) as usize, d))
            .collect();
        if taken.contains(&eliminations) {
            return false;
        }
        taken.push(eliminations.clone());
        let mut step = Step::new(self.spec.technique);
        step.digits.push(d);
        step.houses = bases.houses.iter().map(|&h| h as u32).collect();
        step.covers = cover.houses.iter().map(|&h| h as u32).collect();
        step.cells = bases.places.minus(all_fins).indices().map(cell).collect();
        step.fins = fins.minus(bases.endo).indices().map(cell).collect();
        step.endo_fins = bases.endo.indices().map(cell).collect();
        step.eliminations = eliminations;
        found.push(step)
    }

    /// `reach[i * (k + 1) + r]`: the most base places that `r` covers from `eligible[i..]` can
    /// hold, the sum of their `r` largest counts (row `eligible.len()` is all zeros).
    fn reach(&self, eligible: &[usize], base: Set<W>, reach: &mut Vec<u32>) {
        let k = self.spec.k;
        let width = k + 1;
        reach.clear();
        reach.resize((eligible.len() + 1) * width, 0);
        // The `k` largest counts so far, largest first.
        let mut top = [0u32; 8];
        for i in (0..eligible.len()).rev() {
            let count = (self.units[eligible[i]] & base).count();
            if let Some(at) = top[..k].iter().position(|&t| t < count) {
                top.copy_within(at..k - 1, at + 1);
                top[at] = count;
            }
            let mut sum = 0;
            for r in 1..=k {
                sum += top[r - 1];
                reach[i * width + r] = sum;
            }
        }
    }

    /// Per place, the places that see it.
    fn peers(&self) -> &[Set<W>] {
        self.peers.get_or_init(|| {
            let (board, cells) = (self.spec.board, self.spec.cells);
            (cells.iter())
                .map(|&a| {
                    let mut set = Set::EMPTY;
                    for (i, &b) in cells.iter().enumerate() {
                        if board.sees(a as usize, b as usize) {
                            set.insert(i);
                        }
                    }
                    set
                })
                .collect()
        })
    }
}

/// Buffers the cover search of each choice of bases reuses.
#[derive(Default)]
struct Scratch {
    eligible: Vec<usize>,
    reach: Vec<u32>,
    houses: Vec<usize>,
}

/// The covers being chosen for one choice of bases.
struct Covers<'b, const W: usize> {
    bases: &'b Bases<W>,
    /// The houses that may cover: not a base, holding a base place.
    eligible: &'b [usize],
    /// [`Search::reach`] of `eligible`.
    reach: &'b [u32],
    houses: &'b mut Vec<usize>,
}
