//! `--shard K/N`: one share of a campaign, so that N machines (or N processes) together do exactly
//! one run's work.
//!
//! Items are numbered from 0 in the order one unsharded run meets them (input puzzles of
//! `xcheck` and `bench`, puzzles of `generate`, cases of `fuzz`), and shard K takes the items `i`
//! with `i mod N = K − 1`: round robin, so hard puzzles that sit together in a file are spread
//! over the shards, and no shard needs to know how many items there are. Every item belongs to
//! exactly one shard.
//!
//! ```
//! use sudoku_lab::shard::Shard;
//! let s: Shard = "2/3".parse().unwrap();
//! assert_eq!((0..9).filter(|&i| s.takes(i)).collect::<Vec<_>>(), [1, 4, 7]);
//! assert_eq!(s.item(2), 7);
//! assert!("0/3".parse::<Shard>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

/// Shard `k` of `n` (1 ≤ k ≤ n).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    k: u64,
    n: u64,
}

impl Shard {
    /// The whole job (shard 1 of 1).
    pub const WHOLE: Shard = Shard { k: 1, n: 1 };

    /// Shard `k` of `n`; an error unless `1 ≤ k ≤ n`.
    pub fn new(k: u64, n: u64) -> Result<Shard, ShardError> {
        if n == 0 {
            return Err(ShardError::NoShards { k });
        }
        if k == 0 || k > n {
            return Err(ShardError::OutOfRange { k, n });
        }
        Ok(Shard { k, n })
    }

    pub fn k(self) -> u64 {
        self.k
    }
    pub fn n(self) -> u64 {
        self.n
    }
    pub fn is_whole(self) -> bool {
        self.n == 1
    }

    /// Whether item `i` (0-based, in the order of one unsharded run) is this shard's.
    pub fn takes(self, i: u64) -> bool {
        i % self.n == self.k - 1
    }

    /// The `j`-th item (0-based) of this shard.
    pub fn item(self, j: u64) -> u64 {
        j.saturating_mul(self.n).saturating_add(self.k - 1)
    }
}

impl Default for Shard {
    fn default() -> Shard {
        Shard::WHOLE
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// Why a text or a pair of numbers is no shard.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    #[error("--shard takes K/N, e.g. 2/4 (shard 2 of 4), not '{0}'")]
    Syntax(String),
    #[error("--shard {k}/0: N must be at least 1")]
    NoShards { k: u64 },
    #[error("--shard {k}/{n}: K must be between 1 and N (shards are numbered 1 to {n})")]
    OutOfRange { k: u64, n: u64 },
}

impl FromStr for Shard {
    type Err = ShardError;
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let (k, n) = s
            .split_once('/')
            .and_then(|(k, n)| Some((k.trim().parse().ok()?, n.trim().parse().ok()?)))
            .ok_or_else(|| ShardError::Syntax(s.to_string()))?;
        Shard::new(k, n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_items() {
        for n in 1..6 {
            let shards: Vec<Shard> = (1..=n).map(|k| Shard::new(k, n).unwrap()).collect();
            for i in 0..50 {
                assert_eq!(shards.iter().filter(|s| s.takes(i)).count(), 1);
            }
            for s in &shards {
                for j in 0..10 {
                    assert!(s.takes(s.item(j)));
                }
            }
        }
    }

    #[test]
    fn bad_shards_are_clear_errors() {
        for (s, words) in [
            ("0/4", "between 1 and N"),
            ("5/4", "between 1 and N"),
            ("1/0", "at least 1"),
            ("1", "takes K/N"),
            ("a/b", "takes K/N"),
            ("-1/2", "takes K/N"),
        ] {
            let e = s.parse::<Shard>().unwrap_err().to_string();
            assert!(e.contains(words), "{s}: {e}");
        }
        assert_eq!("3/4".parse::<Shard>().unwrap().to_string(), "3/4");
    }
}
