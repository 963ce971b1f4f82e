//! Running an external, SAT-competition-style solver on a DIMACS file and reading its answer.
//!
//! A [`SolverCommand`] is a command line (split like a POSIX shell would, quotes allowed) with
//! two optional placeholders, each replaced inside any argument:
//!
//! * `{}`: the CNF file. Without it the CNF path is appended as the last argument.
//! * `{out}`: a file the solver writes its answer to (MiniSat style: a line `SAT` / `UNSAT` /
//!   `INDET`, then the model's literals ending in `0`; `s` / `v` lines are accepted there too).
//!   The answer is then read from that file only. A program whose name starts with `minisat`
//!   gets `{out}` appended automatically (after the CNF path) unless the command already names
//!   it, since MiniSat prints no model on stdout.
//!
//! Otherwise the answer is read from stdout: `s SATISFIABLE` / `s UNSATISFIABLE` and `v` lines
//! (every other line is ignored). Exit codes 10 (satisfiable), 20 (unsatisfiable) and 0 are
//! accepted when they agree with the printed status.
//!
//! Nothing the solver says is trusted: a missing or contradictory status, a model that is not
//! terminated by `0`, names unknown variables, assigns a variable twice or does **not satisfy
//! every clause of the formula** is an [`ExternalError::Failed`] naming the solver and quoting
//! the end of its output, as is a crash (signal), a missing binary or an unexpected exit code.
//! So is UNSATISFIABLE on a formula without clauses (a puzzle that propagation solved outright):
//! such a formula is satisfiable, whatever the solver says.
//! At the deadline the solver's whole process group is killed ([`ExternalError::TimedOut`]).

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::Instant;

use wait_timeout::ChildExt;

use super::{dimacs, ClauseSink, Cnf};

/// Why an external solver gave no usable answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExternalError {
    /// The command line cannot be used (empty, unbalanced quotes).
    #[error("bad solver command '{command}': {msg}")]
    BadCommand { command: String, msg: String },
    /// The deadline passed while the solver ran (it was killed).
    #[error("{solver}: timed out")]
    TimedOut { solver: String },
    /// The solver could not be run, crashed, or printed something that is not a valid answer.
    #[error("solver '{solver}': {msg}")]
    Failed { solver: String, msg: String },
}

impl From<ExternalError> for crate::backend::BackendError {
    /// A time-out stays a time-out; anything else is a failure naming the solver.
    fn from(e: ExternalError) -> Self {
        match e {
            ExternalError::TimedOut { .. } => crate::backend::BackendError::TimedOut,
            other => crate::backend::BackendError::Failed(other.to_string()),
        }
    }
}

/// The placeholder for the CNF file.
pub const CNF_PLACEHOLDER: &str = "{}";
/// The placeholder for a file the solver writes its answer to.
pub const OUT_PLACEHOLDER: &str = "{out}";

/// A parsed solver command line (see the module documentation for the placeholders).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolverCommand {
    /// The program and its arguments, placeholders still in place.
    words: Vec<String>,
    /// The command as given, naming the solver in error messages.
    name: String,
    /// The answer is read from the `{out}` file rather than stdout.
    uses_out_file: bool,
}

/// A solver's verdict on a formula.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SatAnswer {
    /// Satisfiable, with the value of every variable (`value[i]` for 0-based variable `i`;
    /// `None` when the solver did not print it). The model satisfies every clause.
    Sat(Vec<Option<bool>>),
    Unsat,
}

impl SolverCommand {
    /// Splits `command` and finds the placeholders.
    pub fn parse(command: &str) -> Result<SolverCommand, ExternalError> {
        let bad = |msg: &str| ExternalError::BadCommand {
            command: command.to_string(),
            msg: msg.to_string(),
        };
        let mut words = shlex::split(command).ok_or_else(|| bad("unbalanced quotes"))?;
        let program = words.first().ok_or_else(|| bad("empty command"))?;
        let program_name = Path::new(program)
            .file_name()
            .map_or_else(|| program.clone(), |f| f.to_string_lossy().into_owned());
        let mentions = |words: &[String], p: &str| words[1..].iter().any(|w| w.contains(p));
        if !mentions(&words, CNF_PLACEHOLDER) {
            words.push(CNF_PLACEHOLDER.into());
        }
        if program_name.starts_with("minisat") && !mentions(&words, OUT_PLACEHOLDER) {
            words.push(OUT_PLACEHOLDER.into());
        }
        let uses_out_file = mentions(&words, OUT_PLACEHOLDER);
        Ok(SolverCommand {
            words,
            name: command.trim().to_string(),
            uses_out_file,
        })
    }

    /// This command with `args` inserted right after the program (before the arguments given
    /// with it); it keeps the name of the command as given.
    pub fn with_args<S: AsRef<str>>(&self, args: &[S]) -> SolverCommand {
        let mut words = vec![self.words[0].clone()];
        words.extend(args.iter().map(|a| a.as_ref().to_string()));
        words.extend(self.words[1..].iter().cloned());
        SolverCommand {
            words,
            ..self.clone()
        }
    }

    /// The command as given (names the solver in messages).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the answer is read from the `{out}` file.
    pub fn uses_out_file(&self) -> bool {
        self.uses_out_file
    }

    /// An error naming this solver.
    pub fn failed(&self, msg: impl Into<String>) -> ExternalError {
        ExternalError::Failed {
            solver: self.name.clone(),
            msg: msg.into(),
        }
    }

    /// Writes `cnf` (with `comments`) into `dir`, runs the solver on it until it exits or the
    /// deadline passes, and returns its checked answer. `dir` holds the CNF, the answer file and
    /// the captured output; the same directory can serve many runs.
    pub fn solve(
        &self,
        cnf: &Cnf,
        comments: &[String],
        dir: &Path,
        deadline: Option<Instant>,
    ) -> Result<SatAnswer, ExternalError> {
        let cnf_path = dir.join("formula.cnf");
        self.write_input(&cnf_path, |f| dimacs::write(cnf, comments, f))?;
        let run = self.run_on(&cnf_path, dir, deadline)?;
        let answer =
            parse_answer(&run.answer, cnf.n_vars(), self.uses_out_file).map_err(|msg| {
                self.failed(format!("{msg} in {}; {}", run.answer_from, run.context()))
            })?;
        if answer == SatAnswer::Unsat && cnf.n_clauses() == 0 {
            return Err(self.failed(format!(
                "claims UNSATISFIABLE on a formula without clauses, which every assignment \
                 satisfies; {}",
                run.context()
            )));
        }
        let agrees = matches!(
            (&answer, run.status.code()),
            (_, Some(0)) | (SatAnswer::Sat(_), Some(10)) | (SatAnswer::Unsat, Some(20))
        );
        if !agrees {
            let said = match answer {
                SatAnswer::Sat(_) => "SATISFIABLE",
                SatAnswer::Unsat => "UNSATISFIABLE",
            };
            return Err(self.failed(format!(
                "exit status disagrees with the answer {said}; {}",
                run.context()
            )));
        }
        if let SatAnswer::Sat(values) = &answer {
            check_model(cnf, values)
                .map_err(|msg| self.failed(format!("{msg}; {}", run.context())))?;
        }
        Ok(answer)
    }

    /// Writes the solver's input file with `write`.
    pub fn write_input(
        &self,
        path: &Path,
        write: impl FnOnce(&mut File) -> io::Result<()>,
    ) -> Result<(), ExternalError> {
        let err = |e: io::Error| self.failed(format!("writing {}: {e}", path.display()));
        let mut f = File::create(path).map_err(err)?;
        write(&mut f).map_err(err)?;
        f.flush().map_err(err)
    }

    /// Runs the solver on `input` (its `{}`), with `{out}` and the captured output in `dir`,
    /// until it exits or the deadline passes ([`ExternalError::TimedOut`]). A crash (signal) is
    /// an error; the answer is not read yet.
    pub fn run_on(
        &self,
        input: &Path,
        dir: &Path,
        deadline: Option<Instant>,
    ) -> Result<Finished, ExternalError> {
        match self.run_until(input, dir, deadline)? {
            Ended::Finished(run) => Ok(run),
            Ended::Killed { .. } => Err(ExternalError::TimedOut {
                solver: self.name.clone(),
            }),
        }
    }

    /// [`SolverCommand::run_on`], but a solver killed at the deadline gives what it had printed
    /// on stdout by then ([`Ended::Killed`]), for solvers that print improving answers as they
    /// go.
    pub fn run_until(
        &self,
        input: &Path,
        dir: &Path,
        deadline: Option<Instant>,
    ) -> Result<Ended, ExternalError> {
        let out_path = dir.join("answer.out");
        let (stdout_path, stderr_path) = (dir.join("stdout.txt"), dir.join("stderr.txt"));
        match fs::remove_file(&out_path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => {
                return Err(self.failed(format!("removing the old answer file: {e}")))
            }
            _ => {}
        }
        let Some(status) = self.run(input, &out_path, &stdout_path, &stderr_path, deadline)? else {
            return Ok(Ended::Killed {
                stdout: read_lossy(&stdout_path),
            });
        };
        let stdout = read_lossy(&stdout_path);
        let (answer, answer_from) = if self.uses_out_file {
            (read_lossy(&out_path), "its answer file")
        } else {
            (stdout.clone(), FROM_STDOUT)
        };
        let run = Finished {
            status,
            stdout,
            stderr: read_lossy(&stderr_path),
            answer,
            answer_from,
        };
        #[cfg(unix)]
        if let Some(sig) = std::os::unix::process::ExitStatusExt::signal(&run.status) {
            return Err(self.failed(format!("crashed (signal {sig}); {}", run.context())));
        }
        Ok(Ended::Finished(run))
    }

    /// Starts the solver (in its own process group) and waits for it until the deadline: its
    /// exit status, or `None` when it was killed at the deadline.
    fn run(
        &self,
        cnf: &Path,
        out: &Path,
        stdout: &Path,
        stderr: &Path,
        deadline: Option<Instant>,
    ) -> Result<Option<ExitStatus>, ExternalError> {
        let fill = |w: &String| {
            w.replace(OUT_PLACEHOLDER, &out.to_string_lossy())
                .replace(CNF_PLACEHOLDER, &cnf.to_string_lossy())
        };
        let mut cmd = Command::new(&self.words[0]);
        cmd.args(self.words[1..].iter().map(fill))
            .stdin(Stdio::null())
            .stdout(
                File::create(stdout).map_err(|e| self.failed(format!("capturing stdout: {e}")))?,
            )
            .stderr(
                File::create(stderr).map_err(|e| self.failed(format!("capturing stderr: {e}")))?,
            );
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd
            .spawn()
            .map_err(|e| self.failed(cannot_start(&self.words[0], &e)))?;
        let waited = match deadline {
            None => child.wait().map(Some),
            Some(d) => child.wait_timeout(d.saturating_duration_since(Instant::now())),
        };
        match waited {
            Ok(Some(status)) => Ok(Some(status)),
            Ok(None) => {
                kill(&mut child);
                Ok(None)
            }
            Err(e) => {
                kill(&mut child);
                Err(self.failed(format!("waiting for the solver: {e}")))
            }
        }
    }
}

/// [`Finished::answer_from`] when the answer is the solver's standard output.
const FROM_STDOUT: &str = "stdout";

/// How a solver run ended ([`SolverCommand::run_until`]).
pub enum Ended {
    /// By itself.
    Finished(Finished),
    /// Killed (with its process group) at the deadline; what it had printed on stdout by then.
    Killed { stdout: String },
}

/// A solver run that ended by itself.
pub struct Finished {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
    /// Where the answer is: stdout, or the `{out}` file.
    pub answer: String,
    /// "stdout" or "its answer file", for messages.
    pub answer_from: &'static str,
}

impl Finished {
    /// The exit status and the end of the output, to quote in an error.
    pub fn context(&self) -> String {
        let mut c = format!("exit {}", describe(&self.status));
        // The answer is stdout itself unless it came from the answer file.
        let file = if self.answer_from == FROM_STDOUT {
            ""
        } else {
            &self.answer
        };
        let tail = tail(&format!("{}{}{file}", self.stdout, self.stderr));
        if !tail.is_empty() {
            c += &format!("; output ends: «{tail}»");
        }
        c
    }
}

/// "cannot start PROGRAM: why", with a hint when the program is not found.
pub(crate) fn cannot_start(program: &str, e: &io::Error) -> String {
    let hint = if e.kind() == io::ErrorKind::NotFound {
        " (is it installed and on PATH?)"
    } else {
        ""
    };
    format!("cannot start '{program}': {e}{hint}")
}

/// Kills a child started with `process_group(0)` and everything it started: its process group,
/// and every descendant that moved to a group of its own (MiniZinc starts its solver that way),
/// found through `/proc` before anything is killed. Then reaps the child.
pub(crate) fn kill(child: &mut Child) {
    #[cfg(unix)]
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        // Stop the group first so that no one forks or reparents while the tree is read.
        // SAFETY: kill(2) with a negative pid signals the process group the child leads (it was
        // started with `process_group(0)`); it touches no memory of ours.
        unsafe {
            libc::kill(-pid, libc::SIGSTOP);
        }
        let others = descendants(pid);
        // SAFETY: as above; the other pids are descendants of the child, read just now.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
            for &p in &others {
                libc::kill(p, libc::SIGKILL);
            }
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// The processes descended from `root`, read from `/proc` (none where there is no `/proc`).
#[cfg(unix)]
fn descendants(root: libc::pid_t) -> Vec<libc::pid_t> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    // (pid, parent pid) of every process: `/proc/PID/stat` is "PID (COMM) STATE PPID …", and
    // COMM may hold spaces and parentheses, so the fields are read after the last ')'.
    let parents: Vec<(libc::pid_t, libc::pid_t)> = entries
        .filter_map(|e| {
            let pid: libc::pid_t = e.ok()?.file_name().to_str()?.parse().ok()?;
            let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let rest = &stat[stat.rfind(')')? + 1..];
            let ppid = rest.split_whitespace().nth(1)?.parse().ok()?;
            Some((pid, ppid))
        })
        .collect();
    let mut found = vec![root];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        found.extend(
            parents
                .iter()
                .filter(|&&(p, pp)| pp == parent && !found.contains(&p))
                .map(|&(p, _)| p)
                .collect::<Vec<_>>(),
        );
        i += 1;
    }
    found.remove(0);
    found
}

fn read_lossy(path: &Path) -> String {
    fs::read(path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
}

/// `code N` or `by signal`.
pub(crate) fn describe(status: &ExitStatus) -> String {
    match status.code() {
        Some(c) => format!("code {c}"),
        None => "by signal".into(),
    }
}

/// The last few non-empty lines of `text`, at most about 300 characters, on one line.
pub(crate) fn tail(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let mut t = lines[lines.len().saturating_sub(4)..].join(" ⏎ ");
    if t.chars().count() > 300 {
        let skip = t.chars().count() - 300;
        t = format!("…{}", t.chars().skip(skip).collect::<String>());
    }
    t
}

/// Reads a solver's answer: `s` status and `v` model lines; with `bare`, also MiniSat's answer
/// file (a bare `SAT` / `UNSAT` / `INDET` line, then bare literal lines). Other lines are
/// ignored. `n_vars` bounds the variables a model may name.
pub fn parse_answer(text: &str, n_vars: u32, bare: bool) -> Result<SatAnswer, String> {
    #[derive(PartialEq, Clone, Copy, Debug)]
    enum Status {
        Sat,
        Unsat,
        Unknown,
    }
    let mut status: Option<Status> = None;
    let mut values: Vec<Option<bool>> = vec![None; n_vars as usize];
    let mut saw_model = false;
    let mut terminated = false;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let t = line.trim();
        let (status_word, model) = if let Some(rest) = t.strip_prefix("s ") {
            (Some(rest.trim()), None)
        } else if let Some(rest) = t
            .strip_prefix("v ")
            .or(if t == "v" { Some("") } else { None })
        {
            (None, Some(rest))
        } else if bare && status.is_none() && !t.is_empty() && !t.starts_with('c') {
            (Some(t), None)
        } else if bare
            && status.is_some()
            && t.starts_with(|c: char| c == '-' || c.is_ascii_digit())
        {
            (None, Some(t))
        } else {
            continue;
        };
        if let Some(word) = status_word {
            let s = match word {
                "SATISFIABLE" | "SAT" => Status::Sat,
                "UNSATISFIABLE" | "UNSAT" => Status::Unsat,
                "UNKNOWN" | "INDETERMINATE" | "INDET" => Status::Unknown,
                other => return Err(format!("line {line_no}: unknown status '{other}'")),
            };
            if status.is_some_and(|old| old != s) {
                return Err(format!("line {line_no}: a second, different status line"));
            }
            status = Some(s);
        }
        if let Some(lits) = model {
            saw_model = true;
            for tok in lits.split_whitespace() {
                let x: i64 = tok
                    .parse()
                    .map_err(|_| format!("line {line_no}: '{tok}' is not a literal"))?;
                if terminated {
                    return Err(format!("line {line_no}: literal {x} after the closing 0"));
                }
                if x == 0 {
                    terminated = true;
                    continue;
                }
                let v = x.unsigned_abs();
                if v > n_vars as u64 {
                    return Err(format!(
                        "line {line_no}: literal {x} names a variable beyond the formula's {n_vars}"
                    ));
                }
                let slot = &mut values[v as usize - 1];
                if slot.is_some_and(|old| old != (x > 0)) {
                    return Err(format!(
                        "line {line_no}: variable {v} assigned both true and false"
                    ));
                }
                *slot = Some(x > 0);
            }
        }
    }
    match status {
        None => Err("no status line ('s SATISFIABLE' / 's UNSATISFIABLE')".into()),
        Some(Status::Unknown) => Err("the solver gave up (status UNKNOWN)".into()),
        Some(Status::Unsat) if saw_model => Err("a model printed with UNSATISFIABLE".into()),
        Some(Status::Unsat) => Ok(SatAnswer::Unsat),
        Some(Status::Sat) if !saw_model => Err("SATISFIABLE but no model ('v' lines)".into()),
        Some(Status::Sat) if !terminated => {
            Err("the model is not terminated by 0 (truncated output?)".into())
        }
        Some(Status::Sat) => Ok(SatAnswer::Sat(values)),
    }
}

/// `Ok` when every clause of `cnf` has a literal that `values` makes true.
pub fn check_model(cnf: &Cnf, values: &[Option<bool>]) -> Result<(), String> {
    for (i, clause) in cnf.clauses().enumerate() {
        let satisfied = clause
            .iter()
            .any(|l| values.get(l.vidx()).copied().flatten() == Some(l.is_pos()));
        if !satisfied {
            let lits: Vec<String> = clause.iter().map(|l| l.to_ipasir().to_string()).collect();
            return Err(format!(
                "the model does not satisfy clause {} ({} 0)",
                i + 1,
                lits.join(" ")
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders() {
        let c = SolverCommand::parse("cadical -q").unwrap();
        assert_eq!(c.words, ["cadical", "-q", "{}"]);
        assert!(!c.uses_out_file());
        let c = SolverCommand::parse("/usr/bin/minisat -verb=0").unwrap();
        assert_eq!(c.words, ["/usr/bin/minisat", "-verb=0", "{}", "{out}"]);
        assert_eq!(c.name(), "/usr/bin/minisat -verb=0");
        assert!(c.uses_out_file());
        let c = SolverCommand::parse("sh -c 'my-solver < {}' --model={out}").unwrap();
        assert_eq!(c.words, ["sh", "-c", "my-solver < {}", "--model={out}"]);
        let c = SolverCommand::parse("minizinc --fzn-flags '-p 1'").unwrap();
        let with = c.with_args(&["--solver", "gecode"]);
        assert_eq!(
            with.words,
            [
                "minizinc",
                "--solver",
                "gecode",
                "--fzn-flags",
                "-p 1",
                "{}"
            ]
        );
        assert_eq!(with.name(), "minizinc --fzn-flags '-p 1'");
        assert!(SolverCommand::parse("  ").is_err());
        assert!(SolverCommand::parse("cadical 'x").is_err());
    }

    #[test]
    fn competition_output() {
        let out = "c hello\ns SATISFIABLE\nv 1 -2\nv 3 0\n";
        assert_eq!(
            parse_answer(out, 3, false),
            Ok(SatAnswer::Sat(vec![Some(true), Some(false), Some(true)]))
        );
        assert_eq!(
            parse_answer("s UNSATISFIABLE\n", 3, false),
            Ok(SatAnswer::Unsat)
        );
        // MiniSat's answer file.
        assert_eq!(
            parse_answer("SAT\n-1 2 0\n", 2, true),
            Ok(SatAnswer::Sat(vec![Some(false), Some(true)]))
        );
        assert_eq!(parse_answer("UNSAT\n", 2, true), Ok(SatAnswer::Unsat));
    }

    #[test]
    fn malformed_output_is_an_error() {
        for (text, bare) in [
            ("", false),
            ("SATISFIABLE\n", false),
            ("s SATISFIABLE\n", false),
            ("s SATISFIABLE\nv 1 2\n", false),
            ("s SATISFIABLE\nv 1 x 0\n", false),
            ("s SATISFIABLE\nv 1 4 0\n", false),
            ("s SATISFIABLE\nv 1 -1 0\n", false),
            ("s SATISFIABLE\nv 1 0 2\n", false),
            ("s UNSATISFIABLE\ns SATISFIABLE\nv 0\n", false),
            ("s UNKNOWN\n", false),
            ("s MAYBE\n", false),
            ("s UNSATISFIABLE\nv 1 0\n", false),
            ("INDET\n", true),
            ("garbage\n", true),
        ] {
            assert!(
                parse_answer(text, 3, bare).is_err(),
                "{text:?} should be rejected"
            );
        }
    }

    #[test]
    fn model_must_satisfy_every_clause() {
        use crate::sat::Lit;
        let mut cnf = Cnf::new();
        cnf.add_clause(&[Lit::positive(0), Lit::positive(1)]);
        cnf.add_clause(&[Lit::negative(0)]);
        assert!(check_model(&cnf, &[Some(false), Some(true)]).is_ok());
        let e = check_model(&cnf, &[Some(true), Some(true)]).unwrap_err();
        assert!(e.contains("clause 2 (-1 0)"), "{e}");
        assert!(check_model(&cnf, &[Some(false), None]).is_err());
    }
}
