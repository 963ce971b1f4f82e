//! Probing of the root domains before the model reaches a solver: each digit left to each open
//! cell is tried in turn, and the grid propagated with it (singles over every all-different
//! group of the model, the variant rules narrowed by [`RuleNarrower`], the narrowing the `dfs`
//! search applies at its nodes). A digit whose trial ends in a contradiction is removed
//! (singleton arc consistency); and what every trial of a cell leaves out of another cell goes
//! from that cell too (each solution puts one of the tried digits in the probed cell). Passes
//! repeat while they remove something, within [`PASSES`] and [`BUDGET`].
//!
//! Every removal holds in every solution: the trials only propagate sound rules, so counts are
//! unchanged. The solver gets fewer values, and on many variant puzzles every cell fixed: on the
//! published mixed set (docs/benchmarks.md) probing settles 15 of the 20 puzzles, as many as
//! CP-SAT's presolve and root propagation do.

use crate::dfs::RuleNarrower;
use crate::model::lower::{PairRule, Rules};
use crate::model::Puzzle;

/// The all-different groups of a puzzle, as the `cp` model holds them and the probe reads
/// them: its houses, its Killer cages of two or more cells, its rules' extra houses and
/// distinct groups, and each pair of cells a rule keeps different. The flag: the group holds
/// every digit.
pub fn groups(puzzle: &Puzzle) -> Vec<(Vec<u32>, bool)> {
    let n = puzzle.size();
    let rules = Rules::of(puzzle);
    let mut groups: Vec<(Vec<u32>, bool)> = puzzle
        .shape()
        .houses()
        .map(|h| (h.to_vec(), h.len() == n))
        .collect();
    groups.extend(
        puzzle
            .cages()
            .filter(|c| c.cells().len() > 1)
            .map(|c| (c.cells().to_vec(), c.cells().len() == n)),
    );
    groups.extend(rules.houses.iter().map(|g| (g.clone(), true)));
    groups.extend(rules.distinct.iter().map(|g| (g.clone(), false)));
    groups.extend(
        rules
            .all_pairs()
            .filter(|p| p.rule == PairRule::Differ)
            .map(|p| (vec![p.a, p.b], false)),
    );
    groups
}

/// Probes the root candidates of a puzzle with variant rules (`cands`: bit `d − 1` for digit
/// `d`, a fixed cell holding its digit's bit alone) over its [`groups`]: `false` when no
/// solution is left. Puzzles without variant rules, and grids wider than 64, are left as they
/// are: on classic grids probing by singles settles little that a search would not.
pub fn probe_root(puzzle: &Puzzle, cands: &mut [u64]) -> bool {
    if puzzle.size() > 64 || puzzle.constraints().is_empty() {
        return true;
    }
    let groups = groups(puzzle);
    let prober = Prober::new(puzzle, &groups);
    !prober.has_rules() || prober.probe(cands)
}

/// Most probing passes over the grid; a pass costs one propagation per open cell and digit.
pub const PASSES: usize = 4;

/// Most cells the trials of one probing may start from, summed over its trials (each trial
/// copies and propagates the whole grid): every pass of a 9×9 fits, one pass of a 16×16, and
/// a wide grid is probed in part rather than for seconds.
pub const BUDGET: usize = 1 << 20;

/// The propagation of one trial: the model's all-different groups, and a narrower per variant
/// rule, run again only when a cell it reads has changed.
pub struct Prober<'a> {
    /// The all-different groups: cells, and whether they hold every digit.
    groups: &'a [(Vec<u32>, bool)],
    /// For each cell, the other cells of its groups.
    peers: Vec<Vec<u32>>,
    /// One narrower per rule of the puzzle.
    rules: Vec<RuleNarrower>,
    /// For each rule, the cells it reads.
    reads: Vec<Vec<u32>>,
    /// For each cell, the rules that read it.
    watch: Vec<Vec<usize>>,
    /// For each cell, the full groups holding it (those hidden singles read).
    full_groups: Vec<Vec<usize>>,
}

/// One propagation's work lists: cells whose single is still to be propagated, full groups
/// still to be read for hidden singles, and the cells changed since the rules last saw them.
struct Work {
    placed: Vec<bool>,
    singles: Vec<usize>,
    groups: Agenda,
    changed: Vec<usize>,
    in_changed: Vec<bool>,
}

impl Work {
    /// Records that cell `c` lost candidates.
    fn touch(&mut self, full_groups: &[Vec<usize>], c: usize, mask: u64) {
        if mask.count_ones() == 1 && !self.placed[c] {
            self.singles.push(c);
        }
        self.groups.mark(full_groups, [c], usize::MAX);
        if !self.in_changed[c] {
            self.in_changed[c] = true;
            self.changed.push(c);
        }
    }
}

/// The rules left to run in one propagation.
struct Agenda {
    pending: Vec<bool>,
    queue: Vec<usize>,
}

impl Agenda {
    /// Queues the rules that read `cells` (per `watch`), but `skip`.
    fn mark(&mut self, watch: &[Vec<usize>], cells: impl IntoIterator<Item = usize>, skip: usize) {
        for c in cells {
            for &r in &watch[c] {
                if r != skip && !self.pending[r] {
                    self.pending[r] = true;
                    self.queue.push(r);
                }
            }
        }
    }
}

/// Every cell `rules` read.
fn cells_of(rules: &Rules) -> Vec<u32> {
    let mut cells: Vec<u32> = rules.pairs.iter().flat_map(|p| [p.a, p.b]).collect();
    for group in rules
        .houses
        .iter()
        .chain(&rules.distinct)
        .chain(&rules.windows)
    {
        cells.extend(group);
    }
    cells.extend(
        rules
            .sums
            .iter()
            .flat_map(|s| s.terms.iter().map(|&(c, _)| c)),
    );
    cells.extend(
        rules
            .sandwiches
            .iter()
            .flat_map(|s| s.cells.iter().copied()),
    );
    cells.extend(rules.parity.iter().map(|&(c, _)| c));
    cells.extend(rules.domains.iter().map(|(c, _)| *c));
    cells.extend(rules.contains.iter().flat_map(|q| q.cells.iter().copied()));
    for b in &rules.betweens {
        cells.extend([b.a, b.b]);
        cells.extend(&b.cells);
    }
    for line in rules.skyscrapers.iter().chain(&rules.xsums) {
        cells.extend(&line.cells);
    }
    cells.sort_unstable();
    cells.dedup();
    cells
}

impl<'a> Prober<'a> {
    /// The prober of `puzzle` with the all-different `groups` (houses, cages and the rules'
    /// groups, as the model has them).
    pub fn new(puzzle: &Puzzle, groups: &'a [(Vec<u32>, bool)]) -> Prober<'a> {
        let cells = puzzle.shape().cells();
        let mut peers: Vec<Vec<u32>> = vec![Vec::new(); cells];
        for (group, _) in groups {
            for &c in group {
                peers[c as usize].extend(group.iter().filter(|&&p| p != c));
            }
        }
        for p in &mut peers {
            p.sort_unstable();
            p.dedup();
        }
        let (mut rules, mut reads) = (vec![], vec![]);
        let mut watch: Vec<Vec<usize>> = vec![Vec::new(); cells];
        for c in puzzle.constraints() {
            let lowered = Rules::of_one(puzzle, c);
            if let Some(narrower) = RuleNarrower::new(puzzle, &lowered) {
                let cells = cells_of(&lowered);
                for &cell in &cells {
                    watch[cell as usize].push(rules.len());
                }
                rules.push(narrower);
                reads.push(cells);
            }
        }
        let mut full_groups: Vec<Vec<usize>> = vec![Vec::new(); cells];
        for (g, (group, full)) in groups.iter().enumerate() {
            if *full {
                for &c in group {
                    full_groups[c as usize].push(g);
                }
            }
        }
        Prober {
            groups,
            peers,
            rules,
            reads,
            watch,
            full_groups,
        }
    }

    /// Whether the puzzle has variant rules (beyond its houses and cages).
    pub fn has_rules(&self) -> bool {
        !self.rules.is_empty()
    }

    /// Naked and hidden singles over the groups to a fixpoint, from the work lists (each cell
    /// that lost candidates is recorded in `work.changed`); false on a contradiction.
    fn singles(&self, cands: &mut [u64], work: &mut Work) -> bool {
        loop {
            while let Some(c) = work.singles.pop() {
                if work.placed[c] {
                    continue;
                }
                work.placed[c] = true;
                let m = cands[c];
                for &p in &self.peers[c] {
                    let p = p as usize;
                    if cands[p] & m != 0 {
                        cands[p] &= !m;
                        if cands[p] == 0 {
                            return false;
                        }
                        work.touch(&self.full_groups, p, cands[p]);
                    }
                }
            }
            let Some(g) = work.groups.queue.pop() else {
                return true;
            };
            work.groups.pending[g] = false;
            let group = &self.groups[g].0;
            let (mut once, mut more) = (0u64, 0u64);
            for &c in group {
                more |= once & cands[c as usize];
                once |= cands[c as usize];
            }
            let all = if group.len() >= 64 {
                u64::MAX
            } else {
                (1u64 << group.len()) - 1
            };
            if once != all {
                return false;
            }
            let single = once & !more;
            for &c in group.iter().filter(|_| single != 0) {
                let c = c as usize;
                let m = cands[c] & single;
                if m != 0 && cands[c] != m {
                    if m.count_ones() > 1 {
                        return false;
                    }
                    cands[c] = m;
                    work.touch(&self.full_groups, c, m);
                }
            }
        }
    }

    /// Narrows `cands` (bit `d − 1` for digit `d`) by naked and hidden singles over the groups
    /// and by the rules that read a changed cell; false on a contradiction. With `changed`,
    /// `cands` was at this propagation's fixpoint before those cells changed, so the work
    /// starts from them alone (their singles, their groups, the rules that read them); with
    /// `None` it starts from every cell, group and rule.
    pub fn propagate(&self, cands: &mut [u64], changed: Option<&[usize]>) -> bool {
        let cells = cands.len();
        let groups = self.groups.len();
        let mut work = Work {
            placed: vec![false; cells],
            singles: vec![],
            groups: Agenda {
                pending: vec![false; groups],
                queue: vec![],
            },
            changed: vec![],
            in_changed: vec![false; cells],
        };
        let mut agenda = Agenda {
            pending: vec![false; self.rules.len()],
            queue: vec![],
        };
        match changed {
            Some(from) => {
                for (c, p) in work.placed.iter_mut().enumerate() {
                    *p = cands[c].count_ones() == 1;
                }
                for &c in from {
                    if cands[c] == 0 {
                        return false;
                    }
                    work.placed[c] = false;
                    work.touch(&self.full_groups, c, cands[c]);
                }
            }
            None => {
                for (c, &m) in cands.iter().enumerate() {
                    if m == 0 {
                        return false;
                    }
                    work.touch(&self.full_groups, c, m);
                }
            }
        }
        let mut before = cands.to_vec();
        loop {
            if !self.singles(cands, &mut work) {
                return false;
            }
            for c in work.changed.drain(..) {
                work.in_changed[c] = false;
                agenda.mark(&self.watch, [c], usize::MAX);
                before[c] = cands[c];
            }
            if agenda.queue.is_empty() {
                return true;
            }
            // The rules to their own fixpoint, then the singles again.
            while let Some(r) = agenda.queue.pop() {
                agenda.pending[r] = false;
                if !self.rules[r].narrow(cands) {
                    return false;
                }
                // The narrower stopped at its own fixpoint: only the others read its changes.
                for &c in &self.reads[r] {
                    let c = c as usize;
                    if before[c] != cands[c] {
                        if cands[c] == 0 {
                            return false;
                        }
                        agenda.mark(&self.watch, [c], r);
                        before[c] = cands[c];
                        work.placed[c] &= cands[c].count_ones() == 1;
                        if cands[c].count_ones() == 1 && !work.placed[c] {
                            work.singles.push(c);
                        }
                        work.groups.mark(&self.full_groups, [c], usize::MAX);
                    }
                }
            }
        }
    }

    /// Probes `cands` to a fixpoint (at most [`PASSES`] passes, within [`BUDGET`]); false when
    /// some cell is left with no digit, a proof that there is no solution.
    pub fn probe(&self, cands: &mut [u64]) -> bool {
        if !self.propagate(cands, None) {
            return false;
        }
        let mut budget = BUDGET;
        // Trials are numbered; a cell probed after the last change would find the same again.
        let (mut step, mut last_change) = (0usize, 0usize);
        let mut probed_at = vec![0usize; cands.len()];
        for _ in 0..PASSES {
            let mut changed = false;
            for c in 0..cands.len() {
                if cands[c].count_ones() < 2 || probed_at[c] > last_change {
                    continue;
                }
                let cost = cands[c].count_ones() as usize * cands.len();
                if cost > budget {
                    return true;
                }
                budget -= cost;
                step += 1;
                probed_at[c] = step;
                // What some surviving trial of `c` leaves to each cell.
                let mut union = vec![0u64; cands.len()];
                let mut digits = cands[c];
                while digits != 0 {
                    let d = digits & digits.wrapping_neg();
                    digits &= digits - 1;
                    let mut trial = cands.to_vec();
                    trial[c] = d;
                    if self.propagate(&mut trial, Some(&[c])) {
                        union.iter_mut().zip(&trial).for_each(|(u, t)| *u |= t);
                    }
                }
                let narrowed: Vec<usize> = (0..cands.len())
                    .filter(|&x| union[x] & cands[x] != cands[x])
                    .collect();
                if !narrowed.is_empty() {
                    for &x in &narrowed {
                        cands[x] &= union[x];
                    }
                    changed = true;
                    step += 1;
                    last_change = step;
                    if cands.contains(&0) || !self.propagate(cands, Some(&narrowed)) {
                        return false;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        true
    }
}
