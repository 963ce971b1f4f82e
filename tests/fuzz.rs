//! `sudoku-lab fuzz` end to end: correct backends pass a fixed budget on every shape, a run is the
//! same whatever the number of jobs, and bad options are usage errors.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudoku-lab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// The summary without its rate (cases/s differ from run to run).
fn summary(o: &Output) -> String {
    let out = stdout(o);
    out.split(", ").next().unwrap_or_default().to_string()
}

#[test]
fn correct_backends_pass_a_fixed_budget_on_every_shape() {
    for (shape, task) in [
        (&["--size", "4"][..], "count"),
        (&["--size", "6", "--diagonals"][..], "unique"),
        (&["--size", "5", "--jigsaw"][..], "count"),
        (&["--boxes", "2x3", "--diagonals"][..], "solve"),
        (&["--size", "4"][..], "optimize"),
        (&["--size", "9"][..], "unique"),
    ] {
        let mut args = vec![
            "fuzz",
            "--backends",
            "dfs,dlx,sat",
            "--puzzles",
            "40",
            "--seed",
            "11",
            "--task",
            task,
        ];
        args.extend_from_slice(shape);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(
            summary(&o),
            "no fault in 40 cases (seed 11",
            "{args:?}: {}",
            stdout(&o)
        );
    }
}

#[test]
fn a_run_is_the_same_whatever_the_jobs_and_can_start_at_any_case() {
    let base = [
        "fuzz",
        "--backends",
        "dfs,dlx",
        "--seed",
        "5",
        "--size",
        "6",
        "--puzzles",
        "30",
    ];
    let one = run(&[&base[..], &["-j", "1"]].concat());
    let two = run(&[&base[..], &["-j", "2"]].concat());
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    assert_eq!(summary(&one), summary(&two));
    let later = run(&[&base[..], &["--case", "100"]].concat());
    assert!(
        stdout(&later).starts_with("no fault in 30 cases (seed 5, cases 100..130)"),
        "{}",
        stdout(&later)
    );
}

#[test]
fn bad_options_are_usage_errors() {
    for (args, words) in [
        (
            &["fuzz", "--backends", "dfs,nope", "--puzzles", "1"][..],
            "unknown backend 'nope'",
        ),
        (
            &["fuzz", "--backends", "dfs", "--size", "7", "--puzzles", "1"][..],
            "no box shape fits side 7",
        ),
        (
            &[
                "fuzz",
                "--backends",
                "dfs",
                "--boxes",
                "2x",
                "--puzzles",
                "1",
            ][..],
            "--boxes takes RxC",
        ),
        (
            &["fuzz", "--backends", "dfs", "--seconds", "0"][..],
            "--seconds must be a positive number",
        ),
        (
            &[
                "fuzz",
                "--backends",
                "dfs",
                "--task",
                "optimize",
                "--weights",
                "no/such/file",
            ][..],
            "--weights no/such/file",
        ),
        (&["fuzz", "--puzzles", "1"][..], "--backends"),
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(words), "{args:?}: {}", stderr(&o));
    }
}
