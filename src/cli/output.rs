//! The output-file options of every command (`-o`, `--json`, `--csv`, `--plot`, `--html`): a
//! file, or `-` for standard output, as `-` is standard input among the puzzle files.
//!
//! A file is checked to be writable when the flags are resolved, before any work starts; what
//! goes to standard output takes the place of what the command prints there otherwise (its
//! table, its list of files written), so that the output can be piped on as it is.

use std::fmt;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use super::args::writable;
use super::UsageError;

/// Where one output-file option writes: the flag's value, and the flag (named in messages).
#[derive(Debug, Clone)]
pub struct Output {
    flag: &'static str,
    /// `None`: standard output.
    file: Option<PathBuf>,
}

impl Output {
    /// The value `path` of `flag`: `-` is standard output; a file must be writable.
    pub fn resolve(path: PathBuf, flag: &'static str) -> Result<Output, UsageError> {
        if path.as_os_str() == "-" {
            return Ok(Output { flag, file: None });
        }
        writable(&path, flag)?;
        Ok(Output {
            flag,
            file: Some(path),
        })
    }

    /// [`Output::resolve`] of a flag that may be missing.
    pub fn resolve_opt(
        path: Option<PathBuf>,
        flag: &'static str,
    ) -> Result<Option<Output>, UsageError> {
        path.map(|p| Output::resolve(p, flag)).transpose()
    }

    /// Whether this is standard output.
    pub fn is_stdout(&self) -> bool {
        self.file.is_none()
    }

    /// The file, `None` for standard output.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// Writes `bytes` as the whole output (a file is replaced); the error names the flag and
    /// the file.
    pub fn write(&self, bytes: &[u8]) -> Result<(), String> {
        let written = match &self.file {
            Some(path) => std::fs::write(path, bytes),
            None => write_stdout(bytes),
        };
        written.map_err(|e| format!("{self}: cannot write: {e}"))
    }
}

impl fmt::Display for Output {
    /// The flag and its value, as given: `--json rows.json`, `-o -`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.file {
            Some(path) => write!(f, "{} {}", self.flag, path.display()),
            None => write!(f, "{} -", self.flag),
        }
    }
}

/// Checks the file of an option that writes files only (`--proof`, which writes FILE and
/// FILE.cnf; `fuzz --regressions`, which appends): `-` is refused rather than taken as a file
/// named `-`, and the file must be writable.
pub fn file_only(path: &Path, flag: &str, why: &str) -> Result<(), UsageError> {
    if path.as_os_str() == "-" {
        return Err(UsageError(format!(
            "{flag} -: {flag} writes a file, not standard output ({why})"
        )));
    }
    writable(path, flag)
}

/// Writes to standard output; a closed pipe ends the program quietly (like `head` closing it).
fn write_stdout(bytes: &[u8]) -> io::Result<()> {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|_| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => std::process::exit(0),
        r => r,
    }
}

/// Whether one of a command's outputs is standard output (then the command prints nothing else
/// there); two of them cannot be.
pub fn to_stdout<'a>(
    outputs: impl IntoIterator<Item = &'a Option<Output>>,
) -> Result<bool, UsageError> {
    let flags: Vec<&str> = outputs
        .into_iter()
        .flatten()
        .filter(|o| o.is_stdout())
        .map(|o| o.flag)
        .collect();
    match flags[..] {
        [] => Ok(false),
        [_] => Ok(true),
        _ => Err(UsageError(format!(
            "{} cannot all write to standard output (-): give files to all but one",
            flags.join(", ")
        ))),
    }
}
