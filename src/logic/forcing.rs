//! Forcing chains and forcing nets: what follows from assuming a candidate true.
//!
//! * A *forcing chain* follows the static links of the [`Links`] graph from the premise (weak
//!   links make candidates false, strong links make them true), as far as [`MAX_LINKS`].
//! * A *forcing net* places the premise on a copy of the board and runs naked and hidden singles
//!   (and, on a puzzle with rules, the rules and the reads of [`super::rules::net`]) to the end
//!   ([`Nets`]): conclusions combine, so it sees further.
//!
//! Either way a premise's outcome is the candidates it leaves, or a contradiction (a candidate
//! both true and false, a cell left without candidates). *Contradiction*: a premise that leads
//! to one is false. *Verity*: when every candidate of a cell (cell verity), or every place of a
//! digit in a house (house verity), leads to the same placement or elimination, that conclusion
//! holds, one of the premises being true. HoDoKu scores these steps 500 (chains) and 700 (nets).
//!
//! Each outcome is computed once a board, on demand, and kept: for the verity finder after the
//! contradiction finder on the same board, and for the nets along a solving path. A net step
//! removes one candidate and the next net step starts again from the first premise, so a
//! premise's outcome on the board before, cut down to what the steps since removed, is where
//! its propagation resumes ([`Nets::resume`]; exact when both boards are settled, which
//! [`Nets::settled`] checks, and the board narrows the earlier one).

use std::cell::RefCell;
use std::rc::Rc;

use super::bifurcation::Nets;
use super::board::{bit, bits, Board};
use super::links::{Links, Mode, Reach, MAX_LINKS};
use super::origin::Origin;
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
    let via = match net {
        true => Via::Nets(Box::new(Nets::of(board))),
        false => Via::Links(Links::of(board, false), Reach::default()),
    };
    let settled = matches!(&via, Via::Nets(nets) if nets.settled());
    let mut outcomes = Outcomes {
        board,
        via,
        memo: take_memo(board, net, settled),
    };
    if contradiction {
        contradictions(board, technique, &mut outcomes, found);
    } else {
        verities(board, technique, &mut outcomes, found);
    }
    let kept = Kept {
        origin: Origin::of(board),
        key: key(board),
        settled,
        memo: outcomes.memo,
    };
    MEMO.with(|m| m.borrow_mut()[net as usize] = Some(kept));
}

/// What is known of a premise's outcome.
#[derive(Clone)]
enum Outcome {
    Unknown,
    /// The candidates left, `None` on a contradiction.
    Known(Option<Vec<u64>>),
    /// Its outcome on an earlier board that this one narrows, both settled
    /// ([`Nets::resume`]).
    Earlier(Vec<u64>),
}

/// Per premise (`cell * n + d - 1`), its outcome.
type Memo = Vec<Outcome>;

/// The outcomes of the last board of a kind (chains, nets), with what they hold for.
struct Kept {
    origin: Origin,
    key: Vec<u64>,
    /// Whether the board was settled ([`Nets::settled`]).
    settled: bool,
    memo: Memo,
}

thread_local! {
    /// Per kind (chains, nets), the outcomes of the last board: kept from the contradiction
    /// finder for the verity finder, and for the nets from one board of a path to the next.
    static MEMO: RefCell<[Option<Kept>; 2]> = const { RefCell::new([None, None]) };
}

/// A board state: its candidates, then its digits.
fn key(board: &Board) -> Vec<u64> {
    let n = board.n();
    let cands = (0..n * n).map(|c| board.cands(c));
    cands
        .chain(board.values().iter().map(|&v| v as u64))
        .collect()
}

/// The memo of the last call of the kind: as it was on the same board; for the nets, its
/// outcomes as [`Outcome::Earlier`] on a settled board that narrows a settled earlier one of
/// the same puzzle; else an empty one.
fn take_memo(board: &Board, net: bool, settled: bool) -> Memo {
    let n = board.n();
    let fresh = || vec![Outcome::Unknown; n * n * n];
    let Some(last) = MEMO.with(|m| m.borrow_mut()[net as usize].take()) else {
        return fresh();
    };
    if !last.origin.holds(board) {
        return fresh();
    }
    let now = key(board);
    if last.key == now {
        return last.memo;
    }
    if !(net && settled && last.settled && narrows(n, &now, &last.key)) {
        return fresh();
    }
    let mut memo = last.memo;
    for o in memo.iter_mut() {
        if let Outcome::Known(Some(was)) = o {
            *o = Outcome::Earlier(std::mem::take(was));
        }
    }
    memo
}

/// True when the board of key `now` narrows that of `was` (side `n`): every cell's
/// candidates (a placed cell holding its digit's bit) among the earlier ones.
fn narrows(n: usize, now: &[u64], was: &[u64]) -> bool {
    let cells = n * n;
    let mask = |k: &[u64], c: usize| match k[cells + c] {
        0 => k[c],
        v => bit(v as Value),
    };
    (0..cells).all(|c| mask(now, c) & !mask(was, c) == 0)
}

/// The outcome of each premise, computed once: the candidates left, `None` on a contradiction.
struct Outcomes<'a> {
    board: &'a Board,
    via: Via<'a>,
    memo: Memo,
}

/// How a premise's outcome is found.
enum Via<'a> {
    /// Forcing chains: the static graph.
    Links(Rc<Links>, Reach),
    /// Forcing nets: the propagation.
    Nets(Box<Nets<'a>>),
}

impl Outcomes<'_> {
    fn of(&mut self, cell: usize, d: Value) -> Option<&[u64]> {
        let n = self.board.n();
        let key = cell * n + d as usize - 1;
        let outcome = match (
            std::mem::replace(&mut self.memo[key], Outcome::Unknown),
            &mut self.via,
        ) {
            (Outcome::Known(known), _) => known,
            (Outcome::Earlier(was), Via::Nets(nets)) => nets.resume(was),
            (_, Via::Nets(nets)) => nets.after(cell, d),
            (_, Via::Links(links, reach)) => chain_outcome(self.board, links, reach, cell, d),
        };
        self.memo[key] = Outcome::Known(outcome);
        match &self.memo[key] {
            Outcome::Known(o) => o.as_deref(),
            _ => None,
        }
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
