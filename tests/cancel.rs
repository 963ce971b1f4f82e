//! Cancelling runs from another thread: a [`Cancel`] flag in the [`Limits`] stops a search that
//! would run for ages (counting every solution of an empty 16×16) within a moment of being set,
//! in every backend that polls it, hands it to its engine or kills its process, and the run
//! reports a time-out, never an answer.

use std::sync::Arc;
use std::time::{Duration, Instant};

use sudoku_lab::backend::{Backend, Cancel, Limits};
use sudoku_lab::backends::{self, BackendKind, BackendOptions};
use sudoku_lab::model::{Puzzle, Shape};
use sudoku_lab::task::{self, RunError, Task};

/// How long after the flag a cancelled run may take to return.
const PROMPT: Duration = Duration::from_secs(2);

fn empty(n: usize) -> Puzzle {
    Puzzle::new(Arc::new(Shape::standard(n, false).unwrap()), vec![0; n * n]).unwrap()
}

fn backend(kind: BackendKind, options: &BackendOptions) -> Box<dyn Backend> {
    backends::create(kind, options).unwrap()
}

/// Counts every solution of the empty 16×16 with `backend`, no deadline, and sets the flag
/// 300 ms in: the time from the flag to the return, and the run's error.
fn cancelled_count(backend: &dyn Backend) -> (Duration, RunError) {
    let cancel = Cancel::new();
    let limits = Limits::none().cancelled_by(cancel.clone());
    let puzzle = empty(16);
    std::thread::scope(|s| {
        let setter = s.spawn(|| {
            std::thread::sleep(Duration::from_millis(300));
            cancel.set();
            Instant::now()
        });
        let result = task::run(backend, &puzzle, Task::Count { limit: u64::MAX }, &limits);
        let returned = Instant::now();
        let set = setter.join().unwrap();
        let late = returned.saturating_duration_since(set);
        match result {
            Ok(a) => panic!(
                "{}: a cancelled count answered {}",
                backend.name(),
                a.status()
            ),
            Err(e) => (late, e),
        }
    })
}

fn assert_stops_promptly(backend: &dyn Backend) {
    let (late, e) = cancelled_count(backend);
    assert!(e.timed_out(), "{}: {e}", backend.name());
    assert!(
        late < PROMPT,
        "{}: returned {late:?} after the flag",
        backend.name()
    );
}

#[test]
fn a_cancelled_dfs_count_stops_promptly() {
    assert_stops_promptly(backend(BackendKind::Dfs, &Default::default()).as_ref());
}

#[test]
fn a_cancelled_dlx_count_stops_promptly() {
    assert_stops_promptly(backend(BackendKind::Dlx, &Default::default()).as_ref());
}

#[test]
fn a_cancelled_sat_count_stops_promptly() {
    assert_stops_promptly(backend(BackendKind::Sat, &Default::default()).as_ref());
}

#[cfg(feature = "cp")]
#[test]
fn a_cancelled_cp_count_stops_promptly_in_process_and_in_its_worker() {
    assert_stops_promptly(backend(BackendKind::Cp, &Default::default()).as_ref());
    let mut o = BackendOptions::default();
    o.cp.worker = Some(sudoku_lab::isolate::WorkerProgram::new(
        env!("CARGO_BIN_EXE_sudoku-lab"),
        ["__worker", "cp"],
    ));
    assert_stops_promptly(backend(BackendKind::Cp, &o).as_ref());
}

#[test]
fn a_cancelled_ilp_count_returns_promptly() {
    assert_stops_promptly(backend(BackendKind::Ilp, &Default::default()).as_ref());
}

/// An external solver that would sleep for half a minute is killed on the flag.
#[cfg(unix)]
#[test]
fn a_cancelled_external_solver_is_killed() {
    let mut o = BackendOptions::default();
    o.sat_ext.command = Some("sh -c 'sleep 30' {}".into());
    assert_stops_promptly(backend(BackendKind::SatExt, &o).as_ref());
}

#[test]
fn a_flag_set_before_the_run_stops_it_at_once_as_a_time_out() {
    let cancel = Cancel::new();
    cancel.set();
    let limits = Limits::none().cancelled_by(cancel);
    for kind in [BackendKind::Dfs, BackendKind::Dlx, BackendKind::Sat] {
        let b = backend(kind, &Default::default());
        let start = Instant::now();
        for n in [9, 16, 25] {
            let result = task::run(b.as_ref(), &empty(n), Task::Unique, &limits);
            assert!(
                matches!(&result, Err(e) if e.timed_out()),
                "{kind} {n}×{n}: {:?}",
                result.map(|a| a.status())
            );
        }
        assert!(start.elapsed() < PROMPT, "{kind}: {:?}", start.elapsed());
    }
}

#[test]
fn a_child_flag_is_set_by_its_parent_not_the_other_way() {
    let parent = Cancel::new();
    let child = parent.child();
    let grandchild = child.child();
    grandchild.set();
    assert!(grandchild.is_set() && !child.is_set() && !parent.is_set());
    let other = parent.child();
    parent.set();
    assert!(other.is_set() && child.is_set());
}
