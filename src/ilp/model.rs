//! The solver-free integer program of a puzzle, shared by the `ilp` backend
//! ([`crate::backends::ilp`]) and the CPLEX LP writer ([`crate::ilp::lp`]), so the two can never
//! drift.
//!
//! Variables are binaries `x(cell, digit)`: 1 when `cell` holds `digit`. Only *free* cells get
//! variables, and only for the digits their houses still allow: givens (and, with
//! [`Reduction::Singles`], every digit forced by naked and hidden singles) are fixed and removed
//! from the program. Constraints:
//! - one per free cell: the cell holds exactly one digit (`Σ x = 1`);
//! - one per (house, digit) that the fixed cells of the house do not already place: the digit
//!   appears exactly once among the house's free cells (`Σ x = 1`). Houses are the model's houses,
//!   so jigsaw regions and diagonals need nothing special;
//! - for each Killer cage: its free cells take no digit a fixed cell of the cage holds (those
//!   variables are not created). Then, when the cage has at most [`MAX_CAGE_SETS`] digit sets
//!   reaching its sum (with the fixed digits), a binary `z(cage, j)` per set, exactly one chosen
//!   (`Σ z = 1`), and each digit appears among the free cells as often as the chosen set holds it
//!   (`Σ x − Σ z = 0`): a much tighter relaxation than the sum alone. Otherwise each digit at
//!   most once (`Σ x ≤ 1`) and the digits add up to the cage sum less the fixed cells' digits
//!   (`Σ digit · x = rest`);
//! - the variant rules ([`takes`]: all of them), from their lowering ([`crate::model::lower`]);
//!   a sandwich, whose sum runs between two cells that move with the solution, through auxiliary
//!   binaries ([`sandwich_rows`]), and likewise skyscraper clues (a "seen" binary per cell,
//!   [`skyscraper_rows`]); an X-sum (whose length is the first cell's digit) as a partial-sum
//!   path per length ([`x_sum_flows`]), or past their size through `in ∧ x` ([`x_sum_rows`]);
//!   a quadruple as `Σ x(c, d) ≥ k` for a digit listed `k` times; a between or lockout line as
//!   `x(a, x) + x(b, y) − Σ x(c, d) ≤ 1` for each inner cell `c` and pair of end digits, over the
//!   digits `d` the cell may then hold, and `x(c, d) + Σ x(a, ·) + Σ x(b, ·) ≤ 2` over the end
//!   ranges the rule forbids whole beside `d` ([`between_bounds`]); a row over fixed cells alone is
//!   checked while building (infeasible when it fails). Parity cells, candidate lists, the
//!   digits fixed cells forbid
//!   to their partners and those a pair leaves without support get no variables
//!   ([`Candidates::restrict`]); extra houses (disjoint
//!   groups, extra regions of `n` cells) hold each digit not fixed in them exactly once among
//!   their free cells (`Σ x = 1`), distinct groups (smaller extra regions, renban lines) at most
//!   once (`Σ x ≤ 1`); each two-cell rule between free cells ([`Rules::all_pairs`]: chess
//!   exclusions, thermometer and whisper steps, palindromes, dots, negative rules, and renban's
//!   "at most `k − 1` apart") gets, for each digit `d` of either cell,
//!   `x(cell, d) + Σ x(other, e) ≤ 1` over the digits `e` the rule forbids beside `d`: what the
//!   rows `x(cell, d) + x(other, e) ≤ 1` of the forbidden pairs say, in fewer and tighter rows
//!   (the other cell holds one digit); arrows, little killers, double arrows, zipper and region
//!   sum lines (`Σ coefficient · digit = rhs`) are paths through their partial sums, an arc
//!   binary per (cell, partial sum, digit) linked to the cell's one-hot variables ([`sum_rows`]:
//!   the convex hull of each sum), or, past [`MAX_SUM_ARCS`] arcs, the row
//!   `Σ coefficient · digit · x = rhs` less the fixed cells' part.
//!
//! The objective (when asked for) maximises `Σ weight(cell) × digit(cell)`. Every house's free
//! cells hold a fixed multiset of digits, so the sum of the free cells' digits is a constant; the
//! program therefore uses the reduced coefficients `(weight − min weight) × digit`, all ≥ 0, and
//! [`IlpObjective::offset`] adds back the constant, so `offset + Σ coef × x` is the score of the
//! whole grid, givens included.

use std::collections::HashSet;

use crate::model::lower::{sandwiched, Between, Contains, EdgeLine, LinearSum, Rules};
use crate::model::{Cage, CellAt, ConstraintKind, Grid, Puzzle, Shape, Value};
use crate::propagate::{Candidates, Level};

/// Whether the integer program holds rules of `kind`: every kind, sandwiches, skyscrapers and
/// X-sums through auxiliary binaries (see the module docs).
pub fn takes(kind: ConstraintKind) -> bool {
    let _ = kind;
    true
}

/// Largest side the integer program is built for (a side-64 grid already has 262,144 variables,
/// far past what the solvers handle quickly).
pub const MAX_SIDE: usize = 64;

/// How much is removed from the program before it is handed to a solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Reduction {
    /// Remove the givens and the digits they exclude from their houses' other cells.
    #[default]
    Givens,
    /// Also fix every naked single (a cell with one candidate) and hidden single (a digit with one
    /// place in a house), repeatedly, before building the program.
    Singles,
}

/// Why no program was built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelBuildError {
    /// The puzzle has no solution; found while fixing givens (and singles).
    #[error("no solution: {0}")]
    Infeasible(String),
    #[error("the integer program handles sides up to {MAX_SIDE}, this grid has side {0}")]
    TooLarge(usize),
    #[error("an objective was asked for but the puzzle has no weights")]
    NoWeights,
    #[error("the integer program does not hold {0} constraints")]
    Unsupported(ConstraintKind),
}

/// A solver's assignment that is not a grid ([`IlpModel::decode`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// A variable index past the program's.
    #[error("no variable {0}")]
    NoVariable(usize),
    #[error("{0} gets two digits")]
    TwoDigits(CellAt),
    #[error("{0} gets no digit")]
    NoDigit(CellAt),
}

/// One binary variable: `cell` (row-major, 0-based) holds `digit` (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct XVar {
    pub cell: u32,
    pub digit: Value,
}

/// The documented name of a variable in exports and messages: `x_r{row}c{col}_d{digit}`, all
/// 1-based (`x_r1c2_d3`: row 1, column 2 holds 3).
pub fn var_name(n: usize, x: XVar) -> String {
    let cell = x.cell as usize;
    format!("x_r{}c{}_d{}", cell / n + 1, cell % n + 1, x.digit)
}

/// Most digit sets a cage may have for the set formulation; past it, the sum row.
pub const MAX_CAGE_SETS: usize = 2_000;

/// What a constraint row stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    /// The free cell holds exactly one digit.
    Cell(u32),
    /// `digit` appears exactly once among the free cells of `house`.
    House { house: u32, digit: Value },
    /// `cage` (0-based) takes exactly one of its digit sets.
    CageSet { cage: u32 },
    /// `digit` appears among the free cells of `cage` as often as its chosen set holds it, or (sum
    /// formulation) at most once.
    CageDigit { cage: u32, digit: Value },
    /// The digits of the free cells of `cage` add up to the right side (sum formulation).
    CageSum { cage: u32 },
    /// `digit` exactly once (extra house) or at most once (distinct group) among the free cells
    /// of `group`: the rules' extra houses, then their distinct groups, from 0.
    Group { group: u32, digit: Value },
    /// `cell` holding `digit` rules out the digits two-cell rule `pair` (from 0, in
    /// [`Rules::all_pairs`] order) forbids beside it in the other cell.
    Pair { pair: u32, cell: u32, digit: Value },
    /// Row `row` (from 0) of weighted sum `sum` (arrows, little killers, double arrows, zipper
    /// and region sum lines, from 0): the sum itself, or the rows of its partial-sum flow
    /// ([`sum_rows`]).
    Sum { sum: u32, row: u32 },
    /// Row `row` (from 0) of sandwich `sandwich` (from 0): the links of its auxiliary variables,
    /// then its sum.
    Sandwich { sandwich: u32, row: u32 },
    /// Row `row` of quadruple `rule` (from 0): one per listed digit.
    Quadruple { rule: u32, row: u32 },
    /// Row `row` of between or lockout line `rule` (from 0).
    Between { rule: u32, row: u32 },
    /// Row `row` of skyscraper clue `clue` (from 0): the links of its "seen" binaries, then
    /// their count.
    Skyscraper { clue: u32, row: u32 },
    /// Row `row` of X-sum clue `clue` (from 0): the links of its auxiliary binaries, then the sum.
    XSum { clue: u32, row: u32 },
}

/// The relation of a row's left side to its right side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sense {
    Eq,
    AtMost,
}

/// A linear constraint `Σ coef[i] × var[vars[i]]` (sense) `rhs`. Variable indices below
/// [`IlpModel::vars`]`.len()` are cell variables, the others cage-set variables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub kind: RowKind,
    pub vars: Vec<u32>,
    pub coef: Vec<i64>,
    pub sense: Sense,
    pub rhs: i64,
}

impl Row {
    /// `Σ x = 1` over `vars`.
    fn exactly_one(kind: RowKind, vars: Vec<u32>) -> Row {
        Row {
            kind,
            coef: vec![1; vars.len()],
            vars,
            sense: Sense::Eq,
            rhs: 1,
        }
    }
    /// `Σ x ≤ 1` over `vars`.
    fn at_most_one(kind: RowKind, vars: Vec<u32>) -> Row {
        Row {
            sense: Sense::AtMost,
            ..Row::exactly_one(kind, vars)
        }
    }
}

/// The objective: maximise `offset + Σ coef[v] × x[v]`, which equals the grid's score.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IlpObjective {
    /// One coefficient per variable, all ≥ 0.
    pub coef: Vec<i64>,
    /// Score contributed by the fixed cells plus the constant removed from the coefficients.
    pub offset: i64,
}

/// The integer program of one puzzle.
#[derive(Debug, Clone)]
pub struct IlpModel {
    n: usize,
    /// Digit of every fixed cell (givens and forced singles), 0 for free cells.
    fixed: Vec<Value>,
    vars: Vec<XVar>,
    /// The cage-set variables `z(cage, j)`, numbered after the cell variables.
    sets: Vec<(u32, u32)>,
    /// The names of the sandwiches' auxiliary variables, numbered after the cage-set variables.
    aux: Vec<String>,
    rows: Vec<Row>,
    objective: Option<IlpObjective>,
}

/// Each cell's Killer cage (`u32::MAX`: none), and for each cage the digits its fixed cells
/// hold (indexed by digit); a digit fixed twice in a cage is infeasible.
fn cage_givens(
    puzzle: &Puzzle,
    fixed: &[Value],
) -> Result<(Vec<u32>, Vec<Vec<bool>>), ModelBuildError> {
    let n = puzzle.size();
    let mut cage_of = vec![u32::MAX; n * n];
    let mut cage_held = vec![];
    for (k, cage) in puzzle.cages().enumerate() {
        let mut held = vec![false; n + 1];
        for &cell in cage.cells() {
            cage_of[cell as usize] = k as u32;
            let d = fixed[cell as usize] as usize;
            if d != 0 && std::mem::replace(&mut held[d], true) {
                return Err(ModelBuildError::Infeasible(format!(
                    "cage {} holds {d} twice",
                    k + 1
                )));
            }
        }
        cage_held.push(held);
    }
    Ok((cage_of, cage_held))
}

impl IlpModel {
    /// Builds the program of `puzzle`, with the weighted objective when `objective` is set: the
    /// cells' variables and rows, then the houses', the cages', the variant rules' and the
    /// objective, each by a function of its own.
    pub fn build(
        puzzle: &Puzzle,
        objective: bool,
        reduction: Reduction,
    ) -> Result<IlpModel, ModelBuildError> {
        let n = puzzle.size();
        if n > MAX_SIDE {
            return Err(ModelBuildError::TooLarge(n));
        }
        if let Some(c) = puzzle.constraints().iter().find(|c| !takes(c.kind())) {
            return Err(ModelBuildError::Unsupported(c.kind()));
        }
        let weights = match objective {
            true => Some(puzzle.weights().ok_or(ModelBuildError::NoWeights)?),
            false => None,
        };
        let level = match reduction {
            Reduction::Givens => Level::Givens,
            Reduction::Singles => Level::Singles,
        };
        let rules = Rules::of(puzzle);
        let mut c = Candidates::new(puzzle, level);
        c.restrict(&rules);
        if let Some(why) = c.contradiction() {
            return Err(ModelBuildError::Infeasible(why.to_string()));
        }
        let fixed = c.fixed();
        let (cage_of, cage_held) = cage_givens(puzzle, fixed)?;
        let mut m = IlpModel {
            n,
            fixed: fixed.to_vec(),
            vars: vec![],
            sets: vec![],
            aux: vec![],
            rows: vec![],
            objective: None,
        };
        let var_of = m.cell_rows(&c, &cage_of, &cage_held)?;
        m.house_rows(puzzle.shape(), &c, &var_of)?;
        for (k, cage) in puzzle.cages().enumerate() {
            m.cage_rows(k, cage, &cage_held[k], &var_of)?;
        }
        let first_aux = (m.vars.len() + m.sets.len()) as u32;
        rule_rows(&rules, n, fixed, &var_of, &mut m.rows)?;
        line_rows(
            &rules,
            n,
            fixed,
            &var_of,
            first_aux,
            &mut m.aux,
            &mut m.rows,
        )?;
        m.objective = weights.map(|w| m.objective_of(w.as_slice()));
        Ok(m)
    }

    /// The variables of the free cells, grouped by cell in ascending digit order, leaving out
    /// the digits a fixed cell of the cell's cage holds, and one row per free cell: it holds
    /// exactly one digit. Returns where each `(cell, digit)` variable is (`u32::MAX`: none).
    fn cell_rows(
        &mut self,
        c: &Candidates,
        cage_of: &[u32],
        cage_held: &[Vec<bool>],
    ) -> Result<Vec<u32>, ModelBuildError> {
        let n = self.n;
        let mut var_of = vec![u32::MAX; n * n * n];
        for cell in 0..n * n {
            if self.fixed[cell] != 0 {
                continue;
            }
            let first = self.vars.len() as u32;
            let held = cage_held.get(cage_of[cell] as usize);
            for digit in c.digits(cell) {
                if held.is_some_and(|h| h[digit as usize]) {
                    continue;
                }
                var_of[cell * n + digit as usize - 1] = self.vars.len() as u32;
                self.vars.push(XVar {
                    cell: cell as u32,
                    digit,
                });
            }
            if first == self.vars.len() as u32 {
                return Err(ModelBuildError::Infeasible(format!(
                    "row {}, column {} has no digit left",
                    cell / n + 1,
                    cell % n + 1
                )));
            }
            self.rows.push(Row::exactly_one(
                RowKind::Cell(cell as u32),
                (first..self.vars.len() as u32).collect(),
            ));
        }
        Ok(var_of)
    }

    /// One row per (house, digit) the house's fixed cells do not place: exactly once among its
    /// free cells.
    fn house_rows(
        &mut self,
        shape: &Shape,
        c: &Candidates,
        var_of: &[u32],
    ) -> Result<(), ModelBuildError> {
        let n = self.n;
        for (h, cells) in shape.houses().enumerate() {
            for digit in (1..=n as Value).filter(|&d| !c.placed_in(h, d)) {
                let vs: Vec<u32> = cells
                    .iter()
                    .map(|&cell| var_of[cell as usize * n + digit as usize - 1])
                    .filter(|&v| v != u32::MAX)
                    .collect();
                if vs.is_empty() {
                    return Err(ModelBuildError::Infeasible(format!(
                        "{digit} has no place left in {}",
                        shape.house_name(h)
                    )));
                }
                let house = h as u32;
                self.rows
                    .push(Row::exactly_one(RowKind::House { house, digit }, vs));
            }
        }
        Ok(())
    }

    /// The rows of cage `k`, whose fixed cells hold the digits of `held`: through its digit sets
    /// when it has at most [`MAX_CAGE_SETS`] of them ([`IlpModel::cage_set_rows`]), else each
    /// digit at most once and the sum ([`IlpModel::cage_sum_rows`]).
    fn cage_rows(
        &mut self,
        k: usize,
        cage: &Cage,
        held: &[bool],
        var_of: &[u32],
    ) -> Result<(), ModelBuildError> {
        let (n, fixed) = (self.n, &self.fixed);
        let free: Vec<usize> = cage
            .cells()
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| fixed[c] == 0)
            .collect();
        let fixed_sum: i64 = cage.cells().iter().map(|&c| fixed[c as usize] as i64).sum();
        let rest = cage.sum() as i64 - fixed_sum;
        if free.is_empty() {
            if rest != 0 {
                return Err(ModelBuildError::Infeasible(format!(
                    "cage {} is full and adds up to {fixed_sum}, not {}",
                    k + 1,
                    rest + fixed_sum
                )));
            }
            return Ok(());
        }
        let held_mask: u64 = (1..=n)
            .filter(|&d| held[d])
            .fold(0, |m, d| m | 1 << (d - 1));
        let combos = cage.combinations(n, MAX_CAGE_SETS).map(|all| {
            all.into_iter()
                .filter(|&set| set & held_mask == held_mask)
                .collect::<Vec<u64>>()
        });
        let of_digit = |d: usize| -> Vec<u32> {
            free.iter()
                .map(|&c| var_of[c * n + d - 1])
                .filter(|&v| v != u32::MAX)
                .collect()
        };
        match combos {
            Some(combos) if combos.is_empty() => Err(ModelBuildError::Infeasible(format!(
                "no set of digits completes cage {}",
                k + 1
            ))),
            Some(combos) => {
                self.cage_set_rows(k as u32, &combos, held, of_digit);
                Ok(())
            }
            None => {
                let all: Vec<u32> = free
                    .iter()
                    .flat_map(|&c| &var_of[c * n..(c + 1) * n])
                    .copied()
                    .filter(|&v| v != u32::MAX)
                    .collect();
                self.cage_sum_rows(k as u32, all, rest, of_digit);
                Ok(())
            }
        }
    }

    /// A binary `z(cage, j)` per digit set `combos[j]` of the cage, exactly one chosen, and each
    /// digit not `held` by a fixed cell among the free cells (`of_digit`) as often as the chosen
    /// set holds it.
    fn cage_set_rows(
        &mut self,
        cage: u32,
        combos: &[u64],
        held: &[bool],
        of_digit: impl Fn(usize) -> Vec<u32>,
    ) {
        let z0 = (self.vars.len() + self.sets.len()) as u32;
        self.sets
            .extend((0..combos.len() as u32).map(|j| (cage, j)));
        self.rows.push(Row::exactly_one(
            RowKind::CageSet { cage },
            (z0..z0 + combos.len() as u32).collect(),
        ));
        for digit in (1..=self.n).filter(|&d| !held[d]) {
            let xs = of_digit(digit);
            let zs: Vec<u32> = (0..combos.len() as u32)
                .filter(|&j| combos[j as usize] >> (digit - 1) & 1 != 0)
                .map(|j| z0 + j)
                .collect();
            let mut coef = vec![1; xs.len()];
            coef.resize(xs.len() + zs.len(), -1);
            self.rows.push(Row {
                kind: RowKind::CageDigit {
                    cage,
                    digit: digit as Value,
                },
                vars: xs.into_iter().chain(zs).collect(),
                coef,
                sense: Sense::Eq,
                rhs: 0,
            });
        }
    }

    /// Each digit at most once among the cage's free cells (`of_digit`), and the digits of its
    /// variables `all` adding up to `rest`, the sum less the fixed cells' digits.
    fn cage_sum_rows(
        &mut self,
        cage: u32,
        all: Vec<u32>,
        rest: i64,
        of_digit: impl Fn(usize) -> Vec<u32>,
    ) {
        for digit in 1..=self.n {
            let vs = of_digit(digit);
            if vs.len() > 1 {
                self.rows.push(Row {
                    kind: RowKind::CageDigit {
                        cage,
                        digit: digit as Value,
                    },
                    coef: vec![1; vs.len()],
                    vars: vs,
                    sense: Sense::AtMost,
                    rhs: 1,
                });
            }
        }
        self.rows.push(Row {
            kind: RowKind::CageSum { cage },
            coef: all
                .iter()
                .map(|&v| self.vars[v as usize].digit as i64)
                .collect(),
            vars: all,
            sense: Sense::Eq,
            rhs: rest,
        });
    }

    /// The objective of the weights `w` (see the module documentation): reduced coefficients
    /// `(weight − min weight) × digit`, and the offset that makes the sum the grid's score.
    fn objective_of(&self, w: &[i64]) -> IlpObjective {
        let (n, fixed) = (self.n, &self.fixed);
        let free_w = (0..n * n)
            .filter(|&cell| fixed[cell] == 0)
            .map(|cell| w[cell]);
        let w_min = free_w.min().unwrap_or(0);
        let fixed_score: i64 = (0..n * n).map(|cell| w[cell] * fixed[cell] as i64).sum();
        let fixed_digits: i64 = fixed.iter().map(|&v| v as i64).sum();
        let all_digits = (n * n * (n + 1) / 2) as i64;
        IlpObjective {
            coef: self
                .vars
                .iter()
                .map(|x| (w[x.cell as usize] - w_min) * x.digit as i64)
                .collect(),
            offset: fixed_score + w_min * (all_digits - fixed_digits),
        }
    }

    /// Side of the grid.
    pub fn size(&self) -> usize {
        self.n
    }
    /// Digits of the fixed cells, row-major, 0 for free cells.
    pub fn fixed(&self) -> &[Value] {
        &self.fixed
    }
    /// Number of free cells (cells with variables).
    pub fn free_cells(&self) -> usize {
        self.fixed.iter().filter(|&&v| v == 0).count()
    }
    pub fn vars(&self) -> &[XVar] {
        &self.vars
    }
    /// Every constraint row: cell rows first, then house rows, then cage rows, then the rows of
    /// the variant rules.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }
    /// Every variable: the cell variables, then the cage-set variables, then the sandwiches'
    /// auxiliary variables.
    pub fn n_vars(&self) -> usize {
        self.vars.len() + self.sets.len() + self.aux.len()
    }
    /// The documented name of variable `v`: [`var_name`] for a cell variable, `z_k{cage}_{j}`
    /// (1-based) for the `j`-th digit set of a cage, and for a sandwich's auxiliary variable its
    /// name from [`sandwich_rows`].
    pub fn name(&self, v: usize) -> String {
        match self.vars.get(v) {
            Some(&x) => var_name(self.n, x),
            None => match self.sets.get(v - self.vars.len()) {
                Some(&(cage, j)) => format!("z_k{}_{}", cage + 1, j + 1),
                None => self.aux[v - self.vars.len() - self.sets.len()].clone(),
            },
        }
    }
    pub fn objective(&self) -> Option<&IlpObjective> {
        self.objective.as_ref()
    }

    /// The grid given by the variables at 1 (`ones` yields variable indices). Errors when a free
    /// cell gets no digit or two digits.
    pub fn decode(&self, ones: impl IntoIterator<Item = usize>) -> Result<Grid, DecodeError> {
        let mut cells = self.fixed.clone();
        for v in ones {
            if (self.vars.len()..self.n_vars()).contains(&v) {
                continue; // a cage-set or auxiliary variable
            }
            let x = self.vars.get(v).ok_or(DecodeError::NoVariable(v))?;
            let slot = &mut cells[x.cell as usize];
            if *slot != 0 {
                return Err(DecodeError::TwoDigits(CellAt::of(x.cell, self.n)));
            }
            *slot = x.digit;
        }
        if let Some(cell) = cells.iter().position(|&v| v == 0) {
            return Err(DecodeError::NoDigit(CellAt::of(cell as u32, self.n)));
        }
        Ok(Grid::new(self.n, cells))
    }

    /// The variable indices that encode `grid` (one per free cell), for no-good cuts.
    pub fn encode(&self, grid: &Grid) -> Vec<u32> {
        let g = grid.cells();
        (0..self.vars.len() as u32)
            .filter(|&v| {
                let x = self.vars[v as usize];
                g[x.cell as usize] == x.digit
            })
            .collect()
    }
}

/// The rows of the variant rules (see the module docs) over the variables of `var_of` (one per
/// placement `cell × n + digit − 1`, `u32::MAX` for none) once the `fixed` cells are known.
fn rule_rows(
    rules: &Rules,
    n: usize,
    fixed: &[Value],
    var_of: &[u32],
    rows: &mut Vec<Row>,
) -> Result<(), ModelBuildError> {
    let var = |cell: u32, d: Value| {
        Some(var_of[cell as usize * n + d as usize - 1]).filter(|&v| v != u32::MAX)
    };
    let at = |c: u32| format!("row {}, column {}", c as usize / n + 1, c as usize % n + 1);
    let exact = rules.houses.len();
    for (g, cells) in rules.houses.iter().chain(&rules.distinct).enumerate() {
        for digit in 1..=n as Value {
            if cells.iter().any(|&c| fixed[c as usize] == digit) {
                continue;
            }
            let vs: Vec<u32> = cells.iter().filter_map(|&c| var(c, digit)).collect();
            let kind = RowKind::Group {
                group: g as u32,
                digit,
            };
            if g < exact {
                if vs.is_empty() {
                    return Err(ModelBuildError::Infeasible(format!(
                        "{digit} has no place left in the extra house of {}",
                        at(cells[0])
                    )));
                }
                rows.push(Row::exactly_one(kind, vs));
            } else if vs.len() > 1 {
                rows.push(Row::at_most_one(kind, vs));
            }
        }
    }
    let mut seen: HashSet<Vec<u32>> = HashSet::new();
    for (i, p) in rules.all_pairs().enumerate() {
        if fixed[p.a as usize] != 0 || fixed[p.b as usize] != 0 {
            continue; // the fixed cell's partner lost the digits it forbids
        }
        let forbidden: Vec<(Value, Value)> = p.forbidden(n).collect();
        for (cell, other, first) in [(p.a, p.b, true), (p.b, p.a, false)] {
            for d in 1..=n as Value {
                let Some(own) = var(cell, d) else { continue };
                let mut vs: Vec<u32> = forbidden
                    .iter()
                    .filter_map(|&(x, y)| match first {
                        true => (x == d).then_some(y),
                        false => (y == d).then_some(x),
                    })
                    .filter_map(|e| var(other, e))
                    .collect();
                if vs.is_empty() {
                    continue;
                }
                vs.push(own);
                vs.sort_unstable();
                if seen.insert(vs.clone()) {
                    let kind = RowKind::Pair {
                        pair: i as u32,
                        cell,
                        digit: d,
                    };
                    rows.push(Row::at_most_one(kind, vs));
                }
            }
        }
    }
    Ok(())
}

/// A linear expression over the program's variables: terms and a constant.
#[derive(Clone, Default)]
struct Lin {
    terms: Vec<(u32, i64)>,
    constant: i64,
}

impl Lin {
    fn add(&mut self, other: &Lin, k: i64) {
        self.terms
            .extend(other.terms.iter().map(|&(v, c)| (v, c * k)));
        self.constant += other.constant * k;
    }
    fn var(v: u32) -> Lin {
        Lin {
            terms: vec![(v, 1)],
            constant: 0,
        }
    }
    /// The sum of `parts`.
    fn sum<'a>(parts: impl IntoIterator<Item = &'a Lin>) -> Lin {
        let mut e = Lin::default();
        parts.into_iter().for_each(|p| e.add(p, 1));
        e
    }
}

/// A free cell's digits, each with its variable.
type Digits = Vec<(Value, u32)>;

/// The placements of the program: the 0/1 value of "cell holds d" for the rules' rows.
struct Placements<'a> {
    n: usize,
    fixed: &'a [Value],
    var_of: &'a [u32],
}

impl Placements<'_> {
    /// The digits a free cell may hold, each with its variable (a layer of a sum's flow).
    fn open_digits(&self, cell: u32) -> Digits {
        (1..=self.n as Value)
            .filter_map(|d| self.holds(cell, d).terms.first().map(|t| (d, t.0)))
            .collect()
    }

    /// A variable, or a constant for a fixed cell (or a digit the cell no longer has).
    fn holds(&self, cell: u32, d: Value) -> Lin {
        match self.fixed[cell as usize] {
            0 => match self.var_of[cell as usize * self.n + d as usize - 1] {
                u32::MAX => Lin::default(),
                v => Lin::var(v),
            },
            g => Lin {
                terms: vec![],
                constant: i64::from(g == d),
            },
        }
    }
}

/// The rows of one rule, numbered from 0 under its [`RowKind`], and the auxiliary binaries they
/// use, named and numbered after the program's other variables.
struct RuleRows<'a> {
    kind: Box<dyn Fn(u32) -> RowKind>,
    row: u32,
    first_aux: u32,
    aux: &'a mut Vec<String>,
    rows: &'a mut Vec<Row>,
    /// A row over constants alone (fixed cells) failed.
    broken: bool,
}

impl RuleRows<'_> {
    /// `e` (sense) `rhs`; a row over constants alone is checked here, not written.
    fn push(&mut self, e: Lin, sense: Sense, rhs: i64) {
        if e.terms.is_empty() {
            self.broken |= match sense {
                Sense::Eq => e.constant != rhs,
                Sense::AtMost => e.constant > rhs,
            };
            return;
        }
        self.rows.push(Row {
            kind: (self.kind)(self.row),
            vars: e.terms.iter().map(|t| t.0).collect(),
            coef: e.terms.iter().map(|t| t.1).collect(),
            sense,
            rhs: rhs - e.constant,
        });
        self.row += 1;
    }
    /// `e ≥ rhs`.
    fn at_least(&mut self, e: Lin, rhs: i64) {
        let mut neg = Lin::default();
        neg.add(&e, -1);
        self.push(neg, Sense::AtMost, -rhs);
    }
    /// A new auxiliary binary.
    fn new_var(&mut self, name: String) -> Lin {
        self.aux.push(name);
        Lin::var(self.first_aux + self.aux.len() as u32 - 1)
    }
    /// A new binary named `name` equal to `a ∧ b` for 0/1 expressions `a` and `b`
    /// (`z ≤ a`, `z ≤ b`, `a + b − z ≤ 1`).
    fn and(&mut self, a: &Lin, b: &Lin, name: String) -> Lin {
        let z = self.new_var(name);
        for side in [a, b] {
            let mut e = z.clone();
            e.add(side, -1);
            self.push(e, Sense::AtMost, 0);
        }
        let mut e = Lin::sum([a, b]);
        e.add(&z, -1);
        self.push(e, Sense::AtMost, 1);
        z
    }
}

/// The rows of the sandwiches, quadruples, between and lockout lines, skyscrapers and X-sums
/// (see the functions of each), their auxiliary binaries named after `first_aux`.
fn line_rows(
    rules: &Rules,
    n: usize,
    fixed: &[Value],
    var_of: &[u32],
    first_aux: u32,
    aux: &mut Vec<String>,
    rows: &mut Vec<Row>,
) -> Result<(), ModelBuildError> {
    let at = Placements { n, fixed, var_of };
    // Each rule's rows under its row kind, and an error naming it when its fixed cells break it.
    let mut run = |kind: fn(u32, u32) -> RowKind,
                   what: &str,
                   i: usize,
                   build: &mut dyn FnMut(&mut RuleRows<'_>)| {
        let mut r = RuleRows {
            kind: Box::new(move |row| kind(i as u32, row)),
            row: 0,
            first_aux,
            aux: &mut *aux,
            rows: &mut *rows,
            broken: false,
        };
        build(&mut r);
        match r.broken {
            true => Err(ModelBuildError::Infeasible(format!(
                "the fixed cells break {what} {}",
                i + 1
            ))),
            false => Ok(()),
        }
    };
    for (i, s) in rules.sums.iter().enumerate() {
        let kind = |sum, row| RowKind::Sum { sum, row };
        run(kind, "sum", i, &mut |r| sum_rows(s, &at, i, r))?;
    }
    for (i, w) in rules.sandwiches.iter().enumerate() {
        let kind = |sandwich, row| RowKind::Sandwich { sandwich, row };
        run(kind, "sandwich", i, &mut |r| {
            sandwich_rows(&w.cells, w.sum, &at, i, r)
        })?;
    }
    for (i, c) in rules.contains.iter().enumerate() {
        let kind = |rule, row| RowKind::Quadruple { rule, row };
        run(kind, "quadruple", i, &mut |r| contains_rows(c, &at, r))?;
    }
    for (i, w) in rules.betweens.iter().enumerate() {
        let kind = |rule, row| RowKind::Between { rule, row };
        run(kind, "between line", i, &mut |r| between_rows(w, &at, r))?;
    }
    for (i, e) in rules.skyscrapers.iter().enumerate() {
        let kind = |clue, row| RowKind::Skyscraper { clue, row };
        let what = "skyscraper clue";
        run(kind, what, i, &mut |r| skyscraper_rows(e, &at, i, r))?;
    }
    for (i, e) in rules.xsums.iter().enumerate() {
        let kind = |clue, row| RowKind::XSum { clue, row };
        run(kind, "X-sum clue", i, &mut |r| x_sum_rows(e, &at, i, r))?;
    }
    Ok(())
}

/// Most arcs of a sum's partial-sum flow ([`sum_rows`]); past it, the sum row alone.
pub const MAX_SUM_ARCS: usize = 1_500;

/// A weighted sum `Σ k · digit = rhs` over its cells. Stated as the one row
/// `Σ k · d · x(c, d) = rhs`, its relaxation is weak: halves of two digits average to any value,
/// so the row cuts off almost nothing that one-hot cells do not. Instead, when it has at most
/// [`MAX_SUM_ARCS`] arcs, the sum is a path through the partial sums: the free cells in order
/// (positive and negative coefficients alternating, which keeps the partial sums few), a state
/// per partial sum that the cells before can reach and the cells after can still complete, and
/// an arc binary `f` per (cell, state, digit) leading to a live state (named
/// `sum{s}_c{i}_d{d}_{state}`, a negative state `m…`). Rows: each digit of each cell is the
/// flow of its arcs (`Σ f − x(c, d) = 0`; a digit with no arc is thereby 0), and what enters a
/// state leaves it (`Σ in − Σ out = 0`) for every state between two cells but the last of each
/// layer, which the cell rows imply (every layer carries a flow of 1). This is the convex hull
/// of the one constraint: a fractional point of the relaxation is a mixture of whole paths,
/// each of which meets the sum.
fn sum_rows(s: &LinearSum, at: &Placements<'_>, k: usize, out: &mut RuleRows<'_>) {
    let n = at.n as Value;
    let mut row = Lin::default();
    // The free cells with their coefficients (a repeated cell's added up), fixed ones as constants.
    let mut free: Vec<(u32, i64)> = vec![];
    for &(cell, coef) in &s.terms {
        for d in 1..=n {
            row.add(&at.holds(cell, d), coef * i64::from(d));
        }
        if at.fixed[cell as usize] == 0 {
            match free.iter_mut().find(|(c, _)| *c == cell) {
                Some(f) => f.1 += coef,
                None => free.push((cell, coef)),
            }
        }
    }
    let rest = s.rhs - row.constant;
    let (pos, neg): (Vec<_>, Vec<_>) = free
        .into_iter()
        .filter(|&(_, coef)| coef != 0)
        .partition(|&(_, coef)| coef > 0);
    let mut order = vec![];
    let (mut p, mut q) = (pos.into_iter(), neg.into_iter());
    loop {
        let (a, b) = (p.next(), q.next());
        if a.is_none() && b.is_none() {
            break;
        }
        order.extend(a.into_iter().chain(b));
    }
    let layers: Vec<(i64, Digits)> = order
        .iter()
        .map(|&(c, coef)| (coef, at.open_digits(c)))
        .collect();
    let Some(live) = live_states(&layers, rest) else {
        return out.push(row, Sense::Eq, s.rhs);
    };
    let arcs = |i: usize| {
        let (coef, ds) = &layers[i];
        let (from, to) = (&live[i], &live[i + 1]);
        from.iter().flat_map(move |&st| {
            ds.iter()
                .filter(move |&&(d, _)| to.contains(&(st + coef * i64::from(d))))
                .map(move |&(d, x)| (st, d, x))
        })
    };
    if (0..layers.len()).map(|i| arcs(i).count()).sum::<usize>() > MAX_SUM_ARCS {
        return out.push(row, Sense::Eq, s.rhs);
    }
    // into[st]: the arcs of the previous layer that end in state st of this boundary.
    let mut into: Vec<(i64, Lin)> = vec![];
    for (i, (coef, ds)) in layers.iter().enumerate() {
        let mut of_digit: Vec<Lin> = ds
            .iter()
            .map(|&(_, x)| Lin {
                terms: vec![(x, -1)],
                constant: 0,
            })
            .collect();
        let mut out_of: Vec<(i64, Lin)> = live[i].iter().map(|&st| (st, Lin::default())).collect();
        let mut next: Vec<(i64, Lin)> =
            live[i + 1].iter().map(|&st| (st, Lin::default())).collect();
        for (st, d, _) in arcs(i).collect::<Vec<_>>() {
            let state = |v: i64| match v < 0 {
                true => format!("m{}", -v),
                false => v.to_string(),
            };
            let name = format!("sum{}_c{}_d{d}_{}", k + 1, i + 1, state(st));
            let f = out.new_var(name);
            let j = ds.iter().position(|&(e, _)| e == d).unwrap_or_default();
            of_digit[j].add(&f, 1);
            if let Some(o) = out_of.iter_mut().find(|(s, _)| *s == st) {
                o.1.add(&f, 1);
            }
            let to = st + coef * i64::from(d);
            if let Some(t) = next.iter_mut().find(|(s, _)| *s == to) {
                t.1.add(&f, 1);
            }
        }
        for e in of_digit {
            out.push(e, Sense::Eq, 0);
        }
        // Conservation at the boundary before this layer, the last state left to the cell rows.
        if i > 0 {
            let keep = into.len().saturating_sub(1);
            for ((_, mut e), (_, o)) in into.into_iter().zip(out_of).take(keep) {
                e.add(&o, -1);
                out.push(e, Sense::Eq, 0);
            }
        }
        into = next;
    }
}

/// The states of a layered sum (`layers`: each free cell's coefficient and its digits with their
/// variables) at each boundary, from the empty sum `0` before the first cell to `rest` after the
/// last: the partial sums that the cells before reach and the cells after can still bring to
/// `rest`, each list sorted. `None` when a boundary has none (the sum cannot be met, which the
/// plain row then tells the solver).
fn live_states(layers: &[(i64, Digits)], rest: i64) -> Option<Vec<Vec<i64>>> {
    let step = |from: &[i64], coef: i64, ds: &[(Value, u32)], sign: i64| -> Vec<i64> {
        let mut to: Vec<i64> = from
            .iter()
            .flat_map(|&st| {
                ds.iter()
                    .map(move |&(d, _)| st + sign * coef * i64::from(d))
            })
            .collect();
        to.sort_unstable();
        to.dedup();
        to
    };
    let mut fwd = vec![vec![0]];
    for (coef, ds) in layers {
        let next = step(fwd.last()?, *coef, ds, 1);
        fwd.push(next);
    }
    let mut live = vec![vec![rest]];
    for (coef, ds) in layers.iter().rev() {
        let next = step(live.last()?, *coef, ds, -1);
        live.push(next);
    }
    live.reverse();
    for (l, f) in live.iter_mut().zip(&fwd) {
        l.retain(|st| f.binary_search(st).is_ok());
        if l.is_empty() {
            return None;
        }
    }
    Some(live)
}

/// A sandwich over auxiliary binaries (named `sw{s}_...`, 1-based): for cell `i` of the line,
/// `u(i)` = "a 1 before it and an `n` after it" and `v(i)` the other way round, each the
/// conjunction of two 0/1 counts of the line's ends; `y(i, d)` = "`i` is inside and holds `d`"
/// (`y ≤ u + v`, `y ≤ x(i, d)`, `u + v + x(i, d) − y ≤ 1`); and `Σ d · y(i, d) = clue` (a fixed
/// inside digit `g` adds `g · (u + v)`).
fn sandwich_rows(cells: &[u32], clue: u32, at: &Placements<'_>, s: usize, out: &mut RuleRows<'_>) {
    let (n, fixed, holds) = (at.n, at.fixed, |c, d| at.holds(c, d));
    // A line of fixed cells is checked here: with no free cell the program has nothing to say
    // about it (and a program without cell variables is not solved at all).
    if cells.iter().all(|&c| fixed[c as usize] != 0) {
        let digits: Vec<u32> = cells.iter().map(|&c| fixed[c as usize] as u32).collect();
        out.broken |= sandwiched(&digits, n as u32) != Some(clue);
        return;
    }
    let top = n as Value;
    let count = |range: &[u32], d: Value| -> Lin {
        let parts: Vec<Lin> = range.iter().map(|&o| holds(o, d)).collect();
        Lin::sum(&parts)
    };
    let mut sum = Lin::default();
    for (i, &c) in cells.iter().enumerate() {
        let (before, after) = (&cells[..i], &cells[i + 1..]);
        let label = |what: &str| format!("sw{}_{what}{}", s + 1, i + 1);
        let u = out.and(&count(before, 1), &count(after, top), label("u"));
        let v = out.and(&count(before, top), &count(after, 1), label("v"));
        let inside = Lin::sum([&u, &v]);
        match fixed[c as usize] {
            0 => {
                for d in 2..top {
                    let x = holds(c, d);
                    if x.terms.is_empty() {
                        continue;
                    }
                    let y = out.and(&inside, &x, format!("sw{}_y{}_d{d}", s + 1, i + 1));
                    sum.add(&y, i64::from(d));
                }
            }
            g => sum.add(&inside, i64::from(g)),
        }
    }
    out.push(sum, Sense::Eq, i64::from(clue));
}

/// A quadruple: each digit listed `k` times in at least `k` of its cells (`Σ x(c, d) ≥ k`).
fn contains_rows(c: &Contains, at: &Placements<'_>, out: &mut RuleRows<'_>) {
    let holds = |c, d| at.holds(c, d);
    let mut listed = c.digits.clone();
    listed.sort_unstable();
    for run in listed.chunk_by(|x, y| x == y) {
        let parts: Vec<Lin> = c
            .cells
            .iter()
            .map(|&cell| holds(cell, run[0] as Value))
            .collect();
        out.at_least(Lin::sum(&parts), run.len() as i64);
    }
}

/// A between or lockout line: for each inner cell and each pair of end digits `(x, y)`,
/// `x(a, x) + x(b, y) − Σ x(c, d) ≤ 1` over the digits `d` the cell may then hold (no row when
/// it may hold every digit). Those rows bite only when both ends are whole, so each inner digit
/// also gets the rows of [`between_bounds`].
fn between_rows(w: &Between, at: &Placements<'_>, out: &mut RuleRows<'_>) {
    between_bounds(w, at, out);
    let (n, holds) = (at.n, |c, d| at.holds(c, d));
    for x in 1..=n as Value {
        let xa = holds(w.a, x);
        for y in 1..=n as Value {
            let yb = holds(w.b, y);
            if xa.terms.is_empty() && xa.constant == 0 || yb.terms.is_empty() && yb.constant == 0 {
                continue;
            }
            for &c in &w.cells {
                let allowed = (1..=n as Value).filter(|&d| w.allows(x as u32, y as u32, d as u32));
                let inner: Vec<Lin> = allowed.map(|d| holds(c, d)).collect();
                if inner.len() == n {
                    continue;
                }
                let mut e = Lin::sum([&xa, &yb]);
                e.add(&Lin::sum(&inner), -1);
                out.push(e, Sense::AtMost, 1);
            }
        }
    }
}

/// For each inner cell `c` and digit `d`, and each pair of end ranges `A × B` among `≤ d`
/// and `≥ d` that the rule forbids entirely with `d` in `c` (for a lockout line `a ≤ d ≤ b` and
/// `a ≥ d ≥ b`; for a between line both ends on one side of `d`):
/// `x(c, d) + Σ_{x ∈ A} x(a, x) + Σ_{y ∈ B} x(b, y) ≤ 2`. At the root the ends spread over
/// several digits, and a row that adds up all the digits of a range still cuts off the
/// fractional points where the pair rows above all hold.
fn between_bounds(w: &Between, at: &Placements<'_>, out: &mut RuleRows<'_>) {
    let (n, holds) = (at.n as Value, |c, d| at.holds(c, d));
    let range = |cell: u32, low: bool, d: Value| -> Vec<Lin> {
        let digits = if low { 1..=d } else { d..=n };
        digits.map(|e| holds(cell, e)).collect()
    };
    for &c in &w.cells {
        for d in 1..=n {
            let x = holds(c, d);
            if x.terms.is_empty() && x.constant == 0 {
                continue;
            }
            for (a_low, b_low) in [(true, false), (false, true), (true, true), (false, false)] {
                let side = |low: bool| if low { 1..=d } else { d..=n };
                let forbidden = side(a_low)
                    .all(|p| side(b_low).all(|q| !w.allows(p as u32, q as u32, d as u32)));
                if forbidden {
                    let (ra, rb) = (range(w.a, a_low, d), range(w.b, b_low, d));
                    let e = Lin::sum(std::iter::once(&x).chain(&ra).chain(&rb));
                    out.push(e, Sense::AtMost, 2);
                }
            }
        }
    }
}

/// A skyscraper clue over a binary `s(i)` per cell after the first (named `sky{k}_s{i}`):
/// `s(i) + x(i, d) + Σ_{e > d} x(j, e) ≤ 2` for each earlier cell `j` (a taller one hides it),
/// `x(i, d) − s(i) − Σ_{j < i} Σ_{e > d} x(j, e) ≤ 0` (none taller: seen), and
/// `1 + Σ s(i) = value` (the first cell is always seen).
fn skyscraper_rows(clue: &EdgeLine, at: &Placements<'_>, k: usize, out: &mut RuleRows<'_>) {
    let (n, holds) = (at.n, |c, d| at.holds(c, d));
    let (cells, value) = (&clue.cells, clue.value);
    let taller = |j: u32, d: Value| -> Lin {
        let parts: Vec<Lin> = (d + 1..=n as Value).map(|e| holds(j, e)).collect();
        Lin::sum(&parts)
    };
    let mut seen = Lin {
        terms: vec![],
        constant: 1,
    };
    for (i, &c) in cells.iter().enumerate().skip(1) {
        let s = out.new_var(format!("sky{}_s{}", k + 1, i + 1));
        for d in 1..=n as Value {
            let x = holds(c, d);
            if x.terms.is_empty() && x.constant == 0 {
                continue;
            }
            let mut hidden = Lin::default();
            for &j in &cells[..i] {
                let t = taller(j, d);
                out.push(Lin::sum([&s, &x, &t]), Sense::AtMost, 2);
                hidden.add(&t, 1);
            }
            let mut e = x;
            e.add(&s, -1);
            e.add(&hidden, -1);
            out.push(e, Sense::AtMost, 0);
        }
        seen.add(&s, 1);
    }
    out.push(seen, Sense::Eq, i64::from(value));
}

/// Most arcs of an X-sum clue's flows ([`x_sum_flows`], over all its lengths); past it, the
/// clue's rows over `in ∧ x` alone.
pub const MAX_X_SUM_ARCS: usize = 3_000;

/// An X-sum clue: with at most [`MAX_X_SUM_ARCS`] arcs, one partial-sum flow per length
/// ([`x_sum_flows`]); else `in(i) = Σ_{X > i} x(first, X)` says whether cell `i` (from 0) is
/// among the first `X`, `y(i, d) = in(i) ∧ x(i, d)` (named `xs{k}_y{i}_d{d}`, as a sandwich's),
/// and `Σ X · x(first, X) + Σ_{i ≥ 1} d · y(i, d) = value`: with the first cell's digit
/// fractional, `in` is fractional and `y` may take any value between, so that row holds at the
/// root for almost any spread of the digits.
fn x_sum_rows(clue: &EdgeLine, at: &Placements<'_>, k: usize, out: &mut RuleRows<'_>) {
    if x_sum_flows(clue, at, k, out) {
        return;
    }
    let holds = |c, d| at.holds(c, d);
    let (n, cells, value) = (at.n, &clue.cells, clue.value);
    let first = cells[0];
    let mut sum = Lin::default();
    for x in 1..=n as Value {
        sum.add(&holds(first, x), i64::from(x));
    }
    for (i, &c) in cells.iter().enumerate().skip(1) {
        let counted: Vec<Lin> = (i as Value + 1..=n as Value)
            .map(|x| holds(first, x))
            .collect();
        let inside = Lin::sum(&counted);
        for d in 1..=n as Value {
            let x = holds(c, d);
            if x.terms.is_empty() {
                sum.add(&inside, i64::from(d) * x.constant);
                continue;
            }
            let y = out.and(&inside, &x, format!("xs{}_y{}_d{d}", k + 1, i + 1));
            sum.add(&y, i64::from(d));
        }
    }
    out.push(sum, Sense::Eq, i64::from(value));
}

/// An X-sum clue as one path through partial sums per length `X` (the first cell's digit): a
/// source of flow `x(first, X)` that runs through the next `X − 1` cells, an arc binary per
/// (length, cell, partial sum, digit) leading to a state from which the sum can still reach
/// `value − X` (named `xs{k}_l{X}_c{i}_d{d}_{state}`), what enters a state leaving it, and for
/// each cell and digit the arcs of every length at most `x(c, d)` (one length is taken, and its
/// path puts one digit in each of its cells). A length whose sum cannot be met gets
/// `x(first, X) = 0`. Each length's flow is the convex hull of its sum, so the relaxation no
/// longer averages a short and a long reading. Returns false, writing nothing, when the flows
/// would pass [`MAX_X_SUM_ARCS`].
fn x_sum_flows(clue: &EdgeLine, at: &Placements<'_>, k: usize, out: &mut RuleRows<'_>) -> bool {
    let n = at.n as Value;
    let (cells, value) = (&clue.cells, i64::from(clue.value));
    let first = cells[0];
    // Per length: the layers (free cells with their digits' variables) and the sum they owe.
    let mut lengths = vec![];
    let mut arcs_total = 0;
    for x in 1..=n {
        let head = at.holds(first, x);
        if head.terms.is_empty() && head.constant == 0 {
            continue;
        }
        let mut rest = value - i64::from(x);
        let mut layers: Vec<(usize, u32, Digits)> = vec![];
        for (pos, &c) in cells.iter().enumerate().take(x as usize).skip(1) {
            match at.fixed[c as usize] {
                0 => layers.push((pos, c, at.open_digits(c))),
                g => rest -= i64::from(g),
            }
        }
        let unit: Vec<(i64, Digits)> = layers.iter().map(|(_, _, ds)| (1, ds.clone())).collect();
        let live = match layers.is_empty() {
            true => (rest == 0).then(|| vec![vec![0]]),
            false => live_states(&unit, rest),
        };
        if let Some(live) = &live {
            for (i, (_, _, ds)) in layers.iter().enumerate() {
                for &st in &live[i] {
                    arcs_total += ds
                        .iter()
                        .filter(|&&(d, _)| live[i + 1].contains(&(st + i64::from(d))))
                        .count();
                }
            }
        }
        lengths.push((x, head, layers, live));
    }
    if arcs_total > MAX_X_SUM_ARCS {
        return false;
    }
    // For each free cell and digit, the arcs of every length through it.
    let mut through: Vec<((u32, Value), Lin)> = vec![];
    for (x, head, layers, live) in lengths {
        let Some(live) = live else {
            out.push(head, Sense::AtMost, 0);
            continue;
        };
        // into[j]: the arcs ending in state live[i][j] of the boundary before layer i.
        let mut into: Vec<Lin> = vec![];
        for (i, (pos, c, ds)) in layers.iter().enumerate() {
            let mut out_of: Vec<Lin> = vec![Lin::default(); live[i].len()];
            let mut next: Vec<Lin> = vec![Lin::default(); live[i + 1].len()];
            for (j, &st) in live[i].iter().enumerate() {
                for &(d, xv) in ds {
                    let to = st + i64::from(d);
                    let Ok(t) = live[i + 1].binary_search(&to) else {
                        continue;
                    };
                    let f = out.new_var(format!("xs{}_l{x}_c{}_d{d}_{st}", k + 1, pos + 1));
                    out_of[j].add(&f, 1);
                    next[t].add(&f, 1);
                    match through
                        .iter_mut()
                        .find(|((tc, td), _)| (*tc, *td) == (*c, d))
                    {
                        Some((_, e)) => e.add(&f, 1),
                        None => {
                            let mut e = f.clone();
                            e.add(&Lin::var(xv), -1);
                            through.push(((*c, d), e));
                        }
                    }
                }
            }
            if i == 0 {
                // The source: the flow of this length is its first cell's digit.
                let mut e = out_of.pop().unwrap_or_default();
                e.add(&head, -1);
                out.push(e, Sense::Eq, 0);
            } else {
                for (mut e, o) in into.into_iter().zip(out_of) {
                    e.add(&o, -1);
                    out.push(e, Sense::Eq, 0);
                }
            }
            into = next;
        }
    }
    for (_, e) in through {
        out.push(e, Sense::AtMost, 0);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Shape, Weights};
    use std::sync::Arc;

    fn puzzle(n: usize, givens: &str) -> Puzzle {
        let shape = Arc::new(Shape::standard(n, false).unwrap());
        let g = givens
            .chars()
            .map(|ch| ch.to_digit(10).unwrap_or(0) as Value)
            .collect();
        Puzzle::new(shape, g).unwrap()
    }

    #[test]
    fn empty_4x4_has_all_variables_and_rows() {
        let m = IlpModel::build(&puzzle(4, &".".repeat(16)), false, Reduction::Singles).unwrap();
        assert_eq!(m.vars().len(), 64);
        // 16 cell rows + 12 houses × 4 digits.
        assert_eq!(m.rows().len(), 16 + 48);
        assert!(m.rows().iter().all(|r| r.vars.len() == 4));
    }

    #[test]
    fn givens_remove_variables_and_rows() {
        let p = puzzle(4, "1...............");
        let m = IlpModel::build(&p, false, Reduction::Givens).unwrap();
        // Cell 0 is gone; its 7 peers lose digit 1.
        assert_eq!(m.vars().len(), 64 - 4 - 7);
        assert_eq!(m.free_cells(), 15);
        assert!(!m
            .rows()
            .iter()
            .any(|r| matches!(r.kind, RowKind::House { house: 0, digit: 1 })));
    }

    #[test]
    fn singles_solve_an_easy_puzzle_completely() {
        let p = puzzle(4, ".2343.1221.3432.");
        let m = IlpModel::build(&p, false, Reduction::Singles).unwrap();
        assert_eq!(m.free_cells(), 0);
        assert!(m.vars().is_empty());
        let g = m.decode([]).unwrap();
        crate::check::verify(&p, &g).unwrap();
    }

    #[test]
    fn clashing_givens_are_infeasible() {
        let p = puzzle(4, "11..............");
        assert!(matches!(
            IlpModel::build(&p, false, Reduction::Givens),
            Err(ModelBuildError::Infeasible(_))
        ));
    }

    #[test]
    fn a_thermometer_step_gets_aggregated_rows_and_a_full_sandwich_is_checked() {
        use crate::model::{Constraint, Line, Sandwich};
        let p = puzzle(4, &".".repeat(16))
            .with_constraints(vec![Constraint::Thermo(vec![0, 1])])
            .unwrap();
        let m = IlpModel::build(&p, false, Reduction::Givens).unwrap();
        let pairs: Vec<&Row> = m
            .rows()
            .iter()
            .filter(|r| matches!(r.kind, RowKind::Pair { .. }))
            .collect();
        // The root pass leaves the bulb 1 to 3 and the second cell 2 to 4. Bulb holding 2 or 3:
        // the second cell takes no digit up to it; second cell holding 2 or 3: the bulb takes no
        // digit from it on.
        let names =
            |r: &Row| -> Vec<String> { r.vars.iter().map(|&v| m.name(v as usize)).collect() };
        let all: Vec<Vec<String>> = pairs.iter().map(|r| names(r)).collect();
        assert_eq!(
            all,
            [
                vec!["x_r1c1_d2", "x_r1c2_d2"],
                vec!["x_r1c1_d3", "x_r1c2_d2", "x_r1c2_d3"],
                vec!["x_r1c1_d2", "x_r1c1_d3", "x_r1c2_d2"],
                vec!["x_r1c1_d3", "x_r1c2_d3"],
            ]
        );
        assert!(m
            .vars()
            .iter()
            .all(|x| !matches!((x.cell, x.digit), (0, 4) | (1, 1))));
        assert!(pairs.iter().all(|r| r.sense == Sense::AtMost && r.rhs == 1));
        // A sandwich over fixed cells that misses its clue is infeasible before any solver.
        let sandwich = Constraint::Sandwich(Sandwich {
            line: Line::Row(0),
            sum: 0,
        });
        let p = puzzle(4, &format!("1234{}", ".".repeat(12)))
            .with_constraints(vec![sandwich])
            .unwrap();
        assert!(matches!(
            IlpModel::build(&p, false, Reduction::Givens),
            Err(ModelBuildError::Infeasible(_))
        ));
    }

    #[test]
    fn the_rules_over_several_cells_get_rows_and_fixed_cells_alone_are_checked() {
        use crate::model::{Constraint, EdgeClue, Line};
        let clue = |value| EdgeClue {
            line: Line::Row(1),
            from_end: false,
            value,
        };
        let rules = vec![
            Constraint::Quadruple {
                cells: vec![0, 1, 4, 5],
                digits: vec![1, 2],
            },
            Constraint::Between(vec![8, 9, 10]),
            Constraint::Skyscraper(clue(2)),
            Constraint::XSum(clue(6)),
        ];
        let p = puzzle(4, &".".repeat(16)).with_constraints(rules).unwrap();
        let m = IlpModel::build(&p, false, Reduction::Givens).unwrap();
        let kinds = |pick: fn(&RowKind) -> bool| m.rows().iter().filter(|r| pick(&r.kind)).count();
        // Two listed digits; 16 end pairs less those leaving the middle cell every digit (none),
        // and 12 range rows: for each digit of the middle cell both ends at or below it, both at
        // or above it, and for 1 and 4 (never strictly between) one end on each side as well.
        assert_eq!(kinds(|k| matches!(k, RowKind::Quadruple { .. })), 2);
        assert_eq!(kinds(|k| matches!(k, RowKind::Between { .. })), 16 + 12);
        let names =
            |r: &Row| -> Vec<String> { r.vars.iter().map(|&v| m.name(v as usize)).collect() };
        let both_low = m.rows().iter().find(|r| {
            matches!(r.kind, RowKind::Between { .. }) && r.rhs == 2 && {
                let mut v = names(r);
                v.sort();
                v == [
                    "x_r3c1_d1",
                    "x_r3c1_d2",
                    "x_r3c2_d2",
                    "x_r3c3_d1",
                    "x_r3c3_d2",
                ]
            }
        });
        assert!(
            both_low.is_some(),
            "no row for r3c2 = 2 with both ends at most 2"
        );
        assert!(kinds(|k| matches!(k, RowKind::Skyscraper { .. })) > 0);
        assert!(kinds(|k| matches!(k, RowKind::XSum { .. })) > 0);
        // The X-sum of 6 from r2c1: lengths 2 (r2c2 = 4) and 3 (r2c2 + r2c3 = 3), each a flow.
        let flows: Vec<String> = (0..m.n_vars())
            .map(|v| m.name(v))
            .filter(|s| s.starts_with("xs1_l"))
            .collect();
        assert!(flows.contains(&"xs1_l2_c2_d4_0".to_string()), "{flows:?}");
        assert!(flows.contains(&"xs1_l3_c3_d2_1".to_string()), "{flows:?}");
        assert!(
            flows
                .iter()
                .all(|f| f.starts_with("xs1_l2_") || f.starts_with("xs1_l3_")),
            "{flows:?}"
        );
        // A quadruple whose fixed cells lack its digit is infeasible before any solver.
        let quad = Constraint::Quadruple {
            cells: vec![1, 2, 5, 6],
            digits: vec![4],
        };
        let p = puzzle(4, ".12..31.........")
            .with_constraints(vec![quad])
            .unwrap();
        assert!(matches!(
            IlpModel::build(&p, false, Reduction::Givens),
            Err(ModelBuildError::Infeasible(m)) if m.contains("quadruple 1")
        ));
    }

    #[test]
    fn a_sum_is_a_flow_of_partial_sums_and_an_unreachable_one_a_plain_row() {
        use crate::model::Constraint;
        // r1c1 + r1c2 = r2c1 on an empty 4×4 (a double arrow r1c1 … r2c1 through r1c2 would
        // say it the other way round; the arrow form is the plainest sum).
        let arrow = Constraint::Arrow(crate::model::Arrow {
            circle: vec![4],
            line: vec![0, 1],
        });
        let p = puzzle(4, &".".repeat(16))
            .with_constraints(vec![arrow])
            .unwrap();
        let m = IlpModel::build(&p, false, Reduction::Givens).unwrap();
        let sums: Vec<&Row> = m
            .rows()
            .iter()
            .filter(|r| matches!(r.kind, RowKind::Sum { sum: 0, .. }))
            .collect();
        // Flow rows only: coefficients ±1, each digit of the three cells a row, and arcs named
        // after the sum, cell, digit and state.
        assert!(sums.iter().all(|r| r.coef.iter().all(|c| c.abs() == 1)));
        assert!(sums.iter().all(|r| r.sense == Sense::Eq && r.rhs == 0));
        // Cells in the order r1c1 (+), r2c1 (−), r1c2 (+): partial sums 0 | 1..3 | −3..−1 | 0
        // (those both reachable and completable), so 3 arcs into the first boundary, 6 across
        // the middle (from s down by d to −3..−1) and 3 into the end.
        let arcs = m.n_vars() - m.vars().len();
        assert_eq!(arcs, 3 + 6 + 3);
        assert_eq!(m.name(m.vars().len()), "sum1_c1_d1_0");
        // A sum past every digit's reach keeps its one row (the solver proves it infeasible).
        let far = Constraint::Arrow(crate::model::Arrow {
            circle: vec![4],
            line: vec![0, 1, 2],
        });
        let p = puzzle(4, &format!("....1{}", ".".repeat(11)))
            .with_constraints(vec![far])
            .unwrap();
        let m = IlpModel::build(&p, false, Reduction::Givens).unwrap();
        assert_eq!(m.n_vars(), m.vars().len());
        let sum: Vec<&Row> = m
            .rows()
            .iter()
            .filter(|r| matches!(r.kind, RowKind::Sum { .. }))
            .collect();
        assert_eq!(sum.len(), 1);
        // r1c1 + r1c2 + r1c3 = 1 once the circle's 1 is moved to the right side.
        assert_eq!(sum[0].rhs, 1);
    }

    #[test]
    fn objective_offset_gives_the_score() {
        let p = puzzle(4, "1...............")
            .with_weights(Arc::new(Weights::pyramid(4)))
            .unwrap();
        let m = IlpModel::build(&p, true, Reduction::Givens).unwrap();
        let grid = Grid::new(4, vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]);
        let obj = m.objective().unwrap();
        let ones = m.encode(&grid);
        let value: i64 = obj.offset + ones.iter().map(|&v| obj.coef[v as usize]).sum::<i64>();
        assert_eq!(value, p.weights().unwrap().score(&grid));
        assert_eq!(m.decode(ones.iter().map(|&v| v as usize)).unwrap(), grid);
    }
}
