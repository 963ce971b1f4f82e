//! The kernel of `dfs` for standard 9×9 grids (3×3 boxes, no extra houses): counting, and so
//! solving and uniqueness.
//!
//! The grid is held *band by band and digit by digit*: for each of the 3 bands (rows 0–2, 3–5,
//! 6–8) and each digit, one 27-bit word of the cells of the band where the digit can still go.
//! Within a band, a digit occupies one *minirow* (a row's three cells in one box) per row, in three
//! different boxes: one of six *configurations*. A lookup of which minirows are non-empty and a
//! second one keeping only the minirows of configurations still possible perform, in one step,
//! the hidden singles in rows and boxes and every box–row interaction (locked candidates,
//! pointing and claiming) of the digit in the band. A row left with one place for a digit places
//! it; placing clears the cell in the other digits' words, and the column in the other bands.
//! Naked singles and the cells left with no candidate come from "seen once / seen twice" masks
//! over the nine words of a band. The same configuration lookup, on the columns a digit can use
//! in each band of a stack, does the box–column interactions and the hidden singles in columns.
//! A word is examined again only when it changed since it was last examined (one vector compare
//! of all 27 against their copies finds them), and a digit's columns only when one of its words
//! was. At the fixpoint of all that, while the grid is still sparse, a count across the digits
//! of a band checks that every minirow can still take, and does not have to take more than,
//! exactly three digits (tdoku gets the same from its triad variables); the same count runs on
//! the *minicolumns* (a column's three cells in one box) of each stack. This ties the digits'
//! configurations together, and without it the search below gets lost on sparse grids. A band's
//! count runs again only when one of its words changed since its last count, a stack's only when
//! a digit's columns in it did. The minirow masks it counts, and the configurations the branching
//! choice counts, are those the box–row step computed last, kept per word (at the fixpoint, every
//! word's is current); the minicolumn masks come from the columns of the last box–column step.
//!
//! The search branches, as tdoku does, on the configurations of one digit in one band or one
//! stack: in the band or stack with the fewest configurations left over all digits, the digit
//! with the fewest (two or more). Each word's count of configurations, and each band's and
//! stack's total, are kept up to date where its mask is reduced, so that the choice reads 6
//! totals and 9 counts instead of counting the configurations of 54 masks at every node.
//! With stacks in the choice and minicolumns in the counts, the tree is about the size of tdoku's
//! (docs/benchmarks.md). When every digit is down to one configuration, the endgame below takes
//! over (on the rare node with more open cells than it holds, the search branches on a cell with
//! the fewest candidates).
//! Each alternative but the last runs on a copy of the 448-byte node, so backtracking is free
//! and nothing is allocated.
//!
//! The bottom of the tree goes to an *endgame*: a plain cell search over the open cells, one
//! 64-bit mask of open cells per digit, where a placement clears its digit from the cells sharing
//! a house, every naked single is placed at once, and the cell with the fewest candidates is
//! tried next. It has no hidden singles and no box–line reasoning, but its nodes cost a tenth of
//! the band propagation's. It takes over where every digit is down to one configuration in every
//! band, and, in a count already past its second solution, at any node with few open cells
//! (see [`COUNTING_ENDGAME_AT`]).
//!
//! **Effort.** The kernel counts its *nodes* (each propagation of the band search, whether it
//! reaches a fixpoint or a contradiction, and each step of the endgame: where the clock is looked
//! at) and its *guesses*: one each
//! time the search picks something with two alternatives or more to branch on (a digit's
//! configurations in a band or stack, a cell's digits, a cell of the endgame), however many of
//! the alternatives it then tries. That is tdoku's count (`num_guesses`, one per call of its
//! `BranchOnBandAndValue`), with one difference: tdoku branches two ways (the first
//! configuration, or not it), so where three or more are left and the first fails, tdoku picks
//! again and counts a second guess where this kernel goes on with the same pick. A puzzle that
//! propagation alone settles has no guess in both. Both counters are plain fields bumped once per
//! node or branch point, read once per call.
//!
//! The same source is compiled for any CPU and, on x86-64, also with `popcnt`, `bmi1`, `bmi2`,
//! `lzcnt` and `avx2` (one-instruction bit counts and lowest-bit clears, vector compares of the
//! changed words), in two forms: with BMI2's `pext`/`pdep` for the minirow and stack masks where
//! those are fast, and with the look-up tables where they are not (AMD before Zen 3). The first
//! of the two runs the box–row step, with the placements of the rows it leaves with one cell
//! and of the naked singles, on all 27 words at once to its fixpoint in five 256-bit registers
//! ([`avx2`]); the second visits the changed words one by one. A third x86-64 form adds
//! AVX-512 (x86-64-v4): the same box–row step in two 512-bit registers, and the box–column step
//! on all nine digits at once ([`avx512`]); it is picked where the CPU has AVX-512 and a fast
//! `pext`. The CPU picks at run time (see [`ops`]). Setting the
//! environment variable `SUDOKU_LAB_PORTABLE=1`, or building with the `portable` feature, keeps
//! the portable build; `SUDOKU_LAB_NO_PEXT=1` keeps the tables;
//! `SUDOKU_LAB_KERNEL=portable|avx2|pext|avx512` picks one form (when the CPU has its features),
//! so that the forms can be compared on one machine; [`variant`] tells which one runs. Every
//! form searches the same tree (a test runs each against the portable one).

use std::sync::OnceLock;

use super::{Found, CLOCK_EVERY};
use crate::cancel::Halt;
use crate::model::Value;
use ops::{Ops, Portable};

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod ops;

// Bit layout of a band word (band b holds rows 3b, 3b+1, 3b+2):
//
//   bit:   26 … 18 | 17 … 9 | 8 … 0
//   row:    3b+2   |  3b+1  |  3b        bit = 9·(row − 3b) + column
//
// so band b's word is bits 27b … 27b+26 of the row-major cell index. A minirow (row r of the
// band, box x) is bits 9r + 3x … 9r + 3x + 2; a minirow mask has bit 3r + x for it.

/// The minirow and minicolumn counts run only while more cells than this are open: on denser
/// grids the other inferences find the same contradictions soon enough (running them at every
/// node gives the same tree on forum_hardest_1905_11plus); sparse grids are where they matter.
const COUNTS_ABOVE: u32 = 25;

/// Every cell of a band.
const BAND: u32 = (1 << 27) - 1;

/// `table!(T; N; |i| entry)`: an array of `N` values of `T`, built at compile time (a `const`
/// context has no closures or iterators).
macro_rules! table {
    ($t:ty; $n:expr; |$i:ident| $e:expr) => {{
        let mut t: [$t; $n] = [0; $n];
        let mut $i = 0;
        while $i < $n {
            t[$i] = $e;
            $i += 1;
        }
        t
    }};
}

/// `union!(T; N; |j| part)`: the bitwise or of `part` for `j` in `0..N`, at compile time.
macro_rules! union {
    ($t:ty; $n:expr; |$j:ident| $e:expr) => {{
        let mut u: $t = 0;
        let mut $j = 0;
        while $j < $n {
            u |= $e;
            $j += 1;
        }
        u
    }};
}

/// `MINI[row]`: bit `x` set when the 9-bit `row` has a cell in box `x`.
static MINI: [u8; 512] =
    table!(u8; 512; |r| union!(u8; 3; |x| ((r >> (3 * x) & 7 != 0) as u8) << x));

/// The six ways a digit can sit in a band (its *configurations*): `CONFIGS[k]` is the minirow
/// mask of one minirow per row, in three different boxes.
const CONFIGS: [u16; 6] = {
    const BOXES: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    table!(u16; 6; |k| 1 << BOXES[k][0] | 1 << (3 + BOXES[k][1]) | 1 << (6 + BOXES[k][2]))
};

/// `FITS[m]`: bit `k` set when configuration `k` uses only minirows of the minirow mask `m`.
static FITS: [u8; 512] = table!(u8; 512; |m| union!(u8; 6; |k| {
    ((m as u16 & CONFIGS[k] == CONFIGS[k]) as u8) << k
}));

/// `PERM[m]`: the minirows of `m` that lie on a configuration fitting `m`; 0 when none fits
/// (the digit has no place left in the band).
static PERM: [u16; 512] = table!(u16; 512; |m| union!(u16; 6; |k| {
    if FITS[m] >> k & 1 != 0 {
        CONFIGS[k]
    } else {
        0
    }
}));

/// The first cell of each minirow of a band word (for the vector steps).
#[cfg(target_arch = "x86_64")]
const LEAD: u32 = 0o111_111_111;

/// The first cell of each row.
#[cfg(target_arch = "x86_64")]
const ROW_LOW: u32 = 0o001_001_001;

/// [`CONFIGS`] as first cells of minirows (minirow bit `3r + x` at cell `9r + 3x`).
#[cfg(target_arch = "x86_64")]
const CONFIG_LEADS: [u32; 6] = {
    let mut t = [0u32; 6];
    let mut k = 0;
    while k < 6 {
        let mut j = 0;
        while j < 9 {
            if CONFIGS[k] >> j & 1 != 0 {
                t[k] |= 1 << (9 * (j / 3) + 3 * (j % 3));
            }
            j += 1;
        }
        k += 1;
    }
    t
};

/// `EXPAND[m]`: the cells of the minirows in the minirow mask `m`.
static EXPAND: [u32; 512] = table!(u32; 512; |m| union!(u32; 9; |j| {
    ((m >> j & 1) as u32 * 0b111) << (9 * (j / 3) + 3 * (j % 3))
}));

/// `SURE[m]`: the minirows of the minirow mask `m` that are alone in their box (the digit must
/// be there).
static SURE: [u16; 512] = table!(u16; 512; |m| union!(u16; 3; |x| {
    let boxed = m & 0o111 << x;
    if boxed.count_ones() == 1 {
        boxed as u16
    } else {
        0
    }
}));

/// `SURE_T[m]`: the minicolumns of a stack's minicolumn mask `m` (bit `3b + x`: band `b`,
/// column `x` of the stack) alone in their box (their 3-bit group).
static SURE_T: [u16; 512] = table!(u16; 512; |m| union!(u16; 3; |b| {
    let boxed = m & 0o7 << (3 * b);
    if boxed.count_ones() == 1 {
        boxed as u16
    } else {
        0
    }
}));

/// `LINES_OF[m]`: the minirows sharing a row or a box with a minirow of the minirow mask `m`.
static LINES_OF: [u16; 512] = table!(u16; 512; |m| union!(u16; 9; |j| {
    if m >> j & 1 != 0 {
        0o7 << (3 * (j / 3)) | 0o111 << (j % 3)
    } else {
        0
    }
}));

/// `BOX_OF[t]`: the cells of the box of minirow `t` (bit `3r + x`) in a band.
const BOX_OF: [u32; 9] = table!(u32; 9; |j| 0o7007007 << (3 * (j % 3)));

/// `SOLE[row]`: the 9-bit `row` when it has exactly one cell, else 0.
static SOLE: [u16; 512] = table!(u16; 512; |r| if r.count_ones() == 1 { r as u16 } else { 0 });

/// `COLUMN[j]`: the cells of column `j` in a band.
const COLUMN: [u32; 9] = table!(u32; 9; |j| 0o1001001 << j);

/// `COLUMN_OF[i]`: the cells of a band in the column of its cell `i`.
const COLUMN_OF: [u32; 27] = table!(u32; 27; |i| COLUMN[i % 9]);

/// `OTHER_BANDS[b]`: the two bands other than `b`.
const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [2, 0], [0, 1]];

/// `SPREAD[m]`: the cells of a band in the columns of the 9-bit mask `m`.
static SPREAD: [u32; 512] = table!(u32; 512; |m| m as u32 * 0o1001001);

/// `PEERS[i]`: the other cells of the band sharing a row, a column or a box with cell `i`.
static PEERS: [u32; 27] = table!(u32; 27; |i| {
    let (r, j) = (i / 9, i % 9);
    (0x1ff << (9 * r) | COLUMN[j] | BOX_OF[j / 3]) & !(1 << i)
});

/// The count of the digits that can reach, and that must take, each minirow (or minicolumn) of
/// three bands (or stacks) at once, each of which holds exactly three digits. Unit `u`'s nine
/// minirows are bits `16u..16u + 9` of each 64-bit mask ([`UNIT`]), so one pass over the nine
/// digits counts the three units together.
struct Tally {
    /// The minirows exactly three digits reach and fewer than three must take: those three
    /// must take them.
    take: u64,
    /// The minirows three digits must take and more can reach: the others must leave them.
    leave: u64,
}

/// The bits of a [`Tally`] mask for the nine minirows of unit `u`: `UNIT << 16 * u`.
const UNIT: u64 = 0x1ff;

impl Tally {
    /// The tally of the units of `live` (a union of [`UNIT`] fields) for the nine digits'
    /// masks `masks(d)` (unit `u`'s minirow mask at bit `16u`), whose sure minirows `sure`
    /// gives; `None` when, in one of those units, a minirow can take fewer than three digits
    /// or must take more.
    #[inline(always)]
    fn of(masks: impl Fn(usize) -> [usize; 3], sure: &[u16; 512], live: u64) -> Option<Tally> {
        // Bit-sliced counters over the minirows: reached by ≥1, ≥2, ≥3, ≥4 digits.
        let (mut c1, mut c2, mut c3, mut c4) = (0u64, 0u64, 0u64, 0u64);
        let (mut m1, mut m2, mut m3, mut m4) = (0u64, 0u64, 0u64, 0u64);
        for d in 0..9 {
            let (mut c, mut s) = (0u64, 0u64);
            for (u, m) in masks(d).into_iter().enumerate() {
                let m = m & 0x1ff;
                c |= (m as u64) << (16 * u);
                s |= (sure[m] as u64) << (16 * u);
            }
            c4 |= c3 & c;
            c3 |= c2 & c;
            c2 |= c1 & c;
            c1 |= c;
            m4 |= m3 & s;
            m3 |= m2 & s;
            m2 |= m1 & s;
            m1 |= s;
        }
        if (c3 ^ live | m4) & live != 0 {
            return None;
        }
        Some(Tally {
            take: c3 & !c4 & !m3 & live,
            leave: m3 & c4 & live,
        })
    }

    /// Unit `u`'s minirows to take and to leave.
    #[inline(always)]
    fn unit(&self, u: usize) -> (u16, u16) {
        let field = |x: u64| (x >> (16 * u) & UNIT) as u16;
        (field(self.take), field(self.leave))
    }
}

/// The [`UNIT`] fields of the units (bit `u`) of `units`.
#[inline(always)]
fn live_units(units: u32) -> u64 {
    (0..3).fold(0, |live, u| {
        live | ((units >> u & 1) as u64 * UNIT) << (16 * u)
    })
}

/// The compiled variants of the kernel (see the module docs and [`ops`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kernel {
    Portable,
    /// x86-64-v3 features, the look-up tables for the masks.
    Avx2,
    /// x86-64-v3 features, `pext`/`pdep` for the masks, and the box–row step of all 27 words
    /// at once in five 8-lane vectors.
    Pext,
    /// x86-64-v4 features (AVX-512), `pext`/`pdep` for the masks, and the box–row and
    /// box–column steps of all 27 words at once in two 16-lane vectors.
    Avx512,
}

impl Kernel {
    /// Every variant, the least demanding first.
    const ALL: [Kernel; 4] = [Kernel::Portable, Kernel::Avx2, Kernel::Pext, Kernel::Avx512];

    /// The name `SUDOKU_LAB_KERNEL` takes for it.
    fn key(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            Kernel::Avx2 => "avx2",
            Kernel::Pext => "pext",
            Kernel::Avx512 => "avx512",
        }
    }

    /// Whether this CPU has every feature the variant is compiled for.
    fn runs_here(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            let v3 =
                || has!("popcnt") && has!("bmi1") && has!("bmi2") && has!("lzcnt") && has!("avx2");
            let v4 = || {
                has!("avx512f")
                    && has!("avx512bw")
                    && has!("avx512vl")
                    && has!("avx512dq")
                    && has!("avx512cd")
            };
            match self {
                Kernel::Portable => true,
                Kernel::Avx2 | Kernel::Pext => v3(),
                Kernel::Avx512 => v3() && v4(),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self == Kernel::Portable
        }
    }
}

/// The variant this CPU runs (see the module docs): the one `SUDOKU_LAB_KERNEL` names when the
/// CPU runs it, else the best one it runs fast, unless the environment or the `portable` feature
/// asks for less.
fn kernel() -> Kernel {
    static KERNEL: OnceLock<Kernel> = OnceLock::new();
    *KERNEL.get_or_init(|| {
        let set = |name| std::env::var_os(name).is_some_and(|v| v != "0");
        if cfg!(feature = "portable") || set("SUDOKU_LAB_PORTABLE") {
            return Kernel::Portable;
        }
        let named = std::env::var("SUDOKU_LAB_KERNEL").ok();
        if let Some(k) = Kernel::ALL
            .into_iter()
            .find(|k| Some(k.key()) == named.as_deref())
        {
            if k.runs_here() {
                return k;
            }
        }
        #[cfg(target_arch = "x86_64")]
        let pext = ops::fast_pext() && !set("SUDOKU_LAB_NO_PEXT");
        #[cfg(not(target_arch = "x86_64"))]
        let pext = false;
        let fast = |k: &Kernel| match k {
            Kernel::Pext | Kernel::Avx512 => pext,
            _ => true,
        };
        Kernel::ALL
            .into_iter()
            .rev()
            .find(|k| k.runs_here() && fast(k))
            .unwrap_or(Kernel::Portable)
    })
}

/// The name of the compiled variant in use: `"x86-64-v4+pext"`, `"x86-64-v3+pext"`,
/// `"x86-64-v3"` or `"portable"`.
pub fn variant() -> &'static str {
    match kernel() {
        Kernel::Avx512 => "x86-64-v4+pext",
        Kernel::Pext => "x86-64-v3+pext",
        Kernel::Avx2 => "x86-64-v3",
        Kernel::Portable => "portable",
    }
}

/// One search node (see the layout above). `seen[k]` is `cand[k]` as it was when last
/// examined, so that an unchanged word is skipped. Aligned to a cache line, so that the copy
/// of each alternative is a few whole-line moves.
#[derive(Clone, Copy)]
#[repr(align(64))]
struct Node {
    /// `cand[9b + d]`: the cells of band `b` where digit `d + 1` can go; a placed cell keeps
    /// exactly its own digit.
    /// (Padded to 32 words, the last five always 0, so that comparing with `seen` is four
    /// 8-lane vector compares.)
    cand: [u32; 32],
    seen: [u32; 32],
    /// `mini[k]`: the minirow mask of `seen[k]`; once [`Node::propagate`] has reached its
    /// fixpoint (every word examined since its last change), that of `cand[k]`.
    mini: [u16; 27],
    /// `configs[9u + d]`: how many configurations digit `d + 1` has left in band `u` (`u < 3`)
    /// or stack `u − 3` (see [`Node::fits`]), as of `mini` and `columns_seen`.
    configs: [u8; 54],
    /// `totals[u]`: the sum of the nine `configs` of band or stack `u`.
    totals: [u8; 6],
    /// `columns_seen[d]`: the columns of digit `d + 1` in each band (9 bits per band) as they
    /// were after its last box–column reduction.
    columns_seen: [u32; 9],
    /// Cells of each band not yet placed.
    open: [u32; 3],
}

// The size the module docs give.
const _: () = assert!(std::mem::size_of::<Node>() == 448);

impl Node {
    fn empty() -> Node {
        Node {
            cand: {
                let mut c = [BAND; 32];
                c[27..].fill(0);
                c
            },
            seen: [0; 32],
            mini: [0; 27],
            configs: [6; 54],
            totals: [54; 6],
            columns_seen: [0; 9],
            open: [BAND; 3],
        }
    }

    /// The empty grid with `givens` (row-major, `0` for an open cell) placed; `None` when one
    /// is out of range or clashes with another.
    fn with_givens(givens: &[Value]) -> Option<Node> {
        let mut node = Node::empty();
        let placed = givens
            .iter()
            .enumerate()
            .filter(|(_, &v)| v != 0)
            .all(|(c, &v)| (1..=9).contains(&v) && node.place(c / 27, c % 27, v as usize - 1));
        placed.then_some(node)
    }

    /// Places digit `d + 1` in cell `i` of band `b`; `false` when the digit is no longer possible
    /// there.
    #[inline(always)]
    fn place(&mut self, b: usize, i: usize, d: usize) -> bool {
        let bit = 1u32 << i;
        if self.cand[9 * b + d] & bit == 0 {
            return false;
        }
        self.put(b, d, bit, PEERS[i], COLUMN_OF[i]);
        true
    }

    /// Places digit `d + 1` in every cell of `cells`, open cells of band `b` where it can go.
    /// Two of them in one box are not checked here: the digit's word is left with no
    /// configuration, which its next box–row reduction finds.
    #[inline(always)]
    fn place_set(&mut self, b: usize, d: usize, cells: u32, ops: impl Ops) {
        let columns = SPREAD[((cells | cells >> 9 | cells >> 18) & 0x1ff) as usize];
        let peers = ops.expand(LINES_OF[ops.minirows(cells)] as u32) | columns;
        self.put(b, d, cells, peers, columns);
    }

    /// Places digit `d + 1` in the cells `cells` of band `b`, whose other cells in their rows,
    /// columns and boxes are `peers`, and whose columns (in any band) are `columns`.
    #[inline(always)]
    fn put(&mut self, b: usize, d: usize, cells: u32, peers: u32, columns: u32) {
        let k = 9 * b + d;
        let own = self.cand[k];
        for w in &mut self.cand[9 * b..9 * b + 9] {
            *w &= !cells;
        }
        self.cand[k] = own & !peers | cells;
        let [b1, b2] = OTHER_BANDS[b];
        self.cand[9 * b1 + d] &= !columns;
        self.cand[9 * b2 + d] &= !columns;
        self.open[b] &= !cells;
    }

    /// The configurations left to digit `d + 1` in band `u` (`u < 3`) or stack `u − 3`: bit `c`
    /// for [`CONFIGS`]`[c]`, with the stack's columns in the place of the band's rows.
    #[inline(always)]
    fn fits(&self, u: usize, d: usize, ops: impl Ops) -> u8 {
        if u < 3 {
            FITS[self.mini[9 * u + d] as usize]
        } else {
            FITS[ops.stack(self.columns_seen[d], u - 3)]
        }
    }

    /// Notes that band or stack word `k` (see [`Node::configs`]) is down to the configurations
    /// of the minirow mask `m`.
    #[inline(always)]
    fn count_configs(&mut self, k: usize, m: u16) {
        let n = FITS[(m & 0x1ff) as usize].count_ones() as u8;
        let u = k / 9;
        self.totals[u] = self.totals[u].wrapping_add(n).wrapping_sub(self.configs[k]);
        self.configs[k] = n;
    }

    /// Where to branch (tdoku's choice): in the band or stack whose digits have the fewest
    /// configurations left in all, the digit with the fewest (two or more), as `(9u + d, its
    /// configurations)` for digit `d + 1` in unit `u` (see [`Node::fits`]). `None` when every
    /// digit is down to one configuration everywhere.
    #[inline(always)]
    fn pick_config(&self, ops: impl Ops) -> Option<(usize, u8)> {
        debug_assert_eq!(self.cand, self.seen, "not at a fixpoint");
        #[cfg(debug_assertions)]
        for u in 0..6 {
            let n: Vec<u8> = (0..9)
                .map(|d| self.fits(u, d, ops).count_ones() as u8)
                .collect();
            debug_assert_eq!(
                n,
                self.configs[9 * u..9 * u + 9],
                "configurations of unit {u}"
            );
            debug_assert_eq!(n.iter().sum::<u8>(), self.totals[u], "total of unit {u}");
        }
        // Keys compared as integers, first the count and then the position (the first wins a
        // tie), with no choice at all above every real key. A unit with a total of 9 has one
        // configuration per digit.
        const NONE: u32 = u32::MAX;
        let mut unit = NONE;
        for (u, &total) in self.totals.iter().enumerate() {
            let key = if total > 9 {
                (total as u32) << 8 | u as u32
            } else {
                NONE
            };
            unit = unit.min(key);
        }
        if unit == NONE {
            return None;
        }
        let u = (unit & 0xff) as usize;
        let mut pick = NONE;
        for (d, &n) in self.configs[9 * u..9 * u + 9].iter().enumerate() {
            let key = if n > 1 {
                (n as u32) << 8 | d as u32
            } else {
                NONE
            };
            pick = pick.min(key);
        }
        let d = (pick & 0xff) as usize;
        Some((9 * u + d, self.fits(u, d, ops)))
    }

    /// Restricts the node to configuration `c` of branching choice `k` (see [`Node::pick_config`]).
    #[inline(always)]
    fn choose(&mut self, k: usize, c: usize, ops: impl Ops) {
        let (u, d) = (k / 9, k % 9);
        if u < 3 {
            self.cand[k] &= ops.expand(CONFIGS[c] as u32);
        } else {
            // In each band, the digit keeps one of the stack's three columns.
            let s = u - 3;
            let keep = ops.unstack(CONFIGS[c] as u32, s) | !ops.unstack(0x1ff, s);
            for b in 0..3 {
                self.cand[9 * b + d] &= SPREAD[(keep >> (9 * b) & 0x1ff) as usize];
            }
        }
    }

    /// The box–row reduction of each word of `changed` (bit `k` for `cand[k]`), each followed by
    /// the placements of its rows left with one cell; `false` on a contradiction.
    #[inline(always)]
    fn box_rows(&mut self, mut changed: u32, ops: impl Ops) -> bool {
        while changed != 0 {
            let k = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            let (b, d) = (k / 9, k % 9);
            let w = self.cand[k];
            let p = PERM[ops.minirows(w)];
            if p == 0 {
                return false;
            }
            let w = w & ops.expand(p as u32);
            self.cand[k] = w;
            self.seen[k] = w;
            self.mini[k] = p;
            self.count_configs(k, p);
            let sole = (SOLE[(w & 0x1ff) as usize] as u32
                | (SOLE[(w >> 9 & 0x1ff) as usize] as u32) << 9
                | (SOLE[(w >> 18 & 0x1ff) as usize] as u32) << 18)
                & self.open[b];
            if sole != 0 {
                self.place_set(b, d, sole, ops);
            }
        }
        true
    }

    /// The box–column reduction (see [`Node::propagate`]) of the digits of `digits` (bit `d`
    /// for digit `d + 1`): `None` on a contradiction, else whether a word changed and the stacks
    /// (bit `s`) where a digit's columns changed.
    #[inline(always)]
    fn box_columns(&mut self, mut digits: u32, ops: impl Ops) -> Option<(bool, u32)> {
        let (mut progress, mut stacks) = (false, 0);
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let cols = [0, 1, 2].map(|b| {
                let w = self.cand[9 * b + d];
                (w | w >> 9 | w >> 18) & 0x1ff
            });
            let packed = cols[0] | cols[1] << 9 | cols[2] << 18;
            if packed == self.columns_seen[d] {
                continue;
            }
            let mut keep = 0;
            for s in 0..3 {
                let p = PERM[ops.stack(packed, s)] as u32;
                if p == 0 {
                    return None;
                }
                keep |= ops.unstack(p, s);
                self.count_configs(27 + 9 * s + d, p as u16);
            }
            if keep != packed {
                for (b, &had) in cols.iter().enumerate() {
                    let k = keep >> (9 * b) & 0x1ff;
                    if k != had {
                        self.cand[9 * b + d] &= SPREAD[k as usize];
                        progress = true;
                    }
                }
            }
            let diff = keep ^ self.columns_seen[d];
            stacks |= ((diff & 0o007_007_007 != 0) as u32)
                | ((diff & 0o070_070_070 != 0) as u32) << 1
                | ((diff & 0o700_700_700 != 0) as u32) << 2;
            self.columns_seen[d] = keep;
        }
        Some((progress, stacks))
    }

    /// Every consequence the layout gives (see the module docs), to a fixpoint; `false` on a
    /// contradiction.
    #[inline(always)]
    fn propagate(&mut self, ops: impl Ops) -> bool {
        // The words examined since the last box–column reduction: only their digits can have
        // lost columns.
        let mut touched = 0u32;
        // The words changed, and the stacks (bit `s`) whose columns changed, since the last
        // minirow and minicolumn counts. The node this one was copied from was at a fixpoint
        // where those counts found nothing, so what has not changed since needs no new count.
        let (mut dirty, mut dirty_stacks) = (0u32, 0u32);
        loop {
            // Box–line reduction of every changed word, and the rows left with one place.
            loop {
                let changed = ops.changed(&self.cand, &self.seen);
                if changed == 0 {
                    break;
                }
                touched |= changed;
                dirty |= changed;
                match ops.box_rows(self, changed) {
                    None => return false,
                    Some(more) => {
                        touched |= more;
                        dirty |= more;
                    }
                }
                if ops.to_fixpoint() {
                    break;
                }
            }
            // Cells with no candidate, naked singles (unless the box–row step has placed them
            // already).
            let mut progress = false;
            for b in 0..3 * !ops.to_fixpoint() as usize {
                let (mut one, mut two) = (0u32, 0u32);
                for &w in &self.cand[9 * b..9 * b + 9] {
                    two |= one & w;
                    one |= w;
                }
                if one != BAND {
                    return false;
                }
                let mut single = one & !two & self.open[b];
                while single != 0 {
                    let i = single.trailing_zeros() as usize;
                    single &= single - 1;
                    let bit = 1 << i;
                    // An earlier single of this loop may have taken the cell's last digit.
                    let Some(d) = (0..9).find(|&d| self.cand[9 * b + d] & bit != 0) else {
                        return false;
                    };
                    if !self.place(b, i, d) {
                        return false;
                    }
                    progress = true;
                }
            }
            if progress {
                continue;
            }
            // Box–column reduction: in each stack, a digit takes one column per band, three
            // different columns; the same permutation lookup keeps the (band, column) pairs on
            // one, and clears the digit from the rest.
            let digits = (touched | touched >> 9 | touched >> 18) & 0x1ff;
            touched = 0;
            match ops.box_columns(self, digits) {
                None => return false,
                Some((changed, stacks)) => {
                    progress = changed;
                    dirty_stacks |= stacks;
                }
            }
            if !progress {
                let open: u32 = self.open.iter().map(|o| o.count_ones()).sum();
                if open <= COUNTS_ABOVE {
                    return true;
                }
                let a = match self.minirow_counts(ops, std::mem::take(&mut dirty)) {
                    None => return false,
                    Some(p) => p,
                };
                let c = match self.minicolumn_counts(ops, std::mem::take(&mut dirty_stacks)) {
                    None => return false,
                    Some(p) => p,
                };
                if !a && !c {
                    return true;
                }
            }
        }
    }

    /// Each minirow holds exactly three digits: a minirow that fewer than three digits can reach,
    /// or that more than three must take, is a contradiction; when exactly three can reach it,
    /// they must take it (each leaves the rest of its box in the band); when three must take it,
    /// the others leave it. This counting argument across digits is what makes a band's digit
    /// configurations consistent with each other; without it a search on sparse grids can wander
    /// through large inconsistent subtrees. `None` on a contradiction, else whether anything
    /// changed.
    #[inline(always)]
    fn minirow_counts(&mut self, ops: impl Ops, dirty: u32) -> Option<bool> {
        debug_assert_eq!(self.cand, self.seen, "not at a fixpoint");
        let bands = [0, 1, 2].map(|b| (dirty >> (9 * b) & 0x1ff != 0) as u32);
        let live = live_units(bands[0] | bands[1] << 1 | bands[2] << 2);
        if live == 0 {
            return Some(false);
        }
        let tally = Tally::of(
            |d| [0, 9, 18].map(|o| self.mini[o + d] as usize),
            &SURE,
            live,
        )?;
        let mut progress = false;
        for b in 0..3 {
            let (take, leave) = tally.unit(b);
            if take | leave == 0 {
                continue;
            }
            for d in 0..9 {
                let k = 9 * b + d;
                let can = self.mini[k] & 0x1ff;
                let open = can & !SURE[can as usize];
                let mut t = open & take;
                let before = self.cand[k];
                while t != 0 {
                    let j = t.trailing_zeros() as usize;
                    t &= t - 1;
                    self.cand[k] &= !BOX_OF[j] | ops.expand(1 << j);
                }
                self.cand[k] &= !ops.expand((open & leave) as u32);
                progress |= self.cand[k] != before;
            }
        }
        Some(progress)
    }

    /// The minirow counts' argument on minicolumns (a band's three cells of one column): each
    /// holds exactly three digits.
    #[inline(always)]
    fn minicolumn_counts(&mut self, ops: impl Ops, dirty: u32) -> Option<bool> {
        let live = live_units(dirty);
        if live == 0 {
            return Some(false);
        }
        let stacks = |d: usize| [0, 1, 2].map(|s| ops.stack(self.columns_seen[d], s));
        let tally = Tally::of(stacks, &SURE_T, live)?;
        let mut progress = false;
        for s in 0..3 {
            let (take, leave) = tally.unit(s);
            if take | leave == 0 {
                continue;
            }
            for d in 0..9 {
                let can = ops.stack(self.columns_seen[d], s);
                let open = can as u16 & !SURE_T[can];
                let (t, l) = (open & take, open & leave);
                for b in 0..3 {
                    let k = 9 * b + d;
                    let before = self.cand[k];
                    let tb = (t >> (3 * b)) & 7;
                    if tb != 0 {
                        // The digit's box (b, s) keeps only that column.
                        let col = 3 * s + tb.trailing_zeros() as usize;
                        self.cand[k] &= !BOX_OF[s] | COLUMN[col];
                    }
                    let lb = ((l >> (3 * b)) & 7) as u32;
                    if lb != 0 {
                        self.cand[k] &= !SPREAD[(lb << (3 * s)) as usize];
                    }
                    progress |= self.cand[k] != before;
                }
            }
        }
        Some(progress)
    }

    /// The open cell to branch on, as (band, cell of the band): one with two candidates when there
    /// is one, else one with the fewest.
    #[inline(always)]
    fn pick(&self) -> (usize, usize) {
        for b in 0..3 {
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for &w in &self.cand[9 * b..9 * b + 9] {
                three |= two & w;
                two |= one & w;
                one |= w;
            }
            let bivalue = two & !three & self.open[b];
            if bivalue != 0 {
                return (b, bivalue.trailing_zeros() as usize);
            }
        }
        let mut best = (0, 0, u32::MAX);
        for b in 0..3 {
            let mut open = self.open[b];
            while open != 0 {
                let i = open.trailing_zeros() as usize;
                open &= open - 1;
                let k = self.cand[9 * b..9 * b + 9]
                    .iter()
                    .map(|&w| w >> i & 1)
                    .sum::<u32>();
                if k < best.2 {
                    best = (b, i, k);
                }
            }
        }
        (best.0, best.1)
    }

    fn open_cells(&self) -> u32 {
        self.open.iter().map(|o| o.count_ones()).sum()
    }

    fn solved(&self) -> bool {
        self.open == [0; 3]
    }

    /// The digits of a solved node, row-major (of an unsolved one, an open cell shows one of its
    /// candidates).
    fn grid(&self) -> Vec<Value> {
        let mut g = vec![0; 81];
        for b in 0..3 {
            for d in 0..9 {
                let mut w = self.cand[9 * b + d];
                while w != 0 {
                    g[27 * b + w.trailing_zeros() as usize] = d as Value + 1;
                    w &= w - 1;
                }
            }
        }
        g
    }
}

/// Counts the solutions of a standard 9×9 grid given row-major (`0` for an open cell), up to
/// `limit`, keeping the first `keep`.
pub(super) fn count(givens: &[Value], limit: u64, keep: usize, halt: Halt) -> Found {
    count_with(kernel(), givens, limit, keep, halt)
}

/// [`count`] by the variant `kernel`, which the CPU must run ([`Kernel::runs_here`]).
fn count_with(kernel: Kernel, givens: &[Value], limit: u64, keep: usize, halt: Halt) -> Found {
    assert!(
        kernel.runs_here(),
        "{kernel:?} needs CPU features this one lacks"
    );
    let mut s = Search {
        limit: limit.max(1),
        keep,
        visited: 0,
        guesses: 0,
        halt,
        found: Found::default(),
    };
    let Some(root) = Node::with_givens(givens) else {
        return s.found;
    };
    match kernel {
        // SAFETY (all three): `Kernel::runs_here` has checked that the CPU has every feature
        // `descend_native` and `descend_avx512` are compiled for, and those `Avx2::new`,
        // `Pext::new` and `Avx512::new` ask for.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => unsafe { s.descend_avx512(root, ops::Avx512::new()) },
        #[cfg(target_arch = "x86_64")]
        Kernel::Pext => unsafe { s.descend_native(root, ops::Pext::new()) },
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => unsafe { s.descend_native(root, ops::Avx2::new()) },
        _ => s.descend_portable(root),
    };
    s.found.nodes = s.visited;
    s.found.guesses = s.guesses;
    s.found
}

/// The candidates the kernel's propagation leaves at the root, before its first branch: per
/// cell (row-major), bit `d − 1` for digit `d`; `None` when the givens or the propagation meet a
/// contradiction. The same [`Node::propagate`] as the search's first node, in its portable form
/// (every form computes the same fixpoint).
pub(super) fn root(givens: &[Value]) -> Option<Vec<u64>> {
    let mut root = Node::with_givens(givens)?;
    if !root.propagate(Portable) {
        return None;
    }
    let mut masks = vec![0u64; 81];
    for b in 0..3 {
        for d in 0..9 {
            let mut w = root.cand[9 * b + d];
            while w != 0 {
                masks[27 * b + w.trailing_zeros() as usize] |= 1 << d;
                w &= w - 1;
            }
        }
    }
    Some(masks)
}

/// The most open cells the endgame takes (one bit per cell in a `u64`). Once every digit has a
/// single configuration in every band, what is left to choose is which cell of a minirow takes
/// which of its digits: the endgame's cheaper nodes do that best.
const ENDGAME_AT: u32 = 64;

/// Once two solutions are found (so only a count past two is still running), a node with at most
/// this many open cells goes to the endgame whatever its configurations: such a subtree is mostly
/// solutions, and the endgame spends 20–40 ns on a node where the band propagation spends
/// 250–450 ns. A full count of serg_benchmark takes 2.7× less time with it
/// (`examples/dfs_speed.rs`, docs/benchmarks.md); before the second solution, the strong
/// propagation of the bands pays (a full count of unique puzzles is unchanged).
const COUNTING_ENDGAME_AT: u32 = 48;

/// The open cells of an endgame: where each is (row-major), which others share a house with it,
/// and the digit the search has put there.
struct Endgame {
    n: usize,
    cell: [u8; ENDGAME_AT as usize],
    peers: [u64; ENDGAME_AT as usize],
    digit: [u8; ENDGAME_AT as usize],
}

/// The cell of `left` with the fewest candidates (`digits[d]`: the cells of digit `d + 1`).
fn fewest_candidates(digits: &[u64; 9], left: u64) -> usize {
    let (mut best, mut fewest) = (0, u32::MAX);
    let mut l = left;
    while l != 0 {
        let j = l.trailing_zeros() as usize;
        l &= l - 1;
        let k = digits.iter().map(|&w| (w >> j & 1) as u32).sum::<u32>();
        if k < fewest {
            (best, fewest) = (j, k);
        }
    }
    best
}

struct Search {
    limit: u64,
    /// Solutions kept in [`Found::witnesses`].
    keep: usize,
    /// Nodes: propagations to a fixpoint in the band search, steps of the endgame.
    visited: u64,
    /// Branch points (see the module documentation).
    guesses: u64,
    halt: Halt,
    found: Found,
}

impl Search {
    fn descend_portable(&mut self, node: Node) -> bool {
        self.descend(node, Portable, Search::descend_portable)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
    fn descend_native(&mut self, node: Node, ops: impl Ops) -> bool {
        // The closure inherits this function's features, so the recursive call needs no `unsafe`.
        self.descend(node, ops, |s, n| s.descend_native(n, ops))
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(
        enable = "popcnt,bmi1,bmi2,lzcnt,avx2,avx512f,avx512bw,avx512vl,avx512dq,avx512cd"
    )]
    fn descend_avx512(&mut self, node: Node, ops: impl Ops) -> bool {
        self.descend(node, ops, |s, n| s.descend_avx512(n, ops))
    }

    /// Propagates `node` and searches below it, recursing through `deeper`; `false` to stop.
    #[inline(always)]
    fn descend(
        &mut self,
        mut node: Node,
        ops: impl Ops,
        deeper: impl Fn(&mut Search, Node) -> bool,
    ) -> bool {
        loop {
            self.visited += 1;
            if self.visited.is_multiple_of(CLOCK_EVERY) && self.halt.reached() {
                self.found.timed_out = true;
                return false;
            }
            if !node.propagate(ops) {
                return true;
            }
            if node.solved() {
                return self.leaf(|| node.grid());
            }
            if self.found.count >= 2 && node.open_cells() <= COUNTING_ENDGAME_AT {
                return self.endgame(&node);
            }
            // Every alternative but the last on a copy; the last one in place (a loop, not a
            // call).
            if let Some((k, mut fits)) = node.pick_config(ops) {
                self.guesses += 1; // two configurations or more
                while fits & (fits - 1) != 0 {
                    let c = fits.trailing_zeros() as usize;
                    fits &= fits - 1;
                    let mut child = node;
                    child.choose(k, c, ops);
                    if !deeper(self, child) {
                        return false;
                    }
                }
                node.choose(k, fits.trailing_zeros() as usize, ops);
            } else if node.open_cells() <= ENDGAME_AT {
                return self.endgame(&node);
            } else {
                let (b, i) = node.pick();
                let bit = 1u32 << i;
                let mut digits: u32 = (0..9)
                    .filter(|&d| node.cand[9 * b + d] & bit != 0)
                    .fold(0, |m, d| m | 1 << d);
                self.guesses += u64::from(digits & (digits - 1) != 0);
                while digits & (digits - 1) != 0 {
                    let d = digits.trailing_zeros() as usize;
                    digits &= digits - 1;
                    let mut child = node;
                    child.place(b, i, d);
                    if !deeper(self, child) {
                        return false;
                    }
                    node.cand[9 * b + d] &= !bit;
                }
                node.place(b, i, digits.trailing_zeros() as usize);
            }
        }
    }

    /// Finishes the search below `node` (few open cells, see [`ENDGAME_AT`]) with a plain cell
    /// search over the open cells: for each digit, the open cells it can still take; a placement
    /// clears its digit from the open cells sharing a house; naked singles first, then the cell
    /// with the fewest candidates.
    #[inline(never)]
    fn endgame(&mut self, node: &Node) -> bool {
        let mut end = Endgame {
            n: 0,
            cell: [0; ENDGAME_AT as usize],
            peers: [0; ENDGAME_AT as usize],
            digit: [0; ENDGAME_AT as usize],
        };
        let mut slot = [0u8; 81];
        let mut houses = [0u64; 27];
        for b in 0..3 {
            let mut open = node.open[b];
            while open != 0 {
                let c = 27 * b + open.trailing_zeros() as usize;
                open &= open - 1;
                let n = end.n;
                end.cell[n] = c as u8;
                slot[c] = n as u8;
                let (r, col) = (c / 9, c % 9);
                houses[r] |= 1 << n;
                houses[9 + col] |= 1 << n;
                houses[18 + r / 3 * 3 + col / 3] |= 1 << n;
                end.n += 1;
            }
        }
        for j in 0..end.n {
            let c = end.cell[j] as usize;
            let (r, col) = (c / 9, c % 9);
            end.peers[j] =
                (houses[r] | houses[9 + col] | houses[18 + r / 3 * 3 + col / 3]) & !(1 << j);
        }
        let mut digits = [0u64; 9];
        for (d, cells) in digits.iter_mut().enumerate() {
            for b in 0..3 {
                let mut w = node.cand[9 * b + d] & node.open[b];
                while w != 0 {
                    *cells |= 1 << slot[27 * b + w.trailing_zeros() as usize];
                    w &= w - 1;
                }
            }
        }
        debug_assert!((1..=ENDGAME_AT as usize).contains(&end.n));
        let left = u64::MAX >> (64 - end.n);
        self.end_search(node, &mut end, digits, left)
    }

    /// The cell search of [`Search::endgame`] over the open cells in `left`; `digits[d]`: the
    /// cells of `left` where digit `d + 1` can go. `false` to stop.
    fn end_search(
        &mut self,
        node: &Node,
        end: &mut Endgame,
        mut digits: [u64; 9],
        mut left: u64,
    ) -> bool {
        loop {
            if left == 0 {
                return self.leaf(|| {
                    let mut g = node.grid();
                    for (&c, &d) in end.cell[..end.n].iter().zip(&end.digit) {
                        g[c as usize] = d as Value + 1;
                    }
                    g
                });
            }
            self.visited += 1;
            if self.visited.is_multiple_of(CLOCK_EVERY) && self.halt.reached() {
                self.found.timed_out = true;
                return false;
            }
            // Cells reached by at least one, two, three digits.
            let (mut one, mut two, mut three) = (0u64, 0u64, 0u64);
            for &w in &digits {
                three |= two & w;
                two |= one & w;
                one |= w;
            }
            if left & !one != 0 {
                return true;
            }
            let single = one & !two;
            if single != 0 {
                // Every naked single at once: each takes the one digit it has left.
                for (d, w) in digits.iter_mut().enumerate() {
                    let mine = *w & single;
                    if mine == 0 {
                        continue;
                    }
                    *w &= !mine;
                    let mut todo = mine;
                    while todo != 0 {
                        let j = todo.trailing_zeros() as usize;
                        todo &= todo - 1;
                        // Two cells of one house whose only digit is the same.
                        if mine & end.peers[j] != 0 {
                            return true;
                        }
                        *w &= !end.peers[j];
                        end.digit[j] = d as u8;
                    }
                }
                left &= !single;
                continue;
            }
            let j = if two & !three != 0 {
                (two & !three).trailing_zeros() as usize
            } else {
                fewest_candidates(&digits, left)
            };
            left &= !(1 << j);
            let mut choices = 0u32;
            for (d, w) in digits.iter_mut().enumerate() {
                choices |= ((*w >> j & 1) as u32) << d;
                *w &= !(1 << j);
            }
            let peers = end.peers[j] & left;
            self.guesses += u64::from(choices & (choices - 1) != 0);
            while choices & (choices - 1) != 0 {
                let d = choices.trailing_zeros() as usize;
                choices &= choices - 1;
                let mut child = digits;
                child[d] &= !peers;
                end.digit[j] = d as u8;
                if !self.end_search(node, end, child, left) {
                    return false;
                }
            }
            let d = choices.trailing_zeros() as usize;
            digits[d] &= !peers;
            end.digit[j] = d as u8;
        }
    }

    /// Counts a solution, keeping it (built by `grid`) when it is one of the first `keep`;
    /// `false` once the limit is reached.
    fn leaf(&mut self, grid: impl FnOnce() -> Vec<Value>) -> bool {
        self.found.count += 1;
        if self.found.witnesses.len() < self.keep {
            self.found.witnesses.push(grid());
        }
        self.found.count < self.limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perm_table_keeps_only_minirows_on_a_permutation() {
        assert_eq!(PERM[0x1ff], 0x1ff);
        // Rows 0 and 1 both only in box 0: no permutation.
        assert_eq!(PERM[0b111_001_001], 0);
        // Row 0 only in box 0: rows 1 and 2 lose box 0.
        assert_eq!(PERM[0b111_111_001], 0b110_110_001);
    }

    #[test]
    fn sure_minicolumns_and_lines_of_minirows() {
        // Band 0 has two columns of the stack, band 1 one, band 2 one: the last two are sure.
        assert_eq!(SURE_T[0b100_010_011], 0b100_010_000);
        // Minirow (row 1, box 2): row 1 and box 2.
        assert_eq!(LINES_OF[1 << 5], 0o070 | 0o444);
    }

    #[test]
    fn sparse_grids_stay_cheap() {
        // Six givens, many solutions. Branching on configurations without the minirow counts
        // visits tens of millions of nodes here without finding one.
        let text =
            "000000000500000000000000000000000000000090000100000000000000000900000007000009000";
        let givens: Vec<Value> = text.bytes().map(|b| (b - b'0') as Value).collect();
        let found = count(&givens, 3, 2, Halt::default());
        assert_eq!(found.count, 3);
        assert!(found.nodes < 1000, "{} nodes", found.nodes);
    }

    /// `pick` now serves only settled nodes with more open cells than the endgame holds (very
    /// sparse grids deep in a large count), which the other tests do not reach: its contract
    /// directly, on a propagated sparse grid.
    #[test]
    fn pick_takes_an_open_cell_with_the_fewest_candidates() {
        let text =
            "000000000500000000000000000000000000000090000100000000000000000900000007000009000";
        let mut node = Node::empty();
        for (c, b) in text.bytes().enumerate() {
            if b != b'0' {
                assert!(node.place(c / 27, c % 27, (b - b'1') as usize));
            }
        }
        assert!(node.propagate(Portable));
        let candidates = |b: usize, i: usize| {
            (0..9)
                .filter(|&d| node.cand[9 * b + d] >> i & 1 != 0)
                .count()
        };
        let (b, i) = node.pick();
        assert!(node.open[b] >> i & 1 != 0);
        let fewest = (0..81)
            .filter(|&c| node.open[c / 27] >> (c % 27) & 1 != 0)
            .map(|c| candidates(c / 27, c % 27))
            .min()
            .unwrap();
        assert_eq!(candidates(b, i), fewest);
    }

    /// Every variant this CPU runs finds the known counts of test_puzzles (0 to 847 solutions)
    /// and of the first 17-clue puzzles, through the same tree as the portable one: the same
    /// nodes, guesses and first two solutions.
    #[test]
    fn every_variant_this_cpu_runs_searches_the_portable_tree() {
        let mut text = include_str!("../../tests/data/9x9/test_puzzles.counts").to_string();
        text += include_str!("../../tests/data/9x9/17_clue_first20.txt");
        let runs: Vec<Kernel> = Kernel::ALL.into_iter().filter(|k| k.runs_here()).collect();
        let mut puzzles = 0;
        for entry in crate::format::read_puzzles(&text, &Default::default()) {
            let entry = entry.unwrap();
            let givens = entry.puzzle.givens();
            let expected = entry.expected.as_ref().map_or(1, |e| e.count);
            for limit in [2, u64::MAX] {
                let portable = count_with(Kernel::Portable, givens, limit, 2, Halt::default());
                assert_eq!(portable.count, expected.min(limit), "line {}", entry.line);
                for &k in &runs {
                    let f = count_with(k, givens, limit, 2, Halt::default());
                    let line = entry.line;
                    assert_eq!(f.count, portable.count, "{k:?}, line {line}, limit {limit}");
                    assert_eq!(f.nodes, portable.nodes, "{k:?}, line {line}, limit {limit}");
                    assert_eq!(f.guesses, portable.guesses, "{k:?}, line {line}");
                    assert_eq!(f.witnesses, portable.witnesses, "{k:?}, line {line}");
                }
            }
            puzzles += 1;
        }
        assert_eq!(puzzles, 43 + 20);
    }

    #[test]
    fn peers_of_a_cell_in_its_band() {
        // Cell 0: 8 in its row, 2 in its column, 4 more in its box.
        assert_eq!(PEERS[0].count_ones(), 14);
        assert_eq!(PEERS[13] & 1 << 13, 0);
    }
}
