//! A generic exact-cover engine: Knuth's Algorithm X with dancing links, independent of Sudoku.
//!
//! A matrix has *primary* columns (each must be covered exactly once) and *secondary* columns (each
//! covered at most once). Rows are lists of column indices, added one at a time with
//! [`ExactCover::add_row`]; rows may be pre-selected with [`ExactCover::select`] before searching.
//! [`ExactCover::search`] returns a [`Search`] that yields solutions one at a time
//! ([`Search::next_solution`]), so solving, counting to a limit and enumerating share one search;
//! [`Search::next_solution_pruned`] adds a hook that may cut any subtree (branch and bound).
//!
//! Layout (Knuth, TAOCP 7.2.2.1, "Algorithm X"): one flat array of nodes, no boxed nodes.
//!
//! ```text
//!  index:  0     1..=items        items+1  row 0 nodes   spacer  row 1 nodes   spacer ...
//!          root  column headers   spacer   (consecutive)         (consecutive)
//! ```
//!
//! Every node has `up`/`down` links in its column and `top`: the column item (1-based) for a row
//! node, the remaining row count for a header, and `-(r + 1)` for the spacer closing row `r` (0
//! for the first spacer). A row is walked by `index ± 1`; at a spacer, `up` leads back to the
//! row's first node and `down` (of the spacer before a row) to its last node, so no left/right
//! links are needed. Uncovered primary columns form a circular list through `llink`/`rlink`
//! headed by the root; secondary columns link only to themselves, so they are never branched on.
//! The search branches on the uncovered primary column with the fewest rows left; the scan for it
//! stops at a column with at most one row, and a primary column emptied by the latest covers (the
//! `hint`) is taken without scanning, since it ends the branch.
//!
//! A search counts its *nodes* (levels entered, the root included) and its *guesses* (levels
//! whose chosen column still had two rows or more: the branch points); a column with one row is
//! forced and is no guess ([`Search::effort`]).
//!
//! [`sudoku`] is the one instance this crate uses: a Sudoku-family puzzle as a matrix (the engine
//! of the `dlx` backend).

use std::time::Instant;

use crate::cancel::Halt;
use crate::effort::Effort;

pub mod sudoku;

/// Default memory limit for one matrix: 1 GiB (the `dlx` backend's `--dlx-memory-mib`).
pub const DEFAULT_MEMORY_LIMIT: usize = 1 << 30;

/// Why a matrix could not be built or a row not selected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExactCoverError {
    #[error("column {column} is out of range: the matrix has {columns} columns")]
    ColumnOutOfRange { column: usize, columns: usize },
    #[error("column {column} appears twice in row {row}")]
    DuplicateColumn { row: usize, column: usize },
    #[error("row {row} does not exist: the matrix has {rows} rows")]
    NoSuchRow { row: usize, rows: usize },
    #[error("row {row} cannot be selected: column {column} is already covered")]
    Conflict { row: usize, column: usize },
    #[error("the matrix is too large for 32-bit node indices ({0} nodes)")]
    TooLarge(usize),
}

/// The search stopped because its deadline passed. The [`Search`] may be resumed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("exact-cover search interrupted by its deadline")]
pub struct Interrupted;

#[derive(Debug, Clone, Copy, Default)]
struct Node {
    up: u32,
    down: u32,
    /// Column item (≥ 1) for a row node, row count for a header, `-(r+1)` / 0 for spacers.
    top: i32,
}

/// Bytes taken per node, per column and per row, for memory estimates.
const NODE_BYTES: usize = std::mem::size_of::<Node>();
const COLUMN_BYTES: usize = NODE_BYTES + 4 + 4 + 4 + 1;
const ROW_BYTES: usize = NODE_BYTES + 4;

/// Largest node count: indices are `u32`, `top` holds `-(row+1)` in an `i32`.
const MAX_NODES: usize = i32::MAX as usize;

/// An exact-cover matrix in dancing-links form, reusable across instances via [`ExactCover::reset`].
#[derive(Debug, Clone, Default)]
pub struct ExactCover {
    primary: usize,
    secondary: usize,
    nodes: Vec<Node>,
    llink: Vec<u32>,
    rlink: Vec<u32>,
    /// First node of each row (for an empty row, its closing spacer).
    row_start: Vec<u32>,
    /// The spacer closing the last row added (or the first spacer).
    last_spacer: u32,
    /// Rows pre-selected with [`ExactCover::select`], in order.
    selected: Vec<usize>,
    /// Per item: covered by a pre-selected row.
    covered: Vec<bool>,
    /// Per item: the last `generation` that mentioned it, to reject duplicates cheaply.
    stamp: Vec<u32>,
    /// Bumped by every [`ExactCover::add_row`] call.
    generation: u32,
    /// The last column whose row count `hide` brought down to 0 (0 for none): tried first by the
    /// column choice, so a dead end is seen without scanning. It may be secondary, covered or have
    /// regained rows since: the choice checks.
    hint: u32,
}

impl ExactCover {
    /// Bytes of memory a matrix with these dimensions needs (`entries` = total row lengths).
    pub fn bytes_needed(columns: usize, rows: usize, entries: usize) -> usize {
        (columns + 1)
            .saturating_mul(COLUMN_BYTES)
            .saturating_add(rows.saturating_add(1).saturating_mul(ROW_BYTES))
            .saturating_add(entries.saturating_mul(NODE_BYTES))
    }

    /// An empty matrix with `primary` primary columns (indices `0..primary`) and `secondary`
    /// secondary columns (indices `primary..primary + secondary`).
    pub fn new(primary: usize, secondary: usize) -> Result<ExactCover, ExactCoverError> {
        let mut m = ExactCover::default();
        m.reset(primary, secondary, 0, 0)?;
        Ok(m)
    }

    /// Clears the matrix for a new instance, keeping its allocations; `rows` and `entries` (total
    /// row lengths) are capacity hints.
    pub fn reset(
        &mut self,
        primary: usize,
        secondary: usize,
        rows: usize,
        entries: usize,
    ) -> Result<(), ExactCoverError> {
        let items = primary + secondary;
        let total = items + 2 + rows + entries;
        if total > MAX_NODES {
            return Err(ExactCoverError::TooLarge(total));
        }
        self.primary = primary;
        self.secondary = secondary;
        self.nodes.clear();
        self.nodes.reserve(total);
        self.llink.clear();
        self.rlink.clear();
        self.row_start.clear();
        self.row_start.reserve(rows);
        self.selected.clear();
        self.covered.clear();
        self.covered.resize(items + 1, false);
        self.stamp.clear();
        self.stamp.resize(items + 1, 0);
        self.generation = 0;
        self.hint = 0;
        // Headers link to themselves; primary columns form a circular list through the root,
        // secondary ones link to themselves only.
        self.nodes.extend((0..=items as u32).map(|i| Node {
            up: i,
            down: i,
            top: 0,
        }));
        let (primary_u32, items_u32) = (primary as u32, items as u32);
        self.llink.push(primary_u32);
        self.llink.extend(0..primary_u32);
        self.llink.extend(primary_u32 + 1..=items_u32);
        self.rlink.extend(1..=primary_u32);
        self.rlink.push(0);
        self.rlink.extend(primary_u32 + 1..=items_u32);
        self.last_spacer = self.nodes.len() as u32;
        self.nodes.push(Node::default());
        Ok(())
    }

    /// Number of columns (primary + secondary).
    pub fn columns(&self) -> usize {
        self.primary + self.secondary
    }
    /// Number of primary columns.
    pub fn primary_columns(&self) -> usize {
        self.primary
    }
    /// Number of rows added.
    pub fn rows(&self) -> usize {
        self.row_start.len()
    }

    /// Adds a row covering the given columns; returns its index (rows are numbered from 0 in the
    /// order added). Rows must be added before any [`ExactCover::select`].
    pub fn add_row(&mut self, columns: &[usize]) -> Result<usize, ExactCoverError> {
        let row = self.row_start.len();
        let items = self.columns();
        let total = self.nodes.len() + columns.len() + 1;
        if total > MAX_NODES {
            return Err(ExactCoverError::TooLarge(total));
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        let tag = self.generation;
        for &c in columns {
            if c >= items {
                return Err(ExactCoverError::ColumnOutOfRange {
                    column: c,
                    columns: items,
                });
            }
            if self.stamp[c + 1] == tag {
                return Err(ExactCoverError::DuplicateColumn { row, column: c });
            }
            self.stamp[c + 1] = tag;
        }
        let first = self.nodes.len() as u32;
        self.nodes.extend(columns.iter().map(|&c| Node {
            up: 0,
            down: c as u32 + 1,
            top: c as i32 + 1,
        }));
        // Link each new node at the bottom of its column.
        for node in first..self.nodes.len() as u32 {
            let item = self.nodes[node as usize].down as usize;
            let header = &mut self.nodes[item];
            let up = header.up;
            header.up = node;
            header.top += 1;
            self.nodes[node as usize].up = up;
            self.nodes[up as usize].down = node;
        }
        let last = self.nodes.len() as u32 - 1;
        self.nodes[self.last_spacer as usize].down = last;
        self.last_spacer = self.nodes.len() as u32;
        self.nodes.push(Node {
            up: first,
            down: 0,
            top: -(row as i32) - 1,
        });
        self.row_start.push(first);
        Ok(row)
    }

    /// Pre-selects a row: it becomes part of every solution and its columns are covered. Fails
    /// (changing nothing) when a column of the row is already covered by a selected row.
    pub fn select(&mut self, row: usize) -> Result<(), ExactCoverError> {
        let rows = self.rows();
        if row >= rows {
            return Err(ExactCoverError::NoSuchRow { row, rows });
        }
        let start = self.row_start[row] as usize;
        let mut p = start;
        while self.nodes[p].top > 0 {
            let item = self.nodes[p].top as usize;
            if self.covered[item] {
                return Err(ExactCoverError::Conflict {
                    row,
                    column: item - 1,
                });
            }
            p += 1;
        }
        for q in start..p {
            let item = self.nodes[q].top as usize;
            self.covered[item] = true;
            self.cover(item);
        }
        self.selected.push(row);
        Ok(())
    }

    /// The rows pre-selected so far.
    pub fn selected(&self) -> &[usize] {
        &self.selected
    }

    /// Starts a search for every exact cover of the matrix (with the selected rows).
    pub fn search(&mut self) -> Search<'_> {
        Search {
            stack: Vec::with_capacity(self.primary + 1),
            solution: Vec::with_capacity(self.selected.len() + self.primary),
            m: self,
            item: 0,
            phase: Phase::Enter,
            halt: Halt::default(),
            nodes: 0,
            guesses: 0,
        }
    }

    /// The row a (non-spacer) node belongs to.
    fn row_of(&self, node: u32) -> usize {
        let mut q = node as usize + 1;
        while self.nodes[q].top > 0 {
            q += 1;
        }
        (-(self.nodes[q].top as i64) - 1) as usize
    }

    // The hot loops below (cover, hide and their inverses, and the column choice) index the node
    // and link arrays without bounds checks, through these accessors.
    //
    // SAFETY (the invariant they rely on): every link in the matrix is in range. `reset` creates
    // `items + 1` headers whose `up`/`down` point to themselves and whose `llink`/`rlink` are in
    // `0..=items` (`llink` and `rlink` have `items + 1` entries), plus one spacer with links 0.
    // `add_row` checks every column (`c < items`) before it pushes nodes, so a row node's `top`
    // is a header index in `1..=items` and its `up`/`down` are existing nodes; a spacer's `up` is
    // its row's first node and its `down` the previous row's last node. Cover, hide and their
    // inverses only ever store values read from other links (or the index of the node being
    // restored), so the invariant holds throughout a search. Nodes are only removed by `reset`,
    // which needs `&mut self` and so cannot run while a [`Search`] borrows the matrix. Debug
    // builds check every index.

    #[inline(always)]
    fn node(&self, i: u32) -> &Node {
        debug_assert!((i as usize) < self.nodes.len(), "node {i} out of range");
        // SAFETY: `i` is a link read from the matrix, in range by the invariant above.
        unsafe { self.nodes.get_unchecked(i as usize) }
    }

    #[inline(always)]
    fn node_mut(&mut self, i: u32) -> &mut Node {
        debug_assert!((i as usize) < self.nodes.len(), "node {i} out of range");
        // SAFETY: as for `node`.
        unsafe { self.nodes.get_unchecked_mut(i as usize) }
    }

    /// Unlinks column header `i` (`1..=items`) from the list of uncovered columns.
    #[inline(always)]
    fn unlink_column(&mut self, i: u32) {
        debug_assert!((i as usize) < self.llink.len());
        // SAFETY: `i` and its neighbours are in `0..=items`, the length of `llink` and `rlink`.
        unsafe {
            let (l, r) = (
                *self.llink.get_unchecked(i as usize),
                *self.rlink.get_unchecked(i as usize),
            );
            debug_assert!((l as usize) < self.rlink.len() && (r as usize) < self.llink.len());
            *self.rlink.get_unchecked_mut(l as usize) = r;
            *self.llink.get_unchecked_mut(r as usize) = l;
        }
    }

    /// Links column header `i` back into the list of uncovered columns (undoes `unlink_column`).
    #[inline(always)]
    fn relink_column(&mut self, i: u32) {
        debug_assert!((i as usize) < self.llink.len());
        // SAFETY: as for `unlink_column`.
        unsafe {
            let (l, r) = (
                *self.llink.get_unchecked(i as usize),
                *self.rlink.get_unchecked(i as usize),
            );
            debug_assert!((l as usize) < self.rlink.len() && (r as usize) < self.llink.len());
            *self.rlink.get_unchecked_mut(l as usize) = i;
            *self.llink.get_unchecked_mut(r as usize) = i;
        }
    }

    /// The uncovered column before header `i` (0 is the root).
    #[inline(always)]
    fn prev_column(&self, i: u32) -> u32 {
        debug_assert!((i as usize) < self.llink.len());
        // SAFETY: `i` is the root or a header, in `0..=items`.
        unsafe { *self.llink.get_unchecked(i as usize) }
    }

    /// The next uncovered column after header `i` (0 is the root).
    #[inline(always)]
    fn next_column(&self, i: u32) -> u32 {
        debug_assert!((i as usize) < self.rlink.len());
        // SAFETY: `i` is the root or a header, in `0..=items`.
        unsafe { *self.rlink.get_unchecked(i as usize) }
    }

    fn cover(&mut self, i: usize) {
        let i = i as u32;
        let mut p = self.node(i).down;
        while p != i {
            self.hide(p);
            p = self.node(p).down;
        }
        self.unlink_column(i);
    }

    /// Removes the nodes of `p`'s row, other than `p`, from their columns: first those after
    /// `p` up to the row's closing spacer, then (from the row's first node, the spacer's `up`)
    /// those before `p`, which need no spacer test.
    #[inline(always)]
    fn hide(&mut self, p: u32) {
        let mut q = p + 1;
        loop {
            let Node { up, down, top } = *self.node(q);
            if top <= 0 {
                q = up;
                break;
            }
            self.unlink_node(up, down, top);
            q += 1;
        }
        while q != p {
            let Node { up, down, top } = *self.node(q);
            self.unlink_node(up, down, top);
            q += 1;
        }
    }

    /// Takes a row node with links `up`/`down` out of column `top`.
    #[inline(always)]
    fn unlink_node(&mut self, up: u32, down: u32, top: i32) {
        debug_assert!(top > 0, "a row node");
        self.node_mut(up).down = down;
        self.node_mut(down).up = up;
        let len = &mut self.node_mut(top as u32).top;
        *len -= 1;
        if *len == 0 {
            self.hint = top as u32;
        }
    }

    /// Puts row node `q` (with links `up`/`down`) back into column `top`.
    #[inline(always)]
    fn relink_node(&mut self, q: u32, up: u32, down: u32, top: i32) {
        debug_assert!(top > 0, "a row node");
        self.node_mut(up).down = q;
        self.node_mut(down).up = q;
        self.node_mut(top as u32).top += 1;
    }

    fn uncover(&mut self, i: usize) {
        let i = i as u32;
        self.relink_column(i);
        let mut p = self.node(i).up;
        while p != i {
            self.unhide(p);
            p = self.node(p).up;
        }
    }

    /// Puts back the nodes removed by `hide(p)`, in reverse order: those before `p` down to the
    /// row's first node (the spacer before the row), then, from the row's last node (that
    /// spacer's `down`), those after `p`.
    #[inline(always)]
    fn unhide(&mut self, p: u32) {
        let mut q = p - 1;
        loop {
            let Node { up, down, top } = *self.node(q);
            if top <= 0 {
                q = down;
                break;
            }
            self.relink_node(q, up, down, top);
            q -= 1;
        }
        while q != p {
            let Node { up, down, top } = *self.node(q);
            self.relink_node(q, up, down, top);
            q -= 1;
        }
    }

    /// Covers the columns of `x`'s row other than `x`'s own (Knuth's step X5).
    fn cover_others(&mut self, x: u32) {
        let mut p = x + 1;
        while p != x {
            let Node { up, top, .. } = *self.node(p);
            if top <= 0 {
                p = up;
            } else {
                self.cover(top as usize);
                p += 1;
            }
        }
    }

    /// Undoes [`Self::cover_others`], in reverse order (Knuth's step X6).
    fn uncover_others(&mut self, x: u32) {
        let mut p = x - 1;
        while p != x {
            let Node { down, top, .. } = *self.node(p);
            if top <= 0 {
                p = down;
            } else {
                self.uncover(top as usize);
                p -= 1;
            }
        }
    }

    /// The uncovered primary column with the fewest rows left (0 when all are covered).
    fn choose(&self) -> usize {
        // The hint, if it is still an uncovered primary column (its left neighbour links back to
        // it) with no row left: a dead end, whatever the scan would find.
        let h = self.hint;
        if h != 0
            && h as usize <= self.primary
            && self.node(h).top == 0
            && self.next_column(self.prev_column(h)) == h
        {
            return h as usize;
        }
        let mut best = 0usize;
        let mut best_len = i32::MAX;
        let mut p = self.next_column(0);
        while p != 0 {
            let len = self.node(p).top;
            if len < best_len {
                best_len = len;
                best = p as usize;
                if len <= 1 {
                    break;
                }
            }
            p = self.next_column(p);
        }
        best
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// About to enter level `stack.len()` (start, or resume after an interruption).
    Enter,
    /// A solution was just reported: backtrack from it.
    Backtrack,
    /// The search space is exhausted.
    Done,
}

/// A search in progress over an [`ExactCover`]; produces solutions one at a time. Dropping it
/// restores the matrix to its state before the search (selected rows stay selected).
#[derive(Debug)]
pub struct Search<'a> {
    m: &'a mut ExactCover,
    /// The node chosen at each level.
    stack: Vec<u32>,
    /// The column branched on at the current level.
    item: usize,
    phase: Phase,
    solution: Vec<usize>,
    halt: Halt,
    nodes: u64,
    guesses: u64,
}

/// A read-only view of the search state, given to the pruning hook of
/// [`Search::next_solution_pruned`].
pub struct View<'s> {
    m: &'s ExactCover,
    stack: &'s [u32],
}

impl View<'_> {
    /// The rows in the partial solution: the pre-selected ones, then one per level.
    pub fn chosen_rows(&self) -> impl Iterator<Item = usize> + '_ {
        self.m
            .selected
            .iter()
            .copied()
            .chain(self.stack.iter().map(|&x| self.m.row_of(x)))
    }
    /// Number of rows chosen by the search (excluding pre-selected rows): the depth.
    pub fn depth(&self) -> usize {
        self.stack.len()
    }
    /// The primary columns not yet covered.
    pub fn uncovered_columns(&self) -> impl Iterator<Item = usize> + '_ {
        let m = self.m;
        let mut p = m.rlink[0] as usize;
        std::iter::from_fn(move || {
            if p == 0 {
                return None;
            }
            let c = p - 1;
            p = m.rlink[p] as usize;
            Some(c)
        })
    }
    /// How many rows can still cover column `column` (meaningful for uncovered columns only).
    pub fn column_len(&self, column: usize) -> usize {
        self.m
            .nodes
            .get(column + 1)
            .map_or(0, |n| n.top.max(0) as usize)
    }
    /// The rows that can still cover (uncovered) column `column`, in the order they were added.
    pub fn rows_in(&self, column: usize) -> impl Iterator<Item = usize> + '_ {
        let m = self.m;
        let head = column + 1;
        let mut p = if head <= m.columns() {
            m.nodes[head].down as usize
        } else {
            head
        };
        std::iter::from_fn(move || {
            if p == head {
                return None;
            }
            let r = m.row_of(p as u32);
            p = m.nodes[p].down as usize;
            Some(r)
        })
    }
}

impl Search<'_> {
    /// Stop (with [`Interrupted`]) once `deadline` has passed; checked every 1024 search nodes.
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> Self {
        self.halt.deadline = deadline;
        self
    }
    /// Stop (with [`Interrupted`]) at the deadline of `halt` or once its flag is set; checked
    /// every 1024 search nodes.
    pub fn with_halt(mut self, halt: Halt) -> Self {
        self.halt = halt;
        self
    }

    /// Search nodes (levels entered, the root included) so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// [`Search::guesses`] and [`Search::nodes`] so far, as named effort counters.
    pub fn effort(&self) -> Effort {
        Effort {
            guesses: Some(self.guesses),
            nodes: Some(self.nodes),
            ..Effort::default()
        }
    }

    /// Branch points so far: levels whose chosen column had two rows or more left to try (a
    /// column with one row is forced, one with none ends the branch).
    pub fn guesses(&self) -> u64 {
        self.guesses
    }

    /// The next solution as row indices (pre-selected rows first), or `None` once every solution
    /// has been produced.
    pub fn next_solution(&mut self) -> Result<Option<&[usize]>, Interrupted> {
        self.next_solution_pruned(|_| true)
    }

    /// Like [`Search::next_solution`], but `keep` is called on entering every search node (with the
    /// partial solution so far) and the subtree is skipped when it returns `false`.
    pub fn next_solution_pruned(
        &mut self,
        mut keep: impl FnMut(&View<'_>) -> bool,
    ) -> Result<Option<&[usize]>, Interrupted> {
        if self.advance(&mut keep)? {
            let m = &*self.m;
            self.solution.clear();
            self.solution.extend_from_slice(&m.selected);
            self.solution
                .extend(self.stack.iter().map(|&x| m.row_of(x)));
            Ok(Some(&self.solution))
        } else {
            Ok(None)
        }
    }

    /// Counts solutions, stopping at `limit`.
    pub fn count_solutions(&mut self, limit: u64) -> Result<u64, Interrupted> {
        let mut n = 0;
        self.count_into(limit, &mut n)?;
        Ok(n)
    }

    /// Counts solutions into `n`, stopping when it reaches `limit`; on interruption, `n` holds
    /// the solutions found so far.
    pub fn count_into(&mut self, limit: u64, n: &mut u64) -> Result<(), Interrupted> {
        while *n < limit && self.advance(&mut |_| true)? {
            *n += 1;
        }
        Ok(())
    }

    /// Runs Algorithm X to the next solution (`true`) or exhaustion (`false`). On `true` and on
    /// interruption, `stack` holds one chosen node per level, with each level's column and the
    /// other columns of its row covered.
    fn advance<F: FnMut(&View<'_>) -> bool>(&mut self, keep: &mut F) -> Result<bool, Interrupted> {
        // Steps of Knuth's Algorithm X: X2 enter a level, X5 try `stack.last()`, X6 try again,
        // X7/X8 backtrack.
        #[derive(PartialEq)]
        enum Step {
            Enter,
            Try,
            Next,
            Leave,
        }
        let mut step = match self.phase {
            Phase::Enter => Step::Enter,
            Phase::Backtrack => Step::Leave,
            Phase::Done => return Ok(false),
        };
        loop {
            match step {
                Step::Enter => {
                    self.nodes += 1;
                    if self.nodes & 1023 == 0 && self.halt.reached() {
                        self.phase = Phase::Enter;
                        return Err(Interrupted);
                    }
                    if self.m.rlink[0] == 0 {
                        self.phase = Phase::Backtrack;
                        return Ok(true);
                    }
                    if !keep(&View {
                        m: self.m,
                        stack: &self.stack,
                    }) {
                        step = Step::Leave;
                        continue;
                    }
                    let i = self.m.choose();
                    let rows = self.m.nodes[i].top;
                    if rows == 0 {
                        step = Step::Leave;
                        continue;
                    }
                    self.guesses += u64::from(rows >= 2);
                    self.m.cover(i);
                    self.item = i;
                    self.stack.push(self.m.nodes[i].down);
                    step = Step::Try;
                }
                Step::Try => {
                    let x = *self.stack.last().unwrap_or(&0);
                    if x as usize == self.item {
                        // Every row of this column tried: uncover it and leave the level.
                        self.stack.pop();
                        self.m.uncover(self.item);
                        step = Step::Leave;
                    } else {
                        self.m.cover_others(x);
                        step = Step::Enter;
                    }
                }
                Step::Next => {
                    let Some(x) = self.stack.last_mut() else {
                        self.phase = Phase::Done;
                        return Ok(false);
                    };
                    self.m.uncover_others(*x);
                    self.item = self.m.nodes[*x as usize].top as usize;
                    *x = self.m.nodes[*x as usize].down;
                    step = Step::Try;
                }
                Step::Leave => {
                    if self.stack.is_empty() {
                        self.phase = Phase::Done;
                        return Ok(false);
                    }
                    step = Step::Next;
                }
            }
        }
    }
}

impl Iterator for Search<'_> {
    type Item = Vec<usize>;
    /// Solutions as owned row lists; ends early (silently) if the deadline passes — use
    /// [`Search::next_solution`] to tell the two apart.
    fn next(&mut self) -> Option<Vec<usize>> {
        self.next_solution().ok().flatten().map(<[usize]>::to_vec)
    }
}

impl Drop for Search<'_> {
    fn drop(&mut self) {
        while let Some(x) = self.stack.pop() {
            self.m.uncover_others(x);
            let item = self.m.nodes[x as usize].top as usize;
            self.m.uncover(item);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_bad_rows() {
        let mut m = ExactCover::new(3, 1).unwrap();
        assert_eq!(
            m.add_row(&[0, 4]),
            Err(ExactCoverError::ColumnOutOfRange {
                column: 4,
                columns: 4
            })
        );
        assert_eq!(
            m.add_row(&[1, 1]),
            Err(ExactCoverError::DuplicateColumn { row: 0, column: 1 })
        );
        assert_eq!(m.rows(), 0);
        m.add_row(&[0, 3]).unwrap();
        m.add_row(&[1, 2, 3]).unwrap();
        m.add_row(&[1, 2]).unwrap();
        m.select(0).unwrap();
        assert_eq!(
            m.select(1),
            Err(ExactCoverError::Conflict { row: 1, column: 3 })
        );
        assert!(matches!(
            m.select(7),
            Err(ExactCoverError::NoSuchRow { .. })
        ));
        let all: Vec<Vec<usize>> = m.search().collect();
        assert_eq!(all, vec![vec![0, 2]]);
    }

    #[test]
    fn drop_restores_the_matrix() {
        let mut m = ExactCover::new(2, 0).unwrap();
        m.add_row(&[0]).unwrap();
        m.add_row(&[1]).unwrap();
        m.add_row(&[0, 1]).unwrap();
        {
            let mut s = m.search();
            assert!(s.next_solution().unwrap().is_some());
        }
        assert_eq!(m.search().count_solutions(10), Ok(2));
    }

    /// Every exact cover of random small matrices (with secondary columns), against brute force
    /// over all row subsets: covers the column choice (scan, early exit, dead-end hint).
    #[test]
    fn random_matrices_match_brute_force() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |m: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % m
        };
        let mut with_solutions = 0;
        for _ in 0..300 {
            let primary = 1 + next(6) as usize;
            let secondary = next(3) as usize;
            let columns = primary + secondary;
            let rows: Vec<Vec<usize>> = (0..1 + next(12))
                .map(|_| {
                    // Each row has a primary column: the engine only picks rows through them.
                    let mut row: Vec<usize> = (0..columns).filter(|_| next(3) == 0).collect();
                    if row.first().is_none_or(|&c| c >= primary) {
                        row.insert(0, next(primary as u64) as usize);
                    }
                    row
                })
                .collect();
            let mut m = ExactCover::new(primary, secondary).unwrap();
            for r in &rows {
                m.add_row(r).unwrap();
            }
            let mut found: Vec<Vec<usize>> = m
                .search()
                .map(|mut s| {
                    s.sort();
                    s
                })
                .collect();
            found.sort();
            let mut want = Vec::new();
            for subset in 0u32..1 << rows.len() {
                let mut hits = vec![0; columns];
                let chosen: Vec<usize> =
                    (0..rows.len()).filter(|&r| subset >> r & 1 != 0).collect();
                for &r in &chosen {
                    for &c in &rows[r] {
                        hits[c] += 1;
                    }
                }
                if hits[..primary].iter().all(|&h| h == 1)
                    && hits[primary..].iter().all(|&h| h <= 1)
                {
                    want.push(chosen);
                }
            }
            want.sort();
            assert_eq!(found, want, "rows {rows:?}, {primary} primary");
            with_solutions += usize::from(!want.is_empty());
        }
        assert!(
            with_solutions > 20,
            "only {with_solutions} matrices had a cover"
        );
    }
}
