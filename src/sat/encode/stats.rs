//! What an encoding holds, part by part ([`Part`], [`EncodeStats`]): `encode --stats`.

use super::*;

/// The parts of an encoding, for statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Part {
    CellVars,
    Givens,
    CellAlo,
    CellAmo,
    HouseAmo,
    HouseAlo,
    Triad,
    Cage,
    /// A variant rule's clauses, per kind.
    Rule(ConstraintKind),
    Objective,
    Blocking,
}

impl Part {
    pub fn name(self) -> &'static str {
        match self {
            Part::CellVars => "cell-vars",
            Part::Givens => "givens",
            Part::CellAlo => "cell-alo",
            Part::CellAmo => "cell-amo",
            Part::HouseAmo => "house-amo",
            Part::HouseAlo => "house-alo",
            Part::Triad => "triad",
            Part::Cage => "cage",
            Part::Rule(kind) => kind.name(),
            Part::Objective => "objective",
            Part::Blocking => "blocking",
        }
    }
}

/// Size of one part: new variables, clauses and literal occurrences.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PartStats {
    pub vars: u64,
    pub clauses: u64,
    pub lits: u64,
}

/// Per-part sizes of an encoding, in the order the parts were generated.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EncodeStats {
    pub parts: Vec<(Part, PartStats)>,
}

impl EncodeStats {
    pub fn total(&self) -> PartStats {
        self.parts
            .iter()
            .fold(PartStats::default(), |a, (_, p)| PartStats {
                vars: a.vars + p.vars,
                clauses: a.clauses + p.clauses,
                lits: a.lits + p.lits,
            })
    }
    /// The sizes of one part (zero when absent).
    pub fn part(&self, part: Part) -> PartStats {
        self.parts
            .iter()
            .find(|(p, _)| *p == part)
            .map(|&(_, s)| s)
            .unwrap_or_default()
    }
}

impl fmt::Display for EncodeStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The first column fits the longest part name (`little-killer`, say).
        let w = self
            .parts
            .iter()
            .map(|(part, _)| part.name().len())
            .fold(10, usize::max);
        writeln!(
            f,
            "{:<w$} {:>12} {:>12} {:>12}",
            "part", "variables", "clauses", "literals"
        )?;
        let mut row = |name: &str, p: PartStats| {
            writeln!(
                f,
                "{name:<w$} {:>12} {:>12} {:>12}",
                p.vars, p.clauses, p.lits
            )
        };
        for &(part, p) in &self.parts {
            row(part.name(), p)?;
        }
        row("total", self.total())
    }
}
