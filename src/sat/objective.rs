//! The weighted score as a pseudo-Boolean constraint, tightened incrementally.
//!
//! Every row holds each digit once, so the digits of the free cells add up to a constant `S`.
//! With `m` the least weight of a free cell, `Σ w·d = m·S + Σ (w − m)·d` over free cells: only
//! `w − m` matters (on the 9×9 pyramid the border ring, weight 6, drops out). Writing `dmax(c)` for
//! the largest candidate of cell `c`, the score is `offset − loss` with
//! `loss = Σ (w(c) − m)·(dmax(c) − d)·x(c, d) ≥ 0`, so "score ≥ K" is the upper bound
//! `loss ≤ offset − K`, encoded by rustsat's dynamic polynomial watchdog (DPW: Paxian, Reimer,
//! Becker, *Dynamic Polynomial Watchdog Encoding for Solving Weighted MaxSAT*, SAT 2018) and
//! extended lazily as the bound tightens. DPW's size grows with the number of terms and the bits
//! of the weights, not with the number of distinct sums (a generalized totalizer grows with
//! those, far too large on 9×9 puzzles with random weights in [−20, 50]). Its bounds are enforced
//! through *tares* that differ from one bound to the next, so a search assumes each bound for its
//! calls ([`Objective::bound_loss`]) rather than adding it for good.

use rustsat::encodings::pb::{BoundUpper, BoundUpperIncremental, DynamicPolyWatchdog};

use super::encode::Decoder;
use super::{with_rustsat, ClauseSink, Lit};
use crate::model::{Grid, Puzzle, Weights};

/// `score = offset − loss`, the loss as weighted literals, and the watchdog over the loss (built
/// on the first bound).
pub struct Objective {
    offset: i64,
    /// `(x(c, d), (w(c) − m)·(dmax(c) − d))` for every positive loss weight.
    terms: Vec<(Lit, usize)>,
    dpw: Option<DynamicPolyWatchdog>,
    weight_sum: i64,
}

/// Why the objective cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ObjectiveError {
    #[error("optimize needs weights on the puzzle")]
    NoWeights,
    #[error("the loss weights sum to {0}, too large for the encoding")]
    TooLarge(i128),
}

impl Objective {
    pub fn new(puzzle: &Puzzle, decoder: &Decoder) -> Result<Objective, ObjectiveError> {
        let weights: &Weights = puzzle.weights().ok_or(ObjectiveError::NoWeights)?;
        let w = weights.as_slice();
        let n = puzzle.size() as i64;
        let free = decoder.free_cells();
        let m = free.iter().map(|&c| w[c as usize]).min().unwrap_or(0);
        // Cells that are not free are fixed (in any puzzle with a solution).
        let mut is_free = vec![false; w.len()];
        for &c in free {
            is_free[c as usize] = true;
        }
        let fixed = || {
            decoder
                .fixed()
                .iter()
                .zip(w)
                .zip(&is_free)
                .filter(|(_, &f)| !f)
                .map(|(gw, _)| gw)
        };
        let fixed_digit_sum: i64 = fixed().map(|(&g, _)| g as i64).sum();
        let s = n * n * (n + 1) / 2 - fixed_digit_sum;
        let mut lits = Vec::new();
        let mut max_part: i128 = 0;
        let mut weight_sum: i128 = 0;
        for &c in free {
            let cands = decoder.candidates(c as usize);
            let dmax = cands.iter().map(|&(_, d)| d as i64).max().unwrap_or(0);
            let wc = w[c as usize] - m;
            max_part += (wc * dmax) as i128;
            for &(v, d) in cands {
                let lw = wc * (dmax - d as i64);
                if lw > 0 {
                    lits.push((v.pos_lit(), lw as usize));
                    weight_sum += lw as i128;
                }
            }
        }
        if weight_sum > (1i128 << 40) {
            return Err(ObjectiveError::TooLarge(weight_sum));
        }
        let given_score: i64 = fixed().map(|(&g, &wc)| g as i64 * wc).sum();
        Ok(Objective {
            offset: given_score + m * s + max_part as i64,
            terms: lits,
            dpw: None,
            weight_sum: weight_sum as i64,
        })
    }

    /// The loss of a solution grid (`offset − score`).
    pub fn loss(&self, puzzle: &Puzzle, grid: &Grid) -> i64 {
        let score = puzzle.weights().map_or(0, |w| w.score(grid));
        self.offset - score
    }

    /// The loss as weighted literals: a solution loses `w` for each `(x, w)` with `x` true, and
    /// nothing else.
    pub fn terms(&self) -> impl Iterator<Item = (Lit, u64)> + '_ {
        self.terms.iter().map(|&(l, w)| (l, w as u64))
    }

    /// An upper bound on the score of any solution (loss 0).
    pub fn score_bound(&self) -> i64 {
        self.offset
    }

    /// Encodes `loss ≤ ub` and returns the literals that enforce it, or `None` when that is
    /// impossible outright (`ub < 0`; nothing is added then). The literals include the
    /// watchdog's *tares*, which differ from one bound to the next: assume them for the calls
    /// under this bound only, or add them as unit clauses when no other bound follows.
    pub fn bound_loss(&mut self, ub: i64, sink: &mut impl ClauseSink) -> Option<Vec<Lit>> {
        if ub < 0 {
            return None;
        }
        if ub >= self.weight_sum {
            return Some(Vec::new());
        }
        let ub = ub as usize;
        let terms = &self.terms;
        let dpw = self
            .dpw
            .get_or_insert_with(|| terms.iter().copied().collect());
        // Our collectors never run out of memory, and a bound encoded just before can be
        // enforced.
        Some(with_rustsat(sink, |col, vars| {
            let _ = dpw.encode_ub_change(ub..=ub, col, vars);
            dpw.enforce_ub(ub).unwrap_or_default()
        }))
    }

    /// [`Objective::bound_loss`] as unit clauses, for a formula that gets no other bound.
    /// Returns `false` when the bound is impossible outright (nothing is added then).
    pub fn require_loss_at_most(&mut self, ub: i64, sink: &mut impl ClauseSink) -> bool {
        let Some(units) = self.bound_loss(ub, sink) else {
            return false;
        };
        for u in units {
            sink.add_clause(&[u]);
        }
        true
    }
}
