//! Core-guided weighted MaxSAT: OLL with the refinements of RC2, over any incremental SAT solver
//! that answers under assumptions and reports a core ([`Oracle`]).
//!
//! The instance is a hard formula (already in the solver) and *soft literals* `(a, w)`: a solution
//! pays `w` when `a` is false. Minimise the total cost.
//!
//! **OLL** (Morgado, Dodaro, Marques-Silva 2014; Andres et al. 2012): solve with every soft literal
//! assumed true. When that is unsatisfiable, the solver returns a *core*: soft literals that cannot
//! all be true. With `m` the least weight in the core, every solution pays at least `m` more than
//! the lower bound so far, so `lb += m`; each core literal's weight drops by `m`, and a *totalizer*
//! over the core's violations (`¬a` for each `a`) gets the new soft literal "at most one of them is
//! violated", weight `m`. When such a sum literal "at most `b`" is itself in a later core, its sum
//! gets the next soft literal "at most `b + 1`". The cost of any solution is at least `lb` plus the
//! weights of the soft literals it falsifies, so the first solution that satisfies every soft
//! literal still in play costs exactly `lb`: it is optimal.
//!
//! Refinements that matter on weighted instances (RC2: Ignatiev, Morgado, Marques-Silva, *RC2: an
//! Efficient MaxSAT Solver*, JSAT 2019):
//! - *Stratification* (Ansótegui, Bonet, Gabàs, Levy 2013): assume only the soft literals of weight
//!   at least a level, starting high; descend when the solver says SAT. Levels are *diversity
//!   based*: a level is skipped while the soft literals it would add have too few distinct weights
//!   for it to pay (ratio of literals to distinct weights at most [`DIVERSITY`]).
//! - *Weight-aware core extraction* (Berg, Järvisalo 2017): the soft literals a core creates are
//!   held back until the solver says SAT again, so that several disjoint cores are found first.
//! - *Core trimming*: re-solve under the core alone while it shrinks (at most [`TRIM_ROUNDS`]).
//!   This also checks every core: a core the solver satisfies on its own is discarded for the last
//!   set it refuted (see [`Search::verified_core`]), so a wrong core cannot raise the bound.
//! - *Core exhaustion*: a new sum's bound is raised while "at most `b`" is unsatisfiable on its own.
//! - *Hardening and solution improvement*: every model is a solution whose cost is an upper bound
//!   `ub` (reported at once, so a time-out still has its best grid); an original soft literal
//!   whose weight exceeds `ub − lb` holds in every optimal solution and becomes a hard unit clause.
//!
//! The search stops when `lb` meets `ub`.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::trace::{self, Level};
use super::{ClauseSink, Lit};
use crate::answer::BackendError;

/// Stratification: descend past a level while (soft literals at or above it) / (distinct weights at
/// or above it) is at most this (RC2's default).
const DIVERSITY: f64 = 1.25;

/// Core trimming: at most this many re-solves under the core alone (RC2's default).
const TRIM_ROUNDS: usize = 5;

/// Environment variable that turns on a search summary (one line per search: calls and time by
/// kind, cores, strata, when the best solution and the final bound came); see [`super::trace`].
pub const TRACE_ENV: &str = trace::ENV;

/// What a search did, for its [`trace::Level::Summary`] line.
#[derive(Debug, Default)]
struct Stats {
    /// `(calls, time)` of satisfiable and unsatisfiable calls, by [`Call`] kind.
    sat: [(u32, Duration); 3],
    unsat: [(u32, Duration); 3],
    cores: u32,
    core_lits: usize,
    core_max: usize,
    strata: u32,
    /// Time of the last better solution, and of the last lower-bound increase.
    last_ub: Duration,
    last_lb: Duration,
}

/// Why the search calls the solver.
#[derive(Clone, Copy)]
enum Call {
    /// Under the soft literals of the current stratum.
    Main = 0,
    /// Under a core alone (trimming and checking).
    Trim = 1,
    /// Under a sum bound alone (exhaustion).
    Exhaust = 2,
}

/// An incremental SAT solver that answers under assumptions: varisat ([`super::VarisatSink`]) or
/// CaDiCaL (`super::cadical::CadicalSink`, feature `cadical`), and a puzzle loaded into either
/// ([`super::session::Session`]). The drivers of [`super::session`] and [`super::optimize`] call
/// it as [`minimize`] does.
pub trait Oracle: ClauseSink {
    /// Is the formula satisfiable with every literal of `assumptions` true?
    fn solve_assuming(&mut self, assumptions: &[Lit]) -> Result<bool, BackendError>;
    /// After an unsatisfiable [`Oracle::solve_assuming`]: assumptions that cannot all hold (empty
    /// when the formula itself is unsatisfiable).
    fn core(&mut self) -> Result<Vec<Lit>, BackendError>;
    /// The value of every variable `0..n` after a satisfiable call.
    fn values(&mut self, n: usize) -> Result<Vec<bool>, BackendError>;
}

/// The end of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MaxSatResult {
    /// The hard formula has no model.
    Unsatisfiable,
    /// The best model found and its cost (the caller's), with the lower bound proved; `cost ==
    /// lower_bound` means optimal (a lower bound above the cost would be a solver error).
    Done {
        values: Vec<bool>,
        cost: u64,
        lower_bound: u64,
    },
}

/// One incremental totalizer: `outputs[k]` is implied when at least `k + 1` inputs are true. Only
/// that direction is encoded, which is all a lower bound needs.
struct Totalizer {
    /// Nodes of the sum tree, leaves first; the root is last.
    nodes: Vec<TotNode>,
    inputs: usize,
}

struct TotNode {
    /// `out[k]`: at least `k + 1` of the node's leaves are true (built up to `out.len()`).
    out: Vec<Lit>,
    /// Leaves below this node.
    leaves: usize,
    children: Option<(usize, usize)>,
}

impl Totalizer {
    /// A totalizer over `inputs`, with outputs up to "at least `upto`" built.
    fn new(inputs: &[Lit], upto: usize, sink: &mut impl ClauseSink) -> Totalizer {
        let mut nodes: Vec<TotNode> = inputs
            .iter()
            .map(|&l| TotNode {
                out: vec![l],
                leaves: 1,
                children: None,
            })
            .collect();
        let mut level: Vec<usize> = (0..nodes.len()).collect();
        while level.len() > 1 {
            let mut next = Vec::with_capacity(level.len().div_ceil(2));
            for pair in level.chunks(2) {
                if let [a, b] = *pair {
                    nodes.push(TotNode {
                        out: Vec::new(),
                        leaves: nodes[a].leaves + nodes[b].leaves,
                        children: Some((a, b)),
                    });
                    next.push(nodes.len() - 1);
                } else {
                    next.push(pair[0]);
                }
            }
            level = next;
        }
        let mut t = Totalizer {
            nodes,
            inputs: inputs.len(),
        };
        t.extend(upto, sink);
        t
    }

    fn root(&self) -> usize {
        self.nodes.len() - 1
    }

    /// Builds the outputs up to "at least `upto`" (capped at the number of inputs).
    fn extend(&mut self, upto: usize, sink: &mut impl ClauseSink) {
        let root = self.root();
        self.extend_node(root, upto.min(self.inputs), sink);
    }

    fn extend_node(&mut self, node: usize, upto: usize, sink: &mut impl ClauseSink) {
        let upto = upto.min(self.nodes[node].leaves);
        let have = self.nodes[node].out.len();
        let Some((a, b)) = self.nodes[node].children else {
            return;
        };
        if have >= upto {
            return;
        }
        self.extend_node(a, upto, sink);
        self.extend_node(b, upto, sink);
        for _ in have..upto {
            let v = sink.new_var().pos_lit();
            self.nodes[node].out.push(v);
        }
        let (oa, ob) = (self.nodes[a].out.clone(), self.nodes[b].out.clone());
        let out = &self.nodes[node].out;
        // a ≥ i and b ≥ j imply out ≥ i + j, for the sums newly in range.
        for k in have + 1..=upto {
            let o = out[k - 1];
            for i in 0..=k.min(oa.len()) {
                let j = k - i;
                if j > ob.len() {
                    continue;
                }
                let mut clause = Vec::with_capacity(3);
                if i > 0 {
                    clause.push(!oa[i - 1]);
                }
                if j > 0 {
                    clause.push(!ob[j - 1]);
                }
                clause.push(o);
                sink.add_clause(&clause);
            }
        }
    }

    /// The literal "at least `k` inputs are true" (`1 ≤ k ≤ inputs`), building it if needed.
    fn at_least(&mut self, k: usize, sink: &mut impl ClauseSink) -> Lit {
        self.extend(k, sink);
        self.nodes[self.root()].out[k - 1]
    }
}

/// A soft literal that stands for a totalizer bound: "at most `bound` of sum `sum` are violated".
#[derive(Clone, Copy)]
struct SumBound {
    sum: usize,
    bound: usize,
}

/// The search state.
struct Search {
    /// Soft literals in play and their remaining weights.
    weight: HashMap<Lit, u64>,
    /// Soft literals that are totalizer bounds.
    bounds: HashMap<Lit, SumBound>,
    sums: Vec<Totalizer>,
    /// New soft literals held back until the next model (weight-aware core extraction).
    pending: Vec<(Lit, u64)>,
    lb: u64,
    stats: Stats,
    start: Instant,
}

impl Search {
    /// One solver call, counted in [`Stats`].
    fn call(
        &mut self,
        kind: Call,
        assumptions: &[Lit],
        oracle: &mut impl Oracle,
    ) -> Result<bool, BackendError> {
        let t = Instant::now();
        let sat = oracle.solve_assuming(assumptions)?;
        let slot = if sat {
            &mut self.stats.sat[kind as usize]
        } else {
            &mut self.stats.unsat[kind as usize]
        };
        slot.0 += 1;
        slot.1 += t.elapsed();
        Ok(sat)
    }

    fn raise_lb(&mut self, by: u64) {
        self.lb += by;
        self.stats.last_lb = self.start.elapsed();
        trace::emit(Level::Bounds, || {
            format!(
                "maxsat: {:.1}ms lb {}",
                self.stats.last_lb.as_secs_f64() * 1e3,
                self.lb
            )
        });
    }

    /// The [`Level::Summary`] line.
    fn summary(&self, ub: Option<u64>) -> String {
        let st = &self.stats;
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let calls = |v: &[(u32, Duration); 3]| {
            v.iter()
                .map(|(n, d)| format!("{n}/{:.1}ms", ms(*d)))
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!(
            "maxsat: lb {} ub {:?} total {:.1}ms | sat main/trim/exhaust {} | unsat {} | cores {} \
             (mean {:.1}, max {}) strata {} sums {} | last ub {:.1}ms last lb {:.1}ms",
            self.lb,
            ub,
            ms(self.start.elapsed()),
            calls(&st.sat),
            calls(&st.unsat),
            st.cores,
            st.core_lits as f64 / f64::from(st.cores.max(1)),
            st.core_max,
            st.strata,
            self.sums.len(),
            ms(st.last_ub),
            ms(st.last_lb),
        )
    }

    fn add_soft(&mut self, lit: Lit, w: u64) {
        *self.weight.entry(lit).or_insert(0) += w;
    }

    /// The assumptions at a stratification level, in a fixed order (the search is deterministic).
    fn assumptions(&self, level: u64) -> Vec<Lit> {
        let mut a: Vec<Lit> = self
            .weight
            .iter()
            .filter(|&(_, &w)| w >= level)
            .map(|(&l, _)| l)
            .collect();
        a.sort_unstable();
        a
    }

    /// The next level below `level` (diversity based); `None` when `level` already takes every
    /// soft literal.
    fn next_level(&self, level: u64) -> Option<u64> {
        let mut ws: Vec<u64> = self
            .weight
            .values()
            .copied()
            .filter(|&w| w < level)
            .collect();
        if ws.is_empty() {
            return None;
        }
        ws.sort_unstable_by(|a, b| b.cmp(a));
        let above = self.weight.values().filter(|&&w| w >= level).count();
        let mut distinct: Vec<u64> = self
            .weight
            .values()
            .copied()
            .filter(|&w| w >= level)
            .collect();
        distinct.sort_unstable();
        distinct.dedup();
        let (mut count, mut kinds) = (above, distinct.len());
        let mut i = 0;
        loop {
            let w = ws[i];
            kinds += 1;
            while i < ws.len() && ws[i] == w {
                count += 1;
                i += 1;
            }
            if i == ws.len() || count as f64 / kinds as f64 > DIVERSITY {
                return Some(w);
            }
        }
    }

    /// Takes a core into the lower bound and reformulates (OLL). Returns the core's weight.
    fn relax(&mut self, core: &[Lit], oracle: &mut impl Oracle) -> Result<u64, BackendError> {
        let m = core.iter().map(|l| self.weight[l]).min().unwrap_or(0);
        self.raise_lb(m);
        self.stats.cores += 1;
        self.stats.core_lits += core.len();
        self.stats.core_max = self.stats.core_max.max(core.len());
        let mut violations = Vec::with_capacity(core.len());
        for &l in core {
            let w = self.weight.get_mut(&l).expect("core literals are soft");
            *w -= m;
            if *w == 0 {
                self.weight.remove(&l);
            }
            violations.push(!l);
            // A bound "at most b" in a core: its sum now also offers "at most b + 1".
            if let Some(&SumBound { sum, bound }) = self.bounds.get(&l) {
                if bound + 1 < self.sums[sum].inputs {
                    let next = !self.sums[sum].at_least(bound + 2, oracle);
                    self.bounds.insert(
                        next,
                        SumBound {
                            sum,
                            bound: bound + 1,
                        },
                    );
                    self.pending.push((next, m));
                }
            }
        }
        if core.len() == 1 {
            // That literal is false in every solution.
            oracle.add_clause(&[!core[0]]);
            return Ok(m);
        }
        let mut t = Totalizer::new(&violations, 2, oracle);
        let sum = self.sums.len();
        // Exhaustion: "at most b" while it is unsatisfiable on its own, each step worth `m`.
        let mut bound = 1;
        while bound < violations.len() {
            let lit = !t.at_least(bound + 1, oracle);
            if self.call(Call::Exhaust, &[lit], oracle)? {
                self.bounds.insert(lit, SumBound { sum, bound });
                self.pending.push((lit, m));
                break;
            }
            self.raise_lb(m);
            bound += 1;
        }
        self.sums.push(t);
        Ok(m)
    }

    /// A core that is certainly one, as small as trimming makes it. `unsat` is a set of
    /// assumptions the last call refuted. The solver's core is re-solved on its own: while it is
    /// refuted and shrinks, go on from it (trimming, at most [`TRIM_ROUNDS`] times); a "core" the
    /// solver then satisfies is discarded for the last refuted set. (varisat 0.2 occasionally
    /// reports a core that is satisfiable; such a core would make the lower bound wrong.)
    fn verified_core(
        &mut self,
        unsat: &[Lit],
        oracle: &mut impl Oracle,
    ) -> Result<Vec<Lit>, BackendError> {
        let mut refuted = unsat.to_vec();
        let mut core = oracle.core()?;
        for _ in 0..=TRIM_ROUNDS {
            if core.len() >= refuted.len() || self.call(Call::Trim, &core, oracle)? {
                break;
            }
            refuted = core;
            core = oracle.core()?;
        }
        Ok(refuted)
    }

    /// Makes hard every original soft literal that no solution as good as `ub` can falsify. (Bounds
    /// of sums are left soft: hardening them slowed the search on the pyramid instances.)
    fn harden(&mut self, ub: u64, oracle: &mut impl Oracle) {
        let slack = ub.saturating_sub(self.lb);
        let hard: Vec<Lit> = self
            .weight
            .iter()
            .filter(|&(l, &w)| w > slack && !self.bounds.contains_key(l))
            .map(|(&l, _)| l)
            .collect();
        for l in hard {
            oracle.add_clause(&[l]);
        }
    }
}

/// Minimises the cost of falsified soft literals. `cost` evaluates a model (the caller knows what
/// a model means; it must be at least the soft cost of that model's falsified literals, and equal
/// to it for the result to be exact); `progress` hears of every better model and the lower bound
/// at that point; `stop` is polled between solver calls.
pub fn minimize(
    oracle: &mut impl Oracle,
    soft: &[(Lit, u64)],
    cost: &mut dyn FnMut(&[bool]) -> u64,
    progress: &mut dyn FnMut(&[bool], u64, u64),
    stop: &dyn Fn() -> bool,
) -> Result<MaxSatResult, BackendError> {
    let mut s = Search {
        weight: HashMap::new(),
        bounds: HashMap::new(),
        sums: Vec::new(),
        pending: Vec::new(),
        lb: 0,
        stats: Stats::default(),
        start: Instant::now(),
    };
    let result = search(&mut s, oracle, soft, cost, progress, stop);
    trace::emit(Level::Summary, || {
        let ub = match &result {
            Ok(MaxSatResult::Done { cost, .. }) => Some(*cost),
            _ => None,
        };
        s.summary(ub)
    });
    result
}

fn search(
    s: &mut Search,
    oracle: &mut impl Oracle,
    soft: &[(Lit, u64)],
    cost: &mut dyn FnMut(&[bool]) -> u64,
    progress: &mut dyn FnMut(&[bool], u64, u64),
    stop: &dyn Fn() -> bool,
) -> Result<MaxSatResult, BackendError> {
    for &(l, w) in soft {
        if w > 0 {
            s.add_soft(l, w);
        }
    }
    let mut best: Option<(Vec<bool>, u64)> = None;
    let mut level = s.weight.values().copied().max().unwrap_or(0);
    loop {
        if stop() {
            return Err(BackendError::TimedOut);
        }
        let assumptions = s.assumptions(level);
        if s.call(Call::Main, &assumptions, oracle)? {
            let values = oracle.values(oracle.n_vars() as usize)?;
            let c = cost(&values);
            if best.as_ref().is_none_or(|(_, b)| c < *b) {
                progress(&values, c, s.lb);
                s.stats.last_ub = s.start.elapsed();
                trace::emit(Level::Bounds, || {
                    format!(
                        "maxsat: {:.1}ms ub {c}",
                        s.stats.last_ub.as_secs_f64() * 1e3
                    )
                });
                best = Some((values, c));
            }
            let ub = best.as_ref().map_or(u64::MAX, |b| b.1);
            if ub <= s.lb {
                break;
            }
            s.harden(ub, oracle);
            if !s.pending.is_empty() {
                for (l, w) in std::mem::take(&mut s.pending) {
                    s.add_soft(l, w);
                }
                continue;
            }
            match s.next_level(level) {
                Some(next) => {
                    level = next;
                    s.stats.strata += 1;
                }
                // Every soft literal held: this model's cost is the lower bound.
                None => break,
            }
        } else {
            let core = s.verified_core(&assumptions, oracle)?;
            if core.is_empty() {
                return Ok(MaxSatResult::Unsatisfiable);
            }
            s.relax(&core, oracle)?;
            if best.as_ref().is_some_and(|b| b.1 <= s.lb) {
                break;
            }
        }
    }
    match best {
        None => Ok(MaxSatResult::Unsatisfiable),
        Some((values, cost)) => Ok(MaxSatResult::Done {
            values,
            cost,
            lower_bound: s.lb,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::VarisatSink;

    #[test]
    fn totalizer_outputs_follow_the_count() {
        for n in 1..=6usize {
            let mut s = VarisatSink::new(varisat::Solver::new());
            let inputs: Vec<Lit> = (0..n).map(|_| s.new_var().pos_lit()).collect();
            let mut t = Totalizer::new(&inputs, 1, &mut s);
            let outs: Vec<Lit> = (1..=n).map(|k| t.at_least(k, &mut s)).collect();
            for bits in 0..1u32 << n {
                let count = bits.count_ones() as usize;
                for k in 1..=n {
                    let mut a: Vec<Lit> = (0..n)
                        .map(|i| {
                            if bits >> i & 1 == 1 {
                                inputs[i]
                            } else {
                                !inputs[i]
                            }
                        })
                        .collect();
                    a.push(!outs[k - 1]);
                    let sat = s.solve_assuming(&a).unwrap();
                    assert_eq!(sat, count < k, "n {n} inputs {bits:b} k {k}");
                }
            }
        }
    }
}
