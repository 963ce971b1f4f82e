//! Propagation over the lab's own clause lists: unit propagation, failed-literal probing,
//! hyper-binary resolution and the binary failed-literal rule, run once at the root with no
//! search.
//!
//! The formula is the plain encoding of [`crate::sat::encode`] (any `--encoding`, `--amo`,
//! `--cage-encoding`, `--pair-encoding`) with the givens as unit clauses and neither given
//! simplification nor the lab's root propagation, in the formula numbering (`x(c, d)` has index
//! `c·n + d − 1`): the levels see the encoding as the literature writes it.
//!
//! The levels, each a closure (it is applied until nothing changes):
//!
//! * [`CnfLevel::Up`] — unit propagation: a clause whose literals are all false but one makes
//!   that one true; a clause with every literal false is a conflict.
//! * [`CnfLevel::Flp`] — failed-literal probing to a fixpoint: for every unassigned literal `l`,
//!   if unit propagation from the current assignment plus `l` reaches a conflict, `¬l` is set
//!   (and propagated); the rounds repeat until a whole round sets nothing.
//! * [`CnfLevel::Flp1`] — one round of `flp`: every literal unassigned when its turn comes is
//!   probed once, a failure set and propagated at once, and no round follows (the weaker reading
//!   of "the failed literal rule" when it is not said to run to a fixpoint).
//! * [`CnfLevel::FlpBoth`] — `flp`, and also: when neither `v` nor `¬v` fails, every literal that
//!   unit propagation derives from both is set (the "both branches" rule of look-ahead solvers).
//! * [`CnfLevel::Hbr`] — hyper-binary resolution to a fixpoint: the closure of the formula under
//!   unit propagation and Bacchus's HypBinRes rule — from a clause `(l1 ∨ … ∨ lk)` and binary
//!   clauses `(¬li ∨ x)` for every `i ≠ j`, derive `(lj ∨ x)` (F. Bacchus, *Enhancing Davis
//!   Putnam with extended binary clause reasoning*, AAAI 2002; the "hypre" of Lynce & Ouaknine,
//!   *Sudoku as a SAT Problem*, 2006, without Bacchus's equality reduction). It is computed by
//!   probing: while unit propagation from `l` runs, each literal `u` forced by a clause of three
//!   or more literals yields the binary `(¬l ∨ u)` — a HypBinRes resolvent, since every other
//!   literal of that clause is false by a chain of binaries from `l` that HypBinRes derives
//!   first — and a conflict under `l` yields the unit `¬l` (HypBinRes with `x = ¬l`). Literals
//!   reached from `l` through binaries alone give binaries that resolution of binaries derives,
//!   which change no unit propagation, so they are not added. The rounds (probing every
//!   unassigned literal over the formula and every binary added so far) repeat until a round adds
//!   no binary and sets nothing. It derives everything `flp` derives.
//! * [`CnfLevel::HbrEq`] — `hbr` and equality reduction (the other half of Bacchus's HypRe),
//!   in turn until neither adds anything: the strongly connected components of the binary
//!   implication graph over the unassigned literals are classes of equivalent literals; a long
//!   clause with two literals of one class (and none of opposite classes, which would make it a
//!   tautology under the equivalences) gives the clause with one literal per class, which is
//!   added; a literal in the class of its negation is a conflict. Substituting a representative
//!   for each class, as HypRe does, gives the same unit propagation as these added clauses. It
//!   derives exactly what `hbr` derives (the property tests check it): unit propagation over
//!   the binaries sets all the literals of a class together, so a clause becomes unit exactly
//!   when its reduced form does.
//! * [`CnfLevel::Binflr`] — the binary failed-literal rule to a fixpoint (the "binflr" of Lynce &
//!   Ouaknine): the closure of the formula under unit propagation, the failed-literal rule and,
//!   for every two literals `x`, `y` of distinct variables, both unassigned, "if unit propagation
//!   from `x` and `y` together reaches a conflict, add the binary `(¬x ∨ ¬y)`"; the binaries
//!   added take part in every later probe. Computed by probing every unassigned `x`: a conflict
//!   sets `¬x`; else each literal forced under `x` by a long clause gives `(¬x ∨ u)` (the pair
//!   `x`, `¬u` fails), and every `y` still unassigned under `x` is probed on top of it — a
//!   conflict adds `(¬x ∨ ¬y)` and sets `¬y` under `x` at once (a later conflict under `x` then
//!   sets `¬x`). Pairs with `y` already set under `x` need no probe: a true `y` adds nothing, a
//!   false one fails through binaries (already an implication) or is a forced literal above.
//!   Rounds repeat until a round adds no binary and sets nothing. It derives everything `hbr`
//!   derives.
//! * [`CnfLevel::Binflr1`] — one round of `binflr`: every literal unassigned when its turn comes
//!   is probed once as `x`, with its pairs, the binaries learned so far included, and no round
//!   follows. It derives everything `flp1` derives.
//! * [`CnfLevel::Pairs`] — the same pair probes with nothing kept: under `x`, every `y` still
//!   unassigned is probed, a failed pair sets `¬y` under `x` only, and a conflict under `x` sets
//!   `¬x`; no binary clause is added, so what a pair teaches is forgotten when the probe of `x`
//!   ends. Rounds repeat until one sets nothing. It derives everything `flp` derives, and
//!   `binflr` everything it derives.
//! * [`CnfLevel::Pairs1`] — one round of `pairs`.
//!
//! The engine: literals are `2·var + sign`; binary clauses live in implication lists, longer
//! clauses are watched by two literals; one trail holds the root assignment and, above it, the
//! probe under test, which is undone by cutting the trail. In `flp` and `flp1` a literal implied
//! by a successful probe is not probed again in that round (it cannot fail where its implier did
//! not); in `flp` the next round catches what later root assignments changed. `binflr` does the
//! same with the literals `y` probed under one `x`.

use crate::cancel::Halt;
use crate::model::Puzzle;
use crate::sat::encode::{self, EncodeOptions, Numbering};
use crate::sat::{ClauseSink, Cnf, Lit};

use std::collections::HashSet;

use super::Root;

/// No component: an assigned literal (equality reduction).
const NONE: u32 = u32::MAX;

/// A propagation level over the clause list (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CnfLevel {
    Up,
    Flp1,
    Flp,
    FlpBoth,
    Hbr,
    HbrEq,
    Binflr1,
    Binflr,
    Pairs1,
    Pairs,
}

impl CnfLevel {
    pub const ALL: [CnfLevel; 10] = [
        CnfLevel::Up,
        CnfLevel::Flp1,
        CnfLevel::Flp,
        CnfLevel::FlpBoth,
        CnfLevel::Hbr,
        CnfLevel::HbrEq,
        CnfLevel::Binflr1,
        CnfLevel::Binflr,
        CnfLevel::Pairs1,
        CnfLevel::Pairs,
    ];
    pub fn name(self) -> &'static str {
        match self {
            CnfLevel::Up => "up",
            CnfLevel::Flp1 => "flp1",
            CnfLevel::Flp => "flp",
            CnfLevel::FlpBoth => "flp-both",
            CnfLevel::Hbr => "hbr",
            CnfLevel::HbrEq => "hbr-eq",
            CnfLevel::Binflr1 => "binflr1",
            CnfLevel::Binflr => "binflr",
            CnfLevel::Pairs1 => "pairs1",
            CnfLevel::Pairs => "pairs",
        }
    }
}

crate::named::from_str_by_name!(CnfLevel, "propagation level");

/// An engine literal: `2·var + 1` for the negative literal.
type L = u32;

fn lit(l: Lit) -> L {
    (l.vidx32() << 1) | l.is_neg() as u32
}

/// A watch: the clause (offset of its first literal in `Propagator::lits`) and a literal of it
/// that, when true, lets the clause be skipped without looking at it.
#[derive(Clone, Copy)]
struct Watch {
    clause: u32,
    blocker: L,
}

/// Unit propagation with watched literals over one formula, and the probing levels on top.
/// Reusable: [`Propagator::load`] takes a new formula and keeps the buffers.
#[derive(Default)]
pub struct Propagator {
    n_vars: usize,
    /// `value[l]`: 1 true, −1 false, 0 unassigned (both literals of a variable kept in step).
    value: Vec<i8>,
    /// `implied[l]`: the literals a binary clause makes true once `l` is true.
    implied: Vec<Vec<L>>,
    /// `watches[l]`: the long clauses in which `l` is watched, visited when `l` becomes false.
    watches: Vec<Vec<Watch>>,
    /// Long clauses: length, then literals (the first two watched).
    lits: Vec<L>,
    trail: Vec<L>,
    head: usize,
    /// A conflict at the root: the formula is unsatisfiable.
    conflict: bool,
    /// During `hbr` probing: the literals forced by long clauses.
    forced_long: Vec<L>,
    record_long: bool,
    /// Scratch marks per literal (probing).
    mark: Vec<u32>,
    stamp: u32,
    /// Marks per literal for the probes under a probe (`binflr`).
    inner_mark: Vec<u32>,
    inner_stamp: u32,
    scratch: Vec<L>,
    /// When probing must stop ([`Propagator::set_halt`]); looked at every [`HALT_EVERY`] probes.
    halt: Halt,
    probes: u32,
    /// Probing stopped at the halt: what the level derived is not all it derives.
    stopped: bool,
}

/// How many probes go by between two looks at the [`Halt`].
const HALT_EVERY: u32 = 16;

impl Propagator {
    pub fn new() -> Propagator {
        Propagator::default()
    }

    /// Takes `cnf` as the formula (forgetting the previous one) and unit-propagates its units.
    pub fn load(&mut self, cnf: &Cnf) {
        let n = cnf.n_vars() as usize;
        self.n_vars = n;
        self.value.clear();
        self.value.resize(2 * n, 0);
        self.implied.iter_mut().for_each(Vec::clear);
        self.implied.resize_with(2 * n, Vec::new);
        self.watches.iter_mut().for_each(Vec::clear);
        self.watches.resize_with(2 * n, Vec::new);
        self.mark.clear();
        self.mark.resize(2 * n, 0);
        self.stamp = 0;
        self.inner_mark.clear();
        self.inner_mark.resize(2 * n, 0);
        self.inner_stamp = 0;
        self.lits.clear();
        self.trail.clear();
        self.head = 0;
        self.conflict = false;
        self.record_long = false;
        self.probes = 0;
        self.stopped = false;
        let mut c: Vec<L> = Vec::new();
        for clause in cnf.clauses() {
            c.clear();
            c.extend(clause.iter().map(|&l| lit(l)));
            c.sort_unstable();
            c.dedup();
            if c.windows(2).any(|w| w[0] ^ 1 == w[1]) {
                continue; // a tautology
            }
            self.add_clause(&c);
        }
        self.propagate_root();
    }

    /// Adds a clause of distinct literals at the root (before any probing).
    fn add_clause(&mut self, c: &[L]) {
        match *c {
            [] => self.conflict = true,
            [u] => self.enqueue_root(u),
            [a, b] => self.add_binary(a, b),
            _ => {
                let at = self.lits.len() as u32 + 1;
                self.lits.push(c.len() as u32);
                self.lits.extend_from_slice(c);
                self.watches[c[0] as usize].push(Watch {
                    clause: at,
                    blocker: c[1],
                });
                self.watches[c[1] as usize].push(Watch {
                    clause: at,
                    blocker: c[0],
                });
            }
        }
    }

    fn add_binary(&mut self, a: L, b: L) {
        self.implied[(a ^ 1) as usize].push(b);
        self.implied[(b ^ 1) as usize].push(a);
    }

    fn enqueue_root(&mut self, u: L) {
        match self.value[u as usize] {
            1 => {}
            -1 => self.conflict = true,
            _ => self.assign(u),
        }
    }

    fn assign(&mut self, u: L) {
        self.value[u as usize] = 1;
        self.value[(u ^ 1) as usize] = -1;
        self.trail.push(u);
    }

    fn propagate_root(&mut self) {
        if !self.conflict && !self.propagate() {
            self.conflict = true;
        }
    }

    /// Unit propagation of the trail from `head`; false on a conflict.
    fn propagate(&mut self) -> bool {
        while self.head < self.trail.len() {
            let p = self.trail[self.head];
            self.head += 1;
            for i in 0..self.implied[p as usize].len() {
                let q = self.implied[p as usize][i];
                match self.value[q as usize] {
                    1 => {}
                    -1 => return false,
                    _ => self.assign(q),
                }
            }
            if !self.propagate_long(p ^ 1) {
                return false;
            }
        }
        true
    }

    /// Visits the long clauses watching `f`, which has just become false.
    fn propagate_long(&mut self, f: L) -> bool {
        let mut ws = std::mem::take(&mut self.watches[f as usize]);
        let (mut i, mut j) = (0, 0);
        let mut ok = true;
        while i < ws.len() {
            let w = ws[i];
            i += 1;
            if self.value[w.blocker as usize] == 1 {
                ws[j] = w;
                j += 1;
                continue;
            }
            let at = w.clause as usize;
            let len = self.lits[at - 1] as usize;
            // Keep the false watch in position 1.
            if self.lits[at] == f {
                self.lits.swap(at, at + 1);
            }
            let other = self.lits[at];
            if other != w.blocker && self.value[other as usize] == 1 {
                ws[j] = Watch {
                    clause: w.clause,
                    blocker: other,
                };
                j += 1;
                continue;
            }
            // A new literal to watch: any not false.
            if let Some(k) = (2..len).find(|&k| self.value[self.lits[at + k] as usize] != -1) {
                self.lits.swap(at + 1, at + k);
                let new = self.lits[at + 1];
                self.watches[new as usize].push(Watch {
                    clause: w.clause,
                    blocker: other,
                });
                continue;
            }
            ws[j] = w;
            j += 1;
            match self.value[other as usize] {
                -1 => {
                    ok = false;
                    break;
                }
                0 => {
                    self.assign(other);
                    if self.record_long {
                        self.forced_long.push(other);
                    }
                }
                _ => {}
            }
        }
        // Keep the watches not visited (after a conflict).
        while i < ws.len() {
            ws[j] = ws[i];
            i += 1;
            j += 1;
        }
        ws.truncate(j);
        self.watches[f as usize] = ws;
        ok
    }

    /// Undoes every assignment above trail position `len`.
    fn undo_to(&mut self, len: usize) {
        for &u in &self.trail[len..] {
            self.value[u as usize] = 0;
            self.value[(u ^ 1) as usize] = 0;
        }
        self.trail.truncate(len);
        self.head = len;
    }

    /// Unit propagation from the root assignment plus `l`: the trail from `l`'s position on holds
    /// what it set. False on a conflict (the trail is then left for the caller to undo).
    fn probe(&mut self, l: L) -> bool {
        self.assign(l);
        self.propagate()
    }

    /// Sets `u` at the root and propagates (after a probe was undone).
    fn learn_unit(&mut self, u: L) {
        if self.value[u as usize] == 0 {
            self.assign(u);
        } else if self.value[u as usize] == -1 {
            self.conflict = true;
            return;
        }
        self.propagate_root();
    }

    /// Stops the probing levels of the next [`Propagator::run`]s once `halt` is reached (then
    /// [`Propagator::stopped`]); kept from formula to formula.
    pub fn set_halt(&mut self, halt: Halt) {
        self.halt = halt;
    }

    /// Whether the last [`Propagator::run`] stopped at the halt before its level's end: its
    /// assignment is then only part of what the level derives.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Whether probing must stop: the halt is looked at every [`HALT_EVERY`] calls.
    fn halted(&mut self) -> bool {
        if !self.stopped && self.halt.can_stop() {
            self.probes = self.probes.wrapping_add(1);
            self.stopped = self.probes.is_multiple_of(HALT_EVERY) && self.halt.reached();
        }
        self.stopped
    }

    /// Applies `level` (unit propagation has already run at load). False on a conflict.
    pub fn run(&mut self, level: CnfLevel) -> bool {
        match level {
            CnfLevel::Up => {}
            CnfLevel::Flp1 => self.failed_literals(false, false),
            CnfLevel::Flp => self.failed_literals(false, true),
            CnfLevel::FlpBoth => self.failed_literals(true, true),
            CnfLevel::Hbr => self.hyper_binary(Probe::Hbr, true),
            CnfLevel::HbrEq => self.hyper_binary_equivalences(),
            CnfLevel::Binflr1 => self.hyper_binary(Probe::Binflr, false),
            CnfLevel::Binflr => self.hyper_binary(Probe::Binflr, true),
            CnfLevel::Pairs1 => self.hyper_binary(Probe::Pairs, false),
            CnfLevel::Pairs => self.hyper_binary(Probe::Pairs, true),
        }
        !self.conflict
    }

    fn next_stamp(&mut self) -> u32 {
        fresh_stamp(&mut self.stamp, &mut self.mark)
    }

    /// Failed-literal probing to a fixpoint; with `both`, also the literals implied by both
    /// branches of a variable; without `fixpoint`, one round only.
    fn failed_literals(&mut self, both: bool, fixpoint: bool) {
        while !self.conflict {
            let before = self.trail.len();
            // `flp`: the literals implied by a successful probe this round have this mark.
            let round = self.next_stamp();
            for v in 0..self.n_vars as L {
                if self.conflict || self.halted() {
                    return;
                }
                if self.value[2 * v as usize] != 0 {
                    continue;
                }
                if both {
                    self.probe_both(v);
                    continue;
                }
                for l in [2 * v, 2 * v + 1] {
                    if self.value[l as usize] != 0 || self.mark[l as usize] == round {
                        continue;
                    }
                    let base = self.trail.len();
                    if self.probe(l) {
                        for k in base + 1..self.trail.len() {
                            self.mark[self.trail[k] as usize] = round;
                        }
                        self.undo_to(base);
                    } else {
                        self.undo_to(base);
                        self.learn_unit(l ^ 1);
                    }
                }
            }
            if self.trail.len() == before || !fixpoint {
                return;
            }
        }
    }

    /// `flp-both` on variable `v`: probes both its literals; a failed one is set false, and when
    /// neither fails, what both imply is set.
    fn probe_both(&mut self, v: L) {
        let (pos, base) = (2 * v, self.trail.len());
        if !self.probe(pos) {
            self.undo_to(base);
            return self.learn_unit(pos ^ 1);
        }
        let s = self.next_stamp();
        for k in base + 1..self.trail.len() {
            self.mark[self.trail[k] as usize] = s;
        }
        self.undo_to(base);
        if !self.probe(pos ^ 1) {
            self.undo_to(base);
            return self.learn_unit(pos);
        }
        let mut shared = std::mem::take(&mut self.scratch);
        shared.clear();
        shared.extend(
            self.trail[base + 1..]
                .iter()
                .filter(|&&u| self.mark[u as usize] == s),
        );
        self.undo_to(base);
        for &u in &shared {
            self.learn_unit(u);
        }
        self.scratch = shared;
    }

    /// `hbr` and equality reduction, in turn until neither adds anything (see the module docs).
    fn hyper_binary_equivalences(&mut self) {
        let mut added = HashSet::new();
        loop {
            self.hyper_binary(Probe::Hbr, true);
            if self.conflict || self.stopped || !self.reduce_equivalences(&mut added) {
                return;
            }
        }
    }

    /// Equality reduction: the strongly connected components of the binary implication graph
    /// over the unassigned literals are classes of equivalent literals; each long clause not
    /// satisfied at the root, with two literals of one class and none of opposite classes, gives
    /// the clause of one literal per class, added unless `added` holds it already. True when a
    /// clause was added or a conflict found (a literal equivalent to its negation).
    fn reduce_equivalences(&mut self, added: &mut HashSet<Vec<L>>) -> bool {
        let class = self.equivalence_classes();
        if (0..self.n_vars).any(|v| class[2 * v] != NONE && class[2 * v] == class[2 * v + 1]) {
            self.conflict = true;
            return true;
        }
        let mut new = Vec::new();
        let mut at = 0;
        while at < self.lits.len() {
            let len = self.lits[at] as usize;
            let c = &self.lits[at + 1..at + 1 + len];
            at += len + 1;
            if c.iter().any(|&l| self.value[l as usize] == 1) {
                continue;
            }
            let mut reduced: Vec<L> = Vec::with_capacity(len);
            let (mut merged, mut tautology) = (false, false);
            for &l in c.iter().filter(|&&l| self.value[l as usize] == 0) {
                if reduced
                    .iter()
                    .any(|&r| class[r as usize] == class[(l ^ 1) as usize])
                {
                    tautology = true;
                    break;
                }
                if reduced
                    .iter()
                    .any(|&r| class[r as usize] == class[l as usize])
                {
                    merged = true;
                } else {
                    reduced.push(l);
                }
            }
            if merged && !tautology {
                reduced.sort_unstable();
                if added.insert(reduced.clone()) {
                    new.push(reduced);
                }
            }
        }
        for c in &new {
            if self.conflict {
                break;
            }
            match c[..] {
                [u] => self.learn_unit(u),
                _ => self.add_clause(c),
            }
        }
        !new.is_empty()
    }

    /// The strongly connected component of each unassigned literal in the graph of the binary
    /// implications between unassigned literals (Tarjan's algorithm, iterative); `NONE` for an
    /// assigned literal.
    fn equivalence_classes(&self) -> Vec<u32> {
        let n = 2 * self.n_vars;
        let (mut index, mut low) = (vec![NONE; n], vec![0u32; n]);
        let mut class = vec![NONE; n];
        let (mut on_stack, mut stack) = (vec![false; n], Vec::new());
        let mut calls: Vec<(usize, usize)> = Vec::new();
        let (mut counter, mut classes) = (0u32, 0u32);
        for root in 0..n {
            if self.value[root] != 0 || index[root] != NONE {
                continue;
            }
            calls.push((root, 0));
            index[root] = counter;
            low[root] = counter;
            counter += 1;
            stack.push(root);
            on_stack[root] = true;
            while let Some(&mut (v, ref mut next)) = calls.last_mut() {
                if let Some(&w) = self.implied[v].get(*next) {
                    *next += 1;
                    let w = w as usize;
                    if self.value[w] != 0 {
                        continue;
                    }
                    if index[w] == NONE {
                        index[w] = counter;
                        low[w] = counter;
                        counter += 1;
                        stack.push(w);
                        on_stack[w] = true;
                        calls.push((w, 0));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                calls.pop();
                if let Some(&(u, _)) = calls.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        class[w] = classes;
                        if w == v {
                            break;
                        }
                    }
                    classes += 1;
                }
            }
        }
        class
    }

    /// Hyper-binary resolution, the binary failed-literal rule, or the pair probes with nothing
    /// kept (see the module docs and [`Probe`]): every unassigned literal `x` is probed; a
    /// failure sets `¬x`; otherwise, unless `probe` is [`Probe::Pairs`], each literal `u` forced
    /// under `x` by a long clause gives `(¬x ∨ u)`, and but for [`Probe::Hbr`] every literal `y`
    /// still unassigned under `x` is probed on top of it, a failure setting `¬y` under `x` at
    /// once (and giving `(¬x ∨ ¬y)` under [`Probe::Binflr`]). With `fixpoint`, rounds repeat
    /// until one learns nothing; without, one round.
    fn hyper_binary(&mut self, probe: Probe, fixpoint: bool) {
        let (pairs, keep) = (probe != Probe::Hbr, probe != Probe::Pairs);
        self.record_long = keep;
        loop {
            let mut changed = false;
            for x in 0..2 * self.n_vars as L {
                if self.conflict || self.halted() {
                    break;
                }
                if self.value[x as usize] != 0 {
                    continue;
                }
                let base = self.trail.len();
                self.forced_long.clear();
                let learned = self.probe_pairs(x, pairs, keep);
                self.undo_to(base);
                let Some(learned) = learned else {
                    self.learn_unit(x ^ 1);
                    changed = true;
                    continue;
                };
                let forced = std::mem::take(&mut self.forced_long);
                for &u in &forced {
                    self.add_binary(x ^ 1, u);
                }
                changed |= learned > 0 || !forced.is_empty();
                self.forced_long = forced;
            }
            if self.conflict || self.stopped || !changed || !fixpoint {
                break;
            }
        }
        self.record_long = false;
    }

    /// Probes `x`, then with `pairs` every literal `y` unassigned under it (but those a
    /// successful `y` probe implied: they cannot fail where `y` did not); a failed pair sets
    /// `¬y` under `x` and, with `keep`, adds the binary `(¬x ∨ ¬y)`. The binaries learned, or
    /// `None` when `x` fails. The literals forced by long clauses under `x` (not under `y`) are
    /// left in `forced_long` when they are recorded; the trail is left for the caller to undo.
    fn probe_pairs(&mut self, x: L, pairs: bool, keep: bool) -> Option<usize> {
        if !self.probe(x) {
            return None;
        }
        if !pairs {
            return Some(0);
        }
        let s = fresh_stamp(&mut self.inner_stamp, &mut self.inner_mark);
        let mut learned = 0;
        for y in 0..2 * self.n_vars as L {
            if self.halted() {
                break;
            }
            if self.value[y as usize] != 0 || self.inner_mark[y as usize] == s {
                continue;
            }
            let (base, long) = (self.trail.len(), self.forced_long.len());
            let ok = self.probe(y);
            self.forced_long.truncate(long);
            if ok {
                for k in base + 1..self.trail.len() {
                    self.inner_mark[self.trail[k] as usize] = s;
                }
                self.undo_to(base);
                continue;
            }
            self.undo_to(base);
            if keep {
                self.add_binary(x ^ 1, y ^ 1);
                learned += 1;
            }
            self.assign(y ^ 1);
            if !self.propagate() {
                return None;
            }
        }
        Some(learned)
    }

    /// The value of variable `v`: `Some(true)`, `Some(false)` or `None` (unassigned).
    pub fn value(&self, v: usize) -> Option<bool> {
        match self.value[2 * v] {
            1 => Some(true),
            -1 => Some(false),
            _ => None,
        }
    }

    /// Variables of the formula.
    pub fn n_vars(&self) -> usize {
        self.n_vars
    }

    /// Variables left unassigned.
    pub fn unassigned(&self) -> usize {
        self.n_vars - self.trail.len()
    }

    /// A conflict was found: the formula is unsatisfiable.
    pub fn conflict(&self) -> bool {
        self.conflict
    }
}

/// What [`Propagator::hyper_binary`] probes and keeps.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Probe {
    /// Single literals; the binaries of the literals that long clauses force are kept (`hbr`).
    Hbr,
    /// Pairs of literals; those binaries and the failed pairs' binaries are kept (`binflr`).
    Binflr,
    /// Pairs of literals; nothing is kept (`pairs`).
    Pairs,
}

/// A new stamp for `marks` (all cleared when the counter wraps).
fn fresh_stamp(stamp: &mut u32, marks: &mut [u32]) -> u32 {
    *stamp = stamp.wrapping_add(1);
    if *stamp == 0 {
        marks.iter_mut().for_each(|m| *m = 0);
        *stamp = 1;
    }
    *stamp
}

/// The CNF levels over one puzzle's plain encoding, with the buffers reused from puzzle to
/// puzzle: [`CnfProber::encode`] once, then [`CnfProber::derive`] for each level.
#[derive(Default)]
pub struct CnfProber {
    prop: Propagator,
    cnf: Cnf,
}

impl CnfProber {
    pub fn new() -> CnfProber {
        CnfProber::default()
    }

    /// Encodes `puzzle` under `opts` with given simplification and root propagation turned off
    /// whatever `opts` says (the givens become unit clauses), in the formula numbering.
    pub fn encode(&mut self, puzzle: &Puzzle, opts: &EncodeOptions) {
        let opts = EncodeOptions {
            simplify: false,
            propagate: false,
            ..*opts
        };
        self.cnf.clear();
        encode::encode(puzzle, &opts, Numbering::Formula, &mut self.cnf);
    }

    /// The formula of the last [`CnfProber::encode`].
    pub fn cnf(&self) -> &Cnf {
        &self.cnf
    }

    /// Stops the levels of the next [`CnfProber::derive`]s once `halt` is reached (then
    /// [`CnfProber::stopped`]).
    pub fn set_halt(&mut self, halt: Halt) {
        self.prop.set_halt(halt);
    }

    /// Whether the last [`CnfProber::derive`] stopped at the halt: its root is then partial.
    pub fn stopped(&self) -> bool {
        self.prop.stopped()
    }

    /// What `level` derives from the formula of the last [`CnfProber::encode`] of `puzzle`.
    pub fn derive(&mut self, puzzle: &Puzzle, level: CnfLevel) -> Root {
        let prop = &mut self.prop;
        prop.load(&self.cnf);
        let ok = prop.run(level);
        let n = puzzle.shape().size();
        let givens = puzzle.givens();
        let open_cells = givens.iter().filter(|&&g| g == 0).count();
        let unassigned_cells = if ok {
            (0..n * n)
                .filter(|&c| givens[c] == 0 && (0..n).any(|d| prop.value(c * n + d).is_none()))
                .count()
        } else {
            0
        };
        Root {
            contradiction: !ok,
            open_cells,
            unassigned_cells,
            vars: Some((if ok { prop.unassigned() } else { 0 }, prop.n_vars())),
        }
    }

    /// The propagator after the last [`CnfProber::derive`]: its assignment.
    pub fn propagator(&self) -> &Propagator {
        &self.prop
    }
}
