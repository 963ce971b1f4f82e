//! Singles: full house (the last empty cell of a house), naked single (a cell with one
//! candidate) and hidden single (a digit with one place left in a house; boxes and regions are
//! searched first, then rows, columns and extra houses).

use super::board::{bits, digits, Board};
use super::step::{Candidate, Found, Step};
use super::table::Technique;

/// Finds full houses, naked singles or hidden singles, as `technique` says.
pub fn find(board: &Board, technique: Technique, found: &mut Found) {
    let n = board.n();
    match technique {
        Technique::FullHouse => {
            for h in 0..board.house_count() {
                let mut empty = board
                    .house(h)
                    .iter()
                    .filter(|&&c| board.value(c as usize) == 0);
                let (Some(&cell), None) = (empty.next(), empty.next()) else {
                    continue;
                };
                let c = board.cands(cell as usize);
                if c.count_ones() == 1
                    && push(
                        found,
                        technique,
                        cell as usize,
                        digits(c).next().unwrap_or(0),
                        Some(h),
                    )
                {
                    return;
                }
            }
        }
        Technique::NakedSingle => {
            for cell in 0..n * n {
                let c = board.cands(cell);
                if c.count_ones() == 1
                    && push(found, technique, cell, digits(c).next().unwrap_or(0), None)
                {
                    return;
                }
            }
        }
        Technique::HiddenSingle => {
            let order = (2 * n..3 * n)
                .chain(0..2 * n)
                .chain(3 * n..board.house_count());
            for h in order {
                for d in 1..=n as u16 {
                    let p = board.positions(h, d);
                    if p.count_ones() == 1 {
                        let cell = board.house(h)[bits(p).next().unwrap_or(0)] as usize;
                        if push(found, technique, cell, d, Some(h)) {
                            return;
                        }
                    }
                }
            }
        }
        _ => {}
    }
}

fn push(
    found: &mut Found,
    technique: Technique,
    cell: usize,
    d: u16,
    house: Option<usize>,
) -> bool {
    let mut step = Step::new(technique);
    step.placements.push(Candidate::new(cell, d));
    step.digits.push(d);
    step.cells.push(cell as u32);
    step.houses.extend(house.map(|h| h as u32));
    found.push(step)
}
