//! Weighted MaxSAT in the WCNF format of the MaxSAT Evaluations since 2022: `c` comments, hard
//! clauses as `h LITS 0`, soft clauses as `WEIGHT LITS 0`, no `p` line. The cost of an
//! assignment that satisfies every hard clause is the sum of the weights of the soft clauses it
//! falsifies; a MaxSAT solver finds the least.
//!
//! A puzzle's objective becomes one soft unit clause `w -x 0` per loss term `(x, w)` of
//! [`super::objective::Objective`] (cost `w` when the cell takes that digit), so the optimum
//! cost is the least loss and the best score is `offset − cost`, written in the header. This
//! module also reads a solver's answer (`s`, `o` and `v` lines).

use std::io::{self, BufRead, Write};

use super::answer::{self, AnswerError, Dialect, Status};
use super::dimacs::DimacsError;
use super::encode::{self, EncodeOptions, Numbering};
use super::objective::{Objective, ObjectiveError};
use super::{ClauseSink, Cnf, Lit};
use crate::model::Puzzle;

/// A weighted MaxSAT instance: hard clauses, and soft clauses with their weights.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Wcnf {
    pub hard: Cnf,
    pub soft: Vec<(u64, Vec<Lit>)>,
}

impl Wcnf {
    /// The cost of an assignment (`values[i]` for variable `i`): the weights of the soft clauses
    /// it does not satisfy.
    pub fn cost(&self, values: &[Option<bool>]) -> u64 {
        self.soft
            .iter()
            .filter(|(_, c)| {
                !c.iter()
                    .any(|l| values.get(l.vidx()).copied().flatten() == Some(l.is_pos()))
            })
            .map(|(w, _)| w)
            .sum()
    }
}

/// Writes `wcnf`, each line of `comments` as a `c ` line first.
pub fn write(wcnf: &Wcnf, comments: &[String], out: &mut impl Write) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    for c in comments {
        writeln!(out, "c {c}")?;
    }
    let clause = |prefix: String, lits: &[Lit]| {
        let mut line = prefix;
        for l in lits {
            line.push(' ');
            line.push_str(&l.to_ipasir().to_string());
        }
        line.push_str(" 0\n");
        line
    };
    for c in wcnf.hard.clauses() {
        out.write_all(clause("h".into(), c).as_bytes())?;
    }
    for (w, c) in &wcnf.soft {
        out.write_all(clause(w.to_string(), c).as_bytes())?;
    }
    out.flush()
}

/// Reads WCNF (this format only: no `p wcnf` line). Clauses may not span lines.
pub fn read(input: impl BufRead) -> Result<Wcnf, DimacsError> {
    let mut wcnf = Wcnf::default();
    for (i, line) in input.lines().enumerate() {
        let line = line?;
        let syntax = |msg: String| DimacsError::Syntax { line: i + 1, msg };
        let t = line.trim();
        if t.is_empty() || t.starts_with('c') {
            continue;
        }
        if t.starts_with('p') {
            return Err(syntax(
                "a 'p' line: this is the older WCNF format, not the one read here".into(),
            ));
        }
        let mut toks = t.split_whitespace();
        let head = toks.next().unwrap_or_default();
        let weight =
            match head {
                "h" => None,
                w => Some(w.parse::<u64>().ok().filter(|&w| w > 0).ok_or_else(|| {
                    syntax(format!("'{w}' is neither 'h' nor a positive weight"))
                })?),
            };
        let mut lits = Vec::new();
        let mut closed = false;
        for tok in toks {
            let x: i64 = tok
                .parse()
                .map_err(|_| syntax(format!("'{tok}' is not a literal")))?;
            if closed {
                return Err(syntax(format!("literal {x} after the closing 0")));
            }
            if x == 0 {
                closed = true;
            } else {
                let v = u32::try_from(x.unsigned_abs() - 1)
                    .map_err(|_| syntax(format!("literal {x} out of range")))?;
                wcnf.hard.reserve_vars(v + 1);
                lits.push(Lit::new(v, x < 0));
            }
        }
        if !closed {
            return Err(syntax("clause not terminated by 0".into()));
        }
        match weight {
            None => wcnf.hard.add_clause(&lits),
            Some(w) => wcnf.soft.push((w, lits)),
        }
    }
    Ok(wcnf)
}

/// A puzzle's optimisation as weighted MaxSAT: the encoding (formula numbering, as `encode --to
/// dimacs`) as hard clauses, the loss terms as soft ones, and the score's offset.
pub struct PuzzleWcnf {
    pub wcnf: Wcnf,
    /// The DIMACS header of the encoding, plus how to read the cost as a score.
    pub comments: Vec<String>,
    pub decoder: encode::Decoder,
    pub objective: Objective,
}

/// Builds [`PuzzleWcnf`] for a puzzle with weights.
pub fn encode_puzzle(puzzle: &Puzzle, opts: &EncodeOptions) -> Result<PuzzleWcnf, ObjectiveError> {
    let mut hard = Cnf::new();
    let enc = encode::encode(puzzle, opts, Numbering::Formula, &mut hard);
    let objective = Objective::new(puzzle, &enc.decoder)?;
    let soft = objective.terms().map(|(x, w)| (w, vec![!x])).collect();
    let mut comments = encode::dimacs_header(puzzle, opts, &enc.stats, enc.decoder.fixed());
    comments.push(format!(
        "objective: maximise the weighted score = {} - cost; each soft clause 'w -x 0' costs w when cell variable x is true",
        objective.score_bound()
    ));
    Ok(PuzzleWcnf {
        wcnf: Wcnf { hard, soft },
        comments,
        decoder: enc.decoder,
        objective,
    })
}

/// Writes a puzzle's optimisation as WCNF (`sudoku-lab encode --to wcnf`).
pub fn to_wcnf(puzzle: &Puzzle, opts: &EncodeOptions, out: &mut impl Write) -> io::Result<()> {
    let p = encode_puzzle(puzzle, opts).map_err(io::Error::other)?;
    write(&p.wcnf, &p.comments, out)
}

/// A MaxSAT solver's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MaxSatAnswer {
    /// `s OPTIMUM FOUND`, or `s SATISFIABLE` (a solution, not proved optimal), with the model
    /// and the last `o` cost printed.
    Model {
        optimal: bool,
        cost: Option<u64>,
        values: Vec<Option<bool>>,
    },
    /// `s UNSATISFIABLE`: the hard clauses have no solution.
    Unsat,
}

/// Reads `s`, `o` and `v` lines (others are ignored). The model may be literals (`v 1 -2 3`,
/// over one or more lines, an optional closing 0) or the evaluations' bit string (`v 101`, one
/// character per variable). `n_vars` bounds the variables it may name.
pub fn parse_answer(text: &str, n_vars: u32) -> Result<MaxSatAnswer, AnswerError> {
    let answer = answer::read(text, n_vars, Dialect::MaxSat)?;
    if let Some(e) = answer.mismatch() {
        return Err(e);
    }
    Ok(match answer.status {
        Some(status @ (Status::Sat | Status::Optimum)) => MaxSatAnswer::Model {
            optimal: status == Status::Optimum,
            cost: answer.cost,
            values: answer.values,
        },
        _ => MaxSatAnswer::Unsat,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(x: i32) -> Lit {
        Lit::new(x.unsigned_abs() - 1, x < 0)
    }

    #[test]
    fn write_then_read_gives_the_same_instance() {
        let mut w = Wcnf::default();
        w.hard.add_clause(&[lit(1), lit(-2)]);
        w.hard.add_clause(&[lit(3)]);
        w.soft.push((7, vec![lit(-1)]));
        w.soft.push((2, vec![lit(2), lit(-3)]));
        let mut buf = Vec::new();
        write(&w, &["hello".into()], &mut buf).unwrap();
        let text = String::from_utf8(buf.clone()).unwrap();
        assert_eq!(text, "c hello\nh 1 -2 0\nh 3 0\n7 -1 0\n2 2 -3 0\n");
        assert_eq!(read(&buf[..]).unwrap(), w);
        let values = [Some(true), Some(true), Some(true)];
        assert_eq!(w.cost(&values), 7);
    }

    #[test]
    fn bad_wcnf_lines_are_located() {
        for (text, line) in [
            ("h 1 0\nx 1 0\n", 2),
            ("p wcnf 1 1 3\n", 1),
            ("h 1 0\n0 1 0\n", 2),
            ("3 1\n", 1),
        ] {
            match read(text.as_bytes()) {
                Err(DimacsError::Syntax { line: l, .. }) => assert_eq!(l, line, "{text}"),
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn answers_in_both_model_styles() {
        let lits = "c x\ns OPTIMUM FOUND\no 3\nv 1 -2\n";
        let bits = "o 5\no 3\ns OPTIMUM FOUND\nv 10\n";
        for text in [lits, bits] {
            assert_eq!(
                parse_answer(text, 2),
                Ok(MaxSatAnswer::Model {
                    optimal: true,
                    cost: Some(3),
                    values: vec![Some(true), Some(false)]
                }),
                "{text}"
            );
        }
        assert_eq!(
            parse_answer("s UNSATISFIABLE\n", 2),
            Ok(MaxSatAnswer::Unsat)
        );
        assert!(parse_answer("o 3\n", 2).is_err());
        assert!(parse_answer("s OPTIMUM FOUND\n", 2).is_err());
        assert!(parse_answer("s OPTIMUM FOUND\nv 1 -7\n", 2).is_err());
        assert!(parse_answer("s OPTIMUM FOUND\nv 1 -1\n", 2).is_err());
    }
}
