//! Model-level deductions at the root: singles, locked candidates, `dfs`'s and `cp`'s root
//! propagation. Each [`ModelLevel`] is run on a puzzle with no search at all, and what it leaves
//! is read as each cell's candidates ([`candidates`]) or summed up as a [`Root`] ([`derive()`],
//! with no CNF variables).
//!
//! - `naked`, `hidden`, `locked`: the deductions of [`crate::propagate`] over the houses only
//!   (naked singles; naked and hidden singles; both and locked candidates, each to a fixpoint).
//!   Killer cages and variant rules are not seen.
//! - `dfs`: what the `dfs` backend's own propagation derives before its first branch, in the
//!   kernel its count uses ([`Dfs::root_candidates`]): on standard 9×9 grids without cages or
//!   rules the band kernel's (hidden singles, box–line interactions, naked singles and its
//!   minirow and minicolumn counts); elsewhere singles, cages, rules and locked candidates.
//! - `cp-value`, `cp-bounds`, `cp-domain`: what the `cp` backend's solver holds before its first
//!   decision under each `--cp-alldiff` level ([`crate::cp::huub::root_propagation`]): the model
//!   built exactly as the backend builds it (its root domains come from singles over the houses
//!   and the cages' sums, [`crate::cp::CpModel`]), huub's presolve, then unit propagation and
//!   huub's propagators to their fixpoint at decision level 0. `cp-domain` is unsound in huub
//!   100.1 ([`AllDiffLevel::unsound`]): a contradiction it reports may be wrong.
//!
//! Every level keeps every solution (the unsound one aside), so a cell it fixes is fixed in every
//! solution and a contradiction proves there is none.

use crate::backends::dfs::Dfs;
use crate::cp::AllDiffLevel;
use crate::model::Puzzle;
use crate::named::from_str_by_name;
use crate::propagate::{Candidates, Level};

use super::{Root, StrengthError};

/// A model-level propagation, run at the root only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelLevel {
    /// Naked singles to a fixpoint.
    Naked,
    /// Naked and hidden singles to a fixpoint.
    Hidden,
    /// Singles and locked candidates to a fixpoint.
    Locked,
    /// The `dfs` backend's propagation before its first branch.
    Dfs,
    /// The `cp` backend's solver at the root under this all-different level.
    Cp(AllDiffLevel),
}

impl ModelLevel {
    pub const ALL: [ModelLevel; 7] = [
        ModelLevel::Naked,
        ModelLevel::Hidden,
        ModelLevel::Locked,
        ModelLevel::Dfs,
        ModelLevel::Cp(AllDiffLevel::Value),
        ModelLevel::Cp(AllDiffLevel::Bounds),
        ModelLevel::Cp(AllDiffLevel::Domain),
    ];

    pub fn name(self) -> &'static str {
        match self {
            ModelLevel::Naked => "naked",
            ModelLevel::Hidden => "hidden",
            ModelLevel::Locked => "locked",
            ModelLevel::Dfs => "dfs",
            ModelLevel::Cp(AllDiffLevel::Value) => "cp-value",
            ModelLevel::Cp(AllDiffLevel::Bounds) => "cp-bounds",
            ModelLevel::Cp(AllDiffLevel::Domain) => "cp-domain",
        }
    }
}

from_str_by_name!(ModelLevel, "model level");

/// Largest side whose candidates [`candidates`] returns (one bit per digit in a `u128`).
pub const MAX_SIDE: usize = 128;

/// Each cell's candidates (row-major; bit `d − 1` for digit `d`, a fixed cell one bit) once
/// `level` has run on `puzzle` at the root; `Ok(None)` when it proves there is no solution. An
/// error when the level cannot run on the puzzle (a side over [`MAX_SIDE`], or over what the
/// backend takes; `cp` levels in a build without the `cp` feature).
pub fn candidates(puzzle: &Puzzle, level: ModelLevel) -> Result<Option<Vec<u128>>, StrengthError> {
    let n = puzzle.size();
    if n > MAX_SIDE {
        return Err(StrengthError::ModelSide(n));
    }
    let houses = |level: Level| {
        let found = Candidates::new(puzzle, level);
        found.contradiction().is_none().then(|| {
            (0..n * n)
                .map(|c| match found.fixed()[c] {
                    0 => found.digits(c).fold(0, |m, d| m | 1u128 << (d - 1)),
                    d => 1u128 << (d - 1),
                })
                .collect()
        })
    };
    match level {
        ModelLevel::Naked => Ok(houses(Level::Naked)),
        ModelLevel::Hidden => Ok(houses(Level::Singles)),
        ModelLevel::Locked => Ok(houses(Level::Locked)),
        ModelLevel::Dfs => Dfs::new()
            .root_candidates(puzzle)
            .map(|found| found.map(|masks| masks.into_iter().map(u128::from).collect()))
            .map_err(StrengthError::from),
        ModelLevel::Cp(alldiff) => cp_root(puzzle, alldiff),
    }
}

#[cfg(feature = "cp")]
fn cp_root(puzzle: &Puzzle, alldiff: AllDiffLevel) -> Result<Option<Vec<u128>>, StrengthError> {
    use crate::cp::huub::{self, Stop};
    use crate::cp::{CpModel, CpOptions, DEFAULT_MEMORY_MIB};
    let model = CpModel::of(puzzle);
    let options = CpOptions {
        alldiff,
        allow_unsound: true,
        ..CpOptions::default()
    };
    let need = huub::estimate_bytes(&model, &options);
    if need > DEFAULT_MEMORY_MIB << 20 {
        return Err(StrengthError::CpMemory {
            need_mib: need.div_ceil(1 << 20),
            limit_mib: DEFAULT_MEMORY_MIB,
        });
    }
    huub::root_propagation(&model, &options).map_err(|stop| match stop {
        Stop::Unsupported(why) => StrengthError::Refused(why),
        Stop::Deadline => StrengthError::Deadline,
    })
}

#[cfg(not(feature = "cp"))]
fn cp_root(_: &Puzzle, _: AllDiffLevel) -> Result<Option<Vec<u128>>, StrengthError> {
    Err(StrengthError::NoCp("levels"))
}

/// What `level` leaves at the root of `puzzle`, summed up ([`candidates`]).
pub fn derive(puzzle: &Puzzle, level: ModelLevel) -> Result<Root, StrengthError> {
    let open_cells = puzzle.givens().iter().filter(|&&g| g == 0).count();
    Ok(match candidates(puzzle, level)? {
        None => Root {
            contradiction: true,
            open_cells,
            unassigned_cells: 0,
            vars: None,
        },
        Some(masks) => Root {
            contradiction: false,
            open_cells,
            unassigned_cells: masks.iter().filter(|m| m.count_ones() > 1).count(),
            vars: None,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{Backend, Limits};
    use crate::format::{read_puzzles, ReadOptions};
    use crate::model::Value;

    fn puzzle(line: &str) -> Puzzle {
        read_puzzles(line, &ReadOptions::default())
            .remove(0)
            .unwrap()
            .puzzle
    }

    fn unassigned(line: &str) -> Vec<(&'static str, usize)> {
        let p = puzzle(line);
        ModelLevel::ALL
            .iter()
            .filter(|l| cfg!(feature = "cp") || !matches!(l, ModelLevel::Cp(_)))
            .map(|&l| {
                let root = derive(&p, l).unwrap();
                assert!(!root.contradiction, "{}", l.name());
                assert_eq!(
                    root.open_cells,
                    p.givens().iter().filter(|&&g| g == 0).count()
                );
                (l.name(), root.unassigned_cells)
            })
            .collect()
    }

    /// Puzzles of Royle's 17-clue collection (lines 6, 16, 68 and 106 of `17_clue.txt`), each
    /// first solved by a stronger level, and a puzzle naked singles solve alone.
    #[test]
    fn each_level_solves_what_the_weaker_ones_leave() {
        let table = [
            // Naked singles alone.
            (
                ".5..83.17...1..4..3.4..56.8....3...9.9.8245....6....7...9....5...729..861.36.72.4",
                [0, 0, 0, 0, 0, 0, 0],
            ),
            // Hidden singles needed.
            (
                ".................1.....2.3......3.2...4....5...6.1.....3......6.7..8...952.7.....",
                [60, 0, 0, 0, 0, 0, 0],
            ),
            // Locked candidates needed (and domain all-different).
            (
                ".................1.....2.3...2...4....3.5......41....6.5.6......7.....2..8.91....",
                [62, 50, 0, 0, 50, 50, 0],
            ),
            // Only dfs's band kernel (its minirow counts) and domain all-different settle it.
            (
                ".................1....23.4......4.5...1....2..67.........1....75....8...9.....8.6",
                [64, 62, 53, 0, 62, 62, 0],
            ),
            // huub's presolve (bounds reasoning on every all-different) settles it.
            (
                ".................1....23.4.....45.2...6.7.....18.........1....6.2.....9.34.......",
                [64, 50, 46, 46, 0, 0, 0],
            ),
        ];
        for (line, want) in table {
            let got = unassigned(line);
            let want: Vec<_> = ModelLevel::ALL.iter().map(|l| l.name()).zip(want).collect();
            assert_eq!(got, want[..got.len()], "{line}");
        }
    }

    /// On tdoku's test puzzles (with their known solutions): each level keeps every solution's
    /// digit, naked ⊆ hidden ⊆ locked in what they derive (each one's candidates within the
    /// weaker one's), and `dfs` and the `cp` levels derive at least hidden singles.
    #[test]
    fn levels_are_sound_and_ordered() {
        let text = include_str!("../../tests/data/9x9/test_puzzles.counts");
        let mut stronger = [0usize; 2];
        for e in read_puzzles(text, &ReadOptions::default()) {
            let e = e.unwrap();
            let known = e.expected.unwrap();
            let Some(solution) = known.solution else {
                continue;
            };
            let of = |l| candidates(&e.puzzle, l).unwrap().expect("no contradiction");
            let within = |a: &[u128], b: &[u128]| a.iter().zip(b).all(|(x, y)| x & !y == 0);
            let [naked, hidden, locked] =
                [ModelLevel::Naked, ModelLevel::Hidden, ModelLevel::Locked].map(of);
            assert!(
                within(&hidden, &naked) && within(&locked, &hidden),
                "{}",
                e.line
            );
            stronger[0] += usize::from(hidden != naked);
            stronger[1] += usize::from(locked != hidden);
            let mut levels = vec![naked, hidden.clone(), locked.clone()];
            let dfs = of(ModelLevel::Dfs);
            assert!(within(&dfs, &locked), "line {}", e.line);
            levels.push(dfs);
            if cfg!(feature = "cp") {
                for alldiff in [AllDiffLevel::Value, AllDiffLevel::Bounds] {
                    let cp = of(ModelLevel::Cp(alldiff));
                    assert!(within(&cp, &hidden), "line {}", e.line);
                    levels.push(cp);
                }
            }
            for masks in levels {
                for (m, &v) in masks.iter().zip(solution.cells()) {
                    assert!(m >> (v - 1) & 1 == 1, "line {}", e.line);
                }
            }
        }
        assert!(stronger[0] > 0 && stronger[1] > 0, "{stronger:?}");
    }

    #[test]
    fn a_contradiction_is_found_by_every_level() {
        let clash = format!("11{}", ".".repeat(79));
        for l in ModelLevel::ALL {
            if matches!(l, ModelLevel::Cp(_)) && !cfg!(feature = "cp") {
                continue;
            }
            let root = derive(&puzzle(&clash), l).unwrap();
            assert!(root.contradiction && !root.solved(), "{}", l.name());
            assert_eq!(root.open_cells, 79);
        }
    }

    /// A Killer without givens: the house levels derive nothing, `dfs` and `cp` (which see the
    /// cages) narrow cells and keep the solution's digits.
    #[test]
    fn cages_are_seen_by_dfs_and_cp_only() {
        let text = include_str!("../../benches/data/killer1000.txt");
        let p = puzzle(text.lines().next().unwrap());
        let solution = Dfs::new().count(&p, 2, &Limits::none()).unwrap();
        assert_eq!(solution.count, 1);
        let solution: Vec<Value> = solution.witnesses[0].cells().to_vec();
        let full = (1u128 << 9) - 1;
        for l in [ModelLevel::Naked, ModelLevel::Hidden, ModelLevel::Locked] {
            assert!(candidates(&p, l)
                .unwrap()
                .unwrap()
                .iter()
                .all(|&m| m == full));
        }
        let mut narrowing = vec![ModelLevel::Dfs];
        if cfg!(feature = "cp") {
            narrowing.push(ModelLevel::Cp(AllDiffLevel::Value));
        }
        for l in narrowing {
            let masks = candidates(&p, l).unwrap().unwrap();
            assert!(masks.iter().any(|&m| m != full), "{}", l.name());
            for (m, &v) in masks.iter().zip(&solution) {
                assert!(m >> (v - 1) & 1 == 1, "{}", l.name());
            }
        }
    }

    #[test]
    fn levels_are_named() {
        for l in ModelLevel::ALL {
            assert_eq!(l.name().parse::<ModelLevel>().unwrap(), l);
        }
        assert!("singles".parse::<ModelLevel>().is_err());
    }
}
