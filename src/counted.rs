//! Counts as people read them: "1 puzzle", "2 puzzles", "0 failures".

use std::fmt::Display;

/// `n` followed by `noun` (given in the singular), which takes an `s` unless `n` is 1.
///
/// ```
/// use sudoku_lab::counted::counted;
/// assert_eq!(counted(1usize, "puzzle"), "1 puzzle");
/// assert_eq!(counted(0u64, "failure"), "0 failures");
/// ```
pub fn counted<T: Display + PartialEq + From<u8>>(n: T, noun: &str) -> String {
    let s = if n == T::from(1) { "" } else { "s" };
    format!("{n} {noun}{s}")
}
