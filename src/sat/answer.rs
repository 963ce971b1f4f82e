//! Reading a solver's answer in the style of the SAT competitions and MaxSAT evaluations: an `s`
//! status line, `v` model lines and, for MaxSAT, `o` cost lines; every other line is ignored.
//! [`read`] is the one reader; [`super::external::parse_answer`] (SAT, also MiniSat's answer
//! file) and [`super::wcnf::parse_answer`] (MaxSAT) turn what it read into their verdicts.
//! Errors ([`AnswerError`]) name the line they were found on.

/// A status line's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// `SATISFIABLE` (also `SAT` in MiniSat's answer file).
    Sat,
    /// `OPTIMUM FOUND` (MaxSAT only).
    Optimum,
    /// `UNSATISFIABLE` (also `UNSAT`).
    Unsat,
    /// `UNKNOWN` (also `INDETERMINATE` / `INDET` in SAT answers).
    Unknown,
}

/// Which answers [`read`] accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// SAT-competition output: the model ends with a `0`, and no literal may follow it. With
    /// `bare`, also MiniSat's answer file (a bare `SAT` / `UNSAT` / `INDET` line, then bare
    /// literal lines).
    Sat { bare: bool },
    /// MaxSAT-evaluation output: `o` cost lines, `OPTIMUM FOUND`, a model as literals (the
    /// closing `0` optional) or as a bit string (`v 101`, one character per variable).
    MaxSat,
}

/// What a solver's answer says is wrong. The texts are those users see after the solver's name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    #[error("line {line}: unknown status '{word}'")]
    UnknownStatus { line: usize, word: String },
    #[error("line {line}: a second, different status line")]
    SecondStatus { line: usize },
    #[error("line {line}: '{token}' is not a literal")]
    NotALiteral { line: usize, token: String },
    #[error("line {line}: '{token}' is not a cost")]
    NotACost { line: usize, token: String },
    #[error("line {line}: literal {literal} after the closing 0")]
    AfterClosingZero { line: usize, literal: i64 },
    #[error("line {line}: literal {literal} names a variable beyond the formula's {n_vars}")]
    BeyondFormula {
        line: usize,
        literal: i64,
        n_vars: u32,
    },
    #[error("line {line}: variable {var} assigned both true and false")]
    BothValues { line: usize, var: u64 },
    #[error("line {line}: a model of {len} variables for a formula of {n_vars}")]
    ModelTooLong {
        line: usize,
        len: usize,
        n_vars: u32,
    },
    /// `expected` is the dialect's satisfiable status.
    #[error("no status line ('s {expected}' / 's UNSATISFIABLE')")]
    NoStatus { expected: &'static str },
    #[error("the solver gave up (status UNKNOWN)")]
    GaveUp,
    #[error("a model printed with UNSATISFIABLE")]
    ModelWithUnsat,
    /// `status` as the message shows it.
    #[error("{status} but no model ('v' lines)")]
    NoModel { status: &'static str },
    #[error("the model is not terminated by 0 (truncated output?)")]
    Unterminated,
}

/// What [`read`] found: the status (if any), the last `o` cost, and the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub status: Option<Status>,
    pub cost: Option<u64>,
    /// `values[i]` for 0-based variable `i`; `None` when the model does not name it.
    pub values: Vec<Option<bool>>,
    /// A `v` line (or a bare literal line) was seen.
    pub saw_model: bool,
    /// The model ended with a `0`.
    pub terminated: bool,
    pub dialect: Dialect,
}

impl Answer {
    /// The error for a status and model that do not go together (`None` when they do): no
    /// status, UNKNOWN, a model with UNSATISFIABLE, or a satisfiable status without a model.
    pub fn mismatch(&self) -> Option<AnswerError> {
        let maxsat = self.dialect == Dialect::MaxSat;
        match self.status {
            None => Some(AnswerError::NoStatus {
                expected: if maxsat {
                    "OPTIMUM FOUND"
                } else {
                    "SATISFIABLE"
                },
            }),
            Some(Status::Unknown) => Some(AnswerError::GaveUp),
            Some(Status::Unsat) if self.saw_model => Some(AnswerError::ModelWithUnsat),
            Some(Status::Sat) if !self.saw_model => Some(AnswerError::NoModel {
                status: if maxsat {
                    "'SATISFIABLE'"
                } else {
                    "SATISFIABLE"
                },
            }),
            Some(Status::Optimum) if !self.saw_model => Some(AnswerError::NoModel {
                status: "'OPTIMUM FOUND'",
            }),
            _ => None,
        }
    }
}

/// Reads a solver's output `text` in `dialect`. `n_vars` bounds the variables a model may name.
/// Only what is malformed line by line is an error here; whether the status and the model go
/// together is [`Answer::mismatch`].
pub fn read(text: &str, n_vars: u32, dialect: Dialect) -> Result<Answer, AnswerError> {
    let mut answer = Answer {
        status: None,
        cost: None,
        values: vec![None; n_vars as usize],
        saw_model: false,
        terminated: false,
        dialect,
    };
    let bare = dialect == Dialect::Sat { bare: true };
    let maxsat = dialect == Dialect::MaxSat;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let t = line.trim();
        if let Some(word) = t.strip_prefix("s ") {
            answer.set_status(line_no, word.trim(), dialect)?;
        } else if let Some(o) = t.strip_prefix("o ").filter(|_| maxsat) {
            let cost = o.trim().parse::<u64>().map_err(|_| AnswerError::NotACost {
                line: line_no,
                token: o.to_string(),
            })?;
            answer.cost = Some(cost);
        } else if let Some(lits) = t.strip_prefix("v ").or((t == "v" && !maxsat).then_some("")) {
            answer.saw_model = true;
            if maxsat && answer.bits(line_no, lits.trim(), n_vars)? {
                continue;
            }
            answer.literals(line_no, lits, n_vars, dialect)?;
        } else if bare && answer.status.is_none() && !t.is_empty() && !t.starts_with('c') {
            answer.set_status(line_no, t, dialect)?;
        } else if bare
            && answer.status.is_some()
            && t.starts_with(|c: char| c == '-' || c.is_ascii_digit())
        {
            answer.saw_model = true;
            answer.literals(line_no, t, n_vars, dialect)?;
        }
    }
    Ok(answer)
}

impl Answer {
    fn set_status(&mut self, line: usize, word: &str, dialect: Dialect) -> Result<(), AnswerError> {
        let status = match (word, dialect) {
            ("SATISFIABLE", _) | ("SAT", Dialect::Sat { .. }) => Status::Sat,
            ("OPTIMUM FOUND", Dialect::MaxSat) => Status::Optimum,
            ("UNSATISFIABLE", _) | ("UNSAT", Dialect::Sat { .. }) => Status::Unsat,
            ("UNKNOWN", _) | ("INDETERMINATE" | "INDET", Dialect::Sat { .. }) => Status::Unknown,
            _ => {
                return Err(AnswerError::UnknownStatus {
                    line,
                    word: word.to_string(),
                })
            }
        };
        if self.status.is_some_and(|old| old != status) {
            return Err(AnswerError::SecondStatus { line });
        }
        self.status = Some(status);
        Ok(())
    }

    /// A MaxSAT model as a bit string (`v 101`); `false` when `v` is not one. A single `0` or `1`
    /// is a bit string only for a formula of one variable (otherwise it is a literal line).
    fn bits(&mut self, line: usize, v: &str, n_vars: u32) -> Result<bool, AnswerError> {
        if v.is_empty() || v.contains(' ') || !v.bytes().all(|b| b == b'0' || b == b'1') {
            return Ok(false);
        }
        if v.len() > n_vars as usize && v.len() != 1 {
            return Err(AnswerError::ModelTooLong {
                line,
                len: v.len(),
                n_vars,
            });
        }
        if v.len() != 1 || n_vars == 1 {
            for (slot, b) in self.values.iter_mut().zip(v.bytes()) {
                *slot = Some(b == b'1');
            }
            return Ok(true);
        }
        Ok(false)
    }

    /// Literals of a model line; in the SAT dialect none may follow the closing `0`.
    fn literals(
        &mut self,
        line: usize,
        lits: &str,
        n_vars: u32,
        dialect: Dialect,
    ) -> Result<(), AnswerError> {
        for tok in lits.split_whitespace() {
            let x: i64 = tok.parse().map_err(|_| AnswerError::NotALiteral {
                line,
                token: tok.to_string(),
            })?;
            if self.terminated && dialect != Dialect::MaxSat {
                return Err(AnswerError::AfterClosingZero { line, literal: x });
            }
            if x == 0 {
                self.terminated = true;
                continue;
            }
            let var = x.unsigned_abs();
            if var > n_vars as u64 {
                return Err(AnswerError::BeyondFormula {
                    line,
                    literal: x,
                    n_vars,
                });
            }
            let slot = &mut self.values[var as usize - 1];
            if slot.is_some_and(|old| old != (x > 0)) {
                return Err(AnswerError::BothValues { line, var });
            }
            *slot = Some(x > 0);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_their_line() {
        let sat = Dialect::Sat { bare: false };
        assert_eq!(
            read("c x\ns SATISFIABLE\nv 1 q 0\n", 2, sat),
            Err(AnswerError::NotALiteral {
                line: 3,
                token: "q".into()
            })
        );
        let e = read("s MAYBE\n", 2, Dialect::MaxSat).unwrap_err();
        assert_eq!(e.to_string(), "line 1: unknown status 'MAYBE'");
        let e = read("s SATISFIABLE\nv 1 0 2\n", 2, sat).unwrap_err();
        assert_eq!(e.to_string(), "line 2: literal 2 after the closing 0");
        // MaxSAT models need not close with 0, and may go on after one.
        assert!(read("s SATISFIABLE\nv 1 0 2\n", 2, Dialect::MaxSat).is_ok());
    }

    #[test]
    fn mismatches_keep_each_dialects_words() {
        let sat = read("s SATISFIABLE\n", 2, Dialect::Sat { bare: false }).unwrap();
        assert_eq!(
            sat.mismatch().unwrap().to_string(),
            "SATISFIABLE but no model ('v' lines)"
        );
        let max = read("s OPTIMUM FOUND\n", 2, Dialect::MaxSat).unwrap();
        assert_eq!(
            max.mismatch().unwrap().to_string(),
            "'OPTIMUM FOUND' but no model ('v' lines)"
        );
        let none = read("", 2, Dialect::MaxSat).unwrap();
        assert_eq!(
            none.mismatch().unwrap().to_string(),
            "no status line ('s OPTIMUM FOUND' / 's UNSATISFIABLE')"
        );
    }
}
