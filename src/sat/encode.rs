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
//! | a kind's name | variant rules, one part per kind, rules between two cells by the [`PairEncoding`] chosen, with the order literals they need (`encode/variants.rs`) | all, when the puzzle has them |
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
use crate::propagate::{Candidates, Level};

mod variants;

/// Which clauses to generate (see the module table).
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
    /// How Killer cages are encoded (ignored without cages).
    pub cage: CageEncoding,
    /// How variant rules between two cells are encoded (ignored without them).
    pub pair: PairEncoding,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions {
            encoding: Encoding::Extended,
            amo: Amo::Auto,
            simplify: true,
            propagate: false,
            cage: CageEncoding::Combinations,
            pair: PairEncoding::Direct,
        }
    }
}

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

/// The parts of an encoding, for statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Part {
    CellVars,
    Givens,
    CellAlo,
    CellAmo,
    HouseAmo,
    HouseAlo,
    Triad,
    Cage,
    /// A variant rule's clauses, per kind.
    Rule(ConstraintKind),
    Objective,
    Blocking,
}

impl Part {
    pub fn name(self) -> &'static str {
        match self {
            Part::CellVars => "cell-vars",
            Part::Givens => "givens",
            Part::CellAlo => "cell-alo",
            Part::CellAmo => "cell-amo",
            Part::HouseAmo => "house-amo",
            Part::HouseAlo => "house-alo",
            Part::Triad => "triad",
            Part::Cage => "cage",
            Part::Rule(kind) => kind.name(),
            Part::Objective => "objective",
            Part::Blocking => "blocking",
        }
    }
}

/// Size of one part: new variables, clauses and literal occurrences.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PartStats {
    pub vars: u64,
    pub clauses: u64,
    pub lits: u64,
}

/// Per-part sizes of an encoding, in the order the parts were generated.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EncodeStats {
    pub parts: Vec<(Part, PartStats)>,
}

impl EncodeStats {
    pub fn total(&self) -> PartStats {
        self.parts
            .iter()
            .fold(PartStats::default(), |a, (_, p)| PartStats {
                vars: a.vars + p.vars,
                clauses: a.clauses + p.clauses,
                lits: a.lits + p.lits,
            })
    }
    /// The sizes of one part (zero when absent).
    pub fn part(&self, part: Part) -> PartStats {
        self.parts
            .iter()
            .find(|(p, _)| *p == part)
            .map(|&(_, s)| s)
            .unwrap_or_default()
    }
}

impl fmt::Display for EncodeStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The first column fits the longest part name (`little-killer`, say).
        let w = self
            .parts
            .iter()
            .map(|(part, _)| part.name().len())
            .fold(10, usize::max);
        writeln!(
            f,
            "{:<w$} {:>12} {:>12} {:>12}",
            "part", "variables", "clauses", "literals"
        )?;
        let mut row = |name: &str, p: PartStats| {
            writeln!(
                f,
                "{name:<w$} {:>12} {:>12} {:>12}",
                p.vars, p.clauses, p.lits
            )
        };
        for &(part, p) in &self.parts {
            row(part.name(), p)?;
        }
        row("total", self.total())
    }
}

/// Maps a model back to a grid, and names the literal of each free cell's digits.
#[derive(Debug, Clone)]
pub struct Decoder {
    n: usize,
    /// Givens and the digits fixed by simplification (0 for free cells).
    givens: Vec<Value>,
    /// Free `(variable, digit)` pairs of cell `c`: `cands[start[c]..start[c + 1]]`.
    start: Vec<u32>,
    cands: Vec<(Var, Value)>,
    /// Cells left undecided by simplification (those with at least one free variable).
    free_cells: Vec<u32>,
}

/// The free cells' candidates, keyed by their variables, for the reduced costs of `optimize`.
impl crate::model::dual::Candidates for Decoder {
    type Key = Var;
    fn size(&self) -> usize {
        self.n
    }
    fn fixed(&self) -> &[Value] {
        &self.givens
    }
    fn free_cells(&self) -> &[u32] {
        &self.free_cells
    }
    fn candidates(&self, cell: usize) -> &[(Var, Value)] {
        Decoder::candidates(self, cell)
    }
}

impl Decoder {
    pub fn size(&self) -> usize {
        self.n
    }
    /// The free `(variable, digit)` pairs of a cell (empty for a given or a fixed cell).
    pub fn candidates(&self, cell: usize) -> &[(Var, Value)] {
        &self.cands[self.start[cell] as usize..self.start[cell + 1] as usize]
    }
    /// The digit of every cell fixed before solving (givens, and cells fixed by
    /// simplification), 0 for the others.
    pub fn fixed(&self) -> &[Value] {
        &self.givens
    }
    /// Cells whose digit the solver decides.
    pub fn free_cells(&self) -> &[u32] {
        &self.free_cells
    }
    /// The grid of a model, `value(v)` giving the truth of variable `v`. A free cell takes the
    /// first digit whose variable is true; a cell with none keeps its given (or 0).
    pub fn decode(&self, value: impl Fn(Var) -> bool) -> Grid {
        let mut cells = self.givens.clone();
        for &c in &self.free_cells {
            if let Some(&(_, d)) = self.candidates(c as usize).iter().find(|&&(v, _)| value(v)) {
                cells[c as usize] = d;
            }
        }
        Grid::new(self.n, cells)
    }
    /// The grid of an external solver's model (`values[i]` for variable `i`), refusing a model
    /// that puts other than exactly one digit in a free cell, or leaves a cell empty.
    pub fn decode_checked(&self, values: &[Option<bool>]) -> Result<Grid, String> {
        let value = |v: Var| values.get(v.idx()).copied().flatten() == Some(true);
        for &c in &self.free_cells {
            let digits = self
                .candidates(c as usize)
                .iter()
                .filter(|&&(v, _)| value(v))
                .count();
            if digits != 1 {
                return Err(format!(
                    "its model puts {digits} digits in cell {} (row {}, column {}), expected exactly one",
                    c,
                    c as usize / self.n + 1,
                    c as usize % self.n + 1
                ));
            }
        }
        let grid = self.decode(value);
        match grid.cells().iter().position(|&d| d == 0) {
            Some(c) => Err(format!("its model leaves cell {c} empty")),
            None => Ok(grid),
        }
    }
    /// The clause excluding `grid`: the negated chosen-digit literal of every free cell.
    pub fn blocking_clause(&self, grid: &Grid, out: &mut Vec<Lit>) {
        out.clear();
        for &c in &self.free_cells {
            let g = grid.cells()[c as usize];
            if let Some(&(v, _)) = self.candidates(c as usize).iter().find(|&&(_, d)| d == g) {
                out.push(v.neg_lit());
            }
        }
    }
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
        fixed_values(puzzle, opts.propagate)
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
    variants::encode_rules(puzzle, opts.pair, &val, &mut b);
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
/// candidates of [`propagate`](crate::propagate) fix and remove more. Returns the states and
/// whether a contradiction was met: then the puzzle has no solution and the encoding adds the
/// empty clause.
fn fixed_values(puzzle: &Puzzle, propagate: bool) -> (Vec<u32>, bool) {
    let level = if propagate {
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
    (state, c.contradiction().is_some())
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

/// The comment header of a DIMACS file: how to decode a model.
///
/// `fixed` is the digit of every cell fixed before encoding ([`Decoder::fixed`]); it differs from
/// the givens only with `propagate`, and is then written out so that a model can be decoded.
pub fn dimacs_header(
    puzzle: &Puzzle,
    opts: &EncodeOptions,
    stats: &EncodeStats,
    fixed: &[Value],
) -> Vec<String> {
    let n = puzzle.size();
    let mut h = vec![
        format!(
            "sudoku-lab CNF: side {n}, encoding {}, at-most-one {}, givens {}",
            opts.encoding,
            opts.amo,
            if opts.simplify {
                "simplified away"
            } else {
                "as unit clauses"
            }
        ),
        format!(
            "variable x(cell, digit) = cell*{n} + digit, cell = row*{n} + col (row, col from 0), digit 1..{n}"
        ),
        format!(
            "a model puts digit d in cell c when x(c, d) is true; variables above {} are auxiliary (total {})",
            n * n * n,
            stats.total().vars
        ),
    ];
    let propagated = opts.simplify && opts.propagate;
    let listed = if propagated {
        h.push(
            "given cells and the cells fixed by propagation (singles, locked candidates) keep the digits listed below (their variables appear in no clause)"
                .into(),
        );
        h.push("fixed digits (row by row, 0 = left to the solver):".into());
        fixed
    } else {
        if opts.simplify {
            h.push(
                "given cells keep their given digit (their variables, fixed by simplification, appear in no clause)"
                    .into(),
            );
        }
        h.push("givens (row by row, 0 = empty):".into());
        puzzle.givens()
    };
    for row in listed.chunks(n) {
        let r: Vec<String> = row.iter().map(|v| v.to_string()).collect();
        h.push(format!("  {}", r.join(" ")));
    }
    h.extend(stats.to_string().lines().map(|l| format!("stats {l}")));
    h
}

/// Encodes `puzzle` in the formula numbering and writes DIMACS CNF with the decoding header
/// (`sudoku-lab encode --to dimacs`). Returns the per-part statistics (`--stats`).
pub fn to_dimacs(
    puzzle: &Puzzle,
    opts: &EncodeOptions,
    out: &mut impl io::Write,
) -> io::Result<EncodeStats> {
    let mut cnf = Cnf::new();
    let enc = encode(puzzle, opts, Numbering::Formula, &mut cnf);
    let header = dimacs_header(puzzle, opts, &enc.stats, enc.decoder.fixed());
    dimacs::write(&cnf, &header, out)?;
    Ok(enc.stats)
}

/// The DIMACS number of "cell (`row`, `col`) holds `digit`" in the formula numbering that
/// [`to_dimacs`] writes (and its header states): `cell * n + digit`, with `cell = row * n + col`
/// (row and column from 0, digit from 1). `None` when a coordinate is outside the grid.
///
/// ```
/// use sudoku_lab::sat::encode::dimacs_var;
/// assert_eq!(dimacs_var(9, 0, 0, 1), Some(1));
/// assert_eq!(dimacs_var(9, 8, 8, 9), Some(729));
/// assert_eq!(dimacs_var(9, 0, 9, 1), None);
/// ```
pub fn dimacs_var(n: usize, row: usize, col: usize, digit: usize) -> Option<i64> {
    (row < n && col < n && (1..=n).contains(&digit)).then(|| ((row * n + col) * n + digit) as i64)
}

/// The grid a DIMACS model (formula numbering, as written by [`to_dimacs`] with the same
/// `opts`) stands for. `model` holds the true literals (DIMACS numbers, positive or negative, any
/// order); cells fixed before encoding (givens, and with `propagate` the propagated cells) come
/// from the puzzle.
pub fn decode_dimacs_model(puzzle: &Puzzle, opts: &EncodeOptions, model: &[i64]) -> Grid {
    let n = puzzle.size();
    let mut cells = if opts.simplify && opts.propagate {
        let (state, _) = fixed_values(puzzle, true);
        state
            .chunks(n)
            .map(|c| {
                c.iter()
                    .position(|&s| s == TRUE)
                    .map_or(0, |d| d as Value + 1)
            })
            .collect()
    } else {
        puzzle.givens().to_vec()
    };
    for &x in model {
        if x > 0 && (x as usize) <= n * n * n {
            let i = x as usize - 1;
            let (c, d) = (i / n, i % n + 1);
            if cells[c] == 0 {
                cells[c] = d as Value;
            }
        }
    }
    Grid::new(n, cells)
}

/// A sink that keeps nothing: it only numbers variables (with [`Counting`] around it, clauses
/// and literals are counted too). For [`SizeEstimate`].
struct Tally {
    n_vars: u32,
}

impl ClauseSink for Tally {
    super::numbered_vars!();
    fn add_clause(&mut self, lits: &[Lit]) {
        self.reserve_vars_of(lits);
    }
}

/// Runs `f` on a [`Builder`] over a [`Tally`] whose first `vars` variables exist, and returns
/// the variables, clauses and literals it added.
fn tally(amo: Amo, vars: u32, f: impl FnOnce(&mut Builder<'_, Tally>)) -> PartStats {
    let mut sink = Tally { n_vars: vars };
    let mut b = Builder::over(&mut sink, amo, vars);
    f(&mut b);
    let (clauses, lits) = (b.out.clauses, b.out.lits);
    PartStats {
        vars: (sink.n_vars - vars) as u64,
        clauses,
        lits,
    }
}

/// Size of an at-most-one over `k` literals.
fn amo_size(amo: Amo, k: usize) -> PartStats {
    let amo = match amo {
        Amo::Auto if k <= AUTO_PAIRWISE_MAX => Amo::Pairwise,
        Amo::Auto => Amo::Ladder,
        a => a,
    };
    let k64 = k as u64;
    if k <= 1 {
        PartStats::default()
    } else if amo == Amo::Pairwise {
        PartStats {
            vars: 0,
            clauses: k64 * (k64 - 1) / 2,
            lits: k64 * (k64 - 1),
        }
    } else {
        tally(amo, k as u32, |b| {
            b.buf = (0..k as u32).map(|v| Var::new(v).pos_lit()).collect();
            b.amo_lits();
        })
    }
}

fn add(a: PartStats, b: PartStats) -> PartStats {
    PartStats {
        vars: a.vars + b.vars,
        clauses: a.clauses + b.clauses,
        lits: a.lits + b.lits,
    }
}

fn times(a: PartStats, m: u64) -> PartStats {
    PartStats {
        vars: a.vars * m,
        clauses: a.clauses * m,
        lits: a.lits * m,
    }
}

/// The at-most-one constraints of a part, by size: what [`Builder::amo`] makes of them under any
/// [`Amo`].
#[derive(Debug, Clone, Default)]
struct AmoGroups {
    /// Clauses that are not at-most-ones proper: units (a group with one true value) and empty
    /// clauses (two true values).
    plain: PartStats,
    /// `sizes[k]`: groups of `k` free literals and no true value.
    sizes: Vec<u64>,
}

impl AmoGroups {
    /// A group of `trues` true values and `k` free literals.
    fn add(&mut self, trues: u32, k: u32) {
        match trues {
            0 => {
                let k = k as usize;
                if k >= self.sizes.len() {
                    self.sizes.resize(k + 1, 0);
                }
                self.sizes[k] += 1;
            }
            1 => {
                self.plain.clauses += k as u64;
                self.plain.lits += k as u64;
            }
            _ => self.plain.clauses += 1,
        }
    }
    fn size(&self, amo: Amo) -> PartStats {
        let mut s = self.plain;
        for (k, &m) in self.sizes.iter().enumerate() {
            if m > 0 {
                s = add(s, times(amo_size(amo, k), m));
            }
        }
        s
    }
}

/// Calls its second argument with each free digit (0-based) of a cell.
type ForFree<'a> = dyn Fn(usize, &mut dyn FnMut(usize)) + 'a;

/// One clause of `k` free literals unless a value is true (what [`Builder::alo`] makes).
fn alo_size(s: &mut PartStats, trues: u32, k: u32) {
    if trues == 0 {
        s.clauses += 1;
        s.lits += k as u64;
    }
}

/// The size of the formula [`encode`] would build for a puzzle, found without building it: from
/// the candidates the encoder would leave free, the sizes of its at-most-one groups and
/// at-least-one clauses (in time proportional to the free cell variables, with memory
/// proportional to the cells), so that a formula too large for memory can be refused before
/// anything large is allocated. Exact for every part (the at-most-one encodings and Killer cages
/// are run into a sink that keeps nothing), but for the empty clause of a contradiction.
///
/// One estimate serves the encoding it was made for and every lighter one
/// ([`Encoding::ALL`] order), under any at-most-one encoding.
#[derive(Debug, Clone)]
pub struct SizeEstimate {
    n: usize,
    /// Cell variables left free (those the compact numbering numbers).
    free_vars: u64,
    encoding: Encoding,
    givens: PartStats,
    cell_alo: PartStats,
    cell_amo: AmoGroups,
    house_amo: AmoGroups,
    house_alo: PartStats,
    /// The triads' own variables and clauses, then their at-most-ones.
    triad: PartStats,
    triad_amo: AmoGroups,
    /// Killer cages (and those set equivalence implies on boxless Killers, which the encoder
    /// adds) under each of [`Amo::ALL`]; `None` for one not estimated
    /// ([`SizeEstimate::for_amos`]).
    cages: Vec<Option<PartStats>>,
}

impl SizeEstimate {
    /// The estimate under every at-most-one encoding.
    pub fn new(puzzle: &Puzzle, opts: &EncodeOptions) -> SizeEstimate {
        Self::for_amos(puzzle, opts, &Amo::ALL)
    }

    /// The estimate whose Killer cages are counted under the at-most-one encodings `amos` only:
    /// cages are counted by encoding them, once per at-most-one, so on a 9×9 Killer an estimate
    /// under all of them costs more than the solve. [`SizeEstimate::stats`] under another
    /// at-most-one panics, unless the puzzle has no cages.
    pub fn for_amos(puzzle: &Puzzle, opts: &EncodeOptions, amos: &[Amo]) -> SizeEstimate {
        let shape = puzzle.shape();
        let n = shape.size();
        let cands = opts.simplify.then(|| {
            let level = if opts.propagate {
                Level::Locked
            } else {
                Level::Givens
            };
            Candidates::new(puzzle, level)
        });
        // A cell's fixed digit (0 for none) and its free digits.
        let fixed = |c: usize| cands.as_ref().map_or(0, |m| m.fixed()[c]);
        let for_free = |c: usize, f: &mut dyn FnMut(usize)| match &cands {
            Some(m) if m.fixed()[c] == 0 => m.digits(c).for_each(|d| f(d as usize - 1)),
            Some(_) => {}
            None => (0..n).for_each(f),
        };
        let free_count = |c: usize| match &cands {
            Some(m) if m.fixed()[c] == 0 => m.count(c),
            Some(_) => 0,
            None => n as u32,
        };
        let mut e = SizeEstimate {
            n,
            free_vars: 0,
            encoding: opts.encoding,
            givens: PartStats::default(),
            cell_alo: PartStats::default(),
            cell_amo: AmoGroups::default(),
            house_amo: AmoGroups::default(),
            house_alo: PartStats::default(),
            triad: PartStats::default(),
            triad_amo: AmoGroups::default(),
            cages: Vec::new(),
        };
        if !opts.simplify {
            let givens = puzzle.givens().iter().filter(|&&g| g != 0).count() as u64;
            e.givens = PartStats {
                vars: 0,
                clauses: givens,
                lits: givens,
            };
        }
        for c in 0..n * n {
            let k = free_count(c);
            let t = u32::from(fixed(c) != 0);
            e.free_vars += k as u64;
            alo_size(&mut e.cell_alo, t, k);
            e.cell_amo.add(t, k);
        }
        let (mut k, mut t) = (vec![0u32; n], vec![0u32; n]);
        for h in shape.houses() {
            k.iter_mut().for_each(|x| *x = 0);
            t.iter_mut().for_each(|x| *x = 0);
            for &c in h {
                match fixed(c as usize) {
                    0 => for_free(c as usize, &mut |d| k[d] += 1),
                    v => t[v as usize - 1] += 1,
                }
            }
            for d in 0..n {
                e.house_amo.add(t[d], k[d]);
                alo_size(&mut e.house_alo, t[d], k[d]);
            }
        }
        if opts.encoding == Encoding::Triad {
            e.estimate_triads(puzzle, &fixed, &for_free);
        }
        // Cages, the implied ones of boxless Killers too: their real encoding, into a sink that
        // keeps nothing.
        let no_cages = puzzle.cages().next().is_none();
        let implied: Vec<Cage> = if no_cages {
            vec![]
        } else {
            let domains: Vec<u64> = (0..n * n)
                .map(|c| match fixed(c) {
                    0 => {
                        let mut m = 0;
                        for_free(c, &mut |d| m |= 1 << d);
                        m
                    }
                    v => 1 << (v - 1),
                })
                .collect();
            implied_cages(shape, puzzle.cages(), &domains)
                .into_iter()
                .map(|i| Cage::new(i.cells, i.sum))
                .collect()
        };
        e.cages = Amo::ALL
            .iter()
            .map(|&amo| {
                if no_cages {
                    return Some(PartStats::default());
                }
                if !amos.contains(&amo) {
                    return None;
                }
                let mut total = PartStats::default();
                for cage in puzzle.cages().chain(&implied) {
                    let mut var = std::collections::HashMap::new();
                    for &c in cage.cells() {
                        for_free(c as usize, &mut |d| {
                            let v = var.len() as u32;
                            var.insert((c as usize, d), v);
                        });
                    }
                    let val = |c: usize, d: usize| -> Val {
                        match (fixed(c), var.get(&(c, d))) {
                            (0, Some(&v)) => Val::Lit(Var::new(v).pos_lit()),
                            (v, _) if v as usize == d + 1 => Val::True,
                            _ => Val::False,
                        }
                    };
                    let s = tally(amo, var.len() as u32, |b| {
                        encode_cage(cage, n, opts.cage, &val, b)
                    });
                    total = add(total, s);
                }
                Some(total)
            })
            .collect();
        e
    }

    /// The triads' variables and clauses (see [`encode_triads`]), counted per segment.
    fn estimate_triads(
        &mut self,
        puzzle: &Puzzle,
        fixed: &dyn Fn(usize) -> Value,
        for_free: &ForFree<'_>,
    ) {
        let shape = puzzle.shape();
        let n = shape.size();
        let mut reg_lits = vec![0u32; n * n];
        let mut reg_true = vec![0u32; n * n];
        let (mut line_lits, mut line_true) = (vec![0u32; n], vec![0u32; n]);
        let (mut seg_lits, mut seg_true) = (vec![0u32; n], vec![0u32; n]);
        let mut stamp = vec![usize::MAX; n];
        let mut touched = Vec::with_capacity(n);
        let mut segment = 0usize;
        for dir in 0..2 {
            reg_lits.iter_mut().for_each(|x| *x = 0);
            reg_true.iter_mut().for_each(|x| *x = 0);
            for line in 0..n {
                line_lits.iter_mut().for_each(|x| *x = 0);
                line_true.iter_mut().for_each(|x| *x = 0);
                let mut cells: Vec<(usize, usize)> = shape
                    .house(dir * n + line)
                    .iter()
                    .map(|&c| (shape.region_of(c as usize), c as usize))
                    .collect();
                cells.sort_by_key(|&(r, _)| r);
                for seg in cells.chunk_by(|a, b| a.0 == b.0) {
                    let r = seg[0].0;
                    segment += 1;
                    touched.clear();
                    let mut touch = |d: usize, is_true: bool| {
                        if stamp[d] != segment {
                            stamp[d] = segment;
                            seg_lits[d] = 0;
                            seg_true[d] = 0;
                            touched.push(d);
                        }
                        if is_true {
                            seg_true[d] += 1;
                        } else {
                            seg_lits[d] += 1;
                        }
                    };
                    for &(_, c) in seg {
                        match fixed(c) {
                            0 => for_free(c, &mut |d| touch(d, false)),
                            v => touch(v as usize - 1, true),
                        }
                    }
                    for &d in &touched {
                        let m = seg_lits[d] as u64;
                        if seg_true[d] > 0 {
                            line_true[d] += 1;
                            reg_true[r * n + d] += 1;
                            continue;
                        }
                        if m >= 2 {
                            // A new variable, m binary clauses and one of m + 1 literals.
                            self.triad.vars += 1;
                            self.triad.clauses += m + 1;
                            self.triad.lits += 3 * m + 1;
                        }
                        line_lits[d] += 1;
                        reg_lits[r * n + d] += 1;
                    }
                }
                for d in 0..n {
                    alo_size(&mut self.triad, line_true[d], line_lits[d]);
                    self.triad_amo.add(line_true[d], line_lits[d]);
                }
            }
            for i in 0..n * n {
                alo_size(&mut self.triad, reg_true[i], reg_lits[i]);
                self.triad_amo.add(reg_true[i], reg_lits[i]);
            }
        }
    }

    /// Cell variables left free.
    pub fn free_vars(&self) -> u64 {
        self.free_vars
    }

    /// Side of the grid.
    pub fn size(&self) -> usize {
        self.n
    }

    /// The size of the formula under `encoding` (the estimate's own or a lighter one: a heavier
    /// one counts only the parts the estimate has) and `amo`, in `numbering`.
    pub fn stats(&self, encoding: Encoding, amo: Amo, numbering: Numbering) -> PartStats {
        let n = self.n as u64;
        let cell_vars = match numbering {
            Numbering::Formula => n * n * n,
            Numbering::Compact => self.free_vars,
        };
        let mut s = PartStats {
            vars: cell_vars,
            clauses: 0,
            lits: 0,
        };
        s = add(s, self.givens);
        s = add(s, self.cell_alo);
        if encoding != Encoding::Minimal {
            s = add(s, self.cell_amo.size(amo));
        }
        s = add(s, self.house_amo.size(amo));
        if matches!(encoding, Encoding::Extended | Encoding::Triad) {
            s = add(s, self.house_alo);
        }
        if encoding == Encoding::Triad && self.encoding == Encoding::Triad {
            s = add(s, self.triad);
            s = add(s, self.triad_amo.size(amo));
        }
        let i = Amo::ALL.iter().position(|&a| a == amo).unwrap_or(0);
        let cages = self.cages.get(i).copied().flatten();
        add(
            s,
            cages
                .expect("SizeEstimate::stats: the cages were not estimated under this at-most-one"),
        )
    }

    /// The encoding the estimate was made for.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }
}

/// An upper bound on the size of any formula [`encode`] builds for a grid of side `n` with
/// `houses` houses and no Killer cage (every cell variable free), computed in constant time:
/// callers skip [`SizeEstimate`] when this already fits. `None` for [`Encoding::Triad`].
pub fn worst_case(n: usize, houses: usize, encoding: Encoding, amo: Amo) -> Option<PartStats> {
    if encoding == Encoding::Triad {
        return None;
    }
    let (n64, h64) = (n as u64, houses as u64);
    let mut groups = AmoGroups {
        sizes: vec![0; n + 1],
        ..Default::default()
    };
    groups.sizes[n] = h64 * n64
        + if encoding == Encoding::Minimal {
            0
        } else {
            n64 * n64
        };
    let alo = PartStats {
        vars: 0,
        clauses: n64 * n64 + h64 * n64,
        lits: n64 * n64 * n64 + h64 * n64 * n64,
    };
    Some(add(
        add(
            PartStats {
                vars: n64 * n64 * n64,
                // Givens as unit clauses, without simplification.
                clauses: n64 * n64,
                lits: n64 * n64,
            },
            alo,
        ),
        groups.size(amo),
    ))
}

#[cfg(test)]
mod estimate_tests {
    use super::*;
    use crate::format::read_puzzles;

    fn puzzles() -> Vec<Puzzle> {
        // An empty 16×16 and a 16×16 with a few givens.
        let mut some: Vec<u8> = vec![b'.'; 256];
        for (i, c) in [(0, b'1'), (17, b'2'), (40, b'G'), (200, b'9'), (255, b'3')] {
            some[i] = c;
        }
        let sixteen = format!(
            "{}\n{}\n",
            ".".repeat(256),
            std::str::from_utf8(&some).unwrap()
        );
        [
            include_str!("../../tests/data/formats/killer.txt"),
            include_str!("../../tests/data/formats/line_jigsaw.txt"),
            include_str!("../../tests/data/empty9.txt"),
            &sixteen,
            // The encoder adds the cages set equivalence implies here.
            include_str!("../../tests/data/formats/killer_boxless.txt"),
        ]
        .iter()
        .flat_map(|text| read_puzzles(text, &Default::default()))
        .map(|e| e.unwrap().puzzle)
        .collect()
    }

    #[test]
    fn the_estimate_is_the_size_of_the_formula() {
        for (i, p) in puzzles().iter().enumerate() {
            for encoding in Encoding::ALL {
                for amo in Amo::ALL {
                    for (simplify, propagate) in [(true, true), (true, false), (false, false)] {
                        for cage in CageEncoding::ALL {
                            // Every cage encoding, but under one at-most-one and one simplification.
                            if cage != CageEncoding::Combinations
                                && (p.cages().next().is_none() || amo != Amo::Auto || !propagate)
                            {
                                continue;
                            }
                            let opts = EncodeOptions {
                                encoding,
                                amo,
                                simplify,
                                propagate,
                                cage,
                                pair: PairEncoding::Direct,
                            };
                            let est = SizeEstimate::new(p, &opts);
                            for numbering in [Numbering::Compact, Numbering::Formula] {
                                let mut cnf = Cnf::new();
                                let enc = encode(p, &opts, numbering, &mut cnf);
                                let mut real = enc.stats.total();
                                if real.vars == 0 {
                                    real.vars = cnf.n_vars() as u64;
                                }
                                assert_eq!(
                                    est.stats(encoding, amo, numbering),
                                    real,
                                    "puzzle {i}, {opts:?}, {numbering:?}"
                                );
                                // Lighter encodings from the same estimate.
                                for lighter in Encoding::ALL {
                                    if lighter as usize >= encoding as usize {
                                        break;
                                    }
                                    let o = EncodeOptions {
                                        encoding: lighter,
                                        ..opts
                                    };
                                    let mut cnf = Cnf::new();
                                    let enc = encode(p, &o, numbering, &mut cnf);
                                    assert_eq!(
                                        est.stats(lighter, amo, numbering),
                                        enc.stats.total(),
                                        "puzzle {i}, {o:?} from {encoding}, {numbering:?}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn an_estimate_under_one_at_most_one_is_the_full_one_there() {
        for p in puzzles() {
            for amo in Amo::ALL {
                let opts = EncodeOptions {
                    amo,
                    ..Default::default()
                };
                let one = SizeEstimate::for_amos(&p, &opts, &[amo]);
                let all = SizeEstimate::new(&p, &opts);
                for numbering in [Numbering::Compact, Numbering::Formula] {
                    assert_eq!(
                        one.stats(opts.encoding, amo, numbering),
                        all.stats(opts.encoding, amo, numbering)
                    );
                }
                // The cages were encoded under `amo` alone.
                let counted = one.cages.iter().filter(|c| c.is_some()).count();
                let expected = if p.cages().next().is_some() {
                    1
                } else {
                    Amo::ALL.len()
                };
                assert_eq!(counted, expected);
            }
        }
    }
}
