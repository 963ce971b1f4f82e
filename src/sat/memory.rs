//! The memory limit of a formula: how many bytes a puzzle's CNF takes in the solver or file
//! that holds it, from the exact sizes of [`super::encode::SizeEstimate`], and the refusal (with
//! advice) of a puzzle over the budget, before anything large is allocated.

use super::encode::{self, Amo, Encoding, Numbering, PartStats};
use super::options::SatOptions;
use crate::answer::BackendError;
use crate::model::Puzzle;

/// Who holds a formula, for the memory estimate of [`check_memory`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    /// varisat, in process (`sat`).
    Varisat,
    /// CaDiCaL, in process (`cadical`).
    Cadical,
    /// A [`Cnf`](super::Cnf) written out for an external solver (`sat-ext`), in the formula
    /// numbering.
    Cnf,
    /// A [`Cnf`](super::Cnf) exported as text (`encode`): the formula and its DIMACS text,
    /// nothing solving it.
    Export,
}

impl Holder {
    fn numbering(self) -> Numbering {
        match self {
            Holder::Cnf | Holder::Export => Numbering::Formula,
            _ => Numbering::Compact,
        }
    }
}

/// Bytes of memory a formula of size `s` takes in `holder`, with what the encoder holds while
/// it builds it (a state per cell variable, the decoder) and, with a proof to write, the
/// recorded copy of the formula.
///
/// The per-item costs were fitted on the peak resident memory of `sat` runs (varisat 0.2.2, a
/// few seconds each) over empty grids of 16×16 to 100×100 under every encoding and at-most-one
/// encoding, and over the large benchmark grids: about 250 bytes per variable (watch lists,
/// assignment, heuristics), 16 per clause and 4 per literal, within about 25 % of the measured
/// peaks (over rather than under on the largest). CaDiCaL's are from its data structures
/// (a clause header and two watches per clause, binary ones included), not measured; a
/// [`Cnf`](super::Cnf) holds 4 bytes per literal and 8 per clause, doubled for the growth of its
/// vectors; an export adds its DIMACS text, estimated from the widest variable numbers, not
/// measured.
fn formula_bytes(holder: Holder, n: usize, free_vars: u64, s: PartStats, proof: bool) -> f64 {
    let n = n as f64;
    let (v, c, l) = (s.vars as f64, s.clauses as f64, s.lits as f64);
    let encoder = 4.0 * n * n * n + 8.0 * free_vars as f64 + 12.0 * n * n;
    let cnf = 16.0 * c + 8.0 * l;
    encoder
        + match holder {
            Holder::Varisat => 250.0 * v + 16.0 * c + 4.0 * l,
            Holder::Cadical => 150.0 * v + 64.0 * c + 4.0 * l,
            Holder::Cnf => cnf,
            // About 9 bytes of text per literal (up to 8 digits and a space), 3 per clause end.
            Holder::Export => cnf + 9.0 * l + 3.0 * c,
        }
        + if proof && matches!(holder, Holder::Varisat | Holder::Cadical) {
            cnf
        } else {
            0.0
        }
}

fn mib(bytes: f64) -> u64 {
    (bytes / (1u64 << 20) as f64).ceil() as u64
}

/// Refuses (with [`BackendError::Unsupported`]) a puzzle whose formula, under the encoding of
/// `opts`, would take more than `opts.memory_limit` bytes in `holder` (times `copies`, for
/// raced solvers), before anything large is allocated: the size comes from
/// [`encode::SizeEstimate`], in time proportional to the free cell variables (well under a
/// second on an empty 400×400). The message gives the formula's size, the memory it needs, the
/// budget, and what to try instead: a lighter at-most-one or encoding that fits, `dlx` when its
/// matrix would fit its default budget, or the budget it would take.
pub fn check_memory(
    puzzle: &Puzzle,
    opts: &SatOptions,
    holder: Holder,
    copies: usize,
    name: &str,
) -> Result<(), BackendError> {
    let n = puzzle.size();
    let budget = opts.memory_limit as f64;
    let copies = copies.max(1) as f64;
    let proof = opts.proof.is_some();
    let numbering = holder.numbering();
    let bytes =
        |free_vars: u64, s: PartStats| copies * formula_bytes(holder, n, free_vars, s, proof);
    // Small grids without cages fit whatever their givens: skip the estimate.
    if puzzle.cages().next().is_none() {
        let houses = puzzle.shape().house_count();
        if let Some(s) = encode::worst_case(n, houses, opts.encoding, opts.amo) {
            if bytes((n * n * n) as u64, s) <= budget {
                return Ok(());
            }
        }
    }
    // The cages under the chosen at-most-one first: the others only for the advice.
    let est = encode::SizeEstimate::for_amos(puzzle, &opts.encode_options(), &[opts.amo]);
    let free = est.free_vars();
    let s = est.stats(opts.encoding, opts.amo, numbering);
    let need = bytes(free, s);
    if need <= budget {
        return Ok(());
    }
    // Refused: the estimate under every at-most-one, for the advice.
    let est = encode::SizeEstimate::new(puzzle, &opts.encode_options());
    // Something lighter that fits: another at-most-one encoding first, then lighter encodings.
    let mut lighter = None;
    for encoding in Encoding::ALL.iter().rev() {
        if *encoding as usize > opts.encoding as usize {
            continue;
        }
        let best = Amo::ALL
            .iter()
            .filter(|&&amo| (*encoding, amo) != (opts.encoding, opts.amo))
            .map(|&amo| (amo, bytes(free, est.stats(*encoding, amo, numbering))))
            .filter(|&(_, b)| b <= budget)
            .min_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((amo, b)) = best {
            lighter = Some((*encoding, amo, b));
            break;
        }
    }
    let advice = match lighter {
        Some((encoding, amo, b)) if encoding == opts.encoding => {
            format!("try --amo {amo} (about {} MiB)", mib(b))
        }
        Some((encoding, amo, b)) => {
            format!(
                "try --encoding {encoding} --amo {amo} (about {} MiB)",
                mib(b)
            )
        }
        None => {
            // dlx's matrix: a row per free cell variable, a node per cell and house in it.
            let shape = puzzle.shape();
            let per_row = 1 + shape.house_count() * n / (n * n).max(1);
            let columns = n * n + shape.house_count() * n;
            let f = free as usize;
            let dlx = crate::exact_cover::ExactCover::bytes_needed(columns, f, f * per_row)
                .saturating_add(f * 8) as f64;
            if holder != Holder::Export
                && puzzle.cages().next().is_none()
                && dlx <= crate::exact_cover::DEFAULT_MEMORY_LIMIT as f64
            {
                format!(
                    "no encoding fits; try --backend dlx (about {} MiB), or a larger \
                     --sat-memory-mib",
                    mib(dlx)
                )
            } else {
                format!(
                    "no encoding fits; it would take --sat-memory-mib {}",
                    mib(need)
                )
            }
        }
    };
    Err(BackendError::Unsupported(format!(
        "{name}: the CNF of this {n}×{n} puzzle ({} encoding, at-most-one {}: {} variables, {} \
         clauses, {} literals) needs about {} MiB{}, over the {} MiB memory limit \
         (--sat-memory-mib); {advice}",
        opts.encoding,
        opts.amo,
        s.vars,
        s.clauses,
        s.lits,
        mib(need),
        if copies > 1.0 {
            format!(" for {copies} racing solvers")
        } else {
            String::new()
        },
        opts.memory_limit >> 20
    )))
}
