//! What a forcing net's propagation reads in the houses on a puzzle with rules, beside the
//! singles and each rule's own narrowing ([`super::narrow_search`]).
//!
//! A setter's "what follows if this cell is 5?" reads more than singles: on a puzzle with rules
//! it also reads, house by house,
//!
//! * **pointing through the peers:** when every place of a digit in a house sees one cell
//!   (through the houses, or a rule that keeps cells distinct: a knight's move, a cage), the
//!   digit goes from that cell. With the houses alone this is locked candidates; with
//!   anti-knight or anti-king neighbours it reaches cells off the house's lines;
//! * **naked and hidden pairs:** two cells of a house left with the same two digits take them
//!   from the rest of the house; two digits left with the same two places in a house keep
//!   those cells to them.
//!
//! Classic puzzles keep HoDoKu's nets (singles only), so their grades stay comparable; puzzles
//! with rules have no such reference, and these reads are what lets a net follow the rules far
//! enough (a net that reads them settles the published puzzles that singles alone leave to a
//! guess, docs/benchmarks.md).

use super::super::board::{bits, Board};
use crate::model::Value;

/// Runs the reads above once over each house with a cell whose candidates changed since
/// `seen` (a search starts it from the board, where the ladder's own intersections, subsets
/// and pointing through rules have run), for the digits whose places there changed, and
/// records the candidates read in `seen`: true when a candidate went.
pub fn houses(board: &Board, values: &[Value], cands: &mut [u64], seen: &mut [u64]) -> bool {
    // Per house, the digits whose places in it changed.
    let mut delta = vec![0u64; board.house_count()];
    for (c, (now, was)) in cands.iter().zip(seen.iter()).enumerate() {
        if now != was {
            for &h in board.shape().houses_of(c) {
                delta[h as usize] |= now ^ was;
            }
        }
    }
    seen.copy_from_slice(cands);
    let mut common = vec![0u64; board.peer_set(0).len()];
    let mut changed = false;
    for (h, &digits) in delta.iter().enumerate().filter(|(_, &d)| d != 0) {
        let house = board.house(h);
        let at = places(house, values, cands);
        changed |= pointing(board, house, digits, &at, cands, &mut common);
        changed |= naked_pairs(house, values, cands);
        let at = places(house, values, cands);
        changed |= hidden_pairs(board.n(), house, digits, &at, cands);
    }
    changed
}

/// Per digit (bit `d - 1`), its places in `house` among the open cells (bit `i` for
/// `house[i]`).
fn places(house: &[u32], values: &[Value], cands: &[u64]) -> [u64; 64] {
    let mut places = [0u64; 64];
    for (i, &c) in house.iter().enumerate() {
        let c = c as usize;
        if values[c] == 0 {
            for b in bits(cands[c]) {
                places[b] |= 1 << i;
            }
        }
    }
    places
}

/// Pointing through the peers in one house, for `digits` (bits; `places` as [`places`] gives
/// them; `common`: scratch, one bitset over the cells). A digit with one place left is a hidden
/// single, which the search places itself.
fn pointing(
    board: &Board,
    house: &[u32],
    digits: u64,
    places: &[u64; 64],
    cands: &mut [u64],
    common: &mut [u64],
) -> bool {
    let mut changed = false;
    for b in bits(digits) {
        let at = places[b];
        if at.count_ones() < 2 {
            continue;
        }
        let mut at = bits(at).map(|i| house[i] as usize);
        let first = at.next().expect("two places");
        common.copy_from_slice(board.peer_set(first));
        for c in at {
            for (w, p) in common.iter_mut().zip(board.peer_set(c)) {
                *w &= p;
            }
        }
        for (w, &word) in common.iter().enumerate() {
            for i in bits(word) {
                let c = w * 64 + i;
                if cands[c] & 1 << b != 0 {
                    cands[c] &= !(1 << b);
                    changed = true;
                }
            }
        }
    }
    changed
}

fn open_cells<'a>(
    house: &'a [u32],
    values: &'a [Value],
) -> impl Iterator<Item = usize> + Clone + 'a {
    house
        .iter()
        .map(|&c| c as usize)
        .filter(move |&c| values[c] == 0)
}

/// Naked pairs in one house.
fn naked_pairs(house: &[u32], values: &[Value], cands: &mut [u64]) -> bool {
    let open = open_cells(house, values);
    let mut changed = false;
    for (i, a) in open.clone().enumerate() {
        let pair = cands[a];
        if pair.count_ones() != 2 {
            continue;
        }
        let Some(b) = open.clone().skip(i + 1).find(|&b| cands[b] == pair) else {
            continue;
        };
        for c in open.clone().filter(|&c| c != a && c != b) {
            if cands[c] & pair != 0 {
                cands[c] &= !pair;
                changed = true;
            }
        }
    }
    changed
}

/// Hidden pairs in one house of a grid of side `n` with one of `digits` (bits; `places` as
/// [`places`] gives them).
fn hidden_pairs(
    n: usize,
    house: &[u32],
    digits: u64,
    places: &[u64; 64],
    cands: &mut [u64],
) -> bool {
    let mut changed = false;
    for x in 0..n {
        if places[x].count_ones() != 2 {
            continue;
        }
        for y in x + 1..n {
            if places[y] != places[x] || (digits >> x | digits >> y) & 1 == 0 {
                continue;
            }
            let keep = (1u64 << x) | (1u64 << y);
            for i in bits(places[x]) {
                let c = house[i] as usize;
                if cands[c] & !keep != 0 {
                    cands[c] &= keep;
                    changed = true;
                }
            }
        }
    }
    changed
}
