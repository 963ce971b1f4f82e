//! What the `minizinc` backend asks the `minizinc` program, and the checks of what it answers:
//! the model text of a [`Question`] ([`model_text`], refused past [`MAX_MODEL_BYTES`]), the
//! program's arguments for it ([`args`]), and the checks of a read [`MznOutput`] against the
//! puzzle ([`check`]: no given changed, no solution twice, every printed score the grid's).

use std::collections::HashSet;

use super::minizinc::{self, MznOutput};
use super::CpModel;
use crate::model::{Grid, Puzzle};

/// The largest MiniZinc model the backend writes, in bytes: about a 115×115 grid. Compiling
/// the model takes MiniZinc 2.6 time and memory far beyond its size: about 40 s and 760 MB for an
/// empty 100×100 grid (a 360 KB model), 320 s and 5.6 GB for a 200×200 one (1.5 MB).
pub const MAX_MODEL_BYTES: usize = 512 << 10;

/// What a model is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    Solve,
    /// Every solution, up to this many.
    Count(u64),
    /// The best score, printing each improving solution.
    Maximize,
}

/// Why no model text was written.
#[derive(Debug, thiserror::Error)]
pub enum ModelTextError {
    #[error("writing the model: {0}")]
    Write(#[from] std::io::Error),
    /// The model is over [`MAX_MODEL_BYTES`].
    #[error("the MiniZinc model of this {n}×{n} puzzle is {} KiB, over the {} KiB the minizinc backend writes (MiniZinc's compilation grows much faster than the model)", .bytes.div_ceil(1 << 10), MAX_MODEL_BYTES >> 10)]
    TooLarge { n: usize, bytes: usize },
}

/// The MiniZinc model of `puzzle` for `question` (with the objective only when maximizing).
pub fn model_text(puzzle: &Puzzle, question: Question) -> Result<Vec<u8>, ModelTextError> {
    let mut model = CpModel::of(puzzle);
    if question != Question::Maximize {
        model.objective = None;
    }
    let mut text = Vec::new();
    minizinc::write(&model, puzzle.shape(), &mut text)?;
    if text.len() > MAX_MODEL_BYTES {
        return Err(ModelTextError::TooLarge {
            n: puzzle.size(),
            bytes: text.len(),
        });
    }
    Ok(text)
}

/// The program's arguments for `question` with `solver`, `--statistics` when `statistics`.
pub fn args(question: Question, solver: &str, statistics: bool) -> Vec<String> {
    let mut args = vec!["--solver".to_string(), solver.to_string()];
    match question {
        Question::Solve => {}
        Question::Count(limit) => {
            args.extend(["--all-solutions".into(), "--num-solutions".into()]);
            args.push(limit.to_string());
        }
        Question::Maximize => args.push("--all-solutions".into()),
    }
    if statistics {
        args.push("--statistics".into());
    }
    args
}

/// A printed solution that cannot be one of the puzzle's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    /// 1-based row and column of the given it changes.
    #[error("a solution changes the given of row {row}, column {column}")]
    ChangesGiven { row: usize, column: usize },
    #[error("the same solution printed twice")]
    Repeated,
    #[error("it prints score {printed} for a grid that scores {real}")]
    WrongScore { printed: i64, real: i64 },
}

/// Checks every solution of `output` against `puzzle`: it keeps the givens, none is printed
/// twice, and a printed score is the grid's.
pub fn check(output: &MznOutput, puzzle: &Puzzle) -> Result<(), AnswerError> {
    let n = puzzle.size();
    let mut seen = HashSet::new();
    for s in &output.solutions {
        if let Some(i) = puzzle
            .givens()
            .iter()
            .zip(&s.cells)
            .position(|(&g, &d)| g != 0 && g != d)
        {
            return Err(AnswerError::ChangesGiven {
                row: i / n + 1,
                column: i % n + 1,
            });
        }
        if !seen.insert(&s.cells) {
            return Err(AnswerError::Repeated);
        }
        if let (Some(printed), Some(weights)) = (s.score, puzzle.weights()) {
            let real = weights.score(&Grid::new(n, s.cells.clone()));
            if printed != real {
                return Err(AnswerError::WrongScore { printed, real });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cp::minizinc::{Solution, Status};
    use crate::model::Shape;
    use std::sync::Arc;

    #[test]
    fn answers_are_checked_against_the_puzzle() {
        let shape = Arc::new(Shape::standard(4, false).unwrap());
        let mut givens = vec![0; 16];
        givens[5] = 4;
        let p = Puzzle::new(shape, givens).unwrap();
        let grid = |cells: &str| Solution {
            cells: cells.bytes().map(|b| (b - b'0') as _).collect(),
            score: None,
        };
        let good = grid("1234341221434321");
        let output = |solutions| MznOutput {
            solutions,
            status: Status::Complete,
        };
        assert_eq!(check(&output(vec![good.clone()]), &p), Ok(()));
        assert_eq!(
            check(&output(vec![grid("1234431221434321")]), &p),
            Err(AnswerError::ChangesGiven { row: 2, column: 2 })
        );
        assert_eq!(
            check(&output(vec![good.clone(), good]), &p),
            Err(AnswerError::Repeated)
        );
        assert_eq!(
            args(Question::Count(2), "gecode", true),
            [
                "--solver",
                "gecode",
                "--all-solutions",
                "--num-solutions",
                "2",
                "--statistics"
            ]
        );
    }
}
