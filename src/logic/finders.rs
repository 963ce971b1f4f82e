//! Which finder answers each technique of the table: the one place that ties
//! [`super::table::TECHNIQUES`]' rows to the family files (`singles`, `fish`, `chains`, …), so
//! that the families import the table and the table imports none of them.

use super::board::Board;
use super::step::Found;
use super::table::{Family, Technique};
use super::{
    als, als_chain, bifurcation, chains, coloring, fish, forcing, franken, intersections,
    multi_colors, rules, single_digit, singles, subsets, sue_de_coq, uniqueness, wings,
};

/// A finder: pushes the steps of one technique found on a board into `found` (it stops once
/// `found` is full). It never changes the board.
pub type Finder = fn(&Board, Technique, &mut Found);

/// The finder of technique `t`: its family's, but for the locked pair and triple, which the
/// subset finder finds (they are subsets inside an intersection), Sue de Coq (two almost
/// locked sets around an intersection), the ALS-XY-chain, multi-colours and the Franken fish
/// (bases and covers mixing lines and boxes), which have files of their own, and the turbot
/// fish, a short X-chain that the chain search finds.
pub fn finder(t: Technique) -> Finder {
    match t {
        Technique::LockedPair | Technique::LockedTriple => return subsets::find,
        Technique::SueDeCoq => return sue_de_coq::find,
        Technique::AlsXyChain => return als_chain::find,
        Technique::MultiColors1 | Technique::MultiColors2 => return multi_colors::find,
        Technique::TurbotFish => return chains::find,
        Technique::FrankenXWing
        | Technique::FrankenSwordfish
        | Technique::FinnedFrankenXWing
        | Technique::FinnedFrankenSwordfish => return franken::find,
        _ => {}
    }
    match t.info().family {
        Family::Singles => singles::find,
        Family::Intersections => intersections::find,
        Family::Subsets => subsets::find,
        Family::Fish => fish::find,
        Family::SingleDigit => single_digit::find,
        Family::Wings => wings::find,
        Family::Coloring => coloring::find,
        Family::Uniqueness => uniqueness_without_rules,
        Family::Chains => chains::find,
        Family::Als => als::find,
        Family::Forcing => forcing::find,
        Family::LastResort => bifurcation::find,
        Family::Rules => rules::find,
    }
}

/// The uniqueness techniques on puzzles without rules beyond their houses only: a rule can
/// break the symmetry a unique rectangle or a BUG rests on (swapping the rectangle's digits
/// need not keep a cage's sum or a thermometer's order), so there they would not be sound.
fn uniqueness_without_rules(board: &Board, t: Technique, found: &mut Found) {
    if board.rules().is_empty() {
        uniqueness::find(board, t, found);
    }
}

/// True when technique `t` reads one digit's candidates at a time (fish, single-digit
/// patterns, simple colours and multi-colours, X-chains): what it finds for a digit depends on that digit's
/// places alone, so the solver asks again only for the digits whose places have changed
/// since it last found nothing ([`Found::digits`]).
pub fn per_digit(t: Technique) -> bool {
    use Technique as T;
    matches!(t.info().family, Family::Fish | Family::SingleDigit)
        || matches!(
            t,
            T::SimpleColorsTrap
                | T::SimpleColorsWrap
                | T::MultiColors1
                | T::MultiColors2
                | T::XChain
        )
}
