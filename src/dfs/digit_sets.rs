//! The sets of distinct digits of `1..=n` grouped by size and sum, for the cages of
//! [`super::cages`].
//!
//! A cage's *combinations* are the digit sets of its size reaching its sum. Enumerating them per
//! cage and per puzzle cost most of the time of an easy 9×9 Killer (a recursive walk per cage,
//! and per implied sum of up to nine cells). For sides up to [`MAX_TABLE_SIDE`] every subset of
//! `1..=n` is instead listed once per process, bucketed by (size, sum); a cage's combinations are
//! then a slice of that list, shared by every puzzle of the side.
//!
//! Layout (side `n`, `S = n(n+1)/2`): `sets` holds the `2ⁿ` digit masks (bit `d − 1` for digit
//! `d`) sorted by size, then sum, then mask; the sets of size `k` and sum `s` are
//! `sets[start[k·(S+1) + s]..start[k·(S+1) + s + 1]]`.

use std::sync::OnceLock;

/// Largest side whose digit sets are tabled (`2¹⁶` masks, 512 KiB); larger sides enumerate
/// their cages' combinations per puzzle ([`crate::model::Cage::combinations`]).
pub(super) const MAX_TABLE_SIDE: usize = 16;

/// Every subset of `1..=n`, bucketed by size and sum (see the module docs).
pub(super) struct DigitSets {
    n: usize,
    /// `n(n+1)/2`, the greatest sum.
    most: usize,
    /// Bucket starts, one more than there are buckets.
    start: Vec<u32>,
    sets: Vec<u64>,
}

static TABLES: [OnceLock<DigitSets>; MAX_TABLE_SIDE + 1] =
    [const { OnceLock::new() }; MAX_TABLE_SIDE + 1];

impl DigitSets {
    /// The table of side `n`, built on first use; `None` past [`MAX_TABLE_SIDE`].
    pub(super) fn of_side(n: usize) -> Option<&'static DigitSets> {
        let cell = TABLES.get(n)?;
        Some(cell.get_or_init(|| DigitSets::new(n)))
    }

    fn new(n: usize) -> DigitSets {
        let most = n * (n + 1) / 2;
        let buckets = (n + 1) * (most + 1);
        let bucket = |m: u64| {
            let sum: usize = (0..n).filter(|d| m >> d & 1 == 1).map(|d| d + 1).sum();
            m.count_ones() as usize * (most + 1) + sum
        };
        // Counting sort of the masks by bucket (ascending masks within one).
        let mut start = vec![0u32; buckets + 1];
        for m in 0..1u64 << n {
            start[bucket(m) + 1] += 1;
        }
        for b in 0..buckets {
            start[b + 1] += start[b];
        }
        let mut next = start.clone();
        let mut sets = vec![0; 1 << n];
        for m in 0..1u64 << n {
            let b = bucket(m);
            sets[next[b] as usize] = m;
            next[b] += 1;
        }
        DigitSets {
            n,
            most,
            start,
            sets,
        }
    }

    /// The sets of `size` distinct digits adding up to `sum`, as a range of [`DigitSets::sets`];
    /// empty when there are none.
    pub(super) fn range(&self, size: usize, sum: i64) -> (u32, u32) {
        match usize::try_from(sum) {
            Ok(s) if size <= self.n && s <= self.most => {
                let b = size * (self.most + 1) + s;
                (self.start[b], self.start[b + 1])
            }
            _ => (0, 0),
        }
    }

    /// Every set, bucketed (see [`DigitSets::range`]).
    pub(super) fn sets(&self) -> &[u64] {
        &self.sets
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Cage;

    #[test]
    fn buckets_hold_exactly_the_combinations_of_a_cage() {
        for n in [1, 4, 6, 9, 12] {
            let t = DigitSets::of_side(n).unwrap();
            let most = (n * (n + 1) / 2) as i64;
            for size in 0..=n + 1 {
                for sum in -1..=most + 1 {
                    let (a, b) = t.range(size, sum);
                    let mut got = t.sets()[a as usize..b as usize].to_vec();
                    let cage = Cage::new((0..size as u32).collect(), sum.max(0) as u32);
                    let mut want = match sum {
                        -1 => vec![],
                        _ => cage.combinations(n, usize::MAX).unwrap(),
                    };
                    got.sort_unstable();
                    want.sort_unstable();
                    assert_eq!(got, want, "n {n}, size {size}, sum {sum}");
                }
            }
        }
        // 9×9: 4 digits to 20 has 12 sets, 2 digits to 3 only {1, 2}.
        let t = DigitSets::of_side(9).unwrap();
        let (a, b) = t.range(4, 20);
        assert_eq!(b - a, 12);
        let (a, b) = t.range(2, 3);
        assert_eq!(&t.sets()[a as usize..b as usize], &[0b11]);
        assert!(DigitSets::of_side(MAX_TABLE_SIDE + 1).is_none());
    }
}
