//! Running other programs: the external SAT and MaxSAT solvers, MiniZinc, the programs of the
//! `cmd` backend and the worker processes of [`crate::isolate`] all start here, and nothing else
//! in the library starts a process.
//!
//! A [`CommandLine`] is a command split like a POSIX shell would (quotes allowed), with two
//! optional placeholders, each replaced inside any argument when the program runs:
//!
//! * `{}` ([`INPUT_PLACEHOLDER`]): the input file ([`CommandLine::reading_file`] appends it when
//!   the command does not name it);
//! * `{out}` ([`OUT_PLACEHOLDER`]): a file the program writes its answer to; the answer is then
//!   read from that file instead of standard output.
//!
//! Every program runs in a process group of its own, under the memory limit of the command line
//! when it has one ([`CommandLine::with_memory_limit`]: the address space, `RLIMIT_AS`, on Unix).
//! [`CommandLine::run_until`] runs it to completion on an input file with its output captured in
//! a directory, and at the deadline kills it with everything it started ([`kill`]);
//! [`CommandLine::spawn_piped`] and [`start_worker`] start one to talk to over pipes
//! ([`Piped`]: its output read line by line by a thread of its own, so that a wait for a line
//! can stop at a deadline or a cancel flag, [`Halt::recv`]). The error messages quote the end of
//! what the program printed ([`tail`]); [`crash_name`] names the signal that ended one.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex, PoisonError};

use wait_timeout::ChildExt;

use crate::cancel::Halt;

/// Why a program gave no usable answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProcessError {
    /// The command line cannot be used (empty, unbalanced quotes).
    #[error("bad solver command '{command}': {msg}")]
    BadCommand { command: String, msg: String },
    /// The program could not be started (not found, not executable…).
    #[error("cannot start '{program}': {why}")]
    CannotStart { program: String, why: String },
    /// The deadline passed while the program ran (it was killed).
    #[error("{solver}: timed out")]
    TimedOut { solver: String },
    /// The program could not be run, crashed, or printed something that is not a valid answer.
    #[error("solver '{solver}': {msg}")]
    Failed { solver: String, msg: String },
}

/// The placeholder for the input file.
pub const INPUT_PLACEHOLDER: &str = "{}";
/// The placeholder for a file the program writes its answer to.
pub const OUT_PLACEHOLDER: &str = "{out}";

/// A parsed command line (see the module documentation for the placeholders).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandLine {
    /// The program and its arguments, placeholders still in place.
    words: Vec<String>,
    /// The command as given, naming the program in error messages.
    name: String,
    /// The most memory the program may map, in bytes.
    memory_limit: Option<u64>,
}

impl CommandLine {
    /// Splits `command`; an empty command or unbalanced quotes are [`ProcessError::BadCommand`].
    pub fn parse(command: &str) -> Result<CommandLine, ProcessError> {
        let bad = |msg: &str| ProcessError::BadCommand {
            command: command.to_string(),
            msg: msg.to_string(),
        };
        let words = shlex::split(command).ok_or_else(|| bad("unbalanced quotes"))?;
        if words.is_empty() {
            return Err(bad("empty command"));
        }
        Ok(CommandLine {
            words,
            name: command.trim().to_string(),
            memory_limit: None,
        })
    }

    /// This command with the input file `{}` as its last argument, unless an argument names it.
    pub fn reading_file(self) -> CommandLine {
        self.with_placeholder(INPUT_PLACEHOLDER)
    }

    /// This command with the answer file `{out}` as its last argument, unless an argument names
    /// it.
    pub fn writing_answer_file(self) -> CommandLine {
        self.with_placeholder(OUT_PLACEHOLDER)
    }

    fn with_placeholder(mut self, placeholder: &str) -> CommandLine {
        if !self.mentions(placeholder) {
            self.words.push(placeholder.into());
        }
        self
    }

    /// Whether an argument (not the program) holds `placeholder`.
    fn mentions(&self, placeholder: &str) -> bool {
        self.words[1..].iter().any(|w| w.contains(placeholder))
    }

    /// This command with `args` inserted right after the program (before the arguments given
    /// with it); it keeps the name of the command as given.
    pub fn with_args<S: AsRef<str>>(&self, args: &[S]) -> CommandLine {
        let mut words = vec![self.words[0].clone()];
        words.extend(args.iter().map(|a| a.as_ref().to_string()));
        words.extend(self.words[1..].iter().cloned());
        CommandLine {
            words,
            ..self.clone()
        }
    }

    /// This command, run with at most `bytes` of address space (Unix; elsewhere it is ignored).
    pub fn with_memory_limit(self, bytes: u64) -> CommandLine {
        CommandLine {
            memory_limit: Some(bytes),
            ..self
        }
    }

    /// The command as given (names the program in messages).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The program and its arguments, placeholders still in place.
    pub fn words(&self) -> &[String] {
        &self.words
    }

    /// The file name of the program, without its directory.
    pub fn program_name(&self) -> String {
        let program = &self.words[0];
        Path::new(program)
            .file_name()
            .map_or_else(|| program.clone(), |f| f.to_string_lossy().into_owned())
    }

    /// Whether the answer is read from the `{out}` file.
    pub fn uses_out_file(&self) -> bool {
        self.mentions(OUT_PLACEHOLDER)
    }

    /// An error naming this program.
    pub fn failed(&self, msg: impl Into<String>) -> ProcessError {
        ProcessError::Failed {
            solver: self.name.clone(),
            msg: msg.into(),
        }
    }

    /// Writes the program's input file with `write`.
    pub fn write_input(
        &self,
        path: &Path,
        write: impl FnOnce(&mut File) -> io::Result<()>,
    ) -> Result<(), ProcessError> {
        let err = |e: io::Error| self.failed(format!("writing {}: {e}", path.display()));
        let mut f = File::create(path).map_err(err)?;
        write(&mut f).map_err(err)?;
        f.flush().map_err(err)
    }

    /// The process of this command, placeholders filled by `fill`, in a process group of its
    /// own and under the memory limit.
    fn command(&self, fill: impl Fn(&str) -> String) -> Command {
        let mut cmd = grouped(&self.words[0], self.words[1..].iter().map(|w| fill(w)));
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            if let Some(bytes) = self.memory_limit {
                let limit = libc::rlimit {
                    rlim_cur: bytes as libc::rlim_t,
                    rlim_max: bytes as libc::rlim_t,
                };
                // SAFETY: runs in the child between fork and exec, and calls only setrlimit(2),
                // which is async-signal-safe and reads nothing but `limit`, a copy of our own.
                unsafe {
                    cmd.pre_exec(move || {
                        if libc::setrlimit(libc::RLIMIT_AS, &limit) == 0 {
                            Ok(())
                        } else {
                            Err(io::Error::last_os_error())
                        }
                    });
                }
            }
        }
        cmd
    }

    /// Starts the program (placeholders left as they are) for a conversation: its standard
    /// input and output piped, its answer lines at most `max_line` bytes, the last lines of its
    /// standard error kept ([`Piped::stderr_tail`]). [`ProcessError::CannotStart`] says why it
    /// could not start.
    pub fn spawn_piped(&self, max_line: u64) -> Result<Piped, ProcessError> {
        Piped::start(self.command(str::to_string), &self.words[0], max_line, true)
    }

    /// Runs the program on `input` (its `{}`) until it exits or the deadline passes, or the
    /// cancel flag of `halt` is set ([`ProcessError::TimedOut`]; `halt` may be a bare deadline).
    /// A crash (signal) is an error; the answer is not read yet.
    pub fn run_on(
        &self,
        input: &Path,
        dir: &Path,
        halt: impl Into<Halt>,
    ) -> Result<Finished, ProcessError> {
        match self.run_until(input, dir, halt)? {
            Ended::Finished(run) => Ok(run),
            Ended::Killed { .. } => Err(ProcessError::TimedOut {
                solver: self.name.clone(),
            }),
        }
    }

    /// [`CommandLine::run_on`], but a program killed at the deadline gives what it had printed
    /// on stdout by then ([`Ended::Killed`]), for solvers that print improving answers as they
    /// go. `{out}`, the captured stdout and stderr are files in `dir`; the same directory can
    /// serve many runs.
    pub fn run_until(
        &self,
        input: &Path,
        dir: &Path,
        halt: impl Into<Halt>,
    ) -> Result<Ended, ProcessError> {
        let out_path = dir.join("answer.out");
        let (stdout_path, stderr_path) = (dir.join("stdout.txt"), dir.join("stderr.txt"));
        match fs::remove_file(&out_path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => {
                return Err(self.failed(format!("removing the old answer file: {e}")))
            }
            _ => {}
        }
        let capture = |path: &Path, what: &str| {
            File::create(path).map_err(|e| self.failed(format!("capturing {what}: {e}")))
        };
        let mut cmd = self.command(|w| {
            w.replace(OUT_PLACEHOLDER, &out_path.to_string_lossy())
                .replace(INPUT_PLACEHOLDER, &input.to_string_lossy())
        });
        cmd.stdin(Stdio::null())
            .stdout(capture(&stdout_path, "stdout")?)
            .stderr(capture(&stderr_path, "stderr")?);
        let Some(status) = self.wait(cmd, &halt.into())? else {
            return Ok(Ended::Killed {
                stdout: read_lossy(&stdout_path),
            });
        };
        let stdout = read_lossy(&stdout_path);
        let (answer, answer_from) = if self.uses_out_file() {
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
        if let Some(sig) = signal(&run.status) {
            return Err(self.failed(format!("crashed (signal {sig}); {}", run.context())));
        }
        Ok(Ended::Finished(run))
    }

    /// Starts `cmd` and waits for it until the deadline, looking at the cancel flag every
    /// [`crate::cancel::CANCEL_POLL`]: its exit status, or `None` when it was killed at the deadline or on
    /// the flag.
    fn wait(&self, mut cmd: Command, halt: &Halt) -> Result<Option<ExitStatus>, ProcessError> {
        let mut child = spawn(&mut cmd)
            .map_err(|e| self.failed(cannot_start(&self.words[0], &e).to_string()))?;
        let waited = halt.wait(|wait| match wait {
            None => child.wait().map(Some),
            Some(slice) => child.wait_timeout(slice),
        });
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

/// [`Finished::answer_from`] when the answer is the program's standard output.
const FROM_STDOUT: &str = "stdout";

/// How a run ended ([`CommandLine::run_until`]).
pub enum Ended {
    /// By itself.
    Finished(Finished),
    /// Killed (with its process group) at the deadline; what it had printed on stdout by then.
    Killed { stdout: String },
}

/// A run that ended by itself.
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

/// Starts `cmd`, again a few times while the program file is busy: a script written just
/// before (by this process or another) can be held open for writing by a child that another
/// thread forked in the meantime, until that child's `exec` closes it.
fn spawn(cmd: &mut Command) -> io::Result<std::process::Child> {
    let mut tries = 0;
    loop {
        match cmd.spawn() {
            Err(e) if e.kind() == io::ErrorKind::ExecutableFileBusy && tries < 50 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            result => return result,
        }
    }
}

/// "cannot start PROGRAM: why", with a hint when the program is not found.
fn cannot_start(program: &str, e: &io::Error) -> ProcessError {
    let hint = if e.kind() == io::ErrorKind::NotFound {
        " (is it installed and on PATH?)"
    } else {
        ""
    };
    ProcessError::CannotStart {
        program: program.to_string(),
        why: format!("{e}{hint}"),
    }
}

/// `program args…` in a process group of its own (Unix), so that a Ctrl-C at the terminal
/// reaches the caller only and [`kill`] ends everything it starts.
fn grouped<S: AsRef<std::ffi::OsStr>>(
    program: impl AsRef<std::ffi::OsStr>,
    args: impl IntoIterator<Item = S>,
) -> Command {
    let mut cmd = Command::new(program);
    cmd.args(args);
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    cmd
}

/// Starts a worker program of [`crate::isolate`]: `program args…` in a process group of its
/// own, its standard input and output piped (lines of any length), its standard error the
/// caller's.
pub fn start_worker(program: &Path, args: &[OsString]) -> Result<Piped, ProcessError> {
    let name = program.display().to_string();
    Piped::start(grouped(program, args), &name, u64::MAX, false)
}

/// How many lines of a piped program's standard error are kept ([`Piped::stderr_tail`]).
const KEPT_STDERR_LINES: usize = 4;

/// Why a line of a piped program's output could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("an answer line longer than {0} bytes")]
    TooLong(u64),
    #[error("reading its output: {0}")]
    Read(String),
}

/// A program started to talk to over pipes ([`CommandLine::spawn_piped`], [`start_worker`]).
pub struct Piped {
    pub child: Child,
    /// Its standard input; `None` once closed ([`Piped::close_input`]).
    pub input: Option<ChildStdin>,
    /// Its output, line by line as a thread reads it (each line with its `\n`; the last one may
    /// lack it), until its output closes (then the channel disconnects) or a line cannot be
    /// read (a [`LineError`], then the channel disconnects).
    pub lines: Receiver<Result<Vec<u8>, LineError>>,
    /// The last lines of its standard error, when it is piped.
    errors: Option<Arc<Mutex<VecDeque<String>>>>,
}

impl Piped {
    /// Starts `cmd` with its input and output piped (and its standard error when
    /// `keep_stderr`), and the threads that read them.
    fn start(
        mut cmd: Command,
        program: &str,
        max_line: u64,
        keep_stderr: bool,
    ) -> Result<Piped, ProcessError> {
        let stderr = if keep_stderr {
            Stdio::piped()
        } else {
            Stdio::inherit()
        };
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr);
        let mut child = spawn(&mut cmd).map_err(|e| cannot_start(program, &e))?;
        let input = child.stdin.take();
        let out = child.stdout.take().map(BufReader::new);
        let (send, lines) = mpsc::channel();
        if let Some(mut out) = out {
            let reading = std::thread::Builder::new()
                .name("process-reader".into())
                .spawn(move || loop {
                    let mut line = Vec::new();
                    let read = match (&mut out).take(max_line).read_until(b'\n', &mut line) {
                        Ok(0) => return,
                        Ok(_) if line.last() != Some(&b'\n') && line.len() as u64 >= max_line => {
                            Err(LineError::TooLong(max_line))
                        }
                        Ok(_) => Ok(line),
                        Err(e) => Err(LineError::Read(e.to_string())),
                    };
                    let stop = read.is_err();
                    if send.send(read).is_err() || stop {
                        return;
                    }
                });
            if let Err(e) = reading {
                kill(&mut child);
                return Err(ProcessError::Failed {
                    solver: program.to_string(),
                    msg: format!("cannot start the thread reading its output: {e}"),
                });
            }
        }
        let errors = child.stderr.take().map(|err| {
            let errors = Arc::new(Mutex::new(VecDeque::new()));
            let kept = Arc::clone(&errors);
            std::thread::spawn(move || {
                for line in BufReader::new(err).lines() {
                    let Ok(line) = line else { break };
                    let mut e = kept.lock().unwrap_or_else(PoisonError::into_inner);
                    if e.len() == KEPT_STDERR_LINES {
                        e.pop_front();
                    }
                    e.push_back(line);
                }
            });
            errors
        });
        Ok(Piped {
            child,
            input,
            lines,
            errors,
        })
    }

    /// Writes `bytes` to its standard input and flushes them.
    pub fn send(&mut self, bytes: &[u8]) -> io::Result<()> {
        match self.input.as_mut() {
            Some(input) => input.write_all(bytes).and_then(|()| input.flush()),
            None => Err(io::Error::other("no standard input")),
        }
    }

    /// Closes its standard input (a well-behaved program then exits).
    pub fn close_input(&mut self) {
        self.input = None;
    }

    /// The end of what it wrote on its standard error ([`tail`]; empty when not piped).
    pub fn stderr_tail(&self) -> String {
        let Some(errors) = &self.errors else {
            return String::new();
        };
        let errors = errors.lock().unwrap_or_else(PoisonError::into_inner);
        let lines: Vec<&str> = errors.iter().map(String::as_str).collect();
        tail(&lines.join("\n"))
    }
}

/// Kills a child started here and everything it started: its process group, and every
/// descendant that moved to a group of its own (MiniZinc starts its solver that way), found
/// through `/proc` before anything is killed. Then reaps the child.
pub fn kill(child: &mut Child) {
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

/// What ended a process that a signal ended ("segmentation fault, signal 11"), or, elsewhere,
/// a non-zero exit code; `None` when it exited by itself (Unix) or with code 0.
pub fn crash_name(status: &ExitStatus) -> Option<String> {
    #[cfg(unix)]
    {
        let signal = signal(status)?;
        let name = match signal {
            libc::SIGSEGV => "segmentation fault",
            libc::SIGABRT => "abort",
            libc::SIGBUS => "bus error",
            libc::SIGILL => "illegal instruction",
            libc::SIGFPE => "arithmetic exception",
            libc::SIGKILL => "killed",
            _ => "signal",
        };
        Some(format!("{name}, signal {signal}"))
    }
    #[cfg(not(unix))]
    status
        .code()
        .filter(|&c| c != 0)
        .map(|c| format!("exit code {c}"))
}

/// The signal that ended a process, if one did (Unix).
pub fn signal(status: &ExitStatus) -> Option<i32> {
    #[cfg(unix)]
    return std::os::unix::process::ExitStatusExt::signal(status);
    #[cfg(not(unix))]
    {
        let _ = status;
        None
    }
}

/// `code N` or `by signal`.
pub fn describe(status: &ExitStatus) -> String {
    match status.code() {
        Some(c) => format!("code {c}"),
        None => "by signal".into(),
    }
}

/// The last few non-empty lines of `text`, at most about 300 characters, on one line.
pub fn tail(text: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn placeholders() {
        let c = CommandLine::parse("cadical -q").unwrap().reading_file();
        assert_eq!(c.words(), ["cadical", "-q", "{}"]);
        assert!(!c.uses_out_file());
        let c = CommandLine::parse("sh -c 'my-solver < {}' --model={out}")
            .unwrap()
            .reading_file()
            .writing_answer_file();
        assert_eq!(c.words(), ["sh", "-c", "my-solver < {}", "--model={out}"]);
        assert!(c.uses_out_file());
        let c = CommandLine::parse("/usr/bin/minizinc --fzn-flags '-p 1'").unwrap();
        assert_eq!(c.program_name(), "minizinc");
        let with = c.reading_file().with_args(&["--solver", "gecode"]);
        assert_eq!(
            with.words(),
            [
                "/usr/bin/minizinc",
                "--solver",
                "gecode",
                "--fzn-flags",
                "-p 1",
                "{}"
            ]
        );
        assert_eq!(with.name(), "/usr/bin/minizinc --fzn-flags '-p 1'");
        assert!(CommandLine::parse("  ").is_err());
        assert!(CommandLine::parse("cadical 'x").is_err());
    }

    #[cfg(unix)]
    #[test]
    fn runs_capture_output_and_stop_at_the_deadline() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.txt");
        let cat = CommandLine::parse("cat").unwrap().reading_file();
        cat.write_input(&input, |f| f.write_all(b"s SATISFIABLE\n"))
            .unwrap();
        let run = cat.run_on(&input, dir.path(), None).unwrap();
        assert_eq!(
            (run.status.code(), run.answer.as_str()),
            (Some(0), "s SATISFIABLE\n")
        );

        let slow = CommandLine::parse("sh -c 'echo first; sleep 5; echo late' {}").unwrap();
        let start = Instant::now();
        let deadline = Some(start + std::time::Duration::from_millis(300));
        let Ended::Killed { stdout } = slow.run_until(&input, dir.path(), deadline).unwrap() else {
            panic!("not killed at the deadline");
        };
        assert_eq!(stdout, "first\n");
        assert!(start.elapsed() < std::time::Duration::from_secs(3));
        let e = slow.run_on(&input, dir.path(), deadline).err().unwrap();
        assert_eq!(
            e.to_string(),
            "sh -c 'echo first; sleep 5; echo late' {}: timed out"
        );

        let missing = CommandLine::parse("no-such-program-here").unwrap();
        let e = missing.run_on(&input, dir.path(), None).err().unwrap();
        assert!(
            e.to_string().contains("is it installed and on PATH?"),
            "{e}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn the_memory_limit_is_the_programs_address_space() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.txt");
        // `ulimit -v` prints the address-space limit in KiB.
        let ulimit = CommandLine::parse("sh -c 'ulimit -v' {}").unwrap();
        let run = ulimit.run_on(&input, dir.path(), None).unwrap();
        assert_ne!(run.stdout.trim(), "65536");
        let limited = ulimit.with_memory_limit(64 << 20);
        let run = limited.run_on(&input, dir.path(), None).unwrap();
        assert_eq!(run.stdout.trim(), "65536");
    }
}
