//! The one table of techniques: name, family, HoDoKu score and level and Sudoku Explainer rating,
//! in HoDoKu's default solving order (the default [`crate::logic::Ladder`]). Which finder
//! answers each row is [`super::finders`]'s, so the table imports no technique file.
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
//!   rating plus 0.2 / 0.3; Franken fish the basic fish's of their size, finned Franken fish
//!   plus 0.2; skyscraper, 2-string kite, empty rectangle, W-wing, simple colours,
//!   multi-colours (type 1 an X-chain between two clusters, type 2 a forcing X-chain) and
//!   remote pairs SE's turbot fish / X-chain / XY-chain rule; uniqueness tests 5 and 6,
//!   hidden and avoidable rectangles SE's unique rectangle rule; ALS-XZ, the ALS-XY-wing, the
//!   ALS-XY-chain and Sue de Coq a forcing chain; bifurcation SE's nested forcing chains.
//! * **Rule techniques** ([`super::rules`]): neither HoDoKu nor SE grades variant rules, so
//!   their rows are this table's own. A hidden single in a rule's group (a cage, an extra
//!   region) takes the hidden single's score and SE's row/column rating; pointing from a
//!   rule's group takes pointing's; a rule's own narrowing (cage combinations, thermometer
//!   order, arrow bounds, dots, …), marked `(ours)`, scores 10 (between a naked and a hidden
//!   single, so that the dozens of such steps of a variant puzzle do not by themselves raise
//!   its level past Easy's 800) at Easy, rated 2.0 (below a naked single's 2.3: one rule read
//!   alone). The Killer 45 rule (innies and outies) scores 40 at Medium, rated 3.0 (with a
//!   locked pair's score and a naked pair's rating: an equation over a region to set up). They
//!   come right after the singles (pointing and the 45 rule after claiming), so a variant
//!   puzzle's path reads its rules before any house pattern.

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
    /// The puzzle's rules beyond its houses ([`super::rules`]).
    Rules,
}

impl Family {
    pub const ALL: [Family; 13] = [
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
        Family::Rules,
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
            Family::Rules => "rules",
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
       $se:literal;)*) => {
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
}

// Rows: variant, key, name, family, HoDoKu score, HoDoKu level, SE rating.
techniques! {
    FullHouse, "full-house", "Full House", Singles, 4, Easy, 1.0;
    NakedSingle, "naked-single", "Naked Single", Singles, 4, Easy, 2.3;
    HiddenSingle, "hidden-single", "Hidden Single", Singles, 14, Easy, 1.5;
    GroupHiddenSingle, "group-hidden-single", "Hidden Single in a Rule's Group", Rules, 14, Easy,
        1.5; // (mapped)
    RuleNarrowing, "rule", "Rule", Rules, 10, Easy, 2.0; // (ours)
    LockedPair, "locked-pair", "Locked Pair", Intersections, 40, Medium, 3.0;
    LockedTriple, "locked-triple", "Locked Triple", Intersections, 60, Medium, 3.6;
    Pointing, "pointing", "Locked Candidates Type 1 (Pointing)", Intersections, 50, Medium, 2.6;
    Claiming, "claiming", "Locked Candidates Type 2 (Claiming)", Intersections, 50, Medium, 2.8;
    GroupPointing, "group-pointing", "Pointing through Rules", Rules, 50, Medium, 2.6; // (mapped)
    InniesOuties, "45-rule", "45 Rule (Innies and Outies)", Rules, 40, Medium, 3.0; // (ours)
    NakedPair, "naked-pair", "Naked Pair", Subsets, 60, Medium, 3.0;
    NakedTriple, "naked-triple", "Naked Triple", Subsets, 80, Medium, 3.6;
    HiddenPair, "hidden-pair", "Hidden Pair", Subsets, 70, Medium, 3.4;
    HiddenTriple, "hidden-triple", "Hidden Triple", Subsets, 100, Medium, 4.0;
    NakedQuad, "naked-quad", "Naked Quadruple", Subsets, 120, Hard, 5.0;
    HiddenQuad, "hidden-quad", "Hidden Quadruple", Subsets, 150, Hard, 5.4;
    XWing, "x-wing", "X-Wing", Fish, 140, Hard, 3.2;
    Swordfish, "swordfish", "Swordfish", Fish, 150, Hard, 3.8;
    Jellyfish, "jellyfish", "Jellyfish", Fish, 160, Hard, 5.2;
    RemotePair, "remote-pair", "Remote Pair", Coloring, 110, Hard, 6.6; // (mapped)
    BugPlusOne, "bug-plus-1", "Bivalue Universal Grave + 1", Uniqueness, 100, Hard, 5.6;
    Skyscraper, "skyscraper", "Skyscraper", SingleDigit, 130, Hard, 6.6; // (mapped)
    TwoStringKite, "2-string-kite", "2-String Kite", SingleDigit, 150, Hard, 6.6; // (mapped)
    TurbotFish, "turbot-fish", "Turbot Fish", SingleDigit, 120, Hard, 6.6;
    EmptyRectangle, "empty-rectangle", "Empty Rectangle", SingleDigit, 120, Hard, 6.6; // (mapped)
    WWing, "w-wing", "W-Wing", Wings, 150, Hard, 6.6; // (mapped)
    XyWing, "xy-wing", "XY-Wing", Wings, 160, Hard, 4.2;
    XyzWing, "xyz-wing", "XYZ-Wing", Wings, 180, Hard, 4.4;
    UniqueRectangle1, "ur-1", "Uniqueness Test 1", Uniqueness, 100, Hard, 4.5;
    UniqueRectangle2, "ur-2", "Uniqueness Test 2", Uniqueness, 100, Hard, 4.5;
    UniqueRectangle3, "ur-3", "Uniqueness Test 3", Uniqueness, 100, Hard, 4.6;
    UniqueRectangle4, "ur-4", "Uniqueness Test 4", Uniqueness, 100, Hard, 4.5;
    UniqueRectangle5, "ur-5", "Uniqueness Test 5", Uniqueness, 100, Hard, 4.5; // (mapped)
    UniqueRectangle6, "ur-6", "Uniqueness Test 6", Uniqueness, 100, Hard, 4.5; // (mapped)
    HiddenRectangle, "hidden-rectangle", "Hidden Rectangle", Uniqueness, 100, Hard, 4.5; // (mapped)
    AvoidableRectangle1, "ar-1", "Avoidable Rectangle Type 1", Uniqueness, 100, Hard, 4.5; // (mapped)
    AvoidableRectangle2, "ar-2", "Avoidable Rectangle Type 2", Uniqueness, 100, Hard, 4.5; // (mapped)
    FinnedXWing, "finned-x-wing", "Finned X-Wing", Fish, 130, Hard, 3.4; // (mapped)
    SashimiXWing, "sashimi-x-wing", "Sashimi X-Wing", Fish, 150, Hard, 3.5; // (mapped)
    FinnedSwordfish, "finned-swordfish", "Finned Swordfish", Fish, 200, Unfair, 4.0; // (mapped)
    SashimiSwordfish, "sashimi-swordfish", "Sashimi Swordfish", Fish, 240, Unfair, 4.1; // (mapped)
    FinnedJellyfish, "finned-jellyfish", "Finned Jellyfish", Fish, 250, Unfair, 5.4; // (mapped)
    SashimiJellyfish, "sashimi-jellyfish", "Sashimi Jellyfish", Fish, 260, Unfair, 5.5; // (mapped)
    SueDeCoq, "sue-de-coq", "Sue de Coq", Als, 250, Unfair, 7.5; // (mapped)
    SimpleColorsTrap, "simple-colors-trap", "Simple Colors Trap", Coloring, 150, Hard, 6.6; // (mapped)
    SimpleColorsWrap, "simple-colors-wrap", "Simple Colors Wrap", Coloring, 150, Hard, 6.5; // (mapped)
    MultiColors1, "multi-colors-1", "Multi Colors 1", Coloring, 200, Hard, 6.6; // (mapped)
    MultiColors2, "multi-colors-2", "Multi Colors 2", Coloring, 200, Hard, 6.6; // (mapped)
    XChain, "x-chain", "X-Chain", Chains, 260, Unfair, 6.6;
    XyChain, "xy-chain", "XY-Chain", Chains, 260, Unfair, 7.0;
    NiceLoop, "nice-loop", "Nice Loop", Chains, 280, Unfair, 7.0;
    Aic, "aic", "AIC", Chains, 280, Unfair, 7.0;
    GroupedNiceLoop, "grouped-nice-loop", "Grouped Nice Loop", Chains, 300, Unfair, 7.3;
    GroupedAic, "grouped-aic", "Grouped AIC", Chains, 300, Unfair, 7.3;
    AlsXz, "als-xz", "Almost Locked Set XZ-Rule", Als, 300, Unfair, 7.5; // (mapped)
    AlsXyWing, "als-xy-wing", "Almost Locked Set XY-Wing", Als, 320, Unfair, 7.5; // (mapped)
    AlsXyChain, "als-xy-chain", "Almost Locked Set XY-Chain", Als, 340, Unfair, 7.5; // (mapped)
    FrankenXWing, "franken-x-wing", "Franken X-Wing", Fish, 300, Unfair, 3.2; // (mapped)
    FrankenSwordfish, "franken-swordfish", "Franken Swordfish", Fish, 350, Unfair, 3.8; // (mapped)
    FinnedFrankenXWing, "finned-franken-x-wing", "Finned Franken X-Wing", Fish, 390, Unfair, 3.4;
        // (mapped)
    FinnedFrankenSwordfish, "finned-franken-swordfish", "Finned Franken Swordfish", Fish, 410,
        Unfair, 4.0; // (mapped)
    ForcingChainContradiction, "forcing-chain-contradiction", "Forcing Chain Contradiction",
        Forcing, 500, Extreme, 8.0;
    ForcingChainVerity, "forcing-chain-verity", "Forcing Chain Verity", Forcing, 500, Extreme,
        8.0;
    ForcingNetContradiction, "forcing-net-contradiction", "Forcing Net Contradiction", Forcing,
        700, Extreme, 8.5;
    ForcingNetVerity, "forcing-net-verity", "Forcing Net Verity", Forcing, 700, Extreme, 8.5;
    Bifurcation, "bifurcation", "Bifurcation", LastResort, 10000, Extreme, 9.0; // (mapped)
}

impl Technique {
    /// False for the techniques the default ladder leaves out though HoDoKu's default steps
    /// hold them: the Franken fish. Their search is long (bases and covers from lines and
    /// boxes, fins and endo fins) and runs on every board where everything easier found
    /// nothing, so before every forcing chain; on magictour_top1465 it made `grade` about 70 %
    /// slower for 30 paths and 2 levels of 1,465. A ladder that names them
    /// (`--techniques franken-x-wing` or the `fish` family) has them.
    pub fn in_default_ladder(self) -> bool {
        !matches!(
            self,
            Technique::FrankenXWing
                | Technique::FrankenSwordfish
                | Technique::FinnedFrankenXWing
                | Technique::FinnedFrankenSwordfish
        )
    }
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
    let techniques = TECHNIQUES.iter().map(|t| t.key);
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
        // `Found::ladder` holds a bit per technique.
        assert!(TECHNIQUES.len() <= 128);
    }
}
