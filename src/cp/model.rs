//! The CP model of a puzzle, free of any solver: integer cells, all-different groups, linear
//! sums and an optional linear objective, and for variant rules ([`crate::model::lower`]) binary
//! tables, weighted sums and parity domains. [`super::huub`] lowers it to huub; the MiniZinc
//! writer prints it. Both read only this, so what is exported is what is solved.
//!
//! Variant rules become: pairs (chess exclusions, thermometers, whispers, palindromes, dots,
//! negative rules) a table of the digit pairs they allow (domain-consistent in any CP solver;
//! [`super::huub`] posts those that allow most pairs as clauses instead);
//! extra houses and distinct groups all-different groups; a renban line its distinct group plus,
//! for every two of its cells, "at most `k − 1` apart" (`k` distinct digits that close are
//! consecutive); arrows and little killers weighted sums (a table when a few open cells are left);
//! odd and even cells their domains; a sandwich a [`Sandwich`] (its solver form, with counters
//! and tables, is in [`super::huub`]). The rules with forms of their own are kept as they are in
//! [`ExtraRules`]: candidates (a cell's domain), quadruples ([`Contains`]), between and lockout
//! lines ([`Between`]), skyscraper and X-sum clues ([`EdgeClue`]); [`super::huub`] posts them as
//! clauses and tables, the MiniZinc writer as counts, `min`/`max` and sums. The cells' [`Root`]
//! domains come from the deductions of [`crate::propagate`], then, on puzzles with variant
//! rules, from probing ([`crate::propagate::probe`]).

use serde::{Deserialize, Serialize};

use crate::model::lower::{self, PairRule, Rules};
use crate::model::set_equivalence::implied_cages;
use crate::model::{Puzzle, Value};
use crate::named::from_str_by_name;
use crate::propagate::probe::probe_root;
use crate::propagate::{Candidates, Level};

/// Propagation strength of each all-different (`--cp-alldiff`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum AllDiffLevel {
    /// Value consistency: a fixed cell's digit is removed from the others (forward checking).
    #[default]
    Value,
    /// Bounds consistency (Hall intervals over the cells' least and greatest digits).
    Bounds,
    /// Domain consistency (Régin's matching-based filtering). Unsound in huub 100.1: it
    /// answers "no solution" to puzzles that have one ([`AllDiffLevel::unsound`]).
    Domain,
}

impl AllDiffLevel {
    pub const ALL: [AllDiffLevel; 3] = [
        AllDiffLevel::Value,
        AllDiffLevel::Bounds,
        AllDiffLevel::Domain,
    ];
    /// Why the level gives wrong answers in huub 100.1, when it does.
    pub fn unsound(self) -> Option<&'static str> {
        match self {
            AllDiffLevel::Domain => Some(
                "huub 100.1's domain-consistent all-different answers \"no solution\" to puzzles \
                 that have one (it drops fixed cells before their digits have left the other \
                 cells; docs/backends.md)",
            ),
            AllDiffLevel::Value | AllDiffLevel::Bounds => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            AllDiffLevel::Value => "value",
            AllDiffLevel::Bounds => "bounds",
            AllDiffLevel::Domain => "domain",
        }
    }
}

/// How the search picks its next decision (`--cp-branch`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Branching {
    /// The SAT engine's activity-based choice (VSIDS) over all literals, with learning.
    #[default]
    Activity,
    /// The cell with the fewest digits left, its least digit first; activity once all are fixed.
    FirstFail,
    /// Cells in row-major order, least digit first.
    InputOrder,
}

impl Branching {
    pub const ALL: [Branching; 3] = [
        Branching::Activity,
        Branching::FirstFail,
        Branching::InputOrder,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Branching::Activity => "activity",
            Branching::FirstFail => "first-fail",
            Branching::InputOrder => "input-order",
        }
    }
}

/// How the redundant "each digit is somewhere in each full group" constraints are posted
/// (`--cp-house-cover`). They are implied by the all-different over `n` cells and `n` digits, but
/// no all-different level short of domain consistency infers them (they give hidden singles).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum HouseCover {
    /// One clause `[c₁ = d] ∨ … ∨ [cₙ = d]` per group and digit, added to the solver once it is
    /// built (huub's presolve never sees them).
    #[default]
    Clauses,
    /// One linear constraint `Σ [cᵢ = d] ≥ 1` per group and digit, in the model before presolve.
    Linear,
    /// Left out.
    None,
}

impl HouseCover {
    pub const ALL: [HouseCover; 3] = [HouseCover::Clauses, HouseCover::Linear, HouseCover::None];
    pub fn name(self) -> &'static str {
        match self {
            HouseCover::Clauses => "clauses",
            HouseCover::Linear => "linear",
            HouseCover::None => "none",
        }
    }
}

/// How successive searches of one task (the solutions of a count, the improving solutions of an
/// optimisation) run (`--cp-searches`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Searches {
    /// One solver answers them all: after each solution it gets the clause that excludes it (or
    /// the better bound) and searches again, keeping what it has learned.
    #[default]
    Incremental,
    /// Each search runs on a fresh copy of the solver as built, with every clause added so far:
    /// nothing learned carries over, and no solver is asked twice.
    Copies,
}

impl Searches {
    pub const ALL: [Searches; 2] = [Searches::Incremental, Searches::Copies];
    pub fn name(self) -> &'static str {
        match self {
            Searches::Incremental => "incremental",
            Searches::Copies => "copies",
        }
    }
}

/// Whether `optimize` adds to the objective a redundant bound from the houses
/// (`--cp-objective-bound`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ObjectiveBound {
    /// The score rewritten by reduced costs ([`crate::model::dual`]): in every solution
    /// `score + Σ rc(c, digit of c) = upper`, with every `rc ≥ 0` and `upper` the bound of the
    /// assignment relaxation's dual (the linear programme over the full groups). Posted as
    /// `score + Σ rc_c ≤ upper`, `rc_c` the element of cell `c`'s reduced costs at its digit: once
    /// the score must beat `s`, no cell keeps a digit whose reduced cost exceeds `upper − s − 1`
    /// less the other cells' least costs.
    #[default]
    ReducedCosts,
    /// The objective alone, `score = Σ weight × cell`, whose bounds propagation sees each cell
    /// apart.
    None,
}

impl ObjectiveBound {
    pub const ALL: [ObjectiveBound; 2] = [ObjectiveBound::ReducedCosts, ObjectiveBound::None];
    pub fn name(self) -> &'static str {
        match self {
            ObjectiveBound::ReducedCosts => "reduced-costs",
            ObjectiveBound::None => "none",
        }
    }
}

from_str_by_name!(ObjectiveBound, "objective bound");
from_str_by_name!(Searches, "way of searching");
from_str_by_name!(AllDiffLevel, "all-different level");
from_str_by_name!(HouseCover, "house cover");
from_str_by_name!(Branching, "branching");

/// Options of the CP backend: they change how the solver sees the model. The sound ones never
/// change its solutions; an unsound one ([`AllDiffLevel::unsound`]) may, and is refused unless
/// [`CpOptions::allow_unsound`] is set ([`CpOptions::check`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CpOptions {
    /// Propagation strength of every all-different.
    pub alldiff: AllDiffLevel,
    /// Accept a setting known to give wrong answers (to show the fault).
    pub allow_unsound: bool,
    /// Whether and how to add, for every house and digit, "the digit is in one of the house's
    /// cells".
    pub house_cover: HouseCover,
    /// The search's choice of decisions.
    pub branching: Branching,
    /// How the successive searches of a task run.
    pub searches: Searches,
    /// Leave the fixed cells (one root digit) out of every all-different; their digit is already
    /// gone from the group's other cells. huub 100.1 crashes on some puzzles with them in (inside
    /// CaDiCaL's conflict analysis, docs/backends.md) and has not crashed without them, but on
    /// forum_hardest_1106 the searches are about 15% slower without them, so this is the form a
    /// crash is retried in rather than the default.
    pub drop_fixed: bool,
    /// The redundant bound `optimize` adds to the objective.
    pub objective_bound: ObjectiveBound,
}

impl Default for CpOptions {
    fn default() -> Self {
        CpOptions {
            alldiff: AllDiffLevel::Value,
            allow_unsound: false,
            house_cover: HouseCover::Clauses,
            branching: Branching::Activity,
            searches: Searches::Incremental,
            drop_fixed: false,
            objective_bound: ObjectiveBound::ReducedCosts,
        }
    }
}

impl CpOptions {
    /// An error naming the unsound setting and `--allow-unsound`, when the options ask for one
    /// without allowing it.
    pub fn check(&self) -> Result<(), Unsound> {
        match self.alldiff.unsound() {
            Some(why) if !self.allow_unsound => Err(Unsound {
                level: self.alldiff.name(),
                why,
            }),
            _ => Ok(()),
        }
    }
}

/// An unsound all-different level asked for without `--allow-unsound` ([`CpOptions::check`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--cp-alldiff {level} is unsound: {why}; give --allow-unsound to use it anyway")]
pub struct Unsound {
    /// The level's name ([`AllDiffLevel::name`]).
    pub level: &'static str,
    /// What goes wrong ([`AllDiffLevel::unsound`]).
    pub why: &'static str,
}

/// Where a group of the model comes from, for naming it in exports and errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Origin {
    /// House `h` of the shape (rows, columns, regions, diagonals).
    House(usize),
    /// Killer cage `i` (0-based) of the puzzle's constraints.
    Cage(usize),
    /// A variant rule (extra house, extra region, renban line).
    Rule,
    /// A cage the puzzle's cages imply by set equivalence
    /// ([`crate::model::set_equivalence`]): redundant, left out of exported models.
    Implied,
}

/// The digit pairs `(a, b)` two cells may hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairTable {
    pub a: u32,
    pub b: u32,
    pub allowed: Vec<(Value, Value)>,
}

/// The digit tuples some cells may hold, in the order of `cells`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    pub cells: Vec<u32>,
    pub allowed: Vec<Vec<Value>>,
}

/// Most digit tuples a sum's open cells may take for it to become a [`Table`] (two open cells
/// always do).
const SUM_TABLE_TUPLES: usize = 4096;

/// The digits strictly between the 1 and the `n` of `cells` (a row or column, in order) add up
/// to `sum`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sandwich {
    pub cells: Vec<u32>,
    pub sum: i64,
}

/// Digits that must appear among some cells (a quadruple): each of `digits` at least as many
/// times as it is listed (a digit past `n` never does).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contains {
    pub cells: Vec<u32>,
    pub digits: Vec<Value>,
}

/// Cells whose digits lie strictly inside the interval of the digits of the two `ends` (a
/// between line, `inside`) or outside its closed interval (a lockout line).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Between {
    pub ends: [u32; 2],
    pub cells: Vec<u32>,
    pub inside: bool,
}

impl Between {
    /// Whether an inner cell may hold `d` when the ends hold `x` and `y`.
    pub fn allows(&self, x: Value, y: Value, d: Value) -> bool {
        let rule = lower::Between {
            a: self.ends[0],
            b: self.ends[1],
            cells: vec![],
            inside: self.inside,
        };
        rule.allows(x as u32, y as u32, d as u32)
    }
}

/// A clue read from one end of a row or column: the line's cells from the clue, and its value
/// (the number of cells seen for a skyscraper, the sum for an X-sum).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EdgeClue {
    pub cells: Vec<u32>,
    pub value: u32,
}

/// The variant rules that have forms of their own: candidates (a cell's domain), quadruples,
/// between and lockout lines, skyscraper and X-sum clues.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtraRules {
    /// Cells and the digits they may hold (sorted, maybe none).
    pub domains: Vec<(u32, Vec<Value>)>,
    pub contains: Vec<Contains>,
    pub betweens: Vec<Between>,
    /// Skyscraper clues: how many cells are larger than every cell before them.
    pub skyscrapers: Vec<EdgeClue>,
    /// X-sum clues: the sum of the first `X` cells, `X` the first cell's digit.
    pub xsums: Vec<EdgeClue>,
}

impl ExtraRules {
    fn of(rules: &Rules) -> ExtraRules {
        let edge = |e: &lower::EdgeLine| EdgeClue {
            cells: e.cells.clone(),
            value: e.value,
        };
        ExtraRules {
            domains: rules
                .domains
                .iter()
                .map(|(c, ds)| (*c, ds.iter().map(|&d| d as Value).collect()))
                .collect(),
            contains: rules
                .contains
                .iter()
                .map(|q| Contains {
                    cells: q.cells.clone(),
                    digits: q.digits.iter().map(|&d| d as Value).collect(),
                })
                .collect(),
            betweens: rules
                .betweens
                .iter()
                .map(|b| Between {
                    ends: [b.a, b.b],
                    cells: b.cells.clone(),
                    inside: b.inside,
                })
                .collect(),
            skyscrapers: rules.skyscrapers.iter().map(edge).collect(),
            xsums: rules.xsums.iter().map(edge).collect(),
        }
    }
}

/// `Σ coefficient × cell = rhs`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WeightedSum {
    pub terms: Vec<(u32, i64)>,
    pub rhs: i64,
}

/// Cells that must hold distinct digits. `full` when there are `n` of them, so that they hold
/// every digit `1..=n` exactly once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllDifferent {
    pub cells: Vec<u32>,
    pub full: bool,
    pub origin: Origin,
}

/// `Σ cells = sum`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinearSum {
    pub cells: Vec<u32>,
    pub sum: i64,
    pub origin: Origin,
}

/// One integer variable per cell (row-major), its domain `1..=n` or its given digit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CpModel {
    /// Side of the grid: digits are `1..=n`.
    pub n: usize,
    /// The given digit of each cell, `0` when open.
    pub givens: Vec<u16>,
    pub all_different: Vec<AllDifferent>,
    pub sums: Vec<LinearSum>,
    pub pairs: Vec<PairTable>,
    /// Sums over a few open cells, as the tuples that make them.
    pub tables: Vec<Table>,
    pub weighted: Vec<WeightedSum>,
    pub sandwiches: Vec<Sandwich>,
    /// Cells that hold an odd digit (`true`) or an even one.
    pub parity: Vec<(u32, bool)>,
    pub extra: ExtraRules,
    /// `Σ weights[c] × cell c`, to maximise, when the puzzle carries weights.
    pub objective: Option<Vec<i64>>,
    /// The cells' digits before any search.
    pub root: Root,
}

/// Each cell's digits before any search, from the deductions of [`crate::propagate`]: naked and
/// hidden singles over the houses, then what the variant rules exclude (parity, pairs, extra
/// houses and distinct groups); on puzzles with variant rules, then probed
/// ([`crate::propagate::probe`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Root {
    /// One mask per cell, bit `d − 1` for digit `d` (up to 128×128).
    Masks(Vec<u128>),
    /// Wider grids: the givens, and `1..=n` for open cells.
    Givens,
    /// The deductions proved that the puzzle has no solution.
    NoSolution,
}

impl Root {
    fn of(puzzle: &Puzzle, rules: &Rules) -> Root {
        let n = puzzle.size();
        if n > 128 {
            return Root::Givens;
        }
        let mut found = Candidates::new(puzzle, Level::Singles);
        found.restrict(rules);
        if found.contradiction().is_some() {
            return Root::NoSolution;
        }
        let bit = |d: Value| 1u128 << (d - 1);
        Root::Masks(
            (0..n * n)
                .map(|c| match found.fixed()[c] {
                    0 => found.digits(c).fold(0, |m, d| m | bit(d)),
                    d => bit(d),
                })
                .collect(),
        )
    }
}

impl Root {
    /// The masks narrowed further by [`probe_root`] over the model's all-different groups and
    /// the puzzle's rules (grids up to 64×64; wider ones are left as they are). Puzzles
    /// without variant rules are left as they are: on the hard classic sets probing by singles
    /// settles nothing the search would not, and costs a fifth of `cp`'s time.
    fn probed(self, puzzle: &Puzzle) -> Root {
        let Root::Masks(masks) = self else {
            return self;
        };
        if puzzle.size() > 64 {
            return Root::Masks(masks);
        }
        let mut cands: Vec<u64> = masks.iter().map(|&m| m as u64).collect();
        if !probe_root(puzzle, &mut cands) {
            return Root::NoSolution;
        }
        Root::Masks(cands.iter().map(|&m| u128::from(m)).collect())
    }
}

impl CpModel {
    /// The model of `puzzle`: every house and every cage, with the puzzle's weights as the
    /// objective.
    pub fn of(puzzle: &Puzzle) -> CpModel {
        let n = puzzle.size();
        let shape = puzzle.shape();
        let mut all_different: Vec<AllDifferent> = shape
            .houses()
            .enumerate()
            .map(|(h, cells)| AllDifferent {
                cells: cells.to_vec(),
                full: cells.len() == n,
                origin: Origin::House(h),
            })
            .collect();
        let mut sums = Vec::new();
        for (i, cage) in puzzle.cages().enumerate() {
            if cage.cells().len() > 1 {
                all_different.push(AllDifferent {
                    cells: cage.cells().to_vec(),
                    full: cage.cells().len() == n,
                    origin: Origin::Cage(i),
                });
            }
            sums.push(LinearSum {
                cells: cage.cells().to_vec(),
                sum: cage.sum() as i64,
                origin: Origin::Cage(i),
            });
        }
        let rules = Rules::of(puzzle);
        for (cells, full) in rules
            .houses
            .iter()
            .map(|g| (g, true))
            .chain(rules.distinct.iter().map(|g| (g, false)))
        {
            all_different.push(AllDifferent {
                cells: cells.clone(),
                full,
                origin: Origin::Rule,
            });
        }
        let table = |a: u32, b: u32, rule: PairRule| {
            let digits = 1..=n as Value;
            let allowed = digits
                .clone()
                .flat_map(|x| digits.clone().map(move |y| (x, y)))
                .filter(|&(x, y)| rule.allows(x as u32, y as u32))
                .collect();
            PairTable { a, b, allowed }
        };
        // "Different" pairs (chess exclusions) are two-cell all-different groups, the rest
        // (renban windows' among them) tables.
        let mut pairs = vec![];
        for p in rules.all_pairs() {
            if p.rule == PairRule::Differ {
                all_different.push(AllDifferent {
                    cells: vec![p.a, p.b],
                    full: false,
                    origin: Origin::Rule,
                });
            } else {
                pairs.push(table(p.a, p.b, p.rule));
            }
        }
        // A weighted sum over a few open cells is a table of the digits that make it: huub
        // 100.1 turns a sum over two cells into an alias of one by the other, and its presolve
        // looped forever when such sums (over two or three cells) closed a cycle (arrows whose
        // circles are on each other's lines).
        let givens = puzzle.givens();
        let mut weighted = vec![];
        let mut tables = vec![];
        for sum in &rules.sums {
            let mut open: Vec<(u32, i64)> = vec![];
            let mut rhs = sum.rhs;
            for &(c, k) in &sum.terms {
                match givens[c as usize] {
                    0 => match open.iter_mut().find(|(o, _)| *o == c) {
                        Some((_, merged)) => *merged += k,
                        None => open.push((c, k)),
                    },
                    g => rhs -= k * g as i64,
                }
            }
            open.retain(|&(_, k)| k != 0);
            let tuples = n.checked_pow(open.len() as u32);
            if open.len() == 2 || open.len() > 2 && tuples.is_some_and(|t| t <= SUM_TABLE_TUPLES) {
                tables.push(Table {
                    cells: open.iter().map(|&(c, _)| c).collect(),
                    allowed: tuples_making(n, &open, rhs),
                });
            } else {
                weighted.push(WeightedSum {
                    terms: sum.terms.clone(),
                    rhs: sum.rhs,
                });
            }
        }
        let root = Root::of(puzzle, &rules).probed(puzzle);
        if let Root::Masks(masks) = &root {
            let domains: Vec<u64> = masks.iter().map(|&m| m as u64).collect();
            for implied in implied_cages(shape, puzzle.cages(), &domains) {
                sums.push(LinearSum {
                    cells: implied.cells,
                    sum: i64::from(implied.sum),
                    origin: Origin::Implied,
                });
            }
        }
        CpModel {
            n,
            givens: givens.to_vec(),
            all_different,
            sums,
            pairs,
            tables,
            weighted,
            sandwiches: rules
                .sandwiches
                .iter()
                .map(|s| Sandwich {
                    cells: s.cells.clone(),
                    sum: s.sum as i64,
                })
                .collect(),
            parity: rules.parity.clone(),
            extra: ExtraRules::of(&rules),
            objective: puzzle.weights().map(|w| w.as_slice().to_vec()),
            root,
        }
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.givens.len()
    }
}

/// Every tuple of digits `1..=n` for the `terms`' cells with `Σ coefficient × digit = rhs`.
fn tuples_making(n: usize, terms: &[(u32, i64)], rhs: i64) -> Vec<Vec<Value>> {
    let mut found = vec![];
    let mut digits: Vec<Value> = vec![1; terms.len()];
    loop {
        let sum: i64 = terms
            .iter()
            .zip(&digits)
            .map(|(&(_, k), &d)| k * d as i64)
            .sum();
        if sum == rhs {
            found.push(digits.clone());
        }
        // The next tuple, as an odometer; done when every digit has wrapped.
        let Some(i) = digits.iter().rposition(|&d| (d as usize) < n) else {
            return found;
        };
        digits[i] += 1;
        digits[i + 1..].iter_mut().for_each(|d| *d = 1);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::model::{Cage, Constraint, Shape};

    #[test]
    fn houses_and_cages_become_groups() {
        let shape = Arc::new(Shape::standard(4, true).unwrap());
        let puzzle = Puzzle::new(shape, vec![0; 16])
            .unwrap()
            .with_constraints(vec![
                Constraint::Cage(Cage::new(vec![0, 1], 3)),
                Constraint::Cage(Cage::new(vec![15], 4)),
            ])
            .unwrap();
        let model = CpModel::of(&puzzle);
        // 4 rows, 4 columns, 4 boxes, 2 diagonals, and the 2-cell cage (a 1-cell cage needs none).
        assert_eq!(model.all_different.len(), 15);
        assert!(model.all_different[..14].iter().all(|g| g.full));
        assert_eq!(model.all_different[14].origin, Origin::Cage(0));
        assert!(!model.all_different[14].full);
        assert_eq!(model.sums.len(), 2);
        assert_eq!(
            (model.sums[1].cells.clone(), model.sums[1].sum),
            (vec![15], 4)
        );
        assert_eq!(model.objective, None);
    }

    #[test]
    fn a_sum_over_few_cells_is_the_tuples_that_make_it() {
        // a + b = c over 1..=4: (1,1,2), (1,2,3), (2,1,3), (1,3,4), (2,2,4), (3,1,4).
        let tuples = tuples_making(4, &[(0, 1), (1, 1), (2, -1)], 0);
        assert_eq!(tuples.len(), 6);
        assert!(tuples.iter().all(|t| t[0] + t[1] == t[2]));
        assert!(tuples_making(4, &[(0, 1), (1, 1)], 9).is_empty());
    }

    #[test]
    fn option_names_round_trip() {
        for l in AllDiffLevel::ALL {
            assert_eq!(l.name().parse::<AllDiffLevel>(), Ok(l));
        }
        for b in Branching::ALL {
            assert_eq!(b.name().parse::<Branching>(), Ok(b));
        }
        assert!("strong".parse::<AllDiffLevel>().is_err());
    }
}
