//! The few bit operations of the band kernel whose best form depends on the CPU, behind one
//! trait, [`Ops`], with one zero-sized implementation per compiled variant:
//!
//! - [`Portable`]: table look-ups and plain integer code, for any target;
//! - [`Avx2`]: the same, but the scan for changed words is four 8-lane vector compares;
//! - [`Pext`]: also BMI2's `pext`/`pdep` (gather and scatter the bits of a mask), which replace
//!   the minirow and stack look-ups by one instruction each, and AVX2 for the box–row step
//!   ([`Ops::box_rows`]), which runs on every word at once to its fixpoint in registers
//!   (`super::avx2`). Picked only where `pext` is fast: AMD before Zen 3 (and Hygon) run it in
//!   microcode, tens of cycles or more;
//! - [`Avx512`]: [`Pext`], with AVX-512 for the changed-word scan, for the box–row step
//!   ([`Ops::box_rows`]), which runs on every word at once to its fixpoint in registers, and for
//!   the box–column step of every digit at once ([`Ops::box_columns`]; `super::avx512`).
//!
//! The search is generic over `Ops` and inlined into a function compiled for the variant's
//! features, so each variant is the whole kernel compiled once. [`Avx2`], [`Pext`] and
//! [`Avx512`] values exist only where the CPU has those features: their constructors are
//! `unsafe`, which is what makes their safe methods sound.

use super::{Node, EXPAND, MINI};

/// The CPU-dependent steps of the band kernel (see the module docs). The default methods are the
/// portable forms.
pub(super) trait Ops: Copy {
    /// Bit `k` set when `cand[k] != seen[k]`.
    #[inline(always)]
    fn changed(self, cand: &[u32; 32], seen: &[u32; 32]) -> u32 {
        let mut m = 0;
        for k in 0..32 {
            m |= ((cand[k] != seen[k]) as u32) << k;
        }
        m
    }

    /// The minirow mask of a band word: bit `3r + x` set when row `r` has a cell in box `x`.
    #[inline(always)]
    fn minirows(self, w: u32) -> usize {
        // (The masks tell the compiler every index is in range.)
        (MINI[(w & 0x1ff) as usize] as usize
            | (MINI[(w >> 9 & 0x1ff) as usize] as usize) << 3
            | (MINI[(w >> 18 & 0x1ff) as usize] as usize) << 6)
            & 0x1ff
    }

    /// The cells of the minirows in the minirow mask `m`.
    #[inline(always)]
    fn expand(self, m: u32) -> u32 {
        EXPAND[(m & 0x1ff) as usize]
    }

    /// Of `packed` (a digit's columns, 9 bits per band), the columns of stack `s`: bits `3b..3b+2`
    /// for band `b`, the same layout as a minirow mask.
    #[inline(always)]
    fn stack(self, packed: u32, s: usize) -> usize {
        let x = packed >> (3 * s) & 0o007_007_007;
        ((x & 7) | (x >> 6 & 0o70) | (x >> 12 & 0o700)) as usize
    }

    /// The inverse of [`Ops::stack`]: the columns of the 9-bit `m` back in the packed layout.
    #[inline(always)]
    fn unstack(self, m: u32, s: usize) -> u32 {
        ((m & 7) | (m & 0o70) << 6 | (m & 0o700) << 12) << (3 * s)
    }

    /// The box–row step of `node` on (at least) the words of `changed`, with the placements of
    /// the rows it leaves with one cell ([`Node::box_rows`]): `None` on a contradiction, else the
    /// words it changed beyond `changed` whose changes the next scan will not see (bit `k`).
    #[inline(always)]
    fn box_rows(self, node: &mut Node, changed: u32) -> Option<u32> {
        node.box_rows(changed, self).then_some(0)
    }

    /// Whether [`Ops::box_rows`] takes every word to the fixpoint of the box–row step with the
    /// naked singles: it leaves no word changed since it was examined, no naked single and no
    /// cell without a candidate, so that `Node::propagate` need not look for them.
    #[inline(always)]
    fn to_fixpoint(self) -> bool {
        false
    }

    /// The box–column step: [`Node::box_columns`].
    #[inline(always)]
    fn box_columns(self, node: &mut Node, digits: u32) -> Option<(bool, u32)> {
        node.box_columns(digits, self)
    }
}

/// The portable forms, for any target.
#[derive(Clone, Copy)]
pub(super) struct Portable;

impl Ops for Portable {}

/// AVX2 for the changed-word scan; table look-ups otherwise.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(super) struct Avx2(());

/// AVX2 for the changed-word scan and the box–row step of every word at once (`super::avx2`),
/// BMI2's `pext`/`pdep` for the minirow and stack masks.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(super) struct Pext(());

/// [`Pext`], with AVX-512 for the changed-word scan and the box–row step of every word at once
/// (`super::avx512`).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(super) struct Avx512(());

#[cfg(target_arch = "x86_64")]
impl Avx512 {
    /// # Safety
    /// The CPU must have AVX2, BMI2 and AVX-512 F, BW, VL.
    pub(super) unsafe fn new() -> Avx512 {
        Avx512(())
    }
}

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// # Safety
    /// The CPU must have AVX2.
    pub(super) unsafe fn new() -> Avx2 {
        Avx2(())
    }
}

#[cfg(target_arch = "x86_64")]
impl Pext {
    /// # Safety
    /// The CPU must have AVX2 and BMI2.
    pub(super) unsafe fn new() -> Pext {
        Pext(())
    }
}

/// [`Ops::changed`] with four 8-lane compares and their sign masks.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn changed_avx2(cand: &[u32; 32], seen: &[u32; 32]) -> u32 {
    use std::arch::x86_64::*;
    let mut equal = 0u32;
    for i in 0..4 {
        // SAFETY: lanes `8i..8i + 8` of two 32-word arrays are in bounds; unaligned loads.
        let (a, b) = unsafe {
            (
                _mm256_loadu_si256(cand.as_ptr().add(8 * i).cast()),
                _mm256_loadu_si256(seen.as_ptr().add(8 * i).cast()),
            )
        };
        // SAFETY: the caller guarantees AVX2.
        let m = unsafe { _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(a, b))) };
        equal |= (m as u32) << (8 * i);
    }
    !equal
}

#[cfg(target_arch = "x86_64")]
impl Ops for Avx2 {
    #[inline(always)]
    fn changed(self, cand: &[u32; 32], seen: &[u32; 32]) -> u32 {
        // SAFETY: an `Avx2` exists only on a CPU with AVX2 (`Avx2::new`).
        unsafe { changed_avx2(cand, seen) }
    }
}

#[cfg(target_arch = "x86_64")]
impl Ops for Pext {
    #[inline(always)]
    fn changed(self, cand: &[u32; 32], seen: &[u32; 32]) -> u32 {
        // SAFETY: a `Pext` exists only on a CPU with AVX2 and BMI2 (`Pext::new`).
        unsafe { changed_avx2(cand, seen) }
    }

    #[inline(always)]
    fn minirows(self, w: u32) -> usize {
        // A minirow is non-empty when the OR of its three cells, gathered to its first one, is.
        let any = w | w >> 1 | w >> 2;
        // SAFETY: as above, BMI2.
        unsafe { std::arch::x86_64::_pext_u32(any, 0o111_111_111) as usize }
    }

    #[inline(always)]
    fn expand(self, m: u32) -> u32 {
        // SAFETY: as above, BMI2.
        unsafe { std::arch::x86_64::_pdep_u32(m, 0o111_111_111) * 7 }
    }

    #[inline(always)]
    fn stack(self, packed: u32, s: usize) -> usize {
        // SAFETY: as above, BMI2.
        unsafe { std::arch::x86_64::_pext_u32(packed, 0o007_007_007 << (3 * s)) as usize }
    }

    #[inline(always)]
    fn unstack(self, m: u32, s: usize) -> u32 {
        // SAFETY: as above, BMI2.
        unsafe { std::arch::x86_64::_pdep_u32(m, 0o007_007_007 << (3 * s)) }
    }

    #[inline(always)]
    fn box_rows(self, node: &mut Node, _changed: u32) -> Option<u32> {
        // SAFETY: as above, AVX2.
        unsafe { super::avx2::box_rows(node) }
    }

    #[inline(always)]
    fn to_fixpoint(self) -> bool {
        true
    }
}

#[cfg(target_arch = "x86_64")]
impl Ops for Avx512 {
    #[inline(always)]
    fn changed(self, cand: &[u32; 32], seen: &[u32; 32]) -> u32 {
        // SAFETY: an `Avx512` exists only on a CPU with AVX-512 F (`Avx512::new`).
        unsafe { super::avx512::changed(cand, seen) }
    }

    // The masks as `Pext` computes them: an `Avx512` exists only where `Pext` may.
    #[inline(always)]
    fn minirows(self, w: u32) -> usize {
        Pext(()).minirows(w)
    }

    #[inline(always)]
    fn expand(self, m: u32) -> u32 {
        Pext(()).expand(m)
    }

    #[inline(always)]
    fn stack(self, packed: u32, s: usize) -> usize {
        Pext(()).stack(packed, s)
    }

    #[inline(always)]
    fn unstack(self, m: u32, s: usize) -> u32 {
        Pext(()).unstack(m, s)
    }

    #[inline(always)]
    fn box_rows(self, node: &mut Node, _changed: u32) -> Option<u32> {
        // SAFETY: as above, AVX-512 F, BW and VL.
        unsafe { super::avx512::box_rows(node) }
    }

    #[inline(always)]
    fn to_fixpoint(self) -> bool {
        true
    }

    #[inline(always)]
    fn box_columns(self, node: &mut Node, _digits: u32) -> Option<(bool, u32)> {
        // SAFETY: as above, AVX-512 F.
        unsafe { super::avx512::box_columns(node) }
    }
}

/// Whether `pext` and `pdep` run at the speed of a shift (all Intel CPUs that have them, AMD from
/// Zen 3 on), rather than in microcode (AMD's families before 19h, and Hygon).
#[cfg(target_arch = "x86_64")]
pub(super) fn fast_pext() -> bool {
    use std::arch::x86_64::__cpuid;
    let id = __cpuid(0);
    let mut vendor = [0u8; 12];
    vendor[..4].copy_from_slice(&id.ebx.to_le_bytes());
    vendor[4..8].copy_from_slice(&id.edx.to_le_bytes());
    vendor[8..].copy_from_slice(&id.ecx.to_le_bytes());
    if &vendor != b"AuthenticAMD" && &vendor != b"HygonGenuine" {
        return true;
    }
    let eax = __cpuid(1).eax;
    let mut family = eax >> 8 & 0xf;
    if family == 0xf {
        family += eax >> 20 & 0xff;
    }
    family >= 0x19
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every variant the CPU runs agrees with the portable forms, on every mask.
    #[test]
    fn variants_agree_with_the_portable_forms() {
        fn agree(ops: impl Ops) {
            let p = Portable;
            for m in 0..512u32 {
                assert_eq!(ops.expand(m), p.expand(m));
                for s in 0..3 {
                    assert_eq!(ops.unstack(m, s), p.unstack(m, s));
                    assert_eq!(ops.stack(p.unstack(m, s), s), m as usize);
                }
            }
            let mut x = 0x9e37_79b9u32;
            for _ in 0..100_000 {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                let w = x & super::super::BAND;
                assert_eq!(ops.minirows(w), p.minirows(w));
                let packed = (x ^ x >> 7) & 0x7ff_ffff;
                for s in 0..3 {
                    assert_eq!(ops.stack(packed, s), p.stack(packed, s));
                }
                let mut cand = [0u32; 32];
                let mut seen = [0u32; 32];
                cand[(x % 27) as usize] = x | 1;
                seen[(x >> 5) as usize % 27] = x >> 3;
                assert_eq!(ops.changed(&cand, &seen), p.changed(&cand, &seen));
            }
        }
        agree(Portable);
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: checked just above.
                agree(unsafe { Avx2::new() });
                if std::arch::is_x86_feature_detected!("bmi2") {
                    // SAFETY: checked just above.
                    agree(unsafe { Pext::new() });
                }
                if super::super::Kernel::Avx512.runs_here() {
                    // SAFETY: checked just above (AVX2, BMI2 and AVX-512 F, BW, VL among them).
                    agree(unsafe { Avx512::new() });
                }
            }
        }
    }
}
