//! The choices that select an encoding: the clause families ([`Encoding`]), at-most-one,
//! cage, pair and sum encodings, gathered in [`EncodeOptions`].

/// Which clauses to generate (see the table of [`super`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Encoding {
    Minimal,
    Efficient,
    #[default]
    Extended,
    /// Extended plus line–region intersection (triad) variables.
    Triad,
}

/// How an at-most-one constraint over `k` literals becomes clauses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Amo {
    /// Pairwise for `k ≤ 9` literals, ladder above.
    #[default]
    Auto,
    /// `k(k−1)/2` binary clauses, no new variables.
    Pairwise,
    /// Ladder / sequential counter (rustsat `Ladder`): `k−1` variables, about `3k` clauses.
    Ladder,
    /// 2-product (rustsat `TwoProduct`): about `2√k` variables, `2k + 4√k` clauses.
    Product,
    /// Bimander, groups of 4 (rustsat `Bimander`).
    Bimander,
    /// Commander, groups of 4 (rustsat `Commander`).
    Commander,
}

/// How a Killer cage's sum becomes clauses (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum CageEncoding {
    /// A selector per digit set reaching the sum; exactly one selected.
    #[default]
    Combinations,
    /// `Σ d·x = S` as two generalized-totalizer upper bounds.
    Gte,
    /// `Σ d·x = S` as two dynamic-polynomial-watchdog upper bounds.
    Dpw,
    /// `Σ d·x = S` as a binary adder with both bounds.
    Adder,
}

/// How a variant rule between two cells (a thermometer or whisper step, a dot, a negative rule,
/// a palindrome or renban pair) becomes clauses (see `encode/variants.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum PairEncoding {
    /// Over the cell variables: a clause per forbidden pair of digits and one per digit listing
    /// its supports (unit propagation reaches arc consistency).
    #[default]
    Direct,
    /// Over order literals `[x_c ≥ d]` for thermometers, whispers, white dots and renban
    /// (unit propagation reaches the bounds); the other rules as with `Direct`.
    Order,
}

impl PairEncoding {
    pub const ALL: [PairEncoding; 2] = [PairEncoding::Direct, PairEncoding::Order];
    pub fn name(self) -> &'static str {
        match self {
            PairEncoding::Direct => "direct",
            PairEncoding::Order => "order",
        }
    }
}

/// How the sums of variant rules (arrows, little killers, double arrows, zipper and region sum
/// lines, sandwiches, X-sums) become clauses (see `encode/variants/sums.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum SumEncoding {
    /// [`SumEncoding::Order`] for a sum of at most [`ORDER_SUM_MAX_CLAUSES`] clauses under it,
    /// [`SumEncoding::Adder`] above.
    #[default]
    Auto,
    /// Partial sums as order literals `[S_i ≥ k]`, built cell by cell from the cells' order
    /// literals (unit propagation reaches the bounds of each step).
    Order,
    /// `Σ d·x = rhs` over the cell variables by rustsat's binary adder.
    Adder,
    /// `Σ d·x = rhs` over the cell variables as two generalized-totalizer upper bounds.
    Gte,
}

impl SumEncoding {
    pub const ALL: [SumEncoding; 4] = [
        SumEncoding::Auto,
        SumEncoding::Order,
        SumEncoding::Adder,
        SumEncoding::Gte,
    ];
    pub fn name(self) -> &'static str {
        match self {
            SumEncoding::Auto => "auto",
            SumEncoding::Order => "order",
            SumEncoding::Adder => "adder",
            SumEncoding::Gte => "gte",
        }
    }
}

/// Largest sum [`SumEncoding::Auto`] encodes by order-encoded partial sums, in clauses (a 9×9
/// rule needs at most a few thousand; the partial sums of a long line on a large grid grow with
/// the square of the side).
pub const ORDER_SUM_MAX_CLAUSES: usize = 20_000;

/// Most digit sets a cage may have under [`CageEncoding::Combinations`]; past it the cage is
/// encoded as with [`CageEncoding::Gte`].
pub const MAX_CAGE_COMBINATIONS: usize = 20_000;

impl CageEncoding {
    pub const ALL: [CageEncoding; 4] = [
        CageEncoding::Combinations,
        CageEncoding::Gte,
        CageEncoding::Dpw,
        CageEncoding::Adder,
    ];
    pub fn name(self) -> &'static str {
        match self {
            CageEncoding::Combinations => "combinations",
            CageEncoding::Gte => "gte",
            CageEncoding::Dpw => "dpw",
            CageEncoding::Adder => "adder",
        }
    }
}

/// Largest group `Amo::Auto` encodes pairwise.
pub const AUTO_PAIRWISE_MAX: usize = 9;

impl Encoding {
    pub const ALL: [Encoding; 4] = [
        Encoding::Minimal,
        Encoding::Efficient,
        Encoding::Extended,
        Encoding::Triad,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Minimal => "minimal",
            Encoding::Efficient => "efficient",
            Encoding::Extended => "extended",
            Encoding::Triad => "triad",
        }
    }
}

impl Amo {
    pub const ALL: [Amo; 6] = [
        Amo::Auto,
        Amo::Pairwise,
        Amo::Ladder,
        Amo::Product,
        Amo::Bimander,
        Amo::Commander,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Amo::Auto => "auto",
            Amo::Pairwise => "pairwise",
            Amo::Ladder => "ladder",
            Amo::Product => "product",
            Amo::Bimander => "bimander",
            Amo::Commander => "commander",
        }
    }
}

use crate::named::from_str_by_name;
/// A name that is not an encoding / at-most-one encoding.
pub use crate::named::UnknownName;

from_str_by_name!(Encoding, "encoding");
from_str_by_name!(Amo, "at-most-one encoding");
from_str_by_name!(CageEncoding, "cage encoding");
from_str_by_name!(PairEncoding, "pair encoding");
from_str_by_name!(SumEncoding, "sum encoding");

/// Everything that selects an encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EncodeOptions {
    pub encoding: Encoding,
    pub amo: Amo,
    /// Simplify the givens away (default); `false` keeps the plain form with unit clauses.
    pub simplify: bool,
    /// With `simplify`: also fix the cells found by naked and hidden singles and eliminate locked
    /// candidates, repeated until nothing changes (off by default for files, on in the `sat` backend). Sound: every fixed
    /// value holds in every solution.
    pub propagate: bool,
    /// With `propagate`: also probe the root of a puzzle with variant rules (each digit left to
    /// a cell tried and propagated through the rules; [`crate::propagate::probe`]). Sound.
    pub probe: bool,
    /// How Killer cages are encoded (ignored without cages).
    pub cage: CageEncoding,
    /// How variant rules between two cells are encoded (ignored without them).
    pub pair: PairEncoding,
    /// How the sums of variant rules are encoded (ignored without them).
    pub sum: SumEncoding,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions {
            encoding: Encoding::Extended,
            amo: Amo::Auto,
            simplify: true,
            propagate: false,
            probe: false,
            cage: CageEncoding::Combinations,
            pair: PairEncoding::Direct,
            sum: SumEncoding::Auto,
        }
    }
}
