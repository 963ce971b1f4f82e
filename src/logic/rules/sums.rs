//! Sums read with distinct digits: a rule's linear sum (`Σ k·x = rhs`: an arrow, a little
//! killer, a double arrow, a region sum line's segments, a 45-rule equation) narrowed exactly
//! over the digits its cells may take together, where cells that see each other take distinct
//! digits.
//!
//! The interval bounds of [`crate::dfs::RuleNarrower`] read each cell on its own: three arrow
//! cells in one box with candidates 1–3 each may sum to 3 for them, where they can only sum
//! to 6. Here the sum's cells are split into *cliques* (greedily, in the sum's order: a cell
//! joins the first clique whose every cell it sees, on the board's peers), and a dynamic
//! programme over the cells, clique by clique, keeps states `(partial sum, digits the current
//! clique has used)`; the digits used reset between cliques, so the states stay few. A digit
//! stays in a cell when some path through the states reaches `rhs`. It is exact when the cells
//! form one clique (and for a sum whose cells see none of each other), and a sound relaxation
//! otherwise (distinctness across cliques is not read).

use std::sync::Mutex;

use crate::model::lower::LinearSum;

use super::super::board::bits;

/// Most terms a sum may have for the exact reading (past it, interval bounds alone).
const MOST_TERMS: usize = 12;
/// Most states in one layer of the programme; past it, the sum is left to interval bounds.
const MOST_STATES: usize = 1 << 16;

/// Candidates read (per term) and what they were narrowed to, `None` when nothing meets the
/// sum.
type Reading = (Vec<u64>, Option<Vec<u64>>);

/// One linear sum ready for the exact reading.
#[derive(Debug)]
pub struct DistinctSum {
    /// The terms, clique by clique: the cell, its coefficient, and whether it opens a clique.
    terms: Vec<(u32, i64, bool)>,
    rhs: i64,
    /// The last candidates read and what they were narrowed to (`None`: no assignment): the
    /// propagation of a forcing net asks again and again with the sum's cells unchanged.
    last: Mutex<Option<Reading>>,
}

impl DistinctSum {
    /// The exact reading of `sum` over cells whose peers are `peers` (per cell, sorted), or
    /// `None` when it would read nothing beyond interval bounds (no two of its cells see each
    /// other) or is too long.
    pub fn new(sum: &LinearSum, peers: &[Vec<u32>]) -> Option<DistinctSum> {
        let mut merged: Vec<(u32, i64)> = vec![];
        for &(c, k) in &sum.terms {
            match merged.iter_mut().find(|(m, _)| *m == c) {
                Some((_, w)) => *w += k,
                None => merged.push((c, k)),
            }
        }
        merged.retain(|&(_, k)| k != 0);
        if merged.len() > MOST_TERMS {
            return None;
        }
        let sees = |a: u32, b: u32| peers[a as usize].binary_search(&b).is_ok();
        let mut cliques: Vec<Vec<(u32, i64)>> = vec![];
        for &(c, k) in &merged {
            match cliques
                .iter_mut()
                .find(|q| q.iter().all(|&(o, _)| sees(c, o)))
            {
                Some(q) => q.push((c, k)),
                None => cliques.push(vec![(c, k)]),
            }
        }
        if cliques.iter().all(|q| q.len() < 2) {
            return None;
        }
        let terms = cliques
            .iter()
            .flat_map(|q| q.iter().enumerate().map(|(i, &(c, k))| (c, k, i == 0)))
            .collect();
        Some(DistinctSum {
            terms,
            rhs: sum.rhs,
            last: Mutex::new(None),
        })
    }

    /// Narrows `m` (per cell, a placed cell holding its digit's bit alone) to the digits some
    /// assignment of the sum supports; false when no assignment meets it.
    pub fn narrow(&self, m: &mut [u64]) -> bool {
        let read: Vec<u64> = self.terms.iter().map(|&(c, _, _)| m[c as usize]).collect();
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        let kept = match last.as_ref() {
            Some((input, kept)) if *input == read => kept.clone(),
            _ => {
                let kept = self.support(m);
                *last = Some((read, kept.clone()));
                kept
            }
        };
        match kept {
            None => false,
            Some(kept) => {
                for (&(c, _, _), k) in self.terms.iter().zip(kept) {
                    m[c as usize] &= k;
                }
                true
            }
        }
    }

    /// Per term, the digits some assignment of the sum gives its cell, or `None` when no
    /// assignment meets it.
    fn support(&self, m: &[u64]) -> Option<Vec<u64>> {
        let t = self.terms.len();
        let digit_range = |c: u32, k: i64| {
            let ds = bits(m[c as usize]).map(|b| (b as i64 + 1) * k);
            ds.fold((i64::MAX, i64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)))
        };
        // The least and most the terms from `i` on can add.
        let mut rest = vec![(0i64, 0i64); t + 1];
        for i in (0..t).rev() {
            let (c, k, _) = self.terms[i];
            if m[c as usize] == 0 {
                return None;
            }
            let (lo, hi) = digit_range(c, k);
            rest[i] = (rest[i + 1].0 + lo, rest[i + 1].1 + hi);
        }
        // The digits the clique's cells after each term may still take: a used digit outside
        // them no longer matters, and states that differ only there merge.
        let mut ahead = vec![0u64; t];
        for i in (0..t.saturating_sub(1)).rev() {
            let (next, _, opens) = self.terms[i + 1];
            if !opens {
                ahead[i] = ahead[i + 1] | m[next as usize];
            }
        }
        // Forward: the states reachable after each term that can still reach `rhs`, as a sorted
        // list a layer (a state's key: its partial sum, then its digits used), and each term's
        // moves (from a state of its layer, by a digit, to a state of the next).
        let key = |s: i64, used: u64| ((s as i128) << 64) | used as i128;
        let mut sizes = vec![1usize];
        let mut keys: Vec<i128> = vec![key(0, 0)];
        let mut moves: Vec<Vec<(u32, u8, u32)>> = Vec::with_capacity(t);
        let mut raw: Vec<(i128, u32, u8)> = vec![];
        for i in 0..t {
            let (c, k, opens) = self.terms[i];
            raw.clear();
            for (from, &st) in keys.iter().enumerate() {
                let (s, used) = ((st >> 64) as i64, st as u64);
                let used = if opens { 0 } else { used };
                for b in bits(m[c as usize] & !used) {
                    let v = s + (b as i64 + 1) * k;
                    let (lo, hi) = rest[i + 1];
                    if v + lo <= self.rhs && self.rhs <= v + hi {
                        raw.push((key(v, (used | 1 << b) & ahead[i]), from as u32, b as u8));
                    }
                }
            }
            if raw.len() > MOST_STATES {
                return Some(self.terms.iter().map(|&(c, _, _)| m[c as usize]).collect());
            }
            raw.sort_unstable_by_key(|r| r.0);
            keys.clear();
            let mut layer = Vec::with_capacity(raw.len());
            for &(st, from, b) in &raw {
                if keys.last() != Some(&st) {
                    keys.push(st);
                }
                layer.push((from, b, keys.len() as u32 - 1));
            }
            moves.push(layer);
            sizes.push(keys.len());
        }
        // Backward: the states from which `rhs` is reached, and the digits used on the way.
        let mut good: Vec<bool> = keys
            .iter()
            .map(|&st| (st >> 64) as i64 == self.rhs)
            .collect();
        let mut support = vec![0u64; t];
        for i in (0..t).rev() {
            let mut before = vec![false; sizes[i]];
            for &(from, b, to) in &moves[i] {
                if good[to as usize] {
                    before[from as usize] = true;
                    support[i] |= 1 << b;
                }
            }
            good = before;
        }
        support.iter().all(|&s| s != 0).then_some(support)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_peers(cells: usize) -> Vec<Vec<u32>> {
        (0..cells as u32)
            .map(|c| (0..cells as u32).filter(|&o| o != c).collect())
            .collect()
    }

    #[test]
    fn three_cells_that_see_each_other_sum_to_at_least_six() {
        // x0 + x1 + x2 = x3, the first three distinct, x3 in 1..=9.
        let sum = LinearSum {
            terms: vec![(0, 1), (1, 1), (2, 1), (3, -1)],
            rhs: 0,
        };
        let peers = all_peers(4);
        let s = DistinctSum::new(&sum, &peers).unwrap();
        let mut m = vec![0x1ff; 4];
        assert!(s.narrow(&mut m));
        // 1+2+3 = 6 at least; all four distinct, so the total is at most 9 with 1, 2 and 6 or
        // 1, 3 and 5 or 2, 3 and 4: the circle holds 6 to 9, the arrow 1 to 6.
        assert_eq!(m[3], 0b1_1110_0000);
        assert_eq!(m[0], 0b11_1111);
    }

    #[test]
    fn a_sum_that_cannot_be_met_is_refused() {
        let sum = LinearSum {
            terms: vec![(0, 1), (1, 1)],
            rhs: 2,
        };
        let s = DistinctSum::new(&sum, &all_peers(2)).unwrap();
        let mut m = vec![0x1ff; 2];
        assert!(!s.narrow(&mut m), "1 + 1 needs a repeated digit");
    }

    #[test]
    fn cells_that_do_not_see_each_other_may_repeat() {
        let sum = LinearSum {
            terms: vec![(0, 1), (1, 1), (2, 1)],
            rhs: 3,
        };
        // Cells 0 and 1 see each other; cell 2 sees neither.
        let peers = vec![vec![1], vec![0], vec![]];
        let s = DistinctSum::new(&sum, &peers).unwrap();
        let mut m = vec![0x1ff; 3];
        assert!(!s.narrow(&mut m), "1 + 2 + at least 1 is 4");
        let four = LinearSum {
            terms: sum.terms.clone(),
            rhs: 4,
        };
        let s = DistinctSum::new(&four, &peers).unwrap();
        let mut m = vec![0x1ff; 3];
        assert!(s.narrow(&mut m));
        assert_eq!(m, vec![0b11, 0b11, 0b1]);
    }
}
