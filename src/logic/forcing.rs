//! Forcing chains and forcing nets: what follows from assuming a candidate true.
//!
//! * A *forcing chain* follows the static links of the [`Links`] graph from the premise (weak
//!   links make candidates false, strong links make them true), as far as [`MAX_LINKS`].
//! * A *forcing net* places the premise on a copy of the board and runs naked and hidden singles
//!   to the end ([`bifurcation::singles_after`]): conclusions combine, so it sees further.
//!
//! Either way a premise's outcome is the candidates it leaves, or a contradiction (a candidate
//! both true and false, a cell left without candidates). *Contradiction*: a premise that leads
//! to one is false. *Verity*: when every candidate of a cell (cell verity), or every place of a
//! digit in a house (house verity), leads to the same placement or elimination, that conclusion
//! holds, one of the premises being true. HoDoKu scores these steps 500 (chains) and 700 (nets).

use std::cell::RefCell;

use super::bifurcation;
use super::board::{bit, bits, Board};
use super::links::{Links, Mode, Reach, MAX_LINKS};
use super::step::{Candidate, Found, Step};
use super::table::Technique;
use crate::model::Value;

pub fn find(board: &Board, technique: Technique, found: &mut Found) {
    let net = matches!(
        technique,
        Technique::ForcingNetContradiction | Technique::ForcingNetVerity
    );
    let contradiction = matches!(
        technique,
        Technique::ForcingChainContradiction | Technique::ForcingNetContradiction
    );
    let mut outcomes = Outcomes {
        board,
        links: (!net).then(|| Links::of(board, false)),
        reach: Reach::default(),
        memo: take_memo(board, net),
    };
    if contradiction {
        contradictions(board, technique, &mut outcomes, found);
    } else {
        verities(board, technique, &mut outcomes, found);
    }
    MEMO.with(|m| *m.borrow_mut() = Some((net, key(board), outcomes.memo)));
}

type Memo = Vec<Option<Option<Vec<u64>>>>;

thread_local! {
    /// The outcomes of the last board, kept from the contradiction finder for the verity finder.
    static MEMO: RefCell<Option<(bool, Vec<u64>, Memo)>> = const { RefCell::new(None) };
}

/// A board state: its candidates, then its digits.
fn key(board: &Board) -> Vec<u64> {
    let n = board.n();
    let cands = (0..n * n).map(|c| board.cands(c));
    cands
        .chain(board.values().iter().map(|&v| v as u64))
        .collect()
}

/// The memo of the last call when it was on the same board and kind, else an empty one.
fn take_memo(board: &Board, net: bool) -> Memo {
    let n = board.n();
    let last = MEMO.with(|m| m.borrow_mut().take());
    match last {
        Some((was_net, k, memo)) if was_net == net && k == key(board) => memo,
        _ => vec![None; n * n * n],
    }
}

/// The outcome of each premise, computed once: the candidates left, `None` on a contradiction.
struct Outcomes<'a> {
    board: &'a Board,
    /// The static graph for forcing chains; `None` for nets.
    links: Option<std::rc::Rc<Links>>,
    reach: Reach,
    memo: Memo,
}

impl Outcomes<'_> {
    fn of(&mut self, cell: usize, d: Value) -> Option<&[u64]> {
        let n = self.board.n();
        let key = cell * n + d as usize - 1;
        if self.memo[key].is_none() {
            let outcome = match &self.links {
                None => bifurcation::singles_after(self.board, cell, d),
                Some(links) => chain_outcome(self.board, links, &mut self.reach, cell, d),
            };
            self.memo[key] = Some(outcome);
        }
        self.memo[key].as_ref().and_then(|o| o.as_deref())
    }
}

/// The candidates left by the static implications of `d` in `cell`, `None` when they reach a
/// candidate both true and false or a cell without candidates.
fn chain_outcome(
    board: &Board,
    links: &Links,
    reach: &mut Reach,
    cell: usize,
    d: Value,
) -> Option<Vec<u64>> {
    let n = board.n();
    let start = links.node(cell, d);
    links.search(Mode::All, (start, true), MAX_LINKS, None, reach);
    let mut cands: Vec<u64> = (0..n * n).map(|c| board.cands(c)).collect();
    for &state in &reach.queue {
        let c = links.candidate(state / 2);
        if reach.reached(state ^ 1) {
            return None;
        }
        let (cell, b) = (c.cell as usize, bit(c.digit));
        match state % 2 {
            1 => cands[cell] = b,
            _ => cands[cell] &= !b,
        }
    }
    (0..n * n)
        .all(|c| board.value(c) != 0 || cands[c] != 0)
        .then_some(cands)
}

fn contradictions(board: &Board, technique: Technique, outcomes: &mut Outcomes, found: &mut Found) {
    let n = board.n();
    for cell in 0..n * n {
        for d in bits(board.cands(cell)).map(|b| b as Value + 1) {
            if outcomes.of(cell, d).is_some() {
                continue;
            }
            let mut step = Step::new(technique);
            step.cells.push(cell as u32);
            step.digits.push(d);
            step.eliminations.push(Candidate::new(cell, d));
            if found.push(step) {
                return;
            }
        }
    }
}

/// Cell verities, then house verities.
fn verities(board: &Board, technique: Technique, outcomes: &mut Outcomes, found: &mut Found) {
    let n = board.n();
    for cell in 0..n * n {
        if board.cands(cell).count_ones() < 2 {
            continue;
        }
        let premises: Vec<Candidate> = bits(board.cands(cell))
            .map(|b| Candidate::new(cell, b as Value + 1))
            .collect();
        if let Some(step) = verity(board, technique, outcomes, &premises) {
            if found.push(step) {
                return;
            }
        }
    }
    for h in 0..board.house_count() {
        for d in 1..=n as Value {
            if board.positions(h, d).count_ones() < 2 {
                continue;
            }
            let premises: Vec<Candidate> =
                board.cells_of(h, d).map(|c| Candidate::new(c, d)).collect();
            if let Some(mut step) = verity(board, technique, outcomes, &premises) {
                step.houses.push(h as u32);
                if found.push(step) {
                    return;
                }
            }
        }
    }
}

/// What every premise that does not fail agrees on, as a step (`None` when nothing).
fn verity(
    board: &Board,
    technique: Technique,
    outcomes: &mut Outcomes,
    premises: &[Candidate],
) -> Option<Step> {
    let n = board.n();
    // Per cell: digits left in some branch (union), and digits placed in every branch.
    let mut union = vec![0u64; n * n];
    let mut branches = 0;
    for p in premises {
        let Some(cands) = outcomes.of(p.cell as usize, p.digit) else {
            continue;
        };
        branches += 1;
        for (u, &c) in union.iter_mut().zip(cands) {
            *u |= c;
        }
    }
    if branches == 0 {
        return None;
    }
    let mut step = Step::new(technique);
    step.cells = premises.iter().map(|p| p.cell).collect();
    step.cells.dedup();
    step.digits = premises.iter().map(|p| p.digit).collect();
    step.digits.dedup();
    for (cell, &u) in union.iter().enumerate() {
        let cands = board.cands(cell);
        if cands == 0 || u & cands == cands {
            continue;
        }
        if u.count_ones() == 1 {
            step.placements
                .push(Candidate::new(cell, u.trailing_zeros() as Value + 1));
        } else {
            step.eliminations
                .extend(bits(cands & !u).map(|b| Candidate::new(cell, b as Value + 1)));
        }
    }
    (!step.is_empty()).then_some(step)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::render::text;
    use crate::logic::verify::check_path;
    use crate::task::unique_solution;

    #[test]
    fn every_forcing_step_holds_on_a_hard_puzzle() {
        let p = crate::logic::hard_test_puzzle();
        let solution = unique_solution(&p).unwrap();
        let board = Board::new(&p).unwrap();
        let mut total = 0;
        for t in [
            Technique::ForcingChainContradiction,
            Technique::ForcingChainVerity,
            Technique::ForcingNetContradiction,
            Technique::ForcingNetVerity,
        ] {
            let mut found = Found::new(50);
            find(&board, t, &mut found);
            check_path(solution.cells(), &found.steps).unwrap();
            total += found.steps.len();
            if let Some(step) = found.steps.first() {
                assert!(text(board.shape(), step).starts_with(t.name()));
            }
        }
        assert!(total > 0);
    }
}
