//! Runs a computation in a forked child process, so that a crash in foreign code (a segmentation
//! fault or an abort inside a C++ solver) ends that child only, and the caller gets an error for
//! the one puzzle instead of losing the whole run.
//!
//! [`run`] forks; the child runs the closure (catching a panic), writes its result to a pipe as
//! JSON and leaves with `_exit`, so none of the parent's destructors, buffers or threads run in
//! it. The parent reads the pipe and reaps the child. A child that dies by a signal, exits
//! without a result, or outlives the deadline by [`GRACE`] (it is then killed) gives a
//! [`Crash`]. The child is a copy of the parent at the fork, so the closure sees the caller's
//! data without copying it; only the result crosses the pipe.
//!
//! On other platforms than Unix the closure runs in the calling process.

use std::time::{Duration, Instant};

use serde::de::DeserializeOwned;
use serde::Serialize;

/// How long after the deadline a child that has not answered is killed: the closure is expected
/// to notice the deadline itself, and this only bounds a child that cannot (a long model build, a
/// hang).
pub const GRACE: Duration = Duration::from_secs(2);

/// Why a child gave no result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Crash {
    /// The child was ended by a signal (it crashed).
    #[error("the solver process crashed ({0})")]
    Signal(String),
    /// The closure panicked, with this message.
    #[error("the solver panicked ({0})")]
    Panic(String),
    /// The deadline and [`GRACE`] passed without a result; the child was killed.
    #[error("the solver did not stop at the deadline and was killed")]
    Killed,
    /// The child could not be started or its result could not be read.
    #[error("the solver process failed: {0}")]
    Io(String),
}

/// Runs `f` in a forked child and returns its result (see the module docs). `deadline` is the
/// closure's own deadline: the child is killed [`GRACE`] after it.
pub fn run<T, F>(deadline: Option<Instant>, f: F) -> Result<T, Crash>
where
    T: Serialize + DeserializeOwned,
    F: FnOnce() -> T,
{
    #[cfg(unix)]
    {
        unix::run(deadline, f)
    }
    #[cfg(not(unix))]
    {
        let _ = deadline;
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
            .map_err(|payload| Crash::Panic(panic_message(payload.as_ref())))
    }
}

/// The text of a panic's payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into())
}

#[cfg(unix)]
mod unix {
    use std::fs::File;
    use std::io::{Read, Write};
    use std::os::fd::{FromRawFd, OwnedFd};
    use std::time::Instant;

    use serde::de::DeserializeOwned;
    use serde::Serialize;

    use super::{panic_message, Crash, GRACE};

    pub(super) fn run<T, F>(deadline: Option<Instant>, f: F) -> Result<T, Crash>
    where
        T: Serialize + DeserializeOwned,
        F: FnOnce() -> T,
    {
        let mut fds = [0; 2];
        // SAFETY: `pipe2` writes two descriptors into `fds`, which we then own.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
            return Err(Crash::Io(format!(
                "pipe: {}",
                std::io::Error::last_os_error()
            )));
        }
        // SAFETY: both descriptors were just created and are owned by nothing else.
        let (read_end, write_end) =
            unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        // SAFETY: the child only runs `f`, writes to its pipe and leaves with `_exit`; it never
        // returns into the caller's frames (a panic is caught), so none of the parent's state is
        // used twice.
        let pid = unsafe { libc::fork() };
        if pid < 0 {
            return Err(Crash::Io(format!(
                "fork: {}",
                std::io::Error::last_os_error()
            )));
        }
        if pid == 0 {
            drop(read_end);
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
                .map_err(|payload| panic_message(payload.as_ref()));
            let bytes = serde_json::to_vec(&result).unwrap_or_default();
            let mut pipe = File::from(write_end);
            let code = match pipe.write_all(&bytes) {
                Ok(()) => 0,
                Err(_) => 1,
            };
            // SAFETY: ends the child at once, without unwinding or running the parent's
            // exit handlers.
            unsafe { libc::_exit(code) }
        }
        drop(write_end);
        let read = read_all(File::from(read_end), deadline);
        if read.is_none() {
            // SAFETY: `pid` is our child, not yet reaped.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        let status = reap(pid)?;
        let Some(bytes) = read else {
            return Err(Crash::Killed);
        };
        if libc::WIFSIGNALED(status) {
            return Err(Crash::Signal(signal_name(libc::WTERMSIG(status))));
        }
        match serde_json::from_slice::<Result<T, String>>(&bytes) {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(message)) => Err(Crash::Panic(message)),
            Err(_) if libc::WIFEXITED(status) && libc::WEXITSTATUS(status) != 0 => Err(Crash::Io(
                format!("the child exited with status {}", libc::WEXITSTATUS(status)),
            )),
            Err(e) => Err(Crash::Io(format!("unreadable result: {e}"))),
        }
    }

    /// Reads the pipe to its end; `None` when the deadline plus the grace passes first.
    fn read_all(mut pipe: File, deadline: Option<Instant>) -> Option<Vec<u8>> {
        use std::os::fd::AsRawFd;
        let kill_at = deadline.map(|d| d + GRACE);
        let mut bytes = Vec::new();
        let mut chunk = [0u8; 1 << 16];
        loop {
            if let Some(kill_at) = kill_at {
                let left = kill_at.saturating_duration_since(Instant::now());
                let mut poll = libc::pollfd {
                    fd: pipe.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                };
                let ms = left.as_millis().min(i32::MAX as u128) as i32;
                // SAFETY: one valid pollfd.
                let ready = unsafe { libc::poll(&mut poll, 1, ms) };
                if ready == 0 {
                    return None;
                }
                if ready < 0
                    && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted
                {
                    return Some(bytes);
                }
                if ready < 0 {
                    continue;
                }
            }
            match pipe.read(&mut chunk) {
                Ok(0) => return Some(bytes),
                Ok(k) => bytes.extend_from_slice(&chunk[..k]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => return Some(bytes),
            }
        }
    }

    /// Waits for the child to end and returns its wait status.
    fn reap(pid: libc::pid_t) -> Result<libc::c_int, Crash> {
        let mut status = 0;
        loop {
            // SAFETY: `pid` is our child; `status` is a valid out-pointer.
            let got = unsafe { libc::waitpid(pid, &mut status, 0) };
            if got == pid {
                return Ok(status);
            }
            let err = std::io::Error::last_os_error();
            if err.kind() != std::io::ErrorKind::Interrupted {
                return Err(Crash::Io(format!("waitpid: {err}")));
            }
        }
    }

    fn signal_name(signal: libc::c_int) -> String {
        let name = match signal {
            libc::SIGSEGV => "segmentation fault",
            libc::SIGABRT => "abort",
            libc::SIGBUS => "bus error",
            libc::SIGILL => "illegal instruction",
            libc::SIGFPE => "arithmetic exception",
            libc::SIGKILL => "killed",
            _ => "signal",
        };
        format!("{name}, signal {signal}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn returns_the_closures_result() {
        let data: Vec<u32> = (0..1000).collect();
        let sum: u64 = run(None, || data.iter().map(|&x| x as u64).sum()).unwrap();
        assert_eq!(sum, 499_500);
    }

    #[test]
    fn a_panic_is_reported_with_its_message() {
        let got = run::<u8, _>(None, || panic!("deliberate"));
        assert!(
            matches!(&got, Err(Crash::Panic(m)) if m.contains("deliberate")),
            "{got:?}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_crash_ends_the_child_only() {
        // A write through a null pointer, as a crashing C++ solver would do.
        let got = run::<u8, _>(None, || unsafe {
            std::ptr::null_mut::<u8>().write_volatile(1);
            0
        });
        assert!(
            matches!(&got, Err(Crash::Signal(s)) if s.contains("segmentation")),
            "{got:?}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn an_abort_ends_the_child_only() {
        let got = run::<u8, _>(None, || std::process::abort());
        assert!(
            matches!(&got, Err(Crash::Signal(s)) if s.contains("abort")),
            "{got:?}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_child_past_its_deadline_is_killed() {
        let deadline = Instant::now();
        let started = Instant::now();
        let got = run::<u8, _>(Some(deadline), || loop {
            std::thread::sleep(Duration::from_millis(50));
        });
        assert_eq!(got, Err(Crash::Killed));
        assert!(started.elapsed() < GRACE + Duration::from_secs(5));
    }
}
