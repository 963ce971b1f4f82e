//! The user documentation that the command generates or that the README promises: shell
//! completions, man pages, and every `sudoku-lab` command of the README's quick tour run as
//! written.

mod common;
use common::{run, stdout};

use std::process::Command;

#[test]
fn completions_generate_for_every_shell() {
    // Each script must name the command and its subcommands and flags.
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef sudoku-lab"),
        ("fish", "complete -c sudoku-lab"),
        ("elvish", "sudoku-lab"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let o = run(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}");
        let script = stdout(&o);
        assert!(script.contains(marker), "{shell}: no '{marker}'");
        for word in ["xcheck", "optimize", "backend", "timeout", "diagonals"] {
            assert!(script.contains(word), "{shell}: '{word}' missing");
        }
    }
    let o = run(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn man_pages_generate() {
    let o = run(&["man"]);
    assert_eq!(o.status.code(), Some(0));
    let page = stdout(&o);
    assert!(
        page.starts_with(".ie") || page.contains(".TH sudoku-lab 1"),
        "{page}"
    );
    assert!(page.contains(".TH sudoku-lab 1"));
    for command in ["solve", "xcheck", "completions"] {
        assert!(page.contains(command), "main page lists {command}");
    }
    let o = run(&["man", "xcheck"]);
    assert_eq!(o.status.code(), Some(0));
    let page = stdout(&o);
    assert!(page.contains(".TH sudoku-lab-xcheck 1"));
    assert!(page.contains("backends"), "xcheck page lists its flags");
    let o = run(&["man", "no-such-command"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no command 'no-such-command'"));
}

/// The `sh` block of the README's "Quick tour", one command a line.
fn quick_tour() -> Vec<String> {
    let readme = include_str!("../README.md");
    let section = readme
        .split("## Quick tour")
        .nth(1)
        .expect("README has a Quick tour");
    let block = section
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("the Quick tour has an sh block");
    block
        .lines()
        .filter(|l| l.starts_with("sudoku-lab "))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_quick_tour_command_runs_as_written() {
    let commands = quick_tour();
    assert!(commands.len() >= 10, "{commands:?}");
    let seen: std::collections::BTreeSet<&str> = commands
        .iter()
        .filter_map(|c| c.split_whitespace().nth(1))
        .collect();
    for command in [
        "solve",
        "count",
        "unique",
        "optimize",
        "judge",
        "xcheck",
        "bench",
        "generate",
        "encode",
        "backends",
        "completions",
        "man",
    ] {
        assert!(
            seen.contains(command),
            "no example of `{command}` in the tour"
        );
    }
    // Run in a scratch folder that sees the repository's test data, so files the commands
    // write (plots, CSV, LP, completions) land there.
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests"),
        dir.path().join("tests"),
    )
    .unwrap();
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_sudoku-lab"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for line in &commands {
        let o = Command::new("sh")
            .args(["-c", &format!("set -e; {line}")])
            .current_dir(dir.path())
            .env("PATH", &path)
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "`{line}` failed:\n{}{}",
            stdout(&o),
            String::from_utf8_lossy(&o.stderr)
        );
        let wrote_file = line.contains(" > ") || line.contains(" -o ") || line.contains("--plot");
        assert!(
            wrote_file || !o.stdout.is_empty(),
            "`{line}` printed nothing"
        );
    }
    for file in [
        "bench.svg",
        "bench.csv",
        "sample0.lp",
        "sudoku-lab.bash",
        "sudoku-lab-xcheck.1",
    ] {
        let len = std::fs::metadata(dir.path().join(file)).map_or(0, |m| m.len());
        assert!(len > 0, "{file} was not written");
    }
}
