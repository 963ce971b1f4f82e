//! Technique levels: the logic engine ([`crate::logic`]) limited to cumulative sets of technique
//! families, weakest first, so that human techniques sit in the `strength` table beside the
//! propagation levels.
//!
//! | level                 | families added to the one before                              |
//! |-----------------------|---------------------------------------------------------------|
//! | `logic-singles`       | singles (full house, naked and hidden singles) and, on puzzles with cages or variant rules, the rules family (each rule's own narrowing, hidden singles and pointing in a rule's group, the 45 rule) |
//! | `logic-intersections` | intersections (pointing, claiming, locked pairs and triples)  |
//! | `logic-subsets`       | subsets (naked and hidden pairs, triples, quads)              |
//! | `logic-fish`          | fish (basic, finned, sashimi) and single-digit patterns (skyscraper, 2-string kite, turbot fish, empty rectangle) |
//! | `logic-wings`         | wings (XY, XYZ, W) and colouring (simple colours, multi-colours, remote pairs) |
//! | `logic-chains`        | chains (X-, XY-chains, nice loops, AICs, grouped), ALS-XZ, ALS-XY-wings and -chains, Sue de Coq |
//! | `logic-forcing`       | forcing chains and nets                                       |
//!
//! No level holds a uniqueness technique (they assume what the levels are asked to show) or
//! bifurcation (a search). A level *solves* a puzzle when its ladder fills the grid, *refutes*
//! it when the board breaks, and otherwise leaves the cells still empty when nothing applies:
//! the same [`Root`] as the model levels give.

use crate::cancel::Halt;
use crate::logic::{self, Family, Ladder, SolveOutcome, TECHNIQUES};
use crate::model::Puzzle;
use crate::named::from_str_by_name;

use super::{Root, StrengthError};

/// A cumulative set of technique families ([`TechniqueLevel::families`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TechniqueLevel {
    Singles,
    Intersections,
    Subsets,
    Fish,
    Wings,
    Chains,
    Forcing,
}

impl TechniqueLevel {
    /// Weakest first.
    pub const ALL: [TechniqueLevel; 7] = [
        TechniqueLevel::Singles,
        TechniqueLevel::Intersections,
        TechniqueLevel::Subsets,
        TechniqueLevel::Fish,
        TechniqueLevel::Wings,
        TechniqueLevel::Chains,
        TechniqueLevel::Forcing,
    ];

    pub fn name(self) -> &'static str {
        match self {
            TechniqueLevel::Singles => "logic-singles",
            TechniqueLevel::Intersections => "logic-intersections",
            TechniqueLevel::Subsets => "logic-subsets",
            TechniqueLevel::Fish => "logic-fish",
            TechniqueLevel::Wings => "logic-wings",
            TechniqueLevel::Chains => "logic-chains",
            TechniqueLevel::Forcing => "logic-forcing",
        }
    }

    /// The families this level adds to the one before it.
    fn added(self) -> &'static [Family] {
        match self {
            TechniqueLevel::Singles => &[Family::Singles, Family::Rules],
            TechniqueLevel::Intersections => &[Family::Intersections],
            TechniqueLevel::Subsets => &[Family::Subsets],
            TechniqueLevel::Fish => &[Family::Fish, Family::SingleDigit],
            TechniqueLevel::Wings => &[Family::Wings, Family::Coloring],
            TechniqueLevel::Chains => &[Family::Chains, Family::Als],
            TechniqueLevel::Forcing => &[Family::Forcing],
        }
    }

    /// Every family of this level and of the weaker ones.
    pub fn families(self) -> Vec<Family> {
        TechniqueLevel::ALL
            .iter()
            .filter(|&&l| l <= self)
            .flat_map(|l| l.added().iter().copied())
            .collect()
    }

    /// The weakest level whose families hold `family`; `None` for the uniqueness techniques
    /// and bifurcation, which no level holds.
    pub fn of_family(family: Family) -> Option<TechniqueLevel> {
        TechniqueLevel::ALL
            .into_iter()
            .find(|l| l.added().contains(&family))
    }

    /// The logic engine's ladder for this level: its families' techniques on the default ladder,
    /// in its order.
    pub fn ladder(self) -> Ladder {
        let families = self.families();
        Ladder::of(
            TECHNIQUES
                .iter()
                .filter(|t| families.contains(&t.family) && t.technique.in_default_ladder())
                .map(|t| t.technique)
                .collect(),
        )
    }
}

from_str_by_name!(TechniqueLevel, "technique level");

/// What `level`'s ladder leaves of `puzzle`: solved, refuted, or the cells still empty when no
/// technique applies. An error when the engine refuses the puzzle (rules, a side over 64) or
/// when a grid it fills fails the independent check.
pub fn derive(puzzle: &Puzzle, level: TechniqueLevel) -> Result<Root, StrengthError> {
    derive_until(puzzle, level, &Halt::default())
}

/// [`derive()`] that stops, [`StrengthError::Deadline`], once `halt` is reached (looked at between
/// steps).
pub fn derive_until(
    puzzle: &Puzzle,
    level: TechniqueLevel,
    halt: &Halt,
) -> Result<Root, StrengthError> {
    let open_cells = puzzle.givens().iter().filter(|&&g| g == 0).count();
    let board = logic::Board::new(puzzle)?;
    let result = logic::solver::solve_board_until(board, &level.ladder(), halt);
    if result.outcome == SolveOutcome::TimedOut {
        return Err(StrengthError::Deadline);
    }
    logic::solver::check_solved(puzzle, &result)?;
    let contradiction = result.outcome == SolveOutcome::Contradiction;
    Ok(Root {
        contradiction,
        open_cells,
        unassigned_cells: match contradiction {
            true => 0,
            false => result.board.empty_cells(),
        },
        vars: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_cumulative_and_cover_every_family_but_two() {
        let all = TechniqueLevel::Forcing.families();
        for f in Family::ALL {
            let held = !matches!(f, Family::Uniqueness | Family::LastResort);
            assert_eq!(all.contains(&f), held, "{}", f.key());
            assert_eq!(TechniqueLevel::of_family(f).is_some(), held, "{}", f.key());
        }
        for w in TechniqueLevel::ALL.windows(2) {
            let (weak, strong) = (w[0].ladder(), w[1].ladder());
            assert!(weak.techniques().len() < strong.techniques().len());
            assert!(weak
                .techniques()
                .iter()
                .all(|t| strong.techniques().contains(t)));
        }
        assert_eq!(
            TechniqueLevel::of_family(Family::SingleDigit),
            Some(TechniqueLevel::Fish)
        );
        assert_eq!(
            TechniqueLevel::of_family(Family::Als),
            Some(TechniqueLevel::Chains)
        );
    }

    #[test]
    fn levels_are_named() {
        for l in TechniqueLevel::ALL {
            assert_eq!(l.name().parse::<TechniqueLevel>().unwrap(), l);
        }
        assert!("singles".parse::<TechniqueLevel>().is_err());
    }
}
