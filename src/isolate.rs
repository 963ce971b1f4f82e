//! Runs computations in a worker process, so that a crash in foreign code (a segmentation fault
//! or an abort inside a C++ solver) ends that worker only, and the caller gets an error for the
//! one puzzle instead of losing the whole run.
//!
//! [`call`] sends a request to the calling thread's worker for that handler, forking the worker
//! on first use: a copy of this process that reads requests from a pipe, answers each with the
//! handler (catching a panic), and writes the answer back, both as one line of JSON. The worker
//! lives as long as its thread (Linux ends it with the thread, through `PR_SET_PDEATHSIG`), so a
//! batch pays for one fork per thread, not one per puzzle. A worker that dies by a signal, or
//! outlives the request's deadline by [`GRACE`] (it is then killed), gives a [`Crash`]; the next
//! call forks a new one.
//!
//! The worker never returns into the caller's frames: it ignores `SIGINT` (the caller decides
//! when to stop), keeps no descriptor but its two pipes and standard error, and leaves with
//! `_exit` when its requests end. On other platforms than Unix the handler runs in the calling
//! thread.

use std::time::{Duration, Instant};

use serde::de::DeserializeOwned;
use serde::Serialize;

/// How long after the deadline a worker that has not answered is killed: the handler is expected
/// to notice the deadline itself, and this only bounds one that cannot (a long model build, a
/// hang).
pub const GRACE: Duration = Duration::from_secs(2);

/// Why a request got no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Crash {
    /// The worker was ended by a signal (it crashed).
    #[error("the solver process crashed ({0})")]
    Signal(String),
    /// The handler panicked, with this message.
    #[error("the solver panicked ({0})")]
    Panic(String),
    /// The deadline and [`GRACE`] passed without an answer; the worker was killed.
    #[error("the solver did not stop at the deadline and was killed")]
    Killed,
    /// The worker could not be started, or its answer could not be read.
    #[error("the solver process failed: {0}")]
    Io(String),
}

/// Answers `request` with `handler` in this thread's worker process for `handler` (see the
/// module docs). `deadline` is the handler's own deadline, which the request must carry: the
/// worker is killed [`GRACE`] after it.
pub fn call<Req, Resp>(
    handler: fn(Req) -> Resp,
    request: &Req,
    deadline: Option<Instant>,
) -> Result<Resp, Crash>
where
    Req: Serialize + DeserializeOwned,
    Resp: Serialize + DeserializeOwned,
{
    #[cfg(unix)]
    {
        unix::call(handler, request, deadline)
    }
    #[cfg(not(unix))]
    {
        let _ = deadline;
        let request =
            serde_json::from_value(serde_json::to_value(request).map_err(io)?).map_err(io)?;
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(request)))
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

fn io(e: impl std::fmt::Display) -> Crash {
    Crash::Io(e.to_string())
}

#[cfg(unix)]
mod unix {
    use std::cell::RefCell;
    use std::fs::File;
    use std::io::{BufRead, BufReader, Write};
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
    use std::time::Instant;

    use serde::de::DeserializeOwned;
    use serde::Serialize;

    use super::{io, panic_message, Crash, GRACE};

    /// A worker process and the two ends of its pipes.
    struct Worker {
        pid: libc::pid_t,
        requests: File,
        answers: BufReader<File>,
        /// Already waited for (it died): the drop must not signal or wait for it again.
        reaped: bool,
    }

    impl Drop for Worker {
        fn drop(&mut self) {
            if !self.reaped {
                // SAFETY: `pid` is our child, not yet reaped; it is reaped here.
                unsafe {
                    libc::kill(self.pid, libc::SIGKILL);
                    libc::waitpid(self.pid, std::ptr::null_mut(), 0);
                }
            }
        }
    }

    thread_local! {
        /// This thread's workers, by the address of their handler.
        static WORKERS: RefCell<Vec<(usize, Worker)>> = const { RefCell::new(Vec::new()) };
    }

    pub(super) fn call<Req, Resp>(
        handler: fn(Req) -> Resp,
        request: &Req,
        deadline: Option<Instant>,
    ) -> Result<Resp, Crash>
    where
        Req: Serialize + DeserializeOwned,
        Resp: Serialize + DeserializeOwned,
    {
        let key = handler as usize;
        let mut line = serde_json::to_vec(request).map_err(io)?;
        line.push(b'\n');
        let mut worker = match WORKERS.with_borrow_mut(|all| {
            let at = all.iter().position(|(k, _)| *k == key)?;
            Some(all.swap_remove(at).1)
        }) {
            Some(worker) => worker,
            None => spawn(handler)?,
        };
        let answer = exchange(&mut worker, &line, deadline);
        match answer {
            Ok(bytes) => {
                WORKERS.with_borrow_mut(|all| all.push((key, worker)));
                match serde_json::from_slice::<Result<Resp, String>>(&bytes) {
                    Ok(Ok(answer)) => Ok(answer),
                    Ok(Err(message)) => Err(Crash::Panic(message)),
                    Err(e) => Err(Crash::Io(format!("unreadable answer: {e}"))),
                }
            }
            Err(Exchange::Late) => Err(Crash::Killed),
            Err(Exchange::Ended) => Err(ended(worker)),
        }
    }

    enum Exchange {
        /// The deadline and the grace passed.
        Late,
        /// The worker closed its end: it died.
        Ended,
    }

    /// Writes the request and reads one answer line.
    fn exchange(
        worker: &mut Worker,
        line: &[u8],
        deadline: Option<Instant>,
    ) -> Result<Vec<u8>, Exchange> {
        worker
            .requests
            .write_all(line)
            .map_err(|_| Exchange::Ended)?;
        if let Some(kill_at) = deadline.map(|d| d + GRACE) {
            if worker.answers.buffer().is_empty() && !readable(worker.answers.get_ref(), kill_at) {
                return Err(Exchange::Late);
            }
        }
        let mut answer = Vec::new();
        match worker.answers.read_until(b'\n', &mut answer) {
            Ok(_) if answer.last() == Some(&b'\n') => Ok(answer),
            _ => Err(Exchange::Ended),
        }
    }

    /// Waits until `pipe` has something to read (or is closed); `false` when `until` passes first.
    fn readable(pipe: &File, until: Instant) -> bool {
        loop {
            let left = until.saturating_duration_since(Instant::now());
            let mut poll = libc::pollfd {
                fd: pipe.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            let ms = left.as_millis().min(i32::MAX as u128) as i32;
            // SAFETY: one valid pollfd.
            match unsafe { libc::poll(&mut poll, 1, ms) } {
                0 => return false,
                n if n > 0 => return true,
                _ if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted => {}
                _ => return true,
            }
        }
    }

    /// What ended a worker that closed its pipe, once it is reaped.
    fn ended(mut worker: Worker) -> Crash {
        let pid = worker.pid;
        let mut status = 0;
        let reaped = loop {
            // SAFETY: `pid` is our child; `status` is a valid out-pointer.
            let got = unsafe { libc::waitpid(pid, &mut status, 0) };
            if got == pid {
                break true;
            }
            if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                break false;
            }
        };
        worker.reaped = reaped;
        if reaped && libc::WIFSIGNALED(status) {
            Crash::Signal(signal_name(libc::WTERMSIG(status)))
        } else {
            Crash::Io("the solver process ended without an answer".into())
        }
    }

    fn pipe() -> Result<(OwnedFd, OwnedFd), Crash> {
        let mut fds = [0; 2];
        // SAFETY: `pipe2` writes two descriptors into `fds`, which we then own.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
            return Err(io(format!("pipe: {}", std::io::Error::last_os_error())));
        }
        // SAFETY: both descriptors were just created and are owned by nothing else.
        Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
    }

    /// Forks a worker serving `handler`.
    fn spawn<Req, Resp>(handler: fn(Req) -> Resp) -> Result<Worker, Crash>
    where
        Req: DeserializeOwned,
        Resp: Serialize,
    {
        let (request_out, request_in) = pipe()?;
        let (answer_out, answer_in) = pipe()?;
        // SAFETY: the child only serves requests and leaves with `_exit`; it never returns into
        // the caller's frames (a panic is caught), so none of the parent's state is used twice.
        let pid = unsafe { libc::fork() };
        if pid < 0 {
            return Err(io(format!("fork: {}", std::io::Error::last_os_error())));
        }
        if pid == 0 {
            drop(request_in);
            drop(answer_out);
            let keep = [request_out.as_raw_fd(), answer_in.as_raw_fd()];
            become_worker(&keep);
            serve(handler, File::from(request_out), File::from(answer_in));
            // SAFETY: ends the worker without unwinding or running the parent's exit handlers.
            unsafe { libc::_exit(0) }
        }
        Ok(Worker {
            pid,
            requests: File::from(request_in),
            answers: BufReader::new(File::from(answer_out)),
            reaped: false,
        })
    }

    /// In the new worker: dies with the thread that forked it, ignores `SIGINT`, prints no
    /// panic, and closes every descriptor but standard error and `keep` (other workers' pipes
    /// among them, whose ends must close when their owners do).
    fn become_worker(keep: &[RawFd]) {
        // SAFETY: plain system calls on this process's own signal dispositions and descriptors.
        unsafe {
            #[cfg(target_os = "linux")]
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            libc::signal(libc::SIGINT, libc::SIG_IGN);
            let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
            if null >= 0 {
                libc::dup2(null, 0);
                libc::dup2(null, 1);
            }
        }
        // A panic's message goes back through the pipe; printing it here would take the
        // standard error lock, which another of the parent's threads may have held at the fork.
        std::panic::set_hook(Box::new(|_| {}));
        let open: Vec<RawFd> = std::fs::read_dir("/proc/self/fd")
            .map(|dir| {
                dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
                    .collect()
            })
            .unwrap_or_default();
        for fd in open {
            if fd > 2 && !keep.contains(&fd) {
                // SAFETY: closes a descriptor this process no longer uses.
                unsafe { libc::close(fd) };
            }
        }
    }

    /// The worker's loop: one answer line per request line, until the requests end.
    fn serve<Req, Resp>(handler: fn(Req) -> Resp, requests: File, mut answers: File)
    where
        Req: DeserializeOwned,
        Resp: Serialize,
    {
        let mut requests = BufReader::new(requests);
        let mut line = Vec::new();
        loop {
            line.clear();
            match requests.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let answer: Result<Resp, String> = match serde_json::from_slice::<Req>(&line) {
                Ok(request) => {
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(request)))
                        .map_err(|payload| panic_message(payload.as_ref()))
                }
                Err(e) => Err(format!("unreadable request: {e}")),
            };
            let mut bytes = serde_json::to_vec(&answer)
                .unwrap_or_else(|e| serde_json::to_vec(&Err::<(), _>(e.to_string())).unwrap());
            bytes.push(b'\n');
            if answers.write_all(&bytes).is_err() {
                return;
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

    fn sum(values: Vec<u32>) -> u64 {
        values.iter().map(|&x| x as u64).sum()
    }

    fn pid(_: ()) -> u32 {
        std::process::id()
    }

    fn panics(_: ()) -> u8 {
        panic!("deliberate")
    }

    fn crashes(null: bool) -> u32 {
        if null {
            // A write through a null pointer, as a crashing C++ solver would do.
            unsafe { std::ptr::null_mut::<u8>().write_volatile(1) };
        }
        std::process::id()
    }

    fn aborts(_: ()) -> u8 {
        std::process::abort()
    }

    fn hangs(_: ()) -> u8 {
        loop {
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    #[test]
    fn answers_with_the_handler_in_one_worker() {
        let values: Vec<u32> = (0..1000).collect();
        assert_eq!(call(sum, &values, None), Ok(499_500));
        let first = call(pid, &(), None).unwrap();
        assert_eq!(call(pid, &(), None), Ok(first), "the worker is reused");
        #[cfg(unix)]
        assert_ne!(first, std::process::id());
    }

    #[test]
    fn a_panic_is_reported_with_its_message() {
        let got = call(panics, &(), None);
        assert!(
            matches!(&got, Err(Crash::Panic(m)) if m.contains("deliberate")),
            "{got:?}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_crash_ends_the_worker_only_and_the_next_call_gets_a_new_one() {
        let ended_by = |got: Result<_, Crash>, signal: &str| match got {
            Err(Crash::Signal(s)) => assert!(s.contains(signal), "{s}"),
            other => panic!("{other:?}"),
        };
        let before = call(crashes, &false, None).unwrap();
        ended_by(call(crashes, &true, None).map(|_| ()), "segmentation");
        let after = call(crashes, &false, None).unwrap();
        assert_ne!(before, after);
        ended_by(call(aborts, &(), None).map(|_| ()), "abort");
    }

    #[cfg(unix)]
    #[test]
    fn a_worker_past_its_deadline_is_killed() {
        let started = Instant::now();
        assert_eq!(call(hangs, &(), Some(Instant::now())), Err(Crash::Killed));
        assert!(started.elapsed() < GRACE + Duration::from_secs(5));
    }
}
