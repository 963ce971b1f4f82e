//! Puzzles drawn to a grade: the generator's unique puzzles, each graded by the logic engine
//! ([`crate::logic::grade`], the default ladder), kept when the grade meets a [`GradeTarget`]:
//! a HoDoKu level (the level of the path), and or a list of techniques (the path uses no
//! technique outside the list but singles, and its hardest step is one of the list's). Puzzles
//! that miss are dropped; after `attempts` of them the draw stops with an error naming the
//! levels it saw, the generator's budget rule for a puzzle it cannot make.

use std::collections::BTreeMap;

use super::{GenerateError, Generator};
use crate::logic::{self, Family, Grade, Ladder, Level, Technique};
use crate::model::{Grid, Puzzle};

/// What a drawn puzzle's grade must meet.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GradeTarget {
    /// The level of its path.
    pub level: Option<Level>,
    /// The techniques its path may use beyond singles; its hardest step is one of them.
    pub techniques: Option<Vec<Technique>>,
}

impl GradeTarget {
    /// True when a puzzle graded `grade` meets the target.
    pub fn accepts(&self, grade: &Grade) -> bool {
        if !grade.solved || self.level.is_some_and(|l| grade.level != l) {
            return false;
        }
        let Some(list) = &self.techniques else {
            return true;
        };
        let allowed = |t: &Technique| t.info().family == Family::Singles || list.contains(t);
        grade.counts.iter().all(|(t, _)| allowed(t))
            && grade.hardest.is_some_and(|t| list.contains(&t))
    }
}

/// Draws puzzles until one meets `target`, at most `attempts` of them; returns it with its
/// solution and grade. Every puzzle drawn counts against the generator's stream, kept or not.
pub fn draw_graded(
    generator: &mut Generator,
    target: &GradeTarget,
    attempts: usize,
) -> Result<(Puzzle, Grid, Grade), GenerateError> {
    let ladder = Ladder::default();
    let mut seen: BTreeMap<Level, usize> = BTreeMap::new();
    for _ in 0..attempts {
        let (puzzle, solution) = generator.generate_with_solution()?;
        let (_, grade) = logic::grade(&puzzle, &ladder)
            .map_err(|e| GenerateError::Internal(format!("grading a drawn puzzle: {e}")))?;
        if target.accepts(&grade) {
            return Ok((puzzle, solution, grade));
        }
        *seen.entry(grade.level).or_insert(0) += 1;
    }
    let seen = seen
        .iter()
        .map(|(l, k)| format!("{} {k}", l.name()))
        .collect::<Vec<_>>()
        .join(", ");
    Err(GenerateError::NoneAtGrade { attempts, seen })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Backend;
    use crate::generate::GenerateOptions;

    fn generator(checker: &dyn Backend, seed: u64) -> Generator<'_> {
        let opts = GenerateOptions {
            unique: true,
            seed,
            ..GenerateOptions::new(9)
        };
        Generator::new(opts, checker).unwrap()
    }

    #[test]
    fn a_drawn_puzzle_has_the_asked_level_and_techniques() {
        let dfs = crate::backends::create(crate::backends::BackendKind::Dfs, &Default::default())
            .unwrap();
        for level in [Level::Easy, Level::Medium, Level::Hard] {
            let target = GradeTarget {
                level: Some(level),
                techniques: None,
            };
            let (p, _, g) = draw_graded(&mut generator(dfs.as_ref(), 7), &target, 400).unwrap();
            assert_eq!(g.level, level);
            // Graded again from the puzzle alone, the same level.
            assert_eq!(logic::grade(&p, &Ladder::default()).unwrap().1.level, level);
        }
        let pointing = GradeTarget {
            level: None,
            techniques: Some(vec![Technique::Pointing]),
        };
        let (_, _, g) = draw_graded(&mut generator(dfs.as_ref(), 7), &pointing, 400).unwrap();
        assert_eq!(g.hardest, Some(Technique::Pointing));
        assert!(g
            .counts
            .iter()
            .all(|(t, _)| *t == Technique::Pointing || t.info().family == Family::Singles));
    }

    #[test]
    fn a_target_never_met_ends_with_the_levels_seen() {
        let dfs = crate::backends::create(crate::backends::BackendKind::Dfs, &Default::default())
            .unwrap();
        let target = GradeTarget {
            level: Some(Level::Extreme),
            techniques: Some(vec![Technique::XWing]),
        };
        let err = draw_graded(&mut generator(dfs.as_ref(), 7), &target, 3).unwrap_err();
        assert!(
            matches!(err, GenerateError::NoneAtGrade { attempts: 3, .. }),
            "{err}"
        );
    }
}
