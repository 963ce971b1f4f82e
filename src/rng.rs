//! The generator's random source, [`GenRng`]: xoshiro256++ seeded through SplitMix64
//! (`rand_xoshiro`, both algorithms fixed by their published reference code), with our own
//! uniform-range and shuffle code on top, so that no library "value-breaking" change can alter
//! what a seed gives. [`crate::generate`], [`crate::weights`], [`crate::fuzz`] and the backends'
//! seeded shuffles draw from it; it depends on nothing else in the crate.
//!
//! Two bare steps sit beside it for code that keeps its own one-word state: [`splitmix64`]
//! (a seed per fuzz case, [`crate::fuzz::case_seed`]) and [`xorshift64`] (the random orders of
//! the `dfs` engine's restarts).

use rand_xoshiro::rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A deterministic, portable random source: xoshiro256++ seeded with SplitMix64, plus our own
/// range and shuffle code so that the output depends on nothing but the seed.
#[derive(Debug, Clone)]
pub struct GenRng(Xoshiro256PlusPlus);

impl GenRng {
    pub fn seed(seed: u64) -> GenRng {
        GenRng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// Uniform in `0..bound` (Lemire's multiply-and-reject); `0` when `bound <= 1`.
    pub fn below(&mut self, bound: usize) -> usize {
        if bound <= 1 {
            return 0;
        }
        let b = bound as u64;
        let threshold = b.wrapping_neg() % b;
        loop {
            let m = self.next_u64() as u128 * b as u128;
            if m as u64 >= threshold {
                return (m >> 64) as usize;
            }
        }
    }
    /// Fisher–Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// SplitMix64's increment (the golden ratio as a 64-bit fraction).
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// One step of SplitMix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014): the output for the state `state + GOLDEN_GAMMA`.
pub fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(GOLDEN_GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One step of Marsaglia's xorshift64 (shifts 13, 7, 17): the next state, which is also the
/// output. Zero stays zero, so a zero state can stand for "no random order".
pub fn xorshift64(mut x: u64) -> u64 {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xoshiro256++ seeded by SplitMix64 from 0: pins the raw stream every output depends on.
    /// The values were computed independently from the published reference algorithms.
    #[test]
    fn rng_stream_is_pinned() {
        let mut rng = GenRng::seed(0);
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(
            first,
            [
                5987356902031041503,
                7051070477665621255,
                6633766593972829180
            ]
        );
    }

    /// The bare steps, against values from their reference algorithms.
    #[test]
    fn bare_steps_are_pinned() {
        // SplitMix64 from seed 0: its first output is also xoshiro's first seed word.
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(xorshift64(1), 0x0000_0000_4082_2041);
        assert_eq!(xorshift64(0), 0);
    }

    #[test]
    fn below_stays_in_range_and_hits_every_value() {
        let mut rng = GenRng::seed(3);
        let mut hits = [0usize; 7];
        for _ in 0..7000 {
            hits[rng.below(7)] += 1;
        }
        assert!(hits.iter().all(|&h| (800..1200).contains(&h)), "{hits:?}");
        assert_eq!(rng.below(0), 0);
        assert_eq!(rng.below(1), 0);
    }

    #[test]
    fn shuffle_permutes() {
        let mut rng = GenRng::seed(5);
        let mut v: Vec<u32> = (0..50).collect();
        rng.shuffle(&mut v);
        assert_ne!(v, (0..50).collect::<Vec<_>>());
        v.sort();
        assert_eq!(v, (0..50).collect::<Vec<_>>());
    }
}
