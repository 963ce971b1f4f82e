//! The exact size of an encoding without building it ([`SizeEstimate`]), and the worst case
//! of a side ([`worst_case`]), for the memory check before encoding.

use super::*;

/// A sink that keeps nothing: it only numbers variables (with [`Counting`] around it, clauses
/// and literals are counted too). For [`SizeEstimate`].
pub(super) struct Tally {
    pub(super) n_vars: u32,
}

impl ClauseSink for Tally {
    crate::sat::numbered_vars!();
    fn add_clause(&mut self, lits: &[Lit]) {
        self.reserve_vars_of(lits);
    }
}

/// Runs `f` on a [`Builder`] over a [`Tally`] whose first `vars` variables exist, and returns
/// the variables, clauses and literals it added.
pub(super) fn tally(amo: Amo, vars: u32, f: impl FnOnce(&mut Builder<'_, Tally>)) -> PartStats {
    let mut sink = Tally { n_vars: vars };
    let mut b = Builder::over(&mut sink, amo, vars);
    f(&mut b);
    let (clauses, lits) = (b.out.clauses, b.out.lits);
    PartStats {
        vars: (sink.n_vars - vars) as u64,
        clauses,
        lits,
    }
}

/// Size of an at-most-one over `k` literals.
pub(super) fn amo_size(amo: Amo, k: usize) -> PartStats {
    let amo = match amo {
        Amo::Auto if k <= AUTO_PAIRWISE_MAX => Amo::Pairwise,
        Amo::Auto => Amo::Ladder,
        a => a,
    };
    let k64 = k as u64;
    if k <= 1 {
        PartStats::default()
    } else if amo == Amo::Pairwise {
        PartStats {
            vars: 0,
            clauses: k64 * (k64 - 1) / 2,
            lits: k64 * (k64 - 1),
        }
    } else {
        tally(amo, k as u32, |b| {
            b.buf = (0..k as u32).map(|v| Var::new(v).pos_lit()).collect();
            b.amo_lits();
        })
    }
}

pub(super) fn add(a: PartStats, b: PartStats) -> PartStats {
    PartStats {
        vars: a.vars + b.vars,
        clauses: a.clauses + b.clauses,
        lits: a.lits + b.lits,
    }
}

pub(super) fn times(a: PartStats, m: u64) -> PartStats {
    PartStats {
        vars: a.vars * m,
        clauses: a.clauses * m,
        lits: a.lits * m,
    }
}

/// The at-most-one constraints of a part, by size: what [`Builder::amo`] makes of them under any
/// [`Amo`].
#[derive(Debug, Clone, Default)]
pub(super) struct AmoGroups {
    /// Clauses that are not at-most-ones proper: units (a group with one true value) and empty
    /// clauses (two true values).
    pub(super) plain: PartStats,
    /// `sizes[k]`: groups of `k` free literals and no true value.
    pub(super) sizes: Vec<u64>,
}

impl AmoGroups {
    /// A group of `trues` true values and `k` free literals.
    pub(super) fn add(&mut self, trues: u32, k: u32) {
        match trues {
            0 => {
                let k = k as usize;
                if k >= self.sizes.len() {
                    self.sizes.resize(k + 1, 0);
                }
                self.sizes[k] += 1;
            }
            1 => {
                self.plain.clauses += k as u64;
                self.plain.lits += k as u64;
            }
            _ => self.plain.clauses += 1,
        }
    }
    pub(super) fn size(&self, amo: Amo) -> PartStats {
        let mut s = self.plain;
        for (k, &m) in self.sizes.iter().enumerate() {
            if m > 0 {
                s = add(s, times(amo_size(amo, k), m));
            }
        }
        s
    }
}

/// Calls its second argument with each free digit (0-based) of a cell.
pub(super) type ForFree<'a> = dyn Fn(usize, &mut dyn FnMut(usize)) + 'a;

/// One clause of `k` free literals unless a value is true (what [`Builder::alo`] makes).
pub(super) fn alo_size(s: &mut PartStats, trues: u32, k: u32) {
    if trues == 0 {
        s.clauses += 1;
        s.lits += k as u64;
    }
}

/// The size of the formula [`encode`] would build for a puzzle, found without building it: from
/// the candidates the encoder would leave free, the sizes of its at-most-one groups and
/// at-least-one clauses (in time proportional to the free cell variables, with memory
/// proportional to the cells), so that a formula too large for memory can be refused before
/// anything large is allocated. Exact for every part (the at-most-one encodings and Killer cages
/// are run into a sink that keeps nothing), but for the empty clause of a contradiction.
///
/// One estimate serves the encoding it was made for and every lighter one
/// ([`Encoding::ALL`] order), under any at-most-one encoding.
#[derive(Debug, Clone)]
pub struct SizeEstimate {
    pub(super) n: usize,
    /// Cell variables left free (those the compact numbering numbers).
    pub(super) free_vars: u64,
    pub(super) encoding: Encoding,
    pub(super) givens: PartStats,
    pub(super) cell_alo: PartStats,
    pub(super) cell_amo: AmoGroups,
    pub(super) house_amo: AmoGroups,
    pub(super) house_alo: PartStats,
    /// The triads' own variables and clauses, then their at-most-ones.
    pub(super) triad: PartStats,
    pub(super) triad_amo: AmoGroups,
    /// Killer cages (and those set equivalence implies on boxless Killers, which the encoder
    /// adds) under each of [`Amo::ALL`]; `None` for one not estimated
    /// ([`SizeEstimate::for_amos`]).
    pub(super) cages: Vec<Option<PartStats>>,
}

impl SizeEstimate {
    /// The estimate under every at-most-one encoding.
    pub fn new(puzzle: &Puzzle, opts: &EncodeOptions) -> SizeEstimate {
        Self::for_amos(puzzle, opts, &Amo::ALL)
    }

    /// The estimate whose Killer cages are counted under the at-most-one encodings `amos` only:
    /// cages are counted by encoding them, once per at-most-one, so on a 9×9 Killer an estimate
    /// under all of them costs more than the solve. [`SizeEstimate::stats`] under another
    /// at-most-one panics, unless the puzzle has no cages.
    pub fn for_amos(puzzle: &Puzzle, opts: &EncodeOptions, amos: &[Amo]) -> SizeEstimate {
        let shape = puzzle.shape();
        let n = shape.size();
        let cands = opts.simplify.then(|| {
            let level = if opts.propagate {
                Level::Locked
            } else {
                Level::Givens
            };
            Candidates::new(puzzle, level)
        });
        // A cell's fixed digit (0 for none) and its free digits.
        let fixed = |c: usize| cands.as_ref().map_or(0, |m| m.fixed()[c]);
        let for_free = |c: usize, f: &mut dyn FnMut(usize)| match &cands {
            Some(m) if m.fixed()[c] == 0 => m.digits(c).for_each(|d| f(d as usize - 1)),
            Some(_) => {}
            None => (0..n).for_each(f),
        };
        let free_count = |c: usize| match &cands {
            Some(m) if m.fixed()[c] == 0 => m.count(c),
            Some(_) => 0,
            None => n as u32,
        };
        let mut e = SizeEstimate {
            n,
            free_vars: 0,
            encoding: opts.encoding,
            givens: PartStats::default(),
            cell_alo: PartStats::default(),
            cell_amo: AmoGroups::default(),
            house_amo: AmoGroups::default(),
            house_alo: PartStats::default(),
            triad: PartStats::default(),
            triad_amo: AmoGroups::default(),
            cages: Vec::new(),
        };
        if !opts.simplify {
            let givens = puzzle.givens().iter().filter(|&&g| g != 0).count() as u64;
            e.givens = PartStats {
                vars: 0,
                clauses: givens,
                lits: givens,
            };
        }
        for c in 0..n * n {
            let k = free_count(c);
            let t = u32::from(fixed(c) != 0);
            e.free_vars += k as u64;
            alo_size(&mut e.cell_alo, t, k);
            e.cell_amo.add(t, k);
        }
        let (mut k, mut t) = (vec![0u32; n], vec![0u32; n]);
        for h in shape.houses() {
            k.iter_mut().for_each(|x| *x = 0);
            t.iter_mut().for_each(|x| *x = 0);
            for &c in h {
                match fixed(c as usize) {
                    0 => for_free(c as usize, &mut |d| k[d] += 1),
                    v => t[v as usize - 1] += 1,
                }
            }
            for d in 0..n {
                e.house_amo.add(t[d], k[d]);
                alo_size(&mut e.house_alo, t[d], k[d]);
            }
        }
        if opts.encoding == Encoding::Triad {
            e.estimate_triads(puzzle, &fixed, &for_free);
        }
        // Cages, the implied ones of boxless Killers too: their real encoding, into a sink that
        // keeps nothing.
        let no_cages = puzzle.cages().next().is_none();
        let implied: Vec<Cage> = if no_cages {
            vec![]
        } else {
            let domains: Vec<u64> = (0..n * n)
                .map(|c| match fixed(c) {
                    0 => {
                        let mut m = 0;
                        for_free(c, &mut |d| m |= 1 << d);
                        m
                    }
                    v => 1 << (v - 1),
                })
                .collect();
            implied_cages(shape, puzzle.cages(), &domains)
                .into_iter()
                .map(|i| Cage::new(i.cells, i.sum))
                .collect()
        };
        e.cages = Amo::ALL
            .iter()
            .map(|&amo| {
                if no_cages {
                    return Some(PartStats::default());
                }
                if !amos.contains(&amo) {
                    return None;
                }
                let mut total = PartStats::default();
                for cage in puzzle.cages().chain(&implied) {
                    let mut var = std::collections::HashMap::new();
                    for &c in cage.cells() {
                        for_free(c as usize, &mut |d| {
                            let v = var.len() as u32;
                            var.insert((c as usize, d), v);
                        });
                    }
                    let val = |c: usize, d: usize| -> Val {
                        match (fixed(c), var.get(&(c, d))) {
                            (0, Some(&v)) => Val::Lit(Var::new(v).pos_lit()),
                            (v, _) if v as usize == d + 1 => Val::True,
                            _ => Val::False,
                        }
                    };
                    let s = tally(amo, var.len() as u32, |b| {
                        encode_cage(cage, n, opts.cage, &val, b)
                    });
                    total = add(total, s);
                }
                Some(total)
            })
            .collect();
        e
    }

    /// The triads' variables and clauses (see [`encode_triads`]), counted per segment.
    pub(super) fn estimate_triads(
        &mut self,
        puzzle: &Puzzle,
        fixed: &dyn Fn(usize) -> Value,
        for_free: &ForFree<'_>,
    ) {
        let shape = puzzle.shape();
        let n = shape.size();
        let mut reg_lits = vec![0u32; n * n];
        let mut reg_true = vec![0u32; n * n];
        let (mut line_lits, mut line_true) = (vec![0u32; n], vec![0u32; n]);
        let (mut seg_lits, mut seg_true) = (vec![0u32; n], vec![0u32; n]);
        let mut stamp = vec![usize::MAX; n];
        let mut touched = Vec::with_capacity(n);
        let mut segment = 0usize;
        for dir in 0..2 {
            reg_lits.iter_mut().for_each(|x| *x = 0);
            reg_true.iter_mut().for_each(|x| *x = 0);
            for line in 0..n {
                line_lits.iter_mut().for_each(|x| *x = 0);
                line_true.iter_mut().for_each(|x| *x = 0);
                let mut cells: Vec<(usize, usize)> = shape
                    .house(dir * n + line)
                    .iter()
                    .map(|&c| (shape.region_of(c as usize), c as usize))
                    .collect();
                cells.sort_by_key(|&(r, _)| r);
                for seg in cells.chunk_by(|a, b| a.0 == b.0) {
                    let r = seg[0].0;
                    segment += 1;
                    touched.clear();
                    let mut touch = |d: usize, is_true: bool| {
                        if stamp[d] != segment {
                            stamp[d] = segment;
                            seg_lits[d] = 0;
                            seg_true[d] = 0;
                            touched.push(d);
                        }
                        if is_true {
                            seg_true[d] += 1;
                        } else {
                            seg_lits[d] += 1;
                        }
                    };
                    for &(_, c) in seg {
                        match fixed(c) {
                            0 => for_free(c, &mut |d| touch(d, false)),
                            v => touch(v as usize - 1, true),
                        }
                    }
                    for &d in &touched {
                        let m = seg_lits[d] as u64;
                        if seg_true[d] > 0 {
                            line_true[d] += 1;
                            reg_true[r * n + d] += 1;
                            continue;
                        }
                        if m >= 2 {
                            // A new variable, m binary clauses and one of m + 1 literals.
                            self.triad.vars += 1;
                            self.triad.clauses += m + 1;
                            self.triad.lits += 3 * m + 1;
                        }
                        line_lits[d] += 1;
                        reg_lits[r * n + d] += 1;
                    }
                }
                for d in 0..n {
                    alo_size(&mut self.triad, line_true[d], line_lits[d]);
                    self.triad_amo.add(line_true[d], line_lits[d]);
                }
            }
            for i in 0..n * n {
                alo_size(&mut self.triad, reg_true[i], reg_lits[i]);
                self.triad_amo.add(reg_true[i], reg_lits[i]);
            }
        }
    }

    /// Cell variables left free.
    pub fn free_vars(&self) -> u64 {
        self.free_vars
    }

    /// Side of the grid.
    pub fn size(&self) -> usize {
        self.n
    }

    /// The size of the formula under `encoding` (the estimate's own or a lighter one: a heavier
    /// one counts only the parts the estimate has) and `amo`, in `numbering`.
    pub fn stats(&self, encoding: Encoding, amo: Amo, numbering: Numbering) -> PartStats {
        let n = self.n as u64;
        let cell_vars = match numbering {
            Numbering::Formula => n * n * n,
            Numbering::Compact => self.free_vars,
        };
        let mut s = PartStats {
            vars: cell_vars,
            clauses: 0,
            lits: 0,
        };
        s = add(s, self.givens);
        s = add(s, self.cell_alo);
        if encoding != Encoding::Minimal {
            s = add(s, self.cell_amo.size(amo));
        }
        s = add(s, self.house_amo.size(amo));
        if matches!(encoding, Encoding::Extended | Encoding::Triad) {
            s = add(s, self.house_alo);
        }
        if encoding == Encoding::Triad && self.encoding == Encoding::Triad {
            s = add(s, self.triad);
            s = add(s, self.triad_amo.size(amo));
        }
        let i = Amo::ALL.iter().position(|&a| a == amo).unwrap_or(0);
        let cages = self.cages.get(i).copied().flatten();
        add(
            s,
            cages
                .expect("SizeEstimate::stats: the cages were not estimated under this at-most-one"),
        )
    }

    /// The encoding the estimate was made for.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }
}

/// An upper bound on the size of any formula [`encode`] builds for a grid of side `n` with
/// `houses` houses and no Killer cage (every cell variable free), computed in constant time:
/// callers skip [`SizeEstimate`] when this already fits. `None` for [`Encoding::Triad`].
pub fn worst_case(n: usize, houses: usize, encoding: Encoding, amo: Amo) -> Option<PartStats> {
    if encoding == Encoding::Triad {
        return None;
    }
    let (n64, h64) = (n as u64, houses as u64);
    let mut groups = AmoGroups {
        sizes: vec![0; n + 1],
        ..Default::default()
    };
    groups.sizes[n] = h64 * n64
        + if encoding == Encoding::Minimal {
            0
        } else {
            n64 * n64
        };
    let alo = PartStats {
        vars: 0,
        clauses: n64 * n64 + h64 * n64,
        lits: n64 * n64 * n64 + h64 * n64 * n64,
    };
    Some(add(
        add(
            PartStats {
                vars: n64 * n64 * n64,
                // Givens as unit clauses, without simplification.
                clauses: n64 * n64,
                lits: n64 * n64,
            },
            alo,
        ),
        groups.size(amo),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::read_puzzles;

    fn puzzles() -> Vec<Puzzle> {
        // An empty 16×16 and a 16×16 with a few givens.
        let mut some: Vec<u8> = vec![b'.'; 256];
        for (i, c) in [(0, b'1'), (17, b'2'), (40, b'G'), (200, b'9'), (255, b'3')] {
            some[i] = c;
        }
        let sixteen = format!(
            "{}\n{}\n",
            ".".repeat(256),
            std::str::from_utf8(&some).unwrap()
        );
        [
            include_str!("../../../tests/data/formats/killer.txt"),
            include_str!("../../../tests/data/formats/line_jigsaw.txt"),
            include_str!("../../../tests/data/empty9.txt"),
            &sixteen,
            // The encoder adds the cages set equivalence implies here.
            include_str!("../../../tests/data/formats/killer_boxless.txt"),
        ]
        .iter()
        .flat_map(|text| read_puzzles(text, &Default::default()))
        .map(|e| e.unwrap().puzzle)
        .collect()
    }

    #[test]
    fn the_estimate_is_the_size_of_the_formula() {
        for (i, p) in puzzles().iter().enumerate() {
            for encoding in Encoding::ALL {
                for amo in Amo::ALL {
                    for (simplify, propagate) in [(true, true), (true, false), (false, false)] {
                        for cage in CageEncoding::ALL {
                            // Every cage encoding, but under one at-most-one and one simplification.
                            if cage != CageEncoding::Combinations
                                && (p.cages().next().is_none() || amo != Amo::Auto || !propagate)
                            {
                                continue;
                            }
                            let opts = EncodeOptions {
                                encoding,
                                amo,
                                simplify,
                                propagate,
                                probe: false,
                                cage,
                                pair: PairEncoding::Direct,
                                sum: SumEncoding::Auto,
                            };
                            let est = SizeEstimate::new(p, &opts);
                            for numbering in [Numbering::Compact, Numbering::Formula] {
                                let mut cnf = Cnf::new();
                                let enc = encode(p, &opts, numbering, &mut cnf);
                                let mut real = enc.stats.total();
                                if real.vars == 0 {
                                    real.vars = cnf.n_vars() as u64;
                                }
                                assert_eq!(
                                    est.stats(encoding, amo, numbering),
                                    real,
                                    "puzzle {i}, {opts:?}, {numbering:?}"
                                );
                                // Lighter encodings from the same estimate.
                                for lighter in Encoding::ALL {
                                    if lighter as usize >= encoding as usize {
                                        break;
                                    }
                                    let o = EncodeOptions {
                                        encoding: lighter,
                                        ..opts
                                    };
                                    let mut cnf = Cnf::new();
                                    let enc = encode(p, &o, numbering, &mut cnf);
                                    assert_eq!(
                                        est.stats(lighter, amo, numbering),
                                        enc.stats.total(),
                                        "puzzle {i}, {o:?} from {encoding}, {numbering:?}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn an_estimate_under_one_at_most_one_is_the_full_one_there() {
        for p in puzzles() {
            for amo in Amo::ALL {
                let opts = EncodeOptions {
                    amo,
                    ..Default::default()
                };
                let one = SizeEstimate::for_amos(&p, &opts, &[amo]);
                let all = SizeEstimate::new(&p, &opts);
                for numbering in [Numbering::Compact, Numbering::Formula] {
                    assert_eq!(
                        one.stats(opts.encoding, amo, numbering),
                        all.stats(opts.encoding, amo, numbering)
                    );
                }
                // The cages were encoded under `amo` alone.
                let counted = one.cages.iter().filter(|c| c.is_some()).count();
                let expected = if p.cages().next().is_some() {
                    1
                } else {
                    Amo::ALL.len()
                };
                assert_eq!(counted, expected);
            }
        }
    }
}
