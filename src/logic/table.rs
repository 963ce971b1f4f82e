//! The one table of techniques: name, family, HoDoKu score and level, Sudoku Explainer rating
//! and finder, in HoDoKu's default solving order (the default [`crate::logic::Ladder`]).
//!
//! # Sources
//! * **Scores, levels and order**: HoDoKu 2.2.0's default solver steps (`Options.solverSteps`,
//!   as the `hodoku-py` 0.2.1 port publishes them in `hodoku/core/scoring.py`): each step adds
//!   its score; a puzzle's level is the highest level of its steps, raised while the total score
//!   passes the level's maximum (Easy 800, Medium 1000, Hard 1600, Unfair 1800, Extreme).
//!   Bifurcation takes HoDoKu's "Brute Force" row (10000, Extreme).
//! * **Ratings**: Sudoku Explainer 1.2.1's published difficulty table (last value 1.0, hidden
//!   single 1.2 in a box and 1.5 in a row or column, naked single 2.3, pointing 2.6, claiming
//!   2.8, naked pair 3.0, X-wing 3.2, hidden pair 3.4, naked triple 3.6, swordfish 3.8, hidden
//!   triple 4.0, XY-wing 4.2, XYZ-wing 4.4, unique rectangles 4.5, naked quad 5.0, jellyfish 5.2,
//!   hidden quad 5.4, BUG 5.6, X-cycles and turbot fish 6.5–6.6, forcing X-chains 6.6, forcing
//!   chains 7.0, cell and region forcing chains 8.0, dynamic forcing chains 8.5, nested 9.0+).
//!   SE has no rule of its own for some techniques; they take the rating of the SE rule that
//!   finds the same deduction, marked `(mapped)` below: finned and sashimi fish the basic fish's
//!   rating plus 0.2 / 0.3; skyscraper, 2-string kite, empty rectangle, W-wing, simple colours
//!   and remote pairs SE's turbot fish / X-chain / XY-chain rule; ALS-XZ a forcing chain;
//!   bifurcation SE's nested forcing chains.

use super::board::Board;
use super::step::Found;
use super::{
    als, bifurcation, chains, coloring, fish, forcing, intersections, single_digit, singles,
    subsets,
};
use super::{uniqueness, wings};

/// A finder: pushes the steps of one technique found on a board into `found` (it stops once
/// `found` is full). It never changes the board.
pub type Finder = fn(&Board, Technique, &mut Found);

/// The families a `--techniques` list may name instead of single techniques.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    Singles,
    Intersections,
    Subsets,
    Fish,
    SingleDigit,
    Wings,
    Coloring,
    Uniqueness,
    Chains,
    Als,
    Forcing,
    LastResort,
}

impl Family {
    pub const ALL: [Family; 12] = [
        Family::Singles,
        Family::Intersections,
        Family::Subsets,
        Family::Fish,
        Family::SingleDigit,
        Family::Wings,
        Family::Coloring,
        Family::Uniqueness,
        Family::Chains,
        Family::Als,
        Family::Forcing,
        Family::LastResort,
    ];
    /// The family's key in technique lists.
    pub fn key(self) -> &'static str {
        match self {
            Family::Singles => "singles",
            Family::Intersections => "intersections",
            Family::Subsets => "subsets",
            Family::Fish => "fish",
            Family::SingleDigit => "single-digit",
            Family::Wings => "wings",
            Family::Coloring => "coloring",
            Family::Uniqueness => "uniqueness",
            Family::Chains => "chains",
            Family::Als => "als",
            Family::Forcing => "forcing",
            Family::LastResort => "last-resort",
        }
    }
}

/// HoDoKu's difficulty levels, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    Easy,
    Medium,
    Hard,
    Unfair,
    Extreme,
}

impl Level {
    /// The highest total score a puzzle of this level may have (HoDoKu's defaults).
    pub fn max_score(self) -> u32 {
        match self {
            Level::Easy => 800,
            Level::Medium => 1000,
            Level::Hard => 1600,
            Level::Unfair => 1800,
            Level::Extreme => u32::MAX,
        }
    }
    pub fn next(self) -> Level {
        match self {
            Level::Easy => Level::Medium,
            Level::Medium => Level::Hard,
            Level::Hard => Level::Unfair,
            Level::Unfair | Level::Extreme => Level::Extreme,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Unfair => "unfair",
            Level::Extreme => "extreme",
        }
    }
}

macro_rules! techniques {
    ($($variant:ident, $key:literal, $name:literal, $family:ident, $score:literal, $level:ident,
       $se:literal, $find:expr;)*) => {
        /// Every technique the engine knows, in HoDoKu's default order.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Technique { $($variant),* }

        /// One row per technique, in the order of [`Technique`].
        pub const TECHNIQUES: &[TechniqueInfo] = &[$(TechniqueInfo {
            technique: Technique::$variant,
            key: $key,
            name: $name,
            family: Family::$family,
            score: $score,
            level: Level::$level,
            se: $se,
            find: $find,
        }),*];
    };
}

/// A technique's row of the table.
#[derive(Debug, Clone, Copy)]
pub struct TechniqueInfo {
    pub technique: Technique,
    /// Key in technique lists (`naked-pair`).
    pub key: &'static str,
    /// HoDoKu's name, used in step texts (`Naked Pair`).
    pub name: &'static str,
    pub family: Family,
    /// HoDoKu score of one step.
    pub score: u32,
    /// HoDoKu level of the technique.
    pub level: Level,
    /// Sudoku Explainer rating of one step.
    pub se: f32,
    /// `None` for a technique the table names but no finder implements yet.
    pub find: Option<Finder>,
}

// Rows: variant, key, name, family, HoDoKu score, HoDoKu level, SE rating, finder.
techniques! {
    FullHouse, "full-house", "Full House", Singles, 4, Easy, 1.0, Some(singles::find);
    NakedSingle, "naked-single", "Naked Single", Singles, 4, Easy, 2.3, Some(singles::find);
    HiddenSingle, "hidden-single", "Hidden Single", Singles, 14, Easy, 1.5, Some(singles::find);
    LockedPair, "locked-pair", "Locked Pair", Intersections, 40, Medium, 3.0, Some(subsets::find);
    LockedTriple, "locked-triple", "Locked Triple", Intersections, 60, Medium, 3.6, Some(subsets::find);
    Pointing, "pointing", "Locked Candidates Type 1 (Pointing)", Intersections, 50, Medium, 2.6,
        Some(intersections::find);
    Claiming, "claiming", "Locked Candidates Type 2 (Claiming)", Intersections, 50, Medium, 2.8,
        Some(intersections::find);
    NakedPair, "naked-pair", "Naked Pair", Subsets, 60, Medium, 3.0, Some(subsets::find);
    NakedTriple, "naked-triple", "Naked Triple", Subsets, 80, Medium, 3.6, Some(subsets::find);
    HiddenPair, "hidden-pair", "Hidden Pair", Subsets, 70, Medium, 3.4, Some(subsets::find);
    HiddenTriple, "hidden-triple", "Hidden Triple", Subsets, 100, Medium, 4.0, Some(subsets::find);
    NakedQuad, "naked-quad", "Naked Quadruple", Subsets, 120, Hard, 5.0, Some(subsets::find);
    HiddenQuad, "hidden-quad", "Hidden Quadruple", Subsets, 150, Hard, 5.4, Some(subsets::find);
    XWing, "x-wing", "X-Wing", Fish, 140, Hard, 3.2, Some(fish::find);
    Swordfish, "swordfish", "Swordfish", Fish, 150, Hard, 3.8, Some(fish::find);
    Jellyfish, "jellyfish", "Jellyfish", Fish, 160, Hard, 5.2, Some(fish::find);
    RemotePair, "remote-pair", "Remote Pair", Coloring, 110, Hard, 6.6, Some(coloring::find); // (mapped)
    BugPlusOne, "bug-plus-1", "Bivalue Universal Grave + 1", Uniqueness, 100, Hard, 5.6,
        Some(uniqueness::find);
    Skyscraper, "skyscraper", "Skyscraper", SingleDigit, 130, Hard, 6.6, Some(single_digit::find); // (mapped)
    TwoStringKite, "2-string-kite", "2-String Kite", SingleDigit, 150, Hard, 6.6,
        Some(single_digit::find); // (mapped)
    EmptyRectangle, "empty-rectangle", "Empty Rectangle", SingleDigit, 120, Hard, 6.6,
        Some(single_digit::find); // (mapped)
    WWing, "w-wing", "W-Wing", Wings, 150, Hard, 6.6, Some(wings::find); // (mapped)
    XyWing, "xy-wing", "XY-Wing", Wings, 160, Hard, 4.2, Some(wings::find);
    XyzWing, "xyz-wing", "XYZ-Wing", Wings, 180, Hard, 4.4, Some(wings::find);
    UniqueRectangle1, "ur-1", "Uniqueness Test 1", Uniqueness, 100, Hard, 4.5, Some(uniqueness::find);
    UniqueRectangle2, "ur-2", "Uniqueness Test 2", Uniqueness, 100, Hard, 4.5, Some(uniqueness::find);
    UniqueRectangle3, "ur-3", "Uniqueness Test 3", Uniqueness, 100, Hard, 4.6, Some(uniqueness::find);
    UniqueRectangle4, "ur-4", "Uniqueness Test 4", Uniqueness, 100, Hard, 4.5, Some(uniqueness::find);
    FinnedXWing, "finned-x-wing", "Finned X-Wing", Fish, 130, Hard, 3.4, Some(fish::find); // (mapped)
    SashimiXWing, "sashimi-x-wing", "Sashimi X-Wing", Fish, 150, Hard, 3.5, Some(fish::find); // (mapped)
    FinnedSwordfish, "finned-swordfish", "Finned Swordfish", Fish, 200, Unfair, 4.0,
        Some(fish::find); // (mapped)
    SashimiSwordfish, "sashimi-swordfish", "Sashimi Swordfish", Fish, 240, Unfair, 4.1,
        Some(fish::find); // (mapped)
    FinnedJellyfish, "finned-jellyfish", "Finned Jellyfish", Fish, 250, Unfair, 5.4,
        Some(fish::find); // (mapped)
    SashimiJellyfish, "sashimi-jellyfish", "Sashimi Jellyfish", Fish, 260, Unfair, 5.5,
        Some(fish::find); // (mapped)
    SimpleColorsTrap, "simple-colors-trap", "Simple Colors Trap", Coloring, 150, Hard, 6.6,
        Some(coloring::find); // (mapped)
    SimpleColorsWrap, "simple-colors-wrap", "Simple Colors Wrap", Coloring, 150, Hard, 6.5,
        Some(coloring::find); // (mapped)
    XChain, "x-chain", "X-Chain", Chains, 260, Unfair, 6.6, Some(chains::find);
    XyChain, "xy-chain", "XY-Chain", Chains, 260, Unfair, 7.0, Some(chains::find);
    NiceLoop, "nice-loop", "Nice Loop", Chains, 280, Unfair, 7.0, Some(chains::find);
    Aic, "aic", "AIC", Chains, 280, Unfair, 7.0, Some(chains::find);
    GroupedNiceLoop, "grouped-nice-loop", "Grouped Nice Loop", Chains, 300, Unfair, 7.3, Some(chains::find);
    GroupedAic, "grouped-aic", "Grouped AIC", Chains, 300, Unfair, 7.3, Some(chains::find);
    AlsXz, "als-xz", "Almost Locked Set XZ-Rule", Als, 300, Unfair, 7.5, Some(als::find); // (mapped)
    ForcingChainContradiction, "forcing-chain-contradiction", "Forcing Chain Contradiction",
        Forcing, 500, Extreme, 8.0, Some(forcing::find);
    ForcingChainVerity, "forcing-chain-verity", "Forcing Chain Verity", Forcing, 500, Extreme,
        8.0, Some(forcing::find);
    ForcingNetContradiction, "forcing-net-contradiction", "Forcing Net Contradiction", Forcing,
        700, Extreme, 8.5, Some(forcing::find);
    ForcingNetVerity, "forcing-net-verity", "Forcing Net Verity", Forcing, 700, Extreme, 8.5, Some(forcing::find);
    Bifurcation, "bifurcation", "Bifurcation", LastResort, 10000, Extreme, 9.0,
        Some(bifurcation::find); // (mapped)
}

impl Technique {
    /// The technique's row of [`TECHNIQUES`].
    pub fn info(self) -> &'static TechniqueInfo {
        &TECHNIQUES[self as usize]
    }
    pub fn name(self) -> &'static str {
        self.info().name
    }
    pub fn key(self) -> &'static str {
        self.info().key
    }
    /// True for the techniques that assume the puzzle has one solution.
    pub fn assumes_uniqueness(self) -> bool {
        self.info().family == Family::Uniqueness
    }
}

/// Every family key, then every technique key, comma-separated (for messages).
pub fn known_keys() -> String {
    let families = Family::ALL.iter().map(|f| f.key());
    let techniques = TECHNIQUES
        .iter()
        .filter(|t| t.find.is_some())
        .map(|t| t.key);
    families.chain(techniques).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_follow_the_enum_and_keys_are_distinct() {
        let mut keys = std::collections::HashSet::new();
        for (i, row) in TECHNIQUES.iter().enumerate() {
            assert_eq!(row.technique as usize, i, "{}", row.name);
            assert!(keys.insert(row.key), "{} twice", row.key);
            assert!(Family::ALL.iter().all(|f| f.key() != row.key));
        }
        assert_eq!(Technique::XWing.info().score, 140);
        assert_eq!(Technique::Bifurcation.info().level, Level::Extreme);
    }
}
