//! The puzzle's rules beyond its houses (Killer cages and the variant rules of
//! [`crate::model::Constraint`]) as techniques: each constraint is one [`Rule`] with a short
//! readable name (`Killer cage r1c1 17`, `Thermometer r2c3`), and three techniques read them.
//!
//! * **Rule** ([`Technique::RuleNarrowing`]): what one rule alone rules out on the current
//!   candidates, one step a rule (`[Killer cage r1c1 17] r1c2<>9`). A Killer cage keeps, in each
//!   cell, the digits of some combination of its sum that the cage's candidates can still place
//!   (an exact count over the combinations: per combination, the assignments of its digits to
//!   the cage's cells, by a dynamic programme over the digit sets used so far). Every other
//!   rule is lowered ([`crate::model::lower::Rules::of_one`]) and narrowed by the same code the
//!   `dfs` search narrows with ([`crate::dfs::RuleNarrower`]: pair arc consistency for
//!   thermometers, whispers, dots, palindromes, chess rules; group and window rules for extra
//!   regions and renban; interval bounds for arrows, little killers and sum lines; sandwiches,
//!   quadruples, between and lockout lines, parity, skyscrapers and X-sums), to a fixpoint of
//!   that rule alone. A cage with too many combinations to list (large cages of large grids) is
//!   narrowed the same way as distinct digits with a linear sum.
//! * **45 Rule (Innies and Outies)** ([`Technique::InniesOuties`]): on a Killer puzzle, the
//!   equations that houses and bands of rows or columns give over the cells their cages leave
//!   out or stick out with ([`sets`]), each narrowed like a rule (`[45 rule b5: innies r4c4
//!   = 9] r4c4<>1, …`).
//! * **Hidden Single in a Rule's Group** ([`Technique::GroupHiddenSingle`]) and **Pointing
//!   through Rules** ([`Technique::GroupPointing`]): a group of distinct digits that must hold
//!   a digit (an extra region or disjoint group of `n` cells: every digit; a Killer cage: the
//!   digits that every combination still possible holds) places the digit in its one open cell
//!   left for it, or removes the digit from every cell outside the group that sees all of the
//!   group's places for it. Pointing reads the shape's houses too on a puzzle with rules: a
//!   box's places of a digit that all see one cell through the rules (a knight's move, a
//!   cage) remove the digit there.
//!
//! Cells that a rule keeps distinct (a cage, an extra region, anti-knight and anti-king
//! neighbours, disjoint groups, renban lines) see each other on the [`Board`]: a placement
//! removes its digit from them, and every technique that asks whether two cells see each other
//! (wings, chains, colouring, ALS) counts them, which is sound. Houses stay the shape's, so
//! singles, intersections, subsets and fish read rows, columns, boxes and diagonals only.

pub mod net;
pub mod sets;
mod sums;

use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::board::{all_digits, bit, bits, digits, Board};
use super::render::cell as cell_name;
use super::step::{Candidate, Found, Step};
use super::table::Technique;
use crate::dfs::{Job, RuleNarrower};
use crate::model::lower::{LinearSum, Pair, PairRule, Rules};
use crate::model::{Constraint, Line, Puzzle, Value};
use crate::sat;

/// Most combinations of a cage listed for the exact cage narrowing; past it, the cage is
/// narrowed as distinct digits with a sum.
const MOST_COMBINATIONS: usize = 4096;
/// Most open cells of a cage for the exact narrowing (its table has `2^cells` entries a
/// combination).
const MOST_CAGE_CELLS: usize = 12;

/// One constraint of the puzzle, ready for the techniques.
pub struct Rule {
    /// The rule's short name in step texts (`Killer cage r1c1 17`).
    pub label: Arc<str>,
    /// The technique of the rule's own narrowing: [`Technique::RuleNarrowing`] for the
    /// puzzle's constraints, [`Technique::InniesOuties`] for the 45 rule's equations.
    pub technique: Technique,
    /// The cells the rule speaks of (empty for rules over the whole grid).
    pub cells: Vec<u32>,
    /// The cells its narrowing reads (and so the only ones it can narrow), sorted.
    reads: Vec<u32>,
    /// Sets of cells the rule keeps distinct (they see each other on the board).
    pub distinct: Vec<Vec<u32>>,
    /// The rule's groups of distinct digits that must hold given digits.
    groups: Vec<Group>,
    narrowing: Narrowing,
    /// The rule's linear sums, until [`read_sums`] reads them into `sums`.
    linear: Vec<LinearSum>,
    /// Its sums read with distinct digits ([`sums`]), once the board knows its peers.
    sums: Vec<sums::DistinctSum>,
    /// Every form of the rule is a pair of cells holding different digits (anti-knight,
    /// anti-king): the board counts such cells as peers, so in a search, where every cell left
    /// with one candidate is placed and its digit leaves its peers before the rules are read,
    /// the rule has nothing to narrow, and [`RuleQueue`] leaves it out.
    peers_only: bool,
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rule").field("label", &self.label).finish()
    }
}

/// A group of cells holding distinct digits.
struct Group {
    cells: Vec<u32>,
    /// The digit sets the group may hold (a cage's combinations), or `None` for every digit
    /// once (`n` cells).
    combos: Option<Vec<u64>>,
}

enum Narrowing {
    /// A cage whose combinations are listed: the exact count of [`cage_support`].
    Cage { cells: Vec<u32>, combos: Vec<u64> },
    /// Lowered forms, narrowed as `dfs` narrows them.
    Lowered(Box<RuleNarrower>),
    /// Nothing to narrow (a rule whose lowering is empty on this grid).
    None,
}

/// The rules of `puzzle`, one per constraint, in the puzzle's order, then the 45 rule's
/// equations ([`sets`]).
pub fn compile(puzzle: &Puzzle) -> Vec<Rule> {
    let mut rules = constraint_rules(puzzle);
    rules.extend(sets::equations(puzzle).into_iter().map(|e| Rule {
        label: e.label.into(),
        technique: Technique::InniesOuties,
        cells: e.cells,
        reads: cells_read(&e.rules, &[]),
        distinct: vec![],
        groups: vec![],
        narrowing: lowered_narrowing(puzzle, &e.rules),
        linear: e.rules.sums.clone(),
        sums: vec![],
        peers_only: false,
    }));
    rules
}

fn constraint_rules(puzzle: &Puzzle) -> Vec<Rule> {
    let n = puzzle.size();
    puzzle
        .constraints()
        .iter()
        .map(|c| {
            let lowered = Rules::of_one(puzzle, c);
            let mut groups: Vec<Group> = lowered
                .houses
                .iter()
                .map(|h| Group {
                    cells: h.clone(),
                    combos: None,
                })
                .collect();
            let narrowing = match c {
                Constraint::Cage(cage) => {
                    let combos = cage.combinations(n, MOST_COMBINATIONS);
                    match combos {
                        Some(combos) if cage.cells().len() <= MOST_CAGE_CELLS => {
                            groups.push(Group {
                                cells: cage.cells().to_vec(),
                                combos: Some(combos.clone()),
                            });
                            Narrowing::Cage {
                                cells: cage.cells().to_vec(),
                                combos,
                            }
                        }
                        _ => {
                            let as_sum = Rules {
                                distinct: vec![cage.cells().to_vec()],
                                sums: vec![LinearSum {
                                    terms: cage.cells().iter().map(|&c| (c, 1)).collect(),
                                    rhs: cage.sum() as i64,
                                }],
                                ..Rules::default()
                            };
                            lowered_narrowing(puzzle, &as_sum)
                        }
                    }
                }
                _ => lowered_narrowing(puzzle, &lowered),
            };
            let cage: &[u32] = match c {
                Constraint::Cage(cage) => cage.cells(),
                _ => &[],
            };
            let reads = cells_read(&lowered, cage);
            let mut distinct = lowered.houses.clone();
            distinct.extend(lowered.distinct.iter().cloned());
            if let Constraint::Cage(cage) = c {
                distinct.push(cage.cells().to_vec());
            }
            // A pair whose rule forbids equal digits (anti-knight, thermometer, whisper, dots).
            let unequal = |p: &&Pair| (1..=n as u32).all(|d| !p.rule.allows(d, d));
            distinct.extend(lowered.pairs.iter().filter(unequal).map(|p| vec![p.a, p.b]));
            Rule {
                label: label(puzzle, c).into(),
                technique: Technique::RuleNarrowing,
                cells: c.cells(),
                reads,
                distinct,
                groups,
                narrowing,
                linear: lowered.sums.clone(),
                sums: vec![],
                peers_only: !matches!(c, Constraint::Cage(_)) && differ_pairs_only(&lowered),
            }
        })
        .collect()
}

/// True when every form of `rules` is a pair of cells holding different digits.
fn differ_pairs_only(rules: &Rules) -> bool {
    let others = Rules {
        pairs: vec![],
        ..rules.clone()
    };
    rules.pairs.iter().all(|p| p.rule == PairRule::Differ) && others.is_empty()
}

/// Gives each rule its sums read with distinct digits, over the board's `peers` (per cell,
/// sorted): cells that see each other through a house or any rule.
pub fn read_sums(rules: &mut [Rule], peers: &[Vec<u32>]) {
    for r in rules {
        let linear = std::mem::take(&mut r.linear);
        r.sums = (linear.iter())
            .filter_map(|s| sums::DistinctSum::new(s, peers))
            .collect();
    }
}

/// The cells that the narrowing of the lowered `rules` (and of a cage over `cage`) reads: every
/// form names its cells, and a form narrows only those.
fn cells_read(rules: &Rules, cage: &[u32]) -> Vec<u32> {
    // Every form, so that a new one cannot be left out.
    let Rules {
        pairs,
        houses,
        distinct,
        windows,
        sums,
        sandwiches,
        parity,
        domains,
        contains,
        betweens,
        skyscrapers,
        xsums,
    } = rules;
    let mut cells = cage.to_vec();
    cells.extend(pairs.iter().flat_map(|p| [p.a, p.b]));
    cells.extend(houses.iter().chain(distinct).chain(windows).flatten());
    cells.extend(sums.iter().flat_map(|s| s.terms.iter().map(|&(c, _)| c)));
    cells.extend(sandwiches.iter().flat_map(|s| &s.cells));
    cells.extend(parity.iter().map(|&(c, _)| c));
    cells.extend(domains.iter().map(|(c, _)| *c));
    cells.extend(contains.iter().flat_map(|q| &q.cells));
    for b in betweens {
        cells.extend([b.a, b.b].iter().chain(&b.cells));
    }
    cells.extend(skyscrapers.iter().chain(xsums).flat_map(|l| &l.cells));
    cells.sort_unstable();
    cells.dedup();
    cells
}

fn lowered_narrowing(puzzle: &Puzzle, rules: &Rules) -> Narrowing {
    match RuleNarrower::new(puzzle, rules) {
        Some(r) => Narrowing::Lowered(Box::new(r)),
        None => Narrowing::None,
    }
}

/// The rule's short name: its kind, where it sits and its clue.
fn label(puzzle: &Puzzle, c: &Constraint) -> String {
    let n = puzzle.size();
    let at = |cells: &[u32]| cells.first().map_or(String::new(), |&c| cell_name(n, c));
    let line = |l: Line| match l {
        Line::Row(r) => format!("r{}", r + 1),
        Line::Col(c) => format!("c{}", c + 1),
    };
    match c {
        Constraint::Cage(cage) => format!("Killer cage {} {}", at(cage.cells()), cage.sum()),
        Constraint::AntiKnight => "Anti-knight".into(),
        Constraint::AntiKing => "Anti-king".into(),
        Constraint::DisjointGroups => "Disjoint groups".into(),
        Constraint::ExtraRegion(cells) => format!("Extra region {}", at(cells)),
        Constraint::Odd(cell) => format!("Odd {}", cell_name(n, *cell)),
        Constraint::Even(cell) => format!("Even {}", cell_name(n, *cell)),
        Constraint::Thermo(cells) => format!("Thermometer {}", at(cells)),
        Constraint::Arrow(a) => format!("Arrow {}", at(&a.circle)),
        Constraint::Whisper { cells, gap } => format!("Whisper {} {gap}", at(cells)),
        Constraint::Renban(cells) => format!("Renban {}", at(cells)),
        Constraint::Palindrome(cells) => format!("Palindrome {}", at(cells)),
        Constraint::Dot(d) => format!("Dot {} {}-{}", d.rule, cell_name(n, d.a), cell_name(n, d.b)),
        Constraint::Negative(rule) => format!("Negative {rule}"),
        Constraint::LittleKiller(l) => format!("Little killer {} {}", at(&l.cells), l.sum),
        Constraint::Sandwich(s) => format!("Sandwich {} {}", line(s.line), s.sum),
        Constraint::Candidates { cell, digits } => {
            let list: Vec<String> = digits.iter().map(|d| d.to_string()).collect();
            format!("Candidates {} {}", cell_name(n, *cell), list.join(""))
        }
        Constraint::Quadruple { cells, digits } => {
            let list: Vec<String> = digits.iter().map(|d| d.to_string()).collect();
            format!("Quadruple {} {}", at(cells), list.join(""))
        }
        Constraint::Minimum(cell) => format!("Minimum {}", cell_name(n, *cell)),
        Constraint::Maximum(cell) => format!("Maximum {}", cell_name(n, *cell)),
        Constraint::Indexer { cell, kind } => {
            format!("Indexer {} {}", kind.name(), cell_name(n, *cell))
        }
        Constraint::Between(cells) => format!("Between line {}", at(cells)),
        Constraint::Lockout { cells, .. } => format!("Lockout line {}", at(cells)),
        Constraint::RegionSum(cells) => format!("Region sum line {}", at(cells)),
        Constraint::Entropic(cells) => format!("Entropic line {}", at(cells)),
        Constraint::Modular(cells) => format!("Modular line {}", at(cells)),
        Constraint::Zipper(cells) => format!("Zipper line {}", at(cells)),
        Constraint::SlowThermo(cells) => format!("Slow thermometer {}", at(cells)),
        Constraint::Nabner(cells) => format!("Nabner line {}", at(cells)),
        Constraint::DoubleArrow(cells) => format!("Double arrow {}", at(cells)),
        Constraint::Clone { a, .. } => format!("Clone {}", at(a)),
        Constraint::Skyscraper(e) => {
            format!("Skyscraper {} {} {}", line(e.line), e.side(), e.value)
        }
        Constraint::XSum(e) => format!("X-sum {} {} {}", line(e.line), e.side(), e.value),
    }
}

/// Every cell's candidates as `dfs` reads them: a placed cell holds its digit's bit alone.
fn masks(values: &[Value], cands: &[u64]) -> Vec<u64> {
    values
        .iter()
        .zip(cands)
        .map(|(&v, &m)| if v == 0 { m } else { bit(v) })
        .collect()
}

impl Rule {
    /// The candidates this rule alone rules out on `board`, or `None` when it cannot be met.
    pub fn narrow(&self, board: &Board) -> Option<Vec<Candidate>> {
        let cands: Vec<u64> = (0..board.values().len()).map(|c| board.cands(c)).collect();
        let mut m = masks(board.values(), &cands);
        if !self.narrow_masks(&mut m) {
            return None;
        }
        let mut out = vec![];
        for (c, &kept) in m.iter().enumerate() {
            for d in digits(cands[c] & !kept) {
                out.push(Candidate::new(c, d));
            }
        }
        Some(out)
    }

    /// Narrows `m` (per cell, a placed cell holding its digit's bit alone) by this rule to a
    /// fixpoint; false when the rule cannot be met.
    fn narrow_masks(&self, m: &mut [u64]) -> bool {
        self.narrow_own(m) && self.sums.iter().all(|s| s.narrow(m))
    }

    /// [`Rule::narrow_masks`] without the sums read with distinct digits.
    fn narrow_own(&self, m: &mut [u64]) -> bool {
        match &self.narrowing {
            Narrowing::None => true,
            Narrowing::Cage { cells, combos } => match cage_support(m, cells, combos) {
                None => false,
                Some((support, _)) => {
                    for (&c, s) in cells.iter().zip(support) {
                        m[c as usize] &= s;
                    }
                    true
                }
            },
            Narrowing::Lowered(narrower) => narrower.narrow(m),
        }
    }
}

/// A search's queue of rules to narrow: a rule is narrowed again only when a cell it reads
/// changed since it last ran (its narrowing is a function of those cells, so on the same
/// cells it would remove nothing). The passes of [`narrow_search`] so run the same rules in the
/// same order on the same candidates as passes over every rule would, less the ones that
/// would change nothing, and reach the same candidates.
#[derive(Clone)]
pub struct RuleQueue {
    /// Per cell, the rules (indices into [`Board::rules`]) that read it.
    readers: Rc<[Vec<u32>]>,
    /// The candidates (a placed cell holding its digit's bit alone) as the rules last left
    /// them.
    seen: Vec<u64>,
    /// Per rule, whether a cell it reads changed since it last ran.
    dirty: Vec<bool>,
    /// Scratch: the candidates of a pass, and a rule's cells before it runs.
    m: Vec<u64>,
    before: Vec<u64>,
}

impl RuleQueue {
    /// The queue of a search starting from `board`: the rules that narrow something there (or
    /// cannot be met) are queued.
    pub fn of(board: &Board) -> RuleQueue {
        let cells = board.values().len();
        let rules = board.rules();
        let mut readers = vec![vec![]; cells];
        for (i, r) in rules.iter().enumerate().filter(|(_, r)| !r.peers_only) {
            for &c in &r.reads {
                readers[c as usize].push(i as u32);
            }
        }
        let cands: Vec<u64> = (0..cells).map(|c| board.cands(c)).collect();
        let seen = masks(board.values(), &cands);
        let mut m = seen.clone();
        let dirty = (rules.iter())
            .map(|r| {
                if r.peers_only {
                    return false;
                }
                let unsettled = !r.narrow_masks(&mut m) || m != seen;
                m.copy_from_slice(&seen);
                unsettled
            })
            .collect();
        RuleQueue {
            readers: readers.into(),
            seen,
            dirty,
            m,
            before: vec![],
        }
    }

    /// Queues every rule.
    pub fn queue_all(&mut self) {
        self.dirty.fill(true);
    }

    /// Takes `other`'s state (a queue of the same board), keeping this one's buffers.
    pub fn reset_to(&mut self, other: &RuleQueue) {
        self.seen.copy_from_slice(&other.seen);
        self.dirty.copy_from_slice(&other.dirty);
    }

    /// Records `m` (per cell, a placed cell holding its digit's bit alone) as what every rule
    /// last read, none of them having anything left to narrow there.
    pub fn settle_at(&mut self, m: &[u64]) {
        self.seen.copy_from_slice(m);
        self.dirty.fill(false);
    }
}

/// Queues (in `dirty`) the rules that read `cell` (`readers` as [`RuleQueue`] holds them).
fn touch(readers: &[Vec<u32>], dirty: &mut [bool], cell: usize) {
    for &r in &readers[cell] {
        dirty[r as usize] = true;
    }
}

/// Narrows the candidates of a search from `board` (`values` its digits, `cands` the open
/// cells' candidates) by what the houses say beside the rules ([`net::houses`], on the houses
/// whose cells changed since `seen`, which it updates) and, when that removes nothing, by one
/// pass over the rules in their order, each over the candidates the rules before it left, the
/// ones that `queue` holds ([`RuleQueue`]): `Some(true)` when a candidate went, `None` when a
/// rule cannot be met. The forcing nets' propagation ([`super::bifurcation::Nets`]) runs it
/// when the singles stall, so that their contradictions see the rules. Every read only
/// narrows, so the order (the cheap reads first) changes how fast the fixpoint comes, not
/// which it is.
pub fn narrow_search(
    board: &Board,
    values: &[Value],
    cands: &mut [u64],
    seen: &mut [u64],
    queue: &mut RuleQueue,
) -> Option<bool> {
    if board.rules().is_empty() {
        return Some(false);
    }
    if net::houses(board, values, cands, seen) {
        return Some(true);
    }
    let mut m = std::mem::take(&mut queue.m);
    let mut before = std::mem::take(&mut queue.before);
    m.clear();
    m.extend(values.iter().zip(cands.iter()).map(|(&v, &c)| match v {
        0 => c,
        v => bit(v),
    }));
    let RuleQueue {
        readers,
        seen: last,
        dirty,
        ..
    } = queue;
    let readers: &[Vec<u32>] = readers;
    for (c, (&now, &was)) in m.iter().zip(last.iter()).enumerate() {
        if now != was {
            touch(readers, dirty, c);
        }
    }
    let mut met = true;
    for (i, rule) in board.rules().iter().enumerate() {
        if !dirty[i] {
            continue;
        }
        dirty[i] = false;
        before.clear();
        before.extend(rule.reads.iter().map(|&c| m[c as usize]));
        #[cfg(debug_assertions)]
        let whole = m.clone();
        if !rule.narrow_masks(&mut m) {
            met = false;
            break;
        }
        #[cfg(debug_assertions)]
        for (c, (&now, &was)) in m.iter().zip(&whole).enumerate() {
            let read = rule.reads.binary_search(&(c as u32)).is_ok();
            debug_assert!(
                read || now == was,
                "{rule:?} narrowed a cell it does not read"
            );
        }
        for (&c, &was) in rule.reads.iter().zip(&before) {
            if m[c as usize] != was {
                touch(readers, dirty, c as usize);
            }
        }
    }
    let mut changed = Some(false);
    if met {
        for (c, &kept) in m.iter().enumerate() {
            if values[c] == 0 {
                if cands[c] != kept {
                    changed = Some(true);
                    cands[c] = kept;
                }
            } else if kept != bit(values[c]) {
                changed = None;
                break;
            }
        }
        last.copy_from_slice(&m);
    }
    queue.m = m;
    queue.before = before;
    if met {
        changed
    } else {
        None
    }
}

/// For a cage over `cells` with digit sets `combos`, on candidates `m` (a placed cell holding
/// its digit's bit alone): per cell, the digits that some completion of the cage allows, and
/// the digits every possible combination holds. `None` when no combination is possible.
fn cage_support(m: &[u64], cells: &[u32], combos: &[u64]) -> Option<(Vec<u64>, u64)> {
    let masks: Vec<u64> = cells.iter().map(|&c| m[c as usize]).collect();
    let mut support = vec![0u64; cells.len()];
    let mut needed = u64::MAX;
    let mut any = false;
    for &combo in combos {
        let s = assignments(&masks, combo);
        if s.iter().all(|&m| m != 0) {
            any = true;
            needed &= combo;
            for (t, m) in support.iter_mut().zip(s) {
                *t |= m;
            }
        }
    }
    any.then_some((support, needed))
}

/// Per cell (candidates `masks`), the digits of `combo` (one digit a cell, all of them used)
/// that some assignment gives it; all zero when there is none. A dynamic programme over the
/// sets of `combo`'s digits that the first cells take: `2^k` states for `k` cells.
fn assignments(masks: &[u64], combo: u64) -> Vec<u64> {
    let k = masks.len();
    let ds: Vec<u64> = bits(combo).map(|b| 1u64 << b).collect();
    if ds.len() != k {
        return vec![0; k];
    }
    // Each cell's candidates among `combo`, as bits over `ds`.
    let cc: Vec<u64> = masks
        .iter()
        .map(|&m| {
            (0..k)
                .filter(|&j| m & ds[j] != 0)
                .fold(0, |a, j| a | 1 << j)
        })
        .collect();
    let states = 1usize << k;
    let full = states - 1;
    let mut reach = vec![false; states];
    reach[0] = true;
    for s in 0..states {
        let i = s.count_ones() as usize;
        if reach[s] && i < k {
            for j in bits(cc[i] & !(s as u64)) {
                reach[s | 1 << j] = true;
            }
        }
    }
    let mut back = vec![false; states];
    back[full] = true;
    for s in (0..full).rev() {
        let i = s.count_ones() as usize;
        back[s] = bits(cc[i] & !(s as u64)).any(|j| back[s | 1 << j]);
    }
    let mut support = vec![0u64; k];
    for s in (0..full).filter(|&s| reach[s]) {
        let i = s.count_ones() as usize;
        for j in bits(cc[i] & !(s as u64)).filter(|&j| back[s | 1 << j]) {
            support[i] |= ds[j];
        }
    }
    support
}

/// The rule techniques' finder (see the module docs).
pub fn find(board: &Board, technique: Technique, found: &mut Found) {
    match technique {
        Technique::RuleNarrowing | Technique::InniesOuties => narrowing(board, technique, found),
        Technique::GroupHiddenSingle | Technique::GroupPointing => groups(board, technique, found),
        _ => {}
    }
}

/// A step of `technique` naming `rule`.
fn rule_step(technique: Technique, rule: &Rule) -> Step {
    let mut step = Step::new(technique);
    step.rule = Some(rule.label.clone());
    step
}

fn narrowing(board: &Board, technique: Technique, found: &mut Found) {
    for rule in board.rules().iter().filter(|r| r.technique == technique) {
        if let Some(eliminations) = rule.narrow(board) {
            let mut step = rule_step(technique, rule);
            step.cells = rule.cells.clone();
            step.eliminations = eliminations;
            if found.push(step) {
                return;
            }
        }
    }
}

fn groups(board: &Board, technique: Technique, found: &mut Found) {
    let n = board.n();
    let cands: Vec<u64> = (0..n * n).map(|c| board.cands(c)).collect();
    let board_masks = masks(board.values(), &cands);
    for rule in board.rules() {
        for g in &rule.groups {
            let needed = match &g.combos {
                None => {
                    let placed = g
                        .cells
                        .iter()
                        .fold(0, |m, &c| match board.value(c as usize) {
                            0 => m,
                            v => m | bit(v),
                        });
                    all_digits(n) & !placed
                }
                Some(combos) => match cage_support(&board_masks, &g.cells, combos) {
                    Some((_, needed)) => needed,
                    None => continue,
                },
            };
            for d in digits(needed) {
                let places: Vec<u32> = g
                    .cells
                    .iter()
                    .copied()
                    .filter(|&c| board.has(c as usize, d))
                    .collect();
                let mut step = rule_step(technique, rule);
                step.digits.push(d);
                step.cells = places.clone();
                match (technique, places.len()) {
                    (Technique::GroupHiddenSingle, 1) => {
                        step.placements.push(Candidate::new(places[0] as usize, d))
                    }
                    (Technique::GroupPointing, 2..) => {
                        step.eliminations = pointed(board, &g.cells, &places, d)
                    }
                    _ => continue,
                }
                if found.push(step) {
                    return;
                }
            }
        }
    }
    if technique != Technique::GroupPointing || board.rules().is_empty() {
        return;
    }
    // The shape's houses, whose cells see more cells through the rules (a box's places of a
    // digit that all see one cell a knight's move away).
    for h in 0..board.house_count() {
        for d in 1..=n as Value {
            if board.positions(h, d).count_ones() < 2 {
                continue;
            }
            let places: Vec<u32> = board.cells_of(h, d).map(|c| c as u32).collect();
            let mut step = Step::new(technique);
            step.digits.push(d);
            step.houses.push(h as u32);
            step.eliminations = pointed(board, board.house(h), &places, d);
            step.cells = places;
            if found.push(step) {
                return;
            }
        }
    }
}

/// The candidates `d` outside `group` that see every one of `places` (the group's places for
/// `d`, one of which holds it).
fn pointed(board: &Board, group: &[u32], places: &[u32], d: Value) -> Vec<Candidate> {
    board
        .peers(places[0] as usize)
        .iter()
        .map(|&p| p as usize)
        .filter(|&p| {
            board.has(p, d)
                && !group.contains(&(p as u32))
                && places[1..].iter().all(|&q| board.sees(p, q as usize))
        })
        .map(|p| Candidate::new(p, d))
        .collect()
}

/// True when some rule cannot be met on `board` as it stands.
pub fn broken(board: &Board) -> bool {
    board.rules().iter().any(|r| r.narrow(board).is_none())
}

/// How long the last resort's `dfs` test runs before the same question goes to `sat`. Most
/// tests end within microseconds; refuting a wrong digit of a hard puzzle with rules can take
/// `dfs`'s search without learning seconds, where `sat`'s clause learning takes a tenth of it.
const DFS_FIRST: Duration = Duration::from_millis(50);

/// Whether `puzzle` (the board's, rules included) has a solution with the board's digits and
/// `d` in `cell`: the last resort's test on a puzzle with rules, where a search over houses
/// alone could reach a grid that breaks a rule. The candidates the board has left in its open
/// cells go along as candidate lists: the steps that removed the others were sound, so no
/// solution needs them (the answer is the same), and the search starts from what the steps
/// know rather than from the digits alone.
///
/// `dfs` answers first; past [`DFS_FIRST`] the `sat` engine does ([`by_sat`]). Either way the
/// answer is the puzzle's, so the path and its text do not depend on which one gave it.
pub fn solvable_with(puzzle: &Puzzle, board: &Board, cell: usize, d: Value) -> bool {
    let n = board.n();
    let mut givens = board.values().to_vec();
    givens[cell] = d;
    let mut constraints = puzzle.constraints().to_vec();
    for (c, &v) in givens.iter().enumerate() {
        let left = board.cands(c);
        if v == 0 && left != all_digits(n) {
            let digits = super::board::digits(left).map(|x| x as u32).collect();
            constraints.push(Constraint::Candidates {
                cell: c as u32,
                digits,
            });
        }
    }
    let Ok(p) = Puzzle::new(puzzle.shape_arc().clone(), givens)
        .and_then(|p| p.with_constraints(constraints))
    else {
        return false;
    };
    let dfs = |deadline| {
        let halt = crate::cancel::Halt {
            deadline,
            cancel: None,
        };
        crate::dfs::search(&p, Default::default(), Job::Count { limit: 1 }, &halt)
    };
    match dfs(Some(Instant::now() + DFS_FIRST)) {
        Ok(f) if f.count > 0 => return true,
        Ok(f) if !f.timed_out => return false,
        Ok(_) => {}
        Err(_) => return false,
    }
    // `sat` failing after `dfs` ran out of time: `dfs` without a deadline decides.
    by_sat(&p).unwrap_or_else(|| dfs(None).is_ok_and(|f| f.count > 0))
}

/// Whether `puzzle` has a solution, by the `sat` engine (varisat, default options); a solution
/// it finds is re-checked ([`crate::check::verify`]). `None` when it fails (a panic in the
/// solver library included) or its solution does not check.
fn by_sat(puzzle: &Puzzle) -> Option<bool> {
    let run = sat::run::Run {
        puzzle: puzzle.clone(),
        opts: sat::options::SatOptions::default(),
        engine: sat::run::EngineKind::Varisat,
        deadline: None,
        cancellable: false,
        job: sat::run::Job::Count(1),
        meter: Default::default(),
    };
    let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        sat::run::execute(&run, &mut |_| {}, &crate::cancel::Cancel::new())
    }));
    match ran.ok()? {
        Ok(sat::run::Outcome::Count(c)) => match c.witnesses.first() {
            Some(grid) => crate::check::verify(puzzle, grid).is_ok().then_some(true),
            None => (c.complete && !c.timed_out).then_some(false),
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Cage, Shape};

    /// A 4×4 with the cages {r1c1, r1c2} = 3 and {r2c1, r2c2} = 7, and `given` in r1c1.
    fn killer(given: Value) -> Puzzle {
        let shape = Arc::new(Shape::standard(4, false).unwrap());
        let mut givens = vec![0; 16];
        givens[0] = given;
        let cages = [(vec![0, 1], 3), (vec![4, 5], 7)];
        let cages = cages.map(|(c, s)| Constraint::Cage(Cage::new(c, s)));
        Puzzle::new(shape, givens)
            .unwrap()
            .with_constraints(cages.to_vec())
            .unwrap()
    }

    #[test]
    fn only_rules_of_differing_pairs_are_left_to_the_peers() {
        let shape = Arc::new(Shape::standard(4, false).unwrap());
        let constraints = vec![
            Constraint::AntiKnight,
            Constraint::AntiKing,
            Constraint::Thermo(vec![0, 1, 2]),
            Constraint::Cage(Cage::new(vec![0, 1], 3)),
        ];
        let p = Puzzle::new(shape, vec![0; 16])
            .unwrap()
            .with_constraints(constraints)
            .unwrap();
        let rules = constraint_rules(&p);
        let peers_only: Vec<bool> = rules.iter().map(|r| r.peers_only).collect();
        assert_eq!(peers_only, [true, true, false, false]);
    }

    #[test]
    fn the_fallback_to_sat_answers_as_dfs_does() {
        for (given, solvable) in [(1, true), (2, true), (3, false), (4, false)] {
            let p = killer(given);
            assert_eq!(by_sat(&p), Some(solvable), "given {given}");
            let halt = crate::cancel::Halt::default();
            let dfs = crate::dfs::search(&p, Default::default(), Job::Count { limit: 1 }, &halt);
            assert_eq!(dfs.unwrap().count > 0, solvable, "given {given}");
        }
    }
}
