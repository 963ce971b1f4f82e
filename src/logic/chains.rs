//! Chains: X-chains, XY-chains, discontinuous nice loops and AICs, plain and grouped, all read
//! off one search on the [`Links`] graph.
//!
//! For a candidate `x`, the search follows implications from "`x` is true": a weak link to `a`
//! ("`a` is false"), then strong and weak links in turn, until it reaches "`x` is false" through
//! a weak link from some `b`. The chain `a = … = b` between is an alternating inference chain:
//! `a` or `b` is true, so every candidate weakly linked to both (`x` among them) is false.
//! HoDoKu calls the step a discontinuous nice loop when `a` or `b` lies in `x`'s cell (the
//! loop returns to its start) and an AIC otherwise; a chain through a group node (a digit's
//! cells in a box–line intersection) makes the grouped forms. The restricted modes give the
//! named chains: one digit and links between cells (X-chain), bivalue cells with strong links
//! inside them and weak links between them (XY-chain). A turbot fish is an X-chain of three
//! links at most, of which the one removing the most candidates is taken (as HoDoKu does).
//!
//! Continuous nice loops are not a step of their own here: each elimination of one is the
//! conclusion of a discontinuous loop through the eliminated candidate, found by the same
//! search. The search is breadth-first, so each loop is a shortest one through its candidate;
//! when one nice loop or AIC is asked for, the shortest loop on the board is returned. X-chains
//! and XY-chains are chosen as HoDoKu chooses them: of all chains, the one removing the most
//! candidates (what a chain removes depends on its two ends alone, so one search from each start
//! lists every pair of ends).

use super::board::{all_digits, digits};
use super::links::{Links, Mode, Reach, MAX_LINKS};
use super::step::{index_sum, Candidate, Found, Step};
use super::table::Technique;

pub fn find(board: &super::Board, technique: Technique, found: &mut Found) {
    let grouped = matches!(
        technique,
        Technique::GroupedNiceLoop | Technique::GroupedAic
    );
    let modes: Vec<Mode> = match technique {
        Technique::XChain | Technique::TurbotFish => digits(found.digits & all_digits(board.n()))
            .map(Mode::Digit)
            .collect(),
        Technique::XyChain => vec![Mode::Bivalue],
        Technique::NiceLoop | Technique::Aic => vec![Mode::All],
        Technique::GroupedNiceLoop | Technique::GroupedAic => vec![Mode::Grouped],
        _ => return,
    };
    let links = Links::of(board, grouped);
    if matches!(technique, Technique::XChain | Technique::XyChain) {
        return most_removing(&links, &modes, technique, found);
    }
    let turbot = technique == Technique::TurbotFish;
    // A turbot fish is an X-chain of three links at most: the loop from `x` back to it adds
    // two. HoDoKu takes the one that removes the most candidates, so all are collected.
    let (want, max_links) = match turbot {
        true => (usize::MAX, 5),
        false => (found.limit.saturating_sub(found.steps.len()), MAX_LINKS),
    };
    let mut steps: Vec<(usize, Step)> = vec![];
    for mode in modes {
        if links.known_empty(mode) {
            continue;
        }
        let before = steps.len();
        loops(&links, mode, want, max_links, &mut steps);
        if steps.len() == before && !turbot {
            links.set_empty(mode);
        }
    }
    if turbot {
        for (_, step) in &mut steps {
            step.technique = Technique::TurbotFish;
        }
    }
    // The shortest first; turbot fish with the most eliminations first.
    steps.sort_by_key(|(len, step)| (turbot.then(|| usize::MAX - step.eliminations.len()), *len));
    let mut seen = vec![];
    for (_, step) in steps {
        let step = step.normalized();
        if seen.contains(&step.eliminations) {
            continue;
        }
        seen.push(step.eliminations.clone());
        if found.push(step) {
            return;
        }
    }
}

/// X-chains and XY-chains as HoDoKu chooses them: of all the chains from a start "false" to an
/// end "true" of the same digit, one per pair of ends (the shortest), the one that removes the
/// most candidates (ties: the lower weighted sum of the removed candidates, HoDoKu's
/// `getIndexSumme`). What a chain removes depends on its ends alone, so a breadth-first search
/// from each start lists them all; a mode without any loop (the searches on masks say so at
/// once, as for every other chain) lists none.
fn most_removing(links: &Links, modes: &[Mode], technique: Technique, found: &mut Found) {
    // HoDoKu's chains have 20 nodes at most: 19 links, 21 as a loop through a removed candidate.
    const CHAIN_LINKS: u16 = MAX_LINKS - 1;
    let mut reach = Reach::default();
    // (removed candidates, links, start, end), the first shortest chain per set of removals.
    let mut chains: Vec<(Vec<Candidate>, u16, u32, u32)> = vec![];
    for &mode in modes {
        if links.known_empty(mode) {
            continue;
        }
        let before = chains.len();
        if !links.loop_lengths(mode, CHAIN_LINKS + 2, true).is_empty() {
            for x in 0..links.singles as u32 {
                let start_fits = match mode {
                    Mode::Digit(d) => links.digit(x) == d,
                    _ => links.is_bivalue(x),
                };
                if !start_fits {
                    continue;
                }
                links.search(mode, (x, false), CHAIN_LINKS, None, &mut reach);
                for &state in &reach.queue {
                    let y = state / 2;
                    // An end "true" of the start's digit in another cell, three links away at
                    // least (strong, weak, strong).
                    if state % 2 == 0
                        || reach.depth(state) < 3
                        || links.digit(y) != links.digit(x)
                        || links.cells(y) == links.cells(x)
                    {
                        continue;
                    }
                    let mut removed = links.seen_by_both(x, y);
                    if removed.is_empty() {
                        continue;
                    }
                    removed.sort_unstable();
                    let depth = reach.depth(state);
                    match chains.iter_mut().find(|c| c.0 == removed) {
                        Some(c) if c.1 > depth => *c = (removed, depth, x, y),
                        Some(_) => {}
                        None => chains.push((removed, depth, x, y)),
                    }
                }
            }
        }
        if chains.len() == before {
            links.set_empty(mode);
        }
    }
    chains.sort_by_key(|c| (std::cmp::Reverse(c.0.len()), index_sum(&c.0)));
    for (removed, _, x, y) in chains {
        let mode = match technique {
            Technique::XChain => Mode::Digit(links.digit(x)),
            _ => Mode::Bivalue,
        };
        links.search(mode, (x, false), CHAIN_LINKS, Some(2 * y + 1), &mut reach);
        let mut step = Step::new(technique);
        step.digits.push(links.digit(x));
        step.eliminations = removed;
        step.chain = links.chain(&reach.path(2 * y + 1));
        if found.push(step) {
            return;
        }
    }
}

/// The loops of `max_links` links at most through every candidate `x` ("`x` true" leads to
/// "`x` false") in `mode`, as steps with their length in links. With `want` 1, each search is bounded by the shortest loop
/// so far.
fn loops(links: &Links, mode: Mode, want: usize, max_links: u16, out: &mut Vec<(usize, Step)>) {
    let mut reach = Reach::default();
    let mut bound = max_links;
    // The candidates with a loop (with one loop wanted, the one whose loop is kept) are known
    // before any path is followed.
    let candidates = links.loop_lengths(mode, max_links, want == 1);
    for (x, _) in candidates {
        if matches!(mode, Mode::Digit(d) if links.digit(x) != d) {
            continue;
        }
        if !links.search(mode, (x, true), bound, Some(2 * x), &mut reach) {
            continue;
        }
        let path = reach.path(2 * x);
        // x true, a false, …, b true, x false.
        let inner = &path[1..path.len() - 1];
        let (a, b) = (inner[0] / 2, inner[inner.len() - 1] / 2);
        let has_group = inner.iter().any(|&s| s as usize / 2 >= links.singles);
        let closes = links.cells(a) == links.cells(x) || links.cells(b) == links.cells(x);
        let technique = match mode {
            Mode::Digit(_) => Technique::XChain,
            Mode::Bivalue => Technique::XyChain,
            _ => match (has_group, closes) {
                (true, true) => Technique::GroupedNiceLoop,
                (true, false) => Technique::GroupedAic,
                (false, true) => Technique::NiceLoop,
                (false, false) => Technique::Aic,
            },
        };
        let mut step = Step::new(technique);
        step.digits.push(links.digit(x));
        step.eliminations = links.seen_by_both(a, b);
        step.chain = links.chain(if closes { &path } else { inner });
        let len = path.len() - 1;
        out.push((len, step));
        if want == 1 {
            bound = bound.min(len as u16 - 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::logic::render::text;
    use crate::logic::Board;
    use crate::model::{Puzzle, Shape, Value};

    /// An empty 9×9 board keeping, for each (digit, row), the digit in the listed columns only,
    /// and in each listed cell the listed digits only.
    fn board(rows: &[(Value, usize, &[usize])], cells: &[(usize, &[Value])]) -> Board {
        let p = Puzzle::new(Arc::new(Shape::standard(9, false).unwrap()), vec![0; 81]).unwrap();
        let mut elims = vec![];
        for &(d, row, cols) in rows {
            elims.extend(
                (1..=9)
                    .filter(|c| !cols.contains(c))
                    .map(|c| ((row - 1) * 9 + c - 1, d)),
            );
        }
        for &(cell, ds) in cells {
            elims.extend((1..=9).filter(|d| !ds.contains(d)).map(|d| (cell, d)));
        }
        Board::with_eliminations(&p, &elims).unwrap()
    }

    fn first(board: &Board, technique: Technique) -> Option<String> {
        let mut found = Found::new(1);
        find(board, technique, &mut found);
        found.steps.first().map(|s| text(board.shape(), s))
    }

    #[test]
    fn x_chain_of_three_strong_links() {
        // 1 only in r1c2,r1c5 / r4c5,r4c8 / r7c8,r7c3: r1c2 = r1c5 - r4c5 = r4c8 - r7c8 = r7c3.
        let rows: &[(Value, usize, &[usize])] =
            &[(1, 1, &[2, 5]), (1, 4, &[5, 8]), (1, 7, &[8, 3])];
        let b = board(rows, &[]);
        assert_eq!(
            first(&b, Technique::XChain).unwrap(),
            "X-Chain: 1 r1c2 =1= r1c5 -1- r4c5 =1= r4c8 -1- r7c8 =1= r7c3 => r23c3,r89c2<>1"
        );
    }

    #[test]
    fn turbot_fish_through_a_box() {
        // 1 in box 1 only at r1c1 and r3c3, in column 7 only at r3c7 and r8c7: r1c1 =1= r3c3
        // -1- r3c7 =1= r8c7, so r8c1, seeing both ends, loses 1. No two parallel lines and no
        // row and column meeting in a box: not a skyscraper nor a 2-string kite.
        let open: &[usize] = &[1, 2, 3, 4, 5, 6, 8, 9];
        let rows: &[(Value, usize, &[usize])] = &[
            (1, 1, &[1, 5]),
            (1, 2, &[4, 5, 6, 8, 9]),
            (1, 3, &[3, 7]),
            (1, 4, open),
            (1, 5, open),
            (1, 6, open),
            (1, 7, open),
            (1, 8, &[1, 7]),
            (1, 9, open),
        ];
        let b = board(rows, &[]);
        let mut found = Found::new(50);
        find(&b, Technique::TurbotFish, &mut found);
        let texts: Vec<String> = found.steps.iter().map(|s| text(b.shape(), s)).collect();
        let turbot = "Turbot Fish: 1 r1c1 =1= r3c3 -1- r3c7 =1= r8c7 => r8c1<>1";
        assert!(texts.iter().any(|t| t == turbot), "{texts:#?}");
        let mut others = Found::new(50);
        for t in [Technique::Skyscraper, Technique::TwoStringKite] {
            crate::logic::single_digit::find(&b, t, &mut others);
        }
        let r8c1 = crate::logic::step::Candidate::new(63, 1);
        assert!(others.steps.iter().all(|s| !s.eliminations.contains(&r8c1)));
    }

    #[test]
    fn xy_chain_through_bivalue_cells() {
        // r1c1 {1,2} - r1c5 {2,3} - r5c5 {3,1}: a cell seeing r1c1 and r5c5 loses 1.
        let cells: &[(usize, &[Value])] = &[(0, &[1, 2]), (4, &[2, 3]), (40, &[3, 1])];
        let b = board(&[], cells);
        assert_eq!(
            first(&b, Technique::XyChain).unwrap(),
            "XY-Chain: 1 r1c1(1=2) -2- r1c5(2=3) -3- r5c5(3=1) => r5c1<>1"
        );
    }
}

#[cfg(test)]
mod path_tests {
    use super::*;
    use crate::logic::verify::check_path;
    use crate::logic::{solve, Ladder, SolveOutcome};
    use crate::task::unique_solution;

    #[test]
    fn chain_steps_on_a_hard_puzzle_are_true() {
        let p = crate::logic::hard_test_puzzle();
        let ladder = Ladder::parse("singles,intersections,subsets,chains,last-resort").unwrap();
        let result = solve(&p, &ladder).unwrap();
        assert_eq!(result.outcome, SolveOutcome::Solved);
        let solution = unique_solution(&p).unwrap();
        check_path(solution.cells(), &result.steps).unwrap();
        let count = |t: Technique| result.steps.iter().filter(|s| s.technique == t).count();
        let counts: Vec<usize> = [
            Technique::XChain,
            Technique::XyChain,
            Technique::NiceLoop,
            Technique::Aic,
            Technique::GroupedNiceLoop,
            Technique::GroupedAic,
        ]
        .into_iter()
        .map(count)
        .collect();
        assert_eq!(counts, vec![1, 0, 0, 0, 1, 2]);
    }
}
