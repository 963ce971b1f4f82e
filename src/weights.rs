//! Where the weights of `optimize` come from: the pyramid of the puzzle's side, a weights file, or
//! new random weights for every puzzle ([`WeightSource`]). The caller reads the file; this module
//! makes the [`Weights`] of a side from it.
//!
//! ```
//! use sudoku_lab::model::Weights;
//! use sudoku_lab::weights::WeightSource;
//!
//! let file = WeightSource::File { name: "w.txt".into(), text: "1 2\n3 4\n".into() };
//! assert_eq!(file.fixed(2).unwrap(), Weights::new(2, vec![1, 2, 3, 4]).unwrap());
//! let e = file.fixed(3).unwrap_err();
//! assert_eq!(e.to_string(), "w.txt:1:4: 2 weights in this row, expected 3");
//! assert_eq!(WeightSource::Pyramid.fixed(9).unwrap(), Weights::pyramid(9));
//! ```

use std::ops::RangeInclusive;

use crate::format::{self, ParseError};
use crate::model::{ModelError, Weights};
use crate::rng::GenRng;

/// Where weights come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WeightSource {
    /// [`Weights::pyramid`] of the puzzle's side (NOIP 2009: 6 on the border ring up to 10 in the
    /// centre of a 9×9).
    Pyramid,
    /// New weights for every puzzle, each uniform in [`RANDOM_WEIGHTS`] (negative ones
    /// included), drawn by [`WeightSource::draw`].
    Random,
    /// A weights file: `n` rows of `n` integers ([`format::read_weights`]), so it fits one side.
    File {
        /// The file's name, which messages begin with.
        name: String,
        /// Its text.
        text: String,
    },
}

/// The range of [`WeightSource::Random`] weights.
pub const RANDOM_WEIGHTS: RangeInclusive<i64> = -20..=50;

/// Why a source gives no weights for a side.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// The file does not hold weights for the side: where and why.
    #[error("{name}:{}:{}: {}", .error.line, .error.col, .error.message)]
    File { name: String, error: ParseError },
    /// Random weights change from puzzle to puzzle: there are none fixed for a side.
    #[error("random weights are drawn for each puzzle, not fixed for a side")]
    Random,
    #[error(transparent)]
    Model(#[from] ModelError),
}

impl WeightSource {
    /// The weights every puzzle of side `n` gets: the pyramid of the side, or the file's
    /// ([`WeightsError::File`] when it does not hold `n` rows of `n`). [`WeightSource::Random`]
    /// has none ([`WeightsError::Random`]): each puzzle draws its own.
    pub fn fixed(&self, n: usize) -> Result<Weights, WeightsError> {
        match self {
            WeightSource::Pyramid => Ok(Weights::pyramid(n)),
            WeightSource::Random => Err(WeightsError::Random),
            WeightSource::File { name, text } => {
                format::read_weights(text, n).map_err(|error| WeightsError::File {
                    name: name.clone(),
                    error,
                })
            }
        }
    }

    /// Whether a file holds the weights of some side: the side of its number of rows (`#`
    /// comments and blank lines aside), each of that many integers in range. The pyramid and
    /// random weights fit every side.
    pub fn check(&self) -> Result<(), WeightsError> {
        match self {
            WeightSource::File { text, .. } => {
                let rows = format::content_lines(text).count();
                self.fixed(rows).map(|_| ())
            }
            _ => Ok(()),
        }
    }

    /// The weights of one puzzle of side `n`: new ones from `rng` for [`WeightSource::Random`]
    /// (`rng` is left as it was otherwise), else [`WeightSource::fixed`].
    pub fn draw(&self, n: usize, rng: &mut GenRng) -> Result<Weights, WeightsError> {
        match self {
            WeightSource::Random => {
                let (lo, hi) = (*RANDOM_WEIGHTS.start(), *RANDOM_WEIGHTS.end());
                let span = (hi - lo + 1) as usize;
                let weights = (0..n * n).map(|_| rng.below(span) as i64 + lo).collect();
                Ok(Weights::new(n, weights)?)
            }
            fixed => fixed.fixed(n),
        }
    }
}
