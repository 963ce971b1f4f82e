//! The box–row step of the band kernel on every word at once with 256-bit vectors, for CPUs with
//! AVX2 (the [`super::ops::Pext`] variant; the table variant, for CPUs whose `pext` is slow,
//! keeps the scalar step): the same pass as `super::avx512::box_rows`, in five 8-lane vectors
//! instead of two 16-lane ones.
//!
//! AVX2 has no permutation across two registers and no per-lane mask registers, so the words
//! are not kept in the node's order (word `9b + d`, band-major) but *digit-major*, four lanes
//! per digit, one per band and one left empty:
//!
//! ```text
//!   vector j:  lane 0   1   2   3  |  4   5   6   7
//!   word:         d=2j, b=0 1 2  – | d=2j+1, b=0 1 2  –      (vector 4: lanes 4–7 empty)
//! ```
//!
//! In this layout every step that combines words is a lane-wise operation or a shuffle within a
//! 128-bit half: a band's union over its nine digits (the naked singles, the cells placed) is
//! the or of the five vectors, folded with its two halves swapped, and lands in the lanes of that
//! band in every vector, where each word needs it; a digit's columns in the other two bands are
//! two rotations of the three band lanes of its half. A pass, like the AVX-512 one:
//!
//! - a word's minirows are its cells folded onto the first cell of each minirow; each of the six
//!   configurations fits the lanes where none of its three minirows is empty, and the minirows
//!   of the fitting ones are kept; a word with none is a contradiction;
//! - the rows left with one cell come from clearing the lowest cell of every row at once (one
//!   subtraction: every row of a word that passed is non-empty, so no borrow crosses a row);
//! - the naked singles come from "seen once / seen twice" masks over the five vectors, and are
//!   placed with the rows' single cells, in every word at once: each word loses the cells placed
//!   in its band, its digit's columns placed in the other bands, and the rest of the rows of its
//!   own placed cells. The rest of such a cell's box (its column in the band among them) goes in
//!   the next pass: with its row down to that box, no configuration that fits uses the box in
//!   another row. The fixpoint, and so the search tree, is the scalar step's.
//!
//! Passes repeat until one places nothing; the words, their minirow masks, configuration counts
//! and the open cells are then stored once. Into the layout and back, the words go through a
//! 4 × 4 transposition in each 128-bit half ([`to_digits`], [`to_bands`]).

use std::arch::x86_64::*;

use super::{Node, BAND, CONFIG_LEADS, LEAD, ROW_LOW};

/// The word of each lane of the five vectors (see the module docs); an empty lane reads word 27,
/// which is always 0.
static WORD_OF: [[i32; 8]; 5] = {
    let mut t = [[27i32; 8]; 5];
    let mut j = 0;
    while j < 5 {
        let mut l = 0;
        while l < 8 {
            let (d, b) = (2 * j + l / 4, l % 4);
            if b < 3 && d < 9 {
                t[j][l] = (9 * b + d) as i32;
            }
            l += 1;
        }
        j += 1;
    }
    t
};

/// All ones in the lanes that hold a word.
static HOLDS: [[i32; 8]; 5] = {
    let mut t = [[0i32; 8]; 5];
    let mut j = 0;
    while j < 5 {
        let mut l = 0;
        while l < 8 {
            if WORD_OF[j][l] != 27 {
                t[j][l] = -1;
            }
            l += 1;
        }
        j += 1;
    }
    t
};

/// `(a | b | c)`.
#[inline(always)]
unsafe fn or3(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    // SAFETY: the caller guarantees AVX2.
    unsafe { _mm256_or_si256(_mm256_or_si256(a, b), c) }
}

/// `x | x >> A | x >> B`: the cells `A` and `B` places up folded onto each cell.
#[inline(always)]
unsafe fn fold<const A: i32, const B: i32>(x: __m256i) -> __m256i {
    // SAFETY: the caller guarantees AVX2.
    unsafe { or3(x, _mm256_srli_epi32::<A>(x), _mm256_srli_epi32::<B>(x)) }
}

/// `x | x << A | x << B`: each cell copied `A` and `B` places up.
#[inline(always)]
unsafe fn spread<const A: i32, const B: i32>(x: __m256i) -> __m256i {
    // SAFETY: the caller guarantees AVX2.
    unsafe { or3(x, _mm256_slli_epi32::<A>(x), _mm256_slli_epi32::<B>(x)) }
}

/// The two halves of `x` swapped (the other digit of the vector, the same bands).
#[inline(always)]
unsafe fn swap(x: __m256i) -> __m256i {
    // SAFETY: the caller guarantees AVX2.
    unsafe { _mm256_permute2x128_si256::<0x01>(x, x) }
}

/// Per band, in that band's lanes of every vector: the cells one of the five vectors' words
/// holds, and those two or more hold.
#[inline(always)]
unsafe fn once_twice(v: &[__m256i; 5]) -> (__m256i, __m256i) {
    // SAFETY: the caller guarantees AVX2.
    unsafe {
        // As a tree: digits of vectors 0 and 1, 2 and 3, then the four, then with vector 4.
        let pair = |a, b| (_mm256_or_si256(a, b), _mm256_and_si256(a, b));
        let ((o01, t01), (o23, t23)) = (pair(v[0], v[1]), pair(v[2], v[3]));
        let (o, t) = (
            _mm256_or_si256(o01, o23),
            or3(t01, t23, _mm256_and_si256(o01, o23)),
        );
        let (one, two) = (
            _mm256_or_si256(o, v[4]),
            _mm256_or_si256(t, _mm256_and_si256(o, v[4])),
        );
        let (one_s, two_s) = (swap(one), swap(two));
        (
            _mm256_or_si256(one, one_s),
            or3(two, two_s, _mm256_and_si256(one, one_s)),
        )
    }
}

/// The eight lanes of `x`.
#[inline(always)]
unsafe fn lanes(x: __m256i) -> [u32; 8] {
    // SAFETY: the caller guarantees AVX2; `__m256i` and `[u32; 8]` have the same size.
    unsafe { std::mem::transmute(x) }
}

/// The five vectors of the module's layout from the words of each band: `bands[b]` holds words
/// `9b..9b + 8` (digits 1 to 8 of band `b`), `last[b]` word `9b + 8` (digit 9).
#[inline(always)]
unsafe fn to_digits(bands: [__m256i; 3], last: [u32; 3]) -> [__m256i; 5] {
    // SAFETY: the caller guarantees AVX2.
    unsafe {
        // Per band, digits 1, 3, 5, 7 in the low half, 2, 4, 6, 8 in the high one; then a 4 × 4
        // transposition in each half (bands 0 to 2, and an empty fourth).
        let odd_even = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
        let [p0, p1, p2] = bands.map(|r| _mm256_permutevar8x32_epi32(r, odd_even));
        let p3 = _mm256_setzero_si256();
        let (t0, t1) = (_mm256_unpacklo_epi32(p0, p1), _mm256_unpackhi_epi32(p0, p1));
        let (t2, t3) = (_mm256_unpacklo_epi32(p2, p3), _mm256_unpackhi_epi32(p2, p3));
        let [l0, l1, l2] = last.map(|x| x as i32);
        [
            _mm256_unpacklo_epi64(t0, t2),
            _mm256_unpackhi_epi64(t0, t2),
            _mm256_unpacklo_epi64(t1, t3),
            _mm256_unpackhi_epi64(t1, t3),
            _mm256_setr_epi32(l0, l1, l2, 0, 0, 0, 0, 0),
        ]
    }
}

/// The inverse of [`to_digits`].
#[inline(always)]
unsafe fn to_bands(v: &[__m256i; 5]) -> ([__m256i; 3], [u32; 3]) {
    // SAFETY: the caller guarantees AVX2.
    unsafe {
        let (t0, t1) = (
            _mm256_unpacklo_epi32(v[0], v[1]),
            _mm256_unpackhi_epi32(v[0], v[1]),
        );
        let (t2, t3) = (
            _mm256_unpacklo_epi32(v[2], v[3]),
            _mm256_unpackhi_epi32(v[2], v[3]),
        );
        let in_order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
        let bands = [
            _mm256_unpacklo_epi64(t0, t2),
            _mm256_unpackhi_epi64(t0, t2),
            _mm256_unpacklo_epi64(t1, t3),
        ]
        .map(|p| _mm256_permutevar8x32_epi32(p, in_order));
        let [l0, l1, l2, ..] = lanes(v[4]);
        (bands, [l0, l1, l2])
    }
}

/// Whether any lane of `x` is non-zero.
#[inline(always)]
unsafe fn any(x: __m256i) -> bool {
    // SAFETY: the caller guarantees AVX2.
    unsafe { _mm256_testz_si256(x, x) == 0 }
}

/// Writes a fixpoint's words (`w`, digit-major), minirow masks and configuration counts back
/// to `node` in its band-major order, with the open cells and the bands' configuration totals;
/// returns the words changed since `bands` (the node's words before the step, as bits `k`).
///
/// # Safety
/// The CPU must have AVX2.
#[inline(always)]
unsafe fn store(
    node: &mut Node,
    bands: &[__m256i; 3],
    w: &[__m256i; 5],
    minis: &[__m256i; 5],
    counts: &[__m256i; 5],
    open: __m256i,
    total: __m256i,
) -> u32 {
    // SAFETY: the caller guarantees AVX2; the stores write words 0..=26 of the node's arrays
    // (32 words and more), eight lanes at a time from word 9b.
    unsafe {
        let (words, last) = to_bands(w);
        let (minis, last_mini) = to_bands(minis);
        let (counts, last_count) = to_bands(counts);
        let mut changed = 0;
        for b in 0..3 {
            let same =
                _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(words[b], bands[b])));
            changed |=
                (!same as u32 & 0xff | ((last[b] != node.cand[9 * b + 8]) as u32) << 8) << (9 * b);
            for array in [&mut node.cand, &mut node.seen] {
                _mm256_storeu_si256(array.as_mut_ptr().add(9 * b).cast(), words[b]);
                array[9 * b + 8] = last[b];
            }
            // Eight lanes to eight 16-bit lanes, and on to eight bytes.
            let mini = _mm256_packus_epi32(minis[b], minis[b]);
            let mini = _mm256_castsi256_si128(_mm256_permute4x64_epi64::<0b10_00>(mini));
            _mm_storeu_si128(node.mini.as_mut_ptr().add(9 * b).cast(), mini);
            node.mini[9 * b + 8] = last_mini[b] as u16;
            let count = _mm256_packus_epi32(counts[b], counts[b]);
            let count = _mm256_castsi256_si128(_mm256_permute4x64_epi64::<0b10_00>(count));
            _mm_storel_epi64(
                node.configs.as_mut_ptr().add(9 * b).cast(),
                _mm_packus_epi16(count, count),
            );
            node.configs[9 * b + 8] = last_count[b] as u8;
        }
        let [o0, o1, o2, ..] = lanes(open);
        node.open = [o0, o1, o2];
        let [t0, t1, t2, ..] = lanes(total);
        node.totals[..3].copy_from_slice(&[t0 as u8, t1 as u8, t2 as u8]);
        changed
    }
}

/// The box–row step of every word of `node`, each pass followed by the placements of the rows
/// it leaves with one cell and of the naked singles, to a fixpoint (`super::avx512::box_rows`
/// in this module's layout). `None` on a contradiction, else the words changed on the way (as
/// bits `k`).
///
/// # Safety
/// The CPU must have AVX2.
#[inline(always)]
pub(super) unsafe fn box_rows(node: &mut Node) -> Option<u32> {
    // SAFETY: the caller guarantees AVX2; the gathers read words 0..=27 of `node.cand` (32
    // words), and the loads read tables of 8 lanes.
    unsafe {
        let zero = _mm256_setzero_si256();
        let lead = _mm256_set1_epi32(LEAD as i32);
        let low9 = _mm256_set1_epi32(0x1ff);
        // The low eight cells of each row, and the last one.
        let low8 = _mm256_set1_epi32(0o377_377_377);
        let high = _mm256_set1_epi32(0o400_400_400);
        let row_low = _mm256_set1_epi32(ROW_LOW as i32);
        let load = |t: &[i32; 8]| _mm256_loadu_si256(t.as_ptr().cast());
        let [o0, o1, o2] = node.open.map(|o| o as i32);
        let mut open = _mm256_setr_epi32(o0, o1, o2, 0, o0, o1, o2, 0);
        let bands: [__m256i; 3] =
            std::array::from_fn(|b| _mm256_loadu_si256(node.cand.as_ptr().add(9 * b).cast()));
        let mut w = to_digits(bands, [8, 17, 26].map(|k| node.cand[k]));
        let holds: [__m256i; 5] = std::array::from_fn(|j| load(&HOLDS[j]));
        loop {
            let mut sole = [zero; 5];
            let mut none = zero;
            for j in 0..5 {
                // The minirows with a cell, at their first cell; those without, likewise.
                let e = _mm256_andnot_si256(fold::<1, 2>(w[j]), lead);
                let mut k = zero;
                for c in CONFIG_LEADS {
                    let c = _mm256_set1_epi32(c as i32);
                    let fits = _mm256_cmpeq_epi32(_mm256_and_si256(e, c), zero);
                    k = _mm256_or_si256(k, _mm256_and_si256(fits, c));
                }
                // A word with no configuration left.
                none = _mm256_or_si256(
                    none,
                    _mm256_and_si256(_mm256_cmpeq_epi32(k, zero), holds[j]),
                );
                w[j] = _mm256_and_si256(w[j], spread::<1, 2>(k));
                // Each row without its lowest cell (rows are non-empty: no borrow crosses one);
                // the rows where something is left have two cells or more.
                let rest = _mm256_and_si256(w[j], _mm256_sub_epi32(w[j], row_low));
                // Bit 8 of a row set when the row of `rest` is non-empty, then the whole row.
                let carry = _mm256_add_epi32(_mm256_and_si256(rest, low8), low8);
                let top = _mm256_and_si256(_mm256_or_si256(carry, rest), high);
                let many = _mm256_or_si256(top, _mm256_sub_epi32(top, _mm256_srli_epi32::<8>(top)));
                sole[j] = _mm256_andnot_si256(many, _mm256_and_si256(w[j], open));
            }
            if any(none) {
                return None;
            }
            // Naked singles: per band, the cells some word holds, and those two or more hold; a
            // cell no word holds is a contradiction.
            let (one, two) = once_twice(&w);
            let full = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(
                one,
                _mm256_set1_epi32(BAND as i32),
            )));
            if full & 0x77 != 0x77 {
                return None;
            }
            // The open cells one word holds, placed by that word like its rows' single cells.
            let naked = _mm256_andnot_si256(two, _mm256_and_si256(one, open));
            let mut placing = zero;
            for j in 0..5 {
                sole[j] = _mm256_or_si256(sole[j], _mm256_and_si256(w[j], naked));
                placing = _mm256_or_si256(placing, sole[j]);
            }
            if !any(placing) {
                break;
            }
            // The placements. Per band, the cells placed, and those two digits claim (a
            // contradiction).
            let (placed, twice) = once_twice(&sole);
            let mut clash = zero;
            open = _mm256_andnot_si256(placed, open);
            for j in 0..5 {
                let s = sole[j];
                // The placed cells' columns, spread over the band; the digit's in the other two
                // bands (the band lanes of the half rotated by one and by two).
                let columns = spread::<9, 18>(_mm256_and_si256(fold::<9, 18>(s), low9));
                let other = _mm256_or_si256(
                    _mm256_shuffle_epi32::<0b11_00_10_01>(columns),
                    _mm256_shuffle_epi32::<0b11_01_00_10>(columns),
                );
                // Two of one digit in a column.
                clash = or3(clash, _mm256_and_si256(s, other), twice);
                // The rows of the placed cells, whole (bit 8 of a row set when the row has a
                // cell, then the row). A row's single cell is alone in its row already; a naked
                // single's row may hold more of its digit's cells. The rest of each placed
                // cell's box (its column in the band among them) the next pass clears: the
                // cell's row is then down to its box, which no other row of the word can use.
                let carry = _mm256_add_epi32(_mm256_and_si256(s, low8), low8);
                let top = _mm256_and_si256(_mm256_or_si256(carry, s), high);
                let rows = _mm256_or_si256(top, _mm256_sub_epi32(top, _mm256_srli_epi32::<8>(top)));
                // Two placed cells in one row (naked singles), which the boxes would have
                // caught: each row of `s` with a first cell added where it has none loses its
                // lowest cell, and what is left is a second one.
                let guarded = _mm256_or_si256(s, _mm256_andnot_si256(rows, row_low));
                let second = _mm256_and_si256(guarded, _mm256_sub_epi32(guarded, row_low));
                clash = _mm256_or_si256(clash, second);
                let gone = or3(placed, other, rows);
                // w & !gone | s. Two placed cells of one word in a row, a box or a column stay:
                // the next pass finds the word with no configuration.
                w[j] = _mm256_or_si256(_mm256_andnot_si256(gone, w[j]), s);
            }
            if any(clash) {
                return None;
            }
        }
        // The configurations fitting each word, and its minirows as a 9-bit minirow mask: each
        // row's three first cells next to each other (bits 9r..9r + 2), then the three rows
        // next to each other. (At the fixpoint every minirow left lies on a configuration that
        // fits, and the configurations that fit are those that fitted before the last pass.)
        let (mut counts, mut minis, mut total) = ([zero; 5], [zero; 5], zero);
        for j in 0..5 {
            let keep = _mm256_and_si256(fold::<1, 2>(w[j]), lead);
            for c in CONFIG_LEADS {
                let c = _mm256_set1_epi32(c as i32);
                let fits = _mm256_cmpeq_epi32(_mm256_and_si256(keep, c), c);
                counts[j] = _mm256_sub_epi32(counts[j], fits);
            }
            total = _mm256_add_epi32(total, counts[j]);
            let rows = _mm256_and_si256(fold::<2, 4>(keep), _mm256_set1_epi32(0o007_007_007));
            minis[j] = _mm256_and_si256(fold::<6, 12>(rows), low9);
        }
        let total = _mm256_add_epi32(total, swap(total));
        Some(store(node, &bands, &w, &minis, &counts, open, total))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The transposition puts word `9b + d` where [`WORD_OF`] says, and back.
    #[test]
    fn words_go_to_the_digit_major_lanes_and_back() {
        if !is_x86_feature_detected!("avx2") {
            return;
        }
        let words: [u32; 28] = std::array::from_fn(|k| if k < 27 { 0x100 + k as u32 } else { 0 });
        // SAFETY: AVX2 checked above; `words` has the 27 words and the 0 of word 27.
        unsafe {
            let bands = [0, 9, 18].map(|o| _mm256_loadu_si256(words.as_ptr().add(o).cast()));
            let v = to_digits(bands, [8, 17, 26].map(|k| words[k]));
            for (j, x) in v.iter().enumerate() {
                assert_eq!(
                    lanes(*x).map(|w| w as i32),
                    WORD_OF[j].map(|k| words[k as usize] as i32)
                );
            }
            let (back, last) = to_bands(&v);
            for b in 0..3 {
                assert_eq!(lanes(back[b])[..], words[9 * b..9 * b + 8]);
                assert_eq!(last[b], words[9 * b + 8]);
            }
        }
    }
}
