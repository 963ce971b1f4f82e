//! Small helpers shared by the `dfs` integration and property tests: a parser for 81-character
//! lines (the real parser lives elsewhere), a few shapes, and a deliberately naive solution
//! enumerator that shares no code with any backend, to cross-check counts and optima.

#![allow(dead_code)]

use std::sync::Arc;

use sudoku_lab::model::{Puzzle, Regions, Shape, Value};

/// Digits `1`-`9`, anything else empty (`.`/`0`).
pub fn parse81(line: &str) -> Vec<Value> {
    assert_eq!(line.len(), 81, "not an 81-character line: {line}");
    line.bytes()
        .map(|b| match b {
            b'1'..=b'9' => (b - b'0') as Value,
            _ => 0,
        })
        .collect()
}

pub fn standard(n: usize) -> Arc<Shape> {
    Arc::new(Shape::standard(n, false).unwrap())
}

pub fn puzzle(shape: &Arc<Shape>, givens: Vec<Value>) -> Puzzle {
    Puzzle::new(shape.clone(), givens).unwrap()
}

/// A 9×9 jigsaw layout: the standard boxes with four cells traded between neighbouring boxes.
pub fn jigsaw9() -> Arc<Shape> {
    let mut map: Vec<u32> = (0..81)
        .map(|c| ((c / 9) / 3 * 3 + (c % 9) / 3) as u32)
        .collect();
    for (a, b) in [(20, 21), (60, 69), (33, 42), (47, 48)] {
        map.swap(a, b);
    }
    Arc::new(Shape::new(9, Regions::Jigsaw(map), false).unwrap())
}

/// The standard-box grid of side `n = r × c` given by a closed formula (a valid solution).
pub fn pattern_grid(n: usize) -> Vec<Value> {
    let (r, c) = Shape::default_boxes(n).unwrap();
    (0..n * n)
        .map(|cell| {
            let (row, col) = (cell / n, cell % n);
            (((row % r) * c + row / r + col) % n + 1) as Value
        })
        .collect()
}

/// Calls `visit` on every solution of `puzzle`, by plain cell-by-cell backtracking over the
/// houses of the shape; stops when `visit` returns `false`.
pub fn naive_solutions(puzzle: &Puzzle, visit: &mut dyn FnMut(&[Value]) -> bool) {
    fn fits(shape: &Shape, g: &[Value], cell: usize, v: Value) -> bool {
        shape
            .houses_of(cell)
            .iter()
            .all(|&h| shape.house(h as usize).iter().all(|&o| g[o as usize] != v))
    }
    fn go(shape: &Shape, g: &mut Vec<Value>, visit: &mut dyn FnMut(&[Value]) -> bool) -> bool {
        let Some(cell) = g.iter().position(|&v| v == 0) else {
            return visit(g);
        };
        for v in 1..=shape.size() as Value {
            if fits(shape, g, cell, v) {
                g[cell] = v;
                let go_on = go(shape, g, visit);
                g[cell] = 0;
                if !go_on {
                    return false;
                }
            }
        }
        true
    }
    let shape = puzzle.shape();
    let mut g = puzzle.givens().to_vec();
    // Clashing givens: no solution.
    for (cell, &v) in puzzle.givens().iter().enumerate() {
        if v != 0 {
            g[cell] = 0;
            let ok = fits(shape, &g, cell, v);
            g[cell] = v;
            if !ok {
                return;
            }
        }
    }
    go(shape, &mut g, visit);
}

pub fn naive_count(puzzle: &Puzzle) -> u64 {
    let mut k = 0;
    naive_solutions(puzzle, &mut |_| {
        k += 1;
        true
    });
    k
}

/// A small deterministic pseudo-random generator (xorshift), for fixed test layouts.
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, k: u64) -> u64 {
        self.next() % k
    }
}
