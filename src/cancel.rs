//! When a run must stop: a [`Cancel`] flag set from another thread, a deadline, or both
//! ([`Halt`]), and how often code that waits looks at them ([`CANCEL_POLL`]).
//!
//! This module imports nothing of the crate, so that every floor can use it: the engines poll a
//! [`Halt`] in their search loops, [`crate::process`] and [`crate::isolate`] wait on their
//! programs with [`Halt::wait`], and [`crate::backend::Limits`] carries the same two parts for a
//! backend to hand down.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A flag that stops runs from another thread: clones share it, and once [`Cancel::set`], every
/// run that carries it stops as at its deadline. A [`Cancel::child`] is also set by its parent,
/// so that a backend can stop its own helpers without cancelling the caller's flag.
#[derive(Debug, Clone, Default)]
pub struct Cancel {
    own: Arc<AtomicBool>,
    /// The flags of the ancestors ([`Cancel::child`]).
    parents: Vec<Arc<AtomicBool>>,
}

impl Cancel {
    pub fn new() -> Cancel {
        Cancel::default()
    }
    /// Stops every run that carries this flag or one of its children.
    pub fn set(&self) {
        self.own.store(true, Ordering::Relaxed)
    }
    /// Whether this flag or one of its ancestors is set.
    pub fn is_set(&self) -> bool {
        self.own.load(Ordering::Relaxed) || self.parents.iter().any(|p| p.load(Ordering::Relaxed))
    }
    /// A new flag, set by [`Cancel::set`] on itself or on `self` (or on an ancestor of `self`).
    pub fn child(&self) -> Cancel {
        let mut parents = self.parents.clone();
        parents.push(self.own.clone());
        Cancel {
            own: Arc::new(AtomicBool::new(false)),
            parents,
        }
    }
}

/// How often code that waits on an engine (a worker process, a solver process, a thread) looks
/// at a cancel flag.
pub const CANCEL_POLL: Duration = Duration::from_millis(20);

/// When a run must stop: at its deadline, or once its cancel flag is set. What a polling search
/// keeps from a backend's limits.
#[derive(Debug, Clone, Default)]
pub struct Halt {
    pub deadline: Option<Instant>,
    pub cancel: Option<Cancel>,
}

impl Halt {
    /// Whether the deadline has passed or the flag is set.
    pub fn reached(&self) -> bool {
        due(self.deadline, self.cancel.as_ref())
    }
    /// Whether the run can be stopped before it ends (a deadline or a flag).
    pub fn can_stop(&self) -> bool {
        self.deadline.is_some() || self.cancel.is_some()
    }
    /// Whether the cancel flag is set (the deadline aside).
    pub fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(Cancel::is_set)
    }
    /// Waits for `poll` to give something, until the deadline or the flag: `poll(wait)` waits at
    /// most `wait` (`None`: as long as it takes) and gives `Ok(Some(_))` once there is an answer,
    /// `Ok(None)` when `wait` passed with none. With a flag, `poll` is called again every
    /// [`CANCEL_POLL`]; `Ok(None)` from here means the run must stop.
    pub fn wait<T, E>(
        &self,
        mut poll: impl FnMut(Option<Duration>) -> Result<Option<T>, E>,
    ) -> Result<Option<T>, E> {
        let left = |d: Instant| d.saturating_duration_since(Instant::now());
        loop {
            let wait = match (self.deadline, &self.cancel) {
                (None, None) => return poll(None),
                (Some(d), None) => return poll(Some(left(d))),
                (d, Some(_)) => d.map_or(CANCEL_POLL, |d| CANCEL_POLL.min(left(d))),
            };
            match poll(Some(wait)) {
                Ok(None) if !self.reached() => continue,
                other => return other,
            }
        }
    }
    /// The next message on `rx`, waiting until the deadline or the flag (looked at every
    /// [`CANCEL_POLL`]); [`RecvTimeoutError::Timeout`] once the run must stop.
    pub fn recv<T>(&self, rx: &Receiver<T>) -> Result<T, RecvTimeoutError> {
        let got = self.wait(|wait| {
            let got = match wait {
                None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
                Some(w) => rx.recv_timeout(w),
            };
            match got {
                Ok(t) => Ok(Some(t)),
                Err(RecvTimeoutError::Timeout) => Ok(None),
                Err(e) => Err(e),
            }
        })?;
        got.ok_or(RecvTimeoutError::Timeout)
    }
}

/// A bare deadline.
impl From<Option<Instant>> for Halt {
    fn from(deadline: Option<Instant>) -> Halt {
        Halt {
            deadline,
            cancel: None,
        }
    }
}

/// Whether a run with this deadline and flag must stop.
pub fn due(deadline: Option<Instant>, cancel: Option<&Cancel>) -> bool {
    cancel.is_some_and(Cancel::is_set) || deadline.is_some_and(|d| Instant::now() >= d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn a_child_is_set_by_its_parent_only() {
        let parent = Cancel::new();
        let child = parent.child();
        child.set();
        assert!(child.is_set() && !parent.is_set());
        let other = parent.child();
        parent.set();
        assert!(other.is_set());
    }

    #[test]
    fn waits_end_at_the_deadline_or_the_flag() {
        let (tx, rx) = mpsc::channel::<u32>();
        let soon = Halt::from(Some(Instant::now() + Duration::from_millis(30)));
        assert_eq!(soon.recv(&rx), Err(RecvTimeoutError::Timeout));
        assert!(soon.reached());
        let cancel = Cancel::new();
        let halt = Halt {
            deadline: None,
            cancel: Some(cancel.clone()),
        };
        tx.send(7).unwrap();
        assert_eq!(halt.recv(&rx), Ok(7));
        cancel.set();
        assert!(halt.cancelled());
        assert_eq!(halt.recv(&rx), Err(RecvTimeoutError::Timeout));
        drop(tx);
        assert_eq!(
            Halt::default().recv(&rx),
            Err(RecvTimeoutError::Disconnected)
        );
        assert!(!Halt::default().can_stop() && !Halt::default().reached());
    }
}
