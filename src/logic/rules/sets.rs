//! The Killer 45 rule (innies and outies): a region made of whole houses (a row, column, box or
//! jigsaw region, or a band of consecutive rows or columns) holds every digit once a house, so
//! its sum is known (`45` a house on a 9×9 grid). The cages inside it add their sums; a cage
//! crossing its border adds its sum less the cells outside (the *outies*); the cells in no cage
//! (the *innies*) add themselves. So `Σ innies − Σ outies = houses × 45 − Σ those cages' sums`,
//! an equation over a few cells that the rule techniques narrow by interval bounds
//! ([`crate::dfs::RuleNarrower`]'s linear sums), one step an equation.

use std::collections::HashSet;

use crate::logic::render::cells as cell_list;
use crate::model::lower::{LinearSum, Rules};
use crate::model::Puzzle;

/// Most innies and outies an equation may have (past it, its bounds say little).
const MOST_CELLS: usize = 4;

/// One equation of the 45 rule: its text and its lowered form.
pub struct Equation {
    /// `45 rule b5: innies r4c4 = 9`, `45 rule r89: outies r7c4 = 6`, `45 rule c1: innies r4c1 -
    /// outies r3c2 = 2`.
    pub label: String,
    /// The innies and outies.
    pub cells: Vec<u32>,
    pub rules: Rules,
}

/// The equations of `puzzle`'s cages over its houses and its bands of up to `n / 2`
/// consecutive rows or columns; none without cages.
pub fn equations(puzzle: &Puzzle) -> Vec<Equation> {
    let cages: Vec<_> = puzzle.cages().collect();
    if cages.is_empty() {
        return vec![];
    }
    let shape = puzzle.shape();
    let n = shape.size();
    let house_sum = (n * (n + 1) / 2) as i64;
    let mut regions: Vec<(String, Vec<u32>, i64)> = shape
        .houses()
        .enumerate()
        .map(|(h, cells)| {
            let name = crate::logic::render::house(shape, h as u32);
            (name, cells.to_vec(), 1)
        })
        .collect();
    for k in 2..=n / 2 {
        for first in 0..=n - k {
            let rows = (first..first + k).flat_map(|r| (0..n).map(move |c| (r * n + c) as u32));
            let cols = (first..first + k).flat_map(|c| (0..n).map(move |r| (r * n + c) as u32));
            let span: String = (first + 1..=first + k).map(|i| i.to_string()).collect();
            regions.push((format!("r{span}"), rows.collect(), k as i64));
            regions.push((format!("c{span}"), cols.collect(), k as i64));
        }
    }
    let mut in_cage = vec![usize::MAX; n * n];
    for (i, cage) in cages.iter().enumerate() {
        for &c in cage.cells() {
            in_cage[c as usize] = i;
        }
    }
    let mut seen = HashSet::new();
    let mut out = vec![];
    for (name, cells, houses) in regions {
        let mut inside = vec![false; n * n];
        for &c in &cells {
            inside[c as usize] = true;
        }
        let innies: Vec<u32> = cells
            .iter()
            .copied()
            .filter(|&c| in_cage[c as usize] == usize::MAX)
            .collect();
        let mut outies = vec![];
        let mut rhs = houses * house_sum;
        for cage in &cages {
            if cage.cells().iter().any(|&c| inside[c as usize]) {
                rhs -= cage.sum() as i64;
                outies.extend(cage.cells().iter().filter(|&&c| !inside[c as usize]));
            }
        }
        let count = innies.len() + outies.len();
        if count == 0 || count > MOST_CELLS {
            continue;
        }
        let mut terms: Vec<(u32, i64)> = innies.iter().map(|&c| (c, 1)).collect();
        terms.extend(outies.iter().map(|&c| (c, -1)));
        terms.sort_unstable();
        if !seen.insert((terms.clone(), rhs)) {
            continue;
        }
        let (ins, outs) = (cell_list(n, &innies), cell_list(n, &outies));
        let equation = match (innies.is_empty(), outies.is_empty()) {
            (false, true) => format!("innies {ins} = {rhs}"),
            (true, false) => format!("outies {outs} = {}", -rhs),
            _ => format!("innies {ins} - outies {outs} = {rhs}"),
        };
        let label = format!("45 rule {name}: {equation}");
        let mut all = innies;
        all.extend(outies);
        out.push(Equation {
            label,
            cells: all,
            rules: Rules {
                sums: vec![LinearSum { terms, rhs }],
                ..Rules::default()
            },
        });
    }
    out
}
