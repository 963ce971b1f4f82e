//! A step as data: what a technique concludes (placements, eliminations) and what justifies it
//! (cells, houses, digits, fins, a chain), with no text and no effect on the board.

use std::sync::Arc;

use super::table::Technique;
use crate::model::Value;

/// A digit in a cell (cells row-major from 0, digits `1..=n`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Candidate {
    pub cell: u32,
    pub digit: Value,
}

impl Candidate {
    pub fn new(cell: usize, digit: Value) -> Candidate {
        Candidate {
            cell: cell as u32,
            digit,
        }
    }
}

/// The link from a chain node to the next one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Link {
    /// If the node is false, the next is true.
    Strong,
    /// If the node is true, the next is false.
    Weak,
    /// The last node of a chain.
    End,
}

/// A chain node: a digit in one cell, or in a group of cells of one house.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Node {
    pub cells: Vec<u32>,
    pub digit: Value,
    /// The link to the next node.
    pub link: Link,
}

/// Some cells of a pattern and the digits they hold between them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CellSet {
    pub cells: Vec<u32>,
    pub digits: Vec<Value>,
}

/// One deduction. Finders fill the fields that the technique's text and check need; the others
/// stay empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub technique: Technique,
    /// Digits set by the step.
    pub placements: Vec<Candidate>,
    /// Candidates removed by the step.
    pub eliminations: Vec<Candidate>,
    /// The digits the pattern is about.
    pub digits: Vec<Value>,
    /// Premise houses (a fish's base houses, a subset's house, an intersection's source).
    pub houses: Vec<u32>,
    /// Second set of premise houses (a fish's cover houses, an intersection's target).
    pub covers: Vec<u32>,
    /// Premise cells (a subset's cells, a wing's pivot then pincers, a rectangle's corners).
    pub cells: Vec<u32>,
    /// Fins of a finned fish; the extra candidates of a BUG+1 or unique rectangle.
    pub fins: Vec<u32>,
    /// Endo fins of a Franken fish: places of its digit in two of its base sets.
    pub endo_fins: Vec<u32>,
    /// A chain of nodes with strong and weak links, or colour classes one after another.
    pub chain: Vec<Node>,
    /// The cell sets of a pattern made of several, each with its digits (a Sue de Coq's
    /// intersection cells, line set and box set).
    pub sets: Vec<CellSet>,
    /// The rule the step reads, by its short name (`Killer cage r1c1 17`), for the rule
    /// techniques ([`super::rules`]).
    pub rule: Option<Arc<str>>,
}

impl Step {
    /// An empty step of `technique`, to fill in.
    pub fn new(technique: Technique) -> Step {
        Step {
            technique,
            placements: vec![],
            eliminations: vec![],
            digits: vec![],
            houses: vec![],
            covers: vec![],
            cells: vec![],
            fins: vec![],
            endo_fins: vec![],
            chain: vec![],
            sets: vec![],
            rule: None,
        }
    }
    /// True when the step changes nothing.
    pub fn is_empty(&self) -> bool {
        self.placements.is_empty() && self.eliminations.is_empty()
    }
    /// Sorts and deduplicates the conclusions, so equal deductions compare equal.
    pub fn normalized(mut self) -> Step {
        self.placements.sort_unstable();
        self.placements.dedup();
        self.eliminations.sort_unstable();
        self.eliminations.dedup();
        self
    }
}

/// HoDoKu's tie-break between two sets of removed candidates (`getIndexSumme`): over the
/// candidates ordered by digit then cell, the sum of `cell × (1 + 80 i) + digit` for the `i`-th
/// (cells from 0). Of two steps removing as many candidates, HoDoKu takes the lower.
pub fn index_sum(removed: &[Candidate]) -> u64 {
    let mut sorted: Vec<(Value, u32)> = removed.iter().map(|c| (c.digit, c.cell)).collect();
    sorted.sort_unstable();
    (sorted.iter().enumerate())
        .map(|(i, &(digit, cell))| cell as u64 * (1 + 80 * i as u64) + digit as u64)
        .sum()
}

/// Where finders put the steps they find: up to `limit` steps, then the finders stop.
#[derive(Debug)]
pub struct Found {
    pub steps: Vec<Step>,
    pub limit: usize,
    /// Digits a finder of one digit at a time looks at (bit `d - 1`; all by default). The
    /// solver leaves out the digits whose places have not changed since the technique last
    /// found nothing for them ([`crate::logic::finders::per_digit`]).
    pub digits: u64,
    /// Other one-digit techniques that a finder, on its way, found to have nothing for some
    /// digits on this board (technique, digit bits): the solver records them as if asked.
    pub also_empty: Vec<(super::table::Technique, u64)>,
    /// The techniques of the ladder being run (bit `t as usize` of each technique `t`); none
    /// when a finder is asked alone. Multi-colours reads it: HoDoKu finds types 1 and 2 in one
    /// search, so the first of the two rows on the ladder searches for both in its order.
    pub ladder: u128,
}

impl Found {
    pub fn new(limit: usize) -> Found {
        Found {
            steps: vec![],
            limit,
            digits: u64::MAX,
            also_empty: vec![],
            ladder: 0,
        }
    }

    /// True when technique `t` is on the ladder being run ([`Found::ladder`]).
    pub fn on_ladder(&self, t: super::table::Technique) -> bool {
        self.ladder >> (t as usize) & 1 != 0
    }

    /// True once `limit` steps are in.
    pub fn full(&self) -> bool {
        self.steps.len() >= self.limit
    }
    /// Adds a step unless it changes nothing; returns [`Found::full`] so finders can stop.
    pub fn push(&mut self, step: Step) -> bool {
        if !step.is_empty() && !self.full() {
            self.steps.push(step.normalized());
        }
        self.full()
    }
}
