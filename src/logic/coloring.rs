//! Colouring: simple colours (trap and wrap) on one digit's strong links, and remote pairs
//! (chains of bivalue cells with the same two digits).
//!
//! A cluster of cells joined by strong links takes two colours, one of which is all true.
//! Wrap: two cells of one colour see each other, so that colour is false. Trap: a cell seeing
//! both colours cannot hold the digit. Remote pair: along a chain of cells `ab` that see each
//! other the digits alternate, so a cell seeing two chain cells an odd distance (3 or more)
//! apart holds neither digit. Multi-colours, two clusters read together, are
//! [`super::multi_colors`]'s, on the same clusters (`digit_clusters`).

use std::collections::VecDeque;

use super::board::{all_digits, digits, Board};
use super::step::{Candidate, Found, Link, Node, Step};
use super::table::Technique;
use crate::model::Value;

/// Two-colours the graph on `cells` with `edge`; each cluster as (colour of each member, BFS
/// parent) from its first cell. Clusters that are not two-colourable are skipped.
fn clusters(cells: &[usize], edge: &dyn Fn(usize, usize) -> bool) -> Vec<Vec<(usize, u8, usize)>> {
    let mut seen = vec![false; cells.len()];
    let mut out = vec![];
    for start in 0..cells.len() {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut members = vec![(cells[start], 0u8, usize::MAX)];
        let mut queue = VecDeque::from([0usize]);
        let mut index = vec![start];
        let mut bipartite = true;
        while let Some(m) = queue.pop_front() {
            let (cell, colour, _) = members[m];
            for (j, &other) in cells.iter().enumerate() {
                if other == cell || !edge(cell, other) {
                    continue;
                }
                if seen[j] {
                    if let Some(k) = index.iter().position(|&x| x == j) {
                        bipartite &= members[k].1 != colour;
                    }
                    continue;
                }
                seen[j] = true;
                index.push(j);
                members.push((other, 1 - colour, m));
                queue.push_back(members.len() - 1);
            }
        }
        if bipartite && members.len() >= 2 {
            out.push(members);
        }
    }
    out
}

/// The clusters of digit `d`: its cells joined by strong links (the only two places of `d` in
/// a house), each two-coloured from its first cell ([`clusters`]); clusters in order of their
/// first cell, as HoDoKu takes them.
pub(super) fn digit_clusters(board: &Board, d: Value) -> Vec<Vec<(usize, u8, usize)>> {
    let n = board.n();
    let cells: Vec<usize> = (0..n * n).filter(|&c| board.has(c, d)).collect();
    let strong = |a: usize, b: usize| {
        board.sees(a, b)
            && board.shape().houses_of(a).iter().any(|&h| {
                board.positions(h as usize, d).count_ones() == 2
                    && board.shape().houses_of(b).contains(&h)
            })
    };
    clusters(&cells, &strong)
}

pub fn find(board: &Board, technique: Technique, found: &mut Found) {
    match technique {
        Technique::SimpleColorsTrap | Technique::SimpleColorsWrap => {
            colors(board, technique, found)
        }
        Technique::RemotePair => remote_pairs(board, found),
        _ => {}
    }
}

fn colors(board: &Board, technique: Technique, found: &mut Found) {
    let n = board.n();
    for d in digits(found.digits & all_digits(n)) {
        let cells: Vec<usize> = (0..n * n).filter(|&c| board.has(c, d)).collect();
        for cluster in digit_clusters(board, d) {
            let class = |k: u8| -> Vec<usize> {
                cluster.iter().filter(|m| m.1 == k).map(|m| m.0).collect()
            };
            let (a, b) = (class(0), class(1));
            let mut eliminations = vec![];
            if technique == Technique::SimpleColorsWrap {
                for side in [&a, &b] {
                    let clash = side.iter().any(|&x| side.iter().any(|&y| board.sees(x, y)));
                    if clash {
                        eliminations = side.iter().map(|&c| Candidate::new(c, d)).collect();
                        break;
                    }
                }
            } else {
                for &c in &cells {
                    let sees = |side: &Vec<usize>| side.iter().any(|&x| board.sees(c, x));
                    if !a.contains(&c) && !b.contains(&c) && sees(&a) && sees(&b) {
                        eliminations.push(Candidate::new(c, d));
                    }
                }
            }
            if eliminations.is_empty() {
                continue;
            }
            let mut step = Step::new(technique);
            step.digits.push(d);
            step.chain = [(&a, Link::Strong), (&b, Link::End)]
                .iter()
                .map(|(cs, link)| Node {
                    cells: cs.iter().map(|&c| c as u32).collect(),
                    digit: d,
                    link: *link,
                })
                .collect();
            step.eliminations = eliminations;
            if found.push(step) {
                return;
            }
        }
    }
}

fn remote_pairs(board: &Board, found: &mut Found) {
    let n = board.n();
    let bivalue = board.bivalue_cells();
    let mut masks: Vec<u64> = bivalue.iter().map(|&c| board.cands(c)).collect();
    masks.sort_unstable();
    masks.dedup();
    for mask in masks {
        let cells: Vec<usize> = bivalue
            .iter()
            .copied()
            .filter(|&c| board.cands(c) == mask)
            .collect();
        if cells.len() < 4 {
            continue;
        }
        for cluster in clusters(&cells, &|a, b| board.sees(a, b)) {
            if cluster.len() < 4 {
                continue;
            }
            let members: Vec<usize> = cluster.iter().map(|m| m.0).collect();
            for target in 0..n * n {
                if board.cands(target) & mask == 0 || members.contains(&target) {
                    continue;
                }
                let seen: Vec<usize> = (0..cluster.len())
                    .filter(|&m| board.sees(target, cluster[m].0))
                    .collect();
                for &p in &seen {
                    for &q in &seen {
                        let (pc, qc) = (cluster[p].0, cluster[q].0);
                        // Opposite colours that do not see each other: 3 links apart or more.
                        if cluster[p].1 != 0 || cluster[q].1 != 1 || board.sees(pc, qc) {
                            continue;
                        }
                        let chain = shortest_path(board, &members, pc, qc);
                        let mut step = Step::new(Technique::RemotePair);
                        step.digits = digits(mask).collect();
                        step.cells = chain.iter().map(|&c| c as u32).collect();
                        step.eliminations = digits(board.cands(target) & mask)
                            .map(|d| Candidate::new(target, d))
                            .collect();
                        if found.push(step) {
                            return;
                        }
                    }
                }
            }
        }
    }
}

/// The shortest path from `from` to `to` through cells of `members` that see each other.
fn shortest_path(board: &Board, members: &[usize], from: usize, to: usize) -> Vec<usize> {
    let mut parent = vec![usize::MAX; members.len()];
    let start = members.iter().position(|&c| c == from).unwrap_or(0);
    let mut queue = VecDeque::from([start]);
    parent[start] = start;
    while let Some(i) = queue.pop_front() {
        if members[i] == to {
            let mut path = vec![members[i]];
            let mut k = i;
            while parent[k] != k {
                k = parent[k];
                path.push(members[k]);
            }
            path.reverse();
            return path;
        }
        for j in 0..members.len() {
            if parent[j] == usize::MAX && board.sees(members[i], members[j]) {
                parent[j] = i;
                queue.push_back(j);
            }
        }
    }
    vec![from, to]
}
