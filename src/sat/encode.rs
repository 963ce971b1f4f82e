//! CNF encodings of a [`Puzzle`], built over the model's houses (so jigsaw regions and diagonals
//! need nothing special), written into any [`ClauseSink`].
//!
//! Parts, with `x(c, d)` = "cell `c` holds digit `d`":
//!
//! | part        | clauses                                              | in encodings            |
//! |-------------|------------------------------------------------------|-------------------------|
//! | `givens`    | unit `x(c, g)` per given (only without simplification) | all                   |
//! | `cell-alo`  | each cell holds at least one digit                   | all                     |
//! | `cell-amo`  | each cell holds at most one digit                    | efficient, extended, triad |
//! | `house-amo` | each digit at most once per house                    | all                     |
//! | `house-alo` | each digit at least once per house                   | extended, triad         |
//! | `triad`     | `t(line, region, d)` ⇔ some cell of line ∩ region holds `d`; exactly one triad per (line, d) and per (region, direction, d) | triad |
//! | `cage`      | Killer cages: each digit at most once per cage, and the sum, by the [`CageEncoding`] chosen | all, when the puzzle has cages |
//! | a kind's name | variant rules, one part per kind, rules between two cells by the [`PairEncoding`] chosen and sums by the [`SumEncoding`], with the order literals they need (`encode/variants.rs`, `encode/variants/sums.rs`) | all, when the puzzle has them |
//!
//! **Cage sums** (`--cage-encoding`): `combinations` (default) gives each cage a selector
//! variable per set of digits that reaches its sum, exactly one selected, and a variable per digit
//! "the cage holds `d`" tied to the cells and to the sets (both ways, so that unit propagation
//! removes a digit no set left has, and requires one every set left has); the pseudo-Boolean
//! encodings state `Σ d · x(c, d) = S` over the cage's cells directly, through rustsat: `gte`
//! (generalized totalizer) and `dpw`
//! (dynamic polynomial watchdog) as two upper bounds (the sum, and the sum of the digits left
//! out), `adder` (binary adder) as both bounds at once.
//!
//! On an empty 9×9 with pairwise at-most-one: minimal 8,829 clauses, efficient 11,745, extended
//! 11,988. The `triad` encoding adds intersection variables so that unit propagation finds locked
//! candidates (pointing / claiming).
//!
//! **Given simplification** (default; Kwon & Jain's "optimized encoding"): a given fixes its own
//! variable true, the other digits of its cell false and its digit false in every peer cell. Fixed
//! variables are removed, clauses with a true literal dropped, false literals deleted. A clause
//! that loses all its literals stays as the empty clause (the puzzle has no solution).
//!
//! **Propagation** (`propagate`, on in the `sat` backend, off for exported files): before
//! encoding, naked and hidden singles are placed and locked candidates eliminated (any two
//! houses) until nothing changes ([`crate::propagate`], shared with `dlx` and `ilp`); the values
//! so fixed are simplified away like givens. Sound
//! (each holds in every solution), so counts are unchanged; many 17-clue puzzles reach the solver
//! as an empty formula.
//!
//! Beside the encoding itself (here and, for the variant rules, `encode/variants.rs`): its
//! options (`encode/options.rs`), statistics (`encode/stats.rs`), the decoder of a model
//! (`encode/decoder.rs`), the DIMACS export (`encode/export.rs`) and the exact size estimate
//! (`encode/estimate.rs`); their items are all reached as `crate::sat::encode::…`.
//!
//! References: I. Lynce, J. Ouaknine, *Sudoku as a SAT Problem*, AIMATH 2006 (minimal / efficient
//! / extended); G. Kwon, H. Jain, *Optimized CNF Encoding for Sudoku Puzzles*, LPAR 2006.

use std::fmt;
use std::io;

use rustsat::encodings::am1::{self, Encode as _};
use rustsat::encodings::pb::{
    BinaryAdder, BoundBoth, BoundUpper, DynamicPolyWatchdog, GeneralizedTotalizer,
};

use super::{dimacs, with_rustsat, ClauseSink, Cnf, Lit, Var};
use crate::model::set_equivalence::implied_cages;
use crate::model::{Cage, ConstraintKind, Grid, Puzzle, Value};
use crate::propagate::probe::probe_root;
use crate::propagate::{Candidates, Level};

mod decoder;
mod estimate;
mod export;
mod options;
mod stats;
mod variants;
pub use decoder::*;
pub use estimate::*;
pub use export::*;
pub use options::*;
pub use stats::*;

/// How cell variables are numbered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Numbering {
    /// `x(c, d)` has index `c·n + d − 1` (DIMACS `c·n + d`) whether or not it is fixed; auxiliary
    /// variables start at `n³`. Used for files, so any tool can decode a model.
    Formula,
    /// Only the cell variables left free by simplification get indices, in `(cell, digit)` order.
    /// Used in process: a 225×225 grid has 11.4 million cell variables but few free ones.
    Compact,
}

/// The result of encoding a puzzle.
#[derive(Debug, Clone)]
pub struct Encoded {
    pub decoder: Decoder,
    pub stats: EncodeStats,
}

/// A cell variable's state during encoding.
const FALSE: u32 = u32::MAX;
const TRUE: u32 = u32::MAX - 1;

/// A literal or a constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Val {
    True,
    False,
    Lit(Lit),
}

/// Wraps the sink to count clauses and literals per part.
struct Counting<'s, S: ClauseSink + ?Sized> {
    sink: &'s mut S,
    clauses: u64,
    lits: u64,
    stats: EncodeStats,
    mark: (u32, u64, u64),
}

impl<S: ClauseSink + ?Sized> Counting<'_, S> {
    fn end_part(&mut self, part: Part) {
        let now = (self.sink.n_vars(), self.clauses, self.lits);
        let p = PartStats {
            vars: (now.0 - self.mark.0) as u64,
            clauses: now.1 - self.mark.1,
            lits: now.2 - self.mark.2,
        };
        self.mark = now;
        if p == PartStats::default() {
            return;
        }
        // A part met again (one variant kind after another rule of it) adds to its row.
        match self.stats.parts.iter_mut().find(|(q, _)| *q == part) {
            Some((_, s)) => {
                s.vars += p.vars;
                s.clauses += p.clauses;
                s.lits += p.lits;
            }
            None => self.stats.parts.push((part, p)),
        }
    }
}

impl<S: ClauseSink + ?Sized> ClauseSink for Counting<'_, S> {
    fn n_vars(&self) -> u32 {
        self.sink.n_vars()
    }
    fn reserve_vars(&mut self, n: u32) {
        self.sink.reserve_vars(n)
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        self.clauses += 1;
        self.lits += lits.len() as u64;
        self.sink.add_clause(lits)
    }
}

/// Builds clauses over [`Val`]s: constants are simplified away.
struct Builder<'s, S: ClauseSink + ?Sized> {
    out: Counting<'s, S>,
    amo: Amo,
    buf: Vec<Lit>,
}

impl<'s, S: ClauseSink + ?Sized> Builder<'s, S> {
    /// A builder writing into `sink`, whose first `vars` variables exist already.
    fn over(sink: &'s mut S, amo: Amo, vars: u32) -> Builder<'s, S> {
        Builder {
            out: Counting {
                sink,
                clauses: 0,
                lits: 0,
                stats: EncodeStats::default(),
                mark: (vars, 0, 0),
            },
            amo,
            buf: Vec::new(),
        }
    }

    /// At least one of `vals`.
    fn alo(&mut self, vals: impl Iterator<Item = Val>) {
        self.buf.clear();
        for v in vals {
            match v {
                Val::True => return,
                Val::False => {}
                Val::Lit(l) => self.buf.push(l),
            }
        }
        self.out.add_clause(&self.buf);
    }

    /// At most one of `vals`.
    fn amo(&mut self, vals: impl Iterator<Item = Val>) {
        self.buf.clear();
        let mut trues = 0;
        for v in vals {
            match v {
                Val::True => trues += 1,
                Val::False => {}
                Val::Lit(l) => self.buf.push(l),
            }
        }
        if trues >= 2 {
            self.out.add_clause(&[]);
        } else if trues == 1 {
            let lits = std::mem::take(&mut self.buf);
            for &l in &lits {
                self.out.add_clause(&[!l]);
            }
            self.buf = lits;
        } else {
            self.amo_lits();
        }
    }

    /// At most one of the literals in `self.buf`.
    fn amo_lits(&mut self) {
        let k = self.buf.len();
        if k <= 1 {
            return;
        }
        let amo = match self.amo {
            Amo::Auto if k <= AUTO_PAIRWISE_MAX => Amo::Pairwise,
            Amo::Auto => Amo::Ladder,
            a => a,
        };
        let lits = std::mem::take(&mut self.buf);
        if amo == Amo::Pairwise {
            // Written out: this is the hot path for 9×9 and allocates nothing.
            for i in 0..k {
                for j in i + 1..k {
                    self.out.add_clause(&[!lits[i], !lits[j]]);
                }
            }
        } else {
            let v = lits.clone();
            with_rustsat(&mut self.out, |col, vars| {
                // The collector never fails: our sinks grow without limit.
                let _ = match amo {
                    Amo::Ladder => am1::Ladder::from(v).encode(col, vars),
                    Amo::Product => am1::TwoProduct::<am1::Pairwise>::from(v).encode(col, vars),
                    Amo::Bimander => am1::Bimander::<4, am1::Pairwise>::from(v).encode(col, vars),
                    _ => am1::Commander::<4, am1::Pairwise>::from(v).encode(col, vars),
                };
            });
        }
        self.buf = lits;
    }
}

/// Encodes `puzzle` into `sink`. The sink should be empty: cell variables take the first indices.
pub fn encode<S: ClauseSink + ?Sized>(
    puzzle: &Puzzle,
    opts: &EncodeOptions,
    numbering: Numbering,
    sink: &mut S,
) -> Encoded {
    let shape = puzzle.shape();
    let n = shape.size();
    let givens = puzzle.givens();
    let base = sink.n_vars();

    // State of every x(c, d): TRUE, FALSE, or (for now 0) free; later a variable index.
    let (mut state, conflict) = if opts.simplify {
        fixed_values(puzzle, opts)
    } else {
        (vec![0u32; n * n * n], false)
    };
    let mut fixed = givens.to_vec();
    for (c, f) in fixed.iter_mut().enumerate() {
        if let Some(d) = state[c * n..(c + 1) * n].iter().position(|&v| v == TRUE) {
            *f = d as Value + 1;
        }
    }
    let mut start = Vec::with_capacity(n * n + 1);
    let mut cands = Vec::new();
    let mut free_cells = Vec::new();
    let mut next = base;
    for c in 0..n * n {
        start.push(cands.len() as u32);
        for d in 0..n {
            let i = c * n + d;
            if state[i] == TRUE || state[i] == FALSE {
                continue;
            }
            let v = match numbering {
                Numbering::Formula => base + i as u32,
                Numbering::Compact => {
                    next += 1;
                    next - 1
                }
            };
            state[i] = v;
            cands.push((Var::new(v), d as Value + 1));
        }
        if cands.len() > *start.last().unwrap_or(&0) as usize {
            free_cells.push(c as u32);
        }
    }
    start.push(cands.len() as u32);
    let n_cell_vars = match numbering {
        Numbering::Formula => (n * n * n) as u32,
        Numbering::Compact => next - base,
    };
    sink.reserve_vars(base + n_cell_vars);

    let val = |c: usize, d: usize| -> Val {
        match state[c * n + d] {
            TRUE => Val::True,
            FALSE => Val::False,
            v => Val::Lit(Var::new(v).pos_lit()),
        }
    };

    let mut b = Builder::over(sink, opts.amo, base);
    b.out.end_part(Part::CellVars);

    if conflict {
        // Givens (or their consequences) contradict each other: no solution.
        b.out.add_clause(&[]);
    }
    if !opts.simplify {
        for (c, &g) in givens.iter().enumerate() {
            if g != 0 {
                b.alo(std::iter::once(val(c, g as usize - 1)));
            }
        }
        b.out.end_part(Part::Givens);
    }
    for c in 0..n * n {
        b.alo((0..n).map(|d| val(c, d)));
    }
    b.out.end_part(Part::CellAlo);
    if opts.encoding != Encoding::Minimal {
        for c in 0..n * n {
            b.amo((0..n).map(|d| val(c, d)));
        }
        b.out.end_part(Part::CellAmo);
    }
    for h in shape.houses() {
        for d in 0..n {
            b.amo(h.iter().map(|&c| val(c as usize, d)));
        }
    }
    b.out.end_part(Part::HouseAmo);
    if matches!(opts.encoding, Encoding::Extended | Encoding::Triad) {
        for h in shape.houses() {
            for d in 0..n {
                b.alo(h.iter().map(|&c| val(c as usize, d)));
            }
        }
        b.out.end_part(Part::HouseAlo);
    }
    if opts.encoding == Encoding::Triad {
        encode_triads(puzzle, &val, &mut b);
        b.out.end_part(Part::Triad);
    }
    for cage in puzzle.cages() {
        encode_cage(cage, n, opts.cage, &val, &mut b);
    }
    // The cages set equivalence implies (boxless Killers), encoded as the puzzle's are.
    let domains: Vec<u64> = (0..n * n)
        .map(|c| {
            (0..n)
                .filter(|&d| val(c, d) != Val::False)
                .fold(0, |m, d| m | 1 << d)
        })
        .collect();
    for implied in implied_cages(shape, puzzle.cages(), &domains) {
        let cage = Cage::new(implied.cells, implied.sum);
        encode_cage(&cage, n, opts.cage, &val, &mut b);
    }
    b.out.end_part(Part::Cage);
    variants::encode_rules(puzzle, opts.pair, opts.sum, &val, &mut b);
    Encoded {
        decoder: Decoder {
            n,
            givens: fixed,
            start,
            cands,
            free_cells,
        },
        stats: b.out.stats,
    }
}

/// One Killer cage (see the module docs): each digit at most once, and the sum.
fn encode_cage<S: ClauseSink + ?Sized>(
    cage: &Cage,
    n: usize,
    how: CageEncoding,
    val: &impl Fn(usize, usize) -> Val,
    b: &mut Builder<'_, S>,
) {
    let cells = cage.cells();
    for d in 0..n {
        b.amo(cells.iter().map(|&c| val(c as usize, d)));
    }
    // The digits already fixed in the cage, and the free (literal, digit) pairs.
    let mut fixed = 0u64;
    let mut fixed_sum = 0i64;
    let mut terms: Vec<(Lit, usize)> = vec![];
    for &c in cells {
        for d in 0..n {
            match val(c as usize, d) {
                Val::True => {
                    fixed |= 1 << d;
                    fixed_sum += d as i64 + 1;
                }
                Val::False => {}
                Val::Lit(l) => terms.push((l, d + 1)),
            }
        }
    }
    let rest = cage.sum() as i64 - fixed_sum;
    let total: i64 = terms.iter().map(|&(_, d)| d as i64).sum();
    if rest < 0 || (terms.is_empty() && rest != 0) {
        b.out.add_clause(&[]);
        return;
    }
    if terms.is_empty() {
        return;
    }
    let combos = match how {
        CageEncoding::Combinations => cage.combinations(n, MAX_CAGE_COMBINATIONS),
        _ => None,
    };
    if let Some(combos) = combos {
        let combos: Vec<u64> = combos.into_iter().filter(|&k| k & fixed == fixed).collect();
        cage_combinations(cells, n, &combos, fixed, val, b);
        return;
    }
    let rest = rest as usize;
    // Σ d·x ≤ rest, and Σ d·¬x ≤ total − rest (every free cell has exactly one true digit).
    let Some(slack) = (total as usize).checked_sub(rest) else {
        b.out.add_clause(&[]);
        return;
    };
    let negated: Vec<(Lit, usize)> = terms.iter().map(|&(l, d)| (!l, d)).collect();
    match how {
        CageEncoding::Adder => {
            let adder: BinaryAdder = terms.into_iter().collect();
            pb_bound(b, adder, |e, col, vars| {
                e.encode_both(rest..=rest, col, vars).ok()?;
                e.enforce_eq(rest).ok()
            });
        }
        CageEncoding::Dpw => {
            for (lits, ub) in [(terms, rest), (negated, slack)] {
                let dpw: DynamicPolyWatchdog = lits.into_iter().collect();
                pb_bound(b, dpw, |e, col, vars| {
                    e.encode_ub(ub..=ub, col, vars).ok()?;
                    e.enforce_ub(ub).ok()
                });
            }
        }
        _ => {
            for (lits, ub) in [(terms, rest), (negated, slack)] {
                let gte: GeneralizedTotalizer = lits.into_iter().collect();
                pb_bound(b, gte, |e, col, vars| {
                    e.encode_ub(ub..=ub, col, vars).ok()?;
                    e.enforce_ub(ub).ok()
                });
            }
        }
    }
}

/// One Killer cage alone, for measuring what propagation on its clauses derives: over the
/// candidates `domains` of its cells (in the cage's order; bit `d − 1` for digit `d`, a single
/// bit fixes the cell, as a given is simplified away), writes into `sink` each open cell's
/// exactly-one clauses (at least one digit; at most one, pairwise) and the cage's clauses under
/// `how`, as [`encode`] writes them. Returns each cell's open (variable, digit) pairs (none for a
/// fixed cell); variables are numbered from the sink's first free one.
pub fn encode_cage_alone<S: ClauseSink + ?Sized>(
    cage: &Cage,
    n: usize,
    how: CageEncoding,
    domains: &[u64],
    sink: &mut S,
) -> Vec<Vec<(Var, Value)>> {
    let cells = cage.cells();
    let mut vars: Vec<Vec<(Var, Value)>> = vec![];
    for &m in domains {
        let open = if m.count_ones() > 1 { m } else { 0 };
        let lits = (0..n).filter(|d| open >> d & 1 == 1);
        vars.push(lits.map(|d| (sink.new_var(), d as Value + 1)).collect());
    }
    let val = |c: usize, d: usize| -> Val {
        let i = cells
            .iter()
            .position(|&x| x as usize == c)
            .expect("a cage cell");
        match vars[i].iter().find(|&&(_, digit)| digit as usize == d + 1) {
            Some(&(v, _)) => Val::Lit(v.pos_lit()),
            None if domains[i] == 1 << d => Val::True,
            None => Val::False,
        }
    };
    let mut b = Builder::over(sink, Amo::Pairwise, 0);
    for (&c, cell) in cells.iter().zip(&vars) {
        let lits = || (0..n).map(|d| val(c as usize, d));
        b.alo(lits());
        if cell.len() > 1 {
            b.amo(lits());
        }
    }
    encode_cage(cage, n, how, &val, &mut b);
    vars
}

/// Runs a rustsat pseudo-Boolean encoding and adds the unit clauses that enforce its bound; the
/// empty clause when the bound cannot be met.
fn pb_bound<S: ClauseSink + ?Sized, E>(
    b: &mut Builder<'_, S>,
    encoding: E,
    run: impl FnOnce(
        &mut E,
        &mut super::RsCollector<'_, Counting<'_, S>>,
        &mut super::RsVars,
    ) -> Option<Vec<Lit>>,
) {
    pb_bound_if(b, None, encoding, run)
}

/// [`pb_bound`] under a condition: with `guard`, each enforcing unit becomes `¬guard ∨ unit`
/// and an unreachable bound `¬guard`. Sound because rustsat's encodings only define their
/// outputs (every input assignment extends to a model of their clauses): the bound lives in the
/// enforcing literals alone.
fn pb_bound_if<S: ClauseSink + ?Sized, E>(
    b: &mut Builder<'_, S>,
    guard: Option<Lit>,
    mut encoding: E,
    run: impl FnOnce(
        &mut E,
        &mut super::RsCollector<'_, Counting<'_, S>>,
        &mut super::RsVars,
    ) -> Option<Vec<Lit>>,
) {
    let units = with_rustsat(&mut b.out, |col, vars| run(&mut encoding, col, vars));
    let off = guard.map(|g| !g);
    match units {
        Some(units) => units.into_iter().for_each(|u| {
            b.out
                .add_clause(&off.into_iter().chain([u]).collect::<Vec<_>>())
        }),
        None => b.out.add_clause(&off.into_iter().collect::<Vec<_>>()),
    }
}

/// A cage by its digit sets: a selector per set (exactly one true), and `y(d)` "the cage holds
/// `d`", implied by each cell holding `d` and implying one of them; a selector forbids the digits
/// outside its set and requires those in it, and `y(d)` requires a set with `d`, `¬y(d)` one
/// without.
fn cage_combinations<S: ClauseSink + ?Sized>(
    cells: &[u32],
    n: usize,
    combos: &[u64],
    fixed: u64,
    val: &impl Fn(usize, usize) -> Val,
    b: &mut Builder<'_, S>,
) {
    let in_cage = |d: usize| -> Vec<Lit> {
        cells
            .iter()
            .filter_map(|&c| match val(c as usize, d) {
                Val::Lit(l) => Some(l),
                _ => None,
            })
            .collect()
    };
    match combos {
        [] => b.out.add_clause(&[]),
        [k] => {
            // One set: its free digits must appear, the others may not.
            for d in (0..n).filter(|&d| fixed >> d & 1 == 0) {
                let lits = in_cage(d);
                if k >> d & 1 != 0 {
                    b.out.add_clause(&lits);
                } else {
                    lits.iter().for_each(|&l| b.out.add_clause(&[!l]));
                }
            }
        }
        _ => {
            let first = b.out.n_vars();
            b.out.reserve_vars(first + (combos.len() + n) as u32);
            let sel = |j: usize| Var::new(first + j as u32).pos_lit();
            let y = |d: usize| Var::new(first + (combos.len() + d) as u32).pos_lit();
            b.out
                .add_clause(&(0..combos.len()).map(sel).collect::<Vec<_>>());
            b.buf = (0..combos.len()).map(sel).collect();
            b.amo_lits();
            for d in (0..n).filter(|&d| fixed >> d & 1 == 0) {
                let lits = in_cage(d);
                for &l in &lits {
                    b.out.add_clause(&[!l, y(d)]);
                }
                let mut holds = lits.clone();
                holds.push(!y(d));
                b.out.add_clause(&holds);
                // `sel(j)` gives `y(d)` its value, and the two supports below (implied by
                // "exactly one set") make unit propagation go back: `y(d)` once every set without
                // `d` is out, `¬y(d)` once every set with it is (at once for a digit in no set).
                let (mut with, mut without) = (vec![!y(d)], vec![y(d)]);
                for (j, &k) in combos.iter().enumerate() {
                    if k >> d & 1 != 0 {
                        b.out.add_clause(&[!sel(j), y(d)]);
                        with.push(sel(j));
                    } else {
                        b.out.add_clause(&[!sel(j), !y(d)]);
                        without.push(sel(j));
                    }
                }
                b.out.add_clause(&with);
                b.out.add_clause(&without);
            }
        }
    }
}

/// The values fixed by the givens: a given's own variable TRUE, the other digits of its cell and
/// its digit in every peer FALSE (Kwon & Jain). With `propagate`, the singles and locked
/// candidates of [`propagate`](crate::propagate) fix and remove more; with `probe` too, a
/// puzzle with variant rules is then probed ([`probe_root`]: each digit left to a cell tried
/// and propagated through the rules, as the `cp` model's root is). Returns the states and
/// whether a contradiction was met: then the puzzle has no solution and the encoding adds the
/// empty clause.
pub(crate) fn fixed_values(puzzle: &Puzzle, opts: &EncodeOptions) -> (Vec<u32>, bool) {
    let level = if opts.propagate {
        Level::Locked
    } else {
        Level::Givens
    };
    let c = Candidates::new(puzzle, level);
    let n = puzzle.size();
    let mut state = vec![FALSE; n * n * n];
    for (cell, &v) in c.fixed().iter().enumerate() {
        let s = &mut state[cell * n..][..n];
        if v != 0 {
            s[v as usize - 1] = TRUE;
        } else {
            for d in c.digits(cell) {
                s[d as usize - 1] = 0;
            }
        }
    }
    let conflict = c.contradiction().is_some();
    if !(opts.propagate && opts.probe) || conflict || n > 64 || puzzle.constraints().is_empty() {
        return (state, conflict);
    }
    // Bit `d − 1` per digit left to each cell, a fixed cell its digit's alone.
    let mut cands: Vec<u64> = state
        .chunks(n)
        .map(|s| match s.iter().position(|&v| v == TRUE) {
            Some(d) => 1 << d,
            None => (0..n).filter(|&d| s[d] == 0).fold(0, |m, d| m | 1 << d),
        })
        .collect();
    let conflict = !probe_root(puzzle, &mut cands);
    for (s, &mask) in state.chunks_mut(n).zip(&cands) {
        for (d, v) in s.iter_mut().enumerate() {
            *v = match (mask >> d & 1 != 0, mask.count_ones() == 1) {
                (false, _) => FALSE,
                (true, true) => TRUE,
                (true, false) => 0,
            };
        }
    }
    (state, conflict)
}

/// Triads: for every line (row or column) `L`, region `R` meeting it and digit `d`, a value
/// `t(L, R, d)` ⇔ some cell of `L ∩ R` holds `d`; then exactly one triad per `(L, d)` and, per
/// direction, exactly one per `(R, d)`.
fn encode_triads<S: ClauseSink + ?Sized>(
    puzzle: &Puzzle,
    val: &dyn Fn(usize, usize) -> Val,
    b: &mut Builder<'_, S>,
) {
    let shape = puzzle.shape();
    let n = shape.size();
    for dir in 0..2 {
        // segments[line] = [(region, cells of line ∩ region)]
        let mut segments: Vec<Vec<(usize, Vec<usize>)>> = vec![Vec::new(); n];
        for (line, segs) in segments.iter_mut().enumerate() {
            for &c in shape.house(dir * n + line) {
                let r = shape.region_of(c as usize);
                match segs.iter_mut().find(|(reg, _)| *reg == r) {
                    Some((_, cells)) => cells.push(c as usize),
                    None => segs.push((r, vec![c as usize])),
                }
            }
        }
        for d in 0..n {
            // triads[line] = [(region, value)]
            let mut triads: Vec<Vec<(usize, Val)>> = Vec::with_capacity(n);
            for segs in &segments {
                let mut row = Vec::with_capacity(segs.len());
                for (r, cells) in segs {
                    row.push((*r, define_or(cells.iter().map(|&c| val(c, d)), b)));
                }
                triads.push(row);
            }
            for row in &triads {
                b.alo(row.iter().map(|&(_, v)| v));
                b.amo(row.iter().map(|&(_, v)| v));
            }
            for r in 0..n {
                let of_region = || {
                    triads
                        .iter()
                        .flat_map(|row| row.iter().filter(|&&(reg, _)| reg == r))
                        .map(|&(_, v)| v)
                };
                b.alo(of_region());
                b.amo(of_region());
            }
        }
    }
}

/// A value equal to the disjunction of `vals` (a new variable unless it is constant or a single
/// literal).
fn define_or<S: ClauseSink + ?Sized>(
    vals: impl Iterator<Item = Val>,
    b: &mut Builder<'_, S>,
) -> Val {
    let mut lits = Vec::new();
    for v in vals {
        match v {
            Val::True => return Val::True,
            Val::False => {}
            Val::Lit(l) => lits.push(l),
        }
    }
    match lits.len() {
        0 => Val::False,
        1 => Val::Lit(lits[0]),
        _ => {
            let t = b.out.new_var().pos_lit();
            for &l in &lits {
                b.out.add_clause(&[t, !l]);
            }
            lits.push(!t);
            b.out.add_clause(&lits);
            Val::Lit(t)
        }
    }
}
