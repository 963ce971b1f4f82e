//! Reading a model back as a grid ([`Decoder`]), checked when an external solver gave it.

use super::*;

/// Maps a model back to a grid, and names the literal of each free cell's digits.
#[derive(Debug, Clone)]
pub struct Decoder {
    pub(super) n: usize,
    /// Givens and the digits fixed by simplification (0 for free cells).
    pub(super) givens: Vec<Value>,
    /// Free `(variable, digit)` pairs of cell `c`: `cands[start[c]..start[c + 1]]`.
    pub(super) start: Vec<u32>,
    pub(super) cands: Vec<(Var, Value)>,
    /// Cells left undecided by simplification (those with at least one free variable).
    pub(super) free_cells: Vec<u32>,
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
    pub fn decode_checked(&self, values: &[Option<bool>]) -> Result<Grid, ModelMismatch> {
        let value = |v: Var| values.get(v.idx()).copied().flatten() == Some(true);
        for &c in &self.free_cells {
            let digits = self
                .candidates(c as usize)
                .iter()
                .filter(|&&(v, _)| value(v))
                .count();
            if digits != 1 {
                return Err(ModelMismatch::Digits {
                    digits,
                    cell: c as usize,
                    row: c as usize / self.n + 1,
                    col: c as usize % self.n + 1,
                });
            }
        }
        let grid = self.decode(value);
        match grid.cells().iter().position(|&d| d == 0) {
            Some(cell) => Err(ModelMismatch::Empty { cell }),
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

/// An external solver's model that is not a grid ([`Decoder::decode_checked`]). Cells are
/// row-major from 0; rows and columns from 1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelMismatch {
    #[error("its model puts {digits} digits in cell {cell} (row {row}, column {col}), expected exactly one")]
    Digits {
        digits: usize,
        cell: usize,
        row: usize,
        col: usize,
    },
    #[error("its model leaves cell {cell} empty")]
    Empty { cell: usize },
}
