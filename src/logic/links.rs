//! The link graph that chain techniques walk: nodes are candidates (a digit in a cell) and, for
//! the grouped techniques, group nodes (the cells of one digit inside the intersection of two
//! houses, such as a box and a line); links are weak (both nodes cannot be true) or strong (both
//! cannot be false).
//!
//! A chain is read as implications between node states: a weak link takes a true node to a false
//! one, a strong link a false node to a true one. [`Links::search`] is a breadth-first search over
//! those states from one premise, so every chain it returns is a shortest one and every
//! implication in it holds on the board (soundness does not depend on the search). The graph is
//! built once per board state and kept for the next finder that asks for the same candidates of
//! the same puzzle ([`Links::of`]). [`Links::loop_lengths`] answers, before any path is
//! followed, which candidates close a loop back on themselves and how short: the searches from
//! 64 candidates run at once, a bit each in one mask per state, level by level; the lengths are
//! those [`Links::search`] finds, so the chain finders then follow only the paths they keep.
//!
//! State layout: state `2 * node` is "node false", `2 * node + 1` is "node true". Single nodes
//! come first (`node < singles`), then group nodes.

use std::cell::RefCell;
use std::rc::Rc;

use super::board::{bits, digits, Board, DigitCells};
use super::origin::Origin;
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

/// One list of nodes per node, in one array.
#[derive(Debug, Default)]
struct Lists {
    /// `items[start[i]..start[i + 1]]`: the list of node `i` (nodes past the end have none).
    start: Vec<u32>,
    items: Vec<u32>,
}

impl Lists {
    fn new(capacity: usize) -> Lists {
        Lists {
            start: vec![0],
            items: Vec::with_capacity(capacity),
        }
    }
    fn of(&self, node: u32) -> &[u32] {
        match self.start.get(node as usize + 1) {
            Some(&end) => &self.items[self.start[node as usize] as usize..end as usize],
            None => &[],
        }
    }
    /// The list of a node the lists were built for (every node of the graph).
    fn at(&self, node: u32) -> &[u32] {
        let i = node as usize;
        &self.items[self.start[i] as usize..self.start[i + 1] as usize]
    }
    /// Ends the list being filled (the next node's begins).
    fn close(&mut self) {
        self.start.push(self.items.len() as u32);
    }
    /// The lists of `count` nodes from pairs `(node, item)`, each list in the pairs' order
    /// (a counting sort: no comparison, no removal of repeats).
    fn from_pairs_in_order(count: usize, pairs: &[(u32, u32)]) -> Lists {
        let mut start = vec![0u32; count + 1];
        for &(node, _) in pairs {
            start[node as usize + 1] += 1;
        }
        for i in 0..count {
            start[i + 1] += start[i];
        }
        let mut at = start.clone();
        let mut items = vec![0; pairs.len()];
        for &(node, item) in pairs {
            items[at[node as usize] as usize] = item;
            at[node as usize] += 1;
        }
        Lists { start, items }
    }
    /// The lists of `count` nodes from pairs `node << 32 | item`, each list ascending and
    /// without repeats.
    fn from_pairs(count: usize, pairs: &mut Vec<u64>) -> Lists {
        pairs.sort_unstable();
        pairs.dedup();
        let mut lists = Lists::new(pairs.len());
        let mut at = 0;
        for node in 0..count as u64 {
            while at < pairs.len() && pairs[at] >> 32 == node {
                lists.items.push(pairs[at] as u32);
                at += 1;
            }
            lists.close();
        }
        lists
    }
}

/// The group nodes of a graph being built: the groups of each digit inside each house
/// (`in_house[h * n + d - 1]`).
#[derive(Debug, Default)]
struct Groups {
    in_house: Vec<Vec<u32>>,
}

/// Nodes and links of one board state.
#[derive(Debug)]
pub struct Links {
    /// The puzzle and candidates of the board the graph was built from.
    origin: Origin,
    cands: Vec<u64>,
    grouped: bool,
    n: usize,
    /// The digit of each node.
    digits: Vec<Value>,
    /// `cells[cell_start[i]..cell_start[i + 1]]`: the cells of node `i`.
    cell_start: Vec<u32>,
    cells: Vec<u32>,
    /// Number of single nodes (the first nodes).
    pub singles: usize,
    /// Node of `cell * n + digit - 1`, `u32::MAX` when the cell lacks the digit.
    index: Vec<u32>,
    /// Weak links between single nodes.
    weak: Lists,
    /// Weak links with a group node at one end or both (empty without groups).
    group_weak: Lists,
    /// Strong links, of every kind.
    strong: Lists,
    /// The weak links (both kinds) to nodes that have a strong link: the ones a search for a
    /// target follows (see [`Links::search`]).
    live_weak: Lists,
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
                && l.origin.holds(board)
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
            origin: Origin::of(board),
            cands: (0..n * n).map(|c| board.cands(c)).collect(),
            grouped,
            n,
            digits: vec![],
            cell_start: vec![0],
            cells: vec![],
            singles: 0,
            index: vec![u32::MAX; n * n * n],
            weak: Lists::default(),
            group_weak: Lists::default(),
            strong: Lists::default(),
            live_weak: Lists::default(),
            bivalue: (0..n * n)
                .map(|c| board.cands(c).count_ones() == 2)
                .collect(),
            empty: RefCell::new(vec![]),
        };
        for cell in 0..n * n {
            for d in digits(board.cands(cell)) {
                links.index[cell * n + d as usize - 1] = links.digits.len() as u32;
                links.push_node(&[cell as u32], d);
            }
        }
        links.singles = links.digits.len();
        let holding = DigitCells::of(board);
        links.weak = links.single_weak_links(board, &holding);
        let groups = match grouped {
            true => links.add_groups(board),
            false => Groups::default(),
        };
        if grouped {
            links.group_weak = links.group_weak_links(board, &holding);
        }
        links.strong = links.strong_links(board, &groups);
        let has_strong: Vec<bool> = (0..links.node_count() as u32)
            .map(|node| !links.strong.at(node).is_empty())
            .collect();
        let mut live = Lists::new(links.weak.items.len());
        for node in 0..links.node_count() as u32 {
            for list in [links.weak.of(node), links.group_weak.of(node)] {
                live.items
                    .extend(list.iter().filter(|&&next| has_strong[next as usize]));
            }
            live.close();
        }
        links.live_weak = live;
        links
    }

    fn push_node(&mut self, cells: &[u32], d: Value) {
        self.digits.push(d);
        self.cells.extend_from_slice(cells);
        self.cell_start.push(self.cells.len() as u32);
    }

    /// Weak links between single nodes: a candidate's cell's other digits and its digit in the
    /// cell's peers, listed in node order (peers before the cell, the cell, peers after).
    fn single_weak_links(&self, board: &Board, holding: &DigitCells) -> Lists {
        let n = self.n;
        let mut weak = Lists::new(self.singles * 2 * n);
        for cell in 0..n * n {
            let cands = board.cands(cell);
            let peers = board.peer_set(cell);
            let (word, below) = (cell / 64, (1u64 << (cell % 64)) - 1);
            for d in digits(cands) {
                let has = holding.of_digit(d);
                // Peers holding `d`, as cells: those before the cell when `before`, else after.
                let peers_of = |before: bool, out: &mut Vec<u32>| {
                    let words = match before {
                        true => 0..word + 1,
                        false => word..peers.len(),
                    };
                    for w in words {
                        let mut m = peers[w] & has[w];
                        if w == word {
                            m &= if before { below } else { !below };
                        }
                        out.extend(bits(m).map(|b| self.node(w * 64 + b, d)));
                    }
                };
                peers_of(true, &mut weak.items);
                weak.items.extend(
                    digits(cands)
                        .filter(|&e| e != d)
                        .map(|e| self.node(cell, e)),
                );
                peers_of(false, &mut weak.items);
                weak.close();
            }
        }
        weak
    }

    /// Strong links: inside bivalue cells, and in houses where a digit's places split into two
    /// nodes (two cells; with groups, a group and a cell or two groups).
    fn strong_links(&self, board: &Board, groups: &Groups) -> Lists {
        let n = self.n;
        let mut pairs: Vec<u64> = vec![];
        let mut both = |a: u32, b: u32| {
            pairs.push((a as u64) << 32 | b as u64);
            pairs.push((b as u64) << 32 | a as u64);
        };
        for cell in 0..n * n {
            if self.bivalue[cell] {
                let mut ds = digits(board.cands(cell));
                let (d, e) = (ds.next().unwrap_or(1), ds.next().unwrap_or(1));
                both(self.node(cell, d), self.node(cell, e));
            }
        }
        let (mut positions, mut rest): (Vec<u32>, Vec<u32>) = (vec![], vec![]);
        for h in 0..board.house_count() {
            for d in 1..=n as Value {
                let places = board.positions(h, d);
                if places.count_ones() == 2 {
                    let mut cells = bits(places).map(|i| board.house(h)[i] as usize);
                    let (a, b) = (cells.next().unwrap_or(0), cells.next().unwrap_or(0));
                    both(self.node(a, d), self.node(b, d));
                }
                if !self.grouped || places.count_ones() < 2 {
                    continue;
                }
                // Splits with a group on one side (and a single or a group on the other).
                positions.clear();
                positions.extend(bits(places).map(|i| board.house(h)[i]));
                let in_house = &groups.in_house[h * n + d as usize - 1];
                for &g in in_house {
                    // The group's cells hold `d` inside the house: they are among its places.
                    rest.clear();
                    rest.extend(positions.iter().filter(|c| !self.cells(g).contains(c)));
                    // A group equal to the rest lies in this house too.
                    let other = match rest.len() {
                        1 => Some(self.node(rest[0] as usize, d)),
                        _ => in_house.iter().copied().find(|&o| self.cells(o) == rest),
                    };
                    if let Some(b) = other {
                        both(g, b);
                    }
                }
            }
        }
        Lists::from_pairs(self.digits.len(), &mut pairs)
    }

    /// Adds the group nodes: a digit's places (two or more) in the cells two houses share.
    fn add_groups(&mut self, board: &Board) -> Groups {
        let n = board.n();
        let shape = board.shape();
        let mut groups = Groups {
            in_house: vec![vec![]; board.house_count() * n],
        };
        // Per first cell, the groups so far (two intersections may leave a digit the same
        // cells).
        let mut from: Vec<Vec<u32>> = vec![vec![]; n * n];
        let mut cells: Vec<u32> = vec![];
        for common in board.intersections() {
            for d in 1..=n as Value {
                cells.clear();
                cells.extend(common.iter().filter(|&&c| board.has(c as usize, d)));
                if cells.len() < 2 {
                    continue;
                }
                let first = cells[0] as usize;
                let known = from[first]
                    .iter()
                    .any(|&g| self.digit(g) == d && self.cells(g) == cells);
                if known {
                    continue;
                }
                let g = self.digits.len() as u32;
                for &h in shape.houses_of(first) {
                    if cells
                        .iter()
                        .all(|&c| shape.houses_of(c as usize).contains(&h))
                    {
                        groups.in_house[h as usize * n + d as usize - 1].push(g);
                    }
                }
                from[first].push(g);
                self.push_node(&cells, d);
            }
        }
        groups
    }

    /// Weak links of group nodes: singles and groups of the digit that see every cell.
    fn group_weak_links(&self, board: &Board, holding: &DigitCells) -> Lists {
        let count = self.digits.len();
        let n = board.n();
        let words = board.peer_set(0).len();
        let mut pairs: Vec<(u32, u32)> = vec![];
        // Per digit, its group nodes.
        let mut groups_of = vec![vec![]; n + 1];
        for g in self.singles..count {
            groups_of[self.digits[g] as usize].push(g as u32);
        }
        let mut seen = vec![0u64; words];
        for g in self.singles as u32..count as u32 {
            let (cells, d) = (self.cells(g), self.digit(g));
            // The cells that see every cell of the group (none of the group's among them: a
            // cell is not its own peer, so a node seeing the group is disjoint from it).
            seen.fill(u64::MAX);
            for &c in cells {
                for (w, p) in seen.iter_mut().zip(board.peer_set(c as usize)) {
                    *w &= p;
                }
            }
            for (w, (&s, &h)) in seen.iter().zip(holding.of_digit(d)).enumerate() {
                for b in bits(s & h) {
                    let other = self.node(w * 64 + b, d);
                    pairs.push((g, other));
                    pairs.push((other, g));
                }
            }
            for &other in &groups_of[d as usize] {
                let sees =
                    (self.cells(other).iter()).all(|&x| seen[x as usize / 64] >> (x % 64) & 1 != 0);
                if sees {
                    pairs.push((g, other));
                }
            }
        }
        // Each list comes out ascending: a group's singles (in cell order) before its groups
        // (in node order), a single's groups in node order.
        Lists::from_pairs_in_order(count, &pairs)
    }

    /// The single node of a candidate (the cell must hold the digit).
    pub fn node(&self, cell: usize, d: Value) -> u32 {
        self.index[cell * self.n + d as usize - 1]
    }
    /// The candidate of a single node.
    pub fn candidate(&self, node: u32) -> Candidate {
        Candidate::new(self.cells(node)[0] as usize, self.digit(node))
    }
    pub fn digit(&self, node: u32) -> Value {
        self.digits[node as usize]
    }
    pub fn cells(&self, node: u32) -> &[u32] {
        let i = node as usize;
        &self.cells[self.cell_start[i] as usize..self.cell_start[i + 1] as usize]
    }
    pub fn node_count(&self) -> usize {
        self.digits.len()
    }
    /// True when `node` is a single node in a cell of two candidates.
    pub fn is_bivalue(&self, node: u32) -> bool {
        (node as usize) < self.singles && self.bivalue[self.cells(node)[0] as usize]
    }
    /// The nodes weakly linked to `node`, ascending.
    pub fn weak(&self, node: u32) -> impl Iterator<Item = u32> + '_ {
        self.weak
            .of(node)
            .iter()
            .chain(self.group_weak.of(node))
            .copied()
    }
    /// True when `a` and `b` are weakly linked.
    fn weakly_linked(&self, a: u32, b: u32) -> bool {
        self.weak.of(a).binary_search(&b).is_ok() || self.group_weak.of(a).binary_search(&b).is_ok()
    }

    /// True when a link of `mode` may join `from` to `to` (`strong` for a strong link) in a
    /// search from `start` (whose node may leave the bivalue cells of an XY-chain).
    fn allowed(&self, mode: Mode, start: u32, from: u32, to: u32, strong: bool) -> bool {
        match mode {
            Mode::Digit(d) => {
                self.digits[from as usize] == d
                    && self.digits[to as usize] == d
                    && (to as usize) < self.singles
            }
            Mode::Bivalue => {
                let (fc, tc) = (self.cells(from)[0], self.cells(to)[0]);
                (to as usize) < self.singles
                    && (to == start || self.bivalue[tc as usize])
                    && (from == start || self.bivalue[fc as usize])
                    && (fc == tc) == strong
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
        reach.reset(self.node_count() * 2);
        let first = 2 * start + on as u32;
        reach.parent[first as usize] = first;
        reach.queue.push(first);
        // A search for one target in the modes without per-link rules need not queue the
        // false nodes without strong links (they lead nowhere): the target, a false node, is
        // tested for directly.
        let pruned = match target {
            Some(t) if t.is_multiple_of(2) && matches!(mode, Mode::All | Mode::Grouped) => {
                Some(t / 2)
            }
            _ => None,
        };
        if let Some(x) = pruned {
            reach.set_near(self.node_count(), self.weak(x));
        }
        // One loop per kind of mode, so that the modes without per-link rules test none.
        match mode {
            Mode::All | Mode::Grouped => {
                let singles_only = mode == Mode::All;
                self.walk(max_links, target, pruned, singles_only, reach, |_, _, _| {
                    true
                })
            }
            _ => self.walk(max_links, target, None, false, reach, |from, to, strong| {
                self.allowed(mode, start, from, to, strong)
            }),
        }
    }

    /// The loop of [`Links::search`]: states in the order they are reached, each followed by
    /// its links in list order (weak links to single nodes, then to groups), a link taken when
    /// `allow(from, to, strong)`; only single nodes when `singles_only`.
    fn walk(
        &self,
        max_links: u16,
        target: Option<u32>,
        pruned: Option<u32>,
        singles_only: bool,
        reach: &mut Reach,
        allow: impl Fn(u32, u32, bool) -> bool,
    ) -> bool {
        let Reach {
            parent,
            depth,
            queue,
            near,
        } = reach;
        let target = target.unwrap_or(u32::MAX);
        let singles = self.singles as u32;
        let mut head = 0;
        while let Some(&state) = queue.get(head) {
            head += 1;
            let d = depth[state as usize];
            if d >= max_links {
                continue;
            }
            let node = state / 2;
            let strong = state.is_multiple_of(2);
            let (list, groups): (&[u32], &[u32]) = match (strong, pruned) {
                (true, _) => (self.strong.at(node), &[]),
                (false, None) => (self.weak.of(node), self.group_weak.of(node)),
                (false, Some(x)) => {
                    let x2 = 2 * x as usize;
                    if near[node as usize / 64] >> (node % 64) & 1 != 0 && parent[x2] == u32::MAX {
                        parent[x2] = state;
                        depth[x2] = d + 1;
                        queue.push(2 * x);
                        return true;
                    }
                    (self.live_weak.at(node), &[])
                }
            };
            for part in [list, groups] {
                for &next in part {
                    // Lists are ascending and group nodes come last.
                    if singles_only && next >= singles {
                        break;
                    }
                    let to = 2 * next + strong as u32;
                    if parent[to as usize] != u32::MAX || !allow(node, next, strong) {
                        continue;
                    }
                    parent[to as usize] = state;
                    depth[to as usize] = d + 1;
                    queue.push(to);
                    if to == target {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The candidates `x` (in node order) with a loop "`x` true" … "`x` false" in `mode` of
    /// `max_links` links at most, each with the length of its shortest loop: what
    /// [`Links::search`] from each candidate finds. With `first_only`, the first candidate
    /// whose loop is shortest on the board alone (each search bounded by the shortest loop so
    /// far). The searches run 64 at a time, one bit of a mask each, level by level (a
    /// breadth-first search over masks), so a board without a short loop costs a few passes
    /// over the graph rather than one per candidate.
    pub fn loop_lengths(&self, mode: Mode, max_links: u16, first_only: bool) -> Vec<(u32, u16)> {
        let singles = self.singles as u32;
        let starts: Vec<u32> = (0..singles)
            .filter(|&x| !matches!(mode, Mode::Digit(d) if self.digits[x as usize] != d))
            .collect();
        LOOP_BITS.with(|bits| {
            self.loop_lengths_with(&mut bits.borrow_mut(), mode, &starts, max_links, first_only)
        })
    }

    fn loop_lengths_with(
        &self,
        bits: &mut LoopBits,
        mode: Mode,
        starts: &[u32],
        max_links: u16,
        first_only: bool,
    ) -> Vec<(u32, u16)> {
        let singles = self.singles as u32;
        bits.prepare(self.node_count());
        let mut out: Vec<(u32, u16)> = vec![];
        for batch in starts.chunks(64) {
            let bound = match out.last() {
                Some(&(_, len)) if first_only => len - 1,
                _ => max_links,
            };
            let found = match mode {
                Mode::Digit(d) => bits.run(self, batch, bound, first_only, false, |_, to, _| {
                    to < singles && self.digits[to as usize] == d
                }),
                Mode::All => bits.run(self, batch, bound, first_only, false, |_, to, _| {
                    to < singles
                }),
                Mode::Grouped => bits.run(self, batch, bound, first_only, false, |_, _, _| true),
                // A start outside the bivalue cells is left by its own search alone
                // ([`LoopBits::own`]).
                Mode::Bivalue => {
                    bits.run(self, batch, bound, first_only, true, |from, to, strong| {
                        let (fc, tc) = (self.cells(from)[0], self.cells(to)[0]);
                        to < singles && (fc == tc) == strong
                    })
                }
            };
            out.extend(found);
        }
        if first_only {
            out.drain(..out.len().saturating_sub(1));
        }
        out
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
                let link = match states.get(i + 1) {
                    Some(next) if next % 2 == 1 => Link::Strong,
                    Some(_) => Link::Weak,
                    None => Link::End,
                };
                Node {
                    cells: self.cells(s / 2).to_vec(),
                    digit: self.digit(s / 2),
                    link,
                }
            })
            .collect()
    }

    /// Single nodes other than `a` and `b` weakly linked to both: they are false when `a` or
    /// `b` is true.
    pub fn seen_by_both(&self, a: u32, b: u32) -> Vec<Candidate> {
        self.weak(b)
            .filter(|&x| {
                (x as usize) < self.singles && x != a && x != b && self.weakly_linked(a, x)
            })
            .map(|x| self.candidate(x))
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
    /// The nodes weakly linked to the target's node, a bit each.
    near: Vec<u64>,
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
    fn set_near(&mut self, nodes: usize, near: impl Iterator<Item = u32>) {
        self.near.clear();
        self.near.resize(nodes.div_ceil(64), 0);
        for node in near {
            self.near[node as usize / 64] |= 1 << (node % 64);
        }
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

/// The masks of [`Links::loop_lengths`], kept between its batches: per state, the searches
/// (bits) that reached it, those that reached it at the last level, and those reaching it at
/// the next.
#[derive(Default)]
struct LoopBits {
    visited: Vec<u64>,
    /// The states `visited` holds bits for (cleared after each batch).
    reached: Vec<u32>,
    frontier: Vec<u64>,
    next: Vec<u64>,
    /// Per node, the bit of the search starting at it in the batch at hand (`0`: none). In
    /// XY-chains a node outside the bivalue cells is open to that search alone.
    own: Vec<u64>,
    /// Per node, the searches of the batch whose start it is weakly linked to.
    near: Vec<u64>,
    active: Vec<u32>,
    touched: Vec<u32>,
}

thread_local! {
    static LOOP_BITS: RefCell<LoopBits> = RefCell::new(LoopBits::default());
}

impl LoopBits {
    /// Room for a graph of `nodes` nodes (every mask is zero between two runs).
    fn prepare(&mut self, nodes: usize) {
        if self.own.len() < nodes {
            self.visited.resize(2 * nodes, 0);
            self.frontier.resize(2 * nodes, 0);
            self.next.resize(2 * nodes, 0);
            self.own.resize(nodes, 0);
            self.near.resize(nodes, 0);
        }
    }

    /// The searches from the nodes of `batch` (at most 64), level by level up to `bound`
    /// links, following the links `allow(from, to, strong)` lets through: the starts whose
    /// "false" state is reached, in node order, with the level. With `first_only`, the first
    /// level where some start is reached ends the run (its first start is returned). With
    /// `bivalue_only`, a node outside the bivalue cells takes the search from it alone.
    fn run(
        &mut self,
        links: &Links,
        batch: &[u32],
        bound: u16,
        first_only: bool,
        bivalue_only: bool,
        allow: impl Fn(u32, u32, bool) -> bool,
    ) -> Vec<(u32, u16)> {
        let bivalue = |node: u32| links.bivalue[links.cells(node)[0] as usize];
        self.active.clear();
        for (i, &x) in batch.iter().enumerate() {
            let on = 2 * x as usize + 1;
            self.visited[on] = 1 << i;
            self.reached.push(on as u32);
            self.frontier[on] = 1 << i;
            self.own[x as usize] = 1 << i;
            self.active.push(on as u32);
            for t in links.weak(x) {
                if allow(t, x, false) && (!bivalue_only || bivalue(t)) {
                    self.near[t as usize] |= 1 << i;
                }
            }
        }
        // Searches that reached their start's "false" state: they follow no more links.
        let (mut done, mut out) = (0u64, vec![]);
        for depth in 1..=bound {
            // The searches reaching their start's "false" state at this level.
            let mut hits = 0u64;
            for &state in &self.active {
                let mask = std::mem::take(&mut self.frontier[state as usize]) & !done;
                if mask == 0 {
                    continue;
                }
                let (node, strong) = (state / 2, state.is_multiple_of(2));
                // A "false" node without a strong link leads nowhere: the weak links followed
                // are those to nodes with one, and a start is tested for directly.
                let list = match strong {
                    true => links.strong.at(node),
                    false => {
                        hits |= mask & self.near[node as usize];
                        links.live_weak.at(node)
                    }
                };
                for &to_node in list {
                    let to = (2 * to_node + strong as u32) as usize;
                    let mut add = mask & !self.visited[to];
                    if add == 0 || !allow(node, to_node, strong) {
                        continue;
                    }
                    // An XY-chain leaves the bivalue cells at its own start only.
                    if bivalue_only && !bivalue(to_node) {
                        add &= self.own[to_node as usize];
                        if add == 0 {
                            continue;
                        }
                    }
                    if self.next[to] == 0 {
                        self.touched.push(to as u32);
                    }
                    self.next[to] |= add;
                }
            }
            self.active.clear();
            for &to in &self.touched {
                let to = to as usize;
                if self.visited[to] == 0 {
                    self.reached.push(to as u32);
                }
                self.visited[to] |= self.next[to];
                self.frontier[to] = std::mem::take(&mut self.next[to]);
            }
            std::mem::swap(&mut self.active, &mut self.touched);
            for (i, &x) in batch.iter().enumerate() {
                if (hits & !done) >> i & 1 != 0 {
                    done |= 1 << i;
                    out.push((x, depth));
                    if first_only {
                        break;
                    }
                }
            }
            if (first_only && !out.is_empty()) || self.active.is_empty() {
                break;
            }
        }
        for &state in &self.active {
            self.frontier[state as usize] = 0;
        }
        for &state in &self.reached {
            self.visited[state as usize] = 0;
        }
        self.reached.clear();
        for &x in batch {
            self.own[x as usize] = 0;
            for t in links.weak(x) {
                self.near[t as usize] = 0;
            }
        }
        out.sort_unstable();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::{solve, Ladder};

    /// What [`Links::loop_lengths`] answers, asked one search at a time: every candidate's
    /// shortest loop from [`Links::search`].
    fn one_at_a_time(links: &Links, mode: Mode, max_links: u16) -> Vec<(u32, u16)> {
        let mut reach = Reach::default();
        let mut out = vec![];
        for x in 0..links.singles as u32 {
            if matches!(mode, Mode::Digit(d) if links.digit(x) != d) {
                continue;
            }
            if links.search(mode, (x, true), max_links, Some(2 * x), &mut reach) {
                out.push((x, reach.depth(2 * x)));
            }
        }
        out
    }

    #[test]
    fn the_searches_on_masks_find_what_one_search_at_a_time_finds() {
        // Every board along a hard puzzle's path, in every mode and at two bounds.
        let p = crate::logic::hard_test_puzzle();
        let path = solve(&p, &Ladder::default()).unwrap().steps;
        let mut board = Board::new(&p).unwrap();
        let mut loops = 0;
        for step in &path {
            for grouped in [false, true] {
                let links = Links::build(&board, grouped);
                let mut modes = vec![Mode::Bivalue, Mode::All];
                modes.extend((1..=9).map(Mode::Digit));
                if grouped {
                    modes.push(Mode::Grouped);
                }
                for mode in modes {
                    for max_links in [5, MAX_LINKS] {
                        let every = one_at_a_time(&links, mode, max_links);
                        assert_eq!(
                            links.loop_lengths(mode, max_links, false),
                            every,
                            "{mode:?}"
                        );
                        // The first of the shortest, as a search bounded by the best so far
                        // keeps it.
                        let shortest = every.iter().map(|&(_, len)| len).min();
                        let first = every.iter().find(|&&(_, len)| Some(len) == shortest);
                        let first_only = links.loop_lengths(mode, max_links, true);
                        assert_eq!(first_only.first(), first, "{mode:?}");
                        loops += every.len();
                    }
                }
            }
            board.apply(step);
        }
        assert!(loops > 100, "{loops}");
    }
}
