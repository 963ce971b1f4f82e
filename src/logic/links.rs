//! The link graph that chain techniques walk: nodes are candidates (a digit in a cell) and, for
//! the grouped techniques, group nodes (the cells of one digit inside the intersection of two
//! houses, such as a box and a line); links are weak (both nodes cannot be true) or strong (both
//! cannot be false).
//!
//! A chain is read as implications between node states: a weak link takes a true node to a false
//! one, a strong link a false node to a true one. [`Links::search`] is a breadth-first search over
//! those states from one premise, so every chain it returns is a shortest one and every
//! implication in it holds on the board (soundness does not depend on the search). The graph is
//! built once per board state and kept for the next finder that asks for the same board
//! ([`Links::of`]).
//!
//! State layout: state `2 * node` is "node false", `2 * node + 1` is "node true". Single nodes
//! come first (`node < singles`), then group nodes.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::board::{bits, Board};
use super::step::{Candidate, Link, Node};
use crate::model::Value;

/// Longest chain (in links) the searches follow, as HoDoKu bounds its chains.
pub const MAX_LINKS: u16 = 20;

/// Which nodes and links a chain technique may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// One digit, links between cells (X-chains).
    Digit(Value),
    /// Bivalue cells: strong links inside a cell, weak links between cells (XY-chains).
    Bivalue,
    /// Every single node and link (nice loops, AICs, forcing chains).
    All,
    /// Group nodes too (grouped nice loops and AICs).
    Grouped,
}

/// The peers of every cell as a bitset over the cells (`words` `u64`s a cell), for fast
/// "sees" tests in the chain and ALS finders.
#[derive(Debug)]
pub struct PeerSets {
    words: usize,
    bits: Vec<u64>,
}

impl PeerSets {
    pub fn new(board: &Board) -> PeerSets {
        let cells = board.n() * board.n();
        let words = cells.div_ceil(64);
        let mut bits = vec![0u64; cells * words];
        for cell in 0..cells {
            for &p in board.peers(cell) {
                bits[cell * words + p as usize / 64] |= 1 << (p % 64);
            }
        }
        PeerSets { words, bits }
    }
    /// Words of one bitset.
    pub fn words(&self) -> usize {
        self.words
    }
    /// The peers of a cell.
    pub fn of(&self, cell: usize) -> &[u64] {
        &self.bits[cell * self.words..(cell + 1) * self.words]
    }
    /// True when two distinct cells share a house.
    pub fn sees(&self, a: usize, b: usize) -> bool {
        self.bits[a * self.words + b / 64] >> (b % 64) & 1 != 0
    }
}

/// Nodes and links of one board state.
#[derive(Debug)]
pub struct Links {
    /// The candidates of the board the graph was built from.
    cands: Vec<u64>,
    grouped: bool,
    n: usize,
    /// Cells and digit of each node.
    nodes: Vec<(Vec<u32>, Value)>,
    /// Number of single nodes (the first nodes).
    pub singles: usize,
    /// Node of `cell * n + digit - 1`, `u32::MAX` when the cell lacks the digit.
    index: Vec<u32>,
    weak: Vec<Vec<u32>>,
    strong: Vec<Vec<u32>>,
    /// True for the cells holding exactly two candidates.
    bivalue: Vec<bool>,
    /// Searches that found nothing on this board.
    empty: RefCell<Vec<Mode>>,
}

thread_local! {
    static CACHE: RefCell<Vec<Rc<Links>>> = const { RefCell::new(Vec::new()) };
}

impl Links {
    /// The graph of a board (with group nodes when `grouped`), built once per board state and
    /// thread.
    pub fn of(board: &Board, grouped: bool) -> Rc<Links> {
        let n = board.n();
        let same = |l: &Links| {
            l.grouped == grouped
                && l.n == n
                && l.cands.len() == n * n
                && (0..n * n).all(|c| l.cands[c] == board.cands(c))
        };
        if let Some(hit) = CACHE.with(|c| c.borrow().iter().find(|l| same(l)).cloned()) {
            return hit;
        }
        let links = Rc::new(Links::build(board, grouped));
        CACHE.with(|c| {
            let mut c = c.borrow_mut();
            c.retain(|l| l.grouped != grouped);
            c.push(Rc::clone(&links));
        });
        links
    }

    fn build(board: &Board, grouped: bool) -> Links {
        let n = board.n();
        let mut links = Links {
            cands: (0..n * n).map(|c| board.cands(c)).collect(),
            grouped,
            n,
            nodes: vec![],
            singles: 0,
            index: vec![u32::MAX; n * n * n],
            weak: vec![],
            strong: vec![],
            bivalue: (0..n * n)
                .map(|c| board.cands(c).count_ones() == 2)
                .collect(),
            empty: RefCell::new(vec![]),
        };
        for cell in 0..n * n {
            for b in bits(board.cands(cell)) {
                links.index[cell * n + b] = links.nodes.len() as u32;
                links.nodes.push((vec![cell as u32], b as Value + 1));
            }
        }
        links.singles = links.nodes.len();
        let groups = if grouped {
            links.add_groups(board)
        } else {
            HashMap::new()
        };
        let count = links.nodes.len();
        links.weak = vec![vec![]; count];
        links.strong = vec![vec![]; count];
        // Weak links of single nodes: the cell's other digits and the digit in the peers.
        for cell in 0..n * n {
            for d in bits(board.cands(cell)).map(|b| b as Value + 1) {
                let a = links.node(cell, d) as usize;
                for e in bits(board.cands(cell)).map(|b| b as Value + 1) {
                    if e != d {
                        let b = links.node(cell, e);
                        links.weak[a].push(b);
                    }
                }
                for &p in board.peers(cell) {
                    if board.has(p as usize, d) {
                        let b = links.node(p as usize, d);
                        links.weak[a].push(b);
                    }
                }
            }
            if links.bivalue[cell] {
                let mut ds = bits(board.cands(cell)).map(|b| b as Value + 1);
                let (d, e) = (ds.next().unwrap_or(1), ds.next().unwrap_or(1));
                let (a, b) = (links.node(cell, d), links.node(cell, e));
                links.strong[a as usize].push(b);
                links.strong[b as usize].push(a);
            }
        }
        links.link_groups(board);
        // Strong links in houses: the digit's positions split into two nodes.
        for h in 0..board.house_count() {
            for d in 1..=n as Value {
                let positions: Vec<u32> = board.cells_of(h, d).map(|c| c as u32).collect();
                if positions.len() < 2 {
                    continue;
                }
                if positions.len() == 2 {
                    let a = links.node(positions[0] as usize, d);
                    let b = links.node(positions[1] as usize, d);
                    links.strong[a as usize].push(b);
                    links.strong[b as usize].push(a);
                }
                if !grouped {
                    continue;
                }
                // Splits with a group on one side (and a single or a group on the other).
                let mut inside: Vec<(Vec<u32>, u32)> = positions
                    .iter()
                    .map(|&c| (vec![c], links.node(c as usize, d)))
                    .collect();
                for (key, &g) in &groups {
                    if key.1 == d && key.0.iter().all(|c| positions.contains(c)) {
                        inside.push((key.0.clone(), g));
                    }
                }
                for (cells, a) in &inside {
                    if (*a as usize) < links.singles {
                        continue;
                    }
                    let rest: Vec<u32> = positions
                        .iter()
                        .copied()
                        .filter(|c| !cells.contains(c))
                        .collect();
                    let other = match rest.len() {
                        1 => Some(links.node(rest[0] as usize, d)),
                        _ => groups.get(&(rest, d)).copied(),
                    };
                    if let Some(b) = other {
                        links.strong[*a as usize].push(b);
                        links.strong[b as usize].push(*a);
                    }
                }
            }
        }
        for list in links.weak.iter_mut().chain(links.strong.iter_mut()) {
            list.sort_unstable();
            list.dedup();
        }
        links
    }

    /// Adds the group nodes: a digit's places (two or more) in the cells two houses share.
    /// Returns each group's node.
    fn add_groups(&mut self, board: &Board) -> HashMap<(Vec<u32>, Value), u32> {
        let n = board.n();
        let mut groups: HashMap<(Vec<u32>, Value), u32> = HashMap::new();
        for h1 in 0..board.house_count() {
            for h2 in h1 + 1..board.house_count() {
                let common: Vec<u32> = board
                    .house(h1)
                    .iter()
                    .copied()
                    .filter(|c| board.house(h2).contains(c))
                    .collect();
                if common.len() < 2 {
                    continue;
                }
                for d in 1..=n as Value {
                    let cells: Vec<u32> = common
                        .iter()
                        .copied()
                        .filter(|&c| board.has(c as usize, d))
                        .collect();
                    if cells.len() >= 2 && !groups.contains_key(&(cells.clone(), d)) {
                        groups.insert((cells.clone(), d), self.nodes.len() as u32);
                        self.nodes.push((cells, d));
                    }
                }
            }
        }
        groups
    }

    /// Weak links of group nodes: singles and groups of the digit that see every cell.
    fn link_groups(&mut self, board: &Board) {
        let count = self.nodes.len();
        if count == self.singles {
            return;
        }
        let peers = PeerSets::new(board);
        let mut of_digit = vec![vec![]; board.n() + 1];
        for (node, (_, d)) in self.nodes.iter().enumerate() {
            of_digit[*d as usize].push(node);
        }
        for g in self.singles..count {
            let (cells, d) = self.nodes[g].clone();
            for &other in &of_digit[d as usize] {
                let ocells = &self.nodes[other].0;
                if other == g {
                    continue;
                }
                let disjoint = ocells.iter().all(|c| !cells.contains(c));
                let sees = ocells
                    .iter()
                    .all(|&x| cells.iter().all(|&y| peers.sees(x as usize, y as usize)));
                if disjoint && sees {
                    self.weak[g].push(other as u32);
                    if other < self.singles {
                        self.weak[other].push(g as u32);
                    }
                }
            }
        }
    }

    /// The single node of a candidate (the cell must hold the digit).
    pub fn node(&self, cell: usize, d: Value) -> u32 {
        self.index[cell * self.n + d as usize - 1]
    }
    /// The candidate of a single node.
    pub fn candidate(&self, node: u32) -> Candidate {
        let (cells, d) = &self.nodes[node as usize];
        Candidate::new(cells[0] as usize, *d)
    }
    pub fn digit(&self, node: u32) -> Value {
        self.nodes[node as usize].1
    }
    pub fn cells(&self, node: u32) -> &[u32] {
        &self.nodes[node as usize].0
    }
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }
    /// The nodes weakly linked to `node`.
    pub fn weak(&self, node: u32) -> &[u32] {
        &self.weak[node as usize]
    }

    /// True when a link of `mode` may join `from` to `to` (`strong` for a strong link) in a
    /// search from `start` (whose node may leave the bivalue cells of an XY-chain).
    fn allowed(&self, mode: Mode, start: u32, from: u32, to: u32, strong: bool) -> bool {
        let (fc, fd) = &self.nodes[from as usize];
        let (tc, td) = &self.nodes[to as usize];
        match mode {
            Mode::Digit(d) => *fd == d && *td == d && (to as usize) < self.singles,
            Mode::Bivalue => {
                (to as usize) < self.singles
                    && (to == start || self.bivalue[tc[0] as usize])
                    && (from == start || self.bivalue[fc[0] as usize])
                    && (fc[0] == tc[0]) == strong
            }
            Mode::All => (to as usize) < self.singles,
            Mode::Grouped => true,
        }
    }

    /// Breadth-first search from one node state (state `2 * start + on`), following links
    /// allowed by `mode` for at most `max_links` links, until `target` is reached. Returns true
    /// when it is; [`Reach`] says which states were reached and how.
    pub fn search(
        &self,
        mode: Mode,
        (start, on): (u32, bool),
        max_links: u16,
        target: Option<u32>,
        reach: &mut Reach,
    ) -> bool {
        reach.reset(self.nodes.len() * 2);
        let first = 2 * start + on as u32;
        reach.parent[first as usize] = first;
        reach.queue.push(first);
        let mut head = 0;
        while head < reach.queue.len() {
            let state = reach.queue[head];
            head += 1;
            let depth = reach.depth[state as usize];
            if depth >= max_links {
                continue;
            }
            let node = state / 2;
            let (list, strong) = match state % 2 {
                1 => (&self.weak[node as usize], false),
                _ => (&self.strong[node as usize], true),
            };
            for &next in list {
                let to = 2 * next + strong as u32;
                if reach.parent[to as usize] != u32::MAX
                    || !self.allowed(mode, start, node, next, strong)
                {
                    continue;
                }
                reach.parent[to as usize] = state;
                reach.depth[to as usize] = depth + 1;
                reach.queue.push(to);
                if Some(to) == target {
                    return true;
                }
            }
        }
        false
    }

    /// True when a search of `mode` on this board already found nothing.
    pub fn known_empty(&self, mode: Mode) -> bool {
        self.empty.borrow().contains(&mode)
    }
    /// Records that a search of `mode` on this board found nothing.
    pub fn set_empty(&self, mode: Mode) {
        self.empty.borrow_mut().push(mode);
    }

    /// The chain record of a path of states, first to last.
    pub fn chain(&self, states: &[u32]) -> Vec<Node> {
        states
            .iter()
            .enumerate()
            .map(|(i, &s)| {
                let (cells, digit) = self.nodes[(s / 2) as usize].clone();
                let link = match states.get(i + 1) {
                    Some(next) if next % 2 == 1 => Link::Strong,
                    Some(_) => Link::Weak,
                    None => Link::End,
                };
                Node { cells, digit, link }
            })
            .collect()
    }

    /// Single nodes other than `a` and `b` weakly linked to both: they are false when `a` or
    /// `b` is true.
    pub fn seen_by_both(&self, a: u32, b: u32) -> Vec<Candidate> {
        let wa = &self.weak[a as usize];
        self.weak[b as usize]
            .iter()
            .filter(|&&x| {
                (x as usize) < self.singles && x != a && x != b && wa.binary_search(&x).is_ok()
            })
            .map(|&x| self.candidate(x))
            .collect()
    }
}

/// The states one search reached, with the path to each (reused between searches).
#[derive(Debug, Default)]
pub struct Reach {
    parent: Vec<u32>,
    depth: Vec<u16>,
    /// States in the order they were reached (nearest first).
    pub queue: Vec<u32>,
}

impl Reach {
    /// Clears the last search: only the states it reached (all in the queue) when the graph
    /// has the same size, so that a search costs what it visits.
    fn reset(&mut self, states: usize) {
        if self.parent.len() == states {
            for &s in &self.queue {
                self.parent[s as usize] = u32::MAX;
                self.depth[s as usize] = 0;
            }
        } else {
            self.parent.clear();
            self.parent.resize(states, u32::MAX);
            self.depth.clear();
            self.depth.resize(states, 0);
        }
        self.queue.clear();
    }
    /// True when the last search reached `state`.
    pub fn reached(&self, state: u32) -> bool {
        self.parent
            .get(state as usize)
            .is_some_and(|&p| p != u32::MAX)
    }
    /// Links from the premise to `state`.
    pub fn depth(&self, state: u32) -> u16 {
        self.depth[state as usize]
    }
    /// The states from the premise to `state` (which must be reached).
    pub fn path(&self, state: u32) -> Vec<u32> {
        let mut path = vec![state];
        let mut s = state;
        while self.parent[s as usize] != s {
            s = self.parent[s as usize];
            path.push(s);
        }
        path.reverse();
        path
    }
}
