//! Random full grids: a randomised backtracking search over the houses of a shape and the global
//! variant rules (anti-knight, anti-king, disjoint groups, non-consecutive), with a node limit.
//!
//! The rules are not restated here: the model lowers them ([`Rules::of`]) to extra houses (disjoint
//! groups) and pair relations between two cells (anti-knight and anti-king: different digits;
//! non-consecutive: not a difference of one), and the search reads each pair's rule through
//! [`crate::model::lower::PairRule::allows`]. Every grid found is then passed through the independent checker
//! ([`check::verify`]) with the rules, so a wrong table here is a reported error, never a wrong
//! grid.
//!
//! The search picks a cell with fewest candidates (ties: the earliest in a random order), or a
//! hidden single; digits are tried in random order. It gives up after [`Fill::budget`] nodes and
//! restarts with a fresh random order; [`try_fill`] bounds the restarts, so every call ends.
//! The search depends on nothing but the random stream: the same stream gives the same grid.

use std::sync::Arc;

use crate::check::{self, CheckFailure};
use crate::model::lower::Rules;
use crate::model::{Constraint, Grid, Puzzle, Shape, Value};
use crate::rng::GenRng;

use super::{GenerateError, MAX_GENERATE_SIDE};

/// Full-grid search: restarts (fresh random order) before giving up on one shape.
pub const FILL_RESTARTS: usize = 200;

/// A random full grid of `shape` (any regions, diagonals included), verified by the checker.
/// Errors when none is found within the restart budget (for example a shape without one).
pub fn full_grid(shape: &Shape, rng: &mut GenRng) -> Result<Grid, GenerateError> {
    let plan = Plan::new(&Arc::new(shape.clone()), &[])?;
    try_fill(&plan, rng, FILL_RESTARTS)?.ok_or(GenerateError::NoFullGrid {
        n: shape.size(),
        attempts: FILL_RESTARTS,
    })
}

/// What a full grid must keep: the shape's houses and the global `rules`, as the model lowers
/// them, and the empty puzzle the checker verifies each grid against.
pub struct Plan {
    n: usize,
    /// The shape's houses, then the rules' (every one of `n` cells).
    houses: Vec<Vec<u32>>,
    /// The houses of each cell.
    houses_of: Vec<Vec<u32>>,
    /// Per cell, `(other cell, offset)`: `forbid[offset + v]` masks the digits this cell may not
    /// hold while the other cell holds `v`.
    links: Vec<Vec<(u32, u32)>>,
    forbid: Vec<u64>,
    /// The shape with the rules and no givens.
    empty: Puzzle,
}

impl Plan {
    /// The plan of `shape` under `rules`, which must be global rules (no cells of their own):
    /// any other kind is refused with [`GenerateError::Internal`].
    pub fn new(shape: &Arc<Shape>, rules: &[Constraint]) -> Result<Plan, GenerateError> {
        let n = shape.size();
        if n == 0 || n > MAX_GENERATE_SIDE {
            return Err(GenerateError::BadSize(n));
        }
        let empty = Puzzle::new(shape.clone(), vec![0; n * n])?.with_constraints(rules.to_vec())?;
        let lowered = Rules::of(&empty);
        let others = !lowered.distinct.is_empty()
            || !lowered.windows.is_empty()
            || !lowered.sums.is_empty()
            || !lowered.sandwiches.is_empty()
            || !lowered.parity.is_empty();
        if others {
            return Err(GenerateError::Internal(
                "a full grid is searched under global rules only".into(),
            ));
        }
        let mut houses: Vec<Vec<u32>> = shape.houses().map(<[u32]>::to_vec).collect();
        houses.extend(lowered.houses);
        let mut houses_of = vec![vec![]; n * n];
        for (h, house) in houses.iter().enumerate() {
            for &c in house {
                houses_of[c as usize].push(h as u32);
            }
        }
        let mut links = vec![vec![]; n * n];
        let mut forbid = vec![];
        let digits = 1..=n as u32;
        for pair in &lowered.pairs {
            // The first cell's digits ruled out by each digit of the second, then the other way.
            for (cell, other, first) in [(pair.a, pair.b, true), (pair.b, pair.a, false)] {
                links[cell as usize].push((other, forbid.len() as u32));
                forbid.push(0);
                for v in digits.clone() {
                    let allows = |x: u32| match first {
                        true => pair.rule.allows(x, v),
                        false => pair.rule.allows(v, x),
                    };
                    forbid.push(
                        digits
                            .clone()
                            .filter(|&x| !allows(x))
                            .fold(0, |m, x| m | 1u64 << (x - 1)),
                    );
                }
            }
        }
        Ok(Plan {
            n,
            houses,
            houses_of,
            links,
            forbid,
            empty,
        })
    }

    /// Passes a grid through the independent checker, with the rules (a failure is a bug).
    pub fn verify(&self, grid: &Grid) -> Result<(), GenerateError> {
        check::verify(&self.empty, grid).map_err(|f: CheckFailure| {
            GenerateError::Internal(format!("generated grid rejected: {f}"))
        })
    }
}

/// Up to `restarts` randomised searches, each with a node limit; `None` when all run out, or
/// when one search ends without a grid (the plan has none).
pub fn try_fill(
    plan: &Plan,
    rng: &mut GenRng,
    restarts: usize,
) -> Result<Option<Grid>, GenerateError> {
    for _ in 0..restarts {
        let mut fill = Fill::new(plan, rng);
        match fill.search(0, rng) {
            Some(true) => {
                let grid = Grid::new(plan.n, fill.values);
                plan.verify(&grid)?;
                return Ok(Some(grid));
            }
            Some(false) => return Ok(None), // searched to the end: there is no full grid
            None => {}                      // budget spent: restart with a new random order
        }
    }
    Ok(None)
}

/// Randomised backtracking fill of an empty grid. Bit `d-1` of a mask stands for digit `d`;
/// `used[h]` holds the digits placed in house `h`. Cells `order[depth..]` are still empty.
struct Fill<'a> {
    plan: &'a Plan,
    full: u64,
    values: Vec<Value>,
    used: Vec<u64>,
    order: Vec<u32>,
    nodes: u64,
    /// Nodes before the search gives up: `max(20·n², 2000)`.
    budget: u64,
}

impl<'a> Fill<'a> {
    fn new(plan: &'a Plan, rng: &mut GenRng) -> Fill<'a> {
        let n = plan.n;
        let mut order: Vec<u32> = (0..(n * n) as u32).collect();
        rng.shuffle(&mut order);
        Fill {
            plan,
            full: if n == 64 { u64::MAX } else { (1u64 << n) - 1 },
            values: vec![0; n * n],
            used: vec![0; plan.houses.len()],
            order,
            nodes: 0,
            budget: (20 * n * n).max(2000) as u64,
        }
    }

    fn candidates(&self, cell: usize) -> u64 {
        let mut u = self.plan.houses_of[cell]
            .iter()
            .fold(0, |u, &h| u | self.used[h as usize]);
        for &(other, offset) in &self.plan.links[cell] {
            let v = self.values[other as usize] as usize;
            if v != 0 {
                u |= self.plan.forbid[offset as usize + v];
            }
        }
        self.full & !u
    }

    fn toggle(&mut self, cell: usize, v: Value) {
        for &h in &self.plan.houses_of[cell] {
            self.used[h as usize] ^= 1u64 << (v - 1);
        }
    }

    /// The branch to take at `depth`: an index into `order` and the digits to try there, or `None`
    /// at a dead end. A cell with fewest candidates (ties: earliest in the random order), unless it
    /// has two or more and some house has a digit with one possible cell left (a hidden single).
    fn choose(&self, depth: usize) -> Option<(usize, u64)> {
        let (mut best, mut best_mask, mut best_k) = (depth, 0, u32::MAX);
        for i in depth..self.order.len() {
            let mask = self.candidates(self.order[i] as usize);
            let k = mask.count_ones();
            if k < best_k {
                (best, best_mask, best_k) = (i, mask, k);
                if k <= 1 {
                    break;
                }
            }
        }
        if best_k == 0 {
            return None;
        }
        if best_k == 1 {
            return Some((best, best_mask));
        }
        for (h, house) in self.plan.houses.iter().enumerate() {
            let (mut once, mut twice) = (0u64, 0u64);
            for &c in house.iter().filter(|&&c| self.values[c as usize] == 0) {
                let m = self.candidates(c as usize);
                twice |= once & m;
                once |= m;
            }
            let missing = self.full & !self.used[h];
            if missing & !once != 0 {
                return None;
            }
            let single = missing & once & !twice;
            if single != 0 {
                let bit = single & single.wrapping_neg();
                let &cell = house.iter().find(|&&c| {
                    self.values[c as usize] == 0 && self.candidates(c as usize) & bit != 0
                })?;
                let i = depth + self.order[depth..].iter().position(|&c| c == cell)?;
                return Some((i, bit));
            }
        }
        Some((best, best_mask))
    }

    /// `Some(true)` filled, `Some(false)` dead end, `None` node limit spent.
    fn search(&mut self, depth: usize, rng: &mut GenRng) -> Option<bool> {
        if depth == self.order.len() {
            return Some(true);
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        let Some((best, mask)) = self.choose(depth) else {
            return Some(false);
        };
        self.order.swap(depth, best);
        let cell = self.order[depth] as usize;
        let mut digits: Vec<Value> = (1..=64).filter(|d| mask >> (d - 1) & 1 == 1).collect();
        rng.shuffle(&mut digits);
        for v in digits {
            self.values[cell] = v;
            self.toggle(cell, v);
            let r = self.search(depth + 1, rng);
            if r != Some(false) {
                return r;
            }
            self.toggle(cell, v);
            self.values[cell] = 0;
        }
        Some(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{DotRule, Regions};

    #[test]
    fn full_grid_of_a_shape_without_one() {
        // Side 2 with diagonals: cell (0,0) must differ from its row, column and diagonal
        // neighbours, three cells, with only two digits.
        let shape = Shape::new(2, Regions::Jigsaw(vec![0, 0, 1, 1]), true).unwrap();
        let err = full_grid(&shape, &mut GenRng::seed(0)).unwrap_err();
        assert!(matches!(err, GenerateError::NoFullGrid { n: 2, .. }));
    }

    /// Each global rule alone on 9×9 boxes: the grid keeps it (the checker says so), and the
    /// same stream gives the same grid.
    #[test]
    fn grids_keep_each_global_rule() {
        let shape = Arc::new(Shape::standard(9, false).unwrap());
        for rule in [
            Constraint::AntiKnight,
            Constraint::AntiKing,
            Constraint::DisjointGroups,
            Constraint::Negative(DotRule::Difference(1)),
        ] {
            let plan = Plan::new(&shape, std::slice::from_ref(&rule)).unwrap();
            let grid = try_fill(&plan, &mut GenRng::seed(3), FILL_RESTARTS)
                .unwrap()
                .unwrap_or_else(|| panic!("no grid keeping {rule:?}"));
            let puzzle = Puzzle::new(shape.clone(), vec![0; 81])
                .unwrap()
                .with_constraints(vec![rule.clone()])
                .unwrap();
            check::verify(&puzzle, &grid).unwrap();
            let again = try_fill(&plan, &mut GenRng::seed(3), FILL_RESTARTS).unwrap();
            assert_eq!(again, Some(grid));
        }
    }

    /// No 4×4 keeps anti-king (a 2×2 box and its neighbours need five digits): the search
    /// proves it and ends at once.
    #[test]
    fn a_plan_without_grid_ends() {
        let shape = Arc::new(Shape::standard(4, false).unwrap());
        let plan = Plan::new(&shape, &[Constraint::AntiKing]).unwrap();
        assert_eq!(try_fill(&plan, &mut GenRng::seed(1), 5).unwrap(), None);
    }

    #[test]
    fn other_rules_are_refused() {
        let shape = Arc::new(Shape::standard(4, false).unwrap());
        let err = Plan::new(&shape, &[Constraint::Odd(0)]);
        assert!(matches!(err, Err(GenerateError::Internal(_))));
    }
}
