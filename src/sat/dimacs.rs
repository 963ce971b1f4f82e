//! DIMACS CNF text: writing a [`Cnf`] (with `c` comment lines first) and reading one back.

use std::io::{self, BufRead, Write};

use super::{ClauseSink, Cnf, Lit};

/// A DIMACS file that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum DimacsError {
    #[error("line {line}: {msg}")]
    Syntax { line: usize, msg: String },
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Writes `cnf` as DIMACS CNF, each line of `comments` as a `c ` line before the header.
pub fn write(cnf: &Cnf, comments: &[String], out: &mut impl Write) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    for c in comments {
        writeln!(out, "c {c}")?;
    }
    writeln!(out, "p cnf {} {}", cnf.n_vars(), cnf.n_clauses())?;
    let mut line = String::new();
    for clause in cnf.clauses() {
        line.clear();
        for l in clause {
            line.push_str(&l.to_ipasir().to_string());
            line.push(' ');
        }
        line.push_str("0\n");
        out.write_all(line.as_bytes())?;
    }
    out.flush()
}

/// Reads DIMACS CNF. Comment lines are skipped; the header's variable count is kept even when
/// the clauses use fewer variables. Clauses may span lines.
pub fn read(input: impl BufRead) -> Result<Cnf, DimacsError> {
    let mut cnf = Cnf::new();
    let mut header: Option<(u32, usize)> = None;
    let mut clause: Vec<Lit> = Vec::new();
    let mut last_line = 0;
    for (i, line) in input.lines().enumerate() {
        let line = line?;
        let line_no = i + 1;
        last_line = line_no;
        let syntax = |msg: String| DimacsError::Syntax { line: line_no, msg };
        let t = line.trim();
        if t.is_empty() || t.starts_with('c') || t.starts_with('%') {
            continue;
        }
        if t.starts_with('p') {
            let f: Vec<&str> = t.split_whitespace().collect();
            if header.is_some() || f.len() != 4 || f[1] != "cnf" {
                return Err(syntax(format!("bad header '{t}'")));
            }
            let v = f[2]
                .parse()
                .map_err(|_| syntax(format!("bad count '{}'", f[2])))?;
            let c = f[3]
                .parse()
                .map_err(|_| syntax(format!("bad count '{}'", f[3])))?;
            header = Some((v, c));
            cnf.reserve_vars(v);
            continue;
        }
        let Some((n_vars, _)) = header else {
            return Err(syntax("clause before the 'p cnf' header".into()));
        };
        for tok in t.split_whitespace() {
            let x: i64 = tok
                .parse()
                .map_err(|_| syntax(format!("'{tok}' is not a literal")))?;
            if x == 0 {
                cnf.add_clause(&clause);
                clause.clear();
            } else if x.unsigned_abs() > n_vars as u64 {
                return Err(syntax(format!(
                    "literal {x} beyond the {n_vars} variables of the header"
                )));
            } else {
                let v = x.unsigned_abs() as u32 - 1;
                clause.push(Lit::new(v, x < 0));
            }
        }
    }
    if !clause.is_empty() {
        return Err(DimacsError::Syntax {
            line: last_line,
            msg: "last clause is not terminated by 0".into(),
        });
    }
    match header {
        Some((_, c)) if c != cnf.n_clauses() => Err(DimacsError::Syntax {
            line: last_line,
            msg: format!(
                "header announces {c} clauses, the file has {}",
                cnf.n_clauses()
            ),
        }),
        Some(_) => Ok(cnf),
        None => Err(DimacsError::Syntax {
            line: last_line,
            msg: "no 'p cnf' header".into(),
        }),
    }
}
