//! The algebra of the `isotope` backend ([`crate::backends::isotope`]): completes a grid when its
//! givens fit the *cyclic pattern* that simple generators start from — no search at all. It
//! answers `solve` only, and only for such puzzles.
//!
//! Many generators of large puzzles fill the grid with the pattern
//! `digit(r, c) = (b·(r mod b) + ⌊r/b⌋ + c) mod n` (side `n = b²`), then shuffle rows within
//! bands, bands, columns within stacks, stacks, and relabel the digits. Every such grid is an
//! *isotope of the cyclic group* ℤₙ: there are bijections `s` (digits → ℤₙ), `a` (rows → ℤₙ)
//! and `b` (columns → ℤₙ) with `s(grid[r][c]) = a(r) + b(c) (mod n)`. When enough givens are
//! left, they pin `s`, `a` and `b` down, and with them every empty cell, whatever the holes.
//! `sudoku-225-1` is such a puzzle: it is out of reach of every search backend here (and of
//! CaDiCaL and CryptoMiniSat given 10–15 minutes), and this method completes it in about
//! 2 ms.
//!
//! How ([`complete`]): every given `d` at `(r, c)` is one equation `a(r) + b(c) = s(d)` over
//! `3n` unknowns.
//! 1. Fix the free choices of the form: with `(r₀, c₀)` a given of the row with most givens,
//!    `a(r₀) = b(c₀) = s(digit at (r₀, c₀)) = 0`, and for a candidate generator `g` (each other
//!    digit in turn) `s(g) = 1`.
//! 2. Propagate: an equation with two of its unknowns known gives the third; rows, columns and
//!    digits each must get distinct values. Keep the first `g` for which every digit gets a value
//!    with no contradiction (if the grid is such an isotope, any digit mapped to a unit of ℤₙ
//!    works, so few tries are needed). Every `g` failing on a contradiction means the givens do not
//!    fit the pattern; when some stall, there may be too few givens to pin it down.
//! 3. Rows and columns without any given get the offsets left over, in every order up to
//!    [`MAX_FREE_ORDERS`] arrangements; each completion `s⁻¹(a(r) + b(c))` is kept only if it
//!    satisfies every house of the shape (boxes, jigsaw regions, diagonals).
//!
//! It is a *sound but incomplete* method: an answer is a verified solution (and passes the
//! independent checker again in [`crate::task::run`]), but a refusal says nothing — the puzzle may
//! well have solutions of other forms. It cannot count, prove uniqueness or "no solution", or
//! optimise, so it refuses those tasks, and it is not in the default set of `xcheck` and `bench`.

use crate::cancel::Halt;
use crate::check;
use crate::model::{Grid, Puzzle, Value};

/// Most arrangements of the leftover offsets tried for rows and columns that have no given.
pub const MAX_FREE_ORDERS: usize = 720;

/// Why a puzzle was not completed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IsotopeError {
    /// The puzzle is not one this method completes (or the task is not one it answers).
    #[error(
        "{why}; this method only completes grids of the cyclic pattern form (try a search backend)"
    )]
    Refused { why: String },
    /// The deadline passed, or the run was cancelled.
    #[error("timed out")]
    TimedOut,
}

/// Why a puzzle cannot be completed as an isotope of ℤₙ.
pub fn refuse(why: &str) -> IsotopeError {
    IsotopeError::Refused {
        why: why.to_string(),
    }
}

// The unknowns of the equations are numbered rows `0..n`, columns `n..2n`, digits `2n..3n`
// (digit `d` at `2n + d − 1`); `values[u]` is in ℤₙ, or UNSET.
const UNSET: usize = usize::MAX;

/// How propagation from one choice of generator ended.
enum Propagated {
    /// Every digit has a value (rows and columns with givens too, unless they are unconnected).
    Complete(Vec<usize>),
    /// Some digit is left without a value.
    Stalled,
    /// Two equations disagree, or two rows, columns or digits got the same value.
    Contradiction,
}

/// Completes `puzzle` as an isotope of ℤₙ, or says why it cannot.
pub fn complete(puzzle: &Puzzle, halt: &Halt) -> Result<Grid, IsotopeError> {
    let n = puzzle.size();
    let givens = puzzle.givens();
    // The equations (row, column, digit) and, for each unknown, the equations it appears in.
    let equations: Vec<[usize; 3]> = givens
        .iter()
        .enumerate()
        .filter(|&(_, &d)| d != 0)
        .map(|(i, &d)| [i / n, n + i % n, 2 * n + d as usize - 1])
        .collect();
    let mut uses: Vec<Vec<u32>> = vec![Vec::new(); 3 * n];
    for (k, eq) in equations.iter().enumerate() {
        for &u in eq {
            uses[u].push(k as u32);
        }
    }
    let r0 = (0..n).max_by_key(|&r| uses[r].len()).unwrap_or(0);
    let first = uses[r0]
        .first()
        .map(|&k| equations[k as usize])
        .ok_or_else(|| refuse("the puzzle has no givens to pin the pattern down"))?;
    let e = first[2];

    // Steps 1 and 2.
    let mut stalled = false;
    let mut values = None;
    for g in (2 * n..3 * n).filter(|&g| g != e) {
        if halt.reached() {
            return Err(IsotopeError::TimedOut);
        }
        match propagate(
            n,
            &equations,
            &uses,
            &[(first[0], 0), (first[1], 0), (e, 0), (g, 1)],
        ) {
            Propagated::Complete(v) => {
                values = Some(v);
                break;
            }
            Propagated::Stalled => stalled = true,
            Propagated::Contradiction => {}
        }
    }
    if n == 1 {
        values = Some(vec![0; 3]);
    }
    let values = values.ok_or_else(|| {
        refuse(if stalled {
            "the givens do not pin down a cyclic pattern (too few of them, or not of that form)"
        } else {
            "the givens do not fit a cyclic pattern"
        })
    })?;
    let stranded = (0..2 * n).any(|u| values[u] == UNSET && !uses[u].is_empty());
    if stranded {
        return Err(refuse(
            "the givens fall apart into unconnected groups of rows and columns",
        ));
    }
    let line = |u: usize| (values[u] != UNSET).then_some(values[u]);
    let a: Vec<Option<usize>> = (0..n).map(line).collect();
    let b: Vec<Option<usize>> = (n..2 * n).map(line).collect();

    // Step 3: leftover offsets for lines without givens, and the completion.
    let mut digit_of = vec![0 as Value; n];
    for d in 0..n {
        digit_of[values[2 * n + d]] = d as Value + 1;
    }
    let mut found = None;
    for_each_arrangement(&a, &b, n, |a, b| {
        let cells = (0..n * n)
            .map(|i| digit_of[(a[i / n] + b[i % n]) % n])
            .collect();
        let grid = Grid::new(n, cells);
        if check::verify(puzzle, &grid).is_ok() {
            found = Some(grid);
            return true;
        }
        halt.reached()
    })?;
    match found {
        Some(grid) => Ok(grid),
        None if halt.reached() => Err(IsotopeError::TimedOut),
        None => Err(refuse(
            "the givens fit the pattern, but its completion breaks a box, region or diagonal",
        )),
    }
}

/// Step 2: the values `seeds` propagated through the equations `row + column = digit (mod n)`.
fn propagate(
    n: usize,
    equations: &[[usize; 3]],
    uses: &[Vec<u32>],
    seeds: &[(usize, usize)],
) -> Propagated {
    let mut value = vec![UNSET; 3 * n];
    // taken[class · n + v]: some row (class 0), column (1) or digit (2) already has value v.
    let mut taken = vec![false; 3 * n];
    let mut queue = Vec::with_capacity(3 * n);
    let mut set = |u: usize, v: usize, value: &mut [usize], queue: &mut Vec<usize>| -> bool {
        if value[u] != UNSET {
            return value[u] == v;
        }
        let slot = u / n * n + v;
        if std::mem::replace(&mut taken[slot], true) {
            return false;
        }
        value[u] = v;
        queue.push(u);
        true
    };
    for &(u, v) in seeds {
        if !set(u, v % n, &mut value, &mut queue) {
            return Propagated::Contradiction;
        }
    }
    while let Some(u) = queue.pop() {
        for &k in &uses[u] {
            let [r, c, d] = equations[k as usize];
            let (vr, vc, vd) = (value[r], value[c], value[d]);
            let ok = match (vr != UNSET, vc != UNSET, vd != UNSET) {
                (true, true, _) => set(d, (vr + vc) % n, &mut value, &mut queue),
                (true, false, true) => set(c, (vd + n - vr) % n, &mut value, &mut queue),
                (false, true, true) => set(r, (vd + n - vc) % n, &mut value, &mut queue),
                _ => true,
            };
            if !ok {
                return Propagated::Contradiction;
            }
        }
    }
    if value[2 * n..].contains(&UNSET) {
        Propagated::Stalled
    } else {
        Propagated::Complete(value)
    }
}

/// Step 3: calls `visit` with full offset vectors, the free lines taking the leftover offsets in
/// every order, until `visit` returns `true`. Refuses when there are more than
/// [`MAX_FREE_ORDERS`] orders.
fn for_each_arrangement(
    a: &[Option<usize>],
    b: &[Option<usize>],
    n: usize,
    mut visit: impl FnMut(&[usize], &[usize]) -> bool,
) -> Result<(), IsotopeError> {
    let free = |xs: &[Option<usize>]| -> (Vec<usize>, Vec<usize>) {
        let mut used = vec![false; n];
        xs.iter().flatten().for_each(|&x| used[x] = true);
        let lines = (0..n).filter(|&i| xs[i].is_none()).collect();
        let values = (0..n).filter(|&v| !used[v]).collect();
        (lines, values)
    };
    let (free_rows, mut row_values) = free(a);
    let (free_cols, mut col_values) = free(b);
    let orders = factorial(row_values.len()).saturating_mul(factorial(col_values.len()));
    if orders > MAX_FREE_ORDERS {
        return Err(refuse(&format!(
            "{} rows and {} columns have no given; too many ways to place them",
            free_rows.len(),
            free_cols.len()
        )));
    }
    let fill = |xs: &[Option<usize>], lines: &[usize], values: &[usize]| -> Vec<usize> {
        let mut full: Vec<usize> = xs.iter().map(|x| x.unwrap_or(0)).collect();
        for (&line, &v) in lines.iter().zip(values) {
            full[line] = v;
        }
        full
    };
    let mut done = false;
    permutations(&mut row_values, &mut |rows| {
        let full_a = fill(a, &free_rows, rows);
        permutations(&mut col_values, &mut |cols| {
            done = visit(&full_a, &fill(b, &free_cols, cols));
            done
        });
        done
    });
    Ok(())
}

fn factorial(k: usize) -> usize {
    (1..=k).fold(1usize, |acc, i| acc.saturating_mul(i))
}

/// Calls `visit` on every order of `items` (Heap's algorithm) until it returns `true`.
fn permutations(items: &mut [usize], visit: &mut dyn FnMut(&[usize]) -> bool) -> bool {
    fn go(k: usize, items: &mut [usize], visit: &mut dyn FnMut(&[usize]) -> bool) -> bool {
        if k <= 1 {
            return visit(items);
        }
        for i in 0..k {
            if go(k - 1, items, visit) {
                return true;
            }
            if i + 1 < k {
                let j = if k.is_multiple_of(2) { i } else { 0 };
                items.swap(j, k - 1);
            }
        }
        false
    }
    go(items.len(), items, visit)
}

#[cfg(test)]
mod tests {
    use super::permutations;

    #[test]
    fn permutations_visits_every_order_once() {
        let mut items = vec![0, 1, 2, 3];
        let mut seen = std::collections::BTreeSet::new();
        permutations(&mut items, &mut |p| {
            assert!(seen.insert(p.to_vec()), "repeated {p:?}");
            false
        });
        assert_eq!(seen.len(), 24);
    }
}
