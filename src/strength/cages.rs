//! Killer cage-sum encodings against generalised arc consistency (GAC): for each cage, whether
//! unit propagation on its clauses removes every digit that no solution of the cage alone allows.
//!
//! A cage alone is "its cells hold distinct digits adding up to its sum", over each cell's
//! candidates. Per cage, [`Tally::add_puzzle`] computes:
//! - the GAC candidates: the digits some assignment of the cage alone uses, found exactly by
//!   enumerating every assignment over the candidates;
//! - for each `--cage-encoding`, the candidates unit propagation leaves on the cage's clauses
//!   ([`crate::sat::encode::encode_cage_alone`]: the open cells' exactly-one clauses and the
//!   cage's clauses as the `sat` backend writes them, the candidates simplified in as units), by
//!   the engine of [`super::cnf`];
//! - for each `--cp-alldiff` level, the domains the `cp` backend's solver holds at the root of the
//!   cage alone (its all-different and its sum, as [`crate::cp::CpModel`] posts them, through
//!   [`crate::cp::huub::root_propagation`]).
//!
//! Every method is sound, so it keeps at least the GAC candidates; it *reaches GAC* on a cage when
//! it keeps no more. [`Tally`] adds up, per method, the cages where it does and the digits it
//! keeps beyond GAC. The candidates come from the puzzle's givens ([`Level::Givens`]: each given's
//! digit removed from its peers), after revealing a share of the solution's cells as givens
//! ([`reveal`]), since a Killer usually has no givens and its cages then start full.

use crate::cp::AllDiffLevel;
use crate::model::{Cage, Puzzle, Value};
use crate::propagate::{Candidates, Level};
use crate::rng::GenRng;
use crate::sat::encode::{encode_cage_alone, CageEncoding};
use crate::sat::Cnf;

use super::cnf::Propagator;
use super::StrengthError;

/// A way of propagating one cage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Unit propagation on the cage's clauses under this encoding.
    Up(CageEncoding),
    /// The `cp` backend's root propagation under this all-different level.
    Cp(AllDiffLevel),
}

impl Method {
    /// The four encodings, then the three all-different levels.
    pub fn all() -> Vec<Method> {
        let up = CageEncoding::ALL.into_iter().map(Method::Up);
        up.chain(AllDiffLevel::ALL.into_iter().map(Method::Cp))
            .collect()
    }

    pub fn name(self) -> String {
        match self {
            Method::Up(e) => format!("up {}", e.name()),
            Method::Cp(l) => format!("cp-{}", l.name()),
        }
    }
}

/// Per method, over many cages: how many reached GAC and how many digits were kept beyond it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    /// Cages compared.
    pub cages: usize,
    /// Digits in the cages' candidates before propagation, and those GAC keeps.
    pub before: u64,
    pub gac: u64,
    /// Per method (in the order given to [`Tally::new`]): cages where it reached GAC, digits it
    /// kept beyond GAC.
    pub rows: Vec<(Method, usize, u64)>,
}

impl Tally {
    pub fn new(methods: &[Method]) -> Tally {
        Tally {
            cages: 0,
            before: 0,
            gac: 0,
            rows: methods.iter().map(|&m| (m, 0, 0)).collect(),
        }
    }

    /// Share of the cages where `rows[i]`'s method reached GAC, in percent.
    pub fn at_gac_pct(&self, i: usize) -> f64 {
        100.0 * self.rows[i].1 as f64 / self.cages.max(1) as f64
    }

    /// Mean digits per cage the method `rows[i]` keeps beyond GAC.
    pub fn missed_per_cage(&self, i: usize) -> f64 {
        self.rows[i].2 as f64 / self.cages.max(1) as f64
    }

    /// Adds every cage of `puzzle`, its candidates from its givens.
    pub fn add_puzzle(&mut self, puzzle: &Puzzle) -> Result<(), StrengthError> {
        let n = puzzle.size();
        if n > 64 {
            return Err(StrengthError::CageSide(n));
        }
        let found = Candidates::new(puzzle, Level::Givens);
        if let Some(why) = found.contradiction() {
            return Err(StrengthError::Contradiction(why.to_string()));
        }
        let mask = |c: u32| match found.fixed()[c as usize] {
            0 => found.digits(c as usize).fold(0, |m, d| m | 1u64 << (d - 1)),
            d => 1u64 << (d - 1),
        };
        for cage in puzzle.cages() {
            let domains: Vec<u64> = cage.cells().iter().map(|&c| mask(c)).collect();
            let gac = gac(cage, &domains);
            let count = |ms: &[u64]| ms.iter().map(|m| m.count_ones() as u64).sum::<u64>();
            self.cages += 1;
            self.before += count(&domains);
            self.gac += count(&gac);
            for row in &mut self.rows {
                let kept = propagate(row.0, cage, n, &domains)?;
                debug_assert!(kept.iter().zip(&gac).all(|(k, g)| g & !k == 0));
                let extra = count(&kept) - count(&gac);
                row.1 += usize::from(extra == 0);
                row.2 += extra;
            }
        }
        Ok(())
    }
}

/// `puzzle` with about `percent` % of `solution`'s open cells given as well (each cell drawn
/// independently from `seed`).
pub fn reveal(puzzle: &Puzzle, solution: &[Value], percent: u32, seed: u64) -> Puzzle {
    let mut rng = GenRng::seed(seed);
    let givens: Vec<Value> = puzzle
        .givens()
        .iter()
        .zip(solution)
        .map(|(&g, &s)| match g {
            0 if rng.below(100) < percent as usize => s,
            g => g,
        })
        .collect();
    let mut revealed =
        Puzzle::new(puzzle.shape_arc().clone(), givens).expect("a solution's digits fit the shape");
    revealed = revealed
        .with_constraints(puzzle.constraints().to_vec())
        .expect("the puzzle's own constraints");
    revealed
}

/// The GAC candidates of `cage` alone over `domains` (its cells' candidates, in its order): the
/// digits some assignment of distinct digits from the candidates, adding up to the sum, uses;
/// all empty when there is none.
pub fn gac(cage: &Cage, domains: &[u64]) -> Vec<u64> {
    fn go(domains: &[u64], i: usize, used: u64, left: i64, path: &mut Vec<u64>, out: &mut [u64]) {
        if i == domains.len() {
            if left == 0 {
                for (o, &p) in out.iter_mut().zip(path.iter()) {
                    *o |= p;
                }
            }
            return;
        }
        let mut free = domains[i] & !used;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            let d = bit.trailing_zeros() as i64 + 1;
            if d > left {
                break;
            }
            path.push(bit);
            go(domains, i + 1, used | bit, left - d, path, out);
            path.pop();
        }
    }
    let mut out = vec![0u64; domains.len()];
    go(domains, 0, 0, cage.sum() as i64, &mut vec![], &mut out);
    out
}

/// The candidates `method` leaves on `cage` alone over `domains` (all empty on a conflict).
fn propagate(
    method: Method,
    cage: &Cage,
    n: usize,
    domains: &[u64],
) -> Result<Vec<u64>, StrengthError> {
    match method {
        Method::Up(how) => {
            let mut cnf = Cnf::new();
            let vars = encode_cage_alone(cage, n, how, domains, &mut cnf);
            let mut up = Propagator::new();
            up.load(&cnf);
            if up.conflict() {
                return Ok(vec![0; domains.len()]);
            }
            Ok(vars
                .iter()
                .zip(domains)
                .map(|(cell, &m)| match cell.is_empty() {
                    true => m,
                    false => cell
                        .iter()
                        .filter(|(v, _)| up.value(v.idx()) != Some(false))
                        .fold(0, |m, &(_, d)| m | 1 << (d - 1)),
                })
                .collect())
        }
        Method::Cp(level) => cp_cage(cage, n, domains, level),
    }
}

#[cfg(feature = "cp")]
fn cp_cage(
    cage: &Cage,
    n: usize,
    domains: &[u64],
    level: AllDiffLevel,
) -> Result<Vec<u64>, StrengthError> {
    use crate::cp::huub::{root_propagation, Stop};
    use crate::cp::model::{AllDifferent, LinearSum, Origin, Root};
    use crate::cp::{CpModel, CpOptions};
    let k = domains.len();
    let cells: Vec<u32> = (0..k as u32).collect();
    let model = CpModel {
        n,
        givens: domains
            .iter()
            .map(|&m| match m.count_ones() {
                1 => m.trailing_zeros() as u16 + 1,
                _ => 0,
            })
            .collect(),
        all_different: match k {
            1 => vec![],
            _ => vec![AllDifferent {
                cells: cells.clone(),
                full: k == n,
                origin: Origin::Cage(0),
            }],
        },
        sums: vec![LinearSum {
            cells,
            sum: cage.sum() as i64,
            origin: Origin::Cage(0),
        }],
        pairs: vec![],
        tables: vec![],
        weighted: vec![],
        sandwiches: vec![],
        parity: vec![],
        extra: Default::default(),
        objective: None,
        root: Root::Masks(domains.iter().map(|&m| u128::from(m)).collect()),
    };
    let options = CpOptions {
        alldiff: level,
        allow_unsound: true,
        ..CpOptions::default()
    };
    match root_propagation(&model, &options) {
        Ok(Some(masks)) => Ok(masks.into_iter().map(|m| m as u64).collect()),
        Ok(None) => Ok(vec![0; k]),
        Err(Stop::Unsupported(why)) => Err(StrengthError::Refused(why)),
        Err(Stop::Deadline) => Err(StrengthError::Deadline),
    }
}

#[cfg(not(feature = "cp"))]
fn cp_cage(_: &Cage, _: usize, _: &[u64], _: AllDiffLevel) -> Result<Vec<u64>, StrengthError> {
    Err(StrengthError::NoCp("methods"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gac_by_enumeration() {
        let full = (1u64 << 9) - 1;
        // Two cells adding up to 3: {1, 2} in either order.
        assert_eq!(gac(&Cage::new(vec![0, 1], 3), &[full, full]), [0b11, 0b11]);
        // Three cells to 24: {7, 8, 9}; with 9 out of the first cell, still 7 or 8 there.
        let cage = Cage::new(vec![0, 1, 2], 24);
        assert_eq!(gac(&cage, &[full, full, full]), [0x1c0; 3]);
        assert_eq!(
            gac(&cage, &[0xc0, full, full]),
            [0xc0, 0x1c0, 0x1c0],
            "7 or 8 first, the others take the rest"
        );
        // 1 + 2 fixed by the domains cannot reach 4.
        assert_eq!(gac(&Cage::new(vec![0, 1], 4), &[0b1, 0b10]), [0, 0]);
    }

    /// Two cells adding up to 3, and to 10, from full candidates: GAC keeps {1, 2}, and all but
    /// 5. The encodings' unit propagation does not always get there.
    #[test]
    fn what_each_method_keeps_on_small_cages() {
        let full = (1u64 << 9) - 1;
        let but_5 = full & !(1 << 4);
        let table = [
            // (sum, candidates kept per method in Method::all()'s order)
            (3, [0b11, 0b111, 0b111, full, 0b11, 0b11, 0b11]),
            // Only the combinations encoding removes the 5 that no pair adding up to 10 uses:
            // its clause "the cage holds 5 → a set with 5 is chosen" has no set, so it is the
            // unit "the cage does not hold 5". The sums' bounds keep it.
            (10, [but_5, full, full, full, full, full, full]),
        ];
        let methods = Method::all();
        for (sum, want) in table {
            let cage = Cage::new(vec![0, 1], sum);
            for (&m, want) in methods.iter().zip(want) {
                if matches!(m, Method::Cp(_)) && !cfg!(feature = "cp") {
                    continue;
                }
                let kept = propagate(m, &cage, 9, &[full, full]).unwrap();
                assert_eq!(kept, [want, want], "sum {sum}, {}", m.name());
            }
        }
        assert_eq!(gac(&Cage::new(vec![0, 1], 10), &[full, full]), [0x1ef; 2]);
        // Three cells to 8 are {1, 2, 5} or {1, 3, 4}: both hold 1, so with 1 out of the first
        // two cells the third is 1. The combinations encoding's clause "the cage does not hold
        // 1 → a set without 1 is chosen" has no set, so "the cage holds 1" is a unit.
        let cage = Cage::new(vec![0, 1, 2], 8);
        let domains = [full & !1, full & !1, full];
        let at_gac = gac(&cage, &domains);
        assert_eq!(at_gac, [0b11110, 0b11110, 0b1]);
        let up = Method::Up(CageEncoding::Combinations);
        assert_eq!(propagate(up, &cage, 9, &domains).unwrap(), at_gac);
        // A contradiction empties the cells.
        let cage = Cage::new(vec![0, 1], 4);
        let up = Method::Up(CageEncoding::Combinations);
        assert_eq!(propagate(up, &cage, 9, &[0b1, 0b10]).unwrap(), [0, 0]);
    }

    #[test]
    fn a_tally_counts_cages_and_digits() {
        let text = include_str!("../../benches/data/killer1000.txt");
        let e = crate::format::read_puzzles(
            text.lines().next().unwrap(),
            &crate::format::ReadOptions::default(),
        )
        .remove(0)
        .unwrap();
        let methods = [Method::Up(CageEncoding::Combinations)];
        let mut t = Tally::new(&methods);
        t.add_puzzle(&e.puzzle).unwrap();
        assert_eq!(t.cages, e.puzzle.cages().count());
        // No givens: every cell starts with 9 digits.
        assert_eq!(t.before, 81 * 9);
        assert!(t.gac < t.before);
        // On full cages the combinations encoding reaches GAC on every cage of this puzzle: a
        // digit in no set left is refuted by its support clause.
        assert_eq!((t.cages, t.rows[0].1, t.rows[0].2), (32, 32, 0));
    }
}
