//! The box–row and box–column steps of the band kernel on every word at once, for CPUs with
//! AVX-512 (the [`super::ops::Avx512`] variant).
//!
//! The 27 words of a node (`Node::cand`, padded to 32; lane `k` of the pair is word `k`, digit
//! `k % 9 + 1` of band `k / 9`) are two 16-lane vectors, kept in registers from the first pass to
//! the fixpoint. Where the scalar step visits each changed word in turn (a minirow look-up, a
//! configuration look-up, the rows left with one cell, each a few table reads) and places each
//! row's single cell with scalar stores, a pass here computes all 27 words without a table or a
//! branch per word:
//!
//! - a word's minirows are its cells folded onto the first cell of each minirow; each of the six
//!   configurations fits the lanes where none of its three minirows is empty (one `vptestnmd`
//!   each, into a mask register), and the minirows of the fitting ones are kept (masked ors);
//!   a lane with no fitting configuration is a contradiction;
//! - the rows left with one cell come from clearing the lowest cell of every row at once (one
//!   subtraction: every row of a word that passed is non-empty, so no borrow crosses a row);
//! - the naked singles (open cells one word holds) come from "seen once / seen twice" masks
//!   over each band's nine words, gathered by nine lane permutations, and are placed with the
//!   rows' single cells;
//! - those cells are placed in every word at once: per band, the union of the placed cells (and
//!   the cells two digits claim, a contradiction) gathered by nine lane permutations; each
//!   word's placed columns moved to the same digit's words in the other two bands by two more;
//!   each word loses the band's placed cells, the other bands' placed columns, and its own
//!   placed cells' rows, columns and boxes, and keeps its own placed cells (`vpternlogd`).
//!
//! Passes repeat until one places nothing; then the words, their minirow masks and
//! configuration counts, and the open cells are stored once. Doing the naked singles in the
//! passes, rather than in the scalar step that follows, saves a store and a reload of the words
//! and a second run of the step for each round of singles. Unchanged words are recomputed too:
//! the step is idempotent on them, so the fixpoint is the scalar step's.
//!
//! The box–column step ([`box_columns`]) works the same way on the nine digits' columns, one
//! lane per digit, the three stacks' configurations tested on all nine at once.

use std::arch::x86_64::*;

use super::{Node, BAND, CONFIGS, CONFIG_LEADS, LEAD, ROW_LOW};

/// The lanes of each vector that hold a word (27 of the 32).
const WORDS: [__mmask16; 2] = [0xffff, 0x07ff];

/// Bit `k` set when `cand[k] != seen[k]`, with two 16-lane compares.
///
/// # Safety
/// The CPU must have AVX-512 F.
#[inline(always)]
pub(super) unsafe fn changed(cand: &[u32; 32], seen: &[u32; 32]) -> u32 {
    let mut m = 0u32;
    for i in 0..2 {
        // SAFETY: lanes `16i..16i + 16` of two 32-word arrays are in bounds; unaligned loads;
        // the caller guarantees AVX-512 F.
        let ne = unsafe {
            let a = _mm512_loadu_si512(cand.as_ptr().add(16 * i).cast());
            let b = _mm512_loadu_si512(seen.as_ptr().add(16 * i).cast());
            _mm512_cmpneq_epi32_mask(a, b)
        };
        m |= (ne as u32) << (16 * i);
    }
    m
}

/// `(a | b | c)` in one instruction (`vpternlogd`, truth table `0xfe`).
#[inline(always)]
unsafe fn or3(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    // SAFETY: the caller guarantees AVX-512 F.
    unsafe { _mm512_ternarylogic_epi32::<0xfe>(a, b, c) }
}

/// `x | x >> A | x >> B`: the cells `A` and `B` places up folded onto each cell.
#[inline(always)]
unsafe fn fold<const A: u32, const B: u32>(x: __m512i) -> __m512i {
    // SAFETY: the caller guarantees AVX-512 F.
    unsafe { or3(x, _mm512_srli_epi32::<A>(x), _mm512_srli_epi32::<B>(x)) }
}

/// `x | x << A | x << B`: each cell copied `A` and `B` places up.
#[inline(always)]
unsafe fn spread<const A: u32, const B: u32>(x: __m512i) -> __m512i {
    // SAFETY: the caller guarantees AVX-512 F.
    unsafe { or3(x, _mm512_slli_epi32::<A>(x), _mm512_slli_epi32::<B>(x)) }
}

/// Per lane of each of the two vectors (word `k = 16i + l`; the padding lanes `k ≥ 27` read
/// word 27, a 0, or band 3, likewise): `f(b, d)` for word `9b + d`, `pad` for a padding lane.
const fn per_lane(f: [[i32; 9]; 3], pad: i32) -> [[i32; 16]; 2] {
    let mut t = [[pad; 16]; 2];
    let mut k = 0;
    while k < 27 {
        t[k / 16][k % 16] = f[k / 9][k % 9];
        k += 1;
    }
    t
}

/// `grid!(|b, d| e)`: the 3 × 9 array of `e` for band `b` and digit `d + 1`, in a `const`
/// context.
macro_rules! grid {
    (|$b:ident, $d:ident| $e:expr) => {{
        let mut t = [[0i32; 9]; 3];
        let mut $b = 0;
        while $b < 3 {
            let mut $d = 0;
            while $d < 9 {
                t[$b][$d] = $e;
                $d += 1;
            }
            $b += 1;
        }
        t
    }};
}

/// Each lane's band.
static BAND_OF: [[i32; 16]; 2] = per_lane(grid!(|b, _d| b as i32), 3);

/// Each lane's digit's word in the next band, and in the one after.
static OTHER_BAND: [[[i32; 16]; 2]; 2] = [
    per_lane(grid!(|b, d| (9 * ((b + 1) % 3) + d) as i32), 27),
    per_lane(grid!(|b, d| (9 * ((b + 2) % 3) + d) as i32), 27),
];

/// Lane permutations gathering words: `N` = 9 gives, for each digit, its word in bands 0, 1, 2
/// in lanes 0, 1, 2; `N` = 3 gives, for each band, its nine words in lanes 0 to 8. The other
/// lanes pick word 27, a 0.
const fn gather<const N: usize>() -> [[i32; 16]; N] {
    let mut t = [[27i32; 16]; N];
    let mut o = 0;
    while o < N {
        let mut l = 0;
        while l < 27 / N {
            t[o][l] = if N == 3 { 9 * o + l } else { 9 * l + o } as i32;
            l += 1;
        }
        o += 1;
    }
    t
}

/// `DIGIT[d]`: lanes 0, 1, 2 pick digit `d + 1`'s word in bands 0, 1, 2.
static DIGIT: [[i32; 16]; 9] = gather::<9>();

/// Loads 16 lanes.
///
/// # Safety
/// The CPU must have AVX-512 F.
#[inline(always)]
unsafe fn lanes(t: &[i32; 16]) -> __m512i {
    // SAFETY: 16 lanes of `t`, unaligned load; the caller guarantees the features.
    unsafe { _mm512_loadu_si512(t.as_ptr().cast()) }
}

/// The box–row step of every word of `node`, each pass followed by the placements of the rows
/// it leaves with one cell and of the naked singles, to a fixpoint, all in registers: the same
/// result as `Node::box_rows` on the changed words, the naked singles of `Node::propagate`, and
/// again on what the placements change, until nothing does. `None` on a contradiction, else the
/// words changed on the way (as bits `k`).
///
/// # Safety
/// The CPU must have AVX-512 F, BW and VL.
#[inline(always)]
pub(super) unsafe fn box_rows(node: &mut Node) -> Option<u32> {
    // SAFETY: the caller guarantees the features; every load and store below stays within
    // `node.cand`, `node.seen` (32 words), `node.mini` (27 halfwords), `node.configs` (the first
    // 27 of 54 bytes), `node.open` (3 words, masked) or a table of 16 lanes: lanes
    // `16i..16i + 16`, the second vector's masked to 11 where the array has 27 entries.
    unsafe {
        let lead = _mm512_set1_epi32(LEAD as i32);
        let one = _mm512_set1_epi32(1);
        let zero = _mm512_setzero_si512();
        let low9 = _mm512_set1_epi32(0x1ff);
        // The low eight cells of each row, the last one, and the first one.
        let low8 = _mm512_set1_epi32(0o377_377_377);
        let high = _mm512_set1_epi32(0o400_400_400);
        let row_low = _mm512_set1_epi32(ROW_LOW as i32);
        let mut open3 = _mm512_maskz_loadu_epi32(0b111, node.open.as_ptr().cast());
        let band_of = [lanes(&BAND_OF[0]), lanes(&BAND_OF[1])];
        let entry = [
            _mm512_loadu_si512(node.cand.as_ptr().cast()),
            _mm512_loadu_si512(node.cand.as_ptr().add(16).cast()),
        ];
        let mut w = entry;
        // Of the last pass: the empty minirows, and those kept, of each word.
        let (mut empty, mut keep) = ([zero; 2], [zero; 2]);
        loop {
            let mut sole = [zero; 2];
            let mut any_sole = 0;
            for i in 0..2 {
                // The minirows with a cell, at their first cell; those without, likewise.
                let any = _mm512_and_si512(fold::<1, 2>(w[i]), lead);
                empty[i] = _mm512_andnot_si512(any, lead);
                keep[i] = zero;
                for c in CONFIG_LEADS {
                    let c = _mm512_set1_epi32(c as i32);
                    let fits = _mm512_testn_epi32_mask(empty[i], c);
                    keep[i] = _mm512_mask_or_epi32(keep[i], fits, keep[i], c);
                }
                let kept = keep[i];
                if _mm512_mask_testn_epi32_mask(WORDS[i], kept, kept) != 0 {
                    return None;
                }
                w[i] = _mm512_and_si512(w[i], spread::<1, 2>(kept));
                // Each row without its lowest cell (rows are non-empty: no borrow crosses one);
                // the rows where something is left have two cells or more.
                let rest = _mm512_and_si512(w[i], _mm512_sub_epi32(w[i], row_low));
                // Bit 8 of a row set when the row of `rest` is non-empty, then the whole row.
                let carry = _mm512_add_epi32(_mm512_and_si512(rest, low8), low8);
                let top = _mm512_ternarylogic_epi32::<0xa8>(carry, rest, high);
                let many = _mm512_or_si512(top, _mm512_sub_epi32(top, _mm512_srli_epi32::<8>(top)));
                let open = _mm512_permutexvar_epi32(band_of[i], open3);
                // w & !many & open
                sole[i] = _mm512_ternarylogic_epi32::<0x20>(w[i], many, open);
            }
            // Naked singles: per band (lanes 0, 1, 2), the cells some word holds, and those two
            // words or more hold; a cell no word holds is a contradiction.
            let (mut one, mut two) = (zero, zero);
            for idx in &DIGIT {
                let g = _mm512_permutex2var_epi32(w[0], lanes(idx), w[1]);
                // two | one & g
                two = _mm512_ternarylogic_epi32::<0xf8>(two, one, g);
                one = _mm512_or_si512(one, g);
            }
            if _mm512_mask_cmpneq_epi32_mask(0b111, one, _mm512_set1_epi32(BAND as i32)) != 0 {
                return None;
            }
            // The open cells one word holds, placed by that word like its rows' single cells
            // (below, each placed cell's row is cleared with its box and column).
            let naked = _mm512_ternarylogic_epi32::<0x20>(one, two, open3);
            for i in 0..2 {
                let here = _mm512_permutexvar_epi32(band_of[i], naked);
                // sole | w & here
                sole[i] = _mm512_ternarylogic_epi32::<0xf8>(sole[i], w[i], here);
                any_sole |= _mm512_test_epi32_mask(sole[i], sole[i]);
            }
            if any_sole == 0 {
                break;
            }
            // The placements. Per band (lanes 0, 1, 2), the cells placed, and those two digits
            // claim (a contradiction).
            let (mut placed, mut twice) = (zero, zero);
            for idx in &DIGIT {
                let s = _mm512_permutex2var_epi32(sole[0], lanes(idx), sole[1]);
                // twice | placed & s
                twice = _mm512_ternarylogic_epi32::<0xf8>(twice, placed, s);
                placed = _mm512_or_si512(placed, s);
            }
            if _mm512_test_epi32_mask(twice, twice) != 0 {
                return None;
            }
            open3 = _mm512_andnot_si512(placed, open3);
            // Each word's placed cells' columns, spread over the band.
            let columns = sole.map(|s| {
                let c = _mm512_and_si512(fold::<9, 18>(s), low9);
                spread::<9, 18>(c)
            });
            for i in 0..2 {
                let s = sole[i];
                // The digit's columns placed in the other two bands.
                let other = _mm512_or_si512(
                    _mm512_permutex2var_epi32(columns[0], lanes(&OTHER_BAND[0][i]), columns[1]),
                    _mm512_permutex2var_epi32(columns[0], lanes(&OTHER_BAND[1][i]), columns[1]),
                );
                // Two of one digit in a column.
                if _mm512_test_epi32_mask(s, other) != 0 {
                    return None;
                }
                // The rows of the placed cells, whole (bit 8 of a row set when the row has a
                // cell, then the row). A row's single cell is alone in its row already; a naked
                // single's row may hold more of its digit's cells. The rest of each placed
                // cell's box (its column in the band among them) the next pass clears: the
                // cell's row is then down to its box, which no other row of the word can use.
                let carry = _mm512_add_epi32(_mm512_and_si512(s, low8), low8);
                // (carry | s) & high
                let top = _mm512_ternarylogic_epi32::<0xa8>(carry, s, high);
                let rows = _mm512_or_si512(top, _mm512_sub_epi32(top, _mm512_srli_epi32::<8>(top)));
                // Two placed cells in one row (naked singles), which the boxes would have
                // caught: each row of `s` with a first cell added where it has none loses its
                // lowest cell, and what is left is a second one.
                let guarded = _mm512_ternarylogic_epi32::<0xf2>(s, rows, row_low);
                if _mm512_test_epi32_mask(guarded, _mm512_sub_epi32(guarded, row_low)) != 0 {
                    return None;
                }
                let placed_here = _mm512_permutexvar_epi32(band_of[i], placed);
                let gone = or3(placed_here, other, rows);
                // w & !gone | s. Two placed cells of one word in a box or a column stay: the
                // next pass finds the word with no configuration (a box with both leaves two
                // rows one box).
                w[i] = _mm512_ternarylogic_epi32::<0xba>(w[i], gone, s);
            }
        }
        let mut changed = 0u32;
        for i in 0..2 {
            let keep = keep[i];
            let mut configs = zero;
            for c in CONFIG_LEADS {
                let c = _mm512_set1_epi32(c as i32);
                let fits = _mm512_testn_epi32_mask(empty[i], c);
                configs = _mm512_mask_add_epi32(configs, fits, configs, one);
            }
            // The kept minirows as a 9-bit minirow mask: each row's three first cells next
            // to each other (bits 9r..9r + 2), then the three rows next to each other.
            let rows = _mm512_and_si512(fold::<2, 4>(keep), _mm512_set1_epi32(0o007_007_007));
            let mini = _mm512_and_si512(fold::<6, 12>(rows), low9);
            _mm512_mask_cvtepi32_storeu_epi16(
                node.mini.as_mut_ptr().add(16 * i).cast(),
                WORDS[i],
                mini,
            );
            _mm512_mask_cvtepi32_storeu_epi8(
                node.configs.as_mut_ptr().add(16 * i).cast(),
                WORDS[i],
                configs,
            );
            _mm512_storeu_si512(node.cand.as_mut_ptr().add(16 * i).cast(), w[i]);
            _mm512_storeu_si512(node.seen.as_mut_ptr().add(16 * i).cast(), w[i]);
            changed |= (_mm512_cmpneq_epi32_mask(w[i], entry[i]) as u32) << (16 * i);
        }
        _mm512_mask_storeu_epi32(node.open.as_mut_ptr().cast(), 0b111, open3);
        for b in 0..3 {
            let c = _mm_maskz_loadu_epi8(0x1ff, node.configs.as_ptr().add(9 * b).cast());
            let sums = _mm_sad_epu8(c, _mm_setzero_si128());
            node.totals[b] = (_mm_cvtsi128_si32(sums) + _mm_extract_epi16::<4>(sums)) as u8;
        }
        Some(changed)
    }
}

/// [`CONFIGS`] in the columns of each stack of a digit's packed columns (`Node::columns_seen`):
/// `STACK_CONFIGS[s][k]` has, for row `r` of configuration `k` in box `x`, column `3s + x` of
/// band `r`.
const STACK_CONFIGS: [[u32; 6]; 3] = {
    let mut t = [[0u32; 6]; 3];
    let mut s = 0;
    while s < 3 {
        let mut k = 0;
        while k < 6 {
            let mut j = 0;
            while j < 9 {
                if CONFIGS[k] >> j & 1 != 0 {
                    t[s][k] |= 1 << (9 * (j / 3) + 3 * s + j % 3);
                }
                j += 1;
            }
            k += 1;
        }
        s += 1;
    }
    t
};

/// `BAND_WORDS[b]`: lane `d` picks word `9b + d`, for `d < 9`.
static BAND_WORDS: [[i32; 16]; 3] = gather::<3>();

/// Each lane's digit.
static DIGIT_OF: [[i32; 16]; 2] = per_lane(grid!(|_b, d| d as i32), 0);

/// Each lane's band's place in a digit's packed columns (9 bits per band).
static SHIFT_OF: [[i32; 16]; 2] = per_lane(grid!(|b, _d| 9 * b as i32), 0);

/// The box–column step of all nine digits at once (`Node::box_columns` on every digit, the
/// same result as on the changed ones): lane `d` of one vector holds digit `d + 1`'s columns in
/// the three bands, packed as in `Node::columns_seen`; each of the six configurations of each
/// stack is tested on all nine digits with one instruction, as the minirows are in
/// [`box_rows`]. `None` on a contradiction, else whether a word changed and the stacks (bit
/// `s`) where a digit's columns changed.
///
/// # Safety
/// The CPU must have AVX-512 F.
#[inline(always)]
pub(super) unsafe fn box_columns(node: &mut Node) -> Option<(bool, u32)> {
    const DIGITS: __mmask16 = 0x1ff;
    // SAFETY: the caller guarantees the features; the loads and stores stay within `node.cand`
    // (32 words), `node.columns_seen` (9 words, masked to 9 lanes), `node.configs` (bytes
    // 27..54, 9 lanes from 27 + 9s) or a table of 16 lanes.
    unsafe {
        let low9 = _mm512_set1_epi32(0x1ff);
        let w = [
            _mm512_loadu_si512(node.cand.as_ptr().cast()),
            _mm512_loadu_si512(node.cand.as_ptr().add(16).cast()),
        ];
        let cols = w.map(|w| _mm512_and_si512(fold::<9, 18>(w), low9));
        // Lane d: digit d + 1's columns in band b (from word 9b + d).
        let band = |b: usize| _mm512_permutex2var_epi32(cols[0], lanes(&BAND_WORDS[b]), cols[1]);
        let packed = or3(
            band(0),
            _mm512_slli_epi32::<9>(band(1)),
            _mm512_slli_epi32::<18>(band(2)),
        );
        let missing = _mm512_andnot_si512(packed, _mm512_set1_epi32(0o777_777_777));
        let one = _mm512_set1_epi32(1);
        let mut keep = _mm512_setzero_si512();
        for (s, configs) in STACK_CONFIGS.iter().enumerate() {
            let mut n = _mm512_setzero_si512();
            for &c in configs {
                let c = _mm512_set1_epi32(c as i32);
                let fits = _mm512_mask_testn_epi32_mask(DIGITS, missing, c);
                keep = _mm512_mask_or_epi32(keep, fits, keep, c);
                n = _mm512_mask_add_epi32(n, fits, n, one);
            }
            if _mm512_mask_testn_epi32_mask(DIGITS, n, n) != 0 {
                return None;
            }
            _mm512_mask_cvtepi32_storeu_epi8(
                node.configs.as_mut_ptr().add(27 + 9 * s).cast(),
                DIGITS,
                n,
            );
            node.totals[3 + s] = _mm512_reduce_add_epi32(n) as u8;
        }
        let seen = _mm512_maskz_loadu_epi32(DIGITS, node.columns_seen.as_ptr().cast());
        let diff = _mm512_xor_si512(keep, seen);
        let mut stacks = 0;
        for s in 0..3 {
            let m = _mm512_set1_epi32(0o007_007_007 << (3 * s));
            stacks |= ((_mm512_test_epi32_mask(diff, m) != 0) as u32) << s;
        }
        _mm512_mask_storeu_epi32(node.columns_seen.as_mut_ptr().cast(), DIGITS, keep);
        // Back to the words: word 9b + d keeps digit d + 1's columns of band b.
        let mut changed = 0;
        for (i, &w) in w.iter().enumerate() {
            let k = _mm512_and_si512(
                _mm512_srlv_epi32(
                    _mm512_permutexvar_epi32(lanes(&DIGIT_OF[i]), keep),
                    lanes(&SHIFT_OF[i]),
                ),
                low9,
            );
            let kept = _mm512_and_si512(w, spread::<9, 18>(k));
            changed |= _mm512_cmpneq_epi32_mask(kept, w);
            _mm512_storeu_si512(node.cand.as_mut_ptr().add(16 * i).cast(), kept);
        }
        Some((changed != 0, stacks))
    }
}
