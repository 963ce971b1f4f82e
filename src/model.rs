//! The shared, solver-free puzzle model: a [`Shape`] (side, regions, extra houses), a [`Puzzle`]
//! (shape + givens + optional constraints + optional per-cell weights) and a [`Grid`] (a filled
//! answer).
//!
//! Most backends see only *houses*: sets of exactly `n` cells that must hold each digit `1..=n`
//! once. Rows, columns, boxes or jigsaw regions, and the optional diagonals are all houses, so such
//! a variant needs no backend change.
//!
//! What houses cannot say goes in the puzzle's [`Constraint`] list: the Killer [`Cage`] (distinct
//! digits with a given sum) and the variant rules of [`variant`] (thermometers, arrows, dots…).
//! A new kind joins the enum and [`ConstraintKind`], the checker ([`crate::check::verify`]) and the
//! backends that take it; the others refuse, by the kind's name, puzzles that carry a kind they
//! do not take (see [`crate::backend::Backend::takes`]). [`lower`] turns the rules into the few
//! forms that backends propagate.
//!
//! Cells are numbered row-major, `cell = row * n + col`, from 0. Digits are `1..=n`; `0` is empty.
//! Houses are numbered rows `0..n`, columns `n..2n`, regions `2n..3n`, then extra houses.

use std::fmt;
use std::sync::Arc;

pub mod dual;
pub mod lower;
pub mod set_equivalence;
pub mod variant;
pub use variant::{
    chess_neighbours, disjoint_groups, exact_param, gap_param, indexed_house, lockout_gap,
    orthogonal_pairs, pill_value, region_segments, whisper_gap, Arrow, Constraint, ConstraintKind,
    Dot, DotFamily, DotRule, EdgeClue, IndexKind, Line, LittleKiller, RuleError, RuleWarning,
    Sandwich,
};

/// A digit in a cell: `1..=n`, or `0` for empty.
pub type Value = u16;

/// Largest side the model accepts (a 1024×1024 grid has about a million cells).
/// Backends may refuse smaller sizes (the bitmask search stops at 64).
pub const MAX_SIZE: usize = 1024;

/// Errors found while building a model. They say what is wrong in model terms (cell, row, column);
/// parsers add file, line and column.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    #[error("side {0} is not supported (1 to {MAX_SIZE})")]
    BadSize(usize),
    #[error("no box shape fits side {0}: give jigsaw regions instead (boxes need r×c = n with 2 ≤ r ≤ c)")]
    NoBoxShape(usize),
    #[error("box shape {rows}×{cols} does not tile a grid of side {n}")]
    BadBoxShape { n: usize, rows: usize, cols: usize },
    #[error("{found} cells given, a grid of side {n} has {expected}")]
    WrongCellCount {
        n: usize,
        expected: usize,
        found: usize,
    },
    #[error("value {value} at row {row}, column {col} is out of range 0..={n}")]
    ValueOutOfRange {
        row: usize,
        col: usize,
        value: usize,
        n: usize,
    },
    #[error("region map invalid: {0}")]
    BadRegions(String),
    #[error("weights invalid: {0}")]
    BadWeights(String),
    #[error("cage {cage}: {message}")]
    BadCage { cage: usize, message: String },
    #[error("{kind} constraint {index}: {problem}")]
    BadConstraint {
        index: usize,
        kind: ConstraintKind,
        problem: RuleError,
    },
}

/// A cell by row and column, both from 1, as messages name it: "row 2, column 5".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellAt {
    pub row: usize,
    pub col: usize,
}

impl CellAt {
    /// Cell `cell` (row-major from 0) of a grid of side `n`.
    pub fn of(cell: u32, n: usize) -> CellAt {
        let c = cell as usize;
        CellAt {
            row: c / n + 1,
            col: c % n + 1,
        }
    }
}

impl fmt::Display for CellAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "row {}, column {}", self.row, self.col)
    }
}

/// A Killer cage: its cells hold distinct digits adding up to `sum`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cage {
    cells: Vec<u32>,
    sum: u32,
}

impl Cage {
    /// A cage over `cells` (row-major indices) with `sum`; checked against a side by
    /// [`Puzzle::with_constraints`].
    pub fn new(cells: Vec<u32>, sum: u32) -> Cage {
        Cage { cells, sum }
    }
    pub fn cells(&self) -> &[u32] {
        &self.cells
    }
    pub fn sum(&self) -> u32 {
        self.sum
    }
    /// The least and greatest sums of `k` distinct digits of `1..=n`; every sum between them is
    /// reached by some set of digits.
    pub fn sum_range(k: usize, n: usize) -> (u32, u32) {
        let (k, n) = (k as u32, n as u32);
        (k * (k + 1) / 2, k * (2 * n + 1 - k) / 2)
    }
    /// Every set of distinct digits of `1..=n`, as many as the cage has cells, adding up to its
    /// sum: digit masks, bit `d - 1` for digit `d`, largest digits first. `None` when there are
    /// more than `most` (large cages of large grids have millions), or when `n > 64`.
    pub fn combinations(&self, n: usize, most: usize) -> Option<Vec<u64>> {
        fn go(top: u32, k: u32, sum: i64, chosen: u64, most: usize, out: &mut Vec<u64>) -> bool {
            if k == 0 {
                if sum == 0 {
                    out.push(chosen);
                }
                return out.len() <= most;
            }
            // The k smallest and the k largest digits of 1..=top bound what they can add up to.
            let (k64, t64) = (k as i64, top as i64);
            if k > top || sum < k64 * (k64 + 1) / 2 || sum > k64 * (2 * t64 - k64 + 1) / 2 {
                return true;
            }
            (1..=top).rev().all(|d| {
                go(
                    d - 1,
                    k - 1,
                    sum - d as i64,
                    chosen | 1 << (d - 1),
                    most,
                    out,
                )
            })
        }
        if n > 64 {
            return None;
        }
        let mut out = vec![];
        let k = self.cells.len() as u32;
        go(n as u32, k, self.sum as i64, 0, most, &mut out).then_some(out)
    }
    /// Whether the cells form one piece (orthogonally connected) in a grid of side `n`.
    pub fn connected(&self, n: usize) -> bool {
        let Some(&first) = self.cells.first() else {
            return true;
        };
        let mut seen = vec![first];
        let mut todo = vec![first];
        while let Some(c) = todo.pop() {
            let (r, col) = (c as usize / n, c as usize % n);
            for &d in &self.cells {
                let (dr, dc) = (d as usize / n, d as usize % n);
                if r.abs_diff(dr) + col.abs_diff(dc) == 1 && !seen.contains(&d) {
                    seen.push(d);
                    todo.push(d);
                }
            }
        }
        seen.len() == self.cells.len()
    }
}

/// How the grid is cut into its third family of houses.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Regions {
    /// Standard boxes of `rows × cols` cells (`rows * cols == n`).
    Boxes { rows: usize, cols: usize },
    /// Jigsaw regions: the region index `0..n` of every cell, row-major.
    Jigsaw(Vec<u32>),
}

/// The geometry of a puzzle: side, regions and every house. Shared between the puzzles of a batch.
///
/// Houses are numbered rows first (`0..n`), then columns (`n..2n`), then regions (`2n..3n`), then
/// the two diagonals when asked for.
///
/// ```
/// use sudoku_lab::model::{Regions, Shape};
///
/// let classic = Shape::standard(9, false).unwrap();
/// assert_eq!((classic.size(), classic.cells(), classic.house_count()), (9, 81, 27));
/// assert_eq!(classic.regions(), &Regions::Boxes { rows: 3, cols: 3 });
///
/// // 6×6 takes 2×3 boxes; X-Sudoku adds the two main diagonals as houses.
/// let x6 = Shape::standard(6, true).unwrap();
/// assert_eq!(x6.regions(), &Regions::Boxes { rows: 2, cols: 3 });
/// assert_eq!(x6.house_count(), 3 * 6 + 2);
///
/// // A jigsaw: the region of every cell, row by row (here a 4×4 with four L-free strips).
/// let strips = Shape::new(4, Regions::Jigsaw(vec![0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]), false);
/// assert!(strips.is_ok());
/// // A side with no box shape (7) needs jigsaw regions.
/// assert!(Shape::standard(7, false).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    n: usize,
    regions: Regions,
    diagonals: bool,
    /// `houses.len() / n` houses of `n` cells each, flat.
    houses: Vec<u32>,
    /// For each cell, the houses containing it: `cell_houses[cell_house_start[c]..cell_house_start[c+1]]`.
    cell_house_start: Vec<u32>,
    cell_houses: Vec<u32>,
    /// On grids of at most 128 cells, each house's cells as a bit set (bit `c` for cell `c`);
    /// empty on larger grids.
    house_bits: Vec<u128>,
}

impl Shape {
    /// The standard box shape for side `n`: `r × c` with `r ≤ c`, `r` as large as possible
    /// (4 → 2×2, 6 → 2×3, 9 → 3×3, 12 → 3×4, 16 → 4×4). `None` when no such shape exists.
    pub fn default_boxes(n: usize) -> Option<(usize, usize)> {
        if n == 1 {
            return Some((1, 1));
        }
        let mut best = None;
        let mut r = 2;
        while r * r <= n {
            if n.is_multiple_of(r) {
                best = Some((r, n / r));
            }
            r += 1;
        }
        best
    }

    /// A grid of side `n` with its standard boxes.
    pub fn standard(n: usize, diagonals: bool) -> Result<Shape, ModelError> {
        check_size(n)?;
        let (rows, cols) = Self::default_boxes(n).ok_or(ModelError::NoBoxShape(n))?;
        Self::new(n, Regions::Boxes { rows, cols }, diagonals)
    }

    /// A grid of side `n` with the given regions and, optionally, both main diagonals as houses.
    pub fn new(n: usize, regions: Regions, diagonals: bool) -> Result<Shape, ModelError> {
        check_size(n)?;
        let region_of: Vec<u32> = match &regions {
            Regions::Boxes { rows, cols } => {
                let (r, c) = (*rows, *cols);
                if r == 0 || c == 0 || r * c != n || !n.is_multiple_of(r) || !n.is_multiple_of(c) {
                    return Err(ModelError::BadBoxShape {
                        n,
                        rows: r,
                        cols: c,
                    });
                }
                (0..n * n)
                    .map(|cell| {
                        let (row, col) = (cell / n, cell % n);
                        ((row / r) * (n / c) + col / c) as u32
                    })
                    .collect()
            }
            Regions::Jigsaw(map) => {
                validate_jigsaw(n, map)?;
                map.clone()
            }
        };
        let extra = if diagonals { 2 } else { 0 };
        let house_count = 3 * n + extra;
        let mut houses = vec![0u32; house_count * n];
        let mut fill = vec![0usize; house_count];
        let mut push = |h: usize, cell: usize, houses: &mut Vec<u32>| {
            houses[h * n + fill[h]] = cell as u32;
            fill[h] += 1;
        };
        for (cell, &region) in region_of.iter().enumerate() {
            let (row, col) = (cell / n, cell % n);
            push(row, cell, &mut houses);
            push(n + col, cell, &mut houses);
            push(2 * n + region as usize, cell, &mut houses);
            if diagonals {
                if row == col {
                    push(3 * n, cell, &mut houses);
                }
                if row + col == n - 1 {
                    push(3 * n + 1, cell, &mut houses);
                }
            }
        }
        let mut per_cell: Vec<Vec<u32>> = vec![Vec::with_capacity(4); n * n];
        for h in 0..house_count {
            for &cell in &houses[h * n..(h + 1) * n] {
                per_cell[cell as usize].push(h as u32);
            }
        }
        let mut cell_house_start = Vec::with_capacity(n * n + 1);
        let mut cell_houses = Vec::with_capacity(n * n * 3 + 2 * n);
        for hs in per_cell {
            cell_house_start.push(cell_houses.len() as u32);
            cell_houses.extend(hs);
        }
        cell_house_start.push(cell_houses.len() as u32);
        let house_bits = match n * n {
            ..=128 => houses
                .chunks_exact(n)
                .map(|h| h.iter().fold(0, |m, &c| m | 1u128 << c))
                .collect(),
            _ => Vec::new(),
        };
        Ok(Shape {
            n,
            regions,
            diagonals,
            houses,
            cell_house_start,
            cell_houses,
            house_bits,
        })
    }

    /// Side of the grid (and number of digits).
    pub fn size(&self) -> usize {
        self.n
    }
    /// Number of cells, `n²`.
    pub fn cells(&self) -> usize {
        self.n * self.n
    }
    pub fn regions(&self) -> &Regions {
        &self.regions
    }
    pub fn diagonals(&self) -> bool {
        self.diagonals
    }
    /// Region index `0..n` of a cell.
    pub fn region_of(&self, cell: usize) -> usize {
        self.houses_of(cell)[2] as usize - 2 * self.n
    }
    /// Number of houses (each holds exactly `n` cells).
    pub fn house_count(&self) -> usize {
        self.houses.len() / self.n
    }
    /// The `n` cells of house `h`.
    pub fn house(&self, h: usize) -> &[u32] {
        &self.houses[h * self.n..(h + 1) * self.n]
    }
    /// The cells of house `h` as a bit set (bit `c` for cell `c`), on grids of at most 128
    /// cells; `None` on larger grids.
    pub fn house_bits(&self, h: usize) -> Option<u128> {
        self.house_bits.get(h).copied()
    }
    /// Every house, in order.
    pub fn houses(&self) -> impl ExactSizeIterator<Item = &[u32]> + '_ {
        self.houses.chunks_exact(self.n)
    }
    /// The houses containing `cell`: its row, column and region first, then any extra houses.
    pub fn houses_of(&self, cell: usize) -> &[u32] {
        let (a, b) = (self.cell_house_start[cell], self.cell_house_start[cell + 1]);
        &self.cell_houses[a as usize..b as usize]
    }
    /// A short human name of a house, e.g. `row 3`, `box 5`, `diagonal 1` (1-based).
    /// `3x3 boxes` or `jigsaw regions`, with `, diagonals` when they are houses (for the headers
    /// of exported models).
    pub fn regions_text(&self) -> String {
        let regions = match self.regions {
            Regions::Boxes { rows, cols } => format!("{rows}x{cols} boxes"),
            Regions::Jigsaw(_) => "jigsaw regions".to_string(),
        };
        match self.diagonals {
            true => format!("{regions}, diagonals"),
            false => regions,
        }
    }
    pub fn house_name(&self, h: usize) -> String {
        let n = self.n;
        let region = match self.regions {
            Regions::Boxes { .. } => "box",
            Regions::Jigsaw(_) => "region",
        };
        match h {
            _ if h < n => format!("row {}", h + 1),
            _ if h < 2 * n => format!("column {}", h - n + 1),
            _ if h < 3 * n => format!("{region} {}", h - 2 * n + 1),
            _ => format!("diagonal {}", h - 3 * n + 1),
        }
    }
}

fn check_size(n: usize) -> Result<(), ModelError> {
    if n == 0 || n > MAX_SIZE {
        Err(ModelError::BadSize(n))
    } else {
        Ok(())
    }
}

fn validate_jigsaw(n: usize, map: &[u32]) -> Result<(), ModelError> {
    if map.len() != n * n {
        return Err(ModelError::BadRegions(format!(
            "{} region labels, expected {}",
            map.len(),
            n * n
        )));
    }
    let mut sizes = vec![0usize; n];
    for (cell, &r) in map.iter().enumerate() {
        if r as usize >= n {
            return Err(ModelError::BadRegions(format!(
                "row {}, column {}: region {} out of range (there are {n} regions)",
                cell / n + 1,
                cell % n + 1,
                r
            )));
        }
        sizes[r as usize] += 1;
    }
    if let Some((r, &s)) = sizes.iter().enumerate().find(|(_, &s)| s != n) {
        return Err(ModelError::BadRegions(format!(
            "region {} has {s} cells, every region needs {n} (n regions of n cells)",
            r + 1
        )));
    }
    Ok(())
}

/// A filled (or partly filled) grid of digits, row-major.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    n: usize,
    cells: Vec<Value>,
}

impl Grid {
    pub fn new(n: usize, cells: Vec<Value>) -> Grid {
        assert_eq!(cells.len(), n * n, "a grid of side n has n² cells");
        Grid { n, cells }
    }
    pub fn size(&self) -> usize {
        self.n
    }
    pub fn cells(&self) -> &[Value] {
        &self.cells
    }
    pub fn get(&self, row: usize, col: usize) -> Value {
        self.cells[row * self.n + col]
    }
    /// The rows of the grid.
    pub fn rows(&self) -> impl Iterator<Item = &[Value]> + '_ {
        self.cells.chunks_exact(self.n)
    }
}

/// A known answer that comes with a puzzle (the `puzzle:count[:solution]` lines of the data
/// sets' `.counts` files): its exact number of solutions and, optionally, one solution.
/// [`crate::task`] holds answers against it (`Expected::contradiction`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expected {
    pub count: u64,
    /// A solution of the puzzle (the reader checks that it is one).
    pub solution: Option<Grid>,
}

/// One symbol for a value in line format: `.` empty, `1`–`9`, then `A`–`Z` for 10–35.
/// Values past 35 have no single symbol (use the grid format); `None` then.
pub fn symbol(v: Value) -> Option<char> {
    match v {
        0 => Some('.'),
        1..=9 => Some((b'0' + v as u8) as char),
        10..=35 => Some((b'A' + (v - 10) as u8) as char),
        _ => None,
    }
}

impl fmt::Display for Grid {
    /// Line format when every value has a symbol, otherwise rows of space-separated numbers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.n <= 35 {
            let line: String = self
                .cells
                .iter()
                .map(|&v| symbol(v).unwrap_or('?'))
                .collect();
            f.write_str(&line)
        } else {
            for (i, row) in self.rows().enumerate() {
                if i > 0 {
                    writeln!(f)?;
                }
                let strs: Vec<String> = row.iter().map(|v| v.to_string()).collect();
                write!(f, "{}", strs.join(" "))?;
            }
            Ok(())
        }
    }
}

/// Integer weight per cell; the score of a grid is `Σ weight(cell) × digit(cell)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weights(Vec<i64>);

impl Weights {
    /// NOIP 2009 "pyramid" (靶形数独): `6 + min(r, c, n−1−r, n−1−c)`, 6 on the border ring up to 10 in
    /// the centre of a 9×9.
    pub fn pyramid(n: usize) -> Weights {
        Weights(
            (0..n * n)
                .map(|cell| {
                    let (r, c) = (cell / n, cell % n);
                    6 + r.min(c).min(n - 1 - r).min(n - 1 - c) as i64
                })
                .collect(),
        )
    }
    /// Whether `w` may be a weight: at most 2^40 either way, which keeps every score well inside
    /// `i64`.
    pub fn in_range(w: i64) -> bool {
        w.unsigned_abs() <= 1 << 40
    }
    /// The message for a weight that is not [`Weights::in_range`].
    pub fn out_of_range(w: impl std::fmt::Display) -> String {
        format!("weight {w} is out of range (limit ±2^40)")
    }
    pub fn new(n: usize, weights: Vec<i64>) -> Result<Weights, ModelError> {
        if weights.len() != n * n {
            return Err(ModelError::BadWeights(format!(
                "{} weights, a grid of side {n} needs {}",
                weights.len(),
                n * n
            )));
        }
        if let Some(&w) = weights.iter().find(|&&w| !Weights::in_range(w)) {
            return Err(ModelError::BadWeights(Weights::out_of_range(w)));
        }
        Ok(Weights(weights))
    }
    pub fn as_slice(&self) -> &[i64] {
        &self.0
    }
    /// `Σ weight(cell) × digit(cell)` over the cells of `grid` (empty cells count 0).
    pub fn score(&self, grid: &Grid) -> i64 {
        self.0
            .iter()
            .zip(grid.cells())
            .map(|(&w, &v)| w * v as i64)
            .sum()
    }
}

/// A puzzle: a shape, the givens (0 = empty) and optional weights for `optimize`.
///
/// ```
/// use std::sync::Arc;
/// use sudoku_lab::model::{Puzzle, Shape, Weights};
///
/// let shape = Arc::new(Shape::standard(9, false).unwrap());
/// // Givens row by row, 0 for empty; clashing givens are allowed (the puzzle has no solution).
/// let puzzle = Puzzle::new(shape.clone(), vec![0; 81]).unwrap();
/// // Weights for `optimize`: NOIP 2009's pyramid, 6 on the border up to 10 in the centre.
/// let weighted = puzzle.with_weights(Arc::new(Weights::pyramid(9))).unwrap();
/// assert_eq!(weighted.weights().unwrap().as_slice()[40], 10);
///
/// // Wrong cell counts and out-of-range digits are errors that name the cell.
/// assert!(Puzzle::new(shape.clone(), vec![0; 80]).is_err());
/// let mut givens = vec![0; 81];
/// givens[10] = 10;
/// let e = Puzzle::new(shape, givens).unwrap_err();
/// assert!(e.to_string().contains("row 2"), "{e}");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    shape: Arc<Shape>,
    givens: Vec<Value>,
    constraints: Arc<[Constraint]>,
    weights: Option<Arc<Weights>>,
}

impl Puzzle {
    /// Checks that there are `n²` givens, each in `0..=n`. Givens that clash (a digit twice in a
    /// house) are allowed: such a puzzle is valid and simply has no solution.
    pub fn new(shape: Arc<Shape>, givens: Vec<Value>) -> Result<Puzzle, ModelError> {
        let n = shape.size();
        if givens.len() != n * n {
            return Err(ModelError::WrongCellCount {
                n,
                expected: n * n,
                found: givens.len(),
            });
        }
        if let Some((cell, &v)) = givens.iter().enumerate().find(|(_, &v)| v as usize > n) {
            return Err(ModelError::ValueOutOfRange {
                row: cell / n + 1,
                col: cell % n + 1,
                value: v as usize,
                n,
            });
        }
        Ok(Puzzle {
            shape,
            givens,
            constraints: Arc::new([]),
            weights: None,
        })
    }
    /// The same puzzle with `constraints` (replacing any it had). Each cage has 1 to `n` distinct
    /// cells of the grid; no cell is in two cages. Every other rule is checked against the shape
    /// (cells in the grid, lines that touch, dots between neighbours). Givens that break a rule
    /// are allowed (they make the puzzle unsolvable, not invalid), and so are parameters out of
    /// the digits' reach ([`Puzzle::rule_warnings`] lists them).
    pub fn with_constraints(mut self, constraints: Vec<Constraint>) -> Result<Puzzle, ModelError> {
        let n = self.size();
        let mut owner = vec![usize::MAX; n * n];
        let cages = constraints.iter().filter_map(|c| match c {
            Constraint::Cage(cage) => Some(cage),
            _ => None,
        });
        for (i, cage) in cages.enumerate() {
            let bad = |message: String| ModelError::BadCage {
                cage: i + 1,
                message,
            };
            let k = cage.cells.len();
            if k == 0 || k > n {
                return Err(bad(format!(
                    "{k} cells: a cage holds 1 to {n} cells (its digits are distinct)"
                )));
            }
            for &c in &cage.cells {
                let c = c as usize;
                if c >= n * n {
                    return Err(bad(format!("cell index {c} is outside the grid")));
                }
                if owner[c] != usize::MAX {
                    let what = if owner[c] == i {
                        "twice".to_string()
                    } else {
                        format!("also in cage {}", owner[c] + 1)
                    };
                    return Err(bad(format!(
                        "the cell at row {}, column {} is {what}",
                        c / n + 1,
                        c % n + 1
                    )));
                }
                owner[c] = i;
            }
        }
        for kind in ConstraintKind::ALL {
            let of_kind = constraints.iter().filter(|c| c.kind() == kind);
            for (i, c) in of_kind.enumerate() {
                variant::validate(c, &self.shape).map_err(|problem| ModelError::BadConstraint {
                    index: i + 1,
                    kind,
                    problem,
                })?;
            }
        }
        self.constraints = constraints.into();
        Ok(self)
    }
    /// The rules whose parameter no digits meet (a cage sum past what its cells reach, a ratio
    /// past `n`, …: the puzzle has no solution) or asks nothing (a whisper gap of 0), in the order of [`Puzzle::constraints`]. They are not input errors:
    /// fuzzers and setters' typos make such puzzles, and every backend answers them. Readers
    /// turn them into warnings that say where the rule is.
    pub fn rule_warnings(&self) -> Vec<RuleWarning> {
        let n = self.size();
        let mut index = std::collections::HashMap::new();
        let mut out = vec![];
        for (position, c) in self.constraints.iter().enumerate() {
            let kind = c.kind();
            let i = index.entry(kind).or_insert(0usize);
            *i += 1;
            if let Some((unsatisfiable, message)) = variant::out_of_reach(c, n) {
                out.push(RuleWarning {
                    position,
                    kind,
                    index: *i,
                    unsatisfiable,
                    message,
                });
            }
        }
        out
    }
    /// The rules beyond the houses (empty for a plain Sudoku).
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }
    /// The kind of the first rule beyond houses and Killer cages, if any: what a consumer that
    /// holds only those (the line format, the integer program) refuses by name.
    pub fn variant_kind(&self) -> Option<ConstraintKind> {
        self.constraints
            .iter()
            .map(|c| c.kind())
            .find(|&k| k != ConstraintKind::Killer)
    }
    /// The Killer cages among the constraints.
    pub fn cages(&self) -> impl Iterator<Item = &Cage> + '_ {
        self.constraints.iter().filter_map(|c| match c {
            Constraint::Cage(cage) => Some(cage),
            _ => None,
        })
    }
    /// The same puzzle with weights attached (replacing any it had).
    pub fn with_weights(mut self, weights: Arc<Weights>) -> Result<Puzzle, ModelError> {
        if weights.as_slice().len() != self.shape.cells() {
            return Err(ModelError::BadWeights(format!(
                "{} weights for a grid of {} cells",
                weights.as_slice().len(),
                self.shape.cells()
            )));
        }
        self.weights = Some(weights);
        Ok(self)
    }
    pub fn shape(&self) -> &Shape {
        &self.shape
    }
    pub fn shape_arc(&self) -> &Arc<Shape> {
        &self.shape
    }
    pub fn size(&self) -> usize {
        self.shape.size()
    }
    /// Givens row-major, `0` for empty.
    pub fn givens(&self) -> &[Value] {
        &self.givens
    }
    pub fn weights(&self) -> Option<&Weights> {
        self.weights.as_deref()
    }
    /// The givens as a (partial) grid.
    pub fn givens_grid(&self) -> Grid {
        Grid::new(self.size(), self.givens.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cage_combinations() {
        let masks = |cells: usize, sum: u32| {
            Cage::new((0..cells as u32).collect(), sum)
                .combinations(9, 1000)
                .unwrap()
        };
        assert_eq!(masks(2, 3), vec![0b11]); // 1 + 2
        assert_eq!(masks(3, 15).len(), 8); // the lines of the 3×3 magic square
        assert_eq!(masks(9, 45), vec![0x1ff]);
        assert!(masks(2, 18).is_empty()); // 9 + 9 is not two distinct digits
        assert_eq!(Cage::new(vec![0, 1, 2, 3], 20).combinations(9, 3), None);
    }

    #[test]
    fn default_box_shapes() {
        assert_eq!(Shape::default_boxes(4), Some((2, 2)));
        assert_eq!(Shape::default_boxes(6), Some((2, 3)));
        assert_eq!(Shape::default_boxes(9), Some((3, 3)));
        assert_eq!(Shape::default_boxes(12), Some((3, 4)));
        assert_eq!(Shape::default_boxes(16), Some((4, 4)));
        assert_eq!(Shape::default_boxes(7), None);
        assert_eq!(Shape::default_boxes(10), Some((2, 5)));
        assert!(matches!(
            Shape::standard(7, false),
            Err(ModelError::NoBoxShape(7))
        ));
    }

    #[test]
    fn houses_of_a_9x9() {
        let s = Shape::standard(9, true).unwrap();
        assert_eq!(s.house_count(), 29);
        assert_eq!(s.house(0), &[0, 1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(s.house(9), &[0, 9, 18, 27, 36, 45, 54, 63, 72]);
        assert_eq!(s.house(18 + 4), &[30, 31, 32, 39, 40, 41, 48, 49, 50]);
        assert_eq!(s.houses_of(40), &[4, 13, 22, 27, 28]); // centre: both diagonals
        assert_eq!(s.houses_of(1).len(), 3);
        assert_eq!(s.region_of(80), 8);
        for h in s.houses() {
            let mut v = h.to_vec();
            v.sort();
            v.dedup();
            assert_eq!(v.len(), 9);
        }
    }

    #[test]
    fn rectangular_boxes() {
        let s = Shape::standard(6, false).unwrap();
        // 2 rows × 3 columns: box 1 is rows 0-1, columns 0-2.
        assert_eq!(s.house(12), &[0, 1, 2, 6, 7, 8]);
        assert_eq!(s.house(13), &[3, 4, 5, 9, 10, 11]);
    }

    #[test]
    fn jigsaw_validation() {
        let ok: Vec<u32> = vec![0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3];
        assert!(Shape::new(4, Regions::Jigsaw(ok), false).is_ok());
        let bad_size: Vec<u32> = vec![0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3];
        assert!(matches!(
            Shape::new(4, Regions::Jigsaw(bad_size), false),
            Err(ModelError::BadRegions(_))
        ));
        let out_of_range: Vec<u32> = vec![0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 4];
        assert!(Shape::new(4, Regions::Jigsaw(out_of_range), false).is_err());
        assert!(Shape::new(4, Regions::Jigsaw(vec![0; 3]), false).is_err());
    }

    #[test]
    fn pyramid_weights() {
        let w = Weights::pyramid(9);
        assert_eq!(w.as_slice()[0], 6);
        assert_eq!(w.as_slice()[40], 10);
        assert_eq!(w.as_slice()[10], 7);
        assert_eq!(
            w.as_slice().iter().sum::<i64>(),
            6 * 32 + 7 * 24 + 8 * 16 + 9 * 8 + 10
        );
    }

    #[test]
    fn puzzle_validation() {
        let s = Arc::new(Shape::standard(4, false).unwrap());
        assert!(Puzzle::new(s.clone(), vec![0; 16]).is_ok());
        assert!(matches!(
            Puzzle::new(s.clone(), vec![0; 15]),
            Err(ModelError::WrongCellCount { .. })
        ));
        let mut g = vec![0; 16];
        g[5] = 5;
        assert_eq!(
            Puzzle::new(s, g),
            Err(ModelError::ValueOutOfRange {
                row: 2,
                col: 2,
                value: 5,
                n: 4
            })
        );
    }
}
