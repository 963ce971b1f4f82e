//! Multi-colours: two clusters of one digit's strong links, read together.
//!
//! Each cluster (`coloring::digit_clusters`) has two colour classes, one all true and
//! one all false. Take two clusters A (classes `a1`, `a2`) and B (`b1`, `b2`):
//!
//! * **Type 2**: if the cells of `a1` see a cell of `b1` and a cell of `b2`, `a1` is false
//!   (one of `b1`, `b2` is true, and it shares a house with some cell of `a1`): the digit
//!   leaves every cell of `a1`. The same for `a2`.
//! * **Type 1**: if a cell of `a1` sees a cell of `b1`, `a1` and `b1` are not both true, so
//!   `a2` or `b2` is: a cell seeing both `a2` and `b2` (outside them) loses the digit. The
//!   same for the other three pairings of a class of A with a class of B.
//!
//! The search is HoDoKu's: digits in order, clusters in order of their first cell, every
//! ordered pair (A, B) of two clusters, type 2 tried before type 1 on each pair; a step takes
//! all the eliminations of its type on its pair. HoDoKu finds both types in one search, so
//! when both rows are on the ladder the first one ([`Technique::MultiColors1`]) returns either
//! type in that order and the second finds nothing new; asked alone, each row finds its type.

use super::board::{all_digits, bits, digits, Board};
use super::coloring::digit_clusters;
use super::step::{Candidate, Found, Link, Node, Step};
use super::table::Technique;
use crate::model::Value;

/// One colour class of a cluster: its cells, and as bit sets over the cells (bit `c % 64` of
/// word `c / 64`, as [`Board::peer_set`]) the cells themselves and the cells they see.
struct Colour {
    cells: Vec<usize>,
    members: Vec<u64>,
    seen: Vec<u64>,
}

impl Colour {
    fn new(board: &Board, mut cells: Vec<usize>) -> Colour {
        cells.sort_unstable();
        let words = board.peer_set(0).len();
        let (mut members, mut seen) = (vec![0u64; words], vec![0u64; words]);
        for &c in &cells {
            members[c / 64] |= 1 << (c % 64);
            for (w, &p) in seen.iter_mut().zip(board.peer_set(c)) {
                *w |= p;
            }
        }
        Colour {
            cells,
            members,
            seen,
        }
    }
    /// True when a cell of this class sees a cell of `other`.
    fn sees(&self, other: &Colour) -> bool {
        self.seen
            .iter()
            .zip(&other.members)
            .any(|(s, m)| s & m != 0)
    }
}

/// The cells of `holding` (a bit set of the digit's cells) that see a cell of `x` and a cell
/// of `y`, outside both.
fn trap(holding: &[u64], x: &Colour, y: &Colour, out: &mut [u64]) {
    for w in 0..holding.len() {
        out[w] |= holding[w] & x.seen[w] & y.seen[w] & !x.members[w] & !y.members[w];
    }
}

/// The cells a type 2 step on (A, B) removes the digit from: each class of A that sees both
/// classes of B.
fn type_two(a: &[Colour; 2], b: &[Colour; 2]) -> Vec<usize> {
    let mut out = vec![];
    for class in a {
        if class.sees(&b[0]) && class.sees(&b[1]) {
            out.extend(&class.cells);
        }
    }
    out
}

/// The cells a type 1 step on (A, B) removes the digit from: for each class of A seeing a
/// class of B, the cells that see both other classes.
fn type_one(holding: &[u64], a: &[Colour; 2], b: &[Colour; 2]) -> Vec<usize> {
    let mut out = vec![0u64; holding.len()];
    for (i, j) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
        if a[i].sees(&b[j]) {
            trap(holding, &a[1 - i], &b[1 - j], &mut out);
        }
    }
    (out.iter().enumerate())
        .flat_map(|(w, &word)| bits(word).map(move |b| w * 64 + b))
        .collect()
}

/// The step of `technique` on digit `d` and clusters A and B removing `d` from `cells`.
fn step(technique: Technique, d: Value, a: &[Colour; 2], b: &[Colour; 2], cells: &[usize]) -> Step {
    let mut step = Step::new(technique);
    step.digits.push(d);
    step.chain = [&a[0], &a[1], &b[0], &b[1]]
        .iter()
        .enumerate()
        .map(|(k, class)| Node {
            cells: class.cells.iter().map(|&c| c as u32).collect(),
            digit: d,
            link: if k % 2 == 0 { Link::Strong } else { Link::End },
        })
        .collect();
    step.eliminations = cells.iter().map(|&c| Candidate::new(c, d)).collect();
    step.normalized()
}

/// Pushes `step` unless it removes nothing or a step of its type removing the same was pushed
/// (type 1 on (B, A) removes what it removes on (A, B)); true once `found` is full.
fn offer(found: &mut Found, pushed: &mut Vec<(Technique, Vec<Candidate>)>, step: Step) -> bool {
    let key = (step.technique, step.eliminations.clone());
    if step.eliminations.is_empty() || pushed.contains(&key) {
        return false;
    }
    pushed.push(key);
    found.push(step)
}

const T1: Technique = Technique::MultiColors1;
const T2: Technique = Technique::MultiColors2;

pub fn find(board: &Board, technique: Technique, found: &mut Found) {
    let (one, two) = match technique {
        T1 => (true, found.on_ladder(T2)),
        // Searched with type 1, in HoDoKu's order.
        T2 if found.on_ladder(T1) => return,
        T2 => (false, true),
        _ => return,
    };
    let n = board.n();
    let mut pushed = vec![];
    for d in digits(found.digits & all_digits(n)) {
        let clusters: Vec<[Colour; 2]> = digit_clusters(board, d)
            .into_iter()
            .map(|cluster| {
                let class = |k: u8| cluster.iter().filter(|m| m.1 == k).map(|m| m.0).collect();
                [Colour::new(board, class(0)), Colour::new(board, class(1))]
            })
            .collect();
        if clusters.len() < 2 {
            continue;
        }
        let mut holding = vec![0u64; clusters[0][0].members.len()];
        for c in (0..n * n).filter(|&c| board.has(c, d)) {
            holding[c / 64] |= 1 << (c % 64);
        }
        for (i, a) in clusters.iter().enumerate() {
            for (j, b) in clusters.iter().enumerate() {
                if i == j {
                    continue;
                }
                if two && offer(found, &mut pushed, step(T2, d, a, b, &type_two(a, b))) {
                    return;
                }
                if one
                    && offer(
                        found,
                        &mut pushed,
                        step(T1, d, a, b, &type_one(&holding, a, b)),
                    )
                {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::logic::render::text;
    use crate::model::{Puzzle, Shape};

    /// An empty 9×9 board (with its diagonals as houses when `x`) where 5 keeps, on the main
    /// diagonal, only r1c1 and r9c9 and, in column 7, only r1c7 and r5c7.
    fn board(x: bool) -> Board {
        let p = Puzzle::new(Arc::new(Shape::standard(9, x).unwrap()), vec![0; 81]).unwrap();
        let diagonal = (1..8).map(|i| i * 10);
        let column = [1, 2, 3, 5, 6, 7, 8].map(|r| r * 9 + 6);
        let elims: Vec<(usize, Value)> = diagonal.chain(column).map(|c| (c, 5)).collect();
        Board::with_eliminations(&p, &elims).unwrap()
    }

    fn steps(board: &Board, t: Technique) -> Vec<String> {
        let mut found = Found::new(5);
        find(board, t, &mut found);
        found.steps.iter().map(|s| text(board.shape(), s)).collect()
    }

    #[test]
    fn a_diagonal_links_a_cluster() {
        // On the X grid the main diagonal joins r1c1 and r9c9; r1c1 sees r1c7, so r9c9 or r5c7
        // holds the 5, and the cells of column 9 in r5c7's box lose it.
        let text = "Multi Colors 1: 5 (r1c1) / (r9c9), (r1c7) / (r5c7) => r456c9<>5";
        assert_eq!(steps(&board(true), Technique::MultiColors1), [text]);
        assert!(steps(&board(true), Technique::MultiColors2).is_empty());
        // Without the diagonals, r1c1 and r9c9 are no cluster: nothing.
        assert!(steps(&board(false), Technique::MultiColors1).is_empty());
    }

    #[test]
    fn the_second_row_leaves_the_search_to_the_first_on_one_ladder() {
        let board = board(true);
        let mut found = Found::new(5);
        found.ladder = 1 << T1 as usize | 1 << T2 as usize;
        find(&board, T2, &mut found);
        assert!(found.steps.is_empty());
        find(&board, T1, &mut found);
        assert_eq!(found.steps.len(), 1);
    }
}
