//! Basic fish (X-wing, swordfish, jellyfish) and their finned and sashimi forms, over rows and
//! columns of any shape.
//!
//! A fish of size `k` takes `k` base lines whose places for a digit lie in `k` cover lines: the
//! digit leaves the cover lines outside the bases. A finned fish has extra places (fins) outside
//! the covers; a cover cell that sees every fin still loses the digit, since either no fin holds
//! it (and the fish stands) or one does. It is sashimi when a base keeps a single place in the
//! covers.

use super::board::{all_digits, bits, choose_within, digits, Board};
use super::step::{Candidate, Found, Step};
use super::table::Technique;
use crate::model::Regions;

pub fn find(board: &Board, technique: Technique, found: &mut Found) {
    use Technique as T;
    let (k, fins, sashimi) = match technique {
        T::XWing => (2, false, false),
        T::Swordfish => (3, false, false),
        T::Jellyfish => (4, false, false),
        T::FinnedXWing => (2, true, false),
        T::SashimiXWing => (2, true, true),
        T::FinnedSwordfish => (3, true, false),
        T::SashimiSwordfish => (3, true, true),
        T::FinnedJellyfish => (4, true, false),
        T::SashimiJellyfish => (4, true, true),
        _ => return,
    };
    let n = board.n();
    if 2 * k > n {
        return;
    }
    // A finned search meets every base and cover choice the sashimi one of its size would:
    // it notes the digits for which none of them would make a sashimi step.
    let sashimi_too = match technique {
        T::FinnedXWing => Some(T::SashimiXWing),
        T::FinnedSwordfish => Some(T::SashimiSwordfish),
        T::FinnedJellyfish => Some(T::SashimiJellyfish),
        _ => None,
    };
    let mut no_sashimi = 0;
    for d in digits(found.digits & all_digits(n)) {
        let sashimi_seen = std::cell::Cell::new(false);
        for rows_first in [true, false] {
            // Bases are rows (covers columns) or columns (covers rows).
            let (base0, cover0) = if rows_first { (0, n) } else { (n, 0) };
            // Fins reach an eliminated cell through a box: at most a box's width beside a cover.
            let spread = match board.shape().regions() {
                Regions::Boxes { rows, cols } if rows_first => *cols - 1,
                Regions::Boxes { rows, .. } => *rows - 1,
                Regions::Jigsaw(_) => 3,
            };
            let lines: Vec<usize> = (0..n)
                .filter(|&i| {
                    let c = board.positions(base0 + i, d).count_ones() as usize;
                    c >= 1 && (fins || c >= 2)
                })
                .collect();
            let masks: Vec<u64> = lines
                .iter()
                .map(|&i| board.positions(base0 + i, d))
                .collect();
            let limit = if fins { k + spread } else { k };
            // Box extents (along the bases, along the covers) when the houses are rows,
            // columns and boxes alone: a cell seeing every fin then sees them through one box.
            let plain = board.rules().is_empty()
                && !board.shape().diagonals()
                && board.house_count() == 3 * n;
            let boxes = match board.shape().regions() {
                Regions::Boxes { rows, cols } if plain && rows_first => Some((*rows, *cols)),
                Regions::Boxes { rows, cols } if plain => Some((*cols, *rows)),
                _ => None,
            };
            let fish = Fish {
                board,
                technique,
                d,
                base0,
                cover0,
                lines: &lines,
                masks: &masks,
                sashimi,
                sashimi_seen: sashimi_too.map(|_| &sashimi_seen),
                boxes,
            };
            let stop = choose_within(&masks, k, limit, &mut |chosen, union| match fins {
                false => union.count_ones() as usize == k && fish.push(chosen, union, 0, found),
                true => fish.finned(chosen, union, k, found),
            });
            if stop {
                break;
            }
        }
        if found.full() {
            break;
        }
        if !sashimi_seen.get() {
            no_sashimi |= super::board::bit(d);
        }
    }
    if let Some(t) = sashimi_too.filter(|_| no_sashimi != 0) {
        found.also_empty.push((t, no_sashimi));
    }
}

struct Fish<'a> {
    board: &'a Board,
    technique: Technique,
    d: u16,
    base0: usize,
    cover0: usize,
    lines: &'a [usize],
    masks: &'a [u64],
    sashimi: bool,
    /// Set when a choice the sashimi form would take eliminates something (only in a finned
    /// search that notes it).
    sashimi_seen: Option<&'a std::cell::Cell<bool>>,
    /// A box's extent along the base lines and along the cover lines, when rows, columns and
    /// boxes are the only houses (`None` otherwise).
    boxes: Option<(usize, usize)>,
}

impl Fish<'_> {
    /// Tries every choice of `k` covers among the union; the rest are fins.
    fn finned(&self, chosen: &[usize], union: u64, k: usize, found: &mut Found) -> bool {
        if union.count_ones() as usize <= k {
            return false;
        }
        let mut columns = [0u64; 64];
        let mut count = 0;
        for b in bits(union) {
            columns[count] = 1u64 << b;
            count += 1;
        }
        choose_within(&columns[..count], k, k, &mut |_, covers| {
            let mut single = false;
            for &i in chosen {
                match (self.masks[i] & covers).count_ones() {
                    0 => return false,
                    1 => single = true,
                    _ => {}
                }
            }
            if single && !self.sashimi {
                if let Some(seen) = self.sashimi_seen.filter(|s| !s.get()) {
                    seen.set(self.eliminates(chosen, covers, union & !covers));
                }
            }
            single == self.sashimi && self.push(chosen, covers, union & !covers, found)
        })
    }

    /// The cell at base line `b`, cover line `c`.
    fn at(&self, b: usize, c: usize) -> usize {
        let n = self.board.n();
        if self.base0 == 0 {
            b * n + c
        } else {
            c * n + b
        }
    }

    /// True when some cell of the covers outside the bases holds the digit and sees every fin
    /// (the fins are the digit's places on `fin_bits` in the bases `chosen`): the fish then
    /// eliminates something. Allocation-free, so that fish that eliminate nothing cost little.
    fn eliminates(&self, chosen: &[usize], covers: u64, fin_bits: u64) -> bool {
        let (board, d) = (self.board, self.d);
        let mut bases = 0u64;
        for &i in chosen {
            bases |= 1u64 << self.lines[i];
        }
        if let Some((along_bases, along_covers)) = self.boxes.filter(|_| fin_bits != 0) {
            // A cell on a cover outside the bases sees a fin through the fin's box only: every
            // fin lies in one box, and a cover crosses it.
            let band = |bits: u64, width: usize| {
                let (low, high) = (
                    bits.trailing_zeros() as usize,
                    63 - bits.leading_zeros() as usize,
                );
                (low / width == high / width).then_some(low / width)
            };
            let fin_bases = chosen
                .iter()
                .filter(|&&i| self.masks[i] & fin_bits != 0)
                .fold(0u64, |m, &i| m | 1u64 << self.lines[i]);
            let Some(fin_band) = band(fin_bits, along_covers) else {
                return false;
            };
            let band_lines = ((1u64 << along_covers) - 1) << (fin_band * along_covers);
            if band(fin_bases, along_bases).is_none() || covers & band_lines == 0 {
                return false;
            }
        }
        let is_fin = |cell: usize| board.has(cell, d);
        // A cover line's places of the digit are bits over the base lines.
        bits(covers).any(|c| {
            bits(board.positions(self.cover0 + c, d) & !bases).any(|b| {
                let cell = self.at(b, c);
                bits(bases).all(|fb| {
                    bits(fin_bits).all(|fc| {
                        let f = self.at(fb, fc);
                        !is_fin(f) || board.sees(cell, f)
                    })
                })
            })
        })
    }

    /// Builds the step of bases `chosen`, covers and fin positions (bits of cover lines).
    fn push(&self, chosen: &[usize], covers: u64, fin_bits: u64, found: &mut Found) -> bool {
        if !self.eliminates(chosen, covers, fin_bits) {
            return false;
        }
        let (board, d, n) = (self.board, self.d, self.board.n());
        let bases: Vec<usize> = chosen.iter().map(|&i| self.lines[i]).collect();
        let at = |b: usize, c: usize| self.at(b, c);
        let fins: Vec<usize> = bases
            .iter()
            .flat_map(|&b| bits(fin_bits).map(move |c| (b, c)))
            .filter(|&(b, c)| board.has(at(b, c), d))
            .map(|(b, c)| at(b, c))
            .collect();
        let mut step = Step::new(self.technique);
        step.digits.push(d);
        step.houses = bases.iter().map(|&b| (self.base0 + b) as u32).collect();
        step.covers = bits(covers).map(|c| (self.cover0 + c) as u32).collect();
        step.fins = fins.iter().map(|&c| c as u32).collect();
        for c in bits(covers) {
            for b in 0..n {
                let cell = at(b, c);
                if board.has(cell, d) {
                    if bases.contains(&b) {
                        step.cells.push(cell as u32);
                    } else if fins.iter().all(|&f| board.sees(cell, f)) {
                        step.eliminations.push(Candidate::new(cell, d));
                    }
                }
            }
        }
        found.push(step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::board::bit;
    use crate::logic::{solve, Ladder};

    #[test]
    fn a_finned_search_rules_out_exactly_the_digits_without_a_sashimi_fish() {
        // magictour_top1465, line 227: its path holds a sashimi swordfish (8 c567 r149 fr78c7).
        let line =
            ".4.5.....8...9..3..76.2.....146..........9..7.....36....1..4.5..6......3..71..2..";
        let p = crate::format::read_puzzles(line, &Default::default())
            .remove(0)
            .unwrap()
            .puzzle;
        let mut board = Board::new(&p).unwrap();
        let (mut ruled_out, mut with_sashimi) = (0, 0);
        use Technique as T;
        let pairs = [
            (T::FinnedXWing, T::SashimiXWing),
            (T::FinnedSwordfish, T::SashimiSwordfish),
            (T::FinnedJellyfish, T::SashimiJellyfish),
        ];
        for step in solve(&p, &Ladder::default()).unwrap().steps {
            for (finned, sashimi) in pairs {
                let mut noted = Found::new(usize::MAX);
                find(&board, finned, &mut noted);
                let mut every = Found::new(usize::MAX);
                find(&board, sashimi, &mut every);
                let found = (every.steps.iter()).fold(0, |m, s| m | bit(s.digits[0]));
                let noted: u64 = noted
                    .also_empty
                    .iter()
                    .inspect(|(t, _)| assert_eq!(*t, sashimi))
                    .fold(0, |m, (_, d)| m | d);
                assert_eq!(noted, all_digits(9) & !found, "{step:?}");
                ruled_out += noted.count_ones();
                with_sashimi += found.count_ones();
            }
            board.apply(&step);
        }
        assert!(
            ruled_out > 0 && with_sashimi > 0,
            "{ruled_out} {with_sashimi}"
        );
    }
}
