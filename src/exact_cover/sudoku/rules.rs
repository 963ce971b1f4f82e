//! The variant rules `dlx` takes, as columns of its exact-cover matrix over the open
//! `(cell, digit)` placements (from [`crate::model::lower`]):
//!
//! - **extra houses** (disjoint groups, extra regions of `n` cells): a *primary* column per
//!   `(group, digit)` whose digit no fixed cell of the group holds, covered exactly once like
//!   the column of any house;
//! - **distinct groups** (smaller extra regions, renban lines): a *secondary* column per
//!   `(group, digit)` not fixed in it, covered at most once;
//! - **pairs** ([`Rules::all_pairs`]: chess exclusions, thermometers, whispers, palindromes,
//!   dots, negative rules, and the "at most `k − 1` apart" each two cells of a renban line of
//!   `k` cells must be): a secondary column per digit pair `(x, y)` the rule forbids, covered by
//!   the placements `(a, x)` and `(b, y)`, so no cover chooses both. Only pairs whose two
//!   placements are both still open get a column, and each column once.
//!
//! The pairs include the kinds that lower to them: minimum and maximum cells, indexers,
//! entropic, modular and Nabner lines, slow thermometers, clones and a lockout line's ends.
//!
//! Parity cells, candidates (the digits outside a cell's listed ones), what the fixed cells
//! forbid and the digits a pair leaves without support are not columns: those placements are
//! removed from the candidates before the matrix is built ([`Candidates::restrict`]). Within the
//! search the columns only forbid: a pair prunes once one of its rows is chosen, and the
//! branching sees the primary columns only.
//!
//! `dlx` does not take ([`takes`]) the rules that are no column over single placements: sums
//! (arrows, little killers, sandwiches, region sums, zipper lines, double arrows) need the
//! digits of several cells added; a quadruple asks for digits to be present (at least, which
//! exact cover's "at most once" secondary columns cannot say); between and lockout lines relate
//! three cells at once; skyscraper and X-sum clues count or add along a whole line.

use std::collections::HashSet;

use crate::model::lower::Rules;
use crate::model::{ConstraintKind, Value};
use crate::propagate::Candidates;

/// Whether `dlx` takes rules of `kind` (Killer cages are its own rows, the rest columns here).
pub fn takes(kind: ConstraintKind) -> bool {
    !matches!(
        kind,
        ConstraintKind::Arrow
            | ConstraintKind::LittleKiller
            | ConstraintKind::Sandwich
            | ConstraintKind::RegionSum
            | ConstraintKind::Zipper
            | ConstraintKind::DoubleArrow
            | ConstraintKind::Quadruple
            | ConstraintKind::Between
            | ConstraintKind::Lockout
            | ConstraintKind::Skyscraper
            | ConstraintKind::XSum
    )
}

/// The columns of the variant rules of one puzzle: `primary` primary ones numbered from 0, then
/// `secondary` secondary ones.
pub(super) struct RuleColumns {
    pub primary: usize,
    pub secondary: usize,
    n: usize,
    /// Per placement (`cell × n + digit − 1`): the columns it covers, increasing; empty when
    /// there are no rules.
    hits: Vec<Vec<u32>>,
}

impl RuleColumns {
    /// The columns of `rules` over the open candidates of `cands` (already restricted by the
    /// rules). `None` when a digit has no place left in an extra house: no solution.
    pub fn new(rules: &Rules, cands: &Candidates) -> Option<RuleColumns> {
        let n = cands.size();
        let mut cols = RuleColumns {
            primary: 0,
            secondary: 0,
            n,
            hits: vec![],
        };
        if rules.is_empty() {
            return Some(cols);
        }
        cols.hits = vec![vec![]; n * n * n];
        let fixed = cands.fixed();
        let mut column = 0u32;
        // Extra houses first (primary), then distinct groups and pairs (secondary).
        for (groups, primary) in [(&rules.houses, true), (&rules.distinct, false)] {
            for g in groups {
                for d in 1..=n as Value {
                    if g.iter().any(|&c| fixed[c as usize] == d) {
                        continue;
                    }
                    let open: Vec<u32> = g
                        .iter()
                        .copied()
                        .filter(|&c| cands.has(c as usize, d))
                        .collect();
                    if primary && open.is_empty() {
                        return None;
                    }
                    if open.len() < 2 && !primary {
                        continue;
                    }
                    for c in open {
                        let i = cols.index(c, d);
                        cols.hits[i].push(column);
                    }
                    column += 1;
                }
            }
            if primary {
                cols.primary = column as usize;
            }
        }
        let mut seen = HashSet::new();
        for p in rules.all_pairs().filter(|p| p.a != p.b) {
            for (x, y) in p.forbidden(n) {
                if !cands.has(p.a as usize, x) || !cands.has(p.b as usize, y) {
                    continue;
                }
                let (i, j) = (cols.index(p.a, x), cols.index(p.b, y));
                if seen.insert((i.min(j), i.max(j))) {
                    cols.hits[i].push(column);
                    cols.hits[j].push(column);
                    column += 1;
                }
            }
        }
        cols.secondary = column as usize - cols.primary;
        Some(cols)
    }

    fn index(&self, cell: u32, digit: Value) -> usize {
        cell as usize * self.n + digit as usize - 1
    }

    /// The columns the placement of `digit` in `cell` covers.
    pub fn of(&self, cell: u32, digit: Value) -> &[u32] {
        match self.hits.is_empty() {
            true => &[],
            false => &self.hits[self.index(cell, digit)],
        }
    }
}
